//! One client flooding EXPERT calls does not shut out a quiet neighbour: with one
//! decision slot, the quiet client's calls (one every 100 ms) are all served while the
//! flooder's excess is refused RESOURCE_EXHAUSTED with a retry pushback.
mod common;

use common::*;
use std::time::{Duration, Instant};
use tonic::Code;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flooder_does_not_shut_out_a_quiet_client() {
    let mut config = test_config();
    config.decision_slots = 1;
    config.fault_hook = Some(slow_decisions);
    let server = start(config).await;
    let run_for = Duration::from_millis(2_500);
    let t0 = Instant::now();

    // The flooder: 16 calls always in flight, each holding the slot 100 ms, within an
    // 800 ms budget: served first come first served, they would keep a queue 1.6 s long.
    let mut flooders = Vec::new();
    for _ in 0..16 {
        let mut client = server.client().await;
        flooders.push(tokio::spawn(async move {
            let (mut served, mut refused, mut pushbacks) = (0u32, 0u32, Vec::new());
            while t0.elapsed() < run_for {
                match client
                    .select_play(as_client(slot_call(100, 800), "flood"))
                    .await
                {
                    Ok(_) => served += 1,
                    Err(status) => {
                        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
                        pushbacks.push(pushback_ms(&status));
                        refused += 1;
                    }
                }
            }
            (served, refused, pushbacks)
        }));
    }

    // The quiet client: one call every 100 ms, each holding the slot a moment, within a
    // 600 ms budget.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let quiet = server.client().await;
    let mut calls = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    for _ in 0..20 {
        tick.tick().await;
        let mut client = quiet.clone();
        calls.push(tokio::spawn(async move {
            let started = Instant::now();
            let result = client
                .select_play(as_client(slot_call(1, 600), "quiet"))
                .await;
            (result.map(|_| ()), started.elapsed())
        }));
    }
    let (mut quiet_served, mut quiet_refused, mut slowest) = (0, 0, Duration::ZERO);
    for call in calls {
        let (result, took) = call.await.unwrap();
        slowest = slowest.max(took);
        match result {
            Ok(()) => quiet_served += 1,
            Err(status) => {
                eprintln!("quiet call refused: {status:?}");
                quiet_refused += 1;
            }
        }
    }
    let (mut flood_served, mut flood_refused, mut pushbacks) = (0, 0, Vec::new());
    for flooder in flooders {
        let (served, refused, p) = flooder.await.unwrap();
        flood_served += served;
        flood_refused += refused;
        pushbacks.extend(p);
    }
    eprintln!(
        "quiet: {quiet_served} served, {quiet_refused} refused, slowest {slowest:?}; \
         flood: {flood_served} served, {flood_refused} refused; pushbacks (ms) {:?}",
        &pushbacks[..pushbacks.len().min(8)]
    );
    assert_eq!(quiet_refused, 0, "every quiet call is served");
    assert_eq!(quiet_served, 20);
    assert!(flood_served > 0, "the flooder uses the slot too");
    assert!(flood_refused > 0, "the flooder's excess is refused");
    for pushback in pushbacks {
        let pushback = pushback.expect("a refusal carries grpc-retry-pushback-ms");
        assert!((1..=60_000).contains(&pushback), "{pushback}");
    }
}
