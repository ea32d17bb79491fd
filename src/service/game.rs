//! What the service needs from a game: its wire codec ([`WireGame`], one per game) and,
//! written once over it, the validated view behind the handler's [`GameAdapter`]
//! (fingerprint, decide, list legal plays, analyze).
//!
//! Adding a game = its domain module (implementing [`crate::game::Game`]), its wire
//! codec implementing [`WireGame`], and one arm in [`decode`] and [`game_of`].

use crate::bot::{DecisionContext, Difficulty, Explained, StableHasher};
use crate::daifugo::Daifugo;
use crate::dalmuti::Dalmuti;
use crate::game::{Game, GameKind, Policy};
use crate::learn::Learnable;
use crate::lexio::Lexio;
use crate::pb;
use crate::search::analysis::{self, AnalysisError, Category, Reviewable};
use crate::service::dial::DialGame;
use crate::service::error::ServiceError;
use crate::service::{daifugo, dalmuti, lexio};

/// A validated view of one game, ready for its policies.
pub trait GameAdapter: Send + Sync + 'static {
    /// Which game this is.
    fn game(&self) -> GameKind;
    /// The domain's stable fingerprint of the normalized view.
    fn fingerprint(&self) -> u64;
    /// Whether the game has a bot at this level.
    fn supports(&self, difficulty: Difficulty) -> bool;
    /// The setting of the game's strength dial nearest `strength` (a finite number at
    /// least 0, checked by [`strength_from_wire`]); INTERNAL if the game's dial table
    /// does not parse (the server checks them as it starts).
    fn dial(&self, strength: f64) -> Result<DialChoice, ServiceError>;
    /// The bot's decision, with the scored candidates when `explain` is set (`None` if
    /// the level is missing; callers check [`GameAdapter::supports`] first).
    fn decide(&self, level: Level, explain: bool, ctx: &mut DecisionContext<'_>) -> Option<Answer>;
    /// Every legal action.
    fn legal_plays(&self) -> pb::ListLegalPlaysResponse;
    /// Checks a decision to review: INVALID_ARGUMENT naming `decision` unless it is a
    /// decision of this game, legal in the view.
    fn check_decision(&self, decision: &pb::Decision) -> Result<(), ServiceError>;
    /// The analysis of every legal decision (EXPERT's search, none eliminated), the best
    /// `top` listed (every one when `None`) and `reviewed` always; the response's seed
    /// and compute time are left for the caller. `reviewed` is checked as by
    /// [`GameAdapter::check_decision`].
    fn analyze(
        &self,
        reviewed: Option<&pb::Decision>,
        top: Option<usize>,
        ctx: &mut DecisionContext<'_>,
    ) -> Result<pb::AnalyzePlayResponse, ServiceError>;
}

/// Each of a request's `items` read by `read` (given its index, for the field's name)
/// into a vector of exactly their number, or the first error. (`collect` into a
/// `Result` cannot know the length and grew the vector of every list of a view a few
/// times over: load test.)
pub(crate) fn read_each<T, U>(
    items: &[T],
    mut read: impl FnMut(usize, &T) -> Result<U, ServiceError>,
) -> Result<Vec<U>, ServiceError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(read(i, item)?);
    }
    Ok(out)
}

/// A game's wire codec: its case of each `oneof` in the API. A game the service serves
/// is searched by EXPERT and analyzed by AnalyzePlay.
pub trait WireGame: Game + Learnable + Reviewable + DialGame {
    /// The game's identity in the service (seeds, metrics, logs).
    const KIND: GameKind;
    /// A validated view back on the wire (for clients written in Rust: the arena's
    /// `--via` and the load-test payloads). Decoding the result gives the same view.
    fn view_to_wire(view: &Self::View) -> pb::game_view::Game;
    /// A domain decision on the wire.
    fn decision_to_wire(decision: &Self::Decision) -> pb::decision::Game;
    /// A wire decision read back against the view it answers: `None` unless it is this
    /// game's, well-formed and legal there.
    fn decision_from_wire(
        view: &Self::View,
        decision: &pb::decision::Game,
    ) -> Option<Self::Decision>;
    /// The legal decisions of a view on the wire.
    fn legal_decisions_to_wire(decisions: &[Self::Decision])
    -> pb::list_legal_plays_response::Game;
    /// The proto's name (under `view.<game>.`) of a field the view constructor names
    /// in a [`crate::view_error::ViewError`]; the same name unless the codec renames it.
    fn wire_field(field: &str) -> &str {
        field
    }
}

/// A validated view of game `G`, ready for its policies.
pub struct Validated<G: Game>(pub G::View);

impl<G: WireGame> GameAdapter for Validated<G> {
    fn game(&self) -> GameKind {
        G::KIND
    }

    fn fingerprint(&self) -> u64 {
        G::fingerprint(&self.0)
    }

    fn supports(&self, difficulty: Difficulty) -> bool {
        G::policy(difficulty).is_some()
    }

    fn dial(&self, strength: f64) -> Result<DialChoice, ServiceError> {
        dial_choice::<G>(strength)
    }

    fn decide(&self, level: Level, explain: bool, ctx: &mut DecisionContext<'_>) -> Option<Answer> {
        let policy: &dyn Policy<G> = match level {
            Level::Served(difficulty) => G::policy(difficulty)?,
            Level::Dial(choice) => G::dial()
                .as_ref()
                .ok()?
                .settings()
                .get(choice.index)?
                .policy(),
        };
        let difficulty = level.difficulty();
        let to_wire = |d: &G::Decision| pb::Decision {
            game: Some(G::decision_to_wire(d)),
        };
        if explain {
            let (chosen, mut explained) = policy.decide_explained(&self.0, ctx);
            if difficulty != Difficulty::Easy && !explained.iter().any(|e| e.action == chosen) {
                // A level that explains always lists its choice: a forced move (one
                // legal action) and an answer without scoring (a fallback) are listed
                // alone, with the term that says why.
                let why = if G::legal_decisions(&self.0).len() == 1 {
                    "forced"
                } else {
                    "fallback"
                };
                explained.push(unscored(chosen, why, explained.is_empty()));
            }
            Some(answer(chosen, explained, to_wire))
        } else {
            Some(answer(policy.decide(&self.0, ctx), Vec::new(), to_wire))
        }
    }

    fn legal_plays(&self) -> pb::ListLegalPlaysResponse {
        pb::ListLegalPlaysResponse {
            game: Some(G::legal_decisions_to_wire(&G::legal_decisions(&self.0))),
        }
    }

    fn check_decision(&self, decision: &pb::Decision) -> Result<(), ServiceError> {
        decision_from_wire::<G>(&self.0, decision).map(|_| ())
    }

    fn analyze(
        &self,
        reviewed: Option<&pb::Decision>,
        top: Option<usize>,
        ctx: &mut DecisionContext<'_>,
    ) -> Result<pb::AnalyzePlayResponse, ServiceError> {
        let reviewed = reviewed
            .map(|d| decision_from_wire::<G>(&self.0, d))
            .transpose()?;
        let analysis =
            analysis::analyze::<G>(&self.0, reviewed.as_ref(), ctx).map_err(|e| match e {
                AnalysisError::Illegal => illegal_decision(),
                AnalysisError::NotSearched => ServiceError::invalid(
                    "view",
                    "not analyzed: the view is in a phase the search does not play (a \
                     Daifugo exchange, a Great Dalmuti tax return or revolution choice); \
                     only the play of the cards is analyzed",
                ),
                AnalysisError::NoTime => {
                    let legal = G::legal_decisions(&self.0).len() as u64;
                    if ctx.max_iterations().is_some_and(|max| max < legal) {
                        ServiceError::invalid(
                            "max_iterations",
                            format!(
                                "fewer than the {legal} legal decisions: the analysis needs \
                                 a playout of each"
                            ),
                        )
                    } else {
                        ServiceError::DeadlineExceeded(
                            "the budget ended before every legal decision had a playout",
                        )
                    }
                }
            })?;
        let to_wire = |d: &G::Decision| pb::Decision {
            game: Some(G::decision_to_wire(d)),
        };
        let nan_pair = |p: Option<(f64, f64)>| p.unwrap_or((f64::NAN, f64::NAN));
        let keep = top.unwrap_or(usize::MAX);
        let decisions = analysis
            .assessments
            .iter()
            .enumerate()
            .filter(|(rank, a)| *rank < keep || reviewed.as_ref() == Some(&a.decision))
            .map(|(_, a)| {
                let (ci95_low, ci95_high) = nan_pair(a.ci95);
                let (loss_ci95_low, loss_ci95_high) = nan_pair(a.loss.1);
                pb::AnalyzedDecision {
                    decision: Some(to_wire(&a.decision)),
                    expected: a.expected,
                    ci95_low,
                    ci95_high,
                    playouts: a.playouts,
                    best: a.best,
                    loss: a.loss.0,
                    loss_ci95_low,
                    loss_ci95_high,
                }
            })
            .collect();
        let review = analysis.review.map(|(d, category)| pb::DecisionReview {
            decision: Some(to_wire(&d)),
            category: category_to_wire(category) as i32,
            loss: analysis
                .assessments
                .iter()
                .find(|a| a.decision == d)
                .map_or(f64::NAN, |a| a.loss.0),
        });
        Ok(pb::AnalyzePlayResponse {
            decisions,
            review,
            seed: 0,
            search_iterations: analysis.iterations,
            compute_micros: 0,
            unit: analysis_unit(G::KIND).to_string(),
            higher_is_better: G::HIGHER_IS_BETTER,
        })
    }
}

/// The unit of an analysis' outcomes and losses (`AnalyzePlayResponse.unit`): `chips`
/// won in the round (Lexio, higher is better) or the finishing `place` (The Great
/// Dalmuti and Daifugo, lower is better).
pub fn analysis_unit(game: GameKind) -> &'static str {
    match game {
        GameKind::Lexio => "chips",
        GameKind::Dalmuti | GameKind::Daifugo => "place",
    }
}

/// A decision to review read against its view: INVALID_ARGUMENT naming `decision`
/// unless it is game `G`'s and legal there.
fn decision_from_wire<G: WireGame>(
    view: &G::View,
    decision: &pb::Decision,
) -> Result<G::Decision, ServiceError> {
    let Some(game) = &decision.game else {
        return Err(ServiceError::invalid(
            "decision",
            "no game set: fill the case of the view's game",
        ));
    };
    let of = match game {
        pb::decision::Game::Lexio(_) => GameKind::Lexio,
        pb::decision::Game::Dalmuti(_) => GameKind::Dalmuti,
        pb::decision::Game::Daifugo(_) => GameKind::Daifugo,
    };
    if of != G::KIND {
        return Err(ServiceError::invalid(
            "decision",
            format!("a {} decision for a {} view", of.name(), G::KIND.name()),
        ));
    }
    G::decision_from_wire(view, game).ok_or_else(illegal_decision)
}

fn illegal_decision() -> ServiceError {
    ServiceError::invalid(
        "decision",
        "not a legal decision in the view (ListLegalPlays lists them)",
    )
}

/// A review category on the wire.
pub fn category_to_wire(category: Category) -> pb::ReviewCategory {
    match category {
        Category::Best => pb::ReviewCategory::Best,
        Category::Good => pb::ReviewCategory::Good,
        Category::Inaccuracy => pb::ReviewCategory::Inaccuracy,
        Category::Mistake => pb::ReviewCategory::Mistake,
        Category::Blunder => pb::ReviewCategory::Blunder,
    }
}

/// The candidate for a choice that was not scored: score 0 with one term `why` of 0
/// (the terms sum to the score), picked with certainty when it is the only candidate.
fn unscored<A>(action: A, why: &'static str, alone: bool) -> Explained<A> {
    Explained {
        action,
        score: 0.0,
        probability: if alone { 1.0 } else { 0.0 },
        terms: vec![(why, 0.0)],
    }
}

/// A decision on the wire, with its explanation (empty unless asked for).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The decision.
    pub decision: pb::Decision,
    /// The best scored candidates, best first.
    pub explanation: Vec<pb::ExplainedCandidate>,
}

/// How many candidates an explanation lists at most.
pub const EXPLAIN_TOP: usize = 10;

/// Puts a domain decision and its scored candidates on the wire: at most
/// [`EXPLAIN_TOP`] candidates, the chosen one always among them.
pub fn answer<A: PartialEq>(
    chosen: A,
    explained: Vec<Explained<A>>,
    to_wire: impl Fn(&A) -> pb::Decision,
) -> Answer {
    let chosen_rank = explained.iter().position(|e| e.action == chosen);
    let mut keep: Vec<usize> = (0..explained.len().min(EXPLAIN_TOP)).collect();
    if let Some(rank) = chosen_rank.filter(|&r| r >= EXPLAIN_TOP) {
        // The chosen candidate replaces the last of the top ones.
        keep.pop();
        keep.push(rank);
    }
    let explanation = keep
        .into_iter()
        .map(|rank| {
            let e = &explained[rank];
            pb::ExplainedCandidate {
                decision: Some(to_wire(&e.action)),
                score: e.score,
                probability: e.probability,
                terms: e
                    .terms
                    .iter()
                    .map(|&(name, value)| pb::ScoreTerm {
                        name: name.to_string(),
                        value,
                    })
                    .collect(),
                chosen: Some(rank) == chosen_rank,
            }
        })
        .collect();
    Answer {
        decision: to_wire(&chosen),
        explanation,
    }
}

/// A request's view as it came off the wire.
#[derive(Debug)]
pub enum WireView {
    /// The `view` field as prost decoded it.
    Proto(Option<pb::GameView>),
    /// A Lexio view read by SelectPlay's fast lane (`service::fast_lane`).
    Lexio(crate::lexio::ViewInput),
    /// A Daifugo view read by SelectPlay's fast lane.
    Daifugo(Box<crate::daifugo::view::DaifugoViewInput>),
}

/// The game a request's view is for (known even when the view is invalid).
pub fn game_of(view: &WireView) -> Option<GameKind> {
    match view {
        WireView::Lexio(_) => Some(GameKind::Lexio),
        WireView::Daifugo(_) => Some(GameKind::Daifugo),
        WireView::Proto(view) => match view.as_ref()?.game.as_ref()? {
            pb::game_view::Game::Lexio(_) => Some(GameKind::Lexio),
            pb::game_view::Game::Dalmuti(_) => Some(GameKind::Dalmuti),
            pb::game_view::Game::Daifugo(_) => Some(GameKind::Daifugo),
        },
    }
}

/// Decodes and validates the request's `view` field.
pub fn decode(view: WireView) -> Result<Box<dyn GameAdapter>, ServiceError> {
    let view = match view {
        WireView::Lexio(input) => {
            return Ok(Box::new(Validated::<Lexio>(lexio::validate(input)?)));
        }
        WireView::Daifugo(input) => {
            return Ok(Box::new(Validated::<Daifugo>(daifugo::validate(*input)?)));
        }
        WireView::Proto(view) => view.ok_or_else(|| ServiceError::invalid("view", "required"))?,
    };
    match view.game {
        Some(pb::game_view::Game::Lexio(v)) => Ok(Box::new(Validated::<Lexio>(lexio::decode(v)?))),
        Some(pb::game_view::Game::Dalmuti(v)) => {
            Ok(Box::new(Validated::<Dalmuti>(dalmuti::decode(v)?)))
        }
        Some(pb::game_view::Game::Daifugo(v)) => {
            Ok(Box::new(Validated::<Daifugo>(daifugo::decode(v)?)))
        }
        None => Err(ServiceError::invalid(
            "view",
            "no game set: fill one case of the oneof (view.lexio, view.dalmuti or view.daifugo)",
        )),
    }
}

/// The seed derived for a view when the request has none:
///
/// ```text
/// StableHasher::new()
///     .bytes(game tag)          // b"lexio", b"daifugo"
///     .u64(view.fingerprint())  // the game's hash of its normalized view
///     .u64(difficulty number)   // the proto enum value: EASY=1 .. EXPERT=4
///     .finish()
/// ```
pub fn derive_seed(game: GameKind, fingerprint: u64, difficulty: Difficulty) -> u64 {
    StableHasher::new()
        .bytes(game.name().as_bytes())
        .u64(fingerprint)
        .u64(difficulty_to_wire(difficulty) as u64)
        .finish()
}

/// The seed derived for a SelectPlay view when the request has none, for what plays
/// it: a level's is [`derive_seed`]'s; a dial setting's is its base level's when the
/// setting is the plain level (`hard`), else the bot's name is mixed in after it:
///
/// ```text
/// StableHasher::new()
///     .bytes(game tag)          // b"lexio", b"daifugo"
///     .u64(view.fingerprint())
///     .u64(difficulty number)   // the setting's base level: EASY=1 .. EXPERT=4
///     .bytes(b"dial:")
///     .bytes(bot name)          // b"normal/temperature=2"
///     .finish()
/// ```
pub fn derive_level_seed(game: GameKind, fingerprint: u64, level: Level) -> u64 {
    match level {
        Level::Served(difficulty) => derive_seed(game, fingerprint, difficulty),
        Level::Dial(choice) if choice.bot == choice.base.name() => {
            derive_seed(game, fingerprint, choice.base)
        }
        Level::Dial(choice) => StableHasher::new()
            .bytes(game.name().as_bytes())
            .u64(fingerprint)
            .u64(difficulty_to_wire(choice.base) as u64)
            .bytes(b"dial:")
            .bytes(choice.bot.as_bytes())
            .finish(),
    }
}

/// The setting of `G`'s strength dial nearest `strength` (see [`GameAdapter::dial`]):
/// it depends on the game alone, not on a view.
pub fn dial_choice<G: WireGame>(strength: f64) -> Result<DialChoice, ServiceError> {
    let table = G::dial().as_ref().map_err(|error| {
        ServiceError::Internal(format!(
            "the strength dial of {} does not parse: {error}",
            G::KIND.name()
        ))
    })?;
    let index = table.nearest_index(strength);
    let setting = &table.settings()[index];
    Ok(DialChoice {
        index,
        rating: setting.rating(),
        base: setting.base(),
        bot: setting.bot(),
    })
}

/// What plays a SelectPlay request: a level, or a setting of the strength dial.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Level {
    /// The level the request asked for (or the server's default).
    Served(Difficulty),
    /// The dial's setting nearest the request's `strength`.
    Dial(DialChoice),
}

impl Level {
    /// The level served: the one asked for, or the one the dial's setting is built
    /// from. Decision slots, budgets, metrics and the response follow it.
    pub fn difficulty(self) -> Difficulty {
        match self {
            Level::Served(difficulty) => difficulty,
            Level::Dial(choice) => choice.base,
        }
    }
}

/// The setting of a game's strength dial that serves a request.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DialChoice {
    /// Its index in the game's table, weakest first.
    pub index: usize,
    /// Its measured rating on the game's ladder scale (random = 0).
    pub rating: f64,
    /// The level its bot is built from.
    pub base: Difficulty,
    /// Its bot's arena name (`hard`, `normal/temperature=2`).
    pub bot: &'static str,
}

/// The seed derived for an AnalyzePlay view when the request has none: as
/// [`derive_seed`], with the tag `b"analyze"` in place of the difficulty, so that an
/// analysis and a SelectPlay of the same view draw different deals:
///
/// ```text
/// StableHasher::new()
///     .bytes(game tag)          // b"lexio", b"daifugo"
///     .u64(view.fingerprint())
///     .bytes(b"analyze")
///     .finish()
/// ```
pub fn derive_analysis_seed(game: GameKind, fingerprint: u64) -> u64 {
    StableHasher::new()
        .bytes(game.name().as_bytes())
        .u64(fingerprint)
        .bytes(b"analyze")
        .finish()
}

/// A difficulty on the wire.
pub fn difficulty_to_wire(d: Difficulty) -> pb::Difficulty {
    match d {
        Difficulty::Easy => pb::Difficulty::Easy,
        Difficulty::Normal => pb::Difficulty::Normal,
        Difficulty::Hard => pb::Difficulty::Hard,
        Difficulty::Expert => pb::Difficulty::Expert,
    }
}

/// A request's `strength`, checked: `None` when absent; INVALID_ARGUMENT naming
/// `strength` when it is not a finite number at least 0, or when `difficulty` (the
/// request's wire value) is set too.
pub fn strength_from_wire(
    strength: Option<f64>,
    difficulty: i32,
) -> Result<Option<f64>, ServiceError> {
    let Some(strength) = strength else {
        return Ok(None);
    };
    if !strength.is_finite() || strength < 0.0 {
        return Err(ServiceError::invalid(
            "strength",
            format!(
                "{strength} is not a strength: expected a finite number at least 0 \
                 (the game's ladder rating, random = 0)"
            ),
        ));
    }
    if difficulty != pb::Difficulty::Unspecified as i32 {
        return Err(ServiceError::invalid(
            "strength",
            format!(
                "set together with difficulty {difficulty}: send one of them (difficulty \
                 DIFFICULTY_UNSPECIFIED with a strength)"
            ),
        ));
    }
    Ok(Some(strength))
}

/// The difficulty a request asks for (`UNSPECIFIED` = `default`).
pub fn difficulty_from_wire(value: i32, default: Difficulty) -> Result<Difficulty, ServiceError> {
    match pb::Difficulty::try_from(value) {
        Ok(pb::Difficulty::Unspecified) => Ok(default),
        Ok(pb::Difficulty::Easy) => Ok(Difficulty::Easy),
        Ok(pb::Difficulty::Normal) => Ok(Difficulty::Normal),
        Ok(pb::Difficulty::Hard) => Ok(Difficulty::Hard),
        Ok(pb::Difficulty::Expert) => Ok(Difficulty::Expert),
        Err(_) => Err(ServiceError::invalid(
            "difficulty",
            format!("unknown value {value} (expected 0..=4)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(n: usize) -> Vec<Explained<u32>> {
        (0..n as u32)
            .map(|i| Explained {
                action: i,
                score: -f64::from(i),
                probability: 0.0,
                terms: vec![("only", -f64::from(i))],
            })
            .collect()
    }

    /// Every candidate looks the same on the wire; the scores tell them apart.
    fn wire(_: &u32) -> pb::Decision {
        pb::Decision {
            game: Some(pb::decision::Game::Lexio(pb::LexioDecision {
                decision: Some(pb::lexio_decision::Decision::Pass(pb::LexioPass {})),
            })),
        }
    }

    #[test]
    fn a_dial_setting_seeds_as_its_level_when_plain_and_by_its_name_otherwise() {
        let choice = |bot: &'static str, base| {
            Level::Dial(DialChoice {
                index: 0,
                rating: 700.0,
                base,
                bot,
            })
        };
        let (game, fingerprint) = (GameKind::Dalmuti, 0x1234_5678);
        let seed = |level| derive_level_seed(game, fingerprint, level);
        for level in Difficulty::ALL {
            let served = derive_seed(game, fingerprint, level);
            assert_eq!(seed(Level::Served(level)), served);
            assert_eq!(seed(choice(level.name(), level)), served);
        }
        let variant = seed(choice("normal/temperature=2", Difficulty::Normal));
        assert_ne!(variant, derive_seed(game, fingerprint, Difficulty::Normal));
        assert_ne!(
            variant,
            seed(choice("normal/temperature=3", Difficulty::Normal))
        );
        assert_eq!(
            variant,
            StableHasher::new()
                .bytes(b"dalmuti")
                .u64(fingerprint)
                .u64(2)
                .bytes(b"dial:normal/temperature=2")
                .finish(),
            "the formula docs/api.md gives"
        );
    }

    #[test]
    fn a_strength_is_a_finite_number_at_least_0_without_a_difficulty() {
        assert_eq!(strength_from_wire(None, 3), Ok(None));
        assert_eq!(strength_from_wire(Some(0.0), 0), Ok(Some(0.0)));
        assert_eq!(strength_from_wire(Some(1e6), 0), Ok(Some(1e6)));
        for (strength, difficulty) in [
            (f64::NAN, 0),
            (f64::INFINITY, 0),
            (-0.5, 0),
            (800.0, 1),
            (800.0, 99),
        ] {
            match strength_from_wire(Some(strength), difficulty) {
                Err(ServiceError::InvalidArgument { field, .. }) => assert_eq!(field, "strength"),
                other => panic!("{strength} with {difficulty}: {other:?}"),
            }
        }
    }

    #[test]
    fn an_explanation_keeps_the_top_ten_and_always_the_chosen_one() {
        let short = answer(2, candidates(4), wire);
        assert_eq!(short.explanation.len(), 4);
        assert_eq!(
            short.explanation.iter().filter(|c| c.chosen).count(),
            1,
            "one chosen"
        );
        assert!(short.explanation[2].chosen);

        let long = answer(14, candidates(20), wire);
        assert_eq!(long.explanation.len(), EXPLAIN_TOP);
        let last = long.explanation.last().unwrap();
        assert!(last.chosen && last.score == -14.0, "{last:?}");
        assert!(
            long.explanation[..EXPLAIN_TOP - 1]
                .iter()
                .all(|c| !c.chosen)
        );
        assert!(
            long.explanation
                .windows(2)
                .all(|w| w[0].score >= w[1].score)
        );

        let top = answer(3, candidates(20), wire);
        assert_eq!(top.explanation.len(), EXPLAIN_TOP);
        assert!(top.explanation[3].chosen);
        assert!(answer(0, Vec::new(), wire).explanation.is_empty());
    }
}
