//! The phase: the exchange (only the daifugo and the fugo give back, and nothing has
//! happened yet) or play (the deciding seat still in the trick).

use super::input::{DaifugoViewInput, PhaseInput};
use super::{Phase, SeatView};
use crate::daifugo::rules::Title;
use crate::view_error::{ViewError, refuse};

/// The phase a client sent, against the rest of its view.
pub(super) fn parse(
    input: &DaifugoViewInput,
    seats: &[SeatView],
    seat: usize,
    lock: u8,
    removed_unseen: usize,
) -> Result<Phase, ViewError> {
    let rules = &input.rules;
    let active = seats.iter().filter(|s| !s.finished).count();
    let phase = match input.phase {
        PhaseInput::Exchange { give } => {
            if !rules.exchange || input.game < 2 {
                return refuse("phase", "no exchange in this game");
            }
            let expected = match seats[seat].title {
                Title::Daifugo => 2,
                Title::Fugo => 1,
                other => {
                    return refuse("phase", format!("a {other:?} does not give cards back"));
                }
            };
            if give != expected {
                return refuse(
                    "phase.give",
                    format!("{give}; the {:?} gives back {expected}", seats[seat].title),
                );
            }
            if input.table.is_some() {
                return refuse("table", "the table is empty during the exchange");
            }
            if let Some(i) = input.played.first().map(|_| 0) {
                return refuse(
                    format!("played[{i}]"),
                    "nothing is played during the exchange",
                );
            }
            if !input.log.is_empty() {
                return refuse("log", "the log is empty during the exchange");
            }
            if input.revolution {
                return refuse("revolution", "each game starts in the normal order");
            }
            if input.jack_back {
                return refuse("jack_back", "no J-back during the exchange");
            }
            if lock != 0 {
                return refuse("lock", "no lock during the exchange");
            }
            if removed_unseen != 0 {
                return refuse("removed_unseen", "nothing is removed during the exchange");
            }
            for (i, s) in seats.iter().enumerate() {
                if s.passed {
                    return refuse(
                        format!("seats[{i}].passed"),
                        "no passes during the exchange",
                    );
                }
                if s.finished {
                    return refuse(
                        format!("seats[{i}].finished"),
                        "nobody is out during the exchange",
                    );
                }
            }
            Phase::Exchange {
                give: expected as usize,
            }
        }
        PhaseInput::Play => {
            if active < 2 {
                return refuse("seats", "the game is over (fewer than two active seats)");
            }
            if seats[seat].finished {
                return refuse(
                    format!("seats[{seat}].finished"),
                    "the deciding seat is out",
                );
            }
            if seats[seat].passed {
                return refuse(
                    format!("seats[{seat}].passed"),
                    "the deciding seat is locked out of this trick",
                );
            }
            Phase::Play
        }
    };
    Ok(phase)
}
