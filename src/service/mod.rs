//! The gRPC service: wire messages <-> validated domain views, the budget and decision
//! slots, seeding, metrics, health, reflection and graceful shutdown.
//!
//! Data flows one way: `pb` request -> [`game::decode`] (validation; every failure is a
//! [`ServiceError`], turned into a `tonic::Status` in one place) -> the game's policy
//! -> domain decision -> `pb` response. SelectPlay's Lexio requests may skip the `pb`
//! message: [`fast_lane`] reads them straight into the domain's input, which
//! [`game::decode`] validates the same way.

pub mod budget;
pub mod config;
pub mod daifugo;
pub mod dalmuti;
pub mod dial;
mod error;
pub mod fair;
pub mod fast_lane;
pub mod game;
mod guard;
mod handler;
pub mod lexio;
pub mod metrics;
mod pool;
mod server;
pub mod tls;
pub mod transport;
pub mod warm;

pub use config::{Config, FaultHook, FaultPoint, LogFormat, ServeArgs};
pub use error::{RETRY_PUSHBACK, ServiceError};
pub use game::derive_seed;
pub use guard::Guarded;
pub use handler::{BotHandler, RequestHeader, SelectPlayInput};
pub use server::{BotServer, ServeError, run};
pub use tls::{Tls, TlsError, TlsFiles};
pub use transport::Transport;
