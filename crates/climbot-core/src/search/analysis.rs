//! Hints and review for a human at the table: every legal decision of a view with the
//! outcome the search expects of it, and, for the decision the human made, how much it
//! gave up against the best and a category a player understands.
//!
//! An analysis has two parts. First the served EXPERT decides, with the context's seed
//! and work: its choice is the analysis' best, so that a hint recommends exactly what
//! EXPERT plays with that seed and `max_iterations` (a search of every decision with
//! the same playouts would pick another one often, by noise, where EXPERT narrows its
//! search to a few candidates). Then EXPERT's search runs again with everything that
//! narrows it turned off: every legal decision is a candidate (no shortlist, no anchor,
//! no forced-win shortcut) and none is eliminated, so each gets an equal share of the
//! playouts and an interval of its own. The losses are paired: each candidate is
//! compared with the best on the same deals, which makes the loss far more precise than
//! the difference of two means. A loss may come out negative (the even search rates a
//! decision above EXPERT's choice, within its noise): such a decision is good.
//!
//! The work: with an iteration limit, each part does that many playouts (EXPERT's
//! part stops early only if the budget ends); with a budget alone, EXPERT's part has
//! the first half of it and the even search the rest.

use super::expert::ExpertBot;
use super::{Candidate, Searchable};
use crate::bot::DecisionContext;
use crate::game::Policy;
use crate::learn::Learnable;

/// How a reviewed decision compares with the best, from the loss in the game's unit
/// ([`Reviewable::REVIEW_THRESHOLDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// The best decision: EXPERT's choice.
    Best,
    /// A loss below the first threshold.
    Good,
    /// A loss below the second.
    Inaccuracy,
    /// A loss below the third.
    Mistake,
    /// A loss at or above the third.
    Blunder,
}

impl Category {
    /// The category of a decision that loses `loss` (in the game's unit, positive is
    /// worse) against the best, by `thresholds` (ascending).
    pub fn of_loss(loss: f64, thresholds: [f64; 3]) -> Category {
        if loss < thresholds[0] {
            Category::Good
        } else if loss < thresholds[1] {
            Category::Inaccuracy
        } else if loss < thresholds[2] {
            Category::Mistake
        } else {
            Category::Blunder
        }
    }

    /// The category's name (lower case).
    pub const fn name(self) -> &'static str {
        match self {
            Category::Best => "best",
            Category::Good => "good",
            Category::Inaccuracy => "inaccuracy",
            Category::Mistake => "mistake",
            Category::Blunder => "blunder",
        }
    }
}

/// A game whose decisions can be reviewed: the losses that separate the categories.
pub trait Reviewable: Searchable {
    /// The losses, in the game's unit per [`crate::game::Simulation::outcome`] (chips
    /// per round, or places), at which a decision stops being good, an inaccuracy and
    /// a mistake.
    const REVIEW_THRESHOLDS: [f64; 3];
}

/// What the search expects of one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment<D> {
    /// The decision.
    pub decision: D,
    /// Its mean outcome in the game's unit (chips, or the finishing place).
    pub expected: f64,
    /// The 95% interval of that mean (with at least two playouts).
    pub ci95: Option<(f64, f64)>,
    /// Playouts it got.
    pub playouts: u64,
    /// Whether it is the best decision: EXPERT's choice.
    pub best: bool,
    /// Its loss against the best on the same deals (0 for the best; positive is
    /// worse, in the game's unit) and that loss's 95% interval.
    pub loss: (f64, Option<(f64, f64)>),
}

/// A view's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<D> {
    /// Every legal decision, best first.
    pub assessments: Vec<Assessment<D>>,
    /// The reviewed decision's category, when one was given.
    pub review: Option<(D, Category)>,
    /// Playouts done.
    pub iterations: u64,
}

/// Why a view has no analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The view's phase is not played by the search (an exchange, a tax return, a
    /// revolution choice).
    NotSearched,
    /// The budget (or the iteration limit) ended before every decision had a playout.
    NoTime,
    /// The reviewed decision is not legal in the view.
    Illegal,
}

/// Analyzes `view`, reviewing `reviewed` if given. Both parts stop at the context's
/// budget or iteration limit only (no candidate of the even search is eliminated): a
/// caller without a budget that ends sets a limit.
pub fn analyze<G: Learnable + Reviewable>(
    view: &G::View,
    reviewed: Option<&G::Decision>,
    ctx: &mut DecisionContext<'_>,
) -> Result<Analysis<G::Decision>, AnalysisError> {
    if reviewed.is_some_and(|d| !G::is_legal(view, d)) {
        return Err(AnalysisError::Illegal);
    }
    if G::position(view, &G::deal(view, &mut ctx.rng().clone())).is_none() {
        return Err(AnalysisError::NotSearched);
    }
    let legal = G::legal_decisions(view).len() as u64;
    if ctx.max_iterations().is_some_and(|max| max < legal) {
        // Not a playout for each decision: refused before EXPERT's part runs.
        return Err(AnalysisError::NoTime);
    }
    let (best, expert_iterations) = expert_choice::<G>(view, ctx);
    let result = ExpertBot::<G>::analysis()
        .search_all(view, Some(best), ctx)
        .ok_or(AnalysisError::NotSearched)?
        .ok_or(AnalysisError::NoTime)?;
    ctx.record_iterations(expert_iterations);
    let sign = if G::HIGHER_IS_BETTER { 1.0 } else { -1.0 };
    let loss_of = |c: &Candidate<G::Decision>| match c.deficit {
        _ if c.decision == best => (0.0, Some((0.0, 0.0))),
        Some((mean, se)) => {
            let interval = (c.visits >= 2 && se.is_finite()).then(|| {
                let half = crate::stats::t975(c.visits as usize - 1) * se;
                (mean - half, mean + half)
            });
            (mean, interval)
        }
        None => (f64::NAN, None),
    };
    let mut assessments: Vec<Assessment<G::Decision>> = result
        .candidates
        .iter()
        .map(|c| Assessment {
            decision: c.decision,
            expected: c.mean,
            ci95: c.ci95,
            playouts: c.visits,
            best: c.decision == best,
            loss: loss_of(c),
        })
        .collect();
    // Best first, then by mean outcome.
    assessments.sort_by(|a, b| {
        b.best
            .cmp(&a.best)
            .then((sign * b.expected).total_cmp(&(sign * a.expected)))
    });
    let review = reviewed.map(|d| {
        let a = assessments
            .iter()
            .find(|a| a.decision == *d)
            .expect("a legal decision is a candidate");
        let category = if a.best {
            Category::Best
        } else {
            Category::of_loss(a.loss.0, G::REVIEW_THRESHOLDS)
        };
        (*d, category)
    });
    Ok(Analysis {
        assessments,
        review,
        iterations: ctx.work().iterations,
    })
}

/// The served EXPERT's decision in `view` with the context's seed and iteration limit
/// (what SelectPlay at EXPERT answers with them), and the playouts it did. Its own
/// context leaves `ctx`'s generator untouched; without an iteration limit it stops at
/// half the budget.
fn expert_choice<G: Learnable>(view: &G::View, ctx: &DecisionContext<'_>) -> (G::Decision, u64) {
    let limited = ctx.max_iterations().is_some();
    let first_half =
        || ctx.should_stop() || (!limited && ctx.budget_spent().is_some_and(|spent| spent >= 0.5));
    let spent_of_half = || {
        let spent = ctx.budget_spent().unwrap_or(0.0);
        if limited {
            spent
        } else {
            (2.0 * spent).min(1.0)
        }
    };
    let mut own =
        DecisionContext::new(ctx.seed(), &first_half).with_max_iterations(ctx.max_iterations());
    if ctx.budget_spent().is_some() {
        own = own.with_budget_spent(&spent_of_half);
    }
    let choice = ExpertBot::<G>::served().decide(view, &mut own);
    (choice, own.work().iterations)
}
