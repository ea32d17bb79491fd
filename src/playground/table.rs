//! One table of the playground: a whole match played by the game's own referee through
//! [`ArenaGame::play_match`] (as in the arena) on a thread of its own. Every seat's
//! decision passes through a [`Gate`] that publishes the seat's view and waits: a
//! human seat for the person's action, a bot seat for a step, which the bot then
//! decides through the service's own code path ([`Validated`]) or a climbot server.
//!
//! Two numberings meet here. A *player* is an index into the table's lineup
//! ([`TableSpec::seats`]): the human's place, the seat to act, the totals. A *table
//! seat* is where a player sits in the current deal, as the views number seats. They
//! are the same in Lexio and Daifugo; in The Great Dalmuti the seats are drawn for the
//! first hand and follow the finishing order after it (seat 0 is the Greater Dalmuti),
//! so the table reports the seating of every deal and each move's table seat.
//!
//! The match depends only on the seed and the human's actions: the referee derives
//! every deal and every decision's generator from the seed, so the same seed and the
//! same actions replay the same table.
//!
//! The table keeps the human's view at every decision they take, for hints on their
//! turn and the review of each deal once it is over ([`super::coach`]: AnalyzePlay in
//! process or through the server, a fixed number of playouts each); a review's
//! analyses are kept once made.

use super::coach;
use super::error::ApiError;
use super::wire;
use crate::arena::remote::Remote;
use crate::arena::{ArenaGame, Follow, Followed, SeatTotals};
use crate::bot::{DecisionContext, Difficulty};
use crate::game::{Game, Policy};
use crate::pb;
use crate::service::game::{
    GameAdapter, Level, Validated, analysis_unit, dial_choice, difficulty_to_wire,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// Who holds a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// The person at the page.
    Human,
    /// A served level.
    Bot(Difficulty),
    /// The strength dial's setting nearest this strength, in whole points of the
    /// game's ladder rating (random = 0).
    Strength(u32),
}

impl Player {
    /// `human`, the level's name, or `strength` for a bot at a strength.
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Bot(d) => d.name(),
            Player::Strength(_) => "strength",
        }
    }

    /// How the page names the player: [`Player::name`], with the strength after it for
    /// a bot at a strength (`strength 900`).
    pub fn label(self) -> String {
        match self {
            Player::Strength(strength) => format!("strength {strength}"),
            _ => self.name().to_string(),
        }
    }

    /// The strength asked for, for a bot at a strength.
    pub fn strength(self) -> Option<u32> {
        match self {
            Player::Strength(strength) => Some(strength),
            Player::Human | Player::Bot(_) => None,
        }
    }
}

/// What a table is made of, checked by the caller.
#[derive(Clone, Debug)]
pub struct TableSpec<R> {
    /// The game's rules for the match (Daifugo's rule set).
    pub rules: R,
    /// The rules' name for the page (`house`, `uecda`), if the game has presets.
    pub rules_name: Option<&'static str>,
    /// Who holds each player's place in the lineup (in Lexio and Daifugo the player's
    /// table seat too).
    pub seats: Vec<Player>,
    /// Rounds, hands or games in the match.
    pub units: u32,
    /// The seed of every deal and decision.
    pub seed: u64,
    /// Playouts per EXPERT decision, in process and through a server alike, so that
    /// the table replays from its seed wherever the bots decide.
    pub expert_iterations: u64,
}

/// A table as the server sees it, whatever its game.
pub trait Table: Send + Sync {
    /// The table's state as JSON: the lineup and the seating of the latest view, that
    /// view, the human's view and legal actions, the moves so far, the deals over in
    /// which the human decided (`reviewable`), and the totals once the match is over.
    fn snapshot(&self) -> Value;
    /// The human's action, a `climbot.v1.Decision` in proto3 JSON. Refused without
    /// any change unless it is the human's turn and the action is legal there.
    fn act(&self, decision: &Value, wait: Duration) -> Result<(), ApiError>;
    /// One bot decision. Refused unless a bot is to act.
    fn step(&self, wait: Duration) -> Result<(), ApiError>;
    /// Move `index` with the bot's scored candidates.
    fn explanation(&self, index: usize) -> Result<Value, ApiError>;
    /// The analysis of the human's view on their turn: the best few decisions with the
    /// outcome each is expected to give (`analyzed` false, with the reason, in a phase
    /// the search does not play). Refused unless it is the human's turn. Blocks for the
    /// analysis, which does a fixed number of playouts.
    fn hint(&self) -> Result<Value, ApiError>;
    /// The review of the human's decisions in deal `deal` (1 for the first round, hand
    /// or game), once that deal is over: each with its category and loss against the
    /// best, and the best. Blocks for the analyses not made before (one per decision
    /// of the deal, each a fixed number of playouts), then keeps them.
    fn review(&self, deal: u64) -> Result<Value, ApiError>;
}

/// What the gate of the seat to act waits for.
enum Command<D> {
    /// The human's (checked) decision.
    Act(D),
    /// Let the bot decide.
    Step,
}

/// One decision taken at the table.
#[derive(Clone, Debug)]
struct Move {
    /// The table seat it was taken at, as the view numbered it.
    seat: usize,
    /// The player who took it, an index into the lineup.
    player: usize,
    /// Who holds that player's place.
    holder: Player,
    /// The level that took it: `human`, or the bot's level (for a bot at a strength,
    /// the level its setting is built from).
    level: &'static str,
    decision: Value,
    /// The scored candidates in proto3 JSON (bots only; empty for the easy level).
    explanation: Vec<Value>,
    /// Why the bot's own answer was replaced by the easy bot's, if it was.
    error: Option<String>,
}

/// A decision the human took, kept for its review.
struct HumanMove<G: Game> {
    /// Its index in the table's moves.
    index: usize,
    /// The deal it was taken in (1 for the first).
    deal: u64,
    /// The human's view when deciding.
    view: G::View,
    decision: G::Decision,
}

/// The decision a gate is waiting on.
struct Pending<G: Game> {
    player: usize,
    view: G::View,
}

/// Everything the gates and the server share, behind one lock.
struct Shared<G: Game> {
    pending: Option<Pending<G>>,
    command: Option<Command<G::Decision>>,
    /// The latest view published (the player to act's), in proto3 JSON.
    latest: Option<Published>,
    /// The player at each table seat, as of the last deal or decision.
    seating: Vec<usize>,
    /// The human seat's latest view and its legal actions, in proto3 JSON, and the
    /// number of moves taken before it.
    human: Option<(Value, Vec<Value>, usize)>,
    /// The human seat's own part (seat, hand, the deal's number, the seats' public
    /// state) in proto3 JSON, as of the last deal or action, and the number of moves
    /// taken before it.
    human_hand: Option<(Value, usize)>,
    moves: Vec<Move>,
    /// The human's decisions, in order.
    human_moves: Vec<HumanMove<G>>,
    /// The reviews of the human's decisions made so far, by move index.
    reviews: BTreeMap<usize, Value>,
    /// The latest hint and the number of moves taken before its view.
    hint: Option<(usize, Value)>,
    outcome: Option<Result<Vec<SeatTotals>, String>>,
    /// Set when the table is dropped: the gates finish the match with the easy bot.
    closed: bool,
    /// Counts publications (a new pending decision or the end), so that a caller can
    /// wait for the table to move on.
    epoch: u64,
}

impl<G: Game> Shared<G> {
    /// Whether deal `deal` is over: the match is, or a later deal's view was published.
    fn deal_over(&self, deal: u64) -> bool {
        self.outcome.is_some()
            || self
                .latest
                .as_ref()
                .and_then(|latest| wire::deal_number(&latest.view))
                .is_some_and(|current| deal < current)
    }
}

/// A view published for a decision, with what it was published with.
struct Published {
    /// The player to act.
    player: usize,
    view: Value,
    /// The seating the view's seats are numbered by.
    seating: Vec<usize>,
    /// Moves taken before it.
    moves: usize,
}

struct Board<G: Game> {
    state: Mutex<Shared<G>>,
    changed: Condvar,
}

impl<G: Game> Board<G> {
    fn lock(&self) -> MutexGuard<'_, Shared<G>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A table of game `G`.
pub struct GameTable<G: ArenaGame> {
    spec: TableSpec<G::Rules>,
    sync: Arc<Board<G>>,
    /// The server that analyzes (and decides for the bots), if any.
    remote: Option<Arc<Remote>>,
}

impl<G: ArenaGame> GameTable<G> {
    /// Seats the players and starts the match; returns once the first decision is
    /// pending. `remote`, when given, decides for every bot seat.
    pub fn start(
        spec: TableSpec<G::Rules>,
        remote: Option<Arc<Remote>>,
        wait: Duration,
    ) -> Result<GameTable<G>, ApiError> {
        let sync = Arc::new(Board {
            state: Mutex::new(Shared {
                pending: None,
                command: None,
                latest: None,
                seating: (0..spec.seats.len()).collect(),
                human: None,
                human_hand: None,
                moves: Vec::new(),
                human_moves: Vec::new(),
                reviews: BTreeMap::new(),
                hint: None,
                outcome: None,
                closed: false,
                epoch: 0,
            }),
            changed: Condvar::new(),
        });
        let gates: Vec<Gate<G>> = spec
            .seats
            .iter()
            .enumerate()
            .map(|(player, &holder)| Gate {
                player,
                holder,
                expert_iterations: spec.expert_iterations,
                sync: Arc::clone(&sync),
                remote: remote.clone(),
            })
            .collect();
        let (rules, units, seed) = (spec.rules.clone(), spec.units, spec.seed);
        let human = spec.seats.iter().position(|&p| p == Player::Human);
        let thread_sync = Arc::clone(&sync);
        std::thread::Builder::new()
            .name(format!("table-{}", G::NAME))
            .spawn(move || {
                let seats: Vec<&dyn Policy<G>> =
                    gates.iter().map(|g| g as &dyn Policy<G>).collect();
                // A bot's panic ends this match, not the server.
                let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    // Who sits where, and the human's own part, after each deal and
                    // every decision, so that the page draws each seat with its player
                    // and shows the human's hand while the bots play.
                    let mut follow_match = |followed: Followed| {
                        let own = followed
                            .own
                            .map(|own| wire::view_to_json(&pb::GameView { game: Some(own) }));
                        let mut state = thread_sync.lock();
                        state.seating = followed.seating;
                        if let Some(own) = own {
                            let moves = state.moves.len();
                            state.human_hand = Some((own, moves));
                        }
                    };
                    let follow = Follow {
                        player: human,
                        shown: &mut follow_match,
                    };
                    G::play_match_following(&rules, &seats, units, seed, Some(follow), None)
                        .map_err(|e| e.to_string())
                }))
                .unwrap_or_else(|panic| {
                    let message = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(format!("a bot failed: {message}"))
                });
                let mut state = thread_sync.lock();
                state.outcome = Some(outcome);
                state.pending = None;
                state.epoch += 1;
                thread_sync.changed.notify_all();
            })
            .map_err(|e| ApiError::unavailable(format!("cannot start the table: {e}")))?;
        let table = GameTable { spec, sync, remote };
        table.wait_for_epoch(0, wait)?;
        Ok(table)
    }

    fn human_player(&self) -> Option<usize> {
        self.spec.seats.iter().position(|&p| p == Player::Human)
    }

    /// Waits until the table has published more than `epoch` times.
    fn wait_for_epoch(&self, epoch: u64, wait: Duration) -> Result<(), ApiError> {
        let state = self.sync.lock();
        let (_state, timeout) = self
            .sync
            .changed
            .wait_timeout_while(state, wait, |s| s.epoch <= epoch)
            .unwrap_or_else(PoisonError::into_inner);
        if timeout.timed_out() {
            return Err(ApiError::unavailable(
                "the bot is still thinking: ask for the table again",
            ));
        }
        Ok(())
    }

    /// Gives the pending seat `command` after `check` accepts the pending decision,
    /// then waits for the table to move on.
    fn command(
        &self,
        check: impl FnOnce(&Pending<G>) -> Result<Command<G::Decision>, ApiError>,
        wait: Duration,
    ) -> Result<(), ApiError> {
        let epoch = {
            let mut state = self.sync.lock();
            if state.outcome.is_some() {
                return Err(ApiError::conflict("the match is over"));
            }
            let Some(pending) = state.pending.as_ref().filter(|_| state.command.is_none()) else {
                return Err(ApiError::conflict("a bot is deciding: try again shortly"));
            };
            let command = check(pending)?;
            state.command = Some(command);
            self.sync.changed.notify_all();
            state.epoch
        };
        self.wait_for_epoch(epoch, wait)
    }
}

impl<G: ArenaGame> Drop for GameTable<G> {
    fn drop(&mut self) {
        let mut state = self.sync.lock();
        state.closed = true;
        self.sync.changed.notify_all();
    }
}

impl<G: ArenaGame> Table for GameTable<G> {
    fn snapshot(&self) -> Value {
        let state = self.sync.lock();
        let human = self.human_player();
        let to_act = state.pending.as_ref().map(|p| p.player);
        let status = match (&state.outcome, to_act) {
            (Some(Ok(_)), _) => "over",
            (Some(Err(_)), _) => "failed",
            (None, Some(seat)) if Some(seat) == human => "your_turn",
            (None, Some(_)) => "bot_turn",
            (None, None) => "deciding",
        };
        let view_moves = state.latest.as_ref().map_or(0, |latest| latest.moves);
        let view = state.latest.as_ref().map(|latest| {
            if human.is_some_and(|h| h != latest.player) {
                wire::without_private_fields(&latest.view)
            } else {
                latest.view.clone()
            }
        });
        let seating = state
            .latest
            .as_ref()
            .map_or(&state.seating, |latest| &latest.seating);
        let (your_view, legal, your_view_moves) = match (&state.human, status) {
            (Some((view, legal, moves)), "your_turn") => {
                (Some(view.clone()), legal.clone(), *moves)
            }
            (Some((view, _, moves)), _) => (Some(view.clone()), Vec::new(), *moves),
            (None, _) => (None, Vec::new(), 0),
        };
        let (your_hand, your_hand_moves) = state
            .human_hand
            .as_ref()
            .map_or((None, 0), |(hand, moves)| (Some(hand.clone()), *moves));
        let totals = match &state.outcome {
            Some(Ok(totals)) => json!({
                "metrics": G::METRICS,
                "higher_is_better": G::HIGHER_IS_BETTER,
                "seats": totals.iter().map(|t| json!({"sums": t.sums, "units": t.units})).collect::<Vec<_>>(),
            }),
            _ => Value::Null,
        };
        let reviewable: BTreeSet<u64> = state
            .human_moves
            .iter()
            .map(|m| m.deal)
            .filter(|&deal| state.deal_over(deal))
            .collect();
        let moves: Vec<Value> = state
            .moves
            .iter()
            .enumerate()
            .map(|(index, m)| {
                json!({
                    "index": index,
                    "seat": m.seat,
                    "player": m.player,
                    "level": m.level,
                    "strength": m.holder.strength(),
                    "decision": m.decision,
                    "explained": !m.explanation.is_empty(),
                    "error": m.error,
                })
            })
            .collect();
        json!({
            "game": G::NAME,
            "players": self.spec.seats.len(),
            "lineup": self.spec.seats.iter().map(|p| p.label()).collect::<Vec<_>>(),
            "seating": seating,
            "human_seat": human,
            "rules": self.spec.rules_name,
            "units": self.spec.units,
            "seed": self.spec.seed,
            "status": status,
            "to_act": to_act,
            "view": view,
            "view_moves": view_moves,
            "your_view": your_view,
            "your_view_moves": your_view_moves,
            "your_hand": your_hand,
            "your_hand_moves": your_hand_moves,
            "legal": legal,
            "moves": moves,
            "reviewable": reviewable,
            "totals": totals,
            "error": match &state.outcome { Some(Err(e)) => Some(e.clone()), _ => None },
        })
    }

    fn act(&self, decision: &Value, wait: Duration) -> Result<(), ApiError> {
        let human = self.human_player();
        self.command(
            |pending| {
                if Some(pending.player) != human {
                    return Err(ApiError::conflict(format!(
                        "seat {} (a bot) is to act: step the bots first",
                        G::seat(&pending.view)
                    )));
                }
                let wire = wire::decision_from_json(decision)?;
                let game = wire
                    .game
                    .ok_or_else(|| ApiError::invalid("decision", "no game case is set"))?;
                G::decision_from_wire(&pending.view, &game)
                    .map(Command::Act)
                    .ok_or_else(|| {
                        ApiError::invalid(
                            "decision",
                            format!(
                                "not a legal {} action of seat {} now",
                                G::NAME,
                                G::seat(&pending.view)
                            ),
                        )
                    })
            },
            wait,
        )
    }

    fn step(&self, wait: Duration) -> Result<(), ApiError> {
        let human = self.human_player();
        self.command(
            |pending| {
                if Some(pending.player) == human {
                    Err(ApiError::conflict(format!(
                        "it is the human's turn (seat {}): send an action",
                        G::seat(&pending.view)
                    )))
                } else {
                    Ok(Command::Step)
                }
            },
            wait,
        )
    }

    fn hint(&self) -> Result<Value, ApiError> {
        let human = self.human_player().ok_or_else(|| {
            ApiError::conflict("nobody plays at this table: hints are for the human's turn")
        })?;
        let (view, moves) = {
            let state = self.sync.lock();
            if state.outcome.is_some() {
                return Err(ApiError::conflict("the match is over"));
            }
            let Some(pending) = state
                .pending
                .as_ref()
                .filter(|p| p.player == human && state.command.is_none())
            else {
                return Err(ApiError::conflict(
                    "it is not your turn: a hint is for the human's turn",
                ));
            };
            let moves = state.moves.len();
            if let Some((_, hint)) = state.hint.as_ref().filter(|(at, _)| *at == moves) {
                return Ok(hint.clone());
            }
            (pending.view.clone(), moves)
        };
        let analysis = coach::analyze::<G>(
            self.remote.as_deref(),
            self.spec.expert_iterations,
            &view,
            None,
            Some(coach::HINT_TOP),
        )?;
        let hint = coach::hint_json(analysis.as_ref(), moves);
        self.sync.lock().hint = Some((moves, hint.clone()));
        Ok(hint)
    }

    fn review(&self, deal: u64) -> Result<Value, ApiError> {
        if self.human_player().is_none() {
            return Err(ApiError::conflict(
                "nobody plays at this table: reviews are of the human's decisions",
            ));
        }
        let units = u64::from(self.spec.units);
        if !(1..=units).contains(&deal) {
            return Err(ApiError::not_found(format!(
                "deal {deal}: the table plays deals 1 to {units}"
            )));
        }
        // The decisions of the deal not reviewed yet, taken out of the lock.
        let todo: Vec<(usize, G::View, G::Decision)> = {
            let state = self.sync.lock();
            if !state.deal_over(deal) {
                return Err(ApiError::conflict(format!(
                    "deal {deal} is not over yet: its review follows its end"
                )));
            }
            state
                .human_moves
                .iter()
                .filter(|m| m.deal == deal && !state.reviews.contains_key(&m.index))
                .map(|m| (m.index, m.view.clone(), m.decision))
                .collect()
        };
        for (index, view, decision) in todo {
            let forced = G::legal_decisions(&view).len() == 1;
            let analysis = if forced {
                None
            } else {
                coach::analyze::<G>(
                    self.remote.as_deref(),
                    self.spec.expert_iterations,
                    &view,
                    Some(&decision),
                    Some(1),
                )?
            };
            let json = wire::decision_to_json(&pb::Decision {
                game: Some(G::decision_to_wire(&decision)),
            });
            let entry = coach::review_json(index, &json, forced, analysis.as_ref());
            self.sync.lock().reviews.insert(index, entry);
        }
        let state = self.sync.lock();
        let decisions: Vec<Value> = state
            .human_moves
            .iter()
            .filter(|m| m.deal == deal)
            .filter_map(|m| state.reviews.get(&m.index).cloned())
            .collect();
        Ok(json!({
            "deal": deal,
            "unit": analysis_unit(G::KIND),
            "higher_is_better": G::HIGHER_IS_BETTER,
            "decisions": decisions,
        }))
    }

    fn explanation(&self, index: usize) -> Result<Value, ApiError> {
        let state = self.sync.lock();
        let m = state.moves.get(index).ok_or_else(|| {
            ApiError::not_found(format!(
                "move {index}: the table has {} moves",
                state.moves.len()
            ))
        })?;
        Ok(json!({
            "index": index,
            "seat": m.seat,
            "player": m.player,
            "level": m.level,
            "strength": m.holder.strength(),
            "decision": m.decision,
            "explanation": m.explanation,
            "error": m.error,
        }))
    }
}

/// The policy of one player: publishes the view, waits for the page, then plays the
/// human's action or the bot's decision.
struct Gate<G: Game> {
    /// The player's index in the lineup.
    player: usize,
    /// Who holds the player's place.
    holder: Player,
    /// Playouts per EXPERT decision.
    expert_iterations: u64,
    sync: Arc<Board<G>>,
    remote: Option<Arc<Remote>>,
}

impl<G: ArenaGame> Gate<G> {
    /// A bot's step at `level` (`strength`: the one asked for, when the level is the
    /// dial's setting for it): decides, records the move and returns the decision.
    fn step(
        &self,
        level: Level,
        strength: Option<u32>,
        view: &G::View,
        ctx: &mut DecisionContext<'_>,
    ) -> G::Decision {
        let (decision, explanation, error) = self.bot_decision(level, strength, view, ctx);
        let explanation = explanation.iter().map(wire::candidate_to_json).collect();
        self.record(
            view,
            &decision,
            level.difficulty().name(),
            explanation,
            error,
        );
        decision
    }

    /// The bot's decision with its explanation, through the service's code path or
    /// the server; the easy bot's, with the reason, if that fails.
    fn bot_decision(
        &self,
        level: Level,
        strength: Option<u32>,
        view: &G::View,
        ctx: &mut DecisionContext<'_>,
    ) -> (G::Decision, Vec<pb::ExplainedCandidate>, Option<String>) {
        let difficulty = level.difficulty();
        // A search does a set number of playouts rather than running until a budget
        // ends: its answer then depends only on the view and the seed.
        let max_iterations = (difficulty == Difficulty::Expert).then_some(self.expert_iterations);
        let answer = match &self.remote {
            Some(remote) => remote
                .select(pb::SelectPlayRequest {
                    explain: true,
                    view: Some(pb::GameView {
                        game: Some(G::view_to_wire(view)),
                    }),
                    // A strength goes to the server as it is, which chooses the setting.
                    difficulty: match strength {
                        Some(_) => pb::Difficulty::Unspecified as i32,
                        None => difficulty_to_wire(difficulty) as i32,
                    },
                    seed: Some(ctx.seed()),
                    // The server's own budget bounds the time: a search it cuts short
                    // answers its best so far, which may differ from in process.
                    budget_ms: None,
                    max_iterations: max_iterations.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
                    strength: strength.map(f64::from),
                })
                .map(|r| (r.decision, r.explanation))
                .map_err(|e| e.to_string()),
            None => {
                // The referee's context is fresh: one from the same seed draws the same.
                let mut limited =
                    DecisionContext::unbounded(ctx.seed()).with_max_iterations(max_iterations);
                Validated::<G>(view.clone())
                    .decide(level, true, &mut limited)
                    .map(|a| (Some(a.decision), a.explanation))
                    .ok_or_else(|| format!("{} has no {} bot", G::NAME, difficulty.name()))
            }
        };
        let chosen = answer.and_then(|(decision, explanation)| {
            let game = decision.and_then(|d| d.game).ok_or("no decision")?;
            G::decision_from_wire(view, &game)
                .map(|d| (d, explanation))
                .ok_or_else(|| format!("not a legal {} decision: {game:?}", G::NAME))
        });
        match chosen {
            Ok((decision, explanation)) => (decision, explanation, None),
            Err(error) => (easy_decision::<G>(view, ctx), Vec::new(), Some(error)),
        }
    }

    fn record(
        &self,
        view: &G::View,
        decision: &G::Decision,
        level: &'static str,
        explanation: Vec<Value>,
        error: Option<String>,
    ) {
        let mut state = self.sync.lock();
        state.moves.push(Move {
            seat: G::seat(view),
            player: self.player,
            holder: self.holder,
            level,
            decision: wire::decision_to_json(&pb::Decision {
                game: Some(G::decision_to_wire(decision)),
            }),
            explanation,
            error,
        });
    }
}

fn easy_decision<G: Game>(view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
    match G::policy(Difficulty::Easy) {
        Some(easy) => easy.decide(view, ctx),
        // Every game serves easy; the first legal decision keeps the match going.
        None => G::legal_decisions(view)[0],
    }
}

impl<G: ArenaGame> Policy<G> for Gate<G> {
    fn name(&self) -> &'static str {
        self.holder.name()
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let view_json = wire::view_to_json(&pb::GameView {
            game: Some(G::view_to_wire(view)),
        });
        let deal = wire::deal_number(&view_json).unwrap_or(0);
        let mut state = self.sync.lock();
        if self.holder == Player::Human {
            let legal = G::legal_decisions(view)
                .iter()
                .map(|d| {
                    wire::decision_to_json(&pb::Decision {
                        game: Some(G::decision_to_wire(d)),
                    })
                })
                .collect();
            let moves = state.moves.len();
            state.human = Some((view_json.clone(), legal, moves));
        }
        state.latest = Some(Published {
            player: self.player,
            view: view_json,
            seating: state.seating.clone(),
            moves: state.moves.len(),
        });
        state.pending = Some(Pending {
            player: self.player,
            view: view.clone(),
        });
        state.epoch += 1;
        self.sync.changed.notify_all();
        let mut state = self
            .sync
            .changed
            .wait_while(state, |s| s.command.is_none() && !s.closed)
            .unwrap_or_else(PoisonError::into_inner);
        state.pending = None;
        let command = state.command.take();
        drop(state);
        match (command, self.holder) {
            (Some(Command::Act(decision)), _) => {
                self.record(view, &decision, "human", Vec::new(), None);
                let mut state = self.sync.lock();
                let index = state.moves.len().saturating_sub(1);
                state.human_moves.push(HumanMove {
                    index,
                    deal,
                    view: view.clone(),
                    decision,
                });
                decision
            }
            (Some(Command::Step), Player::Bot(difficulty)) => {
                self.step(Level::Served(difficulty), None, view, ctx)
            }
            (Some(Command::Step), Player::Strength(strength)) => {
                // The setting is the dial's, as the server would choose it.
                match dial_choice::<G>(f64::from(strength)) {
                    Ok(choice) => self.step(Level::Dial(choice), Some(strength), view, ctx),
                    Err(error) => {
                        let decision = easy_decision::<G>(view, ctx);
                        let error = Some(error.to_string());
                        self.record(view, &decision, "easy", Vec::new(), error);
                        decision
                    }
                }
            }
            // The table was closed (or a step reached a human seat, which the server
            // never sends): finish quickly.
            _ => easy_decision::<G>(view, ctx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::Lexio;

    const WAIT: Duration = Duration::from_secs(60);

    fn lexio_table(seats: Vec<Player>, seed: u64) -> GameTable<Lexio> {
        let spec = TableSpec {
            rules: (),
            rules_name: None,
            seats,
            units: 1,
            seed,
            expert_iterations: 200,
        };
        GameTable::<Lexio>::start(spec, None, WAIT).unwrap()
    }

    /// Plays the table to its end, the human always taking the first legal action;
    /// returns every move's decision.
    fn play_out(table: &GameTable<Lexio>) -> Vec<Value> {
        for _ in 0..1000 {
            let snapshot = table.snapshot();
            match snapshot["status"].as_str().unwrap() {
                "your_turn" => table.act(&snapshot["legal"][0], WAIT).unwrap(),
                "bot_turn" => table.step(WAIT).unwrap(),
                "over" => {
                    return snapshot["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m["decision"].clone())
                        .collect();
                }
                other => panic!("unexpected status {other}: {snapshot}"),
            }
        }
        panic!("the round did not end")
    }

    #[test]
    fn the_same_seed_and_actions_replay_the_same_table() {
        let seats = vec![
            Player::Human,
            Player::Bot(Difficulty::Hard),
            Player::Bot(Difficulty::Normal),
        ];
        let a = play_out(&lexio_table(seats.clone(), 11));
        let b = play_out(&lexio_table(seats.clone(), 11));
        let c = play_out(&lexio_table(seats, 12));
        assert!(!a.is_empty());
        assert_eq!(a, b);
        assert_ne!(a, c, "another seed deals another round");
    }

    #[test]
    fn wrong_turns_and_illegal_actions_change_nothing() {
        let table = lexio_table(vec![Player::Bot(Difficulty::Easy); 3], 5);
        let before = table.snapshot();
        assert_eq!(before["status"], "bot_turn");
        assert!(before["your_view"].is_null());
        let refused = table
            .act(&json!({"lexio": {"pass": {}}}), WAIT)
            .unwrap_err();
        assert_eq!(refused.status, axum::http::StatusCode::CONFLICT);
        assert_eq!(table.snapshot(), before);

        let table = lexio_table(
            vec![
                Player::Human,
                Player::Bot(Difficulty::Easy),
                Player::Bot(Difficulty::Easy),
            ],
            5,
        );
        // Play until the human is to act, then try a pass on an empty table or a tile
        // the human does not hold.
        while table.snapshot()["status"] == "bot_turn" {
            table.step(WAIT).unwrap();
        }
        let before = table.snapshot();
        assert_eq!(before["status"], "your_turn");
        for bad in [
            json!({"lexio": {"play": {"tiles": [{"number": 99, "suit": "LEXIO_SUIT_SUN"}]}}}),
            json!({"lexio": {"nonsense": 1}}),
            json!("pass"),
            json!({"dalmuti": {"pass": {}}}),
        ] {
            let e = table.act(&bad, WAIT).unwrap_err();
            assert_eq!(e.status, axum::http::StatusCode::BAD_REQUEST, "{bad}");
            assert_eq!(e.field.as_deref(), Some("decision"));
            assert_eq!(table.snapshot(), before, "{bad} changed the table");
        }
        assert!(table.step(WAIT).is_err(), "a step on the human's turn");
        assert_eq!(table.snapshot(), before);
    }

    #[test]
    fn a_human_table_shows_no_bot_hand() {
        let table = lexio_table(
            vec![
                Player::Bot(Difficulty::Easy),
                Player::Human,
                Player::Bot(Difficulty::Easy),
            ],
            3,
        );
        for _ in 0..6 {
            let s = table.snapshot();
            // The human's own part is theirs alone, and current.
            let own = &s["your_hand"]["lexio"];
            assert_eq!(own["seat"], 1, "{s}");
            assert_eq!(
                own["hand"].as_array().unwrap().len() as u64,
                own["seats"][1]["tile_count"].as_u64().unwrap(),
                "{s}"
            );
            if s["status"] == "bot_turn" {
                assert!(s["view"]["lexio"].get("hand").is_none(), "{s}");
                table.step(WAIT).unwrap();
            } else {
                let first = s["legal"][0].clone();
                table.act(&first, WAIT).unwrap();
            }
        }
        let watched = lexio_table(vec![Player::Bot(Difficulty::Easy); 3], 3);
        assert!(watched.snapshot()["view"]["lexio"]["hand"].is_array());
        assert!(watched.snapshot()["your_hand"].is_null());
    }

    #[test]
    fn hints_are_for_the_human_turn_and_reviews_for_deals_over() {
        use axum::http::StatusCode;
        let table = lexio_table(
            vec![
                Player::Bot(Difficulty::Easy),
                Player::Human,
                Player::Bot(Difficulty::Easy),
            ],
            3,
        );
        assert_eq!(table.review(1).unwrap_err().status, StatusCode::CONFLICT);
        assert_eq!(table.review(2).unwrap_err().status, StatusCode::NOT_FOUND);
        while table.snapshot()["status"] == "bot_turn" {
            assert_eq!(table.hint().unwrap_err().status, StatusCode::CONFLICT);
            table.step(WAIT).unwrap();
        }
        let hint = table.hint().unwrap();
        assert_eq!(hint["analyzed"], true, "{hint}");
        assert_eq!(table.hint().unwrap(), hint, "kept for the same view");
        let moves = play_out(&table);
        let snapshot = table.snapshot();
        assert_eq!(snapshot["reviewable"], json!([1]));
        let human: Vec<usize> = snapshot["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["level"] == "human")
            .map(|m| m["index"].as_u64().unwrap() as usize)
            .collect();
        let review = table.review(1).unwrap();
        let entries = review["decisions"].as_array().unwrap();
        let indices: Vec<usize> = entries
            .iter()
            .map(|e| e["index"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(indices, human);
        for e in entries {
            assert_eq!(e["decision"], moves[e["index"].as_u64().unwrap() as usize]);
            assert!(
                e["review"]["category"].is_string() || e["forced"] == true,
                "{e}"
            );
        }
        assert_eq!(table.review(1).unwrap(), review, "kept");
        assert_eq!(table.hint().unwrap_err().status, StatusCode::CONFLICT);
        let watched = lexio_table(vec![Player::Bot(Difficulty::Easy); 3], 3);
        assert_eq!(watched.hint().unwrap_err().status, StatusCode::CONFLICT);
        assert_eq!(watched.review(1).unwrap_err().status, StatusCode::CONFLICT);
    }

    #[test]
    fn bots_above_easy_explain_their_moves() {
        let table = lexio_table(vec![Player::Bot(Difficulty::Hard); 3], 9);
        table.step(WAIT).unwrap();
        let e = table.explanation(0).unwrap();
        assert_eq!(e["level"], "hard");
        let candidates = e["explanation"].as_array().unwrap();
        assert!(!candidates.is_empty());
        assert_eq!(candidates.iter().filter(|c| c["chosen"] == true).count(), 1);
        assert_eq!(
            table.explanation(1).unwrap_err().status,
            axum::http::StatusCode::NOT_FOUND
        );
    }
}
