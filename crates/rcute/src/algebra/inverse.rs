//! right_inverse, left_inverse, nullspace (`algebra.md` sections 11-13).
use crate::{Layout, Result};

/// `right_inverse(A)`.
pub fn right_inverse(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("right_inverse"))
}
/// `left_inverse(A)`.
pub fn left_inverse(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("left_inverse"))
}
/// `nullspace(A)`.
pub fn nullspace(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("nullspace"))
}
