//! layout_add and greatest_common_domain (`algebra.md` sections 15, 16).
use crate::{HRef, Layout, Result};

/// `layout_add(A, B)`.
pub fn layout_add(a: &Layout, b: &Layout) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("layout_add"))
}
/// `greatest_common_domain(A, B)` of two shapes.
pub fn greatest_common_domain(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("greatest_common_domain"))
}
