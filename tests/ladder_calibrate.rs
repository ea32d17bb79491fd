//! `climbot ladder --calibrate` prints a dial table the service reads: its header
//! names the command that made it, its settings rise strictly, and a calibration that
//! plays none of the served levels (pinned at their ladder ratings) is refused.
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
    assert!(
        table.contains(
            "# pinned at their ratings on the ladder: easy 595, normal 772, hard 947; \
             the intervals are relative to them.\n"
        ),
        "{table}"
    );
    for (level, rating) in [("easy", 595.0), ("normal", 772.0), ("hard", 947.0)] {
        let setting = dial.settings().iter().find(|s| s.bot() == level).unwrap();
        assert_eq!(setting.rating(), rating, "{table}");
        assert_eq!(setting.ci95(), (rating, rating), "{table}");
    }
    let between = &dial
        .settings()
        .iter()
        .find(|s| s.bot() == "normal/temperature=6/margin=8");
    let (lo, hi) = between.unwrap().ci95();
    assert!(lo < hi, "a fitted setting has an interval: {table}");
}

#[test]
fn a_calibration_plays_a_served_level() {
    let out = climbot_command()
        .args(calibration(
            "normal/temperature=6/margin=8,hard/temperature=3/margin=4",
        ))
        .output()
        .expect("climbot runs");
    assert_eq!(out.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("a calibration plays at least one served level (easy, normal, hard, expert)"),
        "{stderr}"
    );
}
