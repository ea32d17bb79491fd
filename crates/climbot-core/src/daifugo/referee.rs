//! The referee: deal, exchange, first leads, trick flow, special rules, fouls,
//! miyako-ochi, final places, points and matches (docs/rules/daifugo.md, §3-§12).
//!
//! The referee holds every hand. Callers ask [`Referee::to_act`] who decides, build that
//! seat's view with [`Referee::view`] (the validated constructor), and submit the
//! decision with [`Referee::apply`], which rejects anything illegal. After every action
//! [`Referee::check_invariants`] verifies the card accounting.

use super::cards::{Card, CardSet, RANK_2, RANKS, Suit};
use super::decision::{DaifugoDecision, is_legal};
use super::moves::{Trick, legal_plays, pass_allowed};
use super::plays::Play;
use super::position::DaifugoPosition;
use super::rules::{FirstLead, RuleSet, Title, points_for_place};
use super::view::{
    DaifugoView, DaifugoViewInput, ExchangeInput, LogEntryInput, PhaseInput, PlayCards, SeatInput,
    ViewError, table_input,
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
    phase: GamePhase,
    give_backs: Vec<GiveBack>,
    /// The hands, the seat to act (the give-back's giver during the exchange) and the
    /// play-phase state; every play and pass goes through it.
    position: DaifugoPosition,
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
            phase: GamePhase::NotStarted,
            give_backs: Vec::new(),
            position: DaifugoPosition::start(rules, &vec![CardSet::EMPTY; players], None),
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
        self.give_backs.clear();
        let reigning = if self.rules.miyako_ochi && self.game >= 2 {
            self.seat_with(Title::Daifugo)
        } else {
            None
        };
        self.position = DaifugoPosition::start(self.rules, &hands, reigning);
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
            self.position.turn = self.give_backs[0].seat;
        }
    }

    fn seat_with(&self, title: Title) -> Option<usize> {
        self.titles.iter().position(|&t| t == title)
    }

    /// Both gifts first (docs/rules/daifugo.md, §5 Exchange), then the give-backs are
    /// pending.
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
            let hands = &mut self.position.hands;
            let cards = strongest_cards(hands[giver], count);
            hands[giver] = hands[giver].difference(cards);
            hands[taker] = hands[taker].union(cards);
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
                .find(|&s| self.position.hands[s].contains(Card::DIAMOND_3))
                .expect("♦3 is dealt")
        };
        let leader = if self.game == 1 || self.rules.first_lead == FirstLead::Diamond3Always {
            diamond3()
        } else {
            self.seat_with(Title::Daihinmin).unwrap_or_else(diamond3)
        };
        self.position.turn = leader;
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
        self.position.hands()
    }
    /// The trick state.
    pub fn trick(&self) -> &Trick {
        self.position.trick()
    }
    /// The owner of the top play (meaningful while the table is not empty).
    pub fn owner(&self) -> usize {
        self.position.owner()
    }
    /// The play-phase state of the current game (during the exchange: the hands).
    pub fn position(&self) -> &DaifugoPosition {
        &self.position
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
    pub fn out(&self) -> Vec<bool> {
        (0..self.players).map(|s| self.position.is_out(s)).collect()
    }
    /// Which seats are locked out of the current trick.
    pub fn passed(&self) -> Vec<bool> {
        (0..self.players)
            .map(|s| self.position.has_passed(s))
            .collect()
    }
    /// Cards played this game.
    pub fn played(&self) -> CardSet {
        self.position.played()
    }
    /// Cards discarded face down by miyako-ochi this game.
    pub fn discarded(&self) -> CardSet {
        self.position.discarded()
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
            GamePhase::Exchange | GamePhase::Play => Some(self.position.turn),
            _ => None,
        }
    }

    /// The wire-shaped view of `seat` (unchecked; see [`Referee::view`]).
    pub fn view_input(&self, seat: usize) -> DaifugoViewInput {
        let phase = match (self.phase, self.give_backs.first()) {
            (GamePhase::Exchange, Some(g)) => PhaseInput::Exchange {
                give: g.give as u32,
            },
            _ => PhaseInput::Play,
        };
        let position = &self.position;
        let trick = position.trick();
        DaifugoViewInput {
            rules: self.rules,
            seat: seat as u32,
            game: self.game.max(1),
            phase,
            hand: position.hands[seat].ids(),
            table: trick.table.map(|p| table_input(&p, position.owner())),
            revolution: trick.revolution,
            jack_back: trick.jack_back,
            lock: u32::from(trick.lock),
            seats: (0..self.players)
                .map(|s| SeatInput {
                    card_count: position.hands[s].len() as u32,
                    title: self.titles[s],
                    passed: position.has_passed(s),
                    finished: position.is_out(s),
                })
                .collect(),
            played: position.played().ids(),
            removed_unseen: position.discarded().len() as u32,
            log: self.log.clone(),
            exchange: self.exchange_known(seat),
        }
    }

    /// What `seat` knows of this game's exchange: the tribute it handed over or took
    /// and the give-back it made or got, so far; `None` outside the exchange.
    fn exchange_known(&self, seat: usize) -> Option<ExchangeInput> {
        let mut known: Option<ExchangeInput> = None;
        for event in &self.events {
            let (from, to, cards) = match *event {
                Event::Tribute { from, to, cards } | Event::GiveBack { from, to, cards } => {
                    (from, to, cards)
                }
                _ => continue,
            };
            let (with_seat, received) = if to == seat {
                (from, true)
            } else if from == seat {
                (to, false)
            } else {
                continue;
            };
            let entry = known.get_or_insert_with(|| ExchangeInput {
                with_seat: with_seat as u32,
                received: Vec::new(),
                given: Vec::new(),
            });
            if received {
                entry.received.extend(cards.ids::<Vec<_>>());
            } else {
                entry.given.extend(cards.ids::<Vec<_>>());
            }
        }
        known
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
        let hands = &mut self.position.hands;
        if cards.len() != g.give || !cards.is_subset(hands[g.seat]) {
            return Err(RefereeError::Illegal(format!(
                "give-back {cards:?}: {} cards from the hand expected",
                g.give
            )));
        }
        hands[g.seat] = hands[g.seat].difference(cards);
        hands[g.to] = hands[g.to].union(cards);
        self.events.push(Event::GiveBack {
            from: g.seat,
            to: g.to,
            cards,
        });
        self.give_backs.remove(0);
        match self.give_backs.first() {
            Some(next) => self.position.turn = next.seat,
            None => self.start_play(),
        }
        Ok(())
    }

    fn pass(&mut self, seat: usize) -> Result<(), RefereeError> {
        if !pass_allowed(self.position.trick(), &self.rules) {
            return Err(RefereeError::Illegal(
                "the leader must play on an empty table".into(),
            ));
        }
        self.log.push(LogEntryInput {
            seat: seat as u32,
            cards: PlayCards::new(),
        });
        let events = &mut self.events;
        self.position
            .apply_with(DaifugoDecision::Pass, &mut |e| events.push(e));
        Ok(())
    }

    fn play(&mut self, seat: usize, play: Play) -> Result<(), RefereeError> {
        let mut legal = Vec::new();
        let trick = *self.position.trick();
        legal_plays(self.position.hands[seat], &trick, &self.rules, &mut legal);
        if !legal.contains(&play) {
            return Err(RefereeError::Illegal(format!(
                "{play:?} by seat {seat} on {:?}",
                trick.table
            )));
        }
        self.log.push(LogEntryInput {
            seat: seat as u32,
            cards: play.cards().ids(),
        });
        let events = &mut self.events;
        self.position
            .apply_with(DaifugoDecision::Play(play), &mut |e| events.push(e));
        if self.position.is_over() {
            self.finish_game();
        }
        Ok(())
    }

    fn finish_game(&mut self) {
        let places = self.position.places().expect("the game is over").to_vec();
        debug_assert_eq!(places.len(), self.players);
        for (i, &seat) in places.iter().enumerate() {
            self.points[seat] += points_for_place(i + 1, self.players);
        }
        self.result = Some(GameResult {
            places,
            finishers: self.position.finishers().to_vec(),
            fouls: self.position.fouls().to_vec(),
            miyako_ochi: self.position.miyako_ochi(),
        });
        self.phase = GamePhase::Over;
        self.events.push(Event::GameOver);
    }

    /// Verifies the card accounting and state consistency; the error says what broke.
    pub fn check_invariants(&self) -> Result<(), String> {
        let deck = CardSet::deck(self.rules.jokers);
        let position = &self.position;
        let hands = position.hands();
        let mut all = CardSet::EMPTY;
        let mut count = 0;
        for (i, hand) in hands.iter().enumerate() {
            if !hand.is_disjoint(all) {
                return Err(format!("hand {i} shares a card with another hand"));
            }
            all = all.union(*hand);
            count += hand.len();
        }
        for (name, set) in [
            ("played", position.played()),
            ("discarded", position.discarded()),
        ] {
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
            for (s, hand) in hands.iter().enumerate() {
                if position.is_out(s) != hand.is_empty() {
                    return Err(format!(
                        "seat {s}: out = {} with {hand:?}",
                        position.is_out(s)
                    ));
                }
                if position.is_out(s) && position.has_passed(s) {
                    return Err(format!("seat {s} is out and passed"));
                }
            }
            let turn = position.turn;
            if position.is_out(turn) || position.has_passed(turn) {
                return Err(format!("seat {turn} to act is out or passed"));
            }
            let trick = position.trick();
            if trick.lock != 0 && trick.table.is_none_or(|t| t.suits() != trick.lock) {
                return Err("lock without a matching top play".into());
            }
            // Each seat's unseen cards equal the others' counts plus the discards.
            for (s, hand) in hands.iter().enumerate() {
                let unseen = deck.difference(*hand).difference(position.played());
                let others: usize = (0..self.players)
                    .filter(|&o| o != s)
                    .map(|o| hands[o].len())
                    .sum();
                if unseen.len() != others + position.discarded().len() {
                    return Err(format!("seat {s}: unseen cards do not match the counts"));
                }
            }
        }
        Ok(())
    }
}

/// The `count` strongest cards under the normal order: jokers first, then 2, A, ...,
/// ♠ first among equal ranks (the tribute: docs/rules/daifugo.md, §5 Exchange).
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
/// only when nothing else is left (the easy give-back, docs/rules/easy-bots.md).
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
    play_match_observed(policies, games, seed, rules, &mut |_| {})
}

/// [`play_match`], showing `observe` the referee after each deal (the tribute made, the
/// exchange about to begin) and after every decision (to follow a seat between its
/// turns); `observe` cannot change the play.
pub fn play_match_observed(
    policies: &[&dyn Policy<Daifugo>],
    games: u32,
    seed: u64,
    rules: RuleSet,
    observe: &mut dyn FnMut(&Referee),
) -> Result<Vec<GameRecord>, String> {
    let players = policies.len();
    let mut referee = Referee::new(rules, players).map_err(|e| e.to_string())?;
    let mut deal_rng =
        ChaCha8Rng::seed_from_u64(StableHasher::new().bytes(b"deal").u64(seed).finish());
    let mut records = Vec::with_capacity(games as usize);
    for _ in 0..games {
        referee.start_game(&mut deal_rng);
        referee.check_invariants()?;
        observe(&referee);
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
            observe(&referee);
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
