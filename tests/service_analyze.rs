//! AnalyzePlay over the wire: every legal decision listed once, the best first; the best
//! is EXPERT's choice with the same seed and work; the same
//! analysis from the same seed and iterations; a review that calls the best BEST and
//! giving up a forced win a mistake or a blunder; the refusals (an illegal decision, a
//! decision of another game, an unanalyzed phase); `top`; and the RPC in the metrics.
mod common;

use climbot::daifugo::Daifugo;
use climbot::game::Game;
use climbot::lexio::Lexio;
use climbot::lexio::view::{Action, LexioView};
use climbot::pb;
use climbot::service::game::WireGame;
use common::*;
use tonic::Code;

#[path = "../crates/climbot-core/tests/support/analysis_views.rs"]
mod analysis_views;

use analysis_views::{daifugo_exchange_view, mate_view_with_a_pass};

fn wire_view(view: &LexioView) -> pb::GameView {
    pb::GameView {
        game: Some(Lexio::view_to_wire(view)),
    }
}

fn wire_decision(action: &Action) -> pb::Decision {
    pb::Decision {
        game: Some(Lexio::decision_to_wire(action)),
    }
}

/// An analysis of `view` at `per_decision` playouts per legal decision, seed 7.
fn request(view: &LexioView, per_decision: u32) -> pb::AnalyzePlayRequest {
    let legal = Lexio::legal_decisions(view).len() as u32;
    pb::AnalyzePlayRequest {
        view: Some(wire_view(view)),
        max_iterations: Some(per_decision * legal),
        seed: Some(7),
        ..Default::default()
    }
}

type Client = climbot::pb::bot_service_client::BotServiceClient<tonic::transport::Channel>;

/// A server, a client, and the forced-win view with its win.
async fn setup() -> (TestServer, Client, LexioView, Action) {
    let server = start(test_config()).await;
    let client = server.client().await;
    let (view, win) = mate_view_with_a_pass();
    (server, client, view, win)
}

/// The analysis `request` asks for (the call must succeed).
async fn analyzed(client: &mut Client, request: pb::AnalyzePlayRequest) -> pb::AnalyzePlayResponse {
    client.analyze_play(request).await.unwrap().into_inner()
}

/// Asserts that `request` is refused INVALID_ARGUMENT naming `field`, with `reason` in
/// the message.
async fn refused(client: &mut Client, request: pb::AnalyzePlayRequest, field: &str, reason: &str) {
    let status = client.analyze_play(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    let message = status.message();
    assert!(
        message.starts_with(&format!("{field}:")) && message.contains(reason),
        "{message}"
    );
}

#[tokio::test]
async fn every_legal_decision_once_best_first_and_replayed_by_its_seed() {
    let (_server, mut client, view, _) = setup().await;
    let legal = Lexio::legal_decisions(&view);
    let response = analyzed(&mut client, request(&view, 30)).await;
    assert_eq!(response.decisions.len(), legal.len());
    for action in &legal {
        let wire = wire_decision(action);
        assert_eq!(
            response
                .decisions
                .iter()
                .filter(|d| d.decision.as_ref() == Some(&wire))
                .count(),
            1,
            "{action:?}"
        );
    }
    assert!(response.decisions[0].best);
    assert_eq!(response.decisions.iter().filter(|d| d.best).count(), 1);
    assert_eq!(response.decisions[0].loss, 0.0);
    for d in &response.decisions {
        assert_eq!(d.playouts, 30, "{d:?}");
        assert!(d.loss >= 0.0 || d.loss_ci95_high >= 0.0, "{d:?}");
        assert!(
            d.ci95_low <= d.expected && d.expected <= d.ci95_high,
            "{d:?}"
        );
    }
    assert_eq!(response.unit, "chips");
    assert!(response.higher_is_better);
    assert_eq!(response.seed, 7);
    assert_eq!(response.search_iterations, 30 * legal.len() as u64);
    assert!(response.review.is_none());

    // The same view, seed and iterations: the same analysis.
    let mut again = analyzed(&mut client, request(&view, 30)).await;
    again.compute_micros = response.compute_micros;
    assert_eq!(again, response);

    // Without a seed, one is derived from the view, and sent back.
    let mut unseeded = request(&view, 2);
    unseeded.seed = None;
    let first = client.analyze_play(unseeded.clone()).await.unwrap();
    let second = client.analyze_play(unseeded).await.unwrap();
    assert_eq!(first.get_ref().seed, second.get_ref().seed);
}

/// On the load test's mid-game views of every game, the analysis' best is the decision
/// SelectPlay at EXPERT answers with the same seed and `max_iterations`, and the
/// analysis did EXPERT's playouts and its own.
#[tokio::test]
async fn the_best_is_experts_choice_with_the_same_seed_and_work() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut views = 0;
    for (name, payload) in climbot::loadtest::decision_payloads(1).unwrap() {
        let climbot::loadtest::Payload::AnalyzePlay(payload) = payload else {
            continue;
        };
        views += 1;
        for seed in 1..=3 {
            let analysis = analyzed(
                &mut client,
                pb::AnalyzePlayRequest {
                    view: payload.view.clone(),
                    budget_ms: Some(2000),
                    max_iterations: Some(400),
                    seed: Some(seed),
                    top: Some(1),
                    ..Default::default()
                },
            )
            .await;
            let expert = client
                .select_play(pb::SelectPlayRequest {
                    view: payload.view.clone(),
                    difficulty: pb::Difficulty::Expert as i32,
                    budget_ms: Some(2000),
                    max_iterations: Some(400),
                    seed: Some(seed),
                    ..Default::default()
                })
                .await
                .unwrap()
                .into_inner();
            assert_eq!(
                analysis.decisions[0].decision, expert.decision,
                "{name}, seed {seed}"
            );
            assert!(analysis.decisions[0].best);
            assert_eq!(
                analysis.search_iterations,
                expert.search_iterations + 400,
                "{name}, seed {seed}"
            );
        }
    }
    assert_eq!(views, 8);
}

#[tokio::test]
async fn the_review_calls_the_best_best_and_passing_on_a_forced_win_a_mistake() {
    let (_server, mut client, view, win) = setup().await;
    let best = analyzed(&mut client, request(&view, 80)).await.decisions[0]
        .decision
        .clone();
    let mut reviewed = request(&view, 80);
    reviewed.decision = best.clone();
    let review = analyzed(&mut client, reviewed).await.review.unwrap();
    assert_eq!(review.category, pb::ReviewCategory::Best as i32);
    assert_eq!(review.decision, best);
    assert_eq!(review.loss, 0.0);

    let mut pass = request(&view, 80);
    pass.decision = Some(wire_decision(&Action::Pass));
    let response = analyzed(&mut client, pass).await;
    let review = response.review.unwrap();
    assert!(
        review.category == pb::ReviewCategory::Mistake as i32
            || review.category == pb::ReviewCategory::Blunder as i32,
        "{review:?}"
    );
    assert!(review.loss >= 1.0, "{review:?}");
    let expected = |action: &Action| {
        let wire = wire_decision(action);
        response
            .decisions
            .iter()
            .find(|d| d.decision.as_ref() == Some(&wire))
            .unwrap()
            .expected
    };
    assert!(expected(&win) > expected(&Action::Pass));
}

#[tokio::test]
async fn top_keeps_the_best_and_the_reviewed_decision() {
    let (_server, mut client, view, _) = setup().await;
    let all = analyzed(&mut client, request(&view, 10)).await;
    let mut top = request(&view, 10);
    top.top = Some(1);
    let one = analyzed(&mut client, top.clone()).await;
    assert_eq!(one.decisions, all.decisions[..1]);
    // The worst decision reviewed: listed after the best.
    let worst = all.decisions.last().unwrap().clone();
    top.decision = worst.decision.clone();
    let two = analyzed(&mut client, top).await;
    assert_eq!(two.decisions, vec![all.decisions[0].clone(), worst]);

    let mut zero = request(&view, 10);
    zero.top = Some(0);
    refused(&mut client, zero, "top", "").await;
}

#[tokio::test]
async fn bad_decisions_and_unanalyzed_phases_are_refused() {
    let (_server, mut client, view, _) = setup().await;

    // A tile the seat does not hold.
    let illegal = Action::Play(
        climbot::lexio::classify(view.players(), view.unseen().iter().take(1).collect()).unwrap(),
    );
    let mut bad = request(&view, 10);
    bad.decision = Some(wire_decision(&illegal));
    refused(&mut client, bad, "decision", "not a legal decision").await;

    // A Daifugo decision for a Lexio view.
    let mut other = request(&view, 10);
    other.decision = Some(pb::Decision {
        game: Some(pb::decision::Game::Daifugo(pb::DaifugoDecision::default())),
    });
    refused(&mut client, other, "decision", "a daifugo decision").await;

    // A Daifugo exchange is not searched, so not analyzed.
    let exchange = daifugo_exchange_view();
    let exchange = pb::AnalyzePlayRequest {
        view: Some(pb::GameView {
            game: Some(Daifugo::view_to_wire(&exchange)),
        }),
        max_iterations: Some(100),
        ..Default::default()
    };
    refused(&mut client, exchange, "view", "exchange").await;

    // Fewer iterations than legal decisions: not a playout each.
    let mut short = request(&view, 1);
    short.max_iterations = Some(1);
    refused(&mut client, short, "max_iterations", "legal decisions").await;

    // No view.
    refused(
        &mut client,
        pb::AnalyzePlayRequest::default(),
        "view",
        "required",
    )
    .await;
}

#[tokio::test]
async fn metrics_count_analyze_play_calls_and_latencies() {
    let (server, mut client, view, _) = setup().await;
    client.analyze_play(request(&view, 2)).await.unwrap();
    let mut bad = request(&view, 2);
    bad.budget_ms = Some(0);
    client.analyze_play(bad).await.unwrap_err();
    let scrape = server.scrape().await;
    let has = |line: &str| {
        assert!(
            scrape
                .lines()
                .any(|l| l.starts_with(line) && !l.ends_with(" 0")),
            "missing {line} in\n{scrape}"
        );
    };
    has(r#"climbot_requests_total{rpc="analyze_play",game="lexio",difficulty="none",code="ok"}"#);
    has(
        r#"climbot_requests_total{rpc="analyze_play",game="lexio",difficulty="none",code="invalid_argument"}"#,
    );
    has(r#"climbot_analyze_play_duration_seconds_count{game="lexio",outcome="ok"}"#);
    has(r#"climbot_client_calls_total{client="anonymous"}"#);
}
