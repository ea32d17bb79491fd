//! Golden tests for every special rule and its toggle (docs/rules/daifugo.md, §5-§11),
//! played through the referee on hand-built deals.

use climbot_core::daifugo::bots::{DaifugoDecision, easy};
use climbot_core::daifugo::cards::{Card, CardSet};
use climbot_core::daifugo::moves::{Trick, count_legal_plays, legal_plays};
use climbot_core::daifugo::plays::{Play, PlayKind};
use climbot_core::daifugo::referee::{Event, GamePhase, Referee};
use climbot_core::daifugo::rules::{RuleSet, Title};

fn set(names: &str) -> CardSet {
    CardSet::parse(names).unwrap_or_else(|| panic!("bad cards {names}"))
}

fn card(name: &str) -> Card {
    Card::parse(name).unwrap()
}

/// A play from text: "♠5 ♥5", "♠5 joker=♥5", "seq ♠4 ♠5 joker=♠6", "joker".
fn play(text: &str) -> Play {
    let mut kind = None;
    let mut cards = CardSet::EMPTY;
    let mut declared = Vec::new();
    for word in text.split_whitespace() {
        if word == "seq" {
            kind = Some(PlayKind::Sequence);
            continue;
        }
        if let Some((joker, decl)) = word.split_once('=') {
            cards.insert(card(joker));
            declared.push(card(decl));
        } else {
            cards.insert(card(word));
        }
    }
    let kind = kind.unwrap_or(if cards.len() == 1 {
        PlayKind::Single
    } else {
        PlayKind::Group
    });
    Play::new(kind, cards, &declared).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

/// Deals the given hands to the first seats and every other card to the last seat.
fn deal(rules: RuleSet, hands: &[&str], players: usize) -> Referee {
    let mut referee = Referee::new(rules, players).unwrap();
    start(&mut referee, hands);
    referee
}

fn start(referee: &mut Referee, hands: &[&str]) {
    let players = referee.players();
    let mut sets: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let used = sets.iter().fold(CardSet::EMPTY, |a, b| a.union(*b));
    assert_eq!(sets.len(), players - 1);
    sets.push(CardSet::deck(referee.rules().jokers).difference(used));
    referee.start_game_with_hands(sets).unwrap();
}

fn act(referee: &mut Referee, seat: usize, text: &str) {
    let decision = if text == "pass" {
        DaifugoDecision::Pass
    } else {
        DaifugoDecision::Play(play(text))
    };
    // Every action goes through the validated view and the invariants.
    referee.view(seat).expect("valid view");
    referee
        .apply(seat, &decision)
        .unwrap_or_else(|e| panic!("seat {seat} {text}: {e}"));
    referee.check_invariants().unwrap();
}

/// Every other seat passes until the table clears (in UECda the owner passes too).
fn pass_round(referee: &mut Referee) {
    while referee.trick().table.is_some() {
        let seat = referee.to_act().unwrap();
        act(referee, seat, "pass");
    }
}

fn finish_with_autoplay(referee: &mut Referee) {
    while referee.to_act().is_some() {
        referee.autoplay(&easy::EasyBot).unwrap();
        referee.check_invariants().unwrap();
    }
}

fn legal(hand: &str, trick: &Trick, rules: &RuleSet) -> Vec<String> {
    let mut out = Vec::new();
    legal_plays(set(hand), trick, rules, &mut out);
    out.iter().map(|p| format!("{p:?}")).collect()
}

#[test]
fn revolution_and_counter_revolution() {
    let mut r = deal(
        RuleSet::house(),
        &["♦3 ♠5 ♥5 ♦5 ♣5 ♠9", "♠4 ♥4 ♦4 ♣4 ♠10", "♠6 ♥6 ♠J"],
        4,
    );
    assert_eq!(r.to_act(), Some(0), "♦3 holder leads game 1");
    act(&mut r, 0, "♠5 ♥5 ♦5 ♣5");
    assert!(r.trick().revolution);
    assert!(r.events().contains(&Event::Revolution(true)));
    // Under revolution four 4s beat four 5s and flip the order back.
    act(&mut r, 1, "♠4 ♥4 ♦4 ♣4");
    assert!(!r.trick().revolution);
    assert!(r.events().contains(&Event::Revolution(false)));
    // The revolution flag outlives the trick; a group of 3 does not flip.
    let rules = RuleSet::house();
    let t = Trick::default();
    let mut plays = Vec::new();
    legal_plays(set("♠7 ♥7 ♦7 joker"), &t, &rules, &mut plays);
    let quads: Vec<_> = plays.iter().filter(|p| p.len() == 4).collect();
    assert_eq!(quads.len(), 1, "three 7s + joker as ♣7");
    assert!(quads[0].is_revolution(&rules), "jokers count toward 4");
    assert!(!play("♠7 ♥7 ♦7").is_revolution(&rules));
}

#[test]
fn sequence_revolution_is_a_toggle() {
    let five = play("seq ♠3 ♠4 ♠5 ♠6 ♠7");
    assert!(!five.is_revolution(&RuleSet::house()));
    assert!(five.is_revolution(&RuleSet::uecda()));
    assert!(!play("seq ♠3 ♠4 ♠5 ♠6").is_revolution(&RuleSet::uecda()));
    let mut four = RuleSet::house();
    four.sequence_revolution = Some(4);
    assert!(play("seq ♠3 ♠4 ♠5 ♠6").is_revolution(&four));
    // Through the referee under UECda.
    let mut r = deal(RuleSet::uecda(), &["♦3 ♠3 ♠4 ♠5 ♠6 ♠7 ♥9", "♥10", "♥J"], 4);
    act(&mut r, 0, "seq ♠3 ♠4 ♠5 ♠6 ♠7");
    assert!(r.trick().revolution);
}

#[test]
fn eight_cut_on_singles_groups_and_sequences_by_toggle() {
    let mut r = deal(RuleSet::house(), &["♦3 ♠9", "♠8 ♥4", "♥5"], 4);
    act(&mut r, 0, "♦3");
    act(&mut r, 1, "♠8");
    assert!(r.events().contains(&Event::EightCut));
    assert!(r.trick().table.is_none());
    assert_eq!(r.to_act(), Some(1), "the 8-cutter leads");

    // A joker standing in for an 8 in a group still cuts.
    assert!(play("♠8 joker=♥8").is_eight_cut(&RuleSet::house()));
    // A sequence spanning 8: house no, UECda yes (also through a joker).
    let seq = play("seq ♠7 ♠8 ♠9");
    let seq_joker = play("seq ♠7 joker=♠8 ♠9");
    assert!(!seq.is_eight_cut(&RuleSet::house()));
    assert!(seq.is_eight_cut(&RuleSet::uecda()));
    assert!(seq_joker.is_eight_cut(&RuleSet::uecda()));
    assert!(!play("seq ♠9 ♠10 ♠J").is_eight_cut(&RuleSet::uecda()));

    let mut h = deal(RuleSet::house(), &["♦3 ♦4 ♦5 ♠K", "♥7 ♥8 ♥9 ♣3", "♥2"], 4);
    act(&mut h, 0, "seq ♦3 ♦4 ♦5");
    act(&mut h, 1, "seq ♥7 ♥8 ♥9");
    assert!(h.trick().table.is_some(), "house: no 8-cut on sequences");
    let mut u = deal(RuleSet::uecda(), &["♦3 ♦4 ♦5 ♠K", "♥7 ♥8 ♥9 ♣3", "♥2"], 4);
    act(&mut u, 0, "seq ♦3 ♦4 ♦5");
    act(&mut u, 1, "seq ♥7 ♥8 ♥9");
    assert!(
        u.trick().table.is_none(),
        "UECda: a sequence spanning 8 cuts"
    );
    assert_eq!(u.to_act(), Some(1));

    let mut off = RuleSet::house();
    off.eight_cut = false;
    assert!(!play("♠8").is_eight_cut(&off));
}

#[test]
fn suit_lock_and_the_lone_joker_on_a_locked_single() {
    let mut r = deal(RuleSet::house(), &["♦3 ♠2", "♦5 ♥K", "♦9 ♥Q joker"], 4);
    act(&mut r, 0, "♦3");
    act(&mut r, 1, "♦5");
    assert_eq!(r.trick().lock, 0b0100, "♦ on ♦ locks diamonds");
    assert!(r.events().contains(&Event::Locked(0b0100)));
    let v = r.view(2).unwrap();
    let names = legal("♦9 ♥Q joker", v.trick(), v.rules());
    assert_eq!(names, ["single ♦9", "single joker"], "♥Q is locked out");
    act(&mut r, 2, "joker");
    assert_eq!(r.trick().lock, 0, "the lone joker removes the lock");
    assert!(r.events().contains(&Event::LockRemoved));

    // Groups lock on the exact suit set; a joker counts as its declared suit.
    let rules = RuleSet::house();
    let locked = Trick {
        table: Some(play("♠5 ♥5")),
        lock: 0b0011,
        ..Trick::default()
    };
    let mut names = legal("♠9 ♦9 ♥9 joker", &locked, &rules);
    names.sort();
    assert_eq!(
        names,
        ["group ♠9 joker=♥9", "group ♠9 ♥9", "group ♥9 joker=♠9"]
    );
    // A joker pair cannot follow a locked pair but beats an unlocked one.
    let mut two = RuleSet::house();
    two.jokers = 2;
    assert!(legal("joker joker2", &locked, &two).is_empty());
    let unlocked = Trick {
        table: Some(play("♠2 ♥2")),
        ..Trick::default()
    };
    assert_eq!(
        legal("joker joker2", &unlocked, &two),
        ["group joker joker2"]
    );
    // Lock off: no lock forms.
    let mut no_lock = RuleSet::house();
    no_lock.suit_lock = false;
    let mut r = deal(no_lock, &["♦3 ♠2", "♦5 ♥K", "♦9 ♥Q joker"], 4);
    act(&mut r, 0, "♦3");
    act(&mut r, 1, "♦5");
    assert_eq!(r.trick().lock, 0);
}

#[test]
fn spade3_beats_a_lone_joker_in_either_order_and_clears() {
    let mut r = deal(RuleSet::house(), &["♦3 joker ♥8", "♠3 ♥4", "♥5"], 4);
    act(&mut r, 0, "joker");
    let v = r.view(1).unwrap();
    assert_eq!(legal("♠3 ♥4", v.trick(), v.rules()), ["single ♠3"]);
    act(&mut r, 1, "♠3");
    assert!(r.events().contains(&Event::Spade3Return));
    assert!(r.trick().table.is_none());
    assert_eq!(r.to_act(), Some(1));

    let rev = Trick {
        table: Some(Play::lone_joker(Card::JOKER)),
        revolution: true,
        ..Trick::default()
    };
    assert_eq!(legal("♠3 ♥3 ♠2", &rev, &RuleSet::house()), ["single ♠3"]);
    let mut off = RuleSet::house();
    off.spade3_beats_joker = false;
    assert!(legal("♠3", &rev, &off).is_empty());
    // A second lone joker never beats a lone joker.
    let mut two = RuleSet::house();
    two.jokers = 2;
    assert!(legal("joker2 ♥2", &rev, &two).is_empty());
}

#[test]
fn each_forbidden_finish_fouls_and_ranks_last() {
    // (hand of seat 0 after ♦3, finishing play, revolution first?)
    let cases = [
        ("♦3 ♥2", "♥2"),
        ("♦3 joker", "joker"),
        ("♦3 ♠8 ♥8", "♠8 ♥8"),
        ("♦3 ♠3", "♠3"),
        ("♦3 ♠4 joker", "♠4 joker=♥4"),
        ("♦3 ♠2 ♥2 ♦2 ♣2", "♠2 ♥2 ♦2 ♣2"),
    ];
    for (hand, finish) in cases {
        let mut r = deal(RuleSet::house(), &[hand, "♥K", "♥Q"], 4);
        act(&mut r, 0, "♦3");
        pass_round(&mut r);
        assert_eq!(r.to_act(), Some(0));
        act(&mut r, 0, finish);
        assert!(r.events().contains(&Event::Foul(0)), "{finish} fouls");
        assert!(r.out()[0]);
        finish_with_autoplay(&mut r);
        let result = r.result().unwrap();
        // The big leftover hand of seat 3 may foul later too; the first foul is last.
        assert_eq!(result.fouls.first(), Some(&0));
        assert_eq!(
            result.place_of(0),
            4,
            "{finish}: the first foul takes the bottom place"
        );
    }
    // Four 2s start a revolution and still foul (flag before the play).
    let mut r = deal(RuleSet::house(), &["♦3 ♠2 ♥2 ♦2 ♣2", "♥K", "♥Q"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♠2 ♥2 ♦2 ♣2");
    assert!(r.events().contains(&Event::Revolution(true)));
    assert!(r.events().contains(&Event::Foul(0)));
}

#[test]
fn revolution_swaps_2_and_3_for_forbidden_finishes() {
    // In revolution a 2 finishes legally...
    let mut r = deal(RuleSet::house(), &["♦3 ♠5 ♥5 ♦5 ♣5 ♥2", "♥K", "♥Q"], 4);
    act(&mut r, 0, "♠5 ♥5 ♦5 ♣5");
    pass_round(&mut r);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♥2");
    assert!(r.events().contains(&Event::Finished(0)));
    // ...and a 3 fouls.
    let mut r = deal(RuleSet::house(), &["♦3 ♠5 ♥5 ♦5 ♣5 ♥3 ♥7", "♥K", "♥Q"], 4);
    act(&mut r, 0, "♠5 ♥5 ♦5 ♣5");
    pass_round(&mut r);
    act(&mut r, 0, "♥7");
    pass_round(&mut r);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♥3");
    assert!(r.events().contains(&Event::Foul(0)));
}

#[test]
fn forbidden_finishes_off_under_uecda() {
    let mut r = deal(RuleSet::uecda(), &["♦3 ♥2", "♥K", "♥Q"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♥2");
    assert!(r.events().contains(&Event::Finished(0)));
    assert!(!r.events().iter().any(|e| matches!(e, Event::Foul(_))));
}

#[test]
fn a_foul_play_stays_and_the_next_seat_after_the_foul_leads() {
    // Seat 0 fouls with a pair of 8s (an 8-cut): the next active seat leads.
    let mut r = deal(RuleSet::house(), &["♦3 ♠8 ♥8", "♥K", "♥Q"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♠8 ♥8");
    assert!(r.events().contains(&Event::EightCut));
    assert_eq!(r.to_act(), Some(1));
    // Seat 0 fouls with ♥2: the play stays; after the others pass, seat 1 leads.
    let mut r = deal(RuleSet::house(), &["♦3 ♥2", "♥K", "♥Q"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♥2");
    assert_eq!(r.trick().table, Some(play("♥2")));
    assert_eq!(r.to_act(), Some(1));
    act(&mut r, 1, "pass");
    act(&mut r, 2, "pass");
    act(&mut r, 3, "pass");
    assert!(r.trick().table.is_none());
    assert_eq!(r.to_act(), Some(1));
}

#[test]
fn final_places_with_several_fouls() {
    // Seat 0 fouls (♥2), seat 1 fouls (joker), seat 2 finishes, seat 3 is left.
    let mut r = deal(RuleSet::house(), &["♦3 ♥2", "joker", "♠4"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♥2");
    act(&mut r, 1, "joker");
    act(&mut r, 2, "pass");
    act(&mut r, 3, "pass");
    assert_eq!(
        r.to_act(),
        Some(2),
        "the next active seat after the foul leads"
    );
    act(&mut r, 2, "♠4");
    assert_eq!(r.phase(), GamePhase::Over);
    let result = r.result().unwrap();
    assert_eq!(result.places, [2, 3, 1, 0], "first foul last");
    assert_eq!(r.points(), [1, 2, 4, 3]);
}

/// Game 2 setup: titles seat0 daifugo, seat1 fugo, seat2 hinmin, seat3 daihinmin.
fn game2(rules: RuleSet, hands: &[&str]) -> Referee {
    game2_rest(rules, hands, 0)
}

/// Game 2 setup with the rest of the deck going to `rest`.
fn game2_rest(rules: RuleSet, hands: &[&str], rest: usize) -> Referee {
    let mut r = Referee::new(rules, 4).unwrap();
    r.set_titles_for_next_game(
        vec![Title::Daifugo, Title::Fugo, Title::Hinmin, Title::Daihinmin],
        1,
    )
    .unwrap();
    let mut sets: Vec<CardSet> = hands.iter().map(|h| set(h)).collect();
    let used = sets.iter().fold(CardSet::EMPTY, |a, b| a.union(*b));
    // One seat takes the rest so small hands can be built for the others.
    sets[rest] = sets[rest].union(CardSet::deck(rules.jokers).difference(used));
    r.start_game_with_hands(sets).unwrap();
    r
}

#[test]
fn exchange_follows_the_documented_rule() {
    let mut r = game2(
        RuleSet::house(),
        &["", "♦4 ♣4", "♥Q ♠A ♥A", "♣3 ♠5 ♦5 joker ♥2"],
    );
    assert_eq!(r.phase(), GamePhase::Exchange);
    // Daihinmin (3) gave its 2 strongest (joker first) to daifugo (0); hinmin (2) gave
    // its strongest (♠A before ♥A) to fugo (1).
    assert!(r.events().contains(&Event::Tribute {
        from: 3,
        to: 0,
        cards: set("♥2 joker")
    }));
    assert!(r.events().contains(&Event::Tribute {
        from: 2,
        to: 1,
        cards: set("♠A")
    }));
    assert_eq!(r.to_act(), Some(0), "the daifugo gives back first");
    let v = r.view(0).unwrap();
    assert_eq!(
        v.phase(),
        climbot_core::daifugo::view::Phase::Exchange { give: 2 }
    );
    // A wrong count or foreign card is refused.
    assert!(r.apply(0, &DaifugoDecision::Exchange(set("♥2"))).is_err());
    assert!(
        r.apply(0, &DaifugoDecision::Exchange(set("♦4 ♣4")))
            .is_err()
    );
    assert!(r.apply(0, &DaifugoDecision::Pass).is_err());
    // A received card may go back.
    r.apply(0, &DaifugoDecision::Exchange(set("♥2 ♠3")))
        .unwrap();
    r.check_invariants().unwrap();
    assert_eq!(r.to_act(), Some(1));
    // The easy give-back: the weakest card, ♠ first among equal ranks.
    let v = r.view(1).unwrap();
    assert_eq!(easy::decide(&v), DaifugoDecision::Exchange(set("♦4")));
    r.autoplay(&easy::EasyBot).unwrap();
    assert_eq!(r.hands()[2], set("♥Q ♥A ♦4"));
    assert_eq!(r.hands()[3], set("♣3 ♠5 ♦5 ♥2 ♠3"));
    assert_eq!(r.phase(), GamePhase::Play);
    assert_eq!(
        r.to_act(),
        Some(3),
        "house: the daihinmin leads from game 2"
    );

    let u = game2(
        RuleSet::uecda(),
        &["", "♦4 ♣4", "♥Q ♠A ♥A", "♣3 ♠5 ♦5 joker ♥2"],
    );
    let mut u = u;
    u.autoplay(&easy::EasyBot).unwrap();
    u.autoplay(&easy::EasyBot).unwrap();
    let d3 = (0..4)
        .find(|&s| u.hands()[s].contains(Card::DIAMOND_3))
        .unwrap();
    assert_eq!(
        u.to_act(),
        Some(d3),
        "UECda: the ♦3 holder leads every game"
    );

    let mut no_exchange = RuleSet::house();
    no_exchange.exchange = false;
    let n = game2(no_exchange, &["", "♦4 ♣4", "♥Q ♠A ♥A", "♣3 ♠5 ♦5 joker ♥2"]);
    assert_eq!(n.phase(), GamePhase::Play);
    assert_eq!(n.to_act(), Some(3));
}

#[test]
fn miyako_ochi_removes_the_daifugo_and_places_it_below_the_last() {
    let mut r = game2(
        RuleSet::house(),
        &["", "♦4 ♣4 ♠K", "♥Q ♠A ♥A", "♣3 ♠5 ♦5 ♠6 joker ♥2"],
    );
    r.apply(0, &DaifugoDecision::Exchange(set("♥6 ♦6")))
        .unwrap();
    r.apply(1, &DaifugoDecision::Exchange(set("♣4"))).unwrap();
    // Seat 3: ♣3 ♠5 ♦5 ♠6 ♥6 ♦6 -> pairs.
    assert_eq!(r.hands()[3], set("♣3 ♠5 ♦5 ♠6 ♥6 ♦6"));
    act(&mut r, 3, "♣3");
    pass_round(&mut r);
    act(&mut r, 3, "♠5 ♦5");
    pass_round(&mut r);
    let daifugo_hand = r.hands()[0];
    act(&mut r, 3, "♠6 ♥6 ♦6");
    assert!(r.events().contains(&Event::Finished(3)));
    assert!(r.events().contains(&Event::MiyakoOchi(0)));
    assert!(r.out()[0]);
    assert_eq!(r.discarded(), daifugo_hand);
    // Other seats see the discarded cards only as a count.
    let v = r.view(r.to_act().unwrap()).unwrap();
    assert_eq!(v.removed_unseen(), daifugo_hand.len());
    finish_with_autoplay(&mut r);
    let result = r.result().unwrap();
    assert_eq!(result.miyako_ochi, Some(0));
    assert_eq!(result.places[0], 3);
    assert_eq!(result.place_of(0), 4);
}

#[test]
fn miyako_ochi_only_at_the_first_legal_finish_and_by_toggle() {
    // The daifugo finishing first: no miyako-ochi, then or later.
    let mut d = game2_rest(
        RuleSet::house(),
        &["♠4 ♥4", "♣5 ♠K", "", "♦3 ♠6 ♥7 ♠9 joker ♥2"],
        2,
    );
    d.apply(0, &DaifugoDecision::Exchange(set("joker ♥2")))
        .unwrap();
    d.apply(1, &DaifugoDecision::Exchange(set("♣5"))).unwrap();
    assert_eq!(d.hands()[0], set("♠4 ♥4"));
    act(&mut d, 3, "♦3");
    act(&mut d, 0, "♠4");
    pass_round(&mut d);
    act(&mut d, 0, "♥4");
    assert!(d.events().contains(&Event::Finished(0)));
    finish_with_autoplay(&mut d);
    assert_eq!(d.result().unwrap().miyako_ochi, None);
    assert_eq!(d.result().unwrap().places[0], 0);
    let hands = ["", "♦4 ♣4 ♠K", "♥Q ♠A ♥A", "♣3 ♠5 ♦5 ♠6 joker ♥2"];
    // Off under UECda.
    let mut u = game2(RuleSet::uecda(), &hands);
    finish_with_autoplay(&mut u);
    assert_eq!(u.result().unwrap().miyako_ochi, None);
    // A foul before the first legal finish does not trigger it; the first legal
    // finish afterwards does (docs/rules/daifugo.md, §11.3 Miyako-ochi).
    let mut f = game2(
        RuleSet::house(),
        &["", "♠8 ♥8", "♥Q ♠A ♥A", "♣3 ♠5 ♦5 ♠6 joker ♥2"],
    );
    f.apply(0, &DaifugoDecision::Exchange(set("♥7 ♦7")))
        .unwrap();
    f.apply(1, &DaifugoDecision::Exchange(set("♠A"))).unwrap();
    assert_eq!(f.hands()[1], set("♠8 ♥8"));
    assert_eq!(f.hands()[2], set("♥Q ♠A ♥A"));
    act(&mut f, 3, "♠5 ♦5");
    act(&mut f, 0, "pass");
    act(&mut f, 1, "♠8 ♥8");
    assert!(f.events().contains(&Event::Foul(1)));
    assert!(!f.events().iter().any(|e| matches!(e, Event::MiyakoOchi(_))));
    assert_eq!(
        f.to_act(),
        Some(2),
        "8-cut by a foul: the next active seat leads"
    );
    act(&mut f, 2, "♥Q");
    pass_round(&mut f);
    act(&mut f, 2, "♠A");
    pass_round(&mut f);
    act(&mut f, 2, "♥A");
    assert!(f.events().contains(&Event::Finished(2)));
    assert!(f.events().contains(&Event::MiyakoOchi(0)));
    finish_with_autoplay(&mut f);
    let result = f.result().unwrap();
    // Places: finisher 2, last active 3, the victim 0, then the foul 1.
    assert_eq!(result.places, [2, 3, 0, 1]);
}

#[test]
fn first_leads_house_and_uecda() {
    let mut r = Referee::new(RuleSet::house(), 5).unwrap();
    r.start_game_seeded(11);
    let d3 = (0..5)
        .find(|&s| r.hands()[s].contains(Card::DIAMOND_3))
        .unwrap();
    assert_eq!(r.to_act(), Some(d3));
    assert_eq!(r.events()[1], Event::Lead(d3));
    finish_with_autoplay(&mut r);
    let last = *r.result().unwrap().places.last().unwrap();
    r.start_game_seeded(12);
    assert_eq!(r.titles()[last], Title::Daihinmin);
    assert!(matches!(r.events()[0], Event::Dealt { .. }));
    finish_with_autoplay(&mut r); // runs the exchange and the game
    assert!(r.events().contains(&Event::Lead(last)));
    let first_lead = r.events().iter().find_map(|e| match e {
        Event::Lead(s) => Some(*s),
        _ => None,
    });
    assert_eq!(first_lead, Some(last), "house: the daihinmin leads game 2");
}

#[test]
fn no_self_follow_clears_at_once_but_uecda_owner_may_follow_itself() {
    // House: seat 0 leads, everybody passes, the table clears and seat 0 leads again.
    let mut r = deal(RuleSet::house(), &["♦3 ♠9 ♥9", "♥4", "♥5"], 4);
    act(&mut r, 0, "♦3");
    act(&mut r, 1, "pass");
    act(&mut r, 2, "pass");
    act(&mut r, 3, "pass");
    assert!(r.trick().table.is_none());
    assert_eq!(r.to_act(), Some(0));
    // A new owner: the table clears when everyone but the owner has passed.
    let mut r = deal(RuleSet::house(), &["♦3 ♠9 ♥9", "♥4 ♥K", "♥5"], 4);
    act(&mut r, 0, "♦3");
    act(&mut r, 1, "♥4");
    act(&mut r, 2, "pass");
    act(&mut r, 3, "pass");
    act(&mut r, 0, "pass");
    assert!(r.trick().table.is_none(), "everyone but the owner passed");
    assert_eq!(r.to_act(), Some(1));
    // If everyone else is already locked out right after a play, the table clears at
    // once and the same player leads (the previous owner went out; docs/rules/daifugo.md,
    // §9.3 Clearing the table).
    let mut r = deal(RuleSet::house(), &["♦3 ♥6", "♥4 ♥K", "♥5"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♥6");
    assert!(r.out()[0]);
    act(&mut r, 1, "pass");
    act(&mut r, 2, "pass");
    act(&mut r, 3, "♠K");
    assert!(r.trick().table.is_none());
    assert_eq!(r.to_act(), Some(3));
    // UECda: the owner gets a turn on its own play.
    let mut u = deal(RuleSet::uecda(), &["♦3 ♠9 ♥9", "♥4", "♥5"], 4);
    act(&mut u, 0, "♦3");
    act(&mut u, 1, "pass");
    act(&mut u, 2, "pass");
    act(&mut u, 3, "pass");
    assert_eq!(u.to_act(), Some(0));
    assert!(u.trick().table.is_some());
    act(&mut u, 0, "♠9");
    assert_eq!(
        u.to_act(),
        Some(0),
        "everyone else is locked out: the owner again"
    );
    act(&mut u, 0, "pass");
    assert!(u.trick().table.is_none());
    assert_eq!(u.to_act(), Some(0));
}

#[test]
fn empty_table_pass_only_under_uecda() {
    let mut r = deal(RuleSet::house(), &["♦3 ♠9", "♥4", "♥5"], 4);
    assert!(r.apply(0, &DaifugoDecision::Pass).is_err());
    let mut u = deal(RuleSet::uecda(), &["♦3 ♠9", "♥4", "♥5"], 4);
    act(&mut u, 0, "pass");
    assert_eq!(u.to_act(), Some(1));
    act(&mut u, 1, "pass");
    act(&mut u, 2, "pass");
    act(&mut u, 3, "pass");
    assert_eq!(
        u.to_act(),
        Some(0),
        "after a full round of passes they lapse"
    );
    assert!(u.passed().iter().all(|p| !p));
}

#[test]
fn jack_back_reverses_until_the_table_clears() {
    let mut rules = RuleSet::house();
    rules.jack_back = true;
    let mut r = deal(rules, &["♦3 ♠J ♠9", "♥4 ♥Q", "♥5 ♥10"], 4);
    act(&mut r, 0, "♦3");
    pass_round(&mut r);
    act(&mut r, 0, "♠J");
    assert!(r.trick().jack_back);
    let v = r.view(1).unwrap();
    assert_eq!(legal("♥4 ♥Q", v.trick(), v.rules()), ["single ♥4"]);
    act(&mut r, 1, "♥4");
    pass_round(&mut r);
    assert!(!r.trick().jack_back);
    // Off by default (house and UECda).
    assert!(!play("♠J").is_jack_back(&RuleSet::house()));
    assert!(!play("♠J").is_jack_back(&RuleSet::uecda()));
}

#[test]
fn sequences_with_jokers_under_both_orders() {
    let rules = RuleSet::house();
    let normal = Trick {
        table: Some(play("seq ♠4 ♠5 ♠6")),
        ..Trick::default()
    };
    // Normal: the follow's lowest rank must be above the table's highest (6). Only
    // ♥7-♥8-♥9 fits, the joker as ♥8; ♥8-♥9-♥10 would need two jokers.
    assert_eq!(
        legal("♥5 ♥7 ♥9 joker", &normal, &rules),
        ["sequence ♥7 ♥9 joker=♥8"]
    );
    let reversed = Trick {
        table: Some(play("seq ♠9 ♠10 ♠J")),
        revolution: true,
        ..Trick::default()
    };
    // Reversed: the follow's highest rank must be below the table's lowest (9):
    // ♥3-♥5 (joker ♥3), ♥4-♥6 (joker ♥6), ♥5-♥7 (joker ♥6); ♥6-♥8 needs two jokers.
    assert_eq!(
        legal("♥4 ♥5 ♥7 joker", &reversed, &rules),
        [
            "sequence ♥4 ♥5 joker=♥3",
            "sequence ♥4 ♥5 joker=♥6",
            "sequence ♥5 ♥7 joker=♥6"
        ]
    );
    // The same reversed order from J-back instead of a revolution.
    let mut jack = RuleSet::house();
    jack.jack_back = true;
    let by_jack = Trick {
        jack_back: true,
        revolution: false,
        ..reversed
    };
    assert_eq!(count_legal_plays(set("♥4 ♥5 ♥7 joker"), &by_jack, &jack), 3);
    // Revolution and J-back together cancel out: normal order again.
    let both = Trick {
        jack_back: true,
        ..reversed
    };
    assert_eq!(count_legal_plays(set("♥4 ♥5 ♥7 joker"), &both, &jack), 0);
    // No wrap: A-2-3 is not a sequence, and no joker below 3 or above 2.
    assert_eq!(
        legal("♠A ♠2 joker", &Trick::default(), &rules)
            .into_iter()
            .filter(|p| p.starts_with("sequence"))
            .collect::<Vec<_>>(),
        ["sequence ♠A ♠2 joker=♠K"]
    );
}

#[test]
fn the_timeout_autoplay_is_the_easy_bot() {
    let mut r = Referee::new(RuleSet::house(), 4).unwrap();
    r.start_game_seeded(5);
    for _ in 0..20 {
        let Some(seat) = r.to_act() else { break };
        let expected = easy::decide(&r.view(seat).unwrap());
        assert_eq!(r.autoplay(&easy::EasyBot).unwrap(), expected);
    }
}
