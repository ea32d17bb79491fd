//! Property tests: generated plays are exactly the legal ones (against a brute force
//! over subsets and declarations), and the easy bot always answers legally.

use climbot::bot::DecisionContext;
use climbot::daifugo::bots::baselines::RandomBot;
use climbot::daifugo::bots::{easy, is_legal, legal_decisions};
use climbot::daifugo::cards::{Card, CardSet};
use climbot::daifugo::moves::{Trick, legal_plays, reference_legal_plays};
use climbot::daifugo::referee::Referee;
use climbot::daifugo::rules::RuleSet;
use climbot::game::Policy;
use proptest::prelude::*;

fn pick(deck: &[Card], picks: &[usize], n: usize, taken: &mut CardSet) -> CardSet {
    let mut set = CardSet::EMPTY;
    for &p in picks {
        if set.len() == n {
            break;
        }
        let card = deck[p % deck.len()];
        if !taken.contains(card) {
            set.insert(card);
            taken.insert(card);
        }
    }
    set
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn generated_plays_are_exactly_the_legal_ones(
        two_jokers in any::<bool>(),
        uecda in any::<bool>(),
        hand_size in 1usize..=8,
        picks in prop::collection::vec(0usize..54, 40),
        lead_picks in prop::collection::vec(0usize..54, 40),
        table_choice in any::<prop::sample::Index>(),
        lead in any::<bool>(),
        revolution in any::<bool>(),
        jack_back in any::<bool>(),
        locked in any::<bool>(),
    ) {
        let mut rules = if uecda { RuleSet::uecda() } else { RuleSet::house() };
        rules.jokers = if two_jokers { 2 } else { 1 };
        rules.jack_back = jack_back;
        let deck: Vec<Card> = CardSet::deck(rules.jokers).iter().collect();
        // Bias toward jokers: put them first among the picks half of the time.
        let mut taken = CardSet::EMPTY;
        let hand = pick(&deck, &picks, hand_size, &mut taken);
        let mut trick = Trick { revolution, ..Trick::default() };
        if !lead {
            // A table play made from other cards.
            let other = pick(&deck, &lead_picks, 6, &mut taken);
            let mut plays = Vec::new();
            legal_plays(other, &Trick::default(), &rules, &mut plays);
            let table = plays[table_choice.index(plays.len())];
            trick.table = Some(table);
            trick.jack_back = jack_back;
            if locked && table.suits() != 0 {
                trick.lock = table.suits();
            }
        }
        let mut generated = Vec::new();
        legal_plays(hand, &trick, &rules, &mut generated);
        let reference = reference_legal_plays(hand, &trick, &rules);
        for (i, p) in generated.iter().enumerate() {
            prop_assert!(!generated[..i].contains(p), "duplicate {:?}", p);
            prop_assert!(reference.contains(p), "generated but illegal: {:?}", p);
        }
        for p in &reference {
            prop_assert!(generated.contains(p), "legal but missing: {:?} (hand {:?})", p, hand);
        }
        prop_assert_eq!(generated.len(), reference.len());
    }

    #[test]
    fn easy_answers_are_always_legal(
        seed in any::<u64>(),
        uecda in any::<bool>(),
        players in 3usize..=7,
        games in 1u32..=3,
        random_steps in 0usize..400,
    ) {
        let rules = if uecda { RuleSet::uecda() } else { RuleSet::house() };
        let mut referee = Referee::new(rules, players).unwrap();
        let mut steps = 0usize;
        for game in 0..games {
            referee.start_game_seeded(seed ^ u64::from(game));
            while let Some(seat) = referee.to_act() {
                let view = referee.view(seat).unwrap();
                let answer = easy::decide(&view);
                prop_assert!(is_legal(&view, &answer), "{:?}", answer);
                prop_assert!(legal_decisions(&view).contains(&answer));
                // Drive the game with random decisions so easy sees varied views.
                let mut ctx = DecisionContext::unbounded(seed.wrapping_add(steps as u64));
                let decision = if steps < random_steps {
                    RandomBot.decide(&view, &mut ctx)
                } else {
                    answer
                };
                referee.apply(seat, &decision).unwrap();
                referee.check_invariants().unwrap();
                steps += 1;
            }
        }
    }
}
