//! EXPERT's fallback is the best answer already computed: in The Great Dalmuti and
//! Daifugo, whose search computes HARD's choice first (its anchor), HARD's choice; and
//! its explanation names that anchor.
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

/// The mid-game views of the games whose EXPERT anchors on HARD's choice.
fn anchored_views() -> Vec<(String, pb::GameView)> {
    let mut views = Vec::new();
    for seed in 1..=4 {
        for (game, list) in [
            ("dalmuti", climbot::loadtest::dalmuti_views(seed).unwrap()),
            ("daifugo", climbot::loadtest::daifugo_views(seed).unwrap()),
        ] {
            views.extend(
                list.into_iter()
                    .map(|(kind, view)| (format!("{game} {kind} (seed {seed})"), view)),
            );
        }
    }
    views
}

#[tokio::test]
async fn a_search_stopped_before_its_first_round_answers_hard_s_choice() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut differs_from_easy = 0;
    for (name, view) in anchored_views() {
        let seed = 7;
        let mut expert = request(&view, pb::Difficulty::Expert, seed);
        expert.max_iterations = Some(1);
        let expert = client.select_play(expert).await.unwrap().into_inner();
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
}

#[tokio::test]
async fn expert_names_its_anchor_where_it_has_one() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (name, view) in anchored_views() {
        let mut expert = request(&view, pb::Difficulty::Expert, 3);
        expert.max_iterations = Some(400);
        expert.explain = true;
        let expert = client.select_play(expert).await.unwrap().into_inner();
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
    // Lexio's EXPERT has no anchor.
    let mut lexio = select(follow_view(), pb::Difficulty::Expert);
    lexio.max_iterations = Some(400);
    lexio.explain = true;
    let lexio = client.select_play(lexio).await.unwrap().into_inner();
    assert!(!lexio.explanation.is_empty());
    assert!(
        lexio
            .explanation
            .iter()
            .all(|c| c.terms.iter().all(|t| t.name != "anchor")),
        "{:?}",
        lexio.explanation
    );
}
