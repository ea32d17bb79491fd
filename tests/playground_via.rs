//! `climbot playground --via`: every bot decides through a real climbot server, with the
//! seed the in-process table would use (and, for EXPERT, the same number of playouts),
//! so a bot-only table plays the same moves and explains them the same way either way
//! (bots at a strength too, the server choosing the dial's setting); hints and reviews are the server's AnalyzePlay, the same as in process.

mod common;

use climbot::arena::remote::Remote;
use climbot::dalmuti::Dalmuti;
use climbot::dial::{DialTable, table_text};
use climbot::game::GameKind;
use climbot::playground::Config;
use common::playground::{advance, call, start_playground};
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

#[test]
fn bots_at_a_strength_through_a_server_play_as_in_process() {
    let (grpc, _metrics) = start_service();
    // Not Lexio: another test counts the server's Lexio calls in the process's metrics.
    let table = json!({"game": "dalmuti", "players": 4,
        "levels": [0, 760, 1100, "hard"], "seed": 12, "rounds": 1});
    let moves = watch_both_ways(grpc, Config::default(), &table);
    assert!(!moves.is_empty());
    // The levels the shipped dial's settings nearest 0 (its weakest), 760 and 1100 are
    // built from.
    let dial = DialTable::<Dalmuti>::parse(table_text(GameKind::Dalmuti)).unwrap();
    let level_at = |strength: f64| dial.nearest(strength).base().name();
    for m in &moves {
        let (level, strength) = match m["player"].as_u64().unwrap() {
            0 => (level_at(0.0), json!(0)),
            1 => (level_at(760.0), json!(760)),
            2 => (level_at(1100.0), json!(1100)),
            _ => ("hard", Value::Null),
        };
        assert_eq!(
            (&m["level"], &m["strength"]),
            (&json!(level), &strength),
            "{m}"
        );
    }
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

/// Plays the human table `spec` to its end (the human takes the first legal action),
/// asking for a hint on every human turn; the hints and the review of every deal.
fn hints_and_reviews(addr: SocketAddr, spec: &Value) -> (Vec<Value>, Vec<Value>) {
    let (status, state) = call(addr, "POST", "/api/tables", Some(spec));
    assert_eq!(status, 201, "{state}");
    let path = format!("/api/tables/{}", state["id"].as_str().unwrap());
    let mut hints = Vec::new();
    for _ in 0..5000 {
        let (_, state) = call(addr, "GET", &path, None);
        if state["status"] == "over" {
            let reviews = state["reviewable"]
                .as_array()
                .unwrap()
                .iter()
                .map(|deal| {
                    let (status, review) =
                        call(addr, "GET", &format!("{path}/review/{deal}"), None);
                    assert_eq!(status, 200, "{review}");
                    review
                })
                .collect();
            return (hints, reviews);
        }
        if state["status"] == "your_turn" {
            let (status, hint) = call(addr, "POST", &format!("{path}/hint"), None);
            assert_eq!(status, 200, "{hint}");
            hints.push(hint);
        }
        let (status, after) = advance(addr, &path, &state);
        assert_eq!(status, 200, "{after}");
    }
    panic!("the table did not finish")
}

#[test]
fn hints_and_reviews_through_a_server_are_as_in_process() {
    let (grpc, metrics) = start_service();
    // Few playouts: each analysis ends on its count long before the server's budget.
    let config = Config {
        expert_iterations: Some(30),
        ..Config::default()
    };
    let remote = Remote::connect(&format!("http://{grpc}")).unwrap();
    let via = start_playground(Config {
        remote: Some(Arc::new(remote)),
        ..config.clone()
    });
    let local = start_playground(config);
    // Two Dalmuti hands: the human finishes the first among the Dalmutis and returns cards
    // in the second's tax, which is not analyzed.
    let table = json!({"game": "dalmuti", "players": 4, "human_seat": 1,
        "levels": ["easy", "hard", "easy"], "seed": 9, "rounds": 2});
    let (remote_hints, remote_reviews) = hints_and_reviews(via, &table);
    let (local_hints, local_reviews) = hints_and_reviews(local, &table);
    assert!(!remote_hints.is_empty());
    assert!(remote_hints.iter().any(|h| h["analyzed"] == true));
    assert_eq!(remote_hints, local_hints);
    assert_eq!(remote_reviews.len(), 2, "{remote_reviews:?}");
    assert_eq!(remote_reviews, local_reviews);
    let analyzed = remote_reviews
        .iter()
        .flat_map(|r| r["decisions"].as_array().unwrap())
        .filter(|e| e["analyzed"] == true)
        .count();
    assert!(analyzed > 0, "{remote_reviews:?}");
    let unanalyzed = remote_reviews
        .iter()
        .flat_map(|r| r["decisions"].as_array().unwrap())
        .filter(|e| e["analyzed"] == false && e["forced"] == false)
        .count();
    assert_eq!(unanalyzed, 1, "the tax return: {remote_reviews:?}");
    assert_eq!(
        remote_hints
            .iter()
            .filter(|h| h["analyzed"] == false)
            .count(),
        1,
        "no hint for the tax return"
    );

    let scrape = common::http_get(metrics, "/metrics");
    let served: u64 = scrape
        .lines()
        .filter(|l| l.starts_with("climbot_requests_total{rpc=\"analyze_play\""))
        .filter_map(|l| l.rsplit(" ").next()?.parse::<u64>().ok())
        .sum();
    assert!(served > 0, "the server analyzed: {scrape}");
}
