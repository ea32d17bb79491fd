//! Every way a playground request can fail, and the one place where failures become
//! HTTP responses: a status and `{"error": "...", "field": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// A refused request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The request field at fault (`players`, `levels[1]`, `decision`), if one is.
    pub field: Option<String>,
    /// What is wrong, for a person.
    pub message: String,
}

impl ApiError {
    /// 400: `field` of the request breaks a rule.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            field: Some(field.into()),
            message: message.into(),
        }
    }

    /// 404: no such table or move.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::plain(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request does not fit the table's state (not this seat's turn, the
    /// match is over).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::plain(StatusCode::CONFLICT, message)
    }

    /// 408: the request took too long (a body sent too slowly).
    pub fn timed_out(message: impl Into<String>) -> Self {
        Self::plain(StatusCode::REQUEST_TIMEOUT, message)
    }

    /// 503: the playground cannot take it now (every table is in use, a bot is still
    /// thinking).
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::plain(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    fn plain(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            field: None,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({"error": self.to_string(), "field": self.field});
        super::json_response(self.status, &body)
    }
}
