//! The catalogue of bad requests: each gets INVALID_ARGUMENT with a message naming the
//! field (with its path from the request) and the reason, from both RPCs.
mod common;

use climbot::pb;
use common::*;
use tonic::Code;

struct Bad {
    name: &'static str,
    request: pb::SelectPlayRequest,
    /// The message starts with one of these field paths, then ": ".
    fields: &'static [&'static str],
    /// The reason contains this text (case-insensitive).
    reason: &'static str,
}

fn with_view(f: impl FnOnce(&mut pb::LexioView)) -> pb::SelectPlayRequest {
    let mut view = follow_view();
    f(&mut view);
    select(view, pb::Difficulty::Easy)
}

fn bad(
    name: &'static str,
    fields: &'static [&'static str],
    reason: &'static str,
    f: impl FnOnce(&mut pb::LexioView),
) -> Bad {
    Bad {
        name,
        request: with_view(f),
        fields,
        reason,
    }
}

fn catalogue() -> Vec<Bad> {
    let mut list = vec![
        Bad {
            name: "no view",
            request: pb::SelectPlayRequest {
                view: None,
                ..select(follow_view(), pb::Difficulty::Easy)
            },
            fields: &["view"],
            reason: "required",
        },
        Bad {
            name: "no game in the view",
            request: pb::SelectPlayRequest {
                view: Some(pb::GameView { game: None }),
                ..select(follow_view(), pb::Difficulty::Easy)
            },
            fields: &["view"],
            reason: "no game set",
        },
        Bad {
            name: "unknown difficulty",
            request: pb::SelectPlayRequest {
                difficulty: 9,
                ..select(follow_view(), pb::Difficulty::Easy)
            },
            fields: &["difficulty"],
            reason: "unknown value 9",
        },
        Bad {
            name: "zero budget",
            request: pb::SelectPlayRequest {
                budget_ms: Some(0),
                ..select(follow_view(), pb::Difficulty::Easy)
            },
            fields: &["budget_ms"],
            reason: "at least 1",
        },
        Bad {
            name: "zero iterations",
            request: pb::SelectPlayRequest {
                max_iterations: Some(0),
                ..select(follow_view(), pb::Difficulty::Expert)
            },
            fields: &["max_iterations"],
            reason: "at least 1",
        },
    ];
    list.extend([
        bad(
            "unspecified suit",
            &["view.lexio.hand[0].suit"],
            "unspecified",
            |v| {
                v.hand[0].suit = 0;
            },
        ),
        bad(
            "unknown suit",
            &["view.lexio.hand[2].suit"],
            "unknown suit 7",
            |v| {
                v.hand[2].suit = 7;
            },
        ),
        bad(
            "unknown suit in played",
            &["view.lexio.played[0].suit"],
            "unknown suit",
            |v| {
                v.played[0].suit = 5;
            },
        ),
        bad(
            "unknown suit in the log",
            &["view.lexio.log[0].tiles[0].suit"],
            "unknown suit",
            |v| {
                v.log[0].tiles[0].suit = -1;
            },
        ),
        bad(
            "number that is no tile",
            &["view.lexio.hand[1].number"],
            "out of range",
            |v| {
                v.hand[1].number = 300;
            },
        ),
        bad(
            "number zero",
            &["view.lexio.hand[0].number"],
            "out of range",
            |v| {
                v.hand[0].number = 0;
            },
        ),
        bad(
            "number out of range for 4 players",
            &["view.lexio.hand"],
            "not in the 4-player deck",
            |v| {
                v.hand[0] = t(14, SUN);
            },
        ),
        bad(
            "duplicate tile in the hand",
            &["view.lexio.hand"],
            "duplicate tile",
            |v| {
                v.hand[1] = v.hand[0];
                v.seats[2].tile_count = 13;
            },
        ),
        bad(
            "duplicate tile in played",
            &["view.lexio.played"],
            "duplicate tile",
            |v| {
                v.played.push(t(3, STAR));
            },
        ),
        bad(
            "a tile both in the hand and played",
            &["view.lexio.hand", "view.lexio.played"],
            "also in hand",
            |v| {
                v.played.push(v.hand[0]);
            },
        ),
        bad(
            "table that is no combination",
            &["view.lexio.table.tiles"],
            "not a legal combination",
            |v| {
                let tiles = vec![t(3, STAR), t(5, SUN)];
                v.table.as_mut().unwrap().tiles = tiles.clone();
                v.played = tiles.clone();
                v.log[0].tiles = tiles;
                v.seats[1].tile_count = 11;
            },
        ),
        bad(
            "table of four tiles",
            &["view.lexio.table.tiles"],
            "not a legal combination",
            |v| {
                let tiles = vec![t(8, CLOUD), t(8, STAR), t(8, MOON), t(8, SUN)];
                v.table.as_mut().unwrap().tiles = tiles.clone();
                v.played = tiles.clone();
                v.log[0].tiles = tiles;
                v.seats[1].tile_count = 9;
            },
        ),
        bad(
            "table not among the played tiles",
            &["view.lexio.table.tiles"],
            "not among the played tiles",
            |v| {
                v.table.as_mut().unwrap().tiles = vec![t(5, SUN)];
            },
        ),
        bad(
            "table set without tiles",
            &["view.lexio.table.tiles"],
            "leave `table` unset",
            |v| {
                v.table.as_mut().unwrap().tiles.clear();
            },
        ),
        bad(
            "table without its owner",
            &["view.lexio.table.owner"],
            "required",
            |v| {
                v.table.as_mut().unwrap().owner = None;
            },
        ),
        bad(
            "table owner out of range",
            &["view.lexio.table.owner"],
            "out of range for 4 players",
            |v| {
                v.table.as_mut().unwrap().owner = Some(4);
            },
        ),
        bad(
            "table owned by the deciding seat",
            &["view.lexio.table.owner"],
            "the deciding seat",
            |v| {
                v.table.as_mut().unwrap().owner = Some(2);
            },
        ),
        bad(
            "table owner other than the log's",
            &["view.lexio.table.owner"],
            "the log's last play is seat 1's",
            |v| {
                v.table.as_mut().unwrap().owner = Some(0);
            },
        ),
        bad(
            "seat out of range",
            &["view.lexio.seat"],
            "out of range for 4 players",
            |v| {
                v.seat = 4;
            },
        ),
        bad(
            "two players",
            &["view.lexio.player_count"],
            "2 players is not supported",
            |v| {
                v.player_count = 2;
            },
        ),
        bad(
            "six players",
            &["view.lexio.player_count"],
            "6 players is not supported",
            |v| {
                v.player_count = 6;
            },
        ),
        bad(
            "one seat entry missing",
            &["view.lexio.seats"],
            "3 entries for 4 players",
            |v| {
                v.seats.pop();
            },
        ),
        bad(
            "own tile count differs from the hand",
            &["view.lexio.seats"],
            "but the hand holds 13",
            |v| {
                v.seats[2].tile_count = 12;
            },
        ),
        bad(
            "counts do not add up to the unseen tiles",
            &["view.lexio.seats"],
            "unseen",
            |v| {
                v.seats[3].tile_count = 10;
            },
        ),
        bad(
            "log play not in played",
            &["view.lexio.log"],
            "not among the played tiles",
            |v| {
                v.log.push(pb::LexioLogEntry {
                    seat: 2,
                    tiles: vec![t(5, SUN)],
                });
            },
        ),
        bad(
            "log seat out of range",
            &["view.lexio.log"],
            "out of range",
            |v| {
                v.log[0].seat = 9;
            },
        ),
        bad("empty hand", &["view.lexio.hand"], "empty", |v| {
            v.hand.clear();
            v.seats[2].tile_count = 0;
        }),
        bad(
            "finished round",
            &["view.lexio.seats[3].tile_count"],
            "round is over",
            |v| {
                // Seat 3 went out: the round is over.
                v.seats[3].tile_count = 0;
            },
        ),
        bad("round zero", &["view.lexio.round"], "at least 1", |v| {
            v.round = 0;
        }),
        bad(
            "scores not one per seat",
            &["view.lexio.scores"],
            "one per seat",
            |v| {
                v.scores = vec![1, 2];
            },
        ),
        bad(
            "a played tile the log does not explain",
            &["view.lexio.log"],
            "no play in the log holds it",
            |v| {
                v.played.push(t(10, SUN));
                v.seats[0].tile_count = 12;
            },
        ),
        bad(
            "a pass on an empty table in the log",
            &["view.lexio.log"],
            "leader must play",
            |v| {
                v.log.insert(
                    0,
                    pb::LexioLogEntry {
                        seat: 0,
                        tiles: vec![],
                    },
                );
            },
        ),
    ]);
    list
}

#[tokio::test]
async fn every_bad_request_is_invalid_argument_naming_the_field() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let catalogue = catalogue();
    assert!(catalogue.len() >= 20);
    let mut failures = Vec::new();
    for bad in catalogue {
        let result = client.select_play(bad.request.clone()).await;
        let check = |status: &tonic::Status| {
            let message = status.message();
            status.code() == Code::InvalidArgument
                && bad.fields.iter().any(|f| {
                    message.starts_with(&format!("{f}: "))
                        || message.starts_with(&format!("{f}["))
                        || message.starts_with(&format!("{f}."))
                })
                && message.to_lowercase().contains(&bad.reason.to_lowercase())
                && message
                    .split_once(": ")
                    .is_some_and(|(_, r)| !r.trim().is_empty())
        };
        match &result {
            Err(status) if check(status) => {}
            other => failures.push(format!(
                "{}: got {:?}",
                bad.name,
                other
                    .as_ref()
                    .map(|_| "OK")
                    .map_err(|s| (s.code(), s.message().to_string()))
            )),
        }
        // ListLegalPlays validates the same view the same way.
        if bad.fields[0].starts_with("view") {
            let legal = client
                .list_legal_plays(pb::ListLegalPlaysRequest {
                    view: bad.request.view.clone(),
                })
                .await;
            match (&legal, &result) {
                (Err(a), Err(b))
                    if a.code() == Code::InvalidArgument && a.message() == b.message() => {}
                _ => failures.push(format!(
                    "{}: ListLegalPlays differs: {:?}",
                    bad.name,
                    legal.map(|_| "OK")
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} bad requests misjudged:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test]
async fn the_good_views_of_the_catalogue_are_accepted() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for view in [lead_view(), follow_view()] {
        client
            .select_play(select(view, pb::Difficulty::Easy))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn oversized_requests_are_refused() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut view = follow_view();
    view.scores = vec![i64::MIN; 20_000];
    let status = client
        .select_play(select(view, pb::Difficulty::Easy))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::OutOfRange, "{status:?}");
}
