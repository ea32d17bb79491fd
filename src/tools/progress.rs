//! A progress bar on stderr for the long offline runs (arena, ladder, self-play,
//! statistics, tables), drawn only when stderr is a terminal: a run whose stderr goes
//! to a file or a pipe writes nothing extra.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A run's progress: `total` units (blocks, rounds, deals, games), counted from any
/// thread.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `total` units of `what` (e.g. "blocks"), shown when stderr is a
    /// terminal.
    pub fn new(total: u64, what: &str) -> Self {
        Self::shown(std::io::stderr().is_terminal(), total, what)
    }

    /// A bar that is drawn when `visible`, hidden otherwise.
    pub fn shown(visible: bool, total: u64, what: &str) -> Self {
        if !visible {
            return Progress { bar: None };
        }
        let style = ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what} ({{eta}} left)"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        let bar = ProgressBar::new(total).with_style(style);
        bar.enable_steady_tick(Duration::from_millis(500));
        Progress { bar: Some(bar) }
    }

    /// Counts `n` more units done.
    pub fn advance(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Prints a line to stderr above the bar (or plainly when there is no bar).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
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
    fn a_shown_bar_counts_its_units() {
        let progress = Progress::shown(true, 10, "blocks");
        progress.advance(3);
        progress.advance(4);
        assert_eq!(progress.bar.as_ref().map(ProgressBar::position), Some(7));
    }
}
