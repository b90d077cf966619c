//! logical, zipped, tiled and flat divide (`docs/operations.md`).
//!
//! `A ⊘ B = A ∘ (B, B*)`: mode 0 of the result is the tile (the elements of
//! A that B selects), mode 1 the layout of the tiles, B's complement grown to
//! cover A. rcute extends the complement to `size(A)` along each codomain
//! axis, as the whitepaper and C++ CuTe do (section 21, item 2).

use super::complement::int_complement_then;
use super::composition::{self, by_mode_append, layout_core_append, AOperand};
use super::leaf::{int_strides_into, Ints};
use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, Leaves, Nodes, LEAF, MAX_DEPTH};
use crate::layout::{Layout, View};
use crate::stride::Scalar;
use crate::tiler::tiler_to_layout;
use crate::tiler::{Tiler, TilerRef};
use smallvec::SmallVec;
use std::ops::Range;

/// `logical_divide(A, B)` (`docs/operations.md`; C++ CuTe `logical_divide`).
///
/// Takes a layout `A` and a tiler `B`: `None` returns `A`; an integer `n`
/// means the layout `n:1`; a tuple applies element `i` to mode `i` of A
/// (modes beyond the tuple are kept; the result is `make_layout` of the
/// modes, so always a tuple); a layout gives the rank-2 layout
/// `composition(A, make_layout(B, complement(B, extend = extent(A, coprofile(B)))))`
/// where `extent` is `size(A)` for an integer codomain and, for a
/// coordinate codomain, the size of A's mode along each axis (A's modes
/// beyond the axes keep their shape).
///
/// Post-conditions for a layout B: `rank(R) = 2`, `compatible(B, R[0])`,
/// `R[0] == composition(A, B)`; when B tiles A every offset of A appears
/// exactly once in R.
///
/// Errors: `rank` when a tuple tiler is longer than A's rank, or a
/// coordinate tiler has more axes than A has modes; `type` when a
/// coordinate tiler meets a leaf-shaped mode of A; `value` for a
/// non-positive integer tiler; those of `complement` (on B: `injectivity`,
/// `type`) and of `composition` (`divisibility`, `rank`, `type`).
///
/// ```
/// use rcute::{algebra::logical_divide, HTuple, Layout, Scalar, Tiler};
/// let a = Layout::column_major(HTuple::leaf(24)).unwrap();
/// let b = Layout::new(HTuple::leaf(4), HTuple::leaf(Scalar::Int(2))).unwrap();
/// assert_eq!(logical_divide(&a, &Tiler::Layout(b)).unwrap().to_string(), "(4, (2, 3)):(2, (1, 8))");
/// assert_eq!(logical_divide(&a, &Tiler::None).unwrap(), a);
/// ```
pub fn logical_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    logical_divide_into(a, b, &mut out)?;
    Ok(out)
}

/// [`logical_divide`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn logical_divide_into(a: &Layout, b: &TilerRef<'_>, out: &mut Layout) -> Result<()> {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    divide_append(View::of(a), b, 0, nodes, sh, st)?;
    Ok(())
}

/// The tiler dispatch of [`logical_divide`] on A (a layout or a mode of
/// one), appended to a layout under construction.
fn divide_append(
    a: View<'_>,
    b: &TilerRef<'_>,
    depth: usize,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("logical_divide: tiler nested too deeply"));
    }
    match b {
        TilerRef::None => {
            a.push_into(nodes, sh, st);
            Ok(())
        }
        TilerRef::Int(n) => divide_core_append(a, &int_tiler(*n, "logical_divide")?, nodes, sh, st),
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => divide_core_append(a, l, nodes, sh, st),
        TilerRef::Tuple(ts) => {
            rank_fits(a, ts, "logical_divide")?;
            by_mode_append(a, ts, nodes, sh, st, &mut |m, t, nodes, sh, st| {
                divide_append(m, t, depth + 1, nodes, sh, st)
            })
        }
    }
}

/// The layout `n:1` of an integer tiler (`value` error unless `n > 0`).
pub(crate) fn int_tiler(n: i64, op: &str) -> Result<Layout> {
    if n <= 0 {
        return Err(Error::value(format!(
            "{op}: the integer tiler {n} must be positive"
        )));
    }
    Ok(Layout::leaf(n, Scalar::Int(1)))
}

/// The `rank` error of a tuple tiler `ts` longer than the rank of A.
pub(crate) fn rank_fits(a: View<'_>, ts: &[TilerRef<'_>], op_name: &str) -> Result<()> {
    if a.s.rank() < ts.len() {
        return Err(Error::rank(format!(
            "{op_name}: Rank mismatch: the tiler {} has {} modes but {} has rank {}",
            TilerRef::Tuple(crate::tiler::TilerItems::Borrowed(ts)),
            ts.len(),
            a.layout(),
            a.s.rank()
        )));
    }
    Ok(())
}

/// `A ⊘ B = A ∘ (B, complement(B, extent(A, coprofile(B))))` for a layout
/// B, appended to a layout under construction.
fn divide_core_append(
    a: View<'_>,
    b: &Layout,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    let mut b_st = Ints::new();
    let int_b = int_strides_into(b, &mut b_st).is_some()
        && b_st
            .iter()
            .try_fold(0i64, |t, &d| t.checked_add(d))
            .is_some();
    if int_b
        && a.d.leaves().iter().all(|d| matches!(d, Scalar::Int(_)))
        && b.shape().as_ref().depth_within(MAX_DEPTH - 1)
    {
        // integer strides, an integer codomain: B' = (B, C) as integer
        // lists, C extended to size(A)
        let ext = HTuple::leaf(crate::shape::size(a.s)?);
        let done = int_complement_then(b, Some(ext.as_ref()), |c| {
            let mut bn = Nodes::new();
            bn.push(2);
            bn.extend_from_slice(b.shape().as_ref().node_bytes());
            let mut bs = Ints::from_slice(b.shape().leaves());
            let c = match c.len() {
                0 => &[(1, 0)],
                1 => c,
                n => {
                    crate::htuple::push_rank(&mut bn, n);
                    c
                }
            };
            for &(x, y) in c {
                bn.push(LEAF);
                bs.push(x);
                b_st.push(y);
            }
            let bc = || {
                let st: SmallVec<[Scalar; 8]> = b_st.iter().map(|&v| Scalar::Int(v)).collect();
                composition::raw_layout(&bn, &bs, &st)
            };
            let l0 = sh.len();
            composition::int_core_append(a, &bn, &bs, &b_st, bc, nodes, sh, st)?;
            if sh[l0..].iter().any(|&e| e <= 0) {
                return composition::positive(&a, &bc(), &sh[l0..]);
            }
            Ok(())
        })?;
        if done.is_some() {
            return Ok(());
        }
    }
    // B' = (B, C), built in place
    let mut bc = Layout::blank();
    let ((n, s), d) = bc.raw_mut();
    n.push(2);
    View::of(b).push_into(n, s, d);
    let int_codomain = b
        .stride()
        .leaves()
        .iter()
        .try_fold(0i64, |t, d| t.checked_add(d.as_int()?))
        .is_some();
    let profile = match int_codomain {
        true => None,
        false => Some(super::coprofile(b)?).filter(|p| !p.is_leaf()),
    };
    if let Some(profile) = profile {
        let a_l = a.layout();
        if a_l.is_leaf() {
            // a leaf-shaped A against a coordinate tiler is the rank-1
            // tuple `(A,)`, as C++ CuTe treats an integer shape
            // (`zipped_divide(12:1, (12,))` is `((12,), (1,)):((1,), (12,))`)
            let wrapped = Layout::from_parts(a_l.shape().wrap(), a_l.stride().to_owned().wrap());
            return divide_core_append(View::of(&wrapped), b, nodes, sh, st);
        }
        let ext = extent(&a_l, profile.as_ref(), 0)?;
        super::complement::complement_append(b, Some(ext.as_ref()), n, s, d)?;
    } else {
        // an integer codomain: the extension is size(A)
        let ext = HTuple::leaf(crate::shape::size(a.s)?);
        super::complement::complement_append(b, Some(ext.as_ref()), n, s, d)?;
    }
    let l0 = sh.len();
    layout_core_append(AOperand::View(a), &bc, true, nodes, sh, st)?;
    composition::positive(&a, &bc, &sh[l0..])
}

/// `extent(L, p)` (section 6): `size(L)` for a leaf profile; for a
/// `k`-tuple profile the extents of L's first `k` modes followed by the
/// shapes of L's remaining modes.
fn extent(l: &Layout, p: HRef<'_, i64>, depth: usize) -> Result<HTuple<i64>> {
    if depth > MAX_DEPTH {
        return Err(Error::value("logical_divide: profile nested too deeply"));
    }
    if p.is_leaf() {
        return Ok(HTuple::leaf(l.size()?));
    }
    if l.is_leaf() {
        return Err(Error::type_(format!(
            "logical_divide: a tiler with the coordinate profile {p} needs a tuple-shaped layout, not {l}"
        )));
    }
    if p.rank() > l.rank() {
        return Err(Error::rank(format!(
            "logical_divide: the tiler's codomain profile {p} has more modes than {l} (rank {})",
            l.rank()
        )));
    }
    let mut b = Builder::new();
    b.open();
    for (i, m) in l.modes().enumerate() {
        match p.mode(i) {
            Some(pi) => b.push_owned(extent(&m, pi, depth + 1)?),
            None => b.push(m.shape().as_ref()),
        }
    }
    b.close();
    Ok(b.finish())
}

/// `composition(None, B)` (`docs/operations.md`): `None` is the identity of
/// unknown extent, so the result is `B` itself as one layout:
/// `tiler_to_layout(B)` with every `None` leaf of a tuple `B` read as `1`,
/// and for a mode path `p` lifted to `p` with `1:0` padding (the modes
/// before each index of the path are `1:0`). There is no divisibility
/// condition, and `composition(A, composition_none(B)) == composition(A, B)`.
///
/// Errors: `value` for a negative index in the path; those of
/// `tiler_to_layout` (a non-positive extent).
///
/// ```
/// use rcute::{algebra::composition_none, Tiler};
/// let b = Tiler::Tuple(vec![Tiler::Int(3), Tiler::None].into());
/// assert_eq!(composition_none(&b, &[]).unwrap().to_string(), "(3, 1):(1@0, 1@1)");
/// assert_eq!(composition_none(&Tiler::Int(12), &[1]).unwrap().to_string(), "(1, 12):(0, 1)");
/// ```
pub fn composition_none(b: &TilerRef<'_>, path: &[i64]) -> Result<Layout> {
    fn ones(t: &TilerRef<'_>) -> Tiler {
        match t {
            TilerRef::None => TilerRef::Int(1),
            TilerRef::Tuple(v) => TilerRef::Tuple(v.iter().map(ones).collect()),
            t => t.clone().into_owned(),
        }
    }
    let l = tiler_to_layout(&ones(b))?;
    lift_layout(l, path)
}

/// `l` nested at `path`: for each index `i` of the path, from the last to
/// the first, the concatenation of `i` modes `1:0` and the layout so far.
fn lift_layout(mut l: Layout, path: &[i64]) -> Result<Layout> {
    for &i in path.iter().rev() {
        let n = usize::try_from(i)
            .map_err(|_| Error::value(format!("lift: the mode index {i} is negative")))?;
        if n > MAX_DEPTH * 1024 {
            return Err(Error::value(format!(
                "lift: the mode index {i} is too large"
            )));
        }
        let mut modes: Vec<Layout> = (0..n).map(|_| Layout::leaf(1, Scalar::Int(0))).collect();
        modes.push(l);
        l = Layout::concat(modes)?;
    }
    Ok(l)
}

/// `logical_divide(None, B)` (`docs/operations.md`): each leaf `b` of the
/// tiler (a layout or an integer; a `None` leaf reads as `1`) becomes
/// `(b, complement(b))` with the free complement (there is no extent to
/// extend to), and the result is `composition_none` of that tiler, lifted
/// to `path`.
///
/// Errors: those of `tiler_to_layout` and `complement` (a non-injective
/// leaf), `value` for a negative path index.
///
/// ```
/// use rcute::{algebra::logical_divide_none, HTuple, Layout, Scalar, Tiler};
/// let b = Layout::new(HTuple::leaf(4), HTuple::leaf(Scalar::Int(2))).unwrap();
/// assert_eq!(logical_divide_none(&Tiler::Layout(b)).unwrap().to_string(),
///            "(4, (2, 1)):(2, (1, 8))");
/// let t = Tiler::Tuple(vec![Tiler::Int(3), Tiler::Int(5)].into());
/// assert_eq!(logical_divide_none(&t).unwrap().to_string(),
///            "((3, 1), (5, 1)):((1@0, 3@0), (1@1, 5@1))");
/// ```
pub fn logical_divide_none(b: &TilerRef<'_>) -> Result<Layout> {
    logical_divide_none_at(b, &[])
}

/// [`logical_divide_none`] lifted to the mode path `path` (between `1:0`
/// modes, as [`composition_none`]): `logical_divide[path](None, B)`.
///
/// ```
/// use rcute::{algebra::logical_divide_none_at, Tiler};
/// assert_eq!(logical_divide_none_at(&Tiler::Int(2), &[1]).unwrap().to_string(),
///            "(1, (2, 1)):(0, (1, 2))");
/// ```
pub fn logical_divide_none_at(b: &TilerRef<'_>, path: &[i64]) -> Result<Layout> {
    fn rec(t: &TilerRef<'_>, depth: usize) -> Result<Tiler> {
        if depth > MAX_DEPTH {
            return Err(Error::value("logical_divide: nesting too deep"));
        }
        match t {
            TilerRef::Tuple(v) => Ok(TilerRef::Tuple(
                v.iter().map(|x| rec(x, depth + 1)).collect::<Result<_>>()?,
            )),
            TilerRef::None => rec(&TilerRef::Int(1), depth),
            leaf => {
                let l = tiler_to_layout(leaf)?;
                let c = super::complement(&l, None)?;
                Ok(TilerRef::Layout(Layout::concat([l, c])?))
            }
        }
    }
    composition_none(&rec(b, 0)?, path)
}

/// `zipped_divide(A, B) = logical_divide(A, tiler_to_layout(B))`
/// (`docs/operations.md`; C++ CuTe `zipped_divide`): a rank-2 layout
/// `((TileM, TileN, ...), (RestM, RestN, ..., L...))`; A's modes beyond a
/// tuple tiler end up in the rest mode.
///
/// Errors: `type` for a `None` anywhere in B, or a tuple B against a
/// leaf-shaped A; otherwise those of `logical_divide`.
///
/// ```
/// use rcute::{algebra::zipped_divide, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::flat([8, 24])).unwrap();
/// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
/// assert_eq!(zipped_divide(&a, &b).unwrap().to_string(), "((4, 8), (2, 3)):((1, 8), (4, 64))");
/// assert!(zipped_divide(&a, &Tiler::Tuple(vec![Tiler::Int(4), Tiler::None].into())).is_err());
/// ```
pub fn zipped_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    zipped_divide_into(a, b, &mut out)?;
    Ok(out)
}

/// [`zipped_divide`] written into `out`, reusing its storage (as
/// [`logical_divide_into`]). On an error `out` holds an unspecified layout.
///
/// A tuple tiler of `k >= 2` items, each a positive integer `n` (the tile
/// `n:1`) or a layout, on an integer-strided A of rank `k` or more takes
/// the mode-by-mode divide `(T_0, R_0), ..., (T_k, R_k), A_(k+1), ...`
/// (the dispatch of `logical_divide` by a tuple) zipped into
/// `((T_0, ..., T_k), (R_0, ..., R_k, A_(k+1), ...))`: that is what
/// dividing by `tiler_to_layout(B)` (basis strides `1@i`) gives, without
/// the coordinate strides. Where that form fails, the division by
/// `tiler_to_layout(B)` reports the error as this operation states it.
pub(crate) fn zipped_divide_into(a: &Layout, b: &TilerRef<'_>, out: &mut Layout) -> Result<()> {
    if let TilerRef::Tuple(ts) = b {
        let k = ts.len();
        let items = ts.iter().all(|t| {
            matches!(t, TilerRef::Int(n) if *n > 0)
                || matches!(t, TilerRef::Layout(_) | TilerRef::Borrowed(_))
        });
        if !a.is_leaf()
            && k >= 2
            && k <= a.rank()
            && items
            && a.has_integer_strides()
            && zip_modes_into(a, ts, out).is_ok()
        {
            return Ok(());
        }
    }
    *out = zipped_divide_general(a, b)?;
    Ok(())
}

/// The mode-by-mode divide of `a` by the items `ts`, built in `out`, then
/// zipped there: the divided modes `(X_i, Y_i)` become
/// `((X_0, ..., X_k), (Y_0, ..., Y_k, A's other modes))`. The leaves are
/// moved in place (the `Y` blocks rotated behind the `X` blocks) and the
/// node bytes rebuilt; no second layout is made.
fn zip_modes_into(a: &Layout, ts: &[TilerRef<'_>], out: &mut Layout) -> Result<()> {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    // where each divided mode starts: (node byte, leaf)
    let mut starts: SmallVec<[(usize, usize); 4]> = SmallVec::new();
    by_mode_append(
        View::of(a),
        ts,
        nodes,
        sh,
        st,
        &mut |m, t, nodes, sh, st| {
            starts.push((nodes.len(), sh.len()));
            divide_append(m, t, 1, nodes, sh, st)
        },
    )?;
    // each divided mode is a pair: the node bytes of X and of Y, where its
    // leaves start and how many X has
    type Halves = (Range<usize>, Range<usize>, usize, usize);
    let mut halves: SmallVec<[Halves; 4]> = SmallVec::new();
    let mut rest = nodes.len();
    for &(n0, l0) in &starts {
        if nodes.get(n0) != Some(&2) {
            return Err(not_pair());
        }
        let (xn, xl) = crate::htuple::extent(&nodes[n0 + 1..]);
        let (yn, _) = crate::htuple::extent(&nodes[n0 + 1 + xn..]);
        halves.push((n0 + 1..n0 + 1 + xn, n0 + 1 + xn..n0 + 1 + xn + yn, l0, xl));
        rest = n0 + 1 + xn + yn;
    }
    // (element by element: library copies of a few bytes cost more)
    let mut zipped = Nodes::new();
    zipped.push(2);
    crate::htuple::push_rank(&mut zipped, starts.len());
    for (x, _, _, _) in &halves {
        zipped.extend(nodes[x.clone()].iter().copied());
    }
    crate::htuple::push_rank(&mut zipped, a.rank());
    for (_, y, _, _) in &halves {
        zipped.extend(nodes[y.clone()].iter().copied());
    }
    zipped.extend(nodes[rest..].iter().copied());
    *nodes = zipped;
    // leaves `X_0 Y_0 X_1 Y_1 ...`: each `X_i` rotated in front of the `Y`
    // blocks before it
    if let Some(&(_, _, y0, _)) = halves.first() {
        let mut ys = y0 + halves[0].3;
        for &(_, _, li, xl) in &halves[1..] {
            rotate_right(&mut sh[ys..li + xl], xl);
            rotate_right(&mut st[ys..li + xl], xl);
            ys += xl;
        }
    }
    Ok(())
}

/// `v.rotate_right(k)` by three reversals (swaps in place: the library's
/// rotation copies through `memmove`, which costs more on a few items).
#[inline]
fn rotate_right<T>(v: &mut [T], k: usize) {
    let n = v.len();
    v.reverse();
    v[..k].reverse();
    v[k..n].reverse();
}

/// The two modes of `m` when it is a rank-2 tuple.
pub(crate) fn pair(m: View<'_>) -> Option<(View<'_>, View<'_>)> {
    if m.s.is_leaf() || m.s.rank() != 2 {
        return None;
    }
    let mut ms = m.modes();
    Some((ms.next()?, ms.next()?))
}

/// The `rank` error of a divided mode that is not a pair.
#[cold]
fn not_pair() -> Error {
    Error::rank("zipped_divide: a divided mode is not a pair")
}

/// [`zipped_divide`] as `logical_divide(A, tiler_to_layout(B))`.
pub(crate) fn zipped_divide_general(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    if matches!(b, TilerRef::Tuple(ts) if ts.is_empty()) {
        // no tile modes: `((), (A's modes))`, as C++ gives it
        let empty = Layout::concat_allow_empty([]);
        return Ok(Layout::concat_pair(
            &empty,
            &Layout::concat_allow_empty(a.modes()),
        ));
    }
    let t = tiler_to_layout(b)?;
    logical_divide(a, &TilerRef::Layout(t))
}

/// The `type` error of `tiled_divide`/`flat_divide` for a tuple tiler on a
/// leaf-shaped layout. The conformance vectors of these two operations
/// (derived from the reference's zipped_divide, which raised there) expect
/// it, although `zipped_divide` itself now reads the leaf as a rank-1 tuple.
fn leaf_by_tuple(a: &Layout, b: &TilerRef<'_>, op: &str) -> Result<()> {
    if a.is_leaf() && matches!(b, TilerRef::Tuple(_)) {
        return Err(Error::type_(format!(
            "{op}({a}, {b}): a tuple tiler needs a tuple-shaped layout"
        )));
    }
    Ok(())
}

/// `tiled_divide(A, B)` (`docs/operations.md`; C++ CuTe `tiled_divide`,
/// not in PyCuTe): with `Z = zipped_divide(A, B)`,
/// `make_layout([Z[0]] + unpack(Z[1]))` — `((TileM, TileN), RestM, RestN, L)`.
///
/// Errors: `type` for a tuple tiler on a leaf-shaped `A` (as the
/// conformance vectors expect); those of `zipped_divide`.
///
/// ```
/// use rcute::{algebra::tiled_divide, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::flat([8, 24])).unwrap();
/// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
/// assert_eq!(tiled_divide(&a, &b).unwrap().to_string(), "((4, 8), 2, 3):((1, 8), 4, 64)");
/// assert!(tiled_divide(&a, &Tiler::None).is_err());
/// ```
pub fn tiled_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    leaf_by_tuple(a, b, "tiled_divide")?;
    let z = zipped_divide(a, b)?;
    regroup(&z, false, "tiled_divide")
}

/// `flat_divide(A, B)` (`docs/operations.md`; C++ CuTe `flat_divide`, not
/// in PyCuTe): with `Z = zipped_divide(A, B)`,
/// `make_layout(unpack(Z[0]) + unpack(Z[1]))` — `(TileM, TileN, RestM, RestN, L)`.
///
/// Errors: `type` for a tuple tiler on a leaf-shaped `A` (as the
/// conformance vectors expect); those of `zipped_divide`.
///
/// ```
/// use rcute::{algebra::flat_divide, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::flat([8, 24])).unwrap();
/// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
/// assert_eq!(flat_divide(&a, &b).unwrap().to_string(), "(4, 8, 2, 3):(1, 8, 4, 64)");
/// assert!(flat_divide(&a, &Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8), Tiler::Int(2)].into())).is_err());
/// ```
pub fn flat_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    leaf_by_tuple(a, b, "flat_divide")?;
    let z = zipped_divide(a, b)?;
    regroup(&z, true, "flat_divide")
}

/// The modes of the rank-2 `z` regrouped, read in place: `[Z[0]] +
/// unpack(Z[1])` (`unpack(Z[0]) + unpack(Z[1])` where `flat`),
/// concatenated; `unpack(M)` (`docs/operations.md`) is the modes of `M`
/// when it has a tuple shape of rank at least 2, otherwise `[M]`.
pub(crate) fn regroup(z: &Layout, flat: bool, op: &str) -> Result<Layout> {
    let Some((z0, z1)) = pair(View::of(z)) else {
        return Err(Error::rank(format!(
            "{op}: expected a rank-2 layout, got {z}"
        )));
    };
    // the parts of a mode: its modes where unpacked, otherwise itself
    let mut parts: SmallVec<[View<'_>; 8]> = SmallVec::new();
    for (i, m) in [z0, z1].into_iter().enumerate() {
        if (flat || i == 1) && !m.s.is_leaf() && m.s.rank() >= 2 {
            parts.extend(m.modes());
        } else {
            parts.push(m);
        }
    }
    let mut out = Layout::blank();
    let ((nodes, sh), st) = out.raw_mut();
    crate::htuple::push_rank(nodes, parts.len());
    for m in parts {
        m.push_into(nodes, sh, st);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{random_layout, Rng};

    /// A random integer layout: up to 3 modes, each a leaf or a pair.
    fn layout(r: &mut Rng, max_s: u64, strides: &[i64]) -> Layout {
        random_layout(r, 4, 3, |r| {
            let s = 1 + r.next(max_s) as i64;
            (
                s,
                Scalar::Int(strides[r.next(strides.len() as u64) as usize]),
            )
        })
    }

    const STRIDES: &[i64] = &[0, 1, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, -1, -2, 5, 7];

    /// The in-place zip on layouts whose ranks take the wide node encoding
    /// (254 modes or more), for A and for the tiler: the same layout as
    /// the division by `tiler_to_layout(B)`.
    #[test]
    fn zipped_divide_wide_ranks() {
        use crate::Tiler;
        let n = 300;
        let mut s = vec![1i64; n];
        let mut d = vec![Scalar::Int(0); n];
        (s[0], s[1], d[0], d[1]) = (4, 6, Scalar::Int(1), Scalar::Int(4));
        let a = Layout::new(HTuple::flat(s), HTuple::flat(d)).unwrap();
        for k in [2, 260] {
            let mut ts: Vec<Tiler> = vec![TilerRef::Int(1); k];
            (ts[0], ts[1]) = (TilerRef::Int(2), TilerRef::Int(3));
            let mut f = Layout::blank();
            zip_modes_into(&a, &ts, &mut f).unwrap();
            let g = zipped_divide_general(&a, &TilerRef::Tuple(ts.into())).unwrap();
            assert_eq!(f, g, "k = {k}");
            assert_eq!(f.rank(), 2);
            assert_eq!(f.shape().as_ref().mode(0).unwrap().rank(), k);
            assert_eq!(f.shape().as_ref().mode(1).unwrap().rank(), n);
        }
    }

    /// The mode-by-mode zipped_divide agrees with dividing by
    /// `tiler_to_layout(B)` wherever it answers.
    #[test]
    fn zipped_divide_matches_general() {
        use crate::Tiler;
        let mut r = Rng(23);
        let (mut fast, mut ok) = (0, 0);
        for _ in 0..100_000 {
            let a = layout(&mut r, 12, STRIDES);
            if a.is_leaf() || a.rank() < 2 {
                continue;
            }
            let k = 2 + r.next(a.rank() as u64 - 1) as usize;
            let ts: Vec<Tiler> = (0..k)
                .map(|_| match r.next(3) {
                    0 => TilerRef::Layout(layout(&mut r, 6, STRIDES)),
                    _ => TilerRef::Int(r.next(9) as i64 - 1),
                })
                .collect();
            let b = TilerRef::Tuple(ts.into());
            let g = zipped_divide_general(&a, &b);
            if g.is_ok() {
                ok += 1;
            }
            let TilerRef::Tuple(ts) = &b else {
                unreachable!()
            };
            let mut f = Layout::blank();
            if zip_modes_into(&a, ts, &mut f).is_ok() {
                fast += 1;
                assert_eq!(g.as_ref().ok(), Some(&f), "zipped_divide({a}, {b})");
            }
        }
        assert!(fast > 10_000 && fast > ok / 2, "{fast} of {ok}");
    }
}
