//! `explain = true` lists the scored candidates with their terms, and never changes the
//! decision; levels that score nothing answer with an empty list.
mod common;

use climbot::pb;
use common::*;

#[tokio::test]
async fn hard_explains_its_decision_without_changing_it() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for view in [lead_view(), follow_view()] {
        let mut request = select(view.clone(), pb::Difficulty::Hard);
        request.seed = Some(42);
        let plain = client
            .select_play(request.clone())
            .await
            .unwrap()
            .into_inner();
        assert!(plain.explanation.is_empty(), "explanation only when asked");

        request.explain = true;
        let explained = client.select_play(request).await.unwrap().into_inner();
        assert_eq!(
            explained.decision, plain.decision,
            "explaining changed the play"
        );
        let list = &explained.explanation;
        assert!(
            !list.is_empty() && list.len() <= 10,
            "{} candidates",
            list.len()
        );
        let chosen: Vec<_> = list.iter().filter(|c| c.chosen).collect();
        assert_eq!(chosen.len(), 1, "exactly one chosen candidate");
        assert_eq!(chosen[0].decision, explained.decision);
        assert!(
            list.windows(2).all(|w| w[0].score >= w[1].score),
            "best first"
        );
        for c in list {
            let sum: f64 = c.terms.iter().map(|t| t.value).sum();
            assert!((sum - c.score).abs() < 1e-9, "terms sum to the score");
            assert!((0.0..=1.0).contains(&c.probability));
            assert!(c.terms.iter().all(|t| !t.name.is_empty()));
        }
        // The candidates are legal plays of the view.
        let legal = client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: Some(game_view(view)),
            })
            .await
            .unwrap()
            .into_inner();
        let Some(pb::list_legal_plays_response::Game::Lexio(legal)) = legal.game else {
            panic!("not Lexio")
        };
        for c in list {
            let Some(pb::decision::Game::Lexio(action)) =
                c.decision.as_ref().and_then(|d| d.game.clone())
            else {
                panic!("not a Lexio candidate")
            };
            assert!(legal.decisions.contains(&action), "{action:?} is not legal");
        }
    }
}

#[tokio::test]
async fn easy_has_nothing_to_explain() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut request = select(follow_view(), pb::Difficulty::Easy);
    request.explain = true;
    let response = client.select_play(request).await.unwrap().into_inner();
    assert!(response.decision.is_some());
    assert!(response.explanation.is_empty());
}

/// A real Lexio view where the seat has exactly one legal action (it leads holding one
/// tile), from easy rounds.
fn forced_view() -> pb::LexioView {
    use climbot::lexio::PlayerCount;
    use climbot::lexio::bots::easy_action;
    use climbot::lexio::referee::{Round, deal};
    for seed in 0..200 {
        let players = PlayerCount::Four;
        let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
        loop {
            let view = round.view().unwrap();
            if view.legal_actions().len() == 1 {
                return climbot::service::lexio::view_to_wire(&view);
            }
            let action = easy_action(players, view.hand(), view.table());
            if round.apply(action).unwrap() {
                break;
            }
        }
    }
    panic!("no forced move in 200 rounds")
}

#[tokio::test]
async fn a_forced_move_is_explained_as_the_chosen_candidate() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let view = forced_view();
    for difficulty in [
        pb::Difficulty::Normal,
        pb::Difficulty::Hard,
        pb::Difficulty::Expert,
    ] {
        let mut request = select(view.clone(), difficulty);
        request.explain = true;
        request.budget_ms = Some(50);
        let response = client.select_play(request).await.unwrap().into_inner();
        let list = &response.explanation;
        assert_eq!(list.len(), 1, "{difficulty:?}: {list:?}");
        let only = &list[0];
        assert!(only.chosen, "{difficulty:?}");
        assert_eq!(only.decision, response.decision, "{difficulty:?}");
        assert_eq!(only.probability, 1.0, "{difficulty:?}");
        if difficulty == pb::Difficulty::Expert {
            // The search plays its one candidate out and reports it as searched.
            assert_eq!(only.terms[0].name, "playouts", "{only:?}");
        } else {
            // The evaluation bots score nothing when there is no choice.
            assert_eq!(only.score, 0.0, "{difficulty:?}");
            assert_eq!(only.terms.len(), 1);
            assert_eq!(only.terms[0].name, "forced");
            assert_eq!(only.terms[0].value, 0.0);
        }
    }
    // EASY still scores nothing.
    let mut request = select(view, pb::Difficulty::Easy);
    request.explain = true;
    let response = client.select_play(request).await.unwrap().into_inner();
    assert!(response.explanation.is_empty());
}
