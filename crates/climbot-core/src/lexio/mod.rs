//! Lexio: tiles, combinations, move generation, referee, view and bots
//! (Lexio Parts 1 and 2 in `docs/references.md`; the rules as the referee implements them).

pub mod bots;
pub mod combos;
pub mod features;
pub mod knowledge;
pub mod moves;
pub mod plan;
pub mod position;
pub mod referee;
pub mod safety;
pub mod tiles;
pub mod view;

pub use combos::{Category, Combo, Key, classify};
pub use tiles::{PlayerCount, Suit, Tile, TileSet};
pub use view::{
    Action, LexioView, LogEntry, LoggedAction, PlayTiles, SeatCount, TableInput, ViewError,
    ViewInput, ViewParts,
};

/// Every legal action of a view (plays, and the pass on a non-empty table).
pub fn legal_actions(view: &LexioView) -> Vec<Action> {
    view.legal_actions()
}

/// Lexio: the type through which the shared game interface
/// ([`crate::game::Game`], [`crate::game::Simulation`]) reaches this module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lexio;
