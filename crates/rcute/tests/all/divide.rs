//! logical_divide, zipped/tiled/flat divide (`docs/operations.md`,
//! 18, 20): every worked example and property tests of the
//! post-conditions.

use crate::divprod_util::{
    self as util, compatible, lay, show, small_layout, til, tiling_pair, values,
};
use proptest::prelude::*;
use rcute::algebra::{
    composition, composition_none, flat_divide, logical_divide, logical_divide_none,
    logical_divide_none_at, tiled_divide, zipped_divide,
};
use rcute::tiler::tiler_to_layout;
use rcute::{Layout, Tiler};

fn ld(a: &str, b: &str) -> String {
    show(logical_divide(&lay(a), &til(b)))
}

#[test]
fn logical_divide_examples() {
    let rows = [
        ("24:1", "4:2", "(4, (2, 3)):(2, (1, 8))"),
        (
            "(4,2,3):(2,1,8)",
            "4:2",
            "((2, 2), (2, 3)):((4, 1), (2, 8))",
        ),
        (
            "(6,6):(1,12)",
            "(6,3):(3,1)",
            "(((2, 3), 3), 2):(((3, 12), 1), 36)",
        ),
        ("24:3", "8:3", "(8, 3):(9, 3)"),
        ("(6,2,2):(2,1,20)", "8:3", "((2, 2, 2), 3):((6, 1, 20), 2)"),
        (
            "(8,16):(20,1)",
            "(4:1, 8:2)",
            "((4, 2), (8, 2)):((20, 80), (2, 1))",
        ),
        (
            "(9,(4,8)):(59,(13,1))",
            "(3:3, (2,4):(1,8))",
            "((3, 3), ((2, 4), (2, 2))):((177, 59), ((13, 2), (26, 1)))",
        ),
        (
            "(12,32):(1,12)",
            "(4,8)",
            "((4, 3), (8, 4)):((1, 4), (12, 96))",
        ),
        ("(12,32):(1,12)", "(4,8):(1,4)", "((4, 8), 12):((1, 4), 32)"),
        ("24:1", "4", "(4, 6):(1, 4)"),
        ("24:1", "7:1", "(7, 4):(1, 7)"),
        ("24:1", "4:0", "(4, 24):(0, 1)"),
        (
            "(64,50,80):(16000,160,1)",
            "(32,)",
            "((32, 2), 50, 80):((16000, 512000), 160, 1)",
        ),
        ("(5,8):(1,5)", "2", "(2, 20):(1, 2)"),
        // errors
        ("24:1", "(2,2):(1,1)", "error (injectivity)"),
        ("(4,8):(1,4)", "(2,2,2)", "error (rank)"),
        // size(A) extension (sections 6, 20)
        (
            "(3,(3,2,2)):(6,(1,3,18))",
            "6",
            "((3, 2), (3, 2)):((6, 1), (2, 18))",
        ),
        ("(4,2,24):(1,4,8)", "192:1", "(192, 1):(1, 192)"),
        ("(1,1,8,12,3):(1,1,1,8,96)", "36:1", "(36, 8):(1, 36)"),
        // None tiler: no-op
        ("(4,8):(1,4)", "_", "(4, 8):(1, 4)"),
        ("(4,8):(1,4)", "(_,4)", "(4, (4, 2)):(1, (4, 16))"),
    ];
    for (a, b, want) in rows {
        assert_eq!(ld(a, b), want, "logical_divide({a}, {b})");
    }
    // an integer / tuple first argument is promoted by tiler_to_layout
    let a = tiler_to_layout(&til("(4,6)")).unwrap();
    assert_eq!(
        show(logical_divide(&a, &til("(2,3)"))),
        "((2, 2), (3, 2)):((1@0, 2@0), (1@1, 3@1))"
    );
}

#[test]
fn logical_divide_of_none() {
    // each leaf paired with its free complement (python-dropin 2.14)
    assert_eq!(
        show(logical_divide_none(&til("4:2"))),
        "(4, (2, 1)):(2, (1, 8))"
    );
    assert_eq!(
        show(logical_divide_none(&til("(2,3)"))),
        "((2, 1), (3, 1)):((1@0, 2@0), (1@1, 3@1))"
    );
    assert_eq!(
        show(logical_divide_none(&til("(2:1,_)"))),
        "((2, 1), (1, 1)):((1@0, 2@0), (1@1, 1@1))"
    );
    assert_eq!(
        show(logical_divide_none_at(&til("2:1"), &[1])),
        "(1, (2, 1)):(0, (1, 2))"
    );
    assert_eq!(
        show(composition_none(&til("(3:2,_)"), &[])),
        "(3, 1):(2@0, 1@1)"
    );
    assert_eq!(show(composition_none(&til("12"), &[1])), "(1, 12):(0, 1)");
    assert_eq!(show(composition_none(&til("12"), &[-1])), "error (value)");
}

#[test]
fn mode_indexed_divides() {
    // op[p](A, B) = op(A, lift(B, p, pad=None)) (section 18)
    assert_eq!(
        ld("((4,6),2):((1,4),24)", "((_,3:2),)"),
        "((4, (3, 2)), 2):((1, (8, 4)), 24)"
    );
    assert_eq!(ld("(3,28):(1,3)", "(_,4:1)"), "(3, (4, 7)):(1, (3, 12))");
    // zipped_divide[0](A, (2,3)) = logical_divide[0](A, tiler_to_layout((2,3)))
    let t = tiler_to_layout(&til("(2,3)")).unwrap();
    let lifted = Tiler::Tuple(vec![Tiler::Layout(t)].into());
    assert_eq!(
        show(logical_divide(&lay("((4,6),5):((1,4),24)"), &lifted)),
        "(((2, 3), (2, 2)), 5):(((1, 4), (2, 12)), 24)"
    );
    // zipped_divide[1]((5,24):(1,5), 4:2)
    let t = tiler_to_layout(&til("4:2")).unwrap();
    let lifted = Tiler::Tuple(vec![Tiler::None, Tiler::Layout(t)].into());
    assert_eq!(
        show(logical_divide(&lay("(5,24):(1,5)"), &lifted)),
        "(5, (4, (2, 3))):(1, (10, (5, 40)))"
    );
}

#[test]
fn zipped_tiled_flat_examples() {
    type Op = fn(&Layout, &Tiler) -> rcute::Result<Layout>;
    let z: Op = zipped_divide;
    let t: Op = tiled_divide;
    let f: Op = flat_divide;
    let a9 = "(9,(4,8)):(59,(13,1))";
    let b9 = "(3:3, (2,4):(1,8))";
    let rows: Vec<(Op, &str, &str, &str, &str)> = vec![
        (
            z,
            "z",
            "(9,32):(1,9)",
            b9,
            "((3, (2, 4)), (3, 4)):((3, (9, 72)), (1, 18))",
        ),
        (
            z,
            "z",
            a9,
            b9,
            "((3, (2, 4)), (3, (2, 2))):((177, (13, 2)), (59, (26, 1)))",
        ),
        (
            t,
            "t",
            a9,
            b9,
            "((3, (2, 4)), 3, (2, 2)):((177, (13, 2)), 59, (26, 1))",
        ),
        (
            f,
            "f",
            a9,
            b9,
            "(3, (2, 4), 3, (2, 2)):(177, (13, 2), 59, (26, 1))",
        ),
        (
            z,
            "z",
            "(8,24):(1,8)",
            "(4,8)",
            "((4, 8), (2, 3)):((1, 8), (4, 64))",
        ),
        (
            t,
            "t",
            "(8,24):(1,8)",
            "(4,8)",
            "((4, 8), 2, 3):((1, 8), 4, 64)",
        ),
        (
            f,
            "f",
            "(8,24):(1,8)",
            "(4,8)",
            "(4, 8, 2, 3):(1, 8, 4, 64)",
        ),
        (
            z,
            "z",
            "(8,24,3):(1,8,192)",
            "(4,8)",
            "((4, 8), (2, 3, 3)):((1, 8), (4, 64, 192))",
        ),
        (
            f,
            "f",
            "(8,24,3):(1,8,192)",
            "(4,8)",
            "(4, 8, 2, 3, 3):(1, 8, 4, 64, 192)",
        ),
        (
            z,
            "z",
            "(64,50,80):(16000,160,1)",
            "(32,)",
            "((32,), (2, 50, 80)):((16000,), (512000, 160, 1))",
        ),
        (
            f,
            "f",
            "(64,50,80):(16000,160,1)",
            "(32,)",
            "((32,), 2, 50, 80):((16000,), 512000, 160, 1)",
        ),
        (z, "z", "24:1", "4:2", "(4, (2, 3)):(2, (1, 8))"),
        (t, "t", "24:1", "4:2", "(4, 2, 3):(2, 1, 8)"),
        (f, "f", "24:1", "4:2", "(4, 2, 3):(2, 1, 8)"),
        (z, "z", "32:1", "8", "(8, 4):(1, 8)"),
        (t, "t", "32:1", "8", "(8, 4):(1, 8)"),
        (f, "f", "32:1", "8", "(8, 4):(1, 8)"),
        (
            z,
            "z",
            "(2,6):(6,1)",
            "(1,2)",
            "((1, 2), (2, 3)):((6, 1), (6, 2))",
        ),
        (
            z,
            "z",
            "(64,50,80):(16000,160,1)",
            "(32,_,_)",
            "error (type)",
        ),
        (z, "z", "8:1", "(1,)", "((1,), (8,)):((1,), (1,))"),
        (z, "z", "(8,24):(1,8)", "_", "error (type)"),
    ];
    for (op, name, a, b, want) in rows {
        assert_eq!(show(op(&lay(a), &til(b))), want, "{name}_divide({a}, {b})");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// rank 2, compatible(B, R[0]), R[0] == composition(A, B).
    #[test]
    fn divide_tile_is_the_composition(a in small_layout(3, true), b in small_layout(2, true)) {
        let tb = Tiler::Layout(b.clone());
        match logical_divide(&a, &tb) {
            Ok(r) => {
                prop_assert!(!r.is_leaf() && r.rank() == 2, "{}", r);
                let r0 = r.mode(0).unwrap();
                prop_assert!(compatible(b.shape().as_ref(), r0.shape().as_ref()), "{} vs {}", b, r0);
                prop_assert_eq!(r0, composition(&a, &tb).unwrap());
            }
            Err(e) => {
                // the tile itself may be inadmissible, or B not injective
                let tile = composition(&a, &tb);
                let comp = rcute::algebra::complement(&b, None);
                prop_assert!(tile.is_err() || comp.is_err() || e.kind() == rcute::ErrorKind::Divisibility,
                    "logical_divide({}, {}) failed with {} although A∘B and B* exist", a, b, e);
            }
        }
    }

    /// When B tiles A every offset of A appears exactly once in R, and the
    /// zipped, tiled and flat forms are rearrangements of the same function.
    #[test]
    fn divide_covers_a((a, b) in tiling_pair(3)) {
        let tb = Tiler::Layout(b.clone());
        let Ok(r) = logical_divide(&a, &tb) else { return Ok(()) };
        prop_assert_eq!(r.size().unwrap(), a.size().unwrap(), "{} / {} = {}", a, b, r);
        prop_assert_eq!(values(&r), values(&a), "{} / {} = {}", a, b, r);
        let z = zipped_divide(&a, &tb).unwrap();
        prop_assert_eq!(&z, &r);
        let t = tiled_divide(&a, &tb).unwrap();
        let f = flat_divide(&a, &tb).unwrap();
        prop_assert_eq!(values(&t), values(&r));
        prop_assert_eq!(values(&f), values(&r));
        prop_assert_eq!(t.mode(0).unwrap(), r.mode(0).unwrap());
        prop_assert!(f.rank() >= t.rank() && t.rank() >= 2);
    }

    /// By-mode tilers: a tuple tiler divides each mode separately and keeps
    /// the modes past its end; zipped_divide gathers the tiles in mode 0.
    #[test]
    fn by_mode_divide((a0, b0) in tiling_pair(2), (a1, b1) in tiling_pair(2)) {
        let a = Layout::concat([a0.clone(), a1.clone()]).unwrap();
        let t = Tiler::Tuple(vec![Tiler::Layout(b0.clone()), Tiler::Layout(b1.clone())].into());
        let (Ok(r0), Ok(r1)) = (
            logical_divide(&a0, &Tiler::Layout(b0.clone())),
            logical_divide(&a1, &Tiler::Layout(b1.clone())),
        ) else { return Ok(()) };
        let r = logical_divide(&a, &t).unwrap();
        prop_assert_eq!(r.mode(0).unwrap(), r0);
        prop_assert_eq!(r.mode(1).unwrap(), r1);
        let half = Tiler::Tuple(vec![Tiler::Layout(b0.clone())].into());
        let h = logical_divide(&a, &half).unwrap();
        prop_assert_eq!(h.mode(1).unwrap(), a1);
        if let Ok(z) = zipped_divide(&a, &t) {
            prop_assert_eq!(z.rank(), 2);
            prop_assert_eq!(z.size().unwrap(), a.size().unwrap());
            prop_assert_eq!(values(&z), values(&a));
            let z0 = z.mode(0).unwrap();
            prop_assert_eq!(z0.mode(0).unwrap().size().unwrap(), b0.size().unwrap());
            prop_assert_eq!(z0.mode(1).unwrap().size().unwrap(), b1.size().unwrap());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No input panics: any stride kinds, extreme values, odd tilers.
    #[test]
    fn divides_never_panic(a in util::wild_layout(), b in util::wild_tiler()) {
        let _ = logical_divide(&a, &b);
        let _ = zipped_divide(&a, &b);
        let _ = tiled_divide(&a, &b);
        let _ = flat_divide(&a, &b);
        let _ = logical_divide_none(&b);
        let _ = logical_divide_none_at(&b, &[1, 0]);
        let _ = composition_none(&b, &[2]);
    }
}

/// The mode-by-mode fast path of zipped_divide gives what dividing by the
/// basis-strided tiler gives, also for the modes past the tiler: an empty
/// mode there is kept (an empty layout is a value), a nested one too.
#[test]
fn zipped_divide_modes_past_the_tiler() {
    let z = |a: &str, b: &str| show(zipped_divide(&lay(a), &til(b)));
    assert_eq!(
        z("(4,4,()):(1,4,())", "(2,2)"),
        "((2, 2), (2, 2, ())):((1, 4), (2, 8, ()))"
    );
    assert_eq!(
        z("(4,4,((((3,),),),)):(1,4,((((1,),),),))", "(2,2)"),
        "((2, 2), (2, 2, ((((3,),),),))):((1, 4), (2, 8, ((((1,),),),)))"
    );
    assert_eq!(
        z("(4,4,3):(1,4,16)", "(2,2)"),
        "((2, 2), (2, 2, 3)):((1, 4), (2, 8, 16))"
    );
    // the same as dividing by tiler_to_layout(B)
    for (a, b) in [
        ("(4,4,3):(1,4,16)", "(2,2)"),
        ("((4,2),6):((1,4),8)", "(4:2,3)"),
    ] {
        let t = tiler_to_layout(&til(b)).unwrap();
        assert_eq!(
            show(zipped_divide(&lay(a), &til(b))),
            show(logical_divide(&lay(a), &Tiler::Layout(t)))
        );
    }
}
