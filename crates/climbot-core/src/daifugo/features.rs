//! What Daifugo's learned policy sees in a decision of the play phase: sparse binary
//! features of the position and the play (or the pass), read from the acting seat's
//! side only (its own cards, the trick, the card counts and the cards not yet seen).
//!
//! The families conjoin the decision with its context: the play's kind, size and
//! strength under the current order, the jokers it spends or keeps, the special rules
//! it sets off (8-cut, revolution, J-back, a suit lock), what it leaves in hand and
//! which groups it breaks, whether the unseen cards could beat it, its place among the
//! seat's plays of its kind, and how close the others are to going out. One policy is
//! trained per rule preset.

use super::Daifugo;
use super::cards::{CardSet, RANKS};
use super::decision::DaifugoDecision;
use super::plays::{JOKER_STRENGTH, Play, PlayKind, foul_cards};
use super::position::{DaifugoDeal, DaifugoPosition};
use super::rules::RuleSet;
use super::view::DaifugoView;
use crate::learn::{
    Family, FeatureRows, FeatureSet, Learnable, LinearPolicy, ShippedWeights, places_by_kind,
};

const FAMILIES: [Family; 24] = [
    Family::new("kind", 4 * 2),
    Family::new("kind_players", 4 * 3),
    Family::new("strength", 3 * 14),
    Family::new("size", 3 * 5),
    Family::new("jokers", 3 * 3),
    Family::new("jokers_left", 3 * 3),
    Family::new("left", 13 * 2),
    Family::new("pass_hand", 13),
    Family::new("pass_table", 3 * 14),
    Family::new("special", 5 * 2),
    Family::new("revolution_hand", 5 * 2),
    Family::new("unbeatable", 3 * 3 * 2),
    Family::new("place_among", 4 * 3 * 2),
    Family::new("opponent_min", 5 * 4),
    Family::new("next_count", 4 * 2),
    Family::new("owner_count", 4 * 2),
    Family::new("breaks_group", 4 * 4),
    Family::new("sequence_breaks", 4),
    Family::new("forbidden_finish", 2),
    Family::new("locked", 2 * 4),
    Family::new("seats_out", 4 * 2),
    Family::new("singles_left", 7 * 2),
    Family::new("other", 1),
    Family::new("fouls_left", 2 * 4 * 4),
];

mod f {
    pub const KIND: usize = 0;
    pub const KIND_PLAYERS: usize = 1;
    pub const STRENGTH: usize = 2;
    pub const SIZE: usize = 3;
    pub const JOKERS: usize = 4;
    pub const JOKERS_LEFT: usize = 5;
    pub const LEFT: usize = 6;
    pub const PASS_HAND: usize = 7;
    pub const PASS_TABLE: usize = 8;
    pub const SPECIAL: usize = 9;
    pub const REVOLUTION_HAND: usize = 10;
    pub const UNBEATABLE: usize = 11;
    pub const PLACE_AMONG: usize = 12;
    pub const OPPONENT_MIN: usize = 13;
    pub const NEXT_COUNT: usize = 14;
    pub const OWNER_COUNT: usize = 15;
    pub const BREAKS_GROUP: usize = 16;
    pub const SEQUENCE_BREAKS: usize = 17;
    pub const FORBIDDEN_FINISH: usize = 18;
    pub const LOCKED: usize = 19;
    pub const SEATS_OUT: usize = 20;
    pub const SINGLES_LEFT: usize = 21;
    pub const OTHER: usize = 22;
    pub const FOULS_LEFT: usize = 23;
}

/// Daifugo's feature set.
pub const FEATURES: FeatureSet = FeatureSet {
    name: "daifugo-v2",
    families: &FAMILIES,
};

const OFFSETS: [u32; FAMILIES.len()] = FEATURES.offsets();

/// The weights trained for Daifugo under the house rules (`climbot train --game
/// daifugo --rules house`), from `weights/daifugo-house.txt`.
pub static TRAINED_HOUSE: ShippedWeights = ShippedWeights::new(
    "weights/daifugo-house.txt",
    FEATURES,
    include_str!("../../weights/daifugo-house.txt"),
);

/// The weights trained for Daifugo under the UECda rules (`climbot train --game
/// daifugo --rules uecda`), from `weights/daifugo-uecda.txt`.
pub static TRAINED_UECDA: ShippedWeights = ShippedWeights::new(
    "weights/daifugo-uecda.txt",
    FEATURES,
    include_str!("../../weights/daifugo-uecda.txt"),
);

fn put(rows: &mut FeatureRows, family: usize, i: usize) {
    rows.put(&FEATURES, &OFFSETS, family, i);
}

fn kind_index(kind: PlayKind) -> usize {
    match kind {
        PlayKind::Single => 0,
        PlayKind::Group => 1,
        PlayKind::Sequence => 2,
    }
}

/// A count in 4 bands (1, 2, 3, 4 or more; 0 counts as 1).
fn count_band(n: usize) -> usize {
    n.clamp(1, 4) - 1
}

/// The strength of a natural rank under the current order.
fn rank_strength(rank: u8, reversed: bool) -> u8 {
    if reversed { RANKS - 1 - rank } else { rank }
}

/// Whether the `unseen` cards can beat `play` (a single or a group) under the order
/// `reversed`: 0 beatable, 1 not; 2 for a sequence, which this does not judge. An
/// 8-cut clears the table, so nothing beats it.
fn unbeatable(unseen: CardSet, play: &Play, reversed: bool, rules: &RuleSet) -> usize {
    if play.is_eight_cut(rules) {
        return 1;
    }
    let jokers = unseen.joker_count();
    let size = play.len();
    let strength = play.strength(reversed);
    let beaten = match play.kind() {
        PlayKind::Sequence => return 2,
        _ if play.is_lone_joker() => unseen.contains(super::cards::Card::SPADE_3),
        _ if strength >= JOKER_STRENGTH => false,
        _ => {
            (size <= jokers)
                || (0..RANKS).any(|r| {
                    let n = unseen.suits_of_rank(r).count_ones() as usize;
                    rank_strength(r, reversed) > strength && n > 0 && n + jokers >= size
                })
        }
    };
    usize::from(!beaten)
}

/// Ranks holding exactly one natural card in `cards`.
fn lone_ranks(cards: CardSet) -> usize {
    (0..RANKS)
        .filter(|&r| cards.suits_of_rank(r).count_ones() == 1)
        .count()
}

/// Strong cards (Q, K, A, 2 and jokers) less weak ones (3 to 6), in 5 bands: what a
/// revolution turns around.
fn revolution_band(cards: CardSet) -> usize {
    let count = |ranks: std::ops::Range<u8>| -> i32 {
        ranks
            .map(|r| cards.suits_of_rank(r).count_ones() as i32)
            .sum()
    };
    let balance = count(9..RANKS) + cards.joker_count() as i32 - count(0..4);
    match balance {
        ..=-3 => 0,
        -2..=-1 => 1,
        0 => 2,
        1..=2 => 3,
        _ => 4,
    }
}

/// Under the forbidden-finish rule, what `after` (the hand a decision leaves, under the
/// order `revolution` it leaves) holds: its cards that may not end it, in 4 bands (0 to
/// 3 or more), by its other cards, in 4 bands. A hand of fouls alone (no other card
/// left) can only end in a foul; the playout rule sheds them while others are left.
fn fouls_left(after: CardSet, revolution: bool, play: bool) -> usize {
    let fouls = foul_cards(after, revolution).len();
    let rest = after.len() - fouls;
    (usize::from(play) * 4 + fouls.min(3)) * 4 + rest.min(3)
}

impl Learnable for Daifugo {
    const FEATURES: FeatureSet = FEATURES;

    fn replay_log(
        view: &DaifugoView,
        deal: &DaifugoDeal,
        visit: &mut dyn FnMut(&DaifugoPosition, DaifugoDecision),
    ) -> bool {
        DaifugoPosition::replay_log(view, deal, visit)
    }

    fn features(position: &DaifugoPosition, decisions: &[DaifugoDecision], rows: &mut FeatureRows) {
        let rules = position.rules();
        let players = position.players();
        let Some(seat) = position.to_act() else {
            return;
        };
        let hands = position.hands();
        let hand = hands[seat];
        // What this seat cannot see: the deck less its own cards and the cards played.
        // Cards removed from the game or discarded by miyako-ochi are among them: the
        // seat does not know which they are.
        let unseen = CardSet::deck(rules.jokers)
            .difference(hand)
            .difference(position.played());
        let active: Vec<usize> = (0..players).filter(|&s| !position.is_out(s)).collect();
        let opponent_min = active
            .iter()
            .filter(|&&s| s != seat)
            .map(|&s| hands[s].len())
            .min()
            .unwrap_or(1);
        let opponent_min = (opponent_min.max(1) - 1).min(4);
        let next = (1..players)
            .map(|k| (seat + k) % players)
            .find(|&s| !position.is_out(s))
            .unwrap_or(seat);
        let next_count = count_band(hands[next].len());
        let owner_count = count_band(hands[position.owner()].len());
        let trick = position.trick();
        let reversed = trick.reversed();
        let follow = usize::from(trick.table.is_some());
        let players_band = players.clamp(4, 6) - 4;
        let seats_out = (players - active.len()).min(3);
        let locked = usize::from(trick.lock != 0);
        let kinds = decisions.iter().map(|d| match d {
            DaifugoDecision::Play(p) => {
                Some((kind_index(p.kind()), u64::from(p.strength(reversed))))
            }
            _ => None,
        });
        let places = places_by_kind(kinds, 3);
        for (j, decision) in decisions.iter().enumerate() {
            match decision {
                DaifugoDecision::Pass => {
                    put(rows, f::KIND, follow);
                    put(rows, f::KIND_PLAYERS, players_band * 4);
                    put(rows, f::OPPONENT_MIN, opponent_min * 4);
                    put(rows, f::PASS_HAND, hand.len().min(12));
                    put(rows, f::NEXT_COUNT, next_count * 2);
                    put(rows, f::OWNER_COUNT, owner_count * 2);
                    put(rows, f::SEATS_OUT, seats_out * 2);
                    put(rows, f::LOCKED, locked * 4);
                    if rules.forbidden_finishes {
                        put(
                            rows,
                            f::FOULS_LEFT,
                            fouls_left(hand, trick.revolution, false),
                        );
                    }
                    if let Some(table) = &trick.table {
                        let strength = usize::from(table.strength(reversed).min(13));
                        put(
                            rows,
                            f::PASS_TABLE,
                            kind_index(table.kind()) * 14 + strength,
                        );
                    }
                }
                DaifugoDecision::Play(p) => {
                    let k = kind_index(p.kind());
                    let kind = 1 + k;
                    let after = hand.difference(p.cards());
                    put(rows, f::KIND, kind * 2 + follow);
                    put(rows, f::KIND_PLAYERS, players_band * 4 + kind);
                    put(rows, f::OPPONENT_MIN, opponent_min * 4 + kind);
                    put(
                        rows,
                        f::STRENGTH,
                        k * 14 + usize::from(p.strength(reversed).min(13)),
                    );
                    put(rows, f::SIZE, k * 5 + p.len().clamp(1, 5) - 1);
                    put(rows, f::JOKERS, p.joker_count().min(2) * 3 + k);
                    let left_band = match after.len() {
                        0..=3 => 0,
                        4..=7 => 1,
                        _ => 2,
                    };
                    put(
                        rows,
                        f::JOKERS_LEFT,
                        after.joker_count().min(2) * 3 + left_band,
                    );
                    put(rows, f::LEFT, after.len().min(12) * 2 + follow);
                    let next = trick.after_play(p, rules);
                    let specials = [
                        p.is_eight_cut(rules),
                        p.is_revolution(rules),
                        p.is_jack_back(rules),
                        trick.clears_after(p, rules) && !p.is_eight_cut(rules),
                        next.lock != 0 && trick.lock == 0,
                    ];
                    for (i, _) in specials.iter().enumerate().filter(|(_, on)| **on) {
                        put(rows, f::SPECIAL, i * 2 + follow);
                    }
                    if p.is_revolution(rules) {
                        put(
                            rows,
                            f::REVOLUTION_HAND,
                            revolution_band(after) * 2 + usize::from(reversed),
                        );
                    }
                    let safe = unbeatable(unseen, p, reversed, rules);
                    put(rows, f::UNBEATABLE, (safe * 3 + k) * 2 + follow);
                    put(rows, f::PLACE_AMONG, (places[j] * 3 + k) * 2 + follow);
                    put(rows, f::NEXT_COUNT, next_count * 2 + 1);
                    put(rows, f::OWNER_COUNT, owner_count * 2 + 1);
                    put(rows, f::SEATS_OUT, seats_out * 2 + 1);
                    put(rows, f::LOCKED, locked * 4 + kind);
                    match (p.kind(), p.low_rank()) {
                        (PlayKind::Sequence, _) => {
                            let broken = p
                                .cards()
                                .naturals()
                                .iter()
                                .filter_map(|c| c.rank())
                                .filter(|&r| after.suits_of_rank(r) != 0)
                                .count();
                            put(rows, f::SEQUENCE_BREAKS, broken.min(3));
                        }
                        (_, Some(rank)) => {
                            let held = hand.suits_of_rank(rank).count_ones() as usize;
                            let naturals = p.len() - p.joker_count();
                            put(
                                rows,
                                f::BREAKS_GROUP,
                                count_band(held) * 4 + count_band(naturals),
                            );
                        }
                        _ => {}
                    }
                    if after.is_empty() && p.is_forbidden_finish(trick.revolution) {
                        put(rows, f::FORBIDDEN_FINISH, follow);
                    }
                    put(rows, f::SINGLES_LEFT, lone_ranks(after).min(6) * 2 + follow);
                    if rules.forbidden_finishes {
                        put(
                            rows,
                            f::FOULS_LEFT,
                            fouls_left(after, next.revolution, true),
                        );
                    }
                }
                DaifugoDecision::Exchange(_) => put(rows, f::OTHER, 0),
            }
            rows.end_row();
        }
    }

    fn trained(position: &DaifugoPosition) -> &'static LinearPolicy {
        if *position.rules() == RuleSet::uecda() {
            TRAINED_UECDA.policy()
        } else {
            TRAINED_HOUSE.policy()
        }
    }

    fn shipped() -> &'static [&'static ShippedWeights] {
        static SHIPPED: [&ShippedWeights; 2] = [&TRAINED_HOUSE, &TRAINED_UECDA];
        &SHIPPED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(text: &str) -> CardSet {
        CardSet::parse(text).unwrap()
    }

    #[test]
    fn fouls_left_tells_a_hand_that_can_only_foul_from_one_that_sheds_first() {
        // From ♥2 ♠5: leading the 2 leaves the 5 to end on; leading the 5 leaves a
        // 2 alone, which ends in a foul.
        let sheds = fouls_left(cards("s5"), false, true);
        let keeps = fouls_left(cards("h2"), false, true);
        assert_eq!(sheds, 4 * 4 + 1, "a play, no foul left, one other card");
        assert_eq!(keeps, (4 + 1) * 4, "a play, one foul left, no other card");
        // Under a revolution the 2 may end a hand and the 3 may not.
        assert_eq!(fouls_left(cards("h2"), true, true), 4 * 4 + 1);
        assert_eq!(fouls_left(cards("h3 d3"), true, true), (4 + 2) * 4);
        // Jokers and 8s count, bands stop at 3; a pass is the hand as it is.
        let hand = cards("joker s8 h8 c2 d4 d5 d6 d7");
        assert_eq!(fouls_left(hand, false, false), 3 * 4 + 3);
        assert!(
            fouls_left(hand, false, true) < FAMILIES[f::FOULS_LEFT].size as usize,
            "inside the family"
        );
    }
}
