//! Plays (singles, groups, sequences), their comparison and their effects.
//!
//! A joker inside a group or sequence declares a natural card (docs/rules/daifugo.md,
//! §7.4 Jokers in groups and sequences); the declarations are stored in ascending card
//! order and belong to the play's jokers in ascending id order. A lone joker and the
//! two-joker pair carry no declaration.

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

/// Whether a play of `kind` with `len` cards sets off a revolution under `rules`
/// (what [`Play::is_revolution`] answers; the shape alone decides it).
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

/// One play: its physical cards and the jokers' declarations.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    cards: CardSet,
    declared: [Option<Card>; 2],
    kind: PlayKind,
    /// Lowest rank (group: its rank); `JOKER_STRENGTH` for joker-only plays.
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
        declared: [Option<Card>; 2],
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
    /// use climbot::daifugo::cards::{Card, CardSet};
    /// use climbot::daifugo::plays::{Play, PlayKind};
    /// let cards = CardSet::parse("♠5 ♠7 joker").unwrap();
    /// let play = Play::new(PlayKind::Sequence, cards, &[Card::parse("♠6").unwrap()]).unwrap();
    /// assert_eq!(format!("{play:?}"), "sequence ♠5 ♠7 joker=♠6");
    /// assert!(Play::new(PlayKind::Sequence, cards, &[Card::parse("♥6").unwrap()]).is_err());
    /// ```
    pub fn new(kind: PlayKind, cards: CardSet, declared: &[Card]) -> Result<Play, PlayError> {
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
        let mut decl: Vec<Card> = declared.to_vec();
        decl.sort_unstable();
        let mut effective = naturals;
        for (i, &card) in decl.iter().enumerate() {
            if card.is_joker() {
                return Err(play_error(Some(i), "a joker must declare a natural card"));
            }
            if effective.contains(card) {
                return Err(play_error(
                    Some(i),
                    format!("declares {card}, already a card of the play"),
                ));
            }
            effective.insert(card);
            sorted[i] = Some(card);
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
                if let Some(i) = decl.iter().position(|c| c.rank() != Some(rank)) {
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
                if let Some(i) = decl.iter().position(|c| c.suit() != Some(suit)) {
                    return Err(play_error(
                        Some(i),
                        format!("declares {}, not of the sequence's suit", decl[i]),
                    ));
                }
                let ranks = effective.ranks_of_suit(suit);
                let low = ranks.trailing_zeros() as u8;
                let consecutive = ranks >> low == (1u16 << cards.len()) - 1;
                if !consecutive {
                    // Blame a declaration outside the naturals' span, else the cards.
                    let nat = naturals.ranks_of_suit(suit);
                    let (nlow, nhigh) = (nat.trailing_zeros(), 15 - nat.leading_zeros());
                    let span_ok = nhigh - nlow < cards.len() as u32;
                    let culprit = decl.iter().position(|c| {
                        let r = u32::from(c.rank().expect("natural"));
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
                    low,
                    1 << suit as u8,
                ))
            }
        }
    }

    /// The physical cards.
    pub const fn cards(&self) -> CardSet {
        self.cards
    }

    /// The declarations of the jokers, ascending (first = the lower joker's).
    pub fn declared(&self) -> impl Iterator<Item = Card> + '_ {
        self.declared.iter().flatten().copied()
    }

    /// The declaration of joker `joker`, if it is in the play and declared.
    pub fn declaration_of(&self, joker: Card) -> Option<Card> {
        self.cards
            .jokers()
            .iter()
            .position(|card| card == joker)
            .and_then(|index| self.declared[index])
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

    /// The lowest rank (a group's rank); `None` for joker-only plays.
    pub const fn low_rank(&self) -> Option<u8> {
        if self.low == JOKER_STRENGTH {
            None
        } else {
            Some(self.low)
        }
    }

    /// The highest rank (a sequence's top); `None` for joker-only plays.
    pub const fn high_rank(&self) -> Option<u8> {
        match (self.low_rank(), self.kind) {
            (None, _) => None,
            (Some(low), PlayKind::Sequence) => Some(low + self.len - 1),
            (Some(low), _) => Some(low),
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
    /// rank, a sequence's weakest position, joker-only plays above every rank.
    pub const fn strength(&self, reversed: bool) -> u8 {
        if self.low == JOKER_STRENGTH {
            return JOKER_STRENGTH;
        }
        if reversed {
            RANK_2 - self.high_rank_raw()
        } else {
            self.low
        }
    }

    const fn high_rank_raw(&self) -> u8 {
        match self.kind {
            PlayKind::Sequence => self.low + self.len - 1,
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
            (PlayKind::Sequence, false) => self.low > table.high_rank_raw(),
            (PlayKind::Sequence, true) => self.high_rank_raw() < table.low,
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
        let decl = |d: Option<Card>| u64::from(d.map_or(0xFF, |c| c.id()));
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
}
