//! Weak baselines for the arena: they show the apparatus can tell bots apart.

use crate::bot::DecisionContext;
use crate::game::Policy;
use crate::lexio::Lexio;
use crate::lexio::view::{Action, LexioView};

/// Plays one tile whenever it can: the weakest single that beats a single table, or
/// its weakest tile as a lead; passes on every other table.
#[derive(Clone, Copy, Debug, Default)]
pub struct SinglesBot;

impl Policy<Lexio> for SinglesBot {
    fn name(&self) -> &'static str {
        "singles"
    }

    fn decide(&self, view: &LexioView, _ctx: &mut DecisionContext<'_>) -> Action {
        let single = |t| {
            crate::lexio::classify(view.players(), crate::lexio::TileSet::EMPTY.with(t))
                .map_or(Action::Pass, Action::Play)
        };
        match view.table() {
            None => view.hand().lowest().map_or(Action::Pass, single),
            Some(table) if table.len() == 1 => {
                let top = table.tiles().highest().map_or(0, |t| t.id());
                let stronger =
                    crate::lexio::TileSet::from_bits(view.hand().bits() >> (top + 1) << (top + 1));
                stronger.lowest().map_or(Action::Pass, single)
            }
            Some(_) => Action::Pass,
        }
    }
}

/// A uniformly random legal action, drawn from the request's generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Policy<Lexio> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
        let actions = view.legal_actions();
        actions[ctx.below(actions.len())]
    }
}
