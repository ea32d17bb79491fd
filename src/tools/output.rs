//! What the offline commands print on stdout, and what happens when it cannot be written.
//!
//! `println!` panics when stdout is gone, so `climbot stats lexio | head` would end in a
//! panic message the moment `head` has read enough. The commands print through
//! [`out!`](crate::out) and [`outln!`](crate::outln) instead: a reader that has closed
//! the pipe ends the process quietly with success, as Unix filters do (there is no one
//! left to tell), and any other write error (a full disk behind `> report.json`) ends it
//! with [`EXIT_FAILURE`] and the reason on stderr. Neither is a panic.
//!
//! `eprintln!` panics the same way when stderr is gone, and stderr carries only what
//! goes beside the results (progress, warnings, the reason a command failed): the
//! commands write it through [`errln!`](crate::errln), which drops a line stderr cannot
//! take, so a run of hours whose log reader has gone away still finishes and prints its
//! results, and a failing command still ends with its own exit code.

use super::EXIT_FAILURE;
use std::io::{ErrorKind, Write};

/// Writes `args` to stdout and flushes it, or ends the process as the module says.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if error.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        crate::errln!("climbot: cannot write the output: {error}");
        std::process::exit(i32::from(EXIT_FAILURE));
    }
}

/// Writes `args` to `out`, dropping them if `out` cannot take them (see the module).
pub fn write_or_drop(out: &mut impl Write, args: std::fmt::Arguments<'_>) {
    let _ = out.write_fmt(args).and_then(|()| out.flush());
}

/// Writes `args` to stderr, or drops them if stderr cannot take them.
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    write_or_drop(&mut std::io::stderr().lock(), args);
}

/// `print!` for a command's output: see [`write_stdout`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::tools::output::write_stdout(::std::format_args!($($arg)*))
    };
}

/// `println!` for a command's output: see [`write_stdout`].
#[macro_export]
macro_rules! outln {
    () => {
        $crate::tools::output::write_stdout(::std::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::tools::output::write_stdout(::std::format_args!("{}\n", ::std::format_args!($($arg)*)))
    };
}

/// `eprintln!` that never panics: see [`write_stderr`].
#[macro_export]
macro_rules! errln {
    () => {
        $crate::tools::output::write_stderr(::std::format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::tools::output::write_stderr(::std::format_args!("{}\n", ::std::format_args!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Err(ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_line_a_writer_cannot_take_is_dropped_and_one_it_can_is_written() {
        write_or_drop(&mut Closed, format_args!("lost {}\n", 1));
        let mut taken = Vec::new();
        write_or_drop(&mut taken, format_args!("kept {}\n", 2));
        assert_eq!(taken, b"kept 2\n");
    }
}
