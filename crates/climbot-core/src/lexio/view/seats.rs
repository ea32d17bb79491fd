//! The seats: the player count, the deciding seat, each seat's tile count and score,
//! and the counts against the tiles the seat cannot see.

use super::input::SeatCount;
use crate::lexio::tiles::{PlayerCount, TileSet};
use crate::view_error::{ViewError, refuse};

/// The player count a client sent, and its deciding seat and seat list against it.
pub(super) fn table_size(
    player_count: u32,
    seat: u32,
    seats: usize,
) -> Result<PlayerCount, ViewError> {
    let players = PlayerCount::from_count(player_count).ok_or_else(|| {
        ViewError::new(
            "player_count",
            format!("{player_count} players is not supported (3, 4 or 5)"),
        )
    })?;
    let p = players.count();
    if seat as usize >= p {
        return refuse(
            "seat",
            format!("seat {seat} is out of range for {p} players (0..{})", p - 1),
        );
    }
    if seats != p {
        return refuse(
            "seats",
            format!("{seats} entries for {p} players (one per seat)"),
        );
    }
    Ok(players)
}

/// Each seat's tile count, at most the tiles dealt.
pub(super) fn counts(seats: &[SeatCount], players: PlayerCount) -> Result<[u8; 5], ViewError> {
    let mut counts = [0u8; 5];
    for (i, s) in seats.iter().enumerate() {
        if s.tile_count as usize > players.hand_size() {
            return refuse(
                format!("seats[{i}].tile_count"),
                format!(
                    "{} exceeds the {} tiles dealt",
                    s.tile_count,
                    players.hand_size()
                ),
            );
        }
        counts[i] = s.tile_count as u8;
    }
    Ok(counts)
}

/// The running scores: none, or one per seat.
pub(super) fn scores(scores: &[i64], players: PlayerCount) -> Result<[i64; 5], ViewError> {
    let p = players.count();
    if !scores.is_empty() && scores.len() != p {
        return refuse(
            "scores",
            format!(
                "{} entries for {p} players (empty or one per seat)",
                scores.len()
            ),
        );
    }
    let mut out = [0i64; 5];
    out[..scores.len()].copy_from_slice(scores);
    Ok(out)
}

/// The deciding seat of domain-typed parts.
pub(super) fn check_seat(seat: usize, players: PlayerCount) -> Result<(), ViewError> {
    let p = players.count();
    if seat >= p {
        return refuse(
            "seat",
            format!("seat {seat} is out of range for {p} players"),
        );
    }
    Ok(())
}

/// Every seat holds tiles, no more than dealt; the deciding seat holds its hand; the
/// others hold the tiles it cannot see.
pub(super) fn check_counts(
    players: PlayerCount,
    seat: usize,
    counts: &[u8; 5],
    hand: TileSet,
    played: TileSet,
) -> Result<(), ViewError> {
    let p = players.count();
    for (i, &c) in counts.iter().enumerate().take(p) {
        if c == 0 {
            return refuse(
                format!("seats[{i}].tile_count"),
                "0: the round is over once a seat has emptied its hand",
            );
        }
        if c as usize > players.hand_size() {
            return refuse(
                format!("seats[{i}].tile_count"),
                format!("{c} exceeds the {} tiles dealt", players.hand_size()),
            );
        }
    }
    if counts[seat] as usize != hand.len() {
        return refuse(
            format!("seats[{seat}].tile_count"),
            format!("{} but the hand holds {} tiles", counts[seat], hand.len()),
        );
    }
    let unseen = players.deck().difference(hand.union(played)).len();
    let others: usize = (0..p)
        .filter(|&i| i != seat)
        .map(|i| counts[i] as usize)
        .sum();
    if unseen != others {
        return refuse(
            "seats",
            format!(
                "the other seats hold {others} tiles but {unseen} tiles are unseen \
                 (deck minus hand minus played)"
            ),
        );
    }
    Ok(())
}
