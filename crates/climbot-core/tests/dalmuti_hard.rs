//! The hard and normal Dalmuti bots in whole matches: every view validated, every
//! decision checked legal by the referee (an illegal one is an error), card accounting
//! asserted after every action; hard/normal in every seat and mixed with easy.

use climbot_core::bot::DecisionContext;
use climbot_core::dalmuti::Dalmuti;
use climbot_core::dalmuti::bots::easy::EasyBot;
use climbot_core::dalmuti::bots::hard::{HARD, NORMAL};
use climbot_core::dalmuti::is_legal;
use climbot_core::dalmuti::referee::{HandState, MATCH_HANDS, deal, decision_seed, play_match};
use climbot_core::game::Policy;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

#[test]
fn hard_and_normal_in_every_seat_play_legal_matches() {
    let mut hands = 0;
    for players in [4, 6, 8] {
        for (i, bot) in [&HARD as &dyn Policy<Dalmuti>, &NORMAL]
            .into_iter()
            .enumerate()
        {
            let m = play_match(&vec![bot; players], MATCH_HANDS, 500 + i as u64)
                .unwrap_or_else(|e| panic!("{} at {players}: {e}", bot.name()));
            let expected: u32 = (1..=players as u32).sum::<u32>() * MATCH_HANDS;
            assert_eq!(m.scores.iter().sum::<u32>(), expected);
            hands += m.hands.len();
        }
    }
    assert_eq!(hands, 120);
}

#[test]
fn mixed_with_easy_is_legal_and_reproducible() {
    let mix: Vec<&dyn Policy<Dalmuti>> = vec![&HARD, &EasyBot, &NORMAL, &EasyBot, &HARD];
    let a = play_match(&mix, 10, 42).unwrap_or_else(|e| panic!("{e}"));
    let b = play_match(&mix, 10, 42).unwrap();
    assert_eq!(a, b);
}

#[test]
fn explained_candidates_are_legal_and_contain_the_decision() {
    for seed in 0..20u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let players = 4 + (seed as usize % 5);
        let hands = deal(players, &mut rng);
        let seating: Vec<usize> = (0..players).collect();
        let mut state = HandState::new(&hands, &seating, &vec![0; players], 2, 18);
        let mut steps = 0;
        while let Some(view) = state.view().unwrap() {
            let mut ctx = DecisionContext::unbounded(decision_seed(seed, &view));
            let (d, all) = HARD.decide_explained(&view, &mut ctx);
            assert!(is_legal(&view, &d), "{d:?}");
            assert!(all.iter().all(|e| is_legal(&view, &e.action)));
            assert!(all.iter().any(|e| e.action == d));
            let total: f64 = all.iter().map(|e| e.probability).sum();
            assert!((total - 1.0).abs() < 1e-9);
            state.apply(d, "hard").unwrap();
            steps += 1;
        }
        assert!(steps > players);
    }
}
