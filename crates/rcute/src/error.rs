//! The error type of every fallible rcute operation.
//!
//! Each error carries one of the kinds of `NOTATION.md` ("Output") and a
//! message naming the operation and its operands. The CLI prints it as
//! `error: KIND: message`.

use std::fmt;

/// The kind of an [`Error`], one per row of NOTATION.md's error list.
///
/// # Example
/// ```
/// use rcute::ErrorKind;
/// assert_eq!(ErrorKind::Divisibility.to_string(), "divisibility");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed notation text.
    Parse,
    /// A value of the wrong kind (e.g. an F2 stride where integers are needed).
    Type,
    /// Tuple lengths that differ where they must agree.
    Rank,
    /// Shape and stride (or two HTuples) whose profiles differ.
    Congruence,
    /// A shape or stride divisibility condition of composition, recast, ...
    Divisibility,
    /// A layout that had to be injective is not.
    Injectivity,
    /// A result outside the signed 64-bit range.
    Overflow,
    /// An index outside a tuple.
    Bounds,
    /// Any other invalid value (size mismatch, division by zero, ...).
    Value,
}

impl ErrorKind {
    /// The lower-case name printed by the CLI (`parse`, `type`, ...).
    ///
    /// ```
    /// assert_eq!(rcute::ErrorKind::Rank.name(), "rank");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse",
            ErrorKind::Type => "type",
            ErrorKind::Rank => "rank",
            ErrorKind::Congruence => "congruence",
            ErrorKind::Divisibility => "divisibility",
            ErrorKind::Injectivity => "injectivity",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Bounds => "bounds",
            ErrorKind::Value => "value",
        }
    }

    /// The Python exception the reference raises for this kind
    /// (`ValueError`, `TypeError`, `IndexError`, `OverflowError`).
    ///
    /// ```
    /// assert_eq!(rcute::ErrorKind::Bounds.python_exception(), "IndexError");
    /// ```
    pub fn python_exception(self) -> &'static str {
        match self {
            ErrorKind::Type => "TypeError",
            ErrorKind::Bounds => "IndexError",
            ErrorKind::Overflow => "OverflowError",
            _ => "ValueError",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An rcute error: a [`ErrorKind`] and a message that names the violated
/// condition and the operands.
///
/// Displays as `KIND: message`.
///
/// ```
/// use rcute::{Error, ErrorKind};
/// let e = Error::new(ErrorKind::Rank, "idx2crd: (1, 2, 3) has 3 modes, shape (3, 4) has 2");
/// assert_eq!(e.to_string(), "rank: idx2crd: (1, 2, 3) has 3 modes, shape (3, 4) has 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {message}")]
pub struct Error {
    /// The error's kind.
    pub kind: ErrorKind,
    /// What went wrong, naming the operation and its operands.
    pub message: String,
}

impl Error {
    /// Builds an error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
    /// A `type` error.
    pub fn type_(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, message)
    }
    /// A `rank` error.
    pub fn rank(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Rank, message)
    }
    /// A `congruence` error.
    pub fn congruence(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Congruence, message)
    }
    /// A `divisibility` error.
    pub fn divisibility(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Divisibility, message)
    }
    /// An `injectivity` error.
    pub fn injectivity(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Injectivity, message)
    }
    /// An `overflow` error.
    pub fn overflow(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Overflow, message)
    }
    /// A `bounds` error.
    pub fn bounds(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Bounds, message)
    }
    /// A `value` error.
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Value, message)
    }
    /// A `parse` error.
    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Parse, message)
    }
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
