//! Every way a call can fail, and the one place where failures become `tonic::Status`.

use crate::bot::Difficulty;
use crate::service::game::GameId;
use tonic::{Code, Status};

/// A failed call, before it becomes a `tonic::Status`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServiceError {
    /// The request breaks a rule. `field` is the path from the request root, e.g.
    /// `view.lexio.hand[3]`.
    InvalidArgument { field: String, reason: String },
    /// The game has no bot at this level yet.
    Unimplemented {
        game: GameId,
        difficulty: Difficulty,
    },
    /// The client's deadline leaves no time, or passed during the decision.
    DeadlineExceeded(&'static str),
    /// No decision slot became free within the budget.
    ResourceExhausted { waited_ms: u128 },
    /// The decision task failed (a panic in a policy).
    Internal(String),
}

impl ServiceError {
    /// An INVALID_ARGUMENT naming `field`.
    pub fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ServiceError::InvalidArgument {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// The gRPC code this error is sent with.
    pub fn code(&self) -> Code {
        match self {
            ServiceError::InvalidArgument { .. } => Code::InvalidArgument,
            ServiceError::Unimplemented { .. } => Code::Unimplemented,
            ServiceError::DeadlineExceeded(_) => Code::DeadlineExceeded,
            ServiceError::ResourceExhausted { .. } => Code::ResourceExhausted,
            ServiceError::Internal(_) => Code::Internal,
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
            ServiceError::ResourceExhausted { waited_ms } => write!(
                f,
                "all decision slots busy; none freed within the {waited_ms} ms budget"
            ),
            ServiceError::Internal(why) => write!(f, "internal error: {why}"),
        }
    }
}

impl From<ServiceError> for Status {
    fn from(error: ServiceError) -> Status {
        Status::new(error.code(), error.to_string())
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
