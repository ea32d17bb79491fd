//! The learned policies of every game: their features read only what the acting seat
//! may know, the shipped weights fit their feature sets, the policy bot and the search
//! with learned playouts play only legal decisions, the search's playout switches parse
//! as documented, and `climbot train` writes weights that read back and predict the
//! teacher better than chance.

use climbot::arena::ArenaGame;
use climbot::bot::DecisionContext;
use climbot::daifugo::Daifugo;
use climbot::daifugo::rules::RuleSet;
use climbot::dalmuti::Dalmuti;
use climbot::game::{Game, Policy};
use climbot::learn::fit::evaluate;
use climbot::learn::{FeatureRows, Learnable, LinearPolicy, Recorder, check_shipped};
use climbot::lexio::Lexio;
use climbot::search::PlayoutPolicy;
use climbot::search::expert::by_name as expert_by_name;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Plays as `inner` and checks, at every decision with a position, that two deals
/// drawn with different seeds give the same legal decisions and the same features.
struct SameFeaturesInEveryDeal<'a, G: Game> {
    inner: &'a dyn Policy<G>,
    checked: AtomicUsize,
}

impl<G: Learnable> Policy<G> for SameFeaturesInEveryDeal<'_, G> {
    fn name(&self) -> &'static str {
        "checker"
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let seed = G::fingerprint(view);
        let rows = |salt: u64| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ salt);
            let deal = G::deal(view, &mut rng);
            G::position(view, &deal).map(|position| {
                let mut decisions = Vec::new();
                G::legal_actions(&position, &mut decisions);
                let mut rows = FeatureRows::new();
                G::features(&position, &decisions, &mut rows);
                (decisions, rows)
            })
        };
        let (a, b) = (rows(1), rows(0x9e37_79b9));
        assert_eq!(a, b, "the features of {view:?} depend on the hidden hands");
        if let Some((decisions, rows)) = a {
            assert_eq!(decisions, G::legal_decisions(view));
            assert_eq!(rows.len(), decisions.len());
            let bound = G::FEATURES.len() as u32;
            assert!(
                rows.ids.iter().all(|&i| i < bound),
                "a feature out of range"
            );
            self.checked.fetch_add(1, Ordering::Relaxed);
        }
        self.inner.decide(view, ctx)
    }
}

fn features_are_deal_independent<G: ArenaGame + Learnable>(
    rules: &G::Rules,
    players: &[usize],
    bots: &[&str],
) {
    let mut checked = 0;
    for (i, &p) in players.iter().enumerate() {
        for (k, name) in bots.iter().enumerate() {
            let bot = G::bot(name).expect("a bot");
            let checker = SameFeaturesInEveryDeal::<G> {
                inner: bot.as_ref(),
                checked: AtomicUsize::new(0),
            };
            let seats: Vec<&dyn Policy<G>> = vec![&checker; p];
            G::play_match(rules, &seats, 2, 100 + (i * 7 + k) as u64).expect("a legal match");
            checked += checker.checked.load(Ordering::Relaxed);
        }
    }
    assert!(checked > 200, "only {checked} decisions checked");
}

#[test]
fn lexio_features_read_only_what_the_seat_knows() {
    features_are_deal_independent::<Lexio>(&(), &[3, 4, 5], &["easy", "hard", "random"]);
}

#[test]
fn dalmuti_features_read_only_what_the_seat_knows() {
    features_are_deal_independent::<Dalmuti>(&(), &[4, 6, 8], &["easy", "hard", "random"]);
}

#[test]
fn daifugo_features_read_only_what_the_seat_knows() {
    for rules in [RuleSet::house(), RuleSet::uecda()] {
        features_are_deal_independent::<Daifugo>(&rules, &[4, 5], &["easy", "hard", "random"]);
    }
}

#[test]
fn the_shipped_weights_fit_their_feature_sets_and_are_trained() {
    check_shipped().expect("every shipped weights file loads");
    for shipped in [Lexio::shipped(), Dalmuti::shipped(), Daifugo::shipped()]
        .into_iter()
        .flatten()
    {
        let policy = shipped.get().expect("loads");
        let nonzero = policy.weights().iter().filter(|w| **w != 0.0).count();
        assert!(
            nonzero > 50,
            "{}: only {nonzero} weights are set",
            shipped.file
        );
    }
}

/// Plays matches between the policy bot and the learned search: every decision goes
/// through the referee, which refuses an illegal one.
fn learned_bots_play_legally<G: ArenaGame + Learnable>(rules: &G::Rules, players: usize) {
    let policy = G::bot("policy/temperature=0.5").expect("the policy bot");
    let greedy = G::bot("policy").expect("the policy bot");
    let expert = G::bot("expert/learned=1/iterations=60").expect("the learned search");
    let seats: Vec<&dyn Policy<G>> = (0..players)
        .map(|s| match s % 3 {
            0 => expert.as_ref(),
            1 => policy.as_ref(),
            _ => greedy.as_ref(),
        })
        .collect();
    G::play_match(rules, &seats, 2, 7).expect("a legal match");
}

#[test]
fn the_policy_bot_and_the_learned_search_play_legally() {
    learned_bots_play_legally::<Lexio>(&(), 4);
    learned_bots_play_legally::<Dalmuti>(&(), 5);
    learned_bots_play_legally::<Daifugo>(&RuleSet::house(), 4);
    learned_bots_play_legally::<Daifugo>(&RuleSet::uecda(), 5);
}

#[test]
fn the_playout_switches_parse_as_documented() {
    let playout = |name: &str| expert_by_name::<Lexio>(name).unwrap().unwrap().playout;
    assert_eq!(playout("expert-v1"), PlayoutPolicy::Rule);
    assert_eq!(
        playout("expert/learned=1"),
        PlayoutPolicy::Learned { temperature: 1.0 }
    );
    assert_eq!(
        playout("expert/temperature=0.25"),
        PlayoutPolicy::Learned { temperature: 0.25 }
    );
    assert_eq!(
        playout("expert/temperature=0.25/learned=1"),
        PlayoutPolicy::Learned { temperature: 0.25 }
    );
    assert_eq!(playout("expert/learned=1/learned=0"), PlayoutPolicy::Rule);
    assert_eq!(playout("expert/random_playouts=1"), PlayoutPolicy::Random);
    assert!(
        expert_by_name::<Lexio>("expert/temperature=-1")
            .unwrap()
            .is_err()
    );
    assert!(Lexio::bot("policy/temperature=-1").is_err());
    assert!(Lexio::bot("policy/nosuch=1").is_err());
}

#[test]
fn training_on_a_few_matches_beats_chance_and_the_weights_read_back() {
    let dir = std::env::temp_dir().join(format!("climbot-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("lexio.txt");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args([
            "train",
            "--game",
            "lexio",
            "--matches",
            "30",
            "--epochs",
            "3",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("climbot runs");
    assert!(status.status.success(), "{status:?}");
    let stdout = String::from_utf8_lossy(&status.stdout);
    assert!(stdout.contains("top-1 agreement"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("# trained by: climbot train --game lexio"),
        "{text}"
    );
    let model = LinearPolicy::parse(Lexio::FEATURES, &text).expect("the weights read back");
    // Records of other matches than the ones trained on.
    let teacher = Lexio::bot("hard").unwrap();
    let recorder = Recorder::new(teacher.as_ref());
    let seats: Vec<&dyn Policy<Lexio>> = vec![&recorder; 4];
    Lexio::play_match(&(), &seats, 3, 999).unwrap();
    let records = recorder.into_records();
    let trained = evaluate(&model, &records);
    let uniform = evaluate(&LinearPolicy::zeros(Lexio::FEATURES), &records);
    assert!(
        trained.log_likelihood > uniform.log_likelihood + 0.1,
        "{trained:?} against {uniform:?}"
    );
    let again = std::process::Command::new(env!("CARGO_BIN_EXE_climbot"))
        .args([
            "train",
            "--game",
            "lexio",
            "--matches",
            "30",
            "--epochs",
            "3",
        ])
        .arg("--out")
        .arg(dir.join("again.txt"))
        .output()
        .unwrap();
    assert!(again.status.success());
    // The same command (but for --out, which the notes record) trains the same weights.
    let weights = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("# trained by"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        weights(&std::fs::read_to_string(dir.join("again.txt")).unwrap()),
        weights(&text)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
