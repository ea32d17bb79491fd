//! The bots and how they are found by name or difficulty; the decision type and the
//! legal decisions live in [`super::decision`] and are re-exported here.

pub mod baselines;
pub mod easy;
mod expert;
pub mod hard;

pub use super::decision::{DaifugoDecision, is_legal, legal_decisions};

use super::Daifugo;
use super::view::DaifugoView;
use crate::bot::Difficulty;
use crate::bot::{BotNameError, OverrideProblem};
use crate::game::{Game, Policy, no_overrides, served_bot};
use crate::search::ExpertBot;

static EXPERT: ExpertBot<Daifugo> = ExpertBot::served();

/// The policy serving `difficulty`: every level. Normal and Hard are the evaluation
/// bots of [`hard`], Expert the search of `crate::search`.
///
/// ```
/// use climbot_core::bot::{DecisionContext, Difficulty};
/// use climbot_core::daifugo::bots::{is_legal, policy};
/// use climbot_core::daifugo::referee::Referee;
/// use climbot_core::daifugo::rules::RuleSet;
/// use climbot_core::game::Policy;
/// let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
/// referee.start_game_seeded(3);
/// let view = referee.view(referee.to_act().unwrap()).unwrap();
/// for level in [Difficulty::Normal, Difficulty::Hard] {
///     let bot = policy(level).unwrap();
///     let mut ctx = DecisionContext::unbounded(view.fingerprint());
///     let (decision, candidates) = bot.decide_explained(&view, &mut ctx);
///     assert!(is_legal(&view, &decision));
///     assert!(candidates.iter().any(|c| c.action == decision));
/// }
/// ```
pub fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Daifugo>> {
    match difficulty {
        Difficulty::Easy => Some(&easy::EasyBot),
        Difficulty::Normal => Some(&hard::NORMAL),
        Difficulty::Hard => Some(&hard::HARD),
        Difficulty::Expert => Some(&EXPERT),
    }
}

/// A bot by arena name: the served levels, `expert` with the search's overrides
/// (`expert/iterations=400`), the baselines `singles` and `random`, and `hard` or
/// `normal` with overrides for tuning and ablation: weights by name
/// ([`hard::Weights::with_override`], e.g. `hard/tempo=0/finish=5`), `memory=k` (read
/// only the last k log entries; `memory=all` the whole log), `passes=0|1` (read passes
/// as evidence) and `pass_factor=x`. The error names an unknown name or the override
/// that is wrong and why.
pub fn by_name(name: &str) -> Result<Box<dyn Policy<Daifugo>>, BotNameError> {
    if let Some(policy) = crate::learn::PolicyBot::<Daifugo>::by_name(name) {
        return policy.map(|b| Box::new(b) as Box<dyn Policy<Daifugo>>);
    }
    if let Some(expert) = crate::search::expert::by_name::<Daifugo>(name) {
        return expert.map(|b| Box::new(b) as Box<dyn Policy<Daifugo>>);
    }
    let (base, overrides) = name.split_once('/').unwrap_or((name, ""));
    let mut bot = match base {
        "singles" | "random" => {
            no_overrides(base, overrides)?;
            return Ok(if base == "singles" {
                Box::new(baselines::SinglesBot)
            } else {
                Box::new(baselines::RandomBot)
            });
        }
        "hard" => hard::HardBot::hard(),
        "normal" => hard::HardBot::normal(),
        _ => return served_bot::<Daifugo>(name),
    };
    let mut overridden = false;
    for part in overrides.split('/').filter(|p| !p.is_empty()) {
        let bad = |what| BotNameError::override_of(part, OverrideProblem::Expected(what));
        match part.split_once('=') {
            Some(("memory", "all")) => bot.memory.window = None,
            Some(("memory", k)) => {
                bot.memory.window = Some(
                    k.parse()
                        .map_err(|_| bad("a count of log entries or all"))?,
                );
            }
            Some(("passes", v)) => {
                bot.memory.passes = match v {
                    "0" => false,
                    "1" => true,
                    _ => return Err(bad("0 or 1")),
                };
            }
            Some(("pass_factor", v)) => {
                bot.memory.pass_factor = v
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| bad("a number at least 0"))?;
            }
            _ => bot.weights = bot.weights.with_override(part)?,
        }
        overridden = true;
    }
    if overridden {
        bot.name = if base == "hard" {
            "hard-variant"
        } else {
            "normal-variant"
        };
    }
    Ok(Box::new(bot))
}

impl Game for Daifugo {
    const NAME: &'static str = "daifugo";
    const BOT_NAMES: &'static str = "easy, normal, hard, expert, expert-v1, policy, singles, random; hard and normal take \
         overrides like hard/tempo=0/memory=6, expert like expert/iterations=400, policy like \
         policy/temperature=0.5";
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

    fn bot(name: &str) -> Result<Box<dyn Policy<Daifugo>>, BotNameError> {
        by_name(name)
    }
}
