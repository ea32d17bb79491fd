//! Small statistics shared by the `stats` commands and the arena: Wilson intervals for
//! proportions and Student-t intervals for means.

/// The two-sided 95% normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval at 95% for `successes` out of `trials`.
/// Returns `(0.0, 0.0)` when there are no trials.
pub fn wilson95(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 0.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = p + z2 / (2.0 * n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (
        ((centre - half) / denom).max(0.0),
        ((centre + half) / denom).min(1.0),
    )
}

/// The two-sided 97.5% quantile of Student's t with `df` degrees of freedom.
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        31..=60 => 2.042 + (2.000 - 2.042) * (df - 30) as f64 / 30.0,
        61..=120 => 2.000 + (1.980 - 2.000) * (df - 60) as f64 / 60.0,
        _ => Z95,
    }
}

/// A sample mean with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct MeanCi {
    /// The sample mean.
    pub mean: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
    /// The number of samples.
    pub n: usize,
}

/// The mean of `samples` with a Student-t 95% interval (infinite with fewer than two
/// samples, zero-width when every sample is equal).
pub fn mean_ci95(samples: &[f64]) -> MeanCi {
    let n = samples.len();
    if n == 0 {
        return MeanCi {
            mean: 0.0,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            n,
        };
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return MeanCi {
            mean,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            n,
        };
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t975(n - 1) * (var / n as f64).sqrt();
    MeanCi {
        mean,
        lo: mean - half,
        hi: mean + half,
        n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_value() {
        // 19.8% of 20,000: the seed's table prints [19.2, 20.3].
        let (lo, hi) = wilson95(3960, 20_000);
        assert!((lo - 0.1925).abs() < 0.001, "{lo}");
        assert!((hi - 0.2036).abs() < 0.001, "{hi}");
        assert_eq!(wilson95(0, 0), (0.0, 0.0));
    }

    #[test]
    fn mean_ci_is_zero_width_for_constant_samples() {
        let ci = mean_ci95(&[2.0; 10]);
        assert_eq!((ci.mean, ci.lo, ci.hi), (2.0, 2.0, 2.0));
    }

    #[test]
    fn mean_ci_uses_student_t() {
        let ci = mean_ci95(&[1.0, 2.0, 3.0]);
        assert_eq!(ci.mean, 2.0);
        // sd = 1, se = 1/sqrt(3), t(2) = 4.303
        assert!((ci.hi - (2.0 + 4.303 / 3f64.sqrt())).abs() < 1e-9);
    }
}
