//! Perft-style golden file: hands and tables with their exact number of legal plays,
//! checked against the generator, the fixed-capacity list and the legality predicate.

use climbot_core::dalmuti::moves::{
    PlayList, count_legal_plays, for_each_legal_play, is_legal_play,
};
use climbot_core::dalmuti::{Cards, Play, Rank};

fn parse_hand(s: &str) -> Cards {
    if s == "deck" {
        return Cards::FULL_DECK;
    }
    let mut c = Cards::EMPTY;
    for tok in s.split_whitespace() {
        let (r, n) = tok
            .split_once('x')
            .unwrap_or_else(|| panic!("bad token {tok}"));
        let rank = if r == "J" {
            Rank::JESTER
        } else {
            Rank::new(r.parse().unwrap()).unwrap()
        };
        c.insert(rank, n.parse().unwrap());
    }
    assert!(Cards::FULL_DECK.is_superset(c), "{s} exceeds the deck");
    c
}

fn parse_table(s: &str) -> Option<Play> {
    if s == "none" {
        return None;
    }
    if let Some(j) = s.strip_prefix("Jx") {
        return Some(Play::new(Rank::JESTER, 0, j.parse().unwrap()).unwrap());
    }
    let (rk, j) = s.split_once("+J").unwrap();
    let (r, k) = rk.split_once('x').unwrap();
    Some(
        Play::new(
            Rank::new(r.parse().unwrap()).unwrap(),
            k.parse().unwrap(),
            j.parse().unwrap(),
        )
        .unwrap(),
    )
}

#[test]
fn perft_golden_file() {
    let text = include_str!("golden/dalmuti_perft.txt");
    let mut cases = 0;
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(parts.len(), 3, "line {}: {line}", no + 1);
        let hand = parse_hand(parts[0]);
        let table = parse_table(parts[1]);
        let expected: usize = parts[2].parse().unwrap();
        let got = count_legal_plays(hand, table);
        assert_eq!(got, expected, "line {}: {line}", no + 1);
        let list = PlayList::legal(hand, table);
        assert_eq!(list.len(), expected);
        let mut seen: Vec<Play> = list.as_slice().to_vec();
        assert!(seen.iter().all(|&p| is_legal_play(hand, table, p)));
        seen.sort_by_key(|p| (p.rank(), p.naturals(), p.jesters()));
        seen.dedup();
        assert_eq!(seen.len(), expected, "line {}: duplicates", no + 1);
        cases += 1;
    }
    assert!(cases >= 20, "only {cases} cases");
}

/// Prints regression lines for the golden file (run with `--nocapture` and
/// `DALMUTI_PERFT_PRINT=1` to regenerate the generated section).
#[test]
fn print_generated_lines() {
    if std::env::var_os("DALMUTI_PERFT_PRINT").is_none() {
        return;
    }
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    for (players, seed) in [(4, 1u64), (5, 2), (6, 3), (8, 4)] {
        let hands =
            climbot_core::dalmuti::referee::deal(players, &mut ChaCha8Rng::seed_from_u64(seed));
        let h = hands[0];
        let fmt: Vec<String> = climbot_core::dalmuti::cards::Rank::all()
            .filter(|&r| h.count(r) > 0)
            .map(|r| format!("{}x{}", r, h.count(r)))
            .collect();
        let mut tables = vec![None];
        for_each_legal_play(hands[1], None, |p| {
            if p.size() == 2 && p.jesters() == 0 {
                tables.push(Some(p))
            }
        });
        for t in tables.into_iter().take(3) {
            let ts = t.map_or("none".to_string(), |p| {
                if p.rank().is_jester() {
                    format!("Jx{}", p.jesters())
                } else {
                    format!("{}x{}+J{}", p.rank(), p.naturals(), p.jesters())
                }
            });
            println!("{} | {} | {}", fmt.join(" "), ts, count_legal_plays(h, t));
        }
    }
}
