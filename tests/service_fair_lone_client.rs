//! A client alone uses every decision slot: fairness only divides slots under
//! contention.
mod common;

use common::*;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lone_client_uses_every_slot() {
    let mut config = test_config();
    config.decision_slots = 3;
    config.fault_hook = Some(slow_decisions);
    let server = start(config).await;
    let client = server.client().await;
    let t0 = Instant::now();
    // Three calls of 400 ms each, at once: side by side, in about 400 ms.
    let calls: Vec<_> = (0..3)
        .map(|_| {
            let mut client = client.clone();
            tokio::spawn(async move {
                client
                    .select_play(as_client(slot_call(400, 1_900), "alone"))
                    .await
            })
        })
        .collect();
    for call in calls {
        call.await.unwrap().expect("served");
    }
    let took = t0.elapsed();
    // One after the other they would take 1.2 s.
    assert!(took < Duration::from_millis(1_000), "{took:?}");
}
