//! Self-play under the UECda rules: groups of five and sequences with a joker past an
//! end are played, and every bot level answers them, every decision legal for its view
//! and accepted by the referee; under the house rules neither play ever appears.
//!
//! The served levels rarely choose a group of five (they play the four of a kind and
//! keep the joker), so two seats hold a bot that plays a contest play whenever it has
//! one, and every deal gives one of those seats four of a kind and the joker.

use climbot_core::bot::{DecisionContext, StableHasher};
use climbot_core::daifugo::bots::{by_name, easy::EasyBot, is_legal, legal_decisions};
use climbot_core::daifugo::cards::{Card, CardSet, RANKS, Suit};
use climbot_core::daifugo::referee::Referee;
use climbot_core::daifugo::rules::RuleSet;
use climbot_core::daifugo::view::DaifugoView;
use climbot_core::daifugo::{Daifugo, DaifugoDecision};
use climbot_core::game::Policy;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Plays a group of five or a sequence past an end whenever it can, else as easy.
struct ContestPlaysFirst;

impl Policy<Daifugo> for ContestPlaysFirst {
    fn name(&self) -> &'static str {
        "contest-plays-first"
    }

    fn decide(&self, view: &DaifugoView, ctx: &mut DecisionContext<'_>) -> DaifugoDecision {
        legal_decisions(view)
            .into_iter()
            .find(|d| {
                matches!(d, DaifugoDecision::Play(p) if p.is_group_of_five() || p.is_past_the_ends())
            })
            .unwrap_or_else(|| EasyBot.decide(view, ctx))
    }
}

#[derive(Debug, Default)]
struct Counts {
    plays: usize,
    fives: usize,
    past_the_ends: usize,
    /// Plays by the served levels on a contest play.
    answers: usize,
}

/// Five hands of the deck from `rng`, seat `stacked` holding four of a kind of `rank`
/// and the joker among its cards (dealt round the table, 11/11/11/10/10).
fn stacked_deal(rng: &mut ChaCha8Rng, stacked: usize, rank: u8) -> Vec<CardSet> {
    let special: Vec<Card> = Suit::ALL
        .into_iter()
        .map(|suit| Card::natural(rank, suit))
        .chain([Card::JOKER])
        .collect();
    let mut rest: Vec<Card> = CardSet::deck(1)
        .iter()
        .filter(|c| !special.contains(c))
        .collect();
    for i in (1..rest.len()).rev() {
        rest.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
    }
    let mut hands = vec![CardSet::EMPTY; 5];
    let (mut special, mut rest) = (special.into_iter(), rest.into_iter());
    for i in 0..53 {
        let seat = i % 5;
        let card = if seat == stacked && i / 5 < 5 {
            special.next()
        } else {
            rest.next()
        };
        hands[seat].insert(card.unwrap());
    }
    hands
}

/// Plays `games` games with `bots` at the 5 seats, checking every decision, and counts
/// the contest plays.
fn self_play(rules: RuleSet, bots: &[Box<dyn Policy<Daifugo>>], games: u32, seed: u64) -> Counts {
    let mut referee = Referee::new(rules, 5).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = Counts::default();
    for game in 0..games {
        let stacked = [0, 3][game as usize % 2];
        let hands = stacked_deal(&mut rng, stacked, (game % u32::from(RANKS)) as u8);
        referee.start_game_with_hands(hands).unwrap();
        let mut decisions = 0;
        while let Some(seat) = referee.to_act() {
            let view = referee.view(seat).unwrap();
            let bot = &bots[seat];
            let ctx_seed = StableHasher::new()
                .u64(seed)
                .u64(view.fingerprint())
                .finish();
            let decision = bot.decide(&view, &mut DecisionContext::unbounded(ctx_seed));
            assert!(
                is_legal(&view, &decision),
                "{} chose an illegal {decision:?}",
                bot.name()
            );
            let on_contest_play = referee
                .trick()
                .table
                .is_some_and(|t| t.is_group_of_five() || t.is_past_the_ends());
            referee.apply(seat, &decision).unwrap();
            referee.check_invariants().unwrap();
            if let DaifugoDecision::Play(play) = decision {
                counts.plays += 1;
                counts.fives += usize::from(play.is_group_of_five());
                counts.past_the_ends += usize::from(play.is_past_the_ends());
                counts.answers +=
                    usize::from(on_contest_play && bot.name() != "contest-plays-first");
            }
            decisions += 1;
            assert!(decisions < 10_000, "a game that never ends");
        }
    }
    counts
}

fn lineup(names: &[&str]) -> Vec<Box<dyn Policy<Daifugo>>> {
    names
        .iter()
        .map(|&name| match name {
            "first" => Box::new(ContestPlaysFirst) as Box<dyn Policy<Daifugo>>,
            _ => by_name(name).unwrap(),
        })
        .collect()
}

#[test]
fn every_level_meets_the_contest_plays_legally_under_uecda() {
    let bots = lineup(&["first", "normal", "hard", "first", "expert/iterations=40"]);
    let counts = self_play(RuleSet::uecda(), &bots, 500, 11);
    println!("uecda: {counts:?}");
    assert!(counts.fives >= 10, "{counts:?}");
    assert!(counts.past_the_ends >= 10, "{counts:?}");
    assert!(counts.answers > 0, "{counts:?}");
}

#[test]
fn the_house_rules_never_see_them() {
    let bots = lineup(&["first", "normal", "hard", "first", "easy"]);
    let counts = self_play(RuleSet::house(), &bots, 200, 11);
    assert!(counts.plays > 1000, "{counts:?}");
    assert_eq!((counts.fives, counts.past_the_ends), (0, 0), "{counts:?}");
}
