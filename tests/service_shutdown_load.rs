//! Shutdown under load loses nothing. The real binary serves concurrent SelectPlay
//! calls (long-lived connections and a new connection per call; EASY and 50 ms EXPERT
//! searches) when it gets SIGTERM. Every call must end either OK, or refused before
//! the server accepted it (the connection refused, or UNAVAILABLE with no response
//! headers); none may be accepted and then lost.
//!
//! "Accepted" is read from the server's own JSON log (per-call lines enabled with
//! `--log info,climbot::service::handler=debug`): each call carries a unique seed and
//! the handler logs one line per call with its seed and outcome, however it ends.
//! A call the server logged must have reached the client OK with that seed.
//!
//! `cargo test --test service_shutdown_load -- --nocapture` prints the tally.

use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tonic::transport::Endpoint;

/// How one call ended, seen from the client.
#[derive(Debug, Clone)]
enum Seen {
    Ok {
        after_sigterm: bool,
    },
    /// Not accepted: the connection was refused, or UNAVAILABLE before any header.
    Refused(String),
    /// Answered RESOURCE_EXHAUSTED: the server's own overload answer (no decision slot
    /// freed within the call's budget), a definite reply the client may retry; not lost.
    Shed,
    /// Anything else: an error after the server had the call.
    Failed(String),
}

const PERSISTENT_WORKERS: u64 = 12;
const RECONNECTING_WORKERS: u64 = 6;
const SIGTERM_AFTER: Duration = Duration::from_millis(1_000);
/// Bound on the whole exercise.
const HARD_LIMIT: Duration = Duration::from_secs(20);

fn request(views: &[pb::GameView], id: u64) -> pb::SelectPlayRequest {
    let expert = id.is_multiple_of(4);
    pb::SelectPlayRequest {
        explain: false,
        view: Some(views[(id % views.len() as u64) as usize].clone()),
        difficulty: if expert {
            pb::Difficulty::Expert
        } else {
            pb::Difficulty::Easy
        } as i32,
        seed: Some(id),
        budget_ms: expert.then_some(50),
        max_iterations: None,
        strength: None,
    }
}

/// A failed call, from the client's side. Refused (never accepted) when no response
/// header came back and the error says the server never took the request:
/// - UNAVAILABLE (the gRPC code for "not processed, safe to retry");
/// - hyper `Canceled` "connection closed": the request was still queued in the client
///   when the connection closed, so it was never sent (tonic reports CANCELLED);
/// - a connection reset: the connection sat in the kernel's accept backlog when the
///   server closed its listener, so the server never accepted it (tonic: UNKNOWN);
/// - a broken pipe with no response header: the server had closed the connection while
///   the request was still being written (tonic: UNKNOWN);
/// - the server's graceful GOAWAY (NO_ERROR) with no response header: HTTP/2 fails the
///   client's streams above the GOAWAY's last stream id, which the server did not
///   process and the client may retry (RFC 9113, 6.8; tonic: INTERNAL).
///
/// The server's log is checked as well: a call its handler saw is never "refused".
fn classify(status: &tonic::Status) -> Seen {
    let headers = !status.metadata().is_empty();
    let mut chain = Vec::new();
    let mut source = std::error::Error::source(status);
    while let Some(e) = source {
        chain.push(format!("{e:?}"));
        source = e.source();
    }
    let innermost = chain.last().map_or("", String::as_str);
    if headers && status.code() == tonic::Code::ResourceExhausted {
        return Seen::Shed;
    }
    let never_taken = if headers {
        None
    } else if status.code() == tonic::Code::Unavailable {
        Some("UNAVAILABLE before headers")
    } else if chain.iter().any(|e| e.starts_with("hyper::Error(Canceled")) {
        Some("never sent, connection closing (CANCELLED)")
    } else if innermost == "Kind(ConnectionReset)" {
        Some("connection reset, never accepted (UNKNOWN)")
    } else if innermost.starts_with("Custom { kind: BrokenPipe") {
        // The server closed the connection while the request was being written.
        Some("broken pipe while sending, never accepted (UNKNOWN)")
    } else if innermost.contains("GoAway(") && innermost.contains("NO_ERROR, Remote)") {
        // A stream above the last one the server's GOAWAY said it processed.
        Some("above the server's GOAWAY, never processed (INTERNAL)")
    } else {
        None
    };
    match never_taken {
        Some(kind) => Seen::Refused(format!("{kind}: {}", status.message())),
        None => Seen::Failed(format!(
            "{:?} {} (headers: {headers}) {chain:?}",
            status.code(),
            status.message()
        )),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_under_load_answers_or_refuses_every_call() {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args([
            "serve",
            "--grpc-addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--drain-delay",
            "300ms",
            "--shutdown-grace",
            "5s",
            "--decision-slots",
            "2",
            // Successful calls are logged at debug: the check below needs every line.
            "--log",
            "info,climbot::service::handler=debug",
        ])
        .env_remove("CLIMBOT_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut log = Vec::new();
    let addr = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("a start line");
        log.push(line.clone());
        let json: serde_json::Value = serde_json::from_str(&line).unwrap();
        if json["fields"]["message"] == "climbot starting" {
            break json["fields"]["grpc_addr"].as_str().unwrap().to_string();
        }
    };
    let endpoint = Endpoint::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect_timeout(Duration::from_secs(1))
        .timeout(Duration::from_secs(3));
    // Ready: one call answered.
    let views: Arc<Vec<pb::GameView>> = Arc::new(
        climbot::loadtest::lexio_views(1)
            .unwrap()
            .into_iter()
            .map(|(_, v)| v)
            .collect(),
    );
    for _ in 0..300 {
        if let Ok(channel) = endpoint.connect().await
            && BotServiceClient::new(channel)
                .select_play(request(&views, 1))
                .await
                .is_ok()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let next_id = Arc::new(AtomicU64::new(1_000));
    let stop = Arc::new(AtomicBool::new(false));
    let sigterm_sent = Arc::new(AtomicBool::new(false));
    let mut workers = Vec::new();
    for w in 0..PERSISTENT_WORKERS + RECONNECTING_WORKERS {
        let reconnecting = w >= PERSISTENT_WORKERS;
        let (endpoint, views, next_id, stop, sigterm_sent) = (
            endpoint.clone(),
            views.clone(),
            next_id.clone(),
            stop.clone(),
            sigterm_sent.clone(),
        );
        workers.push(tokio::spawn(async move {
            let mut seen: Vec<(u64, Seen)> = Vec::new();
            let mut client: Option<BotServiceClient<tonic::transport::Channel>> = None;
            while !stop.load(Ordering::Relaxed) {
                let id = next_id.fetch_add(1, Ordering::Relaxed);
                if reconnecting || client.is_none() {
                    match endpoint.connect().await {
                        Ok(channel) => client = Some(BotServiceClient::new(channel)),
                        Err(e) => {
                            // Nothing was sent: the server no longer accepts connections.
                            seen.push((id, Seen::Refused(format!("connect: {e}"))));
                            client = None;
                            tokio::time::sleep(Duration::from_millis(5)).await;
                            continue;
                        }
                    }
                }
                let after_sigterm = sigterm_sent.load(Ordering::SeqCst);
                let result = client
                    .as_mut()
                    .unwrap()
                    .select_play(request(&views, id))
                    .await;
                seen.push((
                    id,
                    match result {
                        Ok(reply) if reply.get_ref().seed == id => Seen::Ok { after_sigterm },
                        Ok(reply) => {
                            Seen::Failed(format!("wrong seed {} for {id}", reply.get_ref().seed))
                        }
                        Err(status) => {
                            let seen = classify(&status);
                            if matches!(seen, Seen::Refused(_)) {
                                // A dead connection: dial again for the next call.
                                client = None;
                                tokio::time::sleep(Duration::from_millis(5)).await;
                            }
                            seen
                        }
                    },
                ));
            }
            seen
        }));
    }

    tokio::time::sleep(SIGTERM_AFTER).await;
    let pid = child.id().to_string();
    sigterm_sent.store(true, Ordering::SeqCst);
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let sigterm_at = started.elapsed();
    let exit = tokio::task::spawn_blocking(move || {
        let limit = Instant::now() + HARD_LIMIT;
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > limit {
                let _ = child.kill();
                return child.wait().unwrap();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    })
    .await
    .unwrap();
    let exited_at = started.elapsed();
    // Keep calling a little after the exit: those calls must all be refused.
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, Ordering::Relaxed);
    let mut seen: HashMap<u64, Seen> = HashMap::new();
    for worker in workers {
        seen.extend(worker.await.unwrap());
    }
    reader.join().unwrap();
    log.extend(rx.try_iter());

    // The server's side: every select_play call its handler saw, by seed.
    let mut accepted: HashMap<u64, String> = HashMap::new();
    for line in &log {
        let json: serde_json::Value = serde_json::from_str(line).unwrap();
        let span = &json["span"];
        if span["rpc"] == "select_play"
            && let Some(seed) = span["seed"].as_u64()
        {
            let outcome = json["fields"]["outcome"]
                .as_str()
                .unwrap_or("?")
                .to_string();
            accepted.insert(seed, outcome);
        }
    }

    let mut ok = 0;
    let mut ok_after_sigterm = 0;
    let mut refused: HashMap<String, usize> = HashMap::new();
    let mut lost = Vec::new();
    let mut shed = 0;
    for (id, s) in &seen {
        match s {
            Seen::Shed => shed += 1,
            Seen::Ok { after_sigterm } => {
                ok += 1;
                ok_after_sigterm += usize::from(*after_sigterm);
            }
            Seen::Refused(why) => {
                if let Some(outcome) = accepted.get(id) {
                    lost.push(format!(
                        "call {id}: client saw {why:?}, server logged {outcome}"
                    ));
                } else {
                    let kind = why.split(':').next().unwrap_or(why).to_string();
                    *refused.entry(kind).or_default() += 1;
                }
            }
            Seen::Failed(why) => lost.push(format!("call {id}: {why}")),
        }
    }
    for (seed, outcome) in &accepted {
        let answered = match seen.get(seed) {
            Some(Seen::Ok { .. }) => true,
            Some(Seen::Shed) => outcome == "resource_exhausted",
            _ => false,
        };
        if *seed >= 1_000 && !answered {
            lost.push(format!(
                "call {seed}: server logged {outcome}, client saw {:?}",
                seen.get(seed)
            ));
        }
    }
    lost.sort();
    lost.dedup();
    let refused_total: usize = refused.values().sum();
    println!(
        "shutdown under load: {} calls ({} workers: {PERSISTENT_WORKERS} on one connection \
         each, {RECONNECTING_WORKERS} dialling per call; 1 in 4 EXPERT 50 ms)\n  \
         SIGTERM at {:.2} s, exit {:?} at {:.2} s (drain 300 ms)\n  \
         OK: {ok} ({ok_after_sigterm} sent after SIGTERM)\n  \
         answered RESOURCE_EXHAUSTED (overload, retryable): {shed}\n  \
         refused before acceptance: {refused_total} {refused:?}\n  \
         accepted by the server (logged): {}\n  \
         accepted then lost: {}",
        seen.len(),
        PERSISTENT_WORKERS + RECONNECTING_WORKERS,
        sigterm_at.as_secs_f64(),
        exit.code(),
        exited_at.as_secs_f64(),
        accepted.keys().filter(|&&s| s >= 1_000).count(),
        lost.len(),
    );
    for l in lost.iter().take(20) {
        println!("  LOST {l}");
    }
    assert_eq!(exit.code(), Some(0), "graceful exit");
    assert!(lost.is_empty(), "{} calls accepted then lost", lost.len());
    assert!(
        !accepted.is_empty(),
        "the server logged no call: the log check would prove nothing"
    );
    assert!(ok > 100, "too little load to mean anything: {ok} OK");
    assert!(ok_after_sigterm > 0, "no call was served during the drain");
    assert!(
        refused_total > 0,
        "no call reached the server after it stopped"
    );
}
