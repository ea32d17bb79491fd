//! The referee: deal, exchange, first leads, trick flow, special rules, fouls,
//! miyako-ochi, final places, points and matches (rules.md 3.1-3.9, 3.12).
//!
//! The referee holds every hand. Callers ask [`Referee::to_act`] who decides, build that
//! seat's view with [`Referee::view`] (the validated constructor), and submit the
//! decision with [`Referee::apply`], which rejects anything illegal. After every action
//! [`Referee::check_invariants`] verifies the card accounting.

use super::cards::{Card, CardSet, RANK_2, RANKS, Suit};
use super::decision::{DaifugoDecision, is_legal};
use super::moves::{Trick, legal_plays};
use super::plays::Play;
use super::rules::{FirstLead, RuleSet, Title, points_for_place};
use super::view::{
    DaifugoView, DaifugoViewInput, LogEntryInput, PhaseInput, SeatInput, ViewError, table_input,
};
use crate::bot::{DecisionContext, StableHasher, shuffle, uniform_below};
use crate::daifugo::Daifugo;
use crate::game::Policy;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::fmt;

/// Where the current game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamePhase {
    /// No game dealt yet in this match.
    NotStarted,
    /// The daifugo / fugo choose their give-back.
    Exchange,
    /// Trick play.
    Play,
    /// The game is over; see [`Referee::result`].
    Over,
}

/// Something that happened, in order; tests read these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Cards dealt, starting with `start`.
    Dealt {
        /// The first seat dealt to.
        start: usize,
    },
    /// A tribute: `from` handed its strongest `cards` to `to`.
    Tribute {
        /// Giver.
        from: usize,
        /// Receiver.
        to: usize,
        /// The cards.
        cards: CardSet,
    },
    /// A give-back: `from` returned `cards` to `to`.
    GiveBack {
        /// Giver.
        from: usize,
        /// Receiver.
        to: usize,
        /// The cards.
        cards: CardSet,
    },
    /// `seat` leads (first lead of the game or after a clear).
    Lead(usize),
    /// `seat` played.
    Played(usize, Play),
    /// `seat` passed.
    Passed(usize),
    /// The order flipped; the new revolution flag.
    Revolution(bool),
    /// J-back started.
    JackBack,
    /// The trick became locked to this suit set.
    Locked(u8),
    /// A lone joker on a locked single removed the lock.
    LockRemoved,
    /// An 8-cut cleared the table.
    EightCut,
    /// ♠3 beat a lone joker and cleared the table.
    Spade3Return,
    /// The table cleared.
    Cleared,
    /// `seat` went out legally.
    Finished(usize),
    /// `seat` went out with a forbidden finish.
    Foul(usize),
    /// `seat` (the reigning daifugo) fell by miyako-ochi.
    MiyakoOchi(usize),
    /// The game ended.
    GameOver,
}

/// The outcome of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Seats in place order (first place first).
    pub places: Vec<usize>,
    /// Seats that went out legally, in order.
    pub finishers: Vec<usize>,
    /// Seats that fouled, in order of their fouls.
    pub fouls: Vec<usize>,
    /// The miyako-ochi victim, if any.
    pub miyako_ochi: Option<usize>,
}

impl GameResult {
    /// The 1-based place of `seat`.
    pub fn place_of(&self, seat: usize) -> usize {
        1 + self
            .places
            .iter()
            .position(|&s| s == seat)
            .expect("every seat has a place")
    }
}

/// Why the referee refused an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefereeError {
    /// Nobody or another seat is to act.
    NotYourTurn {
        /// The seat that tried.
        seat: usize,
        /// The seat to act, if any.
        expected: Option<usize>,
    },
    /// The decision does not fit the phase (a play during the exchange, ...).
    WrongPhase(String),
    /// The play or pass is not legal.
    Illegal(String),
    /// The setup is impossible (bad player count, bad deal).
    Setup(String),
}

impl fmt::Display for RefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeError::NotYourTurn { seat, expected } => {
                write!(f, "seat {seat} acted, expected {expected:?}")
            }
            RefereeError::WrongPhase(m) => write!(f, "wrong phase: {m}"),
            RefereeError::Illegal(m) => write!(f, "illegal: {m}"),
            RefereeError::Setup(m) => write!(f, "setup: {m}"),
        }
    }
}

impl std::error::Error for RefereeError {}

/// A pending give-back: `seat` returns `give` cards to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GiveBack {
    seat: usize,
    give: usize,
    to: usize,
}

/// The whole state of a match in progress.
#[derive(Clone, Debug)]
pub struct Referee {
    rules: RuleSet,
    players: usize,
    game: u32,
    titles: Vec<Title>,
    points: Vec<u32>,
    hands: Vec<CardSet>,
    phase: GamePhase,
    give_backs: Vec<GiveBack>,
    turn: usize,
    trick: Trick,
    owner: usize,
    passed: Vec<bool>,
    out: Vec<bool>,
    played: CardSet,
    discarded: CardSet,
    finishers: Vec<usize>,
    fouls: Vec<usize>,
    miyako: Option<usize>,
    legal_finish_seen: bool,
    log: Vec<LogEntryInput>,
    events: Vec<Event>,
    result: Option<GameResult>,
}

impl Referee {
    /// A new match of `players` seats (3..=7) under `rules`.
    pub fn new(rules: RuleSet, players: usize) -> Result<Referee, RefereeError> {
        if let Err((field, reason)) = rules.validate() {
            return Err(RefereeError::Setup(format!("rules.{field}: {reason}")));
        }
        if !(3..=7).contains(&players) {
            return Err(RefereeError::Setup(format!(
                "{players} players; 3..=7 supported"
            )));
        }
        Ok(Referee {
            rules,
            players,
            game: 0,
            titles: vec![Title::Heimin; players],
            points: vec![0; players],
            hands: vec![CardSet::EMPTY; players],
            phase: GamePhase::NotStarted,
            give_backs: Vec::new(),
            turn: 0,
            trick: Trick::default(),
            owner: 0,
            passed: vec![false; players],
            out: vec![false; players],
            played: CardSet::EMPTY,
            discarded: CardSet::EMPTY,
            finishers: Vec::new(),
            fouls: Vec::new(),
            miyako: None,
            legal_finish_seen: false,
            log: Vec::new(),
            events: Vec::new(),
            result: None,
        })
    }

    /// Deals the next game from a generator (game 1: random start seat; later games the
    /// daifugo is dealt first) and runs the tribute.
    pub fn start_game(&mut self, rng: &mut ChaCha8Rng) {
        let next_game = self.game + 1;
        let titles = self.next_titles();
        let start = if next_game == 1 {
            uniform_below(rng, self.players)
        } else {
            titles
                .iter()
                .position(|&t| t == Title::Daifugo)
                .expect("a daifugo from game 2")
        };
        let mut deck: Vec<Card> = CardSet::deck(self.rules.jokers).iter().collect();
        shuffle(rng, &mut deck);
        let mut hands = vec![CardSet::EMPTY; self.players];
        for (i, card) in deck.into_iter().enumerate() {
            hands[(start + i) % self.players].insert(card);
        }
        self.begin(hands, titles, start);
    }

    /// [`Referee::start_game`] with a generator seeded from `seed`.
    pub fn start_game_seeded(&mut self, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        self.start_game(&mut rng);
    }

    /// Starts the next game with the given hands (before the tribute); they must
    /// partition the deck. For tests and replays.
    pub fn start_game_with_hands(&mut self, hands: Vec<CardSet>) -> Result<(), RefereeError> {
        if hands.len() != self.players {
            return Err(RefereeError::Setup(format!(
                "{} hands for {} players",
                hands.len(),
                self.players
            )));
        }
        let mut all = CardSet::EMPTY;
        for (i, hand) in hands.iter().enumerate() {
            if !hand.is_disjoint(all) {
                return Err(RefereeError::Setup(format!("hand {i} repeats a card")));
            }
            all = all.union(*hand);
        }
        if all != CardSet::deck(self.rules.jokers) {
            return Err(RefereeError::Setup(
                "the hands do not make up the deck".into(),
            ));
        }
        if hands.iter().any(|h| h.is_empty()) {
            return Err(RefereeError::Setup("every seat needs a card".into()));
        }
        let titles = self.next_titles();
        self.begin(hands, titles, 0);
        Ok(())
    }

    /// Sets the titles for the next game directly (tests of game >= 2 setups). Only
    /// before a game starts or after one ended; `game` becomes the number of games
    /// already played.
    pub fn set_titles_for_next_game(
        &mut self,
        titles: Vec<Title>,
        games_played: u32,
    ) -> Result<(), RefereeError> {
        if matches!(self.phase, GamePhase::Exchange | GamePhase::Play) {
            return Err(RefereeError::WrongPhase("a game is in progress".into()));
        }
        if titles.len() != self.players {
            return Err(RefereeError::Setup("one title per seat".into()));
        }
        let mut expect: Vec<Title> = (1..=self.players)
            .map(|p| Title::for_place(p, self.players))
            .collect();
        let mut got = titles.clone();
        expect.sort();
        got.sort();
        if games_played == 0 || got != expect {
            return Err(RefereeError::Setup(
                "titles must be one full set of places, after game 1".into(),
            ));
        }
        self.titles = titles;
        self.game = games_played;
        self.result = None;
        self.phase = GamePhase::Over;
        Ok(())
    }

    fn next_titles(&self) -> Vec<Title> {
        match (&self.result, self.phase) {
            (Some(result), GamePhase::Over) => {
                let mut titles = vec![Title::Heimin; self.players];
                for (i, &seat) in result.places.iter().enumerate() {
                    titles[seat] = Title::for_place(i + 1, self.players);
                }
                titles
            }
            (None, GamePhase::Over) => self.titles.clone(),
            _ => vec![Title::Heimin; self.players],
        }
    }

    fn begin(&mut self, hands: Vec<CardSet>, titles: Vec<Title>, start: usize) {
        if matches!(self.phase, GamePhase::NotStarted) {
            self.game = 0;
        }
        self.game += 1;
        self.titles = titles;
        self.hands = hands;
        self.give_backs.clear();
        self.trick = Trick::default();
        self.owner = 0;
        self.passed = vec![false; self.players];
        self.out = vec![false; self.players];
        self.played = CardSet::EMPTY;
        self.discarded = CardSet::EMPTY;
        self.finishers.clear();
        self.fouls.clear();
        self.miyako = None;
        self.legal_finish_seen = false;
        self.log.clear();
        self.events = vec![Event::Dealt { start }];
        self.result = None;
        if self.rules.exchange && self.game >= 2 {
            self.tribute();
        }
        if self.give_backs.is_empty() {
            self.start_play();
        } else {
            self.phase = GamePhase::Exchange;
            self.turn = self.give_backs[0].seat;
        }
    }

    fn seat_with(&self, title: Title) -> Option<usize> {
        self.titles.iter().position(|&t| t == title)
    }

    /// Both gifts first (rules.md 3.12.9), then the give-backs are pending.
    fn tribute(&mut self) {
        let pairs = [
            (Title::Daihinmin, Title::Daifugo, 2),
            (Title::Hinmin, Title::Fugo, 1),
        ];
        for (giver_title, taker_title, count) in pairs {
            let (Some(giver), Some(taker)) =
                (self.seat_with(giver_title), self.seat_with(taker_title))
            else {
                continue;
            };
            let cards = strongest_cards(self.hands[giver], count);
            self.hands[giver] = self.hands[giver].difference(cards);
            self.hands[taker] = self.hands[taker].union(cards);
            self.events.push(Event::Tribute {
                from: giver,
                to: taker,
                cards,
            });
            self.give_backs.push(GiveBack {
                seat: taker,
                give: count,
                to: giver,
            });
        }
    }

    fn start_play(&mut self) {
        self.phase = GamePhase::Play;
        let diamond3 = || {
            (0..self.players)
                .find(|&s| self.hands[s].contains(Card::DIAMOND_3))
                .expect("♦3 is dealt")
        };
        let leader = if self.game == 1 || self.rules.first_lead == FirstLead::Diamond3Always {
            diamond3()
        } else {
            self.seat_with(Title::Daihinmin).unwrap_or_else(diamond3)
        };
        self.turn = leader;
        self.events.push(Event::Lead(leader));
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players
    }
    /// The current game number (from 1; 0 before the first deal).
    pub fn game(&self) -> u32 {
        self.game
    }
    /// The phase.
    pub fn phase(&self) -> GamePhase {
        self.phase
    }
    /// Every seat's hand.
    pub fn hands(&self) -> &[CardSet] {
        &self.hands
    }
    /// The trick state.
    pub fn trick(&self) -> &Trick {
        &self.trick
    }
    /// The owner of the top play (meaningful while the table is not empty).
    pub fn owner(&self) -> usize {
        self.owner
    }
    /// Titles for the current game.
    pub fn titles(&self) -> &[Title] {
        &self.titles
    }
    /// Cumulative points in this match.
    pub fn points(&self) -> &[u32] {
        &self.points
    }
    /// Which seats are out of the current game.
    pub fn out(&self) -> &[bool] {
        &self.out
    }
    /// Which seats are locked out of the current trick.
    pub fn passed(&self) -> &[bool] {
        &self.passed
    }
    /// Cards played this game.
    pub fn played(&self) -> CardSet {
        self.played
    }
    /// Cards discarded face down by miyako-ochi this game.
    pub fn discarded(&self) -> CardSet {
        self.discarded
    }
    /// Events of the current game.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The result of the last finished game.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The seat to decide, if any.
    pub fn to_act(&self) -> Option<usize> {
        match self.phase {
            GamePhase::Exchange | GamePhase::Play => Some(self.turn),
            _ => None,
        }
    }

    fn active_count(&self) -> usize {
        self.out.iter().filter(|&&o| !o).count()
    }

    /// The wire-shaped view of `seat` (unchecked; see [`Referee::view`]).
    pub fn view_input(&self, seat: usize) -> DaifugoViewInput {
        let ids = |set: CardSet| set.iter().map(|c| u32::from(c.id())).collect::<Vec<_>>();
        let phase = match (self.phase, self.give_backs.first()) {
            (GamePhase::Exchange, Some(g)) => PhaseInput::Exchange {
                give: g.give as u32,
            },
            _ => PhaseInput::Play,
        };
        DaifugoViewInput {
            rules: self.rules,
            seat: seat as u32,
            game: self.game.max(1),
            phase,
            hand: ids(self.hands[seat]),
            table: self.trick.table.map(|p| table_input(&p, self.owner)),
            revolution: self.trick.revolution,
            jack_back: self.trick.jack_back,
            lock: u32::from(self.trick.lock),
            seats: (0..self.players)
                .map(|s| SeatInput {
                    card_count: self.hands[s].len() as u32,
                    title: self.titles[s],
                    passed: self.passed[s],
                    finished: self.out[s],
                })
                .collect(),
            played: ids(self.played),
            removed_unseen: self.discarded.len() as u32,
            log: self.log.clone(),
        }
    }

    /// The validated view of `seat`.
    pub fn view(&self, seat: usize) -> Result<DaifugoView, ViewError> {
        DaifugoView::new(self.view_input(seat))
    }

    /// The timeout autoplay: `policy`'s decision for the seat to act, applied (the easy
    /// bot is the usual timeout policy). The policy decides with an unbounded context
    /// seeded by the view's fingerprint.
    pub fn autoplay(
        &mut self,
        policy: &dyn Policy<Daifugo>,
    ) -> Result<DaifugoDecision, RefereeError> {
        let seat = self.to_act().ok_or(RefereeError::NotYourTurn {
            seat: usize::MAX,
            expected: None,
        })?;
        let view = self
            .view(seat)
            .map_err(|e| RefereeError::Illegal(format!("view of seat {seat}: {e}")))?;
        let mut ctx = DecisionContext::unbounded(view.fingerprint());
        let decision = policy.decide(&view, &mut ctx);
        self.apply(seat, &decision)?;
        Ok(decision)
    }

    /// Applies `seat`'s decision, or refuses it without changing anything.
    pub fn apply(&mut self, seat: usize, decision: &DaifugoDecision) -> Result<(), RefereeError> {
        if self.to_act() != Some(seat) {
            return Err(RefereeError::NotYourTurn {
                seat,
                expected: self.to_act(),
            });
        }
        match (self.phase, decision) {
            (GamePhase::Exchange, DaifugoDecision::Exchange(cards)) => self.give_back(*cards),
            (GamePhase::Exchange, other) => Err(RefereeError::WrongPhase(format!(
                "{other:?} during the exchange"
            ))),
            (GamePhase::Play, DaifugoDecision::Pass) => self.pass(seat),
            (GamePhase::Play, DaifugoDecision::Play(play)) => self.play(seat, *play),
            (GamePhase::Play, other) => Err(RefereeError::WrongPhase(format!(
                "{other:?} during trick play"
            ))),
            _ => Err(RefereeError::WrongPhase("no game in progress".into())),
        }
    }

    fn give_back(&mut self, cards: CardSet) -> Result<(), RefereeError> {
        let g = self.give_backs[0];
        if cards.len() != g.give || !cards.is_subset(self.hands[g.seat]) {
            return Err(RefereeError::Illegal(format!(
                "give-back {cards:?}: {} cards from the hand expected",
                g.give
            )));
        }
        self.hands[g.seat] = self.hands[g.seat].difference(cards);
        self.hands[g.to] = self.hands[g.to].union(cards);
        self.events.push(Event::GiveBack {
            from: g.seat,
            to: g.to,
            cards,
        });
        self.give_backs.remove(0);
        match self.give_backs.first() {
            Some(next) => self.turn = next.seat,
            None => self.start_play(),
        }
        Ok(())
    }

    fn next_active_after(&self, seat: usize) -> usize {
        (1..=self.players)
            .map(|k| (seat + k) % self.players)
            .find(|&s| !self.out[s])
            .expect("an active seat remains")
    }

    fn next_to_move_after(&self, seat: usize) -> Option<usize> {
        (1..=self.players)
            .map(|k| (seat + k) % self.players)
            .find(|&s| !self.out[s] && !self.passed[s])
    }

    fn all_passed_except(&self, except: Option<usize>) -> bool {
        (0..self.players).all(|s| self.out[s] || self.passed[s] || Some(s) == except)
    }

    fn clear(&mut self, lead_from: usize) {
        self.trick.table = None;
        self.trick.lock = 0;
        self.trick.jack_back = false;
        self.passed.iter_mut().for_each(|p| *p = false);
        self.turn = if self.out[lead_from] {
            self.next_active_after(lead_from)
        } else {
            lead_from
        };
        self.events.push(Event::Cleared);
        self.events.push(Event::Lead(self.turn));
    }

    fn pass(&mut self, seat: usize) -> Result<(), RefereeError> {
        if self.trick.table.is_none() && !self.rules.empty_table_pass {
            return Err(RefereeError::Illegal(
                "the leader must play on an empty table".into(),
            ));
        }
        self.passed[seat] = true;
        self.log.push(LogEntryInput {
            seat: seat as u32,
            cards: Vec::new(),
        });
        self.events.push(Event::Passed(seat));
        if self.trick.table.is_none() {
            // Empty-table pass: when everybody has passed, the passes lapse.
            if self.all_passed_except(None) {
                self.passed.iter_mut().for_each(|p| *p = false);
                self.turn = self.next_active_after(seat);
            } else {
                self.turn = self
                    .next_to_move_after(seat)
                    .expect("someone has not passed");
            }
            return Ok(());
        }
        let except = if self.rules.self_follow {
            None
        } else {
            Some(self.owner)
        };
        if self.all_passed_except(except) {
            self.clear(self.owner);
        } else {
            self.turn = self
                .next_to_move_after(seat)
                .expect("someone has not passed");
        }
        Ok(())
    }

    fn play(&mut self, seat: usize, play: Play) -> Result<(), RefereeError> {
        let mut legal = Vec::new();
        legal_plays(self.hands[seat], &self.trick, &self.rules, &mut legal);
        if !legal.contains(&play) {
            return Err(RefereeError::Illegal(format!(
                "{play:?} by seat {seat} on {:?}",
                self.trick.table
            )));
        }
        let rules = self.rules;
        let revolution_before = self.trick.revolution;
        let covered = self.trick.table;
        self.hands[seat] = self.hands[seat].difference(play.cards());
        self.played = self.played.union(play.cards());
        self.log.push(LogEntryInput {
            seat: seat as u32,
            cards: play.cards().iter().map(|c| u32::from(c.id())).collect(),
        });
        self.events.push(Event::Played(seat, play));

        // Lock (3.12.3) and the lone joker's unlock (3.12.2).
        if play.is_lone_joker() {
            if self.trick.lock != 0 {
                self.events.push(Event::LockRemoved);
            }
            self.trick.lock = 0;
        } else if let Some(below) = covered
            && rules.suit_lock
            && self.trick.lock == 0
            && play.suits() != 0
            && below.suits() == play.suits()
        {
            self.trick.lock = play.suits();
            self.events.push(Event::Locked(play.suits()));
        }
        self.trick.table = Some(play);
        self.owner = seat;
        if !rules.pass_locks_out {
            self.passed.iter_mut().for_each(|p| *p = false);
        }
        if play.is_revolution(&rules) {
            self.trick.revolution = !self.trick.revolution;
            self.events.push(Event::Revolution(self.trick.revolution));
        }
        if play.is_jack_back(&rules) && !self.trick.jack_back {
            self.trick.jack_back = true;
            self.events.push(Event::JackBack);
        }
        let eight_cut = play.is_eight_cut(&rules);
        let spade3_return = covered.is_some_and(|c| c.is_lone_joker()) && play.is_spade3();

        // Going out: foul or legal finish (and miyako-ochi).
        if self.hands[seat].is_empty() {
            self.out[seat] = true;
            if rules.forbidden_finishes && play.is_forbidden_finish(revolution_before) {
                self.fouls.push(seat);
                self.events.push(Event::Foul(seat));
            } else {
                self.finishers.push(seat);
                self.events.push(Event::Finished(seat));
                if !self.legal_finish_seen {
                    self.legal_finish_seen = true;
                    if rules.miyako_ochi
                        && self.game >= 2
                        && let Some(d) = self.seat_with(Title::Daifugo)
                        && d != seat
                        && !self.out[d]
                    {
                        self.out[d] = true;
                        self.passed[d] = false;
                        self.discarded = self.discarded.union(self.hands[d]);
                        self.hands[d] = CardSet::EMPTY;
                        self.miyako = Some(d);
                        self.events.push(Event::MiyakoOchi(d));
                    }
                }
            }
        }
        if self.active_count() <= 1 {
            self.finish_game();
            return Ok(());
        }
        if eight_cut {
            self.events.push(Event::EightCut);
            self.clear(seat);
        } else if spade3_return {
            self.events.push(Event::Spade3Return);
            self.clear(seat);
        } else {
            let clear_now = if rules.self_follow && !self.out[seat] {
                false
            } else {
                self.all_passed_except(Some(seat))
            };
            if clear_now {
                self.clear(seat);
            } else {
                self.turn = self
                    .next_to_move_after(seat)
                    .expect("someone can still move");
            }
        }
        Ok(())
    }

    fn finish_game(&mut self) {
        let mut places = self.finishers.clone();
        if let Some(last) = (0..self.players).find(|&s| !self.out[s]) {
            places.push(last);
        }
        places.extend(self.miyako);
        places.extend(self.fouls.iter().rev());
        debug_assert_eq!(places.len(), self.players);
        for (i, &seat) in places.iter().enumerate() {
            self.points[seat] += points_for_place(i + 1, self.players);
        }
        self.result = Some(GameResult {
            places,
            finishers: self.finishers.clone(),
            fouls: self.fouls.clone(),
            miyako_ochi: self.miyako,
        });
        self.phase = GamePhase::Over;
        self.events.push(Event::GameOver);
    }

    /// Verifies the card accounting and state consistency; the error says what broke.
    pub fn check_invariants(&self) -> Result<(), String> {
        let deck = CardSet::deck(self.rules.jokers);
        let mut all = CardSet::EMPTY;
        let mut count = 0;
        for (i, hand) in self.hands.iter().enumerate() {
            if !hand.is_disjoint(all) {
                return Err(format!("hand {i} shares a card with another hand"));
            }
            all = all.union(*hand);
            count += hand.len();
        }
        for (name, set) in [("played", self.played), ("discarded", self.discarded)] {
            if !set.is_disjoint(all) {
                return Err(format!("{name} cards overlap the hands"));
            }
            all = all.union(set);
            count += set.len();
        }
        if all != deck || count != deck.len() {
            return Err(format!(
                "card accounting: {count} cards accounted, deck has {}",
                deck.len()
            ));
        }
        if self.phase == GamePhase::Play {
            for s in 0..self.players {
                if self.out[s] != self.hands[s].is_empty() {
                    return Err(format!(
                        "seat {s}: out = {} with {:?}",
                        self.out[s], self.hands[s]
                    ));
                }
                if self.out[s] && self.passed[s] {
                    return Err(format!("seat {s} is out and passed"));
                }
            }
            if self.out[self.turn] || self.passed[self.turn] {
                return Err(format!("seat {} to act is out or passed", self.turn));
            }
            if self.trick.lock != 0
                && self
                    .trick
                    .table
                    .is_none_or(|t| t.suits() != self.trick.lock)
            {
                return Err("lock without a matching top play".into());
            }
            // Each seat's unseen cards equal the others' counts plus the discards.
            for s in 0..self.players {
                let unseen = deck.difference(self.hands[s]).difference(self.played);
                let others: usize = (0..self.players)
                    .filter(|&o| o != s)
                    .map(|o| self.hands[o].len())
                    .sum();
                if unseen.len() != others + self.discarded.len() {
                    return Err(format!("seat {s}: unseen cards do not match the counts"));
                }
            }
        }
        Ok(())
    }
}

/// The `count` strongest cards under the normal order: jokers first, then 2, A, ...,
/// ♠ first among equal ranks (the tribute, rules.md 3.12.9).
pub fn strongest_cards(hand: CardSet, count: usize) -> CardSet {
    let mut out = CardSet::EMPTY;
    for joker in hand.jokers().iter() {
        if out.len() < count {
            out.insert(joker);
        }
    }
    for rank in (0..RANKS).rev() {
        for suit in Suit::ALL {
            let card = Card::natural(rank, suit);
            if out.len() < count && hand.contains(card) {
                out.insert(card);
            }
        }
    }
    out
}

/// The `count` weakest cards under the normal order, ♠ first among equal ranks, jokers
/// only when nothing else is left (the easy give-back, rules.md 6.3).
pub fn weakest_cards(hand: CardSet, count: usize) -> CardSet {
    let mut out = CardSet::EMPTY;
    for rank in 0..=RANK_2 {
        for suit in Suit::ALL {
            let card = Card::natural(rank, suit);
            if out.len() < count && hand.contains(card) {
                out.insert(card);
            }
        }
    }
    for joker in hand.jokers().iter() {
        if out.len() < count {
            out.insert(joker);
        }
    }
    out
}

/// The record of one game in a match.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game number in its match.
    pub game: u32,
    /// The result.
    pub result: GameResult,
    /// Decisions taken (exchange, plays, passes).
    pub decisions: usize,
}

/// Plays a match of `games` games with one policy per seat, building every view through
/// the validated constructor, checking each decision against [`is_legal`]
/// and the card accounting after every action. Returns the per-game records.
pub fn play_match(
    policies: &[&dyn Policy<Daifugo>],
    games: u32,
    seed: u64,
    rules: RuleSet,
) -> Result<Vec<GameRecord>, String> {
    let players = policies.len();
    let mut referee = Referee::new(rules, players).map_err(|e| e.to_string())?;
    let mut deal_rng =
        ChaCha8Rng::seed_from_u64(StableHasher::new().bytes(b"deal").u64(seed).finish());
    let mut records = Vec::with_capacity(games as usize);
    for _ in 0..games {
        referee.start_game(&mut deal_rng);
        referee.check_invariants()?;
        let mut decisions = 0usize;
        while let Some(seat) = referee.to_act() {
            let view = referee
                .view(seat)
                .map_err(|e| format!("game {}: view of seat {seat}: {e}", referee.game()))?;
            let ctx_seed = StableHasher::new()
                .u64(seed)
                .u64(view.fingerprint())
                .finish();
            let mut ctx = DecisionContext::unbounded(ctx_seed);
            let decision = policies[seat].decide(&view, &mut ctx);
            if !is_legal(&view, &decision) {
                return Err(format!(
                    "game {}: {} chose an illegal {decision:?} for seat {seat}",
                    referee.game(),
                    policies[seat].name()
                ));
            }
            referee
                .apply(seat, &decision)
                .map_err(|e| format!("game {}: referee refused: {e}", referee.game()))?;
            referee
                .check_invariants()
                .map_err(|e| format!("game {}: {e}", referee.game()))?;
            decisions += 1;
            if decisions > 10_000 {
                return Err(format!(
                    "game {}: no end after 10,000 decisions",
                    referee.game()
                ));
            }
        }
        records.push(GameRecord {
            game: referee.game(),
            result: referee.result().cloned().expect("the game ended"),
            decisions,
        });
    }
    Ok(records)
}
