//! The arena's `--via` mode: decisions through a real server give the same results as
//! the in-process run with the same seeds, in every game, EXPERT's search included (it
//! asks the server for the local bot's playout count).

mod common;

use climbot::arena::remote::Remote;
use climbot::arena::{ArenaConfig, ArenaReport, GameRunner, Runner, run};
use climbot::daifugo::Daifugo;
use climbot::daifugo::rules::RuleSet;
use climbot::dalmuti::Dalmuti;
use climbot::lexio::Lexio;
use std::sync::Arc;

/// Every bot's metric means, by label.
fn means(report: &ArenaReport) -> Vec<(String, Vec<(String, f64)>)> {
    report
        .bots
        .iter()
        .map(|(label, b)| {
            let metrics = b.metrics.iter().map(|(n, m)| (n.clone(), m.mean)).collect();
            (label.clone(), metrics)
        })
        .collect()
}

/// Runs `lineup` in-process and through a real server (`runner(None)` and
/// `runner(Some(remote))`) and asserts identical results and no remote failure.
fn assert_remote_equals_local(
    lineup: &[&str],
    seed: u64,
    runner: impl Fn(Option<Arc<Remote>>) -> Box<dyn GameRunner>,
) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut server = runtime.block_on(common::start(common::test_config()));
    let config = ArenaConfig {
        lineup: lineup.iter().map(|s| s.to_string()).collect(),
        blocks: 2,
        seed,
        sprt: None,
    };
    let local = run(runner(None).as_ref(), &config).unwrap();
    let remote = Arc::new(Remote::connect(&format!("http://{}", server.addr)).unwrap());
    let via = run(runner(Some(remote.clone())).as_ref(), &config).unwrap();
    assert_eq!(remote.error(), None);
    assert_eq!(means(&local), means(&via));
    assert_eq!(local.diff, via.diff);
    server.begin_shutdown();
    runtime.block_on(server.stopped()).unwrap();
}

#[test]
fn remote_lexio_results_equal_in_process_results() {
    assert_remote_equals_local(&["random", "easy"], 11, |remote| {
        Box::new(Runner::<Lexio> {
            players: 4,
            units: 2,
            rules: (),
            remote,
        })
    });
}

#[test]
fn remote_dalmuti_results_equal_in_process_results() {
    assert_remote_equals_local(&["singles", "easy"], 5, |remote| {
        Box::new(Runner::<Dalmuti> {
            players: 4,
            units: 3,
            rules: (),
            remote,
        })
    });
}

#[test]
fn remote_daifugo_results_equal_in_process_results() {
    for rules in [RuleSet::house(), RuleSet::uecda()] {
        assert_remote_equals_local(&["random", "easy"], 9, |remote| {
            Box::new(Runner::<Daifugo> {
                players: 4,
                units: 3,
                rules,
                remote,
            })
        });
    }
}

#[test]
fn remote_expert_results_equal_in_process_results() {
    assert_remote_equals_local(&["expert", "easy"], 13, |remote| {
        Box::new(Runner::<Lexio> {
            players: 4,
            units: 1,
            rules: (),
            remote,
        })
    });
}
