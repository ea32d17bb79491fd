//! The view one seat may see, built only through validating constructors.
//!
//! A view holds the seat's own hand, the table, every seat's tile count, the tiles
//! played this round, the public log of plays and passes, the round number and the
//! scores. Nothing else: no other hand is representable here.
//!
//! The module reads in three parts: what the constructors receive (`input`: the
//! client's [`ViewInput`], the referee's [`ViewParts`]), the checks, one module per
//! concern (the seats, the tiles, the table, the log), and the view itself. A refusal is
//! a [`ViewError`] naming the first field at fault.

mod input;
mod log;
mod seats;
mod table;
mod tiles;

pub use crate::view_error::ViewError;
pub use input::{LogEntry, PlayTiles, SeatCount, TableInput, ViewInput, ViewParts};

use super::combos::{Combo, classify};
use super::moves::for_each_play;
use super::tiles::{PlayerCount, TileSet};
use crate::bot::StableHasher;
use crate::view_error::refuse;

/// A bot's answer: pass, or play a combination from its hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Pass (never allowed on an empty table).
    Pass,
    /// Play these tiles.
    Play(Combo),
}

/// One validated public action of this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedAction {
    /// The seat that acted.
    pub seat: u8,
    /// What it did.
    pub action: Action,
}

/// What one seat may see when it must act. Every instance is consistent: built only by
/// [`LexioView::new`] or [`LexioView::from_parts`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexioView {
    players: PlayerCount,
    seat: u8,
    hand: TileSet,
    table: Option<Combo>,
    /// The seat that made the table's play (0 without a table).
    table_owner: u8,
    counts: [u8; 5],
    played: TileSet,
    log: Vec<LoggedAction>,
    round: u32,
    scores: [i64; 5],
}

impl LexioView {
    /// Validates a client's view. The error names the first inconsistent field.
    ///
    /// ```
    /// use climbot_core::lexio::{LexioView, SeatCount, Suit, Tile, ViewInput};
    /// let deck: Vec<Tile> = (0..36).map(|i| Tile::new([3, 4, 5, 6, 7, 8, 9, 1, 2][i / 4], Suit::ALL[i % 4]).unwrap()).collect();
    /// let view = LexioView::new(ViewInput {
    ///     player_count: 3,
    ///     seat: 0,
    ///     hand: deck[..12].to_vec(),
    ///     seats: vec![SeatCount { tile_count: 12 }; 3],
    ///     round: 1,
    ///     ..Default::default()
    /// })
    /// .unwrap();
    /// assert_eq!(view.hand().len(), 12);
    /// ```
    pub fn new(input: ViewInput) -> Result<LexioView, ViewError> {
        let players = seats::table_size(input.player_count, input.seat, input.seats.len())?;
        let hand = tiles::set(|| "hand".into(), &input.hand, players)?;
        let played = tiles::set(|| "played".into(), &input.played, players)?;
        let table = table::parse(input.table.as_ref(), players)?;
        let counts = seats::counts(&input.seats, players)?;
        let scores = seats::scores(&input.scores, players)?;
        let log = log::parse(&input.log, players)?;
        LexioView::from_parts(ViewParts {
            players,
            seat: input.seat as usize,
            hand,
            table,
            counts,
            played,
            log,
            round: input.round,
            scores,
        })
    }

    /// Validates domain-typed parts (the referee's path; the same checks as
    /// [`LexioView::new`] after decoding).
    pub fn from_parts(parts: ViewParts) -> Result<LexioView, ViewError> {
        let ViewParts {
            players,
            seat,
            hand,
            table,
            counts,
            played,
            log,
            round,
            scores,
        } = parts;
        seats::check_seat(seat, players)?;
        tiles::check_hand(players, hand, played)?;
        table::check(table, players, seat, played)?;
        if round == 0 {
            return refuse("round", "must be at least 1");
        }
        seats::check_counts(players, seat, &counts, hand, played)?;
        if !log.is_empty() {
            log::check(players, seat, table, &counts, played, &log)?;
        }
        Ok(LexioView {
            players,
            seat: seat as u8,
            hand,
            table: table.map(|(c, _)| c),
            table_owner: table.map_or(0, |(_, owner)| owner as u8),
            counts,
            played,
            log,
            round,
            scores,
        })
    }

    /// The player count.
    pub fn players(&self) -> PlayerCount {
        self.players
    }

    /// The deciding seat.
    pub fn seat(&self) -> usize {
        self.seat as usize
    }

    /// The seat's own tiles.
    pub fn hand(&self) -> TileSet {
        self.hand
    }

    /// The play to beat, or `None` when the seat leads.
    pub fn table(&self) -> Option<Combo> {
        self.table
    }

    /// The seat that made the play to beat, or `None` when the seat leads. The seats
    /// after it up to this one have passed on it.
    pub fn table_owner(&self) -> Option<usize> {
        self.table.map(|_| self.table_owner as usize)
    }

    /// The play to beat and the seat that made it, or `None` when the seat leads.
    pub fn trick(&self) -> Option<(Combo, usize)> {
        self.table.map(|c| (c, self.table_owner as usize))
    }

    /// Tiles held by `seat`.
    pub fn tile_count(&self, seat: usize) -> usize {
        self.counts[seat] as usize
    }

    /// Tiles held by every seat (`players().count()` entries).
    pub fn counts(&self) -> &[u8] {
        &self.counts[..self.players.count()]
    }

    /// Tiles played this round.
    pub fn played(&self) -> TileSet {
        self.played
    }

    /// Tiles this seat has not seen: the deck minus its hand and the played tiles.
    /// Their number always equals the other seats' tile counts.
    pub fn unseen(&self) -> TileSet {
        self.players.deck().difference(self.hand.union(self.played))
    }

    /// The public log of this round (empty when the client sent none).
    pub fn log(&self) -> &[LoggedAction] {
        &self.log
    }

    /// The round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Running scores by seat.
    pub fn scores(&self) -> &[i64] {
        &self.scores[..self.players.count()]
    }

    /// Every legal action: every play (led or beating the table) and, on a non-empty
    /// table, the pass.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(64);
        if self.table.is_some() {
            out.push(Action::Pass);
        }
        for_each_play(self.players, self.hand, self.table, &mut |c| {
            out.push(Action::Play(c))
        });
        out
    }

    /// True when `action` is legal in this view.
    pub fn is_legal(&self, action: Action) -> bool {
        match action {
            Action::Pass => self.table.is_some(),
            Action::Play(c) => {
                self.hand.is_superset(c.tiles())
                    && classify(self.players, c.tiles()) == Some(c)
                    && self.table.is_none_or(|t| c.beats(t))
            }
        }
    }

    /// A stable 64-bit hash of the normalized view (sets as bit masks, fields in a
    /// fixed order); equal views give equal fingerprints on every platform.
    pub fn fingerprint(&self) -> u64 {
        let mut h = StableHasher::new();
        h.bytes(b"lexio/v1")
            .u64(self.players.count() as u64)
            .u64(u64::from(self.seat))
            .u64(self.hand.bits())
            .u64(self.table.map_or(0, |t| t.tiles().bits()))
            .bytes(&self.counts[..self.players.count()])
            .u64(self.played.bits())
            .u64(self.log.len() as u64);
        for entry in &self.log {
            h.u64(u64::from(entry.seat));
            h.u64(match entry.action {
                Action::Pass => u64::MAX,
                Action::Play(c) => c.tiles().bits(),
            });
        }
        h.u64(u64::from(self.round));
        for &s in self.scores() {
            h.i64(s);
        }
        // The owner is hashed only when no log gives it and it is not the seat before
        // this one (nobody passed since the play), so that views of that common shape
        // keep the seeds they had before the view carried the owner.
        let p = self.players.count();
        if let Some(owner) = self.table_owner()
            && self.log.is_empty()
            && owner != (self.seat as usize + p - 1) % p
        {
            h.u64(owner as u64);
        }
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::tile;
    use crate::lexio::referee::deal;
    use crate::lexio::tiles::Suit::*;
    use crate::lexio::tiles::Tile;

    /// A consistent 3-player view at the start of a round, seat 0 to lead.
    fn opening() -> ViewInput {
        let hands = deal(PlayerCount::Three, 5);
        ViewInput {
            player_count: 3,
            seat: 0,
            hand: hands[0].iter().collect(),
            seats: vec![SeatCount { tile_count: 12 }; 3],
            round: 1,
            ..Default::default()
        }
    }

    fn error(input: ViewInput) -> ViewError {
        LexioView::new(input).expect_err("the view should be rejected")
    }

    #[test]
    fn a_consistent_view_is_accepted() {
        let view = LexioView::new(opening()).unwrap();
        assert_eq!(view.unseen().len(), 24);
        assert_eq!(
            view.fingerprint(),
            LexioView::new(opening()).unwrap().fingerprint()
        );
    }

    #[test]
    fn each_inconsistency_names_its_field() {
        let mut v = opening();
        v.player_count = 6;
        assert_eq!(error(v).field, "player_count");
        let mut v = opening();
        v.seat = 3;
        assert_eq!(error(v).field, "seat");
        let mut v = opening();
        v.hand.push(tile(12, Sun));
        let e = error(v);
        assert_eq!(e.field, "hand[12]");
        assert!(e.reason.contains("not in the 3-player deck"), "{e}");
        let mut v = opening();
        let first = v.hand[0];
        v.hand.push(first);
        assert!(error(v).reason.contains("duplicate"));
        let mut v = opening();
        v.played = vec![v.hand[0]];
        assert!(error(v).reason.contains("also in hand"));
        let mut v = opening();
        v.seats[1].tile_count = 11;
        assert_eq!(error(v).field, "seats");
        let mut v = opening();
        v.seats[2].tile_count = 0;
        assert_eq!(error(v).field, "seats[2].tile_count");
        let mut v = opening();
        v.hand.clear();
        v.seats[0].tile_count = 0;
        assert_eq!(error(v).field, "hand");
        let mut v = opening();
        v.round = 0;
        assert_eq!(error(v).field, "round");
        let mut v = opening();
        v.scores = vec![1, 2];
        assert_eq!(error(v).field, "scores");
    }

    #[test]
    fn the_table_must_be_legal_and_played() {
        let hands = deal(PlayerCount::Three, 5);
        let other: Vec<Tile> = hands[1].iter().collect();
        let table = |owner, tiles: &[Tile]| {
            Some(TableInput {
                owner: Some(owner),
                tiles: PlayTiles::from_slice(tiles),
            })
        };
        let mut v = opening();
        v.table = table(1, &[other[0]]);
        let e = error(v);
        assert_eq!(e.field, "table.tiles");
        assert!(e.reason.contains("not among the played tiles"), "{e}");
        let mut v = opening();
        v.table = table(1, &[other[0], other[11]]);
        v.played = vec![other[0], other[11]];
        v.seats[1].tile_count = 10;
        let e = error(v);
        assert_eq!(e.field, "table.tiles");
        assert!(e.reason.contains("not a legal combination"), "{e}");
        let mut v = opening();
        v.table = table(1, &[]);
        assert_eq!(error(v).field, "table.tiles");
        let mut v = opening();
        v.table = table(1, &[other[0]]);
        v.played = vec![other[0]];
        v.seats[1].tile_count = 11;
        v.table.as_mut().unwrap().owner = None;
        let e = error(v);
        assert_eq!(e.field, "table.owner");
        assert!(e.reason.contains("required"), "{e}");

        // The owner: a seat, and not the deciding one.
        let mut v = opening();
        v.table = table(1, &[other[0]]);
        v.played = vec![other[0]];
        v.seats[1].tile_count = 11;
        let view = LexioView::new(v.clone()).unwrap();
        assert_eq!(view.table_owner(), Some(1));
        let mut bad = v.clone();
        bad.table = table(3, &[other[0]]);
        let e = error(bad);
        assert_eq!(e.field, "table.owner");
        assert!(e.reason.contains("out of range"), "{e}");
        let mut bad = v.clone();
        bad.table = table(0, &[other[0]]);
        let e = error(bad);
        assert_eq!(e.field, "table.owner");
        assert!(e.reason.contains("deciding seat"), "{e}");
        assert_eq!(LexioView::new(opening()).unwrap().table_owner(), None);
    }

    #[test]
    fn views_that_differ_only_in_the_owner_hash_differently() {
        // Seat 0 decides on a single, without a log: played by seat 2 (the seat before
        // it) or by seat 1 (and seat 2 passed since).
        let tile = deal(PlayerCount::Three, 5)[2].iter().next().unwrap();
        let view = |owner| {
            let mut v = opening();
            v.table = Some(TableInput {
                owner: Some(owner),
                tiles: PlayTiles::from_elem(tile, 1),
            });
            v.played = vec![tile];
            v.seats[2].tile_count = 11;
            LexioView::new(v).unwrap()
        };
        assert_eq!(view(2).trick().map(|(_, owner)| owner), Some(2));
        assert_eq!(view(1).table_owner(), Some(1));
        assert_ne!(view(1).fingerprint(), view(2).fingerprint());
    }

    #[test]
    fn the_log_is_replayed_against_the_view() {
        let hands = deal(PlayerCount::Three, 5);
        let other: Vec<Tile> = hands[2].iter().collect();
        // Seat 2 led its weakest tile, seat 0 is to act: consistent.
        let mut v = opening();
        v.table = Some(TableInput {
            owner: Some(2),
            tiles: PlayTiles::from_elem(other[0], 1),
        });
        v.played = vec![other[0]];
        v.seats[2].tile_count = 11;
        v.log = vec![LogEntry::Play {
            seat: 2,
            tiles: PlayTiles::from_elem(other[0], 1),
        }];
        assert!(LexioView::new(v.clone()).is_ok());
        // The table's owner must be the log's.
        let mut bad = v.clone();
        bad.table.as_mut().unwrap().owner = Some(1);
        let e = error(bad);
        assert_eq!(e.field, "table.owner");
        assert!(e.reason.contains("last play is seat 2's"), "{e}");
        // The same play claimed by seat 1: turn order and counts disagree.
        let mut bad = v.clone();
        bad.log = vec![LogEntry::Play {
            seat: 1,
            tiles: PlayTiles::from_elem(other[0], 1),
        }];
        assert!(LexioView::new(bad).is_err());
        // A pass on an empty table.
        let mut bad = opening();
        bad.log = vec![LogEntry::Pass { seat: 2 }];
        assert_eq!(error(bad).field, "log[0]");
        // A played tile missing from the log.
        let mut bad = v;
        bad.played.push(other[1]);
        bad.seats[2].tile_count = 10;
        assert_eq!(error(bad).field, "log");
    }
}
