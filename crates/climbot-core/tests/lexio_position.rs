//! The Lexio search seam against the referee: a position built from the referee's view
//! of the seat to act and the true hands plays on exactly like the referee (same seat
//! to act, same legal actions in the same order, same settlement), and sampled deals
//! respect every public fact of the view.

use climbot_core::bot::{DecisionContext, uniform_below};
use climbot_core::game::{Game, Policy, Simulation, determinize};
use climbot_core::lexio::bots::EasyBot;
use climbot_core::lexio::referee::{Round, deal};
use climbot_core::lexio::{Action, Lexio, LexioView, PlayerCount, TileSet};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

const GAMES: u64 = 10_000;

fn player_count(rng: &mut ChaCha8Rng) -> PlayerCount {
    PlayerCount::ALL[uniform_below(rng, PlayerCount::ALL.len())]
}

fn true_hands(round: &Round) -> [TileSet; 5] {
    let mut hands = [TileSet::EMPTY; 5];
    for (s, h) in hands.iter_mut().enumerate().take(round.players().count()) {
        *h = round.hand(s);
    }
    hands
}

/// A decision for `view`: uniformly among the legal ones, or the easy bot's.
fn decide(view: &LexioView, easy: bool, rng: &mut ChaCha8Rng) -> Action {
    if easy {
        let seed = uniform_below(rng, 1 << 20) as u64;
        EasyBot.decide(view, &mut DecisionContext::unbounded(seed))
    } else {
        let legal = Lexio::legal_decisions(view);
        legal[uniform_below(rng, legal.len())]
    }
}

/// Plays the referee `steps` decisions from a fresh round (fewer if it ends).
fn advance(round: &mut Round, steps: usize, easy: bool, rng: &mut ChaCha8Rng) {
    for _ in 0..steps {
        if round.winner().is_some() {
            return;
        }
        let view = round.view().expect("referee views are valid");
        let action = decide(&view, easy, rng);
        round.apply(action).expect("a legal action");
    }
}

/// One game: the referee plays to a random decision point, then the referee and the
/// position built there continue side by side. Returns the steps compared.
fn side_by_side(seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let players = player_count(&mut rng);
    let easy = uniform_below(&mut rng, 2) == 0;
    let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
    let start = uniform_below(&mut rng, 40);
    advance(&mut round, start, easy, &mut rng);
    if round.winner().is_some() {
        return 0;
    }
    let view = round.view().unwrap();
    let mut position = Lexio::position(&view, &true_hands(&round)).expect("a position");
    let mut buffer = Vec::new();
    let mut steps = 0;
    while round.winner().is_none() {
        let view = round.view().unwrap();
        assert_eq!(
            Lexio::to_act(&position),
            Some(round.to_act()),
            "seed {seed}"
        );
        assert!(!Lexio::is_over(&position));
        assert_eq!(
            Lexio::position(&view, &true_hands(&round)),
            Some(position),
            "seed {seed}: the position rebuilt from the view differs from the one played on"
        );
        Lexio::legal_actions(&position, &mut buffer);
        assert_eq!(buffer, Lexio::legal_decisions(&view), "seed {seed}");
        let action = decide(&view, easy, &mut rng);
        round.apply(action).unwrap();
        Lexio::apply(&mut position, action);
        steps += 1;
    }
    assert_eq!(Lexio::to_act(&position), None, "seed {seed}");
    assert!(Lexio::is_over(&position));
    Lexio::legal_actions(&position, &mut buffer);
    assert!(buffer.is_empty());
    let result = round.result().unwrap();
    for s in 0..players.count() {
        assert_eq!(
            Lexio::outcome(&position, s),
            result.net[s] as f64,
            "seed {seed}, seat {s}"
        );
    }
    steps
}

#[test]
fn positions_play_on_exactly_like_the_referee() {
    let steps: usize = (0..GAMES).map(side_by_side).sum();
    assert!(steps > GAMES as usize * 5, "only {steps} steps compared");
}

#[test]
fn a_position_from_the_opening_view_plays_a_whole_round() {
    for seed in 0..200 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let players = player_count(&mut rng);
        let hands = deal(players, seed);
        let mut round = Round::new(players, hands, 1, [0; 5]);
        let mut position = Lexio::position(&round.view().unwrap(), &hands).unwrap();
        assert_eq!(&position, round.position());
        advance(&mut round, usize::MAX, true, &mut rng.clone());
        let mut rng2 = rng;
        while let Some(seat) = Lexio::to_act(&position) {
            let view = position_view(&position, seat);
            let action = decide(&view, true, &mut rng2);
            Lexio::apply(&mut position, action);
        }
        assert_eq!(position.winner(), round.winner(), "seed {seed}");
        assert_eq!(position.hands(), round.position().hands(), "seed {seed}");
    }
}

/// The view of `seat` in `position` without a log (the easy bot needs only the hand
/// and the table).
fn position_view(
    position: &climbot_core::lexio::position::LexioPosition,
    seat: usize,
) -> LexioView {
    let mut counts = [0u8; 5];
    for (s, c) in counts
        .iter_mut()
        .enumerate()
        .take(position.players().count())
    {
        *c = position.hand(s).len() as u8;
    }
    LexioView::from_parts(climbot_core::lexio::ViewParts {
        players: position.players(),
        seat,
        hand: position.hand(seat),
        table: position.trick(),
        counts,
        played: position.played(),
        log: Vec::new(),
        round: 1,
        scores: [0; 5],
    })
    .unwrap()
}

/// Mid-round views of refereed games, one per seed.
fn mid_round_views() -> Vec<LexioView> {
    let mut views = Vec::new();
    for seed in 0..60 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let players = player_count(&mut rng);
        let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
        let start = uniform_below(&mut rng, 30);
        advance(&mut round, start, seed % 2 == 0, &mut rng);
        if round.winner().is_none() {
            views.push(round.view().unwrap());
        }
    }
    assert!(views.len() > 40);
    views
}

/// Every public fact of the view holds in the deal.
fn assert_consistent(view: &LexioView, deal: &[TileSet; 5]) {
    let p = view.players().count();
    let me = view.seat();
    assert_eq!(deal[me], view.hand(), "own hand kept");
    let mut others = TileSet::EMPTY;
    for (s, &hand) in deal.iter().enumerate() {
        if s >= p {
            assert!(hand.is_empty(), "seat {s} does not play");
            continue;
        }
        assert_eq!(hand.len(), view.tile_count(s), "seat {s}'s count");
        if s != me {
            assert!(others.is_disjoint(hand), "a tile dealt twice");
            others = others.union(hand);
        }
    }
    assert_eq!(
        others,
        view.unseen(),
        "the hidden tiles are the unseen ones"
    );
}

#[test]
fn deals_respect_the_view_and_follow_the_seed() {
    for view in mid_round_views() {
        let deals: Vec<[TileSet; 5]> = (0..16)
            .map(|seed| Lexio::deal(&view, &mut ChaCha8Rng::seed_from_u64(seed)))
            .collect();
        for deal in &deals {
            assert_consistent(&view, deal);
        }
        let again = Lexio::deal(&view, &mut ChaCha8Rng::seed_from_u64(3));
        assert_eq!(again, deals[3], "the same seed deals the same");
        // Every other seat holds a tile mid-round, so at least two deals are possible.
        assert!(
            deals.iter().any(|d| *d != deals[0]),
            "16 seeds dealt the same hands"
        );
    }
}

#[test]
fn determinize_with_a_hook_that_rejects_everything_still_deals_consistently() {
    for view in mid_round_views() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let deal = determinize::<Lexio>(&view, &mut rng, &|_| 0.0, 5);
        assert_consistent(&view, &deal);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let again = determinize::<Lexio>(&view, &mut rng, &|_| 0.0, 5);
        assert_eq!(deal, again);
    }
}

#[test]
fn each_unseen_tile_lands_with_a_seat_in_proportion_to_its_count() {
    let view = mid_round_views()
        .into_iter()
        .find(|v| v.players() == PlayerCount::Five)
        .expect("a 5-player view");
    let me = view.seat();
    let tile = view.unseen().lowest().unwrap();
    let unseen = view.unseen().len() as f64;
    let n = 4000;
    let mut landed = [0u32; 5];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..n {
        let deal = Lexio::deal(&view, &mut rng);
        let seat = (0..5).find(|&s| deal[s].contains(tile)).unwrap();
        landed[seat] += 1;
    }
    assert_eq!(landed[me], 0);
    for s in (0..5).filter(|&s| s != me) {
        let p = view.tile_count(s) as f64 / unseen;
        let expected = n as f64 * p;
        let sigma = (n as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (f64::from(landed[s]) - expected).abs() < 5.0 * sigma + 1.0,
            "seat {s}: {} of {n}, expected {expected:.0}",
            landed[s]
        );
    }
}
