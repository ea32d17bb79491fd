//! Daifugo's EXPERT: the shared search (`crate::search`) with playouts by the easy
//! rule with two changes (`choose_play_with(.., playout: true)`): they follow with a
//! whole rank where they can (the easy rule splits pairs to follow), and under the
//! forbidden-finish rule they shed the cards that may not end a hand once few others are
//! left (the easy rule keeps its 2s and jokers for last and fouls). The exchange, which
//! has no play to search, is answered by the hard evaluation.
//!
//! Playouts still misjudge Daifugo more than the hard evaluation does: searching every
//! candidate is weaker than searching HARD's best few (`docs/measurements/expert.md`). So the search
//! races only HARD's two best candidates and keeps HARD's own choice unless the other is
//! ahead by 3 standard errors of paired evidence. Letting HARD's next candidates join a
//! decided race (`expert/widen=4`) was measured and bought nothing, at the served work or
//! at ten times it. Nor did ten times the playouts (under the UECda rules it lost
//! places), so the served search stops at the arena's work whatever the budget.

use super::easy::choose_play_with;
use crate::daifugo::Daifugo;
use crate::daifugo::decision::DaifugoDecision;
use crate::daifugo::knowledge::{Knowledge, Memory};
use crate::daifugo::position::DaifugoPosition;
use crate::daifugo::view::{DaifugoView, Phase};
use crate::game::Simulation;
use crate::search::Searchable;
use rand_chacha::ChaCha8Rng;

impl Searchable for Daifugo {
    const DEFAULT_ITERATIONS: u64 = 1500;
    /// Ten times this work measured no stronger under the house rules and weaker under
    /// the UECda rules (`docs/measurements/expert.md`, "The served work").
    const SERVED_STOPS_AT_DEFAULT: bool = true;
    const ANCHOR_Z: f64 = 3.0;
    const SHORTLIST: usize = 2;

    fn playout_action(
        position: &DaifugoPosition,
        _rng: &mut ChaCha8Rng,
        _buffer: &mut Vec<DaifugoDecision>,
    ) -> DaifugoDecision {
        let seat = Daifugo::to_act(position).expect("a playout acts only while the game runs");
        match choose_play_with(
            position.hands()[seat],
            position.trick(),
            position.rules(),
            true,
        ) {
            Some(play) => DaifugoDecision::Play(play),
            None => DaifugoDecision::Pass,
        }
    }

    /// The first play of a mate ([`Knowledge::mate_play_now`]): certain winners (8-cuts,
    /// revolutions and the ♠3 return included) and then a last play that is not a
    /// forbidden finish. Where a trick comes back to its owner before it clears (the
    /// UECda rules), the owner of a mated hand passes to clear it and leads the rest.
    fn forced_win(view: &DaifugoView) -> Option<DaifugoDecision> {
        if !matches!(view.phase(), Phase::Play) {
            return None;
        }
        let knowledge = Knowledge::new(view, Memory::FULL);
        if let Some(play) = knowledge.mate_play_now(view.hand()) {
            return Some(DaifugoDecision::Play(play));
        }
        let trick = view.trick();
        let back_to_owner = trick.table.is_some() && knowledge.owner == Some(knowledge.seat);
        (back_to_owner && knowledge.mate_lead(view.hand(), trick.revolution))
            .then_some(DaifugoDecision::Pass)
    }
}

/// A decision's loss is in places of the game it is made in. A game between levels
/// differs by 0.14 to 0.6 places (the ladder), over a dozen decisions or more: a
/// twentieth of a place is good, 0.15 an inaccuracy, 0.4 a mistake, more a
/// blunder.
impl crate::search::analysis::Reviewable for Daifugo {
    const REVIEW_THRESHOLDS: [f64; 3] = [0.05, 0.15, 0.4];
}

#[cfg(test)]
mod tests {
    use crate::bot::DecisionContext;
    use crate::daifugo::Daifugo;
    use crate::daifugo::bots::is_legal;
    use crate::daifugo::referee::Referee;
    use crate::daifugo::rules::RuleSet;
    use crate::daifugo::view::DaifugoView;
    use crate::game::Policy;
    use crate::search::ExpertBot;

    /// The first view of a 4-player game dealt from `seed`.
    fn opening_view(rules: RuleSet, seed: u64) -> DaifugoView {
        let mut referee = Referee::new(rules, 4).unwrap();
        referee.start_game_seeded(seed);
        referee.view(referee.to_act().unwrap()).unwrap()
    }

    /// The most candidates each search raced, on the opening views of a few games.
    fn widest_races(bot: &ExpertBot<Daifugo>) -> Vec<usize> {
        (1..=6)
            .map(|seed| {
                let view = opening_view(RuleSet::house(), seed);
                let mut ctx = DecisionContext::unbounded(seed);
                let (decision, candidates) = bot.decide_explained(&view, &mut ctx);
                assert!(is_legal(&view, &decision));
                candidates.len()
            })
            .collect()
    }

    #[test]
    fn the_served_search_stops_at_the_arenas_work_on_a_longer_budget() {
        const { assert!(<Daifugo as crate::search::Searchable>::SERVED_STOPS_AT_DEFAULT) };
        for rules in [RuleSet::house(), RuleSet::uecda()] {
            let views: Vec<_> = (1..=8).map(|seed| opening_view(rules, seed)).collect();
            crate::search::expert::assert_served_work_follows_its_setting::<Daifugo>(&views);
        }
    }

    #[test]
    fn widen_lets_hards_next_candidates_join_only_with_work_to_spare() {
        let served = ExpertBot::<Daifugo>::with_iterations(6000);
        assert!(widest_races(&served).iter().all(|&n| n <= 2));
        let wide = served.with_override("widen=4").unwrap();
        let widest = widest_races(&wide);
        assert!(widest.iter().all(|&n| n <= 4), "{widest:?}");
        assert!(widest.iter().any(|&n| n > 2), "{widest:?}");
        // The first race takes all of the least work that can decide it (eight rounds
        // of two playouts).
        let little = ExpertBot::<Daifugo>::with_iterations(16)
            .with_override("widen=4")
            .unwrap();
        assert!(widest_races(&little).iter().all(|&n| n <= 2));
        // Without a shortlist every legal decision races: `widen` changes nothing.
        let every = || {
            ExpertBot::<Daifugo>::with_iterations(300)
                .with_override("shortlist=0")
                .unwrap()
        };
        assert_eq!(
            widest_races(&every().with_override("widen=4").unwrap()),
            widest_races(&every())
        );
    }
}
