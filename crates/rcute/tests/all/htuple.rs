//! Hierarchical tuples (`docs/operations.md`): every worked example the library
//! can express, and proptest properties of idx2crd / crd2idx, congruence,
//! the shape relations, slice_/dice_ and coordinate enumeration.

use crate::common::{self, crd, sh, st};
use proptest::prelude::*;
use rcute::algebra::slice::{dice_, slice_};
use rcute::htuple::MAX_DEPTH;
use rcute::shape::{
    common_coarsening, common_refinement, compatible, congruent, coordinates, crd2idx, idx2crd,
    product_each, size, weakly_congruent,
};
use rcute::stride::{inner_product, prefix_product, prefix_product_tuple};
use rcute::{ErrorKind, HTuple, Scalar};

fn i2c(c: &str, s: &str) -> String {
    match idx2crd(crd(c).as_ref(), sh(s).as_ref()) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn c2i(c: &str, s: &str) -> String {
    match crd2idx(crd(c).as_ref(), sh(s).as_ref()) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn cong(a: &str, b: &str) -> bool {
    congruent(crd(a).as_ref(), crd(b).as_ref())
}

fn weak(a: &str, b: &str) -> bool {
    weakly_congruent(crd(a).as_ref(), crd(b).as_ref())
}

fn pp(a: &str, init: &str) -> String {
    match prefix_product_tuple(sh(a).as_ref(), st(init).as_ref()) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn ip(a: &str, b: &str) -> String {
    match inner_product(st(a).as_ref(), st(b).as_ref()) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn kind<T: std::fmt::Debug>(r: rcute::Result<T>) -> ErrorKind {
    r.expect_err("expected an error").kind()
}

// ---------------------------------------------------------------- section 2

#[test]
fn printing_default_and_cpp() {
    for (src, py, cpp) in [
        ("(4, 8)", "(4, 8)", "(4,8)"),
        ("(3, (2, 4))", "(3, (2, 4))", "(3,(2,4))"),
        ("(3,)", "(3,)", "(3)"),
        ("((3,),)", "((3,),)", "((3))"),
        ("()", "()", "()"),
        ("(1, (0, 1))", "(1, (0, 1))", "(1,(0,1))"),
        (
            "(1@0, (1@0@1, 1@1@1))",
            "(1@0, (1@0@1, 1@1@1))",
            "(1@0,(1@0@1,1@1@1))",
        ),
        ("-3", "-3", "-3"),
    ] {
        let t = st(src);
        assert_eq!(t.to_string(), py, "{src}");
        assert_eq!(format!("{t:#}"), cpp, "{src}");
    }
    // None prints None, or _ in C++ style
    let c = crd("(None, 3)");
    assert_eq!(
        rcute::shape::DisplayCoord(c.as_ref()).to_string(),
        "(None, 3)"
    );
    assert_eq!(
        format!("{:#}", rcute::shape::DisplayCoord(c.as_ref())),
        "(_,3)"
    );
}

// ---------------------------------------------------------------- section 3

#[test]
fn rank_depth_size() {
    assert_eq!(sh("()").rank(), 0);
    assert_eq!(sh("7").rank(), 1);
    assert_eq!(sh("(7,)").rank(), 1);
    assert_eq!(sh("(3,(4,5))").rank(), 2);
    assert_eq!(sh("7").as_ref().try_depth().unwrap(), 0);
    assert_eq!(sh("(3,(4,5))").as_ref().try_depth().unwrap(), 2);
    assert!(sh("()").as_ref().try_depth().is_err());
    assert!(sh("((),)").as_ref().try_depth().is_err());
    assert_eq!(size(sh("(3,(4,5))").as_ref()).unwrap(), 60);
    assert_eq!(size(sh("()").as_ref()).unwrap(), 1);
    assert_eq!(
        kind(size(sh("(4294967296, 4294967296)").as_ref())),
        ErrorKind::Overflow
    );
    // (3,) and 3 differ
    assert_ne!(sh("(3,)"), sh("3"));
}

// ---------------------------------------------------------------- section 4

#[test]
fn congruence_table() {
    assert!(cong("(4,8)", "(5,7)"));
    assert!(!cong("3", "(3,)"));
    assert!(cong("()", "()"));
    assert!(weak("30", "(3,4)"));
    assert!(!weak("(3,4)", "30"));
    assert!(!weak("(3,(4,5))", "(5,6)"));
    assert!(weak("(1,(2,3))", "((4,5),(6,7))"));
    assert!(!weak("E(0,1)", "(3,4)"));
    assert!(weak("E(0,1)", "((3,2),4)"));
    assert!(!weak("(1, 2)", "(3,)"));
    // the basis-value rule
    assert!(cong("E(1)", "(1, 2)"));
    assert!(!cong("E(2)", "(1, 2)"));
    assert!(!cong("E(1)", "1"));
    assert!(cong("(1, 2)", "E(1)"));
    // curated vectors
    assert!(!cong("(4, 8)", "(4, (2, 4))"));
    assert!(cong("31", "42"));
    assert!(!cong("31", "(4, 8)"));
    assert!(!cong("(1, 1, 1)", "(1, 1)"));
    assert!(weak("30", "((3, 4), 5)"));
    assert!(weak("(3, 4)", "(5, (6, 7))"));
    assert!(!weak("(1, 2, 3)", "(1, 2)"));
    // None counts as a leaf
    assert!(cong("(None, 3)", "(4, 5)"));
    assert!(!cong("(None, 3)", "((4, 1), 5)"));
    assert!(weak("(None, 3)", "((4, 1), 5)"));
    // coordinate strides of the same structure are congruent
    assert!(cong("(1@0, 1@1)", "(2@0, 3@1)"));
}

// ---------------------------------------------------------------- section 5

#[test]
fn flatten_unflatten_repeat_wrap_unwrap() {
    assert_eq!(sh("7").flatten().to_string(), "(7,)");
    assert_eq!(sh("()").flatten().to_string(), "()");
    assert_eq!(sh("((), (1,))").flatten().to_string(), "(1,)");
    assert_eq!(sh("((1,(2,3)),4)").flatten().to_string(), "(1, 2, 3, 4)");
    let prof = sh("((1,(2,3)),4)");
    assert_eq!(
        HTuple::unflatten([10i64, 20, 30, 40], prof.as_ref())
            .unwrap()
            .to_string(),
        "((10, (20, 30)), 40)"
    );
    assert_eq!(
        HTuple::unflatten([10i64, 20, 30, 40, 50], prof.as_ref())
            .unwrap()
            .to_string(),
        "((10, (20, 30)), 40)"
    );
    assert!(HTuple::unflatten([10i64], prof.as_ref()).is_err());
    assert_eq!(
        HTuple::repeat_like(0i64, prof.as_ref()).to_string(),
        "((0, (0, 0)), 0)"
    );
    assert_eq!(HTuple::repeat_like(7i64, sh("5").as_ref()).to_string(), "7");
    assert_eq!(
        HTuple::repeat_like(7i64, sh("()").as_ref()).to_string(),
        "()"
    );
    assert_eq!(sh("()").wrap().to_string(), "()");
    assert_eq!(sh("3").wrap().to_string(), "(3,)");
    assert_eq!(sh("(3, 4)").wrap().to_string(), "(3, 4)");
    assert_eq!(sh("((((42,),),),)").unwrap_singletons().to_string(), "42");
    assert_eq!(sh("(1, 2)").unwrap_singletons().to_string(), "(1, 2)");
    assert_eq!(sh("((),)").unwrap_singletons().to_string(), "()");
}

// ---------------------------------------------------------------- section 6

#[test]
fn product_and_product_each() {
    assert_eq!(size(sh("((2,3),4)").as_ref()).unwrap(), 24);
    assert_eq!(size(sh("5").as_ref()).unwrap(), 5);
    let pe = |x: &str| product_each(sh(x).as_ref()).map(|t| t.to_string());
    assert_eq!(pe("((2,(3,4)),(5,6),7)").unwrap(), "(24, 30, 7)");
    assert_eq!(pe("()").unwrap(), "()");
    assert_eq!(pe("(2, 3)").unwrap(), "(2, 3)");
    assert_eq!(pe("((2, 3), 4)").unwrap(), "(6, 4)");
    assert_eq!(pe("(((3, 5), (3, 3)), (2, 1), 3)").unwrap(), "(135, 2, 3)");
    assert_eq!(kind(pe("10")), ErrorKind::Type);
}

#[test]
fn prefix_product_table() {
    assert_eq!(pp("(3,2,4)", "1"), "(1, 3, 6)");
    assert_eq!(pp("(3,(2,4))", "1"), "(1, (3, 6))");
    assert_eq!(pp("((2,3),4,(5,6))", "1"), "((1, 2), 6, (24, 120))");
    assert_eq!(pp("(4,8)", "2"), "(2, 8)");
    assert_eq!(pp("((2,3),4)", "(7,100)"), "((7, 14), 100)");
    assert_eq!(pp("((2,3),4)", "((1,10),100)"), "((1, 10), 100)");
    assert_eq!(pp("(4,8)", "E(1)"), "(1@1, 4@1)");
    assert_eq!(pp("7", "1"), "1");
    assert!(pp("(4,8)", "(1,)").starts_with("error: rank"));
    assert_eq!(pp("((2, 3), (4, 5))", "(1, 100)"), "((1, 2), (100, 400))");
    assert!(pp("5", "(2, 2, 7, 5)").starts_with("error"));
    assert_eq!(pp("4", "7"), "7");
    assert_eq!(pp("(4, 8)", "F2(1)"), "(F1, F4)");
    // the scalar form agrees
    assert_eq!(
        prefix_product(sh("(3,(2,4))").as_ref(), &Scalar::Int(1))
            .unwrap()
            .to_string(),
        "(1, (3, 6))"
    );
    // the product after the last leaf is never formed
    assert_eq!(pp("(4294967296, 4294967296)", "1"), "(1, 4294967296)");
}

#[test]
fn inner_product_table() {
    assert_eq!(ip("(1,0,1)", "(1,3,6)"), "7");
    assert_eq!(ip("(1,(2,3))", "(1,(10,100))"), "321");
    assert_eq!(ip("()", "()"), "0");
    assert_eq!(ip("(1,2)", "(E(0),E(1))"), "(1, 2)");
    assert_eq!(ip("(2,(1,3))", "(E(0),(E(1),2*E(0)))"), "(8, 1)");
    assert!(ip("(1,2)", "(3,)").starts_with("error"));
    assert_eq!(ip("(2, 3)", "(1, 4)"), "14");
    assert_eq!(ip("4", "1"), "4");
    assert_eq!(ip("(9, 5, 9)", "(1@0, 1@1, 1@2)"), "(9, 5, 9)");
    assert!(ip("((1, 0), 5)", "(11, 1, 1)").starts_with("error"));
    assert!(ip("(5, 1, 1)", "5").starts_with("error"));
    assert!(ip("(1, 8)", "((5, 1, 0), (4, 8))").starts_with("error"));
}

// ---------------------------------------------------------------- section 7

#[test]
fn colexicographic_table() {
    let s = sh("(3, (2, 3))");
    let flat = sh("(3, 6)");
    for (i, f, n) in [
        (0, "(0, 0)", "(0, (0, 0))"),
        (1, "(1, 0)", "(1, (0, 0))"),
        (3, "(0, 1)", "(0, (1, 0))"),
        (16, "(1, 5)", "(1, (1, 2))"),
        (17, "(2, 5)", "(2, (1, 2))"),
    ] {
        let ic = HTuple::leaf(Some(Scalar::Int(i)));
        assert_eq!(idx2crd(ic.as_ref(), s.as_ref()).unwrap().to_string(), n);
        assert_eq!(idx2crd(ic.as_ref(), flat.as_ref()).unwrap().to_string(), f);
        assert_eq!(idx2crd(crd(f).as_ref(), s.as_ref()).unwrap().to_string(), n);
        assert_eq!(crd2idx(crd(f).as_ref(), s.as_ref()).unwrap(), i);
        assert_eq!(crd2idx(crd(n).as_ref(), s.as_ref()).unwrap(), i);
    }
}

#[test]
fn idx2crd_examples() {
    assert_eq!(i2c("42", "(3,7,2)"), "(0, 0, 2)");
    assert_eq!(i2c("100", "(3,(2,4))"), "(1, (1, 16))");
    assert_eq!(i2c("(1,9)", "(3,(2,4))"), "(1, (1, 4))");
    assert_eq!(i2c("-1", "(3,4)"), "(2, -1)");
    assert_eq!(i2c("-7", "(4,3)"), "(1, -2)");
    assert_eq!(i2c("None", "(3,(2,4))"), "(0, (0, 0))");
    assert_eq!(i2c("(None,3)", "(3,(2,4))"), "(0, (1, 1))");
    assert!(i2c("(1,2)", "5").starts_with("error: rank"));
    assert!(i2c("(1,2,3)", "(3,(2,4))").starts_with("error: rank"));
    assert_eq!(i2c("5", "()"), "()");
    assert_eq!(i2c("()", "()"), "()");
    // basis-valued index
    assert_eq!(i2c("E(1)", "(3,4)"), "(0, 1)");
    assert_eq!(i2c("ArithTuple(2,7)", "(3,(2,4))"), "(2, (1, 3))");
    assert_eq!(i2c("1@1@0@1", "(8,((2,1),4))"), "(0, ((0, 1), 0))");
    assert!(i2c("E(0)", "5").starts_with("error: rank"));
    assert!(i2c("E(2)", "(3, 4)").starts_with("error: rank"));
    // F2 index
    assert_eq!(i2c("F2(0b10110)", "(4,8)"), "(F2, F5)");
    assert_eq!(i2c("F2(7)", "8"), "F7");
    // the carry-free rule: (3,4) does not carry; (3,3,3) does
    assert_eq!(i2c("F2(5)", "(3,4)"), "(F0, F3)");
    assert!(i2c("F2(4)", "(3,3,3)").starts_with("error: value"));
    // curated / docs
    assert_eq!(i2c("7", "(3, (2, 3))"), "(1, (0, 1))");
    assert_eq!(i2c("7", "14"), "7");
    assert_eq!(i2c("7", "(3, 2, 4)"), "(1, 0, 1)");
    assert_eq!(i2c("7", "(3, (2, 4))"), "(1, (0, 1))");
    assert_eq!(i2c("7", "((3, 2), 4)"), "((1, 0), 1)");
    assert!(i2c("(14, 55)", "((5, 8),)").starts_with("error"));
    assert!(i2c("(62,)", "(12, 2)").starts_with("error"));
    // a zero extent is a value error, not a panic
    assert!(i2c("5", "(0, 3)").starts_with("error: value"));
}

#[test]
fn crd2idx_examples() {
    assert_eq!(c2i("(5,5)", "(3,4)"), "20");
    assert_eq!(c2i("(3,-2)", "(4,3)"), "-5");
    assert_eq!(c2i("7", "(3,(2,4))"), "7");
    assert_eq!(c2i("(1,0,1)", "(3,2,4)"), "7");
    assert_eq!(c2i("(1,(0,1))", "(3,(2,4))"), "7");
    assert_eq!(c2i("(2,5)", "(3,(2,3))"), "17");
    assert_eq!(c2i("(1,(2,3))", "(3,(2,4))"), "25");
    assert_eq!(c2i("()", "()"), "0");
    assert!(c2i("(1,2)", "(3,4,5)").starts_with("error: rank"));
    assert!(c2i("(1,(2,3))", "(3,4)").starts_with("error: rank"));
    assert!(c2i("None", "(3,4)").starts_with("error"));
    assert!(c2i("(2, 0, 1)", "7").starts_with("error"));
    assert_eq!(c2i("(1, (0, 1))", "(3, (2, 3))"), "7");
    // the weight after the last leaf is never formed
    assert_eq!(c2i("(1, 1)", "(4294967296, 4294967296)"), "4294967297");
}

// ---------------------------------------------------------------- section 8

#[test]
fn coordinates_examples() {
    let list = |s: &str| -> Vec<String> {
        coordinates(sh(s).as_ref())
            .unwrap()
            .map(|c| c.to_string())
            .collect()
    };
    assert_eq!(list("4"), ["0", "1", "2", "3"]);
    assert_eq!(
        list("(3,2)"),
        ["(0, 0)", "(1, 0)", "(2, 0)", "(0, 1)", "(1, 1)", "(2, 1)"]
    );
    assert_eq!(
        list("(2,(2,2))"),
        [
            "(0, (0, 0))",
            "(1, (0, 0))",
            "(0, (1, 0))",
            "(1, (1, 0))",
            "(0, (0, 1))",
            "(1, (0, 1))",
            "(0, (1, 1))",
            "(1, (1, 1))"
        ]
    );
    assert_eq!(list("()"), ["()"]);
    assert!(coordinates(sh("(2, 0)").as_ref()).is_err());
    // lazy: a huge shape costs nothing until iterated
    let mut it = coordinates(sh("(1024, 1024, 1024, 1024)").as_ref()).unwrap();
    assert_eq!(it.size_hint().0, 1 << 40);
    assert_eq!(it.nth(1025).unwrap().to_string(), "(1, 1, 0, 0)");
}

// ---------------------------------------------------------------- section 9

#[test]
fn compatible_table() {
    let c = |a: &str, b: &str| compatible(sh(a).as_ref(), sh(b).as_ref()).unwrap();
    assert!(c("30", "(2,15)"));
    assert!(c("(2,15)", "(2,(3,5))"));
    assert!(!c("24", "32"));
    assert!(!c("(4,6)", "((2,3),8)"));
    assert!(!c("(2,(3,5))", "((3,2),5)"));
    assert!(c("24", "(24,)"));
    assert!(!c("(24,)", "24"));
    assert!(c("1", "()"));
    assert!(!c("(2,3)", "(2,3,1)"));
    assert!(c("24", "(4, 6)"));
    assert!(c("(4, 6)", "((2, 2), 6)"));
    assert!(c("30", "(2, (3, 5))"));
    assert!(c("24", "((2, 2), (3, 2))"));
    assert!(!c("((2, 4), (9,))", "((9,), (2, 4))"));
}

#[test]
fn common_refinement_examples() {
    let r =
        |a: &str, b: &str| common_refinement(sh(a).as_ref(), sh(b).as_ref()).map(|t| t.to_string());
    assert_eq!(r("(6,(2,2))", "((2,3),4)").unwrap(), "((2, 3), (2, 2))");
    assert_eq!(r("30", "(2,15)").unwrap(), "(2, 15)");
    assert_eq!(r("10", "(10,)").unwrap(), "(10,)");
    assert_eq!(r("((2,3),20)", "(6,(4,5))").unwrap(), "((2, 3), (4, 5))");
    assert_eq!(r("()", "()").unwrap(), "()");
    assert_eq!(r("1", "()").unwrap(), "()");
    assert_eq!(kind(r("(6,5)", "(2,15)")), ErrorKind::Value);
    assert_eq!(kind(r("(2,(3,5))", "((3,2),5)")), ErrorKind::Value);
    assert_eq!(kind(r("(2,3)", "(2,3,1)")), ErrorKind::Rank);
    assert_eq!(r("(3, (2, 2))", "(3, 4)").unwrap(), "(3, (2, 2))");
    assert_eq!(r("(2,)", "(2,)").unwrap(), "(2,)");
}

#[test]
fn common_coarsening_table() {
    let r =
        |a: &str, b: &str| common_coarsening(sh(a).as_ref(), sh(b).as_ref()).map(|t| t.to_string());
    assert_eq!(r("(2,15)", "(2,(3,5))").unwrap(), "(2, 15)");
    assert_eq!(r("(4,(3,5))", "((2,2),15)").unwrap(), "(4, 15)");
    assert_eq!(r("30", "(2,15)").unwrap(), "30");
    assert_eq!(r("(2,(3,5))", "((3,2),5)").unwrap(), "30");
    assert_eq!(r("(6,5)", "(2,15)").unwrap(), "30");
    assert_eq!(r("(2,3)", "(2,3,1)").unwrap(), "6");
    assert_eq!(r("((2,3),(4,5))", "((3,2),(4,5))").unwrap(), "(6, (4, 5))");
    assert_eq!(r("((2,3),(4,5))", "((6,),(20,))").unwrap(), "(6, 20)");
    assert_eq!(r("()", "()").unwrap(), "()");
    assert_eq!(kind(r("3", "4")), ErrorKind::Value);
    assert_eq!(r("(5,)", "(5,)").unwrap(), "(5,)");
}

// ---------------------------------------------------------------- section 10

#[test]
fn get_paths() {
    let x = sh("((0,0,(0,0,0,42)),)");
    assert_eq!(x.as_ref().get(&[0, 2, 3]).unwrap().to_string(), "42");
    assert_eq!(x.as_ref().get(&[]).unwrap().to_string(), x.to_string());
    assert_eq!(kind(x.as_ref().get(&[1])), ErrorKind::Bounds);
    assert_eq!(kind(x.as_ref().get(&[0, 0, 0])), ErrorKind::Type);
}

// ---------------------------------------------------------------- section 11

#[test]
fn slice_dice_table() {
    let b = sh("((2,3),(5,7,9))");
    let sl = |c: &str| slice_(crd(c).as_ref(), b.as_ref()).unwrap().to_string();
    let di = |c: &str| dice_(crd(c).as_ref(), b.as_ref()).unwrap().to_string();
    assert_eq!(sl("0"), "()");
    assert_eq!(di("0"), "(((2, 3), (5, 7, 9)),)");
    assert_eq!(sl("None"), "(((2, 3), (5, 7, 9)),)");
    assert_eq!(sl("(None,1)"), "((2, 3),)");
    assert_eq!(di("(None,1)"), "((5, 7, 9),)");
    assert_eq!(sl("(None,(1,None,1))"), "((2, 3), 7)");
    assert_eq!(di("(None,(1,None,1))"), "(5, 9)");
    assert_eq!(sl("(None,)"), "((2, 3), (5, 7, 9))");
    assert_eq!(di("(None,)"), "()");
    // more positions than the target: an error rather than garbage
    assert!(slice_(crd("(None, 1, 2)").as_ref(), b.as_ref()).is_err());
    assert!(slice_(crd("(None, (1, 2))").as_ref(), sh("(3, 4)").as_ref()).is_err());
}

// ---------------------------------------------------------------- section 12

#[test]
fn mode_indexed_queries() {
    let a = common::lay("((6,2),5):((8,2),1)");
    assert_eq!(a.get(&[0]).unwrap().size().unwrap(), 12);
    assert_eq!(a.get(&[0, 1]).unwrap().size().unwrap(), 2);
    assert_eq!(a.get(&[0]).unwrap().rank(), 2);
    assert_eq!(a.get(&[0]).unwrap().depth().unwrap(), 1);
    assert_eq!(a.get(&[0, 0]).unwrap().shape().to_string(), "6");
    assert_eq!(a.get(&[0]).unwrap().stride().to_string(), "(8, 2)");
    assert_eq!(a.get(&[0, 1]).unwrap().to_string(), "2:2");
}

// ---------------------------------------------------------------- section 13

#[test]
fn integer_semantics() {
    use rcute::int::*;
    assert_eq!(floor_divmod(-7, 3).unwrap(), (-3, 2));
    assert_eq!(floor_divmod(7, -2).unwrap(), (-4, -1));
    assert_eq!(ceil_div(7, 2).unwrap(), 4);
    assert_eq!(ceil_div(-7, 2).unwrap(), -3);
    assert_eq!(ceil_div(i64::MIN, 1).unwrap(), i64::MIN);
    assert_eq!(kind(floor_div(1, 0)), ErrorKind::Value);
    assert_eq!(kind(floor_divmod(i64::MIN, -1)), ErrorKind::Overflow);
    assert_eq!(kind(add(i64::MAX, 1)), ErrorKind::Overflow);
    assert_eq!(kind(mul(i64::MIN, -1)), ErrorKind::Overflow);
    assert_eq!(kind(neg(i64::MIN)), ErrorKind::Overflow);
}

// ---------------------------------------------------------------- properties

/// A random shape: depth 0-3, rank 0-4, extents 1-6.
fn arb_shape() -> impl Strategy<Value = HTuple<i64>> {
    let leaf = (1i64..=6).prop_map(HTuple::leaf);
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop::collection::vec(inner, 0..=4).prop_map(HTuple::tuple)
    })
}

/// A shape that is a tuple at the top.
fn arb_tuple_shape() -> impl Strategy<Value = HTuple<i64>> {
    prop::collection::vec(arb_shape(), 0..=4).prop_map(HTuple::tuple)
}

fn int_crd(t: &HTuple<i64>) -> HTuple<Option<Scalar>> {
    t.map(|&v| Some(Scalar::Int(v)))
}

fn ints(t: &HTuple<Scalar>) -> HTuple<i64> {
    t.map(|v| v.as_int().expect("integer coordinate"))
}

/// Naive colexicographic weights of the leaves of `s`.
fn naive_index(nat: &[i64], s: &[i64]) -> i64 {
    let mut w = 1i64;
    let mut acc = 0i64;
    for (c, e) in nat.iter().zip(s) {
        acc += c * w;
        w *= e;
    }
    acc
}

/// A random coarsening of `s`: some sub-trees replaced by their size.
fn coarsen(s: rcute::HRef<'_, i64>, bits: &mut impl Iterator<Item = bool>) -> HTuple<i64> {
    if s.is_leaf() || bits.next().unwrap_or(false) {
        return HTuple::leaf(size(s).unwrap());
    }
    HTuple::tuple(s.modes().map(|m| coarsen(m, bits)).collect::<Vec<_>>())
}

/// A random refinement of `s`: some leaves split into factor tuples.
fn refine(s: rcute::HRef<'_, i64>, seeds: &mut impl Iterator<Item = u8>) -> HTuple<i64> {
    if let Some(&e) = s.as_leaf() {
        return match seeds.next().unwrap_or(0) % 3 {
            0 => HTuple::leaf(e),
            1 => {
                // split off the smallest factor
                let d = (2..=e).find(|d| e % d == 0).unwrap_or(1);
                HTuple::tuple([HTuple::leaf(d), HTuple::leaf(e / d)])
            }
            _ => HTuple::tuple([HTuple::leaf(e)]),
        };
    }
    HTuple::tuple(s.modes().map(|m| refine(m, seeds)).collect::<Vec<_>>())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

    /// crd2idx(idx2crd(i, S), S) == i for every integer i, including
    /// negative and out-of-range ones; the natural coordinate agrees with a
    /// naive colexicographic weighting.
    #[test]
    fn prop_idx2crd_round_trip(s in arb_shape(), i in -2000i64..2000) {
        let c = HTuple::leaf(Some(Scalar::Int(i)));
        let nat = idx2crd(c.as_ref(), s.as_ref()).unwrap();
        prop_assert!(nat.as_ref().congruent(s.as_ref()));
        let n = ints(&nat);
        let k = n.leaves().len();
        prop_assert_eq!(naive_index(n.leaves(), s.leaves()), if k == 0 { 0 } else { i });
        // every leaf but the last is reduced into range
        for (j, (&c, &e)) in n.leaves().iter().zip(s.leaves()).enumerate() {
            if j + 1 < k {
                prop_assert!((0..e).contains(&c));
            }
        }
        prop_assert_eq!(crd2idx(int_crd(&n).as_ref(), s.as_ref()).unwrap(), if k == 0 { 0 } else { i });
    }

    /// idx2crd(crd2idx(c, S), S) == c for natural in-range c, and the flat
    /// (per-mode integral) form converts to the same natural coordinate.
    #[test]
    fn prop_natural_round_trip(s in arb_tuple_shape(), seed in prop::collection::vec(0i64..1000, 16)) {
        let nat: Vec<i64> = s.leaves().iter().zip(seed.iter().cycle()).map(|(&e, &r)| r % e).collect();
        let nat = HTuple::unflatten(nat, s.as_ref()).unwrap();
        let i = crd2idx(int_crd(&nat).as_ref(), s.as_ref()).unwrap();
        prop_assert!(i >= 0 && i < size(s.as_ref()).unwrap());
        let back = idx2crd(HTuple::leaf(Some(Scalar::Int(i))).as_ref(), s.as_ref()).unwrap();
        prop_assert_eq!(ints(&back), nat.clone());
        // flat coordinate: one integral coordinate per mode
        let flat: Vec<HTuple<Option<Scalar>>> = s.as_ref().modes().zip(nat.as_ref().modes())
            .map(|(sm, cm)| {
                let v = crd2idx(int_crd(&cm.to_owned()).as_ref(), sm).unwrap();
                HTuple::leaf(Some(Scalar::Int(v)))
            }).collect();
        let flat = HTuple::tuple(flat);
        prop_assert_eq!(ints(&idx2crd(flat.as_ref(), s.as_ref()).unwrap()), nat.clone());
        prop_assert_eq!(crd2idx(flat.as_ref(), s.as_ref()).unwrap(), i);
    }

    /// coordinates(S) enumerates idx2crd(i, S) for i in 0..size(S).
    #[test]
    fn prop_coordinates_enumerate(s in arb_shape()) {
        let n = size(s.as_ref()).unwrap();
        prop_assume!(n <= 512);
        let mut count = 0i64;
        for (i, c) in coordinates(s.as_ref()).unwrap().enumerate() {
            let want = idx2crd(HTuple::leaf(Some(Scalar::Int(i as i64))).as_ref(), s.as_ref()).unwrap();
            prop_assert_eq!(c, ints(&want));
            count += 1;
        }
        prop_assert_eq!(count, n);
    }

    /// congruent is reflexive on profiles and symmetric; weakly_congruent
    /// holds from any coarsening; compatible holds from any coarsening.
    #[test]
    fn prop_congruence_relations(s in arb_shape(), t in arb_shape(), bits in prop::collection::vec(any::<bool>(), 32)) {
        let (cs, ct) = (int_crd(&s), int_crd(&t));
        prop_assert!(congruent(cs.as_ref(), cs.as_ref()));
        prop_assert_eq!(congruent(cs.as_ref(), ct.as_ref()), congruent(ct.as_ref(), cs.as_ref()));
        prop_assert_eq!(congruent(cs.as_ref(), ct.as_ref()), s.as_ref().congruent(t.as_ref()));
        let c = coarsen(s.as_ref(), &mut bits.into_iter());
        prop_assert!(weakly_congruent(int_crd(&c).as_ref(), cs.as_ref()));
        prop_assert!(compatible(c.as_ref(), s.as_ref()).unwrap());
        if weakly_congruent(cs.as_ref(), int_crd(&c).as_ref()) {
            prop_assert!(s.as_ref().congruent(c.as_ref()));
        }
        // weakly congruent both ways means congruent
        if weakly_congruent(cs.as_ref(), ct.as_ref()) && weakly_congruent(ct.as_ref(), cs.as_ref()) {
            prop_assert!(congruent(cs.as_ref(), ct.as_ref()));
        }
        // a weakly congruent coordinate is accepted by idx2crd
        prop_assert!(idx2crd(int_crd(&c).map(|_| Some(Scalar::Int(0))).as_ref(), s.as_ref()).is_ok());
    }

    /// common_refinement(a, b) refines both (both are compatible with it) and
    /// has the same size; common_coarsening is compatible with both.
    #[test]
    fn prop_common_refinement_coarsening(s in arb_shape(), seeds in prop::collection::vec(any::<u8>(), 64), bits in prop::collection::vec(any::<bool>(), 32)) {
        let a = coarsen(s.as_ref(), &mut bits.iter().copied());
        let b = refine(a.as_ref(), &mut seeds.iter().copied());
        // a coarsens s, b refines a: a and b have a common refinement
        let r = common_refinement(a.as_ref(), b.as_ref()).unwrap();
        prop_assert!(compatible(a.as_ref(), r.as_ref()).unwrap());
        prop_assert!(compatible(b.as_ref(), r.as_ref()).unwrap());
        prop_assert_eq!(size(r.as_ref()).unwrap(), size(a.as_ref()).unwrap());
        let r2 = common_refinement(a.as_ref(), s.as_ref()).unwrap();
        prop_assert!(compatible(s.as_ref(), r2.as_ref()).unwrap());
        prop_assert!(compatible(a.as_ref(), r2.as_ref()).unwrap());
        for (x, y) in [(&a, &b), (&a, &s), (&b, &s)] {
            match common_coarsening(x.as_ref(), y.as_ref()) {
                Ok(c) => {
                    prop_assert!(compatible(c.as_ref(), x.as_ref()).unwrap());
                    prop_assert!(compatible(c.as_ref(), y.as_ref()).unwrap());
                }
                Err(e) => {
                    prop_assert_ne!(size(x.as_ref()).unwrap(), size(y.as_ref()).unwrap(), "{}", e);
                }
            }
        }
        // equal shapes are their own common refinement and coarsening
        prop_assert_eq!(common_refinement(s.as_ref(), s.as_ref()).unwrap(), s.clone());
        prop_assert_eq!(common_coarsening(s.as_ref(), s.as_ref()).unwrap(), s.clone());
    }

    /// slice_ and dice_ partition the modes selected by the coordinate.
    #[test]
    fn prop_slice_dice_partition(s in arb_tuple_shape(), bits in prop::collection::vec(any::<bool>(), 32)) {
        let mut it = bits.into_iter();
        let c = s.map(|_| if it.next().unwrap_or(false) { None } else { Some(Scalar::Int(0)) });
        let sl = slice_(c.as_ref(), s.as_ref()).unwrap();
        let di = dice_(c.as_ref(), s.as_ref()).unwrap();
        let nnone = c.leaves().iter().filter(|x| x.is_none()).count();
        prop_assert_eq!(sl.rank(), nnone);
        prop_assert_eq!(di.rank(), c.leaves().len() - nnone);
        prop_assert_eq!(size(sl.as_ref()).unwrap() * size(di.as_ref()).unwrap(), size(s.as_ref()).unwrap());
    }
}

#[test]
fn deep_nesting_is_bounded() {
    // a coordinate value nested far past MAX_DEPTH answers without overflowing the stack
    let mut x = Scalar::Int(1);
    for _ in 0..(MAX_DEPTH * 4) {
        x = Scalar::coord(vec![x]);
    }
    let deep = HTuple::leaf(Some(x));
    let shape = HTuple::flat([Some(Scalar::Int(1))]);
    assert!(!congruent(deep.as_ref(), shape.as_ref()));
    assert!(!weakly_congruent(deep.as_ref(), shape.as_ref()));
}

// ---------------------------------------------------------------- end to end

/// Every worked example of the reference chapter that is a self-contained expression
/// (tables and inline `expr = result` examples; rows that name a variable
/// or a range are checked by the functions above), evaluated through the
/// notation: the result must equal the spec's text up to whitespace, or be
/// an error where the spec says "error".
const SPEC_ROWS: &[(&str, &str)] = &[
    (r#"congruent((4,8),(5,7))"#, r#"True"#),
    (r#"congruent(3,(3,))"#, r#"False"#),
    (r#"congruent((),())"#, r#"True"#),
    (r#"weakly_congruent(30,(3,4))"#, r#"True"#),
    (r#"weakly_congruent((3,4),30)"#, r#"False"#),
    (r#"weakly_congruent((3,(4,5)),(5,6))"#, r#"False"#),
    (r#"weakly_congruent((1,(2,3)),((4,5),(6,7)))"#, r#"True"#),
    (r#"weakly_congruent(E(0,1),(3,4))"#, r#"False"#),
    (r#"weakly_congruent(E(0,1),((3,2),4))"#, r#"True"#),
    (r#"prefix_product((3,2,4))"#, r#"(1, 3, 6)"#),
    (r#"prefix_product((3,(2,4)))"#, r#"(1, (3, 6))"#),
    (
        r#"prefix_product(((2,3),4,(5,6)))"#,
        r#"((1, 2), 6, (24, 120))"#,
    ),
    (r#"prefix_product((4,8),2)"#, r#"(2, 8)"#),
    (r#"prefix_product(((2,3),4),(7,100))"#, r#"((7, 14), 100)"#),
    (
        r#"prefix_product(((2,3),4),((1,10),100))"#,
        r#"((1, 10), 100)"#,
    ),
    (r#"prefix_product((4,8),E(1))"#, r#"(1@1, 4@1)"#),
    (r#"prefix_product(7)"#, r#"1"#),
    (r#"prefix_product((4,8),(1,))"#, r#"error"#),
    (r#"inner_product((1,0,1),(1,3,6))"#, r#"7"#),
    (r#"inner_product((1,(2,3)),(1,(10,100)))"#, r#"321"#),
    (r#"inner_product((),())"#, r#"0"#),
    (r#"inner_product((1,2),(E(0),E(1)))"#, r#"(1, 2)"#),
    (
        r#"inner_product((2,(1,3)),(E(0),(E(1),2*E(0))))"#,
        r#"(8, 1)"#,
    ),
    (r#"inner_product((1,2),(3,))"#, r#"error"#),
    (r#"crd2idx((1,0,1),(3,2,4))"#, r#"7"#),
    (r#"crd2idx((1,(0,1)),(3,(2,4)))"#, r#"7"#),
    (r#"crd2idx((2,5),(3,(2,3)))"#, r#"17"#),
    (r#"crd2idx((1,(2,3)),(3,(2,4)))"#, r#"25"#),
    (r#"crd2idx((),())"#, r#"0"#),
    (r#"crd2idx((1,2),(3,4,5))"#, r#"error"#),
    (r#"crd2idx((1,(2,3)),(3,4))"#, r#"error"#),
    (r#"crd2idx(None,(3,4))"#, r#"error"#),
    (r#"compatible(30,(2,15))"#, r#"True"#),
    (r#"compatible((2,15),(2,(3,5)))"#, r#"True"#),
    (r#"compatible(24,32)"#, r#"False"#),
    (r#"compatible((4,6),((2,3),8))"#, r#"False"#),
    (r#"compatible((2,(3,5)),((3,2),5))"#, r#"False"#),
    (r#"compatible(24,(24,))"#, r#"True"#),
    (r#"compatible((24,),24)"#, r#"False"#),
    (r#"compatible(1,())"#, r#"True"#),
    (r#"compatible((2,3),(2,3,1))"#, r#"False"#),
    (r#"common_coarsening((2,15),(2,(3,5)))"#, r#"(2, 15)"#),
    (r#"common_coarsening((4,(3,5)),((2,2),15))"#, r#"(4, 15)"#),
    (r#"common_coarsening(30,(2,15))"#, r#"30"#),
    (r#"common_coarsening((2,(3,5)),((3,2),5))"#, r#"30"#),
    (r#"common_coarsening((6,5),(2,15))"#, r#"30"#),
    (r#"common_coarsening((2,3),(2,3,1))"#, r#"6"#),
    (
        r#"common_coarsening(((2,3),(4,5)),((3,2),(4,5)))"#,
        r#"(6, (4, 5))"#,
    ),
    (
        r#"common_coarsening(((2,3),(4,5)),((6,),(20,)))"#,
        r#"(6, 20)"#,
    ),
    (r#"common_coarsening((),())"#, r#"()"#),
    (r#"common_coarsening(3,4)"#, r#"error"#),
    (r#"slice_(0,((2,3),(5,7,9)))"#, r#"()"#),
    (r#"dice_(0,((2,3),(5,7,9)))"#, r#"(((2, 3), (5, 7, 9)),)"#),
    (
        r#"slice_(None,((2,3),(5,7,9)))"#,
        r#"(((2, 3), (5, 7, 9)),)"#,
    ),
    (r#"slice_((None,1),((2,3),(5,7,9)))"#, r#"((2, 3),)"#),
    (r#"dice_((None,1),((2,3),(5,7,9)))"#, r#"((5, 7, 9),)"#),
    (
        r#"slice_((None,(1,None,1)),((2,3),(5,7,9)))"#,
        r#"((2, 3), 7)"#,
    ),
    (r#"dice_((None,(1,None,1)),((2,3),(5,7,9)))"#, r#"(5, 9)"#),
    (
        r#"slice_((None,),((2,3),(5,7,9)))"#,
        r#"((2, 3), (5, 7, 9))"#,
    ),
    (r#"size[0](((6,2),5):((8,2),1))"#, r#"12"#),
    (r#"size[0,1](((6,2),5):((8,2),1))"#, r#"2"#),
    (r#"rank[0](((6,2),5):((8,2),1))"#, r#"2"#),
    (r#"depth[0](((6,2),5):((8,2),1))"#, r#"1"#),
    (r#"shape[0,0](((6,2),5):((8,2),1))"#, r#"6"#),
    (r#"stride[0](((6,2),5):((8,2),1))"#, r#"(8, 2)"#),
    (r#"get[0,1](((6,2),5):((8,2),1))"#, r#"2:2"#),
    (r#"rank(())"#, r#"0"#),
    (r#"rank(7)"#, r#"1"#),
    (r#"rank((7,))"#, r#"1"#),
    (r#"rank((3,(4,5)))"#, r#"2"#),
    (r#"depth(7)"#, r#"0"#),
    (r#"depth((3,(4,5)))"#, r#"2"#),
    (r#"size((3,(4,5)))"#, r#"60"#),
    (r#"flatten(())"#, r#"()"#),
    (r#"flatten(((), (1,)))"#, r#"(1,)"#),
    (r#"flatten(((1,(2,3)),4))"#, r#"(1, 2, 3, 4)"#),
    (r#"repeat_like(0, ((1,(2,3)),4))"#, r#"((0, (0, 0)), 0)"#),
    (r#"repeat_like(7, 5)"#, r#"7"#),
    (r#"repeat_like(7, ())"#, r#"()"#),
    (r#"unwrap(((((42,))),))"#, r#"42"#),
    (r#"unwrap((1, 2))"#, r#"(1, 2)"#),
    (r#"unwrap(((),))"#, r#"()"#),
    (r#"product(())"#, r#"1"#),
    (r#"product(5)"#, r#"5"#),
    (r#"product_each(((2,(3,4)),(5,6),7))"#, r#"(24, 30, 7)"#),
    (r#"product_each(())"#, r#"()"#),
    (r#"idx2crd(42, (3,7,2))"#, r#"(0, 0, 2)"#),
    (r#"idx2crd(100, (3,(2,4)))"#, r#"(1, (1, 16))"#),
    (r#"idx2crd((1,9), (3,(2,4)))"#, r#"(1, (1, 4))"#),
    (r#"idx2crd(-1, (3,4))"#, r#"(2, -1)"#),
    (r#"idx2crd(-7, (4,3))"#, r#"(1, -2)"#),
    (r#"idx2crd(None, (3,(2,4)))"#, r#"(0, (0, 0))"#),
    (r#"idx2crd((None,3), (3,(2,4)))"#, r#"(0, (1, 1))"#),
    (r#"idx2crd(5, ())"#, r#"()"#),
    (r#"idx2crd((), ())"#, r#"()"#),
    (r#"idx2crd(ArithTuple(2,7), (3,(2,4)))"#, r#"(2, (1, 3))"#),
    (r#"idx2crd(1@1@0@1, (8,((2,1),4)))"#, r#"(0, ((0, 1), 0))"#),
    (r#"idx2crd(F2(0b10110), (4,8))"#, r#"(F2, F5)"#),
    (r#"idx2crd(F2(7), 8)"#, r#"F7"#),
    (r#"crd2idx((5,5),(3,4))"#, r#"20"#),
    (r#"crd2idx((3,-2),(4,3))"#, r#"-5"#),
    (r#"crd2idx(7,(3,(2,4)))"#, r#"7"#),
    (r#"common_refinement(30,(2,15))"#, r#"(2, 15)"#),
    (r#"common_refinement(10,(10,))"#, r#"(10,)"#),
    (
        r#"common_refinement(((2,3),20),(6,(4,5)))"#,
        r#"((2, 3), (4, 5))"#,
    ),
    (r#"common_refinement((),())"#, r#"()"#),
    (r#"common_refinement(1,())"#, r#"()"#),
    (r#"lift(42, (0,2,3))"#, r#"((0, 0, (0, 0, 0, 42)),)"#),
    (r#"lift(42, ())"#, r#"42"#),
    (r#"select((10,11,12,13), (1,3))"#, r#"(11, 13)"#),
    (r#"-7 // 3"#, r#"-3"#),
    (r#"-7 % 3"#, r#"2"#),
    (r#"7 // -2"#, r#"-4"#),
    (r#"7 % -2"#, r#"-1"#),
];

#[test]
fn spec_rows_through_the_notation() {
    crate::common::check_rows(SPEC_ROWS);
}
