//! `climbot playground`: a small HTTP server with one page and a JSON API, where a
//! person plays Lexio, The Great Dalmuti or Daifugo against climbot's bots at chosen
//! levels, or watches bot-only tables move by move with each bot's explanation.
//!
//! Tables live in this process (the gRPC service stays stateless), at most
//! `--max-tables` at once; a table nobody asked about for `--idle-minutes` is dropped.
//! The API:
//!
//! - `POST /api/tables` `{"game", "players", "levels", "human_seat"?, "seed"?,
//!   "rules"?, "rounds"?}`: a new table (201 with its state). `human_seat` is the
//!   human's place in the lineup and `levels` names one level per other place, in
//!   order, or gives a strength instead (a whole number of rating points on the game's
//!   ladder scale: the bot is the strength dial's nearest setting, as SelectPlay's
//!   `strength` chooses it); the seed defaults to 1, `rules` (Daifugo only) to `house`, `rounds` to
//!   the arena's match length.
//! - `GET /api/tables/{id}`: the table's state.
//! - `POST /api/tables/{id}/actions` `{"decision": <climbot.v1.Decision JSON>}`: the
//!   human seat's action, one of the state's `legal`.
//! - `POST /api/tables/{id}/step`: one bot decision.
//! - `GET /api/tables/{id}/moves/{n}`: move `n` with the bot's scored candidates.
//! - `POST /api/tables/{id}/hint`: on the human's turn, the analysis of their view (the
//!   service's AnalyzePlay in proto3 JSON, without `compute_micros`): the best decision
//!   (EXPERT's choice) then the next four (all, if fewer), each with its `expected`
//!   outcome in the `unit` (`chips`, higher is better, or `place`, lower is better),
//!   its 95% interval and its `best` flag; `"analyzed": true` and `moves`, the moves taken before the
//!   view. In a phase the search does not play (a Daifugo exchange, a Great Dalmuti
//!   tax return or revolution choice) `"analyzed": false` with the `reason`. 409 off
//!   the human's turn.
//! - `GET /api/tables/{id}/review/{deal}`: once deal `deal` (1 for the first round,
//!   hand or game) is over, the human's decisions in it: `deal`, `unit`,
//!   `higher_is_better` and `decisions`, each with the move's `index` and `decision`,
//!   `forced` (the only legal action: not analyzed), `analyzed`, and with an analysis
//!   its `review` (`category`, `loss` against the best) and the `best` and `played`
//!   decisions as analyzed; without one the `reason`. 409 while the deal is played,
//!   404 for a deal the table does not play. The state's `reviewable` lists the deals
//!   over in which the human decided.
//!
//! Hints and reviews are deterministic: each analysis does a fixed number of playouts
//! (`max_iterations`: twice the table's EXPERT playouts, at least 8 per legal
//! decision) from the seed the service derives from the view, through the service's
//! code path or, with `--via`, the server's AnalyzePlay. A review's analyses are made
//! on its first request and kept.
//!
//! A table's state names players by their place in the lineup (`lineup`: `human`, the
//! bot's level or `strength N` for each; `human_seat`, `to_act`, the totals, each move's `player`) and
//! seats as the views number them (each view's `seat`, each move's `seat`). `seating`
//! maps the two for the deal of the state's `view`: the player at each table seat. It
//! is the identity in Lexio and Daifugo; in The Great Dalmuti the seats are drawn for
//! the first hand and follow the finishing order after it.
//!
//! Errors are `{"error": "...", "field": "..."}` with 400 (a field breaks a rule),
//! 404, 409 (not that seat's turn), 413 (a body over 64 KiB) or 503 (every table in
//! use).

mod bounds;
mod coach;
mod error;
mod table;
mod wire;

pub use error::ApiError;
pub use table::{Player, Table, TableSpec};

use crate::arena::ArenaGame;
use crate::arena::remote::{Remote, parse_via};
use crate::bot::Difficulty;
use crate::daifugo::Daifugo;
use crate::daifugo::rules::RuleSet;
use crate::dalmuti::Dalmuti;
use crate::game::GameKind;
use crate::lexio::Lexio;
use crate::tools::ToolError;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clap::Args;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use table::GameTable;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// `climbot playground`.
#[derive(Args, Debug)]
pub struct PlaygroundArgs {
    /// The address the page and the API listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Let every bot decide through the climbot server at this address, e.g.
    /// `http://127.0.0.1:50051`, instead of in this process.
    #[arg(long, value_parser = parse_via)]
    pub via: Option<String>,
    /// Tables held at once, 1 to 1000.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub max_tables: u16,
    /// Minutes after which a table nobody asked about is dropped, at least 1.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_minutes: u64,
    /// Playouts per EXPERT decision, 1 to 1,000,000 (default: each game's own number,
    /// the arena's `expert`). More plays stronger and makes each EXPERT move slower.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub expert_iterations: Option<u64>,
}

/// The playground's limits and bots.
#[derive(Clone, Debug)]
pub struct Config {
    /// Tables held at once.
    pub max_tables: usize,
    /// How long a table may go unasked before it is dropped.
    pub idle: Duration,
    /// The longest a request waits for one bot decision.
    pub decision_wait: Duration,
    /// The server every bot decides through, if any.
    pub remote: Option<Arc<Remote>>,
    /// Connections open at once; more wait until one closes.
    pub max_connections: usize,
    /// The longest a request may take once its headers are in, reading its body
    /// included (408 after); longer than `decision_wait`, whose own answer is the
    /// clearer one.
    pub request_timeout: Duration,
    /// A request's headers must be whole within this of the connection opening or of
    /// the previous answer, or the connection is closed: this bounds a client that
    /// trickles its headers, and a kept-alive connection waiting for its next request.
    pub header_read_timeout: Duration,
    /// A connection with no byte read or written for this long is closed.
    pub connection_idle: Duration,
    /// Playouts per EXPERT decision; `None`: each game's own number, the arena's
    /// `expert`.
    pub expert_iterations: Option<u64>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_tables: 32,
            idle: Duration::from_secs(30 * 60),
            decision_wait: Duration::from_secs(60),
            remote: None,
            max_connections: 256,
            request_timeout: Duration::from_secs(90),
            header_read_timeout: Duration::from_secs(30),
            connection_idle: Duration::from_secs(120),
            expert_iterations: None,
        }
    }
}

/// The most rounds, hands or games a table plays.
pub const MAX_UNITS: u32 = 20;

/// The largest request body accepted.
const MAX_BODY_BYTES: usize = 64 * 1024;

struct Entry {
    table: Arc<dyn Table>,
    last_used: Instant,
}

struct Tables {
    config: Config,
    next_id: u64,
    tables: BTreeMap<u64, Entry>,
}

type Shared = Arc<Mutex<Tables>>;

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Tables> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Tables {
    /// Drops the tables idle for longer than the limit.
    fn expire(&mut self, now: Instant) {
        let idle = self.config.idle;
        self.tables
            .retain(|_, e| now.saturating_duration_since(e.last_used) < idle);
    }

    fn get(&mut self, id: &str) -> Result<Arc<dyn Table>, ApiError> {
        let now = Instant::now();
        self.expire(now);
        let entry = id
            .parse::<u64>()
            .ok()
            .and_then(|id| self.tables.get_mut(&id))
            .ok_or_else(|| {
                ApiError::not_found(format!("no table {id:?} (tables expire when idle)"))
            })?;
        entry.last_used = now;
        Ok(Arc::clone(&entry.table))
    }
}

/// Runs `climbot playground` until SIGINT or SIGTERM.
pub fn run(args: &PlaygroundArgs) -> Result<(), ToolError> {
    // The connection has a runtime of its own: make it before entering ours.
    let remote = match &args.via {
        Some(url) => Some(Arc::new(Remote::connect(url)?)),
        None => None,
    };
    let config = Config {
        max_tables: usize::from(args.max_tables),
        idle: Duration::from_secs(args.idle_minutes.saturating_mul(60)),
        remote,
        expert_iterations: args.expert_iterations,
        ..Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| ToolError::Failed(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| ToolError::Usage(format!("cannot listen on --addr {}: {e}", args.addr)))?;
        let local = listener
            .local_addr()
            .map_err(|e| ToolError::Failed(e.to_string()))?;
        crate::errln!("climbot playground: http://{local}/");
        serve(listener, config, shutdown_signal())
            .await
            .map_err(|e| ToolError::Failed(format!("server failed: {e}")))
    })?;
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Serves the page and the API on `listener` until `shutdown` resolves, then lets the
/// requests under way finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut listener =
        bounds::BoundedListener::new(listener, config.max_connections, config.connection_idle);
    let request_timeout = config.request_timeout;
    // HTTP/1.1 only; the header deadline needs hyper's own timer.
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout);
    let shared: Shared = Arc::new(Mutex::new(Tables {
        config,
        next_id: 1,
        tables: BTreeMap::new(),
    }));
    let sweeper = tokio::spawn(sweep(Arc::downgrade(&shared)));
    let app = router(shared).layer(axum::middleware::from_fn(move |request, next| {
        bounds::request_timeout(request_timeout, request, next)
    }));
    let closing = CancellationToken::new();
    let mut connections = JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let io = tokio::select! {
            () = &mut shutdown => break,
            (io, _) = axum::serve::Listener::accept(&mut listener) => io,
        };
        let connection =
            http.serve_connection(TokioIo::new(io), TowerToHyperService::new(app.clone()));
        let closing = closing.clone();
        connections.spawn(async move {
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => return,
                () = closing.cancelled() => connection.as_mut().graceful_shutdown(),
            }
            let _ = connection.await;
        });
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    closing.cancel();
    while connections.join_next().await.is_some() {}
    sweeper.abort();
    Ok(())
}

/// Drops idle tables every minute, also when no request comes.
async fn sweep(shared: std::sync::Weak<Mutex<Tables>>) {
    let mut ticks = tokio::time::interval(Duration::from_secs(60));
    loop {
        ticks.tick().await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        lock(&shared).expire(Instant::now());
    }
}

/// The page and the API over `shared` tables.
fn router(shared: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", PAGE_HTML) }),
        )
        .route(
            "/playground.js",
            get(|| async { asset("text/javascript; charset=utf-8", PAGE_JS) }),
        )
        .route(
            "/playground.css",
            get(|| async { asset("text/css; charset=utf-8", PAGE_CSS) }),
        )
        .route("/rules/{name}", get(rules_page))
        .route("/api/tables", post(create_table))
        .route("/api/tables/{id}", get(show_table))
        .route("/api/tables/{id}/actions", post(act))
        .route("/api/tables/{id}/step", post(step))
        .route("/api/tables/{id}/moves/{index}", get(explain_move))
        .route("/api/tables/{id}/hint", post(hint))
        .route("/api/tables/{id}/review/{deal}", get(review))
        .fallback(|| async { ApiError::not_found("no such page") })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(shared)
}

/// The rules the start page links to, as written in `docs/rules/` (Markdown, shown as
/// plain text).
const RULES: [(&str, &str); 4] = [
    ("lexio", include_str!("../../docs/rules/lexio.md")),
    ("dalmuti", include_str!("../../docs/rules/dalmuti.md")),
    ("daifugo", include_str!("../../docs/rules/daifugo.md")),
    (
        "daifugo-presets",
        include_str!("../../docs/rules/daifugo-presets.md"),
    ),
];

/// `GET /rules/{name}`: a game's rules.
async fn rules_page(Path(name): Path<String>) -> Result<Response, ApiError> {
    RULES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| asset("text/plain; charset=utf-8", text))
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no rules {name:?}: {}",
                RULES.map(|(n, _)| n).join(", ")
            ))
        })
}

const PAGE_HTML: &str = include_str!("page/index.html");
const PAGE_JS: &str = include_str!("page/playground.js");
const PAGE_CSS: &str = include_str!("page/playground.css");

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// `body` as a JSON response with `status`.
pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

/// A table's state with its id.
fn table_state(id: &str, table: &dyn Table) -> Value {
    let mut state = table.snapshot();
    state["id"] = Value::String(id.to_string());
    state
}

/// Runs blocking table work off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| Err(ApiError::unavailable(format!("the request failed: {e}"))))
}

async fn create_table(
    State(shared): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request = parse_object(body)?;
    let config = {
        let mut tables = lock(&shared);
        tables.expire(Instant::now());
        if tables.tables.len() >= tables.config.max_tables {
            return Err(ApiError::unavailable(format!(
                "all {} tables are in use: try again when one has been idle for a while",
                tables.config.max_tables
            )));
        }
        tables.config.clone()
    };
    let table = blocking(move || new_table(&request, &config)).await?;
    let mut tables = lock(&shared);
    if tables.tables.len() >= tables.config.max_tables {
        return Err(ApiError::unavailable("all tables are in use"));
    }
    let id = tables.next_id;
    tables.next_id += 1;
    tables.tables.insert(
        id,
        Entry {
            table: Arc::clone(&table),
            last_used: Instant::now(),
        },
    );
    drop(tables);
    Ok(json_response(
        StatusCode::CREATED,
        &table_state(&id.to_string(), table.as_ref()),
    ))
}

async fn show_table(
    State(shared): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let table = lock(&shared).get(&id)?;
    Ok(json_response(
        StatusCode::OK,
        &table_state(&id, table.as_ref()),
    ))
}

async fn act(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let mut request = parse_object(body)?;
    let decision = request.remove("decision").ok_or_else(|| {
        ApiError::invalid("decision", "required: one of the state's legal actions")
    })?;
    if let Some(field) = request.keys().next() {
        return Err(ApiError::invalid(field.clone(), "unknown field"));
    }
    let (table, wait) = {
        let mut tables = lock(&shared);
        (tables.get(&id)?, tables.config.decision_wait)
    };
    let state = blocking(move || {
        table.act(&decision, wait)?;
        Ok(table_state(&id, table.as_ref()))
    })
    .await?;
    Ok(json_response(StatusCode::OK, &state))
}

async fn step(State(shared): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let (table, wait) = {
        let mut tables = lock(&shared);
        (tables.get(&id)?, tables.config.decision_wait)
    };
    let state = blocking(move || {
        table.step(wait)?;
        Ok(table_state(&id, table.as_ref()))
    })
    .await?;
    Ok(json_response(StatusCode::OK, &state))
}

async fn explain_move(
    State(shared): State<Shared>,
    Path((id, index)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let table = lock(&shared).get(&id)?;
    let index = index
        .parse::<usize>()
        .map_err(|_| ApiError::invalid("index", format!("{index:?} is not a move number")))?;
    Ok(json_response(StatusCode::OK, &table.explanation(index)?))
}

async fn hint(State(shared): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let table = lock(&shared).get(&id)?;
    let hint = blocking(move || table.hint()).await?;
    Ok(json_response(StatusCode::OK, &hint))
}

async fn review(
    State(shared): State<Shared>,
    Path((id, deal)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let table = lock(&shared).get(&id)?;
    let deal = deal
        .parse::<u64>()
        .map_err(|_| ApiError::invalid("deal", format!("{deal:?} is not a deal number")))?;
    let review = blocking(move || table.review(deal)).await?;
    Ok(json_response(StatusCode::OK, &review))
}

/// The request body as a JSON object (a body over the size limit is a 413).
fn parse_object(body: Result<Bytes, BytesRejection>) -> Result<Map<String, Value>, ApiError> {
    let body = body.map_err(|rejection| ApiError {
        status: rejection.status(),
        field: Some("body".into()),
        message: rejection.body_text(),
    })?;
    match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::invalid("body", "must be a JSON object")),
        Err(e) => Err(ApiError::invalid("body", format!("not JSON: {e}"))),
    }
}

/// The checked parts of a create-table request.
#[derive(Clone, Debug, PartialEq)]
struct NewTable {
    game: GameKind,
    players: usize,
    human_seat: Option<usize>,
    levels: Vec<Player>,
    seed: Option<u64>,
    rules: Option<&'static str>,
    rounds: Option<u32>,
}

const FIELDS: [&str; 7] = [
    "game",
    "players",
    "levels",
    "human_seat",
    "seed",
    "rules",
    "rounds",
];

fn whole_number(request: &Map<String, Value>, field: &str) -> Result<Option<u64>, ApiError> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            ApiError::invalid(field, format!("must be a whole number ≥ 0, not {v}"))
        }),
    }
}

/// Checks a create-table request, every field by name.
fn check_request(request: &Map<String, Value>) -> Result<NewTable, ApiError> {
    if let Some(field) = request.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(ApiError::invalid(
            field.clone(),
            format!("unknown field (known: {})", FIELDS.join(", ")),
        ));
    }
    let game = match request.get("game") {
        None | Some(Value::Null) => {
            return Err(ApiError::invalid(
                "game",
                "required: lexio, dalmuti or daifugo",
            ));
        }
        Some(v) => v
            .as_str()
            .and_then(|name| name.parse::<GameKind>().ok())
            .ok_or_else(|| ApiError::invalid("game", format!("{v}: lexio, dalmuti or daifugo")))?,
    };
    let players = whole_number(request, "players")?
        .ok_or_else(|| ApiError::invalid("players", "required"))?;
    let players = usize::try_from(players).unwrap_or(usize::MAX);
    let fits = match game {
        GameKind::Lexio => Lexio::check_players(players),
        GameKind::Dalmuti => Dalmuti::check_players(players),
        GameKind::Daifugo => Daifugo::check_players(players),
    };
    fits.map_err(|e| ApiError::invalid("players", e.to_string().trim_start_matches("--players ")))?;
    let human_seat = whole_number(request, "human_seat")?
        .map(|s| usize::try_from(s).unwrap_or(usize::MAX))
        .map(|s| {
            if s < players {
                Ok(s)
            } else {
                Err(ApiError::invalid(
                    "human_seat",
                    format!("{s}: seats are 0 to {}", players - 1),
                ))
            }
        })
        .transpose()?;
    let bots = players - usize::from(human_seat.is_some());
    let levels = match request.get("levels") {
        Some(Value::Array(levels)) => levels,
        _ => {
            return Err(ApiError::invalid(
                "levels",
                format!("required: {bots} of easy, normal, hard, expert"),
            ));
        }
    };
    if levels.len() != bots {
        return Err(ApiError::invalid(
            "levels",
            format!(
                "{} levels for {bots} bot seats: name one per bot seat",
                levels.len()
            ),
        ));
    }
    let levels = levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let named = level.as_str().and_then(Difficulty::named).map(Player::Bot);
            // A number is a strength on the game's ladder rating scale.
            let strength = level
                .as_u64()
                .and_then(|s| u32::try_from(s).ok())
                .map(Player::Strength);
            named.or(strength).ok_or_else(|| {
                ApiError::invalid(
                    format!("levels[{i}]"),
                    format!(
                        "{level}: easy, normal, hard, expert, or a strength (a whole \
                         number of rating points, at least 0)"
                    ),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let seed = whole_number(request, "seed")?;
    let rules = match request.get("rules") {
        None | Some(Value::Null) => None,
        Some(v) if game != GameKind::Daifugo => {
            return Err(ApiError::invalid(
                "rules",
                format!("{v}: only Daifugo has rule presets"),
            ));
        }
        Some(v) => Some(match v.as_str() {
            Some("house") => "house",
            Some("uecda") => "uecda",
            _ => return Err(ApiError::invalid("rules", format!("{v}: house or uecda"))),
        }),
    };
    let rounds = whole_number(request, "rounds")?
        .map(|n| match u32::try_from(n) {
            Ok(n @ 1..=MAX_UNITS) => Ok(n),
            _ => Err(ApiError::invalid(
                "rounds",
                format!("{n}: 1 to {MAX_UNITS}"),
            )),
        })
        .transpose()?;
    Ok(NewTable {
        game,
        players,
        human_seat,
        levels,
        seed,
        rules,
        rounds,
    })
}

/// One player per seat: the human at their seat, the levels in order elsewhere.
fn seat_players(request: &NewTable) -> Vec<Player> {
    let mut levels = request.levels.iter();
    (0..request.players)
        .map(|seat| match request.human_seat {
            Some(h) if h == seat => Player::Human,
            _ => *levels.next().unwrap_or(&Player::Bot(Difficulty::Easy)),
        })
        .collect()
}

fn new_table(request: &Map<String, Value>, config: &Config) -> Result<Arc<dyn Table>, ApiError> {
    let request = check_request(request)?;
    let seats = seat_players(&request);
    let seed = request.seed.unwrap_or(1);
    fn start<G: ArenaGame>(
        rules: G::Rules,
        rules_name: Option<&'static str>,
        seats: Vec<Player>,
        units: u32,
        seed: u64,
        config: &Config,
    ) -> Result<Arc<dyn Table>, ApiError> {
        let spec = TableSpec {
            rules,
            rules_name,
            seats,
            units,
            seed,
            expert_iterations: config.expert_iterations.unwrap_or(G::DEFAULT_ITERATIONS),
        };
        Ok(Arc::new(GameTable::<G>::start(
            spec,
            config.remote.clone(),
            config.decision_wait,
        )?))
    }
    match request.game {
        GameKind::Lexio => start::<Lexio>(
            (),
            None,
            seats,
            request
                .rounds
                .unwrap_or(crate::lexio::referee::ROUNDS_PER_MATCH),
            seed,
            config,
        ),
        GameKind::Dalmuti => start::<Dalmuti>(
            (),
            None,
            seats,
            request
                .rounds
                .unwrap_or(crate::dalmuti::referee::MATCH_HANDS),
            seed,
            config,
        ),
        GameKind::Daifugo => {
            let name = request.rules.unwrap_or("house");
            start::<Daifugo>(
                RuleSet::by_name(name).unwrap_or_else(RuleSet::house),
                Some(name),
                seats,
                request.rounds.unwrap_or(8),
                seed,
                config,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(request: Value) -> Result<NewTable, ApiError> {
        check_request(request.as_object().unwrap())
    }

    fn field_of(request: Value) -> String {
        check(request.clone())
            .map(|t| panic!("{request} was accepted: {t:?}"))
            .unwrap_err()
            .field
            .unwrap()
    }

    #[test]
    fn a_good_request_is_read_whole() {
        let t = check(json!({"game": "daifugo", "players": 4, "human_seat": 2,
            "levels": ["easy", 900, "expert"], "seed": 9, "rules": "uecda", "rounds": 1}))
        .unwrap();
        assert_eq!(t.human_seat, Some(2));
        assert_eq!(t.rules, Some("uecda"));
        assert_eq!(
            seat_players(&t),
            vec![
                Player::Bot(Difficulty::Easy),
                Player::Strength(900),
                Player::Human,
                Player::Bot(Difficulty::Expert)
            ]
        );
    }

    #[test]
    fn every_bad_field_is_named() {
        let good = json!({"game": "lexio", "players": 3, "levels": ["easy", "easy", "easy"]});
        assert!(check(good.clone()).is_ok());
        let with = |field: &str, value: Value| {
            let mut r = good.clone();
            r[field] = value;
            r
        };
        assert_eq!(field_of(with("game", json!("chess"))), "game");
        assert_eq!(field_of(with("players", json!(6))), "players");
        assert_eq!(field_of(with("players", json!(-1))), "players");
        assert_eq!(field_of(with("players", json!(u64::MAX))), "players");
        assert_eq!(field_of(with("players", json!("3"))), "players");
        assert_eq!(field_of(with("human_seat", json!(3))), "human_seat");
        assert_eq!(
            field_of(with("human_seat", json!(0))),
            "levels",
            "two bots now"
        );
        for level in [json!("master"), json!(-1), json!(12.5), json!(1u64 << 40)] {
            assert_eq!(
                field_of(with("levels", json!(["easy", "easy", level]))),
                "levels[2]",
                "{level}"
            );
        }
        assert_eq!(
            field_of(with("levels", json!(["easy", "easy", "master"]))),
            "levels[2]"
        );
        assert_eq!(field_of(with("levels", json!("easy"))), "levels");
        assert_eq!(field_of(with("seed", json!(1.5))), "seed");
        assert_eq!(field_of(with("rules", json!("house"))), "rules");
        assert_eq!(field_of(with("rounds", json!(0))), "rounds");
        assert_eq!(field_of(with("rounds", json!(MAX_UNITS + 1))), "rounds");
        assert_eq!(field_of(with("colour", json!(1))), "colour");
        let mut daifugo =
            json!({"game": "daifugo", "players": 4, "levels": ["easy", "easy", "easy", "easy"]});
        daifugo["rules"] = json!("casino");
        assert_eq!(field_of(daifugo), "rules");
    }

    #[test]
    fn tables_expire_when_idle() {
        let mut tables = Tables {
            config: Config {
                idle: Duration::from_secs(60),
                ..Config::default()
            },
            next_id: 1,
            tables: BTreeMap::new(),
        };
        let request = json!({"game": "lexio", "players": 3, "levels": ["easy", "easy", "easy"]});
        let table = new_table(request.as_object().unwrap(), &Config::default()).unwrap();
        let start = Instant::now();
        tables.tables.insert(
            7,
            Entry {
                table,
                last_used: start,
            },
        );
        tables.expire(start + Duration::from_secs(59));
        assert!(tables.get("7").is_ok());
        tables.expire(Instant::now() + Duration::from_secs(61));
        assert!(tables.tables.is_empty());
        assert_eq!(
            tables.get("7").err().map(|e| e.status),
            Some(StatusCode::NOT_FOUND)
        );
        assert_eq!(
            tables.get("x").err().map(|e| e.status),
            Some(StatusCode::NOT_FOUND)
        );
    }
}
