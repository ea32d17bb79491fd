use climbot::bot::DecisionContext;
use climbot::lexio::bots::{EasyBot, HardBot, LexioPolicy};
use climbot::lexio::referee::{Round, deal};
use climbot::lexio::{Action, PlayerCount};

fn main() {
    let players = PlayerCount::Five;
    let mut round = Round::new(players, deal(players, 5), 1, [0; 5]);
    let hard = HardBot::hard();
    for _ in 0..200 {
        let view = round.view().unwrap();
        let seat = round.turn();
        let action = if seat == 0 {
            let scored = hard.scored(&view);
            println!(
                "seat 0 hand {:?} table {:?} counts {:?}",
                view.hand(),
                view.table(),
                view.counts()
            );
            for s in scored.iter().take(4) {
                println!(
                    "   {:8.2} {:?} {:?}",
                    s.score,
                    s.action,
                    s.terms
                        .iter()
                        .map(|(n, v)| format!("{n}={v:.2}"))
                        .collect::<Vec<_>>()
                );
            }
            hard.decide(&view, &mut DecisionContext::unbounded(1))
        } else {
            EasyBot.decide(&view, &mut DecisionContext::unbounded(1))
        };
        if seat == 0 {
            println!("  -> {action:?}");
        }
        if round.apply(action).unwrap() {
            break;
        }
        let _ = Action::Pass;
    }
    println!("{:?}", round.result());
}
