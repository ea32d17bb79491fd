//! The Dalmuti search seam against the referee: a position built from the referee's
//! view of the seat to act and the true hands plays on exactly like the referee (same
//! seat to act, same legal decisions in the same order, same finishing order), and
//! sampled deals respect every public fact of the view.

use climbot_core::bot::uniform_below;
use climbot_core::dalmuti::bots::easy::easy_decision;
use climbot_core::dalmuti::cards::Cards;
use climbot_core::dalmuti::position::DalmutiDeal;
use climbot_core::dalmuti::referee::{HandState, deal};
use climbot_core::dalmuti::turn::MAX_PLAYERS;
use climbot_core::dalmuti::view::Phase;
use climbot_core::dalmuti::{Dalmuti, DalmutiDecision, DalmutiView};
use climbot_core::game::{Game, Simulation, determinize};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

const GAMES: u64 = 2000;

fn true_hands(state: &HandState) -> DalmutiDeal {
    let mut hands = [Cards::EMPTY; MAX_PLAYERS];
    for (s, h) in hands.iter_mut().enumerate().take(state.players()) {
        *h = state.hand(s);
    }
    hands
}

/// A decision for `view`: uniformly among the legal ones, or the easy bot's.
fn decide(view: &DalmutiView, easy: bool, rng: &mut ChaCha8Rng) -> DalmutiDecision {
    if easy && view.phase() == Phase::Play {
        easy_decision(view)
    } else {
        let legal = Dalmuti::legal_decisions(view);
        legal[uniform_below(rng, legal.len())]
    }
}

/// A fresh hand of 4 to 8 players, the first or a later hand (with taxes).
fn new_hand(rng: &mut ChaCha8Rng) -> HandState {
    let players = 4 + uniform_below(rng, 5);
    let hand_number = 1 + uniform_below(rng, 3) as u32;
    let dealt = deal(players, rng);
    let seating: Vec<usize> = (0..players).collect();
    HandState::new(&dealt, &seating, &vec![0; players], hand_number, 3)
}

/// Plays the referee through the revolution and tax phases (checking that they have no
/// position) and then `steps` play-phase decisions. Returns the view of the seat to
/// act, or `None` once the hand is over.
fn advance(
    state: &mut HandState,
    steps: usize,
    easy: bool,
    rng: &mut ChaCha8Rng,
) -> Option<DalmutiView> {
    let mut played = 0;
    loop {
        let view = state.view().expect("referee views are valid")?;
        if view.phase() != Phase::Play {
            assert!(Dalmuti::position(&view, &true_hands(state)).is_none());
        } else if played == steps {
            return Some(view);
        } else {
            played += 1;
        }
        let decision = decide(&view, easy, rng);
        state.apply(decision, "test").expect("a legal decision");
    }
}

/// One game: the referee plays to a random decision point of the play phase, then the
/// referee and the position built there continue side by side. Returns the steps
/// compared.
fn side_by_side(seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let easy = uniform_below(&mut rng, 2) == 0;
    let mut state = new_hand(&mut rng);
    let start = uniform_below(&mut rng, 80);
    let Some(view) = advance(&mut state, start, easy, &mut rng) else {
        return 0;
    };
    let mut position = Dalmuti::position(&view, &true_hands(&state)).expect("a position");
    let mut buffer = Vec::new();
    let mut steps = 0;
    while let Some(view) = state.view().unwrap() {
        assert_eq!(Dalmuti::to_act(&position), Some(view.seat()), "seed {seed}");
        assert!(!Dalmuti::is_over(&position));
        assert_eq!(
            Dalmuti::position(&view, &true_hands(&state)),
            Some(position),
            "seed {seed}: the position rebuilt from the view differs from the one played on"
        );
        Dalmuti::legal_actions(&position, &mut buffer);
        assert_eq!(buffer, Dalmuti::legal_decisions(&view), "seed {seed}");
        let decision = decide(&view, easy, &mut rng);
        state.apply(decision, "test").unwrap();
        Dalmuti::apply(&mut position, decision);
        steps += 1;
    }
    assert_eq!(Dalmuti::to_act(&position), None, "seed {seed}");
    assert!(Dalmuti::is_over(&position));
    Dalmuti::legal_actions(&position, &mut buffer);
    assert!(buffer.is_empty());
    let order = state.finishing_order().expect("the hand is over");
    for (i, &seat) in order.iter().enumerate() {
        assert_eq!(
            Dalmuti::outcome(&position, seat),
            (i + 1) as f64,
            "seed {seed}: seat {seat} finished in place {}",
            i + 1
        );
    }
    for s in 0..state.players() {
        assert_eq!(position.hand(s), state.hand(s), "seed {seed}, seat {s}");
    }
    steps
}

#[test]
fn positions_play_on_exactly_like_the_referee() {
    let steps: usize = (0..GAMES).map(side_by_side).sum();
    assert!(steps > GAMES as usize * 10, "only {steps} steps compared");
}

/// Views of refereed hands in every phase (revolution, tax return, play), some after a
/// revolution.
fn views() -> Vec<DalmutiView> {
    views_and_hands()
        .into_iter()
        .map(|(view, _)| view)
        .collect()
}

/// [`views`], each with the true hands of its moment.
fn views_and_hands() -> Vec<(DalmutiView, DalmutiDeal)> {
    let mut views = Vec::new();
    for seed in 0..300 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = new_hand(&mut rng);
        let stop = uniform_below(&mut rng, 60);
        for _ in 0..stop {
            let Some(view) = state.view().unwrap() else {
                break;
            };
            let decision = decide(&view, seed % 2 == 0, &mut rng);
            state.apply(decision, "test").unwrap();
        }
        if let Some(view) = state.view().unwrap() {
            views.push((view, true_hands(&state)));
        }
    }
    let phases = |phase| views.iter().filter(|(v, _)| v.phase() == phase).count();
    assert!(phases(Phase::Play) > 100);
    assert!(phases(Phase::TaxReturn) > 0);
    assert!(phases(Phase::Revolution) > 0);
    let after_revolution = views
        .iter()
        .filter(|(v, _)| v.revolution().is_some_and(|r| r.seat != v.seat()))
        .count();
    assert!(
        after_revolution > 5,
        "{after_revolution} views after a revolution"
    );
    views
}

/// Every public fact of the view holds in the deal.
fn assert_consistent(view: &DalmutiView, deal: &DalmutiDeal) {
    let p = view.players();
    let me = view.seat();
    assert_eq!(deal[me], view.hand(), "own hand kept");
    let mut others = Cards::EMPTY;
    for (s, &hand) in deal.iter().enumerate() {
        if s >= p {
            assert!(hand.is_empty(), "seat {s} does not play");
            continue;
        }
        assert_eq!(
            hand.len(),
            u32::from(view.seats()[s].card_count),
            "seat {s}'s count"
        );
        if s != me {
            others = others.union(hand);
        }
    }
    assert_eq!(
        others,
        view.unseen(),
        "the hidden cards are the unseen ones"
    );
    if let Some(r) = view.revolution()
        && r.seat != me
    {
        assert_eq!(
            deal[r.seat].jesters(),
            view.unseen().jesters(),
            "the declarer keeps the Jesters it showed"
        );
    }
}

#[test]
fn deals_respect_the_view_and_follow_the_seed() {
    for view in views() {
        let deals: Vec<DalmutiDeal> = (0..16)
            .map(|seed| Dalmuti::deal(&view, &mut ChaCha8Rng::seed_from_u64(seed)))
            .collect();
        for deal in &deals {
            assert_consistent(&view, deal);
        }
        let again = Dalmuti::deal(&view, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(again, deals[3], "the same seed deals the same");
        // Two other seats holding cards of two different ranks between them can swap.
        let holders = (0..view.players())
            .filter(|&s| s != view.seat() && view.seats()[s].card_count > 0)
            .count();
        let ranks = view.unseen().counts().iter().filter(|&&c| c > 0).count();
        if holders >= 2 && ranks >= 2 {
            assert!(
                deals.iter().any(|d| *d != deals[0]),
                "16 seeds dealt the same hands"
            );
        }
    }
}

#[test]
fn determinize_with_a_hook_that_rejects_everything_still_deals_consistently() {
    for view in views() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let deal = determinize::<Dalmuti>(&view, &mut rng, &|_| 0.0, 5);
        assert_consistent(&view, &deal);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        assert_eq!(deal, determinize::<Dalmuti>(&view, &mut rng, &|_| 0.0, 5));
    }
}

#[test]
fn each_unseen_card_lands_with_a_seat_in_proportion_to_its_count() {
    // The opening of a 6-player first hand: seat 0 leads, 66 cards unseen.
    let view = DalmutiView::new(climbot_core::dalmuti::referee::opening_view_input(6, 5)).unwrap();
    let me = view.seat();
    let rank = climbot_core::dalmuti::Rank::new(12).unwrap();
    let unseen = view.unseen();
    let copies = f64::from(unseen.count(rank));
    assert!(copies > 0.0);
    let n = 4000;
    let mut held = [0u32; 6];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..n {
        let deal = Dalmuti::deal(&view, &mut rng);
        for (s, h) in held.iter_mut().enumerate() {
            *h += u32::from(deal[s].count(rank));
        }
    }
    assert_eq!(held[me], u32::from(view.hand().count(rank)) * n);
    for s in (0..6).filter(|&s| s != me) {
        // Each unseen card of the rank lands at seat s with probability count / unseen.
        let p = f64::from(view.seats()[s].card_count) / f64::from(unseen.len());
        let expected = f64::from(n) * copies * p;
        let sigma = (f64::from(n) * copies * p * (1.0 - p)).sqrt();
        assert!(
            (f64::from(held[s]) - expected).abs() < 6.0 * sigma,
            "seat {s}: {} of rank 12 over {n} deals, expected {expected:.0}",
            held[s]
        );
    }
}

/// The cards of `seat`'s hand in `deal` that the view does not place there.
fn unplaced(view: &DalmutiView, deal: &DalmutiDeal, seat: usize) -> Cards {
    deal[seat].difference(view.known_held(seat))
}

#[test]
fn a_dalmuti_deals_its_peon_only_cards_the_tax_left_it() {
    let (mut bounded, mut unbounded_breaks) = (0, 0);
    for (view, hands) in views_and_hands() {
        let Some((peon, bound)) = view.tax_bound() else {
            continue;
        };
        bounded += 1;
        // The fact holds in the refereed hand the view was taken from.
        let truth = unplaced(&view, &hands, peon);
        assert_eq!(truth.no_better_than(bound), truth, "the referee's Peon");
        for seed in 0..16 {
            let deal = Dalmuti::deal(&view, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_consistent(&view, &deal);
            let drawn = unplaced(&view, &deal, peon);
            assert_eq!(drawn.no_better_than(bound), drawn, "seed {seed}: {view:?}");
            let plain =
                Dalmuti::deal_without_exchange_bound(&view, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_consistent(&view, &plain);
            let drawn = unplaced(&view, &plain, peon);
            unbounded_breaks += usize::from(drawn.no_better_than(bound) != drawn);
        }
    }
    assert!(bounded > 10, "{bounded} views of a Dalmuti with its taxes");
    assert!(unbounded_breaks > 0, "the bound excluded no deal");
}

#[test]
fn the_peons_cards_under_the_bound_are_uniform() {
    // Every unseen card within the bound is the Peon's with the same chance: its free
    // room over the cards within the bound.
    let (view, _) = views_and_hands()
        .into_iter()
        .find(|(view, _)| {
            view.tax_bound().is_some_and(|(peon, bound)| {
                let room = view.seats()[peon].card_count as u32 - view.known_held(peon).len();
                let within = view
                    .unseen()
                    .difference(view.known_held(peon))
                    .no_better_than(bound);
                room > 2
                    && within.len() > room + 4
                    && within.counts().iter().filter(|&&c| c > 0).count() >= 2
            })
        })
        .expect("a Dalmuti whose bound leaves choice");
    let (peon, bound) = view.tax_bound().unwrap();
    let within = view
        .unseen()
        .difference(view.known_held(peon))
        .no_better_than(bound);
    let room = f64::from(view.seats()[peon].card_count) - f64::from(view.known_held(peon).len());
    let p = room / f64::from(within.len());
    let draws = 4000;
    let mut held = [0u32; 13];
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    for _ in 0..draws {
        let deal = Dalmuti::deal(&view, &mut rng);
        for (h, c) in held.iter_mut().zip(unplaced(&view, &deal, peon).counts()) {
            *h += u32::from(c);
        }
    }
    for (i, (&got, copies)) in held.iter().zip(within.counts()).enumerate() {
        let expected = f64::from(draws) * f64::from(copies) * p;
        let sigma = (f64::from(draws) * f64::from(copies) * p * (1.0 - p)).sqrt();
        assert!(
            (f64::from(got) - expected).abs() <= 6.0 * sigma + 1e-9,
            "rank index {i}: {got} over {draws} deals, expected {expected:.0}"
        );
    }
}
