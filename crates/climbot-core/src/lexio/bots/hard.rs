//! The hard and normal bots: every candidate and the pass scored on one scale (Dalmuti Part 3
//! section 1, carried to Lexio; Lexio Parts 1 and 2 for the information), so that a pass wins
//! whenever playing is not worth its cost.
//!
//! Terms, each of which changes with the candidate (a term equal for all candidates
//! steers nothing):
//! - **tiles**: the tiles a play sheds (progress, and less to pay when the round ends);
//! - **pass**: a constant on the pass alone (a bias between holding and shedding);
//! - **low** (leads) and **cheap** (follows): the easy bot's sound instincts, as terms
//!   the others can outweigh: lead the weakest tile, follow as cheaply as possible;
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
//! seeded softmax (Dalmuti Part 3: "결정적 봇은 읽힙니다"). The normal bot is the same bot
//! with less information: it remembers only the last few log entries and draws no
//! inference from passes.

use super::easy::easy_action;
use crate::bot::BotNameError;
use crate::bot::{DecisionContext, Explained, draw_index, parse_weight, softmax_probabilities};
use crate::game::Policy;
use crate::lexio::Lexio;
use crate::lexio::combos::Combo;
use crate::lexio::knowledge::{SeatModel, beat_chance, can_be_beaten, seat_models};
use crate::lexio::plan::PlanTable;
use crate::lexio::safety::beaten_chance;
use crate::lexio::tiles::TileSet;
use crate::lexio::view::{Action, LexioView};
// Caches are looked up, never iterated, so their order cannot leak into a decision.
use std::collections::HashMap;

/// The weights of the score terms (all in chips of settlement, roughly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Per tile shed by a play (progress towards going out, and less to pay).
    pub tiles: f64,
    /// Added to the pass (negative: a bias to play).
    pub pass: f64,
    /// Lead: for a play holding the hand's weakest tile (what easy always sheds).
    pub low: f64,
    /// Follow: scaled by how cheap the play is among the follows (1 = the cheapest).
    pub cheap: f64,
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
        HARD_WEIGHTS
    }
}

/// The hard level's weights: coordinate descent (`scripts/tune.py`, 300 duplicate
/// blocks at 3, 4 and 5 players against easy bots, tuning seed 10000; see `docs/tools.md`,
/// "The Lexio hard bot", for the evaluation on held-out seeds). `settlement` tuned to 0: shedding 2s early
/// for the settlement's sake cost more than it saved.
pub const HARD_WEIGHTS: Weights = Weights {
    tiles: 8.0,
    pass: 0.0,
    low: 5.0,
    cheap: 5.0,
    plan: 3.0,
    singles: 0.6,
    control: 1.0,
    continuation: 1.0,
    tempo: 3.0,
    settlement: 0.0,
    shed: 0.8,
    finish: 20.0,
    temperature: 0.15,
    margin: 0.3,
    must_block: true,
};

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
            weights: HARD_WEIGHTS,
            memory: None,
        }
    }

    /// The normal level: the same computation on less information (the table and the
    /// last 4 log entries, no pass inference) and a looser choice between near-equal
    /// candidates (a wider softmax: temperature 3, margin 4). Information alone barely
    /// separates the levels at 5 players (the informed terms' ablation effects are
    /// within noise there), so the looser choice makes the step. With temperature 1
    /// and margin 2, HARD was only +0.12 [-0.05, 0.30] chips per round ahead (200
    /// blocks); at 3 and 4 NORMAL sits near the middle between EASY and HARD
    /// (`docs/measurements/expert.md`, the ladder).
    pub const fn normal() -> HardBot {
        let mut bot = HardBot::hard();
        bot.memory = Some(4);
        bot.weights.temperature = 3.0;
        bot.weights.margin = 4.0;
        bot
    }
}

impl Weights {
    /// Applies overrides written `name=value` (e.g. `tempo=0`), for tuning and
    /// ablation from the arena's command line.
    pub fn with_override(mut self, text: &str) -> Result<Weights, BotNameError> {
        let (name, v) = parse_weight(text)?;
        let slot = match name {
            "tiles" => &mut self.tiles,
            "pass" => &mut self.pass,
            "low" => &mut self.low,
            "cheap" => &mut self.cheap,
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
            _ => return Err(BotNameError::unknown_setting(text, "hard and normal", "")),
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
    /// Each legal follow's cheapness (by tile set): 1 for the cheapest (key, then tile
    /// ids), falling by 1/n per rank.
    cheapness: HashMap<u64, f64>,
    /// The hand's weakest tile, as a one-tile set.
    weakest: TileSet,
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
        let players = self.view.players();
        let h = if self.certain(play) {
            1.0
        } else if play.len() == 5 {
            // The per-seat estimate of 5-tile plays is all or nothing; the offline
            // table (Lexio Part 2 `SafetyKey`) is calibrated.
            let largest = self.seats.iter().map(|s| s.count).max().unwrap_or(0);
            1.0 - beaten_chance(players, play, self.unseen.len(), largest)
        } else {
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
    /// What the scoring needs, computed once per decision; `actions` are the view's
    /// legal actions.
    fn context<'a>(&self, view: &'a LexioView, actions: &[Action]) -> Context<'a> {
        let forget = match self.memory {
            None => 0,
            Some(k) => view.log().len().saturating_sub(k),
        };
        let mut seats = seat_models(view, forget);
        let unseen = match self.memory {
            None => view.unseen(),
            Some(_) => {
                // Counts only what it remembers: the table and the last `k` plays; a
                // tile played earlier might, for all it knows, still be in a hand.
                let mut remembered = view.table().map_or(TileSet::EMPTY, |t| t.tiles());
                for entry in &view.log()[forget..] {
                    if let Action::Play(c) = entry.action {
                        remembered = remembered.union(c.tiles());
                    }
                }
                let unseen = view
                    .players()
                    .deck()
                    .difference(view.hand().union(remembered));
                // No pass inference: every opponent may hold anything unseen.
                for s in &mut seats {
                    s.possible = unseen;
                }
                unseen
            }
        };
        let plan = PlanTable::new(view.players(), view.hand());
        let before = plan.plan(view.hand());
        let danger = seats
            .iter()
            .map(|s| one_play_chance(s.count))
            .fold(0.1, f64::max);
        let mut follows: Vec<Combo> = actions
            .iter()
            .filter_map(|a| match a {
                Action::Play(c) if view.table().is_some() => Some(*c),
                _ => None,
            })
            .collect();
        follows.sort_by_key(|f| (f.key(), f.tiles().id_sum(), f.tiles().bits()));
        let n = follows.len().max(1) as f64;
        let cheapness = follows
            .iter()
            .enumerate()
            .map(|(rank, f)| (f.tiles().bits(), 1.0 - rank as f64 / n))
            .collect();
        let weakest = view
            .hand()
            .iter()
            .next()
            .map_or(TileSet::EMPTY, |t| TileSet::EMPTY.with(t));
        Context {
            cheapness,
            weakest,
            view,
            seats,
            unseen,
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
                terms.push(("pass", w.pass));
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
                terms.push(("tiles", w.tiles * c.len() as f64));
                if table.is_some() {
                    let cheapness = cx.cheapness.get(&c.tiles().bits()).copied();
                    terms.push(("cheap", w.cheap * cheapness.unwrap_or(1.0)));
                } else {
                    let low = c.tiles().is_superset(cx.weakest);
                    terms.push(("low", if low { w.low } else { 0.0 }));
                }
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
        let actions = view.legal_actions();
        let mut cx = self.context(view, &actions);
        let mut out: Vec<Scored> = actions
            .into_iter()
            .map(|a| self.score(&mut cx, a))
            .collect();
        out.sort_by(|a, b| b.score.total_cmp(&a.score));
        out
    }
}

impl Policy<Lexio> for HardBot {
    fn name(&self) -> &'static str {
        if self.memory.is_some() {
            "normal"
        } else {
            "hard"
        }
    }

    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
        self.decide_explained_inner(view, ctx, false).0
    }

    fn decide_explained(
        &self,
        view: &LexioView,
        ctx: &mut DecisionContext<'_>,
    ) -> (Action, Vec<Explained<Action>>) {
        self.decide_explained_inner(view, ctx, true)
    }
}

impl HardBot {
    /// The decision, and (when `explain`) every scored candidate, best first. The
    /// explanation never changes the decision: both paths draw the same way.
    fn decide_explained_inner(
        &self,
        view: &LexioView,
        ctx: &mut DecisionContext<'_>,
        explain: bool,
    ) -> (Action, Vec<Explained<Action>>) {
        let actions = view.legal_actions();
        if actions.len() == 1 {
            return (actions[0], Vec::new());
        }
        let mut cx = self.context(view, &actions);
        if self.weights.must_block {
            let follows: Vec<Combo> = actions
                .iter()
                .filter_map(|a| match a {
                    Action::Play(c) => Some(*c),
                    Action::Pass => None,
                })
                .collect();
            if let Some(block) = self.must_block(&mut cx, &follows) {
                let explained = vec![Explained {
                    action: Action::Play(block),
                    score: 0.0,
                    probability: 1.0,
                    terms: vec![("must_block", 0.0)],
                }];
                return (
                    Action::Play(block),
                    if explain { explained } else { Vec::new() },
                );
            }
        }
        let mut scored = Vec::with_capacity(actions.len());
        for a in actions {
            if ctx.should_stop() {
                ctx.mark_fallback();
                return (
                    easy_action(view.players(), view.hand(), view.table()),
                    Vec::new(),
                );
            }
            scored.push(self.score(&mut cx, a));
        }
        // Candidates stay in generation order (deterministic); ties keep the first.
        let scores: Vec<f64> = scored.iter().map(|s| s.score).collect();
        let probabilities =
            softmax_probabilities(&scores, self.weights.temperature, self.weights.margin);
        let chosen = scored[draw_index(&probabilities, ctx)].action;
        if !explain {
            return (chosen, Vec::new());
        }
        let mut explained: Vec<Explained<Action>> = scored
            .into_iter()
            .zip(probabilities)
            .map(|(s, probability)| Explained {
                action: s.action,
                score: s.score,
                probability,
                terms: s.terms,
            })
            .collect();
        explained.sort_by(|a, b| b.score.total_cmp(&a.score));
        (chosen, explained)
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
    fn explaining_returns_the_same_decision_and_the_chosen_candidate() {
        for seed in 0..40 {
            let players = PlayerCount::ALL[seed as usize % 3];
            let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
            let bot = HardBot::hard();
            for _ in 0..12 {
                let view = round.view().unwrap();
                let plain = bot.decide(&view, &mut DecisionContext::unbounded(seed));
                let (chosen, explained) =
                    bot.decide_explained(&view, &mut DecisionContext::unbounded(seed));
                assert_eq!(plain, chosen);
                if view.legal_actions().len() > 1 {
                    assert!(explained.iter().any(|e| e.action == chosen));
                    let total: f64 = explained.iter().map(|e| e.probability).sum();
                    assert!((total - 1.0).abs() < 1e-9, "probabilities sum to {total}");
                }
                if round.apply(chosen).unwrap() {
                    break;
                }
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
