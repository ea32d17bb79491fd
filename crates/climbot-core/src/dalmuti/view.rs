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

use super::cards::{Cards, DECK_SIZE, Rank};
use super::plays::Play;
use super::turn::{Action, MAX_PLAYERS, MIN_PLAYERS, Title, TurnState, deal_size};
use crate::bot::StableHasher;
use std::fmt;

/// The decision a view asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Play a set or pass.
    Play,
    /// A Dalmuti gives back cards after receiving taxes.
    TaxReturn,
    /// The holder of both Jesters declares a revolution or not.
    Revolution,
}

/// A play as the wire carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PlayInput {
    /// 1..=12, or 13 for Jesters alone.
    pub rank: u32,
    /// Numbered cards of that rank.
    pub naturals: u32,
    /// Jesters (0..=2).
    pub jesters: u32,
}

impl From<Play> for PlayInput {
    fn from(p: Play) -> Self {
        PlayInput {
            rank: u32::from(p.rank().get()),
            naturals: u32::from(p.naturals()),
            jesters: u32::from(p.jesters()),
        }
    }
}

/// A multiset of cards as the wire carries it: 13 counts, index `r - 1` for rank `r`,
/// index 12 for Jesters.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CardsInput {
    /// The counts.
    pub counts: Vec<u32>,
}

impl From<Cards> for CardsInput {
    fn from(c: Cards) -> Self {
        CardsInput {
            counts: c.counts().iter().map(|&x| u32::from(x)).collect(),
        }
    }
}

/// One seat as the wire carries it; seats are listed in turn order from the GD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInput {
    /// Cards in the seat's hand.
    pub card_count: u32,
    /// The seat's title (must match its position).
    pub title: Title,
    /// True once the seat went out this hand.
    pub finished: bool,
    /// The player's match score so far, including points for going out this hand.
    pub score: u32,
}

/// One entry of the public log of this hand's play phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntryInput {
    /// The seat that acted.
    pub seat: u32,
    /// The set played, or `None` for a pass.
    pub play: Option<PlayInput>,
}

/// What a Dalmuti owes back in the tax-return phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaxReturnInput {
    /// Cards to give back (2 for the GD, 1 for the LD).
    pub count: u32,
    /// The seat that receives them (the GP or the LP).
    pub to: u32,
}

/// A revolution declared this hand (public: the declarer showed both Jesters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RevolutionInput {
    /// The declarer's seat in the current seating (after a Greater Revolution the
    /// declarer is the new GD, seat 0).
    pub seat: u32,
    /// True for a Greater Revolution (declared by the GP; titles mirrored).
    pub greater: bool,
}

/// This hand's taxes as the deciding seat knows them, as the wire carries them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxKnownInput {
    /// The other seat of the tax pair.
    pub with_seat: u32,
    /// The cards received from `with_seat`.
    pub received: CardsInput,
    /// The cards given to `with_seat`.
    pub given: CardsInput,
}

/// The unchecked view, field for field what a wire message carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DalmutiViewInput {
    /// The deciding seat.
    pub seat: u32,
    /// The decision asked for.
    pub phase: Phase,
    /// The deciding seat's hand.
    pub hand: CardsInput,
    /// The top play of the current trick; `None` when the seat leads (and outside the
    /// play phase).
    pub table: Option<PlayInput>,
    /// Every seat in turn order, seat 0 = GD.
    pub seats: Vec<SeatInput>,
    /// Cards played this hand, per rank, Jesters at index 12.
    pub played: CardsInput,
    /// The public log of this hand's plays and passes, oldest first.
    pub log: Vec<LogEntryInput>,
    /// This hand's number in the match, from 1.
    pub hand_number: u32,
    /// Hands still to be played after this one.
    pub hands_left: u32,
    /// In the tax-return phase: what is owed, to whom.
    pub tax_return: Option<TaxReturnInput>,
    /// A revolution declared this hand, if any.
    pub revolution: Option<RevolutionInput>,
    /// This hand's taxes as the seat knows them; `None` when nothing is known.
    pub tax_known: Option<TaxKnownInput>,
}

/// Why an input is not a view: the exact field and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError {
    /// The field path, e.g. `hand.counts[3]`, `seats[2].card_count`, `log[4]`.
    pub field: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ViewError {}

fn err<T>(field: impl Into<String>, reason: impl Into<String>) -> Result<T, ViewError> {
    Err(ViewError {
        field: field.into(),
        reason: reason.into(),
    })
}

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

/// The tax partner of `title` and the number of cards each side hands over, or `None`
/// for a seat that takes no part in the taxes (a Merchant).
pub fn tax_pair(title: Title) -> Option<(Title, u32)> {
    match title {
        Title::GreaterDalmuti => Some((Title::GreaterPeon, 2)),
        Title::GreaterPeon => Some((Title::GreaterDalmuti, 2)),
        Title::LesserDalmuti => Some((Title::LesserPeon, 1)),
        Title::LesserPeon => Some((Title::LesserDalmuti, 1)),
        Title::Merchant => None,
    }
}

/// Per rank, `a - b` floored at 0.
fn saturating_difference(a: Cards, b: Cards) -> Cards {
    let mut out = a.counts();
    for (o, x) in out.iter_mut().zip(b.counts()) {
        *o = o.saturating_sub(x);
    }
    Cards::from_counts(out).expect("at most a's counts")
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

fn parse_cards(input: &CardsInput, name: &str) -> Result<Cards, ViewError> {
    if input.counts.len() != 13 {
        return err(
            format!("{name}.counts"),
            format!(
                "expected 13 counts (ranks 1..12, then Jesters), got {}",
                input.counts.len()
            ),
        );
    }
    let mut counts = [0u8; 13];
    for (i, (&c, out)) in input.counts.iter().zip(counts.iter_mut()).enumerate() {
        let max = Cards::FULL_DECK.counts()[i];
        if c > u32::from(max) {
            return err(
                format!("{name}.counts[{i}]"),
                format!("{c} cards, but the deck holds {max} of {}", rank_name(i)),
            );
        }
        *out = c as u8;
    }
    Ok(Cards::from_counts(counts).expect("counts checked against the deck"))
}

fn rank_name(index: usize) -> String {
    if index == 12 {
        "Jesters".to_string()
    } else {
        format!("rank {}", index + 1)
    }
}

fn parse_play(input: &PlayInput, field: &str) -> Result<Play, ViewError> {
    let rank = u8::try_from(input.rank)
        .ok()
        .and_then(Rank::new)
        .ok_or_else(|| ViewError {
            field: field.to_string(),
            reason: format!("rank {} is not in 1..=13", input.rank),
        })?;
    let small = |x: u32| u8::try_from(x).unwrap_or(u8::MAX);
    Play::new(rank, small(input.naturals), small(input.jesters)).map_err(|e| ViewError {
        field: field.to_string(),
        reason: format!(
            "rank {} with {} naturals and {} Jesters: {e}",
            input.rank, input.naturals, input.jesters
        ),
    })
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
        let players = input.seats.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return err(
                "seats",
                format!("{players} seats; {MIN_PLAYERS} to {MAX_PLAYERS} are supported"),
            );
        }
        let me = input.seat as usize;
        if me >= players {
            return err("seat", format!("seat {me} with only {players} seats"));
        }
        let hand = parse_cards(&input.hand, "hand")?;
        let played = parse_cards(&input.played, "played")?;
        for i in 0..13 {
            let (h, p) = (hand.counts()[i], played.counts()[i]);
            let max = Cards::FULL_DECK.counts()[i];
            if h + p > max {
                return err(
                    format!("hand.counts[{i}]"),
                    format!(
                        "{h} in hand and {p} played, but the deck holds {max} of {}",
                        rank_name(i)
                    ),
                );
            }
        }
        if input.hand_number == 0 {
            return err("hand_number", "hands are numbered from 1");
        }
        let mut seats = Vec::with_capacity(players);
        for (i, s) in input.seats.iter().enumerate() {
            let title = Title::of_seat(i, players);
            if s.title != title {
                return err(
                    format!("seats[{i}].title"),
                    format!("seat {i} of {players} is {title}, not {}", s.title),
                );
            }
            if s.card_count > u32::from(DECK_SIZE) {
                return err(
                    format!("seats[{i}].card_count"),
                    format!("{} cards, more than the deck", s.card_count),
                );
            }
            if s.finished != (s.card_count == 0) {
                return err(
                    format!("seats[{i}].finished"),
                    format!(
                        "finished is {} with {} cards in hand",
                        s.finished, s.card_count
                    ),
                );
            }
            let max_score = players as u64 * u64::from(input.hand_number);
            if u64::from(s.score) > max_score {
                return err(
                    format!("seats[{i}].score"),
                    format!(
                        "{} points, more than {max_score} possible by hand {}",
                        s.score, input.hand_number
                    ),
                );
            }
            seats.push(SeatInfo {
                card_count: s.card_count as u8,
                title,
                finished: s.finished,
                score: s.score,
            });
        }
        if u32::from(seats[me].card_count) != hand.len() {
            return err(
                format!("seats[{me}].card_count"),
                format!(
                    "{} cards, but the hand holds {}",
                    seats[me].card_count,
                    hand.len()
                ),
            );
        }
        let unseen = u32::from(DECK_SIZE) - hand.len() - played.len();
        let others: u32 = (0..players)
            .filter(|&i| i != me)
            .map(|i| u32::from(seats[i].card_count))
            .sum();
        if others != unseen {
            return err(
                "seats",
                format!(
                    "the other seats hold {others} cards, but {unseen} are unseen by seat {me}"
                ),
            );
        }
        let table = match &input.table {
            Some(t) => Some(parse_play(t, "table")?),
            None => None,
        };
        let mut log = Vec::with_capacity(input.log.len());
        for (i, e) in input.log.iter().enumerate() {
            if e.seat as usize >= players {
                return err(
                    format!("log[{i}].seat"),
                    format!("seat {} with only {players} seats", e.seat),
                );
            }
            let action = match &e.play {
                Some(p) => Action::Play(parse_play(p, &format!("log[{i}].play"))?),
                None => Action::Pass,
            };
            log.push(LogEntry {
                seat: e.seat as usize,
                action,
            });
        }
        let revolution = match input.revolution {
            None => None,
            Some(r) => {
                let seat = r.seat as usize;
                if seat >= players {
                    return err(
                        "revolution.seat",
                        format!("seat {seat} with only {players} seats"),
                    );
                }
                if r.greater && seat != 0 {
                    return err(
                        "revolution",
                        "after a Greater Revolution the declarer (the old GP) is the GD, seat 0",
                    );
                }
                if !r.greater && seat == players - 1 {
                    return err(
                        "revolution",
                        "a revolution by the GP is always a Greater Revolution",
                    );
                }
                let jesters = hand.jesters();
                if seat == me && jesters + played.jesters() != 2 {
                    return err(
                        "hand.counts[12]",
                        format!(
                            "this seat declared with both Jesters but holds {jesters} and {} were played",
                            played.jesters()
                        ),
                    );
                }
                if seat != me && jesters != 0 {
                    return err(
                        "hand.counts[12]",
                        format!(
                            "seat {seat} declared with both Jesters, yet this hand holds {jesters}"
                        ),
                    );
                }
                Some(Revolution {
                    seat,
                    greater: r.greater,
                })
            }
        };
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

    fn check_pre_play(&self) -> Result<(), ViewError> {
        if self.table.is_some() {
            return err("table", "no table before the play phase");
        }
        if !self.log.is_empty() {
            return err("log", "no plays before the play phase");
        }
        if !self.played.is_empty() {
            return err("played.counts", "no cards are played before the play phase");
        }
        Ok(())
    }

    fn check_revolution_phase(&self) -> Result<(), ViewError> {
        if self.hand.jesters() != 2 {
            return err(
                "hand.counts[12]",
                format!(
                    "only the holder of both Jesters decides a revolution; this hand has {}",
                    self.hand.jesters()
                ),
            );
        }
        if self.tax_return.is_some() {
            return err("tax_return", "present in the revolution phase");
        }
        if self.revolution.is_some() {
            return err(
                "revolution",
                "already declared, yet a revolution is still asked for",
            );
        }
        self.check_pre_play()?;
        let players = self.players();
        for (i, s) in self.seats.iter().enumerate() {
            let dealt = deal_size(i, players);
            if s.card_count != dealt {
                return err(
                    format!("seats[{i}].card_count"),
                    format!(
                        "{} cards right after the deal, but seat {i} is dealt {dealt}",
                        s.card_count
                    ),
                );
            }
        }
        Ok(())
    }

    fn check_tax_phase(&self) -> Result<(), ViewError> {
        let players = self.players();
        let Some(duty) = self.tax_return else {
            return err("tax_return", "missing in the tax-return phase");
        };
        if self.hand_number < 2 {
            return err("hand_number", "no taxes in the first hand");
        }
        if self.revolution.is_some() {
            return err("revolution", "no taxes after a revolution");
        }
        let expected = match self.seat {
            0 => (2, players - 1),
            1 => (1, players - 2),
            s => {
                return err(
                    "seat",
                    format!("seat {s} ({}) returns no taxes", self.seats[s].title),
                );
            }
        };
        if (duty.count, duty.to) != expected {
            return err(
                "tax_return",
                format!(
                    "seat {} owes {} cards to seat {}, not {} to seat {}",
                    self.seat, expected.0, expected.1, duty.count, duty.to
                ),
            );
        }
        self.check_pre_play()?;
        // Gifts are made first (GP 2 to GD, LP 1 to LD), then the GD returns, then the
        // LD; the LD's view may show the GD's return done or not yet.
        let gd_done = self.seat == 1 && self.seats[0].card_count == deal_size(0, players);
        for (i, s) in self.seats.iter().enumerate() {
            let dealt = i32::from(deal_size(i, players));
            let delta = match i {
                0 if !gd_done => 2,
                1 => 1,
                x if x == players - 2 => -1,
                x if x == players - 1 && !gd_done => -2,
                _ => 0,
            };
            if i32::from(s.card_count) != dealt + delta {
                return err(
                    format!("seats[{i}].card_count"),
                    format!(
                        "{} cards, but after the deal and taxes seat {i} holds {}",
                        s.card_count,
                        dealt + delta
                    ),
                );
            }
        }
        Ok(())
    }

    fn check_play_phase(&mut self) -> Result<(), ViewError> {
        if self.tax_return.is_some() {
            return err("tax_return", "present in the play phase");
        }
        if self.hand.is_empty() {
            return err("hand", "empty in the play phase: this seat has gone out");
        }
        let players = self.players();
        let mut played_by = [0u32; MAX_PLAYERS];
        let mut log_cards = Cards::EMPTY;
        for (i, e) in self.log.iter().enumerate() {
            if let Action::Play(p) = e.action {
                played_by[e.seat] += u32::from(p.size());
                if !(log_cards.union(p.cards()))
                    .counts()
                    .iter()
                    .zip(Cards::FULL_DECK.counts())
                    .all(|(a, b)| *a <= b)
                {
                    return err(
                        format!("log[{i}].play"),
                        "the log plays more cards of this rank than the deck holds",
                    );
                }
                log_cards = log_cards.union(p.cards());
                if let Some(r) = self.revolution
                    && r.seat != e.seat
                    && p.jesters() > 0
                {
                    return err(
                        format!("log[{i}].play"),
                        format!(
                            "seat {} plays a Jester, but seat {} showed both",
                            e.seat, r.seat
                        ),
                    );
                }
            }
        }
        if log_cards != self.played {
            return err(
                "log",
                format!(
                    "the logged plays add up to {log_cards:?}, but played is {:?}",
                    self.played
                ),
            );
        }
        let greater = self.revolution.is_some_and(|r| r.greater);
        let mut start = [0u8; MAX_PLAYERS];
        for i in 0..players {
            // After a Greater Revolution the seating is mirrored and hands move with
            // their players, so seat i holds what seat P-1-i was dealt.
            let dealt = deal_size(if greater { players - 1 - i } else { i }, players);
            let total = u32::from(self.seats[i].card_count) + played_by[i];
            if total != u32::from(dealt) {
                return err(
                    format!("seats[{i}].card_count"),
                    format!(
                        "{} cards in hand and {} played in the log, but the seat started with {dealt}",
                        self.seats[i].card_count, played_by[i]
                    ),
                );
            }
            start[i] = dealt;
        }
        let mut turn = TurnState::new(&start[..players]);
        for (i, e) in self.log.iter().enumerate() {
            if turn.is_over() {
                return err(format!("log[{i}]"), "the hand was already over");
            }
            if e.seat != turn.to_act() {
                return err(
                    format!("log[{i}].seat"),
                    format!(
                        "seat {} acted, but it was seat {}'s turn",
                        e.seat,
                        turn.to_act()
                    ),
                );
            }
            if let Err(t) = turn.apply(e.action) {
                return err(format!("log[{i}]"), t.to_string());
            }
        }
        if turn.is_over() {
            return err("log", "the hand is over: only one seat holds cards");
        }
        if turn.to_act() != self.seat {
            return err(
                "seat",
                format!(
                    "it is seat {}'s turn, not seat {}'s",
                    turn.to_act(),
                    self.seat
                ),
            );
        }
        if turn.table() != self.table {
            return err(
                "table",
                format!(
                    "the log leaves {:?} on the table, not {:?}",
                    turn.table(),
                    self.table
                ),
            );
        }
        self.turn = Some(turn);
        Ok(())
    }

    /// Validates the tax knowledge (field names under `tax_known`); called once the
    /// rest of the view is checked.
    fn check_tax_known(&self, t: &TaxKnownInput) -> Result<TaxKnown, ViewError> {
        const NAME: &str = "tax_known";
        if self.hand_number < 2 || self.revolution.is_some() || self.phase == Phase::Revolution {
            return err(
                NAME,
                "no taxes in this hand (they need hand_number >= 2, no revolution, and the tax-return or play phase)",
            );
        }
        let title = self.title();
        let Some((partner_title, count)) = tax_pair(title) else {
            return err(NAME, format!("a {title} takes no part in the taxes"));
        };
        let players = self.players();
        let with_seat = t.with_seat as usize;
        if with_seat >= players {
            return err(
                format!("{NAME}.with_seat"),
                format!("seat {with_seat} with only {players} seats"),
            );
        }
        if with_seat == self.seat {
            return err(format!("{NAME}.with_seat"), "the bot's own seat");
        }
        if self.seats[with_seat].title != partner_title {
            return err(
                format!("{NAME}.with_seat"),
                format!(
                    "seat {with_seat} is the {}; the {title} pays or receives taxes with the {partner_title}",
                    self.seats[with_seat].title
                ),
            );
        }
        let received_name = format!("{NAME}.received");
        let given_name = format!("{NAME}.given");
        let received = parse_cards(&t.received, &received_name)?;
        let given = parse_cards(&t.given, &given_name)?;
        if received.len() != count {
            return err(
                received_name,
                format!("{} cards; the {title} receives {count}", received.len()),
            );
        }
        let given_count = match self.phase {
            Phase::TaxReturn => 0,
            _ => count,
        };
        if given.len() != given_count {
            let when = if self.phase == Phase::TaxReturn {
                " before choosing what it gives back"
            } else {
                ""
            };
            return err(
                given_name,
                format!(
                    "{} cards; the {title} has given {given_count}{when}",
                    given.len()
                ),
            );
        }
        // The Dalmutis receive first (and may give back what they received); the
        // Peons give first (and may get back a rank they gave).
        let receives_first = matches!(title, Title::GreaterDalmuti | Title::LesserDalmuti);
        let mine = self.played_by(self.seat);
        let (hand, deck) = (self.hand.counts(), Cards::FULL_DECK.counts());
        let (rc, gc, mc) = (received.counts(), given.counts(), mine.counts());
        for i in 0..13 {
            let passed_on = if receives_first { gc[i] } else { 0 };
            if rc[i] > hand[i] + mc[i] + passed_on {
                return err(
                    format!("{received_name}.counts[{i}]"),
                    format!(
                        "{} of {} received, but this seat holds {} and played {}",
                        rc[i],
                        rank_name(i),
                        hand[i],
                        mc[i]
                    ),
                );
            }
            let back = if receives_first { 0 } else { rc[i] };
            if gc[i] > deck[i] - hand[i] - mc[i] + back {
                return err(
                    format!("{given_name}.counts[{i}]"),
                    format!(
                        "{} of {} given away, but this seat holds {} and played {} of the {}",
                        gc[i],
                        rank_name(i),
                        hand[i],
                        mc[i],
                        deck[i]
                    ),
                );
            }
        }
        let known = TaxKnown {
            with_seat,
            received,
            given,
        };
        let held = self.known_held_by(&known);
        let room = self.seats[with_seat].card_count;
        if held.len() > u32::from(room) {
            return err(
                given_name,
                format!(
                    "{} given cards neither played by seat {with_seat} nor given back, but it holds {room}",
                    held.len()
                ),
            );
        }
        if !self.unseen().is_superset(held) {
            return err(
                given_name,
                format!(
                    "seat {with_seat} must still hold {held:?}, more than the unseen {:?}",
                    self.unseen()
                ),
            );
        }
        Ok(known)
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

    /// The cards the tax knowledge places in the partner's hand: those given to it,
    /// minus what it gave back (for a Peon) and what it played since.
    fn known_held_by(&self, t: &TaxKnown) -> Cards {
        let back = if matches!(self.title(), Title::GreaterPeon | Title::LesserPeon) {
            t.received
        } else {
            Cards::EMPTY
        };
        saturating_difference(
            saturating_difference(t.given, back),
            self.played_by(t.with_seat),
        )
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
