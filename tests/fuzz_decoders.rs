//! The service's decoders and validators under a structure-aware mutation fuzzer
//! (`tests/support/fuzz.rs`): requests of every game damaged field by field and byte by
//! byte, sent through the fast lane, prost, validation, the legal plays and the EASY
//! decision. Nothing may panic.
//!
//! The long run: `CLIMBOT_FUZZ_INPUTS=10000000 cargo test --release --test fuzz_decoders
//! -- --ignored --nocapture` (two threads; prints executions, rates and findings).

#[path = "support/fuzz.rs"]
mod fuzz;

use std::time::Instant;

#[test]
fn mutated_requests_never_panic() {
    let mut mutator = fuzz::Mutator::new(fuzz::corpus(2), 1);
    for i in 0..5_000u64 {
        fuzz::exercise(&mutator.next_input(), i % fuzz::HARD_EVERY == 0);
    }
}

/// Writes the seed requests for cargo-fuzz (`fuzz/`): every game's load-test views.
#[test]
#[ignore = "writes files: the cargo-fuzz seed corpus"]
fn write_seed_corpus() {
    let dir = std::env::var("CLIMBOT_FUZZ_CORPUS").unwrap_or("fuzz/corpus/decoders".into());
    std::fs::create_dir_all(&dir).unwrap();
    for (i, bytes) in fuzz::corpus(16).iter().enumerate() {
        std::fs::write(format!("{dir}/seed-{i:03}"), bytes).unwrap();
    }
}

#[test]
#[ignore = "the long run: tens of minutes"]
fn long_fuzz_run() {
    let inputs: u64 = std::env::var("CLIMBOT_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let threads = 2u64;
    let corpus = fuzz::corpus(16);
    let t0 = Instant::now();
    let findings: Vec<(u64, u64, u64, u64, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let corpus = corpus.clone();
                scope.spawn(move || {
                    let mut mutator = fuzz::Mutator::new(corpus, 0xF022 + t);
                    let (mut decoded, mut valid, mut fast) = (0u64, 0u64, 0u64);
                    let mut found = Vec::new();
                    let n = inputs / threads;
                    for i in 0..n {
                        let input = mutator.next_input();
                        let hard = i % fuzz::HARD_EVERY == 0;
                        match std::panic::catch_unwind(|| fuzz::exercise(&input, hard)) {
                            Ok(r) => {
                                decoded += u64::from(r.decoded);
                                valid += u64::from(r.valid);
                                fast += u64::from(r.fast_lane);
                            }
                            Err(_) => {
                                let hex: String =
                                    input.iter().map(|b| format!("{b:02x}")).collect();
                                eprintln!("FINDING (thread {t}, input {i}): {hex}");
                                found.push(hex);
                            }
                        }
                        if t == 0 && i > 0 && i % 1_000_000 == 0 {
                            eprintln!(
                                "{} inputs in {:.0} s",
                                i * threads,
                                t0.elapsed().as_secs_f64()
                            );
                        }
                    }
                    (n, decoded, valid, fast, found)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let seconds = t0.elapsed().as_secs_f64();
    let total: u64 = findings.iter().map(|f| f.0).sum();
    let decoded: u64 = findings.iter().map(|f| f.1).sum();
    let valid: u64 = findings.iter().map(|f| f.2).sum();
    let fast: u64 = findings.iter().map(|f| f.3).sum();
    let found: Vec<&String> = findings.iter().flat_map(|f| &f.4).collect();
    eprintln!(
        "{total} inputs in {seconds:.0} s ({:.0}/s, {threads} threads): {decoded} read by \
         prost, {fast} by the fast lane, {valid} valid views (decided EASY, one in {} \
         also HARD); {} findings",
        total as f64 / seconds,
        fuzz::HARD_EVERY,
        found.len()
    );
    assert!(found.is_empty(), "{} inputs panicked", found.len());
}
