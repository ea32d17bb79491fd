//! The decision of one Daifugo seat and the legal decisions of a view: what the referee
//! checks and what every bot returns.

use super::cards::{Card, CardSet};
use super::moves::legal_plays;
use super::plays::Play;
use super::view::{DaifugoView, Phase};

/// One decision: pass, a play, or the cards given back in the exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DaifugoDecision {
    /// Pass (locked out until the table clears).
    Pass,
    /// Put down a play.
    Play(Play),
    /// Give these cards back (daifugo 2, fugo 1), chosen after receiving the tribute.
    Exchange(CardSet),
}

/// Every legal decision of the view, in a fixed order: the plays in generation order
/// then the pass (when allowed); or every give-back set in ascending bit order.
///
/// ```
/// use climbot_core::daifugo::bots::{legal_decisions, DaifugoDecision};
/// use climbot_core::daifugo::referee::Referee;
/// use climbot_core::daifugo::rules::RuleSet;
/// let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
/// referee.start_game_seeded(1);
/// let view = referee.view(referee.to_act().unwrap()).unwrap();
/// let decisions = legal_decisions(&view);
/// // The first lead cannot pass under the house rules.
/// assert!(!decisions.contains(&DaifugoDecision::Pass));
/// assert!(decisions.len() >= view.hand().len());
/// ```
pub fn legal_decisions(view: &DaifugoView) -> Vec<DaifugoDecision> {
    match view.phase() {
        Phase::Play => {
            let mut plays = Vec::new();
            legal_plays(view.hand(), view.trick(), view.rules(), &mut plays);
            let mut out: Vec<DaifugoDecision> =
                plays.into_iter().map(DaifugoDecision::Play).collect();
            if pass_allowed(view) {
                out.push(DaifugoDecision::Pass);
            }
            out
        }
        Phase::Exchange { give } => {
            let cards: Vec<_> = view.hand().iter().collect();
            let mut out = Vec::new();
            let mut pick = Vec::with_capacity(give);
            subsets(&cards, give, 0, &mut pick, &mut out);
            out.into_iter().map(DaifugoDecision::Exchange).collect()
        }
    }
}

fn subsets(cards: &[Card], k: usize, from: usize, pick: &mut Vec<Card>, out: &mut Vec<CardSet>) {
    if pick.len() == k {
        out.push(pick.iter().copied().collect());
        return;
    }
    for i in from..cards.len() {
        pick.push(cards[i]);
        subsets(cards, k, i + 1, pick, out);
        pick.pop();
    }
}

fn pass_allowed(view: &DaifugoView) -> bool {
    super::moves::pass_allowed(view.trick(), view.rules())
}

/// Whether `decision` is legal in `view` (same answer as membership in
/// [`legal_decisions`], without enumerating).
pub fn is_legal(view: &DaifugoView, decision: &DaifugoDecision) -> bool {
    match (view.phase(), decision) {
        (Phase::Play, DaifugoDecision::Pass) => pass_allowed(view),
        (Phase::Play, DaifugoDecision::Play(play)) => {
            play.cards().is_subset(view.hand()) && {
                let mut plays = Vec::new();
                legal_plays(view.hand(), view.trick(), view.rules(), &mut plays);
                plays.contains(play)
            }
        }
        (Phase::Exchange { give }, DaifugoDecision::Exchange(cards)) => {
            cards.len() == give && cards.is_subset(view.hand())
        }
        _ => false,
    }
}
