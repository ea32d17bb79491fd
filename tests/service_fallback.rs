//! EXPERT's fallback is the best answer already computed: in The Great Dalmuti, whose
//! search computes HARD's choice first (its anchor), HARD's choice, and its explanation
//! names that anchor; in Daifugo, whose search has no anchor, EASY's choice.
mod common;

use climbot::pb;
use common::*;

/// A SelectPlay request for `view` at `difficulty` with `seed`.
fn request(view: &pb::GameView, difficulty: pb::Difficulty, seed: u64) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        view: Some(view.clone()),
        difficulty: difficulty as i32,
        seed: Some(seed),
        budget_ms: Some(10_000),
        explain: false,
        max_iterations: None,
        strength: None,
    }
}

/// An EXPERT request for `view` with `seed`, stopped after `max_iterations` playouts,
/// asking for its explanation if `explain`.
fn expert_request(
    view: &pb::GameView,
    seed: u64,
    max_iterations: u32,
    explain: bool,
) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        max_iterations: Some(max_iterations),
        explain,
        ..request(view, pb::Difficulty::Expert, seed)
    }
}

/// The mid-game views of the game whose EXPERT anchors on HARD's choice.
fn anchored_views() -> Vec<(String, pb::GameView)> {
    named_views("dalmuti", climbot::loadtest::dalmuti_views)
}

/// Daifugo's mid-game views: its EXPERT searches every legal play, without an anchor.
fn unanchored_views() -> Vec<(String, pb::GameView)> {
    named_views("daifugo", climbot::loadtest::daifugo_views)
}

/// The load test's views of one game for a seed, by kind.
type ViewsOf<E> = fn(u64) -> Result<Vec<(&'static str, pb::GameView)>, E>;

/// The load test's mid-game views of `game` for seeds 1 to 4, named.
fn named_views<E: std::fmt::Debug>(
    game: &str,
    views_of: ViewsOf<E>,
) -> Vec<(String, pb::GameView)> {
    (1..=4)
        .flat_map(|seed| {
            views_of(seed)
                .unwrap()
                .into_iter()
                .map(move |(kind, view)| (format!("{game} {kind} (seed {seed})"), view))
        })
        .collect()
}

#[tokio::test]
async fn a_search_stopped_before_its_first_round_answers_hard_s_choice() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut differs_from_easy = 0;
    for (name, view) in anchored_views() {
        let seed = 7;
        let expert = client
            .select_play(expert_request(&view, seed, 1, false))
            .await
            .unwrap()
            .into_inner();
        let hard = client
            .select_play(request(&view, pb::Difficulty::Hard, seed))
            .await
            .unwrap()
            .into_inner();
        let easy = client
            .select_play(request(&view, pb::Difficulty::Easy, seed))
            .await
            .unwrap()
            .into_inner();
        assert!(
            expert.fallback,
            "{name}: one playout is no answer of its own"
        );
        assert_eq!(expert.decision, hard.decision, "{name}: HARD's choice");
        differs_from_easy += usize::from(hard.decision != easy.decision);
    }
    assert!(
        differs_from_easy > 0,
        "no view tells HARD's choice from EASY's"
    );
    let mut fell_back_to_easy = 0;
    for (name, view) in unanchored_views() {
        let expert = client
            .select_play(expert_request(&view, 7, 1, false))
            .await
            .unwrap()
            .into_inner();
        let easy = client
            .select_play(request(&view, pb::Difficulty::Easy, 7))
            .await
            .unwrap()
            .into_inner();
        if expert.search_iterations == 0 && !expert.fallback {
            // A forced win or a forced move, answered without a search.
            continue;
        }
        assert!(expert.fallback, "{name}");
        assert_eq!(expert.decision, easy.decision, "{name}: EASY's choice");
        fell_back_to_easy += 1;
    }
    assert!(fell_back_to_easy > 0, "no Daifugo view was searched");
}

#[tokio::test]
async fn expert_names_its_anchor_where_it_has_one() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (name, view) in anchored_views() {
        let expert = client
            .select_play(expert_request(&view, 3, 400, true))
            .await
            .unwrap()
            .into_inner();
        let hard = client
            .select_play(request(&view, pb::Difficulty::Hard, 3))
            .await
            .unwrap()
            .into_inner();
        let anchored: Vec<_> = expert
            .explanation
            .iter()
            .filter(|c| c.terms.iter().any(|t| t.name == "anchor" && t.value == 3.0))
            .collect();
        assert_eq!(anchored.len(), 1, "{name}: {:?}", expert.explanation);
        assert_eq!(anchored[0].decision, hard.decision, "{name}");
    }
    // Daifugo's EXPERT has none.
    for (name, view) in unanchored_views() {
        let expert = client
            .select_play(expert_request(&view, 3, 400, true))
            .await
            .unwrap()
            .into_inner();
        assert_names_no_anchor(&name, &expert);
    }
    // Nor has Lexio's.
    let lexio = client
        .select_play(expert_request(&game_view(follow_view()), 3, 400, true))
        .await
        .unwrap()
        .into_inner();
    assert!(!lexio.explanation.is_empty());
    assert_names_no_anchor("lexio follow", &lexio);
}

/// Asserts that no candidate of `answer`'s explanation carries an anchor term.
fn assert_names_no_anchor(name: &str, answer: &pb::SelectPlayResponse) {
    assert!(
        answer
            .explanation
            .iter()
            .all(|c| c.terms.iter().all(|t| t.name != "anchor")),
        "{name}: {:?}",
        answer.explanation
    );
}
