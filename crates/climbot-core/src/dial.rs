//! The strength dial: bot settings of one game with their measured ratings, so that a
//! caller can ask for a strength on the ladder's rating scale (Bradley–Terry Elo
//! points, the random bot at 0) and be served the setting whose rating is nearest.
//!
//! Each game's table is data, `dial/<game>.txt` in this crate, embedded at build time
//! ([`table_text`]); `climbot ladder --calibrate` writes it. The format:
//!
//! ```text
//! # The strength dial of Lexio: bot settings and their ratings on the ladder's scale (random = 0).
//! # calibrated at 5 players by: climbot ladder --calibrate --game lexio --players 5 --blocks 50 --seed 74001
//! # pinned at their ratings on the ladder: easy 595, normal 772, hard 947, expert 1144; the intervals are relative to them.
//! # rating low high bot
//! 595 595 595 easy
//! 632 582 681 normal/temperature=3.5/margin=5
//! ```
//!
//! A line starting with `#` is a comment (blank lines are skipped too); every other
//! line is one setting, four fields apart by whitespace: its rating, the low and high
//! ends of the rating's 95% interval, and an arena bot name of the game
//! ([`Game::bot`]). [`DialTable::parse`] refuses, naming the line: another number of
//! fields, a rating or an end that is not a finite number, a rating outside its
//! interval, a rating not above the one of the line before (the dial is monotone), a
//! name the game's bots do not know, the `random` bot (the dial never plays random
//! moves on purpose), and a name that does not start from a level (`easy`, `normal`,
//! `hard`, `expert`, or a variant such as `expert-v1`). A table without a setting is
//! refused too.
//!
//! A setting named by a plain level (`hard`) is played by the level's served policy
//! ([`Game::policy`]), exactly as a request for that level is; any other name by the
//! arena's bot of that name.

use crate::bot::{BotNameError, Difficulty};
use crate::game::{Borrowed, Game, GameKind, Policy};

/// The embedded dial table of `game`, as `dial/<game>.txt` holds it.
pub fn table_text(game: GameKind) -> &'static str {
    match game {
        GameKind::Lexio => include_str!("../dial/lexio.txt"),
        GameKind::Dalmuti => include_str!("../dial/dalmuti.txt"),
        GameKind::Daifugo => include_str!("../dial/daifugo.txt"),
    }
}

/// One setting of the dial: a bot, its measured rating and the level it is built from.
pub struct DialSetting<G: Game> {
    rating: f64,
    ci95: (f64, f64),
    bot: String,
    base: Difficulty,
    policy: Box<dyn Policy<G>>,
}

impl<G: Game> DialSetting<G> {
    /// The setting's rating on the ladder's scale (random = 0).
    pub fn rating(&self) -> f64 {
        self.rating
    }

    /// The low and high ends of the rating's 95% interval.
    pub fn ci95(&self) -> (f64, f64) {
        self.ci95
    }

    /// The bot's arena name, as the table writes it (`normal/temperature=2`).
    pub fn bot(&self) -> &str {
        &self.bot
    }

    /// The level the bot is built from (`expert-v1` is built from EXPERT).
    pub fn base(&self) -> Difficulty {
        self.base
    }

    /// Whether the bot is its base level itself, served by the level's own policy.
    pub fn is_plain_level(&self) -> bool {
        self.bot == self.base.name()
    }

    /// The policy that plays the setting.
    pub fn policy(&self) -> &dyn Policy<G> {
        self.policy.as_ref()
    }
}

impl<G: Game> std::fmt::Debug for DialSetting<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DialSetting")
            .field("rating", &self.rating)
            .field("ci95", &self.ci95)
            .field("bot", &self.bot)
            .field("base", &self.base)
            .finish()
    }
}

/// The dial of one game: its settings, weakest first, ratings strictly increasing.
pub struct DialTable<G: Game> {
    settings: Vec<DialSetting<G>>,
}

impl<G: Game> std::fmt::Debug for DialTable<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DialTable")
            .field("game", &G::NAME)
            .field("settings", &self.settings)
            .finish()
    }
}

impl<G: Game> DialTable<G> {
    /// Reads a dial table of game `G` (the format in the [module docs](self)), building
    /// each setting's bot; the error names the first line that breaks a rule.
    pub fn parse(text: &str) -> Result<Self, DialError> {
        let mut settings: Vec<DialSetting<G>> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.trim();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            let refuse = |problem| DialError::Line { line, problem };
            let fields: Vec<&str> = content.split_whitespace().collect();
            let [rating, low, high, bot] = fields[..] else {
                return Err(refuse(LineProblem::FieldCount(fields.len())));
            };
            let number = |text: &str| {
                text.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| refuse(LineProblem::NotAFiniteNumber(text.to_string())))
            };
            let (rating, low, high) = (number(rating)?, number(low)?, number(high)?);
            if !(low <= rating && rating <= high) {
                return Err(refuse(LineProblem::OutsideInterval { rating, low, high }));
            }
            if let Some(previous) = settings.last()
                && rating <= previous.rating
            {
                return Err(refuse(LineProblem::NotIncreasing {
                    rating,
                    previous: previous.rating,
                }));
            }
            let base_name = bot.split('/').next().unwrap_or(bot);
            if base_name == "random" {
                return Err(refuse(LineProblem::Random));
            }
            let level = Difficulty::named(base_name.split('-').next().unwrap_or(base_name));
            // A plain level is played by the level's served policy; any other name by
            // the arena's bot of that name, which must be built from a level.
            let (base, policy) = match level {
                Some(base) if bot == base.name() => match G::policy(base) {
                    Some(served) => (base, Box::new(Borrowed(served)) as Box<dyn Policy<G>>),
                    None => return Err(refuse(LineProblem::NotServed(base))),
                },
                _ => {
                    let policy = G::bot(bot).map_err(|e| refuse(LineProblem::Bot(e)))?;
                    let base =
                        level.ok_or_else(|| refuse(LineProblem::NoLevel(bot.to_string())))?;
                    (base, policy)
                }
            };
            settings.push(DialSetting {
                rating,
                ci95: (low, high),
                bot: bot.to_string(),
                base,
                policy,
            });
        }
        if settings.is_empty() {
            return Err(DialError::Empty);
        }
        Ok(DialTable { settings })
    }

    /// The settings, weakest first.
    pub fn settings(&self) -> &[DialSetting<G>] {
        &self.settings
    }

    /// The index in [`DialTable::settings`] of the setting whose rating is nearest
    /// `strength`: a tie goes to the weaker, a strength above the top gets the top, one
    /// below the bottom (or NaN) the bottom.
    pub fn nearest_index(&self, strength: f64) -> usize {
        let top = self.settings.len() - 1;
        if strength >= self.settings[top].rating {
            return top;
        }
        let mut best = 0;
        let mut best_distance = (self.settings[0].rating - strength).abs();
        for (i, setting) in self.settings.iter().enumerate().skip(1) {
            let distance = (setting.rating - strength).abs();
            if distance < best_distance {
                best = i;
                best_distance = distance;
            }
        }
        best
    }

    /// The setting whose rating is nearest `strength` (see [`DialTable::nearest_index`]).
    pub fn nearest(&self, strength: f64) -> &DialSetting<G> {
        &self.settings[self.nearest_index(strength)]
    }
}

/// Why a dial table was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum DialError {
    /// A line breaks a rule.
    Line {
        /// The line's number, the first line being 1.
        line: usize,
        /// What is wrong with it.
        problem: LineProblem,
    },
    /// The table has no setting.
    Empty,
}

impl DialError {
    /// The number of the line refused, if a line was.
    pub fn line(&self) -> Option<usize> {
        match self {
            DialError::Line { line, .. } => Some(*line),
            DialError::Empty => None,
        }
    }
}

/// What is wrong with one line of a dial table.
#[derive(Clone, Debug, PartialEq)]
pub enum LineProblem {
    /// Not four fields (the count found).
    FieldCount(usize),
    /// A rating or an interval's end that is not a finite number (the field as written).
    NotAFiniteNumber(String),
    /// The rating lies outside its interval.
    OutsideInterval {
        /// The rating.
        rating: f64,
        /// The interval's low end.
        low: f64,
        /// The interval's high end.
        high: f64,
    },
    /// The rating is not above the rating of the setting before it.
    NotIncreasing {
        /// The rating.
        rating: f64,
        /// The rating of the setting before.
        previous: f64,
    },
    /// The bot name names no bot of the game.
    Bot(BotNameError),
    /// The random bot, which the dial never plays.
    Random,
    /// A bot that is not built from a level (the name as written).
    NoLevel(String),
    /// A level the game does not serve.
    NotServed(Difficulty),
}

impl std::fmt::Display for DialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (line, problem) = match self {
            DialError::Empty => return f.write_str("the dial table has no setting"),
            DialError::Line { line, problem } => (line, problem),
        };
        write!(f, "line {line}: ")?;
        match problem {
            LineProblem::FieldCount(n) => write!(
                f,
                "{n} fields, expected 4 (rating, low, high, bot), apart by whitespace"
            ),
            LineProblem::NotAFiniteNumber(text) => write!(f, "{text:?} is not a finite number"),
            LineProblem::OutsideInterval { rating, low, high } => write!(
                f,
                "the rating {rating} is outside its interval [{low}, {high}]"
            ),
            LineProblem::NotIncreasing { rating, previous } => write!(
                f,
                "the rating {rating} is not above {previous}, the rating of the line \
                 before: ratings increase down the table"
            ),
            LineProblem::Bot(error) => write!(f, "{error}"),
            LineProblem::Random => f.write_str("the dial never plays the random bot"),
            LineProblem::NoLevel(bot) => write!(
                f,
                "{bot:?} is not built from a level (easy, normal, hard or expert)"
            ),
            LineProblem::NotServed(level) => {
                write!(f, "the game does not serve {}", level.name())
            }
        }
    }
}

impl std::error::Error for DialError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daifugo::Daifugo;
    use crate::dalmuti::Dalmuti;
    use crate::lexio::Lexio;

    const HEADER: &str = "# a dial\n# rating low high bot\n";

    fn lexio(body: &str) -> Result<DialTable<Lexio>, DialError> {
        DialTable::parse(&format!("{HEADER}{body}"))
    }

    fn shipped<G: Game>(game: GameKind) -> DialTable<G> {
        DialTable::parse(table_text(game)).unwrap_or_else(|e| panic!("{game}'s dial: {e}"))
    }

    #[test]
    fn every_shipped_table_parses_for_its_game() {
        let lexio = shipped::<Lexio>(GameKind::Lexio);
        let dalmuti = shipped::<Dalmuti>(GameKind::Dalmuti);
        let daifugo = shipped::<Daifugo>(GameKind::Daifugo);
        for (game, settings) in [
            ("lexio", lexio.settings().len()),
            ("dalmuti", dalmuti.settings().len()),
            ("daifugo", daifugo.settings().len()),
        ] {
            assert!(settings >= 2, "{game}: {settings} settings");
        }
        let top = lexio.settings().last().unwrap();
        assert_eq!((top.bot(), top.base()), ("expert", Difficulty::Expert));
        assert!(top.is_plain_level());
        assert_eq!(
            top.policy().name(),
            Lexio::policy(Difficulty::Expert).unwrap().name()
        );
        for text in GameKind::ALL.map(table_text) {
            assert!(text.starts_with("# The strength dial of "), "{text}");
            assert!(text.contains("# rating low high bot\n"), "{text}");
        }
    }

    #[test]
    fn settings_read_their_fields_and_base_level() {
        let table = lexio(
            "\n  100.5 90 110 easy\n200 150 250 normal/temperature=2/margin=3\n\
             300 300 300 expert-v1\n400 350 450 expert/iterations=300\n",
        )
        .unwrap();
        let s = table.settings();
        assert_eq!(s.len(), 4);
        assert_eq!((s[0].rating(), s[0].ci95()), (100.5, (90.0, 110.0)));
        assert_eq!(s[1].bot(), "normal/temperature=2/margin=3");
        assert_eq!(s[1].base(), Difficulty::Normal);
        assert!(!s[1].is_plain_level());
        assert_eq!(s[2].base(), Difficulty::Expert);
        assert_eq!(s[2].policy().name(), "expert-v1");
        assert_eq!(s[3].base(), Difficulty::Expert);
        assert_eq!(s[3].policy().name(), "expert-variant");
    }

    /// Whether a refusal's problem is the one a case expects.
    type Expected = fn(&LineProblem) -> bool;

    #[test]
    fn each_broken_line_is_refused_with_its_number() {
        let line_of = |body: &str| lexio(body).unwrap_err();
        let cases: [(&str, usize, Expected); 10] = [
            ("100 90 110\n", 3, |p| *p == LineProblem::FieldCount(3)),
            ("100 90 110 easy x\n", 3, |p| {
                *p == LineProblem::FieldCount(5)
            }),
            (
                "100 90 110 easy\nx 90 110 hard\n",
                4,
                |p| matches!(p, LineProblem::NotAFiniteNumber(t) if t == "x"),
            ),
            ("100 -inf 110 easy\n", 3, |p| {
                matches!(p, LineProblem::NotAFiniteNumber(_))
            }),
            ("100 90 NaN easy\n", 3, |p| {
                matches!(p, LineProblem::NotAFiniteNumber(_))
            }),
            ("100 101 110 easy\n", 3, |p| {
                matches!(p, LineProblem::OutsideInterval { .. })
            }),
            ("100 90 110 easy\n100 90 110 hard\n", 4, |p| {
                matches!(p, LineProblem::NotIncreasing { .. })
            }),
            ("100 90 110 easy\n200 90 210 wizard\n", 4, |p| {
                matches!(p, LineProblem::Bot(BotNameError::Unknown { .. }))
            }),
            ("# c\n100 90 110 random\n", 4, |p| *p == LineProblem::Random),
            (
                "100 90 110 singles\n",
                3,
                |p| matches!(p, LineProblem::NoLevel(b) if b == "singles"),
            ),
        ];
        for (body, line, problem) in cases {
            let error = line_of(body);
            match &error {
                DialError::Line {
                    line: at,
                    problem: p,
                } => {
                    assert_eq!(*at, line, "{body:?}: {error}");
                    assert!(problem(p), "{body:?}: {p:?}");
                }
                DialError::Empty => panic!("{body:?}: refused as empty"),
            }
            assert!(
                error.to_string().starts_with(&format!("line {line}: ")),
                "{error}"
            );
        }
        let override_error = line_of("100 90 110 hard/nonsense=1\n");
        assert_eq!(override_error.line(), Some(3));
        assert!(matches!(
            override_error,
            DialError::Line {
                problem: LineProblem::Bot(_),
                ..
            }
        ));
        assert_eq!(line_of("100 90 110 random/x=1\n").line(), Some(3));
        assert_eq!(lexio("").unwrap_err(), DialError::Empty);
        assert_eq!(lexio("# only comments\n\n").unwrap_err().line(), None);
    }

    #[test]
    fn nearest_takes_the_closest_rating_ties_to_the_weaker_and_clamps() {
        let table = lexio("100 90 110 easy\n200 190 210 normal\n400 390 410 hard\n").unwrap();
        let nearest = |strength| table.nearest(strength).bot().to_string();
        assert_eq!(nearest(0.0), "easy");
        assert_eq!(nearest(-50.0), "easy");
        assert_eq!(nearest(100.0), "easy");
        assert_eq!(nearest(149.0), "easy");
        assert_eq!(nearest(150.0), "easy", "a tie goes to the weaker");
        assert_eq!(nearest(151.0), "normal");
        assert_eq!(nearest(300.0), "normal", "a tie goes to the weaker");
        assert_eq!(nearest(300.5), "hard");
        assert_eq!(nearest(400.0), "hard");
        assert_eq!(nearest(1e12), "hard");
        assert_eq!(nearest(f64::INFINITY), "hard");
        assert_eq!(nearest(f64::NAN), "easy");
        assert_eq!(table.nearest_index(250.0), 1);
    }
}
