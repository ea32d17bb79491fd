//! Lexio: tiles, combinations, move generation, referee, view and bots.
