//! The one error of the three games' view constructors: the field a client got wrong,
//! named exactly, and why.
//!
//! `LexioView::new`, `DalmutiView::new` and `DaifugoView::new` each check a client's
//! input concern by concern (the seats, the hand and the played cards, the table, the
//! log, the exchange or the taxes) and stop at the first field that is wrong. The field
//! is named as the game's input names it, with indices (`hand[3]`,
//! `seats[2].card_count`, `log[4].play`); the service puts it under the view's proto
//! path (`view.lexio.hand[3]`) and answers `INVALID_ARGUMENT` with it.

use std::fmt;

/// Why an input is not a view: the field at fault and the reason. Displayed as
/// `"{field}: {reason}"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewError {
    /// The offending field, e.g. `hand[3]`, `seats[2].card_count` or `log[4].play`.
    pub field: String,
    /// Why it is rejected.
    pub reason: String,
}

impl ViewError {
    /// The error naming `field`, for `reason`.
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> ViewError {
        ViewError {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl std::error::Error for ViewError {}

/// A refusal naming `field`: the `Err` every check returns.
pub(crate) fn refuse<T>(
    field: impl Into<String>,
    reason: impl Into<String>,
) -> Result<T, ViewError> {
    Err(ViewError::new(field, reason))
}
