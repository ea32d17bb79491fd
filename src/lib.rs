//! climbot: a stateless bot service for climbing games.
//!
//! Each game lives in its own module with the same inner shape (cards and sets,
//! combinations and comparison, move generation, a referee, the view a seat sees,
//! and the bots). The modules know nothing of protobuf, tonic, threads, JSON or clocks
//! (tests/layering.rs checks it); the service translates wire messages into validated
//! views and back, and [`tools`] holds the offline commands (statistics, self-play,
//! table generation) that drive the game modules from outside.
#![forbid(unsafe_code)]

pub mod arena;
pub mod bot;
pub mod daifugo;
pub mod dalmuti;
pub mod game;
pub mod lexio;
pub mod loadtest;
pub mod pb;
pub mod playground;
pub mod search;
pub mod service;
pub mod stats;
pub mod tools;
pub mod uecda;
