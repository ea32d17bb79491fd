//! Both RPCs answer a valid view; the decision is one of the legal plays.
mod common;

use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use common::*;

/// The legal actions ListLegalPlays gives for `view`.
async fn legal(
    client: &mut BotServiceClient<tonic::transport::Channel>,
    view: &pb::LexioView,
) -> Vec<pb::LexioDecision> {
    let response = client
        .list_legal_plays(pb::ListLegalPlaysRequest {
            view: Some(game_view(view.clone())),
        })
        .await
        .unwrap()
        .into_inner();
    match response.game {
        Some(pb::list_legal_plays_response::Game::Lexio(l)) => l.decisions,
        other => panic!("not a Lexio answer: {other:?}"),
    }
}

fn is_pass(a: &pb::LexioDecision) -> bool {
    matches!(a.decision, Some(pb::lexio_decision::Decision::Pass(_)))
}

#[tokio::test]
async fn select_play_and_list_legal_plays() {
    let server = start(test_config()).await;
    let mut client = server.client().await;

    for view in [lead_view(), follow_view()] {
        let leads = view.table.is_none();
        let actions = legal(&mut client, &view).await;
        assert!(!actions.is_empty());
        assert_eq!(
            actions.iter().any(is_pass),
            !leads,
            "pass listed iff the table is not empty"
        );
        for a in &actions {
            if let Some(pb::lexio_decision::Decision::Play(p)) = &a.decision {
                assert!(!p.tiles.is_empty());
                assert_ne!(p.combination, pb::LexioCombination::Unspecified as i32);
                assert!(
                    p.tiles.iter().all(|t| view.hand.contains(t)),
                    "plays use the hand"
                );
            }
        }

        for difficulty in [pb::Difficulty::Easy, pb::Difficulty::Expert] {
            let mut request = select(view.clone(), difficulty);
            request.budget_ms = Some(50);
            let response = client.select_play(request).await.unwrap().into_inner();
            assert_eq!(response.difficulty, difficulty as i32);
            let decision = response.decision.expect("a decision");
            let Some(pb::decision::Game::Lexio(action)) = decision.game.clone() else {
                panic!("not a Lexio decision: {decision:?}");
            };
            assert!(
                actions.contains(&action),
                "{action:?} is not among the legal plays"
            );
            if leads {
                assert!(!is_pass(&action), "a leader must play");
            }
            assert!(response.compute_micros < 2_000_000);
        }
    }
}

#[tokio::test]
async fn unspecified_difficulty_is_the_server_default() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let response = client
        .select_play(select(lead_view(), pb::Difficulty::Unspecified))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(response.difficulty, pb::Difficulty::Easy as i32);
}

#[tokio::test]
async fn every_lexio_level_answers_legally() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for view in [lead_view(), follow_view()] {
        let legal = legal(&mut client, &view).await;
        for difficulty in [
            pb::Difficulty::Easy,
            pb::Difficulty::Normal,
            pb::Difficulty::Hard,
            pb::Difficulty::Expert,
        ] {
            let response = client
                .select_play(select(view.clone(), difficulty))
                .await
                .unwrap()
                .into_inner();
            assert_eq!(response.difficulty, difficulty as i32);
            let Some(pb::decision::Game::Lexio(action)) = response.decision.and_then(|d| d.game)
            else {
                panic!("not a Lexio decision")
            };
            assert!(
                legal.contains(&action),
                "{difficulty:?}: {action:?} is illegal"
            );
        }
    }
}

#[tokio::test]
async fn every_daifugo_level_answers_legally() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let (_, view) = climbot::loadtest::daifugo_views(1).unwrap().remove(0);
    for difficulty in [
        pb::Difficulty::Easy,
        pb::Difficulty::Normal,
        pb::Difficulty::Hard,
    ] {
        let request = pb::SelectPlayRequest {
            view: Some(view.clone()),
            difficulty: difficulty as i32,
            ..Default::default()
        };
        let response = client.select_play(request).await.unwrap().into_inner();
        assert_eq!(response.difficulty, difficulty as i32);
        assert!(matches!(
            response.decision.and_then(|d| d.game),
            Some(pb::decision::Game::Daifugo(_))
        ));
    }
}
