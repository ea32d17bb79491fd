//! The hard and normal evaluation bots (`docs/measurements/daifugo-hard.md`).
//!
//! Every legal play and the pass are scored on one scale, each term by name:
//!
//! - **plan**: plays and losers the hand plan saves (`crate::daifugo::plan`), in the
//!   current order;
//! - **revolution**: for a play that flips the order, how much better the rest of the
//!   hand plans in the new order than in the old;
//! - **strength**: the strong cards a play spends (the upper half of the order, the
//!   joker most), which win leads back later;
//! - **control**: the chance nobody still in the trick beats the play (1 for a certain
//!   winner); for the pass on its own play (self-follow), the lead it takes;
//! - **tempo**: after the action, the chance an opponent goes out on this trick (its
//!   count equals the bar's and it can beat the bar), or takes the lead holding a
//!   single card;
//! - **block**: when an opponent can go out on the current table, a bonus for the
//!   plays that stop every such threat;
//! - **finish**: for a play after which the rest of the hand is a mate from the lead,
//!   the chance the play wins its trick;
//! - **finishable**: a penalty when the rest of the hand can no longer end on an
//!   allowed finishing play (forbidden finishes);
//! - **pass**: a constant on the pass;
//! - **out**: a play that empties the hand: the highest score when the finish is
//!   allowed, the lowest when it is forbidden.
//!
//! Near-equal candidates are drawn by the seeded softmax of `crate::bot`. The give-back
//! of the exchange weighs what the rest of the hand plans to (plays, losers, an
//! allowed finisher kept) against the strength handed to the receiver. The normal bot
//! is the same computation on less information (the last few log entries, no pass
//! inference) with a looser draw.

use super::DaifugoDecision;
use crate::bot::BotNameError;
use crate::bot::{DecisionContext, Explained, draw_index, parse_weight, softmax_probabilities};
use crate::daifugo::Daifugo;
use crate::daifugo::cards::{Card, CardSet, RANK_2};
use crate::daifugo::decision::legal_decisions;
use crate::daifugo::knowledge::{Knowledge, Memory};
use crate::daifugo::moves::{legal_plays, pass_allowed};
use crate::daifugo::plan::{Plan, Planner};
use crate::daifugo::plays::Play;
use crate::daifugo::view::{DaifugoView, Phase};
use crate::game::Policy;

/// The weights of the score terms (names accepted by [`Weights::with_override`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per play the hand plan saves.
    pub plan: f64,
    /// Per loser (a plan play that is no certain lead winner) the hand plan saves.
    pub losers: f64,
    /// Per unit of strong-card strength spent.
    pub strength: f64,
    /// Scale of the chance the play wins its trick.
    pub control: f64,
    /// Scale of the chance an opponent goes out after the action.
    pub tempo: f64,
    /// Bonus of a play that stops every opponent able to go out on this trick.
    pub block: f64,
    /// An opponent's chance to beat the table above which it is a threat to block.
    pub block_threshold: f64,
    /// Scale of the plan's improvement from a revolution.
    pub revolution: f64,
    /// Bonus of a play that leaves a mate from the lead, times its chance to win.
    pub finish: f64,
    /// Penalty when the rest of the hand cannot end on an allowed finishing play.
    pub finishable: f64,
    /// Added to the pass.
    pub pass: f64,
    /// Exchange: per unit of strength handed to the receiver.
    pub give: f64,
    /// Softmax temperature between near-equal candidates (0 = always the best).
    pub temperature: f64,
    /// Only candidates within this much of the best are drawn.
    pub margin: f64,
}

/// The hard level's weights (tuning log in `docs/measurements/daifugo-hard.md`).
pub const HARD_WEIGHTS: Weights = Weights {
    plan: 1.0,
    losers: 1.5,
    strength: 0.6,
    control: 0.8,
    tempo: 1.0,
    block: 2.0,
    block_threshold: 0.3,
    revolution: 0.5,
    finish: 3.0,
    finishable: 4.0,
    pass: 0.0,
    give: 0.5,
    temperature: 0.05,
    margin: 0.1,
};

impl Default for Weights {
    fn default() -> Self {
        HARD_WEIGHTS
    }
}

impl Weights {
    /// The weights with one `name=value` override (tuning and ablation).
    pub fn with_override(mut self, text: &str) -> Result<Weights, BotNameError> {
        let (name, v) = parse_weight(text)?;
        let slot = match name {
            "plan" => &mut self.plan,
            "losers" => &mut self.losers,
            "strength" => &mut self.strength,
            "control" => &mut self.control,
            "tempo" => &mut self.tempo,
            "block" => &mut self.block,
            "block_threshold" => &mut self.block_threshold,
            "revolution" => &mut self.revolution,
            "finish" => &mut self.finish,
            "finishable" => &mut self.finishable,
            "pass" => &mut self.pass,
            "give" => &mut self.give,
            "temperature" => &mut self.temperature,
            "margin" => &mut self.margin,
            _ => return Err(BotNameError::unknown_setting(text, "hard and normal", "")),
        };
        *slot = v;
        Ok(self)
    }
}

/// The score of a play that empties the hand legally (always taken), negated for a
/// forbidden finish (taken only when nothing else is legal).
const OUT: f64 = 1000.0;

/// The evaluation bot; [`HardBot::hard`] and [`HardBot::normal`] are the served levels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HardBot {
    /// The weights.
    pub weights: Weights,
    /// What the bot reads of the view.
    pub memory: Memory,
    /// The name in logs and reports.
    pub name: &'static str,
}

/// The hard bot.
pub static HARD: HardBot = HardBot::hard();
/// The normal bot.
pub static NORMAL: HardBot = HardBot::normal();

impl HardBot {
    /// The hard level: the whole log, passes as evidence, a tight draw.
    pub const fn hard() -> HardBot {
        HardBot {
            weights: HARD_WEIGHTS,
            memory: Memory::FULL,
            name: "hard",
        }
    }

    /// The normal level: the same computation on the last 6 log entries, without pass
    /// inference, and a looser draw between candidates.
    pub const fn normal() -> HardBot {
        let mut weights = HARD_WEIGHTS;
        weights.temperature = 0.2;
        weights.margin = 0.5;
        HardBot {
            weights,
            memory: Memory {
                window: Some(6),
                passes: false,
                pass_factor: 1.0,
            },
            name: "normal",
        }
    }

    /// Every legal decision of the view, scored, in the order of
    /// [`legal_decisions`].
    pub fn scored(&self, view: &DaifugoView) -> Vec<Explained<DaifugoDecision>> {
        let knowledge = Knowledge::new(view, self.memory);
        match view.phase() {
            Phase::Play => self.score_play(view, &knowledge),
            Phase::Exchange { .. } => self.score_exchange(view, &knowledge),
        }
    }

    fn plan_cost(&self, plan: &Plan) -> f64 {
        self.weights.plan * f64::from(plan.plays) + self.weights.losers * f64::from(plan.losers)
    }

    fn score_play(&self, view: &DaifugoView, k: &Knowledge) -> Vec<Explained<DaifugoDecision>> {
        let w = &self.weights;
        let hand = view.hand();
        let trick = *view.trick();
        let rules = view.rules();
        let mut plays = Vec::new();
        legal_plays(hand, &trick, rules, &mut plays);
        let mut current = Planner::new(k, trick.revolution);
        let mut flipped = Planner::new(k, !trick.revolution);
        let before = current.plan(hand);
        let before_cost = self.plan_cost(&before);
        let threats = self.threats(k, &trick);
        let mut out = Vec::with_capacity(plays.len() + 1);
        for play in plays {
            let rest = hand.difference(play.cards());
            if rest.is_empty() {
                let forbidden =
                    rules.forbidden_finishes && play.is_forbidden_finish(trick.revolution);
                let score = if forbidden { -OUT } else { OUT };
                out.push(explained(DaifugoDecision::Play(play), vec![("out", score)]));
                continue;
            }
            let after_trick = trick.after_play(&play, rules);
            let after = current.plan(rest);
            let mut terms = vec![("plan", before_cost - self.plan_cost(&after))];
            if play.is_revolution(rules) {
                let new_order = flipped.plan(rest);
                terms.push((
                    "revolution",
                    w.revolution * (self.plan_cost(&after) - self.plan_cost(&new_order)),
                ));
            }
            terms.push(("strength", -w.strength * spent_strength(&play, &trick)));
            let win = k.win_chance_now(&play);
            terms.push(("control", w.control * win));
            let tempo = if trick.clears_after(&play, rules) || win >= 1.0 {
                0.0
            } else {
                self.tempo_risk(k, &after_trick)
            };
            terms.push(("tempo", -w.tempo * tempo));
            if !threats.is_empty()
                && threats
                    .iter()
                    .all(|&s| k.beat_chance(s, &after_trick) <= w.block_threshold)
            {
                terms.push(("block", w.block));
            }
            let next_order = after_trick.revolution;
            if win > 0.0 && k.mate_lead(rest, next_order) {
                terms.push(("finish", w.finish * win));
            }
            let finishable = if next_order == trick.revolution {
                after.finishable
            } else {
                flipped.plan(rest).finishable
            };
            if rules.forbidden_finishes && !finishable {
                terms.push(("finishable", -w.finishable));
            }
            out.push(explained(DaifugoDecision::Play(play), terms));
        }
        if pass_allowed(&trick, rules) {
            let own_table = k.owner == Some(k.seat);
            let mut terms = vec![("pass", w.pass)];
            if own_table {
                terms.push(("control", w.control));
            } else if trick.table.is_some() {
                terms.push(("tempo", -w.tempo * self.pass_risk(k, &trick)));
            }
            out.push(explained(DaifugoDecision::Pass, terms));
        }
        out
    }

    /// The opponents who may go out on the current table: their count equals its
    /// size and their chance to beat it exceeds the block threshold.
    fn threats(&self, k: &Knowledge, trick: &crate::daifugo::moves::Trick) -> Vec<usize> {
        let Some(top) = trick.table else {
            return Vec::new();
        };
        k.opponents()
            .filter(|&s| {
                k.may_answer(s)
                    && k.counts[s] == top.len()
                    && k.beat_chance(s, trick) > self.weights.block_threshold
            })
            .collect()
    }

    /// After a play that may be beaten: the chance, summed over the opponents who may
    /// answer, that one goes out on it (its count equals the play's size).
    fn tempo_risk(&self, k: &Knowledge, after: &crate::daifugo::moves::Trick) -> f64 {
        let Some(top) = after.table else { return 0.0 };
        k.opponents()
            .filter(|&s| k.may_answer(s) && k.counts[s] == top.len())
            .map(|s| k.beat_chance(s, after))
            .sum()
    }

    /// After our pass: the tempo risk of the table as it stands, plus the owner's
    /// chance to go out when the trick comes back to it holding one card.
    fn pass_risk(&self, k: &Knowledge, trick: &crate::daifugo::moves::Trick) -> f64 {
        let owner_alone = k
            .owner
            .filter(|&o| o != k.seat && k.active & (1 << o) != 0 && k.counts[o] == 1)
            .map_or(0.0, |_| 1.0);
        self.tempo_risk(k, trick) + owner_alone
    }

    fn score_exchange(&self, view: &DaifugoView, k: &Knowledge) -> Vec<Explained<DaifugoDecision>> {
        let w = &self.weights;
        let hand = view.hand();
        let mut planner = Planner::new(k, false);
        legal_decisions(view)
            .into_iter()
            .map(|decision| {
                let DaifugoDecision::Exchange(give) = decision else {
                    unreachable!("the exchange phase lists give-backs only")
                };
                let rest = planner.plan(hand.difference(give));
                let mut terms = vec![
                    ("plan", -self.plan_cost(&rest)),
                    ("give", -w.give * give.iter().map(gift_value).sum::<f64>()),
                ];
                if view.rules().forbidden_finishes && !rest.finishable {
                    terms.push(("finishable", -w.finishable));
                }
                explained(decision, terms)
            })
            .collect()
    }
}

/// The value of a card to whoever receives it: its place in the normal order (3 = 0,
/// 2 = 1), the joker 2.
fn gift_value(card: Card) -> f64 {
    match card.rank() {
        Some(rank) => f64::from(rank) / f64::from(RANK_2),
        None => 2.0,
    }
}

/// The strong-card strength a play spends in the trick's order: per natural card of
/// the upper half, `2 * strength - 1` (strength 0 for the weakest rank, 1 for the
/// strongest); 1.5 per joker.
fn spent_strength(play: &Play, trick: &crate::daifugo::moves::Trick) -> f64 {
    let reversed = trick.reversed();
    let cards: CardSet = play.cards();
    cards
        .iter()
        .map(|c| match c.rank() {
            Some(rank) => {
                let s = if reversed { RANK_2 - rank } else { rank };
                (2.0 * f64::from(s) / f64::from(RANK_2) - 1.0).max(0.0)
            }
            None => 1.5,
        })
        .sum()
}

fn explained(
    action: DaifugoDecision,
    terms: Vec<(&'static str, f64)>,
) -> Explained<DaifugoDecision> {
    Explained {
        action,
        score: terms.iter().map(|t| t.1).sum(),
        probability: 0.0,
        terms,
    }
}

impl Policy<Daifugo> for HardBot {
    fn decide(&self, view: &DaifugoView, ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        self.decide_explained(view, ctx).0
    }

    fn decide_explained(
        &self,
        view: &DaifugoView,
        ctx: &mut DecisionContext<'_>,
    ) -> (DaifugoDecision, Vec<Explained<DaifugoDecision>>) {
        let mut all = self.scored(view);
        if all.is_empty() {
            ctx.mark_fallback();
            return (super::easy::decide(view), all);
        }
        // Best first; ties keep generation order (stable sort).
        all.sort_by(|a, b| b.score.total_cmp(&a.score));
        let scores: Vec<f64> = all.iter().map(|e| e.score).collect();
        let probs = softmax_probabilities(&scores, self.weights.temperature, self.weights.margin);
        for (e, p) in all.iter_mut().zip(&probs) {
            e.probability = *p;
        }
        let pick = draw_index(&probs, ctx);
        (all[pick].action, all)
    }

    fn name(&self) -> &'static str {
        self.name
    }
}
