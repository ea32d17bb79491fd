//! A run's progress on stderr for the long offline runs (arena, ladder, self-play,
//! training, statistics, tables): a bar when stderr is a terminal; when it goes to a
//! file or a pipe (a run in the background), a plain line at each tenth of the run
//! once it has lasted [`QUIET_FOR`], so that a log shows how far a run of hours has
//! come and a short run writes nothing extra.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A run's progress: `total` units (blocks, rounds, deals, games), counted from any
/// thread.
pub struct Progress {
    bar: Option<ProgressBar>,
    lines: Option<Lines>,
}

/// How long a run without a terminal writes no progress line.
pub const QUIET_FOR: Duration = Duration::from_secs(10);

/// The plain lines written in place of a bar.
struct Lines {
    total: u64,
    what: String,
    done: AtomicU64,
    started: Instant,
    quiet_for: Duration,
}

impl Lines {
    /// Lines for `total` units of `what`, none before the run has lasted `quiet_for`.
    fn new(total: u64, what: &str, quiet_for: Duration) -> Self {
        Lines {
            total,
            what: what.to_string(),
            done: AtomicU64::new(0),
            started: Instant::now(),
            quiet_for,
        }
    }

    /// Counts `n` more units; the line of each tenth of the run the count passes, once
    /// the run has lasted `quiet_for`.
    fn advance(&self, n: u64) -> Option<String> {
        let before = self.done.fetch_add(n, Ordering::Relaxed);
        let after = before + n;
        let tenth = |done: u64| (done.min(self.total) * 10).checked_div(self.total);
        if n == 0 || tenth(after) <= tenth(before) {
            return None;
        }
        let elapsed = self.started.elapsed();
        (elapsed >= self.quiet_for).then(|| {
            format!(
                "{}/{} {} ({} s)",
                after.min(self.total),
                self.total,
                self.what,
                elapsed.as_secs()
            )
        })
    }
}

impl Progress {
    /// The progress of `total` units of `what` (e.g. "blocks"): a bar when stderr is a
    /// terminal, else a line at each tenth once the run has lasted [`QUIET_FOR`].
    pub fn new(total: u64, what: &str) -> Self {
        if std::io::stderr().is_terminal() {
            Self::shown(true, total, what)
        } else {
            Progress {
                bar: None,
                lines: Some(Lines::new(total, what, QUIET_FOR)),
            }
        }
    }

    /// A bar that is drawn when `visible`; nothing otherwise.
    pub fn shown(visible: bool, total: u64, what: &str) -> Self {
        if !visible {
            return Progress {
                bar: None,
                lines: None,
            };
        }
        let style = ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what} ({{eta}} left)"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        let bar = ProgressBar::new(total).with_style(style);
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress {
            bar: Some(bar),
            lines: None,
        }
    }

    /// Counts `n` more units done.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
        if let Some(line) = self.lines.as_ref().and_then(|lines| lines.advance(n)) {
            crate::errln!("{line}");
        }
    }

    /// Prints a line to stderr above the bar (or plainly when there is no bar).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => crate::errln!("{line}"),
        }
    }

    /// Runs `f` with the bar erased (for lines written to stdout meanwhile), then
    /// draws it again.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Whether the bar is drawn.
    pub fn is_visible(&self) -> bool {
        self.bar.is_some()
    }
}

impl Drop for Progress {
    /// Erases the bar, so that the report that follows starts on a clean line.
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_bar_counts_nothing_and_draws_nothing() {
        let progress = Progress::shown(false, 10, "blocks");
        progress.advance(3);
        assert!(!progress.is_visible());
    }

    #[test]
    fn without_a_terminal_a_line_marks_each_tenth() {
        let lines = Lines::new(25, "blocks", Duration::ZERO);
        let written: Vec<String> = (0..25).filter_map(|_| lines.advance(1)).collect();
        assert_eq!(written.len(), 10, "{written:?}");
        assert!(written[0].starts_with("3/25 blocks ("), "{written:?}");
        assert!(written[9].starts_with("25/25 blocks ("), "{written:?}");
        // A step over several tenths writes one line; nothing past the end.
        let lines = Lines::new(10, "games", Duration::ZERO);
        assert!(lines.advance(7).unwrap().starts_with("7/10 games"));
        assert!(lines.advance(0).is_none());
        assert!(lines.advance(3).unwrap().starts_with("10/10 games"));
        assert!(lines.advance(1).is_none());
        let empty = Lines::new(0, "deals", Duration::ZERO);
        assert!(empty.advance(1).is_none());
        // A run shorter than its quiet time writes nothing.
        let short = Lines::new(10, "games", Duration::from_secs(3600));
        assert!((0..10).all(|_| short.advance(1).is_none()));
    }

    #[test]
    fn a_shown_bar_counts_its_units() {
        let progress = Progress::shown(true, 10, "blocks");
        progress.advance(3);
        progress.advance(4);
        assert_eq!(progress.bar.as_ref().map(ProgressBar::position), Some(7));
    }
}
