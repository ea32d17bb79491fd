//! The group of five and the joker past a sequence's end on a real server: a table
//! holding one is accepted under the UECda rules (the imaginary card declared with rank
//! 2 or 16) and refused, naming the field, when the toggle is off; ListLegalPlays lists
//! them only under the toggles, and their wire decisions read back.
mod common;

use climbot::daifugo::bots::legal_decisions;
use climbot::daifugo::cards::CardSet;
use climbot::daifugo::plays::{Declaration, Play, PlayKind};
use climbot::daifugo::referee::Referee;
use climbot::daifugo::rules::RuleSet;
use climbot::daifugo::{DaifugoDecision, DaifugoView};
use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use climbot::service::daifugo::{decision_from_wire, decision_to_wire, view_to_wire};
use common::*;
use tonic::Code;
use tonic::transport::Channel;

fn game_view(view: pb::DaifugoView) -> pb::GameView {
    pb::GameView {
        game: Some(pb::game_view::Game::Daifugo(view)),
    }
}

/// A game 1 of 4 seats under `rules`: seat 0 holds `first` (with the ♦3, so it
/// leads), the rest of the deck goes round seats 1-3.
fn referee_with(rules: RuleSet, first: &str) -> Referee {
    let first = CardSet::parse(first).unwrap();
    let mut hands = vec![first, CardSet::EMPTY, CardSet::EMPTY, CardSet::EMPTY];
    let rest = CardSet::deck(rules.jokers).difference(first);
    for (i, card) in rest.iter().enumerate() {
        hands[1 + i % 3].insert(card);
    }
    let mut referee = Referee::new(rules, 4).unwrap();
    referee.start_game_with_hands(hands).unwrap();
    assert_eq!(referee.to_act(), Some(0));
    referee
}

/// Seat 1's view after seat 0 led `play`.
fn view_after(rules: RuleSet, first: &str, play: Play) -> DaifugoView {
    let mut referee = referee_with(rules, first);
    referee.apply(0, &DaifugoDecision::Play(play)).unwrap();
    referee.view(1).unwrap()
}

/// The UECda preset with the new toggles as given (`None`: the preset's).
fn uecda_with(group_of_five: Option<bool>, past_the_ends: Option<bool>) -> pb::DaifugoRules {
    pb::DaifugoRules {
        preset: pb::DaifugoRulePreset::Uecda as i32,
        group_of_five,
        joker_past_sequence_ends: past_the_ends,
        ..Default::default()
    }
}

/// The house preset turned into the UECda rules but for the two new toggles.
fn house_as_uecda() -> pb::DaifugoRules {
    pb::DaifugoRules {
        preset: pb::DaifugoRulePreset::House as i32,
        first_lead: Some(pb::DaifugoFirstLead::Diamond3Always as i32),
        empty_table_pass: Some(true),
        self_follow: Some(true),
        sequence_revolution: Some(5),
        eight_cut_sequence: Some(true),
        forbidden_finishes: Some(false),
        miyako_ochi: Some(false),
        ..Default::default()
    }
}

async fn list(
    client: &mut BotServiceClient<Channel>,
    view: pb::DaifugoView,
) -> Result<Vec<pb::DaifugoDecision>, tonic::Status> {
    let response = client
        .list_legal_plays(pb::ListLegalPlaysRequest {
            view: Some(game_view(view)),
        })
        .await?
        .into_inner();
    match response.game {
        Some(pb::list_legal_plays_response::Game::Daifugo(l)) => Ok(l.decisions),
        other => panic!("not a Daifugo answer: {other:?}"),
    }
}

fn expect_refused(result: Result<Vec<pb::DaifugoDecision>, tonic::Status>, field: &str) {
    let status = result.expect_err("refused");
    assert_eq!(status.code(), Code::InvalidArgument, "{status:?}");
    assert!(
        status.message().starts_with(&format!("{field}: ")),
        "{}",
        status.message()
    );
}

fn below_three_sequence() -> Play {
    Play::with_declarations(
        PlayKind::Sequence,
        CardSet::parse("♠3 ♠4 joker").unwrap(),
        &[Declaration::BelowThree(
            climbot::daifugo::cards::Suit::Spades,
        )],
    )
    .unwrap()
}

#[tokio::test]
async fn a_joker_below_the_3_on_the_table_needs_its_toggle() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let view = view_after(
        RuleSet::uecda(),
        "♦3 ♠3 ♠4 ♥9 ♦10 joker",
        below_three_sequence(),
    );
    let wire = view_to_wire(&view);
    let table = wire.table.as_ref().unwrap();
    let declared = table.cards[2].declared.as_ref().unwrap();
    assert_eq!(
        (declared.rank, declared.suit, declared.joker),
        (2, pb::DaifugoSuit::Spades as i32, 0)
    );
    assert_eq!(
        climbot::service::daifugo::decode(wire.clone()).unwrap(),
        view
    );
    // Accepted under UECda: the legal list is the engine's, every sequence above the 4.
    let listed = list(&mut client, wire.clone()).await.unwrap();
    let expected: Vec<pb::DaifugoDecision> = legal_decisions(&view)
        .iter()
        .map(decision_to_wire)
        .collect();
    assert_eq!(listed, expected);
    assert!(listed.len() > 1, "seat 1 holds sequences above the 4");
    // A served level answers it legally.
    let response = client
        .select_play(pb::SelectPlayRequest {
            explain: false,
            view: Some(game_view(wire.clone())),
            difficulty: pb::Difficulty::Hard as i32,
            seed: None,
            budget_ms: None,
            max_iterations: None,
            strength: None,
        })
        .await
        .unwrap()
        .into_inner();
    let Some(pb::decision::Game::Daifugo(answer)) = response.decision.and_then(|d| d.game) else {
        panic!("a Daifugo decision");
    };
    assert!(decision_from_wire(&view, &answer).is_some());
    // Refused when the toggle is off: under UECda with the override, under house.
    for rules in [uecda_with(None, Some(false)), house_as_uecda()] {
        let refused = pb::DaifugoView {
            rules: Some(rules),
            ..wire.clone()
        };
        expect_refused(
            list(&mut client, refused).await,
            "view.daifugo.table.cards[2].declared",
        );
    }
    // House turned on for it accepts it.
    let house_on = pb::DaifugoView {
        rules: Some(pb::DaifugoRules {
            joker_past_sequence_ends: Some(true),
            ..house_as_uecda()
        }),
        ..wire.clone()
    };
    assert_eq!(list(&mut client, house_on).await.unwrap(), expected);
    // An imaginary card of another suit, or rank 16 at the low end, is no declaration.
    for (rank, suit) in [(2, pb::DaifugoSuit::Hearts), (16, pb::DaifugoSuit::Spades)] {
        let mut bad = wire.clone();
        bad.table.as_mut().unwrap().cards[2].declared = Some(pb::DaifugoCard {
            rank,
            suit: suit as i32,
            joker: 0,
        });
        expect_refused(
            list(&mut client, bad).await,
            "view.daifugo.table.cards[2].declared",
        );
    }
}

#[tokio::test]
async fn a_group_of_five_on_the_table_needs_its_toggle() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let five = Play::new(
        PlayKind::Group,
        CardSet::parse("♠9 ♥9 ♦9 ♣9 joker").unwrap(),
        &[],
    )
    .unwrap();
    let view = view_after(RuleSet::uecda(), "♦3 ♠9 ♥9 ♦9 ♣9 joker ♠5", five);
    let wire = view_to_wire(&view);
    let table = wire.table.as_ref().unwrap();
    assert_eq!(table.cards.len(), 5);
    assert!(table.cards.iter().all(|c| c.declared.is_none()));
    // Nothing follows a group of five: the list is the pass alone.
    let listed = list(&mut client, wire.clone()).await.unwrap();
    assert_eq!(listed, [decision_to_wire(&DaifugoDecision::Pass)]);
    for rules in [uecda_with(Some(false), None), house_as_uecda()] {
        let refused = pb::DaifugoView {
            rules: Some(rules),
            ..wire.clone()
        };
        expect_refused(list(&mut client, refused).await, "view.daifugo.table.cards");
    }
}

#[tokio::test]
async fn the_contest_plays_are_listed_only_under_their_toggles() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let referee = referee_with(RuleSet::uecda(), "♦3 ♠9 ♥9 ♦9 ♣9 ♠A ♠2 joker");
    let view = referee.view(0).unwrap();
    let wire = view_to_wire(&view);
    let listed = list(&mut client, wire.clone()).await.unwrap();
    let is_five = |d: &pb::DaifugoDecision| match &d.decision {
        Some(pb::daifugo_decision::Decision::Play(p)) => {
            p.kind == pb::DaifugoPlayKind::Group as i32 && p.cards.len() == 5
        }
        _ => false,
    };
    let declares = |d: &pb::DaifugoDecision, rank: u32| match &d.decision {
        Some(pb::daifugo_decision::Decision::Play(p)) => p
            .cards
            .iter()
            .any(|c| c.declared.as_ref().is_some_and(|d| d.rank == rank)),
        _ => false,
    };
    assert_eq!(listed.iter().filter(|d| is_five(d)).count(), 1);
    assert_eq!(listed.iter().filter(|d| declares(d, 16)).count(), 1);
    // Each reads back as the engine's play.
    for d in listed.iter().filter(|d| is_five(d) || declares(d, 16)) {
        let decision = decision_from_wire(&view, d).expect("legal");
        assert_eq!(decision_to_wire(&decision), *d);
    }
    let view_house = pb::DaifugoView {
        rules: Some(house_as_uecda()),
        ..wire
    };
    let decoded = climbot::service::daifugo::decode(view_house.clone()).unwrap();
    let listed = list(&mut client, view_house).await.unwrap();
    assert!(!listed.iter().any(|d| is_five(d) || declares(d, 16)));
    // A decision declaring past an end reads back as nothing under house.
    let above = legal_decisions(&view)
        .into_iter()
        .find(|d| matches!(d, DaifugoDecision::Play(p) if p.is_past_the_ends()))
        .unwrap();
    assert_eq!(
        decision_from_wire(&decoded, &decision_to_wire(&above)),
        None
    );
}
