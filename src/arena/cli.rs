//! `climbot arena`: duplicate matches between bots from the command line.

use super::{ArenaConfig, GameRunner, Runner, Sprt, run};
use crate::daifugo::Daifugo;
use crate::dalmuti::Dalmuti;
use crate::lexio::Lexio;
use clap::{Args, ValueEnum};

/// The games the arena runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Lexio.
    Lexio,
    /// The Great Dalmuti.
    Dalmuti,
    /// Daifugo.
    Daifugo,
}

/// Daifugo rule presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesName {
    /// The house rules (rules.md 3.10, default).
    House,
    /// The UECda computer-tournament rules.
    Uecda,
}

/// `climbot arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: GameName,
    /// Seats at the table.
    #[arg(long)]
    pub players: u32,
    /// One bot per seat, comma-separated; the last name repeats (`hard,easy` is one
    /// hard bot against easy bots).
    #[arg(long, value_delimiter = ',', required = true)]
    pub lineup: Vec<String>,
    /// Blocks (duplicate matches) to play; the maximum with --sprt.
    #[arg(long, default_value_t = 100)]
    pub blocks: u64,
    /// The seed of every deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rounds (Lexio), hands (Dalmuti) or games (Daifugo) per match; the game's
    /// default when omitted.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Daifugo rule preset.
    #[arg(long, value_enum, default_value = "house")]
    pub rules: RulesName,
    /// Stop early once a sequential test on the paired difference is decided:
    /// H1 = the first bot leads by DELTA in the primary metric.
    #[arg(long, value_name = "DELTA")]
    pub sprt: Option<f64>,
    /// Send every decision of a served level (easy, normal, hard, expert) through the
    /// climbot server at this address, e.g. `http://127.0.0.1:50051`. With the same
    /// seed the results equal the in-process run.
    #[arg(long, value_name = "URL")]
    pub via: Option<String>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `climbot arena`.
pub fn arena(args: ArenaArgs) -> Result<(), String> {
    let remote = match &args.via {
        Some(url) => Some(std::sync::Arc::new(super::remote::Remote::connect(url)?)),
        None => None,
    };
    let players = args.players as usize;
    let runner: Box<dyn GameRunner> = match args.game {
        GameName::Lexio => Box::new(Runner::<Lexio>::new(
            players,
            args.rounds
                .unwrap_or(crate::lexio::referee::ROUNDS_PER_MATCH),
            (),
            remote,
        )?),
        GameName::Dalmuti => Box::new(Runner::<Dalmuti>::new(
            players,
            args.rounds.unwrap_or(crate::dalmuti::referee::MATCH_HANDS),
            (),
            remote,
        )?),
        GameName::Daifugo => Box::new(Runner::<Daifugo>::new(
            players,
            args.rounds.unwrap_or(8),
            match args.rules {
                RulesName::House => crate::daifugo::rules::RuleSet::house(),
                RulesName::Uecda => crate::daifugo::rules::RuleSet::uecda(),
            },
            remote,
        )?),
    };
    let config = ArenaConfig {
        lineup: args.lineup,
        blocks: args.blocks,
        seed: args.seed,
        sprt: args.sprt.map(|delta| Sprt {
            delta,
            alpha: 0.05,
            beta: 0.05,
        }),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("--threads: {e}"))?;
    let report = pool.install(|| run(runner.as_ref(), &config))?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    Ok(())
}
