//! Cards of The Great Dalmuti: ranks and multisets of cards.
//!
//! Cards of one rank are indistinguishable, so a set of cards is a count per rank
//! ([`Cards`]), never a list. Rank 1 is the best card, 12 the worst; the two Jesters are
//! kept apart as "rank 13" (what a Jester alone is worth, and what it counts as for taxes).

use std::fmt;

/// The number of numbered ranks (1..=12).
pub const NUMBERED_RANKS: usize = 12;
/// The number of Jesters in the deck.
pub const JESTERS: u8 = 2;
/// The number of cards in the deck: 1 + 2 + ... + 12 = 78 numbered cards and 2 Jesters.
pub const DECK_SIZE: u8 = 80;

/// A rank: 1 (best) ..= 12 (worst) for numbered cards, 13 for Jesters (alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The best rank.
    pub const BEST: Rank = Rank(1);
    /// The worst numbered rank.
    pub const WORST_NUMBERED: Rank = Rank(12);
    /// The rank of Jesters played alone (worse than 12).
    pub const JESTER: Rank = Rank(13);

    /// The rank with number `n`, if `1 <= n <= 13`.
    pub const fn new(n: u8) -> Option<Rank> {
        if n >= 1 && n <= 13 {
            Some(Rank(n))
        } else {
            None
        }
    }

    /// The rank's number (1..=13).
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The index of this rank in a [`Cards`] count array (`number - 1`; Jesters are 12).
    pub const fn index(self) -> usize {
        (self.0 - 1) as usize
    }

    /// True for the Jester rank 13.
    pub const fn is_jester(self) -> bool {
        self.0 == 13
    }

    /// How many cards of this rank the deck holds (`r` for numbered ranks, 2 Jesters).
    pub const fn copies(self) -> u8 {
        if self.0 == 13 { JESTERS } else { self.0 }
    }

    /// Strictly better (lower number) than `other`.
    pub const fn beats(self, other: Rank) -> bool {
        self.0 < other.0
    }

    /// The numbered ranks, best first.
    pub fn numbered() -> impl DoubleEndedIterator<Item = Rank> + ExactSizeIterator {
        (1..=12u8).map(Rank)
    }

    /// Every rank including the Jester rank, best first.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> + ExactSizeIterator {
        (1..=13u8).map(Rank)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_jester() {
            f.write_str("J")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// A multiset of cards: `counts[r - 1]` cards of rank `r` for `r` in 1..=12 and
/// `counts[12]` Jesters. Used for hands, cards played, tax gifts and returns.
///
/// ```
/// use climbot_core::dalmuti::cards::{Cards, Rank};
/// let hand = Cards::EMPTY.with(Rank::new(3).unwrap(), 2).with(Rank::JESTER, 1);
/// assert_eq!(hand.len(), 3);
/// assert_eq!(format!("{hand:?}"), "{3x2 Jx1}");
/// assert!(Cards::FULL_DECK.is_superset(hand));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cards([u8; 13]);

impl Cards {
    /// No cards.
    pub const EMPTY: Cards = Cards([0; 13]);
    /// The whole 80-card deck.
    pub const FULL_DECK: Cards = Cards([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2]);

    /// Cards from raw counts (index `r - 1` for rank `r`, index 12 for Jesters) if no
    /// count exceeds the deck. The view constructor reports which index is wrong; this
    /// is the quick check for trusted callers.
    pub const fn from_counts(counts: [u8; 13]) -> Option<Cards> {
        let mut i = 0;
        while i < 13 {
            if counts[i] > Cards::FULL_DECK.0[i] {
                return None;
            }
            i += 1;
        }
        Some(Cards(counts))
    }

    /// The raw counts (index `r - 1` for rank `r`, index 12 for Jesters).
    pub const fn counts(self) -> [u8; 13] {
        self.0
    }

    /// The number of cards of `rank` (Jesters for [`Rank::JESTER`]).
    pub const fn count(self, rank: Rank) -> u8 {
        self.0[rank.index()]
    }

    /// The number of Jesters.
    pub const fn jesters(self) -> u8 {
        self.0[12]
    }

    /// The number of numbered (non-Jester) cards.
    pub const fn numbered_len(self) -> u32 {
        self.len() - self.0[12] as u32
    }

    /// The number of cards.
    pub const fn len(self) -> u32 {
        let mut n = 0u32;
        let mut i = 0;
        while i < 13 {
            n += self.0[i] as u32;
            i += 1;
        }
        n
    }

    /// True when there are no cards.
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// These cards with `n` more of `rank` (saturating at 255; the caller keeps within
    /// the deck).
    pub const fn with(mut self, rank: Rank, n: u8) -> Cards {
        self.0[rank.index()] = self.0[rank.index()].saturating_add(n);
        self
    }

    /// Adds `n` cards of `rank`.
    pub fn insert(&mut self, rank: Rank, n: u8) {
        self.0[rank.index()] += n;
    }

    /// Removes `n` cards of `rank`; panics if there are fewer.
    pub fn remove(&mut self, rank: Rank, n: u8) {
        assert!(
            self.0[rank.index()] >= n,
            "removing {n} of rank {rank} from {self:?}"
        );
        self.0[rank.index()] -= n;
    }

    /// True if every card of `other` is in `self` (multiset inclusion).
    pub const fn is_superset(self, other: Cards) -> bool {
        let mut i = 0;
        while i < 13 {
            if other.0[i] > self.0[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// True if every card of `self` is in `other` (multiset inclusion).
    pub const fn is_subset(self, other: Cards) -> bool {
        other.is_superset(self)
    }

    /// The multiset sum.
    pub const fn union(self, other: Cards) -> Cards {
        let mut out = self.0;
        let mut i = 0;
        while i < 13 {
            out[i] += other.0[i];
            i += 1;
        }
        Cards(out)
    }

    /// The multiset difference; panics unless `self` contains `other`.
    pub fn difference(self, other: Cards) -> Cards {
        assert!(
            self.is_superset(other),
            "{self:?} does not contain {other:?}"
        );
        let mut out = self.0;
        for (o, x) in out.iter_mut().zip(other.0) {
            *o -= x;
        }
        Cards(out)
    }

    /// The worst numbered rank held (largest number), if any numbered card is held.
    pub fn worst_numbered(self) -> Option<Rank> {
        Rank::numbered().rev().find(|&r| self.count(r) > 0)
    }

    /// The cards of rank `rank` or worse (a larger number; Jesters count as 13).
    pub fn no_better_than(self, rank: Rank) -> Cards {
        let mut out = self.0;
        for count in &mut out[..rank.index()] {
            *count = 0;
        }
        Cards(out)
    }

    /// The `k` best cards, Jesters counting as rank 13 (so they come last); the taxes'
    /// "best cards". Panics if fewer than `k` cards are held.
    pub fn best(self, k: u32) -> Cards {
        self.take(k, Rank::all())
    }

    /// The `k` worst numbered cards, then Jesters only if too few numbered cards are held
    /// (the easy bot's tax return). Panics if fewer than `k` cards are held.
    pub fn worst_numbered_first(self, k: u32) -> Cards {
        self.take(
            k,
            Rank::numbered().rev().chain(std::iter::once(Rank::JESTER)),
        )
    }

    fn take(self, k: u32, order: impl Iterator<Item = Rank>) -> Cards {
        assert!(self.len() >= k, "taking {k} cards from {self:?}");
        let mut left = k;
        let mut out = Cards::EMPTY;
        for r in order {
            if left == 0 {
                break;
            }
            let n = u32::from(self.count(r)).min(left);
            out.insert(r, n as u8);
            left -= n;
        }
        out
    }

    /// Every card as its rank, best first, Jesters last.
    pub fn iter(self) -> impl Iterator<Item = Rank> {
        Rank::all().flat_map(move |r| std::iter::repeat_n(r, usize::from(self.count(r))))
    }

    /// Every distinct sub-multiset of exactly `k` cards, in a fixed order (lexicographic
    /// in the count array from rank 1 down), passed to `f`.
    pub fn for_each_subset(self, k: u32, f: &mut impl FnMut(Cards)) {
        fn rec(src: &Cards, i: usize, left: u32, cur: &mut Cards, f: &mut impl FnMut(Cards)) {
            if left == 0 {
                f(*cur);
                return;
            }
            if i == 13 {
                return;
            }
            let rest: u32 = src.0[i + 1..].iter().map(|&c| u32::from(c)).sum();
            let max = u32::from(src.0[i]).min(left);
            // Take the most of this rank first, down to the least that still leaves
            // enough cards in the later ranks.
            for take in (0..=max).rev() {
                if left - take > rest {
                    break;
                }
                cur.0[i] = take as u8;
                rec(src, i + 1, left - take, cur, f);
            }
            cur.0[i] = 0;
        }
        let mut cur = Cards::EMPTY;
        rec(&self, 0, k, &mut cur, f);
    }
}

impl fmt::Debug for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        let mut first = true;
        for r in Rank::all() {
            let n = self.count(r);
            if n > 0 {
                if !first {
                    f.write_str(" ")?;
                }
                first = false;
                write!(f, "{r}x{n}")?;
            }
        }
        f.write_str("}")
    }
}

/// `Rank::new(n)` for tests, which name ranks by number.
#[cfg(test)]
pub(crate) fn test_rank(n: u8) -> Rank {
    Rank::new(n).expect("a rank")
}

#[cfg(test)]
mod tests {
    use super::test_rank as r;
    use super::*;

    #[test]
    fn deck_has_eighty_cards() {
        assert_eq!(Cards::FULL_DECK.len(), u32::from(DECK_SIZE));
        assert_eq!(Cards::FULL_DECK.numbered_len(), 78);
        for rank in Rank::all() {
            assert_eq!(Cards::FULL_DECK.count(rank), rank.copies());
        }
        assert_eq!(Rank::new(0), None);
        assert_eq!(Rank::new(14), None);
        assert!(Cards::from_counts([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_none());
    }

    #[test]
    fn best_cards_keep_jesters_for_last() {
        let hand = Cards::EMPTY
            .with(Rank::JESTER, 2)
            .with(r(5), 1)
            .with(r(9), 3);
        assert_eq!(hand.best(2), Cards::EMPTY.with(r(5), 1).with(r(9), 1));
        assert_eq!(
            hand.best(5),
            Cards::EMPTY
                .with(r(5), 1)
                .with(r(9), 3)
                .with(Rank::JESTER, 1)
        );
        assert_eq!(hand.worst_numbered_first(2), Cards::EMPTY.with(r(9), 2));
        let poor = Cards::EMPTY.with(Rank::JESTER, 2).with(r(1), 1);
        assert_eq!(
            poor.worst_numbered_first(2),
            Cards::EMPTY.with(r(1), 1).with(Rank::JESTER, 1)
        );
    }

    #[test]
    fn subsets_are_distinct_and_complete() {
        // {1, 2x2, J}: 2-card multisets are {1,2} {1,J} {2,2} {2,J} = 4.
        let hand = Cards::EMPTY
            .with(r(1), 1)
            .with(r(2), 2)
            .with(Rank::JESTER, 1);
        let mut seen = Vec::new();
        hand.for_each_subset(2, &mut |c| seen.push(c));
        assert_eq!(seen.len(), 4);
        assert!(seen.iter().all(|c| c.len() == 2 && hand.is_superset(*c)));
        assert!(
            seen.iter()
                .all(|c| c.is_subset(hand) && !hand.is_subset(*c))
        );
        seen.sort_by_key(|c| c.counts());
        seen.dedup();
        assert_eq!(seen.len(), 4);
        let mut none = 0;
        hand.for_each_subset(5, &mut |_| none += 1);
        assert_eq!(none, 0);
    }

    #[test]
    fn iteration_and_debug() {
        let hand = Cards::EMPTY
            .with(r(12), 2)
            .with(Rank::JESTER, 1)
            .with(r(1), 1);
        let ranks: Vec<u8> = hand.iter().map(Rank::get).collect();
        assert_eq!(ranks, vec![1, 12, 12, 13]);
        assert_eq!(format!("{hand:?}"), "{1x1 12x2 Jx1}");
        assert_eq!(hand.worst_numbered(), Some(r(12)));
        assert_eq!(Cards::EMPTY.with(Rank::JESTER, 1).worst_numbered(), None);
    }
}
