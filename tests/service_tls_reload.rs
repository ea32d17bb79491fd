//! Certificate rotation: the files are replaced while a connection is open (as
//! Kubernetes updates a mounted Secret: a new directory, then a symlink swapped); the
//! open connection keeps working, new handshakes get the new certificate, and the
//! expiry gauge follows. A replacement that does not fit is refused and the previous
//! certificate stays.
#![cfg(unix)]
mod common;

use climbot::pb;
use common::tls::*;
use common::*;
use hyper_util::rt::TokioIo;
use rustls::pki_types::{CertificateDer, ServerName};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tonic::transport::Endpoint;
use tonic_health::pb::health_client::HealthClient;

/// Puts `cert` and `key` in a new directory `version` of `dir` and points `..data` at
/// it in one rename, as the kubelet does; `cert.pem` and `key.pem` link through it.
fn rotate(dir: &Path, version: &str, cert: &str, key: &str) {
    let target = dir.join(version);
    std::fs::create_dir(&target).unwrap();
    std::fs::write(target.join("cert.pem"), cert).unwrap();
    std::fs::write(target.join("key.pem"), key).unwrap();
    let staged = dir.join("..data_tmp");
    std::os::unix::fs::symlink(version, &staged).unwrap();
    std::fs::rename(&staged, dir.join("..data")).unwrap();
    for name in ["cert.pem", "key.pem"] {
        let link = dir.join(name);
        if std::fs::symlink_metadata(&link).is_err() {
            std::os::unix::fs::symlink(format!("..data/{name}"), link).unwrap();
        }
    }
}

/// Waits up to 10 s for new handshakes to get `expected`.
async fn served(server: &TestServer, ca: &Ca, expected: &CertificateDer<'static>) {
    let started = Instant::now();
    loop {
        let chain = probe(server.addr, rustls_client(ca, None))
            .await
            .expect("a handshake");
        if chain.first() == Some(expected) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "new handshakes still get the previous certificate"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn expiry_gauge(server: &TestServer) -> String {
    server
        .scrape()
        .await
        .lines()
        .find(|l| l.starts_with("climbot_tls_certificate_expiry_seconds "))
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn a_rotated_certificate_serves_new_handshakes_and_open_connections_go_on() {
    let ca = Ca::new("climbot test CA");
    let first = ca.server(VALID);
    let second = ca.server(((2000, 1, 1), (2091, 1, 1)));
    let third = ca.server(((2000, 1, 1), (2092, 1, 1)));
    let dir = TempDir::new("tls-reload");
    rotate(dir.path(), "v1", &first.cert, &first.key);
    let files = climbot::service::TlsFiles {
        cert: dir.path().join("cert.pem"),
        key: dir.path().join("key.pem"),
        client_ca: None,
        reload_interval: Duration::from_millis(100),
    };
    let server = start_tls(tls_config(files), client_tls(&ca, None)).await;
    assert_eq!(
        expiry_gauge(&server).await,
        "climbot_tls_certificate_expiry_seconds 3786912000"
    );

    // One connection, opened before the rotation, through a connector that counts the
    // connections tonic opens and keeps the certificate each got.
    let opened = Arc::new(AtomicUsize::new(0));
    let certificates = Arc::new(Mutex::new(Vec::new()));
    let connector = {
        let (opened, certificates, addr) = (opened.clone(), certificates.clone(), server.addr);
        let client = rustls_client(&ca, None);
        tower::service_fn(move |_: tonic::codegen::http::Uri| {
            let (opened, certificates, client) =
                (opened.clone(), certificates.clone(), client.clone());
            async move {
                opened.fetch_add(1, Ordering::SeqCst);
                let tcp = TcpStream::connect(addr).await?;
                let tls = tokio_rustls::TlsConnector::from(client)
                    .connect(ServerName::try_from("localhost").unwrap(), tcp)
                    .await?;
                let chain = tls.get_ref().1.peer_certificates().unwrap_or_default();
                certificates.lock().unwrap().push(chain[0].clone());
                Ok::<_, std::io::Error>(TokioIo::new(tls))
            }
        })
    };
    let channel = Endpoint::from_static("http://localhost")
        .connect_with_connector(connector)
        .await
        .unwrap();
    let mut health = HealthClient::new(channel.clone());
    let mut bot = pb::bot_service_client::BotServiceClient::new(channel);
    health.check(health_request("")).await.unwrap();
    assert_eq!(*certificates.lock().unwrap(), vec![first.der()]);

    // The rotation: new handshakes get the new certificate, the gauge its expiry.
    rotate(dir.path(), "v2", &second.cert, &second.key);
    served(&server, &ca, &second.der()).await;
    assert_eq!(
        expiry_gauge(&server).await,
        "climbot_tls_certificate_expiry_seconds 3818448000"
    );

    // The connection opened before it still answers, and is still the only one.
    health.check(health_request("")).await.unwrap();
    let answer = bot
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await
        .expect("SelectPlay on the connection opened before the rotation");
    assert!(answer.into_inner().decision.is_some());
    assert_eq!(opened.load(Ordering::SeqCst), 1, "tonic reconnected");

    // A rotation whose key is not the certificate's, then one whose certificate does
    // not parse, then an expired one: each refused, the second certificate stays.
    rotate(dir.path(), "v3", &third.cert, &first.key);
    tokio::time::sleep(Duration::from_millis(500)).await;
    served(&server, &ca, &second.der()).await;
    rotate(dir.path(), "v4", "not a certificate", &third.key);
    tokio::time::sleep(Duration::from_millis(500)).await;
    served(&server, &ca, &second.der()).await;
    let expired = ca.server(EXPIRED);
    rotate(dir.path(), "v5", &expired.cert, &expired.key);
    tokio::time::sleep(Duration::from_millis(500)).await;
    served(&server, &ca, &second.der()).await;
    assert_eq!(
        expiry_gauge(&server).await,
        "climbot_tls_certificate_expiry_seconds 3818448000"
    );

    // Then a good one is taken, written in place this time (no symlink).
    for (name, contents) in [("cert.pem", &third.cert), ("key.pem", &third.key)] {
        let staged = dir.path().join(format!("{name}.tmp"));
        std::fs::write(&staged, contents).unwrap();
        std::fs::rename(&staged, dir.path().join(name)).unwrap();
    }
    served(&server, &ca, &third.der()).await;
    health.check(health_request("")).await.unwrap();
    assert_eq!(opened.load(Ordering::SeqCst), 1, "tonic reconnected");
}
