//! Lexio bots behind one policy interface, used by the service and the arena alike.

mod baselines;
mod easy;
mod expert;

pub use baselines::{RandomBot, SinglesBot};
pub use easy::{EasyBot, easy_action};
pub use expert::ExpertBot;

use super::view::{Action, LexioView};
use crate::bot::{DecisionContext, Difficulty};

/// A Lexio bot: given one seat's view, choose a legal action.
pub trait LexioPolicy: Send + Sync {
    /// The bot's name in the arena and in logs.
    fn name(&self) -> &'static str;
    /// Chooses a legal action for the view. Randomness comes only from `ctx`.
    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action;
}

static EXPERT: ExpertBot = ExpertBot { max_iterations: 64 };

/// The policy serving a difficulty, or `None` when Lexio does not have that level yet.
pub fn policy(difficulty: Difficulty) -> Option<&'static dyn LexioPolicy> {
    match difficulty {
        Difficulty::Easy => Some(&EasyBot),
        Difficulty::Expert => Some(&EXPERT),
        Difficulty::Normal | Difficulty::Hard => None,
    }
}

/// A policy by arena name: the difficulty names plus the baselines `singles` and
/// `random`.
pub fn by_name(name: &str) -> Option<&'static dyn LexioPolicy> {
    match name {
        "singles" => Some(&SinglesBot),
        "random" => Some(&RandomBot),
        other => Difficulty::ALL
            .into_iter()
            .find(|d| d.name() == other)
            .and_then(policy),
    }
}
