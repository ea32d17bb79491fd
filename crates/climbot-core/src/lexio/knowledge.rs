//! What a seat can know (Lexio Part 2): the exact unseen set, structural certain winners
//! computed on the unseen set alone, and seat models narrowed by the public log.
//!
//! Certain winners treat the whole unseen set as one imaginary hand: if even that hand
//! cannot beat a play, nobody can. They never use the seat models, which rest on passes
//! a player may have made on purpose (re-entry is allowed, so a pass proves nothing).

use super::combos::{Category, Combo, Key, straights};
use super::moves::{for_each_lead, for_each_play};
use super::tiles::{PlayerCount, Suit, Tile, TileSet};
use super::view::{Action, LexioView};
use crate::search::mate::{MateRules, first_mate_play};
use crate::stats::hypergeometric_at_least;
use smallvec::SmallVec;

fn key_of(category: Category, vector: u32, suit: Suit) -> Key {
    let rank = match category {
        Category::Flush => 1,
        Category::FullHouse => 2,
        Category::FourPlusOne => 3,
        Category::StraightFlush => 4,
        _ => 0,
    };
    Key(rank << 22 | vector << 2 | suit as u32)
}

fn vector_of(orders_desc: &[u8]) -> u32 {
    orders_desc
        .iter()
        .fold(0u32, |v, &o| (v << 4) | u32::from(o))
}

fn top_suit(nibble: u8) -> Suit {
    Suit::from_index(7 - nibble.leading_zeros() as u8).unwrap_or(Suit::Cloud)
}

/// Orders (or their nibbles) on the stack: the learned policy asks [`best_key`] at
/// every move of a playout.
type Orders = SmallVec<[u8; 15]>;

/// The strongest key of `category` that the tiles of `pool` can make, if any.
pub fn best_key(players: PlayerCount, pool: TileSet, category: Category) -> Option<Key> {
    let size = category.size() as u32;
    match category {
        Category::Single | Category::Pair | Category::Triple => (0..15u8).rev().find_map(|o| {
            let n = pool.nibble(o);
            (n.count_ones() >= size).then(|| Key::group(o, top_suit(n)))
        }),
        Category::FourPlusOne => (0..15u8)
            .rev()
            .find(|&o| pool.nibble(o) == 0xF && pool.len() >= 5)
            .map(|o| key_of(category, u32::from(o) << 16, Suit::Sun)),
        Category::FullHouse => (0..15u8).rev().find_map(|a| {
            let n = pool.nibble(a);
            let pair = (0..15u8).any(|b| b != a && pool.nibble(b).count_ones() >= 2);
            (n.count_ones() >= 3 && pair).then(|| key_of(category, u32::from(a) << 16, top_suit(n)))
        }),
        Category::StraightFlush | Category::Straight => {
            let flush = category == Category::StraightFlush;
            straights(players).iter().find_map(|&mask| {
                let orders: Orders = (0..15u8).rev().filter(|o| mask & (1 << o) != 0).collect();
                let vector = vector_of(&orders);
                if flush {
                    Suit::ALL.iter().rev().find_map(|&s| {
                        orders
                            .iter()
                            .all(|&o| pool.nibble(o) & (1 << s as u8) != 0)
                            .then(|| key_of(category, vector, s))
                    })
                } else {
                    let nibbles: Orders = orders.iter().map(|&o| pool.nibble(o)).collect();
                    if nibbles.contains(&0) {
                        return None;
                    }
                    // A plain straight needs two suits somewhere; take the best top suit
                    // for which the other four positions can avoid matching it entirely.
                    Suit::ALL.iter().rev().find_map(|&s| {
                        if nibbles[0] & (1 << s as u8) == 0 {
                            return None;
                        }
                        let mixed = nibbles[1..].iter().any(|&n| n & !(1 << s as u8) != 0);
                        mixed.then(|| key_of(category, vector, s))
                    })
                }
            })
        }
        Category::Flush => Suit::ALL
            .iter()
            .rev()
            .filter_map(|&s| {
                let orders: Orders = (0..15u8)
                    .rev()
                    .filter(|&o| pool.nibble(o) & (1 << s as u8) != 0)
                    .collect();
                let n = orders.len();
                if n < 5 {
                    return None;
                }
                // Index tuples in lexicographic order give keys in descending order: the
                // first that is not a straight is the best flush of this suit.
                for a in 0..n {
                    for b in a + 1..n {
                        for c in b + 1..n {
                            for d in c + 1..n {
                                for e in d + 1..n {
                                    let chosen =
                                        [orders[a], orders[b], orders[c], orders[d], orders[e]];
                                    let mask = chosen.iter().fold(0u16, |m, &o| m | 1 << o);
                                    if !straights(players).contains(&mask) {
                                        return Some(key_of(category, vector_of(&chosen), s));
                                    }
                                }
                            }
                        }
                    }
                }
                None
            })
            .max(),
    }
}

/// True when some play of the tiles in `pool` beats `play` (same size, larger key).
pub fn can_be_beaten(players: PlayerCount, pool: TileSet, play: Combo) -> bool {
    if play.len() == 1 {
        let top = play.tiles().highest().map_or(0, Tile::id);
        return pool.bits() >> (top + 1) != 0;
    }
    let categories: &[Category] = match play.len() {
        2 => &[Category::Pair],
        3 => &[Category::Triple],
        _ => &[
            Category::StraightFlush,
            Category::FourPlusOne,
            Category::FullHouse,
            Category::Flush,
            Category::Straight,
        ],
    };
    categories
        .iter()
        .any(|&c| best_key(players, pool, c).is_some_and(|k| k > play.key()))
}

/// A certain winner: nobody can beat `play`, judged on the unseen set alone.
pub fn is_certain_winner(view: &LexioView, play: Combo) -> bool {
    !can_be_beaten(view.players(), view.unseen(), play)
}

/// The first play of the view's seat (in the order of [`for_each_play`]) that starts a
/// mate ([`crate::search::mate`]): plays nobody can beat ([`is_certain_winner`]), the
/// last one emptying the hand, so the seat wins the round before any other seat plays
/// a tile. `None` when there is none.
pub fn mate_play(view: &LexioView) -> Option<Combo> {
    let mut plays = Vec::new();
    for_each_play(view.players(), view.hand(), view.table(), &mut |c| {
        plays.push(c)
    });
    first_mate_play(&LexioMate(view), view.hand(), &plays)
}

/// Lexio's hands, leads and certain winners for the mate search.
struct LexioMate<'v>(&'v LexioView);

impl MateRules for LexioMate<'_> {
    type Hand = TileSet;
    type Play = Combo;
    fn leads(&self, hand: TileSet, out: &mut Vec<Combo>) {
        for_each_lead(self.0.players(), hand, &mut |c| out.push(c));
    }
    fn rest(&self, hand: TileSet, play: Combo) -> TileSet {
        hand.difference(play.tiles())
    }
    fn is_empty(&self, hand: TileSet) -> bool {
        hand.is_empty()
    }
    fn is_certain(&self, play: Combo) -> bool {
        is_certain_winner(self.0, play)
    }
}

/// What the public log says about one opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatModel {
    /// The seat.
    pub seat: usize,
    /// Tiles it holds (public).
    pub count: usize,
    /// Tiles it may hold: the unseen set, narrowed by its passes on single tricks.
    pub possible: TileSet,
    /// The fewest turns it needs to go out: ceil(count / 5), a lower bound.
    pub min_turns: usize,
}

/// Seat models for every opponent. A pass on a single trick caps that seat's tiles
/// below the table tile; a later play above the cap shows the pass was strategic and
/// drops the cap (self-correction). With `forget_before`, only log entries from that
/// index on are read (the normal bot's shorter memory).
pub fn seat_models(view: &LexioView, forget_before: usize) -> Vec<SeatModel> {
    let p = view.players().count();
    let unseen = view.unseen();
    let mut caps: Vec<Option<TileSet>> = vec![None; p];
    let mut table: Option<Combo> = None;
    let mut passes = 0;
    for (i, entry) in view.log().iter().enumerate() {
        let s = entry.seat as usize;
        let remembered = i >= forget_before;
        match entry.action {
            Action::Pass => {
                if let Some(t) = table.filter(|t| remembered && t.len() == 1) {
                    let top = t.tiles().highest().map_or(0, Tile::id);
                    let below = TileSet::from_bits((1u64 << top) - 1);
                    caps[s] = Some(caps[s].map_or(below, |c| c.intersection(below)));
                }
                passes += 1;
                if passes == p - 1 {
                    table = None;
                    passes = 0;
                }
            }
            Action::Play(c) => {
                if caps[s].is_some_and(|cap| !cap.is_superset(c.tiles())) {
                    caps[s] = None;
                }
                table = Some(c);
                passes = 0;
            }
        }
    }
    (0..p)
        .filter(|&s| s != view.seat())
        .map(|s| {
            let count = view.tile_count(s);
            let mut possible = caps[s].map_or(unseen, |cap| unseen.intersection(cap));
            if possible.len() < count {
                // The cap cannot hold the seat's tiles: the pass was strategic.
                possible = unseen;
            }
            SeatModel {
                seat: s,
                count,
                possible,
                min_turns: count.div_ceil(5),
            }
        })
        .collect()
}

/// The chance that the seat can beat a single, pair or triple: for each stronger number,
/// the chance it holds enough tiles of it that beat, combined as if independent.
/// 5-tile plays are judged structurally on the seat's possible tiles (0 or 1).
pub fn beat_chance(players: PlayerCount, seat: &SeatModel, play: Combo) -> f64 {
    if seat.count < play.len() {
        return 0.0;
    }
    let pool = seat.possible.len();
    match play.len() {
        1..=3 => {
            let size = play.len();
            let order = play.tiles().highest().map_or(0, Tile::order);
            let mut miss = 1.0;
            for o in order..15 {
                let n = seat.possible.nibble(o);
                // At the table's own number only groups topped by a higher suit beat.
                let good = if o == order {
                    let top = play.tiles().highest().map_or(0, |t| t.suit() as u8);
                    let above = (n >> (top + 1)).count_ones() as usize;
                    match size {
                        1 => above,
                        // A pair of the same number beats when it is topped by a higher
                        // suit: the seat needs two of them, one above the table's top.
                        2 if above > 0 => n.count_ones() as usize,
                        // Three of one number leave one: no triple can match it.
                        _ => continue,
                    }
                } else {
                    n.count_ones() as usize
                };
                if size == 1 {
                    // Any higher tile beats a single.
                    miss *= 1.0 - hypergeometric_at_least(pool, good, seat.count, 1);
                } else {
                    miss *= 1.0 - hypergeometric_at_least(pool, good, seat.count, size);
                }
            }
            1.0 - miss
        }
        _ => f64::from(u8::from(can_be_beaten(players, seat.possible, play))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::{classify, tile};
    use crate::lexio::moves::for_each_five;
    use crate::lexio::referee::deal;
    use crate::lexio::tiles::Suit::*;

    fn set(tiles: &[(u8, Suit)]) -> TileSet {
        tiles.iter().map(|&(n, s)| tile(n, s)).collect()
    }

    #[test]
    fn best_keys_match_brute_force_on_random_pools() {
        for seed in 0..300u64 {
            for players in PlayerCount::ALL {
                let hands = deal(players, seed);
                let pool = hands[0].union(hands[1]);
                let mut best = [None::<Key>; 8];
                for_each_five(players, pool, None, &mut |c| {
                    let slot = &mut best[c.category().index()];
                    if slot.is_none_or(|k| c.key() > k) {
                        *slot = Some(c.key());
                    }
                });
                for cat in [
                    Category::Straight,
                    Category::Flush,
                    Category::FullHouse,
                    Category::FourPlusOne,
                    Category::StraightFlush,
                ] {
                    assert_eq!(
                        best_key(players, pool, cat),
                        best[cat.index()],
                        "{cat:?} {pool:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn certain_winners_on_the_unseen_set() {
        let pool = set(&[(2, Sun), (5, Cloud), (5, Star)]);
        let p = PlayerCount::Five;
        let single = |n, s| classify(p, set(&[(n, s)])).unwrap();
        assert!(can_be_beaten(p, pool, single(2, Moon)));
        assert!(!can_be_beaten(p, set(&[(2, Moon)]), single(2, Sun)));
        let pair = classify(p, set(&[(5, Moon), (5, Sun)])).unwrap();
        assert!(!can_be_beaten(p, pool, pair));
        let low_pair = classify(p, set(&[(4, Moon), (4, Sun)])).unwrap();
        assert!(can_be_beaten(p, pool, low_pair));
    }

    #[test]
    fn a_pass_on_a_single_caps_the_seat_until_it_plays_above() {
        use crate::lexio::referee::Round;
        let players = PlayerCount::Three;
        let hands = deal(players, 4);
        let mut round = Round::new(players, hands, 1, [0; 5]);
        let leader = round.to_act();
        // The leader plays its strongest tile as a single; the next seat passes.
        let top = hands[leader].highest().unwrap();
        round
            .apply(Action::Play(classify(players, top.set()).unwrap()))
            .unwrap();
        let passer = round.to_act();
        round.apply(Action::Pass).unwrap();
        let view = round.view().unwrap();
        let models = seat_models(&view, 0);
        let model = models.iter().find(|m| m.seat == passer).unwrap();
        if view.seat() != passer {
            assert!(
                model.possible.iter().all(|t| t < top),
                "capped below the table tile"
            );
            assert!(model.possible.len() >= model.count);
        }
        // Forgetting the log removes the cap.
        let forgetful = seat_models(&view, usize::MAX);
        assert!(forgetful.iter().all(|m| m.possible == view.unseen()));
    }

    #[test]
    fn a_pair_of_the_same_number_topped_higher_beats() {
        let players = PlayerCount::Five;
        let table = classify(players, set(&[(5, Cloud), (5, Star)])).unwrap();
        let seat = |possible: TileSet, count: usize| SeatModel {
            seat: 1,
            count,
            possible,
            min_turns: count.div_ceil(5),
        };
        // Only the other two 5s are possible and the seat holds two tiles: certain.
        let both = set(&[(5, Moon), (5, Sun)]);
        assert!((beat_chance(players, &seat(both, 2), table) - 1.0).abs() < 1e-12);
        // A single higher 5 cannot make a pair.
        let one = set(&[(5, Sun), (3, Cloud)]);
        assert_eq!(beat_chance(players, &seat(one, 2), table), 0.0);
    }
}
