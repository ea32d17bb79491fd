//! SelectPlay's fast lane (Lexio views parsed straight from the request bytes) answers
//! every request exactly as the prost path does: the same decision for the same view
//! however it is encoded, and the same error, naming the same field, for a bad one.

mod common;

use climbot::pb;
use common::*;
use prost::Message;
use prost::bytes::BufMut;
use prost::encoding::{WireType, encode_key, encode_varint};
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic::{Code, Status};

/// Sends pre-encoded request bytes; reads a prost `SelectPlayResponse`.
#[derive(Default)]
struct RawCodec;

struct RawEncoder;

impl Encoder for RawEncoder {
    type Item = Vec<u8>;
    type Error = Status;

    fn encode(&mut self, item: Vec<u8>, buf: &mut EncodeBuf<'_>) -> Result<(), Status> {
        buf.put_slice(&item);
        Ok(())
    }
}

struct ResponseDecoder;

impl Decoder for ResponseDecoder {
    type Item = pb::SelectPlayResponse;
    type Error = Status;

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<Self::Item>, Status> {
        pb::SelectPlayResponse::decode(buf)
            .map(Some)
            .map_err(|e| Status::internal(e.to_string()))
    }
}

impl Codec for RawCodec {
    type Encode = Vec<u8>;
    type Decode = pb::SelectPlayResponse;
    type Encoder = RawEncoder;
    type Decoder = ResponseDecoder;

    fn encoder(&mut self) -> RawEncoder {
        RawEncoder
    }

    fn decoder(&mut self) -> ResponseDecoder {
        ResponseDecoder
    }
}

async fn select_raw(channel: &Channel, bytes: Vec<u8>) -> Result<pb::SelectPlayResponse, Status> {
    let mut grpc = tonic::client::Grpc::new(channel.clone());
    grpc.ready().await.unwrap();
    grpc.unary(
        tonic::Request::new(bytes),
        PathAndQuery::from_static("/climbot.v1.BotService/SelectPlay"),
        RawCodec,
    )
    .await
    .map(tonic::Response::into_inner)
}

fn length_delimited(out: &mut Vec<u8>, field: u32, value: &[u8]) {
    encode_key(field, WireType::LengthDelimited, out);
    encode_varint(value.len() as u64, out);
    out.extend_from_slice(value);
}

fn varint(out: &mut Vec<u8>, field: u32, value: u64) {
    encode_key(field, WireType::Varint, out);
    encode_varint(value, out);
}

/// The request for `view` with its bytes re-encoded the way another protobuf library
/// may write them: fields in reverse order, tiles with their suit first (and the
/// table's owner after its tiles), scores unpacked. prost reads the result as the same message.
fn unusual_encoding(view: &pb::LexioView, difficulty: pb::Difficulty) -> Vec<u8> {
    let tile = |t: &pb::LexioTile| {
        let mut out = Vec::new();
        varint(&mut out, 2, t.suit as u64);
        varint(&mut out, 1, u64::from(t.number));
        out
    };
    let mut v = Vec::new();
    if let Some(table) = &view.table {
        let mut m = Vec::new();
        for t in &table.tiles {
            length_delimited(&mut m, 2, &tile(t));
        }
        if let Some(owner) = table.owner {
            varint(&mut m, 1, u64::from(owner));
        }
        length_delimited(&mut v, 10, &m);
    }
    for &score in &view.scores {
        varint(&mut v, 9, score as u64);
    }
    varint(&mut v, 8, u64::from(view.round));
    for entry in &view.log {
        let mut e = Vec::new();
        for t in &entry.tiles {
            length_delimited(&mut e, 2, &tile(t));
        }
        varint(&mut e, 1, u64::from(entry.seat));
        length_delimited(&mut v, 7, &e);
    }
    for t in &view.played {
        length_delimited(&mut v, 6, &tile(t));
    }
    for s in &view.seats {
        length_delimited(&mut v, 5, &s.encode_to_vec());
    }
    for t in &view.hand {
        length_delimited(&mut v, 3, &tile(t));
    }
    varint(&mut v, 2, u64::from(view.seat));
    varint(&mut v, 1, u64::from(view.player_count));
    let mut game_view = Vec::new();
    length_delimited(&mut game_view, 1, &v);
    let mut request = Vec::new();
    varint(&mut request, 2, difficulty as u64);
    length_delimited(&mut request, 1, &game_view);
    request
}

/// The canonical encoding plus a field the server does not know (field 99 of the
/// request): prost skips it, the fast lane hands the request to prost.
fn prost_path_encoding(request: &pb::SelectPlayRequest) -> Vec<u8> {
    let mut bytes = request.encode_to_vec();
    varint(&mut bytes, 99, 1);
    bytes
}

fn lexio_view(view: pb::GameView) -> pb::LexioView {
    match view.game {
        Some(pb::game_view::Game::Lexio(v)) => v,
        other => panic!("not a Lexio view: {other:?}"),
    }
}

#[tokio::test]
async fn every_encoding_of_a_view_gets_the_same_answer() {
    let server = start(test_config()).await;
    let channel = server.channel().await;
    let mut views: Vec<pb::LexioView> = climbot::loadtest::lexio_views(3)
        .unwrap()
        .into_iter()
        .map(|(_, v)| lexio_view(v))
        .collect();
    views.extend([lead_view(), follow_view()]);
    for view in views {
        for difficulty in [pb::Difficulty::Easy, pb::Difficulty::Hard] {
            let request = select(view.clone(), difficulty);
            let canonical = select_raw(&channel, request.encode_to_vec()).await.unwrap();
            let via_prost = select_raw(&channel, prost_path_encoding(&request))
                .await
                .unwrap();
            let unusual = select_raw(&channel, unusual_encoding(&view, difficulty))
                .await
                .unwrap();
            let answer = |r: &pb::SelectPlayResponse| (r.decision.clone(), r.seed, r.difficulty);
            assert_eq!(answer(&canonical), answer(&via_prost), "{view:?}");
            assert_eq!(answer(&canonical), answer(&unusual), "{view:?}");
        }
    }
}

#[tokio::test]
async fn a_bad_view_gets_the_same_error_on_both_paths() {
    let server = start(test_config()).await;
    let channel = server.channel().await;
    let mut out_of_range_seat = follow_view();
    out_of_range_seat.seat = 9;
    let mut wrong_count = follow_view();
    wrong_count.seats[1].tile_count = 1;
    let mut not_a_tile = follow_view();
    not_a_tile.hand[0].number = 40;
    let mut no_suit = follow_view();
    no_suit.played[0].suit = 0;
    for view in [out_of_range_seat, wrong_count, not_a_tile, no_suit] {
        let request = select(view.clone(), pb::Difficulty::Easy);
        let fast = select_raw(&channel, request.encode_to_vec())
            .await
            .unwrap_err();
        let via_prost = select_raw(&channel, prost_path_encoding(&request))
            .await
            .unwrap_err();
        assert_eq!(fast.code(), Code::InvalidArgument, "{fast:?}");
        assert!(fast.message().contains("view.lexio."), "{fast:?}");
        assert_eq!(
            (fast.code(), fast.message()),
            (via_prost.code(), via_prost.message())
        );
    }
}

#[tokio::test]
async fn bytes_that_are_no_request_are_refused_as_before() {
    let server = start(test_config()).await;
    let channel = server.channel().await;
    let mut truncated = select(follow_view(), pb::Difficulty::Easy).encode_to_vec();
    truncated.truncate(truncated.len() - 5);
    let status = select_raw(&channel, truncated).await.unwrap_err();
    // tonic's prost codec reports an undecodable message as INTERNAL.
    assert_eq!(status.code(), Code::Internal, "{status:?}");
    let status = select_raw(&channel, Vec::new()).await.unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(status.message().contains("view"), "{status:?}");
}
