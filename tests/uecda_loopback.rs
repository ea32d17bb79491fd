//! `climbot uecda serve` against five `climbot uecda play` clients over TCP on
//! 127.0.0.1: whole short matches, every play accepted, every view valid, the clients'
//! places the server's, and the points adding up.

use climbot::uecda::client::{self, ClientReport, PlayArgs};
use climbot::uecda::server::{self, Deals, ServeArgs, ServerReport};
use std::net::TcpListener;
use std::thread;

fn play_match(games: u32, deals: Deals, levels: [&str; 5]) -> (ServerReport, Vec<ClientReport>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().expect("an address").to_string();
    let serve_args = ServeArgs {
        port: 0,
        host: "127.0.0.1".into(),
        games,
        deals,
        seed: 7,
        timeout_s: 60,
        quiet: true,
        record: None,
    };
    let server = thread::spawn(move || server::run(&listener, &serve_args));
    let clients: Vec<_> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let args = PlayArgs {
                server: addr.clone(),
                name: format!("{level}{i}"),
                level: level.to_string(),
                budget_ms: None,
                via: None,
                games: None,
                seed: i as u64,
                quiet: true,
            };
            thread::spawn(move || client::run(&args))
        })
        .collect();
    let reports: Vec<ClientReport> = clients
        .into_iter()
        .map(|c| c.join().expect("no panic").expect("the client played"))
        .collect();
    let server = server
        .join()
        .expect("no panic")
        .expect("the server refereed");
    (server, reports)
}

fn check(server: &ServerReport, clients: &[ClientReport], games: usize) {
    assert_eq!(server.places.len(), games);
    assert_eq!(server.rejected, vec![0; 5], "every submission accepted");
    assert!(server.accepted_plays > games * 10);
    let mut players: Vec<usize> = clients.iter().map(|c| c.me).collect();
    players.sort_unstable();
    assert_eq!(players, [0, 1, 2, 3, 4]);
    for c in clients {
        assert_eq!(c.rejected, 0, "player {}: rejected plays", c.me);
        assert_eq!(c.view_errors, 0, "player {}: invalid views", c.me);
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
        assert!(c.decisions > 0);
        assert_eq!(c.places, server.places, "player {} saw other places", c.me);
    }
    for (g, places) in server.places.iter().enumerate() {
        let mut sorted = places.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3, 4], "game {}", g + 1);
    }
    let total: f64 = (0..5)
        .map(|p| server.points_of(p).iter().sum::<f64>())
        .sum();
    assert_eq!(total, 15.0 * games as f64, "5+4+3+2+1 points per game");
}

#[test]
fn a_short_match_of_five_clients_over_loopback() {
    // 7 games: exchanges from game 2, the seats reshuffled before games 4 and 7.
    let (server, clients) =
        play_match(7, Deals::Random, ["easy", "easy", "normal", "easy", "easy"]);
    check(&server, &clients, 7);
    assert!(server.table().contains("easy0"));
}

#[test]
fn duplicate_deals_rotate_each_deal_among_the_players() {
    let (server, clients) = play_match(10, Deals::Duplicate, ["easy"; 5]);
    check(&server, &clients, 10);
    assert!(server.duplicate);
    assert_eq!(server.samples_of(0).len(), 2, "one sample per deal");
    let deal = server::duplicate_deal(7, 0);
    let total: usize = deal.iter().map(|h| h.len()).sum();
    assert_eq!(total, 53);
}

#[test]
fn classes_reset_every_100_games() {
    let (server, clients) = play_match(102, Deals::Random, ["easy"; 5]);
    check(&server, &clients, 102);
    let without: Vec<usize> = (0..102).filter(|&g| !server.exchanged[g]).collect();
    assert_eq!(
        without,
        [0, 100],
        "games 1 and 101 start without an exchange"
    );
}

/// A raw client that never plays: player 0 submits an unreadable table, the others
/// pass. Returns the acknowledgements it got.
fn passer(addr: String) -> Vec<i32> {
    use climbot::uecda::codec::{self, Status};
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream.set_nodelay(true).unwrap();
    codec::write_table(&mut stream, &codec::hello_table("passer")).unwrap();
    let me = codec::read_int(&mut stream).unwrap();
    let mut acks = Vec::new();
    loop {
        let deal = codec::read_table(&mut stream).unwrap();
        let status = Status::read(&deal);
        if status.give > 0 {
            let hand = codec::hand_cards(&deal).unwrap();
            let back: climbot::daifugo::cards::CardSet =
                hand.iter().take(status.give as usize).collect();
            codec::write_table(&mut stream, &codec::hand_table(back)).unwrap();
        }
        loop {
            let turn = codec::read_table(&mut stream).unwrap();
            if Status::read(&turn).my_turn {
                let mut submission = codec::empty_table();
                if me == 0 {
                    submission[0][0] = 1; // not a card cell
                }
                codec::write_table(&mut stream, &submission).unwrap();
                acks.push(codec::read_int(&mut stream).unwrap());
            }
            let _table = codec::read_table(&mut stream).unwrap();
            match codec::read_int(&mut stream).unwrap() {
                codec::GAME_ON => {}
                codec::GAME_OVER => break,
                _ => return acks,
            }
        }
    }
}

#[test]
fn twenty_passes_in_a_row_end_a_game_and_unreadable_submissions_are_passes() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().expect("an address").to_string();
    let record_path =
        std::env::temp_dir().join(format!("climbot-uecda-passes-{}.txt", std::process::id()));
    let args = ServeArgs {
        port: 0,
        host: "127.0.0.1".into(),
        games: 3,
        deals: Deals::Random,
        seed: 3,
        timeout_s: 60,
        quiet: true,
        record: Some(record_path.clone()),
    };
    let server = thread::spawn(move || server::run(&listener, &args));
    let mut clients = Vec::new();
    for _ in 0..5 {
        let addr = addr.clone();
        clients.push(thread::spawn(move || passer(addr)));
        // Connect in order, so that the first client is player 0.
        thread::sleep(std::time::Duration::from_millis(50));
    }
    let acks: Vec<Vec<i32>> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let report = server.join().unwrap().unwrap();
    assert_eq!(report.aborted, [true, true, true]);
    assert_eq!(report.accepted_plays, 0);
    let turns: usize = acks.iter().map(Vec::len).sum();
    assert_eq!(turns, 60, "20 turns per game");
    assert!(acks[0].iter().all(|&a| a == 8) && !acks[0].is_empty());
    assert!(acks[1..].iter().flatten().all(|&a| a == 9));
    assert_eq!(report.rejected[0], acks[0].len());
    for places in &report.places {
        let mut sorted = places.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3, 4]);
    }
    // The record replays: 20 passes per game, the places drawn at random unchecked.
    let text = std::fs::read_to_string(&record_path).expect("the record");
    std::fs::remove_file(&record_path).ok();
    let record = climbot::uecda::record::parse_record(&text).expect("a readable record");
    let check = climbot::uecda::record::check(&record);
    assert!(check.problems.is_empty(), "{}", check.summary());
    assert_eq!(
        (check.ended_on_passes, check.turns, check.passes),
        (3, 60, 60)
    );
}
