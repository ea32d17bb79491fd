//! The compiled Lexio safety table (Lexio Part 2): it regenerates byte for byte from the
//! parameters in its header, and its lookups are sane where the data support it.

use climbot::lexio::combos::{Category, Combo};
use climbot::lexio::moves::{for_each_five, for_each_group};
use climbot::lexio::safety::{
    CATEGORIES, QUANTILES, SafetyTable, TABLE_TEXT, beaten_chance, key_bucket, parse_header,
};
use climbot::lexio::tiles::PlayerCount;
use climbot::tools::lexio_safety::generate;
use std::time::Instant;

#[test]
fn the_committed_table_regenerates_byte_for_byte() {
    let (deals, seed) = parse_header(TABLE_TEXT).expect("header parses");
    assert!(deals > 0, "the committed table was counted on some deals");
    let start = Instant::now();
    let text = generate(deals, seed);
    eprintln!(
        "regenerated deals={deals} seed={seed} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(
        text == TABLE_TEXT,
        "`climbot tables lexio-safety --deals {deals} --seed {seed}` no longer yields \
         crates/climbot-core/src/lexio/safety_table.txt; regenerate it and review the change"
    );
}

#[test]
fn the_header_carries_the_parameters() {
    let first = TABLE_TEXT.lines().next().unwrap();
    assert!(first.starts_with("# lexio-safety v1 deals="), "{first}");
    assert!(first.contains(&format!("quantiles={QUANTILES}")), "{first}");
    let table = SafetyTable::compiled();
    assert_eq!(parse_header(TABLE_TEXT), Some((table.deals, table.seed)));
    assert_eq!(parse_header("# lexio-safety v2 deals=1 seed=2\n"), None);
}

/// One combination per (category, key bucket), the lowest of its bucket.
fn samples(players: PlayerCount) -> Vec<(Category, usize, Combo)> {
    let deck = players.deck();
    let mut out: Vec<(Category, usize, Combo)> = Vec::new();
    let mut push = |c: Combo| {
        let b = key_bucket(players, c.category(), c.key());
        if !out
            .iter()
            .any(|&(cat, bb, _)| cat == c.category() && bb == b)
        {
            out.push((c.category(), b, c));
        }
    };
    for size in 2..=3 {
        for_each_group(deck, size, None, &mut push);
    }
    for_each_five(players, deck, None, &mut push);
    out
}

#[test]
fn lookups_are_probabilities_and_follow_the_data() {
    for players in PlayerCount::ALL {
        let all = samples(players);
        for &(_, _, play) in &all {
            for unseen in 0..=48 {
                for max_len in 0..=13 {
                    let p = beaten_chance(players, play, unseen, max_len);
                    assert!((0.0..=1.0).contains(&p), "{p}");
                    if max_len < play.len() {
                        assert_eq!(p, 0.0);
                    }
                }
            }
        }
        for &cat in CATEGORIES {
            let by_bucket: Vec<Combo> = (0..QUANTILES)
                .filter_map(|b| {
                    all.iter()
                        .find(|&&(c, bb, _)| c == cat && bb == b)
                        .map(|x| x.2)
                })
                .collect();
            if by_bucket.len() < 2 {
                continue;
            }
            // Averaged over the common states (20-39 unseen, opponents with 6+ tiles), a
            // stronger bucket is not more likely beaten than the weakest one, where both
            // rest on at least 200 counted candidates.
            let table = SafetyTable::compiled();
            let cells = [(20, 6), (20, 9), (30, 6), (30, 9)];
            let mean = |play: Combo| {
                cells
                    .iter()
                    .map(|&(u, m)| beaten_chance(players, play, u, m))
                    .sum::<f64>()
                    / cells.len() as f64
            };
            let counted = |play: Combo| {
                cells
                    .iter()
                    .map(|&(u, m)| table.cell(players, play, u, m).total)
                    .sum::<u64>()
            };
            let (low, high) = (by_bucket[0], *by_bucket.last().unwrap());
            if counted(low) < 200 || counted(high) < 200 {
                continue;
            }
            let weakest = mean(low);
            let strongest = mean(high);
            assert!(
                strongest <= weakest + 0.02,
                "{players:?} {cat:?}: strongest bucket {strongest:.3} > weakest {weakest:.3}"
            );
        }
    }
}

#[test]
fn more_unseen_tiles_mean_more_danger_for_pairs() {
    // Where the data are thick (5 players, pairs, opponents with 9+ tiles): more unseen
    // tiles, more ways to hold a stronger pair.
    let players = PlayerCount::Five;
    let table = SafetyTable::compiled();
    for (_, bucket, play) in samples(players)
        .into_iter()
        .filter(|s| s.0 == Category::Pair)
    {
        let few = table.beaten_chance(players, play, 20, 9);
        let many = table.beaten_chance(players, play, 40, 9);
        assert!(
            many + 0.02 >= few,
            "pair bucket {bucket}: 40+ unseen {many:.3} < 20-29 unseen {few:.3}"
        );
    }
}
