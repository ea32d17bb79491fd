//! Reading a request (prost + validation vs the fast lane + validation), then the
//! decision path in-process (the handler called directly) vs over loopback gRPC,
//! p50/p99 latency at concurrency 1 and 16. Run: `cargo bench --bench service`.
//!
//! Uses EASY (microseconds of policy time, answered on the request's own task), so the
//! figures are the service's own overhead: validation, seeding, metrics, encoding and,
//! for loopback, HTTP/2 + protobuf.
//!
//! Then two figures that the integration tests bound only loosely, since they share the
//! machine with builds: how long a call whose deadline is within the safety margin waits
//! for its DEADLINE_EXCEEDED (`tests/service_deadline.rs`), and the latency of EASY
//! calls and legal-play lists while EXPERT searches keep every decision slot busy
//! (`tests/service_isolation.rs`): 2 slots, 4 clients calling EXPERT with 100 ms
//! budgets, and one client timing EASY calls and legal-play lists one after another.

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
        strength: None,
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
    let payloads = climbot::loadtest::decision_payloads(1).unwrap();
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

/// A loopback server with `slots` decision slots; its address.
async fn serve(slots: usize) -> std::net::SocketAddr {
    let config = Config {
        decision_slots: slots,
        ..Config::default()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(climbot::service::run(
        config,
        listener,
        None,
        std::future::pending(),
    ));
    tokio::time::sleep(Duration::from_millis(100)).await;
    addr
}

/// p50, p99, p99.9 and the largest of `sorted`, for printing.
fn spread(sorted: &[Duration]) -> String {
    format!(
        "p50 {:>9.1?}  p99 {:>9.1?}  p99.9 {:>9.1?}  max {:>9.1?}",
        percentile(sorted, 0.5),
        percentile(sorted, 0.99),
        percentile(sorted, 0.999),
        sorted.last().unwrap()
    )
}

/// The time to DEADLINE_EXCEEDED for `n` EXPERT calls whose 8 ms deadline is within a
/// 10 ms margin, one after another on a warm connection.
async fn bench_refusal_within_margin(n: usize) {
    let addr = serve(2).await;
    let mut client = BotServiceClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    client.select_play(request()).await.unwrap();
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let mut call = tonic::Request::new(pb::SelectPlayRequest {
            difficulty: pb::Difficulty::Expert as i32,
            ..request()
        });
        call.set_timeout(Duration::from_millis(8));
        let t0 = Instant::now();
        let status = client.select_play(call).await.unwrap_err();
        times.push(t0.elapsed());
        assert_eq!(status.code(), tonic::Code::DeadlineExceeded, "{status:?}");
    }
    times.sort();
    println!("refused within the margin ({n} calls)  {}", spread(&times));
}

/// EASY calls and legal-play lists timed while 4 clients keep both decision slots busy
/// with EXPERT searches of 100 ms.
async fn bench_easy_under_search_load(calls: usize) {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let addr = serve(2).await;
    let url = format!("http://{addr}");
    let stop = Arc::new(AtomicBool::new(false));
    let (ok, refused) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut load = Vec::new();
    for i in 0..4u64 {
        let (stop, ok, refused, url) = (stop.clone(), ok.clone(), refused.clone(), url.clone());
        load.push(tokio::spawn(async move {
            let mut client = BotServiceClient::connect(url).await.unwrap();
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let search = pb::SelectPlayRequest {
                    difficulty: pb::Difficulty::Expert as i32,
                    budget_ms: Some(100),
                    seed: Some(i * 1_000_000 + n),
                    ..request()
                };
                n += 1;
                match client.select_play(search).await {
                    Ok(_) => ok.fetch_add(1, Ordering::Relaxed),
                    Err(_) => refused.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let mut client = BotServiceClient::connect(url).await.unwrap();
    for _ in 0..50 {
        client.select_play(request()).await.unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (mut easy, mut list) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    for _ in 0..calls {
        let t0 = Instant::now();
        client.select_play(request()).await.unwrap();
        easy.push(t0.elapsed());
        let t0 = Instant::now();
        client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: request().view,
            })
            .await
            .unwrap();
        list.push(t0.elapsed());
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    stop.store(true, Ordering::Relaxed);
    for task in load {
        task.await.unwrap();
    }
    easy.sort();
    list.sort();
    println!(
        "under search load: 4 EXPERT clients on 2 slots ({} searches answered, {} refused)",
        ok.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
    println!("  EASY ({calls} calls)            {}", spread(&easy));
    println!("  ListLegalPlays ({calls} calls)  {}", spread(&list));
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
        bench_refusal_within_margin(if quick { 50 } else { 2_000 }).await;
        bench_easy_under_search_load(if quick { 100 } else { 3_000 }).await;
    });
}
