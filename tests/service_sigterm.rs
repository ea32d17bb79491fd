//! The real binary: SIGTERM -> NOT_SERVING -> the in-flight call completes -> exit 0;
//! a bad configuration exits 64 with one line.
mod common;

use climbot::pb;
use common::*;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

#[tokio::test]
async fn sigterm_lets_the_in_flight_call_finish_then_exits_0() {
    let mut child = climbot_command()
        .args([
            "serve",
            "--grpc-addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--shutdown-grace",
            "5s",
            // Successful calls are logged at debug.
            "--log",
            "info,climbot::service::handler=debug",
        ])
        .env_remove("CLIMBOT_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut log = Vec::new();
    let addr = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("a start log line");
        log.push(line.clone());
        let json: serde_json::Value = serde_json::from_str(&line).expect("JSON logs");
        if json["fields"]["message"] == "climbot starting" {
            assert_eq!(json["fields"]["version"], env!("CARGO_PKG_VERSION"));
            break json["fields"]["grpc_addr"].as_str().unwrap().to_string();
        }
    };

    let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))
        .unwrap()
        .connect_timeout(Duration::from_secs(5));
    let mut client = loop {
        if let Ok(c) = channel.connect().await {
            break pb::bot_service_client::BotServiceClient::new(c);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mut long = select(undecided_view(), pb::Difficulty::Expert);
    long.budget_ms = Some(1_500);
    let call = tokio::spawn(async move { client.select_play(long).await });
    tokio::time::sleep(Duration::from_millis(300)).await;

    assert!(!call.is_finished(), "the call should still be running");
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());

    let response = call
        .await
        .unwrap()
        .expect("the in-flight call completes after SIGTERM");
    assert!(response.into_inner().decision.is_some());
    let status = tokio::task::spawn_blocking(move || child.wait().unwrap())
        .await
        .unwrap();
    assert_eq!(status.code(), Some(0));
    log.extend(rx.try_iter());
    let log = log.join("\n");
    for expected in [
        "SIGTERM received",
        "NOT_SERVING",
        "\"outcome\":\"ok\"",
        "exit 0",
    ] {
        assert!(log.contains(expected), "no {expected:?} in the log:\n{log}");
    }
}

#[test]
fn a_bad_configuration_exits_64_with_one_line() {
    bad_config(&["--max-budget-ms", "0"], &[], "--max-budget-ms");
    bad_config(&["--grpc-addr", "nowhere"], &[], "--grpc-addr");
    bad_config(&["--shutdown-grace", "soon"], &[], "--shutdown-grace");
    bad_config(&["--log-format", "xml"], &[], "--log-format");
    bad_config(&["--no-such-flag"], &[], "--no-such-flag");
    bad_config(&[], &[("CLIMBOT_DECISION_SLOTS", "0")], "--decision-slots");
    bad_config(&["--client-weights", "search=0"], &[], "--client-weights");
    bad_config(
        &[],
        &[("CLIMBOT_CLIENT_WEIGHTS", "two words=2")],
        "--client-weights set by the environment variable CLIMBOT_CLIENT_WEIGHTS",
    );
    bad_config(
        &["--client-metric-labels", "5000"],
        &[],
        "--client-metric-labels",
    );
    bad_config(
        &[],
        &[("CLIMBOT_DEFAULT_DIFFICULTY", "godlike")],
        "default-difficulty",
    );
}
