//! The EXPERT search, written once over the simulation seam ([`Simulation`]).
//!
//! **Racing over common deals.** Every round samples one deal of the hidden cards
//! consistent with the seat's view (through [`determinize`], so a game's knowledge can
//! weight the deals), and plays every candidate still in the race on that same deal to
//! the end of the hand: down the candidate's own information-set tree (`tree`), which
//! every playout through it grows, then with a fast playout policy. Candidates are compared on paired
//! outcomes (common random numbers: the luck of the deal cancels out of each
//! difference), and a candidate whose paired deficit to the leader is clear
//! ([`Settings::elimination_z`] standard errors) leaves the race, so the budget goes to
//! the contenders. The search is anytime: it checks the budget before every playout,
//! and answers the leader of the completed rounds.
//!
//! **Successive halving** ([`Settings::halving`]) replaces the race's eliminations
//! when the search knows its total work in advance: the work is split into phases,
//! and each phase ends by keeping the better half of the candidates. Every playout of
//! the limit is spent, and more work makes every comparison finer, so the answer
//! improves with the work where the race's early eliminations do not.
//!
//! **Widening with the work** ([`Guide::challengers`]). A race between few candidates
//! is often decided long before the work is spent, and then more work buys nothing.
//! Given challengers, a decided race instead lets the next one join against the
//! leader (and whoever else is still racing): the newcomer plays every round from then
//! on, and the comparisons that involve it are paired over the rounds it has played
//! ([`Settings::min_rounds`] of them before it can leave or make another leave). So
//! the field grows with the work: a small limit ends with the first race, a large one
//! or a long budget goes on to try the challengers.
//!
//! **Reproducible work.** An *iteration* is one playout. With a limit on iterations
//! the search does that many (fewer only once one candidate is left, or if the budget
//! ends first) and its answer depends only on the view, the seed and the limit, on any
//! machine. Successive halving over a time budget cannot be replayed by its iteration
//! count (its phases follow the clock); the race can (stopped after N playouts, it is
//! the race limited to N).

use crate::bot::DecisionContext;
#[cfg(doc)]
use crate::game::determinize;
use crate::game::{DealFn, Simulation, determinize_by};

pub mod analysis;
pub mod expert;
pub mod mate;
mod tree;

pub use expert::{DealInference, DealWeight, ExpertBot, PlayoutPolicy, Searchable};
use rand_chacha::ChaCha8Rng;
pub use tree::TreeSettings;

/// The search's tunable settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Rounds every candidate plays before any can be eliminated.
    pub min_rounds: u32,
    /// A candidate leaves the race when its mean paired deficit to the leader exceeds
    /// this many standard errors. `f64::INFINITY` keeps every candidate in the race.
    pub elimination_z: f64,
    /// How far apart the race's looks for eliminations are: after [`Settings::min_rounds`]
    /// rounds, and then each time the rounds have grown by this factor (2: at 8, 16,
    /// 32, ... rounds). 1 looks after every round. Every look is another chance for a
    /// candidate to drift [`Settings::elimination_z`] standard errors behind by luck
    /// alone, so looks after every round refute more often the longer the race runs;
    /// geometric looks keep their count to the logarithm of the work.
    pub look_ratio: f64,
    /// Deal draws per round that the knowledge hook may reject (1 = uniform deals).
    pub deal_tries: u32,
    /// Most actions a playout may take before it is abandoned (a guard against a game
    /// that does not end; a correct game always ends well before).
    pub max_playout_actions: u32,
    /// The tree below each candidate ([`TreeSettings::expand_after`] 0: none).
    pub tree: TreeSettings,
    /// Successive halving instead of the race, when the search knows its total work in
    /// advance: an iteration limit (or else a budget of known length) is split evenly
    /// over ceil(log2 K) phases for K candidates, and after each phase the better half
    /// (by mean over every round so far) stays. Knowing neither, the race runs.
    pub halving: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            min_rounds: 8,
            elimination_z: 3.0,
            look_ratio: 1.0,
            deal_tries: 1,
            max_playout_actions: 10_000,
            tree: TreeSettings::default(),
            halving: false,
        }
    }
}

/// One candidate's record after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<D> {
    /// The decision.
    pub decision: D,
    /// Playouts it got.
    pub visits: u64,
    /// Its mean outcome in the game's primary unit (see [`Simulation::outcome`]).
    pub mean: f64,
    /// The 95% interval of the mean (Student's t, [`crate::stats::mean_ci95`]), with at
    /// least two playouts.
    pub ci95: Option<(f64, f64)>,
    /// Whether it was still in the race at the end.
    pub in_race: bool,
    /// For a candidate in the race at the end: its mean paired deficit to the chosen
    /// decision (or to the guide's [`Guide::reference`]) over the rounds both completed
    /// (oriented so that positive means worse, 0 for that decision itself) and that
    /// mean's standard error.
    pub deficit: Option<(f64, f64)>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<D> {
    /// The decision chosen: the best mean among the candidates still in the race
    /// (over the rounds they all played), or the winner of the last decided race while
    /// a challenger has not put it out ([`Guide::challengers`]).
    pub decision: D,
    /// Every candidate in the order of [`crate::game::Game::legal_decisions`] (or of
    /// [`Guide::candidates`]), then the challengers that joined, in the order they did.
    pub candidates: Vec<Candidate<D>>,
    /// Playouts done.
    pub iterations: u64,
}

/// A playout policy: the action of the seat to act in a playout, from the position
/// (it may draw from the generator and use the buffer for the legal actions).
pub type Playout<'a, G> = dyn Fn(
        &<G as Simulation>::Position,
        &mut ChaCha8Rng,
        &mut Vec<<G as crate::game::Game>::Decision>,
    ) -> <G as crate::game::Game>::Decision
    + 'a;

/// Running statistics of one candidate: its outcome on each completed round.
struct Runner {
    outcomes: Vec<f64>,
    in_race: bool,
}

/// Why a search has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoResult {
    /// The view's phase has no position to search ([`Simulation::position`] is
    /// `None`), or the view has no legal decision.
    NoPosition,
    /// The budget ended before the first round was complete.
    NoTime,
}

/// When a search stops, besides the context's budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// Exactly this many playouts at most (the reproducible mode).
    pub iterations: Option<u64>,
}

impl Limit {
    fn reached(&self, iterations: u64) -> bool {
        self.iterations.is_some_and(|l| iterations >= l)
    }
}

/// What guides a search besides its settings.
pub struct Guide<'a, G: Simulation> {
    /// How a round's deals are drawn ([`Simulation::deal`], or a variant to measure
    /// what a fact it uses is worth).
    pub deal: DealFn<G>,
    /// The knowledge hook of [`determinize`]: the weight of a deal.
    pub weight: &'a dyn Fn(&G::Deal) -> f64,
    /// The action of the seat to act in a playout (it may draw from the generator).
    pub playout: &'a Playout<'a, G>,
    /// The candidates to search, if not every legal decision (each must be legal).
    pub candidates: Option<&'a [G::Decision]>,
    /// Legal decisions that join the race one at a time, in this order, each time the
    /// race is decided (one contender left) while work remains: the next joins the
    /// leader for a race of their own (the module's *Widening with the work*). Empty: the
    /// search ends when the race is decided. Only the race widens (not halving).
    pub challengers: &'a [G::Decision],
    /// Deals weighted by what the other seats were seen to do, if at all.
    pub inference: Option<Inference<'a, G>>,
    /// The true deal, played in every round instead of any drawn one: only for the
    /// arena's bot that is told the hidden hands (`told:`), which measures what the
    /// search would be worth if its deals were right. Nothing served sets it.
    pub known_deal: Option<&'a G::Deal>,
    /// The decision the candidates' paired deficits are measured from, if not the one
    /// chosen (it must be a candidate still in the race at the end; an analysis keeps
    /// every candidate in the race).
    pub reference: Option<G::Decision>,
}

/// Deals weighted by evidence: every round draws `draws` fresh deals (each through
/// [`determinize`]) and plays one of them, chosen with probability proportional to
/// `exp(log_weight(deal))`, tempered so that the choice spreads over at least half the
/// draws (an effective sample size of half): sampling-importance-resampling. The rounds stay
/// independent (a deal is never played twice), so the paired standard errors that
/// the race and the anchor compare stay honest; the cost is `draws` weighings a round.
pub struct Inference<'a, G: Simulation> {
    /// A deal's log-weight, e.g. the log-likelihood of the other seats' logged
    /// decisions had the hidden cards been dealt so.
    pub log_weight: &'a dyn Fn(&G::Deal) -> f64,
    /// Deals drawn per round (at least 2 for any weighting).
    pub draws: u32,
}

impl<G: Simulation> Clone for Inference<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Simulation> Copy for Inference<'_, G> {}

/// Where a search's rounds get their deals: [`determinize`], or the weighted draws of
/// an [`Inference`].
struct Dealer<'a, G: Simulation> {
    draw: DealFn<G>,
    weight: &'a dyn Fn(&G::Deal) -> f64,
    deal_tries: u32,
    inference: Option<Inference<'a, G>>,
    known: Option<&'a G::Deal>,
    /// The round's draws, each with its log-weight.
    pool: Vec<(f64, G::Deal)>,
}

impl<'a, G: Simulation> Dealer<'a, G> {
    /// The dealer of a search between `candidates` decisions (with one, nothing is
    /// worth weighing).
    fn new(guide: &Guide<'a, G>, deal_tries: u32, candidates: usize) -> Self {
        Dealer {
            draw: guide.deal,
            weight: guide.weight,
            deal_tries,
            inference: guide.inference.filter(|i| i.draws > 1 && candidates > 1),
            known: guide.known_deal,
            pool: Vec::new(),
        }
    }

    fn draw(&self, view: &G::View, rng: &mut ChaCha8Rng) -> G::Deal {
        determinize_by::<G>(self.draw, view, rng, self.weight, self.deal_tries)
    }

    /// The next round's deal.
    fn deal(&mut self, view: &G::View, rng: &mut ChaCha8Rng) -> G::Deal {
        if let Some(known) = self.known {
            return known.clone();
        }
        let Some(Inference { log_weight, draws }) = self.inference else {
            return self.draw(view, rng);
        };
        self.pool.clear();
        for _ in 0..draws {
            let deal = self.draw(view, rng);
            self.pool.push((log_weight(&deal), deal));
        }
        let top = self
            .pool
            .iter()
            .map(|(w, _)| *w)
            .fold(f64::NEG_INFINITY, f64::max);
        let scale = tempering(&self.pool, top, MIN_EFFECTIVE_SHARE);
        let total: f64 = self
            .pool
            .iter()
            .map(|(w, _)| (scale * (w - top)).exp())
            .sum();
        let mut at = crate::game::unit(rng) * total;
        let mut chosen = self.pool.len() - 1;
        for (i, (w, _)) in self.pool.iter().enumerate() {
            at -= (scale * (w - top)).exp();
            if at < 0.0 {
                chosen = i;
                break;
            }
        }
        self.pool.swap_remove(chosen).1
    }
}

/// The least share of the draws that the weighted choice must spread over (its
/// effective sample size): a likelihood that would put nearly all the weight on one
/// deal is tempered until this share is reached, so that the search never plays one
/// guess of the hidden hands over and over.
const MIN_EFFECTIVE_SHARE: f64 = 0.5;

/// The largest power in `[0, 1]` of the draws' weights whose effective sample size,
/// `(sum w)^2 / sum w^2`, is at least `share` of the draws (by bisection; `top` is the
/// largest log-weight).
fn tempering<D>(pool: &[(f64, D)], top: f64, share: f64) -> f64 {
    let effective = |scale: f64| {
        let (sum, squares) = pool.iter().fold((0.0, 0.0), |(s, q), (w, _)| {
            let x = (scale * (w - top)).exp();
            (s + x, q + x * x)
        });
        sum * sum / squares
    };
    let target = share * pool.len() as f64;
    if effective(1.0) >= target {
        return 1.0;
    }
    let (mut low, mut high) = (0.0, 1.0);
    for _ in 0..16 {
        let mid = 0.5 * (low + high);
        if effective(mid) >= target {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

/// Searches the view's decision for `seat` (the view's). `limit` caps the playouts or
/// the time; `guide` gives the deal weights, the playout policy and the candidates.
///
/// With neither a `limit` nor a budget that ends, a search between candidates that
/// never separate would not end: callers without a budget set a limit.
pub fn search<G: Simulation>(
    view: &G::View,
    seat: usize,
    ctx: &mut DecisionContext<'_>,
    settings: &Settings,
    limit: Limit,
    guide: &Guide<'_, G>,
) -> Result<SearchResult<G::Decision>, NoResult> {
    let Guide { playout, .. } = *guide;
    let mut decisions = guide
        .candidates
        .map_or_else(|| G::legal_decisions(view), <[_]>::to_vec);
    if decisions.is_empty() {
        return Err(NoResult::NoPosition);
    }
    let mut challengers = guide.challengers.iter();
    // The winner of the last decided race, while a challenger races it.
    let mut incumbent = None;
    let mut runners: Vec<Runner> = decisions
        .iter()
        .map(|_| Runner {
            outcomes: Vec::new(),
            in_race: true,
        })
        .collect();
    let sign = if G::HIGHER_IS_BETTER { 1.0 } else { -1.0 };
    let mut trees: Vec<tree::Tree<G::Decision>> =
        decisions.iter().map(|_| tree::Tree::new()).collect();
    let mut scratch = tree::Scratch::new();
    let mut iterations = 0u64;
    let mut round_outcomes = vec![0.0; decisions.len()];
    let mut schedule = Schedule::new(settings, limit, ctx, decisions.len());
    let widens = matches!(schedule, Schedule::Race { .. });
    let mut dealer = Dealer::new(
        guide,
        settings.deal_tries,
        decisions.len() + if widens { guide.challengers.len() } else { 0 },
    );
    'rounds: loop {
        let mut racing: Vec<usize> = (0..decisions.len())
            .filter(|&i| runners[i].in_race)
            .collect();
        if racing.len() == 1 && !runners[racing[0]].outcomes.is_empty() {
            // One contender left: more playouts cannot change the answer, unless a
            // challenger joins it.
            let next = challengers
                .by_ref()
                .find(|c| !decisions.contains(c))
                .filter(|_| widens && !limit.reached(iterations) && !ctx.should_stop());
            let Some(&challenger) = next else {
                break;
            };
            incumbent = Some(racing[0]);
            racing.push(decisions.len());
            decisions.push(challenger);
            runners.push(Runner {
                outcomes: Vec::new(),
                in_race: true,
            });
            trees.push(tree::Tree::new());
            round_outcomes.push(0.0);
            schedule = Schedule::Race {
                next_look: settings.min_rounds as usize,
            };
        }
        let deal = dealer.deal(view, ctx.rng());
        let start = G::position(view, &deal).ok_or(NoResult::NoPosition)?;
        for &i in &racing {
            if limit.reached(iterations) || ctx.should_stop() {
                break 'rounds;
            }
            let mut position = start.clone();
            G::apply(&mut position, decisions[i]);
            trees[i].playout::<G>(
                &mut position,
                &settings.tree,
                settings.max_playout_actions,
                playout,
                ctx.rng(),
                &mut scratch,
            );
            round_outcomes[i] = G::outcome(&position, seat);
            iterations += 1;
        }
        for &i in &racing {
            runners[i].outcomes.push(round_outcomes[i]);
        }
        let rounds = shared_rounds(&runners, &racing);
        match &mut schedule {
            Schedule::Race { next_look } => {
                if rounds >= *next_look {
                    eliminate(&mut runners, &racing, rounds, sign, settings.elimination_z);
                    *next_look = next_look_after(rounds, settings.look_ratio);
                }
            }
            Schedule::Iterations(halving) => {
                if rounds >= halving.phase_end {
                    let kept = keep_better_half(&mut runners, &racing, sign);
                    halving.phase_end = rounds + halving.rounds_per_phase(kept);
                }
            }
            Schedule::Time { phases, ended } => {
                let spent = ctx.budget_spent().unwrap_or(1.0);
                if spent * f64::from(*phases) >= f64::from(*ended + 1) {
                    keep_better_half(&mut runners, &racing, sign);
                    *ended += 1;
                }
            }
        }
    }
    if incumbent.is_some() && runners.last().is_some_and(|r| r.outcomes.is_empty()) {
        // The work ended before the last challenger to join played a round.
        decisions.pop();
        runners.pop();
    }
    let racing: Vec<usize> = (0..decisions.len())
        .filter(|&i| runners[i].in_race)
        .collect();
    // The racing candidates have all played the last `completed` rounds (every round,
    // unless a challenger joined after the first).
    let completed = shared_rounds(&runners, &racing);
    if completed == 0 {
        return Err(NoResult::NoTime);
    }
    // A challenger is answered only once it has put the winner of the race before it
    // out of the race: a few rounds of a newcomer do not overrule a decided race.
    let best = incumbent
        .filter(|&i| runners[i].in_race)
        .unwrap_or_else(|| leader(&runners, &racing, completed, sign));
    let reference = guide
        .reference
        .and_then(|d| decisions.iter().position(|&c| c == d))
        .filter(|&i| runners[i].in_race)
        .unwrap_or(best);
    let leader = last(&runners[reference].outcomes, completed);
    let candidates = decisions
        .iter()
        .zip(&runners)
        .map(|(&decision, r)| Candidate {
            decision,
            visits: r.outcomes.len() as u64,
            mean: mean(&r.outcomes),
            ci95: ci95(&r.outcomes),
            in_race: r.in_race,
            deficit: r
                .in_race
                .then(|| paired_deficit(leader, last(&r.outcomes, completed), sign)),
        })
        .collect();
    Ok(SearchResult {
        decision: decisions[best],
        candidates,
        iterations,
    })
}

/// How a search shares its work among the candidates.
enum Schedule {
    /// The race: after [`Settings::min_rounds`], a candidate clearly behind the leader
    /// leaves ([`eliminate`]), looked for at the rounds [`Settings::look_ratio`] sets;
    /// the search ends when one is left.
    Race {
        /// The round count of the next look.
        next_look: usize,
    },
    /// Successive halving over an iteration limit.
    Iterations(Halving),
    /// Successive halving over a budget of known length: the budget is split evenly
    /// over the phases, and the round that ends a phase's share halves the field.
    Time {
        /// ceil(log2 K) for K candidates.
        phases: u32,
        /// Phases ended so far.
        ended: u32,
    },
}

impl Schedule {
    /// Successive halving when the settings ask for it and the search knows its total
    /// work in advance (an iteration limit, or a budget of known length); else the race.
    fn new(
        settings: &Settings,
        limit: Limit,
        ctx: &DecisionContext<'_>,
        candidates: usize,
    ) -> Schedule {
        let race = Schedule::Race {
            next_look: settings.min_rounds as usize,
        };
        if !settings.halving {
            race
        } else if let Some(total) = limit.iterations {
            Schedule::Iterations(Halving::new(total, candidates))
        } else if ctx.budget_spent().is_some() {
            Schedule::Time {
                phases: halving_phases(candidates) as u32,
                ended: 0,
            }
        } else {
            race
        }
    }
}

/// The round of the race's next look after one at `rounds`: `rounds * ratio` rounded
/// up, and at least the next round.
fn next_look_after(rounds: usize, ratio: f64) -> usize {
    let scaled = (rounds as f64 * ratio).ceil();
    if scaled.is_finite() && scaled < usize::MAX as f64 {
        (scaled as usize).max(rounds + 1)
    } else {
        usize::MAX
    }
}

/// Phases of successive halving for `candidates`: ceil(log2 K), at least one.
fn halving_phases(candidates: usize) -> u64 {
    u64::from(candidates.max(2).next_power_of_two().trailing_zeros())
}

/// The schedule of successive halving: an iteration limit split evenly over the
/// phases, each phase's share split evenly over the candidates it races.
struct Halving {
    per_phase: u64,
    /// The round count at which the current phase ends.
    phase_end: usize,
}

impl Halving {
    fn new(total: u64, candidates: usize) -> Self {
        let mut halving = Halving {
            per_phase: total / halving_phases(candidates),
            phase_end: 0,
        };
        halving.phase_end = halving.rounds_per_phase(candidates);
        halving
    }

    /// Rounds a phase racing `candidates` lasts (at least one).
    fn rounds_per_phase(&self, candidates: usize) -> usize {
        ((self.per_phase / candidates.max(1) as u64) as usize).max(1)
    }
}

/// Keeps the better half (rounded up) of the racing candidates by their mean over the
/// rounds they all played; returns how many stay.
fn keep_better_half(runners: &mut [Runner], racing: &[usize], sign: f64) -> usize {
    let mut order = racing.to_vec();
    order.sort_by(|&a, &b| {
        (sign * mean(&runners[b].outcomes))
            .total_cmp(&(sign * mean(&runners[a].outcomes)))
            .then(a.cmp(&b))
    });
    let kept = order.len().div_ceil(2);
    for &i in &order[kept..] {
        runners[i].in_race = false;
    }
    kept
}

/// The last `rounds` outcomes of a runner (the rounds every racing candidate played).
fn last(outcomes: &[f64], rounds: usize) -> &[f64] {
    &outcomes[outcomes.len() - rounds..]
}

/// The rounds every racing candidate has played: the last this many of each.
fn shared_rounds(runners: &[Runner], racing: &[usize]) -> usize {
    racing
        .iter()
        .map(|&i| runners[i].outcomes.len())
        .min()
        .unwrap_or(0)
}

/// The racing candidate with the best mean over the last `rounds` rounds (paired: the
/// same deals for all), the first in order among equals.
fn leader(runners: &[Runner], racing: &[usize], rounds: usize, sign: f64) -> usize {
    *racing
        .iter()
        .max_by(|&&a, &&b| {
            let (ma, mb) = (
                mean(last(&runners[a].outcomes, rounds)),
                mean(last(&runners[b].outcomes, rounds)),
            );
            (sign * ma).total_cmp(&(sign * mb)).then(b.cmp(&a))
        })
        .expect("a candidate is racing")
}

/// Drops every racing candidate whose paired deficit to the leader (on the `rounds`
/// rounds they all played) is more than `z` standard errors.
fn eliminate(runners: &mut [Runner], racing: &[usize], rounds: usize, sign: f64, z: f64) {
    let tail = |i: usize| last(&runners[i].outcomes, rounds);
    let leader = leader(runners, racing, rounds, sign);
    let mut out = Vec::new();
    for &i in racing {
        if i == leader {
            continue;
        }
        let (m, se) = paired_deficit(tail(leader), tail(i), sign);
        if m > 0.0 && m > z * se {
            out.push(i);
        }
    }
    for i in out {
        runners[i].in_race = false;
    }
}

/// The mean of `other`'s paired deficits to `leader` on the same rounds (positive:
/// worse, whatever the game's direction, given by `sign`) and that mean's standard error.
fn paired_deficit(leader: &[f64], other: &[f64], sign: f64) -> (f64, f64) {
    let diffs: Vec<f64> = leader
        .iter()
        .zip(other)
        .map(|(l, c)| sign * (l - c))
        .collect();
    (mean(&diffs), (variance(&diffs) / diffs.len() as f64).sqrt())
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn variance(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64
}

/// The 95% interval of the mean of `xs`, the one every interval the project prints
/// comes from ([`crate::stats::mean_ci95`], Student's t), with at least two playouts.
fn ci95(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 {
        return None;
    }
    let ci = crate::stats::mean_ci95(xs, (f64::NEG_INFINITY, f64::INFINITY));
    Some((ci.lo, ci.hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Difficulty, uniform_below};
    use crate::game::{Game, Policy};

    /// A toy game of perfect information dressed as a card game: two seats take turns
    /// removing 1 or 2 tokens from a pile; who takes the last token wins (place 1).
    /// From 4 tokens, taking 1 wins (the other seat then faces 3, a lost pile).
    struct Nim;

    #[derive(Clone, Debug)]
    struct Pile {
        tokens: u32,
        to_act: usize,
        winner: Option<usize>,
    }

    impl Game for Nim {
        const NAME: &'static str = "nim";
        const BOT_NAMES: &'static str = "";
        type View = Pile;
        type Decision = u32;

        fn seat(view: &Pile) -> usize {
            view.to_act
        }

        fn legal_decisions(view: &Pile) -> Vec<u32> {
            (1..=view.tokens.min(2)).collect()
        }

        fn is_legal(view: &Pile, decision: &u32) -> bool {
            (1..=view.tokens.min(2)).contains(decision)
        }

        fn fingerprint(view: &Pile) -> u64 {
            u64::from(view.tokens)
        }

        fn policy(_: Difficulty) -> Option<&'static dyn Policy<Nim>> {
            None
        }

        fn bot(name: &str) -> Result<Box<dyn Policy<Nim>>, crate::bot::BotNameError> {
            Err(crate::bot::BotNameError::Unknown {
                game: "nim",
                bot: name.to_string(),
            })
        }
    }

    impl Simulation for Nim {
        type Deal = ();
        type Position = Pile;
        const HIGHER_IS_BETTER: bool = false;

        fn deal(_: &Pile, _: &mut ChaCha8Rng) {}

        fn position(view: &Pile, _: &()) -> Option<Pile> {
            Some(view.clone())
        }

        fn to_act(p: &Pile) -> Option<usize> {
            p.winner.is_none().then_some(p.to_act)
        }

        fn legal_actions(p: &Pile, out: &mut Vec<u32>) {
            out.clear();
            out.extend(1..=p.tokens.min(2));
        }

        fn apply(p: &mut Pile, take: u32) {
            p.tokens -= take;
            if p.tokens == 0 {
                p.winner = Some(p.to_act);
            }
            p.to_act = 1 - p.to_act;
        }

        fn outcome(p: &Pile, seat: usize) -> f64 {
            if p.winner == Some(seat) { 1.0 } else { 2.0 }
        }
    }

    fn random_playout(p: &Pile, rng: &mut ChaCha8Rng, buf: &mut Vec<u32>) -> u32 {
        Nim::legal_actions(p, buf);
        buf[uniform_below(rng, buf.len())]
    }

    fn uniform(_: &()) -> f64 {
        1.0
    }

    /// Every legal decision searched, uniform deals, random playouts.
    const PLAIN: Guide<'static, Nim> = Guide {
        deal: Nim::deal,
        weight: &uniform,
        playout: &random_playout,
        candidates: None,
        challengers: &[],
        inference: None,
        known_deal: None,
        reference: None,
    };

    fn pile(tokens: u32) -> Pile {
        Pile {
            tokens,
            to_act: 0,
            winner: None,
        }
    }

    /// A search of a pile of `tokens` with random playouts and no guide beyond them,
    /// limited to `iterations` playouts.
    fn search_pile(
        settings: &Settings,
        tokens: u32,
        seed: u64,
        iterations: u64,
    ) -> SearchResult<u32> {
        search::<Nim>(
            &pile(tokens),
            0,
            &mut DecisionContext::unbounded(seed),
            settings,
            Limit {
                iterations: Some(iterations),
            },
            &PLAIN,
        )
        .unwrap()
    }

    #[test]
    fn finds_the_winning_move_and_is_reproducible() {
        let settings = Settings::default();
        let run = |seed, limit| search_pile(&settings, 4, seed, limit);
        let result = run(1, 400);
        assert_eq!(result.decision, 1, "{result:?}");
        assert_eq!(result, run(1, 400));
        assert!(result.iterations <= 400);
        // Taking 2 leaves 2 tokens: the opponent wins at once with a random playout
        // half the time, so its mean place is worse; eliminated or outscored.
        let take2 = &result.candidates[1];
        assert!(take2.mean > result.candidates[0].mean, "{result:?}");
    }

    /// A search of a pile of 4 that starts with taking 2 alone and has taking 1 (the
    /// winning move) as its challenger, limited to `iterations` playouts.
    fn widening_search(settings: &Settings, iterations: u64) -> SearchResult<u32> {
        search::<Nim>(
            &pile(4),
            0,
            &mut DecisionContext::unbounded(5),
            settings,
            Limit {
                iterations: Some(iterations),
            },
            &Guide {
                candidates: Some(&[2]),
                challengers: &[2, 1],
                ..PLAIN
            },
        )
        .unwrap()
    }

    #[test]
    fn a_challenger_joins_a_decided_race_and_overrules_it_only_by_putting_it_out() {
        let settings = Settings::default();
        // One playout decides a race of one: no work is left for the challenger.
        let alone = widening_search(&settings, 1);
        assert_eq!(
            (alone.decision, alone.candidates.len()),
            (2, 1),
            "{alone:?}"
        );
        // A challenger already among the candidates does not join again; the next one
        // races the winner, and a few rounds of it do not overrule the decided race.
        let early = widening_search(&settings, 6);
        assert_eq!(early.decision, 2, "{early:?}");
        assert_eq!(
            early
                .candidates
                .iter()
                .map(|c| (c.decision, c.visits, c.in_race))
                .collect::<Vec<_>>(),
            vec![(2, 3, true), (1, 2, true)],
            "the winner's round alone and two together (the sixth playout's round is \
             incomplete)"
        );
        assert_eq!(early.iterations, 6);
        // With the work to tell them apart, the challenger puts the winner out.
        let wide = widening_search(&settings, 2000);
        assert_eq!(wide.decision, 1, "{wide:?}");
        assert!(!wide.candidates[0].in_race && wide.candidates[1].in_race);
        assert!(
            wide.iterations < 2000,
            "decided again with nobody left to join"
        );
        assert_eq!(wide, widening_search(&settings, 2000), "reproducible");
        // Successive halving plans its phases over the known field: it never widens.
        let halving = Settings {
            halving: true,
            ..settings
        };
        assert_eq!(widening_search(&halving, 2000).candidates.len(), 1);
    }

    #[test]
    fn geometric_looks_eliminate_only_at_their_rounds() {
        let run = |look_ratio| {
            let settings = Settings {
                look_ratio,
                ..Settings::default()
            };
            search_pile(&settings, 4, 1, 4000)
        };
        let every = run(1.0);
        let doubling = run(2.0);
        let out_at = |result: &SearchResult<u32>| {
            let out = result.candidates.iter().find(|c| !c.in_race);
            out.map(|c| c.visits)
                .expect("the losing move is eliminated")
        };
        // The same rounds until the first look; after it, only at 8, 16, 32, ...
        assert!(out_at(&doubling).is_power_of_two(), "{doubling:?}");
        assert!(
            out_at(&doubling) >= out_at(&every),
            "{every:?} {doubling:?}"
        );
        assert_eq!(doubling.decision, every.decision);
        assert_eq!(next_look_after(8, 2.0), 16);
        assert_eq!(next_look_after(8, 1.0), 9);
        assert_eq!(next_look_after(9, 1.5), 14);
        assert_eq!(next_look_after(usize::MAX / 2, 4.0), usize::MAX);
    }

    #[test]
    fn an_exact_iteration_limit_is_honoured_without_elimination() {
        let settings = Settings {
            elimination_z: f64::INFINITY,
            ..Settings::default()
        };
        let result = search_pile(&settings, 5, 3, 37);
        assert_eq!(result.iterations, 37);
        // 18 complete rounds of two candidates; the 37th playout's round is incomplete.
        assert!(result.candidates.iter().all(|c| c.visits == 18));
    }

    #[test]
    fn successive_halving_spends_its_limit_in_phases_and_keeps_the_better_half() {
        let settings = Settings {
            halving: true,
            ..Settings::default()
        };
        let run = |seed| search_pile(&settings, 4, seed, 400);
        let result = run(1);
        // Two candidates, one phase: 200 rounds each, then the better one stays.
        assert_eq!(result.iterations, 400);
        assert!(result.candidates.iter().all(|c| c.visits == 200));
        assert_eq!(result.decision, 1, "{result:?}");
        assert_eq!(
            result.candidates.iter().filter(|c| c.in_race).count(),
            1,
            "{result:?}"
        );
        assert_eq!(result, run(1));
        // Three candidates take two phases: 3 x 33 rounds, then 2 x 50.
        let halving = Halving::new(200, 3);
        assert_eq!((halving.per_phase, halving.phase_end), (100, 33));
        assert_eq!(halving.rounds_per_phase(2), 50);
        // A limit too small to share still plays a round per phase.
        assert_eq!(Halving::new(1, 8).rounds_per_phase(8), 1);
    }

    #[test]
    fn a_deadline_ends_a_search_that_would_never_settle() {
        // Without elimination and without an iteration limit only the deadline ends it.
        let settings = Settings {
            elimination_z: f64::INFINITY,
            ..Settings::default()
        };
        let mut ctx = DecisionContext::unbounded(9);
        let budget = ctx.own_budget(std::time::Duration::from_millis(5));
        let result = ctx
            .within(Some(budget), |ctx| {
                search::<Nim>(&pile(6), 0, ctx, &settings, Limit::default(), &PLAIN)
            })
            .unwrap();
        assert!(!ctx.should_stop(), "the own budget ends with the search");
        assert!(result.iterations > 0);
    }

    #[test]
    fn successive_halving_over_a_budget_ends_a_phase_at_each_share_of_it() {
        let settings = Settings {
            halving: true,
            ..Settings::default()
        };
        // Three candidates (taking 1 listed twice): two phases of half the budget each.
        let three_candidates = |ctx: &mut DecisionContext<'_>| {
            search::<Nim>(
                &pile(4),
                0,
                ctx,
                &settings,
                Limit::default(),
                &Guide {
                    candidates: Some(&[1, 2, 1]),
                    ..PLAIN
                },
            )
            .unwrap()
        };
        // A clock that advances one hundredth of the budget each time it is read: the
        // search reads it once to plan and once after every round.
        let reads = std::sync::atomic::AtomicU32::new(0);
        let spent = || {
            let read = reads.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            f64::from(read) / 100.0
        };
        let stop = || reads.load(std::sync::atomic::Ordering::Relaxed) >= 100;
        let result =
            three_candidates(&mut DecisionContext::new(7, &stop).with_budget_spent(&spent));
        // Half the budget is spent after round 49: the worst of three leaves; the
        // whole of it after round 99, and the better of the two left is the answer.
        let mut visits: Vec<u64> = result.candidates.iter().map(|c| c.visits).collect();
        visits.sort_unstable();
        assert_eq!(visits, [49, 99, 99], "{result:?}");
        assert_eq!(result.iterations, 49 * 3 + 50 * 2);
        assert_eq!(result.decision, 1, "{result:?}");
        assert_eq!(result.candidates.iter().filter(|c| c.in_race).count(), 1);
        // Without a budget of known length, the race runs: the losing move leaves it.
        let checks = std::sync::atomic::AtomicU32::new(0);
        let stop = || checks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 3000;
        let race = three_candidates(&mut DecisionContext::new(7, &stop));
        assert!(!race.candidates[1].in_race, "{race:?}");
        assert!(race.candidates[1].visits >= 8, "{race:?}");
    }

    #[test]
    fn a_spent_budget_gives_no_result() {
        let stop = || true;
        let mut ctx = DecisionContext::new(1, &stop);
        let result = search::<Nim>(
            &pile(4),
            0,
            &mut ctx,
            &Settings::default(),
            Limit::default(),
            &PLAIN,
        );
        assert_eq!(result, Err(NoResult::NoTime));
    }

    /// From 14 tokens taking 2 wins (it leaves 12, a multiple of 3), but random
    /// playouts rate both moves alike (0.5056 and 0.5054 chance of winning): only a
    /// look ahead finds the win, and the tree below the candidates is that look ahead.
    #[test]
    fn the_tree_finds_a_win_that_playouts_alone_cannot_see() {
        let run = |tree: TreeSettings, seed| {
            let settings = Settings {
                tree,
                elimination_z: f64::INFINITY,
                ..Settings::default()
            };
            search_pile(&settings, 14, seed, 10_000)
        };
        let deep = TreeSettings {
            expand_after: 2,
            ..TreeSettings::STANDARD
        };
        for seed in 1..=5 {
            let result = run(deep, seed);
            assert_eq!(result.decision, 2, "seed {seed}: {result:?}");
            // Played well by both seats below, taking 2 wins most of the time (the
            // first playouts, before the tree has grown, are random) and taking 1 loses.
            let (take1, take2) = (&result.candidates[0], &result.candidates[1]);
            assert!(take2.mean < 1.25 && take1.mean > 1.6, "{result:?}");
        }
        // Without the tree the two moves stay a coin flip apart.
        let flat = run(TreeSettings::NONE, 1);
        let gap = (flat.candidates[0].mean - flat.candidates[1].mean).abs();
        assert!(gap < 0.05, "{flat:?}");
    }

    #[test]
    fn one_candidate_needs_one_round() {
        let result = search::<Nim>(
            &pile(1),
            0,
            &mut DecisionContext::unbounded(1),
            &Settings::default(),
            Limit::default(),
            &PLAIN,
        )
        .unwrap();
        assert_eq!(result.decision, 1);
        assert_eq!(result.iterations, 1);
    }
}
