//! The analysis behind hints and review: every legal decision once, the best first with
//! no loss, the others' paired losses, reproducible from the seed, and a review that
//! calls the best "best" and giving up a forced win a blunder.

use climbot_core::bot::DecisionContext;
use climbot_core::daifugo::Daifugo;
use climbot_core::game::Game;
use climbot_core::lexio::Lexio;
use climbot_core::lexio::view::Action;
use climbot_core::search::analysis::{AnalysisError, Category, analyze};

#[path = "support/analysis_views.rs"]
mod analysis_views;

use analysis_views::{daifugo_exchange_view, mate_view_with_a_pass};

#[test]
fn every_decision_once_best_first_with_paired_losses() {
    let (view, _) = mate_view_with_a_pass();
    let legal = Lexio::legal_decisions(&view);
    let mut ctx = DecisionContext::unbounded(7).with_max_iterations(Some(60 * legal.len() as u64));
    let analysis = analyze::<Lexio>(&view, None, &mut ctx).unwrap();
    assert_eq!(analysis.assessments.len(), legal.len());
    for d in &legal {
        assert_eq!(
            analysis
                .assessments
                .iter()
                .filter(|a| a.decision == *d)
                .count(),
            1
        );
    }
    assert!(analysis.assessments[0].best);
    assert_eq!(analysis.assessments.iter().filter(|a| a.best).count(), 1);
    assert_eq!(analysis.assessments[0].loss.0, 0.0);
    let best = analysis.assessments[0].expected;
    for a in &analysis.assessments {
        // No candidate is eliminated: each gets the same share.
        assert_eq!(a.playouts, 60, "{a:?}");
        assert!(a.expected <= best, "{a:?}");
        // The paired loss on the same deals is the difference of the means.
        assert!((a.loss.0 - (best - a.expected)).abs() < 1e-9, "{a:?}");
        let (lo, hi) = a.loss.1.unwrap();
        assert!(lo <= a.loss.0 && a.loss.0 <= hi);
    }
    assert_eq!(analysis.iterations, 60 * legal.len() as u64);
    // Reproducible from the seed.
    let mut again =
        DecisionContext::unbounded(7).with_max_iterations(Some(60 * legal.len() as u64));
    assert_eq!(analyze::<Lexio>(&view, None, &mut again).unwrap(), analysis);
}

#[test]
fn the_review_calls_the_best_best_and_a_thrown_away_win_a_blunder() {
    let (view, win) = mate_view_with_a_pass();
    let limit = Some(80 * Lexio::legal_decisions(&view).len() as u64);
    let mut ctx = DecisionContext::unbounded(3).with_max_iterations(limit);
    let best = analyze::<Lexio>(&view, None, &mut ctx).unwrap().assessments[0].decision;
    let mut ctx = DecisionContext::unbounded(3).with_max_iterations(limit);
    let review = analyze::<Lexio>(&view, Some(&best), &mut ctx)
        .unwrap()
        .review;
    assert_eq!(review, Some((best, Category::Best)));
    // The forced win is worth every chip of the round; passing gives the table away.
    let mut ctx = DecisionContext::unbounded(3).with_max_iterations(limit);
    let analysis = analyze::<Lexio>(&view, Some(&Action::Pass), &mut ctx).unwrap();
    let pass = analysis
        .assessments
        .iter()
        .find(|a| a.decision == Action::Pass)
        .unwrap();
    let won = analysis
        .assessments
        .iter()
        .find(|a| a.decision == win)
        .unwrap();
    assert!(won.expected > pass.expected, "{won:?} {pass:?}");
    let (_, category) = analysis.review.unwrap();
    assert!(category >= Category::Mistake, "{category:?} after {pass:?}");
}

#[test]
fn an_illegal_review_and_an_unsearched_phase_are_refused() {
    let (view, _) = mate_view_with_a_pass();
    let mut ctx = DecisionContext::unbounded(1).with_max_iterations(Some(100));
    let illegal = Action::Play(
        climbot_core::lexio::classify(view.players(), view.unseen().iter().take(1).collect())
            .unwrap(),
    );
    assert_eq!(
        analyze::<Lexio>(&view, Some(&illegal), &mut ctx),
        Err(AnalysisError::Illegal)
    );
    // A Daifugo exchange is answered by the evaluation, not searched.
    let exchange = daifugo_exchange_view();
    let mut ctx = DecisionContext::unbounded(1).with_max_iterations(Some(100));
    assert_eq!(
        analyze::<Daifugo>(&exchange, None, &mut ctx),
        Err(AnalysisError::NotSearched)
    );
    // Too few iterations for a playout each: no analysis.
    let mut ctx = DecisionContext::unbounded(1).with_max_iterations(Some(1));
    assert_eq!(
        analyze::<Lexio>(&view, None, &mut ctx),
        Err(AnalysisError::NoTime)
    );
}

#[test]
fn categories_follow_the_thresholds() {
    let t = [0.05, 0.15, 0.4];
    assert_eq!(Category::of_loss(0.0, t), Category::Good);
    assert_eq!(Category::of_loss(0.05, t), Category::Inaccuracy);
    assert_eq!(Category::of_loss(0.2, t), Category::Mistake);
    assert_eq!(Category::of_loss(0.4, t), Category::Blunder);
    assert_eq!(Category::Blunder.name(), "blunder");
}
