//! The arena's remote mode (`--via http://ADDR`): every decision of a served level goes
//! through a running climbot server, with the same seed the in-process run would use,
//! so both runs give the same results. Baselines (`singles`, `random`) are not served
//! and stay in-process.

use crate::bot::{DecisionContext, Difficulty};
use crate::daifugo::{DaifugoDecision, DaifugoPolicy, DaifugoView};
use crate::dalmuti::{DalmutiDecision, DalmutiPolicy, DalmutiView};
use crate::lexio::bots::{LexioPolicy, easy_action};
use crate::lexio::{Action, LexioView};
use crate::pb;
use crate::pb::bot_service_client::BotServiceClient;
use crate::service::daifugo as daifugo_wire;
use crate::service::dalmuti as dalmuti_wire;
use crate::service::lexio::{action_from_wire, view_to_wire};
use std::sync::Mutex;
use tonic::transport::Channel;

/// A connection to a climbot server and the runtime that drives it.
pub struct Remote {
    runtime: tokio::runtime::Runtime,
    client: BotServiceClient<Channel>,
    /// The first failure; the arena reports it instead of any result.
    error: Mutex<Option<String>>,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Remote")
    }
}

impl Remote {
    /// Connects to `addr` (e.g. `http://127.0.0.1:50051`).
    pub fn connect(addr: &str) -> Result<Remote, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| format!("--via: {e}"))?;
        let endpoint =
            Channel::from_shared(addr.to_string()).map_err(|e| format!("--via {addr}: {e}"))?;
        let channel = runtime
            .block_on(endpoint.connect())
            .map_err(|e| format!("--via {addr}: cannot connect: {e}"))?;
        Ok(Remote {
            runtime,
            client: BotServiceClient::new(channel),
            error: Mutex::new(None),
        })
    }

    /// The first failure of any remote decision, if one happened.
    pub fn error(&self) -> Option<String> {
        self.error.lock().ok().and_then(|e| e.clone())
    }

    fn fail(&self, message: String) {
        if let Ok(mut e) = self.error.lock() {
            e.get_or_insert(message);
        }
    }

    fn select(&self, request: pb::SelectPlayRequest) -> Result<pb::SelectPlayResponse, String> {
        let mut client = self.client.clone();
        self.runtime
            .block_on(client.select_play(request))
            .map(tonic::Response::into_inner)
            .map_err(|s| format!("SelectPlay failed: {:?}: {}", s.code(), s.message()))
    }
}

/// A served level of any game, decided by the server.
#[derive(Clone, Copy)]
pub struct RemoteBot<'a> {
    /// The connection.
    pub remote: &'a Remote,
    /// The level asked for.
    pub difficulty: Difficulty,
}

impl<'a> RemoteBot<'a> {
    /// One remote bot per level, for runners that look bots up by name.
    pub fn every_level(remote: &'a Remote) -> Vec<RemoteBot<'a>> {
        Difficulty::ALL
            .into_iter()
            .map(|difficulty| RemoteBot { remote, difficulty })
            .collect()
    }
}

fn difficulty_to_wire(d: Difficulty) -> pb::Difficulty {
    crate::service::game::difficulty_to_wire(d)
}

/// Asks the server for a decision on `view` with the in-process seed and reads the
/// game's answer back with `read`; on any failure records it and returns `None`.
fn remote_decision<T>(
    remote: &Remote,
    view: pb::game_view::Game,
    difficulty: Difficulty,
    ctx: &DecisionContext<'_>,
    read: impl FnOnce(pb::decision::Game) -> Result<T, String>,
) -> Option<T> {
    let request = pb::SelectPlayRequest {
        explain: false,
        view: Some(pb::GameView { game: Some(view) }),
        difficulty: difficulty_to_wire(difficulty) as i32,
        seed: Some(ctx.seed()),
        budget_ms: None,
    };
    let answer = remote.select(request).and_then(|r| {
        if r.fallback {
            return Err("the server answered with a fallback (budget too small)".into());
        }
        let game = r.decision.and_then(|d| d.game).ok_or("no decision")?;
        read(game)
    });
    answer.map_err(|e| remote.fail(e)).ok()
}

impl DalmutiPolicy for RemoteBot<'_> {
    fn name(&self) -> &'static str {
        self.difficulty.name()
    }

    fn decide(&self, view: &DalmutiView, ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        let wire = pb::game_view::Game::Dalmuti(dalmuti_wire::view_to_wire(view));
        remote_decision(self.remote, wire, self.difficulty, ctx, |game| match game {
            pb::decision::Game::Dalmuti(d) => dalmuti_wire::decision_from_wire(view, &d)
                .ok_or_else(|| format!("illegal answer {d:?}")),
            other => Err(format!("not a Dalmuti decision: {other:?}")),
        })
        // Keep the match going; the arena reports the failure instead of results.
        .unwrap_or_else(|| crate::dalmuti::bots::easy::Easy.decide(view, ctx))
    }
}

impl DaifugoPolicy for RemoteBot<'_> {
    fn name(&self) -> &'static str {
        self.difficulty.name()
    }

    fn decide(&self, view: &DaifugoView, ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        let wire = pb::game_view::Game::Daifugo(daifugo_wire::view_to_wire(view));
        remote_decision(self.remote, wire, self.difficulty, ctx, |game| match game {
            pb::decision::Game::Daifugo(d) => daifugo_wire::decision_from_wire(view, &d)
                .ok_or_else(|| format!("illegal answer {d:?}")),
            other => Err(format!("not a Daifugo decision: {other:?}")),
        })
        // Keep the match going; the arena reports the failure instead of results.
        .unwrap_or_else(|| crate::daifugo::bots::easy::decide(view))
    }
}

impl LexioPolicy for RemoteBot<'_> {
    fn name(&self) -> &'static str {
        self.difficulty.name()
    }

    fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
        let wire = pb::game_view::Game::Lexio(view_to_wire(view));
        remote_decision(self.remote, wire, self.difficulty, ctx, |game| match game {
            pb::decision::Game::Lexio(a) => {
                action_from_wire(view, &a).ok_or_else(|| format!("illegal answer {a:?}"))
            }
            other => Err(format!("not a Lexio decision: {other:?}")),
        })
        // Keep the match going; the arena reports the failure instead of results.
        .unwrap_or_else(|| easy_action(view.players(), view.hand(), view.table()))
    }
}
