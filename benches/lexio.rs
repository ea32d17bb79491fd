//! Lexio hot paths. Every benchmark asserts its answer first, so a faster wrong
//! generator fails instead of looking good.

use climbot::bot::DecisionContext;
use climbot::game::Policy;
use climbot::lexio::Lexio;
use climbot::lexio::bots::{EasyBot, FlatMonteCarloBot, HardBot, easy_action};
use climbot::lexio::moves::{for_each_follow, for_each_lead};
use climbot::lexio::referee::{Round, deal, play_round};
use climbot::lexio::{Action, LexioView, PlayerCount, Suit, Tile, TileSet, classify};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

fn set(tiles: &[(u8, Suit)]) -> TileSet {
    tiles
        .iter()
        .map(|&(n, s)| Tile::new(n, s).unwrap())
        .collect()
}

fn hand12() -> TileSet {
    use Suit::*;
    set(&[
        (3, Cloud),
        (3, Star),
        (4, Moon),
        (5, Sun),
        (6, Cloud),
        (7, Cloud),
        (7, Moon),
        (9, Cloud),
        (11, Cloud),
        (11, Sun),
        (1, Star),
        (2, Cloud),
    ])
}

fn count_follows(hand: TileSet, table: TileSet) -> usize {
    let table = classify(PlayerCount::Five, table).unwrap();
    let mut n = 0;
    for_each_follow(PlayerCount::Five, hand, table, &mut |_| n += 1);
    n
}

fn benches(c: &mut Criterion) {
    use Suit::*;
    let five = set(&[(3, Cloud), (4, Star), (5, Moon), (6, Sun), (7, Cloud)]);
    assert_eq!(
        classify(PlayerCount::Five, five).unwrap().category(),
        climbot::lexio::Category::Straight
    );
    c.bench_function("classify 5 tiles", |b| {
        b.iter(|| classify(PlayerCount::Five, black_box(five)))
    });

    let hand = hand12();
    let single = set(&[(6, Star)]);
    let pair = set(&[(5, Cloud), (5, Star)]);
    let straight = set(&[(3, Moon), (4, Sun), (5, Cloud), (6, Star), (7, Star)]);
    // Counted by hand. Singles above star 6: c7 m7 c9 c11 u11 s1 c2 = 7. Pairs above a
    // pair of 5s: {c7 m7}, {c11 u11} = 2. 5-tile plays above m3-u4-c5-s6-s7 (top star 7):
    // 3-7 topped by m7 (2 choices of 3), 1-2-3-4-5 (2), 2-3-4-5-6 (2), and every flush
    // of the six clouds, C(6,5) = 6 (none is a straight): 12.
    assert_eq!(count_follows(hand, single), 7);
    assert_eq!(count_follows(hand, pair), 2);
    assert_eq!(count_follows(hand, straight), 12);
    c.bench_function("follows of 12 tiles vs single", |b| {
        b.iter(|| count_follows(black_box(hand), single))
    });
    c.bench_function("follows of 12 tiles vs pair", |b| {
        b.iter(|| count_follows(black_box(hand), pair))
    });
    c.bench_function("follows of 12 tiles vs straight", |b| {
        b.iter(|| count_follows(black_box(hand), straight))
    });

    let mut leads = 0;
    for_each_lead(PlayerCount::Five, hand, &mut |_| leads += 1);
    assert!(leads > 12);
    c.bench_function("all leads of 12 tiles", |b| {
        b.iter(|| {
            let mut n = 0;
            for_each_lead(PlayerCount::Five, black_box(hand), &mut |_| n += 1);
            assert_eq!(n, leads);
        })
    });

    let lead = easy_action(PlayerCount::Five, hand, None);
    let Action::Play(lead_play) = lead else {
        panic!("easy passed on a lead")
    };
    assert!(lead_play.tiles().contains(hand.lowest().unwrap()));
    c.bench_function("easy decision (lead, 12 tiles)", |b| {
        b.iter(|| easy_action(PlayerCount::Five, black_box(hand), None))
    });
    let table = classify(PlayerCount::Five, pair).unwrap();
    assert!(matches!(
        easy_action(PlayerCount::Five, hand, Some(table)),
        Action::Play(_)
    ));
    c.bench_function("easy decision (follow pair, 12 tiles)", |b| {
        b.iter(|| easy_action(PlayerCount::Five, black_box(hand), Some(table)))
    });

    let seats: Vec<&dyn Policy<Lexio>> = vec![&EasyBot; 5];
    let hands = deal(PlayerCount::Five, 42);
    let result = play_round(PlayerCount::Five, hands, 1, [0; 5], 42, &seats).unwrap();
    assert_eq!(result.net.iter().sum::<i64>(), 0);
    c.bench_function("whole easy round (5 players, views validated)", |b| {
        b.iter(|| play_round(PlayerCount::Five, black_box(hands), 1, [0; 5], 42, &seats).unwrap())
    });

    let view = Round::new(PlayerCount::Five, hands, 1, [0; 5])
        .view()
        .unwrap();
    let expert = FlatMonteCarloBot { max_iterations: 8 };
    assert!(view.is_legal(expert.decide(&view, &mut DecisionContext::unbounded(1))));
    let mut group = c.benchmark_group("expert");
    group.sample_size(10);
    group.bench_function(
        "expert decision, 8 sampled deals (5 players, opening lead)",
        |b| b.iter(|| expert.decide(&view, &mut DecisionContext::unbounded(1))),
    );
    group.finish();
    hard_decision_percentiles(c);
}

/// Every decision of hard bots in 5-player self-play rounds, timed one by one: the
/// issue's target is the p99 of a single decision (2 ms), which a mean hides. Each
/// answer is checked legal first; the percentiles are printed, and criterion times
/// the slowest view found.
fn hard_decision_percentiles(c: &mut Criterion) {
    let hard = HardBot::hard();
    let players = PlayerCount::Five;
    let mut times = Vec::new();
    let mut slowest: Option<(std::time::Duration, LexioView)> = None;
    for seed in 0..200 {
        let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
        loop {
            let view = round.view().unwrap();
            let started = Instant::now();
            let action = hard.decide(&view, &mut DecisionContext::unbounded(seed));
            let took = started.elapsed();
            assert!(view.is_legal(action), "illegal {action:?}");
            times.push(took);
            if slowest.as_ref().is_none_or(|(t, _)| took > *t) {
                slowest = Some((took, view));
            }
            if round.apply(action).unwrap() {
                break;
            }
        }
    }
    times.sort_unstable();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "hard decisions, 5 players, 200 self-play rounds: n={} p50={:?} p99={:?} max={:?}",
        times.len(),
        at(0.50),
        at(0.99),
        times[times.len() - 1]
    );
    let (_, view) = slowest.expect("at least one decision");
    c.bench_function("hard decision (the slowest self-play view)", |b| {
        b.iter(|| hard.decide(black_box(&view), &mut DecisionContext::unbounded(1)))
    });
}

criterion_group!(lexio, benches);
criterion_main!(lexio);
