//! Prometheus metrics: names, buckets, the process-wide recorder and a minimal
//! `GET /metrics` endpoint on its own port.

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::OnceLock;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};

/// Histogram of SelectPlay latency, labels `game`, `difficulty`, `outcome`.
pub const SELECT_PLAY_DURATION: &str = "climbot_select_play_duration_seconds";
/// Counter of calls, labels `rpc`, `game`, `difficulty`, `code`.
pub const REQUESTS: &str = "climbot_requests_total";
/// Counter of fallback answers, labels `game`, `difficulty`.
pub const FALLBACKS: &str = "climbot_fallbacks_total";
/// Gauge of decisions being computed.
pub const DECISIONS_IN_FLIGHT: &str = "climbot_decisions_in_flight";
/// Gauge, always 1, labels `version`.
pub const BUILD_INFO: &str = "climbot_build_info";

/// Histogram buckets in seconds: 50 us to 5 s.
pub const DURATION_BUCKETS: [f64; 16] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide recorder once and returns its handle. Servers started in
/// the same process (tests) share it.
pub fn install() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(SELECT_PLAY_DURATION.to_string()),
                    &DURATION_BUCKETS,
                )
                .expect("buckets are not empty")
                .build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics will be empty");
            }
            describe();
            metrics::gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
            metrics::gauge!(DECISIONS_IN_FLIGHT).set(0.0);
            handle
        })
        .clone()
}

fn describe() {
    metrics::describe_histogram!(
        SELECT_PLAY_DURATION,
        metrics::Unit::Seconds,
        "SelectPlay latency from arrival to answer"
    );
    metrics::describe_counter!(REQUESTS, "Calls by rpc, game, difficulty and gRPC code");
    metrics::describe_counter!(FALLBACKS, "Decisions answered by the easy fallback");
    metrics::describe_gauge!(DECISIONS_IN_FLIGHT, "Decisions being computed");
    metrics::describe_gauge!(BUILD_INFO, "Build information (always 1)");
}

/// Keeps `climbot_decisions_in_flight` up while alive.
pub struct InFlight(());

impl InFlight {
    /// Counts one decision in.
    pub fn enter() -> Self {
        metrics::gauge!(DECISIONS_IN_FLIGHT).increment(1.0);
        InFlight(())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        metrics::gauge!(DECISIONS_IN_FLIGHT).decrement(1.0);
    }
}

/// Serves `GET /metrics` on `listener` until the task is dropped, and runs the
/// recorder's upkeep.
pub async fn serve(listener: TcpListener, handle: PrometheusHandle) {
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(5));
        loop {
            tick.tick().await;
            upkeep.run_upkeep();
        }
    });
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let handle = handle.clone();
                tokio::spawn(async move {
                    let _ = tokio::time::timeout(Duration::from_secs(10), answer(stream, &handle))
                        .await;
                });
            }
            Err(error) => {
                tracing::warn!(%error, "metrics listener accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Answers one HTTP/1.x request (one per connection).
async fn answer(stream: TcpStream, handle: &PrometheusHandle) -> std::io::Result<()> {
    let mut request = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 16 * 1024 {
        stream.readable().await?;
        match stream.try_read(&mut buf) {
            Ok(0) => break,
            Ok(n) => request.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    let line = request.split(|&b| b == b'\r').next().unwrap_or_default();
    let mut parts = line.split(|&b| b == b' ');
    let method = parts.next().unwrap_or_default();
    let path = parts.next().unwrap_or_default();
    let path = path.split(|&b| b == b'?').next().unwrap_or_default();
    let (status, body) = if method == b"GET" && path == b"/metrics" {
        ("200 OK", handle.render())
    } else {
        ("404 Not Found", "not found; try GET /metrics\n".to_string())
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/plain; version=0.0.4; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut out = response.as_bytes();
    while !out.is_empty() {
        stream.writable().await?;
        match stream.try_write(out) {
            Ok(n) => out = &out[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
