//! An offline command whose output cannot be written ends without a panic: a reader that
//! has gone away (`climbot ... | head`) ends it quietly with success, any other write
//! error (a full disk) with exit 1 and the reason on one line of stderr. A stderr that
//! cannot be written changes neither: the command ends with its own exit code.

mod common;

use common::climbot_command;
use std::process::{Output, Stdio};

const SELFPLAY: [&str; 4] = ["selfplay", "lexio", "--rounds", "5"];

fn climbot(args: &[&str], stdout: impl Into<Stdio>) -> Output {
    climbot_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    // The reading end is closed before the command starts, so its first write fails
    // with a broken pipe every time, not only when a race goes one way.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = climbot(&SELFPLAY, writer);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "nothing on stderr: {stderr}");
}

#[test]
fn a_full_disk_is_a_failure_with_its_reason() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    let out = climbot(&SELFPLAY, full);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("climbot: cannot write the output: "),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_open_pipe_gets_the_whole_output() {
    let out = climbot(&SELFPLAY, Stdio::piped());
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("lexio selfplay: 5 rounds,") && stdout.ends_with('\n'),
        "{stdout}"
    );
}

/// The writing end of a pipe whose reader is already gone.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer
}

#[test]
fn a_closed_stderr_keeps_a_usage_error_its_exit_code() {
    let out = climbot_command()
        .args(["selfplay", "lexio", "--no-such-flag"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(closed_pipe())
        .output()
        .unwrap();
    // 64: the command line's error, not 101, a panic while writing it.
    assert_eq!(out.status.code(), Some(64));
}

#[test]
fn a_closed_stderr_keeps_a_full_disk_its_exit_code() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full on this system");
        return;
    };
    let out = climbot_command()
        .args(SELFPLAY)
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(closed_pipe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
