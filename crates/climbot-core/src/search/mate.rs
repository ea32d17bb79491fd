//! Exact forced wins (*mates*) in a climbing game: a line of plays that each win their
//! trick whatever the hidden cards are (every other seat can only pass, and the seat
//! leads again), the last one emptying the hand. Once a seat has one, nobody else plays
//! a card before it goes out, so no other line can do better for it: EXPERT answers it
//! without searching ([`super::Searchable::forced_win`]).
//!
//! The search is depth-first over the seat's own plays, memoised on the remaining hand,
//! and bounded by [`MATE_STEP_LIMIT`] plays tried, so that no hand can make it slow; it
//! never draws from a generator and never iterates a map, so its answer is a function
//! of the view.

// The memo is looked up, never iterated, so its order cannot reach a decision.
use std::collections::HashMap;
use std::hash::Hash;

/// The most plays a mate search tries before it gives up and reports no mate: far more
/// than any hand of a real game needs, a bound for a pathological one.
pub const MATE_STEP_LIMIT: u32 = 200_000;

/// What a game tells the mate search: its hands, its leads, and which plays are
/// certain to win their trick.
pub trait MateRules {
    /// A hand (the memo's key).
    type Hand: Copy + Eq + Hash;
    /// A play.
    type Play: Copy;
    /// Every play the seat may lead from `hand`, in the game's generation order.
    fn leads(&self, hand: Self::Hand, out: &mut Vec<Self::Play>);
    /// `hand` after `play`.
    fn rest(&self, hand: Self::Hand, play: Self::Play) -> Self::Hand;
    /// Whether `hand` is empty.
    fn is_empty(&self, hand: Self::Hand) -> bool;
    /// Whether no holding of the hidden cards can beat `play`.
    fn is_certain(&self, play: Self::Play) -> bool;
}

/// The first of `plays` (the seat's legal plays now, from `hand`) that starts a mate,
/// if any, and if the search stayed within [`MATE_STEP_LIMIT`].
pub fn first_mate_play<R: MateRules>(
    rules: &R,
    hand: R::Hand,
    plays: &[R::Play],
) -> Option<R::Play> {
    first_mate_play_within(rules, hand, plays, MATE_STEP_LIMIT)
}

fn first_mate_play_within<R: MateRules>(
    rules: &R,
    hand: R::Hand,
    plays: &[R::Play],
    limit: u32,
) -> Option<R::Play> {
    let mut search = MateSearch {
        rules,
        memo: HashMap::new(),
        steps: 0,
        limit,
    };
    let first = plays
        .iter()
        .copied()
        .find(|&play| search.starts_mate(hand, play));
    first.filter(|_| search.steps <= limit)
}

/// The state of one search.
struct MateSearch<'r, R: MateRules> {
    rules: &'r R,
    /// Whether a hand, on the lead, is mated.
    memo: HashMap<R::Hand, bool>,
    steps: u32,
    limit: u32,
}

impl<R: MateRules> MateSearch<'_, R> {
    /// Whether playing `play` from `hand` starts a mate.
    fn starts_mate(&mut self, hand: R::Hand, play: R::Play) -> bool {
        self.steps += 1;
        if self.steps > self.limit {
            return false;
        }
        let rest = self.rules.rest(hand, play);
        self.rules.is_empty(rest) || (self.rules.is_certain(play) && self.mated_lead(rest))
    }

    /// Whether `hand`, leading, is mated.
    fn mated_lead(&mut self, hand: R::Hand) -> bool {
        if let Some(&known) = self.memo.get(&hand) {
            return known;
        }
        let mut leads = Vec::new();
        self.rules.leads(hand, &mut leads);
        let found = leads.into_iter().any(|play| self.starts_mate(hand, play));
        self.memo.insert(hand, found);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy game: a hand is a bitmask of cards 0..16, a play is one card, and a card
    /// wins its trick for certain when it is at least `certain_from`.
    struct Singles {
        certain_from: u32,
    }

    impl MateRules for Singles {
        type Hand = u16;
        type Play = u32;
        fn leads(&self, hand: u16, out: &mut Vec<u32>) {
            out.extend((0..16).filter(|c| hand & (1 << c) != 0));
        }
        fn rest(&self, hand: u16, play: u32) -> u16 {
            hand & !(1 << play)
        }
        fn is_empty(&self, hand: u16) -> bool {
            hand == 0
        }
        fn is_certain(&self, play: u32) -> bool {
            play >= self.certain_from
        }
    }

    #[test]
    fn all_but_one_play_must_be_certain() {
        let rules = Singles { certain_from: 10 };
        // 12 and 14 are certain, 3 is not: lead the certain ones, end on the 3.
        let hand = (1 << 3) | (1 << 12) | (1 << 14);
        assert_eq!(first_mate_play(&rules, hand, &[3, 12, 14]), Some(12));
        // Two cards that may be beaten: no mate.
        let hand = (1 << 3) | (1 << 4) | (1 << 14);
        assert_eq!(first_mate_play(&rules, hand, &[3, 4, 14]), None);
        // The last card wins whatever it is.
        assert_eq!(first_mate_play(&rules, 1 << 3, &[3]), Some(3));
    }

    #[test]
    fn a_search_past_its_limit_reports_no_mate() {
        let rules = Singles { certain_from: 10 };
        let hand = (1 << 3) | (1 << 12) | (1 << 14);
        // The line 12, 14, 3 is found on the fifth play tried (3 and 12 at the top,
        // then 3, 14 and 3 below 12).
        assert_eq!(
            first_mate_play_within(&rules, hand, &[3, 12, 14], 5),
            Some(12)
        );
        assert_eq!(first_mate_play_within(&rules, hand, &[3, 12, 14], 4), None);
    }
}
