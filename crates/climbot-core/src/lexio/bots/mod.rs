//! Lexio bots behind one policy interface, used by the service and the arena alike.

mod baselines;
mod easy;
mod expert;
mod flat;
mod hard;

pub use baselines::{RandomBot, SinglesBot};
pub use easy::{EasyBot, easy_action};
pub use flat::FlatMonteCarloBot;
pub use hard::{HardBot, Scored, Weights};

use super::Lexio;
use super::view::{Action, LexioView};
use crate::bot::Difficulty;
use crate::bot::{BotNameError, OverrideProblem};
use crate::game::{Game, Policy, no_overrides, served_bot};
use crate::search::ExpertBot;

static EXPERT: ExpertBot<Lexio> = ExpertBot::served();
static HARD: HardBot = HardBot::hard();
static NORMAL: HardBot = HardBot::normal();

/// The policy serving a difficulty (Lexio has every level).
pub fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Lexio>> {
    match difficulty {
        Difficulty::Easy => Some(&EasyBot),
        Difficulty::Normal => Some(&NORMAL),
        Difficulty::Hard => Some(&HARD),
        Difficulty::Expert => Some(&EXPERT),
    }
}

/// A policy by arena name: the difficulty names, the baselines `singles` and
/// `random`, and `flat` (the flat Monte Carlo bot that was EXPERT before the search);
/// `hard` and `normal` take weight overrides for tuning and ablation, as
/// `hard/tempo=0/plan=2`, and `memory=k` (read only the last k log entries) or
/// `memory=all`; `expert` takes the search's overrides (`expert/iterations=400`, see
/// [`crate::search::ExpertBot::with_override`]).
/// The error names the part of `name` that is wrong and why.
pub fn by_name(name: &str) -> Result<Box<dyn Policy<Lexio>>, BotNameError> {
    if let Some(policy) = crate::learn::PolicyBot::<Lexio>::by_name(name) {
        return policy.map(|b| Box::new(b) as Box<dyn Policy<Lexio>>);
    }
    if let Some(expert) = crate::search::expert::by_name::<Lexio>(name) {
        return expert.map(|b| Box::new(b) as Box<dyn Policy<Lexio>>);
    }
    let (base, overrides) = name.split_once('/').unwrap_or((name, ""));
    let fixed: Box<dyn Policy<Lexio>> = match base {
        "singles" => Box::new(SinglesBot),
        "random" => Box::new(RandomBot),
        "flat" => Box::new(FlatMonteCarloBot::default()),
        "hard" | "normal" => Box::new(tuned(base, overrides)?),
        _ => return served_bot::<Lexio>(name),
    };
    if !matches!(base, "hard" | "normal") {
        no_overrides(base, overrides)?;
    }
    Ok(fixed)
}

/// `hard` or `normal` with its overrides, each checked.
fn tuned(base: &str, overrides: &str) -> Result<HardBot, BotNameError> {
    let mut bot = if base == "hard" {
        HardBot::hard()
    } else {
        HardBot::normal()
    };
    for part in overrides.split('/').filter(|p| !p.is_empty()) {
        match part.strip_prefix("memory=") {
            // `memory=all` is the hard bot's full information; `memory=k` the last k
            // log entries (the normal bot's 4).
            Some("all") => bot.memory = None,
            Some(k) => {
                bot.memory = Some(k.parse().map_err(|_| {
                    BotNameError::override_of(
                        part,
                        OverrideProblem::Expected("a count of log entries or all"),
                    )
                })?);
            }
            None => bot.weights = bot.weights.with_override(part)?,
        }
    }
    Ok(bot)
}

impl Game for Lexio {
    const NAME: &'static str = "lexio";
    const BOT_NAMES: &'static str = "easy, normal, hard, expert, expert-v1, policy, flat, singles, random; normal and hard take overrides like hard/tempo=0, expert like expert/iterations=400, policy like policy/temperature=0.5";
    type View = LexioView;
    type Decision = Action;

    fn seat(view: &LexioView) -> usize {
        view.seat()
    }

    fn legal_decisions(view: &LexioView) -> Vec<Action> {
        view.legal_actions()
    }

    fn is_legal(view: &LexioView, decision: &Action) -> bool {
        view.is_legal(*decision)
    }

    fn fingerprint(view: &LexioView) -> u64 {
        view.fingerprint()
    }

    fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Lexio>> {
        policy(difficulty)
    }

    fn bot(name: &str) -> Result<Box<dyn Policy<Lexio>>, BotNameError> {
        by_name(name)
    }
}
