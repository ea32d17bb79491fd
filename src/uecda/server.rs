//! `climbot uecda serve`: a UECda server on climbot's own referee (UECda preset), with
//! the contest's rules that the preset lacks modelled here (docs/uecda.md):
//!
//! - the seats are reshuffled before games 1, 4, 7, ... (every 3 games);
//! - the classes are reset every 100 games: the first game of each block of 100 has no
//!   exchange and its messages carry class 0 for everyone;
//! - the server takes the tribute itself and asks the daifugo, then the fugo, for the
//!   cards given back; a give-back that is not that many cards of the hand gives back
//!   the strongest ones instead;
//! - an illegal or unreadable submission is answered with 8 and counted as a pass;
//! - 20 passes in a row (rejected submissions included) end the game, and the players
//!   still holding cards take the remaining places in a random order.
//!
//! With `--record FILE` it writes the match record in the format of FujiGokoro's UECda
//! server (`super::record`), one game at a time.

use super::codec::{self, PLAYERS, Status, Table};
use super::error::{UecdaError, io_error};
use super::record::{self, RecordedGame};
use super::tracker::class_of_title;
use crate::bot::{StableHasher, shuffle, uniform_below};
use crate::daifugo::DaifugoDecision;
use crate::daifugo::cards::{Card, CardSet};
use crate::daifugo::referee::{GamePhase, Referee, strongest_cards};
use crate::daifugo::rules::{RuleSet, Title, points_for_place};
use crate::daifugo::view::PhaseInput;
use crate::stats::mean_ci95;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::io::{BufReader, BufWriter, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::time::Duration;

/// Passes in a row that end a game.
pub const PASSES_TO_END: u32 = 20;
/// Games between two seat reshuffles.
pub const GAMES_PER_SEATING: u32 = 3;
/// Games between two class resets.
pub const GAMES_PER_CLASS_BLOCK: u32 = 100;

/// How the cards are dealt.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deals {
    /// A fresh deal every game, from the daifugo's seat around the table.
    Random,
    /// Each deal played 5 times in a row, its hands rotated among the players.
    Duplicate,
}

/// `climbot uecda serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// The TCP port to listen on.
    #[arg(long, default_value_t = codec::DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Games in the match.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// How the cards are dealt.
    #[arg(long, value_enum, default_value = "random")]
    pub deals: Deals,
    /// The seed of the deals and the seatings.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Seconds to wait for a client's message before giving up.
    #[arg(long, default_value_t = 300)]
    pub timeout_s: u64,
    /// Print only the results table.
    #[arg(long)]
    pub quiet: bool,
    /// Write the match record to this file (the format of FujiGokoro's UECda server;
    /// `climbot uecda check-record` replays it).
    #[arg(long)]
    pub record: Option<PathBuf>,
}

/// What a served match produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServerReport {
    /// The clients' names, by player number.
    pub names: Vec<String>,
    /// Per game, the players in place order (first place first).
    pub places: Vec<Vec<usize>>,
    /// Per game, whether it ended on 20 passes in a row.
    pub aborted: Vec<bool>,
    /// Per game, whether it began with the exchange.
    pub exchanged: Vec<bool>,
    /// Rejected submissions (plays or give-backs) per player.
    pub rejected: Vec<usize>,
    /// Plays accepted, all players together.
    pub accepted_plays: usize,
    /// Whether the deals were duplicated (5 games per deal).
    pub duplicate: bool,
}

impl ServerReport {
    /// `player`'s points in each game.
    pub fn points_of(&self, player: usize) -> Vec<f64> {
        self.places
            .iter()
            .map(|places| {
                let place = places.iter().position(|&p| p == player).expect("a place");
                f64::from(points_for_place(place + 1, PLAYERS))
            })
            .collect()
    }

    /// The samples behind a player's interval: per game, or with duplicate deals the
    /// mean over each complete deal's 5 games.
    pub fn samples_of(&self, player: usize) -> Vec<f64> {
        let points = self.points_of(player);
        if !self.duplicate {
            return points;
        }
        points
            .chunks_exact(PLAYERS)
            .map(|c| c.iter().sum::<f64>() / PLAYERS as f64)
            .collect()
    }

    /// The results table.
    pub fn table(&self) -> String {
        let unit = if self.duplicate {
            "intervals over deals (5 games each)"
        } else {
            "intervals over games"
        };
        let mut out = format!(
            "{} games ({} ended on {PASSES_TO_END} passes); {unit}\n\
             player  name            points/game  95% interval       1st   2nd   3rd   4th   5th  rejected\n",
            self.places.len(),
            self.aborted.iter().filter(|&&a| a).count()
        );
        for player in 0..PLAYERS {
            // Points per game run from 1 (last) to 5 (first).
            let ci = mean_ci95(&self.samples_of(player), (1.0, PLAYERS as f64));
            let mut counts = [0usize; PLAYERS];
            for places in &self.places {
                if let Some(i) = places.iter().position(|&p| p == player) {
                    counts[i] += 1;
                }
            }
            out += &format!(
                "{player:<7} {:<15} {:>11.3}  [{:>6.3}, {:>6.3}] {} {:>9}\n",
                self.names.get(player).map_or("?", String::as_str),
                ci.mean,
                ci.lo,
                ci.hi,
                counts
                    .iter()
                    .map(|c| format!("{c:>5}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                self.rejected.get(player).copied().unwrap_or(0)
            );
        }
        out
    }
}

struct Client {
    reader: BufReader<TcpStream>,
    writer: BufWriter<TcpStream>,
}

impl Client {
    fn send_table(&mut self, table: &Table) -> Result<(), UecdaError> {
        codec::write_table(&mut self.writer, table).map_err(io_error("send"))
    }
    fn send_int(&mut self, value: i32) -> Result<(), UecdaError> {
        codec::write_int(&mut self.writer, value).map_err(io_error("send"))
    }
    fn read_table(&mut self) -> Result<Table, UecdaError> {
        codec::read_table(&mut self.reader).map_err(io_error("receive"))
    }
}

/// Waits for 5 clients on `listener`, then plays the match.
pub fn run(listener: &TcpListener, args: &ServeArgs) -> Result<ServerReport, UecdaError> {
    let mut clients = Vec::with_capacity(PLAYERS);
    let mut names = Vec::with_capacity(PLAYERS);
    let timeout = Some(Duration::from_secs(args.timeout_s.max(1)));
    while clients.len() < PLAYERS {
        let (stream, addr) = listener.accept().map_err(io_error("accept"))?;
        stream.set_nodelay(true).map_err(io_error("TCP_NODELAY"))?;
        stream
            .set_read_timeout(timeout)
            .map_err(io_error("timeout"))?;
        let mut client = Client {
            reader: BufReader::new(stream.try_clone().map_err(io_error("socket"))?),
            writer: BufWriter::new(stream),
        };
        let hello = client.read_table()?;
        let (version, name) = codec::parse_hello(&hello);
        if version != codec::PROTOCOL_VERSION {
            crate::errln!("climbot uecda: {addr} speaks protocol {version}; refused (20070 only)");
            continue;
        }
        let player = clients.len();
        client.send_int(player as i32)?;
        if !args.quiet {
            crate::errln!("climbot uecda: player {player} is {name:?} from {addr}");
        }
        clients.push(client);
        names.push(name);
    }
    let mut record_file = match &args.record {
        Some(path) => {
            let mut file = std::fs::File::create(path).map_err(|e| UecdaError::Create {
                path: path.display().to_string(),
                reason: e.to_string(),
            })?;
            file.write_all(record::header(&names).as_bytes())
                .map_err(io_error("record"))?;
            Some(file)
        }
        None => None,
    };
    let mut report = ServerReport {
        names,
        rejected: vec![0; PLAYERS],
        duplicate: args.deals == Deals::Duplicate,
        ..ServerReport::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(
        StableHasher::new()
            .bytes(b"uecda serve")
            .u64(args.seed)
            .finish(),
    );
    let mut seats: [usize; PLAYERS] = [0, 1, 2, 3, 4];
    let mut titles: Option<[Title; PLAYERS]> = None;
    for game in 1..=args.games {
        if (game - 1) % GAMES_PER_SEATING == 0 {
            shuffle(&mut rng, &mut seats);
        }
        if (game - 1) % GAMES_PER_CLASS_BLOCK == 0 {
            titles = None;
        }
        let dealt = match args.deals {
            Deals::Random => random_deal(&mut rng, &seats, titles.as_ref()),
            Deals::Duplicate => {
                let base = duplicate_deal(args.seed, u64::from((game - 1) / PLAYERS as u32));
                let r = (game - 1) as usize % PLAYERS;
                std::array::from_fn(|p| base[(p + r) % PLAYERS])
            }
        };
        report.exchanged.push(titles.is_some());
        let (places, aborted, plays, game_record) = play_game(
            &mut clients,
            &mut rng,
            &seats,
            titles,
            &dealt,
            game == args.games,
            &mut report.rejected,
        )?;
        let mut next = [Title::Heimin; PLAYERS];
        for (i, &p) in places.iter().enumerate() {
            next[p] = Title::for_place(i + 1, PLAYERS);
        }
        titles = Some(next);
        if let Some(file) = record_file.as_mut() {
            file.write_all(game_record.to_text().as_bytes())
                .and_then(|()| file.flush())
                .map_err(io_error("record"))?;
        }
        report.accepted_plays += plays;
        report.places.push(places);
        report.aborted.push(aborted);
        if !args.quiet && game % 100 == 0 {
            crate::errln!("climbot uecda: {game} games played");
        }
    }
    Ok(report)
}

/// A deal as the contest server makes it: one card at a time around the seats, from
/// the daifugo's seat (a random seat in the first game of a block).
fn random_deal(
    rng: &mut ChaCha8Rng,
    seats: &[usize; PLAYERS],
    titles: Option<&[Title; PLAYERS]>,
) -> [CardSet; PLAYERS] {
    let start = match titles.and_then(|t| t.iter().position(|&x| x == Title::Daifugo)) {
        Some(daifugo) => seats.iter().position(|&p| p == daifugo).expect("seated"),
        None => uniform_below(rng, PLAYERS),
    };
    let mut deck: Vec<Card> = CardSet::deck(1).iter().collect();
    shuffle(rng, &mut deck);
    let mut hands = [CardSet::EMPTY; PLAYERS];
    for (i, card) in deck.into_iter().enumerate() {
        hands[seats[(start + i) % PLAYERS]].insert(card);
    }
    hands
}

/// The hands of duplicate deal `index`, by slot (slots 0-2 hold 11 cards, 3-4 hold 10).
pub fn duplicate_deal(seed: u64, index: u64) -> [CardSet; PLAYERS] {
    let mut rng = ChaCha8Rng::seed_from_u64(
        StableHasher::new()
            .bytes(b"uecda deal")
            .u64(seed)
            .u64(index)
            .finish(),
    );
    let mut deck: Vec<Card> = CardSet::deck(1).iter().collect();
    shuffle(&mut rng, &mut deck);
    let mut hands = [CardSet::EMPTY; PLAYERS];
    for (i, card) in deck.into_iter().enumerate() {
        hands[i % PLAYERS].insert(card);
    }
    hands
}

fn status_for(
    referee: &Referee,
    seats: &[usize; PLAYERS],
    titles: Option<[Title; PLAYERS]>,
    to_act: i32,
) -> Status {
    let trick = referee.trick();
    let mut status = Status {
        to_act,
        empty_table: trick.table.is_none(),
        jack_back: trick.jack_back,
        revolution: trick.revolution,
        lock: trick.lock != 0,
        seats: *seats,
        ..Status::default()
    };
    for (s, &p) in seats.iter().enumerate() {
        status.counts[p] = referee.hands()[s].len() as u32;
    }
    if let Some(t) = titles {
        for (class, title) in status.classes.iter_mut().zip(t) {
            *class = class_of_title(title);
        }
    }
    status
}

/// Plays one game; returns the places (players), whether 20 passes ended it, the plays
/// accepted and the game's record.
fn play_game(
    clients: &mut [Client],
    rng: &mut ChaCha8Rng,
    seats: &[usize; PLAYERS],
    titles: Option<[Title; PLAYERS]>,
    dealt: &[CardSet; PLAYERS],
    last_game: bool,
    rejected: &mut [usize],
) -> Result<(Vec<usize>, bool, usize, RecordedGame), UecdaError> {
    let seat_of = |p: usize| seats.iter().position(|&x| x == p).expect("seated");
    let mut referee =
        Referee::new(RuleSet::uecda(), PLAYERS).map_err(|e| UecdaError::Referee(e.to_string()))?;
    if let Some(t) = titles {
        let by_seat: Vec<Title> = seats.iter().map(|&p| t[p]).collect();
        referee
            .set_titles_for_next_game(by_seat, 1)
            .map_err(|e| UecdaError::Referee(e.to_string()))?;
    }
    let hands: Vec<CardSet> = seats.iter().map(|&p| dealt[p]).collect();
    referee
        .start_game_with_hands(hands)
        .map_err(|e| UecdaError::Referee(e.to_string()))?;

    // The deal: the daifugo and fugo see their hands with the tribute and how many
    // cards to give back; the others see the hands they were dealt.
    let exchange = referee.phase() == GamePhase::Exchange;
    for (p, client) in clients.iter_mut().enumerate() {
        let give = match (exchange, titles.map(|t| t[p])) {
            (true, Some(Title::Daifugo)) => 2,
            (true, Some(Title::Fugo)) => 1,
            _ => 0,
        };
        let hand = if give > 0 {
            referee.hands()[seat_of(p)]
        } else {
            dealt[p]
        };
        let mut table = codec::hand_table(hand);
        let mut status = status_for(&referee, seats, titles, 6);
        for (q, count) in status.counts.iter_mut().enumerate() {
            *count = dealt[q].len() as u32;
        }
        status.exchange = true;
        status.give = give;
        status.empty_table = false;
        status.write(&mut table);
        client.send_table(&table)?;
    }
    let mut changed = [CardSet::EMPTY; PLAYERS];
    while referee.phase() == GamePhase::Exchange {
        let seat = referee.to_act().expect("a giver");
        let player = seats[seat];
        let give = match referee.view_input(seat).phase {
            PhaseInput::Exchange { give } => give as usize,
            PhaseInput::Play => unreachable!("the exchange phase"),
        };
        let hand = referee.hands()[seat];
        let submitted = clients[player].read_table()?;
        let cards = match codec::hand_cards(&submitted) {
            Ok(cards) if cards.len() == give && cards.is_subset(hand) => cards,
            _ => {
                rejected[player] += 1;
                strongest_cards(hand, give)
            }
        };
        referee
            .apply(seat, &DaifugoDecision::Exchange(cards))
            .map_err(|e| UecdaError::Referee(e.to_string()))?;
        changed[player] = cards;
    }
    let original: [CardSet; PLAYERS] = std::array::from_fn(|p| referee.hands()[seat_of(p)]);
    if let (true, Some(t)) = (exchange, titles) {
        for (p, title) in t.iter().enumerate() {
            match title {
                Title::Hinmin => changed[p] = strongest_cards(dealt[p], 1),
                Title::Daihinmin => changed[p] = strongest_cards(dealt[p], 2),
                _ => {}
            }
        }
    }
    let mut turns: Vec<Table> = Vec::new();

    let mut stage = codec::empty_table();
    let mut passes_in_row = 0u32;
    let mut plays = 0usize;
    let mut aborted = false;
    while let Some(seat) = referee.to_act() {
        let actor = seats[seat];
        let status = status_for(&referee, seats, titles, actor as i32);
        for (p, client) in clients.iter_mut().enumerate() {
            let mut table = codec::hand_table(referee.hands()[seat_of(p)]);
            let mut mine = status;
            mine.my_turn = p == actor;
            mine.write(&mut table);
            client.send_table(&table)?;
        }
        let submitted = clients[actor].read_table()?;
        let decision = if codec::is_pass(&submitted) {
            Some(DaifugoDecision::Pass)
        } else {
            match codec::decode_play(&submitted) {
                Ok(Some(play)) => Some(DaifugoDecision::Play(play)),
                _ => None,
            }
        };
        let accepted = decision.is_some_and(|d| referee.apply(seat, &d).is_ok());
        if !accepted {
            rejected[actor] += 1;
            referee
                .apply(seat, &DaifugoDecision::Pass)
                .map_err(|e| UecdaError::ForcedPass(e.to_string()))?;
        }
        clients[actor].send_int(if accepted {
            codec::ACCEPTED
        } else {
            codec::REJECTED
        })?;
        let mut recorded = codec::empty_table();
        if accepted {
            recorded[..5].copy_from_slice(&submitted[..5]);
        }
        turns.push(recorded);
        if accepted && matches!(decision, Some(DaifugoDecision::Play(_))) {
            plays += 1;
            passes_in_row = 0;
            stage = codec::empty_table();
            stage[..5].copy_from_slice(&submitted[..5]);
        } else {
            passes_in_row += 1;
        }
        let mut after = status_for(&referee, seats, titles, actor as i32);
        after.empty_table = codec::is_pass(&stage);
        after.write(&mut stage);
        for client in clients.iter_mut() {
            client.send_table(&stage)?;
        }
        if referee.trick().table.is_none() {
            stage = codec::empty_table();
        }
        let over = referee.phase() == GamePhase::Over || passes_in_row >= PASSES_TO_END;
        aborted = referee.phase() != GamePhase::Over && over;
        let state = match (over, last_game) {
            (false, _) => codec::GAME_ON,
            (true, false) => codec::GAME_OVER,
            (true, true) => codec::MATCH_OVER,
        };
        for client in clients.iter_mut() {
            client.send_int(state)?;
        }
        if over {
            break;
        }
    }
    let place_seats: Vec<usize> = match referee.result() {
        Some(result) if !aborted => result.places.clone(),
        _ => {
            let mut order = referee.position().finishers().to_vec();
            let mut rest: Vec<usize> = (0..PLAYERS).filter(|s| !order.contains(s)).collect();
            shuffle(rng, &mut rest);
            order.extend(rest);
            order
        }
    };
    let places: Vec<usize> = place_seats.iter().map(|&s| seats[s]).collect();
    let mut result = [0; PLAYERS];
    for (place, &p) in places.iter().enumerate() {
        result[p] = place;
    }
    let game_record = RecordedGame {
        classes: std::array::from_fn(|p| titles.map_or(p, |t| class_of_title(t[p]) as usize)),
        seats: std::array::from_fn(seat_of),
        dealt: *dealt,
        changed,
        original,
        plays: turns,
        result,
    };
    Ok((places, aborted, plays, game_record))
}

/// `climbot uecda serve`: listens, plays the match, prints the results table.
pub fn serve(args: &ServeArgs) -> Result<(), UecdaError> {
    let listener =
        TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| UecdaError::Listen {
            addr: format!("{}:{}", args.host, args.port),
            reason: e.to_string(),
        })?;
    if !args.quiet {
        crate::errln!(
            "climbot uecda: listening on {}",
            listener
                .local_addr()
                .map_err(|e| UecdaError::LocalAddress(e.to_string()))?
        );
    }
    let report = run(&listener, args)?;
    crate::outln!("{}", report.table());
    Ok(())
}
