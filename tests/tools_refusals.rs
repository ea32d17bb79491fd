//! The offline tools refuse what cannot give an answer or does not apply, with one
//! clear line on stderr (and, for what clap finds wrong with the command line, clap's
//! whole message: the usage line, the possible values) and the exit code of its kind
//! (64 usage, 1 failure), accept the one flag name shared by the games, draw no progress
//! bar and no colour when stderr and stdout are not terminals, and document their exit
//! codes in `--help`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

fn climbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Runs `args`, expects exit code `code` and a stderr message containing each of
/// `needles`: one line, or clap's whole message (its first line, then the usage line).
fn refused(args: &[&str], code: i32, needles: &[&str]) {
    let out = climbot(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(
        stderr.lines().count() == 1 || stderr.contains("\nUsage: climbot "),
        "{args:?}: one line, or clap's message with its usage: {stderr}"
    );
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
    // A million deals would count for minutes and write progress lines: the unwritable
    // `--out` is refused first, on one line.
    refused(
        &[
            "tables",
            "lexio-safety",
            "--deals",
            "1000000",
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
        // stderr is a pipe here and the run short: no progress bar and no line.
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

#[test]
fn command_line_errors_keep_what_is_wrong_the_usage_and_the_possible_values() {
    // A missing flag is named, with the usage line.
    refused(
        &["arena", "--game", "lexio", "--lineup", "hard,easy"],
        64,
        &["required", "--players", "Usage: climbot arena"],
    );
    // A value outside a list names the possible ones.
    refused(
        &[
            "arena",
            "--game",
            "go",
            "--players",
            "4",
            "--lineup",
            "easy",
        ],
        64,
        &["'go'", "possible values", "lexio", "dalmuti", "daifugo"],
    );
    // An unknown flag, with a near one when there is.
    refused(
        &["stats", "lexio", "--deal", "3"],
        64,
        &["--deal", "--deals", "Usage: climbot stats lexio"],
    );
}

#[test]
fn a_bare_command_or_group_prints_its_help() {
    for (args, commands) in [
        (
            &[][..],
            &["serve", "stats", "arena", "ladder", "uecda", "playground"][..],
        ),
        (&["stats"], &["lexio", "dalmuti", "daifugo"]),
        (&["selfplay"], &["lexio", "dalmuti", "daifugo"]),
        (&["tables"], &["lexio-safety"]),
        (&["loadtest"], &["Commands:"]),
        (&["uecda"], &["play", "Commands:"]),
        (&["proto"], &["descriptor"]),
    ] {
        let out = climbot(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            stderr.contains("Usage: climbot") && stderr.contains("Commands:"),
            "{args:?}: {stderr}"
        );
        for command in commands {
            assert!(stderr.contains(command), "{args:?}: {command}: {stderr}");
        }
    }
}

#[test]
fn every_override_of_every_bot_is_checked_by_name_and_value() {
    for (game, players, name, needles) in [
        (
            "lexio",
            "4",
            "easy/bogus=1",
            &["easy/bogus=1", "no overrides"][..],
        ),
        ("lexio", "4", "random/x=1", &["random", "no overrides"]),
        ("lexio", "4", "flat/x=1", &["flat", "no overrides"]),
        (
            "lexio",
            "4",
            "hard/tempo=abc",
            &["tempo=abc", "\"abc\" is not a number"],
        ),
        (
            "lexio",
            "4",
            "hard/nosuch=1",
            &["nosuch=1", "no setting \"nosuch\""],
        ),
        (
            "lexio",
            "4",
            "hard/tempo=nan",
            &["tempo=nan", "not a number"],
        ),
        ("lexio", "4", "hard/tempo=inf", &["tempo=inf", "finite"]),
        ("lexio", "4", "normal/memory=x", &["memory=x", "memory"]),
        ("lexio", "4", "hard/tempo", &["tempo", "name=value"]),
        (
            "lexio",
            "4",
            "expert/iterations=0",
            &["iterations=0", "at least 1"],
        ),
        ("lexio", "4", "expert/nosuch=1", &["nosuch", "no setting"]),
        (
            "lexio",
            "4",
            "expert/anchor=-1",
            &["anchor=-1", "at least 0"],
        ),
        (
            "lexio",
            "4",
            "expert/halving=2",
            &["halving=2", "0 (off) or 1 (on)"],
        ),
        ("lexio", "4", "expert/prior=2", &["prior=2", "0 to 1"]),
        (
            "lexio",
            "4",
            "expert/shortlist=1.5",
            &["shortlist=1.5", "whole number"],
        ),
        ("dalmuti", "5", "easy/bogus=1", &["easy", "no overrides"]),
        ("dalmuti", "5", "hard/nosuch=1", &["no setting \"nosuch\""]),
        ("dalmuti", "5", "hard/memory=-1", &["memory=-1", "count"]),
        (
            "dalmuti",
            "5",
            "hard/pass_factor=x",
            &["pass_factor=x", "at least 0"],
        ),
        ("dalmuti", "5", "nosuch", &["dalmuti has no bot \"nosuch\""]),
        ("daifugo", "4", "easy/bogus=1", &["easy", "no overrides"]),
        ("daifugo", "4", "singles/x=1", &["singles", "no overrides"]),
        ("daifugo", "4", "hard/passes=2", &["passes=2", "0 or 1"]),
        (
            "daifugo",
            "4",
            "hard/tempo=abc",
            &["\"abc\" is not a number"],
        ),
        ("daifugo", "4", "normal/memory=x", &["memory=x"]),
    ] {
        let args = [
            "arena",
            "--game",
            game,
            "--players",
            players,
            "--lineup",
            name,
            "--blocks",
            "2",
        ];
        let mut needles = needles.to_vec();
        needles.push("--lineup");
        refused(&args, 64, &needles);
    }
    // The ladder and a UECda client check their bots alike.
    refused(
        &[
            "ladder",
            "--game",
            "lexio",
            "--players",
            "4",
            "--levels",
            "easy,hard/tempo=abc",
        ],
        64,
        &["hard/tempo=abc", "not a number"],
    );
    refused(
        &["uecda", "play", "--level", "easy/x=1", "--games", "1"],
        64,
        &["--level", "no overrides"],
    );
}

#[test]
fn a_bad_value_from_the_environment_names_its_variable() {
    for (value, needles) in [
        (
            "abc",
            &["CLIMBOT_MAX_BUDGET_MS=\"abc\"", "--max-budget-ms"][..],
        ),
        ("0", &["CLIMBOT_MAX_BUDGET_MS=\"0\"", "1..=600000"]),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_climbot"))
            .args([
                "serve",
                "--grpc-addr",
                "127.0.0.1:0",
                "--metrics-addr",
                "127.0.0.1:0",
            ])
            .env("CLIMBOT_MAX_BUDGET_MS", value)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{value}: {stderr}");
        assert!(stderr.starts_with("climbot: "), "{stderr}");
        for needle in needles {
            assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
        }
        assert!(out.stdout.is_empty(), "{value}");
    }
    // Given on the command line, the flag is not blamed on the variable.
    let out = Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args(["serve", "--max-budget-ms", "abc"])
        .env("CLIMBOT_MAX_BUDGET_MS", "500")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(64), "{stderr}");
    assert!(!stderr.contains("CLIMBOT_MAX_BUDGET_MS"), "{stderr}");
}

#[test]
fn serve_on_a_busy_port_says_so_on_one_line_of_stderr_only() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = busy.local_addr().unwrap().to_string();
    for flag in ["--grpc-addr", "--metrics-addr"] {
        let other = if flag == "--grpc-addr" {
            "--metrics-addr"
        } else {
            "--grpc-addr"
        };
        let out = Command::new(env!("CARGO_BIN_EXE_climbot"))
            .args(["serve", flag, &addr, other, "127.0.0.1:0"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("climbot: cannot listen on {flag} {addr}")),
            "{stderr}"
        );
        assert!(
            out.stdout.is_empty(),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn intervals_stay_within_what_the_metric_can_be() {
    // Two blocks: Student's t with one degree of freedom is 12.7.
    let out = climbot(&[
        "arena",
        "--game",
        "dalmuti",
        "--players",
        "4",
        "--lineup",
        "easy,random",
        "--blocks",
        "2",
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let within = |ci: &serde_json::Value, lo: f64, hi: f64, what: &str| {
        let (a, b) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(
            lo <= a && a <= b && b <= hi,
            "{what}: [{a}, {b}] not in [{lo}, {hi}]"
        );
    };
    for (name, bot) in report["bots"].as_object().unwrap() {
        within(&bot["ci95"], 1.0, 4.0, name);
        for (metric, m) in bot["metrics"].as_object().unwrap() {
            within(&m["ci95"], 1.0, 4.0, &format!("{name} {metric}"));
        }
    }
    within(&report["diff"]["ci95"], -3.0, 3.0, "the difference");
}

#[test]
fn the_ladder_prints_its_anchor_and_says_who_won_the_blocks() {
    let out = climbot(&[
        "ladder",
        "--game",
        "lexio",
        "--players",
        "3",
        "--levels",
        "random,easy",
        "--blocks",
        "2",
        "--threads",
        "1",
    ]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("| random | 0 (the anchor) |"), "{stdout}");
    assert!(!stdout.contains("[0, 0]"), "{stdout}");
    assert!(
        stderr.contains("random vs easy played: random won ") && stderr.contains(" of 4 blocks"),
        "{stderr}"
    );
}

#[test]
fn stats_lexio_says_what_it_compares_and_where_the_figures_come_from() {
    let out = climbot(&["stats", "lexio", "--players", "5", "--deals", "30"]);
    assert_eq!(out.status.code(), Some(0));
    let table = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "share of seat 0's dealt hands",
        "design document",
        "docs/references.md",
        "agree: yes when the 95% interval of the difference",
        "not tested",
    ] {
        assert!(table.contains(needle), "{needle:?} not in {table}");
    }
}
