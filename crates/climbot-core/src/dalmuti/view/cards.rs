//! The cards a client lists: card multisets (the hand, the played cards, the tax
//! cards) and plays (the table, the log's), each within the deck.

use super::input::{CardsInput, PlayInput};
use crate::dalmuti::cards::{Cards, Rank};
use crate::dalmuti::plays::Play;
use crate::view_error::{ViewError, refuse};

/// The multiset `input`, its field named `name` (`hand`, `played`, `tax_known.given`).
pub(super) fn parse_cards(input: &CardsInput, name: &str) -> Result<Cards, ViewError> {
    if input.counts.len() != 13 {
        return refuse(
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
            return refuse(
                format!("{name}.counts[{i}]"),
                format!("{c} cards, but the deck holds {max} of {}", rank_name(i)),
            );
        }
        *out = c as u8;
    }
    Ok(Cards::from_counts(counts).expect("counts checked against the deck"))
}

/// A rank as messages name it: `rank 5`, or `Jesters` for index 12.
pub(super) fn rank_name(index: usize) -> String {
    if index == 12 {
        "Jesters".to_string()
    } else {
        format!("rank {}", index + 1)
    }
}

/// The play `input`, its field named `field` (`table`, `log[3].play`).
pub(super) fn parse_play(
    input: &PlayInput,
    field: &dyn std::fmt::Display,
) -> Result<Play, ViewError> {
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

/// The hand and the played cards together hold no more of a rank than the deck.
pub(super) fn check_deck(hand: Cards, played: Cards) -> Result<(), ViewError> {
    for i in 0..13 {
        let (h, p) = (hand.counts()[i], played.counts()[i]);
        let max = Cards::FULL_DECK.counts()[i];
        if h + p > max {
            return refuse(
                format!("hand.counts[{i}]"),
                format!(
                    "{h} in hand and {p} played, but the deck holds {max} of {}",
                    rank_name(i)
                ),
            );
        }
    }
    Ok(())
}
