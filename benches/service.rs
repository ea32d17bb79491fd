//! Reading a request (prost + validation vs the fast lane + validation), then the
//! decision path in-process (the handler called directly) vs over loopback gRPC,
//! p50/p99 latency at concurrency 1 and 16. Run: `cargo bench --bench service`.
//!
//! Uses EASY (microseconds of policy time, answered on the request's own task), so the
//! figures are the service's own overhead: validation, seeding, metrics, encoding and,
//! for loopback, HTTP/2 + protobuf.

use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use climbot::pb::bot_service_server::BotService;
use climbot::service::{BotHandler, Config};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn t(number: u32, suit: pb::LexioSuit) -> pb::LexioTile {
    pb::LexioTile {
        number,
        suit: suit as i32,
    }
}

fn request() -> pb::SelectPlayRequest {
    use pb::LexioSuit::*;
    let hand = vec![
        t(3, Moon),
        t(4, Cloud),
        t(4, Sun),
        t(5, Star),
        t(6, Moon),
        t(7, Sun),
        t(9, Cloud),
        t(9, Star),
        t(9, Moon),
        t(11, Cloud),
        t(12, Sun),
        t(1, Star),
        t(2, Cloud),
    ];
    let seat = |n| pb::LexioSeat { tile_count: n };
    let view = pb::LexioView {
        player_count: 4,
        seat: 2,
        hand,
        table: Some(pb::LexioTable {
            owner: Some(1),
            tiles: vec![t(3, Star)],
        }),
        seats: vec![seat(13), seat(12), seat(13), seat(13)],
        played: vec![t(3, Star)],
        log: vec![pb::LexioLogEntry {
            seat: 1,
            tiles: vec![t(3, Star)],
        }],
        round: 1,
        scores: vec![0; 4],
    };
    pb::SelectPlayRequest {
        explain: false,
        view: Some(pb::GameView {
            game: Some(pb::game_view::Game::Lexio(view)),
        }),
        difficulty: pb::Difficulty::Easy as i32,
        seed: None,
        budget_ms: None,
        max_iterations: None,
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

async fn drive<F, Fut>(concurrency: usize, per_task: usize, call: F) -> (Duration, Duration, f64)
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let call = Arc::new(call);
    // Warm-up.
    for _ in 0..200 {
        call().await;
    }
    let started = Instant::now();
    let tasks: Vec<_> = (0..concurrency)
        .map(|_| {
            let call = call.clone();
            tokio::spawn(async move {
                let mut lat = Vec::with_capacity(per_task);
                for _ in 0..per_task {
                    let t0 = Instant::now();
                    call().await;
                    lat.push(t0.elapsed());
                }
                lat
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.unwrap());
    }
    let rate = all.len() as f64 / started.elapsed().as_secs_f64();
    all.sort();
    (percentile(&all, 0.50), percentile(&all, 0.99), rate)
}

/// Nanoseconds per call of `read` over `n` calls, best of 3 rounds.
fn time_per_call(n: u32, mut read: impl FnMut() -> u64) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t0 = Instant::now();
        let mut sink = 0u64;
        for _ in 0..n {
            sink = sink.wrapping_add(read());
        }
        std::hint::black_box(sink);
        best = best.min(t0.elapsed().as_nanos() as f64 / f64::from(n));
    }
    best
}

/// The load test's Lexio payload read both ways; asserts both give the same view.
fn bench_request_reading(n: u32) {
    use climbot::service::fast_lane::parse_select_play;
    use climbot::service::game::{WireView, decode};
    use prost::Message;
    let payloads = climbot::loadtest::select_play_payloads(1).unwrap();
    let (_, payload) = payloads
        .iter()
        .find(|(name, _)| name == "lexio_easy_follow")
        .unwrap();
    let bytes = payload.encode();
    let via_prost = || {
        let request = pb::SelectPlayRequest::decode(&bytes[..]).unwrap();
        decode(WireView::Proto(request.view)).unwrap().fingerprint()
    };
    let via_fast_lane = || {
        let (_, view) = parse_select_play(&bytes).unwrap().into_parts();
        decode(view).unwrap().fingerprint()
    };
    assert_eq!(
        via_prost(),
        via_fast_lane(),
        "both paths read the same view"
    );
    let prost_ns = time_per_call(n, via_prost);
    let fast_ns = time_per_call(n, via_fast_lane);
    println!(
        "reading lexio_easy_follow ({} bytes) and validating: prost {prost_ns:.0} ns, fast lane {fast_ns:.0} ns ({:.2}x)",
        bytes.len(),
        prost_ns / fast_ns
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing useful.
    let quick =
        std::env::args().any(|a| a == "--quick") || !std::env::args().any(|a| a == "--bench");
    let per_task_total = if quick { 400 } else { 20_000 };
    bench_request_reading(if quick { 1_000 } else { 200_000 });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let config = Config::default();
        let handler = BotHandler::new(&config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(climbot::service::run(config.clone(), listener, None, std::future::pending()));
        tokio::time::sleep(Duration::from_millis(100)).await;
        let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect()
            .await
            .unwrap();
        println!(
            "SelectPlay EASY, {} decision slots; p50 / p99 latency per call, throughput",
            config.decision_slots
        );
        for concurrency in [1usize, 16] {
            let per_task = per_task_total / concurrency;
            let h = handler.clone();
            let (p50, p99, rate) = drive(concurrency, per_task, move || {
                let h = h.clone();
                async move {
                    let r = h.select_play(tonic::Request::new(request())).await.unwrap();
                    assert!(r.into_inner().decision.is_some());
                }
            })
            .await;
            println!("in-process  c={concurrency:<2}  p50 {p50:>9.1?}  p99 {p99:>9.1?}  {rate:>8.0} calls/s");
            let client = BotServiceClient::new(channel.clone());
            let (p50, p99, rate) = drive(concurrency, per_task, move || {
                let mut c = client.clone();
                async move {
                    let r = c.select_play(request()).await.unwrap();
                    assert!(r.into_inner().decision.is_some());
                }
            })
            .await;
            println!("loopback    c={concurrency:<2}  p50 {p50:>9.1?}  p99 {p99:>9.1?}  {rate:>8.0} calls/s");
        }
    });
}
