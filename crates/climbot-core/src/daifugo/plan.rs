//! The hand plan: the fewest plays that empty a hand, for one order (normal or
//! revolved), with a finishing play the rule set allows.
//!
//! A partition of the hand into plays (singles, groups, sequences, each joker where it
//! serves best: inside a group or sequence, or alone) is scored by its number of plays,
//! then by its *losers*: plays that are not certain winners when led in that order
//! ([`Knowledge::certain_lead`]), each of which needs a lead of its own. Under the
//! forbidden-finish rule one play of the partition must be allowed to go out last (no
//! joker, no 2 in the normal order or 3 in the revolved one, not only 8s, not a lone
//! ♠3); that play's loser status is waived, since it is played last and need not win.
//!
//! [`Planner`] memoises the best partition of every sub-hand it visits (a dynamic
//! programme over the hand's subsets: the hand's lowest card belongs to one play, tried
//! in turn), so that scoring every candidate of a decision shares the work. A plan
//! ignores the order changes its own revolution plays would make.

use super::cards::{Card, CardSet, RANKS};
use super::knowledge::Knowledge;
use super::moves::for_each_play;
use super::plays::is_forbidden_finish_cards;
// Memo tables are looked up, never iterated, so their order cannot reach a decision.
use std::collections::HashMap;

/// The best partition of a hand into plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The fewest plays that empty the hand (with an allowed finisher when one exists).
    pub plays: u8,
    /// Among those partitions, the fewest plays that are not certain lead winners
    /// (the finisher's waived).
    pub losers: u8,
    /// Whether some partition ends on an allowed finishing play (always true without
    /// the forbidden-finish rule; false for a hand of only jokers, 2s and the like).
    pub finishable: bool,
}

/// Plays major, losers minor.
type Key = u16;
const INF: Key = Key::MAX;
const PLAY: Key = 32;

/// Memoised hand plans for one seat's knowledge and one order.
pub struct Planner<'k> {
    knowledge: &'k Knowledge,
    revolution: bool,
    /// Per sub-hand: the best key of any partition, and of one with an allowed finisher.
    memo: HashMap<u64, (Key, Key)>,
    /// Per card set: whether some play of those cards is a certain lead winner.
    winners: HashMap<u64, bool>,
}

impl<'k> Planner<'k> {
    /// A planner for `knowledge` in the order `revolution`.
    pub fn new(knowledge: &'k Knowledge, revolution: bool) -> Planner<'k> {
        Planner {
            knowledge,
            revolution,
            memo: HashMap::new(),
            winners: HashMap::new(),
        }
    }

    /// The order this planner plans for.
    pub fn revolution(&self) -> bool {
        self.revolution
    }

    /// The plan of `hand` (empty hand: zero plays, finishable).
    pub fn plan(&mut self, hand: CardSet) -> Plan {
        if hand.is_empty() {
            return Plan {
                plays: 0,
                losers: 0,
                finishable: true,
            };
        }
        let (any, fin) = self.best(hand);
        let key = if fin != INF { fin } else { any };
        Plan {
            plays: (key / PLAY) as u8,
            losers: (key % PLAY) as u8,
            finishable: fin != INF,
        }
    }

    /// `(best key, best key with an allowed finisher)` of a non-empty hand.
    fn best(&mut self, hand: CardSet) -> (Key, Key) {
        if hand.is_empty() {
            return (0, INF);
        }
        if let Some(&known) = self.memo.get(&hand.bits()) {
            return known;
        }
        let lowest = hand.first().expect("non-empty");
        let mut options: Vec<CardSet> = Vec::new();
        for_each_play(related(hand, lowest), None, &self.knowledge.rules, |p| {
            let cards = p.cards();
            if cards.contains(lowest) && !options.contains(&cards) {
                options.push(cards);
            }
        });
        let rules = self.knowledge.rules;
        let mut any = INF;
        let mut fin = INF;
        for cards in options {
            let winner = self.is_winner(cards);
            let cost = PLAY + Key::from(!winner);
            let (rest_any, rest_fin) = self.best(hand.difference(cards));
            any = any.min(cost.saturating_add(rest_any));
            fin = fin.min(cost.saturating_add(rest_fin));
            let allowed =
                !rules.forbidden_finishes || !is_forbidden_finish_cards(cards, self.revolution);
            if allowed {
                fin = fin.min(PLAY.saturating_add(rest_any));
            }
        }
        self.memo.insert(hand.bits(), (any, fin));
        (any, fin)
    }

    /// Whether some play of exactly `cards` is a certain winner when led.
    fn is_winner(&mut self, cards: CardSet) -> bool {
        if let Some(&known) = self.winners.get(&cards.bits()) {
            return known;
        }
        let mut winner = false;
        let (knowledge, revolution) = (self.knowledge, self.revolution);
        for_each_play(cards, None, &knowledge.rules, |p| {
            if !winner && p.cards() == cards && knowledge.certain_lead(&p, revolution) {
                winner = true;
            }
        });
        self.winners.insert(cards.bits(), winner);
        winner
    }
}

/// The cards of `hand` that can share a play with `card`: its rank, its suit and the
/// jokers (or only the jokers, for a joker).
fn related(hand: CardSet, card: Card) -> CardSet {
    let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
        return hand.jokers();
    };
    let mut mask = CardSet::EMPTY;
    for r in 0..RANKS {
        mask.insert(Card::natural(r, suit));
    }
    for s in super::cards::Suit::ALL {
        mask.insert(Card::natural(rank, s));
    }
    hand.intersection(mask).union(hand.jokers())
}
