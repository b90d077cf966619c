//! composition (`docs/operations.md`; F2 strides: `docs/language.md`, "Swizzles").
//!
//! The core follows PyCuTe's algorithm exactly (so canonical forms match):
//! A is coalesce_z'd by B's coprofile, B is distributed over its modes, and
//! each leaf `s:d` of B is composed by the two-step base case (shape then
//! stride divisibility), term by term for coordinate strides. rcute then
//! checks the defining rule `R(c) == A(B(c))` wherever `B(c)` lies in A's
//! domain (`docs/differences.md` 1.1) without enumerating B's domain: per codomain
//! axis, the largest values B's modes put on each mixed-radix digit of A
//! must not sum past that digit's extent.

use crate::tiler::TilerRef;
use std::borrow::Cow;

use smallvec::SmallVec;

use super::base_case::{base_case_into, digit_box, digits_pass, DigitBox};
use super::coalesce::{
    coalesce, coalesce_z, coalesce_z_by_mode, drop_trailing_unit, fold_into, fold_push, Folded,
    InlineModes, ModeList, INLINE_MODES,
};
use super::leaf::{int_strides_into, push_flat, unwrapped_into, Ints, StrideLeaf};
use crate::error::{Error, Result};
use crate::htuple::{HRef, HTuple, Leaves, Nodes, LEAF, MAX_DEPTH, WIDE};
use crate::layout::View;
use crate::stride::Path;
use crate::{int, Layout, Scalar, Tiler};

/// The largest number of points of B's domain that composition evaluates
/// when the rule `R(c) == A(B(c))` cannot be decided from digits alone
/// (A with F2 strides, B with negative strides): `2^16`, which keeps every
/// call well under a second (`docs/limits.md`; 2^20 took over 10 s under
/// the fuzzer). Beyond it such a composition is refused with a `value`
/// error.
///
/// ```
/// use rcute::algebra::composition::{composition, EVAL_LIMIT};
/// use rcute::{HTuple, Layout, Scalar, Tiler};
/// assert_eq!(EVAL_LIMIT, 1 << 16);
/// let a = Layout::new(HTuple::leaf(1i64 << 22), HTuple::leaf(Scalar::F2(1))).unwrap();
/// assert!(composition(&a, &Tiler::Int(1 << 17)).is_err()); // 2^17 points to check
/// assert!(composition(&a, &Tiler::Int(1 << 10)).is_ok());
/// ```
pub const EVAL_LIMIT: i64 = 1 << 16;

/// `composition(A, B)` ("A after B"; `docs/operations.md`, C++ CuTe
/// `composition`), with the tiler dispatch of `docs/language.md`, "Tilers":
/// `Tiler::None` returns A, an integer `n` composes with `n:1`, a tuple
/// tiler composes mode by mode (modes of A beyond the tuple are kept) and
/// concatenates, a layout runs the layout core.
///
/// The result R satisfies `compatible(shape(B), shape(R))` and
/// `R(c) == A(B(c))` for every coordinate `c` of B with `B(c)` in A's
/// domain (an integer in `[0, size(A))`, or a coordinate inside A's shape).
/// A may have integer, coordinate or F2 strides; B integer or coordinate
/// strides.
///
/// An empty B, `():()`, gives the empty layout `():()` (its single point
/// maps to 0), and an empty mode of B stays an empty mode.
///
/// Errors:
/// * `rank`: a tuple tiler longer than the rank of A; a coordinate B whose
///   coprofile has more modes than A.
/// * `divisibility`: the shape or stride divisibility condition of the
///   base case fails, or no layout reproduces A∘B (the reference's result
///   would break the rule inside A's domain, `docs/differences.md` 1.1).
/// * `value`: an extent is not positive; A has F2 strides
///   (or B negative strides) and B has more than [`EVAL_LIMIT`] points, so
///   the rule cannot be verified; `layout_add` finds no common refinement.
/// * `type`: B has F2 strides; strides of mixed algebras.
/// * `overflow`: a value outside 64 bits.
///
/// ```
/// use rcute::{algebra::composition, HTuple, Layout, Scalar, Tiler};
/// let a = Layout::new(HTuple::flat([6i64, 2]), HTuple::flat([8, 2].map(Scalar::Int))).unwrap();
/// let b = Layout::new(HTuple::flat([4i64, 3]), HTuple::flat([3, 1].map(Scalar::Int))).unwrap();
/// assert_eq!(composition(&a, &Tiler::Layout(b)).unwrap().to_string(), "((2, 2), 3):((24, 2), 8)");
/// // A is not additive across B's modes here: an error, not a wrong layout
/// let a = Layout::new(HTuple::flat([6i64, 2]), HTuple::flat([1, 7].map(Scalar::Int))).unwrap();
/// let b = Layout::new(HTuple::flat([3i64, 2]), HTuple::flat([2, 3].map(Scalar::Int))).unwrap();
/// assert!(composition(&a, &Tiler::Layout(b)).is_err());
/// ```
#[inline]
pub fn composition(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    composition_into(a, b, &mut out)?;
    Ok(out)
}

/// [`composition`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
#[inline]
pub(crate) fn composition_into(a: &Layout, b: &TilerRef<'_>, out: &mut Layout) -> Result<()> {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    match b {
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => {
            layout_core_append(AOperand::View(View::of(a)), l, true, nodes, sh, st)?
        }
        _ => dispatch_append(View::of(a), b, true, 0, nodes, sh, st)?,
    }
    // Negative strides in B make the reference's base case produce negative
    // extents (`composition((2,3):(1,10), 2:-1)` would be `(-2,-1):(-1,10)`);
    // shapes are positive, so that is an error as in recast (docs/differences.md 1.3).
    positive(a, b, out.shape().leaves())
}

/// The `value` error of a result with the extents `sh` of which one is
/// not positive.
#[inline]
pub(crate) fn positive(
    a: &dyn std::fmt::Display,
    b: &dyn std::fmt::Display,
    sh: &[i64],
) -> Result<()> {
    if let Some(&e) = sh.iter().find(|&&e| e <= 0) {
        return Err(Error::value(format!(
            "composition({a}, {b}): the result would have the non-positive extent {e}; shapes must be positive"
        )));
    }
    Ok(())
}

/// PyCuTe's composition algorithm **without** rcute's check that the result
/// reproduces A∘B (`docs/operations.md`): the reference's answer, right or
/// wrong. Exposed for testing [`composition`] against it; use
/// [`composition`] otherwise.
///
/// Shapes, dispatch and errors as [`composition`], minus the "no layout
/// reproduces A∘B" error and the evaluation limit.
///
/// ```
/// use rcute::algebra::composition::composition_unchecked;
/// use rcute::{HTuple, Layout, Scalar, Tiler};
/// let a = Layout::new(HTuple::flat([6i64, 2]), HTuple::flat([1, 7].map(Scalar::Int))).unwrap();
/// let b = Layout::new(HTuple::flat([3i64, 2]), HTuple::flat([2, 3].map(Scalar::Int))).unwrap();
/// // the reference's (wrong) answer: R(5) = 7 while A(B(5)) = A(7) = 8
/// assert_eq!(composition_unchecked(&a, &Tiler::Layout(b)).unwrap().to_string(), "(3, 2):(2, 3)");
/// ```
pub fn composition_unchecked(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    let ((nodes, sh), st) = out.raw_mut();
    dispatch_append(View::of(a), b, false, 0, nodes, sh, st)?;
    Ok(out)
}

/// The tiler dispatch of [`composition`] on A (a layout or a mode of one),
/// appended to a layout under construction: `None` keeps A, an integer
/// `n` composes with `n:1`, a layout runs the layout core, a tuple goes
/// mode by mode ([`by_mode_append`]).
#[allow(clippy::too_many_arguments)]
fn dispatch_append(
    a: View<'_>,
    b: &TilerRef<'_>,
    checked: bool,
    depth: usize,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("composition: tiler nested too deeply"));
    }
    match b {
        TilerRef::None => {
            a.push_into(nodes, sh, st);
            Ok(())
        }
        TilerRef::Int(n) => {
            if *n <= 0 {
                return Err(Error::value(format!(
                    "composition({}, {n}): tiler extent {n} must be positive",
                    a.layout()
                )));
            }
            let b = Layout::leaf(*n, Scalar::Int(1));
            layout_core_append(AOperand::View(a), &b, checked, nodes, sh, st)
        }
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => {
            layout_core_append(AOperand::View(a), l, checked, nodes, sh, st)
        }
        TilerRef::Tuple(v) => {
            if a.s.rank() < v.len() {
                return Err(Error::rank(format!(
                    "composition({}, {b}): tiler of length {} is longer than the rank {} of A",
                    a.layout(),
                    v.len(),
                    a.s.rank()
                )));
            }
            by_mode_append(a, v, nodes, sh, st, &mut |m, t, nodes, sh, st| {
                dispatch_append(m, t, checked, depth + 1, nodes, sh, st)
            })
        }
    }
}

/// The profile's nodes and the shape and stride leaves of a layout under
/// construction.
pub(crate) type Parts<'x> = (&'x mut Nodes, &'x mut Leaves<i64>, &'x mut Leaves<Scalar>);

/// What a by-mode call appends for one mode of A and its tiler item.
pub(crate) type ModeOp<'f> = dyn FnMut(View<'_>, &TilerRef<'_>, &mut Nodes, &mut Leaves<i64>, &mut Leaves<Scalar>) -> Result<()>
    + 'f;

/// The by-mode rule of the tiler dispatch (`docs/language.md`, "Tilers")
/// appended to a layout under construction: the tuple of the modes of A
/// (a leaf-shaped A is its own single mode), mode `i` replaced by what
/// `op` appends for the tiler item `ts[i]`, modes past the tuple's end
/// kept. The caller checks that `ts` is not longer than A's rank.
///
/// Errors: those of `op`; `value` for an A without modes (an empty
/// concatenation).
pub(crate) fn by_mode_append(
    a: View<'_>,
    ts: &[TilerRef<'_>],
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
    op: &mut ModeOp<'_>,
) -> Result<()> {
    let rank = a.s.rank();
    if rank == 0 {
        return Err(Error::value("make_layout: empty concatenation"));
    }
    crate::htuple::push_rank(nodes, rank);
    for (i, m) in a.modes().enumerate() {
        match ts.get(i) {
            Some(t) => op(m, t, nodes, sh, st)?,
            None => m.push_into(nodes, sh, st),
        }
    }
    Ok(())
}

fn has_f2(s: &Scalar) -> bool {
    match s {
        Scalar::F2(_) => true,
        Scalar::Int(_) => false,
        Scalar::Coord(c) => c.children().iter().any(has_f2),
    }
}

/// What the check knows about one leaf mode of B.
struct LeafRec {
    t: i64,
    stride: Scalar,
    /// the path of this leaf in B (= the path of its result in R)
    path: Path,
    /// `(axis index, integer stride term)` per basis term.
    terms: SmallVec<[(usize, i64); 2]>,
}

/// One codomain axis of A as the core used it: its basis path and the
/// coalesce_z'd modes of A on it.
struct Axis {
    path: Path,
    modes: SmallVec<[(i64, Scalar); 8]>,
}

/// The records of one layout-by-layout composition, as the check reads
/// them (built from a [`Walk`] only when the digit sums alone do not
/// accept the result).
struct Ctx {
    leaves: SmallVec<[LeafRec; 4]>,
    axes: SmallVec<[Axis; 2]>,
}

/// The layout-by-layout core plus the check (`checked`), appended to a
/// layout under construction. The core is one function ([`walk`]) over
/// the stride leaves of A and of B: instantiated for `i64` when every
/// stride of A is an integer and B's strides are integers or basis values
/// `v@i` (each on one mode of A), for [`Scalar`] otherwise (A then
/// coalesce_z'd by B's coprofile first, as `docs/operations.md` states
/// it).
pub(crate) fn layout_core_append(
    a: AOperand<'_>,
    b: &Layout,
    checked: bool,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    // (B's integer strides first: where they are all integers, B has no
    // F2 stride to refuse)
    let mut b_st = Ints::new();
    let int_b = int_strides_into(b, &mut b_st).is_some();
    if !int_b {
        if let Some(d) = b.stride().leaves().iter().find(|d| has_f2(d)) {
            return Err(Error::type_(format!(
                "composition({a}, {b}): B has the F2 stride {d}; composition needs integer or coordinate strides in B"
            )));
        }
    }
    let bref = b.shape().as_ref();
    if !b.is_leaf() && b.rank() == 0 {
        // B = ():() has one point (the empty coordinate), mapped to 0: the
        // result is the empty layout, whatever A is
        View::of(b).push_into(nodes, sh, st);
        return Ok(());
    }
    if !bref.depth_within(MAX_DEPTH) {
        return Err(Error::value("composition: B nested too deeply"));
    }
    let (bn, bs, bd) = (bref.node_bytes(), bref.leaves(), b.stride().leaves());
    let parts = (nodes, sh, st);
    match a {
        AOperand::Modes(m) if int_b => {
            let src = Flat(m);
            return run::<i64, i64, _>(&src, bn, bs, &b_st, true, checked, || b.clone(), parts);
        }
        AOperand::View(v) if v.d.leaves().iter().all(|d| matches!(d, Scalar::Int(_))) => {
            if int_b {
                return run::<i64, i64, _>(&v, bn, bs, &b_st, true, checked, || b.clone(), parts);
            }
            if basis_on_modes(v, bd) {
                return run::<i64, Scalar, _>(&v, bn, bs, bd, false, checked, || b.clone(), parts);
            }
        }
        _ => {}
    }
    let a_l = a.layout();
    let a_c = coalesced_for(&a_l, bref, b.stride())?;
    let src = Coalesced { a_c: &a_c, a: &a_l };
    run::<Scalar, Scalar, _>(&src, bn, bs, bd, false, checked, || b.clone(), parts)
}

/// A as the layout core takes it: a layout or a mode of one, by view; or
/// the flat integer modes `(extent, stride)` of a layout built as a list
/// (one mode: a leaf), as the product's complement is.
#[derive(Clone, Copy)]
pub(crate) enum AOperand<'x> {
    View(View<'x>),
    Modes(&'x [(i64, i64)]),
}

impl AOperand<'_> {
    /// A as a layout.
    fn layout(&self) -> Layout {
        match self {
            AOperand::View(v) => v.layout(),
            AOperand::Modes(m) => Flat(m).layout(),
        }
    }
}

impl std::fmt::Display for AOperand<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.layout())
    }
}

/// A flat integer layout by its modes (one mode: a leaf), on the axis
/// `()` only.
struct Flat<'x>(&'x [(i64, i64)]);

impl Flat<'_> {
    fn layout(&self) -> Layout {
        let mut l = Layout::blank();
        unwrapped_into(self.0, &mut l);
        l
    }
}

impl ASource<i64> for Flat<'_> {
    #[inline]
    fn fold_axis(&self, path: &[usize], out: &mut impl ModeList<(i64, i64)>) -> Result<()> {
        if let Some(i) = path.first() {
            return Err(Error::type_(format!("get: index {i} into a flat list")));
        }
        fold_into(self.0.iter().copied(), out)
    }
    #[inline]
    fn leaf_count(&self) -> usize {
        self.0.len()
    }
    fn eval(&self, e: &Scalar) -> Result<Scalar> {
        self.layout().eval(HTuple::leaf(Some(e.clone())).as_ref())
    }
    fn orig(&self) -> Cow<'_, Layout> {
        Cow::Owned(self.layout())
    }
}

/// True when the strides of B can take the `i64` instantiation with the
/// integer strides of A: zeros and basis values `v@i` (a coordinate value
/// with integer children, at most one non-zero, below `2^40` in
/// magnitude so that no sum of them leaves 64 bits), `i` below the rank of
/// a tuple-shaped A, and no merged extent of A beyond 64 bits (so that
/// coalesce_z'ing A's modes by B's coprofile cannot fail).
fn basis_on_modes(a: View<'_>, bd: &[Scalar]) -> bool {
    const CHILD_LIMIT: u64 = 1 << 40;
    if a.s.is_leaf() || bd.len() > crate::htuple::MAX_LEAVES {
        return false;
    }
    let mut n = 0;
    for d in bd {
        match d {
            Scalar::Int(0) => {}
            Scalar::Coord(c) => {
                let mut nonzero = 0;
                for x in c.children() {
                    match x {
                        Scalar::Int(v) if v.unsigned_abs() < CHILD_LIMIT => {
                            nonzero += (*v != 0) as u32
                        }
                        _ => return false,
                    }
                }
                if nonzero > 1 || c.children().is_empty() {
                    return false;
                }
                n = n.max(c.children().len());
            }
            _ => return false,
        }
    }
    if n == 0 || a.s.rank() < n {
        return false;
    }
    // no merged extent is larger than the product of all extents (zeros
    // counted as 1)
    a.s.leaves()
        .iter()
        .try_fold(1u64, |p, &e| p.checked_mul(e.unsigned_abs().max(1)))
        .is_some_and(|t| t <= i64::MAX as u64)
}

/// A coalesce_z'd by the coprofile of B (`docs/operations.md`): all of A
/// for an integer codomain, A's modes on the coprofile's axes otherwise.
fn coalesced_for<'x>(
    a: &'x Layout,
    bs: HRef<'_, i64>,
    bd: HRef<'_, Scalar>,
) -> Result<Cow<'x, Layout>> {
    Ok(Cow::Owned(match flat_coprofile(bd) {
        Some(None) => coalesce_z(a)?,
        // coalesce_z_by_mode(A, (0, ..., 0)) with n zeros: the first n
        // modes coalesce_z'd, the others kept
        Some(Some(n)) if a.rank() >= n => super::coalesce::ModeOp::CoalesceZ.first_modes(a, n)?,
        _ => match coprofile_tiler(bs, bd)? {
            None => coalesce_z(a)?,
            Some(p) => coalesce_z_by_mode(a, &p)?,
        },
    }))
}

/// Runs the core on A (`a`) and B (`b`: node bytes `bn`, leaves `bs`,
/// `bd`), appending the result to a layout under construction, then
/// (`checked`) the check.
#[allow(clippy::too_many_arguments)]
#[inline]
fn run<D: StrideLeaf, L: BLeaf, S: ASource<D>>(
    a: &S,
    bn: &[u8],
    bs: &[i64],
    bd: &[L],
    whole: bool,
    checked: bool,
    b: impl FnOnce() -> Layout,
    (nodes, sh, st): Parts<'_>,
) -> Result<()> {
    // (an axis fold and a base case have at most as many modes as A has
    // leaves, and at least one: a bounded list holds them when A has at
    // most INLINE_MODES leaves)
    match a.leaf_count() <= INLINE_MODES {
        true => {
            run_with::<D, L, S, InlineModes<D>>(a, bn, bs, bd, whole, checked, b, (nodes, sh, st))
        }
        false => run_with::<D, L, S, Folded<D>>(a, bn, bs, bd, whole, checked, b, (nodes, sh, st)),
    }
}

/// [`run`] with the mode lists `M`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn run_with<D: StrideLeaf, L: BLeaf, S: ASource<D>, M: ModeList<(i64, D)>>(
    a: &S,
    bn: &[u8],
    bs: &[i64],
    bd: &[L],
    whole: bool,
    checked: bool,
    b: impl FnOnce() -> Layout,
    (nodes, sh, st): Parts<'_>,
) -> Result<()> {
    let (n0, l0) = (nodes.len(), sh.len());
    let mut w = Walk::<D, M>::new();
    walk(a, bn, bs, bd, whole, &mut w, nodes, sh, st)?;
    if checked && !w.digits_accept() {
        let r = raw_layout(&nodes[n0..], &sh[l0..], &st[l0..]);
        w.check(a, &b(), &r, bs, bd)?;
    }
    Ok(())
}

/// The checked layout core of A (an integer-strided layout or mode of
/// one) and the B of node bytes `bn` (nested at most [`MAX_DEPTH`]
/// levels, with modes), extents `bs` and integer strides `b_st` (`b`
/// gives it as a layout, for the check's messages), appended to a layout
/// under construction: [`layout_core_append`] for a B built as lists.
#[allow(clippy::too_many_arguments)]
pub(crate) fn int_core_append(
    a: View<'_>,
    bn: &[u8],
    bs: &[i64],
    b_st: &[i64],
    b: impl FnOnce() -> Layout,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    run::<i64, i64, _>(&a, bn, bs, b_st, true, true, b, (nodes, sh, st))
}

/// The layout of the node bytes `nodes` (shape and stride alike) and the
/// leaves `sh`, `st`.
pub(crate) fn raw_layout(nodes: &[u8], sh: &[i64], st: &[Scalar]) -> Layout {
    let mut l = Layout::blank();
    let ((n, s), d) = l.raw_mut();
    n.extend(nodes.iter().copied());
    s.extend(sh.iter().copied());
    d.extend(st.iter().cloned());
    l
}

/// A as the core reads it: the coalesce_z'd modes of A on a codomain axis
/// (the fold of A's leaves there), A at a coordinate value, and A itself
/// for messages and the check.
pub(crate) trait ASource<D: StrideLeaf> {
    /// The fold of A's leaves on the axis `path` (all of A for `()`) into
    /// `out`.
    fn fold_axis(&self, path: &[usize], out: &mut impl ModeList<(i64, D)>) -> Result<()>;
    /// The number of A's leaves (a bound on the modes of any axis fold).
    fn leaf_count(&self) -> usize;
    /// `A(e)` for a coordinate value `e`.
    fn eval(&self, e: &Scalar) -> Result<Scalar>;
    /// A as given to the composition.
    fn orig(&self) -> Cow<'_, Layout>;
}

impl<D: StrideLeaf> ASource<D> for View<'_> {
    #[inline]
    fn fold_axis(&self, path: &[usize], out: &mut impl ModeList<(i64, D)>) -> Result<()> {
        let (s, d) = match path {
            [] => (self.s, self.d),
            _ => (self.s.get(path)?, self.d.get(path)?),
        };
        fold_into(
            s.leaves()
                .iter()
                .copied()
                .zip(d.leaves().iter().map(D::of_scalar)),
            out,
        )
    }
    #[inline]
    fn leaf_count(&self) -> usize {
        self.s.leaves().len()
    }
    fn eval(&self, e: &Scalar) -> Result<Scalar> {
        self.layout().eval(HTuple::leaf(Some(e.clone())).as_ref())
    }
    fn orig(&self) -> Cow<'_, Layout> {
        Cow::Owned(self.layout())
    }
}

/// A coalesce_z'd by B's coprofile (`a_c`, [`coalesced_for`]) and A as
/// given (`a`).
struct Coalesced<'x> {
    a_c: &'x Layout,
    a: &'x Layout,
}

impl ASource<Scalar> for Coalesced<'_> {
    fn fold_axis(&self, path: &[usize], out: &mut impl ModeList<(i64, Scalar)>) -> Result<()> {
        View::of(self.a_c).fold_axis(path, out)
    }
    #[inline]
    fn leaf_count(&self) -> usize {
        self.a_c.shape().leaves().len()
    }
    fn eval(&self, e: &Scalar) -> Result<Scalar> {
        match e {
            Scalar::Int(i) => self.a_c.eval_index(*i),
            _ => self.a_c.eval(HTuple::leaf(Some(e.clone())).as_ref()),
        }
    }
    fn orig(&self) -> Cow<'_, Layout> {
        Cow::Borrowed(self.a)
    }
}

/// The coprofile of the sub-layout `(bs, bd)` of B (`docs/operations.md`)
/// as a by-mode profile: `None` for a scalar codomain, else its tuple
/// structure.
fn coprofile_tiler(bs: HRef<'_, i64>, bd: HRef<'_, Scalar>) -> Result<Option<Tiler>> {
    if bd.leaves().iter().all(|d| matches!(d, Scalar::Int(_))) {
        return Ok(None); // an integer codomain: a scalar profile
    }
    let sub = Layout::from_parts(bs.to_owned(), bd.to_owned());
    let p = super::coprofile(&sub)?;
    if p.is_leaf() {
        return Ok(None);
    }
    Ok(Some(TilerRef::from_shape(p.as_ref())))
}

/// The coprofile of the strides `bd` when it is cheap to tell without
/// building it: `Some(None)` for integer strides (a scalar profile, as
/// [`coprofile_tiler`]), `Some(Some(n))` when the sum of the strides is a
/// coordinate value with `n > 0` integer children (zero integers and
/// coordinate values with integer children, no overflow: the flat profile
/// of `n` zeros); `None` otherwise (ask [`coprofile_tiler`]).
fn flat_coprofile(bd: HRef<'_, Scalar>) -> Option<Option<usize>> {
    let leaves = bd.leaves();
    if leaves.iter().all(|d| matches!(d, Scalar::Int(_))) {
        return Some(None);
    }
    let mut sums: SmallVec<[i64; 4]> = SmallVec::new();
    for d in leaves {
        match d {
            Scalar::Int(0) => {}
            Scalar::Coord(c) => {
                for (i, x) in c.children().iter().enumerate() {
                    let Scalar::Int(v) = x else {
                        return None;
                    };
                    if i == sums.len() {
                        sums.push(0);
                    }
                    sums[i] = sums[i].checked_add(*v)?;
                }
            }
            _ => return None,
        }
    }
    if sums.is_empty() {
        return None;
    }
    Some(Some(sums.len()))
}

/// A stride leaf of B as the core reads it: `i64` (integer strides) or
/// [`Scalar`].
pub(crate) trait BLeaf: std::fmt::Display {
    /// What the leaf composes with.
    fn term(&self) -> Result<Term>;
    /// The leaf as a [`Scalar`].
    fn to_scalar(&self) -> Scalar;
}

/// The stride of a leaf of B as the core composes it: zero; one term `v`
/// on all of A (`None`) or on its mode `i` (`Some(i)`); anything else (a
/// sum of basis terms, a term on a nested axis), composed term by term.
pub(crate) enum Term {
    Zero,
    One(Option<usize>, i64),
    Many,
}

impl BLeaf for i64 {
    #[inline(always)]
    fn term(&self) -> Result<Term> {
        Ok(if *self == 0 {
            Term::Zero
        } else {
            Term::One(None, *self)
        })
    }
    fn to_scalar(&self) -> Scalar {
        Scalar::Int(*self)
    }
}

impl BLeaf for Scalar {
    #[inline]
    fn term(&self) -> Result<Term> {
        match self {
            Scalar::Int(0) => Ok(Term::Zero),
            Scalar::Int(v) => Ok(Term::One(None, *v)),
            Scalar::Coord(c) => {
                // a basis value `v@i` (integer children, one non-zero)
                let mut one = None;
                for (i, x) in c.children().iter().enumerate() {
                    match x {
                        Scalar::Int(0) => {}
                        Scalar::Int(v) if one.is_none() => one = Some((i, *v)),
                        _ => {
                            return Ok(if self.is_zero() {
                                Term::Zero
                            } else {
                                Term::Many
                            })
                        }
                    }
                }
                Ok(match one {
                    None => Term::Zero,
                    Some((i, v)) => Term::One(Some(i), v),
                })
            }
            Scalar::F2(_) => Ok(if self.is_zero() {
                Term::Zero
            } else {
                Term::Many
            }),
        }
    }
    fn to_scalar(&self) -> Scalar {
        self.clone()
    }
}

/// One codomain axis of A in the core: its path and A's coalesce_z'd
/// modes on it.
struct AxisModes<M> {
    path: Path,
    modes: M,
}

/// True for equal axis paths (compared element by element: a slice
/// comparison calls `memcmp`, slower on these few items).
#[inline(always)]
fn same_path(p: &[usize], q: &[usize]) -> bool {
    p.len() == q.len() && p.iter().zip(q).all(|(x, y)| x == y)
}

/// The axes the core has read and its records.
struct Walk<D, M> {
    /// the axes read, in the order of first use: the first in place (the
    /// common case has one; a value moved into a list is copied whole)
    first: AxisModes<M>,
    n_axes: usize,
    more: Vec<AxisModes<M>>,
    /// `(leaf of B, axis, t, v)` per term of a leaf `t:e` of B composed by
    /// the base case (`t != 1`, `e != 0`)
    terms: SmallVec<[(u32, u32, i64, i64); 8]>,
    _d: std::marker::PhantomData<D>,
}

impl<D: StrideLeaf, M: ModeList<(i64, D)>> Walk<D, M> {
    #[inline(always)]
    fn new() -> Self {
        Walk {
            first: AxisModes {
                path: Path::new(),
                modes: M::default(),
            },
            n_axes: 0,
            more: Vec::new(),
            terms: SmallVec::new(),
            _d: std::marker::PhantomData,
        }
    }

    /// The axes read, in order.
    #[inline]
    fn axes(&self) -> impl Iterator<Item = &AxisModes<M>> {
        std::iter::once(&self.first)
            .take(self.n_axes)
            .chain(self.more.iter())
    }

    /// The modes of A on the axis `i`.
    #[inline(always)]
    fn modes(&self, i: usize) -> &[(i64, D)] {
        match i {
            0 => &self.first.modes,
            _ => &self.more[i - 1].modes,
        }
    }

    /// The index of the axis `path` of A, read on first use.
    #[inline(always)]
    fn axis<S: ASource<D>>(&mut self, a: &S, path: &[usize]) -> Result<usize> {
        // the axis read before, the common case, without a call
        if self.n_axes > 0 && same_path(&self.first.path, path) {
            return Ok(0);
        }
        self.new_axis(a, path)
    }

    /// [`Walk::axis`] of an axis other than the first read.
    #[inline(never)]
    fn new_axis<S: ASource<D>>(&mut self, a: &S, path: &[usize]) -> Result<usize> {
        if let Some(i) = self.more.iter().position(|x| same_path(&x.path, path)) {
            return Ok(i + 1);
        }
        let ax = if self.n_axes == 0 {
            self.first.path.extend_from_slice(path);
            &mut self.first
        } else {
            self.more.push(AxisModes {
                path: Path::from_slice(path),
                modes: M::default(),
            });
            let last = self.more.len() - 1;
            &mut self.more[last]
        };
        self.n_axes += 1;
        a.fold_axis(path, &mut ax.modes)?;
        if ax.modes.is_empty() {
            ax.modes.push_mode((1, D::zero()))?;
        }
        Ok(self.n_axes - 1)
    }

    /// The base case of the term `v` of the leaf `t:e` (the `j`-th of B)
    /// on the axis `ax` into the list `f` (folded as it comes where `fold`,
    /// otherwise as it is), recorded for the check.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn base_case<S: ASource<D>, L: BLeaf>(
        &mut self,
        a: &S,
        ax: usize,
        j: usize,
        t: i64,
        v: i64,
        e: &L,
        fold: bool,
        f: &mut M,
    ) -> Result<()> {
        let modes = self.modes(ax);
        f.clear_modes();
        // (the extents' scratch list is a local of this base case, not a
        // field of the walk: a list read and written through the walk's
        // reference costs a store and a load per step)
        let mut rs = Ints::new();
        let r = match fold {
            true => base_case_into(modes, &t, &v, &mut rs, |s, d| fold_push(f, s, d)),
            false => base_case_into(modes, &t, &v, &mut rs, |s, d| f.push_mode((s, d))),
        };
        r.map_err(|err| base_case_error(err, a, t, e))?;
        self.terms.push((j as u32, ax as u32, t, v));
        Ok(())
    }

    /// The first part of the check (`verify`): no axis has F2 strides and
    /// on each, the largest values B's leaves put on each digit of A do
    /// not sum to its extent, so A is additive across B's modes. `false`
    /// means "the whole check decides".
    #[inline]
    fn digits_accept(&self) -> bool {
        for (i, ax) in self.axes().enumerate() {
            if ax.modes.iter().any(|m| m.1.has_f2()) {
                return false;
            }
            let recs = self
                .terms
                .iter()
                .filter(|r| r.1 as usize == i && r.2 > 1)
                .map(|r| (r.2, r.3));
            if !digits_pass(&ax.modes, recs) {
                return false;
            }
        }
        true
    }

    /// The whole check of `docs/differences.md` 1.1 ([`verify`]) on the
    /// records of this walk, `r` the result and `b` (leaves `bs`, `bd`)
    /// the B composed.
    #[cold]
    fn check<S: ASource<D>, L: BLeaf>(
        &self,
        a: &S,
        b: &Layout,
        r: &Layout,
        bs: &[i64],
        bd: &[L],
    ) -> Result<()> {
        verify(&a.orig(), b, r, &self.records(b, bs, bd), true)
    }

    /// The records of this walk as the check reads them.
    fn records<L: BLeaf>(&self, b: &Layout, bs: &[i64], bd: &[L]) -> Ctx {
        let paths = b.shape().as_ref().leaf_paths();
        let leaves = paths
            .into_iter()
            .zip(bs.iter().zip(bd))
            .enumerate()
            .map(|(j, (path, (&t, e)))| LeafRec {
                t,
                stride: e.to_scalar(),
                path,
                terms: self
                    .terms
                    .iter()
                    .filter(|x| x.0 as usize == j)
                    .map(|x| (x.1 as usize, x.3))
                    .collect(),
            })
            .collect();
        let axes = self
            .axes()
            .map(|ax| Axis {
                path: ax.path.clone(),
                modes: ax
                    .modes
                    .iter()
                    .map(|(s, d)| (*s, d.clone().into_scalar()))
                    .collect(),
            })
            .collect();
        Ctx { leaves, axes }
    }
}

/// The composition core (`docs/operations.md`): each leaf `t:e` of B (node
/// bytes `bn`, extents `bs`, strides `bd`) gives `t:0` for `e = 0`, A
/// evaluated at `e` for `t = 1`, and otherwise the coalesced base case of
/// A's coalesce_z'd modes on the axis of `e` (the sum of the terms'
/// results, by `layout_add`, for a stride of several basis terms),
/// appended in B's place to a layout under construction; the terms are
/// recorded in `w` for the check. `whole`: A is coalesce_z'd as a whole
/// first (an integer codomain), whatever B is.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn walk<D: StrideLeaf, L: BLeaf, S: ASource<D>, M: ModeList<(i64, D)>>(
    a: &S,
    bn: &[u8],
    bs: &[i64],
    bd: &[L],
    whole: bool,
    w: &mut Walk<D, M>,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    // the modes of the current base case, folded as they come
    let mut f = M::default();
    if whole {
        w.axis(a, &[])?;
    }
    let (mut i, mut k) = (0, 0);
    while let Some(&x) = bn.get(i) {
        if x == WIDE {
            nodes.extend_from_slice(bn.get(i..i + 5).unwrap_or_default());
            i += 5;
            continue;
        }
        i += 1;
        if x != LEAF {
            nodes.push(x);
            continue;
        }
        let (Some(&t), Some(e)) = (bs.get(k), bd.get(k)) else {
            return Err(Error::congruence(
                "composition: B's shape and stride differ",
            ));
        };
        let j = k;
        k += 1;
        let term = e.term()?;
        let value = match term {
            Term::Zero => Some(Scalar::Int(0)),
            _ if t != 1 => None,
            Term::One(None, v) => {
                let ax = w.axis(a, &[])?;
                Some(
                    D::eval_flat(w.modes(ax), v)
                        .map_err(|err| with_operands(err, a, t, e))?
                        .into_scalar(),
                )
            }
            _ => Some(a.eval(&e.to_scalar())?),
        };
        if let Some(v) = value {
            nodes.push(LEAF);
            sh.push(t);
            st.push(v);
            continue;
        }
        let Term::One(mode, v) = term else {
            many_terms(a, j, t, e, w, nodes, sh, st)?;
            continue;
        };
        let ax = match mode {
            None => w.axis(a, &[])?,
            Some(i) => w.axis(a, &[i])?,
        };
        if let [(_, da)] = w.modes(ax) {
            // one mode on the axis (A a leaf there, or folded to one)
            let x = one_mode_base_case(da, t, v)?.into_scalar();
            w.terms.push((j as u32, ax as u32, t, v));
            nodes.push(LEAF);
            sh.push(t);
            st.push(x);
            continue;
        }
        // coalesce(set_flat(sh, st)) without the intermediate layout
        w.base_case(a, ax, j, t, v, e, true, &mut f)?;
        drop_trailing_unit(&mut f);
        push_flat(&f, nodes, sh, st);
    }
    if k != bs.len() {
        return Err(Error::congruence(
            "composition: B's shape and stride differ",
        ));
    }
    Ok(())
}

/// The base case `A ∘ t:v` where A has one mode `s:da` on the axis: the
/// mode `t:da*v` (every `v`-th element, `t` of them; a single mode has no
/// divisibility condition). [`base_case_into`] on one mode computes the
/// same, in the same order (the overflow check of `v*t`, then the scaled
/// stride); this is it without the scratch lists and the fold, for the
/// common one-mode axis of the divides and products.
#[inline(always)]
fn one_mode_base_case<D: StrideLeaf>(da: &D, t: i64, v: i64) -> Result<D> {
    int::mul(v, t)?;
    da.mul_int(v)
}

/// An error of A's evaluation at the stride of the leaf `t:e` of B, with
/// the operands named.
#[cold]
fn with_operands<D: StrideLeaf, S: ASource<D>, L: BLeaf>(
    err: Error,
    a: &S,
    t: i64,
    e: &L,
) -> Error {
    Error::new(
        err.kind(),
        format!("composition({}, {t}:{e}): {}", a.orig(), err.message()),
    )
}

/// The base case's `divisibility` error with the operands named.
#[cold]
fn base_case_error<D: StrideLeaf, S: ASource<D>, L: BLeaf>(
    err: Error,
    a: &S,
    t: i64,
    e: &L,
) -> Error {
    if err.kind() == crate::ErrorKind::Divisibility {
        Error::divisibility(format!(
            "{}: composition({}, {t}:{e})",
            err.message(),
            a.orig()
        ))
    } else {
        err
    }
}

/// The leaf `t:e` (the `j`-th of B) of a stride `e` of several basis
/// terms: the base case per term on its axis, the results added
/// (`layout_add`) and coalesced, appended to the layout under
/// construction.
#[allow(clippy::too_many_arguments)]
#[cold]
fn many_terms<D: StrideLeaf, L: BLeaf, S: ASource<D>, M: ModeList<(i64, D)>>(
    a: &S,
    j: usize,
    t: i64,
    e: &L,
    w: &mut Walk<D, M>,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    let mut result: Option<Layout> = None;
    let mut f = M::default();
    for (v, path) in e.to_scalar().basis_repr() {
        let Scalar::Int(v) = v else {
            return Err(Error::type_(format!(
                "composition: the stride term {v} of B is not an integer"
            )));
        };
        let ax = w.axis(a, &path)?;
        w.base_case(a, ax, j, t, v, e, false, &mut f)?;
        // the base case's modes as they are (a leaf for one; it makes at
        // least one)
        let mut term = Layout::blank();
        unwrapped_into(&f, &mut term);
        result = Some(match result {
            None => term,
            Some(r) => super::layout_add(&r, &term)?,
        });
    }
    match result {
        Some(r) => {
            let c = coalesce(&r)?;
            View::of(&c).push_into(nodes, sh, st);
        }
        None => {
            nodes.push(LEAF);
            sh.push(t);
            st.push(Scalar::Int(0));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The check R(c) == A(B(c)) inside A's domain (docs/differences.md 1.1).

fn no_layout(a: &Layout, b: &Layout, why: &str) -> Error {
    Error::divisibility(format!(
        "composition({a}, {b}): no layout reproduces A∘B ({why})"
    ))
}

/// True when the coordinate value / integer `x` lies inside the domain of
/// a layout of shape `s`.
fn in_domain(x: &Scalar, s: HRef<'_, i64>) -> bool {
    match x {
        Scalar::Int(v) => match crate::shape::size(s) {
            Ok(n) => *v >= 0 && *v < n,
            Err(_) => *v >= 0,
        },
        Scalar::F2(_) => false,
        Scalar::Coord(c) => {
            if x.is_zero() {
                return true;
            }
            // a leaf-shaped A is reached through the axis `@0` (its 1-tuple)
            let ch = c.children();
            let rank = if s.is_leaf() { 1 } else { s.rank() };
            if ch.iter().skip(rank).any(|y| !y.is_zero()) {
                return false;
            }
            if s.is_leaf() {
                return ch.first().is_none_or(|y| in_domain(y, s));
            }
            s.modes().zip(ch).all(|(m, y)| in_domain(y, m))
        }
    }
}

fn eval_at(a: &Layout, x: &Scalar) -> Result<Scalar> {
    match x {
        Scalar::Int(i) => a.eval_index(*i),
        Scalar::Coord(c) if a.is_leaf() => {
            // a leaf-shaped A reached through the axis `@0` (its 1-tuple)
            let i = c.children().first().cloned().unwrap_or(Scalar::Int(0));
            eval_at(a, &i)
        }
        _ => a.eval(HTuple::leaf(Some(x.clone())).as_ref()),
    }
}

/// Evaluates both sides at one point of B's domain (`coords`: `(leaf, c)`,
/// other leaves at 0). `Some(true)` when the point is in A's domain and the
/// sides differ.
fn differs_at(
    a: &Layout,
    ctx: &Ctx,
    res: &[Layout],
    coords: &[(usize, i64)],
) -> Result<Option<bool>> {
    let mut bx = Scalar::Int(0);
    let mut rx = Scalar::Int(0);
    for &(j, c) in coords {
        let leaf = &ctx.leaves[j];
        bx = bx.add(&leaf.stride.mul_int(c)?)?;
        rx = rx.add(&res[j].eval_index(c)?)?;
    }
    if !in_domain(&bx, a.shape().as_ref()) {
        return Ok(None);
    }
    Ok(Some(eval_at(a, &bx)? != rx))
}

/// "at index i of B: B(i) = x, the result gives y, A(x) = z" for a point of
/// B's domain (`coords`: `(leaf, c)`, other leaves at 0).
fn describe_point(
    a: &Layout,
    ctx: &Ctx,
    res: &[Layout],
    coords: &[(usize, i64)],
) -> Result<String> {
    let mut bx = Scalar::Int(0);
    let mut rx = Scalar::Int(0);
    let mut index: i64 = 0;
    let mut weight: i64 = 1;
    for (j, leaf) in ctx.leaves.iter().enumerate() {
        if let Some(&(_, c)) = coords.iter().find(|(k, _)| *k == j) {
            index = int::add(index, int::mul(c, weight)?)?;
            bx = bx.add(&leaf.stride.mul_int(c)?)?;
            rx = rx.add(&res[j].eval_index(c)?)?;
        }
        weight = int::mul(weight, leaf.t)?;
    }
    Ok(format!(
        "at index {index} of B, B = {bx}: the result would give {rx}, A gives {}",
        eval_at(a, &bx)?
    ))
}

/// `R(c) == A(B(c))` for every `c` of B with `B(c)` in A's domain, by
/// evaluation (at most [`EVAL_LIMIT`] points, only B's non-trivial leaves
/// enumerated). `Ok(false)` when too large to evaluate.
fn verify_by_evaluation(a: &Layout, b: &Layout, ctx: &Ctx, res: &[Layout]) -> Result<bool> {
    let active: SmallVec<[usize; 8]> = (0..ctx.leaves.len())
        .filter(|&j| ctx.leaves[j].t > 1 && !ctx.leaves[j].stride.is_zero())
        .collect();
    let mut total: i64 = 1;
    for &j in &active {
        total = match total.checked_mul(ctx.leaves[j].t) {
            Some(v) if v <= EVAL_LIMIT => v,
            _ => return Ok(false),
        };
    }
    // per-leaf tables of B_j(c) and R_j(c)
    let mut tb: Vec<Vec<Scalar>> = Vec::with_capacity(active.len());
    let mut tr: Vec<Vec<Scalar>> = Vec::with_capacity(active.len());
    for &j in &active {
        let leaf = &ctx.leaves[j];
        let mut vb = Vec::with_capacity(leaf.t as usize);
        let mut vr = Vec::with_capacity(leaf.t as usize);
        for c in 0..leaf.t {
            vb.push(leaf.stride.mul_int(c)?);
            vr.push(res[j].eval_index(c)?);
        }
        tb.push(vb);
        tr.push(vr);
    }
    let mut digits: SmallVec<[usize; 8]> = SmallVec::from_elem(0, active.len());
    let shape = a.shape().as_ref();
    for _ in 0..total {
        let mut bx = Scalar::Int(0);
        let mut rx = Scalar::Int(0);
        for (k, &c) in digits.iter().enumerate() {
            bx = bx.add(&tb[k][c])?;
            rx = rx.add(&tr[k][c])?;
        }
        if in_domain(&bx, shape) && eval_at(a, &bx)? != rx {
            return Err(no_layout(
                a,
                b,
                &format!(
                    "at B(c) = {bx} the result gives {rx}, A gives {}",
                    eval_at(a, &bx)?
                ),
            ));
        }
        // next point
        for (k, dgt) in digits.iter_mut().enumerate() {
            *dgt += 1;
            if (*dgt as i64) < ctx.leaves[active[k]].t {
                break;
            }
            *dgt = 0;
        }
    }
    Ok(true)
}

/// Searches a witness of a carry at digit `i` of an axis among the points
/// built from the modes that reach that digit, each with only that digit
/// non-zero, whose digit values sum to at least `s_i` minimally (exactly one
/// carry on the axis). `found` when a point in A's domain differs.
struct WitnessSearch<'s> {
    a: &'s Layout,
    ctx: &'s Ctx,
    res: &'s [Layout],
    /// `(leaf, largest digit value, step of the digit values, stride term e)`
    contributors: &'s [(usize, i128, i128, i64)],
    si: i128,
    pi: i128,
    budget: u32,
    x: SmallVec<[i128; 8]>,
}

impl WitnessSearch<'_> {
    fn run(&mut self) -> Result<bool> {
        self.x = SmallVec::from_elem(0, self.contributors.len());
        self.budget = 20_000;
        self.rec(0, 0)
    }

    fn rec(&mut self, k: usize, sum: i128) -> Result<bool> {
        if self.budget == 0 {
            return Ok(false);
        }
        self.budget -= 1;
        if sum >= self.si {
            // minimal: lowering any positive value by one step drops below s_i
            let minimal = self
                .contributors
                .iter()
                .zip(self.x.iter())
                .all(|(c, &v)| v == 0 || sum - c.2 < self.si);
            if !minimal {
                return Ok(false);
            }
            let mut coords: SmallVec<[(usize, i64); 8]> = SmallVec::new();
            for (c, &v) in self.contributors.iter().zip(self.x.iter()) {
                if v > 0 {
                    let Some(num) = v.checked_mul(self.pi) else {
                        return Ok(false);
                    };
                    let e = c.3 as i128;
                    if e == 0 || num % e != 0 {
                        return Ok(false);
                    }
                    let cj = i64::try_from(num / e)
                        .map_err(|_| Error::overflow("composition: witness coordinate"))?;
                    coords.push((c.0, cj));
                }
            }
            return Ok(differs_at(self.a, self.ctx, self.res, &coords)? == Some(true));
        }
        if k == self.contributors.len() {
            return Ok(false);
        }
        let (_, max, step, _) = self.contributors[k];
        let mut v = 0;
        while v <= max {
            self.x[k] = v;
            if self.rec(k + 1, sum + v)? {
                return Ok(true);
            }
            v += step.max(1);
        }
        self.x[k] = 0;
        Ok(false)
    }
}

/// The weight of a digit of A: the product of the extents `s` below it,
/// `None` beyond 128 bits.
fn digit_weight(s: &[i64]) -> Option<i128> {
    s.iter().try_fold(1i128, |p, &x| p.checked_mul(x as i128))
}

/// The result of each leaf mode of B: the sub-layout of R at its path.
fn leaf_results(r: &Layout, ctx: &Ctx) -> Result<SmallVec<[Layout; 4]>> {
    ctx.leaves.iter().map(|l| r.get(&l.path)).collect()
}

/// The check of `docs/differences.md` 1.1 on the records of one layout-by-layout
/// composition.
fn verify(a: &Layout, b: &Layout, r: &Layout, ctx: &Ctx, fallback: bool) -> Result<()> {
    let mut need_eval = ctx
        .axes
        .iter()
        .any(|ax| ax.modes.iter().any(|(_, d)| has_f2(d)))
        || ctx
            .leaves
            .iter()
            .any(|l| l.t > 1 && l.terms.iter().any(|&(_, v)| v < 0));
    let mut unresolved = false;
    if !need_eval {
        'axes: for (ax_idx, ax) in ctx.axes.iter().enumerate() {
            let mut s: SmallVec<[i64; 8]> = ax.modes.iter().map(|(s, _)| *s).collect();
            if s.len() >= 2 && s.last() == Some(&1) {
                s.pop();
            }
            if s.len() < 2 {
                continue;
            }
            let top = s.len() - 1;
            let mut sums: SmallVec<[i128; 8]> = SmallVec::from_elem(0, top);
            // (leaf, multi-term, box, stride term)
            let mut boxes: SmallVec<[(usize, bool, DigitBox, i64); 8]> = SmallVec::new();
            for (j, leaf) in ctx.leaves.iter().enumerate() {
                if leaf.t <= 1 {
                    continue;
                }
                for &(axi, v) in &leaf.terms {
                    if axi != ax_idx {
                        continue;
                    }
                    let mut maxes = SmallVec::new();
                    match digit_box(s.as_slice(), v, leaf.t, |i, m| maxes.push((i, m))) {
                        Some((a, f)) => {
                            for &(i, m) in &maxes {
                                sums[i] += m;
                            }
                            boxes.push((j, leaf.terms.len() > 1, DigitBox { a, f, maxes }, v));
                        }
                        None => {
                            need_eval = true;
                            break 'axes;
                        }
                    }
                }
            }
            for i in 0..top {
                let si = s[i] as i128;
                if sums[i] < si {
                    continue;
                }
                let mut contributors: SmallVec<[(usize, i128, i128, i64); 8]> = SmallVec::new();
                let mut multi = false;
                for (j, is_multi, bx, v) in &boxes {
                    if let Some(&(_, m)) = bx.maxes.iter().find(|(d, _)| *d == i) {
                        if m > 0 {
                            multi |= *is_multi;
                            let step = if bx.a == i { bx.f } else { 1 };
                            contributors.push((*j, m, step, *v));
                        }
                    }
                }
                let why = || {
                    let path: Vec<String> = ax.path.iter().map(|p| p.to_string()).collect();
                    let axis = if path.is_empty() {
                        "A".to_string()
                    } else {
                        format!("A's mode at {}", path.join(","))
                    };
                    format!(
                        "B's modes together carry out of the digit of extent {} of {axis}, so A is not additive across them inside its domain",
                        s[i]
                    )
                };
                if !multi {
                    // the witness of 4.5: the overlapping modes at their
                    // largest value on this digit, until the sum reaches s_i
                    let pi = digit_weight(&s[..i]);
                    let mut coords: SmallVec<[(usize, i64); 8]> = SmallVec::new();
                    let mut sum: i128 = 0;
                    for &(j, m, _, e) in &contributors {
                        if sum >= si {
                            break;
                        }
                        sum = sum.saturating_add(m);
                        let c = pi
                            .and_then(|pi| m.checked_mul(pi))
                            .and_then(|x| x.checked_div(e as i128))
                            .and_then(|x| i64::try_from(x).ok());
                        coords.push((j, c.unwrap_or(0)));
                    }
                    let res = leaf_results(r, ctx)?;
                    let point = describe_point(a, ctx, &res, &coords).unwrap_or_default();
                    return Err(no_layout(a, b, &format!("{}; {point}", why())));
                }
                let Some(pi) = digit_weight(&s[..i]) else {
                    // (beyond 128 bits: no witness searched; the
                    // evaluation below decides)
                    unresolved = true;
                    continue;
                };
                let res = leaf_results(r, ctx)?;
                let mut search = WitnessSearch {
                    a,
                    ctx,
                    res: &res,
                    contributors: &contributors,
                    si,
                    pi,
                    budget: 0,
                    x: SmallVec::new(),
                };
                if search.run()? {
                    return Err(no_layout(a, b, &why()));
                }
                unresolved = true;
            }
        }
    }
    if need_eval {
        if !verify_by_evaluation(a, b, ctx, &leaf_results(r, ctx)?)? {
            return Err(Error::value(format!(
                "composition({a}, {b}): cannot verify R(c) == A(B(c)): A has F2 strides or B negative strides, and B has more than {EVAL_LIMIT} points to evaluate"
            )));
        }
        return Ok(());
    }
    if unresolved && fallback {
        // multi-term strides whose per-axis carries found no witness: decide
        // exactly by evaluation when small enough, else accept (the spec asks
        // for an in-domain witness before rejecting).
        verify_by_evaluation(a, b, ctx, &leaf_results(r, ctx)?)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::Rng;

    /// Runs the core and the digit check without the evaluation fallback,
    /// and the exhaustive evaluation, on one composition.
    fn both(a: &Layout, b: &Layout) -> Option<(bool, bool)> {
        // the core of the `Scalar` instantiation, unchecked, and its records
        let a_c = coalesced_for(a, b.shape().as_ref(), b.stride()).ok()?;
        let src = Coalesced { a_c: &a_c, a };
        let mut r = Layout::blank();
        let ((nodes, sh), st) = r.raw_mut();
        let mut w = Walk::<Scalar, Folded<Scalar>>::new();
        let (bs, bd) = (b.shape().leaves(), b.stride().leaves());
        walk(
            &src,
            b.shape().as_ref().node_bytes(),
            bs,
            bd,
            false,
            &mut w,
            nodes,
            sh,
            st,
        )
        .ok()?;
        let ctx = w.records(b, bs, bd);
        let digits_ok = verify(a, b, &r, &ctx, false).is_ok();
        let res = leaf_results(&r, &ctx).ok()?;
        let exact_ok = verify_by_evaluation(a, b, &ctx, &res).is_ok();
        Some((digits_ok, exact_ok))
    }

    /// The core's `Scalar` instantiation on A coalesce_z'd by B's
    /// coprofile, checked: what every operand that is not all integers
    /// (or basis values on A's modes) takes.
    fn scalar_core(a: &Layout, b: &Layout) -> Result<Layout> {
        let a_c = coalesced_for(a, b.shape().as_ref(), b.stride())?;
        let src = Coalesced { a_c: &a_c, a };
        let bref = b.shape().as_ref();
        let mut out = Layout::blank();
        let ((nodes, sh), st) = out.raw_mut();
        run::<Scalar, Scalar, _>(
            &src,
            bref.node_bytes(),
            bref.leaves(),
            b.stride().leaves(),
            false,
            true,
            || b.clone(),
            (&mut *nodes, sh, st),
        )?;
        Ok(out)
    }

    /// The checked layout core as the library runs it.
    fn layout_core(a: &Layout, b: &Layout) -> Result<Layout> {
        let mut out = Layout::blank();
        let ((nodes, sh), st) = out.raw_mut();
        layout_core_append(AOperand::View(View::of(a)), b, true, nodes, sh, st)?;
        Ok(out)
    }

    /// The one-mode shortcut of the walk gives what `base_case_into` on that
    /// one mode gives (then folded, as the walk folds it): the same mode or
    /// the same error (kind and message), for integer and basis strides,
    /// near the overflow bounds too.
    #[test]
    fn one_mode_base_case_is_base_case_into() {
        /// Both on the one mode `s:da` and the leaf `t:v`: `Ok(true)` for
        /// the same mode, `Ok(false)` for the same error.
        fn same<D: StrideLeaf + std::fmt::Debug>(s: i64, da: D, t: i64, v: i64) -> bool {
            let mut f: Folded<D> = Folded::default();
            let mut rs = Ints::new();
            let general = base_case_into(&[(s, da.clone())], &t, &v, &mut rs, |x, y| {
                fold_push(&mut f, x, y)
            })
            .map(|()| f.to_vec());
            let short = one_mode_base_case(&da, t, v).map(|x| vec![(t, x)]);
            match (general, short) {
                (Ok(g), Ok(o)) => {
                    assert_eq!(g, o, "A = {s}:{da}, B = {t}:{v}");
                    true
                }
                (Err(g), Err(o)) => {
                    assert_eq!((g.kind(), g.message()), (o.kind(), o.message()));
                    false
                }
                (g, o) => panic!("A = {s}:{da}, B = {t}:{v}: {g:?} vs {o:?}"),
            }
        }
        const BIG: i64 = 1 << 62;
        const VALUES: &[i64] = &[1, 2, 3, 5, 8, 24, -1, -2, -7, BIG, -BIG, i64::MAX, i64::MIN];
        let mut r = Rng(23);
        let pick = |r: &mut Rng| VALUES[r.next(VALUES.len() as u64) as usize];
        let (mut results, mut errors) = (0, 0);
        for i in 0..20_000 {
            let s = 1 + r.next(64) as i64;
            let (t, v, d) = (
                1 + pick(&mut r).rem_euclid(1 << 40),
                pick(&mut r),
                pick(&mut r),
            );
            let t = if i % 4 == 0 {
                pick(&mut r).max(2)
            } else {
                t.max(2)
            };
            let ok = match i % 4 {
                0 => same(s, d, t, v),
                1 => same(s, Scalar::Int(d), t, v),
                2 => same(s, Scalar::basis(d, &[1]), t, v),
                _ => same(s, Scalar::Int(0), t, v),
            };
            match ok {
                true => results += 1,
                false => errors += 1,
            }
        }
        assert!(
            results > 1000 && errors > 1000,
            "{results} results, {errors} errors"
        );
    }

    /// The same result or the same error (kind and message) from the
    /// `i64` and the `Scalar` instantiations of the core, on integer A and
    /// integer or basis-strided B.
    #[test]
    fn integer_and_scalar_instantiations_agree() {
        use crate::testing::random_layout;
        const STRIDES: &[i64] = &[0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, -1, -2, 5, 7];
        let int_layout = |r: &mut Rng, max_s: u64| {
            random_layout(r, 4, 3, |r| {
                let s = 1 + r.next(max_s) as i64;
                (
                    s,
                    Scalar::Int(STRIDES[r.next(STRIDES.len() as u64) as usize]),
                )
            })
        };
        let mut r = Rng(11);
        let (mut ok, mut basis) = (0, 0);
        for i in 0..100_000 {
            let a = int_layout(&mut r, 8);
            let b = if i % 3 == 0 {
                random_layout(&mut r, 4, 4, |r| {
                    let s = [1i64, 2, 2, 3, 4, 5, 6, 8, 12][r.next(9) as usize];
                    let v = [1i64, 1, 2, 3, 4, 5, 6, 8, 12, 0, -1, 20][r.next(12) as usize];
                    (s, Scalar::basis(v, &[r.next(4) as usize]))
                })
            } else {
                int_layout(&mut r, 6)
            };
            let fast = layout_core(&a, &b);
            if i % 3 == 0 && basis_on_modes(View::of(&a), b.stride().leaves()) {
                basis += 1;
            }
            let general = scalar_core(&a, &b);
            match (&fast, &general) {
                (Ok(x), Ok(y)) => {
                    ok += 1;
                    assert_eq!(x, y, "composition({a}, {b})")
                }
                (Err(x), Err(y)) => {
                    assert_eq!(x.kind(), y.kind(), "composition({a}, {b})");
                    assert_eq!(x.message(), y.message(), "composition({a}, {b})");
                }
                _ => panic!("composition({a}, {b}): {fast:?} against {general:?}"),
            }
        }
        assert!(ok > 30_000 && basis > 5_000, "{ok} {basis}");
    }

    /// The witness search for multi-term coordinate strides finds every
    /// carry that the exhaustive evaluation finds, on random small cases
    /// (and never reports one that evaluation does not: witnesses are
    /// confirmed by evaluation by construction).
    #[test]
    fn multi_term_witness_search_matches_evaluation() {
        let mut r = Rng(7);
        let (mut agree, mut rejected) = (0, 0);
        for _ in 0..4000 {
            let ext = |r: &mut Rng| [2i64, 3, 4, 6][r.next(4) as usize];
            let (s00, s01, s10, s11) = (ext(&mut r), ext(&mut r), ext(&mut r), ext(&mut r));
            let a = Layout::new(
                HTuple::tuple([HTuple::flat([s00, s01]), HTuple::flat([s10, s11])]),
                HTuple::tuple([
                    HTuple::flat([Scalar::Int(1), Scalar::Int(1 + r.next(9) as i64)]),
                    HTuple::flat([Scalar::Int(50), Scalar::Int(50 * (1 + r.next(9) as i64))]),
                ]),
            )
            .unwrap();
            let n = 2 + r.next(2) as usize;
            let mut bs = Vec::new();
            let mut bd = Vec::new();
            for _ in 0..n {
                bs.push(1 + r.next(4) as i64);
                let v0 = [0i64, 1, 2, 3, s00][r.next(5) as usize];
                let v1 = [0i64, 1, 2, s10][r.next(4) as usize];
                bd.push(
                    Scalar::basis(v0, &[0])
                        .add(&Scalar::basis(v1, &[1]))
                        .unwrap(),
                );
            }
            let b = Layout::new(HTuple::flat(bs), HTuple::flat(bd)).unwrap();
            if let Some((digits_ok, exact_ok)) = both(&a, &b) {
                assert!(
                    digits_ok == exact_ok,
                    "composition({a}, {b}): digit check {digits_ok}, evaluation {exact_ok}"
                );
                agree += 1;
                if !exact_ok {
                    rejected += 1;
                }
            }
        }
        assert!(agree > 1000 && rejected > 50, "{agree} {rejected}");
    }
}
