//! The offline safety table of Lexio Part 2: how likely a candidate play is to be beaten
//! ("받힐 확률"), indexed by `SafetyKey` = (player count, category, key quantile, unseen
//! count, largest opponent hand).
//!
//! The table is counted offline (`climbot tables lexio-safety --deals N --seed S`, which
//! plays easy-bot rounds; this module only reads the result) and compiled into the
//! binary from `safety_table.txt`, whose header carries the parameters; the runtime only
//! looks a cell up. Regenerating with the header's parameters yields the same bytes
//! (tests/lexio_safety.rs).
//!
//! **It is never a certain-winner judgement.** Certain winners are structural
//! ([`super::knowledge::is_certain_winner`]): plays that nobody can beat are left out of
//! the counts and the caller must run the structural check first. Singles are left out
//! too: every unseen tile is in some opponent's hand, so a single that can be beaten
//! structurally *is* beaten (probability 1), exactly as Lexio Part 2's decision flow says.
//!
//! # Buckets
//! - key quantile: the share of the category's combinations in the whole deck (for that
//!   player count) whose key is below the candidate's, in [`QUANTILES`] equal buckets;
//! - unseen tiles: 0-9, 10-19, 20-29, 30-39, 40+;
//! - largest opponent hand: 1, 2, 3, 4, 5, 6-8, 9+.
//!
//! # Small cells
//! Every cell stores its raw counts (beaten, total). The lookup shrinks a cell toward
//! its parent, hierarchically: the (players, category) rate with a uniform Beta(1,1)
//! prior, then (.., key bucket), then (.., unseen bucket), then the cell, each level
//! adding [`PRIOR_WEIGHT`] pseudo-observations at its parent's rate. A cell with
//! thousands of samples keeps its own rate; an empty or thin cell falls back to the
//! nearest coarser rate the data support.

use super::combos::{Category, Combo, Key};
use super::moves::{for_each_five, for_each_group};
use super::tiles::PlayerCount;
use std::fmt::Write as _;
use std::sync::LazyLock;

/// Key-quantile buckets per category.
pub const QUANTILES: usize = 5;
/// Unseen-count buckets: 0-9, 10-19, 20-29, 30-39, 40+.
pub const UNSEEN_BUCKETS: usize = 5;
/// Largest-opponent-hand buckets: 1, 2, 3, 4, 5, 6-8, 9+.
pub const MAX_LEN_BUCKETS: usize = 7;
/// Pseudo-observations each level of the shrinkage borrows from its parent.
pub const PRIOR_WEIGHT: f64 = 20.0;

/// The categories the table covers: every one but singles (exact structurally).
pub const CATEGORIES: &[Category] = Category::ALL.split_at(1).1;

const UNSEEN_LABELS: [&str; UNSEEN_BUCKETS] = ["0-9", "10-19", "20-29", "30-39", "40+"];
const MAX_LEN_LABELS: [&str; MAX_LEN_BUCKETS] = ["1", "2", "3", "4", "5", "6-8", "9+"];
/// Cells in a table: player counts x categories x key, unseen and largest-hand buckets.
pub const CELLS: usize = 3 * CATEGORIES.len() * QUANTILES * UNSEEN_BUCKETS * MAX_LEN_BUCKETS;

/// The committed table's text, compiled in.
pub const TABLE_TEXT: &str = include_str!("safety_table.txt");

static TABLE: LazyLock<SafetyTable> =
    LazyLock::new(|| SafetyTable::parse(TABLE_TEXT).expect("the compiled safety table parses"));

/// Every key of each category in the full deck, sorted (one list per combination, so
/// the quantile weighs keys by how many combinations share them).
static DECK_KEYS: LazyLock<[[Vec<u32>; 8]; 3]> = LazyLock::new(|| {
    PlayerCount::ALL.map(|players| {
        let mut keys: [Vec<u32>; 8] = Default::default();
        let deck = players.deck();
        for size in 1..=3 {
            for_each_group(deck, size, None, &mut |c| {
                keys[c.category().index()].push(c.key().0);
            });
        }
        for_each_five(players, deck, None, &mut |c| {
            keys[c.category().index()].push(c.key().0);
        });
        for list in &mut keys {
            list.sort_unstable();
        }
        keys
    })
});

fn players_index(players: PlayerCount) -> usize {
    match players {
        PlayerCount::Three => 0,
        PlayerCount::Four => 1,
        PlayerCount::Five => 2,
    }
}

fn category_index(category: Category) -> Option<usize> {
    CATEGORIES.iter().position(|&c| c == category)
}

/// The key-quantile bucket of a key in its category: floor(QUANTILES x the share of the
/// category's deck combinations with a smaller key).
pub fn key_bucket(players: PlayerCount, category: Category, key: Key) -> usize {
    let keys = &DECK_KEYS[players_index(players)][category.index()];
    if keys.is_empty() {
        return 0;
    }
    let below = keys.partition_point(|&k| k < key.0);
    (below * QUANTILES / keys.len()).min(QUANTILES - 1)
}

/// The unseen-count bucket: 0-9, 10-19, 20-29, 30-39, 40+.
pub fn unseen_bucket(unseen_len: usize) -> usize {
    (unseen_len / 10).min(UNSEEN_BUCKETS - 1)
}

/// The largest-opponent-hand bucket: 1, 2, 3, 4, 5, 6-8, 9+ (0 counts as 1).
pub fn max_len_bucket(max_opponent_len: usize) -> usize {
    match max_opponent_len {
        0..=1 => 0,
        2..=5 => max_opponent_len - 1,
        6..=8 => 5,
        _ => 6,
    }
}

/// The index of the cell of a key in a table's counts; `None` for singles.
pub fn cell_of(
    players: PlayerCount,
    play: Combo,
    unseen_len: usize,
    max_len: usize,
) -> Option<usize> {
    let c = category_index(play.category())?;
    Some(cell_index(
        players_index(players),
        c,
        key_bucket(players, play.category(), play.key()),
        unseen_bucket(unseen_len),
        max_len_bucket(max_len),
    ))
}

fn cell_index(p: usize, c: usize, q: usize, u: usize, m: usize) -> usize {
    (((p * CATEGORIES.len() + c) * QUANTILES + q) * UNSEEN_BUCKETS + u) * MAX_LEN_BUCKETS + m
}

/// One cell's raw counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Candidates some opponent could beat.
    pub beaten: u64,
    /// Candidates counted.
    pub total: u64,
}

/// A safety table: raw counts per cell and the shrunk estimates derived from them.
#[derive(Clone, Debug, PartialEq)]
pub struct SafetyTable {
    /// Deals per player count it was counted on.
    pub deals: u64,
    /// The seed of those deals.
    pub seed: u64,
    cells: Vec<Cell>,
    estimates: Vec<f64>,
}

/// The header line of a table file with these parameters.
pub fn header(deals: u64, seed: u64) -> String {
    format!(
        "# lexio-safety v1 deals={deals} seed={seed} quantiles={QUANTILES} unseen={} \
         max_len={} prior_weight={PRIOR_WEIGHT}",
        UNSEEN_LABELS.join(","),
        MAX_LEN_LABELS.join(",")
    )
}

/// The (deals, seed) of a table file's header.
pub fn parse_header(text: &str) -> Option<(u64, u64)> {
    let first = text.lines().next()?;
    let field = |name: &str| {
        first
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let (deals, seed) = (field("deals")?, field("seed")?);
    (header(deals, seed) == first).then_some((deals, seed))
}

fn shrink(beaten: u64, total: u64, prior: f64, weight: f64) -> f64 {
    (beaten as f64 + weight * prior) / (total as f64 + weight)
}

/// Why a safety table's text does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SafetyTableError {
    /// The first line is not a `lexio-safety` header.
    Header,
    /// A line that is no cell of the table.
    Line {
        /// The line's number (1-based).
        number: usize,
        /// The line.
        text: String,
    },
}

impl std::fmt::Display for SafetyTableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SafetyTableError::Header => f.write_str("bad or missing lexio-safety header"),
            SafetyTableError::Line { number, text } => write!(f, "line {number}: {text:?}"),
        }
    }
}

impl std::error::Error for SafetyTableError {}

impl SafetyTable {
    /// The table of raw counts `cells` (indexed as [`cell_of`] says, [`CELLS`] long),
    /// counted on `deals` deals per player count from `seed`, with its shrunk estimates.
    pub fn from_cells(deals: u64, seed: u64, cells: Vec<Cell>) -> SafetyTable {
        let mut estimates = vec![0.0; CELLS];
        let sum = |range: std::ops::Range<usize>| {
            cells[range].iter().fold(Cell::default(), |a, c| Cell {
                beaten: a.beaten + c.beaten,
                total: a.total + c.total,
            })
        };
        let per_u = MAX_LEN_BUCKETS;
        let per_q = UNSEEN_BUCKETS * per_u;
        let per_c = QUANTILES * per_q;
        for p in 0..3 {
            for c in 0..CATEGORIES.len() {
                let base_c = cell_index(p, c, 0, 0, 0);
                let cat = sum(base_c..base_c + per_c);
                let p0 = shrink(cat.beaten, cat.total, 0.5, 2.0);
                for q in 0..QUANTILES {
                    let base_q = cell_index(p, c, q, 0, 0);
                    let qc = sum(base_q..base_q + per_q);
                    let p1 = shrink(qc.beaten, qc.total, p0, PRIOR_WEIGHT);
                    for u in 0..UNSEEN_BUCKETS {
                        let base_u = cell_index(p, c, q, u, 0);
                        let uc = sum(base_u..base_u + per_u);
                        let p2 = shrink(uc.beaten, uc.total, p1, PRIOR_WEIGHT);
                        for m in 0..MAX_LEN_BUCKETS {
                            let i = base_u + m;
                            estimates[i] =
                                shrink(cells[i].beaten, cells[i].total, p2, PRIOR_WEIGHT);
                        }
                    }
                }
            }
        }
        SafetyTable {
            deals,
            seed,
            cells,
            estimates,
        }
    }

    /// The compiled-in table.
    pub fn compiled() -> &'static SafetyTable {
        &TABLE
    }

    /// Parses a table file (its header and one line per non-empty cell).
    pub fn parse(text: &str) -> Result<SafetyTable, SafetyTableError> {
        let (deals, seed) = parse_header(text).ok_or(SafetyTableError::Header)?;
        let mut cells = vec![Cell::default(); CELLS];
        for (n, line) in text.lines().enumerate().skip(1) {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let bad = || SafetyTableError::Line {
                number: n + 1,
                text: line.to_string(),
            };
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 7 {
                return Err(bad());
            }
            let p = w[0]
                .parse::<u32>()
                .ok()
                .and_then(PlayerCount::from_count)
                .map(players_index)
                .ok_or_else(bad)?;
            let c = CATEGORIES
                .iter()
                .position(|c| c.name() == w[1])
                .ok_or_else(bad)?;
            let q = w[2]
                .parse::<usize>()
                .ok()
                .filter(|&q| q < QUANTILES)
                .ok_or_else(bad)?;
            let u = UNSEEN_LABELS
                .iter()
                .position(|&l| l == w[3])
                .ok_or_else(bad)?;
            let m = MAX_LEN_LABELS
                .iter()
                .position(|&l| l == w[4])
                .ok_or_else(bad)?;
            let beaten = w[5].parse::<u64>().map_err(|_| bad())?;
            let total = w[6].parse::<u64>().map_err(|_| bad())?;
            if beaten > total {
                return Err(bad());
            }
            cells[cell_index(p, c, q, u, m)] = Cell { beaten, total };
        }
        Ok(SafetyTable::from_cells(deals, seed, cells))
    }

    /// The file text: the header, a column line, then one line per non-empty cell in
    /// index order (players, category, key bucket, unseen bucket, largest-hand bucket).
    pub fn to_text(&self) -> String {
        let mut out = header(self.deals, self.seed);
        out.push('\n');
        out.push_str("# players category key_bucket unseen max_opponent_len beaten total\n");
        for (p, players) in PlayerCount::ALL.iter().enumerate() {
            for (c, category) in CATEGORIES.iter().enumerate() {
                for q in 0..QUANTILES {
                    for (u, unseen) in UNSEEN_LABELS.iter().enumerate() {
                        for (m, max_len) in MAX_LEN_LABELS.iter().enumerate() {
                            let cell = self.cells[cell_index(p, c, q, u, m)];
                            if cell.total > 0 {
                                let _ = writeln!(
                                    out,
                                    "{} {} {q} {} {} {} {}",
                                    players.count(),
                                    category.name(),
                                    unseen,
                                    max_len,
                                    cell.beaten,
                                    cell.total
                                );
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// The raw counts of the cell of a key.
    pub fn cell(
        &self,
        players: PlayerCount,
        play: Combo,
        unseen_len: usize,
        max_len: usize,
    ) -> Cell {
        match cell_of(players, play, unseen_len, max_len) {
            Some(i) => self.cells[i],
            None => Cell::default(),
        }
    }

    /// The estimated chance that some opponent can beat `play` (see [`beaten_chance`]).
    pub fn beaten_chance(
        &self,
        players: PlayerCount,
        play: Combo,
        unseen_len: usize,
        max_opponent_len: usize,
    ) -> f64 {
        if max_opponent_len < play.len() {
            return 0.0;
        }
        match cell_of(players, play, unseen_len, max_opponent_len) {
            Some(i) => self.estimates[i],
            // A single the structural check could not clear is beaten for sure.
            None => 1.0,
        }
    }
}

/// The chance that some opponent holds a play beating `play`, from the compiled table.
///
/// The caller must first rule out certain winners structurally
/// ([`super::knowledge::is_certain_winner`]): the table was counted without them and
/// would underrate them. Singles return 1.0 (every unseen tile is in an opponent's hand,
/// so a single that is not a certain winner is beaten); a play larger than every
/// opponent's hand returns 0.0. `unseen_len` is the size of the view's unseen set and
/// `max_opponent_len` the largest opponent tile count. Cost: one binary search over the
/// category's deck keys (at most 14 steps) and one array read.
pub fn beaten_chance(
    players: PlayerCount,
    play: Combo,
    unseen_len: usize,
    max_opponent_len: usize,
) -> f64 {
    TABLE.beaten_chance(players, play, unseen_len, max_opponent_len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::combos::{classify, tile};
    use crate::lexio::tiles::Suit::*;

    #[test]
    fn buckets() {
        assert_eq!(unseen_bucket(0), 0);
        assert_eq!(unseen_bucket(9), 0);
        assert_eq!(unseen_bucket(10), 1);
        assert_eq!(unseen_bucket(39), 3);
        assert_eq!(unseen_bucket(48), 4);
        let m: Vec<usize> = (0..14).map(max_len_bucket).collect();
        assert_eq!(m, [0, 0, 1, 2, 3, 4, 5, 5, 5, 6, 6, 6, 6, 6]);
    }

    #[test]
    fn key_buckets_span_the_category() {
        let p = PlayerCount::Five;
        let pair = |n, a, b| classify(p, [tile(n, a), tile(n, b)].into_iter().collect()).unwrap();
        let low = pair(3, Cloud, Star);
        let high = pair(2, Moon, Sun);
        assert_eq!(key_bucket(p, Category::Pair, low.key()), 0);
        assert_eq!(key_bucket(p, Category::Pair, high.key()), QUANTILES - 1);
        // Monotone in the key over a whole category.
        for players in PlayerCount::ALL {
            for &cat in CATEGORIES {
                let keys = &DECK_KEYS[players_index(players)][cat.index()];
                assert!(!keys.is_empty());
                let buckets: Vec<usize> = keys
                    .iter()
                    .map(|&k| key_bucket(players, cat, Key(k)))
                    .collect();
                assert!(buckets.windows(2).all(|w| w[0] <= w[1]));
                assert_eq!(buckets[0], 0);
                assert!(buckets.iter().all(|&b| b < QUANTILES));
            }
        }
    }

    #[test]
    fn shrinkage_falls_back_to_the_parent() {
        // An empty table: every estimate is the uniform prior 0.5.
        let empty = SafetyTable::from_cells(0, 0, vec![Cell::default(); CELLS]);
        assert!(empty.estimates.iter().all(|&e| (e - 0.5).abs() < 1e-12));
        // One cell with many samples keeps (nearly) its own rate.
        let mut cells = vec![Cell::default(); CELLS];
        cells[cell_index(2, 0, 1, 2, 6)] = Cell {
            beaten: 9000,
            total: 10_000,
        };
        let t = SafetyTable::from_cells(0, 0, cells);
        assert!((t.estimates[cell_index(2, 0, 1, 2, 6)] - 0.9).abs() < 0.01);
        // Its empty neighbour borrows the parent's rate.
        assert!((t.estimates[cell_index(2, 0, 1, 2, 5)] - 0.9).abs() < 0.01);
    }
}
