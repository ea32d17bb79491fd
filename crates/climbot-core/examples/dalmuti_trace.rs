//! Traces one Dalmuti hand: a bot (argument 1, default `hard`) at seat 0 among easy
//! bots, printing each of its decisions with the top scored candidates.
//! `cargo run --release --example dalmuti_trace -- hard 8 7`

use climbot_core::bot::DecisionContext;
use climbot_core::dalmuti::Phase;
use climbot_core::dalmuti::bots::by_name;
use climbot_core::dalmuti::referee::{HandState, deal, decision_seed};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("hard", String::as_str);
    let players: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(8);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let bot = by_name(name).expect("bot");
    let easy = by_name("easy").expect("easy");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let hands = deal(players, &mut rng);
    let seating: Vec<usize> = (0..players).collect();
    let mut state = HandState::new(&hands, &seating, &vec![0; players], 2, 18);
    let traced = (seed as usize) % players;
    while let Some(view) = state.view().expect("view") {
        let mut ctx = DecisionContext::unbounded(decision_seed(seed, &view));
        let d = if view.seat() == traced {
            let (d, all) = bot.decide_explained(&view, &mut ctx);
            if view.phase() == Phase::Play {
                let counts: Vec<u8> = view.seats().iter().map(|s| s.card_count).collect();
                println!(
                    "seat {traced} hand {:?} table {:?} counts {counts:?} -> {d:?}",
                    view.hand(),
                    view.table()
                );
                for e in all.iter().take(5) {
                    let terms: Vec<String> =
                        e.terms.iter().map(|(n, v)| format!("{n}={v:.3}")).collect();
                    println!("    {:?} {:.3} [{}]", e.action, e.score, terms.join(" "));
                }
            } else {
                println!("seat {traced} {:?} -> {d:?}", view.phase());
            }
            d
        } else {
            easy.decide(&view, &mut ctx)
        };
        state.apply(d, "trace").expect("legal");
    }
    println!("finishing order {:?}", state.finishing_order());
}
