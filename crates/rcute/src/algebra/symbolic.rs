//! The algebra on layouts with symbolic leaves ([`SymLayout`]).
//!
//! (Work in progress: the entry points; each runs the generic kernels of
//! its operation family.)

use crate::error::{Error, Result};
use crate::sym::SymInt;
use crate::SymLayout;

fn pending(op: &str) -> Error {
    Error::type_(format!("{op}: not yet available on layouts with symbols"))
}

impl SymLayout {
    /// `coalesce(L)`.
    pub fn coalesce(&self) -> Result<SymLayout> {
        Err(pending("coalesce"))
    }
    /// `composition(A, B)` (`A` is `self`).
    pub fn composition(&self, _b: &SymLayout) -> Result<SymLayout> {
        Err(pending("composition"))
    }
    /// `complement(A, cotarget)`.
    pub fn complement(&self, _cotarget: Option<&SymInt>) -> Result<SymLayout> {
        Err(pending("complement"))
    }
    /// `right_inverse(A)`.
    pub fn right_inverse(&self) -> Result<SymLayout> {
        Err(pending("right_inverse"))
    }
    /// `left_inverse(A)`.
    pub fn left_inverse(&self) -> Result<SymLayout> {
        Err(pending("left_inverse"))
    }
    /// `logical_divide(A, B)` for a layout tiler.
    pub fn logical_divide(&self, _b: &SymLayout) -> Result<SymLayout> {
        Err(pending("logical_divide"))
    }
    /// `logical_divide(A, (B0, B1, ...))`: by mode, `None` keeps a mode.
    pub fn logical_divide_by_mode(&self, _b: &[Option<SymLayout>]) -> Result<SymLayout> {
        Err(pending("logical_divide"))
    }
    /// `composition(A, (B0, B1, ...))`: by mode, `None` keeps a mode.
    pub fn composition_by_mode(&self, _b: &[Option<SymLayout>]) -> Result<SymLayout> {
        Err(pending("composition"))
    }
}
