//! `climbot playground --via`: every bot decides through a real climbot server, with the
//! seed the in-process table would use (and, for EXPERT, the same number of playouts),
//! so a bot-only table plays the same moves and explains them the same way either way.

mod common;

use climbot::arena::remote::Remote;
use climbot::playground::Config;
use common::playground::{call, start_playground};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

/// Starts the gRPC service on a runtime of its own thread: its gRPC and metrics
/// addresses.
fn start_service() -> (SocketAddr, SocketAddr) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async {
            let server = common::start(common::test_config()).await;
            tx.send((server.addr, server.metrics_addr)).unwrap();
            std::future::pending::<()>().await;
        });
    });
    rx.recv().unwrap()
}

/// Steps the bot-only table `spec` to its end; every move with its explanation.
fn watch_to_the_end(addr: SocketAddr, spec: &Value) -> Vec<Value> {
    let (status, state) = call(addr, "POST", "/api/tables", Some(spec));
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_string();
    for _ in 0..1000 {
        let (status, state) = call(addr, "POST", &format!("/api/tables/{id}/step"), None);
        if status == 409 {
            let (_, state) = call(addr, "GET", &format!("/api/tables/{id}"), None);
            assert_eq!(state["status"], "over", "{state}");
            let moves = state["moves"].as_array().unwrap().len();
            return (0..moves)
                .map(|n| call(addr, "GET", &format!("/api/tables/{id}/moves/{n}"), None).1)
                .collect();
        }
        assert_eq!(status, 200, "{state}");
    }
    panic!("the round did not end")
}

/// Watches the bot-only table `spec` to its end on a playground whose bots decide
/// through the server at `grpc` and on one that decides in process, both with `config`;
/// asserts that no decision failed and that both played and explained the same moves,
/// and returns them.
fn watch_both_ways(grpc: SocketAddr, config: Config, spec: &Value) -> Vec<Value> {
    let remote = Remote::connect(&format!("http://{grpc}")).unwrap();
    let via = start_playground(Config {
        remote: Some(Arc::new(remote)),
        ..config.clone()
    });
    let local = start_playground(config);
    let remote_moves = watch_to_the_end(via, spec);
    let local_moves = watch_to_the_end(local, spec);
    assert!(
        remote_moves.iter().all(|m| m["error"].is_null()),
        "{remote_moves:?}"
    );
    assert_eq!(remote_moves, local_moves);
    remote_moves
}

#[test]
fn bots_through_a_server_play_and_explain_as_in_process() {
    let (grpc, metrics) = start_service();
    let table = json!({"game": "lexio", "players": 4,
        "levels": ["easy", "normal", "hard", "hard"], "seed": 31, "rounds": 1});
    let remote_moves = watch_both_ways(grpc, Config::default(), &table);
    assert!(
        remote_moves
            .iter()
            .any(|m| m["level"] == "hard" && m["explanation"].as_array().unwrap().len() > 1)
    );

    let scrape = common::http_get(metrics, "/metrics");
    let served: u64 = scrape
        .lines()
        .filter(|l| l.starts_with("climbot_requests_total{rpc=\"select_play\",game=\"lexio\""))
        .filter(|l| l.contains("code=\"ok\""))
        .filter_map(|l| l.rsplit(" ").next()?.parse::<u64>().ok())
        .sum();
    assert_eq!(
        served as usize,
        remote_moves.len(),
        "one SelectPlay per bot move"
    );
}

/// The playouts an EXPERT candidate was given (its `playouts` score term).
fn playouts(candidate: &Value) -> u64 {
    candidate["terms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "playouts")
        .and_then(|t| t["value"].as_f64())
        .unwrap_or(0.0) as u64
}

#[test]
fn an_expert_seat_through_a_server_searches_as_in_process() {
    let (grpc, _) = start_service();
    // Few playouts: the search ends on its count long before the server's budget, which
    // would otherwise cut it short at a point that depends on the machine.
    let config = Config {
        expert_iterations: Some(300),
        ..Config::default()
    };
    let table = json!({"game": "dalmuti", "players": 4,
        "levels": ["expert", "easy", "hard", "easy"], "seed": 12, "rounds": 1});
    let remote_moves = watch_both_ways(grpc, config, &table);
    let searched: Vec<&Value> = remote_moves
        .iter()
        .filter(|m| m["level"] == "expert" && m["explanation"].as_array().unwrap().len() > 1)
        .collect();
    assert!(!searched.is_empty(), "{remote_moves:?}");
    for m in searched {
        let total: u64 = m["explanation"]
            .as_array()
            .unwrap()
            .iter()
            .map(playouts)
            .sum();
        assert!(total > 0 && total <= 300, "{m}");
    }
}
