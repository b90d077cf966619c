//! make_layout_like, make_ordered_layout, make_identity_layout (`docs/operations.md`).
use std::cmp::Ordering;

use smallvec::SmallVec;

use super::leaf::{int_strides, sort_stable_by};
use crate::htuple::MAX_DEPTH;
use crate::integer::Integer;
use crate::{Error, HRef, HTuple, Layout, Result, Scalar};

/// The leaf indices `0..n` stably sorted by `cmp`, into `idx`.
#[inline]
pub(crate) fn sorted_indices(
    n: usize,
    cmp: impl Fn(usize, usize) -> Result<Ordering>,
    idx: &mut SmallVec<[usize; 8]>,
) -> Result<()> {
    idx.clear();
    idx.extend(0..n);
    sort_stable_by(idx, |&i, &j| cmp(i, j))
}

/// Compact strides for the leaves `extents`, assigned in the order `order`
/// (leaf indices) and appended to the (empty) stride leaves `out`; leaves
/// for which `pinned(i)` keep stride 0.
#[inline]
fn compact_in_order(
    extents: &[i64],
    order: &[usize],
    pinned: impl Fn(usize) -> bool,
    out: &mut crate::htuple::Leaves<Scalar>,
) -> Result<()> {
    out.extend(std::iter::repeat_n(Scalar::Int(0), extents.len()));
    compact_strides(extents, order, pinned, out, Scalar::Int)
}

/// Compact strides for the leaves `extents` (`i64` or symbolic), assigned
/// in the order `order` (leaf indices) into `out` (one slot per leaf, its
/// zeros kept for the leaves for which `pinned(i)`), each made by `conv`.
/// The running product is formed lazily, so the unused product after the
/// last leaf cannot overflow.
#[inline]
pub(crate) fn compact_strides<E: Integer, S>(
    extents: &[E],
    order: &[usize],
    pinned: impl Fn(usize) -> bool,
    out: &mut [S],
    conv: impl Fn(E) -> S,
) -> Result<()> {
    let mut current = E::from_i64(1);
    let mut pending: Option<&E> = None;
    for &i in order {
        if pinned(i) {
            continue;
        }
        let (Some(e), Some(slot)) = (extents.get(i), out.get_mut(i)) else {
            return Err(Error::congruence(
                "compact strides: the shape and stride have different numbers of leaves",
            ));
        };
        if let Some(p) = pending.take() {
            current = current.mul(p)?;
        }
        *slot = conv(current.clone());
        pending = Some(e);
    }
    Ok(())
}

/// `out` set to the shape `shape` (its profile for the stride too); the
/// stride leaves are left empty for the caller to fill.
#[inline]
fn shape_into<'a>(
    shape: HRef<'_, i64>,
    out: &'a mut Layout,
) -> &'a mut crate::htuple::Leaves<Scalar> {
    out.reset();
    let ((n, s), d) = out.raw_mut();
    n.extend_from_slice(shape.node_bytes());
    s.extend_from_slice(shape.leaves());
    d
}

/// `make_layout_like(L)` (`docs/operations.md`): the layout with `L`'s
/// shape and compact strides ordered like `L`'s strides. The leaves are
/// visited in ascending order of their strides (stable: ties keep leaf
/// order; coordinate strides compare colexicographically) and receive the
/// running product of the extents visited so far; a leaf whose stride is 0
/// keeps stride 0.
///
/// Takes any layout; returns a layout congruent to it with integer
/// strides. Errors: `type` when a nonzero integer stride has to be compared
/// with a coordinate stride; `overflow` past 64 bits. PyCuTe
/// `make_layout_like`, C++ `make_layout_like`.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar, algebra::make_layout_like};
/// let l = Layout::new(HTuple::flat([2, 3, 4, 5]),
///     HTuple::flat([0, 42, 4, 0].map(Scalar::Int))).unwrap();
/// assert_eq!(make_layout_like(&l).unwrap().to_string(), "(2, 3, 4, 5):(0, 4, 1, 0)");
/// ```
#[inline]
pub fn make_layout_like(a: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    make_layout_like_into(a, &mut out)?;
    Ok(out)
}

/// [`make_layout_like`] built in `out`, reusing its storage (the
/// notation's prepared calls evaluate into a caller's slot). On an error
/// `out` holds an unspecified layout.
pub(crate) fn make_layout_like_into(a: &Layout, out: &mut Layout) -> Result<()> {
    let mut order = SmallVec::new();
    let pinned: SmallVec<[bool; 8]>;
    if let Some(st) = int_strides(a) {
        sorted_indices(st.len(), |i, j| Ok(st[i].cmp(&st[j])), &mut order)?;
        pinned = st.iter().map(|&x| x == 0).collect();
    } else {
        let d = a.stride().leaves();
        sorted_indices(d.len(), |i, j| d[i].try_cmp(&d[j]), &mut order)
            .map_err(|e| Error::new(e.kind(), format!("make_layout_like({a}): {}", e.message())))?;
        pinned = d.iter().map(|x| *x == Scalar::Int(0)).collect();
    }
    let d = shape_into(a.shape().as_ref(), out);
    compact_in_order(a.shape().leaves(), &order, |i| pinned[i], d)
}

/// `make_ordered_layout(shape, order)` (`docs/operations.md`): the compact
/// layout of `shape` whose leaves receive strides in ascending order of
/// their `order` values (stable: equal values keep leaf order; only the
/// relative order matters).
///
/// Takes a shape and an integer HTuple congruent to it; returns a layout of
/// that shape with integer strides. Errors: `congruence` when `order` is
/// not congruent to `shape`; `value` for a non-positive extent; `overflow`
/// past 64 bits. PyCuTe `make_ordered_layout`, C++ `make_ordered_layout`.
///
/// ```
/// use rcute::{HTuple, algebra::make_ordered_layout};
/// let s = HTuple::flat([2i64, 3, 4, 2]);
/// let o = HTuple::flat([0i64, 2, 3, 0]);
/// assert_eq!(make_ordered_layout(s.as_ref(), o.as_ref()).unwrap().to_string(),
///            "(2, 3, 4, 2):(1, 4, 12, 2)");
/// ```
#[inline]
pub fn make_ordered_layout(shape: HRef<'_, i64>, order: HRef<'_, i64>) -> Result<Layout> {
    let mut out = Layout::blank();
    make_ordered_layout_into(shape, order, &mut out)?;
    Ok(out)
}

/// [`make_ordered_layout`] built in `out` (as [`make_layout_like_into`]).
pub(crate) fn make_ordered_layout_into(
    shape: HRef<'_, i64>,
    order: HRef<'_, i64>,
    out: &mut Layout,
) -> Result<()> {
    if !shape.congruent(order) {
        return Err(Error::congruence(format!(
            "make_ordered_layout: shape {shape} and order {order} are not congruent"
        )));
    }
    crate::layout::check_positive(shape)?;
    let o = order.leaves();
    let mut idx = SmallVec::new();
    sorted_indices(o.len(), |i, j| Ok(o[i].cmp(&o[j])), &mut idx)?;
    let d = shape_into(shape, out);
    compact_in_order(shape.leaves(), &idx, |_| false, d)
}

/// `make_identity_layout(S)` (`docs/operations.md`): `S : make_basis_like(S)`,
/// each shape leaf at path `p` getting the unit basis stride `E(p)` (a leaf
/// shape gets the integer 1), so the layout maps every coordinate to itself
/// as a coordinate value.
///
/// Takes a shape; returns a layout of that shape. Errors: `value` for a
/// non-positive extent or nesting past the depth limit. C++
/// `make_identity_layout`; PyCuTe's `identity_tensor` layout.
///
/// ```
/// use rcute::{HTuple, algebra::make_identity_layout};
/// let s = HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::leaf(4)]);
/// assert_eq!(make_identity_layout(s.as_ref()).unwrap().to_string(),
///            "((2, 3), 4):((1@0@0, 1@1@0), 1@1)");
/// ```
pub fn make_identity_layout(shape: HRef<'_, i64>) -> Result<Layout> {
    crate::layout::check_positive(shape)?;
    let paths = shape.leaf_paths();
    if paths.iter().any(|p| p.len() > MAX_DEPTH) {
        return Err(Error::value(format!(
            "make_identity_layout: shape {shape} is nested deeper than {MAX_DEPTH} levels"
        )));
    }
    let strides = paths.iter().map(|p| Scalar::basis(1, p));
    let stride = HTuple::unflatten(strides, shape)?;
    Ok(Layout::from_parts(shape.to_owned(), stride))
}
