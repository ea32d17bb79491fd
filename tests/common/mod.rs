//! Shared test harness: a real server on `127.0.0.1:0`, clients, and Lexio views.
#![allow(dead_code)]

pub mod playground;
pub mod tls;

use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use climbot::service::{Config, ServeError};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tonic::transport::{Channel, ClientTlsConfig};
use tonic_health::pb::health_client::HealthClient;

/// A server running in this test's runtime.
pub struct TestServer {
    pub addr: SocketAddr,
    pub metrics_addr: SocketAddr,
    /// How its clients connect over TLS (`None`: plaintext).
    pub client_tls: Option<ClientTlsConfig>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<Result<(), ServeError>>>,
}

/// A configuration for tests: 2 decision slots, 2 s max budget, 10 ms margin.
pub fn test_config() -> Config {
    Config {
        decision_slots: 2,
        max_budget: Duration::from_secs(2),
        deadline_margin: Duration::from_millis(10),
        shutdown_grace: Duration::from_secs(5),
        ..Config::default()
    }
}

/// Starts a server with `config` on ephemeral ports.
pub async fn start(config: Config) -> TestServer {
    start_with(config, None).await
}

/// Starts a server with `config` (TLS on) whose clients connect with `client_tls`.
pub async fn start_tls(config: Config, client_tls: ClientTlsConfig) -> TestServer {
    start_with(config, Some(client_tls)).await
}

async fn start_with(config: Config, client_tls: Option<ClientTlsConfig>) -> TestServer {
    let grpc = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let metrics = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = grpc.local_addr().unwrap();
    let metrics_addr = metrics.local_addr().unwrap();
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(climbot::service::run(config, grpc, Some(metrics), async {
        let _ = rx.await;
    }));
    let server = TestServer {
        addr,
        metrics_addr,
        client_tls,
        shutdown: Some(tx),
        task: Some(task),
    };
    // Ready once health answers SERVING.
    let mut health = server.health().await;
    for _ in 0..200 {
        if let Ok(r) = health.check(health_request("")).await
            && r.into_inner().status
                == tonic_health::pb::health_check_response::ServingStatus::Serving as i32
        {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("server did not become SERVING");
}

impl TestServer {
    pub async fn channel(&self) -> Channel {
        match &self.client_tls {
            None => Channel::from_shared(format!("http://{}", self.addr))
                .unwrap()
                .connect()
                .await
                .unwrap(),
            Some(client_tls) => tls::tls_channel(self.addr, client_tls.clone())
                .await
                .unwrap(),
        }
    }

    pub async fn client(&self) -> BotServiceClient<Channel> {
        BotServiceClient::new(self.channel().await)
    }

    pub async fn health(&self) -> HealthClient<Channel> {
        HealthClient::new(self.channel().await)
    }

    /// Triggers the graceful shutdown (like SIGTERM).
    pub fn begin_shutdown(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }

    /// Waits for `run` to return.
    pub async fn stopped(&mut self) -> Result<(), ServeError> {
        self.task.take().expect("already stopped").await.unwrap()
    }

    /// GET /metrics.
    pub async fn scrape(&self) -> String {
        let addr = self.metrics_addr;
        tokio::task::spawn_blocking(move || http_get(addr, "/metrics"))
            .await
            .unwrap()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// A blocking HTTP/1.1 GET returning the whole response (head and body).
pub fn http_get(addr: SocketAddr, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

pub fn health_request(service: &str) -> tonic_health::pb::HealthCheckRequest {
    tonic_health::pb::HealthCheckRequest {
        service: service.to_string(),
    }
}

// ---------------------------------------------------------------- Lexio views

pub const CLOUD: pb::LexioSuit = pb::LexioSuit::Cloud;
pub const STAR: pb::LexioSuit = pb::LexioSuit::Star;
pub const MOON: pb::LexioSuit = pb::LexioSuit::Moon;
pub const SUN: pb::LexioSuit = pb::LexioSuit::Sun;

pub fn t(number: u32, suit: pb::LexioSuit) -> pb::LexioTile {
    pb::LexioTile {
        number,
        suit: suit as i32,
    }
}

pub fn seat(tile_count: u32) -> pb::LexioSeat {
    pb::LexioSeat { tile_count }
}

/// 4 players, seat 0 leads the round holding cloud 1..13; nothing played yet.
pub fn lead_view() -> pb::LexioView {
    pb::LexioView {
        player_count: 4,
        seat: 0,
        hand: (1..=13).map(|n| t(n, CLOUD)).collect(),
        table: None,
        seats: vec![seat(13), seat(13), seat(13), seat(13)],
        played: vec![],
        log: vec![],
        round: 1,
        scores: vec![0, 0, 0, 0],
    }
}

/// A view whose EXPERT search never settles, so that it runs until its budget: 4
/// players, seat 0 holds sun 2 and moon 2 (the two best singles), cloud 8 and star 9,
/// with star 3 on the table. Playing either 2 wins the trick, and the two lines are the
/// same game: neither candidate can be eliminated. (With two tiles that may be beaten
/// left after the 2s, the hand is no forced win, which EXPERT would answer at once.)
pub fn undecided_view() -> pb::LexioView {
    let hand = vec![t(2, SUN), t(2, MOON), t(8, CLOUD), t(9, STAR)];
    // Everything but the hand and 30 hidden tiles has been played: star 3 last.
    let mut played: Vec<pb::LexioTile> = Vec::new();
    for number in [3, 4, 5, 6, 7] {
        for suit in [CLOUD, STAR, MOON, SUN] {
            if played.len() < 17 && !(number == 3 && suit == STAR) {
                played.push(t(number, suit));
            }
        }
    }
    played.push(t(3, STAR));
    pb::LexioView {
        player_count: 4,
        seat: 0,
        hand,
        table: Some(pb::LexioTable {
            owner: Some(3),
            tiles: vec![t(3, STAR)],
        }),
        seats: vec![seat(4), seat(9), seat(10), seat(11)],
        played,
        log: vec![],
        round: 1,
        scores: vec![0, 0, 0, 0],
    }
}

/// 4 players, seat 1 has led star 3 (logged); seat 2 holds a mixed hand and must beat it.
pub fn follow_view() -> pb::LexioView {
    let hand = vec![
        t(3, MOON),
        t(4, CLOUD),
        t(4, SUN),
        t(5, STAR),
        t(6, MOON),
        t(7, SUN),
        t(9, CLOUD),
        t(9, STAR),
        t(9, MOON),
        t(11, CLOUD),
        t(12, SUN),
        t(1, STAR),
        t(2, CLOUD),
    ];
    pb::LexioView {
        player_count: 4,
        seat: 2,
        hand,
        table: Some(pb::LexioTable {
            owner: Some(1),
            tiles: vec![t(3, STAR)],
        }),
        seats: vec![seat(13), seat(12), seat(13), seat(13)],
        played: vec![t(3, STAR)],
        log: vec![pb::LexioLogEntry {
            seat: 1,
            tiles: vec![t(3, STAR)],
        }],
        round: 1,
        scores: vec![0, 0, 0, 0],
    }
}

pub fn game_view(view: pb::LexioView) -> pb::GameView {
    pb::GameView {
        game: Some(pb::game_view::Game::Lexio(view)),
    }
}

pub fn select(view: pb::LexioView, difficulty: pb::Difficulty) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        explain: false,
        view: Some(game_view(view)),
        difficulty: difficulty as i32,
        seed: None,
        budget_ms: None,
        max_iterations: None,
        strength: None,
    }
}

/// A request with a client deadline (sent as `grpc-timeout`).
pub fn with_timeout<T>(message: T, timeout: Duration) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.set_timeout(timeout);
    request
}

/// The tiles of a Lexio decision (empty for a pass; `None` for another game).
pub fn played_tiles(decision: &pb::Decision) -> Option<Vec<pb::LexioTile>> {
    match decision.game.as_ref()? {
        pb::decision::Game::Lexio(lexio) => match lexio.decision.as_ref()? {
            pb::lexio_decision::Decision::Pass(_) => Some(vec![]),
            pb::lexio_decision::Decision::Play(play) => Some(play.tiles.clone()),
        },
        _ => None,
    }
}

// ---------------------------------------------------------------- captured logs

/// Everything logged in this test process since [`capture_logs`].
static CAPTURED_LOG: std::sync::Mutex<Vec<u8>> = std::sync::Mutex::new(Vec::new());

struct CapturedLogWriter;

impl std::io::Write for CapturedLogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        CAPTURED_LOG.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Sends this process's logs (info and above, text without colours) to a buffer that
/// [`captured_log`] reads: for tests of what an in-process server logs. Once per
/// test binary.
pub fn capture_logs() {
    tracing_subscriber::fmt()
        .with_writer(|| CapturedLogWriter)
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .init();
}

/// The length of the captured log so far (a mark for [`captured_log`]).
pub fn captured_log_len() -> usize {
    CAPTURED_LOG.lock().unwrap().len()
}

/// The captured log from byte `from` on.
pub fn captured_log(from: usize) -> String {
    String::from_utf8(CAPTURED_LOG.lock().unwrap()[from..].to_vec()).unwrap()
}

// ---------------------------------------------------------------- the real binary

/// The arguments of a small `climbot ladder` over Lexio (3 players, 2 rounds, seed 5):
/// `levels` over `blocks` blocks, a calibration when `calibrate`.
pub fn small_lexio_ladder(
    calibrate: bool,
    levels: &'static str,
    blocks: &'static str,
) -> Vec<&'static str> {
    let mut args = vec!["ladder"];
    if calibrate {
        args.push("--calibrate");
    }
    args.extend([
        "--game",
        "lexio",
        "--players",
        "3",
        "--rounds",
        "2",
        "--levels",
        levels,
        "--blocks",
        blocks,
        "--seed",
        "5",
    ]);
    args
}

/// The real binary (this build) as a command, without the `CLIMBOT_*` variables of
/// the environment the tests run in (they would change its configuration).
pub fn climbot_command() -> std::process::Command {
    // A measurement may run another build of the binary (the release build, as served):
    // `CLIMBOT_TEST_BINARY=target/release/climbot`.
    let binary = std::env::var_os("CLIMBOT_TEST_BINARY")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_climbot").into());
    let mut command = std::process::Command::new(binary);
    for (key, _) in std::env::vars() {
        if key.starts_with("CLIMBOT_") {
            command.env_remove(key);
        }
    }
    command
}

/// Runs `climbot serve` with `args` and `env`, which must refuse the configuration:
/// exit 64, one line on stderr (or clap's message with its usage) whose first line
/// contains `expected`. Returns stderr.
pub fn bad_config(args: &[&str], env: &[(&str, &str)], expected: &str) -> String {
    let mut cmd = climbot_command();
    cmd.arg("serve").args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(64), "{args:?}: {stderr}");
    // One line, or what the command-line parser found wrong with clap's whole message:
    // the line that says so, then the usage.
    let first = stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with("climbot: "), "{stderr}");
    assert!(
        stderr.lines().count() == 1 || stderr.contains("\nUsage: climbot serve"),
        "one line, or clap's message with its usage: {stderr}"
    );
    assert!(first.contains(expected), "{expected:?} not in {stderr:?}");
    stderr
}

/// Starts the real binary (`climbot serve`, this build) with `slots` decision slots,
/// JSON logs and `extra` arguments, on ephemeral ports; returns it and its gRPC address.
pub fn spawn_server(slots: usize, extra: &[&str]) -> (std::process::Child, SocketAddr) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = climbot_command()
        .args([
            "serve",
            "--grpc-addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "127.0.0.1:0",
            "--log-format",
            "json",
            "--decision-slots",
            &slots.to_string(),
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines.next().expect("a start line").unwrap();
        let json: serde_json::Value = serde_json::from_str(&line).unwrap();
        if json["fields"]["message"] == "climbot starting" {
            break json["fields"]["grpc_addr"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
        }
    };
    // Refused calls log warnings: keep reading.
    std::thread::spawn(move || for _ in lines {});
    (child, addr)
}

// ---------------------------------------------------------------- raw HTTP/2

/// A raw HTTP/2 connection (the `h2` crate), for what a gRPC library would not send:
/// partial bodies, malformed headers, hand-made compressed frames.
pub async fn h2_connect(addr: SocketAddr) -> h2::client::SendRequest<prost::bytes::Bytes> {
    let tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    // As every gRPC client does: without it, Nagle's algorithm may hold a request's
    // frames until the server acknowledges the previous ones (up to 40 ms on Linux).
    tcp.set_nodelay(true).unwrap();
    let (send, connection) = h2::client::handshake(tcp).await.unwrap();
    tokio::spawn(async move {
        let _ = connection.await;
    });
    send.ready().await.unwrap()
}

/// The request head of a gRPC call to `path` with extra headers.
pub fn grpc_head(path: &str, headers: &[(&str, &str)]) -> tonic::codegen::http::Request<()> {
    let mut request = tonic::codegen::http::Request::builder()
        .method("POST")
        .uri(format!("http://localhost{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.body(()).unwrap()
}

/// One gRPC message frame: the compressed flag, the length, the bytes.
pub fn grpc_frame(message: &[u8], compressed: bool) -> prost::bytes::Bytes {
    let mut frame = vec![u8::from(compressed)];
    frame.extend_from_slice(&(message.len() as u32).to_be_bytes());
    frame.extend_from_slice(message);
    frame.into()
}

/// A raw call's answer: the response headers, the body and the trailers.
pub struct RawAnswer {
    pub headers: tonic::codegen::http::HeaderMap,
    pub body: Vec<u8>,
    pub trailers: Option<tonic::codegen::http::HeaderMap>,
}

impl RawAnswer {
    /// The gRPC status, from the trailers or (trailers-only answers) the headers.
    pub fn status(&self) -> tonic::Status {
        self.trailers
            .as_ref()
            .and_then(tonic::Status::from_header_map)
            .or_else(|| tonic::Status::from_header_map(&self.headers))
            .expect("a grpc-status")
    }
}

/// Reads a raw call's whole answer.
pub async fn raw_answer(response: h2::client::ResponseFuture) -> Result<RawAnswer, h2::Error> {
    let response = response.await?;
    let headers = response.headers().clone();
    let mut body = response.into_body();
    let mut bytes = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk?;
        let _ = body.flow_control().release_capacity(chunk.len());
        bytes.extend_from_slice(&chunk);
    }
    let trailers = body.trailers().await?;
    Ok(RawAnswer {
        headers,
        body: bytes,
        trailers,
    })
}

/// A hand-written HTTP/2 client over a plain socket, for frame sequences no library
/// sends on request: many streams opened and reset in one write, stalls mid-frame. It
/// encodes request headers without compression (HPACK literals) and never decodes the
/// server's headers: a call succeeded when a DATA frame brings its answer.
pub struct RawH2 {
    pub socket: tokio::net::TcpStream,
    next_stream: u32,
    read: Vec<u8>,
}

/// A frame read from the server.
#[derive(Debug)]
pub struct Frame {
    pub kind: u8,
    pub flags: u8,
    pub stream: u32,
    pub payload: Vec<u8>,
}

pub const FRAME_DATA: u8 = 0;
pub const FRAME_HEADERS: u8 = 1;
pub const FRAME_RST_STREAM: u8 = 3;
pub const FRAME_SETTINGS: u8 = 4;
pub const FRAME_PING: u8 = 6;
pub const FRAME_GOAWAY: u8 = 7;
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// One frame's bytes.
pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u32;
    let mut out = vec![(len >> 16) as u8, (len >> 8) as u8, len as u8, kind, flags];
    out.extend_from_slice(&stream.to_be_bytes());
    out.extend_from_slice(payload);
    out
}

/// A header block of a gRPC POST to `path` (HPACK, no Huffman, no indexing).
pub fn grpc_header_block(path: &str) -> Vec<u8> {
    fn literal(out: &mut Vec<u8>, value: &[u8]) {
        assert!(value.len() < 127);
        out.push(value.len() as u8);
        out.extend_from_slice(value);
    }
    let mut block = vec![0x83, 0x86]; // :method POST, :scheme http (static table)
    block.push(0x04); // :path, name from the static table
    literal(&mut block, path.as_bytes());
    block.push(0x01); // :authority
    literal(&mut block, b"localhost");
    block.extend_from_slice(&[0x0f, 0x10]); // content-type (static index 31)
    literal(&mut block, b"application/grpc");
    block.push(0x00); // te: a new name
    literal(&mut block, b"te");
    literal(&mut block, b"trailers");
    block
}

impl RawH2 {
    /// Connects, exchanges the preface and SETTINGS.
    pub async fn connect(addr: SocketAddr) -> RawH2 {
        let socket = tokio::net::TcpStream::connect(addr).await.unwrap();
        socket.set_nodelay(true).unwrap();
        let mut raw = RawH2 {
            socket,
            next_stream: 1,
            read: Vec::new(),
        };
        let mut hello = PREFACE.to_vec();
        hello.extend(frame(FRAME_SETTINGS, 0, 0, &[]));
        raw.write(&hello).await;
        loop {
            let f = raw.read_frame().await.expect("the server's SETTINGS");
            if f.kind == FRAME_SETTINGS && f.flags & 1 == 0 {
                raw.write(&frame(FRAME_SETTINGS, 1, 0, &[])).await;
                return raw;
            }
        }
    }

    /// A new stream id.
    pub fn stream(&mut self) -> u32 {
        let id = self.next_stream;
        self.next_stream += 2;
        id
    }

    /// The frames of a whole gRPC request (HEADERS, then DATA ending the stream).
    pub fn request_frames(stream: u32, path: &str, message: &[u8]) -> Vec<u8> {
        let mut out = frame(FRAME_HEADERS, 0x4, stream, &grpc_header_block(path));
        out.extend(frame(FRAME_DATA, 0x1, stream, &grpc_frame(message, false)));
        out
    }

    /// Writes bytes in one go.
    pub async fn write(&mut self, bytes: &[u8]) {
        use tokio::io::AsyncWriteExt;
        self.socket.write_all(bytes).await.unwrap();
    }

    /// The next frame, `None` once the server has closed the connection. PINGs are
    /// answered.
    pub async fn read_frame(&mut self) -> Option<Frame> {
        use tokio::io::AsyncReadExt;
        loop {
            if self.read.len() >= 9 {
                let len =
                    u32::from_be_bytes([0, self.read[0], self.read[1], self.read[2]]) as usize;
                if self.read.len() >= 9 + len {
                    let f = Frame {
                        kind: self.read[3],
                        flags: self.read[4],
                        stream: u32::from_be_bytes([
                            self.read[5] & 0x7f,
                            self.read[6],
                            self.read[7],
                            self.read[8],
                        ]),
                        payload: self.read[9..9 + len].to_vec(),
                    };
                    self.read.drain(..9 + len);
                    if f.kind == FRAME_PING && f.flags & 1 == 0 {
                        self.write(&frame(FRAME_PING, 1, 0, &f.payload)).await;
                    }
                    return Some(f);
                }
            }
            let mut buf = [0u8; 16384];
            match self.socket.read(&mut buf).await {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.read.extend_from_slice(&buf[..n]),
            }
        }
    }

    /// Reads until stream `stream` brings its answer message (`Ok`), or fails: a reset,
    /// a GOAWAY, trailers without a message, the connection closed.
    pub async fn answer(&mut self, stream: u32) -> Result<Vec<u8>, String> {
        loop {
            let Some(f) = self.read_frame().await else {
                return Err("the connection closed".into());
            };
            match f.kind {
                FRAME_GOAWAY => return Err(format!("GOAWAY {:?}", &f.payload)),
                FRAME_RST_STREAM if f.stream == stream => {
                    return Err(format!("stream reset {:?}", f.payload));
                }
                FRAME_HEADERS if f.stream == stream && f.flags & 1 != 0 => {
                    return Err("answered without a message (an error status)".into());
                }
                FRAME_DATA if f.stream == stream && f.payload.len() >= 5 => {
                    return Ok(f.payload[5..].to_vec());
                }
                _ => {}
            }
        }
    }
}

/// A request sent as `client` (the `climbot-client` metadata key).
pub fn as_client<T>(message: T, client: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request
        .metadata_mut()
        .insert("climbot-client", client.parse().unwrap());
    request
}

/// The `grpc-retry-pushback-ms` trailer of a refusal, if it has one.
pub fn pushback_ms(status: &tonic::Status) -> Option<u64> {
    status
        .metadata()
        .get("grpc-retry-pushback-ms")?
        .to_str()
        .ok()?
        .parse()
        .ok()
}

/// The seeds of slow decisions: a decision with seed `SLOW_SEED + n` (n < 10000) sleeps
/// n ms before it starts, in its slot (see [`slow_decisions`]).
pub const SLOW_SEED: u64 = 1 << 40;

/// A fault hook making the decisions of seed `SLOW_SEED + n` hold their slot n ms.
pub fn slow_decisions(point: climbot::service::FaultPoint, seed: Option<u64>) {
    if point == climbot::service::FaultPoint::Decide
        && let Some(n) = seed.and_then(|s| s.checked_sub(SLOW_SEED))
        && n < 10_000
    {
        std::thread::sleep(Duration::from_millis(n));
    }
}

/// An EXPERT call (one search iteration) that holds its slot about `hold_ms` when the
/// server's fault hook is [`slow_decisions`], within a budget of `budget_ms`.
pub fn slot_call(hold_ms: u64, budget_ms: u32) -> pb::SelectPlayRequest {
    let mut request = select(undecided_view(), pb::Difficulty::Expert);
    request.seed = Some(SLOW_SEED + hold_ms);
    request.budget_ms = Some(budget_ms);
    request.max_iterations = Some(1);
    request
}
