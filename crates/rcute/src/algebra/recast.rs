//! recast, upcast, downcast (`algebra.md` section 17).
use crate::{Layout, Result};

/// A recast scale: a rational `num/den`, or a tuple of scales for a coordinate codomain.
#[derive(Clone, Debug, PartialEq)]
pub enum Scale {
    /// The rational `num / den`.
    Ratio {
        /// numerator
        num: i64,
        /// denominator
        den: i64,
    },
    /// One scale per codomain axis.
    Tuple(Vec<Scale>),
}

/// `recast(A, scale)`.
pub fn recast(a: &Layout, scale: &Scale) -> Result<Layout> {
    let _ = (a, scale);
    Err(super::not_yet("recast"))
}
/// `upcast(A, n)`.
pub fn upcast(a: &Layout, n: i64) -> Result<Layout> {
    let _ = (a, n);
    Err(super::not_yet("upcast"))
}
/// `downcast(A, n)`.
pub fn downcast(a: &Layout, n: i64) -> Result<Layout> {
    let _ = (a, n);
    Err(super::not_yet("downcast"))
}
