//! Property tests of the Lexio engine: generated plays are exactly the legal ones,
//! the easy answer is always one of them, and refereed views are always valid.

use climbot::bot::{DecisionContext, shuffle};
use climbot::game::Policy;
use climbot::lexio::bots::{EasyBot, easy_action};
use climbot::lexio::moves::{for_each_follow, for_each_lead};
use climbot::lexio::referee::{Round, deal};
use climbot::lexio::{Action, Combo, PlayerCount, Tile, TileSet, classify};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::collections::BTreeSet;

fn players() -> impl Strategy<Value = PlayerCount> {
    prop_oneof![
        Just(PlayerCount::Three),
        Just(PlayerCount::Four),
        Just(PlayerCount::Five)
    ]
}

/// A hand of `1..=13` tiles from the deck and a table: `None`, or a legal play of
/// tiles outside the hand.
fn position() -> impl Strategy<Value = (PlayerCount, TileSet, Option<Combo>)> {
    (
        players(),
        any::<u64>(),
        1usize..=13,
        any::<u64>(),
        0usize..5,
    )
        .prop_map(|(players, bits, size, table_bits, table_size)| {
            let mut deck: Vec<Tile> = players.deck().iter().collect();
            shuffle(&mut ChaCha8Rng::seed_from_u64(bits), &mut deck);
            let hand: TileSet = deck[..size].iter().copied().collect();
            let rest = players.deck().difference(hand);
            let mut table = None;
            if table_size > 0 {
                let mut plays = Vec::new();
                for_each_lead(players, rest, &mut |c| plays.push(c));
                let sized: Vec<Combo> = plays
                    .iter()
                    .copied()
                    .filter(|c| c.len() == [1, 2, 3, 5][table_size - 1])
                    .collect();
                if !sized.is_empty() {
                    table = Some(sized[(table_bits % sized.len() as u64) as usize]);
                }
            }
            (players, hand, table)
        })
}

fn brute_force(players: PlayerCount, hand: TileSet, table: Option<Combo>) -> BTreeSet<u64> {
    let tiles: Vec<Tile> = hand.iter().collect();
    let mut out = BTreeSet::new();
    for mask in 1u32..(1 << tiles.len()) {
        if !matches!(mask.count_ones(), 1 | 2 | 3 | 5) {
            continue;
        }
        let set: TileSet = (0..tiles.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| tiles[i])
            .collect();
        if let Some(c) = classify(players, set)
            && table.is_none_or(|t| c.beats(t))
        {
            out.insert(set.bits());
        }
    }
    out
}

fn generated(players: PlayerCount, hand: TileSet, table: Option<Combo>) -> Vec<Combo> {
    let mut out = Vec::new();
    match table {
        None => for_each_lead(players, hand, &mut |c| out.push(c)),
        Some(t) => for_each_follow(players, hand, t, &mut |c| out.push(c)),
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn generated_plays_are_exactly_the_legal_ones((players, hand, table) in position()) {
        let plays = generated(players, hand, table);
        for c in &plays {
            prop_assert!(hand.is_superset(c.tiles()));
            prop_assert_eq!(classify(players, c.tiles()), Some(*c));
            if let Some(t) = table {
                prop_assert!(c.beats(t));
            }
        }
        let as_set: BTreeSet<u64> = plays.iter().map(|c| c.tiles().bits()).collect();
        prop_assert_eq!(as_set.len(), plays.len(), "a play was generated twice");
        prop_assert_eq!(as_set, brute_force(players, hand, table));
    }

    #[test]
    fn the_easy_answer_is_always_a_generated_play((players, hand, table) in position()) {
        let plays = generated(players, hand, table);
        match easy_action(players, hand, table) {
            Action::Pass => prop_assert!(table.is_some() && plays.is_empty(), "passed with a legal follow"),
            Action::Play(c) => {
                prop_assert!(plays.contains(&c));
                if table.is_none() {
                    prop_assert!(c.tiles().contains(hand.lowest().unwrap()), "a lead must hold the weakest tile");
                    let longest = plays.iter().filter(|p| p.tiles().contains(hand.lowest().unwrap())).map(|p| p.len()).max();
                    prop_assert_eq!(Some(c.len()), longest);
                } else {
                    let cheapest = plays.iter().map(|p| p.key()).min();
                    prop_assert_eq!(Some(c.key()), cheapest);
                }
            }
        }
    }

    #[test]
    fn refereed_views_are_valid_and_easy_plays_stay_legal(seed in any::<u64>(), players in players(), steps in 0usize..80) {
        let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
        for _ in 0..steps {
            let view = round.view().expect("refereed views are valid");
            prop_assert_eq!(view.unseen().len(), (0..players.count()).filter(|&s| s != view.seat()).map(|s| view.tile_count(s)).sum::<usize>());
            let action = EasyBot.decide(&view, &mut DecisionContext::unbounded(seed));
            prop_assert!(view.is_legal(action));
            prop_assert!(view.legal_actions().contains(&action));
            if round.apply(action).expect("legal") {
                break;
            }
            round.check_accounting().expect("accounting");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Plays that can meet in one trick are made of different tiles, and then their
    /// keys always differ: the rules need no tie-break (Lexio Part 1 section 4).
    #[test]
    fn plays_from_disjoint_tiles_never_tie(seed in any::<u64>(), players in players()) {
        let hands = deal(players, seed);
        let mut keys: std::collections::BTreeMap<(usize, u32), TileSet> = Default::default();
        for_each_lead(players, hands[0], &mut |c| { keys.insert((c.len(), c.key().0), c.tiles()); });
        let mut clash = None;
        for_each_lead(players, hands[1], &mut |c| {
            if let Some(&other) = keys.get(&(c.len(), c.key().0)) {
                clash = Some((other, c.tiles()));
            }
        });
        prop_assert!(clash.is_none(), "equal keys from disjoint tiles: {:?}", clash);
    }
}

#[path = "support/fuzz.rs"]
mod fuzz;

/// Real Lexio view inputs (the load-test views of a few seeds).
fn real_inputs() -> &'static [climbot::lexio::ViewInput] {
    static INPUTS: std::sync::OnceLock<Vec<climbot::lexio::ViewInput>> = std::sync::OnceLock::new();
    INPUTS.get_or_init(|| {
        (1..=8)
            .flat_map(|seed| climbot::loadtest::lexio_views(seed).unwrap())
            .map(|(_, view)| match view.game {
                Some(climbot::pb::game_view::Game::Lexio(v)) => {
                    climbot::service::lexio::view_input(v).unwrap()
                }
                _ => unreachable!(),
            })
            .collect()
    })
}

/// Encoded Lexio SelectPlay requests, the fuzzer's seeds.
fn wire_corpus() -> Vec<Vec<u8>> {
    static CORPUS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    CORPUS
        .get_or_init(|| fuzz::corpus_of(8, &["lexio"]))
        .clone()
}

fn some_tile(value: u32) -> Tile {
    let suit = climbot::lexio::Suit::ALL[(value % 4) as usize];
    Tile::new((value / 4 % 15) as u8 + 1, suit).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// Corrupting any one field of a real view never panics the constructor, and
    /// whatever it accepts has legal actions and an easy answer among them.
    #[test]
    fn the_constructor_never_panics(
        which in any::<prop::sample::Index>(),
        field in 0usize..12,
        index in 0usize..16,
        value in prop_oneof![0u32..8, 0u32..64, Just(u32::MAX), any::<u32>()],
    ) {
        let inputs = real_inputs();
        let mut i = inputs[which.index(inputs.len())].clone();
        match field {
            0 => i.player_count = value,
            1 => i.seat = value,
            2 => { if let Some(t) = i.hand.get_mut(index) { *t = some_tile(value) } else { i.hand.push(some_tile(value)) } }
            3 => { if index < i.hand.len() { i.hand.remove(index); } }
            4 => {
                let table = i.table.get_or_insert_with(|| climbot::lexio::TableInput { owner: Some(value % 6), tiles: Default::default() });
                if let Some(t) = table.tiles.get_mut(index) { *t = some_tile(value) } else { table.tiles.push(some_tile(value)) }
            }
            5 => { if let Some(s) = i.seats.get_mut(index) { s.tile_count = value } }
            6 => {
                if let Some(table) = i.table.as_mut() { table.owner = (index % 2 == 0).then_some(value) } else { i.seats.truncate(value as usize % 6) }
            }
            7 => { if let Some(t) = i.played.get_mut(index) { *t = some_tile(value) } else { i.played.push(some_tile(value)) } }
            8 => { if let Some(climbot::lexio::LogEntry::Play { seat, .. } | climbot::lexio::LogEntry::Pass { seat }) = i.log.get_mut(index) { *seat = value % 7 } }
            9 => { if index < i.log.len() { i.log.remove(index); } else { i.log.push(climbot::lexio::LogEntry::Pass { seat: value % 6 }) } }
            10 => i.round = value,
            _ => { i.scores = vec![i64::from(value); index % 7] }
        }
        if let Ok(view) = climbot::lexio::LexioView::new(i) {
            let legal = view.legal_actions();
            prop_assert!(!legal.is_empty());
            let easy = easy_action(view.players(), view.hand(), view.table());
            prop_assert!(legal.contains(&easy));
        }
    }

    /// The wire decoders (fast lane, prost, validation) never panic on mutated
    /// requests, and what they accept gets a legal easy answer.
    #[test]
    fn the_wire_decoders_never_panic(seed in any::<u64>()) {
        let mut mutator = fuzz::Mutator::new(wire_corpus(), seed);
        for _ in 0..16 {
            fuzz::exercise(&mutator.next_input(), false);
        }
    }
}
