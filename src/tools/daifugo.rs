//! The `selfplay daifugo` and `stats daifugo` subcommands.

use super::BrokenRun;
use crate::bot::StableHasher;
use crate::daifugo::Daifugo;
use crate::daifugo::bots::easy::EasyBot;
use crate::daifugo::referee::{GameRecord, play_match};
use crate::daifugo::rules::RuleSet;
use crate::game::GameKind;
use crate::game::Policy;
use crate::stats::{mean_ci95, wilson95};
use crate::tools::ToolError;
use crate::tools::progress::Progress;
use rayon::prelude::*;
use std::time::Instant;

/// `climbot selfplay daifugo`: easy bots against each other, every action checked.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfplayArgs {
    /// Number of seats (3..=7).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Number of games in total (at least 1).
    #[arg(long, default_value_t = 10_000, value_parser = super::samples)]
    pub games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule preset: house or uecda.
    #[arg(long, default_value = "house")]
    pub rules: String,
    /// Games per match, at least 1 (titles carry over inside a match).
    #[arg(long, default_value_t = 8, value_parser = super::match_length)]
    pub match_length: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `climbot stats daifugo`: the forbidden-finish figure of Daifugo Part 2
/// (`docs/references.md`) for 4, 5 and 6 players and matches of 4, 8 and 12 games.
#[derive(clap::Args, Debug, Clone)]
pub struct StatsArgs {
    /// Games per cell (at least 1).
    #[arg(long, default_value_t = 12_000, value_parser = super::samples)]
    pub games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule preset: house or uecda.
    #[arg(long, default_value = "house")]
    pub rules: String,
    /// Print JSON lines instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Aggregated self-play figures.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Decisions taken.
    pub decisions: u64,
    /// Per seat: games ended with a forbidden finish.
    pub fouls: Vec<u64>,
    /// Per seat: sum of places.
    pub place_sum: Vec<u64>,
    /// Per seat: places as samples (for intervals).
    pub places: Vec<Vec<f64>>,
    /// Games with a miyako-ochi.
    pub miyako_games: u64,
}

/// Runs `games` easy games in matches of `match_length` (parallel over matches,
/// deterministic for a seed), failing on any illegal action or broken invariant.
pub fn run_easy_games(
    rules: RuleSet,
    players: usize,
    games: u64,
    match_length: u32,
    seed: u64,
    games_done: &(dyn Fn(u64) + Sync),
) -> Result<Summary, BrokenRun> {
    let match_length = u64::from(match_length.max(1));
    let matches = games.div_ceil(match_length);
    let easy = EasyBot;
    let policies: Vec<&dyn Policy<Daifugo>> = vec![&easy; players];
    let records: Vec<Vec<GameRecord>> = (0..matches)
        .into_par_iter()
        .map(|m| {
            let len = match_length.min(games - m * match_length) as u32;
            let match_seed = StableHasher::new().u64(seed).u64(m).finish();
            let record =
                play_match(&policies, len, match_seed, rules).map_err(|reason| BrokenRun {
                    unit: "match",
                    index: m,
                    seed: None,
                    reason,
                });
            games_done(u64::from(len));
            record
        })
        .collect::<Result<_, _>>()?;
    let mut summary = Summary {
        fouls: vec![0; players],
        place_sum: vec![0; players],
        places: vec![Vec::new(); players],
        ..Summary::default()
    };
    for record in records.iter().flatten() {
        summary.games += 1;
        summary.decisions += record.decisions as u64;
        for &seat in &record.result.fouls {
            summary.fouls[seat] += 1;
        }
        for seat in 0..players {
            let place = record.result.place_of(seat);
            summary.place_sum[seat] += place as u64;
            summary.places[seat].push(place as f64);
        }
        summary.miyako_games += u64::from(record.result.miyako_ochi.is_some());
    }
    Ok(summary)
}

fn preset(name: &str) -> Result<RuleSet, ToolError> {
    RuleSet::by_name(name).ok_or_else(|| {
        ToolError::usage(format!("--rules {name}: unknown rules; use house or uecda"))
    })
}

fn pct((lo, hi): (f64, f64)) -> String {
    format!("[{:.2}, {:.2}]%", lo * 100.0, hi * 100.0)
}

/// Entry point of `climbot selfplay daifugo`.
pub fn selfplay(args: &SelfplayArgs) -> Result<(), ToolError> {
    let rules = preset(&args.rules)?;
    if !(3..=7).contains(&args.players) {
        return Err(ToolError::usage(format!(
            "--players {}: Daifugo takes 3 to 7",
            args.players
        )));
    }
    let start = Instant::now();
    let progress = Progress::new(args.games, "games");
    let s = run_easy_games(
        rules,
        args.players,
        args.games,
        args.match_length,
        args.seed,
        &|n| progress.advance(n),
    )?;
    drop(progress);
    let secs = start.elapsed().as_secs_f64();
    let total_fouls: u64 = s.fouls.iter().sum();
    let pooled = wilson95(total_fouls, s.games * args.players as u64);
    if args.json {
        let seats: Vec<_> = (0..args.players)
            .map(|seat| {
                let (lo, hi) = wilson95(s.fouls[seat], s.games);
                let ci = mean_ci95(&s.places[seat], (1.0, args.players as f64));
                serde_json::json!({
                    "seat": seat,
                    "forbidden_finish_rate": s.fouls[seat] as f64 / s.games as f64,
                    "forbidden_finish_ci95": [lo, hi],
                    "mean_place": ci.mean,
                    "mean_place_ci95": [ci.lo, ci.hi],
                })
            })
            .collect();
        let out = serde_json::json!({
            "game": GameKind::Daifugo.name(),
            "rules": args.rules,
            "players": args.players,
            "games": s.games,
            "match_length": args.match_length,
            "seed": args.seed,
            "decisions": s.decisions,
            "seconds": secs,
            "games_per_second": s.games as f64 / secs,
            "forbidden_finish_rate": total_fouls as f64 / (s.games * args.players as u64) as f64,
            "forbidden_finish_ci95": [pooled.0, pooled.1],
            "forbidden_finish_rate_excluding_miyako_victims":
                total_fouls as f64 / (s.games * args.players as u64 - s.miyako_games) as f64,
            "miyako_ochi_rate": s.miyako_games as f64 / s.games as f64,
            "miyako_ochi_ci95": wilson95(s.miyako_games, s.games),
            "seats": seats,
        });
        crate::outln!("{out}");
        return Ok(());
    }
    crate::outln!(
        "daifugo selfplay: rules={} players={} games={} (matches of {}) seed={}",
        args.rules,
        args.players,
        s.games,
        args.match_length,
        args.seed
    );
    crate::outln!(
        "  {} decisions, {:.2}s, {:.0} games/s, {:.0} decisions/s; every view validated, \
         every decision legal, card accounting intact",
        s.decisions,
        secs,
        s.games as f64 / secs,
        s.decisions as f64 / secs
    );
    for seat in 0..args.players {
        let ci = mean_ci95(&s.places[seat], (1.0, args.players as f64));
        crate::outln!(
            "  seat {seat}: forbidden finish {:.2}% {}  mean place {:.3} [{:.3}, {:.3}]",
            100.0 * s.fouls[seat] as f64 / s.games as f64,
            pct(wilson95(s.fouls[seat], s.games)),
            ci.mean,
            ci.lo,
            ci.hi
        );
    }
    crate::outln!(
        "  all seats: forbidden finish {:.2}% {} per player per game",
        100.0 * total_fouls as f64 / (s.games * args.players as u64) as f64,
        pct(pooled)
    );
    let exposed = s.games * args.players as u64 - s.miyako_games;
    crate::outln!(
        "  all seats but miyako-ochi victims: forbidden finish {:.2}% {}",
        100.0 * total_fouls as f64 / exposed as f64,
        pct(wilson95(total_fouls, exposed))
    );
    crate::outln!(
        "  miyako-ochi: {:.2}% of games {}",
        100.0 * s.miyako_games as f64 / s.games as f64,
        pct(wilson95(s.miyako_games, s.games))
    );
    Ok(())
}

/// Entry point of `climbot stats daifugo`.
pub fn stats(args: &StatsArgs) -> Result<(), ToolError> {
    let rules = preset(&args.rules)?;
    if !args.json {
        crate::outln!(
            "daifugo: forbidden-finish rate per player per game, easy self-play, rules={} \
             ({} games per cell; Daifugo Part 2 reports 10.7-11.7% for 4 players)",
            args.rules,
            args.games
        );
    }
    // 3 table sizes times 3 match lengths.
    let progress = Progress::new(9 * args.games, "games");
    for players in [4usize, 5, 6] {
        for match_length in [4u32, 8, 12] {
            let seed = StableHasher::new()
                .u64(args.seed)
                .u64(players as u64)
                .u64(u64::from(match_length))
                .finish();
            let s = run_easy_games(rules, players, args.games, match_length, seed, &|n| {
                progress.advance(n)
            })?;
            let fouls: u64 = s.fouls.iter().sum();
            let trials = s.games * players as u64;
            let (lo, hi) = wilson95(fouls, trials);
            let rate = fouls as f64 / trials as f64;
            let miyako = s.miyako_games as f64 / s.games as f64;
            // A miyako-ochi victim is removed before it can finish, so it cannot foul.
            let exposed = trials - s.miyako_games;
            let (elo, ehi) = wilson95(fouls, exposed);
            let excl = fouls as f64 / exposed as f64;
            progress.suspend(|| {
                if args.json {
                    crate::outln!(
                        "{}",
                        serde_json::json!({
                            "players": players, "match_length": match_length, "games": s.games,
                            "forbidden_finish_rate": rate, "ci95": [lo, hi],
                            "excluding_miyako_victims": excl, "excluding_ci95": [elo, ehi],
                            "miyako_ochi_rate": miyako,
                        })
                    );
                } else {
                    crate::outln!(
                        "  {players} players, matches of {match_length:>2}: {:>6.2}% {}  \
                     without miyako-ochi victims {:.2}% {}  miyako-ochi {:.2}% of games",
                        rate * 100.0,
                        pct((lo, hi)),
                        excl * 100.0,
                        pct((elo, ehi)),
                        miyako * 100.0
                    );
                }
            });
        }
    }
    Ok(())
}
