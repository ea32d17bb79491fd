//! The UECda message codec: 8 x 15 tables of big-endian 32-bit integers and single
//! integers (protocol version 20070).
//!
//! Card cells: rows 0-3 are ♠, ♥, ♦, ♣; columns 1-13 are the ranks 3 up to 2. In a hand
//! the joker is the value 2 at row 4, column 1. In a play a joker stands at the cell of
//! the card it replaces with the value 2: column 0 or 14 of the sequence's row for the
//! imaginary card below the 3 or above the 2, row 4 of the group's column in a group of
//! five; the lone joker is a 2 alone (climbot writes it at column 14 in the normal order
//! and column 0 in a revolution, on a row other than the table's suit). A pass is a
//! table with no card. Row 5 carries the flags and row 6 the card counts, classes and
//! seating (see [`Status`]).

use super::TableError;
use crate::daifugo::cards::{Card, CardSet, RANKS, Suit};
use crate::daifugo::plays::{Declaration, POSITION_ABOVE_2, POSITION_BELOW_3, Play, PlayKind};
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

/// The handshake: the version at `[0][0]` and the name's bytes in row 1 (at most 14).
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
/// with 1, the joker at `[4][1]` with 2. Rows 5-7 are zero.
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
pub fn hand_cards(table: &Table) -> Result<CardSet, TableError> {
    let mut cards = CardSet::EMPTY;
    let mut jokers = 0;
    for (r, row) in table.iter().take(5).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            match value {
                0 => {}
                1 => match card_at(r, c) {
                    Some(card) => cards.insert(card),
                    None => return Err(TableError::NotACardCell { row: r, column: c }),
                },
                2 => {
                    jokers += 1;
                    cards.insert(Card::JOKER);
                }
                v => {
                    return Err(TableError::BadCell {
                        row: r,
                        column: c,
                        value: v,
                    });
                }
            }
        }
    }
    if jokers > 1 {
        return Err(TableError::Jokers {
            count: jokers,
            what: "table",
        });
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
    if play.is_group_of_five() {
        let (_, c) = cell_of(naturals.first().expect("four of a kind")).expect("natural");
        table[4][c] = 2;
    }
    for declared in play.declarations() {
        let (r, c) = declaration_cell(declared);
        table[r][c] = 2;
    }
    table
}

/// The cell of a declared card: a natural card's, or column 0 or 14 of the suit's row
/// for the imaginary card below the 3 or above the 2.
fn declaration_cell(declared: Declaration) -> (usize, usize) {
    let row = declared.suit().expect("a declaration has a suit") as usize;
    let column = declared.position().expect("a declaration has a position");
    (row, usize::from(column))
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
/// its cell: at column 0 or 14 of a card row, the imaginary card below the 3 or above
/// the 2 of that suit; at row 4 of the column of four of a kind, the joker of a group of
/// five. Whether the rules know those plays is the referee's question.
pub fn decode_play(table: &Table) -> Result<Option<Play>, TableError> {
    let mut naturals = CardSet::EMPTY;
    let mut jokers: Vec<(usize, usize)> = Vec::new();
    for (r, row) in table.iter().take(5).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            match value {
                0 => {}
                1 => match card_at(r, c) {
                    Some(card) => naturals.insert(card),
                    None => return Err(TableError::NotACardCell { row: r, column: c }),
                },
                2 => jokers.push((r, c)),
                v => {
                    return Err(TableError::BadCell {
                        row: r,
                        column: c,
                        value: v,
                    });
                }
            }
        }
    }
    if jokers.len() > 1 {
        return Err(TableError::Jokers {
            count: jokers.len(),
            what: "play",
        });
    }
    if naturals.is_empty() {
        return Ok(jokers.first().map(|_| Play::lone_joker(Card::JOKER)));
    }
    let ranks: Vec<u8> = naturals.iter().filter_map(|c| c.rank()).collect();
    let one_rank = ranks.iter().all(|&r| r == ranks[0]);
    let mut declared = Vec::new();
    let mut cards = naturals;
    let kind = match jokers.first() {
        // Row 4 of the column of four of a kind: a group of five.
        Some(&(4, c))
            if one_rank
                && naturals.len() == 4
                && card_at(0, c).and_then(Card::rank) == Some(ranks[0]) =>
        {
            cards.insert(Card::JOKER);
            PlayKind::Group
        }
        Some(&(r, c)) => {
            let suit = Suit::from_index(r as u8);
            let declaration = match (r, c as u8) {
                (4.., _) => return Err(TableError::JokerOffCard { row: r, column: c }),
                (_, POSITION_BELOW_3) => Declaration::BelowThree(suit),
                (_, POSITION_ABOVE_2) => Declaration::AboveTwo(suit),
                _ => Declaration::Card(card_at(r, c).expect("a card cell")),
            };
            declared.push(declaration);
            cards.insert(Card::JOKER);
            let same_rank = declaration.card().and_then(Card::rank) == Some(ranks[0]);
            if one_rank && same_rank {
                PlayKind::Group
            } else {
                PlayKind::Sequence
            }
        }
        None if cards.len() == 1 => PlayKind::Single,
        None if one_rank => PlayKind::Group,
        None => PlayKind::Sequence,
    };
    Play::with_declarations(kind, cards, &declared)
        .map(Some)
        .map_err(|e| TableError::NoPlay(e.reason))
}

/// Row 5 and row 6 of a table: the flags and the public counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Status {
    /// `[5][0]`: the exchange phase (set in every deal message).
    pub exchange: bool,
    /// `[5][1]`: how many cards this player gives back (daifugo 2, fugo 1, others 0).
    pub give: u32,
    /// `[5][2]`: this player is to act.
    pub my_turn: bool,
    /// `[5][3]`: the player to act (in the message after a turn: the player who acted).
    pub to_act: i32,
    /// `[5][4]`: the table is empty.
    pub empty_table: bool,
    /// `[5][5]`: jack-back (never set under the contest's rules).
    pub jack_back: bool,
    /// `[5][6]`: revolution.
    pub revolution: bool,
    /// `[5][7]`: the lock is on (the locked suits are the table's).
    pub lock: bool,
    /// `[6][0..5]`: each player's card count.
    pub counts: [u32; PLAYERS],
    /// `[6][5..10]`: each player's class, 0 = daifugo .. 4 = daihinmin (all 0 in the first
    /// game after the classes are reset).
    pub classes: [u32; PLAYERS],
    /// `[6][10..15]`: the player at each seat, in turn order.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        Card::parse(text).expect("a card")
    }

    fn cards(text: &str) -> CardSet {
        CardSet::parse(text).expect("cards")
    }

    #[test]
    fn tables_are_480_big_endian_bytes_row_by_row() {
        let mut table = empty_table();
        table[0][0] = PROTOCOL_VERSION;
        table[7][14] = 1;
        table[1][2] = -1;
        let bytes = table_to_bytes(&table);
        assert_eq!(bytes.len(), 480);
        assert_eq!(&bytes[..4], &[0x00, 0x00, 0x4e, 0x66]); // 20070
        assert_eq!(&bytes[476..], &[0, 0, 0, 1]);
        assert_eq!(&bytes[(15 + 2) * 4..(15 + 3) * 4], &[0xff; 4]);
        assert_eq!(table_from_bytes(&bytes), table);
        let mut wire = Vec::new();
        write_table(&mut wire, &table).unwrap();
        write_int(&mut wire, ACCEPTED).unwrap();
        assert_eq!(wire.len(), 484);
        assert_eq!(&wire[480..], &[0, 0, 0, 9]);
        let mut reader = &wire[..];
        assert_eq!(read_table(&mut reader).unwrap(), table);
        assert_eq!(read_int(&mut reader).unwrap(), 9);
    }

    #[test]
    fn the_handshake_carries_version_and_name() {
        let table = hello_table("climbot-hard-long-name");
        assert_eq!(table[0][0], 20070);
        assert_eq!(table[1][0], i32::from(b'c'));
        assert_eq!(table[1][13], i32::from(b'l'));
        assert_eq!(table[1][14], 0);
        assert_eq!(parse_hello(&table), (20070, "climbot-hard-l".to_string()));
    }

    #[test]
    fn hands_put_suits_in_rows_ranks_in_columns_and_the_joker_at_row_4() {
        // ♠3 is [0][1], ♥2 is [1][13], ♦10 is [2][8], ♣A is [3][12].
        let hand = cards("♠3 ♥2 ♦10 ♣A joker");
        let table = hand_table(hand);
        assert_eq!(table[0][1], 1);
        assert_eq!(table[1][13], 1);
        assert_eq!(table[2][8], 1);
        assert_eq!(table[3][12], 1);
        assert_eq!(table[4][1], 2);
        assert_eq!(table.iter().flatten().filter(|&&v| v != 0).count(), 5);
        assert_eq!(hand_cards(&table).unwrap(), hand);
        let mut bad = table;
        bad[0][0] = 1;
        assert!(hand_cards(&bad).unwrap_err().to_string().contains("[0][0]"));
        bad = table;
        bad[2][2] = 3;
        assert!(hand_cards(&bad).is_err());
    }

    #[test]
    fn the_pass_is_a_table_without_cards() {
        let mut pass = empty_table();
        assert!(is_pass(&pass));
        assert_eq!(decode_play(&pass).unwrap(), None);
        // Status rows do not make a play.
        pass[5][2] = 1;
        pass[6][0] = 11;
        assert!(is_pass(&pass));
        assert_eq!(decode_play(&pass).unwrap(), None);
    }

    #[test]
    fn plays_round_trip_with_the_joker_at_the_cell_it_stands_for() {
        let group = Play::new(PlayKind::Group, cards("♠7 joker"), &[card("♥7")]).unwrap();
        let table = play_table(&group, false, 0);
        assert_eq!(table[0][5], 1);
        assert_eq!(table[1][5], 2);
        assert_eq!(table[4][1], 0);
        assert_eq!(decode_play(&table).unwrap(), Some(group));

        let run = Play::new(PlayKind::Sequence, cards("♦5 ♦7 joker"), &[card("♦6")]).unwrap();
        let table = play_table(&run, false, 0);
        assert_eq!((table[2][3], table[2][4], table[2][5]), (1, 2, 1));
        assert_eq!(decode_play(&table).unwrap(), Some(run));

        let single = Play::single(card("♣K"));
        let table = play_table(&single, false, 0);
        assert_eq!(table[3][11], 1);
        assert_eq!(decode_play(&table).unwrap(), Some(single));

        let four = Play::new(PlayKind::Group, cards("♠9 ♥9 ♦9 ♣9"), &[]).unwrap();
        assert_eq!(
            decode_play(&play_table(&four, false, 0)).unwrap(),
            Some(four)
        );
    }

    #[test]
    fn the_lone_joker_is_a_two_alone_off_the_tables_suit() {
        let joker = Play::lone_joker(Card::JOKER);
        let table = play_table(&joker, false, 0);
        assert_eq!(table[0][14], 2);
        let table = play_table(&joker, true, 0b0001);
        assert_eq!(table[1][0], 2);
        assert_eq!(table.iter().flatten().filter(|&&v| v != 0).count(), 1);
        assert_eq!(decode_play(&table).unwrap(), Some(joker));
        let mut anywhere = empty_table();
        anywhere[3][6] = 2;
        assert_eq!(decode_play(&anywhere).unwrap(), Some(joker));
    }

    #[test]
    fn a_joker_past_the_ends_of_a_run_stands_at_column_0_or_14() {
        // Hand-written: the joker at [0][0] before ♠3 ♠4.
        let mut table = empty_table();
        table[0][0] = 2;
        table[0][1] = 1;
        table[0][2] = 1;
        let below = decode_play(&table).unwrap().unwrap();
        assert_eq!(below.kind(), PlayKind::Sequence);
        assert_eq!(
            below.declaration(Card::JOKER),
            Some(Declaration::BelowThree(Suit::Spades))
        );
        assert_eq!((below.low_position(), below.high_position()), (0, 2));
        assert_eq!(play_table(&below, false, 0), table);
        // Hand-written: ♦K ♦A ♦2 and the joker at [2][14].
        let mut table = empty_table();
        table[2][11] = 1;
        table[2][12] = 1;
        table[2][13] = 1;
        table[2][14] = 2;
        let above = decode_play(&table).unwrap().unwrap();
        assert_eq!(
            above.declaration(Card::JOKER),
            Some(Declaration::AboveTwo(Suit::Diamonds))
        );
        assert_eq!(above.len(), 4);
        assert_eq!(play_table(&above, true, 0b0100), table);
        // Past the end of a run that does not reach it: no play.
        let mut gap = empty_table();
        gap[1][0] = 2;
        gap[1][2] = 1;
        gap[1][3] = 1;
        assert!(decode_play(&gap).is_err());
    }

    #[test]
    fn a_group_of_five_has_its_joker_on_row_4_of_its_column() {
        // Hand-written: the four 7s and the joker at [4][5].
        let mut table = empty_table();
        for row in table.iter_mut().take(4) {
            row[5] = 1;
        }
        table[4][5] = 2;
        let five = decode_play(&table).unwrap().unwrap();
        assert!(five.is_group_of_five());
        assert_eq!(five.cards(), cards("♠7 ♥7 ♦7 ♣7 joker"));
        assert_eq!(five.declarations().count(), 0);
        assert_eq!(play_table(&five, false, 0), table);
        // The joker on row 4 of another column, or beside three of a kind: no play.
        let mut elsewhere = table;
        elsewhere[4][5] = 0;
        elsewhere[4][6] = 2;
        assert!(decode_play(&elsewhere).is_err());
        let mut three = table;
        three[3][5] = 0;
        assert!(decode_play(&three).is_err());
    }

    #[test]
    fn bad_plays_are_errors() {
        let mut table = empty_table();
        table[0][1] = 1;
        table[1][2] = 1;
        assert!(decode_play(&table).is_err(), "♠3 ♥4 is no play");
        let mut two_jokers = empty_table();
        two_jokers[0][3] = 2;
        two_jokers[1][3] = 2;
        assert!(decode_play(&two_jokers).is_err());
    }

    #[test]
    fn every_flag_of_row_5_and_every_count_of_row_6() {
        let mut table = empty_table();
        table[5] = [1, 2, 1, 3, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
        table[6] = [11, 10, 0, 9, 8, 2, 0, 4, 1, 3, 3, 0, 4, 1, 2];
        let status = Status::read(&table);
        assert_eq!(
            status,
            Status {
                exchange: true,
                give: 2,
                my_turn: true,
                to_act: 3,
                empty_table: true,
                jack_back: true,
                revolution: true,
                lock: true,
                counts: [11, 10, 0, 9, 8],
                classes: [2, 0, 4, 1, 3],
                seats: [3, 0, 4, 1, 2],
            }
        );
        assert!(status.has_classes());
        let mut written = empty_table();
        status.write(&mut written);
        assert_eq!(written, table);
        for flag in 0..8 {
            let mut one = empty_table();
            one[5][flag] = 1;
            let s = Status::read(&one);
            let flags = [
                s.exchange,
                s.give == 1,
                s.my_turn,
                s.to_act == 1,
                s.empty_table,
                s.jack_back,
                s.revolution,
                s.lock,
            ];
            for (i, f) in flags.iter().enumerate() {
                assert_eq!(*f, i == flag, "[5][{flag}] read as flag {i}");
            }
        }
        // The first game of a block: every class 0.
        table[6][5..10].copy_from_slice(&[0; 5]);
        assert!(!Status::read(&table).has_classes());
    }

    #[test]
    fn the_exchange_deal_and_give_back() {
        // The daifugo's deal message: its hand with the tribute, 2 to give back.
        let hand = cards("♠3 ♥4 ♦5 ♣6 ♠7 ♥8 ♦9 ♣10 ♠J ♥Q ♦K ♣A joker");
        let mut deal = hand_table(hand);
        let status = Status {
            exchange: true,
            give: 2,
            to_act: 6,
            counts: [11, 11, 11, 10, 10],
            classes: [0, 1, 2, 3, 4],
            seats: [0, 1, 2, 3, 4],
            ..Status::default()
        };
        status.write(&mut deal);
        assert_eq!((deal[5][0], deal[5][1]), (1, 2));
        let read = Status::read(&deal);
        assert!(read.exchange && read.give == 2 && read.has_classes());
        assert_eq!(hand_cards(&deal).unwrap(), hand);
        // The give-back is a hand table of the cards handed over.
        let back = hand_table(cards("♠3 ♥4"));
        assert_eq!(back[0][1] + back[1][2], 2);
        assert_eq!(hand_cards(&back).unwrap(), cards("♠3 ♥4"));
    }
}
