//! What [`super::DalmutiView::new`] receives: the view as a wire message carries it,
//! plain integers, vectors and options, unchecked.

use crate::dalmuti::cards::Cards;
use crate::dalmuti::plays::Play;
use crate::dalmuti::turn::Title;

/// The decision a view asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Play a set or pass.
    Play,
    /// A Dalmuti gives back cards after receiving taxes.
    TaxReturn,
    /// The holder of both Jesters declares a revolution or not.
    Revolution,
}

/// A play as the wire carries it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PlayInput {
    /// 1..=12, or 13 for Jesters alone.
    pub rank: u32,
    /// Numbered cards of that rank.
    pub naturals: u32,
    /// Jesters (0..=2).
    pub jesters: u32,
}

impl From<Play> for PlayInput {
    fn from(p: Play) -> Self {
        PlayInput {
            rank: u32::from(p.rank().get()),
            naturals: u32::from(p.naturals()),
            jesters: u32::from(p.jesters()),
        }
    }
}

/// A multiset of cards as the wire carries it: 13 counts, index `r - 1` for rank `r`,
/// index 12 for Jesters.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CardsInput {
    /// The counts.
    pub counts: Vec<u32>,
}

impl From<Cards> for CardsInput {
    fn from(c: Cards) -> Self {
        CardsInput {
            counts: c.counts().iter().map(|&x| u32::from(x)).collect(),
        }
    }
}

/// One seat as the wire carries it; seats are listed in turn order from the GD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInput {
    /// Cards in the seat's hand.
    pub card_count: u32,
    /// The seat's title (must match its position).
    pub title: Title,
    /// True once the seat went out this hand.
    pub finished: bool,
    /// The player's match score so far, including points for going out this hand.
    pub score: u32,
}

/// One entry of the public log of this hand's play phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntryInput {
    /// The seat that acted.
    pub seat: u32,
    /// The set played, or `None` for a pass.
    pub play: Option<PlayInput>,
}

/// What a Dalmuti owes back in the tax-return phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaxReturnInput {
    /// Cards to give back (2 for the GD, 1 for the LD).
    pub count: u32,
    /// The seat that receives them (the GP or the LP).
    pub to: u32,
}

/// A revolution declared this hand (public: the declarer showed both Jesters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RevolutionInput {
    /// The declarer's seat in the current seating (after a Greater Revolution the
    /// declarer is the new GD, seat 0).
    pub seat: u32,
    /// True for a Greater Revolution (declared by the GP; titles mirrored).
    pub greater: bool,
}

/// This hand's taxes as the deciding seat knows them, as the wire carries them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxKnownInput {
    /// The other seat of the tax pair.
    pub with_seat: u32,
    /// The cards received from `with_seat`.
    pub received: CardsInput,
    /// The cards given to `with_seat`.
    pub given: CardsInput,
}

/// The unchecked view, field for field what a wire message carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DalmutiViewInput {
    /// The deciding seat.
    pub seat: u32,
    /// The decision asked for.
    pub phase: Phase,
    /// The deciding seat's hand.
    pub hand: CardsInput,
    /// The top play of the current trick; `None` when the seat leads (and outside the
    /// play phase).
    pub table: Option<PlayInput>,
    /// Every seat in turn order, seat 0 = GD.
    pub seats: Vec<SeatInput>,
    /// Cards played this hand, per rank, Jesters at index 12.
    pub played: CardsInput,
    /// The public log of this hand's plays and passes, oldest first.
    pub log: Vec<LogEntryInput>,
    /// This hand's number in the match, from 1.
    pub hand_number: u32,
    /// Hands still to be played after this one.
    pub hands_left: u32,
    /// In the tax-return phase: what is owed, to whom.
    pub tax_return: Option<TaxReturnInput>,
    /// A revolution declared this hand, if any.
    pub revolution: Option<RevolutionInput>,
    /// This hand's taxes as the seat knows them; `None` when nothing is known.
    pub tax_known: Option<TaxKnownInput>,
}
