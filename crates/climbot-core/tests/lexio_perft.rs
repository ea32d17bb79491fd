//! Perft-style golden file: fixed hands and tables with their exact numbers of legal
//! plays. Every count is checked twice: against the generator and against a brute
//! force over all subsets of 1, 2, 3 and 5 tiles, so the file is not only the
//! generator's own output. The first cases were counted by hand (see the comments in
//! the file).

#[path = "support/lexio_notation.rs"]
mod lexio_notation;

use climbot_core::lexio::moves::{for_each_follow, for_each_lead};
use climbot_core::lexio::referee::deal;
use climbot_core::lexio::{PlayerCount, TileSet, classify};
use lexio_notation::{format_set, parse_set};

fn brute_force(players: PlayerCount, hand: TileSet, table: TileSet) -> usize {
    let tiles: Vec<_> = hand.iter().collect();
    let table = if table.is_empty() {
        None
    } else {
        Some(classify(players, table).expect("legal table"))
    };
    let n = tiles.len();
    let mut count = 0;
    for mask in 1u32..(1 << n) {
        let size = mask.count_ones();
        if !matches!(size, 1 | 2 | 3 | 5) {
            continue;
        }
        let set: TileSet = (0..n)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| tiles[i])
            .collect();
        if let Some(c) = classify(players, set)
            && table.is_none_or(|t| c.beats(t))
        {
            count += 1;
        }
    }
    count
}

fn generated(players: PlayerCount, hand: TileSet, table: TileSet) -> usize {
    let mut count = 0;
    if table.is_empty() {
        for_each_lead(players, hand, &mut |_| count += 1);
    } else {
        for_each_follow(
            players,
            hand,
            classify(players, table).expect("legal table"),
            &mut |_| count += 1,
        );
    }
    count
}

#[test]
fn golden_counts_match_generator_and_brute_force() {
    let text = include_str!("golden/lexio_perft.txt");
    let mut cases = 0;
    for (line_no, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            4,
            "line {}: players | hand | table | count",
            line_no + 1
        );
        let players = PlayerCount::from_count(fields[0].parse().unwrap()).unwrap();
        let hand = parse_set(fields[1]);
        let table = parse_set(fields[2]);
        let expected: usize = fields[3].parse().unwrap();
        assert!(
            players.deck().is_superset(hand.union(table)),
            "line {}",
            line_no + 1
        );
        assert!(hand.is_disjoint(table), "line {}", line_no + 1);
        assert_eq!(
            generated(players, hand, table),
            expected,
            "generator, line {}: {line}",
            line_no + 1
        );
        assert_eq!(
            brute_force(players, hand, table),
            expected,
            "brute force, line {}: {line}",
            line_no + 1
        );
        cases += 1;
    }
    assert!(cases >= 30, "the golden file shrank to {cases} cases");
}

/// Prints fresh random cases for the golden file (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn print_random_cases() {
    for players in PlayerCount::ALL {
        for seed in 0..6u64 {
            let hands = deal(players, 1000 + seed);
            let hand = hands[0];
            println!(
                "{} | {} | - | {}",
                players.count(),
                format_set(hand),
                generated(players, hand, TileSet::EMPTY)
            );
            // Follow the plays of seat 1 of each size it can make: its weakest of each.
            let mut tables: Vec<TileSet> = Vec::new();
            for size in [1usize, 2, 3, 5] {
                let mut best: Option<climbot_core::lexio::Combo> = None;
                for_each_lead(players, hands[1], &mut |c| {
                    if c.len() == size && best.is_none_or(|b| c.key() < b.key()) {
                        best = Some(c);
                    }
                });
                if let Some(c) = best {
                    tables.push(c.tiles());
                }
            }
            for t in tables {
                println!(
                    "{} | {} | {} | {}",
                    players.count(),
                    format_set(hand),
                    format_set(t),
                    generated(players, hand, t)
                );
            }
        }
    }
}
