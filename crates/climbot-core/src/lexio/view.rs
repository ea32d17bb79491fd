//! The view one seat may see, built only through validating constructors.
//!
//! A view holds the seat's own hand, the table, every seat's tile count, the tiles
//! played this round, the public log of plays and passes, the round number and the
//! scores. Nothing else: no other hand is representable here.

use super::combos::{Combo, classify};
use super::moves::for_each_play;
use super::tiles::{PlayerCount, Tile, TileSet};
use crate::bot::StableHasher;
use std::fmt;

/// One seat's public state as a client reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SeatCount {
    /// Tiles the seat still holds.
    pub tile_count: u32,
}

/// The play to beat as a client reports it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TableInput {
    /// The seat that made the play (required).
    pub owner: Option<u32>,
    /// Its tiles.
    pub tiles: Vec<Tile>,
}

/// One public action of this round, as a client reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogEntry {
    /// `seat` played these tiles.
    Play {
        /// The seat that played.
        seat: u32,
        /// The tiles it played.
        tiles: Vec<Tile>,
    },
    /// `seat` passed.
    Pass {
        /// The seat that passed.
        seat: u32,
    },
}

/// The unchecked parts of a view, mirroring the wire message field for field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewInput {
    /// 3, 4 or 5.
    pub player_count: u32,
    /// The deciding seat, `0..player_count`.
    pub seat: u32,
    /// The seat's own tiles.
    pub hand: Vec<Tile>,
    /// The play to beat and its owner; `None` when the seat leads.
    pub table: Option<TableInput>,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatCount>,
    /// Every tile played this round (including the table).
    pub played: Vec<Tile>,
    /// Optional: every play and pass of this round, oldest first.
    pub log: Vec<LogEntry>,
    /// The round number, from 1.
    pub round: u32,
    /// Optional: the running score of each seat (empty or one per seat).
    pub scores: Vec<i64>,
}

/// What is wrong with a view: the field (as named in [`ViewInput`], with indices) and
/// the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError {
    /// The offending field, e.g. `hand[3]` or `seats[2].tile_count`.
    pub field: String,
    /// Why it is rejected.
    pub reason: String,
}

impl ViewError {
    fn new(field: impl Into<String>, reason: impl Into<String>) -> ViewError {
        ViewError {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ViewError {}

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

/// The domain-typed parts of a view, as the referee holds them.
#[derive(Clone, Debug)]
pub struct ViewParts {
    /// The player count.
    pub players: PlayerCount,
    /// The deciding seat.
    pub seat: usize,
    /// Its hand.
    pub hand: TileSet,
    /// The play to beat and the seat that made it, if any.
    pub table: Option<(Combo, usize)>,
    /// Tiles held by each seat (only the first `players` entries count).
    pub counts: [u8; 5],
    /// Tiles played this round.
    pub played: TileSet,
    /// The public log (may be empty).
    pub log: Vec<LoggedAction>,
    /// Round number, from 1.
    pub round: u32,
    /// Running scores.
    pub scores: [i64; 5],
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

/// The set of `tiles`; `field` names the field (built only for an error).
fn tiles_to_set(
    field: impl Fn() -> String,
    tiles: &[Tile],
    players: PlayerCount,
) -> Result<TileSet, ViewError> {
    let mut set = TileSet::EMPTY;
    for (i, &t) in tiles.iter().enumerate() {
        if !players.has_number(t.number()) {
            return Err(ViewError::new(
                format!("{}[{i}]", field()),
                format!(
                    "number {} is not in the {}-player deck (1..{})",
                    t.number(),
                    players.count(),
                    players.max_number()
                ),
            ));
        }
        if set.contains(t) {
            return Err(ViewError::new(
                format!("{}[{i}]", field()),
                format!("duplicate tile {t:?}"),
            ));
        }
        set.insert(t);
    }
    Ok(set)
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
        let players = PlayerCount::from_count(input.player_count).ok_or_else(|| {
            ViewError::new(
                "player_count",
                format!(
                    "{} players is not supported (3, 4 or 5)",
                    input.player_count
                ),
            )
        })?;
        let p = players.count();
        if input.seat as usize >= p {
            return Err(ViewError::new(
                "seat",
                format!(
                    "seat {} is out of range for {p} players (0..{})",
                    input.seat,
                    p - 1
                ),
            ));
        }
        if input.seats.len() != p {
            return Err(ViewError::new(
                "seats",
                format!(
                    "{} entries for {p} players (one per seat)",
                    input.seats.len()
                ),
            ));
        }
        let hand = tiles_to_set(|| "hand".into(), &input.hand, players)?;
        let played = tiles_to_set(|| "played".into(), &input.played, players)?;
        let table = match &input.table {
            None => None,
            Some(table) => {
                let set = tiles_to_set(|| "table.tiles".into(), &table.tiles, players)?;
                if set.is_empty() {
                    return Err(ViewError::new(
                        "table.tiles",
                        "empty: leave `table` unset when the seat leads",
                    ));
                }
                let combo = classify(players, set).ok_or_else(|| {
                    ViewError::new("table.tiles", format!("{set:?} is not a legal combination"))
                })?;
                let owner = table.owner.ok_or_else(|| {
                    ViewError::new("table.owner", "required: the seat that made the play")
                })?;
                Some((combo, owner as usize))
            }
        };
        let mut counts = [0u8; 5];
        for (i, s) in input.seats.iter().enumerate() {
            if s.tile_count as usize > players.hand_size() {
                return Err(ViewError::new(
                    format!("seats[{i}].tile_count"),
                    format!(
                        "{} exceeds the {} tiles dealt",
                        s.tile_count,
                        players.hand_size()
                    ),
                ));
            }
            counts[i] = s.tile_count as u8;
        }
        if !input.scores.is_empty() && input.scores.len() != p {
            return Err(ViewError::new(
                "scores",
                format!(
                    "{} entries for {p} players (empty or one per seat)",
                    input.scores.len()
                ),
            ));
        }
        let mut scores = [0i64; 5];
        scores[..input.scores.len()].copy_from_slice(&input.scores);
        let mut log = Vec::with_capacity(input.log.len());
        for (i, entry) in input.log.iter().enumerate() {
            let (seat, action) = match entry {
                LogEntry::Pass { seat } => (*seat, Action::Pass),
                LogEntry::Play { seat, tiles } => {
                    let field = || format!("log[{i}].tiles");
                    let set = tiles_to_set(field, tiles, players)?;
                    let combo = classify(players, set).ok_or_else(|| {
                        ViewError::new(field(), format!("{set:?} is not a legal combination"))
                    })?;
                    (*seat, Action::Play(combo))
                }
            };
            if seat as usize >= p {
                return Err(ViewError::new(
                    format!("log[{i}].seat"),
                    format!("seat {seat} is out of range for {p} players"),
                ));
            }
            log.push(LoggedAction {
                seat: seat as u8,
                action,
            });
        }
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
        let p = players.count();
        let deck = players.deck();
        if seat >= p {
            return Err(ViewError::new(
                "seat",
                format!("seat {seat} is out of range for {p} players"),
            ));
        }
        if !deck.is_superset(hand.union(played)) {
            return Err(ViewError::new("hand", "tiles outside the deck"));
        }
        if hand.is_empty() {
            return Err(ViewError::new(
                "hand",
                "empty: a seat with no tiles has finished the round",
            ));
        }
        if let Some(t) = hand.intersection(played).lowest() {
            return Err(ViewError::new(
                "played",
                format!("tile {t:?} is also in hand"),
            ));
        }
        if let Some((table, owner)) = table {
            if let Some(t) = table.tiles().difference(played).lowest() {
                return Err(ViewError::new(
                    "table.tiles",
                    format!("tile {t:?} is not among the played tiles"),
                ));
            }
            if owner >= p {
                return Err(ViewError::new(
                    "table.owner",
                    format!(
                        "seat {owner} is out of range for {p} players (0..{})",
                        p - 1
                    ),
                ));
            }
            if owner == seat {
                return Err(ViewError::new(
                    "table.owner",
                    format!(
                        "seat {owner} is the deciding seat: a play that comes back to its \
                         owner has been passed by every other seat, which clears the table"
                    ),
                ));
            }
        }
        if round == 0 {
            return Err(ViewError::new("round", "must be at least 1"));
        }
        for (i, &c) in counts.iter().enumerate().take(p) {
            if c == 0 {
                return Err(ViewError::new(
                    format!("seats[{i}].tile_count"),
                    "0: the round is over once a seat has emptied its hand",
                ));
            }
            if c as usize > players.hand_size() {
                return Err(ViewError::new(
                    format!("seats[{i}].tile_count"),
                    format!("{c} exceeds the {} tiles dealt", players.hand_size()),
                ));
            }
        }
        if counts[seat] as usize != hand.len() {
            return Err(ViewError::new(
                format!("seats[{seat}].tile_count"),
                format!("{} but the hand holds {} tiles", counts[seat], hand.len()),
            ));
        }
        let unseen = deck.difference(hand.union(played)).len();
        let others: usize = (0..p)
            .filter(|&i| i != seat)
            .map(|i| counts[i] as usize)
            .sum();
        if unseen != others {
            return Err(ViewError::new(
                "seats",
                format!(
                    "the other seats hold {others} tiles but {unseen} tiles are unseen \
                     (deck minus hand minus played)"
                ),
            ));
        }
        if !log.is_empty() {
            check_log(players, seat, table, &counts, played, &log)?;
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

/// Replays a complete round log and checks it against the rest of the view.
fn check_log(
    players: PlayerCount,
    seat: usize,
    table: Option<(Combo, usize)>,
    counts: &[u8; 5],
    played: TileSet,
    log: &[LoggedAction],
) -> Result<(), ViewError> {
    let p = players.count();
    let mut seen = TileSet::EMPTY;
    let mut held = [players.hand_size() as i32; 5];
    let mut trick: Option<(Combo, usize)> = None;
    let mut passes = 0usize;
    for (i, entry) in log.iter().enumerate() {
        let s = entry.seat as usize;
        if i > 0 {
            let expected = (log[i - 1].seat as usize + 1) % p;
            if s != expected {
                return Err(ViewError::new(
                    format!("log[{i}].seat"),
                    format!("seat {s} acted but seat {expected} was next"),
                ));
            }
        }
        match entry.action {
            Action::Pass => {
                if trick.is_none() {
                    return Err(ViewError::new(
                        format!("log[{i}]"),
                        "a pass on an empty table (the leader must play)",
                    ));
                }
                passes += 1;
                // Everyone else passed in succession: the trick ends and its owner,
                // who is next in turn order, leads.
                if passes == p - 1 {
                    trick = None;
                    passes = 0;
                }
            }
            Action::Play(c) => {
                if let Some(t) = c.tiles().intersection(seen).lowest() {
                    return Err(ViewError::new(
                        format!("log[{i}].tiles"),
                        format!("tile {t:?} was already played earlier in the log"),
                    ));
                }
                if let Some(t) = c.tiles().difference(played).lowest() {
                    return Err(ViewError::new(
                        format!("log[{i}].tiles"),
                        format!("tile {t:?} is not among the played tiles"),
                    ));
                }
                if let Some((top, _)) = trick
                    && !c.beats(top)
                {
                    return Err(ViewError::new(
                        format!("log[{i}].tiles"),
                        format!("{c:?} does not beat the table {top:?}"),
                    ));
                }
                seen = seen.union(c.tiles());
                held[s] -= c.len() as i32;
                if held[s] <= 0 {
                    return Err(ViewError::new(
                        format!("log[{i}]"),
                        format!("seat {s} would have emptied its hand: the round is over"),
                    ));
                }
                trick = Some((c, s));
                passes = 0;
            }
        }
    }
    if let Some(t) = played.difference(seen).lowest() {
        return Err(ViewError::new(
            "log",
            format!("tile {t:?} is in played but no play in the log holds it"),
        ));
    }
    for (i, &h) in held.iter().enumerate().take(p) {
        if h != i32::from(counts[i]) {
            return Err(ViewError::new(
                format!("seats[{i}].tile_count"),
                format!("{} but the log leaves this seat {h} tiles", counts[i]),
            ));
        }
    }
    let open = trick.map(|(c, _)| c);
    if open != table.map(|(c, _)| c) {
        return Err(ViewError::new(
            "table",
            format!("does not match the open trick in the log ({open:?})"),
        ));
    }
    if let (Some((_, logged)), Some((_, owner))) = (trick, table)
        && logged != owner
    {
        return Err(ViewError::new(
            "table.owner",
            format!("seat {owner}, but the log's last play is seat {logged}'s"),
        ));
    }
    let next = (log[log.len() - 1].seat as usize + 1) % p;
    if next != seat {
        return Err(ViewError::new(
            "log",
            format!("seat {next} acts next after the log, not seat {seat}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::tile;
    use crate::lexio::referee::deal;
    use crate::lexio::tiles::Suit::*;

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
                tiles: tiles.to_vec(),
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
                tiles: vec![tile],
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
            tiles: vec![other[0]],
        });
        v.played = vec![other[0]];
        v.seats[2].tile_count = 11;
        v.log = vec![LogEntry::Play {
            seat: 2,
            tiles: vec![other[0]],
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
            tiles: vec![other[0]],
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
