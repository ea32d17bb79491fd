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
    /// Play many rounds between easy bots, checking every action and invariant.
    #[command(subcommand)]
    Selfplay(SelfplayCommand),
}

#[derive(Subcommand, Debug)]
enum StatsCommand {
    /// Daifugo: the seed's forbidden-finish rate for 4, 5 and 6 easy players.
    Daifugo(climbot::daifugo::cli::StatsArgs),
}

#[derive(Subcommand, Debug)]
enum SelfplayCommand {
    /// Daifugo: easy self-play under the house or UECda rules.
    Daifugo(climbot::daifugo::cli::SelfplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), String> = match cli.command {
        Command::Stats(cmd) => match cmd {
            StatsCommand::Daifugo(args) => climbot::daifugo::cli::stats(&args),
        },
        Command::Selfplay(cmd) => match cmd {
            SelfplayCommand::Daifugo(args) => climbot::daifugo::cli::selfplay(&args),
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
