//! Mode manipulation and tiling helpers named after C++ CuTe: `append`,
//! `prepend`, `group`, `tile_unzip`, `tile_to_shape` and
//! `domain_distribute`.
//!
//! A leaf-shaped layout counts as a rank-1 layout here, as C++ treats an
//! integer shape (`append(8:1, 4:8)` is `(8, 4):(1, 8)`).

use crate::error::{Error, Result};
use crate::htuple::{HRef, HTuple, MAX_DEPTH};
use crate::layout::Layout;
use crate::stride::Scalar;
use crate::tiler::TilerRef;

/// The top-level modes of `l` (a leaf-shaped layout is its one mode).
fn mode_list(l: &Layout) -> Vec<Layout> {
    l.modes().collect()
}

/// `append(L, x)` / `append<n>(L, x)` (C++ CuTe `append`): `L` with the
/// layout `x` added as a last mode; with `n`, `x` is added as many times as
/// it takes to reach rank `n` (`n` equal to the rank returns `L` as a
/// tuple). The result always has a tuple shape.
///
/// Errors: `rank` when `n` is below the rank of `L`; `value` when `n`
/// exceeds 65536.
///
/// ```
/// use rcute::{algebra::modes::append, HTuple, Layout, Scalar};
/// let l = Layout::column_major(HTuple::flat([8i64, 2])).unwrap();
/// let x = Layout::leaf(4, Scalar::Int(16));
/// // C++: append(make_layout(make_shape(8,2)), make_layout(4,16))
/// assert_eq!(append(&l, &x, None).unwrap().to_string(), "(8, 2, 4):(1, 8, 16)");
/// // C++: append<3>(make_layout(make_shape(8,2)))  (x = Layout<_1,_0>)
/// let one = Layout::leaf(1, Scalar::Int(0));
/// assert_eq!(append(&l, &one, Some(3)).unwrap().to_string(), "(8, 2, 1):(1, 8, 0)");
/// ```
pub fn append(l: &Layout, x: &Layout, n: Option<usize>) -> Result<Layout> {
    let mut modes = mode_list(l);
    let pad = pad_count(modes.len(), n, "append")?;
    modes.extend(std::iter::repeat_n(x.clone(), pad));
    Ok(Layout::concat_allow_empty(modes))
}

/// `prepend(L, x)` / `prepend<n>(L, x)` (C++ CuTe `prepend`): as
/// [`append`], with `x` added in front.
///
/// Errors: those of [`append`].
///
/// ```
/// use rcute::{algebra::modes::prepend, Layout, Scalar};
/// let l = Layout::leaf(8, Scalar::Int(1));
/// let one = Layout::leaf(1, Scalar::Int(0));
/// // C++: prepend<3>(make_layout(8,1)) = (_1,_1,8):(_0,_0,1)
/// assert_eq!(prepend(&l, &one, Some(3)).unwrap().to_string(), "(1, 1, 8):(0, 0, 1)");
/// ```
pub fn prepend(l: &Layout, x: &Layout, n: Option<usize>) -> Result<Layout> {
    let modes = mode_list(l);
    let pad = pad_count(modes.len(), n, "prepend")?;
    let mut out: Vec<Layout> = std::iter::repeat_n(x.clone(), pad).collect();
    out.extend(modes);
    Ok(Layout::concat_allow_empty(out))
}

/// The largest rank `append`/`prepend` pad to.
pub const MAX_PAD_RANK: usize = 1 << 16;

/// The number of copies of `x` that `append`/`prepend` add to `rank` modes.
pub(crate) fn pad_count(rank: usize, n: Option<usize>, op: &str) -> Result<usize> {
    match n {
        None => Ok(1),
        Some(n) if n > MAX_PAD_RANK => Err(Error::value(format!(
            "{op}: the rank {n} is too large (at most {MAX_PAD_RANK})"
        ))),
        Some(n) if n < rank => Err(Error::rank(format!(
            "{op}: the target rank {n} is below the rank {rank}"
        ))),
        Some(n) => Ok(n - rank),
    }
}

/// `group<b, e>(L)` (C++ CuTe `group`): the modes `b .. e-1` of `L` made
/// into one mode, the other modes kept; `b == e` returns `L` (as a tuple).
///
/// Errors: `bounds` unless `0 <= b <= e <= rank(L)`.
///
/// ```
/// use rcute::{algebra::modes::group, HTuple, Layout};
/// let l = Layout::column_major(HTuple::flat([2i64, 3, 4, 5])).unwrap();
/// // C++: group<1,3>(make_layout(make_shape(2,3,4,5)))
/// assert_eq!(group(&l, 1, 3).unwrap().to_string(), "(2, (3, 4), 5):(1, (2, 6), 24)");
/// ```
pub fn group(l: &Layout, b: usize, e: usize) -> Result<Layout> {
    let modes = mode_list(l);
    if b > e || e > modes.len() {
        return Err(Error::bounds(format!(
            "group: the range ({b}, {e}) is not inside the rank {} of {l}",
            modes.len()
        )));
    }
    if b == e {
        return Ok(Layout::concat_allow_empty(modes));
    }
    let mut out: Vec<Layout> = modes[..b].to_vec();
    out.push(Layout::concat_allow_empty(modes[b..e].iter().cloned()));
    out.extend(modes[e..].iter().cloned());
    Ok(Layout::concat_allow_empty(out))
}

/// `tile_unzip(L, tiler)` (C++ CuTe `tile_unzip`): the guided zip that turns
/// a logical divide or product into its zipped form. Each leaf of the tiler
/// (an integer, a layout or `None`) selects a rank-2 mode `(t, r)` of `L`;
/// the result is `((t_0, t_1, ...), (r_0, r_1, ..., rest...))` where `rest`
/// are the modes of `L` beyond a tuple tiler. `tile_unzip(logical_divide(A,
/// T), T)` is C++'s `zipped_divide(A, T)`.
///
/// Errors: `rank` when a mode the tiler selects is not rank-2, or a tuple
/// tiler is longer than the (sub-)layout it guides.
///
/// ```
/// use rcute::{algebra::{logical_divide, modes::tile_unzip}, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::flat([12i64, 32, 5])).unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
/// let d = logical_divide(&a, &t).unwrap();
/// // C++: tile_unzip(logical_divide(A, make_tile(4,8)), make_tile(4,8))
/// assert_eq!(tile_unzip(&d, &t).unwrap().to_string(),
///            "((4, 8), (3, 4, 5)):((1, 12), (4, 96, 384))");
/// ```
pub fn tile_unzip(l: &Layout, tiler: &TilerRef<'_>) -> Result<Layout> {
    let (t, r) = zip2(l, tiler, 0)?;
    Ok(Layout::concat_allow_empty([t, r]))
}

fn zip2(l: &Layout, g: &TilerRef<'_>, depth: usize) -> Result<(Layout, Layout)> {
    if depth > MAX_DEPTH {
        return Err(Error::value("tile_unzip: tiler nested too deeply"));
    }
    match g {
        TilerRef::Tuple(gs) => {
            if l.is_leaf() || l.rank() < gs.len() {
                return Err(Error::rank(format!(
                    "tile_unzip: the tiler {g} has {} modes, more than {l}",
                    gs.len()
                )));
            }
            let modes = mode_list(l);
            let mut first = Vec::with_capacity(gs.len());
            let mut second = Vec::with_capacity(modes.len());
            for (m, gi) in modes.iter().zip(gs) {
                let (t, r) = zip2(m, gi, depth + 1)?;
                first.push(t);
                second.push(r);
            }
            second.extend(modes[gs.len()..].iter().cloned());
            Ok((
                Layout::concat_allow_empty(first),
                Layout::concat_allow_empty(second),
            ))
        }
        _ => {
            if l.is_leaf() || l.rank() != 2 {
                return Err(Error::rank(format!(
                    "tile_unzip: the mode {l} that the tiler {g} selects is not rank-2"
                )));
            }
            Ok((l.mode(0)?, l.mode(1)?))
        }
    }
}

/// `tile_to_shape(block, target, order)` (C++ CuTe `tile_to_shape`): the
/// block repeated to fill `target`. The block is padded with `1:0` modes to
/// the rank of `target` (a leaf target has rank 1); with `P_i =
/// size(target_i) / size(block_i)` the result is `blocked_product(block,
/// make_ordered_layout(P, order))` (column-major `P` when `order` is
/// `None`), so mode `i` of the result has the size of `target_i`.
///
/// Errors: `rank` when the block has more modes than `target`;
/// `divisibility` when a block mode's size does not divide the target's
/// (C++ rejects it at compile time for static shapes and rounds up for
/// dynamic ones); `congruence` for an `order` not congruent to `P`; those
/// of `blocked_product`.
///
/// ```
/// use rcute::{algebra::modes::tile_to_shape, HTuple, Layout};
/// let block = Layout::row_major(HTuple::flat([8i64, 8])).unwrap();
/// let t = HTuple::flat([32i64, 64]);
/// // C++: tile_to_shape(Layout<Shape<_8,_8>,Stride<_8,_1>>{}, Shape<_32,_64>{})
/// assert_eq!(tile_to_shape(&block, t.as_ref(), None).unwrap().to_string(),
///            "((8, 4), (8, 8)):((8, 64), (1, 256))");
/// // C++: ... with Step<_2,_1>{}: the block repeats along mode 1 first
/// let o = HTuple::flat([2i64, 1]);
/// assert_eq!(tile_to_shape(&block, t.as_ref(), Some(o.as_ref())).unwrap().to_string(),
///            "((8, 4), (8, 8)):((8, 512), (1, 64))");
/// ```
pub fn tile_to_shape(
    block: &Layout,
    target: HRef<'_, i64>,
    order: Option<HRef<'_, i64>>,
) -> Result<Layout> {
    let r = if target.is_leaf() { 1 } else { target.rank() };
    let mut modes = mode_list(block);
    if modes.len() > r {
        return Err(Error::rank(format!(
            "tile_to_shape: the block {block} has more modes than the target shape {target}"
        )));
    }
    modes.resize(r, Layout::leaf(1, Scalar::Int(0)));
    let mut reps = Vec::with_capacity(r);
    for (i, m) in modes.iter().enumerate() {
        let want = if target.is_leaf() {
            crate::shape::size(target)?
        } else {
            crate::shape::size(target.mode(i).ok_or_else(|| Error::rank("tile_to_shape"))?)?
        };
        let have = m.size()?;
        if have <= 0 || want % have != 0 {
            return Err(Error::divisibility(format!(
                "tile_to_shape: the block mode {m} (size {have}) does not divide the target \
                 extent {want} of {target}"
            )));
        }
        reps.push(want / have);
    }
    let (padded, p) = if target.is_leaf() && block.is_leaf() {
        (block.clone(), HTuple::leaf(reps[0]))
    } else {
        (Layout::concat_allow_empty(modes), HTuple::flat(reps))
    };
    let tiles = match order {
        None => Layout::column_major(p)?,
        Some(o) => super::make_ordered_layout(p.as_ref(), o)?,
    };
    super::blocked_product(&padded, &TilerRef::Layout(tiles))
}

/// `domain_distribute(shape, n)` (C++ CuTe `domain_distribute`): a layout
/// of size dividing `n` that picks elements of the column-major domain of
/// `shape` in increasing order: leaf by leaf, `g_i = gcd(s_i, rest)` of the
/// remaining `rest` of `n`, with the column-major strides of the flattened
/// shape, coalesced (a result of size 1 is `1:0`). It is the tile to
/// `zipped_divide` by when `n` does not divide the shape's modes.
///
/// Errors: `value` for `n <= 0` or a shape without leaves; `overflow`.
///
/// ```
/// use rcute::{algebra::modes::domain_distribute, HTuple};
/// // C++: domain_distribute(Shape<_15,_14>{}, Int<6>{}) = (_3,_2):(_1,_15)
/// let s = HTuple::flat([15i64, 14]);
/// assert_eq!(domain_distribute(s.as_ref(), 6).unwrap().to_string(), "(3, 2):(1, 15)");
/// ```
pub fn domain_distribute(shape: HRef<'_, i64>, n: i64) -> Result<Layout> {
    if n <= 0 {
        return Err(Error::value(format!(
            "domain_distribute: the count {n} must be positive"
        )));
    }
    let flat = shape.leaves();
    if flat.is_empty() {
        return Err(Error::value(format!(
            "domain_distribute: the shape {shape} has no leaves"
        )));
    }
    let mut rest = n;
    let mut s = Vec::with_capacity(flat.len());
    let mut d = Vec::with_capacity(flat.len());
    let mut pp: i64 = 1;
    for &e in flat {
        if e <= 0 {
            return Err(Error::value(format!(
                "domain_distribute: the shape {shape} has the non-positive extent {e}"
            )));
        }
        let g = crate::int::gcd(e, rest);
        s.push(g);
        d.push(Scalar::Int(pp));
        rest /= g;
        pp = crate::int::mul(pp, e)?;
    }
    let l = Layout::new(HTuple::flat(s), HTuple::flat(d))?;
    let c = super::coalesce(&l)?;
    if c.size()? == 1 {
        return Ok(Layout::leaf(1, Scalar::Int(0)));
    }
    Ok(c)
}

/// `idx2crd(idx, S, D)` (C++ CuTe's three-argument `idx2crd`): the
/// coordinate of `idx` in the shape `S` with the strides `D`, each leaf
/// `(idx / d) % s` (C++'s truncating `/` and `%`; `0` for an extent 1).
/// Unlike the two-argument [`idx2crd`](crate::shape::idx2crd), every leaf is reduced, the last one
/// too, and each mode reads the whole index: the strides say where a mode's
/// digits are. A tuple `idx` gives each mode its own index (ranks must
/// match). `D` may be weakly congruent to `S`: an integer stride for a
/// sub-shape is that sub-shape's first stride, continued column-major (as
/// `Layout(S, D)` expands it). `None` leaves of `idx` give zeros.
///
/// Errors: `value` for a non-positive extent in `S` or a stride 0 on an
/// extent above 1; `rank` for a tuple index against a leaf shape or a
/// length mismatch; `type` for a non-integer index or stride; those of
/// `Layout(S, D)` (`congruence`).
///
/// ```
/// use rcute::{HTuple, Scalar, algebra::modes::idx2crd_strided};
/// let s = HTuple::flat([3i64, 8]);
/// let d = HTuple::flat([Scalar::Int(8), Scalar::Int(1)]);
/// let i = HTuple::leaf(Some(Scalar::Int(7)));
/// // C++: idx2crd(7, make_shape(3,8), make_stride(8,1)) = (0,7)
/// assert_eq!(idx2crd_strided(i.as_ref(), s.as_ref(), d.as_ref()).unwrap().to_string(), "(0, 7)");
/// ```
pub fn idx2crd_strided(
    idx: HRef<'_, Option<Scalar>>,
    s: HRef<'_, i64>,
    d: HRef<'_, Scalar>,
) -> Result<HTuple<Scalar>> {
    let l = Layout::with_stride(s.to_owned(), d)?;
    let mut b = crate::htuple::Builder::new();
    strided_rec(idx, l.shape().as_ref(), l.stride(), &mut b, 0)?;
    Ok(b.finish())
}

fn strided_rec(
    c: HRef<'_, Option<Scalar>>,
    s: HRef<'_, i64>,
    d: HRef<'_, Scalar>,
    b: &mut crate::htuple::Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("idx2crd: nesting too deep"));
    }
    match c.as_leaf() {
        None => {
            if s.is_leaf() || c.rank() != s.rank() {
                return Err(Error::rank(format!(
                    "idx2crd: the index {} does not match the modes of the shape {s}",
                    crate::shape::DisplayCoord(c)
                )));
            }
            b.open();
            for (cm, (sm, dm)) in c.modes().zip(s.modes_with(d.leaves())) {
                strided_rec(cm, sm, dm, b, depth + 1)?;
            }
            b.close();
            Ok(())
        }
        Some(None) => {
            b.push_with_profile(s, std::iter::repeat_n(Scalar::Int(0), s.num_leaves()));
            Ok(())
        }
        Some(Some(Scalar::Int(i))) => {
            let i = *i;
            if !s.is_leaf() {
                b.open();
                for (sm, dm) in s.modes_with(d.leaves()) {
                    let leaf = HTuple::leaf(Some(Scalar::Int(i)));
                    strided_rec(leaf.as_ref(), sm, dm, b, depth + 1)?;
                }
                b.close();
                return Ok(());
            }
            let (&e, dv) = match (s.as_leaf(), d.as_leaf()) {
                (Some(e), Some(dv)) => (e, dv),
                _ => return Err(Error::rank(format!("idx2crd: shape {s} and stride {d}"))),
            };
            if e == 1 {
                b.leaf(Scalar::Int(0));
                return Ok(());
            }
            let dv = match dv {
                Scalar::Int(v) => *v,
                other => {
                    return Err(Error::type_(format!(
                        "idx2crd: the stride {other} is not an integer"
                    )))
                }
            };
            if dv == 0 {
                return Err(Error::value(format!(
                    "idx2crd: the stride 0 on the extent {e} gives no index a coordinate there"
                )));
            }
            let q = i
                .checked_div(dv)
                .ok_or_else(|| Error::overflow(format!("idx2crd: {i} / {dv} overflows")))?;
            b.leaf(Scalar::Int(q % e));
            Ok(())
        }
        Some(Some(other)) => Err(Error::type_(format!(
            "idx2crd: the index {other} is not an integer"
        ))),
    }
}

/// `crd2idx(c, S, D)` (C++ CuTe's three-argument `crd2idx`): the offset of
/// the coordinate `c` in the layout `S:D`, i.e. `Layout(S, D)(c)`: a
/// natural or flat coordinate is the inner product with the strides, an
/// integer is first split colexicographically over `S` (the last mode
/// taking any overflow). `D` may be weakly congruent to `S` as in
/// `Layout(S, D)`; the result is an integer or, for coordinate strides, a
/// coordinate value.
///
/// Errors: those of `Layout(S, D)` (`value` for a non-positive extent,
/// `congruence`) and of evaluating it (`rank`).
///
/// ```
/// use rcute::{HTuple, Scalar, algebra::modes::crd2idx_strided};
/// let s = HTuple::flat([3i64, 8]);
/// let d = HTuple::flat([Scalar::Int(8), Scalar::Int(1)]);
/// let c = HTuple::flat([Some(Scalar::Int(1)), Some(Scalar::Int(2))]);
/// // C++: crd2idx(make_coord(1,2), make_shape(3,8), make_stride(8,1)) = 10
/// assert_eq!(crd2idx_strided(c.as_ref(), s.as_ref(), d.as_ref()).unwrap(), Scalar::Int(10));
/// ```
pub fn crd2idx_strided(
    c: HRef<'_, Option<Scalar>>,
    s: HRef<'_, i64>,
    d: HRef<'_, Scalar>,
) -> Result<Scalar> {
    Layout::with_stride(s.to_owned(), d)?.eval(c)
}
