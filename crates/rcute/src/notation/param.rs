//! The parameters of an operation, as the operation table
//! ([`super::table`]) lists them and the implementations
//! ([`super::imp`]) read their keyword arguments by them.

/// How a parameter is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// One positional argument, also accepted by keyword (its name);
    /// required unless it has a default.
    Positional,
    /// Any number of positional arguments (`*name`), no keyword.
    Variadic,
    /// One positional argument that cannot be passed by keyword (Python's
    /// `name, /`): its name stays free for the `**` parameter.
    PositionalOnly,
    /// Any keyword arguments (`**name`), by their own names (`subs(X,
    /// N=128)`).
    Keywords,
}

/// One parameter of an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The name, which is also the keyword that passes the argument.
    pub name: &'static str,
    /// The default, as notation text (`None`: required).
    pub default: Option<&'static str>,
    /// Positional or variadic.
    pub kind: ParamKind,
}
