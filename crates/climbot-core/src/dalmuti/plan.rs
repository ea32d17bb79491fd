//! The best plan of a hand (Dalmuti Part 3, from Part 2): split the hand into sets, one per
//! numbered rank held, and try every placement of the Jesters (on a set, two on one
//! set, one on each of two sets, or alone). The plan with the fewest plays wins; among
//! those, the one with the most lead safety and the fewest orphans.

use super::cards::{Cards, Rank};
use super::knowledge::Ledger;
use super::plays::Play;

/// Weight of the lead safety (sum over sets of `1 - beat risk`) in plan comparisons.
pub const SAFE_WEIGHT: f64 = 0.5;
/// Weight of an orphan (a single card that will probably be beaten).
pub const ORPHAN_WEIGHT: f64 = 1.0;

/// A split of a hand into sets.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The sets, best rank first; Jesters alone (rank 13) last.
    pub groups: Vec<Play>,
    /// Plays needed to shed the hand (one per set).
    pub min_plays: u32,
    /// Sum over sets of the chance nobody beats it as a lead (1 if structurally safe).
    pub safe_leads: f64,
    /// Sets that are structurally safe.
    pub certain_leads: u32,
    /// Single-card sets whose beat risk exceeds one half.
    pub orphans: u32,
}

impl Plan {
    /// The plan's value: fewer plays, safer leads, fewer orphans.
    pub fn value(&self) -> f64 {
        -f64::from(self.min_plays) + SAFE_WEIGHT * self.safe_leads
            - ORPHAN_WEIGHT * f64::from(self.orphans)
    }

    /// True if the hand can go out from the lead with certainty-or-last: every set
    /// but at most one is structurally safe.
    pub fn finishes_from_lead(&self) -> bool {
        self.min_plays <= self.certain_leads + 1
    }
}

fn lead_safety(ledger: &Ledger, g: Play) -> (f64, bool) {
    if ledger.structurally_safe(g.rank(), g.size()) {
        (1.0, true)
    } else {
        (1.0 - ledger.beat_risk(g.rank(), g.size()), false)
    }
}

fn summarize(ledger: &Ledger, groups: &[Play]) -> (f64, u32, u32) {
    let mut safe = 0.0;
    let mut certain = 0;
    let mut orphans = 0;
    for &g in groups {
        let (s, c) = lead_safety(ledger, g);
        safe += s;
        certain += u32::from(c);
        if g.size() == 1 && s < 0.5 {
            orphans += 1;
        }
    }
    (safe, certain, orphans)
}

/// The best plan of `hand` against `ledger` (see the module docs). An empty hand has
/// an empty plan.
pub fn best_plan(hand: Cards, ledger: &Ledger) -> Plan {
    let mut base: Vec<Play> = Rank::numbered()
        .filter(|&r| hand.count(r) > 0)
        .map(|r| Play::new(r, hand.count(r), 0).expect("a set"))
        .collect();
    let jesters = hand.jesters();
    let mut best: Option<Plan> = None;
    let mut consider = |groups: Vec<Play>| {
        let (safe_leads, certain_leads, orphans) = summarize(ledger, &groups);
        let plan = Plan {
            min_plays: groups.len() as u32,
            groups,
            safe_leads,
            certain_leads,
            orphans,
        };
        if best.as_ref().is_none_or(|b| plan.value() > b.value()) {
            best = Some(plan);
        }
    };
    let with = |g: Play, j: u8| Play::new(g.rank(), g.naturals(), g.jesters() + j).expect("set");
    let alone = |j: u8| Play::new(Rank::JESTER, 0, j).expect("Jesters");
    let n = base.len();
    match jesters {
        0 => consider(base.clone()),
        1 => {
            for i in 0..n {
                let mut g = base.clone();
                g[i] = with(g[i], 1);
                consider(g);
            }
            let mut g = base.clone();
            g.push(alone(1));
            consider(g);
        }
        _ => {
            for i in 0..n {
                let mut g = base.clone();
                g[i] = with(g[i], 2);
                consider(g);
                for k in i + 1..n {
                    let mut g = base.clone();
                    g[i] = with(g[i], 1);
                    g[k] = with(g[k], 1);
                    consider(g);
                }
                let mut g = base.clone();
                g[i] = with(g[i], 1);
                g.push(alone(1));
                consider(g);
            }
            base.push(alone(2));
            consider(base);
        }
    }
    best.unwrap_or(Plan {
        groups: Vec::new(),
        min_plays: 0,
        safe_leads: 0.0,
        certain_leads: 0,
        orphans: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::cards::test_rank as r;
    use crate::dalmuti::knowledge::test_ledger;

    #[test]
    fn plan_counts_one_play_per_rank_and_places_jesters() {
        let hand = Cards::EMPTY
            .with(r(3), 2)
            .with(r(9), 1)
            .with(r(12), 4)
            .with(Rank::JESTER, 2);
        let l = test_ledger(hand, Cards::EMPTY, &[25, 25, 21]);
        let plan = best_plan(hand, &l);
        assert_eq!(plan.min_plays, 3, "{plan:?}");
        let jesters: u8 = plan.groups.iter().map(|g| g.jesters()).sum();
        assert_eq!(jesters, 2);
        assert!(plan.groups.iter().all(|g| !g.rank().is_jester()));
        // Jesters only: one play.
        let only = Cards::EMPTY.with(Rank::JESTER, 2);
        let plan = best_plan(only, &l);
        assert_eq!(plan.min_plays, 1);
        assert_eq!(plan.groups[0], Play::new(Rank::JESTER, 0, 2).unwrap());
        assert_eq!(best_plan(Cards::EMPTY, &l).min_plays, 0);
    }

    #[test]
    fn jester_goes_where_it_makes_a_set_safe() {
        // 1s and 2s all played; opponents cannot make three of anything better than 3
        // except with Jesters, and I hold both. 3x2 + J = 3x3 is safe only if no one
        // has three 1s/2s: all gone, so 3x3 is structurally safe, and the other Jester
        // lifts the single 11 off the orphan list.
        let hand = Cards::EMPTY
            .with(r(3), 2)
            .with(r(11), 1)
            .with(Rank::JESTER, 2);
        let played = Cards::EMPTY.with(r(1), 1).with(r(2), 2);
        let l = test_ledger(hand, played, &[20, 20, 20]);
        let plan = best_plan(hand, &l);
        assert_eq!(plan.min_plays, 2);
        assert!(plan.certain_leads >= 1, "{plan:?}");
        assert_eq!(plan.orphans, 0, "{plan:?}");
    }
}
