//! The offline tools behind `climbot stats`, `climbot selfplay`, `climbot tables`,
//! `climbot train` and `climbot proto`: their command lines, the Monte Carlo statistics, the table
//! generators and the API's descriptor set. They drive the game modules from outside
//! (threads, clocks, JSON); the game modules never call back into them.

pub mod daifugo;
pub mod dalmuti;
pub mod dalmuti_stats;
pub mod lexio;
pub mod lexio_safety;
pub mod lexio_stats;
pub mod output;
pub mod progress;
pub mod proto;
pub mod train;

/// Exit code of a command line that makes no sense: an unknown flag, a value out of
/// range, a flag that does not apply to the game (`EX_USAGE` of sysexits.h).
pub const EXIT_USAGE: u8 = 64;
/// Exit code of a run that failed for another reason: a file that cannot be written,
/// a server that cannot be reached, a broken invariant found by self-play.
pub const EXIT_FAILURE: u8 = 1;

/// How an offline command failed; each kind has its own exit code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolError {
    /// The command line asks for something that cannot be done or cannot give an
    /// answer (exit [`EXIT_USAGE`]).
    Usage(String),
    /// The run itself failed (exit [`EXIT_FAILURE`]).
    Failed(String),
}

impl ToolError {
    /// The process exit code of this kind of error.
    pub const fn exit_code(&self) -> u8 {
        match self {
            ToolError::Usage(_) => EXIT_USAGE,
            ToolError::Failed(_) => EXIT_FAILURE,
        }
    }

    /// A usage error.
    pub fn usage(message: impl Into<String>) -> Self {
        ToolError::Usage(message.into())
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ToolError::Usage(message) | ToolError::Failed(message) => f.write_str(message),
        }
    }
}

impl ToolError {
    /// A usage error saying what `error` says.
    pub fn usage_of(error: impl std::error::Error) -> Self {
        ToolError::Usage(error.to_string())
    }
}

/// A failure of the run (not of the command line): the arena's or the ladder's.
impl From<crate::arena::ArenaError> for ToolError {
    fn from(error: crate::arena::ArenaError) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// A failure of the run (not of the command line): the `--via` server's.
impl From<crate::arena::RemoteError> for ToolError {
    fn from(error: crate::arena::RemoteError) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// A failure of the run (not of the command line): a UECda client's or server's.
impl From<crate::uecda::UecdaError> for ToolError {
    fn from(error: crate::uecda::UecdaError) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// A failure of the run (not of the command line): the load-test kit's.
impl From<crate::loadtest::LoadtestError> for ToolError {
    fn from(error: crate::loadtest::LoadtestError) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// A failure of the run (not of the command line).
impl From<String> for ToolError {
    fn from(message: String) -> Self {
        ToolError::Failed(message)
    }
}

/// Why a count on the command line is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountError {
    /// Not a whole number (the value as given).
    NotANumber(String),
    /// Below its minimum, and what needs that minimum.
    TooSmall {
        /// The least count taken.
        min: u64,
        /// Why.
        why: &'static str,
    },
    /// Above what the count's type holds.
    TooLarge {
        /// The most taken.
        max: u64,
    },
}

impl std::fmt::Display for CountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountError::NotANumber(value) => write!(f, "{value:?} is not a whole number"),
            CountError::TooSmall { min, why } => write!(f, "must be at least {min}: {why}"),
            CountError::TooLarge { max } => write!(f, "must be at most {max}"),
        }
    }
}

impl std::error::Error for CountError {}

/// A self-play or statistics run stopped on a referee's error: a bot's illegal action
/// or a broken invariant, in one round or match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenRun {
    /// `round` or `match`.
    pub unit: &'static str,
    /// Which round or match.
    pub index: u64,
    /// The seed it was dealt from, with its label (`deal seed`, `seed`), when printed.
    pub seed: Option<(&'static str, u64)>,
    /// The referee's error.
    pub reason: String,
}

impl std::fmt::Display for BrokenRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.unit, self.index)?;
        if let Some((label, seed)) = self.seed {
            write!(f, " ({label} {seed})")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for BrokenRun {}

/// A file (or standard output) that could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError {
    /// The path, or `standard output`.
    pub target: String,
    /// The I/O error.
    pub reason: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.target, self.reason)
    }
}

impl std::error::Error for WriteError {}

/// A failure of the run (not of the command line): a broken self-play run.
impl From<BrokenRun> for ToolError {
    fn from(error: BrokenRun) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// A failure of the run (not of the command line): an output not written.
impl From<WriteError> for ToolError {
    fn from(error: WriteError) -> Self {
        ToolError::Failed(error.to_string())
    }
}

/// Parses a count that must be at least `min`, for clap (`why` says what needs it).
pub fn count_at_least(value: &str, min: u64, why: &'static str) -> Result<u64, CountError> {
    let n: u64 = value
        .parse()
        .map_err(|_| CountError::NotANumber(value.to_string()))?;
    if n < min {
        return Err(CountError::TooSmall { min, why });
    }
    Ok(n)
}

/// clap parser: at least 2 blocks (a 95% interval over blocks needs two of them).
pub fn blocks(value: &str) -> Result<u64, CountError> {
    count_at_least(
        value,
        2,
        "a 95% interval over blocks needs at least 2 blocks",
    )
}

/// clap parser: a positive count of samples (deals, rounds, games, hands).
pub fn samples(value: &str) -> Result<u64, CountError> {
    count_at_least(value, 1, "no statistic can be computed from no sample")
}

/// clap parser: a positive match length.
pub fn match_length(value: &str) -> Result<u32, CountError> {
    let n = count_at_least(value, 1, "a match needs at least one round")?;
    u32::try_from(n).map_err(|_| CountError::TooLarge {
        max: u64::from(u32::MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_below_their_minimum_are_refused_with_the_reason() {
        assert_eq!(blocks("2"), Ok(2));
        assert!(
            blocks("1")
                .unwrap_err()
                .to_string()
                .contains("at least 2 blocks")
        );
        assert!(blocks("0").is_err());
        assert_eq!(
            blocks("-1").unwrap_err().to_string(),
            "\"-1\" is not a whole number"
        );
        assert_eq!(samples("1"), Ok(1));
        assert!(samples("0").is_err());
        assert_eq!(match_length("8"), Ok(8));
        assert!(match_length("0").is_err());
        assert_eq!(
            match_length("4294967296").unwrap_err().to_string(),
            "must be at most 4294967295"
        );
    }

    #[test]
    fn each_kind_of_error_has_its_exit_code() {
        assert_eq!(ToolError::usage("x").exit_code(), 64);
        assert_eq!(ToolError::from("x".to_string()).exit_code(), 1);
    }
}
