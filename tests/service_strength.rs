//! The strength dial over a real server, in every game: a request with `strength` is
//! served by the calibrated setting nearest it (the response says its rating and its
//! level), a setting that is a plain level answers exactly as a request for that level
//! with the same seed, a strength outside the table takes its nearest end, a strength
//! that is no strength or comes with a `difficulty` is refused naming `strength`, the
//! same request answers the same twice, and the metrics count a call under the level
//! it served.
mod common;

use climbot::bot::Difficulty;
use climbot::daifugo::Daifugo;
use climbot::dalmuti::Dalmuti;
use climbot::dial::{DialTable, table_text};
use climbot::game::{Game, GameKind};
use climbot::lexio::Lexio;
use climbot::pb;
use climbot::service::game::difficulty_to_wire;
use common::*;
use tonic::Code;

/// A searching setting's playouts, so that its answer does not hang on the clock.
const ITERATIONS: u32 = 200;

/// One setting of a game's shipped dial: its rating, its bot and its level.
struct Setting {
    rating: f64,
    bot: String,
    base: Difficulty,
}

fn settings_of<G: Game>(game: GameKind) -> Vec<Setting> {
    DialTable::<G>::parse(table_text(game))
        .unwrap()
        .settings()
        .iter()
        .map(|s| Setting {
            rating: s.rating(),
            bot: s.bot().to_string(),
            base: s.base(),
        })
        .collect()
}

/// Each game with its shipped dial and a mid-game view (Lexio's goes through the fast
/// lane, the others through prost).
fn games() -> Vec<(GameKind, Vec<Setting>, pb::GameView)> {
    let view = |views: Vec<(&'static str, pb::GameView)>| views[0].1.clone();
    vec![
        (
            GameKind::Lexio,
            settings_of::<Lexio>(GameKind::Lexio),
            view(climbot::loadtest::lexio_views(3).unwrap()),
        ),
        (
            GameKind::Dalmuti,
            settings_of::<Dalmuti>(GameKind::Dalmuti),
            view(climbot::loadtest::dalmuti_views(3).unwrap()),
        ),
        (
            GameKind::Daifugo,
            settings_of::<Daifugo>(GameKind::Daifugo),
            view(climbot::loadtest::daifugo_views(3).unwrap()),
        ),
    ]
}

fn dial_request(view: &pb::GameView, strength: f64, seed: Option<u64>) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        view: Some(view.clone()),
        strength: Some(strength),
        seed,
        max_iterations: Some(ITERATIONS),
        ..Default::default()
    }
}

fn level_request(
    view: &pb::GameView,
    difficulty: Difficulty,
    seed: Option<u64>,
) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        view: Some(view.clone()),
        difficulty: difficulty_to_wire(difficulty) as i32,
        seed,
        max_iterations: Some(ITERATIONS),
        ..Default::default()
    }
}

#[tokio::test]
async fn each_strength_is_served_by_its_nearest_setting() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (game, settings, view) in games() {
        assert!(settings.len() >= 2, "{game}");
        for (i, setting) in settings.iter().enumerate() {
            // Exactly a setting's rating, and a little off it either way: by a point, or
            // by a quarter of the gap to the neighbour where that is closer.
            let gap = |j: Option<usize>| {
                j.and_then(|j| settings.get(j))
                    .map_or(f64::INFINITY, |s: &Setting| {
                        (s.rating - setting.rating).abs()
                    })
            };
            let up = (gap(Some(i + 1)) / 4.0).min(1.0);
            let down = (gap(i.checked_sub(1)) / 4.0).min(1.0);
            for strength in [setting.rating, setting.rating + up, setting.rating - down] {
                let strength = strength.max(0.0);
                let answer = client
                    .select_play(dial_request(&view, strength, Some(77)))
                    .await
                    .unwrap_or_else(|e| panic!("{game} at {strength}: {e:?}"))
                    .into_inner();
                assert_eq!(
                    answer.strength,
                    Some(setting.rating),
                    "{game} at {strength}"
                );
                assert_eq!(
                    answer.difficulty,
                    difficulty_to_wire(setting.base) as i32,
                    "{game} at {strength}"
                );
                assert_eq!(answer.seed, 77);
                if setting.bot == setting.base.name() {
                    let level = client
                        .select_play(level_request(&view, setting.base, Some(77)))
                        .await
                        .unwrap()
                        .into_inner();
                    assert_eq!(answer.decision, level.decision, "{game} {}", setting.bot);
                    assert_eq!(answer.search_iterations, level.search_iterations);
                    assert_eq!(level.strength, None, "only a dial request has a strength");
                }
            }
        }
        // Between two settings, a tie goes to the weaker.
        let middle = (settings[0].rating + settings[1].rating) / 2.0;
        let answer = client
            .select_play(dial_request(&view, middle, None))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(answer.strength, Some(settings[0].rating), "{game}");
        let above = client
            .select_play(dial_request(&view, middle + 0.5, None))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(above.strength, Some(settings[1].rating), "{game}");
    }
}

#[tokio::test]
async fn a_strength_outside_the_table_takes_its_nearest_end() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (game, settings, view) in games() {
        let (weakest, strongest) = (&settings[0], settings.last().unwrap());
        for (strength, expected) in [
            (0.0, weakest),
            (weakest.rating / 2.0, weakest),
            (strongest.rating + 1.0, strongest),
            (1e12, strongest),
            (f64::MAX, strongest),
        ] {
            let answer = client
                .select_play(dial_request(&view, strength, Some(5)))
                .await
                .unwrap_or_else(|e| panic!("{game} at {strength}: {e:?}"))
                .into_inner();
            assert_eq!(
                answer.strength,
                Some(expected.rating),
                "{game} at {strength}"
            );
            assert_eq!(answer.difficulty, difficulty_to_wire(expected.base) as i32);
        }
    }
}

#[tokio::test]
async fn a_strength_that_is_none_or_comes_with_a_difficulty_is_refused_naming_it() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (game, _, view) in games() {
        let mut cases: Vec<(String, pb::SelectPlayRequest)> =
            [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, -1e-9]
                .into_iter()
                .map(|s| (format!("strength {s}"), dial_request(&view, s, None)))
                .collect();
        for difficulty in [1, 4, 9] {
            cases.push((
                format!("with difficulty {difficulty}"),
                pb::SelectPlayRequest {
                    difficulty,
                    ..dial_request(&view, 700.0, None)
                },
            ));
        }
        for (case, request) in cases {
            let status = client.select_play(request).await.unwrap_err();
            assert_eq!(status.code(), Code::InvalidArgument, "{game}, {case}");
            assert!(
                status.message().starts_with("strength: "),
                "{game}, {case}: {}",
                status.message()
            );
        }
    }
}

#[tokio::test]
async fn the_same_dial_request_answers_the_same_twice() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (game, settings, view) in games() {
        for setting in &settings {
            let request = dial_request(&view, setting.rating, None);
            let first = client
                .select_play(request.clone())
                .await
                .unwrap()
                .into_inner();
            let second = client.select_play(request).await.unwrap().into_inner();
            assert_eq!(first.decision, second.decision, "{game} {}", setting.bot);
            assert_eq!(first.seed, second.seed, "{game} {}", setting.bot);
            assert_eq!(first.strength, second.strength);
            if setting.bot == setting.base.name() {
                // A plain level's seed is the level's own: the request is the level's.
                let level = client
                    .select_play(level_request(&view, setting.base, None))
                    .await
                    .unwrap()
                    .into_inner();
                assert_eq!(first.seed, level.seed, "{game} {}", setting.bot);
                assert_eq!(first.decision, level.decision, "{game} {}", setting.bot);
            }
        }
    }
}

#[tokio::test]
async fn a_dial_request_explains_as_its_level_does() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (game, settings, view) in games() {
        for setting in &settings {
            let explained = client
                .select_play(pb::SelectPlayRequest {
                    explain: true,
                    ..dial_request(&view, setting.rating, Some(9))
                })
                .await
                .unwrap()
                .into_inner();
            if setting.base == Difficulty::Easy {
                assert!(explained.explanation.is_empty(), "{game}: EASY scores none");
            } else {
                assert_eq!(
                    explained.explanation.iter().filter(|c| c.chosen).count(),
                    1,
                    "{game} {}",
                    setting.bot
                );
            }
        }
    }
}

/// The `select_play` calls of `game` answered at `level`, as the metrics count them.
fn answered_at(scrape: &str, game: GameKind, level: &str) -> u64 {
    scrape
        .lines()
        .filter(|l| l.starts_with("climbot_requests_total{"))
        .filter(|l| {
            [
                "rpc=\"select_play\"".to_string(),
                format!("game=\"{game}\""),
                format!("difficulty=\"{level}\""),
                "code=\"ok\"".to_string(),
            ]
            .iter()
            .all(|label| l.contains(label.as_str()))
        })
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

#[tokio::test]
async fn a_dial_call_is_counted_under_the_level_it_served() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (game, settings, view) in games() {
        for setting in &settings {
            let level = setting.base.name();
            // Other tests of this process may count calls too, never fewer.
            let before = answered_at(&server.scrape().await, game, level);
            client
                .select_play(dial_request(&view, setting.rating, None))
                .await
                .unwrap();
            let after = answered_at(&server.scrape().await, game, level);
            assert!(
                after > before,
                "{game} {}: {before} then {after}",
                setting.bot
            );
        }
    }
}
