//! Lexio's EXPERT: the shared search (`crate::search`) by successive halving, with the
//! trained policy as its playout policy (the easy rule in the arena's `expert-v1`), and
//! deals weighted by what passes on single tricks say.

use super::easy::easy_action;
use crate::game::Simulation;
use crate::lexio::Lexio;
use crate::lexio::knowledge::{mate_play, seat_models};
use crate::lexio::position::LexioDeal;
use crate::lexio::position::LexioPosition;
use crate::lexio::view::Action;
use crate::lexio::view::LexioView;
use crate::search::expert::DEFAULT_TEMPERATURE;
use crate::search::{DealWeight, PlayoutPolicy, Searchable};
use rand_chacha::ChaCha8Rng;

impl Searchable for Lexio {
    /// A learned playout costs about four rule playouts: 1,000 take about the time of
    /// `expert-v1`'s 4,000.
    const DEFAULT_ITERATIONS: u64 = 1000;
    const RULE_ITERATIONS: u64 = 4000;

    /// Measured: at about equal time, playouts by the policy the search taught beat
    /// the easy rule's at 3, 4 and 5 players (`docs/learned-policy.md`).
    const PLAYOUT: PlayoutPolicy = PlayoutPolicy::Learned {
        temperature: DEFAULT_TEMPERATURE,
    };

    /// Measured: at equal playouts, halving beats the race, and unlike the race it
    /// turns ten times the playouts into strength (`docs/measurements/expert.md`).
    fn halving(_view: &LexioView) -> bool {
        true
    }

    fn playout_action(
        position: &LexioPosition,
        _rng: &mut ChaCha8Rng,
        _buffer: &mut Vec<Action>,
    ) -> Action {
        let seat = Lexio::to_act(position).expect("a playout acts only while the round runs");
        easy_action(position.players(), position.hand(seat), position.table())
    }

    /// The first play of a mate ([`mate_play`]): tiles nobody can beat, then the rest
    /// of the hand in one play.
    fn forced_win(view: &LexioView) -> Option<Action> {
        mate_play(view).map(Action::Play)
    }

    /// A seat that passed on a single trick probably holds nothing above the table's
    /// tile ([`seat_models`]); each tile a deal gives it outside that cap multiplies the
    /// deal's weight by `PASS_TRUST`. A soft weight, because a pass may be strategic.
    fn deal_weight(view: &LexioView) -> Option<DealWeight<'_, Lexio>> {
        let models = seat_models(view, 0);
        let capped: Vec<_> = models
            .into_iter()
            .filter(|m| m.possible != view.unseen())
            .collect();
        if capped.is_empty() {
            return None;
        }
        Some(Box::new(move |deal: &LexioDeal| {
            let outside: usize = capped
                .iter()
                .map(|m| deal[m.seat].difference(m.possible).len())
                .sum();
            PASS_TRUST.powi(outside as i32)
        }))
    }
}

/// The weight factor of each tile a deal places against what a seat's pass says.
const PASS_TRUST: f64 = 0.25;

/// A decision's loss is in chips of the round it is made in. A round between levels
/// differs by 1.4 to 3 chips (the ladder), over a dozen decisions or more: a quarter
/// of a chip is good, a chip an inaccuracy, three chips (a whole level's round) a
/// mistake, more a blunder.
impl crate::search::analysis::Reviewable for Lexio {
    const REVIEW_THRESHOLDS: [f64; 3] = [0.25, 1.0, 3.0];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::referee::{Round, deal};
    use crate::lexio::tiles::PlayerCount;
    use rand_chacha::rand_core::SeedableRng;

    /// The first view of an easy-bot round in which some seat has passed on a single.
    fn view_after_a_pass_on_a_single() -> LexioView {
        for seed in 0..200 {
            let players = PlayerCount::Five;
            let mut round = Round::new(players, deal(players, seed), 1, [0; 5]);
            while round.winner().is_none() {
                let view = round.view().unwrap();
                if Lexio::deal_weight(&view).is_some() {
                    return view;
                }
                let seat = round.to_act();
                let action = easy_action(players, round.hand(seat), round.table());
                round.apply(action).unwrap();
            }
        }
        panic!("no pass on a single in 200 rounds");
    }

    #[test]
    fn the_served_search_plays_on_while_its_budget_lasts() {
        let players = PlayerCount::Four;
        let views: Vec<_> = (1..=4)
            .map(|seed| {
                Round::new(players, deal(players, seed), 1, [0; 5])
                    .view()
                    .unwrap()
            })
            .collect();
        crate::search::expert::assert_served_search_plays_past_the_arenas_work::<Lexio>(&views);
    }

    #[test]
    fn an_iteration_limit_is_spent_by_halving_and_a_bare_stop_check_races() {
        use crate::bot::DecisionContext;
        use crate::game::{Game, Policy};
        use crate::search::ExpertBot;
        let players = PlayerCount::Five;
        let view = Round::new(players, deal(players, 3), 1, [0; 5])
            .view()
            .unwrap();
        let candidates = Lexio::legal_decisions(&view).len() as u64;
        assert!(candidates > 2, "{candidates}");
        let bot = ExpertBot::<Lexio>::served();
        let mut limited = DecisionContext::unbounded(9).with_max_iterations(Some(3000));
        let (_, explained) = bot.decide_explained(&view, &mut limited);
        let done = limited.work().iterations;
        // Halving spends the limit but for the remainders of its even split.
        assert!(done <= 3000 && 3000 - done < 2 * candidates, "{done}");
        let contenders = explained.iter().filter(|e| e.terms[4].1 == 1.0).count();
        assert_eq!(contenders, 1);
        // With a stop check but no share of the budget to plan by (here: 3000 checks),
        // the race runs and stops when it is decided or the budget ends.
        let checks = std::sync::atomic::AtomicU32::new(0);
        let stop = || checks.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 3000;
        let mut budgeted = DecisionContext::new(9, &stop);
        let raced = bot.decide(&view, &mut budgeted);
        let mut race = DecisionContext::unbounded(9).with_max_iterations(Some(3000));
        let halving_off = ExpertBot::<Lexio>::served()
            .with_override("halving=0")
            .unwrap();
        assert_eq!(halving_off.decide(&view, &mut race), raced);
        assert_eq!(race.work().iterations, budgeted.work().iterations);
    }

    #[test]
    fn deals_against_a_pass_weigh_less() {
        let view = view_after_a_pass_on_a_single();
        let weight = Lexio::deal_weight(&view).unwrap();
        let capped: Vec<_> = seat_models(&view, 0)
            .into_iter()
            .filter(|m| m.possible != view.unseen())
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut kept, mut against) = (0, 0);
        for _ in 0..2000 {
            let deal = Lexio::deal(&view, &mut rng);
            let w = weight(&deal);
            let outside: usize = capped
                .iter()
                .map(|m| deal[m.seat].difference(m.possible).len())
                .sum();
            if outside == 0 {
                assert_eq!(w, 1.0);
                kept += 1;
            } else {
                assert!(w <= PASS_TRUST, "{w} with {outside} tiles against a pass");
                against += 1;
            }
        }
        assert!(against > 0, "every deal respected the pass ({kept})");
        // Uniform deals are not weighted at all.
        let start = Round::new(PlayerCount::Five, deal(PlayerCount::Five, 1), 1, [0; 5]);
        assert!(Lexio::deal_weight(&start.view().unwrap()).is_none());
    }
}
