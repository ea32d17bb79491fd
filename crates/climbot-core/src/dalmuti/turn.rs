//! Seats, titles and the turn flow of one hand (docs/rules/dalmuti.md, §2 Seats and
//! titles, §3 The deal, §6 Turn flow, §7 Scoring and matches).
//!
//! [`TurnState`] knows only card counts, not cards, so the referee (which knows every
//! hand) and the view constructor (which replays the public log) share it.

use super::cards::DECK_SIZE;
use super::plays::Play;
use std::fmt;

/// The fewest players (the titles need GD, LD, LP and GP).
pub const MIN_PLAYERS: usize = 4;
/// The most players supported (official 4-8; the deck allows more).
pub const MAX_PLAYERS: usize = 16;

/// A title. Seats are numbered in turn order and seat order is title order, so seat 0
/// is always the Greater Dalmuti and the last seat the Greater Peon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Title {
    /// Seat 0: leads the first trick, receives 2 cards in taxes.
    GreaterDalmuti,
    /// Seat 1: receives 1 card in taxes.
    LesserDalmuti,
    /// Seats 2 ..= P-3 (none with 4 players).
    Merchant,
    /// Seat P-2: pays 1 card in taxes.
    LesserPeon,
    /// Seat P-1: pays 2 cards in taxes, may call a Greater Revolution.
    GreaterPeon,
}

impl Title {
    /// The title of `seat` with `players` players.
    pub const fn of_seat(seat: usize, players: usize) -> Title {
        if seat == 0 {
            Title::GreaterDalmuti
        } else if seat == 1 {
            Title::LesserDalmuti
        } else if seat + 1 == players {
            Title::GreaterPeon
        } else if seat + 2 == players {
            Title::LesserPeon
        } else {
            Title::Merchant
        }
    }

    /// The short name (GD, LD, M, LP, GP).
    pub const fn short(self) -> &'static str {
        match self {
            Title::GreaterDalmuti => "GD",
            Title::LesserDalmuti => "LD",
            Title::Merchant => "M",
            Title::LesserPeon => "LP",
            Title::GreaterPeon => "GP",
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.short())
    }
}

/// The number of cards dealt to `seat`: one at a time from seat 0, so the first
/// `80 % P` seats (the higher titles) get one extra.
pub const fn deal_size(seat: usize, players: usize) -> u8 {
    let base = DECK_SIZE as usize / players;
    let extra = DECK_SIZE as usize % players;
    (base + if seat < extra { 1 } else { 0 }) as u8
}

/// One public action of the play phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The seat passed (it may play again when the turn returns).
    Pass,
    /// The seat put down a set.
    Play(Play),
}

/// Why an action cannot be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The hand is already over.
    HandOver,
    /// The leader must play.
    LeaderPassed,
    /// The play does not beat the table.
    DoesNotBeat,
    /// The seat holds fewer cards than the play.
    NotEnoughCards,
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnError::HandOver => "the hand is already over",
            TurnError::LeaderPassed => "the leader must play, not pass",
            TurnError::DoesNotBeat => "the play does not beat the table (same size, better rank)",
            TurnError::NotEnoughCards => "the seat holds fewer cards than the play",
        })
    }
}

/// The turn flow of one hand's play phase, by card counts only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnState {
    players: usize,
    counts: [u8; MAX_PLAYERS],
    to_move: usize,
    table: Option<Play>,
    owner: usize,
    passes: usize,
    out: [u8; MAX_PLAYERS],
    out_len: usize,
}

impl TurnState {
    /// The start of play: `counts[s]` cards at seat `s`, seat 0 (the GD) leads.
    /// Panics on a player count out of range or a seat without cards.
    pub fn new(counts: &[u8]) -> TurnState {
        let players = counts.len();
        assert!((MIN_PLAYERS..=MAX_PLAYERS).contains(&players));
        assert!(
            counts.iter().all(|&c| c > 0),
            "every seat starts with cards"
        );
        let mut c = [0u8; MAX_PLAYERS];
        c[..players].copy_from_slice(counts);
        TurnState {
            players,
            counts: c,
            to_move: 0,
            table: None,
            owner: 0,
            passes: 0,
            out: [0; MAX_PLAYERS],
            out_len: 0,
        }
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The seat to act.
    pub fn to_act(&self) -> usize {
        self.to_move
    }

    /// The top play of the current trick, `None` when the seat to move leads.
    pub fn table(&self) -> Option<Play> {
        self.table
    }

    /// The seat that made the table's play (meaningful only while there is a table).
    pub fn owner(&self) -> usize {
        self.owner
    }

    /// Cards held per seat.
    pub fn counts(&self) -> &[u8] {
        &self.counts[..self.players]
    }

    /// Seats that went out, in order.
    pub fn finished(&self) -> impl Iterator<Item = usize> + '_ {
        self.out[..self.out_len].iter().map(|&s| usize::from(s))
    }

    /// The number of seats still holding cards.
    pub fn active(&self) -> usize {
        self.players - self.out_len
    }

    /// True when only one seat holds cards.
    pub fn is_over(&self) -> bool {
        self.active() <= 1
    }

    fn next_active(&self, seat: usize) -> usize {
        let mut s = seat;
        loop {
            s = (s + 1) % self.players;
            if self.counts[s] > 0 {
                return s;
            }
        }
    }

    /// Applies the action of the seat to move.
    pub fn apply(&mut self, action: Action) -> Result<(), TurnError> {
        if self.is_over() {
            return Err(TurnError::HandOver);
        }
        let seat = self.to_move;
        match action {
            Action::Play(p) => {
                if self.table.is_some_and(|t| !p.beats(t)) {
                    return Err(TurnError::DoesNotBeat);
                }
                if p.size() > self.counts[seat] {
                    return Err(TurnError::NotEnoughCards);
                }
                self.counts[seat] -= p.size();
                self.table = Some(p);
                self.owner = seat;
                self.passes = 0;
                if self.counts[seat] == 0 {
                    self.out[self.out_len] = seat as u8;
                    self.out_len += 1;
                }
                if !self.is_over() {
                    self.to_move = self.next_active(seat);
                }
            }
            Action::Pass => {
                if self.table.is_none() {
                    return Err(TurnError::LeaderPassed);
                }
                self.passes += 1;
                // Every other active player must pass in succession; if the owner
                // went out, that is every active player.
                let owner_active = self.counts[self.owner] > 0;
                let needed = self.active() - usize::from(owner_active);
                if self.passes >= needed {
                    self.table = None;
                    self.passes = 0;
                    self.to_move = if owner_active {
                        self.owner
                    } else {
                        self.next_active(self.owner)
                    };
                } else {
                    self.to_move = self.next_active(seat);
                }
            }
        }
        Ok(())
    }

    /// The finishing order once the hand is over: the seats that went out, then the
    /// last seat holding cards.
    pub fn finishing_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = self.finished().collect();
        order.extend((0..self.players).filter(|&s| self.counts[s] > 0));
        order
    }
}

/// The points of the `k`-th seat out (1-based) with `players` players: `P - k + 1`,
/// so the last (still holding cards) scores 1.
pub const fn points_for_place(place: usize, players: usize) -> u32 {
    (players + 1 - place) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::cards::Rank;

    fn p(rank: u8, naturals: u8, jesters: u8) -> Action {
        Action::Play(Play::new(Rank::new(rank).unwrap(), naturals, jesters).unwrap())
    }

    #[test]
    fn titles_and_deal_sizes() {
        let t: Vec<&str> = (0..6).map(|s| Title::of_seat(s, 6).short()).collect();
        assert_eq!(t, ["GD", "LD", "M", "M", "LP", "GP"]);
        let t: Vec<&str> = (0..4).map(|s| Title::of_seat(s, 4).short()).collect();
        assert_eq!(t, ["GD", "LD", "LP", "GP"]);
        // 80 over 6: 14, 14, 13, 13, 13, 13 (extras to the higher titles).
        let d: Vec<u8> = (0..6).map(|s| deal_size(s, 6)).collect();
        assert_eq!(d, [14, 14, 13, 13, 13, 13]);
        assert_eq!((0..7).map(|s| u32::from(deal_size(s, 7))).sum::<u32>(), 80);
        assert_eq!(points_for_place(1, 5), 5);
        assert_eq!(points_for_place(5, 5), 1);
    }

    #[test]
    fn a_passed_player_plays_again_when_the_turn_returns() {
        let mut t = TurnState::new(&[5, 5, 5, 5]);
        t.apply(p(9, 1, 0)).unwrap(); // seat 0 leads
        t.apply(Action::Pass).unwrap(); // seat 1 passes
        t.apply(p(8, 1, 0)).unwrap(); // seat 2
        t.apply(Action::Pass).unwrap(); // seat 3
        t.apply(Action::Pass).unwrap(); // seat 0
        assert_eq!(t.to_act(), 1, "seat 1 passed before, and may act again");
        t.apply(p(2, 1, 0)).unwrap(); // seat 1 re-enters
        assert_eq!(t.owner(), 1);
        for _ in 0..3 {
            t.apply(Action::Pass).unwrap();
        }
        assert_eq!(t.table(), None);
        assert_eq!(t.to_act(), 1, "the last to play leads");
        assert_eq!(t.apply(Action::Pass), Err(TurnError::LeaderPassed));
    }

    #[test]
    fn the_lead_passes_clockwise_when_the_last_player_went_out() {
        let mut t = TurnState::new(&[2, 5, 5, 5]);
        t.apply(p(9, 2, 0)).unwrap(); // seat 0 goes out
        assert_eq!(t.finished().collect::<Vec<_>>(), vec![0]);
        assert_eq!(t.to_act(), 1);
        t.apply(Action::Pass).unwrap();
        t.apply(Action::Pass).unwrap();
        assert!(t.table().is_some(), "seat 3 has not passed yet");
        t.apply(Action::Pass).unwrap();
        assert_eq!(t.table(), None);
        assert_eq!(
            t.to_act(),
            1,
            "next seat clockwise from the player who went out"
        );
    }

    #[test]
    fn the_hand_ends_when_one_player_holds_cards() {
        let mut t = TurnState::new(&[1, 1, 1, 3]);
        t.apply(p(12, 1, 0)).unwrap();
        t.apply(p(11, 1, 0)).unwrap();
        t.apply(p(10, 1, 0)).unwrap();
        assert!(t.is_over());
        assert_eq!(t.finishing_order(), vec![0, 1, 2, 3]);
        assert_eq!(t.apply(Action::Pass), Err(TurnError::HandOver));
    }
}
