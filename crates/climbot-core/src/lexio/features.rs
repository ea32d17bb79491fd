//! What Lexio's learned policy sees in a decision: sparse binary features of the
//! position and the play (or the pass), read from the acting seat's side only (its own
//! hand, the table, the tile counts and the tiles not yet seen).
//!
//! The families conjoin the decision with its context, since a feature that does not
//! depend on the decision cancels out of a softmax: the play's kind, its rank in the
//! deck and among the seat's other plays of its kind, what it leaves in hand and how
//! many groups it breaks, whether any unseen tiles could beat it, the 2s it spends or
//! keeps (they double the loss), and how close the others are to going out.

use super::Lexio;
use super::combos::{Category, Combo, Key};
use super::knowledge::best_key;
use super::position::{LexioDeal, LexioPosition};
use super::tiles::{PlayerCount, TileSet};
use super::view::{Action, LexioView};
use crate::learn::{
    Family, FeatureRows, FeatureSet, Learnable, LinearPolicy, ShippedWeights, places_by_kind,
};

/// Lexio's families, in index order (see [`FeatureSet`]).
const FAMILIES: [Family; 19] = [
    Family::new("kind", 9 * 2),
    Family::new("kind_players", 9 * 3),
    Family::new("rank_top", 8 * 8),
    Family::new("rank_low", 8 * 8),
    Family::new("left", 14 * 2),
    Family::new("pass_hand", 14),
    Family::new("breaks_group", 4 * 3),
    Family::new("five_breaks", 6),
    Family::new("twos_spent", 4 * 2),
    Family::new("twos_kept", 4 * 3),
    Family::new("unbeatable", 8 * 2 * 2),
    Family::new("opponent_min", 5 * 9),
    Family::new("next_count", 4 * 2),
    Family::new("rank_among", 4 * 2 * 8),
    Family::new("pass_table", 8 * 8),
    Family::new("pass_passes", 4 * 4),
    Family::new("follow_gap", 5 * 8),
    Family::new("singles_left", 7 * 2),
    Family::new("owner_count", 4 * 2),
];

/// Indices of the families above.
mod f {
    pub const KIND: usize = 0;
    pub const KIND_PLAYERS: usize = 1;
    pub const RANK_TOP: usize = 2;
    pub const RANK_LOW: usize = 3;
    pub const LEFT: usize = 4;
    pub const PASS_HAND: usize = 5;
    pub const BREAKS_GROUP: usize = 6;
    pub const FIVE_BREAKS: usize = 7;
    pub const TWOS_SPENT: usize = 8;
    pub const TWOS_KEPT: usize = 9;
    pub const UNBEATABLE: usize = 10;
    pub const OPPONENT_MIN: usize = 11;
    pub const NEXT_COUNT: usize = 12;
    pub const RANK_AMONG: usize = 13;
    pub const PASS_TABLE: usize = 14;
    pub const PASS_PASSES: usize = 15;
    pub const FOLLOW_GAP: usize = 16;
    pub const SINGLES_LEFT: usize = 17;
    pub const OWNER_COUNT: usize = 18;
}

/// Lexio's feature set.
pub const FEATURES: FeatureSet = FeatureSet {
    name: "lexio-v1",
    families: &FAMILIES,
};

const OFFSETS: [u32; FAMILIES.len()] = FEATURES.offsets();

/// The weights trained for Lexio (`climbot train --game lexio`), read from
/// `weights/lexio.txt` at build time and checked at first use.
pub static TRAINED: ShippedWeights = ShippedWeights::new(
    "weights/lexio.txt",
    FEATURES,
    include_str!("../../weights/lexio.txt"),
);

/// Feature `i` of family `family` into the row being written.
fn put(rows: &mut FeatureRows, family: usize, i: usize) {
    rows.put(&FEATURES, &OFFSETS, family, i);
}

/// The kind of a decision: the category's index, 8 for a pass.
fn kind(action: &Action) -> usize {
    match action {
        Action::Pass => 8,
        Action::Play(c) => c.category().index(),
    }
}

/// An order's distance from the top of the deck (0: the 2s, 1: the 1s, then N, N-1...).
fn from_top(players: PlayerCount, order: u8) -> usize {
    let n = players.max_number() as usize;
    if order >= 13 {
        14 - order as usize
    } else {
        2 + (n - 3) - order as usize
    }
}

/// An order's distance from the bottom of the deck (0: the 3s).
fn from_bottom(players: PlayerCount, order: u8) -> usize {
    let n = players.max_number() as usize;
    if order >= 13 {
        (n - 2) + (order as usize - 13)
    } else {
        order as usize
    }
}

/// The strongest key the unseen tiles can make in each play size (1, 2, 3, 5), computed
/// only for the sizes asked.
struct Unseen {
    players: PlayerCount,
    pool: TileSet,
    best: [Option<Option<Key>>; 4],
}

impl Unseen {
    fn slot(size: usize) -> usize {
        match size {
            1 => 0,
            2 => 1,
            3 => 2,
            _ => 3,
        }
    }

    /// Whether some play of the unseen tiles beats `play`.
    fn beats(&mut self, play: Combo) -> bool {
        let slot = Self::slot(play.len());
        let (players, pool) = (self.players, self.pool);
        let best = *self.best[slot].get_or_insert_with(|| match play.len() {
            1 => best_key(players, pool, Category::Single),
            2 => best_key(players, pool, Category::Pair),
            3 => best_key(players, pool, Category::Triple),
            _ => [
                Category::Straight,
                Category::Flush,
                Category::FullHouse,
                Category::FourPlusOne,
                Category::StraightFlush,
            ]
            .into_iter()
            .filter_map(|c| best_key(players, pool, c))
            .max(),
        });
        best.is_some_and(|k| k > play.key())
    }
}

/// Orders holding exactly one tile in `hand`.
fn lone_orders(hand: TileSet) -> usize {
    (0..15u8)
        .filter(|&o| hand.nibble(o).count_ones() == 1)
        .count()
}

fn twos(tiles: TileSet) -> usize {
    tiles.of_order(14).len()
}

impl Learnable for Lexio {
    const FEATURES: FeatureSet = FEATURES;

    fn replay_log(
        view: &LexioView,
        deal: &LexioDeal,
        visit: &mut dyn FnMut(&LexioPosition, Action),
    ) -> bool {
        super::position::replay_log(view, deal, visit)
    }

    fn features(position: &LexioPosition, decisions: &[Action], rows: &mut FeatureRows) {
        let players = position.players();
        let p = players.count();
        let seat = position.to_act();
        let hand = position.hand(seat);
        let mut unseen_pool = TileSet::EMPTY;
        let mut opponent_min = usize::MAX;
        for s in (0..p).filter(|&s| s != seat) {
            unseen_pool = unseen_pool.union(position.hand(s));
            opponent_min = opponent_min.min(position.hand(s).len());
        }
        let mut unseen = Unseen {
            players,
            pool: unseen_pool,
            best: [None; 4],
        };
        let opponent_min = (opponent_min.max(1) - 1).min(4);
        let next_count = (position.hand((seat + 1) % p).len().max(1) - 1).min(3);
        let trick = position.trick();
        let follow = usize::from(trick.is_some());
        // Each play's place among the seat's plays of its category, weakest first.
        let kinds = decisions.iter().map(|a| match a {
            Action::Play(c) => Some((c.category().index(), u64::from(c.key().0))),
            Action::Pass => None,
        });
        let among = places_by_kind(kinds, 3);
        for (j, action) in decisions.iter().enumerate() {
            let k = kind(action);
            put(rows, f::KIND, k * 2 + follow);
            put(rows, f::KIND_PLAYERS, k * 3 + (p - 3));
            put(rows, f::OPPONENT_MIN, opponent_min * 9 + k);
            match action {
                Action::Pass => {
                    put(rows, f::PASS_HAND, hand.len().min(13));
                    put(rows, f::NEXT_COUNT, next_count * 2);
                    if let Some((table, owner)) = trick {
                        let top = table.tiles().highest().map_or(0, |t| t.order());
                        let cat = table.category().index();
                        put(rows, f::PASS_TABLE, cat * 8 + from_top(players, top).min(7));
                        put(
                            rows,
                            f::PASS_PASSES,
                            position.passes().min(3) * 4 + opponent_min.min(3),
                        );
                        let owner_count = (position.hand(owner).len().max(1) - 1).min(3);
                        put(rows, f::OWNER_COUNT, owner_count * 2);
                    }
                }
                Action::Play(c) => {
                    let cat = c.category().index();
                    let tiles = c.tiles();
                    let after = hand.difference(tiles);
                    let top = tiles.highest().map_or(0, |t| t.order());
                    let low = tiles.lowest().map_or(0, |t| t.order());
                    put(rows, f::RANK_TOP, cat * 8 + from_top(players, top).min(7));
                    put(
                        rows,
                        f::RANK_LOW,
                        cat * 8 + from_bottom(players, low).min(7),
                    );
                    put(rows, f::LEFT, after.len().min(13) * 2 + follow);
                    put(rows, f::NEXT_COUNT, next_count * 2 + 1);
                    if c.len() <= 3 {
                        let held = hand.of_order(top).len().clamp(1, 4);
                        put(rows, f::BREAKS_GROUP, (held - 1) * 3 + (c.len() - 1));
                    } else {
                        let broken = tiles
                            .iter()
                            .filter(|t| !after.of_order(t.order()).is_empty())
                            .count();
                        put(rows, f::FIVE_BREAKS, broken.min(5));
                    }
                    put(rows, f::TWOS_SPENT, twos(tiles).min(3) * 2 + follow);
                    let left_band = match after.len() {
                        0..=3 => 0,
                        4..=7 => 1,
                        _ => 2,
                    };
                    put(rows, f::TWOS_KEPT, twos(after).min(3) * 3 + left_band);
                    let safe = usize::from(!unseen.beats(*c));
                    put(rows, f::UNBEATABLE, (cat * 2 + safe) * 2 + follow);
                    put(rows, f::RANK_AMONG, (among[j] * 2 + follow) * 8 + cat);
                    if let Some((table, owner)) = trick {
                        let table_top = table.tiles().highest().map_or(0, |t| t.order());
                        let gap = usize::from(top.saturating_sub(table_top)).min(4);
                        put(rows, f::FOLLOW_GAP, gap * 8 + cat);
                        let owner_count = (position.hand(owner).len().max(1) - 1).min(3);
                        put(rows, f::OWNER_COUNT, owner_count * 2 + 1);
                    }
                    put(
                        rows,
                        f::SINGLES_LEFT,
                        lone_orders(after).min(6) * 2 + follow,
                    );
                }
            }
            rows.end_row();
        }
    }

    fn trained(_position: &LexioPosition) -> &'static LinearPolicy {
        TRAINED.policy()
    }

    fn shipped() -> &'static [&'static ShippedWeights] {
        static SHIPPED: [&ShippedWeights; 1] = [&TRAINED];
        &SHIPPED
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{DecisionContext, Difficulty};
    use crate::game::{Game, Simulation};
    use crate::learn::{Scratch, log_likelihood_of_log, logged_decisions};
    use crate::lexio::referee::{Round, deal};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    /// At the tenth decision and later of rounds the hard bot plays, the true hands
    /// explain the other seats' logged decisions better than most deals of the same
    /// view do: what the inference of the search's deals rests on.
    #[test]
    fn the_true_hands_explain_the_log_better_than_random_deals() {
        let hard = Lexio::policy(Difficulty::Hard).unwrap();
        let players = PlayerCount::Five;
        let mut scratch = Scratch::new();
        let (mut views, mut truth_ahead) = (0, 0);
        for seed in 0..12 {
            let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
            while round.winner().is_none() {
                let view = round.view().unwrap();
                if round.log().len() >= 10 {
                    let truth = *round.position().hands();
                    let visited = logged_decisions::<Lexio>(&view, &truth);
                    let others = round
                        .log()
                        .iter()
                        .filter(|e| usize::from(e.seat) != view.seat())
                        .count();
                    assert_eq!(visited, others, "every other seat's decision replayed");
                    let true_ll = log_likelihood_of_log::<Lexio>(&view, &truth, 0, &mut scratch);
                    assert!(true_ll < 0.0 && true_ll.is_finite());
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let below = (0..20)
                        .filter(|_| {
                            let d = Lexio::deal(&view, &mut rng);
                            log_likelihood_of_log::<Lexio>(&view, &d, 0, &mut scratch) < true_ll
                        })
                        .count();
                    views += 1;
                    truth_ahead += usize::from(below >= 10);
                }
                let mut ctx = DecisionContext::unbounded(seed);
                let action = hard.decide(&view, &mut ctx);
                round.apply(action).unwrap();
            }
        }
        assert!(views > 100, "{views}");
        assert!(
            truth_ahead * 10 >= views * 7,
            "the truth beat most random deals in only {truth_ahead} of {views} views"
        );
    }
}
