//! Load-test payloads: `climbot loadtest payloads` writes `SelectPlay` and `AnalyzePlay`
//! requests built from real mid-game views, and `grpc.health.v1.Health/Check` requests,
//! in the four shapes the load tools want:
//!
//! - `<name>.bin`: the serialized message alone;
//! - `<name>.ghz.bin`: the message after its length as a varint (ghz `-B` /
//!   `binary-file`): ghz reads a binary file as length-prefixed messages first and
//!   takes the whole file as one message only if that fails, which a bare message may
//!   or may not do; with the prefix it reads exactly this one message by design;
//! - `<name>.json`: the message in proto3 JSON (ghz `-D` / `data-file`, grpcurl `-d @`);
//! - `<name>.h2load.bin`: the 5-byte gRPC prefix (0 = not compressed, then the length
//!   as a big-endian `u32`) followed by the message (h2load `-d`).
//!
//! The views come from seeded rounds between easy bots, so the same `--seed` writes the
//! same files. Each game is one function returning named views ([`lexio_views`]); a new
//! game adds one function and one line in [`decision_payloads`].

use crate::bot::DecisionContext;
use crate::game::GameKind;
use crate::lexio::PlayerCount;
use crate::lexio::bots::easy_action;
use crate::lexio::referee::{Round, deal};
use crate::pb;
use clap::{Args, Subcommand};
use prost::Message;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The service name health checks may ask about.
pub const BOT_SERVICE: &str = "climbot.v1.BotService";

/// Budget given to EXPERT and AnalyzePlay payloads, in milliseconds (the search uses
/// all of it).
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
    /// Write SelectPlay, AnalyzePlay and health-check request payloads (binary, JSON,
    /// h2load).
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
pub fn run(command: LoadtestCommand) -> Result<(), LoadtestError> {
    match command {
        LoadtestCommand::Payloads(args) => {
            let written = write_payloads(&args.out, args.seed)?;
            for name in &written {
                crate::outln!("{}", args.out.join(name).display());
            }
            Ok(())
        }
    }
}

/// Why the kit's payloads could not be made or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadtestError {
    /// A seeded deal the kit plays refused a step.
    Deal {
        /// The game.
        game: GameKind,
        /// The deal's seed.
        seed: u64,
        /// Why.
        reason: String,
    },
    /// The service's decoder refused a view the kit made.
    Refused {
        /// The game.
        game: GameKind,
        /// `lead` or `follow`.
        kind: &'static str,
        /// The decoder's error.
        reason: String,
    },
    /// No deal of the range gave both a mid-game lead and a follow.
    NoMidGame {
        /// The game.
        game: GameKind,
        /// The first seed tried.
        from: u64,
        /// One past the last.
        to: u64,
    },
    /// A payload file or folder could not be written.
    Write {
        /// The path (or the payload's name).
        what: String,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for LoadtestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadtestError::Deal { game, seed, reason } => write!(f, "{game} deal {seed}: {reason}"),
            LoadtestError::Refused { game, kind, reason } => {
                write!(f, "{game} {kind} view refused: {reason}")
            }
            LoadtestError::NoMidGame { game, from, to } => write!(
                f,
                "no {game} deal in {from}..{to} gave both a mid-game lead and a follow"
            ),
            LoadtestError::Write { what, reason } => write!(f, "cannot write {what}: {reason}"),
        }
    }
}

impl std::error::Error for LoadtestError {}

/// One named request to write.
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// A `climbot.v1.BotService/SelectPlay` request.
    SelectPlay(Box<pb::SelectPlayRequest>),
    /// A `climbot.v1.BotService/AnalyzePlay` request.
    AnalyzePlay(Box<pb::AnalyzePlayRequest>),
    /// A `grpc.health.v1.Health/Check` request.
    Health(tonic_health::pb::HealthCheckRequest),
}

impl Payload {
    /// The serialized message (no gRPC prefix).
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Payload::SelectPlay(m) => m.encode_to_vec(),
            Payload::AnalyzePlay(m) => m.encode_to_vec(),
            Payload::Health(m) => m.encode_to_vec(),
        }
    }

    /// The message in proto3 JSON (lowerCamelCase names, enums by name, 64-bit
    /// integers as strings, default values left out).
    pub fn to_json(&self) -> Value {
        match self {
            Payload::SelectPlay(m) => message_json("climbot.v1.SelectPlayRequest", &**m),
            Payload::AnalyzePlay(m) => message_json("climbot.v1.AnalyzePlayRequest", &**m),
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

/// `message` after its length as a varint: one message of the length-delimited stream
/// ghz reads from a binary file (protobuf's `writeDelimitedTo`).
pub fn length_delimited(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(10 + message.len());
    prost::encoding::encode_varint(message.len() as u64, &mut out);
    out.extend_from_slice(message);
    out
}

/// Every payload for first deal `seed`: `(name, payload)`, names without extension.
pub fn all_payloads(seed: u64) -> Result<Vec<(String, Payload)>, LoadtestError> {
    let mut payloads = decision_payloads(seed)?;
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

/// Each game's SelectPlay payloads at EASY and at each other level the game serves with
/// its budget, `<game>_<difficulty>_<kind>` (e.g. `lexio_easy_follow`), then its
/// AnalyzePlay payloads of the same views on EXPERT's budget, every legal decision
/// listed, `<game>_analyze_<kind>`.
pub fn decision_payloads(seed: u64) -> Result<Vec<(String, Payload)>, LoadtestError> {
    let mut payloads = Vec::new();
    // One line per game (Daifugo's under the UECda rules as `daifugo_uecda`): its name,
    // its views, and the levels it serves with their budgets.
    let easy = ("easy", pb::Difficulty::Easy, None);
    let expert = ("expert", pb::Difficulty::Expert, Some(EXPERT_BUDGET_MS));
    let games = [
        ("lexio", lexio_views(seed)?, vec![easy, expert]),
        ("dalmuti", dalmuti_views(seed)?, vec![easy, expert]),
        ("daifugo", daifugo_views(seed)?, vec![easy, expert]),
        (
            "daifugo_uecda",
            daifugo_uecda_views(seed)?,
            vec![easy, expert],
        ),
    ];
    for (game, views, levels) in games {
        for (level, difficulty, budget_ms) in levels {
            for (kind, view) in &views {
                let request = pb::SelectPlayRequest {
                    view: Some(view.clone()),
                    difficulty: difficulty as i32,
                    seed: None,
                    budget_ms,
                    explain: false,
                    max_iterations: None,
                    strength: None,
                };
                payloads.push((
                    format!("{game}_{level}_{kind}"),
                    Payload::SelectPlay(Box::new(request)),
                ));
            }
        }
        for (kind, view) in views {
            let request = pb::AnalyzePlayRequest {
                view: Some(view),
                decision: None,
                budget_ms: Some(EXPERT_BUDGET_MS),
                max_iterations: None,
                seed: None,
                top: None,
            };
            payloads.push((
                format!("{game}_analyze_{kind}"),
                Payload::AnalyzePlay(Box::new(request)),
            ));
        }
    }
    Ok(payloads)
}

/// Collects the first mid-game `follow` (a play to beat on the table) and `lead` (the
/// table is empty) views of a game's successive states: each taken after 10 to 20
/// actions and with at least three legal actions, and accepted by the service's own
/// decoder.
#[derive(Default)]
struct MidGamePicker {
    follow: Option<pb::GameView>,
    lead: Option<pb::GameView>,
}

impl MidGamePicker {
    /// Offers the state after `actions` actions; `view` is built only when it is kept.
    fn offer(
        &mut self,
        actions: usize,
        has_table: bool,
        choices: usize,
        view: impl FnOnce() -> pb::GameView,
    ) {
        if !MID_GAME.contains(&actions) || choices < MIN_CHOICES {
            return;
        }
        let slot = if has_table {
            &mut self.follow
        } else {
            &mut self.lead
        };
        if slot.is_none() {
            *slot = Some(view());
        }
    }

    /// Whether to stop stepping this deal (both found, or past the mid-game).
    fn deal_done(&self, actions: usize) -> bool {
        actions > *MID_GAME.end() || (self.follow.is_some() && self.lead.is_some())
    }

    /// Both views, checked by the service's decoder, or `None` if one is missing.
    fn finish(
        &self,
        game: GameKind,
    ) -> Result<Option<Vec<(&'static str, pb::GameView)>>, LoadtestError> {
        let (Some(follow), Some(lead)) = (&self.follow, &self.lead) else {
            return Ok(None);
        };
        let mut views = Vec::new();
        for (kind, view) in [("follow", follow), ("lead", lead)] {
            crate::service::game::decode(crate::service::game::WireView::Proto(Some(view.clone())))
                .map_err(|e| LoadtestError::Refused {
                    game,
                    kind,
                    reason: format!("{e:?}"),
                })?;
            views.push((kind, view.clone()));
        }
        Ok(Some(views))
    }
}

/// Tries deals `seed`, `seed + 1`, ... (`play_deal` steps one deal through the picker)
/// until a mid-game follow and lead are both found.
fn mid_game_views(
    game: GameKind,
    seed: u64,
    mut play_deal: impl FnMut(u64, &mut MidGamePicker) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<Vec<(&'static str, pb::GameView)>, LoadtestError> {
    let mut picker = MidGamePicker::default();
    for deal_seed in seed..seed.saturating_add(MAX_DEALS) {
        play_deal(deal_seed, &mut picker).map_err(|e| LoadtestError::Deal {
            game,
            seed: deal_seed,
            reason: e.to_string(),
        })?;
        if let Some(views) = picker.finish(game)? {
            return Ok(views);
        }
    }
    Err(LoadtestError::NoMidGame {
        game,
        from: seed,
        to: seed.saturating_add(MAX_DEALS),
    })
}

/// Two mid-game Lexio views (four players) from seeded easy rounds.
pub fn lexio_views(seed: u64) -> Result<Vec<(&'static str, pb::GameView)>, LoadtestError> {
    let players = PlayerCount::Four;
    mid_game_views(GameKind::Lexio, seed, |deal_seed, picker| {
        let mut round = Round::new(players, deal(players, deal_seed), 1, [0; 5]);
        for actions in 0.. {
            let view = round.view()?;
            picker.offer(
                actions,
                view.table().is_some(),
                view.legal_actions().len(),
                || pb::GameView {
                    game: Some(pb::game_view::Game::Lexio(
                        crate::service::lexio::view_to_wire(&view),
                    )),
                },
            );
            let action = easy_action(players, view.hand(), view.table());
            if picker.deal_done(actions) || round.apply(action)? {
                break;
            }
        }
        Ok(())
    })
}

/// Two mid-game Dalmuti views (six players, first hand) from seeded easy hands.
pub fn dalmuti_views(seed: u64) -> Result<Vec<(&'static str, pb::GameView)>, LoadtestError> {
    use crate::dalmuti::referee::{HandState, deal as deal_dalmuti};
    use crate::dalmuti::{Phase, legal_decisions};
    const PLAYERS: usize = 6;
    let easy = crate::dalmuti::policy(crate::bot::Difficulty::Easy).expect("easy exists");
    mid_game_views(GameKind::Dalmuti, seed, |deal_seed, picker| {
        let mut rng =
            <rand_chacha::ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(
                deal_seed,
            );
        let seats: Vec<usize> = (0..PLAYERS).collect();
        let mut state = HandState::new(
            &deal_dalmuti(PLAYERS, &mut rng),
            &seats,
            &[0; PLAYERS],
            1,
            19,
        );
        for actions in 0.. {
            let Some(view) = state.view()? else {
                break;
            };
            if view.phase() == Phase::Play {
                picker.offer(
                    actions,
                    view.table().is_some(),
                    legal_decisions(&view).len(),
                    || pb::GameView {
                        game: Some(pb::game_view::Game::Dalmuti(
                            crate::service::dalmuti::view_to_wire(&view),
                        )),
                    },
                );
            }
            if picker.deal_done(actions) {
                break;
            }
            let decision = easy.decide(&view, &mut DecisionContext::unbounded(deal_seed));
            state.apply(decision, easy.name())?;
        }
        Ok(())
    })
}

/// Two mid-game Daifugo views (four players, house rules, first game) from seeded easy
/// games.
pub fn daifugo_views(seed: u64) -> Result<Vec<(&'static str, pb::GameView)>, LoadtestError> {
    daifugo_views_under(crate::daifugo::rules::RuleSet::house(), 4, seed)
}

/// Two mid-game Daifugo views under the UECda rules (five players, the contest's table,
/// first game) from seeded easy games: EXPERT searches differently under them.
pub fn daifugo_uecda_views(seed: u64) -> Result<Vec<(&'static str, pb::GameView)>, LoadtestError> {
    daifugo_views_under(crate::daifugo::rules::RuleSet::uecda(), 5, seed)
}

/// Two mid-game Daifugo views of the first game at `players` under `rules`.
fn daifugo_views_under(
    rules: crate::daifugo::rules::RuleSet,
    players: usize,
    seed: u64,
) -> Result<Vec<(&'static str, pb::GameView)>, LoadtestError> {
    use crate::daifugo::referee::Referee;
    use crate::daifugo::view::Phase;
    use crate::daifugo::{bots, legal_decisions};
    mid_game_views(GameKind::Daifugo, seed, |deal_seed, picker| {
        let mut referee = Referee::new(rules, players)?;
        referee.start_game_seeded(deal_seed);
        for actions in 0.. {
            let Some(seat) = referee.to_act() else {
                break;
            };
            let view = referee.view(seat)?;
            if view.phase() == Phase::Play {
                picker.offer(
                    actions,
                    view.table().is_some(),
                    legal_decisions(&view).len(),
                    || pb::GameView {
                        game: Some(pb::game_view::Game::Daifugo(
                            crate::service::daifugo::view_to_wire(&view),
                        )),
                    },
                );
            }
            if picker.deal_done(actions) {
                break;
            }
            let decision = bots::easy::decide(&view);
            referee.apply(seat, &decision)?;
        }
        Ok(())
    })
}

/// Writes every payload into `dir` in its four shapes; returns the file names.
pub fn write_payloads(dir: &Path, seed: u64) -> Result<Vec<String>, LoadtestError> {
    let write_error = |what: String| {
        move |e: std::io::Error| LoadtestError::Write {
            what,
            reason: e.to_string(),
        }
    };
    std::fs::create_dir_all(dir).map_err(write_error(dir.display().to_string()))?;
    let mut written = Vec::new();
    for (name, payload) in all_payloads(seed)? {
        let message = payload.encode();
        let json =
            serde_json::to_string_pretty(&payload.to_json()).map_err(|e| LoadtestError::Write {
                what: name.clone(),
                reason: e.to_string(),
            })?;
        for (file, bytes) in [
            (format!("{name}.bin"), message.clone()),
            (format!("{name}.ghz.bin"), length_delimited(&message)),
            (format!("{name}.h2load.bin"), grpc_frame(&message)),
            (format!("{name}.json"), format!("{json}\n").into_bytes()),
        ] {
            let path = dir.join(&file);
            std::fs::write(&path, bytes).map_err(write_error(path.display().to_string()))?;
            written.push(file);
        }
    }
    Ok(written)
}

/// `message` (of the API's type `name`) in canonical proto3 JSON, through the compiled
/// descriptors (the same mapping ghz and grpcurl use).
fn message_json(name: &str, message: &impl Message) -> Value {
    static POOL: std::sync::LazyLock<prost_reflect::DescriptorPool> =
        std::sync::LazyLock::new(|| {
            prost_reflect::DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET)
                .expect("the compiled descriptor set decodes")
        });
    let descriptor = POOL
        .get_message_by_name(name)
        .expect("the API's request types are in the descriptor set");
    let message = prost_reflect::DynamicMessage::decode(descriptor, &*message.encode_to_vec())
        .expect("a request decodes with its own descriptor");
    serde_json::to_value(&message).expect("a message serializes to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexio_views_are_mid_game_follow_and_lead_and_valid() {
        let views = lexio_views(1).unwrap();
        let kinds: Vec<_> = views.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, ["follow", "lead"]);
        for (kind, view) in views {
            let Some(pb::game_view::Game::Lexio(lexio)) = view.game else {
                panic!("not lexio")
            };
            assert_eq!(lexio.table.is_none(), kind == "lead");
            assert!(lexio.log.len() >= *MID_GAME.start(), "{kind}: early view");
            let view = crate::service::lexio::decode(lexio)
                .unwrap_or_else(|e| panic!("{kind}: refused: {e:?}"));
            assert!(
                view.legal_actions().len() >= MIN_CHOICES,
                "{kind}: no choice"
            );
        }
    }

    #[test]
    fn daifugo_views_are_under_their_rules_and_table_size() {
        use crate::daifugo::rules::RuleSet;
        for (views, rules, seats) in [
            (daifugo_views(1).unwrap(), RuleSet::house(), 4),
            (daifugo_uecda_views(1).unwrap(), RuleSet::uecda(), 5),
        ] {
            let kinds: Vec<_> = views.iter().map(|(k, _)| *k).collect();
            assert_eq!(kinds, ["follow", "lead"]);
            for (kind, view) in views {
                let Some(pb::game_view::Game::Daifugo(daifugo)) = view.game else {
                    panic!("not daifugo")
                };
                let view = crate::service::daifugo::decode(daifugo)
                    .unwrap_or_else(|e| panic!("{kind}: refused: {e:?}"));
                assert_eq!(*view.rules(), rules, "{kind}");
                assert_eq!(view.seats().len(), seats, "{kind}");
                assert_eq!(view.table().is_none(), kind == "lead", "{kind}");
            }
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
                "lexio_analyze_follow",
                "lexio_analyze_lead",
                "dalmuti_easy_follow",
                "dalmuti_easy_lead",
                "dalmuti_expert_follow",
                "dalmuti_expert_lead",
                "dalmuti_analyze_follow",
                "dalmuti_analyze_lead",
                "daifugo_easy_follow",
                "daifugo_easy_lead",
                "daifugo_expert_follow",
                "daifugo_expert_lead",
                "daifugo_analyze_follow",
                "daifugo_analyze_lead",
                "daifugo_uecda_easy_follow",
                "daifugo_uecda_easy_lead",
                "daifugo_uecda_expert_follow",
                "daifugo_uecda_expert_lead",
                "daifugo_uecda_analyze_follow",
                "daifugo_uecda_analyze_lead",
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
                Payload::AnalyzePlay(request) => {
                    assert_eq!(
                        pb::AnalyzePlayRequest::decode(&message[..]).unwrap(),
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
    fn json_parses_back_to_the_binary_payload() {
        let pool = prost_reflect::DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET).unwrap();
        let mut checked = 0;
        for (name, payload) in all_payloads(1).unwrap() {
            let type_name = match &payload {
                Payload::SelectPlay(_) => "climbot.v1.SelectPlayRequest",
                Payload::AnalyzePlay(_) => "climbot.v1.AnalyzePlayRequest",
                Payload::Health(_) => continue,
            };
            let descriptor = pool.get_message_by_name(type_name).unwrap();
            let text = serde_json::to_string(&payload.to_json()).unwrap();
            let mut de = serde_json::Deserializer::from_str(&text);
            let parsed = prost_reflect::DynamicMessage::deserialize(descriptor, &mut de)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(parsed.encode_to_vec(), payload.encode(), "{name}");
            checked += 1;
        }
        assert_eq!(checked, 24);
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
        assert!(
            lexio["table"]["tiles"]
                .as_array()
                .is_some_and(|t| !t.is_empty())
        );
        assert!(lexio["table"]["owner"].is_u64());
        assert!(
            lexio["hand"][0]["suit"]
                .as_str()
                .is_some_and(|s| s.starts_with("LEXIO_SUIT_"))
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
    fn written_files_are_the_four_shapes() {
        let dir = std::env::temp_dir().join(format!("climbot-payloads-{}", std::process::id()));
        let written = write_payloads(&dir, 1).unwrap();
        assert_eq!(written.len(), 26 * 4);
        let bin = std::fs::read(dir.join("lexio_easy_lead.bin")).unwrap();
        let framed = std::fs::read(dir.join("lexio_easy_lead.h2load.bin")).unwrap();
        assert_eq!(framed, grpc_frame(&bin));
        let delimited = std::fs::read(dir.join("lexio_easy_lead.ghz.bin")).unwrap();
        let mut rest = &delimited[..];
        let decoded = pb::SelectPlayRequest::decode_length_delimited(&mut rest).unwrap();
        assert!(rest.is_empty(), "exactly one message");
        assert_eq!(decoded.encode_to_vec(), bin);
        // The empty health request is one message too: its length, 0.
        let health = std::fs::read(dir.join("health.ghz.bin")).unwrap();
        assert_eq!(health, [0]);
        let json: Value =
            serde_json::from_slice(&std::fs::read(dir.join("health_botservice.json")).unwrap())
                .unwrap();
        assert_eq!(json, json!({ "service": BOT_SERVICE }));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
