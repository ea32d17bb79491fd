//! The play phase of one game as a light full-information position, and the deals of
//! hidden cards a seat's view allows: Daifugo's side of [`crate::game::Simulation`].
//!
//! [`DaifugoPosition`] holds every hand, the trick, who passed, who is out and in which
//! order, and plays on with exactly the referee's trick-flow rules: the
//! [`crate::daifugo::referee::Referee`] keeps its play-phase state in one and applies
//! every play and pass through it. The position is `Copy` (fixed-size arrays and
//! [`CardSet`] bitsets), so a search clones it for free.
//!
//! A view carries no kinds in its log, only card sets. [`DaifugoPosition::from_view`]
//! reads each logged play's kind from its cards to follow the revolutions and to tell a
//! foul from a legal finish. The cards decide the kind except for one natural card with
//! two jokers, a group or a sequence of three; that play is read as a group, which only
//! matters under a custom rule set with sequence revolutions from three cards.

use super::Daifugo;
use super::cards::{Card, CardSet};
use super::decision::DaifugoDecision;
use super::moves::{Trick, for_each_legal_play, pass_allowed};
use super::plays::{Play, PlayKind, is_forbidden_finish_cards, is_revolution_shape};
use super::referee::Event;
use super::rules::{RuleSet, Title};
use super::view::{DaifugoView, Phase};
use crate::bot::shuffle;
use crate::game::Simulation;
use rand_chacha::ChaCha8Rng;

/// The most seats a game has.
pub const MAX_SEATS: usize = 7;

/// Seats in the order they left the game, in a fixed-size list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SeatOrder {
    seats: [u8; MAX_SEATS],
    len: u8,
}

impl SeatOrder {
    fn push(&mut self, seat: usize) {
        self.seats[usize::from(self.len)] = seat as u8;
        self.len += 1;
    }

    /// The number of seats listed.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether no seat is listed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The seats in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.seats[..self.len()].iter().map(|&s| usize::from(s))
    }

    /// The seats in order, as a vector.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }

    /// The 1-based position of `seat` in the list, if listed.
    pub fn position_of(&self, seat: usize) -> Option<usize> {
        self.iter().position(|s| s == seat).map(|i| i + 1)
    }
}

/// Every seat's hand in one full deal, and the cards removed from the game unseen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DaifugoDeal {
    players: u8,
    hands: [CardSet; MAX_SEATS],
    removed: CardSet,
}

impl DaifugoDeal {
    /// A deal of these hands (one per seat, at most [`MAX_SEATS`]) and removed cards.
    pub fn new(hands: &[CardSet], removed: CardSet) -> DaifugoDeal {
        assert!(hands.len() <= MAX_SEATS, "at most {MAX_SEATS} seats");
        let mut all = [CardSet::EMPTY; MAX_SEATS];
        all[..hands.len()].copy_from_slice(hands);
        DaifugoDeal {
            players: hands.len() as u8,
            hands: all,
            removed,
        }
    }

    /// A deal uniform among those consistent with the view's facts: the seat's own
    /// hand, every other seat's card count (0 for seats out), the cards the seat gave in
    /// the exchange and that are not played yet in the receiver's hand (or, once it is
    /// out, among the removed cards; see [`DaifugoView::known_held`]) and, among the
    /// cards the seat has not seen, exactly [`DaifugoView::removed_unseen`] left out of
    /// every hand; seen from the daifugo or the fugo, the partner's other cards no
    /// stronger than the weakest card of its tribute ([`DaifugoView::exchange_bound`]).
    /// Every draw comes from `rng`; a view without exchange knowledge draws exactly as
    /// before it was known.
    pub fn draw(view: &DaifugoView, rng: &mut ChaCha8Rng) -> DaifugoDeal {
        DaifugoDeal::draw_bounded(view, rng, true)
    }

    /// [`DaifugoDeal::draw`], with or without the partner's exchange bound
    /// ([`DaifugoView::exchange_bound`]; applied when the unseen cards allow it).
    fn draw_bounded(view: &DaifugoView, rng: &mut ChaCha8Rng, use_bound: bool) -> DaifugoDeal {
        let known_removed = view.known_removed();
        let mut known = [CardSet::EMPTY; MAX_SEATS];
        let mut placed = known_removed;
        if let Some(x) = view.exchange_known() {
            known[x.with_seat] = view.known_held(x.with_seat);
            placed = placed.union(known[x.with_seat]);
        }
        if let Some((partner, allowed)) = view.exchange_bound().filter(|_| use_bound) {
            let (mut cards, count) =
                cards_of(view.unseen().difference(placed).intersection(allowed));
            let n = view.seats()[partner]
                .card_count
                .saturating_sub(known[partner].len());
            if partner != view.seat() && n > 0 && count >= n {
                let cards = &mut cards[..count];
                shuffle(rng, cards);
                known[partner] =
                    known[partner].union(CardSet::from_cards(cards[..n].iter().copied()));
                placed = placed.union(known[partner]);
            }
        }
        let (mut unseen, count) = cards_of(view.unseen().difference(placed));
        let unseen = &mut unseen[..count];
        shuffle(rng, unseen);
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let mut next = 0;
        for (seat, s) in view.seats().iter().enumerate() {
            if seat == view.seat() {
                hands[seat] = view.hand();
                continue;
            }
            let want = s.card_count.saturating_sub(known[seat].len());
            let take = want.min(unseen.len() - next);
            hands[seat] = known[seat].union(CardSet::from_cards(
                unseen[next..next + take].iter().copied(),
            ));
            next += take;
        }
        DaifugoDeal {
            players: view.seats().len() as u8,
            hands,
            removed: known_removed.union(CardSet::from_cards(unseen[next..].iter().copied())),
        }
    }

    /// Every seat's hand.
    pub fn hands(&self) -> &[CardSet] {
        &self.hands[..usize::from(self.players)]
    }

    /// The cards removed from the game unseen.
    pub fn removed(&self) -> CardSet {
        self.removed
    }
}

/// The play phase of one game with every hand known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DaifugoPosition {
    rules: RuleSet,
    players: usize,
    pub(super) hands: [CardSet; MAX_SEATS],
    trick: Trick,
    owner: usize,
    pub(super) turn: usize,
    passed: u8,
    out: u8,
    played: CardSet,
    discarded: CardSet,
    finishers: SeatOrder,
    fouls: SeatOrder,
    miyako: Option<usize>,
    /// The reigning daifugo when miyako-ochi applies to this game (rule on, game 2+).
    reigning: Option<usize>,
}

impl DaifugoPosition {
    /// A game about to start: these hands, nothing played, seat 0 to act. `reigning` is
    /// the daifugo who falls by miyako-ochi, when that rule applies to the game.
    pub(super) fn start(
        rules: RuleSet,
        hands: &[CardSet],
        reigning: Option<usize>,
    ) -> DaifugoPosition {
        assert!(hands.len() <= MAX_SEATS, "at most {MAX_SEATS} seats");
        let mut all = [CardSet::EMPTY; MAX_SEATS];
        all[..hands.len()].copy_from_slice(hands);
        DaifugoPosition {
            rules,
            players: hands.len(),
            hands: all,
            trick: Trick::default(),
            owner: 0,
            turn: 0,
            passed: 0,
            out: 0,
            played: CardSet::EMPTY,
            discarded: CardSet::EMPTY,
            finishers: SeatOrder::default(),
            fouls: SeatOrder::default(),
            miyako: None,
            reigning,
        }
    }

    /// The position the view's seat is in when the hands (the seat's own included) and
    /// the cards removed unseen are `deal`'s: the view's trick, owner, passes, seats out,
    /// the finishing order, fouls and miyako-ochi read from its log, and the reigning
    /// daifugo from its titles. `None` during the exchange.
    pub fn from_view(view: &DaifugoView, deal: &DaifugoDeal) -> Option<DaifugoPosition> {
        if view.phase() != Phase::Play {
            return None;
        }
        let rules = *view.rules();
        let seats = view.seats();
        let daifugo = seats.iter().position(|s| s.title == Title::Daifugo);
        let mut position = DaifugoPosition::start(
            rules,
            &deal.hands()[..seats.len()],
            if rules.miyako_ochi && view.game() >= 2 {
                daifugo
            } else {
                None
            },
        );
        for (seat, s) in seats.iter().enumerate() {
            position.set_passed(seat, s.passed);
            if s.finished {
                position.out |= 1 << seat;
            }
        }
        position.trick = *view.trick();
        position.owner = view.table().map_or(0, |t| t.owner);
        position.turn = view.seat();
        position.played = view.played();
        position.discarded = deal.removed();
        // Miyako-ochi is the only way cards leave the game unseen.
        position.miyako = if view.removed_unseen() > 0 {
            daifugo
        } else {
            None
        };

        // Finishes in log order: a seat out (other than the miyako-ochi victim) went
        // out with its last play; the revolution flag before it tells a foul.
        let log = view.log();
        let mut last_play = [usize::MAX; MAX_SEATS];
        for (i, entry) in log.iter().enumerate() {
            if entry.cards.is_some() {
                last_play[entry.seat] = i;
            }
        }
        let mut revolution = false;
        for (i, entry) in log.iter().enumerate() {
            let Some(cards) = entry.cards else { continue };
            let seat = entry.seat;
            if seats[seat].finished && position.miyako != Some(seat) && last_play[seat] == i {
                if rules.forbidden_finishes && is_forbidden_finish_cards(cards, revolution) {
                    position.fouls.push(seat);
                } else {
                    position.finishers.push(seat);
                }
            }
            if is_revolution_shape(logged_kind(cards), cards.len(), &rules) {
                revolution = !revolution;
            }
        }
        Some(position)
    }

    /// Replays the view's log on `deal` from the game's first lead (see
    /// [`crate::learn::Learnable::replay_log`]): each seat starts with its cards in
    /// `deal` and the cards it played in the log (the daifugo who fell by miyako-ochi
    /// also with the cards it lost), the first logged seat leads, and `visit` sees the
    /// other seats' decisions with their positions. A logged play is the first legal
    /// play of its cards (the log does not say what a joker stood for). False during
    /// the exchange, with an empty log, or with a logged action not legal as replayed.
    pub fn replay_log(
        view: &DaifugoView,
        deal: &DaifugoDeal,
        visit: &mut dyn FnMut(&DaifugoPosition, DaifugoDecision),
    ) -> bool {
        let log = view.log();
        let Some(first) = log.first() else {
            return false;
        };
        if view.phase() != Phase::Play {
            return false;
        }
        let rules = *view.rules();
        let seats = view.seats();
        let daifugo = seats.iter().position(|s| s.title == Title::Daifugo);
        let mut all = [CardSet::EMPTY; MAX_SEATS];
        let hands = &mut all[..seats.len()];
        hands.copy_from_slice(deal.hands());
        for entry in log {
            if let Some(cards) = entry.cards {
                hands[entry.seat] = hands[entry.seat].union(cards);
            }
        }
        if view.removed_unseen() > 0 {
            let Some(fallen) = daifugo else { return false };
            hands[fallen] = hands[fallen].union(deal.removed());
        }
        let reigning = if rules.miyako_ochi && view.game() >= 2 {
            daifugo
        } else {
            None
        };
        let mut position = DaifugoPosition::start(rules, hands, reigning);
        position.turn = first.seat;
        let me = view.seat();
        let mut legal = Vec::new();
        for entry in log {
            if position.to_act() != Some(entry.seat) {
                return false;
            }
            position.legal_actions(&mut legal);
            let decision = legal.iter().copied().find(|d| match (d, entry.cards) {
                (DaifugoDecision::Pass, None) => true,
                (DaifugoDecision::Play(play), Some(cards)) => play.cards() == cards,
                _ => false,
            });
            let Some(decision) = decision else {
                return false;
            };
            if entry.seat != me {
                visit(&position, decision);
            }
            position.apply(decision);
        }
        true
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
    /// The number of seats.
    pub fn players(&self) -> usize {
        self.players
    }
    /// Every seat's hand.
    pub fn hands(&self) -> &[CardSet] {
        &self.hands[..self.players]
    }
    /// The trick state.
    pub fn trick(&self) -> &Trick {
        &self.trick
    }
    /// The owner of the top play (meaningful while the table is not empty).
    pub fn owner(&self) -> usize {
        self.owner
    }
    /// Whether `seat` is locked out of the current trick by a pass.
    pub fn has_passed(&self, seat: usize) -> bool {
        self.passed & (1 << seat) != 0
    }
    /// Whether `seat` is out of the game (finished, fouled or fallen by miyako-ochi).
    pub fn is_out(&self, seat: usize) -> bool {
        self.out & (1 << seat) != 0
    }
    /// Every card played this game.
    pub fn played(&self) -> CardSet {
        self.played
    }
    /// The cards discarded unseen by miyako-ochi.
    pub fn discarded(&self) -> CardSet {
        self.discarded
    }
    /// The seats that went out legally, in order.
    pub fn finishers(&self) -> &SeatOrder {
        &self.finishers
    }
    /// The seats that went out with a forbidden finish, in order.
    pub fn fouls(&self) -> &SeatOrder {
        &self.fouls
    }
    /// The miyako-ochi victim, if the reigning daifugo fell.
    pub fn miyako_ochi(&self) -> Option<usize> {
        self.miyako
    }
    /// The number of seats still in the game.
    pub fn active_count(&self) -> usize {
        self.players - self.out.count_ones() as usize
    }
    /// Whether the game is over (fewer than two seats still in it).
    pub fn is_over(&self) -> bool {
        self.active_count() <= 1
    }
    /// The seat to act, `None` once the game is over.
    pub fn to_act(&self) -> Option<usize> {
        (!self.is_over()).then_some(self.turn)
    }

    /// The seats in place order once the game is over (first place first): the legal
    /// finishers in order, the last seat in, the miyako-ochi victim, then the fouls,
    /// the latest foul first. `None` while the game goes on.
    pub fn places(&self) -> Option<SeatOrder> {
        if !self.is_over() {
            return None;
        }
        let mut places = self.finishers;
        if let Some(last) = (0..self.players).find(|&s| !self.is_out(s)) {
            places.push(last);
        }
        if let Some(victim) = self.miyako {
            places.push(victim);
        }
        for seat in self.fouls.iter().rev() {
            places.push(seat);
        }
        Some(places)
    }

    /// `seat`'s 1-based place once the game is over, as the referee's result gives it.
    pub fn place_of(&self, seat: usize) -> Option<usize> {
        self.places()?.position_of(seat)
    }

    /// The legal decisions of the seat to act, written into `out` (cleared first): the
    /// plays in generation order, then the pass when allowed, the order of
    /// [`crate::daifugo::decision::legal_decisions`]. Empty once the game is over.
    pub fn legal_actions(&self, out: &mut Vec<DaifugoDecision>) {
        out.clear();
        let Some(seat) = self.to_act() else { return };
        for_each_legal_play(self.hands[seat], &self.trick, &self.rules, |p| {
            out.push(DaifugoDecision::Play(p));
        });
        if pass_allowed(&self.trick, &self.rules) {
            out.push(DaifugoDecision::Pass);
        }
    }

    /// Plays `decision` for the seat to act without checking it: it must be one of
    /// [`DaifugoPosition::legal_actions`].
    pub fn apply(&mut self, decision: DaifugoDecision) {
        self.apply_with(decision, &mut |_| {});
    }

    /// [`DaifugoPosition::apply`], reporting what happens to `events` in order (the
    /// referee's event log; the game's end is left to the caller).
    pub fn apply_with(&mut self, decision: DaifugoDecision, events: &mut impl FnMut(Event)) {
        let seat = self.turn;
        match decision {
            DaifugoDecision::Pass => self.pass(seat, events),
            DaifugoDecision::Play(play) => self.play(seat, play, events),
            DaifugoDecision::Exchange(_) => panic!("an exchange decision during trick play"),
        }
    }

    fn set_passed(&mut self, seat: usize, passed: bool) {
        if passed {
            self.passed |= 1 << seat;
        } else {
            self.passed &= !(1 << seat);
        }
    }

    fn next_active_after(&self, seat: usize) -> usize {
        (1..=self.players)
            .map(|k| (seat + k) % self.players)
            .find(|&s| !self.is_out(s))
            .expect("an active seat remains")
    }

    fn next_to_move_after(&self, seat: usize) -> Option<usize> {
        (1..=self.players)
            .map(|k| (seat + k) % self.players)
            .find(|&s| !self.is_out(s) && !self.has_passed(s))
    }

    fn all_passed_except(&self, except: Option<usize>) -> bool {
        (0..self.players).all(|s| self.is_out(s) || self.has_passed(s) || Some(s) == except)
    }

    fn clear(&mut self, lead_from: usize, events: &mut impl FnMut(Event)) {
        self.trick.table = None;
        self.trick.lock = 0;
        self.trick.jack_back = false;
        self.passed = 0;
        self.turn = if self.is_out(lead_from) {
            self.next_active_after(lead_from)
        } else {
            lead_from
        };
        events(Event::Cleared);
        events(Event::Lead(self.turn));
    }

    fn pass(&mut self, seat: usize, events: &mut impl FnMut(Event)) {
        self.set_passed(seat, true);
        events(Event::Passed(seat));
        if self.trick.table.is_none() {
            // Empty-table pass: when everybody has passed, the passes lapse.
            if self.all_passed_except(None) {
                self.passed = 0;
                self.turn = self.next_active_after(seat);
            } else {
                self.turn = self
                    .next_to_move_after(seat)
                    .expect("someone has not passed");
            }
            return;
        }
        let except = if self.rules.self_follow {
            None
        } else {
            Some(self.owner)
        };
        if self.all_passed_except(except) {
            self.clear(self.owner, events);
        } else {
            self.turn = self
                .next_to_move_after(seat)
                .expect("someone has not passed");
        }
    }

    fn play(&mut self, seat: usize, play: Play, events: &mut impl FnMut(Event)) {
        let rules = self.rules;
        let revolution_before = self.trick.revolution;
        let covered = self.trick.table;
        self.hands[seat] = self.hands[seat].difference(play.cards());
        self.played = self.played.union(play.cards());
        events(Event::Played(seat, play));

        // The suit lock (or the lone joker's unlock), the revolution and J-back.
        let before = self.trick;
        self.trick = before.after_play(&play, &rules);
        if play.is_lone_joker() {
            if before.lock != 0 {
                events(Event::LockRemoved);
            }
        } else if self.trick.lock != before.lock {
            events(Event::Locked(self.trick.lock));
        }
        self.owner = seat;
        if !rules.pass_locks_out {
            self.passed = 0;
        }
        if self.trick.revolution != before.revolution {
            events(Event::Revolution(self.trick.revolution));
        }
        if self.trick.jack_back && !before.jack_back {
            events(Event::JackBack);
        }
        let eight_cut = play.is_eight_cut(&rules);
        let spade3_return = covered.is_some_and(|c| c.is_lone_joker()) && play.is_spade3();
        debug_assert_eq!(
            eight_cut || spade3_return,
            before.clears_after(&play, &rules)
        );

        // Going out: foul or legal finish (and miyako-ochi at the first legal finish).
        if self.hands[seat].is_empty() {
            self.out |= 1 << seat;
            if rules.forbidden_finishes && play.is_forbidden_finish(revolution_before) {
                self.fouls.push(seat);
                events(Event::Foul(seat));
            } else {
                let first = self.finishers.is_empty();
                self.finishers.push(seat);
                events(Event::Finished(seat));
                if first
                    && let Some(d) = self.reigning
                    && d != seat
                    && !self.is_out(d)
                {
                    self.out |= 1 << d;
                    self.set_passed(d, false);
                    self.discarded = self.discarded.union(self.hands[d]);
                    self.hands[d] = CardSet::EMPTY;
                    self.miyako = Some(d);
                    events(Event::MiyakoOchi(d));
                }
            }
        }
        if self.is_over() {
            return;
        }
        if eight_cut {
            events(Event::EightCut);
            self.clear(seat, events);
        } else if spade3_return {
            events(Event::Spade3Return);
            self.clear(seat, events);
        } else {
            let clear_now = if rules.self_follow && !self.is_out(seat) {
                false
            } else {
                self.all_passed_except(Some(seat))
            };
            if clear_now {
                self.clear(seat, events);
            } else {
                self.turn = self
                    .next_to_move_after(seat)
                    .expect("someone can still move");
            }
        }
    }
}

/// The kind of a logged play read from its cards: one card is a single; naturals of
/// one rank (with jokers) or two cards are a group; naturals of several ranks are a
/// sequence; one natural with two jokers is read as a group (see the module docs).
pub(crate) fn logged_kind(cards: CardSet) -> PlayKind {
    let naturals = cards.naturals();
    match naturals.first().and_then(Card::rank) {
        _ if cards.len() == 1 => PlayKind::Single,
        Some(rank) if naturals.suits_of_rank(rank).count_ones() as usize != naturals.len() => {
            PlayKind::Sequence
        }
        _ => PlayKind::Group,
    }
}

impl Simulation for Daifugo {
    type Deal = DaifugoDeal;
    type Position = DaifugoPosition;

    fn deal(view: &DaifugoView, rng: &mut ChaCha8Rng) -> DaifugoDeal {
        DaifugoDeal::draw(view, rng)
    }

    fn deal_without_exchange_bound(view: &DaifugoView, rng: &mut ChaCha8Rng) -> DaifugoDeal {
        DaifugoDeal::draw_bounded(view, rng, false)
    }

    fn position(view: &DaifugoView, deal: &DaifugoDeal) -> Option<DaifugoPosition> {
        DaifugoPosition::from_view(view, deal)
    }

    fn to_act(position: &DaifugoPosition) -> Option<usize> {
        position.to_act()
    }

    fn legal_actions(position: &DaifugoPosition, out: &mut Vec<DaifugoDecision>) {
        position.legal_actions(out);
    }

    fn apply(position: &mut DaifugoPosition, decision: DaifugoDecision) {
        position.apply(decision);
    }

    /// The seat's finishing place, 1 = first (fouls and miyako-ochi included). Panics
    /// before the game is over.
    fn outcome(position: &DaifugoPosition, seat: usize) -> f64 {
        position
            .place_of(seat)
            .expect("the outcome of a finished game") as f64
    }

    const HIGHER_IS_BETTER: bool = false;
}

/// The cards of `set` in the set's order, and how many there are: a list on the stack
/// (a deal is drawn once per search round).
fn cards_of(set: CardSet) -> ([Card; 54], usize) {
    let mut cards = [Card::JOKER; 54];
    let mut count = 0;
    for card in set.iter() {
        cards[count] = card;
        count += 1;
    }
    (cards, count)
}
