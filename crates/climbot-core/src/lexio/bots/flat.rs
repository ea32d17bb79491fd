//! The flat Monte Carlo bot, Lexio's first EXPERT (kept as the arena's `flat`, the
//! yardstick the search of `crate::search` is measured against): determinized Monte
//! Carlo, an anytime algorithm.
//!
//! Each iteration deals the unseen tiles to the other seats at random (consistent with
//! their tile counts: a bot sees only its view), then plays every candidate action and
//! the rest of the round with easy bots in every seat, scoring the candidate by this
//! seat's settlement (chips, not places: the aim of a Lexio round is its payout). All
//! candidates share each sampled deal (common random numbers), and the candidate with
//! the best mean wins. The search stops at its iteration cap or when the budget check
//! fires; stopped before one full iteration, it answers easy and marks a fallback.

use super::easy::easy_action;
use crate::bot::DecisionContext;
use crate::game::{Policy, Simulation};
use crate::lexio::Lexio;
use crate::lexio::position::{LexioPosition, trick_state};
use crate::lexio::referee::{Round, settle};
use crate::lexio::tiles::TileSet;
use crate::lexio::view::{Action, LexioView};

/// The flat Monte Carlo policy with its iteration cap (sampled deals per decision).
#[derive(Clone, Copy, Debug)]
pub struct FlatMonteCarloBot {
    /// At most this many sampled deals; with the cap reached before the budget, the
    /// answer depends only on the view and the seed.
    pub max_iterations: u32,
}

impl Default for FlatMonteCarloBot {
    fn default() -> Self {
        FlatMonteCarloBot { max_iterations: 64 }
    }
}

/// Plays the rest of a round with easy bots everywhere and returns `seat`'s net chips.
fn rollout(mut round: Round, seat: usize) -> i64 {
    let players = round.players();
    let limit = players.deck().len() * players.count() * 4;
    for _ in 0..limit {
        if round.winner().is_some() {
            break;
        }
        let s = round.to_act();
        let action = easy_action(players, round.hand(s), round.table());
        if round.apply(action).is_err() {
            break;
        }
    }
    let hands: Vec<TileSet> = (0..players.count()).map(|s| round.hand(s)).collect();
    settle(players, &hands).1[seat]
}

impl Policy<Lexio> for FlatMonteCarloBot {
    fn name(&self) -> &'static str {
        "flat"
    }

    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
        let candidates = view.legal_actions();
        if candidates.len() == 1 {
            return candidates[0];
        }
        let players = view.players();
        let me = view.seat();
        let trick = trick_state(view);
        let mut totals = vec![0i64; candidates.len()];
        let mut iterations = 0u32;
        'search: while iterations < self.max_iterations {
            if ctx.should_stop() {
                break;
            }
            // Deal the unseen tiles to the other seats by their counts.
            let hands = Lexio::deal(view, ctx.rng());
            let mut scores = vec![0i64; candidates.len()];
            for (i, &action) in candidates.iter().enumerate() {
                if ctx.should_stop() {
                    break 'search;
                }
                let (table, passes) = match trick {
                    Some((c, owner, passes)) => (Some((c, owner)), passes),
                    None => (None, 0),
                };
                let mut round = Round::from_position(LexioPosition::new(
                    players,
                    hands,
                    view.played(),
                    table,
                    passes,
                    me,
                ));
                if round.apply(action).is_err() {
                    // Unreachable for generated actions; never prefer such a candidate.
                    scores[i] = i64::MIN / 4;
                    continue;
                }
                scores[i] = rollout(round, me);
            }
            for (t, s) in totals.iter_mut().zip(&scores) {
                *t += s;
            }
            iterations += 1;
        }
        if iterations == 0 {
            ctx.mark_fallback();
            return easy_action(players, view.hand(), view.table());
        }
        let best = (0..candidates.len())
            .max_by(|&a, &b| totals[a].cmp(&totals[b]).then(b.cmp(&a)))
            .unwrap_or(0);
        candidates[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::referee::deal;
    use crate::lexio::tiles::PlayerCount;

    #[test]
    fn expert_answers_legally_and_reproducibly() {
        let players = PlayerCount::Five;
        let round = Round::new(players, deal(players, 11), 1, [0; 5]);
        let view = round.view().unwrap();
        let bot = FlatMonteCarloBot { max_iterations: 4 };
        let a = bot.decide(&view, &mut DecisionContext::unbounded(5));
        let b = bot.decide(&view, &mut DecisionContext::unbounded(5));
        assert_eq!(a, b);
        assert!(view.is_legal(a));
    }

    #[test]
    fn a_spent_budget_falls_back_to_easy() {
        let players = PlayerCount::Four;
        let round = Round::new(players, deal(players, 2), 1, [0; 5]);
        let view = round.view().unwrap();
        let stop = || true;
        let mut ctx = DecisionContext::new(1, &stop);
        let action = FlatMonteCarloBot::default().decide(&view, &mut ctx);
        assert!(ctx.was_fallback());
        assert_eq!(action, easy_action(players, view.hand(), view.table()));
    }
}
