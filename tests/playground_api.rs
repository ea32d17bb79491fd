//! The playground's JSON API against a real server on 127.0.0.1:0: a whole Lexio round,
//! a whole Daifugo game and a whole Dalmuti hand with a human seat that always takes the
//! first legal action, illegal actions refused without any change, Dalmuti's seats
//! reported as they move from hand to hand, bots at a strength playing the dial's
//! nearest setting, bad requests answered with the field at fault, and hints on the
//! human's turn and reviews of each deal over.

mod common;

use climbot::dial::{DialTable, table_text};
use climbot::game::GameKind;
use climbot::lexio::Lexio;
use climbot::playground::Config;
use common::playground::{advance, call, start_playground};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

/// Starts a playground with the default limits.
fn start() -> SocketAddr {
    start_playground(Config::default())
}

/// Plays the table to the end: the human takes the first legal action, and once per
/// human turn an illegal action is tried and must change nothing. Returns the final
/// state and the number of human actions.
fn play_to_the_end(addr: SocketAddr, id: &str, illegal: &Value) -> (Value, usize) {
    let path = format!("/api/tables/{id}");
    let mut human_actions = 0;
    for _ in 0..5000 {
        let (status, state) = call(addr, "GET", &path, None);
        assert_eq!(status, 200, "{state}");
        match state["status"].as_str().unwrap() {
            "your_turn" => {
                let legal = state["legal"].as_array().unwrap();
                assert!(!legal.is_empty());
                let (status, refused) = call(
                    addr,
                    "POST",
                    &format!("{path}/actions"),
                    Some(&json!({ "decision": illegal })),
                );
                assert_eq!(status, 400, "{refused}");
                assert_eq!(refused["field"], "decision");
                assert_eq!(
                    call(addr, "GET", &path, None).1,
                    state,
                    "a refusal changed the table"
                );
                let (status, after) = call(
                    addr,
                    "POST",
                    &format!("{path}/actions"),
                    Some(&json!({ "decision": legal[0] })),
                );
                assert_eq!(status, 200, "{after}");
                human_actions += 1;
            }
            "bot_turn" => {
                let (status, after) = call(addr, "POST", &format!("{path}/step"), None);
                assert_eq!(status, 200, "{after}");
            }
            "deciding" => std::thread::sleep(std::time::Duration::from_millis(10)),
            "over" => return (state, human_actions),
            other => panic!("status {other}: {state}"),
        }
    }
    panic!("the table did not finish")
}

#[test]
fn a_whole_lexio_round_through_the_api() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "lexio", "players": 4, "human_seat": 1,
            "levels": ["easy", "normal", "hard"], "seed": 21, "rounds": 1})),
    );
    assert_eq!(status, 201, "{state}");
    assert_eq!(state["lineup"], json!(["easy", "human", "normal", "hard"]));
    assert_eq!(
        state["seating"],
        json!([0, 1, 2, 3]),
        "Lexio's seats stay put"
    );
    assert_eq!(state["seed"], 21);
    let id = state["id"].as_str().unwrap().to_string();
    // A tile nobody holds (Lexio numbers stop at 15).
    let illegal = json!({"lexio": {"play": {"tiles": [{"number": 99, "suit": "LEXIO_SUIT_SUN"}],
        "combination": "LEXIO_COMBINATION_SINGLE"}}});
    let (end, human_actions) = play_to_the_end(addr, &id, &illegal);
    assert!(human_actions > 0);
    let totals = &end["totals"]["seats"];
    let chips: i64 = (0..4)
        .map(|s| totals[s]["sums"][0].as_f64().unwrap() as i64)
        .sum();
    assert_eq!(chips, 0, "chips move between seats: {end}");
    assert_eq!(end["your_view"]["lexio"]["seat"], 1);

    // A bot's move above easy explains itself; a human's has no explanation.
    let moves = end["moves"].as_array().unwrap();
    let hard = moves.iter().find(|m| m["level"] == "hard").unwrap();
    let (status, explained) = call(
        addr,
        "GET",
        &format!("/api/tables/{id}/moves/{}", hard["index"]),
        None,
    );
    assert_eq!(status, 200);
    let chosen: Vec<&Value> = explained["explanation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["chosen"] == true)
        .collect();
    assert_eq!(chosen.len(), 1, "{explained}");
    assert_eq!(chosen[0]["decision"], hard["decision"]);

    // The same seed and the same actions replay the same round.
    let (_, again) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "lexio", "players": 4, "human_seat": 1,
            "levels": ["easy", "normal", "hard"], "seed": 21, "rounds": 1})),
    );
    let (replayed, _) = play_to_the_end(addr, again["id"].as_str().unwrap(), &illegal);
    assert_eq!(replayed["moves"], end["moves"]);
    assert_eq!(replayed["totals"], end["totals"]);

    // The match is over: nothing more is accepted.
    let (status, _) = call(addr, "POST", &format!("/api/tables/{id}/step"), None);
    assert_eq!(status, 409);
}

#[test]
fn a_whole_daifugo_game_through_the_api() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(
            &json!({"game": "daifugo", "players": 4, "human_seat": 0, "rules": "house",
            "levels": ["hard", "normal", "easy"], "seed": 4, "rounds": 1}),
        ),
    );
    assert_eq!(status, 201, "{state}");
    assert_eq!(state["rules"], "house");
    let id = state["id"].as_str().unwrap().to_string();
    let illegal = json!({"daifugo": {"play": {"kind": "DAIFUGO_PLAY_KIND_SINGLE",
        "cards": [{"card": {"rank": 20, "suit": "DAIFUGO_SUIT_SPADES"}}]}}});
    let (end, human_actions) = play_to_the_end(addr, &id, &illegal);
    assert!(human_actions > 0);
    let places: Vec<f64> = (0..4)
        .map(|s| end["totals"]["seats"][s]["sums"][0].as_f64().unwrap())
        .collect();
    let mut sorted = places.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(
        sorted,
        vec![1.0, 2.0, 3.0, 4.0],
        "one place each: {places:?}"
    );
}

#[test]
fn a_whole_dalmuti_hand_through_the_api() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "dalmuti", "players": 5, "human_seat": 4,
            "levels": ["hard", "normal", "easy", "expert"], "seed": 8, "rounds": 1})),
    );
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_string();
    let illegal = json!({"dalmuti": {"play": {"rank": 14, "naturals": 1}}});
    let (end, human_actions) = play_to_the_end(addr, &id, &illegal);
    assert!(human_actions > 0);
    let places: f64 = (0..5)
        .map(|s| end["totals"]["seats"][s]["sums"][0].as_f64().unwrap())
        .sum();
    assert_eq!(places, 15.0, "places 1 to 5: {end}");
}

/// The table seat a state's view belongs to.
fn view_seat(game: &str, view: &Value) -> usize {
    view[game]["seat"].as_u64().unwrap() as usize
}

#[test]
fn bots_at_a_strength_play_the_dials_nearest_setting() {
    let addr = start();
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "lexio", "players": 3,
            "levels": [0, "normal", 950], "seed": 5, "rounds": 1})),
    );
    assert_eq!(status, 201, "{state}");
    assert_eq!(
        state["lineup"],
        json!(["strength 0", "normal", "strength 950"])
    );
    let id = state["id"].as_str().unwrap().to_string();
    let (end, human_actions) = play_to_the_end(addr, &id, &json!({}));
    assert_eq!(human_actions, 0);
    let moves = end["moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{end}");
    // The levels the shipped dial's settings nearest 0 (its weakest) and 950 are built from.
    let dial = DialTable::<Lexio>::parse(table_text(GameKind::Lexio)).unwrap();
    let level_at = |strength: f64| dial.nearest(strength).base().name();
    for m in moves {
        let (level, strength) = match m["player"].as_u64().unwrap() {
            0 => (level_at(0.0), json!(0)),
            1 => ("normal", Value::Null),
            _ => (level_at(950.0), json!(950)),
        };
        assert_eq!(m["level"], level, "{m}");
        assert_eq!(m["strength"], strength, "{m}");
        assert_eq!(m["error"], Value::Null, "{m}");
    }
    let (status, refused) = call(
        addr,
        "POST",
        "/api/tables",
        Some(&json!({"game": "lexio", "players": 3, "levels": ["easy", -5, "easy"]})),
    );
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["field"], "levels[1]");
}

#[test]
fn dalmuti_seats_move_and_the_state_says_who_sits_where() {
    let addr = start();
    let human = 1;
    let (status, state) = call(
        addr,
        "POST",
        "/api/tables",
        Some(
            &json!({"game": "dalmuti", "players": 4, "human_seat": human,
            "levels": ["easy", "normal", "easy"], "seed": 3, "rounds": 3}),
        ),
    );
    assert_eq!(status, 201, "{state}");
    let path = format!("/api/tables/{}", state["id"].as_str().unwrap());
    // The seating of each hand, and every move's (table seat, player) as seen before it.
    let mut seatings: Vec<(u64, Vec<usize>)> = Vec::new();
    let mut expected_moves: Vec<(usize, usize)> = Vec::new();
    for _ in 0..5000 {
        let (_, state) = call(addr, "GET", &path, None);
        let status = state["status"].as_str().unwrap();
        if status == "over" {
            break;
        }
        assert!(status == "your_turn" || status == "bot_turn", "{state}");
        let seating: Vec<usize> = serde_json::from_value(state["seating"].clone()).unwrap();
        let mut players = seating.clone();
        players.sort_unstable();
        assert_eq!(players, vec![0, 1, 2, 3], "one seat each: {state}");
        let seat = view_seat("dalmuti", &state["view"]);
        let to_act = state["to_act"].as_u64().unwrap() as usize;
        assert_eq!(
            seating[seat], to_act,
            "the view's seat is the actor's: {state}"
        );
        // The human's own part sits where the seating puts the human.
        let own_seat = view_seat("dalmuti", &state["your_hand"]);
        assert_eq!(seating[own_seat], human, "{state}");
        let hand = state["view"]["dalmuti"]["hand_number"].as_u64().unwrap();
        assert_eq!(
            state["your_hand"]["dalmuti"]["hand_number"], hand,
            "{state}"
        );
        if seatings.last().is_none_or(|(h, _)| *h != hand) {
            seatings.push((hand, seating.clone()));
        }
        expected_moves.push((seat, to_act));
        if status == "your_turn" {
            assert_eq!(view_seat("dalmuti", &state["your_view"]), seat, "{state}");
        }
        let (status, after) = advance(addr, &path, &state);
        assert_eq!(status, 200, "{after}");
    }
    let (_, end) = call(addr, "GET", &path, None);
    assert_eq!(end["status"], "over", "{end}");
    assert_eq!(end["lineup"], json!(["easy", "human", "normal", "easy"]));
    let moves = end["moves"].as_array().unwrap();
    assert_eq!(moves.len(), expected_moves.len());
    for (m, (seat, player)) in moves.iter().zip(&expected_moves) {
        assert_eq!(m["seat"], *seat, "{m}");
        assert_eq!(m["player"], *player, "{m}");
        assert_eq!(m["level"], end["lineup"][player], "{m}");
    }
    let hands: Vec<u64> = seatings.iter().map(|(h, _)| *h).collect();
    assert_eq!(hands, vec![1, 2, 3], "{seatings:?}");
    assert!(
        seatings.windows(2).any(|w| w[0].1 != w[1].1),
        "the finishing order moved the seats: {seatings:?}"
    );
    // The totals are the players', in lineup order: the human's place is theirs.
    let places: f64 = (0..4)
        .map(|p| end["totals"]["seats"][p]["sums"][0].as_f64().unwrap())
        .sum();
    assert_eq!(
        places,
        3.0 * 10.0,
        "places 1 to 4 in each of 3 hands: {end}"
    );
}

#[test]
fn bad_requests_name_the_field_and_unknown_tables_are_404() {
    let addr = start();
    for (body, field) in [
        (json!({"game": "go", "players": 4, "levels": []}), "game"),
        (
            json!({"game": "lexio", "players": 9, "levels": []}),
            "players",
        ),
        (
            json!({"game": "lexio", "players": 3, "levels": ["easy", "wise", "easy"]}),
            "levels[1]",
        ),
        (
            json!({"game": "lexio", "players": 3, "levels": ["easy"]}),
            "levels",
        ),
        (json!([1, 2]), "body"),
    ] {
        let (status, error) = call(addr, "POST", "/api/tables", Some(&body));
        assert_eq!(status, 400, "{body}: {error}");
        assert_eq!(error["field"], field, "{body}: {error}");
        assert!(
            error["error"].as_str().unwrap().starts_with(field),
            "{error}"
        );
    }
    let huge = json!({"game": "x".repeat(100_000)});
    let (status, error) = call(addr, "POST", "/api/tables", Some(&huge));
    assert_eq!(status, 413, "{error}");
    assert_eq!(error["field"], "body");
    let (status, _) = call(addr, "GET", "/api/tables/999", None);
    assert_eq!(status, 404);
    let (status, _) = call(addr, "POST", "/api/tables/1/step", None);
    assert_eq!(status, 404);
    let (status, page) = {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        (out[9..12].to_string(), out)
    };
    assert_eq!(status, "200");
    assert!(page.contains("playground.js"), "the page loads its script");
}

/// The number of cards in a seat's own part and the deal it belongs to.
fn own_cards_and_deal(game: &str, own: &Value) -> (u64, u64) {
    let v = &own[game];
    let cards = match game {
        "dalmuti" => v["hand"]["counts"]
            .as_array()
            .map_or(0, |c| c.iter().map(|n| n.as_u64().unwrap()).sum()),
        _ => v["hand"].as_array().map_or(0, |h| h.len() as u64),
    };
    let deal = ["round", "game", "hand_number"]
        .iter()
        .find_map(|k| v[k].as_u64())
        .unwrap();
    (cards, deal)
}

/// Checks the human's own part: it is there, its card count is the one the seats
/// show, and the public view holds no hand of a bot.
fn check_own_part(game: &str, state: &Value) -> (u64, u64) {
    let own = &state["your_hand"];
    assert!(own[game].is_object(), "no hand shown: {state}");
    let seat = own[game]["seat"].as_u64().unwrap_or(0) as usize;
    let (cards, deal) = own_cards_and_deal(game, own);
    let count_field = if game == "lexio" {
        "tile_count"
    } else {
        "card_count"
    };
    let counted = own[game]["seats"][seat][count_field].as_u64().unwrap_or(0);
    assert_eq!(cards, counted, "{own}");
    if state["to_act"] != state["human_seat"] {
        assert!(state["view"][game].get("hand").is_none(), "{state}");
    }
    (cards, deal)
}

#[test]
fn the_human_hand_shows_from_each_deal_before_the_human_acts() {
    let addr = start();
    for (game, players, human, seed) in [
        ("lexio", 4, 2, 2),
        ("daifugo", 4, 3, 5),
        ("dalmuti", 5, 2, 8),
    ] {
        let levels: Vec<&str> = vec!["easy"; players - 1];
        let mut spec = json!({"game": game, "players": players, "human_seat": human,
            "levels": levels, "seed": seed, "rounds": 2});
        if game == "daifugo" {
            spec["rules"] = json!("house");
        }
        let (status, state) = call(addr, "POST", "/api/tables", Some(&spec));
        assert_eq!(status, 201, "{state}");
        // The table is new and a bot acts first, yet the human sees their cards.
        assert_eq!(
            state["status"], "bot_turn",
            "{game}: pick a seed where a bot leads"
        );
        let (cards, deal) = check_own_part(game, &state);
        assert!(cards > 0, "{game}: {state}");
        assert_eq!(deal, 1);

        let path = format!("/api/tables/{}", state["id"].as_str().unwrap());
        let mut last = (cards, deal);
        let mut new_deal_before_human_turn = false;
        for _ in 0..5000 {
            let (_, state) = call(addr, "GET", &path, None);
            let status = state["status"].as_str().unwrap();
            if status == "over" {
                break;
            }
            let now = check_own_part(game, &state);
            if now.1 > last.1 {
                // A new deal: a full hand again, whoever acts first.
                assert!(now.0 > 0, "{game}: {state}");
                new_deal_before_human_turn |= status == "bot_turn";
            }
            last = now;
            let (status, after) = advance(addr, &path, &state);
            assert_eq!(status, 200, "{after}");
        }
        assert_eq!(last.1, 2, "{game}: the second deal was shown");
        assert!(
            new_deal_before_human_turn,
            "{game}: pick a seed where a bot acts first after the second deal"
        );
    }
}

/// `GET path` on the playground: the status and the whole answer.
fn get_raw(addr: SocketAddr, path: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    (out[9..12].to_string(), out)
}

#[test]
fn a_bad_value_is_named_with_the_values_accepted() {
    let addr = start();
    for (body, field, needles) in [
        (
            json!({"game": "chess", "players": 4, "levels": []}),
            "game",
            &["\"chess\"", "lexio, dalmuti or daifugo"][..],
        ),
        (
            json!({"players": 4, "levels": []}),
            "game",
            &["required", "lexio, dalmuti or daifugo"],
        ),
        (
            json!({"game": "daifugo", "players": 4, "levels": ["easy", "easy", "easy", "easy"], "rules": "casino"}),
            "rules",
            &["\"casino\"", "house or uecda"],
        ),
        (
            json!({"game": "lexio", "players": 3, "levels": ["easy", "wise", "easy"]}),
            "levels[1]",
            &["\"wise\"", "easy, normal, hard, expert, or a strength"],
        ),
    ] {
        let (status, error) = call(addr, "POST", "/api/tables", Some(&body));
        assert_eq!(status, 400, "{body}: {error}");
        assert_eq!(error["field"], field, "{body}: {error}");
        let message = error["error"].as_str().unwrap();
        for needle in needles {
            assert!(message.contains(needle), "{needle:?} not in {message:?}");
        }
    }
}

#[test]
fn the_start_page_links_to_the_rules_it_serves() {
    let addr = start();
    let (_, page) = get_raw(addr, "/");
    for game in ["lexio", "dalmuti", "daifugo", "daifugo-presets"] {
        let link = format!("href=\"/rules/{game}\"");
        assert!(page.contains(&link), "no {link} on the page");
        let (status, rules) = get_raw(addr, &format!("/rules/{game}"));
        assert_eq!(status, "200", "{rules}");
        assert!(rules.contains("text/plain"), "{rules}");
        assert!(rules.contains("# "), "{rules}");
    }
    assert!(page.contains("#table=ID"), "the page documents #table=ID");
    let (status, answer) = get_raw(addr, "/rules/chess");
    assert_eq!(status, "404", "{answer}");
    assert!(answer.contains("lexio"), "{answer}");
}

/// A playground whose analyses are quick: few playouts per EXPERT decision, and so per
/// analysis.
fn start_quick() -> SocketAddr {
    start_playground(Config {
        expert_iterations: Some(40),
        ..Config::default()
    })
}

/// Creates the table `spec` (checking the 201): its state and its path.
fn create(addr: SocketAddr, spec: &Value) -> (Value, String) {
    let (status, state) = call(addr, "POST", "/api/tables", Some(spec));
    assert_eq!(status, 201, "{state}");
    let path = format!("/api/tables/{}", state["id"].as_str().unwrap());
    (state, path)
}

/// Steps the bots of the table at `path` until it is the human's turn (or the match is
/// over); the state then.
fn until_human_turn(addr: SocketAddr, path: &str) -> Value {
    for _ in 0..5000 {
        let (_, state) = call(addr, "GET", path, None);
        match state["status"].as_str().unwrap() {
            "your_turn" | "over" => return state,
            "bot_turn" => {
                let (status, after) = call(addr, "POST", &format!("{path}/step"), None);
                assert_eq!(status, 200, "{after}");
            }
            other => panic!("status {other}: {state}"),
        }
    }
    panic!("the human's turn never came")
}

/// Checks a hint against the state it was asked in: the best decision first, marked
/// alone, legal, and every listed decision among the state's `legal`.
fn check_hint(hint: &Value, state: &Value, unit: &str) {
    assert_eq!(hint["analyzed"], true, "{hint}");
    assert_eq!(hint["unit"], unit, "{hint}");
    assert_eq!(hint["higher_is_better"], unit == "chips", "{hint}");
    assert_eq!(
        hint["moves"],
        state["moves"].as_array().unwrap().len(),
        "{hint}"
    );
    let decisions = hint["decisions"].as_array().unwrap();
    let legal = state["legal"].as_array().unwrap();
    assert_eq!(decisions.len(), legal.len().min(5), "{hint}");
    assert_eq!(decisions[0]["best"], true, "{hint}");
    assert_eq!(
        decisions.iter().filter(|d| d["best"] == true).count(),
        1,
        "{hint}"
    );
    for d in decisions {
        assert!(legal.contains(&d["decision"]), "{d} is not legal: {state}");
        assert!(d["expected"].is_number(), "{d}");
    }
    assert!(hint.get("compute_micros").is_none(), "{hint}");
}

#[test]
fn a_hint_on_the_human_turn_is_legal_and_the_same_for_the_same_table() {
    let addr = start_quick();
    let spec = json!({"game": "lexio", "players": 4, "human_seat": 2,
        "levels": ["easy", "normal", "hard"], "seed": 2, "rounds": 1});
    let mut hints = Vec::new();
    for _ in 0..2 {
        let (state, path) = create(addr, &spec);
        // Off the human's turn: 409, and the table does not move.
        assert_eq!(state["status"], "bot_turn", "pick a seed where a bot leads");
        let (status, refused) = call(addr, "POST", &format!("{path}/hint"), None);
        assert_eq!(status, 409, "{refused}");
        assert!(refused["error"].as_str().unwrap().contains("not your turn"));
        assert_eq!(call(addr, "GET", &path, None).1, state);

        let state = until_human_turn(addr, &path);
        assert_eq!(state["status"], "your_turn", "{state}");
        let (status, hint) = call(addr, "POST", &format!("{path}/hint"), None);
        assert_eq!(status, 200, "{hint}");
        check_hint(&hint, &state, "chips");
        // Asked again: the same hint, and the table has not moved.
        assert_eq!(call(addr, "POST", &format!("{path}/hint"), None).1, hint);
        assert_eq!(call(addr, "GET", &path, None).1, state);
        // The best decision is one the table takes.
        let best = hint["decisions"][0]["decision"].clone();
        let (status, after) = call(
            addr,
            "POST",
            &format!("{path}/actions"),
            Some(&json!({ "decision": best })),
        );
        assert_eq!(status, 200, "{after}");
        hints.push(hint);
    }
    assert_eq!(hints[0], hints[1], "the same table gives the same hint");
    // A bot-only table has no human turn.
    let (_, watched) = create(
        addr,
        &json!({"game": "lexio", "players": 3, "levels": ["easy", "easy", "easy"]}),
    );
    let (status, _) = call(addr, "POST", &format!("{watched}/hint"), None);
    assert_eq!(status, 409);
    let (status, _) = call(addr, "POST", "/api/tables/999/hint", None);
    assert_eq!(status, 404);
}

/// Checks a deal's review against the table's moves: one entry per human move of the
/// deal, in order, each analyzed one with a category, the best and the decision played.
/// Returns the number of entries analyzed.
fn check_review(review: &Value, deal: u64, human_moves: &[&Value]) -> usize {
    assert_eq!(review["deal"], deal, "{review}");
    let entries = review["decisions"].as_array().unwrap();
    let indices: Vec<&Value> = entries.iter().map(|e| &e["index"]).collect();
    let expected: Vec<&Value> = human_moves.iter().map(|m| &m["index"]).collect();
    assert_eq!(indices, expected, "{review}");
    let mut analyzed = 0;
    for (entry, m) in entries.iter().zip(human_moves) {
        assert_eq!(entry["decision"], m["decision"], "{entry}");
        if entry["analyzed"] == true {
            analyzed += 1;
            let category = entry["review"]["category"].as_str().unwrap();
            assert!(
                [
                    "REVIEW_CATEGORY_BEST",
                    "REVIEW_CATEGORY_GOOD",
                    "REVIEW_CATEGORY_INACCURACY",
                    "REVIEW_CATEGORY_MISTAKE",
                    "REVIEW_CATEGORY_BLUNDER"
                ]
                .contains(&category),
                "{entry}"
            );
            assert_eq!(entry["best"]["best"], true, "{entry}");
            assert_eq!(entry["played"]["decision"], m["decision"], "{entry}");
            assert!(entry["review"]["loss"].is_number(), "{entry}");
            assert_eq!(
                category == "REVIEW_CATEGORY_BEST",
                entry["best"]["decision"] == m["decision"],
                "{entry}"
            );
        } else {
            assert!(entry["reason"].is_string(), "{entry}");
            assert!(entry["review"].is_null(), "{entry}");
        }
    }
    analyzed
}

/// The human's moves of a table.
fn human_moves_of(end: &Value) -> Vec<&Value> {
    end["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["level"] == "human")
        .collect()
}

#[test]
fn each_deal_over_has_a_review_of_the_human_decisions() {
    let addr = start_quick();
    let spec = json!({"game": "daifugo", "players": 4, "human_seat": 0, "rules": "house",
        "levels": ["hard", "normal", "easy"], "seed": 4, "rounds": 2});
    let (state, path) = create(addr, &spec);
    // While the first game is played its review waits; a deal the table does not play
    // is not found, and a deal must be a number.
    assert_eq!(state["reviewable"], json!([]));
    assert_eq!(call(addr, "GET", &format!("{path}/review/1"), None).0, 409);
    assert_eq!(call(addr, "GET", &format!("{path}/review/3"), None).0, 404);
    assert_eq!(call(addr, "GET", &format!("{path}/review/0"), None).0, 404);
    let (status, bad) = call(addr, "GET", &format!("{path}/review/x"), None);
    assert_eq!((status, &bad["field"]), (400, &json!("deal")), "{bad}");

    // The human's move indices of each deal, as the deal number of each turn says.
    let mut by_deal: Vec<Vec<u64>> = vec![Vec::new(), Vec::new()];
    let mut reviewed_first = false;
    let mut no_hint_seen = 0;
    for _ in 0..5000 {
        let (_, state) = call(addr, "GET", &path, None);
        let status = state["status"].as_str().unwrap();
        if status == "over" {
            break;
        }
        let deal = state["view"]["daifugo"]["game"].as_u64().unwrap();
        if deal == 2 && !reviewed_first {
            assert_eq!(state["reviewable"], json!([1]), "{state}");
            reviewed_first = true;
        }
        if status == "your_turn" {
            let (status, hint) = call(addr, "POST", &format!("{path}/hint"), None);
            assert_eq!(status, 200, "{hint}");
            if state["your_view"]["daifugo"]["phase"] == "DAIFUGO_PHASE_EXCHANGE" {
                // An exchange is not analyzed: no hint, and no error.
                assert_eq!(hint["analyzed"], false, "{hint}");
                assert!(hint["reason"].as_str().unwrap().starts_with("no hint"));
                no_hint_seen += 1;
            } else {
                check_hint(&hint, &state, "place");
            }
            by_deal[deal as usize - 1].push(state["moves"].as_array().unwrap().len() as u64);
        }
        let (status, after) = advance(addr, &path, &state);
        assert_eq!(status, 200, "{after}");
    }
    assert!(reviewed_first, "the second game was never played");
    let (_, end) = call(addr, "GET", &path, None);
    assert_eq!(end["status"], "over", "{end}");
    assert_eq!(end["reviewable"], json!([1, 2]));
    let human = human_moves_of(&end);
    let mut analyzed = 0;
    for deal in [1u64, 2] {
        let wanted: Vec<&Value> = human
            .iter()
            .copied()
            .filter(|m| by_deal[deal as usize - 1].contains(&m["index"].as_u64().unwrap()))
            .collect();
        assert!(!wanted.is_empty(), "the human decided in game {deal}");
        let (status, review) = call(addr, "GET", &format!("{path}/review/{deal}"), None);
        assert_eq!(status, 200, "{review}");
        assert_eq!(review["unit"], "place");
        assert_eq!(review["higher_is_better"], false);
        analyzed += check_review(&review, deal, &wanted);
        // Kept: asked again, the same review.
        assert_eq!(
            call(addr, "GET", &format!("{path}/review/{deal}"), None).1,
            review
        );
        // An exchange is listed, not analyzed.
        for entry in review["decisions"].as_array().unwrap() {
            if entry["decision"]["daifugo"].get("exchange").is_some() {
                assert_eq!(entry["analyzed"], false, "{entry}");
                assert!(
                    entry["reason"]
                        .as_str()
                        .unwrap()
                        .starts_with("not analyzed")
                );
            }
        }
    }
    assert!(analyzed > 0);
    assert!(
        no_hint_seen > 0,
        "pick a seed where the human gives cards back in an exchange"
    );
}
