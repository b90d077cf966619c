//! The kernels keep their mode lists in a fixed-capacity inline list when
//! A has at most 8 leaves and in a growable one beyond
//! (`algebra::coalesce::InlineModes`). These properties run the operations
//! that choose between the two on layouts of 6 to 12 leaves, both sides of
//! the bound, and check each result against its definition evaluated
//! point by point with `eval_index` (which does not use those lists):
//! coalesce and composition preserve the function, the complement is
//! disjoint from A and ordered, a divide is A composed with `(B, C)`, the
//! inverses invert.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use rcute::{algebra, HTuple, Layout, Scalar, Tiler};

/// `L(i)` as an integer (the layouts here have integer strides).
fn ev(l: &Layout, i: i64) -> i64 {
    match l.eval_index(i) {
        Ok(Scalar::Int(v)) => v,
        r => panic!("{l} at {i}: {r:?}"),
    }
}

/// A layout of `leaves` leaf modes (extents 1 to 3, strides 0 to 40),
/// flat or grouped into modes of one to three leaves.
fn layout(min: usize, max: usize) -> impl Strategy<Value = Layout> {
    (
        proptest::collection::vec((1i64..=3, 0i64..=40), min..=max),
        proptest::collection::vec(1usize..=3, 12),
        any::<bool>(),
    )
        .prop_map(|(leaves, groups, flat)| {
            let (s, d): (Vec<i64>, Vec<Scalar>) =
                leaves.iter().map(|&(s, d)| (s, Scalar::Int(d))).unzip();
            if flat {
                return Layout::new(HTuple::flat(s), HTuple::flat(d)).unwrap();
            }
            let (mut sm, mut dm, mut at) = (Vec::new(), Vec::new(), 0);
            for g in groups {
                if at >= s.len() {
                    break;
                }
                let end = (at + g).min(s.len());
                sm.push(HTuple::flat(s[at..end].iter().copied()));
                dm.push(HTuple::flat(d[at..end].iter().cloned()));
                at = end;
            }
            Layout::new(HTuple::tuple(sm), HTuple::tuple(dm)).unwrap()
        })
}

/// An injective layout of `n` leaves: a column-major layout of extents 1
/// to 3 with gaps, its modes permuted by `seed`.
fn injective(min: usize, max: usize) -> impl Strategy<Value = Layout> {
    (
        proptest::collection::vec((1i64..=3, 1i64..=2), min..=max),
        any::<u64>(),
    )
        .prop_map(|(modes, mut seed)| {
            let mut cur = 1i64;
            let mut pairs: Vec<(i64, i64)> = modes
                .iter()
                .map(|&(s, gap)| {
                    cur *= gap;
                    let d = cur;
                    cur *= s;
                    (s, d)
                })
                .collect();
            for i in (1..pairs.len()).rev() {
                let j = (seed % (i as u64 + 1)) as usize;
                seed /= i as u64 + 1;
                pairs.swap(i, j);
            }
            Layout::new(
                HTuple::flat(pairs.iter().map(|p| p.0)),
                HTuple::flat(pairs.iter().map(|p| Scalar::Int(p.1))),
            )
            .unwrap()
        })
}

fn size(l: &Layout) -> i64 {
    l.size().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn coalesce_keeps_the_function(a in layout(6, 12)) {
        let c = algebra::coalesce(&a).unwrap();
        prop_assert_eq!(size(&c), size(&a));
        prop_assert!(c.shape().leaves().len() <= a.shape().leaves().len());
        for i in 0..size(&a) {
            prop_assert_eq!(ev(&c, i), ev(&a, i), "coalesce({}) = {}", a, c);
        }
    }

    #[test]
    fn complement_is_disjoint_and_ordered(a in injective(6, 11), extra in 1i64..=3) {
        let m = algebra::cosize(&a).unwrap() * extra;
        let x = HTuple::leaf(m);
        let c = algebra::complement(&a, Some(x.as_ref())).unwrap();
        // (A, C) is injective: A's offsets and C's offsets meet only at 0
        // and every sum of one of each is distinct
        // (the first pairs only: the layouts here reach 10^8 of them)
        let mut seen = std::collections::HashSet::new();
        for j in 0..size(&c).min(64) {
            for i in 0..size(&a).min(512) {
                prop_assert!(seen.insert(ev(&a, i) + ev(&c, j)), "({}, {})", a, c);
            }
        }
        prop_assert!(size(&a) * size(&c) >= m, "complement({}, {}) = {}", a, m, c);
        let st: Vec<i64> = c.stride().leaves().iter().map(|d| d.as_int().unwrap()).collect();
        prop_assert!(st.windows(2).all(|w| w[0] <= w[1]), "{}", c);
    }

    #[test]
    fn complement_without_or_with_two_extents(a in injective(5, 10), two in any::<bool>()) {
        // no `extend` (the bound is A's leaves plus one) or a two-mode one
        let c = if two {
            let x = HTuple::flat([algebra::cosize(&a).unwrap(), 3]);
            algebra::complement(&a, Some(x.as_ref())).unwrap()
        } else {
            algebra::complement(&a, None).unwrap()
        };
        let mut seen = std::collections::HashSet::new();
        for j in 0..size(&c).min(64) {
            for i in 0..size(&a).min(512) {
                prop_assert!(seen.insert(ev(&a, i) + ev(&c, j)), "({}, {})", a, c);
            }
        }
    }

    #[test]
    fn inverses_invert(a in injective(6, 11)) {
        let r = algebra::right_inverse(&a).unwrap();
        // R covers every offset 0, 1, ... that A reaches without a gap
        let image: std::collections::HashSet<i64> = (0..size(&a)).map(|i| ev(&a, i)).collect();
        let prefix = (0..).take_while(|x| image.contains(x)).count() as i64;
        prop_assert_eq!(size(&r), prefix, "right_inverse({}) = {}", a, r);
        for i in 0..size(&r) {
            prop_assert_eq!(ev(&a, ev(&r, i)), i, "right_inverse({}) = {}", a, r);
        }
        let l = algebra::left_inverse(&a).unwrap();
        for i in 0..size(&a) {
            prop_assert_eq!(ev(&l, ev(&a, i)), i, "left_inverse({}) = {}", a, l);
        }
    }
}

/// The result of an operation the tests below may see refused: `None`
/// for an ordinary refusal (random operands often violate a divisibility
/// condition), a failed test for the error a wrong bound on a bounded
/// list gives.
fn refused_or(r: rcute::Result<Layout>) -> Option<Layout> {
    match r {
        Ok(l) => Some(l),
        Err(e) => {
            assert!(!e.message().contains("bounded list"), "{}", e.message());
            None
        }
    }
}

/// Runs `check` on `cases` random pairs, returning how many it accepted
/// (`Some(true)`): the operations below refuse many random operands, so
/// the tests also require that enough were checked.
fn accepted<A: std::fmt::Debug, B: std::fmt::Debug>(
    sa: impl Strategy<Value = A>,
    sb: impl Strategy<Value = B>,
    cases: usize,
    check: impl Fn(&A, &B) -> Option<bool>,
) -> usize {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut n = 0;
    for _ in 0..cases {
        let a = sa.new_tree(&mut runner).unwrap().current();
        let b = sb.new_tree(&mut runner).unwrap().current();
        match check(&a, &b) {
            Some(true) => n += 1,
            Some(false) => panic!("post-condition failed for {a:?}, {b:?}"),
            None => {}
        }
    }
    n
}

#[test]
fn composition_is_a_after_b() {
    // B's strides are offsets into A's domain: a B of extents that tile
    // a prefix of A composes more often than a random one
    let n = accepted(layout(6, 12), injective(1, 6), 1500, |a, b| {
        let r = refused_or(algebra::composition(a, &Tiler::Layout(b.clone())))?;
        let ok = size(&r) == size(b)
            && (0..size(b)).all(|i| {
                let x = ev(b, i);
                x >= size(a) || ev(&r, i) == ev(a, x)
            });
        Some(ok)
    });
    assert!(n >= 100, "only {n} compositions were accepted");
}

#[test]
fn logical_divide_is_a_after_b_and_rest() {
    let n = accepted(layout(6, 12), injective(1, 4), 1500, |a, b| {
        let d = refused_or(algebra::logical_divide(a, &Tiler::Layout(b.clone())))?;
        let n = size(a);
        let rest = refused_or(algebra::complement(b, Some(HTuple::leaf(n).as_ref())))?;
        let bc = Layout::new(
            HTuple::tuple([b.shape().clone(), rest.shape().clone()]),
            HTuple::tuple([b.stride().to_owned(), rest.stride().to_owned()]),
        )
        .ok()?;
        let ok = size(&d) == size(&bc)
            && (0..size(&bc)).all(|i| {
                let x = ev(&bc, i);
                x >= n || ev(&d, i) == ev(a, x)
            });
        Some(ok)
    });
    assert!(n >= 100, "only {n} divides were accepted");
}

#[test]
fn logical_product_repeats_a() {
    // (A, complement(A, size(A) * cosize(B)) o B), B = n:1: mode 0 is A
    // itself, and the copies of A land beyond A's image (injective)
    let n = accepted(injective(5, 9), 1i64..=3, 1500, |a, &n| {
        let p = refused_or(algebra::logical_product(a, &Tiler::Int(n)))?;
        let mut seen = std::collections::HashSet::new();
        let ok = size(&p) == size(a) * n
            && (0..size(&p))
                .all(|i| (i >= size(a) || ev(&p, i) == ev(a, i)) && seen.insert(ev(&p, i)));
        Some(ok)
    });
    assert!(n >= 100, "only {n} products were accepted");
}
