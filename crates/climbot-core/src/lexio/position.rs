//! The search seam for Lexio: deals of the unseen tiles consistent with a view, and the
//! full-information position that the referee's round plays on.
//!
//! [`LexioPosition`] is the state a round's rules act on (every hand, the played tiles,
//! the trick and its owner, the passes since, the seat to act and the winner). It is
//! `Copy` and holds no log, so a search clones one per iteration for free. The referee's
//! [`Round`](super::referee::Round) wraps one and adds the public log, the round number
//! and the running scores; it checks an action's legality and then plays it with
//! [`LexioPosition::play`], so a search and the referee follow the same rules.

use super::combos::Combo;
use super::moves::for_each_play;
use super::referee::effective_count;
use super::tiles::{PlayerCount, Tile, TileSet};
use super::view::{Action, LexioView};
use crate::bot::shuffle;
use crate::game::Simulation;
use crate::lexio::Lexio;
use rand_chacha::ChaCha8Rng;

/// Every seat's tiles in one full deal (`hands[s]` for seat `s`; seats past the player
/// count are empty).
pub type LexioDeal = [TileSet; 5];

/// A full-information position in the middle of a round. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexioPosition {
    players: PlayerCount,
    hands: [TileSet; 5],
    played: TileSet,
    /// The play to beat and the seat that made it.
    trick: Option<(Combo, usize)>,
    passes: usize,
    turn: usize,
    winner: Option<usize>,
}

impl LexioPosition {
    /// A position from its parts: every hand, the tiles played, the play to beat and
    /// its owner, the passes since it, and the seat to act. Nobody has won yet.
    pub fn new(
        players: PlayerCount,
        hands: [TileSet; 5],
        played: TileSet,
        trick: Option<(Combo, usize)>,
        passes: usize,
        turn: usize,
    ) -> LexioPosition {
        LexioPosition {
            players,
            hands,
            played,
            trick,
            passes,
            turn,
            winner: None,
        }
    }

    /// The player count.
    pub fn players(&self) -> PlayerCount {
        self.players
    }

    /// The seat whose turn it is (also after the round ended: the seat after the
    /// winner).
    pub fn to_act(&self) -> usize {
        self.turn
    }

    /// A seat's hand.
    pub fn hand(&self, seat: usize) -> TileSet {
        self.hands[seat]
    }

    /// Every seat's hand (entries past the player count are empty).
    pub fn hands(&self) -> &[TileSet; 5] {
        &self.hands
    }

    /// The tiles played this round.
    pub fn played(&self) -> TileSet {
        self.played
    }

    /// The play to beat and the seat that made it, if any.
    pub fn trick(&self) -> Option<(Combo, usize)> {
        self.trick
    }

    /// The play to beat, if any.
    pub fn table(&self) -> Option<Combo> {
        self.trick.map(|(c, _)| c)
    }

    /// The passes since the play to beat.
    pub fn passes(&self) -> usize {
        self.passes
    }

    /// The seat that emptied its hand, once the round is over.
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Plays `action` for the seat to act without checking it (the caller has: it is
    /// one of the legal actions). A pass after which every other seat has passed in
    /// succession clears the table and gives the lead to the trick's owner; a play
    /// that empties a hand ends the round. Returns true when the round ended.
    pub fn play(&mut self, action: Action) -> bool {
        let seat = self.turn;
        let p = self.players.count();
        match action {
            Action::Pass => {
                if let Some((_, owner)) = self.trick {
                    self.passes += 1;
                    self.turn = (seat + 1) % p;
                    if self.passes == p - 1 {
                        // Everyone else passed in succession: the owner clears and leads.
                        self.trick = None;
                        self.passes = 0;
                        self.turn = owner;
                    }
                }
            }
            Action::Play(c) => {
                self.hands[seat] = self.hands[seat].difference(c.tiles());
                self.played = self.played.union(c.tiles());
                self.trick = Some((c, seat));
                self.passes = 0;
                self.turn = (seat + 1) % p;
                if self.hands[seat].is_empty() {
                    self.winner = Some(seat);
                }
            }
        }
        self.winner.is_some()
    }

    /// `seat`'s net chips by the settlement of the hands as they stand
    /// ([`settle`](super::referee::settle)): the round's result once it is over.
    pub fn net(&self, seat: usize) -> i64 {
        let p = self.players.count();
        let total: i64 = self.hands[..p].iter().map(|&h| effective_count(h)).sum();
        total - p as i64 * effective_count(self.hands[seat])
    }
}

/// The play to beat, its owner and the passes since: every seat after the owner up to
/// the view's seat passed on it (the view checks that the owner is not its own seat,
/// and that it agrees with the log when there is one). `None` when the view's seat
/// leads.
pub fn trick_state(view: &LexioView) -> Option<(Combo, usize, usize)> {
    let (table, owner) = view.trick()?;
    let p = view.players().count();
    Some((table, owner, (view.seat() + p - owner - 1) % p))
}

/// Replays the view's log on `deal` from the round's start (see
/// [`crate::learn::Learnable::replay_log`]): each seat starts with its tiles in `deal`
/// and the tiles it played in the log, the first logged seat leads, and `visit` sees the
/// other seats' decisions with their positions. False without a log, or with one that
/// does not account for every tile played this round or is not legal as replayed.
pub fn replay_log(
    view: &LexioView,
    deal: &LexioDeal,
    visit: &mut dyn FnMut(&LexioPosition, Action),
) -> bool {
    let log = view.log();
    let Some(first) = log.first() else {
        return false;
    };
    let mut hands = *deal;
    let mut played = TileSet::EMPTY;
    for entry in log {
        if let Action::Play(c) = entry.action {
            hands[usize::from(entry.seat)] = hands[usize::from(entry.seat)].union(c.tiles());
            played = played.union(c.tiles());
        }
    }
    if played != view.played() {
        return false;
    }
    let me = view.seat();
    let mut position = LexioPosition::new(
        view.players(),
        hands,
        TileSet::EMPTY,
        None,
        0,
        usize::from(first.seat),
    );
    for entry in log {
        let seat = usize::from(entry.seat);
        if position.winner.is_some() || position.turn != seat {
            return false;
        }
        if let Action::Play(c) = entry.action
            && !position.hands[seat].is_superset(c.tiles())
        {
            return false;
        }
        if seat != me {
            visit(&position, entry.action);
        }
        position.play(entry.action);
    }
    true
}

impl Simulation for Lexio {
    type Deal = LexioDeal;
    type Position = LexioPosition;

    /// The view's own hand kept, the unseen tiles shuffled and handed out in seat
    /// order by the other seats' tile counts: every split of the unseen tiles with
    /// those counts is equally likely.
    fn deal(view: &LexioView, rng: &mut ChaCha8Rng) -> LexioDeal {
        let me = view.seat();
        let mut pool: Vec<Tile> = view.unseen().iter().collect();
        shuffle(rng, &mut pool);
        let mut hands = [TileSet::EMPTY; 5];
        hands[me] = view.hand();
        let mut next = 0;
        for (s, hand) in hands.iter_mut().enumerate().take(view.players().count()) {
            if s != me {
                let n = view.tile_count(s);
                *hand = pool[next..next + n].iter().copied().collect();
                next += n;
            }
        }
        hands
    }

    /// Always a position: every Lexio decision is a play or a pass.
    fn position(view: &LexioView, deal: &LexioDeal) -> Option<LexioPosition> {
        let (trick, passes) = match trick_state(view) {
            Some((c, owner, passes)) => (Some((c, owner)), passes),
            None => (None, 0),
        };
        Some(LexioPosition::new(
            view.players(),
            *deal,
            view.played(),
            trick,
            passes,
            view.seat(),
        ))
    }

    fn to_act(position: &LexioPosition) -> Option<usize> {
        position.winner.is_none().then_some(position.turn)
    }

    fn legal_actions(position: &LexioPosition, out: &mut Vec<Action>) {
        out.clear();
        if position.winner.is_some() {
            return;
        }
        let table = position.table();
        if table.is_some() {
            out.push(Action::Pass);
        }
        for_each_play(
            position.players,
            position.hands[position.turn],
            table,
            &mut |c| out.push(Action::Play(c)),
        );
    }

    fn apply(position: &mut LexioPosition, decision: Action) {
        position.play(decision);
    }

    /// The seat's net chips by the settlement ([`LexioPosition::net`]).
    fn outcome(position: &LexioPosition, seat: usize) -> f64 {
        position.net(seat) as f64
    }

    const HIGHER_IS_BETTER: bool = true;
}
