//! Lexio bots behind one policy interface, used by the service and the arena alike.

mod baselines;
mod easy;
mod expert;
mod hard;

pub use baselines::{RandomBot, SinglesBot};
pub use easy::{EasyBot, easy_action};
pub use expert::ExpertBot;
pub use hard::{HardBot, Scored, Weights};

use super::view::{Action, LexioView};
use crate::bot::{DecisionContext, Difficulty, Explained};

/// A Lexio bot: given one seat's view, choose a legal action.
pub trait LexioPolicy: Send + Sync {
    /// The bot's name in the arena and in logs.
    fn name(&self) -> &'static str;
    /// Chooses a legal action for the view. Randomness comes only from `ctx`.
    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action;
    /// The decision plus the scored candidates behind it, best first (`explain`).
    /// Bots that score no candidates return the decision and an empty list.
    fn decide_explained(
        &self,
        view: &LexioView,
        ctx: &mut DecisionContext<'_>,
    ) -> (Action, Vec<Explained<Action>>) {
        (self.decide(view, ctx), Vec::new())
    }
}

static EXPERT: ExpertBot = ExpertBot { max_iterations: 64 };
static HARD: HardBot = HardBot::hard();
static NORMAL: HardBot = HardBot::normal();

/// The policy serving a difficulty (Lexio has every level).
pub fn policy(difficulty: Difficulty) -> Option<&'static dyn LexioPolicy> {
    match difficulty {
        Difficulty::Easy => Some(&EasyBot),
        Difficulty::Normal => Some(&NORMAL),
        Difficulty::Hard => Some(&HARD),
        Difficulty::Expert => Some(&EXPERT),
    }
}

/// A policy by arena name: the difficulty names, the baselines `singles` and
/// `random`; `hard` and `normal` take weight overrides for tuning and ablation, as
/// `hard/tempo=0/plan=2`, and `memory=k` (read only the last k log entries) or
/// `memory=all`.
pub fn by_name(name: &str) -> Option<Box<dyn LexioPolicy>> {
    let mut parts = name.split('/');
    let base = parts.next()?;
    let mut bot = match base {
        "singles" => return Some(Box::new(SinglesBot)),
        "random" => return Some(Box::new(RandomBot)),
        "hard" => HardBot::hard(),
        "normal" => HardBot::normal(),
        other => {
            return Difficulty::ALL
                .into_iter()
                .find(|d| d.name() == other)
                .and_then(policy)
                .map(|p| Box::new(Borrowed(p)) as Box<dyn LexioPolicy>);
        }
    };
    for part in parts {
        match part.strip_prefix("memory=") {
            // `memory=all` is the hard bot's full information; `memory=k` the last k
            // log entries (the normal bot's 4).
            Some("all") => bot.memory = None,
            Some(k) => bot.memory = Some(k.parse().ok()?),
            None => bot.weights = bot.weights.with_override(part).ok()?,
        }
    }
    Some(Box::new(bot))
}

/// A `'static` policy behind a box.
struct Borrowed(&'static dyn LexioPolicy);

impl LexioPolicy for Borrowed {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
        self.0.decide(view, ctx)
    }

    fn decide_explained(
        &self,
        view: &LexioView,
        ctx: &mut DecisionContext<'_>,
    ) -> (Action, Vec<Explained<Action>>) {
        self.0.decide_explained(view, ctx)
    }
}
