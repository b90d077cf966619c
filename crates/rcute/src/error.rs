//! The error type of every fallible rcute operation.
//!
//! Each error carries one of the kinds of `docs/language.md` ("Errors") and a
//! message naming the operation and its operands. The CLI prints it as
//! `error: KIND: message`.

use std::fmt;

/// The kind of an [`Error`], one per row of docs/language.md's error list.
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

/// An rcute error: an [`ErrorKind`] and a message that names the violated
/// condition and the operands.
///
/// Errors are data: [`Error::kind`] says which condition failed,
/// [`Error::message`] explains it, and the typed API ([`Layout`]'s methods
/// and the crate-level free functions) also records the operation it ran
/// ([`Error::operation`]) and its operands as printed in the default style
/// ([`Error::operands`]). The operands are formatted only when the error is
/// built, never on a success path.
///
/// Displays as `KIND: message`.
///
/// ```
/// use rcute::{Error, ErrorKind, Layout};
/// let e = Error::new(ErrorKind::Rank, "idx2crd: (1, 2, 3) has 3 modes, shape (3, 4) has 2");
/// assert_eq!(e.to_string(), "rank: idx2crd: (1, 2, 3) has 3 modes, shape (3, 4) has 2");
///
/// // from the typed API: the operation and its operands come with the error
/// let a = Layout::new((4, 6, 8), (2, 3, 5))?;
/// let e = a.compose(&Layout::new(6, 3)?).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::Divisibility);
/// assert_eq!(e.operation(), Some("composition"));
/// assert_eq!(e.operands(), ["(4, 6, 8):(2, 3, 5)", "6:3"]);
/// # Ok::<(), rcute::Error>(())
/// ```
///
/// [`Layout`]: crate::Layout
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Error {
    // boxed: a `Result<T>` is then the size of `T` plus at most a word, so
    // that successful results pass through the layers of calls without
    // copying an error-sized payload (errors are the cold path)
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
    operation: Option<&'static str>,
    operands: Vec<String>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.inner.kind, self.inner.message)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.inner.kind)
            .field("message", &self.inner.message)
            .field("operation", &self.inner.operation)
            .field("operands", &self.inner.operands)
            .finish()
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Builds an error of `kind` with `message`.
    #[cold]
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            inner: Box::new(Inner {
                kind,
                message: message.into(),
                operation: None,
                operands: Vec::new(),
            }),
        }
    }

    /// The kind of condition violated.
    ///
    /// ```
    /// let e = "(4,8):(1,4,2)".parse::<rcute::Layout>().unwrap_err();
    /// assert_eq!(e.kind(), rcute::ErrorKind::Congruence);
    /// ```
    #[inline]
    pub fn kind(&self) -> ErrorKind {
        self.inner.kind
    }

    /// The explanation: the violated condition and the operands.
    #[inline]
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// The CuTe name of the operation that failed (`"composition"`,
    /// `"logical_divide"`, ...), when the error came through the typed API.
    #[inline]
    pub fn operation(&self) -> Option<&'static str> {
        self.inner.operation
    }

    /// The operands of [`Error::operation`], each printed in the default
    /// style (`"(4, 8):(1, 4)"`); empty when the operation is unknown.
    #[inline]
    pub fn operands(&self) -> &[String] {
        &self.inner.operands
    }

    /// The same error, recording the operation `op` and the operands that
    /// `operands` prints (called only on failure).
    #[cold]
    pub fn in_operation(
        mut self,
        op: &'static str,
        operands: impl FnOnce() -> Vec<String>,
    ) -> Self {
        if self.inner.operation.is_none() {
            self.inner.operation = Some(op);
            self.inner.operands = operands();
        }
        self
    }

    /// A `type` error.
    #[cold]
    pub fn type_(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, message)
    }
    /// A `rank` error.
    #[cold]
    pub fn rank(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Rank, message)
    }
    /// A `congruence` error.
    #[cold]
    pub fn congruence(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Congruence, message)
    }
    /// A `divisibility` error.
    #[cold]
    pub fn divisibility(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Divisibility, message)
    }
    /// An `injectivity` error.
    #[cold]
    pub fn injectivity(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Injectivity, message)
    }
    /// An `overflow` error.
    #[cold]
    pub fn overflow(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Overflow, message)
    }
    /// A `bounds` error.
    #[cold]
    pub fn bounds(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Bounds, message)
    }
    /// A `value` error.
    #[cold]
    pub fn value(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Value, message)
    }
    /// A `parse` error.
    #[cold]
    pub fn parse(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Parse, message)
    }
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
