//! Server reflection v1 and v1alpha list BotService and health, and serve its schema.
mod common;

use common::*;
use tonic_reflection::pb::{v1, v1alpha};

#[tokio::test]
async fn reflection_v1_lists_and_describes_the_service() {
    let server = start(test_config()).await;
    let mut client =
        v1::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let requests = vec![
        v1::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(v1::server_reflection_request::MessageRequest::ListServices(
                String::new(),
            )),
        },
        v1::ServerReflectionRequest {
            host: String::new(),
            message_request: Some(
                v1::server_reflection_request::MessageRequest::FileContainingSymbol(
                    "climbot.v1.BotService".into(),
                ),
            ),
        },
    ];
    let mut responses = client
        .server_reflection_info(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();
    let first = responses.message().await.unwrap().unwrap();
    let Some(v1::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        first.message_response
    else {
        panic!("not a service list: {first:?}");
    };
    let names: Vec<_> = list.service.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"climbot.v1.BotService"), "{names:?}");
    assert!(names.contains(&"grpc.health.v1.Health"), "{names:?}");
    let second = responses.message().await.unwrap().unwrap();
    let Some(v1::server_reflection_response::MessageResponse::FileDescriptorResponse(files)) =
        second.message_response
    else {
        panic!("not a descriptor: {second:?}");
    };
    assert!(!files.file_descriptor_proto.is_empty());
}

#[tokio::test]
async fn reflection_v1alpha_lists_the_service() {
    let server = start(test_config()).await;
    let mut client =
        v1alpha::server_reflection_client::ServerReflectionClient::new(server.channel().await);
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            v1alpha::server_reflection_request::MessageRequest::ListServices(String::new()),
        ),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::once(request))
        .await
        .unwrap()
        .into_inner();
    let first = responses.message().await.unwrap().unwrap();
    let Some(v1alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        first.message_response
    else {
        panic!("not a service list: {first:?}");
    };
    assert!(
        list.service
            .iter()
            .any(|s| s.name == "climbot.v1.BotService")
    );
}
