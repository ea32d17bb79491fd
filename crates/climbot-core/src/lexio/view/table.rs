//! The table: the play to beat, a legal combination of played tiles, and the seat
//! that made it.

use super::input::TableInput;
use super::tiles;
use crate::lexio::combos::Combo;
use crate::lexio::tiles::{PlayerCount, TileSet};
use crate::view_error::{ViewError, refuse};

/// The play to beat and its owner as a client sent them (`None`: the seat leads).
pub(super) fn parse(
    table: Option<&TableInput>,
    players: PlayerCount,
) -> Result<Option<(Combo, usize)>, ViewError> {
    let Some(table) = table else {
        return Ok(None);
    };
    let field = || "table.tiles".to_string();
    let set = tiles::set(field, &table.tiles, players)?;
    if set.is_empty() {
        return refuse(
            "table.tiles",
            "empty: leave `table` unset when the seat leads",
        );
    }
    let combo = tiles::combo_of(field, set, players)?;
    let owner = table
        .owner
        .ok_or_else(|| ViewError::new("table.owner", "required: the seat that made the play"))?;
    Ok(Some((combo, owner as usize)))
}

/// The table's tiles are played, and its owner is another seat.
pub(super) fn check(
    table: Option<(Combo, usize)>,
    players: PlayerCount,
    seat: usize,
    played: TileSet,
) -> Result<(), ViewError> {
    let Some((table, owner)) = table else {
        return Ok(());
    };
    let p = players.count();
    if let Some(t) = table.tiles().difference(played).lowest() {
        return refuse(
            "table.tiles",
            format!("tile {t:?} is not among the played tiles"),
        );
    }
    if owner >= p {
        return refuse(
            "table.owner",
            format!(
                "seat {owner} is out of range for {p} players (0..{})",
                p - 1
            ),
        );
    }
    if owner == seat {
        return refuse(
            "table.owner",
            format!(
                "seat {owner} is the deciding seat: a play that comes back to its \
                 owner has been passed by every other seat, which clears the table"
            ),
        );
    }
    Ok(())
}
