//! Golden scenarios for The Great Dalmuti, played through the referee with hand-built
//! deals: comparison, re-entry after a pass, the lead after a player goes out, both
//! revolutions, taxes and scoring.

use climbot_core::dalmuti::Dalmuti;
use climbot_core::dalmuti::bots::easy::EasyBot;
use climbot_core::dalmuti::referee::{HandState, pending_tax, play_hand};
use climbot_core::dalmuti::turn::{Action, Title, points_for_place};
use climbot_core::dalmuti::view::{Phase, Revolution};
use climbot_core::dalmuti::{Cards, DalmutiDecision, Play, Rank, legal_decisions};
use climbot_core::game::Policy;

fn r(n: u8) -> Rank {
    Rank::new(n).unwrap()
}

fn p(rank: u8, naturals: u8, jesters: u8) -> Play {
    Play::new(r(rank), naturals, jesters).unwrap()
}

/// Cards from `(rank, count)` pairs; rank 13 = Jesters.
fn cards(spec: &[(u8, u8)]) -> Cards {
    spec.iter()
        .fold(Cards::EMPTY, |c, &(rank, n)| c.with(r(rank), n))
}

/// Four hands of 20: the first three as given, the last gets the rest of the deck.
fn four(a: &[(u8, u8)], b: &[(u8, u8)], c: &[(u8, u8)]) -> Vec<Cards> {
    let (a, b, c) = (cards(a), cards(b), cards(c));
    let d = Cards::FULL_DECK.difference(a).difference(b).difference(c);
    let hands = vec![a, b, c, d];
    assert!(hands.iter().all(|h| h.len() == 20), "{hands:?}");
    hands
}

fn state(hands: &[Cards], hand_number: u32) -> HandState {
    let n = hands.len();
    HandState::new(
        hands,
        &(0..n).collect::<Vec<_>>(),
        &vec![0; n],
        hand_number,
        20 - hand_number,
    )
}

fn act(s: &mut HandState, d: DalmutiDecision) {
    s.apply(d, "test").unwrap_or_else(|e| panic!("{e}"));
}

fn play(s: &mut HandState, seat: usize, pl: Play) {
    assert_eq!(
        s.to_act(),
        Some((seat, Phase::Play)),
        "seat {seat} to play {pl:?}"
    );
    act(s, DalmutiDecision::Play(pl));
}

fn pass(s: &mut HandState, seat: usize) {
    assert_eq!(s.to_act(), Some((seat, Phase::Play)), "seat {seat} to pass");
    act(s, DalmutiDecision::Pass);
}

#[test]
fn comparison_with_and_without_jesters() {
    // Jesters as wild copies take the natural's rank; alone they are rank 13.
    assert!(p(4, 1, 1).beats(p(5, 2, 0)));
    assert!(p(4, 2, 0).beats(p(5, 1, 1)));
    assert!(!p(5, 1, 1).beats(p(5, 2, 0)), "same rank never beats");
    assert!(p(12, 1, 0).beats(Play::new(Rank::JESTER, 0, 1).unwrap()));
    assert!(p(12, 1, 1).beats(Play::new(Rank::JESTER, 0, 2).unwrap()));
    assert!(!Play::new(Rank::JESTER, 0, 2).unwrap().beats(p(12, 2, 0)));
    assert!(!p(1, 1, 1).beats(p(12, 3, 0)), "sizes differ");
}

/// Seat 0: twelve 12s and eight 11s. Seat 1 and 2 hold 10..6 spread thin (seat 2 also
/// the single 1), seat 3 the rest with both Jesters; nobody can beat 8 cards.
fn going_out_deal() -> Vec<Cards> {
    four(
        &[(12, 12), (11, 8)],
        &[(10, 5), (9, 5), (8, 4), (7, 3), (6, 3)],
        &[(10, 5), (9, 4), (8, 4), (7, 4), (6, 2), (1, 1)],
    )
}

#[test]
fn lead_after_going_out_and_re_entry_after_a_pass() {
    let deal = going_out_deal();
    assert_eq!(
        deal[3],
        cards(&[(11, 3), (6, 1), (5, 5), (4, 4), (3, 3), (2, 2), (13, 2)])
    );
    let mut s = state(&deal, 1);
    // Seat 3 (the GP) holds both Jesters and is asked first; it declines.
    assert_eq!(s.to_act(), Some((3, Phase::Revolution)));
    act(&mut s, DalmutiDecision::Revolution(false));
    // Hand 1: no taxes; the GD leads.
    play(&mut s, 0, p(12, 12, 0));
    pass(&mut s, 1);
    pass(&mut s, 2);
    pass(&mut s, 3);
    // Everybody else passed: the last player to play leads again.
    play(&mut s, 0, p(11, 8, 0));
    assert_eq!(s.hand(0), Cards::EMPTY);
    assert_eq!(s.score(0), 4, "first out of 4 scores 4");
    pass(&mut s, 1);
    pass(&mut s, 2);
    pass(&mut s, 3);
    // Seat 0 went out: the lead goes to the next seat clockwise with cards.
    assert_eq!(s.to_act(), Some((1, Phase::Play)));
    assert_eq!(s.view().unwrap().unwrap().table(), None);
    // Re-entry: seat 2 passes on the 10, then beats seat 3's 5 with its 1.
    play(&mut s, 1, p(10, 1, 0));
    pass(&mut s, 2);
    play(&mut s, 3, p(5, 1, 0));
    pass(&mut s, 1);
    let v = s.view().unwrap().unwrap();
    assert!(legal_decisions(&v).contains(&DalmutiDecision::Play(p(1, 1, 0))));
    play(&mut s, 2, p(1, 1, 0));
    pass(&mut s, 3);
    pass(&mut s, 1);
    assert_eq!(s.to_act(), Some((2, Phase::Play)));
    assert_eq!(
        s.log()
            .iter()
            .filter(|e| e.seat == 2 && e.action == Action::Pass)
            .count(),
        3,
        "seat 2 passed on the 12s, the 11s and the 10, and still played the 1"
    );
    // Finish with easy bots and check the scores: 4 + 3 + 2 + 1.
    let easy: &dyn Policy<Dalmuti> = &EasyBot;
    let result = play_hand(s, &[easy; 4], 9).unwrap();
    assert_eq!(result.finishing_order[0], 0);
    assert_eq!(
        result.points.iter().sum::<u32>(),
        4 + 3 + 2 + 1 - 4,
        "seat 0 scored before"
    );
    let mut by_place: Vec<u32> = result.finishing_order[1..]
        .iter()
        .map(|&pl| result.points[pl])
        .collect();
    by_place.sort_unstable();
    assert_eq!(by_place, vec![1, 2, 3]);
}

#[test]
fn greater_revolution_mirrors_seats_and_skips_taxes() {
    let deal = going_out_deal();
    let mut s = state(&deal, 2);
    assert_eq!(s.to_act(), Some((3, Phase::Revolution)));
    let v = s.view().unwrap().unwrap();
    assert_eq!(v.title(), Title::GreaterPeon);
    assert_eq!(EasyBot.name(), "easy");
    act(&mut s, DalmutiDecision::Revolution(true));
    assert_eq!(
        s.revolution(),
        Some(Revolution {
            seat: 0,
            greater: true
        })
    );
    // Titles mirror: the old GP (player 3) is the GD at seat 0 with its own hand.
    let players: Vec<usize> = (0..4).map(|x| s.player_at(x)).collect();
    assert_eq!(players, vec![3, 2, 1, 0]);
    for seat in 0..4 {
        assert_eq!(s.hand(seat), deal[3 - seat], "no taxes moved any card");
    }
    assert_eq!(s.gifts(), [Cards::EMPTY; 2]);
    // The new GD leads; its view records the revolution.
    assert_eq!(s.to_act(), Some((0, Phase::Play)));
    let v = s.view().unwrap().unwrap();
    assert_eq!(
        v.revolution(),
        Some(Revolution {
            seat: 0,
            greater: true
        })
    );
}

#[test]
fn revolution_by_the_lesser_peon_cancels_taxes_and_keeps_titles() {
    // The LP (seat 2) holds both Jesters this time.
    let deal = four(
        &[(12, 12), (11, 8)],
        &[(10, 5), (9, 5), (8, 4), (7, 3), (6, 3)],
        &[(10, 5), (9, 4), (8, 4), (7, 3), (6, 2), (13, 2)],
    );
    let mut s = state(&deal, 2);
    assert_eq!(s.to_act(), Some((2, Phase::Revolution)));
    let v = s.view().unwrap().unwrap();
    assert_eq!(
        EasyBot.decide(&v, &mut climbot_core::bot::DecisionContext::unbounded(0)),
        DalmutiDecision::Revolution(true)
    );
    act(&mut s, DalmutiDecision::Revolution(true));
    assert_eq!(
        s.revolution(),
        Some(Revolution {
            seat: 2,
            greater: false
        })
    );
    assert_eq!(
        (0..4).map(|x| s.player_at(x)).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    for (seat, &dealt) in deal.iter().enumerate() {
        assert_eq!(s.hand(seat), dealt);
    }
    assert_eq!(s.to_act(), Some((0, Phase::Play)));
    // In hand 1 the same LP would not declare.
    let s1 = state(&deal, 1);
    let v1 = s1.view().unwrap().unwrap();
    assert_eq!(
        EasyBot.decide(&v1, &mut climbot_core::bot::DecisionContext::unbounded(0)),
        DalmutiDecision::Revolution(false)
    );
}

#[test]
fn taxes_move_the_best_cards_and_the_easy_returns() {
    let gd = cards(&[(7, 2), (6, 6), (5, 5), (4, 4), (3, 2), (2, 1)]);
    let ld = cards(&[(9, 7), (8, 8), (7, 5)]);
    let lp = cards(&[(12, 10), (11, 8), (13, 1), (3, 1)]);
    let gp = Cards::FULL_DECK
        .difference(gd)
        .difference(ld)
        .difference(lp);
    assert_eq!(
        gp,
        cards(&[(12, 2), (11, 3), (10, 10), (9, 2), (2, 1), (1, 1), (13, 1)])
    );
    let mut s = state(&[gd, ld, lp, gp], 2);
    // Gifts: the GP's two best (1 and 2; its Jester counts as 13 and stays), the LP's
    // best (a 3; its Jester stays too).
    assert_eq!(s.gifts(), [cards(&[(1, 1), (2, 1)]), cards(&[(3, 1)])]);
    assert_eq!(s.to_act(), Some((0, Phase::TaxReturn)));
    assert_eq!(pending_tax(&s).map(|t| (t.count, t.to)), Some((2, 3)));
    let v = s.view().unwrap().unwrap();
    assert_eq!(v.hand(), gd.union(cards(&[(1, 1), (2, 1)])));
    // Every 2-card multiset of the GD's 22 cards over 7 distinct ranks (1..7): two
    // different ranks C(7,2) = 21, plus a pair of one rank for the 6 ranks held twice
    // or more (2, 3, 4, 5, 6, 7; the 2 received makes two 2s) = 27.
    assert_eq!(legal_decisions(&v).len(), 27);
    let easy = EasyBot.decide(&v, &mut climbot_core::bot::DecisionContext::unbounded(0));
    assert_eq!(easy, DalmutiDecision::TaxReturn(cards(&[(7, 2)])));
    act(&mut s, easy);
    assert_eq!(pending_tax(&s).map(|t| (t.count, t.to)), Some((1, 2)));
    let v = s.view().unwrap().unwrap();
    let easy = EasyBot.decide(&v, &mut climbot_core::bot::DecisionContext::unbounded(0));
    assert_eq!(easy, DalmutiDecision::TaxReturn(cards(&[(9, 1)])));
    act(&mut s, easy);
    assert_eq!(
        s.hand(0),
        gd.union(cards(&[(1, 1), (2, 1)]))
            .difference(cards(&[(7, 2)]))
    );
    assert_eq!(
        s.hand(1),
        ld.union(cards(&[(3, 1)])).difference(cards(&[(9, 1)]))
    );
    assert_eq!(
        s.hand(2),
        lp.difference(cards(&[(3, 1)])).union(cards(&[(9, 1)]))
    );
    assert_eq!(
        s.hand(3),
        gp.difference(cards(&[(1, 1), (2, 1)]))
            .union(cards(&[(7, 2)]))
    );
    assert_eq!(s.to_act(), Some((0, Phase::Play)));
    // Returning a card just received is allowed.
    let mut t = state(&[gd, ld, lp, gp], 2);
    act(&mut t, DalmutiDecision::TaxReturn(cards(&[(1, 1), (2, 1)])));
    assert_eq!(t.hand(3), gp);
    // Returning the wrong number of cards is refused.
    let mut u = state(&[gd, ld, lp, gp], 2);
    assert!(
        u.apply(DalmutiDecision::TaxReturn(cards(&[(7, 1)])), "test")
            .is_err()
    );
    assert!(u.apply(DalmutiDecision::Pass, "test").is_err());
}

#[test]
fn scoring_is_players_still_holding_cards() {
    assert_eq!(
        (1..=6).map(|k| points_for_place(k, 6)).collect::<Vec<_>>(),
        vec![6, 5, 4, 3, 2, 1]
    );
    let easy: &dyn Policy<Dalmuti> = &EasyBot;
    let m = climbot_core::dalmuti::referee::play_match(&[easy; 5], 3, 11).unwrap();
    for h in &m.hands {
        let mut pts: Vec<u32> = h.finishing_order.iter().map(|&pl| h.points[pl]).collect();
        assert_eq!(pts, vec![5, 4, 3, 2, 1]);
        pts.clear();
    }
    // Titles carry: each hand is seated in the previous hand's finishing order
    // (unless a Greater Revolution mirrored it).
    for w in m.hands.windows(2) {
        let expected = &w[0].finishing_order;
        match w[1].revolution {
            Some(Revolution { greater: true, .. }) => {
                let mirrored: Vec<usize> = expected.iter().rev().copied().collect();
                assert_eq!(w[1].seating, mirrored);
            }
            _ => assert_eq!(&w[1].seating, expected),
        }
    }
    let total: u32 = m.scores.iter().sum();
    assert_eq!(total, 3 * 15);
}
