//! Tile notation shared by the Lexio integration tests: a suit letter (c = cloud,
//! s = star, m = moon, u = sun) followed by the number, e.g. `c3 u2 m15`.

#![allow(dead_code)]

use climbot_core::lexio::{Suit, Tile, TileSet};

/// Parses one tile, e.g. `u12`.
pub fn parse_tile(text: &str) -> Tile {
    let (suit, number) = text.split_at(1);
    let suit = match suit {
        "c" => Suit::Cloud,
        "s" => Suit::Star,
        "m" => Suit::Moon,
        "u" => Suit::Sun,
        other => panic!("bad suit letter {other:?} in {text:?}"),
    };
    Tile::new(number.parse().expect("number"), suit).expect("number in 1..=15")
}

/// Parses a space-separated list of tiles; `-` is the empty set.
pub fn parse_set(text: &str) -> TileSet {
    let text = text.trim();
    if text == "-" {
        return TileSet::EMPTY;
    }
    text.split_whitespace().map(parse_tile).collect()
}

/// Formats a set in the same notation.
pub fn format_set(set: TileSet) -> String {
    if set.is_empty() {
        return "-".into();
    }
    set.iter()
        .map(|t| {
            format!(
                "{}{}",
                ["c", "s", "m", "u"][t.suit().index() as usize],
                t.number()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
