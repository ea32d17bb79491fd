//! The Great Dalmuti on the wire: `pb::DalmutiView` -> `dalmuti::DalmutiView` and
//! `dalmuti::DalmutiDecision` <-> `pb::DalmutiDecision`. Only wire shapes are checked
//! here (an enum value outside the enum, a log entry with neither pass nor play); every
//! game rule is checked by
//! `DalmutiView::new`, whose field names match the proto's and get the `view.dalmuti.`
//! prefix.

use crate::dalmuti::cards::{Cards, Rank};
use crate::dalmuti::plays::Play;
use crate::dalmuti::turn::Title;
use crate::dalmuti::view::{
    CardsInput, LogEntryInput, PlayInput, RevolutionInput, SeatInput, TaxKnownInput, TaxReturnInput,
};
use crate::dalmuti::{Dalmuti, DalmutiDecision, DalmutiView, DalmutiViewInput, Phase, is_legal};
use crate::game::GameKind;
use crate::pb;
use crate::service::error::ServiceError;
use crate::service::game::{WireGame, read_each};

const PREFIX: &str = "view.dalmuti";

/// Converts and validates a wire view.
pub fn decode(view: pb::DalmutiView) -> Result<DalmutiView, ServiceError> {
    let phase = phase_from_wire(view.phase)?;
    let hand = match view.hand {
        Some(cards) => CardsInput {
            counts: cards.counts,
        },
        None => {
            return Err(ServiceError::invalid(
                format!("{PREFIX}.hand"),
                "required: the 13 per-rank counts of the seat's hand",
            ));
        }
    };
    // An absent `played` means nothing played yet.
    let played = CardsInput {
        counts: view.played.map_or_else(|| vec![0; 13], |c| c.counts),
    };
    let table = view.table.as_ref().map(play_input);
    let seats = read_each(&view.seats, |i, s| {
        Ok(SeatInput {
            card_count: s.card_count,
            title: title_from_wire(s.title, &|| format!("{PREFIX}.seats[{i}].title"))?,
            finished: s.finished,
            score: s.score,
        })
    })?;
    let log = read_each(&view.log, |i, entry| {
        let play = match &entry.action {
            Some(pb::dalmuti_log_entry::Action::Pass(_)) => None,
            Some(pb::dalmuti_log_entry::Action::Play(p)) => Some(play_input(p)),
            None => {
                return Err(ServiceError::invalid(
                    format!("{PREFIX}.log[{i}]"),
                    "neither pass nor play is set",
                ));
            }
        };
        Ok(LogEntryInput {
            seat: entry.seat,
            play,
        })
    })?;
    let input = DalmutiViewInput {
        seat: view.seat,
        phase,
        hand,
        table,
        seats,
        played,
        log,
        hand_number: view.hand_number,
        hands_left: view.hands_left,
        tax_return: view.tax_return.map(|t| TaxReturnInput {
            count: t.count,
            to: t.to,
        }),
        revolution: view.revolution.map(|r| RevolutionInput {
            seat: r.seat,
            greater: r.greater,
        }),
        // Absent card sets are empty: `received` then fails its count check by name.
        tax_known: view.tax_known.map(|t| TaxKnownInput {
            with_seat: t.with_seat,
            received: CardsInput {
                counts: t.received.map_or_else(|| vec![0; 13], |c| c.counts),
            },
            given: CardsInput {
                counts: t.given.map_or_else(|| vec![0; 13], |c| c.counts),
            },
        }),
    };
    DalmutiView::new(input).map_err(ServiceError::invalid_view::<Dalmuti>)
}

fn phase_from_wire(value: i32) -> Result<Phase, ServiceError> {
    match pb::DalmutiPhase::try_from(value) {
        Ok(pb::DalmutiPhase::Play) => Ok(Phase::Play),
        Ok(pb::DalmutiPhase::TaxReturn) => Ok(Phase::TaxReturn),
        Ok(pb::DalmutiPhase::Revolution) => Ok(Phase::Revolution),
        Ok(pb::DalmutiPhase::Unspecified) => Err(ServiceError::invalid(
            format!("{PREFIX}.phase"),
            "phase is unspecified (expected DALMUTI_PHASE_PLAY, DALMUTI_PHASE_TAX_RETURN or DALMUTI_PHASE_REVOLUTION)",
        )),
        Err(_) => Err(ServiceError::invalid(
            format!("{PREFIX}.phase"),
            format!("unknown phase {value} (expected 1..=3)"),
        )),
    }
}

fn phase_to_wire(phase: Phase) -> pb::DalmutiPhase {
    match phase {
        Phase::Play => pb::DalmutiPhase::Play,
        Phase::TaxReturn => pb::DalmutiPhase::TaxReturn,
        Phase::Revolution => pb::DalmutiPhase::Revolution,
    }
}

/// `path` names the field, built only for an error.
fn title_from_wire(value: i32, path: &dyn Fn() -> String) -> Result<Title, ServiceError> {
    match pb::DalmutiTitle::try_from(value) {
        Ok(pb::DalmutiTitle::GreaterDalmuti) => Ok(Title::GreaterDalmuti),
        Ok(pb::DalmutiTitle::LesserDalmuti) => Ok(Title::LesserDalmuti),
        Ok(pb::DalmutiTitle::Merchant) => Ok(Title::Merchant),
        Ok(pb::DalmutiTitle::LesserPeon) => Ok(Title::LesserPeon),
        Ok(pb::DalmutiTitle::GreaterPeon) => Ok(Title::GreaterPeon),
        Ok(pb::DalmutiTitle::Unspecified) => Err(ServiceError::invalid(
            path(),
            "title is unspecified (expected the title of the seat's position)",
        )),
        Err(_) => Err(ServiceError::invalid(
            path(),
            format!("unknown title {value} (expected 1..=5)"),
        )),
    }
}

fn title_to_wire(title: Title) -> pb::DalmutiTitle {
    match title {
        Title::GreaterDalmuti => pb::DalmutiTitle::GreaterDalmuti,
        Title::LesserDalmuti => pb::DalmutiTitle::LesserDalmuti,
        Title::Merchant => pb::DalmutiTitle::Merchant,
        Title::LesserPeon => pb::DalmutiTitle::LesserPeon,
        Title::GreaterPeon => pb::DalmutiTitle::GreaterPeon,
    }
}

/// A wire set as the domain's unchecked input (the domain checks the set).
fn play_input(wire: &pb::DalmutiPlay) -> PlayInput {
    PlayInput {
        rank: wire.rank,
        naturals: wire.naturals,
        jesters: wire.jesters,
    }
}

fn play_to_wire(play: Play) -> pb::DalmutiPlay {
    pb::DalmutiPlay {
        rank: u32::from(play.rank().get()),
        naturals: u32::from(play.naturals()),
        jesters: u32::from(play.jesters()),
    }
}

fn play_input_to_wire(play: PlayInput) -> pb::DalmutiPlay {
    pb::DalmutiPlay {
        rank: play.rank,
        naturals: play.naturals,
        jesters: play.jesters,
    }
}

fn cards_to_wire(cards: Cards) -> pb::DalmutiCards {
    pb::DalmutiCards {
        counts: cards.counts().iter().map(|&c| u32::from(c)).collect(),
    }
}

fn cards_input_to_wire(cards: CardsInput) -> pb::DalmutiCards {
    pb::DalmutiCards {
        counts: cards.counts,
    }
}

/// A wire set as a domain play, if it is one (for reading decisions).
fn play_from_wire(wire: &pb::DalmutiPlay) -> Option<Play> {
    let input = play_input(wire);
    let rank = u8::try_from(input.rank).ok().and_then(Rank::new)?;
    let naturals = u8::try_from(input.naturals).ok()?;
    let jesters = u8::try_from(input.jesters).ok()?;
    Play::new(rank, naturals, jesters).ok()
}

/// Wire counts as domain cards, if they are 13 counts within the deck.
fn cards_from_wire(wire: &pb::DalmutiCards) -> Option<Cards> {
    let counts: [u32; 13] = wire.counts.as_slice().try_into().ok()?;
    let mut small = [0u8; 13];
    for (out, c) in small.iter_mut().zip(counts) {
        *out = u8::try_from(c).ok()?;
    }
    Cards::from_counts(small)
}

/// The seat of `player` in a hand in play and that seat's own part, on the wire, for
/// a page that follows the player between its turns: a view holding only the seat, its
/// hand, every seat's public card count, title, finish and score, and the hand number
/// (the rest is left empty).
pub fn own_part_to_wire(
    state: &crate::dalmuti::referee::HandState,
    player: usize,
) -> pb::DalmutiView {
    let p = state.players();
    let seat = (0..p)
        .find(|&s| state.player_at(s) == player)
        .unwrap_or(player);
    pb::DalmutiView {
        seat: seat as u32,
        hand: Some(cards_to_wire(state.hand(seat))),
        seats: (0..p)
            .map(|s| {
                let card_count = state.hand(s).len();
                pb::DalmutiSeat {
                    card_count,
                    title: title_to_wire(Title::of_seat(s, p)) as i32,
                    finished: state.turn().is_some() && card_count == 0,
                    score: state.score(s),
                }
            })
            .collect(),
        hand_number: state.hand_number(),
        ..Default::default()
    }
}

/// A validated view back on the wire (for clients written in Rust: the arena's remote
/// mode and the load-test payloads). Decoding the result gives the same view.
pub fn view_to_wire(view: &DalmutiView) -> pb::DalmutiView {
    let input = view.to_input();
    pb::DalmutiView {
        seat: input.seat,
        phase: phase_to_wire(input.phase) as i32,
        hand: Some(cards_input_to_wire(input.hand)),
        table: input.table.map(play_input_to_wire),
        seats: input
            .seats
            .iter()
            .map(|s| pb::DalmutiSeat {
                card_count: s.card_count,
                title: title_to_wire(s.title) as i32,
                finished: s.finished,
                score: s.score,
            })
            .collect(),
        played: Some(cards_input_to_wire(input.played)),
        log: input
            .log
            .iter()
            .map(|e| pb::DalmutiLogEntry {
                seat: e.seat,
                action: Some(match e.play {
                    None => pb::dalmuti_log_entry::Action::Pass(pb::DalmutiPass {}),
                    Some(p) => pb::dalmuti_log_entry::Action::Play(play_input_to_wire(p)),
                }),
            })
            .collect(),
        hand_number: input.hand_number,
        hands_left: input.hands_left,
        tax_return: input.tax_return.map(|t| pb::DalmutiTaxDuty {
            count: t.count,
            to: t.to,
        }),
        revolution: input.revolution.map(|r| pb::DalmutiRevolution {
            seat: r.seat,
            greater: r.greater,
        }),
        tax_known: input.tax_known.map(|t| pb::DalmutiTaxKnown {
            with_seat: t.with_seat,
            received: Some(cards_input_to_wire(t.received)),
            given: Some(cards_input_to_wire(t.given)),
        }),
    }
}

/// A wire decision read back against the view it answers: `None` unless it is
/// well-formed and legal there.
pub fn decision_from_wire(
    view: &DalmutiView,
    decision: &pb::DalmutiDecision,
) -> Option<DalmutiDecision> {
    let decoded = match decision.decision.as_ref()? {
        pb::dalmuti_decision::Decision::Pass(_) => DalmutiDecision::Pass,
        pb::dalmuti_decision::Decision::Play(p) => DalmutiDecision::Play(play_from_wire(p)?),
        pb::dalmuti_decision::Decision::TaxReturn(c) => {
            DalmutiDecision::TaxReturn(cards_from_wire(c)?)
        }
        pb::dalmuti_decision::Decision::Revolution(r) => DalmutiDecision::Revolution(r.declare),
    };
    is_legal(view, &decoded).then_some(decoded)
}

/// A domain decision on the wire.
pub fn decision_to_wire(decision: &DalmutiDecision) -> pb::DalmutiDecision {
    let decision = match *decision {
        DalmutiDecision::Pass => pb::dalmuti_decision::Decision::Pass(pb::DalmutiPass {}),
        DalmutiDecision::Play(p) => pb::dalmuti_decision::Decision::Play(play_to_wire(p)),
        DalmutiDecision::TaxReturn(c) => {
            pb::dalmuti_decision::Decision::TaxReturn(cards_to_wire(c))
        }
        DalmutiDecision::Revolution(declare) => {
            pb::dalmuti_decision::Decision::Revolution(pb::DalmutiRevolutionChoice { declare })
        }
    };
    pb::DalmutiDecision {
        decision: Some(decision),
    }
}

impl WireGame for Dalmuti {
    const KIND: GameKind = GameKind::Dalmuti;

    fn view_to_wire(view: &DalmutiView) -> pb::game_view::Game {
        pb::game_view::Game::Dalmuti(view_to_wire(view))
    }

    fn decision_to_wire(decision: &DalmutiDecision) -> pb::decision::Game {
        pb::decision::Game::Dalmuti(decision_to_wire(decision))
    }

    fn decision_from_wire(
        view: &DalmutiView,
        decision: &pb::decision::Game,
    ) -> Option<DalmutiDecision> {
        match decision {
            pb::decision::Game::Dalmuti(d) => decision_from_wire(view, d),
            _ => None,
        }
    }

    fn legal_decisions_to_wire(
        decisions: &[DalmutiDecision],
    ) -> pb::list_legal_plays_response::Game {
        pb::list_legal_plays_response::Game::Dalmuti(pb::DalmutiLegalPlays {
            decisions: decisions.iter().map(decision_to_wire).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::bots::easy::easy_decision;
    use crate::dalmuti::legal_decisions;
    use crate::dalmuti::referee::{HandState, deal};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use std::collections::HashSet;

    /// Every view of a refereed hand survives the wire, and so does every legal
    /// decision of it; an illegal decision does not come back.
    fn check_hand(state: &mut HandState, phases: &mut HashSet<&'static str>) {
        while let Some(view) = state.view().unwrap() {
            phases.insert(match view.phase() {
                Phase::Play if view.table().is_none() => "lead",
                Phase::Play => "follow",
                Phase::TaxReturn => "tax",
                Phase::Revolution => "revolution",
            });
            if view.revolution().is_some() {
                phases.insert("after revolution");
            }
            let wire = view_to_wire(&view);
            let back = decode(wire).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(back, view);
            assert_eq!(back.fingerprint(), view.fingerprint());
            for d in legal_decisions(&view) {
                assert_eq!(decision_from_wire(&view, &decision_to_wire(&d)), Some(d));
            }
            let wrong_phase = match view.phase() {
                Phase::Play => DalmutiDecision::Revolution(true),
                _ => DalmutiDecision::Pass,
            };
            assert_eq!(
                decision_from_wire(&view, &decision_to_wire(&wrong_phase)),
                None
            );
            state.apply(easy_decision(&view), "easy").unwrap();
        }
    }

    #[test]
    fn views_and_decisions_round_trip_through_the_wire() {
        let mut phases = HashSet::new();
        for (players, seed) in [(4, 1u64), (5, 2), (6, 3), (7, 4)] {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut hands = deal(players, &mut rng);
            let seating: Vec<usize> = (0..players).collect();
            let scores = vec![0; players];
            // Hand 2 with taxes (no one holds both Jesters).
            if let Some(s) = (0..players).find(|&s| hands[s].jesters() == 2) {
                let other = (s + 1) % players;
                let j = Cards::EMPTY.with(Rank::JESTER, 1);
                let swap = Cards::EMPTY.with(hands[other].iter().next().unwrap(), 1);
                hands[s] = hands[s].difference(j).union(swap);
                hands[other] = hands[other].difference(swap).union(j);
            }
            check_hand(
                &mut HandState::new(&hands, &seating, &scores, 2, 5),
                &mut phases,
            );
            // Both Jesters with the Greater Peon: the easy bot declares a Greater
            // Revolution in hand 1, so the play phase runs mirrored.
            let gp = players - 1;
            let holder = (0..players).find(|&s| hands[s].jesters() > 0).unwrap();
            if holder != gp {
                let j = Cards::EMPTY.with(Rank::JESTER, 1);
                let swap = Cards::EMPTY.with(hands[gp].iter().next().unwrap(), 1);
                hands[holder] = hands[holder].difference(j).union(swap);
                hands[gp] = hands[gp].difference(swap).union(j);
            }
            let mut others = (0..players).filter(|&s| s != gp && hands[s].jesters() > 0);
            if let Some(s) = others.next() {
                let swap = Cards::EMPTY.with(hands[gp].iter().next().unwrap(), 1);
                let j = Cards::EMPTY.with(Rank::JESTER, 1);
                hands[s] = hands[s].difference(j).union(swap);
                hands[gp] = hands[gp].difference(swap).union(j);
            }
            assert_eq!(hands[gp].jesters(), 2);
            check_hand(
                &mut HandState::new(&hands, &seating, &scores, 1, 19),
                &mut phases,
            );
        }
        for phase in ["lead", "follow", "tax", "revolution", "after revolution"] {
            assert!(phases.contains(phase), "no {phase} view was checked");
        }
    }

    #[test]
    fn malformed_decisions_are_not_read() {
        let view = DalmutiView::new(crate::dalmuti::referee::opening_view_input(5, 9)).unwrap();
        let lead = easy_decision(&view);
        let mut wire = decision_to_wire(&lead);
        assert_eq!(decision_from_wire(&view, &wire), Some(lead));
        if let Some(pb::dalmuti_decision::Decision::Play(p)) = wire.decision.as_mut() {
            p.jesters = 3;
        }
        assert_eq!(decision_from_wire(&view, &wire), None);
        assert_eq!(
            decision_from_wire(&view, &pb::DalmutiDecision { decision: None }),
            None
        );
    }
}
