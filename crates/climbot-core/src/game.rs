//! The shared game interface: what the service, the arena, the remote bot and the
//! searches need from a game, written once for all of them.
//!
//! A game is a zero-sized type implementing [`Game`] (its validated seat view, its
//! decision, the legal decisions, the fingerprint, the levels it serves) and, for the
//! searches, [`Simulation`] (deals consistent with a view, and full-information
//! positions that play on from it). Bots implement [`Policy`].
//!
//! Data flows one way: a wire message becomes a validated [`Game::View`] (in the
//! service), a [`Policy`] turns the view into a [`Game::Decision`], and the service puts
//! the decision back on the wire. Nothing here knows about protobuf, tonic or clocks.

use crate::bot::BotNameError;
use crate::bot::{DecisionContext, Difficulty, Explained, uniform_below};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;
use std::fmt::Debug;

/// The games climbot knows, by one identifier: the service's seeds, metrics and logs,
/// the arena and the ladder (`--game`), the playground's tables and the tools all name
/// a game with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Lexio.
    Lexio,
    /// The Great Dalmuti.
    Dalmuti,
    /// Daifugo.
    Daifugo,
}

impl GameKind {
    /// Every game, in the order help texts list them.
    pub const ALL: [GameKind; 3] = [GameKind::Lexio, GameKind::Dalmuti, GameKind::Daifugo];

    /// The lower-case name used in seeds, metrics, logs, command lines and the
    /// playground's API.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Lexio => "lexio",
            GameKind::Dalmuti => "dalmuti",
            GameKind::Daifugo => "daifugo",
        }
    }

    /// The game's title as messages print it.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::Lexio => "Lexio",
            GameKind::Dalmuti => "The Great Dalmuti",
            GameKind::Daifugo => "Daifugo",
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no game's (see [`GameKind::name`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is no game (lexio, dalmuti or daifugo)", self.0)
    }
}

impl std::error::Error for UnknownGame {}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    /// The game named `name` exactly (lower case).
    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| UnknownGame(name.to_string()))
    }
}

/// One climbing game: its seat view, its decisions and the bots that serve it.
pub trait Game: Sized + Send + Sync + 'static {
    /// The game's lower-case name, as used in seeds, metrics, logs and the arena.
    const NAME: &'static str;
    /// The arena's bot names for this game, for help texts and error messages.
    const BOT_NAMES: &'static str;
    /// One seat's validated view: its own hand and the public state, nothing else.
    type View: Clone + Debug + Send + Sync;
    /// One decision of a seat (a pass, a play, or a phase's special choice).
    type Decision: Copy + Eq + Debug + Send + Sync + 'static;

    /// The seat the view belongs to.
    fn seat(view: &Self::View) -> usize;
    /// Every legal decision of the view, in the game's documented order
    /// (`docs/architecture.md`).
    fn legal_decisions(view: &Self::View) -> Vec<Self::Decision>;
    /// Whether `decision` is legal in `view`: the same answer as membership in
    /// [`Game::legal_decisions`].
    fn is_legal(view: &Self::View, decision: &Self::Decision) -> bool;
    /// The stable hash of the normalized view that seeds a request without a seed.
    fn fingerprint(view: &Self::View) -> u64;
    /// The policy serving `difficulty`, or `None` if the game has no bot at that level.
    fn policy(difficulty: Difficulty) -> Option<&'static dyn Policy<Self>>;
    /// A bot by arena name: the served levels, the baselines (`singles`, `random`) and
    /// the tunable variants each game documents. The error says which part of the name
    /// is wrong and why: an unknown bot, an override the bot does not take, a value
    /// that does not fit.
    fn bot(name: &str) -> Result<Box<dyn Policy<Self>>, BotNameError>;
}

/// A bot of game `G`: a pure function of one seat's view and the decision context.
pub trait Policy<G: Game>: Send + Sync {
    /// The bot's short, stable name for logs and reports.
    fn name(&self) -> &'static str;
    /// Chooses one of [`Game::legal_decisions`]. Every random draw comes from `ctx`.
    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision;
    /// The decision plus the scored candidates behind it, best first (`explain`).
    /// Bots that score no candidates return the decision and an empty list.
    fn decide_explained(
        &self,
        view: &G::View,
        ctx: &mut DecisionContext<'_>,
    ) -> (G::Decision, Vec<Explained<G::Decision>>) {
        (self.decide(view, ctx), Vec::new())
    }
}

/// A `'static` policy behind a box, so that served levels and boxed variants can be
/// handed out by the same [`Game::bot`].
pub struct Borrowed<G: Game>(pub &'static dyn Policy<G>);

impl<G: Game> Policy<G> for Borrowed<G> {
    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn decide(&self, view: &G::View, ctx: &mut DecisionContext<'_>) -> G::Decision {
        self.0.decide(view, ctx)
    }

    fn decide_explained(
        &self,
        view: &G::View,
        ctx: &mut DecisionContext<'_>,
    ) -> (G::Decision, Vec<Explained<G::Decision>>) {
        self.0.decide_explained(view, ctx)
    }
}

/// The served level named `name` (`easy`, `normal`, `hard`, `expert`) as a boxed bot;
/// the error names an unknown bot, or the overrides of a bot that takes none
/// (`easy/x=1`).
pub fn served_bot<G: Game>(name: &str) -> Result<Box<dyn Policy<G>>, BotNameError> {
    let (base, overrides) = name.split_once('/').unwrap_or((name, ""));
    let policy =
        Difficulty::named(base)
            .and_then(G::policy)
            .ok_or_else(|| BotNameError::Unknown {
                game: G::NAME,
                bot: base.to_string(),
            })?;
    no_overrides(base, overrides)?;
    Ok(Box::new(Borrowed(policy)))
}

/// Refuses overrides (the text after the bot's name) for a bot that takes none.
pub fn no_overrides(base: &str, overrides: &str) -> Result<(), BotNameError> {
    if overrides.is_empty() {
        Ok(())
    } else {
        Err(BotNameError::NoOverrides {
            bot: base.to_string(),
            overrides: overrides.to_string(),
        })
    }
}

/// What a search needs from a game and nothing more: deals of the hidden cards that a
/// view allows, and full-information positions that play on from the view's state.
pub trait Simulation: Game {
    /// Every seat's hand in one full deal (the viewing seat's own hand included).
    type Deal: Clone + Debug + Send;
    /// A full-information position in the middle of a hand: every hand, the table and
    /// the trick's state. Cheap to clone: a search clones one per iteration.
    type Position: Clone + Debug + Send;

    /// A deal of the hidden cards, uniform among those consistent with every public
    /// fact the view carries (hand counts, played cards, cards removed unseen,
    /// finished seats). Every draw comes from `rng`.
    fn deal(view: &Self::View, rng: &mut ChaCha8Rng) -> Self::Deal;
    /// [`Simulation::deal`] without the bound an exchange of cards puts on a partner's
    /// hand (a seat that handed over its best cards holds nothing better than the worst
    /// of them): uniform over the deals the counted facts allow, the draw the bound's
    /// measurement compares against. Games without such an exchange deal as `deal`.
    fn deal_without_exchange_bound(view: &Self::View, rng: &mut ChaCha8Rng) -> Self::Deal {
        Self::deal(view, rng)
    }
    /// The position the view's seat is in when the hidden hands are `deal`'s; `None`
    /// for a phase that has no play to search (an exchange, a tax or a revolution
    /// choice).
    fn position(view: &Self::View, deal: &Self::Deal) -> Option<Self::Position>;
    /// The seat to act, `None` once the hand is over.
    fn to_act(position: &Self::Position) -> Option<usize>;
    /// The legal decisions of the seat to act, written into `out` (cleared first) in
    /// the same order as [`Game::legal_decisions`] of that seat's view.
    fn legal_actions(position: &Self::Position, out: &mut Vec<Self::Decision>);
    /// Plays `decision` for the seat to act, without checking it: it must be one of
    /// [`Simulation::legal_actions`].
    fn apply(position: &mut Self::Position, decision: Self::Decision);
    /// Whether the hand is over.
    fn is_over(position: &Self::Position) -> bool {
        Self::to_act(position).is_none()
    }
    /// `seat`'s outcome of a finished hand in the arena's primary unit: Lexio chips
    /// (higher is better); Dalmuti and Daifugo finishing place, 1 = first out (lower
    /// is better). See [`Simulation::HIGHER_IS_BETTER`].
    fn outcome(position: &Self::Position, seat: usize) -> f64;
    /// Whether a higher [`Simulation::outcome`] is better.
    const HIGHER_IS_BETTER: bool;
}

/// A deal drawn by [`Simulation::deal`] and accepted with probability
/// `weight(deal)` (clamped to `[0, 1]`): the hook through which a game's knowledge
/// (seat models narrowed by passes, a ledger) weights or rejects deals. After
/// `max_tries` draws without an acceptance the heaviest deal seen is taken, so a hook
/// that rejects everything still yields a consistent deal. Every draw comes from `rng`.
pub fn determinize<G: Simulation>(
    view: &G::View,
    rng: &mut ChaCha8Rng,
    weight: &dyn Fn(&G::Deal) -> f64,
    max_tries: u32,
) -> G::Deal {
    determinize_by::<G>(G::deal, view, rng, weight, max_tries)
}

/// [`determinize`] with the deals drawn by `draw` (e.g.
/// [`Simulation::deal_without_exchange_bound`]) instead of [`Simulation::deal`].
pub fn determinize_by<G: Simulation>(
    draw: DealFn<G>,
    view: &G::View,
    rng: &mut ChaCha8Rng,
    weight: &dyn Fn(&G::Deal) -> f64,
    max_tries: u32,
) -> G::Deal {
    let mut best: Option<(f64, G::Deal)> = None;
    for _ in 0..max_tries.max(1) {
        let deal = draw(view, rng);
        let w = weight(&deal).clamp(0.0, 1.0);
        if w >= 1.0 || unit(rng) < w {
            return deal;
        }
        if best.as_ref().is_none_or(|(b, _)| w > *b) {
            best = Some((w, deal));
        }
    }
    best.map(|(_, deal)| deal)
        .unwrap_or_else(|| draw(view, rng))
}

/// A way to draw a deal of a view's hidden cards ([`Simulation::deal`] or a variant).
pub type DealFn<G> = fn(&<G as Game>::View, &mut ChaCha8Rng) -> <G as Simulation>::Deal;

/// A uniform draw from `[0, 1)` with 53 bits, as [`DecisionContext::unit`] draws it.
pub(crate) fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A uniformly random legal decision of a position (a baseline rollout policy and a
/// test helper). `None` once the hand is over.
pub fn random_action<G: Simulation>(
    position: &G::Position,
    rng: &mut ChaCha8Rng,
    buffer: &mut Vec<G::Decision>,
) -> Option<G::Decision> {
    G::to_act(position)?;
    G::legal_actions(position, buffer);
    (!buffer.is_empty()).then(|| buffer[uniform_below(rng, buffer.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_is_named_by_its_kind() {
        assert_eq!(crate::lexio::Lexio::NAME, GameKind::Lexio.name());
        assert_eq!(crate::dalmuti::Dalmuti::NAME, GameKind::Dalmuti.name());
        assert_eq!(crate::daifugo::Daifugo::NAME, GameKind::Daifugo.name());
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        let unknown = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "\"chess\" is no game (lexio, dalmuti or daifugo)"
        );
        assert!("Lexio".parse::<GameKind>().is_err());
    }
}
