//! Legal play generation into a fixed-capacity list or a callback (no allocation).

use super::cards::{Cards, Rank};
use super::plays::Play;

/// The most distinct plays any hand can have: per numbered rank `r`, `r` natural counts
/// times 3 Jester counts (78 * 3 = 234), plus two Jester-only plays.
pub const MAX_PLAYS: usize = 236;

/// Calls `f` for every legal play from `hand` on `table` (`None`: a lead), in a fixed
/// order: rank best first, then fewer Jesters, then fewer naturals. Passing is not a
/// play and is not generated.
pub fn for_each_legal_play(hand: Cards, table: Option<Play>, mut f: impl FnMut(Play)) {
    let j_max = hand.jesters();
    match table {
        None => {
            for r in Rank::numbered() {
                let n = hand.count(r);
                for j in 0..=j_max {
                    for k in 1..=n {
                        if let Ok(p) = Play::new(r, k, j) {
                            f(p);
                        }
                    }
                }
            }
            for j in 1..=j_max {
                if let Ok(p) = Play::new(Rank::JESTER, 0, j) {
                    f(p);
                }
            }
        }
        Some(t) => {
            let size = t.size();
            // Only numbered ranks strictly better than the table; Jesters alone (13)
            // never beat anything.
            for r in Rank::numbered().take_while(|r| r.beats(t.rank())) {
                let n = hand.count(r);
                for j in 0..=j_max.min(size - 1) {
                    let k = size - j;
                    if k <= n
                        && let Ok(p) = Play::new(r, k, j)
                    {
                        f(p);
                    }
                }
            }
        }
    }
}

/// A fixed-capacity list of plays.
#[derive(Clone)]
pub struct PlayList {
    plays: [Play; MAX_PLAYS],
    len: usize,
}

impl Default for PlayList {
    fn default() -> Self {
        PlayList::new()
    }
}

impl PlayList {
    /// An empty list.
    pub fn new() -> PlayList {
        let filler = Play::new(Rank::JESTER, 0, 1).expect("a lone Jester is a play");
        PlayList {
            plays: [filler; MAX_PLAYS],
            len: 0,
        }
    }

    /// Replaces the contents with the legal plays of `hand` on `table`.
    pub fn fill(&mut self, hand: Cards, table: Option<Play>) {
        self.len = 0;
        for_each_legal_play(hand, table, |p| {
            self.plays[self.len] = p;
            self.len += 1;
        });
    }

    /// The legal plays of `hand` on `table`.
    pub fn legal(hand: Cards, table: Option<Play>) -> PlayList {
        let mut list = PlayList::new();
        list.fill(hand, table);
        list
    }

    /// The plays as a slice.
    pub fn as_slice(&self) -> &[Play] {
        &self.plays[..self.len]
    }

    /// The number of plays.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if there is no play.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The number of legal plays (the perft count of one position).
pub fn count_legal_plays(hand: Cards, table: Option<Play>) -> usize {
    let mut n = 0;
    for_each_legal_play(hand, table, |_| n += 1);
    n
}

/// True if `play` is legal from `hand` on `table`.
pub fn is_legal_play(hand: Cards, table: Option<Play>, play: Play) -> bool {
    hand.is_superset(play.cards()) && table.is_none_or(|t| play.beats(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::cards::test_rank as r;

    #[test]
    fn leads_by_hand_counts() {
        // {3x2, J}: 3x1, 3x2, 3x1+J, 3x2+J, Jx1 = 5.
        let hand = Cards::EMPTY.with(r(3), 2).with(Rank::JESTER, 1);
        assert_eq!(count_legal_plays(hand, None), 5);
        // The largest hand of a rank: 12 twelves and 2 Jesters: 12*3 + 2 = 38.
        let big = Cards::EMPTY.with(r(12), 12).with(Rank::JESTER, 2);
        assert_eq!(count_legal_plays(big, None), 38);
        // The whole deck reaches the capacity bound exactly.
        assert_eq!(count_legal_plays(Cards::FULL_DECK, None), MAX_PLAYS);
    }

    #[test]
    fn follows_need_size_and_rank() {
        // Table 5x2; hand {4, 6x2, J}: 4x1+J only (6 is worse; 4x2 lacks a card).
        let hand = Cards::EMPTY
            .with(r(4), 1)
            .with(r(6), 2)
            .with(Rank::JESTER, 1);
        let table = Play::new(r(5), 2, 0).unwrap();
        let list = PlayList::legal(hand, Some(table));
        assert_eq!(list.as_slice(), &[Play::new(r(4), 1, 1).unwrap()]);
        // Jesters alone (rank 13) can be beaten by any single but never beat.
        let jester = Play::new(Rank::JESTER, 0, 1).unwrap();
        assert_eq!(count_legal_plays(hand, Some(jester)), 2); // 4x1, 6x1
        assert!(is_legal_play(
            hand,
            Some(jester),
            Play::new(r(6), 1, 0).unwrap()
        ));
        assert!(!is_legal_play(
            hand,
            Some(table),
            Play::new(r(6), 2, 0).unwrap()
        ));
    }
}
