//! Warming before the server reports ready: what the bots build once and keep (Lexio's
//! safety table and deck keys, the binomial table of the card-counting bots) is built
//! by one decision per game, level and kind of view (a lead and a follow), each with
//! and without its explanation, so that a client's first call costs what the others
//! do. The calls go to the games' adapters directly: they reach neither the metrics
//! nor the logs.

use crate::bot::{DecisionContext, Difficulty};
use crate::game::GameKind;
use crate::loadtest::LoadtestError;
use crate::service::game::{Level, WireView, decode};
use std::time::{Duration, Instant};

/// Playouts per EXPERT decision while warming: enough to run every part of the search
/// once, far below a served decision's work.
const WARM_ITERATIONS: u64 = 64;

/// Makes every decision of the warm-up; returns how many and how long they took.
///
/// The views are the load-test kit's (seeded easy games, checked by the service's own
/// decoder), so warming depends on nothing outside the binary.
pub fn warm() -> Result<(usize, Duration), LoadtestError> {
    let start = Instant::now();
    let mut decisions = 0;
    let views = [
        (GameKind::Lexio, crate::loadtest::lexio_views(1)?),
        (GameKind::Dalmuti, crate::loadtest::dalmuti_views(1)?),
        (GameKind::Daifugo, crate::loadtest::daifugo_views(1)?),
    ];
    let views = views
        .into_iter()
        .flat_map(|(kind, views)| views.into_iter().map(move |view| (kind, view)));
    for (kind, (situation, view)) in views {
        let game = decode(WireView::Proto(Some(view))).map_err(|e| LoadtestError::Refused {
            game: kind,
            kind: situation,
            reason: format!("{e:?}"),
        })?;
        for difficulty in Difficulty::ALL {
            if !game.supports(difficulty) {
                continue;
            }
            for explain in [false, true] {
                let mut ctx = DecisionContext::unbounded(game.fingerprint())
                    .with_max_iterations(Some(WARM_ITERATIONS));
                game.decide(Level::Served(difficulty), explain, &mut ctx);
                decisions += 1;
            }
        }
    }
    Ok((decisions, start.elapsed()))
}
