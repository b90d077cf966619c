//! logical, zipped, tiled and flat divide (`algebra.md` sections 6, 7).
use crate::{Layout, Result, Tiler};

/// `logical_divide(A, B)`.
pub fn logical_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("logical_divide"))
}
/// `logical_divide(None, B)` (`algebra.md` section 6).
pub fn logical_divide_none(b: &Tiler) -> Result<Layout> {
    let _ = b;
    Err(super::not_yet("logical_divide"))
}
/// `zipped_divide(A, B)`.
pub fn zipped_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("zipped_divide"))
}
/// `tiled_divide(A, B)`.
pub fn tiled_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("tiled_divide"))
}
/// `flat_divide(A, B)`.
pub fn flat_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("flat_divide"))
}
