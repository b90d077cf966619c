//! Integer fast path of composition by a layout with basis strides.
//!
//! `A ∘ B` where A has integer strides and every stride of B is a
//! coordinate value with integer children, at most one of them non-zero
//! (`v@i`, or zero): each leaf `t:v@i` of B composes with mode `i` of A
//! (coalesce_z'd), as `composition.rs` `core` does after
//! `coalesce_z_by_mode(A, (0, ..., 0))`. The result is built in place,
//! without the general code's coordinate values, basis lists, paths and
//! records. As in `fast.rs`, `None` means "the general code could take
//! another branch or report an error": a `Some` result is always the one
//! the general code computes.

use smallvec::SmallVec;

use crate::htuple::{LEAF, MAX_DEPTH, MAX_LEAVES, WIDE};
use crate::{Layout, Scalar};

use super::composition::{base_case_into, digits_pass};
use super::fast::{coalesce_flat, coalesce_leaves, Ints, Modes};

/// A child of a stride of B beyond this magnitude sends the call to the
/// general code, so that no partial sum of B's strides (the coprofile the
/// general code computes per sub-tree of B) can leave 64 bits.
const CHILD_LIMIT: u64 = 1 << 40;

/// The coalesce_z'd modes of mode `i` of A (`1:0` for none), into `out`;
/// `None` when A has no mode `i`, a stride is not an integer or a value
/// leaves 64 bits.
#[inline]
fn axis_modes(a: &Layout, i: usize, out: &mut Modes) -> Option<()> {
    let s = a.shape().as_ref().mode(i)?;
    let d = a.stride().as_ref().mode(i)?;
    coalesce_leaves(s.leaves(), d.leaves(), true, out)?;
    if out.is_empty() {
        out.push((1, 0));
    }
    Some(())
}

/// The axis and the value of the non-zero child of the coordinate stride
/// `d` (`Some(None)` for a zero stride); `None` for anything else (an
/// integer or F2 stride, a nested or empty coordinate value, a large
/// child, more than one non-zero child).
#[inline]
fn basis_term(d: &Scalar) -> Option<Option<(usize, i64)>> {
    let Scalar::Coord(c) = d else {
        return None;
    };
    let ch = c.children();
    if ch.is_empty() {
        return None;
    }
    let mut term = None;
    for (i, x) in ch.iter().enumerate() {
        let Scalar::Int(v) = x else {
            return None;
        };
        if v.unsigned_abs() >= CHILD_LIMIT {
            return None;
        }
        if *v != 0 {
            if term.is_some() {
                return None;
            }
            term = Some((i, *v));
        }
    }
    Some(term)
}

/// Composition `A ∘ B` (the checked layout core, before the final
/// positivity check, as `fast::composition`) for integer strides in A and
/// basis strides `v@i` (or zero coordinate values) in B, `i` below the rank
/// of A: each leaf `t:v@i` of B (`t != 1`) gives the coalesced base case
/// `A_i ∘ t:v` of A's coalesce_z'd mode `i`, a zero stride gives `t:0`;
/// the digit check of each mode of A used passes. `None` otherwise
/// (integer strides in B are `fast::composition`'s; `t = 1` with a
/// non-zero stride, sums of basis values and negative strides take the
/// general code).
pub(crate) fn composition(a: &Layout, b: &Layout) -> Option<Layout> {
    if !a.has_integer_strides() {
        return None;
    }
    let bref = b.shape().as_ref();
    let bn = bref.node_bytes();
    if bn.len() > MAX_DEPTH && bref.depth() > MAX_DEPTH - 1 {
        return None;
    }
    if bn.iter().any(|&x| x == WIDE || x == 0) {
        return None;
    }
    let (bs, bd) = (bref.leaves(), b.stride().leaves());
    if bd.len() > MAX_LEAVES || bs.len() != bd.len() {
        return None;
    }
    // the general code coalesce_z's the first `n` modes of A, `n` the
    // largest number of children of B's strides (A of rank `n` at least)
    let mut n = 0;
    for d in bd {
        basis_term(d)?;
        if let Scalar::Coord(c) = d {
            n = n.max(c.children().len());
        }
    }
    if a.rank() < n {
        return None;
    }
    // the general code coalesce_z's all of those modes, which fails when a
    // merged extent leaves 64 bits; no merged extent is larger than the
    // product of all extents (zeros counted as 1)
    let total = a
        .shape()
        .leaves()
        .iter()
        .try_fold(1u64, |p, &e| p.checked_mul(e.unsigned_abs().max(1)))?;
    if total > i64::MAX as u64 {
        return None;
    }
    let mut out = Layout::blank();
    let ((nodes, sh), (dn, st)) = out.raw_mut();
    // (axis, t, v) of each leaf with t > 1, for the digit check
    let mut recs: SmallVec<[(usize, i64, i64); 8]> = SmallVec::new();
    let mut f = Modes::new();
    let (mut ac_sh, mut ac_st) = (Ints::new(), Ints::new());
    let (mut rs, mut rd) = (Ints::new(), Ints::new());
    let mut k = 0;
    for &x in bn {
        if x != LEAF {
            nodes.push(x);
            continue;
        }
        let (t, d) = (*bs.get(k)?, bd.get(k)?);
        k += 1;
        let Some((i, v)) = basis_term(d)? else {
            nodes.push(LEAF);
            sh.push(t);
            st.push(Scalar::Int(0));
            continue;
        };
        if t == 1 {
            // A evaluated at a coordinate value: the general code's
            return None;
        }
        axis_modes(a, i, &mut f)?;
        ac_sh.clear();
        ac_st.clear();
        for &(s, e) in &f {
            ac_sh.push(s);
            ac_st.push(e);
        }
        base_case_into(&ac_sh, &ac_st, t, v, &mut rs, &mut rd).ok()?;
        // coalesce of the base case's flat layout
        coalesce_flat(rs.iter().copied().zip(rd.iter().copied()), false, &mut f)?;
        super::leaf::push_flat(&f, nodes, sh, st);
        if t > 1 {
            recs.push((i, t, v));
        }
    }
    if k != bs.len() {
        return None;
    }
    // the digit check, one mode of A (one axis) at a time
    let mut axis_recs: SmallVec<[(i64, i64); 8]> = SmallVec::new();
    for i in 0..n {
        axis_recs.clear();
        axis_recs.extend(recs.iter().filter(|r| r.0 == i).map(|r| (r.1, r.2)));
        if axis_recs.is_empty() {
            continue;
        }
        axis_modes(a, i, &mut f)?;
        ac_sh.clear();
        ac_sh.extend(f.iter().map(|m| m.0));
        if !digits_pass(&ac_sh, &axis_recs) {
            return None;
        }
    }
    for &x in nodes.iter() {
        dn.push(x);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HTuple;

    use crate::testing::{random_layout, Rng};

    const STRIDES: &[i64] = &[0, 1, 1, 2, 3, 4, 5, 6, 8, 12, 16, 24, -1, 7];

    /// A random integer layout: a leaf, or up to 4 modes, each a leaf or a
    /// pair.
    fn int_layout(r: &mut Rng) -> Layout {
        random_layout(r, 5, 3, |r| {
            let s = 1 + r.next(12) as i64;
            (
                s,
                Scalar::Int(STRIDES[r.next(STRIDES.len() as u64) as usize]),
            )
        })
    }

    /// A random coordinate stride: mostly `v@i`, sometimes zero, two
    /// terms, a nested or F2 child, or an integer.
    fn coord_stride(r: &mut Rng) -> Scalar {
        let v = [1i64, 1, 2, 3, 4, 5, 6, 8, 12, 0, -1, 20][r.next(12) as usize];
        match r.next(12) {
            0 => Scalar::basis(v, &[r.next(3) as usize])
                .add(&Scalar::basis(1, &[r.next(3) as usize]))
                .unwrap(),
            1 => Scalar::basis(v, &[r.next(2) as usize, 0]),
            2 => Scalar::Int(v),
            3 => Scalar::basis(0, &[r.next(4) as usize]),
            _ => Scalar::basis(v, &[r.next(4) as usize]),
        }
    }

    /// A random B: a leaf or a (possibly nested) tuple of up to 3 leaves
    /// with coordinate strides.
    fn coord_layout(r: &mut Rng) -> Layout {
        random_layout(r, 4, 4, |r| {
            let s = [1i64, 2, 2, 3, 4, 5, 6, 8, 12][r.next(9) as usize];
            (s, coord_stride(r))
        })
    }

    /// The basis-strided fast path agrees with the general layout core
    /// (checked) wherever it answers.
    #[test]
    fn composition_basis_matches_general() {
        let mut r = Rng(37);
        let (mut fast, mut ok) = (0, 0);
        for _ in 0..100_000 {
            let a = int_layout(&mut r);
            let b = coord_layout(&mut r);
            let g = super::super::composition::layout_core_general(&a, &b, true);
            if g.is_ok() {
                ok += 1;
            }
            if let Some(f) = composition(&a, &b) {
                fast += 1;
                assert_eq!(g.as_ref().ok(), Some(&f), "composition({a}, {b})");
            }
        }
        assert!(fast > 15_000 && fast > ok / 2, "{fast} of {ok}");
    }

    /// The bench case and a few fixed ones: the same layout as the
    /// general code, built by the fast path.
    #[test]
    fn composition_basis_examples() {
        let a = Layout::new(
            HTuple::flat([4i64, 5]),
            HTuple::flat([Scalar::Int(5), Scalar::Int(1)]),
        )
        .unwrap();
        for (t, v, i) in [(12i64, 1i64, 1usize), (2, 2, 0), (5, 1, 1), (4, 1, 0)] {
            let b = Layout::leaf(t, Scalar::basis(v, &[i]));
            let f = composition(&a, &b).expect("fast path");
            let g = super::super::composition::layout_core_general(&a, &b, true).unwrap();
            assert_eq!(f, g, "composition({a}, {b})");
        }
    }
}
