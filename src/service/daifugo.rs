//! Daifugo on the wire: `pb::DaifugoView` -> `daifugo::DaifugoView` and
//! `daifugo::DaifugoDecision` -> `pb::DaifugoDecision`. Only wire shapes are checked here
//! (an enum value outside its enum, a rank out of range, a joker with a suit, a repeated
//! lock suit); every game rule is checked by `DaifugoView::new`, whose field names match
//! the proto's and get the `view.daifugo.` prefix.

use crate::daifugo::bots::is_legal;
use crate::daifugo::cards::{Card, CardSet, RANK_3, RANKS, Suit};
use crate::daifugo::plays::{Declaration, Play, PlayKind};
use crate::daifugo::rules::{FirstLead, RuleSet, Title};
use crate::daifugo::view::{
    DaifugoViewInput, ExchangeInput, LogEntryInput, PhaseInput, PlayCards, SeatInput,
    TableCardInput, TableInput,
};
use crate::daifugo::{Daifugo, DaifugoDecision, DaifugoView};
use crate::game::GameKind;
use crate::pb;
use crate::service::error::ServiceError;
use crate::service::fast_lane::Reader;
use crate::service::game::{WireGame, read_each};

const PREFIX: &str = "view.daifugo";

/// The wire rank of the 3 (rank index 0); the 2 is `WIRE_RANK_3 + 12` = 15.
const WIRE_RANK_3: u32 = 3;

/// A field's path (under `view.daifugo.`), built only for an error.
type FieldPath<'a> = &'a dyn Fn() -> String;

fn invalid(field: impl AsRef<str>, reason: impl Into<String>) -> ServiceError {
    ServiceError::invalid(format!("{PREFIX}.{}", field.as_ref()), reason)
}

/// Converts and validates a wire view.
pub fn decode(view: pb::DaifugoView) -> Result<DaifugoView, ServiceError> {
    validate(view_input(&view)?)
}

/// Validates a view's domain input (read by [`view_input`] or the fast lane).
pub fn validate(input: DaifugoViewInput) -> Result<DaifugoView, ServiceError> {
    DaifugoView::new(input).map_err(ServiceError::invalid_view::<Daifugo>)
}

/// The unchecked domain input of a wire view (wire shapes checked only).
pub fn view_input(view: &pb::DaifugoView) -> Result<DaifugoViewInput, ServiceError> {
    let rules = rules_from_wire(view.rules.as_ref())?;
    let phase = phase_from_wire(view.phase, view.give_back)?;
    let hand = card_ids(&view.hand, &|| "hand".into())?;
    let table = match &view.table {
        None => None,
        Some(t) => Some(TableInput {
            owner: t.owner,
            kind: play_kind(t.kind, &|| "table.kind".into())?,
            cards: read_each(&t.cards, |i, c| {
                play_card(c, &|| format!("table.cards[{i}]"))
            })?,
        }),
    };
    let lock = lock_from_wire(&view.lock)?;
    let seats = read_each(&view.seats, seat_input)?;
    let played = card_ids(&view.played, &|| "played".into())?;
    let log = read_each(&view.log, |i, e| {
        Ok(LogEntryInput {
            seat: e.seat,
            cards: card_ids(&e.cards, &|| format!("log[{i}].cards"))?.into(),
        })
    })?;
    let exchange = match &view.exchange_known {
        None => None,
        Some(x) => Some(ExchangeInput {
            with_seat: x.with_seat,
            received: card_ids(&x.received, &|| "exchange_known.received".into())?,
            given: card_ids(&x.given, &|| "exchange_known.given".into())?,
        }),
    };
    Ok(DaifugoViewInput {
        rules,
        seat: view.seat,
        game: view.game,
        phase,
        hand,
        table,
        revolution: view.revolution,
        jack_back: view.jack_back,
        lock,
        seats,
        played,
        removed_unseen: view.removed_unseen,
        log,
        exchange,
    })
}

/// SelectPlay's fast lane for a Daifugo view (`service::fast_lane`): the view's
/// protobuf bytes read straight into the domain's input, with the same conversions as
/// [`view_input`] (called on each message's fields, read into a stack copy of the wire
/// message), so that what it accepts it reads exactly as prost and [`view_input`]
/// would. It gives up (`None`) at anything else: rules beyond the preset, an unknown
/// field, a wrong wire type, a singular message sent twice (protobuf merges the two),
/// anything [`view_input`] would refuse; prost then reads the request as before, and
/// every error comes from the one validating path.
pub(crate) fn parse_view(mut r: Reader<'_>) -> Option<DaifugoViewInput> {
    let mut preset = None;
    let (mut seat, mut game, mut phase, mut give_back, mut removed_unseen) = (0, 0, 0, 0, 0);
    let (mut revolution, mut jack_back) = (false, false);
    let mut hand = Vec::with_capacity(16);
    let mut table = None;
    let mut lock = Vec::new();
    let mut seats = Vec::with_capacity(5);
    let mut played = Vec::with_capacity(54);
    let mut log = Vec::with_capacity(16);
    let mut exchange = None;
    while r.has_more() {
        let (field, w) = r.key()?;
        // The casts truncate as prost does for these field types.
        match field {
            1 if preset.is_none() => preset = Some(parse_rules(r.bytes_field(w)?)?),
            2 => seat = r.varint_field(w)? as u32,
            3 => game = r.varint_field(w)? as u32,
            4 => phase = r.varint_field(w)? as i32,
            5 => give_back = r.varint_field(w)? as u32,
            6 => hand.push(parse_card(r.bytes_field(w)?)?),
            7 if table.is_none() => table = Some(parse_table(r.bytes_field(w)?)?),
            8 => revolution = r.varint_field(w)? != 0,
            9 => jack_back = r.varint_field(w)? != 0,
            // Packed (the proto3 default) or one value per key: prost takes both.
            10 if w == 0 => lock.push(r.varint()? as i32),
            10 => {
                let mut packed = r.bytes_field(w)?;
                while packed.has_more() {
                    lock.push(packed.varint()? as i32);
                }
            }
            11 => {
                let mut m = r.bytes_field(w)?;
                let mut wire = pb::DaifugoSeat::default();
                while m.has_more() {
                    match m.key()? {
                        (1, w) => wire.card_count = m.varint_field(w)? as u32,
                        (2, w) => wire.title = m.varint_field(w)? as i32,
                        (3, w) => wire.passed = m.varint_field(w)? != 0,
                        (4, w) => wire.finished = m.varint_field(w)? != 0,
                        _ => return None,
                    }
                }
                seats.push(seat_input(seats.len(), &wire).ok()?);
            }
            12 => played.push(parse_card(r.bytes_field(w)?)?),
            13 => removed_unseen = r.varint_field(w)? as u32,
            14 => {
                let mut m = r.bytes_field(w)?;
                let mut entry = LogEntryInput {
                    seat: 0,
                    cards: PlayCards::new(),
                };
                while m.has_more() {
                    match m.key()? {
                        (1, w) => entry.seat = m.varint_field(w)? as u32,
                        (2, w) => entry.cards.push(parse_card(m.bytes_field(w)?)?),
                        _ => return None,
                    }
                }
                log.push(entry);
            }
            15 if exchange.is_none() => {
                let mut m = r.bytes_field(w)?;
                let mut x = ExchangeInput {
                    with_seat: 0,
                    received: Vec::new(),
                    given: Vec::new(),
                };
                while m.has_more() {
                    match m.key()? {
                        (1, w) => x.with_seat = m.varint_field(w)? as u32,
                        (2, w) => x.received.push(parse_card(m.bytes_field(w)?)?),
                        (3, w) => x.given.push(parse_card(m.bytes_field(w)?)?),
                        _ => return None,
                    }
                }
                exchange = Some(x);
            }
            _ => return None,
        }
    }
    let rules = pb::DaifugoRules {
        preset: preset?,
        ..pb::DaifugoRules::default()
    };
    Some(DaifugoViewInput {
        rules: rules_from_wire(Some(&rules)).ok()?,
        seat,
        game,
        phase: phase_from_wire(phase, give_back).ok()?,
        hand,
        table,
        revolution,
        jack_back,
        lock: lock_from_wire(&lock).ok()?,
        seats,
        played,
        removed_unseen,
        log,
        exchange,
    })
}

/// `DaifugoRules` holding its preset alone; `None` for anything more.
fn parse_rules(mut r: Reader<'_>) -> Option<i32> {
    let mut preset = 0;
    while r.has_more() {
        match r.key()? {
            (1, w) => preset = r.varint_field(w)? as i32,
            _ => return None,
        }
    }
    Some(preset)
}

/// One `DaifugoCard` message as the engine's card id; `None` unless it is a card.
fn parse_card(r: Reader<'_>) -> Option<u32> {
    card_id(&parse_wire_card(r)?, &String::new).ok()
}

/// One `DaifugoTable` message; `None` unless [`view_input`] would read it.
fn parse_table(mut r: Reader<'_>) -> Option<TableInput> {
    let (mut owner, mut kind) = (0, 0);
    let mut cards = Vec::with_capacity(4);
    while r.has_more() {
        match r.key()? {
            (1, w) => owner = r.varint_field(w)? as u32,
            (2, w) => kind = r.varint_field(w)? as i32,
            (3, w) => {
                let mut m = r.bytes_field(w)?;
                let mut wire = pb::DaifugoPlayCard::default();
                while m.has_more() {
                    match m.key()? {
                        (1, w) if wire.card.is_none() => {
                            wire.card = Some(parse_wire_card(m.bytes_field(w)?)?);
                        }
                        (2, w) if wire.declared.is_none() => {
                            wire.declared = Some(parse_wire_card(m.bytes_field(w)?)?);
                        }
                        _ => return None,
                    }
                }
                cards.push(play_card(&wire, &String::new).ok()?);
            }
            _ => return None,
        }
    }
    Some(TableInput {
        owner,
        kind: play_kind(kind, &String::new).ok()?,
        cards,
    })
}

/// One `DaifugoCard` message as prost reads it.
fn parse_wire_card(mut r: Reader<'_>) -> Option<pb::DaifugoCard> {
    let mut wire = pb::DaifugoCard::default();
    while r.has_more() {
        match r.key()? {
            (1, w) => wire.rank = r.varint_field(w)? as u32,
            (2, w) => wire.suit = r.varint_field(w)? as i32,
            (3, w) => wire.joker = r.varint_field(w)? as u32,
            _ => return None,
        }
    }
    Some(wire)
}

/// The phase and, in the exchange, the cards to give back.
fn phase_from_wire(phase: i32, give_back: u32) -> Result<PhaseInput, ServiceError> {
    match pb::DaifugoPhase::try_from(phase) {
        Ok(pb::DaifugoPhase::Play) if give_back != 0 => Err(invalid(
            "give_back",
            format!("{give_back} in the PLAY phase; only the exchange gives cards back"),
        )),
        Ok(pb::DaifugoPhase::Play) => Ok(PhaseInput::Play),
        Ok(pb::DaifugoPhase::Exchange) => Ok(PhaseInput::Exchange { give: give_back }),
        Ok(pb::DaifugoPhase::Unspecified) => Err(invalid(
            "phase",
            "phase is unspecified (expected DAIFUGO_PHASE_PLAY or DAIFUGO_PHASE_EXCHANGE)",
        )),
        Err(_) => Err(invalid(
            "phase",
            format!("unknown phase {phase} (expected 1..=2)"),
        )),
    }
}

/// The suits locked, as the domain's bits.
fn lock_from_wire(suits: &[i32]) -> Result<u32, ServiceError> {
    let mut lock = 0u32;
    for (i, &s) in suits.iter().enumerate() {
        let suit = suit(s, &|| format!("lock[{i}]"))?;
        let bit = 1u32 << (suit as u8);
        if lock & bit != 0 {
            return Err(invalid(
                format!("lock[{i}]"),
                format!("{} is listed twice", suit.symbol()),
            ));
        }
        lock |= bit;
    }
    Ok(lock)
}

fn seat_input(i: usize, s: &pb::DaifugoSeat) -> Result<SeatInput, ServiceError> {
    Ok(SeatInput {
        card_count: s.card_count,
        title: title(s.title, &|| format!("seats[{i}].title"))?,
        passed: s.passed,
        finished: s.finished,
    })
}

fn rules_from_wire(wire: Option<&pb::DaifugoRules>) -> Result<RuleSet, ServiceError> {
    let wire = wire.ok_or_else(|| invalid("rules", "required (at least the preset)"))?;
    let mut rules = match pb::DaifugoRulePreset::try_from(wire.preset) {
        Ok(pb::DaifugoRulePreset::House) => RuleSet::house(),
        Ok(pb::DaifugoRulePreset::Uecda) => RuleSet::uecda(),
        Ok(pb::DaifugoRulePreset::Unspecified) => {
            return Err(invalid(
                "rules.preset",
                "preset is unspecified (expected DAIFUGO_RULE_PRESET_HOUSE or DAIFUGO_RULE_PRESET_UECDA)",
            ));
        }
        Err(_) => {
            return Err(invalid(
                "rules.preset",
                format!("unknown preset {} (expected 1..=2)", wire.preset),
            ));
        }
    };
    if let Some(jokers) = wire.jokers {
        // 1..=2 is the domain's check (`rules.jokers`); only the u8 range is wire shape.
        rules.jokers = u8::try_from(jokers)
            .map_err(|_| invalid("rules.jokers", format!("{jokers} jokers; 1 or 2 allowed")))?;
    }
    if let Some(lead) = wire.first_lead {
        rules.first_lead = match pb::DaifugoFirstLead::try_from(lead) {
            Ok(pb::DaifugoFirstLead::Diamond3ThenDaihinmin) => FirstLead::Diamond3ThenDaihinmin,
            Ok(pb::DaifugoFirstLead::Diamond3Always) => FirstLead::Diamond3Always,
            Ok(pb::DaifugoFirstLead::Unspecified) => {
                return Err(invalid(
                    "rules.first_lead",
                    "first_lead is unspecified when set (omit it to keep the preset's)",
                ));
            }
            Err(_) => {
                return Err(invalid(
                    "rules.first_lead",
                    format!("unknown first lead {lead} (expected 1..=2)"),
                ));
            }
        };
    }
    if let Some(min) = wire.sequence_revolution {
        rules.sequence_revolution = match min {
            0 => None,
            min => Some(u8::try_from(min).map_err(|_| {
                invalid(
                    "rules.sequence_revolution",
                    format!("minimum length {min}; 3..=13 allowed"),
                )
            })?),
        };
    }
    let toggles = [
        (wire.empty_table_pass, &mut rules.empty_table_pass),
        (wire.pass_locks_out, &mut rules.pass_locks_out),
        (wire.self_follow, &mut rules.self_follow),
        (wire.exchange, &mut rules.exchange),
        (wire.group_revolution, &mut rules.group_revolution),
        (wire.eight_cut, &mut rules.eight_cut),
        (wire.eight_cut_sequence, &mut rules.eight_cut_sequence),
        (wire.jack_back, &mut rules.jack_back),
        (wire.suit_lock, &mut rules.suit_lock),
        (wire.spade3_beats_joker, &mut rules.spade3_beats_joker),
        (wire.forbidden_finishes, &mut rules.forbidden_finishes),
        (wire.miyako_ochi, &mut rules.miyako_ochi),
        (wire.group_of_five, &mut rules.group_of_five),
        (
            wire.joker_past_sequence_ends,
            &mut rules.joker_past_sequence_ends,
        ),
    ];
    for (value, toggle) in toggles {
        if let Some(value) = value {
            *toggle = value;
        }
    }
    Ok(rules)
}

fn suit(value: i32, field: FieldPath<'_>) -> Result<Suit, ServiceError> {
    match pb::DaifugoSuit::try_from(value) {
        Ok(pb::DaifugoSuit::Spades) => Ok(Suit::Spades),
        Ok(pb::DaifugoSuit::Hearts) => Ok(Suit::Hearts),
        Ok(pb::DaifugoSuit::Diamonds) => Ok(Suit::Diamonds),
        Ok(pb::DaifugoSuit::Clubs) => Ok(Suit::Clubs),
        Ok(pb::DaifugoSuit::Unspecified) => Err(invalid(
            field(),
            "suit is unspecified (expected DAIFUGO_SUIT_SPADES, _HEARTS, _DIAMONDS or _CLUBS)",
        )),
        Err(_) => Err(invalid(
            field(),
            format!("unknown suit {value} (expected 1..=4)"),
        )),
    }
}

fn title(value: i32, field: FieldPath<'_>) -> Result<Title, ServiceError> {
    match pb::DaifugoTitle::try_from(value) {
        Ok(pb::DaifugoTitle::Daifugo) => Ok(Title::Daifugo),
        Ok(pb::DaifugoTitle::Fugo) => Ok(Title::Fugo),
        Ok(pb::DaifugoTitle::Heimin) => Ok(Title::Heimin),
        Ok(pb::DaifugoTitle::Hinmin) => Ok(Title::Hinmin),
        Ok(pb::DaifugoTitle::Daihinmin) => Ok(Title::Daihinmin),
        Ok(pb::DaifugoTitle::Unspecified) => Err(invalid(
            field(),
            "title is unspecified (everyone is DAIFUGO_TITLE_HEIMIN in game 1)",
        )),
        Err(_) => Err(invalid(
            field(),
            format!("unknown title {value} (expected 1..=5)"),
        )),
    }
}

fn play_kind(value: i32, field: FieldPath<'_>) -> Result<PlayKind, ServiceError> {
    match pb::DaifugoPlayKind::try_from(value) {
        Ok(pb::DaifugoPlayKind::Single) => Ok(PlayKind::Single),
        Ok(pb::DaifugoPlayKind::Group) => Ok(PlayKind::Group),
        Ok(pb::DaifugoPlayKind::Sequence) => Ok(PlayKind::Sequence),
        Ok(pb::DaifugoPlayKind::Unspecified) => Err(invalid(
            field(),
            "kind is unspecified (expected SINGLE, GROUP or SEQUENCE)",
        )),
        Err(_) => Err(invalid(
            field(),
            format!("unknown play kind {value} (expected 1..=3)"),
        )),
    }
}

/// The engine's card id (0..52 natural, 52/53 jokers) of a wire card. Whether the card
/// is in the table's deck (the second joker) is the domain's check.
fn card_id(wire: &pb::DaifugoCard, field: FieldPath<'_>) -> Result<u32, ServiceError> {
    match wire.joker {
        0 => {
            let top = WIRE_RANK_3 + u32::from(RANKS) - 1;
            if !(WIRE_RANK_3..=top).contains(&wire.rank) {
                return Err(invalid(
                    format!("{}.rank", field()),
                    format!(
                        "rank {} is out of range 3..=15 (11 = J, 12 = Q, 13 = K, 14 = A, 15 = 2)",
                        wire.rank
                    ),
                ));
            }
            let suit = suit(wire.suit, &|| format!("{}.suit", field()))?;
            let rank = (wire.rank - WIRE_RANK_3) as u8 + RANK_3;
            Ok(u32::from(Card::natural(rank, suit).id()))
        }
        joker @ (1 | 2) => {
            if wire.rank != 0 {
                return Err(invalid(
                    format!("{}.rank", field()),
                    format!("rank {} on a joker (a joker has rank 0)", wire.rank),
                ));
            }
            if wire.suit != pb::DaifugoSuit::Unspecified as i32 {
                return Err(invalid(
                    format!("{}.suit", field()),
                    "a joker has no suit (DAIFUGO_SUIT_UNSPECIFIED)",
                ));
            }
            Ok(u32::from(Card::JOKER.id()) + joker - 1)
        }
        other => Err(invalid(
            format!("{}.joker", field()),
            format!("joker {other}; 0 (natural card), 1 or 2 expected"),
        )),
    }
}

fn card_ids(wire: &[pb::DaifugoCard], field: FieldPath<'_>) -> Result<Vec<u32>, ServiceError> {
    read_each(wire, |i, c| card_id(c, &|| format!("{}[{i}]", field())))
}

fn play_card(
    wire: &pb::DaifugoPlayCard,
    field: FieldPath<'_>,
) -> Result<TableCardInput, ServiceError> {
    let card = wire
        .card
        .as_ref()
        .ok_or_else(|| invalid(format!("{}.card", field()), "required"))?;
    let card = card_id(card, &|| format!("{}.card", field()))?;
    let declared = match &wire.declared {
        None => None,
        Some(d) if d.joker != 0 => {
            return Err(invalid(
                format!("{}.declared", field()),
                "a joker declares a natural card, not a joker",
            ));
        }
        Some(d) => Some(declaration_id(d, &|| format!("{}.declared", field()))?),
    };
    Ok(TableCardInput { card, declared })
}

/// The wire rank of the imaginary card below the 3 (a joker past a sequence's low end).
const WIRE_RANK_BELOW_3: u32 = 2;
/// The wire rank of the imaginary card above the 2 (a joker past a sequence's high end).
const WIRE_RANK_ABOVE_2: u32 = 16;

/// The engine's declaration id ([`Declaration::id`]) of a wire declaration: a natural
/// card, or an imaginary card past a sequence's end (rank 2 or 16 with a suit). Whether
/// the rules allow the imaginary ones is the domain's check.
fn declaration_id(wire: &pb::DaifugoCard, field: FieldPath<'_>) -> Result<u32, ServiceError> {
    let imaginary = match (wire.joker, wire.rank) {
        (0, WIRE_RANK_BELOW_3) => Declaration::BelowThree,
        (0, WIRE_RANK_ABOVE_2) => Declaration::AboveTwo,
        _ => return card_id(wire, field),
    };
    let suit = suit(wire.suit, &|| format!("{}.suit", field()))?;
    Ok(u32::from(imaginary(suit).id()))
}

/// The wire form of a declaration.
fn declaration_to_wire(declaration: Declaration) -> pb::DaifugoCard {
    let imaginary = |rank: u32, suit: Suit| pb::DaifugoCard {
        rank,
        suit: suit_to_wire(suit) as i32,
        joker: 0,
    };
    match declaration {
        Declaration::Card(card) => card_to_wire(card),
        Declaration::BelowThree(suit) => imaginary(WIRE_RANK_BELOW_3, suit),
        Declaration::AboveTwo(suit) => imaginary(WIRE_RANK_ABOVE_2, suit),
    }
}

fn card_to_wire(card: Card) -> pb::DaifugoCard {
    match (card.rank(), card.suit()) {
        (Some(rank), Some(suit)) => pb::DaifugoCard {
            rank: u32::from(rank - RANK_3) + WIRE_RANK_3,
            suit: suit_to_wire(suit) as i32,
            joker: 0,
        },
        _ => pb::DaifugoCard {
            rank: 0,
            suit: pb::DaifugoSuit::Unspecified as i32,
            joker: u32::from(card.id() - Card::JOKER.id()) + 1,
        },
    }
}

fn id_to_wire(id: u32) -> pb::DaifugoCard {
    card_to_wire(
        u8::try_from(id)
            .ok()
            .and_then(Card::from_id)
            .expect("a validated view holds card ids only"),
    )
}

fn suit_to_wire(suit: Suit) -> pb::DaifugoSuit {
    match suit {
        Suit::Spades => pb::DaifugoSuit::Spades,
        Suit::Hearts => pb::DaifugoSuit::Hearts,
        Suit::Diamonds => pb::DaifugoSuit::Diamonds,
        Suit::Clubs => pb::DaifugoSuit::Clubs,
    }
}

fn title_to_wire(title: Title) -> pb::DaifugoTitle {
    match title {
        Title::Daifugo => pb::DaifugoTitle::Daifugo,
        Title::Fugo => pb::DaifugoTitle::Fugo,
        Title::Heimin => pb::DaifugoTitle::Heimin,
        Title::Hinmin => pb::DaifugoTitle::Hinmin,
        Title::Daihinmin => pb::DaifugoTitle::Daihinmin,
    }
}

fn kind_to_wire(kind: PlayKind) -> pb::DaifugoPlayKind {
    match kind {
        PlayKind::Single => pb::DaifugoPlayKind::Single,
        PlayKind::Group => pb::DaifugoPlayKind::Group,
        PlayKind::Sequence => pb::DaifugoPlayKind::Sequence,
    }
}

fn first_lead_to_wire(lead: FirstLead) -> pb::DaifugoFirstLead {
    match lead {
        FirstLead::Diamond3ThenDaihinmin => pb::DaifugoFirstLead::Diamond3ThenDaihinmin,
        FirstLead::Diamond3Always => pb::DaifugoFirstLead::Diamond3Always,
    }
}

/// A rule set on the wire: the closer preset (house on a tie) plus an override for
/// every toggle that differs from it. Decoding gives the same rule set back.
pub fn rules_to_wire(rules: &RuleSet) -> pb::DaifugoRules {
    let overrides = |base: &RuleSet| {
        let differs = |a: bool, b: bool| (a != b).then_some(a);
        pb::DaifugoRules {
            preset: pb::DaifugoRulePreset::Unspecified as i32,
            jokers: (rules.jokers != base.jokers).then_some(u32::from(rules.jokers)),
            first_lead: (rules.first_lead != base.first_lead)
                .then_some(first_lead_to_wire(rules.first_lead) as i32),
            empty_table_pass: differs(rules.empty_table_pass, base.empty_table_pass),
            pass_locks_out: differs(rules.pass_locks_out, base.pass_locks_out),
            self_follow: differs(rules.self_follow, base.self_follow),
            exchange: differs(rules.exchange, base.exchange),
            group_revolution: differs(rules.group_revolution, base.group_revolution),
            sequence_revolution: (rules.sequence_revolution != base.sequence_revolution)
                .then_some(u32::from(rules.sequence_revolution.unwrap_or(0))),
            eight_cut: differs(rules.eight_cut, base.eight_cut),
            eight_cut_sequence: differs(rules.eight_cut_sequence, base.eight_cut_sequence),
            jack_back: differs(rules.jack_back, base.jack_back),
            suit_lock: differs(rules.suit_lock, base.suit_lock),
            spade3_beats_joker: differs(rules.spade3_beats_joker, base.spade3_beats_joker),
            forbidden_finishes: differs(rules.forbidden_finishes, base.forbidden_finishes),
            miyako_ochi: differs(rules.miyako_ochi, base.miyako_ochi),
            group_of_five: differs(rules.group_of_five, base.group_of_five),
            joker_past_sequence_ends: differs(
                rules.joker_past_sequence_ends,
                base.joker_past_sequence_ends,
            ),
        }
    };
    let count = |r: &pb::DaifugoRules| {
        [
            r.jokers.is_some(),
            r.first_lead.is_some(),
            r.empty_table_pass.is_some(),
            r.pass_locks_out.is_some(),
            r.self_follow.is_some(),
            r.exchange.is_some(),
            r.group_revolution.is_some(),
            r.sequence_revolution.is_some(),
            r.eight_cut.is_some(),
            r.eight_cut_sequence.is_some(),
            r.jack_back.is_some(),
            r.suit_lock.is_some(),
            r.spade3_beats_joker.is_some(),
            r.forbidden_finishes.is_some(),
            r.miyako_ochi.is_some(),
            r.group_of_five.is_some(),
            r.joker_past_sequence_ends.is_some(),
        ]
        .iter()
        .filter(|&&set| set)
        .count()
    };
    let house = pb::DaifugoRules {
        preset: pb::DaifugoRulePreset::House as i32,
        ..overrides(&RuleSet::house())
    };
    let uecda = pb::DaifugoRules {
        preset: pb::DaifugoRulePreset::Uecda as i32,
        ..overrides(&RuleSet::uecda())
    };
    if count(&uecda) < count(&house) {
        uecda
    } else {
        house
    }
}

fn play_cards_to_wire(play: &Play) -> Vec<pb::DaifugoPlayCard> {
    play.cards()
        .iter()
        .map(|c| pb::DaifugoPlayCard {
            card: Some(card_to_wire(c)),
            declared: play.declaration(c).map(declaration_to_wire),
        })
        .collect()
}

/// One seat's own part of a game in play, on the wire, for a page that follows the
/// seat between its turns: a view holding only the rules, the seat, its hand, every
/// seat's public card count, title, pass and finish, and the game number (the rest is
/// left empty).
pub fn own_part_to_wire(
    referee: &crate::daifugo::referee::Referee,
    seat: usize,
) -> pb::DaifugoView {
    let (out, passed) = (referee.out(), referee.passed());
    pb::DaifugoView {
        rules: Some(rules_to_wire(referee.rules())),
        seat: seat as u32,
        game: referee.game().max(1),
        hand: referee.hands()[seat].iter().map(card_to_wire).collect(),
        seats: (0..referee.players())
            .map(|s| pb::DaifugoSeat {
                card_count: referee.hands()[s].len() as u32,
                title: title_to_wire(referee.titles()[s]) as i32,
                passed: passed[s],
                finished: out[s],
            })
            .collect(),
        ..Default::default()
    }
}

/// A validated view back on the wire (for clients written in Rust: the arena's remote
/// mode and load tests). Decoding the result gives the same view.
pub fn view_to_wire(view: &DaifugoView) -> pb::DaifugoView {
    let input = view.to_input();
    let ids = |ids: &[u32]| ids.iter().map(|&id| id_to_wire(id)).collect::<Vec<_>>();
    let (phase, give_back) = match input.phase {
        PhaseInput::Play => (pb::DaifugoPhase::Play, 0),
        PhaseInput::Exchange { give } => (pb::DaifugoPhase::Exchange, give),
    };
    pb::DaifugoView {
        rules: Some(rules_to_wire(&input.rules)),
        seat: input.seat,
        game: input.game,
        phase: phase as i32,
        give_back,
        hand: ids(&input.hand),
        table: view.table().map(|t| pb::DaifugoTable {
            owner: t.owner as u32,
            kind: kind_to_wire(t.play.kind()) as i32,
            cards: play_cards_to_wire(&t.play),
        }),
        revolution: input.revolution,
        jack_back: input.jack_back,
        lock: Suit::ALL
            .iter()
            .filter(|&&s| input.lock & (1 << s as u8) != 0)
            .map(|&s| suit_to_wire(s) as i32)
            .collect(),
        seats: input
            .seats
            .iter()
            .map(|s| pb::DaifugoSeat {
                card_count: s.card_count,
                title: title_to_wire(s.title) as i32,
                passed: s.passed,
                finished: s.finished,
            })
            .collect(),
        played: ids(&input.played),
        removed_unseen: input.removed_unseen,
        log: input
            .log
            .iter()
            .map(|e| pb::DaifugoLogEntry {
                seat: e.seat,
                cards: ids(&e.cards),
            })
            .collect(),
        exchange_known: input.exchange.map(|x| pb::DaifugoExchangeKnown {
            with_seat: x.with_seat,
            received: ids(&x.received),
            given: ids(&x.given),
        }),
    }
}

/// A domain decision on the wire.
pub fn decision_to_wire(decision: &DaifugoDecision) -> pb::DaifugoDecision {
    let decision = match decision {
        DaifugoDecision::Pass => pb::daifugo_decision::Decision::Pass(pb::DaifugoPass {}),
        DaifugoDecision::Play(play) => pb::daifugo_decision::Decision::Play(pb::DaifugoPlay {
            cards: play_cards_to_wire(play),
            kind: kind_to_wire(play.kind()) as i32,
        }),
        DaifugoDecision::Exchange(cards) => {
            pb::daifugo_decision::Decision::Exchange(pb::DaifugoExchange {
                cards: cards.iter().map(card_to_wire).collect(),
            })
        }
    };
    pb::DaifugoDecision {
        decision: Some(decision),
    }
}

/// A wire decision read back against the view it answers: `None` unless it is well
/// formed and legal there.
pub fn decision_from_wire(
    view: &DaifugoView,
    decision: &pb::DaifugoDecision,
) -> Option<DaifugoDecision> {
    let deck = CardSet::deck(view.rules().jokers);
    let card = |wire: &pb::DaifugoCard| {
        card_id(wire, &|| "decision".into())
            .ok()
            .and_then(|id| u8::try_from(id).ok())
            .and_then(Card::from_id)
            .filter(|&c| deck.contains(c))
    };
    let set = |cards: &mut dyn Iterator<Item = Option<Card>>| {
        let mut set = CardSet::EMPTY;
        for c in cards {
            let c = c?;
            if set.contains(c) {
                return None;
            }
            set.insert(c);
        }
        Some(set)
    };
    let decoded = match decision.decision.as_ref()? {
        pb::daifugo_decision::Decision::Pass(_) => DaifugoDecision::Pass,
        pb::daifugo_decision::Decision::Play(play) => {
            let kind = play_kind(play.kind, &|| "decision.kind".into()).ok()?;
            let cards = set(&mut play.cards.iter().map(|pc| pc.card.as_ref().and_then(card)))?;
            let mut declared = Vec::new();
            for pc in &play.cards {
                if let Some(d) = &pc.declared {
                    let d = declaration_id(d, &|| "decision".into())
                        .ok()
                        .and_then(Declaration::from_id)
                        .filter(|d| d.card().is_none_or(|c| !c.is_joker()))?;
                    if !pc.card.as_ref().and_then(card)?.is_joker() {
                        return None;
                    }
                    declared.push(d);
                }
            }
            DaifugoDecision::Play(Play::with_declarations(kind, cards, &declared).ok()?)
        }
        pb::daifugo_decision::Decision::Exchange(exchange) => {
            DaifugoDecision::Exchange(set(&mut exchange.cards.iter().map(card))?)
        }
    };
    is_legal(view, &decoded).then_some(decoded)
}

/// A domain decision as a wire `Decision`.
impl WireGame for Daifugo {
    const KIND: GameKind = GameKind::Daifugo;

    /// The domain's `phase.give` is the proto's `give_back`; every other name is
    /// already the proto's.
    fn wire_field(field: &str) -> &str {
        match field {
            "phase.give" => "give_back",
            other => other,
        }
    }

    fn view_to_wire(view: &DaifugoView) -> pb::game_view::Game {
        pb::game_view::Game::Daifugo(view_to_wire(view))
    }

    fn decision_to_wire(decision: &DaifugoDecision) -> pb::decision::Game {
        pb::decision::Game::Daifugo(decision_to_wire(decision))
    }

    fn decision_from_wire(
        view: &DaifugoView,
        decision: &pb::decision::Game,
    ) -> Option<DaifugoDecision> {
        match decision {
            pb::decision::Game::Daifugo(d) => decision_from_wire(view, d),
            _ => None,
        }
    }

    fn legal_decisions_to_wire(
        decisions: &[DaifugoDecision],
    ) -> pb::list_legal_plays_response::Game {
        pb::list_legal_plays_response::Game::Daifugo(pb::DaifugoLegalPlays {
            decisions: decisions.iter().map(decision_to_wire).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daifugo::bots::{easy, legal_decisions};
    use crate::daifugo::referee::Referee;
    use crate::daifugo::view::Phase;

    /// Plays two games of each preset with the easy bot, checking every view and every
    /// decision (and every legal decision) survives the wire.
    #[test]
    fn views_and_decisions_round_trip_through_the_wire() {
        for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5)] {
            let mut referee = Referee::new(rules, players).unwrap();
            let (mut exchanges, mut plays) = (0, 0);
            for game in 0..3u64 {
                referee.start_game_seeded(40 + game);
                while let Some(seat) = referee.to_act() {
                    let view = referee.view(seat).unwrap();
                    let wire = view_to_wire(&view);
                    let back = decode(wire.clone()).unwrap_or_else(|e| panic!("{e}"));
                    assert_eq!(back, view);
                    assert_eq!(back.fingerprint(), view.fingerprint());
                    match view.phase() {
                        Phase::Exchange { .. } => exchanges += 1,
                        Phase::Play => plays += 1,
                    }
                    for legal in legal_decisions(&view) {
                        assert_eq!(
                            decision_from_wire(&view, &decision_to_wire(&legal)),
                            Some(legal)
                        );
                    }
                    let decision = easy::decide(&view);
                    assert_eq!(
                        decision_from_wire(&view, &decision_to_wire(&decision)),
                        Some(decision)
                    );
                    referee.apply(seat, &decision).unwrap();
                }
            }
            assert!(exchanges >= 2, "{exchanges} exchange views");
            assert!(plays >= 50, "{plays} play views");
        }
    }

    #[test]
    fn rules_overrides_round_trip() {
        let mut custom = RuleSet::house();
        custom.jokers = 2;
        custom.jack_back = true;
        custom.sequence_revolution = Some(4);
        let mut near_uecda = RuleSet::uecda();
        near_uecda.miyako_ochi = true;
        for rules in [RuleSet::house(), RuleSet::uecda(), custom, near_uecda] {
            let wire = rules_to_wire(&rules);
            assert_eq!(rules_from_wire(Some(&wire)).unwrap(), rules);
        }
        assert_eq!(
            rules_to_wire(&near_uecda).preset,
            pb::DaifugoRulePreset::Uecda as i32
        );
        assert_eq!(rules_to_wire(&near_uecda).miyako_ochi, Some(true));
        assert_eq!(rules_to_wire(&RuleSet::house()).jokers, None);
    }

    #[test]
    fn illegal_or_malformed_decisions_read_back_as_none() {
        let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
        referee.start_game_seeded(3);
        let seat = referee.to_act().unwrap();
        let view = referee.view(seat).unwrap();
        // The first lead cannot pass under the house rules.
        let pass = decision_to_wire(&DaifugoDecision::Pass);
        assert_eq!(decision_from_wire(&view, &pass), None);
        // A card of another seat.
        let other = referee.hands()[(seat + 1) % 4].first().unwrap();
        let foreign = decision_to_wire(&DaifugoDecision::Play(if other.is_joker() {
            Play::lone_joker(other)
        } else {
            Play::single(other)
        }));
        assert_eq!(decision_from_wire(&view, &foreign), None);
        // An exchange in the play phase, and an empty decision.
        let mine = view.hand().first().unwrap();
        let exchange = decision_to_wire(&DaifugoDecision::Exchange(CardSet::single(mine)));
        assert_eq!(decision_from_wire(&view, &exchange), None);
        assert_eq!(
            decision_from_wire(&view, &pb::DaifugoDecision { decision: None }),
            None
        );
    }
}
