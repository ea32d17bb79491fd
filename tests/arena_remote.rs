//! The arena's `--via` mode: decisions through a real server give the same results as
//! the in-process run with the same seeds.

mod common;

use climbot::arena::remote::Remote;
use climbot::arena::{ArenaConfig, LexioRunner, run};
use climbot::lexio::PlayerCount;
use std::sync::Arc;

#[test]
fn remote_results_equal_in_process_results() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut server = runtime.block_on(common::start(common::test_config()));
    let url = format!("http://{}", server.addr);
    let config = ArenaConfig {
        lineup: vec!["random".into(), "easy".into()],
        blocks: 3,
        seed: 11,
        sprt: None,
    };
    let local = run(&LexioRunner::new(PlayerCount::Four, 2), &config).unwrap();
    let remote = Arc::new(Remote::connect(&url).unwrap());
    let runner = LexioRunner {
        remote: Some(remote.clone()),
        ..LexioRunner::new(PlayerCount::Four, 2)
    };
    let via = run(&runner, &config).unwrap();
    assert_eq!(remote.error(), None);
    let means = |r: &climbot::arena::ArenaReport| {
        r.bots
            .iter()
            .map(|(l, b)| {
                (
                    l.clone(),
                    b.metrics
                        .iter()
                        .map(|(n, m)| (n.clone(), m.mean))
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(means(&local), means(&via));
    assert_eq!(local.diff, via.diff);
    server.begin_shutdown();
    runtime.block_on(server.stopped()).unwrap();
}

#[test]
fn remote_dalmuti_results_equal_in_process_results() {
    use climbot::arena::DalmutiRunner;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut server = runtime.block_on(common::start(common::test_config()));
    let url = format!("http://{}", server.addr);
    let config = ArenaConfig {
        lineup: vec!["singles".into(), "easy".into()],
        blocks: 2,
        seed: 5,
        sprt: None,
    };
    let runner = DalmutiRunner {
        players: 4,
        hands: 3,
        remote: None,
    };
    let local = run(&runner, &config).unwrap();
    let remote = Arc::new(Remote::connect(&url).unwrap());
    let via = run(
        &DalmutiRunner {
            remote: Some(remote.clone()),
            ..runner
        },
        &config,
    )
    .unwrap();
    assert_eq!(remote.error(), None);
    assert_eq!(local.diff, via.diff);
    assert_eq!(
        local.bots.iter().map(|(_, b)| b.mean).collect::<Vec<_>>(),
        via.bots.iter().map(|(_, b)| b.mean).collect::<Vec<_>>()
    );
    server.begin_shutdown();
    runtime.block_on(server.stopped()).unwrap();
}

#[test]
fn remote_daifugo_results_equal_in_process_results() {
    use climbot::arena::DaifugoRunner;
    use climbot::daifugo::rules::RuleSet;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut server = runtime.block_on(common::start(common::test_config()));
    let url = format!("http://{}", server.addr);
    let config = ArenaConfig {
        lineup: vec!["random".into(), "easy".into()],
        blocks: 2,
        seed: 9,
        sprt: None,
    };
    for rules in [RuleSet::house(), RuleSet::uecda()] {
        let runner = DaifugoRunner {
            players: 4,
            games: 3,
            rules,
            remote: None,
        };
        let local = run(&runner, &config).unwrap();
        let remote = Arc::new(Remote::connect(&url).unwrap());
        let via = run(
            &DaifugoRunner {
                remote: Some(remote.clone()),
                ..runner
            },
            &config,
        )
        .unwrap();
        assert_eq!(remote.error(), None);
        assert_eq!(local.diff, via.diff);
        assert_eq!(
            local.bots.iter().map(|(_, b)| b.mean).collect::<Vec<_>>(),
            via.bots.iter().map(|(_, b)| b.mean).collect::<Vec<_>>()
        );
    }
    server.begin_shutdown();
    runtime.block_on(server.stopped()).unwrap();
}
