//! climbot-core: the rules, the bots and the search of three climbing games (Lexio,
//! The Great Dalmuti and Daifugo), with no I/O.
//!
//! This crate is what the climbot gRPC service serves, usable in process by a game
//! server written in Rust. It depends on nothing but `rand_chacha`: no network, no
//! threads, no clock. Every bot is a pure function of one seat's view and a
//! [`bot::DecisionContext`] (the seeded random generator and the budget check), so
//! the same view and seed give the same answer.
//!
//! Each game module has the same inner shape: cards (tiles) and their sets,
//! combinations and their comparison, move generation, a referee that plays whole
//! hands, the view one seat may see (built only through a validating constructor), and
//! the bots. What works across games is written once against [`game::Game`] and
//! [`game::Simulation`]: the EXPERT search in [`search`], and the statistics in
//! [`stats`].
//!
//! # Example
//!
//! Deal a five-player Lexio round, then ask EASY and EXPERT what the seat to act plays:
//!
//! ```
//! use climbot_core::bot::{DecisionContext, Difficulty};
//! use climbot_core::game::Game;
//! use climbot_core::lexio::referee::{Round, deal};
//! use climbot_core::lexio::{Lexio, PlayerCount};
//!
//! let players = PlayerCount::Five;
//! let round = Round::new(players, deal(players, 42), 1, [0; 5]);
//! let view = round.view().expect("a fresh round has a valid view");
//!
//! for level in [Difficulty::Easy, Difficulty::Expert] {
//!     let bot = Lexio::policy(level).expect("Lexio serves every level");
//!     // A fixed amount of search work makes EXPERT's answer machine-independent.
//!     let mut ctx = DecisionContext::unbounded(7).with_max_iterations(Some(200));
//!     let decision = bot.decide(&view, &mut ctx);
//!     assert!(Lexio::is_legal(&view, &decision));
//!     println!("{}: {decision:?} after {} playouts", level.name(), ctx.work().iterations);
//! }
//! ```
#![forbid(unsafe_code)]

pub mod bot;
pub mod daifugo;
pub mod dalmuti;
pub mod dial;
pub mod game;
pub mod learn;
pub mod lexio;
pub mod search;
pub mod stats;
pub mod view_error;
