//! The decision of one Dalmuti seat and the legal decisions of a view: what the referee
//! checks and what every bot returns.

use super::cards::Cards;
use super::moves::for_each_legal_play;
use super::plays::Play;
use super::view::{DalmutiView, Phase};

/// One decision of one seat, for the view's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DalmutiDecision {
    /// Pass (play phase, only when there is a table).
    Pass,
    /// Put down a set (play phase).
    Play(Play),
    /// The cards a Dalmuti gives back (tax-return phase): exactly the count owed.
    TaxReturn(Cards),
    /// Declare a revolution or not (revolution phase).
    Revolution(bool),
}

/// Every legal decision of the view's phase, in a fixed order: in the play phase
/// `Pass` first (if a table is down) then the plays as
/// [`for_each_legal_play`] orders them; in the tax-return phase every distinct
/// multiset of the owed number of cards; in the revolution phase `false`, `true`.
pub fn legal_decisions(view: &DalmutiView) -> Vec<DalmutiDecision> {
    let mut out = Vec::new();
    match view.phase() {
        Phase::Play => {
            if view.table().is_some() {
                out.push(DalmutiDecision::Pass);
            }
            for_each_legal_play(view.hand(), view.table(), |p| {
                out.push(DalmutiDecision::Play(p))
            });
        }
        Phase::TaxReturn => {
            let k = view.tax_return().map_or(0, |t| u32::from(t.count));
            view.hand()
                .for_each_subset(k, &mut |c| out.push(DalmutiDecision::TaxReturn(c)));
        }
        Phase::Revolution => {
            out.push(DalmutiDecision::Revolution(false));
            out.push(DalmutiDecision::Revolution(true));
        }
    }
    out
}

/// True if `decision` is legal for `view` (same answer as membership in
/// [`legal_decisions`], without building the list).
pub fn is_legal(view: &DalmutiView, decision: &DalmutiDecision) -> bool {
    match (view.phase(), decision) {
        (Phase::Play, DalmutiDecision::Pass) => view.table().is_some(),
        (Phase::Play, DalmutiDecision::Play(p)) => {
            super::moves::is_legal_play(view.hand(), view.table(), *p)
        }
        (Phase::TaxReturn, DalmutiDecision::TaxReturn(c)) => view
            .tax_return()
            .is_some_and(|t| c.len() == u32::from(t.count) && view.hand().is_superset(*c)),
        (Phase::Revolution, DalmutiDecision::Revolution(_)) => true,
        _ => false,
    }
}
