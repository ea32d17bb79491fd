//! Monte Carlo statistics on random deals: how likely a lead is to be beaten.

use super::cards::{Cards, Rank};
use super::referee::deal;
use super::turn::{MAX_PLAYERS, MIN_PLAYERS};
use crate::bot::StableHasher;
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
                            .find(|p| hands[0].contains(p.cards()));
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
    fn deterministic_in_the_seed() {
        assert_eq!(
            beat_probabilities(6, 5000, 3),
            beat_probabilities(6, 5000, 3)
        );
    }
}
