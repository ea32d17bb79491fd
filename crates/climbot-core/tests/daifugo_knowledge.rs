//! Property tests of the Daifugo knowledge against brute force on small hands: the
//! certain winners, the mates and the hand plan agree with searches built on the
//! reference move generator (every subset, every declaration).

use climbot_core::daifugo::cards::{Card, CardSet, RANKS, Suit};
use climbot_core::daifugo::knowledge::{Knowledge, beatable, certain_on, lead_trick, mate};
use climbot_core::daifugo::moves::{Trick, legal_plays, reference_legal_plays};
use climbot_core::daifugo::plan::Planner;
use climbot_core::daifugo::plays::{Play, is_forbidden_finish_cards};
use climbot_core::daifugo::position::MAX_SEATS;
use climbot_core::daifugo::rules::RuleSet;
use proptest::prelude::*;

/// Cards of five consecutive ranks from `low` (wrapping within the deck) and the
/// jokers: a small deck where groups and sequences are common.
fn small_deck(low: u8, rules: &RuleSet) -> Vec<Card> {
    let mut deck = Vec::new();
    for r in 0..5u8 {
        let rank = (low + r) % RANKS;
        for suit in Suit::ALL {
            deck.push(Card::natural(rank, suit));
        }
    }
    deck.extend(CardSet::deck(rules.jokers).jokers().iter());
    deck
}

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

fn rules_of(uecda: bool, two_jokers: bool, jack_back: bool) -> RuleSet {
    let mut rules = if uecda {
        RuleSet::uecda()
    } else {
        RuleSet::house()
    };
    rules.jokers = if two_jokers { 2 } else { 1 };
    rules.jack_back = jack_back;
    rules
}

/// Brute force: some holding of at most `max_count` unseen cards has a legal play.
fn brute_beatable(unseen: CardSet, trick: &Trick, max_count: usize, rules: &RuleSet) -> bool {
    reference_legal_plays(unseen, trick, rules)
        .iter()
        .any(|p| p.len() <= max_count)
}

fn brute_certain(trick: &Trick, play: &Play, rules: &RuleSet, unseen: CardSet, n: usize) -> bool {
    trick.clears_after(play, rules)
        || !brute_beatable(unseen, &trick.after_play(play, rules), n, rules)
}

/// Brute force mate over the reference generator.
fn brute_mate(
    hand: CardSet,
    trick: &Trick,
    rules: &RuleSet,
    unseen: CardSet,
    now: usize,
    lead: usize,
) -> bool {
    reference_legal_plays(hand, trick, rules).iter().any(|p| {
        let rest = hand.difference(p.cards());
        if rest.is_empty() {
            return !(rules.forbidden_finishes && p.is_forbidden_finish(trick.revolution));
        }
        brute_certain(trick, p, rules, unseen, now)
            && brute_mate(
                rest,
                &lead_trick(trick.after_play(p, rules).revolution),
                rules,
                unseen,
                lead,
                lead,
            )
    })
}

/// Brute force plan: the lexicographically least (plays, losers) over partitions,
/// with an allowed finisher (its loser status waived) when one exists.
fn brute_plan(
    hand: CardSet,
    revolution: bool,
    rules: &RuleSet,
    unseen: CardSet,
    lead: usize,
) -> ((u8, u8), (u8, u8)) {
    const NONE: (u8, u8) = (u8::MAX, u8::MAX);
    if hand.is_empty() {
        return ((0, 0), NONE);
    }
    let lowest = hand.first().unwrap();
    let trick = lead_trick(revolution);
    let mut options: Vec<CardSet> = Vec::new();
    for p in reference_legal_plays(hand, &trick, rules) {
        if p.cards().contains(lowest) && !options.contains(&p.cards()) {
            options.push(p.cards());
        }
    }
    let mut any = NONE;
    let mut fin = NONE;
    for cards in options {
        let winner = reference_legal_plays(cards, &trick, rules)
            .iter()
            .any(|p| p.cards() == cards && brute_certain(&trick, p, rules, unseen, lead));
        let (ra, rf) = brute_plan(hand.difference(cards), revolution, rules, unseen, lead);
        let loser = u8::from(!winner);
        if ra != NONE {
            any = any.min((ra.0 + 1, ra.1 + loser));
            let allowed =
                !rules.forbidden_finishes || !is_forbidden_finish_cards(cards, revolution);
            if allowed {
                fin = fin.min((ra.0 + 1, ra.1));
            }
        }
        if rf != NONE {
            fin = fin.min((rf.0 + 1, rf.1 + loser));
        }
    }
    (any, fin)
}

fn knowledge(rules: RuleSet, hand: CardSet, unseen: CardSet, opponent: usize) -> Knowledge {
    let mut counts = [0; MAX_SEATS];
    counts[0] = hand.len();
    counts[1] = opponent;
    Knowledge {
        rules,
        seat: 0,
        players: 2,
        unseen,
        counts,
        known: [CardSet::EMPTY; MAX_SEATS],
        active: 0b11,
        passed: 0,
        owner: None,
        trick: Trick::default(),
        evidence: Vec::new(),
        pass_factor: 1.0,
    }
}

/// A table play made from `other`, and the trick it tops.
fn table_trick(
    other: CardSet,
    choice: prop::sample::Index,
    rules: &RuleSet,
    revolution: bool,
    jack_back: bool,
    locked: bool,
) -> Option<Trick> {
    let mut plays = Vec::new();
    legal_plays(other, &Trick::default(), rules, &mut plays);
    if plays.is_empty() {
        return None;
    }
    let table = plays[choice.index(plays.len())];
    Some(Trick {
        table: Some(table),
        revolution,
        jack_back: jack_back && rules.jack_back,
        lock: if locked && rules.suit_lock {
            table.suits()
        } else {
            0
        },
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn beatable_and_certain_winners_match_brute_force(
        uecda in any::<bool>(),
        two_jokers in any::<bool>(),
        jack_back in any::<bool>(),
        low in 0u8..13,
        unseen_size in 1usize..=9,
        picks in prop::collection::vec(0usize..64, 40),
        other_picks in prop::collection::vec(0usize..64, 40),
        choice in any::<prop::sample::Index>(),
        play_choice in any::<prop::sample::Index>(),
        revolution in any::<bool>(),
        locked in any::<bool>(),
        max_count in 1usize..=5,
    ) {
        let rules = rules_of(uecda, two_jokers, jack_back);
        let deck = small_deck(low, &rules);
        let mut taken = CardSet::EMPTY;
        let unseen = pick(&deck, &picks, unseen_size, &mut taken);
        let other = pick(&deck, &other_picks, 6, &mut taken);
        let Some(trick) = table_trick(other, choice, &rules, revolution, jack_back, locked) else {
            return Ok(());
        };
        prop_assert_eq!(
            beatable(unseen, &trick, max_count, &rules),
            brute_beatable(unseen, &trick, max_count, &rules),
            "unseen {:?} on {:?}", unseen, trick
        );
        // A play of ours on that trick (made from the rest of the small deck).
        let mine = pick(&deck, &other_picks[3..], 6, &mut taken);
        let mut plays = Vec::new();
        legal_plays(mine, &trick, &rules, &mut plays);
        if !plays.is_empty() {
            let p = plays[play_choice.index(plays.len())];
            prop_assert_eq!(
                certain_on(&trick, &p, &rules, unseen, max_count),
                brute_certain(&trick, &p, &rules, unseen, max_count),
                "{:?} on {:?} with unseen {:?}", p, trick, unseen
            );
        }
    }

    #[test]
    fn mates_match_brute_force(
        uecda in any::<bool>(),
        two_jokers in any::<bool>(),
        low in 0u8..13,
        hand_size in 1usize..=5,
        unseen_size in 0usize..=7,
        picks in prop::collection::vec(0usize..64, 40),
        unseen_picks in prop::collection::vec(0usize..64, 40),
        other_picks in prop::collection::vec(0usize..64, 40),
        choice in any::<prop::sample::Index>(),
        lead in any::<bool>(),
        revolution in any::<bool>(),
        locked in any::<bool>(),
        now in 0usize..=4,
        later in 1usize..=4,
    ) {
        let rules = rules_of(uecda, two_jokers, false);
        let deck = small_deck(low, &rules);
        let mut taken = CardSet::EMPTY;
        let hand = pick(&deck, &picks, hand_size, &mut taken);
        let unseen = pick(&deck, &unseen_picks, unseen_size, &mut taken);
        let trick = if lead {
            lead_trick(revolution)
        } else {
            let other = pick(&deck, &other_picks, 5, &mut taken);
            match table_trick(other, choice, &rules, revolution, false, locked) {
                Some(t) => t,
                None => return Ok(()),
            }
        };
        prop_assert_eq!(
            mate(hand, &trick, &rules, unseen, now, later),
            brute_mate(hand, &trick, &rules, unseen, now, later),
            "hand {:?} on {:?} with unseen {:?}", hand, trick, unseen
        );
    }

    #[test]
    fn plans_match_brute_force(
        uecda in any::<bool>(),
        two_jokers in any::<bool>(),
        low in 0u8..13,
        hand_size in 1usize..=7,
        unseen_size in 0usize..=8,
        picks in prop::collection::vec(0usize..64, 40),
        unseen_picks in prop::collection::vec(0usize..64, 40),
        revolution in any::<bool>(),
        opponent in 1usize..=5,
    ) {
        let rules = rules_of(uecda, two_jokers, false);
        let deck = small_deck(low, &rules);
        let mut taken = CardSet::EMPTY;
        let hand = pick(&deck, &picks, hand_size, &mut taken);
        let unseen = pick(&deck, &unseen_picks, unseen_size, &mut taken);
        let k = knowledge(rules, hand, unseen, opponent);
        let plan = Planner::new(&k, revolution).plan(hand);
        let (any, fin) = brute_plan(hand, revolution, &rules, unseen, opponent);
        let (best, finishable) = if fin.0 != u8::MAX { (fin, true) } else { (any, false) };
        prop_assert_eq!((plan.plays, plan.losers, plan.finishable), (best.0, best.1, finishable),
            "hand {:?}, unseen {:?}", hand, unseen);
    }
}

#[test]
fn the_seed_hand_keeps_an_allowed_finisher() {
    // ♠K ♥2 joker: leading ♠K leaves ♥2 + joker, which can only end forbidden; the
    // plan pairs the ♥2 with the joker and finishes on the ♠K.
    let rules = RuleSet::house();
    let hand = CardSet::parse("♠K ♥2 joker").unwrap();
    let unseen = CardSet::deck(1).difference(hand);
    let k = knowledge(rules, hand, unseen, 10);
    let mut planner = Planner::new(&k, false);
    let plan = planner.plan(hand);
    assert_eq!((plan.plays, plan.finishable), (2, true));
    let rest = planner.plan(CardSet::parse("♥2 joker").unwrap());
    assert!(!rest.finishable);
    // The joker beats every single but the ♠3 beats the lone joker: not certain.
    assert!(!k.certain_lead(&Play::lone_joker(Card::JOKER), false));
    let without_spade3 = knowledge(
        rules,
        hand,
        unseen.difference(CardSet::single(Card::SPADE_3)),
        10,
    );
    assert!(without_spade3.certain_lead(&Play::lone_joker(Card::JOKER), false));
}
