//! Integer fast paths of the algebra core.
//!
//! Layouts whose strides are all integers are the common case. The
//! functions here run the same algorithms as the general code on flat
//! `i64` lists, without intermediate `Layout`s or `Scalar`s, and build the
//! result once. Each returns `None` whenever the general code could take
//! another branch or report an error (an overflow, a divisibility failure,
//! a rejected check, an unusual encoding); the caller then runs the
//! general code, which gives the same result or the exact error. A `Some`
//! result is always the one the general code computes.

use crate::tiler::TilerRef;
use smallvec::SmallVec;

use crate::htuple::{Leaves, Nodes, LEAF, MAX_DEPTH, WIDE};
use crate::layout::push_view;
use crate::{Layout, Scalar};

/// Inline list of integers.
pub(crate) type Ints = SmallVec<[i64; 8]>;
/// Inline list of `(shape, stride)` integer modes.
pub(crate) type Modes = SmallVec<[(i64, i64); 8]>;

pub(crate) use super::leaf::int_strides_into;

/// The checked composition (before the positivity check) of the flat
/// integer layout of extents `a_shape` and strides `a_st` (its profile
/// does not matter, it is coalesce_z'd first) with the B of node bytes
/// `bn`, extents `bs` and integer strides `b_st`, appended to the shape
/// nodes and the leaves of a layout under construction (its stride nodes
/// are the caller's to write).
#[allow(clippy::too_many_arguments)]
#[inline]
fn composition_append(
    a_shape: &[i64],
    a_st: &[i64],
    bn: &[u8],
    bs: &[i64],
    b_st: &[i64],
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Option<()> {
    let a = super::composition::Flat {
        s: a_shape,
        d: a_st,
    };
    super::composition::compose_ints_append(&a, bn, bs, b_st, nodes, sh, st).ok()
}

/// The item of a tuple tiler as an integer layout B for the mode-by-mode
/// fast paths: a positive integer `n` is `n:1`; `None` for anything else
/// than an integer-strided layout or a positive integer.
enum ModeTiler<'a> {
    Keep,
    Int(i64),
    Layout(&'a Layout),
}

impl<'a> ModeTiler<'a> {
    fn of(t: Option<&'a crate::TilerRef<'_>>) -> Option<ModeTiler<'a>> {
        Some(match t {
            None | Some(TilerRef::None) => ModeTiler::Keep,
            Some(TilerRef::Int(n)) if *n > 0 => ModeTiler::Int(*n),
            Some(TilerRef::Layout(l) | &TilerRef::Borrowed(l)) => ModeTiler::Layout(l),
            Some(_) => return None,
        })
    }
}

/// The mode-by-mode driver of composition and logical_divide by a tuple
/// tiler `ts` (`composition.rs` `dispatch`, `divide.rs` `by_mode`) for an
/// integer-strided A that is a tuple with no empty mode, at most 32 nodes
/// and at least as many modes as `ts`: mode `i` is replaced by
/// `op(A_i, B_i)` appended in place (`B_i` a layout, or `n:1` for an
/// integer `n`), kept where `ts` has `None` or has ended. The result,
/// written into `out`, must have positive extents (the general code
/// reports the error otherwise). `None` for any other form.
fn by_mode_into(
    a: &Layout,
    ts: &[crate::TilerRef<'_>],
    out: &mut Layout,
    op: impl Fn(&[i64], &[i64], &Layout, RawLeaves<'_>) -> Option<()>,
) -> Option<()> {
    let rank = a.rank();
    let an = a.shape().as_ref().node_bytes();
    if a.is_leaf() || ts.len() > rank || rank >= WIDE as usize || an.len() > 32 || an.contains(&0) {
        return None;
    }
    let mut a_st = Ints::new();
    int_strides_into(a, &mut a_st)?;
    let (s, d) = (a.shape().as_ref(), a.stride().as_ref());
    out.reset();
    let ((nodes, sh), (dn, st)) = out.raw_mut();
    nodes.push(rank as u8);
    let mut k = 0;
    for (i, (ms, md)) in s.modes().zip(d.modes()).enumerate() {
        let leaves = ms.leaves();
        let mst = a_st.get(k..k + leaves.len())?;
        k += leaves.len();
        match ModeTiler::of(ts.get(i))? {
            ModeTiler::Keep => {
                push_view(ms, md, nodes, sh, st);
            }
            ModeTiler::Int(n) => op(
                leaves,
                mst,
                &Layout::leaf(n, Scalar::Int(1)),
                (nodes, sh, st),
            )?,
            ModeTiler::Layout(l) => {
                if l.shape().as_ref().node_bytes().len() > 32 {
                    return None;
                }
                op(leaves, mst, l, (nodes, sh, st))?
            }
        }
    }
    if sh.iter().any(|&e| e <= 0) {
        return None;
    }
    dn.extend_from_slice(nodes);
    Some(())
}

/// The shape nodes and the shape and stride leaves of a layout under
/// construction.
type RawLeaves<'a> = (&'a mut Nodes, &'a mut Leaves<i64>, &'a mut Leaves<Scalar>);

/// `composition(A, B)` for a tuple tiler `B` ([`by_mode_into`]), written
/// into `out`.
pub(crate) fn composition_modes_into(
    a: &Layout,
    ts: &[crate::TilerRef<'_>],
    out: &mut Layout,
) -> Option<()> {
    by_mode_into(a, ts, out, |ash, ast, b, (nodes, sh, st)| {
        let mut b_st = Ints::new();
        int_strides_into(b, &mut b_st)?;
        let bn = b.shape().as_ref().node_bytes();
        composition_append(ash, ast, bn, b.shape().leaves(), &b_st, nodes, sh, st)
    })
}

/// `logical_divide(A, B)` for a tuple tiler `B` ([`by_mode_into`]),
/// written into `out`.
pub(crate) fn logical_divide_modes_into(
    a: &Layout,
    ts: &[crate::TilerRef<'_>],
    out: &mut Layout,
) -> Option<()> {
    by_mode_into(a, ts, out, |ash, ast, b, (nodes, sh, st)| {
        divide_append(ash, ast, b, nodes, sh, st)
    })
}

/// One axis of the complement (`complement.rs` `axis_minimal` and, with
/// the extension `x` (its leaves), `axis_extend`) into `out`; `None` on
/// any error.
#[inline]
fn axis_complement(pairs: &[(i64, i64)], x: Option<&[i64]>, out: &mut Modes) -> Option<()> {
    let Some(x) = x else {
        return super::complement::axis_minimal(pairs.iter().copied(), &[], out).ok();
    };
    let mut minimal = Modes::new();
    super::complement::axis_minimal(pairs.iter().copied(), &[], &mut minimal).ok()?;
    super::complement::axis_extend(&minimal, x, out).ok()
}

/// `coprofile(A)` is the leaf `0` for integer strides whose sum fits.
#[inline]
fn int_codomain(st: &[i64]) -> Option<()> {
    st.iter().try_fold(0i64, |acc, &d| acc.checked_add(d))?;
    Some(())
}

/// The `(stride, shape)` pairs of an integer layout sorted by stride, as
/// the complement's chain, into `out`.
#[inline]
fn sorted_pairs(l: &Layout, st: &[i64], out: &mut Modes) {
    out.clear();
    out.extend(st.iter().copied().zip(l.shape().leaves().iter().copied()));
    super::complement::sort_by_stride(out);
}

/// Appends the leaf-or-flat encoding of `modes` to the raw lists of a
/// layout under construction (integer strides).
#[inline]
fn push_flat_ints(
    modes: &[(i64, i64)],
    nodes: &mut Nodes,
    sh: &mut Ints,
    st: &mut Ints,
) -> Option<()> {
    match modes.len() {
        0 => return None,
        1 => nodes.push(LEAF),
        n if n >= WIDE as usize => return None,
        n => {
            nodes.push(n as u8);
            nodes.extend(std::iter::repeat_n(LEAF, n));
        }
    }
    for &(s, d) in modes {
        sh.push(s);
        st.push(d);
    }
    Some(())
}

/// `logical_divide(A, B)` for a layout B (`divide.rs` `divide_core`:
/// `A ∘ (B, complement(B, size(A)))`), integer strides in both, without
/// the intermediate layouts.
pub(crate) fn logical_divide(a: &Layout, b: &Layout) -> Option<Layout> {
    let mut out = Layout::blank();
    logical_divide_into(a, b, &mut out)?;
    Some(out)
}

/// [`logical_divide`] written into `out`.
pub(crate) fn logical_divide_into(a: &Layout, b: &Layout, out: &mut Layout) -> Option<()> {
    let mut a_st = Ints::new();
    int_strides_into(a, &mut a_st)?;
    out.reset();
    let ((nodes, sh), (dn, st)) = out.raw_mut();
    divide_append(a.shape().leaves(), &a_st, b, nodes, sh, st)?;
    if sh.iter().any(|&e| e <= 0) {
        return None;
    }
    dn.extend_from_slice(nodes);
    Some(())
}

/// [`logical_divide`] of the layout with shape leaves `a_shape` and
/// integer strides `a_st` (its profile does not matter) by `b`, appended
/// to the shape nodes and the leaves of a layout under construction.
fn divide_append(
    a_shape: &[i64],
    a_st: &[i64],
    b: &Layout,
    out_nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Option<()> {
    let mut b_st = Ints::new();
    int_strides_into(b, &mut b_st)?;
    // coprofile(B) is the integer leaf 0: the extension is size(A)
    int_codomain(&b_st)?;
    let n = a_shape
        .iter()
        .try_fold(1i64, |acc, &e| acc.checked_mul(e))?;
    if n == 0 {
        return None;
    }
    let (mut pairs, mut c) = (Modes::new(), Modes::new());
    sorted_pairs(b, &b_st, &mut pairs);
    axis_complement(&pairs, Some(&[n]), &mut c)?;
    // B' = (B, C)
    let bn = b.shape().as_ref().node_bytes();
    if bn.len() > 32 {
        return None;
    }
    let mut nodes = Nodes::new();
    nodes.push(2);
    nodes.extend_from_slice(bn);
    let mut bs = Ints::from_slice(b.shape().leaves());
    let mut bst = b_st;
    push_flat_ints(&c, &mut nodes, &mut bs, &mut bst)?;
    composition_append(a_shape, a_st, &nodes, &bs, &bst, out_nodes, sh, st)
}

/// `zipped_divide(A, B)` (`divide.rs`) for a tuple tiler `B` whose items
/// are positive integers `n` (the tile `n:1`) or layouts, with integer
/// strides in A and B: the mode-by-mode divide
/// `(T_0, R_0), ..., (T_k, R_k), A_(k+1), ...` ([`logical_divide_modes_into`])
/// zipped into `((T_0, ..., T_k), (R_0, ..., R_k, A_(k+1), ...))`, which is
/// what dividing by `tiler_to_layout(B)` (basis strides `1@i`) gives,
/// without the coordinate strides (each of which is an `Arc`).
pub(crate) fn zipped_divide(a: &Layout, b: &crate::TilerRef<'_>) -> Option<Layout> {
    let mut out = Layout::blank();
    zipped_divide_into(a, b, &mut out)?;
    Some(out)
}

/// [`zipped_divide`] written into `out`.
pub(crate) fn zipped_divide_into(
    a: &Layout,
    b: &crate::TilerRef<'_>,
    out: &mut Layout,
) -> Option<()> {
    let TilerRef::Tuple(ts) = b else {
        return None;
    };
    let k = ts.len();
    if a.is_leaf() || k < 2 || k > a.rank() || k > 8 {
        return None;
    }
    // a `None` item is a `type` error of the general code
    if !ts.iter().all(|t| {
        matches!(t, TilerRef::Int(n) if *n > 0)
            || matches!(t, TilerRef::Layout(_) | TilerRef::Borrowed(_))
    }) {
        return None;
    }
    // the divided modes, built once; the result is made of views of them
    let mut d = Layout::blank();
    logical_divide_modes_into(a, ts, &mut d)?;
    let (ds, dd) = (d.shape().as_ref(), d.stride().as_ref());
    out.reset();
    let ((nodes, sh), (dn, st)) = out.raw_mut();
    nodes.push(2);
    for m in 0..2 {
        nodes.push(if m == 0 { k as u8 } else { a.rank() as u8 });
        for (i, (ms, md)) in ds.modes().zip(dd.modes()).enumerate() {
            if i < k {
                if ms.is_leaf() || ms.rank() != 2 {
                    return None;
                }
                push_view(ms.mode(m)?, md.mode(m)?, nodes, sh, st);
            } else if m == 1 {
                push_view(ms, md, nodes, sh, st);
            }
        }
    }
    dn.extend_from_slice(nodes);
    Some(())
}

/// `complement(A) ∘ B`, the second mode of `logical_product(A, B)` for a
/// layout B (`product.rs` `product_core`), integer strides in both.
#[cfg(test)]
pub(crate) fn complement_compose(a: &Layout, b: &Layout) -> Option<Layout> {
    let mut out = Layout::blank();
    complement_compose_into(a, b, &mut out)?;
    Some(out)
}

/// [`complement_compose`] written into `out`.
pub(crate) fn complement_compose_into(a: &Layout, b: &Layout, out: &mut Layout) -> Option<()> {
    out.reset();
    let ((nodes, sh), (dn, st)) = out.raw_mut();
    complement_compose_append(a, b, nodes, sh, st)?;
    dn.extend_from_slice(nodes);
    Some(())
}

/// [`complement_compose`] appended to the shape nodes and the leaves of a
/// layout under construction.
#[inline]
pub(crate) fn complement_compose_append(
    a: &Layout,
    b: &Layout,
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) -> Option<()> {
    let mut a_st = Ints::new();
    int_strides_into(a, &mut a_st)?;
    let mut b_st = Ints::new();
    int_strides_into(b, &mut b_st)?;
    int_codomain(&a_st)?;
    let (mut pairs, mut c) = (Modes::new(), Modes::new());
    sorted_pairs(a, &a_st, &mut pairs);
    axis_complement(&pairs, None, &mut c)?;
    let (mut c_sh, mut c_st) = (Ints::new(), Ints::new());
    c_sh.extend(c.iter().map(|m| m.0));
    c_st.extend(c.iter().map(|m| m.1));
    let bref = b.shape().as_ref();
    if bref.node_bytes().len() > MAX_DEPTH && bref.depth() > MAX_DEPTH - 1 {
        return None;
    }
    let start = sh.len();
    composition_append(
        &c_sh,
        &c_st,
        bref.node_bytes(),
        b.shape().leaves(),
        &b_st,
        nodes,
        sh,
        st,
    )?;
    if sh[start..].iter().any(|&e| e <= 0) {
        return None;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::htuple::Builder;

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

    /// A layout from a wider space than [`layout`], to reach the fast
    /// paths' guards: up to 5 modes nested up to 3 levels, `()` modes, F2
    /// and basis strides now and then, sometimes more than 32 nodes or a
    /// rank of 254 or more.
    fn wide_layout(r: &mut Rng) -> Layout {
        fn node(r: &mut Rng, bs: &mut Builder<i64>, bd: &mut Builder<Scalar>, depth: usize) {
            let k = r.next(10);
            if depth >= 3 || k < 5 {
                bs.leaf(1 + r.next(8) as i64);
                bd.leaf(match r.next(20) {
                    0 => Scalar::F2(r.next(8) as i64),
                    1 => Scalar::basis(1 + r.next(2) as i64, &[r.next(2) as usize]),
                    _ => Scalar::Int(STRIDES[r.next(STRIDES.len() as u64) as usize]),
                });
            } else if k == 5 {
                bs.open();
                bd.open();
                bs.close();
                bd.close();
            } else {
                bs.open();
                bd.open();
                for _ in 0..1 + r.next(3) {
                    node(r, bs, bd, depth + 1);
                }
                bs.close();
                bd.close();
            }
        }
        let mut bs = Builder::new();
        let mut bd = Builder::new();
        match r.next(40) {
            0 | 1 => {
                // a flat tuple past the 32-node or the wide-rank limit
                let n = if r.next(2) == 0 { 40 } else { 260 };
                bs.open();
                bd.open();
                for k in 0..n {
                    bs.leaf(if k < 3 { 2 } else { 1 });
                    bd.leaf(Scalar::Int(1 << k.min(20)));
                }
                bs.close();
                bd.close();
            }
            2..=5 => node(r, &mut bs, &mut bd, 3),
            _ => {
                bs.open();
                bd.open();
                for _ in 0..1 + r.next(5) {
                    node(r, &mut bs, &mut bd, 1);
                }
                bs.close();
                bd.close();
            }
        }
        Layout::new(bs.finish(), bd.finish()).unwrap()
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
            let b = TilerRef::Tuple(ts);
            let g = super::super::divide::zipped_divide_general(&a, &b);
            if g.is_ok() {
                ok += 1;
            }
            if let Some(f) = zipped_divide(&a, &b) {
                fast += 1;
                assert_eq!(g.as_ref().ok(), Some(&f), "zipped_divide({a}, {b})");
            }
        }
        assert!(fast > 10_000 && fast > ok / 2, "{fast} of {ok}");
    }

    /// `int::fdm` (which `int::floor_divmod` reports through) is floor
    /// division, checked against 128-bit arithmetic on edge values and
    /// random pairs of both signs: `None` exactly for a zero divisor or a
    /// quotient outside 64 bits.
    #[test]
    fn fdm_is_floor_division() {
        use crate::int::fdm;
        let edge = [
            i64::MIN,
            i64::MIN + 1,
            -7,
            -2,
            -1,
            0,
            1,
            2,
            3,
            7,
            i64::MAX - 1,
            i64::MAX,
        ];
        let mut r = Rng(41);
        let mut pairs: Vec<(i64, i64)> = Vec::new();
        for &a in &edge {
            for &b in &edge {
                pairs.push((a, b));
            }
        }
        let signed = |r: &mut Rng| {
            let raw = (r.next(1 << 31) << 33) | (r.next(1 << 31) << 2) | r.next(4);
            (raw as i64) >> r.next(64)
        };
        for _ in 0..100_000 {
            let a = signed(&mut r);
            let b = signed(&mut r);
            pairs.push((a, b));
        }
        assert!(pairs.iter().filter(|p| p.0 < 0 && p.1 < 0).count() > 10_000);
        for (a, b) in pairs {
            let want = (b != 0)
                .then(|| {
                    let (x, y) = (a as i128, b as i128);
                    let q = x.div_euclid(y) - i128::from(y < 0 && x.rem_euclid(y) != 0);
                    let r = x - q * y;
                    i64::try_from(q).ok().map(|q| (q, r as i64))
                })
                .flatten();
            assert_eq!(fdm(a, b), want, "fdm({a}, {b})");
            assert_eq!(crate::int::floor_divmod(a, b).ok(), want);
        }
    }

    /// Composition and logical_divide by a tuple tiler, mode by mode in
    /// place, agree with the by-mode drivers of the general code (each
    /// mode through the public function) wherever they answer; the result
    /// is written into one layout reused across cases.
    #[test]
    fn by_mode_into_matches_general() {
        use crate::Tiler;
        let mut r = Rng(31);
        let (mut fast, mut ok) = (0, 0);
        let mut out = Layout::blank();
        for i in 0..100_000 {
            let wide = i % 3 == 1;
            let a = if wide {
                wide_layout(&mut r)
            } else {
                layout(&mut r, 12, STRIDES)
            };
            if a.is_leaf() {
                continue;
            }
            let k = 1 + r.next(a.rank().min(6) as u64 + 1) as usize;
            let ts: Vec<Tiler> = (0..k)
                .map(|_| match r.next(6) {
                    0 if wide => TilerRef::Layout(wide_layout(&mut r)),
                    0 | 1 => TilerRef::Layout(layout(&mut r, 6, STRIDES)),
                    2 => TilerRef::None,
                    3 => TilerRef::Tuple(vec![TilerRef::Int(2)]),
                    _ => TilerRef::Int(r.next(9) as i64 - 1),
                })
                .collect();
            let divide = i % 2 == 0;
            let (g, f) = if divide {
                (
                    super::super::divide::logical_divide(&a, &TilerRef::Tuple(ts.clone())),
                    logical_divide_modes_into(&a, &ts, &mut out),
                )
            } else {
                (
                    super::super::composition::composition(&a, &TilerRef::Tuple(ts.clone())),
                    composition_modes_into(&a, &ts, &mut out),
                )
            };
            if g.is_ok() {
                ok += 1;
            }
            if f.is_some() {
                fast += 1;
                assert_eq!(
                    g.as_ref().ok(),
                    Some(&out),
                    "divide {divide}: {a} by {}",
                    TilerRef::Tuple(ts)
                );
            }
        }
        assert!(fast > 10_000 && fast > ok / 4, "{fast} of {ok}");
    }

    /// The fast divide and product agree with the general code.
    #[test]
    fn divide_product_match_general() {
        let mut r = Rng(31);
        let (mut fast, mut ok) = (0, 0);
        for _ in 0..100_000 {
            let a = layout(&mut r, 8, STRIDES);
            let b = layout(&mut r, 4, STRIDES);
            let g = super::super::divide::divide_core_general(&a, &b);
            ok += g.is_ok() as u32;
            if let Some(f) = logical_divide(&a, &b) {
                fast += 1;
                assert_eq!(g.as_ref().ok(), Some(&f), "logical_divide({a}, {b})");
            }
            let g = super::super::product::product_core_general(&a, &b);
            ok += g.is_ok() as u32;
            if let Some(f) = complement_compose(&a, &b) {
                let f = Layout::concat_pair(&a, &f);
                fast += 1;
                assert_eq!(g.as_ref().ok(), Some(&f), "logical_product({a}, {b})");
            }
        }
        assert!(fast > ok / 2, "{fast} of {ok}");
    }
}
