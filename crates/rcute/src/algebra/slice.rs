//! Slicing with `_` (`layout.md` section 6).
use crate::{HRef, Layout, Result, Scalar};

/// `slice_and_offset(L, c)`: the sub-layout kept by the `_` leaves of `c` and the offset `L(c)`.
pub fn slice_and_offset(a: &Layout, c: HRef<'_, Option<Scalar>>) -> Result<(Layout, Scalar)> {
    let _ = (a, c);
    Err(super::not_yet("slice_and_offset"))
}
/// `L(c)` for a slicing coordinate `c`: the sub-layout only (a bare `_` returns `L`).
pub fn slice(a: &Layout, c: HRef<'_, Option<Scalar>>) -> Result<Layout> {
    let _ = (a, c);
    Err(super::not_yet("slice"))
}
