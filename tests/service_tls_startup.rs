//! The real binary with TLS: it serves TLS with good files, and refuses to start (exit
//! 64, one line naming the flag and the file) with a missing, unparsable, expired, not
//! yet valid or mismatched certificate or key, or with a TLS flag missing its pair.
mod common;

use common::tls::*;
use common::*;

#[test]
fn bad_tls_files_stop_the_start_with_the_file_named() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls-startup");
    let good = ca.server(VALID);
    let cert = dir.write("cert.pem", &good.cert);
    let key = dir.write("key.pem", &good.key);
    let client_ca = dir.write("client-ca.pem", &ca.pem());
    let missing = dir.path().join("missing.pem");
    let garbage = dir.write("garbage.pem", "-----BEGIN CERTIFICATE-----\nnot base64!\n");
    let empty = dir.write("empty.pem", "");
    let other_key = dir.write("other-key.pem", &ca.server(VALID).key);
    let expired = ca.server(EXPIRED);
    let expired_cert = dir.write("expired-cert.pem", &expired.cert);
    let expired_key = dir.write("expired-key.pem", &expired.key);
    let early = ca.server(NOT_YET_VALID);
    let early_cert = dir.write("early-cert.pem", &early.cert);
    let early_key = dir.write("early-key.pem", &early.key);
    let p = |path: &std::path::Path| path.to_str().unwrap().to_string();
    let (cert, key, client_ca, missing) = (p(&cert), p(&key), p(&client_ca), p(&missing));
    let addrs = [
        "--grpc-addr",
        "127.0.0.1:0",
        "--metrics-addr",
        "127.0.0.1:0",
    ];
    let run = |tls: &[&str], expected: &[&str]| {
        let args: Vec<&str> = addrs.iter().chain(tls).copied().collect();
        let stderr = bad_config(&args, &[], expected[0]);
        for part in expected {
            assert!(stderr.contains(part), "{part:?} not in {stderr:?}");
        }
    };

    // Missing and unreadable.
    run(
        &["--tls-cert", &missing, "--tls-key", &key],
        &["--tls-cert", &missing, "cannot be read"],
    );
    run(
        &["--tls-cert", &cert, "--tls-key", &missing],
        &["--tls-key", &missing, "cannot be read"],
    );
    let directory = p(dir.path());
    run(
        &["--tls-cert", &directory, "--tls-key", &key],
        &["--tls-cert", &directory, "cannot be read"],
    );
    run(
        &[
            "--tls-cert",
            &cert,
            "--tls-key",
            &key,
            "--tls-client-ca",
            &missing,
        ],
        &["--tls-client-ca", &missing, "cannot be read"],
    );
    // Unparsable.
    let (garbage, empty) = (p(&garbage), p(&empty));
    run(
        &["--tls-cert", &garbage, "--tls-key", &key],
        &["--tls-cert", &garbage],
    );
    run(
        &["--tls-cert", &empty, "--tls-key", &key],
        &["--tls-cert", &empty, "no CERTIFICATE"],
    );
    run(
        &["--tls-cert", &cert, "--tls-key", &cert],
        &["--tls-key", &cert, "no PRIVATE KEY"],
    );
    run(
        &[
            "--tls-cert",
            &cert,
            "--tls-key",
            &key,
            "--tls-client-ca",
            &empty,
        ],
        &["--tls-client-ca", &empty, "no CERTIFICATE"],
    );
    // Outside its validity.
    let (expired_cert, expired_key) = (p(&expired_cert), p(&expired_key));
    run(
        &["--tls-cert", &expired_cert, "--tls-key", &expired_key],
        &["--tls-cert", &expired_cert, "expired", "2001"],
    );
    let (early_cert, early_key) = (p(&early_cert), p(&early_key));
    run(
        &["--tls-cert", &early_cert, "--tls-key", &early_key],
        &["--tls-cert", &early_cert, "not valid before", "2990"],
    );
    // A key that is not the certificate's.
    let other_key = p(&other_key);
    run(
        &["--tls-cert", &cert, "--tls-key", &other_key],
        &[
            "--tls-key",
            &other_key,
            "not the key of the certificate",
            &cert,
        ],
    );
    // From the environment: the variable is named too.
    let stderr = bad_config(
        &addrs,
        &[("CLIMBOT_TLS_CERT", &missing), ("CLIMBOT_TLS_KEY", &key)],
        &missing,
    );
    assert!(stderr.contains("CLIMBOT_TLS_CERT"), "{stderr}");

    // A flag without its pair.
    run(&["--tls-cert", &cert], &["--tls-cert needs --tls-key"]);
    run(&["--tls-key", &key], &["--tls-key needs --tls-cert"]);
    run(
        &["--tls-client-ca", &client_ca],
        &["--tls-client-ca needs --tls-cert and --tls-key"],
    );
    run(
        &["--tls-cert", &cert, "--tls-client-ca", &client_ca],
        &["--tls-cert needs --tls-key"],
    );
    let _ = bad_config(
        &addrs,
        &[("CLIMBOT_TLS_KEY", &key)],
        "--tls-key needs --tls-cert",
    );
}

#[tokio::test]
async fn the_binary_serves_mutual_tls_with_good_files() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls-startup");
    let leaf = ca.server(VALID);
    let cert = dir.write("cert.pem", &leaf.cert);
    let key = dir.write("key.pem", &leaf.key);
    let client_ca = dir.write("client-ca.pem", &ca.pem());
    let (mut child, addr) = spawn_server(
        1,
        &[
            "--tls-cert",
            cert.to_str().unwrap(),
            "--tls-key",
            key.to_str().unwrap(),
            "--tls-client-ca",
            client_ca.to_str().unwrap(),
        ],
    );
    let client = ca.client("client", VALID);
    let mut answered = None;
    for _ in 0..200 {
        if let Ok(channel) = tls_channel(addr, client_tls(&ca, Some(&client))).await
            && let Ok(answer) = tonic_health::pb::health_client::HealthClient::new(channel)
                .check(health_request(""))
                .await
        {
            answered = Some(answer.into_inner().status);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let refused = probe(addr, rustls_client(&ca, None)).await;
    let _ = child.kill();
    let _ = child.wait();
    assert!(answered.is_some(), "no health answer over mutual TLS");
    assert!(
        refused.is_err(),
        "a client without a certificate was served"
    );
}
