//! The tiles a client lists (the hand, the played tiles, a play's tiles): each in the
//! deck once, and the hand and the played tiles apart.

use crate::lexio::combos::{Combo, classify};
use crate::lexio::tiles::{PlayerCount, Tile, TileSet};
use crate::view_error::{ViewError, refuse};

/// The set of `tiles`; `field` names the field (built only for an error).
pub(super) fn set(
    field: impl Fn() -> String,
    tiles: &[Tile],
    players: PlayerCount,
) -> Result<TileSet, ViewError> {
    let mut set = TileSet::EMPTY;
    for (i, &t) in tiles.iter().enumerate() {
        if !players.has_number(t.number()) {
            return refuse(
                format!("{}[{i}]", field()),
                format!(
                    "number {} is not in the {}-player deck (1..{})",
                    t.number(),
                    players.count(),
                    players.max_number()
                ),
            );
        }
        if set.contains(t) {
            return refuse(format!("{}[{i}]", field()), format!("duplicate tile {t:?}"));
        }
        set.insert(t);
    }
    Ok(set)
}

/// The combination of `tiles`; `field` names the field (built only for an error).
pub(super) fn combo(
    field: impl Fn() -> String,
    tiles: &[Tile],
    players: PlayerCount,
) -> Result<Combo, ViewError> {
    let set = set(&field, tiles, players)?;
    combo_of(field, set, players)
}

/// The combination of the tile set `set`, or an error naming `field`.
pub(super) fn combo_of(
    field: impl Fn() -> String,
    set: TileSet,
    players: PlayerCount,
) -> Result<Combo, ViewError> {
    classify(players, set)
        .ok_or_else(|| ViewError::new(field(), format!("{set:?} is not a legal combination")))
}

/// The hand and the played tiles: in the deck, a hand left, nothing in both.
pub(super) fn check_hand(
    players: PlayerCount,
    hand: TileSet,
    played: TileSet,
) -> Result<(), ViewError> {
    if !players.deck().is_superset(hand.union(played)) {
        return refuse("hand", "tiles outside the deck");
    }
    if hand.is_empty() {
        return refuse("hand", "empty: a seat with no tiles has finished the round");
    }
    if let Some(t) = hand.intersection(played).lowest() {
        return refuse("played", format!("tile {t:?} is also in hand"));
    }
    Ok(())
}
