//! The Lexio subcommands: `climbot stats lexio`, `climbot selfplay lexio` and
//! `climbot tables lexio-safety`.

use super::lexio_stats::opening_stats_with_progress;
use super::progress::Progress;
use super::{BrokenRun, ToolError};
use crate::game::{Game, Policy};
use crate::lexio::Lexio;
use crate::lexio::bots::by_name;
use crate::lexio::referee::{deal, play_round, round_seed};
use crate::lexio::tiles::PlayerCount;
use clap::Args;
use rayon::prelude::*;
use std::time::Instant;

/// `climbot stats lexio`: the design documents' opening-hand statistics.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Deals to sample (at least 1).
    #[arg(long, default_value_t = 20_000, value_parser = super::samples)]
    pub deals: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 20_260_731)]
    pub seed: u64,
    /// Players (3, 4 or 5; the documents' reference figures exist for 5 only).
    #[arg(long, default_value_t = 5)]
    pub players: u32,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// `climbot selfplay lexio`: rounds between bots, every action checked.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Players (3, 4 or 5).
    #[arg(long, default_value_t = 5)]
    pub players: u32,
    /// Rounds to play (at least 1).
    #[arg(long, default_value_t = 10_000, value_parser = super::samples)]
    pub rounds: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The bot in every seat: easy, normal, hard, expert, flat, singles, random;
    /// variants such as hard/tempo=0 or expert/iterations=400.
    #[arg(long, default_value = "easy", alias = "policy")]
    pub bot: String,
}

/// `climbot tables lexio-safety`: counts the offline safety table (Lexio Part 2) or, with
/// `--validate`, checks the compiled table on held-out deals.
#[derive(Args, Debug)]
pub struct SafetyTableArgs {
    /// Deals per player count, at least 1 (3, 4 and 5 players each get this many).
    #[arg(long, default_value_t = 400, value_parser = super::samples)]
    pub deals: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the table here instead of standard output.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Validate the compiled table on these deals (use a seed other than the table's)
    /// against the hypergeometric seat estimate, instead of counting a table.
    #[arg(long)]
    pub validate: bool,
    /// With `--validate`: validate this table file instead of the compiled one.
    #[arg(long, requires = "validate")]
    pub table: Option<std::path::PathBuf>,
}

fn player_count(n: u32) -> Result<PlayerCount, ToolError> {
    PlayerCount::from_count(n)
        .ok_or_else(|| ToolError::usage(format!("--players {n}: Lexio takes 3, 4 or 5 players")))
}

/// Runs `climbot stats lexio`.
pub fn stats(args: StatsArgs) -> Result<(), ToolError> {
    let players = player_count(args.players)?;
    let progress = Progress::new(args.deals, "deals");
    let report =
        opening_stats_with_progress(players, args.deals, args.seed, &|n| progress.advance(n));
    drop(progress);
    if args.json {
        crate::outln!("{}", report.to_json());
    } else {
        crate::out!("{}", report.to_table());
    }
    Ok(())
}

/// Runs `climbot selfplay lexio`; fails on the first illegal action or broken invariant.
pub fn selfplay(args: SelfplayArgs) -> Result<(), ToolError> {
    let players = player_count(args.players)?;
    let bot: Box<dyn Policy<Lexio>> = by_name(&args.bot).map_err(|e| {
        ToolError::usage(format!(
            "--bot {}: {e}; one of {}",
            args.bot,
            Lexio::BOT_NAMES
        ))
    })?;
    let seats = vec![bot.as_ref(); players.count()];
    let start = Instant::now();
    let progress = Progress::new(args.rounds, "rounds");
    let actions: Result<Vec<usize>, BrokenRun> = (0..args.rounds)
        .into_par_iter()
        .map(|i| {
            let seed = round_seed(args.seed, i as u32) ^ i;
            let actions = play_round(players, deal(players, seed), 1, [0; 5], seed, &seats)
                .map(|r| r.actions)
                .map_err(|e| BrokenRun {
                    unit: "round",
                    index: i,
                    seed: Some(("deal seed", seed)),
                    reason: e.to_string(),
                });
            progress.advance(1);
            actions
        })
        .collect();
    drop(progress);
    let actions = actions?;
    let elapsed = start.elapsed().as_secs_f64();
    let total: usize = actions.iter().sum();
    crate::outln!(
        "lexio selfplay: {} rounds, {} players, bot {}: {} actions, no illegal action, \
         accounting held after every action; {:.1} s, {:.0} rounds/s, {:.0} actions/s",
        args.rounds,
        players.count(),
        args.bot,
        total,
        elapsed,
        args.rounds as f64 / elapsed,
        total as f64 / elapsed
    );
    Ok(())
}

/// Runs `climbot tables lexio-safety`.
pub fn safety_table(args: SafetyTableArgs) -> Result<(), ToolError> {
    use super::lexio_safety::{generate_with_progress, validate_with_progress};
    use crate::lexio::safety::SafetyTable;
    let start = Instant::now();
    if args.validate {
        let loaded;
        let table = match &args.table {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("--table {}: {e}", path.display()))?;
                loaded = SafetyTable::parse(&text)
                    .map_err(|e| format!("--table {}: {e}", path.display()))?;
                &loaded
            }
            None => SafetyTable::compiled(),
        };
        if table.seed == args.seed {
            return Err(ToolError::usage(format!(
                "--seed {}: the table was counted on this seed; validate on another",
                args.seed
            )));
        }
        let progress = Progress::new(3 * args.deals, "deals");
        let report = validate_with_progress(table, args.deals, args.seed, &|n| progress.advance(n));
        drop(progress);
        crate::out!("{report}");
        crate::outln!("lookup cost: {:.0} ns per beaten_chance", lookup_ns());
        crate::errln!("validated in {:.1} s", start.elapsed().as_secs_f64());
        return Ok(());
    }
    if let Some(path) = &args.out {
        // An unwritable `--out` is refused before the minutes of counting, not after;
        // opened without truncating, so a run stopped part-way leaves the old table.
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("--out {}: {e}", path.display()))?;
    }
    let progress = Progress::new(3 * args.deals, "deals");
    let text = generate_with_progress(args.deals, args.seed, &|n| progress.advance(n));
    drop(progress);
    match &args.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("--out {}: {e}", path.display()))?
        }
        None => crate::out!("{text}"),
    }
    crate::errln!(
        "lexio-safety: {} deals per player count, seed {}: {:.1} s",
        args.deals,
        args.seed,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Nanoseconds per [`crate::lexio::safety::beaten_chance`] lookup, on one thread, over every
/// pair, triple and 5-tile play of the 5-player deck and a spread of states.
fn lookup_ns() -> f64 {
    use crate::lexio::moves::{for_each_five, for_each_group};
    use crate::lexio::safety::beaten_chance;
    let players = PlayerCount::Five;
    let mut plays = Vec::new();
    for size in 2..=3 {
        for_each_group(players.deck(), size, None, &mut |c| plays.push(c));
    }
    for_each_five(players, players.deck(), None, &mut |c| plays.push(c));
    let _ = beaten_chance(players, plays[0], 30, 9); // the table's one-time parse
    let start = Instant::now();
    let mut sum = 0.0;
    let mut lookups = 0u64;
    for (i, &play) in plays.iter().cycle().take(1_000_000).enumerate() {
        sum += beaten_chance(players, play, i % 49, 2 + i % 11);
        lookups += 1;
    }
    std::hint::black_box(sum);
    start.elapsed().as_nanos() as f64 / lookups as f64
}
