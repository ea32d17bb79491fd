//! The easy bot, exactly as `docs/rules/easy-bots.md` states it: deterministic, always
//! legal, never passes with a legal follow. It is the baseline, the timeout autoplay
//! and every harder bot's fallback.

use crate::bot::DecisionContext;
use crate::game::Policy;
use crate::lexio::Lexio;
use crate::lexio::combos::Combo;
use crate::lexio::moves::{for_each_five, for_each_follow, for_each_group};
use crate::lexio::tiles::{PlayerCount, TileSet};
use crate::lexio::view::{Action, LexioView};
use std::cmp::Ordering;

/// The easy policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct EasyBot;

impl Policy<Lexio> for EasyBot {
    fn name(&self) -> &'static str {
        "easy"
    }

    fn decide(&self, view: &LexioView, _ctx: &mut DecisionContext<'_>) -> Action {
        easy_action(view.players(), view.hand(), view.table())
    }
}

/// Smaller key, then smaller id sum, then the lexicographically smaller id list.
fn cheaper(a: &Combo, b: &Combo) -> Ordering {
    a.key()
        .cmp(&b.key())
        .then_with(|| a.tiles().id_sum().cmp(&b.tiles().id_sum()))
        .then_with(|| {
            if a.tiles() == b.tiles() {
                Ordering::Equal
            } else if a.tiles().lex_less(b.tiles()) {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        })
}

/// The easy decision for a hand and table, a pure function of its inputs.
///
/// Lead: among the plays containing the weakest tile, the most tiles, then the cheapest.
/// Follow: the cheapest play that beats the table; pass only when there is none.
pub fn easy_action(players: PlayerCount, hand: TileSet, table: Option<Combo>) -> Action {
    let mut best: Option<Combo> = None;
    match table {
        Some(table) => {
            for_each_follow(players, hand, table, &mut |c| {
                if best.is_none_or(|b| cheaper(&c, &b) == Ordering::Less) {
                    best = Some(c);
                }
            });
        }
        None => {
            let Some(weakest) = hand.lowest() else {
                return Action::Pass;
            };
            // The most tiles first: a 5-tile play holding the weakest tile if there is
            // one, else the largest group of its number that holds it.
            for_each_five(players, hand, None, &mut |c| {
                if c.tiles().contains(weakest)
                    && best.is_none_or(|b| cheaper(&c, &b) == Ordering::Less)
                {
                    best = Some(c);
                }
            });
            let group = hand.of_order(weakest.order());
            for size in (1..=3).rev() {
                if best.is_some() {
                    break;
                }
                for_each_group(group, size, None, &mut |c| {
                    if c.tiles().contains(weakest)
                        && best.is_none_or(|b| cheaper(&c, &b) == Ordering::Less)
                    {
                        best = Some(c);
                    }
                });
            }
        }
    }
    best.map_or(Action::Pass, Action::Play)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::{classify, tile};
    use crate::lexio::tiles::Suit;
    use crate::lexio::tiles::Suit::*;

    fn set(tiles: &[(u8, Suit)]) -> TileSet {
        tiles.iter().map(|&(n, s)| tile(n, s)).collect()
    }

    #[test]
    fn leads_the_largest_play_with_the_weakest_tile() {
        // Weakest tile cloud-3; a straight 3-4-5-6-7 holds it.
        let hand = set(&[
            (3, Cloud),
            (4, Star),
            (5, Moon),
            (6, Sun),
            (7, Cloud),
            (3, Star),
            (9, Sun),
        ]);
        let Action::Play(c) = easy_action(PlayerCount::Five, hand, None) else {
            panic!()
        };
        assert_eq!(c.len(), 5);
        assert!(c.tiles().contains(tile(3, Cloud)));
        // Without the straight: the pair of 3s.
        let hand = set(&[(3, Cloud), (3, Star), (9, Sun)]);
        let Action::Play(c) = easy_action(PlayerCount::Five, hand, None) else {
            panic!()
        };
        assert_eq!(c.tiles(), set(&[(3, Cloud), (3, Star)]));
    }

    #[test]
    fn follows_with_the_cheapest_beating_play() {
        let table = classify(PlayerCount::Five, set(&[(5, Star), (5, Cloud)])).unwrap();
        let hand = set(&[(7, Cloud), (7, Moon), (7, Sun), (5, Sun), (5, Moon)]);
        // 5-moon+5-sun beats the star-topped pair of 5s and is the smallest key.
        let Action::Play(c) = easy_action(PlayerCount::Five, hand, Some(table)) else {
            panic!()
        };
        assert_eq!(c.tiles(), set(&[(5, Moon), (5, Sun)]));
        // Among the pairs of 7s with the same key (top sun), the smaller id sum wins.
        let table = classify(PlayerCount::Five, set(&[(6, Star), (6, Sun)])).unwrap();
        let hand = set(&[(7, Cloud), (7, Moon), (7, Sun)]);
        let Action::Play(c) = easy_action(PlayerCount::Five, hand, Some(table)) else {
            panic!()
        };
        assert_eq!(c.tiles(), set(&[(7, Cloud), (7, Moon)]));
    }

    #[test]
    fn passes_only_without_a_legal_follow() {
        let table = classify(PlayerCount::Five, set(&[(2, Sun)])).unwrap();
        assert_eq!(
            easy_action(PlayerCount::Five, set(&[(1, Sun)]), Some(table)),
            Action::Pass
        );
    }
}
