//! The bots and how they are found by name or difficulty; the decision type and the
//! legal decisions live in [`super::decision`] and are re-exported here.

pub mod baselines;
pub mod easy;
mod expert;
pub mod hard;

pub use super::decision::{DalmutiDecision, is_legal, legal_decisions};

use super::Dalmuti;
use super::view::DalmutiView;
use crate::bot::Difficulty;
use crate::bot::{BotNameError, OverrideProblem};
use crate::game::{Game, Policy, no_overrides};
use crate::search::ExpertBot;

/// A bot by name, for the arena and self-play: `easy`, `hard`, `normal`, `singles`,
/// `random`, and `hard`/`normal` with weight overrides, e.g. `hard/tempo=0/hold=0.3`
/// (names as in [`hard::Weights::with_override`], plus the ledger's `pass_factor=x`
/// and `memory=n` tricks, 0 = full memory). The error names an unknown name or the
/// override that is wrong and why. `expert` takes the search's overrides
/// (`expert/iterations=400`).
pub fn by_name(name: &str) -> Result<Box<dyn Policy<Dalmuti>>, BotNameError> {
    if let Some(policy) = crate::learn::PolicyBot::<Dalmuti>::by_name(name) {
        return policy.map(|b| Box::new(b) as Box<dyn Policy<Dalmuti>>);
    }
    if let Some(expert) = crate::search::expert::by_name::<Dalmuti>(name) {
        return expert.map(|b| Box::new(b) as Box<dyn Policy<Dalmuti>>);
    }
    let (base, overrides) = name.split_once('/').unwrap_or((name, ""));
    let fixed: Option<Box<dyn Policy<Dalmuti>>> = match base {
        "easy" => Some(Box::new(easy::EasyBot)),
        "singles" => Some(Box::new(baselines::SinglesBot)),
        "random" => Some(Box::new(baselines::RandomBot)),
        _ => None,
    };
    if let Some(bot) = fixed {
        no_overrides(base, overrides)?;
        return Ok(bot);
    }
    let mut bot = match base {
        "hard" => hard::HardBot::hard(),
        "normal" => hard::HardBot::normal(),
        _ => {
            return Err(BotNameError::Unknown {
                game: "dalmuti",
                bot: base.to_string(),
            });
        }
    };
    let mut overridden = false;
    for part in overrides.split('/').filter(|p| !p.is_empty()) {
        let bad = |what| BotNameError::override_of(part, OverrideProblem::Expected(what));
        match part.split_once('=') {
            Some(("pass_factor", v)) => {
                bot.memory.pass_factor = v
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| bad("a number at least 0"))?;
            }
            Some(("memory", v)) => {
                let n: usize = v.parse().map_err(|_| bad("a count of tricks (0: all)"))?;
                bot.memory.tricks = (n > 0).then_some(n);
            }
            _ => bot.weights = bot.weights.with_override(part)?,
        }
        overridden = true;
    }
    if overridden {
        bot.name = match base {
            "hard" => "hard-variant",
            _ => "normal-variant",
        };
    }
    Ok(Box::new(bot))
}

/// The policy serving `difficulty`, if this game has it: Easy, Normal and Hard (the
/// evaluation bot of Dalmuti Part 3; served because hard beats easy and normal lands
/// between them on held-out arena seeds), and Expert (the search of `crate::search`).
///
/// The whole service path: wire-shaped input -> validated view -> policy -> decision.
///
/// ```
/// use climbot_core::bot::{DecisionContext, Difficulty};
/// use climbot_core::game::Policy;
/// use climbot_core::dalmuti::referee::opening_view_input;
/// use climbot_core::dalmuti::{DalmutiView, is_legal, legal_decisions, policy};
/// let view = DalmutiView::new(opening_view_input(6, 7)).expect("valid input");
/// let easy = policy(Difficulty::Easy).unwrap();
/// let mut ctx = DecisionContext::unbounded(view.fingerprint());
/// let decision = easy.decide(&view, &mut ctx);
/// assert!(is_legal(&view, &decision));
/// assert!(legal_decisions(&view).contains(&decision));
/// let hard = policy(Difficulty::Hard).unwrap();
/// let (decision, candidates) = hard.decide_explained(&view, &mut ctx);
/// assert!(is_legal(&view, &decision));
/// assert!(candidates.iter().any(|c| c.action == decision));
/// assert!(policy(Difficulty::Normal).is_some());
/// assert!(policy(Difficulty::Expert).is_some());
/// ```
pub fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Dalmuti>> {
    match difficulty {
        Difficulty::Easy => Some(&easy::EasyBot),
        Difficulty::Normal => Some(&hard::NORMAL),
        Difficulty::Hard => Some(&hard::HARD),
        Difficulty::Expert => Some(&EXPERT),
    }
}

static EXPERT: ExpertBot<Dalmuti> = ExpertBot::served();

impl Game for Dalmuti {
    const NAME: &'static str = "dalmuti";
    const BOT_NAMES: &'static str = "easy, hard, normal, expert, expert-v1, policy, singles, random, hard/weight=value, expert/iterations=N, policy/temperature=X";
    type View = DalmutiView;
    type Decision = DalmutiDecision;

    fn seat(view: &DalmutiView) -> usize {
        view.seat()
    }

    fn legal_decisions(view: &DalmutiView) -> Vec<DalmutiDecision> {
        legal_decisions(view)
    }

    fn is_legal(view: &DalmutiView, decision: &DalmutiDecision) -> bool {
        is_legal(view, decision)
    }

    fn fingerprint(view: &DalmutiView) -> u64 {
        view.fingerprint()
    }

    fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Dalmuti>> {
        policy(difficulty)
    }

    fn bot(name: &str) -> Result<Box<dyn Policy<Dalmuti>>, BotNameError> {
        by_name(name)
    }
}

#[cfg(test)]
mod tests {
    use super::by_name;

    #[test]
    fn by_name_knows_the_bots_and_the_overrides() {
        for name in ["easy", "hard", "normal", "singles", "random"] {
            assert_eq!(by_name(name).map(|b| b.name()), Ok(name));
        }
        assert_eq!(
            by_name("hard/tempo=0/memory=2/pass_factor=1").map(|b| b.name()),
            Ok("hard-variant")
        );
        let error = |name: &str| by_name(name).err().expect("an error").to_string();
        assert_eq!(
            error("hard/nope=1"),
            r#""nope=1": no setting "nope" in hard and normal"#
        );
        assert_eq!(
            error("hard/memory=x"),
            r#""memory=x": expected a count of tricks (0: all)"#
        );
        assert_eq!(
            error("easy/bogus=1"),
            r#"easy takes no overrides, not "bogus=1""#
        );
        assert_eq!(error("jester"), r#"dalmuti has no bot "jester""#);
        assert_eq!(by_name("expert").map(|b| b.name()), Ok("expert"));
        assert_eq!(
            by_name("expert/iterations=50").map(|b| b.name()),
            Ok("expert-variant")
        );
        assert!(by_name("expert/iterations=0").is_err());
    }
}
