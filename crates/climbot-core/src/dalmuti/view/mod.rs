//! What one seat may see when it has to decide, built only through the validated
//! constructor [`DalmutiView::new`].
//!
//! The input struct mirrors a wire message (plain integers, vectors, options); the
//! constructor checks everything a lying or buggy client could get wrong and names the
//! exact field. In the play phase it replays the public log from the deal, so the table,
//! whose turn it is, the card counts and the cards played must all agree.
//!
//! Everything a counting bot needs is public here: [`DalmutiView::unseen`] gives the
//! cards of each rank not in this seat's hand and not yet played, which the other seats
//! hold between them ([`DalmutiView::unseen`]`.len()` equals the sum of their counts).
//!
//! The module reads in three parts: what the constructor receives (`input`), the
//! checks, one module per concern (the seats, the cards, the log, the revolution, the
//! taxes), and the view itself. A refusal is a [`ViewError`] naming the first field at
//! fault.

mod cards;
mod input;
mod log;
mod revolution;
mod seats;
mod taxes;

pub use crate::view_error::ViewError;
pub use input::{
    CardsInput, DalmutiViewInput, LogEntryInput, Phase, PlayInput, RevolutionInput, SeatInput,
    TaxKnownInput, TaxReturnInput,
};
pub use taxes::tax_pair;

use super::cards::Cards;
use super::plays::Play;
use super::turn::{Action, Title, TurnState};
use crate::bot::StableHasher;
use crate::view_error::refuse;

/// One seat as the view holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatInfo {
    /// Cards in hand.
    pub card_count: u8,
    /// The title (follows from the seat's position).
    pub title: Title,
    /// True once the seat went out this hand.
    pub finished: bool,
    /// The match score so far.
    pub score: u32,
}

/// One validated entry of the public log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LogEntry {
    /// The seat that acted.
    pub seat: usize,
    /// What it did.
    pub action: Action,
}

/// What a Dalmuti owes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaxDuty {
    /// The number of cards to give back.
    pub count: u8,
    /// The receiving seat.
    pub to: usize,
}

/// A revolution declared this hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Revolution {
    /// The declarer's seat in the current seating.
    pub seat: usize,
    /// True for a Greater Revolution.
    pub greater: bool,
}

/// This hand's taxes as the deciding seat knows them, validated.
///
/// The GP (LP) hands its 2 (1) best cards to the GD (LD), who gives 2 (1) of its choice
/// back; both seats of a pair know both halves. `given` is empty while the deciding
/// Dalmuti still has to choose what it gives back (the tax-return phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TaxKnown {
    /// The other seat of the pair.
    pub with_seat: usize,
    /// The cards received from `with_seat`.
    pub received: Cards,
    /// The cards given to `with_seat`.
    pub given: Cards,
}

/// A validated view of one seat. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DalmutiView {
    seat: usize,
    phase: Phase,
    hand: Cards,
    table: Option<Play>,
    seats: Vec<SeatInfo>,
    played: Cards,
    log: Vec<LogEntry>,
    hand_number: u32,
    hands_left: u32,
    tax_return: Option<TaxDuty>,
    revolution: Option<Revolution>,
    turn: Option<TurnState>,
    tax_known: Option<TaxKnown>,
}

impl DalmutiView {
    /// Validates `input` into a view, or names the first field that is wrong.
    ///
    /// ```
    /// use climbot_core::dalmuti::referee::opening_view_input;
    /// use climbot_core::dalmuti::view::DalmutiView;
    /// let mut input = opening_view_input(5, 42);
    /// assert!(DalmutiView::new(input.clone()).is_ok());
    /// input.seats[2].card_count += 1;
    /// let e = DalmutiView::new(input).unwrap_err();
    /// assert_eq!(e.field, "seats");
    /// ```
    pub fn new(input: DalmutiViewInput) -> Result<DalmutiView, ViewError> {
        let (players, me) = seats::table_size(input.seats.len(), input.seat)?;
        let hand = cards::parse_cards(&input.hand, "hand")?;
        let played = cards::parse_cards(&input.played, "played")?;
        cards::check_deck(hand, played)?;
        if input.hand_number == 0 {
            return refuse("hand_number", "hands are numbered from 1");
        }
        let seats = seats::parse(&input.seats, input.hand_number)?;
        seats::check_counts(&seats, me, hand.len(), played.len())?;
        let table = match &input.table {
            Some(t) => Some(cards::parse_play(t, &"table")?),
            None => None,
        };
        let log = log::parse(&input.log, players)?;
        let revolution = revolution::parse(input.revolution, players, me, hand, played)?;
        let tax_return = input.tax_return.map(|t| TaxDuty {
            count: u8::try_from(t.count).unwrap_or(u8::MAX),
            to: t.to as usize,
        });
        let mut view = DalmutiView {
            seat: me,
            phase: input.phase,
            hand,
            table,
            seats,
            played,
            log,
            hand_number: input.hand_number,
            hands_left: input.hands_left,
            tax_return,
            revolution,
            turn: None,
            tax_known: None,
        };
        match input.phase {
            Phase::Revolution => view.check_revolution_phase()?,
            Phase::TaxReturn => view.check_tax_phase()?,
            Phase::Play => view.check_play_phase()?,
        }
        if let Some(t) = &input.tax_known {
            view.tax_known = Some(view.check_tax_known(t)?);
        }
        Ok(view)
    }

    /// Before the play phase: no table, no log, nothing played.
    fn check_pre_play(&self) -> Result<(), ViewError> {
        if self.table.is_some() {
            return refuse("table", "no table before the play phase");
        }
        if !self.log.is_empty() {
            return refuse("log", "no plays before the play phase");
        }
        if !self.played.is_empty() {
            return refuse("played.counts", "no cards are played before the play phase");
        }
        Ok(())
    }

    /// The cards `seat` played this hand, by the log.
    pub fn played_by(&self, seat: usize) -> Cards {
        let mut out = Cards::EMPTY;
        for e in &self.log {
            if let (true, Action::Play(p)) = (e.seat == seat, e.action) {
                out = out.union(p.cards());
            }
        }
        out
    }

    /// This hand's taxes as the seat knows them, if the view carries them.
    pub fn tax_known(&self) -> Option<&TaxKnown> {
        self.tax_known.as_ref()
    }

    /// The cards known to be in `seat`'s hand: those this seat gave it in the taxes,
    /// less what it gave back and what it played since (empty for any other seat).
    pub fn known_held(&self, seat: usize) -> Cards {
        match &self.tax_known {
            Some(t) if t.with_seat == seat => self.known_held_by(t),
            _ => Cards::EMPTY,
        }
    }

    /// The deciding seat.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// The decision asked for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The deciding seat's hand.
    pub fn hand(&self) -> Cards {
        self.hand
    }

    /// The play to beat, `None` when leading (or outside the play phase).
    pub fn table(&self) -> Option<Play> {
        self.table
    }

    /// The seat that made the table's play, if there is a table.
    pub fn table_owner(&self) -> Option<usize> {
        self.turn
            .as_ref()
            .filter(|t| t.table().is_some())
            .map(TurnState::owner)
    }

    /// Every seat in turn order.
    pub fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// This seat's title.
    pub fn title(&self) -> Title {
        self.seats[self.seat].title
    }

    /// Cards played this hand.
    pub fn played(&self) -> Cards {
        self.played
    }

    /// Cards this seat cannot see: neither in its hand nor played. The other seats
    /// hold exactly these between them.
    pub fn unseen(&self) -> Cards {
        Cards::FULL_DECK
            .difference(self.hand)
            .difference(self.played)
    }

    /// The public log of this hand's play phase.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The turn flow of the play phase replayed from the log (who is to move, the
    /// table and its owner, the passes since, the card counts and the seats out);
    /// `None` outside the play phase.
    pub fn turn_state(&self) -> Option<&TurnState> {
        self.turn.as_ref()
    }

    /// Seats that went out this hand, in order.
    pub fn finished_order(&self) -> Vec<usize> {
        self.turn
            .as_ref()
            .map(|t| t.finished().collect())
            .unwrap_or_default()
    }

    /// This hand's number (from 1).
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// Hands to be played after this one.
    pub fn hands_left(&self) -> u32 {
        self.hands_left
    }

    /// In the tax-return phase, what is owed to whom.
    pub fn tax_return(&self) -> Option<TaxDuty> {
        self.tax_return
    }

    /// A revolution declared this hand, if any.
    pub fn revolution(&self) -> Option<Revolution> {
        self.revolution
    }

    /// The input this view was built from, normalized (round-trips through [`Self::new`]).
    pub fn to_input(&self) -> DalmutiViewInput {
        DalmutiViewInput {
            seat: self.seat as u32,
            phase: self.phase,
            hand: self.hand.into(),
            table: self.table.map(PlayInput::from),
            seats: self
                .seats
                .iter()
                .map(|s| SeatInput {
                    card_count: u32::from(s.card_count),
                    title: s.title,
                    finished: s.finished,
                    score: s.score,
                })
                .collect(),
            played: self.played.into(),
            log: self
                .log
                .iter()
                .map(|e| LogEntryInput {
                    seat: e.seat as u32,
                    play: match e.action {
                        Action::Pass => None,
                        Action::Play(p) => Some(p.into()),
                    },
                })
                .collect(),
            hand_number: self.hand_number,
            hands_left: self.hands_left,
            tax_return: self.tax_return.map(|t| TaxReturnInput {
                count: u32::from(t.count),
                to: t.to as u32,
            }),
            revolution: self.revolution.map(|r| RevolutionInput {
                seat: r.seat as u32,
                greater: r.greater,
            }),
            tax_known: self.tax_known.map(|t| TaxKnownInput {
                with_seat: t.with_seat as u32,
                received: t.received.into(),
                given: t.given.into(),
            }),
        }
    }

    /// A stable hash of every field, for deterministic per-decision seeds.
    pub fn fingerprint(&self) -> u64 {
        fn play(h: &mut StableHasher, p: Option<Play>) {
            match p {
                None => h.bytes(&[0]),
                Some(p) => h.bytes(&[1, p.rank().get(), p.naturals(), p.jesters()]),
            };
        }
        let mut h = StableHasher::new();
        h.bytes(b"dalmuti-view-v1");
        h.u64(self.seat as u64);
        h.bytes(&[match self.phase {
            Phase::Play => 0,
            Phase::TaxReturn => 1,
            Phase::Revolution => 2,
        }]);
        h.bytes(&self.hand.counts());
        play(&mut h, self.table);
        h.u64(self.seats.len() as u64);
        for s in &self.seats {
            h.bytes(&[s.card_count, s.title as u8, u8::from(s.finished)]);
            h.u64(u64::from(s.score));
        }
        h.bytes(&self.played.counts());
        h.u64(self.log.len() as u64);
        for e in &self.log {
            h.u64(e.seat as u64);
            play(
                &mut h,
                match e.action {
                    Action::Pass => None,
                    Action::Play(p) => Some(p),
                },
            );
        }
        h.u64(u64::from(self.hand_number));
        h.u64(u64::from(self.hands_left));
        match self.tax_return {
            None => h.bytes(&[0]),
            Some(t) => h.bytes(&[1, t.count]).u64(t.to as u64),
        };
        match self.revolution {
            None => h.bytes(&[0]),
            Some(r) => h.bytes(&[1, u8::from(r.greater)]).u64(r.seat as u64),
        };
        // Hashed only when present, so views without it keep their fingerprints.
        if let Some(t) = &self.tax_known {
            h.bytes(b"tax-known");
            h.u64(t.with_seat as u64);
            h.bytes(&t.received.counts());
            h.bytes(&t.given.counts());
        }
        h.finish()
    }
}
