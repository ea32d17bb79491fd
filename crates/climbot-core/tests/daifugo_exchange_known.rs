//! What a seat knows from the exchange: the referee puts it in the views of game 2 on,
//! the view checks it (every refusal names its field), and the search's deals put the
//! cards a seat gave away in the receiver's hand.

use climbot_core::bot::DecisionContext;
use climbot_core::daifugo::Daifugo;
use climbot_core::daifugo::bots::easy::EasyBot;
use climbot_core::daifugo::cards::CardSet;
use climbot_core::daifugo::position::{DaifugoDeal, DaifugoPosition};
use climbot_core::daifugo::referee::{Referee, play_match};
use climbot_core::daifugo::rules::{RuleSet, Title};
use climbot_core::daifugo::view::{DaifugoView, DaifugoViewInput, Phase, exchange_pair};
use climbot_core::game::Policy;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::sync::Mutex;

/// A referee at the first play of game 2 (house rules, 5 seats): the daihinmin leads.
fn game_two() -> Referee {
    let mut referee = Referee::new(RuleSet::house(), 5).unwrap();
    referee.start_game_seeded(11);
    while referee.to_act().is_some() {
        referee.autoplay(&EasyBot).unwrap();
    }
    referee.start_game_seeded(12);
    while matches!(
        referee.view(referee.to_act().unwrap()).unwrap().phase(),
        Phase::Exchange { .. }
    ) {
        referee.autoplay(&EasyBot).unwrap();
    }
    referee
}

fn error_of(input: DaifugoViewInput) -> String {
    DaifugoView::new(input).unwrap_err().to_string()
}

#[test]
fn the_referee_tells_both_sides_of_each_pair() {
    let referee = game_two();
    for seat in 0..5 {
        let view = referee.view(seat).unwrap();
        let title = view.seats()[seat].title;
        match (exchange_pair(title), view.exchange_known()) {
            (None, None) => {}
            (Some((partner, count)), Some(x)) => {
                assert_eq!(view.seats()[x.with_seat].title, partner);
                assert_eq!((x.received.len(), x.given.len()), (count, count));
                // The truth: every given card not played is in the partner's hand.
                let held = view.known_held(x.with_seat);
                assert!(held.is_subset(referee.hands()[x.with_seat]), "{title:?}");
            }
            other => panic!("seat {seat} ({title:?}): {other:?}"),
        }
    }
}

#[test]
fn the_exchange_reaches_the_fingerprint_and_survives_to_input() {
    let referee = game_two();
    let seat = referee.to_act().unwrap();
    let view = referee.view(seat).unwrap();
    assert!(view.exchange_known().is_some());
    assert_eq!(DaifugoView::new(view.to_input()).unwrap(), view);
    let mut without = view.to_input();
    without.exchange = None;
    let without = DaifugoView::new(without).unwrap();
    assert_ne!(without.fingerprint(), view.fingerprint());
}

#[test]
fn every_bad_exchange_names_its_field() {
    let referee = game_two();
    let seat = referee.to_act().unwrap();
    let input = referee.view_input(seat);
    assert_eq!(input.seats[seat].title, Title::Daihinmin);
    let known = input.exchange.clone().unwrap();
    let received_back = |id: &u32| known.received.contains(id);
    let hand_only = *input.hand.iter().find(|id| !received_back(id)).unwrap();
    let heimin = (0..4)
        .find(|&s| input.seats[s].title == Title::Heimin)
        .unwrap();
    let played_or_unseen = (0u32..53)
        .find(|id| !input.hand.contains(id) && !known.given.contains(id))
        .unwrap();

    type Mutation = Box<dyn Fn(&mut DaifugoViewInput)>;
    let cases: Vec<(Mutation, &str, &str)> = vec![
        (
            Box::new(|v| v.rules.exchange = false),
            "exchange_known:",
            "no exchange in this game",
        ),
        (
            Box::new(|v| v.exchange.as_mut().unwrap().with_seat = 5),
            "exchange_known.with_seat:",
            "seat 5 of 5",
        ),
        (
            Box::new(move |v| v.exchange.as_mut().unwrap().with_seat = seat as u32),
            "exchange_known.with_seat:",
            "own seat",
        ),
        (
            Box::new(move |v| v.exchange.as_mut().unwrap().with_seat = heimin as u32),
            "exchange_known.with_seat:",
            "exchanges with the Daifugo",
        ),
        (
            Box::new(|v| {
                v.exchange.as_mut().unwrap().given.pop();
            }),
            "exchange_known.given:",
            "has given 2",
        ),
        (
            Box::new(|v| {
                v.exchange.as_mut().unwrap().received.pop();
            }),
            "exchange_known.received:",
            "receives 2",
        ),
        (
            Box::new(move |v| v.exchange.as_mut().unwrap().given[0] = hand_only),
            "exchange_known.given[0]:",
            "is in hand",
        ),
        (
            Box::new(move |v| v.exchange.as_mut().unwrap().received[1] = played_or_unseen),
            "exchange_known.received[1]:",
            "neither in hand nor played",
        ),
        (
            Box::new(|v| v.exchange.as_mut().unwrap().given[1] = 99),
            "exchange_known.given[1]:",
            "not in a deck",
        ),
    ];
    for (i, (mutate, field, reason)) in cases.iter().enumerate() {
        let mut bad = input.clone();
        mutate(&mut bad);
        let message = error_of(bad);
        assert!(
            message.starts_with(field) && message.contains(reason),
            "case {i}: {message}"
        );
    }
    // A seat outside the exchange may not claim one.
    let mut bad = referee.view_input(heimin);
    bad.exchange = Some(known);
    let message = error_of(bad);
    assert!(
        message.starts_with("exchange_known:") && message.contains("no part"),
        "{message}"
    );
    // Absent knowledge is always accepted.
    let mut plain = input;
    plain.exchange = None;
    assert!(DaifugoView::new(plain).is_ok());
}

/// Records, per game, whether each exchanging seat's views carried the exchange.
struct Recorder {
    seen: Mutex<Vec<(u32, bool, bool)>>,
}

impl Policy<Daifugo> for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn decide(
        &self,
        view: &DaifugoView,
        ctx: &mut DecisionContext<'_>,
    ) -> climbot_core::daifugo::DaifugoDecision {
        let exchanging = exchange_pair(view.seats()[view.seat()].title).is_some();
        self.seen
            .lock()
            .unwrap()
            .push((view.game(), exchanging, view.exchange_known().is_some()));
        EasyBot.decide(view, ctx)
    }
}

#[test]
fn arena_views_carry_the_exchange_from_game_two() {
    for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5)] {
        let recorder = Recorder {
            seen: Mutex::new(Vec::new()),
        };
        let policies: Vec<&dyn Policy<Daifugo>> = vec![&recorder; players];
        play_match(&policies, 3, 5, rules).unwrap();
        let seen = recorder.seen.into_inner().unwrap();
        let mut carried = 0;
        for &(game, exchanging, has) in &seen {
            assert_eq!(has, game >= 2 && exchanging, "game {game}");
            carried += usize::from(has);
        }
        assert!(carried > 20, "{carried} views carried the exchange");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every deal drawn for a view of game 2 puts the cards the seat gave away (and
    /// that are not played) in the receiver's hand, or among the removed cards once
    /// the receiver is out, and fits every count.
    #[test]
    fn deals_put_known_given_cards_in_the_receivers_hand(
        uecda in any::<bool>(),
        players in 3usize..=6,
        seed in any::<u64>(),
        rng_seed in any::<u64>(),
    ) {
        let rules = if uecda { RuleSet::uecda() } else { RuleSet::house() };
        let mut referee = Referee::new(rules, players).unwrap();
        referee.start_game_seeded(seed);
        while referee.to_act().is_some() {
            referee.autoplay(&EasyBot).unwrap();
        }
        referee.start_game_seeded(seed.wrapping_add(1));
        let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
        let mut checked = 0;
        while let Some(seat) = referee.to_act() {
            let view = referee.view(seat).unwrap();
            if view.phase() == Phase::Play
                && let Some(x) = view.exchange_known()
            {
                let held = view.known_held(x.with_seat);
                let removed = view.known_removed();
                prop_assert!(held.is_subset(referee.hands()[x.with_seat]));
                for _ in 0..4 {
                    let deal = DaifugoDeal::draw(&view, &mut rng);
                    prop_assert!(held.is_subset(deal.hands()[x.with_seat]));
                    prop_assert!(removed.is_subset(deal.removed()));
                    prop_assert_eq!(deal.removed().len(), view.removed_unseen());
                    let mut all = deal.removed().union(view.played());
                    for (s, hand) in deal.hands().iter().enumerate() {
                        prop_assert_eq!(hand.len(), view.seats()[s].card_count);
                        prop_assert!(all.intersection(*hand).is_empty());
                        all = all.union(*hand);
                    }
                    prop_assert_eq!(all, CardSet::deck(rules.jokers));
                    prop_assert!(DaifugoPosition::from_view(&view, &deal).is_some());
                }
                checked += 1;
            }
            referee.autoplay(&EasyBot).unwrap();
        }
        prop_assert!(checked > 0);
    }
}
