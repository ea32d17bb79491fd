//! A structure-aware mutation fuzzer for the service's decoders and validators: real
//! requests of every game (the load-test views), damaged field by field through the
//! protobuf descriptors (numbers set to edge values, list entries dropped, repeated
//! or changed, messages cleared, enums out of range) and byte by byte (flips,
//! insertions, deletions, splices), then sent through everything a request meets:
//! the fast lane, prost, the game's validation, the legal plays and the EASY decision
//! (HARD for one in [`HARD_EVERY`]). A panic anywhere is a finding.

#![allow(dead_code)]

use climbot::bot::{DecisionContext, Difficulty};
use climbot::pb;
use climbot::service::fast_lane::parse_select_play;
use climbot::service::game::{self, Level, WireView};
use climbot::service::{RequestHeader, SelectPlayInput};
use prost::Message;
use prost_reflect::{
    DescriptorPool, DynamicMessage, Kind, MessageDescriptor, ReflectMessage, Value,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// One input in this many also gets a HARD decision (slower than EASY).
pub const HARD_EVERY: u64 = 256;

/// The seed requests: every load-test view of seeds `1..=seeds`, each game.
pub fn corpus(seeds: u64) -> Vec<Vec<u8>> {
    corpus_of(seeds, &["lexio", "dalmuti", "daifugo"])
}

/// The seed requests of some games only.
pub fn corpus_of(seeds: u64, games: &[&str]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for seed in 1..=seeds {
        let mut views = Vec::new();
        for &game in games {
            views.push(match game {
                "lexio" => climbot::loadtest::lexio_views(seed).unwrap(),
                "dalmuti" => climbot::loadtest::dalmuti_views(seed).unwrap(),
                _ => climbot::loadtest::daifugo_views(seed).unwrap(),
            });
        }
        for (i, (_, view)) in views.into_iter().flatten().enumerate() {
            out.push(
                pb::SelectPlayRequest {
                    view: Some(view),
                    difficulty: (i % 5) as i32,
                    seed: Some(seed),
                    // Some with a strength (most of them valid ones: no difficulty).
                    strength: (i % 3 == 0).then_some(i as f64 * 97.0),
                    ..Default::default()
                }
                .encode_to_vec(),
            );
        }
    }
    out
}

/// What one input reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// prost read it.
    pub decoded: bool,
    /// Its view was valid.
    pub valid: bool,
    /// The fast lane read it.
    pub fast_lane: bool,
}

/// Sends `bytes` through every reader and validator; panics (the finding) or returns
/// what it reached. Accepted views must have legal plays, and the EASY decision must be
/// one of them.
pub fn exercise(bytes: &[u8], hard: bool) -> Reached {
    let mut reached = Reached::default();
    if let Some(input) = parse_select_play(bytes) {
        reached.fast_lane = true;
        let (header, view) = input.into_parts();
        check_view(header, view, hard, &mut reached);
    }
    if let Ok(request) = pb::SelectPlayRequest::decode(bytes) {
        reached.decoded = true;
        let (header, view) = SelectPlayInput::Wire(Box::new(request)).into_parts();
        check_view(header, view, hard, &mut reached);
    }
    if let Ok(request) = pb::ListLegalPlaysRequest::decode(bytes) {
        let _ = game::decode(WireView::Proto(request.view)).map(|v| v.legal_plays());
    }
    reached
}

fn check_view(header: RequestHeader, view: WireView, hard: bool, reached: &mut Reached) {
    let _ = game::difficulty_from_wire(header.difficulty, Difficulty::Easy);
    let strength = game::strength_from_wire(header.strength, header.difficulty);
    let Ok(view) = game::decode(view) else {
        return;
    };
    if let Ok(Some(strength)) = strength {
        let choice = view.dial(strength).expect("every game has a strength dial");
        let seed = game::derive_level_seed(view.game(), view.fingerprint(), Level::Dial(choice));
        if choice.base == Difficulty::Easy || (hard && choice.base != Difficulty::Expert) {
            let mut ctx = DecisionContext::unbounded(seed);
            assert!(view.decide(Level::Dial(choice), true, &mut ctx).is_some());
        }
    }
    reached.valid = true;
    let legal = view.legal_plays();
    let seed = header
        .seed
        .unwrap_or_else(|| game::derive_seed(view.game(), view.fingerprint(), Difficulty::Easy));
    let easy = view
        .decide(
            Level::Served(Difficulty::Easy),
            header.explain,
            &mut DecisionContext::unbounded(seed),
        )
        .expect("every game serves EASY");
    let decision = easy.decision.game.expect("a decision");
    let is_legal = match (legal.game.expect("legal plays"), decision) {
        (pb::list_legal_plays_response::Game::Lexio(l), pb::decision::Game::Lexio(d)) => {
            l.decisions.contains(&d)
        }
        (pb::list_legal_plays_response::Game::Dalmuti(l), pb::decision::Game::Dalmuti(d)) => {
            l.decisions.contains(&d)
        }
        (pb::list_legal_plays_response::Game::Daifugo(l), pb::decision::Game::Daifugo(d)) => {
            l.decisions.contains(&d)
        }
        (legal, decision) => panic!("{legal:?} and {decision:?} are not of one game"),
    };
    assert!(is_legal, "the EASY decision is not among the legal plays");
    if hard {
        let stop = || false;
        let mut ctx = DecisionContext::new(seed, &stop);
        let _ = view.decide(Level::Served(Difficulty::Hard), true, &mut ctx);
    }
}

/// The mutator.
pub struct Mutator {
    corpus: Vec<Vec<u8>>,
    request: MessageDescriptor,
    rng: ChaCha8Rng,
}

impl Mutator {
    /// A mutator over `corpus`, seeded.
    pub fn new(corpus: Vec<Vec<u8>>, seed: u64) -> Self {
        let pool = DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET).unwrap();
        Mutator {
            corpus,
            request: pool
                .get_message_by_name("climbot.v1.SelectPlayRequest")
                .unwrap(),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        climbot::bot::uniform_below(&mut self.rng, n.max(1))
    }

    /// The next input: a corpus request with 1 to 4 structural edits, then (one time
    /// in three) 1 to 3 byte edits.
    pub fn next_input(&mut self) -> Vec<u8> {
        let pick = self.below(self.corpus.len());
        let base = self.corpus[pick].clone();
        let mut message = DynamicMessage::decode(self.request.clone(), base.as_slice()).unwrap();
        for _ in 0..1 + self.below(4) {
            self.mutate_message(&mut message, 0);
        }
        let mut bytes = message.encode_to_vec();
        if self.below(3) == 0 {
            for _ in 0..1 + self.below(3) {
                self.mutate_bytes(&mut bytes);
            }
        }
        bytes
    }

    fn mutate_bytes(&mut self, bytes: &mut Vec<u8>) {
        let at = self.below(bytes.len() + 1);
        let byte = self.rng.next_u32() as u8;
        match self.below(5) {
            0 if at < bytes.len() => bytes[at] ^= 1 << self.below(8),
            1 => bytes.insert(at, byte),
            2 if at < bytes.len() => {
                bytes.remove(at);
            }
            3 if at < bytes.len() => bytes[at] = byte,
            _ => {
                // Splice in a piece of another request.
                let pick = self.below(self.corpus.len());
                let other = self.corpus[pick].clone();
                let from = self.below(other.len());
                let len = self.below(other.len() - from + 1).min(64);
                let at = at.min(bytes.len());
                bytes.splice(at..at, other[from..from + len].iter().copied());
            }
        }
    }

    /// An edge or random value for a number.
    fn number(&mut self) -> u64 {
        match self.below(8) {
            0 => 0,
            1 => 1,
            2 => u64::from(u32::MAX),
            3 => u64::MAX,
            4 => self.below(20) as u64,
            5 => self.below(60) as u64,
            6 => 1 << self.below(64),
            _ => self.rng.next_u64(),
        }
    }

    fn mutate_message(&mut self, message: &mut DynamicMessage, depth: usize) {
        let fields: Vec<_> = message.descriptor().fields().collect();
        if fields.is_empty() {
            return;
        }
        let field = fields[self.below(fields.len())].clone();
        if field.is_list() {
            let kind = field.kind();
            let Value::List(list) = message.get_field_mut(&field) else {
                return;
            };
            match self.below(6) {
                0 => list.clear(),
                1 if !list.is_empty() => {
                    let i = self.below(list.len());
                    list.remove(i);
                }
                2 if !list.is_empty() => {
                    let i = self.below(list.len());
                    let copy = list[i].clone();
                    list.insert(self.below(list.len() + 1), copy);
                }
                _ if !list.is_empty() => {
                    let i = self.below(list.len());
                    let mut value = list[i].clone();
                    self.mutate_value(&mut value, &kind, depth);
                    list[i] = value;
                }
                _ => {
                    if let Kind::Message(m) = kind {
                        list.push(Value::Message(DynamicMessage::new(m)));
                    }
                }
            }
            return;
        }
        if field.is_map() {
            return;
        }
        if self.below(8) == 0 {
            message.clear_field(&field);
            return;
        }
        let kind = field.kind();
        let mut value = message.get_field(&field).into_owned();
        self.mutate_value(&mut value, &kind, depth);
        message.set_field(&field, value);
    }

    fn mutate_value(&mut self, value: &mut Value, kind: &Kind, depth: usize) {
        let n = self.number();
        match value {
            Value::Bool(b) => *b = !*b,
            Value::I32(v) => *v = n as i32,
            Value::I64(v) => *v = n as i64,
            Value::U32(v) => *v = n as u32,
            Value::U64(v) => *v = n,
            Value::EnumNumber(v) => {
                *v = if self.below(2) == 0 {
                    self.below(8) as i32
                } else {
                    n as i32
                }
            }
            Value::Message(m) if depth < 8 => {
                for _ in 0..1 + self.below(2) {
                    self.mutate_message(m, depth + 1);
                }
            }
            Value::Message(m) => {
                if let Kind::Message(descriptor) = kind {
                    *m = DynamicMessage::new(descriptor.clone());
                }
            }
            _ => {}
        }
    }
}
