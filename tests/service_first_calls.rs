//! A fresh server (the real binary, its own process): every series the alert rules
//! read is in `/metrics` from the first scrape, at zero, and the first call of a level
//! costs what the later ones do, since the server warms what the bots cache before it
//! reports SERVING.
mod common;

use climbot::pb;
use common::*;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Stdio};
use std::time::Duration;

/// The binary serving on ephemeral ports, and its gRPC and metrics addresses, once it
/// answers SERVING.
async fn serving() -> (Child, SocketAddr, SocketAddr) {
    let mut child = climbot_command()
        .args([
            "serve",
            "--grpc-addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--decision-slots",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let (grpc, metrics) = loop {
        let line = lines.next().expect("a start line").unwrap();
        let json: serde_json::Value = serde_json::from_str(&line).unwrap();
        if json["fields"]["message"] == "climbot starting" {
            let addr = |key: &str| json["fields"][key].as_str().unwrap().parse().unwrap();
            break (addr("grpc_addr"), addr("metrics_addr"));
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let channel = tonic::transport::Channel::from_shared(format!("http://{grpc}"))
        .unwrap()
        .connect_lazy();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    for _ in 0..3000 {
        if let Ok(r) = health.check(health_request("")).await
            && r.into_inner().status
                == tonic_health::pb::health_check_response::ServingStatus::Serving as i32
        {
            return (child, grpc, metrics);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    panic!("the server did not become SERVING");
}

/// Every `climbot_*` metric name the alert rules read (a histogram by its name).
fn alerted_metrics() -> Vec<String> {
    let rules = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/deploy/prometheus/alerts.yaml"
    ))
    .unwrap();
    let mut names: Vec<String> = rules
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("climbot_"))
        .map(|w| w.trim_end_matches("_bucket").to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

#[tokio::test]
async fn every_series_the_alerts_read_is_there_from_the_first_scrape() {
    let (mut child, _, metrics) = serving().await;
    let scrape = tokio::task::spawn_blocking(move || http_get(metrics, "/metrics"))
        .await
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let names = alerted_metrics();
    assert!(names.len() >= 4, "{names:?}");
    // The certificate's expiry exists only with TLS on (this server is plaintext);
    // `service_tls` checks it from the first scrape of a TLS server.
    let names = names
        .into_iter()
        .filter(|name| name != "climbot_tls_certificate_expiry_seconds");
    for name in names {
        assert!(
            scrape.contains(&format!("\n{name}")),
            "{name} is not in the first scrape:\n{scrape}"
        );
    }
    for series in [
        r#"climbot_panics_total{rpc="select_play",game="lexio",difficulty="expert"} 0"#,
        r#"climbot_panics_total{rpc="select_play",game="unknown",difficulty="unknown"} 0"#,
        r#"climbot_panics_total{rpc="list_legal_plays",game="daifugo",difficulty="none"} 0"#,
        r#"climbot_withheld_answers_total{rpc="select_play"} 0"#,
        r#"climbot_withheld_answers_total{rpc="other"} 0"#,
        r#"climbot_fallbacks_total{game="dalmuti",difficulty="expert"} 0"#,
        r#"climbot_requests_total{rpc="select_play",game="lexio",difficulty="hard",code="internal"} 0"#,
        r#"climbot_requests_total{rpc="select_play",game="daifugo",difficulty="easy",code="ok"} 0"#,
        r#"climbot_requests_total{rpc="list_legal_plays",game="lexio",difficulty="none",code="invalid_argument"} 0"#,
        r#"climbot_select_play_duration_seconds_count{game="lexio",difficulty="normal",outcome="ok"} 0"#,
    ] {
        assert!(scrape.contains(series), "no {series} in\n{scrape}");
    }
}

#[tokio::test]
async fn the_first_call_costs_what_the_later_ones_do() {
    let (mut child, grpc, _) = serving().await;
    let channel = tonic::transport::Channel::from_shared(format!("http://{grpc}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = pb::bot_service_client::BotServiceClient::new(channel);
    // Lexio NORMAL reads the safety table and the deck's keys, built once per process.
    let mut micros = Vec::new();
    for _ in 0..9 {
        let request = select(follow_view(), pb::Difficulty::Normal);
        let answer = client.select_play(request).await.unwrap().into_inner();
        micros.push(answer.compute_micros);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let mut later = micros[1..].to_vec();
    later.sort_unstable();
    let median = later[later.len() / 2];
    assert!(
        micros[0] <= 3 * median + 500,
        "the first call took {} µs, the later ones {median} µs (median): {micros:?}",
        micros[0]
    );
}
