//! Views from real play that the analysis tests need, shared by the core's analysis
//! tests and the service's AnalyzePlay tests (which include this file by path).

#![allow(dead_code)]

use climbot_core::bot::Difficulty;
use climbot_core::daifugo::Daifugo;
use climbot_core::daifugo::referee::play_match_observed as play_daifugo;
use climbot_core::daifugo::rules::RuleSet;
use climbot_core::daifugo::view::{DaifugoView, Phase};
use climbot_core::game::Game;
use climbot_core::lexio::Lexio;
use climbot_core::lexio::referee::find_view;
use climbot_core::lexio::view::{Action, LexioView};
use climbot_core::search::Searchable;

/// A Lexio view from a real match where the seat follows a table, may pass, and has a
/// forced win; with that win.
pub fn mate_view_with_a_pass() -> (LexioView, Action) {
    let easy = Lexio::policy(Difficulty::Easy).unwrap();
    let view = find_view(&[easy; 4], 4, 4500..4550, &mut |view| {
        let legal = Lexio::legal_decisions(view);
        legal.len() > 2 && legal.contains(&Action::Pass) && Lexio::forced_win(view).is_some()
    })
    .expect("some match has a forced win on a table");
    let win = Lexio::forced_win(&view).unwrap();
    (view, win)
}

/// A Daifugo view in the exchange, which the search does not play: the second game of
/// a match opens with it.
pub fn daifugo_exchange_view() -> DaifugoView {
    let easy = Daifugo::policy(Difficulty::Easy).unwrap();
    let mut exchange = None;
    let _ = play_daifugo(&[easy; 4], 2, 1, RuleSet::house(), &mut |r| {
        if let Some(seat) = r.to_act()
            && let Ok(view) = r.view(seat)
            && matches!(view.phase(), Phase::Exchange { .. })
        {
            exchange.get_or_insert(view);
        }
    });
    exchange.expect("the second game opens with the exchange")
}
