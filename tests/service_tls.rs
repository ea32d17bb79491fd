//! TLS on the gRPC port: a client that trusts the server's CA gets answers from
//! BotService, health and reflection, all on the one port; a plaintext client gets
//! none; the serving certificate's expiry is a gauge in `/metrics`.
mod common;

use common::tls::*;
use common::*;
use tonic::transport::Channel;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1;

#[tokio::test]
async fn a_client_that_trusts_the_ca_gets_answers() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls");
    let leaf = ca.server(VALID);
    let server = start_tls(tls_config(files(&dir, &leaf, None)), client_tls(&ca, None)).await;

    let mut bot = server.client().await;
    let answer = bot
        .select_play(select(lead_view(), climbot::pb::Difficulty::Easy))
        .await
        .expect("SelectPlay over TLS")
        .into_inner();
    assert!(answer.decision.is_some());

    let mut health = server.health().await;
    for service in ["", "climbot.v1.BotService"] {
        let status = health
            .check(health_request(service))
            .await
            .expect("health over TLS")
            .into_inner()
            .status;
        assert_eq!(
            status,
            tonic_health::pb::health_check_response::ServingStatus::Serving as i32
        );
    }

    let mut reflection =
        v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let mut responses = reflection
        .server_reflection_info(tokio_stream::iter(vec![request]))
        .await
        .expect("reflection over TLS")
        .into_inner();
    let first = responses.message().await.unwrap().unwrap();
    let Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        first.message_response
    else {
        panic!("not a service list: {first:?}");
    };
    assert!(
        list.service
            .iter()
            .any(|s| s.name == "climbot.v1.BotService")
    );

    // The bare handshake: HTTP/2 through ALPN, and the certificate served.
    let chain = probe(server.addr, rustls_client(&ca, None))
        .await
        .expect("a TLS handshake");
    assert_eq!(chain.first(), Some(&leaf.der()));
}

#[tokio::test]
async fn a_plaintext_client_gets_no_answer() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls");
    let server = start_tls(
        tls_config(files(&dir, &ca.server(VALID), None)),
        client_tls(&ca, None),
    )
    .await;

    let plaintext = Channel::from_shared(format!("http://{}", server.addr))
        .unwrap()
        .connect()
        .await;
    if let Ok(channel) = plaintext {
        let answer = HealthClient::new(channel.clone())
            .check(health_request(""))
            .await;
        assert!(
            answer.is_err(),
            "a plaintext health check answered: {answer:?}"
        );
        let answer = climbot::pb::bot_service_client::BotServiceClient::new(channel)
            .select_play(select(lead_view(), climbot::pb::Difficulty::Easy))
            .await;
        assert!(
            answer.is_err(),
            "a plaintext SelectPlay answered: {answer:?}"
        );
    }
    // A client that does not trust the server's CA refuses it.
    let other = Ca::new("another CA");
    let refused = probe(server.addr, rustls_client(&other, None)).await;
    assert!(refused.is_err(), "{refused:?}");
    // And the server still serves the clients that do.
    server
        .health()
        .await
        .check(health_request(""))
        .await
        .expect("health over TLS after the refusals");
}

#[tokio::test]
async fn the_certificate_expiry_is_a_gauge() {
    let ca = Ca::new("climbot test CA");
    let dir = TempDir::new("tls");
    let server = start_tls(
        tls_config(files(&dir, &ca.server(VALID), None)),
        client_tls(&ca, None),
    )
    .await;
    let scrape = server.scrape().await;
    // 2090-01-01T00:00:00Z.
    assert!(
        scrape.contains("climbot_tls_certificate_expiry_seconds 3786912000"),
        "{scrape}"
    );
    assert!(
        scrape.contains("# TYPE climbot_tls_certificate_expiry_seconds gauge"),
        "{scrape}"
    );
}
