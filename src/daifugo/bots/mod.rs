//! The bots and how they are found by name or difficulty; the decision type and the
//! legal decisions live in [`super::decision`] and are re-exported here.

pub mod baselines;
pub mod easy;
mod expert;

pub use super::decision::{DaifugoDecision, is_legal, legal_decisions};

use super::Daifugo;
use super::view::DaifugoView;
use crate::bot::Difficulty;
use crate::game::{Game, Policy, served_bot};
use crate::search::ExpertBot;

static EXPERT: ExpertBot<Daifugo> = ExpertBot::served();

/// The policy serving `difficulty`, if this game has it: Easy and Expert (the search;
/// Normal and Hard are not built yet).
pub fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Daifugo>> {
    match difficulty {
        Difficulty::Easy => Some(&easy::EasyBot),
        Difficulty::Expert => Some(&EXPERT),
        _ => None,
    }
}

/// A bot by arena name: the served levels, `expert` with the search's overrides
/// (`expert/iterations=400`), and the baselines `singles` and `random`.
pub fn by_name(name: &str) -> Option<Box<dyn Policy<Daifugo>>> {
    if let Some(expert) = crate::search::expert::by_name::<Daifugo>(name) {
        return expert.ok().map(|b| Box::new(b) as Box<dyn Policy<Daifugo>>);
    }
    match name {
        "singles" => Some(Box::new(baselines::SinglesBot)),
        "random" => Some(Box::new(baselines::RandomBot)),
        other => served_bot::<Daifugo>(other),
    }
}

impl Game for Daifugo {
    const NAME: &'static str = "daifugo";
    const BOT_NAMES: &'static str =
        "easy, expert, singles, random; expert takes overrides like expert/iterations=400";
    type View = DaifugoView;
    type Decision = DaifugoDecision;

    fn seat(view: &DaifugoView) -> usize {
        view.seat()
    }

    fn legal_decisions(view: &DaifugoView) -> Vec<DaifugoDecision> {
        legal_decisions(view)
    }

    fn is_legal(view: &DaifugoView, decision: &DaifugoDecision) -> bool {
        is_legal(view, decision)
    }

    fn fingerprint(view: &DaifugoView) -> u64 {
        view.fingerprint()
    }

    fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Daifugo>> {
        policy(difficulty)
    }

    fn bot(name: &str) -> Option<Box<dyn Policy<Daifugo>>> {
        by_name(name)
    }
}
