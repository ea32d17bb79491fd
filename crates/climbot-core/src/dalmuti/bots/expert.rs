//! The Great Dalmuti's EXPERT: the shared search (`crate::search`) with the policy the
//! search taught itself as its playout policy (the easy rule in the arena's
//! `expert-v1`); the tax return and the revolution choice, which have no play to
//! search, are answered by the hard evaluation.
//!
//! Two parts of the search are off here, by measurement (`docs/measurements/expert.md`): the tree
//! below the candidates and deals weighted by the ledger's passes both measured worse
//! than plain racing over uniform deals. Playouts misjudge a table of HARD bots, which
//! contest tricks a playout policy would not, so HARD's own choice stands unless the
//! race puts another candidate ahead of it by 3 standard errors of paired evidence.
//! With the learned playouts ten times the work measured stronger, so the served search
//! plays until its budget ends or one candidate is left (`docs/learned-policy.md`).

use super::easy::{easy_follow, easy_lead};
use crate::dalmuti::Dalmuti;
use crate::dalmuti::decision::DalmutiDecision;
use crate::dalmuti::knowledge::Ledger;
use crate::dalmuti::position::DalmutiPosition;
use crate::dalmuti::view::{DalmutiView, Phase};
use crate::game::Simulation;
use crate::search::expert::DEFAULT_TEMPERATURE;
use crate::search::{PlayoutPolicy, Searchable, TreeSettings};
use rand_chacha::ChaCha8Rng;

impl Searchable for Dalmuti {
    /// A learned playout costs about ten rule playouts here: 600 take about the time
    /// of `expert-v1`'s 5,000.
    const DEFAULT_ITERATIONS: u64 = 600;
    const RULE_ITERATIONS: u64 = 5000;

    /// Measured: at about equal time, and at five times the time, playouts by the
    /// policy the search taught beat the easy rule's at 4, 6 and 8 players, and ten
    /// times the learned work beats a tenth of it (`docs/learned-policy.md`).
    const PLAYOUT: PlayoutPolicy = PlayoutPolicy::Learned {
        temperature: DEFAULT_TEMPERATURE,
    };
    const ANCHOR_Z: f64 = 3.0;
    const TREE: TreeSettings = TreeSettings::NONE;

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

    /// The first play of a mate ([`Ledger::mate_play`]): sets no split of the unseen
    /// cards can beat, then the rest of the hand in one set.
    fn forced_win(view: &DalmutiView) -> Option<DalmutiDecision> {
        if !matches!(view.phase(), Phase::Play) {
            return None;
        }
        Ledger::new(view, super::hard::HARD.memory)
            .mate_play(view.hand(), view.table())
            .map(DalmutiDecision::Play)
    }
}

/// A decision's loss is in places of the hand it is made in. A hand between levels
/// differs by 0.4 to 0.7 places (the ladder), over a dozen decisions or more: a
/// twentieth of a place is good, 0.15 an inaccuracy, 0.4 (a whole level's hand) a
/// mistake, more a blunder.
impl crate::search::analysis::Reviewable for Dalmuti {
    const REVIEW_THRESHOLDS: [f64; 3] = [0.05, 0.15, 0.4];
}

#[cfg(test)]
mod tests {
    use crate::dalmuti::Dalmuti;
    use crate::dalmuti::referee::opening_view_input;
    use crate::dalmuti::view::DalmutiView;

    #[test]
    fn the_served_search_plays_on_while_its_budget_lasts() {
        let views: Vec<_> = (1..=4)
            .map(|seed| DalmutiView::new(opening_view_input(6, seed)).unwrap())
            .collect();
        crate::search::expert::assert_served_search_plays_past_the_arenas_work::<Dalmuti>(&views);
    }
}
