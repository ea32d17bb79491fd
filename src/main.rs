//! The `climbot` command: the gRPC service and the offline tools (statistics,
//! self-play) in one binary.
#![forbid(unsafe_code)]
// Output goes through `outln!` and `errln!` (tools::output), which never panic on a
// closed or full stream.
#![cfg_attr(not(test), deny(clippy::print_stdout, clippy::print_stderr))]

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use climbot::service::{self, LogFormat, ServeArgs};
use climbot::tools::{EXIT_FAILURE, EXIT_USAGE, ToolError};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Duration;

/// The exit codes, shown at the end of `--help`.
const EXIT_CODES: &str = "\
Exit status:
  0   success, or a reader of the output that went away before the end (| head)
  64  usage: an unknown flag or value, a value out of range (e.g. --blocks 1: an
      interval needs 2 blocks), a flag that does not apply to the game, a bad
      server configuration (a TLS certificate or key that cannot be served
      included) or a listen address that cannot be bound
  1   the run failed: a file that cannot be read or written (the output too: a
      full disk), a server that cannot be reached, an illegal action or broken
      invariant found by self-play";

/// climbot: a bot service for climbing games (Lexio, The Great Dalmuti, Daifugo).
#[derive(Parser, Debug)]
#[command(name = "climbot", version, about, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the gRPC bot service (flags also read from CLIMBOT_* variables).
    Serve(ServeArgs),
    /// Reproduce the design documents' statistics on random deals.
    #[command(subcommand)]
    Stats(StatsCommand),
    /// Duplicate matches between bots, with 95% intervals over blocks.
    Arena(climbot::arena::cli::ArenaArgs),
    /// Every pair of levels in duplicate matches, and one rating per level.
    Ladder(climbot::arena::cli::LadderArgs),
    /// Merge the shard files of an arena or ladder run into its report.
    Merge(climbot::arena::cli::MergeArgs),
    /// Fit a game's learned policy to a teacher bot's decisions in self-play.
    Train(climbot::tools::train::TrainArgs),
    /// Play many rounds between easy bots, checking every action and invariant.
    #[command(subcommand)]
    Selfplay(SelfplayCommand),
    /// Offline tables compiled into the bots.
    #[command(subcommand)]
    Tables(TablesCommand),
    /// Load-test tooling: request payloads for ghz and h2load.
    #[command(subcommand)]
    Loadtest(climbot::loadtest::LoadtestCommand),
    /// UECda: play on a computer-Daifugo contest server, or serve a contest match.
    #[command(subcommand)]
    Uecda(climbot::uecda::UecdaCommand),
    /// The API's protobuf definitions, for tools without server reflection.
    #[command(subcommand)]
    Proto(ProtoCommand),
    /// A web page to play against the bots and watch bot tables with explanations.
    Playground(climbot::playground::PlaygroundArgs),
}

#[derive(Subcommand, Debug)]
enum ProtoCommand {
    /// Write the encoded FileDescriptorSet of climbot.v1 (with comments) to a file.
    Descriptor(climbot::tools::proto::DescriptorArgs),
}

#[derive(Subcommand, Debug)]
enum StatsCommand {
    /// Lexio opening hands (Lexio Parts 1 and 2).
    Lexio(climbot::tools::lexio::StatsArgs),
    /// The Great Dalmuti: how often an opening lead can be beaten.
    Dalmuti(climbot::tools::dalmuti::StatsArgs),
    /// Daifugo: the forbidden-finish rate of 4, 5 and 6 easy players (Daifugo Part 2).
    Daifugo(climbot::tools::daifugo::StatsArgs),
}

#[derive(Subcommand, Debug)]
enum TablesCommand {
    /// Lexio: the Lexio Part 2 safety table (chance a play gets beaten), or its validation.
    LexioSafety(climbot::tools::lexio::SafetyTableArgs),
}

#[derive(Subcommand, Debug)]
enum SelfplayCommand {
    /// Lexio rounds.
    Lexio(climbot::tools::lexio::SelfplayArgs),
    /// The Great Dalmuti: matches between bots, every action checked.
    Dalmuti(climbot::tools::dalmuti::SelfplayArgs),
    /// Daifugo: easy self-play under the house or UECda rules.
    Daifugo(climbot::tools::daifugo::SelfplayArgs),
}

/// The command line's definition: `climbot` alone, and each group of subcommands alone
/// (`climbot stats`), print their help instead of a bare complaint.
fn command() -> clap::Command {
    let mut command = Cli::command().arg_required_else_help(true);
    let groups: Vec<String> = command
        .get_subcommands()
        .filter(|c| c.has_subcommands())
        .map(|c| c.get_name().to_string())
        .collect();
    for group in groups {
        command = command.mut_subcommand(group, |c| c.arg_required_else_help(true));
    }
    command
}

/// The command line, or the exit after its help, its version or clap's whole error.
fn parse() -> Result<Cli, ExitCode> {
    let error = match command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            Err(ExitCode::SUCCESS)
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Nothing to do was named: the help of what was named, on stderr.
            let _ = error.print();
            Err(ExitCode::from(EXIT_USAGE))
        }
        _ => {
            // clap's whole message (what is wrong, the usage line, the possible values),
            // its first line prefixed like every other error of the command.
            let rendered = error.render().to_string();
            let mut lines = rendered.lines();
            let first = lines.next().unwrap_or("invalid command line");
            let flag = match error.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(arg)) => arg.clone(),
                _ => String::new(),
            };
            climbot::errln!(
                "climbot: {}{}",
                first.trim_start_matches("error: "),
                from_environment(&flag)
            );
            let rest: Vec<&str> = lines.collect();
            let has_usage = rest.iter().any(|l| l.starts_with("Usage:"));
            for line in rest {
                // Every message carries the usage line of the command it is about.
                if !has_usage && line.starts_with("For more information") {
                    climbot::errln!("{}\n", usage());
                }
                climbot::errln!("{line}");
            }
            Err(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// The usage line of the deepest subcommand the command line names.
fn usage() -> String {
    let mut command = command();
    command.build();
    let mut current = &mut command;
    for word in std::env::args().skip(1) {
        if current.find_subcommand(&word).is_none() {
            break;
        }
        current = current
            .find_subcommand_mut(&word)
            .expect("the subcommand was just found");
    }
    current.render_usage().to_string()
}

/// For a message naming flags (`--max-budget-ms`), the environment variables that set
/// the ones not given on the command line: " (set by CLIMBOT_MAX_BUDGET_MS=\"abc\")", or
/// nothing.
fn from_environment(message: &str) -> String {
    let given: Vec<String> = std::env::args().skip(1).collect();
    let on_command_line = |long: &str| {
        given
            .iter()
            .any(|a| a == long || a.starts_with(&format!("{long}=")))
    };
    let mut notes = Vec::new();
    for word in message.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        let Some(name) = word.strip_prefix("--") else {
            continue;
        };
        let cli = Cli::command();
        let arg = cli
            .get_subcommands()
            .flat_map(clap::Command::get_arguments)
            .find(|a| a.get_long() == Some(name) && a.get_env().is_some());
        let Some(variable) = arg.and_then(clap::Arg::get_env) else {
            continue;
        };
        if on_command_line(word) {
            continue;
        }
        if let Some(value) = std::env::var_os(variable) {
            let note = format!(
                "{} set by the environment variable {}={:?}",
                word,
                variable.to_string_lossy(),
                value.to_string_lossy()
            );
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    }
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match cli.command {
        Command::Serve(args) => serve(&args),
        Command::Stats(cmd) => report(match cmd {
            StatsCommand::Lexio(args) => climbot::tools::lexio::stats(args),
            StatsCommand::Dalmuti(args) => climbot::tools::dalmuti::run_stats(&args),
            StatsCommand::Daifugo(args) => climbot::tools::daifugo::stats(&args),
        }),
        Command::Arena(args) => report(climbot::arena::cli::arena(args)),
        Command::Ladder(args) => report(climbot::arena::cli::ladder(args)),
        Command::Merge(args) => report(climbot::arena::cli::merge_shards(args)),
        Command::Train(args) => report(climbot::tools::train::train(&args)),
        Command::Selfplay(cmd) => report(match cmd {
            SelfplayCommand::Lexio(args) => climbot::tools::lexio::selfplay(args),
            SelfplayCommand::Dalmuti(args) => climbot::tools::dalmuti::run_selfplay(&args),
            SelfplayCommand::Daifugo(args) => climbot::tools::daifugo::selfplay(&args),
        }),
        Command::Tables(TablesCommand::LexioSafety(args)) => {
            report(climbot::tools::lexio::safety_table(args))
        }
        Command::Loadtest(cmd) => report(climbot::loadtest::run(cmd)),
        Command::Uecda(cmd) => report(climbot::uecda::run(&cmd)),
        Command::Proto(ProtoCommand::Descriptor(args)) => {
            report(climbot::tools::proto::descriptor(&args))
        }
        Command::Playground(args) => report(climbot::playground::run(&args)),
    }
}

/// The exit of an offline command: its error on one line of stderr, and the exit code
/// of its kind.
fn report(result: Result<(), impl Into<ToolError>>) -> ExitCode {
    match result.map_err(Into::into) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            climbot::errln!("climbot: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

fn init_tracing(format: LogFormat, filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only for a person reading a terminal; never in a file or a pipe.
    let ansi = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .init(),
    }
}

fn serve(args: &ServeArgs) -> ExitCode {
    let config = match args.to_config() {
        Ok(config) => config,
        Err(message) => {
            climbot::errln!(
                "climbot: bad configuration: {message}{}",
                from_environment(&message.to_string())
            );
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // Every learned policy is compiled in; one whose weights do not fit this build's
    // features stops the start here, with the file and the reason, rather than at the
    // first search that needs it. Loading them now also spares the first call.
    if let Err(message) = climbot::learn::check_shipped() {
        climbot::errln!("climbot: {message}");
        return ExitCode::from(EXIT_FAILURE);
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            climbot::errln!("climbot: cannot start the runtime: {e}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    // The addresses are bound before logging starts: an address that cannot be bound
    // is a usage error, told on one line of stderr and nowhere else.
    let listeners = runtime.block_on(async {
        let grpc = tokio::net::TcpListener::bind(args.grpc_addr)
            .await
            .map_err(|e| format!("cannot listen on --grpc-addr {}: {e}", args.grpc_addr))?;
        let metrics = tokio::net::TcpListener::bind(args.metrics_addr)
            .await
            .map_err(|e| format!("cannot listen on --metrics-addr {}: {e}", args.metrics_addr))?;
        Ok::<_, String>((grpc, metrics))
    });
    let (grpc, metrics) = match listeners {
        Ok(listeners) => listeners,
        Err(message) => {
            climbot::errln!("climbot: {message}{}", from_environment(&message));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    init_tracing(args.log_format, &args.log_filter);
    let result = runtime.block_on(async {
        let local = |l: &tokio::net::TcpListener| {
            l.local_addr()
                .map_or_else(|_| "?".to_string(), |a| a.to_string())
        };
        tracing::info!(
            version = env!("CARGO_PKG_VERSION"),
            grpc_addr = %local(&grpc),
            metrics_addr = %local(&metrics),
            default_difficulty = config.default_difficulty.name(),
            max_budget_ms = config.max_budget.as_millis(),
            deadline_margin_ms = config.deadline_margin.as_millis(),
            decision_slots = config.decision_slots,
            max_message_bytes = config.max_message_bytes,
            drain_delay_ms = config.drain_delay.as_millis(),
            shutdown_grace_ms = config.shutdown_grace.as_millis(),
            tls = match &config.tls {
                None => "off",
                Some(tls) if tls.is_mutual() => "mutual",
                Some(_) => "on",
            },
            "climbot starting"
        );
        service::run(config, grpc, Some(metrics), shutdown_signal())
            .await
            .map_err(|e| format!("server failed: {e}"))
    });
    // Blocking decisions notice the cancel flag within a poll; do not wait for stragglers.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match result {
        Ok(()) => {
            tracing::info!("exit 0");
            ExitCode::SUCCESS
        }
        Err(message) => {
            tracing::error!(%message, "exiting");
            climbot::errln!("climbot: {message}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Resolves on SIGTERM or SIGINT.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => tracing::info!("SIGINT received"),
                    _ = term.recv() => tracing::info!("SIGTERM received"),
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; SIGINT only");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("Ctrl-C received");
    }
}
