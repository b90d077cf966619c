//! layout_add and greatest_common_domain (`docs/operations.md`).
use crate::inverse_support::{as_i, flat_layout, ints, kind, l, sh};
use proptest::prelude::*;
use rcute::algebra::{greatest_common_domain, layout_add};
use rcute::{Layout, Scalar};

fn add(a: &str, b: &str) -> String {
    layout_add(&l(a), &l(b)).unwrap().to_string()
}

fn gcd_dom(a: &str, b: &str) -> String {
    greatest_common_domain(sh(a).as_ref(), sh(b).as_ref())
        .unwrap()
        .to_string()
}

#[test]
fn layout_add_table() {
    assert_eq!(add("12:1", "12:1"), "12:2");
    assert_eq!(add("5:0", "5:1"), "5:1");
    assert_eq!(add("(4,3):(1,4)", "(4,3):(3,1)"), "(4, 3):(4, 5)");
    assert_eq!(add("(5,3,4):(1,5,15)", "(10,6):(1,10)"), "60:2");
    assert_eq!(add("(5,3):(1,5)", "(3,5):(1,3)"), "15:2");
    assert_eq!(add("(2,3):(0,0)", "(3,2):(1,3)"), "6:1");
    assert_eq!(
        add("(4,3):(1@0,1@1)", "12:1@2"),
        "(4, 3):((1, 0, 1), (0, 1, 4))"
    );
    assert_eq!(add("1:5", "1:7"), "1:0");
    assert_eq!(kind(layout_add(&l("12:1"), &l("6:1"))), "value");
    assert_eq!(
        kind(layout_add(&l("(4,3):(1@0,1@1)"), &l("(4,3):(3,1)"))),
        "type"
    );
}

#[test]
fn layout_add_f2_and_no_refinement() {
    // docs/language.md, "Swizzles"
    assert_eq!(add("4:F1", "4:F4"), "4:F5");
    // coalesced (3,5):(1,100) and (5,3):(1,100) share no factorisation
    assert_eq!(
        kind(layout_add(&l("(3,5):(1,100)"), &l("(5,3):(1,100)"))),
        "value"
    );
}

#[test]
fn greatest_common_domain_table() {
    assert_eq!(gcd_dom("(10,)", "(10,)"), "(10,):(1,)");
    assert_eq!(gcd_dom("(16,3)", "(16,3)"), "(16, 3):(1, 16)");
    assert_eq!(gcd_dom("(5,3,4)", "(10,6)"), "(5, 2):(1, 30)");
    assert_eq!(gcd_dom("(6,35)", "(15,14)"), "(3, 7):(1, 30)");
    assert_eq!(gcd_dom("(5,3)", "(3,5)"), "(1,):(0,)");
    assert_eq!(gcd_dom("(2,2,6)", "(4,6)"), "(2, 2, 6):(1, 2, 4)");
    assert_eq!(gcd_dom("(8,3)", "(4,6)"), "(4, 2, 3):(1, 4, 8)");
    assert_eq!(gcd_dom("24", "24"), "(24,):(1,)");
}

#[test]
fn greatest_common_domain_rejects_nonpositive() {
    let a = rcute::HTuple::flat([4i64, 0]);
    let b = sh("(4,1)");
    assert_eq!(
        kind(greatest_common_domain(a.as_ref(), b.as_ref())),
        "value"
    );
}

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

/// Random factorisation of `n` into leaves (ones allowed).
fn factorise(n: i64, picks: &[u8]) -> Vec<i64> {
    let mut out = Vec::new();
    let mut rest = n;
    for &p in picks {
        if rest == 1 {
            if p % 5 == 0 {
                out.push(1);
            }
            continue;
        }
        let divs: Vec<i64> = (1..=rest).filter(|d| rest % d == 0).collect();
        let d = divs[p as usize % divs.len()];
        out.push(d);
        rest /= d;
    }
    out.push(rest);
    out
}

fn arb_size() -> impl Strategy<Value = i64> {
    prop::sample::select(vec![
        1i64, 2, 4, 6, 8, 12, 16, 24, 30, 36, 48, 60, 64, 72, 90,
    ])
}

fn arb_strides(n: usize) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(-20i64..40, n)
}

fn arb_pair() -> impl Strategy<Value = (Layout, Layout)> {
    (
        arb_size(),
        prop::collection::vec(any::<u8>(), 0..4),
        prop::collection::vec(any::<u8>(), 0..4),
    )
        .prop_flat_map(|(n, pa, pb)| {
            let sa = factorise(n, &pa);
            let sb = factorise(n, &pb);
            let (la, lb) = (sa.len(), sb.len());
            (Just(sa), Just(sb), arb_strides(la), arb_strides(lb))
        })
        .prop_map(|(sa, sb, da, db)| (flat_layout(&sa, &ints(&da)), flat_layout(&sb, &ints(&db))))
}

/// Splits every leaf of `s` into random factors (a refinement of `s`).
fn refine(s: &[i64], picks: &[u8]) -> Vec<i64> {
    let mut out = Vec::new();
    for (k, &e) in s.iter().enumerate() {
        let p = picks.get(k).copied().unwrap_or(0);
        out.extend(factorise(e, &[p, p / 3]));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// R(i) == A(i) + B(i) for every i < size(A), whenever layout_add succeeds;
    /// it must succeed when the two shapes have the same leaves.
    #[test]
    fn layout_add_is_pointwise_sum((a, b) in arb_pair()) {
        let same = a.shape().leaves() == b.shape().leaves();
        match layout_add(&a, &b) {
            Ok(r) => {
                prop_assert_eq!(r.size().unwrap(), a.size().unwrap());
                for i in 0..a.size().unwrap() {
                    let want = a.eval_index(i).unwrap().add(&b.eval_index(i).unwrap()).unwrap();
                    prop_assert_eq!(r.eval_index(i).unwrap(), want, "i = {}, R = {}", i, r);
                }
            }
            Err(e) => {
                prop_assert!(!same, "same shapes must add: {} + {}: {}", a, b, e);
                prop_assert_eq!(e.kind().name(), "value");
            }
        }
    }

    /// The common domain divides both sizes, both layouts are linear on it
    /// (A(G(i)) is the layout with strides A(g)), and a refinement of a shape
    /// shares its whole domain with it.
    #[test]
    fn greatest_common_domain_divides_both(
        (a, b) in arb_pair(),
        picks in prop::collection::vec(any::<u8>(), 0..6),
    ) {
        let g = greatest_common_domain(a.shape().as_ref(), b.shape().as_ref()).unwrap();
        let n = g.size().unwrap();
        prop_assert_eq!(a.size().unwrap() % n, 0);
        prop_assert_eq!(b.size().unwrap() % n, 0);
        prop_assert!(!g.is_leaf());
        for x in [&a, &b] {
            let d: Vec<Scalar> = g
                .stride()
                .leaves()
                .iter()
                .map(|gi| x.eval_index(as_i(gi)).unwrap())
                .collect();
            let lin = flat_layout(g.shape().leaves(), &d);
            for i in 0..n {
                let gi = as_i(&g.eval_index(i).unwrap());
                prop_assert!(gi >= 0 && gi < x.size().unwrap());
                prop_assert_eq!(lin.eval_index(i).unwrap(), x.eval_index(gi).unwrap());
            }
        }
        // G is injective into the domain
        let mut seen: Vec<i64> = (0..n).map(|i| as_i(&g.eval_index(i).unwrap())).collect();
        seen.sort();
        seen.dedup();
        prop_assert_eq!(seen.len() as i64, n);
        // a refinement of A's shape shares the whole domain
        let rs = refine(a.shape().leaves(), &picks);
        let r = greatest_common_domain(a.shape().as_ref(), rcute::HTuple::flat(rs.clone()).as_ref()).unwrap();
        prop_assert_eq!(r.size().unwrap(), a.size().unwrap(), "{:?} vs {:?}: {}", a.shape().leaves(), rs, r);
    }
}
