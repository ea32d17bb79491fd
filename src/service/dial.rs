//! The strength dial as the service serves it: each game's table of calibrated bot
//! settings ([`crate::dial`]), parsed and its bots built once, and checked when the
//! server starts ([`check_tables`]).

use crate::daifugo::Daifugo;
use crate::dalmuti::Dalmuti;
use crate::dial::{DialError, DialTable, table_text};
use crate::game::{Game, GameKind};
use crate::lexio::Lexio;
use std::sync::LazyLock;

/// A game with a strength dial: its table, parsed once for the life of the process.
pub trait DialGame: Game {
    /// The game's dial table, or why its embedded text was refused.
    fn dial() -> &'static Result<DialTable<Self>, DialError>;
}

static LEXIO: LazyLock<Result<DialTable<Lexio>, DialError>> =
    LazyLock::new(|| DialTable::parse(table_text(GameKind::Lexio)));
static DALMUTI: LazyLock<Result<DialTable<Dalmuti>, DialError>> =
    LazyLock::new(|| DialTable::parse(table_text(GameKind::Dalmuti)));
static DAIFUGO: LazyLock<Result<DialTable<Daifugo>, DialError>> =
    LazyLock::new(|| DialTable::parse(table_text(GameKind::Daifugo)));

impl DialGame for Lexio {
    fn dial() -> &'static Result<DialTable<Lexio>, DialError> {
        &LEXIO
    }
}

impl DialGame for Dalmuti {
    fn dial() -> &'static Result<DialTable<Dalmuti>, DialError> {
        &DALMUTI
    }
}

impl DialGame for Daifugo {
    fn dial() -> &'static Result<DialTable<Daifugo>, DialError> {
        &DAIFUGO
    }
}

/// A dial table the server cannot serve: the game and why its table was refused.
#[derive(Clone, Debug, PartialEq)]
pub struct BrokenDial {
    /// The game whose table was refused.
    pub game: GameKind,
    /// Why.
    pub error: DialError,
}

impl std::fmt::Display for BrokenDial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the strength dial of {} (crates/climbot-core/dial/{}.txt) does not parse: {}",
            self.game.title(),
            self.game.name(),
            self.error
        )
    }
}

impl std::error::Error for BrokenDial {}

/// Parses every game's dial table and builds its bots, so that a broken table stops
/// the server as it starts rather than failing the calls that ask for a strength.
pub fn check_tables() -> Result<(), BrokenDial> {
    fn check<G: DialGame>(game: GameKind) -> Result<(), BrokenDial> {
        G::dial().as_ref().map(|_| ()).map_err(|error| BrokenDial {
            game,
            error: error.clone(),
        })
    }
    check::<Lexio>(GameKind::Lexio)?;
    check::<Dalmuti>(GameKind::Dalmuti)?;
    check::<Daifugo>(GameKind::Daifugo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_tables_pass_the_start_check() {
        assert_eq!(check_tables(), Ok(()));
    }

    #[test]
    fn a_broken_table_is_reported_with_its_game_and_line() {
        let broken = BrokenDial {
            game: GameKind::Dalmuti,
            error: DialTable::<Dalmuti>::parse("# c\n1 0 2 random\n").unwrap_err(),
        };
        let text = broken.to_string();
        assert!(text.contains("The Great Dalmuti"), "{text}");
        assert!(text.contains("line 2: "), "{text}");
    }
}
