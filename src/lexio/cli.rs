//! The Lexio subcommands: `climbot stats lexio` and `climbot selfplay lexio`.

use super::bots::{LexioPolicy, by_name};
use super::referee::{deal, play_round, round_seed};
use super::stats::opening_stats;
use super::tiles::PlayerCount;
use clap::Args;
use rayon::prelude::*;
use std::time::Instant;

/// `climbot stats lexio`: the design documents' opening-hand statistics.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Deals to sample.
    #[arg(long, default_value_t = 20_000)]
    pub deals: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 20_260_731)]
    pub seed: u64,
    /// Players (3, 4 or 5).
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
    /// Rounds to play.
    #[arg(long, default_value_t = 10_000)]
    pub rounds: u64,
    /// Seed of the deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The bot in every seat (easy, expert, singles, random).
    #[arg(long, default_value = "easy")]
    pub bot: String,
}

fn player_count(n: u32) -> Result<PlayerCount, String> {
    PlayerCount::from_count(n)
        .ok_or_else(|| format!("--players {n}: Lexio takes 3, 4 or 5 players"))
}

/// Runs `climbot stats lexio`.
pub fn stats(args: StatsArgs) -> Result<(), String> {
    let players = player_count(args.players)?;
    let report = opening_stats(players, args.deals, args.seed);
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    Ok(())
}

/// Runs `climbot selfplay lexio`; fails on the first illegal action or broken invariant.
pub fn selfplay(args: SelfplayArgs) -> Result<(), String> {
    let players = player_count(args.players)?;
    let bot: Box<dyn LexioPolicy> =
        by_name(&args.bot).ok_or_else(|| format!("--bot {}: no such Lexio bot", args.bot))?;
    let seats = vec![bot.as_ref(); players.count()];
    let start = Instant::now();
    let actions: Result<Vec<usize>, String> = (0..args.rounds)
        .into_par_iter()
        .map(|i| {
            let seed = round_seed(args.seed, i as u32) ^ i;
            play_round(
                players,
                deal(players, seed),
                1,
                [0; 5],
                seed,
                &seats,
                |_, d| d(),
            )
            .map(|r| r.actions)
            .map_err(|e| format!("round {i} (deal seed {seed}): {e}"))
        })
        .collect();
    let actions = actions?;
    let elapsed = start.elapsed().as_secs_f64();
    let total: usize = actions.iter().sum();
    println!(
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
