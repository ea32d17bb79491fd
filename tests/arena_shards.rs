//! A run split with `--shard I/N` and put back with `climbot merge` gives exactly the
//! unsharded run's report, timing aside, for the arena and the ladder; shard files
//! that are not the N shards of one run are refused.
mod common;

use common::{climbot_command, small_lexio_ladder};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn climbot(args: &[&str]) -> std::process::Output {
    climbot_command().args(args).output().expect("climbot runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = climbot(args);
    assert!(
        out.status.success(),
        "climbot {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Plays `args` as shard `i` of `n` into `dir`, returning the file's path.
fn shard(dir: &Path, args: &[&str], i: u64, n: u64) -> PathBuf {
    let spec = format!("{i}/{n}");
    let mut all = args.to_vec();
    all.extend(["--shard", &spec]);
    let path = dir.join(format!("shard-{i}-of-{n}.json"));
    std::fs::write(&path, stdout_of(&all)).unwrap();
    path
}

fn merged(files: &[&PathBuf], json: bool) -> std::process::Output {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    if json {
        args.push("--json".into());
    }
    climbot_command().args(&args).output().unwrap()
}

/// The report without what depends on the clock: wall time and decision times.
fn timeless(text: &str) -> Value {
    let mut v: Value = serde_json::from_str(text).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("blocks_per_second");
    if let Some(bots) = o.get_mut("bots").and_then(Value::as_object_mut) {
        for bot in bots.values_mut() {
            let b = bot.as_object_mut().unwrap();
            b.remove("p50_us");
            b.remove("p99_us");
            b.remove("mean_us");
        }
    }
    v
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("climbot-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn three_arena_shards_merge_into_the_unsharded_report() {
    let dir = temp_dir("arena-shards");
    let args = [
        "arena",
        "--game",
        "dalmuti",
        "--players",
        "5",
        "--rounds",
        "2",
        "--lineup",
        "hard,easy",
        "--blocks",
        "7",
        "--seed",
        "11",
    ];
    let mut whole_args = args.to_vec();
    whole_args.push("--json");
    let whole = timeless(&stdout_of(&whole_args));
    let files: Vec<PathBuf> = (0..3).map(|i| shard(&dir, &args, i, 3)).collect();
    // In any order.
    let out = merged(&[&files[2], &files[0], &files[1]], true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged_text = String::from_utf8(out.stdout).unwrap();
    // A merged run has no wall time of its own.
    let untimed: Value = serde_json::from_str(&merged_text).unwrap();
    assert_eq!(untimed["seconds"], 0.0);
    assert_eq!(untimed["blocks_per_second"], 0.0);
    let merged = timeless(&merged_text);
    assert_eq!(merged, whole);
    assert_eq!(whole["blocks"], 7);
    // The decisions timed are the same ones.
    assert_eq!(
        merged["bots"]["hard"]["decisions"],
        whole["bots"]["hard"]["decisions"]
    );

    // Not the shards of one run: each refused with exit 64 and what is wrong.
    let refused = |files: &[&PathBuf], expected: &str| {
        let out = self::merged(files, false);
        assert_eq!(out.status.code(), Some(64), "{files:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{stderr}");
    };
    refused(&[&files[0], &files[1]], "missing [2]");
    refused(
        &[&files[0], &files[1], &files[1], &files[2]],
        "more than once [1]",
    );
    // A block without one list of decision times per entrant (emptied by hand, say).
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let mut damaged: Value = serde_json::from_str(&text).unwrap();
    damaged["runs"][0][0]["latencies"] = serde_json::json!([]);
    let damaged_path = dir.join("damaged-shard-1-of-3.json");
    std::fs::write(&damaged_path, damaged.to_string()).unwrap();
    refused(
        &[&files[0], &damaged_path, &files[2]],
        "0 entrants' decision times",
    );
    let mut other_seed = args.to_vec();
    let last = other_seed.len() - 1;
    other_seed[last] = "12";
    let other = shard(&dir, &other_seed, 2, 3);
    refused(&[&files[0], &files[1], &other], "another run");
    let not_a_shard = dir.join("not-a-shard.json");
    std::fs::write(&not_a_shard, "{\"blocks\": 3}").unwrap();
    refused(&[&not_a_shard], "not a shard file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The unsharded run of `args` as JSON, and its two shard files in `dir`.
fn whole_json_and_two_shards(dir: &Path, args: &[&str]) -> (String, Vec<PathBuf>) {
    let mut whole_args = args.to_vec();
    whole_args.push("--json");
    let whole = stdout_of(&whole_args);
    let files = (0..2).map(|i| shard(dir, args, i, 2)).collect();
    (whole, files)
}

/// `climbot merge --json` of `files`, which must succeed.
fn merged_json(files: &[&PathBuf]) -> String {
    let out = merged(files, true);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn two_ladder_shards_merge_into_the_unsharded_ladder() {
    let dir = temp_dir("ladder-shards");
    let args = small_lexio_ladder(false, "random,easy,normal", "3");
    let (whole, files) = whole_json_and_two_shards(&dir, &args);
    // The ladder's report has no timing: it is the same, byte for byte.
    assert_eq!(merged_json(&[&files[1], &files[0]]), whole);
    let table = merged(&[&files[0], &files[1]], false);
    assert!(String::from_utf8_lossy(&table.stdout).contains("lexio ladder"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sharded_calibration_merges_into_the_unsharded_one() {
    let dir = temp_dir("calibration-shards");
    let args = small_lexio_ladder(true, "easy,normal/temperature=6,normal,hard", "3");
    let (whole, files) = whole_json_and_two_shards(&dir, &args);
    let ratings: Value = serde_json::from_str(&whole).unwrap();
    // The served levels are pinned at their ladder ratings; the band leaves out the
    // far pairs.
    for (i, pinned) in [
        (0, Some(595.0)),
        (1, None),
        (2, Some(772.0)),
        (3, Some(947.0)),
    ] {
        let rating = &ratings["ratings"][i];
        assert_eq!(rating["pinned"], pinned.is_some(), "{rating}");
        if let Some(elo) = pinned {
            assert_eq!(rating["elo"], elo, "{rating}");
        }
    }
    assert_eq!(ratings["pairs"].as_array().unwrap().len(), 5);
    assert_eq!(merged_json(&[&files[0], &files[1]]), whole);
    // Merged without --json, the shards give the dial table the unsharded command
    // prints, byte for byte, headed by that command.
    let table = merged(&[&files[1], &files[0]], false);
    assert!(table.status.success());
    assert_eq!(String::from_utf8(table.stdout).unwrap(), stdout_of(&args));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sequential_test_cannot_be_sharded() {
    let out = climbot(&[
        "arena",
        "--game",
        "lexio",
        "--players",
        "3",
        "--lineup",
        "easy,random",
        "--sprt",
        "1",
        "--shard",
        "0/2",
    ]);
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sprt"));
}
