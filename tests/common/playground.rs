//! The playground for its tests: one started on a free port, and one HTTP/1.1 call.

use climbot::playground::{Config, serve};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

/// Starts a playground with `config` on a free port, on a runtime of its own thread.
pub fn start_playground(config: Config) -> SocketAddr {
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
            serve(listener, config, std::future::pending())
                .await
                .unwrap();
        });
    });
    rx.recv().unwrap()
}

/// One HTTP/1.1 request; the status and the JSON body (`Null` when it is not JSON).
pub fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
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

/// Moves the table at `path` on by one step: the human's first legal decision when
/// `state` (the table's last state) says it is the human's turn, else one bot move.
/// The status and the state after.
pub fn advance(addr: SocketAddr, path: &str, state: &Value) -> (u16, Value) {
    if state["status"] == "your_turn" {
        let first = state["legal"][0].clone();
        call(
            addr,
            "POST",
            &format!("{path}/actions"),
            Some(&serde_json::json!({ "decision": first })),
        )
    } else {
        call(addr, "POST", &format!("{path}/step"), None)
    }
}
