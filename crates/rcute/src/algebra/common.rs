//! max_common_layout and max_common_vector (`algebra.md` section 14).
use crate::{Layout, Result};

/// `max_common_layout(A, B)`.
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("max_common_layout"))
}
/// `max_common_vector(A, B)`.
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64> {
    let _ = (a, b);
    Err(super::not_yet("max_common_vector"))
}
