//! The playground's connection bounds against a real server on 127.0.0.1:0: a capped
//! number of connections (the next is answered once one closes), idle connections
//! closed, a request whose body trickles in answered 408, and a connection whose
//! headers trickle in closed.

mod common;

use climbot::playground::Config;
use common::playground::start_playground as start;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Reads until the server closes or `wait` passes; what came, and whether it closed.
fn read_within(stream: &mut TcpStream, wait: Duration) -> (String, bool) {
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&out).into_owned(), true),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return (String::from_utf8_lossy(&out).into_owned(), false);
            }
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {
                return (String::from_utf8_lossy(&out).into_owned(), true);
            }
            Err(e) => panic!("read: {e}"),
        }
    }
}

const GET_UNKNOWN_TABLE: &str =
    "GET /api/tables/999 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";

#[test]
fn connections_over_the_cap_wait_for_a_free_one() {
    let addr = start(Config {
        max_connections: 2,
        ..Config::default()
    });
    let held: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let mut third = TcpStream::connect(addr).unwrap();
    third.write_all(GET_UNKNOWN_TABLE.as_bytes()).unwrap();
    let (early, closed) = read_within(&mut third, Duration::from_millis(700));
    assert!(
        early.is_empty() && !closed,
        "answered over the cap: {early:?}"
    );
    drop(held);
    let (answer, _) = read_within(&mut third, Duration::from_secs(30));
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer:?}");
}

#[test]
fn idle_connections_are_closed() {
    let addr = start(Config {
        connection_idle: Duration::from_millis(300),
        ..Config::default()
    });
    let mut idle = TcpStream::connect(addr).unwrap();
    let (nothing, closed) = read_within(&mut idle, Duration::from_secs(30));
    assert!(closed && nothing.is_empty(), "{nothing:?}");
    // A fresh connection is served as usual.
    let mut fresh = TcpStream::connect(addr).unwrap();
    fresh.write_all(GET_UNKNOWN_TABLE.as_bytes()).unwrap();
    let (answer, _) = read_within(&mut fresh, Duration::from_secs(30));
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer:?}");
}

#[test]
fn a_trickling_body_is_answered_408() {
    let addr = start(Config {
        request_timeout: Duration::from_millis(300),
        connection_idle: Duration::from_secs(60),
        ..Config::default()
    });
    let mut slow = TcpStream::connect(addr).unwrap();
    write!(
        slow,
        "POST /api/tables HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"game\""
    )
    .unwrap();
    let (answer, _) = read_within(&mut slow, Duration::from_secs(30));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(answer.contains("took longer"), "{answer:?}");
}

#[test]
fn headers_that_trickle_in_close_the_connection() {
    let header_read_timeout = Duration::from_millis(600);
    let addr = start(Config {
        header_read_timeout,
        request_timeout: Duration::from_secs(60),
        connection_idle: Duration::from_secs(60),
        ..Config::default()
    });
    // One byte every 50 ms: never idle, never a whole request line and headers.
    let trickle = format!(
        "GET /api/tables/999 HTTP/1.1\r\nX-Slow: {}",
        "a".repeat(400)
    );
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let opened = Instant::now();
    let mut closed_after = None;
    for byte in trickle.bytes() {
        if slow.write_all(&[byte]).is_err() {
            closed_after = Some(opened.elapsed());
            break;
        }
        let mut buf = [0u8; 256];
        match slow.read(&mut buf) {
            Ok(0) => {
                closed_after = Some(opened.elapsed());
                break;
            }
            Ok(n) => panic!("answered: {:?}", String::from_utf8_lossy(&buf[..n])),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => {
                closed_after = Some(opened.elapsed());
                break;
            }
        }
    }
    let closed_after = closed_after.expect("the trickling connection was never closed");
    assert!(
        closed_after >= header_read_timeout,
        "closed early: {closed_after:?}"
    );
    assert!(
        closed_after < Duration::from_secs(10),
        "closed late: {closed_after:?}"
    );
    // Whole headers in time are served as usual.
    let mut fresh = TcpStream::connect(addr).unwrap();
    fresh.write_all(GET_UNKNOWN_TABLE.as_bytes()).unwrap();
    let (answer, _) = read_within(&mut fresh, Duration::from_secs(30));
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer:?}");
}
