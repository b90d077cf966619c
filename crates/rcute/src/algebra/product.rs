//! logical, zipped, tiled, flat, blocked and raked products (
//! `docs/operations.md`).
//!
//! `A ⊗ B = (A, A* ∘ B)`: mode 0 is A itself, mode 1 is B with every element
//! replaced by a distinct repetition of A (A* the minimal complement of A,
//! whose trailing extension mode composition extends as far as B needs).

use crate::tiler::TilerRef;
use std::borrow::Cow;

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::htuple::{push_rank, Leaves, Nodes, MAX_DEPTH};
use crate::layout::{Layout, View};
use crate::stride::Scalar;

use super::composition::by_mode_append;
use super::composition::{layout_core_append, positive, AOperand, Parts};
use super::divide::{int_tiler, rank_fits, regroup};

/// `logical_product(A, B)` (`docs/operations.md`; C++ CuTe
/// `logical_product`).
///
/// Takes a layout `A` and a tiler `B`: `None` returns `A`; an integer `n`
/// means `n:1`; a tuple goes by mode (modes of A past the tuple are kept);
/// a layout gives the rank-2 layout
/// `make_layout(A, composition(complement(A), B))` with the **minimal**
/// complement.
///
/// Post-conditions for a layout B: `rank(R) = 2`, `R[0] == A`,
/// `compatible(B, R[1])`.
///
/// Errors: `rank` when a tuple tiler is longer than A's rank; `value` for a
/// non-positive integer tiler; those of `complement` on A (`injectivity`,
/// `type` for F2 or multi-term strides) and of `composition`
/// (`divisibility`, `rank` for a coordinate B against an integer
/// complement, `value` for B = `():()`).
///
/// ```
/// use rcute::{algebra::logical_product, HTuple, Layout, Scalar, Tiler};
/// let a = Layout::column_major(HTuple::leaf(4)).unwrap();
/// let b = Layout::new(HTuple::leaf(3), HTuple::leaf(Scalar::Int(5))).unwrap();
/// assert_eq!(logical_product(&a, &Tiler::Layout(b)).unwrap().to_string(), "(4, 3):(1, 20)");
/// assert_eq!(logical_product(&a, &Tiler::None).unwrap(), a);
/// ```
pub fn logical_product(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let mut out = Layout::blank();
    logical_product_into(a, b, &mut out)?;
    Ok(out)
}

/// [`logical_product`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot). On an error `out` holds
/// an unspecified layout.
pub(crate) fn logical_product_into(a: &Layout, b: &TilerRef<'_>, out: &mut Layout) -> Result<()> {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    product_append(a, b, 0, nodes, sh, st)?;
    Ok(())
}

/// [`blocked_product`] (`raked` false) or [`raked_product`] (`raked` true)
/// written into `out`, reusing its storage. On an error `out` holds an
/// unspecified layout.
pub(crate) fn blocked_raked_into(
    a: &Layout,
    b: &TilerRef<'_>,
    raked: bool,
    out: &mut Layout,
) -> Result<()> {
    let op = if raked {
        "raked_product"
    } else {
        "blocked_product"
    };
    let b = match b {
        TilerRef::None => {
            return Err(Error::type_(format!(
                "{op}({a}, None): the tiler must be a layout, an integer or a tuple"
            )))
        }
        TilerRef::Tuple(ts) => {
            // the reference's by-mode form: the first two modes of the
            // by-mode logical product are paired
            if ts.len() != a.rank() {
                return Err(Error::rank(format!(
                    "{op}: Rank mismatch: the tiler {b} has {} modes but {a} has rank {}",
                    ts.len(),
                    a.rank()
                )));
            }
            let r = logical_product(a, b)?;
            if r.is_leaf() || r.rank() < 2 {
                return Err(Error::rank(format!(
                    "{op}({a}, {b}): the by-mode product {r} has fewer than two modes"
                )));
            }
            return pair_halves_into(&r.mode(0)?, &r.mode(1)?, raked, out);
        }
        TilerRef::Int(n) => Cow::Owned(int_tiler(*n, op)?),
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => Cow::Borrowed(l),
    };
    blocked_raked_layout_into(a, &b, raked, out)
}

/// The tiler dispatch of [`logical_product`] on A (a layout or a mode of
/// one), appended to a layout under construction.
fn product_append(
    a: &Layout,
    b: &TilerRef<'_>,
    depth: usize,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("logical_product: tiler nested too deeply"));
    }
    let b = match b {
        TilerRef::None => {
            View::of(a).push_into(nodes, sh, st);
            return Ok(());
        }
        TilerRef::Tuple(ts) => {
            rank_fits(View::of(a), ts, "logical_product")?;
            return by_mode_append(View::of(a), ts, nodes, sh, st, &mut |m, t, n, s, d| {
                product_append(&m.layout(), t, depth + 1, n, s, d)
            });
        }
        TilerRef::Int(n) => Cow::Owned(int_tiler(*n, "logical_product")?),
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => Cow::Borrowed(l),
    };
    // the core `(A, complement(A) ∘ B)`: A's view, then the tail
    nodes.push(2);
    View::of(a).push_into(nodes, sh, st);
    tail_append(a, &b, nodes, sh, st)
}

/// `complement(A) ∘ B`, the second mode of the product, built in `out`.
fn product_tail_into(a: &Layout, b: &Layout, out: &mut Layout) -> Result<()> {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    tail_append(a, b, nodes, sh, st)?;
    Ok(())
}

/// `complement(A) ∘ B` appended to a layout under construction: the
/// complement, then the composition.
fn tail_append(
    a: &Layout,
    b: &Layout,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Result<()> {
    let l0 = sh.len();
    // integer strides: the complement's modes as a list, not a layout
    let int = super::complement::int_complement_then(a, None, |modes| {
        let modes = match modes {
            [] => &[(1, 0)],
            m => m,
        };
        layout_core_append(AOperand::Modes(modes), b, true, nodes, sh, st)?;
        if sh[l0..].iter().any(|&e| e <= 0) {
            return positive(&AOperand::Modes(modes), b, &sh[l0..]);
        }
        Ok(())
    })?;
    if int.is_some() {
        return Ok(());
    }
    let mut c = Layout::blank();
    super::complement::complement_into(a, None, &mut c)?;
    layout_core_append(AOperand::View(View::of(&c)), b, true, nodes, sh, st)?;
    positive(&c, b, &sh[l0..])
}

/// `zip2_by(L, G)` (`docs/operations.md`): regroups the by-mode pairs of
/// `L` guided by the tiler `G` into `((M, N, ...), (TileM, TileN, ..., L...))`,
/// read from views of `L`'s modes: each level writes its first half into
/// one list of parts and its second half into another (a level's halves
/// are contiguous in each), joined at the end.
fn zip2_by(l: &Layout, g: &TilerRef<'_>) -> Result<Layout> {
    let mut first = Layout::blank();
    let mut second = Layout::blank();
    {
        let ((n1, s1), d1) = first.raw_mut();
        let ((n2, s2), d2) = second.raw_mut();
        zip2_by_into(View::of(l), g, 0, (n1, s1, d1), (n2, s2, d2))?;
    }
    let mut out = Layout::blank();
    let ((nodes, sh), st) = out.raw_mut();
    let ((n1, s1), d1) = first.raw_mut();
    let ((n2, s2), d2) = second.raw_mut();
    nodes.push(2);
    nodes.extend_from_slice(n1);
    nodes.extend_from_slice(n2);
    sh.extend_from_slice(s1);
    sh.extend_from_slice(s2);
    st.extend(d1.drain(..));
    st.extend(d2.drain(..));
    Ok(out)
}

/// One level of [`zip2_by`]: the halves of the layout `l` guided by `g`
/// appended to `first` and `second`.
fn zip2_by_into(
    l: View<'_>,
    g: &TilerRef<'_>,
    depth: usize,
    first: Parts<'_>,
    second: Parts<'_>,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("zip2_by: tiler nested too deeply"));
    }
    let (n1, s1, d1) = first;
    let (n2, s2, d2) = second;
    match g {
        TilerRef::Tuple(gs) => {
            let rank = l.s.rank();
            if rank < gs.len() {
                return Err(Error::rank(format!(
                    "zip2_by: Rank mismatch: {l} has {rank} modes, the tiler {g} has {}",
                    gs.len()
                )));
            }
            if gs.is_empty() {
                return Err(Error::value("make_layout: empty concatenation"));
            }
            push_rank(n1, gs.len());
            push_rank(n2, rank);
            let mut modes = l.modes();
            for gi in gs.iter() {
                let Some(m) = modes.next() else {
                    break;
                };
                zip2_by_into(
                    m,
                    gi,
                    depth + 1,
                    (&mut *n1, &mut *s1, &mut *d1),
                    (&mut *n2, &mut *s2, &mut *d2),
                )?;
            }
            for m in modes {
                m.push_into(n2, s2, d2);
            }
        }
        _ => {
            let Some((m0, m1)) = super::divide::pair(l) else {
                return Err(Error::rank(format!(
                    "zip2_by: expected a rank-2 layout, got {l}"
                )));
            };
            m0.push_into(n1, s1, d1);
            m1.push_into(n2, s2, d2);
        }
    }
    Ok(())
}

/// `zipped_product(A, B) = zip2_by(logical_product(A, B), B)` (
/// `docs/operations.md`; C++ CuTe `zipped_product`, not in PyCuTe): the rank-2 layout
/// `((M, N, ...), (TileM, TileN, ..., L...))`.
///
/// Errors: those of `logical_product`; `rank` when a mode paired by the
/// tiler is not rank 2 (a `None` element over a mode that is not itself
/// rank 2).
///
/// ```
/// use rcute::{algebra::zipped_product, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::leaf(4)).unwrap();
/// assert_eq!(zipped_product(&a, &Tiler::Int(3)).unwrap().to_string(), "(4, 3):(1, 4)");
/// assert!(zipped_product(&a, &Tiler::None).is_err());
/// ```
pub fn zipped_product(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let r = logical_product(a, b)?;
    zip2_by(&r, b)
}

/// `tiled_product(A, B)` (`docs/operations.md`; C++ CuTe
/// `tiled_product`): with `Z = zipped_product(A, B)`,
/// `make_layout([Z[0]] + unpack(Z[1]))`.
///
/// Errors: those of `zipped_product`.
///
/// ```
/// use rcute::{algebra::tiled_product, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::leaf(4)).unwrap();
/// assert_eq!(tiled_product(&a, &Tiler::Int(3)).unwrap().to_string(), "(4, 3):(1, 4)");
/// assert!(tiled_product(&a, &Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2)].into())).is_err());
/// ```
pub fn tiled_product(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let z = zipped_product(a, b)?;
    regroup(&z, false, "tiled_product")
}

/// `flat_product(A, B)` (`docs/operations.md`; C++ CuTe `flat_product`):
/// with `Z = zipped_product(A, B)`, `make_layout(unpack(Z[0]) + unpack(Z[1]))`.
///
/// Errors: those of `zipped_product`.
///
/// ```
/// use rcute::{algebra::flat_product, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::leaf(4)).unwrap();
/// let b = Layout::column_major(HTuple::flat([3, 2])).unwrap();
/// assert_eq!(flat_product(&a, &Tiler::Layout(b)).unwrap().to_string(), "(4, 3, 2):(1, 4, 12)");
/// assert!(flat_product(&a, &Tiler::Int(0)).is_err());
/// ```
pub fn flat_product(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    let z = zipped_product(a, b)?;
    regroup(&z, true, "flat_product")
}

/// `pad(L, r)`: appends `1:0` modes up to rank `r` (a leaf shape is wrapped
/// first); a layout of rank `r` is returned as it is.
fn pad(l: &Layout, r: usize) -> Result<Cow<'_, Layout>> {
    if l.rank() >= r {
        return Ok(Cow::Borrowed(l));
    }
    let mut modes: SmallVec<[Layout; 4]> = l.modes().collect();
    while modes.len() < r {
        modes.push(Layout::leaf(1, Scalar::Int(0)));
    }
    Layout::concat(modes).map(Cow::Owned)
}

/// Pairs the modes of the two halves, built in `out` (`(M0_i, M1_i)` for
/// blocked, `(M1_i, M0_i)` for raked): `((m0_0, m1_0), (m0_1, m1_1), ...)`,
/// the shorter side padded with `1:0`, from views of the modes (no
/// per-mode copies).
fn pair_halves_into(r0: &Layout, r1: &Layout, raked: bool, out: &mut Layout) -> Result<()> {
    let one = Layout::leaf(1, Scalar::Int(0));
    let n = r0.rank().max(r1.rank());
    if n == 0 {
        return Err(Error::value("make_layout: empty concatenation"));
    }
    let mut m0 = View::of(r0).modes();
    let mut m1 = View::of(r1).modes();
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    push_rank(nodes, n);
    for _ in 0..n {
        let x = m0.next().unwrap_or(View::of(&one));
        let y = m1.next().unwrap_or(View::of(&one));
        let (first, second) = if raked { (y, x) } else { (x, y) };
        nodes.push(2);
        first.push_into(nodes, sh, st);
        second.push_into(nodes, sh, st);
    }
    Ok(())
}

/// [`blocked_raked`] for a layout tiler B, built in `out`: A and B padded
/// to the same rank, the tail `complement(A) ∘ B` of their product, and
/// the modes of the two paired.
fn blocked_raked_layout_into(a: &Layout, b: &Layout, raked: bool, out: &mut Layout) -> Result<()> {
    let r = a.rank().max(b.rank());
    let ap = pad(a, r)?;
    let bp = pad(b, r)?;
    // logical_product(ap, bp) with a layout tiler is its core, the pair
    // (ap, complement(ap) ∘ bp): its two modes without building it
    let mut tail = Layout::blank();
    product_tail_into(&ap, &bp, &mut tail)?;
    pair_halves_into(&ap, &tail, raked, out)
}

fn blocked_raked(a: &Layout, b: &TilerRef<'_>, raked: bool) -> Result<Layout> {
    let mut out = Layout::blank();
    blocked_raked_into(a, b, raked, &mut out)?;
    Ok(out)
}

/// `blocked_product(A, B)` (`docs/operations.md`; C++ CuTe
/// `blocked_product`): pairs mode `i` of the tile A with mode `i` of
/// `A* ∘ B`, tile first, so each copy of A stays contiguous within every
/// mode. Operands of different ranks are padded with `1:0` modes (as C++
/// `append` does), and so is the shorter half of the logical product, so
/// `size(R) = size(A) * size(B)`. `B` is a layout, an integer `n` (`n:1`),
/// or a tuple tiler of length `rank(A)` (the reference's by-mode form).
///
/// Errors: `type` for `B = None`; `rank` for a tuple tiler whose length is
/// not `rank(A)`; those of `logical_product`.
///
/// ```
/// use rcute::{algebra::blocked_product, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::leaf(4)).unwrap();
/// assert_eq!(blocked_product(&a, &Tiler::Int(3)).unwrap().to_string(), "((4, 3),):((1, 4),)");
/// assert!(blocked_product(&a, &Tiler::None).is_err());
/// ```
pub fn blocked_product(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    blocked_raked(a, b, false)
}

/// `raked_product(A, B)` (`docs/operations.md`; C++ CuTe
/// `raked_product`): like [`blocked_product`] with each pair reversed
/// (`A* ∘ B` first), so the copies of A are interleaved — a cyclic
/// distribution. `size(R) = size(A) * size(B)`.
///
/// Errors: as [`blocked_product`].
///
/// ```
/// use rcute::{algebra::raked_product, HTuple, Layout, Tiler};
/// let a = Layout::column_major(HTuple::leaf(4)).unwrap();
/// assert_eq!(raked_product(&a, &Tiler::Int(3)).unwrap().to_string(), "((3, 4),):((4, 1),)");
/// assert!(raked_product(&a, &Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2)].into())).is_err());
/// ```
pub fn raked_product(a: &Layout, b: &TilerRef<'_>) -> Result<Layout> {
    blocked_raked(a, b, true)
}
