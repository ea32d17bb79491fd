//! The offline tools behind `climbot stats`, `climbot selfplay` and `climbot tables`:
//! their command lines, the Monte Carlo statistics and the table generators. They drive
//! the game modules from outside (threads, clocks, JSON); the game modules never call
//! back into them.

pub mod daifugo;
pub mod dalmuti;
pub mod dalmuti_stats;
pub mod lexio;
pub mod lexio_safety;
pub mod lexio_stats;
