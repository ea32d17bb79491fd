//! Daifugo (大富豪): cards, plays, legal moves, the rule toggles with the HOUSE and UECda
//! presets, the referee, the validated seat view and the bots (docs/rules/daifugo.md and
//! docs/rules/daifugo-presets.md; the easy bot: docs/rules/easy-bots.md, Daifugo).
//!
//! Data flows one way: [`view::DaifugoViewInput`] (wire-shaped, unchecked) ->
//! [`view::DaifugoView::new`] -> a [`crate::game::Policy`] -> [`decision::DaifugoDecision`].

#![warn(missing_docs)]

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
pub mod rules;
pub mod view;

pub use bots::policy;
pub use decision::{DaifugoDecision, legal_decisions};
pub use view::{DaifugoView, DaifugoViewInput, ViewError};

/// Daifugo: the type through which the shared game interface
/// ([`crate::game::Game`], [`crate::game::Simulation`]) reaches this module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Daifugo;
