//! composition (`algebra.md` section 4).
use crate::{Layout, Result, Tiler};

/// `composition(A, B)` with the tiler dispatch of `algebra.md` section 0.
pub fn composition(a: &Layout, b: &Tiler) -> Result<Layout> {
    let _ = (a, b);
    Err(super::not_yet("composition"))
}
