//! A waiter whose call is cancelled or whose budget passes leaves its queue: the slot
//! goes to the next real waiter and is never lost.
mod common;

use common::*;
use std::time::{Duration, Instant};
use tonic::Code;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cancelled_and_timed_out_waiters_free_their_place() {
    capture_logs();
    let mut config = test_config();
    config.decision_slots = 1;
    config.fault_hook = Some(slow_decisions);
    let server = start(config).await;

    // The holder keeps the only slot 500 ms.
    let mut client = server.client().await;
    let holder = tokio::spawn(async move {
        client
            .select_play(as_client(slot_call(500, 1_900), "a"))
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;

    // A waiter cancelled by its client.
    let mut client = server.client().await;
    let cancelled = tokio::spawn(async move {
        client
            .select_play(as_client(slot_call(500, 1_900), "b"))
            .await
    });
    // A waiter whose 100 ms budget passes; its refusal is logged with its client.
    let log_before = captured_log_len();
    let mut client = server.client().await;
    let timed_out = client
        .select_play(as_client(slot_call(500, 100), "c"))
        .await
        .unwrap_err();
    assert_eq!(timed_out.code(), Code::ResourceExhausted, "{timed_out:?}");
    assert!(pushback_ms(&timed_out).is_some());
    let log = captured_log(log_before);
    assert!(
        log.lines()
            .any(|l| l.contains("call failed") && l.contains("client=\"c\"")),
        "{log}"
    );
    cancelled.abort();
    let _ = cancelled.await;

    // A real waiter gets the slot as soon as the holder ends, not after the slot was
    // granted to the ghosts.
    let mut client = server.client().await;
    let t0 = Instant::now();
    client
        .select_play(as_client(slot_call(1, 1_900), "d"))
        .await
        .expect("served when the holder ends");
    let waited = t0.elapsed();
    holder.await.unwrap().expect("the holder is served");
    // The holder had under 300 ms left; a slot granted to the cancelled waiter would
    // have cost 500 ms more.
    assert!(waited < Duration::from_millis(700), "{waited:?}");

    // No slot was lost: calls one after the other are served at once.
    for _ in 0..3 {
        let t0 = Instant::now();
        client
            .select_play(as_client(slot_call(1, 500), "e"))
            .await
            .expect("a free slot");
        assert!(
            t0.elapsed() < Duration::from_millis(400),
            "{:?}",
            t0.elapsed()
        );
    }
}
