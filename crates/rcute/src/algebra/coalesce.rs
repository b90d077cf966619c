//! coalesce and coalesce_z, whole and by mode (`docs/operations.md`).
//!
//! Both run the same `fold` over the leaf modes of A (in traversal order):
//! size-1 modes followed by another mode vanish, and a mode `s:d` merges into
//! the previous `sa:da` when `d == sa*da` (for F2 strides additionally when
//! `da` is `F0` or `sa` is a power of two). `coalesce_z` keeps a trailing
//! size-1 mode so that the function is preserved on every integer; `coalesce`
//! drops it unless it is the only mode.

use crate::tiler::TilerRef;
use smallvec::SmallVec;

use crate::error::{Error, ErrorKind, Result};
use crate::htuple::{HTuple, MAX_DEPTH};
use crate::{Layout, Scalar};

/// The output of `fold`: `(shape, stride)` pairs, inline for small layouts.
pub(crate) type Folded = SmallVec<[(i64, Scalar); 8]>;

/// `sa * da == d` in the stride algebra; a product outside 64 bits cannot
/// equal a 64-bit stride, so it counts as "not equal" (Python has no overflow).
fn scaled_equals(sa: i64, da: &Scalar, d: &Scalar) -> Result<bool> {
    match da.mul_int(sa) {
        Ok(p) => Ok(p == *d),
        Err(e) if e.kind == ErrorKind::Overflow => Ok(false),
        Err(e) => Err(e),
    }
}

/// The second half of the merge rule, `(sa-1)*da + d == (2*sa-1)*da`, given
/// that `d == sa*da` holds. It always holds for integer and coordinate
/// strides; for an F2 stride `da` it holds exactly when `da` is `F0` or `sa`
/// is a power of two (carry-less products are injective for `da != F0`).
fn merge_second_test(sa: i64, da: &Scalar, d: &Scalar) -> Result<bool> {
    if !(da.is_f2() || d.is_f2()) {
        return Ok(true);
    }
    if da.is_zero() {
        return Ok(true);
    }
    if da.is_f2() {
        return Ok(sa > 0 && sa & (sa - 1) == 0);
    }
    // an integer `da` against an F2 `d`: evaluate the rule as written (mixed
    // algebras raise `type` here)
    let lhs = da.mul_int(crate::int::sub(sa, 1)?)?.add(d)?;
    let rhs = da.mul_int(crate::int::sub(crate::int::mul(2, sa)?, 1)?)?;
    Ok(lhs == rhs)
}

/// `fold(A)` of `docs/operations.md` over a flat sequence of leaf modes.
#[inline]
pub(crate) fn fold<'a>(modes: impl IntoIterator<Item = (i64, &'a Scalar)>) -> Result<Folded> {
    let mut out = Folded::new();
    for (s, d) in modes {
        while out.last().is_some_and(|(sa, _)| *sa == 1) {
            out.pop();
        }
        if let Some((sa, da)) = out.last_mut() {
            let merge = match (&*da, d) {
                // integer strides: `sa*da == d` (a product beyond 64 bits
                // is "not equal"); the second test always holds
                (Scalar::Int(x), Scalar::Int(y)) => x.checked_mul(*sa) == Some(*y),
                _ => scaled_equals(*sa, da, d)? && merge_second_test(*sa, da, d)?,
            };
            if merge {
                *sa = crate::int::mul(*sa, s)?;
                continue;
            }
        }
        out.push((s, d.clone()));
    }
    Ok(out)
}

/// "set unwrap(shapes) : unwrap(strides)" of a folded list: a leaf layout for
/// one mode, a flat tuple otherwise; `1:0` for no mode.
pub(crate) fn from_folded(out: Folded) -> Layout {
    match out.len() {
        0 => Layout::leaf(1, Scalar::Int(0)),
        1 => {
            let (s, d) = out.into_iter().next().unwrap_or((1, Scalar::Int(0)));
            Layout::leaf(s, d)
        }
        _ => {
            let shape = HTuple::flat(out.iter().map(|x| x.0));
            Layout::from_parts(shape, HTuple::flat(out.into_iter().map(|x| x.1)))
        }
    }
}

/// `coalesce(A)` (`docs/operations.md`; C++ CuTe `coalesce(layout)`):
/// a layout of depth at most 1 (a leaf or a flat tuple) with the same size
/// that agrees with A on `[0, size(A))`.
///
/// Size-1 modes vanish; a layout whose modes all have size 1 coalesces to
/// `1:d_last` (PyCuTe's behaviour; C++ gives `1:0`), and `():()` to `1:0`.
///
/// Errors: none for well-formed layouts; mixed-algebra strides may raise
/// `type` while testing the merge rule, a merged extent beyond 64 bits
/// `overflow`.
///
/// ```
/// use rcute::{algebra::coalesce, HTuple, Layout, Scalar};
/// let s = HTuple::tuple([HTuple::leaf(2i64), HTuple::flat([1i64, 6])]);
/// let d = HTuple::tuple([HTuple::leaf(Scalar::Int(1)), HTuple::flat([Scalar::Int(6), Scalar::Int(2)])]);
/// let a = Layout::new(s, d).unwrap();
/// assert_eq!(coalesce(&a).unwrap().to_string(), "12:1");
/// ```
#[inline]
pub fn coalesce(a: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    if super::fast::coalesce_into(a, false, &mut out).is_some() {
        return Ok(out);
    }
    coalesce_general(a, false)
}

/// [`coalesce`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
#[inline]
pub(crate) fn coalesce_into(a: &Layout, out: &mut Layout) -> Result<()> {
    if super::fast::coalesce_into(a, false, out).is_none() {
        *out = coalesce_general(a, false)?;
    }
    Ok(())
}

/// [`coalesce`] (`z` false) or [`coalesce_z`] (`z` true) without the
/// integer fast path.
pub(crate) fn coalesce_general(a: &Layout, z: bool) -> Result<Layout> {
    if z {
        return Ok(from_folded(fold(a.flat_modes())?));
    }
    let mut out = fold(a.flat_modes())?;
    if out.len() >= 2 && out.last().is_some_and(|(s, _)| *s == 1) {
        out.pop();
    }
    Ok(from_folded(out))
}

/// `coalesce_z(A)` (`docs/operations.md`; PyCuTe `coalesce_z`): like
/// [`coalesce`] but keeps a trailing size-1 mode, so that the result agrees
/// with A on **every** integer (the extended domain).
///
/// Errors: as [`coalesce`].
///
/// ```
/// use rcute::{algebra::coalesce_z, HTuple, Layout, Scalar};
/// let a = Layout::new(HTuple::flat([4i64, 1]), HTuple::flat([Scalar::Int(1), Scalar::Int(0)])).unwrap();
/// assert_eq!(coalesce_z(&a).unwrap().to_string(), "(4, 1):(1, 0)");
/// ```
#[inline]
pub fn coalesce_z(a: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    if super::fast::coalesce_into(a, true, &mut out).is_some() {
        return Ok(out);
    }
    coalesce_general(a, true)
}

/// [`coalesce_z`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
#[inline]
pub(crate) fn coalesce_z_into(a: &Layout, out: &mut Layout) -> Result<()> {
    if super::fast::coalesce_into(a, true, out).is_none() {
        *out = coalesce_general(a, true)?;
    }
    Ok(())
}

/// The by-mode driver shared by coalesce, coalesce_z and filter
/// (`docs/operations.md`): `None` leaves A alone, any other leaf applies
/// `op`, a tuple recurses into the modes of A (a `rank` error when it is
/// longer than the rank of A) and concatenates the results.
pub(crate) fn by_mode(
    a: &Layout,
    profile: &TilerRef<'_>,
    op: &dyn Fn(&Layout) -> Result<Layout>,
    name: &str,
    depth: usize,
) -> Result<Layout> {
    if depth > MAX_DEPTH {
        return Err(Error::value(format!("{name}: profile nested too deeply")));
    }
    match profile {
        TilerRef::None => Ok(a.clone()),
        TilerRef::Tuple(ps) => {
            if a.rank() < ps.len() {
                return Err(Error::rank(format!(
                    "{name}({a}, {profile}): profile of length {} is longer than the rank {} of the layout",
                    ps.len(),
                    a.rank()
                )));
            }
            Layout::try_concat(a.modes().enumerate().map(|(i, m)| {
                match ps.get(i).unwrap_or(&TilerRef::None) {
                    TilerRef::None if depth < MAX_DEPTH => Ok(m),
                    p => by_mode(&m, p, op, name, depth + 1),
                }
            }))
        }
        TilerRef::Int(_) | TilerRef::Layout(_) | TilerRef::Borrowed(_) => op(a),
    }
}

/// `coalesce(A, profile)` (`docs/operations.md`): `Tiler::None` leaves A
/// alone, any other leaf value coalesces (the values themselves are
/// ignored), a tuple goes by mode and concatenates the modes' results (so a
/// 1-tuple profile on a leaf-shaped layout returns a 1-tuple); modes beyond
/// the profile's length are kept unchanged.
///
/// Errors: `rank` when the profile (at any level) is longer than the rank of
/// the corresponding mode; a mode list that ends up empty is a `value` error
/// (empty concatenation).
///
/// ```
/// use rcute::{algebra::coalesce_by_mode, HTuple, Layout, Scalar, Tiler};
/// let s = HTuple::tuple([HTuple::leaf(2i64), HTuple::flat([1i64, 6])]);
/// let d = HTuple::tuple([HTuple::leaf(Scalar::Int(1)), HTuple::flat([Scalar::Int(6), Scalar::Int(2)])]);
/// let a = Layout::new(s, d).unwrap();
/// let p = Tiler::Tuple(vec![Tiler::Int(1), Tiler::Int(1)]);
/// assert_eq!(coalesce_by_mode(&a, &p).unwrap().to_string(), "(2, 6):(1, 2)");
/// ```
pub fn coalesce_by_mode(a: &Layout, profile: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    coalesce_by_mode_into(a, profile, &mut out)?;
    Ok(out)
}

/// [`coalesce_by_mode`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn coalesce_by_mode_into(
    a: &Layout,
    profile: &TilerRef<'_>,
    out: &mut Layout,
) -> Result<()> {
    if let TilerRef::Tuple(ps) = profile {
        if super::fast::coalesce_modes_into(a, ps, false, out).is_some() {
            return Ok(());
        }
    }
    *out = by_mode(a, profile, &coalesce, "coalesce", 0)?;
    Ok(())
}

/// `coalesce_z(A, profile)` (`docs/operations.md`): [`coalesce_by_mode`]
/// with [`coalesce_z`] at the non-`None` leaves. Errors: as
/// [`coalesce_by_mode`].
///
/// ```
/// use rcute::{algebra::coalesce_z_by_mode, HTuple, Layout, Scalar, Tiler};
/// let s = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([2i64, 6, 1])]);
/// let d = HTuple::tuple([HTuple::leaf(Scalar::Int(1)), HTuple::flat([Scalar::Int(3), Scalar::Int(6), Scalar::Int(5)])]);
/// let a = Layout::new(s, d).unwrap();
/// let p = Tiler::Tuple(vec![Tiler::None, Tiler::Int(1)]);
/// assert_eq!(coalesce_z_by_mode(&a, &p).unwrap().to_string(), "(3, (12, 1)):(1, (3, 5))");
/// ```
pub fn coalesce_z_by_mode(a: &Layout, profile: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    coalesce_z_by_mode_into(a, profile, &mut out)?;
    Ok(out)
}

/// [`coalesce_z_by_mode`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn coalesce_z_by_mode_into(
    a: &Layout,
    profile: &TilerRef<'_>,
    out: &mut Layout,
) -> Result<()> {
    if let TilerRef::Tuple(ps) = profile {
        if super::fast::coalesce_modes_into(a, ps, true, out).is_some() {
            return Ok(());
        }
    }
    *out = by_mode(a, profile, &coalesce_z, "coalesce_z", 0)?;
    Ok(())
}
