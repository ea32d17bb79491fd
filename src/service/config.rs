//! The `serve` configuration: command-line flags, each also an environment variable
//! `CLIMBOT_*`, checked into a [`Config`].

use crate::bot::Difficulty;
use crate::service::fair::ClientWeights;
use crate::service::tls::{self, Tls, TlsError, TlsFiles};
use crate::service::transport::Transport;
use clap::{Args, ValueEnum};
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

/// Flags of `climbot serve`.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address of the gRPC server.
    #[arg(long, env = "CLIMBOT_GRPC_ADDR", default_value = "0.0.0.0:50051")]
    pub grpc_addr: SocketAddr,
    /// Address of the Prometheus endpoint (`GET /metrics`).
    #[arg(long, env = "CLIMBOT_METRICS_ADDR", default_value = "0.0.0.0:9090")]
    pub metrics_addr: SocketAddr,
    /// Level served when a request leaves the difficulty unspecified.
    #[arg(
        long,
        env = "CLIMBOT_DEFAULT_DIFFICULTY",
        value_enum,
        default_value = "easy"
    )]
    pub default_difficulty: DifficultyArg,
    /// Upper bound on the compute budget of one decision, in milliseconds.
    #[arg(long, env = "CLIMBOT_MAX_BUDGET_MS", default_value_t = 1000)]
    pub max_budget_ms: u64,
    /// Time kept back from the client's deadline to send the answer, in milliseconds.
    #[arg(long, env = "CLIMBOT_DEADLINE_MARGIN_MS", default_value_t = 10)]
    pub deadline_margin_ms: u64,
    /// NORMAL, HARD and EXPERT decisions computed at the same time (default: the CPUs
    /// available); EASY takes no slot.
    #[arg(long, env = "CLIMBOT_DECISION_SLOTS")]
    pub decision_slots: Option<usize>,
    /// Weights of named clients in the fair share of the decision slots, e.g.
    /// `search=2,batch=1`; a client not named weighs 1 (docs/operations.md, "Fair
    /// share").
    #[arg(long, env = "CLIMBOT_CLIENT_WEIGHTS", default_value = "")]
    pub client_weights: String,
    /// Clients given their own `client` label in the per-client metrics (the rest
    /// are `other`).
    #[arg(long, env = "CLIMBOT_CLIENT_METRIC_LABELS", default_value_t = 16)]
    pub client_metric_labels: usize,
    /// Largest request accepted, in bytes (decoded).
    #[arg(long, env = "CLIMBOT_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024)]
    pub max_message_bytes: usize,
    /// After SIGTERM/SIGINT, how long health reports NOT_SERVING while new calls are
    /// still accepted (lets load balancers notice), e.g. `0s`, `5s`, `500ms`.
    #[arg(long, env = "CLIMBOT_DRAIN_DELAY", default_value = "0s", value_parser = parse_duration)]
    pub drain_delay: Duration,
    /// Close each connection gracefully (GOAWAY) after this age, with +-10% jitter, so
    /// that clients reconnect and spread over new replicas, e.g. `5m`; `0s`: never.
    #[arg(long, env = "CLIMBOT_MAX_CONNECTION_AGE", default_value = "0s", value_parser = parse_duration)]
    pub max_connection_age: Duration,
    /// After the drain delay, how long in-flight calls may take to finish before exit.
    #[arg(long, env = "CLIMBOT_SHUTDOWN_GRACE", default_value = "10s", value_parser = parse_duration)]
    pub shutdown_grace: Duration,
    /// Serve TLS on the gRPC port with this certificate chain (PEM, leaf first); needs
    /// --tls-key. Read again when it changes. Without it: plaintext.
    #[arg(long, env = "CLIMBOT_TLS_CERT", value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM: PKCS#8, RSA or EC).
    #[arg(long, env = "CLIMBOT_TLS_KEY", value_name = "FILE")]
    pub tls_key: Option<PathBuf>,
    /// Mutual TLS: clients must present a certificate signed by one of these CA
    /// certificates (PEM); needs --tls-cert and --tls-key.
    #[arg(long, env = "CLIMBOT_TLS_CLIENT_CA", value_name = "FILE")]
    pub tls_client_ca: Option<PathBuf>,
    /// Log format.
    #[arg(long, env = "CLIMBOT_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Log filter (tracing `EnvFilter` syntax), e.g. `info` or `climbot=debug`.
    #[arg(long = "log", env = "CLIMBOT_LOG", default_value = "info")]
    pub log_filter: String,
}

/// The log formats.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// A difficulty on the command line.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DifficultyArg {
    /// A fixed rule, answered in microseconds.
    Easy,
    /// HARD's evaluation on less information, with a looser choice.
    Normal,
    /// Every candidate scored from what the view reveals.
    Hard,
    /// A search over deals consistent with the view.
    Expert,
}

impl From<DifficultyArg> for Difficulty {
    fn from(d: DifficultyArg) -> Self {
        match d {
            DifficultyArg::Easy => Difficulty::Easy,
            DifficultyArg::Normal => Difficulty::Normal,
            DifficultyArg::Hard => Difficulty::Hard,
            DifficultyArg::Expert => Difficulty::Expert,
        }
    }
}

/// A checked service configuration (what [`crate::service::run`] needs besides its
/// listeners).
#[derive(Debug, Clone)]
pub struct Config {
    /// Level served for `DIFFICULTY_UNSPECIFIED`.
    pub default_difficulty: Difficulty,
    /// Upper bound on one decision's budget.
    pub max_budget: Duration,
    /// Kept back from the client's deadline.
    pub deadline_margin: Duration,
    /// Decisions computed at the same time.
    pub decision_slots: usize,
    /// Weights of named clients in the fair share of the decision slots.
    pub client_weights: ClientWeights,
    /// Clients given their own label in the per-client metrics.
    pub client_label_limit: usize,
    /// Largest decoded request.
    pub max_message_bytes: usize,
    /// NOT_SERVING period before the server stops accepting calls.
    pub drain_delay: Duration,
    /// Time in-flight calls get to finish.
    pub shutdown_grace: Duration,
    /// The HTTP/2 settings of every connection (maximum age, timeouts, limits).
    pub transport: Transport,
    /// TLS on the gRPC port (`None`: plaintext).
    pub tls: Option<Tls>,
    /// Tests only: called at fixed points of every SelectPlay, ListLegalPlays and
    /// AnalyzePlay call, so that a test can make the server panic there. No flag or
    /// request sets it.
    #[doc(hidden)]
    pub fault_hook: Option<FaultHook>,
}

/// A test's hook into the call path (see [`Config::fault_hook`]): it gets the point
/// reached and the call's seed (the request's, if any, before the view is validated;
/// the one used, at the decision).
#[doc(hidden)]
pub type FaultHook = fn(FaultPoint, Option<u64>);

/// Where a [`FaultHook`] is called.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultPoint {
    /// Before the view is validated (on the request's task).
    Validate,
    /// In the decision, wherever it runs (the request's task for EASY, the blocking
    /// pool for the other levels).
    Decide,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            default_difficulty: Difficulty::Easy,
            max_budget: Duration::from_millis(1000),
            deadline_margin: Duration::from_millis(10),
            decision_slots: available_cpus(),
            client_weights: ClientWeights::default(),
            client_label_limit: 16,
            max_message_bytes: 64 * 1024,
            drain_delay: Duration::ZERO,
            shutdown_grace: Duration::from_secs(10),
            transport: Transport::default(),
            tls: None,
            fault_hook: None,
        }
    }
}

/// The CPUs this process may use (honours cgroup quotas), at least 1.
pub fn available_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

impl ServeArgs {
    /// Checks the flags and reads the TLS files; the error names the flag (and the
    /// file).
    pub fn to_config(&self) -> Result<Config, ConfigError> {
        let out_of_range = |flag, range, value: u64| ConfigError::OutOfRange { flag, range, value };
        if self.max_budget_ms == 0 || self.max_budget_ms > 600_000 {
            return Err(out_of_range(
                "--max-budget-ms",
                "in 1..=600000",
                self.max_budget_ms,
            ));
        }
        if self.deadline_margin_ms > 10_000 {
            return Err(out_of_range(
                "--deadline-margin-ms",
                "at most 10000",
                self.deadline_margin_ms,
            ));
        }
        let decision_slots = match self.decision_slots {
            Some(n) if n == 0 || n > 4096 => {
                return Err(out_of_range("--decision-slots", "in 1..=4096", n as u64));
            }
            Some(n) => n,
            None => available_cpus(),
        };
        let client_weights = ClientWeights::parse(&self.client_weights)
            .map_err(|reason| ConfigError::ClientWeights { reason })?;
        if self.client_metric_labels > 1000 {
            return Err(out_of_range(
                "--client-metric-labels",
                "at most 1000",
                self.client_metric_labels as u64,
            ));
        }
        if !(1024..=64 * 1024 * 1024).contains(&self.max_message_bytes) {
            return Err(out_of_range(
                "--max-message-bytes",
                "in 1024..=67108864",
                self.max_message_bytes as u64,
            ));
        }
        if self.grpc_addr == self.metrics_addr && self.grpc_addr.port() != 0 {
            return Err(ConfigError::SameAddress(self.grpc_addr));
        }
        if let Err(e) = tracing_subscriber::EnvFilter::try_new(&self.log_filter) {
            return Err(ConfigError::LogFilter {
                filter: self.log_filter.clone(),
                reason: e.to_string(),
            });
        }
        let tls = self.tls_files()?.map(Tls::load).transpose()?;
        Ok(Config {
            default_difficulty: self.default_difficulty.into(),
            max_budget: Duration::from_millis(self.max_budget_ms),
            deadline_margin: Duration::from_millis(self.deadline_margin_ms),
            decision_slots,
            client_weights,
            client_label_limit: self.client_metric_labels,
            max_message_bytes: self.max_message_bytes,
            drain_delay: self.drain_delay,
            shutdown_grace: self.shutdown_grace,
            transport: Transport {
                max_connection_age: (!self.max_connection_age.is_zero())
                    .then_some(self.max_connection_age),
                // A closing connection's calls get as long as at shutdown.
                close_grace: self.shutdown_grace,
                ..Transport::default()
            },
            tls,
            fault_hook: None,
        })
    }

    /// The TLS files the flags name (`None`: plaintext); a flag without the ones it
    /// needs is an error.
    fn tls_files(&self) -> Result<Option<TlsFiles>, ConfigError> {
        let needs = |flag, needed| Err(ConfigError::Needs { flag, needed });
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Ok(Some(TlsFiles {
                cert: cert.clone(),
                key: key.clone(),
                client_ca: self.tls_client_ca.clone(),
                reload_interval: tls::RELOAD_INTERVAL,
            })),
            (Some(_), None) => needs("--tls-cert", "--tls-key"),
            (None, Some(_)) => needs("--tls-key", "--tls-cert"),
            (None, None) if self.tls_client_ca.is_some() => {
                needs("--tls-client-ca", "--tls-cert and --tls-key")
            }
            (None, None) => Ok(None),
        }
    }
}

/// Why `climbot serve`'s flags make no configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// A number outside what the flag takes.
    OutOfRange {
        /// The flag.
        flag: &'static str,
        /// What it takes (`in 1..=600000`).
        range: &'static str,
        /// The value given.
        value: u64,
    },
    /// `--client-weights` is not a list of `name=weight`.
    ClientWeights {
        /// What is wrong with it.
        reason: String,
    },
    /// `--grpc-addr` and `--metrics-addr` name the same address.
    SameAddress(std::net::SocketAddr),
    /// `--log` is no tracing filter.
    LogFilter {
        /// The filter given.
        filter: String,
        /// Why.
        reason: String,
    },
    /// A flag given without another one it needs (`--tls-cert` without `--tls-key`).
    Needs {
        /// The flag given.
        flag: &'static str,
        /// What it needs.
        needed: &'static str,
    },
    /// A TLS file that cannot be served: missing, unreadable, unparsable, outside its
    /// validity, or a key that is not the certificate's.
    Tls(TlsError),
}

impl From<TlsError> for ConfigError {
    fn from(error: TlsError) -> Self {
        ConfigError::Tls(error)
    }
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::OutOfRange { flag, range, value } => {
                write!(f, "{flag} must be {range}, got {value}")
            }
            ConfigError::ClientWeights { reason } => write!(f, "--client-weights: {reason}"),
            ConfigError::SameAddress(addr) => {
                write!(f, "--grpc-addr and --metrics-addr are both {addr}")
            }
            ConfigError::LogFilter { filter, reason } => {
                write!(f, "--log {filter:?} is not a valid filter: {reason}")
            }
            ConfigError::Needs { flag, needed } => write!(f, "{flag} needs {needed}"),
            ConfigError::Tls(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why a duration flag's value is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DurationError {
    /// Not written like `500ms`, `10s` or `1m`.
    NotADuration(String),
    /// Longer than an hour.
    OverAnHour(String),
}

impl std::fmt::Display for DurationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DurationError::NotADuration(text) => {
                write!(f, "{text:?} is not a duration like 500ms, 10s or 1m")
            }
            DurationError::OverAnHour(text) => write!(f, "{text:?} is longer than an hour"),
        }
    }
}

impl std::error::Error for DurationError {}

/// Parses `250ms`, `5s`, `2m` or a bare number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, DurationError> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let value: u64 = digits
        .parse()
        .map_err(|_| DurationError::NotADuration(text.to_string()))?;
    let duration = match unit {
        "ms" => Duration::from_millis(value),
        "" | "s" => Duration::from_secs(value),
        "m" => Duration::from_secs(value.saturating_mul(60)),
        _ => return Err(DurationError::NotADuration(text.to_string())),
    };
    if duration > Duration::from_secs(3600) {
        return Err(DurationError::OverAnHour(text.to_string()));
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `climbot serve ARGS` made into a configuration.
    fn config_of(args: &[&str]) -> Result<Config, ConfigError> {
        use clap::Parser;
        #[derive(Parser)]
        struct Command {
            #[command(flatten)]
            serve: ServeArgs,
        }
        let args = std::iter::once("serve").chain(args.iter().copied());
        Command::try_parse_from(args).unwrap().serve.to_config()
    }

    #[test]
    fn a_tls_flag_without_its_pair_is_refused() {
        let refused = |args: &[&str]| config_of(args).unwrap_err().to_string();
        assert_eq!(
            refused(&["--tls-cert", "c.pem"]),
            "--tls-cert needs --tls-key"
        );
        assert_eq!(
            refused(&["--tls-key", "k.pem"]),
            "--tls-key needs --tls-cert"
        );
        assert_eq!(
            refused(&["--tls-client-ca", "ca.pem"]),
            "--tls-client-ca needs --tls-cert and --tls-key"
        );
        assert!(
            refused(&["--tls-cert", "/nonexistent/c.pem", "--tls-key", "k.pem"])
                .starts_with("--tls-cert /nonexistent/c.pem: cannot be read")
        );
    }

    #[test]
    fn client_weights_are_checked() {
        let config = config_of;
        let ok = config(&["--client-weights", "search=3,batch=1"]).unwrap();
        assert_eq!(ok.client_weights.weight("search"), 3);
        assert_eq!(ok.client_weights.weight("anyone"), 1);
        assert_eq!(
            config(&["--client-weights", "search=0"])
                .unwrap_err()
                .to_string(),
            "--client-weights: the weight of \"search\" must be in 1..=1000, got \"0\""
        );
        assert!(
            config(&["--client-metric-labels", "5000"])
                .unwrap_err()
                .to_string()
                .starts_with("--client-metric-labels must be at most 1000")
        );
    }

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_duration("7"), Ok(Duration::from_secs(7)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("5h").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("2h").is_err());
    }
}
