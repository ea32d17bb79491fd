//! What can be wrong with a contest message: a table that holds no cards or play, and
//! a message that does not follow from what the client saw.

use std::fmt;

/// Why an 8×15 table holds no hand or play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// A 1 where no card stands.
    NotACardCell {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
    },
    /// A value other than 0, 1 or 2.
    BadCell {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
        /// The value.
        value: i32,
    },
    /// More than one joker: `what` is `table` (a hand) or `play`.
    Jokers {
        /// How many.
        count: usize,
        /// `table` or `play`.
        what: &'static str,
    },
    /// A joker beside naturals at a cell that declares no card.
    JokerOffCard {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
    },
    /// The cells make no play of the kind they suggest (the rules' reason).
    NoPlay(String),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NotACardCell { row, column } => {
                write!(f, "[{row}][{column}] = 1 is not a card cell")
            }
            TableError::BadCell { row, column, value } => {
                write!(f, "[{row}][{column}] = {value}: cells hold 0, 1 or 2")
            }
            TableError::Jokers { count, what } => write!(f, "{count} jokers in one {what}"),
            TableError::JokerOffCard { row, column } => {
                write!(f, "joker at [{row}][{column}]: not a card cell")
            }
            TableError::NoPlay(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for TableError {}

/// Why the client's tracker cannot follow a message from the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrackerError {
    /// The message's table holds no hand or play.
    Table(TableError),
    /// Row 6's seats are not a permutation of the players.
    Seats(Vec<usize>),
    /// The server shows a table this client never saw played.
    UnseenTable,
    /// The player to act is out of range.
    Actor(i32),
    /// A table that differs from the last one yet holds no cards.
    EmptyPlay,
    /// A play repeats a card played earlier (the play, as debug output).
    RepeatedCard(String),
}

impl fmt::Display for TrackerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrackerError::Table(e) => e.fmt(f),
            TrackerError::Seats(seats) => write!(f, "row 6 seats {seats:?} are not a permutation"),
            TrackerError::UnseenTable => {
                f.write_str("the server shows a table this client never saw played")
            }
            TrackerError::Actor(actor) => write!(f, "player to act {actor} out of range"),
            TrackerError::EmptyPlay => f.write_str("a play with no cards differs from the table"),
            TrackerError::RepeatedCard(play) => {
                write!(f, "{play} repeats a card played earlier")
            }
        }
    }
}

impl std::error::Error for TrackerError {}

impl From<TableError> for TrackerError {
    fn from(error: TableError) -> Self {
        TrackerError::Table(error)
    }
}

/// Why `climbot uecda play` or `climbot uecda serve` stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UecdaError {
    /// A socket or file step failed: `what` names the step (`handshake`, `send`,
    /// `record`, ...).
    Io {
        /// The step.
        what: &'static str,
        /// The I/O error.
        reason: String,
    },
    /// The server could not be reached.
    Connect {
        /// The server's address.
        server: String,
        /// Why.
        reason: String,
    },
    /// The server could not listen.
    Listen {
        /// The address.
        addr: String,
        /// Why.
        reason: String,
    },
    /// The record file could not be created.
    Create {
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The socket's own address could not be read.
    LocalAddress(String),
    /// `--level` names no bot the client can play with (`reason` says why).
    Level {
        /// The level as given.
        level: String,
        /// Why.
        reason: String,
    },
    /// The `--via` server could not be used.
    Remote(crate::arena::RemoteError),
    /// A message the tracker cannot follow.
    Tracker(TrackerError),
    /// The server gave a player number outside 0..5.
    PlayerNumber(i32),
    /// The server sent a game state the protocol lacks.
    GameState(i32),
    /// The match ended with plays the server rejected or views climbot refused.
    Refusals {
        /// Plays the server rejected.
        rejected: usize,
        /// Views climbot refused.
        view_errors: usize,
    },
    /// climbot's referee refused a step of the match it serves.
    Referee(String),
    /// A rejected submission could not be replaced by a pass.
    ForcedPass(String),
}

impl fmt::Display for UecdaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UecdaError::Io { what, reason } => write!(f, "{what}: {reason}"),
            UecdaError::Connect { server, reason } => {
                write!(f, "cannot connect to {server}: {reason}")
            }
            UecdaError::Listen { addr, reason } => write!(f, "cannot listen on {addr}: {reason}"),
            UecdaError::Create { path, reason } => write!(f, "cannot write {path}: {reason}"),
            UecdaError::LocalAddress(reason) | UecdaError::Referee(reason) => f.write_str(reason),
            UecdaError::Level { level, reason } => write!(f, "--level {level}: {reason}"),
            UecdaError::Remote(e) => e.fmt(f),
            UecdaError::Tracker(e) => e.fmt(f),
            UecdaError::PlayerNumber(n) => write!(f, "the server gave player number {n}"),
            UecdaError::GameState(n) => write!(f, "unknown game state {n}"),
            UecdaError::Refusals {
                rejected,
                view_errors,
            } => write!(f, "{rejected} rejected plays and {view_errors} view errors"),
            UecdaError::ForcedPass(reason) => {
                write!(f, "a rejected submission cannot pass: {reason}")
            }
        }
    }
}

impl std::error::Error for UecdaError {}

impl From<TrackerError> for UecdaError {
    fn from(error: TrackerError) -> Self {
        UecdaError::Tracker(error)
    }
}

impl From<crate::arena::RemoteError> for UecdaError {
    fn from(error: crate::arena::RemoteError) -> Self {
        UecdaError::Remote(error)
    }
}

/// An I/O error of the step `what`.
pub(crate) fn io_error(what: &'static str) -> impl Fn(std::io::Error) -> UecdaError {
    move |e| UecdaError::Io {
        what,
        reason: e.to_string(),
    }
}

/// `--level` at parse time: the bot name is no Daifugo bot's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// Why, from the game.
    pub reason: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for LevelError {}
