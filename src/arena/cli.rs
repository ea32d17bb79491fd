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
    /// The house rules (docs/rules/daifugo-presets.md; the default).
    House,
    /// The UECda computer-tournament rules.
    Uecda,
}

/// `climbot arena`.
#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// The table.
    #[command(flatten)]
    pub table: TableArgs,
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
    /// Stop early once a sequential test on the paired difference is decided:
    /// H1 = the first bot leads by DELTA in the primary metric.
    #[arg(long, value_name = "DELTA")]
    pub sprt: Option<f64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The table a run plays at: the game, its size, the match length, the rules and the
/// optional server every served level decides through.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The game.
    #[arg(long, value_enum)]
    pub game: GameName,
    /// Seats at the table.
    #[arg(long)]
    pub players: u32,
    /// Rounds (Lexio), hands (Dalmuti) or games (Daifugo) per match; the game's
    /// default when omitted.
    #[arg(long)]
    pub rounds: Option<u32>,
    /// Daifugo rule preset.
    #[arg(long, value_enum, default_value = "house")]
    pub rules: RulesName,
    /// Send every decision of a served level (easy, normal, hard, expert) through the
    /// climbot server at this address, e.g. `http://127.0.0.1:50051`. With the same
    /// seed the results equal the in-process run.
    #[arg(long, value_name = "URL")]
    pub via: Option<String>,
}

impl TableArgs {
    /// The block runner of this table.
    pub fn runner(&self) -> Result<Box<dyn GameRunner>, String> {
        let remote = match &self.via {
            Some(url) => Some(std::sync::Arc::new(super::remote::Remote::connect(url)?)),
            None => None,
        };
        let players = self.players as usize;
        Ok(match self.game {
            GameName::Lexio => Box::new(Runner::<Lexio>::new(
                players,
                self.rounds
                    .unwrap_or(crate::lexio::referee::ROUNDS_PER_MATCH),
                (),
                remote,
            )?),
            GameName::Dalmuti => Box::new(Runner::<Dalmuti>::new(
                players,
                self.rounds.unwrap_or(crate::dalmuti::referee::MATCH_HANDS),
                (),
                remote,
            )?),
            GameName::Daifugo => Box::new(Runner::<Daifugo>::new(
                players,
                self.rounds.unwrap_or(8),
                match self.rules {
                    RulesName::House => crate::daifugo::rules::RuleSet::house(),
                    RulesName::Uecda => crate::daifugo::rules::RuleSet::uecda(),
                },
                remote,
            )?),
        })
    }
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| format!("--threads: {e}"))
}

/// Runs `climbot arena`.
pub fn arena(args: ArenaArgs) -> Result<(), String> {
    let runner = args.table.runner()?;
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
    let report = thread_pool(args.threads)?.install(|| run(runner.as_ref(), &config))?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    Ok(())
}

/// `climbot ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
    /// The table.
    #[command(flatten)]
    pub table: TableArgs,
    /// The levels, weakest expected first (the first is the rating anchor, 0); by
    /// default `random` and every level the game serves.
    #[arg(long, value_delimiter = ',')]
    pub levels: Vec<String>,
    /// Blocks per pair of levels and direction (A alone against a field of B, and B
    /// against a field of A).
    #[arg(long, default_value_t = 40)]
    pub blocks: u64,
    /// The seed of every deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Runs `climbot ladder`.
pub fn ladder(args: LadderArgs) -> Result<(), String> {
    let runner = args.table.runner()?;
    let levels = if args.levels.is_empty() {
        std::iter::once("random".to_string())
            .chain(
                crate::bot::Difficulty::ALL
                    .iter()
                    .map(|d| d.name().to_string())
                    .filter(|name| runner.check_bot(name).is_ok()),
            )
            .collect()
    } else {
        args.levels
    };
    let config = super::ladder::LadderConfig {
        levels,
        blocks: args.blocks,
        seed: args.seed,
    };
    let report = thread_pool(args.threads)?.install(|| {
        super::ladder::run_ladder(runner.as_ref(), &config, &mut |line| eprintln!("{line}"))
    })?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    Ok(())
}
