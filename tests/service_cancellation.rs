//! A client that cancels stops the computation: its slot frees at once and no decision
//! stays in flight.
mod common;

use climbot::pb;
use common::*;
use std::time::{Duration, Instant};

fn in_flight(scrape: &str) -> f64 {
    scrape
        .lines()
        .find_map(|l| l.strip_prefix("climbot_decisions_in_flight "))
        .map(|v| v.trim().parse().unwrap())
        .expect("the in-flight gauge is exported")
}

#[tokio::test]
async fn cancelling_the_call_stops_the_search() {
    let mut config = test_config();
    config.decision_slots = 1;
    config.max_budget = Duration::from_secs(20);
    let server = start(config).await;

    let mut long = select(undecided_view(), pb::Difficulty::Expert);
    long.budget_ms = Some(20_000);
    let mut client = server.client().await;
    let call = tokio::spawn(async move { client.select_play(long).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        in_flight(&server.scrape().await),
        1.0,
        "the search is running"
    );

    // The client gives up: the request future is dropped and the stream is reset.
    let cancelled_at = Instant::now();
    call.abort();
    let _ = call.await;

    // Generous for a machine shared with builds: an uncancelled search would hold the
    // slot for its whole 20 s budget.
    let limit = Duration::from_secs(5);
    let mut stopped = false;
    while cancelled_at.elapsed() < limit {
        if in_flight(&server.scrape().await) == 0.0 {
            stopped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let stop_time = cancelled_at.elapsed();
    assert!(
        stopped,
        "the search was still running {limit:?} after the cancel"
    );
    eprintln!("the search stopped {stop_time:?} after the cancel");

    // The only slot is free again: a short call is served, not refused.
    let mut client = server.client().await;
    let mut short = select(undecided_view(), pb::Difficulty::Expert);
    short.budget_ms = Some(50);
    let response = client.select_play(short).await.expect("the slot was freed");
    assert!(response.into_inner().decision.is_some());
}
