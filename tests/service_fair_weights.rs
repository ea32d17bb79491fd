//! `--client-weights` shifts the share of the decision slots between busy clients.
mod common;

use climbot::service::fair::ClientWeights;
use common::*;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn weights_shift_the_share() {
    let mut config = test_config();
    config.decision_slots = 1;
    config.fault_hook = Some(slow_decisions);
    config.client_weights = ClientWeights::parse("heavy=3,light=1").unwrap();
    let server = start(config).await;
    let run_for = Duration::from_millis(2_500);
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for name in ["heavy", "light"] {
        for _ in 0..6 {
            let mut client = server.client().await;
            tasks.push(tokio::spawn(async move {
                let mut served = 0u32;
                while t0.elapsed() < run_for {
                    let answer = client
                        .select_play(as_client(slot_call(40, 1_900), name))
                        .await;
                    // Calls still in flight at the end drain one for one: not counted.
                    if answer.is_ok() && t0.elapsed() < run_for {
                        served += 1;
                    }
                }
                (name, served)
            }));
        }
    }
    let (mut heavy, mut light) = (0, 0);
    for task in tasks {
        match task.await.unwrap() {
            ("heavy", n) => heavy += n,
            (_, n) => light += n,
        }
    }
    eprintln!("heavy {heavy}, light {light}");
    assert!(light > 0, "the light client is served too");
    // 3 to 1 by weight; at least 2 to 1 on a busy machine.
    assert!(heavy >= 2 * light, "heavy {heavy}, light {light}");
}
