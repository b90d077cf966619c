//! filter_zeros and filter (`algebra.md` section 3).
use crate::{Layout, Result, Tiler};

/// `filter_zeros(A)`.
pub fn filter_zeros(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("filter_zeros"))
}
/// `filter(A)`.
pub fn filter(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("filter"))
}
/// `filter(A, profile)`, by mode.
pub fn filter_by_mode(a: &Layout, profile: &Tiler) -> Result<Layout> {
    let _ = (a, profile);
    Err(super::not_yet("filter"))
}
