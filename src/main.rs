//! The `climbot` command: the gRPC service and the offline tools (statistics,
//! self-play) in one binary.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// climbot: a bot service for climbing games (Lexio, The Great Dalmuti, Daifugo).
#[derive(Parser, Debug)]
#[command(name = "climbot", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Reproduce the design documents' statistics on random deals.
    #[command(subcommand)]
    Stats(StatsCommand),
    /// Duplicate matches between bots, with 95% intervals over blocks.
    Arena(climbot::arena::cli::ArenaArgs),
    /// Play many rounds between easy bots, checking every action and invariant.
    #[command(subcommand)]
    Selfplay(SelfplayCommand),
}

#[derive(Subcommand, Debug)]
enum StatsCommand {
    /// Lexio opening hands (seeds 000 and 001).
    Lexio(climbot::lexio::cli::StatsArgs),
    /// The Great Dalmuti: how often an opening lead can be beaten.
    Dalmuti(climbot::dalmuti::cli::StatsArgs),
}

#[derive(Subcommand, Debug)]
enum SelfplayCommand {
    /// Lexio rounds.
    Lexio(climbot::lexio::cli::SelfplayArgs),
    /// The Great Dalmuti: matches between bots, every action checked.
    Dalmuti(climbot::dalmuti::cli::SelfplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), String> = match cli.command {
        Command::Stats(cmd) => match cmd {
            StatsCommand::Lexio(args) => climbot::lexio::cli::stats(args),
            StatsCommand::Dalmuti(args) => climbot::dalmuti::cli::run_stats(&args),
        },
        Command::Arena(args) => climbot::arena::cli::arena(args),
        Command::Selfplay(cmd) => match cmd {
            SelfplayCommand::Lexio(args) => climbot::lexio::cli::selfplay(args),
            SelfplayCommand::Dalmuti(args) => climbot::dalmuti::cli::run_selfplay(&args),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("climbot: {message}");
            ExitCode::FAILURE
        }
    }
}
