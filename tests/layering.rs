//! The layering of the workspace where the compiler cannot see it.
//!
//! The games, their bots and the search live in the `climbot-core` crate, whose only
//! dependencies are `rand_chacha` and `smallvec` (data structures, no I/O): the
//! compiler already keeps the wire, the service, the
//! arena, the tools, JSON and thread pools out of them. What it cannot keep out is
//! checked here on the sources: the core's manifest gains no other dependency, the
//! game modules read no clock (std is always at hand), and a referee never imports its
//! game's bots (outside its `#[cfg(test)]` code).

use std::path::{Path, PathBuf};

/// The game modules, relative to the workspace root.
const GAME_DIRS: [&str; 3] = [
    "crates/climbot-core/src/lexio",
    "crates/climbot-core/src/dalmuti",
    "crates/climbot-core/src/daifugo",
];

/// Words a game module must not mention anywhere (code, comments or docs), each matched
/// as a whole path or identifier: the clock and the threads, which std always offers.
const FORBIDDEN: [&str; 4] = ["std::time", "Instant", "SystemTime", "std::thread"];

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// True when `word` occurs in `line` with no identifier character right before or after.
fn mentions(line: &str, word: &str) -> bool {
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// `(line number, forbidden word)` for every forbidden mention in `source`.
fn forbidden_mentions(source: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        for word in FORBIDDEN {
            if mentions(line, word) {
                out.push((n + 1, word));
            }
        }
    }
    out
}

/// For each line of `source`, whether it belongs to an item under `#[cfg(test)]` (the
/// attribute line, and the item through its closing brace or semicolon).
fn test_only_lines(source: &str) -> Vec<bool> {
    let lines: Vec<&str> = source.lines().collect();
    let mut test_only = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[cfg(test)]" {
            i += 1;
            continue;
        }
        let mut depth = 0i64;
        let mut opened = false;
        let mut j = i;
        'item: while j < lines.len() {
            test_only[j] = true;
            if j > i {
                for c in lines[j].chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        ';' if !opened => break 'item,
                        _ => {}
                    }
                    if opened && depth == 0 {
                        break 'item;
                    }
                }
            }
            j += 1;
        }
        i = j + 1;
    }
    test_only
}

/// Line numbers of `source` (outside `#[cfg(test)]` items) that reach into a `bots`
/// module: a `bots::` path anywhere (doc links included), or `bots` named in a `use`.
fn bots_imports(source: &str) -> Vec<usize> {
    let test_only = test_only_lines(source);
    let mut out = Vec::new();
    let mut in_use = false;
    for (n, line) in source.lines().enumerate() {
        if test_only[n] {
            continue;
        }
        let code = line.trim_start();
        let unqualified = match code.strip_prefix("pub") {
            Some(rest) if rest.starts_with('(') => rest.split_once(')').map_or("", |x| x.1),
            Some(rest) => rest,
            None => code,
        };
        if unqualified.trim_start().starts_with("use ") {
            in_use = true;
        }
        let path = line
            .match_indices("bots::")
            .any(|(i, _)| !line[..i].chars().next_back().is_some_and(is_ident));
        if path || (in_use && mentions(line, "bots")) {
            out.push(n + 1);
        }
        if in_use && line.contains(';') {
            in_use = false;
        }
    }
    out
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn the_core_depends_on_rand_chacha_and_smallvec_alone() {
    let manifest = read(&root().join("crates/climbot-core/Cargo.toml"));
    let mut section = "";
    let mut dependencies = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[dependencies]"
            && !line.is_empty()
            && !line.starts_with('#')
            && !line.contains("optional = true")
        {
            dependencies.push(
                line.split(['=', '.'])
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_owned(),
            );
        }
    }
    assert_eq!(
        dependencies,
        ["rand_chacha", "smallvec"],
        "climbot-core must stay free of I/O: a new dependency belongs in the service crate \
         (an optional one behind a feature at most)"
    );
}

#[test]
fn game_modules_use_no_thread_or_clock() {
    let mut violations = Vec::new();
    let mut files = 0;
    for dir in GAME_DIRS {
        for path in rust_files(&root().join(dir)) {
            files += 1;
            for (line, word) in forbidden_mentions(&read(&path)) {
                violations.push(format!("{}:{line}: mentions `{word}`", relative(&path)));
            }
        }
    }
    assert!(files >= 30, "only {files} game source files found");
    assert!(
        violations.is_empty(),
        "the game modules read no clock and start no thread:\n{}",
        violations.join("\n")
    );
}

#[test]
fn referees_and_positions_do_not_import_their_bots() {
    let mut violations = Vec::new();
    for dir in GAME_DIRS {
        for file in ["referee.rs", "position.rs"] {
            let path = root().join(dir).join(file);
            for line in bots_imports(&read(&path)) {
                violations.push(format!("{}:{line}: imports from bots", relative(&path)));
            }
        }
    }
    assert!(
        violations.is_empty(),
        "referees and positions sit below the bots (the decision module holds what they check):\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_look_for() {
    let source = "\
//! A referee.
use super::cards::Cards;
use super::bots::easy;
use super::{
    bots,
    view::View,
};
/// Checked against [`bots::is_legal`].
fn f(started: std::time::Instant) -> bool { started.elapsed().is_zero() }
use std::thread::spawn;
use crate::tools::x;
// Instantly, serdes and prosthetics are fine words.

#[cfg(test)]
mod tests {
    use crate::lexio::bots::EasyBot;
    fn g() { let s = format!(\"{}\", 1); }
}
use super::bots::late;
";
    assert_eq!(bots_imports(source), [3, 5, 8, 19]);
    let found = forbidden_mentions(source);
    assert_eq!(
        found,
        [(9, "std::time"), (9, "Instant"), (10, "std::thread")]
    );
    let test_only = test_only_lines(source);
    assert_eq!(
        (1..=source.lines().count())
            .filter(|&n| test_only[n - 1])
            .collect::<Vec<_>>(),
        [14, 15, 16, 17, 18]
    );
}
