//! climbot: a stateless bot service for climbing games.
//!
//! Each game lives in its own module with the same inner shape (cards and sets,
//! combinations and comparison, move generation, a referee, the view a seat sees,
//! and the bots). The modules know nothing of protobuf, tonic, threads, JSON or clocks
//! (tests/layering.rs checks it); the service translates wire messages into validated
//! views and back, and [`tools`] holds the offline commands (statistics, self-play,
//! table generation) that drive the game modules from outside.
#![forbid(unsafe_code)]
// Output goes through `outln!` and `errln!` (tools::output), which never panic on a
// closed or full stream.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

pub mod arena;
pub mod loadtest;
pub mod pb;
pub mod playground;
pub mod service;
pub mod tools;
pub mod uecda;

// The games, their bots, the search and the statistics live in the `climbot-core`
// crate; they are re-exported under their old names so that `climbot::lexio` and
// `crate::lexio` keep meaning what they did.
pub use climbot_core::{
    bot, daifugo, dalmuti, dial, game, learn, lexio, search, stats, view_error,
};
