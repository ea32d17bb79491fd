//! Baselines for the arena: `singles` and `random`.

use super::easy::{easy_revolution, easy_tax_return};
use super::{DalmutiDecision, legal_decisions};
use crate::bot::DecisionContext;
use crate::dalmuti::Dalmuti;
use crate::dalmuti::cards::Rank;
use crate::dalmuti::plays::Play;
use crate::dalmuti::view::{DalmutiView, Phase};
use crate::game::Policy;

/// Plays one card whenever it can: on a single, the weakest single that beats it; on
/// an empty table, its worst single (a Jester only if nothing else is left); otherwise
/// it passes. Tax returns and revolutions follow the easy bot.
#[derive(Clone, Copy, Debug, Default)]
pub struct SinglesBot;

impl Policy<Dalmuti> for SinglesBot {
    fn decide(&self, view: &DalmutiView, _ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        let hand = view.hand();
        match view.phase() {
            Phase::Play => match view.table() {
                None => {
                    let rank = hand.worst_numbered().unwrap_or(Rank::JESTER);
                    let play = if rank.is_jester() {
                        Play::new(rank, 0, 1)
                    } else {
                        Play::new(rank, 1, 0)
                    };
                    DalmutiDecision::Play(play.expect("a single is a play"))
                }
                Some(t) if t.size() == 1 => Rank::numbered()
                    .rev()
                    .find(|r| r.beats(t.rank()) && hand.count(*r) > 0)
                    .map_or(DalmutiDecision::Pass, |r| {
                        DalmutiDecision::Play(Play::new(r, 1, 0).expect("a single"))
                    }),
                Some(_) => DalmutiDecision::Pass,
            },
            Phase::TaxReturn => {
                let k = view.tax_return().map_or(0, |t| u32::from(t.count));
                DalmutiDecision::TaxReturn(easy_tax_return(hand, k))
            }
            Phase::Revolution => {
                DalmutiDecision::Revolution(easy_revolution(view.title(), view.hand_number()))
            }
        }
    }

    fn name(&self) -> &'static str {
        "singles"
    }
}

/// A uniformly random legal decision, drawn with the context's generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl Policy<Dalmuti> for RandomBot {
    fn decide(&self, view: &DalmutiView, ctx: &mut DecisionContext<'_>) -> DalmutiDecision {
        let all = legal_decisions(view);
        all[ctx.below(all.len())]
    }

    fn name(&self) -> &'static str {
        "random"
    }
}

/// The `singles` baseline.
pub static SINGLES: SinglesBot = SinglesBot;
/// The `random` baseline.
pub static RANDOM: RandomBot = RandomBot;
