//! `climbot ladder --calibrate` prints a dial table the service reads: its header
//! names the command that made it, its settings rise strictly, and a calibration that
//! does not start at the pinned level is refused.
mod common;

use climbot::dial::DialTable;
use climbot::lexio::Lexio;
use common::{climbot_command, small_lexio_ladder};

/// A calibration over these levels.
fn calibration(levels: &'static str) -> Vec<&'static str> {
    small_lexio_ladder(true, levels, "4")
}

const LEVELS: &str = "easy,normal/temperature=6/margin=8,normal,hard";

#[test]
fn a_calibration_prints_a_table_the_dial_reads() {
    let out = climbot_command()
        .args(calibration(LEVELS))
        .output()
        .expect("climbot runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains(
            "# calibrated at 3 players by: climbot ladder --calibrate --game lexio --players 3 \
             --rounds 2 --levels easy,normal/temperature=6/margin=8,normal,hard --blocks 4 --seed 5\n"
        ),
        "{table}"
    );
    assert!(table.contains("# step easy -> normal/temperature=6/margin=8: "));
    let dial = DialTable::<Lexio>::parse(&table).unwrap_or_else(|e| panic!("{e}\n{table}"));
    assert_eq!(dial.settings().len(), 4, "{table}");
    let easy = dial.settings().iter().find(|s| s.bot() == "easy").unwrap();
    assert_eq!(easy.rating(), 595.0);
    assert_eq!(easy.ci95(), (595.0, 595.0));
}

#[test]
fn a_calibration_starts_at_the_pinned_level() {
    let out = climbot_command()
        .args(calibration("normal,hard"))
        .output()
        .expect("climbot runs");
    assert_eq!(out.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("a calibration starts at easy"), "{stderr}");
}
