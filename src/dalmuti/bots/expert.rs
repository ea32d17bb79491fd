//! The Great Dalmuti's EXPERT: the shared search (`crate::search`) with the easy rule
//! as its playout policy; the tax return and the revolution choice, which have no
//! play to search, are answered by the hard evaluation. Deals are weighted by the
//! hard bot's ledger: a seat that passed on the current trick's bar probably cannot
//! beat it.

use super::easy::{easy_follow, easy_lead};
use super::hard::HardBot;
use crate::dalmuti::Dalmuti;
use crate::dalmuti::decision::DalmutiDecision;
use crate::dalmuti::knowledge::Ledger;
use crate::dalmuti::position::DalmutiDeal;
use crate::dalmuti::position::DalmutiPosition;
use crate::dalmuti::view::DalmutiView;
use crate::game::Simulation;
use crate::search::{DealWeight, Searchable};
use rand_chacha::ChaCha8Rng;

impl Searchable for Dalmuti {
    const DEFAULT_ITERATIONS: u64 = 5000;

    fn playout_action(
        position: &DalmutiPosition,
        _rng: &mut ChaCha8Rng,
        _buffer: &mut Vec<DalmutiDecision>,
    ) -> DalmutiDecision {
        let seat = Dalmuti::to_act(position).expect("a playout acts only while the hand runs");
        let hand = position.hand(seat);
        match position.turn().table() {
            None => DalmutiDecision::Play(easy_lead(hand)),
            Some(table) => {
                easy_follow(hand, table).map_or(DalmutiDecision::Pass, DalmutiDecision::Play)
            }
        }
    }

    /// A seat that passed on the current trick's bar (the ledger's `passed_on`) and is
    /// dealt a hand that beats it: the deal's weight is multiplied by the hard bot's
    /// pass factor, since the pass says it probably cannot (but it may hold back).
    fn deal_weight(view: &DalmutiView) -> Option<DealWeight<'_, Dalmuti>> {
        let memory = HardBot::hard().memory;
        let passed: Vec<_> = Ledger::new(view, memory)
            .seats
            .iter()
            .filter_map(|s| s.passed_on.map(|bar| (s.seat, bar)))
            .collect();
        if passed.is_empty() {
            return None;
        }
        Some(Box::new(move |deal: &DalmutiDeal| {
            passed
                .iter()
                .filter(|&&(seat, bar)| easy_follow(deal[seat], bar).is_some())
                .fold(1.0, |w, _| w * memory.pass_factor)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::DecisionContext;
    use crate::bot::Difficulty;
    use crate::dalmuti::referee::{HandState, deal};
    use crate::game::{Game, Policy};
    use rand_chacha::rand_core::SeedableRng;

    /// The first view of an easy-bot hand in which a seat has passed on the trick.
    fn view_after_a_pass() -> DalmutiView {
        let easy = Dalmuti::policy(Difficulty::Easy).unwrap();
        for seed in 0..100 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let hands = deal(6, &mut rng);
            let mut state = HandState::new(&hands, &[0, 1, 2, 3, 4, 5], &[0; 6], 1, 0);
            while let Some(view) = state.view().unwrap() {
                if Dalmuti::deal_weight(&view).is_some() {
                    return view;
                }
                let decision = easy.decide(&view, &mut DecisionContext::unbounded(seed));
                state.apply_unchecked(decision);
            }
        }
        panic!("no pass in 100 hands");
    }

    #[test]
    fn deals_against_a_pass_weigh_less() {
        let view = view_after_a_pass();
        let weight = Dalmuti::deal_weight(&view).unwrap();
        let passed: Vec<_> = Ledger::new(&view, HardBot::hard().memory)
            .seats
            .iter()
            .filter_map(|s| s.passed_on.map(|bar| (s.seat, bar)))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut against = 0;
        for _ in 0..500 {
            let deal = Dalmuti::deal(&view, &mut rng);
            let beaters = passed
                .iter()
                .filter(|&&(s, bar)| easy_follow(deal[s], bar).is_some())
                .count();
            let expected = HardBot::hard().memory.pass_factor.powi(beaters as i32);
            assert_eq!(weight(&deal), expected);
            against += usize::from(beaters > 0);
        }
        assert!(against > 0);
    }
}
