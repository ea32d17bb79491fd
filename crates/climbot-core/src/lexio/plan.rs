//! Hand plans: the fewest plays that empty a hand (announced in Lexio Part 1, `docs/references.md`:
//! "비트마스크 DP 로 최소 제출 횟수"), by dynamic programming over the subsets of the
//! hand. One table per decision answers the plan of every sub-hand, so scoring a
//! candidate is a lookup of the hand without it.

use super::combos::Combo;
use super::moves::for_each_lead;
use super::tiles::{PlayerCount, Tile, TileSet};

/// The plan of one (sub-)hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandPlan {
    /// The fewest plays that empty the hand.
    pub plays: u8,
    /// Singles in that plan (fewest among the minimal plans): tiles that go out alone.
    pub singles: u8,
    /// The plays of one such plan.
    pub combos: Vec<Combo>,
}

/// The plan table of a hand of at most 13 tiles: the best plan of every subset.
#[derive(Clone, Debug)]
pub struct PlanTable {
    tiles: Vec<Tile>,
    /// Packed value per local subset: plays * 32 + singles.
    value: Vec<u16>,
    /// The play chosen for the lowest tile of each subset (local mask), 0 for empty.
    choice: Vec<u16>,
    combos_by_mask: Vec<(u16, Combo)>,
}

/// Hands longer than this are not planned (no Lexio hand is).
pub const MAX_PLAN_TILES: usize = 13;

impl PlanTable {
    /// Builds the table for `hand` (at most [`MAX_PLAN_TILES`] tiles).
    pub fn new(players: PlayerCount, hand: TileSet) -> PlanTable {
        let tiles: Vec<Tile> = hand.iter().take(MAX_PLAN_TILES).collect();
        let hand = tiles.iter().copied().collect::<TileSet>();
        let n = tiles.len();
        let local = |set: TileSet| -> u16 {
            let mut m = 0u16;
            for (i, t) in tiles.iter().enumerate() {
                if set.contains(*t) {
                    m |= 1 << i;
                }
            }
            m
        };
        // Every play of the hand, grouped by its lowest tile (the only tile a subset's
        // DP step needs to cover).
        let mut by_lowest: Vec<Vec<(u16, bool)>> = vec![Vec::new(); n];
        let mut combos_by_mask = Vec::new();
        for_each_lead(players, hand, &mut |c| {
            let m = local(c.tiles());
            by_lowest[m.trailing_zeros() as usize].push((m, c.len() == 1));
            combos_by_mask.push((m, c));
        });
        combos_by_mask.sort_unstable_by_key(|(m, _)| *m);
        let size = 1usize << n;
        let mut value = vec![u16::MAX; size];
        let mut choice = vec![0u16; size];
        value[0] = 0;
        for s in 1..size {
            let low = s.trailing_zeros() as usize;
            let mut best = u16::MAX;
            let mut pick = 0u16;
            for &(m, single) in &by_lowest[low] {
                let m = m as usize;
                if m & !s != 0 {
                    continue;
                }
                let v = value[s & !m] + 32 + u16::from(single);
                if v < best {
                    best = v;
                    pick = m as u16;
                }
            }
            value[s] = best;
            choice[s] = pick;
        }
        PlanTable {
            tiles,
            value,
            choice,
            combos_by_mask,
        }
    }

    fn local(&self, set: TileSet) -> Option<usize> {
        let mut m = 0usize;
        let mut covered = TileSet::EMPTY;
        for (i, t) in self.tiles.iter().enumerate() {
            if set.contains(*t) {
                m |= 1 << i;
                covered.insert(*t);
            }
        }
        (covered == set).then_some(m)
    }

    /// The fewest plays that empty `subset` (a subset of the table's hand).
    pub fn min_plays(&self, subset: TileSet) -> Option<u8> {
        self.local(subset).map(|m| (self.value[m] / 32) as u8)
    }

    /// The best plan of `subset`: fewest plays, then fewest singles.
    pub fn plan(&self, subset: TileSet) -> Option<HandPlan> {
        let mut m = self.local(subset)?;
        let v = self.value[m];
        let mut combos = Vec::new();
        while m != 0 {
            let pick = self.choice[m];
            let i = self.combos_by_mask.partition_point(|(k, _)| *k < pick);
            combos.push(self.combos_by_mask[i].1);
            m &= !(pick as usize);
        }
        Some(HandPlan {
            plays: (v / 32) as u8,
            singles: (v % 32) as u8,
            combos,
        })
    }
}

/// A greedy split for comparison: repeatedly take the largest play (then the weakest
/// key) from what is left. Returns the number of plays.
pub fn greedy_plays(players: PlayerCount, hand: TileSet) -> u8 {
    let mut rest = hand;
    let mut plays = 0;
    while !rest.is_empty() {
        let mut best: Option<Combo> = None;
        for_each_lead(players, rest, &mut |c| {
            if best.is_none_or(|b| c.len() > b.len() || (c.len() == b.len() && c.key() < b.key())) {
                best = Some(c);
            }
        });
        match best {
            Some(c) => rest = rest.difference(c.tiles()),
            None => break,
        }
        plays += 1;
    }
    plays
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::tile;
    use crate::lexio::referee::deal;
    use crate::lexio::tiles::Suit::*;

    fn set(tiles: &[(u8, crate::lexio::Suit)]) -> TileSet {
        tiles.iter().map(|&(n, s)| tile(n, s)).collect()
    }

    #[test]
    fn small_plans_by_hand() {
        // A full house and a straight: 2 plays.
        let hand = set(&[
            (3, Cloud),
            (3, Star),
            (3, Moon),
            (9, Cloud),
            (9, Star),
            (4, Sun),
            (5, Sun),
            (6, Cloud),
            (7, Moon),
            (8, Star),
        ]);
        let table = PlanTable::new(PlayerCount::Five, hand);
        let plan = table.plan(hand).unwrap();
        assert_eq!(plan.plays, 2);
        assert_eq!(plan.singles, 0);
        let union = plan
            .combos
            .iter()
            .fold(TileSet::EMPTY, |a, c| a.union(c.tiles()));
        assert_eq!(union, hand);
        // Four equal numbers need a fifth tile: {3333}+x then nothing, or 33+33.
        let quad = set(&[(3, Cloud), (3, Star), (3, Moon), (3, Sun)]);
        assert_eq!(
            PlanTable::new(PlayerCount::Five, quad).min_plays(quad),
            Some(2)
        );
        let quad_plus = quad.with(tile(2, Sun));
        assert_eq!(
            PlanTable::new(PlayerCount::Five, quad_plus).min_plays(quad_plus),
            Some(1)
        );
        assert_eq!(table.min_plays(TileSet::EMPTY), Some(0));
        assert_eq!(table.min_plays(set(&[(2, Sun)])), None, "not a sub-hand");
    }

    #[test]
    fn the_plan_is_never_worse_than_greedy_and_covers_the_hand() {
        for seed in 0..200 {
            let hand = deal(PlayerCount::Five, seed)[0];
            let table = PlanTable::new(PlayerCount::Five, hand);
            let plan = table.plan(hand).unwrap();
            assert!(plan.plays <= greedy_plays(PlayerCount::Five, hand));
            assert_eq!(plan.combos.len(), plan.plays as usize);
            let mut union = TileSet::EMPTY;
            for c in &plan.combos {
                assert!(union.is_disjoint(c.tiles()));
                union = union.union(c.tiles());
            }
            assert_eq!(union, hand);
        }
    }
}
