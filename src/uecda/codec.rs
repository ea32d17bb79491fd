//! The UECda message codec: 8 x 15 tables of big-endian 32-bit integers and single
//! integers (protocol version 20070).
//!
//! Card cells: rows 0-3 are ♠, ♥, ♦, ♣; columns 1-13 are the ranks 3 up to 2. In a hand
//! the joker is the value 2 at row 4, column 1. In a play a joker stands at the cell of
//! the card it replaces with the value 2; the lone joker is a 2 alone (climbot writes it
//! at column 14 in the normal order and column 0 in a revolution, on a row other than
//! the table's suit). A pass is a table with no card. Row 5 carries the flags and row 6
//! the card counts, classes and seating (see [`Status`]).

use crate::daifugo::cards::{Card, CardSet, RANKS, Suit};
use crate::daifugo::plays::{Play, PlayKind};
use std::io::{self, Read, Write};

/// The protocol version climbot speaks (big-endian integers).
pub const PROTOCOL_VERSION: i32 = 20070;
/// The contest's default TCP port.
pub const DEFAULT_PORT: u16 = 42485;
/// Players in a UECda game.
pub const PLAYERS: usize = 5;
/// The server's answer to an accepted submission (a play or a pass).
pub const ACCEPTED: i32 = 9;
/// The server's answer to a rejected submission (counted as a pass).
pub const REJECTED: i32 = 8;
/// After a turn: the game goes on.
pub const GAME_ON: i32 = 0;
/// After a turn: the game is over, another one follows.
pub const GAME_OVER: i32 = 1;
/// After a turn: the game and the match are over.
pub const MATCH_OVER: i32 = 2;
/// The bytes of one table on the wire.
pub const TABLE_BYTES: usize = 8 * 15 * 4;

/// One 8 x 15 message.
pub type Table = [[i32; 15]; 8];

/// An all-zero table (also the pass).
pub const fn empty_table() -> Table {
    [[0; 15]; 8]
}

/// The wire bytes of `table`.
pub fn table_to_bytes(table: &Table) -> [u8; TABLE_BYTES] {
    let mut out = [0u8; TABLE_BYTES];
    for (i, value) in table.iter().flatten().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&value.to_be_bytes());
    }
    out
}

/// The table held by `bytes`.
pub fn table_from_bytes(bytes: &[u8; TABLE_BYTES]) -> Table {
    let mut table = empty_table();
    for (i, value) in table.iter_mut().flatten().enumerate() {
        let mut word = [0u8; 4];
        word.copy_from_slice(&bytes[i * 4..i * 4 + 4]);
        *value = i32::from_be_bytes(word);
    }
    table
}

/// Writes `table` in one write (servers read a table with a single `recv`).
pub fn write_table(w: &mut impl Write, table: &Table) -> io::Result<()> {
    w.write_all(&table_to_bytes(table))?;
    w.flush()
}

/// Reads one table.
pub fn read_table(r: &mut impl Read) -> io::Result<Table> {
    let mut bytes = [0u8; TABLE_BYTES];
    r.read_exact(&mut bytes)?;
    Ok(table_from_bytes(&bytes))
}

/// Writes one integer.
pub fn write_int(w: &mut impl Write, value: i32) -> io::Result<()> {
    w.write_all(&value.to_be_bytes())?;
    w.flush()
}

/// Reads one integer.
pub fn read_int(r: &mut impl Read) -> io::Result<i32> {
    let mut bytes = [0u8; 4];
    r.read_exact(&mut bytes)?;
    Ok(i32::from_be_bytes(bytes))
}

/// The cell of a natural card: (row = suit, column = rank + 1).
pub fn cell_of(card: Card) -> Option<(usize, usize)> {
    Some((card.suit()? as usize, usize::from(card.rank()?) + 1))
}

/// The natural card at a card cell (rows 0-3, columns 1-13).
pub fn card_at(row: usize, column: usize) -> Option<Card> {
    (row < 4 && (1..=usize::from(RANKS)).contains(&column))
        .then(|| Card::natural(column as u8 - 1, Suit::from_index(row as u8)))
}

/// The handshake: the version at [0][0] and the name's bytes in row 1 (at most 14).
pub fn hello_table(name: &str) -> Table {
    let mut table = empty_table();
    table[0][0] = PROTOCOL_VERSION;
    for (i, b) in name.bytes().take(14).enumerate() {
        table[1][i] = i32::from(b);
    }
    table
}

/// The version and the name of a handshake table.
pub fn parse_hello(table: &Table) -> (i32, String) {
    let bytes: Vec<u8> = table[1][..14]
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| b.clamp(0, 255) as u8)
        .collect();
    (table[0][0], String::from_utf8_lossy(&bytes).into_owned())
}

/// A hand (or the cards given back in the exchange) as a table: naturals at their cells
/// with 1, the joker at [4][1] with 2. Rows 5-7 are zero.
pub fn hand_table(hand: CardSet) -> Table {
    let mut table = empty_table();
    for card in hand.iter() {
        match cell_of(card) {
            Some((r, c)) => table[r][c] = 1,
            None => table[4][1] = 2,
        }
    }
    table
}

/// The cards of a hand table (rows 0-4): every 1 at a card cell and the joker for any
/// 2. Errors name the cell at fault.
pub fn hand_cards(table: &Table) -> Result<CardSet, String> {
    let mut cards = CardSet::EMPTY;
    let mut jokers = 0;
    for (r, row) in table.iter().take(5).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            match value {
                0 => {}
                1 => match card_at(r, c) {
                    Some(card) => cards.insert(card),
                    None => return Err(format!("[{r}][{c}] = 1 is not a card cell")),
                },
                2 => {
                    jokers += 1;
                    cards.insert(Card::JOKER);
                }
                v => return Err(format!("[{r}][{c}] = {v}: cells hold 0, 1 or 2")),
            }
        }
    }
    if jokers > 1 {
        return Err(format!("{jokers} jokers in one table"));
    }
    Ok(cards)
}

/// A play as a table. `revolution` and `table_suits` (the suit set on the table, 0 when
/// empty) only place the lone joker: column 14 (0 in a revolution), on a row outside the
/// table's suits.
pub fn play_table(play: &Play, revolution: bool, table_suits: u8) -> Table {
    let mut table = empty_table();
    let naturals = play.cards().naturals();
    if naturals.is_empty() {
        let row = (0..4).find(|r| table_suits & (1 << r) == 0).unwrap_or(0);
        table[row][if revolution { 0 } else { 14 }] = 2;
        return table;
    }
    for card in naturals.iter() {
        let (r, c) = cell_of(card).expect("a natural card");
        table[r][c] = 1;
    }
    for declared in play.declared() {
        let (r, c) = cell_of(declared).expect("a declaration is natural");
        table[r][c] = 2;
    }
    table
}

/// Whether rows 0-4 of `table` hold no card.
pub fn is_pass(table: &Table) -> bool {
    table.iter().take(5).flatten().all(|&v| v == 0)
}

/// Whether rows 0-4 of two tables hold the same cells.
pub fn same_cards(a: &Table, b: &Table) -> bool {
    a[..5] == b[..5]
}

/// The play of a submitted or announced table: `Ok(None)` for a pass. A 2 alone is the
/// lone joker wherever it stands; a 2 beside naturals is a joker declared as the card of
/// its cell. A joker at column 0 or 14 beside naturals (some servers allow a sequence
/// to run past 3 or 2 that way) is declared at the other end of the run, the nearest
/// play climbot's rules know; the returned flag says so.
pub fn decode_play(table: &Table) -> Result<Option<(Play, bool)>, String> {
    let mut naturals = CardSet::EMPTY;
    let mut jokers: Vec<(usize, usize)> = Vec::new();
    for (r, row) in table.iter().take(5).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            match value {
                0 => {}
                1 => match card_at(r, c) {
                    Some(card) => naturals.insert(card),
                    None => return Err(format!("[{r}][{c}] = 1 is not a card cell")),
                },
                2 => jokers.push((r, c)),
                v => return Err(format!("[{r}][{c}] = {v}: cells hold 0, 1 or 2")),
            }
        }
    }
    if jokers.len() > 1 {
        return Err(format!("{} jokers in one play", jokers.len()));
    }
    if naturals.is_empty() {
        return Ok(jokers
            .first()
            .map(|_| (Play::lone_joker(Card::JOKER), false)));
    }
    let ranks: Vec<u8> = naturals.iter().filter_map(|c| c.rank()).collect();
    let one_rank = ranks.iter().all(|&r| r == ranks[0]);
    let mut adjusted = false;
    let mut declared = Vec::new();
    if let Some(&(r, c)) = jokers.first() {
        let card = match card_at(r, c) {
            Some(card) => card,
            None if r < 4 && (c == 0 || c == 14) && !one_rank => {
                adjusted = true;
                let lo = *ranks.iter().min().expect("naturals");
                let hi = *ranks.iter().max().expect("naturals");
                let rank = if c == 0 {
                    hi + 1
                } else {
                    lo.checked_sub(1).ok_or("no room")?
                };
                if rank >= RANKS {
                    return Err(format!("joker at [{r}][{c}]: no card to stand for"));
                }
                Card::natural(rank, Suit::from_index(r as u8))
            }
            None => return Err(format!("joker at [{r}][{c}]: not a card cell")),
        };
        declared.push(card);
    }
    let mut cards = naturals;
    if !declared.is_empty() {
        cards.insert(Card::JOKER);
    }
    let kind = if cards.len() == 1 {
        PlayKind::Single
    } else if one_rank && declared.iter().all(|d| d.rank() == Some(ranks[0])) {
        PlayKind::Group
    } else {
        PlayKind::Sequence
    };
    Play::new(kind, cards, &declared)
        .map(|play| Some((play, adjusted)))
        .map_err(|e| e.reason)
}

/// Row 5 and row 6 of a table: the flags and the public counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Status {
    /// [5][0]: the exchange phase (set in every deal message).
    pub exchange: bool,
    /// [5][1]: how many cards this player gives back (daifugo 2, fugo 1, others 0).
    pub give: u32,
    /// [5][2]: this player is to act.
    pub my_turn: bool,
    /// [5][3]: the player to act (in the message after a turn: the player who acted).
    pub to_act: i32,
    /// [5][4]: the table is empty.
    pub empty_table: bool,
    /// [5][5]: jack-back (never set under the contest's rules).
    pub jack_back: bool,
    /// [5][6]: revolution.
    pub revolution: bool,
    /// [5][7]: the lock is on (the locked suits are the table's).
    pub lock: bool,
    /// [6][0..5]: each player's card count.
    pub counts: [u32; PLAYERS],
    /// [6][5..10]: each player's class, 0 = daifugo .. 4 = daihinmin (all 0 in the first
    /// game after the classes are reset).
    pub classes: [u32; PLAYERS],
    /// [6][10..15]: the player at each seat, in turn order.
    pub seats: [usize; PLAYERS],
}

impl Status {
    /// Reads rows 5 and 6.
    pub fn read(table: &Table) -> Status {
        let flag = |c: usize| table[5][c] != 0;
        let mut status = Status {
            exchange: flag(0),
            give: table[5][1].max(0) as u32,
            my_turn: flag(2),
            to_act: table[5][3],
            empty_table: flag(4),
            jack_back: flag(5),
            revolution: flag(6),
            lock: flag(7),
            ..Status::default()
        };
        for p in 0..PLAYERS {
            status.counts[p] = table[6][p].max(0) as u32;
            status.classes[p] = table[6][5 + p].max(0) as u32;
            status.seats[p] = table[6][10 + p].max(0) as usize;
        }
        status
    }

    /// Writes rows 5 and 6 (the rest of row 5 and row 7 are left alone).
    pub fn write(&self, table: &mut Table) {
        table[5][0] = i32::from(self.exchange);
        table[5][1] = self.give as i32;
        table[5][2] = i32::from(self.my_turn);
        table[5][3] = self.to_act;
        table[5][4] = i32::from(self.empty_table);
        table[5][5] = i32::from(self.jack_back);
        table[5][6] = i32::from(self.revolution);
        table[5][7] = i32::from(self.lock);
        for p in 0..PLAYERS {
            table[6][p] = self.counts[p] as i32;
            table[6][5 + p] = self.classes[p] as i32;
            table[6][10 + p] = self.seats[p] as i32;
        }
    }

    /// Whether row 6 carries classes (false in the first game after a reset, where
    /// every class is 0).
    pub fn has_classes(&self) -> bool {
        let mut seen = [false; PLAYERS];
        for &c in &self.classes {
            match seen.get_mut(c as usize) {
                Some(s) if !*s => *s = true,
                _ => return false,
            }
        }
        true
    }
}
