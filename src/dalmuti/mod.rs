//! The Great Dalmuti: rules engine (cards, plays, legal moves, turn flow), referee,
//! the validated view of one seat, and the bots (rules.md section 2 and 6.2).
//!
//! Data flows one way: [`view::DalmutiViewInput`] (unchecked, wire-shaped) ->
//! [`view::DalmutiView::new`] -> a [`bots::DalmutiPolicy`] -> a
//! [`bots::DalmutiDecision`].

pub mod bots;
pub mod cards;
pub mod cli;
pub mod knowledge;
pub mod moves;
pub mod plan;
pub mod plays;
pub mod referee;
pub mod stats;
pub mod turn;
pub mod view;

pub use bots::{DalmutiDecision, DalmutiPolicy, is_legal, legal_decisions, policy};
pub use cards::{Cards, Rank};
pub use plays::Play;
pub use view::{DalmutiView, DalmutiViewInput, Phase, ViewError};
