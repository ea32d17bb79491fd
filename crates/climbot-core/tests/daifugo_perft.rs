//! Perft-style golden counts of legal plays (tests/golden/daifugo_perft.txt), checked
//! against the generator and against the brute-force reference.

use climbot_core::daifugo::cards::{Card, CardSet};
use climbot_core::daifugo::moves::{Trick, count_legal_plays, reference_legal_plays};
use climbot_core::daifugo::plays::{Play, PlayKind};
use climbot_core::daifugo::rules::RuleSet;

fn parse_play(text: &str) -> Play {
    let mut kind = None;
    let mut cards = CardSet::EMPTY;
    let mut declared = Vec::new();
    for word in text.split_whitespace() {
        if word == "seq" {
            kind = Some(PlayKind::Sequence);
        } else if let Some((joker, decl)) = word.split_once('=') {
            cards.insert(Card::parse(joker).unwrap());
            declared.push(Card::parse(decl).unwrap());
        } else {
            cards.insert(Card::parse(word).unwrap_or_else(|| panic!("bad card {word}")));
        }
    }
    let kind = kind.unwrap_or(if cards.len() == 1 {
        PlayKind::Single
    } else {
        PlayKind::Group
    });
    Play::new(kind, cards, &declared).unwrap()
}

#[test]
fn golden_perft_counts() {
    let text = std::fs::read_to_string("tests/golden/daifugo_perft.txt").unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "line {}: {line}", n + 1);
        let mut rules = match fields[0] {
            "house" | "house2" => RuleSet::house(),
            "uecda" | "uecda2" => RuleSet::uecda(),
            other => panic!("line {}: preset {other}", n + 1),
        };
        if fields[0].ends_with('2') {
            rules.jokers = 2;
        }
        let hand = CardSet::parse(fields[1]).unwrap();
        let mut trick = Trick::default();
        if fields[2] != "-" {
            trick.table = Some(parse_play(fields[2]));
        }
        for flag in fields[3].split_whitespace() {
            match flag {
                "-" => {}
                "rev" => trick.revolution = true,
                "jb" => {
                    rules.jack_back = true;
                    trick.jack_back = true;
                }
                "lock" => trick.lock = trick.table.unwrap().suits(),
                other => panic!("line {}: flag {other}", n + 1),
            }
        }
        let count = count_legal_plays(hand, &trick, &rules);
        let reference = reference_legal_plays(hand, &trick, &rules).len();
        assert_eq!(count, reference, "line {}: generator vs brute force", n + 1);
        if fields[4] != count.to_string() {
            failures.push(format!(
                "line {}: golden {} got {count}: {line}",
                n + 1,
                fields[4]
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 25, "only {checked} cases");
}
