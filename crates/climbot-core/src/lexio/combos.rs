//! Combinations and their comparison: every legal play reduces to one integer key
//! (Lexio Part 1 section 2; docs/rules/lexio.md, §4 Comparing combinations).
//!
//! Key layout (25 bits): bits 24..22 the 5-tile category, bits 21..2 the contributing
//! rank orders strongest first (a left-aligned nibble vector), bits 1..0 the suit of the
//! deciding tile. A follow beats the table iff it has the same size and a larger key.

use super::tiles::{PlayerCount, Suit, Tile, TileSet};
use std::fmt;

/// The kind of a combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// One tile.
    Single,
    /// Two tiles of one number.
    Pair,
    /// Three tiles of one number.
    Triple,
    /// Five consecutive numbers, suits mixed.
    Straight,
    /// Five tiles of one suit, not a straight.
    Flush,
    /// A triple and a pair.
    FullHouse,
    /// Four tiles of one number and any fifth tile.
    FourPlusOne,
    /// A straight in one suit.
    StraightFlush,
}

impl Category {
    /// Every category, in the order of the tables (docs/rules/lexio.md, §3 Combinations).
    pub const ALL: [Category; 8] = [
        Category::Single,
        Category::Pair,
        Category::Triple,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourPlusOne,
        Category::StraightFlush,
    ];

    /// The snake-case name used in the CLI's JSON and the docs.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Single => "single",
            Category::Pair => "pair",
            Category::Triple => "triple",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full_house",
            Category::FourPlusOne => "four_plus_one",
            Category::StraightFlush => "straight_flush",
        }
    }

    /// How many tiles a combination of this category has.
    pub const fn size(self) -> usize {
        match self {
            Category::Single => 1,
            Category::Pair => 2,
            Category::Triple => 3,
            _ => 5,
        }
    }

    /// The category bits of the key: only 5-tile categories are ranked among each other.
    const fn key_rank(self) -> u32 {
        match self {
            Category::Single | Category::Pair | Category::Triple | Category::Straight => 0,
            Category::Flush => 1,
            Category::FullHouse => 2,
            Category::FourPlusOne => 3,
            Category::StraightFlush => 4,
        }
    }

    /// Index into per-category arrays (0..8).
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The strength of a combination; larger beats smaller among plays of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key(pub u32);

impl Key {
    /// Builds a key from a category, the contributing orders (any order) and the
    /// deciding suit.
    pub fn new(category: Category, orders: &[u8], suit: Suit) -> Key {
        let mut sorted = [0u8; 5];
        sorted[..orders.len()].copy_from_slice(orders);
        sorted[..orders.len()].sort_unstable_by(|a, b| b.cmp(a));
        let mut vector = 0u32;
        for &o in &sorted {
            vector = (vector << 4) | u32::from(o);
        }
        Key(category.key_rank() << 22 | vector << 2 | suit as u32)
    }

    /// A key from a 5-tile order mask (5 distinct orders): the nibble vector of its
    /// orders strongest first.
    fn from_order_mask(category: Category, mask: u16, suit: Suit) -> Key {
        let mut vector = 0u32;
        let mut m = mask;
        while m != 0 {
            let top = 15 - m.leading_zeros() as u8;
            vector = (vector << 4) | u32::from(top);
            m &= !(1 << top);
        }
        Key(category.key_rank() << 22 | vector << 2 | suit as u32)
    }

    /// A single or a group (pair, triple) of one order whose best tile has `suit`.
    pub const fn group(order: u8, suit: Suit) -> Key {
        Key(((order as u32) << 16) << 2 | suit as u32)
    }
}

/// A legal combination: its tiles, its category and its key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combo {
    tiles: TileSet,
    key: Key,
    category: Category,
}

impl Combo {
    /// The tiles played.
    pub const fn tiles(self) -> TileSet {
        self.tiles
    }

    /// The strength key.
    pub const fn key(self) -> Key {
        self.key
    }

    /// The category.
    pub const fn category(self) -> Category {
        self.category
    }

    /// Number of tiles (1, 2, 3 or 5).
    pub const fn len(self) -> usize {
        self.category.size()
    }

    /// Always false: a combination has at least one tile.
    pub const fn is_empty(self) -> bool {
        false
    }

    /// True when `self` may be played on `table`: same size, larger key.
    pub const fn beats(self, table: Combo) -> bool {
        self.category.size() == table.category.size() && self.key.0 > table.key.0
    }

    /// A combination whose category and key the caller has already established.
    pub(crate) const fn from_parts(tiles: TileSet, key: Key, category: Category) -> Combo {
        Combo {
            tiles,
            key,
            category,
        }
    }
}

impl fmt::Debug for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.category.name(), self.tiles)
    }
}

/// The order mask (bit o = rank order o) of every valid straight for a player count,
/// strongest first: windows `s..s+4` for `s = 1..=N-4` plus `N-3, N-2, N-1, N, 1`
/// (docs/rules/lexio.md, §3.3 Straights; a 2 never follows the 1 at the top).
pub fn straights(players: PlayerCount) -> &'static [u16] {
    const fn build<const K: usize>(n: u8) -> [u16; K] {
        let mut out = [0u16; K];
        let mut i = 0;
        // s = 1..=N-4 then the top window, N-3..N plus 1.
        while i < K {
            let mut mask = 0u16;
            let mut j = 0;
            while j < 5 {
                let number = if i + 1 == K {
                    if j == 4 { 1 } else { n - 3 + j }
                } else {
                    i as u8 + 1 + j
                };
                let order = if number >= 3 { number - 3 } else { number + 12 };
                mask |= 1 << order;
                j += 1;
            }
            out[i] = mask;
            i += 1;
        }
        // Sort strongest first: compare the orders from the top, like the key does.
        let mut a = 0;
        while a < K {
            let mut b = a + 1;
            while b < K {
                if out[b] > out[a] {
                    let t = out[a];
                    out[a] = out[b];
                    out[b] = t;
                }
                b += 1;
            }
            a += 1;
        }
        out
    }
    // Five distinct orders: comparing the masks as integers compares the sorted
    // order vectors from the top, which is exactly the key's comparison.
    const THREE: [u16; 6] = build::<6>(9);
    const FOUR: [u16; 10] = build::<10>(13);
    const FIVE: [u16; 12] = build::<12>(15);
    match players {
        PlayerCount::Three => &THREE,
        PlayerCount::Four => &FOUR,
        PlayerCount::Five => &FIVE,
    }
}

/// True when the 5-order mask is a valid straight for this player count.
pub fn is_straight(players: PlayerCount, order_mask: u16) -> bool {
    straights(players).contains(&order_mask)
}

/// The order mask of a set (bit o set when any tile of order o is present).
pub fn order_mask(tiles: TileSet) -> u16 {
    let mut mask = 0u16;
    for o in 0..15 {
        if tiles.nibble(o) != 0 {
            mask |= 1 << o;
        }
    }
    mask
}

/// A 5-tile combination of five distinct orders: a straight, flush or straight flush,
/// or `None`.
pub(crate) fn classify_distinct_five(players: PlayerCount, tiles: TileSet) -> Option<Combo> {
    let mask = order_mask(tiles);
    let top = tiles.highest()?;
    let flush = Suit::ALL.iter().any(|&s| tiles.of_suit(s) == tiles);
    let category = match (is_straight(players, mask), flush) {
        (true, true) => Category::StraightFlush,
        (true, false) => Category::Straight,
        (false, true) => Category::Flush,
        (false, false) => return None,
    };
    Some(Combo {
        tiles,
        key: Key::from_order_mask(category, mask, top.suit()),
        category,
    })
}

/// Classifies a set of tiles as a legal combination for this player count, or `None`.
/// Tiles outside the deck are not rejected here; the view checks deck membership.
///
/// ```
/// use climbot_core::lexio::{classify, Category, PlayerCount, Suit, Tile, TileSet};
/// let t = |n, s| Tile::new(n, s).unwrap();
/// let straight: TileSet = [t(2, Suit::Cloud), t(3, Suit::Sun), t(4, Suit::Sun), t(5, Suit::Sun), t(6, Suit::Sun)]
///     .into_iter().collect();
/// let combo = classify(PlayerCount::Five, straight).unwrap();
/// assert_eq!(combo.category(), Category::Straight);
/// ```
pub fn classify(players: PlayerCount, tiles: TileSet) -> Option<Combo> {
    let n = tiles.len();
    let top = tiles.highest()?;
    match n {
        1 => Some(Combo {
            tiles,
            key: Key::group(top.order(), top.suit()),
            category: Category::Single,
        }),
        2 | 3 => {
            let low = tiles.lowest()?;
            if low.order() != top.order() {
                return None;
            }
            Some(Combo {
                tiles,
                key: Key::group(top.order(), top.suit()),
                category: if n == 2 {
                    Category::Pair
                } else {
                    Category::Triple
                },
            })
        }
        5 => {
            let mut counts = [0u8; 15];
            for t in tiles {
                counts[t.order() as usize] += 1;
            }
            let mut quad = None;
            let mut triple = None;
            let mut pair = false;
            for (o, &c) in counts.iter().enumerate() {
                match c {
                    4 => quad = Some(o as u8),
                    3 => triple = Some(o as u8),
                    2 => pair = true,
                    _ => {}
                }
            }
            if let Some(q) = quad {
                // The quad's number alone decides; the kicker never counts.
                return Some(Combo {
                    tiles,
                    key: Key::new(Category::FourPlusOne, &[q], Suit::Sun),
                    category: Category::FourPlusOne,
                });
            }
            if let Some(tr) = triple {
                if !pair {
                    return None;
                }
                let best = tiles.of_order(tr).highest()?;
                return Some(Combo {
                    tiles,
                    key: Key::new(Category::FullHouse, &[tr], best.suit()),
                    category: Category::FullHouse,
                });
            }
            if pair {
                return None;
            }
            classify_distinct_five(players, tiles)
        }
        _ => None,
    }
}

/// Convenience for tests and docs: a tile from a number and suit, panicking on a bad
/// number.
pub fn tile(number: u8, suit: Suit) -> Tile {
    Tile::new(number, suit).expect("number in 1..=15")
}

#[cfg(test)]
mod tests {
    use super::*;
    use Suit::*;

    fn set(tiles: &[(u8, Suit)]) -> TileSet {
        tiles.iter().map(|&(n, s)| tile(n, s)).collect()
    }

    fn numbers_of(mask: u16) -> Vec<u8> {
        let mut v: Vec<u8> = (0..15)
            .filter(|o| mask & (1 << o) != 0)
            .map(super::super::tiles::number_of_order)
            .collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_twelve_straights_in_the_seeds_order() {
        let got: Vec<Vec<u8>> = straights(PlayerCount::Five)
            .iter()
            .map(|&m| numbers_of(m))
            .collect();
        let want: Vec<Vec<u8>> = vec![
            vec![1, 2, 3, 4, 5],
            vec![2, 3, 4, 5, 6],
            vec![1, 12, 13, 14, 15],
            vec![11, 12, 13, 14, 15],
            vec![10, 11, 12, 13, 14],
            vec![9, 10, 11, 12, 13],
            vec![8, 9, 10, 11, 12],
            vec![7, 8, 9, 10, 11],
            vec![6, 7, 8, 9, 10],
            vec![5, 6, 7, 8, 9],
            vec![4, 5, 6, 7, 8],
            vec![3, 4, 5, 6, 7],
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn ten_and_six_straights_for_four_and_three_players() {
        let four: Vec<Vec<u8>> = straights(PlayerCount::Four)
            .iter()
            .map(|&m| numbers_of(m))
            .collect();
        assert_eq!(four.len(), 10);
        assert_eq!(four[2], vec![1, 10, 11, 12, 13]);
        assert_eq!(four[9], vec![3, 4, 5, 6, 7]);
        let three: Vec<Vec<u8>> = straights(PlayerCount::Three)
            .iter()
            .map(|&m| numbers_of(m))
            .collect();
        assert_eq!(
            three,
            vec![
                vec![1, 2, 3, 4, 5],
                vec![2, 3, 4, 5, 6],
                vec![1, 6, 7, 8, 9],
                vec![5, 6, 7, 8, 9],
                vec![4, 5, 6, 7, 8],
                vec![3, 4, 5, 6, 7],
            ]
        );
    }

    #[test]
    fn straight_keys_rank_like_the_list() {
        // Classify one straight per window and check the keys descend in list order.
        let keys: Vec<Key> = straights(PlayerCount::Five)
            .iter()
            .map(|&m| {
                let tiles: TileSet = numbers_of(m)
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| tile(n, if i == 0 { Star } else { Cloud }))
                    .collect();
                classify(PlayerCount::Five, tiles).unwrap().key()
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] > w[1]));
        // 13-14-15-1-2 wraps past the 1: not a straight.
        assert!(
            classify(
                PlayerCount::Five,
                set(&[(13, Sun), (14, Star), (15, Sun), (1, Cloud), (2, Moon)])
            )
            .is_none()
        );
        // 9 players' top window does not exist for N = 15.
        assert!(
            classify(
                PlayerCount::Five,
                set(&[(6, Sun), (7, Star), (8, Sun), (9, Cloud), (1, Moon)])
            )
            .is_none()
        );
        assert!(
            classify(
                PlayerCount::Three,
                set(&[(6, Sun), (7, Star), (8, Sun), (9, Cloud), (1, Moon)])
            )
            .is_some()
        );
    }

    #[test]
    fn cloud_2_to_6_beats_sun_12_to_1() {
        let low = classify(
            PlayerCount::Five,
            set(&[(2, Cloud), (3, Cloud), (4, Star), (5, Cloud), (6, Cloud)]),
        )
        .unwrap();
        let high = classify(
            PlayerCount::Five,
            set(&[(12, Sun), (13, Sun), (14, Sun), (15, Star), (1, Sun)]),
        )
        .unwrap();
        assert_eq!(low.category(), Category::Straight);
        assert_eq!(high.category(), Category::Straight);
        assert!(low.beats(high));
        assert!(!high.beats(low));
    }

    #[test]
    fn any_flush_beats_any_straight() {
        let weakest_flush = classify(
            PlayerCount::Five,
            set(&[(3, Cloud), (4, Cloud), (5, Cloud), (6, Cloud), (8, Cloud)]),
        )
        .unwrap();
        let best_straight = classify(
            PlayerCount::Five,
            set(&[(1, Sun), (2, Sun), (3, Moon), (4, Sun), (5, Sun)]),
        )
        .unwrap();
        assert_eq!(weakest_flush.category(), Category::Flush);
        assert_eq!(best_straight.category(), Category::Straight);
        assert!(weakest_flush.beats(best_straight));
        let sf = classify(
            PlayerCount::Five,
            set(&[(3, Cloud), (4, Cloud), (5, Cloud), (6, Cloud), (7, Cloud)]),
        )
        .unwrap();
        assert_eq!(sf.category(), Category::StraightFlush);
        let quad = classify(
            PlayerCount::Five,
            set(&[(2, Cloud), (2, Star), (2, Moon), (2, Sun), (7, Cloud)]),
        )
        .unwrap();
        assert!(sf.beats(quad));
    }

    #[test]
    fn kickers_and_full_house_pairs_never_change_the_key() {
        let a = classify(
            PlayerCount::Five,
            set(&[(7, Cloud), (7, Star), (7, Moon), (7, Sun), (3, Cloud)]),
        )
        .unwrap();
        let b = classify(
            PlayerCount::Five,
            set(&[(7, Cloud), (7, Star), (7, Moon), (7, Sun), (2, Sun)]),
        )
        .unwrap();
        assert_eq!(a.key(), b.key());
        let c = classify(
            PlayerCount::Five,
            set(&[(9, Cloud), (9, Star), (9, Sun), (3, Cloud), (3, Star)]),
        )
        .unwrap();
        let d = classify(
            PlayerCount::Five,
            set(&[(9, Cloud), (9, Star), (9, Sun), (2, Moon), (2, Sun)]),
        )
        .unwrap();
        assert_eq!(c.category(), Category::FullHouse);
        assert_eq!(c.key(), d.key());
        // The triple's best suit is kept in the key but two full houses of one number
        // cannot meet in a trick.
        let e = classify(
            PlayerCount::Five,
            set(&[(9, Cloud), (9, Star), (9, Moon), (3, Cloud), (3, Star)]),
        )
        .unwrap();
        assert!(c.key() > e.key());
    }

    #[test]
    fn flush_compares_all_five_numbers_then_suit() {
        let a = classify(
            PlayerCount::Five,
            set(&[(2, Cloud), (9, Cloud), (7, Cloud), (5, Cloud), (3, Cloud)]),
        )
        .unwrap();
        let b = classify(
            PlayerCount::Five,
            set(&[(2, Star), (9, Star), (7, Star), (5, Star), (4, Star)]),
        )
        .unwrap();
        assert!(b.beats(a), "second-lowest number decides");
        let c = classify(
            PlayerCount::Five,
            set(&[(2, Sun), (9, Sun), (7, Sun), (5, Sun), (3, Sun)]),
        )
        .unwrap();
        assert!(c.beats(a), "equal numbers: suit decides");
    }

    #[test]
    fn invalid_shapes_are_rejected() {
        assert!(classify(PlayerCount::Five, TileSet::EMPTY).is_none());
        assert!(classify(PlayerCount::Five, set(&[(3, Cloud), (4, Cloud)])).is_none());
        assert!(
            classify(
                PlayerCount::Five,
                set(&[(3, Cloud), (3, Star), (3, Moon), (3, Sun)])
            )
            .is_none()
        );
        assert!(
            classify(
                PlayerCount::Five,
                set(&[(3, Cloud), (3, Star), (5, Moon), (5, Sun), (9, Sun)])
            )
            .is_none()
        );
        assert!(
            classify(
                PlayerCount::Five,
                set(&[(3, Cloud), (4, Star), (5, Moon), (6, Sun), (8, Sun)])
            )
            .is_none()
        );
    }
}
