//! The ledger of the evaluation bots (Dalmuti Part 3, from Parts 1 and 2): what one seat
//! knows from public information only.
//!
//! - Unseen cards per rank: the deck minus this seat's hand minus the cards played
//!   (a forgetful ledger, the `memory=n` variant of the bots, forgets plays older than
//!   its memory and counts them as unseen again).
//! - One model per active opponent: its card count, how many Jesters it is known to
//!   hold (after a revolution everyone knows where the Jesters are), and the passes it
//!   made in the current trick, which are *probabilistic* evidence: a seat that passed
//!   on a bar may still hold a beating set (it may hold it back, and a passed seat may
//!   play again when the turn returns).
//! - [`Ledger::seat_beat_risk`]: the hypergeometric chance that one seat can beat a bar,
//!   summed over the better ranks (the Boole upper bound, as Dalmuti Part 3 describes Part 2's
//!   estimate), Jesters wild.
//! - [`Ledger::beat_risk`]: the chance that at least one opponent can beat a bar, with
//!   seats taken as independent (the approximation whose error `stats dalmuti
//!   --analytic` measures).
//! - [`Ledger::structurally_safe`]: no opponent can beat the bar whatever the deal.
//!
//! The taxes are a hard fact for the hard bot ([`Memory::taxes`]): the cards this seat
//! gave its tax partner and that the partner neither played nor gave back are in the
//! partner's hand ([`DalmutiView::known_held`]). The partner's model holds them plus a
//! draw from the rest of the pool, and the other seats draw from the pool without
//! them. They stay in [`Ledger::unseen`], so the structural answer still ranges over
//! every split of the unseen cards.

use super::cards::{Cards, Rank};
use super::moves::for_each_legal_play;
use super::plays::Play;
use super::turn::{Action, TurnState};
use super::view::DalmutiView;
use crate::search::mate::{MateRules, first_mate_play};
use crate::stats::{binomial, hypergeometric_pmf};

/// The largest set size the tables cover (12 naturals plus 2 Jesters).
pub const MAX_SET: usize = 14;

/// One active opponent as the ledger models it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatModel {
    /// The seat number.
    pub seat: usize,
    /// Cards in its hand.
    pub cards: u8,
    /// Jesters it is known to hold (after a revolution), else `None`.
    pub known_jesters: Option<u8>,
    /// The easiest bar (highest rank number) it passed on in the current trick, with
    /// the trick's size.
    pub passed_on: Option<Play>,
    /// Cards known to be in its hand (from the taxes), a part of the unseen pool.
    pub known: Cards,
    /// `can[k][q]`: the chance it holds a set of exactly rank `q + 1` of size `k`
    /// (at least one natural, Jesters wild), `k` in `1..=MAX_SET`.
    can: [[f64; 12]; MAX_SET + 1],
    /// `one_set`: the chance its whole hand is a single set.
    one_set: f64,
}

/// An active opponent as public information describes it (the input of
/// [`Ledger::from_parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The seat number.
    pub seat: usize,
    /// Cards in its hand.
    pub cards: u8,
    /// Jesters it is known to hold (after a revolution), else `None`.
    pub known_jesters: Option<u8>,
    /// The easiest bar it passed on in the current trick.
    pub passed_on: Option<Play>,
    /// Cards known to be in its hand (from the taxes; never with `known_jesters`, as a
    /// revolution cancels the taxes). At most `cards`, within the unseen pool.
    pub known: Cards,
}

/// What a seat knows from public information (see the module docs).
#[derive(Clone, Debug)]
pub struct Ledger {
    /// Unseen cards per rank (Jesters at rank 13).
    pub unseen: Cards,
    /// The active opponents, in seat order.
    pub seats: Vec<SeatModel>,
    /// How much a pass in this trick scales a seat's beat risk (1 = ignore passes).
    pub pass_factor: f64,
    /// `risk[k][r]`: [`Ledger::beat_risk`] of a bar of size `k` and rank `r` (1..=13).
    risk: [[f64; 14]; MAX_SET + 1],
    /// `safe[k][r]`: [`Ledger::structurally_safe`].
    safe: [[bool; 14]; MAX_SET + 1],
}

/// How the ledger remembers: full memory and pass evidence for the hard bot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Memory {
    /// Plays of only this many most recent tricks are remembered (`None`: all).
    pub tricks: Option<usize>,
    /// The factor a pass in the current trick applies to a seat's beat risk on bars
    /// at least as hard as the one it passed on (1.0 = passes are ignored).
    pub pass_factor: f64,
    /// True to use what the view says of the taxes (the cards given to the partner).
    pub taxes: bool,
}

impl Ledger {
    /// The ledger of the deciding seat of `view`.
    pub fn new(view: &DalmutiView, memory: Memory) -> Ledger {
        let me = view.seat();
        let mut unseen = view.unseen();
        let (passes, forgotten) = replay(view, memory.tricks);
        unseen = unseen.union(forgotten);
        // Jesters located by a revolution (the declarer showed both).
        let jester_holder = view.revolution().map(|r| r.seat);
        let seats_info = view.seats();
        let mut seats = Vec::new();
        for (s, info) in seats_info.iter().enumerate() {
            if s == me || info.finished || info.card_count == 0 {
                continue;
            }
            let known_jesters = match jester_holder {
                Some(h) if h == s => Some(view.unseen().jesters().min(info.card_count)),
                Some(_) => Some(0),
                None => None,
            };
            let known = if memory.taxes {
                view.known_held(s)
            } else {
                Cards::EMPTY
            };
            seats.push(Opponent {
                seat: s,
                cards: info.card_count,
                known_jesters,
                passed_on: passes.get(s).copied().flatten(),
                known,
            });
        }
        Ledger::from_parts(unseen, &seats, memory.pass_factor)
    }

    /// A ledger from its parts: the unseen pool and the active opponents.
    pub fn from_parts(unseen: Cards, opponents: &[Opponent], pass_factor: f64) -> Ledger {
        // The cards placed by the taxes leave the pool the seats draw from.
        let placed = opponents
            .iter()
            .fold(Cards::EMPTY, |acc, o| acc.union(o.known));
        let pool = unseen.difference(placed);
        let seats = opponents
            .iter()
            .map(|o| {
                let mut m = SeatModel {
                    seat: o.seat,
                    cards: o.cards,
                    known_jesters: o.known_jesters,
                    passed_on: o.passed_on,
                    known: o.known,
                    can: [[0.0; 12]; MAX_SET + 1],
                    one_set: 0.0,
                };
                fill_seat(&mut m, pool);
                m
            })
            .collect();
        let mut ledger = Ledger {
            unseen,
            seats,
            pass_factor,
            risk: [[0.0; 14]; MAX_SET + 1],
            safe: [[true; 14]; MAX_SET + 1],
        };
        ledger.fill_tables();
        ledger
    }

    fn fill_tables(&mut self) {
        let max_cards = self.seats.iter().map(|s| s.cards).max().unwrap_or(0);
        let free_jesters = match self.seats.iter().find_map(|s| s.known_jesters) {
            // Known location: only the holder has them.
            Some(_) => self
                .seats
                .iter()
                .filter_map(|s| s.known_jesters)
                .max()
                .unwrap_or(0),
            None => self.unseen.jesters(),
        };
        for k in 1..=MAX_SET {
            for r in 1..=13u8 {
                let rank = Rank::new(r).expect("rank");
                let mut quiet = 1.0;
                for i in 0..self.seats.len() {
                    quiet *= 1.0 - self.seat_beat_risk_at(i, rank, k as u8);
                }
                self.risk[k][r as usize] = 1.0 - quiet;
                // Structural: some better rank with a natural unseen and enough cards
                // with the Jesters, held by a seat with enough cards.
                let beatable = (1..r).any(|q| {
                    let n = self.unseen.count(Rank::new(q).expect("rank"));
                    n > 0 && usize::from(n + free_jesters) >= k
                }) && usize::from(max_cards) >= k;
                self.safe[k][r as usize] = !beatable;
            }
        }
    }

    /// The chance that opponent number `i` (index into [`Ledger::seats`]) can beat a
    /// bar of `size` cards of `rank` (Boole bound over the better ranks, capped at 1),
    /// scaled by the pass evidence.
    pub fn seat_beat_risk_at(&self, i: usize, rank: Rank, size: u8) -> f64 {
        let s = &self.seats[i];
        let k = usize::from(size);
        if k == 0 || k > MAX_SET || size > s.cards {
            return 0.0;
        }
        let sum: f64 = s.can[k][..rank.index().min(12)].iter().sum();
        let mut risk = sum.min(1.0);
        if let Some(p) = s.passed_on
            && p.size() == size
            && p.rank() >= rank
        {
            risk *= self.pass_factor;
        }
        risk
    }

    /// [`Ledger::seat_beat_risk_at`] by seat number (0 for a seat that is not an
    /// active opponent).
    pub fn seat_beat_risk(&self, seat: usize, rank: Rank, size: u8) -> f64 {
        self.seats
            .iter()
            .position(|s| s.seat == seat)
            .map_or(0.0, |i| self.seat_beat_risk_at(i, rank, size))
    }

    /// The chance at least one active opponent can beat `size` cards of `rank`
    /// (independent seats).
    pub fn beat_risk(&self, rank: Rank, size: u8) -> f64 {
        let k = usize::from(size);
        if k == 0 || k > MAX_SET {
            return 0.0;
        }
        self.risk[k][usize::from(rank.get())]
    }

    /// True if no opponent can beat `size` cards of `rank` whatever the unseen cards'
    /// split (Jesters considered).
    pub fn structurally_safe(&self, rank: Rank, size: u8) -> bool {
        let k = usize::from(size);
        k > MAX_SET || k == 0 || self.safe[k][usize::from(rank.get())]
    }

    /// The first legal play of `hand` on `table` (`None`: a lead), in the order of
    /// [`for_each_legal_play`], that starts a mate ([`crate::search::mate`]): sets that
    /// win their trick whatever the split of the unseen cards
    /// ([`Ledger::structurally_safe`]), the last one emptying the hand. `None` when
    /// there is none.
    pub fn mate_play(&self, hand: Cards, table: Option<Play>) -> Option<Play> {
        let mut plays = Vec::new();
        for_each_legal_play(hand, table, |p| plays.push(p));
        first_mate_play(self, hand, &plays)
    }

    /// The chance opponent `i` finishes in one play once it holds the lead (its whole
    /// hand is one set).
    pub fn one_set_prob(&self, i: usize) -> f64 {
        self.seats[i].one_set
    }

    /// The chance that, after a play of `size` cards of `rank`, every opponent lets it
    /// stand: each may beat it (passed or not: re-entry) with its beat risk times
    /// `1 - hold` (it may hold back a beating set).
    pub fn control_prob(&self, rank: Rank, size: u8, hold: f64) -> f64 {
        if self.structurally_safe(rank, size) {
            return 1.0;
        }
        (0..self.seats.len())
            .map(|i| 1.0 - self.seat_beat_risk_at(i, rank, size) * (1.0 - hold))
            .product()
    }

    /// Total unseen cards.
    pub fn total_unseen(&self) -> u32 {
        self.unseen.len()
    }
}

/// Fills a seat's `can` and `one_set`: it holds its known cards plus a uniform draw
/// of the rest of its count from `unseen` (the pool without any seat's known cards).
fn fill_seat(m: &mut SeatModel, unseen: Cards) {
    let known = m.known.counts();
    let known_jesters = usize::from(m.known.jesters());
    // The whole hand, and the part drawn from the pool.
    let hand = usize::from(m.cards);
    let n = hand - m.known.len() as usize;
    let pool_jesters = usize::from(unseen.jesters());
    let numbered = unseen.numbered_len() as usize;
    // (jesters this seat may hold: distribution over y, numbered cards drawn)
    let (total, jesters_free, fixed): (usize, usize, Option<usize>) = match m.known_jesters {
        Some(j) => (numbered, 0, Some(usize::from(j))),
        None => (numbered + pool_jesters, pool_jesters, None),
    };
    let mut one_set = 0.0;
    for (q, &known_q) in known.iter().enumerate().take(12) {
        let a = usize::from(unseen.count(Rank::new(q as u8 + 1).expect("rank")));
        let kq = usize::from(known_q);
        if a == 0 && kq == 0 {
            continue;
        }
        // dist[m] = P(x >= 1 naturals of q and x + y = m).
        let mut dist = [0.0f64; MAX_SET + 3];
        match fixed {
            Some(y) => {
                let draws = n.saturating_sub(y);
                for x in 1..=a.min(draws) {
                    let p = hypergeometric_pmf(a, total, draws, x);
                    if x + y <= MAX_SET + 2 {
                        dist[x + y] += p;
                    }
                }
            }
            None => {
                let rest = total - a - jesters_free;
                let denom = binomial(total, n);
                if denom == 0.0 {
                    continue;
                }
                // x drawn naturals of q; the known cards add kq naturals and
                // known_jesters Jesters.
                for x in 0..=a.min(n) {
                    if kq + x == 0 {
                        continue;
                    }
                    for y in 0..=jesters_free.min(n - x) {
                        let p =
                            binomial(a, x) * binomial(jesters_free, y) * binomial(rest, n - x - y)
                                / denom;
                        let size = kq + x + known_jesters + y;
                        if size <= MAX_SET + 2 {
                            dist[size] += p;
                        }
                    }
                }
            }
        }
        // can[k] = P(x >= 1 and x + y >= k).
        let mut tail = 0.0;
        for k in (1..=MAX_SET + 2).rev() {
            tail += dist[k];
            if k <= MAX_SET {
                m.can[k][q] = tail;
            }
        }
        if hand <= MAX_SET + 2 {
            one_set += dist[hand];
        }
    }
    // A hand of Jesters only.
    if hand <= 2 && known_jesters == m.known.len() as usize {
        let j = match fixed {
            Some(y) => {
                if y == n {
                    1.0
                } else {
                    0.0
                }
            }
            None => hypergeometric_pmf(jesters_free, total, n, n),
        };
        one_set += j;
    }
    m.one_set = if hand == 1 { 1.0 } else { one_set.min(1.0) };
}

/// Replays the public log: the easiest bar each seat passed on in the current trick,
/// and the cards of plays older than the last `memory` tricks (to be forgotten).
fn replay(view: &DalmutiView, memory: Option<usize>) -> (Vec<Option<Play>>, Cards) {
    let p = view.players();
    let mut played_by = vec![0u8; p];
    for e in view.log() {
        if let Action::Play(pl) = e.action {
            played_by[e.seat] += pl.size();
        }
    }
    let start: Vec<u8> = (0..p)
        .map(|s| view.seats()[s].card_count + played_by[s])
        .collect();
    let mut passes: Vec<Option<Play>> = vec![None; p];
    // Plays per trick, to forget the old ones.
    let mut tricks: Vec<Cards> = Vec::new();
    if start.iter().all(|&c| c > 0) {
        let mut turn = TurnState::new(&start);
        for e in view.log() {
            if turn.table().is_none() {
                passes.iter_mut().for_each(|x| *x = None);
                tricks.push(Cards::EMPTY);
            }
            match e.action {
                Action::Pass => {
                    if let Some(t) = turn.table() {
                        let slot = &mut passes[e.seat];
                        if slot.is_none_or(|old| old.rank() < t.rank()) {
                            *slot = Some(t);
                        }
                    }
                }
                Action::Play(pl) => {
                    if let Some(last) = tricks.last_mut() {
                        *last = last.union(pl.cards());
                    }
                }
            }
            if turn.apply(e.action).is_err() {
                break;
            }
        }
        if turn.table().is_none() {
            passes.iter_mut().for_each(|x| *x = None);
        }
    }
    let mut forgotten = Cards::EMPTY;
    if let Some(m) = memory
        && tricks.len() > m
    {
        for t in &tricks[..tricks.len() - m] {
            forgotten = forgotten.union(*t);
        }
    }
    (passes, forgotten)
}

/// A ledger for tests: `mine` and `played` known, opponents (seats 1, 2, ...) holding
/// `counts` cards, no passes seen.
#[cfg(test)]
pub(crate) fn test_ledger(mine: Cards, played: Cards, counts: &[u8]) -> Ledger {
    let unseen = Cards::FULL_DECK.difference(mine).difference(played);
    let opponents: Vec<Opponent> = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| Opponent {
            seat: i + 1,
            cards: c,
            known_jesters: None,
            passed_on: None,
            known: Cards::EMPTY,
        })
        .collect();
    // The pass factor only weighs passes, and there are none.
    Ledger::from_parts(unseen, &opponents, 1.0)
}

/// Dalmuti's hands, leads and certain winners for the mate search.
impl MateRules for Ledger {
    type Hand = Cards;
    type Play = Play;
    fn leads(&self, hand: Cards, out: &mut Vec<Play>) {
        for_each_legal_play(hand, None, |p| out.push(p));
    }
    fn rest(&self, hand: Cards, play: Play) -> Cards {
        hand.difference(play.cards())
    }
    fn is_empty(&self, hand: Cards) -> bool {
        hand.is_empty()
    }
    fn is_certain(&self, play: Play) -> bool {
        self.structurally_safe(play.rank(), play.size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::referee::opening_view_input;

    const FULL: Memory = Memory {
        tricks: None,
        pass_factor: 0.5,
        taxes: true,
    };

    #[test]
    fn cards_known_from_the_taxes_are_the_partners_alone() {
        let two = Rank::new(2).unwrap();
        let three = Rank::new(3).unwrap();
        let seat = |seat, known| Opponent {
            seat,
            cards: 10,
            known_jesters: None,
            passed_on: None,
            known,
        };
        let unknown = Ledger::from_parts(
            Cards::FULL_DECK,
            &[seat(1, Cards::EMPTY), seat(2, Cards::EMPTY)],
            1.0,
        );
        let known = Ledger::from_parts(
            Cards::FULL_DECK,
            &[seat(1, Cards::EMPTY.with(two, 2)), seat(2, Cards::EMPTY)],
            1.0,
        );
        // Seat 1 holds both 2s: it beats a pair of 3s for sure.
        assert_eq!(known.seat_beat_risk(1, three, 2), 1.0);
        assert!(unknown.seat_beat_risk(1, three, 2) < 1.0);
        // Seat 2 cannot hold a 2, so only the 1 (with Jesters) beats a pair of 3s.
        assert!(known.seat_beat_risk(2, three, 2) < unknown.seat_beat_risk(2, three, 2));
        assert_eq!(known.unseen, Cards::FULL_DECK);
    }

    #[test]
    fn ledger_counts_unseen_from_public_information() {
        let view = DalmutiView::new(opening_view_input(6, 3)).unwrap();
        let l = Ledger::new(&view, FULL);
        assert_eq!(l.unseen, Cards::FULL_DECK.difference(view.hand()));
        assert_eq!(l.seats.len(), 5);
        let cards: u32 = l.seats.iter().map(|s| u32::from(s.cards)).sum();
        assert_eq!(cards, l.total_unseen());
    }

    #[test]
    fn structural_safety_considers_jesters() {
        // Opponents hold everything but rank 1 x1 and my cards; ranks 1..=2 are
        // gone except one 2 unseen; both Jesters unseen.
        let mine = Cards::EMPTY.with(Rank::new(3).unwrap(), 3);
        let played = Cards::EMPTY
            .with(Rank::new(1).unwrap(), 1)
            .with(Rank::new(2).unwrap(), 1);
        let l = test_ledger(mine, played, &[10, 10, 10]);
        let three = Rank::new(3).unwrap();
        // One 2 plus two Jesters makes 2x3: 3x3 is not structurally safe.
        assert!(!l.structurally_safe(three, 3));
        assert!(l.beat_risk(three, 3) > 0.0);
        // 3x4 cannot be beaten: only one 2 and two Jesters remain.
        assert!(l.structurally_safe(three, 4));
        assert_eq!(l.control_prob(three, 4, 0.0), 1.0);
        // Once the Jesters are played, 3x2 is safe too.
        let played = played.with(Rank::JESTER, 2);
        let l = test_ledger(mine, played, &[10, 10, 8]);
        assert!(l.structurally_safe(three, 2));
        assert!(!l.structurally_safe(three, 1));
    }

    #[test]
    fn one_card_seats_always_finish_in_one_set() {
        let mine = Cards::EMPTY.with(Rank::new(12).unwrap(), 5);
        let l = test_ledger(mine, Cards::EMPTY, &[1, 40, 34]);
        assert_eq!(l.one_set_prob(0), 1.0);
        assert!(l.one_set_prob(1) < 0.01);
        // Beat risk of a single 12 by a 40-card hand is near 1; by a 1-card hand it is
        // the chance that card is better than 12.
        assert!(l.seat_beat_risk(2, Rank::new(12).unwrap(), 1) > 0.99);
        let one = l.seat_beat_risk(1, Rank::new(12).unwrap(), 1);
        assert!(one > 0.5 && one <= 1.0);
        assert_eq!(l.seat_beat_risk(1, Rank::new(12).unwrap(), 2), 0.0);
    }
}
