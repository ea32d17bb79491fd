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

/// A failure of the run (not of the command line).
impl From<String> for ToolError {
    fn from(message: String) -> Self {
        ToolError::Failed(message)
    }
}

/// Parses a count that must be at least `min`, for clap (`why` says what needs it).
pub fn count_at_least(value: &str, min: u64, why: &str) -> Result<u64, String> {
    let n: u64 = value
        .parse()
        .map_err(|_| format!("{value:?} is not a whole number"))?;
    if n < min {
        return Err(format!("must be at least {min}: {why}"));
    }
    Ok(n)
}

/// clap parser: at least 2 blocks (a 95% interval over blocks needs two of them).
pub fn blocks(value: &str) -> Result<u64, String> {
    count_at_least(
        value,
        2,
        "a 95% interval over blocks needs at least 2 blocks",
    )
}

/// clap parser: a positive count of samples (deals, rounds, games, hands).
pub fn samples(value: &str) -> Result<u64, String> {
    count_at_least(value, 1, "no statistic can be computed from no sample")
}

/// clap parser: a positive match length.
pub fn match_length(value: &str) -> Result<u32, String> {
    let n = count_at_least(value, 1, "a match needs at least one round")?;
    u32::try_from(n).map_err(|_| format!("must be at most {}", u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_below_their_minimum_are_refused_with_the_reason() {
        assert_eq!(blocks("2"), Ok(2));
        assert!(blocks("1").unwrap_err().contains("at least 2 blocks"));
        assert!(blocks("0").is_err());
        assert!(blocks("-1").unwrap_err().contains("not a whole number"));
        assert_eq!(samples("1"), Ok(1));
        assert!(samples("0").is_err());
        assert_eq!(match_length("8"), Ok(8));
        assert!(match_length("0").is_err());
        assert!(match_length("4294967296").is_err());
    }

    #[test]
    fn each_kind_of_error_has_its_exit_code() {
        assert_eq!(ToolError::usage("x").exit_code(), 64);
        assert_eq!(ToolError::from("x".to_string()).exit_code(), 1);
    }
}
