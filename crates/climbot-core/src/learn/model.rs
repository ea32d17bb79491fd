//! The linear model and its weights file.
//!
//! A weights file is text, one weight a line, so that a retrained model reads as a diff:
//!
//! ```text
//! climbot-policy 1
//! features lexio-v1 412 9c1f0e2b5d7a3e10
//! kind[0] -0.8125
//! kind[3] 1.25
//! ```
//!
//! The first line names the format and its version; the second the feature set, its
//! size and its fingerprint ([`FeatureSet::fingerprint`]), all three checked; then a
//! feature name and its weight per line (features not listed weigh 0). Lines starting
//! with `#` are notes: the command that trained the weights and what it measured. Weights are
//! written in the shortest form that reads back to the same `f32`, so a saved and
//! reloaded model scores exactly as before.

use super::{FeatureRows, FeatureSet};
use std::fmt;

/// The format line every weights file starts with.
const FORMAT: &str = "climbot-policy 1";

/// A linear scorer over a feature set: a decision's score is the sum of the weights of
/// its active features.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearPolicy {
    set: FeatureSet,
    weights: Vec<f32>,
}

/// Why a weights file does not fit its feature set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The line (1-based) at fault, 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "weights file: {}", self.reason)
        } else {
            write!(f, "weights file, line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for WeightsError {}

impl LinearPolicy {
    /// Every weight 0: the uniform policy.
    pub fn zeros(set: FeatureSet) -> Self {
        LinearPolicy {
            set,
            weights: vec![0.0; set.len()],
        }
    }

    /// The feature set the weights belong to.
    pub fn feature_set(&self) -> &FeatureSet {
        &self.set
    }

    /// The weights, one per feature.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The weights, to change them (training).
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The score of one row of features.
    pub fn score(&self, row: &[u32]) -> f64 {
        row.iter()
            .map(|&i| f64::from(self.weights[i as usize]))
            .sum()
    }

    /// The score of every row, into `out` (cleared first).
    pub fn scores(&self, rows: &FeatureRows, out: &mut Vec<f64>) {
        out.clear();
        out.extend((0..rows.len()).map(|j| self.score(rows.row(j))));
    }

    /// The model read from a weights file written for `set` (see the module docs).
    pub fn parse(set: FeatureSet, text: &str) -> Result<Self, WeightsError> {
        let err = |line: usize, reason: String| WeightsError { line, reason };
        let mut lines = text.lines().enumerate().map(|(n, l)| (n + 1, l.trim()));
        match lines.next() {
            Some((_, FORMAT)) => {}
            _ => return Err(err(1, format!("expected {FORMAT:?}"))),
        }
        let header = lines
            .next()
            .ok_or_else(|| err(2, "expected the feature set line".into()))?;
        let fields: Vec<&str> = header.1.split_whitespace().collect();
        let expected = format!("{} {} {:016x}", set.name, set.len(), set.fingerprint());
        if fields.len() != 4 || fields[0] != "features" || fields[1..].join(" ") != expected {
            return Err(err(
                2,
                format!(
                    "written for features {:?}, but this build's feature set is {expected:?}: \
                     retrain the weights (climbot train) for this feature set",
                    fields.get(1..).map(|f| f.join(" ")).unwrap_or_default()
                ),
            ));
        }
        let names: std::collections::BTreeMap<String, usize> = set
            .feature_names()
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect();
        let mut weights = vec![0.0f32; set.len()];
        let mut seen = vec![false; set.len()];
        for (n, line) in lines {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, value) = line
                .split_once(' ')
                .ok_or_else(|| err(n, format!("expected `name weight`, got {line:?}")))?;
            let &i = names
                .get(name)
                .ok_or_else(|| err(n, format!("no feature {name:?} in {}", set.name)))?;
            let value: f32 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f32| v.is_finite())
                .ok_or_else(|| err(n, format!("{value:?} is not a finite number")))?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(err(n, format!("feature {name:?} is listed twice")));
            }
            weights[i] = value;
        }
        Ok(LinearPolicy { set, weights })
    }

    /// The weights file of the model (see the module docs): the non-zero weights in
    /// feature order.
    pub fn to_text(&self) -> String {
        self.to_text_with_notes(&[])
    }

    /// [`LinearPolicy::to_text`] with `notes` (how the weights were made) as `#` lines
    /// after the header.
    pub fn to_text_with_notes(&self, notes: &[String]) -> String {
        let mut out = format!(
            "{FORMAT}\nfeatures {} {} {:016x}\n",
            self.set.name,
            self.set.len(),
            self.set.fingerprint()
        );
        for note in notes {
            for line in note.lines() {
                out.push_str(&format!("# {line}\n"));
            }
        }
        for (name, w) in self.set.feature_names().zip(&self.weights) {
            if *w != 0.0 {
                out.push_str(&format!("{name} {w}\n"));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::Family;

    const SET: FeatureSet = FeatureSet {
        name: "toy-v1",
        families: &[
            Family {
                name: "kind",
                size: 3,
            },
            Family {
                name: "size",
                size: 2,
            },
        ],
    };

    #[test]
    fn a_saved_model_reads_back_to_the_same_weights() {
        let mut model = LinearPolicy::zeros(SET);
        model
            .weights_mut()
            .copy_from_slice(&[0.1, 0.0, -3.25e-7, 1e9, 2.0 / 3.0]);
        let text = model.to_text_with_notes(&["trained by: a test".into()]);
        assert!(text.starts_with("climbot-policy 1\nfeatures toy-v1 5 "));
        assert!(text.contains("\n# trained by: a test\n"), "{text}");
        assert!(
            !text.contains("kind[1]"),
            "zero weights are left out: {text}"
        );
        assert_eq!(LinearPolicy::parse(SET, &text).unwrap(), model);
    }

    #[test]
    fn a_file_for_another_feature_set_is_refused() {
        let text = LinearPolicy::zeros(SET).to_text();
        let other = FeatureSet {
            name: "toy-v1",
            families: &[Family {
                name: "kind",
                size: 5,
            }],
        };
        let e = LinearPolicy::parse(other, &text).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.contains("retrain"), "{e}");
        for (bad, line) in [
            ("", 1),
            ("climbot-policy 2\n", 1),
            (&text.replace("toy-v1", "toy-v2")[..], 2),
        ] {
            assert_eq!(
                LinearPolicy::parse(SET, bad).unwrap_err().line,
                line,
                "{bad}"
            );
        }
        let header: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        for (body, why) in [
            ("nosuch[0] 1\n", "no feature"),
            ("kind[0] x\n", "not a finite"),
            ("kind[0] NaN\n", "not a finite"),
            ("kind[0] 1\nkind[0] 2\n", "twice"),
            ("kind[0]\n", "expected `name weight`"),
        ] {
            let e = LinearPolicy::parse(SET, &format!("{header}{body}")).unwrap_err();
            assert!(e.reason.contains(why), "{body}: {e}");
        }
    }
}
