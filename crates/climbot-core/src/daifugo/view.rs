//! What one seat may see, built only through a validating constructor.
//!
//! [`DaifugoViewInput`] mirrors a wire message: plain integers and lists, unchecked.
//! [`DaifugoView::new`] turns it into a [`DaifugoView`] or a [`ViewError`] naming the
//! exact field at fault (`hand[2]`, `table.cards[1].declared`, `seats[3].card_count`).

use super::cards::{Card, CardSet};
use super::moves::Trick;
use super::plays::{Declaration, Play, PlayKind};
use super::rules::{RuleSet, Title};
use crate::bot::StableHasher;
use std::fmt;

/// The decision a view asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhaseInput {
    /// Play or pass.
    Play,
    /// Give back `give` cards after receiving the tribute (daifugo 2, fugo 1).
    Exchange {
        /// Number of cards to give back.
        give: u32,
    },
}

/// One card of the table as sent on the wire: the card id and, for a joker inside a
/// group or sequence, the declared card id (a natural card, or an imaginary card past a
/// sequence's end: [`Declaration::id`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCardInput {
    /// Card id (0..52 natural, 52/53 jokers).
    pub card: u32,
    /// The card a joker stands for (`None` for naturals, the lone joker, the joker pair
    /// and the joker of a group of five).
    pub declared: Option<u32>,
}

/// The table as sent on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInput {
    /// The seat that made the top play.
    pub owner: u32,
    /// The play's type.
    pub kind: PlayKind,
    /// The play's cards.
    pub cards: Vec<TableCardInput>,
}

/// One seat's public state as sent on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInput {
    /// Cards in hand.
    pub card_count: u32,
    /// Title for this game (everyone heimin in game 1).
    pub title: Title,
    /// Locked out of the current trick by a pass.
    pub passed: bool,
    /// Out of the game (finished, fouled or removed by miyako-ochi).
    pub finished: bool,
}

/// One public log entry of the current game: a seat's play (card ids) or pass (empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntryInput {
    /// The acting seat.
    pub seat: u32,
    /// The cards played; empty for a pass.
    pub cards: Vec<u32>,
}

/// This game's exchange as the deciding seat knows it, as sent on the wire (card ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExchangeInput {
    /// The other seat of the exchange pair.
    pub with_seat: u32,
    /// The cards received from `with_seat`.
    pub received: Vec<u32>,
    /// The cards given to `with_seat`.
    pub given: Vec<u32>,
}

/// The unchecked view of one seat, mirroring a wire message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DaifugoViewInput {
    /// The rule set of the table.
    pub rules: RuleSet,
    /// The seat to decide (seats are numbered in turn order).
    pub seat: u32,
    /// Game number within the match, from 1.
    pub game: u32,
    /// The decision asked for.
    pub phase: PhaseInput,
    /// The seat's own cards.
    pub hand: Vec<u32>,
    /// The top play, or `None` on an empty table.
    pub table: Option<TableInput>,
    /// Revolution flag.
    pub revolution: bool,
    /// J-back flag.
    pub jack_back: bool,
    /// Locked suit set, bit = suit (♠ 1, ♥ 2, ♦ 4, ♣ 8), 0 when unlocked.
    pub lock: u32,
    /// Every seat in turn order, the deciding seat included.
    pub seats: Vec<SeatInput>,
    /// Every card played this game.
    pub played: Vec<u32>,
    /// Cards discarded face down by miyako-ochi this game (unseen by everyone).
    pub removed_unseen: u32,
    /// The public log of this game's plays and passes, oldest first.
    pub log: Vec<LogEntryInput>,
    /// This game's exchange as the seat knows it; `None` when nothing is known.
    pub exchange: Option<ExchangeInput>,
}

/// A field-specific validation error: Display is `"{field}: {reason}"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError {
    /// The offending field (`hand[2]`, `table.cards[1].declared`, `lock`, ...).
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

/// The exchange partner of `title` and the number of cards each side hands over, or
/// `None` for a seat that takes no part in the exchange.
pub fn exchange_pair(title: Title) -> Option<(Title, usize)> {
    match title {
        Title::Daifugo => Some((Title::Daihinmin, 2)),
        Title::Daihinmin => Some((Title::Daifugo, 2)),
        Title::Fugo => Some((Title::Hinmin, 1)),
        Title::Hinmin => Some((Title::Fugo, 1)),
        Title::Heimin => None,
    }
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

fn parse_card(id: u32, deck: CardSet, field: &str) -> Result<Card, ViewError> {
    match u8::try_from(id).ok().and_then(Card::from_id) {
        Some(card) if deck.contains(card) => Ok(card),
        // The only cards a deck can lack are jokers beyond `rules.jokers`.
        Some(card) => err(
            field,
            format!(
                "{card} is not in this game's deck of {} cards (see rules.jokers)",
                deck.len()
            ),
        ),
        None => err(
            field,
            format!("card id {id} is not in a deck of {} cards", deck.len()),
        ),
    }
}

fn parse_cards(ids: &[u32], deck: CardSet, name: &str) -> Result<CardSet, ViewError> {
    let mut set = CardSet::EMPTY;
    for (i, &id) in ids.iter().enumerate() {
        let field = format!("{name}[{i}]");
        let card = parse_card(id, deck, &field)?;
        if set.contains(card) {
            let first = ids.iter().position(|&x| x == id).unwrap_or(0);
            return err(field, format!("duplicate of {name}[{first}] ({card})"));
        }
        set.insert(card);
    }
    Ok(set)
}

/// How many seats hold each title, for `players` seats in game `game`.
fn title_quota(players: usize, game: u32) -> [usize; 5] {
    let mut quota = [0usize; 5];
    if game <= 1 {
        quota[Title::Heimin as usize] = players;
    } else {
        for place in 1..=players {
            quota[Title::for_place(place, players) as usize] += 1;
        }
    }
    quota
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
            return err(format!("rules.{field}"), reason);
        }
        let deck = CardSet::deck(rules.jokers);
        let players = input.seats.len();
        if !(3..=7).contains(&players) {
            return err("seats", format!("{players} seats; 3..=7 supported"));
        }
        let seat = input.seat as usize;
        if seat >= players {
            return err("seat", format!("seat {seat} of {players}"));
        }
        if input.game == 0 {
            return err("game", "games are numbered from 1");
        }
        let hand = parse_cards(&input.hand, deck, "hand")?;
        let played = parse_cards(&input.played, deck, "played")?;
        for (i, &id) in input.played.iter().enumerate() {
            let card = Card::from_id(id as u8).expect("checked");
            if hand.contains(card) {
                return err(format!("played[{i}]"), format!("{card} is also in hand"));
            }
        }

        // Seats: titles, counts, flags.
        let quota = title_quota(players, input.game);
        let mut seen = [0usize; 5];
        let mut seats = Vec::with_capacity(players);
        for (i, s) in input.seats.iter().enumerate() {
            let t = s.title as usize;
            seen[t] += 1;
            if seen[t] > quota[t] {
                return err(
                    format!("seats[{i}].title"),
                    format!(
                        "{} {:?} titles with {players} seats in game {}",
                        seen[t], s.title, input.game
                    ),
                );
            }
            if s.finished && s.card_count != 0 {
                return err(
                    format!("seats[{i}].card_count"),
                    format!("{} cards for a seat out of the game", s.card_count),
                );
            }
            if !s.finished && s.card_count == 0 {
                return err(
                    format!("seats[{i}].card_count"),
                    "an active seat holds at least one card",
                );
            }
            if s.finished && s.passed {
                return err(
                    format!("seats[{i}].passed"),
                    "a seat out of the game cannot pass",
                );
            }
            seats.push(SeatView {
                card_count: s.card_count as usize,
                title: s.title,
                passed: s.passed,
                finished: s.finished,
            });
        }
        if seats[seat].card_count != hand.len() {
            return err(
                format!("seats[{seat}].card_count"),
                format!(
                    "{} but the hand holds {}",
                    seats[seat].card_count,
                    hand.len()
                ),
            );
        }
        let removed_unseen = input.removed_unseen as usize;
        if removed_unseen > 0 && !(rules.miyako_ochi && input.game >= 2) {
            return err(
                "removed_unseen",
                "cards are discarded unseen only by miyako-ochi, from game 2",
            );
        }
        let total: usize =
            seats.iter().map(|s| s.card_count).sum::<usize>() + played.len() + removed_unseen;
        if total != deck.len() {
            return err(
                "seats",
                format!(
                    "card counts ({}) + played ({}) + removed unseen ({removed_unseen}) = {total}, \
                     the deck has {}",
                    total - played.len() - removed_unseen,
                    played.len(),
                    deck.len()
                ),
            );
        }
        let active = seats.iter().filter(|s| !s.finished).count();

        // Lock and flags are range-checked before the phase rules.
        if input.lock > 0xF {
            return err(
                "lock",
                format!("suit mask {} out of range 0..=15", input.lock),
            );
        }
        let lock = input.lock as u8;

        // The log: seats in range, each played card exactly once, union = played.
        let mut log = Vec::with_capacity(input.log.len());
        let mut logged = CardSet::EMPTY;
        for (i, entry) in input.log.iter().enumerate() {
            if entry.seat as usize >= players {
                return err(
                    format!("log[{i}].seat"),
                    format!("seat {} of {players}", entry.seat),
                );
            }
            let cards = if entry.cards.is_empty() {
                None
            } else {
                let name = format!("log[{i}].cards");
                let set = parse_cards(&entry.cards, deck, &name)?;
                for (j, card) in set.iter().enumerate() {
                    if logged.contains(card) {
                        return err(format!("{name}[{j}]"), format!("{card} was logged earlier"));
                    }
                }
                logged = logged.union(set);
                Some(set)
            };
            log.push(LogEntry {
                seat: entry.seat as usize,
                cards,
            });
        }
        if let Some(card) = logged.difference(played).first() {
            return err(
                "log",
                format!("{card} is logged but not among played cards"),
            );
        }
        if let Some(card) = played.difference(logged).first() {
            let i = input
                .played
                .iter()
                .position(|&id| id == u32::from(card.id()));
            return err(
                format!("played[{}]", i.unwrap_or(0)),
                format!("{card} is not in the log"),
            );
        }

        let phase = match input.phase {
            PhaseInput::Exchange { give } => {
                if !rules.exchange || input.game < 2 {
                    return err("phase", "no exchange in this game");
                }
                let expected = match seats[seat].title {
                    Title::Daifugo => 2,
                    Title::Fugo => 1,
                    other => {
                        return err("phase", format!("a {other:?} does not give cards back"));
                    }
                };
                if give != expected {
                    return err(
                        "phase.give",
                        format!("{give}; the {:?} gives back {expected}", seats[seat].title),
                    );
                }
                if input.table.is_some() {
                    return err("table", "the table is empty during the exchange");
                }
                if let Some(i) = input.played.first().map(|_| 0) {
                    return err(
                        format!("played[{i}]"),
                        "nothing is played during the exchange",
                    );
                }
                if !input.log.is_empty() {
                    return err("log", "the log is empty during the exchange");
                }
                if input.revolution {
                    return err("revolution", "each game starts in the normal order");
                }
                if input.jack_back {
                    return err("jack_back", "no J-back during the exchange");
                }
                if lock != 0 {
                    return err("lock", "no lock during the exchange");
                }
                if removed_unseen != 0 {
                    return err("removed_unseen", "nothing is removed during the exchange");
                }
                for (i, s) in seats.iter().enumerate() {
                    if s.passed {
                        return err(
                            format!("seats[{i}].passed"),
                            "no passes during the exchange",
                        );
                    }
                    if s.finished {
                        return err(
                            format!("seats[{i}].finished"),
                            "nobody is out during the exchange",
                        );
                    }
                }
                Phase::Exchange {
                    give: expected as usize,
                }
            }
            PhaseInput::Play => {
                if active < 2 {
                    return err("seats", "the game is over (fewer than two active seats)");
                }
                if seats[seat].finished {
                    return err(
                        format!("seats[{seat}].finished"),
                        "the deciding seat is out",
                    );
                }
                if seats[seat].passed {
                    return err(
                        format!("seats[{seat}].passed"),
                        "the deciding seat is locked out of this trick",
                    );
                }
                Phase::Play
            }
        };

        // The table.
        let table = match &input.table {
            None => None,
            Some(t) => {
                let owner = t.owner as usize;
                if owner >= players {
                    return err("table.owner", format!("seat {owner} of {players}"));
                }
                if t.cards.is_empty() {
                    return err("table.cards", "an empty play");
                }
                let mut cards = CardSet::EMPTY;
                let mut declared = Vec::new();
                let mut joker_fields = Vec::new();
                for (i, tc) in t.cards.iter().enumerate() {
                    let field = format!("table.cards[{i}].card");
                    let card = parse_card(tc.card, deck, &field)?;
                    if cards.contains(card) {
                        return err(field, format!("duplicate {card}"));
                    }
                    if !played.contains(card) {
                        return err(field, format!("{card} is not among played cards"));
                    }
                    cards.insert(card);
                    match (card.is_joker(), tc.declared) {
                        (false, Some(_)) => {
                            return err(
                                format!("table.cards[{i}].declared"),
                                "only a joker carries a declaration",
                            );
                        }
                        (true, Some(d)) => {
                            let dfield = format!("table.cards[{i}].declared");
                            let declaration = match Declaration::from_id(d) {
                                Some(Declaration::Card(c)) if c.is_joker() => {
                                    return err(dfield, format!("{d} is not a natural card id"));
                                }
                                Some(declaration) => declaration,
                                None => {
                                    return err(
                                        dfield,
                                        format!(
                                            "{d} is neither a natural card id nor an imaginary card past a sequence's end"
                                        ),
                                    );
                                }
                            };
                            if declaration.is_past_an_end() && !rules.joker_past_sequence_ends {
                                return err(
                                    dfield,
                                    format!(
                                        "declares {declaration}, past an end of a sequence, which needs the rule joker_past_sequence_ends"
                                    ),
                                );
                            }
                            joker_fields.push((card, declaration, dfield));
                            declared.push(declaration);
                        }
                        (true, None) => {
                            joker_fields.push((card, Declaration::Card(Card::JOKER), String::new()))
                        }
                        (false, None) => {}
                    }
                }
                let undeclared = joker_fields.iter().filter(|j| j.2.is_empty()).count();
                let joker_only = cards.naturals().is_empty();
                // Four of a kind and an undeclared joker: a group of five.
                let naturals = cards.naturals();
                let five = t.kind == PlayKind::Group
                    && naturals.len() == 4
                    && cards.joker_count() == 1
                    && undeclared == 1
                    && naturals
                        .first()
                        .and_then(Card::rank)
                        .is_some_and(|rank| naturals.suits_of_rank(rank) == 0xF);
                if five && !rules.group_of_five {
                    return err(
                        "table.cards",
                        "a group of five needs the rule group_of_five",
                    );
                }
                if !joker_only && !five && undeclared > 0 {
                    let i = t
                        .cards
                        .iter()
                        .position(|tc| tc.card >= 52 && tc.declared.is_none())
                        .unwrap_or(0);
                    return err(
                        format!("table.cards[{i}].declared"),
                        "a joker in a group or sequence must declare its card",
                    );
                }
                // Declarations belong to the jokers in ascending card order.
                joker_fields.sort_by_key(|j| j.0);
                if joker_fields.len() == 2
                    && !joker_fields[1].2.is_empty()
                    && joker_fields[0].1.order_key() > joker_fields[1].1.order_key()
                {
                    return err(
                        joker_fields[0].2.clone(),
                        "declarations are assigned to the jokers in ascending card order",
                    );
                }
                let play = match Play::with_declarations(t.kind, cards, &declared) {
                    Ok(play) => play,
                    Err(e) => {
                        let field = match e.joker {
                            Some(k) => {
                                let mut sorted: Vec<&(Card, Declaration, String)> =
                                    joker_fields.iter().filter(|j| !j.2.is_empty()).collect();
                                sorted.sort_by_key(|j| j.1.order_key());
                                sorted
                                    .get(k)
                                    .map_or("table.cards".to_string(), |j| j.2.clone())
                            }
                            None if joker_only => "table.cards".to_string(),
                            None => "table.kind".to_string(),
                        };
                        return err(field, e.reason);
                    }
                };
                if seats[owner].passed {
                    return err(
                        format!("seats[{owner}].passed"),
                        "the owner of the top play has not passed",
                    );
                }
                match log.iter().rev().find(|e| e.cards.is_some()) {
                    Some(last) if last.cards == Some(cards) && last.seat == owner => {}
                    _ => return err("table", "the top play is not the last play of the log"),
                }
                Some(TableView { play, owner })
            }
        };

        if input.jack_back && !(rules.jack_back && table.is_some()) {
            return err("jack_back", "J-back needs the rule and a play on the table");
        }
        if lock != 0 {
            match &table {
                None => return err("lock", "a lock needs a play on the table"),
                Some(_) if !rules.suit_lock => return err("lock", "suit lock is off"),
                Some(t) if t.play.suits() != lock => {
                    return err(
                        "lock",
                        format!(
                            "suit set {lock:#06b} differs from the top play's {:#06b}",
                            t.play.suits()
                        ),
                    );
                }
                Some(_) => {}
            }
        }
        if table.is_none()
            && !rules.empty_table_pass
            && let Some(i) = seats.iter().position(|s| s.passed)
        {
            return err(
                format!("seats[{i}].passed"),
                "no passes stand on an empty table under these rules",
            );
        }

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
        let ids = |set: CardSet| set.iter().map(|c| u32::from(c.id())).collect::<Vec<_>>();
        DaifugoViewInput {
            rules: self.rules,
            seat: self.seat as u32,
            game: self.game,
            phase: match self.phase {
                Phase::Play => PhaseInput::Play,
                Phase::Exchange { give } => PhaseInput::Exchange { give: give as u32 },
            },
            hand: ids(self.hand),
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
            played: ids(self.played),
            removed_unseen: self.removed_unseen as u32,
            log: self
                .log
                .iter()
                .map(|e| LogEntryInput {
                    seat: e.seat as u32,
                    cards: e.cards.map(ids).unwrap_or_default(),
                })
                .collect(),
            exchange: self.exchange.map(|x| ExchangeInput {
                with_seat: x.with_seat as u32,
                received: ids(x.received),
                given: ids(x.given),
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

/// What [`validate_exchange`] checks the exchange against.
struct ExchangeContext<'a> {
    rules: &'a RuleSet,
    game: u32,
    seat: usize,
    seats: &'a [SeatView],
    phase: Phase,
    deck: CardSet,
    hand: CardSet,
    played: CardSet,
    removed_unseen: usize,
}

/// Validates the exchange knowledge (field names under `exchange_known`).
fn validate_exchange(
    x: &ExchangeInput,
    c: ExchangeContext<'_>,
) -> Result<ExchangeKnown, ViewError> {
    const NAME: &str = "exchange_known";
    if !c.rules.exchange || c.game < 2 {
        return err(
            NAME,
            "no exchange in this game (it needs the exchange rule and game >= 2)",
        );
    }
    let title = c.seats[c.seat].title;
    let Some((partner_title, count)) = exchange_pair(title) else {
        return err(NAME, format!("a {title:?} takes no part in the exchange"));
    };
    let players = c.seats.len();
    let with_seat = x.with_seat as usize;
    if with_seat >= players {
        return err(
            format!("{NAME}.with_seat"),
            format!("seat {with_seat} of {players}"),
        );
    }
    if with_seat == c.seat {
        return err(format!("{NAME}.with_seat"), "the bot's own seat");
    }
    if c.seats[with_seat].title != partner_title {
        return err(
            format!("{NAME}.with_seat"),
            format!(
                "seat {with_seat} is the {:?}; the {title:?} exchanges with the {partner_title:?}",
                c.seats[with_seat].title
            ),
        );
    }
    let received_name = format!("{NAME}.received");
    let given_name = format!("{NAME}.given");
    let received = parse_cards(&x.received, c.deck, &received_name)?;
    let given = parse_cards(&x.given, c.deck, &given_name)?;
    // The daifugo and the fugo receive first; the others give first.
    let receives_first = matches!(title, Title::Daifugo | Title::Fugo);
    if received.len() != count {
        return err(
            received_name,
            format!("{} cards; the {title:?} receives {count}", received.len()),
        );
    }
    let given_count = match c.phase {
        Phase::Exchange { .. } => 0,
        Phase::Play => count,
    };
    if given.len() != given_count {
        let when = match c.phase {
            Phase::Exchange { .. } => " before choosing its give-back",
            Phase::Play => "",
        };
        return err(
            given_name,
            format!(
                "{} cards; the {title:?} has given {given_count}{when}",
                given.len()
            ),
        );
    }
    let id_index = |ids: &[u32], card: Card| {
        ids.iter()
            .position(|&id| id == u32::from(card.id()))
            .unwrap_or(0)
    };
    for card in received.iter() {
        let kept = c.hand.contains(card) || c.played.contains(card);
        let returned = receives_first && given.contains(card);
        if !(kept || returned) {
            return err(
                format!("{received_name}[{}]", id_index(&x.received, card)),
                format!("{card} is neither in hand nor played"),
            );
        }
    }
    for card in given.iter() {
        let back = !receives_first && received.contains(card);
        if c.hand.contains(card) && !back {
            return err(
                format!("{given_name}[{}]", id_index(&x.given, card)),
                format!("{card} was given away but is in hand"),
            );
        }
    }
    // The given cards still out there are held by the partner (or were removed unseen
    // with its hand); a card given and received back is in our hand or played.
    let held = given.difference(c.played).difference(c.hand);
    let partner = &c.seats[with_seat];
    let (room, what) = if partner.finished {
        (c.removed_unseen, "removed_unseen")
    } else {
        (partner.card_count, "its card count")
    };
    if held.len() > room {
        return err(
            given_name,
            format!(
                "{} given cards unplayed but seat {with_seat} has room for {room} ({what})",
                held.len()
            ),
        );
    }
    Ok(ExchangeKnown {
        with_seat,
        received,
        given,
    })
}
