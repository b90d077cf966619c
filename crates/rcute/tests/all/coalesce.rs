//! coalesce, coalesce_z and by-mode coalesce (`docs/operations.md`):
//! every worked example, and properties on random layouts.

use crate::compose_util::{eval_ref, grouped, l, t};

use proptest::prelude::*;
use rcute::algebra::{coalesce, coalesce_by_mode, coalesce_z, coalesce_z_by_mode};
use rcute::tiler::tiler_to_layout;
use rcute::{ErrorKind, Layout, Scalar};

fn co(s: &str) -> String {
    coalesce(&l(s)).unwrap().to_string()
}
fn coz(s: &str) -> String {
    coalesce_z(&l(s)).unwrap().to_string()
}

#[test]
fn section1_examples() {
    assert_eq!(co("(2,(1,6)):(1,(6,2))"), "12:1");
    assert_eq!(co("(2,4,6):(24,6,1)"), "(2, 4, 6):(24, 6, 1)");
    assert_eq!(co("(2,1,6,1):(1,7,8,0)"), "(2, 6):(1, 8)");
    assert_eq!(coz("(2,1,6,1):(1,7,8,0)"), "(2, 6, 1):(1, 8, 0)");
    assert_eq!(co("((2,2),(2,2)):((1,4),(8,32))"), "(2, 4, 2):(1, 4, 32)");
    assert_eq!(co("(4,1):(1,0)"), "4:1");
    assert_eq!(coz("(4,1):(1,0)"), "(4, 1):(1, 0)");
    assert_eq!(co("(1,1):(3,5)"), "1:5");
    assert_eq!(co("():()"), "1:0");
    assert_eq!(coz("():()"), "1:0");
    assert_eq!(co("(3,2):(-1,-3)"), "6:-1");
    // F2 coordinate strides merge only over a power-of-two extent (hand
    // derivation: (3,2):(F1@0,F3@0) at 5 = (2,1) is F2^F3 = F1@0, while
    // 6:F1@0 would give F5@0)
    assert_eq!(co("(3,2):(F1@0,F3@0)"), "(3, 2):(F1@0, F3@0)");
    assert_eq!(co("(2,2):(F1@0,F2@0)"), "4:F1@0");
    assert_eq!(co("(2,3):(F1@1,F2@1)"), "6:F1@1");
    assert_eq!(co("(4,(3,2)):(1@1,(4@1,1@0))"), "(12, 2):(1@1, 1@0)");
    assert_eq!(co("(4,1):(1@0,1@1)"), "4:1@0");
    assert_eq!(coz("(4,1):(1@0,1@1)"), "(4, 1):(1@0, 1@1)");
    assert_eq!(co("(2,4):(F1,F2)"), "8:F1");
    let twelve = tiler_to_layout(&t("12")).unwrap();
    assert_eq!(coalesce(&twelve).unwrap().to_string(), "12:1");
    let four_three = tiler_to_layout(&t("(4,3)")).unwrap();
    assert_eq!(
        coalesce(&four_three).unwrap().to_string(),
        "(4, 3):(1@0, 1@1)"
    );
}

#[test]
fn section1_remarks() {
    // F2 merge needs a power-of-two extent
    assert_eq!(co("(2,3):(F1,F2)"), "6:F1");
    assert_eq!(co("(3,4):(F1,F3)"), "(3, 4):(F1, F3)");
    // zero strides merge with zero strides
    assert_eq!(co("(2,3):(0,0)"), "6:0");
    // a leaf stays a leaf, size-1 leaf keeps its stride
    assert_eq!(co("1:5"), "1:5");
    assert_eq!(co("7:3"), "7:3");
    // F0 merges with anything that equals sa*F0
    assert_eq!(co("(3,5):(F0,F0)"), "15:F0");
}

#[test]
fn section2_examples() {
    let by = |a: &str, p: &str| coalesce_by_mode(&l(a), &t(p));
    let a = "(2,(1,6)):(1,(6,2))";
    assert_eq!(by(a, "(1,1)").unwrap().to_string(), "(2, 6):(1, 2)");
    assert_eq!(
        by(a, "(1,)").unwrap().to_string(),
        "(2, (1, 6)):(1, (6, 2))"
    );
    assert_eq!(by(a, "(_,1)").unwrap().to_string(), "(2, 6):(1, 2)");
    assert_eq!(
        by(a, "(1,(1,1))").unwrap().to_string(),
        "(2, (1, 6)):(1, (6, 2))"
    );
    assert_eq!(
        by("((2,3),(1,6)):((1,2),(6,6))", "((1,),1)")
            .unwrap()
            .to_string(),
        "((2, 3), 6):((1, 2), 6)"
    );
    assert_eq!(by("12:1", "(1,)").unwrap().to_string(), "(12,):(1,)");
    assert_eq!(by(a, "(1,1,1)").unwrap_err().kind(), ErrorKind::Rank);
    assert_eq!(by(a, "_").unwrap().to_string(), "(2, (1, 6)):(1, (6, 2))");
    // leaf values are ignored
    assert_eq!(by(a, "(0,0)").unwrap().to_string(), "(2, 6):(1, 2)");
    assert_eq!(by(a, "1").unwrap().to_string(), "12:1");
}

#[test]
fn section18_mode_indexed_coalesce_rows() {
    // coalesce[path](A) = coalesce(A, lift(1, path))
    assert_eq!(
        coalesce_by_mode(&l("(3,(2,6)):(1,(3,6))"), &t("(_,1)"))
            .unwrap()
            .to_string(),
        "(3, 12):(1, 3)"
    );
    assert_eq!(
        coalesce_z_by_mode(&l("(3,(2,6,1)):(1,(3,6,5))"), &t("(_,1)"))
            .unwrap()
            .to_string(),
        "(3, (12, 1)):(1, (3, 5))"
    );
    assert_eq!(
        coalesce_by_mode(&l("((2,3),(4,5)):((1,2),(6,30))"), &t("(1,)"))
            .unwrap()
            .to_string(),
        "(6, (4, 5)):(1, (6, 30))"
    );
}

// ---------------------------------------------------------------------------
// properties

#[derive(Clone, Debug)]
enum Kind {
    Int,
    Coord,
    F2,
    /// F2 values on coordinate axes (`F3@1`)
    F2Coord,
}

/// Random layouts rich in size-1 modes, zero strides and mergeable runs.
fn arb_layout(kind: Kind) -> impl Strategy<Value = Layout> {
    (1usize..=6, any::<u64>()).prop_map(move |(n, seed)| {
        let mut rng = seed;
        let mut next = |m: u64| {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) % m
        };
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        let mut prev: (i64, i64) = (1, 1);
        let mut size = 1;
        for _ in 0..n {
            let mut s = [1, 1, 2, 2, 3, 4, 5, 8][next(8) as usize];
            if size * s > 600 {
                s = 1;
            }
            size *= s;
            let d: i64 = match next(5) {
                0 => 0,
                1 => prev.0 * prev.1, // continues the previous mode: mergeable
                2 => -(1 + next(4) as i64),
                _ => 1 + next(12) as i64,
            };
            prev = (s, d);
            shape.push(s);
            let ds = match kind {
                Kind::Int => Scalar::Int(d),
                Kind::F2 => Scalar::F2(d.abs()),
                Kind::Coord => {
                    let axis = next(2) as usize;
                    if d == 0 {
                        Scalar::Int(0)
                    } else {
                        Scalar::basis(d, &[axis])
                    }
                }
                Kind::F2Coord => {
                    let axis = next(2) as usize;
                    if d == 0 {
                        Scalar::Int(0)
                    } else {
                        Scalar::scaled_basis(Scalar::F2(d.abs()), &[axis])
                    }
                }
            };
            stride.push(ds);
        }
        // random nesting
        let mut groups = Vec::new();
        let mut left = n;
        while left > 0 {
            let g = 1 + next(left as u64) as usize;
            groups.push(g);
            left -= g;
        }
        grouped(&shape, &stride, &groups)
    })
}

fn check_coalesced_form(r: &Layout, z: bool) {
    assert!(r.depth().unwrap() <= 1, "{r} nested");
    let s = r.shape().leaves();
    let d = r.stride().leaves();
    for k in 0..s.len() {
        let last = k + 1 == s.len();
        if s[k] == 1 {
            // only a last mode may have size 1; coalesce keeps it only alone
            assert!(last, "{r}: interior size-1 mode");
            if !z {
                assert_eq!(s.len(), 1, "{r}: size-1 mode kept");
            }
        }
        if !last {
            // no adjacent pair that the merge rule would merge
            let merged = d[k].mul_int(s[k]).map(|p| p == d[k + 1]).unwrap_or(false);
            let f2_ok = !holds_f2(&d[k]) || d[k].is_zero() || (s[k] & (s[k] - 1)) == 0;
            assert!(!(merged && f2_ok), "{r}: modes {k} and {} mergeable", k + 1);
        }
    }
}

/// An F2 value, or a coordinate value with an F2 child.
fn holds_f2(x: &Scalar) -> bool {
    match x {
        Scalar::F2(_) => true,
        Scalar::Int(_) => false,
        Scalar::Coord(c) => c.children().iter().any(holds_f2),
    }
}

fn check_function(a: &Layout, kind: &Kind) {
    let n = a.size().unwrap();
    let r = coalesce(a).unwrap();
    let rz = coalesce_z(a).unwrap();
    assert_eq!(r.size().unwrap(), n);
    assert_eq!(rz.size().unwrap(), n);
    check_coalesced_form(&r, false);
    check_coalesced_form(&rz, true);
    for i in 0..n {
        assert_eq!(
            eval_ref(&r, i),
            eval_ref(a, i),
            "coalesce({a}) = {r} at {i}"
        );
    }
    // coalesce_z: the extended domain (F2 only for non-negative indices)
    let lo = if matches!(kind, Kind::F2 | Kind::F2Coord) {
        0
    } else {
        -2 * n - 3
    };
    for i in lo..3 * n + 5 {
        assert_eq!(
            eval_ref(&rz, i),
            eval_ref(a, i),
            "coalesce_z({a}) = {rz} at {i}"
        );
    }
    // idempotent
    assert_eq!(coalesce(&r).unwrap(), r);
    assert_eq!(coalesce_z(&rz).unwrap(), rz);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn coalesce_preserves_function_int(a in arb_layout(Kind::Int)) {
        check_function(&a, &Kind::Int);
    }

    #[test]
    fn coalesce_preserves_function_coord(a in arb_layout(Kind::Coord)) {
        check_function(&a, &Kind::Coord);
    }

    #[test]
    fn coalesce_preserves_function_f2(a in arb_layout(Kind::F2)) {
        check_function(&a, &Kind::F2);
    }

    #[test]
    fn coalesce_preserves_function_f2_coord(a in arb_layout(Kind::F2Coord)) {
        // the merge rule on F2 coordinate strides: (3,2):(F1@0,F3@0) stays
        check_function(&a, &Kind::F2Coord);
    }

    #[test]
    fn by_mode_coalesce_is_modewise(a in arb_layout(Kind::Int), mask in any::<u8>()) {
        // a flat profile with None / 1 per mode coalesces exactly those modes
        let modes: Vec<Layout> = a.modes().collect();
        let prof: Vec<rcute::Tiler> = (0..modes.len())
            .map(|i| if mask >> (i % 8) & 1 == 1 { rcute::Tiler::Int(1) } else { rcute::Tiler::None })
            .collect();
        let r = coalesce_by_mode(&a, &rcute::Tiler::Tuple(prof.clone().into())).unwrap();
        prop_assert_eq!(r.rank(), modes.len());
        for (i, (m, rm)) in modes.iter().zip(r.modes()).enumerate() {
            if matches!(prof[i], rcute::Tiler::None) {
                prop_assert_eq!(&rm, m);
            } else {
                prop_assert_eq!(&rm, &coalesce(m).unwrap());
            }
        }
        // a longer profile is a rank error
        let long = rcute::Tiler::Tuple(vec![rcute::Tiler::Int(1); modes.len() + 1].into());
        prop_assert_eq!(coalesce_by_mode(&a, &long).unwrap_err().kind(), ErrorKind::Rank);
    }
}
