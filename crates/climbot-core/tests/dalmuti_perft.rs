//! Perft-style golden file: hands and tables with their exact number of legal plays.
//! Every count is checked against the generator, the fixed-capacity list and the
//! legality predicate, and against a brute force over the sub-multisets of the hand that
//! classifies each by the rules (`docs/rules/dalmuti.md` §5) written out here, so the
//! file is not only the generator's own output. The first cases were counted by hand
//! (see the comments in the file).

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

/// A set by the rules, as (rank number, naturals, Jesters): `k` cards of one numbered
/// rank `r` plus `j` Jesters with `k + j >= 1`; rank `r` when `k >= 1`, 13 for Jesters
/// alone. `None` for anything else (no card, or two numbered ranks).
fn classify(counts: &[u8; 13]) -> Option<(u8, u8, u8)> {
    let jesters = counts[12];
    let mut numbered = (0..12).filter(|&i| counts[i] > 0);
    match (numbered.next(), numbered.next()) {
        (Some(i), None) => Some((i as u8 + 1, counts[i], jesters)),
        (None, None) if jesters > 0 => Some((13, 0, jesters)),
        _ => None,
    }
}

/// Every set the hand holds that may be played on `table`, by the rules: any set leads;
/// a follow has the table's number of cards and a strictly lower rank number.
fn brute_force(hand: Cards, table: Option<Play>) -> Vec<(u8, u8, u8)> {
    fn walk(
        hand: &[u8; 13],
        i: usize,
        chosen: &mut [u8; 13],
        table: Option<(u8, u8)>,
        found: &mut Vec<(u8, u8, u8)>,
    ) {
        if i == 13 {
            if let Some((rank, naturals, jesters)) = classify(chosen)
                && table
                    .is_none_or(|(t_rank, t_size)| naturals + jesters == t_size && rank < t_rank)
            {
                found.push((rank, naturals, jesters));
            }
            return;
        }
        for c in 0..=hand[i] {
            // A sub-multiset with two numbered ranks is no set, and neither is any
            // larger one: the walk need not go on from it.
            if c > 0 && i < 12 && chosen[..i].iter().any(|&n| n > 0) {
                break;
            }
            chosen[i] = c;
            walk(hand, i + 1, chosen, table, found);
        }
        chosen[i] = 0;
    }
    let table = table.map(|t| (t.rank().get(), t.size()));
    let mut found = Vec::new();
    walk(&hand.counts(), 0, &mut [0; 13], table, &mut found);
    found.sort_unstable();
    found
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
        let brute = brute_force(hand, table);
        assert_eq!(
            brute.len(),
            expected,
            "brute force, line {}: {line}",
            no + 1
        );
        let generated: Vec<(u8, u8, u8)> = seen
            .iter()
            .map(|p| (p.rank().get(), p.naturals(), p.jesters()))
            .collect();
        assert_eq!(generated, brute, "line {}: not the same plays", no + 1);
        cases += 1;
    }
    assert!(cases >= 20, "only {cases} cases");
}

/// Prints regression lines for the golden file's generated section (run with
/// `cargo test -p climbot-core --test dalmuti_perft -- --ignored --nocapture`).
#[test]
#[ignore = "prints golden lines: run with --ignored --nocapture"]
fn print_generated_lines() {
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
