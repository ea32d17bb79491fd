//! The referee: seeded deals, whole rounds with re-entry after a pass, settlement and
//! 5-round matches. Every action is checked for legality and the tile-accounting
//! invariant is asserted after each one; the bots only ever see validated views.

use super::combos::Combo;
use super::position::LexioPosition;
use super::tiles::{PlayerCount, Tile, TileSet};
use super::view::{Action, LexioView, LoggedAction, ViewError, ViewParts};
use crate::bot::{DecisionContext, StableHasher, shuffle};
use crate::game::Policy;
use crate::lexio::Lexio;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::fmt;

/// Rounds in a match (docs/rules/lexio.md, §6.2 Matches).
pub const ROUNDS_PER_MATCH: u32 = 5;

/// Something the referee refused: an illegal action, or an internal inconsistency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefereeError {
    /// The seat to move chose an action the rules do not allow.
    IllegalAction {
        /// The seat that acted.
        seat: usize,
        /// What it tried.
        action: Action,
        /// What it had to beat.
        table: Option<Combo>,
    },
    /// The state could not be shown to a seat as a valid view (a referee bug).
    InvalidView(ViewError),
    /// The tile accounting broke (a referee bug).
    Accounting(String),
    /// The round is already over.
    RoundOver,
    /// A match needs 3, 4 or 5 seats.
    PlayerCount(usize),
}

impl fmt::Display for RefereeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeError::IllegalAction {
                seat,
                action,
                table,
            } => {
                write!(
                    f,
                    "seat {seat} made an illegal action {action:?} on table {table:?}"
                )
            }
            RefereeError::InvalidView(e) => write!(f, "invalid view: {e}"),
            RefereeError::Accounting(e) => write!(f, "tile accounting broken: {e}"),
            RefereeError::RoundOver => write!(f, "the round is over"),
            RefereeError::PlayerCount(n) => write!(f, "{n} seats: Lexio takes 3, 4 or 5"),
        }
    }
}

impl std::error::Error for RefereeError {}

/// One round in progress: the position (every hand, the table, whose turn it is) and
/// the public log.
#[derive(Clone, Debug)]
pub struct Round {
    position: LexioPosition,
    log: Vec<LoggedAction>,
    round: u32,
    scores: [i64; 5],
}

/// The deal of one round: each seat's tiles, from a seed.
pub fn deal(players: PlayerCount, seed: u64) -> [TileSet; 5] {
    let mut tiles: Vec<Tile> = players.deck().iter().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    shuffle(&mut rng, &mut tiles);
    let mut hands = [TileSet::EMPTY; 5];
    for (i, chunk) in tiles.chunks(players.hand_size()).enumerate() {
        hands[i] = chunk.iter().copied().collect();
    }
    hands
}

/// What a round ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundResult {
    /// The seat that emptied its hand.
    pub winner: usize,
    /// Tiles left per seat.
    pub remaining: Vec<usize>,
    /// Effective counts per seat: tiles left x 2^(tiles numbered 2 held).
    pub effective: Vec<i64>,
    /// Net chips per seat; they sum to zero.
    pub net: Vec<i64>,
    /// Actions taken in the round (plays and passes).
    pub actions: usize,
}

/// Settlement (docs/rules/lexio.md, §6.1 Settlement of a round): every pair of players
/// settles the difference of their effective counts, so seat i nets `sum(e) - P * e_i`.
pub fn settle(players: PlayerCount, hands: &[TileSet]) -> (Vec<i64>, Vec<i64>) {
    let p = players.count();
    let effective: Vec<i64> = hands[..p].iter().map(|&h| effective_count(h)).collect();
    let total: i64 = effective.iter().sum();
    let net = effective.iter().map(|e| total - p as i64 * e).collect();
    (effective, net)
}

/// A hand's effective count for the settlement: tiles left x 2^(tiles numbered 2
/// held).
pub fn effective_count(hand: TileSet) -> i64 {
    let twos = hand.iter().filter(|t| t.number() == 2).count() as u32;
    (hand.len() as i64) << twos
}

impl Round {
    /// A round from given hands; the holder of cloud 3 leads.
    pub fn new(players: PlayerCount, hands: [TileSet; 5], round: u32, scores: [i64; 5]) -> Round {
        let cloud3 = TileSet::EMPTY.with(Tile::from_id(0).expect("cloud 3"));
        let turn = (0..players.count())
            .find(|&s| hands[s].is_superset(cloud3))
            .unwrap_or(0);
        Round {
            position: LexioPosition::new(players, hands, TileSet::EMPTY, None, 0, turn),
            log: Vec::new(),
            round,
            scores,
        }
    }

    /// A round from an arbitrary mid-round position (for searches that sample the
    /// hidden hands), with an empty log.
    pub fn from_position(position: LexioPosition) -> Round {
        Round {
            position,
            log: Vec::new(),
            round: 1,
            scores: [0; 5],
        }
    }

    /// The full-information position the round is in.
    pub fn position(&self) -> &LexioPosition {
        &self.position
    }

    /// The player count.
    pub fn players(&self) -> PlayerCount {
        self.position.players()
    }

    /// The round number, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The running scores before this round (only the first `players` entries count).
    pub fn scores(&self) -> [i64; 5] {
        self.scores
    }

    /// The seat to act.
    pub fn to_act(&self) -> usize {
        self.position.to_act()
    }

    /// A seat's hand.
    pub fn hand(&self, seat: usize) -> TileSet {
        self.position.hand(seat)
    }

    /// The play to beat, if any.
    pub fn table(&self) -> Option<Combo> {
        self.position.table()
    }

    /// The seat that emptied its hand, once the round is over.
    pub fn winner(&self) -> Option<usize> {
        self.position.winner()
    }

    /// The public log so far.
    pub fn log(&self) -> &[LoggedAction] {
        &self.log
    }

    /// The view of the seat to act, validated like a client's view.
    pub fn view(&self) -> Result<LexioView, ViewError> {
        let players = self.players();
        let turn = self.to_act();
        let hands = self.position.hands();
        let mut counts = [0u8; 5];
        for (c, h) in counts.iter_mut().zip(hands.iter()).take(players.count()) {
            *c = h.len() as u8;
        }
        LexioView::from_parts(ViewParts {
            players,
            seat: turn,
            hand: hands[turn],
            table: self.position.trick(),
            counts,
            played: self.position.played(),
            log: self.log.clone(),
            round: self.round,
            scores: self.scores,
        })
    }

    /// Applies the action of the seat to act, refusing an illegal one. Returns true
    /// when the action ended the round.
    pub fn apply(&mut self, action: Action) -> Result<bool, RefereeError> {
        if self.winner().is_some() {
            return Err(RefereeError::RoundOver);
        }
        let seat = self.to_act();
        let illegal = || RefereeError::IllegalAction {
            seat,
            action,
            table: self.table(),
        };
        let legal = match action {
            Action::Pass => self.table().is_some(),
            Action::Play(c) => {
                self.hand(seat).is_superset(c.tiles())
                    && super::classify(self.players(), c.tiles()) == Some(c)
                    && self.table().is_none_or(|t| c.beats(t))
            }
        };
        if !legal {
            return Err(illegal());
        }
        let over = self.position.play(action);
        self.log.push(LoggedAction {
            seat: seat as u8,
            action,
        });
        Ok(over)
    }

    /// The tile-accounting invariant: hands and played tiles partition the deck, and
    /// for every seat its unseen tiles number the other seats' tile counts.
    pub fn check_accounting(&self) -> Result<(), RefereeError> {
        let players = self.players();
        let p = players.count();
        let hands = self.position.hands();
        let played = self.position.played();
        let mut union = played;
        for (s, &hand) in hands.iter().enumerate().take(p) {
            if !union.is_disjoint(hand) {
                return Err(RefereeError::Accounting(format!(
                    "seat {s} holds a tile twice"
                )));
            }
            union = union.union(hand);
        }
        if union != players.deck() {
            return Err(RefereeError::Accounting(
                "hands and played do not make the deck".into(),
            ));
        }
        for s in 0..p {
            let unseen = players.deck().difference(hands[s].union(played)).len();
            let others: usize = (0..p).filter(|&o| o != s).map(|o| hands[o].len()).sum();
            if unseen != others {
                return Err(RefereeError::Accounting(format!(
                    "seat {s}: {unseen} unseen but others hold {others}"
                )));
            }
        }
        Ok(())
    }

    /// The settlement of a finished round.
    pub fn result(&self) -> Option<RoundResult> {
        let winner = self.winner()?;
        let players = self.players();
        let hands = self.position.hands();
        let (effective, net) = settle(players, hands);
        Some(RoundResult {
            winner,
            remaining: hands[..players.count()].iter().map(|h| h.len()).collect(),
            effective,
            net,
            actions: self.log.len(),
        })
    }
}

/// The seed of one decision in refereed play: the match seed, round and action index
/// and the seat, so a bot's randomness never depends on another seat's bot.
fn decision_seed(seed: u64, round: u32, action_index: usize, seat: usize) -> u64 {
    StableHasher::new()
        .bytes(b"lexio/referee")
        .u64(seed)
        .u64(u64::from(round))
        .u64(action_index as u64)
        .u64(seat as u64)
        .finish()
}

/// Plays one round to the end with a policy per seat, checking every action and the
/// accounting after each.
pub fn play_round(
    players: PlayerCount,
    hands: [TileSet; 5],
    round: u32,
    scores: [i64; 5],
    seed: u64,
    seats: &[&dyn Policy<Lexio>],
) -> Result<RoundResult, RefereeError> {
    play_round_observed(players, hands, round, scores, seed, seats, &mut |_| {})
}

/// [`play_round`], showing `observe` the round after the deal and after every action.
fn play_round_observed(
    players: PlayerCount,
    hands: [TileSet; 5],
    round: u32,
    scores: [i64; 5],
    seed: u64,
    seats: &[&dyn Policy<Lexio>],
    observe: &mut dyn FnMut(&Round),
) -> Result<RoundResult, RefereeError> {
    let mut state = Round::new(players, hands, round, scores);
    state.check_accounting()?;
    observe(&state);
    // A round lasts at most (tiles + passes) actions; bound it defensively.
    let limit = players.deck().len() * players.count() * 4;
    for _ in 0..limit {
        let view = state.view().map_err(RefereeError::InvalidView)?;
        let seat = state.to_act();
        let mut ctx =
            DecisionContext::unbounded(decision_seed(seed, round, state.log().len(), seat));
        let action = seats[seat].decide(&view, &mut ctx);
        let over = state.apply(action)?;
        state.check_accounting()?;
        observe(&state);
        if over {
            return state.result().ok_or(RefereeError::RoundOver);
        }
    }
    Err(RefereeError::Accounting("the round did not end".into()))
}

/// A whole match's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Each round's result.
    pub rounds: Vec<RoundResult>,
    /// Final scores per seat (the sum of the rounds' nets).
    pub scores: Vec<i64>,
}

/// The deal seed of round `round` (from 1) of the match with seed `seed`.
pub fn round_seed(seed: u64, round: u32) -> u64 {
    StableHasher::new()
        .bytes(b"lexio/deal")
        .u64(seed)
        .u64(u64::from(round))
        .finish()
}

/// Plays a match of `rounds` rounds with running scores between `seats` (3, 4 or 5
/// policies, one per seat), every deal and decision derived from `seed`.
pub fn play_match(
    seats: &[&dyn Policy<Lexio>],
    rounds: u32,
    seed: u64,
) -> Result<MatchResult, RefereeError> {
    play_match_observed(seats, rounds, seed, &mut |_| {})
}

/// The first view of a seat to act that `pick` accepts, in matches of `rounds` rounds
/// between `seats` played with each seed of `seeds` in turn: a position of some kind
/// from real play, for tests and examples. `None` when no match has one.
pub fn find_view(
    seats: &[&dyn Policy<Lexio>],
    rounds: u32,
    seeds: std::ops::Range<u64>,
    pick: &mut dyn FnMut(&LexioView) -> bool,
) -> Option<LexioView> {
    let mut found = None;
    for seed in seeds {
        let _ = play_match_observed(seats, rounds, seed, &mut |round| {
            if found.is_none()
                && let Ok(view) = round.view()
                && pick(&view)
            {
                found = Some(view);
            }
        });
        if found.is_some() {
            break;
        }
    }
    found
}

/// [`play_match`], showing `observe` the round in play after each deal and after every
/// action (to follow a seat between its turns); `observe` cannot change the play.
pub fn play_match_observed(
    seats: &[&dyn Policy<Lexio>],
    rounds: u32,
    seed: u64,
    observe: &mut dyn FnMut(&Round),
) -> Result<MatchResult, RefereeError> {
    let p = seats.len();
    let players = u32::try_from(p)
        .ok()
        .and_then(PlayerCount::from_count)
        .ok_or(RefereeError::PlayerCount(p))?;
    let mut scores = [0i64; 5];
    let mut results = Vec::with_capacity(rounds as usize);
    for round in 1..=rounds {
        let hands = deal(players, round_seed(seed, round));
        let r = play_round_observed(players, hands, round, scores, seed, seats, observe)?;
        for (s, n) in scores.iter_mut().zip(&r.net) {
            *s += n;
        }
        results.push(r);
    }
    Ok(MatchResult {
        rounds: results,
        scores: scores[..p].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::bots::EasyBot;

    #[test]
    fn settlement_matches_the_rules_example() {
        // Effective 0 / 3 / 10 -> +13 / +4 / -17 (docs/rules/lexio.md, §6.1 Settlement of a
        // round).
        let t = |id| Tile::from_id(id).unwrap();
        let hands = [
            TileSet::EMPTY,
            [t(0), t(1), t(2)].into_iter().collect(),
            // 5 tiles with one 2 (ids 56..59 are the 2s): 5 x 2 = 10.
            [t(4), t(5), t(6), t(7), t(56)].into_iter().collect(),
            TileSet::EMPTY,
            TileSet::EMPTY,
        ];
        let (effective, net) = settle(PlayerCount::Three, &hands);
        assert_eq!(effective, vec![0, 3, 10]);
        assert_eq!(net, vec![13, 4, -17]);
    }

    #[test]
    fn deals_partition_the_deck_and_are_seeded() {
        for players in PlayerCount::ALL {
            let hands = deal(players, 9);
            assert_eq!(hands, deal(players, 9));
            assert_ne!(hands, deal(players, 10));
            let mut all = TileSet::EMPTY;
            for h in &hands[..players.count()] {
                assert_eq!(h.len(), players.hand_size());
                assert!(all.is_disjoint(*h));
                all = all.union(*h);
            }
            assert_eq!(all, players.deck());
        }
    }

    #[test]
    fn cloud3_leads_and_passes_allow_reentry() {
        let players = PlayerCount::Three;
        let hands = deal(players, 1);
        let mut round = Round::new(players, hands, 1, [0; 5]);
        let leader = round.to_act();
        assert!(hands[leader].contains(Tile::from_id(0).unwrap()));
        // A pass on an empty table is illegal.
        assert!(matches!(
            round.apply(Action::Pass),
            Err(RefereeError::IllegalAction { .. })
        ));
        let lead = crate::lexio::classify(players, Tile::from_id(0).unwrap().set()).unwrap();
        round.apply(Action::Play(lead)).unwrap();
        // The next seat passes, the one after passes: the trick ends, the leader leads.
        round.apply(Action::Pass).unwrap();
        assert_eq!(round.table(), Some(lead));
        round.apply(Action::Pass).unwrap();
        assert_eq!(round.table(), None);
        assert_eq!(round.to_act(), leader);
        round.check_accounting().unwrap();
    }

    #[test]
    fn easy_matches_run_clean_for_every_player_count() {
        for players in PlayerCount::ALL {
            let seats: Vec<&dyn Policy<Lexio>> = vec![&EasyBot; players.count()];
            let m = play_match(&seats, ROUNDS_PER_MATCH, 3).unwrap();
            assert_eq!(m.rounds.len(), 5);
            assert_eq!(m.scores.iter().sum::<i64>(), 0);
            for r in &m.rounds {
                assert_eq!(r.remaining[r.winner], 0);
                assert_eq!(r.net.iter().sum::<i64>(), 0);
            }
        }
    }
}
