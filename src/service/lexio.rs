//! Lexio on the wire: `pb::LexioView` -> `lexio::LexioView` and `lexio::Action` ->
//! `pb::LexioDecision`. Only wire shapes are checked here (a suit outside the enum, a
//! number that is no tile); every game rule is checked by `LexioView::new`, whose
//! field names match the proto's and get the `view.lexio.` prefix.

use crate::game::GameKind;
use crate::lexio::{
    Action, Category, Lexio, LexioView, LogEntry, PlayTiles, SeatCount, Suit, TableInput, Tile,
    ViewInput,
};
use crate::pb;
use crate::service::error::ServiceError;
use crate::service::fast_lane::Reader;
use crate::service::game::{WireGame, read_each};

const PREFIX: &str = "view.lexio";

/// Converts and validates a wire view.
pub fn decode(view: pb::LexioView) -> Result<LexioView, ServiceError> {
    validate(view_input(view)?)
}

/// A wire view in the domain's input shape; only the wire shapes are checked (a suit
/// outside the enum, a number that is no tile).
pub fn view_input(view: pb::LexioView) -> Result<ViewInput, ServiceError> {
    let hand = tiles(&view.hand, || "hand".into())?;
    let table = match &view.table {
        None => None,
        Some(table) => Some(TableInput {
            owner: table.owner,
            tiles: tiles(&table.tiles, || "table.tiles".into())?,
        }),
    };
    let played = tiles(&view.played, || "played".into())?;
    let seats = view
        .seats
        .iter()
        .map(|s| SeatCount {
            tile_count: s.tile_count,
        })
        .collect();
    let log = read_each(&view.log, |i, entry| {
        if entry.tiles.is_empty() {
            Ok(LogEntry::Pass { seat: entry.seat })
        } else {
            Ok(LogEntry::Play {
                seat: entry.seat,
                tiles: tiles(&entry.tiles, || format!("log[{i}].tiles"))?,
            })
        }
    })?;
    Ok(ViewInput {
        player_count: view.player_count,
        seat: view.seat,
        hand,
        table,
        seats,
        played,
        log,
        round: view.round,
        scores: view.scores,
    })
}

/// Validates a view read off the wire (by [`decode`] or by the fast lane).
pub fn validate(input: ViewInput) -> Result<LexioView, ServiceError> {
    LexioView::new(input).map_err(ServiceError::invalid_view::<Lexio>)
}

/// A `LexioView` read straight from its bytes by SelectPlay's fast lane, exactly as
/// [`decode`] would read prost's message; `None` on anything unexpected (see
/// `fast_lane`), including a tile [`decode`] would refuse, so that errors come from
/// [`decode`].
pub(crate) fn parse_view(mut r: Reader<'_>) -> Option<ViewInput> {
    let mut v = ViewInput {
        hand: Vec::with_capacity(16),
        played: Vec::with_capacity(64),
        seats: Vec::with_capacity(5),
        // 16 entries of 32 bytes stay below the allocator's large requests (1 KiB and
        // up), which make glibc consolidate its free small blocks first: at 64, that
        // showed in every call's profile.
        log: Vec::with_capacity(16),
        scores: Vec::with_capacity(5),
        ..ViewInput::default()
    };
    while r.has_more() {
        let (field, wire_type) = r.key()?;
        // The casts truncate as prost does for these field types.
        match field {
            1 => v.player_count = r.varint_field(wire_type)? as u32,
            2 => v.seat = r.varint_field(wire_type)? as u32,
            3 => v.hand.push(parse_tile(r.bytes_field(wire_type)?)?),
            5 => {
                let mut seat = r.bytes_field(wire_type)?;
                let mut count = SeatCount::default();
                while seat.has_more() {
                    match seat.key()? {
                        (1, w) => count.tile_count = seat.varint_field(w)? as u32,
                        _ => return None,
                    }
                }
                v.seats.push(count);
            }
            6 => v.played.push(parse_tile(r.bytes_field(wire_type)?)?),
            7 => {
                let mut entry = r.bytes_field(wire_type)?;
                // A play's tiles are held inline: no allocation per entry.
                let (mut seat, mut tiles) = (0, PlayTiles::new());
                while entry.has_more() {
                    match entry.key()? {
                        (1, w) => seat = entry.varint_field(w)? as u32,
                        (2, w) => tiles.push(parse_tile(entry.bytes_field(w)?)?),
                        _ => return None,
                    }
                }
                v.log.push(if tiles.is_empty() {
                    LogEntry::Pass { seat }
                } else {
                    LogEntry::Play { seat, tiles }
                });
            }
            8 => v.round = r.varint_field(wire_type)? as u32,
            // A singular message: sent twice, protobuf merges the two, so prost reads it.
            10 if v.table.is_none() => {
                let mut table = r.bytes_field(wire_type)?;
                let mut input = TableInput {
                    owner: None,
                    tiles: PlayTiles::new(),
                };
                while table.has_more() {
                    match table.key()? {
                        (1, w) => input.owner = Some(table.varint_field(w)? as u32),
                        (2, w) => input.tiles.push(parse_tile(table.bytes_field(w)?)?),
                        _ => return None,
                    }
                }
                v.table = Some(input);
            }
            // Packed (the proto3 default) or one value per key: prost takes both.
            9 if wire_type == 0 => v.scores.push(r.varint()? as i64),
            9 => {
                let mut packed = r.bytes_field(wire_type)?;
                while packed.has_more() {
                    v.scores.push(packed.varint()? as i64);
                }
            }
            _ => return None,
        }
    }
    Some(v)
}

/// One `LexioTile` message, `None` unless it is a tile.
#[inline]
fn parse_tile(mut r: Reader<'_>) -> Option<Tile> {
    // A tile as prost writes it: `number` then `suit`, each a one-byte varint. Read
    // without the field loop; anything else takes the loop below.
    if let [0x08, number, 0x10, suit] = *r.rest()
        && number < 0x80
        && suit < 0x80
    {
        return tile_of(number, suit);
    }
    let mut wire = pb::LexioTile::default();
    while r.has_more() {
        match r.key()? {
            (1, w) => wire.number = r.varint_field(w)? as u32,
            (2, w) => wire.suit = r.varint_field(w)? as i32,
            _ => return None,
        }
    }
    tile(&wire, &String::new).ok()
}

/// The tile of a one-byte number and suit as [`tile`] reads them, `None` where it
/// refuses them.
#[inline]
fn tile_of(number: u8, suit: u8) -> Option<Tile> {
    let suit = match suit {
        1 => Suit::Cloud,
        2 => Suit::Star,
        3 => Suit::Moon,
        4 => Suit::Sun,
        _ => return None,
    };
    Tile::new(number, suit)
}

/// The tiles of a repeated field; `field` names it (only built for an error).
fn tiles<T: FromIterator<Tile>>(
    wire: &[pb::LexioTile],
    field: impl Fn() -> String,
) -> Result<T, ServiceError> {
    wire.iter()
        .enumerate()
        .map(|(i, t)| tile(t, &|| format!("{PREFIX}.{}[{i}]", field())))
        .collect()
}

/// One wire tile; `path` names it (only built for an error).
fn tile(wire: &pb::LexioTile, path: &dyn Fn() -> String) -> Result<Tile, ServiceError> {
    let suit = match pb::LexioSuit::try_from(wire.suit) {
        Ok(pb::LexioSuit::Cloud) => Suit::Cloud,
        Ok(pb::LexioSuit::Star) => Suit::Star,
        Ok(pb::LexioSuit::Moon) => Suit::Moon,
        Ok(pb::LexioSuit::Sun) => Suit::Sun,
        Ok(pb::LexioSuit::Unspecified) => {
            return Err(ServiceError::invalid(
                format!("{}.suit", path()),
                "suit is unspecified (expected LEXIO_SUIT_CLOUD, LEXIO_SUIT_STAR, \
                 LEXIO_SUIT_MOON or LEXIO_SUIT_SUN)",
            ));
        }
        Err(_) => {
            return Err(ServiceError::invalid(
                format!("{}.suit", path()),
                format!("unknown suit {} (expected 1..=4)", wire.suit),
            ));
        }
    };
    u8::try_from(wire.number)
        .ok()
        .and_then(|n| Tile::new(n, suit))
        .ok_or_else(|| {
            ServiceError::invalid(
                format!("{}.number", path()),
                format!("number {} is out of range 1..=15", wire.number),
            )
        })
}

fn tile_to_wire(tile: Tile) -> pb::LexioTile {
    let suit = match tile.suit() {
        Suit::Cloud => pb::LexioSuit::Cloud,
        Suit::Star => pb::LexioSuit::Star,
        Suit::Moon => pb::LexioSuit::Moon,
        Suit::Sun => pb::LexioSuit::Sun,
    };
    pb::LexioTile {
        number: u32::from(tile.number()),
        suit: suit as i32,
    }
}

fn category_to_wire(category: Category) -> pb::LexioCombination {
    match category {
        Category::Single => pb::LexioCombination::Single,
        Category::Pair => pb::LexioCombination::Pair,
        Category::Triple => pb::LexioCombination::Triple,
        Category::Straight => pb::LexioCombination::Straight,
        Category::Flush => pb::LexioCombination::Flush,
        Category::FullHouse => pb::LexioCombination::FullHouse,
        Category::FourPlusOne => pb::LexioCombination::FourPlusOne,
        Category::StraightFlush => pb::LexioCombination::StraightFlush,
    }
}

/// A validated view back on the wire (for clients written in Rust: the arena's `--via`
/// and the load-test payloads). Decoding the result gives the same view.
pub fn view_to_wire(view: &LexioView) -> pb::LexioView {
    let tiles = |set: crate::lexio::TileSet| set.iter().map(tile_to_wire).collect::<Vec<_>>();
    pb::LexioView {
        player_count: view.players().count() as u32,
        seat: view.seat() as u32,
        hand: tiles(view.hand()),
        table: view.trick().map(|(play, owner)| pb::LexioTable {
            owner: Some(owner as u32),
            tiles: tiles(play.tiles()),
        }),
        seats: view
            .counts()
            .iter()
            .map(|&c| pb::LexioSeat {
                tile_count: u32::from(c),
            })
            .collect(),
        played: tiles(view.played()),
        log: view
            .log()
            .iter()
            .map(|entry| pb::LexioLogEntry {
                seat: u32::from(entry.seat),
                tiles: match entry.action {
                    Action::Pass => Vec::new(),
                    Action::Play(c) => tiles(c.tiles()),
                },
            })
            .collect(),
        round: view.round(),
        scores: view.scores().to_vec(),
    }
}

/// One seat's own part of a round in play, on the wire, for a page that follows the
/// seat between its turns: a view holding only the player count, the seat, its hand,
/// every seat's tile count, the round and the scores (the rest is left empty).
pub fn own_part_to_wire(round: &crate::lexio::referee::Round, seat: usize) -> pb::LexioView {
    let players = round.players().count();
    pb::LexioView {
        player_count: players as u32,
        seat: seat as u32,
        hand: round.hand(seat).iter().map(tile_to_wire).collect(),
        seats: (0..players)
            .map(|s| pb::LexioSeat {
                tile_count: round.hand(s).len() as u32,
            })
            .collect(),
        round: round.round(),
        scores: round.scores()[..players].to_vec(),
        ..Default::default()
    }
}

/// A wire decision read back against the view it answers: `None` unless it is legal
/// there.
pub fn action_from_wire(view: &LexioView, decision: &pb::LexioDecision) -> Option<Action> {
    let decoded = match decision.decision.as_ref()? {
        pb::lexio_decision::Decision::Pass(_) => Action::Pass,
        pb::lexio_decision::Decision::Play(play) => {
            let set = play
                .tiles
                .iter()
                .map(|t| tile(t, &|| "decision.lexio.play.tiles".into()).ok())
                .collect::<Option<crate::lexio::TileSet>>()?;
            Action::Play(crate::lexio::classify(view.players(), set)?)
        }
    };
    view.is_legal(decoded).then_some(decoded)
}

/// A domain action on the wire.
pub fn action_to_wire(action: &Action) -> pb::LexioDecision {
    let decision = match action {
        Action::Pass => pb::lexio_decision::Decision::Pass(pb::LexioPass {}),
        Action::Play(combo) => pb::lexio_decision::Decision::Play(pb::LexioPlay {
            tiles: combo.tiles().iter().map(tile_to_wire).collect(),
            combination: category_to_wire(combo.category()) as i32,
        }),
    };
    pb::LexioDecision {
        decision: Some(decision),
    }
}

impl WireGame for Lexio {
    const KIND: GameKind = GameKind::Lexio;

    fn view_to_wire(view: &LexioView) -> pb::game_view::Game {
        pb::game_view::Game::Lexio(view_to_wire(view))
    }

    fn decision_to_wire(decision: &Action) -> pb::decision::Game {
        pb::decision::Game::Lexio(action_to_wire(decision))
    }

    fn decision_from_wire(view: &LexioView, decision: &pb::decision::Game) -> Option<Action> {
        match decision {
            pb::decision::Game::Lexio(action) => action_from_wire(view, action),
            _ => None,
        }
    }

    fn legal_decisions_to_wire(decisions: &[Action]) -> pb::list_legal_plays_response::Game {
        pb::list_legal_plays_response::Game::Lexio(pb::LexioLegalPlays {
            decisions: decisions.iter().map(action_to_wire).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexio::PlayerCount;
    use crate::lexio::bots::easy_action;
    use crate::lexio::referee::{Round, deal};

    #[test]
    fn the_four_byte_tile_reads_as_the_field_loop() {
        for number in 0..0x80u8 {
            for suit in 0..0x80u8 {
                let bytes = [0x08, number, 0x10, suit];
                let wire = pb::LexioTile {
                    number: u32::from(number),
                    suit: i32::from(suit),
                };
                assert_eq!(
                    parse_tile(Reader::new(&bytes)),
                    tile(&wire, &String::new).ok(),
                    "{bytes:?}"
                );
            }
        }
    }

    #[test]
    fn views_round_trip_through_the_wire() {
        let players = PlayerCount::Four;
        let mut round = Round::new(players, deal(players, 21), 2, [3, -1, -1, -1, 0]);
        for _ in 0..30 {
            let view = round.view().unwrap();
            let wire = view_to_wire(&view);
            let back = decode(wire).unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(back, view);
            let action = easy_action(players, view.hand(), view.table());
            assert_eq!(
                action_from_wire(&view, &action_to_wire(&action)),
                Some(action)
            );
            if round.apply(action).unwrap() {
                break;
            }
        }
    }
}
