//! What one seat knows in a Daifugo game, and the exact questions asked of it.
//!
//! [`Knowledge`] holds the hard facts of a view: the exact unseen set (the deck less
//! the own hand, the played cards it remembers; the cards removed unseen by
//! miyako-ochi stay in it, since nobody knows which they are), every seat's card count,
//! who is out, who is locked out of the trick, and the trick's order, J-back and lock.
//! From the public log it also reads soft evidence: a seat that passed on a play it
//! might have beaten (a beatable table, under the lock of the moment) probably holds no
//! such beater. A pass is a choice, never a proof, so the evidence only scales
//! probabilities ([`Memory::pass_factor`]); the exact answers use hard facts alone.
//!
//! The exchange is a hard fact: the cards the seat gave its exchange partner and that
//! are not played yet are in the partner's hand ([`Knowledge::known`]). They stay in
//! the unseen set, so every exact answer below still ranges over all holdings of the
//! unseen cards (a superset of the possible ones: a certain winner stays certain); the
//! estimates use them ([`Knowledge::beat_chance`]), and so does the search's deal
//! sampler ([`super::position::DaifugoDeal::draw`]).
//!
//! The exact answers:
//! - [`beatable`]: whether some holding of the unseen cards beats the top of a trick;
//! - [`Knowledge::certain_now`] and [`Knowledge::certain_lead`]: a *certain winner*, a
//!   play no unseen holding of a seat still in the trick can beat (order after a
//!   revolution, J-back, the lock it sets, 8-cut and the ♠3 return clearing the table,
//!   the ♠3 against a lone joker, the jokers left unseen);
//! - [`Knowledge::mate_now`]: a *mate*, plays that each win their trick with certainty
//!   and empty the hand, the last one not a forbidden finish under the rule set.

use super::cards::{Card, CardSet, RANK_2, RANK_8, RANK_J, RANKS, Suit};
use super::moves::{Trick, for_each_legal_play, for_each_play};
use super::plays::{
    POSITION_ABOVE_2, POSITION_BELOW_3, Play, PlayKind, is_forbidden_finish_cards,
    is_revolution_shape,
};
use super::position::{MAX_SEATS, logged_kind};
use super::rules::{RuleSet, Title};
use super::view::DaifugoView;
use crate::stats::hypergeometric_at_least;
// Memo tables are looked up, never iterated, so their order cannot reach a decision.
use std::collections::HashMap;

/// How much of the view a bot reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    /// `None`: the whole log. `Some(k)`: only the last `k` log entries (older played
    /// cards count as unseen, older passes are forgotten).
    pub window: Option<usize>,
    /// Whether passes are read as evidence.
    pub passes: bool,
    /// The factor on a seat's chance to beat a play it already passed on (1 = no
    /// inference).
    pub pass_factor: f64,
}

impl Memory {
    /// Everything: the whole log, passes as evidence (the hard level).
    pub const FULL: Memory = Memory {
        window: None,
        passes: true,
        pass_factor: 0.5,
    };
}

/// A seat passed on a beatable play of this shape: it probably holds nothing that
/// beats a play of the same shape at least as strong, under the same order and lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassEvidence {
    /// The seat that passed.
    pub seat: usize,
    /// The kind of the play it passed on.
    pub kind: PlayKind,
    /// Its number of cards.
    pub len: usize,
    /// Its strength under the order of the moment ([`Play::strength`]).
    pub strength: u8,
    /// The order of the moment (revolution XOR J-back).
    pub reversed: bool,
    /// The lock of the moment (0 = none).
    pub lock: u8,
}

/// One seat's knowledge of a game in play (see the module docs).
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// The rule set.
    pub rules: RuleSet,
    /// The deciding seat.
    pub seat: usize,
    /// Seats at the table.
    pub players: usize,
    /// The cards the seat has not seen (or no longer remembers).
    pub unseen: CardSet,
    /// Every seat's card count.
    pub counts: [usize; MAX_SEATS],
    /// Cards known to be in each seat's hand: those the seat gave it in the exchange,
    /// not played yet (a subset of `unseen`).
    pub known: [CardSet; MAX_SEATS],
    /// Seats still in the game (bit = seat).
    pub active: u8,
    /// Seats locked out of the current trick (bit = seat).
    pub passed: u8,
    /// The owner of the top play, if any.
    pub owner: Option<usize>,
    /// The current trick.
    pub trick: Trick,
    /// What passes revealed (empty without pass inference).
    pub evidence: Vec<PassEvidence>,
    /// See [`Memory::pass_factor`].
    pub pass_factor: f64,
}

impl Knowledge {
    /// The knowledge of `view`'s seat, reading as much as `memory` allows.
    pub fn new(view: &DaifugoView, memory: Memory) -> Knowledge {
        let rules = *view.rules();
        let players = view.seats().len();
        let mut counts = [0; MAX_SEATS];
        let mut active = 0u8;
        let mut passed = 0u8;
        for (i, s) in view.seats().iter().enumerate() {
            counts[i] = s.card_count;
            if !s.finished {
                active |= 1 << i;
            }
            if s.passed {
                passed |= 1 << i;
            }
        }
        let log = view.log();
        let forgotten = memory.window.map_or(0, |k| log.len().saturating_sub(k));
        let mut remembered = CardSet::EMPTY;
        for entry in &log[forgotten..] {
            if let Some(cards) = entry.cards {
                remembered = remembered.union(cards);
            }
        }
        if let Some(t) = view.table() {
            remembered = remembered.union(t.play.cards());
        }
        let unseen = CardSet::deck(rules.jokers)
            .difference(view.hand())
            .difference(remembered);
        let mut known = [CardSet::EMPTY; MAX_SEATS];
        if let Some(x) = view.exchange_known() {
            known[x.with_seat] = view.known_held(x.with_seat).intersection(unseen);
        }
        let evidence = if memory.passes {
            read_passes(view, forgotten)
        } else {
            Vec::new()
        };
        Knowledge {
            rules,
            seat: view.seat(),
            players,
            unseen,
            counts,
            known,
            active,
            passed,
            owner: view.table().map(|t| t.owner),
            trick: *view.trick(),
            evidence,
            pass_factor: memory.pass_factor,
        }
    }

    /// The opponents still in the game, in seat order.
    pub fn opponents(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.players).filter(move |&s| s != self.seat && self.active & (1 << s) != 0)
    }

    /// Whether `seat` may still play on the current trick after a play of ours (a
    /// pass locks a seat out until the table clears when the rule says so).
    pub fn may_answer(&self, seat: usize) -> bool {
        !(self.rules.pass_locks_out && self.passed & (1 << seat) != 0)
    }

    /// The most cards an opponent who may still answer this trick holds.
    fn answer_count_now(&self) -> usize {
        self.opponents()
            .filter(|&s| self.may_answer(s))
            .map(|s| self.counts[s])
            .max()
            .unwrap_or(0)
    }

    /// The most cards an opponent holds (everyone answers a lead).
    pub fn answer_count_lead(&self) -> usize {
        self.opponents().map(|s| self.counts[s]).max().unwrap_or(0)
    }

    /// Whether `play`, put on the current trick, is a certain winner: it clears the
    /// table, or no unseen holding of an opponent still in the trick beats it.
    pub fn certain_now(&self, play: &Play) -> bool {
        certain_on(
            &self.trick,
            play,
            &self.rules,
            self.unseen,
            self.answer_count_now(),
        )
    }

    /// Whether `play`, led on an empty table in the order `revolution`, is a certain
    /// winner.
    pub fn certain_lead(&self, play: &Play, revolution: bool) -> bool {
        certain_on(
            &lead_trick(revolution),
            play,
            &self.rules,
            self.unseen,
            self.answer_count_lead(),
        )
    }

    /// Whether `hand` is mated from the current trick (see [`mate`]).
    pub fn mate_now(&self, hand: CardSet) -> bool {
        self.mate_play_now(hand).is_some()
    }

    /// The first legal play of `hand` on the current trick that starts a mate (see
    /// [`mate`]): the seat goes out before any other seat can play, whatever the
    /// hidden cards. `None` when there is none.
    pub fn mate_play_now(&self, hand: CardSet) -> Option<Play> {
        mate_play(
            hand,
            &self.trick,
            &self.rules,
            self.unseen,
            self.answer_count_now(),
            self.answer_count_lead(),
        )
    }

    /// Whether `hand` is mated when leading an empty table in the order `revolution`.
    pub fn mate_lead(&self, hand: CardSet, revolution: bool) -> bool {
        let lead = self.answer_count_lead();
        mate(
            hand,
            &lead_trick(revolution),
            &self.rules,
            self.unseen,
            lead,
            lead,
        )
    }

    /// The chance that `seat`, holding a random draw of its count from the unseen
    /// cards it may hold, can beat the top of `trick`, scaled down by what its passes
    /// revealed. 1 when the cards known to be in its hand beat it; the cards known to
    /// be in another seat's hand are never drawn.
    pub fn beat_chance(&self, seat: usize, trick: &Trick) -> f64 {
        let Some(top) = trick.table else { return 0.0 };
        let count = self.counts[seat];
        if count < top.len() {
            return 0.0;
        }
        let known = self.known[seat];
        if !known.is_empty() && beatable(known, trick, known.len(), &self.rules) {
            return 1.0;
        }
        let elsewhere = (0..self.players)
            .filter(|&s| s != seat)
            .fold(CardSet::EMPTY, |acc, s| acc.union(self.known[s]));
        let p = draw_beat_chance(self.unseen.difference(elsewhere), count, trick, &self.rules);
        let reversed = trick.reversed();
        let strength = top.strength(reversed);
        let passed_on = self.evidence.iter().any(|e| {
            e.seat == seat
                && e.kind == top.kind()
                && e.len == top.len()
                && e.reversed == reversed
                && e.strength <= strength
                && (e.lock == 0 || e.lock == trick.lock)
        });
        if passed_on { p * self.pass_factor } else { p }
    }

    /// The chance that nobody still in the trick beats `play` put on the current
    /// trick: 1 for a certain winner, otherwise the product over those opponents of
    /// the chance each cannot.
    pub fn win_chance_now(&self, play: &Play) -> f64 {
        if self.certain_now(play) {
            return 1.0;
        }
        let after = self.trick.after_play(play, &self.rules);
        self.opponents()
            .filter(|&s| self.may_answer(s))
            .map(|s| 1.0 - self.beat_chance(s, &after))
            .product()
    }
}

/// An empty table in the order `revolution`.
pub fn lead_trick(revolution: bool) -> Trick {
    Trick {
        table: None,
        revolution,
        jack_back: false,
        lock: 0,
    }
}

/// Whether `play` on `trick` is a certain winner against opponents whose largest hand
/// (among those who may answer) is `answer_count` cards drawn from `unseen`.
pub fn certain_on(
    trick: &Trick,
    play: &Play,
    rules: &RuleSet,
    unseen: CardSet,
    answer_count: usize,
) -> bool {
    trick.clears_after(play, rules)
        || !beatable(unseen, &trick.after_play(play, rules), answer_count, rules)
}

/// Whether some holding of at most `max_count` cards from `unseen` has a legal play
/// on `trick` (which has a top play). Exact: the same answer as generating every play
/// of every such holding, computed from rank and suit counts.
pub fn beatable(unseen: CardSet, trick: &Trick, max_count: usize, rules: &RuleSet) -> bool {
    let Some(top) = trick.table else { return true };
    let n = top.len();
    if max_count < n || unseen.is_empty() {
        return false;
    }
    if top.is_lone_joker() {
        return rules.spade3_beats_joker && unseen.contains(Card::SPADE_3);
    }
    if top.is_joker_pair() {
        return false;
    }
    let low = top.low_rank().expect("a natural play");
    let reversed = trick.reversed();
    let lock = trick.lock;
    let jokers = unseen.joker_count();
    let stronger = |r: u8| if reversed { r < low } else { r > low };
    match top.kind() {
        PlayKind::Single => {
            jokers > 0
                || unseen.naturals().iter().any(|c| {
                    let suit = 1u8 << c.suit().expect("natural") as u8;
                    stronger(c.rank().expect("natural")) && (lock == 0 || lock & suit != 0)
                })
        }
        PlayKind::Group => {
            if n == 2 && jokers >= 2 && lock == 0 {
                return true;
            }
            (0..RANKS).filter(|&r| stronger(r)).any(|r| {
                let held = unseen.suits_of_rank(r);
                let usable = if lock != 0 { held & lock } else { held };
                let k = usable.count_ones() as usize;
                // A group of five is four of a kind and a joker.
                (k >= 1 && k + jokers >= n && n <= 4)
                    || (n == 5 && rules.group_of_five && k == 4 && jokers >= 1)
            })
        }
        PlayKind::Sequence => Suit::ALL.into_iter().any(|suit| {
            if lock != 0 && lock != 1 << suit as u8 {
                return false;
            }
            sequence_windows(unseen, suit, n, top, reversed, rules)
                .any(|missing| missing.count_ones() as usize <= jokers)
        }),
    }
}

/// The sequences of `n` cards in `suit` that beat `top` (a sequence) in the given
/// order, as the positions of each window that `unseen` lacks (never the whole
/// window): the extended rank line of [`Play::low_position`], its imaginary ends only
/// when the rules allow a joker there.
fn sequence_windows(
    unseen: CardSet,
    suit: Suit,
    n: usize,
    top: Play,
    reversed: bool,
    rules: &RuleSet,
) -> impl Iterator<Item = u16> {
    let held = unseen.ranks_of_suit(suit) << 1;
    let (first, last) = if rules.joker_past_sequence_ends {
        (POSITION_BELOW_3 as usize, POSITION_ABOVE_2 as usize)
    } else {
        (1, RANKS as usize)
    };
    let (low, high) = (
        usize::from(top.low_position()),
        usize::from(top.high_position()),
    );
    (first..=(last + 1).saturating_sub(n)).filter_map(move |start| {
        let beats = if reversed {
            start + n - 1 < low
        } else {
            start > high
        };
        let window = (((1u32 << n) - 1) << start) as u16;
        let missing = window & !held;
        (beats && missing != window).then_some(missing)
    })
}

/// Whether `hand` can be emptied from `trick` by plays that each win their trick with
/// certainty, the last one (which need not win) not a forbidden finish under the rule
/// set. `now_count` is the largest hand that may answer on this trick, `lead_count`
/// on later ones. Exact for that definition: a depth-first search over every legal
/// play, memoised on the remaining hand and the order.
pub fn mate(
    hand: CardSet,
    trick: &Trick,
    rules: &RuleSet,
    unseen: CardSet,
    now_count: usize,
    lead_count: usize,
) -> bool {
    mate_play(hand, trick, rules, unseen, now_count, lead_count).is_some()
}

/// The first legal play (in the order of [`for_each_legal_play`]) that starts a mate of
/// `hand` from `trick` (see [`mate`]), if any.
pub fn mate_play(
    hand: CardSet,
    trick: &Trick,
    rules: &RuleSet,
    unseen: CardSet,
    now_count: usize,
    lead_count: usize,
) -> Option<Play> {
    let mut candidates = Vec::new();
    for_each_legal_play(hand, trick, rules, |p| candidates.push(p));
    let mut memo = HashMap::new();
    candidates.into_iter().find(|p| {
        mate_step(
            hand, trick, p, rules, unseen, now_count, lead_count, &mut memo,
        )
    })
}

/// Whether playing `play` from `hand` on `trick` starts a mate.
#[allow(clippy::too_many_arguments)]
fn mate_step(
    hand: CardSet,
    trick: &Trick,
    play: &Play,
    rules: &RuleSet,
    unseen: CardSet,
    count: usize,
    lead_count: usize,
    memo: &mut HashMap<(u64, bool), bool>,
) -> bool {
    let rest = hand.difference(play.cards());
    if rest.is_empty() {
        return !(rules.forbidden_finishes && play.is_forbidden_finish(trick.revolution));
    }
    if !certain_on(trick, play, rules, unseen, count) {
        return false;
    }
    let revolution = trick.after_play(play, rules).revolution;
    mate_lead_memo(rest, revolution, rules, unseen, lead_count, memo)
}

fn mate_lead_memo(
    hand: CardSet,
    revolution: bool,
    rules: &RuleSet,
    unseen: CardSet,
    count: usize,
    memo: &mut HashMap<(u64, bool), bool>,
) -> bool {
    if let Some(&known) = memo.get(&(hand.bits(), revolution)) {
        return known;
    }
    let trick = lead_trick(revolution);
    let mut plays = Vec::new();
    for_each_play(hand, None, rules, |p| plays.push(p));
    let mut found = false;
    for p in plays {
        if mate_step(hand, &trick, &p, rules, unseen, count, count, memo) {
            found = true;
            break;
        }
    }
    memo.insert((hand.bits(), revolution), found);
    found
}

/// The chance that a random `count`-card holding from `unseen` beats the top of
/// `trick` (an estimate: a hypergeometric chance per beating rank or window, combined
/// as if independent; the jokers counted as wild).
pub fn draw_beat_chance(unseen: CardSet, count: usize, trick: &Trick, rules: &RuleSet) -> f64 {
    let Some(top) = trick.table else { return 0.0 };
    if !beatable(unseen, trick, count, rules) {
        return 0.0;
    }
    let pool = unseen.len();
    let draw = count.min(pool);
    if top.is_lone_joker() {
        return hypergeometric_at_least(pool, 1, draw, 1);
    }
    let n = top.len();
    let low = top.low_rank().expect("a natural play");
    let reversed = trick.reversed();
    let lock = trick.lock;
    let jokers = unseen.joker_count();
    let stronger = |r: u8| if reversed { r < low } else { r > low };
    let mut miss = 1.0;
    match top.kind() {
        PlayKind::Single => {
            let good = jokers
                + unseen
                    .naturals()
                    .iter()
                    .filter(|c| {
                        let suit = 1u8 << c.suit().expect("natural") as u8;
                        stronger(c.rank().expect("natural")) && (lock == 0 || lock & suit != 0)
                    })
                    .count();
            return hypergeometric_at_least(pool, good, draw, 1);
        }
        PlayKind::Group => {
            for r in (0..RANKS).filter(|&r| stronger(r)) {
                let held = unseen.suits_of_rank(r);
                let usable = if lock != 0 { held & lock } else { held };
                let k = usable.count_ones() as usize;
                if k == 0 {
                    continue;
                }
                miss *= 1.0 - hypergeometric_at_least(pool, k + jokers, draw, n);
            }
            if n == 2 && jokers >= 2 && lock == 0 {
                miss *= 1.0 - hypergeometric_at_least(pool, 2, draw, 2);
            }
        }
        PlayKind::Sequence => {
            for suit in Suit::ALL {
                if lock != 0 && lock != 1 << suit as u8 {
                    continue;
                }
                for missing in sequence_windows(unseen, suit, n, top, reversed, rules) {
                    let gaps = missing.count_ones() as usize;
                    if gaps > jokers {
                        continue;
                    }
                    let naturals = n - gaps;
                    let p = hypergeometric_at_least(pool, naturals, draw, naturals)
                        * hypergeometric_at_least(pool, jokers, draw, gaps);
                    miss *= 1.0 - p;
                }
            }
        }
    }
    (1.0 - miss).clamp(0.0, 1.0)
}

/// A logged play's shape as far as its cards tell it: kind, lowest and highest rank
/// (jokers extend a sequence upwards where they can), natural suits.
struct LoggedPlay {
    kind: PlayKind,
    len: usize,
    low: Option<u8>,
    high: Option<u8>,
    suits: u8,
}

impl LoggedPlay {
    fn read(cards: CardSet) -> LoggedPlay {
        let kind = logged_kind(cards);
        let naturals = cards.naturals();
        let len = cards.len();
        let ranks: Vec<u8> = naturals.iter().filter_map(|c| c.rank()).collect();
        let (lo, hi) = match (ranks.iter().min(), ranks.iter().max()) {
            (Some(&lo), Some(&hi)) => (Some(lo), Some(hi)),
            _ => (None, None),
        };
        let (low, high) = match (kind, lo) {
            (PlayKind::Sequence, Some(lo)) => {
                let top = (lo as usize + len - 1).min(RANK_2 as usize) as u8;
                (Some(top + 1 - len as u8), Some(top))
            }
            _ => (lo, hi),
        };
        let mut suits = 0u8;
        for c in naturals.iter() {
            suits |= 1 << c.suit().expect("natural") as u8;
        }
        LoggedPlay {
            kind,
            len,
            low,
            high,
            suits,
        }
    }

    fn strength(&self, reversed: bool) -> Option<u8> {
        match (self.low, self.high) {
            (Some(_), Some(high)) if reversed => Some(RANK_2 - high),
            (Some(low), _) => Some(low),
            _ => None,
        }
    }

    fn eight_cut(&self, cards: CardSet, rules: &RuleSet) -> bool {
        if !rules.eight_cut {
            return false;
        }
        match (self.kind, self.low, self.high) {
            (PlayKind::Sequence, Some(low), Some(high)) => {
                rules.eight_cut_sequence && low <= RANK_8 && RANK_8 <= high
            }
            (_, Some(_), _) => cards.naturals().iter().all(|c| c.rank() == Some(RANK_8)),
            _ => false,
        }
    }
}

/// Replays the view's log with the trick-flow rules (as far as card sets tell them:
/// the log carries no declarations) and lists the passes on beatable plays made in
/// the entries from `from` on.
fn read_passes(view: &DaifugoView, from: usize) -> Vec<PassEvidence> {
    let rules = view.rules();
    let seats = view.seats();
    let players = seats.len();
    let log = view.log();
    let mut remaining = [0usize; MAX_SEATS];
    for (i, s) in seats.iter().enumerate() {
        remaining[i] = s.card_count;
    }
    for entry in log {
        if let Some(cards) = entry.cards {
            remaining[entry.seat] += cards.len();
        }
    }
    // The miyako-ochi victim leaves at the first legal finish with unseen cards.
    let victim = (view.removed_unseen() > 0)
        .then(|| seats.iter().position(|s| s.title == Title::Daifugo))
        .flatten();
    if let Some(v) = victim {
        remaining[v] += view.removed_unseen();
    }
    let mut out = 0u8;
    let mut passed = 0u8;
    let mut top: Option<(LoggedPlay, CardSet)> = None;
    let mut owner = 0usize;
    let mut revolution = false;
    let mut jack_back = false;
    let mut lock = 0u8;
    let mut finished_any = false;
    let mut seen = view.hand();
    let deck = CardSet::deck(rules.jokers);
    let mut evidence = Vec::new();
    let all_passed = |passed: u8, out: u8, except: Option<usize>| {
        (0..players).all(|s| out & (1 << s) != 0 || passed & (1 << s) != 0 || Some(s) == except)
    };
    for (i, entry) in log.iter().enumerate() {
        let seat = entry.seat;
        match entry.cards {
            Some(cards) => {
                seen = seen.union(cards);
                let play = LoggedPlay::read(cards);
                let spade3_return = top
                    .as_ref()
                    .is_some_and(|(t, c)| t.low.is_none() && c.len() == 1)
                    && cards == CardSet::single(Card::SPADE_3);
                if cards.len() == 1 && cards.joker_count() == 1 {
                    lock = 0;
                } else if let Some((below, _)) = &top
                    && rules.suit_lock
                    && lock == 0
                    && play.suits != 0
                    && below.suits == play.suits
                {
                    lock = play.suits;
                }
                let forbidden = rules.forbidden_finishes
                    && remaining[seat] == cards.len()
                    && is_forbidden_finish_cards(cards, revolution);
                if is_revolution_shape(play.kind, play.len, rules) {
                    revolution = !revolution;
                }
                if rules.jack_back && play.kind != PlayKind::Sequence && play.low == Some(RANK_J) {
                    jack_back = true;
                }
                remaining[seat] = remaining[seat].saturating_sub(cards.len());
                if remaining[seat] == 0 {
                    out |= 1 << seat;
                    if !forbidden && !finished_any {
                        finished_any = true;
                        if let Some(v) = victim
                            && v != seat
                        {
                            out |= 1 << v;
                            passed &= !(1 << v);
                        }
                    }
                }
                let clears = play.eight_cut(cards, rules) || spade3_return;
                owner = seat;
                top = Some((play, cards));
                if !rules.pass_locks_out {
                    passed = 0;
                }
                let except = if rules.self_follow && out & (1 << seat) == 0 {
                    None
                } else {
                    Some(seat)
                };
                if clears || (except.is_some() && all_passed(passed, out, except)) {
                    top = None;
                    passed = 0;
                    lock = 0;
                    jack_back = false;
                }
            }
            None => {
                passed |= 1 << seat;
                if let Some((play, cards)) = &top {
                    let reversed = revolution ^ jack_back;
                    if i >= from
                        && let Some(strength) = play.strength(reversed)
                        && let Ok(table) = table_play(play, *cards)
                    {
                        let trick = Trick {
                            table: Some(table),
                            revolution,
                            jack_back,
                            lock,
                        };
                        let hidden = deck.difference(seen);
                        if beatable(hidden, &trick, usize::MAX, rules) {
                            evidence.push(PassEvidence {
                                seat,
                                kind: play.kind,
                                len: play.len,
                                strength,
                                reversed,
                                lock,
                            });
                        }
                    }
                    let except = if rules.self_follow { None } else { Some(owner) };
                    if all_passed(passed, out, except) {
                        top = None;
                        passed = 0;
                        lock = 0;
                        jack_back = false;
                    }
                } else if all_passed(passed, out, None) {
                    passed = 0;
                }
            }
        }
    }
    evidence
}

/// A play standing for a logged one, for asking [`beatable`] about it: the logged
/// cards with the jokers declared where the shape puts them.
fn table_play(play: &LoggedPlay, cards: CardSet) -> Result<Play, ()> {
    let (Some(low), Some(_)) = (play.low, play.high) else {
        return Err(());
    };
    let jokers = cards.joker_count();
    if jokers == 0 {
        return Play::new(play.kind, cards, &[]).map_err(|_| ());
    }
    // Declare each joker as a free card of the shape, lowest first.
    let naturals = cards.naturals();
    let mut declared = Vec::new();
    match play.kind {
        PlayKind::Group => {
            for suit in Suit::ALL {
                let card = Card::natural(low, suit);
                if declared.len() < jokers && !naturals.contains(card) {
                    declared.push(card);
                }
            }
        }
        PlayKind::Sequence => {
            let suit = naturals.first().and_then(|c| c.suit()).ok_or(())?;
            for rank in low..low + play.len as u8 {
                let card = Card::natural(rank, suit);
                if declared.len() < jokers && !naturals.contains(card) {
                    declared.push(card);
                }
            }
        }
        PlayKind::Single => {}
    }
    Play::new(play.kind, cards, &declared).map_err(|_| ())
}
