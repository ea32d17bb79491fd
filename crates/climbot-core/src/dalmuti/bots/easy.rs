//! The easy bot, exactly as `docs/rules/easy-bots.md` states it: deterministic, no
//! randomness.

use super::DalmutiDecision;
use crate::bot::DecisionContext;
use crate::dalmuti::Dalmuti;
use crate::dalmuti::cards::{Cards, Rank};
use crate::dalmuti::moves::for_each_legal_play;
use crate::dalmuti::plays::Play;
use crate::dalmuti::turn::Title;
use crate::dalmuti::view::{DalmutiView, Phase};
use crate::game::Policy;

/// The easy bot (the baseline and the timeout autoplay).
#[derive(Clone, Copy, Debug, Default)]
pub struct EasyBot;

/// The easy lead: the worst numbered rank held, all its cards, no Jesters; a hand of
/// only Jesters leads them all. Panics on an empty hand.
pub fn easy_lead(hand: Cards) -> Play {
    let play = match hand.worst_numbered() {
        Some(r) => Play::new(r, hand.count(r), 0),
        None => Play::new(Rank::JESTER, 0, hand.jesters()),
    };
    play.expect("a non-empty hand has a lead")
}

/// The easy follow: among the plays that beat `table`, Jester-free ones first and of
/// those the worst rank; otherwise the fewest Jesters, then the worst rank. `None`:
/// pass.
pub fn easy_follow(hand: Cards, table: Play) -> Option<Play> {
    let mut best: Option<Play> = None;
    for_each_legal_play(hand, Some(table), |p| {
        // Smaller key wins: fewer Jesters, then a larger rank number (worse rank).
        let key = |q: Play| (q.jesters(), u8::MAX - q.rank().get());
        if best.is_none_or(|b| key(p) < key(b)) {
            best = Some(p);
        }
    });
    best
}

/// The easy tax return: the `k` worst numbered cards, Jesters only if nothing else.
pub fn easy_tax_return(hand: Cards, k: u32) -> Cards {
    hand.worst_numbered_first(k)
}

/// The easy revolution choice for the holder of both Jesters: the GP always declares
/// (also in hand 1); otherwise nobody in hand 1; from hand 2 the LP declares; the
/// Merchants and both Dalmutis never do.
pub fn easy_revolution(title: Title, hand_number: u32) -> bool {
    match title {
        Title::GreaterPeon => true,
        Title::LesserPeon => hand_number >= 2,
        Title::GreaterDalmuti | Title::LesserDalmuti | Title::Merchant => false,
    }
}

/// The easy decision for any view.
pub fn easy_decision(view: &DalmutiView) -> DalmutiDecision {
    match view.phase() {
        Phase::Play => match view.table() {
            None => DalmutiDecision::Play(easy_lead(view.hand())),
            Some(t) => {
                easy_follow(view.hand(), t).map_or(DalmutiDecision::Pass, DalmutiDecision::Play)
            }
        },
        Phase::TaxReturn => {
            let k = view.tax_return().map_or(0, |t| u32::from(t.count));
            DalmutiDecision::TaxReturn(easy_tax_return(view.hand(), k))
        }
        Phase::Revolution => {
            DalmutiDecision::Revolution(easy_revolution(view.title(), view.hand_number()))
        }
    }
}

impl Policy<Dalmuti> for EasyBot {
    fn decide(&self, view: &DalmutiView, _ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        easy_decision(view)
    }

    fn name(&self) -> &'static str {
        "easy"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dalmuti::cards::test_rank as r;

    fn p(rank: u8, naturals: u8, jesters: u8) -> Play {
        Play::new(r(rank), naturals, jesters).unwrap()
    }

    #[test]
    fn leads_the_worst_rank_whole_without_jesters() {
        let hand = Cards::EMPTY
            .with(r(2), 1)
            .with(r(9), 3)
            .with(Rank::JESTER, 2);
        assert_eq!(easy_lead(hand), p(9, 3, 0));
        assert_eq!(easy_lead(Cards::EMPTY.with(Rank::JESTER, 2)), p(13, 0, 2));
    }

    #[test]
    fn follows_with_the_worst_beating_rank_and_saves_jesters() {
        // Table 8x2. Hand {3x2, 5x2, 7x1, J}: Jester-free 3x2 and 5x2 beat; worst is 5.
        let hand = Cards::EMPTY
            .with(r(3), 2)
            .with(r(5), 2)
            .with(r(7), 1)
            .with(Rank::JESTER, 1);
        assert_eq!(easy_follow(hand, p(8, 2, 0)), Some(p(5, 2, 0)));
        // Table 4x2: only 3x2 is Jester-free.
        assert_eq!(easy_follow(hand, p(4, 2, 0)), Some(p(3, 2, 0)));
        // Table 3x3: needs Jesters: 2 is absent, so nothing beats... only ranks 1, 2.
        assert_eq!(easy_follow(hand, p(3, 3, 0)), None);
        // Table 8x3: only Jester sets: 3x2+J, 5x2+J; worst rank 5.
        assert_eq!(easy_follow(hand, p(8, 3, 0)), Some(p(5, 2, 1)));
        // Fewest Jesters beats a worse rank: {2x1, 6x1, J, J} on 9x2 -> 6x1+J, not 2+J.
        let two = Cards::EMPTY
            .with(r(2), 1)
            .with(r(6), 1)
            .with(Rank::JESTER, 2);
        assert_eq!(easy_follow(two, p(9, 2, 0)), Some(p(6, 1, 1)));
        // On 9x3 only two-Jester sets: 6x1+J2 (worst rank) rather than 2x1+J2.
        assert_eq!(easy_follow(two, p(9, 3, 0)), Some(p(6, 1, 2)));
    }

    #[test]
    fn returns_worst_numbered_cards_and_revolution_table() {
        let hand = Cards::EMPTY
            .with(r(1), 1)
            .with(r(11), 1)
            .with(Rank::JESTER, 2);
        assert_eq!(
            easy_tax_return(hand, 2),
            Cards::EMPTY.with(r(11), 1).with(r(1), 1)
        );
        assert_eq!(easy_tax_return(hand, 1), Cards::EMPTY.with(r(11), 1));
        assert!(easy_revolution(Title::GreaterPeon, 1));
        assert!(!easy_revolution(Title::LesserPeon, 1));
        assert!(easy_revolution(Title::LesserPeon, 2));
        for t in [Title::Merchant, Title::GreaterDalmuti, Title::LesserDalmuti] {
            assert!(!easy_revolution(t, 1) && !easy_revolution(t, 5));
        }
    }
}
