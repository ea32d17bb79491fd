//! Prometheus metrics: names, buckets, the process-wide recorder, the per-call series
//! climbot keeps itself, and a minimal `GET /metrics` endpoint on its own port.

use crate::bot::Difficulty;
use crate::game::GameKind;
use crate::service::error::code_name;
use atomic_series::{AtomicCounter, Buckets, FixedHistogram};
use metrics::{Counter, Gauge, Histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tonic::Code;

mod atomic_series;

/// Histogram of SelectPlay latency, labels `game`, `difficulty`, `outcome`.
pub const SELECT_PLAY_DURATION: &str = "climbot_select_play_duration_seconds";
/// Histogram of AnalyzePlay latency, labels `game`, `outcome`.
pub const ANALYZE_PLAY_DURATION: &str = "climbot_analyze_play_duration_seconds";
/// Counter of calls, labels `rpc`, `game`, `difficulty`, `code`.
pub const REQUESTS: &str = "climbot_requests_total";
/// Counter of fallback answers, labels `game`, `difficulty`.
pub const FALLBACKS: &str = "climbot_fallbacks_total";
/// Counter of calls that panicked (a server bug), labels `rpc`, `game`, `difficulty`.
pub const PANICS: &str = "climbot_panics_total";
/// Counter of answers withheld because the deadline passed before they were sent (the
/// call ended DEADLINE_EXCEEDED instead), labels `rpc`.
pub const WITHHELD_ANSWERS: &str = "climbot_withheld_answers_total";
/// Gauge of decisions being computed.
pub const DECISIONS_IN_FLIGHT: &str = "climbot_decisions_in_flight";
/// Gauge, always 1, labels `version`.
pub const BUILD_INFO: &str = "climbot_build_info";
/// Gauge of the serving TLS certificate's not-after, in seconds since the Unix epoch
/// (set when TLS is on, at start and at each reload).
pub const TLS_CERTIFICATE_EXPIRY: &str = "climbot_tls_certificate_expiry_seconds";

/// Counter of calls that asked for a decision slot (SelectPlay at NORMAL, HARD and
/// EXPERT; AnalyzePlay), labels
/// `client`.
pub const CLIENT_CALLS: &str = "climbot_client_calls_total";
/// Counter of calls refused for lack of a decision slot within their budget, labels
/// `client`.
pub const CLIENT_REFUSALS: &str = "climbot_client_refusals_total";
/// Histogram of the time a decision slot was held, labels `client`: its `_sum` is the
/// slot time a client used.
pub const CLIENT_SLOT_SECONDS: &str = "climbot_client_slot_seconds";
/// The `client` label of the names past the label limit.
pub const OTHER_CLIENTS: &str = "other";

/// Histogram buckets in seconds: 50 us to 5 s.
pub const DURATION_BUCKETS: [f64; 16] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
    1.0, 2.5, 5.0,
];

/// [`DURATION_BUCKETS`] as the call latency histograms count them.
static CALL_DURATION_BUCKETS: Buckets<16> = Buckets::new(DURATION_BUCKETS);

/// A call latency histogram.
type CallHistogram = FixedHistogram<16>;

/// The help texts of the series climbot keeps itself ([`CallSeries`]).
const REQUESTS_HELP: &str = "Calls by rpc, game, difficulty and gRPC code";
const SELECT_PLAY_DURATION_HELP: &str = "SelectPlay latency from arrival to answer";
const ANALYZE_PLAY_DURATION_HELP: &str = "AnalyzePlay latency from arrival to answer";

/// The recorder's handle and the per-call series, set once by [`install`].
static INSTALLED: OnceLock<(PrometheusHandle, CallSeries)> = OnceLock::new();

/// Installs the process-wide recorder once and returns its handle. Servers started in
/// the same process (tests) share it.
pub fn install() -> PrometheusHandle {
    INSTALLED
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full(CLIENT_SLOT_SECONDS.to_string()),
                    &DURATION_BUCKETS,
                )
                .expect("buckets are not empty")
                .build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics will be empty");
            }
            describe();
            metrics::gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
            let series = CallSeries::new();
            series.in_flight.set(0.0);
            series.register_at_zero();
            (handle, series)
        })
        .0
        .clone()
}

/// The RPCs whose calls are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rpc {
    /// `SelectPlay`.
    SelectPlay,
    /// `ListLegalPlays`.
    ListLegalPlays,
    /// `AnalyzePlay`.
    AnalyzePlay,
}

impl Rpc {
    /// Every RPC counted.
    pub const ALL: [Rpc; 3] = [Rpc::SelectPlay, Rpc::ListLegalPlays, Rpc::AnalyzePlay];

    /// The RPC a request path names (`None` for other services: health, reflection).
    pub fn from_path(path: &str) -> Option<Rpc> {
        match path {
            "/climbot.v1.BotService/SelectPlay" => Some(Rpc::SelectPlay),
            "/climbot.v1.BotService/ListLegalPlays" => Some(Rpc::ListLegalPlays),
            "/climbot.v1.BotService/AnalyzePlay" => Some(Rpc::AnalyzePlay),
            _ => None,
        }
    }

    /// The `rpc` label.
    pub const fn name(self) -> &'static str {
        match self {
            Rpc::SelectPlay => "select_play",
            Rpc::ListLegalPlays => "list_legal_plays",
            Rpc::AnalyzePlay => "analyze_play",
        }
    }
}

/// One finished call, as the metrics and the call's log line see it.
#[derive(Clone, Copy, Debug)]
pub struct CallOutcome {
    /// The RPC.
    pub rpc: Rpc,
    /// The game, once the view named one.
    pub game: Option<GameKind>,
    /// The level, once the request was read (SelectPlay only).
    pub difficulty: Option<Difficulty>,
    /// The gRPC code the call ended with (`Cancelled` when it was dropped).
    pub code: Code,
    /// Whether the answer came from the easy fallback.
    pub fallback: bool,
    /// Whether the call ended in a panic (its code is then `Internal`).
    pub panicked: bool,
    /// From arrival to the end of the call.
    pub elapsed: Duration,
}

impl CallOutcome {
    /// The `game` label.
    pub fn game_label(&self) -> &'static str {
        self.game_slot().1
    }

    /// The `difficulty` label: "none" for ListLegalPlays and AnalyzePlay (which has no
    /// level), "unknown" before it was read.
    pub fn difficulty_label(&self) -> &'static str {
        self.difficulty_slot().1
    }

    /// The `outcome` label: the code's name, "fallback" for a fallback answer, "panic"
    /// for a call that panicked.
    pub fn outcome_label(&self) -> &'static str {
        self.outcome_slot().1
    }

    /// The `game` label and its index below [`GAME_LABELS`].
    fn game_slot(&self) -> (usize, &'static str) {
        self.game
            .map_or((0, "unknown"), |g| (g as usize + 1, g.name()))
    }

    /// The `difficulty` label and its index below [`DIFFICULTY_LABELS`].
    fn difficulty_slot(&self) -> (usize, &'static str) {
        match (self.rpc, self.difficulty) {
            (Rpc::ListLegalPlays | Rpc::AnalyzePlay, _) => (0, "none"),
            (Rpc::SelectPlay, None) => (1, "unknown"),
            (Rpc::SelectPlay, Some(d)) => (d as usize + 2, d.name()),
        }
    }

    /// The `outcome` label and its index below [`OUTCOMES`].
    fn outcome_slot(&self) -> (usize, &'static str) {
        match self.code {
            _ if self.panicked => (CODES + 1, "panic"),
            Code::Ok if self.fallback => (CODES, "fallback"),
            code => (code as usize, code_name(code)),
        }
    }
}

/// Game labels: "unknown" and each game.
const GAME_LABELS: usize = 4;
/// Difficulty labels: "none", "unknown" and each level.
const DIFFICULTY_LABELS: usize = 2 + Difficulty::ALL.len();
/// gRPC codes, 0..=16.
const CODES: usize = 17;
/// Outcome labels: each code, "fallback" and "panic".
const OUTCOMES: usize = CODES + 2;
/// RPC labels.
const RPCS: usize = Rpc::ALL.len();

/// The per-call series, each made on its first use and kept: a call then updates its
/// counter and histogram without hashing its labels into a registry (load test). The
/// request counters and latency histograms, which every call updates, are climbot's
/// own ([`atomic_series`], rendered by [`render`]); the rarer series are the exporter's,
/// registered with it. The series the alerts read are registered at zero at start-up
/// ([`CallSeries::register_at_zero`]); the others appear in `/metrics` once used.
struct CallSeries {
    /// `climbot_requests_total` by rpc, game, difficulty, code.
    requests: Box<[OnceLock<Labelled<AtomicCounter, 4>>]>,
    /// `climbot_select_play_duration_seconds` by game, difficulty, outcome.
    durations: Box<[OnceLock<Labelled<CallHistogram, 3>>]>,
    /// `climbot_analyze_play_duration_seconds` by game, outcome.
    analyze_durations: Box<[OnceLock<Labelled<CallHistogram, 2>>]>,
    /// `climbot_fallbacks_total` by game, difficulty.
    fallbacks: Box<[OnceLock<Counter>]>,
    /// `climbot_panics_total` by rpc, game, difficulty.
    panics: Box<[OnceLock<Counter>]>,
    /// `climbot_decisions_in_flight`.
    in_flight: Gauge,
}

fn lazy_series<T>(len: usize) -> Box<[OnceLock<T>]> {
    (0..len).map(|_| OnceLock::new()).collect()
}

/// A series climbot keeps itself, with its labels' names and values.
struct Labelled<T, const L: usize> {
    labels: [(&'static str, &'static str); L],
    series: T,
}

/// The series of `cells` that were made, in their order.
fn made<T>(cells: &[OnceLock<T>]) -> impl Iterator<Item = &T> {
    cells.iter().filter_map(OnceLock::get)
}

/// One histogram family: its header, then each series that was made.
fn render_histograms<const L: usize>(
    out: &mut String,
    name: &str,
    help: &str,
    cells: &[OnceLock<Labelled<CallHistogram, L>>],
) {
    atomic_series::write_family_header(out, name, help, "histogram");
    for made in made(cells) {
        atomic_series::write_histogram(out, name, &made.labels, &made.series);
    }
    out.push('\n');
}

impl CallSeries {
    fn new() -> Self {
        let cells = GAME_LABELS * DIFFICULTY_LABELS;
        CallSeries {
            requests: lazy_series(RPCS * cells * CODES),
            durations: lazy_series(cells * OUTCOMES),
            analyze_durations: lazy_series(GAME_LABELS * OUTCOMES),
            fallbacks: lazy_series(cells),
            panics: lazy_series(RPCS * cells),
            in_flight: metrics::gauge!(DECISIONS_IN_FLIGHT),
        }
    }

    /// The label cell of a call's game and difficulty.
    fn cell(call: &CallOutcome) -> usize {
        call.game_slot().0 * DIFFICULTY_LABELS + call.difficulty_slot().0
    }

    /// `climbot_requests_total` of the call's labels.
    fn requests(&self, call: &CallOutcome) -> &AtomicCounter {
        let cells = GAME_LABELS * DIFFICULTY_LABELS;
        &self.requests
            [((call.rpc as usize) * cells + Self::cell(call)) * CODES + call.code as usize]
            .get_or_init(|| Labelled {
                labels: [
                    ("rpc", call.rpc.name()),
                    ("game", call.game_label()),
                    ("difficulty", call.difficulty_label()),
                    ("code", code_name(call.code)),
                ],
                series: AtomicCounter::default(),
            })
            .series
    }

    /// `climbot_panics_total` of the call's labels.
    fn panics(&self, call: &CallOutcome) -> &Counter {
        let cells = GAME_LABELS * DIFFICULTY_LABELS;
        self.panics[(call.rpc as usize) * cells + Self::cell(call)].get_or_init(|| {
            metrics::counter!(PANICS, "rpc" => call.rpc.name(), "game" => call.game_label(), "difficulty" => call.difficulty_label())
        })
    }

    /// `climbot_select_play_duration_seconds` of the call's labels.
    fn duration(&self, call: &CallOutcome) -> &CallHistogram {
        let (outcome_index, outcome) = call.outcome_slot();
        &self.durations[Self::cell(call) * OUTCOMES + outcome_index]
            .get_or_init(|| Labelled {
                labels: [
                    ("game", call.game_label()),
                    ("difficulty", call.difficulty_label()),
                    ("outcome", outcome),
                ],
                series: FixedHistogram::new(&CALL_DURATION_BUCKETS),
            })
            .series
    }

    /// `climbot_analyze_play_duration_seconds` of the call's labels.
    fn analyze_duration(&self, call: &CallOutcome) -> &CallHistogram {
        let (outcome_index, outcome) = call.outcome_slot();
        &self.analyze_durations[call.game_slot().0 * OUTCOMES + outcome_index]
            .get_or_init(|| Labelled {
                labels: [("game", call.game_label()), ("outcome", outcome)],
                series: FixedHistogram::new(&CALL_DURATION_BUCKETS),
            })
            .series
    }

    /// The series climbot keeps itself, in Prometheus's text format.
    fn render(&self, out: &mut String) {
        use atomic_series::{write_counter, write_family_header};
        write_family_header(out, REQUESTS, REQUESTS_HELP, "counter");
        for made in made(&self.requests) {
            write_counter(out, REQUESTS, &made.labels, made.series.get());
        }
        out.push('\n');
        render_histograms(
            out,
            SELECT_PLAY_DURATION,
            SELECT_PLAY_DURATION_HELP,
            &self.durations,
        );
        render_histograms(
            out,
            ANALYZE_PLAY_DURATION,
            ANALYZE_PLAY_DURATION_HELP,
            &self.analyze_durations,
        );
    }

    /// `climbot_fallbacks_total` of the call's labels.
    fn fallbacks(&self, call: &CallOutcome) -> &Counter {
        self.fallbacks[Self::cell(call)].get_or_init(|| {
            metrics::counter!(FALLBACKS, "game" => call.game_label(), "difficulty" => call.difficulty_label())
        })
    }

    fn record(&self, call: &CallOutcome) {
        self.requests(call).increment(1);
        if call.panicked {
            self.panics(call).increment(1);
        }
        match call.rpc {
            Rpc::SelectPlay => {}
            Rpc::AnalyzePlay => {
                self.analyze_duration(call).record(call.elapsed);
                return;
            }
            Rpc::ListLegalPlays => return,
        }
        self.duration(call).record(call.elapsed);
        if call.fallback {
            self.fallbacks(call).increment(1);
        }
    }

    /// Registers at zero every series an alert of `deploy/prometheus/alerts.yaml` reads
    /// that a call can reach: an alert on `rate` or `increase` then sees a counter's
    /// first step (a series born at 1 shows no increase), and each series is there from
    /// the first scrape. Per RPC and each label a call can carry (SelectPlay: every
    /// game, or "unknown" before the view named one, and every level, or "unknown"
    /// before the request was read; ListLegalPlays and AnalyzePlay: difficulty "none"):
    /// the panics, and the requests by each code the alerts name; per game and level,
    /// the fallbacks and the latency histogram of answered calls (AnalyzePlay: per
    /// game); per RPC, the withheld answers.
    fn register_at_zero(&self) {
        const ALERTED_CODES: [Code; 11] = [
            Code::Ok,
            Code::Internal,
            Code::Unknown,
            Code::Unavailable,
            Code::DataLoss,
            Code::DeadlineExceeded,
            Code::InvalidArgument,
            Code::OutOfRange,
            Code::FailedPrecondition,
            Code::Unimplemented,
            Code::ResourceExhausted,
        ];
        let games = [
            None,
            Some(GameKind::Lexio),
            Some(GameKind::Dalmuti),
            Some(GameKind::Daifugo),
        ];
        let select_play = std::iter::once(None).chain(Difficulty::ALL.map(Some));
        let cells = games.iter().flat_map(|&game| {
            select_play
                .clone()
                .map(move |difficulty| (Rpc::SelectPlay, game, difficulty))
                .chain(std::iter::once((Rpc::ListLegalPlays, game, None)))
                .chain(std::iter::once((Rpc::AnalyzePlay, game, None)))
        });
        for (rpc, game, difficulty) in cells {
            let call = |code: Code| CallOutcome {
                rpc,
                game,
                difficulty,
                code,
                fallback: false,
                panicked: false,
                elapsed: Duration::ZERO,
            };
            self.panics(&call(Code::Internal));
            for code in ALERTED_CODES {
                self.requests(&call(code));
            }
            if rpc == Rpc::SelectPlay && game.is_some() && difficulty.is_some() {
                self.fallbacks(&call(Code::Ok));
                self.duration(&call(Code::Ok));
            }
            if rpc == Rpc::AnalyzePlay && game.is_some() {
                self.analyze_duration(&call(Code::Ok));
            }
        }
        for rpc in Rpc::ALL.map(Some).into_iter().chain([None]) {
            withheld_answers(rpc).increment(0);
        }
    }
}

/// `climbot_withheld_answers_total` of an RPC.
fn withheld_answers(rpc: Option<Rpc>) -> Counter {
    metrics::counter!(WITHHELD_ANSWERS, "rpc" => rpc.map_or("other", Rpc::name))
}

/// Counts one finished call (nothing before [`install`]).
pub fn record_call(call: &CallOutcome) {
    if let Some((_, series)) = INSTALLED.get() {
        series.record(call);
    }
}

/// Sets the gauge of the serving TLS certificate's not-after, in seconds since the Unix
/// epoch (nothing before [`install`]).
pub fn record_tls_certificate_expiry(not_after: i64) {
    metrics::gauge!(TLS_CERTIFICATE_EXPIRY).set(not_after as f64);
}

/// Counts one answer withheld at its deadline (nothing before [`install`]).
pub fn record_withheld_answer(rpc: Option<Rpc>) {
    if INSTALLED.get().is_some() {
        withheld_answers(rpc).increment(1);
    }
}

/// One `client` label's series, registered once and kept: a call updates them without
/// hashing its labels into the registry.
#[derive(Debug)]
pub struct ClientSeries {
    /// `climbot_client_calls_total`.
    pub calls: Counter,
    /// `climbot_client_refusals_total`.
    pub refusals: Counter,
    /// `climbot_client_slot_seconds`.
    pub slot_seconds: Histogram,
}

impl ClientSeries {
    fn new(label: &str) -> Arc<Self> {
        let label = label.to_string();
        let series = ClientSeries {
            calls: metrics::counter!(CLIENT_CALLS, "client" => label.clone()),
            refusals: metrics::counter!(CLIENT_REFUSALS, "client" => label.clone()),
            slot_seconds: metrics::histogram!(CLIENT_SLOT_SECONDS, "client" => label),
        };
        series.calls.increment(0);
        series.refusals.increment(0);
        Arc::new(series)
    }
}

/// The `client` labels: `anonymous`, the first `limit` names seen (the names given
/// weights first, in name order), and `other` for the rest; `anonymous` and `other`
/// are registered at zero when the labels are made. Their series are made on
/// first use and kept, so that a call looks its client up in a small map (at most
/// `limit` names) and never in the metrics registry.
#[derive(Debug)]
pub struct ClientLabels {
    limit: usize,
    named: Mutex<BTreeMap<Arc<str>, Arc<ClientSeries>>>,
    cached: OnceLock<(Arc<ClientSeries>, Arc<ClientSeries>)>,
}

impl ClientLabels {
    /// At most `limit` named labels; `first` are given theirs first.
    pub fn new<'a>(limit: usize, first: impl Iterator<Item = &'a Arc<str>>) -> Self {
        let labels = ClientLabels {
            limit,
            named: Mutex::new(BTreeMap::new()),
            cached: OnceLock::new(),
        };
        // `anonymous` and `other` are in `/metrics`, at zero, from the start.
        labels.series(&Arc::from(crate::service::fair::ANONYMOUS));
        for name in first {
            labels.series(name);
        }
        labels
    }

    /// The series of `client`'s label.
    pub fn series(&self, client: &Arc<str>) -> Arc<ClientSeries> {
        let (anonymous, other) = self.cached.get_or_init(|| {
            (
                ClientSeries::new(crate::service::fair::ANONYMOUS),
                ClientSeries::new(OTHER_CLIENTS),
            )
        });
        if client.as_ref() == crate::service::fair::ANONYMOUS {
            return anonymous.clone();
        }
        let mut named = self.named.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(series) = named.get(client) {
            return series.clone();
        }
        if named.len() >= self.limit || client.as_ref() == OTHER_CLIENTS {
            return other.clone();
        }
        let series = ClientSeries::new(client);
        named.insert(client.clone(), series.clone());
        series
    }
}

fn describe() {
    metrics::describe_counter!(FALLBACKS, "Decisions answered by the easy fallback");
    metrics::describe_counter!(
        PANICS,
        "Calls that panicked (server bugs), answered INTERNAL"
    );
    metrics::describe_counter!(
        WITHHELD_ANSWERS,
        "Answers withheld because the deadline passed before they were sent"
    );
    metrics::describe_counter!(
        CLIENT_CALLS,
        "Calls that asked for a decision slot, by client (bounded label set)"
    );
    metrics::describe_counter!(
        CLIENT_REFUSALS,
        "Calls refused RESOURCE_EXHAUSTED for lack of a decision slot, by client"
    );
    metrics::describe_histogram!(
        CLIENT_SLOT_SECONDS,
        metrics::Unit::Seconds,
        "Time a decision slot was held, by client"
    );
    metrics::describe_gauge!(
        DECISIONS_IN_FLIGHT,
        "Decisions and analyses being computed on a decision slot (EASY, answered inline, is not counted)"
    );
    metrics::describe_gauge!(BUILD_INFO, "Build information (always 1)");
    metrics::describe_gauge!(
        TLS_CERTIFICATE_EXPIRY,
        metrics::Unit::Seconds,
        "Not-after of the serving TLS certificate, in seconds since the Unix epoch"
    );
}

/// Keeps `climbot_decisions_in_flight` up while alive.
pub struct InFlight(());

impl InFlight {
    /// Counts one decision in.
    pub fn enter() -> Self {
        if let Some((_, series)) = INSTALLED.get() {
            series.in_flight.increment(1.0);
        }
        InFlight(())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some((_, series)) = INSTALLED.get() {
            series.in_flight.decrement(1.0);
        }
    }
}

/// Everything `/metrics` shows: the exporter's series, then climbot's own
/// ([`CallSeries`]).
fn render(handle: &PrometheusHandle) -> String {
    let mut text = handle.render();
    if let Some((_, series)) = INSTALLED.get() {
        series.render(&mut text);
    }
    text
}

/// Serves `GET /metrics` on `listener` until the task is dropped, and runs the
/// recorder's upkeep.
pub async fn serve(listener: TcpListener, handle: PrometheusHandle) {
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(5));
        loop {
            tick.tick().await;
            upkeep.run_upkeep();
        }
    });
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let handle = handle.clone();
                tokio::spawn(async move {
                    let _ = tokio::time::timeout(Duration::from_secs(10), answer(stream, &handle))
                        .await;
                });
            }
            Err(error) => {
                tracing::warn!(%error, "metrics listener accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// Answers one HTTP/1.x request (one per connection).
async fn answer(stream: TcpStream, handle: &PrometheusHandle) -> std::io::Result<()> {
    let mut request = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 16 * 1024 {
        stream.readable().await?;
        match stream.try_read(&mut buf) {
            Ok(0) => break,
            Ok(n) => request.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    let line = request.split(|&b| b == b'\r').next().unwrap_or_default();
    let mut parts = line.split(|&b| b == b' ');
    let method = parts.next().unwrap_or_default();
    let path = parts.next().unwrap_or_default();
    let path = path.split(|&b| b == b'?').next().unwrap_or_default();
    let (status, body) = if method == b"GET" && path == b"/metrics" {
        ("200 OK", render(handle))
    } else {
        ("404 Not Found", "not found; try GET /metrics\n".to_string())
    };
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: text/plain; version=0.0.4; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut out = response.as_bytes();
    while !out.is_empty() {
        stream.writable().await?;
        match stream.try_write(out) {
            Ok(n) => out = &out[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
