//! Small statistics shared by the `stats` commands, the arena and the bots: Wilson
//! intervals for proportions, Student-t intervals for means, and the binomial and
//! hypergeometric probabilities the card-counting bots use.

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

/// A 95% interval for the difference `p1 - p2` of two independent proportions,
/// `s1` of `n1` and `s2` of `n2`: Newcombe's hybrid score interval (his method 10),
/// built from the two Wilson intervals. Unlike the normal approximation it stays
/// valid when a proportion is 0% or 100% (where the normal interval shrinks to a
/// point). `None` when a sample is empty.
pub fn difference95(s1: u64, n1: u64, s2: u64, n2: u64) -> Option<(f64, f64)> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (p1, p2) = (s1 as f64 / n1 as f64, s2 as f64 / n2 as f64);
    let ((l1, u1), (l2, u2)) = (wilson95(s1, n1), wilson95(s2, n2));
    let d = p1 - p2;
    Some((
        d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt(),
        d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt(),
    ))
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
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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

/// The mean of `samples`, each a value in `range` (the lowest and the highest value
/// possible), with a Student-t 95% interval cut to that range: the true mean lies in
/// the range, so cutting keeps the interval's coverage, and an interval from few
/// samples (t(1) = 12.7 with two) never claims impossible values. With fewer than two
/// samples the interval is the whole range; it has no width when every sample is
/// equal.
pub fn mean_ci95(samples: &[f64], range: (f64, f64)) -> MeanCi {
    let (min, max) = range;
    let n = samples.len();
    if n == 0 {
        return MeanCi {
            mean: 0.0,
            lo: min,
            hi: max,
            n,
        };
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    let half = if n == 1 {
        f64::INFINITY
    } else {
        let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        t975(n - 1) * (var / n as f64).sqrt()
    };
    MeanCi {
        mean,
        lo: (mean - half).clamp(min, max),
        hi: (mean + half).clamp(min, max),
        n,
    }
}

/// `C(n, k)` as `f64` for `n <= 80` (0 outside), from a table built once.
pub fn binomial(n: usize, k: usize) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<[f64; 81]>> = std::sync::OnceLock::new();
    if k > n || n > 80 {
        return 0.0;
    }
    let t = TABLE.get_or_init(|| {
        let mut t = vec![[0.0; 81]; 81];
        for n in 0..=80 {
            t[n][0] = 1.0;
            for k in 1..=n {
                t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0.0 };
            }
        }
        t
    });
    t[n][k]
}

/// The hypergeometric probability of exactly `k` successes when drawing `draws` from
/// `total` items of which `successes` are successes (`total <= 80`).
pub fn hypergeometric_pmf(successes: usize, total: usize, draws: usize, k: usize) -> f64 {
    if k > successes || k > draws || draws > total || draws - k > total - successes {
        return 0.0;
    }
    binomial(successes, k) * binomial(total - successes, draws - k) / binomial(total, draws)
}

/// The chance that a random `draw`-subset of `pool` items holds at least `need` of the
/// `good` marked ones (`pool <= 80`).
pub fn hypergeometric_at_least(pool: usize, good: usize, draw: usize, need: usize) -> f64 {
    if need == 0 {
        return 1.0;
    }
    if draw > pool || good < need {
        return 0.0;
    }
    let below: f64 = (0..need)
        .map(|k| hypergeometric_pmf(good, pool, draw, k))
        .sum();
    (1.0 - below).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_difference_interval_matches_newcombe_and_holds_at_0_and_100_percent() {
        // Newcombe (1998), example (a): 56/70 - 48/80, method 10: [0.0524, 0.3339].
        let (lo, hi) = difference95(56, 70, 48, 80).unwrap();
        assert!(
            (lo - 0.0524).abs() < 5e-4 && (hi - 0.3339).abs() < 5e-4,
            "{lo} {hi}"
        );
        // 5 of 5 against 95.1% of 309: agreement is possible, so the interval holds 0
        // (a normal approximation has no width on the 5 of 5 side).
        let (lo, hi) = difference95(5, 5, 294, 309).unwrap();
        assert!(lo < 0.0 && 0.0 < hi, "{lo} {hi}");
        // 0 of 5 against 95.1% of 309: clearly different.
        let (lo, hi) = difference95(0, 5, 294, 309).unwrap();
        assert!(hi < 0.0, "{lo} {hi}");
        // Both at 100%: no difference.
        let (lo, hi) = difference95(10, 10, 100, 100).unwrap();
        assert!(lo < 0.0 && 0.0 < hi, "{lo} {hi}");
        assert_eq!(difference95(1, 2, 0, 0), None);
    }

    #[test]
    fn wilson_matches_a_known_value() {
        // 19.8% of 20,000: Daifugo Part 2's table prints [19.2, 20.3].
        let (lo, hi) = wilson95(3960, 20_000);
        assert!((lo - 0.1925).abs() < 0.001, "{lo}");
        assert!((hi - 0.2036).abs() < 0.001, "{hi}");
        assert_eq!(wilson95(0, 0), (0.0, 0.0));
    }

    #[test]
    fn mean_ci_is_zero_width_for_constant_samples() {
        let ci = mean_ci95(&[2.0; 10], (1.0, 5.0));
        assert_eq!((ci.mean, ci.lo, ci.hi), (2.0, 2.0, 2.0));
    }

    #[test]
    fn mean_ci_stays_within_the_possible_range() {
        // Two blocks of mean places 1 and 4 at 5 players: t(1) gives [-7.0, 12.0].
        let ci = mean_ci95(&[1.0, 4.0], (1.0, 5.0));
        assert_eq!((ci.mean, ci.lo, ci.hi), (2.5, 1.0, 5.0));
        let ci = mean_ci95(&[4.0], (1.0, 5.0));
        assert_eq!((ci.lo, ci.hi), (1.0, 5.0));
        let ci = mean_ci95(&[], (0.0, 1.0));
        assert_eq!((ci.lo, ci.hi), (0.0, 1.0));
        // Within the range, nothing changes.
        let ci = mean_ci95(&[2.0, 3.0, 2.0, 3.0, 2.0, 3.0], (1.0, 5.0));
        assert!(ci.lo > 1.0 && ci.hi < 5.0, "{ci:?}");
    }

    #[test]
    fn mean_ci_uses_student_t() {
        let ci = mean_ci95(&[1.0, 2.0, 3.0], (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(ci.mean, 2.0);
        // sd = 1, se = 1/sqrt(3), t(2) = 4.303
        assert!((ci.hi - (2.0 + 4.303 / 3f64.sqrt())).abs() < 1e-9);
    }

    #[test]
    fn binomials_and_hypergeometric_sum_to_one() {
        assert_eq!(binomial(5, 2), 10.0);
        assert_eq!(binomial(80, 0), 1.0);
        let total: f64 = (0..=12).map(|k| hypergeometric_pmf(12, 70, 10, k)).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    #[test]
    fn hypergeometric_sanity() {
        assert!((hypergeometric_at_least(10, 1, 1, 1) - 0.1).abs() < 1e-12);
        assert!((hypergeometric_at_least(4, 2, 2, 2) - 1.0 / 6.0).abs() < 1e-12);
        assert_eq!(hypergeometric_at_least(4, 1, 2, 2), 0.0);
        assert_eq!(hypergeometric_at_least(48, 48, 12, 12), 1.0);
    }
}
