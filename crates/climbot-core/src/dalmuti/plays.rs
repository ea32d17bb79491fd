//! Plays (sets) and how they compare (docs/rules/dalmuti.md, §5 Sets).

use super::cards::{Cards, JESTERS, Rank};
use std::fmt;

/// One set put down in one action: `naturals` numbered cards of `rank` plus `jesters`
/// Jesters as wild copies. Jesters alone (`naturals == 0`) have rank 13.
///
/// ```
/// use climbot_core::dalmuti::cards::Rank;
/// use climbot_core::dalmuti::plays::Play;
/// let table = Play::new(Rank::new(5).unwrap(), 2, 0).unwrap();
/// let follow = Play::new(Rank::new(4).unwrap(), 1, 1).unwrap();
/// assert!(follow.beats(table));
/// assert!(!Play::new(Rank::JESTER, 0, 2).unwrap().beats(table));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    rank: Rank,
    naturals: u8,
    jesters: u8,
}

/// Why raw `(rank, naturals, jesters)` is not a play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// More than two Jesters.
    TooManyJesters,
    /// No cards at all.
    Empty,
    /// More natural cards of the rank than the deck holds.
    TooManyNaturals,
    /// Rank 13 with numbered cards, or a numbered rank with Jesters only.
    RankMismatch,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::TooManyJesters => "a set holds at most 2 Jesters",
            PlayError::Empty => "a set holds at least one card",
            PlayError::TooManyNaturals => "more natural cards than the deck holds of that rank",
            PlayError::RankMismatch => {
                "Jesters alone have rank 13, and rank 13 has no natural cards"
            }
        })
    }
}

impl Play {
    /// The play, if the three numbers describe one (docs/rules/dalmuti.md, §5 Sets).
    pub const fn new(rank: Rank, naturals: u8, jesters: u8) -> Result<Play, PlayError> {
        if jesters > JESTERS {
            return Err(PlayError::TooManyJesters);
        }
        if naturals == 0 && jesters == 0 {
            return Err(PlayError::Empty);
        }
        if rank.is_jester() != (naturals == 0) {
            return Err(PlayError::RankMismatch);
        }
        if !rank.is_jester() && naturals > rank.copies() {
            return Err(PlayError::TooManyNaturals);
        }
        Ok(Play {
            rank,
            naturals,
            jesters,
        })
    }

    /// The set's rank (13 for Jesters alone).
    pub const fn rank(self) -> Rank {
        self.rank
    }

    /// The number of numbered cards.
    pub const fn naturals(self) -> u8 {
        self.naturals
    }

    /// The number of Jesters.
    pub const fn jesters(self) -> u8 {
        self.jesters
    }

    /// The number of cards.
    pub const fn size(self) -> u8 {
        self.naturals + self.jesters
    }

    /// True if this play may follow `table`: same size, strictly better rank.
    pub const fn beats(self, table: Play) -> bool {
        self.size() == table.size() && self.rank.beats(table.rank)
    }

    /// The cards the play uses.
    pub const fn cards(self) -> Cards {
        let c = Cards::EMPTY.with(Rank::JESTER, self.jesters);
        if self.rank.is_jester() {
            c
        } else {
            c.with(self.rank, self.naturals)
        }
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rank.is_jester() {
            write!(f, "Jx{}", self.jesters)
        } else if self.jesters == 0 {
            write!(f, "{}x{}", self.rank, self.naturals)
        } else {
            write!(f, "{}x{}+J{}", self.rank, self.naturals, self.jesters)
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(rank: u8, naturals: u8, jesters: u8) -> Play {
        Play::new(Rank::new(rank).unwrap(), naturals, jesters).unwrap()
    }

    #[test]
    fn construction_rejects_impossible_sets() {
        let r = |n| Rank::new(n).unwrap();
        assert_eq!(Play::new(r(5), 0, 0), Err(PlayError::Empty));
        assert_eq!(Play::new(r(5), 1, 3), Err(PlayError::TooManyJesters));
        assert_eq!(Play::new(r(5), 6, 0), Err(PlayError::TooManyNaturals));
        assert_eq!(Play::new(r(5), 0, 1), Err(PlayError::RankMismatch));
        assert_eq!(Play::new(Rank::JESTER, 1, 1), Err(PlayError::RankMismatch));
        assert!(Play::new(r(12), 12, 2).is_ok());
        assert_eq!(p(12, 12, 2).size(), 14);
    }

    #[test]
    fn comparison_needs_same_size_and_better_rank() {
        assert!(p(4, 2, 0).beats(p(5, 2, 0)));
        assert!(!p(5, 2, 0).beats(p(5, 2, 0)), "equal rank does not beat");
        assert!(!p(6, 2, 0).beats(p(5, 2, 0)));
        assert!(!p(4, 3, 0).beats(p(5, 2, 0)), "size must match");
        // Jesters as wild copies take the naturals' rank.
        assert!(p(4, 1, 1).beats(p(5, 2, 0)));
        assert!(p(1, 1, 2).beats(p(3, 3, 0)));
        // Jesters alone are rank 13: every numbered single beats one.
        assert!(p(12, 1, 0).beats(p(13, 0, 1)));
        assert!(p(12, 2, 0).beats(p(13, 0, 2)));
        assert!(p(12, 1, 1).beats(p(13, 0, 2)));
        assert!(!p(13, 0, 1).beats(p(12, 1, 0)));
        assert!(!p(13, 0, 1).beats(p(13, 0, 1)));
    }

    #[test]
    fn cards_of_a_play() {
        assert_eq!(
            p(7, 3, 1).cards(),
            Cards::EMPTY
                .with(Rank::new(7).unwrap(), 3)
                .with(Rank::JESTER, 1)
        );
        assert_eq!(p(13, 0, 2).cards(), Cards::EMPTY.with(Rank::JESTER, 2));
        assert_eq!(
            format!("{:?} {:?} {:?}", p(7, 3, 1), p(13, 0, 2), p(2, 2, 0)),
            "7x3+J1 Jx2 2x2"
        );
    }
}
