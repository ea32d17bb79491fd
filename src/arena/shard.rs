//! Shards: an arena or ladder run split over machines, and merged back.
//!
//! A run's blocks depend only on the seed and their index, so any machine can play
//! any of them. `--shard I/N` plays the blocks whose index is `I` modulo `N` and
//! writes them, with the table and the run's settings, as a [`ShardFile`]; [`merge`]
//! checks that the files are the `N` shards of one run, puts every block back in its
//! place and summarizes them exactly as the unsharded run does. Only the timing
//! fields (wall time, blocks per second) differ from the unsharded report: the
//! decision times are the shards' own.

use super::ladder::{LadderConfig, LadderReport, Pin, check_ladder, fit_ladder, ladder_runs};
use super::{ArenaConfig, ArenaError, ArenaReport, BlockResult, GameRunner};
use serde::{Deserialize, Serialize};

/// The `format` of a shard file this build writes and reads.
pub const SHARD_FORMAT: &str = "climbot-shard/2";

/// One slice of a run's blocks: those whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's number, below `count`.
    pub index: u64,
    /// How many shards the run is split into, at least 1.
    pub count: u64,
}

impl Shard {
    /// The indices of this shard's blocks among `blocks`, in order.
    pub fn blocks(self, blocks: u64) -> Vec<u64> {
        (self.index..blocks).step_by(self.count as usize).collect()
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N` with `0 <= I < N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| format!("expected I/N (e.g. 0/4), got {text:?}"))?;
        let parse = |x: &str| {
            x.trim()
                .parse::<u64>()
                .map_err(|_| format!("expected I/N with whole numbers, got {text:?}"))
        };
        let (index, count) = (parse(i)?, parse(n)?);
        if count == 0 || index >= count {
            return Err(format!(
                "expected I/N with 0 <= I < N, got {text:?} (the shards of 4 are 0/4 .. 3/4)"
            ));
        }
        Ok(Shard { index, count })
    }
}

/// The table a sharded run plays at (what `--game`, `--players`, `--rounds` and
/// `--rules` said).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSpec {
    /// The game's name.
    pub game: String,
    /// Seats.
    pub players: u32,
    /// The match length, if given.
    pub rounds: Option<u32>,
    /// Daifugo's rule preset, if given.
    pub rules: Option<String>,
}

/// What was sharded: an arena run or a ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "run", rename_all = "snake_case")]
pub enum ShardedRun {
    /// `climbot arena`.
    Arena {
        /// The lineup as given.
        lineup: Vec<String>,
        /// Blocks of the whole run.
        blocks: u64,
        /// The seed.
        seed: u64,
    },
    /// `climbot ladder`.
    Ladder {
        /// The levels, weakest expected first.
        levels: Vec<String>,
        /// Blocks per pair and direction.
        blocks: u64,
        /// The seed.
        seed: u64,
        /// A calibration's band ([`LadderConfig::reach`]); absent: every pair.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reach: Option<usize>,
        /// The levels whose ratings are fixed ([`LadderConfig::pins`]).
        pins: Vec<Pin>,
    },
}

impl ShardedRun {
    /// The ladder a `Ladder` run plays.
    fn ladder(&self) -> Option<LadderConfig> {
        match self {
            ShardedRun::Arena { .. } => None,
            ShardedRun::Ladder {
                levels,
                blocks,
                seed,
                reach,
                pins,
            } => Some(LadderConfig {
                levels: levels.clone(),
                blocks: *blocks,
                seed: *seed,
                reach: *reach,
                pins: pins.clone(),
            }),
        }
    }
}

/// One shard's output: the blocks it played, per arena run (one for `arena`, one per
/// pair and direction for `ladder`, in the ladder's order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// [`SHARD_FORMAT`].
    pub format: String,
    /// The table.
    pub table: TableSpec,
    /// The run's settings.
    #[serde(flatten)]
    pub run: ShardedRun,
    /// Which shard this is.
    pub shard: Shard,
    /// Per arena run, this shard's blocks in index order.
    pub runs: Vec<Vec<BlockResult>>,
}

/// What merging the shards of a run gives.
#[derive(Debug)]
pub enum Merged {
    /// An arena run's report.
    Arena(ArenaReport),
    /// A ladder's report.
    Ladder(LadderReport),
}

/// Why shard files do not merge.
#[derive(Debug, PartialEq)]
pub enum MergeError {
    /// No file was given.
    NoFiles,
    /// A file (by its position among those given) of another format or version.
    Format(usize, String),
    /// A file (by its position) of another run than the first.
    OtherRun(usize),
    /// The shards are not each present exactly once.
    Coverage {
        /// The shard count.
        count: u64,
        /// What is missing or repeated.
        problem: String,
    },
    /// A file's blocks are not its shard's.
    Blocks {
        /// The shard.
        index: u64,
        /// The shard count.
        count: u64,
        /// The arena run within the file.
        run: usize,
    },
    /// The blocks do not fit the table (another build or a damaged file).
    Shape(String),
    /// The run's settings are refused by the table.
    Arena(ArenaError),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::NoFiles => f.write_str("no shard files given"),
            MergeError::Format(i, format) => write!(
                f,
                "file {}: format {format:?}, this build reads {SHARD_FORMAT:?}",
                i + 1
            ),
            MergeError::OtherRun(i) => write!(
                f,
                "file {} is of another run than the first (the table, the settings or the shard count differ)",
                i + 1
            ),
            MergeError::Coverage { count, problem } => write!(f, "shards of {count}: {problem}"),
            MergeError::Blocks { index, count, run } => write!(
                f,
                "shard {index}/{count}: its blocks of run {run} are not the shard's"
            ),
            MergeError::Shape(what) => write!(f, "the blocks do not fit the table: {what}"),
            MergeError::Arena(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<ArenaError> for MergeError {
    fn from(error: ArenaError) -> Self {
        MergeError::Arena(error)
    }
}

/// The arena runs of a sharded run, in order.
pub fn arena_runs(run: &ShardedRun) -> Vec<ArenaConfig> {
    match run {
        ShardedRun::Arena {
            lineup,
            blocks,
            seed,
        } => vec![ArenaConfig {
            lineup: lineup.clone(),
            blocks: *blocks,
            seed: *seed,
            sprt: None,
        }],
        ShardedRun::Ladder { .. } => ladder_runs(&run.ladder().expect("a ladder"))
            .into_iter()
            .map(|r| r.arena)
            .collect(),
    }
}

/// Plays one shard of `run` at `runner`'s table.
pub fn play_shard(
    runner: &dyn GameRunner,
    table: TableSpec,
    run: ShardedRun,
    shard: Shard,
    blocks_done: &(dyn Fn(u64) + Sync),
) -> Result<ShardFile, ArenaError> {
    if let Some(ladder) = run.ladder() {
        check_ladder(runner, &ladder)?;
    }
    let runs = arena_runs(&run)
        .iter()
        .map(|config| super::run_shard(runner, config, shard, blocks_done))
        .collect::<Result<_, _>>()?;
    Ok(ShardFile {
        format: SHARD_FORMAT.into(),
        table,
        run,
        shard,
        runs,
    })
}

/// Merges the `N` shard files of one run (in any order) at `runner`'s table (the
/// files' table, which the caller builds from [`ShardFile::table`]): the report of
/// the unsharded run, timing aside.
pub fn merge(runner: &dyn GameRunner, files: &[ShardFile]) -> Result<Merged, MergeError> {
    let first = files.first().ok_or(MergeError::NoFiles)?;
    let count = first.shard.count;
    for (i, f) in files.iter().enumerate() {
        if f.format != SHARD_FORMAT {
            return Err(MergeError::Format(i, f.format.clone()));
        }
        if f.table != first.table || f.run != first.run || f.shard.count != count {
            return Err(MergeError::OtherRun(i));
        }
    }
    let mut seen = vec![0u32; count as usize];
    for f in files {
        seen[f.shard.index as usize] += 1;
    }
    let missing: Vec<u64> = (0..count).filter(|&i| seen[i as usize] == 0).collect();
    let twice: Vec<u64> = (0..count).filter(|&i| seen[i as usize] > 1).collect();
    if !missing.is_empty() || !twice.is_empty() {
        return Err(MergeError::Coverage {
            count,
            problem: format!("missing {missing:?}, given more than once {twice:?}"),
        });
    }
    let configs = arena_runs(&first.run);
    let mut reports = Vec::with_capacity(configs.len());
    for (r, config) in configs.iter().enumerate() {
        let (seats, entrants) = super::lineup_of(runner, config)?;
        let mut blocks: Vec<BlockResult> = Vec::with_capacity(config.blocks as usize);
        for f in files {
            let theirs = f.runs.get(r).ok_or(MergeError::Blocks {
                index: f.shard.index,
                count,
                run: r,
            })?;
            let indices: Vec<u64> = theirs.iter().map(|b| b.index).collect();
            if indices != f.shard.blocks(config.blocks) {
                return Err(MergeError::Blocks {
                    index: f.shard.index,
                    count,
                    run: r,
                });
            }
            blocks.extend(theirs.iter().cloned());
        }
        blocks.sort_by_key(|b| b.index);
        let metrics = runner.metrics().len();
        if let Some(b) = blocks.iter().find(|b| {
            b.means.len() != entrants.len()
                || b.latencies.len() != entrants.len()
                || b.means.iter().any(|m| m.len() != metrics)
        }) {
            return Err(MergeError::Shape(format!(
                "block {} of run {r} has {} entrants' means and {} entrants' decision times, \
                 the lineup has {} entrants of {metrics} metrics",
                b.index,
                b.means.len(),
                b.latencies.len(),
                entrants.len()
            )));
        }
        reports.push(super::summarize(
            runner, config, &seats, &entrants, &blocks, None, 0.0,
        ));
    }
    Ok(match first.run.ladder() {
        None => Merged::Arena(reports.remove(0)),
        Some(ladder) => Merged::Ladder(fit_ladder(runner, &ladder, &reports)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_slice_the_blocks() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        assert_eq!(s.blocks(8), vec![1, 4, 7]);
        assert_eq!("0/1".parse::<Shard>().unwrap().blocks(3), vec![0, 1, 2]);
        for bad in ["3/3", "1/0", "x/2", "1", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // Every block is in exactly one shard.
        let mut all: Vec<u64> = (0..5)
            .flat_map(|i| Shard { index: i, count: 5 }.blocks(23))
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..23).collect::<Vec<_>>());
    }
}
