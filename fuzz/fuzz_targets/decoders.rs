//! libFuzzer target: any bytes as a SelectPlay (and ListLegalPlays) request, through
//! the fast lane, prost, every game's validation, the legal plays and the EASY
//! decision. A panic is a finding.
#![no_main]

#[path = "../../tests/support/fuzz.rs"]
mod fuzz;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fuzz::exercise(data, false);
});
