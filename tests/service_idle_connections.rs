//! Idle connections cost bounded memory: the real binary's resident memory (VmRSS)
//! before and after many clients have connected (HTTP/2 handshake done) and gone quiet.
//! `cargo test --test service_idle_connections -- --ignored --nocapture` measures 10,000
//! (CLIMBOT_IDLE_CONNECTIONS to change it; each side needs that many descriptors).
mod common;

use climbot::pb;
use common::*;
use prost::Message;
use std::time::{Duration, Instant};

/// The process's resident memory, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// Opens `n` connections, measures, checks the last one still serves; returns the
/// resident memory per connection in KiB.
async fn measure(n: usize) -> f64 {
    let (mut child, addr) = spawn_server(2, &[]);
    // Warm up: one connection and a call, so the baseline includes the runtime's
    // threads and the first call's allocations.
    let mut warm = RawH2::connect(addr).await;
    let easy = select(follow_view(), pb::Difficulty::Easy).encode_to_vec();
    let id = warm.stream();
    warm.write(&RawH2::request_frames(
        id,
        "/climbot.v1.BotService/SelectPlay",
        &easy,
    ))
    .await;
    warm.answer(id).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = rss_kib(child.id());
    let t0 = Instant::now();
    let mut idle = Vec::with_capacity(n);
    for _ in 0..n {
        idle.push(RawH2::connect(addr).await);
    }
    let opened = t0.elapsed();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_kib(child.id());
    let last = idle.last_mut().unwrap();
    let id = last.stream();
    last.write(&RawH2::request_frames(
        id,
        "/climbot.v1.BotService/SelectPlay",
        &easy,
    ))
    .await;
    last.answer(id).await.expect("the last connection serves");
    let per_connection = (after.saturating_sub(before)) as f64 / n as f64;
    eprintln!(
        "{n} idle connections (opened in {opened:?}): VmRSS {before} KiB -> {after} KiB, \
         {per_connection:.1} KiB per connection"
    );
    drop(idle);
    let _ = child.kill();
    let _ = child.wait();
    per_connection
}

#[tokio::test]
async fn idle_connections_cost_bounded_memory() {
    let per_connection = measure(500).await;
    assert!(
        per_connection < 64.0,
        "{per_connection:.1} KiB per idle connection"
    );
}

#[tokio::test]
#[ignore = "opens 10,000 connections; run with --ignored --nocapture"]
async fn ten_thousand_idle_connections() {
    let n = std::env::var("CLIMBOT_IDLE_CONNECTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let per_connection = measure(n).await;
    assert!(
        per_connection < 64.0,
        "{per_connection:.1} KiB per idle connection"
    );
}
