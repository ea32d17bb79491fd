//! The offline tools behind `climbot stats`, `climbot selfplay`, `climbot tables` and
//! `climbot proto`: their command lines, the Monte Carlo statistics, the table
//! generators and the API's descriptor set. They drive the game modules from outside
//! (threads, clocks, JSON); the game modules never call back into them.

pub mod daifugo;
pub mod dalmuti;
pub mod dalmuti_stats;
pub mod lexio;
pub mod lexio_safety;
pub mod lexio_stats;
pub mod proto;
