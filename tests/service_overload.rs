//! No decision slot within the budget -> RESOURCE_EXHAUSTED; waiting counts against it.
//! EASY takes no slot.
mod common;

use climbot::pb;
use common::*;
use std::time::{Duration, Instant};
use tonic::Code;

#[tokio::test]
async fn a_full_server_sheds_load_with_resource_exhausted() {
    let mut config = test_config();
    config.decision_slots = 1;
    let server = start(config).await;

    let mut busy = select(undecided_view(), pb::Difficulty::Expert);
    // Longer than the wait below by far (and under the 2 s cap), so that a wait that
    // ran past its own budget to the end of this search could not pass for one that
    // stopped at its budget.
    busy.budget_ms = Some(1_900);
    let mut client = server.client().await;
    let holder = tokio::spawn(async move { client.select_play(busy).await });
    tokio::time::sleep(Duration::from_millis(150)).await;

    assert!(
        !holder.is_finished(),
        "the long search should still hold the slot"
    );
    let mut client = server.client().await;
    // Waiting for the slot uses up a 100 ms budget.
    let mut waiting = select(undecided_view(), pb::Difficulty::Expert);
    waiting.budget_ms = Some(100);
    let t0 = Instant::now();
    let status = client.select_play(waiting).await.unwrap_err();
    let waited = t0.elapsed();
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(
        status.message().contains("decision slots busy"),
        "{}",
        status.message()
    );
    assert!(waited >= Duration::from_millis(90), "{waited:?}");
    // Generous for a machine shared with builds; the holder keeps the slot for 1.7 s
    // more, so a wait past the budget would take at least that.
    assert!(waited < Duration::from_millis(1_000), "{waited:?}");
    assert!(
        !holder.is_finished(),
        "the slot was busy for the whole wait"
    );

    // EASY needs no slot: a rule that answers in microseconds is served on the
    // request's own task even while every slot is busy.
    let easy = client
        .select_play(with_timeout(
            select(follow_view(), pb::Difficulty::Easy),
            Duration::from_millis(60),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(easy.decision.is_some());
    assert!(!holder.is_finished(), "the slot was still busy");

    // The holder finishes normally and the slot serves again.
    let held = holder.await.unwrap().unwrap().into_inner();
    assert!(held.decision.is_some());
    client
        .select_play(select(follow_view(), pb::Difficulty::Easy))
        .await
        .unwrap();
}
