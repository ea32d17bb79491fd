//! The taxes: the tax-return phase (what the Dalmuti owes, and every seat's count
//! after the gifts), and the taxes the deciding seat knows of.

use super::cards::{parse_cards, rank_name};
use super::input::TaxKnownInput;
use super::{DalmutiView, Phase, TaxKnown};
use crate::dalmuti::cards::{Cards, Rank};
use crate::dalmuti::turn::{Title, deal_size};
use crate::view_error::{ViewError, refuse};

/// The tax partner of `title` and the number of cards each side hands over, or `None`
/// for a seat that takes no part in the taxes (a Merchant).
pub fn tax_pair(title: Title) -> Option<(Title, u32)> {
    match title {
        Title::GreaterDalmuti => Some((Title::GreaterPeon, 2)),
        Title::GreaterPeon => Some((Title::GreaterDalmuti, 2)),
        Title::LesserDalmuti => Some((Title::LesserPeon, 1)),
        Title::LesserPeon => Some((Title::LesserDalmuti, 1)),
        Title::Merchant => None,
    }
}

/// Per rank, `a - b` floored at 0.
fn saturating_difference(a: Cards, b: Cards) -> Cards {
    let mut out = a.counts();
    for (o, x) in out.iter_mut().zip(b.counts()) {
        *o = o.saturating_sub(x);
    }
    Cards::from_counts(out).expect("at most a's counts")
}

impl DalmutiView {
    /// The tax-return phase: the Dalmuti owes what its seat owes, nothing is played
    /// yet, and every seat holds what the deal and the gifts left it.
    pub(super) fn check_tax_phase(&self) -> Result<(), ViewError> {
        let players = self.players();
        let Some(duty) = self.tax_return else {
            return refuse("tax_return", "missing in the tax-return phase");
        };
        if self.hand_number < 2 {
            return refuse("hand_number", "no taxes in the first hand");
        }
        if self.revolution.is_some() {
            return refuse("revolution", "no taxes after a revolution");
        }
        let expected = match self.seat {
            0 => (2, players - 1),
            1 => (1, players - 2),
            s => {
                return refuse(
                    "seat",
                    format!("seat {s} ({}) returns no taxes", self.seats[s].title),
                );
            }
        };
        if (duty.count, duty.to) != expected {
            return refuse(
                "tax_return",
                format!(
                    "seat {} owes {} cards to seat {}, not {} to seat {}",
                    self.seat, expected.0, expected.1, duty.count, duty.to
                ),
            );
        }
        self.check_pre_play()?;
        // Gifts are made first (GP 2 to GD, LP 1 to LD), then the GD returns, then the
        // LD; the LD's view may show the GD's return done or not yet.
        let gd_done = self.seat == 1 && self.seats[0].card_count == deal_size(0, players);
        for (i, s) in self.seats.iter().enumerate() {
            let dealt = i32::from(deal_size(i, players));
            let delta = match i {
                0 if !gd_done => 2,
                1 => 1,
                x if x == players - 2 => -1,
                x if x == players - 1 && !gd_done => -2,
                _ => 0,
            };
            if i32::from(s.card_count) != dealt + delta {
                return refuse(
                    format!("seats[{i}].card_count"),
                    format!(
                        "{} cards, but after the deal and taxes seat {i} holds {}",
                        s.card_count,
                        dealt + delta
                    ),
                );
            }
        }
        Ok(())
    }

    /// Validates the tax knowledge (field names under `tax_known`); called once the
    /// rest of the view is checked.
    pub(super) fn check_tax_known(&self, t: &TaxKnownInput) -> Result<TaxKnown, ViewError> {
        const NAME: &str = "tax_known";
        if self.hand_number < 2 || self.revolution.is_some() || self.phase == Phase::Revolution {
            return refuse(
                NAME,
                "no taxes in this hand (they need hand_number >= 2, no revolution, and the tax-return or play phase)",
            );
        }
        let title = self.title();
        let Some((partner_title, count)) = tax_pair(title) else {
            return refuse(NAME, format!("a {title} takes no part in the taxes"));
        };
        let players = self.players();
        let with_seat = t.with_seat as usize;
        if with_seat >= players {
            return refuse(
                format!("{NAME}.with_seat"),
                format!("seat {with_seat} with only {players} seats"),
            );
        }
        if with_seat == self.seat {
            return refuse(format!("{NAME}.with_seat"), "the bot's own seat");
        }
        if self.seats[with_seat].title != partner_title {
            return refuse(
                format!("{NAME}.with_seat"),
                format!(
                    "seat {with_seat} is the {}; the {title} pays or receives taxes with the {partner_title}",
                    self.seats[with_seat].title
                ),
            );
        }
        let received_name = format!("{NAME}.received");
        let given_name = format!("{NAME}.given");
        let received = parse_cards(&t.received, &received_name)?;
        let given = parse_cards(&t.given, &given_name)?;
        if received.len() != count {
            return refuse(
                received_name,
                format!("{} cards; the {title} receives {count}", received.len()),
            );
        }
        let given_count = match self.phase {
            Phase::TaxReturn => 0,
            _ => count,
        };
        if given.len() != given_count {
            let when = if self.phase == Phase::TaxReturn {
                " before choosing what it gives back"
            } else {
                ""
            };
            return refuse(
                given_name,
                format!(
                    "{} cards; the {title} has given {given_count}{when}",
                    given.len()
                ),
            );
        }
        // The Dalmutis receive first (and may give back what they received); the
        // Peons give first (and may get back a rank they gave).
        let receives_first = matches!(title, Title::GreaterDalmuti | Title::LesserDalmuti);
        let mine = self.played_by(self.seat);
        let (hand, deck) = (self.hand.counts(), Cards::FULL_DECK.counts());
        let (rc, gc, mc) = (received.counts(), given.counts(), mine.counts());
        for i in 0..13 {
            let passed_on = if receives_first { gc[i] } else { 0 };
            if rc[i] > hand[i] + mc[i] + passed_on {
                return refuse(
                    format!("{received_name}.counts[{i}]"),
                    format!(
                        "{} of {} received, but this seat holds {} and played {}",
                        rc[i],
                        rank_name(i),
                        hand[i],
                        mc[i]
                    ),
                );
            }
            let back = if receives_first { 0 } else { rc[i] };
            if gc[i] > deck[i] - hand[i] - mc[i] + back {
                return refuse(
                    format!("{given_name}.counts[{i}]"),
                    format!(
                        "{} of {} given away, but this seat holds {} and played {} of the {}",
                        gc[i],
                        rank_name(i),
                        hand[i],
                        mc[i],
                        deck[i]
                    ),
                );
            }
        }
        let known = TaxKnown {
            with_seat,
            received,
            given,
        };
        let held = self.known_held_by(&known);
        let room = self.seats[with_seat].card_count;
        if held.len() > u32::from(room) {
            return refuse(
                given_name,
                format!(
                    "{} given cards neither played by seat {with_seat} nor given back, but it holds {room}",
                    held.len()
                ),
            );
        }
        if !self.unseen().is_superset(held) {
            return refuse(
                given_name,
                format!(
                    "seat {with_seat} must still hold {held:?}, more than the unseen {:?}",
                    self.unseen()
                ),
            );
        }
        Ok(known)
    }

    /// The bound the taxes put on the Peon's hand, seen from its Dalmuti: the Peon handed
    /// over its best cards, so every other card it held ranks no better than the worst of
    /// them (Jesters count as 13). `Some((peon seat, that rank))` for a Dalmuti whose
    /// view carries the taxes, `None` for any other seat. The cards the Dalmuti gave back
    /// ([`DalmutiView::known_held`]) are outside the bound.
    pub fn tax_bound(&self) -> Option<(usize, Rank)> {
        let t = self.tax_known.as_ref()?;
        if !matches!(self.title(), Title::GreaterDalmuti | Title::LesserDalmuti) {
            return None;
        }
        // `iter` runs best first, Jesters last: its last card is the worst paid.
        Some((t.with_seat, t.received.iter().last()?))
    }

    /// The cards the tax knowledge places in the partner's hand: those given to it,
    /// minus what it gave back (for a Peon) and what it played since.
    pub(super) fn known_held_by(&self, t: &TaxKnown) -> Cards {
        let back = if matches!(self.title(), Title::GreaterPeon | Title::LesserPeon) {
            t.received
        } else {
            Cards::EMPTY
        };
        saturating_difference(
            saturating_difference(t.given, back),
            self.played_by(t.with_seat),
        )
    }
}
