//! max_common_layout and max_common_vector (`docs/operations.md`).
use crate::tiler::TilerRef;
use crate::{Layout, Result, Scalar};

use super::coalesce::coalesce;
use super::composition::composition;
use super::inverse::right_inverse;

/// `coalesce(composition(A, right_inverse(B)))` and `right_inverse(B)`, and
/// its first mode when that mode has stride 1.
fn common_unit_mode(a: &Layout, b: &Layout) -> Result<(Layout, Option<Layout>)> {
    let inv = right_inverse(b)?;
    let common = coalesce(&composition(a, &TilerRef::Layout(inv.clone()))?)?;
    let c0 = if common.is_leaf() {
        common
    } else {
        common.mode(0)?
    };
    let unit = c0.stride().as_leaf() == Some(&Scalar::Int(1));
    Ok((inv, unit.then_some(c0)))
}

/// `max_common_layout(A, B)` (`docs/operations.md`; C++ CuTe
/// `max_common_layout`, not in PyCuTe): the layout, into the domain of B
/// (and A), of the longest run of consecutive offsets `0, 1, ..., n-1` of B
/// that A places at the same logical coordinates as B — the
/// auto-vectorisation question. Takes two layouts of the same domain;
/// returns `composition(right_inverse(B), c0)` where `c0` is the first mode
/// of `coalesce(A ∘ right_inverse(B))` when its stride is 1, else `1:0`.
///
/// Errors: those of `right_inverse` (`type` for mixed algebras) and of
/// composition (`divisibility` when `A ∘ right_inverse(B)` is inadmissible).
///
/// ```
/// use rcute::{Layout, HTuple};
/// use rcute::algebra::max_common_layout;
/// let a = Layout::row_major(HTuple::flat([4, 8])).unwrap();            // (4,8):(8,1)
/// let r = max_common_layout(&a, &a).unwrap();
/// assert_eq!(r.size().unwrap(), 32);
/// for i in 0..32 {
///     let c = r.eval_index(i).unwrap().as_int().unwrap();
///     assert_eq!(a.eval_index(c).unwrap().as_int().unwrap(), i);
/// }
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    match common_unit_mode(a, b)? {
        (inv, Some(c0)) => composition(&inv, &TilerRef::Layout(c0)),
        (_, None) => Ok(Layout::leaf(1, Scalar::Int(0))),
    }
}

/// `max_common_vector(A, B)` (`docs/operations.md`; C++ CuTe
/// `max_common_vector`, not in PyCuTe): the number of consecutive offsets
/// `0, 1, ..., n-1` that A and B place at the same logical coordinates —
/// `shape(c0)` when the first mode `c0` of `coalesce(A ∘ right_inverse(B))`
/// has stride 1, else 1.
///
/// Errors: as [`max_common_layout`].
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::algebra::max_common_vector;
/// let a = Layout::column_major(HTuple::flat([4, 4])).unwrap();           // (4,4):(1,4)
/// let b = Layout::new(HTuple::tuple([HTuple::flat([2, 2]), HTuple::leaf(4)]),
///     HTuple::tuple([HTuple::flat([Scalar::Int(1), Scalar::Int(8)]), HTuple::leaf(Scalar::Int(2))])).unwrap();
/// assert_eq!(max_common_vector(&a, &b).unwrap(), 2);
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64> {
    match common_unit_mode(a, b)? {
        (_, Some(c0)) => c0.size(),
        (_, None) => Ok(1),
    }
}
