//! The HTTP/2 transport under abuse: a client that cancels a thousand calls on one
//! connection keeps its connection and its other calls; clients that stall in the
//! handshake or mid-frame are dropped after the timeouts; idle connections are closed;
//! connections past their maximum age are closed gracefully, their calls finishing; a
//! request that stalls mid-body is answered DEADLINE_EXCEEDED at the read timeout.
mod common;

use climbot::pb;
use common::*;
use std::time::Duration;

const SELECT_PLAY: &str = "/climbot.v1.BotService/SelectPlay";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_cancelled_calls_leave_the_connection_and_its_other_calls_unharmed() {
    use prost::Message;
    let server = start(test_config()).await;
    let mut h2 = RawH2::connect(server.addr).await;
    let mut expert = select(undecided_view(), pb::Difficulty::Expert);
    expert.budget_ms = Some(1000);
    let expert = expert.encode_to_vec();
    let easy = select(follow_view(), pb::Difficulty::Easy).encode_to_vec();
    // 1,000 EXPERT calls on one connection, in 10 waves of 100, each reset by the
    // client (CANCEL) as a backend's deadlines fire together: even waves in the same
    // write as the requests (before the server can accept the streams), odd waves
    // after 1-30 ms. After each wave, an EASY call on the same connection is answered.
    for wave in 0..10u64 {
        let streams: Vec<u32> = (0..100).map(|_| h2.stream()).collect();
        let mut requests = Vec::new();
        let mut resets = Vec::new();
        for &id in &streams {
            requests.extend(RawH2::request_frames(id, SELECT_PLAY, &expert));
            resets.extend(frame(FRAME_RST_STREAM, 0, id, &8u32.to_be_bytes()));
        }
        if wave % 2 == 0 {
            requests.extend(resets);
            h2.write(&requests).await;
        } else {
            h2.write(&requests).await;
            tokio::time::sleep(Duration::from_millis(1 + wave * 7 % 30)).await;
            h2.write(&resets).await;
        }
        let id = h2.stream();
        h2.write(&RawH2::request_frames(id, SELECT_PLAY, &easy))
            .await;
        let answer = h2
            .answer(id)
            .await
            .unwrap_or_else(|e| panic!("EASY call after wave {wave}: {e}"));
        let answer = pb::SelectPlayResponse::decode(answer.as_slice()).unwrap();
        assert!(answer.decision.is_some());
    }
    // And still, once the searches have stopped.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let id = h2.stream();
    h2.write(&RawH2::request_frames(id, SELECT_PLAY, &easy))
        .await;
    h2.answer(id).await.expect("the connection still serves");
}

/// Short transport timeouts, so that the stalls below end quickly.
fn impatient() -> climbot::service::Config {
    let mut config = test_config();
    config.transport.handshake_timeout = Duration::from_millis(300);
    config.transport.keepalive_interval = Duration::from_millis(300);
    config.transport.keepalive_timeout = Duration::from_millis(300);
    config.transport.idle_timeout = Duration::from_millis(800);
    config.transport.request_read_timeout = Duration::from_millis(400);
    config
}

/// Reads (and ignores) everything until the server closes the socket; the time that
/// took, and the frame types seen.
async fn until_closed(socket: &mut tokio::net::TcpStream) -> (Duration, Vec<u8>) {
    use tokio::io::AsyncReadExt;
    let t0 = std::time::Instant::now();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(10), socket.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return (t0.elapsed(), seen),
            Ok(Ok(n)) => seen.extend_from_slice(&buf[..n]),
            Err(_) => panic!("the server kept a stalled connection open 10 s"),
        }
    }
}

#[tokio::test]
async fn clients_that_stall_are_dropped_after_the_timeouts() {
    use tokio::io::AsyncWriteExt;
    let server = start(impatient()).await;

    // Half a preface, then nothing: dropped at the handshake timeout.
    let mut socket = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    socket.write_all(&PREFACE[..10]).await.unwrap();
    let (after, _) = until_closed(&mut socket).await;
    assert!(
        after >= Duration::from_millis(250) && after < Duration::from_millis(2000),
        "half a preface: closed after {after:?}"
    );

    // The preface and SETTINGS, then half a HEADERS frame, and no answer to PINGs:
    // closed by the keepalive (interval + timeout).
    let mut socket = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut bytes = PREFACE.to_vec();
    bytes.extend(frame(FRAME_SETTINGS, 0, 0, &[]));
    let headers = frame(FRAME_HEADERS, 0x4, 1, &grpc_header_block(SELECT_PLAY));
    bytes.extend_from_slice(&headers[..headers.len() / 2]);
    socket.write_all(&bytes).await.unwrap();
    let (after, _) = until_closed(&mut socket).await;
    assert!(
        after >= Duration::from_millis(500) && after < Duration::from_millis(3000),
        "half a HEADERS frame: closed after {after:?}"
    );

    // A whole request head, half its body, and no deadline: the call is answered
    // DEADLINE_EXCEEDED at the read timeout, and the connection serves on.
    use prost::Message;
    let mut h2 = RawH2::connect(server.addr).await;
    let id = h2.stream();
    let body = grpc_frame(
        &select(follow_view(), pb::Difficulty::Easy).encode_to_vec(),
        false,
    );
    let mut stalled = frame(FRAME_HEADERS, 0x4, id, &grpc_header_block(SELECT_PLAY));
    stalled.extend(frame(FRAME_DATA, 0, id, &body[..body.len() / 2]));
    let t0 = std::time::Instant::now();
    h2.write(&stalled).await;
    let error = h2.answer(id).await.unwrap_err();
    assert!(error.contains("without a message"), "{error}");
    assert!(
        t0.elapsed() >= Duration::from_millis(350) && t0.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t0.elapsed()
    );
    let id = h2.stream();
    let easy = select(follow_view(), pb::Difficulty::Easy).encode_to_vec();
    h2.write(&RawH2::request_frames(id, SELECT_PLAY, &easy))
        .await;
    h2.answer(id).await.expect("the connection serves on");

    // Idle: no call open for the idle timeout -> GOAWAY, then closed.
    let (after, seen) = until_closed(&mut h2.socket).await;
    assert!(
        after >= Duration::from_millis(600) && after < Duration::from_millis(3000),
        "idle: closed after {after:?}"
    );
    assert!(
        seen.windows(4)
            .any(|w| w[3] == FRAME_GOAWAY && w[..3] == [0, 0, 8]),
        "a GOAWAY before closing"
    );
    let scrape = server.scrape().await;
    assert!(
        scrape.contains(
            r#"climbot_requests_total{rpc="select_play",game="unknown",difficulty="unknown",code="deadline_exceeded"} 1"#
        ),
        "{scrape}"
    );
}

#[tokio::test]
async fn connections_past_their_maximum_age_close_gracefully() {
    let mut config = test_config();
    config.transport.max_connection_age = Some(Duration::from_millis(300));
    config.transport.close_grace = Duration::from_secs(2);
    let server = start(config).await;
    let mut h2 = RawH2::connect(server.addr).await;
    let opened = std::time::Instant::now();
    // A call in flight when the age passes finishes normally.
    use prost::Message;
    let mut expert = select(undecided_view(), pb::Difficulty::Expert);
    expert.budget_ms = Some(400);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let id = h2.stream();
    h2.write(&RawH2::request_frames(
        id,
        SELECT_PLAY,
        &expert.encode_to_vec(),
    ))
    .await;
    let mut goaway_at = None;
    let answer = loop {
        let f = h2.read_frame().await.expect("answered before closing");
        if f.kind == FRAME_GOAWAY {
            goaway_at = Some(opened.elapsed());
        }
        if f.kind == FRAME_DATA && f.stream == id {
            break pb::SelectPlayResponse::decode(&f.payload[5..]).unwrap();
        }
    };
    assert!(answer.decision.is_some());
    let goaway_at = goaway_at.expect("a GOAWAY at the maximum age, before the answer");
    assert!(
        goaway_at >= Duration::from_millis(260) && goaway_at < Duration::from_millis(1000),
        "GOAWAY after {goaway_at:?} (age 300 ms +- 10%)"
    );
    let (after, _) = until_closed(&mut h2.socket).await;
    assert!(
        after < Duration::from_secs(1),
        "closed {after:?} after the answer"
    );

    // A gRPC client reconnects on its own.
    let mut client = server.client().await;
    for _ in 0..5 {
        client
            .select_play(select(follow_view(), pb::Difficulty::Easy))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}
