//! Daifugo's EXPERT: the shared search (`crate::search`) over every legal play, with
//! the policy the search taught itself (one set of weights per rule preset) as its
//! playout policy. The exchange, which has no play to search, is answered by the hard
//! evaluation.
//!
//! The arena's `expert-v1` keeps the search as it was before it learned: playouts by
//! the easy rule with two changes (`choose_play_with(.., playout: true)`: they follow
//! with a whole rank where they can, and under the forbidden-finish rule they shed the
//! cards that may not end a hand once few others are left), racing only HARD's two best
//! candidates and keeping HARD's own choice unless the other is ahead by 3 standard
//! errors of paired evidence. Those playouts misjudged Daifugo more than the hard
//! evaluation did, so that search needed HARD's shortlist, and ten times its work bought
//! nothing. The learned playouts do not: over every legal play, without the anchor, the
//! learned search beats the rule's at about equal time (house rules at 4 and 5 players,
//! 20 and 100 ms; UECda rules at 4 players, 20 and 100 ms, and at 5 players, 20 ms) and
//! ten times its work beats a tenth of it, so the served search plays until its budget
//! ends (`docs/learned-policy.md`).

use super::easy::choose_play_with;
use crate::daifugo::Daifugo;
use crate::daifugo::decision::DaifugoDecision;
use crate::daifugo::knowledge::{Knowledge, Memory};
use crate::daifugo::position::DaifugoPosition;
use crate::daifugo::rules::RuleSet;
use crate::daifugo::view::{DaifugoView, Phase};
use crate::game::Simulation;
use crate::search::expert::DEFAULT_TEMPERATURE;
use crate::search::{PlayoutPolicy, Searchable};
use rand_chacha::ChaCha8Rng;

impl Searchable for Daifugo {
    /// A learned playout costs about four of `expert-v1`'s, which races fewer
    /// candidates: 1,800 take about 15 ms a decision on average at 4 players on a quiet
    /// machine, the rule's 1,500 about 6 ms (and ten times them bought nothing).
    const DEFAULT_ITERATIONS: u64 = 1800;
    const RULE_ITERATIONS: u64 = 1500;

    /// Measured: at about equal time, playouts by the policy the search taught, over
    /// every legal play, beat the rule's search with HARD's shortlist and anchor under
    /// both presets (`docs/learned-policy.md`).
    const PLAYOUT: PlayoutPolicy = PlayoutPolicy::Learned {
        temperature: DEFAULT_TEMPERATURE,
    };
    const RULE_ANCHOR_Z: f64 = 3.0;
    const RULE_SHORTLIST: usize = 2;

    /// Successive halving under the UECda rules, where it turned ten times its work
    /// into strength and the race did not, beat the rule's search at about equal time
    /// (20 and 100 ms, 4 and 5 players) and HARD, and measured no weaker than the race
    /// at about 100 ms (`docs/measurements/daifugo-work-and-time/README.md`, samples 7
    /// to 13). The house rules keep the race: halving was not measured against it there.
    fn halving(view: &DaifugoView) -> bool {
        *view.rules() == RuleSet::uecda()
    }

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

    /// An EXPERT by its arena name.
    fn arena_bot(name: &str) -> ExpertBot<Daifugo> {
        crate::search::expert::by_name(name).unwrap().unwrap()
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
    fn the_served_search_plays_on_while_its_budget_lasts() {
        for rules in [RuleSet::house(), RuleSet::uecda()] {
            let views: Vec<_> = (1..=4).map(|seed| opening_view(rules, seed)).collect();
            crate::search::expert::assert_served_search_plays_past_the_arenas_work::<Daifugo>(
                &views,
            );
        }
    }

    #[test]
    fn expert_v1_is_the_rule_search_as_it_was_served_and_expert_the_learned_one() {
        use crate::search::PlayoutPolicy;
        let v1 = arena_bot("expert-v1");
        assert_eq!(v1.iterations, Some(1500));
        assert_eq!((v1.shortlist, v1.anchor_z), (2, 3.0));
        assert_eq!(v1.playout, PlayoutPolicy::Rule);
        let served = ExpertBot::<Daifugo>::served();
        assert_eq!(served.iterations, None);
        assert_eq!((served.shortlist, served.anchor_z), (0, 0.0));
        assert!(matches!(served.playout, PlayoutPolicy::Learned { .. }));
        let arena = arena_bot("expert");
        assert_eq!(arena.iterations, Some(1800));
        assert_eq!(arena.playout, served.playout);
    }

    #[test]
    fn halving_shares_the_work_under_the_uecda_rules_and_the_race_under_the_house_rules() {
        /// A search's decision and playouts on `view` under a limit of 600 playouts.
        fn searched(bot: &ExpertBot<Daifugo>, view: &DaifugoView, seed: u64) -> (String, u64) {
            let mut ctx = DecisionContext::unbounded(seed).with_max_iterations(Some(600));
            let decision = bot.decide(view, &mut ctx);
            assert!(is_legal(view, &decision));
            (format!("{decision:?}"), ctx.work().iterations)
        }
        let race_bot = arena_bot("expert/halving=0");
        let halving_bot = arena_bot("expert/halving=1");
        for (rules, served_halves) in [(RuleSet::house(), false), (RuleSet::uecda(), true)] {
            let mut told_apart = false;
            for seed in 1..=4 {
                let view = opening_view(rules, seed);
                let served = searched(&ExpertBot::served(), &view, seed);
                let race = searched(&race_bot, &view, seed);
                let halved = searched(&halving_bot, &view, seed);
                let expected = if served_halves { &halved } else { &race };
                assert_eq!(&served, expected, "{rules:?} {seed}");
                told_apart |= race.1 != halved.1;
            }
            // The race ends once one candidate is left; halving spends its limit.
            assert!(told_apart, "{rules:?}");
        }
        // The analysis keeps every candidate to the end under either preset.
        assert_eq!(ExpertBot::<Daifugo>::analysis().halving, Some(false));
    }

    #[test]
    fn widen_lets_hards_next_candidates_join_only_with_work_to_spare() {
        let served = arena_bot("expert-v1/iterations=6000");
        assert!(widest_races(&served).iter().all(|&n| n <= 2));
        let wide = served.with_override("widen=4").unwrap();
        let widest = widest_races(&wide);
        assert!(widest.iter().all(|&n| n <= 4), "{widest:?}");
        assert!(widest.iter().any(|&n| n > 2), "{widest:?}");
        // The first race takes all of the least work that can decide it (eight rounds
        // of two playouts).
        let little = arena_bot("expert-v1/iterations=16/widen=4");
        assert!(widest_races(&little).iter().all(|&n| n <= 2));
        // Without a shortlist every legal decision races: `widen` changes nothing.
        let every = || arena_bot("expert-v1/iterations=300/shortlist=0");
        assert_eq!(
            widest_races(&every().with_override("widen=4").unwrap()),
            widest_races(&every())
        );
    }
}
