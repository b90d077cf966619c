//! complement, minimal and extended (`algebra.md` section 5).
use crate::{HRef, Layout, Result};

/// `complement(A, extend=X)`; `extend = None` (or `0` / `()`) gives the minimal complement.
pub fn complement(a: &Layout, extend: Option<HRef<'_, i64>>) -> Result<Layout> {
    let _ = (a, extend);
    Err(super::not_yet("complement"))
}
