//! `climbot uecda serve --record FILE` writes the match record of a loopback match of
//! five `climbot uecda play` clients, and `climbot uecda check-record` replays it on
//! climbot's referee: every play legal and the server's places; a tampered record is
//! caught, naming the game and the turn.

use climbot::daifugo::cards::{Card, CardSet};
use climbot::uecda::client::{self, PlayArgs};
use climbot::uecda::codec;
use climbot::uecda::record::{self, CheckRecordArgs};
use climbot::uecda::server::{self, Deals, ServeArgs, ServerReport};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::thread;

fn record_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "climbot-uecda-record-{}-{name}.txt",
        std::process::id()
    ))
}

fn serve_with_record(games: u32, path: &Path) -> ServerReport {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().expect("an address").to_string();
    let serve_args = ServeArgs {
        port: 0,
        host: "127.0.0.1".into(),
        games,
        deals: Deals::Random,
        seed: 11,
        timeout_s: 60,
        quiet: true,
        record: Some(path.to_path_buf()),
    };
    let server = thread::spawn(move || server::run(&listener, &serve_args));
    let clients: Vec<_> = (0..5)
        .map(|i| {
            let args = PlayArgs {
                server: addr.clone(),
                name: format!("easy {i}"),
                level: "easy".into(),
                budget_ms: None,
                via: None,
                games: None,
                seed: i,
                quiet: true,
            };
            thread::spawn(move || client::run(&args))
        })
        .collect();
    for c in clients {
        c.join().expect("no panic").expect("the client played");
    }
    server
        .join()
        .expect("no panic")
        .expect("the server refereed")
}

#[test]
fn a_served_match_record_replays_to_the_same_places() {
    let path = record_path("replays");
    // 8 games: the exchange from game 2, the seats reshuffled before games 4 and 7.
    let report = serve_with_record(8, &path);
    let text = std::fs::read_to_string(&path).expect("the record was written");
    let parsed = record::parse_record(&text).expect("the record reads back");
    let mut names = parsed.names.clone();
    names.sort_unstable(); // the clients connect in any order
    assert_eq!(names, ["easy_0", "easy_1", "easy_2", "easy_3", "easy_4"]);
    assert_eq!(parsed.games.len(), 8);
    for (game, places) in parsed.games.iter().zip(&report.places) {
        for (place, &player) in places.iter().enumerate() {
            assert_eq!(game.result[player], place, "the server's places");
        }
    }
    let check = record::check(&parsed);
    assert!(check.problems.is_empty(), "{}", check.summary());
    assert_eq!(check.exchanges, 7);
    assert_eq!(check.finished + check.ended_on_passes, 8);
    assert!(check.turns > check.passes && check.passes > 0);
    let accepted_plays = check.turns - check.passes;
    assert_eq!(
        accepted_plays, report.accepted_plays,
        "every accepted play recorded"
    );
    record::check_record(&CheckRecordArgs { file: path.clone() }).expect("the command agrees");
    std::fs::remove_file(&path).ok();
}

#[test]
fn a_tampered_record_is_caught() {
    let path = record_path("tampered");
    serve_with_record(3, &path);
    let text = std::fs::read_to_string(&path).expect("the record was written");
    std::fs::remove_file(&path).ok();
    let clean = record::parse_record(&text).expect("the record reads back");

    // The opening play swapped for a card of another player's hand.
    let mut bad_play = clean.clone();
    let game = &mut bad_play.games[1];
    let opener = (0..5)
        .find(|&p| game.original[p].contains(Card::DIAMOND_3))
        .expect("the ♦3 holder leads");
    let stranger = game.original[(opener + 1) % 5]
        .naturals()
        .first()
        .expect("a card");
    game.plays[0] = codec::hand_table(CardSet::single(stranger));
    let check = record::check(&bad_play);
    assert_eq!(check.problems.len(), 1, "{}", check.summary());
    assert!(
        check.problems[0].starts_with("game 2: turn 1"),
        "{}",
        check.problems[0]
    );

    // Two places swapped.
    let mut bad_places = clean.clone();
    bad_places.games[2].result.swap(0, 1);
    let check = record::check(&bad_places);
    assert_eq!(check.problems.len(), 1, "{}", check.summary());
    assert!(check.problems[0].contains("place"), "{}", check.problems[0]);

    // A give-back that is not what the hands show.
    let mut bad_exchange = clean;
    let game = &mut bad_exchange.games[1];
    let daifugo = game
        .classes
        .iter()
        .position(|&c| c == 0)
        .expect("a daifugo");
    game.original[daifugo] = game.dealt[daifugo];
    let check = record::check(&bad_exchange);
    assert_eq!(check.problems.len(), 1, "{}", check.summary());
    assert!(
        check.problems[0].contains("exchange"),
        "{}",
        check.problems[0]
    );
}
