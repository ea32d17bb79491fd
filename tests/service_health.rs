//! grpc.health.v1: SERVING once ready; NOT_SERVING for "" and the service while
//! draining; in-flight calls finish; `run` returns Ok.
mod common;

use climbot::pb;
use common::*;
use std::time::Duration;
use tonic_health::pb::health_check_response::ServingStatus;

const SERVICE: &str = "climbot.v1.BotService";

async fn status(
    health: &mut tonic_health::pb::health_client::HealthClient<tonic::transport::Channel>,
    name: &str,
) -> i32 {
    health
        .check(health_request(name))
        .await
        .unwrap()
        .into_inner()
        .status
}

#[tokio::test]
async fn serving_then_not_serving_while_draining() {
    let mut config = test_config();
    config.drain_delay = Duration::from_millis(700);
    let mut server = start(config).await;
    let mut health = server.health().await;
    assert_eq!(status(&mut health, "").await, ServingStatus::Serving as i32);
    assert_eq!(
        status(&mut health, SERVICE).await,
        ServingStatus::Serving as i32
    );
    let unknown = health
        .check(health_request("nope.Service"))
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), tonic::Code::NotFound);

    let mut watch = health
        .watch(health_request(SERVICE))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status,
        ServingStatus::Serving as i32
    );

    // A call in flight when the signal comes.
    let mut client = server.client().await;
    let mut long = select(undecided_view(), pb::Difficulty::Expert);
    long.budget_ms = Some(1_000);
    let in_flight = tokio::spawn(async move { client.select_play(long).await });
    tokio::time::sleep(Duration::from_millis(100)).await;

    assert!(!in_flight.is_finished(), "the call should still be running");
    server.begin_shutdown();
    assert_eq!(
        watch.message().await.unwrap().unwrap().status,
        ServingStatus::NotServing as i32
    );
    drop(watch);
    assert_eq!(
        status(&mut health, "").await,
        ServingStatus::NotServing as i32
    );
    assert_eq!(
        status(&mut health, SERVICE).await,
        ServingStatus::NotServing as i32
    );
    drop(health);

    let response = in_flight
        .await
        .unwrap()
        .expect("the in-flight call completes");
    assert!(response.into_inner().decision.is_some());
    tokio::time::timeout(Duration::from_secs(4), server.stopped())
        .await
        .expect("stopped within the grace")
        .expect("run returns Ok");
}
