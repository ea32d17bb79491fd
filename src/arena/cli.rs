//! `climbot arena`: duplicate matches between bots from the command line.

use super::{ArenaConfig, DalmutiRunner, GameRunner, LexioRunner, Sprt, run};
use crate::lexio::tiles::PlayerCount;
use clap::{Args, ValueEnum};

/// The games the arena runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Lexio.
    Lexio,
    /// The Great Dalmuti.
    Dalmuti,
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

/// Runs `climbot arena`.
pub fn arena(args: ArenaArgs) -> Result<(), String> {
    let runner: Box<dyn GameRunner> = match args.game {
        GameName::Lexio => Box::new(LexioRunner {
            players: PlayerCount::from_count(args.players)
                .ok_or_else(|| format!("--players {}: Lexio takes 3, 4 or 5", args.players))?,
            rounds: args
                .rounds
                .unwrap_or(crate::lexio::referee::ROUNDS_PER_MATCH),
        }),
        GameName::Dalmuti => {
            use crate::dalmuti::turn::{MAX_PLAYERS, MIN_PLAYERS};
            let players = args.players as usize;
            if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
                return Err(format!(
                    "--players {players}: Dalmuti takes {MIN_PLAYERS} to {MAX_PLAYERS}"
                ));
            }
            Box::new(DalmutiRunner {
                players,
                hands: args.rounds.unwrap_or(20),
            })
        }
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
