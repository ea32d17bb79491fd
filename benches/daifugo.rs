//! Daifugo benchmarks that also assert their answers: legal plays, one easy decision,
//! one whole easy game, and the hard bot's decision latency on 4-player views.

use climbot::bot::DecisionContext;
use climbot::daifugo::Daifugo;
use climbot::daifugo::bots::easy::{EasyBot, choose_play};
use climbot::daifugo::bots::hard::HARD;
use climbot::daifugo::bots::is_legal;
use climbot::daifugo::cards::CardSet;
use climbot::daifugo::moves::{Trick, legal_plays};
use climbot::daifugo::referee::Referee;
use climbot::daifugo::referee::play_match;
use climbot::daifugo::rules::RuleSet;
use climbot::daifugo::view::{DaifugoView, Phase};
use climbot::game::Policy;
use criterion::{Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::hint::black_box;
use std::time::Instant;

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

/// The play-phase views the hard bot meets in one seat of 4-player house games among
/// easy bots (games 1 and 2 of 60 seeded matches), with at least `min_played` cards
/// already played (mid-game), and every exchange view.
fn hard_views(min_played: usize) -> (Vec<DaifugoView>, Vec<DaifugoView>) {
    let (mut play, mut exchange) = (Vec::new(), Vec::new());
    for seed in 0..60u64 {
        let hard_seat = (seed % 4) as usize;
        let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..2 {
            referee.start_game(&mut rng);
            while let Some(seat) = referee.to_act() {
                let view = referee.view(seat).unwrap();
                let mut ctx = DecisionContext::unbounded(view.fingerprint());
                let d = if seat == hard_seat {
                    match view.phase() {
                        Phase::Play if view.played().len() >= min_played => play.push(view.clone()),
                        Phase::Exchange { .. } => exchange.push(view.clone()),
                        Phase::Play => {}
                    }
                    HARD.decide(&view, &mut ctx)
                } else {
                    EasyBot.decide(&view, &mut ctx)
                };
                referee.apply(seat, &d).unwrap();
            }
        }
    }
    (play, exchange)
}

/// Decision times in microseconds of `views`, each answer checked legal, sorted.
fn decision_times(views: &[DaifugoView]) -> Vec<f64> {
    let mut times: Vec<f64> = views
        .iter()
        .map(|v| {
            let start = Instant::now();
            let d = HARD.decide(black_box(v), &mut DecisionContext::unbounded(1));
            let t = start.elapsed().as_secs_f64() * 1e6;
            assert!(is_legal(v, &d), "{d:?} is illegal");
            t
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn percentile(times: &[f64], q: f64) -> f64 {
    times[((times.len() - 1) as f64 * q).round() as usize]
}

/// The hard bot's latency: percentiles of single decisions on 4-player mid-game views
/// (asserted: p99 at most 1 ms), printed for every play view and the exchange too.
fn hard_decision(c: &mut Criterion) {
    let (mid, _) = hard_views(10);
    let (all, exchange) = hard_views(0);
    for (name, views) in [
        ("mid-game", &mid),
        ("every play", &all),
        ("exchange", &exchange),
    ] {
        let times = decision_times(views);
        println!(
            "daifugo/hard_decide_4p {name}: {} decisions, median {:.1} us, p99 {:.1} us, max {:.1} us",
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            percentile(&times, 1.0)
        );
    }
    let times = decision_times(&mid);
    let p99 = percentile(&times, 0.99);
    assert!(p99 <= 1000.0, "mid-game p99 {p99:.1} us above 1 ms");
    let mut i = 0;
    c.bench_function("daifugo/hard_decide_4p_mid_game", |b| {
        b.iter(|| {
            let v = &mid[i % mid.len()];
            i += 1;
            let d = HARD.decide(black_box(v), &mut DecisionContext::unbounded(1));
            assert!(is_legal(v, &d));
            d
        })
    });
}

criterion_group!(daifugo, benches, hard_decision);
criterion_main!(daifugo);
