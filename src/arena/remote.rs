//! The arena's remote mode (`--via http://ADDR`): every decision of a served level goes
//! through a running climbot server, with the same seed the in-process run would use,
//! so both runs give the same results. Baselines (`singles`, `random`) are not served
//! and stay in-process.

use super::{RemoteError, ViaError};
use crate::bot::{DecisionContext, Difficulty};
use crate::game::Policy;
use crate::pb;
use crate::pb::bot_service_client::BotServiceClient;
use crate::service::game::WireGame;
use std::marker::PhantomData;
use std::sync::Mutex;
use tonic::transport::Channel;

/// A connection to a climbot server and the runtime that drives it.
pub struct Remote {
    runtime: tokio::runtime::Runtime,
    client: BotServiceClient<Channel>,
    /// The first failure; the arena reports it instead of any result.
    error: Mutex<Option<RemoteError>>,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Remote")
    }
}

impl Remote {
    /// Connects to `addr` (e.g. `http://127.0.0.1:50051`).
    pub fn connect(addr: &str) -> Result<Remote, RemoteError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| RemoteError::Runtime(e.to_string()))?;
        let endpoint =
            Channel::from_shared(addr.to_string()).map_err(|e| RemoteError::Address {
                addr: addr.to_string(),
                reason: e.to_string(),
            })?;
        let channel = runtime
            .block_on(endpoint.connect())
            .map_err(|e| RemoteError::Connect {
                addr: addr.to_string(),
                reason: e.to_string(),
            })?;
        Ok(Remote {
            runtime,
            client: BotServiceClient::new(channel),
            error: Mutex::new(None),
        })
    }

    /// The first failure of any remote decision, if one happened.
    pub fn error(&self) -> Option<RemoteError> {
        self.error.lock().ok().and_then(|e| e.clone())
    }

    fn fail(&self, error: RemoteError) {
        if let Ok(mut e) = self.error.lock() {
            e.get_or_insert(error);
        }
    }

    /// One SelectPlay call, waited for on the connection's own runtime.
    pub fn select(
        &self,
        request: pb::SelectPlayRequest,
    ) -> Result<pb::SelectPlayResponse, RemoteError> {
        let mut client = self.client.clone();
        self.runtime
            .block_on(client.select_play(request))
            .map(tonic::Response::into_inner)
            .map_err(call_failed)
    }

    /// One AnalyzePlay call, waited for on the connection's own runtime. Unlike
    /// [`Remote::select`]'s failures in a match, a failure here is the caller's to
    /// report: it is not recorded in [`Remote::error`].
    pub fn analyze(
        &self,
        request: pb::AnalyzePlayRequest,
    ) -> Result<pb::AnalyzePlayResponse, RemoteError> {
        let mut client = self.client.clone();
        self.runtime
            .block_on(client.analyze_play(request))
            .map(tonic::Response::into_inner)
            .map_err(call_failed)
    }
}

/// A failed call as a [`RemoteError`].
fn call_failed(status: tonic::Status) -> RemoteError {
    RemoteError::Call {
        code: status.code(),
        message: status.message().to_string(),
    }
}

/// A served level of game `G`, decided by the server.
pub struct RemoteBot<'a, G> {
    /// The connection.
    pub remote: &'a Remote,
    /// The level asked for.
    pub difficulty: Difficulty,
    /// The request's `max_iterations`, if any.
    pub max_iterations: Option<u64>,
    game: PhantomData<fn() -> G>,
}

impl<'a, G> RemoteBot<'a, G> {
    /// The level `difficulty` of game `G` through `remote`.
    pub fn new(remote: &'a Remote, difficulty: Difficulty) -> Self {
        RemoteBot {
            remote,
            difficulty,
            max_iterations: None,
            game: PhantomData,
        }
    }

    /// The same bot, asking the server's search for exactly `iterations` iterations.
    pub fn with_max_iterations(self, iterations: u64) -> Self {
        RemoteBot {
            max_iterations: Some(iterations),
            ..self
        }
    }
}

impl<G: WireGame> Policy<G> for RemoteBot<'_, G> {
    fn name(&self) -> &'static str {
        self.difficulty.name()
    }

    /// Asks the server with the in-process seed; on any failure records it and keeps
    /// the match going with the easy bot (the arena then reports the failure instead
    /// of any result).
    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let request = pb::SelectPlayRequest {
            explain: false,
            view: Some(pb::GameView {
                game: Some(G::view_to_wire(view)),
            }),
            difficulty: crate::service::game::difficulty_to_wire(self.difficulty) as i32,
            seed: Some(ctx.seed()),
            budget_ms: None,
            strength: None,
            max_iterations: self
                .max_iterations
                .map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
        };
        let answer = self.remote.select(request).and_then(|r| {
            if r.fallback {
                return Err(RemoteError::Fallback);
            }
            let decision = r
                .decision
                .and_then(|d| d.game)
                .ok_or(RemoteError::NoDecision)?;
            G::decision_from_wire(view, &decision).ok_or_else(|| RemoteError::Illegal {
                game: G::NAME,
                decision: format!("{decision:?}"),
            })
        });
        match answer {
            Ok(decision) => decision,
            Err(e) => {
                self.remote.fail(e);
                G::policy(Difficulty::Easy)
                    .expect("every game serves easy")
                    .decide(view, ctx)
            }
        }
    }
}

/// `--via` when the command line is read: an absolute `http://` or `https://` URL with
/// a host, so that a malformed address is a usage error (exit 64) rather than a failed
/// connection.
pub fn parse_via(text: &str) -> Result<String, ViaError> {
    let uri: tonic::codegen::http::Uri = text
        .parse()
        .map_err(|e: tonic::codegen::http::uri::InvalidUri| ViaError::NotAUrl(e.to_string()))?;
    match (uri.scheme_str(), uri.host()) {
        (Some("http" | "https"), Some(_)) => Ok(text.to_owned()),
        _ => Err(ViaError::NotHttp),
    }
}

#[cfg(test)]
mod tests {
    use super::parse_via;

    #[test]
    fn only_absolute_http_urls_with_a_host_are_accepted() {
        assert!(parse_via("http://127.0.0.1:50051").is_ok());
        assert!(parse_via("https://bots.example:443").is_ok());
        for bad in ["127.0.0.1:50051", "not a url", "ftp://host", "http://", ""] {
            assert!(parse_via(bad).is_err(), "{bad:?}");
        }
    }
}
