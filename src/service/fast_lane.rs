//! SelectPlay's fast lane: the common requests, a Lexio or a Daifugo view, parsed
//! straight from their bytes into the domain's input, without building the prost
//! message first.
//!
//! prost decodes a view into one heap-allocated message per tile or card and per log
//! entry, and that decoding cost more than the EASY decision and its validation
//! together (load test). The fast lane reads the same protobuf encoding with
//! prost's own varint primitives and gives up at the first thing it does not expect:
//! The Great Dalmuti, an unknown field, a wrong wire type, a singular message sent twice
//! (which protobuf merges), a tile or card that is not one, Daifugo rules beyond the
//! preset. The request is then decoded by prost as before, so every error, and every
//! field name in it, comes from the one validating path. What the fast lane accepts it
//! reads exactly as prost would (`strength` too, a double of eight little-endian bytes):
//! scalars last-wins, repeated fields concatenated, packed or unpacked `scores` and
//! `lock` (tests compare the two paths on real views, random and hand-made encodings
//! and damaged bytes).
//!
//! A request that arrives as one uncompressed message in one frame is also answered
//! without tonic's unary machinery (`direct`); every other request goes through tonic.

mod direct;

use crate::pb;
use crate::pb::bot_service_server::BotServiceServer;
use crate::service::handler::{BotHandler, RequestHeader, SelectPlayInput};
use prost::Message;
use prost::bytes::Buf;
use prost::encoding::decode_varint;
use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};
use tonic::codec::{
    BufferSettings, Codec, CompressionEncoding, DecodeBuf, Decoder, EnabledCompressionEncodings,
};
use tonic::codegen::{BoxFuture, Service, http};
use tonic::server::{Grpc, NamedService, UnaryService};
use tonic::{Request, Response, Status};
use tonic_prost::ProstEncoder;

/// The method the fast lane serves; every other path goes to the generated server.
const SELECT_PLAY_PATH: &str = "/climbot.v1.BotService/SelectPlay";

/// Protobuf wire types (the low 3 bits of a field key).
const VARINT: u64 = 0;
const FIXED64: u64 = 1;
const LENGTH_DELIMITED: u64 = 2;

/// A cursor over one message's bytes. Every read returns `None` on anything unexpected,
/// which sends the whole request to prost.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over one encoded message.
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Reader { buf }
    }

    /// Whether the message has more fields.
    #[inline]
    pub(crate) fn has_more(&self) -> bool {
        !self.buf.is_empty()
    }

    /// A varint (one-byte values inline, longer ones through prost).
    #[inline(always)]
    pub(crate) fn varint(&mut self) -> Option<u64> {
        match self.buf.first() {
            Some(&byte) if byte < 0x80 => {
                self.buf = &self.buf[1..];
                Some(u64::from(byte))
            }
            _ => decode_varint(&mut self.buf).ok(),
        }
    }

    /// The bytes not read yet.
    #[inline]
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.buf
    }

    /// The next field's number and wire type.
    #[inline(always)]
    pub(crate) fn key(&mut self) -> Option<(u32, u64)> {
        let key = self.varint()?;
        let field = u32::try_from(key >> 3).ok().filter(|&f| f > 0)?;
        Some((field, key & 7))
    }

    /// A varint field's value, `None` unless `wire_type` is a varint.
    #[inline]
    pub(crate) fn varint_field(&mut self, wire_type: u64) -> Option<u64> {
        (wire_type == VARINT).then(|| self.varint())?
    }

    /// A 64-bit field's value as a double (`strength`), `None` unless `wire_type` is
    /// fixed 64-bit.
    #[inline]
    pub(crate) fn double_field(&mut self, wire_type: u64) -> Option<f64> {
        if wire_type != FIXED64 {
            return None;
        }
        let (bytes, rest) = self.buf.split_first_chunk::<8>()?;
        self.buf = rest;
        Some(f64::from_le_bytes(*bytes))
    }

    /// A length-delimited field's bytes, `None` unless `wire_type` is length-delimited.
    #[inline]
    pub(crate) fn bytes_field(&mut self, wire_type: u64) -> Option<Reader<'a>> {
        if wire_type != LENGTH_DELIMITED {
            return None;
        }
        let len = usize::try_from(self.varint()?).ok()?;
        if len > self.buf.len() {
            return None;
        }
        let (field, rest) = self.buf.split_at(len);
        self.buf = rest;
        Some(Reader::new(field))
    }
}

/// A SelectPlay request whose view is Lexio or Daifugo, parsed by the fast lane; `None`
/// sends the request to prost.
pub fn parse_select_play(bytes: &[u8]) -> Option<SelectPlayInput> {
    let mut header = RequestHeader::default();
    let mut view = None;
    let mut r = Reader::new(bytes);
    while r.has_more() {
        let (field, wire_type) = r.key()?;
        // The casts truncate as prost does for these field types.
        match field {
            1 if view.is_none() => view = Some(parse_game_view(r.bytes_field(wire_type)?)?),
            2 => header.difficulty = r.varint_field(wire_type)? as i32,
            3 => header.seed = Some(r.varint_field(wire_type)?),
            4 => header.budget_ms = Some(r.varint_field(wire_type)? as u32),
            5 => header.explain = r.varint_field(wire_type)? != 0,
            6 => header.max_iterations = Some(r.varint_field(wire_type)? as u32),
            7 => header.strength = Some(r.double_field(wire_type)?),
            _ => return None,
        }
    }
    Some(match view? {
        ReadView::Lexio(view) => SelectPlayInput::Lexio { header, view },
        ReadView::Daifugo(view) => SelectPlayInput::Daifugo {
            header,
            view: Box::new(view),
        },
    })
}

/// A view the fast lane reads.
enum ReadView {
    Lexio(crate::lexio::ViewInput),
    Daifugo(crate::daifugo::view::DaifugoViewInput),
}

/// A `GameView` holding exactly one Lexio or Daifugo view.
fn parse_game_view(mut r: Reader<'_>) -> Option<ReadView> {
    let (field, wire_type) = r.key()?;
    let view = match field {
        1 => ReadView::Lexio(crate::service::lexio::parse_view(
            r.bytes_field(wire_type)?,
        )?),
        3 => ReadView::Daifugo(crate::service::daifugo::parse_view(
            r.bytes_field(wire_type)?,
        )?),
        _ => return None,
    };
    (!r.has_more()).then_some(view)
}

/// The size of the buffers a SelectPlay call reads its request into and writes its
/// answer into. tonic's default, 8 KiB, is a large allocation for a view of a few
/// hundred bytes and an answer of a few dozen, made twice per call (profile in
/// docs/load-testing.md); 1 KiB is served from the allocator's per-thread cache, and a
/// larger message grows its buffer as before.
pub const CODEC_BUFFER_BYTES: usize = 1024;

/// The codec's buffer settings: [`CODEC_BUFFER_BYTES`], and tonic's default yield
/// threshold (32 KiB).
fn buffer_settings() -> BufferSettings {
    BufferSettings::new(CODEC_BUFFER_BYTES, 32 * 1024)
}

/// Reads SelectPlay requests: the fast lane first, prost when it gives up.
#[derive(Debug, Default)]
pub struct SelectPlayDecoder;

impl Decoder for SelectPlayDecoder {
    type Item = SelectPlayInput;
    type Error = Status;

    fn buffer_settings(&self) -> BufferSettings {
        buffer_settings()
    }

    fn decode(&mut self, buf: &mut DecodeBuf<'_>) -> Result<Option<SelectPlayInput>, Status> {
        read_select_play(buf).map(Some)
    }
}

/// Reads one SelectPlay message, on either path (tonic's decoder and `direct`): the fast
/// lane when the bytes are contiguous and it takes them, prost otherwise, with a
/// decode error mapped as `tonic_prost::ProstCodec` maps it.
fn read_select_play(mut buf: impl Buf) -> Result<SelectPlayInput, Status> {
    let len = buf.remaining();
    if buf.chunk().len() == len
        && let Some(input) = parse_select_play(buf.chunk())
    {
        buf.advance(len);
        return Ok(input);
    }
    pb::SelectPlayRequest::decode(buf)
        .map(|request| SelectPlayInput::Wire(Box::new(request)))
        .map_err(|e| Status::internal(e.to_string()))
}

/// The codec of the fast lane: [`SelectPlayDecoder`] in, prost out.
#[derive(Debug, Default)]
pub struct SelectPlayCodec;

impl Codec for SelectPlayCodec {
    type Encode = pb::SelectPlayResponse;
    type Decode = SelectPlayInput;
    type Encoder = ProstEncoder<pb::SelectPlayResponse>;
    type Decoder = SelectPlayDecoder;

    fn encoder(&mut self) -> Self::Encoder {
        ProstEncoder::new(buffer_settings())
    }

    fn decoder(&mut self) -> Self::Decoder {
        SelectPlayDecoder
    }
}

/// The compressions accepted for requests and offered for answers (a client asks for
/// one with `grpc-accept-encoding`). The size limit applies to a request once
/// decompressed.
pub const COMPRESSION: [CompressionEncoding; 2] =
    [CompressionEncoding::Gzip, CompressionEncoding::Zstd];

fn compression() -> EnabledCompressionEncodings {
    let mut enabled = EnabledCompressionEncodings::default();
    for encoding in COMPRESSION {
        enabled.enable(encoding);
    }
    enabled
}

/// `climbot.v1.BotService` with SelectPlay served through the fast lane and every other
/// method by the generated server.
#[derive(Clone)]
pub struct BotServiceWithFastLane {
    handler: Arc<BotHandler>,
    generated: BotServiceServer<BotHandler>,
    max_decoding_message_size: usize,
}

impl BotServiceWithFastLane {
    /// The service for `handler`, refusing requests over `max_decoding_message_size`
    /// bytes on every method.
    pub fn new(handler: BotHandler, max_decoding_message_size: usize) -> Self {
        let handler = Arc::new(handler);
        let mut generated = BotServiceServer::from_arc(handler.clone())
            .max_decoding_message_size(max_decoding_message_size);
        for encoding in COMPRESSION {
            generated = generated
                .accept_compressed(encoding)
                .send_compressed(encoding);
        }
        BotServiceWithFastLane {
            generated,
            handler,
            max_decoding_message_size,
        }
    }
}

impl NamedService for BotServiceWithFastLane {
    const NAME: &'static str = <BotServiceServer<BotHandler> as NamedService>::NAME;
}

impl Service<http::Request<tonic::body::Body>> for BotServiceWithFastLane {
    type Response = http::Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<tonic::body::Body>) -> Self::Future {
        if request.uri().path() != SELECT_PLAY_PATH {
            return self.generated.call(request);
        }
        direct::serve(
            self.handler.clone(),
            self.max_decoding_message_size,
            request,
        )
    }
}

/// SelectPlay through tonic's unary path, with the fast lane's codec.
fn via_tonic(
    handler: Arc<BotHandler>,
    max_decoding_message_size: usize,
    request: http::Request<tonic::body::Body>,
) -> BoxFuture<http::Response<tonic::body::Body>, Infallible> {
    let method = SelectPlayMethod(handler);
    Box::pin(async move {
        let mut grpc = Grpc::new(SelectPlayCodec)
            .apply_max_message_size_config(Some(max_decoding_message_size), None)
            .apply_compression_config(compression(), compression());
        Ok(grpc.unary(method, request).await)
    })
}

/// SelectPlay as a tonic unary method over [`SelectPlayInput`].
struct SelectPlayMethod(Arc<BotHandler>);

impl UnaryService<SelectPlayInput> for SelectPlayMethod {
    type Response = pb::SelectPlayResponse;
    type Future = BoxFuture<Response<pb::SelectPlayResponse>, Status>;

    fn call(&mut self, request: Request<SelectPlayInput>) -> Self::Future {
        let handler = self.0.clone();
        Box::pin(async move { handler.serve_select_play(request).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::PlayerCount;
    use crate::lexio::bots::easy_action;
    use crate::lexio::referee::{Round, deal};
    use crate::service::lexio::{view_input, view_to_wire};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    /// A view as read, either way.
    #[derive(Clone, Debug, PartialEq)]
    enum ViewReading {
        Lexio(crate::lexio::ViewInput),
        Daifugo(crate::daifugo::view::DaifugoViewInput),
    }

    /// A request's reading: its header, with `strength` as its bits (so that a NaN
    /// reads equal to the same NaN), and its view.
    type Reading = ((RequestHeader, Option<u64>), ViewReading);

    fn reading(header: RequestHeader, view: ViewReading) -> Reading {
        let strength = header.strength.map(f64::to_bits);
        (
            (
                RequestHeader {
                    strength: None,
                    ..header
                },
                strength,
            ),
            view,
        )
    }

    /// What the prost path reads from the same bytes, in the fast lane's shape: `None`
    /// when prost refuses the bytes or the view is neither a Lexio view with real tiles
    /// nor a Daifugo view whose wire shapes are right.
    fn via_prost(bytes: &[u8]) -> Option<Reading> {
        let request = pb::SelectPlayRequest::decode(bytes).ok()?;
        let (header, _) = SelectPlayInput::Wire(Box::new(request.clone())).into_parts();
        let view = match request.view?.game? {
            pb::game_view::Game::Lexio(view) => ViewReading::Lexio(view_input(view).ok()?),
            pb::game_view::Game::Daifugo(view) => {
                ViewReading::Daifugo(crate::service::daifugo::view_input(&view).ok()?)
            }
            pb::game_view::Game::Dalmuti(_) => return None,
        };
        Some(reading(header, view))
    }

    /// The fast lane's reading, `None` when it hands the bytes to prost.
    fn via_fast_lane(bytes: &[u8]) -> Option<Reading> {
        match parse_select_play(bytes)? {
            SelectPlayInput::Lexio { header, view } => {
                Some(reading(header, ViewReading::Lexio(view)))
            }
            SelectPlayInput::Daifugo { header, view } => {
                Some(reading(header, ViewReading::Daifugo(*view)))
            }
            SelectPlayInput::Wire(_) => unreachable!("the fast lane reads Lexio and Daifugo"),
        }
    }

    /// Every view of a few real rounds, as SelectPlay requests.
    pub(super) fn real_requests() -> Vec<pb::SelectPlayRequest> {
        let mut requests = Vec::new();
        for (players, seed) in [
            (PlayerCount::Three, 1),
            (PlayerCount::Four, 2),
            (PlayerCount::Five, 3),
        ] {
            let mut round = Round::new(players, deal(players, seed), 1, [0, 5, -5, 12, -12]);
            loop {
                let view = round.view().unwrap();
                requests.push(pb::SelectPlayRequest {
                    view: Some(pb::GameView {
                        game: Some(pb::game_view::Game::Lexio(view_to_wire(&view))),
                    }),
                    difficulty: requests.len() as i32 % 6 - 1,
                    seed: (seed == 2).then_some(seed << 40),
                    budget_ms: (seed == 3).then_some(250),
                    explain: seed == 1,
                    max_iterations: (seed == 2).then_some(300),
                    strength: (seed != 2).then_some(requests.len() as f64 * 37.5),
                });
                let action = easy_action(players, view.hand(), view.table());
                if round.apply(action).unwrap() {
                    break;
                }
            }
        }
        requests
    }

    #[test]
    fn real_views_take_the_fast_lane_and_read_as_prost_reads_them() {
        let requests = real_requests();
        assert!(requests.len() > 60, "{} views", requests.len());
        for request in &requests {
            let bytes = request.encode_to_vec();
            let fast =
                via_fast_lane(&bytes).expect("a canonical Lexio request takes the fast lane");
            assert_eq!(Some(&fast), via_prost(&bytes).as_ref());
        }
    }

    /// Appends one field to an encoded message.
    /// Every view of a few real Daifugo games under both presets (exchanges, eight-cuts,
    /// revolutions and the log included), as SelectPlay requests.
    fn real_daifugo_requests() -> Vec<pb::SelectPlayRequest> {
        use crate::daifugo::referee::Referee;
        use crate::daifugo::rules::RuleSet;
        let mut requests = Vec::new();
        for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5)] {
            let mut referee = Referee::new(rules, players).unwrap();
            for game in 0..3u64 {
                referee.start_game_seeded(70 + game);
                while let Some(seat) = referee.to_act() {
                    let view = referee.view(seat).unwrap();
                    requests.push(pb::SelectPlayRequest {
                        view: Some(pb::GameView {
                            game: Some(pb::game_view::Game::Daifugo(
                                crate::service::daifugo::view_to_wire(&view),
                            )),
                        }),
                        difficulty: requests.len() as i32 % 5,
                        seed: (game == 1).then_some(game << 40),
                        ..Default::default()
                    });
                    let decision = crate::daifugo::bots::easy::decide(&view);
                    referee.apply(seat, &decision).unwrap();
                }
            }
        }
        requests
    }

    #[test]
    fn real_daifugo_views_take_the_fast_lane_and_read_as_prost_reads_them() {
        let requests = real_daifugo_requests();
        assert!(requests.len() > 300, "{} views", requests.len());
        let exchanges = requests
            .iter()
            .filter(|r| match &r.view.as_ref().unwrap().game {
                Some(pb::game_view::Game::Daifugo(v)) => v.exchange_known.is_some(),
                _ => false,
            })
            .count();
        assert!(exchanges > 10, "{exchanges} views with a known exchange");
        for request in &requests {
            let bytes = request.encode_to_vec();
            let fast = via_fast_lane(&bytes);
            assert!(fast.is_some(), "not taken: {request:?}");
            assert_eq!(fast, via_prost(&bytes));
        }
    }

    /// A Daifugo view with rules beyond the preset goes to prost.
    #[test]
    fn daifugo_rules_beyond_the_preset_go_to_prost() {
        let mut request = real_daifugo_requests().swap_remove(20);
        let Some(pb::game_view::Game::Daifugo(view)) = request.view.as_mut().unwrap().game.as_mut()
        else {
            unreachable!()
        };
        view.rules.as_mut().unwrap().jack_back = Some(true);
        let bytes = request.encode_to_vec();
        assert_eq!(via_fast_lane(&bytes), None);
        assert!(via_prost(&bytes).is_some());
    }

    fn field(out: &mut Vec<u8>, number: u32, value: &[u8]) {
        prost::encoding::encode_key(number, prost::encoding::WireType::LengthDelimited, out);
        prost::encoding::encode_varint(value.len() as u64, out);
        out.extend_from_slice(value);
    }

    fn varint_field(out: &mut Vec<u8>, number: u32, value: u64) {
        prost::encoding::encode_key(number, prost::encoding::WireType::Varint, out);
        prost::encoding::encode_varint(value, out);
    }

    /// A request around raw `LexioView` bytes.
    fn request_around(view: &[u8]) -> Vec<u8> {
        let mut game_view = Vec::new();
        field(&mut game_view, 1, view);
        let mut request = Vec::new();
        field(&mut request, 1, &game_view);
        varint_field(&mut request, 2, 1);
        request
    }

    #[test]
    fn other_encodings_prost_accepts_read_the_same_or_go_to_prost() {
        let request = &real_requests()[7];
        let Some(pb::game_view::Game::Lexio(view)) = request.view.clone().and_then(|v| v.game)
        else {
            unreachable!()
        };
        let canonical = view.encode_to_vec();

        // Unpacked scores, a tile with its fields reversed and one with its number sent
        // twice (last wins), fields out of order: all read as prost reads them.
        let mut odd = Vec::new();
        for &score in view.scores.iter().rev().rev() {
            varint_field(&mut odd, 9, score as u64);
        }
        let mut reversed_tile = Vec::new();
        varint_field(&mut reversed_tile, 2, view.hand[0].suit as u64);
        varint_field(&mut reversed_tile, 1, 99);
        varint_field(&mut reversed_tile, 1, u64::from(view.hand[0].number));
        field(&mut odd, 3, &reversed_tile);
        let mut rest = view.clone();
        rest.hand.remove(0);
        rest.scores.clear();
        odd.extend_from_slice(&rest.encode_to_vec());
        let expected = via_prost(&request_around(&canonical)).unwrap();
        assert_eq!(via_fast_lane(&request_around(&odd)), Some(expected.clone()));
        assert_eq!(via_prost(&request_around(&odd)), Some(expected.clone()));

        // A run of tiles in prost's encoding broken by one written otherwise.
        let mut broken_run = Vec::new();
        for (i, tile) in view.hand.iter().enumerate() {
            if i == 2 {
                field(&mut broken_run, 3, &reversed_tile);
            } else {
                field(&mut broken_run, 3, &tile.encode_to_vec());
            }
        }
        let mut rest = view.clone();
        rest.hand.clear();
        broken_run.extend_from_slice(&rest.encode_to_vec());
        assert_eq!(
            via_fast_lane(&request_around(&broken_run)),
            via_prost(&request_around(&broken_run))
        );
        assert!(via_fast_lane(&request_around(&broken_run)).is_some());

        // An unknown field, the view sent twice (protobuf merges the two), another
        // game, a tile that is none, truncated bytes: prost's turn.
        let mut unknown = canonical.clone();
        varint_field(&mut unknown, 15, 1);
        let twice = [request_around(&canonical), request_around(&canonical)].concat();
        let mut bad_tile = Vec::new();
        varint_field(&mut bad_tile, 1, 16);
        varint_field(&mut bad_tile, 2, 1);
        let mut with_bad_tile = canonical.clone();
        field(&mut with_bad_tile, 6, &bad_tile);
        // A tile that is none inside a run of played tiles, in prost's own encoding.
        let mut bad_in_run = view.clone();
        bad_in_run.played.insert(
            1,
            pb::LexioTile {
                number: 16,
                suit: 1,
            },
        );
        let dalmuti = pb::SelectPlayRequest {
            view: crate::loadtest::dalmuti_views(1)
                .unwrap()
                .pop()
                .map(|(_, v)| v),
            ..Default::default()
        }
        .encode_to_vec();
        // The table sent twice (protobuf merges the two), and the numbers of removed
        // fields (a seat's `finished`, the tiles-only table of field 4).
        let follow = real_requests()
            .into_iter()
            .find_map(|r| match r.view?.game? {
                pb::game_view::Game::Lexio(v) if v.table.is_some() => Some(v),
                _ => None,
            })
            .expect("a real view with a table");
        let table = follow.table.clone().unwrap();
        let mut table_twice = follow.encode_to_vec();
        field(&mut table_twice, 10, &table.encode_to_vec());
        let mut tiles_only_table = follow.encode_to_vec();
        field(&mut tiles_only_table, 4, &table.tiles[0].encode_to_vec());
        let mut finished_seat = Vec::new();
        varint_field(&mut finished_seat, 1, 3);
        varint_field(&mut finished_seat, 2, 1);
        let mut with_finished_seat = follow.encode_to_vec();
        field(&mut with_finished_seat, 5, &finished_seat);
        let full = request_around(&canonical);
        // `strength` as a varint, and cut short of its eight bytes.
        let mut strength_as_varint = full.clone();
        varint_field(&mut strength_as_varint, 7, 700);
        let mut strength_cut = full.clone();
        prost::encoding::encode_key(
            7,
            prost::encoding::WireType::SixtyFourBit,
            &mut strength_cut,
        );
        strength_cut.extend_from_slice(&700f64.to_le_bytes()[..5]);
        for bytes in [
            strength_as_varint,
            strength_cut,
            request_around(&table_twice),
            request_around(&tiles_only_table),
            request_around(&with_finished_seat),
            request_around(&unknown),
            twice,
            request_around(&with_bad_tile),
            request_around(&bad_in_run.encode_to_vec()),
            dalmuti,
            full[..full.len() - 3].to_vec(),
        ] {
            assert_eq!(parse_select_play(&bytes).map(|_| ()), None);
        }
    }

    #[test]
    fn varints_and_keys_read_as_prost_writes_them() {
        let mut buf = Vec::new();
        prost::encoding::encode_varint(300, &mut buf);
        prost::encoding::encode_key(7, prost::encoding::WireType::LengthDelimited, &mut buf);
        buf.push(1);
        buf.push(5);
        let mut r = Reader::new(&buf);
        assert_eq!(r.varint(), Some(300));
        assert_eq!(r.key(), Some((7, LENGTH_DELIMITED)));
        let mut inner = r.bytes_field(LENGTH_DELIMITED).unwrap();
        assert_eq!(inner.varint(), Some(5));
        assert!(!inner.has_more() && !r.has_more());
        assert_eq!(Reader::new(&[0x80]).varint(), None, "truncated varint");
        assert_eq!(Reader::new(&[0x07]).key(), None, "field number 0");
        assert!(Reader::new(&[0x05]).bytes_field(LENGTH_DELIMITED).is_none());
        assert!(
            Reader::new(&[0x01])
                .varint_field(LENGTH_DELIMITED)
                .is_none()
        );
    }

    #[test]
    fn a_strength_takes_the_fast_lane_and_reads_as_prost_reads_it() {
        let request = pb::SelectPlayRequest {
            strength: Some(812.25),
            difficulty: 0,
            ..real_requests()[3].clone()
        };
        let bytes = request.encode_to_vec();
        let fast = via_fast_lane(&bytes).expect("a request with a strength takes the fast lane");
        assert_eq!(fast.0.1, Some(812.25f64.to_bits()));
        assert_eq!(Some(fast), via_prost(&bytes));
        // Sent twice, the last one wins; a NaN and an infinity read as themselves.
        for (first, last) in [(100.0, 2000.0), (1.0, f64::NAN), (0.0, f64::NEG_INFINITY)] {
            let mut twice = pb::SelectPlayRequest {
                strength: Some(first),
                ..request.clone()
            }
            .encode_to_vec();
            prost::encoding::encode_key(7, prost::encoding::WireType::SixtyFourBit, &mut twice);
            twice.extend_from_slice(&last.to_le_bytes());
            let fast = via_fast_lane(&twice).expect("the fast lane");
            assert_eq!(fast.0.1, Some(last.to_bits()));
            assert_eq!(Some(fast), via_prost(&twice));
        }
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.double_field(FIXED64), None, "fewer than eight bytes");
        assert_eq!(Reader::new(&[0; 8]).double_field(VARINT), None);
        assert_eq!(Reader::new(&[0; 8]).double_field(FIXED64), Some(0.0));
    }

    /// Mostly real tiles, so that many requests take the fast lane.
    fn any_tile() -> impl Strategy<Value = pb::LexioTile> {
        prop_oneof![
            49 => (1u32..16, 1i32..5),
            1 => (any::<u32>(), any::<i32>()),
        ]
        .prop_map(|(number, suit)| pb::LexioTile { number, suit })
    }

    /// Mostly below `bound`, sometimes any value (the casts must truncate as prost's).
    fn small(bound: u32) -> impl Strategy<Value = u32> {
        prop_oneof![9 => 0..bound, 1 => any::<u32>()]
    }

    fn any_request() -> impl Strategy<Value = pb::SelectPlayRequest> {
        let tiles = |n| prop::collection::vec(any_tile(), 0..n);
        let seats = prop::collection::vec(
            small(20).prop_map(|tile_count| pb::LexioSeat { tile_count }),
            0..7,
        );
        let table = prop::option::of(
            (prop::option::of(small(7)), tiles(6))
                .prop_map(|(owner, tiles)| pb::LexioTable { owner, tiles }),
        );
        let log = prop::collection::vec(
            (small(7), tiles(6)).prop_map(|(seat, tiles)| pb::LexioLogEntry { seat, tiles }),
            0..12,
        );
        let view = (
            (small(7), small(7), tiles(20), table),
            (seats, tiles(30), log, small(3)),
            prop::collection::vec(any::<i64>(), 0..6),
        )
            .prop_map(
                |((player_count, seat, hand, table), (seats, played, log, round), scores)| {
                    pb::LexioView {
                        player_count,
                        seat,
                        hand,
                        table,
                        seats,
                        played,
                        log,
                        round,
                        scores,
                    }
                },
            );
        (
            view,
            prop_oneof![-2i32..7, any::<i32>()],
            any::<Option<u64>>(),
            any::<Option<u32>>(),
            any::<bool>(),
            any::<Option<u32>>(),
            prop::option::of(prop_oneof![
                3 => 0.0..3000.0f64,
                1 => any::<f64>(),
            ]),
        )
            .prop_map(
                |(view, difficulty, seed, budget_ms, explain, max_iterations, strength)| {
                    pb::SelectPlayRequest {
                        view: Some(pb::GameView {
                            game: Some(pb::game_view::Game::Lexio(view)),
                        }),
                        difficulty,
                        seed,
                        budget_ms,
                        explain,
                        max_iterations,
                        strength,
                    }
                },
            )
    }

    #[test]
    fn random_requests_often_take_the_fast_lane() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = any_request();
        let taken = (0..400)
            .filter(|_| {
                let request = strategy.new_tree(&mut runner).unwrap().current();
                via_fast_lane(&request.encode_to_vec()).is_some()
            })
            .count();
        assert!(taken >= 40, "{taken} of 400");
    }

    proptest! {
        /// Random Lexio requests, most of them invalid: the fast lane reads exactly what
        /// prost reads, and takes every request whose tiles are all tiles.
        #[test]
        fn the_fast_lane_agrees_with_prost(request in any_request()) {
            let bytes = request.encode_to_vec();
            let prost = via_prost(&bytes);
            prop_assert_eq!(via_fast_lane(&bytes), prost);
        }

        /// Random damage to a real request: whatever the fast lane still reads, prost
        /// reads the same way.
        #[test]
        fn damaged_bytes_never_read_differently(
            index in 0usize..400,
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..4),
        ) {
            let mut requests = real_requests();
            requests.extend(real_daifugo_requests().into_iter().step_by(7));
            let mut bytes = requests[index % requests.len()].encode_to_vec();
            for (at, byte, kind) in edits {
                let at = at.index(bytes.len());
                match kind {
                    0 => bytes[at] = byte,
                    1 => bytes.insert(at, byte),
                    _ => { bytes.remove(at); }
                }
            }
            if let Some(fast) = via_fast_lane(&bytes) {
                prop_assert_eq!(Some(fast), via_prost(&bytes));
            }
        }
    }
}
