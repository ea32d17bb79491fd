//! SelectPlay answered straight from the request's body, without tonic's unary
//! machinery, for the call nearly every client makes: one uncompressed message in one
//! DATA frame.
//!
//! tonic reads a unary request through its streaming decoder (a buffer the message is
//! copied into, a state machine, a wait for trailers) and writes the answer through its
//! streaming encoder (another buffer, compression negotiated per call). For a request
//! that arrives whole in one frame and an answer of a few dozen bytes, that machinery
//! cost SelectPlay about three quarters of a microsecond of server CPU per call (load
//! test, `docs/load-testing.md`).
//!
//! A request takes this path only when it is that common case ([`may_be_compressed`]
//! is false and [`one_whole_message`] holds): nothing about it differs from what tonic
//! would do then. Anything else (compression asked for either way, a message over the
//! size limit, one split over frames, followed by more data or by trailers, an empty
//! body, an error of the body) goes to tonic, with the frame already read put back in
//! front of the rest of the body, so that tonic reads the request exactly as it
//! arrived and answers it as before. The answer is written as tonic writes it: the
//! headers with `content-type: application/grpc`, one DATA frame (the uncompressed
//! prefix and the message), trailers `grpc-status: 0`; an error is tonic's own
//! trailers-only response. The tests compare the two paths' responses.

use super::{read_select_play, via_tonic};
use crate::pb;
use crate::service::handler::BotHandler;
use http_body::{Body as _, Frame};
use prost::Message;
use prost::bytes::{BufMut, Bytes, BytesMut};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tonic::codegen::{BoxFuture, http};
use tonic::{Request, Status};

/// The gRPC message prefix: a compression flag and a 4-byte big-endian length.
const PREFIX: usize = 5;

/// Serves one SelectPlay call: directly when it is the common case, else through tonic.
pub(super) fn serve(
    handler: Arc<BotHandler>,
    max_decoding_message_size: usize,
    request: http::Request<tonic::body::Body>,
) -> BoxFuture<http::Response<tonic::body::Body>, Infallible> {
    if may_be_compressed(request.headers()) {
        return via_tonic(handler, max_decoding_message_size, request);
    }
    Box::pin(async move {
        let (parts, mut body) = request.into_parts();
        let first = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await;
        let data = match sort(first, body.is_end_stream(), max_decoding_message_size) {
            First::Whole(data) => data,
            First::Other(first) => {
                let body = tonic::body::Body::new(Prepended { first, rest: body });
                let request = http::Request::from_parts(parts, body);
                return via_tonic(handler, max_decoding_message_size, request).await;
            }
        };
        let input = match read_select_play(&data[PREFIX..]) {
            Ok(input) => input,
            Err(status) => return Ok(status.into_http()),
        };
        let request = Request::from_http(http::Request::from_parts(parts, input));
        Ok(match handler.serve_select_play(request).await {
            Ok(response) => answer(&response.into_inner()),
            Err(status) => status.into_http(),
        })
    })
}

/// Whether tonic would decompress the request or compress the answer: a
/// `grpc-encoding`, or a `grpc-accept-encoding` that names an encoding the server
/// sends (any mention of one counts, so that no answer tonic would compress is sent
/// uncompressed).
fn may_be_compressed(headers: &http::HeaderMap) -> bool {
    // Names made once: a lookup by `&str` parses the name on every call.
    static ENCODING: http::HeaderName = http::HeaderName::from_static("grpc-encoding");
    static ACCEPT_ENCODING: http::HeaderName =
        http::HeaderName::from_static("grpc-accept-encoding");
    headers.contains_key(&ENCODING)
        || headers.get(&ACCEPT_ENCODING).is_some_and(|value| {
            value
                .as_bytes()
                .windows(4)
                .any(|w| w.eq_ignore_ascii_case(b"gzip") || w.eq_ignore_ascii_case(b"zstd"))
        })
}

/// A request body's first frame, sorted.
#[derive(Debug)]
enum First {
    /// One whole uncompressed message within the size limit, and the body ended with
    /// it: the direct path.
    Whole(Bytes),
    /// Anything else, for tonic.
    Other(Option<Result<Frame<Bytes>, Status>>),
}

/// Sorts the body's first frame; `ended`: whether the body ended with it.
fn sort(first: Option<Result<Frame<Bytes>, Status>>, ended: bool, max: usize) -> First {
    match first.map(|frame| frame.map(Frame::into_data)) {
        Some(Ok(Ok(data))) if ended && one_whole_message(&data, max) => First::Whole(data),
        first => First::Other(first.map(|frame| match frame {
            Ok(Ok(data)) => Ok(Frame::data(data)),
            Ok(Err(frame)) => Ok(frame),
            Err(status) => Err(status),
        })),
    }
}

/// Whether `data` is exactly one uncompressed message of at most `max` bytes.
fn one_whole_message(data: &[u8], max: usize) -> bool {
    let Some((prefix, message)) = data.split_first_chunk::<PREFIX>() else {
        return false;
    };
    let [compressed, length @ ..] = *prefix;
    let length = u32::from_be_bytes(length) as usize;
    compressed == 0 && length == message.len() && length <= max
}

/// The successful answer, framed as tonic frames it.
fn answer(message: &pb::SelectPlayResponse) -> http::Response<tonic::body::Body> {
    let length = message.encoded_len();
    let mut data = BytesMut::with_capacity(PREFIX + length);
    data.put_u8(0);
    data.put_u32(u32::try_from(length).expect("an answer is far below 4 GiB"));
    message.encode(&mut data).expect("the buffer has room");
    let mut response = http::Response::new(tonic::body::Body::new(OneMessage {
        data: Some(data.freeze()),
        trailers_sent: false,
    }));
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/grpc"),
    );
    response
}

/// A request's body with the frame already read put back in front.
struct Prepended {
    first: Option<Result<Frame<Bytes>, Status>>,
    rest: tonic::body::Body,
}

impl http_body::Body for Prepended {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        match self.first.take() {
            Some(first) => Poll::Ready(Some(first)),
            None => Pin::new(&mut self.rest).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.first.is_none() && self.rest.is_end_stream()
    }
}

/// An answer's body: one DATA frame, then the trailers `grpc-status: 0`.
struct OneMessage {
    data: Option<Bytes>,
    trailers_sent: bool,
}

impl http_body::Body for OneMessage {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if let Some(data) = self.data.take() {
            return Poll::Ready(Some(Ok(Frame::data(data))));
        }
        if self.trailers_sent {
            return Poll::Ready(None);
        }
        self.trailers_sent = true;
        let mut trailers = http::HeaderMap::with_capacity(1);
        trailers.insert("grpc-status", http::HeaderValue::from_static("0"));
        Poll::Ready(Some(Ok(Frame::trailers(trailers))))
    }

    fn is_end_stream(&self) -> bool {
        self.data.is_none() && self.trailers_sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::config::Config;
    use std::collections::VecDeque;

    /// A request body made of the given frames.
    struct Frames(VecDeque<Frame<Bytes>>);

    impl http_body::Body for Frames {
        type Data = Bytes;
        type Error = Status;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
            Poll::Ready(self.0.pop_front().map(Ok))
        }

        fn is_end_stream(&self) -> bool {
            self.0.is_empty()
        }
    }

    fn framed(message: &[u8], compressed: u8) -> Bytes {
        let mut data = vec![compressed];
        data.extend_from_slice(&(message.len() as u32).to_be_bytes());
        data.extend_from_slice(message);
        data.into()
    }

    fn request(
        frames: Vec<Frame<Bytes>>,
        headers: &[(&str, &str)],
    ) -> http::Request<tonic::body::Body> {
        let mut request = http::Request::builder()
            .method("POST")
            .uri(super::super::SELECT_PLAY_PATH)
            .header("content-type", "application/grpc")
            .header("te", "trailers");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request
            .body(tonic::body::Body::new(Frames(frames.into())))
            .unwrap()
    }

    /// A response as a client reads it: status, headers, the DATA bytes, the trailers.
    type Read = (
        http::StatusCode,
        http::HeaderMap,
        Vec<u8>,
        Option<http::HeaderMap>,
    );

    async fn read(response: http::Response<tonic::body::Body>) -> Read {
        let (parts, mut body) = response.into_parts();
        let mut data = Vec::new();
        let mut trailers = None;
        while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
        {
            match frame.unwrap().into_data() {
                Ok(bytes) => data.extend_from_slice(&bytes),
                Err(frame) => trailers = Some(frame.into_trailers().unwrap()),
            }
        }
        (parts.status, parts.headers, data, trailers)
    }

    /// The answer's message, uncompressed, with its compute time set to 0 (the one field
    /// that differs between two calls), re-encoded; the data unchanged if there is none.
    fn without_time(data: &[u8]) -> Vec<u8> {
        let Some((&[compressed, ..], message)) = data.split_first_chunk::<PREFIX>() else {
            return data.to_vec();
        };
        let mut message = message.to_vec();
        if compressed == 1 {
            // Sent compressed: the client accepted gzip.
            let mut unzipped = Vec::new();
            let mut reader = flate2::read::GzDecoder::new(&message[..]);
            std::io::Read::read_to_end(&mut reader, &mut unzipped).unwrap();
            message = unzipped;
        }
        let mut answer = pb::SelectPlayResponse::decode(&message[..]).unwrap();
        answer.compute_micros = 0;
        answer.encode_to_vec()
    }

    /// Serves the same request both ways and checks that a client reads the same
    /// response, which it returns.
    async fn same_both_ways(frames: Vec<Frame<Bytes>>, headers: &[(&str, &str)]) -> Read {
        let handler = Arc::new(BotHandler::new(&Config::default()));
        let max = Config::default().max_message_bytes;
        let copy = |frames: &Vec<Frame<Bytes>>| {
            frames
                .iter()
                .map(|f| match f.data_ref() {
                    Some(data) => Frame::data(data.clone()),
                    None => Frame::trailers(f.trailers_ref().unwrap().clone()),
                })
                .collect::<Vec<_>>()
        };
        let direct = read(
            serve(handler.clone(), max, request(copy(&frames), headers))
                .await
                .unwrap(),
        )
        .await;
        let tonic = read(
            via_tonic(handler, max, request(frames, headers))
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(direct.0, tonic.0);
        assert_eq!(direct.1, tonic.1);
        assert_eq!(without_time(&direct.2), without_time(&tonic.2));
        assert_eq!(direct.3, tonic.3);
        direct
    }

    fn lexio_request(difficulty: i32) -> Vec<u8> {
        let requests = super::super::tests::real_requests();
        let mut request = requests[requests.len() / 2].clone();
        request.difficulty = difficulty;
        request.strength = None;
        request.budget_ms = None;
        request.max_iterations = Some(50);
        request.encode_to_vec()
    }

    fn grpc_status(read: &Read) -> Option<&str> {
        read.1
            .get("grpc-status")
            .or_else(|| read.3.as_ref()?.get("grpc-status"))
            .map(|v| v.to_str().unwrap())
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_whole_request_is_answered_as_tonic_answers_it() {
        // EASY, NORMAL, EXPERT (a slot and the blocking pool), an unknown level.
        for (difficulty, status) in [(1, "0"), (2, "0"), (4, "0"), (9, "3")] {
            let message = lexio_request(difficulty);
            let read = same_both_ways(vec![Frame::data(framed(&message, 0))], &[]).await;
            assert_eq!(grpc_status(&read), Some(status), "difficulty {difficulty}");
        }
        // A view the fast lane leaves to prost, and bytes that are not a request.
        let dalmuti = pb::SelectPlayRequest {
            view: Some(pb::GameView {
                game: Some(pb::game_view::Game::Dalmuti(pb::DalmutiView::default())),
            }),
            ..Default::default()
        };
        let read =
            same_both_ways(vec![Frame::data(framed(&dalmuti.encode_to_vec(), 0))], &[]).await;
        assert_eq!(grpc_status(&read), Some("3"));
        let read = same_both_ways(vec![Frame::data(framed(&[0xff, 0xff], 0))], &[]).await;
        assert_eq!(grpc_status(&read), Some("13"));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_other_request_goes_to_tonic_as_it_arrived() {
        let message = lexio_request(1);
        let whole = framed(&message, 0);
        let (head, tail) = whole.split_at(40);
        type Case<'a> = (Vec<Frame<Bytes>>, &'a [(&'a str, &'a str)], &'a str);
        let cases: Vec<Case> = vec![
            // Split over two frames.
            (
                vec![
                    Frame::data(Bytes::copy_from_slice(head)),
                    Frame::data(Bytes::copy_from_slice(tail)),
                ],
                &[],
                "0",
            ),
            // Followed by trailers.
            (
                vec![
                    Frame::data(whole.clone()),
                    Frame::trailers(http::HeaderMap::new()),
                ],
                &[],
                "0",
            ),
            // Two messages in one frame (tonic answers the first).
            (
                vec![Frame::data([whole.clone(), whole.clone()].concat().into())],
                &[],
                "0",
            ),
            // An empty body.
            (vec![], &[], "13"),
            // Flagged compressed without an encoding.
            (vec![Frame::data(framed(&message, 1))], &[], "13"),
            // Over the size limit.
            (vec![Frame::data(framed(&vec![0; 70 * 1024], 0))], &[], "11"),
            // An answer the client would take compressed.
            (
                vec![Frame::data(whole.clone())],
                &[("grpc-accept-encoding", "identity, gzip")],
                "0",
            ),
        ];
        for (frames, headers, status) in cases {
            let read = same_both_ways(frames, headers).await;
            assert_eq!(grpc_status(&read), Some(status), "{headers:?}");
        }
    }

    #[test]
    fn compression_either_way_takes_tonic() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut map = http::HeaderMap::new();
            for (name, value) in pairs {
                map.insert(*name, http::HeaderValue::from_static(value));
            }
            map
        };
        assert!(!may_be_compressed(&headers(&[])));
        assert!(!may_be_compressed(&headers(&[(
            "grpc-accept-encoding",
            "identity,deflate"
        )])));
        assert!(may_be_compressed(&headers(&[(
            "grpc-accept-encoding",
            "identity,deflate,gzip"
        )])));
        assert!(may_be_compressed(&headers(&[(
            "grpc-accept-encoding",
            "zstd"
        )])));
        assert!(may_be_compressed(&headers(&[(
            "grpc-encoding",
            "identity"
        )])));
    }

    #[test]
    fn only_a_whole_message_that_ends_the_body_is_served_directly() {
        let whole = || Some(Ok(Frame::data(framed(b"abc", 0))));
        assert!(matches!(sort(whole(), true, 3), First::Whole(data) if data == framed(b"abc", 0)));
        assert!(
            matches!(sort(whole(), false, 3), First::Other(Some(Ok(f))) if f.data_ref() == Some(&framed(b"abc", 0)))
        );
        assert!(matches!(sort(whole(), true, 2), First::Other(Some(Ok(_)))));
        assert!(matches!(sort(None, true, 3), First::Other(None)));
        let trailers = Some(Ok(Frame::trailers(http::HeaderMap::new())));
        assert!(matches!(sort(trailers, true, 3), First::Other(Some(Ok(f))) if f.is_trailers()));
        let error = Some(Err(Status::cancelled("gone")));
        assert!(
            matches!(sort(error, true, 3), First::Other(Some(Err(s))) if s.code() == tonic::Code::Cancelled)
        );
    }

    #[test]
    fn one_whole_message_is_the_prefix_and_exactly_its_length() {
        assert!(one_whole_message(&framed(b"abc", 0), 3));
        assert!(!one_whole_message(&framed(b"abc", 0), 2));
        assert!(!one_whole_message(&framed(b"abc", 1), 3));
        assert!(!one_whole_message(&framed(b"abc", 0)[..7], 3));
        assert!(!one_whole_message(&[0, 0, 0], 3));
        assert!(one_whole_message(&framed(b"", 0), 3));
    }
}
