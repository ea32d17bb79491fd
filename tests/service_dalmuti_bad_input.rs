//! The catalogue of bad Dalmuti views: each is refused by both RPCs with
//! INVALID_ARGUMENT and a message that starts with the exact field path (from the
//! request root) followed by the reason. The views they are made from are accepted, so
//! no case passes by accident.
mod common;

use climbot::dalmuti::DalmutiView;
use climbot::dalmuti::bots::easy::easy_decision;
use climbot::dalmuti::cards::Cards;
use climbot::dalmuti::referee::{HandState, deal};
use climbot::dalmuti::turn::Action;
use climbot::pb;
use climbot::service::dalmuti::view_to_wire;
use common::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use tonic::Code;

const PLAYERS: usize = 5;
/// Cards of each rank in the deck (index 12: Jesters).
const DECK: [u32; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 2];

fn deal_where(hand_number: u32, want: impl Fn(&[Cards]) -> bool) -> HandState {
    for seed in 0..10_000 {
        let hands = deal(PLAYERS, &mut ChaCha8Rng::seed_from_u64(seed));
        if want(&hands) {
            let seating: Vec<usize> = (0..PLAYERS).collect();
            return HandState::new(&hands, &seating, &[0; PLAYERS], hand_number, 3);
        }
    }
    panic!("no deal found");
}

fn no_revolution(hands: &[Cards]) -> bool {
    hands.iter().all(|h| h.jesters() < 2)
}

fn advance(state: &mut HandState, stop: impl Fn(&DalmutiView) -> bool) -> pb::DalmutiView {
    loop {
        let view = state.view().unwrap().expect("the hand ended first");
        if stop(&view) {
            return view_to_wire(&view);
        }
        state.apply(easy_decision(&view), "easy").unwrap();
    }
}

/// Hand 1, 5 players: the Greater Dalmuti leads.
fn lead() -> pb::DalmutiView {
    advance(&mut deal_where(1, no_revolution), |_| true)
}

/// Hand 1 in progress: a table to beat, a log with plays and passes.
fn follow() -> pb::DalmutiView {
    advance(&mut deal_where(1, no_revolution), |v| {
        let passes = v.log().iter().filter(|e| e.action == Action::Pass).count();
        v.table().is_some() && passes >= 1 && v.log().len() >= 4
    })
}

/// Hand 2: the Greater Dalmuti returns 2 cards to the Greater Peon.
fn tax() -> pb::DalmutiView {
    let view = advance(&mut deal_where(2, no_revolution), |_| true);
    assert_eq!(view.phase, pb::DalmutiPhase::TaxReturn as i32);
    view
}

/// Hand 1: a Merchant (seat 2) holds both Jesters.
fn revolution() -> pb::DalmutiView {
    let view = advance(&mut deal_where(1, |h| h[2].jesters() == 2), |_| true);
    assert_eq!(view.phase, pb::DalmutiPhase::Revolution as i32);
    view
}

fn play(rank: u32, naturals: u32, jesters: u32) -> pb::DalmutiPlay {
    pb::DalmutiPlay {
        rank,
        naturals,
        jesters,
    }
}

struct Bad {
    name: &'static str,
    view: pb::DalmutiView,
    /// The message starts with this field path, then ": ".
    field: String,
    /// The reason contains this text.
    reason: String,
}

fn bad(
    name: &'static str,
    base: fn() -> pb::DalmutiView,
    field: impl Into<String>,
    reason: impl Into<String>,
    f: impl FnOnce(&mut pb::DalmutiView),
) -> Bad {
    let mut view = base();
    f(&mut view);
    Bad {
        name,
        view,
        field: format!("view.dalmuti.{}", field.into()),
        reason: reason.into(),
    }
}

fn catalogue() -> Vec<Bad> {
    let follow_view = follow();
    // A rank partly played in the follow view, and one with room left in the deck.
    let played = follow_view.played.as_ref().unwrap().counts.clone();
    let hand = follow_view.hand.as_ref().unwrap().counts.clone();
    let some_played = (0..13).find(|&i| played[i] > 0).unwrap();
    let room = (0..12)
        .find(|&i| i != some_played && hand[i] + played[i] < DECK[i])
        .unwrap();
    let first_pass = follow_view
        .log
        .iter()
        .position(|e| matches!(e.action, Some(pb::dalmuti_log_entry::Action::Pass(_))))
        .unwrap();
    let me = follow_view.seat as usize;
    let other = (me + 1) % PLAYERS;

    vec![
        // Wire shapes.
        bad("unknown phase", lead, "phase", "unknown phase 9", |v| {
            v.phase = 9
        }),
        bad("unspecified phase", lead, "phase", "unspecified", |v| {
            v.phase = 0
        }),
        bad(
            "unknown title",
            lead,
            "seats[2].title",
            "unknown title 42",
            |v| v.seats[2].title = 42,
        ),
        bad(
            "unspecified title",
            follow,
            "seats[4].title",
            "unspecified",
            |v| v.seats[4].title = 0,
        ),
        bad("no hand", lead, "hand", "required", |v| v.hand = None),
        bad(
            "12 counts in the hand",
            lead,
            "hand.counts",
            "expected 13 counts",
            |v| {
                v.hand.as_mut().unwrap().counts.pop();
            },
        ),
        bad(
            "14 counts in played",
            follow,
            "played.counts",
            "got 14",
            |v| v.played.as_mut().unwrap().counts.push(0),
        ),
        bad(
            "log entry with neither pass nor play",
            follow,
            format!("log[{first_pass}]"),
            "neither pass nor play",
            move |v| v.log[first_pass].action = None,
        ),
        // Seats and counts.
        bad(
            "seat out of range",
            lead,
            "seat",
            "seat 7 with only 5 seats",
            |v| v.seat = 7,
        ),
        bad("three seats", lead, "seats", "3 seats", |v| {
            v.seats.truncate(3)
        }),
        bad(
            "title of another position",
            lead,
            "seats[1].title",
            "seat 1 of 5 is LD, not GP",
            |v| v.seats[1].title = pb::DalmutiTitle::GreaterPeon as i32,
        ),
        bad(
            "more of a rank than the deck",
            lead,
            "hand.counts[0]",
            "the deck holds 1 of rank 1",
            |v| v.hand.as_mut().unwrap().counts[0] = 2,
        ),
        bad(
            "three Jesters",
            lead,
            "hand.counts[12]",
            "the deck holds 2 of Jesters",
            |v| v.hand.as_mut().unwrap().counts[12] = 3,
        ),
        bad(
            "hand and played beyond the deck",
            follow,
            format!("hand.counts[{some_played}]"),
            "played, but the deck holds",
            move |v| {
                let c = v.played.as_ref().unwrap().counts[some_played];
                v.hand.as_mut().unwrap().counts[some_played] = DECK[some_played] - c + 1;
            },
        ),
        bad(
            "own count is not the hand's size",
            lead,
            "seats[0].card_count",
            "but the hand holds",
            |v| v.seats[0].card_count += 1,
        ),
        bad(
            "the counts do not add up",
            lead,
            "seats",
            "the other seats hold 65 cards, but 64 are unseen",
            |v| v.seats[2].card_count += 1,
        ),
        bad(
            "finished with cards",
            lead,
            "seats[3].finished",
            "finished is true with 16 cards",
            |v| v.seats[3].finished = true,
        ),
        bad(
            "score beyond the possible",
            lead,
            "seats[0].score",
            "more than 5 possible by hand 1",
            |v| v.seats[0].score = 6,
        ),
        bad(
            "hand number 0",
            lead,
            "hand_number",
            "numbered from 1",
            |v| v.hand_number = 0,
        ),
        // Impossible sets.
        bad(
            "table of Jesters with naturals",
            follow,
            "table",
            "Jesters alone have rank 13",
            |v| v.table = Some(play(13, 2, 0)),
        ),
        bad(
            "table with more naturals than the deck",
            follow,
            "table",
            "more natural cards than the deck holds",
            |v| v.table = Some(play(3, 4, 0)),
        ),
        bad(
            "table of rank 0",
            follow,
            "table",
            "rank 0 is not in 1..=13",
            |v| v.table = Some(play(0, 1, 0)),
        ),
        bad(
            "table of three Jesters",
            follow,
            "table",
            "at most 2 Jesters",
            |v| v.table = Some(play(5, 1, 3)),
        ),
        // The log against the rest of the view.
        bad(
            "table not what the log leaves",
            follow,
            "table",
            "the log leaves",
            move |v| {
                let t = v.table.as_mut().unwrap();
                t.rank = if t.rank == 12 { 11 } else { 12 };
            },
        ),
        bad(
            "a table while the seat leads",
            lead,
            "table",
            "the log leaves None on the table",
            |v| v.table = Some(play(12, 1, 0)),
        ),
        bad(
            "played disagrees with the log",
            follow,
            "log",
            "the logged plays add up to",
            move |v| {
                let p = v.played.as_mut().unwrap();
                p.counts[some_played] -= 1;
                p.counts[room] += 1;
            },
        ),
        bad(
            "log seat out of range",
            follow,
            format!("log[{first_pass}].seat"),
            "seat 9 with only 5 seats",
            move |v| v.log[first_pass].seat = 9,
        ),
        bad(
            "a pass out of turn",
            follow,
            format!("log[{first_pass}].seat"),
            "acted, but it was seat",
            move |v| {
                let s = v.log[first_pass].seat;
                v.log[first_pass].seat = (s + 2) % PLAYERS as u32;
            },
        ),
        bad(
            "the leader passes",
            follow,
            "log[0]",
            "the leader must play",
            |v| {
                // A pass does not change what anyone holds or played: only the turn
                // flow is wrong.
                let pass = pb::dalmuti_log_entry::Action::Pass(pb::DalmutiPass {});
                v.log.insert(
                    0,
                    pb::DalmutiLogEntry {
                        seat: 0,
                        action: Some(pass),
                    },
                );
            },
        ),
        bad(
            "empty hand in the play phase",
            follow,
            "hand",
            "empty in the play phase",
            move |v| {
                let n = v.seats[me].card_count;
                v.hand.as_mut().unwrap().counts = vec![0; 13];
                v.seats[me].card_count = 0;
                v.seats[me].finished = true;
                v.seats[other].card_count += n;
            },
        ),
        bad(
            "not this seat's turn",
            lead,
            "seat",
            "it is seat 0's turn, not seat 1's",
            |v| {
                // Seats 0 and 1 are dealt the same number of cards here, so swapping
                // the hand's owner keeps the counts consistent.
                assert_eq!(v.seats[0].card_count, v.seats[1].card_count);
                v.seat = 1;
            },
        ),
        // Data missing or present for the wrong phase.
        bad(
            "tax duty in the play phase",
            lead,
            "tax_return",
            "present in the play phase",
            |v| v.tax_return = Some(pb::DalmutiTaxDuty { count: 2, to: 4 }),
        ),
        bad(
            "no tax duty in the tax-return phase",
            tax,
            "tax_return",
            "missing in the tax-return phase",
            |v| v.tax_return = None,
        ),
        bad(
            "a wrong tax duty",
            tax,
            "tax_return",
            "seat 0 owes 2 cards to seat 4, not 1 to seat 4",
            |v| v.tax_return.as_mut().unwrap().count = 1,
        ),
        bad(
            "taxes in the first hand",
            tax,
            "hand_number",
            "no taxes in the first hand",
            |v| v.hand_number = 1,
        ),
        bad(
            "a table in the tax-return phase",
            tax,
            "table",
            "no table before the play phase",
            |v| v.table = Some(play(12, 1, 0)),
        ),
        bad(
            "a log in the revolution phase",
            revolution,
            "log",
            "no plays before the play phase",
            |v| {
                v.log.push(pb::DalmutiLogEntry {
                    seat: 0,
                    action: Some(pb::dalmuti_log_entry::Action::Pass(pb::DalmutiPass {})),
                })
            },
        ),
        bad(
            "a revolution asked of a seat without both Jesters",
            lead,
            "hand.counts[12]",
            "only the holder of both Jesters",
            |v| v.phase = pb::DalmutiPhase::Revolution as i32,
        ),
        bad(
            "a revolution asked for after one was declared",
            revolution,
            "revolution",
            "already declared",
            |v| {
                v.revolution = Some(pb::DalmutiRevolution {
                    seat: 2,
                    greater: false,
                })
            },
        ),
        bad(
            "another seat declared while this one holds the Jesters",
            revolution,
            "hand.counts[12]",
            "seat 1 declared with both Jesters, yet this hand holds 2",
            |v| {
                v.revolution = Some(pb::DalmutiRevolution {
                    seat: 1,
                    greater: false,
                })
            },
        ),
        bad(
            "a Greater Revolution not seated at 0",
            follow,
            "revolution",
            "the GD, seat 0",
            |v| {
                v.revolution = Some(pb::DalmutiRevolution {
                    seat: 3,
                    greater: true,
                })
            },
        ),
        bad(
            "a revolution seat out of range",
            follow,
            "revolution.seat",
            "seat 5 with only 5 seats",
            |v| {
                v.revolution = Some(pb::DalmutiRevolution {
                    seat: 5,
                    greater: false,
                })
            },
        ),
        bad(
            "tax knowledge in hand 1",
            follow,
            "tax_known",
            "no taxes in this hand",
            |v| v.tax_known = tax().tax_known,
        ),
        bad(
            "a tax partner out of range",
            tax,
            "tax_known.with_seat",
            "seat 5 with only 5 seats",
            |v| v.tax_known.as_mut().unwrap().with_seat = 5,
        ),
        bad(
            "a tax partner of the wrong title",
            tax,
            "tax_known.with_seat",
            "with the GP",
            |v| v.tax_known.as_mut().unwrap().with_seat = 3,
        ),
        bad(
            "no cards received in taxes",
            tax,
            "tax_known.received",
            "receives 2",
            |v| v.tax_known.as_mut().unwrap().received = None,
        ),
        bad(
            "cards given back before choosing them",
            tax,
            "tax_known.given",
            "has given 0",
            |v| {
                let mut counts = vec![0; 13];
                counts[11] = 1;
                v.tax_known.as_mut().unwrap().given = Some(pb::DalmutiCards { counts });
            },
        ),
        bad(
            "tax cards with a short count list",
            tax,
            "tax_known.received.counts",
            "expected 13 counts",
            |v| {
                v.tax_known.as_mut().unwrap().received = Some(pb::DalmutiCards { counts: vec![1] });
            },
        ),
    ]
}

fn request(view: pb::DalmutiView) -> pb::SelectPlayRequest {
    pb::SelectPlayRequest {
        explain: false,
        view: Some(pb::GameView {
            game: Some(pb::game_view::Game::Dalmuti(view)),
        }),
        difficulty: pb::Difficulty::Easy as i32,
        seed: None,
        budget_ms: None,
        max_iterations: None,
        strength: None,
    }
}

#[tokio::test]
async fn every_bad_view_is_refused_naming_the_field() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let catalogue = catalogue();
    assert!(catalogue.len() >= 40, "{}", catalogue.len());
    let mut failures = Vec::new();
    for bad in catalogue {
        let request = request(bad.view);
        let expected = format!("{}: ", bad.field);
        let check = |status: &tonic::Status| {
            status.code() == Code::InvalidArgument
                && status.message().starts_with(&expected)
                && status.message()[expected.len()..].contains(&bad.reason)
        };
        let result = client.select_play(request.clone()).await;
        match &result {
            Err(status) if check(status) => {}
            other => failures.push(format!(
                "{}: expected {expected}...{}..., got {:?}",
                bad.name,
                bad.reason,
                other
                    .as_ref()
                    .map(|_| "OK")
                    .map_err(|s| (s.code(), s.message().to_string()))
            )),
        }
        let legal = client
            .list_legal_plays(pb::ListLegalPlaysRequest { view: request.view })
            .await;
        match (&legal, &result) {
            (Err(a), Err(b)) if a.code() == Code::InvalidArgument && a.message() == b.message() => {
            }
            _ => failures.push(format!(
                "{}: ListLegalPlays differs: {:?}",
                bad.name,
                legal.map(|_| "OK")
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} bad views misjudged:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test]
async fn the_base_views_of_the_catalogue_are_accepted() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    for (name, view) in [
        ("lead", lead()),
        ("follow", follow()),
        ("tax", tax()),
        ("revolution", revolution()),
    ] {
        client
            .select_play(request(view.clone()))
            .await
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: request(view).view,
            })
            .await
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
    // `played` may be left out when nothing was played.
    let mut view = lead();
    view.played = None;
    client.select_play(request(view)).await.unwrap();
}
