//! Hints and reviews for the human seat: the analysis of a view (every legal decision
//! with the outcome EXPERT's search expects of it, the service's AnalyzePlay) through
//! the service's own code path ([`Validated`]) or a climbot server's AnalyzePlay RPC.
//!
//! Every analysis does a fixed number of playouts ([`analysis_iterations`]) from the
//! seed the service derives from the view ([`derive_analysis_seed`]), so the same view
//! gets the same analysis, in process and through a server alike (unless the server's
//! own budget ends the search first). A view in a phase the search does not play (a
//! Daifugo exchange, a Great Dalmuti tax return or revolution choice) has no analysis:
//! [`analyze`] answers `None` for it.

use super::error::ApiError;
use super::wire;
use crate::arena::ArenaGame;
use crate::arena::RemoteError;
use crate::arena::remote::Remote;
use crate::bot::DecisionContext;
use crate::pb;
use crate::service::ServiceError;
use crate::service::game::{GameAdapter, Validated, derive_analysis_seed};
use serde_json::{Value, json};

/// The decisions a hint lists: the best (EXPERT's choice) and the next by expected
/// outcome.
pub const HINT_TOP: u32 = 5;

/// An analysis' `max_iterations` is this many times the table's playouts per EXPERT
/// decision: EXPERT's choice in it searches that many, and the search of every legal
/// decision shares as many equally (none is eliminated, as EXPERT does).
const ANALYSIS_FACTOR: u64 = 2;

/// The fewest playouts an analysis gives each legal decision.
const MIN_PLAYOUTS_PER_DECISION: u64 = 8;

/// What the service says of a view it does not analyze (`INVALID_ARGUMENT` on `view`).
const NOT_ANALYZED: &str = "not analyzed";

/// Why a view has no hint, for a person.
pub const NO_HINT: &str = "no hint in this phase: only the play of the cards is analyzed \
     (not a Daifugo exchange, a Great Dalmuti tax return or revolution choice)";

/// The playouts of one analysis of a view with `legal` legal decisions at a table whose
/// EXPERT decisions take `expert_iterations`: [`ANALYSIS_FACTOR`] times that, and at
/// least [`MIN_PLAYOUTS_PER_DECISION`] per legal decision (the wire's limit at most).
pub fn analysis_iterations(expert_iterations: u64, legal: usize) -> u32 {
    let legal = u64::try_from(legal).unwrap_or(u64::MAX);
    let n = expert_iterations
        .saturating_mul(ANALYSIS_FACTOR)
        .max(legal.saturating_mul(MIN_PLAYOUTS_PER_DECISION));
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The analysis of `view` (the best `top` decisions listed, `reviewed` always and
/// reviewed), in process or through `remote`; `None` when the view's phase is not
/// analyzed. The response's `compute_micros` is left 0, so that equal analyses are
/// equal.
pub fn analyze<G: ArenaGame>(
    remote: Option<&Remote>,
    expert_iterations: u64,
    view: &G::View,
    reviewed: Option<&G::Decision>,
    top: Option<u32>,
) -> Result<Option<pb::AnalyzePlayResponse>, ApiError> {
    let seed = derive_analysis_seed(G::KIND, G::fingerprint(view));
    let max_iterations = analysis_iterations(expert_iterations, G::legal_decisions(view).len());
    let reviewed = reviewed.map(|d| pb::Decision {
        game: Some(G::decision_to_wire(d)),
    });
    let failed = |e: &dyn std::fmt::Display| {
        ApiError::unavailable(format!("the analysis failed: {e}: try again"))
    };
    let analysis = match remote {
        Some(remote) => {
            let request = pb::AnalyzePlayRequest {
                view: Some(pb::GameView {
                    game: Some(G::view_to_wire(view)),
                }),
                decision: reviewed,
                // The server's own budget bounds the time.
                budget_ms: None,
                max_iterations: Some(max_iterations),
                seed: Some(seed),
                top,
            };
            match remote.analyze(request) {
                Ok(analysis) => Some(analysis),
                Err(RemoteError::Call { code, message })
                    if code == tonic::Code::InvalidArgument && message.contains(NOT_ANALYZED) =>
                {
                    None
                }
                Err(RemoteError::Call { code, message }) => {
                    return Err(failed(&format!("AnalyzePlay: {code:?}: {message}")));
                }
                Err(e) => return Err(failed(&e)),
            }
        }
        None => {
            let mut ctx =
                DecisionContext::unbounded(seed).with_max_iterations(Some(max_iterations.into()));
            let top = top.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            match Validated::<G>(view.clone()).analyze(reviewed.as_ref(), top, &mut ctx) {
                Ok(mut analysis) => {
                    analysis.seed = seed;
                    Some(analysis)
                }
                Err(ServiceError::InvalidArgument { field, reason })
                    if field == "view" && reason.starts_with(NOT_ANALYZED) =>
                {
                    None
                }
                Err(e) => return Err(failed(&e)),
            }
        }
    };
    Ok(analysis.map(|analysis| pb::AnalyzePlayResponse {
        compute_micros: 0,
        ..analysis
    }))
}

/// A hint in JSON: the analysis in proto3 JSON (without `compute_micros`) with
/// `"analyzed": true`, or `"analyzed": false` and the `reason`; `moves` is the number of
/// moves taken before the view.
pub fn hint_json(analysis: Option<&pb::AnalyzePlayResponse>, moves: usize) -> Value {
    let mut hint = match analysis {
        Some(analysis) => {
            let mut hint = wire::analysis_to_json(analysis);
            if let Some(fields) = hint.as_object_mut() {
                fields.remove("compute_micros");
            }
            hint["analyzed"] = Value::Bool(true);
            hint
        }
        None => json!({"analyzed": false, "reason": NO_HINT, "decisions": []}),
    };
    hint["moves"] = json!(moves);
    hint
}

/// One reviewed decision in JSON: the move's `index` and `decision`; `forced` when it
/// was the only legal action (nothing to review); otherwise `analyzed`, and with an
/// analysis the `review` (category and loss, proto3 JSON), the `best` decision and the
/// `played` one as analyzed (`AnalyzedDecision`s), without one the `reason`.
pub fn review_json(
    index: usize,
    decision: &Value,
    forced: bool,
    analysis: Option<&pb::AnalyzePlayResponse>,
) -> Value {
    let mut entry = json!({
        "index": index,
        "decision": decision,
        "forced": forced,
        "analyzed": analysis.is_some(),
    });
    match analysis {
        Some(analysis) => {
            let json = wire::analysis_to_json(analysis);
            let listed = json["decisions"].as_array().cloned().unwrap_or_default();
            let best = listed.iter().find(|d| d["best"] == true);
            let played = listed.iter().find(|d| d["decision"] == *decision);
            entry["review"] = json["review"].clone();
            entry["best"] = best.cloned().unwrap_or(Value::Null);
            entry["played"] = played.cloned().unwrap_or(Value::Null);
        }
        None if forced => entry["reason"] = json!("forced: the only legal action"),
        None => entry["reason"] = json!(NO_HINT.replacen("no hint", "not analyzed", 1)),
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::{Dalmuti, Phase};
    use crate::game::Game;
    use crate::lexio::Lexio;
    use crate::service::game::WireGame;

    #[test]
    fn an_analysis_has_a_share_for_every_decision() {
        assert_eq!(analysis_iterations(1000, 30), 2000);
        assert_eq!(analysis_iterations(10, 30), 240);
        assert_eq!(analysis_iterations(u64::MAX, 3), u32::MAX);
    }

    /// Every view of a seeded match of `units` deals between easy bots, in order.
    fn views<G: ArenaGame>(
        rules: &G::Rules,
        players: usize,
        units: u32,
        seed: u64,
    ) -> Vec<G::View> {
        use crate::bot::Difficulty;
        use crate::game::Policy;
        use std::sync::Mutex;
        struct Recorder<G: Game>(Mutex<Vec<G::View>>);
        impl<G: ArenaGame> Policy<G> for Recorder<G> {
            fn name(&self) -> &'static str {
                "recorder"
            }
            fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
                if let Ok(mut views) = self.0.lock() {
                    views.push(view.clone());
                }
                G::policy(Difficulty::Easy).unwrap().decide(view, ctx)
            }
        }
        let recorder = Recorder::<G>(Mutex::new(Vec::new()));
        let seats: Vec<&dyn Policy<G>> = (0..players).map(|_| &recorder as _).collect();
        G::play_match(rules, &seats, units, seed).unwrap();
        recorder.0.into_inner().unwrap()
    }

    /// The first view of a seeded Lexio round with a choice to make.
    fn first_view() -> <Lexio as Game>::View {
        views::<Lexio>(&(), 4, 1, 7)
            .into_iter()
            .find(|v| Lexio::legal_decisions(v).len() > 1)
            .unwrap()
    }

    #[test]
    fn a_hint_is_the_same_for_the_same_view_and_lists_the_best_first() {
        let view = first_view();
        let a = analyze::<Lexio>(None, 20, &view, None, Some(HINT_TOP))
            .unwrap()
            .unwrap();
        let b = analyze::<Lexio>(None, 20, &view, None, Some(HINT_TOP))
            .unwrap()
            .unwrap();
        assert_eq!(a, b);
        assert!(a.decisions[0].best);
        assert_eq!(a.decisions.iter().filter(|d| d.best).count(), 1);
        let legal = Lexio::legal_decisions(&view).len();
        assert_eq!(a.decisions.len(), legal.min(HINT_TOP as usize));
        assert_eq!(a.unit, "chips");
        let hint = hint_json(Some(&a), 3);
        assert_eq!(hint["analyzed"], true);
        assert_eq!(hint["moves"], 3);
        assert!(hint.get("compute_micros").is_none());
        assert_eq!(hint["decisions"][0]["best"], true);
    }

    #[test]
    fn a_review_names_the_category_and_the_best() {
        let view = first_view();
        let legal = Lexio::legal_decisions(&view);
        let played = legal.last().unwrap();
        let analysis = analyze::<Lexio>(None, 20, &view, Some(played), Some(1))
            .unwrap()
            .unwrap();
        let decision = wire::decision_to_json(&pb::Decision {
            game: Some(Lexio::decision_to_wire(played)),
        });
        let entry = review_json(4, &decision, false, Some(&analysis));
        assert_eq!(entry["index"], 4);
        assert!(
            entry["review"]["category"]
                .as_str()
                .unwrap()
                .starts_with("REVIEW_CATEGORY_"),
            "{entry}"
        );
        assert_eq!(entry["played"]["decision"], decision);
        assert_eq!(entry["best"]["best"], true);
    }

    #[test]
    fn a_phase_without_analysis_has_no_hint() {
        // The second hand starts with the tax: the Dalmuti returns cards.
        let view = views::<Dalmuti>(&(), 4, 2, 3)
            .into_iter()
            .find(|v| v.phase() != Phase::Play)
            .unwrap();
        assert_eq!(
            analyze::<Dalmuti>(None, 20, &view, None, Some(HINT_TOP)),
            Ok(None)
        );
        let hint = hint_json(None, 0);
        assert_eq!(hint["analyzed"], false);
        assert!(hint["reason"].as_str().unwrap().starts_with("no hint"));
        let entry = review_json(0, &json!({}), false, None);
        assert!(
            entry["reason"]
                .as_str()
                .unwrap()
                .starts_with("not analyzed")
        );
    }
}
