//! What the offline commands print on stdout, and what happens when it cannot be written.
//!
//! `println!` panics when stdout is gone, so `climbot stats lexio | head` would end in a
//! panic message the moment `head` has read enough. The commands print through
//! [`out!`](crate::out) and [`outln!`](crate::outln) instead: a reader that has closed
//! the pipe ends the process quietly with success, as Unix filters do (there is no one
//! left to tell), and any other write error (a full disk behind `> report.json`) ends it
//! with [`EXIT_FAILURE`] and the reason on stderr. Neither is a panic.

use super::EXIT_FAILURE;
use std::io::{ErrorKind, Write};

/// Writes `args` to stdout and flushes it, or ends the process as the module says.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout.write_fmt(args).and_then(|()| stdout.flush()) {
        if error.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("climbot: cannot write the output: {error}");
        std::process::exit(i32::from(EXIT_FAILURE));
    }
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
