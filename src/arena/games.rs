//! Each game's block runner: plays one seeded match with a bot per seat and reports
//! per-seat metric sums.

use super::remote::{Remote, RemoteBot};
use super::{Latencies, SeatTotals, timed};
use crate::bot::{DecisionContext, Difficulty};
use crate::daifugo::bots::baselines as daifugo_baselines;
use crate::daifugo::referee::play_match as daifugo_match;
use crate::daifugo::rules::RuleSet;
use crate::daifugo::{DaifugoDecision, DaifugoPolicy, DaifugoView, policy as daifugo_policy};
use crate::dalmuti::referee::play_match as dalmuti_match;
use crate::dalmuti::{DalmutiDecision, DalmutiPolicy, DalmutiView};
use crate::lexio::bots::{LexioPolicy, by_name as lexio_bot};
use crate::lexio::referee::play_match;
use crate::lexio::tiles::PlayerCount;
use std::sync::{Arc, Mutex};
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
#[derive(Clone, Debug)]
pub struct LexioRunner {
    /// The player count.
    pub players: PlayerCount,
    /// Rounds per match (5 by the rules).
    pub rounds: u32,
    /// With a server, served levels decide through it.
    pub remote: Option<Arc<Remote>>,
}

impl LexioRunner {
    /// An in-process runner.
    pub const fn new(players: PlayerCount, rounds: u32) -> LexioRunner {
        LexioRunner {
            players,
            rounds,
            remote: None,
        }
    }

    fn bot<'a>(&'a self, name: &str) -> Option<Box<dyn LexioPolicy + 'a>> {
        if let Some(remote) = &self.remote
            && let Some(d) = Difficulty::ALL.into_iter().find(|d| d.name() == name)
        {
            return Some(Box::new(RemoteBot {
                remote,
                difficulty: d,
            }));
        }
        lexio_bot(name).map(|b| b as Box<dyn LexioPolicy + 'a>)
    }
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
            format!("--lineup: Lexio has no bot {name:?} (easy, normal, hard, expert, singles, random; normal and hard take overrides like hard/tempo=0)")
        })
    }

    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, String> {
        let boxed: Vec<Box<dyn LexioPolicy + '_>> = bots
            .iter()
            .map(|b| self.bot(b).ok_or_else(|| format!("no Lexio bot {b:?}")))
            .collect::<Result<_, _>>()?;
        let seats: Vec<&dyn LexioPolicy> = boxed.iter().map(|b| b.as_ref()).collect();
        let result = play_match(self.players, seed, self.rounds, &seats, |seat, decide| {
            timed(&mut latencies[seat], decide)
        })
        .map_err(|e| e.to_string())?;
        if let Some(e) = self.remote.as_ref().and_then(|r| r.error()) {
            return Err(format!("remote decision: {e}"));
        }
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

/// A Dalmuti bot by arena name: the baselines, `easy`, `hard`, `normal` and weight
/// variants such as `hard/tempo=0` (see [`crate::dalmuti::bots::by_name`]).
pub fn dalmuti_bot(name: &str) -> Option<Box<dyn DalmutiPolicy>> {
    crate::dalmuti::bots::by_name(name)
}

/// Wraps a policy to time its decisions, for referees that call `decide` themselves.
struct Timed<'a, P: ?Sized> {
    inner: &'a P,
    times: Mutex<Latencies>,
}

impl<'a, P: ?Sized> Timed<'a, P> {
    fn new(inner: &'a P) -> Self {
        Timed {
            inner,
            times: Mutex::new(Latencies::default()),
        }
    }

    fn time<T>(&self, f: impl FnOnce(&P) -> T) -> T {
        let start = Instant::now();
        let out = f(self.inner);
        let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
        if let Ok(mut t) = self.times.lock() {
            t.0.push(ns);
        }
        out
    }

    fn into_latencies(self) -> Latencies {
        self.times.into_inner().unwrap_or_default()
    }
}

impl DalmutiPolicy for Timed<'_, dyn DalmutiPolicy + '_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn decide(&self, view: &DalmutiView, ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        self.time(|p| p.decide(view, ctx))
    }
}

impl DaifugoPolicy for Timed<'_, dyn DaifugoPolicy + '_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn decide(&self, view: &DaifugoView, ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        self.time(|p| p.decide(view, ctx))
    }
}

/// Great Dalmuti matches of `hands` hands; metrics per hand: finishing place (1 =
/// first out; lower is better) and points.
#[derive(Clone, Debug)]
pub struct DalmutiRunner {
    /// Players (4 to 8, more allowed by the engine).
    pub players: usize,
    /// Hands per match (20 by the rules).
    pub hands: u32,
    /// With a server, served levels decide through it.
    pub remote: Option<Arc<Remote>>,
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
            .ok_or_else(|| {
                format!("--lineup: Dalmuti has no bot {name:?} (easy, hard, normal, singles, random, hard/weight=value)")
            })
    }

    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, String> {
        let remote = self
            .remote
            .as_deref()
            .map(RemoteBot::every_level)
            .unwrap_or_default();
        let local: Vec<Option<Box<dyn DalmutiPolicy>>> =
            bots.iter().map(|b| dalmuti_bot(b)).collect();
        let timed = seat_policies::<dyn DalmutiPolicy + '_>(
            bots,
            &remote,
            |b| {
                bots.iter()
                    .position(|x| x == b)
                    .and_then(|i| local[i].as_deref())
            },
            |r| r as &dyn DalmutiPolicy,
            "Dalmuti",
        )?;
        let policies: Vec<&dyn DalmutiPolicy> =
            timed.iter().map(|t| t as &dyn DalmutiPolicy).collect();
        let result = dalmuti_match(&policies, self.hands, seed).map_err(|e| e.to_string())?;
        finish_timing(self.remote.as_deref(), timed, latencies)?;
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

/// Each seat's policy, timed: a served level through the server when there is one,
/// otherwise the local bot of that name.
fn seat_policies<'a, P: ?Sized>(
    bots: &[String],
    remote: &'a [RemoteBot<'a>],
    local: impl Fn(&str) -> Option<&'a P>,
    as_policy: impl Fn(&'a RemoteBot<'a>) -> &'a P,
    game: &str,
) -> Result<Vec<Timed<'a, P>>, String> {
    bots.iter()
        .map(|b| match remote.iter().find(|r| r.difficulty.name() == b) {
            Some(r) => Ok(Timed::new(as_policy(r))),
            None => local(b)
                .map(Timed::new)
                .ok_or_else(|| format!("no {game} bot {b:?}")),
        })
        .collect()
}

/// Reports a remote failure instead of results, and hands each seat its times.
fn finish_timing<P: ?Sized>(
    remote: Option<&Remote>,
    timed: Vec<Timed<'_, P>>,
    latencies: &mut [Latencies],
) -> Result<(), String> {
    if let Some(e) = remote.and_then(Remote::error) {
        return Err(format!("remote decision: {e}"));
    }
    for (slot, t) in latencies.iter_mut().zip(timed) {
        *slot = t.into_latencies();
    }
    Ok(())
}

/// A Daifugo bot by arena name: the served levels and the baselines.
pub fn daifugo_bot(name: &str) -> Option<&'static dyn DaifugoPolicy> {
    static SINGLES: daifugo_baselines::SinglesPolicy = daifugo_baselines::SinglesPolicy;
    static RANDOM: daifugo_baselines::RandomPolicy = daifugo_baselines::RandomPolicy;
    match name {
        "singles" => Some(&SINGLES),
        "random" => Some(&RANDOM),
        other => Difficulty::ALL
            .into_iter()
            .find(|d| d.name() == other)
            .and_then(daifugo_policy),
    }
}

/// Daifugo matches of `games` games under a rule set; metrics per game: place (lower is
/// better), points (P - place + 1), forbidden-finish rate and miyako-ochi rate.
#[derive(Clone, Debug)]
pub struct DaifugoRunner {
    /// Players (3 to 7).
    pub players: usize,
    /// Games per match.
    pub games: u32,
    /// The rule set.
    pub rules: RuleSet,
    /// With a server, served levels decide through it.
    pub remote: Option<Arc<Remote>>,
}

impl GameRunner for DaifugoRunner {
    fn game(&self) -> &'static str {
        "daifugo"
    }

    fn players(&self) -> usize {
        self.players
    }

    fn metrics(&self) -> &'static [&'static str] {
        &[
            "mean_place",
            "points_per_game",
            "forbidden_finish_rate",
            "miyako_ochi_rate",
        ]
    }

    fn higher_is_better(&self) -> bool {
        false
    }

    fn check_bot(&self, name: &str) -> Result<(), String> {
        daifugo_bot(name)
            .map(|_| ())
            .ok_or_else(|| format!("--lineup: Daifugo has no bot {name:?} (easy, singles, random)"))
    }

    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, String> {
        let remote = self
            .remote
            .as_deref()
            .map(RemoteBot::every_level)
            .unwrap_or_default();
        let timed = seat_policies::<dyn DaifugoPolicy + '_>(
            bots,
            &remote,
            |b| daifugo_bot(b).map(|p| p as &dyn DaifugoPolicy),
            |r| r as &dyn DaifugoPolicy,
            "Daifugo",
        )?;
        let policies: Vec<&dyn DaifugoPolicy> =
            timed.iter().map(|t| t as &dyn DaifugoPolicy).collect();
        let records = daifugo_match(self.rules, &policies, self.games, seed)?;
        finish_timing(self.remote.as_deref(), timed, latencies)?;
        let p = self.players;
        Ok((0..p)
            .map(|seat| {
                let mut sums = vec![0.0; 4];
                for r in &records {
                    let place = r.result.place_of(seat);
                    sums[0] += place as f64;
                    sums[1] += (p - place + 1) as f64;
                    sums[2] += f64::from(u8::from(r.result.fouls.contains(&seat)));
                    sums[3] += f64::from(u8::from(r.result.miyako_ochi == Some(seat)));
                }
                SeatTotals {
                    sums,
                    units: records.len() as u64,
                }
            })
            .collect())
    }
}
