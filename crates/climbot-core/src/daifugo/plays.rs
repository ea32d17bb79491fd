//! Plays (singles, groups, sequences), their comparison and their effects.
//!
//! A joker inside a group or sequence declares a natural card (docs/rules/daifugo.md,
//! §7.4 Jokers in groups and sequences), or, where the rules allow it, an imaginary
//! card past an end of a sequence (§7.7); the declarations are stored in ascending card
//! order and belong to the play's jokers in ascending id order. A lone joker, the
//! two-joker pair and the joker of a group of five (§7.6) carry no declaration.

use super::cards::{Card, CardSet, RANK_2, RANK_3, RANK_8, RANK_J, RANKS, Suit};
use super::rules::RuleSet;
use std::fmt;

/// The type of a play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayKind {
    /// One card (a natural card or the lone joker).
    Single,
    /// Two to four cards of one rank (jokers as declared copies), or the joker pair.
    Group,
    /// Three or more cards of one suit in consecutive ranks.
    Sequence,
}

impl PlayKind {
    /// A stable small code for fingerprints and wire messages.
    pub const fn code(self) -> u8 {
        self as u8
    }
}

/// Strength value of joker-only plays (above every rank in either order).
pub const JOKER_STRENGTH: u8 = RANKS;

/// The position of the imaginary card below the 3 on the extended rank line of
/// [`Play::low_position`] (a rank's position is the rank + 1).
pub const POSITION_BELOW_3: u8 = 0;
/// The position of the imaginary card above the 2 on the extended rank line.
pub const POSITION_ABOVE_2: u8 = RANKS + 1;

/// What a joker inside a group or sequence stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declaration {
    /// A natural card.
    Card(Card),
    /// The imaginary card below the 3 of a suit, at the low end of a sequence of that
    /// suit (`RuleSet::joker_past_sequence_ends`).
    BelowThree(Suit),
    /// The imaginary card above the 2 of a suit, at the high end of a sequence of that
    /// suit (`RuleSet::joker_past_sequence_ends`).
    AboveTwo(Suit),
}

/// The id of the first imaginary card below the 3 in [`Declaration::id`] (plus the
/// suit index).
const BELOW_3_ID: u8 = 56;
/// The id of the first imaginary card above the 2 (plus the suit index).
const ABOVE_2_ID: u8 = 60;

impl Declaration {
    /// The natural card declared, if it is one.
    pub const fn card(self) -> Option<Card> {
        match self {
            Declaration::Card(card) => Some(card),
            _ => None,
        }
    }

    /// The suit of the declared card (`None` for a joker, which is never a valid
    /// declaration).
    pub const fn suit(self) -> Option<Suit> {
        match self {
            Declaration::Card(card) => card.suit(),
            Declaration::BelowThree(suit) | Declaration::AboveTwo(suit) => Some(suit),
        }
    }

    /// The position on the extended rank line: [`POSITION_BELOW_3`], a rank + 1, or
    /// [`POSITION_ABOVE_2`] (`None` for a joker).
    pub const fn position(self) -> Option<u8> {
        match self {
            Declaration::Card(card) => match card.rank() {
                Some(rank) => Some(rank + 1),
                None => None,
            },
            Declaration::BelowThree(_) => Some(POSITION_BELOW_3),
            Declaration::AboveTwo(_) => Some(POSITION_ABOVE_2),
        }
    }

    /// Whether this is an imaginary card past an end of a sequence.
    pub const fn is_past_an_end(self) -> bool {
        !matches!(self, Declaration::Card(_))
    }

    /// A stable id: the card id for a natural card (0..52), 56 + suit for the card
    /// below the 3, 60 + suit for the card above the 2.
    pub const fn id(self) -> u8 {
        match self {
            Declaration::Card(card) => card.id(),
            Declaration::BelowThree(suit) => BELOW_3_ID + suit as u8,
            Declaration::AboveTwo(suit) => ABOVE_2_ID + suit as u8,
        }
    }

    /// The declaration with id `id` (see [`Declaration::id`]); joker ids are
    /// declarations too (of nothing valid), so [`Play::new`] can name them.
    pub fn from_id(id: u32) -> Option<Declaration> {
        let id = u8::try_from(id).ok()?;
        match id {
            BELOW_3_ID..ABOVE_2_ID => {
                Some(Declaration::BelowThree(Suit::from_index(id - BELOW_3_ID)))
            }
            ABOVE_2_ID..64 => Some(Declaration::AboveTwo(Suit::from_index(id - ABOVE_2_ID))),
            _ => Card::from_id(id).map(Declaration::Card),
        }
    }

    /// The ascending card order of declarations: by position, then suit (a joker,
    /// never a valid declaration, after everything).
    pub const fn order_key(self) -> u8 {
        match (self.position(), self.suit()) {
            (Some(position), Some(suit)) => position * 4 + suit as u8,
            _ => u8::MAX,
        }
    }
}

impl From<Card> for Declaration {
    fn from(card: Card) -> Declaration {
        Declaration::Card(card)
    }
}

impl fmt::Display for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Declaration::Card(card) => write!(f, "{card}"),
            Declaration::BelowThree(suit) => write!(f, "{}(below 3)", suit.symbol()),
            Declaration::AboveTwo(suit) => write!(f, "{}(above 2)", suit.symbol()),
        }
    }
}

/// Whether a play of `kind` with `len` cards sets off a revolution under `rules`
/// (what [`Play::is_revolution`] answers; the shape alone decides it: a group of five
/// is a group of 4 or more).
pub fn is_revolution_shape(kind: PlayKind, len: usize, rules: &RuleSet) -> bool {
    match kind {
        PlayKind::Group => rules.group_revolution && len >= 4,
        PlayKind::Sequence => rules
            .sequence_revolution
            .is_some_and(|min| len >= usize::from(min)),
        PlayKind::Single => false,
    }
}

/// Whether emptying the hand with a play of exactly `cards` is a forbidden finish,
/// given the revolution flag before the play: what
/// [`Play::is_forbidden_finish`] answers, since the cards alone decide it (the only
/// single among the cases is the natural ♠3, whose card set is `{♠3}`).
pub fn is_forbidden_finish_cards(cards: CardSet, revolution: bool) -> bool {
    if cards.joker_count() > 0 {
        return true;
    }
    let naturals = cards.naturals();
    let banned_rank = if revolution { RANK_3 } else { RANK_2 };
    if naturals.suits_of_rank(banned_rank) != 0 {
        return true;
    }
    if naturals.iter().all(|c| c.rank() == Some(RANK_8)) {
        return true;
    }
    cards == CardSet::single(Card::SPADE_3)
}

/// The cards of `hand` that may not end it on their own under `revolution` (jokers,
/// the top rank, 8s, the ♠3): a hand left with only these ends in a foul under the
/// forbidden-finish rule unless a revolution turns the order.
pub fn foul_cards(hand: CardSet, revolution: bool) -> CardSet {
    let banned_rank = if revolution { RANK_3 } else { RANK_2 };
    let rank = |r: u8| CardSet::from_bits(0xF << (r * 4));
    hand.intersection(
        hand.jokers()
            .union(rank(banned_rank))
            .union(rank(RANK_8))
            .with(Card::SPADE_3),
    )
}

/// One play: its physical cards and the jokers' declarations.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    cards: CardSet,
    declared: [Option<Declaration>; 2],
    kind: PlayKind,
    /// Lowest rank (group: its rank; sequence: its lowest natural or declared natural
    /// rank, past any imaginary card below the 3); `JOKER_STRENGTH` for joker-only
    /// plays.
    low: u8,
    len: u8,
    /// Suit set including declared suits (0 for joker-only plays).
    suits: u8,
}

/// Why a set of cards and declarations is not a play. `joker` names the declaration at
/// fault (index into the play's jokers in ascending order), when one is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The declaration at fault, if the fault is a declaration.
    pub joker: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

fn play_error(joker: Option<usize>, reason: impl Into<String>) -> PlayError {
    PlayError {
        joker,
        reason: reason.into(),
    }
}

impl Play {
    /// A natural single (`card` must not be a joker).
    pub const fn single(card: Card) -> Play {
        assert!(!card.is_joker());
        let (rank, suit) = (card.id() / 4, card.id() & 3);
        Play {
            cards: CardSet::single(card),
            declared: [None, None],
            kind: PlayKind::Single,
            low: rank,
            len: 1,
            suits: 1 << suit,
        }
    }

    /// The lone joker (`joker` must be a joker).
    pub const fn lone_joker(joker: Card) -> Play {
        assert!(joker.is_joker());
        Play {
            cards: CardSet::single(joker),
            declared: [None, None],
            kind: PlayKind::Single,
            low: JOKER_STRENGTH,
            len: 1,
            suits: 0,
        }
    }

    /// The two-joker pair.
    pub const fn joker_pair() -> Play {
        Play {
            cards: CardSet::single(Card::JOKER).with(Card::JOKER2),
            declared: [None, None],
            kind: PlayKind::Group,
            low: JOKER_STRENGTH,
            len: 2,
            suits: 0,
        }
    }

    /// Builds a play without checks; the move generator uses it with inputs it
    /// constructed itself (`declared` ascending, matching the jokers of `cards`).
    pub(crate) const fn from_parts_unchecked(
        kind: PlayKind,
        cards: CardSet,
        declared: [Option<Declaration>; 2],
        low: u8,
        suits: u8,
    ) -> Play {
        Play {
            cards,
            declared,
            kind,
            low,
            len: cards.len() as u8,
            suits,
        }
    }

    /// Builds and validates a play of `kind` from its cards and the declarations of its
    /// jokers (in any order; they are assigned in ascending card order).
    ///
    /// ```
    /// use climbot_core::daifugo::cards::{Card, CardSet};
    /// use climbot_core::daifugo::plays::{Play, PlayKind};
    /// let cards = CardSet::parse("♠5 ♠7 joker").unwrap();
    /// let play = Play::new(PlayKind::Sequence, cards, &[Card::parse("♠6").unwrap()]).unwrap();
    /// assert_eq!(format!("{play:?}"), "sequence ♠5 ♠7 joker=♠6");
    /// assert!(Play::new(PlayKind::Sequence, cards, &[Card::parse("♥6").unwrap()]).is_err());
    /// ```
    pub fn new(kind: PlayKind, cards: CardSet, declared: &[Card]) -> Result<Play, PlayError> {
        let declared: Vec<Declaration> = declared.iter().map(|&c| Declaration::Card(c)).collect();
        Play::with_declarations(kind, cards, &declared)
    }

    /// [`Play::new`] with declarations that may also be the imaginary cards past the
    /// ends of a sequence (docs/rules/daifugo.md, §7.7), and the group of five (four of
    /// a kind and an undeclared joker, §7.6). Whether the rules allow those is
    /// [`Play::is_allowed_by`].
    ///
    /// ```
    /// use climbot_core::daifugo::cards::{CardSet, Suit};
    /// use climbot_core::daifugo::plays::{Declaration, Play, PlayKind};
    /// let cards = CardSet::parse("♠3 ♠4 joker").unwrap();
    /// let below = [Declaration::BelowThree(Suit::Spades)];
    /// let play = Play::with_declarations(PlayKind::Sequence, cards, &below).unwrap();
    /// assert_eq!(format!("{play:?}"), "sequence ♠3 ♠4 joker=♠(below 3)");
    /// assert_eq!((play.low_position(), play.high_position()), (0, 2));
    /// let five = CardSet::parse("♠9 ♥9 ♦9 ♣9 joker").unwrap();
    /// assert!(Play::with_declarations(PlayKind::Group, five, &[]).unwrap().is_group_of_five());
    /// ```
    pub fn with_declarations(
        kind: PlayKind,
        cards: CardSet,
        declared: &[Declaration],
    ) -> Result<Play, PlayError> {
        let naturals = cards.naturals();
        let jokers = cards.joker_count();
        if cards.is_empty() {
            return Err(play_error(None, "a play needs at least one card"));
        }
        if naturals.is_empty() {
            // Joker-only plays: the lone joker and the joker pair, never declared.
            if let Some(i) = (!declared.is_empty()).then_some(0) {
                return Err(play_error(
                    Some(i),
                    "a lone joker or joker pair carries no declaration",
                ));
            }
            return match (kind, jokers) {
                (PlayKind::Single, 1) => Ok(Play::lone_joker(cards.first().expect("one joker"))),
                (PlayKind::Group, 2) => Ok(Play::joker_pair()),
                _ => Err(play_error(
                    None,
                    "jokers alone form only a single or a pair",
                )),
            };
        }
        if kind == PlayKind::Group && jokers == 1 && naturals.len() == 4 && declared.is_empty() {
            let rank = naturals.first().and_then(Card::rank).expect("natural");
            if naturals.suits_of_rank(rank) == 0xF {
                return Ok(Play::from_parts_unchecked(
                    PlayKind::Group,
                    cards,
                    [None, None],
                    rank,
                    0xF,
                ));
            }
        }
        if declared.len() != jokers {
            return Err(play_error(
                None,
                format!(
                    "{} declarations for {} jokers in a group or sequence",
                    declared.len(),
                    jokers
                ),
            ));
        }
        let mut sorted = [None, None];
        let mut decl: Vec<Declaration> = declared.to_vec();
        decl.sort_unstable_by_key(|d| d.order_key());
        let mut effective = naturals;
        for (i, &declaration) in decl.iter().enumerate() {
            match declaration {
                Declaration::Card(card) if card.is_joker() => {
                    return Err(play_error(Some(i), "a joker must declare a natural card"));
                }
                Declaration::Card(card) if effective.contains(card) => {
                    return Err(play_error(
                        Some(i),
                        format!("declares {card}, already a card of the play"),
                    ));
                }
                Declaration::Card(card) => effective.insert(card),
                _ if decl[..i].contains(&declaration) => {
                    return Err(play_error(Some(i), format!("declares {declaration} twice")));
                }
                _ => {}
            }
            sorted[i] = Some(declaration);
        }
        let first = naturals.first().expect("non-empty");
        let (rank, suit) = (
            first.rank().expect("natural"),
            first.suit().expect("natural"),
        );
        match kind {
            PlayKind::Single => {
                if cards.len() != 1 {
                    return Err(play_error(None, "a single has exactly one card"));
                }
                Ok(Play::single(first))
            }
            PlayKind::Group => {
                if cards.len() < 2 {
                    return Err(play_error(None, "a group has at least two cards"));
                }
                if naturals.iter().any(|c| c.rank() != Some(rank)) {
                    return Err(play_error(None, "a group's natural cards differ in rank"));
                }
                if let Some(i) = decl
                    .iter()
                    .position(|d| d.card().and_then(Card::rank) != Some(rank))
                {
                    return Err(play_error(
                        Some(i),
                        format!("declares {}, not of the group's rank", decl[i]),
                    ));
                }
                Ok(Play::from_parts_unchecked(
                    PlayKind::Group,
                    cards,
                    sorted,
                    rank,
                    effective.suits_of_rank(rank),
                ))
            }
            PlayKind::Sequence => {
                if cards.len() < 3 {
                    return Err(play_error(None, "a sequence has at least three cards"));
                }
                if naturals.iter().any(|c| c.suit() != Some(suit)) {
                    return Err(play_error(
                        None,
                        "a sequence's natural cards differ in suit",
                    ));
                }
                if let Some(i) = decl.iter().position(|d| d.suit() != Some(suit)) {
                    return Err(play_error(
                        Some(i),
                        format!("declares {}, not of the sequence's suit", decl[i]),
                    ));
                }
                // Positions on the extended rank line: the imaginary card below the 3
                // at 0, the ranks at rank + 1, the imaginary card above the 2 at 14.
                let mut positions = effective.ranks_of_suit(suit) << 1;
                for d in &decl {
                    positions |= 1 << d.position().expect("a natural or imaginary card");
                }
                let low = positions.trailing_zeros() as u8;
                let consecutive = u32::from(positions >> low) == (1u32 << cards.len()) - 1;
                if !consecutive {
                    // Blame a declaration outside the naturals' span, else the cards.
                    let nat = naturals.ranks_of_suit(suit) << 1;
                    let (nlow, nhigh) = (nat.trailing_zeros(), 15 - nat.leading_zeros());
                    let span_ok = nhigh - nlow < cards.len() as u32;
                    let culprit = decl.iter().position(|d| {
                        let r = u32::from(d.position().expect("natural or imaginary"));
                        span_ok
                            && (r + cards.len() as u32 <= nhigh || r >= nlow + cards.len() as u32)
                    });
                    return Err(play_error(
                        culprit,
                        "the ranks are not consecutive".to_string(),
                    ));
                }
                Ok(Play::from_parts_unchecked(
                    PlayKind::Sequence,
                    cards,
                    sorted,
                    low.max(1) - 1,
                    1 << suit as u8,
                ))
            }
        }
    }

    /// The physical cards.
    pub const fn cards(&self) -> CardSet {
        self.cards
    }

    /// The natural cards the jokers declare, ascending (first = the lower joker's);
    /// imaginary cards past the ends of a sequence are left out (see
    /// [`Play::declarations`]).
    pub fn declared(&self) -> impl Iterator<Item = Card> + '_ {
        self.declarations().filter_map(Declaration::card)
    }

    /// Every declaration of the jokers, ascending (first = the lower joker's).
    pub fn declarations(&self) -> impl Iterator<Item = Declaration> + '_ {
        self.declared.iter().flatten().copied()
    }

    /// The natural card joker `joker` declares, if it is in the play and declares one.
    pub fn declaration_of(&self, joker: Card) -> Option<Card> {
        self.declaration(joker).and_then(Declaration::card)
    }

    /// The declaration of joker `joker`, if it is in the play and declared.
    pub fn declaration(&self, joker: Card) -> Option<Declaration> {
        self.cards
            .jokers()
            .iter()
            .position(|card| card == joker)
            .and_then(|index| self.declared[index])
    }

    /// Whether this is a group of five: four of a kind and a joker.
    pub const fn is_group_of_five(&self) -> bool {
        matches!(self.kind, PlayKind::Group) && self.len == 5
    }

    /// Whether a joker of this sequence stands for an imaginary card past an end.
    pub const fn is_past_the_ends(&self) -> bool {
        self.below_three() + self.above_two() > 0
    }

    /// Whether `rules` know this play: a group of five needs `group_of_five`, a joker
    /// past the ends of a sequence `joker_past_sequence_ends`.
    pub const fn is_allowed_by(&self, rules: &RuleSet) -> bool {
        (rules.group_of_five || !self.is_group_of_five())
            && (rules.joker_past_sequence_ends || !self.is_past_the_ends())
    }

    /// 1 when the lower joker stands below the 3, else 0.
    const fn below_three(&self) -> u8 {
        matches!(self.declared[0], Some(Declaration::BelowThree(_))) as u8
    }

    /// 1 when a joker stands above the 2, else 0.
    const fn above_two(&self) -> u8 {
        (matches!(self.declared[0], Some(Declaration::AboveTwo(_)))
            || matches!(self.declared[1], Some(Declaration::AboveTwo(_)))) as u8
    }

    /// The type of the play.
    pub const fn kind(&self) -> PlayKind {
        self.kind
    }

    /// The number of cards.
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false (a play has at least one card); present for clippy's sake.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The lowest rank (a group's rank); `None` for joker-only plays. A sequence's
    /// imaginary card below the 3 is no rank: its lowest rank is then the 3.
    pub const fn low_rank(&self) -> Option<u8> {
        if self.low == JOKER_STRENGTH {
            None
        } else {
            Some(self.low)
        }
    }

    /// The highest rank (a sequence's top); `None` for joker-only plays. A
    /// sequence's imaginary card above the 2 is no rank: its highest rank is then the 2.
    pub const fn high_rank(&self) -> Option<u8> {
        match self.low_rank() {
            None => None,
            Some(_) => Some(self.high_rank_raw()),
        }
    }

    /// The lowest position on the extended rank line, where the imaginary card below
    /// the 3 is [`POSITION_BELOW_3`], a rank r is r + 1 and the imaginary card above
    /// the 2 is [`POSITION_ABOVE_2`]: what sequences compare. Meaningless for
    /// joker-only plays.
    pub const fn low_position(&self) -> u8 {
        self.low + 1 - self.below_three()
    }

    /// The highest position on the extended rank line (see [`Play::low_position`]).
    pub const fn high_position(&self) -> u8 {
        match self.kind {
            PlayKind::Sequence => self.low_position() + self.len - 1,
            _ => self.low_position(),
        }
    }

    /// The suit set, declared suits included (0 for joker-only plays), bit = suit.
    pub const fn suits(&self) -> u8 {
        self.suits
    }

    /// The number of jokers used.
    pub const fn joker_count(&self) -> usize {
        self.cards.joker_count()
    }

    /// Whether this is the lone joker.
    pub const fn is_lone_joker(&self) -> bool {
        self.len == 1 && self.low == JOKER_STRENGTH
    }

    /// Whether this is the two-joker pair.
    pub const fn is_joker_pair(&self) -> bool {
        self.len == 2 && self.low == JOKER_STRENGTH
    }

    /// Whether the play is a natural single ♠3.
    pub fn is_spade3(&self) -> bool {
        self.kind == PlayKind::Single && self.cards.contains(Card::SPADE_3)
    }

    /// Strength under the current order (higher is stronger): a single or group's
    /// rank, a sequence's weakest position, joker-only plays above every rank. A
    /// sequence whose weakest end is an imaginary card past the 3 or the 2 counts as
    /// strength 0, like one ending on the 3 (or the 2 in the reversed order).
    pub const fn strength(&self, reversed: bool) -> u8 {
        if self.low == JOKER_STRENGTH {
            return JOKER_STRENGTH;
        }
        if reversed {
            (RANK_2 + 1).saturating_sub(self.high_position())
        } else {
            self.low_position().saturating_sub(1)
        }
    }

    /// The highest rank of a natural play (imaginary cards left out).
    const fn high_rank_raw(&self) -> u8 {
        match self.kind {
            PlayKind::Sequence => self.low + self.len - 1 - self.below_three() - self.above_two(),
            _ => self.low,
        }
    }

    /// Whether the play sets off a revolution under `rules`.
    pub fn is_revolution(&self, rules: &RuleSet) -> bool {
        is_revolution_shape(self.kind, self.len(), rules)
    }

    /// Whether the play is an 8-cut under `rules`.
    pub fn is_eight_cut(&self, rules: &RuleSet) -> bool {
        if !rules.eight_cut {
            return false;
        }
        match self.kind {
            PlayKind::Single | PlayKind::Group => self.low == RANK_8,
            PlayKind::Sequence => {
                rules.eight_cut_sequence && self.low <= RANK_8 && RANK_8 <= self.high_rank_raw()
            }
        }
    }

    /// Whether the play is a J-back under `rules`.
    pub fn is_jack_back(&self, rules: &RuleSet) -> bool {
        rules.jack_back && self.kind != PlayKind::Sequence && self.low == RANK_J
    }

    /// Whether emptying the hand with this play is a forbidden finish
    /// (docs/rules/daifugo.md, §11.2 Forbidden finishes), given the revolution flag
    /// before the play. Ignores the toggle.
    pub fn is_forbidden_finish(&self, revolution: bool) -> bool {
        is_forbidden_finish_cards(self.cards, revolution)
    }

    /// Whether `self` may be played on `table` (docs/rules/daifugo.md, §8 Following):
    /// same type and count, the lock satisfied, stronger under the current order.
    pub fn beats(&self, table: &Play, reversed: bool, lock: u8, rules: &RuleSet) -> bool {
        if self.kind != table.kind || self.len != table.len {
            return false;
        }
        if table.low == JOKER_STRENGTH {
            // Only ♠3 beats a lone joker; nothing beats the joker pair.
            return table.len == 1 && rules.spade3_beats_joker && self.is_spade3();
        }
        if self.low == JOKER_STRENGTH {
            // The lone joker may go on a locked single; the pair may not on a locked pair.
            return self.len == 1 || lock == 0;
        }
        if lock != 0 && self.suits != lock {
            return false;
        }
        match (self.kind, reversed) {
            (PlayKind::Sequence, false) => self.low_position() > table.high_position(),
            (PlayKind::Sequence, true) => self.high_position() < table.low_position(),
            (_, false) => self.low > table.low,
            (_, true) => self.low < table.low,
        }
    }

    /// The card-tie key of docs/rules/easy-bots.md: each natural card as strength*4 + suit under
    /// the current order, sorted ascending, jokers last.
    pub fn tie_key(&self, reversed: bool) -> TieKey {
        let mut key = TieKey::default();
        for card in self.cards.naturals().iter() {
            key.push(card_tie_value(card, reversed));
        }
        key.sort();
        for card in self.cards.jokers().iter() {
            key.push(card.id());
        }
        key
    }

    /// The jokers' declared cards as tie values, sorted (the last tie-break of the
    /// Daifugo easy bot, docs/rules/easy-bots.md).
    pub fn declared_key(&self, reversed: bool) -> TieKey {
        let mut key = TieKey::default();
        for card in self.declared() {
            key.push(card_tie_value(card, reversed));
        }
        key.sort();
        key
    }

    /// A stable encoding for fingerprints: cards, then declarations, then kind.
    pub fn encode(&self) -> [u64; 2] {
        let decl = |d: Option<Declaration>| u64::from(d.map_or(0xFF, Declaration::id));
        [
            self.cards.bits(),
            decl(self.declared[0])
                | decl(self.declared[1]) << 8
                | u64::from(self.kind.code()) << 16,
        ]
    }
}

/// A natural card's tie value under the current order: strength * 4 + suit.
pub fn card_tie_value(card: Card, reversed: bool) -> u8 {
    match (card.rank(), card.suit()) {
        (Some(rank), Some(suit)) => {
            let strength = if reversed { RANK_2 - rank } else { rank };
            strength * 4 + suit as u8
        }
        _ => card.id(),
    }
}

/// A short sorted list of card tie values (at most 13 cards in a play), compared
/// lexicographically.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct TieKey {
    len: u8,
    values: [u8; 16],
}

impl TieKey {
    fn push(&mut self, value: u8) {
        self.values[self.len as usize] = value;
        self.len += 1;
    }

    fn sort(&mut self) {
        self.values[..self.len as usize].sort_unstable();
    }

    /// The values.
    pub fn as_slice(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            PlayKind::Single => "single",
            PlayKind::Group => "group",
            PlayKind::Sequence => "sequence",
        };
        f.write_str(kind)?;
        for card in self.cards.naturals().iter() {
            write!(f, " {card}")?;
        }
        for (index, joker) in self.cards.jokers().iter().enumerate() {
            match self.declared[index] {
                Some(card) => write!(f, " {joker}={card}")?,
                None => write!(f, " {joker}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Suits of a suit mask, in tie order.
pub fn suits_in(mask: u8) -> impl Iterator<Item = Suit> {
    Suit::ALL
        .into_iter()
        .filter(move |s| mask & (1 << *s as u8) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Card {
        Card::parse(name).unwrap()
    }
    fn set(names: &str) -> CardSet {
        CardSet::parse(names).unwrap()
    }

    #[test]
    fn construction_and_errors() {
        let g = Play::new(PlayKind::Group, set("♠5 joker"), &[c("♥5")]).unwrap();
        assert_eq!(g.suits(), 0b0011);
        assert_eq!(g.low_rank(), Some(2));
        let e = Play::new(PlayKind::Group, set("♠5 joker"), &[c("♠5")]).unwrap_err();
        assert_eq!(e.joker, Some(0));
        let e = Play::new(PlayKind::Group, set("♠5 joker"), &[c("♥6")]).unwrap_err();
        assert_eq!(e.joker, Some(0));
        let e = Play::new(PlayKind::Group, set("♠5 ♥6"), &[]).unwrap_err();
        assert_eq!(e.joker, None);
        let s = Play::new(PlayKind::Sequence, set("♠K ♠A joker"), &[c("♠2")]).unwrap();
        assert_eq!((s.low_rank(), s.high_rank()), (Some(10), Some(12)));
        let e = Play::new(PlayKind::Sequence, set("♠5 ♠6 joker"), &[c("♠9")]).unwrap_err();
        assert_eq!(e.joker, Some(0));
        assert!(Play::new(PlayKind::Sequence, set("♠A ♠2 ♠3"), &[]).is_err());
        assert!(Play::new(PlayKind::Single, set("joker"), &[c("♠3")]).is_err());
        assert!(
            Play::new(PlayKind::Single, set("joker"), &[])
                .unwrap()
                .is_lone_joker()
        );
        assert!(
            Play::new(PlayKind::Group, set("joker joker2"), &[])
                .unwrap()
                .is_joker_pair()
        );
    }

    #[test]
    fn comparison_both_orders() {
        let r = RuleSet::house();
        let s5 = Play::single(c("♠5"));
        let h9 = Play::single(c("♥9"));
        assert!(h9.beats(&s5, false, 0, &r));
        assert!(!h9.beats(&s5, true, 0, &r));
        assert!(s5.beats(&h9, true, 0, &r));
        assert!(!Play::single(c("♥9")).beats(&s5, false, 0b0001, &r));
        let seq = |n: &str| Play::new(PlayKind::Sequence, set(n), &[]).unwrap();
        let low = seq("♠3 ♠4 ♠5");
        assert!(seq("♥6 ♥7 ♥8").beats(&low, false, 0, &r));
        assert!(!seq("♥5 ♥6 ♥7").beats(&low, false, 0, &r));
        assert!(low.beats(&seq("♥6 ♥7 ♥8"), true, 0, &r));
        assert!(!seq("♥4 ♥5 ♥6").beats(&seq("♥6 ♥7 ♥8"), true, 0, &r));
        let joker = Play::lone_joker(Card::JOKER);
        assert!(joker.beats(&Play::single(c("♠2")), false, 0b0001, &r));
        assert!(Play::single(Card::SPADE_3).beats(&joker, false, 0, &r));
        assert!(Play::single(Card::SPADE_3).beats(&joker, true, 0, &r));
        assert!(!Play::single(c("♥3")).beats(&joker, true, 0, &r));
    }

    fn past(kind: PlayKind, names: &str, declared: &[Declaration]) -> Play {
        Play::with_declarations(kind, set(names), declared).unwrap()
    }

    #[test]
    fn sequences_with_a_joker_past_an_end() {
        let below = Declaration::BelowThree(Suit::Spades);
        let above = Declaration::AboveTwo(Suit::Spades);
        let low = past(PlayKind::Sequence, "♠3 ♠4 joker", &[below]);
        assert!(low.is_past_the_ends() && low.kind() == PlayKind::Sequence);
        assert_eq!((low.low_rank(), low.high_rank()), (Some(0), Some(1)));
        assert_eq!((low.low_position(), low.high_position()), (0, 2));
        assert_eq!(low.declarations().collect::<Vec<_>>(), [below]);
        assert_eq!(low.declared().count(), 0);
        assert_eq!(low.declaration_of(Card::JOKER), None);
        assert_eq!(low.declaration(Card::JOKER), Some(below));
        let high = past(PlayKind::Sequence, "♠A ♠2 joker", &[above]);
        assert_eq!((high.low_rank(), high.high_rank()), (Some(11), Some(12)));
        assert_eq!((high.low_position(), high.high_position()), (12, 14));
        assert_eq!(format!("{high:?}"), "sequence ♠A ♠2 joker=♠(above 2)");
        // The imaginary card is of the sequence's suit, at the end the naturals reach.
        let e = Play::with_declarations(
            PlayKind::Sequence,
            set("♠3 ♠4 joker"),
            &[Declaration::BelowThree(Suit::Hearts)],
        )
        .unwrap_err();
        assert_eq!(e.joker, Some(0));
        assert!(Play::with_declarations(PlayKind::Sequence, set("♠4 ♠5 joker"), &[below]).is_err());
        assert!(Play::with_declarations(PlayKind::Sequence, set("♠K ♠A joker"), &[above]).is_err());
        assert!(Play::with_declarations(PlayKind::Group, set("♠3 joker"), &[below]).is_err());
        // Two jokers: one past the end, one inside; or both past the ends.
        let two = past(
            PlayKind::Sequence,
            "♠3 ♠5 joker joker2",
            &[Declaration::Card(c("♠4")), below],
        );
        assert_eq!(two.declaration(Card::JOKER), Some(below));
        assert_eq!(two.declaration_of(Card::JOKER2), Some(c("♠4")));
        assert_eq!((two.low_position(), two.high_position()), (0, 3));
        assert!(
            Play::with_declarations(
                PlayKind::Sequence,
                set("♠3 ♠4 joker joker2"),
                &[below, below]
            )
            .is_err()
        );
        // The rules decide whether the play exists.
        assert!(low.is_allowed_by(&RuleSet::uecda()) && !low.is_allowed_by(&RuleSet::house()));
        // Distinct encodings from the play with the joker inside the run.
        let inside = Play::new(PlayKind::Sequence, set("♠3 ♠4 joker"), &[c("♠5")]).unwrap();
        assert_ne!(inside.encode(), low.encode());
        for id in [56, 59, 60, 63, 0, 51] {
            assert_eq!(
                Declaration::from_id(id).map(|d| u32::from(d.id())),
                Some(id)
            );
        }
        assert_eq!(Declaration::from_id(64), None);
    }

    #[test]
    fn joker_past_an_end_compares_in_both_orders() {
        let r = RuleSet::uecda();
        let seq = |n: &str| Play::new(PlayKind::Sequence, set(n), &[]).unwrap();
        let below = past(
            PlayKind::Sequence,
            "♠3 ♠4 joker",
            &[Declaration::BelowThree(Suit::Spades)],
        );
        let above = past(
            PlayKind::Sequence,
            "♠A ♠2 joker",
            &[Declaration::AboveTwo(Suit::Spades)],
        );
        // Normal order: joker-3-4 beats nothing and is beaten from the 5 up.
        assert!(!below.beats(&seq("♥3 ♥4 ♥5"), false, 0, &r));
        assert!(seq("♥5 ♥6 ♥7").beats(&below, false, 0, &r));
        assert!(!seq("♥4 ♥5 ♥6").beats(&below, false, 0, &r));
        // Normal order: A-2-joker beats any 3-sequence topped below the A; nothing
        // beats it.
        assert!(above.beats(&seq("♥J ♥Q ♥K"), false, 0, &r));
        assert!(!above.beats(&seq("♥Q ♥K ♥A"), false, 0, &r));
        assert!(!seq("♥K ♥A ♥2").beats(&above, false, 0, &r));
        assert!(!below.beats(&above, false, 0, &r));
        // Reversed: joker-3-4 beats every 3-sequence starting from the 5 and nothing
        // natural beats it; A-2-joker is the weakest.
        assert!(below.beats(&seq("♥5 ♥6 ♥7"), true, 0, &r));
        assert!(!below.beats(&seq("♥3 ♥4 ♥5"), true, 0, &r));
        assert!(!seq("♥3 ♥4 ♥5").beats(&below, true, 0, &r));
        assert!(seq("♥J ♥Q ♥K").beats(&above, true, 0, &r));
        assert!(!seq("♥Q ♥K ♥A").beats(&above, true, 0, &r));
        assert!(below.beats(&above, true, 0, &r));
        // The suit lock holds as for other sequences.
        assert!(!seq("♥5 ♥6 ♥7").beats(&below, false, 0b0001, &r));
        assert!(seq("♠5 ♠6 ♠7").beats(&below, false, 0b0001, &r));
        // Strengths: the imaginary end counts as the weakest position.
        assert_eq!(below.strength(false), 0);
        assert_eq!(above.strength(true), 0);
        assert_eq!(below.strength(true), RANK_2 - 1);
        assert_eq!(above.strength(false), 11);
    }

    #[test]
    fn joker_past_an_end_revolution_and_eight_cut() {
        let r = RuleSet::uecda();
        let five = past(
            PlayKind::Sequence,
            "♦3 ♦4 ♦5 ♦6 joker",
            &[Declaration::BelowThree(Suit::Diamonds)],
        );
        assert!(five.is_revolution(&r) && !five.is_eight_cut(&r));
        let to_eight = past(
            PlayKind::Sequence,
            "♦3 ♦4 ♦5 ♦6 ♦7 ♦8 joker",
            &[Declaration::BelowThree(Suit::Diamonds)],
        );
        assert!(to_eight.is_eight_cut(&r));
        let four = past(
            PlayKind::Sequence,
            "♦K ♦A ♦2 joker",
            &[Declaration::AboveTwo(Suit::Diamonds)],
        );
        assert!(!four.is_revolution(&r) && !four.is_eight_cut(&r));
        assert!(!five.is_jack_back(&RuleSet {
            jack_back: true,
            ..r
        }));
    }

    #[test]
    fn group_of_five() {
        let r = RuleSet::uecda();
        let five = Play::new(PlayKind::Group, set("♠9 ♥9 ♦9 ♣9 joker"), &[]).unwrap();
        assert!(five.is_group_of_five() && five.kind() == PlayKind::Group);
        assert_eq!(
            (five.len(), five.suits(), five.low_rank()),
            (5, 0xF, Some(6))
        );
        assert_eq!(five.declarations().count(), 0);
        assert_eq!(format!("{five:?}"), "group ♠9 ♥9 ♦9 ♣9 joker");
        assert!(five.is_revolution(&r) && !five.is_eight_cut(&r));
        let eights = Play::new(PlayKind::Group, set("♠8 ♥8 ♦8 ♣8 joker"), &[]).unwrap();
        assert!(eights.is_eight_cut(&r));
        // Only a higher group of five follows one (in the current order).
        assert!(five.beats(&eights, false, 0, &r) && !eights.beats(&five, false, 0, &r));
        assert!(eights.beats(&five, true, 0b1111, &r));
        let four = Play::new(PlayKind::Group, set("♠K ♥K ♦K ♣K"), &[]).unwrap();
        assert!(!four.beats(&five, false, 0, &r) && !five.beats(&four, false, 0, &r));
        // Not a group of five: three of a kind, two jokers, a declaration.
        assert!(Play::new(PlayKind::Group, set("♠9 ♥9 ♦9 joker joker2"), &[]).is_err());
        assert!(Play::new(PlayKind::Group, set("♠9 ♥9 ♦9 ♠8 joker"), &[]).is_err());
        assert!(Play::new(PlayKind::Group, set("♠9 ♥9 ♦9 ♣9 joker"), &[c("♠9")]).is_err());
        assert!(Play::new(PlayKind::Sequence, set("♠9 ♥9 ♦9 ♣9 joker"), &[]).is_err());
        // The rules decide whether the play exists.
        assert!(five.is_allowed_by(&r) && !five.is_allowed_by(&RuleSet::house()));
        assert!(five.is_forbidden_finish(false));
    }

    #[test]
    fn forbidden_finishes() {
        assert!(Play::single(c("♥2")).is_forbidden_finish(false));
        assert!(!Play::single(c("♥2")).is_forbidden_finish(true));
        assert!(Play::single(c("♥3")).is_forbidden_finish(true));
        assert!(!Play::single(c("♥3")).is_forbidden_finish(false));
        assert!(Play::single(Card::SPADE_3).is_forbidden_finish(false));
        assert!(Play::single(c("♦8")).is_forbidden_finish(false));
        assert!(Play::lone_joker(Card::JOKER).is_forbidden_finish(false));
        let seq = Play::new(PlayKind::Sequence, set("♠7 ♠8 ♠9"), &[]).unwrap();
        assert!(!seq.is_forbidden_finish(false));
    }

    #[test]
    fn foul_cards_are_the_cards_that_may_not_end_a_hand_alone() {
        let deck = CardSet::deck(2);
        for revolution in [false, true] {
            let one_by_one = CardSet::from_cards(
                deck.iter()
                    .filter(|&c| is_forbidden_finish_cards(CardSet::single(c), revolution)),
            );
            assert_eq!(foul_cards(deck, revolution), one_by_one);
            for card in deck.iter() {
                let hand = deck.difference(CardSet::single(card));
                assert_eq!(foul_cards(hand, revolution), one_by_one.intersection(hand));
            }
        }
        let hand = CardSet::parse("s3 h3 s8 d9 h2 joker").unwrap();
        assert_eq!(
            foul_cards(hand, false),
            CardSet::parse("s3 s8 h2 joker").unwrap()
        );
        assert_eq!(
            foul_cards(hand, true),
            CardSet::parse("s3 h3 s8 joker").unwrap()
        );
    }
}
