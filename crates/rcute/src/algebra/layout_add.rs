//! layout_add and greatest_common_domain (`docs/operations.md`).
use smallvec::SmallVec;

use crate::error::Error;
use crate::htuple::{push_rank, LEAF};
use crate::{int, HRef, Layout, Result, Scalar};

use super::coalesce::{Folded, ModeOp};
use super::leaf::StrideLeaf;

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
    layout_add_into(a, b, &mut out)?;
    Ok(out)
}

/// [`layout_add`] built in `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn layout_add_into(a: &Layout, b: &Layout, out: &mut Layout) -> Result<()> {
    let (na, nb) = (a.size()?, b.size()?);
    if na != nb {
        return Err(Error::value(format!(
            "layout_add: size mismatch: size({a}) = {na}, size({b}) = {nb}"
        )));
    }
    let (sa, sb) = (
        a.shape().leaves().iter().copied(),
        b.shape().leaves().iter().copied(),
    );
    if a.has_integer_strides() && b.has_integer_strides() {
        // integer strides: read as `i64` in place (not copied)
        let (da, db) = (a.stride().leaves(), b.stride().leaves());
        let (ia, ib) = (da.iter().map(i64::of_scalar), db.iter().map(i64::of_scalar));
        add_modes(a, b, sa.zip(ia), sb.zip(ib), na, out)
    } else {
        add_modes(
            a,
            b,
            sa.zip(a.stride().leaves().iter().cloned()),
            sb.zip(b.stride().leaves().iter().cloned()),
            na,
            out,
        )
    }
}

/// The sum of the layouts with leaf modes `ma` and `mb` (`a` and `b`,
/// named in errors) of size `n`: both coalesced, their greatest common
/// domain, each of its factors given the sum of the two at its start
/// index, coalesced into `out`.
fn add_modes<D: StrideLeaf>(
    a: &Layout,
    b: &Layout,
    ma: impl Iterator<Item = (i64, D)> + Clone,
    mb: impl Iterator<Item = (i64, D)> + Clone,
    n: i64,
    out: &mut Layout,
) -> Result<()> {
    let (mut fa, mut fb) = (Folded::<D>::new(), Folded::<D>::new());
    ModeOp::Coalesce.apply(ma, &mut fa)?;
    ModeOp::Coalesce.apply(mb, &mut fb)?;
    let shape_a: Factors = fa.iter().map(|m| m.0).collect();
    let shape_b: Factors = fb.iter().map(|m| m.0).collect();
    // (layouts the algebra builds need not have positive shapes)
    for (name, sh) in [("first", &shape_a), ("second", &shape_b)] {
        if let Some(&e) = sh.iter().find(|&&e| e <= 0) {
            let sh = crate::HTuple::flat(sh.iter().copied());
            return Err(Error::value(format!(
                "greatest_common_domain: the {name} shape {sh} has the non-positive extent {e}"
            )));
        }
    }
    let mut factors: SmallVec<[(i64, i64); 8]> = SmallVec::new();
    common_factors(&shape_a, &shape_b, |g, at| factors.push((g, at)))?;
    let g_size = factors.iter().try_fold(1i64, |acc, f| int::mul(acc, f.0))?;
    if g_size != n {
        let g = factors_layout(&factors);
        return Err(Error::value(format!(
            "layout_add: no common refinement of {a} and {b} (their common domain {g} has size {g_size}, not {n})"
        )));
    }
    check_f2_splits(&fa, &factors, a)?;
    check_f2_splits(&fb, &factors, b)?;
    let mut sums: Folded<D> = Folded::new();
    for &(s, at) in &factors {
        sums.push((s, D::eval_flat(&fa, at)?.add(&D::eval_flat(&fb, at)?)?));
    }
    if sums.is_empty() {
        // the common domain `(1,):(0,)`: both layouts at index 0
        sums.push((1, D::eval_flat(&fa, 0)?.add(&D::eval_flat(&fb, 0)?)?));
    }
    ModeOp::Coalesce.flat_into(sums.into_iter(), out)
}

/// The common domain `factors` (`(size, start)` pairs) as a layout.
#[cold]
fn factors_layout(factors: &[(i64, i64)]) -> Layout {
    let mut out = Layout::blank();
    gcd_layout_into(factors.iter().copied(), &mut out);
    out
}

/// An F2 mode `s:F(d)` is linear only over splits of its index at powers
/// of two (`i = i0 + 2^k i1` with `i0 < 2^k` makes `+` an XOR); splitting
/// it elsewhere (`12:F8` into `(3, 4)`) would make the sum wrong, so that is
/// a `value` error. `modes` is a coalesced operand, `factors` the common
/// domain, `orig` the operand named in the message.
fn check_f2_splits<D: StrideLeaf>(
    modes: &[(i64, D)],
    factors: &[(i64, i64)],
    orig: &Layout,
) -> Result<()> {
    if !modes.iter().any(|(_, d)| d.is_nonzero_f2()) {
        return Ok(());
    }
    let mut starts = Vec::with_capacity(modes.len());
    let mut p: i128 = 1;
    for (s, _) in modes {
        starts.push(p);
        p = p.saturating_mul(*s as i128);
    }
    for &(_, at) in factors {
        let at = at as i128;
        let Some(j) = starts.iter().rposition(|&st| st <= at) else {
            continue;
        };
        let (s, d) = &modes[j];
        if !d.is_nonzero_f2() || at == starts[j] {
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
    greatest_common_domain_into(a, b, &mut out)?;
    Ok(out)
}

/// [`greatest_common_domain`] built in `out` (its storage reused).
#[inline]
pub(crate) fn greatest_common_domain_into(
    a: HRef<'_, i64>,
    b: HRef<'_, i64>,
    out: &mut Layout,
) -> Result<()> {
    for (name, s) in [("first", a), ("second", b)] {
        if let Some(&e) = s.leaves().iter().find(|&&e| e <= 0) {
            return Err(Error::value(format!(
                "greatest_common_domain: the {name} shape {s} has the non-positive extent {e}"
            )));
        }
    }
    out.reset();
    let (_, st) = out.raw_mut();
    let mut sh = Factors::new();
    let r = common_factors(a.leaves(), b.leaves(), |g, at| {
        sh.push(g);
        st.push(Scalar::Int(at));
    });
    if let Err(e) = r {
        return Err(Error::overflow(format!(
            "greatest_common_domain({a}, {b}): {}",
            e.message()
        )));
    }
    finish_gcd_layout(&sh, out);
    Ok(())
}

/// The common factors of two positive shapes' leaves, each passed with its
/// start index to `emit` (`gcd_walk`); `overflow` for an index beyond 64
/// bits.
#[inline(always)]
fn common_factors(a: &[i64], b: &[i64], emit: impl FnMut(i64, i64)) -> Result<()> {
    gcd_walk(a, b, emit)
        .ok_or_else(|| Error::overflow("an index of the common domain overflows 64 bits"))
}

/// The common domain of the `(size, start)` factors as a flat-tuple
/// layout (`(1,):(0,)` for none), built in `out`.
#[inline]
fn gcd_layout_into(factors: impl Iterator<Item = (i64, i64)>, out: &mut Layout) {
    out.reset();
    let (_, st) = out.raw_mut();
    let mut sh = Factors::new();
    for (g, at) in factors {
        sh.push(g);
        st.push(Scalar::Int(at));
    }
    finish_gcd_layout(&sh, out);
}

/// Completes a common-domain layout in `out` whose stride leaves (the
/// start indices) are written: the factor shape `sh` and the flat profile
/// (`(1,):(0,)` for no factor).
#[inline]
fn finish_gcd_layout(sh: &[i64], out: &mut Layout) {
    let ((nodes, shape), st) = out.raw_mut();
    shape.extend_from_slice(sh);
    if shape.is_empty() {
        shape.push(1);
        st.push(Scalar::Int(0));
    }
    // a flat tuple: its rank, then one leaf node per factor
    let n = shape.len();
    push_rank(nodes, n);
    for _ in 0..n {
        nodes.push(LEAF);
    }
}

/// Inline list of common factors.
pub(crate) type Factors = SmallVec<[i64; 8]>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HTuple;

    /// The reference loop of greatest_common_domain (the oracle of the
    /// test below), kept as first written.
    /// The loop of [`greatest_common_domain`] on the leaves of two positive
    /// shapes: the common factors and the index at which each starts (empty
    /// lists for no common factor). Errors: `overflow`.
    #[inline]
    fn gcd_core(a: &[i64], b: &[i64]) -> Result<(Factors, Factors)> {
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

    /// greatest_common_domain agrees with the reference loop `gcd_core` on
    /// every input (values and errors).
    #[test]
    fn greatest_common_domain_matches_the_reference_loop() {
        let mut r = Rng(41);
        let mut ok = 0;
        for _ in 0..100_000 {
            let (a, b) = (shape(&mut r), shape(&mut r));
            let f = greatest_common_domain(a.as_ref(), b.as_ref());
            if a.leaves().iter().chain(b.leaves()).any(|&e| e <= 0) {
                assert_eq!(
                    f.map_err(|e| e.kind()),
                    Err(crate::ErrorKind::Value),
                    "({a}, {b})"
                );
                continue;
            }
            match gcd_core(a.leaves(), b.leaves()) {
                Ok((shape, starts)) => {
                    ok += 1;
                    let mut want = Layout::blank();
                    gcd_layout_into(shape.into_iter().zip(starts), &mut want);
                    assert_eq!(f.ok(), Some(want), "({a}, {b})");
                }
                Err(e) => assert_eq!(f.map_err(|x| x.kind()), Err(e.kind()), "({a}, {b})"),
            }
        }
        assert!(ok > 50_000, "{ok}");
    }

    /// The `i64` and the `Scalar` instantiations of layout_add give the
    /// same layout or error kind on random integer layouts.
    #[test]
    fn layout_add_instantiations_agree() {
        const STRIDES: &[i64] = &[0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, -1, -2, 5, 7];
        let mut r = Rng(31);
        let mut ok = 0;
        let layout = |r: &mut Rng| {
            crate::testing::random_layout(r, 4, 3, |r| {
                let s = 1 + r.next(8) as i64;
                (
                    s,
                    Scalar::Int(STRIDES[r.next(STRIDES.len() as u64) as usize]),
                )
            })
        };
        for _ in 0..100_000 {
            let a = layout(&mut r);
            let b = if r.next(2) == 0 {
                let st = a
                    .stride()
                    .to_owned()
                    .map(|_| Scalar::Int(3 * STRIDES[r.next(STRIDES.len() as u64) as usize]));
                Layout::from_parts(a.shape().clone(), st)
            } else {
                layout(&mut r)
            };
            let i = layout_add(&a, &b);
            let (n, m) = (a.size().unwrap_or(0), b.size().unwrap_or(-1));
            if n != m {
                assert!(i.is_err());
                continue;
            }
            let mut g = Layout::blank();
            let gr = add_modes(
                &a,
                &b,
                a.shape()
                    .leaves()
                    .iter()
                    .copied()
                    .zip(a.stride().leaves().iter().cloned()),
                b.shape()
                    .leaves()
                    .iter()
                    .copied()
                    .zip(b.stride().leaves().iter().cloned()),
                n,
                &mut g,
            );
            match (&i, gr) {
                (Ok(x), Ok(())) => {
                    ok += 1;
                    assert_eq!(x, &g, "layout_add({a}, {b})")
                }
                (Err(x), Err(y)) => assert_eq!(x.kind(), y.kind(), "layout_add({a}, {b})"),
                (x, y) => panic!("layout_add({a}, {b}): {x:?} vs {y:?}"),
            }
        }
        assert!(ok > 10_000, "{ok}");
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
