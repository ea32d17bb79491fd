//! Per-decision statistics of one Dalmuti bot alone against a field of another, on
//! the arena's duplicate blocks (same block seeds, same rotations, same decision
//! seeds as `climbot arena`), to see *how* a lineup's places come about: the lone
//! bot's places by hand and title, pass rates (forced and voluntary), lead sizes,
//! who wins the tricks and how the field's passes hand the lead back, and for the
//! evaluation bots the score terms behind their passes and how often the raise their
//! continuation value counts on comes (the modelled chance is the continuation's: every
//! seat able to beat the table does, on a full-memory ledger).
//!
//! `cargo run --release --example dalmuti_field -- easy normal 6 5 100 777`
//! (lone bot, field bot, players, hands per match, blocks, seed). `DUMP=n` also prints
//! the field's passes (hand, table, top candidates with their terms) in the tricks that
//! let the lone bot go out, for the first `n` such hands.

use climbot::arena::block_seed;
use climbot::bot::{DecisionContext, StableHasher};
use climbot::dalmuti::bots::hard::HardBot;
use climbot::dalmuti::bots::{by_name, legal_decisions};
use climbot::dalmuti::knowledge::Ledger;
use climbot::dalmuti::referee::{HandState, deal, decision_seed, draw_seats};
use climbot::dalmuti::turn::Action;
use climbot::dalmuti::{DalmutiDecision, Phase};
use climbot::game::Policy;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// Counters of one side (0 = the lone bot, 1 = the field).
#[derive(Default, Clone)]
struct Side {
    hands: u64,
    place_sum: u64,
    leads: u64,
    lead_cards: u64,
    follows: u64,
    forced_passes: u64,
    voluntary_passes: u64,
    follow_plays: u64,
    /// Follows that could beat the table, by the trick's size (1..=4, 5 = more).
    could_by_size: [u64; 6],
    passed_by_size: [u64; 6],
    tricks_won: u64,
    tricks_won_cards: u64,
    /// Tricks this side led whose lead nobody beat.
    leads_stood: u64,
    /// Jesters played as part of a follow / lead.
    jesters_played: u64,
    /// Cards still held by this side's seats when the lone bot went out (hands where it
    /// did not finish last).
    cards_when_lone_out: u64,
    seats_when_lone_out: u64,
}

fn size_bucket(n: u8) -> usize {
    usize::from(n.min(5))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let lone = args.get(1).map_or("easy", String::as_str).to_string();
    let field = args.get(2).map_or("normal", String::as_str).to_string();
    let players: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(6);
    let hands: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    let blocks: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(777);
    let lone_bot = by_name(&lone).expect("lone bot");
    let field_bot = by_name(&field).expect("field bot");

    let mut side = [Side::default(), Side::default()];
    // The lone bot's places: overall, by hand number, by title at the start of play.
    let mut places = vec![0u64; players + 1];
    let mut by_hand = vec![vec![0u64; players + 1]; hands as usize + 1];
    let mut by_title = vec![vec![0u64; players + 1]; players];
    let mut tricks = 0u64;
    let mut dump_left: usize = std::env::var("DUMP")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    // Per side: voluntary passes, summed continuation term, passes the best play would
    // have beaten without the continuation term.
    let mut flips = [(0u64, 0.0f64, 0u64); 2];
    // Per side: voluntary passes (count, summed modelled raise chance, raised after,
    // the passer re-entered).
    let mut raise = [(0u64, 0.0f64, 0u64, 0u64); 2];
    // Tricks the lone bot won, by its cards after the trick (0, 1-3, 4-7, 8+): all,
    // and those where some field seat passed although it could beat.
    let mut conceded = [(0u64, 0u64); 4];
    // Per side, [voluntary pass, play]: count and the summed (best play - pass) terms.
    let mut terms: [[(u64, std::collections::BTreeMap<String, f64>); 2]; 2] = Default::default();
    let mut block_place_sum = Vec::new();

    for b in 0..blocks {
        let bseed = block_seed(seed, b);
        let mut lone_places = 0u64;
        let mut lone_hands = 0u64;
        for rotation in 0..players {
            // Slot 0 is the lone bot; slot s sits at player index (s + rotation) % p.
            let lone_player = rotation % players;
            let is_lone = |player: usize| player == lone_player;
            let policy = |player: usize| -> &dyn Policy<climbot::dalmuti::Dalmuti> {
                if is_lone(player) {
                    lone_bot.as_ref()
                } else {
                    field_bot.as_ref()
                }
            };
            // play_match, with the hand loop inlined to see every action.
            let mut rng = ChaCha8Rng::seed_from_u64(bseed);
            let mut seating = draw_seats(players, &mut rng);
            let mut scores = vec![0u32; players];
            for h in 1..=hands {
                let dealt = deal(players, &mut rng);
                let seat_scores: Vec<u32> = seating.iter().map(|&pl| scores[pl]).collect();
                let mut state = HandState::new(&dealt, &seating, &seat_scores, h, hands - h);
                let hand_seed = StableHasher::new().u64(bseed).u64(u64::from(h)).finish();
                let before: Vec<u32> = (0..players).map(|s| state.score(s)).collect();
                let seat_player_before: Vec<usize> =
                    (0..players).map(|s| state.player_at(s)).collect();
                let mut lone_title: Option<usize> = None;
                let mut lone_out_seen = false;
                // The current trick: its leader's side and whether anyone beat the lead.
                let mut trick_leader_side = 0usize;
                let mut trick_beaten = false;
                // Voluntary passes by the field in the current trick.
                let mut trick_field_vpasses = 0u64;
                // Voluntary passes of this trick not yet followed by a play: (side, seat).
                let mut pending: Vec<(usize, usize)> = Vec::new();
                // Voluntary passes of this trick already raised: (side, seat).
                let mut raised: Vec<(usize, usize)> = Vec::new();
                // Descriptions of the field's voluntary passes in this trick (DUMP=n).
                let mut trick_dump: Vec<String> = Vec::new();
                while let Some(view) = state.view().expect("view") {
                    let seat = view.seat();
                    let player = state.player_at(seat);
                    let s = usize::from(!is_lone(player));
                    let mut ctx = DecisionContext::unbounded(decision_seed(hand_seed, &view));
                    let (d, explained) = policy(player).decide_explained(&view, &mut ctx);
                    if view.phase() == Phase::Play && view.table().is_some() && explained.len() > 1
                    {
                        // The chosen candidate against the best one of the other kind
                        // (play vs pass), term by term.
                        let chosen_pass = d == DalmutiDecision::Pass;
                        let other = explained
                            .iter()
                            .find(|e| (e.action == DalmutiDecision::Pass) != chosen_pass);
                        let mine = explained.iter().find(|e| e.action == d);
                        if let (Some(o), Some(m)) = (other, mine) {
                            let (pass, play) = if chosen_pass { (m, o) } else { (o, m) };
                            if chosen_pass {
                                let cont = pass
                                    .terms
                                    .iter()
                                    .find(|t| t.0 == "control")
                                    .map_or(0.0, |t| t.1);
                                flips[s].0 += 1;
                                flips[s].1 += cont;
                                if pass.score - cont < play.score {
                                    flips[s].2 += 1;
                                }
                            }
                            let slot = &mut terms[s][usize::from(!chosen_pass)];
                            slot.0 += 1;
                            for (name, v) in &play.terms {
                                *slot.1.entry(name.to_string()).or_insert(0.0) += v;
                            }
                            for (name, v) in &pass.terms {
                                *slot.1.entry(name.to_string()).or_insert(0.0) -= v;
                            }
                        }
                    }
                    if view.phase() == Phase::Play {
                        if lone_title.is_none() {
                            lone_title = (0..players).find(|&x| is_lone(state.player_at(x)));
                        }
                        match view.table() {
                            None => {
                                tricks += 1;
                                side[s].leads += 1;
                                trick_leader_side = s;
                                trick_beaten = false;
                                trick_field_vpasses = 0;
                                pending.clear();
                                raised.clear();
                                trick_dump.clear();
                                if let DalmutiDecision::Play(p) = d {
                                    side[s].lead_cards += u64::from(p.size());
                                    side[s].jesters_played += u64::from(p.jesters());
                                }
                            }
                            Some(t) => {
                                side[s].follows += 1;
                                let legal = legal_decisions(&view);
                                let could = legal.len() > 1;
                                let k = size_bucket(t.size());
                                match d {
                                    DalmutiDecision::Pass if could => {
                                        if s == 1 {
                                            trick_field_vpasses += 1;
                                            if dump_left > 0 {
                                                let counts: Vec<u8> = view
                                                    .seats()
                                                    .iter()
                                                    .map(|x| x.card_count)
                                                    .collect();
                                                let lone_seat = (0..players)
                                                    .find(|&x| is_lone(state.player_at(x)))
                                                    .expect("seated");
                                                let mut text = format!(
                                                    "seat {seat} hand {:?} table {:?} by {:?} counts {counts:?} lone seat {lone_seat}\n",
                                                    view.hand(),
                                                    t,
                                                    view.table_owner()
                                                );
                                                let mut sorted = explained.clone();
                                                sorted.sort_by(|a, b| b.score.total_cmp(&a.score));
                                                for e in sorted.iter().take(4) {
                                                    let terms: Vec<String> = e
                                                        .terms
                                                        .iter()
                                                        .map(|(n, v)| format!("{n}={v:.3}"))
                                                        .collect();
                                                    text += &format!(
                                                        "    {:?} {:.3} [{}]\n",
                                                        e.action,
                                                        e.score,
                                                        terms.join(" ")
                                                    );
                                                }
                                                trick_dump.push(text);
                                            }
                                        }
                                        let l = Ledger::new(&view, HardBot::hard().memory);
                                        let quiet: f64 = (0..l.seats.len())
                                            .map(|i| {
                                                1.0 - l.seat_beat_risk_at(i, t.rank(), t.size())
                                            })
                                            .product();
                                        raise[s].0 += 1;
                                        raise[s].1 += 1.0 - quiet;
                                        pending.push((s, seat));
                                        side[s].voluntary_passes += 1;
                                        side[s].could_by_size[k] += 1;
                                        side[s].passed_by_size[k] += 1;
                                    }
                                    DalmutiDecision::Pass => side[s].forced_passes += 1,
                                    DalmutiDecision::Play(p) => {
                                        for &(ps, pseat) in &pending {
                                            raise[ps].2 += 1;
                                            raised.push((ps, pseat));
                                        }
                                        pending.clear();
                                        if let Some(i) = raised.iter().position(|&(_, x)| x == seat)
                                        {
                                            raise[raised[i].0].3 += 1;
                                            raised.remove(i);
                                        }
                                        side[s].follow_plays += 1;
                                        side[s].could_by_size[k] += 1;
                                        side[s].jesters_played += u64::from(p.jesters());
                                        trick_beaten = true;
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                    let table_before = view.table();
                    state.apply(d, policy(player).name()).expect("legal");
                    // A trick ends when the table clears after a pass.
                    if let Some(turn) = state.turn() {
                        if table_before.is_some()
                            && d == DalmutiDecision::Pass
                            && turn.table().is_none()
                        {
                            let last_play = state
                                .log()
                                .iter()
                                .rev()
                                .find_map(|e| match e.action {
                                    Action::Play(p) => Some((e.seat, p)),
                                    Action::Pass => None,
                                })
                                .expect("a trick has a play");
                            let w = usize::from(!is_lone(state.player_at(last_play.0)));
                            side[w].tricks_won += 1;
                            side[w].tricks_won_cards += u64::from(last_play.1.size());
                            if !trick_beaten {
                                side[trick_leader_side].leads_stood += 1;
                            }
                            if w == 0 {
                                let lone_seat = (0..players)
                                    .find(|&x| is_lone(state.player_at(x)))
                                    .expect("seated");
                                let c = usize::from(turn.counts()[lone_seat]);
                                let bucket = if c == 0 {
                                    0
                                } else if c <= 3 {
                                    1
                                } else if c <= 7 {
                                    2
                                } else {
                                    3
                                };
                                conceded[bucket].0 += 1;
                                if trick_field_vpasses > 0 {
                                    conceded[bucket].1 += 1;
                                }
                            }
                        }
                        if !lone_out_seen {
                            let out: Vec<usize> = turn.finished().collect();
                            if out.iter().any(|&x| is_lone(state.player_at(x))) {
                                lone_out_seen = true;
                                if dump_left > 0 && !trick_dump.is_empty() {
                                    dump_left -= 1;
                                    println!("--- the lone bot went out after these field passes:");
                                    for t in &trick_dump {
                                        print!("{t}");
                                    }
                                    println!(
                                        "    log tail: {:?}",
                                        &state.log()[state.log().len().saturating_sub(8)..]
                                    );
                                }
                                for x in 0..players {
                                    if !is_lone(state.player_at(x)) {
                                        side[1].cards_when_lone_out += u64::from(turn.counts()[x]);
                                        side[1].seats_when_lone_out += 1;
                                    }
                                }
                            }
                        }
                    }
                }
                let order = state.finishing_order().expect("over");
                for (place0, &seat) in order.iter().enumerate() {
                    let pl = state.player_at(seat);
                    let s = usize::from(!is_lone(pl));
                    side[s].hands += 1;
                    side[s].place_sum += place0 as u64 + 1;
                    if s == 0 {
                        places[place0 + 1] += 1;
                        by_hand[h as usize][place0 + 1] += 1;
                        if let Some(t) = lone_title {
                            by_title[t][place0 + 1] += 1;
                        }
                        lone_places += place0 as u64 + 1;
                        lone_hands += 1;
                    }
                }
                let mut points = vec![0; players];
                for (s, &pl) in seat_player_before.iter().enumerate() {
                    let now = (0..players)
                        .find(|&x| state.player_at(x) == pl)
                        .expect("seated");
                    points[pl] = state.score(now) - before[s];
                }
                for (pl, pts) in points.iter().enumerate() {
                    scores[pl] += pts;
                }
                seating = order.iter().map(|&s| state.player_at(s)).collect();
            }
        }
        block_place_sum.push(lone_places as f64 / lone_hands as f64);
    }

    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    let mean = |a: u64, b: u64| a as f64 / b.max(1) as f64;
    // A mean place lies in 1..=players.
    let ci = climbot::stats::mean_ci95(&block_place_sum, (1.0, players as f64));
    println!(
        "{lone} alone vs {field} field, {players} players, {hands} hands, {blocks} blocks, seed {seed}"
    );
    println!(
        "lone mean place {:.4} [{:.4}, {:.4}] (field {:.4})",
        ci.mean,
        ci.lo,
        ci.hi,
        mean(side[1].place_sum, side[1].hands)
    );
    let hist = |v: &[u64]| {
        let n: u64 = v.iter().sum();
        v[1..]
            .iter()
            .map(|&x| format!("{:5.1}", pct(x, n)))
            .collect::<Vec<_>>()
            .join(" ")
            + &format!("  (n={n})")
    };
    println!("lone places % (1st..last): {}", hist(&places));
    for (h, v) in by_hand.iter().enumerate().skip(1) {
        println!("  hand {h}: {}", hist(v));
    }
    for (t, v) in by_title.iter().enumerate() {
        println!("  starting seat {t}: {}", hist(v));
    }
    println!("tricks per hand {:.2}", mean(tricks, side[0].hands));
    for (i, what) in ["out", "1-3", "4-7", "8+"].iter().enumerate() {
        println!(
            "  lone won tricks ending with {what} cards: {:.2}/hand, {:.1}% with a field voluntary pass",
            mean(conceded[i].0, side[0].hands),
            pct(conceded[i].1, conceded[i].0)
        );
    }
    for (i, name) in [(0usize, lone.as_str()), (1, field.as_str())] {
        let x = &side[i];
        let per_seat_hand = x.hands.max(1);
        println!("{name} ({}):", if i == 0 { "lone" } else { "field" });
        println!(
            "  leads/hand {:.2}, cards/lead {:.2}, lead stood {:.1}%",
            mean(x.leads, per_seat_hand),
            mean(x.lead_cards, x.leads),
            pct(x.leads_stood, x.leads)
        );
        println!(
            "  follows/hand {:.2}: play {:.1}%, voluntary pass {:.1}%, forced pass {:.1}%; voluntary pass when able {:.1}%",
            mean(x.follows, per_seat_hand),
            pct(x.follow_plays, x.follows),
            pct(x.voluntary_passes, x.follows),
            pct(x.forced_passes, x.follows),
            pct(x.voluntary_passes, x.voluntary_passes + x.follow_plays)
        );
        let by: Vec<String> = (1..6)
            .map(|k| {
                format!(
                    "{}:{:.0}%/{}",
                    k,
                    pct(x.passed_by_size[k], x.could_by_size[k]),
                    x.could_by_size[k]
                )
            })
            .collect();
        println!(
            "  voluntary pass when able, by trick size: {}",
            by.join(" ")
        );
        println!(
            "  voluntary passes: mean continuation term {:.3}; {:.1}% would be plays without it",
            flips[i].1 / flips[i].0.max(1) as f64,
            pct(flips[i].2, flips[i].0)
        );
        println!(
            "  after a voluntary pass: modelled raise chance {:.3}, raised {:.3}, the passer re-entered {:.3} (n={})",
            raise[i].1 / raise[i].0.max(1) as f64,
            mean(raise[i].2, raise[i].0),
            mean(raise[i].3, raise[i].0),
            raise[i].0
        );
        println!(
            "  tricks won/hand {:.2} (cards in the winning play {:.2}), jesters played/hand {:.2}",
            mean(x.tricks_won, per_seat_hand),
            mean(x.tricks_won_cards, x.tricks_won),
            mean(x.jesters_played, per_seat_hand)
        );
        for (k, what) in [(0usize, "voluntary passes"), (1, "follow plays")] {
            let (n, m) = &terms[i][k];
            if *n > 0 {
                let t: Vec<String> = m
                    .iter()
                    .map(|(name, v)| format!("{name} {:+.3}", v / *n as f64))
                    .collect();
                println!(
                    "  {what} (n={n}): best play minus pass, mean terms: {}",
                    t.join(", ")
                );
            }
        }
        if i == 1 {
            println!(
                "  cards per field seat when the lone bot went out: {:.2}",
                mean(x.cards_when_lone_out, x.seats_when_lone_out)
            );
        }
    }
}
