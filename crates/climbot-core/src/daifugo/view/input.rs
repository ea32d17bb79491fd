//! What [`super::DaifugoView::new`] receives: one seat's view as a wire message
//! carries it, plain integers and lists, unchecked.

use crate::daifugo::plays::PlayKind;
use crate::daifugo::rules::{RuleSet, Title};
use smallvec::SmallVec;

/// The card ids of one play as a client reports them: up to six are held inline, so
/// that reading a view's log allocates nothing for most plays (a longer run goes to the
/// heap).
pub type PlayCards = SmallVec<[u32; 6]>;

/// The decision a view asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhaseInput {
    /// Play or pass.
    Play,
    /// Give back `give` cards after receiving the tribute (daifugo 2, fugo 1).
    Exchange {
        /// Number of cards to give back.
        give: u32,
    },
}

/// One card of the table as sent on the wire: the card id and, for a joker inside a
/// group or sequence, the declared card id (a natural card, or an imaginary card past a
/// sequence's end: [`Declaration::id`](crate::daifugo::plays::Declaration::id)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCardInput {
    /// Card id (0..52 natural, 52/53 jokers).
    pub card: u32,
    /// The card a joker stands for (`None` for naturals, the lone joker, the joker pair
    /// and the joker of a group of five).
    pub declared: Option<u32>,
}

/// The table as sent on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableInput {
    /// The seat that made the top play.
    pub owner: u32,
    /// The play's type.
    pub kind: PlayKind,
    /// The play's cards.
    pub cards: Vec<TableCardInput>,
}

/// One seat's public state as sent on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInput {
    /// Cards in hand.
    pub card_count: u32,
    /// Title for this game (everyone heimin in game 1).
    pub title: Title,
    /// Locked out of the current trick by a pass.
    pub passed: bool,
    /// Out of the game (finished, fouled or removed by miyako-ochi).
    pub finished: bool,
}

/// One public log entry of the current game: a seat's play (card ids) or pass (empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntryInput {
    /// The acting seat.
    pub seat: u32,
    /// The cards played; empty for a pass.
    pub cards: PlayCards,
}

/// This game's exchange as the deciding seat knows it, as sent on the wire (card ids).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExchangeInput {
    /// The other seat of the exchange pair.
    pub with_seat: u32,
    /// The cards received from `with_seat`.
    pub received: Vec<u32>,
    /// The cards given to `with_seat`.
    pub given: Vec<u32>,
}

/// The unchecked view of one seat, mirroring a wire message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DaifugoViewInput {
    /// The rule set of the table.
    pub rules: RuleSet,
    /// The seat to decide (seats are numbered in turn order).
    pub seat: u32,
    /// Game number within the match, from 1.
    pub game: u32,
    /// The decision asked for.
    pub phase: PhaseInput,
    /// The seat's own cards.
    pub hand: Vec<u32>,
    /// The top play, or `None` on an empty table.
    pub table: Option<TableInput>,
    /// Revolution flag.
    pub revolution: bool,
    /// J-back flag.
    pub jack_back: bool,
    /// Locked suit set, bit = suit (♠ 1, ♥ 2, ♦ 4, ♣ 8), 0 when unlocked.
    pub lock: u32,
    /// Every seat in turn order, the deciding seat included.
    pub seats: Vec<SeatInput>,
    /// Every card played this game.
    pub played: Vec<u32>,
    /// Cards discarded face down by miyako-ochi this game (unseen by everyone).
    pub removed_unseen: u32,
    /// The public log of this game's plays and passes, oldest first.
    pub log: Vec<LogEntryInput>,
    /// This game's exchange as the seat knows it; `None` when nothing is known.
    pub exchange: Option<ExchangeInput>,
}
