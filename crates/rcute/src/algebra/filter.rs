//! filter_zeros and filter (`docs/operations.md`): C++ CuTe's definitions
//! on top of rcute's coalesce.

use crate::error::Result;
use crate::tiler::TilerRef;
use crate::Layout;

/// `filter_zeros(A)` (`docs/operations.md`; C++ CuTe `filter_zeros`):
/// the same profile and stride, with every shape leaf whose stride leaf is
/// zero in its algebra (`0`, `F0`, or an all-zero coordinate value) replaced
/// by `1`. Never fails on a well-formed layout.
///
/// ```
/// use rcute::{algebra::filter_zeros, HTuple, Layout, Scalar};
/// let a = Layout::new(HTuple::flat([4i64, 1, 3]), HTuple::flat([1, 5, 0].map(Scalar::Int))).unwrap();
/// assert_eq!(filter_zeros(&a).unwrap().to_string(), "(4, 1, 1):(1, 5, 0)");
/// ```
pub fn filter_zeros(a: &Layout) -> Result<Layout> {
    let mut shape = a.shape().clone();
    for (s, d) in shape.leaves_mut().iter_mut().zip(a.stride().leaves()) {
        if d.is_zero() {
            *s = 1;
        }
    }
    Ok(Layout::from_parts(shape, a.stride().to_owned()))
}

/// `filter(A)` (`docs/operations.md`; C++ CuTe `filter`):
/// `coalesce(filter_zeros(A))`, except that a result of size 1 is `1:0`
/// (C++'s coalesce normalises an all-size-1 layout to `1:0`, rcute's
/// coalesce keeps the last stride). The result has depth at most 1 and no
/// stride-0 or size-1 modes (unless it is `1:0`).
///
/// Errors: those of [`coalesce`](super::coalesce()) (mixed algebras: `type`).
///
/// ```
/// use rcute::{algebra::filter, HTuple, Layout, Scalar};
/// let a = Layout::new(HTuple::flat([4i64, 2, 3]), HTuple::flat([1, 0, 4].map(Scalar::Int))).unwrap();
/// assert_eq!(filter(&a).unwrap().to_string(), "12:1");
/// let b = Layout::new(HTuple::flat([1i64, 1]), HTuple::flat([3, 5].map(Scalar::Int))).unwrap();
/// assert_eq!(filter(&b).unwrap().to_string(), "1:0");
/// ```
pub fn filter(a: &Layout) -> Result<Layout> {
    super::coalesce::ModeOp::Filter.whole(a)
}

/// `filter(A, profile)` (`docs/operations.md`): by mode exactly like
/// [`coalesce_by_mode`](super::coalesce_by_mode), with [`filter`] at the
/// non-`None` leaves of the profile.
///
/// Errors: `rank` when the profile is longer than the rank of the mode it
/// applies to; those of [`filter`].
///
/// ```
/// use rcute::{algebra::filter_by_mode, HTuple, Layout, Scalar, Tiler};
/// let s = HTuple::tuple([HTuple::leaf(4i64), HTuple::flat([2i64, 3])]);
/// let d = HTuple::tuple([HTuple::leaf(Scalar::Int(0)), HTuple::flat([Scalar::Int(1), Scalar::Int(2)])]);
/// let a = Layout::new(s, d).unwrap();
/// let p = Tiler::Tuple(vec![Tiler::Int(1), Tiler::Int(1)].into());
/// assert_eq!(filter_by_mode(&a, &p).unwrap().to_string(), "(1, 6):(0, 1)");
/// ```
pub fn filter_by_mode(a: &Layout, profile: &TilerRef<'_>) -> Result<Layout> {
    super::coalesce::ModeOp::Filter.by_mode(a, profile)
}
