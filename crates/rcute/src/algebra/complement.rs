//! complement, minimal and extended (`docs/operations.md`).
//!
//! The minimal complement of `A` fills the holes between A's strides, one
//! sub-layout per codomain axis, and always ends with a size-1 *extension
//! mode* whose stride is the end of A's largest mode. `extend=X` grows that
//! mode leaf by leaf through the shape `X` (section 5.3).

use std::cmp::Ordering;

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple};
use crate::int;
use crate::layout::Layout;
use crate::stride::{Path, Scalar};

/// `complement(A, extend=X)` (`docs/operations.md`; C++ CuTe `complement`,
/// PyCuTe `complement`).
///
/// * `extend = None` (or the integer `0`, or the empty tuple `()`) gives the
///   **minimal** complement: for an integer codomain a layout ending in the
///   size-1 extension mode `1 : d_last*s_last`; for a coordinate codomain
///   (A's `coprofile` is a tuple) a layout following the coprofile with one
///   such minimal complement per axis, its strides on that axis.
/// * `extend = X` grows each axis's extension mode so that the complement
///   reaches the shape `X` (integer codomain: all of `X`; coordinate
///   codomain: `X`'s entry at that axis, leaf by leaf with ceiling division;
///   modes of `X` beyond the coprofile become identity-like axes
///   `X_p : E(p)`), and the result is coalesced.
///
/// Post-conditions: the result is strictly increasing on the extended
/// domain, disjoint from A's image (`C(i) != A(j)` for `i >= 1`), and when
/// A's strides form a divisible chain `make_layout(A, C)` is a bijection
/// onto a contiguous range.
///
/// Errors: `injectivity` when a non-zero stride is smaller than the running
/// extent of its axis ("Non-injective layout in complement"); `type` for a
/// multi-term coordinate stride, for F2 strides, for mixed integer and
/// coordinate strides, and for an `extend` with fewer modes than a
/// coordinate codomain (or a scalar `extend` for one); `overflow` when an
/// extent leaves 64 bits.
///
/// ```
/// use rcute::{algebra::complement, HTuple, Layout, Scalar};
/// let a = Layout::new(HTuple::leaf(4), HTuple::leaf(Scalar::Int(2))).unwrap();
/// assert_eq!(complement(&a, None).unwrap().to_string(), "(2, 1):(1, 8)");
/// let x = HTuple::leaf(24);
/// assert_eq!(complement(&a, Some(x.as_ref())).unwrap().to_string(), "(2, 3):(1, 8)");
/// let bad = Layout::new(HTuple::flat([2, 2]), HTuple::flat([Scalar::Int(1), Scalar::Int(1)])).unwrap();
/// assert_eq!(complement(&bad, None).unwrap_err().kind(), rcute::ErrorKind::Injectivity);
/// ```
#[inline]
pub fn complement(a: &Layout, extend: Option<HRef<'_, i64>>) -> Result<Layout> {
    let mut out = Layout::blank();
    if super::fast::complement_into(a, extend, &mut out).is_some() {
        return Ok(out);
    }
    complement_general(a, extend)
}

/// [`complement`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
#[inline]
pub(crate) fn complement_into(
    a: &Layout,
    extend: Option<HRef<'_, i64>>,
    out: &mut Layout,
) -> Result<()> {
    if super::fast::complement_into(a, extend, out).is_none() {
        *out = complement_general(a, extend)?;
    }
    Ok(())
}

/// [`complement`] without the integer fast path.
pub(crate) fn complement_general(a: &Layout, extend: Option<HRef<'_, i64>>) -> Result<Layout> {
    for d in a.stride().leaves() {
        if has_f2(d) {
            return Err(Error::type_(format!(
                "complement({a}): F2 strides have no complement"
            )));
        }
    }
    let profile = super::coprofile(a)?;
    // an integer codomain has the one axis `()` (no heap allocation)
    let axes: SmallVec<[Path; 2]> = if profile.is_leaf() {
        smallvec::smallvec![Path::new()]
    } else {
        profile.as_ref().leaf_paths().into_iter().collect()
    };
    // per axis: the shape list S and the stride list D (D starts with 1)
    // inline lists: no heap allocation for small layouts
    let mut lists: SmallVec<[(IntList, IntList); 2]> = axes
        .iter()
        .map(|_| (IntList::new(), smallvec::smallvec![1]))
        .collect();

    let mut pairs: SmallVec<[(&Scalar, i64); 8]> = a
        .stride()
        .leaves()
        .iter()
        .zip(a.shape().leaves().iter().copied())
        .collect();
    stable_sort_slice(&mut pairs, &|x: &(&Scalar, i64), y: &(&Scalar, i64)| {
        x.0.try_cmp(y.0).map_err(|e| {
            Error::type_(format!(
                "complement({a}): strides cannot be ordered: {}",
                e.message
            ))
        })
    })?;

    for (d, s) in pairs {
        let (v, path) = d.basis_term().map_err(|e| {
            Error::type_(format!(
                "complement({a}): the stride {d} is not a basis value: {}",
                e.message
            ))
        })?;
        let m = match v {
            Scalar::Int(m) => m,
            ref other if other.is_zero() => 0,
            other => {
                return Err(Error::type_(format!(
                    "complement({a}): cannot order the stride value {other}"
                )))
            }
        };
        if m == 0 || s == 1 {
            continue;
        }
        let k = axes.iter().position(|p| *p == path).ok_or_else(|| {
            Error::type_(format!(
                "complement({a}): the stride {d} lies on no axis of the codomain profile {profile}"
            ))
        })?;
        let (sl, dl) = &mut lists[k];
        let last = dl.last().copied().unwrap_or(1);
        if m < last {
            return Err(Error::injectivity(format!(
                "complement({a}): Non-injective layout in complement (stride {d} is below the running extent {last})"
            )));
        }
        sl.push(int::floor_div(m, last)?);
        dl.push(int::mul(m, s)?);
    }

    // the minimal complement of each axis, with integer strides
    let mut minimal: SmallVec<[Layout; 2]> = SmallVec::with_capacity(lists.len());
    for (mut sl, dl) in lists {
        sl.push(1);
        let c = Layout::from_parts(
            HTuple::flat(sl),
            HTuple::flat(dl.into_iter().map(Scalar::Int)),
        );
        minimal.push(super::coalesce_z(&c)?);
    }

    let x = extend.filter(|x| !is_no_extension(*x));
    let mut shape_b = Builder::new();
    let mut stride_b = Builder::new();
    let mut next = minimal.into_iter();
    let mut path = Path::new();
    match x {
        None => assemble(
            profile.as_ref(),
            &mut next,
            &mut path,
            &mut shape_b,
            &mut stride_b,
            0,
        )?,
        Some(x) => assemble_extended(
            a,
            profile.as_ref(),
            x,
            &mut next,
            &mut path,
            &mut shape_b,
            &mut stride_b,
            0,
        )?,
    }
    Ok(Layout::from_parts(shape_b.finish(), stride_b.finish()))
}

/// True when `x` means "no extension": the integer `0` or the empty tuple.
fn is_no_extension(x: HRef<'_, i64>) -> bool {
    match x.as_leaf() {
        Some(&v) => v == 0,
        None => x.rank() == 0,
    }
}

/// True when the stride value is or contains an F2 value.
fn has_f2(d: &Scalar) -> bool {
    match d {
        Scalar::F2(_) => true,
        Scalar::Int(_) => false,
        Scalar::Coord(_) => d.basis_repr().iter().any(|(v, _)| v.is_f2()),
    }
}

/// Appends the axis layout `c` (integer strides) with its strides moved onto
/// the axis `path` (an empty path keeps them integers).
fn push_on_axis(
    c: &Layout,
    path: &[usize],
    shape_b: &mut Builder<i64>,
    stride_b: &mut Builder<Scalar>,
) -> Result<()> {
    let stride = c.stride().try_map(|d| match d {
        Scalar::Int(v) => Ok(Scalar::basis(*v, path)),
        other => Err(Error::type_(format!(
            "complement: unexpected stride {other} in an axis complement"
        ))),
    })?;
    shape_b.push(c.shape().as_ref());
    stride_b.push_owned(stride);
    Ok(())
}

/// Lays the per-axis complements out following the codomain profile.
fn assemble(
    p: HRef<'_, i64>,
    next: &mut impl Iterator<Item = Layout>,
    path: &mut Path,
    shape_b: &mut Builder<i64>,
    stride_b: &mut Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > crate::htuple::MAX_DEPTH {
        return Err(Error::value(
            "complement: codomain profile nested too deeply",
        ));
    }
    if p.is_leaf() {
        let c = next
            .next()
            .ok_or_else(|| Error::value("complement: missing axis complement"))?;
        return push_on_axis(&c, path, shape_b, stride_b);
    }
    shape_b.open();
    stride_b.open();
    for (i, m) in p.modes().enumerate() {
        path.push(i);
        assemble(m, next, path, shape_b, stride_b, depth + 1)?;
        path.pop();
    }
    shape_b.close();
    stride_b.close();
    Ok(())
}

/// Walks the codomain profile `p` together with `x` (section 5.3), growing
/// each axis's extension mode and adding identity-like axes for the modes
/// of `x` beyond the profile.
#[allow(clippy::too_many_arguments)]
fn assemble_extended(
    a: &Layout,
    p: HRef<'_, i64>,
    x: HRef<'_, i64>,
    next: &mut impl Iterator<Item = Layout>,
    path: &mut Path,
    shape_b: &mut Builder<i64>,
    stride_b: &mut Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > crate::htuple::MAX_DEPTH {
        return Err(Error::value("complement: extend nested too deeply"));
    }
    if p.is_leaf() {
        let c = next
            .next()
            .ok_or_else(|| Error::value("complement: missing axis complement"))?;
        let grown = extend_axis(&c, x)?;
        return push_on_axis(&grown, path, shape_b, stride_b);
    }
    if x.is_leaf() || x.rank() < p.rank() {
        return Err(Error::type_(format!(
            "complement({a}, extend={x}): extend must have at least as many modes as the codomain profile {p}"
        )));
    }
    shape_b.open();
    stride_b.open();
    for (i, xi) in x.modes().enumerate() {
        path.push(i);
        match p.mode(i) {
            Some(pi) => assemble_extended(a, pi, xi, next, path, shape_b, stride_b, depth + 1)?,
            None => {
                // an axis beyond the codomain: set X_p : make_basis_like(X)_p
                if let Some(&e) = xi.leaves().iter().find(|&&e| e <= 0) {
                    return Err(Error::value(format!(
                        "complement({a}, extend={x}): the extent {e} must be positive"
                    )));
                }
                let bases: Vec<Scalar> = xi
                    .leaf_paths()
                    .into_iter()
                    .map(|q| {
                        let full: Path = path.iter().copied().chain(q).collect();
                        Scalar::basis(1, &full)
                    })
                    .collect();
                shape_b.push(xi);
                stride_b.push_with_profile(xi, bases);
            }
        }
        path.pop();
    }
    shape_b.close();
    stride_b.close();
    Ok(())
}

/// Grows the extension mode of one axis complement `c` (flat, integer
/// strides) through the leaves of `x`: `R_k = ceil(x_k / ext)`,
/// `ext = ceil(ext / x_k)`, R gets prefix-product strides from the last
/// stride, and the result is coalesced.
fn extend_axis(c: &Layout, x: HRef<'_, i64>) -> Result<Layout> {
    let shapes = c.shape().leaves();
    let strides = c.stride().leaves();
    let last = match strides.last() {
        Some(Scalar::Int(v)) => *v,
        _ => {
            return Err(Error::value(format!(
                "complement: the axis complement {c} has no integer extension stride"
            )))
        }
    };
    let mut ext = last;
    let mut r: IntList = SmallVec::with_capacity(x.num_leaves());
    for &xk in x.leaves() {
        r.push(int::ceil_div(xk, ext)?);
        ext = int::ceil_div(ext, xk)?;
    }
    let keep = shapes.len().saturating_sub(1);
    let mut sb = Builder::new();
    let mut db = Builder::new();
    sb.open();
    db.open();
    for (&s, d) in shapes.iter().zip(strides).take(keep) {
        sb.leaf(s);
        db.leaf(d.clone());
    }
    sb.push_owned(HTuple::flat(r));
    db.leaf(Scalar::Int(last));
    sb.close();
    db.close();
    let stride = db.finish();
    let grown = Layout::with_stride(sb.finish(), stride.as_ref())?;
    super::coalesce(&grown)
}

/// An inline list of integers.
type IntList = SmallVec<[i64; 8]>;

/// A stable top-down merge sort in place with a fallible comparison
/// (`Scalar::try_cmp` may refuse to order two values; the first such error
/// is returned). Each half is sorted, then merged through an inline scratch
/// buffer (no heap allocation for up to 8 elements).
pub(crate) fn stable_sort_slice<T: Clone>(
    v: &mut [T],
    cmp: &dyn Fn(&T, &T) -> Result<Ordering>,
) -> Result<()> {
    fn rec<T: Clone>(
        v: &mut [T],
        cmp: &dyn Fn(&T, &T) -> Result<Ordering>,
        scratch: &mut SmallVec<[T; 8]>,
    ) -> Result<()> {
        let n = v.len();
        if n <= 1 {
            return Ok(());
        }
        let mid = n / 2;
        rec(&mut v[..mid], cmp, scratch)?;
        rec(&mut v[mid..], cmp, scratch)?;
        scratch.clear();
        let (mut i, mut j) = (0, mid);
        while i < mid && j < n {
            // take from the right only when it is strictly smaller (stability)
            if cmp(&v[j], &v[i])? == Ordering::Less {
                scratch.push(v[j].clone());
                j += 1;
            } else {
                scratch.push(v[i].clone());
                i += 1;
            }
        }
        scratch.extend(v[i..mid].iter().cloned());
        scratch.extend(v[j..n].iter().cloned());
        v.clone_from_slice(scratch);
        Ok(())
    }
    rec(v, cmp, &mut SmallVec::new())
}
