//! The validated view: every rejection names its exact field.

use climbot_core::daifugo::bots::DaifugoDecision;
use climbot_core::daifugo::bots::easy::EasyBot;
use climbot_core::daifugo::cards::{Card, CardSet};
use climbot_core::daifugo::plays::{Play, PlayKind};
use climbot_core::daifugo::referee::Referee;
use climbot_core::daifugo::rules::{RuleSet, Title};
use climbot_core::daifugo::view::{DaifugoView, DaifugoViewInput, PhaseInput};

fn id(name: &str) -> u32 {
    u32::from(Card::parse(name).unwrap().id())
}

/// Seat 0 leads ♠5 with the joker as ♥5; the view of seat 1 (to act).
fn after_joker_pair() -> (Referee, DaifugoViewInput) {
    let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
    let hands = [
        CardSet::parse("♦3 ♠5 joker ♥9").unwrap(),
        CardSet::parse("♠6 ♥6 ♠K").unwrap(),
        CardSet::parse("♥7").unwrap(),
    ];
    let used = hands.iter().fold(CardSet::EMPTY, |a, b| a.union(*b));
    let mut all = hands.to_vec();
    all.push(CardSet::deck(1).difference(used));
    referee.start_game_with_hands(all).unwrap();
    let pair = Play::new(
        PlayKind::Group,
        CardSet::parse("♠5 joker").unwrap(),
        &[Card::parse("♥5").unwrap()],
    )
    .unwrap();
    referee.apply(0, &DaifugoDecision::Play(pair)).unwrap();
    let input = referee.view_input(1);
    (referee, input)
}

/// A change to a valid input that should be rejected.
type Mutation = Box<dyn Fn(&mut DaifugoViewInput)>;

fn error_of(input: DaifugoViewInput) -> String {
    DaifugoView::new(input).unwrap_err().to_string()
}

#[test]
fn a_referee_view_round_trips_and_fingerprints_stably() {
    let (_, input) = after_joker_pair();
    let view = DaifugoView::new(input.clone()).unwrap();
    assert_eq!(view.table().unwrap().play.suits(), 0b0011);
    let again = DaifugoView::new(view.to_input()).unwrap();
    assert_eq!(again, view);
    assert_eq!(again.fingerprint(), view.fingerprint());
    let mut other = input.clone();
    other.log.push(climbot_core::daifugo::view::LogEntryInput {
        seat: 0,
        cards: Default::default(),
    });
    // A pass by seat 0 in the log does not break validation but changes the hash.
    let other = DaifugoView::new(other).unwrap();
    assert_ne!(other.fingerprint(), view.fingerprint());
    // Unseen cards = the other seats' counts (no miyako-ochi discards here).
    let others: usize = (0..4)
        .filter(|&s| s != 1)
        .map(|s| view.seats()[s].card_count)
        .sum();
    assert_eq!(view.unseen().len(), others + view.removed_unseen());
}

#[test]
fn every_rejection_names_its_field() {
    let (_, base) = after_joker_pair();
    let cases: Vec<(&str, Mutation)> = vec![
        ("hand[2]: card id 60", Box::new(|i| i.hand[2] = 60)),
        (
            "hand[1]: duplicate of hand[0]",
            Box::new(|i| i.hand[1] = i.hand[0]),
        ),
        (
            "hand[0]: joker2 is not in this game's deck",
            Box::new(|i| i.hand[0] = 53),
        ),
        (
            "table.cards[1].declared: declares ♥6, not of the group's rank",
            Box::new(|i| i.table.as_mut().unwrap().cards[1].declared = Some(id("♥6"))),
        ),
        (
            "table.cards[1].declared: declares ♠5, already a card of the play",
            Box::new(|i| i.table.as_mut().unwrap().cards[1].declared = Some(id("♠5"))),
        ),
        (
            "table.cards[1].declared: a joker in a group or sequence must declare",
            Box::new(|i| i.table.as_mut().unwrap().cards[1].declared = None),
        ),
        (
            "table.cards[0].declared: only a joker carries a declaration",
            Box::new(|i| i.table.as_mut().unwrap().cards[0].declared = Some(id("♦5"))),
        ),
        (
            "table.cards[0].card: ♠6 is not among played cards",
            Box::new(|i| i.table.as_mut().unwrap().cards[0].card = id("♠6")),
        ),
        (
            "table.owner: seat 9",
            Box::new(|i| i.table.as_mut().unwrap().owner = 9),
        ),
        ("lock: suit set", Box::new(|i| i.lock = 0b0001)),
        ("lock: suit mask 16", Box::new(|i| i.lock = 16)),
        (
            "seats[1].card_count: 4 but the hand holds 3",
            Box::new(|i| i.seats[1].card_count = 4),
        ),
        (
            "seats: card counts",
            Box::new(|i| i.seats[3].card_count += 1),
        ),
        (
            "seats[3].card_count: an active seat holds at least one card",
            Box::new(|i| i.seats[3].card_count = 0),
        ),
        (
            "seats[2].title: 1 Daifugo titles with 4 seats in game 1",
            Box::new(|i| i.seats[2].title = Title::Daifugo),
        ),
        ("seats[1].passed", Box::new(|i| i.seats[1].passed = true)),
        (
            "seats[0].passed: the owner",
            Box::new(|i| i.seats[0].passed = true),
        ),
        (
            "phase: no exchange in this game",
            Box::new(|i| i.phase = PhaseInput::Exchange { give: 2 }),
        ),
        (
            "jack_back: J-back needs the rule",
            Box::new(|i| i.jack_back = true),
        ),
        (
            "removed_unseen: cards are discarded unseen only",
            Box::new(|i| i.removed_unseen = 1),
        ),
        ("seat: seat 4 of 4", Box::new(|i| i.seat = 4)),
        ("game: games are numbered from 1", Box::new(|i| i.game = 0)),
        ("log[0].seat: seat 7 of 4", Box::new(|i| i.log[0].seat = 7)),
        (
            "table: the top play is not the last play of the log",
            Box::new(|i| i.log[0].seat = 2),
        ),
        (
            "played[0]: ♠6 is also in hand",
            Box::new(|i| i.played[0] = i.hand[0]),
        ),
        ("rules.jokers: 3 jokers", Box::new(|i| i.rules.jokers = 3)),
        ("seats: 2 seats", Box::new(|i| i.seats.truncate(2))),
    ];
    for (expected, mutate) in cases {
        let mut input = base.clone();
        mutate(&mut input);
        let message = error_of(input);
        assert!(
            message.starts_with(expected),
            "expected {expected:?}, got {message:?}"
        );
    }
}

#[test]
fn finished_games_and_exchange_views_are_checked() {
    // A finished game has no decision.
    let mut referee = Referee::new(RuleSet::house(), 4).unwrap();
    referee.start_game_seeded(3);
    while referee.to_act().is_some() {
        referee.autoplay(&EasyBot).unwrap();
    }
    let mut input = referee.view_input(0);
    input.seats.iter_mut().for_each(|s| s.passed = false);
    let message = error_of(input);
    assert!(
        message.starts_with("seats: the game is over")
            || message.starts_with("seats[0].card_count")
            || message.contains("out"),
        "{message}"
    );
    // The exchange view of game 2: the daifugo gives back 2; a wrong count is named.
    referee.start_game_seeded(4);
    let seat = referee.to_act().unwrap();
    let view = referee.view(seat).unwrap();
    assert_eq!(
        view.phase(),
        climbot_core::daifugo::view::Phase::Exchange { give: 2 }
    );
    let mut input = referee.view_input(seat);
    input.phase = PhaseInput::Exchange { give: 1 };
    assert!(error_of(input).starts_with("phase.give: 1"));
    let mut input = referee.view_input(seat);
    input.revolution = true;
    assert!(error_of(input).starts_with("revolution:"));
}
