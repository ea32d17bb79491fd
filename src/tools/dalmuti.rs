//! The `stats dalmuti` and `selfplay dalmuti` subcommands (kept out of `main.rs`).

use super::dalmuti_stats::{
    MAX_LEAD, beat_probabilities_with_progress, control_comparison_with_progress,
};
use super::progress::Progress;
use super::{BrokenRun, ToolError};
use crate::bot::StableHasher;
use crate::dalmuti::Dalmuti;
use crate::dalmuti::bots::by_name;
use crate::dalmuti::referee::{MATCH_HANDS, MatchResult, play_match};
use crate::dalmuti::turn::{MAX_PLAYERS, MIN_PLAYERS};
use crate::game::Policy;
use rayon::prelude::*;
use std::time::Instant;

/// `climbot stats dalmuti`: how often a lead of n cards of rank r is beatable.
#[derive(clap::Args, Debug, Clone)]
pub struct StatsArgs {
    /// Players at the table (4..=16).
    #[arg(long, default_value_t = 6)]
    pub players: usize,
    /// Random opening deals to sample (at least 1).
    #[arg(long, default_value_t = 100_000, value_parser = super::samples)]
    pub deals: u64,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also compare the hard bot's analytic control probability and the seat
    /// independence approximation against this Monte Carlo, by lead size.
    #[arg(long)]
    pub analytic: bool,
}

/// `climbot selfplay dalmuti`: bots play matches, every action and invariant checked.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Players at the table (4..=16).
    #[arg(long, default_value_t = 5)]
    pub players: usize,
    /// Hands to play, at least 1 (as 20-hand matches; the last one may be shorter).
    #[arg(long, default_value_t = 10_000, value_parser = super::samples)]
    pub hands: u64,
    /// The seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The bot in every seat: easy, normal, hard, expert, singles, random; variants
    /// such as hard/pass_factor=0.5 or expert/iterations=400.
    #[arg(long, default_value = "easy", alias = "policy")]
    pub bot: String,
}

fn check_players(players: usize) -> Result<(), ToolError> {
    if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        Ok(())
    } else {
        Err(ToolError::usage(format!(
            "--players {players}: The Great Dalmuti takes {MIN_PLAYERS} to {MAX_PLAYERS}"
        )))
    }
}

/// Runs `stats dalmuti`, printing to stdout.
pub fn run_stats(args: &StatsArgs) -> Result<(), ToolError> {
    check_players(args.players)?;
    if args.analytic {
        return run_control_comparison(args);
    }
    let progress = Progress::new(args.deals, "deals");
    let table = beat_probabilities_with_progress(args.players, args.deals, args.seed, &|n| {
        progress.advance(n)
    });
    drop(progress);
    if args.json {
        crate::outln!(
            "{}",
            serde_json::to_string(&table).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    crate::outln!(
        "P(at least one opponent can beat the opening lead of n cards of rank r), {} players, {} deals, seed {}",
        args.players,
        args.deals,
        args.seed
    );
    crate::outln!(
        "Leader = seat 0 (GD); a deal counts for (n, r) only if the leader can make that lead; Jesters wild."
    );
    crate::outln!("Each cell: percent [Wilson 95%] (samples); '-' = no samples.");
    for size in 1..=MAX_LEAD as u8 {
        crate::outln!("n = {size}");
        for rank in 1..=12u8 {
            let c = table.cell(size, rank);
            if c.samples == 0 {
                crate::outln!("  r={rank:>2}  -");
            } else {
                crate::outln!(
                    "  r={rank:>2}  {:6.2}% [{:6.2}, {:6.2}] ({})",
                    100.0 * c.p,
                    100.0 * c.lo,
                    100.0 * c.hi,
                    c.samples
                );
            }
        }
    }
    Ok(())
}

fn run_control_comparison(args: &StatsArgs) -> Result<(), ToolError> {
    let progress = Progress::new(args.deals, "deals");
    let rows = control_comparison_with_progress(args.players, args.deals, args.seed, &|n| {
        progress.advance(n)
    });
    drop(progress);
    if args.json {
        crate::outln!(
            "{}",
            serde_json::to_string(&rows).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    crate::outln!(
        "Control probability of the opening lead (nobody can beat it), {} players, {} deals, seed {}",
        args.players,
        args.deals,
        args.seed
    );
    crate::outln!(
        "Averaged over ranks with Monte Carlo control in [5%, 95%]; mc = truth, indep = per-seat MC multiplied, analytic = hard bot's ledger"
    );
    crate::outln!(
        "size ranks  samples     mc   indep  analytic  indep/mc  analytic/mc | worst cell: rank  mc  indep/mc  analytic/mc"
    );
    for r in rows {
        if r.ranks == 0 {
            crate::outln!("{:>4}     -", r.size);
            continue;
        }
        crate::outln!(
            "{:>4} {:>5} {:>8} {:6.3} {:7.3} {:9.3} {:9.2} {:12.2} | {:>16} {:5.3} {:9.2} {:12.2}",
            r.size,
            r.ranks,
            r.samples,
            r.mc_control,
            r.independent_control,
            r.analytic_control,
            r.independence_ratio,
            r.analytic_ratio,
            r.worst_rank,
            r.worst_mc,
            r.worst_independence_ratio,
            r.worst_analytic_ratio
        );
    }
    Ok(())
}

/// Runs `selfplay dalmuti`: fails on the first illegal action or broken invariant.
pub fn run_selfplay(args: &SelfplayArgs) -> Result<(), ToolError> {
    check_players(args.players)?;
    let boxed = by_name(&args.bot).map_err(|e| {
        ToolError::usage(format!(
            "--bot {}: {e}; one of {}",
            args.bot,
            <Dalmuti as crate::game::Game>::BOT_NAMES
        ))
    })?;
    let policy: &dyn Policy<Dalmuti> = boxed.as_ref();
    let policies = vec![policy; args.players];
    let matches = args.hands.div_ceil(u64::from(MATCH_HANDS));
    let start = Instant::now();
    let progress = Progress::new(args.hands, "hands");
    let results: Result<Vec<MatchResult>, BrokenRun> = (0..matches)
        .into_par_iter()
        .map(|m| {
            let hands = (args.hands - m * u64::from(MATCH_HANDS)).min(u64::from(MATCH_HANDS));
            let seed = StableHasher::new().u64(args.seed).u64(m).finish();
            let result = play_match(&policies, hands as u32, seed).map_err(|e| BrokenRun {
                unit: "match",
                index: m,
                seed: Some(("seed", seed)),
                reason: e.to_string(),
            });
            progress.advance(hands);
            result
        })
        .collect();
    drop(progress);
    let elapsed = start.elapsed().as_secs_f64();
    let results = results?;
    let hands: u64 = results.iter().map(|r| r.hands.len() as u64).sum();
    let actions: u64 = results
        .iter()
        .flat_map(|r| &r.hands)
        .map(|h| h.actions)
        .sum();
    let revolutions = results
        .iter()
        .flat_map(|r| &r.hands)
        .filter(|h| h.revolution.is_some_and(|r| !r.greater))
        .count();
    let greater = results
        .iter()
        .flat_map(|r| &r.hands)
        .filter(|h| h.revolution.is_some_and(|r| r.greater))
        .count();
    crate::outln!(
        "selfplay dalmuti: bot {} players {} seed {}: {matches} matches, {hands} hands, {actions} actions, \
         {revolutions} revolutions, {greater} greater revolutions; every view validated, every action legal, \
         card accounting held after every action",
        policy.name(),
        args.players,
        args.seed
    );
    crate::outln!(
        "time {elapsed:.2} s, {:.0} hands/s, {:.0} actions/s ({} threads)",
        hands as f64 / elapsed,
        actions as f64 / elapsed,
        rayon::current_num_threads()
    );
    Ok(())
}
