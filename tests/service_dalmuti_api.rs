//! The Great Dalmuti end to end: for a view of every phase (a lead, a follow that plays,
//! a follow that passes, both tax returns, both revolution choices, a play after a
//! Greater Revolution) both RPCs answer over a real server, the answer is the in-process
//! easy decision and among the legal ones, seeds are derived deterministically, and the
//! served NORMAL and HARD answer the in-process decision of their seed (with scored
//! candidates under `explain`), and EXPERT answers its in-process decision.
mod common;

use climbot::bot::{DecisionContext, Difficulty};
use climbot::dalmuti::cards::Cards;
use climbot::dalmuti::referee::{HandState, deal};
use climbot::dalmuti::{DalmutiDecision, DalmutiView, Phase, legal_decisions, policy};
use climbot::game::GameKind;
use climbot::pb;
use climbot::service::dalmuti::{decision_from_wire, decision_to_wire, view_to_wire};
use climbot::service::derive_seed;
use common::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

const PLAYERS: usize = 5;

/// The first deal (seeds 0, 1, ...) whose hands satisfy `want`, as a hand in progress.
fn deal_where(hand_number: u32, want: impl Fn(&[Cards]) -> bool) -> HandState {
    for seed in 0..10_000 {
        let hands = deal(PLAYERS, &mut ChaCha8Rng::seed_from_u64(seed));
        if want(&hands) {
            let seating: Vec<usize> = (0..PLAYERS).collect();
            let scores = vec![hand_number - 1; PLAYERS];
            return HandState::new(&hands, &seating, &scores, hand_number, 20 - hand_number);
        }
    }
    panic!("no deal found");
}

fn no_revolution(hands: &[Cards]) -> bool {
    hands.iter().all(|h| h.jesters() < 2)
}

fn easy(view: &DalmutiView) -> DalmutiDecision {
    policy(Difficulty::Easy)
        .unwrap()
        .decide(view, &mut DecisionContext::unbounded(0))
}

/// Plays easy decisions until `stop` holds for the pending view.
fn advance(state: &mut HandState, stop: impl Fn(&DalmutiView) -> bool) -> DalmutiView {
    loop {
        let view = state.view().unwrap().expect("the hand ended first");
        if stop(&view) {
            return view;
        }
        state.apply(easy(&view), "easy").unwrap();
    }
}

/// One view per case the API serves, with its name.
fn phase_views() -> Vec<(&'static str, DalmutiView)> {
    let mut out = Vec::new();

    let mut play = deal_where(1, no_revolution);
    let lead = advance(&mut play, |_| true);
    assert_eq!(
        (lead.phase(), lead.table(), lead.seat()),
        (Phase::Play, None, 0)
    );
    out.push(("play lead", lead));
    let follow = advance(&mut play, |v| {
        v.table().is_some() && matches!(easy(v), DalmutiDecision::Play(_))
    });
    out.push(("play follow", follow));
    let pass = advance(&mut play, |v| {
        v.table().is_some() && easy(v) == DalmutiDecision::Pass && v.log().len() > 4
    });
    out.push(("play follow (pass)", pass));

    let mut taxes = deal_where(2, no_revolution);
    let gd = advance(&mut taxes, |_| true);
    assert_eq!((gd.phase(), gd.seat()), (Phase::TaxReturn, 0));
    out.push(("tax return (GD)", gd));
    let ld = advance(&mut taxes, |v| v.seat() == 1);
    assert_eq!(ld.phase(), Phase::TaxReturn);
    out.push(("tax return (LD)", ld));

    let mut greater = deal_where(1, |h| h[PLAYERS - 1].jesters() == 2);
    let gp = advance(&mut greater, |_| true);
    assert_eq!((gp.phase(), gp.seat()), (Phase::Revolution, PLAYERS - 1));
    assert_eq!(easy(&gp), DalmutiDecision::Revolution(true));
    out.push(("revolution (GP declares)", gp));
    let mirrored = advance(&mut greater, |v| v.phase() == Phase::Play);
    assert!(mirrored.revolution().is_some_and(|r| r.greater));
    out.push(("play after a Greater Revolution", mirrored));

    let merchant = advance(&mut deal_where(1, |h| h[2].jesters() == 2), |_| true);
    assert_eq!((merchant.phase(), merchant.seat()), (Phase::Revolution, 2));
    assert_eq!(easy(&merchant), DalmutiDecision::Revolution(false));
    out.push(("revolution (Merchant keeps quiet)", merchant));
    out
}

fn dalmuti_view(view: &DalmutiView) -> pb::GameView {
    pb::GameView {
        game: Some(pb::game_view::Game::Dalmuti(view_to_wire(view))),
    }
}

fn select_dalmuti(view: &DalmutiView, difficulty: pb::Difficulty) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        explain: false,
        view: Some(dalmuti_view(view)),
        difficulty: difficulty as i32,
        seed: None,
        budget_ms: None,
        max_iterations: None,
        strength: None,
    }
}

fn decision_of(response: &pb::SelectPlayResponse) -> pb::DalmutiDecision {
    match response.decision.as_ref().and_then(|d| d.game.as_ref()) {
        Some(pb::decision::Game::Dalmuti(d)) => d.clone(),
        other => panic!("not a Dalmuti decision: {other:?}"),
    }
}

fn legal_of(response: pb::ListLegalPlaysResponse) -> Vec<pb::DalmutiDecision> {
    match response.game {
        Some(pb::list_legal_plays_response::Game::Dalmuti(l)) => l.decisions,
        other => panic!("not a Dalmuti answer: {other:?}"),
    }
}

#[tokio::test]
async fn every_phase_is_served_by_both_rpcs() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (name, view) in phase_views() {
        let legal = legal_of(
            client
                .list_legal_plays(pb::ListLegalPlaysRequest {
                    view: Some(dalmuti_view(&view)),
                })
                .await
                .unwrap_or_else(|e| panic!("{name}: {e:?}"))
                .into_inner(),
        );
        let expected: Vec<_> = legal_decisions(&view)
            .iter()
            .map(decision_to_wire)
            .collect();
        assert!(!legal.is_empty(), "{name}: no legal decision");
        assert_eq!(legal, expected, "{name}: legal list");
        let has_pass = legal
            .iter()
            .any(|d| matches!(d.decision, Some(pb::dalmuti_decision::Decision::Pass(_))));
        assert_eq!(
            has_pass,
            view.phase() == Phase::Play && view.table().is_some(),
            "{name}: pass listed iff following"
        );

        let response = client
            .select_play(select_dalmuti(&view, pb::Difficulty::Easy))
            .await
            .unwrap_or_else(|e| panic!("{name}: {e:?}"))
            .into_inner();
        assert_eq!(response.difficulty, pb::Difficulty::Easy as i32, "{name}");
        assert!(!response.fallback, "{name}");
        let answer = decision_of(&response);
        let want = easy(&view);
        assert_eq!(
            answer,
            decision_to_wire(&want),
            "{name}: not the easy decision"
        );
        assert_eq!(decision_from_wire(&view, &answer), Some(want), "{name}");
        assert!(legal.contains(&answer), "{name}: {answer:?} is not listed");
    }
}

#[tokio::test]
async fn seeds_are_derived_from_the_view_and_answers_repeat() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let views = phase_views();
    let mut seeds = Vec::new();
    for (name, view) in &views {
        let mut answers = Vec::new();
        for _ in 0..2 {
            let r = client
                .select_play(select_dalmuti(view, pb::Difficulty::Easy))
                .await
                .unwrap()
                .into_inner();
            answers.push((r.seed, decision_of(&r)));
        }
        assert_eq!(answers[0], answers[1], "{name}: same view, same answer");
        let derived = derive_seed(GameKind::Dalmuti, view.fingerprint(), Difficulty::Easy);
        assert_eq!(answers[0].0, derived, "{name}: the documented derivation");
        seeds.push(derived);

        // A client seed is echoed, and the easy answer does not depend on it.
        let mut request = select_dalmuti(view, pb::Difficulty::Unspecified);
        request.seed = Some(12345);
        let r = client.select_play(request).await.unwrap().into_inner();
        assert_eq!(r.seed, 12345);
        assert_eq!(r.difficulty, pb::Difficulty::Easy as i32, "server default");
        assert_eq!(decision_of(&r), answers[0].1, "{name}");
    }
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), views.len(), "different views, different seeds");

    // The seed hashes the normalized view, not the wire bytes: leaving out `played`
    // before anything is played (absent = none) changes the bytes but not the seed.
    let (_, lead) = &views[0];
    let mut request = select_dalmuti(lead, pb::Difficulty::Easy);
    let Some(pb::game_view::Game::Dalmuti(wire)) =
        request.view.as_mut().and_then(|v| v.game.as_mut())
    else {
        unreachable!()
    };
    let played = wire.played.take().expect("view_to_wire sets played");
    assert!(played.counts.iter().all(|&c| c == 0));
    let r = client.select_play(request).await.unwrap().into_inner();
    assert_eq!(r.seed, seeds_of(lead));
    assert_eq!(decision_of(&r), decision_to_wire(&easy(lead)));
}

fn seeds_of(view: &DalmutiView) -> u64 {
    derive_seed(GameKind::Dalmuti, view.fingerprint(), Difficulty::Easy)
}

#[tokio::test]
async fn normal_and_hard_answer_their_in_process_decision_with_explanations() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (difficulty, level) in [
        (pb::Difficulty::Normal, Difficulty::Normal),
        (pb::Difficulty::Hard, Difficulty::Hard),
    ] {
        let bot = policy(level).expect("served");
        for (name, view) in phase_views() {
            let seed = derive_seed(GameKind::Dalmuti, view.fingerprint(), level);
            let expected = bot.decide(&view, &mut DecisionContext::unbounded(seed));
            let mut request = select_dalmuti(&view, difficulty);
            request.explain = true;
            let r = client.select_play(request).await.unwrap().into_inner();
            assert_eq!(r.seed, seed, "{name}");
            assert_eq!(
                decision_of(&r),
                decision_to_wire(&expected),
                "{level:?} {name}"
            );
            assert!(legal_decisions(&view).contains(&expected), "{name}");
            assert!(!r.explanation.is_empty(), "{level:?} {name}: no candidates");
        }
    }
}

#[tokio::test]
async fn expert_answers_every_phase_with_its_in_process_decision() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let expert = policy(Difficulty::Expert).expect("served");
    let hard = policy(Difficulty::Hard).expect("served");
    for (name, view) in phase_views() {
        let seed = derive_seed(GameKind::Dalmuti, view.fingerprint(), Difficulty::Expert);
        let mut ctx = DecisionContext::unbounded(seed).with_max_iterations(Some(200));
        let expected = expert.decide(&view, &mut ctx);
        let mut request = select_dalmuti(&view, pb::Difficulty::Expert);
        request.explain = true;
        request.max_iterations = Some(200);
        request.budget_ms = Some(10_000);
        let r = client.select_play(request).await.unwrap().into_inner();
        assert_eq!(r.seed, seed, "{name}");
        assert_eq!(decision_of(&r), decision_to_wire(&expected), "{name}");
        assert_eq!(r.search_iterations, ctx.work().iterations, "{name}");
        assert!(legal_decisions(&view).contains(&expected), "{name}");
        assert!(!r.explanation.is_empty(), "{name}: no candidates");
        if view.phase() == Phase::Play {
            assert!(
                r.search_iterations > 0,
                "{name}: the play phase is searched"
            );
        } else {
            // The tax return and the revolution choice are the hard evaluation's.
            assert_eq!(r.search_iterations, 0, "{name}");
            let hard_choice = hard.decide(&view, &mut DecisionContext::unbounded(seed));
            assert_eq!(expected, hard_choice, "{name}");
        }
    }
}

#[tokio::test]
async fn expert_on_a_budget_is_replayed_by_the_playouts_it_reports() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let expert = policy(Difficulty::Expert).expect("served");
    // The served search plays until its budget ends, so its answer is reproduced by the
    // work it reports, not by a fixed count.
    for (name, view) in phase_views() {
        let mut request = select_dalmuti(&view, pb::Difficulty::Expert);
        request.budget_ms = Some(30);
        let r = client.select_play(request).await.unwrap().into_inner();
        if r.search_iterations == 0 {
            // Only a busy machine ends a play phase's budget before its first playout.
            assert!(view.phase() != Phase::Play || r.fallback, "{name}");
            continue;
        }
        let mut ctx =
            DecisionContext::unbounded(r.seed).with_max_iterations(Some(r.search_iterations));
        let expected = expert.decide(&view, &mut ctx);
        assert_eq!(decision_of(&r), decision_to_wire(&expected), "{name}");
        assert_eq!(r.search_iterations, ctx.work().iterations, "{name}");
        // A budget that ends within the first round is replayed as a limit below it.
        assert_eq!(r.fallback, ctx.work().fallback, "{name}");
    }
}

#[tokio::test]
async fn lexio_is_still_served_next_to_dalmuti() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let r = client
        .select_play(select(lead_view(), pb::Difficulty::Easy))
        .await
        .unwrap()
        .into_inner();
    assert!(matches!(
        r.decision.and_then(|d| d.game),
        Some(pb::decision::Game::Lexio(_))
    ));
}
