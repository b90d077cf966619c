//! logical, zipped, tiled, flat, blocked and raked products (
//! `docs/operations.md`): every worked example and property tests of the
//! post-conditions.

use crate::divprod_util::{
    self as util, chain_layout, compatible, lay, show, small_layout, til, values,
};
use proptest::prelude::*;
use rcute::algebra::{
    blocked_product, complement, composition, flat_product, logical_product, raked_product,
    tiled_product, zipped_product,
};
use rcute::{Layout, Tiler};

type Op = fn(&Layout, &Tiler) -> rcute::Result<Layout>;

fn check(op: Op, name: &str, rows: &[(&str, &str, &str)]) {
    for (a, b, want) in rows {
        assert_eq!(show(op(&lay(a), &til(b))), *want, "{name}({a}, {b})");
    }
}

#[test]
fn logical_product_examples() {
    check(
        logical_product,
        "logical_product",
        &[
            ("(2,2):(4,1)", "6:1", "((2, 2), (2, 3)):((4, 1), (2, 8))"),
            ("3:1", "4:1", "(3, 4):(1, 3)"),
            (
                "(3,4):(4,1)",
                "(2,5):(1,2)",
                "((3, 4), (2, 5)):((4, 1), (12, 24))",
            ),
            (
                "(4,8):(20,2)",
                "(3,2):(2,1)",
                "((4, 8), (3, 2)):((20, 2), (80, 1))",
            ),
            (
                "(2,2):(4,1)",
                "(4,2):(2,1)",
                "((2, 2), (4, 2)):((4, 1), (8, 2))",
            ),
            ("4:1", "3:5", "(4, 3):(1, 20)"),
            ("4:1", "3", "(4, 3):(1, 4)"),
            (
                "(2,5):(5,1)",
                "(3:5, 4:6)",
                "((2, 3), (5, 4)):((5, 10), (1, 30))",
            ),
            ("(2,5):(5,1)", "(3,4)", "((2, 3), (5, 4)):((5, 1), (1, 5))"),
            // logical_product[0]((3,5):(1,20), 4:1) and [1]: lifted tilers (section 18)
            ("(3,5):(1,20)", "(4:1,)", "((3, 4), 5):((1, 3), 20)"),
            ("(3,5):(1,20)", "(_,4:1)", "(3, (5, 4)):(1, (20, 1))"),
            (
                "(2,2):(1@0,1@1)",
                "(3,2):(1@0,1@1)",
                "((2, 2), (3, 2)):((1@0, 1@1), (2@0, 2@1))",
            ),
            ("5:8", "(8,2):(1,4)", "(5, (8, 2)):(8, (1, 4))"),
            ("(2,):(1,)", "1:1", "((2,), 1):((1,), 2)"),
            ("4:2", "3:1", "error (divisibility)"),
            (
                "((1,1,2),(6,5)):((3,12,12),(360,24))",
                "(36,2):(1,1)",
                "error (divisibility)",
            ),
            ("(2,5):(5,1)", "(3,4):(1@0,1@1)", "error (rank)"),
            ("(2,5):(5,1)", "(3,4,2)", "error (rank)"),
            ("(2,2):(1,1)", "3", "error (injectivity)"),
            ("(2,5):(5,1)", "_", "(2, 5):(5, 1)"),
        ],
    );
}

#[test]
fn zipped_tiled_flat_examples() {
    let rows_z = [
        (
            "(2,5):(5,1)",
            "(3:5, 4:6)",
            "((2, 5), (3, 4)):((5, 1), (10, 30))",
        ),
        (
            "(2,5):(5,1)",
            "(3,4):(1,3)",
            "((2, 5), (3, 4)):((5, 1), (10, 30))",
        ),
        (
            "(2,5,3):(5,1,10)",
            "(3,4)",
            "((2, 5), (3, 4, 3)):((5, 1), (1, 5, 10))",
        ),
        ("4:1", "3:1", "(4, 3):(1, 4)"),
        ("(2,5):(5,1)", "(3,_)", "error (rank)"),
        (
            "(3,(4,7)):(2,(5,5))",
            "(2:1,_)",
            "((3, 4), (2, 7)):((2, 5), (1, 5))",
        ),
        ("(2,5):(5,1)", "(3,4,2)", "error (rank)"),
    ];
    check(zipped_product, "zipped_product", &rows_z);
    check(
        tiled_product,
        "tiled_product",
        &[(
            "(2,5):(5,1)",
            "(3:5, 4:6)",
            "((2, 5), 3, 4):((5, 1), 10, 30)",
        )],
    );
    check(
        flat_product,
        "flat_product",
        &[
            ("(2,5):(5,1)", "(3:5, 4:6)", "(2, 5, 3, 4):(5, 1, 10, 30)"),
            ("4:1", "(3,2):(1,3)", "(4, 3, 2):(1, 4, 12)"),
        ],
    );
}

#[test]
fn blocked_raked_examples() {
    check(
        blocked_product,
        "blocked_product",
        &[
            (
                "(2,5):(5,1)",
                "(3,4):(1,3)",
                "((2, 3), (5, 4)):((5, 10), (1, 30))",
            ),
            (
                "(3,4):(4,1)",
                "(2,5):(1,2)",
                "((3, 2), (4, 5)):((4, 12), (1, 24))",
            ),
            (
                "(2,5,1):(5,1,0)",
                "(3,4,2):(1,3,12)",
                "((2, 3), (5, 4), (1, 2)):((5, 10), (1, 30), (0, 120))",
            ),
            (
                "(2,(2,2)):(1,(4,2))",
                "(2,3):(1,2)",
                "((2, 2), ((2, 2), 3)):((1, 8), ((4, 2), 16))",
            ),
            ("4:1", "3:1", "((4, 3),):((1, 4),)"),
            ("(2,5):(5,1)", "12:1", "((2, 12), (5, 1)):((5, 10), (1, 0))"),
            (
                "(2,5):(5,1)",
                "(3,4,2):(1,3,12)",
                "((2, 3), (5, 4), (1, 2)):((5, 10), (1, 30), (0, 120))",
            ),
            ("(5,):(4,)", "8:1", "((5, 4), (1, 2)):((4, 1), (0, 20))"),
            ("(2,5):(5,1)", "(3,4)", "((2, 5), (3, 4)):((5, 1), (1, 5))"),
            ("(2,5):(5,1)", "(3,4,2)", "error (rank)"),
            ("(2,5):(5,1)", "_", "error (type)"),
        ],
    );
    check(
        raked_product,
        "raked_product",
        &[
            (
                "(2,5):(5,1)",
                "(3,4):(1,3)",
                "((3, 2), (4, 5)):((10, 5), (30, 1))",
            ),
            (
                "(3,4):(4,1)",
                "(2,5):(1,2)",
                "((2, 3), (5, 4)):((12, 4), (24, 1))",
            ),
            (
                "(2,(2,2)):(1,(4,2))",
                "(2,3):(1,2)",
                "((2, 2), (3, (2, 2))):((8, 1), (16, (4, 2)))",
            ),
            ("4:1", "3:1", "((3, 4),):((4, 1),)"),
            ("(2,5):(5,1)", "12:1", "((12, 2), (1, 5)):((10, 5), (0, 1))"),
            ("(5,):(4,)", "8:1", "((4, 5), (2, 1)):((1, 4), (20, 0))"),
            ("(7,9):(2,28)", "(8,2):(1,1)", "error (divisibility)"),
            // conformance rows with padded operands
            (
                "(6,7):(7,1)",
                "((4,5,1),):((1,4,20),)",
                "(((4, 5, 1), 6), (1, 7)):(((42, 168, 840), 7), (0, 1))",
            ),
            (
                "(12,1):(9,5)",
                "(27,9):(1,1)",
                "(((9, 3), 12), (9, 1)):(((1, 108), 9), (1, 5))",
            ),
            ("(12,):(1,)", "1:1", "((1, 12),):((12, 1),)"),
        ],
    );
}

fn same_function_rearranged(x: &Layout, y: &Layout) -> bool {
    x.size().unwrap() == y.size().unwrap() && values(x) == values(y)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// rank 2, R[0] == A, compatible(B, R[1]), R[1] == composition(A*, B);
    /// for an injective A with a divisible chain and an injective B the
    /// product is injective (distinct repetitions of A).
    #[test]
    fn logical_product_post_conditions(a in small_layout(3, true), b in small_layout(2, true)) {
        let tb = Tiler::Layout(b.clone());
        let Ok(r) = logical_product(&a, &tb) else {
            let c = complement(&a, None);
            prop_assert!(c.is_err() || composition(&c.unwrap(), &tb).is_err());
            return Ok(());
        };
        prop_assert!(!r.is_leaf() && r.rank() == 2);
        prop_assert_eq!(r.mode(0).unwrap(), a.clone());
        let r1 = r.mode(1).unwrap();
        prop_assert!(compatible(b.shape().as_ref(), r1.shape().as_ref()), "{} vs {}", b, r1);
        prop_assert_eq!(r1, composition(&complement(&a, None).unwrap(), &tb).unwrap());
    }

    #[test]
    fn product_of_chains_is_injective(a in chain_layout(3), b in chain_layout(2)) {
        let tb = Tiler::Layout(b.clone());
        let Ok(r) = logical_product(&a, &tb) else { return Ok(()) };
        let v = values(&r);
        let mut d = v.clone();
        d.dedup();
        prop_assert_eq!(d.len(), v.len(), "{} x {} = {} is not injective", a, b, r);
        prop_assert_eq!(r.size().unwrap(), a.size().unwrap() * b.size().unwrap());
    }

    /// blocked / raked: size(R) = size(A) * size(B), the same values as the
    /// logical product of the padded operands, one pair per mode.
    #[test]
    fn blocked_raked_sizes(a in small_layout(3, false), b in small_layout(3, false)) {
        let tb = Tiler::Layout(b.clone());
        let want = a.size().unwrap() * b.size().unwrap();
        for (raked, res) in [(false, blocked_product(&a, &tb)), (true, raked_product(&a, &tb))] {
            let Ok(r) = res else { continue };
            prop_assert_eq!(r.size().unwrap(), want, "raked={} {} {} = {}", raked, a, b, r);
            prop_assert!(r.rank() >= a.rank().max(b.rank()));
            for m in r.modes() {
                prop_assert!(!m.is_leaf() && m.rank() == 2, "mode {} of {}", m, r);
            }
            let lp = logical_product(&a, &tb);
            if a.rank() == b.rank() {
                if let Ok(lp) = lp {
                    prop_assert!(same_function_rearranged(&r, &lp), "{} vs {}", r, lp);
                    // blocked: mode i starts with A's mode i (raked: ends with it);
                    // past A's modes (padding of the first half) it is 1:0
                    let k = if raked { 1 } else { 0 };
                    let mut am = a.modes();
                    for m in r.modes() {
                        let ai = am.next().unwrap_or_else(|| lay("1:0"));
                        prop_assert_eq!(m.mode(k).unwrap(), ai);
                    }
                }
            }
        }
    }

    /// zipped / tiled / flat products rearrange the logical product.
    #[test]
    fn zipped_tiled_flat_rearrange(a in small_layout(2, false), b in small_layout(2, false)) {
        let tb = Tiler::Layout(b.clone());
        let Ok(lp) = logical_product(&a, &tb) else { return Ok(()) };
        let z = zipped_product(&a, &tb).unwrap();
        prop_assert_eq!(&z, &lp);
        let t = tiled_product(&a, &tb).unwrap();
        let f = flat_product(&a, &tb).unwrap();
        prop_assert!(same_function_rearranged(&t, &lp));
        prop_assert!(same_function_rearranged(&f, &lp));
        prop_assert_eq!(t.mode(0).unwrap(), a.clone());
    }

    /// By mode: zipped_product gathers A's modes in mode 0 and the tiles in
    /// mode 1; each tile equals the single-mode product's second half.
    #[test]
    fn by_mode_zipped_product(a0 in chain_layout(2), a1 in chain_layout(2), n0 in 1i64..=4, n1 in 1i64..=4) {
        let a = Layout::concat([a0.clone(), a1.clone()]).unwrap();
        let t = Tiler::Tuple(vec![Tiler::Int(n0), Tiler::Int(n1)].into());
        let (Ok(p0), Ok(p1)) = (
            logical_product(&a0, &Tiler::Int(n0)),
            logical_product(&a1, &Tiler::Int(n1)),
        ) else { return Ok(()) };
        let z = zipped_product(&a, &t).unwrap();
        let z0 = z.mode(0).unwrap();
        let z1 = z.mode(1).unwrap();
        prop_assert_eq!(z0.mode(0).unwrap(), a0);
        prop_assert_eq!(z0.mode(1).unwrap(), a1);
        prop_assert_eq!(z1.mode(0).unwrap(), p0.mode(1).unwrap());
        prop_assert_eq!(z1.mode(1).unwrap(), p1.mode(1).unwrap());
        let bl = blocked_product(&a, &t).unwrap();
        prop_assert_eq!(bl.size().unwrap(), a.size().unwrap() * n0 * n1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No input panics: any stride kinds, extreme values, odd tilers.
    #[test]
    fn products_never_panic(a in util::wild_layout(), b in util::wild_tiler()) {
        let _ = logical_product(&a, &b);
        let _ = zipped_product(&a, &b);
        let _ = tiled_product(&a, &b);
        let _ = flat_product(&a, &b);
        let _ = blocked_product(&a, &b);
        let _ = raked_product(&a, &b);
    }
}
