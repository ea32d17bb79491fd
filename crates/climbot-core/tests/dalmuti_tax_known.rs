//! What a seat knows from the taxes: the referee puts it in the views of hand 2 on,
//! the view checks it (every refusal names its field), and the search's deals put the
//! cards a seat gave away and not seen since in its partner's hand.

use climbot_core::dalmuti::bots::easy::easy_decision;
use climbot_core::dalmuti::cards::Cards;
use climbot_core::dalmuti::referee::{HandState, deal};
use climbot_core::dalmuti::turn::Title;
use climbot_core::dalmuti::view::{CardsInput, tax_pair};
use climbot_core::dalmuti::{Dalmuti, DalmutiView, DalmutiViewInput, Phase};
use climbot_core::game::Simulation;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// A hand of `players` seats numbered `hand_number` dealt from the first seed at or
/// after `seed` without a revolution.
fn hand(players: usize, seed: u64, hand_number: u32) -> HandState {
    for s in seed..seed + 1000 {
        let hands = deal(players, &mut ChaCha8Rng::seed_from_u64(s));
        if hands.iter().all(|h| h.jesters() < 2) {
            let seating: Vec<usize> = (0..players).collect();
            return HandState::new(&hands, &seating, &vec![0; players], hand_number, 3);
        }
    }
    panic!("no deal without a revolution");
}

/// Every view of a hand played by the easy bot, with the referee's hands at that time.
fn views(mut state: HandState) -> Vec<(DalmutiView, Vec<Cards>)> {
    let mut out = Vec::new();
    while let Some(view) = state.view().unwrap() {
        let hands = (0..state.players()).map(|s| state.hand(s)).collect();
        state.apply(easy_decision(&view), "easy").unwrap();
        out.push((view, hands));
    }
    out
}

/// The first view of hand 2 (5 seats) where `want` holds.
fn view_where(want: impl Fn(&DalmutiView) -> bool) -> DalmutiView {
    views(hand(5, 7, 2))
        .into_iter()
        .map(|(v, _)| v)
        .find(|v| want(v))
        .expect("no such view")
}

fn error_of(input: DalmutiViewInput) -> String {
    DalmutiView::new(input).unwrap_err().to_string()
}

#[test]
fn the_referee_tells_both_sides_of_each_pair_from_hand_two() {
    for players in [4, 5, 7] {
        let mut seen = [false; 4];
        for (view, hands) in views(hand(players, players as u64, 2)) {
            let title = view.title();
            match (tax_pair(title), view.tax_known()) {
                (None, None) => {}
                (Some((partner, count)), Some(t)) => {
                    assert_eq!(view.seats()[t.with_seat].title, partner);
                    let given = if view.phase() == Phase::TaxReturn {
                        0
                    } else {
                        count
                    };
                    assert_eq!((t.received.len(), t.given.len()), (count, given));
                    // The truth: the known cards are in the partner's hand.
                    let held = view.known_held(t.with_seat);
                    assert!(hands[t.with_seat].is_superset(held), "{title}");
                    seen[view.seat().min(2) + usize::from(view.seat() == players - 1)] = true;
                }
                other => panic!("seat {} ({title}): {other:?}", view.seat()),
            }
        }
        assert!(
            seen.iter().filter(|&&s| s).count() >= 2,
            "{players}: {seen:?}"
        );
    }
    // No taxes in hand 1.
    assert!(
        views(hand(5, 7, 1))
            .iter()
            .all(|(v, _)| v.tax_known().is_none())
    );
}

#[test]
fn the_taxes_reach_the_fingerprint_and_survive_to_input() {
    let view = view_where(|v| v.phase() == Phase::Play && v.tax_known().is_some());
    assert_eq!(DalmutiView::new(view.to_input()).unwrap(), view);
    let mut without = view.to_input();
    without.tax_known = None;
    let without = DalmutiView::new(without).unwrap();
    assert_ne!(without.fingerprint(), view.fingerprint());
    assert_eq!(without.known_held(0), Cards::EMPTY);
}

#[test]
fn every_bad_tax_knowledge_names_its_field() {
    // The Greater Peon (seat 4) in the play phase: it gave 2 and got 2 back.
    let input = view_where(|v| v.phase() == Phase::Play && v.seat() == 4).to_input();
    let known = input.tax_known.clone().unwrap();
    let hand = input.hand.counts.clone();
    let deck = Cards::FULL_DECK.counts();
    let received_rank = (0..13).find(|&i| known.received.counts[i] > 0).unwrap();
    let given_rank = (0..13).find(|&i| known.given.counts[i] > 0).unwrap();
    // A rank held in full, so it cannot have been given away.
    let full = (0..13)
        .find(|&i| hand[i] == u32::from(deck[i]))
        .unwrap_or(12);
    let none_held = (0..13)
        .find(|&i| hand[i] == 0 && input.played.counts[i] == 0)
        .unwrap();

    type Mutation = Box<dyn Fn(&mut DalmutiViewInput)>;
    let set = |counts: &mut Vec<u32>, from: usize, to: usize| {
        counts[from] -= 1;
        counts[to] += 1;
    };
    let cases: Vec<(Mutation, String, &str)> = vec![
        (
            Box::new(|v| v.hand_number = 1),
            "tax_known:".to_string(),
            "no taxes in this hand",
        ),
        (
            Box::new(|v| v.tax_known.as_mut().unwrap().with_seat = 5),
            "tax_known.with_seat:".to_string(),
            "seat 5 with only 5 seats",
        ),
        (
            Box::new(|v| v.tax_known.as_mut().unwrap().with_seat = 4),
            "tax_known.with_seat:".to_string(),
            "own seat",
        ),
        (
            Box::new(|v| v.tax_known.as_mut().unwrap().with_seat = 1),
            "tax_known.with_seat:".to_string(),
            "with the GD",
        ),
        (
            Box::new(move |v| v.tax_known.as_mut().unwrap().received.counts[received_rank] -= 1),
            "tax_known.received:".to_string(),
            "receives 2",
        ),
        (
            Box::new(move |v| v.tax_known.as_mut().unwrap().given.counts[given_rank] += 1),
            "tax_known.given:".to_string(),
            "has given 2",
        ),
        (
            Box::new(|v| {
                v.tax_known
                    .as_mut()
                    .unwrap()
                    .given
                    .counts
                    .pop()
                    .map(drop)
                    .unwrap()
            }),
            "tax_known.given.counts:".to_string(),
            "expected 13 counts",
        ),
        (
            Box::new(move |v| {
                set(
                    &mut v.tax_known.as_mut().unwrap().received.counts,
                    received_rank,
                    none_held,
                )
            }),
            format!("tax_known.received.counts[{none_held}]:"),
            "received, but this seat holds 0",
        ),
    ];
    let mut cases = cases;
    if full != given_rank && hand[full] > 0 && known.received.counts[full] == 0 {
        cases.push((
            Box::new(move |v| {
                set(
                    &mut v.tax_known.as_mut().unwrap().given.counts,
                    given_rank,
                    full,
                )
            }),
            format!("tax_known.given.counts[{full}]:"),
            "given away, but this seat holds",
        ));
    }
    for (i, (mutate, field, reason)) in cases.iter().enumerate() {
        let mut bad = input.clone();
        mutate(&mut bad);
        let message = error_of(bad);
        assert!(
            message.starts_with(field.as_str()) && message.contains(reason),
            "case {i}: {message}"
        );
    }
    // A Merchant takes no part in the taxes.
    let merchant = view_where(|v| v.phase() == Phase::Play && v.title() == Title::Merchant);
    let mut bad = merchant.to_input();
    bad.tax_known = input.tax_known.clone();
    let message = error_of(bad);
    assert!(
        message.starts_with("tax_known:") && message.contains("takes no part"),
        "{message}"
    );
    // A Dalmuti has given nothing back yet in the tax-return phase.
    let tax = view_where(|v| v.phase() == Phase::TaxReturn && v.seat() == 0);
    let mut bad = tax.to_input();
    bad.tax_known.as_mut().unwrap().given = CardsInput::from(Cards::FULL_DECK.best(2));
    let message = error_of(bad);
    assert!(
        message.starts_with("tax_known.given:") && message.contains("has given 0"),
        "{message}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every deal keeps the seat's hand and the counts and puts the cards the seat
    /// gave and has not seen since in the partner's hand.
    #[test]
    fn deals_place_the_given_cards_with_the_partner(
        seed in 0u64..1000,
        step in 0usize..60,
        players in 4usize..8,
    ) {
        let all = views(hand(players, seed, 2));
        let with_taxes: Vec<_> = all
            .into_iter()
            .map(|(v, _)| v)
            .filter(|v| v.phase() == Phase::Play && v.tax_known().is_some())
            .collect();
        prop_assume!(!with_taxes.is_empty());
        let view = &with_taxes[step % with_taxes.len()];
        let partner = view.tax_known().unwrap().with_seat;
        let known = view.known_held(partner);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..8 {
            let d = <Dalmuti as Simulation>::deal(view, &mut rng);
            prop_assert_eq!(d[view.seat()], view.hand());
            prop_assert!(d[partner].is_superset(known));
            let mut all = Cards::EMPTY;
            for (s, info) in view.seats().iter().enumerate() {
                prop_assert_eq!(d[s].len(), u32::from(info.card_count));
                all = all.union(d[s]);
            }
            prop_assert_eq!(all.union(view.played()), Cards::FULL_DECK);
        }
    }
}
