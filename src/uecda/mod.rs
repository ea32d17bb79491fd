//! UECda: the computer-Daifugo tournament protocol (docs/uecda.md). climbot's Daifugo
//! bots join a UECda server as clients (`climbot uecda play`), and climbot's referee
//! serves UECda clients (`climbot uecda serve`). The game modules know nothing of it:
//! this module translates the messages into validated views and back.

#![warn(missing_docs)]

pub mod client;
pub mod codec;
mod error;
pub mod record;
pub mod server;
pub mod tracker;

use crate::tools::ToolError;

pub use error::{LevelError, RecordError, TableError, TrackerError, UecdaError};

/// `climbot uecda`.
#[derive(clap::Subcommand, Debug)]
pub enum UecdaCommand {
    /// Join a UECda server as one client, deciding with a climbot bot.
    Play(client::PlayArgs),
    /// Referee a UECda match for 5 clients on climbot's referee.
    Serve(server::ServeArgs),
    /// Replay a UECda match record on climbot's referee: every play legal, the same places.
    CheckRecord(record::CheckRecordArgs),
}

/// Runs a `climbot uecda` subcommand.
pub fn run(command: &UecdaCommand) -> Result<(), ToolError> {
    match command {
        UecdaCommand::Play(args) => Ok(client::play(args)?),
        UecdaCommand::Serve(args) => Ok(server::serve(args)?),
        UecdaCommand::CheckRecord(args) => Ok(record::check_record(args)?),
    }
}
