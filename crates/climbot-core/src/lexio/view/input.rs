//! What [`super::LexioView::new`] and [`super::LexioView::from_parts`] receive: the
//! client's unchecked fields, and the referee's domain-typed parts.

use super::LoggedAction;
use crate::lexio::combos::Combo;
use crate::lexio::tiles::{PlayerCount, Tile, TileSet};
use smallvec::SmallVec;

/// The tiles of one play as a client reports them: up to eight are held inline, so
/// that reading a view's log allocates nothing per play (a valid play has at most
/// five; more are kept, on the heap, for the validation to refuse).
pub type PlayTiles = SmallVec<[Tile; 8]>;

/// One seat's public state as a client reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SeatCount {
    /// Tiles the seat still holds.
    pub tile_count: u32,
}

/// The play to beat as a client reports it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TableInput {
    /// The seat that made the play (required).
    pub owner: Option<u32>,
    /// Its tiles.
    pub tiles: PlayTiles,
}

/// One public action of this round, as a client reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEntry {
    /// `seat` played these tiles.
    Play {
        /// The seat that played.
        seat: u32,
        /// The tiles it played.
        tiles: PlayTiles,
    },
    /// `seat` passed.
    Pass {
        /// The seat that passed.
        seat: u32,
    },
}

/// The unchecked parts of a view, mirroring the wire message field for field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewInput {
    /// 3, 4 or 5.
    pub player_count: u32,
    /// The deciding seat, `0..player_count`.
    pub seat: u32,
    /// The seat's own tiles.
    pub hand: Vec<Tile>,
    /// The play to beat and its owner; `None` when the seat leads.
    pub table: Option<TableInput>,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatCount>,
    /// Every tile played this round (including the table).
    pub played: Vec<Tile>,
    /// Optional: every play and pass of this round, oldest first.
    pub log: Vec<LogEntry>,
    /// The round number, from 1.
    pub round: u32,
    /// Optional: the running score of each seat (empty or one per seat).
    pub scores: Vec<i64>,
}

/// The domain-typed parts of a view, as the referee holds them.
#[derive(Clone, Debug)]
pub struct ViewParts {
    /// The player count.
    pub players: PlayerCount,
    /// The deciding seat.
    pub seat: usize,
    /// Its hand.
    pub hand: TileSet,
    /// The play to beat and the seat that made it, if any.
    pub table: Option<(Combo, usize)>,
    /// Tiles held by each seat (only the first `players` entries count).
    pub counts: [u8; 5],
    /// Tiles played this round.
    pub played: TileSet,
    /// The public log (may be empty).
    pub log: Vec<LoggedAction>,
    /// Round number, from 1.
    pub round: u32,
    /// Running scores.
    pub scores: [i64; 5],
}
