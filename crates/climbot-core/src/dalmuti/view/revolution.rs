//! A revolution: one declared this hand (the declarer showed both Jesters, so no other
//! hand holds one), or the revolution phase, where the holder of both Jesters decides.

use super::input::RevolutionInput;
use super::{DalmutiView, Revolution};
use crate::dalmuti::cards::Cards;
use crate::dalmuti::turn::deal_size;
use crate::view_error::{ViewError, refuse};

/// The revolution declared this hand, if any, against the seating and the Jesters
/// this seat holds or saw played.
pub(super) fn parse(
    revolution: Option<RevolutionInput>,
    players: usize,
    me: usize,
    hand: Cards,
    played: Cards,
) -> Result<Option<Revolution>, ViewError> {
    let Some(r) = revolution else {
        return Ok(None);
    };
    let seat = r.seat as usize;
    if seat >= players {
        return refuse(
            "revolution.seat",
            format!("seat {seat} with only {players} seats"),
        );
    }
    if r.greater && seat != 0 {
        return refuse(
            "revolution",
            "after a Greater Revolution the declarer (the old GP) is the GD, seat 0",
        );
    }
    if !r.greater && seat == players - 1 {
        return refuse(
            "revolution",
            "a revolution by the GP is always a Greater Revolution",
        );
    }
    let jesters = hand.jesters();
    if seat == me && jesters + played.jesters() != 2 {
        return refuse(
            "hand.counts[12]",
            format!(
                "this seat declared with both Jesters but holds {jesters} and {} were played",
                played.jesters()
            ),
        );
    }
    if seat != me && jesters != 0 {
        return refuse(
            "hand.counts[12]",
            format!("seat {seat} declared with both Jesters, yet this hand holds {jesters}"),
        );
    }
    Ok(Some(Revolution {
        seat,
        greater: r.greater,
    }))
}

impl DalmutiView {
    /// The revolution phase: the seat holds both Jesters, nothing is declared, owed
    /// or played yet, and every seat holds what it was dealt.
    pub(super) fn check_revolution_phase(&self) -> Result<(), ViewError> {
        if self.hand.jesters() != 2 {
            return refuse(
                "hand.counts[12]",
                format!(
                    "only the holder of both Jesters decides a revolution; this hand has {}",
                    self.hand.jesters()
                ),
            );
        }
        if self.tax_return.is_some() {
            return refuse("tax_return", "present in the revolution phase");
        }
        if self.revolution.is_some() {
            return refuse(
                "revolution",
                "already declared, yet a revolution is still asked for",
            );
        }
        self.check_pre_play()?;
        let players = self.players();
        for (i, s) in self.seats.iter().enumerate() {
            let dealt = deal_size(i, players);
            if s.card_count != dealt {
                return refuse(
                    format!("seats[{i}].card_count"),
                    format!(
                        "{} cards right after the deal, but seat {i} is dealt {dealt}",
                        s.card_count
                    ),
                );
            }
        }
        Ok(())
    }
}
