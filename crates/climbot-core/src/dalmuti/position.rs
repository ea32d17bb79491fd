//! The search seam for The Great Dalmuti: deals of the unseen cards consistent with a
//! view, and the full-information position of the play phase.
//!
//! [`DalmutiPosition`] is every seat's cards plus the [`TurnState`] the referee and the
//! view constructor share (whose turn, the table and its owner, the passes since, the
//! seats out in order), so a position follows the referee's turn flow by construction.
//! It is `Copy` and holds no log, so a search clones one per iteration for free.

use super::Dalmuti;
use super::cards::{Cards, Rank};
use super::decision::DalmutiDecision;
use super::moves::for_each_legal_play;
use super::turn::{Action, MAX_PLAYERS, TurnState};
use super::view::{DalmutiView, Phase};
use crate::bot::shuffle;
use crate::game::Simulation;
use rand_chacha::ChaCha8Rng;

/// Every seat's cards in one full deal (`hands[s]` for seat `s`; seats past the player
/// count are empty).
pub type DalmutiDeal = [Cards; MAX_PLAYERS];

/// A full-information position in the play phase of a hand. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DalmutiPosition {
    hands: [Cards; MAX_PLAYERS],
    turn: TurnState,
}

impl DalmutiPosition {
    /// A position from every seat's cards and the turn flow they are in. The caller
    /// keeps them consistent: `hands[s]` holds `turn.counts()[s]` cards.
    pub fn new(hands: [Cards; MAX_PLAYERS], turn: TurnState) -> DalmutiPosition {
        DalmutiPosition { hands, turn }
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.turn.players()
    }

    /// A seat's cards.
    pub fn hand(&self, seat: usize) -> Cards {
        self.hands[seat]
    }

    /// The turn flow: the seat to move, the table and its owner, the seats out.
    pub fn turn(&self) -> &TurnState {
        &self.turn
    }

    /// Plays `action` for the seat to move without checking it (the caller has: it is
    /// one of the legal actions), by the referee's turn flow: a trick ends when every
    /// other active seat passed in succession, its owner (or the next active seat
    /// clockwise if the owner went out) leads, seats out are skipped, and the hand ends
    /// when one seat holds cards.
    pub fn play(&mut self, action: Action) {
        let seat = self.turn.to_act();
        if self.turn.apply(action).is_ok()
            && let Action::Play(play) = action
        {
            self.hands[seat] = self.hands[seat].difference(play.cards());
        }
    }

    /// `seat`'s finishing place, 1 = first out. A seat still holding cards gets the
    /// last place (the place it takes once the hand is over).
    pub fn place(&self, seat: usize) -> usize {
        self.turn
            .finished()
            .position(|s| s == seat)
            .map_or(self.players(), |i| i + 1)
    }
}

/// Replays the view's log of the play phase on `deal` from the first lead (see
/// [`crate::learn::Learnable::replay_log`]): each seat starts with its cards in `deal`
/// and the cards it played in the log, seat 0 leads, and `visit` sees the other seats'
/// decisions with their positions. False outside the play phase, with an empty log, or
/// with a logged action that is not legal as replayed.
pub fn replay_log(
    view: &DalmutiView,
    deal: &DalmutiDeal,
    visit: &mut dyn FnMut(&DalmutiPosition, DalmutiDecision),
) -> bool {
    let log = view.log();
    if view.phase() != Phase::Play || log.is_empty() {
        return false;
    }
    let players = view.players();
    let mut hands = *deal;
    for entry in log {
        if let Action::Play(play) = entry.action {
            hands[entry.seat] = hands[entry.seat].union(play.cards());
        }
    }
    let mut counts = [0u8; MAX_PLAYERS];
    for (count, hand) in counts.iter_mut().zip(&hands).take(players) {
        *count = hand.len() as u8;
    }
    if counts[..players].contains(&0) {
        return false;
    }
    let mut position = DalmutiPosition::new(hands, TurnState::new(&counts[..players]));
    let me = view.seat();
    for entry in log {
        if position.turn.is_over() || position.turn.to_act() != entry.seat {
            return false;
        }
        let decision = match entry.action {
            Action::Pass => DalmutiDecision::Pass,
            Action::Play(play) => {
                if !position.hands[entry.seat].is_superset(play.cards()) {
                    return false;
                }
                DalmutiDecision::Play(play)
            }
        };
        if entry.seat != me {
            visit(&position, decision);
        }
        if position.turn.apply(entry.action).is_err() {
            return false;
        }
        if let Action::Play(play) = entry.action {
            position.hands[entry.seat] = position.hands[entry.seat].difference(play.cards());
        }
    }
    true
}

impl Simulation for Dalmuti {
    type Deal = DalmutiDeal;
    type Position = DalmutiPosition;

    /// The view's own hand kept and the unseen cards shuffled and handed out in seat
    /// order by the other seats' card counts, so every assignment of the unseen cards
    /// with those counts is equally likely. A revolution declared by another seat is
    /// public: that seat showed both Jesters, so the Jesters not yet played are its
    /// own (no other seat may play one) and are placed there first. So are the cards
    /// this seat gave its tax partner and that the partner neither played nor gave back
    /// ([`DalmutiView::known_held`]); a view without tax knowledge draws exactly as
    /// before. Seen from a Dalmuti, the Peon's other cards are drawn from the ranks its
    /// tax bounds ([`DalmutiView::tax_bound`]) when the unseen cards allow it.
    fn deal(view: &DalmutiView, rng: &mut ChaCha8Rng) -> DalmutiDeal {
        draw_deal(view, rng, true)
    }

    fn deal_without_exchange_bound(view: &DalmutiView, rng: &mut ChaCha8Rng) -> DalmutiDeal {
        draw_deal(view, rng, false)
    }

    /// The play phase's position; `None` in the revolution and tax-return phases.
    fn position(view: &DalmutiView, deal: &DalmutiDeal) -> Option<DalmutiPosition> {
        if view.phase() != Phase::Play {
            return None;
        }
        let turn = *view.turn_state()?;
        Some(DalmutiPosition::new(*deal, turn))
    }

    fn to_act(position: &DalmutiPosition) -> Option<usize> {
        (!position.turn.is_over()).then(|| position.turn.to_act())
    }

    fn legal_actions(position: &DalmutiPosition, out: &mut Vec<DalmutiDecision>) {
        out.clear();
        if position.turn.is_over() {
            return;
        }
        let table = position.turn.table();
        if table.is_some() {
            out.push(DalmutiDecision::Pass);
        }
        let hand = position.hands[position.turn.to_act()];
        for_each_legal_play(hand, table, |p| out.push(DalmutiDecision::Play(p)));
    }

    /// Plays a pass or a play ([`DalmutiPosition::play`]); the other decisions belong
    /// to phases a position never is in and change nothing.
    fn apply(position: &mut DalmutiPosition, decision: DalmutiDecision) {
        match decision {
            DalmutiDecision::Pass => position.play(Action::Pass),
            DalmutiDecision::Play(p) => position.play(Action::Play(p)),
            DalmutiDecision::TaxReturn(_) | DalmutiDecision::Revolution(_) => {}
        }
    }

    /// The seat's finishing place ([`DalmutiPosition::place`]).
    fn outcome(position: &DalmutiPosition, seat: usize) -> f64 {
        position.place(seat) as f64
    }

    const HIGHER_IS_BETTER: bool = false;
}

/// [`Simulation::deal`] for Dalmuti, with or without the Peon's tax bound.
fn draw_deal(view: &DalmutiView, rng: &mut ChaCha8Rng, use_bound: bool) -> DalmutiDeal {
    let me = view.seat();
    let players = view.players();
    let mut unseen = view.unseen();
    let mut hands = [Cards::EMPTY; MAX_PLAYERS];
    hands[me] = view.hand();
    let mut need = [0u8; MAX_PLAYERS];
    for (s, n) in need.iter_mut().enumerate().take(players) {
        if s != me {
            *n = view.seats()[s].card_count;
        }
    }
    if let Some(r) = view.revolution()
        && r.seat != me
    {
        let jesters = unseen.jesters().min(need[r.seat]);
        hands[r.seat].insert(Rank::JESTER, jesters);
        unseen.remove(Rank::JESTER, jesters);
        need[r.seat] -= jesters;
    }
    if let Some(t) = view.tax_known() {
        let known = view.known_held(t.with_seat);
        hands[t.with_seat] = hands[t.with_seat].union(known);
        unseen = unseen.difference(known);
        need[t.with_seat] -= known.len() as u8;
    }
    if let Some((peon, bound)) = view.tax_bound().filter(|_| use_bound) {
        let mut allowed: Vec<Rank> = unseen.no_better_than(bound).iter().collect();
        let n = usize::from(need[peon]);
        if peon != me && n > 0 && allowed.len() >= n {
            shuffle(rng, &mut allowed);
            for &rank in &allowed[..n] {
                hands[peon].insert(rank, 1);
                unseen.remove(rank, 1);
            }
            need[peon] = 0;
        }
    }
    let mut pool: Vec<Rank> = unseen.iter().collect();
    shuffle(rng, &mut pool);
    let mut next = 0;
    for (hand, &n) in hands.iter_mut().zip(&need).take(players) {
        for &rank in pool.iter().skip(next).take(usize::from(n)) {
            hand.insert(rank, 1);
        }
        next += usize::from(n);
    }
    hands
}
