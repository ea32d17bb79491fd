//! The easy bot of `docs/rules/easy-bots.md`, also the referee's timeout autoplay: one
//! deterministic function of the view (no randomness, no memory, only the own hand, the
//! table, the order flags and the lock).

use super::DaifugoDecision;
use crate::bot::DecisionContext;
use crate::daifugo::Daifugo;
use crate::daifugo::cards::CardSet;
use crate::daifugo::moves::{Trick, for_each_legal_play};
use crate::daifugo::plays::{Play, PlayKind, TieKey, foul_cards};
use crate::daifugo::referee::weakest_cards;
use crate::daifugo::rules::RuleSet;
use crate::daifugo::view::{DaifugoView, Phase};
use crate::game::Policy;
use smallvec::SmallVec;
use std::cmp::Reverse;

/// The easy policy (see [`decide`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct EasyBot;

impl Policy<Daifugo> for EasyBot {
    fn decide(&self, view: &DaifugoView, _ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        decide(view)
    }

    fn name(&self) -> &'static str {
        "easy"
    }
}

/// The easy decision for a view: the give-back of the k weakest cards, or
/// [`choose_play`] (a pass when it finds nothing).
pub fn decide(view: &DaifugoView) -> DaifugoDecision {
    match view.phase() {
        Phase::Exchange { give } => DaifugoDecision::Exchange(weakest_cards(view.hand(), give)),
        Phase::Play => match choose_play(view.hand(), view.trick(), view.rules()) {
            Some(play) => DaifugoDecision::Play(play),
            None => DaifugoDecision::Pass,
        },
    }
}

/// How few cards that may end the hand the playout rule keeps before it sheds the rest
/// (measured: 1 to 4 and "always" tried, 2 the strongest, `docs/measurements/expert.md`).
pub const SHED_FOULS_AT: usize = 2;

/// The easy play for `hand` on `trick`, or `None` to pass (`docs/rules/easy-bots.md`):
///
/// 1. every legal play;
/// 2. drop forbidden finishes if anything else remains (following with only those:
///    pass);
/// 3. drop joker plays if a joker-free play remains;
/// 4. lead: the weakest group (longest, fewest jokers, tie key) unless the weakest
///    sequence has more cards; follow: the weakest beating play (fewest jokers, tie key).
///
/// ```
/// use climbot_core::daifugo::bots::easy::choose_play;
/// use climbot_core::daifugo::cards::CardSet;
/// use climbot_core::daifugo::moves::Trick;
/// use climbot_core::daifugo::rules::RuleSet;
/// // Daifugo Part 2's example: the weakest sequence (3 cards) beats the weakest group (2).
/// let hand = CardSet::parse("♠3 ♥3 ♦4 ♠5 ♠6 ♠7 ♣9 ♥9 ♦J ♠K ♥2 joker").unwrap();
/// let play = choose_play(hand, &Trick::default(), &RuleSet::house()).unwrap();
/// assert_eq!(format!("{play:?}"), "sequence ♠5 ♠6 ♠7");
/// ```
pub fn choose_play(hand: CardSet, trick: &Trick, rules: &RuleSet) -> Option<Play> {
    choose_play_with(hand, trick, rules, false)
}

/// The easy rule, and with `playout` the variant the search's playouts use: it follows,
/// where it can, with a play that leaves no card of its ranks behind, and once at most
/// [`SHED_FOULS_AT`] cards that may end the hand are left, it plays the cards that may
/// not (jokers, the top rank, 8s, a lone ♠3) whenever it can play them alone.
pub fn choose_play_with(
    hand: CardSet,
    trick: &Trick,
    rules: &RuleSet,
    playout: bool,
) -> Option<Play> {
    // On the stack: the search's playouts ask for a play at every move.
    let mut candidates: SmallVec<[Play; 32]> = SmallVec::new();
    for_each_legal_play(hand, trick, rules, |p| candidates.push(p));
    let leading = trick.table.is_none();
    if rules.forbidden_finishes {
        let forbidden = |p: &Play| p.len() == hand.len() && p.is_forbidden_finish(trick.revolution);
        if candidates.iter().any(|p| !forbidden(p)) {
            candidates.retain(|p| !forbidden(p));
        } else if !leading {
            return None;
        }
    }
    if candidates.is_empty() {
        return None;
    }
    if playout && rules.forbidden_finishes {
        // Near the end, shed the cards that may not end the hand while others are left
        // to end it (the easy rule keeps its strongest cards, 2s and jokers, for last).
        let fouls = foul_cards(hand, trick.revolution);
        let rest = hand.difference(fouls).len();
        let shed = |p: &Play| p.cards().is_subset(fouls);
        if !fouls.is_empty() && (1..=SHED_FOULS_AT).contains(&rest) && candidates.iter().any(shed) {
            candidates.retain(|p| shed(p));
        }
    }
    if candidates.iter().any(|p| p.joker_count() == 0) {
        candidates.retain(|p| p.joker_count() == 0);
    }
    let reversed = trick.reversed();
    if leading {
        let key = |p: &&Play| -> (u8, Reverse<usize>, usize, TieKey, TieKey) {
            (
                p.strength(reversed),
                Reverse(p.len()),
                p.joker_count(),
                p.tie_key(reversed),
                p.declared_key(reversed),
            )
        };
        let group = candidates
            .iter()
            .filter(|p| p.kind() != PlayKind::Sequence)
            .min_by_key(key);
        let sequence = candidates
            .iter()
            .filter(|p| p.kind() == PlayKind::Sequence)
            .min_by_key(key);
        match (group, sequence) {
            (None, s) => s.copied(),
            (Some(g), Some(s)) if s.len() > g.len() => Some(*s),
            (Some(g), _) => Some(*g),
        }
    } else {
        if playout {
            // Follow without splitting a rank the hand holds more of, if possible.
            let whole = |p: &Play| {
                let naturals = p.cards().naturals();
                naturals.iter().filter_map(|c| c.rank()).all(|r| {
                    hand.suits_of_rank(r).count_ones() == naturals.suits_of_rank(r).count_ones()
                })
            };
            if candidates.iter().any(whole) {
                candidates.retain(|p| whole(p));
            }
        }
        candidates
            .iter()
            .min_by_key(|p| {
                (
                    p.strength(reversed),
                    p.joker_count(),
                    p.tie_key(reversed),
                    p.declared_key(reversed),
                )
            })
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daifugo::cards::Card;

    #[test]
    fn keeping_groups_follows_with_a_whole_rank() {
        let rules = RuleSet::house();
        let hand = CardSet::parse("s5 h5 d6 c9 hK").unwrap();
        let trick = Trick {
            table: Some(Play::single(Card::parse("c4").unwrap())),
            ..Trick::default()
        };
        // The easy rule breaks the pair of 5s; the variant keeps it and plays the 6.
        let easy = choose_play(hand, &trick, &rules).unwrap();
        assert_eq!(easy.low_rank(), Card::parse("s5").unwrap().rank());
        let kept = choose_play_with(hand, &trick, &rules, true).unwrap();
        assert_eq!(kept.cards(), CardSet::parse("d6").unwrap());
        // With only split plays left, it still follows with the weakest.
        let hand = CardSet::parse("s5 h5").unwrap();
        let split = choose_play_with(hand, &trick, &rules, true).unwrap();
        assert_eq!(split.len(), 1);
    }

    #[test]
    fn playouts_shed_the_cards_that_may_not_end_the_hand() {
        let rules = RuleSet::house();
        // The easy rule leads the 5 and is left to end on the 2, a foul; the playout
        // rule leads the 2 first.
        let hand = CardSet::parse("h2 s5").unwrap();
        let lead = Trick::default();
        assert_eq!(
            choose_play(hand, &lead, &rules).unwrap().cards(),
            CardSet::parse("s5").unwrap()
        );
        let shed = choose_play_with(hand, &lead, &rules, true).unwrap();
        assert_eq!(shed.cards(), CardSet::parse("h2").unwrap());
        // With more cards left to end on, it plays as the easy rule does.
        let hand = CardSet::parse("h2 s5 d7 cJ").unwrap();
        let early = choose_play_with(hand, &lead, &rules, true).unwrap();
        assert_eq!(early.cards(), CardSet::parse("s5").unwrap());
        // Without the foul rule there is nothing to shed.
        let free = choose_play_with(
            CardSet::parse("h2 s5").unwrap(),
            &lead,
            &RuleSet::uecda(),
            true,
        );
        assert_eq!(free.unwrap().cards(), CardSet::parse("s5").unwrap());
    }
}
