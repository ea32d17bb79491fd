//! `climbot train`: fits a game's learned policy to a teacher's decisions.
//!
//! The teacher (any arena bot: `hard`, `expert/iterations=400`, ...) plays every seat
//! of seeded matches; each of its decisions that has a position to play on becomes a
//! record (the features of every legal decision and the one it chose). Every tenth
//! match is held out. The policy is fitted by maximum likelihood
//! ([`climbot_core::learn::fit`]), its held-out log-likelihood and top-1 agreement
//! printed after every epoch, and the weights written where `--out` says. The same
//! command gives the same weights, bit for bit.

use crate::arena::ArenaError;
use crate::arena::ArenaGame;
use crate::arena::cli::{RulesName, game_parser};
use crate::game::{GameKind, Policy};
use crate::tools::ToolError;
use crate::tools::progress::Progress;
use climbot_core::bot::StableHasher;
use climbot_core::learn::fit::{self, Evaluation, FitSettings, Records};
use climbot_core::learn::{Learnable, LinearPolicy, Recorder};
use rayon::prelude::*;
use std::path::PathBuf;

/// The command line of `climbot train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// The game.
    #[arg(long, value_parser = game_parser())]
    pub game: GameKind,
    /// Daifugo only: the rule preset whose policy is trained (default: house).
    #[arg(long, value_enum)]
    pub rules: Option<RulesName>,
    /// The table sizes the matches are played at, mixed evenly (default: every size
    /// the game's policy serves well: Lexio 3,4,5; Dalmuti 4,5,6,7,8; Daifugo 4,5).
    #[arg(long, value_delimiter = ',')]
    pub players: Vec<u32>,
    /// The teacher: an arena bot name (`hard`, `expert/iterations=400`, ...).
    #[arg(long, default_value = "hard")]
    pub teacher: String,
    /// Matches of self-play; every tenth is held out for evaluation.
    #[arg(long, default_value_t = 2000)]
    pub matches: u64,
    /// Rounds (Lexio), hands (Dalmuti) or games (Daifugo) per match.
    #[arg(long, default_value_t = 1)]
    pub units: u32,
    /// The seed of the deals and of the fit.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Passes over the training records.
    #[arg(long, default_value_t = 12)]
    pub epochs: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.02)]
    pub learning_rate: f64,
    /// The L2 penalty on the weights.
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    /// Worker threads for the self-play (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Where to write the weights file.
    #[arg(long)]
    pub out: PathBuf,
}

/// Runs `climbot train`.
pub fn train(args: &TrainArgs) -> Result<(), ToolError> {
    if args.matches < 10 {
        return Err(ToolError::usage(
            "--matches: at least 10, so that one match in ten can be held out",
        ));
    }
    if args.rules.is_some() && args.game != GameKind::Daifugo {
        return Err(ToolError::usage("--rules: only Daifugo has rule presets"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .map_err(|e| ToolError::Failed(format!("cannot start the worker threads: {e}")))?;
    pool.install(|| match args.game {
        GameKind::Lexio => run::<crate::lexio::Lexio>(args, &(), &[3, 4, 5]),
        GameKind::Dalmuti => run::<crate::dalmuti::Dalmuti>(args, &(), &[4, 5, 6, 7, 8]),
        GameKind::Daifugo => {
            let rules = match args.rules.unwrap_or(RulesName::House) {
                RulesName::House => crate::daifugo::rules::RuleSet::house(),
                RulesName::Uecda => crate::daifugo::rules::RuleSet::uecda(),
            };
            run::<crate::daifugo::Daifugo>(args, &rules, &[4, 5])
        }
    })
}

fn run<G: ArenaGame + Learnable>(
    args: &TrainArgs,
    rules: &G::Rules,
    default_players: &[u32],
) -> Result<(), ToolError> {
    let players: Vec<usize> = if args.players.is_empty() {
        default_players.iter().map(|&p| p as usize).collect()
    } else {
        args.players.iter().map(|&p| p as usize).collect()
    };
    for &p in &players {
        G::check_players(p).map_err(ToolError::usage_of)?;
    }
    let teacher = G::bot(&args.teacher)
        .map_err(|e| ToolError::usage(format!("--teacher: {e} ({})", G::BOT_NAMES)))?;
    let progress = Progress::new(args.matches, "matches");
    let started = std::time::Instant::now();
    let mut played: Vec<(u64, Records)> = (0..args.matches)
        .into_par_iter()
        .map(|i| {
            let seed = StableHasher::new().u64(args.seed).u64(i).finish();
            let recorder = Recorder::<G>::new(teacher.as_ref());
            let p = players[i as usize % players.len()];
            let seats: Vec<&dyn Policy<G>> = vec![&recorder; p];
            let result = G::play_match(rules, &seats, args.units, seed);
            progress.advance(1);
            result.map(|_| (i, recorder.into_records()))
        })
        .collect::<Result<_, ArenaError>>()?;
    played.sort_by_key(|(i, _)| *i);
    let (mut train, mut held_out) = (Records::new(), Records::new());
    for (i, records) in &played {
        if i % 10 == 9 {
            held_out.extend(records);
        } else {
            train.extend(records);
        }
    }
    progress.println(&format!(
        "{} decisions to train on, {} held out, from {} matches of {} by {:?} in {:.0} s",
        train.len(),
        held_out.len(),
        args.matches,
        G::NAME,
        args.teacher,
        started.elapsed().as_secs_f64()
    ));
    let mut model = LinearPolicy::zeros(G::FEATURES);
    let uniform = fit::evaluate(&model, &held_out);
    progress.println(&format!("uniform policy: {}", shown(&uniform)));
    let settings = FitSettings {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        batch: 256,
        seed: args.seed,
    };
    let last = fit::fit(
        &mut model,
        &train,
        &held_out,
        &settings,
        &mut |epoch, tr, held| {
            progress.println(&format!(
                "epoch {epoch}: training {}; held out {}",
                shown(tr),
                shown(held)
            ));
        },
    );
    let command: Vec<String> = std::env::args().skip(1).collect();
    let text = model.to_text_with_notes(&[
        format!("trained by: climbot {}", command.join(" ")),
        format!(
            "records: {} training, {} held out; held-out log-likelihood {:.4} (uniform {:.4}), top-1 agreement {:.3}",
            train.len(),
            held_out.len(),
            last.log_likelihood,
            uniform.log_likelihood,
            last.top1
        ),
    ]);
    std::fs::write(&args.out, text)
        .map_err(|e| ToolError::Failed(format!("cannot write {}: {e}", args.out.display())))?;
    crate::outln!(
        "{} held-out decisions: log-likelihood {:.4} per decision (uniform {:.4}), top-1 agreement {:.3}; weights written to {}",
        last.decisions,
        last.log_likelihood,
        uniform.log_likelihood,
        last.top1,
        args.out.display()
    );
    Ok(())
}

fn shown(e: &Evaluation) -> String {
    format!(
        "log-likelihood {:.4}, top-1 {:.3}",
        e.log_likelihood, e.top1
    )
}
