//! The seats: their number, the deciding seat, each seat's title, count, finish and
//! score, and the counts against the cards the deciding seat cannot see.

use super::SeatInfo;
use super::input::SeatInput;
use crate::dalmuti::cards::DECK_SIZE;
use crate::dalmuti::turn::{MAX_PLAYERS, MIN_PLAYERS, Title};
use crate::view_error::{ViewError, refuse};

/// The number of seats, and the deciding seat among them.
pub(super) fn table_size(seats: usize, seat: u32) -> Result<(usize, usize), ViewError> {
    let players = seats;
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return refuse(
            "seats",
            format!("{players} seats; {MIN_PLAYERS} to {MAX_PLAYERS} are supported"),
        );
    }
    let me = seat as usize;
    if me >= players {
        return refuse("seat", format!("seat {me} with only {players} seats"));
    }
    Ok((players, me))
}

/// Each seat: the title of its position, a count within the deck, finished exactly
/// when empty, and no more points than `hand_number` hands can give.
pub(super) fn parse(seats: &[SeatInput], hand_number: u32) -> Result<Vec<SeatInfo>, ViewError> {
    let players = seats.len();
    let mut out = Vec::with_capacity(players);
    for (i, s) in seats.iter().enumerate() {
        let title = Title::of_seat(i, players);
        if s.title != title {
            return refuse(
                format!("seats[{i}].title"),
                format!("seat {i} of {players} is {title}, not {}", s.title),
            );
        }
        if s.card_count > u32::from(DECK_SIZE) {
            return refuse(
                format!("seats[{i}].card_count"),
                format!("{} cards, more than the deck", s.card_count),
            );
        }
        if s.finished != (s.card_count == 0) {
            return refuse(
                format!("seats[{i}].finished"),
                format!(
                    "finished is {} with {} cards in hand",
                    s.finished, s.card_count
                ),
            );
        }
        let max_score = players as u64 * u64::from(hand_number);
        if u64::from(s.score) > max_score {
            return refuse(
                format!("seats[{i}].score"),
                format!(
                    "{} points, more than {max_score} possible by hand {hand_number}",
                    s.score
                ),
            );
        }
        out.push(SeatInfo {
            card_count: s.card_count as u8,
            title,
            finished: s.finished,
            score: s.score,
        });
    }
    Ok(out)
}

/// The deciding seat holds its hand, and the others hold the cards it cannot see.
pub(super) fn check_counts(
    seats: &[SeatInfo],
    me: usize,
    hand: u32,
    played: u32,
) -> Result<(), ViewError> {
    if u32::from(seats[me].card_count) != hand {
        return refuse(
            format!("seats[{me}].card_count"),
            format!("{} cards, but the hand holds {hand}", seats[me].card_count),
        );
    }
    let unseen = u32::from(DECK_SIZE) - hand - played;
    let others: u32 = (0..seats.len())
        .filter(|&i| i != me)
        .map(|i| u32::from(seats[i].card_count))
        .sum();
    if others != unseen {
        return refuse(
            "seats",
            format!("the other seats hold {others} cards, but {unseen} are unseen by seat {me}"),
        );
    }
    Ok(())
}
