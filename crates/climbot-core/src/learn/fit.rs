//! Fitting a [`LinearPolicy`] to records of a teacher's decisions by maximum
//! likelihood: the mean log-probability the softmax gives the teacher's choice (or the
//! cross-entropy to a teacher's distribution over the decisions, such as a search's
//! visit shares), with an L2 penalty, by Adam over shuffled minibatches.
//!
//! Everything is deterministic: the same records, settings and seed give the same
//! weights, bit for bit.

use super::{FeatureRows, LinearPolicy, argmax, log_likelihood};
use crate::bot::shuffle;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// Decision points with the features of every legal decision and the teacher's
/// target over them, stored flat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Records {
    ids: Vec<u32>,
    row_ends: Vec<u32>,
    decision_ends: Vec<u32>,
    targets: Vec<f32>,
}

impl Records {
    /// No records.
    pub fn new() -> Self {
        Records::default()
    }

    /// Adds a decision point whose teacher chose row `chosen` of `rows`.
    pub fn push_choice(&mut self, rows: &FeatureRows, chosen: usize) {
        assert!(chosen < rows.len(), "the choice is one of the rows");
        let targets: Vec<f32> = (0..rows.len())
            .map(|j| f32::from(u8::from(j == chosen)))
            .collect();
        self.push(rows, &targets);
    }

    /// Adds a decision point with the teacher's probability of each row (they are
    /// normalised to sum to 1; all zero counts as uniform).
    pub fn push(&mut self, rows: &FeatureRows, targets: &[f32]) {
        assert_eq!(rows.len(), targets.len(), "one target per row");
        let total: f32 = targets.iter().sum();
        for (j, &target) in targets.iter().enumerate() {
            self.ids.extend_from_slice(rows.row(j));
            self.row_ends.push(self.ids.len() as u32);
            self.targets.push(if total > 0.0 {
                target / total
            } else {
                1.0 / rows.len() as f32
            });
        }
        self.decision_ends.push(self.row_ends.len() as u32);
    }

    /// Appends every decision point of `other`.
    pub fn extend(&mut self, other: &Records) {
        for d in 0..other.len() {
            let (rows, targets) = other.decision(d);
            self.push(&rows, &targets);
        }
    }

    /// The number of decision points.
    pub fn len(&self) -> usize {
        self.decision_ends.len()
    }

    /// Whether there is no decision point.
    pub fn is_empty(&self) -> bool {
        self.decision_ends.is_empty()
    }

    /// Rows of decision `d`: their range in `row_ends`.
    fn rows_of(&self, d: usize) -> std::ops::Range<usize> {
        let start = if d == 0 {
            0
        } else {
            self.decision_ends[d - 1] as usize
        };
        start..self.decision_ends[d] as usize
    }

    /// Row `r`'s features.
    fn row(&self, r: usize) -> &[u32] {
        let start = if r == 0 {
            0
        } else {
            self.row_ends[r - 1] as usize
        };
        &self.ids[start..self.row_ends[r] as usize]
    }

    /// Decision point `d` as rows of features and targets.
    pub fn decision(&self, d: usize) -> (FeatureRows, Vec<f32>) {
        let mut rows = FeatureRows::new();
        for r in self.rows_of(d) {
            rows.ids.extend_from_slice(self.row(r));
            rows.end_row();
        }
        (rows, self.targets[self.rows_of(d)].to_vec())
    }

    /// The highest feature index used, plus one (0 for no records).
    pub fn feature_bound(&self) -> usize {
        self.ids.iter().max().map_or(0, |&m| m as usize + 1)
    }
}

/// How a fit runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitSettings {
    /// Passes over the training records.
    pub epochs: u32,
    /// Adam's step size.
    pub learning_rate: f64,
    /// The L2 penalty on the weights, per decision point.
    pub l2: f64,
    /// Decision points per step.
    pub batch: usize,
    /// The seed of the shuffles.
    pub seed: u64,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            epochs: 8,
            learning_rate: 0.02,
            l2: 1e-6,
            batch: 256,
            seed: 1,
        }
    }
}

/// How well a model predicts a set of records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Decision points evaluated.
    pub decisions: usize,
    /// The mean over decision points of the cross-entropy's negative: the mean
    /// log-likelihood of the teacher's choice (0 is perfect; the uniform policy scores
    /// the mean of -ln(number of decisions)).
    pub log_likelihood: f64,
    /// The share of decision points where the model's best row is the teacher's most
    /// likely one.
    pub top1: f64,
}

/// Evaluates `model` on every decision point of `records`.
pub fn evaluate(model: &LinearPolicy, records: &Records) -> Evaluation {
    let mut ll = 0.0;
    let mut agree = 0usize;
    let mut scores = Vec::new();
    for d in 0..records.len() {
        let rows = records.rows_of(d);
        scores.clear();
        scores.extend(rows.clone().map(|r| model.score(records.row(r))));
        let targets = &records.targets[rows];
        for (j, &t) in targets.iter().enumerate() {
            if t > 0.0 {
                ll += f64::from(t) * log_likelihood(&scores, j);
            }
        }
        let best_target = targets
            .iter()
            .enumerate()
            .fold(0, |b, (j, &t)| if t > targets[b] { j } else { b });
        agree += usize::from(argmax(&scores) == best_target);
    }
    let n = records.len().max(1) as f64;
    Evaluation {
        decisions: records.len(),
        log_likelihood: ll / n,
        top1: agree as f64 / n,
    }
}

/// Fits `model` to `train`, reporting after every epoch the evaluation on `held_out`
/// through `progress` (epoch number, training evaluation of the epoch's last state,
/// held-out evaluation). Returns the held-out evaluation of the final model.
pub fn fit(
    model: &mut LinearPolicy,
    train: &Records,
    held_out: &Records,
    settings: &FitSettings,
    progress: &mut dyn FnMut(u32, &Evaluation, &Evaluation),
) -> Evaluation {
    assert!(
        train.feature_bound() <= model.weights().len()
            && held_out.feature_bound() <= model.weights().len(),
        "the records use features the model does not have"
    );
    let dims = model.weights().len();
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let (beta1, beta2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0f64; dims];
    let mut v = vec![0.0f64; dims];
    let mut grad = vec![0.0f64; dims];
    let mut touched: Vec<usize> = Vec::new();
    let mut weights: Vec<f64> = model.weights().iter().map(|&w| f64::from(w)).collect();
    let mut scores: Vec<f64> = Vec::new();
    let mut step = 0i32;
    for epoch in 1..=settings.epochs {
        shuffle(&mut rng, &mut order);
        for batch in order.chunks(settings.batch.max(1)) {
            for &d in batch {
                let rows = train.rows_of(d);
                scores.clear();
                scores.extend(rows.clone().map(|r| {
                    train
                        .row(r)
                        .iter()
                        .map(|&i| weights[i as usize])
                        .sum::<f64>()
                }));
                let top = scores[argmax(&scores)];
                let total: f64 = scores.iter().map(|s| (s - top).exp()).sum();
                for (j, r) in rows.enumerate() {
                    let p = (scores[j] - top).exp() / total;
                    let g = p - f64::from(train.targets[r]);
                    if g != 0.0 {
                        for &i in train.row(r) {
                            let i = i as usize;
                            if grad[i] == 0.0 {
                                touched.push(i);
                            }
                            grad[i] += g;
                        }
                    }
                }
            }
            // Adam on the mean gradient of the batch, the L2 penalty on every weight.
            step += 1;
            let scale = 1.0 / batch.len() as f64;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for i in 0..dims {
                let g = grad[i] * scale + settings.l2 * weights[i];
                if g == 0.0 && m[i] == 0.0 {
                    continue;
                }
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                weights[i] -= settings.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
            for i in touched.drain(..) {
                grad[i] = 0.0;
            }
        }
        for (w, &x) in model.weights_mut().iter_mut().zip(&weights) {
            *w = x as f32;
        }
        progress(epoch, &evaluate(model, train), &evaluate(model, held_out));
    }
    evaluate(model, held_out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::{Family, FeatureSet};
    use rand_chacha::rand_core::Rng;

    const SET: FeatureSet = FeatureSet {
        name: "toy-v1",
        families: &[Family { name: "f", size: 6 }],
    };

    /// A teacher that picks the row with the highest feature (the first of equals):
    /// records of 2 to 4 rows of one random feature each.
    fn records(n: usize, seed: u64) -> Records {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Records::new();
        for _ in 0..n {
            let mut rows = FeatureRows::new();
            let k = 2 + (rng.next_u64() % 3) as usize;
            let mut best = (0, 0);
            for j in 0..k {
                let f = (rng.next_u64() % 6) as u32;
                rows.push(f);
                rows.end_row();
                if f > best.1 {
                    best = (j, f);
                }
            }
            out.push_choice(&rows, best.0);
        }
        out
    }

    #[test]
    fn fitting_raises_the_held_out_likelihood_and_is_reproducible() {
        let (train, held) = (records(400, 1), records(200, 2));
        let mut model = LinearPolicy::zeros(SET);
        let before = evaluate(&model, &held);
        let mut epochs = 0;
        let settings = FitSettings {
            epochs: 20,
            batch: 32,
            learning_rate: 0.1,
            ..FitSettings::default()
        };
        let after = fit(&mut model, &train, &held, &settings, &mut |_, _, _| {
            epochs += 1
        });
        assert_eq!(epochs, 20);
        assert!(
            after.log_likelihood > before.log_likelihood + 0.2,
            "{before:?} -> {after:?}"
        );
        assert!(after.top1 > 0.8, "{after:?}");
        assert!(
            model.weights()[2] > model.weights()[0],
            "{:?}",
            model.weights()
        );
        let mut again = LinearPolicy::zeros(SET);
        fit(&mut again, &train, &held, &settings, &mut |_, _, _| {});
        assert_eq!(
            again, model,
            "the same records and seed give the same weights"
        );
        let reloaded = LinearPolicy::parse(SET, &model.to_text()).unwrap();
        assert_eq!(evaluate(&reloaded, &held), after);
    }

    #[test]
    fn distribution_targets_are_normalised_and_round_trip() {
        let mut rows = FeatureRows::new();
        for f in [0, 1, 2] {
            rows.push(f);
            rows.end_row();
        }
        let mut records = Records::new();
        records.push(&rows, &[2.0, 1.0, 1.0]);
        records.push(&rows, &[0.0, 0.0, 0.0]);
        assert_eq!(records.decision(0), (rows.clone(), vec![0.5, 0.25, 0.25]));
        let third = 1.0 / 3.0;
        assert_eq!(records.decision(1).1, vec![third, third, third]);
        let uniform = evaluate(&LinearPolicy::zeros(SET), &records);
        assert!(
            (uniform.log_likelihood + 3f64.ln()).abs() < 1e-6,
            "{uniform:?}"
        );
    }
}
