//! recast, upcast, downcast (`docs/operations.md`).
use crate::inverse_support::{flat_layout, ints, kind, l};
use proptest::prelude::*;
use rcute::algebra::{downcast, recast, upcast, Scale};
use rcute::{Layout, Scalar};

fn r(a: &str, num: i64, den: i64) -> String {
    recast(&l(a), &Scale::Ratio { num, den })
        .unwrap()
        .to_string()
}

fn rk(a: &str, num: i64, den: i64) -> &'static str {
    kind(recast(&l(a), &Scale::Ratio { num, den }))
}

#[test]
fn recast_table() {
    assert_eq!(r("24:1", 8, 1), "3:1");
    assert_eq!(r("24:1", 1, 2), "48:1");
    assert_eq!(r("24:2", 4, 1), "12:1");
    assert_eq!(r("(4,4):(4,1)", 4, 1), "(4, 1):(1, 1)");
    assert_eq!(r("(4,6):(6,1)", 2, 1), "(4, 3):(3, 1)");
    assert_eq!(r("(4,6):(12,1)", 2, 3), "(4, 9):(18, 1)");
    assert_eq!(r("(4,6):(12,1)", 3, 2), "(4, 4):(8, 1)");
    assert_eq!(r("(4,(2,3)):(6,(3,1))", 3, 1), "(4, (2, 1)):(2, (1, 1))");
    assert_eq!(r("7:1", 2, 1), "4:1");
    let t = Scale::Tuple(vec![Scale::int(2), Scale::int(4)]);
    assert_eq!(
        recast(&l("(4,6):(2@0,4@1)"), &t).unwrap().to_string(),
        "(4, 6):(1@0, 1@1)"
    );
    assert_eq!(r("8:-4", 2, 1), "8:-2");
    assert_eq!(rk("24:3", 2, 1), "divisibility");
    assert_eq!(rk("8:-2", 2, 1), "value");
}

#[test]
fn recast_errors() {
    assert_eq!(rk("24:2", 0, 1), "value"); // division by zero
    assert_eq!(rk("24:2", 1, 0), "value");
    assert_eq!(rk("24:1", -2, 1), "value"); // negative shape
    assert_eq!(kind(recast(&l("(4,4):(F1,F4)"), &Scale::int(2))), "type");
    assert_eq!(kind(recast(&l("(4,6):(2@0,4@1)"), &Scale::int(2))), "type");
    assert_eq!(
        kind(recast(
            &l("(4,6):(2,4)"),
            &Scale::Tuple(vec![Scale::int(2)])
        )),
        "type"
    );
    assert_eq!(
        kind(recast(
            &l("(4,6):(2@0,4@3)"),
            &Scale::Tuple(vec![Scale::int(2)])
        )),
        "bounds"
    );
    // zero strides are left alone whatever the scale
    assert_eq!(r("(4,6):(0,1)", 3, 1), "(4, 2):(0, 1)");
    // a denominator's sign moves to the numerator
    assert_eq!(r("24:1", -1, -2), "48:1");
}

#[test]
fn upcast_downcast_table() {
    let up = |a: &str, n| upcast(&l(a), n).unwrap().to_string();
    let down = |a: &str, n| downcast(&l(a), n).unwrap().to_string();
    assert_eq!(up("(4,6):(1,4)", 2), "(2, 6):(1, 2)");
    assert_eq!(up("(4,6):(6,1)", 2), "(4, 3):(3, 1)");
    assert_eq!(up("(4,(2,3)):(24,(1,8))", 4), "(4, (1, 3)):(6, (1, 2))");
    assert_eq!(up("8:-2", 2), "8:-1");
    assert_eq!(up("7:1", 2), "4:1");
    assert_eq!(kind(upcast(&l("24:3"), 2)), "divisibility");
    assert_eq!(down("(4,6):(1,4)", 2), "(8, 6):(1, 8)");
    assert_eq!(down("((2,3),4):((1,2),6)", 4), "((8, 3), 4):((1, 8), 24)");
    assert_eq!(kind(downcast(&l("(4,6):(2,8)"), 2)), "value");
    // other algebras and bad factors
    assert_eq!(kind(upcast(&l("(4,6):(1@0,4@1)"), 2)), "type");
    assert_eq!(kind(downcast(&l("(4,6):(F1,F4)"), 2)), "type");
    assert_eq!(kind(upcast(&l("4:1"), 0)), "value");
    assert_eq!(kind(downcast(&l("4:1"), -1)), "value");
    // recast and downcast differ on a -1 stride
    assert_eq!(down("(4,6):(-1,1)", 2), "(8, 12):(-1, 1)");
    assert_eq!(r("(4,6):(-1,1)", 1, 2), "(4, 12):(-2, 1)");
}

fn arb_layout(lo: i64) -> impl Strategy<Value = Layout> {
    prop::collection::vec((1i64..9, lo..17), 1..5).prop_map(|m| {
        let s: Vec<i64> = m.iter().map(|x| x.0).collect();
        let d: Vec<i64> = m.iter().map(|x| x.1).collect();
        flat_layout(&s, &ints(&d))
    })
}

/// Layouts with at least one unit stride.
fn arb_unit_layout(lo: i64) -> impl Strategy<Value = Layout> {
    (arb_layout(lo), any::<prop::sample::Index>()).prop_map(|(a, ix)| {
        let s = a.shape().leaves().to_vec();
        let mut d = a.stride().leaves().to_vec();
        let k = ix.index(d.len());
        d[k] = Scalar::Int(1);
        flat_layout(&s, &d)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// recast(A, n) == upcast(A, n) for non-negative strides.
    #[test]
    fn recast_int_is_upcast(a in arb_layout(0), n in 1i64..9) {
        let x = recast(&a, &Scale::int(n));
        let y = upcast(&a, n);
        match (x, y) {
            (Ok(x), Ok(y)) => prop_assert_eq!(x, y),
            (Err(x), Err(y)) => {
                prop_assert_eq!(x.kind().name(), "divisibility");
                prop_assert_eq!(y.kind().name(), "divisibility");
            }
            (x, y) => prop_assert!(false, "{}: recast {:?} vs upcast {:?}", a, x, y),
        }
    }

    /// recast(A, 1/n) == downcast(A, n) for non-negative strides with a unit stride.
    #[test]
    fn recast_inverse_is_downcast(a in arb_unit_layout(0), n in 1i64..9) {
        let x = recast(&a, &Scale::Ratio { num: 1, den: n }).unwrap();
        let y = downcast(&a, n).unwrap();
        prop_assert_eq!(x, y);
    }

    /// upcast undoes downcast (any integer strides, one of them 1); downcast
    /// multiplies the size by N per unit-stride leaf.
    #[test]
    fn upcast_undoes_downcast(a in arb_unit_layout(-16), n in 1i64..9) {
        let d = downcast(&a, n).unwrap();
        prop_assert_eq!(d.size().unwrap(), a.size().unwrap() * n.pow(
            a.stride().leaves().iter().filter(|x| **x == Scalar::Int(1) || **x == Scalar::Int(-1)).count() as u32));
        prop_assert_eq!(upcast(&d, n).unwrap(), a);
    }

    /// Shapes of a recast are positive, or the recast fails with `value`
    /// (negative strides) or `divisibility`.
    #[test]
    fn recast_shapes_positive(a in arb_layout(-16), num in -6i64..7, den in 1i64..5) {
        match recast(&a, &Scale::Ratio { num, den }) {
            Ok(r) => {
                prop_assert!(r.shape().leaves().iter().all(|&s| s > 0));
                prop_assert!(r.shape().as_ref().congruent(a.shape().as_ref()));
            }
            Err(e) => {
                let k = e.kind().name();
                prop_assert!(k == "value" || k == "divisibility", "{}", e);
                if num == 0 { prop_assert_eq!(k, "value"); }
            }
        }
    }

    /// A coordinate layout recasts axis by axis like the integer layout of
    /// each axis with that axis's scale.
    #[test]
    fn recast_per_axis(m in prop::collection::vec((1i64..9, 0i64..9, 0usize..2), 1..5),
                       n0 in 1i64..5, n1 in 1i64..5) {
        let s: Vec<i64> = m.iter().map(|x| x.0).collect();
        let d: Vec<Scalar> = m.iter().map(|x| Scalar::basis(x.1, &[x.2])).collect();
        let a = flat_layout(&s, &d);
        let scale = Scale::Tuple(vec![Scale::int(n0), Scale::int(n1)]);
        let got = recast(&a, &scale);
        for (k, &(sz, st, ax)) in m.iter().enumerate() {
            let n = if ax == 0 { n0 } else { n1 };
            let one = recast(&flat_layout(&[sz], &ints(&[st])), &Scale::int(n));
            match (&got, one) {
                (Ok(g), Ok(o)) => {
                    prop_assert_eq!(g.shape().leaves()[k], o.shape().leaves()[0]);
                    let want = if st == 0 { Scalar::basis(0, &[ax]) } else {
                        Scalar::basis(o.stride().leaves()[0].as_int().unwrap(), &[ax]) };
                    prop_assert_eq!(&g.stride().leaves()[k], &want);
                }
                (Err(_), _) | (_, Err(_)) => {}
            }
        }
        let all_ok = m.iter().all(|&(sz, st, ax)| {
            let n = if ax == 0 { n0 } else { n1 };
            recast(&flat_layout(&[sz], &ints(&[st])), &Scale::int(n)).is_ok()
        });
        prop_assert_eq!(got.is_ok(), all_ok);
    }
}
