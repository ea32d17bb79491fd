//! `climbot uecda serve` accepts the group of five (the joker at row 4 of the column)
//! and the joker past a run's end (column 0 or 14), as the reference server does: five
//! raw clients over 127.0.0.1 lead those plays whenever they hold them, every
//! submission is accepted, and the match record replays with them in it.

use climbot::daifugo::cards::CardSet;
use climbot::daifugo::moves::{Trick, for_each_play};
use climbot::daifugo::plays::Play;
use climbot::daifugo::rules::RuleSet;
use climbot::uecda::codec::{self, Status};
use climbot::uecda::server::{self, Deals, ServeArgs, duplicate_deal};
use std::net::{TcpListener, TcpStream};
use std::thread;

/// Whether `play` is one of the two contest plays.
fn contest(play: &Play) -> bool {
    play.is_group_of_five() || play.is_past_the_ends()
}

/// A seed whose first duplicate deal gives one hand both a group of five and a
/// sequence with the joker past an end.
fn seed_with_both() -> u64 {
    let rules = RuleSet::uecda();
    (0..100_000)
        .find(|&seed| {
            duplicate_deal(seed, 0).iter().any(|&hand| {
                let (mut five, mut past) = (false, false);
                for_each_play(hand, None, &rules, |p| {
                    five |= p.is_group_of_five();
                    past |= p.is_past_the_ends();
                });
                five && past
            })
        })
        .expect("such a deal among the first seeds")
}

/// A raw client: it leads a contest play when it holds one (the group of five in odd
/// games, the joker past an end in even ones, else whichever it has), else its first
/// play, and passes on any table. Returns the acknowledgements of its plays.
fn leader(addr: String) -> Vec<i32> {
    let rules = RuleSet::uecda();
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_nodelay(true).unwrap();
    codec::write_table(&mut stream, &codec::hello_table("leader")).unwrap();
    codec::read_int(&mut stream).unwrap();
    let mut acks = Vec::new();
    for game in 1.. {
        let deal = codec::read_table(&mut stream).unwrap();
        let status = Status::read(&deal);
        if status.give > 0 {
            let hand = codec::hand_cards(&deal).unwrap();
            let back: CardSet = hand.iter().take(status.give as usize).collect();
            codec::write_table(&mut stream, &codec::hand_table(back)).unwrap();
        }
        loop {
            let turn = codec::read_table(&mut stream).unwrap();
            let status = Status::read(&turn);
            if status.my_turn {
                let hand = codec::hand_cards(&turn).unwrap();
                let mut plays = Vec::new();
                if status.empty_table {
                    let trick = Trick {
                        revolution: status.revolution,
                        ..Trick::default()
                    };
                    for_each_play(hand, None, &rules, |p| {
                        if trick.allows(&p, &rules) {
                            plays.push(p);
                        }
                    });
                }
                let wanted = |p: &&Play| {
                    if game % 2 == 1 {
                        p.is_group_of_five()
                    } else {
                        p.is_past_the_ends()
                    }
                };
                let choice = plays
                    .iter()
                    .find(wanted)
                    .or_else(|| plays.iter().find(|p| contest(p)))
                    .or(plays.first());
                let submission = match choice {
                    Some(play) => codec::play_table(play, status.revolution, 0),
                    None => codec::empty_table(),
                };
                codec::write_table(&mut stream, &submission).unwrap();
                let ack = codec::read_int(&mut stream).unwrap();
                if choice.is_some() {
                    acks.push(ack);
                }
            }
            let _table = codec::read_table(&mut stream).unwrap();
            match codec::read_int(&mut stream).unwrap() {
                codec::GAME_ON => {}
                codec::GAME_OVER => break,
                _ => return acks,
            }
        }
    }
    acks
}

#[test]
fn contest_plays_are_accepted_and_recorded() {
    let seed = seed_with_both();
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().expect("an address").to_string();
    let record_path =
        std::env::temp_dir().join(format!("climbot-uecda-contest-{}.txt", std::process::id()));
    let args = ServeArgs {
        port: 0,
        host: "127.0.0.1".into(),
        games: 10,
        deals: Deals::Duplicate,
        seed,
        timeout_s: 60,
        quiet: true,
        record: Some(record_path.clone()),
    };
    let server = thread::spawn(move || server::run(&listener, &args));
    let clients: Vec<_> = (0..5)
        .map(|_| {
            let addr = addr.clone();
            thread::spawn(move || leader(addr))
        })
        .collect();
    let acks: Vec<Vec<i32>> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    let report = server.join().unwrap().unwrap();
    assert_eq!(report.rejected, [0; 5], "every submission accepted");
    assert!(acks.iter().flatten().all(|&a| a == codec::ACCEPTED));
    let text = std::fs::read_to_string(&record_path).expect("the record");
    std::fs::remove_file(&record_path).ok();
    assert!(text.contains("cdhsx-"), "a group of five in the record");
    let record = climbot::uecda::record::parse_record(&text).expect("a readable record");
    let check = climbot::uecda::record::check(&record);
    assert!(check.problems.is_empty(), "{}", check.summary());
    assert_eq!(check.games, 10);
    assert!(check.groups_of_five > 0, "{}", check.summary());
    assert!(check.past_the_ends > 0, "{}", check.summary());
}
