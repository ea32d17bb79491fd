//! Short self-play: a few hundred hands of whole matches, every view validated, every
//! decision checked and the card accounting asserted after every action.

use climbot_core::bot::Difficulty;
use climbot_core::dalmuti::Dalmuti;
use climbot_core::dalmuti::bots::baselines::{RANDOM, SINGLES};
use climbot_core::dalmuti::bots::easy::EasyBot;
use climbot_core::dalmuti::policy;
use climbot_core::dalmuti::referee::{MATCH_HANDS, play_match};
use climbot_core::game::Policy;

#[test]
fn easy_matches_at_four_five_and_eight_players() {
    let easy = policy(Difficulty::Easy).expect("easy exists");
    assert!(policy(Difficulty::Hard).is_some());
    assert!(policy(Difficulty::Expert).is_some());
    let mut hands = 0;
    let mut revolutions = 0;
    for players in [4, 5, 8] {
        for seed in 0..4 {
            let m = play_match(&vec![easy; players], MATCH_HANDS, seed)
                .unwrap_or_else(|e| panic!("{e}"));
            hands += m.hands.len();
            revolutions += m.hands.iter().filter(|h| h.revolution.is_some()).count();
            let expected: u32 = (1..=players as u32).sum::<u32>() * MATCH_HANDS;
            assert_eq!(m.scores.iter().sum::<u32>(), expected);
        }
    }
    assert_eq!(hands, 240);
    assert!(revolutions > 0, "some hand should see a revolution");
}

#[test]
fn mixed_policies_play_legally() {
    let mix: Vec<&dyn Policy<Dalmuti>> =
        vec![&EasyBot, &RANDOM, &SINGLES, &RANDOM, &EasyBot, &SINGLES];
    for seed in 0..3 {
        let m = play_match(&mix, MATCH_HANDS, 100 + seed).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.hands.len(), 20);
    }
}

#[test]
fn matches_are_reproducible() {
    let easy: &dyn Policy<Dalmuti> = &EasyBot;
    let a = play_match(&[easy, &RANDOM, easy, &RANDOM], 5, 77).unwrap();
    let b = play_match(&[easy, &RANDOM, easy, &RANDOM], 5, 77).unwrap();
    assert_eq!(a, b);
    let c = play_match(&[easy, &RANDOM, easy, &RANDOM], 5, 78).unwrap();
    assert_ne!(a, c);
}
