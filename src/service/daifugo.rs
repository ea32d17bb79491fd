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
    DaifugoViewInput, ExchangeInput, LogEntryInput, PhaseInput, SeatInput, TableCardInput,
    TableInput,
};
use crate::daifugo::{Daifugo, DaifugoDecision, DaifugoView};
use crate::game::GameKind;
use crate::pb;
use crate::service::error::ServiceError;
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
    let input = view_input(&view)?;
    DaifugoView::new(input).map_err(ServiceError::invalid_view::<Daifugo>)
}

/// The unchecked domain input of a wire view (wire shapes checked only).
pub fn view_input(view: &pb::DaifugoView) -> Result<DaifugoViewInput, ServiceError> {
    let rules = rules_from_wire(view.rules.as_ref())?;
    let phase = match pb::DaifugoPhase::try_from(view.phase) {
        Ok(pb::DaifugoPhase::Play) => {
            if view.give_back != 0 {
                return Err(invalid(
                    "give_back",
                    format!(
                        "{} in the PLAY phase; only the exchange gives cards back",
                        view.give_back
                    ),
                ));
            }
            PhaseInput::Play
        }
        Ok(pb::DaifugoPhase::Exchange) => PhaseInput::Exchange {
            give: view.give_back,
        },
        Ok(pb::DaifugoPhase::Unspecified) => {
            return Err(invalid(
                "phase",
                "phase is unspecified (expected DAIFUGO_PHASE_PLAY or DAIFUGO_PHASE_EXCHANGE)",
            ));
        }
        Err(_) => {
            return Err(invalid(
                "phase",
                format!("unknown phase {} (expected 1..=2)", view.phase),
            ));
        }
    };
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
    let mut lock = 0u32;
    for (i, &s) in view.lock.iter().enumerate() {
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
    let seats = read_each(&view.seats, |i, s| {
        Ok(SeatInput {
            card_count: s.card_count,
            title: title(s.title, &|| format!("seats[{i}].title"))?,
            passed: s.passed,
            finished: s.finished,
        })
    })?;
    let played = card_ids(&view.played, &|| "played".into())?;
    let log = read_each(&view.log, |i, e| {
        Ok(LogEntryInput {
            seat: e.seat,
            cards: card_ids(&e.cards, &|| format!("log[{i}].cards"))?,
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
