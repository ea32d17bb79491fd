//! Mutual TLS: a client with a certificate signed by the client CA gets answers (health
//! and reflection too, on the same port); one without a certificate, with one from
//! another CA or with an expired one is refused at the handshake, and the server goes
//! on serving the others.
mod common;

use climbot::pb;
use common::tls::*;
use common::*;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1;

/// `probe`'s error, which must be the server's alert `alert`.
async fn refused(server: &TestServer, client: std::sync::Arc<rustls::ClientConfig>, alert: &str) {
    let error = probe(server.addr, client)
        .await
        .expect_err("the handshake should be refused");
    assert!(
        error.contains("received fatal alert") && error.contains(alert),
        "not refused with {alert}: {error}"
    );
}

/// Neither tonic's channel nor its calls get an answer with `tls`.
async fn no_answer(server: &TestServer, tls: tonic::transport::ClientTlsConfig) {
    let Ok(channel) = tls_channel(server.addr, tls).await else {
        return;
    };
    let health = HealthClient::new(channel.clone())
        .check(health_request(""))
        .await;
    assert!(health.is_err(), "health answered: {health:?}");
    let select = pb::bot_service_client::BotServiceClient::new(channel)
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await;
    assert!(select.is_err(), "SelectPlay answered: {select:?}");
}

#[tokio::test]
async fn only_clients_with_a_certificate_of_the_client_ca_are_served() {
    let server_ca = Ca::new("climbot test server CA");
    let client_ca = Ca::new("climbot test client CA");
    let other_ca = Ca::new("another client CA");
    let dir = TempDir::new("mtls");
    let good = client_ca.client("good client", VALID);
    let server = start_tls(
        tls_config(files(&dir, &server_ca.server(VALID), Some(&client_ca))),
        client_tls(&server_ca, Some(&good)),
    )
    .await;

    // With a certificate of the client CA: answers from BotService, health, reflection.
    let answer = server
        .client()
        .await
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await
        .expect("SelectPlay with a client certificate")
        .into_inner();
    assert!(answer.decision.is_some());
    server
        .health()
        .await
        .check(health_request("climbot.v1.BotService"))
        .await
        .expect("health with a client certificate");
    let mut reflection =
        v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let list = v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(
            String::new(),
        )),
    };
    let mut responses = reflection
        .server_reflection_info(tokio_stream::iter(vec![list]))
        .await
        .expect("reflection with a client certificate")
        .into_inner();
    assert!(responses.message().await.unwrap().is_some());
    probe(server.addr, rustls_client(&server_ca, Some(&good)))
        .await
        .expect("a handshake with a client certificate");

    // Without a certificate, with one of another CA, with an expired one: refused at
    // the handshake, with the alert that says why.
    refused(
        &server,
        rustls_client(&server_ca, None),
        "CertificateRequired",
    )
    .await;
    let stranger = other_ca.client("stranger", VALID);
    refused(
        &server,
        rustls_client(&server_ca, Some(&stranger)),
        "UnknownCA",
    )
    .await;
    let expired = client_ca.client("expired client", EXPIRED);
    refused(
        &server,
        rustls_client(&server_ca, Some(&expired)),
        "CertificateExpired",
    )
    .await;

    // tonic's clients get nothing either, health and reflection included.
    no_answer(&server, client_tls(&server_ca, None)).await;
    no_answer(&server, client_tls(&server_ca, Some(&stranger))).await;
    no_answer(&server, client_tls(&server_ca, Some(&expired))).await;
    if let Ok(channel) = tls_channel(server.addr, client_tls(&server_ca, None)).await {
        let reflected = v1::server_reflection_client::ServerReflectionClient::new(channel)
            .server_reflection_info(tokio_stream::iter(Vec::<v1::ServerReflectionRequest>::new()))
            .await;
        assert!(
            reflected.is_err(),
            "reflection answered without a certificate"
        );
    }

    // The refusals cost the others nothing.
    server
        .health()
        .await
        .check(health_request(""))
        .await
        .expect("health with a client certificate after the refusals");
}
