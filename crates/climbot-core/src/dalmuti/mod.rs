//! The Great Dalmuti: rules engine (cards, plays, legal moves, turn flow), referee,
//! the validated view of one seat, and the bots (docs/rules/dalmuti.md; the easy bot:
//! docs/rules/easy-bots.md, The Great Dalmuti).
//!
//! Data flows one way: [`view::DalmutiViewInput`] (unchecked, wire-shaped) ->
//! [`view::DalmutiView::new`] -> a [`crate::game::Policy`] -> a
//! [`decision::DalmutiDecision`].

pub mod bots;
pub mod cards;
pub mod decision;
pub mod features;
pub mod knowledge;
pub mod moves;
pub mod plan;
pub mod plays;
pub mod position;
pub mod referee;
pub mod turn;
pub mod view;

pub use bots::policy;
pub use cards::{Cards, Rank};
pub use decision::{DalmutiDecision, is_legal, legal_decisions};
pub use plays::Play;
pub use view::{DalmutiView, DalmutiViewInput, Phase, ViewError};

/// The Great Dalmuti: the type through which the shared game interface
/// ([`crate::game::Game`], [`crate::game::Simulation`]) reaches this module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dalmuti;
