//! The hard and normal evaluation bots of Dalmuti Part 3 (`docs/references.md`).
//!
//! Every candidate and the pass are scored on one scale:
//!
//! `score = plan * plan_gain + control * (control_prob * control_value)
//!        - tempo * tempo_risk_after + finish * finish_line`
//!
//! where the plan gain is split in the explanation into `plan` (plays saved, lead
//! safety, orphans) and `strength` (the strong cards spent), and the pass scores
//! `continuation * continuation_value` (the option to re-enter the trick after someone
//! raises: a passed seat may play again; the re-entry is valued net of what it spends)
//! and `- concede * concession` (the lead the table's owner gets if nobody else beats
//! it: one play it gains in the race, and the hand if that play empties it). A play that
//! empties the hand always wins (`out`), and a play that blocks a seat about to go out
//! this trick gets `block` when the threat can actually be blocked. Near-equal
//! candidates are drawn by a seeded softmax. Tax returns minimise the expected gain
//! handed to the receiver plus the damage to our own plan; revolutions weigh the four
//! terms of Dalmuti Part 3. The normal bot is the same computation with less information
//! (a ledger that ignores passes and what the taxes reveal) and a wider softmax. It does
//! not forget plays: a forgetful ledger counts old strong cards as still out, so nothing
//! it holds ever looks safe and it lost to an easy bot in a field of its own kind
//! (`docs/measurements/dalmuti-hard.md`).

use super::DalmutiDecision;
use crate::bot::BotNameError;
use crate::bot::{DecisionContext, Explained, draw_index, parse_weight, softmax_probabilities};
use crate::dalmuti::Dalmuti;
use crate::dalmuti::cards::{Cards, Rank};
use crate::dalmuti::knowledge::{Ledger, Memory};
use crate::dalmuti::moves::for_each_legal_play;
use crate::dalmuti::plan::{Plan, best_plan};
use crate::dalmuti::plays::Play;
use crate::dalmuti::turn::Title;
use crate::dalmuti::view::{DalmutiView, Phase};
use crate::game::Policy;
use crate::stats::hypergeometric_pmf;

/// The weights of the evaluation (names accepted by [`Weights::with_override`]).
/// Defaults from coordinate descent on tuning seeds 1000.. (8 players, 60 duplicate
/// blocks per point): `strength`, `finish` and `tempo` moved; the others stayed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Scale of the plan gain (plays saved, lead safety, orphans).
    pub plan: f64,
    /// Per card of spent strength (rank 1 = 1, rank 12 = 0, a Jester = 1): keeps the
    /// strong cards that win tricks back later.
    pub strength: f64,
    /// Scale of the control term (control probability times control value).
    pub control: f64,
    /// Scale of the pass's continuation value, relative to `control` (0 = ablation).
    pub continuation: f64,
    /// How much of its own plan gain a re-entry counts in the continuation value: 1 =
    /// its plan gain net of the strength it spends is added to its control value, as
    /// for a play now; 0 = only its control counts, the cards it spends come free.
    pub reentry_cost: f64,
    /// Scale of the pass's concession: the chance the table's owner keeps the trick
    /// (every other seat able to beat it holds back or cannot) times what the lead is
    /// worth to it (one play, plus twice its chance to go out with it).
    pub concede: f64,
    /// Scale of the tempo risk after the action.
    pub tempo: f64,
    /// 1 = tempo risk ignores the candidate (ablation: the bar stays the table's).
    pub tempo_static: f64,
    /// Bonus for a play after which the hand can go out from the lead.
    pub finish: f64,
    /// Chance an opponent able to beat holds back instead.
    pub hold: f64,
    /// Beat risk above which a seat about to go out is a threat to block.
    pub block_threshold: f64,
    /// Bonus of the cheapest play that blocks every threat.
    pub block: f64,
    /// Tax return: scale of the damage to our own plan.
    pub tax_plan: f64,
    /// Revolution: value of preventing the Dalmutis' tribute, per card.
    pub tribute: f64,
    /// Revolution: cost of the information leaked, per opponent.
    pub info_leak: f64,
    /// Revolution: scale of the cumulative-score rivalry term.
    pub rivalry: f64,
    /// Softmax temperature between near-equal candidates (0 = always the best).
    pub temperature: f64,
    /// Only candidates within this much of the best are sampled.
    pub margin: f64,
}

impl Default for Weights {
    fn default() -> Self {
        DEFAULT_WEIGHTS
    }
}

impl Weights {
    /// The weights with one `name=value` override (for tuning and ablations).
    pub fn with_override(mut self, text: &str) -> Result<Weights, BotNameError> {
        let (name, v) = parse_weight(text)?;
        let slot = match name {
            "plan" => &mut self.plan,
            "strength" => &mut self.strength,
            "control" => &mut self.control,
            "continuation" => &mut self.continuation,
            "reentry_cost" => &mut self.reentry_cost,
            "concede" => &mut self.concede,
            "tempo" => &mut self.tempo,
            "tempo_static" => &mut self.tempo_static,
            "finish" => &mut self.finish,
            "hold" => &mut self.hold,
            "block_threshold" => &mut self.block_threshold,
            "block" => &mut self.block,
            "tax_plan" => &mut self.tax_plan,
            "tribute" => &mut self.tribute,
            "info_leak" => &mut self.info_leak,
            "rivalry" => &mut self.rivalry,
            "temperature" => &mut self.temperature,
            "margin" => &mut self.margin,
            _ => return Err(BotNameError::unknown_setting(text, "hard and normal", "")),
        };
        *slot = v;
        Ok(self)
    }
}

/// The score of a play that empties the hand (always taken).
const OUT: f64 = 1000.0;

/// The evaluation bot; `hard()` and `normal()` are the served levels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HardBot {
    /// The weights.
    pub weights: Weights,
    /// What the ledger remembers.
    pub memory: Memory,
    /// The name in logs and reports.
    pub name: &'static str,
}

/// The hard bot (full memory, passes as evidence).
pub static HARD: HardBot = HardBot::hard();
/// The normal bot (passes and taxes ignored, wider softmax).
pub static NORMAL: HardBot = HardBot::normal();

impl HardBot {
    /// The hard level.
    pub const fn hard() -> HardBot {
        HardBot {
            weights: DEFAULT_WEIGHTS,
            memory: Memory {
                tricks: None,
                pass_factor: 0.5,
                taxes: true,
            },
            name: "hard",
        }
    }

    /// The normal level: the same computation on less information (passes and taxes
    /// ignored) and with a wider, hotter softmax between candidates.
    pub const fn normal() -> HardBot {
        let mut w = DEFAULT_WEIGHTS;
        w.temperature = 0.3;
        w.margin = 0.6;
        HardBot {
            weights: w,
            memory: Memory {
                tricks: None,
                pass_factor: 1.0,
                taxes: false,
            },
            name: "normal",
        }
    }

    /// Every candidate of the view's phase, scored, in generation order.
    pub fn scored(&self, view: &DalmutiView) -> Vec<Explained<DalmutiDecision>> {
        let ledger = Ledger::new(view, self.memory);
        match view.phase() {
            Phase::Play => self.score_plays(view, &ledger),
            Phase::TaxReturn => self.score_tax_returns(view, &ledger),
            Phase::Revolution => self.score_revolution(view),
        }
    }

    fn score_plays(&self, view: &DalmutiView, l: &Ledger) -> Vec<Explained<DalmutiDecision>> {
        let w = &self.weights;
        let hand = view.hand();
        let table = view.table();
        let before = best_plan(hand, l);
        let mut out = Vec::new();
        let mut plays = Vec::new();
        for_each_legal_play(hand, table, |p| plays.push(p));
        let block = table.and_then(|t| self.must_block(l, t, &plays));
        if let Some(t) = table {
            let cont = self.continuation_value(hand, l, t, &before);
            let tempo = self.tempo_risk_after(l, t);
            let concession = view
                .table_owner()
                .map_or(0.0, |owner| self.concession(l, t, owner));
            out.push(explained(
                DalmutiDecision::Pass,
                vec![
                    ("plan", 0.0),
                    ("control", w.control * w.continuation * cont),
                    ("tempo", -w.tempo * tempo),
                    ("concede", -w.concede * concession),
                ],
            ));
        }
        for p in plays {
            let after_hand = hand.difference(p.cards());
            if after_hand.is_empty() {
                out.push(explained(DalmutiDecision::Play(p), vec![("out", OUT)]));
                continue;
            }
            let after = best_plan(after_hand, l);
            let gain = after.value() - before.value();
            let spent = w.strength * card_strength(p.cards());
            let cp = l.control_prob(p.rank(), p.size(), w.hold);
            let cv = control_value(&after, l);
            let bar = if w.tempo_static != 0.0 {
                table.unwrap_or(p)
            } else {
                p
            };
            let tempo = self.tempo_risk_after(l, bar);
            let finish = if after.finishes_from_lead() { cp } else { 0.0 };
            let mut terms = vec![
                ("plan", w.plan * gain),
                ("strength", -w.plan * spent),
                ("control", w.control * cp * cv),
                ("tempo", -w.tempo * tempo),
                ("finish", w.finish * finish),
            ];
            if block == Some(p) {
                terms.push(("block", w.block));
            }
            out.push(explained(DalmutiDecision::Play(p), terms));
        }
        out
    }

    /// The cheapest play (easy order: fewest Jesters, worst rank) that leaves every
    /// threat (a seat whose count equals the trick size and that can beat the table)
    /// unlikely to beat it; `None` if there is no threat or nothing blocks them all.
    fn must_block(&self, l: &Ledger, table: Play, plays: &[Play]) -> Option<Play> {
        let th = self.weights.block_threshold;
        let threats: Vec<usize> = (0..l.seats.len())
            .filter(|&i| {
                l.seats[i].cards == table.size()
                    && l.seat_beat_risk_at(i, table.rank(), table.size()) > th
            })
            .collect();
        if threats.is_empty() {
            return None;
        }
        let key = |q: &Play| (q.jesters(), u8::MAX - q.rank().get());
        let mut sorted: Vec<Play> = plays.to_vec();
        sorted.sort_by_key(key);
        sorted.into_iter().find(|p| {
            threats
                .iter()
                .all(|&i| l.seat_beat_risk_at(i, p.rank(), p.size()) <= th)
        })
    }

    /// The pass's option value (Dalmuti Part 3): the chance someone raises, times the value,
    /// under the raise distribution conditioned on a raise, of re-entering on the
    /// raised bar with our best follow (its control probability times control value,
    /// plus `reentry_cost` times its plan gain net of the strength it spends, in control
    /// units: a re-entry spends cards just as a play now does; never below 0, as we may
    /// stay out).
    fn continuation_value(&self, hand: Cards, l: &Ledger, table: Play, before: &Plan) -> f64 {
        let w = &self.weights;
        // Plan units to control units (the pass's term is scaled by `control`).
        let cost_scale = if w.control > 0.0 {
            w.reentry_cost * w.plan / w.control
        } else {
            0.0
        };
        let k = table.size();
        let quiet: f64 = (0..l.seats.len())
            .map(|i| 1.0 - l.seat_beat_risk_at(i, table.rank(), k))
            .product();
        let p_raise = 1.0 - quiet;
        if p_raise <= 0.0 {
            return 0.0;
        }
        // Raise mass at rank r: the chance some seat can make exactly rank r at size k,
        // summed over seats (conditioned on a raise by normalising).
        let mut mass = [0.0f64; 13];
        let mut total = 0.0;
        for r in Rank::numbered().take_while(|r| r.beats(table.rank())) {
            let below = Rank::new(r.get() + 1).expect("rank");
            let m: f64 = (0..l.seats.len())
                .map(|i| l.seat_beat_risk_at(i, below, k) - l.seat_beat_risk_at(i, r, k).min(1.0))
                .map(|x| x.max(0.0))
                .sum();
            mass[r.index()] = m;
            total += m;
        }
        if total <= 0.0 {
            return 0.0;
        }
        let mut reentry = 0.0;
        for r in Rank::numbered().take_while(|r| r.beats(table.rank())) {
            let weight = mass[r.index()] / total;
            if weight <= 0.0 {
                continue;
            }
            let bar = Play::new(r, k, 0).or_else(|_| Play::new(r, r.copies(), k - r.copies()));
            let Ok(bar) = bar else { continue };
            let mut best = 0.0f64;
            for_each_legal_play(hand, Some(bar), |c| {
                let after = hand.difference(c.cards());
                let v = if after.is_empty() {
                    // Re-entering to go out: worth the most a lead can be.
                    f64::from(k) + 1.0
                } else {
                    let plan = best_plan(after, l);
                    let cost =
                        plan.value() - before.value() - w.strength * card_strength(c.cards());
                    l.control_prob(c.rank(), c.size(), w.hold) * control_value(&plan, l)
                        + cost_scale * cost
                };
                best = best.max(v);
            });
            reentry += weight * best;
        }
        p_raise * reentry
    }

    /// What passing concedes to `owner`, the seat that made the table's play: the chance
    /// that no other active opponent beats the table (each able one holding back with
    /// `hold`) times what the lead is then worth to the owner: one play gained, plus
    /// twice its chance to go out with it (its whole hand one set). 0 when the owner is
    /// out (the lead passes on).
    fn concession(&self, l: &Ledger, table: Play, owner: usize) -> f64 {
        let Some(o) = l.seats.iter().position(|s| s.seat == owner) else {
            return 0.0;
        };
        let stands: f64 = (0..l.seats.len())
            .filter(|&i| i != o)
            .map(|i| {
                1.0 - l.seat_beat_risk_at(i, table.rank(), table.size()) * (1.0 - self.weights.hold)
            })
            .product();
        stands * (1.0 + 2.0 * l.one_set_prob(o))
    }

    /// The tempo risk left after the action: for every active opponent, twice its
    /// chance to go out on this trick (only if its count equals the trick size and it
    /// beats `bar`) plus its chance to take the lead over `bar` and go out in one set.
    fn tempo_risk_after(&self, l: &Ledger, bar: Play) -> f64 {
        let k = bar.size();
        let mut risk = 0.0;
        for i in 0..l.seats.len() {
            let s = &l.seats[i];
            let beat = l.seat_beat_risk_at(i, bar.rank(), k);
            if s.cards == k {
                risk += 2.0 * beat;
            } else if s.cards > k {
                let rest = s.cards - k;
                let one = if rest == 1 {
                    1.0
                } else {
                    approx_one_set(l, rest)
                };
                risk += beat * one;
            }
        }
        risk
    }

    fn score_tax_returns(&self, view: &DalmutiView, l: &Ledger) -> Vec<Explained<DalmutiDecision>> {
        let Some(duty) = view.tax_return() else {
            return Vec::new();
        };
        let hand = view.hand();
        let numbered = Cards::from_counts({
            let mut c = hand.counts();
            c[12] = 0;
            c
        })
        .expect("subset");
        let pool = if numbered.len() >= u32::from(duty.count) {
            numbered
        } else {
            hand
        };
        let target = usize::from(view.seats()[duty.to].card_count);
        let before = best_plan(hand, l).value();
        let mut out = Vec::new();
        pool.for_each_subset(u32::from(duty.count), &mut |combo| {
            let mut give = 0.0;
            for r in Rank::all() {
                let add = combo.count(r);
                if add > 0 {
                    give += give_away_cost(l, r, add, target);
                }
            }
            let after = best_plan(hand.difference(combo), l).value();
            let damage = before - after + self.weights.strength * card_strength(combo);
            out.push(explained(
                DalmutiDecision::TaxReturn(combo),
                vec![
                    ("give_away", -give),
                    ("plan_damage", -self.weights.tax_plan * damage),
                ],
            ));
        });
        out
    }

    fn score_revolution(&self, view: &DalmutiView) -> Vec<Explained<DalmutiDecision>> {
        let w = &self.weights;
        let title = view.title();
        let p = view.players() as f64;
        let no = explained(DalmutiDecision::Revolution(false), vec![("stay", 0.0)]);
        if title == Title::GreaterPeon {
            // The Greater Revolution: the seat flip outweighs every other term.
            return vec![
                explained(DalmutiDecision::Revolution(true), vec![("greater", OUT)]),
                no,
            ];
        }
        if view.hand_number() <= 1 {
            // No taxes in hand 1: nothing to cancel, only information to leak.
            return vec![
                no,
                explained(
                    DalmutiDecision::Revolution(true),
                    vec![("info_leak", -w.info_leak * (p - 1.0))],
                ),
            ];
        }
        // 1. Our own tax change (in best cards): GP 2 (handled above), LP 1, GD -2, LD -1.
        let own = match title {
            Title::LesserPeon => 1.0,
            Title::GreaterDalmuti => -2.0,
            Title::LesserDalmuti => -1.0,
            _ => 0.0,
        };
        // 2. Tribute to others prevented: the cards the Dalmutis would gain, other than
        // ours, spread over the rivals.
        let others = match title {
            Title::GreaterDalmuti => 1.0,
            Title::LesserDalmuti => 2.0,
            _ => 3.0,
        };
        let blocked = w.tribute * others / (p - 1.0) * 2.0;
        // 3. Information leaked: everyone learns where both Jesters are.
        let leak = w.info_leak * (p - 1.0);
        // 4. Rivalry: a score leader seated as a Dalmuti, weighted by how few hands are
        // left to catch up.
        let seats = view.seats();
        let me = view.seat();
        let my_score = seats[me].score;
        let leader = (0..seats.len())
            .filter(|&s| s != me)
            .max_by_key(|&s| (seats[s].score, usize::MAX - s));
        let rivalry = match leader {
            Some(s) if s <= 1 && seats[s].score >= my_score => {
                let gap = f64::from(seats[s].score - my_score);
                w.rivalry * (1.0 + gap / p) / (1.0 + f64::from(view.hands_left()))
            }
            _ => 0.0,
        };
        vec![
            no,
            explained(
                DalmutiDecision::Revolution(true),
                vec![
                    ("own_tax", own),
                    ("tribute_blocked", blocked),
                    ("info_leak", -leak),
                    ("rivalry", rivalry),
                ],
            ),
        ]
    }
}

const DEFAULT_WEIGHTS: Weights = Weights {
    plan: 1.0,
    strength: 1.0,
    control: 0.5,
    continuation: 1.0,
    reentry_cost: 1.0,
    concede: 0.5,
    tempo: 0.25,
    tempo_static: 0.0,
    finish: 4.0,
    hold: 0.15,
    block_threshold: 0.5,
    block: 5.0,
    tax_plan: 1.0,
    tribute: 0.4,
    info_leak: 0.1,
    rivalry: 1.0,
    temperature: 0.02,
    margin: 0.05,
};

fn explained(
    action: DalmutiDecision,
    terms: Vec<(&'static str, f64)>,
) -> Explained<DalmutiDecision> {
    Explained {
        action,
        score: terms.iter().map(|t| t.1).sum(),
        probability: 0.0,
        terms,
    }
}

/// The strength of `cards`: per numbered card `(12 - rank) / 11`, per Jester 1.
pub fn card_strength(cards: Cards) -> f64 {
    Rank::numbered()
        .map(|r| f64::from(cards.count(r)) * f64::from(12 - r.get()) / 11.0)
        .sum::<f64>()
        + f64::from(cards.jesters())
}

/// What the lead is worth to a hand with plan `plan`: its best set's size times the
/// chance nobody beats it.
fn control_value(plan: &Plan, l: &Ledger) -> f64 {
    plan.groups
        .iter()
        .map(|g| {
            let safety = if l.structurally_safe(g.rank(), g.size()) {
                1.0
            } else {
                1.0 - l.beat_risk(g.rank(), g.size())
            };
            safety * f64::from(g.size())
        })
        .fold(0.0, f64::max)
}

/// The chance that `rest` unseen cards of seat `i` form one set (same rank, Jesters
/// wild): the hypergeometric chance that `rest` draws are all one rank.
fn approx_one_set(l: &Ledger, rest: u8) -> f64 {
    let total = l.unseen.len() as usize;
    let n = usize::from(rest);
    if n == 0 {
        return 1.0;
    }
    let j = usize::from(l.unseen.jesters());
    let mut p = 0.0;
    for r in Rank::numbered() {
        let a = usize::from(l.unseen.count(r));
        if a == 0 {
            continue;
        }
        // All n cards among the a of rank r plus the j Jesters, at least one natural.
        p += hypergeometric_pmf(a + j, total, n, n) - hypergeometric_pmf(j, total, n, n);
    }
    p.clamp(0.0, 1.0)
}

/// The group value of holding `n` cards of rank `r`: `n` times the chance the set is
/// not beaten (Dalmuti Part 3's `groupValue`).
fn group_value(l: &Ledger, r: Rank, n: u8) -> f64 {
    if n == 0 || r.is_jester() {
        return 0.0;
    }
    let safety = if l.structurally_safe(r, n) {
        1.0
    } else {
        1.0 - l.beat_risk(r, n)
    };
    f64::from(n) * safety
}

/// `E[f(K + add) - f(K)]` with `K` hypergeometric: the receiver's expected gain from
/// `add` cards of rank `r` (a Jester gains on every rank: never returned unless
/// nothing else is left).
fn give_away_cost(l: &Ledger, r: Rank, add: u8, target: usize) -> f64 {
    if r.is_jester() {
        return 100.0 * f64::from(add);
    }
    let total = l.unseen.len() as usize;
    let a = usize::from(l.unseen.count(r));
    let draws = target.min(total);
    (0..=a.min(draws))
        .map(|k| {
            let pk = hypergeometric_pmf(a, total, draws, k);
            let k = k as u8;
            pk * (group_value(l, r, k + add) - group_value(l, r, k))
        })
        .sum()
}

impl Policy<Dalmuti> for HardBot {
    fn decide(&self, view: &DalmutiView, ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        self.decide_explained(view, ctx).0
    }

    fn decide_explained(
        &self,
        view: &DalmutiView,
        ctx: &mut DecisionContext<'_>,
    ) -> (DalmutiDecision, Vec<Explained<DalmutiDecision>>) {
        let mut all = self.scored(view);
        if all.is_empty() {
            ctx.mark_fallback();
            return (crate::dalmuti::bots::easy::easy_decision(view), all);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::DecisionContext;
    use crate::dalmuti::bots::is_legal;
    use crate::dalmuti::cards::test_rank as r;
    use crate::dalmuti::knowledge::Opponent;
    use crate::dalmuti::referee::{HandState, deal, opening_view_input};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn terms_vary_across_candidates_and_explain_is_sorted() {
        let view = DalmutiView::new(opening_view_input(6, 11)).unwrap();
        let (d, all) = HARD.decide_explained(&view, &mut DecisionContext::unbounded(1));
        assert!(is_legal(&view, &d));
        assert!(all.len() > 3);
        assert!(all.windows(2).all(|w| w[0].score >= w[1].score));
        let total: f64 = all.iter().map(|e| e.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
        for name in ["plan", "control", "tempo"] {
            let values: Vec<f64> = all
                .iter()
                .filter_map(|e| e.terms.iter().find(|t| t.0 == name).map(|t| t.1))
                .collect();
            let (lo, hi) = values
                .iter()
                .fold((f64::MAX, f64::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            assert!(
                hi > lo,
                "term {name} is constant across candidates: {values:?}"
            );
        }
    }

    #[test]
    fn tax_return_never_gives_a_jester_and_sheds_the_orphan() {
        // Greater Dalmuti after taxes (hand 2): find a deal and its tax-return view.
        for seed in 0..50u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let hands = deal(5, &mut rng);
            let seating: Vec<usize> = (0..5).collect();
            let state = HandState::new(&hands, &seating, &[0; 5], 2, 18);
            let Ok(Some(view)) = state.view() else {
                continue;
            };
            if view.phase() != Phase::TaxReturn {
                continue;
            }
            let d = HARD.decide(&view, &mut DecisionContext::unbounded(seed));
            assert!(is_legal(&view, &d));
            let DalmutiDecision::TaxReturn(c) = d else {
                panic!("{d:?}")
            };
            if view.hand().numbered_len() >= 2 {
                assert_eq!(c.jesters(), 0, "seed {seed}: returned a Jester");
            }
        }
    }

    #[test]
    fn give_away_prefers_a_spent_rank_single_to_a_live_rank() {
        // I hold one 11 (the other 10 unseen: a live rank the receiver may collect)
        // and one 7 whose other six copies are played (a spent rank): returning the 7
        // hands over nothing that grows.
        let hand = Cards::EMPTY
            .with(r(1), 1)
            .with(r(2), 2)
            .with(r(7), 1)
            .with(r(11), 1)
            .with(r(12), 1);
        let played = Cards::EMPTY.with(r(7), 6);
        let unseen = Cards::FULL_DECK.difference(hand).difference(played);
        let opponents: Vec<Opponent> = (1..5)
            .map(|s| Opponent {
                seat: s,
                cards: (unseen.len() / 4) as u8,
                known_jesters: None,
                passed_on: None,
                known: Cards::EMPTY,
            })
            .collect();
        let l = Ledger::from_parts(unseen, &opponents, 1.0);
        let seven = give_away_cost(&l, r(7), 1, 16);
        let eleven = give_away_cost(&l, r(11), 1, 16);
        assert!(seven < eleven, "7: {seven}, 11: {eleven}");
        assert!(give_away_cost(&l, Rank::JESTER, 1, 16) > eleven);
    }

    #[test]
    fn greater_peon_always_declares() {
        for seed in 0..200u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let hands = deal(6, &mut rng);
            if hands[5].jesters() != 2 {
                continue;
            }
            let seating: Vec<usize> = (0..6).collect();
            for hand_number in [1, 2, 10] {
                let state =
                    HandState::new(&hands, &seating, &[0; 6], hand_number, 20 - hand_number);
                let view = state.view().unwrap().unwrap();
                assert_eq!(view.phase(), Phase::Revolution);
                for bot in [&HARD, &NORMAL] {
                    let d = bot.decide(&view, &mut DecisionContext::unbounded(seed));
                    assert_eq!(d, DalmutiDecision::Revolution(true));
                }
            }
            return;
        }
        panic!("no deal gave the GP both Jesters");
    }

    /// The pass's `control` (continuation) and `concede` terms.
    fn pass_terms(bot: &HardBot, view: &DalmutiView) -> (f64, f64) {
        let all = bot.scored(view);
        let pass = all
            .iter()
            .find(|e| e.action == DalmutiDecision::Pass)
            .expect("following: the pass is a candidate");
        let term = |name| pass.terms.iter().find(|t| t.0 == name).map_or(0.0, |t| t.1);
        (term("control"), term("concede"))
    }

    #[test]
    fn a_pass_pays_for_the_lead_it_concedes_and_a_reentry_counts_its_cost() {
        let mut free = HARD;
        free.weights = free.weights.with_override("reentry_cost=0").unwrap();
        let (mut conceded, mut cheaper, mut total, mut dearer) = (0, 0, 0, 0);
        for seed in 0..30u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let hands = deal(6, &mut rng);
            let seating: Vec<usize> = (0..6).collect();
            let mut state = HandState::new(&hands, &seating, &[0; 6], 1, 4);
            while let Some(view) = state.view().unwrap() {
                if view.phase() == Phase::Play && view.table().is_some() {
                    let (cont, concede) = pass_terms(&HARD, &view);
                    let (free_cont, free_concede) = pass_terms(&free, &view);
                    assert!(concede <= 0.0 && cont >= 0.0, "seed {seed}");
                    assert_eq!(concede, free_concede);
                    total += 1;
                    conceded += usize::from(concede < 0.0);
                    cheaper += usize::from(cont < free_cont);
                    dearer += usize::from(cont > free_cont);
                }
                let d = crate::dalmuti::bots::easy::easy_decision(&view);
                state.apply(d, "easy").unwrap();
            }
        }
        // The re-entry's cost moves the option value both ways: down when re-entering
        // spends strong cards for no play saved, up when it sheds a whole set.
        assert!(
            total > 1000 && conceded > total / 2,
            "{conceded} of {total}"
        );
        assert!(cheaper > 100 && dearer > 100, "{cheaper} {dearer}");
    }

    #[test]
    fn overrides_parse_and_reject_unknown_names() {
        let w = Weights::default().with_override("tempo=0").unwrap();
        assert_eq!(w.tempo, 0.0);
        assert!(Weights::default().with_override("nope=1").is_err());
        assert!(Weights::default().with_override("tempo").is_err());
        assert_eq!(Weights::default(), DEFAULT_WEIGHTS);
    }
}
