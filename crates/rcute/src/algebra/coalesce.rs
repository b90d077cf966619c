//! coalesce and coalesce_z, whole and by mode (`algebra.md` sections 1, 2).
use crate::{Layout, Result, Tiler};

/// `coalesce(A)`.
pub fn coalesce(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("coalesce"))
}
/// `coalesce_z(A)`.
pub fn coalesce_z(a: &Layout) -> Result<Layout> {
    let _ = a;
    Err(super::not_yet("coalesce_z"))
}
/// `coalesce(A, profile)`: `Tiler::None` leaves A alone, any other leaf means coalesce, a tuple goes by mode.
pub fn coalesce_by_mode(a: &Layout, profile: &Tiler) -> Result<Layout> {
    let _ = (a, profile);
    Err(super::not_yet("coalesce"))
}
/// `coalesce_z(A, profile)`.
pub fn coalesce_z_by_mode(a: &Layout, profile: &Tiler) -> Result<Layout> {
    let _ = (a, profile);
    Err(super::not_yet("coalesce_z"))
}
