//! complement (`docs/operations.md`): worked examples and
//! property tests of its post-conditions.

use crate::divprod_util::{self as util, chain_layout, ev, lay, shp, small_layout};
use proptest::prelude::*;
use rcute::algebra::complement;
use rcute::{ErrorKind, HTuple, Layout, Scalar};

fn comp(a: &str) -> String {
    match complement(&lay(a), None) {
        Ok(c) => c.to_string(),
        Err(e) => format!("error ({})", e.kind().name()),
    }
}

fn comp_ext(a: &str, x: &str) -> String {
    let x = shp(x);
    match complement(&lay(a), Some(x.as_ref())) {
        Ok(c) => c.to_string(),
        Err(e) => format!("error ({})", e.kind().name()),
    }
}

#[test]
fn minimal_complements() {
    let rows = [
        ("4:2", "(2, 1):(1, 8)"),
        ("4:1", "1:4"),
        ("5:3", "(3, 1):(1, 15)"),
        ("(2,2):(1,6)", "(3, 1):(2, 12)"),
        ("(4,2):(1,16)", "(4, 1):(4, 32)"),
        ("(2,4,8):(32,0,2)", "(2, 2, 1):(1, 16, 64)"),
        ("((2,2),(2,2)):((1,4),(8,32))", "(2, 2, 1):(2, 16, 64)"),
        ("(4,2):(1,10)", "(2, 1):(4, 20)"),
        ("4:0", "1:1"),
        ("1:0", "1:1"),
        ("():()", "1:1"),
        ("(2,2):(1,1)", "error (injectivity)"),
        ("(2,2):(-1,4)", "error (injectivity)"),
        // complement(12) promotes 12 to 12:1
        ("12:1", "1:12"),
        // whitepaper Table 7 and other curated rows
        ("(4,8):(1,4)", "1:32"),
        ("(4,8):(8,1)", "1:32"),
        ("(4,(4,2)):(4,(1,16))", "1:32"),
        ("(4,8):(1,5)", "1:40"),
        ("((2,2),(2,4)):((0,1),(0,2))", "1:8"),
        ("(4,8):(1,8)", "(2, 1):(4, 64)"),
        ("((2,2),(2,4)):((0,2),(0,4))", "(2, 1):(1, 16)"),
        ("((2,4),1):((1,2),1)", "1:8"),
        ("(5,11,8,1):(3,120,1320,30)", "(3, 8, 1):(1, 15, 10560)"),
        ("(11,4,1,11):(220,5,220,20)", "(5, 1):(1, 2420)"),
    ];
    for (a, want) in rows {
        assert_eq!(comp(a), want, "complement({a})");
    }
}

#[test]
fn multi_term_and_f2_strides_are_type_errors() {
    // 4:(1,1): a leaf shape with the two-term coordinate stride (1, 1)
    let a = Layout::new(
        HTuple::leaf(4),
        HTuple::leaf(Scalar::coord(vec![Scalar::Int(1), Scalar::Int(1)])),
    )
    .unwrap();
    assert_eq!(complement(&a, None).unwrap_err().kind(), ErrorKind::Type);
    let f = Layout::new(
        HTuple::flat([8, 8]),
        HTuple::flat([Scalar::F2(1), Scalar::F2(9)]),
    )
    .unwrap();
    assert_eq!(complement(&f, None).unwrap_err().kind(), ErrorKind::Type);
    // mixed integer and coordinate strides cannot be ordered
    assert_eq!(comp("(4,8):(1,1@1)"), "error (type)");
}

#[test]
fn coordinate_codomains() {
    let rows = [
        ("3:1@0", "(1,):(3@0,)"),
        ("(4,8):(1@0,1@1)", "(1, 1):(4@0, 8@1)"),
        ("(4,8):(1@1,1@0)", "(1, 1):(8@0, 4@1)"),
        ("3:4@2", "(1, 1, (4, 1)):(1@0, 1@1, (1@2, 12@2))"),
        (
            "(2,5,3):(4@1,5@0,16@1)",
            "((5, 1), (4, 2, 1)):((1@0, 25@0), (1@1, 8@1, 48@1))",
        ),
        (
            "(2,3,5):(4@1,0,7@1@2)",
            "(1, (4, 1), (1, (7, 1))):(1@0, (1@1, 8@1), (1@0@2, (1@1@2, 35@1@2)))",
        ),
        ("9:1@1", "(1, 1):(1@0, 9@1)"),
        (
            "(3,5,7,5):(2@0,1@1,1@2,1@3)",
            "((2, 1), 1, 1, 1):((1@0, 6@0), 5@1, 7@2, 5@3)",
        ),
        ("(3,6):(1@1,1@0)", "(1, 1):(6@0, 3@1)"),
        (
            "((7,11),5):((1@0,7@0),3@1)",
            "(1, (3, 1)):(77@0, (1@1, 15@1))",
        ),
    ];
    for (a, want) in rows {
        assert_eq!(comp(a), want, "complement({a})");
    }
}

#[test]
fn extended_complements() {
    let rows = [
        ("4:2", "20", "(2, 3):(1, 8)"),
        ("4:2", "24", "(2, 3):(1, 8)"),
        ("4:2", "8", "2:1"),
        ("4:2", "(16,3)", "(2, 6):(1, 8)"),
        ("4:1", "24", "6:4"),
        ("6:4", "24", "4:1"),
        ("(2,2):(1,6)", "24", "(3, 2):(2, 12)"),
        ("(4,6):(1,4)", "24", "1:24"),
        ("4:0", "24", "24:1"),
        ("4:8", "100", "(8, 4):(1, 32)"),
        ("4:2", "0", "(2, 1):(1, 8)"),
        ("4:2", "()", "(2, 1):(1, 8)"),
        ("3:1@0", "(6,4)", "(2, 4):(3@0, 1@1)"),
        ("(2,2):(1@0,2@1)", "(4,8)", "(2, (2, 2)):(2@0, (1@1, 4@1))"),
        (
            "(2,2):(1@0,2@1)",
            "(4,8,3)",
            "(2, (2, 2), 3):(2@0, (1@1, 4@1), 1@2)",
        ),
        ("(2,2):(1@0,2@1)", "(4,)", "error (type)"),
        ("(2,2):(1@0,2@1)", "32", "error (type)"),
        // the leafwise ceiling rule: a tuple extend differs from its size
        ("(4,8):(1,4)", "(12,32)", "11:32"),
        ("(4,8):(1,4)", "384", "12:32"),
        // conformance rows
        ("29:32", "29", "32:1"),
        ("5:1", "(3,6)", "3:5"),
        ("(8,5,10):(300,2,10)", "2206", "(2, 3):(1, 100)"),
        ("(10,(11,4)):(2,(0,0))", "76", "(2, 4):(1, 20)"),
        ("19:0", "(2,2,3)", "12:1"),
        ("1:4", "2", "2:1"),
        ("(1,4):(0,1)", "4", "1:4"),
        ("((2,4),1):((1,2),1)", "7", "1:8"),
        ("5:1@0", "(5,)", "(1,):(5@0,)"),
        ("(3,1,1):(1@0,1@1,3@0)", "(6,1)", "(2, 1):(3@0, 1@1)"),
        (
            "((8,7),):((14@0,2@0),)",
            "(333,)",
            "((2, 3),):((1@0, 112@0),)",
        ),
        (
            "((4,2,8),(7,9)):((16@0,8@0,1@0),(1@1,7@1))",
            "(192,126)",
            "(3, 2):(64@0, 63@1)",
        ),
        ("(37,7):(1@0,1@1)", "(111,14)", "(3, 2):(37@0, 7@1)"),
        (
            "(10,2,1):(3@0,3@1,2@2)",
            "(56,8,2)",
            "((3, 2), (3, 2), 2):((1@0, 30@0), (1@1, 6@1), 1@2)",
        ),
        (
            "((4,18,7),1):((2@0,8@0,144@0),1@1)",
            "(3021,1)",
            "((2, 3), 1):((1@0, 1008@0), 1@1)",
        ),
    ];
    for (a, x, want) in rows {
        assert_eq!(comp_ext(a, x), want, "complement({a}, extend={x})");
    }
}

/// The modes of `a` that matter for injectivity: non-zero stride, size > 1.
fn image(a: &Layout) -> Vec<i64> {
    (0..a.size().unwrap()).map(|j| ev(a, j)).collect()
}

fn essential_size(a: &Layout) -> i64 {
    a.flat_modes()
        .filter(|(_, d)| !d.is_zero())
        .map(|(s, _)| s)
        .product()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Ordered (strictly increasing on the extended domain) and disjoint
    /// from A's image; success implies A is injective on its non-zero modes.
    #[test]
    fn minimal_is_ordered_and_disjoint(a in small_layout(4, true)) {
        match complement(&a, None) {
            Ok(c) => {
                let n = c.size().unwrap();
                prop_assert!(c.has_integer_strides());
                // ends with a size-1 extension mode unless everything merged
                let last_shape = *c.shape().leaves().last().unwrap();
                prop_assert_eq!(last_shape, 1, "{} has no trailing extension mode", c);
                for i in 1..(2 * n + 3) {
                    prop_assert!(ev(&c, i - 1) < ev(&c, i), "{} not increasing at {}", c, i);
                }
                let img = image(&a);
                for i in 1..(2 * n + 3) {
                    let ci = ev(&c, i);
                    prop_assert!(!img.contains(&ci), "C({}) = {} is in the image of {}", i, ci, a);
                }
                let mut distinct = img.clone();
                distinct.sort();
                distinct.dedup();
                prop_assert_eq!(distinct.len() as i64, essential_size(&a), "{} accepted but not injective", a);
            }
            Err(e) => prop_assert_eq!(e.kind(), ErrorKind::Injectivity),
        }
    }

    /// With a divisible stride chain, (A, C) is a bijection onto
    /// [0, size(A)*size(C)), minimal or extended to a multiple of its reach.
    #[test]
    fn divisible_chain_is_a_bijection(a in chain_layout(4), k in 1i64..=3) {
        let c = complement(&a, None).unwrap();
        let reach = {
            let d = c.stride().leaves().last().unwrap().as_int().unwrap();
            d
        };
        let ab = Layout::concat([a.clone(), c.clone()]).unwrap();
        let n = ab.size().unwrap();
        prop_assert_eq!(n, reach, "minimal (A, C) of {} has size {}", a, n);
        let mut vals: Vec<i64> = (0..n).map(|i| ev(&ab, i)).collect();
        vals.sort();
        prop_assert_eq!(vals, (0..n).collect::<Vec<_>>());

        let x = HTuple::leaf(reach * k);
        let ce = complement(&a, Some(x.as_ref())).unwrap();
        let abe = Layout::concat([a.clone(), ce.clone()]).unwrap();
        let ne = abe.size().unwrap();
        prop_assert_eq!(ne, reach * k, "extended (A, C) of {} has size {}", a, ne);
        let mut vals: Vec<i64> = (0..ne).map(|i| ev(&abe, i)).collect();
        vals.sort();
        prop_assert_eq!(vals, (0..ne).collect::<Vec<_>>());
    }

    /// The extended complement agrees with the minimal one on its domain,
    /// and grows it by the product of the leafwise ceilings.
    #[test]
    fn extension_follows_the_ceiling_rule(
        a in small_layout(3, true),
        xs in proptest::collection::vec(1i64..=40, 1..=3),
    ) {
        let Ok(c) = complement(&a, None) else { return Ok(()) };
        let x = if xs.len() == 1 { HTuple::leaf(xs[0]) } else { HTuple::flat(xs.clone()) };
        let ce = complement(&a, Some(x.as_ref())).unwrap();
        let mut ext = c.stride().leaves().last().unwrap().as_int().unwrap();
        let mut grow = 1i64;
        for &xk in &xs {
            grow *= (xk + ext - 1) / ext;
            ext = (ext + xk - 1) / xk;
        }
        let n = ce.size().unwrap();
        prop_assert_eq!(n, c.size().unwrap() * grow, "complement({}, extend={}) = {}", a, x, ce);
        for i in 0..n {
            prop_assert_eq!(ev(&ce, i), ev(&c, i));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No input panics: any stride kinds, extreme values, odd extends.
    #[test]
    fn complement_never_panics(a in util::wild_layout(), x in util::wild_shape(), ext in any::<bool>()) {
        let r = complement(&a, if ext { Some(x.as_ref()) } else { None });
        if let Ok(c) = r {
            prop_assert!(c.shape().leaves().iter().all(|&s| s > 0), "{}", c);
        }
    }
}
