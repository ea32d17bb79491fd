//! The playground's JSON API against a real server on 127.0.0.1:0: a whole Lexio round,
//! a whole Daifugo game and a whole Dalmuti hand with a human seat that always takes the first legal
//! action, illegal actions refused without any change, and bad requests answered with
//! the field at fault.

use climbot::playground::{Config, serve};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

/// Starts a playground on a free port, on a runtime of its own thread.
fn start() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            serve(listener, Config::default(), std::future::pending())
                .await
                .unwrap();
        });
    });
    rx.recv().unwrap()
}

/// One HTTP/1.1 request; the status and the JSON body.
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    s.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let (_, body) = response.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Plays the table to the end: the human takes the first legal action, and once per
/// human turn an illegal action is tried and must change nothing. Returns the final
/// state and the number of human actions.
fn play_to_the_end(addr: SocketAddr, id: &str, illegal: &Value) -> (Value, usize) {
    let path = format!("/api/tables/{id}");
    let mut human_actions = 0;
    for _ in 0..5000 {
        let (status, state) = call(addr, "GET", &path, None);
        assert_eq!(status, 200, "{state}");
        match state["status"].as_str().unwrap() {
            "your_turn" => {
                let legal = state["legal"].as_array().unwrap();
                assert!(!legal.is_empty());
                let (status, refused) = call(
                    addr,
                    "POST",
                    &format!("{path}/actions"),
                    Some(&json!({ "decision": illegal })),
                );
                assert_eq!(status, 400, "{refused}");
                assert_eq!(refused["field"], "decision");
                assert_eq!(
                    call(addr, "GET", &path, None).1,
                    state,
                    "a refusal changed the table"
                );
                let (status, after) = call(
                    addr,
                    "POST",
                    &format!("{path}/actions"),
                    Some(&json!({ "decision": legal[0] })),
                );
                assert_eq!(status, 200, "{after}");
                human_actions += 1;
            }
            "bot_turn" => {
                let (status, after) = call(addr, "POST", &format!("{path}/step"), None);
                assert_eq!(status, 200, "{after}");
            }
            "deciding" => std::thread::sleep(std::time::Duration::from_millis(10)),
            "over" => return (state, human_actions),
            other => panic!("status {other}: {state}"),
        }
    }
    panic!("the table did not finish")
}

#[test]
fn a_whole_lexio_round_through_the_api() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "lexio", "players": 4, "human_seat": 1,
            "levels": ["easy", "normal", "hard"], "seed": 21, "rounds": 1})),
    );
    assert_eq!(status, 201, "{state}");
    assert_eq!(state["seats"], json!(["easy", "human", "normal", "hard"]));
    assert_eq!(state["seed"], 21);
    let id = state["id"].as_str().unwrap().to_string();
    // A tile nobody holds (Lexio numbers stop at 15).
    let illegal = json!({"lexio": {"play": {"tiles": [{"number": 99, "suit": "LEXIO_SUIT_SUN"}],
        "combination": "LEXIO_COMBINATION_SINGLE"}}});
    let (end, human_actions) = play_to_the_end(addr, &id, &illegal);
    assert!(human_actions > 0);
    let totals = &end["totals"]["seats"];
    let chips: i64 = (0..4)
        .map(|s| totals[s]["sums"][0].as_f64().unwrap() as i64)
        .sum();
    assert_eq!(chips, 0, "chips move between seats: {end}");
    assert_eq!(end["your_view"]["lexio"]["seat"], 1);

    // A bot's move above easy explains itself; a human's has no explanation.
    let moves = end["moves"].as_array().unwrap();
    let hard = moves.iter().find(|m| m["player"] == "hard").unwrap();
    let (status, explained) = call(
        addr,
        "GET",
        &format!("/api/tables/{id}/moves/{}", hard["index"]),
        None,
    );
    assert_eq!(status, 200);
    let chosen: Vec<&Value> = explained["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["chosen"] == true)
        .collect();
    assert_eq!(chosen.len(), 1, "{explained}");
    assert_eq!(chosen[0]["decision"], hard["decision"]);

    // The same seed and the same actions replay the same round.
    let (_, again) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "lexio", "players": 4, "human_seat": 1,
            "levels": ["easy", "normal", "hard"], "seed": 21, "rounds": 1})),
    );
    let (replayed, _) = play_to_the_end(addr, again["id"].as_str().unwrap(), &illegal);
    assert_eq!(replayed["moves"], end["moves"]);
    assert_eq!(replayed["totals"], end["totals"]);

    // The match is over: nothing more is accepted.
    let (status, _) = call(addr, "POST", &format!("/api/tables/{id}/step"), None);
    assert_eq!(status, 409);
}

#[test]
fn a_whole_daifugo_game_through_the_api() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(
            &json!({"game": "daifugo", "players": 4, "human_seat": 0, "rules": "house",
            "levels": ["hard", "normal", "easy"], "seed": 4, "rounds": 1}),
        ),
    );
    assert_eq!(status, 201, "{state}");
    assert_eq!(state["rules"], "house");
    let id = state["id"].as_str().unwrap().to_string();
    let illegal = json!({"daifugo": {"play": {"kind": "DAIFUGO_PLAY_KIND_SINGLE",
        "cards": [{"card": {"rank": 20, "suit": "DAIFUGO_SUIT_SPADES"}}]}}});
    let (end, human_actions) = play_to_the_end(addr, &id, &illegal);
    assert!(human_actions > 0);
    let places: Vec<f64> = (0..4)
        .map(|s| end["totals"]["seats"][s]["sums"][0].as_f64().unwrap())
        .collect();
    let mut sorted = places.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(
        sorted,
        vec![1.0, 2.0, 3.0, 4.0],
        "one place each: {places:?}"
    );
}

#[test]
fn a_whole_dalmuti_hand_through_the_api() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "dalmuti", "players": 5, "human_seat": 4,
            "levels": ["hard", "normal", "easy", "expert"], "seed": 8, "rounds": 1})),
    );
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_string();
    let illegal = json!({"dalmuti": {"play": {"rank": 14, "naturals": 1}}});
    let (end, human_actions) = play_to_the_end(addr, &id, &illegal);
    assert!(human_actions > 0);
    let places: f64 = (0..5)
        .map(|s| end["totals"]["seats"][s]["sums"][0].as_f64().unwrap())
        .sum();
    assert_eq!(places, 15.0, "places 1 to 5: {end}");
}

#[test]
fn bad_requests_name_the_field_and_unknown_tables_are_404() {
    let addr = start();
    for (body, field) in [
        (json!({"game": "go", "players": 4, "levels": []}), "game"),
        (
            json!({"game": "lexio", "players": 9, "levels": []}),
            "players",
        ),
        (
            json!({"game": "lexio", "players": 3, "levels": ["easy", "wise", "easy"]}),
            "levels[1]",
        ),
        (
            json!({"game": "lexio", "players": 3, "levels": ["easy"]}),
            "levels",
        ),
        (json!([1, 2]), "body"),
    ] {
        let (status, error) = call(addr, "POST", "/api/tables", Some(&body));
        assert_eq!(status, 400, "{body}: {error}");
        assert_eq!(error["field"], field, "{body}: {error}");
        assert!(
            error["error"].as_str().unwrap().starts_with(field),
            "{error}"
        );
    }
    let huge = json!({"game": "x".repeat(100_000)});
    let (status, error) = call(addr, "POST", "/api/tables", Some(&huge));
    assert_eq!(status, 413, "{error}");
    assert_eq!(error["field"], "body");
    let (status, _) = call(addr, "GET", "/api/tables/999", None);
    assert_eq!(status, 404);
    let (status, _) = call(addr, "POST", "/api/tables/1/step", None);
    assert_eq!(status, 404);
    let (status, page) = {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        (out[9..12].to_string(), out)
    };
    assert_eq!(status, "200");
    assert!(page.contains("playground.js"), "the page loads its script");
}
