//! layout_add and greatest_common_domain (`docs/operations.md`).
use smallvec::SmallVec;

use crate::error::Error;
use crate::htuple::{LEAF, WIDE};
use crate::{int, HRef, HTuple, Layout, Result, Scalar};

use super::coalesce::coalesce;

use crate::shape::gcd_walk;

/// `layout_add(A, B)` (`docs/operations.md`): the layout `R` with
/// `size(R) = size(A)` and `R(i) = A(i) + B(i)` for `0 <= i < size(A)`,
/// built on the greatest common domain of `coalesce(A)` and `coalesce(B)`
/// and returned coalesced (a leaf or a flat tuple). The C++ CuTe analogue is
/// the sum of two layouts over a shared domain.
///
/// Takes two layouts of any profile and stride algebra; the sum is formed in
/// the stride algebra (integers, coordinate values, F2 values).
///
/// Errors: `value` when `size(A) != size(B)` ("size mismatch") or when the
/// two coalesced layouts share no factorisation covering the whole domain
/// ("no common refinement"); `type` when a sum mixes algebras (an integer
/// plus a coordinate value); `overflow` for results outside 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::algebra::layout_add;
/// let a = Layout::column_major(HTuple::flat([4, 3])).unwrap();               // (4,3):(1,4)
/// let b = Layout::new(HTuple::flat([4, 3]), HTuple::flat([Scalar::Int(3), Scalar::Int(1)])).unwrap();
/// let r = layout_add(&a, &b).unwrap();
/// assert_eq!(r.to_string(), "(4, 3):(4, 5)");
/// for i in 0..12 {
///     let want = a.eval_index(i).unwrap().add(&b.eval_index(i).unwrap()).unwrap();
///     assert_eq!(r.eval_index(i).unwrap(), want);
/// }
/// ```
pub fn layout_add(a: &Layout, b: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    if super::fast::layout_add_into(a, b, &mut out).is_some() {
        return Ok(out);
    }
    layout_add_general(a, b)
}

/// [`layout_add`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn layout_add_into(a: &Layout, b: &Layout, out: &mut Layout) -> Result<()> {
    if super::fast::layout_add_into(a, b, out).is_none() {
        *out = layout_add_general(a, b)?;
    }
    Ok(())
}

/// [`layout_add`] without the integer fast path.
pub(crate) fn layout_add_general(a: &Layout, b: &Layout) -> Result<Layout> {
    let (na, nb) = (a.size()?, b.size()?);
    if na != nb {
        return Err(Error::value(format!(
            "layout_add: size mismatch: size({a}) = {na}, size({b}) = {nb}"
        )));
    }
    let ac = coalesce(a)?;
    let bc = coalesce(b)?;
    let g = greatest_common_domain(ac.shape().as_ref(), bc.shape().as_ref())?;
    if g.size()? != na {
        return Err(Error::value(format!(
            "layout_add: no common refinement of {a} and {b} (their common domain {g} has size {}, not {na})",
            g.size()?
        )));
    }
    check_f2_splits(&ac, &g, a)?;
    check_f2_splits(&bc, &g, b)?;
    let (gs, gd) = g.into_parts();
    let d = gd.try_map(|x| match x {
        Scalar::Int(idx) => ac.eval_index(*idx)?.add(&bc.eval_index(*idx)?),
        other => Err(Error::type_(format!(
            "layout_add: common-domain stride {other} is not an integer"
        ))),
    })?;
    coalesce(&Layout::from_parts(gs, d))
}

/// An F2 mode `s:F(d)` is linear only over splits of its index at powers
/// of two (`i = i0 + 2^k i1` with `i0 < 2^k` makes `+` an XOR); splitting
/// it elsewhere (`12:F8` into `(3, 4)`) would make the sum wrong, so that is
/// a `value` error. `lc` is coalesced, `g` the common domain, `orig` the
/// operand named in the message.
fn check_f2_splits(lc: &Layout, g: &Layout, orig: &Layout) -> Result<()> {
    if !lc
        .stride()
        .leaves()
        .iter()
        .any(|d| d.is_f2() && !d.is_zero())
    {
        return Ok(());
    }
    let modes: Vec<(i64, &Scalar)> = lc.flat_modes().collect();
    let mut starts = Vec::with_capacity(modes.len());
    let mut p: i128 = 1;
    for (s, _) in &modes {
        starts.push(p);
        p = p.saturating_mul(*s as i128);
    }
    for at in g.stride().leaves() {
        let Scalar::Int(at) = at else { continue };
        let at = *at as i128;
        let Some(j) = starts.iter().rposition(|&st| st <= at) else {
            continue;
        };
        let (s, d) = modes[j];
        if !d.is_f2() || d.is_zero() || at == starts[j] {
            continue;
        }
        let q = at / starts[j];
        if at % starts[j] != 0 || q & (q - 1) != 0 {
            return Err(Error::value(format!(
                "layout_add: the F2 mode {s}:{d} of {orig} would be split at index {at}, not a power-of-two point of the mode; F2 strides are linear only over power-of-two splits"
            )));
        }
    }
    Ok(())
}

/// `greatest_common_domain(A, B)` of two shapes (`docs/operations.md`):
/// the largest aligned factorisation the two shapes share, as a depth-1
/// layout with a **tuple** shape. Its shape lists the common factors; its
/// integer strides give the integral index (in both domains) at which each
/// factor starts. With no common factor the result is `(1,):(0,)`. Only the
/// leaves of the shapes matter, not their profiles. C++ CuTe uses the same
/// construction for `max_common_layout` of copies.
///
/// Errors: `value` for a non-positive extent; `overflow` for indices outside
/// 64 bits.
///
/// ```
/// use rcute::HTuple;
/// use rcute::algebra::greatest_common_domain;
/// let a = HTuple::flat([8i64, 3]);
/// let b = HTuple::flat([4i64, 6]);
/// let g = greatest_common_domain(a.as_ref(), b.as_ref()).unwrap();
/// assert_eq!(g.to_string(), "(4, 2, 3):(1, 4, 8)");
/// ```
#[inline]
pub fn greatest_common_domain(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Layout> {
    let mut out = Layout::blank();
    if gcd_fast_into(a.leaves(), b.leaves(), &mut out).is_some() {
        return Ok(out);
    }
    greatest_common_domain_general(a, b)
}

/// [`greatest_common_domain`] written into `out`, reusing its storage (the
/// notation's prepared calls evaluate into a caller's slot). On an error
/// `out` holds an unspecified layout.
#[inline]
pub(crate) fn greatest_common_domain_into(
    a: HRef<'_, i64>,
    b: HRef<'_, i64>,
    out: &mut Layout,
) -> Result<()> {
    if gcd_fast_into(a.leaves(), b.leaves(), out).is_none() {
        *out = greatest_common_domain_general(a, b)?;
    }
    Ok(())
}

/// [`greatest_common_domain`] without the fast path.
#[inline(never)]
pub(crate) fn greatest_common_domain_general(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Layout> {
    for (name, s) in [("first", a), ("second", b)] {
        if let Some(&e) = s.leaves().iter().find(|&&e| e <= 0) {
            return Err(Error::value(format!(
                "greatest_common_domain: the {name} shape {s} has the non-positive extent {e}"
            )));
        }
    }
    let (mut shape, starts) = gcd_core(a.leaves(), b.leaves())?;
    let mut stride: SmallVec<[Scalar; 8]> = starts.into_iter().map(Scalar::Int).collect();
    if shape.is_empty() {
        shape.push(1);
        stride.push(Scalar::Int(0));
    }
    Ok(Layout::from_parts(
        HTuple::flat(shape),
        HTuple::flat(stride),
    ))
}

/// The fast path of [`greatest_common_domain`] on the leaves of two
/// shapes: the result written into `out` (its earlier value discarded),
/// without
/// intermediate lists. `None` (with `out` possibly partly written) when
/// an extent is not positive or a value would leave 64 bits, where the
/// general code reports the error.
#[inline(always)]
fn gcd_fast_into(a: &[i64], b: &[i64], out: &mut Layout) -> Option<()> {
    if a.iter().chain(b).any(|&e| e <= 0) {
        return None;
    }
    out.reset();
    let ((nodes, sh), (dn, st)) = out.raw_mut();
    gcd_walk(a, b, |g, at| {
        sh.push(g);
        st.push(Scalar::Int(at));
    })?;
    if sh.is_empty() {
        sh.push(1);
        st.push(Scalar::Int(0));
    }
    // a flat tuple: its rank, then one leaf node per factor (at most 63
    // factors of a 64-bit index space, far below the wide encoding)
    let n = u8::try_from(sh.len()).ok().filter(|&n| n < WIDE)?;
    // (pushed one by one: `extend_from_slice` calls `memmove` / `memcpy`
    // for these few bytes)
    nodes.push(n);
    dn.push(n);
    for _ in 0..n {
        nodes.push(LEAF);
        dn.push(LEAF);
    }
    Some(())
}

/// Inline list of common factors or of their start indices.
pub(crate) type Factors = SmallVec<[i64; 8]>;

/// The loop of [`greatest_common_domain`] on the leaves of two positive
/// shapes: the common factors and the index at which each starts (empty
/// lists for no common factor). Errors: `overflow`.
#[inline]
pub(crate) fn gcd_core(a: &[i64], b: &[i64]) -> Result<(Factors, Factors)> {
    // inline working lists: no heap allocation for up to 8 leaves
    let mut av: SmallVec<[i64; 8]> = SmallVec::from_slice(a);
    let mut bv: SmallVec<[i64; 8]> = SmallVec::from_slice(b);
    let mut shape: SmallVec<[i64; 8]> = SmallVec::new();
    let mut stride: SmallVec<[i64; 8]> = SmallVec::new();
    let (mut pa, mut pb): (i64, i64) = (1, 1);
    let (mut i, mut j) = (0usize, 0usize);
    while i < av.len() && j < bv.len() {
        if av[i] == 1 {
            i += 1;
            continue;
        }
        if bv[j] == 1 {
            j += 1;
            continue;
        }
        // (equal positions are the common case: lcm(p, p) = p, ratios 1)
        let (l, ra, rb) = if pa == pb {
            (pa, 1, 1)
        } else {
            let l = int::lcm(pa, pb)?;
            (l, int::floor_div(l, pa)?, int::floor_div(l, pb)?)
        };
        if int::floor_mod(av[i], ra)? == 0 && int::floor_mod(bv[j], rb)? == 0 {
            let g = int::gcd(int::floor_div(av[i], ra)?, int::floor_div(bv[j], rb)?);
            if g != 1 {
                shape.push(g);
                stride.push(l);
                av[i] = int::floor_div(av[i], int::mul(ra, g)?)?;
                bv[j] = int::floor_div(bv[j], int::mul(rb, g)?)?;
                pa = int::mul(l, g)?;
                pb = pa;
                continue;
            }
        }
        let ea = int::mul(pa, av[i])?;
        let eb = int::mul(pb, bv[j])?;
        let qa = int::floor_mod(eb, ea)? == 0;
        let qb = int::floor_mod(ea, eb)? == 0;
        if qa || !qb {
            pa = ea;
            i += 1;
        }
        if qb || !qa {
            pb = eb;
            j += 1;
        }
    }
    Ok((shape, stride))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::int::gcd_pos;
    use crate::testing::Rng;

    /// A random shape: a leaf or up to 5 modes, each a leaf or a pair;
    /// mostly small extents with common factors, sometimes 1, a large
    /// value (so that indices overflow) or a non-positive one.
    fn shape(r: &mut Rng) -> HTuple<i64> {
        const EXT: &[i64] = &[1, 2, 2, 3, 4, 4, 5, 6, 8, 9, 12, 16, 24, 32, 7, 10];
        let ext = |r: &mut Rng| match r.next(40) {
            0 => 0,
            1 => -(1 + r.next(4) as i64),
            2 => 1 << (20 + r.next(24)),
            3 => 3 << (20 + r.next(20)),
            _ => EXT[r.next(EXT.len() as u64) as usize],
        };
        let n = r.next(6) as usize;
        if n == 0 {
            return HTuple::leaf(ext(r));
        }
        let modes: Vec<HTuple<i64>> = (0..n)
            .map(|_| {
                if r.next(3) == 0 {
                    HTuple::flat([ext(r), ext(r)])
                } else {
                    HTuple::leaf(ext(r))
                }
            })
            .collect();
        HTuple::tuple(modes)
    }

    /// The allocation-free greatest_common_domain agrees with the general
    /// code on every input (values and errors), and its loop answers
    /// exactly where `gcd_core` does, with the same factors.
    #[test]
    fn greatest_common_domain_matches_general() {
        let mut r = Rng(41);
        let (mut fast, mut ok) = (0, 0);
        for _ in 0..100_000 {
            let (a, b) = (shape(&mut r), shape(&mut r));
            let g = greatest_common_domain_general(a.as_ref(), b.as_ref());
            let f = greatest_common_domain(a.as_ref(), b.as_ref());
            assert_eq!(
                format!("{f:?}"),
                format!("{g:?}"),
                "greatest_common_domain({a}, {b})"
            );
            if g.is_ok() {
                ok += 1;
            }
            let mut out = Layout::blank();
            if gcd_fast_into(a.leaves(), b.leaves(), &mut out).is_some() {
                fast += 1;
                assert_eq!(g.as_ref().ok(), Some(&out), "({a}, {b})");
            }
            if a.leaves().iter().chain(b.leaves()).all(|&e| e > 0) {
                let core = gcd_core(a.leaves(), b.leaves());
                let mut walked = (Factors::new(), Factors::new());
                let w = gcd_walk(a.leaves(), b.leaves(), |g, at| {
                    walked.0.push(g);
                    walked.1.push(at);
                });
                assert_eq!(w.is_some(), core.is_ok(), "({a}, {b})");
                if let Ok(c) = core {
                    assert_eq!(walked, c, "({a}, {b})");
                }
            }
        }
        assert!(fast > 50_000 && fast == ok, "{fast} of {ok}");
    }

    /// The binary gcd is `int::gcd` on positive integers.
    #[test]
    fn gcd_pos_matches_int_gcd() {
        let mut r = Rng(43);
        for _ in 0..100_000 {
            let a = 1 + r.next(1 << 20) as i64 * [1, 2, 8, 1 << 30][r.next(4) as usize];
            let b = 1 + r.next(1 << 12) as i64 * [1, 3, 16, 1 << 40][r.next(4) as usize];
            assert_eq!(gcd_pos(a, b), int::gcd(a, b), "gcd({a}, {b})");
        }
        assert_eq!(gcd_pos(i64::MAX, i64::MAX), i64::MAX);
        assert_eq!(gcd_pos(1 << 62, 1 << 61), 1 << 61);
    }
}
