//! The simulation position against the referee: built from a seat's view and the true
//! hands at play-phase decision points of real games, it must offer the same decisions
//! to the same seats and end with the same places; and deals drawn from a view must
//! keep every public fact of it.

use climbot_core::bot::uniform_below;
use climbot_core::daifugo::Daifugo;
use climbot_core::daifugo::bots::{DaifugoDecision, easy, legal_decisions};
use climbot_core::daifugo::cards::CardSet;
use climbot_core::daifugo::position::{DaifugoDeal, DaifugoPosition};
use climbot_core::daifugo::referee::{GamePhase, Referee};
use climbot_core::daifugo::rules::RuleSet;
use climbot_core::daifugo::view::DaifugoView;
use climbot_core::game::{Simulation, determinize};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// A decision for the view: mostly uniform among the legal ones, sometimes the easy
/// bot's (which plays on more often than chance and so reaches other states).
fn choose(view: &DaifugoView, rng: &mut ChaCha8Rng) -> DaifugoDecision {
    if uniform_below(rng, 4) == 0 {
        return easy::decide(view);
    }
    let legal = legal_decisions(view);
    legal[uniform_below(rng, legal.len())]
}

/// A rule set off the presets: two jokers, J-back, passes that lapse at the next play,
/// sequence revolutions from four cards, empty-table passes and self-follow.
fn variant() -> RuleSet {
    RuleSet {
        jokers: 2,
        pass_locks_out: false,
        jack_back: true,
        sequence_revolution: Some(4),
        empty_table_pass: true,
        self_follow: true,
        ..RuleSet::house()
    }
}

/// What the side-by-side runs reached, so the test can insist on coverage.
#[derive(Default, Debug)]
struct Coverage {
    games: usize,
    branches: usize,
    steps: usize,
    fouls: usize,
    miyako: usize,
    branches_after_a_foul: usize,
    branches_after_miyako: usize,
}

/// Checks the position built from the view of the seat to act (with the referee's true
/// hands and discards as the deal) against a copy of the referee until the game ends.
fn side_by_side(referee: &Referee, rng: &mut ChaCha8Rng, coverage: &mut Coverage) {
    let seat = referee.to_act().expect("a seat to act");
    let view = referee.view(seat).expect("the referee's view is valid");
    let deal = DaifugoDeal::new(referee.hands(), referee.discarded());
    let mut position = Daifugo::position(&view, &deal).expect("a play-phase position");

    // The position read from the view is the referee's own play-phase state (the owner
    // of an empty table is not part of the state).
    let truth = referee.position();
    assert_eq!(position.hands(), truth.hands());
    assert_eq!(position.trick(), truth.trick());
    if truth.trick().table.is_some() {
        assert_eq!(position.owner(), truth.owner());
    }
    assert_eq!(position.played(), truth.played());
    assert_eq!(position.discarded(), truth.discarded());
    for s in 0..referee.players() {
        assert_eq!(position.is_out(s), truth.is_out(s), "seat {s} out");
        assert_eq!(
            position.has_passed(s),
            truth.has_passed(s),
            "seat {s} passed"
        );
    }
    assert_eq!(position.finishers(), truth.finishers(), "{view:?}");
    assert_eq!(position.fouls(), truth.fouls(), "{view:?}");
    assert_eq!(position.miyako_ochi(), truth.miyako_ochi(), "{view:?}");
    coverage.branches += 1;
    coverage.branches_after_a_foul += usize::from(!truth.fouls().is_empty());
    coverage.branches_after_miyako += usize::from(truth.miyako_ochi().is_some());

    let mut referee = referee.clone();
    let mut buffer = Vec::new();
    loop {
        let to_act = referee.to_act();
        assert_eq!(Daifugo::to_act(&position), to_act);
        assert_eq!(Daifugo::is_over(&position), to_act.is_none());
        let Some(seat) = to_act else { break };
        let view = referee.view(seat).expect("the referee's view is valid");
        Daifugo::legal_actions(&position, &mut buffer);
        assert_eq!(buffer, legal_decisions(&view), "{view:?}");
        let decision = choose(&view, rng);
        Daifugo::apply(&mut position, decision);
        referee.apply(seat, &decision).expect("a legal decision");
        coverage.steps += 1;
    }
    assert_eq!(referee.phase(), GamePhase::Over);
    let result = referee.result().expect("the game ended");
    for s in 0..referee.players() {
        assert_eq!(
            Daifugo::outcome(&position, s),
            result.place_of(s) as f64,
            "seat {s}: {result:?}"
        );
    }
    Daifugo::legal_actions(&position, &mut buffer);
    assert!(buffer.is_empty());
}

/// Plays `matches` matches of `games` games for every player count from 3 to 6,
/// branching off a side-by-side check at about one play-phase decision in `every`.
fn run(rules: RuleSet, seed: u64, matches: u64, games: u32, every: usize) -> Coverage {
    let mut coverage = Coverage::default();
    for players in 3..=6 {
        for m in 0..matches {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((players as u64) << 32) ^ m);
            let mut referee = Referee::new(rules, players).expect("a valid setup");
            for _ in 0..games {
                referee.start_game(&mut rng);
                coverage.games += 1;
                while let Some(seat) = referee.to_act() {
                    if referee.phase() == GamePhase::Play && uniform_below(&mut rng, every) == 0 {
                        side_by_side(&referee, &mut rng, &mut coverage);
                    }
                    let view = referee.view(seat).expect("the referee's view is valid");
                    let decision = choose(&view, &mut rng);
                    referee.apply(seat, &decision).expect("a legal decision");
                }
                let result = referee.result().expect("the game ended");
                coverage.fouls += result.fouls.len();
                coverage.miyako += usize::from(result.miyako_ochi.is_some());
            }
        }
    }
    coverage
}

#[test]
fn position_follows_the_referee_under_house_rules() {
    let c = run(RuleSet::house(), 11, 40, 5, 30);
    assert!(c.games >= 800 && c.branches >= 800, "{c:?}");
    assert!(
        c.branches_after_a_foul > 0 && c.branches_after_miyako > 0,
        "{c:?}"
    );
}

#[test]
fn position_follows_the_referee_under_uecda_rules() {
    let c = run(RuleSet::uecda(), 12, 40, 5, 30);
    assert!(c.games >= 800 && c.branches >= 800, "{c:?}");
}

#[test]
fn position_follows_the_referee_under_a_variant() {
    let c = run(variant(), 13, 12, 5, 30);
    assert!(c.games >= 240 && c.branches >= 240, "{c:?}");
    assert!(
        c.branches_after_a_foul > 0 && c.branches_after_miyako > 0,
        "{c:?}"
    );
}

/// The legal play of the seat to act with exactly these cards, applied.
fn play_cards(referee: &mut Referee, cards: &str) {
    let cards = CardSet::parse(cards).expect("card names");
    let seat = referee.to_act().expect("a seat to act");
    let view = referee.view(seat).expect("valid");
    let decision = legal_decisions(&view)
        .into_iter()
        .find(|d| matches!(d, DaifugoDecision::Play(p) if p.cards() == cards))
        .expect("the play is legal");
    referee.apply(seat, &decision).expect("legal");
}

fn pass(referee: &mut Referee) {
    let seat = referee.to_act().expect("a seat to act");
    referee.apply(seat, &DaifugoDecision::Pass).expect("legal");
}

/// Seat 0 of three starts a revolution with four 5s and goes out with `last` after
/// `before`; whether that finish is a foul depends on the revolution, which the view's
/// log shows only as card sets.
fn finish_in_revolution(before: &str, last: &str) -> Referee {
    let first = CardSet::parse("♦3 ♠5 ♥5 ♦5 ♣5 ♠2").expect("card names");
    let mut hands = vec![first, CardSet::EMPTY, CardSet::EMPTY];
    for (i, card) in CardSet::deck(1).difference(first).iter().enumerate() {
        hands[1 + i % 2].insert(card);
    }
    let mut referee = Referee::new(RuleSet::house(), 3).expect("valid");
    referee.start_game_with_hands(hands).expect("a full deal");
    for cards in ["♠5 ♥5 ♦5 ♣5", before, last] {
        play_cards(&mut referee, cards);
        if cards != last {
            pass(&mut referee);
            pass(&mut referee);
        }
    }
    assert!(referee.trick().revolution && referee.out()[0]);
    referee
}

#[test]
fn finishes_after_a_revolution_are_read_from_the_log() {
    let legal = finish_in_revolution("♦3", "♠2");
    assert_eq!(legal.position().finishers().to_vec(), [0]);
    let foul = finish_in_revolution("♠2", "♦3");
    assert_eq!(foul.position().fouls().to_vec(), [0]);
    let mut coverage = Coverage::default();
    for (i, referee) in [legal, foul].iter().enumerate() {
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(100 * i as u64 + seed);
            side_by_side(referee, &mut rng, &mut coverage);
        }
    }
    assert_eq!(coverage.branches, 40);
}

/// Play-phase views of every seat (not only the seat to act) from real games.
fn sample_views(rules: RuleSet, seed: u64) -> Vec<(DaifugoView, Referee)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for players in 3..=6 {
        let mut referee = Referee::new(rules, players).expect("a valid setup");
        for _ in 0..6 {
            referee.start_game(&mut rng);
            while let Some(seat) = referee.to_act() {
                if referee.phase() == GamePhase::Play && uniform_below(&mut rng, 5) == 0 {
                    out.push((referee.view(seat).expect("valid"), referee.clone()));
                }
                let view = referee.view(seat).expect("valid");
                let decision = choose(&view, &mut rng);
                referee.apply(seat, &decision).expect("a legal decision");
            }
        }
    }
    out
}

/// Every public fact of the view holds in the deal.
fn assert_consistent(view: &DaifugoView, deal: &DaifugoDeal) {
    let hands = deal.hands();
    assert_eq!(hands.len(), view.seats().len());
    assert_eq!(hands[view.seat()], view.hand(), "own hand kept");
    let unseen = view.unseen();
    let mut hidden = deal.removed();
    assert_eq!(deal.removed().len(), view.removed_unseen(), "removed count");
    for (s, seat) in view.seats().iter().enumerate() {
        assert_eq!(hands[s].len(), seat.card_count, "seat {s} count");
        if seat.finished {
            assert!(hands[s].is_empty());
        }
        if s != view.seat() {
            assert!(hands[s].is_disjoint(hidden), "seat {s} shares a card");
            hidden = hidden.union(hands[s]);
        }
    }
    assert_eq!(
        hidden, unseen,
        "the hidden cards are exactly the unseen ones"
    );
}

#[test]
fn deals_keep_every_public_fact_of_the_view() {
    let mut removed_seen = 0;
    let mut views = 0;
    for rules in [RuleSet::house(), RuleSet::uecda(), variant()] {
        for (view, referee) in sample_views(rules, 21) {
            views += 1;
            removed_seen += usize::from(view.removed_unseen() > 0);
            let mut rng = ChaCha8Rng::seed_from_u64(view.fingerprint());
            let mut differs = false;
            let first = Daifugo::deal(&view, &mut rng);
            for _ in 0..8 {
                let deal = Daifugo::deal(&view, &mut rng);
                assert_consistent(&view, &deal);
                differs |= deal != first;
                // The position of any consistent deal offers the view's own decisions.
                let position = Daifugo::position(&view, &deal).expect("play phase");
                let mut buffer = Vec::new();
                Daifugo::legal_actions(&position, &mut buffer);
                assert_eq!(Daifugo::to_act(&position), Some(view.seat()));
                assert_eq!(buffer, legal_decisions(&view));
                assert_eq!(
                    position.finishers(),
                    referee.position().finishers(),
                    "public history"
                );
                assert_eq!(position.fouls(), referee.position().fouls());
            }
            // Some hidden cards can move unless a single seat holds them all (the cards
            // the seat gave in the exchange are known, not hidden).
            let holders = (0..view.seats().len())
                .filter(|&s| {
                    s != view.seat() && view.seats()[s].card_count > view.known_held(s).len()
                })
                .count()
                + usize::from(view.removed_unseen() > 0);
            if holders >= 2 {
                // With three hidden cards there are only three deals: draw more before
                // calling them all alike.
                for _ in 0..24 {
                    differs |= Daifugo::deal(&view, &mut rng) != first;
                }
                assert!(differs, "32 deals were all alike: {view:?}");
            }
            // Deterministic for a seed.
            let a = Daifugo::deal(&view, &mut ChaCha8Rng::seed_from_u64(5));
            let b = Daifugo::deal(&view, &mut ChaCha8Rng::seed_from_u64(5));
            assert_eq!(a, b);
        }
    }
    assert!(views > 300, "{views} views");
    assert!(removed_seen > 0, "no view after a miyako-ochi");
}

#[test]
fn deals_spread_a_hidden_card_in_proportion_to_the_counts() {
    // A view with hidden cards in three hands and a removed set.
    let (view, _) = sample_views(RuleSet::house(), 22)
        .into_iter()
        .find(|(v, _)| {
            v.removed_unseen() > 0
                && v.seats()
                    .iter()
                    .enumerate()
                    .filter(|(s, seat)| *s != v.seat() && seat.card_count > 0)
                    .count()
                    >= 2
        })
        .expect("a view after a miyako-ochi with two other hands");
    let card = view.unseen().first().expect("an unseen card");
    let unseen = view.unseen().len() as f64;
    let draws = 6000;
    let mut counts = vec![0usize; view.seats().len() + 1];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..draws {
        let deal = Daifugo::deal(&view, &mut rng);
        let holder = deal.hands().iter().position(|h| h.contains(card));
        counts[holder.unwrap_or(view.seats().len())] += 1;
    }
    let mut expected: Vec<f64> = view
        .seats()
        .iter()
        .enumerate()
        .map(|(s, seat)| {
            if s == view.seat() {
                0.0
            } else {
                seat.card_count as f64 / unseen
            }
        })
        .collect();
    expected.push(view.removed_unseen() as f64 / unseen);
    for (i, (&got, p)) in counts.iter().zip(&expected).enumerate() {
        let mean = p * draws as f64;
        let sd = (draws as f64 * p * (1.0 - p)).sqrt();
        assert!(
            (got as f64 - mean).abs() <= 5.0 * sd + 1.0,
            "holder {i}: {got} draws, {mean:.0} expected ({counts:?})"
        );
    }
}

#[test]
fn determinize_with_a_hook_rejecting_everything_still_deals_consistently() {
    let views = sample_views(RuleSet::house(), 23);
    for (view, _) in views.iter().step_by(7) {
        let mut rng = ChaCha8Rng::seed_from_u64(view.fingerprint());
        let deal = determinize::<Daifugo>(view, &mut rng, &|_| 0.0, 4);
        assert_consistent(view, &deal);
        let again = determinize::<Daifugo>(
            view,
            &mut ChaCha8Rng::seed_from_u64(view.fingerprint()),
            &|_| 0.0,
            4,
        );
        assert_eq!(deal, again);
    }
}

#[test]
fn the_exchange_has_no_position_and_positions_are_small() {
    let mut referee = Referee::new(RuleSet::house(), 4).expect("valid");
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    referee.start_game(&mut rng);
    while let Some(seat) = referee.to_act() {
        let view = referee.view(seat).expect("valid");
        let decision = choose(&view, &mut rng);
        referee.apply(seat, &decision).expect("legal");
    }
    referee.start_game(&mut rng);
    assert_eq!(referee.phase(), GamePhase::Exchange);
    let seat = referee.to_act().expect("a giver");
    let view = referee.view(seat).expect("valid");
    let deal = Daifugo::deal(&view, &mut rng);
    assert_consistent(&view, &deal);
    assert!(Daifugo::position(&view, &deal).is_none());
    // Fixed-size and heap-free: a search copies one per iteration.
    assert!(std::mem::size_of::<DaifugoPosition>() <= 256);
}

#[test]
fn the_tribute_receiver_deals_its_partner_only_cards_the_tribute_left_it() {
    let (mut bounded, mut unbounded_breaks) = (0, 0);
    for rules in [RuleSet::house(), RuleSet::uecda(), variant()] {
        for (view, referee) in sample_views(rules, 23) {
            let Some((partner, allowed)) = view.exchange_bound() else {
                continue;
            };
            bounded += 1;
            let known = view.known_held(partner);
            // The fact holds in the refereed hand the view was taken from.
            let truth = referee.hands()[partner].difference(known);
            assert!(truth.is_subset(allowed), "the referee's partner");
            for seed in 0..16 {
                let deal = Daifugo::deal(&view, &mut ChaCha8Rng::seed_from_u64(seed));
                assert_consistent(&view, &deal);
                assert!(deal.hands()[partner].difference(known).is_subset(allowed));
                let plain = Daifugo::deal_without_exchange_bound(
                    &view,
                    &mut ChaCha8Rng::seed_from_u64(seed),
                );
                assert_consistent(&view, &plain);
                unbounded_breaks +=
                    usize::from(!plain.hands()[partner].difference(known).is_subset(allowed));
            }
        }
    }
    assert!(bounded > 10, "{bounded} views of a tribute receiver");
    assert!(unbounded_breaks > 0, "the bound excluded no deal");
}

#[test]
fn the_partners_cards_under_the_bound_are_uniform() {
    // Every hidden card within the bound is the partner's with the same chance: its
    // free room over the hidden cards within the bound.
    let within = |view: &DaifugoView| {
        let (partner, allowed) = view.exchange_bound()?;
        let known = view.known_held(partner);
        let room = view.seats()[partner].card_count - known.len();
        Some((
            partner,
            room,
            view.unseen().difference(known).intersection(allowed),
        ))
    };
    let (view, _) = sample_views(RuleSet::house(), 24)
        .into_iter()
        .find(|(view, _)| {
            within(view).is_some_and(|(_, room, cards)| room > 2 && cards.len() > room + 4)
        })
        .expect("a tribute receiver whose bound leaves choice");
    let (partner, room, cards) = within(&view).unwrap();
    let p = room as f64 / cards.len() as f64;
    let draws = 4000;
    let mut held = [0u32; 54];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..draws {
        let deal = Daifugo::deal(&view, &mut rng);
        for card in deal.hands()[partner].iter() {
            held[usize::from(card.id())] += 1;
        }
    }
    let sigma = (f64::from(draws) * p * (1.0 - p)).sqrt();
    for card in cards.iter() {
        let got = f64::from(held[usize::from(card.id())]);
        let expected = f64::from(draws) * p;
        assert!(
            (got - expected).abs() <= 6.0 * sigma,
            "{card:?}: {got} over {draws} deals, expected {expected:.0}"
        );
    }
}
