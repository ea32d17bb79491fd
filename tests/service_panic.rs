//! A panic on a call's path (validation, an inline EASY decision, a decision in the
//! blocking pool, ListLegalPlays) is answered INTERNAL with a clear message, logged at
//! error level with the seed and the game, counted under the outcome `panic` (not
//! `cancelled`), and the server keeps serving on the same connection.
mod common;

use climbot::pb;
use climbot::service::FaultPoint;
use common::*;
use tonic::Code;

/// Decisions with this seed panic (a test-only panicking policy).
const PANIC_DECIDING: u64 = 666;
/// Requests with this seed panic while their view is validated.
const PANIC_VALIDATING: u64 = 667;

/// The test-only hook: panics at the decision for [`PANIC_DECIDING`], at validation
/// for [`PANIC_VALIDATING`] and for requests without a seed (ListLegalPlays).
fn panicking_policy(point: FaultPoint, seed: Option<u64>) {
    match (point, seed) {
        (FaultPoint::Decide, Some(PANIC_DECIDING)) => panic!("test policy panics on purpose"),
        (FaultPoint::Validate, Some(PANIC_VALIDATING) | None) => {
            panic!("test validation panics on purpose")
        }
        _ => {}
    }
}

fn seeded(difficulty: pb::Difficulty, seed: u64) -> pb::SelectPlayRequest {
    let mut request = select(follow_view(), difficulty);
    request.seed = Some(seed);
    request.budget_ms = Some(20);
    request
}

#[tokio::test]
async fn a_panic_is_internal_for_that_call_and_the_server_keeps_serving() {
    capture_logs();
    let mut config = test_config();
    config.fault_hook = Some(panicking_policy);
    let server = start(config).await;
    let mut client = server.client().await;

    let cases = [
        (pb::Difficulty::Easy, PANIC_DECIDING, "deciding"),
        (pb::Difficulty::Hard, PANIC_DECIDING, "deciding"),
        (pb::Difficulty::Expert, PANIC_DECIDING, "deciding"),
        (
            pb::Difficulty::Easy,
            PANIC_VALIDATING,
            "validating the view",
        ),
    ];
    for (difficulty, seed, during) in cases {
        let status = client
            .select_play(seeded(difficulty, seed))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::Internal, "{difficulty:?}: {status:?}");
        assert!(
            status.message().starts_with(&format!(
                "internal error: the server panicked while {during}"
            )),
            "{status:?}"
        );
        assert!(status.message().contains("on purpose"), "{status:?}");
        // The same connection serves the next call.
        let ok = client
            .select_play(seeded(difficulty, 1))
            .await
            .unwrap()
            .into_inner();
        assert!(ok.decision.is_some());
    }
    let status = client
        .list_legal_plays(pb::ListLegalPlaysRequest {
            view: Some(game_view(follow_view())),
        })
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Internal, "{status:?}");
    assert!(
        status.message().contains("validation panics on purpose"),
        "{status:?}"
    );

    // A new connection is served too.
    let mut fresh = server.client().await;
    fresh
        .select_play(seeded(pb::Difficulty::Easy, 2))
        .await
        .unwrap();

    // Its own outcome in the metrics, never "cancelled".
    let scrape = server.scrape().await;
    let value = |series: &str| -> f64 {
        scrape
            .lines()
            .find_map(|l| l.strip_prefix(series))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{scrape}"))
    };
    for difficulty in ["easy", "hard", "expert"] {
        let panics = value(&format!(
            r#"climbot_panics_total{{rpc="select_play",game="lexio",difficulty="{difficulty}"}} "#
        ));
        let expected = if difficulty == "easy" { 2.0 } else { 1.0 };
        assert_eq!(panics, expected, "{difficulty}");
        let histogram = value(&format!(
            r#"climbot_select_play_duration_seconds_count{{game="lexio",difficulty="{difficulty}",outcome="panic"}} "#
        ));
        assert_eq!(histogram, expected, "{difficulty}");
    }
    assert_eq!(
        value(r#"climbot_panics_total{rpc="list_legal_plays",game="lexio",difficulty="none"} "#),
        1.0
    );
    assert_eq!(
        value(
            r#"climbot_requests_total{rpc="select_play",game="lexio",difficulty="easy",code="internal"} "#
        ),
        2.0
    );
    assert!(!scrape.contains(r#"code="cancelled""#), "{scrape}");

    // One error line per panic, with the seed and the game.
    let log = captured_log(0);
    let panicked: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("ERROR") && l.contains("call panicked"))
        .collect();
    assert_eq!(panicked.len(), 5, "{log}");
    for seed in [PANIC_DECIDING, PANIC_VALIDATING] {
        assert!(
            panicked
                .iter()
                .any(|l| l.contains(&format!("seed={seed}")) && l.contains("game=\"lexio\"")),
            "no error line with seed {seed}:\n{log}"
        );
    }
}
