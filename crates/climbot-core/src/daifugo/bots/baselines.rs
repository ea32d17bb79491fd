//! Weak baselines for the arena: `singles` (one card at a time) and `random` (a
//! uniform legal decision).

use super::{DaifugoDecision, legal_decisions};
use crate::bot::DecisionContext;
use crate::daifugo::Daifugo;
use crate::daifugo::moves::legal_plays;
use crate::daifugo::plays::PlayKind;
use crate::daifugo::referee::weakest_cards;
use crate::daifugo::view::{DaifugoView, Phase};
use crate::game::Policy;

/// Plays one card whenever it can: the weakest single that beats, or leads its weakest
/// single; gives back its weakest cards.
#[derive(Clone, Copy, Debug, Default)]
pub struct SinglesBot;

impl Policy<Daifugo> for SinglesBot {
    fn decide(&self, view: &DaifugoView, _ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        match view.phase() {
            Phase::Exchange { give } => DaifugoDecision::Exchange(weakest_cards(view.hand(), give)),
            Phase::Play => {
                let mut plays = Vec::new();
                legal_plays(view.hand(), view.trick(), view.rules(), &mut plays);
                let reversed = view.trick().reversed();
                plays
                    .iter()
                    .filter(|p| p.kind() == PlayKind::Single)
                    .min_by_key(|p| (p.strength(reversed), p.tie_key(reversed)))
                    .map_or(DaifugoDecision::Pass, |p| DaifugoDecision::Play(*p))
            }
        }
    }

    fn name(&self) -> &'static str {
        "singles"
    }
}

/// A uniform draw among [`legal_decisions`], from the context's generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Policy<Daifugo> for RandomBot {
    fn decide(&self, view: &DaifugoView, ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        let decisions = legal_decisions(view);
        decisions[ctx.below(decisions.len())]
    }

    fn name(&self) -> &'static str {
        "random"
    }
}
