//! The exchange as the deciding seat knows it: who it is with, what was received and
//! given, and where those cards can still be.

use super::cards::parse_cards;
use super::input::ExchangeInput;
use super::{ExchangeKnown, Phase, SeatView};
use crate::daifugo::cards::{Card, CardSet};
use crate::daifugo::rules::{RuleSet, Title};
use crate::view_error::{ViewError, refuse};

/// The exchange partner of `title` and the number of cards each side hands over, or
/// `None` for a seat that takes no part in the exchange.
pub fn exchange_pair(title: Title) -> Option<(Title, usize)> {
    match title {
        Title::Daifugo => Some((Title::Daihinmin, 2)),
        Title::Daihinmin => Some((Title::Daifugo, 2)),
        Title::Fugo => Some((Title::Hinmin, 1)),
        Title::Hinmin => Some((Title::Fugo, 1)),
        Title::Heimin => None,
    }
}

/// What [`validate_exchange`] checks the exchange against.
pub(super) struct ExchangeContext<'a> {
    pub(super) rules: &'a RuleSet,
    pub(super) game: u32,
    pub(super) seat: usize,
    pub(super) seats: &'a [SeatView],
    pub(super) phase: Phase,
    pub(super) deck: CardSet,
    pub(super) hand: CardSet,
    pub(super) played: CardSet,
    pub(super) removed_unseen: usize,
}

/// Validates the exchange knowledge (field names under `exchange_known`).
pub(super) fn validate_exchange(
    x: &ExchangeInput,
    c: ExchangeContext<'_>,
) -> Result<ExchangeKnown, ViewError> {
    const NAME: &str = "exchange_known";
    if !c.rules.exchange || c.game < 2 {
        return refuse(
            NAME,
            "no exchange in this game (it needs the exchange rule and game >= 2)",
        );
    }
    let title = c.seats[c.seat].title;
    let Some((partner_title, count)) = exchange_pair(title) else {
        return refuse(NAME, format!("a {title:?} takes no part in the exchange"));
    };
    let players = c.seats.len();
    let with_seat = x.with_seat as usize;
    if with_seat >= players {
        return refuse(
            format!("{NAME}.with_seat"),
            format!("seat {with_seat} of {players}"),
        );
    }
    if with_seat == c.seat {
        return refuse(format!("{NAME}.with_seat"), "the bot's own seat");
    }
    if c.seats[with_seat].title != partner_title {
        return refuse(
            format!("{NAME}.with_seat"),
            format!(
                "seat {with_seat} is the {:?}; the {title:?} exchanges with the {partner_title:?}",
                c.seats[with_seat].title
            ),
        );
    }
    let received_name = format!("{NAME}.received");
    let given_name = format!("{NAME}.given");
    let received = parse_cards(&x.received, c.deck, &received_name)?;
    let given = parse_cards(&x.given, c.deck, &given_name)?;
    // The daifugo and the fugo receive first; the others give first.
    let receives_first = matches!(title, Title::Daifugo | Title::Fugo);
    if received.len() != count {
        return refuse(
            received_name,
            format!("{} cards; the {title:?} receives {count}", received.len()),
        );
    }
    let given_count = match c.phase {
        Phase::Exchange { .. } => 0,
        Phase::Play => count,
    };
    if given.len() != given_count {
        let when = match c.phase {
            Phase::Exchange { .. } => " before choosing its give-back",
            Phase::Play => "",
        };
        return refuse(
            given_name,
            format!(
                "{} cards; the {title:?} has given {given_count}{when}",
                given.len()
            ),
        );
    }
    let id_index = |ids: &[u32], card: Card| {
        ids.iter()
            .position(|&id| id == u32::from(card.id()))
            .unwrap_or(0)
    };
    for card in received.iter() {
        let kept = c.hand.contains(card) || c.played.contains(card);
        let returned = receives_first && given.contains(card);
        if !(kept || returned) {
            return refuse(
                format!("{received_name}[{}]", id_index(&x.received, card)),
                format!("{card} is neither in hand nor played"),
            );
        }
    }
    for card in given.iter() {
        let back = !receives_first && received.contains(card);
        if c.hand.contains(card) && !back {
            return refuse(
                format!("{given_name}[{}]", id_index(&x.given, card)),
                format!("{card} was given away but is in hand"),
            );
        }
    }
    // The given cards still out there are held by the partner (or were removed unseen
    // with its hand); a card given and received back is in our hand or played.
    let held = given.difference(c.played).difference(c.hand);
    let partner = &c.seats[with_seat];
    let (room, what) = if partner.finished {
        (c.removed_unseen, "removed_unseen")
    } else {
        (partner.card_count, "its card count")
    };
    if held.len() > room {
        return refuse(
            given_name,
            format!(
                "{} given cards unplayed but seat {with_seat} has room for {room} ({what})",
                held.len()
            ),
        );
    }
    Ok(ExchangeKnown {
        with_seat,
        received,
        given,
    })
}
