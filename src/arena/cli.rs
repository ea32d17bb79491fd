//! `climbot arena`: duplicate matches between bots from the command line.

use super::ladder::Pin;
use super::shard::{Merged, Shard, ShardFile, ShardedRun, TableSpec, merge, play_shard};
use super::{ArenaConfig, ArenaError, GameRunner, Runner, Sprt, entrants, run_with_progress};
use crate::daifugo::Daifugo;
use crate::dalmuti::Dalmuti;
use crate::game::GameKind;
use crate::lexio::Lexio;
use crate::tools::ToolError;
use crate::tools::progress::Progress;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

/// `--game`: a game by its name, each listed in the help with its title.
pub fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    PossibleValuesParser::new(
        GameKind::ALL.map(|kind| PossibleValue::new(kind.name()).help(kind.title())),
    )
    .map(|name| {
        name.parse::<GameKind>()
            .expect("one of the possible values")
    })
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
    /// hard bot against easy bots). Every game: easy, normal, hard, expert, singles,
    /// random; Lexio also flat. Variants: hard/tempo=0 (weights), expert/iterations=400.
    /// Diagnostic: told:expert/iterations=400 is that search told the true deal.
    #[arg(long, value_delimiter = ',', required = true)]
    pub lineup: Vec<String>,
    /// Blocks (duplicate matches) to play, at least 2 (a 95% interval needs two);
    /// the maximum with --sprt.
    #[arg(long, default_value_t = 100, value_parser = crate::tools::blocks)]
    pub blocks: u64,
    /// The seed of every deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop early once a sequential test on the paired difference is decided:
    /// H1 = the first bot leads by DELTA (> 0) in the primary metric. Needs a lineup
    /// of two bots.
    #[arg(long, value_name = "DELTA")]
    pub sprt: Option<f64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play only shard I of N (the blocks whose index is I modulo N) and print them as
    /// a shard file (JSON) for `climbot merge`; not with --sprt.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// The table a run plays at: the game, its size, the match length, the rules and the
/// optional server every served level decides through.
#[derive(Args, Debug)]
pub struct TableArgs {
    /// The game.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Seats at the table.
    #[arg(long)]
    pub players: u32,
    /// Rounds (Lexio), hands (Dalmuti) or games (Daifugo) per match, at least 1;
    /// the game's default when omitted.
    #[arg(long, value_parser = crate::tools::match_length)]
    pub rounds: Option<u32>,
    /// Daifugo only: the rule preset (default: house).
    #[arg(long, value_enum)]
    pub rules: Option<RulesName>,
    /// Send every decision of a served level (easy, normal, hard, expert) through the
    /// climbot server at this address, e.g. `http://127.0.0.1:50051`. With the same
    /// seed the results equal the in-process run.
    #[arg(long, value_name = "URL", value_parser = crate::arena::remote::parse_via)]
    pub via: Option<String>,
}

impl TableArgs {
    /// The table as a shard file records it.
    fn spec(&self) -> TableSpec {
        TableSpec {
            game: self.game.name().to_string(),
            players: self.players,
            rounds: self.rounds,
            rules: self
                .rules
                .and_then(|r| r.to_possible_value())
                .map(|v| v.get_name().to_string()),
        }
    }

    /// The table a shard file names (without `--via`).
    fn of_spec(spec: &TableSpec) -> Result<TableArgs, ToolError> {
        let game = spec
            .game
            .parse::<GameKind>()
            .map_err(|e| ToolError::usage(format!("a shard file's game: {e}")))?;
        let rules = spec
            .rules
            .as_deref()
            .map(|r| {
                RulesName::from_str(r, false)
                    .map_err(|_| ToolError::usage(format!("a shard file's rules: {r:?}")))
            })
            .transpose()?;
        Ok(TableArgs {
            game,
            players: spec.players,
            rounds: spec.rounds,
            rules,
            via: None,
        })
    }

    /// The block runner of this table: a usage error for a table the game does not
    /// have, a failure when the `--via` server cannot be reached.
    pub fn runner(&self) -> Result<Box<dyn GameRunner>, ToolError> {
        if self.rules.is_some() && self.game != GameKind::Daifugo {
            return Err(ToolError::usage(format!(
                "--rules: only Daifugo has rule presets; {} has one set of rules",
                self.game.title()
            )));
        }
        // The table is checked before any connection is made.
        let local = self.local_runner(None).map_err(ToolError::usage_of)?;
        let Some(url) = &self.via else {
            return Ok(local);
        };
        let remote = std::sync::Arc::new(super::remote::Remote::connect(url)?);
        self.local_runner(Some(remote)).map_err(ToolError::usage_of)
    }

    fn local_runner(
        &self,
        remote: Option<std::sync::Arc<super::remote::Remote>>,
    ) -> Result<Box<dyn GameRunner>, ArenaError> {
        let players = self.players as usize;
        Ok(match self.game {
            GameKind::Lexio => Box::new(Runner::<Lexio>::new(
                players,
                self.rounds
                    .unwrap_or(crate::lexio::referee::ROUNDS_PER_MATCH),
                (),
                remote,
            )?),
            GameKind::Dalmuti => Box::new(Runner::<Dalmuti>::new(
                players,
                self.rounds.unwrap_or(crate::dalmuti::referee::MATCH_HANDS),
                (),
                remote,
            )?),
            GameKind::Daifugo => Box::new(Runner::<Daifugo>::new(
                players,
                self.rounds.unwrap_or(8),
                match self.rules.unwrap_or(RulesName::House) {
                    RulesName::House => crate::daifugo::rules::RuleSet::house(),
                    RulesName::Uecda => crate::daifugo::rules::RuleSet::uecda(),
                },
                remote,
            )?),
        })
    }
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, ToolError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| ToolError::Failed(format!("--threads: {e}")))
}

/// Runs `climbot arena`.
pub fn arena(args: ArenaArgs) -> Result<(), ToolError> {
    let runner = args.table.runner()?;
    let (seats, bots) = entrants(&args.lineup, runner.players()).map_err(ToolError::usage_of)?;
    for name in &seats {
        runner.check_bot(name).map_err(ToolError::usage_of)?;
    }
    if let Some(shard) = args.shard {
        if args.sprt.is_some() {
            return Err(ToolError::usage(
                "--sprt stops on the blocks played so far, which a shard cannot know: \
                 shard a run without --sprt",
            ));
        }
        let run = ShardedRun::Arena {
            lineup: args.lineup,
            blocks: args.blocks,
            seed: args.seed,
        };
        return sharded(runner.as_ref(), args.table.spec(), run, shard, args.threads);
    }
    if let Some(delta) = args.sprt {
        if !(delta.is_finite() && delta > 0.0) {
            return Err(ToolError::usage(format!(
                "--sprt {delta}: the lead to test for must be a positive number"
            )));
        }
        if bots.len() != 2 {
            return Err(ToolError::usage(format!(
                "--sprt compares two bots; the lineup has {}",
                bots.len()
            )));
        }
    }
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
    let progress = Progress::new(config.blocks, "blocks");
    let report = thread_pool(args.threads)?
        .install(|| run_with_progress(runner.as_ref(), &config, &|n| progress.advance(n)))?;
    drop(progress);
    if args.json {
        crate::outln!("{}", report.to_json());
    } else {
        crate::out!("{}", report.to_table());
    }
    Ok(())
}

/// `climbot ladder`.
#[derive(Args, Debug)]
pub struct LadderArgs {
    /// The table.
    #[command(flatten)]
    pub table: TableArgs,
    /// The levels, weakest expected first (in a plain ladder the first is the rating
    /// anchor, 0); by default `random` and every level the game serves. The names are
    /// those of `arena --lineup`.
    #[arg(long, value_delimiter = ',')]
    pub levels: Vec<String>,
    /// Blocks per pair of levels and direction (A alone against a field of B, and B
    /// against a field of A), at least 2.
    #[arg(long, default_value_t = 40, value_parser = crate::tools::blocks)]
    pub blocks: u64,
    /// The seed of every deal.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play only shard I of N of every pair's blocks and print them as a shard file
    /// (JSON) for `climbot merge`.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Calibrate the strength dial: the levels default to the game's dial settings
    /// (weakest to strongest), each meets the next two, every served level among them
    /// is pinned at its rating on the ladder and the settings are fitted between, and
    /// the output is the dial's table (the service's `crates/climbot-core/dial/GAME.txt`;
    /// `--json` prints the ratings instead).
    #[arg(long)]
    pub calibrate: bool,
}

/// Runs `climbot ladder`.
pub fn ladder(args: LadderArgs) -> Result<(), ToolError> {
    let runner = args.table.runner()?;
    let grid = if args.calibrate {
        Some(super::ladder::dial_grid(runner.game()).ok_or_else(|| {
            ToolError::usage(format!(
                "--calibrate: {} has no strength dial",
                runner.game()
            ))
        })?)
    } else {
        None
    };
    let given_levels = args.levels.clone();
    let levels = if let (Some(grid), true) = (&grid, args.levels.is_empty()) {
        grid.levels.iter().map(|l| l.to_string()).collect()
    } else if args.levels.is_empty() {
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
    if levels.len() < 2 {
        return Err(ToolError::usage("--levels: name at least two levels"));
    }
    for level in &levels {
        runner
            .check_bot(level)
            .map_err(|e| ToolError::usage_of(e.named_by("--levels")))?;
    }
    let (reach, pins) = match &grid {
        Some(grid) => {
            let pins = grid.pins_among(&levels);
            if pins.is_empty() {
                let served: Vec<&str> = grid.pins.iter().map(|p| p.0).collect();
                return Err(ToolError::usage(format!(
                    "--levels: a calibration plays at least one served level ({}), pinned at its ladder rating",
                    served.join(", ")
                )));
            }
            (Some(super::ladder::CALIBRATION_REACH), pins)
        }
        None => (None, vec![Pin::anchor(&levels[0])]),
    };
    if let Some(shard) = args.shard {
        let run = ShardedRun::Ladder {
            levels,
            blocks: args.blocks,
            seed: args.seed,
            reach,
            pins,
        };
        return sharded(runner.as_ref(), args.table.spec(), run, shard, args.threads);
    }
    let config = super::ladder::LadderConfig {
        levels,
        blocks: args.blocks,
        seed: args.seed,
        reach,
        pins,
    };
    let runs = super::ladder::ladder_runs(&config).len() as u64;
    let progress = Progress::new(runs * config.blocks, "blocks");
    let report = thread_pool(args.threads)?.install(|| {
        super::ladder::run_ladder(
            runner.as_ref(),
            &config,
            &mut |line| progress.println(line),
            &|n| progress.advance(n),
        )
    })?;
    drop(progress);
    match &grid {
        Some(grid) if !args.json => {
            let command = calibration_command(&args.table, &given_levels, args.blocks, args.seed);
            crate::out!("{}", report.to_dial_table(grid.title, &command));
        }
        _ if args.json => crate::outln!("{}", report.to_json()),
        _ => crate::out!("{}", report.to_table()),
    }
    Ok(())
}

/// The command line that reproduces a calibration, for its table's header.
fn calibration_command(table: &TableArgs, levels: &[String], blocks: u64, seed: u64) -> String {
    let spec = table.spec();
    let mut command = format!(
        "climbot ladder --calibrate --game {} --players {}",
        spec.game, spec.players
    );
    if let Some(rules) = &spec.rules {
        command += &format!(" --rules {rules}");
    }
    if let Some(rounds) = spec.rounds {
        command += &format!(" --rounds {rounds}");
    }
    if !levels.is_empty() {
        command += &format!(" --levels {}", levels.join(","));
    }
    command + &format!(" --blocks {blocks} --seed {seed}")
}

/// Plays one shard and prints its file.
fn sharded(
    runner: &dyn GameRunner,
    table: TableSpec,
    run: ShardedRun,
    shard: Shard,
    threads: Option<usize>,
) -> Result<(), ToolError> {
    let total: u64 = super::shard::arena_runs(&run)
        .iter()
        .map(|config| shard.blocks(config.blocks).len() as u64)
        .sum();
    let progress = Progress::new(total, "blocks");
    let file = thread_pool(threads)?
        .install(|| play_shard(runner, table, run, shard, &|n| progress.advance(n)))?;
    drop(progress);
    let text = serde_json::to_string(&file)
        .map_err(|e| ToolError::Failed(format!("the shard file: {e}")))?;
    crate::outln!("{text}");
    Ok(())
}

/// `climbot merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard files of one `arena` or `ladder` run (`--shard I/N`), every shard once,
    /// in any order.
    #[arg(required = true, value_name = "SHARD_FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `climbot merge`: the report of the unsharded run (its timing fields aside).
pub fn merge_shards(args: MergeArgs) -> Result<(), ToolError> {
    let files = args
        .files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .map_err(|e| ToolError::Failed(format!("{}: {e}", path.display())))?;
            serde_json::from_str::<ShardFile>(&text)
                .map_err(|e| ToolError::usage(format!("{}: not a shard file: {e}", path.display())))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let table = TableArgs::of_spec(&files[0].table)?;
    let runner = table.runner()?;
    // A calibration's shards merge into the dial's table, headed by the command that
    // plays the same blocks in one run.
    let calibration = match &files[0].run {
        ShardedRun::Ladder {
            reach: Some(_),
            levels,
            blocks,
            seed,
            ..
        } => super::ladder::dial_grid(runner.game()).map(|grid| {
            let default_levels = grid.levels.len() == levels.len()
                && grid
                    .levels
                    .iter()
                    .zip(levels)
                    .all(|(a, b)| *a == b.as_str());
            let given = if default_levels { &[][..] } else { &levels[..] };
            (
                grid.title,
                calibration_command(&table, given, *blocks, *seed),
            )
        }),
        _ => None,
    };
    match merge(runner.as_ref(), &files).map_err(ToolError::usage_of)? {
        Merged::Arena(report) if args.json => crate::outln!("{}", report.to_json()),
        Merged::Arena(report) => crate::out!("{}", report.to_table()),
        Merged::Ladder(report) if args.json => crate::outln!("{}", report.to_json()),
        Merged::Ladder(report) => match calibration {
            Some((title, command)) => crate::out!("{}", report.to_dial_table(title, &command)),
            None => crate::out!("{}", report.to_table()),
        },
    }
    Ok(())
}
