//! Match records in the text format of FujiGokoro's UECda server (its `-l FILE`
//! option), which `climbot uecda serve --record FILE` also writes, and the checker
//! behind `climbot uecda check-record`: every game of a record is replayed on climbot's
//! referee (UECda preset), which must find every play legal and end the game with the
//! recorded places.
//!
//! The format (docs/uecda.md): a header line `player NAME0 .. NAME4`, then one block per
//! game between `/*` and `*/`, one line per field, each listing the players 0-4 in
//! order: `class` (0 = daifugo .. 4 = daihinmin), `seat`, `dealt` (the hands as dealt),
//! `changed` (the cards each player gave in the exchange: tribute or give-back),
//! `original` (the hands after the exchange), `play` (every turn in order: the accepted
//! play, or `p` for a pass or a rejected submission) and `result` (the class each player
//! earned: its place - 1).

use super::codec::{self, PLAYERS, Table};
use super::error::RecordError;
use super::tracker::title_of_class;
use crate::daifugo::DaifugoDecision;
use crate::daifugo::cards::{Card, CardSet};
use crate::daifugo::referee::{GamePhase, Referee, strongest_cards};
use crate::daifugo::rules::{RuleSet, Title};

/// The plays FujiGokoro's server keeps of one game: a longer game's record stops there.
pub const RECORDED_PLAYS_CAP: usize = 128;

/// Passes in a row that end a game (as `climbot uecda serve` and the contest play it).
const PASSES_TO_END: u32 = super::server::PASSES_TO_END;

/// Rank letters by table column: `-` and `+` are the joker below 3 and above 2 that
/// some servers accept at the ends of a sequence.
const RANK_LETTERS: &[u8; 15] = b"-3456789tjqka2+";

/// Suit letters by table row (0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs).
const ROW_LETTERS: [u8; 4] = [b's', b'h', b'd', b'c'];

/// The rows in the order the format writes suits: clubs, diamonds, hearts, spades.
const ROWS_IN_WRITING_ORDER: [usize; 4] = [3, 2, 1, 0];

const KEYWORDS: [&str; 13] = [
    "//", "/*", "*/", "player", "game", "score", "class", "seat", "dealt", "changed", "original",
    "play", "result",
];

/// One game of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// Each player's class in this game (0 = daifugo .. 4 = daihinmin); it means
    /// nothing in a game without exchange.
    pub classes: [usize; PLAYERS],
    /// Each player's seat (turn order).
    pub seats: [usize; PLAYERS],
    /// Each player's hand as dealt.
    pub dealt: [CardSet; PLAYERS],
    /// The cards each player gave in the exchange (all empty: no exchange).
    pub changed: [CardSet; PLAYERS],
    /// Each player's hand after the exchange.
    pub original: [CardSet; PLAYERS],
    /// Every turn in order, as a table (rows 0-4; all zero for a pass).
    pub plays: Vec<Table>,
    /// The class each player earned (its place - 1).
    pub result: [usize; PLAYERS],
}

/// A whole record: the players' names and the games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchRecord {
    /// The players' names by player number (empty when the record has no header).
    pub names: Vec<String>,
    /// The games in order.
    pub games: Vec<RecordedGame>,
    /// The games that could not be read, left out of `games`: their 1-based numbers
    /// and why.
    pub unreadable: Vec<(usize, RecordError)>,
}

/// The header line of a record.
pub fn header(names: &[String]) -> String {
    let mut line = String::from("player");
    for name in names {
        let name: String = name
            .chars()
            .map(|c| if c.is_whitespace() { '_' } else { c })
            .collect();
        line.push(' ');
        line.push_str(if name.is_empty() { "_" } else { &name });
    }
    line.push('\n');
    line
}

/// A card as the format writes it: suit letter and rank letter (`d3`, `ct`, `s2`),
/// `jo` for the joker.
pub fn card_text(card: Card) -> String {
    match codec::cell_of(card) {
        Some((row, column)) => {
            String::from_utf8_lossy(&[ROW_LETTERS[row], RANK_LETTERS[column]]).into_owned()
        }
        None => "jo".into(),
    }
}

/// A set of cards as the format writes it: `{ d3 h3 s5 jo }`, by rank, clubs first
/// among equals, the joker last.
pub fn cards_text(cards: CardSet) -> String {
    let mut naturals: Vec<Card> = cards.naturals().iter().collect();
    naturals.sort_by_key(|c| (c.rank(), std::cmp::Reverse(c.suit())));
    let mut out = String::from("{ ");
    for card in naturals.into_iter().chain(cards.jokers().iter()) {
        out += &card_text(card);
        out.push(' ');
    }
    out.push('}');
    out
}

fn card_from_text(text: &str) -> Result<Card, RecordError> {
    if text == "jo" || text == "jk" {
        return Ok(Card::JOKER);
    }
    let bytes = text.as_bytes();
    let row = bytes.first().and_then(|b| {
        ROW_LETTERS
            .iter()
            .position(|l| l == &b.to_ascii_lowercase())
    });
    let column = bytes.get(1).and_then(|b| {
        RANK_LETTERS
            .iter()
            .position(|l| l == &b.to_ascii_lowercase())
    });
    match (row, column, bytes.len()) {
        (Some(row), Some(column), 2) => {
            codec::card_at(row, column).ok_or_else(|| RecordError::NotACard(text.into()))
        }
        _ => Err(RecordError::NotACard(text.into())),
    }
}

/// A play as the format writes it, from the cells of its table (rows 0-4): `p` for a
/// pass, `jk` for the lone joker, a group as its suits and rank (`cd-7`), a sequence as
/// its suit and ranks (`d-tjq`), and where the joker stands in parentheses: its suit in
/// a group (`cd-7(c)`), its rank in a sequence (`s-345(4)`, `d--34(-)` below the 3). A
/// group of five has the fifth suit `x` (`cdhsx-7(cdhsx)`).
pub fn play_text(table: &Table) -> Result<String, RecordError> {
    let mut cells: Vec<(usize, usize, i32)> = Vec::new();
    let mut five_column = None;
    for (r, row) in table.iter().take(5).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            if value != 0 {
                if (r, value) == (4, 2) && five_column.is_none() {
                    five_column = Some(c);
                    continue;
                }
                if r >= 4 || !(1..=2).contains(&value) {
                    return Err(RecordError::CellOfPlay {
                        row: r,
                        column: c,
                        value,
                    });
                }
                cells.push((r, c, value));
            }
        }
    }
    if let Some(column) = five_column {
        let four = cells.len() == 4 && cells.iter().all(|cell| cell.1 == column && cell.2 == 1);
        if !four || !(1..=13).contains(&column) {
            return Err(RecordError::FiveBesideOthers { column });
        }
        let rank = char::from(RANK_LETTERS[column]);
        return Ok(format!("cdhsx-{rank}(cdhsx)"));
    }
    let jokers = cells.iter().filter(|cell| cell.2 == 2).count();
    match (cells.len(), jokers) {
        (0, _) => return Ok("p".into()),
        (1, 1) => return Ok("jk".into()),
        (_, j) if j > 1 => return Err(RecordError::Jokers(j)),
        _ => {}
    }
    let column = cells[0].1;
    let row = cells[0].0;
    let letter = |r: usize| char::from(ROW_LETTERS[r]);
    let rank_letter = |c: usize| char::from(RANK_LETTERS[c]);
    if cells.iter().all(|cell| cell.1 == column) {
        let mut text: String = ROWS_IN_WRITING_ORDER
            .iter()
            .filter(|&&r| cells.iter().any(|cell| cell.0 == r))
            .map(|&r| letter(r))
            .collect();
        text.push('-');
        text.push(rank_letter(column));
        if let Some(joker) = cells.iter().find(|cell| cell.2 == 2) {
            text.push('(');
            text.push(letter(joker.0));
            text.push(')');
        }
        Ok(text)
    } else if cells.iter().all(|cell| cell.0 == row) {
        let mut columns: Vec<usize> = cells.iter().map(|cell| cell.1).collect();
        columns.sort_unstable();
        if columns.windows(2).any(|w| w[1] != w[0] + 1) {
            return Err(RecordError::SequenceGap);
        }
        let mut text = format!("{}-", letter(row));
        text.extend(columns.iter().map(|&c| rank_letter(c)));
        if let Some(joker) = cells.iter().find(|cell| cell.2 == 2) {
            text.push('(');
            text.push(rank_letter(joker.1));
            text.push(')');
        }
        Ok(text)
    } else {
        Err(RecordError::NeitherRankNorSuit)
    }
}

/// The table of a play written in the format (see [`play_text`]); a trailing
/// `[time]` is ignored.
pub fn play_from_text(text: &str) -> Result<Table, RecordError> {
    let text = text.split('[').next().unwrap_or("").to_ascii_lowercase();
    let mut table = codec::empty_table();
    if text == "p" {
        return Ok(table);
    }
    if text == "jk" {
        table[0][14] = 2;
        return Ok(table);
    }
    let bad = || RecordError::NotAPlay(text.clone());
    let (suits, rest) = text.split_once('-').ok_or_else(bad)?;
    let (ranks, joker) = match rest.split_once('(') {
        Some((ranks, joker)) => (ranks, Some(joker.strip_suffix(')').ok_or_else(bad)?)),
        None => (rest, None),
    };
    if let Some(naturals) = suits.strip_suffix('x') {
        // A group of five: the four suits and the fifth, `x`, the joker.
        let mut rows: Vec<u8> = naturals.bytes().collect();
        rows.sort_unstable();
        let column = RANK_LETTERS[1..14]
            .iter()
            .position(|&l| ranks.len() == 1 && l == ranks.as_bytes()[0])
            .map(|i| i + 1);
        let joker_ok = joker.is_none_or(|j| j.bytes().all(|b| b"cdhsx".contains(&b)));
        return match (rows.as_slice(), column, joker_ok) {
            (b"cdhs", Some(column), true) => {
                for row in table.iter_mut().take(4) {
                    row[column] = 1;
                }
                table[4][column] = 2;
                Ok(table)
            }
            _ => Err(RecordError::GroupOfFive(text.clone())),
        };
    }
    let rows: Vec<usize> = suits
        .bytes()
        .map(|b| ROW_LETTERS.iter().position(|&l| l == b))
        .collect::<Option<_>>()
        .ok_or_else(|| RecordError::Suits(text.clone()))?;
    let columns: Vec<usize> = ranks
        .bytes()
        .map(|b| RANK_LETTERS.iter().position(|&l| l == b))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if rows.is_empty() || columns.is_empty() {
        return Err(bad());
    }
    if columns.len() == 1 {
        for &r in &rows {
            table[r][columns[0]] = 1;
        }
        if let Some(joker) = joker {
            for b in joker.bytes() {
                let r = ROW_LETTERS.iter().position(|&l| l == b).ok_or_else(bad)?;
                table[r][columns[0]] = 2;
            }
        }
    } else {
        if rows.len() != 1 || columns.windows(2).any(|w| w[1] != w[0] + 1) {
            return Err(bad());
        }
        for &c in &columns {
            table[rows[0]][c] = 1;
        }
        if let Some(joker) = joker {
            let c = RANK_LETTERS
                .iter()
                .position(|&l| joker.len() == 1 && l == joker.as_bytes()[0])
                .ok_or_else(bad)?;
            table[rows[0]][c] = 2;
        }
    }
    Ok(table)
}

impl RecordedGame {
    /// The game's block in the format.
    pub fn to_text(&self) -> String {
        let numbers =
            |values: &[usize; PLAYERS]| values.iter().map(|v| format!("{v} ")).collect::<String>();
        let hands = |sets: &[CardSet; PLAYERS]| {
            sets.iter()
                .map(|s| cards_text(*s) + " ")
                .collect::<String>()
        };
        let plays: String = self
            .plays
            .iter()
            .map(|t| play_text(t).unwrap_or_else(|_| "p".into()) + " ")
            .collect();
        format!(
            "/* \nscore \nclass {}\nseat {}\ndealt {}\nchanged {}\noriginal {}\nplay {}\nresult {}\n*/ \n",
            numbers(&self.classes),
            numbers(&self.seats),
            hands(&self.dealt),
            hands(&self.changed),
            hands(&self.original),
            plays,
            numbers(&self.result),
        )
    }
}

/// Reads a record. A game that cannot be read goes into `unreadable`, naming the game
/// (1-based) and the field at fault; an unclosed game is an error.
pub fn parse_record(text: &str) -> Result<MatchRecord, RecordError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let is_keyword = |t: &str| KEYWORDS.contains(&t);
    let mut record = MatchRecord::default();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "player" => {
                i += 1;
                record.names.clear();
                while i < tokens.len() && !is_keyword(tokens[i]) {
                    record.names.push(tokens[i].to_string());
                    i += 1;
                }
            }
            "/*" => {
                let game = record.games.len() + record.unreadable.len() + 1;
                let end = tokens[i..]
                    .iter()
                    .position(|&t| t == "*/")
                    .map(|e| i + e)
                    .ok_or(RecordError::Unclosed { game })?;
                match parse_game(&tokens[i + 1..end]) {
                    Ok(parsed) => record.games.push(parsed),
                    Err(e) => record.unreadable.push((game, e)),
                }
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    Ok(record)
}

fn parse_game(tokens: &[&str]) -> Result<RecordedGame, RecordError> {
    let mut fields: Vec<(&str, Vec<&str>)> = Vec::new();
    for &t in tokens {
        if KEYWORDS.contains(&t) {
            fields.push((t, Vec::new()));
        } else if let Some(last) = fields.last_mut() {
            last.1.push(t);
        } else {
            return Err(RecordError::BeforeAnyField(t.into()));
        }
    }
    let field = |name: &'static str| -> Result<&[&str], RecordError> {
        fields
            .iter()
            .find(|f| f.0 == name)
            .map(|f| f.1.as_slice())
            .ok_or(RecordError::MissingField(name))
    };
    let numbers = |name: &'static str| -> Result<[usize; PLAYERS], RecordError> {
        let values = field(name)?;
        if values.len() != PLAYERS {
            return Err(RecordError::Values {
                field: name,
                found: values.len(),
            });
        }
        let mut out = [0; PLAYERS];
        for (slot, v) in out.iter_mut().zip(values) {
            *slot = v
                .parse()
                .ok()
                .filter(|&n: &usize| n < PLAYERS)
                .ok_or_else(|| RecordError::NotAPlayerNumber {
                    field: name,
                    value: (*v).into(),
                })?;
        }
        Ok(out)
    };
    let hands = |name: &'static str| -> Result<[CardSet; PLAYERS], RecordError> {
        let values = field(name)?;
        let mut out = [CardSet::EMPTY; PLAYERS];
        let mut player = 0;
        let mut open = false;
        for &v in values {
            match v {
                "{" if !open => open = true,
                "}" if open => {
                    open = false;
                    player += 1;
                }
                card if open && player < PLAYERS => {
                    out[player].insert(card_from_text(card).map_err(|e| RecordError::InField {
                        field: name,
                        error: Box::new(e),
                    })?)
                }
                other => {
                    return Err(RecordError::Unexpected {
                        field: name,
                        token: other.into(),
                    });
                }
            }
        }
        if player != PLAYERS || open {
            return Err(RecordError::Hands {
                field: name,
                found: player,
            });
        }
        Ok(out)
    };
    let plays = field("play")?
        .iter()
        .enumerate()
        .map(|(t, p)| {
            play_from_text(p).map_err(|e| RecordError::InPlay {
                play: t + 1,
                error: Box::new(e),
            })
        })
        .collect::<Result<Vec<Table>, RecordError>>()?;
    Ok(RecordedGame {
        classes: numbers("class")?,
        seats: numbers("seat")?,
        dealt: hands("dealt")?,
        changed: hands("changed")?,
        original: hands("original")?,
        plays,
        result: numbers("result")?,
    })
}

/// How a replayed game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Four players went out; every place agrees with the record.
    Finished,
    /// 20 passes in a row ended it; the places of those who went out agree, and the
    /// others hold the remaining places (drawn at random by the server).
    EndedOnPasses,
    /// The record stops at [`RECORDED_PLAYS_CAP`] plays with the game still on; the
    /// places of those who went out by then agree.
    Truncated,
}

/// What replaying a record found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Games in the record.
    pub games: usize,
    /// Games that began with the exchange.
    pub exchanges: usize,
    /// Turns replayed, passes included.
    pub turns: usize,
    /// Turns that were passes (or rejected submissions).
    pub passes: usize,
    /// Games replayed to the recorded places (every place checked).
    pub finished: usize,
    /// Games ended by 20 passes in a row.
    pub ended_on_passes: usize,
    /// Games whose record stops at the play cap.
    pub truncated: usize,
    /// Groups of five (four of a kind and the joker) replayed.
    pub groups_of_five: usize,
    /// Sequences with the joker past 3 or 2 (an imaginary card below the 3 or above
    /// the 2) replayed.
    pub past_the_ends: usize,
    /// Every disagreement, naming the game and the turn.
    pub problems: Vec<String>,
}

impl CheckReport {
    /// A summary of the check.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} games ({} with the exchange), {} turns ({} passes)\n\
             replayed on climbot's referee: {} games to the recorded places, {} ended on \
             {PASSES_TO_END} passes in a row (places of those out checked), {} cut at \
             {RECORDED_PLAYS_CAP} plays (places of those out checked)\n\
             groups of five: {}, sequences with the joker past 3 or 2: {}\n\
             disagreements: {}\n",
            self.games,
            self.exchanges,
            self.turns,
            self.passes,
            self.finished,
            self.ended_on_passes,
            self.truncated,
            self.groups_of_five,
            self.past_the_ends,
            self.problems.len()
        );
        for problem in self.problems.iter().take(20) {
            out += &format!("  {problem}\n");
        }
        if self.problems.len() > 20 {
            out += &format!("  ... and {} more\n", self.problems.len() - 20);
        }
        out
    }
}

/// Replays every game of `record` on climbot's referee.
pub fn check(record: &MatchRecord) -> CheckReport {
    let mut report = CheckReport {
        games: record.games.len() + record.unreadable.len(),
        problems: record
            .unreadable
            .iter()
            .map(|(n, e)| format!("game {n}: unreadable: {e}"))
            .collect(),
        ..CheckReport::default()
    };
    let mut number = 0;
    for game in &record.games {
        number += 1;
        while record.unreadable.iter().any(|(n, _)| *n == number) {
            number += 1;
        }
        if game.changed.iter().any(|c| !c.is_empty()) {
            report.exchanges += 1;
        }
        match replay(game, &mut report) {
            Ok(Outcome::Finished) => report.finished += 1,
            Ok(Outcome::EndedOnPasses) => report.ended_on_passes += 1,
            Ok(Outcome::Truncated) => report.truncated += 1,
            Err(e) => report.problems.push(format!("game {number}: {e}")),
        }
    }
    report
}

fn permutation(
    values: &[usize; PLAYERS],
    name: &'static str,
) -> Result<[usize; PLAYERS], RecordError> {
    let mut inverse = [usize::MAX; PLAYERS];
    for (p, &v) in values.iter().enumerate() {
        if inverse[v] != usize::MAX {
            return Err(RecordError::Twice {
                field: name,
                value: v,
            });
        }
        inverse[v] = p;
    }
    Ok(inverse)
}

/// Replays one game; the counts go into `report`.
pub fn replay(game: &RecordedGame, report: &mut CheckReport) -> Result<Outcome, RecordError> {
    let player_at = permutation(&game.seats, "seat")?;
    let seat_of = |p: usize| game.seats[p];
    permutation(&game.result, "result class")?;
    let mut referee = Referee::new(RuleSet::uecda(), PLAYERS).map_err(RecordError::Referee)?;
    let exchange = game.changed.iter().any(|c| !c.is_empty());
    if exchange {
        permutation(&game.classes, "class")?;
        let titles: Vec<Title> = player_at
            .iter()
            .map(|&p| title_of_class(game.classes[p] as u32))
            .collect();
        referee
            .set_titles_for_next_game(titles, 1)
            .map_err(RecordError::Referee)?;
    }
    referee
        .start_game_with_hands(player_at.iter().map(|&p| game.dealt[p]).collect())
        .map_err(RecordError::Deal)?;
    while referee.phase() == GamePhase::Exchange {
        let seat = referee.to_act().ok_or(RecordError::NoOneToExchange)?;
        let player = player_at[seat];
        let cards = game.changed[player];
        referee
            .apply(seat, &DaifugoDecision::Exchange(cards))
            .map_err(|error| RecordError::GivesBack {
                player,
                cards,
                error,
            })?;
    }
    for p in 0..PLAYERS {
        let held = referee.hands()[seat_of(p)];
        if held != game.original[p] {
            return Err(RecordError::Holds {
                player: p,
                held,
                recorded: game.original[p],
            });
        }
        let tribute = match game.classes[p] {
            3 if exchange => 1,
            4 if exchange => 2,
            _ => 0,
        };
        let taken = strongest_cards(game.dealt[p], tribute);
        if tribute > 0 && taken != game.changed[p] {
            return Err(RecordError::Tribute {
                player: p,
                taken,
                recorded: game.changed[p],
            });
        }
    }
    let mut passes_in_row = 0u32;
    let mut ended_on_passes = false;
    for (turn, table) in game.plays.iter().enumerate() {
        if ended_on_passes {
            return Err(RecordError::AfterPasses { turn: turn + 1 });
        }
        let seat = referee
            .to_act()
            .ok_or(RecordError::AfterEnd { turn: turn + 1 })?;
        let player = player_at[seat];
        let text = play_text(table).unwrap_or_else(|e| e.to_string());
        let decision = if codec::is_pass(table) {
            DaifugoDecision::Pass
        } else {
            match codec::decode_play(table) {
                Ok(Some(play)) => {
                    report.groups_of_five += usize::from(play.is_group_of_five());
                    report.past_the_ends += usize::from(play.is_past_the_ends());
                    DaifugoDecision::Play(play)
                }
                Ok(None) => DaifugoDecision::Pass,
                Err(error) => {
                    return Err(RecordError::Table {
                        turn: turn + 1,
                        play: text,
                        error,
                    });
                }
            }
        };
        referee
            .apply(seat, &decision)
            .map_err(|error| RecordError::Refused {
                turn: turn + 1,
                player,
                play: text,
                error,
            })?;
        report.turns += 1;
        if matches!(decision, DaifugoDecision::Pass) {
            report.passes += 1;
            passes_in_row += 1;
            ended_on_passes = passes_in_row >= PASSES_TO_END;
        } else {
            passes_in_row = 0;
        }
    }
    let out: Vec<usize> = referee
        .position()
        .finishers()
        .to_vec()
        .iter()
        .map(|&s| player_at[s])
        .collect();
    let check_out = |out: &[usize]| -> Result<(), RecordError> {
        for (place, &p) in out.iter().enumerate() {
            if game.result[p] != place {
                return Err(RecordError::Place {
                    player: p,
                    went_out: place + 1,
                    recorded: game.result[p] + 1,
                });
            }
        }
        Ok(())
    };
    if referee.phase() == GamePhase::Over {
        let places: Vec<usize> = referee
            .result()
            .ok_or(RecordError::NoResult)?
            .places
            .iter()
            .map(|&s| player_at[s])
            .collect();
        check_out(&places)?;
        Ok(Outcome::Finished)
    } else if ended_on_passes {
        check_out(&out)?;
        Ok(Outcome::EndedOnPasses)
    } else if game.plays.len() >= RECORDED_PLAYS_CAP {
        check_out(&out)?;
        Ok(Outcome::Truncated)
    } else {
        Err(RecordError::Unfinished {
            turns: game.plays.len(),
        })
    }
}

/// `climbot uecda check-record`.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckRecordArgs {
    /// The record file (FujiGokoro's server `-l FILE`, or `climbot uecda serve --record`).
    pub file: std::path::PathBuf,
}

/// `climbot uecda check-record`: reads, replays, prints the summary; an error if any
/// game disagrees.
pub fn check_record(args: &CheckRecordArgs) -> Result<(), RecordError> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| RecordError::Read {
        path: args.file.display().to_string(),
        reason: e.to_string(),
    })?;
    let record = parse_record(&text)?;
    if record.games.is_empty() {
        return Err(RecordError::NoGame {
            path: args.file.display().to_string(),
        });
    }
    let report = check(&record);
    crate::out!("{}", report.summary());
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(RecordError::Disagreements {
            disagree: report.problems.len(),
            games: report.games,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(text: &str) -> Card {
        card_from_text(text).unwrap()
    }

    #[test]
    fn cards_read_and_write_in_the_format() {
        assert_eq!(card("d3"), Card::DIAMOND_3);
        assert_eq!(card("ct"), Card::parse("c10").unwrap());
        assert_eq!(card("s2"), Card::parse("s2").unwrap());
        assert_eq!(card("jo"), Card::JOKER);
        assert!(card_from_text("x3").is_err());
        assert!(card_from_text("d1").is_err());
        let set = CardSet::from_cards([card("s5"), card("d5"), card("h3"), card("d3"), card("jo")]);
        assert_eq!(cards_text(set), "{ d3 h3 d5 s5 jo }");
    }

    #[test]
    fn plays_round_trip_through_their_tables() {
        for text in [
            "p",
            "jk",
            "s-q",
            "dh-3",
            "cd-7(c)",
            "cdhs-9",
            "d-tjq",
            "s-345(4)",
            "h-ka2(a)",
            "d--34(-)",
            "c-ka2+(+)",
            "cdhsx-7(cdhsx)",
        ] {
            let table = play_from_text(text).unwrap();
            assert_eq!(play_text(&table).unwrap(), text, "{text}");
        }
    }

    #[test]
    fn plays_decode_to_the_cards_they_name() {
        let table = play_from_text("cd-7(c)[388784]").unwrap();
        assert_eq!(table[2][5], 1, "♦7 natural");
        assert_eq!(table[3][5], 2, "the joker as ♣7");
        let play = codec::decode_play(&table).unwrap().unwrap();
        assert!(play.cards().contains(Card::JOKER));
        assert_eq!(play.declared().collect::<Vec<_>>(), [card("c7")]);
        let seq = play_from_text("d-tjq").unwrap();
        assert_eq!((seq[2][8], seq[2][9], seq[2][10]), (1, 1, 1));
        assert!(
            play_from_text("x-3").is_err(),
            "the fifth suit only in a group of five"
        );
        assert!(
            play_from_text("cdsx-3").is_err(),
            "a group of five has the four suits"
        );
        assert!(
            play_from_text("cdhsx-34").is_err(),
            "a group of five has one rank"
        );
        let five = codec::decode_play(&play_from_text("cdhsx-a(x)").unwrap())
            .unwrap()
            .unwrap();
        assert!(five.is_group_of_five());
        assert_eq!(
            play_text(&codec::play_table(&five, false, 0)).unwrap(),
            "cdhsx-a(cdhsx)"
        );
        let below = codec::decode_play(&play_from_text("s--34(-)").unwrap())
            .unwrap()
            .unwrap();
        assert!(below.is_past_the_ends());
        assert_eq!(below.low_position(), 0);
        assert!(play_from_text("s-35").is_err(), "a gap");
        assert!(play_from_text("zz").is_err());
    }

    const SAMPLE: &str = "player a b c d e\n/* \nscore \nclass 0 1 2 3 4 \nseat 4 2 3 0 1 \n\
        dealt { d3 } { d4 } { c4 } { h5 } { c3 } \nchanged { } { } { } { } { } \n\
        original { d3 } { d4 } { c4 } { h5 } { c3 } \nplay dh-3[287] p cd-7(c)[1] \n\
        result 4 0 1 2 3 \n*/ \n";

    #[test]
    fn a_record_parses_field_by_field() {
        let record = parse_record(SAMPLE).unwrap();
        assert_eq!(record.names, ["a", "b", "c", "d", "e"]);
        let game = &record.games[0];
        assert_eq!(game.seats, [4, 2, 3, 0, 1]);
        assert_eq!(game.result, [4, 0, 1, 2, 3]);
        assert_eq!(game.dealt[0], CardSet::single(Card::DIAMOND_3));
        assert!(game.changed.iter().all(|c| c.is_empty()));
        assert_eq!(game.plays.len(), 3);
        assert!(codec::is_pass(&game.plays[1]));
        let again = parse_record(&(header(&record.names) + &game.to_text())).unwrap();
        assert_eq!(again, record, "written and read back");
    }

    #[test]
    fn broken_records_name_the_game_and_field() {
        let unreadable = |text: String| {
            let record = parse_record(&text).unwrap();
            assert!(record.games.is_empty());
            let (number, reason) = record.unreadable[0].clone();
            format!("game {number}: {reason}")
        };
        let err = unreadable(SAMPLE.replace("seat 4 2 3 0 1", "seat 4 2 3 0"));
        assert!(err.contains("game 1") && err.contains("seat"), "{err}");
        let err = unreadable(SAMPLE.replace("{ d4 }", "{ d4 "));
        assert!(err.contains("dealt"), "{err}");
        let err = unreadable(SAMPLE.replace("cd-7(c)", "cdsx-7(x)"));
        assert!(err.contains("play 3") && err.contains("five"), "{err}");
        let record = parse_record(&SAMPLE.replace("cd-7(c)", "cdsx-7(x)")).unwrap();
        assert_eq!(
            check(&record).problems.len(),
            1,
            "an unreadable game is a disagreement"
        );
        let err = parse_record(&SAMPLE.replace("*/", "")).unwrap_err();
        assert_eq!(err, RecordError::Unclosed { game: 1 });
        assert!(err.to_string().contains("*/"), "{err}");
    }

    #[test]
    fn a_deal_that_is_not_the_deck_is_a_disagreement() {
        let record = parse_record(SAMPLE).unwrap();
        let report = check(&record);
        assert_eq!(report.problems.len(), 1);
        assert!(
            report.problems[0].contains("the deal"),
            "{:?}",
            report.problems
        );
    }
}
