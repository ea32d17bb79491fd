//! The validated view: every kind of bad input is refused with the exact field.

use climbot_core::bot::DecisionContext;
use climbot_core::dalmuti::bots::easy::EasyBot;
use climbot_core::dalmuti::referee::{HandState, deal, opening_view_input};
use climbot_core::dalmuti::turn::Title;
use climbot_core::dalmuti::view::{
    CardsInput, LogEntryInput, Phase, PlayInput, RevolutionInput, TaxReturnInput,
};
use climbot_core::dalmuti::{DalmutiView, DalmutiViewInput, ViewError};
use climbot_core::game::Policy;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// A play-phase view input after `steps` easy decisions of a hand-2 deal (taxes done).
fn mid_hand(players: usize, seed: u64, steps: usize) -> DalmutiViewInput {
    let hands = deal(players, &mut ChaCha8Rng::seed_from_u64(seed));
    let seating: Vec<usize> = (0..players).collect();
    let mut s = HandState::new(&hands, &seating, &vec![3; players], 2, 18);
    for _ in 0..steps {
        let v = s.view().unwrap().expect("hand still running");
        let d = EasyBot.decide(&v, &mut DecisionContext::unbounded(0));
        s.apply(d, "easy").unwrap();
    }
    s.view_input().unwrap()
}

/// A play-phase input with at least `plays` plays in the log and a table down.
fn with_table(players: usize) -> DalmutiViewInput {
    for steps in 8.. {
        let i = mid_hand(players, 5, steps);
        if i.phase == Phase::Play && i.table.is_some() && i.log.len() >= 6 {
            return i;
        }
    }
    unreachable!()
}

fn refused(input: DalmutiViewInput) -> ViewError {
    DalmutiView::new(input).expect_err("the input should be refused")
}

fn expect(input: DalmutiViewInput, field: &str, reason_part: &str) {
    let e = refused(input);
    assert_eq!(e.field, field, "{e}");
    assert!(e.reason.contains(reason_part), "{e}");
}

#[test]
fn valid_inputs_are_accepted() {
    for p in 4..=8 {
        let v = DalmutiView::new(with_table(p)).unwrap();
        assert_eq!(v.phase(), Phase::Play);
        assert!(v.table().is_some() && v.table_owner().is_some());
        let unseen: u32 = v.unseen().len();
        let others: u32 = v
            .seats()
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != v.seat())
            .map(|(_, s)| u32::from(s.card_count))
            .sum();
        assert_eq!(unseen, others);
    }
    assert!(DalmutiView::new(opening_view_input(8, 3)).is_ok());
}

#[test]
fn error_display_names_field_then_reason() {
    let mut i = with_table(5);
    i.hand.counts[3] = 9;
    let e = refused(i);
    assert_eq!(e.to_string(), format!("{}: {}", e.field, e.reason));
    assert_eq!(e.field, "hand.counts[3]");
    assert!(e.reason.contains("deck holds 4"), "{e}");
}

#[test]
fn counts_beyond_the_deck() {
    let mut i = with_table(5);
    i.hand.counts.pop();
    expect(i, "hand.counts", "expected 13 counts");
    let mut i = with_table(5);
    i.played.counts[12] = 3;
    expect(i, "played.counts[12]", "deck holds 2 of Jesters");
    // Hand plus played over the deck for one rank: take a rank with cards played.
    let mut i = with_table(5);
    let r = (0..12).find(|&r| i.played.counts[r] > 0).unwrap();
    i.hand.counts[r] = (r as u32 + 1) - i.played.counts[r] + 1;
    expect(i, &format!("hand.counts[{r}]"), "played");
}

#[test]
fn seats_and_card_counts() {
    let mut i = with_table(5);
    i.seats.truncate(3);
    expect(i, "seats", "3 seats");
    let mut i = with_table(5);
    i.seat = 7;
    expect(i, "seat", "seat 7");
    let mut i = with_table(5);
    let other = (i.seat as usize + 2) % 5;
    i.seats[other].card_count += 1;
    expect(i, "seats", "unseen");
    let mut i = with_table(5);
    let me = i.seat as usize;
    i.seats[me].card_count += 1;
    expect(i, &format!("seats[{me}].card_count"), "the hand holds");
    let mut i = with_table(5);
    i.seats[2].title = Title::GreaterPeon;
    expect(i, "seats[2].title", "is M");
    let mut i = with_table(5);
    i.seats[1].finished = !i.seats[1].finished;
    expect(i, "seats[1].finished", "finished is");
    let mut i = with_table(5);
    i.seats[0].score = 1000;
    expect(i, "seats[0].score", "possible");
    // Moving a card from one opponent to another keeps the total but not the log.
    let mut i = with_table(5);
    let (a, b) = ((i.seat as usize + 1) % 5, (i.seat as usize + 2) % 5);
    i.seats[a].card_count -= 1;
    i.seats[b].card_count += 1;
    let e = refused(i);
    assert!(
        e.field == format!("seats[{a}].card_count") || e.field == format!("seats[{b}].card_count"),
        "{e}"
    );
}

#[test]
fn impossible_or_wrong_table() {
    let mut i = with_table(6);
    i.table = Some(PlayInput {
        rank: 5,
        naturals: 0,
        jesters: 0,
    });
    expect(i, "table", "at least one card");
    let mut i = with_table(6);
    i.table = Some(PlayInput {
        rank: 13,
        naturals: 1,
        jesters: 1,
    });
    expect(i, "table", "rank 13");
    let mut i = with_table(6);
    i.table = Some(PlayInput {
        rank: 3,
        naturals: 4,
        jesters: 0,
    });
    expect(i, "table", "more natural cards");
    let mut i = with_table(6);
    i.table = Some(PlayInput {
        rank: 14,
        naturals: 1,
        jesters: 0,
    });
    expect(i, "table", "not in 1..=13");
    // A valid play, but not what the log left on the table.
    let mut i = with_table(6);
    let t = i.table.unwrap();
    i.table = Some(PlayInput {
        rank: if t.rank == 1 { 2 } else { t.rank - 1 },
        ..t
    });
    expect(i, "table", "the log leaves");
    let mut i = with_table(6);
    i.table = None;
    expect(i, "table", "the log leaves");
}

#[test]
fn log_inconsistent_with_played_or_turns() {
    let mut i = with_table(4);
    let k = i.log.iter().position(|e| e.play.is_some()).unwrap();
    let p = i.log[k].play.unwrap();
    // Changing one logged play's rank breaks the match with played.
    i.log[k].play = Some(PlayInput {
        rank: if p.rank == 12 { 11 } else { 12 },
        ..p
    });
    let e = refused(i);
    assert!(
        e.field == "log" || e.field.starts_with(&format!("log[{k}]")),
        "{e}"
    );
    let mut i = with_table(4);
    i.log[4].seat = (i.log[4].seat + 1) % 4;
    let e = refused(i);
    assert!(
        e.field == "log[4].seat" || e.field.starts_with("seats["),
        "{e}"
    );
    let mut i = with_table(4);
    i.log[2].seat = 9;
    expect(i, "log[2].seat", "seat 9");
    let mut i = with_table(4);
    i.log[0].play = Some(PlayInput {
        rank: 2,
        naturals: 3,
        jesters: 0,
    });
    expect(i, "log[0].play", "more natural cards");
    // A pass by the leader.
    let mut i = with_table(4);
    i.log.insert(
        0,
        LogEntryInput {
            seat: 0,
            play: None,
        },
    );
    expect(i, "log[0]", "leader must play");
    // Played cards the log does not show.
    let mut i = with_table(4);
    i.played.counts[11] += 1;
    let me = i.seat as usize;
    let other = (me + 1) % 4;
    i.seats[other].card_count -= 1;
    expect(i, "log", "played is");
}

#[test]
fn data_for_the_wrong_phase() {
    let mut i = with_table(5);
    i.tax_return = Some(TaxReturnInput { count: 2, to: 4 });
    expect(i, "tax_return", "play phase");
    let mut i = with_table(5);
    i.phase = Phase::TaxReturn;
    expect(i, "tax_return", "missing");
    let mut i = with_table(5);
    i.phase = Phase::Revolution;
    let e = refused(i);
    assert!(e.field == "hand.counts[12]" || e.field == "table", "{e}");
    // A real tax-return view, then broken.
    let tax = mid_hand(5, 5, 0);
    if tax.phase == Phase::TaxReturn {
        assert!(DalmutiView::new(tax.clone()).is_ok());
        let mut i = tax.clone();
        i.tax_return = Some(TaxReturnInput { count: 1, to: 4 });
        expect(i, "tax_return", "owes 2 cards to seat 4");
        let mut i = tax.clone();
        i.hand_number = 1;
        expect(i, "hand_number", "first hand");
        let mut i = tax.clone();
        i.table = Some(PlayInput {
            rank: 5,
            naturals: 1,
            jesters: 0,
        });
        expect(i, "table", "before the play phase");
        let mut i = tax;
        i.revolution = Some(RevolutionInput {
            seat: 1,
            greater: false,
        });
        let e = refused(i);
        assert!(
            e.field == "revolution" || e.field == "hand.counts[12]",
            "{e}"
        );
    } else {
        panic!("seed 5 should start with taxes");
    }
}

#[test]
fn empty_hand_and_finished_hand() {
    let mut i = with_table(4);
    let me = i.seat as usize;
    i.hand = CardsInput {
        counts: vec![0; 13],
    };
    let e = refused(i);
    assert!(
        e.field == format!("seats[{me}].card_count") || e.field == "hand",
        "{e}"
    );
    // Play a whole hand with the easy bot and keep the final log: the hand is over.
    let hands = deal(4, &mut ChaCha8Rng::seed_from_u64(8));
    let mut s = HandState::new(&hands, &[0, 1, 2, 3], &[0; 4], 1, 19);
    let mut last = s.view_input().unwrap();
    while let Some(v) = s.view().unwrap() {
        last = s.view_input().unwrap();
        let d = EasyBot.decide(&v, &mut DecisionContext::unbounded(0));
        s.apply(d, "easy").unwrap();
    }
    // Append the final action to the last view: the log now ends the hand.
    let final_log = s.log().last().copied().unwrap();
    let mut i = last;
    let mover = i.seat as usize;
    if let climbot_core::dalmuti::turn::Action::Play(p) = final_log.action {
        i.log.push(LogEntryInput {
            seat: final_log.seat as u32,
            play: Some(p.into()),
        });
        for (r, n) in p.cards().counts().iter().enumerate() {
            i.played.counts[r] += u32::from(*n);
            i.hand.counts[r] -= u32::from(*n);
        }
        i.seats[mover].card_count -= u32::from(p.size());
        i.seats[mover].finished = i.seats[mover].card_count == 0;
        i.table = Some(p.into());
        let e = refused(i);
        assert!(e.field == "log" || e.field == "hand", "{e}");
    } else {
        panic!("a hand ends on a play");
    }
}

#[test]
fn revolution_reveals_the_jesters() {
    let mut i = with_table(5);
    // A revolution means no taxes: drop what the seat knew of them.
    i.tax_known = None;
    let me = i.seat as usize;
    let other = if me == 1 { 2 } else { 1 };
    i.revolution = Some(RevolutionInput {
        seat: other as u32,
        greater: false,
    });
    if i.hand.counts[12] > 0 {
        expect(i, "hand.counts[12]", "declared with both Jesters");
    } else {
        // This hand holds no Jester, so the claim is refused exactly when a seat other
        // than the declarer has played one.
        let third_played_jester = i
            .log
            .iter()
            .any(|e| e.seat as usize != other && e.play.is_some_and(|p| p.jesters > 0));
        match DalmutiView::new(i) {
            Err(e) => {
                assert!(third_played_jester, "{e}");
                assert!(e.field.starts_with("log["), "{e}");
            }
            Ok(_) => assert!(!third_played_jester),
        }
    }
    let mut i = with_table(5);
    i.revolution = Some(RevolutionInput {
        seat: 3,
        greater: true,
    });
    expect(i, "revolution", "seat 0");
    let mut i = with_table(5);
    i.revolution = Some(RevolutionInput {
        seat: 4,
        greater: false,
    });
    expect(i, "revolution", "Greater Revolution");
    let mut i = with_table(5);
    i.revolution = Some(RevolutionInput {
        seat: 9,
        greater: false,
    });
    expect(i, "revolution.seat", "seat 9");
}

#[test]
fn fingerprint_covers_fields() {
    let base = DalmutiView::new(with_table(6)).unwrap();
    let mut i = base.to_input();
    i.hands_left += 1;
    assert_ne!(
        DalmutiView::new(i).unwrap().fingerprint(),
        base.fingerprint()
    );
    let mut i = base.to_input();
    i.seats[3].score += 1;
    assert_ne!(
        DalmutiView::new(i).unwrap().fingerprint(),
        base.fingerprint()
    );
    assert_eq!(
        DalmutiView::new(base.to_input()).unwrap().fingerprint(),
        base.fingerprint()
    );
    let mut i = base.to_input();
    i.hand_number = 0;
    expect(i, "hand_number", "from 1");
}
