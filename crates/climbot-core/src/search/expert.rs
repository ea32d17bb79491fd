//! The EXPERT level of every game: the search of [`super::search`] behind the
//! [`Policy`] interface, with what each game adds ([`Searchable`]): its playout policy,
//! the knowledge that weights deals, and the bot that answers the phases a search does
//! not play (a tax return, an exchange, a revolution choice).

use super::{Guide, Inference, Limit, SearchResult, Settings, TreeSettings, search};
use crate::bot::{BotNameError, OverrideProblem};
use crate::bot::{DecisionContext, Difficulty, Explained};
use crate::game::{Game, Policy, Simulation};
use crate::learn::Learnable;
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::marker::PhantomData;

/// The softmax temperature of the trained policy in playouts, unless set.
pub const DEFAULT_TEMPERATURE: f64 = 1.0;

/// The weight of a deal given what a seat knows (see [`Searchable::deal_weight`]).
pub type DealWeight<'v, G> = Box<dyn Fn(&<G as Simulation>::Deal) -> f64 + 'v>;

/// What the search needs from a game's bots.
pub trait Searchable: Simulation {
    /// The action of the seat to act in a playout (the game's easy rule read off the
    /// position). `buffer` is scratch space for legal actions.
    fn playout_action(
        position: &Self::Position,
        rng: &mut ChaCha8Rng,
        buffer: &mut Vec<Self::Decision>,
    ) -> Self::Decision;

    /// What the view's seat knows about the hidden hands, as the weight in `[0, 1]` of
    /// a deal (see [`crate::game::determinize`]), computed once per search; `None`
    /// (the default): uniform deals.
    fn deal_weight<'v>(_view: &'v Self::View) -> Option<DealWeight<'v, Self>> {
        None
    }

    /// Playouts per decision when neither the caller nor an override sets a limit or a
    /// budget (the arena, self-play): about 20 ms of work for the slowest decisions (the
    /// arena's p99, early in a hand when candidates are many) on the reference machine;
    /// `cargo bench --bench search` gives the cost per playout.
    const DEFAULT_ITERATIONS: u64;

    /// Playouts of the arena's `expert-v1`, the search with the hand-written rule as it
    /// was before it learned: about the time of [`Searchable::DEFAULT_ITERATIONS`]
    /// with the rule (the same count, where the served search plays by the rule).
    const RULE_ITERATIONS: u64 = Self::DEFAULT_ITERATIONS;

    /// How the served EXPERT's playouts choose their actions: the hand-written rule
    /// (the default), or the trained policy where it measured stronger at equal time.
    const PLAYOUT: PlayoutPolicy = PlayoutPolicy::Rule;

    /// How many standard errors of paired evidence the search's leader needs over the
    /// evaluation bot's choice ([`Searchable::evaluation_policy`]) to replace it; 0
    /// (the default): the leader is answered whatever the evaluation bot would play.
    /// Where a game's evaluation knows more than its easy playouts can show (Daifugo),
    /// its choice stands until the search clearly refutes it.
    const ANCHOR_Z: f64 = 0.0;

    /// Search only the evaluation bot's best this many candidates (0, the default:
    /// every legal decision).
    const SHORTLIST: usize = 0;

    /// [`Searchable::ANCHOR_Z`] of the arena's `expert-v1` (the same, unless the
    /// learned search dropped the anchor the rule's search needed).
    const RULE_ANCHOR_Z: f64 = Self::ANCHOR_Z;

    /// [`Searchable::SHORTLIST`] of the arena's `expert-v1` (the same, unless the
    /// learned search dropped the shortlist the rule's search needed).
    const RULE_SHORTLIST: usize = Self::SHORTLIST;

    /// The tree below each candidate ([`TreeSettings::NONE`]: playouts only).
    const TREE: TreeSettings = TreeSettings::STANDARD;

    /// Whether the search of `view` shares its work by successive halving instead of
    /// the race when it knows its total work ([`super::Settings::halving`]); `false`
    /// (the default): always the race, whose paired deficits the anchor
    /// ([`Searchable::ANCHOR_Z`]) needs. A game whose rule presets measured
    /// differently answers by the view's rules.
    fn halving(_view: &Self::View) -> bool {
        false
    }

    /// A decision that wins by force, found exactly before any playout: the first play
    /// of a line whose every play wins its trick whatever the hidden cards are, the
    /// last one emptying the seat's hand (a mate), so that no other seat plays before
    /// the seat goes out. The search answers it without searching. `None` (the
    /// default): no such line, or the game has no such check.
    fn forced_win(_view: &Self::View) -> Option<Self::Decision> {
        None
    }

    /// The strongest evaluation level the game serves: it answers the views the search
    /// cannot play (no [`Simulation::position`]) and makes the anchor of
    /// [`Searchable::ANCHOR_Z`].
    fn evaluation_policy() -> &'static dyn Policy<Self> {
        [Difficulty::Hard, Difficulty::Normal, Difficulty::Easy]
            .into_iter()
            .find_map(Self::policy)
            .expect("every game serves easy")
    }
}

/// How a search's playouts choose the actions of the seats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayoutPolicy {
    /// The game's hand-written playout rule ([`Searchable::playout_action`]).
    Rule,
    /// Uniformly random legal actions (to measure what a policy is worth).
    Random,
    /// The game's trained policy ([`Learnable::trained`]), sampled at this softmax
    /// temperature.
    Learned {
        /// The softmax temperature (0: always the policy's best decision).
        temperature: f64,
    },
}

/// How the search weights its deals by what the other seats were seen to do: each
/// round draws `draws` deals and plays one, chosen in proportion to how likely the
/// game's trained policy finds the other seats' logged decisions under it, raised to
/// the power `beta` (see [`crate::learn::log_likelihood_of_log`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DealInference {
    /// Deals drawn per round (0 or 1: no weighting).
    pub draws: u32,
    /// The power of the likelihood (0: no weighting; below 1 tempers a policy that is
    /// only a model of the other seats).
    pub beta: f64,
    /// Only the most recent this many logged decisions weigh in (0: all of them).
    pub recent: usize,
}

impl DealInference {
    /// No weighting.
    pub const OFF: DealInference = DealInference {
        draws: 0,
        beta: 1.0,
        recent: 0,
    };
}

/// The EXPERT bot of game `G`.
pub struct ExpertBot<G> {
    /// The bot's name in reports.
    pub name: &'static str,
    /// Playouts per decision when the context sets no limit; `None`: until the budget
    /// ends (a served search, whose budget always ends).
    pub iterations: Option<u64>,
    /// The search's settings. Its `halving` is set for each view, by
    /// [`ExpertBot::halving`] or else by [`Searchable::halving`].
    pub settings: Settings,
    /// Successive halving (`Some(true)`) or the race (`Some(false)`) on every view
    /// (`halving=1` or `halving=0`); `None` (served): as [`Searchable::halving`] says
    /// for the view.
    pub halving: Option<bool>,
    /// A time budget of the bot's own, on top of the caller's (the arena's
    /// `budget_ms=N`): makes results depend on the machine, for calibration only.
    pub budget: Option<std::time::Duration>,
    /// Deals drawn uniformly, ignoring the game's knowledge (for ablation).
    pub uniform_deals: bool,
    /// Deals drawn under the bound an exchange puts on the partner's hand (`bound=1`,
    /// the default; `bound=0` draws by
    /// [`Simulation::deal_without_exchange_bound`], for ablation).
    pub exchange_bound: bool,
    /// How playouts choose their actions.
    pub playout: PlayoutPolicy,
    /// See [`Searchable::ANCHOR_Z`] (`anchor=X`).
    pub anchor_z: f64,
    /// See [`Searchable::SHORTLIST`] (`shortlist=k`).
    pub shortlist: usize,
    /// With a shortlist, how far the race may widen with the work (`widen=k`): once it
    /// is decided with work left, the evaluation bot's next candidates join it one at a
    /// time ([`super::Guide::challengers`]) until its best `k` have raced. At most the
    /// shortlist (0, served): no widening, which measured no weaker in Daifugo at the
    /// served work and at ten times it (`docs/measurements/expert.md`).
    pub widen_to: usize,
    /// Deals weighted by the other seats' logged decisions.
    pub inference: DealInference,
    /// Answer a forced win ([`Searchable::forced_win`]) without searching (`mate=1`,
    /// the default; `mate=0` searches it like any other view).
    pub mate: bool,
    game: PhantomData<fn() -> G>,
}

impl<G: Learnable> ExpertBot<G> {
    /// The served level: runs until the budget or the request's iteration limit,
    /// whichever comes first (in every game more work measured stronger:
    /// `docs/measurements/expert.md`, "The served work").
    pub const fn served() -> Self {
        ExpertBot {
            name: "expert",
            iterations: None,
            settings: Settings {
                min_rounds: 8,
                elimination_z: 3.0,
                look_ratio: 1.0,
                deal_tries: 8,
                max_playout_actions: 10_000,
                tree: G::TREE,
                halving: false,
            },
            halving: None,
            budget: None,
            uniform_deals: false,
            exchange_bound: true,
            playout: G::PLAYOUT,
            anchor_z: G::ANCHOR_Z,
            shortlist: G::SHORTLIST,
            widen_to: 0,
            inference: DealInference::OFF,
            mate: true,
            game: PhantomData,
        }
    }

    /// The search of an analysis ([`super::analysis`]): every legal decision searched
    /// and kept to the end (no shortlist, anchor, forced-win shortcut or elimination),
    /// until the budget or the context's iteration limit (a longer budget narrows every
    /// candidate's interval, so the served limit does not apply).
    pub const fn analysis() -> Self {
        let mut bot = Self::served();
        bot.name = "analysis";
        bot.iterations = None;
        bot.settings.elimination_z = f64::INFINITY;
        bot.halving = Some(false);
        bot.anchor_z = 0.0;
        bot.shortlist = 0;
        bot.mate = false;
        bot
    }

    /// The search's result on `view`, each candidate's paired deficit measured from
    /// `reference` (a legal decision; `None`: from the chosen one): `None` for a phase
    /// the search does not play, `Some(None)` when the budget ended before every
    /// candidate had a playout.
    pub(super) fn search_all(
        &self,
        view: &G::View,
        reference: Option<G::Decision>,
        ctx: &mut DecisionContext<'_>,
    ) -> Option<Option<SearchResult<G::Decision>>> {
        match self.run(view, reference, None, ctx) {
            Ok((result, _)) => Some(Some(result)),
            Err(Unsearched::NoTime(_)) => Some(None),
            Err(Unsearched::OffPhase | Unsearched::Mate(_)) => None,
        }
    }

    /// The arena's `expert`: `iterations` playouts per decision.
    pub const fn with_iterations(iterations: u64) -> Self {
        let mut bot = Self::served();
        bot.iterations = Some(iterations);
        bot
    }

    /// The bot with an arena override applied: `iterations=N`, `budget_ms=N` (a time
    /// budget instead of a playout count; `iterations` then no longer caps it), `z=X`
    /// (elimination threshold, `inf` keeps every candidate), `min_rounds=N`,
    /// `looks=X` (the race looks for eliminations each time its rounds grow by this
    /// factor, at least 1; 1: after every round),
    /// `deal_tries=N`, `uniform=1` (ignore the game's knowledge when dealing),
    /// `bound=0` (deal without the bound an exchange puts on the partner's hand),
    /// `expand_after=N` (playouts through a tree node before it is expanded; 0: no tree
    /// below the candidates), `c=X` (the tree's exploration weight), `prior=X` (the
    /// prior mass on the playout policy's action), `random_playouts=1` (uniformly
    /// random playouts instead of the game's playout rule), `learned=1` (playouts by
    /// the game's trained policy; `learned=0`: by its hand-written rule),
    /// `temperature=X` (the trained policy's softmax temperature in playouts; implies
    /// `learned=1`), `anchor=X` (the standard
    /// errors the search needs to overrule the evaluation bot; 0: never defer to it),
    /// `halving=1` (successive halving over the known work instead of the race; 0: the
    /// race), `infer=N` (deals drawn per round and weighted by the other seats' logged
    /// decisions under the trained policy; 0: none), `beta=X` (the power of that
    /// likelihood), `recent=N` (only the last N logged decisions weigh in; 0: all),
    /// `shortlist=N` (search the evaluation bot's best N; 0: every legal decision),
    /// `widen=N` (a decided race with work left lets the evaluation bot's next
    /// candidates join, up to its best N; at most the shortlist: never),
    /// `mate=0` (search a forced win instead of answering it at once).
    pub fn with_override(mut self, text: &str) -> Result<Self, BotNameError> {
        let (name, value) = crate::bot::parse_override(text)?;
        let expected = |what| BotNameError::override_of(text, OverrideProblem::Expected(what));
        let count = |min: f64| {
            (value >= min && value.fract() == 0.0 && value <= f64::from(u32::MAX))
                .then_some(value as u32)
                .ok_or_else(|| {
                    expected(if min >= 1.0 {
                        "a whole number of at least 1"
                    } else {
                        "a whole number of at least 0"
                    })
                })
        };
        let whole = || count(1.0);
        let flag = || {
            if value == 0.0 || value == 1.0 {
                Ok(value == 1.0)
            } else {
                Err(expected("0 (off) or 1 (on)"))
            }
        };
        let at_least_0 = || {
            (value >= 0.0)
                .then_some(value)
                .ok_or_else(|| expected("a number at least 0"))
        };
        match name {
            "iterations" => self.iterations = Some(u64::from(whole()?)),
            "budget_ms" => {
                self.budget = Some(std::time::Duration::from_millis(u64::from(whole()?)));
                self.iterations = None;
            }
            "z" => self.settings.elimination_z = at_least_0()?,
            "min_rounds" => self.settings.min_rounds = whole()?,
            "looks" if value >= 1.0 => self.settings.look_ratio = value,
            "looks" => return Err(expected("a number at least 1")),
            "halving" => self.halving = Some(flag()?),
            "deal_tries" => self.settings.deal_tries = whole()?,
            "uniform" => self.uniform_deals = flag()?,
            "bound" => self.exchange_bound = flag()?,
            "random_playouts" => {
                if flag()? {
                    self.playout = PlayoutPolicy::Random;
                } else if self.playout == PlayoutPolicy::Random {
                    self.playout = PlayoutPolicy::Rule;
                }
            }
            "learned" => {
                self.playout = if flag()? {
                    PlayoutPolicy::Learned {
                        temperature: match self.playout {
                            PlayoutPolicy::Learned { temperature } => temperature,
                            _ => DEFAULT_TEMPERATURE,
                        },
                    }
                } else {
                    PlayoutPolicy::Rule
                };
            }
            "temperature" => {
                self.playout = PlayoutPolicy::Learned {
                    temperature: at_least_0()?,
                };
            }
            "anchor" => self.anchor_z = at_least_0()?,
            "infer" => self.inference.draws = count(0.0)?,
            "beta" => self.inference.beta = at_least_0()?,
            "recent" => self.inference.recent = count(0.0)? as usize,
            "shortlist" => self.shortlist = count(0.0)? as usize,
            "widen" => self.widen_to = count(0.0)? as usize,
            "mate" => self.mate = flag()?,
            "expand_after" => self.settings.tree.expand_after = count(0.0)?,
            "c" if value.is_finite() => self.settings.tree.exploration = at_least_0()?,
            "prior" if (0.0..=1.0).contains(&value) => self.settings.tree.prior = value,
            "c" => return Err(expected("a finite number at least 0")),
            "prior" => return Err(expected("a number from 0 to 1")),
            _ => {
                return Err(BotNameError::unknown_setting(
                    text,
                    "expert",
                    "iterations, budget_ms, z, min_rounds, looks, halving, deal_tries, \
                     uniform, bound, random_playouts, learned, temperature, anchor, \
                     shortlist, widen, expand_after, c, prior, infer, beta, recent, mate",
                ));
            }
        }
        self.name = "expert-variant";
        Ok(self)
    }
}

impl<G: Learnable> ExpertBot<G> {
    /// The search's decision on `view` when every round plays `deal`, the true hidden
    /// hands, instead of a drawn deal: the arena's bot that is told the hidden hands
    /// (`told:`), which measures how much stronger the search would be if its deals
    /// were right. Never served: a served bot sees only its view.
    pub fn decide_knowing(
        &self,
        view: &G::View,
        deal: &G::Deal,
        ctx: &mut DecisionContext<'_>,
    ) -> G::Decision {
        self.decision(view, Some(deal), ctx)
    }

    /// The decision on `view`, searched on drawn deals or on `known_deal` in every
    /// round, or answered without a search.
    fn decision(
        &self,
        view: &G::View,
        known_deal: Option<&G::Deal>,
        ctx: &mut DecisionContext<'_>,
    ) -> G::Decision {
        match self.run(view, None, known_deal, ctx) {
            Ok((result, _)) => result.decision,
            Err(why) => answer_without_search::<G>(why, view, ctx).0,
        }
    }

    fn run(
        &self,
        view: &G::View,
        reference: Option<G::Decision>,
        known_deal: Option<&G::Deal>,
        ctx: &mut DecisionContext<'_>,
    ) -> Result<Searched<G::Decision>, Unsearched<G::Decision>> {
        if self.mate
            && let Some(win) = G::forced_win(view).filter(|d| G::is_legal(view, d))
        {
            return Err(Unsearched::Mate(win));
        }
        let limit = Limit {
            iterations: ctx.max_iterations().or(self.iterations),
        };
        let own_budget = self.budget.map(|length| ctx.own_budget(length));
        let knowledge = (!self.uniform_deals)
            .then(|| G::deal_weight(view))
            .flatten();
        let settings = Settings {
            deal_tries: if knowledge.is_some() {
                self.settings.deal_tries
            } else {
                1
            },
            halving: self.halving.unwrap_or_else(|| G::halving(view)),
            ..self.settings
        };
        let weight = |deal: &G::Deal| knowledge.as_ref().map_or(1.0, |w| w(deal));
        let temperature = match self.playout {
            PlayoutPolicy::Learned { temperature } => temperature,
            _ => DEFAULT_TEMPERATURE,
        };
        let scratch = RefCell::new(crate::learn::Scratch::new());
        let learned = |position: &G::Position, rng: &mut ChaCha8Rng, _: &mut Vec<G::Decision>| {
            crate::learn::act::<G>(
                G::trained(position),
                position,
                temperature,
                rng,
                &mut scratch.borrow_mut(),
            )
        };
        // The evaluation bot's view of the candidates, taken before the search so that
        // nothing but answering follows the budget: its choice (the anchor) and its
        // ranking (the shortlist).
        // Without a shortlist every legal decision races from the start: nothing is
        // left to join.
        let ranked_wanted = match self.shortlist {
            0 => 0,
            k => k.max(self.widen_to),
        };
        let (evaluated, mut shortlist) = if self.shortlist > 0 || self.anchor_z > 0.0 {
            let (choice, ranked) = G::evaluation_policy().decide_explained(view, ctx);
            let list: Vec<G::Decision> = ranked
                .into_iter()
                .take(ranked_wanted)
                .map(|e| e.action)
                .collect();
            (Some(choice), Some(list))
        } else {
            (None, None)
        };
        // The ranked candidates past the shortlist are the race's challengers.
        let challengers = match shortlist.as_mut() {
            Some(list) if list.len() > self.shortlist => list.split_off(self.shortlist),
            _ => Vec::new(),
        };
        let anchor = evaluated.filter(|_| self.anchor_z > 0.0);
        let inference = self.inference;
        let likelihood_scratch = RefCell::new(crate::learn::Scratch::new());
        let skip = if inference.draws > 1 && inference.recent > 0 {
            // The count of logged decisions is the same under every deal: any one
            // tells it (drawn from a copy of the generator, so the search's draws
            // stay the same).
            let deal = G::deal(view, &mut ctx.rng().clone());
            crate::learn::logged_decisions::<G>(view, &deal).saturating_sub(inference.recent)
        } else {
            0
        };
        let log_weight = |deal: &G::Deal| {
            inference.beta
                * crate::learn::log_likelihood_of_log::<G>(
                    view,
                    deal,
                    skip,
                    &mut likelihood_scratch.borrow_mut(),
                )
        };
        let shortlist = shortlist.filter(|list| !list.is_empty());
        let searched = ctx.within(own_budget, |ctx| {
            search::<G>(
                view,
                G::seat(view),
                ctx,
                &settings,
                limit,
                &Guide {
                    deal: if self.exchange_bound {
                        G::deal
                    } else {
                        G::deal_without_exchange_bound
                    },
                    weight: &weight,
                    playout: match self.playout {
                        PlayoutPolicy::Rule => &G::playout_action,
                        PlayoutPolicy::Random => &random_playout::<G>,
                        PlayoutPolicy::Learned { .. } => &learned,
                    },
                    candidates: shortlist.as_deref(),
                    challengers: &challengers,
                    inference: (inference.draws > 1 && inference.beta > 0.0).then_some(Inference {
                        log_weight: &log_weight,
                        draws: inference.draws,
                    }),
                    known_deal,
                    reference,
                },
            )
        });
        match searched {
            Ok(mut result) => {
                ctx.record_iterations(result.iterations);
                if let Some(anchor) = anchor {
                    let z = self.anchor_z;
                    let stands = result.candidates.iter().any(|c| {
                        c.decision == anchor
                            && c.deficit.is_some_and(|(deficit, se)| deficit <= z * se)
                    });
                    if stands {
                        result.decision = anchor;
                    }
                }
                Ok((result, anchor))
            }
            Err(super::NoResult::NoPosition) => Err(Unsearched::OffPhase),
            Err(super::NoResult::NoTime) => Err(Unsearched::NoTime(evaluated)),
        }
    }
}

/// A uniformly random legal action of the seat to act (the `random_playouts` ablation).
fn random_playout<G: Simulation>(
    position: &G::Position,
    rng: &mut ChaCha8Rng,
    buffer: &mut Vec<G::Decision>,
) -> G::Decision {
    crate::game::random_action::<G>(position, rng, buffer)
        .expect("a playout acts only while the hand runs")
}

/// A search's result, and the evaluation bot's choice when it was the anchor.
type Searched<D> = (SearchResult<D>, Option<D>);

/// Why the answer did not come from the search.
enum Unsearched<D> {
    /// The phase has no position to search: the evaluation bot answers.
    OffPhase,
    /// A forced win ([`Searchable::forced_win`]) needs no search.
    Mate(D),
    /// The budget (or `max_iterations`) ended before the first round: the best answer
    /// already computed, marked as a fallback: the evaluation bot's choice when the
    /// search computed it first (for its anchor or its shortlist), else the easy one.
    NoTime(Option<D>),
}

fn answer_without_search<G: Searchable>(
    why: Unsearched<G::Decision>,
    view: &G::View,
    ctx: &mut DecisionContext<'_>,
) -> (G::Decision, Vec<Explained<G::Decision>>) {
    match why {
        Unsearched::OffPhase => G::evaluation_policy().decide_explained(view, ctx),
        // Listed alone, like a forced move, with the term that says why.
        Unsearched::Mate(win) => (
            win,
            vec![Explained {
                action: win,
                score: 0.0,
                probability: 1.0,
                terms: vec![("mate", 0.0)],
            }],
        ),
        Unsearched::NoTime(Some(evaluated)) => {
            ctx.mark_fallback();
            (evaluated, Vec::new())
        }
        Unsearched::NoTime(None) => {
            ctx.mark_fallback();
            let easy = G::policy(Difficulty::Easy).expect("every game serves easy");
            (easy.decide(view, ctx), Vec::new())
        }
    }
}

impl<G: Learnable> Policy<G> for ExpertBot<G> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        self.decision(view, None, ctx)
    }

    /// The candidates with their playouts and mean outcomes, best first: `score` is the
    /// mean outcome oriented so that higher is better (a place counts negative),
    /// `probability` the candidate's share of the playouts, and the terms `playouts`,
    /// `mean`, `ci95_low`, `ci95_high` (in the game's primary unit) and `in_race` (1
    /// while it was still a contender at the end); where the evaluation bot's choice is
    /// the anchor ([`Searchable::ANCHOR_Z`]), that candidate also has the term `anchor`,
    /// the standard errors another candidate must beat it by to be played instead.
    fn decide_explained(
        &self,
        view: &G::View,
        ctx: &mut DecisionContext<'_>,
    ) -> (G::Decision, Vec<Explained<G::Decision>>) {
        let (
            SearchResult {
                decision,
                candidates,
                ..
            },
            anchor,
        ) = match self.run(view, None, None, ctx) {
            Ok(found) => found,
            Err(why) => return answer_without_search::<G>(why, view, ctx),
        };
        let total: u64 = candidates.iter().map(|c| c.visits).sum();
        let sign = if G::HIGHER_IS_BETTER { 1.0 } else { -1.0 };
        let mut explained: Vec<Explained<G::Decision>> = candidates
            .iter()
            .map(|c| {
                let (lo, hi) = c.ci95.unwrap_or((f64::NAN, f64::NAN));
                let mut terms = vec![
                    ("playouts", c.visits as f64),
                    ("mean", c.mean),
                    ("ci95_low", lo),
                    ("ci95_high", hi),
                    ("in_race", f64::from(u8::from(c.in_race))),
                ];
                if anchor == Some(c.decision) {
                    terms.push(("anchor", self.anchor_z));
                }
                Explained {
                    action: c.decision,
                    score: sign * c.mean,
                    probability: c.visits as f64 / total.max(1) as f64,
                    terms,
                }
            })
            .collect();
        // Best first: contenders before eliminated candidates, then by mean.
        explained.sort_by(|a, b| {
            let race = |e: &Explained<G::Decision>| e.terms[4].1;
            race(b)
                .total_cmp(&race(a))
                .then(b.score.total_cmp(&a.score))
        });
        (decision, explained)
    }
}

/// The EXPERT bot by arena name: `expert` with overrides, e.g. `expert/iterations=400`,
/// or `expert-v1`, the search as it was before it learned (playouts by the game's
/// hand-written rule, no forced-win check), kept to measure the learned search against.
/// `None` for another name, the error for an override that is wrong.
pub fn by_name<G: Learnable>(name: &str) -> Option<Result<ExpertBot<G>, BotNameError>> {
    let mut parts = name.split('/');
    let bot = match parts.next()? {
        "expert" => ExpertBot::with_iterations(G::DEFAULT_ITERATIONS),
        "expert-v1" => {
            let mut bot = ExpertBot::with_iterations(G::RULE_ITERATIONS);
            bot.name = "expert-v1";
            bot.playout = PlayoutPolicy::Rule;
            bot.mate = false;
            bot.anchor_z = G::RULE_ANCHOR_Z;
            bot.shortlist = G::RULE_SHORTLIST;
            bot
        }
        _ => return None,
    };
    Some(parts.try_fold(bot, |bot, part| bot.with_override(part)))
}

impl<G: Game> std::fmt::Debug for ExpertBot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExpertBot")
            .field("game", &G::NAME)
            .field("iterations", &self.iterations)
            .field("settings", &self.settings)
            .field("halving", &self.halving)
            .finish()
    }
}

/// Checks on `views` that the served search plays past the arena's work
/// ([`Searchable::DEFAULT_ITERATIONS`]) while its budget lasts: on a budget of 20 times
/// that work's stop checks (the search checks before each playout), so that a search
/// without a limit plays on where its race is not decided, at least one view plays
/// more.
#[cfg(test)]
pub(crate) fn assert_served_search_plays_past_the_arenas_work<G: Learnable>(views: &[G::View]) {
    use std::sync::atomic::{AtomicU64, Ordering};
    let limit = G::DEFAULT_ITERATIONS;
    let arena = by_name::<G>("expert").unwrap().unwrap();
    assert_eq!(arena.iterations, Some(limit));
    let longest = (1..)
        .zip(views)
        .map(|(seed, view)| {
            let checks = AtomicU64::new(0);
            let stop = || checks.fetch_add(1, Ordering::Relaxed) >= 20 * limit;
            let mut served = DecisionContext::new(seed, &stop);
            ExpertBot::<G>::served().decide(view, &mut served);
            served.work().iterations
        })
        .max()
        .unwrap_or(0);
    assert!(
        longest > limit,
        "no view played past {limit} playouts: {longest}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_parse_and_rename() {
        type G = crate::lexio::Lexio;
        let bot: ExpertBot<G> = ExpertBot::with_iterations(100);
        assert_eq!(bot.iterations, Some(100));
        let bot = bot.with_override("iterations=300").unwrap();
        assert_eq!((bot.iterations, bot.name), (Some(300), "expert-variant"));
        let bot = bot.with_override("z=inf").unwrap();
        assert!(bot.settings.elimination_z.is_infinite());
        assert!(
            ExpertBot::<G>::with_iterations(1)
                .with_override("iterations=0")
                .is_err()
        );
        assert!(
            ExpertBot::<G>::with_iterations(1)
                .with_override("nope=1")
                .is_err()
        );
    }

    /// With playouts by the policy's best action and no tree, a playout of a told
    /// deal is the same whatever the generator draws: a told search answers the same
    /// under every seed, where the same search dealing for itself does not.
    #[test]
    fn a_told_search_plays_the_deal_it_is_told_in_every_round() {
        use crate::lexio::referee::{Round, deal};
        use crate::lexio::{Lexio, tiles::PlayerCount};
        let bot = by_name::<Lexio>("expert/iterations=200/temperature=0/expand_after=0/mate=0")
            .unwrap()
            .unwrap();
        let players = PlayerCount::Four;
        let mut untold_varied = false;
        for seed in 0..6 {
            let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
            for _ in 0..8 {
                let view = round.view().unwrap();
                let truth = *round.position().hands();
                let told: Vec<_> = (0..4)
                    .map(|s| bot.decide_knowing(&view, &truth, &mut DecisionContext::unbounded(s)))
                    .collect();
                assert!(told.iter().all(|d| *d == told[0]), "{told:?} at {view:?}");
                let untold: Vec<_> = (0..4)
                    .map(|s| bot.decide(&view, &mut DecisionContext::unbounded(s)))
                    .collect();
                untold_varied |= untold.iter().any(|d| *d != untold[0]);
                if round.apply(told[0]).unwrap() {
                    break;
                }
            }
        }
        assert!(
            untold_varied,
            "searches that deal for themselves differ by seed"
        );
    }
}
