//! Dalmuti benchmarks; each asserts its answer so a faster wrong engine fails.

use climbot::bot::DecisionContext;
use climbot::dalmuti::Dalmuti;
use climbot::dalmuti::bots::easy::EasyBot;
use climbot::dalmuti::bots::hard::HARD;
use climbot::dalmuti::is_legal;
use climbot::dalmuti::moves::{PlayList, count_legal_plays};
use climbot::dalmuti::referee::{opening_view_input, play_single_hand};
use climbot::dalmuti::{Cards, DalmutiDecision, DalmutiView, Play, Rank};
use climbot::game::Policy;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

fn legal_follows(c: &mut Criterion) {
    let table = Play::new(Rank::new(12).unwrap(), 3, 0).unwrap();
    // Golden: the whole deck has 30 follows to 12x3 (crates/climbot-core/tests/golden/dalmuti_perft.txt).
    assert_eq!(count_legal_plays(Cards::FULL_DECK, Some(table)), 30);
    let mut list = PlayList::new();
    c.bench_function("dalmuti/legal_follows_deck_on_12x3", |b| {
        b.iter(|| {
            list.fill(black_box(Cards::FULL_DECK), black_box(Some(table)));
            assert_eq!(list.len(), 30);
            list.len()
        })
    });
    let hand = Cards::EMPTY
        .with(Rank::new(2).unwrap(), 1)
        .with(Rank::new(5).unwrap(), 3)
        .with(Rank::new(8).unwrap(), 2)
        .with(Rank::new(11).unwrap(), 4)
        .with(Rank::JESTER, 1);
    let pair = Play::new(Rank::new(9).unwrap(), 2, 0).unwrap();
    // 2+J, 55, 5+J, 88, 8+J = 5.
    assert_eq!(count_legal_plays(hand, Some(pair)), 5);
    c.bench_function("dalmuti/legal_follows_hand_on_9x2", |b| {
        b.iter(|| count_legal_plays(black_box(hand), black_box(Some(pair))))
    });
}

fn easy_decision(c: &mut Criterion) {
    let input = opening_view_input(6, 1);
    let view = DalmutiView::new(input.clone()).unwrap();
    let hand = view.hand();
    let worst = hand.worst_numbered().unwrap();
    let expected = DalmutiDecision::Play(Play::new(worst, hand.count(worst), 0).unwrap());
    c.bench_function("dalmuti/view_new_opening_6p", |b| {
        b.iter(|| DalmutiView::new(black_box(input.clone())).unwrap())
    });
    c.bench_function("dalmuti/easy_decide_opening_6p", |b| {
        b.iter(|| {
            let d = EasyBot.decide(black_box(&view), &mut DecisionContext::unbounded(0));
            assert_eq!(d, expected);
            d
        })
    });
}

fn whole_hand(c: &mut Criterion) {
    let easy: &dyn Policy<Dalmuti> = &EasyBot;
    let policies = [easy; 5];
    let first = play_single_hand(&policies, 2, 42).unwrap();
    assert_eq!(first.points.iter().sum::<u32>(), 15);
    assert_eq!(
        first.actions, PINNED_ACTIONS,
        "hand 2, seed 42, five easy bots"
    );
    assert_eq!(first.finishing_order, PINNED_ORDER);
    c.bench_function("dalmuti/easy_hand_5p_validated", |b| {
        b.iter(|| {
            let r = play_single_hand(black_box(&policies), 2, black_box(42)).unwrap();
            assert_eq!(
                (r.actions, r.finishing_order.as_slice()),
                (PINNED_ACTIONS, &PINNED_ORDER[..])
            );
            r
        })
    });
}

/// Decisions in hand 2 of seed 42 with five easy bots (pinned from the engine; the
/// self-play and golden tests check its correctness).
const PINNED_ACTIONS: u64 = 107;

/// The finishing order (players) of that hand.
const PINNED_ORDER: [usize; 5] = [4, 3, 0, 1, 2];

/// Every view the hard bot meets in 8-player hands among easy bots (hand 2, seeds
/// 0..40): the sample for the latency percentiles and the criterion loop.
fn hard_views() -> Vec<DalmutiView> {
    use climbot::dalmuti::referee::{HandState, deal, decision_seed};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    let mut views = Vec::new();
    for seed in 0..40u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let hands = deal(8, &mut rng);
        let seating: Vec<usize> = (0..8).collect();
        let mut state = HandState::new(&hands, &seating, &[0; 8], 2, 18);
        while let Some(view) = state.view().unwrap() {
            let mut ctx = DecisionContext::unbounded(decision_seed(seed, &view));
            let d = if view.seat() == (seed % 8) as usize {
                views.push(view.clone());
                HARD.decide(&view, &mut ctx)
            } else {
                EasyBot.decide(&view, &mut ctx)
            };
            state.apply(d, "bench").unwrap();
        }
    }
    views
}

fn hard_decision(c: &mut Criterion) {
    let views = hard_views();
    // Latency percentiles of single decisions (asserted: p99 at most 2 ms), after one
    // warm-up decision (the first call builds the binomial table).
    HARD.decide(&views[0], &mut DecisionContext::unbounded(1));
    let mut times: Vec<f64> = views
        .iter()
        .map(|v| {
            let start = Instant::now();
            let d = HARD.decide(black_box(v), &mut DecisionContext::unbounded(1));
            let t = start.elapsed().as_secs_f64() * 1e6;
            assert!(is_legal(v, &d), "{d:?}");
            t
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let pct = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "dalmuti/hard_decide_8p: {} decisions, median {:.1} us, p99 {:.1} us, max {:.1} us",
        times.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
    assert!(pct(0.99) <= 2000.0, "p99 {} us above 2 ms", pct(0.99));
    let mut i = 0;
    c.bench_function("dalmuti/hard_decide_8p_mixed_views", |b| {
        b.iter(|| {
            let v = &views[i % views.len()];
            i += 1;
            let d = HARD.decide(black_box(v), &mut DecisionContext::unbounded(1));
            assert!(is_legal(v, &d));
            d
        })
    });
}

criterion_group!(
    benches,
    legal_follows,
    easy_decision,
    whole_hand,
    hard_decision
);
criterion_main!(benches);
