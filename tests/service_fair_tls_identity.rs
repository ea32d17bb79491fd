//! With mutual TLS, a call's client is its certificate's identity (the subject CN),
//! whatever the `climbot-client` metadata says.
mod common;

use climbot::pb;
use common::tls::*;
use common::*;

#[tokio::test]
async fn the_client_certificate_names_the_client() {
    let server_ca = Ca::new("climbot test server CA");
    let client_ca = Ca::new("climbot test client CA");
    let dir = TempDir::new("fair-mtls");
    let leaf = client_ca.client("search backend", VALID);
    let server = start_tls(
        tls_config(files(&dir, &server_ca.server(VALID), Some(&client_ca))),
        client_tls(&server_ca, Some(&leaf)),
    )
    .await;
    let mut client = server.client().await;
    for _ in 0..2 {
        client
            .select_play(as_client(
                select(follow_view(), pb::Difficulty::Normal),
                "spoofed",
            ))
            .await
            .unwrap();
    }
    let scraped = server.scrape().await;
    // Characters outside printable ASCII (the space) become `_`.
    assert!(
        scraped.contains("climbot_client_calls_total{client=\"search_backend\"} 2"),
        "{scraped}"
    );
    assert!(!scraped.contains("spoofed"), "{scraped}");
}
