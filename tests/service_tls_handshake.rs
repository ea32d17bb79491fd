//! The TLS handshake is bounded and isolated: a client that connects and sends nothing,
//! half a ClientHello, or a handshake without the HTTP/2 preface after it, is dropped at
//! the handshake timeout; garbage fails its handshake alone; meanwhile other clients are
//! served; a handshake in progress does not hold the server's shutdown.
mod common;

use common::tls::*;
use common::*;
use rustls::pki_types::ServerName;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads until the server closes the connection (or errs); how long that took.
async fn closed_after<S: tokio::io::AsyncRead + Unpin>(mut stream: S) -> Duration {
    let started = Instant::now();
    let mut buf = [0u8; 1024];
    let outcome = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await;
    assert!(outcome.is_ok(), "the server kept the connection open");
    started.elapsed()
}

#[tokio::test]
async fn stalled_handshakes_are_dropped_at_the_timeout_and_cost_the_others_nothing() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls-handshake");
    let mut config = tls_config(files(&dir, &ca.server(VALID), None));
    config.transport.handshake_timeout = Duration::from_millis(500);
    let server = start_tls(config, client_tls(&ca, None)).await;

    // Many connections that send nothing, and one that sends half a ClientHello.
    let mut silent = Vec::new();
    for _ in 0..50 {
        silent.push(TcpStream::connect(server.addr).await.unwrap());
    }
    let mut half = TcpStream::connect(server.addr).await.unwrap();
    // A TLS record header announcing a 512-byte handshake message, then 5 of its bytes.
    half.write_all(&[22, 3, 1, 2, 0, 1, 0, 1, 252, 3])
        .await
        .unwrap();
    // A handshake completed, and no HTTP/2 preface after it.
    let tcp = TcpStream::connect(server.addr).await.unwrap();
    let quiet = tokio_rustls::TlsConnector::from(rustls_client(&ca, None))
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .expect("a TLS handshake");
    // Garbage: fails its handshake at once.
    let mut garbage = TcpStream::connect(server.addr).await.unwrap();
    garbage
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    assert!(closed_after(&mut garbage).await < Duration::from_millis(400));

    // Meanwhile a client is served, at once.
    let started = Instant::now();
    probe(server.addr, rustls_client(&ca, None))
        .await
        .expect("a handshake beside the stalled ones");
    server
        .health()
        .await
        .check(health_request(""))
        .await
        .expect("health beside the stalled handshakes");
    assert!(started.elapsed() < Duration::from_secs(2));

    // Then each stalled one is dropped at the timeout.
    let first = silent.pop().unwrap();
    let waits = tokio::join!(closed_after(first), closed_after(half), closed_after(quiet));
    for waited in [waits.0, waits.1, waits.2] {
        assert!(waited < Duration::from_secs(3), "{waited:?}");
    }
    for stream in silent {
        closed_after(stream).await;
    }
    // And the server goes on.
    probe(server.addr, rustls_client(&ca, None))
        .await
        .expect("a handshake after the stalled ones");
}

#[tokio::test]
async fn a_handshake_in_progress_does_not_hold_the_shutdown() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls-handshake");
    let mut config = tls_config(files(&dir, &ca.server(VALID), None));
    config.transport.handshake_timeout = Duration::from_secs(60);
    let mut server = start_tls(config, client_tls(&ca, None)).await;
    let stalled = TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    server.begin_shutdown();
    server.stopped().await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    drop(stalled);
}
