//! Daifugo's EXPERT: the shared search (`crate::search`) with the easy rule as its
//! playout policy; the exchange, which has no play to search, is answered by the
//! strongest evaluation level served.

use super::easy::choose_play;
use crate::daifugo::Daifugo;
use crate::daifugo::decision::DaifugoDecision;
use crate::daifugo::position::DaifugoPosition;
use crate::game::Simulation;
use crate::search::Searchable;
use rand_chacha::ChaCha8Rng;

impl Searchable for Daifugo {
    const DEFAULT_ITERATIONS: u64 = 1500;

    fn playout_action(
        position: &DaifugoPosition,
        _rng: &mut ChaCha8Rng,
        _buffer: &mut Vec<DaifugoDecision>,
    ) -> DaifugoDecision {
        let seat = Daifugo::to_act(position).expect("a playout acts only while the game runs");
        match choose_play(position.hands()[seat], position.trick(), position.rules()) {
            Some(play) => DaifugoDecision::Play(play),
            None => DaifugoDecision::Pass,
        }
    }
}
