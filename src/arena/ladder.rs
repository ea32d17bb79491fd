//! The ladder: every pair of levels meets in duplicate arena blocks, and one
//! Bradley–Terry rating per level is fitted to who won each block.
//!
//! A pair (A, B) plays twice as many blocks as asked: once with A alone against a
//! field of B, once with B alone against a field of A (each block rotates the lineup
//! around the table, so both see every deal from every seat). A block is won by the
//! side whose primary metric is better (chips for Lexio, finishing place for Dalmuti
//! and Daifugo); an exact tie counts half to each. The ratings maximize the
//! Bradley–Terry likelihood `P(A beats B) = 1 / (1 + 10^((R_B - R_A) / 400))` on the
//! Elo scale, with the pinned levels fixed (a plain ladder pins its first level at 0; a
//! calibration pins every served level at its rating on the ladder) and, for every pair
//! that met, half a virtual win each way (a weak prior that keeps a level that never
//! lost finite). The 95% intervals come from the inverse of the likelihood's curvature
//! (the observed Fisher information) and are relative to the pinned levels; each step
//! up the ladder gets its own interval from the same covariance.

use super::{ArenaConfig, ArenaError, ArenaReport, GameRunner, run_with_progress};
use crate::stats::MeanCi;
use serde::{Deserialize, Serialize};

/// A level whose rating is fixed rather than fitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pin {
    /// The level, as named in the ladder's levels.
    pub level: String,
    /// Its rating.
    pub rating: f64,
}

impl Pin {
    /// A plain ladder's one pin: `level` (its first) is the scale's zero.
    pub fn anchor(level: &str) -> Pin {
        Pin {
            level: level.into(),
            rating: 0.0,
        }
    }
}

/// Settings of a ladder run.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The levels, weakest expected first.
    pub levels: Vec<String>,
    /// Blocks per pair and direction.
    pub blocks: u64,
    /// The seed of every deal (the same deals for every pair).
    pub seed: u64,
    /// Which pairs meet: `None`, every pair; `Some(k)`, each level and the next `k`
    /// in the list (a calibration's band, for many settings in order of strength).
    pub reach: Option<usize>,
    /// The levels whose ratings are fixed: a plain ladder pins its first level at 0 (the
    /// scale's zero); a calibration pins every served level it plays at that level's
    /// rating on the ladder. Every pin names one of `levels`, each at most once.
    pub pins: Vec<Pin>,
}

impl LadderConfig {
    /// A plain ladder: every pair meets, the first level is 0.
    pub fn every_pair(levels: Vec<String>, blocks: u64, seed: u64) -> Self {
        LadderConfig {
            pins: vec![Pin::anchor(&levels[0])],
            levels,
            blocks,
            seed,
            reach: None,
        }
    }

    /// The pins as (level index, rating), in the order given.
    fn pinned(&self) -> Result<Vec<(usize, f64)>, ArenaError> {
        let mut pinned: Vec<(usize, f64)> = Vec::with_capacity(self.pins.len());
        for pin in &self.pins {
            let index = self
                .levels
                .iter()
                .position(|l| *l == pin.level)
                .ok_or(ArenaError::Fit("a pinned level is not among the levels"))?;
            if pinned.iter().any(|&(i, _)| i == index) || !pin.rating.is_finite() {
                return Err(ArenaError::Fit("a level is pinned twice or at no number"));
            }
            pinned.push((index, pin.rating));
        }
        if pinned.is_empty() {
            return Err(ArenaError::Fit(
                "no level is pinned (the ratings have no scale)",
            ));
        }
        Ok(pinned)
    }

    /// Whether levels `a < b` meet.
    fn meet(&self, a: usize, b: usize) -> bool {
        self.reach.is_none_or(|k| b - a <= k)
    }
}

/// What two levels did against each other.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// The first level (index into the ladder's levels).
    pub a: usize,
    /// The second level.
    pub b: usize,
    /// Blocks the first won (ties count half).
    pub wins_a: f64,
    /// Blocks played by the pair, both directions.
    pub blocks: u64,
    /// The first level's paired advantage per block in the primary metric (oriented so
    /// that positive is better), over both directions.
    pub advantage: MeanCi,
}

/// One level's rating.
#[derive(Clone, Debug)]
pub struct Rating {
    /// The level.
    pub level: String,
    /// Its Elo-scale rating.
    pub elo: f64,
    /// The 95% interval, relative to the pinned levels (a pinned level's is its rating).
    pub ci95: (f64, f64),
    /// Whether the rating is pinned rather than fitted.
    pub pinned: bool,
}

/// One step up the ladder: a level's rating minus the one below it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The lower level.
    pub from: String,
    /// The upper level.
    pub to: String,
    /// The rating difference.
    pub elo: f64,
    /// Its 95% interval.
    pub ci95: (f64, f64),
}

/// The ladder's report.
#[derive(Clone, Debug)]
pub struct LadderReport {
    /// The game.
    pub game: String,
    /// Players at the table.
    pub players: usize,
    /// Blocks per pair and direction.
    pub blocks: u64,
    /// The seed.
    pub seed: u64,
    /// The levels whose ratings are fixed, and those ratings.
    pub pins: Vec<Pin>,
    /// The primary metric and whether higher is better.
    pub metric: (String, bool),
    /// Every pair's results.
    pub pairs: Vec<PairResult>,
    /// One rating per level, in the order given.
    pub ratings: Vec<Rating>,
    /// The steps between consecutive levels.
    pub steps: Vec<Step>,
}

/// How far a calibration's band reaches: each setting meets the next two, so every
/// setting is compared with its neighbours on both sides and one more.
pub const CALIBRATION_REACH: usize = 2;

/// The settings a game's strength dial is calibrated over, and how its scale is pinned.
#[derive(Clone, Copy, Debug)]
pub struct DialGrid {
    /// The game's name in the dial table's header.
    pub title: &'static str,
    /// The served levels and their ratings on the ladder (`docs/tools.md`: held-out
    /// seed 31337, 20 blocks per pair, random = 0), weakest first. A calibration pins
    /// each at that rating and fits the settings between them, so that the dial speaks
    /// the ladder's scale.
    pub pins: &'static [(&'static str, f64)],
    /// The settings, weakest expected first: the served levels and, between them,
    /// the same bots remembering less of the log (`memory=k`), choosing more loosely
    /// among their own scored candidates (`temperature`, `margin`) or searching less
    /// (`expert/iterations=N`). Never a random move on purpose.
    pub levels: &'static [&'static str],
}

impl DialGrid {
    /// The pins of the served levels among `levels` (a calibration's levels).
    pub fn pins_among(&self, levels: &[String]) -> Vec<Pin> {
        self.pins
            .iter()
            .filter(|(level, _)| levels.iter().any(|l| l == level))
            .map(|&(level, rating)| Pin {
                level: level.into(),
                rating,
            })
            .collect()
    }
}

/// The dial grid of `game` (`lexio`, `dalmuti`, `daifugo`).
pub fn dial_grid(game: &str) -> Option<DialGrid> {
    match game {
        "lexio" => Some(DialGrid {
            title: "Lexio",
            pins: &[
                ("easy", 595.0),
                ("normal", 772.0),
                ("hard", 947.0),
                ("expert", 1144.0),
            ],
            levels: &[
                "easy",
                "normal/temperature=4/margin=6",
                "normal/temperature=3.75/margin=5.5",
                "normal/temperature=3.5/margin=5",
                "normal/temperature=3.35/margin=4.75",
                "normal/temperature=3.2/margin=4.5",
                "normal/temperature=2.8/margin=4",
                "normal",
                "hard/temperature=2.5/margin=3.5",
                "hard/temperature=2.25/margin=3.25",
                "hard/temperature=2/margin=3",
                "hard/temperature=1.6/margin=2.5",
                "hard/temperature=1.4/margin=2.25",
                "hard/temperature=1.2/margin=2",
                "hard",
                "expert/iterations=60",
                "expert/iterations=80",
                "expert/iterations=100",
                "expert/iterations=140",
                "expert/iterations=180",
                "expert/iterations=300",
                "expert",
            ],
        }),
        "dalmuti" => Some(DialGrid {
            title: "The Great Dalmuti",
            pins: &[
                ("easy", 597.0),
                ("normal", 754.0),
                ("hard", 963.0),
                ("expert", 1236.0),
            ],
            levels: &[
                "easy",
                "normal/memory=8",
                "normal/memory=9",
                "normal/memory=10",
                "normal/memory=12",
                "normal/memory=15",
                "normal/memory=18",
                "normal/memory=22",
                "normal",
                "hard/memory=6",
                "hard/memory=8",
                "hard/memory=10",
                "hard",
                "expert/iterations=20",
                "expert/iterations=25",
                "expert/iterations=30",
                "expert/iterations=45",
                "expert/iterations=60",
                "expert/iterations=80",
                "expert/iterations=100",
                "expert/iterations=140",
                "expert/iterations=200",
                "expert/iterations=300",
                "expert/iterations=400",
                "expert",
            ],
        }),
        "daifugo" => Some(DialGrid {
            title: "Daifugo",
            pins: &[
                ("easy", 529.0),
                ("normal", 1021.0),
                ("hard", 1306.0),
                ("expert", 1562.0),
            ],
            levels: &[
                "easy",
                "normal/memory=1/temperature=1.5/margin=3",
                "normal/memory=1/temperature=1.35/margin=2.7",
                "normal/memory=1/temperature=1.3/margin=2.6",
                "normal/memory=1/temperature=1.27/margin=2.55",
                "normal/memory=1/temperature=1.25/margin=2.5",
                "normal/memory=1/temperature=1.235/margin=2.47",
                "normal/memory=1/temperature=1.2/margin=2.4",
                "normal/memory=1/temperature=1.1/margin=2.2",
                "normal/memory=1/temperature=1/margin=2",
                "normal/memory=1/temperature=0.9/margin=1.8",
                "normal/memory=1/temperature=0.8/margin=1.6",
                "normal/memory=2/temperature=0.6/margin=1.2",
                "normal/memory=3/temperature=0.5/margin=1",
                "normal/memory=4/temperature=0.4/margin=0.8",
                "normal/memory=5/temperature=0.3/margin=0.6",
                "normal/memory=6/temperature=0.2/margin=0.4",
                "normal/memory=8",
                "normal",
                "hard/memory=6/temperature=0.1/margin=0.25",
                "hard/memory=12/temperature=0.07/margin=0.15",
                "hard/memory=24",
                "hard/memory=36",
                "hard/memory=48",
                "hard/memory=60",
                "hard/memory=72",
                "hard",
                "expert/iterations=400",
                "expert/iterations=560",
                "expert/iterations=800",
                "expert/iterations=1200",
                "expert",
            ],
        }),
        _ => None,
    }
}

/// One arena run of a ladder: `alone` (a level's index) in one seat against a field of
/// `field`.
#[derive(Clone, Debug)]
pub struct LadderRun {
    /// The level alone at the table.
    pub alone: usize,
    /// The level of the field.
    pub field: usize,
    /// The run's arena settings.
    pub arena: ArenaConfig,
}

/// The arena runs of a ladder, in the order they are played and fitted: for each pair
/// (A, B) of levels that meet, in order, A alone against a field of B, then B alone
/// against A.
pub fn ladder_runs(config: &LadderConfig) -> Vec<LadderRun> {
    let n = config.levels.len();
    let mut runs = Vec::new();
    for a in 0..n {
        for b in (a + 1..n).filter(|&b| config.meet(a, b)) {
            for (alone, field) in [(a, b), (b, a)] {
                runs.push(LadderRun {
                    alone,
                    field,
                    arena: ArenaConfig {
                        lineup: vec![config.levels[alone].clone(), config.levels[field].clone()],
                        blocks: config.blocks,
                        seed: config.seed,
                        sprt: None,
                    },
                });
            }
        }
    }
    runs
}

/// Checks a ladder's settings against the table.
pub fn check_ladder(runner: &dyn GameRunner, config: &LadderConfig) -> Result<(), ArenaError> {
    if config.levels.len() < 2 {
        return Err(ArenaError::TooFewLevels);
    }
    if config.blocks < 2 {
        return Err(ArenaError::TooFewBlocks);
    }
    if config.reach == Some(0) {
        return Err(ArenaError::TooFewLevels);
    }
    config.pinned()?;
    for level in &config.levels {
        runner.check_bot(level)?;
    }
    Ok(())
}

/// Plays every pair of levels and fits the ratings. `progress` is told each pair as it
/// finishes, `blocks_done` each block (from any thread): there are
/// `ladder_runs(config).len() * blocks` of them.
pub fn run_ladder(
    runner: &dyn GameRunner,
    config: &LadderConfig,
    progress: &mut dyn FnMut(&str),
    blocks_done: &(dyn Fn(u64) + Sync),
) -> Result<LadderReport, ArenaError> {
    check_ladder(runner, config)?;
    let mut reports = Vec::new();
    for run in ladder_runs(config) {
        reports.push(run_with_progress(runner, &run.arena, blocks_done)?);
        if run.alone > run.field {
            // Both directions of the pair are played.
            progress(&pair_line(config, run.field, run.alone, runner, &reports));
        }
    }
    fit_ladder(runner, config, &reports)
}

/// The blocks the first level of the pair whose two runs end `reports` won.
fn pair_wins(runner: &dyn GameRunner, reports: &[ArenaReport]) -> (f64, Vec<f64>) {
    let sign = if runner.higher_is_better() { 1.0 } else { -1.0 };
    let [first, second] = &reports[reports.len() - 2..] else {
        unreachable!("a pair has two runs")
    };
    let advantages: Vec<f64> = first
        .block_diffs
        .iter()
        .map(|d| sign * d)
        .chain(second.block_diffs.iter().map(|d| -sign * d))
        .collect();
    let wins = advantages
        .iter()
        .map(|&d| match d.total_cmp(&0.0) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        })
        .sum();
    (wins, advantages)
}

fn pair_line(
    config: &LadderConfig,
    a: usize,
    b: usize,
    runner: &dyn GameRunner,
    reports: &[ArenaReport],
) -> String {
    let (wins_a, advantages) = pair_wins(runner, reports);
    format!(
        "{} vs {} played: {} won {wins_a} of {} blocks (a tie counts half)",
        config.levels[a],
        config.levels[b],
        config.levels[a],
        advantages.len()
    )
}

/// The ratings from the reports of the runs of [`ladder_runs`], in that order: the
/// same figures whether the runs were played at once or gathered from shards.
pub fn fit_ladder(
    runner: &dyn GameRunner,
    config: &LadderConfig,
    reports: &[ArenaReport],
) -> Result<LadderReport, ArenaError> {
    let n = config.levels.len();
    // An advantage is a difference of two values of the primary metric.
    let primary = runner.metric_ranges()[0];
    let spread = primary.1 - primary.0;
    let runs = ladder_runs(config);
    let mut pairs = Vec::new();
    for (i, run) in runs.iter().enumerate().skip(1).step_by(2) {
        let (wins_a, advantages) = pair_wins(runner, &reports[..=i]);
        pairs.push(PairResult {
            a: run.field,
            b: run.alone,
            wins_a,
            blocks: advantages.len() as u64,
            advantage: crate::stats::mean_ci95(&advantages, (-spread, spread)),
        });
    }
    let games: Vec<(usize, usize, f64, f64)> = pairs
        .iter()
        .map(|p| (p.a, p.b, p.wins_a, p.blocks as f64))
        .collect();
    let pinned = config.pinned()?;
    let (elo, covariance) = bradley_terry(n, &games, &pinned)?;
    let se = |i: usize, j: usize| {
        // Var(R_i - R_j) from the covariance (a pinned level has no variance).
        (covariance[i][i] + covariance[j][j] - 2.0 * covariance[i][j])
            .max(0.0)
            .sqrt()
    };
    let ratings = (0..n)
        .map(|i| {
            // Relative to the pins, whose variance is 0.
            let half = 1.96 * covariance[i][i].max(0.0).sqrt();
            Rating {
                level: config.levels[i].clone(),
                elo: elo[i],
                ci95: (elo[i] - half, elo[i] + half),
                pinned: pinned.iter().any(|&(p, _)| p == i),
            }
        })
        .collect();
    let steps = (1..n)
        .map(|i| {
            let d = elo[i] - elo[i - 1];
            let half = 1.96 * se(i, i - 1);
            Step {
                from: config.levels[i - 1].clone(),
                to: config.levels[i].clone(),
                elo: d,
                ci95: (d - half, d + half),
            }
        })
        .collect();
    let metrics = runner.metrics();
    Ok(LadderReport {
        game: runner.game().into(),
        players: runner.players(),
        blocks: config.blocks,
        seed: config.seed,
        pins: config.pins.clone(),
        metric: (metrics[0].to_string(), runner.higher_is_better()),
        pairs,
        ratings,
        steps,
    })
}

/// Elo points per natural-log unit of strength.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The Bradley–Terry maximum-likelihood ratings of `n` players from `games`, each
/// `(a, b, wins of a, games played)`, on the Elo scale with the players of `pinned`
/// (`(player, rating)`, at least one) fixed at their ratings, and their covariance
/// matrix (Elo²; a pinned player's rows are 0). Every pair that met gets half a virtual
/// win each way. Newton's method on the log-likelihood, a step halved while it would
/// lower the likelihood (far-apart pins can send a full step past the maximum).
pub fn bradley_terry(
    n: usize,
    games: &[(usize, usize, f64, f64)],
    pinned: &[(usize, f64)],
) -> Result<(Vec<f64>, Vec<Vec<f64>>), ArenaError> {
    let games: Vec<(usize, usize, f64, f64)> = games
        .iter()
        .map(|&(a, b, w, g)| (a, b, w + 0.5, g + 1.0))
        .collect();
    if pinned.is_empty() {
        return Err(ArenaError::Fit(
            "no level is pinned (the ratings have no scale)",
        ));
    }
    let free: Vec<usize> = (0..n)
        .filter(|i| pinned.iter().all(|&(p, _)| p != *i))
        .collect();
    // The free players start at the pins' mean (0 for a plain ladder's one pin at 0).
    let start = pinned.iter().map(|&(_, r)| r / ELO_PER_NAT).sum::<f64>() / pinned.len() as f64;
    let mut theta = vec![start; n];
    for &(p, rating) in pinned {
        theta[p] = rating / ELO_PER_NAT;
    }
    let log_likelihood = |theta: &[f64]| -> f64 {
        games
            .iter()
            .map(|&(a, b, w, g)| {
                // ln P(a beats b) = -ln(1 + e^(θb - θa)), computed without overflow.
                let ln_p = |d: f64| -(d.max(0.0) + (-d.abs()).exp().ln_1p());
                w * ln_p(theta[b] - theta[a]) + (g - w) * ln_p(theta[a] - theta[b])
            })
            .sum()
    };
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    let mut likelihood = log_likelihood(&theta);
    for _ in 0..100 {
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![vec![0.0; n]; n];
        for &(a, b, w, g) in &games {
            let p = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
            gradient[a] += w - g * p;
            gradient[b] -= w - g * p;
            let c = g * p * (1.0 - p);
            hessian[a][a] += c;
            hessian[b][b] += c;
            hessian[a][b] -= c;
            hessian[b][a] -= c;
        }
        // The pinned players are fixed: solve for the others.
        information = free
            .iter()
            .map(|&i| free.iter().map(|&j| hessian[i][j]).collect())
            .collect();
        let inverse = invert(&information).ok_or(ArenaError::Fit(
            "the ladder's pairs do not connect every level to a pinned one (no rating can be fitted)",
        ))?;
        let steps: Vec<f64> = (0..free.len())
            .map(|i| {
                (0..free.len())
                    .map(|j| inverse[i][j] * gradient[free[j]])
                    .sum()
            })
            .collect();
        let mut scale = 1.0;
        let mut next = theta.clone();
        let mut next_likelihood = f64::NEG_INFINITY;
        for _ in 0..30 {
            for (&i, step) in free.iter().zip(&steps) {
                next[i] = theta[i] + scale * step;
            }
            next_likelihood = log_likelihood(&next);
            if next_likelihood >= likelihood {
                break;
            }
            scale *= 0.5;
        }
        theta = next;
        likelihood = next_likelihood;
        let largest = steps.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
        if largest < 1e-10 {
            break;
        }
    }
    let inverse = invert(&information).ok_or(ArenaError::Fit("singular information matrix"))?;
    let mut covariance = vec![vec![0.0; n]; n];
    for (fi, &i) in free.iter().enumerate() {
        for (fj, &j) in free.iter().enumerate() {
            covariance[i][j] = inverse[fi][fj] * ELO_PER_NAT * ELO_PER_NAT;
        }
    }
    let mut elo: Vec<f64> = theta.iter().map(|t| t * ELO_PER_NAT).collect();
    for &(p, rating) in pinned {
        // Exactly as given, not as it comes back from the natural-log scale.
        elo[p] = rating;
    }
    Ok((elo, covariance))
}

/// The inverse of a small symmetric positive-definite matrix (Gauss–Jordan with
/// partial pivoting); `None` if it is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        for x in &mut a[col] {
            *x /= p;
        }
        let pivot_row = a[col].clone();
        for (row, values) in a.iter_mut().enumerate() {
            let f = values[col];
            if row != col && f != 0.0 {
                for (x, p) in values.iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

impl LadderReport {
    /// The report as a plain-text table.
    pub fn to_table(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} ladder, {} players, {} blocks per pair and direction, seed {} ({}, {} is better)",
            self.game,
            self.players,
            self.blocks,
            self.seed,
            self.metric.0,
            if self.metric.1 { "higher" } else { "lower" }
        );
        let _ = writeln!(
            out,
            "\n| level | rating (Elo) | 95% interval |\n|---|---|---|"
        );
        // A plain ladder's one pin is the scale's zero, its anchor.
        let pinned = if self.pins.len() == 1 {
            "the anchor"
        } else {
            "pinned"
        };
        for r in &self.ratings {
            if r.pinned {
                // The other ratings and their intervals are relative to the pins, which
                // have no interval of their own.
                let _ = writeln!(
                    out,
                    "| {} | {:.0} ({pinned}) | none: fixed at {:.0} |",
                    r.level, r.elo, r.elo
                );
                continue;
            }
            let _ = writeln!(
                out,
                "| {} | {:.0} | [{:.0}, {:.0}] |",
                r.level, r.elo, r.ci95.0, r.ci95.1
            );
        }
        let _ = writeln!(
            out,
            "\n| step | difference | 95% interval | clear of 0 |\n|---|---|---|---|"
        );
        for s in &self.steps {
            let _ = writeln!(
                out,
                "| {} -> {} | {:+.0} | [{:.0}, {:.0}] | {} |",
                s.from,
                s.to,
                s.elo,
                s.ci95.0,
                s.ci95.1,
                if s.ci95.0 > 0.0 { "yes" } else { "no" }
            );
        }
        let _ = writeln!(
            out,
            "\n| pair | blocks | won by first | first's advantage per block [95%] |\n|---|---|---|---|"
        );
        for p in &self.pairs {
            let _ = writeln!(
                out,
                "| {} vs {} | {} | {} | {:+.3} [{:.3}, {:.3}] |",
                self.ratings[p.a].level,
                self.ratings[p.b].level,
                p.blocks,
                p.wins_a,
                p.advantage.mean,
                p.advantage.lo,
                p.advantage.hi
            );
        }
        out
    }

    /// The report as a strength-dial table, the format the service's dial reads
    /// (`crates/climbot-core/dial/`): `#` comments naming the game (`title`), the
    /// table size and the `command` that made it, then one line per level, weakest
    /// first: its rating, the low and high ends of its 95% interval (relative to the
    /// pinned levels) and its bot name. `random` is left out (the dial never plays it),
    /// and so is one of two levels measured at the same whole rating (with a comment
    /// saying so), since the dial must rise strictly: a pinned level stays, else the
    /// first.
    pub fn to_dial_table(&self, title: &str, command: &str) -> String {
        use std::fmt::Write as _;
        let mut rows: Vec<&Rating> = self
            .ratings
            .iter()
            .filter(|r| r.level != "random")
            .collect();
        rows.sort_by(|a, b| a.elo.total_cmp(&b.elo));
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# The strength dial of {title}: bot settings and their ratings on the ladder's scale (random = 0)."
        );
        let _ = writeln!(
            out,
            "# calibrated at {} players by: {command}",
            self.players
        );
        let pins: Vec<String> = self
            .pins
            .iter()
            .map(|p| format!("{} {:.0}", p.level, p.rating))
            .collect();
        let _ = writeln!(
            out,
            "# pinned at their ratings on the ladder: {}; the intervals are relative to them.",
            pins.join(", ")
        );
        for step in &self.steps {
            let _ = writeln!(
                out,
                "# step {} -> {}: {:+.0} [{:.0}, {:.0}]",
                step.from, step.to, step.elo, step.ci95.0, step.ci95.1
            );
        }
        let _ = writeln!(out, "# rating low high bot");
        // The dial must rise strictly: of two settings the calibration cannot tell
        // apart, a pinned level stays (the dial serves the levels at their ratings),
        // else the weaker-rated (or first) one.
        let mut kept: Vec<&Rating> = Vec::new();
        let mut left_out: Vec<(&Rating, &Rating)> = Vec::new();
        for r in rows {
            match kept.last_mut() {
                Some(last) if r.elo.round() <= last.elo.round() => {
                    if r.pinned && !last.pinned {
                        left_out.push((last, r));
                        *last = r;
                    } else {
                        left_out.push((r, last));
                    }
                }
                _ => kept.push(r),
            }
        }
        for (r, stays) in left_out {
            let _ = writeln!(
                out,
                "# left out: {} measured at the same rating as {} ({:.0})",
                r.level,
                stays.level,
                stays.elo.round() as i64
            );
        }
        for r in kept {
            // A pinned level's interval is its rating alone (it has no variance).
            let (lo, hi) = r.ci95;
            let _ = writeln!(out, "{} {lo:.0} {hi:.0} {}", r.elo.round() as i64, r.level);
        }
        out
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.game,
            "players": self.players,
            "blocks": self.blocks,
            "seed": self.seed,
            "pins": self.pins,
            "metric": {"name": self.metric.0, "higher_is_better": self.metric.1},
            "ratings": self.ratings.iter().map(|r| serde_json::json!({
                "level": r.level, "elo": r.elo, "ci95": [r.ci95.0, r.ci95.1], "pinned": r.pinned,
            })).collect::<Vec<_>>(),
            "steps": self.steps.iter().map(|s| serde_json::json!({
                "from": s.from, "to": s.to, "elo": s.elo, "ci95": [s.ci95.0, s.ci95.1],
            })).collect::<Vec<_>>(),
            "pairs": self.pairs.iter().map(|p| serde_json::json!({
                "first": self.ratings[p.a].level, "second": self.ratings[p.b].level,
                "blocks": p.blocks, "wins_first": p.wins_a,
                "advantage": {"mean": p.advantage.mean, "ci95": [p.advantage.lo, p.advantage.hi]},
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bradley_terry_recovers_known_strengths() {
        // Player 1 beats player 0 three times in four (a 191-point edge on the Elo
        // scale), player 2 beats player 1 as often: 0 < 191 < 382, roughly.
        let games = [
            (0, 1, 2500.0, 10_000.0),
            (1, 2, 2500.0, 10_000.0),
            (0, 2, 1000.0, 10_000.0),
        ];
        let (elo, cov) = bradley_terry(3, &games, &[(0, 0.0)]).unwrap();
        assert_eq!(elo[0], 0.0);
        assert!((elo[1] - 191.0).abs() < 15.0, "{elo:?}");
        assert!((elo[2] - 382.0).abs() < 25.0, "{elo:?}");
        assert!(cov[1][1] > 0.0 && cov[1][1].sqrt() < 10.0, "{cov:?}");
        assert_eq!(cov[0][0], 0.0);
    }

    #[test]
    fn a_level_that_never_loses_stays_finite() {
        let (elo, cov) = bradley_terry(2, &[(0, 1, 0.0, 50.0)], &[(0, 0.0)]).unwrap();
        assert!(elo[1].is_finite() && elo[1] > 400.0, "{elo:?}");
        assert!(cov[1][1].is_finite());
    }

    #[test]
    fn pins_hold_their_ratings_and_the_others_fit_between() {
        // A chain of six where each level beats the one below 60 times in 100, and
        // pins 1,500 points apart at its ends: far more than the chain's own steps
        // (about 70 each) add up to, and a start that a full Newton step overshoots.
        let games: Vec<_> = (0..5)
            .flat_map(|i| [(i, i + 1, 40.0, 100.0), (i, i + 2, 35.0, 100.0)])
            .filter(|&(_, b, _, _)| b <= 5)
            .collect();
        let (elo, cov) = bradley_terry(6, &games, &[(0, 500.0), (5, 2000.0)]).unwrap();
        assert_eq!((elo[0], elo[5]), (500.0, 2000.0));
        assert!(elo.windows(2).all(|w| w[0] < w[1]), "{elo:?}");
        assert!(elo.iter().all(|e| e.is_finite()), "{elo:?}");
        assert_eq!((cov[0][0], cov[5][5], cov[0][3]), (0.0, 0.0, 0.0));
        assert!((1..5).all(|i| cov[i][i] > 0.0), "{cov:?}");
        assert!(bradley_terry(6, &games, &[]).is_err());
    }

    #[test]
    fn a_calibration_band_meets_only_near_levels() {
        let levels: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let pairs = |reach| {
            let config = LadderConfig {
                reach,
                ..LadderConfig::every_pair(levels.clone(), 2, 1)
            };
            ladder_runs(&config)
                .iter()
                .map(|r| (r.alone, r.field))
                .collect::<Vec<_>>()
        };
        assert_eq!(pairs(None).len(), 20);
        assert_eq!(
            pairs(Some(2)),
            [
                (0, 1),
                (1, 0),
                (0, 2),
                (2, 0),
                (1, 2),
                (2, 1),
                (1, 3),
                (3, 1)
            ]
            .into_iter()
            .chain([(2, 3), (3, 2), (2, 4), (4, 2), (3, 4), (4, 3)])
            .collect::<Vec<_>>()
        );
        assert_eq!(pairs(Some(1)).len(), 8);
    }

    /// A report of these ratings, `(level, elo, low, high)`, the first pinned.
    fn report(ratings: &[(&str, f64, f64, f64)]) -> LadderReport {
        LadderReport {
            game: "lexio".into(),
            players: 5,
            blocks: 2,
            seed: 1,
            pins: vec![Pin {
                level: ratings[0].0.into(),
                rating: ratings[0].1,
            }],
            metric: ("chips_per_round".into(), true),
            pairs: Vec::new(),
            ratings: ratings
                .iter()
                .enumerate()
                .map(|(i, &(level, elo, lo, hi))| Rating {
                    level: level.into(),
                    elo,
                    ci95: (lo, hi),
                    pinned: i == 0,
                })
                .collect(),
            steps: Vec::new(),
        }
    }

    #[test]
    fn the_dial_table_lists_the_settings_by_rating_without_random() {
        let table = report(&[
            ("easy", 595.0, 595.0, 595.0),
            ("random", 100.0, 50.0, 150.0),
            ("hard", 900.4, 850.0, 950.0),
            ("normal/temperature=4", 700.6, 650.2, 751.0),
        ])
        .to_dial_table("Lexio", "climbot ladder --calibrate");
        let rows: Vec<&str> = table.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(
            rows,
            [
                "595 595 595 easy",
                "701 650 751 normal/temperature=4",
                "900 850 950 hard"
            ]
        );
        assert!(table.starts_with("# The strength dial of Lexio:"));
        assert!(table.contains("# calibrated at 5 players by: climbot ladder --calibrate\n"));
        let tie = report(&[("easy", 595.0, 595.0, 595.0), ("hard", 595.2, 500.0, 700.0)])
            .to_dial_table("Lexio", "c");
        assert!(tie.contains("\n595 595 595 easy\n"), "{tie}");
        assert!(tie.contains("# left out: hard measured at the same rating as easy (595)"));
        assert!(!tie.contains(" hard\n"), "{tie}");
    }

    #[test]
    fn every_dial_grid_pins_the_served_levels_and_names_bots_of_its_game() {
        use crate::game::Game;
        let check = |game: &str, parses: &dyn Fn(&str) -> bool| {
            let grid = dial_grid(game).unwrap();
            let pinned: Vec<&str> = grid.pins.iter().map(|p| p.0).collect();
            assert_eq!(pinned, ["easy", "normal", "hard", "expert"], "{game}");
            assert!(grid.pins.windows(2).all(|w| w[0].1 < w[1].1), "{game}");
            for (level, _) in grid.pins {
                assert!(grid.levels.contains(level), "{game}: {level}");
            }
            for level in grid.levels {
                assert!(parses(level), "{game}: {level}");
            }
        };
        check("lexio", &|l| crate::lexio::Lexio::bot(l).is_ok());
        check("dalmuti", &|l| crate::dalmuti::Dalmuti::bot(l).is_ok());
        check("daifugo", &|l| crate::daifugo::Daifugo::bot(l).is_ok());
        assert!(dial_grid("chess").is_none());
    }

    /// Checks one game's shipped dial table against its grid's pins.
    fn check_shipped_dial<G: crate::game::Game>(kind: crate::game::GameKind) {
        let game = kind.to_string();
        let grid = dial_grid(&game).unwrap();
        let text = crate::dial::table_text(kind);
        let pins: Vec<String> = grid
            .pins
            .iter()
            .map(|(level, rating)| format!("{level} {rating:.0}"))
            .collect();
        let header = format!(
            "# pinned at their ratings on the ladder: {};",
            pins.join(", ")
        );
        assert!(text.contains(&header), "{game}: no line {header:?}");
        let table = crate::dial::DialTable::<G>::parse(text).unwrap();
        let rating_of = |level: &str| {
            let setting = table.settings().iter().find(|s| s.bot() == level);
            let setting = setting.unwrap_or_else(|| panic!("{game}: {level} is not served"));
            assert_eq!(setting.ci95(), (setting.rating(), setting.rating()));
            setting.rating()
        };
        for &(level, rating) in grid.pins {
            assert_eq!(rating_of(level), rating, "{game}: {level}");
        }
        // The target: no gap over 100 points between neighbouring settings from EASY
        // to EXPERT, so that every target between them is served within 50.
        let (easy, expert) = (rating_of("easy"), rating_of("expert"));
        let ratings: Vec<f64> = table
            .settings()
            .iter()
            .map(|s| s.rating())
            .filter(|r| (easy..=expert).contains(r))
            .collect();
        for w in ratings.windows(2) {
            assert!(
                w[1] - w[0] <= 100.0,
                "{game}: a gap from {} to {}",
                w[0],
                w[1]
            );
        }
    }

    #[test]
    fn the_shipped_dials_serve_each_level_at_its_ladder_rating_in_steps_of_100_or_less() {
        use crate::game::GameKind;
        check_shipped_dial::<crate::lexio::Lexio>(GameKind::Lexio);
        check_shipped_dial::<crate::dalmuti::Dalmuti>(GameKind::Dalmuti);
        check_shipped_dial::<crate::daifugo::Daifugo>(GameKind::Daifugo);
    }

    #[test]
    fn unconnected_levels_are_refused() {
        assert!(bradley_terry(3, &[(0, 1, 5.0, 10.0)], &[(0, 0.0)]).is_err());
    }
}
