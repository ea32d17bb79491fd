//! Every way a table, a lineup or a run of the arena and the ladder can fail, each
//! with the message the command prints.

use std::fmt;

/// Why the arena or the ladder cannot run, or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// `--players`: the game does not seat that many.
    Players {
        /// The seats asked for.
        players: usize,
        /// The game, as its message names it.
        game: &'static str,
        /// The table sizes it takes, e.g. `3, 4 or 5`.
        takes: String,
    },
    /// `--lineup` names no bot.
    NoBots,
    /// `--lineup` names more bots than the table has seats.
    TooManyBots {
        /// The names given.
        names: usize,
        /// The seats at the table.
        seats: usize,
    },
    /// A bot name the game has no bot for (an unknown bot, an override it does not
    /// take, a value that does not fit).
    Bot {
        /// The flag that named it: `--lineup` or `--levels`.
        flag: &'static str,
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: Box<climbot_core::bot::BotNameError>,
        /// The game and its bot names, listed after the reason when known.
        known: Option<(&'static str, &'static str)>,
    },
    /// The ladder needs two levels or more.
    TooFewLevels,
    /// The ladder's intervals need two blocks or more.
    TooFewBlocks,
    /// The ladder's ratings could not be fitted.
    Fit(&'static str),
    /// A match stopped on a referee's error (a bot's illegal decision, a broken rule).
    Match(String),
    /// A decision through the `--via` server failed.
    Remote(RemoteError),
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Players {
                players,
                game,
                takes,
            } => write!(f, "--players {players}: {game} takes {takes}"),
            ArenaError::NoBots => f.write_str("--lineup: name at least one bot"),
            ArenaError::TooManyBots { names, seats } => {
                write!(f, "--lineup: {names} names for {seats} seats")
            }
            ArenaError::Bot {
                flag,
                name,
                reason,
                known,
            } => {
                write!(f, "{flag} {name}: {reason}")?;
                match known {
                    Some((game, bots)) => write!(f, " ({game} bots: {bots})"),
                    None => Ok(()),
                }
            }
            ArenaError::TooFewLevels => f.write_str("--levels: name at least two levels"),
            ArenaError::TooFewBlocks => {
                f.write_str("--blocks: an interval needs at least 2 blocks")
            }
            ArenaError::Fit(why) => f.write_str(why),
            ArenaError::Match(why) => f.write_str(why),
            ArenaError::Remote(e) => write!(f, "remote decision: {e}"),
        }
    }
}

impl std::error::Error for ArenaError {}

impl ArenaError {
    /// The same error, a bot named by `flag` instead (the ladder's `--levels`).
    pub fn named_by(self, flag: &'static str) -> ArenaError {
        match self {
            ArenaError::Bot {
                name,
                reason,
                known,
                ..
            } => ArenaError::Bot {
                flag,
                name,
                reason,
                known,
            },
            other => other,
        }
    }
}

/// Why the `--via` server could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteError {
    /// The connection's runtime could not start.
    Runtime(String),
    /// The address is no endpoint.
    Address {
        /// The address as given.
        addr: String,
        /// Why.
        reason: String,
    },
    /// The server could not be reached.
    Connect {
        /// The address as given.
        addr: String,
        /// Why.
        reason: String,
    },
    /// The call failed with a status.
    Call {
        /// The status code.
        code: tonic::Code,
        /// The status message.
        message: String,
    },
    /// The server answered with its fallback: the budget was too small.
    Fallback,
    /// The answer carried no decision.
    NoDecision,
    /// The decision is not legal in the view (or not this game's).
    Illegal {
        /// The game.
        game: &'static str,
        /// The decision, as debug output.
        decision: String,
    },
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::Runtime(why) => write!(f, "--via: {why}"),
            RemoteError::Address { addr, reason } => write!(f, "--via {addr}: {reason}"),
            RemoteError::Connect { addr, reason } => {
                write!(f, "--via {addr}: cannot connect: {reason}")
            }
            RemoteError::Call { code, message } => {
                write!(f, "SelectPlay failed: {code:?}: {message}")
            }
            RemoteError::Fallback => {
                f.write_str("the server answered with a fallback (budget too small)")
            }
            RemoteError::NoDecision => f.write_str("no decision"),
            RemoteError::Illegal { game, decision } => {
                write!(f, "not a legal {game} decision: {decision}")
            }
        }
    }
}

impl std::error::Error for RemoteError {}

/// Why a `--via` value is refused when the command line is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViaError {
    /// Not a URL at all.
    NotAUrl(String),
    /// A URL, but not an absolute `http://` or `https://` one with a host.
    NotHttp,
}

impl fmt::Display for ViaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViaError::NotAUrl(why) => {
                write!(f, "not a URL ({why}); e.g. http://127.0.0.1:50051")
            }
            ViaError::NotHttp => {
                f.write_str("an http:// or https:// URL with a host, e.g. http://127.0.0.1:50051")
            }
        }
    }
}

impl std::error::Error for ViaError {}
