//! Each game's block runner: plays one seeded match with a bot per seat and reports
//! per-seat metric sums.

use super::{Latencies, SeatTotals, timed};
use crate::bot::{DecisionContext, Difficulty};
use crate::dalmuti::bots::baselines as dalmuti_baselines;
use crate::dalmuti::referee::play_match as dalmuti_match;
use crate::dalmuti::{DalmutiDecision, DalmutiPolicy, DalmutiView, policy as dalmuti_policy};
use crate::lexio::bots::{LexioPolicy, by_name as lexio_bot};
use crate::lexio::referee::play_match;
use crate::lexio::tiles::PlayerCount;
use std::sync::Mutex;
use std::time::Instant;

/// A game the arena can run.
pub trait GameRunner: Sync {
    /// The game's name.
    fn game(&self) -> &'static str;
    /// Seats at the table.
    fn players(&self) -> usize;
    /// The metric names; the first is the primary metric.
    fn metrics(&self) -> &'static [&'static str];
    /// Whether a higher primary metric is better.
    fn higher_is_better(&self) -> bool;
    /// An error naming the bot if this game has no bot by that name.
    fn check_bot(&self, name: &str) -> Result<(), String>;
    /// Plays one match (every deal from `seed`) with `bots[seat]` in each seat,
    /// recording each seat's decision times.
    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, String>;
}

/// Lexio matches of `rounds` rounds; metrics per round: chips, round wins.
#[derive(Clone, Copy, Debug)]
pub struct LexioRunner {
    /// The player count.
    pub players: PlayerCount,
    /// Rounds per match (5 by the rules).
    pub rounds: u32,
}

impl GameRunner for LexioRunner {
    fn game(&self) -> &'static str {
        "lexio"
    }

    fn players(&self) -> usize {
        self.players.count()
    }

    fn metrics(&self) -> &'static [&'static str] {
        &["chips_per_round", "round_win_rate"]
    }

    fn higher_is_better(&self) -> bool {
        true
    }

    fn check_bot(&self, name: &str) -> Result<(), String> {
        lexio_bot(name).map(|_| ()).ok_or_else(|| {
            format!("--lineup: Lexio has no bot {name:?} (easy, expert, singles, random, hard-candidate, normal-candidate)")
        })
    }

    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, String> {
        let boxed: Vec<Box<dyn LexioPolicy>> = bots
            .iter()
            .map(|b| lexio_bot(b).ok_or_else(|| format!("no Lexio bot {b:?}")))
            .collect::<Result<_, _>>()?;
        let seats: Vec<&dyn LexioPolicy> = boxed.iter().map(|b| b.as_ref()).collect();
        let result = play_match(self.players, seed, self.rounds, &seats, |seat, decide| {
            timed(&mut latencies[seat], decide)
        })
        .map_err(|e| e.to_string())?;
        Ok((0..self.players.count())
            .map(|s| SeatTotals {
                sums: vec![
                    result.rounds.iter().map(|r| r.net[s] as f64).sum(),
                    result.rounds.iter().filter(|r| r.winner == s).count() as f64,
                ],
                units: result.rounds.len() as u64,
            })
            .collect())
    }
}

/// A Dalmuti bot by arena name: the served levels and the baselines.
pub fn dalmuti_bot(name: &str) -> Option<&'static dyn DalmutiPolicy> {
    match name {
        "singles" => Some(&dalmuti_baselines::SINGLES),
        "random" => Some(&dalmuti_baselines::RANDOM),
        other => Difficulty::ALL
            .into_iter()
            .find(|d| d.name() == other)
            .and_then(dalmuti_policy),
    }
}

/// Wraps a policy to time its decisions (the referee calls `decide` itself).
struct TimedDalmuti<'a> {
    inner: &'a dyn DalmutiPolicy,
    times: Mutex<Latencies>,
}

impl DalmutiPolicy for TimedDalmuti<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn decide(&self, view: &DalmutiView, ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        let start = Instant::now();
        let d = self.inner.decide(view, ctx);
        let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
        if let Ok(mut t) = self.times.lock() {
            t.0.push(ns);
        }
        d
    }
}

/// Great Dalmuti matches of `hands` hands; metrics per hand: finishing place (1 =
/// first out; lower is better) and points.
#[derive(Clone, Copy, Debug)]
pub struct DalmutiRunner {
    /// Players (4 to 8, more allowed by the engine).
    pub players: usize,
    /// Hands per match (20 by the rules).
    pub hands: u32,
}

impl GameRunner for DalmutiRunner {
    fn game(&self) -> &'static str {
        "dalmuti"
    }

    fn players(&self) -> usize {
        self.players
    }

    fn metrics(&self) -> &'static [&'static str] {
        &["mean_place", "points_per_hand"]
    }

    fn higher_is_better(&self) -> bool {
        false
    }

    fn check_bot(&self, name: &str) -> Result<(), String> {
        dalmuti_bot(name)
            .map(|_| ())
            .ok_or_else(|| format!("--lineup: Dalmuti has no bot {name:?} (easy, singles, random)"))
    }

    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, String> {
        let timed: Vec<TimedDalmuti<'_>> = bots
            .iter()
            .map(|b| {
                dalmuti_bot(b)
                    .map(|inner| TimedDalmuti {
                        inner,
                        times: Mutex::new(Latencies::default()),
                    })
                    .ok_or_else(|| format!("no Dalmuti bot {b:?}"))
            })
            .collect::<Result<_, _>>()?;
        let policies: Vec<&dyn DalmutiPolicy> =
            timed.iter().map(|t| t as &dyn DalmutiPolicy).collect();
        let result = dalmuti_match(&policies, self.hands, seed).map_err(|e| e.to_string())?;
        for (slot, t) in latencies.iter_mut().zip(timed) {
            *slot = t.times.into_inner().unwrap_or_default();
        }
        Ok((0..self.players)
            .map(|p| SeatTotals {
                sums: vec![
                    result
                        .hands
                        .iter()
                        .map(|h| {
                            (h.finishing_order
                                .iter()
                                .position(|&x| x == p)
                                .unwrap_or(self.players - 1)
                                + 1) as f64
                        })
                        .sum(),
                    f64::from(result.scores[p]),
                ],
                units: result.hands.len() as u64,
            })
            .collect())
    }
}
