//! The public log of the hand's play phase: each entry read on its own, then replayed
//! from the deal, so that the table, the turn, the counts and the played cards agree.

use super::cards::parse_play;
use super::input::LogEntryInput;
use super::{DalmutiView, LogEntry};
use crate::dalmuti::cards::Cards;
use crate::dalmuti::turn::{Action, MAX_PLAYERS, TurnState, deal_size};
use crate::view_error::{ViewError, refuse};

/// Each entry a client sent: a seat at the table, and a pass or a well-formed play.
pub(super) fn parse(log: &[LogEntryInput], players: usize) -> Result<Vec<LogEntry>, ViewError> {
    let mut out = Vec::with_capacity(log.len());
    for (i, e) in log.iter().enumerate() {
        if e.seat as usize >= players {
            return refuse(
                format!("log[{i}].seat"),
                format!("seat {} with only {players} seats", e.seat),
            );
        }
        let action = match &e.play {
            Some(p) => Action::Play(parse_play(p, &format_args!("log[{i}].play"))?),
            None => Action::Pass,
        };
        out.push(LogEntry {
            seat: e.seat as usize,
            action,
        });
    }
    Ok(out)
}

impl DalmutiView {
    /// The play phase: nothing owed, a hand left, and the log replayed from the deal
    /// (the turn state it leaves is kept).
    pub(super) fn check_play_phase(&mut self) -> Result<(), ViewError> {
        if self.tax_return.is_some() {
            return refuse("tax_return", "present in the play phase");
        }
        if self.hand.is_empty() {
            return refuse("hand", "empty in the play phase: this seat has gone out");
        }
        let players = self.players();
        let mut played_by = [0u32; MAX_PLAYERS];
        let mut log_cards = Cards::EMPTY;
        for (i, e) in self.log.iter().enumerate() {
            if let Action::Play(p) = e.action {
                played_by[e.seat] += u32::from(p.size());
                if !(log_cards.union(p.cards()))
                    .counts()
                    .iter()
                    .zip(Cards::FULL_DECK.counts())
                    .all(|(a, b)| *a <= b)
                {
                    return refuse(
                        format!("log[{i}].play"),
                        "the log plays more cards of this rank than the deck holds",
                    );
                }
                log_cards = log_cards.union(p.cards());
                if let Some(r) = self.revolution
                    && r.seat != e.seat
                    && p.jesters() > 0
                {
                    return refuse(
                        format!("log[{i}].play"),
                        format!(
                            "seat {} plays a Jester, but seat {} showed both",
                            e.seat, r.seat
                        ),
                    );
                }
            }
        }
        if log_cards != self.played {
            return refuse(
                "log",
                format!(
                    "the logged plays add up to {log_cards:?}, but played is {:?}",
                    self.played
                ),
            );
        }
        let greater = self.revolution.is_some_and(|r| r.greater);
        let mut start = [0u8; MAX_PLAYERS];
        for i in 0..players {
            // After a Greater Revolution the seating is mirrored and hands move with
            // their players, so seat i holds what seat P-1-i was dealt.
            let dealt = deal_size(if greater { players - 1 - i } else { i }, players);
            let total = u32::from(self.seats[i].card_count) + played_by[i];
            if total != u32::from(dealt) {
                return refuse(
                    format!("seats[{i}].card_count"),
                    format!(
                        "{} cards in hand and {} played in the log, but the seat started with {dealt}",
                        self.seats[i].card_count, played_by[i]
                    ),
                );
            }
            start[i] = dealt;
        }
        let mut turn = TurnState::new(&start[..players]);
        for (i, e) in self.log.iter().enumerate() {
            if turn.is_over() {
                return refuse(format!("log[{i}]"), "the hand was already over");
            }
            if e.seat != turn.to_act() {
                return refuse(
                    format!("log[{i}].seat"),
                    format!(
                        "seat {} acted, but it was seat {}'s turn",
                        e.seat,
                        turn.to_act()
                    ),
                );
            }
            if let Err(t) = turn.apply(e.action) {
                return refuse(format!("log[{i}]"), t.to_string());
            }
        }
        if turn.is_over() {
            return refuse("log", "the hand is over: only one seat holds cards");
        }
        if turn.to_act() != self.seat {
            return refuse(
                "seat",
                format!(
                    "it is seat {}'s turn, not seat {}'s",
                    turn.to_act(),
                    self.seat
                ),
            );
        }
        if turn.table() != self.table {
            return refuse(
                "table",
                format!(
                    "the log leaves {:?} on the table, not {:?}",
                    turn.table(),
                    self.table
                ),
            );
        }
        self.turn = Some(turn);
        Ok(())
    }
}
