//! Load-test payloads: `climbot loadtest payloads` writes `SelectPlay` requests built
//! from real mid-game views, and `grpc.health.v1.Health/Check` requests, in the three
//! shapes the load tools want:
//!
//! - `<name>.bin`: the serialized message alone (ghz `-B` / `binary-file`);
//! - `<name>.json`: the message in proto3 JSON (ghz `-D` / `data-file`, grpcurl `-d @`);
//! - `<name>.h2load.bin`: the 5-byte gRPC prefix (0 = not compressed, then the length
//!   as a big-endian `u32`) followed by the message (h2load `-d`).
//!
//! The views come from seeded rounds between easy bots, so the same `--seed` writes the
//! same files. Each game is one function returning named views ([`lexio_views`]); a new
//! game adds one function and one line in [`select_play_payloads`].

use crate::lexio::bots::easy_action;
use crate::lexio::referee::{Round, deal};
use crate::lexio::{LexioView, PlayerCount};
use crate::pb;
use crate::service::lexio::{decode, view_to_wire};
use clap::{Args, Subcommand};
use prost::Message;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// The service name health checks may ask about.
pub const BOT_SERVICE: &str = "climbot.v1.BotService";

/// Budget given to EXPERT payloads, in milliseconds (the search uses all of it).
pub const EXPERT_BUDGET_MS: u32 = 20;

/// Rounds tried per game before giving up on finding both kinds of views.
const MAX_DEALS: u64 = 64;

/// Actions played before a view may be picked, and the last action at which one is.
const MID_GAME: std::ops::RangeInclusive<usize> = 10..=20;

/// Legal actions a picked view must offer (pass counts), so that a search has choices.
const MIN_CHOICES: usize = 3;

/// `climbot loadtest ...`.
#[derive(Subcommand, Debug)]
pub enum LoadtestCommand {
    /// Write SelectPlay and health-check request payloads (binary, JSON, h2load).
    Payloads(PayloadsArgs),
}

/// Flags of `climbot loadtest payloads`.
#[derive(Args, Debug, Clone)]
pub struct PayloadsArgs {
    /// Directory to write into (created if missing).
    #[arg(long, default_value = "deploy/loadtest/payloads")]
    pub out: PathBuf,
    /// Seed of the first deal (later deals use the next seeds).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs a `loadtest` subcommand.
pub fn run(command: LoadtestCommand) -> Result<(), String> {
    match command {
        LoadtestCommand::Payloads(args) => {
            let written = write_payloads(&args.out, args.seed)?;
            for name in &written {
                println!("{}", args.out.join(name).display());
            }
            Ok(())
        }
    }
}

/// One named request to write.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// A `climbot.v1.BotService/SelectPlay` request.
    SelectPlay(Box<pb::SelectPlayRequest>),
    /// A `grpc.health.v1.Health/Check` request.
    Health(tonic_health::pb::HealthCheckRequest),
}

impl Payload {
    /// The serialized message (no gRPC prefix).
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Payload::SelectPlay(m) => m.encode_to_vec(),
            Payload::Health(m) => m.encode_to_vec(),
        }
    }

    /// The message in proto3 JSON (lowerCamelCase names, enums by name, 64-bit
    /// integers as strings, default values left out).
    pub fn to_json(&self) -> Value {
        match self {
            Payload::SelectPlay(m) => select_play_json(m),
            Payload::Health(m) if m.service.is_empty() => json!({}),
            Payload::Health(m) => json!({ "service": m.service }),
        }
    }
}

/// `message` with the gRPC length prefix, as one DATA body of a unary call.
pub fn grpc_frame(message: &[u8]) -> Vec<u8> {
    let len = u32::try_from(message.len()).expect("a payload under 4 GiB");
    let mut framed = Vec::with_capacity(5 + message.len());
    framed.push(0);
    framed.extend_from_slice(&len.to_be_bytes());
    framed.extend_from_slice(message);
    framed
}

/// Every payload for first deal `seed`: `(name, payload)`, names without extension.
pub fn all_payloads(seed: u64) -> Result<Vec<(String, Payload)>, String> {
    let mut payloads = select_play_payloads(seed)?;
    payloads.push((
        "health".to_string(),
        Payload::Health(tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        }),
    ));
    payloads.push((
        "health_botservice".to_string(),
        Payload::Health(tonic_health::pb::HealthCheckRequest {
            service: BOT_SERVICE.to_string(),
        }),
    ));
    Ok(payloads)
}

/// SelectPlay payloads of every served game, at each level the game serves:
/// `<game>_<difficulty>_<kind>`, e.g. `lexio_easy_follow`.
pub fn select_play_payloads(seed: u64) -> Result<Vec<(String, Payload)>, String> {
    let mut payloads = Vec::new();
    // One line per game: its views, and the levels it serves with their budgets.
    let games = [(
        "lexio",
        lexio_views(seed)?,
        [
            ("easy", pb::Difficulty::Easy, None),
            ("expert", pb::Difficulty::Expert, Some(EXPERT_BUDGET_MS)),
        ],
    )];
    for (game, views, levels) in games {
        for (level, difficulty, budget_ms) in levels {
            for (kind, view) in &views {
                let request = pb::SelectPlayRequest {
                    explain: false,
                    view: Some(view.clone()),
                    difficulty: difficulty as i32,
                    seed: None,
                    budget_ms,
                };
                payloads.push((
                    format!("{game}_{level}_{kind}"),
                    Payload::SelectPlay(Box::new(request)),
                ));
            }
        }
    }
    Ok(payloads)
}

/// Two mid-game Lexio views (four players) from seeded easy rounds: `follow` (a play to
/// beat on the table) and `lead` (the table is empty), each taken after 10 to 20
/// actions and with at least three legal actions. Deals `seed`, `seed + 1`, ... are
/// tried until both kinds are found.
pub fn lexio_views(seed: u64) -> Result<Vec<(&'static str, pb::GameView)>, String> {
    let players = PlayerCount::Four;
    let mut follow: Option<LexioView> = None;
    let mut lead: Option<LexioView> = None;
    for deal_seed in seed..seed.saturating_add(MAX_DEALS) {
        let mut round = Round::new(players, deal(players, deal_seed), 1, [0; 5]);
        for actions in 0..=*MID_GAME.end() {
            let view = round.view().map_err(|e| format!("deal {deal_seed}: {e}"))?;
            if MID_GAME.contains(&actions) && view.legal_actions().len() >= MIN_CHOICES {
                let slot = if view.table().is_some() {
                    &mut follow
                } else {
                    &mut lead
                };
                if slot.is_none() {
                    *slot = Some(view.clone());
                }
            }
            let action = easy_action(players, view.hand(), view.table());
            if round
                .apply(action)
                .map_err(|e| format!("deal {deal_seed}: {e}"))?
            {
                break;
            }
        }
        if let (Some(follow), Some(lead)) = (&follow, &lead) {
            let mut views = Vec::new();
            for (kind, view) in [("follow", follow), ("lead", lead)] {
                let wire = view_to_wire(view);
                // The server must accept it: decode it as the service does.
                decode(wire.clone()).map_err(|e| format!("lexio {kind} view refused: {e:?}"))?;
                views.push((
                    kind,
                    pb::GameView {
                        game: Some(pb::game_view::Game::Lexio(wire)),
                    },
                ));
            }
            return Ok(views);
        }
    }
    Err(format!(
        "no deal in {seed}..{} gave both a mid-game lead and a follow",
        seed.saturating_add(MAX_DEALS)
    ))
}

/// Writes every payload into `dir` in its three shapes; returns the file names.
pub fn write_payloads(dir: &Path, seed: u64) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (name, payload) in all_payloads(seed)? {
        let message = payload.encode();
        let json =
            serde_json::to_string_pretty(&payload.to_json()).map_err(|e| format!("{name}: {e}"))?;
        for (file, bytes) in [
            (format!("{name}.bin"), message.clone()),
            (format!("{name}.h2load.bin"), grpc_frame(&message)),
            (format!("{name}.json"), format!("{json}\n").into_bytes()),
        ] {
            let path = dir.join(&file);
            std::fs::write(&path, bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            written.push(file);
        }
    }
    Ok(written)
}

fn select_play_json(request: &pb::SelectPlayRequest) -> Value {
    let mut out = Map::new();
    if let Some(view) = &request.view {
        let mut game = Map::new();
        // Payloads are generated for Lexio only so far (the other games' views go
        // here when their payloads are added).
        if let Some(pb::game_view::Game::Lexio(lexio)) = &view.game {
            game.insert("lexio".into(), lexio_view_json(lexio));
        }
        out.insert("view".into(), Value::Object(game));
    }
    if request.difficulty != 0 {
        let name = pb::Difficulty::try_from(request.difficulty)
            .map_or_else(|_| json!(request.difficulty), |d| json!(d.as_str_name()));
        out.insert("difficulty".into(), name);
    }
    if let Some(seed) = request.seed {
        out.insert("seed".into(), json!(seed.to_string()));
    }
    if let Some(budget) = request.budget_ms {
        out.insert("budgetMs".into(), json!(budget));
    }
    Value::Object(out)
}

fn lexio_view_json(view: &pb::LexioView) -> Value {
    let mut out = Map::new();
    let mut put = |key: &str, value: Value, default: bool| {
        if !default {
            out.insert(key.to_string(), value);
        }
    };
    put(
        "playerCount",
        json!(view.player_count),
        view.player_count == 0,
    );
    put("seat", json!(view.seat), view.seat == 0);
    put("hand", tiles_json(&view.hand), view.hand.is_empty());
    put("table", tiles_json(&view.table), view.table.is_empty());
    let seats = view
        .seats
        .iter()
        .map(|s| {
            let mut seat = Map::new();
            if s.tile_count != 0 {
                seat.insert("tileCount".into(), json!(s.tile_count));
            }
            if s.finished {
                seat.insert("finished".into(), json!(true));
            }
            Value::Object(seat)
        })
        .collect();
    put("seats", Value::Array(seats), view.seats.is_empty());
    put("played", tiles_json(&view.played), view.played.is_empty());
    let log = view
        .log
        .iter()
        .map(|entry| {
            let mut e = Map::new();
            if entry.seat != 0 {
                e.insert("seat".into(), json!(entry.seat));
            }
            if !entry.tiles.is_empty() {
                e.insert("tiles".into(), tiles_json(&entry.tiles));
            }
            Value::Object(e)
        })
        .collect();
    put("log", Value::Array(log), view.log.is_empty());
    put("round", json!(view.round), view.round == 0);
    let scores = view.scores.iter().map(|s| json!(s.to_string())).collect();
    put("scores", Value::Array(scores), view.scores.is_empty());
    Value::Object(out)
}

fn tiles_json(tiles: &[pb::Tile]) -> Value {
    tiles
        .iter()
        .map(|t| {
            let suit = pb::Suit::try_from(t.suit)
                .map_or_else(|_| json!(t.suit), |s| json!(s.as_str_name()));
            json!({ "number": t.number, "suit": suit })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::game::GameAdapter;

    #[test]
    fn lexio_views_are_mid_game_follow_and_lead_and_valid() {
        let views = lexio_views(1).unwrap();
        let kinds: Vec<_> = views.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, ["follow", "lead"]);
        for (kind, view) in views {
            let Some(pb::game_view::Game::Lexio(lexio)) = view.game else {
                panic!("not lexio")
            };
            assert_eq!(lexio.table.is_empty(), kind == "lead");
            assert!(lexio.log.len() >= *MID_GAME.start(), "{kind}: early view");
            let legal = decode(lexio)
                .unwrap_or_else(|e| panic!("{kind}: refused: {e:?}"))
                .legal_plays();
            let Some(pb::list_legal_plays_response::Game::Lexio(legal)) = legal.game else {
                panic!("not lexio")
            };
            assert!(legal.actions.len() >= MIN_CHOICES, "{kind}: no choice");
        }
    }

    #[test]
    fn payloads_are_deterministic_and_cover_each_served_level() {
        let a = all_payloads(7).unwrap();
        assert_eq!(a, all_payloads(7).unwrap());
        let names: Vec<_> = a.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "lexio_easy_follow",
                "lexio_easy_lead",
                "lexio_expert_follow",
                "lexio_expert_lead",
                "health",
                "health_botservice"
            ]
        );
    }

    #[test]
    fn binary_shapes_decode_back() {
        for (name, payload) in all_payloads(1).unwrap() {
            let message = payload.encode();
            let framed = grpc_frame(&message);
            assert_eq!(framed[0], 0, "{name}: not compressed");
            assert_eq!(
                u32::from_be_bytes(framed[1..5].try_into().unwrap()) as usize,
                message.len()
            );
            assert_eq!(&framed[5..], &message[..]);
            match payload {
                Payload::SelectPlay(request) => {
                    assert_eq!(
                        pb::SelectPlayRequest::decode(&message[..]).unwrap(),
                        *request
                    );
                }
                Payload::Health(request) => {
                    assert_eq!(
                        tonic_health::pb::HealthCheckRequest::decode(&message[..]).unwrap(),
                        request
                    );
                }
            }
        }
        // The empty-service health check is an empty message.
        let health = Payload::Health(tonic_health::pb::HealthCheckRequest::default());
        assert_eq!(grpc_frame(&health.encode()), [0, 0, 0, 0, 0]);
    }

    #[test]
    fn json_uses_proto3_names_and_enum_names() {
        let payloads = all_payloads(1).unwrap();
        let (_, expert) = payloads
            .iter()
            .find(|(n, _)| n == "lexio_expert_follow")
            .unwrap();
        let json = expert.to_json();
        assert_eq!(json["difficulty"], "DIFFICULTY_EXPERT");
        assert_eq!(json["budgetMs"], EXPERT_BUDGET_MS);
        let lexio = &json["view"]["lexio"];
        assert_eq!(lexio["playerCount"], 4);
        assert!(lexio["table"].as_array().is_some_and(|t| !t.is_empty()));
        assert!(
            lexio["hand"][0]["suit"]
                .as_str()
                .is_some_and(|s| s.starts_with("SUIT_"))
        );
        assert!(lexio["seats"][0]["tileCount"].is_u64());
        let Payload::SelectPlay(request) = expert else {
            panic!("not SelectPlay")
        };
        let Some(pb::game_view::Game::Lexio(view)) = &request.view.as_ref().unwrap().game else {
            panic!("not lexio")
        };
        assert_eq!(
            lexio["log"].as_array().map(Vec::len),
            Some(view.log.len()),
            "one JSON entry per log entry, passes included"
        );
    }

    #[test]
    fn written_files_are_the_three_shapes() {
        let dir = std::env::temp_dir().join(format!("climbot-payloads-{}", std::process::id()));
        let written = write_payloads(&dir, 1).unwrap();
        assert_eq!(written.len(), 6 * 3);
        let bin = std::fs::read(dir.join("lexio_easy_lead.bin")).unwrap();
        let framed = std::fs::read(dir.join("lexio_easy_lead.h2load.bin")).unwrap();
        assert_eq!(framed, grpc_frame(&bin));
        let json: Value =
            serde_json::from_slice(&std::fs::read(dir.join("health_botservice.json")).unwrap())
                .unwrap();
        assert_eq!(json, json!({ "service": BOT_SERVICE }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
