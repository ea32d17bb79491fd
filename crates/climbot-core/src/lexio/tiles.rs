//! Tiles, suits, tile sets and the decks of each player count.
//!
//! A tile is one integer whose order is the game's order (Lexio Part 1 section 1): numbers
//! 3 < 4 < ... < 15 < 1 < 2, then suit cloud < star < moon < sun, so
//! `id = order(number) * 4 + suit` with `order(n) = n - 3` for `n >= 3` and `n + 12`
//! otherwise. The encoding is the 5-player one for every player count; smaller games
//! use a sub-deck (a mask), so tile ids never change meaning and comparisons stay `<`.

use std::fmt;

/// The four suits, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// The weakest suit.
    Cloud = 0,
    /// Second.
    Star = 1,
    /// Third.
    Moon = 2,
    /// The strongest suit.
    Sun = 3,
}

impl Suit {
    /// Every suit, weakest first.
    pub const ALL: [Suit; 4] = [Suit::Cloud, Suit::Star, Suit::Moon, Suit::Sun];

    /// The suit with this index (0 = cloud .. 3 = sun).
    pub const fn from_index(index: u8) -> Option<Suit> {
        match index {
            0 => Some(Suit::Cloud),
            1 => Some(Suit::Star),
            2 => Some(Suit::Moon),
            3 => Some(Suit::Sun),
            _ => None,
        }
    }

    /// 0 = cloud .. 3 = sun.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Cloud => "cloud",
            Suit::Star => "star",
            Suit::Moon => "moon",
            Suit::Sun => "sun",
        }
    }
}

/// The rank order of a number (3 -> 0 .. 15 -> 12, 1 -> 13, 2 -> 14).
pub const fn order_of_number(number: u8) -> u8 {
    if number >= 3 { number - 3 } else { number + 12 }
}

/// The number with this rank order (the inverse of [`order_of_number`]).
pub const fn number_of_order(order: u8) -> u8 {
    if order <= 12 { order + 3 } else { order - 12 }
}

/// One tile: an id in `0..60` whose integer order is the game's order.
///
/// ```
/// use climbot_core::lexio::{Suit, Tile};
/// let cloud3 = Tile::new(3, Suit::Cloud).unwrap();
/// let sun2 = Tile::new(2, Suit::Sun).unwrap();
/// assert_eq!((cloud3.id(), sun2.id()), (0, 59));
/// assert!(cloud3 < sun2);
/// assert_eq!(format!("{sun2:?}"), "sun-2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The tile with this number (1..=15) and suit; `None` for any other number.
    pub const fn new(number: u8, suit: Suit) -> Option<Tile> {
        if number == 0 || number > 15 {
            return None;
        }
        Some(Tile(order_of_number(number) * 4 + suit as u8))
    }

    /// The tile with this id; `None` unless `id < 60`.
    pub const fn from_id(id: u8) -> Option<Tile> {
        if id < 60 { Some(Tile(id)) } else { None }
    }

    /// The id (0 = cloud 3 .. 59 = sun 2); comparing ids compares tiles.
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The rank order, 0 (3) .. 14 (2).
    pub const fn order(self) -> u8 {
        self.0 >> 2
    }

    /// The printed number, 1..=15.
    pub const fn number(self) -> u8 {
        number_of_order(self.order())
    }

    /// The suit.
    pub const fn suit(self) -> Suit {
        match Suit::from_index(self.0 & 3) {
            Some(s) => s,
            None => Suit::Cloud,
        }
    }

    /// The one-tile set.
    pub const fn set(self) -> TileSet {
        TileSet(1 << self.0)
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.suit().name(), self.number())
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A set of tiles: one bit per tile id. Bits 60..63 are never set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct TileSet(u64);

impl TileSet {
    /// The empty set.
    pub const EMPTY: TileSet = TileSet(0);
    /// All 60 tiles.
    pub const ALL: TileSet = TileSet((1 << 60) - 1);

    /// The set with these bits; bits above 59 are dropped.
    pub const fn from_bits(bits: u64) -> TileSet {
        TileSet(bits & Self::ALL.0)
    }

    /// The raw bits.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Number of tiles.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Membership.
    pub const fn contains(self, tile: Tile) -> bool {
        self.0 & (1 << tile.0) != 0
    }

    /// True when every tile of `other` is in `self`.
    pub const fn is_superset(self, other: TileSet) -> bool {
        other.0 & !self.0 == 0
    }

    /// True when every tile of `self` is in `other`.
    pub const fn is_subset(self, other: TileSet) -> bool {
        other.is_superset(self)
    }

    /// True when the sets share no tile.
    pub const fn is_disjoint(self, other: TileSet) -> bool {
        self.0 & other.0 == 0
    }

    /// `self` with `tile` added.
    pub const fn with(self, tile: Tile) -> TileSet {
        TileSet(self.0 | (1 << tile.0))
    }

    /// `self` with `tile` removed.
    pub const fn without(self, tile: Tile) -> TileSet {
        TileSet(self.0 & !(1 << tile.0))
    }

    /// Adds a tile.
    pub fn insert(&mut self, tile: Tile) {
        self.0 |= 1 << tile.0;
    }

    /// Removes a tile.
    pub fn remove(&mut self, tile: Tile) {
        self.0 &= !(1 << tile.0);
    }

    /// Union.
    pub const fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// Intersection.
    pub const fn intersection(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    /// The tiles of `self` not in `other`.
    pub const fn difference(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    /// The weakest tile.
    pub const fn lowest(self) -> Option<Tile> {
        if self.0 == 0 {
            None
        } else {
            Some(Tile(self.0.trailing_zeros() as u8))
        }
    }

    /// The strongest tile.
    pub const fn highest(self) -> Option<Tile> {
        if self.0 == 0 {
            None
        } else {
            Some(Tile(63 - self.0.leading_zeros() as u8))
        }
    }

    /// The tiles of one rank order.
    pub const fn of_order(self, order: u8) -> TileSet {
        TileSet(self.0 & (0xF << (4 * order)))
    }

    /// The 4-bit suit mask of one rank order (bit s = suit s present).
    pub const fn nibble(self, order: u8) -> u8 {
        ((self.0 >> (4 * order)) & 0xF) as u8
    }

    /// The tiles of one suit.
    pub const fn of_suit(self, suit: Suit) -> TileSet {
        TileSet(self.0 & (0x0111_1111_1111_1111 << suit as u8))
    }

    /// The sum of tile ids (the easy bot's tie-break).
    pub fn id_sum(self) -> u32 {
        self.iter().map(|t| u32::from(t.id())).sum()
    }

    /// True when `self`'s ascending id list is lexicographically smaller than
    /// `other`'s (equal sizes assumed): the lowest tile in exactly one of them decides.
    pub const fn lex_less(self, other: TileSet) -> bool {
        let diff = self.0 ^ other.0;
        diff != 0 && self.0 & diff & diff.wrapping_neg() != 0
    }

    /// The tiles, weakest first.
    pub fn iter(self) -> TileIter {
        TileIter(self.0)
    }
}

/// Iterator over a [`TileSet`], weakest tile first.
#[derive(Clone, Debug)]
pub struct TileIter(u64);

impl Iterator for TileIter {
    type Item = Tile;

    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Tile(id))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for TileIter {}

impl IntoIterator for TileSet {
    type Item = Tile;
    type IntoIter = TileIter;

    fn into_iter(self) -> TileIter {
        self.iter()
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> Self {
        let mut set = TileSet::EMPTY;
        for t in iter {
            set.insert(t);
        }
        set
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, t) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t:?}")?;
        }
        f.write_str("}")
    }
}

/// The three official player counts; each selects a deck
/// (docs/rules/lexio.md, §1 Components and deal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayerCount {
    /// Numbers 1..9, 36 tiles, 12 each.
    Three,
    /// Numbers 1..13, 52 tiles, 13 each.
    Four,
    /// Numbers 1..15, 60 tiles, 12 each.
    Five,
}

impl PlayerCount {
    /// Every player count.
    pub const ALL: [PlayerCount; 3] = [PlayerCount::Three, PlayerCount::Four, PlayerCount::Five];

    /// The player count for `n` players, if it is 3, 4 or 5.
    pub const fn from_count(n: u32) -> Option<PlayerCount> {
        match n {
            3 => Some(PlayerCount::Three),
            4 => Some(PlayerCount::Four),
            5 => Some(PlayerCount::Five),
            _ => None,
        }
    }

    /// The number of players.
    pub const fn count(self) -> usize {
        match self {
            PlayerCount::Three => 3,
            PlayerCount::Four => 4,
            PlayerCount::Five => 5,
        }
    }

    /// N, the largest number in use (9, 13 or 15).
    pub const fn max_number(self) -> u8 {
        match self {
            PlayerCount::Three => 9,
            PlayerCount::Four => 13,
            PlayerCount::Five => 15,
        }
    }

    /// Tiles dealt to each player.
    pub const fn hand_size(self) -> usize {
        match self {
            PlayerCount::Four => 13,
            _ => 12,
        }
    }

    /// The deck: every tile numbered 1..=N.
    pub const fn deck(self) -> TileSet {
        // Orders 0..N-3 are numbers 3..N; orders 13 and 14 are numbers 1 and 2.
        let low_orders = self.max_number() as u32 - 2;
        let low = (1u64 << (4 * low_orders)) - 1;
        let ones_and_twos = 0xFFu64 << (4 * 13);
        TileSet(low | ones_and_twos)
    }

    /// True when `number` is in this deck.
    pub const fn has_number(self, number: u8) -> bool {
        number >= 1 && number <= self.max_number()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_game_order() {
        let ids: Vec<u8> = [3, 4, 15, 1, 2]
            .iter()
            .map(|&n| Tile::new(n, Suit::Cloud).unwrap().id())
            .collect();
        assert_eq!(ids, vec![0, 4, 48, 52, 56]);
        assert!(Tile::new(5, Suit::Sun).unwrap() < Tile::new(6, Suit::Cloud).unwrap());
        assert!(Tile::new(0, Suit::Sun).is_none());
        assert!(Tile::new(16, Suit::Sun).is_none());
        for id in 0..60 {
            let t = Tile::from_id(id).unwrap();
            assert_eq!(Tile::new(t.number(), t.suit()), Some(t));
        }
    }

    #[test]
    fn decks_hold_exactly_their_numbers() {
        for pc in PlayerCount::ALL {
            let deck = pc.deck();
            assert_eq!(deck.len(), 4 * pc.max_number() as usize);
            assert_eq!(deck.len(), pc.count() * pc.hand_size());
            for t in TileSet::ALL {
                assert_eq!(deck.contains(t), pc.has_number(t.number()), "{t:?} {pc:?}");
            }
        }
    }

    #[test]
    fn set_verbs_and_debug() {
        let a: TileSet = [
            Tile::new(3, Suit::Cloud).unwrap(),
            Tile::new(2, Suit::Sun).unwrap(),
        ]
        .into_iter()
        .collect();
        assert_eq!(format!("{a:?}"), "{cloud-3 sun-2}");
        assert_eq!(a.len(), 2);
        assert_eq!(a.lowest().unwrap().id(), 0);
        assert_eq!(a.highest().unwrap().id(), 59);
        assert_eq!(TileSet::EMPTY.highest(), None);
        assert_eq!(TileSet::ALL.of_suit(Suit::Moon).len(), 15);
        assert!(
            TileSet::ALL
                .of_suit(Suit::Moon)
                .iter()
                .all(|t| t.suit() == Suit::Moon)
        );
        let b = TileSet::from_bits(0b0110);
        let c = TileSet::from_bits(0b1010);
        assert!(b.lex_less(c) && !c.lex_less(b));
        assert_eq!(TileSet::from_bits(u64::MAX), TileSet::ALL);
        assert_eq!(a.iter().len(), 2);
    }
}
