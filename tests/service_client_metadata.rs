//! The `climbot-client` metadata key names the calling client; a value that is no valid
//! name is INVALID_ARGUMENT naming the key.
mod common;

use climbot::pb;
use common::*;
use tonic::Code;
use tonic::metadata::AsciiMetadataValue;

#[tokio::test]
async fn the_client_key_is_validated() {
    let server = start(test_config()).await;
    let mut client = server.client().await;

    // A valid name, or none at all, is served.
    for easy in [
        as_client(select(follow_view(), pb::Difficulty::Easy), "backend-7.eu"),
        tonic::Request::new(select(follow_view(), pb::Difficulty::Easy)),
    ] {
        client.select_play(easy).await.unwrap();
    }
    client
        .select_play(as_client(
            select(follow_view(), pb::Difficulty::Normal),
            "backend-7.eu",
        ))
        .await
        .unwrap();

    let too_long = "x".repeat(65);
    let bad_values: [&[u8]; 4] = [too_long.as_bytes(), b"two words", b"caf\xc3\xa9", b""];
    for bad in bad_values {
        let mut request = tonic::Request::new(select(follow_view(), pb::Difficulty::Easy));
        let value = AsciiMetadataValue::try_from(bad).unwrap();
        request.metadata_mut().insert("climbot-client", value);
        let status = client.select_play(request).await.unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{bad:?}: {status:?}");
        assert!(
            status.message().starts_with("climbot-client: "),
            "{bad:?}: {}",
            status.message()
        );
    }
}
