//! Opening-hand statistics of Lexio Parts 1 and 2, reproduced on our own random deals:
//! how often a hand holds 5-tile plays, how much keys compress candidates per category,
//! and how often "nobody else can beat my best combination of this kind".

use crate::bot::StableHasher;
use crate::lexio::combos::{Category, Key};
use crate::lexio::moves::for_each_lead;
use crate::lexio::plan::{PlanTable, greedy_plays};
use crate::lexio::referee::deal;
use crate::lexio::tiles::{PlayerCount, TileSet};
use crate::stats::{difference95, wilson95};
use serde::Serialize;
use std::collections::BTreeSet;

/// A proportion with its Wilson 95% interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Rate {
    /// Successes.
    pub count: u64,
    /// Trials.
    pub trials: u64,
    /// `count / trials`.
    pub rate: f64,
    /// Wilson 95% interval.
    pub ci95: (f64, f64),
}

impl Rate {
    fn new(count: u64, trials: u64) -> Rate {
        Rate {
            count,
            trials,
            rate: if trials == 0 {
                0.0
            } else {
                count as f64 / trials as f64
            },
            ci95: wilson95(count, trials),
        }
    }
}

/// Candidates and distinct keys of one category, summed over the sampled hands.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Default)]
pub struct Compression {
    /// Plays (distinct tile sets).
    pub candidates: u64,
    /// Distinct keys per hand, summed.
    pub keys: u64,
    /// `candidates / keys`.
    pub ratio: f64,
}

/// Seed 001's "nobody else can beat my best combination of this kind".
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Nuts {
    /// Deals in which seat 0 holds this kind.
    pub holders: u64,
    /// Of those, deals in which no other seat holds a play that beats it.
    pub safe: u64,
    /// `safe / holders`.
    pub rate: f64,
    /// Wilson 95% interval.
    pub ci95: (f64, f64),
    /// The document's figure (holders, rate), measured on 20,000 deals at 5 players:
    /// `None` at 3 and 4 players, where the documents give none.
    pub document: Option<(u64, f64)>,
    /// Whether ours and the document's agree: the 95% interval of the difference of
    /// the two rates (Newcombe's, valid at 0% and 100%) holds 0. `None` without a
    /// document figure or without holders.
    pub agrees: Option<bool>,
}

/// The whole report.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LexioStats {
    /// Deals sampled (seat 0's hand is the sample).
    pub deals: u64,
    /// The seed.
    pub seed: u64,
    /// Players.
    pub players: usize,
    /// Hands with at least one 5-tile play (Lexio Part 1: about 80%).
    pub any_five: Rate,
    /// Hands with a four-of-a-kind + 1 (Lexio Part 1: about 1.5%).
    pub four_plus_one: Rate,
    /// Hands with a straight flush (Lexio Part 1: about 0.5%).
    pub straight_flush: Rate,
    /// Candidates vs distinct keys, by 5-tile category (Lexio Part 1: straight 2.25x,
    /// flush 1x, full house 2.18x, four+1 6x).
    pub compression: Vec<(String, Compression)>,
    /// Seed 001's table, by kind.
    pub nuts: Vec<(String, Nuts)>,
    /// Hands where a greedy split (largest play first) needs more plays than the
    /// minimum plan (the documents: about one hand in five).
    pub greedy_misses: Rate,
    /// The mean minimum number of plays of an opening hand.
    pub mean_min_plays: f64,
}

/// The document's figures (Lexio Part 2): holders out of 20,000 deals and the safe rate.
pub const DOCUMENT_NUTS: [(Category, u64, f64); 8] = [
    (Category::Single, 20_000, 0.198),
    (Category::Pair, 19_899, 0.195),
    (Category::Triple, 6_237, 0.528),
    (Category::Straight, 7_054, 0.007),
    (Category::Flush, 10_255, 0.096),
    (Category::FullHouse, 5_782, 0.511),
    (Category::FourPlusOne, 309, 0.951),
    (Category::StraightFlush, 105, 0.952),
];

/// The best key of each category in a hand.
fn best_keys(players: PlayerCount, hand: TileSet) -> [Option<Key>; 8] {
    let mut best = [None; 8];
    for_each_lead(players, hand, &mut |c| {
        let slot = &mut best[c.category().index()];
        if slot.is_none_or(|k| c.key() > k) {
            *slot = Some(c.key());
        }
    });
    best
}

/// True when a hand with these best keys beats a play of `category` with `key`.
fn beats(other: &[Option<Key>; 8], category: Category, key: Key) -> bool {
    if category.size() < 5 {
        return other[category.index()].is_some_and(|k| k > key);
    }
    // Any 5-tile play with a larger key beats it (the key orders categories too).
    Category::ALL[3..]
        .iter()
        .any(|c| other[c.index()].is_some_and(|k| k > key))
}

/// Whether `safe` of `holders` agrees with the document's `rate` of `doc_holders`: the
/// 95% interval of the difference holds 0. `None` without holders.
fn agree(safe: u64, holders: u64, doc_rate: f64, doc_holders: u64) -> Option<bool> {
    // The document prints a rounded rate; its count is the nearest whole number.
    let doc_safe = (doc_rate * doc_holders as f64).round() as u64;
    difference95(safe, holders, doc_safe, doc_holders).map(|(lo, hi)| lo <= 0.0 && 0.0 <= hi)
}

/// Runs the statistics over `deals` seeded deals.
pub fn opening_stats(players: PlayerCount, deals: u64, seed: u64) -> LexioStats {
    opening_stats_with_progress(players, deals, seed, &|_| {})
}

/// [`opening_stats`], telling `deals_done` of each deal as it is counted.
pub fn opening_stats_with_progress(
    players: PlayerCount,
    deals: u64,
    seed: u64,
    deals_done: &dyn Fn(u64),
) -> LexioStats {
    let p = players.count();
    let mut any_five = 0;
    let mut four = 0;
    let mut sf = 0;
    let mut compression = [Compression::default(); 8];
    let mut greedy_misses = 0;
    let mut min_plays_total = 0u64;
    let mut holders = [0u64; 8];
    let mut safe = [0u64; 8];
    for i in 0..deals {
        deals_done(1);
        let hands = deal(
            players,
            StableHasher::new()
                .bytes(b"lexio/stats")
                .u64(seed)
                .u64(i)
                .finish(),
        );
        let mut per_category: [BTreeSet<Key>; 8] = Default::default();
        let mut candidates = [0u64; 8];
        for_each_lead(players, hands[0], &mut |c| {
            candidates[c.category().index()] += 1;
            per_category[c.category().index()].insert(c.key());
        });
        for c in Category::ALL {
            compression[c.index()].candidates += candidates[c.index()];
            compression[c.index()].keys += per_category[c.index()].len() as u64;
        }
        if Category::ALL[3..].iter().any(|c| candidates[c.index()] > 0) {
            any_five += 1;
        }
        four += u64::from(candidates[Category::FourPlusOne.index()] > 0);
        sf += u64::from(candidates[Category::StraightFlush.index()] > 0);

        let min_plays = PlanTable::new(players, hands[0])
            .min_plays(hands[0])
            .unwrap_or(0);
        min_plays_total += u64::from(min_plays);
        greedy_misses += u64::from(greedy_plays(players, hands[0]) > min_plays);

        let mine = best_keys(players, hands[0]);
        let others: Vec<[Option<Key>; 8]> = (1..p).map(|s| best_keys(players, hands[s])).collect();
        for c in Category::ALL {
            if let Some(key) = mine[c.index()] {
                holders[c.index()] += 1;
                if !others.iter().any(|o| beats(o, c, key)) {
                    safe[c.index()] += 1;
                }
            }
        }
    }
    let compression = Category::ALL[3..]
        .iter()
        .map(|c| {
            let mut x = compression[c.index()];
            x.ratio = if x.keys == 0 {
                0.0
            } else {
                x.candidates as f64 / x.keys as f64
            };
            (c.name().to_string(), x)
        })
        .collect();
    let nuts = DOCUMENT_NUTS
        .iter()
        .map(|&(c, doc_holders, doc_rate)| {
            let (h, s) = (holders[c.index()], safe[c.index()]);
            let rate = if h == 0 { 0.0 } else { s as f64 / h as f64 };
            let document = (players == PlayerCount::Five).then_some((doc_holders, doc_rate));
            (
                c.name().to_string(),
                Nuts {
                    holders: h,
                    safe: s,
                    rate,
                    ci95: wilson95(s, h),
                    document,
                    agrees: document.and_then(|_| agree(s, h, doc_rate, doc_holders)),
                },
            )
        })
        .collect();
    LexioStats {
        deals,
        seed,
        players: p,
        any_five: Rate::new(any_five, deals),
        four_plus_one: Rate::new(four, deals),
        straight_flush: Rate::new(sf, deals),
        compression,
        nuts,
        greedy_misses: Rate::new(greedy_misses, deals),
        mean_min_plays: min_plays_total as f64 / deals.max(1) as f64,
    }
}

impl LexioStats {
    /// The JSON object of `--json`: `deals`, `seed`, `players`, the seed-000 rates, and
    /// `nuts.<kind>.{holders,safe,rate,ci95,document,agrees}` (`document` and `agrees`
    /// null where the documents give no figure: 3 and 4 players).
    pub fn to_json(&self) -> serde_json::Value {
        let rate = |r: &Rate| serde_json::json!({"count": r.count, "rate": r.rate, "ci95": [r.ci95.0, r.ci95.1]});
        let nuts: serde_json::Map<String, serde_json::Value> = self
            .nuts
            .iter()
            .map(|(k, n)| {
                (
                    k.clone(),
                    serde_json::json!({
                        "holders": n.holders, "safe": n.safe, "rate": n.rate,
                        "ci95": [n.ci95.0, n.ci95.1],
                        "document": n.document.map(|(holders, rate)| serde_json::json!({"holders": holders, "rate": rate})),
                        "agrees": n.agrees,
                    }),
                )
            })
            .collect();
        let compression: serde_json::Map<String, serde_json::Value> = self
            .compression
            .iter()
            .map(|(k, c)| (k.clone(), serde_json::json!({"candidates": c.candidates, "keys": c.keys, "ratio": c.ratio})))
            .collect();
        serde_json::json!({
            "deals": self.deals,
            "seed": self.seed,
            "players": self.players,
            "any_five": rate(&self.any_five),
            "four_plus_one": rate(&self.four_plus_one),
            "straight_flush": rate(&self.straight_flush),
            "compression": compression,
            "nuts": nuts,
            "plans": {
                "greedy_misses": rate(&self.greedy_misses),
                "mean_min_plays": self.mean_min_plays,
            },
        })
    }

    /// A readable report.
    pub fn to_table(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let mut s = format!(
            "Lexio opening hands: {} deals, {} players, seed {}\n\
             Each figure is the share of seat 0's dealt hands (random deals) with the \
             property, with its 95% interval;\nbeside it, the figure printed in the design \
             document it reproduces: Lexio Part 1 or Part 2 of the blog series on computer \
             players\nfor climbing games that the bots follow (docs/references.md names \
             each part).\n\n",
            self.deals, self.players, self.seed
        );
        s += "Lexio Part 1: hands holding (95% Wilson interval)\n";
        for (name, r, doc) in [
            ("any 5-tile play", &self.any_five, "~80%"),
            ("four + 1", &self.four_plus_one, "~1.5%"),
            ("straight flush", &self.straight_flush, "~0.5%"),
        ] {
            s += &format!(
                "  {name:<16} {:>7} [{}, {}]   document {doc}\n",
                pct(r.rate),
                pct(r.ci95.0),
                pct(r.ci95.1)
            );
        }
        s += "\nLexio Part 1: candidates per distinct key\n";
        for (name, c) in &self.compression {
            s += &format!(
                "  {name:<16} {:>8} / {:>7} = {:.2}x\n",
                c.candidates, c.keys, c.ratio
            );
        }
        s += "\nLexio Part 2: nobody else can beat my best play of this kind\n";
        s += &format!(
            "  {:<16} {:>8} {:>22} {:>22}  {}\n",
            "kind", "holders", "ours (95% CI)", "document (holders)", "agree"
        );
        for (name, n) in &self.nuts {
            s += &format!(
                "  {name:<16} {:>8} {:>22} {:>22}  {}\n",
                n.holders,
                format!("{} [{}, {}]", pct(n.rate), pct(n.ci95.0), pct(n.ci95.1)),
                n.document
                    .map_or("-".to_string(), |(holders, rate)| format!(
                        "{} ({holders})",
                        pct(rate)
                    )),
                match n.agrees {
                    Some(true) => "yes",
                    Some(false) => "NO",
                    None => "-",
                }
            );
        }
        if self.nuts.iter().all(|(_, n)| n.document.is_none()) {
            s += "  (the documents give figures for 5 players only: nothing to compare)\n";
        } else {
            s += "  (agree: yes when the 95% interval of the difference between our rate and \
                  the document's, read with its own count\n  of holders, holds 0; NO when \
                  the two differ by more than sampling explains)\n";
        }
        s += &format!(
            "\nhand plans: minimum plays {:.2} on average; a greedy split (largest play first) \
             needs more on {} [{}, {}] of hands (Lexio Part 1: about 1 in 5, a rounded \
             figure without a sample size, shown and not tested)\n",
            self.mean_min_plays,
            pct(self.greedy_misses.rate),
            pct(self.greedy_misses.ci95.0),
            pct(self.greedy_misses.ci95.1)
        );
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_nuts_is_holding_the_sun_two() {
        // The best single is safe exactly when seat 0 holds sun 2: 12/60 in theory.
        let s = opening_stats(PlayerCount::Five, 2000, 1);
        let (_, single) = &s.nuts[0];
        assert_eq!(single.holders, 2000);
        assert!(single.ci95.0 < 0.2 && 0.2 < single.ci95.1, "{single:?}");
        assert!(s.any_five.rate > 0.7 && s.any_five.rate < 0.9);
        assert!(s.nuts.iter().all(|(_, n)| n.document.is_some()));
    }

    #[test]
    fn reference_figures_are_compared_at_5_players_only() {
        for players in [PlayerCount::Three, PlayerCount::Four] {
            let s = opening_stats(players, 50, 1);
            for (kind, n) in &s.nuts {
                assert_eq!((n.document, n.agrees), (None, None), "{kind}");
            }
            assert!(s.to_table().contains("5 players only"));
            assert!(!s.to_table().contains("NO"));
        }
    }

    #[test]
    fn agreement_holds_at_0_and_100_percent_on_small_samples() {
        // Four-plus-one's document rate is 95.1% of 309: 5 safe of 5 agrees, 0 of 5
        // does not, and a rate of 0% can agree with a small document rate.
        assert_eq!(agree(5, 5, 0.951, 309), Some(true));
        assert_eq!(agree(0, 5, 0.951, 309), Some(false));
        assert_eq!(agree(0, 20, 0.007, 7_054), Some(true));
        assert_eq!(agree(3960, 20_000, 0.198, 20_000), Some(true));
        assert_eq!(agree(0, 0, 0.5, 100), None);
    }
}
