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

#[test]
fn the_daifugo_one_second_step_gives_its_quoted_figure() {
    let dir = measurements().join("daifugo-work-and-time");
    let files = &shard_sets()[&dir];
    assert_eq!(files.len(), 15);
    assert_quoted_figure(&dir, files, 30, "+0.015 [-0.079, 0.109]");
}

/// The shards `{prefix}shard-I-of-{count}.json` of `dir`, I from 0.
fn numbered_shards(dir: &Path, prefix: &str, count: usize) -> Vec<PathBuf> {
    (0..count)
        .map(|i| dir.join(format!("{prefix}shard-{i}-of-{count}.json")))
        .collect()
}

#[test]
fn the_daifugo_uecda_halving_step_gives_its_quoted_figure() {
    let dir = measurements().join("daifugo-work-and-time");
    let files = numbered_shards(&dir, "sample-7-", 3);
    assert_quoted_figure(&dir, &files, 60, "-0.174 [-0.271, -0.077]");
}

#[test]
fn the_daifugo_uecda_halving_at_100_ms_against_the_rule_gives_its_quoted_figures() {
    let dir = measurements().join("daifugo-work-and-time");
    for (table, quoted) in [
        ("4p-halving-v1-100ms-9528", "-0.246 [-0.455, -0.037]"),
        ("5p-halving-v1-100ms-9529", "-0.330 [-0.530, -0.130]"),
    ] {
        let files = numbered_shards(&dir, &format!("sample-10-uecda-{table}-"), 10);
        assert_quoted_figure(&dir, &files, 20, quoted);
    }
}

#[test]
fn the_daifugo_uecda_halving_against_the_race_at_100_ms_gives_its_quoted_figure() {
    let dir = measurements().join("daifugo-work-and-time");
    let files = numbered_shards(&dir, "sample-11-uecda-5p-halving-race-100ms-9530-", 20);
    assert_quoted_figure(&dir, &files, 40, "+0.045 [-0.085, 0.176]");
}

#[test]
fn the_dalmuti_halving_tuning_sample_gives_its_quoted_figure() {
    let dir = measurements().join("dalmuti-work-and-time");
    let files = numbered_shards(&dir, "halving-h1-", 2);
    assert_quoted_figure(&dir, &files, 40, "+0.104 [-0.093, 0.301]");
}
