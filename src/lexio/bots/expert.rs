//! Lexio's EXPERT: the shared search (`crate::search`) with the easy rule as its
//! playout policy.

use super::easy::easy_action;
use crate::game::Simulation;
use crate::lexio::Lexio;
use crate::lexio::position::LexioPosition;
use crate::lexio::view::Action;
use crate::search::Searchable;
use rand_chacha::ChaCha8Rng;

impl Searchable for Lexio {
    const DEFAULT_ITERATIONS: u64 = 4000;

    fn playout_action(
        position: &LexioPosition,
        _rng: &mut ChaCha8Rng,
        _buffer: &mut Vec<Action>,
    ) -> Action {
        let seat = Lexio::to_act(position).expect("a playout acts only while the round runs");
        easy_action(position.players(), position.hand(seat), position.table())
    }
}
