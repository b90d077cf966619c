//! Tensor slicing (`docs/tensors.md`) on top of the layout's
//! `slice_and_offset` (`docs/language.md`, "Slicing").
//!
//! The one difference from the notation's layout slicing is the bare
//! `None`: a layout returns itself there, a tensor wraps its layout into a
//! 1-tuple (PyCuTe's tensor slicing, `T[None]`).

use crate::error::Result;
use crate::htuple::HRef;
use crate::layout::Layout;
use crate::stride::Scalar;

/// `(offset, sub-layout)` of `l` sliced at `c`: the sub-layout has one mode
/// per `None` leaf of `c` (rank 0 without any).
///
/// Errors: those of [`crate::algebra::slice_and_offset`] (`rank` for a
/// coordinate that does not fit the shape, `type`, `overflow`).
pub(crate) fn slice_layout(l: &Layout, c: HRef<'_, Option<Scalar>>) -> Result<(Scalar, Layout)> {
    if let Some(None) = c.as_leaf() {
        return Ok((Scalar::Int(0), Layout::concat_allow_empty([l.clone()])));
    }
    let (sub, off) = crate::algebra::slice_and_offset(l, c)?;
    Ok((off, sub))
}

/// True when the coordinate has at least one `None` leaf.
pub(crate) fn has_slice(c: HRef<'_, Option<Scalar>>) -> bool {
    c.leaves().iter().any(Option::is_none)
}
