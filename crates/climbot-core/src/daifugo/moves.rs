//! Legal play generation.
//!
//! Plays are generated from a hand by rank (groups) and by suit (sequences) with the
//! jokers' declarations expanded: a joker may declare any free card of the play, even one
//! the player holds (docs/rules/daifugo.md, §7.4 Jokers in groups and sequences), and,
//! where the rules allow them, the imaginary cards past the ends of a sequence (§7.7)
//! and the group of five (§7.6). With two jokers in hand, a play using one joker uses
//! the lower one.

use super::cards::{Card, CardSet, RANKS, Suit};
use super::plays::{Declaration, POSITION_ABOVE_2, POSITION_BELOW_3, Play, PlayKind};
use super::rules::RuleSet;

/// The state of the current trick that decides which plays are legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Trick {
    /// The top play, or `None` on an empty table.
    pub table: Option<Play>,
    /// The revolution flag (lasts until flipped again or the game ends).
    pub revolution: bool,
    /// The J-back flag (lasts until the table clears).
    pub jack_back: bool,
    /// The locked suit set (bit = suit), 0 when unlocked.
    pub lock: u8,
}

impl Trick {
    /// Whether the current order is reversed (revolution XOR J-back).
    pub const fn reversed(&self) -> bool {
        self.revolution ^ self.jack_back
    }

    /// The trick once `play` is put on it and before any clear: the play on top, the
    /// suit lock set (a play of exactly the suits below it) or lifted (a lone joker),
    /// the order flipped by a revolution, J-back started by jacks. Whether the play
    /// then clears the table is [`Trick::clears_after`].
    pub fn after_play(&self, play: &Play, rules: &RuleSet) -> Trick {
        let mut next = *self;
        if play.is_lone_joker() {
            next.lock = 0;
        } else if let Some(below) = self.table
            && rules.suit_lock
            && self.lock == 0
            && play.suits() != 0
            && below.suits() == play.suits()
        {
            next.lock = play.suits();
        }
        next.table = Some(*play);
        if play.is_revolution(rules) {
            next.revolution = !next.revolution;
        }
        if play.is_jack_back(rules) {
            next.jack_back = true;
        }
        next
    }

    /// Whether putting `play` on this trick clears the table at once: an 8-cut, or
    /// the ♠3 on a lone joker.
    pub fn clears_after(&self, play: &Play, rules: &RuleSet) -> bool {
        play.is_eight_cut(rules)
            || (self.table.is_some_and(|t| t.is_lone_joker()) && play.is_spade3())
    }

    /// Whether `play` may be put on this trick (any play the rules know leads an empty
    /// table).
    pub fn allows(&self, play: &Play, rules: &RuleSet) -> bool {
        if !play.is_allowed_by(rules) {
            return false;
        }
        match &self.table {
            None => true,
            Some(table) => play.beats(table, self.reversed(), self.lock, rules),
        }
    }
}

/// Appends every legal play of `hand` on `trick` to `out` (passing is not a play).
///
/// ```
/// use climbot_core::daifugo::cards::CardSet;
/// use climbot_core::daifugo::moves::{legal_plays, Trick};
/// use climbot_core::daifugo::rules::RuleSet;
/// let hand = CardSet::parse("♠3 ♥3 joker").unwrap();
/// let mut out = Vec::new();
/// legal_plays(hand, &Trick::default(), &RuleSet::house(), &mut out);
/// // singles ♠3 ♥3 joker; pairs ♠3♥3, ♠3+joker as ♥/♦/♣3, ♥3+joker as ♠/♦/♣3;
/// // triples ♠3♥3+joker as ♦3 or ♣3.
/// assert_eq!(out.len(), 3 + 7 + 2);
/// ```
pub fn legal_plays(hand: CardSet, trick: &Trick, rules: &RuleSet, out: &mut Vec<Play>) {
    for_each_legal_play(hand, trick, rules, |p| out.push(p));
}

/// Calls `f` with every legal play of `hand` on `trick`, in the order [`legal_plays`]
/// lists them, without collecting them.
pub fn for_each_legal_play(hand: CardSet, trick: &Trick, rules: &RuleSet, mut f: impl FnMut(Play)) {
    match &trick.table {
        None => for_each_play(hand, None, rules, f),
        Some(table) => {
            if table.is_lone_joker() {
                if rules.spade3_beats_joker && hand.contains(Card::SPADE_3) {
                    f(Play::single(Card::SPADE_3));
                }
                return;
            }
            if table.is_joker_pair() {
                return;
            }
            let reversed = trick.reversed();
            for_each_play(hand, Some((table.kind(), table.len())), rules, |p| {
                if p.beats(table, reversed, trick.lock, rules) {
                    f(p);
                }
            });
        }
    }
}

/// Whether the seat to act may pass on `trick`: always on a play, on an empty table
/// only when `rules.empty_table_pass` allows it.
pub fn pass_allowed(trick: &Trick, rules: &RuleSet) -> bool {
    trick.table.is_some() || rules.empty_table_pass
}

/// The number of legal plays (perft-style count).
pub fn count_legal_plays(hand: CardSet, trick: &Trick, rules: &RuleSet) -> usize {
    let mut out = Vec::new();
    legal_plays(hand, trick, rules, &mut out);
    out.len()
}

/// Calls `f` with every play that `rules` know and can be formed from `hand`, or only
/// those of one (kind, length) when `shape` is given, regardless of any table.
pub fn for_each_play(
    hand: CardSet,
    shape: Option<(PlayKind, usize)>,
    rules: &RuleSet,
    mut f: impl FnMut(Play),
) {
    // The hand's jokers in ascending order, without a heap allocation.
    let mut joker_buf = [Card::JOKER; 2];
    let mut joker_count = 0;
    for joker in hand.jokers().iter() {
        joker_buf[joker_count] = joker;
        joker_count += 1;
    }
    let jokers = &joker_buf[..joker_count];
    let want = |kind: PlayKind, len: usize| shape.is_none_or(|s| s == (kind, len));
    // SinglesBot.
    if shape.is_none_or(|s| s.0 == PlayKind::Single) {
        for card in hand.naturals().iter() {
            f(Play::single(card));
        }
        if let Some(&joker) = jokers.first() {
            f(Play::lone_joker(joker));
        }
    }
    // Groups.
    if shape.is_none_or(|s| s.0 == PlayKind::Group) {
        for rank in 0..RANKS {
            let held = hand.suits_of_rank(rank);
            if held == 0 {
                continue;
            }
            // Every non-empty subset of the held suits.
            let mut subset = held;
            while subset != 0 {
                let k = subset.count_ones() as usize;
                for m in 0..=jokers.len().min(4 - k) {
                    let n = k + m;
                    if n < 2 || !want(PlayKind::Group, n) {
                        continue;
                    }
                    let free = 0xF & !subset;
                    let mut naturals = CardSet::EMPTY;
                    for suit in 0..4u8 {
                        if subset & (1 << suit) != 0 {
                            naturals.insert(Card::natural(rank, Suit::from_index(suit)));
                        }
                    }
                    for_each_submask(free, m, |decl_suits| {
                        let mut cards = naturals;
                        let mut declared = [None, None];
                        let mut i = 0;
                        for suit in 0..4u8 {
                            if decl_suits & (1 << suit) != 0 {
                                declared[i] = Some(Declaration::Card(Card::natural(
                                    rank,
                                    Suit::from_index(suit),
                                )));
                                cards.insert(jokers[i]);
                                i += 1;
                            }
                        }
                        f(Play::from_parts_unchecked(
                            PlayKind::Group,
                            cards,
                            declared,
                            rank,
                            subset | decl_suits,
                        ));
                    });
                }
                subset = (subset - 1) & held;
            }
        }
        if jokers.len() == 2 && want(PlayKind::Group, 2) {
            f(Play::joker_pair());
        }
        // Groups of five: four of a kind and the (lower) joker.
        if rules.group_of_five && !jokers.is_empty() && want(PlayKind::Group, 5) {
            for rank in 0..RANKS {
                if hand.suits_of_rank(rank) == 0xF {
                    let mut cards = CardSet::single(jokers[0]);
                    for suit in Suit::ALL {
                        cards.insert(Card::natural(rank, suit));
                    }
                    f(Play::from_parts_unchecked(
                        PlayKind::Group,
                        cards,
                        [None, None],
                        rank,
                        0xF,
                    ));
                }
            }
        }
    }
    // Sequences, over positions on the extended rank line (rank r at r + 1), with the
    // imaginary cards below the 3 and above the 2 (never held) when the rules allow.
    if shape.is_none_or(|s| s.0 == PlayKind::Sequence) {
        let (first, last) = if rules.joker_past_sequence_ends {
            (POSITION_BELOW_3 as usize, POSITION_ABOVE_2 as usize)
        } else {
            (1, RANKS as usize)
        };
        let line = last - first + 1;
        let (min_len, max_len) = match shape {
            Some((_, len)) => (len.max(3), len),
            None => (3, line),
        };
        for suit in Suit::ALL {
            let held = hand.ranks_of_suit(suit) << 1;
            if held == 0 {
                continue;
            }
            for len in min_len..=max_len.min(line) {
                for low in first..=(last + 1 - len) {
                    let window: u16 = (((1u32 << len) - 1) << low) as u16;
                    let missing = window & !held;
                    let gaps = missing.count_ones() as usize;
                    if gaps > jokers.len() || missing == window {
                        continue;
                    }
                    // Extra jokers may stand in for held cards.
                    for extra in 0..=(jokers.len() - gaps) {
                        for_each_submask16(window & held, extra, |stand_in| {
                            let joker_ranks = missing | stand_in;
                            if joker_ranks == window {
                                return;
                            }
                            let mut cards = CardSet::EMPTY;
                            let mut declared = [None, None];
                            let mut i = 0;
                            for position in low..low + len {
                                let declaration = match position as u8 {
                                    POSITION_BELOW_3 => Declaration::BelowThree(suit),
                                    POSITION_ABOVE_2 => Declaration::AboveTwo(suit),
                                    p => Declaration::Card(Card::natural(p - 1, suit)),
                                };
                                if joker_ranks & (1 << position) != 0 {
                                    declared[i] = Some(declaration);
                                    cards.insert(jokers[i]);
                                    i += 1;
                                } else if let Declaration::Card(card) = declaration {
                                    cards.insert(card);
                                }
                            }
                            f(Play::from_parts_unchecked(
                                PlayKind::Sequence,
                                cards,
                                declared,
                                low.max(1) as u8 - 1,
                                1 << suit as u8,
                            ));
                        });
                    }
                }
            }
        }
    }
}

/// The legal plays by brute force over every subset of `hand` and every joker
/// declaration (imaginary cards included), validated by [`Play::with_declarations`]
/// and filtered by [`Trick::allows`]: a slow
/// reference for tests of [`legal_plays`]. `hand` may hold at most 12 cards.
pub fn reference_legal_plays(hand: CardSet, trick: &Trick, rules: &RuleSet) -> Vec<Play> {
    let cards: Vec<Card> = hand.iter().collect();
    assert!(cards.len() <= 12, "reference generator: at most 12 cards");
    let hand_jokers: Vec<Card> = hand.jokers().iter().collect();
    let declarations: Vec<Declaration> = (0..52)
        .filter_map(Card::from_id)
        .map(Declaration::Card)
        .chain(Suit::ALL.into_iter().map(Declaration::BelowThree))
        .chain(Suit::ALL.into_iter().map(Declaration::AboveTwo))
        .collect();
    let mut out: Vec<Play> = Vec::new();
    let mut consider = |play: Play| {
        if trick.allows(&play, rules) && !out.contains(&play) {
            out.push(play);
        }
    };
    for mask in 1u32..(1 << cards.len()) {
        let subset: CardSet = (0..cards.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| cards[i])
            .collect();
        let used = subset.joker_count();
        // A play using m jokers uses the hand's m lowest jokers (docs/rules/daifugo.md,
        // §7.4 Jokers in groups and sequences).
        let lowest: CardSet = hand_jokers.iter().take(used).copied().collect();
        if subset.jokers() != lowest {
            continue;
        }
        for kind in [PlayKind::Single, PlayKind::Group, PlayKind::Sequence] {
            if let Ok(play) = Play::new(kind, subset, &[]) {
                consider(play);
            }
            match used {
                1 => {
                    for &d in &declarations {
                        if let Ok(play) = Play::with_declarations(kind, subset, &[d]) {
                            consider(play);
                        }
                    }
                }
                2 => {
                    for (i, &d1) in declarations.iter().enumerate() {
                        for &d2 in &declarations[i + 1..] {
                            if let Ok(play) = Play::with_declarations(kind, subset, &[d1, d2]) {
                                consider(play);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Calls `f` with every submask of the 4-bit `mask` with exactly `m` bits.
fn for_each_submask(mask: u8, m: usize, mut f: impl FnMut(u8)) {
    for sub in 0..16u8 {
        if sub & !mask == 0 && sub.count_ones() as usize == m {
            f(sub);
        }
    }
}

/// Calls `f` with every submask of `mask` with exactly `m` (0..=2) bits, ascending.
fn for_each_submask16(mask: u16, m: usize, mut f: impl FnMut(u16)) {
    match m {
        0 => f(0),
        1 => {
            let mut rest = mask;
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                f(bit);
                rest &= rest - 1;
            }
        }
        _ => {
            let mut a = mask;
            while a != 0 {
                let bit_a = a & a.wrapping_neg();
                a &= a - 1;
                let mut b = a;
                while b != 0 {
                    let bit_b = b & b.wrapping_neg();
                    b &= b - 1;
                    f(bit_a | bit_b);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &str) -> CardSet {
        CardSet::parse(names).unwrap()
    }

    #[test]
    fn lead_counts_by_hand() {
        let r = RuleSet::house();
        let t = Trick::default();
        // ♠3 ♠4 ♠5: 3 singles + 1 sequence.
        assert_eq!(count_legal_plays(set("♠3 ♠4 ♠5"), &t, &r), 4);
        // ♠3 ♠5 joker: 3 singles; pairs ♠3+j(3 suits), ♠5+j(3 suits); sequences
        // ♠3 j ♠5, ♠3 ♠5 ... only 3-4-5 with the joker as ♠4 -> 1.
        assert_eq!(count_legal_plays(set("♠3 ♠5 joker"), &t, &r), 3 + 6 + 1);
        // Two jokers and ♠3: singles ♠3, joker; joker pair; pairs ♠3+j (3); triples
        // ♠3+2j (3 suit pairs); sequences ♠3 j j (j as ♠4 ♠5).
        assert_eq!(
            count_legal_plays(set("♠3 joker joker2"), &t, &r),
            2 + 1 + 3 + 3 + 1
        );
    }

    #[test]
    fn the_contest_plays_are_generated_only_under_their_toggles() {
        let hand = set("♠3 ♠4 ♠A ♠2 ♥9 ♦9 ♣9 ♠9 joker");
        let count = |rules: &RuleSet, pred: fn(&Play) -> bool| {
            let mut out = Vec::new();
            legal_plays(hand, &Trick::default(), rules, &mut out);
            out.iter().filter(|p| pred(p)).count()
        };
        let house = RuleSet::house();
        let uecda = RuleSet::uecda();
        assert_eq!(count(&house, Play::is_group_of_five), 0);
        assert_eq!(count(&uecda, Play::is_group_of_five), 1);
        assert_eq!(count(&house, Play::is_past_the_ends), 0);
        // joker-♠3-♠4 and ♠A-♠2-joker (a longer run would need a second joker).
        assert_eq!(count(&uecda, Play::is_past_the_ends), 2);
        let only_five = RuleSet {
            joker_past_sequence_ends: false,
            ..uecda
        };
        assert_eq!(count(&only_five, Play::is_group_of_five), 1);
        assert_eq!(count(&only_five, Play::is_past_the_ends), 0);
        // Every generated play is one the rules allow, and the reference agrees.
        let small = set("♠3 ♠4 ♥9 ♦9 ♣9 ♠9 joker");
        for rules in [house, uecda, only_five] {
            let mut out = Vec::new();
            legal_plays(small, &Trick::default(), &rules, &mut out);
            assert!(out.iter().all(|p| p.is_allowed_by(&rules)));
            let reference = reference_legal_plays(small, &Trick::default(), &rules);
            assert_eq!(out.len(), reference.len());
            assert!(reference.iter().all(|p| out.contains(p)));
        }
    }

    #[test]
    fn only_a_higher_group_of_five_follows_one() {
        let rules = RuleSet {
            jokers: 2,
            ..RuleSet::uecda()
        };
        let five = Play::new(PlayKind::Group, set("♠9 ♥9 ♦9 ♣9 joker"), &[]).unwrap();
        let trick = Trick {
            table: Some(five),
            revolution: false,
            jack_back: false,
            lock: 0,
        };
        let hand = set("♠K ♥K ♦K ♣K ♠5 ♥5 ♦5 ♣5 joker2 ♠Q");
        let mut out = Vec::new();
        legal_plays(hand, &trick, &rules, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].low_rank(), Some(10));
        let reversed = Trick {
            revolution: true,
            ..trick
        };
        out.clear();
        legal_plays(hand, &reversed, &rules, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].low_rank(), Some(2));
    }

    #[test]
    fn stand_in_jokers_are_distinct_plays() {
        // ♠5 ♠6 ♠7 joker: sequences 5-6-7 (natural), j in place of 5, 6 or 7 (3),
        // 4-5-6-7.. with j as ♠4 / ♠8 (lengths 4), and 3-length windows 4-5-6 (j=♠4),
        // 6-7-8 (j=♠8).
        let hand = set("♠5 ♠6 ♠7 joker");
        let mut seqs = 0;
        for_each_play(hand, None, &RuleSet::house(), |p| {
            if p.kind() == PlayKind::Sequence {
                seqs += 1;
            }
        });
        // length 3: 5-6-7 plain + 3 stand-ins, 4-5-6 (j ♠4), 6-7-8 (j ♠8) = 6
        // length 4: 4-5-6-7, 5-6-7-8 = 2
        assert_eq!(seqs, 8);
    }
}
