//! The offline side of the Lexio safety table: counting it on easy-bot rounds
//! (`climbot tables lexio-safety`) and validating a table on held-out deals. The
//! buckets, the file format and the lookup are in [`crate::lexio::safety`].
//!
//! # How positions are made
//! For each deal index `i` and each player count, a deal is drawn from
//! `StableHasher("lexio/safety", seed, players, i)` and played to the end by easy bots in
//! every seat (they are deterministic, so no further randomness). At **every** decision
//! point (leads and follows) every legal play of the deciding seat of 2, 3 or 5 tiles is a
//! candidate. A candidate is skipped when the unseen set as one hand cannot beat it (a
//! certain winner); otherwise its outcome is whether some opponent's *actual* hand holds
//! a play of the same size with a larger key ("has the material to beat it", not "would
//! choose to"). Opponents who passed earlier may re-enter in Lexio, so every opponent
//! counts.

use crate::bot::StableHasher;
use crate::lexio::bots::easy_action;
use crate::lexio::combos::{Category, Combo, Key};
use crate::lexio::knowledge::{beat_chance, best_key, seat_models};
use crate::lexio::moves::for_each_play;
use crate::lexio::referee::{Round, deal};
use crate::lexio::safety::{CATEGORIES, CELLS, Cell, SafetyTable, cell_of};
use crate::lexio::tiles::{PlayerCount, TileSet};
use crate::stats::wilson95;
use rayon::prelude::*;
use std::fmt::Write as _;

/// The strongest key of `size` tiles `pool` can make.
fn best_of_size(players: PlayerCount, pool: TileSet, size: usize) -> Option<Key> {
    match size {
        2 => best_key(players, pool, Category::Pair),
        3 => best_key(players, pool, Category::Triple),
        _ => CATEGORIES[2..]
            .iter()
            .filter_map(|&c| best_key(players, pool, c))
            .max(),
    }
}

/// One counted candidate.
#[derive(Clone, Copy, Debug)]
struct Sample {
    play: Combo,
    unseen_len: usize,
    max_len: usize,
    beaten: bool,
}

/// The deal seed of deal `i` for `players`.
fn deal_seed(seed: u64, players: PlayerCount, i: u64) -> u64 {
    StableHasher::new()
        .bytes(b"lexio/safety")
        .u64(seed)
        .u64(players.count() as u64)
        .u64(i)
        .finish()
}

/// Plays one easy-bot round and calls `f(round, samples)` at every decision point with
/// the candidates counted there.
fn walk(players: PlayerCount, deal_seed: u64, mut f: impl FnMut(&Round, &[Sample])) {
    let mut round = Round::new(players, deal(players, deal_seed), 1, [0; 5]);
    let mut samples = Vec::with_capacity(256);
    let limit = players.deck().len() * players.count() * 4;
    for _ in 0..limit {
        let me = round.to_act();
        let hand = round.hand(me);
        let opponents: Vec<TileSet> = (0..players.count())
            .filter(|&s| s != me)
            .map(|s| round.hand(s))
            .collect();
        let unseen = opponents.iter().fold(TileSet::EMPTY, |a, &h| a.union(h));
        let max_len = opponents.iter().map(|h| h.len()).max().unwrap_or(0);
        // Best keys per size (index 2, 3, 5): of the unseen set as one hand (the
        // structural check) and of the strongest actual opponent hand.
        let mut unseen_best = [None; 6];
        let mut actual_best = [None; 6];
        for size in [2, 3, 5] {
            unseen_best[size] = best_of_size(players, unseen, size);
            actual_best[size] = opponents
                .iter()
                .filter_map(|&h| best_of_size(players, h, size))
                .max();
        }
        samples.clear();
        for_each_play(players, hand, round.table(), &mut |c| {
            let size = c.len();
            if size == 1 || unseen_best[size].is_none_or(|k| k <= c.key()) {
                return;
            }
            samples.push(Sample {
                play: c,
                unseen_len: unseen.len(),
                max_len,
                beaten: actual_best[size].is_some_and(|k| k > c.key()),
            });
        });
        f(&round, &samples);
        let action = easy_action(players, hand, round.table());
        match round.apply(action) {
            Ok(false) => {}
            _ => return,
        }
    }
}

/// Counts the table on `deals` deals per player count from `seed`.
pub fn count(deals: u64, seed: u64) -> SafetyTable {
    count_with_progress(deals, seed, &|_| {})
}

/// [`count`], telling `deals_done` of each deal as it is walked (`3 * deals` in all).
pub fn count_with_progress(
    deals: u64,
    seed: u64,
    deals_done: &(dyn Fn(u64) + Sync),
) -> SafetyTable {
    let jobs: Vec<(PlayerCount, u64)> = PlayerCount::ALL
        .iter()
        .flat_map(|&p| (0..deals).map(move |i| (p, i)))
        .collect();
    let cells = jobs
        .par_iter()
        .fold(
            || vec![Cell::default(); CELLS],
            |mut cells, &(players, i)| {
                walk(players, deal_seed(seed, players, i), |_, samples| {
                    for s in samples {
                        if let Some(idx) = cell_of(players, s.play, s.unseen_len, s.max_len) {
                            cells[idx].beaten += u64::from(s.beaten);
                            cells[idx].total += 1;
                        }
                    }
                });
                deals_done(1);
                cells
            },
        )
        .reduce(
            || vec![Cell::default(); CELLS],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.beaten += y.beaten;
                    x.total += y.total;
                }
                a
            },
        );
    SafetyTable::from_cells(deals, seed, cells)
}

/// The table file for `deals` deals per player count from `seed` (integer counts summed
/// in any order, so the bytes do not depend on the thread count).
pub fn generate(deals: u64, seed: u64) -> String {
    count(deals, seed).to_text()
}

/// [`generate`], telling `deals_done` of each deal as it is walked (`3 * deals` in all).
pub fn generate_with_progress(deals: u64, seed: u64, deals_done: &(dyn Fn(u64) + Sync)) -> String {
    count_with_progress(deals, seed, deals_done).to_text()
}

/// Calibration accumulators of one estimator.
#[derive(Clone, Debug, Default)]
struct Calibration {
    n: u64,
    brier: f64,
    log_loss: f64,
    /// Per predicted decile: (samples, beaten, sum of predictions).
    bins: [(u64, u64, f64); 10],
}

impl Calibration {
    fn add(&mut self, p: f64, beaten: bool) {
        let y = f64::from(u8::from(beaten));
        self.n += 1;
        self.brier += (p - y) * (p - y);
        let q = p.clamp(1e-6, 1.0 - 1e-6);
        self.log_loss -= if beaten { q.ln() } else { (1.0 - q).ln() };
        let bin = &mut self.bins[((p * 10.0) as usize).min(9)];
        bin.0 += 1;
        bin.1 += u64::from(beaten);
        bin.2 += p;
    }

    fn merge(&mut self, other: &Calibration) {
        self.n += other.n;
        self.brier += other.brier;
        self.log_loss += other.log_loss;
        for (a, b) in self.bins.iter_mut().zip(other.bins.iter()) {
            a.0 += b.0;
            a.1 += b.1;
            a.2 += b.2;
        }
    }

    fn report(&self, name: &str, out: &mut String) {
        let n = self.n.max(1) as f64;
        let _ = writeln!(
            out,
            "{name}: n={} brier={:.4} log_loss={:.4}",
            self.n,
            self.brier / n,
            self.log_loss / n
        );
        let _ = writeln!(
            out,
            "  predicted   n          mean_pred  observed  wilson95"
        );
        for (d, &(count, beaten, sum)) in self.bins.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let (lo, hi) = wilson95(beaten, count);
            let _ = writeln!(
                out,
                "  [{:.1},{:.1})  {count:<10} {:.3}      {:.3}     [{lo:.3}, {hi:.3}]",
                d as f64 / 10.0,
                (d + 1) as f64 / 10.0,
                sum / count as f64,
                beaten as f64 / count as f64,
            );
        }
    }
}

/// The validation of one group of samples: the table, the hypergeometric seat product
/// and the group's base rate (a constant predictor, for scale).
#[derive(Clone, Debug, Default)]
struct Validation {
    table: Calibration,
    hyper: Calibration,
    beaten: u64,
}

impl Validation {
    fn merge(&mut self, other: &Validation) {
        self.table.merge(&other.table);
        self.hyper.merge(&other.hyper);
        self.beaten += other.beaten;
    }
}

/// Checks `table` against `deals` held-out deals per player count from `seed`:
/// calibration by predicted decile (Wilson 95% intervals), Brier score and log loss,
/// next to the hypergeometric estimate `1 - prod(1 - beat_chance(seat))` over the seat
/// models of the same positions. Groups: all, pairs and triples, 5-tile plays.
pub fn validate(table: &SafetyTable, deals: u64, seed: u64) -> String {
    validate_with_progress(table, deals, seed, &|_| {})
}

/// [`validate`], telling `deals_done` of each deal as it is walked (`3 * deals` in all).
pub fn validate_with_progress(
    table: &SafetyTable,
    deals: u64,
    seed: u64,
    deals_done: &(dyn Fn(u64) + Sync),
) -> String {
    let jobs: Vec<(PlayerCount, u64)> = PlayerCount::ALL
        .iter()
        .flat_map(|&p| (0..deals).map(move |i| (p, i)))
        .collect();
    let per_job: Vec<[Validation; 3]> = jobs
        .par_iter()
        .map(|&(players, i)| {
            let mut v: [Validation; 3] = Default::default();
            walk(players, deal_seed(seed, players, i), |round, samples| {
                if samples.is_empty() {
                    return;
                }
                let Ok(view) = round.view() else {
                    return;
                };
                let models = seat_models(&view, 0);
                for s in samples {
                    let t = table.beaten_chance(players, s.play, s.unseen_len, s.max_len);
                    let miss: f64 = models
                        .iter()
                        .map(|m| 1.0 - beat_chance(players, m, s.play))
                        .product();
                    let h = 1.0 - miss;
                    let group = if s.play.len() == 5 { 2 } else { 1 };
                    for g in [0, group] {
                        v[g].table.add(t, s.beaten);
                        v[g].hyper.add(h, s.beaten);
                        v[g].beaten += u64::from(s.beaten);
                    }
                }
            });
            deals_done(1);
            v
        })
        .collect();
    let mut total: [Validation; 3] = Default::default();
    for v in &per_job {
        for (a, b) in total.iter_mut().zip(v.iter()) {
            a.merge(b);
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "lexio-safety validation: table deals={} seed={}; held-out deals={deals} per player \
         count, seed={seed}",
        table.deals, table.seed
    );
    for (name, v) in ["all candidates", "pairs and triples", "5-tile plays"]
        .iter()
        .zip(total.iter())
    {
        let n = v.table.n.max(1) as f64;
        let base = v.beaten as f64 / n;
        let _ = writeln!(
            out,
            "\n== {name}: n={} beaten={:.4}; constant base-rate brier={:.4}",
            v.table.n,
            base,
            base * (1.0 - base)
        );
        v.table.report("table", &mut out);
        v.hyper.report("hypergeometric seat product", &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::knowledge::can_be_beaten;
    use crate::lexio::safety::parse_header;

    #[test]
    fn walk_agrees_with_the_structural_check_and_the_actual_hands() {
        for players in PlayerCount::ALL {
            walk(players, deal_seed(9, players, 0), |round, samples| {
                let me = round.to_act();
                let opponents: Vec<TileSet> = (0..players.count())
                    .filter(|&s| s != me)
                    .map(|s| round.hand(s))
                    .collect();
                let unseen = opponents.iter().fold(TileSet::EMPTY, |a, &h| a.union(h));
                for s in samples {
                    assert!(s.play.len() > 1);
                    assert!(can_be_beaten(players, unseen, s.play));
                    let actual = opponents.iter().any(|&h| can_be_beaten(players, h, s.play));
                    assert_eq!(actual, s.beaten, "{:?}", s.play);
                }
            });
        }
    }

    #[test]
    fn text_round_trips() {
        let table = count(2, 5);
        let text = table.to_text();
        let parsed = SafetyTable::parse(&text).unwrap();
        assert_eq!(parsed, table);
        assert_eq!(parse_header(&text), Some((2, 5)));
        assert!(SafetyTable::parse("# something else\n").is_err());
    }
}
