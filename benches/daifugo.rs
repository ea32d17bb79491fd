//! Daifugo benchmarks that also assert their answers: legal plays, one easy decision,
//! one whole easy game.

use climbot::daifugo::Daifugo;
use climbot::daifugo::bots::easy::{EasyBot, choose_play};
use climbot::daifugo::cards::CardSet;
use climbot::daifugo::moves::{Trick, legal_plays};
use climbot::daifugo::referee::play_match;
use climbot::daifugo::rules::RuleSet;
use climbot::game::Policy;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const SEED_HAND: &str = "♠3 ♥3 ♦4 ♠5 ♠6 ♠7 ♣9 ♥9 ♦J ♠K ♥2 joker";

fn benches(c: &mut Criterion) {
    let hand = CardSet::parse(SEED_HAND).unwrap();
    let rules = RuleSet::house();
    let lead = Trick::default();
    let mut out = Vec::with_capacity(256);
    legal_plays(hand, &lead, &rules, &mut out);
    let expected = out.len();
    assert_eq!(expected, 62, "golden count of the seed hand's leads");
    c.bench_function("daifugo/legal_plays_lead_12_cards", |b| {
        b.iter(|| {
            out.clear();
            legal_plays(black_box(hand), black_box(&lead), &rules, &mut out);
            assert_eq!(out.len(), expected);
        })
    });

    c.bench_function("daifugo/easy_decision_lead", |b| {
        b.iter(|| {
            let play = choose_play(black_box(hand), &lead, &rules).unwrap();
            assert_eq!(format!("{play:?}").len(), "sequence ♠5 ♠6 ♠7".len());
            play
        })
    });

    let easy = EasyBot;
    let policies: Vec<&dyn Policy<Daifugo>> = vec![&easy; 4];
    let reference = play_match(&policies, 1, 42, rules).unwrap();
    c.bench_function("daifugo/easy_game_4p_checked", |b| {
        b.iter(|| {
            let records = play_match(&policies, 1, black_box(42), rules).unwrap();
            assert_eq!(records[0].result, reference[0].result);
            records
        })
    });
}

criterion_group!(daifugo, benches);
criterion_main!(daifugo);
