//! The referee: seat draw, deal, revolution, taxes, play, scoring and 20-hand matches
//! (docs/rules/dalmuti.md, §2-§7), with a policy per player.
//!
//! Every decision goes through a view built by the validated constructor, every answer
//! is checked against [`legal_decisions`](super::decision::is_legal), and the card
//! accounting (what a seat cannot see equals what the others hold) is asserted after
//! every action.

use super::cards::{Cards, DECK_SIZE, Rank};
use super::decision::{DalmutiDecision, is_legal};
use super::turn::{
    Action, MAX_PLAYERS, MIN_PLAYERS, Title, TurnState, deal_size, points_for_place,
};
use super::view::{
    DalmutiView, DalmutiViewInput, LogEntry, LogEntryInput, Phase, Revolution, RevolutionInput,
    SeatInput, TaxDuty, TaxKnownInput, TaxReturnInput, ViewError,
};
use crate::bot::{DecisionContext, StableHasher, shuffle, uniform_below};
use crate::dalmuti::Dalmuti;
use crate::game::Policy;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::fmt;

/// The default number of hands in a match (docs/rules/dalmuti.md, §7 Scoring and matches).
pub const MATCH_HANDS: u32 = 20;

/// Why the referee stopped.
#[derive(Clone, Debug)]
pub enum RefereeError {
    /// The referee built a view the constructor rejected (a referee bug).
    View(ViewError),
    /// A policy answered with an illegal decision.
    Illegal {
        /// The policy's name.
        policy: &'static str,
        /// The view it saw.
        view: Box<DalmutiView>,
        /// What it answered.
        decision: DalmutiDecision,
    },
    /// The card accounting broke (a referee bug).
    Invariant(String),
    /// A decision was applied when none was pending, or for the wrong phase.
    NoDecisionPending,
}

impl fmt::Display for RefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeError::View(e) => write!(f, "invalid view built by the referee: {e}"),
            RefereeError::Illegal {
                policy,
                view,
                decision,
            } => write!(
                f,
                "policy {policy} answered {decision:?}, illegal for seat {} in phase {:?} with hand {:?} and table {:?}",
                view.seat(),
                view.phase(),
                view.hand(),
                view.table()
            ),
            RefereeError::Invariant(s) => write!(f, "card accounting broken: {s}"),
            RefereeError::NoDecisionPending => f.write_str("no decision is pending"),
        }
    }
}

impl std::error::Error for RefereeError {}

/// Seats for the first hand: every player draws a card, the lowest becomes GD and the
/// rest follow in draw order; a Jester is the worst draw; tied players redraw among
/// themselves. Returns the player at each seat.
pub fn draw_seats(players: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    fn order(group: &mut Vec<usize>, rng: &mut ChaCha8Rng) {
        if group.len() <= 1 {
            return;
        }
        let mut deck = deck_ranks();
        shuffle(rng, &mut deck);
        let mut draws: Vec<(u8, usize)> = group.iter().zip(deck).map(|(&p, r)| (r, p)).collect();
        draws.sort_unstable();
        group.clear();
        let mut i = 0;
        while i < draws.len() {
            let mut j = i;
            while j < draws.len() && draws[j].0 == draws[i].0 {
                j += 1;
            }
            let mut tied: Vec<usize> = draws[i..j].iter().map(|d| d.1).collect();
            order(&mut tied, rng);
            group.extend(tied);
            i = j;
        }
    }
    let mut all: Vec<usize> = (0..players).collect();
    order(&mut all, rng);
    all
}

/// The 80 cards as ranks (13 = Jester), in a fixed order.
fn deck_ranks() -> Vec<u8> {
    Cards::FULL_DECK.iter().map(Rank::get).collect()
}

/// Shuffles and deals all 80 cards one at a time from seat 0: seat `s` gets cards
/// `s, s + P, ...`, so the higher titles get the extras.
pub fn deal(players: usize, rng: &mut ChaCha8Rng) -> Vec<Cards> {
    let mut deck = deck_ranks();
    shuffle(rng, &mut deck);
    let mut hands = vec![Cards::EMPTY; players];
    for (i, &r) in deck.iter().enumerate() {
        hands[i % players].insert(Rank::new(r).expect("deck ranks are 1..=13"), 1);
    }
    hands
}

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Revolution(usize),
    TaxReturn(usize),
    Play,
    Over,
}

/// One hand under way: every seat's cards, the public log and the turn flow. Seats are
/// in turn order (seat 0 = GD); `player_at(seat)` maps them to match players.
#[derive(Clone, Debug)]
pub struct HandState {
    players: usize,
    hands: [Cards; MAX_PLAYERS],
    seat_player: [usize; MAX_PLAYERS],
    scores: [u32; MAX_PLAYERS],
    played: Cards,
    log: Vec<LogEntry>,
    turn: Option<TurnState>,
    stage: Stage,
    hand_number: u32,
    hands_left: u32,
    revolution: Option<Revolution>,
    gifts: [Cards; 2],
    returns: [Cards; 2],
    actions: u64,
}

impl HandState {
    /// A hand from dealt cards (`hands[s]` for seat `s`), before the revolution check.
    /// `seat_player[s]` is the player at seat `s` and `scores[s]` that player's match
    /// score so far. Panics on inconsistent input (a referee-side constructor; wire
    /// input goes through [`DalmutiView::new`]).
    pub fn new(
        hands: &[Cards],
        seat_player: &[usize],
        scores: &[u32],
        hand_number: u32,
        hands_left: u32,
    ) -> HandState {
        let players = hands.len();
        assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&players));
        assert_eq!(seat_player.len(), players);
        assert_eq!(scores.len(), players);
        assert!(hand_number >= 1);
        let total = hands.iter().fold(Cards::EMPTY, |a, &h| a.union(h));
        assert_eq!(
            total,
            Cards::FULL_DECK,
            "the hands must hold the whole deck"
        );
        let mut h = [Cards::EMPTY; MAX_PLAYERS];
        h[..players].copy_from_slice(hands);
        let mut sp = [0; MAX_PLAYERS];
        sp[..players].copy_from_slice(seat_player);
        let mut sc = [0; MAX_PLAYERS];
        sc[..players].copy_from_slice(scores);
        let mut state = HandState {
            players,
            hands: h,
            seat_player: sp,
            scores: sc,
            played: Cards::EMPTY,
            log: Vec::new(),
            turn: None,
            stage: Stage::Over,
            hand_number,
            hands_left,
            revolution: None,
            gifts: [Cards::EMPTY; 2],
            returns: [Cards::EMPTY; 2],
            actions: 0,
        };
        state.stage = match (0..players).find(|&s| state.hands[s].jesters() == 2) {
            Some(s) => Stage::Revolution(s),
            None => state.after_revolution_check(),
        };
        state
    }

    fn after_revolution_check(&mut self) -> Stage {
        if self.hand_number > 1 && self.revolution.is_none() {
            // Both gifts first: the GP's 2 best to the GD, the LP's 1 best to the LD
            // (Jesters count as 13, so peons keep them).
            let p = self.players;
            let gp = self.hands[p - 1].best(2);
            self.hands[p - 1] = self.hands[p - 1].difference(gp);
            self.hands[0] = self.hands[0].union(gp);
            let lp = self.hands[p - 2].best(1);
            self.hands[p - 2] = self.hands[p - 2].difference(lp);
            self.hands[1] = self.hands[1].union(lp);
            self.gifts = [gp, lp];
            Stage::TaxReturn(0)
        } else {
            self.start_play()
        }
    }

    fn start_play(&mut self) -> Stage {
        let counts: Vec<u8> = (0..self.players)
            .map(|s| self.hands[s].len() as u8)
            .collect();
        self.turn = Some(TurnState::new(&counts));
        Stage::Play
    }

    /// The seat that must decide now and the phase, or `None` when the hand is over.
    pub fn to_act(&self) -> Option<(usize, Phase)> {
        match self.stage {
            Stage::Revolution(s) => Some((s, Phase::Revolution)),
            Stage::TaxReturn(s) => Some((s, Phase::TaxReturn)),
            Stage::Play => self.turn.as_ref().map(|t| (t.to_act(), Phase::Play)),
            Stage::Over => None,
        }
    }

    /// The hand's number in its match, from 1.
    pub fn hand_number(&self) -> u32 {
        self.hand_number
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The cards at `seat`.
    pub fn hand(&self, seat: usize) -> Cards {
        self.hands[seat]
    }

    /// The player sitting at `seat` (seats move with a Greater Revolution).
    pub fn player_at(&self, seat: usize) -> usize {
        self.seat_player[seat]
    }

    /// The match score (including this hand's points so far) of the player at `seat`.
    pub fn score(&self, seat: usize) -> u32 {
        self.scores[seat]
    }

    /// The revolution declared this hand, if any.
    pub fn revolution(&self) -> Option<Revolution> {
        self.revolution
    }

    /// The cards the GP and the LP gave in taxes this hand (empty without taxes).
    pub fn gifts(&self) -> [Cards; 2] {
        self.gifts
    }

    /// The cards the GD and the LD gave back this hand (empty until they do).
    pub fn returns(&self) -> [Cards; 2] {
        self.returns
    }

    /// What `seat` knows of this hand's taxes: the cards it handed over or took and
    /// those given back, so far; `None` without taxes or for a Merchant.
    fn tax_known(&self, seat: usize) -> Option<TaxKnownInput> {
        let p = self.players;
        if self.hand_number < 2 || self.revolution.is_some() {
            return None;
        }
        if matches!(self.stage, Stage::Revolution(_)) {
            return None;
        }
        // (pair index, partner, this seat is the Dalmuti)
        let (pair, with_seat, dalmuti) = match seat {
            0 => (0, p - 1, true),
            1 => (1, p - 2, true),
            s if s == p - 2 => (1, 1, false),
            s if s == p - 1 => (0, 0, false),
            _ => return None,
        };
        let (taxes, back) = (self.gifts[pair], self.returns[pair]);
        let (received, given) = if dalmuti {
            (taxes, back)
        } else {
            (back, taxes)
        };
        Some(TaxKnownInput {
            with_seat: with_seat as u32,
            received: received.into(),
            given: given.into(),
        })
    }

    /// The public log so far.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Decisions applied so far.
    pub fn actions(&self) -> u64 {
        self.actions
    }

    /// The turn flow of the play phase (once it started).
    pub fn turn(&self) -> Option<&TurnState> {
        self.turn.as_ref()
    }

    /// True when only one seat holds cards.
    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The finishing order by seat (first out first, the last holder last) once over.
    pub fn finishing_order(&self) -> Option<Vec<usize>> {
        match (&self.stage, &self.turn) {
            (Stage::Over, Some(t)) => Some(t.finishing_order()),
            _ => None,
        }
    }

    /// The unchecked view input of the seat that must decide now.
    pub fn view_input(&self) -> Option<DalmutiViewInput> {
        let (seat, phase) = self.to_act()?;
        let p = self.players;
        Some(DalmutiViewInput {
            seat: seat as u32,
            phase,
            hand: self.hands[seat].into(),
            table: self
                .turn
                .as_ref()
                .and_then(TurnState::table)
                .map(Into::into),
            seats: (0..p)
                .map(|s| {
                    let n = self.hands[s].len();
                    SeatInput {
                        card_count: n,
                        title: Title::of_seat(s, p),
                        finished: self.turn.is_some() && n == 0,
                        score: self.scores[s],
                    }
                })
                .collect(),
            played: self.played.into(),
            log: self
                .log
                .iter()
                .map(|e| LogEntryInput {
                    seat: e.seat as u32,
                    play: match e.action {
                        Action::Pass => None,
                        Action::Play(p) => Some(p.into()),
                    },
                })
                .collect(),
            hand_number: self.hand_number,
            hands_left: self.hands_left,
            tax_return: match self.stage {
                Stage::TaxReturn(0) => Some(TaxReturnInput {
                    count: 2,
                    to: (p - 1) as u32,
                }),
                Stage::TaxReturn(_) => Some(TaxReturnInput {
                    count: 1,
                    to: (p - 2) as u32,
                }),
                _ => None,
            },
            revolution: self.revolution.map(|r| RevolutionInput {
                seat: r.seat as u32,
                greater: r.greater,
            }),
            tax_known: self.tax_known(seat),
        })
    }

    /// The validated view of the seat that must decide now.
    pub fn view(&self) -> Result<Option<DalmutiView>, RefereeError> {
        match self.view_input() {
            None => Ok(None),
            Some(input) => DalmutiView::new(input)
                .map(Some)
                .map_err(RefereeError::View),
        }
    }

    /// Applies the pending seat's decision, which must be legal for its view.
    pub fn apply(
        &mut self,
        decision: DalmutiDecision,
        policy: &'static str,
    ) -> Result<(), RefereeError> {
        let view = self.view()?.ok_or(RefereeError::NoDecisionPending)?;
        self.apply_seen(&view, decision, policy)
    }

    /// [`Self::apply`] with the pending seat's view already built (by [`Self::view`]
    /// since the last action), so self-play validates each view once.
    fn apply_seen(
        &mut self,
        view: &DalmutiView,
        decision: DalmutiDecision,
        policy: &'static str,
    ) -> Result<(), RefereeError> {
        if !is_legal(view, &decision) {
            return Err(RefereeError::Illegal {
                policy,
                view: Box::new(view.clone()),
                decision,
            });
        }
        self.apply_unchecked(decision);
        self.check_accounting()
    }

    /// Applies a decision known to be legal for the pending seat (the search-loop path).
    pub fn apply_unchecked(&mut self, decision: DalmutiDecision) {
        let p = self.players;
        self.actions += 1;
        match (self.stage, decision) {
            (Stage::Revolution(seat), DalmutiDecision::Revolution(declare)) => {
                if declare {
                    let greater = seat == p - 1;
                    if greater {
                        // Titles mirror and players reseat with their hands; the old
                        // GP is the new GD.
                        self.hands[..p].reverse();
                        self.seat_player[..p].reverse();
                        self.scores[..p].reverse();
                    }
                    self.revolution = Some(Revolution {
                        seat: if greater { 0 } else { seat },
                        greater,
                    });
                }
                self.stage = self.after_revolution_check();
            }
            (Stage::TaxReturn(seat), DalmutiDecision::TaxReturn(cards)) => {
                let to = if seat == 0 { p - 1 } else { p - 2 };
                self.hands[seat] = self.hands[seat].difference(cards);
                self.hands[to] = self.hands[to].union(cards);
                self.returns[seat] = cards;
                self.stage = if seat == 0 {
                    Stage::TaxReturn(1)
                } else {
                    self.start_play()
                };
            }
            (Stage::Play, DalmutiDecision::Pass) => self.play_action(Action::Pass),
            (Stage::Play, DalmutiDecision::Play(play)) => self.play_action(Action::Play(play)),
            (stage, d) => panic!("decision {d:?} does not fit stage {stage:?}"),
        }
    }

    fn play_action(&mut self, action: Action) {
        let turn = self.turn.as_mut().expect("play stage has a turn state");
        let seat = turn.to_act();
        turn.apply(action).expect("legal action");
        if let Action::Play(play) = action {
            self.hands[seat] = self.hands[seat].difference(play.cards());
            self.played = self.played.union(play.cards());
            if self.hands[seat].is_empty() {
                let place = turn.finished().count();
                self.scores[seat] += points_for_place(place, self.players);
            }
        }
        self.log.push(LogEntry { seat, action });
        if turn.is_over() {
            let last = (0..self.players)
                .find(|&s| !self.hands[s].is_empty())
                .expect("one seat holds cards");
            self.scores[last] += points_for_place(self.players, self.players);
            self.stage = Stage::Over;
        }
    }

    /// Checks that every card is somewhere exactly once and that, for every seat, the
    /// cards it cannot see equal what the other seats hold.
    pub fn check_accounting(&self) -> Result<(), RefereeError> {
        let p = self.players;
        let all = (0..p).fold(self.played, |a, s| a.union(self.hands[s]));
        if all != Cards::FULL_DECK {
            return Err(RefereeError::Invariant(format!(
                "hands and played add up to {all:?}, not the deck"
            )));
        }
        let total: u32 = (0..p).map(|s| self.hands[s].len()).sum();
        for s in 0..p {
            let unseen = u32::from(DECK_SIZE) - self.hands[s].len() - self.played.len();
            let others = total - self.hands[s].len();
            if unseen != others {
                return Err(RefereeError::Invariant(format!(
                    "seat {s} cannot see {unseen} cards but the others hold {others}"
                )));
            }
            if let Some(t) = &self.turn
                && u32::from(t.counts()[s]) != self.hands[s].len()
            {
                return Err(RefereeError::Invariant(format!(
                    "seat {s} holds {} cards but the turn flow counts {}",
                    self.hands[s].len(),
                    t.counts()[s]
                )));
            }
        }
        Ok(())
    }
}

/// The seed of one decision: the match seed mixed with the view's fingerprint.
pub fn decision_seed(seed: u64, view: &DalmutiView) -> u64 {
    StableHasher::new()
        .u64(seed)
        .u64(view.fingerprint())
        .finish()
}

/// What one hand produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandResult {
    /// The player at each seat during play (after any Greater Revolution).
    pub seating: Vec<usize>,
    /// Players in finishing order (first out first; the last is the last holder).
    pub finishing_order: Vec<usize>,
    /// Points earned this hand, per player.
    pub points: Vec<u32>,
    /// The revolution declared, if any.
    pub revolution: Option<Revolution>,
    /// Decisions taken (revolution, tax returns, plays and passes).
    pub actions: u64,
}

/// Plays one dealt hand to the end. `policies[player]` decides for that player.
pub fn play_hand(
    state: HandState,
    policies: &[&dyn Policy<Dalmuti>],
    seed: u64,
) -> Result<HandResult, RefereeError> {
    play_hand_observed(state, policies, seed, &mut |_| {})
}

/// [`play_hand`], showing `observe` the hand after the deal and after every decision.
fn play_hand_observed(
    mut state: HandState,
    policies: &[&dyn Policy<Dalmuti>],
    seed: u64,
    observe: &mut dyn FnMut(&HandState),
) -> Result<HandResult, RefereeError> {
    let p = state.players();
    let before: Vec<u32> = (0..p).map(|s| state.score(s)).collect();
    let seat_player_before: Vec<usize> = (0..p).map(|s| state.player_at(s)).collect();
    state.check_accounting()?;
    observe(&state);
    while let Some(view) = state.view()? {
        let player = state.player_at(view.seat());
        let policy = policies[player];
        let mut ctx = DecisionContext::unbounded(decision_seed(seed, &view));
        let decision = policy.decide(&view, &mut ctx);
        state.apply_seen(&view, decision, policy.name())?;
        observe(&state);
    }
    let order = state.finishing_order().expect("the hand is over");
    let mut points = vec![0; p];
    for (s, &pl) in seat_player_before.iter().enumerate() {
        // Scores move with players, so compare by player.
        let now = (0..p)
            .find(|&x| state.player_at(x) == pl)
            .expect("player seated");
        points[pl] = state.score(now) - before[s];
    }
    Ok(HandResult {
        seating: (0..p).map(|s| state.player_at(s)).collect(),
        finishing_order: order.iter().map(|&s| state.player_at(s)).collect(),
        points,
        revolution: state.revolution(),
        actions: state.actions(),
    })
}

/// What a match produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Every hand in order.
    pub hands: Vec<HandResult>,
    /// Total points per player.
    pub scores: Vec<u32>,
}

/// Plays a match of `hands` hands between `policies` (one per player), everything
/// derived from `seed`: the seat draw, the deals and every decision's generator.
pub fn play_match(
    policies: &[&dyn Policy<Dalmuti>],
    hands: u32,
    seed: u64,
) -> Result<MatchResult, RefereeError> {
    play_match_observed(policies, hands, seed, &mut |_| {})
}

/// [`play_match`], showing `observe` the hand in play after each deal and after every
/// decision (to follow a player between its turns); `observe` cannot change the play.
pub fn play_match_observed(
    policies: &[&dyn Policy<Dalmuti>],
    hands: u32,
    seed: u64,
    observe: &mut dyn FnMut(&HandState),
) -> Result<MatchResult, RefereeError> {
    let p = policies.len();
    assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&p));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seating = draw_seats(p, &mut rng);
    let mut scores = vec![0u32; p];
    let mut results = Vec::with_capacity(hands as usize);
    for h in 1..=hands {
        let dealt = deal(p, &mut rng);
        let seat_scores: Vec<u32> = seating.iter().map(|&pl| scores[pl]).collect();
        let state = HandState::new(&dealt, &seating, &seat_scores, h, hands - h);
        let hand_seed = StableHasher::new().u64(seed).u64(u64::from(h)).finish();
        let result = play_hand_observed(state, policies, hand_seed, observe)?;
        for (pl, pts) in result.points.iter().enumerate() {
            scores[pl] += pts;
        }
        // Finishing order sets the next hand's seats: first out is GD.
        seating = result.finishing_order.clone();
        results.push(result);
    }
    Ok(MatchResult {
        hands: results,
        scores,
    })
}

/// Plays one stand-alone hand (hand 1 of a match, seats drawn) from `seed`; the
/// self-play and benchmark unit.
pub fn play_single_hand(
    policies: &[&dyn Policy<Dalmuti>],
    hand_number: u32,
    seed: u64,
) -> Result<HandResult, RefereeError> {
    let p = policies.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let seating = if hand_number == 1 {
        draw_seats(p, &mut rng)
    } else {
        // A later hand: any seating works; rotate by a seeded amount.
        let k = uniform_below(&mut rng, p);
        (0..p).map(|s| (s + k) % p).collect()
    };
    let dealt = deal(p, &mut rng);
    let state = HandState::new(&dealt, &seating, &vec![0; p], hand_number, 0);
    play_hand(state, policies, seed)
}

/// The view input of seat 0 (the GD, who leads) at the start of play of a first hand
/// dealt from `seed` with `players` players, no revolution declared.
pub fn opening_view_input(players: usize, seed: u64) -> DalmutiViewInput {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hands = deal(players, &mut rng);
    let seating: Vec<usize> = (0..players).collect();
    let mut state = HandState::new(&hands, &seating, &vec![0; players], 1, MATCH_HANDS - 1);
    if let Stage::Revolution(_) = state.stage {
        state.stage = state.start_play();
    }
    debug_assert_eq!(deal_size(0, players) as u32, state.hand(0).len());
    state.view_input().expect("seat 0 leads")
}

/// The tax-return duty of the seat that must return now, if any (for tests).
pub fn pending_tax(state: &HandState) -> Option<TaxDuty> {
    match state.stage {
        Stage::TaxReturn(0) => Some(TaxDuty {
            count: 2,
            to: state.players - 1,
        }),
        Stage::TaxReturn(_) => Some(TaxDuty {
            count: 1,
            to: state.players - 2,
        }),
        _ => None,
    }
}
