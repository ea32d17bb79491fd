//! Monte Carlo statistics on random deals: how likely a lead is to be beaten.

use crate::bot::StableHasher;
use crate::dalmuti::cards::{Cards, Rank};
use crate::dalmuti::referee::deal;
use crate::dalmuti::turn::{MAX_PLAYERS, MIN_PLAYERS};
use crate::stats::wilson95;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;

/// The largest lead size in the table.
pub const MAX_LEAD: usize = 8;
/// Deals per independent chunk (each chunk has its own seeded generator, so results do
/// not depend on the number of threads).
const CHUNK: u64 = 4096;

/// One cell: leads of `size` cards of `rank`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BeatCell {
    /// Cards in the lead.
    pub size: u8,
    /// The lead's rank (1..=12).
    pub rank: u8,
    /// Deals in which the leader could make this lead (its rank's cards plus Jesters).
    pub samples: u64,
    /// Of those, deals in which at least one opponent could beat it.
    pub beaten: u64,
    /// `beaten / samples` (0 without samples).
    pub p: f64,
    /// Lower end of the Wilson 95% interval.
    pub lo: f64,
    /// Upper end of the Wilson 95% interval.
    pub hi: f64,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BeatTable {
    /// Players at the table.
    pub players: usize,
    /// Deals sampled.
    pub deals: u64,
    /// The seed.
    pub seed: u64,
    /// Cells by size 1..=8, then rank 1..=12.
    pub cells: Vec<BeatCell>,
}

impl BeatTable {
    /// The cell for `size` cards of `rank`.
    pub fn cell(&self, size: u8, rank: u8) -> &BeatCell {
        &self.cells[usize::from(size - 1) * 12 + usize::from(rank - 1)]
    }
}

/// The largest set of rank `r` a hand can make (its naturals plus every Jester, if it
/// holds at least one natural), per rank index.
fn max_sets(hand: Cards) -> [u8; 12] {
    let mut out = [0; 12];
    for r in Rank::numbered() {
        let n = hand.count(r);
        if n > 0 {
            out[r.index()] = n + hand.jesters();
        }
    }
    out
}

/// Counts over one chunk: `[size][rank] -> (samples, beaten)`.
type Counts = [[(u64, u64); 12]; MAX_LEAD];

fn add_deal(hands: &[Cards], counts: &mut Counts) {
    // Seat 0 (the GD) leads the opening hand; everyone else is an opponent.
    let leader = max_sets(hands[0]);
    // best_below[r] = the largest set of a rank better than r any opponent can make.
    let mut best_at = [0u8; 12];
    for &h in &hands[1..] {
        for (b, s) in best_at.iter_mut().zip(max_sets(h)) {
            *b = (*b).max(s);
        }
    }
    let mut best_below = [0u8; 12];
    let mut run = 0;
    for r in 0..12 {
        best_below[r] = run;
        run = run.max(best_at[r]);
    }
    for (size, row) in counts.iter_mut().enumerate() {
        let n = size as u8 + 1;
        for r in 0..12 {
            if leader[r] >= n {
                row[r].0 += 1;
                // A follow of n cards needs at least one natural of a better rank.
                if best_below[r] >= n {
                    row[r].1 += 1;
                }
            }
        }
    }
}

/// The probability, over `deals` random opening deals with `players` players, that at
/// least one opponent of the leader (seat 0) can beat its lead of `n` cards of rank
/// `r`, given that the leader can make that lead (Jesters wild on both sides).
/// Deterministic in `seed`, whatever the thread count.
pub fn beat_probabilities(players: usize, deals: u64, seed: u64) -> BeatTable {
    beat_probabilities_with_progress(players, deals, seed, &|_| {})
}

/// [`beat_probabilities`], telling `deals_done` of the deals as they are counted.
pub fn beat_probabilities_with_progress(
    players: usize,
    deals: u64,
    seed: u64,
    deals_done: &(dyn Fn(u64) + Sync),
) -> BeatTable {
    assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&players));
    let chunks = deals.div_ceil(CHUNK);
    let total = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(StableHasher::new().u64(seed).u64(c).finish());
            let mut counts: Counts = [[(0, 0); 12]; MAX_LEAD];
            let n = CHUNK.min(deals - c * CHUNK);
            for _ in 0..n {
                add_deal(&deal(players, &mut rng), &mut counts);
            }
            deals_done(n);
            counts
        })
        .reduce(
            || [[(0, 0); 12]; MAX_LEAD],
            |mut a, b| {
                for (ra, rb) in a.iter_mut().zip(b) {
                    for (x, y) in ra.iter_mut().zip(rb) {
                        x.0 += y.0;
                        x.1 += y.1;
                    }
                }
                a
            },
        );
    let mut cells = Vec::with_capacity(MAX_LEAD * 12);
    for (size, row) in total.iter().enumerate() {
        for (r, &(samples, beaten)) in row.iter().enumerate() {
            let (lo, hi) = wilson95(beaten, samples);
            cells.push(BeatCell {
                size: size as u8 + 1,
                rank: r as u8 + 1,
                samples,
                beaten,
                p: if samples == 0 {
                    0.0
                } else {
                    beaten as f64 / samples as f64
                },
                lo,
                hi,
            });
        }
    }
    BeatTable {
        players,
        deals,
        seed,
        cells,
    }
}

/// One row of the analytic-versus-Monte-Carlo comparison: leads of `size` cards,
/// averaged over the ranks whose Monte Carlo control probability is between 5% and 95%
/// (the middle range, where the seed expects the largest error).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct ControlRow {
    /// Cards in the lead.
    pub size: u8,
    /// Ranks averaged (cells in the middle range with at least 500 samples).
    pub ranks: u32,
    /// Samples over those cells.
    pub samples: u64,
    /// Monte Carlo: the chance nobody can beat the lead (the truth).
    pub mc_control: f64,
    /// Monte Carlo per seat, multiplied as if seats were independent.
    pub independent_control: f64,
    /// The ledger's analytic control probability (Boole per seat, seats independent),
    /// from the leader's own information.
    pub analytic_control: f64,
    /// Mean over the cells of `independent_control / mc_control`.
    pub independence_ratio: f64,
    /// Mean over the cells of `analytic_control / mc_control`.
    pub analytic_ratio: f64,
    /// The cell with the largest `independent_control / mc_control`: its rank.
    pub worst_rank: u8,
    /// That cell's Monte Carlo control probability.
    pub worst_mc: f64,
    /// That cell's independence ratio.
    pub worst_independence_ratio: f64,
    /// That cell's analytic ratio.
    pub worst_analytic_ratio: f64,
}

/// Compares the ledger's [`crate::dalmuti::knowledge::Ledger::beat_risk`] (as control
/// probability `1 - risk`) and the seat-independence approximation against the Monte
/// Carlo truth on `deals` random opening deals (leader = seat 0).
pub fn control_comparison(players: usize, deals: u64, seed: u64) -> Vec<ControlRow> {
    control_comparison_with_progress(players, deals, seed, &|_| {})
}

/// [`control_comparison`], telling `deals_done` of each deal as it is counted.
pub fn control_comparison_with_progress(
    players: usize,
    deals: u64,
    seed: u64,
    deals_done: &dyn Fn(u64),
) -> Vec<ControlRow> {
    use crate::dalmuti::knowledge::{Ledger, Opponent};
    assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&players));
    // [size][rank]: samples, beaten, per-seat beaten, analytic control sum.
    struct Cell {
        samples: u64,
        beaten: u64,
        seat_beaten: [u64; MAX_PLAYERS],
        analytic: f64,
    }
    let mut cells: Vec<Cell> = (0..MAX_LEAD * 12)
        .map(|_| Cell {
            samples: 0,
            beaten: 0,
            seat_beaten: [0; MAX_PLAYERS],
            analytic: 0.0,
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..deals {
        deals_done(1);
        let hands = deal(players, &mut rng);
        let leader = max_sets(hands[0]);
        let opponents: Vec<Opponent> = (1..players)
            .map(|s| Opponent {
                seat: s,
                cards: hands[s].len() as u8,
                known_jesters: None,
                passed_on: None,
                known: Cards::EMPTY,
            })
            .collect();
        let ledger = Ledger::from_parts(Cards::FULL_DECK.difference(hands[0]), &opponents, 1.0);
        let seat_best_below: Vec<[u8; 12]> = hands[1..]
            .iter()
            .map(|&h| {
                let m = max_sets(h);
                let mut below = [0u8; 12];
                let mut run = 0;
                for r in 0..12 {
                    below[r] = run;
                    run = run.max(m[r]);
                }
                below
            })
            .collect();
        for size in 1..=MAX_LEAD as u8 {
            for r in 0..12 {
                if leader[r] < size {
                    continue;
                }
                let c = &mut cells[usize::from(size - 1) * 12 + r];
                c.samples += 1;
                let mut any = false;
                for (s, below) in seat_best_below.iter().enumerate() {
                    if below[r] >= size {
                        c.seat_beaten[s] += 1;
                        any = true;
                    }
                }
                c.beaten += u64::from(any);
                let rank = Rank::new(r as u8 + 1).expect("rank");
                c.analytic += 1.0 - ledger.beat_risk(rank, size);
            }
        }
    }
    (1..=MAX_LEAD as u8)
        .map(|size| {
            let mut row = ControlRow {
                size,
                ranks: 0,
                samples: 0,
                mc_control: 0.0,
                independent_control: 0.0,
                analytic_control: 0.0,
                independence_ratio: 0.0,
                analytic_ratio: 0.0,
                worst_rank: 0,
                worst_mc: 0.0,
                worst_independence_ratio: 0.0,
                worst_analytic_ratio: 0.0,
            };
            for r in 0..12 {
                let c = &cells[usize::from(size - 1) * 12 + r];
                if c.samples < 500 {
                    continue;
                }
                let n = c.samples as f64;
                let mc = 1.0 - c.beaten as f64 / n;
                if !(0.05..=0.95).contains(&mc) {
                    continue;
                }
                let indep: f64 = c.seat_beaten[..players - 1]
                    .iter()
                    .map(|&b| 1.0 - b as f64 / n)
                    .product();
                let analytic = c.analytic / n;
                row.ranks += 1;
                row.samples += c.samples;
                row.mc_control += mc;
                row.independent_control += indep;
                row.analytic_control += analytic;
                row.independence_ratio += indep / mc;
                row.analytic_ratio += analytic / mc;
                if indep / mc > row.worst_independence_ratio {
                    row.worst_rank = r as u8 + 1;
                    row.worst_mc = mc;
                    row.worst_independence_ratio = indep / mc;
                    row.worst_analytic_ratio = analytic / mc;
                }
            }
            if row.ranks > 0 {
                let k = f64::from(row.ranks);
                row.mc_control /= k;
                row.independent_control /= k;
                row.analytic_control /= k;
                row.independence_ratio /= k;
                row.analytic_ratio /= k;
            }
            row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_one_is_never_beaten_and_samples_follow_the_deck() {
        let t = beat_probabilities(5, 2000, 7);
        for size in 1..=8u8 {
            let c = t.cell(size, 1);
            assert_eq!(c.beaten, 0, "nothing beats rank 1");
        }
        // A lead of 4 of rank 1 needs 1 natural and 3 Jesters: impossible.
        assert_eq!(t.cell(4, 1).samples, 0);
        // The leader holds some card of rank 12 in most deals, and a single 12 is
        // almost always beaten.
        let c = t.cell(1, 12);
        assert!(c.samples > 1500 && c.p > 0.99, "{c:?}");
        // Bigger leads are beaten less often.
        assert!(t.cell(5, 12).p < t.cell(2, 12).p);
    }

    #[test]
    fn agrees_with_the_move_generator() {
        use crate::dalmuti::moves::count_legal_plays;
        use crate::dalmuti::plays::Play;
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        for players in [4, 6, 8] {
            for _ in 0..100 {
                let hands = deal(players, &mut rng);
                let mut counts: Counts = [[(0, 0); 12]; MAX_LEAD];
                add_deal(&hands, &mut counts);
                for n in 1..=MAX_LEAD as u8 {
                    for r in Rank::numbered() {
                        // The leader's possible leads of n cards of rank r.
                        let lead = (0..=hands[0].jesters().min(n - 1))
                            .filter_map(|j| Play::new(r, n - j, j).ok())
                            .find(|p| hands[0].is_superset(p.cards()));
                        let (samples, beaten) = counts[usize::from(n - 1)][r.index()];
                        assert_eq!(samples, u64::from(lead.is_some()));
                        if let Some(p) = lead {
                            let any = hands[1..]
                                .iter()
                                .any(|&h| count_legal_plays(h, Some(p)) > 0);
                            assert_eq!(beaten, u64::from(any), "n {n} r {r}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn independence_is_optimistic_for_middle_leads() {
        let rows = control_comparison(6, 3000, 5);
        let four = rows[3];
        assert_eq!(four.size, 4);
        assert!(four.ranks > 0);
        // Seats share one deck: multiplying per-seat chances overstates control.
        assert!(four.independence_ratio > 1.0, "{four:?}");
    }

    #[test]
    fn deterministic_in_the_seed() {
        assert_eq!(
            beat_probabilities(6, 5000, 3),
            beat_probabilities(6, 5000, 3)
        );
    }
}
