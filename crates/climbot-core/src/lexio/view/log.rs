//! The public log of the round: each entry read on its own, then the whole log
//! replayed against the rest of the view.

use super::input::LogEntry;
use super::tiles;
use super::{Action, LoggedAction};
use crate::lexio::combos::Combo;
use crate::lexio::tiles::{PlayerCount, TileSet};
use crate::view_error::{ViewError, refuse};

/// Each entry a client sent: a legal combination or a pass, by a seat at the table.
pub(super) fn parse(
    log: &[LogEntry],
    players: PlayerCount,
) -> Result<Vec<LoggedAction>, ViewError> {
    let p = players.count();
    let mut out = Vec::with_capacity(log.len());
    for (i, entry) in log.iter().enumerate() {
        let (seat, action) = match entry {
            LogEntry::Pass { seat } => (*seat, Action::Pass),
            LogEntry::Play { seat, tiles } => {
                let combo = tiles::combo(|| format!("log[{i}].tiles"), tiles, players)?;
                (*seat, Action::Play(combo))
            }
        };
        if seat as usize >= p {
            return refuse(
                format!("log[{i}].seat"),
                format!("seat {seat} is out of range for {p} players"),
            );
        }
        out.push(LoggedAction {
            seat: seat as u8,
            action,
        });
    }
    Ok(out)
}

/// Replays a complete round log and checks it against the rest of the view.
pub(super) fn check(
    players: PlayerCount,
    seat: usize,
    table: Option<(Combo, usize)>,
    counts: &[u8; 5],
    played: TileSet,
    log: &[LoggedAction],
) -> Result<(), ViewError> {
    let p = players.count();
    let mut seen = TileSet::EMPTY;
    let mut held = [players.hand_size() as i32; 5];
    let mut trick: Option<(Combo, usize)> = None;
    let mut passes = 0usize;
    for (i, entry) in log.iter().enumerate() {
        let s = entry.seat as usize;
        if i > 0 {
            let expected = (log[i - 1].seat as usize + 1) % p;
            if s != expected {
                return refuse(
                    format!("log[{i}].seat"),
                    format!("seat {s} acted but seat {expected} was next"),
                );
            }
        }
        match entry.action {
            Action::Pass => {
                if trick.is_none() {
                    return refuse(
                        format!("log[{i}]"),
                        "a pass on an empty table (the leader must play)",
                    );
                }
                passes += 1;
                // Everyone else passed in succession: the trick ends and its owner,
                // who is next in turn order, leads.
                if passes == p - 1 {
                    trick = None;
                    passes = 0;
                }
            }
            Action::Play(c) => {
                if let Some(t) = c.tiles().intersection(seen).lowest() {
                    return refuse(
                        format!("log[{i}].tiles"),
                        format!("tile {t:?} was already played earlier in the log"),
                    );
                }
                if let Some(t) = c.tiles().difference(played).lowest() {
                    return refuse(
                        format!("log[{i}].tiles"),
                        format!("tile {t:?} is not among the played tiles"),
                    );
                }
                if let Some((top, _)) = trick
                    && !c.beats(top)
                {
                    return refuse(
                        format!("log[{i}].tiles"),
                        format!("{c:?} does not beat the table {top:?}"),
                    );
                }
                seen = seen.union(c.tiles());
                held[s] -= c.len() as i32;
                if held[s] <= 0 {
                    return refuse(
                        format!("log[{i}]"),
                        format!("seat {s} would have emptied its hand: the round is over"),
                    );
                }
                trick = Some((c, s));
                passes = 0;
            }
        }
    }
    if let Some(t) = played.difference(seen).lowest() {
        return refuse(
            "log",
            format!("tile {t:?} is in played but no play in the log holds it"),
        );
    }
    for (i, &h) in held.iter().enumerate().take(p) {
        if h != i32::from(counts[i]) {
            return refuse(
                format!("seats[{i}].tile_count"),
                format!("{} but the log leaves this seat {h} tiles", counts[i]),
            );
        }
    }
    let open = trick.map(|(c, _)| c);
    if open != table.map(|(c, _)| c) {
        return refuse(
            "table",
            format!("does not match the open trick in the log ({open:?})"),
        );
    }
    if let (Some((_, logged)), Some((_, owner))) = (trick, table)
        && logged != owner
    {
        return refuse(
            "table.owner",
            format!("seat {owner}, but the log's last play is seat {logged}'s"),
        );
    }
    let next = (log[log.len() - 1].seat as usize + 1) % p;
    if next != seat {
        return refuse(
            "log",
            format!("seat {next} acts next after the log, not seat {seat}"),
        );
    }
    Ok(())
}
