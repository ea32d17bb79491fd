//! The catalogue of bad Daifugo views: each gets INVALID_ARGUMENT from both RPCs, with a
//! message naming the field (its path from the request) and the reason.
mod common;

use climbot::pb;
use common::{start, test_config};
use tonic::Code;

const S: pb::DaifugoSuit = pb::DaifugoSuit::Spades;
const H: pb::DaifugoSuit = pb::DaifugoSuit::Hearts;
const D: pb::DaifugoSuit = pb::DaifugoSuit::Diamonds;
const C: pb::DaifugoSuit = pb::DaifugoSuit::Clubs;

fn card(rank: u32, suit: pb::DaifugoSuit) -> pb::DaifugoCard {
    pb::DaifugoCard {
        rank,
        suit: suit as i32,
        joker: 0,
    }
}

fn joker() -> pb::DaifugoCard {
    pb::DaifugoCard {
        rank: 0,
        suit: 0,
        joker: 1,
    }
}

fn seat(card_count: u32) -> pb::DaifugoSeat {
    pb::DaifugoSeat {
        card_count,
        title: pb::DaifugoTitle::Heimin as i32,
        passed: false,
        finished: false,
    }
}

fn plain(card: pb::DaifugoCard) -> pb::DaifugoPlayCard {
    pb::DaifugoPlayCard {
        card: Some(card),
        declared: None,
    }
}

/// The good view every entry breaks: house rules, game 1, 4 seats. Seat 0 led the pair
/// ♠4 ♥4, seat 1 covered it with ♠5 and the joker as ♥5 (same suits: the trick is locked
/// to ♠♥); seat 2 is to follow.
fn base() -> pb::DaifugoView {
    pb::DaifugoView {
        rules: Some(pb::DaifugoRules {
            preset: pb::DaifugoRulePreset::House as i32,
            ..Default::default()
        }),
        seat: 2,
        game: 1,
        phase: pb::DaifugoPhase::Play as i32,
        give_back: 0,
        hand: vec![
            card(3, H),
            card(6, D),
            card(6, C),
            card(7, S),
            card(7, H),
            card(9, D),
            card(10, C),
            card(11, S),
            card(12, H),
            card(13, D),
            card(14, C),
            card(15, S),
            card(15, H),
        ],
        table: Some(pb::DaifugoTable {
            owner: 1,
            kind: pb::DaifugoPlayKind::Group as i32,
            cards: vec![
                plain(card(5, S)),
                pb::DaifugoPlayCard {
                    card: Some(joker()),
                    declared: Some(card(5, H)),
                },
            ],
        }),
        revolution: false,
        jack_back: false,
        lock: vec![S as i32, H as i32],
        // 53 = 12 + 11 + 13 + 13 in hands + 4 played.
        seats: vec![seat(12), seat(11), seat(13), seat(13)],
        played: vec![card(4, S), card(4, H), card(5, S), joker()],
        removed_unseen: 0,
        log: vec![
            pb::DaifugoLogEntry {
                seat: 0,
                cards: vec![card(4, S), card(4, H)],
            },
            pb::DaifugoLogEntry {
                seat: 1,
                cards: vec![card(5, S), joker()],
            },
        ],
        exchange_known: None,
    }
}

/// Game 2 with titles (seat 2 is the daifugo), in the exchange: nothing played yet.
fn exchange_base() -> pb::DaifugoView {
    let mut v = base();
    v.game = 2;
    v.phase = pb::DaifugoPhase::Exchange as i32;
    v.give_back = 2;
    v.table = None;
    v.lock.clear();
    v.log.clear();
    v.played.clear();
    // Seat 2 received two cards: 15 in hand (two more than the base hand).
    v.hand.extend([card(5, S), joker()]);
    v.seats = vec![seat(13), seat(12), seat(15), seat(13)];
    let titles = [
        pb::DaifugoTitle::Fugo,
        pb::DaifugoTitle::Hinmin,
        pb::DaifugoTitle::Daifugo,
        pb::DaifugoTitle::Daihinmin,
    ];
    for (s, t) in v.seats.iter_mut().zip(titles) {
        s.title = t as i32;
    }
    v
}

/// The exchange view with what seat 2 knows of it: it received ♠5 and the joker from
/// the daihinmin (seat 3) and has not given back yet.
fn exchange_known_base() -> pb::DaifugoView {
    let mut v = exchange_base();
    v.exchange_known = Some(pb::DaifugoExchangeKnown {
        with_seat: 3,
        received: vec![card(5, S), joker()],
        given: vec![],
    });
    v
}

fn known(v: &mut pb::DaifugoView) -> &mut pb::DaifugoExchangeKnown {
    v.exchange_known.as_mut().unwrap()
}

/// Every seat but the bot's is out and all other cards are played: the game is over.
fn finished_game() -> pb::DaifugoView {
    let mut v = base();
    let hand = v.hand.clone();
    let mut played = Vec::new();
    for rank in 3..=15 {
        for suit in [S, H, D, C] {
            let c = card(rank, suit);
            if !hand.contains(&c) {
                played.push(c);
            }
        }
    }
    played.push(joker());
    v.log = played
        .iter()
        .enumerate()
        .map(|(i, c)| pb::DaifugoLogEntry {
            seat: (i % 2) as u32,
            cards: vec![*c],
        })
        .collect();
    v.played = played;
    v.table = None;
    v.lock.clear();
    v.seats = vec![seat(0), seat(0), seat(13), seat(0)];
    for i in [0, 1, 3] {
        v.seats[i].finished = true;
    }
    v
}

struct Bad {
    name: &'static str,
    view: Option<pb::DaifugoView>,
    /// The message starts with this field path, then ": ".
    field: &'static str,
    /// The reason contains this text (case-insensitive).
    reason: &'static str,
}

fn bad(
    name: &'static str,
    field: &'static str,
    reason: &'static str,
    f: impl FnOnce(&mut pb::DaifugoView),
) -> Bad {
    bad_from(base(), name, field, reason, f)
}

fn bad_from(
    mut view: pb::DaifugoView,
    name: &'static str,
    field: &'static str,
    reason: &'static str,
    f: impl FnOnce(&mut pb::DaifugoView),
) -> Bad {
    f(&mut view);
    Bad {
        name,
        view: Some(view),
        field,
        reason,
    }
}

fn table(v: &mut pb::DaifugoView) -> &mut pb::DaifugoTable {
    v.table.as_mut().unwrap()
}

fn catalogue() -> Vec<Bad> {
    vec![
        // --- joker declarations
        bad(
            "declared joker of another rank",
            "view.daifugo.table.cards[1].declared",
            "not of the group's rank",
            |v| table(v).cards[1].declared = Some(card(6, H)),
        ),
        bad(
            "declared joker repeating a card of the play",
            "view.daifugo.table.cards[1].declared",
            "already a card of the play",
            |v| table(v).cards[1].declared = Some(card(5, S)),
        ),
        bad(
            "undeclared joker in a group",
            "view.daifugo.table.cards[1].declared",
            "must declare",
            |v| table(v).cards[1].declared = None,
        ),
        bad(
            "declaration on a natural card",
            "view.daifugo.table.cards[0].declared",
            "only a joker",
            |v| table(v).cards[0].declared = Some(card(5, D)),
        ),
        bad(
            "a joker declared as a joker",
            "view.daifugo.table.cards[1].declared",
            "natural card",
            |v| table(v).cards[1].declared = Some(joker()),
        ),
        // --- lock
        bad(
            "lock differing from the top play's suits",
            "view.daifugo.lock",
            "differs from the top play",
            |v| v.lock = vec![S as i32],
        ),
        bad(
            "lock listing a suit twice",
            "view.daifugo.lock[1]",
            "twice",
            |v| v.lock = vec![S as i32, S as i32],
        ),
        bad(
            "lock while suit lock is off",
            "view.daifugo.lock",
            "suit lock is off",
            |v| v.rules.as_mut().unwrap().suit_lock = Some(false),
        ),
        bad(
            "lock on an empty table",
            "view.daifugo.lock",
            "needs a play on the table",
            |v| v.table = None,
        ),
        // --- counts
        bad(
            "counts that do not add up to the deck",
            "view.daifugo.seats",
            "the deck has 53",
            |v| v.seats[3].card_count = 12,
        ),
        bad(
            "own count differing from the hand",
            "view.daifugo.seats[2].card_count",
            "the hand holds 13",
            |v| v.seats[2].card_count = 12,
        ),
        bad(
            "cards for a finished seat",
            "view.daifugo.seats[0].card_count",
            "out of the game",
            |v| v.seats[0].finished = true,
        ),
        bad(
            "removed unseen cards in game 1",
            "view.daifugo.removed_unseen",
            "miyako-ochi",
            |v| v.removed_unseen = 1,
        ),
        // --- duplicates and card sets
        bad(
            "duplicate in the hand",
            "view.daifugo.hand[1]",
            "duplicate",
            |v| v.hand[1] = v.hand[0],
        ),
        bad(
            "duplicate in played",
            "view.daifugo.played[1]",
            "duplicate",
            |v| v.played[1] = v.played[0],
        ),
        bad(
            "played card also in hand",
            "view.daifugo.played[0]",
            "also in hand",
            |v| v.hand.push(card(4, S)),
        ),
        bad(
            "table card not among played",
            "view.daifugo.table.cards[0].card",
            "not among played cards",
            |v| table(v).cards[0] = plain(card(5, D)),
        ),
        bad(
            "table not the last play of the log",
            "view.daifugo.table",
            "not the last play of the log",
            |v| v.log.swap(0, 1),
        ),
        bad(
            "played card missing from the log",
            "view.daifugo.played[0]",
            "not in the log",
            |v| {
                v.log.remove(0);
            },
        ),
        bad(
            "log seat out of range",
            "view.daifugo.log[0].seat",
            "seat 4 of 4",
            |v| v.log[0].seat = 4,
        ),
        bad(
            "second joker in a one-joker deck",
            "view.daifugo.hand[0]",
            "joker2 is not in this game's deck of 53 cards (see rules.jokers)",
            |v| {
                v.hand[0] = pb::DaifugoCard {
                    joker: 2,
                    ..joker()
                }
            },
        ),
        // --- wrong-phase data
        bad(
            "exchange in game 1",
            "view.daifugo.phase",
            "no exchange",
            |v| {
                v.phase = pb::DaifugoPhase::Exchange as i32;
                v.give_back = 2;
            },
        ),
        bad(
            "give_back in the play phase",
            "view.daifugo.give_back",
            "only the exchange",
            |v| v.give_back = 1,
        ),
        bad_from(
            exchange_base(),
            "daifugo giving back one card",
            "view.daifugo.give_back",
            "gives back 2",
            |v| v.give_back = 1,
        ),
        bad_from(
            exchange_base(),
            "a table during the exchange",
            "view.daifugo.table",
            "empty during the exchange",
            |v| {
                v.table = Some(pb::DaifugoTable {
                    owner: 0,
                    kind: pb::DaifugoPlayKind::Single as i32,
                    cards: vec![plain(card(3, D))],
                });
            },
        ),
        bad_from(
            exchange_base(),
            "an exchange asked of the hinmin",
            "view.daifugo.phase",
            "a Hinmin does not give cards back",
            |v| {
                v.seats[1].title = pb::DaifugoTitle::Daifugo as i32;
                v.seats[2].title = pb::DaifugoTitle::Hinmin as i32;
            },
        ),
        bad(
            "J-back with the rule off",
            "view.daifugo.jack_back",
            "needs the rule",
            |v| v.jack_back = true,
        ),
        // --- unknown and unspecified enum values
        bad(
            "unknown suit",
            "view.daifugo.hand[0].suit",
            "unknown suit 9",
            |v| v.hand[0].suit = 9,
        ),
        bad(
            "unspecified suit of a natural card",
            "view.daifugo.played[2].suit",
            "unspecified",
            |v| v.played[2].suit = 0,
        ),
        bad(
            "unknown title",
            "view.daifugo.seats[0].title",
            "unknown title 7",
            |v| v.seats[0].title = 7,
        ),
        bad(
            "unknown play kind",
            "view.daifugo.table.kind",
            "unknown play kind 5",
            |v| table(v).kind = 5,
        ),
        bad(
            "play kind not matching the cards",
            "view.daifugo.table.kind",
            "a sequence has at least three cards",
            |v| table(v).kind = pb::DaifugoPlayKind::Sequence as i32,
        ),
        bad(
            "unknown phase",
            "view.daifugo.phase",
            "unknown phase 3",
            |v| v.phase = 3,
        ),
        bad(
            "unspecified phase",
            "view.daifugo.phase",
            "unspecified",
            |v| v.phase = 0,
        ),
        bad(
            "unknown preset",
            "view.daifugo.rules.preset",
            "unknown preset 4",
            |v| v.rules.as_mut().unwrap().preset = 4,
        ),
        bad(
            "unspecified preset",
            "view.daifugo.rules.preset",
            "unspecified",
            |v| v.rules.as_mut().unwrap().preset = 0,
        ),
        bad("missing rules", "view.daifugo.rules", "required", |v| {
            v.rules = None
        }),
        bad(
            "unknown lock suit",
            "view.daifugo.lock[0]",
            "unknown suit 6",
            |v| v.lock[0] = 6,
        ),
        // --- numbers out of range
        bad(
            "rank above the 2",
            "view.daifugo.hand[0].rank",
            "out of range 3..=15",
            |v| v.hand[0].rank = 16,
        ),
        bad(
            "ace as 1",
            "view.daifugo.log[0].cards[0].rank",
            "out of range 3..=15",
            |v| v.log[0].cards[0].rank = 1,
        ),
        bad(
            "joker with a suit",
            "view.daifugo.played[3].suit",
            "no suit",
            |v| v.played[3].suit = S as i32,
        ),
        bad(
            "joker number 3",
            "view.daifugo.hand[0].joker",
            "joker 3",
            |v| {
                v.hand[0] = pb::DaifugoCard {
                    joker: 3,
                    ..joker()
                }
            },
        ),
        bad(
            "three jokers in the rules",
            "view.daifugo.rules.jokers",
            "1 or 2",
            |v| v.rules.as_mut().unwrap().jokers = Some(3),
        ),
        bad(
            "sequence revolution too long",
            "view.daifugo.rules.sequence_revolution",
            "3..=13",
            |v| v.rules.as_mut().unwrap().sequence_revolution = Some(20),
        ),
        bad(
            "seat out of range",
            "view.daifugo.seat",
            "seat 4 of 4",
            |v| v.seat = 4,
        ),
        bad(
            "table owner out of range",
            "view.daifugo.table.owner",
            "seat 7 of 4",
            |v| table(v).owner = 7,
        ),
        bad("game 0", "view.daifugo.game", "from 1", |v| v.game = 0),
        bad("two seats", "view.daifugo.seats", "3..=7", |v| {
            v.seats.truncate(2)
        }),
        // --- seats and turn
        bad(
            "titles in game 1",
            "view.daifugo.seats[0].title",
            "titles with 4 seats in game 1",
            |v| v.seats[0].title = pb::DaifugoTitle::Daifugo as i32,
        ),
        bad(
            "the deciding seat has passed",
            "view.daifugo.seats[2].passed",
            "locked out",
            |v| v.seats[2].passed = true,
        ),
        bad(
            "the table's owner has passed",
            "view.daifugo.seats[1].passed",
            "has not passed",
            |v| v.seats[1].passed = true,
        ),
        bad_from(
            finished_game(),
            "a finished game",
            "view.daifugo.seats",
            "the game is over",
            |_| {},
        ),
        bad(
            "a table card without its card",
            "view.daifugo.table.cards[0].card",
            "required",
            |v| table(v).cards[0].card = None,
        ),
        // --- the exchange as the seat knows it
        bad(
            "exchange knowledge in game 1",
            "view.daifugo.exchange_known",
            "no exchange in this game",
            |v| v.exchange_known = exchange_known_base().exchange_known,
        ),
        bad_from(
            exchange_known_base(),
            "exchange partner out of range",
            "view.daifugo.exchange_known.with_seat",
            "seat 7 of 4",
            |v| known(v).with_seat = 7,
        ),
        bad_from(
            exchange_known_base(),
            "exchange partner is the bot itself",
            "view.daifugo.exchange_known.with_seat",
            "own seat",
            |v| known(v).with_seat = 2,
        ),
        bad_from(
            exchange_known_base(),
            "exchange partner is not the daihinmin",
            "view.daifugo.exchange_known.with_seat",
            "exchanges with the daihinmin",
            |v| known(v).with_seat = 0,
        ),
        bad_from(
            exchange_known_base(),
            "one card received where the daifugo receives two",
            "view.daifugo.exchange_known.received",
            "receives 2",
            |v| {
                known(v).received.pop();
            },
        ),
        bad_from(
            exchange_known_base(),
            "a received card neither in hand nor played",
            "view.daifugo.exchange_known.received[1]",
            "neither in hand nor played",
            |v| known(v).received[1] = card(4, D),
        ),
        bad_from(
            exchange_known_base(),
            "a received card listed twice",
            "view.daifugo.exchange_known.received[1]",
            "duplicate",
            |v| known(v).received[1] = card(5, S),
        ),
        bad_from(
            exchange_known_base(),
            "a received card with a bad rank",
            "view.daifugo.exchange_known.received[0].rank",
            "",
            |v| known(v).received[0].rank = 16,
        ),
        bad_from(
            exchange_known_base(),
            "cards given before the give-back is chosen",
            "view.daifugo.exchange_known.given",
            "before choosing its give-back",
            |v| known(v).given = vec![card(4, D), card(4, C)],
        ),
    ]
}

fn request(view: Option<pb::DaifugoView>) -> Option<pb::GameView> {
    view.map(|v| pb::GameView {
        game: Some(pb::game_view::Game::Daifugo(v)),
    })
}

#[tokio::test]
async fn every_bad_view_is_invalid_argument_naming_the_field() {
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let list = catalogue();
    assert!(list.len() >= 15);
    let mut failures = Vec::new();
    for bad in list {
        let select = client
            .select_play(pb::SelectPlayRequest {
                explain: false,
                view: request(bad.view.clone()),
                difficulty: pb::Difficulty::Easy as i32,
                seed: None,
                budget_ms: None,
                max_iterations: None,
                strength: None,
            })
            .await;
        let check = |status: &tonic::Status| {
            let message = status.message();
            status.code() == Code::InvalidArgument
                && message.starts_with(&format!("{}: ", bad.field))
                && message.to_lowercase().contains(&bad.reason.to_lowercase())
        };
        match &select {
            Err(status) if check(status) => {}
            other => failures.push(format!(
                "{}: SelectPlay got {:?}",
                bad.name,
                other
                    .as_ref()
                    .map(|_| "OK")
                    .map_err(|s| (s.code(), s.message().to_string()))
            )),
        }
        let legal = client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: request(bad.view.clone()),
            })
            .await;
        match (&legal, &select) {
            (Err(a), Err(b)) if check(a) && a.message() == b.message() => {}
            _ => failures.push(format!(
                "{}: ListLegalPlays got {:?}",
                bad.name,
                legal
                    .as_ref()
                    .map(|_| "OK")
                    .map_err(|s| (s.code(), s.message().to_string()))
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
    for view in [base(), exchange_base(), exchange_known_base()] {
        for difficulty in [pb::Difficulty::Easy, pb::Difficulty::Unspecified] {
            client
                .select_play(pb::SelectPlayRequest {
                    explain: false,
                    view: request(Some(view.clone())),
                    difficulty: difficulty as i32,
                    seed: None,
                    budget_ms: None,
                    max_iterations: None,
                    strength: None,
                })
                .await
                .unwrap_or_else(|e| panic!("{e:?}"));
        }
        client
            .list_legal_plays(pb::ListLegalPlaysRequest {
                view: request(Some(view)),
            })
            .await
            .unwrap();
    }
    // The finished game is refused only for being over: one more active seat with a
    // card of the log taken back makes it playable.
    let mut view = finished_game();
    let last = view.log.pop().unwrap();
    view.played.retain(|c| !last.cards.contains(c));
    view.seats[3] = pb::DaifugoSeat {
        card_count: 1,
        ..view.seats[3]
    };
    view.seats[3].finished = false;
    client
        .list_legal_plays(pb::ListLegalPlaysRequest {
            view: request(Some(view)),
        })
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
}
