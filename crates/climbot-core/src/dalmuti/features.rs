//! What The Great Dalmuti's learned policy sees in a decision of the play phase: sparse
//! binary features of the position and the set put down (or the pass), read from the
//! acting seat's side only (its own cards, the table, the card counts and the cards not
//! yet seen).
//!
//! The families conjoin the decision with its context: the set's size and rank, the
//! Jesters it spends, how much of its rank it leaves behind, what it leaves in hand,
//! whether the unseen cards could beat it, its place among the seat's sets of that
//! size, and how close the others are to going out.

use super::Dalmuti;
use super::cards::{Cards, Rank};
use super::decision::DalmutiDecision;
use super::plays::Play;
use super::position::{DalmutiDeal, DalmutiPosition};
use super::view::DalmutiView;
use crate::learn::{
    Family, FeatureRows, FeatureSet, Learnable, LinearPolicy, ShippedWeights, places_by_kind,
};

const FAMILIES: [Family; 20] = [
    Family::new("kind", 7 * 2),
    Family::new("kind_players", 7 * 5),
    Family::new("rank", 13 * 2),
    Family::new("rank_size", 13 * 6),
    Family::new("jesters", 3 * 2),
    Family::new("jesters_left", 3 * 3),
    Family::new("rank_left", 4 * 6),
    Family::new("left", 14 * 2),
    Family::new("pass_hand", 14),
    Family::new("pass_table", 13 + 6),
    Family::new("unbeatable", 2 * 2 * 6),
    Family::new("place_among", 4 * 2 * 6),
    Family::new("opponent_min", 5 * 7),
    Family::new("next_count", 4 * 2),
    Family::new("owner_count", 4 * 2),
    Family::new("ranks_left", 9 * 2),
    Family::new("follow_gap", 4 * 6),
    Family::new("seats_out", 4 * 2),
    Family::new("best_left", 4 * 3),
    Family::new("other", 1),
];

mod f {
    pub const KIND: usize = 0;
    pub const KIND_PLAYERS: usize = 1;
    pub const RANK: usize = 2;
    pub const RANK_SIZE: usize = 3;
    pub const JESTERS: usize = 4;
    pub const JESTERS_LEFT: usize = 5;
    pub const RANK_LEFT: usize = 6;
    pub const LEFT: usize = 7;
    pub const PASS_HAND: usize = 8;
    pub const PASS_TABLE: usize = 9;
    pub const UNBEATABLE: usize = 10;
    pub const PLACE_AMONG: usize = 11;
    pub const OPPONENT_MIN: usize = 12;
    pub const NEXT_COUNT: usize = 13;
    pub const OWNER_COUNT: usize = 14;
    pub const RANKS_LEFT: usize = 15;
    pub const FOLLOW_GAP: usize = 16;
    pub const SEATS_OUT: usize = 17;
    pub const BEST_LEFT: usize = 18;
    pub const OTHER: usize = 19;
}

/// The Great Dalmuti's feature set.
pub const FEATURES: FeatureSet = FeatureSet {
    name: "dalmuti-v1",
    families: &FAMILIES,
};

const OFFSETS: [u32; FAMILIES.len()] = FEATURES.offsets();

/// The weights trained for The Great Dalmuti (`climbot train --game dalmuti`), read
/// from `weights/dalmuti.txt` at build time and checked at first use.
pub static TRAINED: ShippedWeights = ShippedWeights::new(
    "weights/dalmuti.txt",
    FEATURES,
    include_str!("../../weights/dalmuti.txt"),
);

fn put(rows: &mut FeatureRows, family: usize, i: usize) {
    rows.put(&FEATURES, &OFFSETS, family, i);
}

/// A set's size in 6 bands: 1, 2, 3, 4, 5, 6 or more.
fn size_band(size: u8) -> usize {
    usize::from(size.clamp(1, 6)) - 1
}

/// A count of cards in 4 bands (1, 2, 3, 4 or more; 0 counts as 1).
fn count_band(n: usize) -> usize {
    n.clamp(1, 4) - 1
}

/// Whether some set of the `unseen` cards beats `play`: the same size, of a better
/// numbered rank, with Jesters as wild copies.
fn beatable(unseen: Cards, play: Play) -> bool {
    let size = play.size();
    Rank::numbered()
        .take_while(|r| r.beats(play.rank()))
        .any(|r| unseen.count(r) > 0 && unseen.count(r) + unseen.jesters() >= size)
}

/// Ranks (Jesters apart) with at least one card in `cards`.
fn ranks_held(cards: Cards) -> usize {
    Rank::numbered().filter(|&r| cards.count(r) > 0).count()
}

/// Cards of ranks 1 to 3 in `cards`, the ones that win tricks late.
fn best_cards(cards: Cards) -> usize {
    Rank::numbered()
        .take(3)
        .map(|r| usize::from(cards.count(r)))
        .sum()
}

impl Learnable for Dalmuti {
    const FEATURES: FeatureSet = FEATURES;

    fn replay_log(
        view: &DalmutiView,
        deal: &DalmutiDeal,
        visit: &mut dyn FnMut(&DalmutiPosition, DalmutiDecision),
    ) -> bool {
        super::position::replay_log(view, deal, visit)
    }

    fn features(position: &DalmutiPosition, decisions: &[DalmutiDecision], rows: &mut FeatureRows) {
        let turn = position.turn();
        let players = position.players();
        let seat = turn.to_act();
        let hand = position.hand(seat);
        let counts = turn.counts();
        let mut unseen = Cards::EMPTY;
        let mut opponent_min = usize::MAX;
        for s in (0..players).filter(|&s| s != seat) {
            unseen = unseen.union(position.hand(s));
            if counts[s] > 0 {
                opponent_min = opponent_min.min(usize::from(counts[s]));
            }
        }
        let opponent_min = (opponent_min.max(1) - 1).min(4);
        // The next seat still holding cards.
        let next = (1..players)
            .map(|k| (seat + k) % players)
            .find(|&s| counts[s] > 0)
            .unwrap_or(seat);
        let next_count = count_band(usize::from(counts[next]));
        let table = turn.table();
        let follow = usize::from(table.is_some());
        let owner_count = count_band(usize::from(counts[turn.owner()]));
        let seats_out = turn.finished().count().min(3);
        let players_band = players.clamp(4, 8) - 4;
        let kinds = decisions.iter().map(|d| match d {
            DalmutiDecision::Play(p) => Some((size_band(p.size()), u64::from(13 - p.rank().get()))),
            _ => None,
        });
        let places = places_by_kind(kinds, 3);
        for (j, decision) in decisions.iter().enumerate() {
            match decision {
                DalmutiDecision::Pass => {
                    put(rows, f::KIND, follow);
                    put(rows, f::KIND_PLAYERS, players_band * 7);
                    put(rows, f::OPPONENT_MIN, opponent_min * 7);
                    put(rows, f::PASS_HAND, (hand.len() as usize).min(13));
                    put(rows, f::NEXT_COUNT, next_count * 2);
                    put(rows, f::OWNER_COUNT, owner_count * 2);
                    put(rows, f::SEATS_OUT, seats_out * 2);
                    if let Some(t) = table {
                        put(rows, f::PASS_TABLE, t.rank().index());
                        put(rows, f::PASS_TABLE, 13 + size_band(t.size()));
                    }
                    put(rows, f::BEST_LEFT, best_cards(hand).min(3) * 3);
                }
                DalmutiDecision::Play(p) => {
                    let size = size_band(p.size());
                    let kind = 1 + size;
                    let after = hand.difference(p.cards());
                    put(rows, f::KIND, kind * 2 + follow);
                    put(rows, f::KIND_PLAYERS, players_band * 7 + kind);
                    put(rows, f::OPPONENT_MIN, opponent_min * 7 + kind);
                    put(rows, f::RANK, p.rank().index() * 2 + follow);
                    put(rows, f::RANK_SIZE, p.rank().index() * 6 + size);
                    put(rows, f::JESTERS, usize::from(p.jesters()) * 2 + follow);
                    let left_band = match after.len() {
                        0..=3 => 0,
                        4..=8 => 1,
                        _ => 2,
                    };
                    put(
                        rows,
                        f::JESTERS_LEFT,
                        usize::from(after.jesters()) * 3 + left_band,
                    );
                    let rank_left = if p.rank().is_jester() {
                        0
                    } else {
                        usize::from(after.count(p.rank())).min(3)
                    };
                    put(rows, f::RANK_LEFT, rank_left * 6 + size);
                    put(rows, f::LEFT, (after.len() as usize).min(13) * 2 + follow);
                    let safe = usize::from(!beatable(unseen, *p));
                    put(rows, f::UNBEATABLE, (safe * 2 + follow) * 6 + size);
                    put(rows, f::PLACE_AMONG, (places[j] * 2 + follow) * 6 + size);
                    put(rows, f::NEXT_COUNT, next_count * 2 + 1);
                    put(rows, f::OWNER_COUNT, owner_count * 2 + 1);
                    put(rows, f::RANKS_LEFT, ranks_held(after).min(8) * 2 + follow);
                    put(rows, f::SEATS_OUT, seats_out * 2 + 1);
                    if let Some(t) = table {
                        let gap = usize::from(t.rank().get().saturating_sub(p.rank().get()));
                        put(rows, f::FOLLOW_GAP, (gap.clamp(1, 4) - 1) * 6 + size);
                    }
                    put(
                        rows,
                        f::BEST_LEFT,
                        best_cards(after).min(3) * 3 + 1 + usize::from(follow == 1),
                    );
                }
                DalmutiDecision::TaxReturn(_) | DalmutiDecision::Revolution(_) => {
                    put(rows, f::OTHER, 0);
                }
            }
            rows.end_row();
        }
    }

    fn trained(_position: &DalmutiPosition) -> &'static LinearPolicy {
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
    use crate::dalmuti::referee::{HandState, deal};
    use crate::dalmuti::turn::MAX_PLAYERS;
    use crate::dalmuti::view::Phase;
    use crate::game::{Game, Simulation};
    use crate::learn::{Scratch, log_likelihood_of_log};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    /// At the tenth play-phase decision and later of hands the hard bot plays, the true
    /// hands explain the other seats' logged decisions better than most deals of the
    /// same view do.
    #[test]
    fn the_true_hands_explain_the_log_better_than_random_deals() {
        let hard = Dalmuti::policy(Difficulty::Hard).unwrap();
        let players = 6;
        let mut scratch = Scratch::new();
        let (mut views, mut truth_ahead) = (0, 0);
        for seed in 0..6 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let seating: Vec<usize> = (0..players).collect();
            let mut state = HandState::new(&deal(players, &mut rng), &seating, &[0; 6], 1, 1);
            while let Some(view) = state.view().unwrap() {
                if view.phase() == Phase::Play && view.log().len() >= 10 {
                    let mut truth = [Cards::EMPTY; MAX_PLAYERS];
                    for (s, hand) in truth.iter_mut().enumerate().take(players) {
                        *hand = state.hand(s);
                    }
                    let true_ll = log_likelihood_of_log::<Dalmuti>(&view, &truth, 0, &mut scratch);
                    let below = (0..20)
                        .filter(|_| {
                            let d = Dalmuti::deal(&view, &mut rng);
                            log_likelihood_of_log::<Dalmuti>(&view, &d, 0, &mut scratch) < true_ll
                        })
                        .count();
                    views += 1;
                    truth_ahead += usize::from(below >= 10);
                }
                let mut ctx = DecisionContext::unbounded(seed);
                let decision = hard.decide(&view, &mut ctx);
                state.apply(decision, "hard").unwrap();
            }
        }
        assert!(views > 100, "{views}");
        assert!(
            truth_ahead * 10 >= views * 7,
            "the truth beat most random deals in only {truth_ahead} of {views} views"
        );
    }
}
