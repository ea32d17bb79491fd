//! The hard and normal bots: every candidate and the pass scored on one scale (seed 004
//! section 1, carried to Lexio; seeds 000/001 for the information), so that a pass wins
//! whenever playing is not worth its cost.
//!
//! Terms, each of which changes with the candidate (a term equal for all candidates
//! steers nothing):
//! - **plan**: how the fewest plays that empty the hand change, and how many singles
//!   are left alone (the hand plan DP);
//! - **control**: the chance nobody beats the play (certain winners: 1) times what the
//!   lead is worth to the hand that remains; for the pass, the option to re-enter after
//!   someone raises (re-entry is allowed);
//! - **tempo**: after the action, the risk that an opponent goes out (its count equals
//!   the bar's size and it can beat the bar, or it takes the lead holding one play);
//! - **settlement**: the chips at stake if the round ends now, tiles x 2^(2s held), so
//!   shedding 2s while the round can still end on us is worth something;
//! - **lead policy**: shed what will be beaten anyway, keep certain winners to finish,
//!   and run them out when they finish the hand.
//!
//! Must-block: when an opponent can go out on this trick and some play stops it, the
//! cheapest such play is made before any scoring. Near-equal candidates are chosen by a
//! seeded softmax (seed 004: "결정적 봇은 읽힙니다"). The normal bot is the same bot
//! with less information: it remembers only the last few log entries and draws no
//! inference from passes.

use super::LexioPolicy;
use super::easy::easy_action;
use crate::bot::DecisionContext;
use crate::lexio::combos::Combo;
use crate::lexio::knowledge::{SeatModel, beat_chance, can_be_beaten, seat_models};
use crate::lexio::plan::PlanTable;
use crate::lexio::tiles::TileSet;
use crate::lexio::view::{Action, LexioView};
// Caches are looked up, never iterated, so their order cannot leak into a decision.
use std::collections::HashMap;

/// The weights of the score terms (all in chips of settlement, roughly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per play saved from the hand plan.
    pub plan: f64,
    /// Per single added to the plan.
    pub singles: f64,
    /// Scale of the control term.
    pub control: f64,
    /// Scale of the pass's continuation (re-entry) value.
    pub continuation: f64,
    /// Scale of the tempo risk.
    pub tempo: f64,
    /// Scale of the settlement exposure change.
    pub settlement: f64,
    /// Bonus for leading a play that will be beaten anyway (shed while leading).
    pub shed: f64,
    /// Bonus for a line that finishes the hand with certain winners.
    pub finish: f64,
    /// Softmax temperature between near-equal candidates (0 = always the best).
    pub temperature: f64,
    /// Only candidates within this much of the best are sampled.
    pub margin: f64,
    /// Whether to make the must-block override.
    pub must_block: bool,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            plan: 3.0,
            singles: 0.6,
            control: 2.0,
            continuation: 1.0,
            tempo: 6.0,
            settlement: 0.5,
            shed: 0.8,
            finish: 20.0,
            temperature: 0.15,
            margin: 0.3,
            must_block: true,
        }
    }
}

/// The hard bot (full information) or, with `memory`, the normal bot.
#[derive(Clone, Copy, Debug)]
pub struct HardBot {
    /// The weights.
    pub weights: Weights,
    /// `None`: read the whole log and infer from passes. `Some(k)`: read only the last
    /// `k` log entries and ignore what passes say.
    pub memory: Option<usize>,
}

impl HardBot {
    /// The hard level.
    pub const fn hard() -> HardBot {
        HardBot {
            weights: Weights {
                plan: 3.0,
                singles: 0.6,
                control: 2.0,
                continuation: 1.0,
                tempo: 6.0,
                settlement: 0.5,
                shed: 0.8,
                finish: 20.0,
                temperature: 0.15,
                margin: 0.3,
                must_block: true,
            },
            memory: None,
        }
    }

    /// The normal level: the same computation on less information.
    pub const fn normal() -> HardBot {
        let mut bot = HardBot::hard();
        bot.memory = Some(4);
        bot
    }
}

impl Weights {
    /// Applies overrides written `name=value` (e.g. `tempo=0`), for tuning and
    /// ablation from the arena's command line.
    pub fn with_override(mut self, text: &str) -> Result<Weights, String> {
        let (name, value) = text
            .split_once('=')
            .ok_or_else(|| format!("{text:?}: expected name=value"))?;
        let v: f64 = value
            .parse()
            .map_err(|_| format!("{text:?}: {value:?} is not a number"))?;
        let slot = match name {
            "plan" => &mut self.plan,
            "singles" => &mut self.singles,
            "control" => &mut self.control,
            "continuation" => &mut self.continuation,
            "tempo" => &mut self.tempo,
            "settlement" => &mut self.settlement,
            "shed" => &mut self.shed,
            "finish" => &mut self.finish,
            "temperature" => &mut self.temperature,
            "margin" => &mut self.margin,
            "must_block" => {
                self.must_block = v != 0.0;
                return Ok(self);
            }
            other => return Err(format!("no weight {other:?}")),
        };
        *slot = v;
        Ok(self)
    }
}

/// One scored candidate, with its terms (for `explain`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    /// The action.
    pub action: Action,
    /// The total score.
    pub score: f64,
    /// Each term's contribution, by name.
    pub terms: Vec<(&'static str, f64)>,
}

struct Context<'a> {
    view: &'a LexioView,
    seats: Vec<SeatModel>,
    plan: PlanTable,
    unseen: TileSet,
    safe_cache: HashMap<u64, bool>,
    hold_cache: HashMap<u64, f64>,
    value_cache: HashMap<u64, f64>,
    before_plays: f64,
    before_singles: f64,
    /// How soon the round may end: the largest one-shot-out chance among opponents.
    danger: f64,
}

fn effective(hand: TileSet) -> f64 {
    let twos = hand.iter().filter(|t| t.number() == 2).count() as i32;
    hand.len() as f64 * 2f64.powi(twos)
}

/// The chance an opponent holding `count` tiles holds exactly one play (so it goes out
/// the moment it leads): crude, by count.
fn one_play_chance(count: usize) -> f64 {
    match count {
        1 => 1.0,
        2 => 0.25,
        3 => 0.06,
        5 => 0.3,
        _ => 0.0,
    }
}

impl Context<'_> {
    fn certain(&mut self, play: Combo) -> bool {
        let players = self.view.players();
        let unseen = self.unseen;
        *self
            .safe_cache
            .entry(play.tiles().bits())
            .or_insert_with(|| !can_be_beaten(players, unseen, play))
    }

    /// The chance nobody beats `play` (1 for certain winners).
    fn hold_chance(&mut self, play: Combo) -> f64 {
        if let Some(&h) = self.hold_cache.get(&play.tiles().bits()) {
            return h;
        }
        let h = if self.certain(play) {
            1.0
        } else {
            let players = self.view.players();
            self.seats
                .iter()
                .map(|s| 1.0 - beat_chance(players, s, play))
                .product()
        };
        self.hold_cache.insert(play.tiles().bits(), h);
        h
    }

    /// What holding the lead is worth with `hand` left: the best play of its plan,
    /// weighted by its size and the chance it holds.
    fn lead_value(&mut self, hand: TileSet) -> f64 {
        if let Some(&v) = self.value_cache.get(&hand.bits()) {
            return v;
        }
        let v = self.lead_value_uncached(hand);
        self.value_cache.insert(hand.bits(), v);
        v
    }

    fn lead_value_uncached(&mut self, hand: TileSet) -> f64 {
        let Some(plan) = self.plan.plan(hand) else {
            return 0.0;
        };
        if plan.plays <= 1 {
            return 5.0;
        }
        let mut best: f64 = 0.0;
        for c in plan.combos {
            let v = self.hold_chance(c) * c.len() as f64;
            best = best.max(v);
        }
        best
    }

    /// Risk that an opponent goes out after this bar stands (or after we lead).
    fn tempo_after(&self, bar: Option<Combo>) -> f64 {
        let players = self.view.players();
        self.seats
            .iter()
            .map(|s| {
                let finish = match bar {
                    Some(b) if s.count == b.len() => 2.0 * beat_chance(players, s, b),
                    _ => 0.0,
                };
                finish + one_play_chance(s.count) * if bar.is_some() { 1.0 } else { 0.3 }
            })
            .sum()
    }
}

impl HardBot {
    fn context<'a>(&self, view: &'a LexioView) -> Context<'a> {
        let forget = match self.memory {
            None => 0,
            Some(k) => view.log().len().saturating_sub(k),
        };
        let mut seats = seat_models(view, forget);
        if self.memory.is_some() {
            // No pass inference: every opponent may hold anything unseen.
            for s in &mut seats {
                s.possible = view.unseen();
            }
        }
        let plan = PlanTable::new(view.players(), view.hand());
        let before = plan.plan(view.hand());
        let danger = seats
            .iter()
            .map(|s| one_play_chance(s.count))
            .fold(0.1, f64::max);
        Context {
            view,
            seats,
            unseen: view.unseen(),
            before_plays: before.as_ref().map_or(0.0, |p| f64::from(p.plays)),
            before_singles: before.as_ref().map_or(0.0, |p| f64::from(p.singles)),
            plan,
            safe_cache: HashMap::new(),
            hold_cache: HashMap::new(),
            value_cache: HashMap::new(),
            danger,
        }
    }

    fn score(&self, cx: &mut Context<'_>, action: Action) -> Scored {
        let w = &self.weights;
        let hand = cx.view.hand();
        let table = cx.view.table();
        let mut terms: Vec<(&'static str, f64)> = Vec::with_capacity(6);
        match action {
            Action::Pass => {
                let t = table.expect("a pass needs a table");
                let raise = 1.0 - cx.hold_chance(t);
                let players = cx.view.players();
                let mut reentry: f64 = 0.0;
                let follows = crate::lexio::moves::follows(players, hand, t);
                for f in follows {
                    let rest = hand.difference(f.tiles());
                    let v = cx.hold_chance(f) * cx.lead_value(rest);
                    reentry = reentry.max(v);
                }
                terms.push(("continuation", w.continuation * raise * 0.5 * reentry));
                terms.push(("tempo", -w.tempo * cx.tempo_after(Some(t))));
            }
            Action::Play(c) => {
                let rest = hand.difference(c.tiles());
                if rest.is_empty() {
                    return Scored {
                        action,
                        score: 1e6,
                        terms: vec![("goes_out", 1e6)],
                    };
                }
                let after = cx.plan.plan(rest);
                let (plays, singles) = after
                    .as_ref()
                    .map_or((cx.before_plays, cx.before_singles), |p| {
                        (f64::from(p.plays), f64::from(p.singles))
                    });
                terms.push(("plan", w.plan * (cx.before_plays - plays)));
                terms.push(("singles", -w.singles * (singles - cx.before_singles)));
                let hold = cx.hold_chance(c);
                let value = cx.lead_value(rest);
                terms.push(("control", w.control * hold * value));
                // If we keep the lead we bar nobody; otherwise the bar is our play.
                let tempo = hold * cx.tempo_after(None) + (1.0 - hold) * cx.tempo_after(Some(c));
                terms.push(("tempo", -w.tempo * tempo));
                let exposure = effective(hand) - effective(rest);
                terms.push(("settlement", w.settlement * cx.danger * exposure));
                if table.is_none() {
                    // Shed what will be beaten anyway while leading; keep certain winners.
                    // Plays that others rarely open (5-tile, then triples and pairs) can
                    // only be shed from the lead: spend the lead on them, weak ones first.
                    let certain = cx.certain(c);
                    let need = match c.len() {
                        5 => 3.0,
                        3 => 1.5,
                        2 => 1.0,
                        _ => 0.3,
                    };
                    terms.push((
                        "shed",
                        if certain {
                            -w.shed
                        } else {
                            w.shed * need * (1.0 - hold)
                        },
                    ));
                    // A line that finishes: every remaining play but one is certain.
                    if let Some(p) = &after {
                        let uncertain = p.combos.iter().filter(|&&x| !cx.certain(x)).count();
                        if certain && uncertain <= 1 {
                            terms.push(("finish", w.finish));
                        }
                    }
                }
            }
        }
        Scored {
            action,
            score: terms.iter().map(|(_, v)| v).sum(),
            terms,
        }
    }

    /// The cheapest play that stops every opponent who could go out on this trick, if
    /// there is such an opponent and such a play.
    fn must_block(&self, cx: &mut Context<'_>, follows: &[Combo]) -> Option<Combo> {
        let table = cx.view.table()?;
        let players = cx.view.players();
        let threats: Vec<SeatModel> = cx
            .seats
            .iter()
            .copied()
            .filter(|s| s.count == table.len() && beat_chance(players, s, table) > 0.3)
            .collect();
        if threats.is_empty() {
            return None;
        }
        follows
            .iter()
            .copied()
            .filter(|&f| threats.iter().all(|s| beat_chance(players, s, f) < 0.1))
            .min_by_key(|f| (f.key(), f.tiles().id_sum()))
    }

    /// Every candidate with its score, best first (the `explain` output).
    pub fn scored(&self, view: &LexioView) -> Vec<Scored> {
        let mut cx = self.context(view);
        let mut out: Vec<Scored> = view
            .legal_actions()
            .into_iter()
            .map(|a| self.score(&mut cx, a))
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score));
        out
    }
}

impl LexioPolicy for HardBot {
    fn name(&self) -> &'static str {
        if self.memory.is_some() {
            "normal"
        } else {
            "hard"
        }
    }

    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
        let actions = view.legal_actions();
        if actions.len() == 1 {
            return actions[0];
        }
        let mut cx = self.context(view);
        if self.weights.must_block {
            let follows: Vec<Combo> = actions
                .iter()
                .filter_map(|a| match a {
                    Action::Play(c) => Some(*c),
                    Action::Pass => None,
                })
                .collect();
            if let Some(block) = self.must_block(&mut cx, &follows) {
                return Action::Play(block);
            }
        }
        let mut scored = Vec::with_capacity(actions.len());
        for a in actions {
            if ctx.should_stop() {
                ctx.mark_fallback();
                return easy_action(view.players(), view.hand(), view.table());
            }
            scored.push(self.score(&mut cx, a));
        }
        // Candidates stay in generation order (deterministic); ties keep the first.
        let best = scored
            .iter()
            .map(|s| s.score)
            .fold(f64::NEG_INFINITY, f64::max);
        let near: Vec<&Scored> = scored
            .iter()
            .filter(|s| s.score >= best - self.weights.margin)
            .collect();
        if near.len() == 1 || self.weights.temperature <= 0.0 {
            return near[0].action;
        }
        let t = self.weights.temperature;
        let weights: Vec<f64> = near.iter().map(|s| ((s.score - best) / t).exp()).collect();
        let total: f64 = weights.iter().sum();
        let mut x = ctx.unit() * total;
        for (s, w) in near.iter().zip(&weights) {
            if x < *w {
                return s.action;
            }
            x -= w;
        }
        near[near.len() - 1].action
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::referee::{Round, deal};
    use crate::lexio::tiles::PlayerCount;

    #[test]
    fn hard_and_normal_answer_legally_and_reproducibly() {
        for players in PlayerCount::ALL {
            let round = Round::new(players, deal(players, 3), 1, [0; 5]);
            let view = round.view().unwrap();
            for bot in [HardBot::hard(), HardBot::normal()] {
                let a = bot.decide(&view, &mut DecisionContext::unbounded(9));
                assert_eq!(a, bot.decide(&view, &mut DecisionContext::unbounded(9)));
                assert!(view.is_legal(a));
            }
        }
    }

    #[test]
    fn explain_lists_every_candidate_with_its_terms() {
        let players = PlayerCount::Five;
        let round = Round::new(players, deal(players, 8), 1, [0; 5]);
        let view = round.view().unwrap();
        let scored = HardBot::hard().scored(&view);
        assert_eq!(scored.len(), view.legal_actions().len());
        assert!(scored.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(
            scored
                .iter()
                .all(|s| (s.score - s.terms.iter().map(|t| t.1).sum::<f64>()).abs() < 1e-9)
        );
    }
}
