//! complement, minimal and extended (`docs/operations.md`).
//!
//! The minimal complement of `A` fills the holes between A's strides, one
//! sub-layout per codomain axis, and always ends with a size-1 *extension
//! mode* whose stride is the end of A's largest mode. `extend=X` grows that
//! mode leaf by leaf through the shape `X` (section 5.3).

use std::cmp::Ordering;

use smallvec::SmallVec;

use super::coalesce::{drop_trailing_unit, fold_push, Folded, InlineModes, ModeList, INLINE_MODES};
use super::leaf::{decided, push_flat, Leaf};
use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, Leaves, Nodes};
use crate::int;
use crate::integer::Integer;
use crate::layout::Layout;
use crate::layout::View;
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
    complement_into(a, extend, &mut out)?;
    Ok(out)
}

/// [`complement`] built in `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn complement_into(
    a: &Layout,
    extend: Option<HRef<'_, i64>>,
    out: &mut Layout,
) -> Result<()> {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    complement_append(a, extend, nodes, sh, st)?;
    Ok(())
}

/// [`complement`] appended to the profile's nodes and the leaves of a
/// layout under construction.
pub(crate) fn complement_append(
    a: &Layout,
    extend: Option<HRef<'_, i64>>,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    let int = int_complement_then(a, extend, |modes| {
        push_flat(modes, nodes, sh, st);
        Ok(())
    })?;
    if int.is_none() {
        let x = extend.filter(|x| !is_no_extension(*x));
        let c = complement_coords(a, x)?;
        View::of(&c).push_into(nodes, sh, st);
    }
    Ok(())
}

/// `k` on the modes of [`complement`] of an integer-strided layout `a`
/// (one axis, its `(stride, extent)` pairs sorted stably by stride),
/// coalesced; `None` (`k` not called) when a stride of `a` is not an
/// integer.
#[inline]
pub(crate) fn int_complement_then<R>(
    a: &Layout,
    extend: Option<HRef<'_, i64>>,
    k: impl FnOnce(&[(i64, i64)]) -> Result<R>,
) -> Result<Option<R>> {
    let x = extend.filter(|x| !is_no_extension(*x));
    if !super::codomain::int_codomain(a)? {
        return Ok(None);
    }
    // (the lists hold at most one mode per leaf of `a`, one for the
    // extension, and one per extent of `x`: inline when that is few)
    let n = a.shape().leaves().len();
    let x_len = x.map_or(0, |x| x.leaves().len());
    if n.saturating_add(x_len).saturating_add(1) <= INLINE_MODES {
        int_complement_in::<InlineModes<i64>, R>(a, x, k).map(Some)
    } else {
        int_complement_in::<Folded<i64>, R>(a, x, k).map(Some)
    }
}

/// [`int_complement_then`] with the lists `M`, `x` the extension (not
/// the "no extension" value).
#[inline(always)]
fn int_complement_in<M: ModeList<(i64, i64)>, R>(
    a: &Layout,
    x: Option<HRef<'_, i64>>,
    k: impl FnOnce(&[(i64, i64)]) -> Result<R>,
) -> Result<R> {
    let mut pairs = M::default();
    for (d, &s) in a.stride().leaves().iter().zip(a.shape().leaves()) {
        if let Scalar::Int(v) = *d {
            pairs.push_mode((v, s))?;
        }
    }
    sort_by_stride(&mut pairs[..]);
    let mut out = M::default();
    axis_minimal(pairs.iter().copied(), &[], &mut out).map_err(|e| in_complement(e, a, x))?;
    if let Some(x) = x {
        axis_extend(&mut out, x.leaves()).map_err(|e| in_complement(e, a, Some(x)))?;
    }
    k(&out)
}

/// `e` with the operands of the complement in front of its message.
#[cold]
fn in_complement(e: Error, a: &Layout, x: Option<HRef<'_, i64>>) -> Error {
    let m = match x {
        Some(x) => format!("complement({a}, extend={x}): {}", e.message()),
        None => format!("complement({a}): {}", e.message()),
    };
    Error::new(e.kind(), m)
}

/// The minimal complement of one codomain axis, coalesce_z'd, into `out`:
/// `pairs` are the `(stride value, size)` modes on the axis in stride
/// order; each nonzero mode of size above 1 must start at or past the
/// running extent (`injectivity` otherwise), and leaves the gap below it
/// as a mode of the complement; the extension mode `1 : extent` ends it.
/// `path` is the axis (for the error message).
#[inline(always)]
pub(crate) fn axis_minimal<E: Integer + Leaf<E>>(
    pairs: impl IntoIterator<Item = (E, E)>,
    path: &[usize],
    out: &mut impl ModeList<(E, E)>,
) -> Result<()> {
    // mode `i` is `(m_i // d_i) : d_i`, with `d_0 = 1` and `d_(i+1) = m_i*s_i`,
    // then `1 : d_last`; each is folded in as it is made (no list of them:
    // the fold cannot fail here, every merged extent times its stride is at
    // most a `d_i` already computed, so the errors are those of the walk).
    // With symbols, each comparison must be decided by their facts.
    out.clear_modes();
    let mut last = E::from_i64(1);
    for (m, s) in pairs {
        let unit = match s.as_i64() {
            Some(v) => v == 1,
            // a symbolic extent that may be 1 (a mode skipped for that
            // value) changes nothing where its stride is the running
            // extent; elsewhere it must be decided
            None => match s.sub(&E::from_i64(1))?.decide_zero() {
                Some(u) => u,
                None if m.sub(&last)?.decide_zero() == Some(true) => false,
                None => decided(None, || format!("whether the extent {s} is 1"))?,
            },
        };
        if unit || m.zero_decided()? {
            continue;
        }
        let below = decided(m.decide_lt(&last), || {
            format!("whether the stride {m} is at least the running extent {last}")
        })?;
        if below {
            let stride = match m.as_i64() {
                Some(v) => Scalar::basis(v, path).to_string(),
                None => m.to_string(),
            };
            return Err(Error::injectivity(format!(
                "Non-injective layout in complement (stride {stride} is below the running extent {last})"
            )));
        }
        if m == last {
            // a stride at the running extent leaves no gap: the mode `1 :
            // last`, which the next push drops again; pushed only where
            // modes are folded already (a fold of nothing takes it without
            // a question, so it is skipped there)
            if !out.is_empty() {
                fold_push(out, E::from_i64(1), last)?;
            }
        } else {
            let gap = m.floor_div(&last)?;
            fold_push(out, gap, last)?;
        }
        last = m.mul(&s)?;
    }
    fold_push(out, E::from_i64(1), last)
}

/// Grows the extension mode (the last) of one axis complement `modes`
/// through the extents `x`, in place: `R_k = ceil(x_k / ext)`,
/// `ext = ceil(ext / x_k)` from `ext` the extension stride, the `R_k`
/// taking prefix-product strides from it, each folded onto the modes
/// before the extension mode (which are folded already, so the whole is
/// the fold of the grown list); a trailing size-1 mode after others is
/// dropped. A non-positive `R_k` is a `value` error.
#[inline]
pub(crate) fn axis_extend(modes: &mut impl ModeList<(i64, i64)>, x: &[i64]) -> Result<()> {
    let Some((_, last)) = modes.pop_mode() else {
        return Err(Error::value("the axis complement has no extension mode"));
    };
    let mut ext = last;
    let mut acc = last;
    for (k, &xk) in x.iter().enumerate() {
        let r;
        (r, ext) = ceil_quotients(xk, ext)?;
        if r <= 0 {
            return Err(Error::value(format!(
                "the extension has the non-positive extent {r}; shapes must be positive"
            )));
        }
        let stride = acc;
        if k + 1 < x.len() {
            acc = int::mul(acc, r)?;
        }
        // (a merge that overflows here has overflowed `acc` above first:
        // the merged extent divides it, so the errors are those of the
        // list folded after the walk)
        fold_push(modes, r, stride)?;
    }
    drop_trailing_unit(modes);
    Ok(())
}

/// `(ceil(x / e), ceil(e / x))` (`int::ceil_div`, its errors included).
/// For positive operands one of the two is 1 (the smaller over the
/// larger), so one division at most is made, none when `e` is 1.
#[inline(always)]
fn ceil_quotients(x: i64, e: i64) -> Result<(i64, i64)> {
    if x > 0 && e > 0 {
        return Ok(if x >= e {
            (int::ceil_div(x, e)?, 1)
        } else {
            (1, int::ceil_div(e, x)?)
        });
    }
    Ok((int::ceil_div(x, e)?, int::ceil_div(e, x)?))
}

/// [`complement`] of a layout whose strides are not all integers: one
/// minimal complement per codomain axis, laid out following the codomain
/// profile (`extend` walked with it).
fn complement_coords(a: &Layout, x: Option<HRef<'_, i64>>) -> Result<Layout> {
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
                e.message()
            ))
        })
    })?;
    // per axis: its `(value, size)` modes in stride order
    let mut on_axis: SmallVec<[Folded<i64>; 2]> = axes.iter().map(|_| Folded::new()).collect();
    for (d, s) in pairs {
        let (v, path) = d.basis_term().map_err(|e| {
            Error::type_(format!(
                "complement({a}): the stride {d} is not a basis value: {}",
                e.message()
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
        on_axis[k].push((m, s));
    }
    // the minimal complement of each axis, with integer strides
    let mut minimal: SmallVec<[Folded<i64>; 2]> = SmallVec::with_capacity(axes.len());
    for (pairs, path) in on_axis.into_iter().zip(&axes) {
        let mut f = Folded::new();
        axis_minimal(pairs, path, &mut f).map_err(|e| in_complement(e, a, None))?;
        minimal.push(f);
    }
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

/// Appends the axis complement `c` (flat integer modes: a leaf for one)
/// with its strides moved onto the axis `path` (an empty path keeps them
/// integers).
fn push_on_axis(
    c: &[(i64, i64)],
    path: &[usize],
    shape_b: &mut Builder<i64>,
    stride_b: &mut Builder<Scalar>,
) -> Result<()> {
    match c {
        [(s, d)] => {
            shape_b.leaf(*s);
            stride_b.leaf(Scalar::basis(*d, path));
        }
        _ => {
            shape_b.open();
            stride_b.open();
            for &(s, d) in c {
                shape_b.leaf(s);
                stride_b.leaf(Scalar::basis(d, path));
            }
            shape_b.close();
            stride_b.close();
        }
    }
    Ok(())
}

/// Lays the per-axis complements out following the codomain profile.
fn assemble(
    p: HRef<'_, i64>,
    next: &mut impl Iterator<Item = Folded<i64>>,
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
    next: &mut impl Iterator<Item = Folded<i64>>,
    path: &mut Path,
    shape_b: &mut Builder<i64>,
    stride_b: &mut Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > crate::htuple::MAX_DEPTH {
        return Err(Error::value("complement: extend nested too deeply"));
    }
    if p.is_leaf() {
        let mut c = next
            .next()
            .ok_or_else(|| Error::value("complement: missing axis complement"))?;
        axis_extend(&mut c, x.leaves()).map_err(|e| in_complement(e, a, Some(x)))?;
        return push_on_axis(&c, path, shape_b, stride_b);
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

/// Stable sort of `(stride, extent)` pairs by stride (insertion sort for
/// the short lists of a layout's modes, the library's stable sort beyond;
/// any stable sort gives the same order).
#[inline]
pub(crate) fn sort_by_stride(v: &mut [(i64, i64)]) {
    if v.len() > 32 {
        v.sort_by_key(|x| x.0);
        return;
    }
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j].0 < v[j - 1].0 {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

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
