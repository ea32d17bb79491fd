//! The shard files kept in `docs/measurements` are what `climbot merge` reads: every
//! set merges into its run's report, and the report gives the figures the documents
//! quote from it.
mod common;

use common::climbot_command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn measurements() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/measurements")
}

/// The shard sets under `docs/measurements`, by directory, each in a stable order.
fn shard_sets() -> BTreeMap<PathBuf, Vec<PathBuf>> {
    let mut sets: BTreeMap<PathBuf, Vec<PathBuf>> = BTreeMap::new();
    for dir in std::fs::read_dir(measurements()).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with("shard-") && name.ends_with(".json") {
                sets.entry(dir.clone()).or_default().push(file);
            }
        }
    }
    for files in sets.values_mut() {
        files.sort();
    }
    sets
}

fn merge_json(files: &[PathBuf]) -> Value {
    let out = climbot_command()
        .arg("merge")
        .arg("--json")
        .args(files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "climbot merge of {} files in {}: {}",
        files.len(),
        files[0].parent().unwrap().display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn every_kept_shard_set_merges() {
    let sets = shard_sets();
    assert!(sets.len() >= 4, "shard sets found: {:?}", sets.keys());
    for files in sets.values() {
        merge_json(files);
    }
}

/// Merges `files` (of `dir`) and checks that the report's difference and its interval,
/// rounded as the README quotes them, read `quoted`, that it has `blocks` blocks, and
/// that the README quotes it.
fn assert_quoted_figure(dir: &Path, files: &[PathBuf], blocks: u64, quoted: &str) {
    let report = merge_json(files);
    let diff = &report["diff"];
    let value = |v: &Value| v.as_f64().unwrap();
    let figure = format!(
        "{:+.3} [{:.3}, {:.3}]",
        value(&diff["mean"]),
        value(&diff["ci95"][0]),
        value(&diff["ci95"][1])
    );
    assert_eq!(figure, quoted);
    assert_eq!(report["blocks"], blocks);
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains(quoted));
}

/// The figures the documents quote from numbered shard sets: the directory, the shards'
/// names before `shard-I-of-N.json`, N, the blocks of the run and the quoted figure.
const NUMBERED_SHARD_FIGURES: [(&str, &str, usize, u64, &str); 21] = [
    // Daifugo, house rules, 4 players: the race's step from about 100 ms to about 1 s.
    (
        "daifugo-work-and-time",
        "",
        15,
        30,
        "+0.015 [-0.079, 0.109]",
    ),
    // Daifugo, UECda, 5 players: halving's ten-times step.
    (
        "daifugo-work-and-time",
        "sample-7-",
        3,
        60,
        "-0.174 [-0.271, -0.077]",
    ),
    // Halving against the rule's search at about 100 ms, 4 and 5 players.
    (
        "daifugo-work-and-time",
        "sample-10-uecda-4p-halving-v1-100ms-9528-",
        10,
        20,
        "-0.246 [-0.455, -0.037]",
    ),
    (
        "daifugo-work-and-time",
        "sample-10-uecda-5p-halving-v1-100ms-9529-",
        10,
        20,
        "-0.330 [-0.530, -0.130]",
    ),
    // Halving against the race at about 100 ms, 5 players.
    (
        "daifugo-work-and-time",
        "sample-11-uecda-5p-halving-race-100ms-9530-",
        20,
        40,
        "+0.045 [-0.085, 0.176]",
    ),
    // The Great Dalmuti: halving without the anchor against the race (tuning).
    (
        "dalmuti-work-and-time",
        "halving-h1-",
        2,
        40,
        "+0.104 [-0.093, 0.301]",
    ),
    // The Great Dalmuti: halving's ten-times step from about 100 ms to about 1 s.
    (
        "dalmuti-work-and-time",
        "halving-h2-",
        6,
        60,
        "+0.026 [-0.113, 0.165]",
    ),
    // The Great Dalmuti: the told search's ten-times step from about 100 ms to about 1 s.
    (
        "dalmuti-work-and-time",
        "told-t1-",
        6,
        30,
        "+0.219 [0.039, 0.399]",
    ),
    // The Great Dalmuti: the told search against the search dealing for itself.
    (
        "dalmuti-work-and-time",
        "told-t2-",
        6,
        30,
        "-0.639 [-0.844, -0.433]",
    ),
    // The Great Dalmuti: the search's deal weighting against uniform deals.
    (
        "dalmuti-work-and-time",
        "told-t3-",
        4,
        20,
        "+0.092 [-0.171, 0.355]",
    ),
    // The Great Dalmuti: the told step with playouts at temperature 0.5.
    (
        "dalmuti-work-and-time",
        "told-t4-",
        6,
        30,
        "-0.145 [-0.351, 0.060]",
    ),
    // The Great Dalmuti: the served search's step at playout temperature 0.5.
    (
        "dalmuti-work-and-time",
        "sharp-t5-",
        12,
        60,
        "+0.043 [-0.097, 0.184]",
    ),
    // The Great Dalmuti: playout temperature 0.5 against 1 at 600 and at 3,000 playouts.
    (
        "dalmuti-work-and-time",
        "sharp-t6-",
        8,
        40,
        "+0.073 [-0.093, 0.239]",
    ),
    (
        "dalmuti-work-and-time",
        "sharp-t7-",
        8,
        40,
        "+0.295 [0.109, 0.481]",
    ),
    // The Great Dalmuti: deals weighted by the log with 32 draws a round (tuning).
    (
        "dalmuti-work-and-time",
        "infer-i1-",
        4,
        20,
        "-0.170 [-0.443, 0.103]",
    ),
    (
        "dalmuti-work-and-time",
        "infer-i2-",
        4,
        20,
        "-0.258 [-0.487, -0.029]",
    ),
    (
        "dalmuti-work-and-time",
        "infer-i3-",
        8,
        40,
        "-0.008 [-0.166, 0.150]",
    ),
    // Lexio, 5 players: the learned search's step from about 10 ms to about 100 ms.
    (
        "lexio-work-and-time",
        "step-100ms-",
        40,
        800,
        "+0.017 [-0.182, 0.216]",
    ),
    // Daifugo, house rules, 4 players: the tribute's bound on the partner's hand.
    (
        "daifugo-work-and-time",
        "bound-house-4p-9547-",
        12,
        240,
        "+0.005 [-0.028, 0.038]",
    ),
    // Dalmuti, 6 players: the taxes' bound on the Peon's hand (B1).
    (
        "dalmuti-work-and-time",
        "bound-b1-",
        24,
        120,
        "-0.029 [-0.089, 0.031]",
    ),
    // Daifugo, UECda rules, 5 players: the tribute's bound.
    (
        "daifugo-work-and-time",
        "bound-uecda-5p-9549-",
        8,
        120,
        "-0.035 [-0.091, 0.022]",
    ),
];

#[test]
fn every_numbered_shard_set_gives_its_quoted_figure() {
    for (dir, prefix, count, blocks, quoted) in NUMBERED_SHARD_FIGURES {
        let dir = measurements().join(dir);
        let files: Vec<PathBuf> = (0..count)
            .map(|i| dir.join(format!("{prefix}shard-{i}-of-{count}.json")))
            .collect();
        // Every shard of the set is named, and no other is kept beside them.
        let kept = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|file| {
                let name = file.as_ref().unwrap().file_name();
                let name = name.to_string_lossy();
                name.starts_with(&format!("{prefix}shard-"))
                    && name.ends_with(&format!("-of-{count}.json"))
            })
            .count();
        assert_eq!(
            kept,
            count,
            "{prefix}shard-I-of-{count}.json in {}",
            dir.display()
        );
        assert_quoted_figure(&dir, &files, blocks, quoted);
    }
}
