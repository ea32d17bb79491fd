//! Learned policies: a softmax over a seat's legal decisions, each scored by a linear
//! model over sparse, hand-made features of the position and the decision.
//!
//! A game says what it sees in a decision ([`Learnable::features`]): binary features,
//! each an index into the game's [`FeatureSet`]. A [`LinearPolicy`] adds up one weight
//! per active feature to score a decision, and the policy picks among the legal
//! decisions by a softmax of those scores at a temperature ([`sample`]). The weights are
//! fitted by maximum likelihood on records of a teacher's choices ([`fit`]) and ship
//! with the crate as small text files, read at build time and checked against the
//! feature set at first use ([`LinearPolicy::parse`]): a file written for another
//! feature set is an error, never a silent default.
//!
//! The features of a decision read only what the acting seat may know: its own hand,
//! the table, the public counts and what has been played. The other hands in a
//! full-information position are never read, so the same policy serves a seat's real
//! view, the seats of a search's playouts, and the likelihood of what the other seats
//! were seen to do ([`log_likelihood`]).

pub mod fit;
mod model;

pub use model::{LinearPolicy, WeightsError};

use crate::bot::{BotNameError, OverrideProblem};
use crate::bot::{DecisionContext, Explained, uniform_below};
use crate::game::{Game, Policy};
use crate::search::Searchable;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::sync::{Mutex, OnceLock};

/// One family of features: `size` binary features named `name[0]` .. `name[size-1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// The family's name, unique in its set.
    pub name: &'static str,
    /// How many features the family has.
    pub size: u32,
}

impl Family {
    /// A family of `size` features named `name`.
    pub const fn new(name: &'static str, size: u32) -> Family {
        Family { name, size }
    }
}

/// A game's features: named families laid end to end, so that feature `i` of family
/// `f` has the index `offset(f) + i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    /// The set's name and version (`lexio-v1`), written in every weights file.
    pub name: &'static str,
    /// The families, in index order.
    pub families: &'static [Family],
}

impl FeatureSet {
    /// The number of features.
    pub const fn len(&self) -> usize {
        let mut n = 0;
        let mut i = 0;
        while i < self.families.len() {
            n += self.families[i].size as usize;
            i += 1;
        }
        n
    }

    /// Whether the set has no feature.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of family `family`'s first feature.
    pub const fn offset(&self, family: usize) -> u32 {
        let mut n = 0;
        let mut i = 0;
        while i < family {
            n += self.families[i].size;
            i += 1;
        }
        n
    }

    /// Every family's offset, for a constant table (`N` must be the family count).
    pub const fn offsets<const N: usize>(&self) -> [u32; N] {
        assert!(N == self.families.len(), "one offset per family");
        let mut out = [0; N];
        let mut i = 1;
        while i < N {
            out[i] = out[i - 1] + self.families[i - 1].size;
            i += 1;
        }
        out
    }

    /// The name of every feature, in index order: `family[i]`.
    pub fn feature_names(&self) -> impl Iterator<Item = String> + '_ {
        self.families
            .iter()
            .flat_map(|f| (0..f.size).map(move |i| format!("{}[{i}]", f.name)))
    }

    /// A stable hash of the set's name and layout, written in weights files.
    pub fn fingerprint(&self) -> u64 {
        let mut h = crate::bot::StableHasher::new();
        h.bytes(self.name.as_bytes());
        for f in self.families {
            h.bytes(f.name.as_bytes()).u64(u64::from(f.size));
        }
        h.finish()
    }
}

/// The features of every legal decision at one decision point, flattened: decision
/// `j`'s active features are `ids[ends[j-1]..ends[j]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeatureRows {
    /// Feature indices, row after row.
    pub ids: Vec<u32>,
    /// Where each row ends in `ids`.
    pub ends: Vec<u32>,
}

impl FeatureRows {
    /// Empty rows.
    pub fn new() -> Self {
        FeatureRows::default()
    }

    /// Forgets every row, keeping the memory.
    pub fn clear(&mut self) {
        self.ids.clear();
        self.ends.clear();
    }

    /// Adds feature `id` to the row being written.
    pub fn push(&mut self, id: u32) {
        self.ids.push(id);
    }

    /// Adds feature `i` of family `family` of `set` to the row being written, with the
    /// set's family offsets (`offsets`, from [`FeatureSet::offsets`]).
    pub fn put(&mut self, set: &FeatureSet, offsets: &[u32], family: usize, i: usize) {
        debug_assert!(
            (i as u32) < set.families[family].size,
            "{}[{i}] is out of range",
            set.families[family].name
        );
        self.push(offsets[family] + i as u32);
    }

    /// Ends the row being written.
    pub fn end_row(&mut self) {
        self.ends.push(self.ids.len() as u32);
    }

    /// The number of complete rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no complete row.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Row `j`'s features.
    pub fn row(&self, j: usize) -> &[u32] {
        let start = if j == 0 { 0 } else { self.ends[j - 1] as usize };
        &self.ids[start..self.ends[j] as usize]
    }
}

/// A game whose decisions a [`LinearPolicy`] can score.
pub trait Learnable: Searchable {
    /// The game's features.
    const FEATURES: FeatureSet;

    /// Writes one row of features per decision of `decisions` (legal decisions of the
    /// seat to act in `position`), in order. Reads only what that seat may know.
    fn features(position: &Self::Position, decisions: &[Self::Decision], rows: &mut FeatureRows);

    /// The policy trained for this game and `position`'s rules, shipped with the crate.
    /// Panics if its weights file does not fit the feature set: the service checks
    /// every shipped file at start-up ([`check_shipped`]) and refuses to start then.
    fn trained(position: &Self::Position) -> &'static LinearPolicy;

    /// Every weights file the game ships (one per rule set).
    fn shipped() -> &'static [&'static ShippedWeights];

    /// Replays the current hand's public log from the hand's start on `deal`: the
    /// hidden hands as `deal` places them, with the cards each seat has played since
    /// put back. `visit` sees every logged decision of a seat other than the view's,
    /// with the position it was made in, oldest first. Returns false when the view's
    /// log does not tell the hand from its start (the default: no replay), or when a
    /// logged decision is not legal where the replay reaches it; the likelihood then
    /// ignores the log ([`log_likelihood_of_log`]).
    fn replay_log(
        _view: &Self::View,
        _deal: &Self::Deal,
        _visit: &mut dyn FnMut(&Self::Position, Self::Decision),
    ) -> bool {
        false
    }
}

/// How likely the other seats' logged decisions are, had the hidden cards been as
/// `deal` places them: the sum over the replayed decisions ([`Learnable::replay_log`])
/// of their log-probability under the trained policy, skipping the first `skip` (so
/// that the most recent weigh in alone). 0 when the log cannot be replayed, or when a
/// logged decision is not among the replayed position's legal decisions.
pub fn log_likelihood_of_log<G: Learnable>(
    view: &G::View,
    deal: &G::Deal,
    skip: usize,
    scratch: &mut Scratch<G::Decision>,
) -> f64 {
    let mut total = 0.0;
    let mut seen = 0;
    let mut consistent = true;
    let replayed = G::replay_log(view, deal, &mut |position, decision| {
        seen += 1;
        if seen <= skip || !consistent {
            return;
        }
        score::<G>(G::trained(position), position, scratch);
        match scratch.decisions.iter().position(|&d| d == decision) {
            Some(chosen) => total += log_likelihood(&scratch.scores, chosen),
            None => consistent = false,
        }
    });
    if replayed && consistent { total } else { 0.0 }
}

/// The number of decisions [`Learnable::replay_log`] visits for `view` (the same under
/// every deal): what a caller of [`log_likelihood_of_log`] may skip.
pub fn logged_decisions<G: Learnable>(view: &G::View, deal: &G::Deal) -> usize {
    let mut seen = 0;
    G::replay_log(view, deal, &mut |_, _| seen += 1);
    seen
}

/// A weights file compiled into the crate, read and checked against its feature set
/// at first use.
pub struct ShippedWeights {
    /// The file's path in the crate, for messages.
    pub file: &'static str,
    set: FeatureSet,
    text: &'static str,
    policy: OnceLock<Result<LinearPolicy, WeightsError>>,
}

impl ShippedWeights {
    /// The file at `file` (its `text`, from `include_str!`) for `set`.
    pub const fn new(file: &'static str, set: FeatureSet, text: &'static str) -> Self {
        ShippedWeights {
            file,
            set,
            text,
            policy: OnceLock::new(),
        }
    }

    /// The policy, or why the file does not fit this build's feature set.
    pub fn get(&self) -> Result<&LinearPolicy, ShippedWeightsError> {
        self.policy
            .get_or_init(|| LinearPolicy::parse(self.set, self.text))
            .as_ref()
            .map_err(|error| ShippedWeightsError {
                file: self.file,
                error: error.clone(),
            })
    }

    /// The policy; panics with [`ShippedWeights::get`]'s message if it does not load.
    pub fn policy(&self) -> &LinearPolicy {
        self.get()
            .unwrap_or_else(|e| panic!("a shipped policy does not load: {e}"))
    }
}

/// A weights file the crate ships that does not fit this build's feature set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShippedWeightsError {
    /// The file, as the crate names it.
    pub file: &'static str,
    /// Why it does not fit.
    pub error: WeightsError,
}

impl std::fmt::Display for ShippedWeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.error)
    }
}

impl std::error::Error for ShippedWeightsError {}

/// Checks every weights file the crate ships against its feature set: the first that
/// does not fit, with the reason. The service calls it before it starts serving.
pub fn check_shipped() -> Result<(), ShippedWeightsError> {
    use crate::{daifugo::Daifugo, dalmuti::Dalmuti, lexio::Lexio};
    [Lexio::shipped(), Dalmuti::shipped(), Daifugo::shipped()]
        .into_iter()
        .flatten()
        .try_for_each(|w| w.get().map(|_| ()))
}

/// Scratch space for one policy decision, reused across decisions.
#[derive(Debug, Default)]
pub struct Scratch<D> {
    /// The legal decisions.
    pub decisions: Vec<D>,
    /// Their features.
    pub rows: FeatureRows,
    /// Their scores.
    pub scores: Vec<f64>,
}

impl<D> Scratch<D> {
    /// Empty scratch space.
    pub fn new() -> Self {
        Scratch {
            decisions: Vec::new(),
            rows: FeatureRows::new(),
            scores: Vec::new(),
        }
    }
}

/// Scores the legal decisions of the seat to act in `position` into `scratch`
/// (decisions, features and scores). Returns the number of decisions.
pub fn score<G: Learnable>(
    policy: &LinearPolicy,
    position: &G::Position,
    scratch: &mut Scratch<G::Decision>,
) -> usize {
    G::legal_actions(position, &mut scratch.decisions);
    scratch.rows.clear();
    G::features(position, &scratch.decisions, &mut scratch.rows);
    policy.scores(&scratch.rows, &mut scratch.scores);
    scratch.decisions.len()
}

/// Draws an index by the softmax of `scores` at `temperature` (0: the first of the
/// highest scores). Every draw comes from `rng`; `scores` must not be empty.
pub fn sample(scores: &[f64], temperature: f64, rng: &mut ChaCha8Rng) -> usize {
    assert!(!scores.is_empty(), "a softmax needs a candidate");
    let best = argmax(scores);
    if temperature <= 0.0 || scores.len() == 1 {
        return best;
    }
    let top = scores[best];
    let total: f64 = scores.iter().map(|s| ((s - top) / temperature).exp()).sum();
    let mut u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (j, s) in scores.iter().enumerate() {
        u -= ((s - top) / temperature).exp();
        if u < 0.0 {
            return j;
        }
    }
    // Rounding left a sliver past the last candidate: take the best.
    if total.is_finite() {
        best
    } else {
        uniform_below(rng, scores.len())
    }
}

/// The index of the first highest score.
pub fn argmax(scores: &[f64]) -> usize {
    let mut best = 0;
    for (j, s) in scores.iter().enumerate() {
        if *s > scores[best] {
            best = j;
        }
    }
    best
}

/// The log-probability of decision `chosen` under the softmax of `scores` at
/// temperature 1.
pub fn log_likelihood(scores: &[f64], chosen: usize) -> f64 {
    let top = scores[argmax(scores)];
    let total: f64 = scores.iter().map(|s| (s - top).exp()).sum();
    scores[chosen] - top - total.ln()
}

/// The policy's action for the seat to act in `position`, sampled at `temperature`:
/// the playout policy of a search, and the `policy` bot at temperature 0.
pub fn act<G: Learnable>(
    policy: &LinearPolicy,
    position: &G::Position,
    temperature: f64,
    rng: &mut ChaCha8Rng,
    scratch: &mut Scratch<G::Decision>,
) -> G::Decision {
    let n = score::<G>(policy, position, scratch);
    assert!(n > 0, "a policy acts only while the hand runs");
    scratch.decisions[sample(&scratch.scores, temperature, rng)]
}

/// The `policy` bot: the game's trained policy alone, without search. At temperature
/// 0 it plays the policy's best decision; above, it samples the softmax.
pub struct PolicyBot<G> {
    /// The softmax temperature (0: the best-scored decision).
    pub temperature: f64,
    game: PhantomData<fn() -> G>,
}

impl<G> PolicyBot<G> {
    /// The bot at `temperature`.
    pub const fn new(temperature: f64) -> Self {
        PolicyBot {
            temperature,
            game: PhantomData,
        }
    }
}

impl<G: Learnable> PolicyBot<G> {
    /// The bot by arena name: `policy`, or `policy/temperature=X`.
    pub fn by_name(name: &str) -> Option<Result<Self, BotNameError>> {
        let mut parts = name.split('/');
        if parts.next()? != "policy" {
            return None;
        }
        Some(parts.try_fold(PolicyBot::new(0.0), |mut bot, part| {
            let (key, value) = crate::bot::parse_override(part)?;
            match key {
                "temperature" if value >= 0.0 => bot.temperature = value,
                "temperature" => {
                    return Err(BotNameError::override_of(
                        part,
                        OverrideProblem::Expected("a number at least 0"),
                    ));
                }
                _ => {
                    return Err(BotNameError::unknown_setting(part, "policy", "temperature"));
                }
            }
            Ok(bot)
        }))
    }

    /// The position the view's seat decides in, with the hidden hands drawn at random:
    /// the features read only what the seat knows, so any consistent deal serves.
    fn position(view: &G::View, ctx: &mut DecisionContext<'_>) -> Option<G::Position> {
        let deal = G::deal(view, ctx.rng());
        G::position(view, &deal)
    }
}

impl<G: Learnable> Policy<G> for PolicyBot<G> {
    fn name(&self) -> &'static str {
        "policy"
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        match Self::position(view, ctx) {
            Some(position) => act::<G>(
                G::trained(&position),
                &position,
                self.temperature,
                ctx.rng(),
                &mut Scratch::new(),
            ),
            None => G::evaluation_policy().decide(view, ctx),
        }
    }

    /// Every legal decision with its score (the sum of its features' weights) and its
    /// probability under the softmax at temperature 1, best first.
    fn decide_explained(
        &self,
        view: &G::View,
        ctx: &mut DecisionContext<'_>,
    ) -> (G::Decision, Vec<Explained<G::Decision>>) {
        let Some(position) = Self::position(view, ctx) else {
            return G::evaluation_policy().decide_explained(view, ctx);
        };
        let mut scratch = Scratch::new();
        score::<G>(G::trained(&position), &position, &mut scratch);
        let chosen = sample(&scratch.scores, self.temperature, ctx.rng());
        let top = scratch.scores[argmax(&scratch.scores)];
        let total: f64 = scratch.scores.iter().map(|s| (s - top).exp()).sum();
        let mut explained: Vec<Explained<G::Decision>> = scratch
            .decisions
            .iter()
            .zip(&scratch.scores)
            .map(|(&action, &score)| Explained {
                action,
                score,
                probability: (score - top).exp() / total,
                terms: Vec::new(),
            })
            .collect();
        explained.sort_by(|a, b| b.score.total_cmp(&a.score));
        (scratch.decisions[chosen], explained)
    }
}

/// Adds the decision `chosen`, made in `view`, to `records` as a choice among the
/// view's legal decisions; returns false (adding nothing) for a phase with no position
/// to play on (an exchange, a tax, a revolution choice). The hidden hands are drawn
/// from a generator seeded by the view alone, so recording changes nothing else.
pub fn record<G: Learnable>(
    view: &G::View,
    chosen: &G::Decision,
    records: &mut fit::Records,
) -> bool {
    let mut rng =
        <ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(G::fingerprint(view));
    let deal = G::deal(view, &mut rng);
    let Some(position) = G::position(view, &deal) else {
        return false;
    };
    let mut decisions = Vec::new();
    G::legal_actions(&position, &mut decisions);
    let Some(index) = decisions.iter().position(|d| d == chosen) else {
        debug_assert!(
            false,
            "{chosen:?} is not among the position's legal decisions"
        );
        return false;
    };
    let mut rows = FeatureRows::new();
    G::features(&position, &decisions, &mut rows);
    records.push_choice(&rows, index);
    true
}

/// A bot that plays as its teacher and records each of the teacher's decisions that
/// has a position ([`record`]): how `climbot train` gathers its records.
pub struct Recorder<'a, G: Game> {
    teacher: &'a dyn Policy<G>,
    records: Mutex<fit::Records>,
}

impl<'a, G: Game> Recorder<'a, G> {
    /// A recorder of `teacher`'s decisions.
    pub fn new(teacher: &'a dyn Policy<G>) -> Self {
        Recorder {
            teacher,
            records: Mutex::new(fit::Records::new()),
        }
    }

    /// The records gathered so far.
    pub fn into_records(self) -> fit::Records {
        self.records.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl<G: Learnable> Policy<G> for Recorder<'_, G> {
    fn name(&self) -> &'static str {
        self.teacher.name()
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let decision = self.teacher.decide(view, ctx);
        let mut records = self.records.lock().unwrap_or_else(|e| e.into_inner());
        record::<G>(view, &decision, &mut records);
        decision
    }
}

/// Decisions a feature extraction ranks without touching the heap: more spill over
/// to it, as the legal decisions of a few opening positions do.
const INLINE_DECISIONS: usize = 64;

/// Each decision's place among the decisions of its kind, as [`places_by_kind`] gives it.
pub type Places = SmallVec<[usize; INLINE_DECISIONS]>;

/// For each decision, its place among the decisions of its kind ordered by strength
/// (0: the weakest of its kind; equal strengths by their order in `kinds`), capped at
/// `cap`: the `j`th of `kinds` is decision `j`'s kind and strength, `None` for a
/// decision outside every kind (a pass).
///
/// Every move of a learned playout asks for this, so it works on the stack: an
/// allocation per move was a fifth of the served EXPERT's time in Lexio and Dalmuti.
pub fn places_by_kind(kinds: impl IntoIterator<Item = Option<(usize, u64)>>, cap: usize) -> Places {
    let mut order: SmallVec<[(usize, u64, usize); INLINE_DECISIONS]> = SmallVec::new();
    let mut decisions = 0;
    for (j, kind) in kinds.into_iter().enumerate() {
        decisions = j + 1;
        if let Some((kind, strength)) = kind {
            order.push((kind, strength, j));
        }
    }
    order.sort_unstable();
    let mut places = Places::from_elem(0, decisions);
    let mut first = 0;
    for i in 0..order.len() {
        if order[i].0 != order[first].0 {
            first = i;
        }
        places[order[i].2] = (i - first).min(cap);
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_within_each_kind_from_the_weakest() {
        let kinds = [
            Some((1, 9)),
            None,
            Some((0, 5)),
            Some((1, 3)),
            Some((1, 7)),
            Some((0, 1)),
        ];
        assert_eq!(places_by_kind(kinds, 3)[..], [2, 0, 1, 0, 1, 0]);
        assert_eq!(places_by_kind(kinds, 1)[..], [1, 0, 1, 0, 1, 0]);
        // Equal strengths of a kind take their places in the decisions' order.
        let ties = [Some((0, 4)), Some((0, 4)), None, Some((0, 4)), Some((0, 2))];
        assert_eq!(places_by_kind(ties, 3)[..], [1, 2, 0, 3, 0]);
        // More decisions than the stack holds.
        let many = (0..200u64).rev().map(|s| Some((0, s)));
        let places = places_by_kind(many, 300);
        assert_eq!(places.len(), 200);
        assert!(places.iter().rev().copied().eq(0..200));
    }

    #[test]
    fn a_softmax_at_temperature_zero_is_the_first_best_and_sampling_follows_the_scores() {
        use rand_chacha::rand_core::SeedableRng;
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        assert_eq!(sample(&[0.5, 2.0, 2.0], 0.0, &mut rng), 1);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[sample(&[0.0, 2f64.ln(), 0.0], 1.0, &mut rng)] += 1;
        }
        // Probabilities 1/4, 1/2, 1/4.
        assert!((7_000..8_000).contains(&counts[0]), "{counts:?}");
        assert!((14_300..15_700).contains(&counts[1]), "{counts:?}");
        let ll = log_likelihood(&[0.0, 2f64.ln(), 0.0], 1);
        assert!((ll - 0.5f64.ln()).abs() < 1e-12);
    }
}
