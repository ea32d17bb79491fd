//! Daifugo end to end on a real server: both phases (PLAY lead and follow, EXCHANGE)
//! under both presets, through SelectPlay and ListLegalPlays. The answer must be the
//! in-process decision of the level asked for and among the listed legal decisions.
mod common;

use climbot::bot::{DecisionContext, Difficulty};
use climbot::daifugo::bots::{easy, legal_decisions, policy};
use climbot::daifugo::referee::Referee;
use climbot::daifugo::rules::RuleSet;
use climbot::daifugo::view::Phase;
use climbot::daifugo::{Daifugo, DaifugoDecision, DaifugoView};
use climbot::game::GameKind;
use climbot::pb;
use climbot::pb::bot_service_client::BotServiceClient;
use climbot::search::Searchable;
use climbot::service::daifugo::{decision_from_wire, decision_to_wire, view_to_wire};
use climbot::service::derive_seed;
use common::*;
use tonic::Code;
use tonic::transport::Channel;

fn game_view(view: pb::DaifugoView) -> pb::GameView {
    pb::GameView {
        game: Some(pb::game_view::Game::Daifugo(view)),
    }
}

fn select(view: pb::DaifugoView, difficulty: pb::Difficulty) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        explain: false,
        view: Some(game_view(view)),
        difficulty: difficulty as i32,
        seed: None,
        budget_ms: None,
        max_iterations: None,
        strength: None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Situation {
    Lead,
    Follow,
    Exchange,
}

fn situation(view: &DaifugoView) -> Situation {
    match (view.phase(), view.table()) {
        (Phase::Exchange { .. }, _) => Situation::Exchange,
        (Phase::Play, None) => Situation::Lead,
        (Phase::Play, Some(_)) => Situation::Follow,
    }
}

/// Views of every situation from refereed easy games under `rules`: the first lead,
/// follows, later leads and the exchange of game 2 (daifugo and fugo).
fn sample_views(rules: RuleSet, players: usize) -> Vec<DaifugoView> {
    let mut referee = Referee::new(rules, players).unwrap();
    let mut views = Vec::new();
    for game in 0..2u64 {
        referee.start_game_seeded(1000 + game);
        let mut step = 0;
        while let Some(seat) = referee.to_act() {
            let view = referee.view(seat).unwrap();
            let decision = easy::decide(&view);
            if situation(&view) == Situation::Exchange || step % 7 == 0 {
                views.push(view);
            }
            referee.apply(seat, &decision).unwrap();
            step += 1;
        }
    }
    for wanted in [Situation::Lead, Situation::Follow, Situation::Exchange] {
        assert!(
            views.iter().any(|v| situation(v) == wanted),
            "no {wanted:?} view sampled"
        );
    }
    views
}

fn legal(response: pb::ListLegalPlaysResponse) -> Vec<pb::DaifugoDecision> {
    match response.game {
        Some(pb::list_legal_plays_response::Game::Daifugo(l)) => l.decisions,
        other => panic!("not a Daifugo answer: {other:?}"),
    }
}

fn decision(response: &pb::SelectPlayResponse) -> pb::DaifugoDecision {
    match response.decision.as_ref().and_then(|d| d.game.clone()) {
        Some(pb::decision::Game::Daifugo(d)) => d,
        other => panic!("not a Daifugo decision: {other:?}"),
    }
}

fn in_process_easy(view: &DaifugoView) -> DaifugoDecision {
    let stop = || false;
    let mut ctx = DecisionContext::new(0, &stop);
    let decision = policy(Difficulty::Easy).unwrap().decide(view, &mut ctx);
    assert_eq!(decision, easy::decide(view));
    decision
}

async fn check_view(client: &mut BotServiceClient<Channel>, view: &DaifugoView) {
    let wire = view_to_wire(view);
    let listed = legal(
        client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: Some(game_view(wire.clone())),
            })
            .await
            .unwrap()
            .into_inner(),
    );
    let expected: Vec<pb::DaifugoDecision> =
        legal_decisions(view).iter().map(decision_to_wire).collect();
    assert_eq!(listed, expected, "legal list of {:?}", situation(view));
    let has_pass = listed
        .iter()
        .any(|d| matches!(d.decision, Some(pb::daifugo_decision::Decision::Pass(_))));
    match situation(view) {
        Situation::Follow => assert!(has_pass, "a follower may pass"),
        Situation::Lead => assert_eq!(has_pass, view.rules().empty_table_pass),
        Situation::Exchange => {
            let give = match view.phase() {
                Phase::Exchange { give } => give,
                Phase::Play => unreachable!(),
            };
            for d in &listed {
                match &d.decision {
                    Some(pb::daifugo_decision::Decision::Exchange(e)) => {
                        assert_eq!(e.cards.len(), give);
                    }
                    other => panic!("{other:?} in the exchange"),
                }
            }
        }
    }

    for difficulty in [pb::Difficulty::Easy, pb::Difficulty::Unspecified] {
        let response = client
            .select_play(select(wire.clone(), difficulty))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(response.difficulty, pb::Difficulty::Easy as i32);
        assert!(!response.fallback);
        let answer = decision(&response);
        assert!(listed.contains(&answer), "{answer:?} not among the legal");
        let want = in_process_easy(view);
        assert_eq!(answer, decision_to_wire(&want));
        assert_eq!(decision_from_wire(view, &answer), Some(want));
    }
}

#[tokio::test]
async fn both_phases_under_both_presets() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5)] {
        let views = sample_views(rules, players);
        for view in &views {
            check_view(&mut client, view).await;
        }
    }
}

#[tokio::test]
async fn expert_searches_the_play_and_answers_the_exchange_with_hard() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let expert = policy(Difficulty::Expert).expect("served");
    for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5)] {
        for view in sample_views(rules, players).iter().step_by(3) {
            let mut request = select(view_to_wire(view), pb::Difficulty::Expert);
            request.max_iterations = Some(120);
            request.budget_ms = Some(10_000);
            request.explain = true;
            let r = client.select_play(request).await.unwrap().into_inner();
            let seed = derive_seed(GameKind::Daifugo, view.fingerprint(), Difficulty::Expert);
            assert_eq!(r.seed, seed);
            let mut ctx = DecisionContext::unbounded(seed).with_max_iterations(Some(120));
            let expected = expert.decide(view, &mut ctx);
            let decision = match r.decision.and_then(|d| d.game) {
                Some(pb::decision::Game::Daifugo(d)) => d,
                other => panic!("not a Daifugo decision: {other:?}"),
            };
            assert_eq!(decision, decision_to_wire(&expected));
            assert!(legal_decisions(view).contains(&expected));
            assert_eq!(r.search_iterations, ctx.work().iterations);
            if situation(view) == Situation::Exchange {
                assert_eq!(r.search_iterations, 0, "the exchange is not searched");
                let hard = policy(Difficulty::Hard).expect("served");
                let hard_choice = hard.decide(view, &mut DecisionContext::unbounded(seed));
                assert_eq!(
                    expected, hard_choice,
                    "the exchange is the hard evaluation's"
                );
            } else if let Some(mate) = Daifugo::forced_win(view) {
                assert_eq!(expected, mate, "a forced win is played at once");
                assert_eq!(r.search_iterations, 0, "a forced win is not searched");
                assert_eq!(r.explanation[0].terms[0].name, "mate");
            } else if legal_decisions(view).len() > 1 {
                assert!(r.search_iterations > 0);
                assert!(r.explanation.iter().any(|c| c.chosen));
            }
        }
    }
}

#[tokio::test]
async fn expert_on_a_budget_under_the_house_rules_is_replayed_by_the_playouts_it_reports() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let expert = policy(Difficulty::Expert).expect("served");
    // The served search plays until its budget ends, so its answer is reproduced by the
    // work it reports, not by a fixed count. Under the UECda rules it shares the budget
    // by successive halving, whose phases follow the clock: there the answer is only
    // checked to be legal.
    for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5)] {
        for view in sample_views(rules, players).iter().step_by(3) {
            let mut request = select(view_to_wire(view), pb::Difficulty::Expert);
            request.budget_ms = Some(30);
            let r = client.select_play(request).await.unwrap().into_inner();
            let decision = match r.decision.and_then(|d| d.game) {
                Some(pb::decision::Game::Daifugo(d)) => d,
                other => panic!("not a Daifugo decision: {other:?}"),
            };
            if rules == RuleSet::uecda() {
                assert!(decision_from_wire(view, &decision).is_some());
                continue;
            }
            if r.search_iterations == 0 {
                // A forced win, a phase without a search, or a busy machine's budget
                // ending before the first playout.
                continue;
            }
            let mut ctx =
                DecisionContext::unbounded(r.seed).with_max_iterations(Some(r.search_iterations));
            let expected = expert.decide(view, &mut ctx);
            assert_eq!(decision, decision_to_wire(&expected));
            assert_eq!(r.search_iterations, ctx.work().iterations);
            assert_eq!(r.fallback, ctx.work().fallback);
        }
    }
}

// ------------------------------------------------------- a joker declared on the table

fn card(rank: u32, suit: pb::DaifugoSuit) -> pb::DaifugoCard {
    pb::DaifugoCard {
        rank,
        suit: suit as i32,
        joker: 0,
    }
}

fn joker() -> pb::DaifugoCard {
    pb::DaifugoCard {
        rank: 0,
        suit: 0,
        joker: 1,
    }
}

fn heimin(card_count: u32) -> pb::DaifugoSeat {
    pb::DaifugoSeat {
        card_count,
        title: pb::DaifugoTitle::Heimin as i32,
        passed: false,
        finished: false,
    }
}

const S: pb::DaifugoSuit = pb::DaifugoSuit::Spades;
const H: pb::DaifugoSuit = pb::DaifugoSuit::Hearts;
const D: pb::DaifugoSuit = pb::DaifugoSuit::Diamonds;
const C: pb::DaifugoSuit = pb::DaifugoSuit::Clubs;

/// Game 1, 4 seats, seat 0 led a sequence ♠5 ♠6 (the joker as ♠7); seat 1 follows
/// holding ♥8 ♥9 ♥10 (it beats the sequence) and more.
fn joker_sequence_view(preset: pb::DaifugoRulePreset) -> pb::DaifugoView {
    let table_cards = vec![card(5, S), card(6, S), joker()];
    let hand = vec![
        card(3, H),
        card(4, D),
        card(8, H),
        card(9, H),
        card(10, H),
        card(11, C),
        card(12, D),
        card(13, C),
        card(14, S),
        card(15, D),
        card(7, C),
        card(6, D),
        card(4, C),
    ];
    pb::DaifugoView {
        rules: Some(pb::DaifugoRules {
            preset: preset as i32,
            ..Default::default()
        }),
        seat: 1,
        game: 1,
        phase: pb::DaifugoPhase::Play as i32,
        give_back: 0,
        hand,
        table: Some(pb::DaifugoTable {
            owner: 0,
            kind: pb::DaifugoPlayKind::Sequence as i32,
            cards: vec![
                pb::DaifugoPlayCard {
                    card: Some(card(5, S)),
                    declared: None,
                },
                pb::DaifugoPlayCard {
                    card: Some(card(6, S)),
                    declared: None,
                },
                pb::DaifugoPlayCard {
                    card: Some(joker()),
                    declared: Some(card(7, S)),
                },
            ],
        }),
        revolution: false,
        jack_back: false,
        lock: vec![],
        // 53 cards: 14 13 13 13 dealt, seat 0 played 3.
        seats: vec![heimin(11), heimin(13), heimin(13), heimin(13)],
        played: table_cards.clone(),
        removed_unseen: 0,
        log: vec![pb::DaifugoLogEntry {
            seat: 0,
            cards: table_cards,
        }],
        exchange_known: None,
    }
}

#[tokio::test]
async fn a_joker_declared_on_the_table() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for preset in [pb::DaifugoRulePreset::House, pb::DaifugoRulePreset::Uecda] {
        let wire = joker_sequence_view(preset);
        let view =
            climbot::service::daifugo::decode(wire.clone()).unwrap_or_else(|e| panic!("{e}"));
        let table = view.table().unwrap();
        assert_eq!(table.play.declared().count(), 1);
        // The view survives the wire unchanged (declaration included).
        assert_eq!(
            climbot::service::daifugo::decode(view_to_wire(&view)).unwrap(),
            view
        );
        check_view(&mut client, &view).await;
        // ♥8 ♥9 ♥10 is the only natural sequence above ♠7.
        let response = client
            .select_play(select(wire, pb::Difficulty::Easy))
            .await
            .unwrap()
            .into_inner();
        let Some(pb::daifugo_decision::Decision::Play(play)) = decision(&response).decision else {
            panic!("the easy bot beats the sequence");
        };
        assert_eq!(play.kind, pb::DaifugoPlayKind::Sequence as i32);
        let ranks: Vec<(u32, i32)> = play
            .cards
            .iter()
            .map(|c| {
                let c = c.card.as_ref().unwrap();
                (c.rank, c.suit)
            })
            .collect();
        assert_eq!(ranks, [(8, H as i32), (9, H as i32), (10, H as i32)]);
    }
}

#[tokio::test]
async fn decisions_are_deterministic() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let views = sample_views(RuleSet::uecda(), 5);
    for view in views.iter().take(6) {
        let request = select(view_to_wire(view), pb::Difficulty::Easy);
        let first = client
            .select_play(request.clone())
            .await
            .unwrap()
            .into_inner();
        let second = client
            .select_play(request.clone())
            .await
            .unwrap()
            .into_inner();
        assert_eq!(first.decision, second.decision);
        assert_eq!(first.seed, second.seed, "the derived seed is stable");
        let seeded = client
            .select_play(pb::SelectPlayRequest {
                seed: Some(first.seed),
                ..request
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(seeded.decision, first.decision);
        assert_eq!(seeded.seed, first.seed);
    }
    // The derived seed follows the view: two different views, two different seeds.
    let a = client
        .select_play(select(view_to_wire(&views[0]), pb::Difficulty::Easy))
        .await
        .unwrap()
        .into_inner();
    let b = client
        .select_play(select(view_to_wire(&views[1]), pb::Difficulty::Easy))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(a.seed, b.seed);
}

#[tokio::test]
async fn normal_and_hard_answer_their_in_process_decision_with_explanations() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    // Both presets, and a toggle override: two jokers and J-back on the house rules.
    let mut custom = RuleSet::house();
    custom.jokers = 2;
    custom.jack_back = true;
    for (rules, players) in [(RuleSet::house(), 4), (RuleSet::uecda(), 5), (custom, 4)] {
        for view in sample_views(rules, players).iter().step_by(2) {
            for (difficulty, level) in [
                (pb::Difficulty::Normal, Difficulty::Normal),
                (pb::Difficulty::Hard, Difficulty::Hard),
            ] {
                let bot = policy(level).expect("served");
                let seed = derive_seed(GameKind::Daifugo, view.fingerprint(), level);
                let expected = bot.decide(view, &mut DecisionContext::unbounded(seed));
                let mut request = select(view_to_wire(view), difficulty);
                request.explain = true;
                let r = client.select_play(request).await.unwrap().into_inner();
                assert_eq!(r.seed, seed);
                assert_eq!(r.difficulty, difficulty as i32);
                assert_eq!(decision(&r), decision_to_wire(&expected), "{level:?}");
                assert!(legal_decisions(view).contains(&expected));
                assert!(!r.explanation.is_empty(), "{level:?}: no candidates");
                assert!(r.explanation.iter().any(|c| c.chosen));
            }
        }
    }
    // An invalid view is refused as such whatever the level.
    let mut bad = joker_sequence_view(pb::DaifugoRulePreset::House);
    bad.seat = 9;
    let status = client
        .select_play(select(bad, pb::Difficulty::Hard))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::InvalidArgument);
}
