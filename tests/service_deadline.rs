//! Deadlines: no time -> DEADLINE_EXCEEDED at once; otherwise an answer (possibly a
//! fallback) before the deadline, by the wall clock.
mod common;

use climbot::pb;
use common::*;
use std::time::{Duration, Instant};
use tonic::Code;

#[tokio::test]
async fn a_deadline_within_the_margin_is_refused_at_once() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    // Warm the connection so the timing below is the server's.
    client
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await
        .unwrap();
    let t0 = Instant::now();
    let status = client
        .select_play(with_timeout(
            select(undecided_view(), pb::Difficulty::Expert),
            Duration::from_millis(8),
        ))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(
        t0.elapsed() < Duration::from_millis(100),
        "{:?}",
        t0.elapsed()
    );
}

#[tokio::test]
async fn tiny_timeouts_are_answered_on_time_or_refused() {
    // A 25 ms safety margin: this test shares 2 CPUs with the other tests (and, in CI,
    // with builds); the margin is what absorbs scheduling delays.
    let mut config = test_config();
    config.deadline_margin = Duration::from_millis(25);
    let server = start(config).await;
    let mut client = server.client().await;
    client
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await
        .unwrap();
    for ms in [11u64, 20, 26, 30, 40, 60, 120] {
        let timeout = Duration::from_millis(ms);
        let t0 = Instant::now();
        let result = client
            .select_play(with_timeout(
                select(undecided_view(), pb::Difficulty::Expert),
                timeout,
            ))
            .await;
        let elapsed = t0.elapsed();
        eprintln!(
            "{ms} ms: {:?} after {elapsed:?}",
            result
                .as_ref()
                .map(|r| r.get_ref().fallback)
                .map_err(|s| s.code())
        );
        match result {
            Ok(response) => {
                assert!(
                    elapsed < timeout,
                    "{ms} ms deadline answered after {elapsed:?}"
                );
                let response = response.into_inner();
                assert!(response.decision.is_some());
                assert!(response.compute_micros <= ms * 1000);
            }
            // The server refuses in time (DEADLINE_EXCEEDED), or, on a starved machine,
            // the client's own timer fires first (tonic reports CANCELLED "Timeout
            // expired"): either way no answer arrives after the deadline.
            Err(status) => assert!(
                status.code() == Code::DeadlineExceeded
                    || (status.code() == Code::Cancelled && status.message() == "Timeout expired"),
                "{ms} ms deadline, after {elapsed:?}: {status:?}"
            ),
        }
    }
}

#[tokio::test]
async fn budget_ms_caps_the_search_below_the_deadline() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut request = select(undecided_view(), pb::Difficulty::Expert);
    request.budget_ms = Some(40);
    let t0 = Instant::now();
    let response = client
        .select_play(with_timeout(request, Duration::from_secs(5)))
        .await
        .unwrap()
        .into_inner();
    let elapsed = t0.elapsed();
    assert!(
        elapsed >= Duration::from_millis(30),
        "an anytime search uses its budget: {elapsed:?}"
    );
    assert!(elapsed < Duration::from_millis(400), "{elapsed:?}");
    assert!(
        response.compute_micros <= 60_000,
        "{}",
        response.compute_micros
    );
}

#[tokio::test]
async fn zero_budget_is_invalid() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut request = select(undecided_view(), pb::Difficulty::Expert);
    request.budget_ms = Some(0);
    let status = client.select_play(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
    assert_eq!(status.message(), "budget_ms: must be at least 1 when set");
}
