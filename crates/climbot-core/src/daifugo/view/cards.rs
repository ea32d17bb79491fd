//! The cards a client lists by id (the hand, the played cards, a log entry, the
//! exchange): each in the game's deck, once; the hand and the played cards apart.

use crate::daifugo::cards::{Card, CardSet};
use crate::view_error::{ViewError, refuse};

/// The card `id` of `deck`, or an error naming `field` (built only for an error: a
/// field name formatted for every card cost more than the rest of the parsing).
pub(super) fn parse_card(
    id: u32,
    deck: CardSet,
    field: impl FnOnce() -> String,
) -> Result<Card, ViewError> {
    match u8::try_from(id).ok().and_then(Card::from_id) {
        Some(card) if deck.contains(card) => Ok(card),
        // The only cards a deck can lack are jokers beyond `rules.jokers`.
        Some(card) => refuse(
            field(),
            format!(
                "{card} is not in this game's deck of {} cards (see rules.jokers)",
                deck.len()
            ),
        ),
        None => refuse(
            field(),
            format!("card id {id} is not in a deck of {} cards", deck.len()),
        ),
    }
}

/// The set of the cards `ids` of `deck`, each once; `name` names the list.
pub(super) fn parse_cards(
    ids: &[u32],
    deck: CardSet,
    name: &dyn std::fmt::Display,
) -> Result<CardSet, ViewError> {
    let mut set = CardSet::EMPTY;
    for (i, &id) in ids.iter().enumerate() {
        let card = parse_card(id, deck, || format!("{name}[{i}]"))?;
        if set.contains(card) {
            let first = ids.iter().position(|&x| x == id).unwrap_or(0);
            return refuse(
                format!("{name}[{i}]"),
                format!("duplicate of {name}[{first}] ({card})"),
            );
        }
        set.insert(card);
    }
    Ok(set)
}

/// No played card (listed as `played`) is in the hand.
pub(super) fn check_apart(hand: CardSet, played: &[u32]) -> Result<(), ViewError> {
    for (i, &id) in played.iter().enumerate() {
        let card = Card::from_id(id as u8).expect("checked");
        if hand.contains(card) {
            return refuse(format!("played[{i}]"), format!("{card} is also in hand"));
        }
    }
    Ok(())
}
