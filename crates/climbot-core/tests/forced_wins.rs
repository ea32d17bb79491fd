//! A forced win is real: once a seat's EXPERT finds a mate ([`Searchable::forced_win`]),
//! it keeps finding its next decision, no other seat has anything but a pass until
//! the seat's hand is empty, and every decision of the line is legal (a pass only where
//! the trick comes back to its owner before it clears). Checked on the real
//! hands of whole matches, in every game, with EASY playing whoever has no mate.

use climbot_core::bot::{DecisionContext, Difficulty};
use climbot_core::daifugo::rules::RuleSet;
use climbot_core::daifugo::{Daifugo, DaifugoDecision};
use climbot_core::dalmuti::{Dalmuti, DalmutiDecision};
use climbot_core::game::{Game, Policy};
use climbot_core::lexio::Lexio;
use climbot_core::lexio::view::Action;
use climbot_core::search::Searchable;
use std::sync::Mutex;

/// Every seat: the mate when it has one, else EASY; it checks the line as it goes.
struct MateWatch<G: Game> {
    /// Whether the decision is a pass, and whether it empties the view's hand.
    is_pass: fn(&G::Decision) -> bool,
    empties: fn(&G::View, &G::Decision) -> bool,
    /// The seat playing a mate out, and the mates found and finished.
    state: Mutex<Watch>,
}

#[derive(Default)]
struct Watch {
    mating: Option<usize>,
    mates: u32,
    plays_in_mates: u32,
}

impl<G: Game + Searchable> MateWatch<G> {
    fn new(is_pass: fn(&G::Decision) -> bool, empties: fn(&G::View, &G::Decision) -> bool) -> Self {
        MateWatch {
            is_pass,
            empties,
            state: Mutex::new(Watch::default()),
        }
    }
}

impl<G: Game + Searchable> Policy<G> for MateWatch<G> {
    fn name(&self) -> &'static str {
        "mate-watch"
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        let seat = G::seat(view);
        let legal = G::legal_decisions(view);
        let mut state = self.state.lock().unwrap();
        if let Some(mater) = state.mating
            && mater != seat
        {
            assert!(
                legal.len() == 1 && (self.is_pass)(&legal[0]),
                "seat {seat} may play while seat {mater} plays out a mate: {legal:?}"
            );
            return legal[0];
        }
        match G::forced_win(view) {
            Some(play) => {
                assert!(
                    G::is_legal(view, &play),
                    "the mate's play {play:?} is illegal"
                );
                if state.mating.is_none() {
                    state.mates += 1;
                }
                state.plays_in_mates += 1;
                state.mating = if (self.empties)(view, &play) {
                    None
                } else {
                    Some(seat)
                };
                play
            }
            None => {
                assert_ne!(
                    state.mating,
                    Some(seat),
                    "seat {seat} lost its mate: {view:?}"
                );
                drop(state);
                G::policy(Difficulty::Easy).unwrap().decide(view, ctx)
            }
        }
    }
}

fn report(watch: Watch, game: &str) {
    assert!(watch.mating.is_none(), "{game}: a mate was left unfinished");
    assert!(
        watch.mates >= 40,
        "{game}: only {} mates found",
        watch.mates
    );
    assert!(
        watch.plays_in_mates > watch.mates,
        "{game}: no mate took more than one play"
    );
}

#[test]
fn lexio_mates_win_the_round_before_anyone_else_plays() {
    use climbot_core::lexio::referee::play_match;
    let watch = MateWatch::<Lexio>::new(
        |d| matches!(d, Action::Pass),
        |view, d| matches!(d, Action::Play(c) if c.len() == view.hand().len()),
    );
    for players in 3..=5 {
        let seats: Vec<&dyn Policy<Lexio>> = vec![&watch; players];
        for seed in 0..4 {
            play_match(&seats, 6, 4100 + seed).unwrap();
        }
    }
    report(watch.state.into_inner().unwrap(), "lexio");
}

#[test]
fn dalmuti_mates_go_out_before_anyone_else_plays() {
    use climbot_core::dalmuti::referee::play_match;
    let watch = MateWatch::<Dalmuti>::new(
        |d| matches!(d, DalmutiDecision::Pass),
        |view, d| matches!(d, DalmutiDecision::Play(p) if u32::from(p.size()) == view.hand().len()),
    );
    for players in [4, 6, 8] {
        let seats: Vec<&dyn Policy<Dalmuti>> = vec![&watch; players];
        for seed in 0..2 {
            play_match(&seats, 4, 4200 + seed).unwrap();
        }
    }
    report(watch.state.into_inner().unwrap(), "dalmuti");
}

#[test]
fn daifugo_mates_go_out_before_anyone_else_plays_under_both_presets() {
    use climbot_core::daifugo::referee::play_match;
    for rules in [RuleSet::house(), RuleSet::uecda()] {
        let watch = MateWatch::<Daifugo>::new(
            |d| matches!(d, DaifugoDecision::Pass),
            |view, d| matches!(d, DaifugoDecision::Play(p) if p.len() == view.hand().len()),
        );
        for players in [4, 5] {
            let seats: Vec<&dyn Policy<Daifugo>> = vec![&watch; players];
            for seed in 0..3 {
                play_match(&seats, 4, 4300 + seed, rules).unwrap();
            }
        }
        report(watch.state.into_inner().unwrap(), "daifugo");
    }
}

/// EXPERT answers the first mate of a Lexio match at once, with the term `mate` and no
/// playout; with `mate=0` it searches the same view, and the search agrees that the
/// mate wins.
#[test]
fn expert_answers_a_mate_without_searching() {
    use climbot_core::lexio::referee::play_match_observed;
    use climbot_core::search::ExpertBot;
    use climbot_core::search::expert::by_name;
    let easy = Lexio::policy(Difficulty::Easy).unwrap();
    let mut found = None;
    let _ = play_match_observed(&[easy; 4], 6, 4400, &mut |round| {
        if let Ok(view) = round.view()
            && found.is_none()
            && Lexio::legal_decisions(&view).len() > 1
            && let Some(win) = Lexio::forced_win(&view)
        {
            found = Some((view, win));
        }
    });
    let (view, win) = found.expect("a match has a mate");
    let served: ExpertBot<Lexio> = ExpertBot::served();
    let mut ctx = DecisionContext::unbounded(1).with_max_iterations(Some(400));
    let (chosen, explained) = served.decide_explained(&view, &mut ctx);
    assert_eq!(chosen, win);
    assert_eq!(ctx.work().iterations, 0);
    assert_eq!(explained.len(), 1);
    assert_eq!(explained[0].terms, vec![("mate", 0.0)]);
    let searching = by_name::<Lexio>("expert/mate=0/iterations=400")
        .unwrap()
        .unwrap();
    let mut ctx = DecisionContext::unbounded(1);
    let (_, explained) = searching.decide_explained(&view, &mut ctx);
    assert!(ctx.work().iterations > 0);
    assert!(explained.iter().all(|e| e.terms[0].0 == "playouts"));
    let best = explained.iter().map(|e| e.score).fold(f64::MIN, f64::max);
    let mate = explained.iter().find(|e| e.action == win).unwrap();
    assert_eq!(
        mate.score, best,
        "the search rates the mate below another play"
    );
}
