//! The public log of the game: seats at the table, each played card logged once, and
//! the logged cards exactly the played ones.

use super::LogEntry;
use super::cards::parse_cards;
use super::input::LogEntryInput;
use crate::daifugo::cards::CardSet;
use crate::view_error::{ViewError, refuse};

/// The log a client sent, against the played cards (`played`, listed as `played_ids`).
pub(super) fn parse(
    input: &[LogEntryInput],
    players: usize,
    deck: CardSet,
    played: CardSet,
    played_ids: &[u32],
) -> Result<Vec<LogEntry>, ViewError> {
    let mut log = Vec::with_capacity(input.len());
    let mut logged = CardSet::EMPTY;
    for (i, entry) in input.iter().enumerate() {
        if entry.seat as usize >= players {
            return refuse(
                format!("log[{i}].seat"),
                format!("seat {} of {players}", entry.seat),
            );
        }
        let cards = if entry.cards.is_empty() {
            None
        } else {
            let set = parse_cards(&entry.cards, deck, &format_args!("log[{i}].cards"))?;
            for (j, card) in set.iter().enumerate() {
                if logged.contains(card) {
                    return refuse(
                        format!("log[{i}].cards[{j}]"),
                        format!("{card} was logged earlier"),
                    );
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
        return refuse(
            "log",
            format!("{card} is logged but not among played cards"),
        );
    }
    if let Some(card) = played.difference(logged).first() {
        let i = played_ids.iter().position(|&id| id == u32::from(card.id()));
        return refuse(
            format!("played[{}]", i.unwrap_or(0)),
            format!("{card} is not in the log"),
        );
    }
    Ok(log)
}
