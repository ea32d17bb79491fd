//! The table: the top play (its cards played, each joker's declaration, the play the
//! kind and declarations make, its owner not passed and last in the log), and the
//! flags that need it (J-back, the suit lock, passes standing on an empty table).

use super::cards::parse_card;
use super::input::{DaifugoViewInput, TableInput};
use super::{LogEntry, SeatView, TableView};
use crate::daifugo::cards::{Card, CardSet};
use crate::daifugo::plays::{Declaration, Play, PlayKind};
use crate::daifugo::rules::RuleSet;
use crate::view_error::{ViewError, refuse};

/// A joker of the table: its card, its declaration, and the field that declared it
/// (empty for an undeclared joker).
type JokerField = (Card, Declaration, String);

/// The suit lock's mask, range-checked before the phase rules.
pub(super) fn lock(lock: u32) -> Result<u8, ViewError> {
    if lock > 0xF {
        return refuse("lock", format!("suit mask {lock} out of range 0..=15"));
    }
    Ok(lock as u8)
}

/// The top play a client sent, if any, with its owner.
pub(super) fn parse(
    table: Option<&TableInput>,
    rules: &RuleSet,
    seats: &[SeatView],
    deck: CardSet,
    played: CardSet,
    log: &[LogEntry],
) -> Result<Option<TableView>, ViewError> {
    let Some(t) = table else {
        return Ok(None);
    };
    let players = seats.len();
    let owner = t.owner as usize;
    if owner >= players {
        return refuse("table.owner", format!("seat {owner} of {players}"));
    }
    if t.cards.is_empty() {
        return refuse("table.cards", "an empty play");
    }
    let (cards, declared, joker_fields) = table_cards(t, rules, deck, played)?;
    let play = declared_play(t, rules, cards, &declared, joker_fields)?;
    if seats[owner].passed {
        return refuse(
            format!("seats[{owner}].passed"),
            "the owner of the top play has not passed",
        );
    }
    match log.iter().rev().find(|e| e.cards.is_some()) {
        Some(last) if last.cards == Some(cards) && last.seat == owner => {}
        _ => return refuse("table", "the top play is not the last play of the log"),
    }
    Ok(Some(TableView { play, owner }))
}

/// The table's cards (each in the deck once, and played), the jokers' declarations in
/// card order, and each joker with the field that declared it.
fn table_cards(
    t: &TableInput,
    rules: &RuleSet,
    deck: CardSet,
    played: CardSet,
) -> Result<(CardSet, Vec<Declaration>, Vec<JokerField>), ViewError> {
    let mut cards = CardSet::EMPTY;
    let mut declared = Vec::new();
    let mut joker_fields = Vec::new();
    for (i, tc) in t.cards.iter().enumerate() {
        let field = || format!("table.cards[{i}].card");
        let card = parse_card(tc.card, deck, field)?;
        if cards.contains(card) {
            return refuse(field(), format!("duplicate {card}"));
        }
        if !played.contains(card) {
            return refuse(field(), format!("{card} is not among played cards"));
        }
        cards.insert(card);
        match (card.is_joker(), tc.declared) {
            (false, Some(_)) => {
                return refuse(
                    format!("table.cards[{i}].declared"),
                    "only a joker carries a declaration",
                );
            }
            (true, Some(d)) => {
                let dfield = format!("table.cards[{i}].declared");
                let declaration = match Declaration::from_id(d) {
                    Some(Declaration::Card(c)) if c.is_joker() => {
                        return refuse(dfield, format!("{d} is not a natural card id"));
                    }
                    Some(declaration) => declaration,
                    None => {
                        return refuse(
                            dfield,
                            format!(
                                "{d} is neither a natural card id nor an imaginary card past a sequence's end"
                            ),
                        );
                    }
                };
                if declaration.is_past_an_end() && !rules.joker_past_sequence_ends {
                    return refuse(
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
    Ok((cards, declared, joker_fields))
}

/// The play the table's kind, cards and declarations make: a group of five only under
/// its rule, every other joker declared, declarations in the jokers' card order.
fn declared_play(
    t: &TableInput,
    rules: &RuleSet,
    cards: CardSet,
    declared: &[Declaration],
    mut joker_fields: Vec<JokerField>,
) -> Result<Play, ViewError> {
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
        return refuse(
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
        return refuse(
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
        return refuse(
            joker_fields[0].2.clone(),
            "declarations are assigned to the jokers in ascending card order",
        );
    }
    let play = match Play::with_declarations(t.kind, cards, declared) {
        Ok(play) => play,
        Err(e) => {
            let field = match e.joker {
                Some(k) => {
                    let mut sorted: Vec<&JokerField> =
                        joker_fields.iter().filter(|j| !j.2.is_empty()).collect();
                    sorted.sort_by_key(|j| j.1.order_key());
                    sorted
                        .get(k)
                        .map_or("table.cards".to_string(), |j| j.2.clone())
                }
                None if joker_only => "table.cards".to_string(),
                None => "table.kind".to_string(),
            };
            return refuse(field, e.reason);
        }
    };
    Ok(play)
}

/// J-back and the suit lock need a play on the table (and their rules), and passes
/// stand on an empty table only under `empty_table_pass`.
pub(super) fn check_flags(
    input: &DaifugoViewInput,
    table: Option<&TableView>,
    lock: u8,
    seats: &[SeatView],
) -> Result<(), ViewError> {
    let rules = &input.rules;
    if input.jack_back && !(rules.jack_back && table.is_some()) {
        return refuse("jack_back", "J-back needs the rule and a play on the table");
    }
    if lock != 0 {
        match table {
            None => return refuse("lock", "a lock needs a play on the table"),
            Some(_) if !rules.suit_lock => return refuse("lock", "suit lock is off"),
            Some(t) if t.play.suits() != lock => {
                return refuse(
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
        return refuse(
            format!("seats[{i}].passed"),
            "no passes stand on an empty table under these rules",
        );
    }
    Ok(())
}
