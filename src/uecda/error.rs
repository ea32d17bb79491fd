//! What can be wrong with a contest message (a table that holds no cards or play, a
//! message that does not follow from what the client saw) and with a match record.

use std::fmt;

use crate::daifugo::cards::CardSet;
use crate::daifugo::referee::RefereeError;

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

/// Why a match record, or one of its games, cannot be read, or why a game's replay on
/// climbot's referee disagrees with the record. Turns, plays and places count from 1;
/// players are the record's numbers 0-4.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// A card the format does not know (`x3`, `d1`).
    NotACard(String),
    /// A table cell that holds no card of a play.
    CellOfPlay {
        /// The row.
        row: usize,
        /// The column.
        column: usize,
        /// The value.
        value: i32,
    },
    /// The joker of a group of five beside cards other than four of a kind.
    FiveBesideOthers {
        /// The column of the group.
        column: usize,
    },
    /// More than one joker in one play.
    Jokers(usize),
    /// A sequence with a gap.
    SequenceGap,
    /// Cards neither of one rank nor of one suit.
    NeitherRankNorSuit,
    /// A play's text that names no play.
    NotAPlay(String),
    /// A group of five other than the four suits and `x` of one rank.
    GroupOfFive(String),
    /// A play's text with suits other than c, d, h, s and x.
    Suits(String),
    /// A token before the game's first field.
    BeforeAnyField(String),
    /// A game without this field.
    MissingField(&'static str),
    /// A field with the wrong number of values.
    Values {
        /// The field.
        field: &'static str,
        /// How many values it has.
        found: usize,
    },
    /// A value that is no player number 0-4.
    NotAPlayerNumber {
        /// The field.
        field: &'static str,
        /// The value as written.
        value: String,
    },
    /// A token out of place in a field of hands.
    Unexpected {
        /// The field.
        field: &'static str,
        /// The token.
        token: String,
    },
    /// A field of hands with the wrong number of hands (or one left open).
    Hands {
        /// The field.
        field: &'static str,
        /// How many hands it closes.
        found: usize,
    },
    /// An error inside a field.
    InField {
        /// The field.
        field: &'static str,
        /// The error.
        error: Box<RecordError>,
    },
    /// An error in the game's n-th play.
    InPlay {
        /// The play's number.
        play: usize,
        /// The error.
        error: Box<RecordError>,
    },
    /// A game opened with `/*` and never closed.
    Unclosed {
        /// The game's number.
        game: usize,
    },
    /// A value twice in a field that must be a permutation of the players.
    Twice {
        /// What the field holds (`seat`, `result class`, `class`).
        field: &'static str,
        /// The repeated value.
        value: usize,
    },
    /// The referee refused the game's rules or titles.
    Referee(RefereeError),
    /// The referee refused the recorded deal.
    Deal(RefereeError),
    /// The exchange waits for no one.
    NoOneToExchange,
    /// The referee refused a card given back in the exchange.
    GivesBack {
        /// The player.
        player: usize,
        /// The cards the record says it gave.
        cards: CardSet,
        /// The referee's reason.
        error: RefereeError,
    },
    /// After the exchange a hand differs from the record's `original`.
    Holds {
        /// The player.
        player: usize,
        /// The hand on the referee.
        held: CardSet,
        /// The hand in the record.
        recorded: CardSet,
    },
    /// The tribute the server must take differs from the record's `changed`.
    Tribute {
        /// The player.
        player: usize,
        /// The strongest cards of its dealt hand.
        taken: CardSet,
        /// The cards the record says it gave.
        recorded: CardSet,
    },
    /// A play after the passes in a row that end the game.
    AfterPasses {
        /// The turn.
        turn: usize,
    },
    /// A play after the game ended.
    AfterEnd {
        /// The turn.
        turn: usize,
    },
    /// A play's table holds no play.
    Table {
        /// The turn.
        turn: usize,
        /// The play as the format writes it.
        play: String,
        /// Why.
        error: TableError,
    },
    /// climbot's referee refuses a recorded play.
    Refused {
        /// The turn.
        turn: usize,
        /// The player.
        player: usize,
        /// The play as the format writes it.
        play: String,
        /// The referee's reason.
        error: RefereeError,
    },
    /// A player went out in another place than the record's.
    Place {
        /// The player.
        player: usize,
        /// The place on the referee.
        went_out: usize,
        /// The place in the record.
        recorded: usize,
    },
    /// The referee ended the game without a result.
    NoResult,
    /// The record ends with the game still on.
    Unfinished {
        /// The turns recorded.
        turns: usize,
    },
    /// The record file cannot be read.
    Read {
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
    /// The record holds no game.
    NoGame {
        /// The path.
        path: String,
    },
    /// Games disagree with climbot's referee.
    Disagreements {
        /// How many.
        disagree: usize,
        /// Games in the record.
        games: usize,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordError as E;
        let text = |cards: &CardSet| super::record::cards_text(*cards);
        match self {
            E::NotACard(text) => write!(f, "{text:?} is not a card"),
            E::CellOfPlay { row, column, value } => {
                write!(f, "[{row}][{column}] = {value} is not a card of a play")
            }
            E::FiveBesideOthers { column } => write!(
                f,
                "[4][{column}] = 2 beside cards other than four of a kind in its column"
            ),
            E::Jokers(count) => write!(f, "{count} jokers in one play"),
            E::SequenceGap => f.write_str("a sequence with a gap"),
            E::NeitherRankNorSuit => f.write_str("cards neither of one rank nor of one suit"),
            E::NotAPlay(text) => write!(f, "{text:?} is not a play"),
            E::GroupOfFive(text) => write!(
                f,
                "{text:?}: a group of five is the four suits and x of one rank"
            ),
            E::Suits(text) => write!(f, "{text:?}: suits other than c, d, h, s and x"),
            E::BeforeAnyField(token) => write!(f, "{token:?} before any field"),
            E::MissingField(field) => write!(f, "no {field} line"),
            E::Values { field, found } => {
                write!(f, "{field}: {found} values, not {}", super::codec::PLAYERS)
            }
            E::NotAPlayerNumber { field, value } => write!(f, "{field}: {value:?} is not 0-4"),
            E::Unexpected { field, token } => write!(f, "{field}: unexpected {token:?}"),
            E::Hands { field, found } => {
                write!(f, "{field}: {found} hands, not {}", super::codec::PLAYERS)
            }
            E::InField { field, error } => write!(f, "{field}: {error}"),
            E::InPlay { play, error } => write!(f, "play {play}: {error}"),
            E::Unclosed { game } => write!(f, "game {game}: no closing */"),
            E::Twice { field, value } => write!(f, "{field} {value} appears twice"),
            E::Referee(error) => error.fmt(f),
            E::Deal(error) => write!(f, "the deal: {error}"),
            E::NoOneToExchange => f.write_str("the exchange has no one to act"),
            E::GivesBack {
                player,
                cards,
                error,
            } => write!(f, "player {player} gives back {}: {error}", text(cards)),
            E::Holds {
                player,
                held,
                recorded,
            } => write!(
                f,
                "after the exchange player {player} holds {}, the record says {}",
                text(held),
                text(recorded)
            ),
            E::Tribute {
                player,
                taken,
                recorded,
            } => write!(
                f,
                "the server takes {} from player {player} in the exchange, the record says it gave {}",
                text(taken),
                text(recorded)
            ),
            E::AfterPasses { turn } => write!(
                f,
                "turn {turn}: a play after {} passes in a row ended the game",
                super::server::PASSES_TO_END
            ),
            E::AfterEnd { turn } => write!(f, "turn {turn}: a play after the game ended"),
            E::Table { turn, play, error } => write!(f, "turn {turn}: {play}: {error}"),
            E::Refused {
                turn,
                player,
                play,
                error,
            } => write!(
                f,
                "turn {turn}: player {player} plays {play}, which climbot's referee refuses: {error}"
            ),
            E::Place {
                player,
                went_out,
                recorded,
            } => write!(
                f,
                "player {player} went out in place {went_out}, the record gives it place {recorded}"
            ),
            E::NoResult => f.write_str("a game over without a result"),
            E::Unfinished { turns } => write!(
                f,
                "the record ends after {turns} turns with the game still on"
            ),
            E::Read { path, reason } => write!(f, "cannot read {path}: {reason}"),
            E::NoGame { path } => write!(f, "{path}: no game in the record"),
            E::Disagreements { disagree, games } => write!(
                f,
                "{disagree} of {games} games disagree with climbot's referee"
            ),
        }
    }
}

impl std::error::Error for RecordError {}

/// A failure of the run (not of the command line): the record check's.
impl From<RecordError> for crate::tools::ToolError {
    fn from(error: RecordError) -> Self {
        crate::tools::ToolError::Failed(error.to_string())
    }
}
