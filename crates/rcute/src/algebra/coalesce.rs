//! coalesce and coalesce_z, whole and by mode (`docs/operations.md`).
//!
//! Both run the same `fold` over the leaf modes of A (in traversal order):
//! size-1 modes followed by another mode vanish, and a mode `s:d` merges into
//! the previous `sa:da` when `d == sa*da` (for F2 strides additionally when
//! `da` is `F0` or `sa` is a power of two). `coalesce_z` keeps a trailing
//! size-1 mode so that the function is preserved on every integer; `coalesce`
//! drops it unless it is the only mode.

use std::ops::DerefMut;

use crate::tiler::TilerRef;
use arrayvec::ArrayVec;
use smallvec::SmallVec;

use super::leaf::{push_flat, unwrapped_into, Leaf, StrideLeaf};
use crate::error::{Error, Result};
use crate::htuple::{push_rank, Leaves, Nodes, MAX_DEPTH};
use crate::integer::Integer;
use crate::layout::View;
use crate::{Layout, Scalar};

/// The output of `fold`: `(shape, stride)` pairs, inline for small layouts.
pub(crate) type Folded<D = Scalar> = SmallVec<[(i64, D); 8]>;

/// The capacity of an [`InlineModes`] list.
pub(crate) const INLINE_MODES: usize = 8;

/// A list of at most [`INLINE_MODES`] modes, always inline: what the
/// kernels write into where the operands bound the list (a layout of at
/// most that many leaves). Unlike [`Folded`] it has no heap form, so no
/// access tests where its storage is; over the benchmark cases that made
/// them about 10% faster (`docs/design.md`, "Bounded mode lists").
pub(crate) type InlineModes<D> = ArrayVec<(i64, D), INLINE_MODES>;

/// A list the folds write into: [`Folded`] (any length) or
/// [`InlineModes`] (bounded). `push_mode` on a full bounded list is an
/// error, not a panic; the callers that choose a bounded list have
/// checked that the operands fit it.
pub(crate) trait ModeList<T>: Default + DerefMut<Target = [T]> {
    /// Appends `x` (`value` error when the list is bounded and full).
    fn push_mode(&mut self, x: T) -> Result<()>;
    /// Removes and returns the last item.
    fn pop_mode(&mut self) -> Option<T>;
    /// Removes every item.
    fn clear_modes(&mut self);
}

impl<T, const N: usize> ModeList<T> for SmallVec<[T; N]> {
    #[inline(always)]
    fn push_mode(&mut self, x: T) -> Result<()> {
        self.push(x);
        Ok(())
    }
    #[inline(always)]
    fn pop_mode(&mut self) -> Option<T> {
        self.pop()
    }
    #[inline(always)]
    fn clear_modes(&mut self) {
        self.clear();
    }
}

impl<T, const N: usize> ModeList<T> for ArrayVec<T, N> {
    #[inline(always)]
    fn push_mode(&mut self, x: T) -> Result<()> {
        self.try_push(x).map_err(|_| full_list())
    }
    #[inline(always)]
    fn pop_mode(&mut self) -> Option<T> {
        self.pop()
    }
    #[inline(always)]
    fn clear_modes(&mut self) {
        self.clear();
    }
}

/// The error of a push onto a full bounded list (a caller that chose
/// [`InlineModes`] for operands it does not bound).
#[cold]
fn full_list() -> Error {
    Error::value(format!(
        "internal error: more than {INLINE_MODES} modes in a bounded list; please report it"
    ))
}

/// `fold(A)` over a flat sequence of leaf modes, into `out` (cleared
/// first): a size-1 mode followed by another vanishes, and a mode `s:d`
/// merges into the previous `sa:da` when it continues it
/// ([`StrideLeaf::continues`]).
///
/// Errors: `overflow` for a merged extent beyond 64 bits; `type` for mixed
/// algebras where the merge rule compares them.
#[inline(always)]
pub(crate) fn fold_into<E: Integer, D: Leaf<E>>(
    modes: impl IntoIterator<Item = (E, D)>,
    out: &mut impl ModeList<(E, D)>,
) -> Result<()> {
    out.clear_modes();
    for (s, d) in modes {
        fold_push(out, s, d)?;
    }
    Ok(())
}

/// One step of `fold`: the mode `s:d` appended to the folded list `out`
/// (a size-1 mode at its end vanishes first; `s:d` merges into the last
/// mode when it continues it).
#[inline(always)]
pub(crate) fn fold_push<E: Integer, D: Leaf<E>>(
    out: &mut impl ModeList<(E, D)>,
    s: E,
    d: D,
) -> Result<()> {
    while let Some((sa, _)) = out.last() {
        match D::unit_extent(sa) {
            Some(true) => {
                out.pop_mode();
            }
            Some(false) => break,
            None => return fold_push_after_maybe_unit(out, s, d),
        }
    }
    if let Some((sa, da)) = out.last_mut() {
        if D::continues_ext(da, sa, &d)? {
            *sa = sa.mul(&s)?;
            return Ok(());
        }
    }
    out.push_mode((s, d))
}

/// Coalesce's last step: a trailing size-1 mode after other modes goes.
#[inline(always)]
pub(crate) fn drop_trailing_unit<E: Integer, D>(out: &mut impl ModeList<(E, D)>) {
    if out.len() >= 2 && out.last().is_some_and(|(s, _)| s.as_i64() == Some(1)) {
        out.pop_mode();
    }
}

/// [`fold_push`] where the last mode's extent may or may not be 1 (the
/// facts decide neither): kept, `s:d` merges into it where it continues
/// it; dropped (as for the value 1), `s:d` would be compared with the mode
/// before it. Where the mode before would not take `s:d`, the two readings
/// agree up to a mode of extent 1 (at extent 1 a merged mode is `s:d`
/// itself, an unmerged one a size-1 mode the fold would have dropped), so
/// the kept reading is taken; where it would, the folded modes differ and
/// the question is an error.
#[cold]
fn fold_push_after_maybe_unit<E: Integer, D: Leaf<E>>(
    out: &mut impl ModeList<(E, D)>,
    s: E,
    d: D,
) -> Result<()> {
    let n = out.len();
    let (sa, da) = &out[n - 1];
    let kept = D::continues_ext(da, sa, &d)?;
    let dropped = match n.checked_sub(2).and_then(|i| out.get(i)) {
        Some((sb, db)) => D::continues_ext(db, sb, &d)?,
        None => false,
    };
    if !dropped {
        if kept {
            let (sa, _) = &mut out[n - 1];
            *sa = sa.mul(&s)?;
        } else {
            out.push_mode((s, d))?;
        }
        return Ok(());
    }
    let sa = sa.clone();
    Err(super::leaf::undecided(format_args!(
        "whether the extent {sa} is 1 (the modes fold differently when it is)"
    )))
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
    ModeOp::Coalesce.whole(a)
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
    ModeOp::CoalesceZ.whole(a)
}

/// The operation a by-mode call applies at the non-`None` leaves of its
/// profile: each is a function of a mode's leaf modes alone.
#[derive(Clone, Copy)]
pub(crate) enum ModeOp {
    Coalesce,
    CoalesceZ,
    Filter,
}

impl ModeOp {
    fn name(self) -> &'static str {
        match self {
            ModeOp::Coalesce => "coalesce",
            ModeOp::CoalesceZ => "coalesce_z",
            ModeOp::Filter => "filter",
        }
    }

    /// The folded modes of the operation on the leaf modes `modes`, into
    /// `out` (`1:0` is the empty list).
    #[inline(always)]
    pub(crate) fn apply<D: StrideLeaf>(
        self,
        modes: impl Iterator<Item = (i64, D)> + Clone,
        out: &mut impl ModeList<(i64, D)>,
    ) -> Result<()> {
        match self {
            ModeOp::CoalesceZ => return fold_into(modes, out),
            ModeOp::Coalesce => fold_into(modes, out)?,
            ModeOp::Filter => {
                // coalesce(filter_zeros(A)); nothing left is `1:0`
                let kept = modes.map(|(s, d)| (if d.is_zero() { 1 } else { s }, d));
                if kept.clone().all(|(s, _)| s == 1) {
                    out.clear_modes();
                    return Ok(());
                }
                fold_into(kept, out)?
            }
        }
        drop_trailing_unit(out);
        Ok(())
    }

    /// [`ModeOp::apply`] on the leaves `s`, `d` of a layout or mode, pushed
    /// flat into the parts of a layout being built; integer strides as `i64`.
    #[inline]
    fn push(
        self,
        s: &[i64],
        d: &[Scalar],
        nodes: &mut Nodes,
        sh: &mut Leaves<i64>,
        st: &mut Leaves<Scalar>,
    ) -> Result<()> {
        if d.iter().all(|x| matches!(x, Scalar::Int(_))) {
            let ints = d.iter().map(|x| x.as_int().unwrap_or(0));
            self.push_modes(s.iter().copied().zip(ints), nodes, sh, st)
        } else {
            self.push_modes(s.iter().copied().zip(d.iter().cloned()), nodes, sh, st)
        }
    }

    /// [`ModeOp::apply`] on the flat modes `modes`, pushed flat into the
    /// parts of a layout being built.
    #[inline]
    fn push_modes<D: StrideLeaf>(
        self,
        modes: impl Iterator<Item = (i64, D)> + Clone,
        nodes: &mut Nodes,
        sh: &mut Leaves<i64>,
        st: &mut Leaves<Scalar>,
    ) -> Result<()> {
        self.apply_then(modes, |f| push_flat(f, nodes, sh, st))
    }

    /// `k` on the folded modes of [`ModeOp::apply`] (kept in an
    /// [`InlineModes`] list when `modes` are few enough: the fold never
    /// makes more modes than it is given).
    #[inline(always)]
    pub(crate) fn apply_then<D: StrideLeaf, R>(
        self,
        modes: impl Iterator<Item = (i64, D)> + Clone,
        k: impl FnOnce(&[(i64, D)]) -> R,
    ) -> Result<R> {
        if modes.size_hint().1.is_some_and(|n| n <= INLINE_MODES) {
            let mut f = InlineModes::<D>::new();
            self.apply(modes, &mut f)?;
            Ok(k(&f))
        } else {
            let mut f = Folded::<D>::new();
            self.apply(modes, &mut f)?;
            Ok(k(&f))
        }
    }

    /// The operation on the flat modes `modes`, as a layout built in `out`.
    #[inline]
    pub(crate) fn flat_into<D: StrideLeaf>(
        self,
        modes: impl Iterator<Item = (i64, D)> + Clone,
        out: &mut Layout,
    ) -> Result<()> {
        self.apply_then(modes, |f| unwrapped_into(f, out))
    }

    /// The operation on the whole layout `a`.
    pub(crate) fn whole(self, a: &Layout) -> Result<Layout> {
        let mut out = Layout::blank();
        self.whole_into(a, &mut out)?;
        Ok(out)
    }

    /// The operation on the whole layout `a`, built in `out` (its storage
    /// reused: the notation evaluates into a slot it keeps; returning a
    /// layout by value costs copies of a few hundred bytes). On an error
    /// `out` holds an unspecified layout.
    pub(crate) fn whole_into(self, a: &Layout, out: &mut Layout) -> Result<()> {
        out.reset();
        let ((nodes, sh), st) = out.raw_mut();
        self.push(a.shape().leaves(), a.stride().leaves(), nodes, sh, st)?;
        Ok(())
    }

    /// The by-mode form (`docs/operations.md`): a `None` profile leaves A
    /// alone, any other leaf applies the operation, a tuple recurses into
    /// the modes of A (a leaf-shaped A is its own single mode; a `rank`
    /// error when the profile is longer than the rank of A) and
    /// concatenates the results. Built in place, in one pass.
    pub(crate) fn by_mode(self, a: &Layout, profile: &TilerRef<'_>) -> Result<Layout> {
        self.by_profile(a, Prof::Given(profile))
    }

    /// The by-mode form with the profile `(1, ..., 1)` of `n` items (`n` at
    /// most the rank of A): the first `n` modes of A transformed, the
    /// others kept.
    pub(crate) fn first_modes(self, a: &Layout, n: usize) -> Result<Layout> {
        self.by_profile(a, Prof::First(n))
    }

    /// [`ModeOp::by_mode`] built in `out` (as [`ModeOp::whole_into`]).
    pub(crate) fn by_mode_into(
        self,
        a: &Layout,
        profile: &TilerRef<'_>,
        out: &mut Layout,
    ) -> Result<()> {
        self.by_profile_into(a, Prof::Given(profile), out)
    }

    fn by_profile(self, a: &Layout, p: Prof<'_, '_>) -> Result<Layout> {
        let mut out = Layout::blank();
        self.by_profile_into(a, p, &mut out)?;
        Ok(out)
    }

    fn by_profile_into(self, a: &Layout, p: Prof<'_, '_>, out: &mut Layout) -> Result<()> {
        out.reset();
        let ((nodes, sh), st) = out.raw_mut();
        self.by_mode_at(View::of(a), p, nodes, sh, st, 0)?;
        Ok(())
    }

    fn by_mode_at(
        self,
        m: View<'_>,
        p: Prof<'_, '_>,
        nodes: &mut Nodes,
        sh: &mut Leaves<i64>,
        st: &mut Leaves<Scalar>,
        depth: usize,
    ) -> Result<()> {
        let name = self.name();
        if depth > MAX_DEPTH {
            return Err(Error::value(format!("{name}: profile nested too deeply")));
        }
        let len = match p {
            Prof::Given(TilerRef::None) => {
                m.push_into(nodes, sh, st);
                return Ok(());
            }
            Prof::Given(TilerRef::Int(_) | TilerRef::Layout(_) | TilerRef::Borrowed(_)) => {
                return self.push(m.s.leaves(), m.d.leaves(), nodes, sh, st);
            }
            Prof::Given(TilerRef::Tuple(ps)) => ps.len(),
            Prof::First(n) => n,
        };
        let rank = m.s.rank();
        if rank < len {
            let profile = match p {
                Prof::Given(t) => t.to_string(),
                Prof::First(n) => format!("{n} modes"),
            };
            return Err(Error::rank(format!(
                "{name}({m}, {profile}): profile of length {len} is longer than the rank {rank} of the layout",
            )));
        }
        if rank == 0 {
            return Err(Error::value("make_layout: empty concatenation"));
        }
        push_rank(nodes, rank);
        for (i, mi) in m.modes().enumerate() {
            self.by_mode_at(mi, p.item(i), nodes, sh, st, depth + 1)?;
        }
        Ok(())
    }
}

/// The profile of a by-mode call: a tiler, or `(1, ..., 1)` of a length.
#[derive(Clone, Copy)]
enum Prof<'p, 't> {
    Given(&'p TilerRef<'t>),
    First(usize),
}

impl<'p, 't> Prof<'p, 't> {
    /// The profile of mode `i` (`None` past the end of a tuple).
    fn item(self, i: usize) -> Prof<'p, 't> {
        const NONE: &TilerRef<'static> = &TilerRef::None;
        const ONE: &TilerRef<'static> = &TilerRef::Int(1);
        match self {
            Prof::Given(TilerRef::Tuple(ps)) => Prof::Given(ps.get(i).unwrap_or(NONE)),
            Prof::First(n) if i < n => Prof::Given(ONE),
            _ => Prof::Given(NONE),
        }
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
/// let p = Tiler::Tuple(vec![Tiler::Int(1), Tiler::Int(1)].into());
/// assert_eq!(coalesce_by_mode(&a, &p).unwrap().to_string(), "(2, 6):(1, 2)");
/// ```
pub fn coalesce_by_mode(a: &Layout, profile: &TilerRef<'_>) -> Result<Layout> {
    ModeOp::Coalesce.by_mode(a, profile)
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
/// let p = Tiler::Tuple(vec![Tiler::None, Tiler::Int(1)].into());
/// assert_eq!(coalesce_z_by_mode(&a, &p).unwrap().to_string(), "(3, (12, 1)):(1, (3, 5))");
/// ```
pub fn coalesce_z_by_mode(a: &Layout, profile: &TilerRef<'_>) -> Result<Layout> {
    ModeOp::CoalesceZ.by_mode(a, profile)
}

#[cfg(test)]
mod tests {
    use super::super::leaf::flat_layout;
    use super::*;
    use crate::testing::Rng;

    /// A bounded list that is full refuses a mode with an error (no
    /// panic), where the growable list takes it; both fold alike below
    /// the bound.
    #[test]
    fn bounded_list_full_is_an_error() {
        // modes that never merge: strides 0, 2, 0, 2, ...
        let modes = (0..INLINE_MODES as i64 + 1).map(|k| (3, 2 * (k % 2)));
        let mut inline = InlineModes::<i64>::new();
        let err = fold_into(modes.clone(), &mut inline).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Value);
        assert!(err.message().contains("bounded list"), "{}", err.message());
        let mut heap = Folded::<i64>::new();
        fold_into(modes.clone(), &mut heap).unwrap();
        assert_eq!(heap.len(), INLINE_MODES + 1);
        let mut inline = InlineModes::<i64>::new();
        fold_into(modes.clone().take(INLINE_MODES), &mut inline).unwrap();
        assert_eq!(&inline[..], &heap[..INLINE_MODES]);
    }

    /// The `i64` and the `Scalar` instantiations of coalesce give the same
    /// layout or the same error kind on integer-strided layouts (their
    /// merge rules are written separately).
    #[test]
    fn integer_and_scalar_instantiations_agree() {
        let mut r = Rng(9);
        for _ in 0..100_000 {
            let n = 1 + r.next(6) as usize;
            let modes: Vec<(i64, i64)> = (0..n)
                .map(|_| {
                    let s = 1 + r.next(4) as i64;
                    let d = match r.next(5) {
                        0 => 0,
                        1 => i64::MAX / 2,
                        _ => r.next(17) as i64 - 4,
                    };
                    (s, d)
                })
                .collect();
            for z in [false, true] {
                let op = if z {
                    ModeOp::CoalesceZ
                } else {
                    ModeOp::Coalesce
                };
                let (mut fi, mut fg) = (Folded::<i64>::new(), Folded::<Scalar>::new());
                let i = op
                    .apply(modes.iter().copied(), &mut fi)
                    .map(|()| flat_layout(&fi));
                let g = op
                    .apply(modes.iter().map(|&(s, d)| (s, Scalar::Int(d))), &mut fg)
                    .map(|()| flat_layout(&fg));
                match (&i, &g) {
                    (Ok(x), Ok(y)) => assert_eq!(x, y, "{modes:?} z={z}"),
                    (Err(x), Err(y)) => assert_eq!(x.kind(), y.kind(), "{modes:?} z={z}"),
                    _ => panic!("{modes:?} z={z}: {i:?} vs {g:?}"),
                }
            }
        }
    }
}
