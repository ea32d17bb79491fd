//! The search's deal inference replays every game's public log: at every decision of
//! seeded matches (revolutions, exchanges and taxes, eight-cuts, miyako-ochi and
//! fouls included), a deal of the view replays every other seat's logged decision as
//! a legal decision, and the log's likelihood under the trained policy is a finite
//! log-probability. The switches that turn the inference on parse as documented.

use climbot::arena::ArenaGame;
use climbot::bot::DecisionContext;
use climbot::daifugo::Daifugo;
use climbot::daifugo::rules::RuleSet;
use climbot::dalmuti::Dalmuti;
use climbot::dalmuti::view::Phase as DalmutiPhase;
use climbot::game::Policy;
use climbot::learn::{Learnable, Scratch, log_likelihood_of_log, logged_decisions};
use climbot::lexio::Lexio;
use climbot::search::expert::by_name as expert_by_name;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::sync::Mutex;

/// Plays as `inner` and, at every decision with a position and a log, checks the
/// replay of the log on two deals of the view.
struct ReplayChecker<'a, G: Learnable> {
    inner: &'a dyn Policy<G>,
    /// The other seats' logged decisions the view holds, if its log tells the hand.
    others_logged: fn(&G::View) -> Option<usize>,
    /// Views checked, logged decisions replayed, and likelihoods below 1 (of two per
    /// view).
    checked: Mutex<(usize, usize, usize)>,
}

impl<G: Learnable> Policy<G> for ReplayChecker<'_, G> {
    fn name(&self) -> &'static str {
        "replay-checker"
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let mut rng = ChaCha8Rng::seed_from_u64(G::fingerprint(view));
        let deal = G::deal(view, &mut rng);
        let mut informative = 0;
        if let Some(others) = (self.others_logged)(view).filter(|&n| n > 0)
            && G::position(view, &deal).is_some()
        {
            assert_eq!(
                logged_decisions::<G>(view, &deal),
                others,
                "not every logged decision replays on a deal of {view:?}"
            );
            let mut legal = Vec::new();
            let replayed = G::replay_log(view, &deal, &mut |position, decision| {
                G::legal_actions(position, &mut legal);
                assert!(
                    legal.contains(&decision),
                    "{decision:?} is not legal where the replay of {view:?} reaches it"
                );
            });
            assert!(replayed, "the log of {view:?} does not replay");
            let mut scratch = Scratch::new();
            for salt in [1, 2] {
                let mut rng = ChaCha8Rng::seed_from_u64(G::fingerprint(view) ^ salt);
                let deal = G::deal(view, &mut rng);
                let ll = log_likelihood_of_log::<G>(view, &deal, 0, &mut scratch);
                assert!(ll.is_finite() && ll <= 0.0, "log-likelihood {ll}");
                informative += usize::from(ll < 0.0);
                // The most recent decisions alone weigh less (or as much).
                let recent = log_likelihood_of_log::<G>(view, &deal, others - 1, &mut scratch);
                assert!(recent >= ll && recent <= 0.0, "{recent} against {ll}");
            }
            let mut checked = self.checked.lock().unwrap();
            checked.0 += 1;
            checked.1 += others;
            checked.2 += informative;
        }
        self.inner.decide(view, ctx)
    }
}

fn every_log_replays<G: ArenaGame + Learnable>(
    rules: &G::Rules,
    players: &[usize],
    units: u32,
    others_logged: fn(&G::View) -> Option<usize>,
) {
    let (mut views, mut decisions, mut informative) = (0, 0, 0);
    for (i, &p) in players.iter().enumerate() {
        for (k, name) in ["hard", "random"].iter().enumerate() {
            let bot = G::bot(name).expect("a bot");
            let checker = ReplayChecker::<G> {
                inner: bot.as_ref(),
                others_logged,
                checked: Mutex::new((0, 0, 0)),
            };
            let seats: Vec<&dyn Policy<G>> = vec![&checker; p];
            G::play_match(rules, &seats, units, 300 + (i * 7 + k) as u64).expect("a legal match");
            let (v, d, i) = *checker.checked.lock().unwrap();
            views += v;
            decisions += d;
            informative += i;
        }
    }
    assert!(views > 200, "only {views} views checked");
    assert!(
        decisions > 2000,
        "only {decisions} logged decisions replayed"
    );
    // A log of forced passes alone has likelihood 1; most logs tell more.
    assert!(
        informative > views,
        "only {informative} of {} likelihoods below 1",
        2 * views
    );
}

#[test]
fn every_lexio_log_replays() {
    every_log_replays::<Lexio>(&(), &[3, 4, 5], 2, |view| {
        Some(
            view.log()
                .iter()
                .filter(|e| usize::from(e.seat) != view.seat())
                .count(),
        )
    });
}

#[test]
fn every_dalmuti_log_replays() {
    every_log_replays::<Dalmuti>(&(), &[4, 6, 8], 3, |view| {
        (view.phase() == DalmutiPhase::Play)
            .then(|| view.log().iter().filter(|e| e.seat != view.seat()).count())
    });
}

#[test]
fn every_daifugo_log_replays() {
    for rules in [RuleSet::house(), RuleSet::uecda()] {
        every_log_replays::<Daifugo>(&rules, &[4, 5], 3, |view| {
            Some(view.log().iter().filter(|e| e.seat != view.seat()).count())
        });
    }
}

#[test]
fn the_inference_switches_parse_as_documented() {
    let bot = expert_by_name::<Lexio>("expert/infer=16/beta=0.5/recent=12")
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            bot.inference.draws,
            bot.inference.beta,
            bot.inference.recent
        ),
        (16, 0.5, 12)
    );
    let plain = expert_by_name::<Lexio>("expert").unwrap().unwrap();
    assert_eq!(plain.inference.draws, 0, "the plain search does not infer");
    for bad in ["expert/infer=-1", "expert/beta=-0.5", "expert/recent=1.5"] {
        assert!(
            expert_by_name::<Lexio>(bad).unwrap().is_err(),
            "{bad} is refused"
        );
    }
}
