//! TEMPORARY stand-in for `crate::lexio` (the engine lands on main later) with the
//! agreed API, so the service compiles and its tests run. Removed after the merge.
#![allow(dead_code, missing_docs)]

use crate::bot::{DecisionContext, Difficulty};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Cloud,
    Star,
    Moon,
    Sun,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(u8, Suit);
impl Tile {
    pub fn new(number: u8, suit: Suit) -> Option<Tile> {
        (1..=15).contains(&number).then_some(Tile(number, suit))
    }
    pub fn number(self) -> u8 {
        self.0
    }
    pub fn suit(self) -> Suit {
        self.1
    }
}
#[derive(Clone, Debug)]
pub struct TileSet(Vec<Tile>);
impl TileSet {
    pub fn iter(&self) -> impl Iterator<Item = Tile> + '_ {
        self.0.iter().copied()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
}
#[derive(Clone, Copy, Debug)]
pub enum Category {
    Single,
    Pair,
    Triple,
    Straight,
    Flush,
    FullHouse,
    FourPlusOne,
    StraightFlush,
}
#[derive(Clone, Debug)]
pub struct Combo(Vec<Tile>);
impl Combo {
    pub fn tiles(&self) -> TileSet {
        TileSet(self.0.clone())
    }
    pub fn category(&self) -> Category {
        Category::Single
    }
}
#[derive(Clone, Debug)]
pub enum Action {
    Pass,
    Play(Combo),
}
pub struct SeatCount {
    pub tile_count: u32,
    pub finished: bool,
}
pub enum LogEntry {
    Play { seat: u32, tiles: Vec<Tile> },
    Pass { seat: u32 },
}
pub struct ViewInput {
    pub player_count: u32,
    pub seat: u32,
    pub hand: Vec<Tile>,
    pub table: Vec<Tile>,
    pub seats: Vec<SeatCount>,
    pub played: Vec<Tile>,
    pub log: Vec<LogEntry>,
    pub round: u32,
    pub scores: Vec<i64>,
}
pub struct ViewError {
    pub field: String,
    pub reason: String,
}
pub struct LexioView {
    hand: Vec<Tile>,
    table: Vec<Tile>,
}
impl LexioView {
    pub fn new(input: ViewInput) -> Result<LexioView, ViewError> {
        if !(3..=5).contains(&input.player_count) {
            return Err(ViewError {
                field: "player_count".into(),
                reason: format!("{} players; expected 3, 4 or 5", input.player_count),
            });
        }
        if input.hand.is_empty() {
            return Err(ViewError {
                field: "hand".into(),
                reason: "empty".into(),
            });
        }
        let mut hand = input.hand;
        hand.sort();
        Ok(LexioView {
            hand,
            table: input.table,
        })
    }
    pub fn fingerprint(&self) -> u64 {
        let mut h = crate::bot::StableHasher::new();
        for t in &self.hand {
            h.u64(u64::from(t.0) * 4 + t.1 as u64);
        }
        h.finish()
    }
}
pub fn legal_actions(view: &LexioView) -> Vec<Action> {
    let mut v = Vec::new();
    if !view.table.is_empty() {
        v.push(Action::Pass);
    }
    v.extend(view.hand.iter().map(|t| Action::Play(Combo(vec![*t]))));
    v
}
pub mod bots {
    use super::*;
    pub trait LexioPolicy: Send + Sync {
        fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action;
    }
    struct Easy;
    struct Expert;
    impl LexioPolicy for Easy {
        fn decide(&self, view: &LexioView, _: &mut DecisionContext<'_>) -> Action {
            Action::Play(Combo(vec![view.hand[0]]))
        }
    }
    impl LexioPolicy for Expert {
        fn decide(&self, view: &LexioView, ctx: &mut DecisionContext<'_>) -> Action {
            let mut best = None;
            let mut n = 0u64;
            while !ctx.should_stop() {
                n = n.wrapping_add(1);
                if n % 4096 == 0 {
                    best = Some(ctx.below(view.hand.len()));
                }
                std::hint::spin_loop();
            }
            match best {
                Some(i) => Action::Play(Combo(vec![view.hand[i]])),
                None => {
                    ctx.mark_fallback();
                    Easy.decide(view, ctx)
                }
            }
        }
    }
    pub fn policy(d: Difficulty) -> Option<&'static dyn LexioPolicy> {
        match d {
            Difficulty::Easy => Some(&Easy),
            Difficulty::Expert => Some(&Expert),
            _ => None,
        }
    }
}
