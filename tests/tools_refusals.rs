//! The offline tools refuse what cannot give an answer or does not apply, with one
//! clear line on stderr and the exit code of its kind (64 usage, 1 failure), accept
//! the one flag name shared by the games, draw no progress bar and no colour when
//! stderr and stdout are not terminals, and document their exit codes in `--help`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

fn climbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs `args`, expects exit code `code` and one stderr line containing each of `needles`.
fn refused(args: &[&str], code: i32, needles: &[&str]) {
    let out = climbot(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(stderr.starts_with("climbot: "), "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle:?} not in {stderr}"
        );
    }
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
}

const LEXIO4: [&str; 6] = ["arena", "--game", "lexio", "--players", "4", "--threads"];

/// `arena` at a 4-player Lexio table on one thread, with `extra`.
fn arena<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args: Vec<&str> = LEXIO4.to_vec();
    args.push("1");
    args.extend_from_slice(extra);
    args
}

#[test]
fn sizes_that_give_no_answer_are_usage_errors() {
    for blocks in ["0", "1"] {
        refused(
            &arena(&["--lineup", "hard,easy", "--blocks", blocks]),
            64,
            &["--blocks", "at least 2", "interval"],
        );
        refused(
            &[
                "ladder",
                "--game",
                "lexio",
                "--players",
                "4",
                "--blocks",
                blocks,
            ],
            64,
            &["--blocks", "at least 2"],
        );
    }
    refused(
        &arena(&["--lineup", "easy", "--rounds", "0"]),
        64,
        &["--rounds", "at least 1"],
    );
    refused(
        &["stats", "daifugo", "--games", "0"],
        64,
        &["--games", "at least 1"],
    );
    refused(
        &["stats", "lexio", "--deals", "0"],
        64,
        &["--deals", "at least 1"],
    );
    refused(
        &["stats", "dalmuti", "--deals", "0"],
        64,
        &["--deals", "at least 1"],
    );
    refused(&["selfplay", "lexio", "--rounds", "0"], 64, &["--rounds"]);
    refused(&["selfplay", "dalmuti", "--hands", "0"], 64, &["--hands"]);
    refused(&["selfplay", "daifugo", "--games", "0"], 64, &["--games"]);
    refused(
        &["selfplay", "daifugo", "--match-length", "0"],
        64,
        &["--match-length"],
    );
    refused(
        &["tables", "lexio-safety", "--deals", "0"],
        64,
        &["--deals"],
    );
    // The bad address after it makes a playground that took the count exit too,
    // rather than serve.
    for playouts in ["0", "1000001"] {
        refused(
            &["playground", "--expert-iterations", playouts, "--addr", "-"],
            64,
            &["--expert-iterations", "1..=1000000"],
        );
    }
}

#[test]
fn flags_and_values_the_game_does_not_have_are_usage_errors() {
    for game in ["lexio", "dalmuti"] {
        let players = if game == "lexio" { "4" } else { "5" };
        refused(
            &[
                "arena",
                "--game",
                game,
                "--players",
                players,
                "--lineup",
                "easy",
                "--rules",
                "uecda",
                "--blocks",
                "2",
            ],
            64,
            &["--rules", "only Daifugo"],
        );
    }
    refused(&arena(&["--lineup", "nosuch"]), 64, &["--lineup", "nosuch"]);
    refused(
        &["uecda", "play", "--level", "nosuch", "--games", "1"],
        64,
        &["--level", "nosuch"],
    );
    refused(
        &arena(&["--lineup", "easy", "--via", "127.0.0.1:50051"]),
        64,
        &["--via", "http://"],
    );
    refused(
        &["uecda", "play", "--via", "not a url", "--games", "1"],
        64,
        &["--via"],
    );
    refused(
        &[
            "arena",
            "--game",
            "lexio",
            "--players",
            "9",
            "--lineup",
            "easy",
        ],
        64,
        &["--players 9"],
    );
    refused(
        &arena(&["--lineup", "hard,normal,easy", "--sprt", "0.1"]),
        64,
        &["--sprt", "two bots", "3"],
    );
    refused(
        &arena(&["--lineup", "hard,easy", "--sprt=-1"]),
        64,
        &["--sprt", "positive"],
    );
    refused(
        &[
            "ladder",
            "--game",
            "lexio",
            "--players",
            "4",
            "--levels",
            "easy",
        ],
        64,
        &["--levels", "two"],
    );
    refused(
        &[
            "ladder",
            "--game",
            "lexio",
            "--players",
            "4",
            "--levels",
            "easy,nosuch",
        ],
        64,
        &["--levels", "nosuch"],
    );
    refused(&["stats", "lexio", "--players", "6"], 64, &["--players 6"]);
    refused(
        &["selfplay", "lexio", "--bot", "nosuch"],
        64,
        &["--bot nosuch", "flat"],
    );
    refused(
        &["selfplay", "dalmuti", "--bot", "nosuch"],
        64,
        &["--bot nosuch"],
    );
    refused(
        &["selfplay", "dalmuti", "--players", "2"],
        64,
        &["--players 2"],
    );
    refused(
        &["selfplay", "daifugo", "--rules", "nosuch"],
        64,
        &["--rules"],
    );
    refused(&["arena", "--no-such-flag"], 64, &["--no-such-flag"]);
}

#[test]
fn a_run_that_fails_exits_1() {
    let dir = std::env::temp_dir().join(format!("climbot-no-such-dir-{}", std::process::id()));
    let out = dir.join("table.txt");
    refused(
        &[
            "tables",
            "lexio-safety",
            "--deals",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        1,
        &["--out"],
    );
}

#[test]
fn both_games_take_the_bot_flag_and_dalmuti_keeps_policy() {
    for args in [
        ["selfplay", "lexio", "--bot", "random", "--rounds", "3"],
        ["selfplay", "dalmuti", "--bot", "random", "--hands", "3"],
        ["selfplay", "dalmuti", "--policy", "random", "--hands", "3"],
    ] {
        let out = climbot(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains("random"), "{args:?}: {stdout}");
        // stderr is a pipe here: no progress bar.
        assert!(out.stderr.is_empty(), "{args:?}: {:?}", out.stderr);
    }
}

#[test]
fn help_lists_the_bots_accepted_and_the_exit_codes() {
    let help = String::from_utf8(climbot(&["--help"]).stdout).unwrap();
    assert!(help.contains("Exit status") && help.contains("64") && help.contains("usage"));
    let lexio = String::from_utf8(climbot(&["selfplay", "lexio", "--help"]).stdout).unwrap();
    for bot in [
        "easy", "normal", "hard", "expert", "flat", "singles", "random",
    ] {
        assert!(lexio.contains(bot), "{bot}: {lexio}");
        let out = climbot(&["selfplay", "lexio", "--bot", bot, "--rounds", "1"]);
        assert_eq!(out.status.code(), Some(0), "lexio --bot {bot}");
    }
    let dalmuti = String::from_utf8(climbot(&["selfplay", "dalmuti", "--help"]).stdout).unwrap();
    assert!(
        dalmuti.contains("--bot") && !dalmuti.contains("--policy"),
        "{dalmuti}"
    );
    for bot in ["easy", "normal", "hard", "singles", "random"] {
        assert!(dalmuti.contains(bot), "{bot}: {dalmuti}");
        let out = climbot(&["selfplay", "dalmuti", "--bot", bot, "--hands", "1"]);
        assert_eq!(out.status.code(), Some(0), "dalmuti --bot {bot}");
    }
}

#[test]
fn stats_lexio_compares_with_the_documents_at_5_players_only() {
    let four = climbot(&["stats", "lexio", "--players", "4", "--deals", "30"]);
    assert_eq!(four.status.code(), Some(0));
    let table = String::from_utf8(four.stdout).unwrap();
    assert!(!table.contains("NO"), "{table}");
    assert!(table.contains("5 players only"), "{table}");
    let json = climbot(&[
        "stats",
        "lexio",
        "--players",
        "4",
        "--deals",
        "30",
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(value["nuts"]["pair"]["agrees"].is_null(), "{value}");
    let five = climbot(&[
        "stats",
        "lexio",
        "--players",
        "5",
        "--deals",
        "30",
        "--json",
    ]);
    let value: serde_json::Value = serde_json::from_slice(&five.stdout).unwrap();
    assert!(value["nuts"]["pair"]["agrees"].is_boolean(), "{value}");
    assert_eq!(value["nuts"]["pair"]["document"]["holders"], 19_899);
}

#[test]
fn server_logs_carry_no_colour_codes_when_not_on_a_terminal() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args([
            "serve",
            "--grpc-addr",
            "127.0.0.1:0",
            "--metrics-addr",
            "127.0.0.1:0",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .take_while(|line| !line.contains("serving"))
        .collect();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        lines.iter().any(|l| l.contains("climbot starting")),
        "{lines:?}"
    );
    for line in &lines {
        assert!(!line.contains('\u{1b}'), "ANSI codes in {line:?}");
    }
}
