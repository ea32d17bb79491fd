//! Overload isolation: while EXPERT searches keep every decision slot busy, EASY calls
//! and ListLegalPlays stay fast. The real binary serves; this process loads it with
//! EXPERT calls and times EASY calls and legal-play lists one after another.
//!
//! The bound is generous, since the test shares the machine's 2 cores with everything
//! else: the searches take 1 s each, so a call that waited for a slot would take
//! hundreds of milliseconds. The percentiles themselves are measured by `cargo bench
//! --bench service` ("EASY under search load").
mod common;

use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use common::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

struct Figures {
    easy_p50: Duration,
    easy_p99: Duration,
    list_p99: Duration,
    expert_ok: u64,
    expert_refused: u64,
}

/// Loads a fresh server with `searchers` EXPERT clients and times `calls` EASY calls and
/// legal-play lists.
async fn measure(searchers: usize, calls: usize) -> Figures {
    let (mut child, addr) = spawn_server(2, &[]);
    let url = format!("http://{addr}");
    let stop = Arc::new(AtomicBool::new(false));
    let (ok, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut load = Vec::new();
    for i in 0..searchers {
        let (stop, ok, refused, url) = (stop.clone(), ok.clone(), refused.clone(), url.clone());
        load.push(tokio::spawn(async move {
            let mut client = BotServiceClient::connect(url).await.unwrap();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let mut request = select(undecided_view(), pb::Difficulty::Expert);
                request.budget_ms = Some(1_000);
                request.seed = Some(i as u64 * 1_000_000 + n);
                n += 1;
                match client.select_play(request).await {
                    Ok(_) => ok.fetch_add(1, Ordering::Relaxed),
                    Err(_) => refused.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let mut client = BotServiceClient::connect(url).await.unwrap();
    // Warm up, and let the searches fill the slots.
    for _ in 0..50 {
        client
            .select_play(select(follow_view(), pb::Difficulty::Easy))
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut easy = Vec::with_capacity(calls);
    let mut list = Vec::with_capacity(calls);
    for _ in 0..calls {
        let t0 = Instant::now();
        client
            .select_play(select(follow_view(), pb::Difficulty::Easy))
            .await
            .unwrap();
        easy.push(t0.elapsed());
        let t0 = Instant::now();
        client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: Some(game_view(follow_view())),
            })
            .await
            .unwrap();
        list.push(t0.elapsed());
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for task in load {
        let _ = task.await;
    }
    let _ = child.kill();
    let _ = child.wait();
    easy.sort();
    list.sort();
    let figures = Figures {
        easy_p50: percentile(&easy, 0.5),
        easy_p99: percentile(&easy, 0.99),
        list_p99: percentile(&list, 0.99),
        expert_ok: ok.load(Ordering::Relaxed),
        expert_refused: refused.load(Ordering::Relaxed),
    };
    eprintln!(
        "{searchers} EXPERT clients on 2 slots ({} searches answered, {} refused); \
         {calls} EASY calls: p50 {:?}, p99 {:?}, p99.9 {:?}, max {:?}; \
         ListLegalPlays: p50 {:?}, p99 {:?}, max {:?}",
        figures.expert_ok,
        figures.expert_refused,
        figures.easy_p50,
        figures.easy_p99,
        percentile(&easy, 0.999),
        easy.last().unwrap(),
        percentile(&list, 0.5),
        figures.list_p99,
        list.last().unwrap(),
    );
    figures
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn easy_calls_stay_fast_while_searches_fill_the_slots() {
    let figures = measure(4, 300).await;
    assert!(figures.expert_ok > 0, "the searches ran");
    assert!(
        figures.easy_p99 < Duration::from_millis(250),
        "EASY p99 {:?}",
        figures.easy_p99
    );
    assert!(
        figures.list_p99 < Duration::from_millis(250),
        "list p99 {:?}",
        figures.list_p99
    );
}
