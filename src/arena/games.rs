//! The block runner, written once over [`ArenaGame`]: plays one seeded match with a
//! bot per seat and reports per-seat metric sums. Each game says only how a match is
//! played and what its metrics are.

use super::remote::{Remote, RemoteBot};
use super::{ArenaError, Latencies, SeatTotals};
use crate::bot::{DecisionContext, Difficulty};
use crate::daifugo::Daifugo;
use crate::daifugo::position::DaifugoDeal;
use crate::daifugo::rules::RuleSet;
use crate::dalmuti::Dalmuti;
use crate::dalmuti::position::DalmutiDeal;
use crate::game::{Game, Policy};
use crate::lexio::Lexio;
use crate::lexio::position::LexioDeal;
use crate::lexio::tiles::PlayerCount;
use crate::pb;
use crate::search::expert::{ExpertBot, Searchable};
use crate::service::game::WireGame;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A game the arena can run (object-safe, so that the command line picks one).
pub trait GameRunner: Sync {
    /// The game's name.
    fn game(&self) -> &'static str;
    /// Seats at the table.
    fn players(&self) -> usize;
    /// The metric names; the first is the primary metric.
    fn metrics(&self) -> &'static [&'static str];
    /// The lowest and the highest value each metric can take, per unit (in
    /// [`GameRunner::metrics`] order): intervals are kept within them.
    fn metric_ranges(&self) -> Vec<(f64, f64)>;
    /// Whether a higher primary metric is better.
    fn higher_is_better(&self) -> bool;
    /// An error naming the bot, and what is wrong with it, if this game has no bot by
    /// that name (an unknown bot, an override it does not take, a value that does not
    /// fit).
    fn check_bot(&self, name: &str) -> Result<(), ArenaError>;
    /// Plays one match (every deal from `seed`) with `bots[seat]` in each seat,
    /// recording each seat's decision times.
    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, ArenaError>;
}

/// What the arena needs from a game beyond [`Game`]: how a match is played and what
/// it measures.
pub trait ArenaGame: WireGame + Searchable {
    /// What a match needs besides its seats (Daifugo's rule set; `()` elsewhere).
    type Rules: Clone + std::fmt::Debug + Send + Sync;
    /// The metric names, per unit (round, hand or game); the first is the primary one,
    /// in the unit of [`Simulation::outcome`](crate::game::Simulation::outcome).
    const METRICS: &'static [&'static str];
    /// The lowest and the highest value of each metric per unit at a table of
    /// `players` (in [`ArenaGame::METRICS`] order).
    fn metric_ranges(players: usize) -> Vec<(f64, f64)>;
    /// Checks that the game can seat `players`.
    fn check_players(players: usize) -> Result<(), ArenaError>;
    /// Plays a match of `units` rounds, hands or games between `seats` from `seed`
    /// and returns each seat's metric sums.
    fn play_match(
        rules: &Self::Rules,
        seats: &[&dyn Policy<Self>],
        units: u32,
        seed: u64,
    ) -> Result<Vec<SeatTotals>, ArenaError> {
        Self::play_match_following(rules, seats, units, seed, None, None)
    }
    /// [`ArenaGame::play_match`], showing `follow` after each deal and after every
    /// decision, whoever decided, who sits where and the followed player's own part,
    /// and telling `tell` the true deal at the same moments (every seat's hand: what
    /// the arena's told bots are given, never a served one). Following and telling
    /// change nothing in the match.
    fn play_match_following(
        rules: &Self::Rules,
        seats: &[&dyn Policy<Self>],
        units: u32,
        seed: u64,
        follow: Option<Follow<'_>>,
        tell: Option<&mut dyn FnMut(Self::Deal)>,
    ) -> Result<Vec<SeatTotals>, ArenaError>;
}

/// A match followed between its turns (the playground draws every table seat with its
/// player, and shows a person their hand while the bots play).
pub struct Follow<'a> {
    /// The player whose own part is shown, if any: an index into the match's seats.
    pub player: Option<usize>,
    /// Told what the follower may see, after each deal and after every decision.
    pub shown: &'a mut dyn FnMut(Followed),
}

/// What a follower is shown at one point of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Followed {
    /// The player (an index into the match's seats) at each table seat, as the views
    /// number the seats. The identity in Lexio and Daifugo; in The Great Dalmuti the
    /// seats are drawn for the first hand, follow the finishing order after it, and
    /// reverse with a Greater Revolution.
    pub seating: Vec<usize>,
    /// The followed player's own part: a view on the wire holding only the player's
    /// seat, its hand, the deal's number and every seat's public state (counts,
    /// titles); nothing of another seat's hand.
    pub own: Option<pb::game_view::Game>,
}

/// Matches of one game: `units` rounds, hands or games per match under `rules`.
pub struct Runner<G: ArenaGame> {
    /// Seats at the table.
    pub players: usize,
    /// Rounds (Lexio), hands (Dalmuti) or games (Daifugo) per match.
    pub units: u32,
    /// The game's rules for the match.
    pub rules: G::Rules,
    /// With a server, served levels decide through it.
    pub remote: Option<Arc<Remote>>,
}

impl<G: ArenaGame> Runner<G> {
    /// A runner of `players` seats, checked against the game.
    pub fn new(
        players: usize,
        units: u32,
        rules: G::Rules,
        remote: Option<Arc<Remote>>,
    ) -> Result<Self, ArenaError> {
        G::check_players(players)?;
        Ok(Runner {
            players,
            units,
            rules,
            remote,
        })
    }

    /// The seat's bot: a told search (`told:` and an `expert` name) reading the true
    /// deal from `truth`, a served level through the server when there is one,
    /// otherwise the local bot of that name.
    fn bot<'a>(
        &'a self,
        name: &str,
        truth: &'a Mutex<Option<G::Deal>>,
    ) -> Result<Box<dyn Policy<G> + 'a>, ArenaError> {
        if let Some(bot) = told_bot::<G>(name)? {
            return Ok(Box::new(Told { bot, truth }));
        }
        if let Some(remote) = &self.remote
            && let Some(d) = Difficulty::named(name)
        {
            let bot = RemoteBot::<G>::new(remote, d);
            // The local `expert` searches a set number of playouts: the server is asked
            // for the same number, so that both play alike.
            return Ok(Box::new(match d {
                Difficulty::Expert => bot.with_max_iterations(G::DEFAULT_ITERATIONS),
                _ => bot,
            }));
        }
        G::bot(name)
            .map(|b| b as Box<dyn Policy<G> + 'a>)
            .map_err(|reason| ArenaError::Bot {
                flag: "--lineup",
                name: name.to_string(),
                reason: Box::new(reason),
                known: None,
            })
    }
}

impl<G: ArenaGame> GameRunner for Runner<G> {
    fn game(&self) -> &'static str {
        G::NAME
    }

    fn players(&self) -> usize {
        self.players
    }

    fn metrics(&self) -> &'static [&'static str] {
        G::METRICS
    }

    fn metric_ranges(&self) -> Vec<(f64, f64)> {
        G::metric_ranges(self.players)
    }

    fn higher_is_better(&self) -> bool {
        G::HIGHER_IS_BETTER
    }

    fn check_bot(&self, name: &str) -> Result<(), ArenaError> {
        if told_bot::<G>(name)?.is_some() {
            return Ok(());
        }
        G::bot(name).map(|_| ()).map_err(|reason| ArenaError::Bot {
            flag: "--lineup",
            name: name.to_string(),
            reason: Box::new(reason),
            known: Some((G::NAME, G::BOT_NAMES)),
        })
    }

    fn play(
        &self,
        seed: u64,
        bots: &[String],
        latencies: &mut [Latencies],
    ) -> Result<Vec<SeatTotals>, ArenaError> {
        let truth = Mutex::new(None);
        let boxed: Vec<Box<dyn Policy<G> + '_>> = bots
            .iter()
            .map(|b| self.bot(b, &truth))
            .collect::<Result<_, _>>()?;
        let timed: Vec<Timed<'_, G>> = boxed.iter().map(|b| Timed::new(b.as_ref())).collect();
        let seats: Vec<&dyn Policy<G>> = timed.iter().map(|t| t as &dyn Policy<G>).collect();
        let totals = if bots.iter().any(|b| b.starts_with(TOLD)) {
            let mut tell = |deal| {
                if let Ok(mut slot) = truth.lock() {
                    *slot = Some(deal);
                }
            };
            G::play_match_following(&self.rules, &seats, self.units, seed, None, Some(&mut tell))?
        } else {
            G::play_match(&self.rules, &seats, self.units, seed)?
        };
        if let Some(e) = self.remote.as_deref().and_then(Remote::error) {
            return Err(ArenaError::Remote(e));
        }
        for (slot, t) in latencies.iter_mut().zip(timed) {
            *slot = t.into_latencies();
        }
        Ok(totals)
    }
}

/// The prefix of a told bot's name: `told:expert/iterations=3000` is that search
/// told the true deal before every decision.
const TOLD: &str = "told:";

/// The search a `told:` name asks for (`None` for a name without the prefix).
fn told_bot<G: ArenaGame>(name: &str) -> Result<Option<ExpertBot<G>>, ArenaError> {
    let Some(expert) = name.strip_prefix(TOLD) else {
        return Ok(None);
    };
    let error = |reason, known| ArenaError::Bot {
        flag: "--lineup",
        name: name.to_string(),
        reason: Box::new(reason),
        known,
    };
    match crate::search::expert::by_name::<G>(expert) {
        Some(bot) => bot.map(Some).map_err(|reason| error(reason, None)),
        None => Err(error(
            crate::bot::BotNameError::Unknown {
                game: G::NAME,
                bot: name.split('/').next().unwrap_or_default().to_string(),
            },
            Some((
                G::NAME,
                "told:expert, told:expert-v1, each with expert's overrides",
            )),
        )),
    }
}

/// A search told the true deal (every seat's hand) before each decision: an arena
/// diagnostic of how strong the search would be if the deals it plays were right,
/// the ceiling of what inferring the hidden hands can buy. Only the arena makes one,
/// from the referee's own state; nothing served is ever told.
struct Told<'a, G: ArenaGame> {
    bot: ExpertBot<G>,
    truth: &'a Mutex<Option<G::Deal>>,
}

impl<G: ArenaGame> Policy<G> for Told<'_, G> {
    fn name(&self) -> &'static str {
        "told"
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let deal = self.truth.lock().ok().and_then(|slot| slot.clone());
        match deal {
            Some(deal) => self.bot.decide_knowing(view, &deal, ctx),
            None => self.bot.decide(view, ctx),
        }
    }
}

/// Wraps a policy to time its decisions (the arena may read the clock, the games
/// never do).
struct Timed<'a, G: Game> {
    inner: &'a dyn Policy<G>,
    times: Mutex<Latencies>,
}

impl<'a, G: Game> Timed<'a, G> {
    fn new(inner: &'a dyn Policy<G>) -> Self {
        Timed {
            inner,
            times: Mutex::new(Latencies::default()),
        }
    }

    fn into_latencies(self) -> Latencies {
        self.times.into_inner().unwrap_or_default()
    }
}

impl<G: Game> Policy<G> for Timed<'_, G> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let start = Instant::now();
        let out = self.inner.decide(view, ctx);
        let ns = start.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64;
        if let Ok(mut t) = self.times.lock() {
            t.0.push(ns);
        }
        out
    }
}

/// Lexio: metrics per round, chips and round wins.
impl ArenaGame for Lexio {
    type Rules = ();
    const METRICS: &'static [&'static str] = &["chips_per_round", "round_win_rate"];

    /// A seat nets the sum of the effective counts less P times its own, and an
    /// effective count is at most a hand of tiles doubled for each of the four 2s.
    fn metric_ranges(players: usize) -> Vec<(f64, f64)> {
        let hand = lexio_players(players).map_or(13, PlayerCount::hand_size);
        let most = (players.saturating_sub(1) * hand * 16) as f64;
        vec![(-most, most), (0.0, 1.0)]
    }

    fn check_players(players: usize) -> Result<(), ArenaError> {
        lexio_players(players).map(|_| ())
    }

    fn play_match_following(
        _: &(),
        seats: &[&dyn Policy<Lexio>],
        rounds: u32,
        seed: u64,
        mut follow: Option<Follow<'_>>,
        mut tell: Option<&mut dyn FnMut(LexioDeal)>,
    ) -> Result<Vec<SeatTotals>, ArenaError> {
        let result =
            crate::lexio::referee::play_match_observed(seats, rounds, seed, &mut |round| {
                if let Some(tell) = tell.as_mut() {
                    tell(std::array::from_fn(|seat| round.hand(seat)));
                }
                if let Some(Follow { player, shown }) = follow.as_mut() {
                    shown(Followed {
                        seating: (0..seats.len()).collect(),
                        own: player.map(|player| {
                            pb::game_view::Game::Lexio(crate::service::lexio::own_part_to_wire(
                                round, player,
                            ))
                        }),
                    })
                }
            })
            .map_err(|e| ArenaError::Match(e.to_string()))?;
        Ok((0..seats.len())
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

fn lexio_players(players: usize) -> Result<PlayerCount, ArenaError> {
    u32::try_from(players)
        .ok()
        .and_then(PlayerCount::from_count)
        .ok_or_else(|| ArenaError::Players {
            players,
            game: "Lexio",
            takes: "3, 4 or 5".to_string(),
        })
}

/// The Great Dalmuti: metrics per hand, finishing place (1 = first out; lower is
/// better) and points.
impl ArenaGame for Dalmuti {
    type Rules = ();
    const METRICS: &'static [&'static str] = &["mean_place", "points_per_hand"];

    fn metric_ranges(players: usize) -> Vec<(f64, f64)> {
        let last = players.max(1) as f64;
        vec![(1.0, last), (1.0, last)]
    }

    fn check_players(players: usize) -> Result<(), ArenaError> {
        use crate::dalmuti::turn::{MAX_PLAYERS, MIN_PLAYERS};
        if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            Ok(())
        } else {
            Err(ArenaError::Players {
                players,
                game: "Dalmuti",
                takes: format!("{MIN_PLAYERS} to {MAX_PLAYERS}"),
            })
        }
    }

    fn play_match_following(
        _: &(),
        seats: &[&dyn Policy<Dalmuti>],
        hands: u32,
        seed: u64,
        mut follow: Option<Follow<'_>>,
        mut tell: Option<&mut dyn FnMut(DalmutiDeal)>,
    ) -> Result<Vec<SeatTotals>, ArenaError> {
        let players = seats.len();
        let result =
            crate::dalmuti::referee::play_match_observed(seats, hands, seed, &mut |hand| {
                if let Some(tell) = tell.as_mut() {
                    // Hands by table seat, as the views number the seats.
                    tell(std::array::from_fn(|seat| {
                        if seat < players {
                            hand.hand(seat)
                        } else {
                            crate::dalmuti::Cards::EMPTY
                        }
                    }));
                }
                if let Some(Follow { player, shown }) = follow.as_mut() {
                    shown(Followed {
                        seating: (0..players).map(|seat| hand.player_at(seat)).collect(),
                        own: player.map(|player| {
                            pb::game_view::Game::Dalmuti(crate::service::dalmuti::own_part_to_wire(
                                hand, player,
                            ))
                        }),
                    })
                }
            })
            .map_err(|e| ArenaError::Match(e.to_string()))?;
        Ok((0..players)
            .map(|p| SeatTotals {
                sums: vec![
                    result
                        .hands
                        .iter()
                        .map(|h| {
                            (h.finishing_order
                                .iter()
                                .position(|&x| x == p)
                                .unwrap_or(players - 1)
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

/// Daifugo under a rule set: metrics per game, place (lower is better), points
/// (P - place + 1), forbidden-finish rate and miyako-ochi rate.
impl ArenaGame for Daifugo {
    type Rules = RuleSet;
    const METRICS: &'static [&'static str] = &[
        "mean_place",
        "points_per_game",
        "forbidden_finish_rate",
        "miyako_ochi_rate",
    ];

    fn metric_ranges(players: usize) -> Vec<(f64, f64)> {
        let last = players.max(1) as f64;
        vec![(1.0, last), (1.0, last), (0.0, 1.0), (0.0, 1.0)]
    }

    fn check_players(players: usize) -> Result<(), ArenaError> {
        if (3..=7).contains(&players) {
            Ok(())
        } else {
            Err(ArenaError::Players {
                players,
                game: "Daifugo",
                takes: "3 to 7".to_string(),
            })
        }
    }

    fn play_match_following(
        rules: &RuleSet,
        seats: &[&dyn Policy<Daifugo>],
        games: u32,
        seed: u64,
        mut follow: Option<Follow<'_>>,
        mut tell: Option<&mut dyn FnMut(DaifugoDeal)>,
    ) -> Result<Vec<SeatTotals>, ArenaError> {
        let records = crate::daifugo::referee::play_match_observed(
            seats,
            games,
            seed,
            *rules,
            &mut |referee| {
                if let Some(tell) = tell.as_mut() {
                    tell(DaifugoDeal::new(referee.hands(), referee.discarded()));
                }
                if let Some(Follow { player, shown }) = follow.as_mut() {
                    shown(Followed {
                        seating: (0..seats.len()).collect(),
                        own: player.map(|player| {
                            pb::game_view::Game::Daifugo(crate::service::daifugo::own_part_to_wire(
                                referee, player,
                            ))
                        }),
                    })
                }
            },
        )
        .map_err(ArenaError::Match)?;
        let p = seats.len();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The easy bot, checking before each decision that the deal it was told holds
    /// the view's own hand and every seat's card count.
    struct Checking<'a, G: ArenaGame> {
        truth: &'a Mutex<Option<G::Deal>>,
        agrees: fn(&G::View, &G::Deal) -> bool,
        checked: &'a Mutex<usize>,
    }

    impl<G: ArenaGame> Policy<G> for Checking<'_, G> {
        fn name(&self) -> &'static str {
            "checking"
        }

        fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
            let deal = self
                .truth
                .lock()
                .unwrap()
                .clone()
                .expect("told before deciding");
            assert!((self.agrees)(view, &deal), "told {deal:?} at {view:?}");
            *self.checked.lock().unwrap() += 1;
            G::policy(Difficulty::Easy).unwrap().decide(view, ctx)
        }
    }

    /// Plays a told match of easy bots that check the deal they are told.
    fn told_match_agrees<G: ArenaGame>(
        rules: &G::Rules,
        players: usize,
        agrees: fn(&G::View, &G::Deal) -> bool,
    ) {
        let truth = Mutex::new(None);
        let checked = Mutex::new(0);
        let checking: Vec<Checking<G>> = (0..players)
            .map(|_| Checking {
                truth: &truth,
                agrees,
                checked: &checked,
            })
            .collect();
        let seats: Vec<&dyn Policy<G>> = checking.iter().map(|c| c as &dyn Policy<G>).collect();
        let mut tell = |deal| *truth.lock().unwrap() = Some(deal);
        G::play_match_following(rules, &seats, 3, 11, None, Some(&mut tell)).unwrap();
        assert!(*checked.lock().unwrap() > 50);
    }

    #[test]
    fn a_told_seat_is_told_the_deal_its_view_is_of_before_every_decision() {
        told_match_agrees::<Lexio>(&(), 4, |view, deal| {
            deal[view.seat()] == view.hand()
                && view
                    .counts()
                    .iter()
                    .enumerate()
                    .all(|(s, &n)| deal[s].len() == usize::from(n))
        });
        told_match_agrees::<Dalmuti>(&(), 5, |view, deal| {
            deal[view.seat()] == view.hand()
                && view
                    .seats()
                    .iter()
                    .enumerate()
                    .all(|(s, seat)| deal[s].len() == u32::from(seat.card_count))
        });
        for rules in [RuleSet::house(), RuleSet::uecda()] {
            told_match_agrees::<Daifugo>(&rules, 5, |view, deal| {
                deal.hands()[view.seat()] == view.hand()
                    && view
                        .seats()
                        .iter()
                        .enumerate()
                        .all(|(s, seat)| deal.hands()[s].len() == seat.card_count)
            });
        }
    }

    #[test]
    fn a_told_name_is_an_expert_name_behind_its_prefix() {
        let runner = Runner::<Dalmuti>::new(4, 2, (), None).unwrap();
        runner.check_bot("told:expert/iterations=20").unwrap();
        runner.check_bot("told:expert-v1").unwrap();
        let hard = runner.check_bot("told:hard").unwrap_err().to_string();
        assert!(hard.contains("told:expert"), "{hard}");
        let wrong = runner
            .check_bot("told:expert/nope=1")
            .unwrap_err()
            .to_string();
        assert!(wrong.contains("nope"), "{wrong}");
    }

    #[test]
    fn a_told_search_plays_a_whole_match_beside_searches_that_are_not() {
        let runner = Runner::<Dalmuti>::new(4, 2, (), None).unwrap();
        let bots: Vec<String> = ["told:expert/iterations=40", "expert/iterations=40"]
            .iter()
            .cycle()
            .take(4)
            .map(|b| b.to_string())
            .collect();
        let mut latencies = vec![Latencies::default(); 4];
        let totals = runner.play(3, &bots, &mut latencies).unwrap();
        assert_eq!(totals.len(), 4);
        assert!(latencies.iter().all(|l| !l.0.is_empty()));
    }

    /// What a followed match showed (the seating, and the seat of the followed
    /// player's own part) and decided, in order.
    #[derive(Debug)]
    enum Event {
        Shown {
            seating: Vec<usize>,
            own_seat: Option<usize>,
        },
        Decided {
            player: usize,
            seat: usize,
        },
    }

    /// The easy bot, noting which player decided at which table seat.
    struct Noting<'a> {
        player: usize,
        events: &'a Mutex<Vec<Event>>,
    }

    impl Policy<Dalmuti> for Noting<'_> {
        fn name(&self) -> &'static str {
            "noting"
        }

        fn decide(
            &self,
            view: &<Dalmuti as Game>::View,
            ctx: &mut DecisionContext<'_>,
        ) -> <Dalmuti as Game>::Decision {
            self.events.lock().unwrap().push(Event::Decided {
                player: self.player,
                seat: Dalmuti::seat(view),
            });
            Dalmuti::policy(Difficulty::Easy).unwrap().decide(view, ctx)
        }
    }

    #[test]
    fn the_dalmuti_seating_shown_is_the_one_each_player_decides_at() {
        let events = Mutex::new(Vec::new());
        let noting: Vec<Noting> = (0..4)
            .map(|player| Noting {
                player,
                events: &events,
            })
            .collect();
        let seats: Vec<&dyn Policy<Dalmuti>> =
            noting.iter().map(|n| n as &dyn Policy<Dalmuti>).collect();
        let mut shown = |followed: Followed| {
            let own_seat = match followed.own {
                Some(pb::game_view::Game::Dalmuti(own)) => Some(own.seat as usize),
                _ => None,
            };
            events.lock().unwrap().push(Event::Shown {
                seating: followed.seating,
                own_seat,
            });
        };
        let follow = Follow {
            player: Some(2),
            shown: &mut shown,
        };
        Dalmuti::play_match_following(&(), &seats, 3, 5, Some(follow), None).unwrap();

        let events = events.into_inner().unwrap();
        let mut seating: Option<&Vec<usize>> = None;
        let mut seatings: Vec<&Vec<usize>> = Vec::new();
        let mut decisions = 0;
        for event in &events {
            match event {
                Event::Shown {
                    seating: shown,
                    own_seat,
                } => {
                    let mut sorted = shown.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, vec![0, 1, 2, 3], "one seat each: {shown:?}");
                    let own_seat = own_seat.expect("the followed player's own part");
                    assert_eq!(shown[own_seat], 2, "{shown:?}");
                    seating = Some(shown);
                    if seatings.last() != Some(&shown) {
                        seatings.push(shown);
                    }
                }
                Event::Decided { player, seat } => {
                    let seating = seating.expect("shown before the first decision");
                    assert_eq!(seating[*seat], *player, "{seating:?}");
                    decisions += 1;
                }
            }
        }
        assert!(decisions > 0);
        assert!(
            seatings.len() > 1,
            "the seats moved between hands: {seatings:?}"
        );
        assert!(seatings.iter().any(|s| **s != [0, 1, 2, 3]), "{seatings:?}");
    }
}
