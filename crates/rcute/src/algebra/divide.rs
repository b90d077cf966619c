//! logical, zipped, tiled and flat divide (`docs/operations.md`).
//!
//! `A ⊘ B = A ∘ (B, B*)`: mode 0 of the result is the tile (the elements of
//! A that B selects), mode 1 the layout of the tiles, B's complement grown to
//! cover A. rcute extends the complement to `size(A)` along each codomain
//! axis, as the whitepaper and C++ CuTe do (section 21, item 2).

use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, MAX_DEPTH};
use crate::layout::Layout;
use crate::stride::Scalar;
use crate::tiler::tiler_to_layout;
use crate::tiler::{Tiler, TilerRef};

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
    divide_at(a, b, 0)
}

/// [`logical_divide`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn logical_divide_into(a: &Layout, b: &TilerRef<'_>, out: &mut Layout) -> Result<()> {
    let done = match b {
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => {
            super::fast::logical_divide_into(a, l, out).is_some()
        }
        TilerRef::Int(n) if *n > 0 => {
            super::fast::logical_divide_into(a, &Layout::leaf(*n, Scalar::Int(1)), out).is_some()
        }
        TilerRef::Tuple(ts) => super::fast::logical_divide_modes_into(a, ts, out).is_some(),
        _ => false,
    };
    if !done {
        *out = logical_divide(a, b)?;
    }
    Ok(())
}

fn divide_at(a: &Layout, b: &TilerRef<'_>, depth: usize) -> Result<Layout> {
    if depth > MAX_DEPTH {
        return Err(Error::value("logical_divide: tiler nested too deeply"));
    }
    match b {
        TilerRef::None => Ok(a.clone()),
        TilerRef::Int(n) => divide_core(a, &int_tiler(*n, "logical_divide")?),
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => divide_core(a, l),
        TilerRef::Tuple(ts) => by_mode(a, ts, "logical_divide", |m, t| divide_at(m, t, depth + 1)),
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

/// The by-mode rule of the tiler dispatch (`docs/language.md`, "Tilers"):
/// `make_layout(op(A_i, B_i))` with `B_i = None` past the tuple's end.
pub(crate) fn by_mode(
    a: &Layout,
    ts: &[TilerRef<'_>],
    op_name: &str,
    mut op: impl FnMut(&Layout, &TilerRef<'_>) -> Result<Layout>,
) -> Result<Layout> {
    if a.rank() < ts.len() {
        return Err(Error::rank(format!(
            "{op_name}: Rank mismatch: the tiler {} has {} modes but {a} has rank {}",
            TilerRef::Tuple(ts.to_vec()),
            ts.len(),
            a.rank()
        )));
    }
    Layout::try_concat(a.modes().enumerate().map(|(i, m)| match ts.get(i) {
        Some(t) => op(&m, t),
        None => Ok(m),
    }))
}

fn divide_core(a: &Layout, b: &Layout) -> Result<Layout> {
    if let Some(r) = super::fast::logical_divide(a, b) {
        return Ok(r);
    }
    divide_core_general(a, b)
}

/// [`divide_core`] without the integer fast path.
pub(crate) fn divide_core_general(a: &Layout, b: &Layout) -> Result<Layout> {
    let profile = super::coprofile(b)?;
    if a.is_leaf() && !profile.is_leaf() {
        // a leaf-shaped A against a coordinate tiler is the rank-1 tuple
        // `(A,)`, as C++ CuTe treats an integer shape (`zipped_divide(12:1,
        // (12,))` is `((12,), (1,)):((1,), (12,))`)
        let wrapped = Layout::from_parts(a.shape().wrap(), a.stride().wrap());
        return divide_core_general(&wrapped, b);
    }
    let ext = extent(a, profile.as_ref(), 0)?;
    let c = super::complement(b, Some(ext.as_ref()))?;
    let bc = Layout::concat_pair(b, &c);
    super::composition::composition_layout(a, &bc)
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
/// let b = Tiler::Tuple(vec![Tiler::Int(3), Tiler::None]);
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
/// let t = Tiler::Tuple(vec![Tiler::Int(3), Tiler::Int(5)]);
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
/// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)]);
/// assert_eq!(zipped_divide(&a, &b).unwrap().to_string(), "((4, 8), (2, 3)):((1, 8), (4, 64))");
/// assert!(zipped_divide(&a, &Tiler::Tuple(vec![Tiler::Int(4), Tiler::None])).is_err());
/// ```
pub fn zipped_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    if let Some(r) = super::fast::zipped_divide(a, b) {
        return Ok(r);
    }
    zipped_divide_general(a, b)
}

/// [`zipped_divide`] written into `out`, reusing its storage (as
/// [`logical_divide_into`]). On an error `out` holds an unspecified layout.
pub(crate) fn zipped_divide_into(a: &Layout, b: &TilerRef<'_>, out: &mut Layout) -> Result<()> {
    if super::fast::zipped_divide_into(a, b, out).is_none() {
        *out = zipped_divide_general(a, b)?;
    }
    Ok(())
}

/// [`zipped_divide`] without the mode-by-mode integer fast path.
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

/// `unpack(M)` (`docs/operations.md`): the modes of `M` when it has a
/// tuple shape of rank at least 2, otherwise `[M]`.
pub(crate) fn unpack(m: Layout) -> Vec<Layout> {
    if !m.is_leaf() && m.rank() >= 2 {
        m.modes().collect()
    } else {
        vec![m]
    }
}

/// The two modes of a rank-2 result.
pub(crate) fn two_modes(z: &Layout, op: &str) -> Result<(Layout, Layout)> {
    if z.is_leaf() || z.rank() != 2 {
        return Err(Error::rank(format!(
            "{op}: expected a rank-2 layout, got {z}"
        )));
    }
    Ok((z.mode(0)?, z.mode(1)?))
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
/// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)]);
/// assert_eq!(tiled_divide(&a, &b).unwrap().to_string(), "((4, 8), 2, 3):((1, 8), 4, 64)");
/// assert!(tiled_divide(&a, &Tiler::None).is_err());
/// ```
pub fn tiled_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    leaf_by_tuple(a, b, "tiled_divide")?;
    let z = zipped_divide(a, b)?;
    let (z0, z1) = two_modes(&z, "tiled_divide")?;
    let mut modes = vec![z0];
    modes.extend(unpack(z1));
    Layout::concat(modes)
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
/// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)]);
/// assert_eq!(flat_divide(&a, &b).unwrap().to_string(), "(4, 8, 2, 3):(1, 8, 4, 64)");
/// assert!(flat_divide(&a, &Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8), Tiler::Int(2)])).is_err());
/// ```
pub fn flat_divide(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    leaf_by_tuple(a, b, "flat_divide")?;
    let z = zipped_divide(a, b)?;
    let (z0, z1) = two_modes(&z, "flat_divide")?;
    let mut modes = unpack(z0);
    modes.extend(unpack(z1));
    Layout::concat(modes)
}
