//! `/metrics` on its own port shows the latency histogram with its labels, the request
//! counters by code, the in-flight gauge and the build info.
mod common;

use climbot::pb;
use common::*;

#[tokio::test]
async fn metrics_show_histogram_counters_and_build_info() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    client
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await
        .unwrap();
    let mut expert = select(follow_view(), pb::Difficulty::Expert);
    expert.budget_ms = Some(10);
    client.select_play(expert).await.unwrap();
    // A Daifugo HARD decision.
    let (_, daifugo) = climbot::loadtest::daifugo_views(1).unwrap().remove(0);
    client
        .select_play(pb::SelectPlayRequest {
            view: Some(daifugo),
            difficulty: pb::Difficulty::Hard as i32,
            ..Default::default()
        })
        .await
        .unwrap();
    let mut bad = lead_view();
    bad.hand.clear();
    client
        .select_play(select(bad, pb::Difficulty::Easy))
        .await
        .unwrap_err();
    client
        .list_legal_plays(pb::ListLegalPlaysRequest {
            view: Some(game_view(follow_view())),
        })
        .await
        .unwrap();

    let response = server.scrape().await;
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    let has = |needle: &str| {
        assert!(response.contains(needle), "no {needle:?} in\n{response}");
    };
    has("# TYPE climbot_select_play_duration_seconds histogram");
    has(
        r#"climbot_select_play_duration_seconds_bucket{game="lexio",difficulty="easy",outcome="ok",le="0.00005"}"#,
    );
    has(
        r#"climbot_select_play_duration_seconds_bucket{game="lexio",difficulty="easy",outcome="ok",le="5"}"#,
    );
    has(
        r#"climbot_select_play_duration_seconds_count{game="lexio",difficulty="easy",outcome="ok"} "#,
    );
    has(r#"game="daifugo",difficulty="hard",outcome="ok""#);
    has(r#"climbot_requests_total{rpc="select_play",game="lexio",difficulty="easy",code="ok"}"#);
    has(
        r#"climbot_requests_total{rpc="select_play",game="lexio",difficulty="easy",code="invalid_argument"}"#,
    );
    has(
        r#"climbot_requests_total{rpc="list_legal_plays",game="lexio",difficulty="none",code="ok"}"#,
    );
    has("climbot_decisions_in_flight 0");
    has(&format!(
        "climbot_build_info{{version=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION")
    ));

    let other = tokio::task::spawn_blocking({
        let addr = server.metrics_addr;
        move || http_get(addr, "/other")
    })
    .await
    .unwrap();
    assert!(other.starts_with("HTTP/1.1 404"), "{other}");
}
