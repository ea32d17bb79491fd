//! What a UECda client knows of the current game, rebuilt from the messages: the seats,
//! the classes, its hand, the card counts, the table, who passed, and this game's log.
//! From it comes a full [`DaifugoViewInput`] under the UECda preset.
//!
//! A message after a turn whose cards differ from the table is a play by the player who
//! acted; the same cards are a pass. The table clears when the next turn's message
//! shows the empty-table flag (an 8-cut, ♠3 on the joker, or every active player
//! passed) or when every active player has passed.

use super::TrackerError;
use super::codec::{self, PLAYERS, Status, Table};
use crate::daifugo::cards::{Card, CardSet};
use crate::daifugo::plays::Play;
use crate::daifugo::rules::{RuleSet, Title};
use crate::daifugo::view::{
    DaifugoViewInput, ExchangeInput, LogEntryInput, PhaseInput, SeatInput, table_input,
};

/// One public event of a game, as the tracker read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// `player` played.
    Played(usize, Play),
    /// `player` passed (or had a submission rejected).
    Passed(usize),
}

/// The game state of one client.
#[derive(Clone, Debug)]
pub struct Tracker {
    me: usize,
    game: u32,
    status: Status,
    titles: Option<[Title; PLAYERS]>,
    hand: CardSet,
    dealt: CardSet,
    table: Option<(Play, usize)>,
    table_cells: Table,
    passed: [bool; PLAYERS],
    log: Vec<(usize, Option<CardSet>)>,
    played: CardSet,
    finish_order: Vec<usize>,
    first_turn_seen: bool,
    warnings: Vec<String>,
}

/// The title of a UECda class (0 = daifugo .. 4 = daihinmin).
pub fn title_of_class(class: u32) -> Title {
    match class {
        0 => Title::Daifugo,
        1 => Title::Fugo,
        2 => Title::Heimin,
        3 => Title::Hinmin,
        _ => Title::Daihinmin,
    }
}

/// The UECda class of a title.
pub fn class_of_title(title: Title) -> u32 {
    match title {
        Title::Daifugo => 0,
        Title::Fugo => 1,
        Title::Heimin => 2,
        Title::Hinmin => 3,
        Title::Daihinmin => 4,
    }
}

impl Tracker {
    /// A tracker for player number `me` (the server's answer to the handshake).
    pub fn new(me: usize) -> Tracker {
        Tracker {
            me,
            game: 0,
            status: Status::default(),
            titles: None,
            hand: CardSet::EMPTY,
            dealt: CardSet::EMPTY,
            table: None,
            table_cells: codec::empty_table(),
            passed: [false; PLAYERS],
            log: Vec::new(),
            played: CardSet::EMPTY,
            finish_order: Vec::new(),
            first_turn_seen: false,
            warnings: Vec::new(),
        }
    }

    /// This client's player number.
    pub fn me(&self) -> usize {
        self.me
    }

    /// The game number within the current block of classes (1 = no exchange).
    pub fn game(&self) -> u32 {
        self.game
    }

    /// The last status rows read.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The classes of this game, `None` in the first game of a block.
    pub fn titles(&self) -> Option<[Title; PLAYERS]> {
        self.titles
    }

    /// The players that went out, in order.
    pub fn finish_order(&self) -> &[usize] {
        &self.finish_order
    }

    /// Things read that climbot's rules could only approximate, drained.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    /// The deal message that starts a game: the hand (after the tribute for the daifugo
    /// and fugo), the classes and the seats. Returns how many cards to give back.
    pub fn on_deal(&mut self, table: &Table) -> Result<u32, TrackerError> {
        let status = Status::read(table);
        self.titles = if status.has_classes() {
            // A client joining in the middle of a block still sees an exchange game.
            self.game = (self.game + 1).max(2);
            let mut titles = [Title::Heimin; PLAYERS];
            for (p, t) in titles.iter_mut().enumerate() {
                *t = title_of_class(status.classes[p]);
            }
            Some(titles)
        } else {
            self.game = 1;
            None
        };
        check_seats(&status)?;
        self.hand = codec::hand_cards(table)?;
        self.dealt = self.hand;
        self.status = status;
        // The deal counts are those before the tribute; the hand of the daifugo and
        // fugo already holds it.
        let counted_before_tribute = self.status.counts[self.me] as usize != self.hand.len();
        if let (Some(titles), true) = (self.titles, counted_before_tribute) {
            for (p, t) in titles.iter().enumerate() {
                let delta: i64 = match t {
                    Title::Daifugo => 2,
                    Title::Fugo => 1,
                    Title::Hinmin => -1,
                    Title::Daihinmin => -2,
                    Title::Heimin => 0,
                };
                let adjusted = i64::from(self.status.counts[p]) + delta;
                self.status.counts[p] = adjusted.max(0) as u32;
            }
        }
        self.table = None;
        self.table_cells = codec::empty_table();
        self.passed = [false; PLAYERS];
        self.log.clear();
        self.played = CardSet::EMPTY;
        self.finish_order.clear();
        self.first_turn_seen = false;
        Ok(if status.exchange { status.give } else { 0 })
    }

    /// The message every player gets before a turn: the hand and the public state.
    /// Returns whether this client is to act.
    pub fn on_turn(&mut self, table: &Table) -> Result<bool, TrackerError> {
        let status = Status::read(table);
        check_seats(&status)?;
        self.hand = codec::hand_cards(table)?;
        if status.empty_table && (self.table.is_some() || self.passed.iter().any(|&p| p)) {
            self.clear();
        }
        if !status.empty_table && self.table.is_none() {
            return Err(TrackerError::UnseenTable);
        }
        if status.jack_back {
            self.warnings
                .push("the server set the jack-back flag, which the UECda rules lack".into());
        }
        self.status = status;
        self.first_turn_seen = true;
        Ok(status.my_turn)
    }

    /// The message after a turn: the table as the server accepted it. Returns what the
    /// acting player did.
    pub fn on_stage(&mut self, table: &Table) -> Result<Seen, TrackerError> {
        let status = Status::read(table);
        let actor = self.status.to_act;
        if !(0..PLAYERS as i32).contains(&actor) {
            return Err(TrackerError::Actor(actor));
        }
        let actor = actor as usize;
        if status.to_act != actor as i32 {
            self.warnings.push(format!(
                "the message after the turn names player {} as the actor, not {actor}",
                status.to_act
            ));
        }
        let seen = if codec::same_cards(table, &self.table_cells) {
            self.passed[actor] = true;
            self.log.push((actor, None));
            Seen::Passed(actor)
        } else {
            let play = codec::decode_play(table)?.ok_or(TrackerError::EmptyPlay)?;
            let cards = play.cards();
            if !cards.is_disjoint(self.played) {
                return Err(TrackerError::RepeatedCard(format!("{play:?}")));
            }
            self.played = self.played.union(cards);
            self.log.push((actor, Some(cards)));
            self.table = Some((play, actor));
            self.table_cells = *table;
            Seen::Played(actor, play)
        };
        self.status.counts = status.counts;
        self.status.revolution = status.revolution;
        self.status.lock = status.lock;
        for p in 0..PLAYERS {
            if status.counts[p] == 0 && !self.finish_order.contains(&p) {
                self.finish_order.push(p);
            }
        }
        let active: Vec<usize> = (0..PLAYERS).filter(|&p| status.counts[p] > 0).collect();
        if !active.is_empty() && active.iter().all(|&p| self.passed[p]) {
            self.clear();
        }
        Ok(seen)
    }

    fn clear(&mut self) {
        self.table = None;
        self.table_cells = codec::empty_table();
        self.passed = [false; PLAYERS];
        self.status.lock = false;
    }

    fn seat_of(&self, player: usize) -> usize {
        self.status
            .seats
            .iter()
            .position(|&p| p == player)
            .unwrap_or(player)
    }

    /// The places of the game that just ended: the players that went out in order, then
    /// those left in seat order from the last actor (only one is left unless the game
    /// ended on 20 passes in a row, whose places the server draws at random).
    pub fn provisional_places(&self) -> Vec<usize> {
        let mut places = self.finish_order.clone();
        for &p in &self.status.seats {
            if !places.contains(&p) {
                places.push(p);
            }
        }
        places
    }

    /// The view this client decides from: the exchange (`give` cards back) or a play.
    pub fn view_input(&self, give: Option<u32>) -> DaifugoViewInput {
        let seat = self.seat_of(self.me);
        let seats = self
            .status
            .seats
            .iter()
            .map(|&p| SeatInput {
                card_count: self.status.counts[p],
                title: self.titles.map_or(Title::Heimin, |t| t[p]),
                passed: self.passed[p],
                finished: self.status.counts[p] == 0,
            })
            .collect();
        let table = self.table.as_ref().map(|(play, owner)| {
            let mut input = table_input(play, self.seat_of(*owner));
            input.owner = self.seat_of(*owner) as u32;
            input
        });
        let lock = match (&self.table, self.status.lock) {
            (Some((play, _)), true) => u32::from(play.suits()),
            _ => 0,
        };
        DaifugoViewInput {
            rules: RuleSet::uecda(),
            seat: seat as u32,
            game: self.game.max(1),
            phase: match give {
                Some(give) => PhaseInput::Exchange { give },
                None => PhaseInput::Play,
            },
            hand: self.hand.ids(),
            table,
            revolution: self.status.revolution,
            jack_back: false,
            lock,
            seats,
            played: self.played.ids(),
            removed_unseen: 0,
            log: self
                .log
                .iter()
                .map(|(p, cards)| LogEntryInput {
                    seat: self.seat_of(*p) as u32,
                    cards: cards.map(CardSet::ids).unwrap_or_default(),
                })
                .collect(),
            exchange: self.exchange_known(give.is_some()),
        }
    }

    /// What this client knows of the exchange: a hinmin or daihinmin sees, from its
    /// first turn on, the cards it lost (the tribute) and got back. A daifugo or fugo
    /// cannot tell the tribute among its dealt cards, so it knows nothing certain.
    fn exchange_known(&self, exchange_phase: bool) -> Option<ExchangeInput> {
        let titles = self.titles?;
        let mine = titles[self.me];
        let (partner_title, count) = match mine {
            Title::Hinmin => (Title::Fugo, 1),
            Title::Daihinmin => (Title::Daifugo, 2),
            _ => return None,
        };
        if exchange_phase || !self.first_turn_seen {
            return None;
        }
        let partner = titles.iter().position(|&t| t == partner_title)?;
        let now = self.hand.union(self.played_by(self.me));
        let received = now.difference(self.dealt);
        let given = self.dealt.difference(now);
        (received.len() == count && given.len() == count).then(|| ExchangeInput {
            with_seat: self.seat_of(partner) as u32,
            received: received.ids(),
            given: given.ids(),
        })
    }

    fn played_by(&self, player: usize) -> CardSet {
        self.log
            .iter()
            .filter(|(p, _)| *p == player)
            .filter_map(|(_, c)| *c)
            .fold(CardSet::EMPTY, CardSet::union)
    }

    /// The suit set on the table (0 when empty), for placing a lone joker.
    pub fn table_suits(&self) -> u8 {
        self.table.as_ref().map_or(0, |(p, _)| p.suits())
    }

    /// The cards of the hand.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// Whether the hand holds `card`.
    pub fn holds(&self, card: Card) -> bool {
        self.hand.contains(card)
    }
}

fn check_seats(status: &Status) -> Result<(), TrackerError> {
    let mut seen = [false; PLAYERS];
    for &p in &status.seats {
        match seen.get_mut(p) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(TrackerError::Seats(status.seats.to_vec()));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daifugo::DaifugoDecision;
    use crate::daifugo::bots::legal_decisions;
    use crate::daifugo::cards::Suit;
    use crate::daifugo::plays::{Declaration, PlayKind};
    use crate::daifugo::view::DaifugoView;

    fn cards(text: &str) -> CardSet {
        CardSet::parse(text).expect("cards")
    }

    fn message(hand: CardSet, status: Status) -> Table {
        let mut table = codec::hand_table(hand);
        status.write(&mut table);
        table
    }

    fn stage(cells: &[(usize, usize, i32)], status: Status) -> Table {
        let mut table = codec::empty_table();
        for &(r, c, v) in cells {
            table[r][c] = v;
        }
        status.write(&mut table);
        table
    }

    #[test]
    fn a_group_of_five_is_a_play_on_the_table_of_the_view() {
        let seats = [1, 2, 3, 4, 0];
        let hand = cards("♠3 ♥4 ♦5 ♣6 ♠7 ♥8 ♦9 ♣10 ♠J ♥Q ♦K");
        let mut tracker = Tracker::new(1);
        let base = Status {
            counts: [11, 11, 11, 10, 10],
            seats,
            ..Status::default()
        };
        let deal = Status {
            exchange: true,
            to_act: 6,
            ..base
        };
        tracker.on_deal(&message(hand, deal)).unwrap();
        let turn = Status {
            to_act: 2,
            empty_table: true,
            ..base
        };
        tracker.on_turn(&message(hand, turn)).unwrap();
        // Player 2 plays the four aces and the joker at [4][12].
        let aces: Vec<(usize, usize, i32)> =
            vec![(0, 12, 1), (1, 12, 1), (2, 12, 1), (3, 12, 1), (4, 12, 2)];
        let after = Status {
            to_act: 2,
            counts: [11, 11, 6, 10, 10],
            revolution: true,
            ..base
        };
        let seen = tracker.on_stage(&stage(&aces, after)).unwrap();
        let five = Play::new(PlayKind::Group, cards("♠A ♥A ♦A ♣A joker"), &[]).unwrap();
        assert_eq!(seen, Seen::Played(2, five));
        assert!(tracker.take_warnings().is_empty());
        // Our turn with the five on the table: the view shows it, and passing is all
        // there is; the same table coming back is our pass.
        let turn = Status {
            to_act: 1,
            my_turn: true,
            ..after
        };
        assert!(tracker.on_turn(&message(hand, turn)).unwrap());
        let view = DaifugoView::new(tracker.view_input(None)).unwrap();
        assert_eq!(view.table().map(|t| t.play), Some(five));
        assert!(view.revolution());
        assert_eq!(legal_decisions(&view), [DaifugoDecision::Pass]);
        let seen = tracker.on_stage(&stage(&aces, turn)).unwrap();
        assert_eq!(seen, Seen::Passed(1));
        // The table clears, with the five in the log and the played cards.
        let turn = Status {
            to_act: 2,
            empty_table: true,
            ..after
        };
        tracker.on_turn(&message(hand, turn)).unwrap();
        let input = tracker.view_input(None);
        assert!(input.table.is_none());
        assert_eq!(input.log.len(), 2);
        assert_eq!(input.log[0].cards.len(), 5);
        // A joker on row 4 beside anything but four of a kind in its column is no play.
        let broken = stage(
            &[(0, 12, 1), (1, 11, 1), (2, 12, 1), (3, 12, 1), (4, 12, 2)],
            after,
        );
        assert!(codec::decode_play(&broken).is_err());
    }

    #[test]
    fn a_joker_below_the_3_is_a_play_on_the_table_of_the_view() {
        let seats = [1, 2, 3, 4, 0];
        let hand = cards("♥3 ♥4 ♥5 ♥6 ♠7 ♥8 ♦9 ♣10 ♠J ♥Q ♦K");
        let mut tracker = Tracker::new(1);
        let base = Status {
            counts: [11, 11, 11, 10, 10],
            seats,
            ..Status::default()
        };
        let deal = Status {
            exchange: true,
            to_act: 6,
            ..base
        };
        tracker.on_deal(&message(hand, deal)).unwrap();
        let turn = Status {
            to_act: 2,
            empty_table: true,
            ..base
        };
        tracker.on_turn(&message(hand, turn)).unwrap();
        // Player 2 plays the joker at [0][0] before ♠3 ♠4.
        let run = [(0, 0, 2), (0, 1, 1), (0, 2, 1)];
        let after = Status {
            to_act: 2,
            counts: [11, 11, 8, 10, 10],
            ..base
        };
        let seen = tracker.on_stage(&stage(&run, after)).unwrap();
        let below = Play::with_declarations(
            PlayKind::Sequence,
            cards("♠3 ♠4 joker"),
            &[Declaration::BelowThree(Suit::Spades)],
        )
        .unwrap();
        assert_eq!(seen, Seen::Played(2, below));
        assert!(tracker.take_warnings().is_empty());
        let turn = Status {
            to_act: 1,
            my_turn: true,
            ..after
        };
        assert!(tracker.on_turn(&message(hand, turn)).unwrap());
        let view = DaifugoView::new(tracker.view_input(None)).unwrap();
        assert_eq!(view.table().map(|t| t.play), Some(below));
        // ♥3 ♥4 ♥5 ♥6 hold no 3-sequence above the 4 (a run from the 5 needs the ♥7).
        assert_eq!(legal_decisions(&view), [DaifugoDecision::Pass]);
    }

    #[test]
    fn a_play_a_pass_and_a_clear_make_the_log_and_the_view() {
        // Player 1 at seat 0; seats in turn order hold players 1, 2, 3, 4, 0.
        let seats = [1, 2, 3, 4, 0];
        let hand = cards("♠3 ♥4 ♦5 ♣6 ♠7 ♥8 ♦9 ♣10 ♠J ♥Q ♦K");
        let mut tracker = Tracker::new(1);
        let base = Status {
            counts: [11, 11, 11, 10, 10],
            seats,
            ..Status::default()
        };
        let deal = Status {
            exchange: true,
            to_act: 6,
            ..base
        };
        assert_eq!(tracker.on_deal(&message(hand, deal)).unwrap(), 0);
        assert_eq!(tracker.game(), 1);
        assert!(tracker.titles().is_none(), "the first game has no classes");

        // Player 2 leads ♦3.
        let turn = Status {
            to_act: 2,
            empty_table: true,
            ..base
        };
        assert!(!tracker.on_turn(&message(hand, turn)).unwrap());
        let after = Status {
            to_act: 2,
            counts: [11, 11, 10, 10, 10],
            ..base
        };
        let seen = tracker.on_stage(&stage(&[(2, 1, 1)], after)).unwrap();
        assert!(matches!(seen, Seen::Played(2, _)));

        // Player 3 passes: the same table comes back.
        let turn = Status { to_act: 3, ..after };
        tracker.on_turn(&message(hand, turn)).unwrap();
        let seen = tracker.on_stage(&stage(&[(2, 1, 1)], turn)).unwrap();
        assert_eq!(seen, Seen::Passed(3));

        // Player 4 plays ♦6 (locking ♦); then it is our turn.
        let turn = Status { to_act: 4, ..after };
        tracker.on_turn(&message(hand, turn)).unwrap();
        let after4 = Status {
            to_act: 4,
            counts: [10, 11, 10, 10, 10],
            lock: true,
            ..after
        };
        let seen = tracker.on_stage(&stage(&[(2, 4, 1)], after4)).unwrap();
        assert!(matches!(seen, Seen::Played(4, _)));
        let turn = Status {
            to_act: 1,
            my_turn: true,
            ..after4
        };
        assert!(tracker.on_turn(&message(hand, turn)).unwrap());
        let input = tracker.view_input(None);
        assert_eq!(input.seat, 0);
        assert_eq!(input.log.len(), 3);
        assert!(input.log[1].cards.is_empty(), "the pass");
        assert_eq!(
            input.table.as_ref().map(|t| t.owner),
            Some(3),
            "player 4 sits at seat 3"
        );
        assert_eq!(input.lock, 0b0100, "locked to ♦");
        assert!(input.seats[2].passed, "player 3 passed");
        let view = DaifugoView::new(input).expect("a valid view");
        assert_eq!(view.played(), cards("♦3 ♦6"));

        // We pass; then the next turn shows the empty table: the trick cleared.
        tracker.on_stage(&stage(&[(2, 4, 1)], after4)).unwrap();
        let turn = Status {
            to_act: 4,
            empty_table: true,
            ..after4
        };
        tracker.on_turn(&message(hand, turn)).unwrap();
        let input = tracker.view_input(None);
        assert!(input.table.is_none() && input.lock == 0);
        assert!(input.seats.iter().all(|s| !s.passed));
        assert_eq!(input.log.len(), 4);
    }

    #[test]
    fn the_daifugo_decides_its_give_back_from_the_deal() {
        // Game 2: player 0 is the daifugo, its hand holds the tribute (13 cards) while
        // the counts are those of the deal.
        let hand = cards("♠3 ♥4 ♦5 ♣6 ♠7 ♥8 ♦9 ♣10 ♠J ♥Q ♦K ♣A joker");
        let mut tracker = Tracker::new(0);
        let deal = Status {
            exchange: true,
            give: 2,
            to_act: 6,
            counts: [11, 11, 11, 10, 10],
            classes: [0, 1, 2, 3, 4],
            seats: [0, 1, 2, 3, 4],
            ..Status::default()
        };
        assert_eq!(tracker.on_deal(&message(hand, deal)).unwrap(), 2);
        assert_eq!(tracker.game(), 2);
        let input = tracker.view_input(Some(2));
        assert_eq!(
            input.seats.iter().map(|s| s.card_count).collect::<Vec<_>>(),
            [13, 12, 11, 9, 8]
        );
        let view = DaifugoView::new(input).expect("a valid exchange view");
        assert_eq!(view.hand().len(), 13);
    }
}
