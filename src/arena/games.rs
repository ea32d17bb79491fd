//! Each game's block runner: plays one seeded match with a bot per seat and reports
//! per-seat metric sums.

use super::{Latencies, SeatTotals, timed};
use crate::lexio::bots::{LexioPolicy, by_name as lexio_bot};
use crate::lexio::referee::play_match;
use crate::lexio::tiles::PlayerCount;

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
