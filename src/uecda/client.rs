//! `climbot uecda play`: a UECda client that rebuilds a full [`DaifugoView`] from the
//! messages and asks a climbot policy (in-process, or a climbot server with `--via`).

use super::codec::{self, PLAYERS};
use super::error::{LevelError, UecdaError, io_error};
use super::tracker::{Seen, Tracker};
use crate::arena::remote::{Remote, RemoteBot};
use crate::bot::{DecisionContext, Difficulty, StableHasher};
use crate::daifugo::referee::weakest_cards;
use crate::daifugo::view::DaifugoView;
use crate::daifugo::{Daifugo, DaifugoDecision};
use crate::game::{Game, Policy};
use crate::stats::mean_ci95;
use std::io::{BufReader, BufWriter};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// `climbot uecda play`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The UECda server, HOST:PORT.
    #[arg(long, default_value = "127.0.0.1:42485")]
    pub server: String,
    /// The name sent in the handshake (at most 14 bytes are sent).
    #[arg(long, default_value = "climbot")]
    pub name: String,
    /// The Daifugo bot: a served level (easy, normal, hard, expert) or, without
    /// `--via`, any arena bot name.
    #[arg(long, default_value = "hard", value_parser = parse_level)]
    pub level: String,
    /// The time budget of one decision in milliseconds (default: the bot's own limit).
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// Ask a running climbot server (e.g. http://127.0.0.1:50051) for every decision.
    #[arg(long, value_name = "URL", value_parser = crate::arena::remote::parse_via)]
    pub via: Option<String>,
    /// Leave after this many games (default: play until the server ends the match).
    #[arg(long)]
    pub games: Option<u32>,
    /// The seed of the decisions' random generators.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Print nothing but the results table and loud errors.
    #[arg(long)]
    pub quiet: bool,
}

/// What a client saw of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientReport {
    /// This client's player number.
    pub me: usize,
    /// Per game, the players in place order (first place first).
    pub places: Vec<Vec<usize>>,
    /// Plays the server rejected (each one a disagreement on a rule).
    pub rejected: usize,
    /// Turns where the messages did not make a valid view (a pass was sent).
    pub view_errors: usize,
    /// Things read that climbot's rules could only approximate.
    pub warnings: Vec<String>,
    /// Decisions taken (give-backs, plays, passes).
    pub decisions: usize,
}

impl ClientReport {
    /// `player`'s points in each game (5 for first place .. 1 for last).
    pub fn points_of(&self, player: usize) -> Vec<f64> {
        self.places
            .iter()
            .map(|places| {
                let place = places
                    .iter()
                    .position(|&p| p == player)
                    .unwrap_or(PLAYERS - 1);
                (PLAYERS - place) as f64
            })
            .collect()
    }

    /// The results table: average points per game with 95% intervals and the places.
    pub fn table(&self) -> String {
        let mut out = format!(
            "{} games; rejected plays: {}; view errors: {}\n\
             player        points/game  95% interval       1st   2nd   3rd   4th   5th\n",
            self.places.len(),
            self.rejected,
            self.view_errors
        );
        for player in 0..PLAYERS {
            let points = self.points_of(player);
            // Points per game run from 1 (last) to 5 (first).
            let ci = mean_ci95(&points, (1.0, PLAYERS as f64));
            let mut counts = [0usize; PLAYERS];
            for places in &self.places {
                if let Some(i) = places.iter().position(|&p| p == player) {
                    counts[i] += 1;
                }
            }
            let label = if player == self.me {
                format!("{player} (me)")
            } else {
                player.to_string()
            };
            out += &format!(
                "{label:<12} {:>11.3}  [{:>6.3}, {:>6.3}] {}\n",
                ci.mean,
                ci.lo,
                ci.hi,
                counts
                    .iter()
                    .map(|c| format!("{c:>5}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        out
    }
}

enum Decider {
    Local(Box<dyn Policy<Daifugo>>),
    Remote(Box<Remote>, Difficulty),
}

impl Decider {
    fn new(args: &PlayArgs) -> Result<Decider, UecdaError> {
        match &args.via {
            Some(url) => {
                let difficulty =
                    Difficulty::named(&args.level).ok_or_else(|| UecdaError::Level {
                        level: args.level.clone(),
                        reason: "--via serves easy, normal, hard, expert".to_string(),
                    })?;
                Ok(Decider::Remote(Box::new(Remote::connect(url)?), difficulty))
            }
            None => Daifugo::bot(&args.level)
                .map(Decider::Local)
                .map_err(|e| UecdaError::Level {
                    level: args.level.clone(),
                    reason: format!("{e} ({})", Daifugo::BOT_NAMES),
                }),
        }
    }

    fn decide(&self, view: &DaifugoView, seed: u64, budget: Option<Duration>) -> DaifugoDecision {
        let start = Instant::now();
        let deadline = budget.map(|b| start + b);
        let stop = move || deadline.is_some_and(|d| Instant::now() >= d);
        let spent = move || deadline.map_or(0.0, |d| crate::bot::budget_share(start, d));
        let mut ctx = DecisionContext::new(seed, &stop);
        if deadline.is_some() {
            ctx = ctx.with_budget_spent(&spent);
        }
        match self {
            Decider::Local(policy) => policy.decide(view, &mut ctx),
            Decider::Remote(remote, difficulty) => {
                let bot = RemoteBot::<Daifugo>::new(remote, *difficulty);
                let decision = bot.decide(view, &mut ctx);
                if let Some(e) = remote.error() {
                    crate::errln!("climbot uecda: --via failed ({e}); the easy bot decided");
                }
                decision
            }
        }
    }
}

/// `--level` at parse time, so an unknown bot is a usage error (exit 64) like every
/// other bad flag.
fn parse_level(text: &str) -> Result<String, LevelError> {
    Daifugo::bot(text)
        .map(|_| text.to_owned())
        .map_err(|e| LevelError {
            reason: format!("{e} ({})", Daifugo::BOT_NAMES),
        })
}

/// Plays a match as one client and returns what it saw.
pub fn run(args: &PlayArgs) -> Result<ClientReport, UecdaError> {
    let decider = Decider::new(args)?;
    let budget = args.budget_ms.map(Duration::from_millis);
    let stream = TcpStream::connect(&args.server).map_err(|e| UecdaError::Connect {
        server: args.server.to_string(),
        reason: e.to_string(),
    })?;
    stream.set_nodelay(true).map_err(io_error("TCP_NODELAY"))?;
    let mut reader = BufReader::new(stream.try_clone().map_err(io_error("socket"))?);
    let mut writer = BufWriter::new(stream);
    codec::write_table(&mut writer, &codec::hello_table(&args.name))
        .map_err(io_error("handshake"))?;
    let me = codec::read_int(&mut reader).map_err(io_error("player number"))?;
    if !(0..PLAYERS as i32).contains(&me) {
        return Err(UecdaError::PlayerNumber(me));
    }
    let me = me as usize;
    if !args.quiet {
        crate::errln!("climbot uecda: connected to {} as player {me}", args.server);
    }
    let mut tracker = Tracker::new(me);
    let mut report = ClientReport {
        me,
        ..ClientReport::default()
    };
    let mut games = 0u32;
    'games: loop {
        let deal = codec::read_table(&mut reader).map_err(io_error("deal"))?;
        let give = tracker.on_deal(&deal)?;
        // The classes of this game are the places of the last one.
        if let (Some(titles), Some(last)) = (tracker.titles(), report.places.last_mut()) {
            let mut places = vec![0; PLAYERS];
            for (p, t) in titles.iter().enumerate() {
                places[super::tracker::class_of_title(*t) as usize] = p;
            }
            *last = places;
        }
        games += 1;
        if give > 0 {
            let input = tracker.view_input(Some(give));
            let cards = match DaifugoView::new(input.clone()) {
                Ok(view) => {
                    let seed = decision_seed(args.seed, games, &view);
                    match decider.decide(&view, seed, budget) {
                        DaifugoDecision::Exchange(cards) => cards,
                        other => {
                            crate::errln!(
                                "climbot uecda: the bot answered {other:?} to the exchange"
                            );
                            weakest_cards(tracker.hand(), give as usize)
                        }
                    }
                }
                Err(e) => {
                    report.view_errors += 1;
                    crate::errln!(
                        "climbot uecda: VIEW ERROR at the exchange of game {games}: {e}\n{input:#?}"
                    );
                    weakest_cards(tracker.hand(), give as usize)
                }
            };
            report.decisions += 1;
            codec::write_table(&mut writer, &codec::hand_table(cards))
                .map_err(io_error("give-back"))?;
        }
        loop {
            let turn = codec::read_table(&mut reader).map_err(io_error("turn"))?;
            if tracker.on_turn(&turn)? {
                let input = tracker.view_input(None);
                let decision = match DaifugoView::new(input.clone()) {
                    Ok(view) => {
                        let seed = decision_seed(args.seed, games, &view);
                        decider.decide(&view, seed, budget)
                    }
                    Err(e) => {
                        report.view_errors += 1;
                        crate::errln!(
                            "climbot uecda: VIEW ERROR in game {games}: {e}; passing\n{input:#?}"
                        );
                        DaifugoDecision::Pass
                    }
                };
                report.decisions += 1;
                let table = match decision {
                    DaifugoDecision::Play(play) => {
                        codec::play_table(&play, tracker.status().revolution, tracker.table_suits())
                    }
                    _ => codec::empty_table(),
                };
                codec::write_table(&mut writer, &table).map_err(io_error("play"))?;
                let ack = codec::read_int(&mut reader).map_err(io_error("acknowledgement"))?;
                if ack != codec::ACCEPTED && matches!(decision, DaifugoDecision::Play(_)) {
                    report.rejected += 1;
                    crate::errln!(
                        "climbot uecda: REJECTED PLAY ({ack}) in game {games}: {decision:?}; \
                         climbot and the server disagree on a rule. The view was:\n{input:#?}"
                    );
                }
            }
            let stage = codec::read_table(&mut reader).map_err(io_error("table"))?;
            let seen = tracker.on_stage(&stage)?;
            if let (false, Seen::Played(p, play)) = (args.quiet, &seen)
                && std::env::var_os("CLIMBOT_UECDA_TRACE").is_some()
            {
                crate::errln!("game {games}: player {p} played {play:?}");
            }
            for w in tracker.take_warnings() {
                if !args.quiet {
                    crate::errln!("climbot uecda: warning: {w}");
                }
                report.warnings.push(w);
            }
            match codec::read_int(&mut reader).map_err(io_error("game state"))? {
                codec::GAME_ON => {}
                codec::GAME_OVER => {
                    report.places.push(tracker.provisional_places());
                    if args.games.is_some_and(|g| games >= g) {
                        break 'games;
                    }
                    break;
                }
                codec::MATCH_OVER => {
                    report.places.push(tracker.provisional_places());
                    break 'games;
                }
                other => return Err(UecdaError::GameState(other)),
            }
        }
    }
    Ok(report)
}

fn decision_seed(seed: u64, game: u32, view: &DaifugoView) -> u64 {
    StableHasher::new()
        .bytes(b"uecda")
        .u64(seed)
        .u64(u64::from(game))
        .u64(view.fingerprint())
        .finish()
}

/// `climbot uecda play`: plays, then prints the results table.
pub fn play(args: &PlayArgs) -> Result<(), UecdaError> {
    let report = run(args)?;
    crate::outln!("{}", report.table());
    if report.rejected > 0 || report.view_errors > 0 {
        return Err(UecdaError::Refusals {
            rejected: report.rejected,
            view_errors: report.view_errors,
        });
    }
    Ok(())
}
