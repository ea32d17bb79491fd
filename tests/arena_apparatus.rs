//! The arena apparatus is checked before any bot is: an all-same lineup differs by
//! exactly zero, weak baselines lose to easy with intervals excluding zero, and results
//! do not depend on the thread count.

use climbot::arena::{ArenaConfig, Runner, run};
use climbot::daifugo::Daifugo;
use climbot::dalmuti::Dalmuti;
use climbot::lexio::{Lexio, PlayerCount};

fn config(lineup: &[&str], blocks: u64) -> ArenaConfig {
    ArenaConfig {
        lineup: lineup.iter().map(|s| s.to_string()).collect(),
        blocks,
        seed: 7,
        sprt: None,
    }
}

const LEXIO5: Runner<Lexio> = Runner {
    players: 5,
    units: 5,
    rules: (),
    remote: None,
};

#[test]
fn an_all_same_lineup_differs_by_exactly_zero() {
    for players in PlayerCount::ALL {
        let runner = Runner::<Lexio>::new(players.count(), 5, (), None).unwrap();
        let report = run(&runner, &config(&["easy"], 12)).unwrap();
        let diff = report.diff.expect("two entrants");
        assert_eq!(
            (diff.mean, diff.lo, diff.hi),
            (0.0, 0.0, 0.0),
            "{players:?}"
        );
    }
}

#[test]
fn baselines_lose_to_easy_in_lexio() {
    for weak in ["singles", "random"] {
        let report = run(&LEXIO5, &config(&[weak, "easy"], 30)).unwrap();
        let diff = report.diff.unwrap();
        assert!(diff.hi < 0.0, "{weak} vs easy: {diff:?}");
    }
}

#[test]
fn the_json_lists_the_difference_of_every_block() {
    let report = run(&LEXIO5, &config(&["random", "easy"], 6)).unwrap();
    let json = report.to_json();
    let per_block: Vec<f64> = json["diff"]["per_block"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(per_block.len(), 6);
    let mean = per_block.iter().sum::<f64>() / 6.0;
    assert!(
        (mean - json["diff"]["mean"].as_f64().unwrap()).abs() < 1e-12,
        "{json}"
    );
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let three = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let cfg = config(&["random", "easy"], 9);
    let a = one.install(|| run(&LEXIO5, &cfg)).unwrap();
    let b = three.install(|| run(&LEXIO5, &cfg)).unwrap();
    let strip = |r: &climbot::arena::ArenaReport| {
        r.bots
            .iter()
            .map(|(l, b)| {
                (
                    l.clone(),
                    b.metrics
                        .iter()
                        .map(|(n, m)| (n.clone(), m.mean, m.lo, m.hi))
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&a), strip(&b));
    assert_eq!(a.diff, b.diff);
}

#[test]
fn dalmuti_all_same_is_zero_and_baselines_lose() {
    let runner = Runner::<Dalmuti> {
        players: 5,
        units: 10,
        rules: (),
        remote: None,
    };
    let same = run(&runner, &config(&["easy"], 6)).unwrap().diff.unwrap();
    assert_eq!((same.mean, same.lo, same.hi), (0.0, 0.0, 0.0));
    for weak in ["singles", "random"] {
        let diff = run(&runner, &config(&[weak, "easy"], 8))
            .unwrap()
            .diff
            .unwrap();
        // Places: lower is better, so the weak bot's difference is above zero.
        assert!(diff.lo > 0.0, "{weak} vs easy: {diff:?}");
    }
}

#[test]
fn daifugo_all_same_is_zero_and_baselines_lose() {
    use climbot::daifugo::rules::RuleSet;
    for rules in [RuleSet::house(), RuleSet::uecda()] {
        let runner = Runner::<Daifugo> {
            players: 4,
            units: 6,
            rules,
            remote: None,
        };
        let same = run(&runner, &config(&["easy"], 6)).unwrap().diff.unwrap();
        assert_eq!((same.mean, same.lo, same.hi), (0.0, 0.0, 0.0));
    }
    let runner = Runner::<Daifugo> {
        players: 4,
        units: 8,
        rules: RuleSet::house(),
        remote: None,
    };
    for weak in ["singles", "random"] {
        let diff = run(&runner, &config(&[weak, "easy"], 20))
            .unwrap()
            .diff
            .unwrap();
        assert!(diff.lo > 0.0, "{weak} vs easy: {diff:?}");
    }
}

#[test]
fn the_sequential_test_stops_once_the_answer_is_clear() {
    use climbot::arena::Sprt;
    let sprt = Sprt {
        delta: -5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let mut cfg = config(&["random", "easy"], 400);
    cfg.sprt = Some(sprt);
    let report = run(&LEXIO5, &cfg).unwrap();
    let outcome = report.sprt.expect("a verdict");
    assert_eq!(outcome.verdict, "H1", "{outcome:?}");
    assert!(
        report.blocks < 400,
        "stopped early: {} blocks",
        report.blocks
    );
    // The apparatus itself: an all-same lineup accepts "no difference".
    let mut same = config(&["easy"], 400);
    same.sprt = Some(Sprt {
        delta: 1.0,
        alpha: 0.05,
        beta: 0.05,
    });
    let report = run(&LEXIO5, &same).unwrap();
    assert_eq!(report.sprt.unwrap().verdict, "H0");
}
