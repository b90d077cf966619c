//! right_inverse, left_inverse, nullspace (`docs/operations.md`;
//! F2 strides: `docs/language.md`, "Swizzles").
use std::cmp::Ordering;

use smallvec::SmallVec;

use crate::error::Error;
use crate::htuple::HTuple;
use crate::stride::Path;
use crate::{int, Layout, Result, Scalar};

use super::coalesce::{
    coalesce, drop_trailing_unit, fold_into, fold_push, Folded, InlineModes, ModeList, INLINE_MODES,
};
use super::codomain::{coprofile, int_codomain};
use super::leaf::{sort_stable_by, unwrapped_into, StrideLeaf};

// ---------------------------------------------------------------------------
// shared helpers
// ---------------------------------------------------------------------------

/// A mode of the folded layout: size, stride, domain multiplier (`pp`).
#[derive(Clone)]
struct Mode<D = Scalar> {
    s: i64,
    d: D,
    pp: i64,
}

/// The list of folded modes.
type Modes<D = Scalar> = SmallVec<[Mode<D>; 8]>;

/// `fold` of the flat modes `modes` with the prefix products of its
/// sizes, into `out`.
fn folded_modes_into<D: StrideLeaf>(
    modes: impl IntoIterator<Item = (i64, D)>,
    out: &mut Modes<D>,
) -> Result<()> {
    let modes = modes.into_iter();
    // (the fold makes no more modes than it is given)
    if modes.size_hint().1.is_some_and(|n| n <= INLINE_MODES) {
        folded_modes_with(modes, InlineModes::<D>::new(), out)
    } else {
        folded_modes_with(modes, Folded::<D>::new(), out)
    }
}

/// [`folded_modes_into`] with the scratch list `f`.
#[inline(always)]
fn folded_modes_with<D: StrideLeaf>(
    modes: impl Iterator<Item = (i64, D)>,
    mut f: impl ModeList<(i64, D)>,
    out: &mut Modes<D>,
) -> Result<()> {
    fold_into(modes, &mut f)?;
    out.clear();
    let mut pp: i64 = 1;
    let n = f.len();
    for (k, (s, d)) in f.iter_mut().enumerate() {
        let s = *s;
        out.push(Mode {
            s,
            d: std::mem::replace(d, D::zero()),
            pp,
        });
        if k + 1 < n {
            pp = int::mul(pp, s)?;
        }
    }
    Ok(())
}

/// The flat modes of `a` with `i64` strides (read where
/// [`int_codomain`] holds).
fn int_modes(a: &Layout) -> impl Iterator<Item = (i64, i64)> + '_ {
    let st = a.stride().leaves().iter().map(i64::of_scalar);
    a.shape().leaves().iter().copied().zip(st)
}

/// `fold(A)` with the prefix products of its sizes.
fn folded_modes(a: &Layout) -> Result<Modes> {
    let mut out = Modes::new();
    folded_modes_into(a.flat_modes().map(|(s, d)| (s, d.clone())), &mut out)?;
    Ok(out)
}

/// The codomain axes of `A`: `None` for a scalar codomain (integer or F2),
/// else the leaf paths of `coprofile(A)` and the profile itself.
fn codomain_axes(a: &Layout) -> Result<(HTuple<i64>, Option<Vec<Path>>)> {
    let p = coprofile(a)?;
    if p.is_leaf() {
        return Ok((p, None));
    }
    let paths: Vec<Path> = p
        .as_ref()
        .leaf_paths()
        .into_iter()
        .map(|q| q.iter().copied().collect())
        .collect();
    Ok((p, Some(paths)))
}

/// For each codomain axis (in the order of `coprofile(A)`'s leaves), whether
/// its algebra is F2: the sum of A's strides holds an F2 value there
/// (`F1@0 + 1@1` has an F2 axis 0 and an integer axis 1). A sum that mixes
/// algebras on one axis is a `type` error.
fn f2_axes(a: &Layout, op: &str) -> Result<SmallVec<[bool; 2]>> {
    let total = super::codomain::stride_sum(a.stride().leaves().iter().cloned(), a, op)?;
    Ok(total
        .as_tuple()
        .leaves()
        .iter()
        .map(Scalar::is_f2)
        .collect())
}

/// True when some stride leaf is a nonzero F2 value.
fn has_f2_strides(a: &Layout) -> bool {
    a.stride()
        .leaves()
        .iter()
        .any(|d| matches!(d, Scalar::F2(v) if *v != 0))
}

/// Builds the layout nested like `profile` whose leaf number `k` (in
/// traversal order) is `axis[k]`.
fn nest_like(profile: &HTuple<i64>, axis: Vec<Layout>) -> Result<Layout> {
    fn rec(
        p: crate::HRef<'_, i64>,
        it: &mut std::vec::IntoIter<Layout>,
        depth: usize,
    ) -> Result<Layout> {
        if depth > crate::htuple::MAX_DEPTH {
            return Err(Error::value("codomain profile nested too deep"));
        }
        if p.is_leaf() {
            return it
                .next()
                .ok_or_else(|| Error::value("internal: missing axis result"));
        }
        let mut modes = Vec::with_capacity(p.rank());
        for m in p.modes() {
            modes.push(rec(m, it, depth + 1)?);
        }
        Ok(Layout::concat_allow_empty(modes))
    }
    let mut it = axis.into_iter();
    rec(profile.as_ref(), &mut it, 0)
}

/// "set unwrap(S) : unwrap(D)" for flat lists (an empty list gives `1:0`).
fn set_unwrapped<S, D>(s: S, d: D) -> Layout
where
    S: AsRef<[i64]> + IntoIterator<Item = i64>,
    D: IntoIterator<Item = Scalar>,
{
    match s.as_ref() {
        [] => Layout::leaf(1, Scalar::Int(0)),
        &[s0] => Layout::leaf(s0, d.into_iter().next().unwrap_or_default()),
        _ => Layout::from_parts(HTuple::flat(s), HTuple::flat(d)),
    }
}

fn bitlen(v: i64) -> u32 {
    64 - v.leading_zeros()
}

fn is_pow2(v: i64) -> bool {
    v > 0 && v & (v - 1) == 0
}

fn f2_value(d: &Scalar) -> i64 {
    match d {
        Scalar::Int(v) | Scalar::F2(v) => *v,
        Scalar::Coord(_) => 0,
    }
}

// ---------------------------------------------------------------------------
// right_inverse
// ---------------------------------------------------------------------------

/// `right_inverse(A)` (`docs/operations.md`; F2 strides
/// `docs/language.md`, "Swizzles"; C++ CuTe `right_inverse`): the largest layout `R` built from a
/// chain of A's modes such that `A(R(k)) == k` for `0 <= k < size(R)`
/// (integer codomain). R enumerates, in order, the domain positions of the
/// offsets `0, 1, 2, ...`.
///
/// * Integer codomain: the result is coalesced (a leaf or a flat tuple);
///   no chain from stride 1 gives `1:0`.
/// * Coordinate codomain: one coalesced result per codomain axis `E(p)` of
///   `coprofile(A)` (it inverts A on that axis), concatenated and nested like
///   `coprofile(A)`.
/// * F2 strides: a mode joins the chain when its residue (stride XOR running
///   position) times its size stays below the running position and the
///   back-substituted stride really maps to the next positions; the result
///   has F2 strides and satisfies `A(R(k)) == F(k)` for `k < size(R)`.
/// * F2 values on coordinate axes (`F1@0`): an axis whose strides are F2
///   values is inverted by that F2 walk (`A(R_p(k)) == F(k)@p`), the others
///   by the integer chain, so a result may mix F2 and integer strides
///   (`(8,8):(F1@0,1@1)` gives `(8, 8):(F1, 8)`).
///
/// Errors: `type` for mixed algebras (an integer stride next to a
/// coordinate stride, F2 and integer values on one axis);
/// `overflow` for products outside 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::algebra::right_inverse;
/// let a = Layout::row_major(HTuple::flat([4, 8])).unwrap();       // (4,8):(8,1)
/// let r = right_inverse(&a).unwrap();
/// assert_eq!(r.to_string(), "(8, 4):(4, 1)");
/// for k in 0..32 {
///     let i = r.eval_index(k).unwrap().as_int().unwrap();
///     assert_eq!(a.eval_index(i).unwrap(), Scalar::Int(k));
/// }
/// ```
#[inline]
pub fn right_inverse(a: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    right_inverse_into(a, &mut out)?;
    Ok(out)
}

/// [`right_inverse`] built in `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn right_inverse_into(a: &Layout, out: &mut Layout) -> Result<()> {
    if int_codomain(a)? {
        // an integer codomain: the walk on `i64` strides
        let mut chain = Modes::<i64>::new();
        folded_modes_into(int_modes(a), &mut chain)?;
        return walk_chain_into(&mut chain, 1, out);
    }
    let (profile, axes) = codomain_axes(a)?;
    let mut chain = folded_modes(a)?;
    match axes {
        None if has_f2_strides(a) => {
            *out = right_inverse_f2(a, chain, None)?;
            Ok(())
        }
        None => walk_chain_into(&mut chain, Scalar::Int(1), out),
        Some(paths) => {
            let f2 = f2_axes(a, "right_inverse")?;
            let mut results = Vec::with_capacity(paths.len());
            for (k, p) in paths.iter().enumerate() {
                let mut r = Layout::blank();
                if f2.get(k).copied().unwrap_or(false) {
                    // an F2 axis: the F2 walk on the strides that lie on it
                    r = right_inverse_f2(a, folded_modes(a)?, Some(p))?;
                } else {
                    walk_chain_into(&mut chain, Scalar::basis(1, p), &mut r)?;
                }
                results.push(r);
            }
            *out = nest_like(&profile, results)?;
            Ok(())
        }
    }
}

/// The F2 value of the stride `d` on the codomain axis `axis` (`None`: a
/// scalar codomain, `d` itself): `F<v>` for an F2 basis value `F<v>@axis`,
/// `F0` for a stride that is zero, lies on another axis or has several
/// terms (such a mode never joins that axis's chain).
fn f2_on_axis(d: &Scalar, axis: Option<&Path>) -> Scalar {
    match axis {
        None => d.clone(),
        Some(p) => match d.basis_term() {
            Ok((v @ Scalar::F2(_), q)) if q == *p => v,
            _ => Scalar::F2(0),
        },
    }
}

/// The contiguous-chain walk on one axis `e` (integers or coordinates):
/// the modes sorted by stride (stably), each mode whose stride is the
/// running position `e * (product of the sizes taken)` taken, the result
/// coalesced into `out`.
fn walk_chain_into<D: StrideLeaf>(chain: &mut Modes<D>, e: D, out: &mut Layout) -> Result<()> {
    sort_stable_by(chain, |x, y| x.d.try_cmp(&y.d))?;
    // (at most one mode per mode of the chain)
    if chain.len() <= INLINE_MODES {
        walk_chain_with(chain, e, InlineModes::<i64>::new(), out)
    } else {
        walk_chain_with(chain, e, Folded::<i64>::new(), out)
    }
}

/// [`walk_chain_into`] on the sorted chain with the list `res`.
#[inline(always)]
fn walk_chain_with<D: StrideLeaf>(
    chain: &Modes<D>,
    e: D,
    mut res: impl ModeList<(i64, i64)>,
    out: &mut Layout,
) -> Result<()> {
    let mut cur = e;
    for m in chain.iter() {
        if m.d.is_zero() || m.s == 1 || m.d != cur {
            continue;
        }
        cur = cur.mul_int(m.s)?;
        // coalesced as taken: a merge whose extent overflows has
        // overflowed `cur` first (the extent is a product of sizes taken)
        fold_push(&mut res, m.s, m.pp)?;
    }
    drop_trailing_unit(&mut res);
    unwrapped_into(&res, out);
    Ok(())
}

/// Evaluates the accepted F2 modes (sizes `s`, F2 strides `d`) at the
/// integer index `k` (`0 <= k < product(s)`).
fn eval_f2_modes(s: &[i64], d: &[i64], k: i64) -> Result<i64> {
    let mut q = k;
    let mut acc = 0i64;
    for (idx, (&si, &di)) in s.iter().zip(d).enumerate() {
        let digit = if idx + 1 == s.len() {
            q
        } else {
            let (qq, r) = int::floor_divmod(q, si)?;
            q = qq;
            r
        };
        acc ^= crate::f2::clmul(di, digit)?;
    }
    Ok(acc)
}

/// `x << b` as a checked integer product.
fn shl(x: i64, b: u32) -> Result<i64> {
    let f = 1i64
        .checked_shl(b)
        .filter(|v| *v > 0)
        .ok_or_else(|| Error::overflow(format!("{x} << {b} overflows 64 bits")))?;
    int::mul(x, f)
}

/// The F2 walk (`docs/language.md`, "Swizzles").
///
/// A is F2-linear in its integral index wherever its folded extents are
/// powers of two (the last mode may have any extent). Modes at or after the
/// first non-power-of-two extent that is not last are left out, and the
/// walk stops after accepting a non-power-of-two size, so that R is
/// F2-linear too; every accepted mode is checked on the bits of its digit.
///
/// `axis` names the codomain axis inverted when A has coordinate strides
/// (the F2 strides on it are walked, the others left out; every accepted
/// mode is checked against A itself, so a preimage that reaches a mode of
/// another axis is refused).
fn right_inverse_f2(a: &Layout, folded: Modes, axis: Option<&Path>) -> Result<Layout> {
    let mut chain: SmallVec<[(usize, Mode); 8]> = folded
        .into_iter()
        .map(|m| Mode {
            d: f2_on_axis(&m.d, axis),
            ..m
        })
        .enumerate()
        .collect();
    sort_stable_by(&mut chain, |x, y| x.1.d.try_cmp(&y.1.d))?;
    let want_at = |v: i64| match axis {
        None => Scalar::F2(v),
        Some(p) => Scalar::scaled_basis(Scalar::F2(v), p),
    };
    let nmodes = chain.len();
    // first non-power-of-two extent (by fold position) that is not last
    let mut by_pos: Vec<(i64, i64)> = vec![(1, 1); nmodes];
    for (k, m) in &chain {
        if let Some(slot) = by_pos.get_mut(*k) {
            *slot = (m.s, m.pp);
        }
    }
    let limit = by_pos
        .iter()
        .enumerate()
        .find(|(k, (s, _))| k + 1 < nmodes && !is_pow2(*s))
        .map(|(k, (_, pp))| (k, *pp));
    let size_a = a.size()?;
    let mut cur: i64 = 1; // running position (a power of two while the walk goes on)
    let mut s_acc: Vec<i64> = Vec::new();
    let mut d_acc: Vec<i64> = Vec::new();
    for (k, m) in &chain {
        if m.d.is_zero() || m.s == 1 {
            continue;
        }
        if let Some((t, _)) = limit {
            if *k >= t {
                continue;
            }
        }
        let dv = f2_value(&m.d);
        let nb = bitlen(m.s - 1); // digit bits 0..nb
        let log_cur = cur.trailing_zeros();
        let r = dv ^ cur;
        if r != 0 && bitlen(r) + nb - 1 > log_cur {
            continue; // (s-1)·residue reaches the running position
        }
        let dn = m.pp ^ eval_f2_modes(&s_acc, &d_acc, r)?;
        if let Some((_, plin)) = limit {
            if bitlen(dn) + nb - 1 > plin.trailing_zeros() {
                continue; // would leave the region where A is F2-linear
            }
        }
        // each digit bit's preimage must be an index of A (its last mode
        // absorbs larger ones, which would pass the value check wrongly:
        // (4,8,4):(F34,F4,F1) at 130 is F64, but 130 >= size 128)
        let mut ok = true;
        for b in 0..nb {
            let want = want_at(shl(cur, b)?);
            let x = shl(dn, b)?;
            // (an evaluation error, e.g. two algebras meeting, is a miss)
            if x < 0 || x >= size_a || a.eval_index(x).map_or(true, |v| v != want) {
                ok = false;
                break;
            }
        }
        if !ok {
            continue;
        }
        s_acc.push(m.s);
        d_acc.push(dn);
        cur = int::mul(cur, m.s)?;
        if !is_pow2(m.s) {
            break;
        }
    }
    let d: SmallVec<[Scalar; 8]> = d_acc.into_iter().map(Scalar::F2).collect();
    coalesce(&set_unwrapped(s_acc, d))
}

// ---------------------------------------------------------------------------
// left_inverse
// ---------------------------------------------------------------------------

/// `left_inverse(A)` (`docs/operations.md`; F2 strides
/// `docs/language.md`, "Swizzles"; C++ CuTe `left_inverse`): a layout `R` with `R(A(k)) == k`
/// for `0 <= k < size(A)` when A is injective, spanning the whole codomain
/// range A uses (holes map to zero-contribution positions).
///
/// Precondition (per codomain axis): the nonzero, non-size-1 strides of the
/// folded A, sorted, form an ordered chain — each divides the next and the
/// next is at least the previous one times its size.
///
/// * Integer codomain: the result is `coalesce_z`-ed (a leaf or a flat
///   tuple); all-zero strides give `1:0`.
/// * Coordinate codomain: one `coalesce_z`-ed layout per axis of
///   `coprofile(A)`, nested like it.
/// * F2 strides: only chains without gaps (the first stride `F1`, each next
///   stride the previous one times its power-of-two size) are supported; the
///   result has integer strides and maps `A(k)` (read as an integer) to `k`.
///   On coordinate axes the same holds axis by axis (`4:F1@0` gives
///   `(4,):(1,)`).
///
/// Errors: `divisibility` when the strides do not form an ordered chain;
/// `injectivity` when a stride overlaps the previous mode (non-injective);
/// `value` for an F2 chain with a gap, a negative stride or a
/// non-power-of-two extent below the last; `type` for a multi-term
/// coordinate stride or mixed algebras (also F2 and integer values on one
/// axis);
/// `overflow` beyond 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::algebra::left_inverse;
/// let a = Layout::new(HTuple::leaf(4), HTuple::leaf(Scalar::Int(2))).unwrap();   // 4:2
/// let r = left_inverse(&a).unwrap();
/// assert_eq!(r.to_string(), "(2, 4):(0, 1)");
/// for k in 0..4 {
///     let o = a.eval_index(k).unwrap().as_int().unwrap();
///     assert_eq!(r.eval_index(o).unwrap(), Scalar::Int(k));
/// }
/// ```
#[inline]
pub fn left_inverse(a: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    left_inverse_into(a, &mut out)?;
    Ok(out)
}

/// One axis of a left inverse under construction, `coalesce_z`-ed as it
/// is taken: the modes whose extent is final, folded (`fold_push`), and
/// the last mode taken, one behind (its extent becomes the gap to the next
/// mode taken), starting with the `1:0` mode; the number of modes taken
/// after it; the running extent. A fold error is kept and raised after the
/// chain is checked ([`Axis::finish`]), as coalescing the list at the end
/// would.
struct Axis {
    folded: Folded<i64>,
    last: (i64, i64),
    taken: usize,
    cur: i64,
    err: Option<Error>,
}

impl Axis {
    fn new() -> Axis {
        Axis {
            folded: Folded::new(),
            last: (1, 0),
            taken: 0,
            cur: 1,
            err: None,
        }
    }

    /// Takes the mode `s:pp` (the last one's extent is final now).
    #[inline]
    fn take(&mut self, s: i64, pp: i64) {
        let (ls, lp) = std::mem::replace(&mut self.last, (s, pp));
        self.taken += 1;
        if self.err.is_none() {
            if let Err(e) = fold_push(&mut self.folded, ls, lp) {
                self.err = Some(e);
            }
        }
    }

    /// The axis's layout (its modes `coalesce_z`-ed) built in `out`.
    fn finish(&mut self, out: &mut Layout) -> Result<()> {
        if let Some(e) = self.err.take() {
            return Err(e);
        }
        fold_push(&mut self.folded, self.last.0, self.last.1)?;
        unwrapped_into(&self.folded, out);
        Ok(())
    }
}

/// [`left_inverse`] built in `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn left_inverse_into(a: &Layout, out: &mut Layout) -> Result<()> {
    if int_codomain(a)? {
        // an integer codomain: the chain on `i64` strides
        let mut sorted = Modes::<i64>::new();
        folded_modes_into(int_modes(a), &mut sorted)?;
        let mut axes = [Axis::new()];
        left_chains(a, &mut sorted, &[Path::new()], &[false], &mut axes)?;
        let [ax] = &mut axes;
        return ax.finish(out);
    }
    let (profile, axes) = codomain_axes(a)?;
    let f2: SmallVec<[bool; 2]> = match &axes {
        None => smallvec::smallvec![has_f2_strides(a)],
        Some(_) => f2_axes(a, "left_inverse")?,
    };
    // inline working lists: no heap allocation for an integer codomain and
    // up to 8 modes
    let paths: SmallVec<[Path; 2]> = match &axes {
        Some(p) => p.iter().cloned().collect(),
        None => smallvec::smallvec![Path::new()],
    };
    let mut sorted = folded_modes(a)?;
    let mut chains: SmallVec<[Axis; 2]> = (0..paths.len()).map(|_| Axis::new()).collect();
    left_chains(a, &mut sorted, &paths, &f2, &mut chains)?;
    let mut results: Vec<Layout> = Vec::with_capacity(chains.len());
    for ax in &mut chains {
        let mut r = Layout::blank();
        ax.finish(&mut r)?;
        results.push(r);
    }
    *out = match axes {
        None => results
            .into_iter()
            .next()
            .ok_or_else(|| Error::value("internal: no axis"))?,
        Some(_) => nest_like(&profile, results)?,
    };
    Ok(())
}

/// The left inverse's chains: the folded modes `sorted` of A sorted by
/// (stride, size, domain multiplier), each nonzero non-size-1 mode placed
/// on its codomain axis (`paths`) after checking it continues that axis's
/// chain (integers: a multiple of the running extent at least the last
/// size; on an axis whose `f2` flag is set: exactly the next power of
/// two), into `axes`.
fn left_chains<D: StrideLeaf>(
    a: &Layout,
    sorted: &mut Modes<D>,
    paths: &[Path],
    f2: &[bool],
    axes: &mut [Axis],
) -> Result<()> {
    sort_stable_by(sorted, |x, y| {
        Ok(x.d.try_cmp(&y.d)?.then(x.s.cmp(&y.s)).then(x.pp.cmp(&y.pp)))
    })?;
    for m in sorted.iter() {
        let (mv, path) =
            m.d.axis_value()
                .map_err(|e| Error::type_(format!("left_inverse: {}", e.message())))?;
        if mv == 0 || m.s == 1 {
            continue;
        }
        let p = paths.iter().position(|q| *q == path).ok_or_else(|| {
            Error::type_(format!(
                "left_inverse: stride {} lies on no codomain axis of {a}",
                m.d
            ))
        })?;
        let Some(ax) = axes.get_mut(p) else {
            return Err(Error::value("internal: axis out of range"));
        };
        let last = ax.last.0;
        let cp = &mut ax.cur;
        if f2.get(p).copied().unwrap_or(false) {
            if ax.taken > 0 && !is_pow2(last) {
                return Err(Error::value(format!(
                    "left_inverse: the F2 layout {a} has the non-power-of-two extent {last} below its last mode"
                )));
            }
            if mv < 0 {
                return Err(Error::value(format!(
                    "left_inverse: the F2 layout {a} has the negative stride F{mv}; F2 chains need non-negative strides"
                )));
            }
            let want = int::mul(*cp, last)?;
            match mv.cmp(&want) {
                Ordering::Less => {
                    return Err(Error::injectivity(format!(
                        "left_inverse: non-injective layout {a}: stride F{mv} overlaps the modes below it"
                    )))
                }
                Ordering::Greater => {
                    return Err(Error::value(format!(
                        "left_inverse: the F2 layout {a} has a gap before stride F{mv} (expected F{want}); a gap would need an F2 extent"
                    )))
                }
                Ordering::Equal => {}
            }
            *cp = mv;
        } else {
            // (no division by a running extent of 1, nor of a stride at it)
            let (gap, r) = if *cp == 1 {
                (mv, 0)
            } else if mv == *cp {
                (1, 0)
            } else {
                int::floor_divmod(mv, *cp)?
            };
            if r != 0 {
                return Err(Error::divisibility(format!(
                    "left_inverse: strides of {a} do not form an ordered chain ({} is not a multiple of {})",
                    m.d, cp
                )));
            }
            if gap < last {
                return Err(Error::injectivity(format!(
                    "left_inverse: non-injective layout {a} (stride {} overlaps the previous mode)",
                    m.d
                )));
            }
            ax.last.0 = gap;
            ax.cur = int::mul(ax.cur, gap)?;
        }
        ax.take(m.s, m.pp);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// nullspace
// ---------------------------------------------------------------------------

/// `nullspace(A)` (`docs/operations.md`; C++ CuTe `nullspace`): the
/// compact layout `N` enumerating the coordinates of A's zero-stride modes,
/// on the flattened (not coalesced) A, so that `A(N(i)) == 0` for every
/// `i < size(N)`. The result is a leaf or a flat tuple with integer strides
/// (the domain multipliers of those modes); no zero stride gives `1:0`.
/// A zero stride is zero in any algebra (`0`, `F0`, a zero coordinate).
///
/// Errors: `overflow` when a domain multiplier exceeds 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::algebra::nullspace;
/// let a = Layout::new(HTuple::flat([2, 4, 6]),
///     HTuple::flat([Scalar::Int(0), Scalar::Int(2), Scalar::Int(0)])).unwrap();
/// let n = nullspace(&a).unwrap();
/// assert_eq!(n.to_string(), "(2, 6):(1, 8)");
/// for i in 0..12 {
///     let c = n.eval_index(i).unwrap().as_int().unwrap();
///     assert!(a.eval_index(c).unwrap().is_zero());
/// }
/// ```
pub fn nullspace(a: &Layout) -> Result<Layout> {
    let mut out = Layout::blank();
    nullspace_into(a, &mut out)?;
    Ok(out)
}

/// [`nullspace`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn nullspace_into(a: &Layout, out: &mut Layout) -> Result<()> {
    out.reset();
    let ((nodes, s_out), d_out) = out.raw_mut();
    // inline lists: no heap allocation for up to 8 leaves
    let mut pp: i64 = 1;
    let modes: SmallVec<[(i64, &Scalar); 8]> = a.flat_modes().collect();
    let last_zero = modes.iter().rposition(|(_, d)| d.is_zero());
    let Some(last_zero) = last_zero else {
        // `1:0`
        nodes.push(crate::htuple::LEAF);
        s_out.push(1);
        d_out.push(Scalar::Int(0));
        return Ok(());
    };
    for (k, (s, d)) in modes.iter().enumerate().take(last_zero + 1) {
        if d.is_zero() {
            s_out.push(*s);
            d_out.push(Scalar::Int(pp));
        }
        if k < last_zero {
            pp = int::mul(pp, *s)?;
        }
    }
    // set unwrap(S) : unwrap(D): a leaf for one mode, else a flat tuple
    match s_out.len() {
        1 => nodes.push(crate::htuple::LEAF),
        n @ 2.. if n < crate::htuple::WIDE as usize => {
            nodes.push(n as u8);
            nodes.extend(std::iter::repeat_n(crate::htuple::LEAF, n));
        }
        _ => {
            let (s, d) = (s_out.clone(), d_out.clone());
            *out = set_unwrapped(s, d);
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod generic_tests {
    use super::*;
    use crate::testing::{random_layout, Rng};

    /// The `i64` and the `Scalar` instantiations of the right inverse's
    /// walk and of the left inverse's chains give the same layout or the same error kind on random
    /// integer-strided layouts.
    #[test]
    fn right_inverse_instantiations_agree() {
        const STRIDES: &[i64] = &[0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, -1, -2, 5, 7];
        let mut r = Rng(3);
        for _ in 0..100_000 {
            let a = random_layout(&mut r, 4, 3, |r| {
                let s = 1 + r.next(6) as i64;
                (
                    s,
                    Scalar::Int(STRIDES[r.next(STRIDES.len() as u64) as usize]),
                )
            });
            let i = right_inverse(&a);
            let mut g = Layout::blank();
            let gr =
                folded_modes(&a).and_then(|mut c| walk_chain_into(&mut c, Scalar::Int(1), &mut g));
            match (&i, gr) {
                (Ok(x), Ok(())) => assert_eq!(x, &g, "{a}"),
                (Err(x), Err(y)) => assert_eq!(x.kind(), y.kind(), "{a}"),
                (x, y) => panic!("{a}: {x:?} vs {y:?}"),
            }
            let i = left_inverse(&a);
            let mut chains = [Axis::new()];
            let gr = folded_modes(&a).and_then(|mut c| {
                left_chains(&a, &mut c, &[Path::new()], &[false], &mut chains)?;
                chains[0].finish(&mut g)
            });
            match (&i, gr) {
                (Ok(x), Ok(())) => assert_eq!(x, &g, "left_inverse({a})"),
                (Err(x), Err(y)) => assert_eq!(x.kind(), y.kind(), "left_inverse({a})"),
                (x, y) => panic!("left_inverse({a}): {x:?} vs {y:?}"),
            }
        }
    }
}
