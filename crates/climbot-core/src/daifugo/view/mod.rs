//! What one seat may see, built only through a validating constructor.
//!
//! [`DaifugoViewInput`] mirrors a wire message: plain integers and lists, unchecked.
//! [`DaifugoView::new`] turns it into a [`DaifugoView`] or a [`ViewError`] naming the
//! exact field at fault (`hand[2]`, `table.cards[1].declared`, `seats[3].card_count`).
//!
//! The module reads in three parts: what the constructor receives (`input`), the
//! checks, one module per concern (the cards, the seats, the log, the phase, the table,
//! the exchange), and the view itself.

mod cards;
mod exchange;
mod input;
mod log;
mod phase;
mod seats;
mod table;

pub use crate::view_error::ViewError;
pub use exchange::exchange_pair;
pub use input::{
    DaifugoViewInput, ExchangeInput, LogEntryInput, PhaseInput, PlayCards, SeatInput,
    TableCardInput, TableInput,
};

use super::cards::{Card, CardSet};
use super::moves::Trick;
use super::plays::Play;
use super::rules::{RuleSet, Title};
use crate::bot::StableHasher;
use crate::view_error::refuse;
use exchange::{ExchangeContext, validate_exchange};

/// The validated phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Play or pass.
    Play,
    /// Give back `give` cards.
    Exchange {
        /// Number of cards to give back.
        give: usize,
    },
}

/// The validated table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableView {
    /// The top play.
    pub play: Play,
    /// Its owner.
    pub owner: usize,
}

/// One seat's validated public state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatView {
    /// Cards in hand.
    pub card_count: usize,
    /// Title for this game.
    pub title: Title,
    /// Locked out of the current trick.
    pub passed: bool,
    /// Out of the game.
    pub finished: bool,
}

/// One validated log entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LogEntry {
    /// The acting seat.
    pub seat: usize,
    /// The cards played, `None` for a pass.
    pub cards: Option<CardSet>,
}

/// This game's exchange as the deciding seat knows it, validated.
///
/// The daifugo (fugo) receives the daihinmin's (hinmin's) strongest 2 (1) cards and
/// gives 2 (1) back; both sides know both halves. `given` is empty while the deciding
/// seat still has to choose its give-back (the EXCHANGE phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExchangeKnown {
    /// The other seat of the pair.
    pub with_seat: usize,
    /// The cards received from `with_seat`.
    pub received: CardSet,
    /// The cards given to `with_seat`.
    pub given: CardSet,
}

/// Everything one seat may see, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DaifugoView {
    rules: RuleSet,
    seat: usize,
    game: u32,
    phase: Phase,
    hand: CardSet,
    table: Option<TableView>,
    trick: Trick,
    seats: Vec<SeatView>,
    played: CardSet,
    removed_unseen: usize,
    log: Vec<LogEntry>,
    exchange: Option<ExchangeKnown>,
}

impl DaifugoView {
    /// Validates `input` and builds the view.
    ///
    /// ```
    /// use climbot_core::daifugo::referee::Referee;
    /// use climbot_core::daifugo::rules::RuleSet;
    /// use climbot_core::daifugo::view::DaifugoView;
    /// let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
    /// referee.start_game_seeded(7);
    /// let seat = referee.to_act().unwrap();
    /// let mut input = referee.view_input(seat);
    /// assert!(DaifugoView::new(input.clone()).is_ok());
    /// input.hand.push(input.hand[0]);
    /// let error = DaifugoView::new(input).unwrap_err();
    /// assert!(error.to_string().contains("duplicate"), "{error}");
    /// ```
    pub fn new(input: DaifugoViewInput) -> Result<DaifugoView, ViewError> {
        let rules = input.rules;
        if let Err((field, reason)) = rules.validate() {
            return refuse(format!("rules.{field}"), reason);
        }
        let deck = CardSet::deck(rules.jokers);
        let (players, seat) = seats::table_size(input.seats.len(), input.seat)?;
        if input.game == 0 {
            return refuse("game", "games are numbered from 1");
        }
        let hand = cards::parse_cards(&input.hand, deck, &"hand")?;
        let played = cards::parse_cards(&input.played, deck, &"played")?;
        cards::check_apart(hand, &input.played)?;
        let seats = seats::parse(&input.seats, input.game)?;
        let removed_unseen = seats::check_counts(
            &seats,
            seat,
            hand,
            played,
            input.removed_unseen,
            &rules,
            input.game,
        )?;
        let lock = table::lock(input.lock)?;
        let log = log::parse(&input.log, players, deck, played, &input.played)?;
        let phase = phase::parse(&input, &seats, seat, lock, removed_unseen)?;
        let table = table::parse(input.table.as_ref(), &rules, &seats, deck, played, &log)?;
        table::check_flags(&input, table.as_ref(), lock, &seats)?;
        let exchange = match &input.exchange {
            None => None,
            Some(x) => Some(validate_exchange(
                x,
                ExchangeContext {
                    rules: &rules,
                    game: input.game,
                    seat,
                    seats: &seats,
                    phase,
                    deck,
                    hand,
                    played,
                    removed_unseen,
                },
            )?),
        };
        let trick = Trick {
            table: table.map(|t| t.play),
            revolution: input.revolution,
            jack_back: input.jack_back,
            lock,
        };
        Ok(DaifugoView {
            rules,
            seat,
            game: input.game,
            phase,
            hand,
            table,
            trick,
            seats,
            played,
            removed_unseen,
            log,
            exchange,
        })
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
    /// The deciding seat.
    pub fn seat(&self) -> usize {
        self.seat
    }
    /// The game number (from 1).
    pub fn game(&self) -> u32 {
        self.game
    }
    /// The decision asked for.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat's own cards.
    pub fn hand(&self) -> CardSet {
        self.hand
    }
    /// The table, if any.
    pub fn table(&self) -> Option<&TableView> {
        self.table.as_ref()
    }
    /// The trick state (table, revolution, J-back, lock).
    pub fn trick(&self) -> &Trick {
        &self.trick
    }
    /// The revolution flag.
    pub fn revolution(&self) -> bool {
        self.trick.revolution
    }
    /// The J-back flag.
    pub fn jack_back(&self) -> bool {
        self.trick.jack_back
    }
    /// The lock (suit mask, 0 = none).
    pub fn lock(&self) -> u8 {
        self.trick.lock
    }
    /// Every seat's public state.
    pub fn seats(&self) -> &[SeatView] {
        &self.seats
    }
    /// Cards played this game.
    pub fn played(&self) -> CardSet {
        self.played
    }
    /// Cards discarded unseen by miyako-ochi.
    pub fn removed_unseen(&self) -> usize {
        self.removed_unseen
    }
    /// The public log.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }
    /// This game's exchange as the seat knows it, if the view carries it.
    pub fn exchange_known(&self) -> Option<&ExchangeKnown> {
        self.exchange.as_ref()
    }
    /// The cards known to be in `seat`'s hand: those this seat gave it in the exchange
    /// and that are neither played yet nor handed back (empty for any other seat, or for a seat out of the
    /// game, whose unplayed cards were removed unseen).
    pub fn known_held(&self, seat: usize) -> CardSet {
        match &self.exchange {
            Some(x) if x.with_seat == seat && !self.seats[seat].finished => {
                x.given.difference(self.played).difference(self.hand)
            }
            _ => CardSet::EMPTY,
        }
    }
    /// The bound the exchange puts on the partner's hand, seen from the seat that received
    /// its tribute (the daifugo or the fugo): the partner handed over its strongest
    /// cards, so every other card it held ranks no higher, in the normal order, than the
    /// weakest of them (any suit; no joker unless a joker was the weakest handed over).
    /// `Some((partner seat, the cards it may hold besides` [`DaifugoView::known_held`]`))`
    /// while the partner plays on; `None` for any other seat, or when only jokers were
    /// handed over (they bound nothing).
    pub fn exchange_bound(&self) -> Option<(usize, CardSet)> {
        let x = self.exchange.as_ref()?;
        let title = self.seats[self.seat].title;
        if !matches!(title, Title::Daifugo | Title::Fugo) || self.seats[x.with_seat].finished {
            return None;
        }
        let weakest = x.received.naturals().iter().filter_map(Card::rank).min()?;
        Some((x.with_seat, CardSet::naturals_up_to(weakest)))
    }
    /// The cards known to have been removed unseen by miyako-ochi: those this seat gave
    /// a seat now out of the game that it never played.
    pub fn known_removed(&self) -> CardSet {
        match &self.exchange {
            Some(x) if self.seats[x.with_seat].finished => {
                x.given.difference(self.played).difference(self.hand)
            }
            _ => CardSet::EMPTY,
        }
    }
    /// The cards this seat has not seen: the deck minus its hand and the played cards.
    /// Their number equals the other seats' counts plus the cards removed unseen.
    pub fn unseen(&self) -> CardSet {
        CardSet::deck(self.rules.jokers)
            .difference(self.hand)
            .difference(self.played)
    }

    /// A stable hash of a normalized encoding (sets as bits, fixed field order), for
    /// deterministic seeding.
    pub fn fingerprint(&self) -> u64 {
        let mut h = StableHasher::new();
        h.bytes(b"daifugo-view-v1");
        h.u64(self.rules.encode())
            .u64(self.seat as u64)
            .u64(u64::from(self.game));
        match self.phase {
            Phase::Play => h.u64(0),
            Phase::Exchange { give } => h.u64(1 + give as u64),
        };
        h.u64(self.hand.bits());
        match &self.table {
            None => h.u64(u64::MAX),
            Some(t) => {
                let [a, b] = t.play.encode();
                h.u64(a).u64(b).u64(t.owner as u64)
            }
        };
        h.u64(u64::from(self.trick.revolution))
            .u64(u64::from(self.trick.jack_back))
            .u64(u64::from(self.trick.lock));
        h.u64(self.seats.len() as u64);
        for s in &self.seats {
            h.u64(s.card_count as u64)
                .u64(u64::from(s.title.code()))
                .u64(u64::from(s.passed))
                .u64(u64::from(s.finished));
        }
        h.u64(self.played.bits()).u64(self.removed_unseen as u64);
        h.u64(self.log.len() as u64);
        for e in &self.log {
            h.u64(e.seat as u64)
                .u64(e.cards.map_or(u64::MAX, |c| c.bits()));
        }
        // Hashed only when present, so views without it keep their fingerprints.
        if let Some(x) = &self.exchange {
            h.bytes(b"exchange");
            h.u64(x.with_seat as u64)
                .u64(x.received.bits())
                .u64(x.given.bits());
        }
        h.finish()
    }

    /// The wire-shaped input this view was built from (normalized).
    pub fn to_input(&self) -> DaifugoViewInput {
        DaifugoViewInput {
            rules: self.rules,
            seat: self.seat as u32,
            game: self.game,
            phase: match self.phase {
                Phase::Play => PhaseInput::Play,
                Phase::Exchange { give } => PhaseInput::Exchange { give: give as u32 },
            },
            hand: self.hand.ids(),
            table: self.table.map(|t| table_input(&t.play, t.owner)),
            revolution: self.trick.revolution,
            jack_back: self.trick.jack_back,
            lock: u32::from(self.trick.lock),
            seats: self
                .seats
                .iter()
                .map(|s| SeatInput {
                    card_count: s.card_count as u32,
                    title: s.title,
                    passed: s.passed,
                    finished: s.finished,
                })
                .collect(),
            played: self.played.ids(),
            removed_unseen: self.removed_unseen as u32,
            log: self
                .log
                .iter()
                .map(|e| LogEntryInput {
                    seat: e.seat as u32,
                    cards: e.cards.map(CardSet::ids).unwrap_or_default(),
                })
                .collect(),
            exchange: self.exchange.map(|x| ExchangeInput {
                with_seat: x.with_seat as u32,
                received: x.received.ids(),
                given: x.given.ids(),
            }),
        }
    }
}

/// The wire form of a play on the table.
pub fn table_input(play: &Play, owner: usize) -> TableInput {
    TableInput {
        owner: owner as u32,
        kind: play.kind(),
        cards: play
            .cards()
            .iter()
            .map(|c| TableCardInput {
                card: u32::from(c.id()),
                declared: play.declaration(c).map(|d| u32::from(d.id())),
            })
            .collect(),
    }
}
