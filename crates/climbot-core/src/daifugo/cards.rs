//! Cards and card sets.
//!
//! A natural card's id is `rank * 4 + suit` with rank 0 = 3 up to rank 12 = 2 and the
//! suits in the tie order ♠ < ♥ < ♦ < ♣, so ascending ids follow the normal order. The
//! jokers are ids 52 and 53 (the second joker exists only in two-joker decks). A
//! [`CardSet`] is a bitset over those 54 ids.

use std::fmt;

/// The four suits, in the tie order ♠ < ♥ < ♦ < ♣ (suits have no strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// ♠
    Spades = 0,
    /// ♥
    Hearts = 1,
    /// ♦
    Diamonds = 2,
    /// ♣
    Clubs = 3,
}

impl Suit {
    /// Every suit in tie order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with index `i` (0..4).
    pub const fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }

    /// The suit's symbol.
    pub const fn symbol(self) -> &'static str {
        match self {
            Suit::Spades => "♠",
            Suit::Hearts => "♥",
            Suit::Diamonds => "♦",
            Suit::Clubs => "♣",
        }
    }
}

/// Rank names by rank index, weakest (3) to strongest (2) in the normal order.
pub const RANK_NAMES: [&str; 13] = [
    "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2",
];

/// Rank index of the 3.
pub const RANK_3: u8 = 0;
/// Rank index of the 8 (the 8-cut rank).
pub const RANK_8: u8 = 5;
/// Rank index of the jack (J-back).
pub const RANK_J: u8 = 8;
/// Rank index of the 2.
pub const RANK_2: u8 = 12;
/// Number of ranks.
pub const RANKS: u8 = 13;

/// One card: a natural card (rank, suit) or one of the two jokers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The first joker (every deck has it).
    pub const JOKER: Card = Card(52);
    /// The second joker (two-joker decks only).
    pub const JOKER2: Card = Card(53);
    /// ♠3, the card that beats a lone joker.
    pub const SPADE_3: Card = Card::natural(RANK_3, Suit::Spades);
    /// ♦3, whose holder leads the first game.
    pub const DIAMOND_3: Card = Card::natural(RANK_3, Suit::Diamonds);

    /// The natural card of `rank` (0 = 3 .. 12 = 2) and `suit`.
    pub const fn natural(rank: u8, suit: Suit) -> Card {
        assert!(rank < RANKS);
        Card(rank * 4 + suit as u8)
    }

    /// The card with id `id`, if `id < 54`.
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 54 { Some(Card(id)) } else { None }
    }

    /// The card's id (0..54).
    pub const fn id(self) -> u8 {
        self.0
    }

    /// Whether the card is a joker.
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The rank index of a natural card (`None` for a joker).
    pub const fn rank(self) -> Option<u8> {
        if self.is_joker() {
            None
        } else {
            Some(self.0 / 4)
        }
    }

    /// The suit of a natural card (`None` for a joker).
    pub const fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Some(Suit::from_index(self.0 & 3))
        }
    }

    /// Parses a card name: `♠3`, `s3`, `h10`, `dJ`, `cA`, `joker`, `joker2`.
    pub fn parse(text: &str) -> Option<Card> {
        match text {
            "joker" | "jk" | "JK" => return Some(Card::JOKER),
            "joker2" | "jk2" | "JK2" => return Some(Card::JOKER2),
            _ => {}
        }
        let mut chars = text.chars();
        let first = chars.next()?;
        let suit = match first {
            '♠' | 's' | 'S' => Suit::Spades,
            '♥' | 'h' | 'H' => Suit::Hearts,
            '♦' | 'd' | 'D' => Suit::Diamonds,
            '♣' | 'c' | 'C' => Suit::Clubs,
            _ => return None,
        };
        let rest: String = chars.collect();
        let rank = RANK_NAMES
            .iter()
            .position(|name| name.eq_ignore_ascii_case(&rest))?;
        Some(Card::natural(rank as u8, suit))
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(rank), Some(suit)) => {
                write!(f, "{}{}", suit.symbol(), RANK_NAMES[rank as usize])
            }
            _ if *self == Card::JOKER => f.write_str("joker"),
            _ => f.write_str("joker2"),
        }
    }
}

/// A set of cards as a bitset over card ids.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CardSet(u64);

const NATURAL_BITS: u64 = (1 << 52) - 1;
const JOKER_BITS: u64 = 3 << 52;

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set with the given raw bits (bits 54.. are dropped).
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & (NATURAL_BITS | JOKER_BITS))
    }

    /// The raw bits.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The whole deck: 52 natural cards plus `jokers` jokers (0..=2).
    pub const fn deck(jokers: u8) -> CardSet {
        let jokers = if jokers > 2 { 2 } else { jokers };
        CardSet(NATURAL_BITS | (((1u64 << jokers) - 1) << 52))
    }

    /// Every natural card of rank `rank` (0 = 3 .. 12 = 2) or lower, in every suit.
    pub const fn naturals_up_to(rank: u8) -> CardSet {
        assert!(rank < RANKS);
        CardSet((1u64 << ((rank as u32 + 1) * 4)) - 1)
    }

    /// The set holding one card.
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.0)
    }

    /// Whether the set holds `card`.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds `card`.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The set with `card` added.
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | (1 << card.0))
    }

    /// The union.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The intersection.
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards of `self` not in `other`.
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// Whether every card of `self` is in `other`.
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether every card of `other` is in `self`.
    pub const fn is_superset(self, other: CardSet) -> bool {
        other.is_subset(self)
    }

    /// Whether the sets share no card.
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// The number of cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The natural cards of the set.
    pub const fn naturals(self) -> CardSet {
        CardSet(self.0 & NATURAL_BITS)
    }

    /// The jokers of the set.
    pub const fn jokers(self) -> CardSet {
        CardSet(self.0 & JOKER_BITS)
    }

    /// The number of jokers in the set.
    pub const fn joker_count(self) -> usize {
        (self.0 & JOKER_BITS).count_ones() as usize
    }

    /// The suits held at `rank`, as a 4-bit mask (bit = suit index).
    pub const fn suits_of_rank(self, rank: u8) -> u8 {
        ((self.0 >> (rank * 4)) & 0xF) as u8
    }

    /// The ranks held in `suit`, as a 13-bit mask (bit = rank index).
    pub fn ranks_of_suit(self, suit: Suit) -> u16 {
        let mut mask = 0u16;
        for rank in 0..RANKS {
            if self.0 & (1 << (rank * 4 + suit as u8)) != 0 {
                mask |= 1 << rank;
            }
        }
        mask
    }

    /// The lowest card, if any.
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// The cards' ids (as a view's input carries them), in [`CardSet::iter`]'s order.
    pub fn ids<C: FromIterator<u32>>(self) -> C {
        self.iter().map(|c| u32::from(c.id())).collect()
    }

    /// The cards in ascending id order.
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// Builds a set from cards.
    pub fn from_cards<I: IntoIterator<Item = Card>>(cards: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in cards {
            set.insert(card);
        }
        set
    }

    /// Parses a space-separated list of card names (see [`Card::parse`]).
    ///
    /// ```
    /// use climbot_core::daifugo::cards::CardSet;
    /// let set = CardSet::parse("♠3 hK joker").unwrap();
    /// assert_eq!(format!("{set:?}"), "♠3 ♥K joker");
    /// ```
    pub fn parse(text: &str) -> Option<CardSet> {
        let mut set = CardSet::EMPTY;
        for word in text.split_whitespace() {
            let card = Card::parse(word)?;
            if set.contains(card) {
                return None;
            }
            set.insert(card);
        }
        Some(set)
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for card in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{card}")?;
        }
        if first {
            f.write_str("{}")?;
        }
        Ok(())
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        CardSet::from_cards(iter)
    }
}

/// Iterator over a [`CardSet`] in ascending id order.
#[derive(Clone, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let id = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(id))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_normal_order() {
        assert_eq!(Card::natural(0, Suit::Spades).id(), 0);
        assert_eq!(Card::DIAMOND_3.id(), 2);
        assert_eq!(Card::natural(RANK_2, Suit::Clubs).id(), 51);
        assert_eq!(format!("{:?}", Card::natural(RANK_8, Suit::Hearts)), "♥8");
    }

    #[test]
    fn deck_sizes_and_debug() {
        assert_eq!(CardSet::deck(1).len(), 53);
        assert_eq!(CardSet::deck(2).len(), 54);
        assert_eq!(CardSet::deck(2).joker_count(), 2);
        let set = CardSet::parse("♥K joker ♠3").unwrap();
        assert_eq!(format!("{set:?}"), "♠3 ♥K joker");
        assert_eq!(format!("{:?}", CardSet::EMPTY), "{}");
        assert_eq!(set.iter().len(), 3);
        assert!(CardSet::parse("♠3 ♠3").is_none());
        assert!(CardSet::parse("x9").is_none());
    }

    #[test]
    fn masks() {
        let set = CardSet::parse("♠5 ♦5 ♠6 ♠8").unwrap();
        assert_eq!(set.suits_of_rank(2), 0b0101);
        assert_eq!(set.ranks_of_suit(Suit::Spades), 0b101100);
        assert_eq!(set.naturals(), set);
        assert!(set.jokers().is_empty());
        assert_eq!(
            CardSet::naturals_up_to(RANK_3),
            CardSet::parse("♠3 ♥3 ♦3 ♣3").unwrap()
        );
        assert_eq!(CardSet::naturals_up_to(RANK_2), CardSet::deck(0));
        let up_to_8 = CardSet::naturals_up_to(RANK_8);
        assert_eq!(up_to_8.len(), 24);
        assert!(up_to_8.contains(Card::natural(RANK_8, Suit::Clubs)));
        assert!(!up_to_8.contains(Card::natural(RANK_8 + 1, Suit::Spades)));
    }
}
