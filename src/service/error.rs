//! Every way a call can fail, and the one place where failures become `tonic::Status`.

use crate::bot::Difficulty;
use crate::game::GameKind;
use crate::service::game::WireGame;
use crate::view_error::ViewError;
use std::borrow::Cow;
use tonic::{Code, Status};

/// A failed call, before it becomes a `tonic::Status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServiceError {
    /// The request breaks a rule. `field` is the path from the request root, e.g.
    /// `view.lexio.hand[3]`.
    InvalidArgument {
        /// The path of the field that breaks the rule.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The game has no bot at this level yet.
    Unimplemented {
        /// The game of the view.
        game: GameKind,
        /// The level asked for.
        difficulty: Difficulty,
    },
    /// The client's deadline leaves no time, or passed during the decision.
    DeadlineExceeded(&'static str),
    /// No decision slot became free within the budget.
    ResourceExhausted {
        /// How long the call waited for a slot, in milliseconds.
        waited_ms: u128,
        /// When the client should retry, in milliseconds: sent as the
        /// `grpc-retry-pushback-ms` trailer.
        pushback_ms: u64,
    },
    /// The server failed in a way that is not the client's doing.
    Internal(String),
    /// Code on the call's path panicked (a server bug): decoding, validation, a
    /// decision or the answer. The server keeps serving; the call is logged at error
    /// level with its seed and game and counted under the outcome `panic`.
    Panicked {
        /// What the call was doing, e.g. `validating the view`.
        during: &'static str,
        /// The panic's message.
        message: String,
    },
}

impl ServiceError {
    /// An INVALID_ARGUMENT naming `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ServiceError::InvalidArgument {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// An INVALID_ARGUMENT for a view that game `G`'s constructor refused: the field
    /// it names, as the proto names it, under `view.<game>.` (`view.lexio.hand[3]`).
    pub fn invalid_view<G: WireGame>(error: ViewError) -> Self {
        ServiceError::invalid(
            format!("view.{}.{}", G::KIND.name(), G::wire_field(&error.field)),
            error.reason,
        )
    }

    /// The gRPC code this error is sent with.
    pub fn code(&self) -> Code {
        match self {
            ServiceError::InvalidArgument { .. } => Code::InvalidArgument,
            ServiceError::Unimplemented { .. } => Code::Unimplemented,
            ServiceError::DeadlineExceeded(_) => Code::DeadlineExceeded,
            ServiceError::ResourceExhausted { .. } => Code::ResourceExhausted,
            ServiceError::Internal(_) | ServiceError::Panicked { .. } => Code::Internal,
        }
    }
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServiceError::InvalidArgument { field, reason } => write!(f, "{field}: {reason}"),
            ServiceError::Unimplemented { game, difficulty } => {
                write!(f, "{} has no {} bot yet", game.name(), difficulty.name())
            }
            ServiceError::DeadlineExceeded(why) => write!(f, "deadline exceeded: {why}"),
            ServiceError::ResourceExhausted {
                waited_ms,
                pushback_ms,
            } => write!(
                f,
                "all decision slots busy; none freed within the {waited_ms} ms budget; \
                 retry in {pushback_ms} ms"
            ),
            ServiceError::Internal(why) => write!(f, "internal error: {why}"),
            ServiceError::Panicked { during, message } => write!(
                f,
                "internal error: the server panicked while {during} ({message}); \
                 a bug in the server, logged with the call's seed"
            ),
        }
    }
}

/// The trailer that tells a gRPC client when to retry a refused call (gRPC's retry
/// design, "pushback"), in milliseconds.
pub const RETRY_PUSHBACK: &str = "grpc-retry-pushback-ms";

impl From<ServiceError> for Status {
    fn from(error: ServiceError) -> Status {
        let mut status = Status::new(error.code(), error.to_string());
        if let ServiceError::ResourceExhausted { pushback_ms, .. } = error
            && let Ok(value) = pushback_ms.to_string().parse()
        {
            status.metadata_mut().insert(RETRY_PUSHBACK, value);
        }
        status
    }
}

/// The message of a caught panic's payload (`panic!` with a literal or a format).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs `f`, turning a panic into [`ServiceError::Panicked`] (the panic hook has
/// already printed it to stderr).
pub fn catch_panic<T>(during: &'static str, f: impl FnOnce() -> T) -> Result<T, ServiceError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        ServiceError::Panicked {
            during,
            message: panic_message(payload.as_ref()),
        }
    })
}

/// The most characters of a reason a log line carries: a reason may quote what the
/// client sent, and a log line stays short whatever it sent.
pub const LOGGED_REASON_CHARS: usize = 200;

/// `reason` as a log line carries it: cut after [`LOGGED_REASON_CHARS`] characters,
/// the cut marked with `...`.
pub fn logged_reason(reason: &str) -> Cow<'_, str> {
    match reason.char_indices().nth(LOGGED_REASON_CHARS) {
        None => Cow::Borrowed(reason),
        Some((cut, _)) => Cow::Owned(format!("{}...", &reason[..cut])),
    }
}

/// The snake-case name of a gRPC code, used as a metrics label and log field.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "ok",
        Code::Cancelled => "cancelled",
        Code::Unknown => "unknown",
        Code::InvalidArgument => "invalid_argument",
        Code::DeadlineExceeded => "deadline_exceeded",
        Code::NotFound => "not_found",
        Code::AlreadyExists => "already_exists",
        Code::PermissionDenied => "permission_denied",
        Code::ResourceExhausted => "resource_exhausted",
        Code::FailedPrecondition => "failed_precondition",
        Code::Aborted => "aborted",
        Code::OutOfRange => "out_of_range",
        Code::Unimplemented => "unimplemented",
        Code::Internal => "internal",
        Code::Unavailable => "unavailable",
        Code::DataLoss => "data_loss",
        Code::Unauthenticated => "unauthenticated",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_internal_with_its_message() {
        let caught = catch_panic("testing", || -> u32 { panic!("boom {}", 7) }).unwrap_err();
        assert_eq!(caught.code(), Code::Internal);
        assert_eq!(
            caught,
            ServiceError::Panicked {
                during: "testing",
                message: "boom 7".to_string()
            }
        );
        assert!(
            caught
                .to_string()
                .contains("panicked while testing (boom 7)")
        );
        assert_eq!(catch_panic("testing", || 3), Ok(3));
        let literal = std::panic::catch_unwind(|| panic!("plain")).unwrap_err();
        assert_eq!(panic_message(literal.as_ref()), "plain");
    }

    #[test]
    fn a_refusal_carries_its_pushback() {
        let status = Status::from(ServiceError::ResourceExhausted {
            waited_ms: 100,
            pushback_ms: 250,
        });
        assert_eq!(status.code(), Code::ResourceExhausted);
        assert_eq!(
            status
                .metadata()
                .get(RETRY_PUSHBACK)
                .unwrap()
                .to_str()
                .unwrap(),
            "250"
        );
    }

    #[test]
    fn a_logged_reason_is_cut_at_a_character_boundary() {
        assert_eq!(logged_reason("short"), "short");
        let exact = "x".repeat(LOGGED_REASON_CHARS);
        assert_eq!(logged_reason(&exact), exact.as_str());
        let long = "\u{e9}".repeat(LOGGED_REASON_CHARS + 1);
        let cut = logged_reason(&long);
        assert_eq!(cut.chars().count(), LOGGED_REASON_CHARS + 3);
        assert!(cut.starts_with(&"\u{e9}".repeat(LOGGED_REASON_CHARS)));
        assert!(cut.ends_with("..."));
    }
}
