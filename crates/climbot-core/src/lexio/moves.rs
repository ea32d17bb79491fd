//! Legal play generation. Every choice of tiles is a distinct play, even when two
//! choices share a key (Lexio Part 1, "후보를 하나도 잃지 않는 생성기"): the hard bot
//! chooses which tiles to spend. Generators call back once per play and allocate
//! nothing.

use super::combos::{Category, Combo, Key, straights};
use super::tiles::{PlayerCount, Suit, TileSet};

/// Calls `f` for every 4-bit submask of `nibble` with exactly `k` bits.
fn for_each_submask(nibble: u8, k: u32, mut f: impl FnMut(u8)) {
    let mut sub = nibble;
    while sub != 0 {
        if sub.count_ones() == k {
            f(sub);
        }
        sub = (sub - 1) & nibble;
    }
}

/// The suit of the highest bit of a non-empty 4-bit suit mask.
fn top_suit(sub: u8) -> Suit {
    Suit::from_index(7 - sub.leading_zeros() as u8).unwrap_or(Suit::Cloud)
}

fn key_bits(category: Category, vector: u32, suit: Suit) -> Key {
    let rank = match category {
        Category::Flush => 1,
        Category::FullHouse => 2,
        Category::FourPlusOne => 3,
        Category::StraightFlush => 4,
        _ => 0,
    };
    Key(rank << 22 | vector << 2 | suit as u32)
}

/// The nibble vector of a 5-order mask, strongest first.
fn vector_of(mask: u16) -> u32 {
    let mut vector = 0u32;
    let mut m = mask;
    while m != 0 {
        let top = 15 - m.leading_zeros();
        vector = (vector << 4) | top;
        m &= !(1 << top);
    }
    vector
}

/// Every single, pair or triple (`size` 1..=3) from `hand` whose key exceeds `min`.
pub fn for_each_group(hand: TileSet, size: u32, min: Option<Key>, f: &mut impl FnMut(Combo)) {
    let category = match size {
        1 => Category::Single,
        2 => Category::Pair,
        _ => Category::Triple,
    };
    for order in 0..15u8 {
        let nibble = hand.nibble(order);
        if nibble.count_ones() < size {
            continue;
        }
        for_each_submask(nibble, size, |sub| {
            let key = Key::group(order, top_suit(sub));
            if min.is_none_or(|m| key > m) {
                let tiles = TileSet::from_bits(u64::from(sub) << (4 * order));
                f(Combo::from_parts(tiles, key, category));
            }
        });
    }
}

/// Every 5-tile play from `hand` whose key exceeds `min`.
pub fn for_each_five(
    players: PlayerCount,
    hand: TileSet,
    min: Option<Key>,
    f: &mut impl FnMut(Combo),
) {
    if hand.len() < 5 {
        return;
    }
    let beats = |key: Key| min.is_none_or(|m| key > m);
    let mut nibbles = [0u8; 15];
    for (o, n) in nibbles.iter_mut().enumerate() {
        *n = hand.nibble(o as u8);
    }

    // Straights and straight flushes: every choice of suit at each of the five orders.
    for &mask in straights(players) {
        let mut orders = [0u8; 5];
        let mut i = 0;
        let mut missing = false;
        for o in 0..15u8 {
            if mask & (1 << o) != 0 {
                if nibbles[o as usize] == 0 {
                    missing = true;
                    break;
                }
                orders[i] = o;
                i += 1;
            }
        }
        if missing {
            continue;
        }
        let vector = vector_of(mask);
        // The deciding tile is the one at the highest order (orders[4]).
        let n = orders.map(|o| nibbles[o as usize]);
        // Nothing from this window can beat `min` if its best straight flush cannot.
        if !beats(key_bits(Category::StraightFlush, vector, Suit::Sun)) {
            continue;
        }
        for s4 in Suit::ALL
            .into_iter()
            .filter(|s| n[4] & (1 << *s as u8) != 0)
        {
            let straight_key = key_bits(Category::Straight, vector, s4);
            let flush_key = key_bits(Category::StraightFlush, vector, s4);
            let straight_ok = beats(straight_key);
            if !straight_ok && !beats(flush_key) {
                continue;
            }
            let top_bit = 1u64 << (4 * orders[4] + s4 as u8);
            for s0 in 0..4u8 {
                if n[0] & (1 << s0) == 0 {
                    continue;
                }
                for s1 in 0..4u8 {
                    if n[1] & (1 << s1) == 0 {
                        continue;
                    }
                    for s2 in 0..4u8 {
                        if n[2] & (1 << s2) == 0 {
                            continue;
                        }
                        for s3 in 0..4u8 {
                            if n[3] & (1 << s3) == 0 {
                                continue;
                            }
                            let tiles = TileSet::from_bits(
                                top_bit
                                    | 1 << (4 * orders[0] + s0)
                                    | 1 << (4 * orders[1] + s1)
                                    | 1 << (4 * orders[2] + s2)
                                    | 1 << (4 * orders[3] + s3),
                            );
                            let suit = s4 as u8;
                            if s0 == suit && s1 == suit && s2 == suit && s3 == suit {
                                if beats(flush_key) {
                                    f(Combo::from_parts(tiles, flush_key, Category::StraightFlush));
                                }
                            } else if straight_ok {
                                f(Combo::from_parts(tiles, straight_key, Category::Straight));
                            }
                        }
                    }
                }
            }
        }
    }

    // Flushes: every 5 of one suit that is not a straight.
    if beats(key_bits(Category::Flush, 0xFFFFF, Suit::Sun)) {
        for suit in Suit::ALL {
            let mut positions = [0u8; 15];
            let mut count = 0;
            for o in 0..15u8 {
                if nibbles[o as usize] & (1 << suit as u8) != 0 {
                    positions[count] = o;
                    count += 1;
                }
            }
            if count < 5 {
                continue;
            }
            let p = &positions[..count];
            for a in 0..count {
                for b in a + 1..count {
                    for c in b + 1..count {
                        for d in c + 1..count {
                            for e in d + 1..count {
                                let mask: u16 =
                                    1 << p[a] | 1 << p[b] | 1 << p[c] | 1 << p[d] | 1 << p[e];
                                if straights(players).contains(&mask) {
                                    continue;
                                }
                                let key = key_bits(Category::Flush, vector_of(mask), suit);
                                if !beats(key) {
                                    continue;
                                }
                                let s = suit as u8;
                                let tiles = TileSet::from_bits(
                                    1 << (4 * p[a] + s)
                                        | 1 << (4 * p[b] + s)
                                        | 1 << (4 * p[c] + s)
                                        | 1 << (4 * p[d] + s)
                                        | 1 << (4 * p[e] + s),
                                );
                                f(Combo::from_parts(tiles, key, Category::Flush));
                            }
                        }
                    }
                }
            }
        }
    }

    // Full houses: a triple of one order and a pair of another.
    for a in 0..15u8 {
        let na = nibbles[a as usize];
        if na.count_ones() < 3 {
            continue;
        }
        for_each_submask(na, 3, |triple| {
            let key = key_bits(Category::FullHouse, u32::from(a) << 16, top_suit(triple));
            if !beats(key) {
                return;
            }
            let triple_bits = u64::from(triple) << (4 * a);
            for b in (0..15u8).filter(|&b| b != a) {
                let nb = nibbles[b as usize];
                if nb.count_ones() < 2 {
                    continue;
                }
                for_each_submask(nb, 2, |pair| {
                    let tiles = TileSet::from_bits(triple_bits | u64::from(pair) << (4 * b));
                    f(Combo::from_parts(tiles, key, Category::FullHouse));
                });
            }
        });
    }

    // Four of a kind plus any one other tile; the kicker never counts.
    for a in 0..15u8 {
        if nibbles[a as usize] != 0xF {
            continue;
        }
        let key = key_bits(Category::FourPlusOne, u32::from(a) << 16, Suit::Sun);
        if !beats(key) {
            continue;
        }
        let quad = hand.of_order(a);
        for kicker in hand.difference(quad) {
            f(Combo::from_parts(
                quad.with(kicker),
                key,
                Category::FourPlusOne,
            ));
        }
    }
}

/// Every legal lead from `hand`: all singles, pairs, triples and 5-tile plays.
pub fn for_each_lead(players: PlayerCount, hand: TileSet, f: &mut impl FnMut(Combo)) {
    for size in 1..=3 {
        for_each_group(hand, size, None, f);
    }
    for_each_five(players, hand, None, f);
}

/// Every play from `hand` that beats `table` (same size, larger key).
pub fn for_each_follow(
    players: PlayerCount,
    hand: TileSet,
    table: Combo,
    f: &mut impl FnMut(Combo),
) {
    match table.len() {
        5 => for_each_five(players, hand, Some(table.key()), f),
        n => for_each_group(hand, n as u32, Some(table.key()), f),
    }
}

/// All legal leads, collected (one allocation for the list).
pub fn leads(players: PlayerCount, hand: TileSet) -> Vec<Combo> {
    let mut out = Vec::with_capacity(64);
    for_each_lead(players, hand, &mut |c| out.push(c));
    out
}

/// All plays that beat `table`, collected.
pub fn follows(players: PlayerCount, hand: TileSet, table: Combo) -> Vec<Combo> {
    let mut out = Vec::with_capacity(32);
    for_each_follow(players, hand, table, &mut |c| out.push(c));
    out
}

/// Every play from `hand` (led or following `table` when given).
pub fn for_each_play(
    players: PlayerCount,
    hand: TileSet,
    table: Option<Combo>,
    f: &mut impl FnMut(Combo),
) {
    match table {
        None => for_each_lead(players, hand, f),
        Some(t) => for_each_follow(players, hand, t, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::{classify, tile};
    use Suit::*;

    fn set(tiles: &[(u8, Suit)]) -> TileSet {
        tiles.iter().map(|&(n, s)| tile(n, s)).collect()
    }

    #[test]
    fn a_straight_flush_and_its_plain_straights_are_all_generated() {
        let hand = set(&[
            (3, Cloud),
            (4, Cloud),
            (5, Cloud),
            (6, Cloud),
            (7, Cloud),
            (7, Star),
        ]);
        let all = leads(PlayerCount::Five, hand);
        let fives: Vec<_> = all.iter().filter(|c| c.len() == 5).collect();
        assert_eq!(fives.len(), 2);
        assert!(
            fives
                .iter()
                .any(|c| c.category() == Category::StraightFlush)
        );
        assert!(fives.iter().any(|c| c.category() == Category::Straight));
        // 6 singles + 1 pair + 2 five-tile plays.
        assert_eq!(all.len(), 9);
    }

    #[test]
    fn every_choice_of_tiles_is_kept() {
        let hand = set(&[(9, Cloud), (9, Star), (9, Moon), (9, Sun)]);
        let all = leads(PlayerCount::Five, hand);
        // 4 singles, 6 pairs, 4 triples, no 5-tile play.
        assert_eq!(all.len(), 14);
        let table = classify(PlayerCount::Five, set(&[(9, Cloud), (9, Moon)])).unwrap();
        // Pairs above {cloud, moon} (top moon): those whose top tile is the sun: 3.
        assert_eq!(
            follows(PlayerCount::Five, hand.difference(table.tiles()), table).len(),
            1
        );
        let table = classify(PlayerCount::Five, set(&[(8, Sun), (8, Moon)])).unwrap();
        assert_eq!(follows(PlayerCount::Five, hand, table).len(), 6);
    }

    #[test]
    fn generated_plays_classify_to_themselves() {
        let hand = set(&[
            (3, Cloud),
            (3, Star),
            (3, Sun),
            (4, Cloud),
            (5, Star),
            (6, Sun),
            (7, Cloud),
            (7, Moon),
            (1, Cloud),
            (2, Cloud),
            (2, Sun),
            (12, Cloud),
        ]);
        for c in leads(PlayerCount::Five, hand) {
            let again = classify(PlayerCount::Five, c.tiles()).unwrap();
            assert_eq!(again, c);
        }
    }
}
