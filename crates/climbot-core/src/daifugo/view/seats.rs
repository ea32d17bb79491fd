//! The seats: their titles for the game number, each seat's count and flags, the
//! deciding seat's hand, and the counts against the deck.

use super::SeatView;
use super::input::SeatInput;
use crate::daifugo::cards::CardSet;
use crate::daifugo::rules::{RuleSet, Title};
use crate::view_error::{ViewError, refuse};

/// The number of seats, and the deciding seat among them.
pub(super) fn table_size(seats: usize, seat: u32) -> Result<(usize, usize), ViewError> {
    let players = seats;
    if !(3..=7).contains(&players) {
        return refuse("seats", format!("{players} seats; 3..=7 supported"));
    }
    let seat = seat as usize;
    if seat >= players {
        return refuse("seat", format!("seat {seat} of {players}"));
    }
    Ok((players, seat))
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

/// Each seat: no more of a title than game `game` hands out, a count that agrees with
/// being out or not, and no pass for a seat that is out.
pub(super) fn parse(input: &[SeatInput], game: u32) -> Result<Vec<SeatView>, ViewError> {
    let players = input.len();
    let quota = title_quota(players, game);
    let mut seen = [0usize; 5];
    let mut seats = Vec::with_capacity(players);
    for (i, s) in input.iter().enumerate() {
        let t = s.title as usize;
        seen[t] += 1;
        if seen[t] > quota[t] {
            return refuse(
                format!("seats[{i}].title"),
                format!(
                    "{} {:?} titles with {players} seats in game {}",
                    seen[t], s.title, game
                ),
            );
        }
        if s.finished && s.card_count != 0 {
            return refuse(
                format!("seats[{i}].card_count"),
                format!("{} cards for a seat out of the game", s.card_count),
            );
        }
        if !s.finished && s.card_count == 0 {
            return refuse(
                format!("seats[{i}].card_count"),
                "an active seat holds at least one card",
            );
        }
        if s.finished && s.passed {
            return refuse(
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
    Ok(seats)
}

/// The deciding seat holds its hand, cards go unseen only by miyako-ochi, and the
/// counts, the played cards and the removed ones make the deck. Returns the number of
/// cards removed unseen.
pub(super) fn check_counts(
    seats: &[SeatView],
    seat: usize,
    hand: CardSet,
    played: CardSet,
    removed_unseen: u32,
    rules: &RuleSet,
    game: u32,
) -> Result<usize, ViewError> {
    let deck = CardSet::deck(rules.jokers);
    if seats[seat].card_count != hand.len() {
        return refuse(
            format!("seats[{seat}].card_count"),
            format!(
                "{} but the hand holds {}",
                seats[seat].card_count,
                hand.len()
            ),
        );
    }
    let removed_unseen = removed_unseen as usize;
    if removed_unseen > 0 && !(rules.miyako_ochi && game >= 2) {
        return refuse(
            "removed_unseen",
            "cards are discarded unseen only by miyako-ochi, from game 2",
        );
    }
    let total: usize =
        seats.iter().map(|s| s.card_count).sum::<usize>() + played.len() + removed_unseen;
    if total != deck.len() {
        return refuse(
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
    Ok(removed_unseen)
}
