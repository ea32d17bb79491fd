//! Deadlines: no time -> DEADLINE_EXCEEDED at once; otherwise an answer (possibly a
//! fallback) before the deadline, by the wall clock; a deadline that passes while the
//! request is still arriving is DEADLINE_EXCEEDED too; a malformed `grpc-timeout` is
//! refused (INVALID_ARGUMENT), never run without a deadline.
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
    // DEADLINE_EXCEEDED is the server's refusal: had it started the search, the
    // client's own 8 ms timer would have ended the call first (CANCELLED). The bound is
    // generous for a machine shared with builds; `cargo bench --bench service` measures
    // how fast the refusal is.
    assert_eq!(status.code(), Code::DeadlineExceeded, "{status:?}");
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
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
    let mut config = test_config();
    config.max_budget = Duration::from_secs(20);
    let server = start(config).await;
    let mut client = server.client().await;
    let mut request = select(undecided_view(), pb::Difficulty::Expert);
    request.budget_ms = Some(40);
    let t0 = Instant::now();
    let response = client
        .select_play(with_timeout(request, Duration::from_secs(20)))
        .await
        .unwrap()
        .into_inner();
    let elapsed = t0.elapsed();
    assert!(
        elapsed >= Duration::from_millis(30),
        "an anytime search uses its budget: {elapsed:?}"
    );
    // The budget, not the 20 s deadline, stops the search. The bounds are generous: the
    // decision thread (nice 10) may wait for a core behind whatever else the machine
    // runs. How close to its budget a search stops is measured by `cargo bench --bench
    // search` on an idle machine (within 1 ms at the 99.9th percentile).
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    assert!(
        response.compute_micros < 5_000_000,
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

/// A SelectPlay request as one gRPC frame.
fn framed(request: &pb::SelectPlayRequest) -> prost::bytes::Bytes {
    use prost::Message;
    grpc_frame(&request.encode_to_vec(), false)
}

#[tokio::test]
async fn a_deadline_that_passes_while_the_body_arrives_is_deadline_exceeded() {
    let server = start(test_config()).await;
    let mut h2 = h2_connect(server.addr).await;
    let frame = framed(&select(follow_view(), pb::Difficulty::Easy));
    for path in [
        "/climbot.v1.BotService/SelectPlay",
        "/climbot.v1.BotService/ListLegalPlays",
    ] {
        let t0 = Instant::now();
        let (response, mut body) = h2
            .send_request(grpc_head(path, &[("grpc-timeout", "150m")]), false)
            .unwrap();
        // Half the message, then nothing: the body is still arriving at the deadline.
        body.send_data(frame.slice(..frame.len() / 2), false)
            .unwrap();
        let answer = raw_answer(response).await.unwrap();
        let elapsed = t0.elapsed();
        let status = answer.status();
        assert_eq!(status.code(), Code::DeadlineExceeded, "{path}: {status:?}");
        assert!(
            status.message().contains("still arriving"),
            "{}",
            status.message()
        );
        // At the 150 ms deadline, not at the 10 s request read timeout (generous for a
        // machine shared with builds).
        assert!(
            elapsed >= Duration::from_millis(140) && elapsed < Duration::from_secs(3),
            "{path}: {elapsed:?}"
        );
    }
    let scrape = server.scrape().await;
    assert!(
        scrape.contains(
            r#"climbot_requests_total{rpc="select_play",game="unknown",difficulty="unknown",code="deadline_exceeded"} 1"#
        ),
        "{scrape}"
    );
}

#[tokio::test]
async fn a_malformed_grpc_timeout_is_refused_not_ignored() {
    let server = start(test_config()).await;
    let mut h2 = h2_connect(server.addr).await;
    let frame = framed(&select(follow_view(), pb::Difficulty::Easy));
    for bad in ["1x", "", "123456789m", "-5m", "1.5S", "m", "10"] {
        let (response, mut body) = h2
            .send_request(
                grpc_head(
                    "/climbot.v1.BotService/SelectPlay",
                    &[("grpc-timeout", bad)],
                ),
                false,
            )
            .unwrap();
        body.send_data(frame.clone(), true).unwrap();
        let status = raw_answer(response).await.unwrap().status();
        assert_eq!(status.code(), Code::InvalidArgument, "{bad:?}: {status:?}");
        assert!(
            status
                .message()
                .starts_with("grpc-timeout: malformed header"),
            "{bad:?}: {}",
            status.message()
        );
    }
    // The same request with a well-formed timeout is served.
    let (response, mut body) = h2
        .send_request(
            grpc_head(
                "/climbot.v1.BotService/SelectPlay",
                &[("grpc-timeout", "5S")],
            ),
            false,
        )
        .unwrap();
    body.send_data(frame, true).unwrap();
    assert_eq!(
        raw_answer(response).await.unwrap().status().code(),
        Code::Ok
    );

    // From a gRPC library too (tonic sends what the metadata says).
    let mut client = server.client().await;
    let mut request = tonic::Request::new(select(follow_view(), pb::Difficulty::Easy));
    request
        .metadata_mut()
        .insert("grpc-timeout", "soon".parse().unwrap());
    let status = client.select_play(request).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
}
