//! The compute budget of one decision: the client's deadline (`grpc-timeout`), the
//! request's `budget_ms` and the server's cap.

use std::time::{Duration, Instant};

/// Parses a `grpc-timeout` header value: 1 to 8 ASCII digits and a unit
/// (`H`ours, `M`inutes, `S`econds, `m`illis, `u`micros, `n`anos), as in the gRPC
/// over HTTP/2 spec. Anything else is `None`.
pub fn parse_grpc_timeout(value: &str) -> Option<Duration> {
    let bytes = value.as_bytes();
    let (&unit, digits) = bytes.split_last()?;
    if digits.is_empty() || digits.len() > 8 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // At most 8 digits: always fits in u64, and hours in seconds do not overflow.
    let n: u64 = digits
        .iter()
        .fold(0, |acc, d| acc * 10 + u64::from(d - b'0'));
    Some(match unit {
        b'H' => Duration::from_secs(n * 3600),
        b'M' => Duration::from_secs(n * 60),
        b'S' => Duration::from_secs(n),
        b'm' => Duration::from_millis(n),
        b'u' => Duration::from_micros(n),
        b'n' => Duration::from_nanos(n),
        _ => return None,
    })
}

/// The client's timeout from a request's metadata, if it sent a well-formed one.
pub fn client_timeout(metadata: &tonic::metadata::MetadataMap) -> Option<Duration> {
    metadata
        .get("grpc-timeout")
        .and_then(|v| v.to_str().ok())
        .and_then(parse_grpc_timeout)
}

/// The server's limits on a budget.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest budget the server grants.
    pub max_budget: Duration,
    /// Kept back from the client's deadline to send the answer.
    pub margin: Duration,
}

/// When one decision must be done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The budget granted: min(budget_ms, deadline - margin, max_budget).
    pub budget: Duration,
    /// The instant the decision must stop (waiting for a slot included).
    pub decide_by: Instant,
    /// The client's deadline, if it sent one: no answer is sent after it.
    pub answer_by: Option<Instant>,
}

/// Why no plan could be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoTime {
    /// The client's deadline leaves no time beyond the margin.
    DeadlineTooShort,
}

/// Plans a decision received at `start`.
pub fn plan(
    start: Instant,
    timeout: Option<Duration>,
    budget_ms: Option<u32>,
    limits: Limits,
) -> Result<Plan, NoTime> {
    let mut budget = limits.max_budget;
    if let Some(ms) = budget_ms {
        budget = budget.min(Duration::from_millis(u64::from(ms)));
    }
    let mut answer_by = None;
    if let Some(timeout) = timeout {
        let usable = timeout.saturating_sub(limits.margin);
        if usable.is_zero() {
            return Err(NoTime::DeadlineTooShort);
        }
        budget = budget.min(usable);
        // A deadline too far to represent is no deadline.
        answer_by = start.checked_add(timeout);
    }
    let decide_by = start.checked_add(budget).unwrap_or(start);
    Ok(Plan {
        budget,
        decide_by,
        answer_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_every_unit() {
        assert_eq!(parse_grpc_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_grpc_timeout("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse_grpc_timeout("3S"), Some(Duration::from_secs(3)));
        assert_eq!(parse_grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(
            parse_grpc_timeout("30000000u"),
            Some(Duration::from_secs(30))
        );
        assert_eq!(parse_grpc_timeout("7n"), Some(Duration::from_nanos(7)));
        assert_eq!(
            parse_grpc_timeout("99999999H"),
            Some(Duration::from_secs(99_999_999 * 3600))
        );
    }

    #[test]
    fn refuses_malformed_values() {
        for bad in [
            "",
            "m",
            "10",
            "123456789m",
            "-1m",
            "+1m",
            "1.5S",
            "10x",
            " 10m",
            "10m ",
            "1 m",
            "１m",
            "10mm",
        ] {
            assert_eq!(parse_grpc_timeout(bad), None, "{bad:?}");
        }
    }

    fn limits() -> Limits {
        Limits {
            max_budget: Duration::from_millis(1000),
            margin: Duration::from_millis(10),
        }
    }

    #[test]
    fn budget_is_the_smallest_bound() {
        let t0 = Instant::now();
        let p = plan(t0, None, None, limits()).unwrap();
        assert_eq!(p.budget, Duration::from_millis(1000));
        assert_eq!(p.answer_by, None);
        let p = plan(t0, None, Some(30), limits()).unwrap();
        assert_eq!(p.budget, Duration::from_millis(30));
        assert_eq!(p.decide_by, t0 + Duration::from_millis(30));
        let p = plan(t0, Some(Duration::from_millis(100)), Some(500), limits()).unwrap();
        assert_eq!(p.budget, Duration::from_millis(90));
        assert_eq!(p.answer_by, Some(t0 + Duration::from_millis(100)));
        assert_eq!(
            plan(t0, Some(Duration::from_millis(10)), None, limits()),
            Err(NoTime::DeadlineTooShort)
        );
    }

    proptest! {
        #[test]
        fn parser_never_panics(s in "\\PC{0,12}") {
            let _ = parse_grpc_timeout(&s);
        }

        #[test]
        fn parser_round_trips(n in 0u64..100_000_000, unit in prop::sample::select(vec!['H', 'M', 'S', 'm', 'u', 'n'])) {
            let d = parse_grpc_timeout(&format!("{n}{unit}")).unwrap();
            let nanos_per: u128 = match unit {
                'H' => 3_600_000_000_000, 'M' => 60_000_000_000, 'S' => 1_000_000_000,
                'm' => 1_000_000, 'u' => 1_000, _ => 1,
            };
            prop_assert_eq!(d.as_nanos(), u128::from(n) * nanos_per);
        }

        #[test]
        fn plan_never_exceeds_a_bound(timeout_ms in proptest::option::of(0u64..5000), budget in proptest::option::of(1u32..5000)) {
            let t0 = Instant::now();
            match plan(t0, timeout_ms.map(Duration::from_millis), budget, limits()) {
                Ok(p) => {
                    prop_assert!(p.budget <= limits().max_budget);
                    if let Some(b) = budget { prop_assert!(p.budget <= Duration::from_millis(u64::from(b))); }
                    if let Some(t) = timeout_ms {
                        prop_assert!(p.budget + limits().margin <= Duration::from_millis(t));
                        prop_assert!(p.decide_by < p.answer_by.unwrap());
                    }
                }
                Err(NoTime::DeadlineTooShort) => prop_assert!(timeout_ms.unwrap() <= 10),
            }
        }
    }
}
