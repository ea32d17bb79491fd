//! The arena: duplicate matches between bots, with honest statistics.
//!
//! A block is one seeded sequence of deals (a whole match) played once for every
//! rotation of the lineup around the table, so each bot plays every deal from every
//! seat; deals depend only on the seed and the block index. The block is the unit of
//! sampling: per-bot means and the paired difference between two bots carry Student-t
//! 95% intervals over blocks. Bots are called through the same policy interfaces the
//! service uses.

pub mod cli;
mod error;
mod games;
pub mod ladder;
pub mod remote;
pub mod shard;

pub use error::{ArenaError, RemoteError, ViaError};
pub use games::{ArenaGame, Follow, Followed, GameRunner, Runner};

use crate::bot::StableHasher;
use crate::stats::{MeanCi, mean_ci95};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What one seat earned in one block (one rotation): metric sums and the number of
/// units (rounds, hands or games) they were earned over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatTotals {
    /// One sum per metric of the game, in [`GameRunner::metrics`] order.
    pub sums: Vec<f64>,
    /// Units played.
    pub units: u64,
}

/// Decision times of one bot, in nanoseconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latencies(pub Vec<u64>);

impl Latencies {
    /// The `q` quantile (0..=1) by nearest rank, in microseconds.
    pub fn quantile_us(&self, q: f64) -> f64 {
        if self.0.is_empty() {
            return 0.0;
        }
        let mut v = self.0.clone();
        v.sort_unstable();
        let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
        v[rank - 1] as f64 / 1000.0
    }

    /// The mean, in microseconds (0 without decisions).
    pub fn mean_us(&self) -> f64 {
        if self.0.is_empty() {
            return 0.0;
        }
        self.0.iter().map(|&ns| ns as f64).sum::<f64>() / self.0.len() as f64 / 1000.0
    }
}

/// Times a decision: the arena may read the clock, the games never do.
pub fn timed<T>(log: &mut Latencies, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    log.0
        .push(start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64);
    out
}

/// One entrant of a lineup: a bot name and the seats it holds in rotation 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The label in reports (the bot name; `name'` for the field of an all-same lineup).
    pub label: String,
    /// The bot name.
    pub bot: String,
    /// Seats (in rotation 0) this entrant holds.
    pub seats: Vec<usize>,
}

/// Expands a lineup to one name per seat (the last name repeats) and groups seats
/// into entrants by bot name. An all-same lineup is split into the seat-0 bot and the
/// field, so that the apparatus itself can be checked: their difference must be 0.
pub fn entrants(
    lineup: &[String],
    players: usize,
) -> Result<(Vec<String>, Vec<Entrant>), ArenaError> {
    if lineup.is_empty() {
        return Err(ArenaError::NoBots);
    }
    if lineup.len() > players {
        return Err(ArenaError::TooManyBots {
            names: lineup.len(),
            seats: players,
        });
    }
    let seats: Vec<String> = (0..players)
        .map(|s| lineup[s.min(lineup.len() - 1)].clone())
        .collect();
    let mut out: Vec<Entrant> = Vec::new();
    for (s, name) in seats.iter().enumerate() {
        match out.iter_mut().find(|e| &e.bot == name) {
            Some(e) => e.seats.push(s),
            None => out.push(Entrant {
                label: name.clone(),
                bot: name.clone(),
                seats: vec![s],
            }),
        }
    }
    if out.len() == 1 && players > 1 {
        let name = out[0].bot.clone();
        out = vec![
            Entrant {
                label: name.clone(),
                bot: name.clone(),
                seats: vec![0],
            },
            Entrant {
                label: format!("{name}'"),
                bot: name,
                seats: (1..players).collect(),
            },
        ];
    }
    Ok((seats, out))
}

/// The seed of block `index`.
pub fn block_seed(seed: u64, index: u64) -> u64 {
    StableHasher::new()
        .bytes(b"arena/block")
        .u64(seed)
        .u64(index)
        .finish()
}

/// What one block yields: per entrant, its metric means over the block, and per
/// entrant the decision times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockResult {
    /// The block's index in its run (its deals depend on it and the seed alone).
    pub index: u64,
    /// Per entrant, one mean per metric ([`GameRunner::metrics`] order).
    pub means: Vec<Vec<f64>>,
    /// Per entrant, the decision times of the block.
    pub latencies: Vec<Latencies>,
}

fn play_block(
    runner: &dyn GameRunner,
    seats: &[String],
    entrants: &[Entrant],
    seed: u64,
    index: u64,
) -> Result<BlockResult, ArenaError> {
    let p = seats.len();
    let metrics = runner.metrics().len();
    let mut sums = vec![vec![0.0; metrics]; entrants.len()];
    let mut units = vec![0u64; entrants.len()];
    let mut latencies = vec![Latencies::default(); entrants.len()];
    let bseed = block_seed(seed, index);
    // Slot s of the lineup sits at seat (s + r) % p in rotation r.
    let entrant_of_slot: Vec<usize> = (0..p)
        .map(|s| {
            entrants
                .iter()
                .position(|e| e.seats.contains(&s))
                .unwrap_or(0)
        })
        .collect();
    for rotation in 0..p {
        let mut seat_bots = vec![String::new(); p];
        let mut seat_entrant = vec![0usize; p];
        for slot in 0..p {
            let seat = (slot + rotation) % p;
            seat_bots[seat] = seats[slot].clone();
            seat_entrant[seat] = entrant_of_slot[slot];
        }
        let mut seat_latencies = vec![Latencies::default(); p];
        let totals = runner.play(bseed, &seat_bots, &mut seat_latencies)?;
        for seat in 0..p {
            let e = seat_entrant[seat];
            for (m, v) in totals[seat].sums.iter().enumerate() {
                sums[e][m] += v;
            }
            units[e] += totals[seat].units;
            latencies[e].0.extend_from_slice(&seat_latencies[seat].0);
        }
    }
    let means = sums
        .into_iter()
        .zip(&units)
        .map(|(s, &u)| s.into_iter().map(|x| x / u.max(1) as f64).collect())
        .collect();
    Ok(BlockResult {
        index,
        means,
        latencies,
    })
}

/// Settings of one arena run.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// One bot name per seat (the last repeats).
    pub lineup: Vec<String>,
    /// Blocks to play (the maximum with `sprt`).
    pub blocks: u64,
    /// The seed of every deal.
    pub seed: u64,
    /// Optional sequential test on the paired difference (two-bot lineups).
    pub sprt: Option<Sprt>,
}

/// A Wald sequential probability ratio test of the paired per-block difference:
/// H0 `mean = 0` against H1 `mean = delta`, with the variance estimated from the blocks
/// so far (checked after each batch of blocks, so it stops a little late, never early).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Sprt {
    /// The difference H1 claims, in the primary metric's units.
    pub delta: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// The verdict of a sequential test.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SprtOutcome {
    /// "H1" (the difference is at least delta), "H0" (no difference), or
    /// "inconclusive" (the block limit came first).
    pub verdict: String,
    /// The log-likelihood ratio at the stop.
    pub llr: f64,
    /// Blocks played.
    pub blocks: u64,
}

/// One entrant's results.
#[derive(Clone, Debug, Serialize)]
pub struct BotReport {
    /// The bot name.
    pub bot: String,
    /// Seats it held in rotation 0.
    pub seats: Vec<usize>,
    /// The primary metric's mean per block.
    pub mean: f64,
    /// Its 95% interval over blocks.
    pub ci95: (f64, f64),
    /// Every metric: name, mean, interval.
    pub metrics: Vec<(String, MeanCi)>,
    /// Decisions timed.
    pub decisions: usize,
    /// Median decision time, microseconds.
    pub p50_us: f64,
    /// 99th percentile decision time, microseconds.
    pub p99_us: f64,
    /// Mean decision time, microseconds: with the count, the bot's total thinking time
    /// (what equal-time comparisons compare).
    pub mean_us: f64,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct ArenaReport {
    /// The game.
    pub game: String,
    /// Players.
    pub players: usize,
    /// The lineup, one name per seat.
    pub lineup: Vec<String>,
    /// Blocks played.
    pub blocks: u64,
    /// The seed.
    pub seed: u64,
    /// The primary metric and whether higher is better.
    pub metric: (String, bool),
    /// Per entrant, by label.
    pub bots: Vec<(String, BotReport)>,
    /// For two entrants: first minus second, per block, with its interval.
    pub diff: Option<MeanCi>,
    /// For two entrants: first minus second in the primary metric, one per block in
    /// block order (what [`ArenaReport::diff`] summarizes).
    #[serde(skip)]
    pub block_diffs: Vec<f64>,
    /// The sequential test's outcome, when asked for.
    pub sprt: Option<SprtOutcome>,
    /// Seconds of wall time.
    pub seconds: f64,
    /// Blocks per second.
    pub blocks_per_second: f64,
}

fn sprt_llr(diffs: &[f64], s: &Sprt) -> f64 {
    let n = diffs.len() as f64;
    if diffs.len() < 2 {
        return 0.0;
    }
    let mean = diffs.iter().sum::<f64>() / n;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    if var <= 0.0 {
        return if mean >= s.delta / 2.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    // Normal likelihood ratio of H1 (mean delta) against H0 (mean 0).
    diffs
        .iter()
        .map(|d| s.delta * d - s.delta * s.delta / 2.0)
        .sum::<f64>()
        / var
}

/// Runs the arena. Blocks run in parallel; results are gathered in block order, so
/// they are identical whatever the thread count.
pub fn run(runner: &dyn GameRunner, config: &ArenaConfig) -> Result<ArenaReport, ArenaError> {
    run_with_progress(runner, config, &|_| {})
}

/// Checks the lineup against the table: one name per seat and the entrants.
fn lineup_of(
    runner: &dyn GameRunner,
    config: &ArenaConfig,
) -> Result<(Vec<String>, Vec<Entrant>), ArenaError> {
    let (seats, entrants) = entrants(&config.lineup, runner.players())?;
    for name in &seats {
        runner.check_bot(name)?;
    }
    Ok((seats, entrants))
}

/// Plays the blocks `indices` (in parallel), in the order given.
fn play_blocks(
    runner: &dyn GameRunner,
    seats: &[String],
    entrants: &[Entrant],
    seed: u64,
    indices: &[u64],
    blocks_done: &(dyn Fn(u64) + Sync),
) -> Result<Vec<BlockResult>, ArenaError> {
    indices
        .par_iter()
        .map(|&i| {
            let block = play_block(runner, seats, entrants, seed, i);
            blocks_done(1);
            block
        })
        .collect()
}

/// [`run`], telling `blocks_done` of each block as it finishes (from any thread, in
/// any order); the results do not depend on it.
pub fn run_with_progress(
    runner: &dyn GameRunner,
    config: &ArenaConfig,
    blocks_done: &(dyn Fn(u64) + Sync),
) -> Result<ArenaReport, ArenaError> {
    let (seats, entrants) = lineup_of(runner, config)?;
    let start = Instant::now();
    let mut results: Vec<BlockResult> = Vec::new();
    let mut sprt_outcome = None;
    let batch = match config.sprt {
        Some(_) => (rayon::current_num_threads() as u64 * 4).max(8),
        None => config.blocks.max(1),
    };
    while (results.len() as u64) < config.blocks {
        let from = results.len() as u64;
        let to = (from + batch).min(config.blocks);
        let indices: Vec<u64> = (from..to).collect();
        results.extend(play_blocks(
            runner,
            &seats,
            &entrants,
            config.seed,
            &indices,
            blocks_done,
        )?);
        if let (Some(s), 2) = (config.sprt, entrants.len()) {
            let diffs: Vec<f64> = results
                .iter()
                .map(|b| b.means[0][0] - b.means[1][0])
                .collect();
            let llr = sprt_llr(&diffs, &s);
            let upper = ((1.0 - s.beta) / s.alpha).ln();
            let lower = (s.beta / (1.0 - s.alpha)).ln();
            let verdict = if llr >= upper {
                Some("H1")
            } else if llr <= lower {
                Some("H0")
            } else {
                None
            };
            sprt_outcome = Some(SprtOutcome {
                verdict: verdict.unwrap_or("inconclusive").into(),
                llr,
                blocks: results.len() as u64,
            });
            if verdict.is_some() {
                break;
            }
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(summarize(
        runner,
        config,
        &seats,
        &entrants,
        &results,
        sprt_outcome,
        seconds,
    ))
}

/// Plays only the blocks of `shard` (block `i` when `i % count == index`), in block
/// order, for [`shard::merge`] to summarize with the other shards' blocks.
pub fn run_shard(
    runner: &dyn GameRunner,
    config: &ArenaConfig,
    shard: shard::Shard,
    blocks_done: &(dyn Fn(u64) + Sync),
) -> Result<Vec<BlockResult>, ArenaError> {
    let (seats, entrants) = lineup_of(runner, config)?;
    let indices = shard.blocks(config.blocks);
    play_blocks(
        runner,
        &seats,
        &entrants,
        config.seed,
        &indices,
        blocks_done,
    )
}

/// The report of a run from its blocks, in block order: the same figures whether the
/// blocks were played in one run or gathered from shards.
fn summarize(
    runner: &dyn GameRunner,
    config: &ArenaConfig,
    seats: &[String],
    entrants: &[Entrant],
    results: &[BlockResult],
    sprt: Option<SprtOutcome>,
    seconds: f64,
) -> ArenaReport {
    let p = runner.players();
    let metrics = runner.metrics();
    let ranges = runner.metric_ranges();
    let bots = entrants
        .iter()
        .enumerate()
        .map(|(e, entrant)| {
            let per_metric: Vec<(String, MeanCi)> = metrics
                .iter()
                .enumerate()
                .map(|(m, name)| {
                    let samples: Vec<f64> = results.iter().map(|b| b.means[e][m]).collect();
                    (name.to_string(), mean_ci95(&samples, ranges[m]))
                })
                .collect();
            let mut lat = Latencies::default();
            for b in results {
                lat.0.extend_from_slice(&b.latencies[e].0);
            }
            let primary = per_metric[0].1;
            (
                entrant.label.clone(),
                BotReport {
                    bot: entrant.bot.clone(),
                    seats: entrant.seats.clone(),
                    mean: primary.mean,
                    ci95: (primary.lo, primary.hi),
                    metrics: per_metric,
                    decisions: lat.0.len(),
                    p50_us: lat.quantile_us(0.5),
                    p99_us: lat.quantile_us(0.99),
                    mean_us: lat.mean_us(),
                },
            )
        })
        .collect();
    let block_diffs: Vec<f64> = if entrants.len() == 2 {
        results
            .iter()
            .map(|b| b.means[0][0] - b.means[1][0])
            .collect()
    } else {
        Vec::new()
    };
    // A difference of two values in [lo, hi] lies in [lo - hi, hi - lo].
    let spread = ranges[0].1 - ranges[0].0;
    let diff = (entrants.len() == 2).then(|| mean_ci95(&block_diffs, (-spread, spread)));
    let blocks = results.len() as u64;
    ArenaReport {
        game: runner.game().into(),
        players: p,
        lineup: seats.to_vec(),
        blocks,
        seed: config.seed,
        metric: (metrics[0].to_string(), runner.higher_is_better()),
        bots,
        diff,
        block_diffs,
        sprt,
        seconds,
        // A merged run has no wall time of its own (0 s): its rate is 0, not a division by
        // almost nothing.
        blocks_per_second: if seconds > 0.0 {
            blocks as f64 / seconds
        } else {
            0.0
        },
    }
}

impl ArenaReport {
    /// The documented JSON object (`docs/tools.md`, "The arena").
    pub fn to_json(&self) -> serde_json::Value {
        let bots: serde_json::Map<String, serde_json::Value> = self
            .bots
            .iter()
            .map(|(label, b)| {
                let metrics: serde_json::Map<String, serde_json::Value> = b
                    .metrics
                    .iter()
                    .map(|(n, m)| (n.clone(), serde_json::json!({"mean": m.mean, "ci95": [m.lo, m.hi]})))
                    .collect();
                (
                    label.clone(),
                    serde_json::json!({
                        "bot": b.bot, "seats": b.seats, "mean": b.mean, "ci95": [b.ci95.0, b.ci95.1],
                        "metrics": metrics, "decisions": b.decisions, "p50_us": b.p50_us, "p99_us": b.p99_us, "mean_us": b.mean_us,
                    }),
                )
            })
            .collect();
        let mut out = serde_json::json!({
            "game": self.game,
            "players": self.players,
            "lineup": self.lineup,
            "blocks": self.blocks,
            "seed": self.seed,
            "metric": {"name": self.metric.0, "higher_is_better": self.metric.1},
            "bots": bots,
            "seconds": self.seconds,
            "blocks_per_second": self.blocks_per_second,
        });
        if let Some(d) = self.diff {
            out["diff"] = serde_json::json!({
                "mean": d.mean, "ci95": [d.lo, d.hi], "per_block": self.block_diffs,
            });
        }
        if let Some(s) = &self.sprt {
            out["sprt"] =
                serde_json::json!({"verdict": s.verdict, "llr": s.llr, "blocks": s.blocks});
        }
        out
    }

    /// A readable table.
    pub fn to_table(&self) -> String {
        let mut s = format!(
            "{} arena: {} players, lineup {}, {} blocks (seed {}), {:.1} s, {:.2} blocks/s\n",
            self.game,
            self.players,
            self.lineup.join(","),
            self.blocks,
            self.seed,
            self.seconds,
            self.blocks_per_second
        );
        s += &format!(
            "primary metric: {} ({} is better); intervals are 95% over blocks\n\n",
            self.metric.0,
            if self.metric.1 { "higher" } else { "lower" }
        );
        for (label, b) in &self.bots {
            s += &format!("{label} (seats {:?})\n", b.seats);
            for (name, m) in &b.metrics {
                s += &format!(
                    "  {name:<24} {:>10.4}  [{:.4}, {:.4}]\n",
                    m.mean, m.lo, m.hi
                );
            }
            s += &format!(
                "  decision time           p50 {:.1} us, p99 {:.1} us, mean {:.1} us ({} decisions)\n",
                b.p50_us, b.p99_us, b.mean_us, b.decisions
            );
        }
        if let Some(d) = self.diff {
            s += &format!(
                "\ndifference {} - {} in {}: {:.4} [{:.4}, {:.4}]\n",
                self.bots[0].0, self.bots[1].0, self.metric.0, d.mean, d.lo, d.hi
            );
        }
        if let Some(t) = &self.sprt {
            s += &format!(
                "sequential test: {} (LLR {:.2} after {} blocks)\n",
                t.verdict, t.llr, t.blocks
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn lineups_expand_and_group() {
        let (seats, e) = entrants(&names(&["hard", "easy"]), 5).unwrap();
        assert_eq!(seats, names(&["hard", "easy", "easy", "easy", "easy"]));
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].seats, vec![1, 2, 3, 4]);
        let (_, e) = entrants(&names(&["easy"]), 4).unwrap();
        assert_eq!(
            e.len(),
            2,
            "an all-same lineup splits into seat 0 and the field"
        );
        assert_eq!(e[1].label, "easy'");
        assert!(entrants(&[], 4).is_err());
        assert!(entrants(&names(&["a", "b", "c", "d", "e", "f"]), 5).is_err());
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let l = Latencies((1..=100).map(|x| x * 1000).collect());
        assert_eq!(l.quantile_us(0.5), 50.0);
        assert_eq!(l.quantile_us(0.99), 99.0);
        assert_eq!(Latencies::default().quantile_us(0.5), 0.0);
    }
}
