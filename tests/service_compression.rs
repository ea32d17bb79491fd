//! Request compression (gzip, zstd) is accepted and answers are compressed when the
//! client asks; the size limit applies to a request once decompressed, so a
//! compression bomb is refused at the limit, quickly, and the server keeps serving.
mod common;

use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use common::*;
use prost::Message;
use std::io::Write;
use std::time::{Duration, Instant};
use tonic::Code;
use tonic::codec::CompressionEncoding;

#[tokio::test]
async fn gzip_and_zstd_requests_are_served_and_answers_compressed() {
    let server = start(test_config()).await;
    for (encoding, name) in [
        (CompressionEncoding::Gzip, "gzip"),
        (CompressionEncoding::Zstd, "zstd"),
    ] {
        let mut client = BotServiceClient::new(server.channel().await)
            .send_compressed(encoding)
            .accept_compressed(encoding);
        let mut plain = server.client().await;
        for difficulty in [pb::Difficulty::Easy, pb::Difficulty::Hard] {
            let mut request = select(follow_view(), difficulty);
            request.seed = Some(5);
            let compressed = client.select_play(request.clone()).await.unwrap();
            let answered = compressed
                .metadata()
                .get("grpc-encoding")
                .map(|v| v.to_str().unwrap().to_string());
            assert_eq!(answered.as_deref(), Some(name), "{encoding:?}");
            let uncompressed = plain.select_play(request).await.unwrap().into_inner();
            let compressed = compressed.into_inner();
            assert_eq!(compressed.decision, uncompressed.decision);
            assert_eq!(compressed.seed, uncompressed.seed);
        }
        let legal = client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: Some(game_view(follow_view())),
            })
            .await
            .unwrap();
        assert!(legal.into_inner().game.is_some());
        // Validation errors read the same compressed.
        let mut bad = lead_view();
        bad.hand.clear();
        let status = client
            .select_play(select(bad, pb::Difficulty::Easy))
            .await
            .unwrap_err();
        assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    }
}

/// `size` zero bytes, compressed: a few kilobytes on the wire.
fn bomb(encoding: &str, size: usize) -> Vec<u8> {
    let zeros = vec![0u8; size];
    match encoding {
        "gzip" => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gz.write_all(&zeros).unwrap();
            gz.finish().unwrap()
        }
        _ => zstd::encode_all(zeros.as_slice(), 19).unwrap(),
    }
}

#[tokio::test]
async fn a_compression_bomb_is_refused_at_the_limit_once_decompressed() {
    let server = start(test_config()).await; // 64 KiB limit
    let limit = test_config().max_message_bytes;
    let mut h2 = h2_connect(server.addr).await;
    for encoding in ["gzip", "zstd"] {
        for path in [
            "/climbot.v1.BotService/SelectPlay",
            "/climbot.v1.BotService/ListLegalPlays",
        ] {
            // 32 MiB once decompressed (512 times the limit), under the limit on the wire.
            let payload = bomb(encoding, 32 << 20);
            assert!(payload.len() < limit, "{} bytes", payload.len());
            let t0 = Instant::now();
            let (response, mut body) = h2
                .send_request(grpc_head(path, &[("grpc-encoding", encoding)]), false)
                .unwrap();
            body.send_data(grpc_frame(&payload, true), true).unwrap();
            let answer = raw_answer(response).await.unwrap();
            let status = answer.status();
            assert_eq!(
                status.code(),
                Code::OutOfRange,
                "{encoding} {path}: {status:?}"
            );
            assert!(
                status.message().contains("once decompressed"),
                "{}",
                status.message()
            );
            assert!(
                t0.elapsed() < Duration::from_secs(2),
                "{encoding} {path}: {:?}",
                t0.elapsed()
            );
        }
        // A compressed request just under the limit once decompressed is read (and
        // refused by validation, not by size).
        let request = select(follow_view(), pb::Difficulty::Easy).encode_to_vec();
        let payload = match encoding {
            "gzip" => {
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                gz.write_all(&request).unwrap();
                gz.finish().unwrap()
            }
            _ => zstd::encode_all(request.as_slice(), 3).unwrap(),
        };
        let (response, mut body) = h2
            .send_request(
                grpc_head(
                    "/climbot.v1.BotService/SelectPlay",
                    &[("grpc-encoding", encoding)],
                ),
                false,
            )
            .unwrap();
        body.send_data(grpc_frame(&payload, true), true).unwrap();
        let answer = raw_answer(response).await.unwrap();
        assert_eq!(answer.status().code(), Code::Ok, "{encoding}");
        assert!(!answer.body.is_empty());
    }
    // The server still serves.
    let mut client = server.client().await;
    client
        .select_play(select(follow_view(), pb::Difficulty::Easy))
        .await
        .unwrap();
    let scrape = server.scrape().await;
    assert!(
        scrape.contains(
            r#"climbot_requests_total{rpc="select_play",game="unknown",difficulty="unknown",code="out_of_range"} 2"#
        ),
        "{scrape}"
    );
}
