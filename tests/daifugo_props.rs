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

#[path = "support/fuzz.rs"]
mod fuzz;

/// Real Daifugo view inputs (the load-test views of a few seeds).
fn real_inputs() -> &'static [climbot::daifugo::DaifugoViewInput] {
    static INPUTS: std::sync::OnceLock<Vec<climbot::daifugo::DaifugoViewInput>> =
        std::sync::OnceLock::new();
    INPUTS.get_or_init(|| {
        (1..=8)
            .flat_map(|seed| climbot::loadtest::daifugo_views(seed).unwrap())
            .map(|(_, view)| match view.game {
                Some(climbot::pb::game_view::Game::Daifugo(v)) => {
                    climbot::service::daifugo::view_input(&v).unwrap()
                }
                _ => unreachable!(),
            })
            .collect()
    })
}

/// Encoded Daifugo SelectPlay requests, the fuzzer's seeds.
fn wire_corpus() -> Vec<Vec<u8>> {
    static CORPUS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    CORPUS
        .get_or_init(|| fuzz::corpus_of(8, &["daifugo"]))
        .clone()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// Corrupting any one field of a real view never panics the constructor, and
    /// whatever it accepts has legal decisions and an easy answer among them.
    #[test]
    fn the_constructor_never_panics(
        which in any::<prop::sample::Index>(),
        field in 0usize..14,
        index in 0usize..16,
        value in prop_oneof![0u32..8, 0u32..64, Just(u32::MAX), any::<u32>()],
    ) {
        use climbot::daifugo::view::{LogEntryInput, PhaseInput, TableCardInput};
        let inputs = real_inputs();
        let mut i = inputs[which.index(inputs.len())].clone();
        match field {
            0 => i.seat = value,
            1 => i.game = value,
            2 => i.phase = PhaseInput::Exchange { give: value % 4 },
            3 => { if let Some(c) = i.hand.get_mut(index) { *c = value } else { i.hand.push(value) } }
            4 => { if index < i.hand.len() { i.hand.remove(index); } }
            5 => match i.table.as_mut() {
                Some(t) => match t.cards.get_mut(index % 4) {
                    Some(c) => c.declared = Some(value % 70),
                    None => t.cards.push(TableCardInput { card: value % 70, declared: None }),
                },
                None => i.table = None,
            },
            6 => { if let Some(t) = i.table.as_mut() { t.owner = value } }
            7 => { i.revolution = !i.revolution; i.jack_back = value % 2 == 0 }
            8 => i.lock = value,
            9 => { if let Some(s) = i.seats.get_mut(index) { s.card_count = value } else { i.seats.truncate(value as usize % 9) } }
            10 => { if let Some(c) = i.played.get_mut(index) { *c = value } else { i.played.push(value) } }
            11 => i.removed_unseen = value,
            12 => { if let Some(e) = i.log.get_mut(index) { e.seat = value % 9 } else { i.log.push(LogEntryInput { seat: value % 8, cards: vec![value % 70].into() }) } }
            _ => { if index < i.log.len() { i.log.remove(index); } }
        }
        if let Ok(view) = climbot::daifugo::DaifugoView::new(i) {
            let legal = legal_decisions(&view);
            prop_assert!(!legal.is_empty());
            prop_assert!(legal.contains(&easy::decide(&view)));
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
