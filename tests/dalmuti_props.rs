//! Property tests: generated plays are exactly the legal ones, and every bot answer is
//! legal in every phase along random trajectories.

use climbot::bot::DecisionContext;
use climbot::dalmuti::Dalmuti;
use climbot::dalmuti::bots::baselines::{RANDOM, SINGLES};
use climbot::dalmuti::bots::easy::EasyBot;
use climbot::dalmuti::moves::{PlayList, for_each_legal_play, is_legal_play};
use climbot::dalmuti::referee::{HandState, deal, decision_seed};
use climbot::dalmuti::view::Phase;
use climbot::dalmuti::{
    Cards, DalmutiDecision, DalmutiView, Play, Rank, is_legal, legal_decisions,
};
use climbot::game::Policy;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::collections::BTreeSet;

fn small_hand() -> impl Strategy<Value = Cards> {
    (prop::array::uniform12(0u8..4), 0u8..=2).prop_map(|(counts, j)| {
        let mut c = Cards::EMPTY;
        for (i, n) in counts.iter().enumerate() {
            let r = Rank::new(i as u8 + 1).unwrap();
            c.insert(r, (*n).min(r.copies()));
        }
        c.with(Rank::JESTER, j)
    })
}

fn table() -> impl Strategy<Value = Option<Play>> {
    prop_oneof![
        1 => Just(None),
        4 => (1u8..=13, 0u8..=5, 0u8..=2).prop_filter_map("a play", |(r, k, j)| {
            Play::new(Rank::new(r).unwrap(), k, j).ok().map(Some)
        }),
    ]
}

fn key(p: Play) -> (u8, u8, u8) {
    (p.rank().get(), p.naturals(), p.jesters())
}

proptest! {
    #[test]
    fn generated_plays_are_exactly_the_legal_ones(hand in small_hand(), table in table()) {
        let mut brute = BTreeSet::new();
        for r in 1..=13u8 {
            for k in 0..=12u8 {
                for j in 0..=2u8 {
                    if let Ok(p) = Play::new(Rank::new(r).unwrap(), k, j)
                        && hand.is_superset(p.cards())
                        && table.is_none_or(|t| p.size() == t.size() && p.rank() < t.rank())
                    {
                        brute.insert(key(p));
                    }
                }
            }
        }
        let mut generated = Vec::new();
        for_each_legal_play(hand, table, |p| generated.push(key(p)));
        let as_set: BTreeSet<_> = generated.iter().copied().collect();
        prop_assert_eq!(as_set.len(), generated.len(), "duplicates");
        prop_assert_eq!(&as_set, &brute);
        let list = PlayList::legal(hand, table);
        prop_assert_eq!(list.as_slice().iter().map(|&p| key(p)).collect::<Vec<_>>(), generated);
        for p in list.as_slice() {
            prop_assert!(is_legal_play(hand, table, *p));
        }
    }
}

/// Moves both Jesters to `seat`, swapping them for numbered cards of that seat.
fn force_jesters(hands: &mut [Cards], seat: usize) {
    for s in 0..hands.len() {
        while s != seat && hands[s].jesters() > 0 {
            let r = hands[seat].worst_numbered().expect("numbered card to swap");
            hands[seat].remove(r, 1);
            hands[seat].insert(Rank::JESTER, 1);
            hands[s].remove(Rank::JESTER, 1);
            hands[s].insert(r, 1);
        }
    }
}

fn check_view(view: &DalmutiView, step: usize) -> Result<(), TestCaseError> {
    let legal = legal_decisions(view);
    prop_assert!(!legal.is_empty());
    for policy in [&EasyBot as &dyn Policy<Dalmuti>, &SINGLES, &RANDOM] {
        let mut ctx = DecisionContext::unbounded(decision_seed(1, view));
        let d = policy.decide(view, &mut ctx);
        prop_assert!(
            legal.contains(&d),
            "{} answered {:?} in {:?}",
            policy.name(),
            d,
            view.phase()
        );
        prop_assert!(is_legal(view, &d));
    }
    prop_assert!(legal.iter().all(|d| is_legal(view, d)));
    // The round trip through the wire-shaped input is exact.
    let again = DalmutiView::new(view.to_input()).expect("round trip");
    prop_assert_eq!(again.fingerprint(), view.fingerprint());
    prop_assert_eq!(&again, view);
    prop_assert_eq!(
        view.unseen().len(),
        view.seats()
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != view.seat())
            .map(|(_, s)| u32::from(s.card_count))
            .sum::<u32>()
    );
    if step.is_multiple_of(7) && view.phase() == Phase::Play {
        for r in 1..=13u8 {
            for k in 0..=13u8 {
                for j in 0..=2u8 {
                    if let Ok(p) = Play::new(Rank::new(r).unwrap(), k, j) {
                        let d = DalmutiDecision::Play(p);
                        prop_assert_eq!(is_legal(view, &d), legal.contains(&d));
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn bot_answers_are_legal_in_every_phase(
        seed in any::<u64>(),
        players in 4usize..=8,
        hand_number in 1u32..=3,
        jester_seat in prop::option::of(0usize..8),
    ) {
        let mut hands = deal(players, &mut ChaCha8Rng::seed_from_u64(seed));
        if let Some(s) = jester_seat {
            force_jesters(&mut hands, s % players);
        }
        let seating: Vec<usize> = (0..players).collect();
        let mut state = HandState::new(&hands, &seating, &vec![0; players], hand_number, 3);
        let mut phases = BTreeSet::new();
        let mut step = 0;
        while let Some(view) = state.view().map_err(|e| TestCaseError::fail(e.to_string()))? {
            phases.insert(format!("{:?}", view.phase()));
            check_view(&view, step)?;
            // Drive the hand with a mix: random most of the time, easy otherwise.
            let mut ctx = DecisionContext::unbounded(decision_seed(seed, &view));
            let d = if step.is_multiple_of(3) { EasyBot.decide(&view, &mut ctx) } else { RANDOM.decide(&view, &mut ctx) };
            state.apply(d, "mix").map_err(|e| TestCaseError::fail(e.to_string()))?;
            step += 1;
            prop_assert!(step < 2000, "hand does not end");
        }
        prop_assert!(phases.contains("Play"));
        if hand_number >= 2 && state.revolution().is_none() {
            prop_assert!(phases.contains("TaxReturn"), "taxes from hand 2 without a revolution");
        }
        if jester_seat.is_some() {
            prop_assert!(phases.contains("Revolution"));
        }
    }
}

/// A play-phase input some way into a taxed hand.
fn some_input(seed: u64, players: usize, steps: usize) -> climbot::dalmuti::DalmutiViewInput {
    let hands = deal(players, &mut ChaCha8Rng::seed_from_u64(seed));
    let seating: Vec<usize> = (0..players).collect();
    let mut state = HandState::new(&hands, &seating, &vec![0; players], 2, 18);
    for _ in 0..steps {
        let Some(view) = state.view().unwrap() else {
            break;
        };
        let mut ctx = DecisionContext::unbounded(decision_seed(seed, &view));
        let d = RANDOM.decide(&view, &mut ctx);
        state.apply(d, "random").unwrap();
    }
    state
        .view_input()
        .unwrap_or_else(|| climbot::dalmuti::referee::opening_view_input(players, seed))
}

#[path = "support/fuzz.rs"]
mod fuzz;

/// Every Dalmuti load-test view of seeds 1..=8 as a SelectPlay request.
fn wire_corpus() -> Vec<Vec<u8>> {
    static CORPUS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    CORPUS
        .get_or_init(|| fuzz::corpus_of(8, &["dalmuti"]))
        .clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Corrupting any one field never panics the constructor, and whatever it accepts
    /// keeps the card accounting.
    #[test]
    fn the_constructor_never_panics(
        seed in any::<u64>(),
        players in 4usize..=8,
        steps in 0usize..80,
        field in 0usize..10,
        index in 0usize..16,
        value in prop_oneof![0u32..4, 0u32..20, Just(u32::MAX), any::<u32>()],
    ) {
        let mut i = some_input(seed, players, steps);
        match field {
            0 => i.seat = value,
            1 => { if let Some(c) = i.hand.counts.get_mut(index % 14) { *c = value } }
            2 => { if let Some(c) = i.played.counts.get_mut(index % 14) { *c = value } }
            3 => i.table = Some(climbot::dalmuti::view::PlayInput { rank: value % 15, naturals: index as u32, jesters: value % 4 }),
            4 => { if let Some(s) = i.seats.get_mut(index) { s.card_count = value } }
            5 => { if let Some(e) = i.log.get_mut(index) { e.seat = value % 10 } }
            6 => { if let Some(e) = i.log.get_mut(index) { e.play = None } }
            7 => i.hand_number = value,
            8 => i.tax_return = Some(climbot::dalmuti::view::TaxReturnInput { count: value % 4, to: index as u32 }),
            _ => i.revolution = Some(climbot::dalmuti::view::RevolutionInput { seat: index as u32, greater: value.is_multiple_of(2) }),
        }
        if let Ok(v) = DalmutiView::new(i) {
            let others: u32 = v.seats().iter().enumerate()
                .filter(|&(s, _)| s != v.seat()).map(|(_, s)| u32::from(s.card_count)).sum();
            prop_assert_eq!(v.unseen().len(), others);
            prop_assert!(!legal_decisions(&v).is_empty());
        }
    }

    /// The wire decoder and validation never panic on mutated requests, and what they
    /// accept gets a legal easy answer.
    #[test]
    fn the_wire_decoders_never_panic(seed in any::<u64>()) {
        let mut mutator = fuzz::Mutator::new(wire_corpus(), seed);
        for _ in 0..16 {
            fuzz::exercise(&mutator.next_input(), false);
        }
    }
}
