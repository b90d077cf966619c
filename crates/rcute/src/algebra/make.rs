//! make_layout_like, make_ordered_layout, make_identity_layout (`layout.md` sections 9, 11).
use crate::{HRef, Layout, Result};

/// `make_layout_like(L)`.
pub fn make_layout_like(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("make_layout_like"))
}
/// `make_ordered_layout(shape, order)`.
pub fn make_ordered_layout(shape: HRef<'_, i64>, order: HRef<'_, i64>) -> Result<Layout> {
    let _ = (shape, order);
    Err(super::not_yet("make_ordered_layout"))
}
/// `make_identity_layout(shape)`.
pub fn make_identity_layout(shape: HRef<'_, i64>) -> Result<Layout> {
    let _ = shape;
    Err(super::not_yet("make_identity_layout"))
}
