//! The rule toggles (`docs/rules/daifugo-presets.md`) in one [`RuleSet`] value, and the
//! titles.

/// Who leads each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstLead {
    /// Game 1: the ♦3 holder; later games: the daihinmin (house).
    Diamond3ThenDaihinmin,
    /// The ♦3 holder leads every game, after the exchange (UECda).
    Diamond3Always,
}

/// Every rule toggle of the engine. Build one with [`RuleSet::house`] or
/// [`RuleSet::uecda`] and adjust fields for local variants.
///
/// ```
/// use climbot_core::daifugo::rules::RuleSet;
/// let rules = RuleSet::house();
/// assert!(rules.forbidden_finishes && rules.miyako_ochi && !rules.self_follow);
/// assert_eq!(RuleSet::uecda().sequence_revolution, Some(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Number of jokers in the deck (1 or 2).
    pub jokers: u8,
    /// Who leads each game.
    pub first_lead: FirstLead,
    /// The leader may pass on an empty table (UECda).
    pub empty_table_pass: bool,
    /// A pass locks the player out until the table clears. When off, a pass only
    /// counts until the next play (the table clears after a full round of passes).
    pub pass_locks_out: bool,
    /// The owner of the top play also gets a turn and may play on it (UECda).
    pub self_follow: bool,
    /// The 2/1 exchange from game 2.
    pub exchange: bool,
    /// A group of 4 or more cards flips the order.
    pub group_revolution: bool,
    /// A sequence of at least this many cards flips the order.
    pub sequence_revolution: Option<u8>,
    /// A single or group of 8s clears the table.
    pub eight_cut: bool,
    /// A sequence spanning the 8 clears the table (needs `eight_cut`).
    pub eight_cut_sequence: bool,
    /// A single or group of jacks reverses the order until the table clears.
    pub jack_back: bool,
    /// Exact-suit-set lock.
    pub suit_lock: bool,
    /// A single ♠3 beats a lone joker and clears the table.
    pub spade3_beats_joker: bool,
    /// Forbidden finishes (joker, 2 or 3 in revolution, only 8s, single ♠3).
    pub forbidden_finishes: bool,
    /// Miyako-ochi: the reigning daifugo falls when another player finishes first.
    pub miyako_ochi: bool,
    /// A group of five: four of a kind and a joker (UECda).
    pub group_of_five: bool,
    /// A joker may extend a sequence past its ends, as an imaginary card below the 3 or
    /// above the 2 of the sequence's suit (UECda).
    pub joker_past_sequence_ends: bool,
}

impl RuleSet {
    /// The house rules (the default), per the table in `docs/rules/daifugo-presets.md`.
    pub const fn house() -> RuleSet {
        RuleSet {
            jokers: 1,
            first_lead: FirstLead::Diamond3ThenDaihinmin,
            empty_table_pass: false,
            pass_locks_out: true,
            self_follow: false,
            exchange: true,
            group_revolution: true,
            sequence_revolution: None,
            eight_cut: true,
            eight_cut_sequence: false,
            jack_back: false,
            suit_lock: true,
            spade3_beats_joker: true,
            forbidden_finishes: true,
            miyako_ochi: true,
            group_of_five: false,
            joker_past_sequence_ends: false,
        }
    }

    /// The UECda rules, per the table in `docs/rules/daifugo-presets.md`.
    pub const fn uecda() -> RuleSet {
        RuleSet {
            jokers: 1,
            first_lead: FirstLead::Diamond3Always,
            empty_table_pass: true,
            pass_locks_out: true,
            self_follow: true,
            exchange: true,
            group_revolution: true,
            sequence_revolution: Some(5),
            eight_cut: true,
            eight_cut_sequence: true,
            jack_back: false,
            suit_lock: true,
            spade3_beats_joker: true,
            forbidden_finishes: false,
            miyako_ochi: false,
            group_of_five: true,
            joker_past_sequence_ends: true,
        }
    }

    /// The preset with this name (`house` or `uecda`).
    pub fn by_name(name: &str) -> Option<RuleSet> {
        match name {
            "house" => Some(RuleSet::house()),
            "uecda" => Some(RuleSet::uecda()),
            _ => None,
        }
    }

    /// The deck size: 52 plus the jokers.
    pub const fn deck_size(&self) -> usize {
        52 + self.jokers as usize
    }

    /// Checks the toggles are consistent; the error names the field.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        if !(1..=2).contains(&self.jokers) {
            return Err(("jokers", format!("{} jokers; 1 or 2 allowed", self.jokers)));
        }
        if let Some(min) = self.sequence_revolution
            && !(3..=13).contains(&min)
        {
            return Err((
                "sequence_revolution",
                format!("minimum length {min}; 3..=13 allowed"),
            ));
        }
        Ok(())
    }

    /// A stable encoding of every toggle, for fingerprints. The toggles added last
    /// take the next bits, so a rule set with them off keeps its earlier encoding.
    pub fn encode(&self) -> u64 {
        let flags = [
            self.empty_table_pass,
            self.pass_locks_out,
            self.self_follow,
            self.exchange,
            self.group_revolution,
            self.eight_cut,
            self.eight_cut_sequence,
            self.jack_back,
            self.suit_lock,
            self.spade3_beats_joker,
            self.forbidden_finishes,
            self.miyako_ochi,
            self.first_lead == FirstLead::Diamond3Always,
            self.group_of_five,
            self.joker_past_sequence_ends,
        ];
        let mut bits = 0u64;
        for (i, flag) in flags.iter().enumerate() {
            bits |= u64::from(*flag) << i;
        }
        bits | u64::from(self.jokers) << 16 | u64::from(self.sequence_revolution.unwrap_or(0)) << 24
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::house()
    }
}

/// Titles by finishing place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Title {
    /// 大富豪, first place.
    Daifugo,
    /// 富豪, second place (4+ players).
    Fugo,
    /// 平民, the middle places and everyone in game 1.
    Heimin,
    /// 貧民, second to last (4+ players).
    Hinmin,
    /// 大貧民, last place.
    Daihinmin,
}

impl Title {
    /// The title earned by `place` (1-based) among `players`.
    pub const fn for_place(place: usize, players: usize) -> Title {
        if place == 1 {
            Title::Daifugo
        } else if place == players {
            Title::Daihinmin
        } else if players >= 4 && place == 2 {
            Title::Fugo
        } else if players >= 4 && place == players - 1 {
            Title::Hinmin
        } else {
            Title::Heimin
        }
    }

    /// A stable small code for fingerprints.
    pub const fn code(self) -> u8 {
        self as u8
    }
}

/// Points for `place` (1-based) among `players`: P - p + 1 (UECda 5..1 for 5 players).
pub const fn points_for_place(place: usize, players: usize) -> u32 {
    (players - place + 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_documented_table() {
        let h = RuleSet::house();
        assert_eq!(h.jokers, 1);
        assert_eq!(h.first_lead, FirstLead::Diamond3ThenDaihinmin);
        assert!(!h.empty_table_pass && h.pass_locks_out && !h.self_follow && h.exchange);
        assert!(h.group_revolution && h.sequence_revolution.is_none());
        assert!(h.eight_cut && !h.eight_cut_sequence && !h.jack_back && h.suit_lock);
        assert!(h.spade3_beats_joker && h.forbidden_finishes && h.miyako_ochi);
        assert!(!h.group_of_five && !h.joker_past_sequence_ends);
        let u = RuleSet::uecda();
        assert_eq!(u.first_lead, FirstLead::Diamond3Always);
        assert!(u.empty_table_pass && u.pass_locks_out && u.self_follow && u.exchange);
        assert!(u.group_revolution && u.sequence_revolution == Some(5));
        assert!(u.eight_cut && u.eight_cut_sequence && !u.jack_back && u.suit_lock);
        assert!(u.spade3_beats_joker && !u.forbidden_finishes && !u.miyako_ochi);
        assert!(u.group_of_five && u.joker_past_sequence_ends);
        assert_ne!(h.encode(), u.encode());
        assert!(h.validate().is_ok() && u.validate().is_ok());
    }

    #[test]
    fn the_encoding_of_rule_sets_without_the_newer_toggles_is_unchanged() {
        // The values before the group of five and the joker past the sequence ends
        // existed: fingerprints and seeds of house views must not move.
        assert_eq!(RuleSet::house().encode(), 0x1_0000 | 0b1111_0011_1010);
        let old_uecda = RuleSet {
            group_of_five: false,
            joker_past_sequence_ends: false,
            ..RuleSet::uecda()
        };
        assert_eq!(
            old_uecda.encode(),
            RuleSet::uecda().encode() & !(0b11 << 13)
        );
        assert_ne!(old_uecda.encode(), RuleSet::uecda().encode());
    }

    #[test]
    fn titles_by_place() {
        let four: Vec<Title> = (1..=4).map(|p| Title::for_place(p, 4)).collect();
        assert_eq!(
            four,
            [Title::Daifugo, Title::Fugo, Title::Hinmin, Title::Daihinmin]
        );
        assert_eq!(Title::for_place(3, 5), Title::Heimin);
        assert_eq!(Title::for_place(4, 6), Title::Heimin);
        assert_eq!(Title::for_place(5, 6), Title::Hinmin);
        assert_eq!(points_for_place(1, 5), 5);
        assert_eq!(points_for_place(5, 5), 1);
    }
}
