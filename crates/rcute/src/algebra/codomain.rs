//! coshape, coprofile and cosize (`strides.md` section 5).
use crate::{HTuple, Layout, Result};

/// `coshape(L)` (`strides.md` 5).
pub fn coshape(a: &Layout) -> Result<HTuple<i64>> {
    let _ = a;
    Err(super::not_yet("coshape"))
}
/// `coprofile(L)` (`strides.md` 5): every leaf printed as 0.
pub fn coprofile(a: &Layout) -> Result<HTuple<i64>> {
    let _ = a;
    Err(super::not_yet("coprofile"))
}
/// `cosize(L) = product(coshape(L))`.
pub fn cosize(a: &Layout) -> Result<i64> {
    let _ = a;
    Err(super::not_yet("cosize"))
}
