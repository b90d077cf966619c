//! logical, zipped, tiled, flat, blocked and raked products (`algebra.md` sections 8-10).
use crate::{Layout, Result, Tiler};

/// `logical_product(A, B)`.
pub fn logical_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("logical_product"))
}
/// `zipped_product(A, B)`.
pub fn zipped_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("zipped_product"))
}
/// `tiled_product(A, B)`.
pub fn tiled_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("tiled_product"))
}
/// `flat_product(A, B)`.
pub fn flat_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("flat_product"))
}
/// `blocked_product(A, B)`.
pub fn blocked_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("blocked_product"))
}
/// `raked_product(A, B)`.
pub fn raked_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("raked_product"))
}
