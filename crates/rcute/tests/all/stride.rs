//! Stride algebras (`docs/language.md`, "Strides"; symbolic
//! strides are out of scope): construction, arithmetic, equality, order,
//! printing, basis_repr / is_basis, proj / unit / as_tuple, F2 values,
//! coshape / coprofile / cosize and the mixing rules, with properties.

use crate::common::{crd, lay, s, sh, st};
use proptest::prelude::*;
use rcute::algebra::codomain::coprofile_tiler;
use rcute::algebra::{coprofile, coshape, cosize, make_identity_layout};
use rcute::shape::idx2crd;
use rcute::{ErrorKind, HTuple, Layout, Scalar, Tiler};
use std::cmp::Ordering;

/// Evaluates an arithmetic expression of stride scalars and prints it.
fn ev(src: &str) -> String {
    s(src).to_string()
}

fn add(a: &str, b: &str) -> rcute::Result<Scalar> {
    s(a).add(&s(b))
}

fn kind<T: std::fmt::Debug>(r: rcute::Result<T>) -> ErrorKind {
    r.expect_err("expected an error").kind()
}

fn lt(a: &str, b: &str) -> bool {
    s(a).try_cmp(&s(b)).unwrap() == Ordering::Less
}

fn coshape_of(l: &str) -> String {
    match coshape(&lay(l)) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn coprofile_of(l: &str) -> String {
    match coprofile(&lay(l)) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn children(x: &Scalar) -> usize {
    match x {
        Scalar::Coord(c) => c.children().len(),
        _ => panic!("not a coordinate value: {x}"),
    }
}

// ---------------------------------------------------------------- section 1

#[test]
fn zero_is_the_identity_of_every_algebra() {
    for x in ["5", "F2(9)", "E(1)", "3*E(0)+5*E(1)", "E(0)*F2(3)"] {
        assert_eq!(add("0", x).unwrap(), s(x), "0 + {x}");
        assert_eq!(add(x, "0").unwrap(), s(x), "{x} + 0");
        assert_eq!(add("0", x).unwrap().to_string(), s(x).to_string());
    }
}

// ---------------------------------------------------------------- section 3.2

#[test]
fn construction() {
    assert_eq!(children(&s("E(0)")), 1);
    assert_eq!(s("E(1)").as_tuple().to_string(), "(0, 1)");
    assert_eq!(s("E(1, 0)").as_tuple().to_string(), "(0, (1,))");
    assert_eq!(Scalar::basis(1, &[]), Scalar::Int(1));
    assert!(matches!(Scalar::basis(1, &[]), Scalar::Int(1)));
    assert_eq!(Scalar::basis(42, &[]).to_string(), "42");
    assert_eq!(kind(Scalar::Int(1).at(-1)), ErrorKind::Value);
    let e12 = s("E(1) @ 2");
    assert_eq!(e12.to_string(), "1@1@2");
    assert_eq!(e12, s("E(2, 1)"));
    assert_eq!(s("5 @ 1"), Scalar::basis(5, &[1]));
    assert_eq!(ev("3*E(0)+5*E(1)"), "(3, 5)");
    assert_eq!(children(&s("3*E(0)+5*E(1)")), 2);
    // ArithTuple(3) is the integer 3; a one-tuple argument is a coordinate value
    assert!(matches!(s("ArithTuple(3)"), Scalar::Int(3)));
    assert!(s("ArithTuple((5,))").is_coord());
    // the docs' rows
    assert_eq!(ev("E(0, 0)"), "1@0@0");
    assert_eq!(ev("3 * E(0)"), "3@0");
    assert_eq!(ev("42 * E()"), "42");
    assert_eq!(ev("42@0"), "42@0");
    assert_eq!(ev("42 * E(1, 0)"), "42@0@1");
}

// ---------------------------------------------------------------- section 3.3

#[test]
fn coordinate_arithmetic() {
    assert_eq!(ev("(1@0 + 2@1 + 3@2) + (7@0 + 8@1 + 9@2)"), "(8, 10, 12)");
    assert_eq!(ev("(1@0 + 2@1 + 3@2) * 4"), "(4, 8, 12)");
    assert_eq!(ev("4 * (1@0 + 2@1 + 3@2)"), "(4, 8, 12)");
    assert_eq!(kind(add("1@0 + 2@1 + 3@2", "7")), ErrorKind::Type);
    assert_eq!(kind(add("7", "1@0")), ErrorKind::Type);
    assert_eq!(ev("3@1 + 5@1"), "8@1");
    assert_eq!(ev("4@3 + 4@1"), "(0, 4, 0, 4)");
    assert_eq!(ev("4 * (8@1@1 + 2@3)"), "(0, 32@1, 0, 8)");
    assert_eq!(
        ev("5@0@0 + 7*E(2, 0) - (8*E(0, 1) + 6@2@1)"),
        "((5, -8), -6@2, 7@0)"
    );
    assert_eq!(ev("1@2@2 + 2@3 - (9@0@0)"), "(-9@0, 0, 1@2, 2)");
    assert_eq!(ev("6@2@2 + (5@2@0 + 6*E(1) + 8*E(3))"), "(5@2, 6, 6@2, 8)");
    assert_eq!(ev("9@2 - (3@3)"), "(0, 0, 9, -3)");
    // a nonzero integer added to a nested coordinate child
    assert_eq!(
        kind(add("6@1 + E(2, 0)", "E(0) + 9@1 + 1@2")),
        ErrorKind::Type
    );
    // subtraction and negation
    assert_eq!(ev("0 - 2@1"), "-2@1");
    assert_eq!(ev("-(3*E(0)+5*E(1))"), "(-3, -5)");
    assert_eq!(kind(s("E(0)").sub(&Scalar::Int(4))), ErrorKind::Type);
    assert_eq!(kind(Scalar::Int(4).sub(&s("E(0)"))), ErrorKind::Type);
    // coordinate * coordinate
    assert_eq!(kind(s("E(0)").mul(&s("E(1)"))), ErrorKind::Type);
    // E(0) - E(0): one explicit zero child, equal to and printed as 0
    let z = s("E(0) - E(0)");
    assert_eq!(children(&z), 1);
    assert_eq!(z, Scalar::Int(0));
    assert_eq!(z.to_string(), "0");
    // overflow is an error
    assert_eq!(
        kind(s("9223372036854775807@0").mul_int(2)),
        ErrorKind::Overflow
    );
}

// ---------------------------------------------------------------- section 3.4

#[test]
fn equality_table() {
    assert_eq!(s("E(0)"), s("ArithTuple(1,0)"));
    assert_eq!(s("ArithTuple(0,0)"), s("0"));
    assert_ne!(s("ArithTuple((5,))"), s("5"));
    assert_ne!(s("E(0)"), s("1"));
    assert_eq!(s("ArithTuple(1,2)"), s("ArithTuple(1,2,0)"));
    assert_ne!(s("ArithTuple(1,(2,0))"), s("ArithTuple(1,2)"));
    assert_eq!(s("ArithTuple(1,(2,))"), s("ArithTuple(1,(2,0,0))"));
    assert_eq!(
        lay("4:E(0)"),
        Layout::new(sh("4"), HTuple::leaf(s("ArithTuple(1, 0)"))).unwrap()
    );
}

// ---------------------------------------------------------------- section 3.5

#[test]
fn colexicographic_order() {
    assert!(lt("2@0", "1@1"));
    assert!(lt("E(0,1)", "E(1)"));
    assert!(lt("E(0,1)", "E(1,0)"));
    assert!(lt("ArithTuple(2,1)", "ArithTuple(1,2)"));
    assert!(lt("0", "E(0)"));
    assert!(!lt("E(0)", "0"));
    assert!(!lt("E(0)", "ArithTuple(1, 0)"));
    assert_eq!(
        s("E(0)").try_cmp(&s("ArithTuple(1, 0)")).unwrap(),
        Ordering::Equal
    );
    let mut v = [s("3*E(1)"), s("E(0)"), s("2*E(0)"), s("E(1)")];
    v.sort_by(|a, b| a.try_cmp(b).unwrap());
    let printed: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    assert_eq!(printed, ["1@0", "2@0", "1@1", "3@1"]);
    assert_eq!(kind(s("E(0)").try_cmp(&s("1"))), ErrorKind::Type);
    assert_eq!(kind(s("3").try_cmp(&s("E(0)"))), ErrorKind::Type);
}

// ---------------------------------------------------------------- section 3.6

#[test]
fn printing_table() {
    for (v, want) in [
        ("E(0)", "1@0"),
        ("E(1,0)", "1@0@1"),
        ("3*E(0)+5*E(1)", "(3, 5)"),
        ("ArithTuple(0,0,7)", "7@2"),
        ("ArithTuple(0,(0,5))", "5@1@1"),
        ("ArithTuple(1,(2,3))", "(1, (2, 3))"),
        ("ArithTuple(1,(0,3))", "(1, 3@1)"),
        ("ArithTuple(0,0)", "0"),
        ("ArithTuple(())", "0"),
        ("E(0)-E(0)", "0"),
        ("ArithTuple(-2,0)", "-2@0"),
        ("ArithTuple(((1,2),))", "((1, 2))"),
        ("ArithTuple(1,F2(3))", "(1, F3)"),
        ("E(0)*F2(3)", "F3@0"),
    ] {
        assert_eq!(ev(v), want, "{v}");
        // C++ style: the same text without spaces
        assert_eq!(format!("{:#}", s(v)), want.replace(' ', ""), "{v}");
    }
}

// ---------------------------------------------------------------- section 3.7

#[test]
fn basis_repr_and_is_basis() {
    let br = |v: &str| -> Vec<(String, Vec<usize>)> {
        s(v).basis_repr()
            .into_iter()
            .map(|(x, p)| (x.to_string(), p.to_vec()))
            .collect()
    };
    assert_eq!(br("5*E(1,2)"), [("5".into(), vec![1, 2])]);
    assert_eq!(
        br("3*E(0)+5*E(1)"),
        [("3".into(), vec![0]), ("5".into(), vec![1])]
    );
    assert_eq!(
        br("ArithTuple(1,(2,0,3))"),
        [
            ("1".into(), vec![0]),
            ("2".into(), vec![1, 0]),
            ("3".into(), vec![1, 2])
        ]
    );
    assert_eq!(br("7"), [("7".into(), vec![])]);
    assert_eq!(br("0"), [("0".into(), vec![])]);
    assert_eq!(br("F2(3)"), [("F3".into(), vec![])]);
    assert_eq!(br("F2(0)"), [("0".into(), vec![])]);
    assert_eq!(br("6@1@0"), [("6".into(), vec![0, 1])]);
    assert_eq!(
        br("3*E(0, 1) + 4@2"),
        [("3".into(), vec![0, 1]), ("4".into(), vec![2])]
    );
    for v in [
        "0",
        "7",
        "F2(9)",
        "E(0)-E(0)",
        "5*E(1,2)",
        "ArithTuple(0,(0,5))",
    ] {
        assert!(s(v).is_basis(), "{v}");
    }
    for v in ["3*E(0)+5*E(1)", "4*E(1) + 2@2", "7*E(1, 1) + 3@2@2"] {
        assert!(!s(v).is_basis(), "{v}");
    }
}

// ---------------------------------------------------------------- section 3.8

/// proj(x, p) = get(x, path of p), defined through basis_term and get_path.
fn proj(x: &str, p: &str) -> rcute::Result<String> {
    let (_, path) = s(p).basis_term()?;
    let t = st(x);
    Ok(t.as_ref().get(&path)?.to_string())
}

#[test]
fn make_basis_like_proj_unit_as_tuple() {
    // make_basis_like is the stride of the identity layout
    let mbl = |x: &str| {
        make_identity_layout(sh(x).as_ref())
            .unwrap()
            .stride()
            .to_string()
    };
    assert_eq!(mbl("(10,(20,30))"), "(1@0, (1@0@1, 1@1@1))");
    assert_eq!(mbl("5"), "1");
    assert_eq!(mbl("()"), "()");
    assert_eq!(mbl("((),3)"), "((), 1@1)");
    // proj
    assert_eq!(proj("(1,(2,3))", "E(1,0)").unwrap(), "2");
    assert_eq!(
        s("ArithTuple(1,(2,3))")
            .get_path(&s("E(1,1)").basis_term().unwrap().1)
            .unwrap()
            .to_string(),
        "3"
    );
    assert_eq!(kind(proj("7", "E(0)")), ErrorKind::Type);
    assert_eq!(kind(proj("(1,2)", "E(3)")), ErrorKind::Bounds);
    assert_eq!(kind(s("3*E(0)+5*E(1)").basis_term()), ErrorKind::Type);
    // unit(p) = E(path of p)
    let unit = |p: &str| {
        let (_, path) = s(p).basis_term().unwrap();
        Scalar::basis(1, &path).to_string()
    };
    assert_eq!(unit("5"), "1");
    assert_eq!(unit("0"), "1");
    assert_eq!(unit("2*E(1)"), "1@1");
    assert_eq!(unit("2*E(1,0)"), "1@0@1");
    // as_tuple
    assert_eq!(
        s("ArithTuple(1,2,(3,4))").as_tuple().to_string(),
        "(1, 2, (3, 4))"
    );
    assert_eq!(s("E(1)").as_tuple().to_string(), "(0, 1)");
    assert_eq!(s("5").as_tuple().to_string(), "5");
    assert_eq!(s("E(0)").as_tuple().to_string(), "(1,)");
}

// ---------------------------------------------------------------- section 4

#[test]
fn f2_values() {
    assert_eq!(ev("F2(0b1010) + F2(0b1100)"), "F6");
    assert_eq!(ev("F2(5) + 0"), "F5");
    assert_eq!(ev("0 + F2(5)"), "F5");
    assert_eq!(kind(add("F2(5)", "4")), ErrorKind::Type);
    assert_eq!(kind(add("4", "F2(5)")), ErrorKind::Type);
    assert_eq!(ev("F2(5) - F2(8)"), "F13");
    assert_eq!(ev("F2(5) - 0"), "F5");
    assert_eq!(kind(s("F2(5)").sub(&Scalar::Int(3))), ErrorKind::Type);
    // an F2 value is its own negative (python-dropin 2.12.1)
    assert_eq!(s("F2(5)").neg().unwrap().to_string(), "F5");
    assert_eq!(Scalar::Int(0).sub(&s("F2(3)")).unwrap().to_string(), "F3");
    assert_eq!(ev("F2(3)*3"), "F5");
    assert_eq!(ev("F2(6)*F2(3)"), "F10");
    assert_eq!(ev("F2(1)*5"), "F5");
    assert_eq!(ev("3*F2(0b1010)"), "F30");
    assert_eq!(ev("F2(9)*0"), "F0");
    assert_eq!(ev("F2(0b1010) * 2"), "F20");
    assert_eq!(ev("F2(0b11) * 0b11"), "F5");
    assert_eq!(ev("F2(254) * 12"), "F1032");
    assert_eq!(ev("F2(23) * 11"), "F129");
    assert_eq!(ev("F2(0b11010) * F2(106)"), "F1316");
    assert_eq!(kind(s("F2(9)").mul_int(-1)), ErrorKind::Value);
    // F2 scales a coordinate value from either side (python-dropin 2.12.2)
    assert_eq!(s("F2(3)").mul(&s("E(0)")).unwrap().to_string(), "F3@0");
    assert_eq!(s("F2(3)").mul(&s("2*E(1)")).unwrap().to_string(), "F6@1");
    assert_eq!(ev("E(0)*F2(3)"), "F3@0");
    assert_eq!(s("F2(5)"), s("5"));
    assert_eq!(s("F2(0)"), s("0"));
    assert!(lt("F2(5)", "F2(8)"));
    use rcute::notation::eval_str;
    assert!(eval_str("F2(-3)").is_err_and(|e| e.kind() == ErrorKind::Value));
    assert!(eval_str("E(-1)").is_err_and(|e| e.kind() == ErrorKind::Value));
    assert!(eval_str("E(0,-2)").is_err_and(|e| e.kind() == ErrorKind::Value));
    // idx2crd of an F2 index
    let i = |c: &str, sh_: &str| idx2crd(crd(c).as_ref(), sh(sh_).as_ref()).map(|t| t.to_string());
    assert_eq!(i("F2(0b10110)", "(4,8)").unwrap(), "(F2, F5)");
    // the carry-free rule (python-dropin 2.12.6)
    assert_eq!(i("F2(5)", "(3,4)").unwrap(), "(F0, F3)");
    assert_eq!(i("F2(0b10110)", "(3,3)").unwrap(), "(F1, F13)");
    assert_eq!(i("F2(13)", "(4,(3,8))").unwrap(), "(F1, (F0, F1))");
    assert_eq!(i("F2(9)", "(5,1,3)").unwrap(), "(F3, F0, F2)");
    assert_eq!(i("F2(5)", "7").unwrap(), "F5");
    assert_eq!(kind(i("F2(4)", "(3,3,3)")), ErrorKind::Value);
    let neg = HTuple::leaf(Some(Scalar::F2(-5)));
    assert_eq!(
        kind(idx2crd(neg.as_ref(), sh("(3,4)").as_ref())),
        ErrorKind::Value
    );
    // F2 layouts evaluate to XORs of carry-less products
    let l = Layout::with_stride(sh("(4,8)"), st("(F2(1),F2(8))").as_ref()).unwrap();
    assert_eq!(l.eval(crd("(2,1)").as_ref()).unwrap().to_string(), "F10");
    assert_eq!(l.eval(crd("31").as_ref()).unwrap().to_string(), "F59");
}

// ---------------------------------------------------------------- section 5

#[test]
fn coshape_examples() {
    // strides count by their absolute value (C++; the reference gives 8, -10)
    assert_eq!(coshape_of("(3,4):(-1,3)"), "12");
    assert_eq!(coshape_of("(3,4):(-1,-3)"), "12");
    assert_eq!(coshape_of("8:-1"), "8");
    assert_eq!(coshape_of("(4,3):(1@0,-1@1)"), "(4, 3)");
    assert_eq!(coshape_of("(2,4):(2,4)"), "15");
    assert_eq!(coshape_of("(4,8):(1,5)"), "39");
    assert_eq!(coshape_of("1:0"), "1");
    assert_eq!(coshape_of("():()"), "1");
    assert_eq!(coshape_of("(4,8):(1@0,1@1)"), "(4, 8)");
    assert_eq!(coshape_of("(4,8):(1@0,6@1)"), "(4, 43)");
    assert_eq!(coshape_of("(4,8):(1@1,1@0)"), "(8, 4)");
    assert_eq!(coshape_of("(4,8):(1@0,1@2)"), "(4, 1, 8)");
    assert_eq!(coshape_of("(4,8):(1@0,1@1@1)"), "(4, (1, 8))");
    assert_eq!(coshape_of("(4,8):(1@0,0)"), "(4,)");
    assert_eq!(coshape_of("4:(1,1)"), "(4, 4)");
    assert_eq!(coshape_of("(2,2):(1@0,ArithTuple(0,0,0))"), "(2, 1, 1)");
    // F2 strides: 2^m, m the largest bit length of (s-1)*d (python-dropin
    // spec 2.12.8, the newer reference's values); F2 inside a coordinate
    // stride stays a type error there
    assert_eq!(coshape_of("(8,8):(F1,F9)"), "64");
    assert_eq!(coshape_of("4:F3"), "8");
    assert_eq!(coshape_of("(4,8):(F1,0)"), "4");
    assert_eq!(coshape_of("8:F0"), "1");
    assert!(coshape_of("4:F3@0").starts_with("error: type"));
    assert!(coshape_of("(4,8):(1,1@1)").starts_with("error: type"));
    let l = lay("(4,8):(1,4)");
    assert_eq!(coshape(&l.mode(1).unwrap()).unwrap().to_string(), "29");
    // curated rows
    assert_eq!(coshape_of("(4, 8):(8, 1)"), "32");
    assert_eq!(coshape_of("(4, 8):(E(0), 6 * E(1))"), "(4, 43)");
    assert_eq!(coshape_of("(4, (4, 2)):(1@1, (1@0, 6@1))"), "(4, 10)");
    assert_eq!(coshape_of("(1, 6, 5, 3):(20, 20, 0, 480)"), "1061");
    assert_eq!(coshape_of("((2,),):((1,),)"), "2");
    assert_eq!(coshape_of("7:8"), "49");
    assert_eq!(coshape_of("(3,(2,4)):(2,(1,6))"), "24");
    assert_eq!(
        coshape(&lay("(3,(2,4)):(2,(1,6))").mode(1).unwrap())
            .unwrap()
            .to_string(),
        "20"
    );
}

#[test]
fn cosize_examples() {
    let c = |l: &str| cosize(&lay(l)).map(|v| v.to_string());
    // C++ cosize: 10 (the reference: -8)
    assert_eq!(c("(24,(2,1,4)):(0,(0,6,-3))").unwrap(), "10");
    assert_eq!(c("8:-1").unwrap(), "8");
    assert_eq!(c("(4, 8):(1, 4)").unwrap(), "32");
    assert_eq!(c("(4, 8):(1, 5)").unwrap(), "39");
    assert_eq!(c("(4, (4, 2)):(4, (1, 16))").unwrap(), "32");
    assert_eq!(c("((2, 2), (4, 2)):((1, 8), (2, 16))").unwrap(), "32");
    assert_eq!(c("((2, 2), (2, 4)):((0, 2), (0, 4))").unwrap(), "15");
    assert_eq!(c("(4,8):(1@0,6@1)").unwrap(), "172");
    assert_eq!(c("(8,8):(F1,F9)").unwrap(), "64");
    assert_eq!(c("(4,8):(F1,F4)").unwrap(), "32");
    assert_eq!(kind(c("(4,8):(1,1@1)")), ErrorKind::Type);
    assert_eq!(
        kind(c("(4294967296,2):(4294967296,1)")),
        ErrorKind::Overflow
    );
}

#[test]
fn coprofile_table() {
    assert_eq!(coprofile_of("(4,8):(1,4)"), "0");
    assert_eq!(coprofile_of("(4,8):(0,0)"), "0");
    assert_eq!(coprofile_of("():()"), "0");
    assert_eq!(coprofile_of("(4,8):(1@0,1@1)"), "(0, 0)");
    assert_eq!(coprofile_of("(4,8):(1@0,6@1)"), "(0, 0)");
    assert_eq!(coprofile_of("(4,8):(1@0,1@2)"), "(0, 0, 0)");
    assert_eq!(coprofile_of("(4,8):(1@0,1@1@1)"), "(0, (0, 0))");
    assert_eq!(coprofile_of("(4,8):(2@0,3@0)"), "(0,)");
    assert_eq!(coprofile_of("(8,8):(F1,F9)"), "0");
    assert!(coprofile_of("(4,8):(1,1@1)").starts_with("error: type"));
    let ct = |t: Tiler| coprofile_tiler(&t).unwrap().to_string();
    assert_eq!(ct(Tiler::Int(24)), "0");
    assert_eq!(
        ct(Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into())),
        "(0, 0)"
    );
    assert_eq!(
        ct(Tiler::Tuple(vec![Tiler::None, Tiler::Int(4)].into())),
        "(0, 0)"
    );
    assert_eq!(ct(Tiler::Layout(lay("(4,8):(1@0,1@2)"))), "(0, 0, 0)");
}

// ---------------------------------------------------------------- section 6

#[test]
fn mixing_table() {
    assert_eq!(ev("0 + E(1)"), "1@1");
    assert_eq!(ev("0 + F2(3)"), "F3");
    assert_eq!(kind(add("3", "E(0)")), ErrorKind::Type);
    assert_eq!(kind(add("3", "F2(1)")), ErrorKind::Type);
    assert_eq!(ev("E(0) + F2(0)"), "1@0");
    assert_eq!(kind(add("E(0)", "F2(1)")), ErrorKind::Type);
    assert_eq!(add("F2(0)", "E(0)").unwrap().to_string(), "1@0");
    assert_eq!(kind(add("F2(1)", "E(0)")), ErrorKind::Type);
    assert_eq!(ev("3 * E(1)"), "3@1");
    assert_eq!(ev("3 * F2(3)"), "F5");
    assert_eq!(kind(s("E(0)").mul(&s("E(0)"))), ErrorKind::Type);
    assert_eq!(kind(s("E(0)").try_cmp(&s("2"))), ErrorKind::Type);
    // inside a coordinate value, F2 children add by XOR
    assert_eq!(ev("E(0)*F2(3) + E(0)*F2(5)"), "F6@0");
}

// ---------------------------------------------------------------- properties

/// A random profile for coordinate values: a tuple at the top, depth <= 3.
fn arb_skeleton() -> impl Strategy<Value = HTuple<i64>> {
    let leaf = Just(0i64).prop_map(HTuple::leaf);
    let inner = leaf.prop_recursive(2, 8, 3, |inner| {
        prop::collection::vec(inner, 0..=3).prop_map(HTuple::tuple)
    });
    prop::collection::vec(inner, 0..=3).prop_map(HTuple::tuple)
}

/// A coordinate value with the skeleton's structure: integer leaves from
/// `vals`, each level's trailing children dropped at random (`cuts`), so
/// that values drawn from one skeleton can always be added.
fn fill(
    skel: rcute::HRef<'_, i64>,
    vals: &mut impl Iterator<Item = i64>,
    cuts: &mut impl Iterator<Item = usize>,
) -> Scalar {
    if skel.is_leaf() {
        return Scalar::Int(vals.next().unwrap_or(0));
    }
    let mut ch: Vec<Scalar> = skel.modes().map(|m| fill(m, vals, cuts)).collect();
    let keep = cuts.next().unwrap_or(0) % (ch.len() + 3);
    ch.truncate(keep);
    Scalar::coord(ch)
}

/// Three coordinate values of one skeleton.
fn arb_coord_triple() -> impl Strategy<Value = (Scalar, Scalar, Scalar)> {
    (
        arb_skeleton(),
        prop::collection::vec(-5i64..=5, 3 * 64),
        prop::collection::vec(0usize..8, 3 * 16),
    )
        .prop_map(|(skel, vals, cuts)| {
            let mut v = vals.into_iter();
            let mut c = cuts.into_iter();
            let x = fill(skel.as_ref(), &mut v, &mut c);
            let y = fill(skel.as_ref(), &mut v, &mut c);
            let z = fill(skel.as_ref(), &mut v, &mut c);
            (x, y, z)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

    /// Coordinate values form an integer module: addition is commutative and
    /// associative, 0 is neutral, x - x == 0, n*(x+y) == n*x + n*y; equality
    /// ignores trailing zeros; the order is a total order compatible with ==.
    #[test]
    fn prop_coordinate_module((x, y, z) in arb_coord_triple(), n in -4i64..=4) {
        let xy = x.add(&y).unwrap();
        prop_assert_eq!(&xy, &y.add(&x).unwrap());
        prop_assert_eq!(xy.add(&z).unwrap(), x.add(&y.add(&z).unwrap()).unwrap());
        prop_assert_eq!(&x.add(&Scalar::Int(0)).unwrap(), &x);
        prop_assert_eq!(x.sub(&x).unwrap(), Scalar::Int(0));
        prop_assert_eq!(x.sub(&y).unwrap(), x.add(&y.neg().unwrap()).unwrap());
        prop_assert_eq!(xy.mul_int(n).unwrap(), x.mul_int(n).unwrap().add(&y.mul_int(n).unwrap()).unwrap());
        prop_assert_eq!(x.mul_int(n).unwrap(), Scalar::Int(n).mul(&x).unwrap());
        // padding with an explicit zero child changes nothing
        if let Scalar::Coord(c) = &x {
            let mut ch = c.children().to_vec();
            ch.push(Scalar::Int(0));
            let padded = Scalar::coord(ch);
            prop_assert_eq!(&padded, &x);
            prop_assert_eq!(padded.try_cmp(&x).unwrap(), Ordering::Equal);
        }
        // order: antisymmetric, consistent with equality, translation invariant
        let o = x.try_cmp(&y).unwrap();
        prop_assert_eq!(o.reverse(), y.try_cmp(&x).unwrap());
        prop_assert_eq!(o == Ordering::Equal, x == y);
        prop_assert_eq!(x.add(&z).unwrap().try_cmp(&y.add(&z).unwrap()).unwrap(), o);
        // the basis representation rebuilds the value
        let mut r = Scalar::Int(0);
        for (v, p) in x.basis_repr() {
            r = r.add(&Scalar::scaled_basis(v, &p)).unwrap();
        }
        prop_assert_eq!(&r, &x);
        prop_assert_eq!(x.is_basis(), x.basis_repr().len() == 1);
        // printing is a function of the value's explicit structure
        prop_assert_eq!(Scalar::from_tuple(x.as_tuple().as_ref()).to_string(), x.to_string());
    }

    /// F2 values: XOR group; multiplication distributes over XOR.
    #[test]
    fn prop_f2(a in 0i64..1 << 20, b in 0i64..1 << 20, m in 0i64..1 << 10, k in 0i64..1 << 10) {
        let (fa, fb) = (Scalar::F2(a), Scalar::F2(b));
        prop_assert_eq!(fa.add(&fb).unwrap(), Scalar::F2(a ^ b));
        prop_assert_eq!(fa.sub(&fb).unwrap(), Scalar::F2(a ^ b));
        prop_assert_eq!(fa.add(&fa).unwrap(), Scalar::F2(0));
        let lhs = fa.add(&fb).unwrap().mul_int(m).unwrap();
        let rhs = fa.mul_int(m).unwrap().add(&fb.mul_int(m).unwrap()).unwrap();
        prop_assert_eq!(lhs, rhs);
        // (a*m)*k == a*(m clmul k)
        let Scalar::F2(mk) = Scalar::F2(m).mul(&Scalar::F2(k)).unwrap() else {
            panic!("an F2 product is an F2 value");
        };
        prop_assert_eq!(fa.mul_int(m).unwrap().mul_int(k).unwrap(), fa.mul_int(mk).unwrap());
        // multiplying by a power of two is a shift
        prop_assert_eq!(fa.mul_int(1 << 5).unwrap(), Scalar::F2(a << 5));
        prop_assert_eq!(fa.try_cmp(&fb).unwrap(), a.cmp(&b));
    }

    /// coshape of an integer layout is 1 + sum((s-1)*d); for non-negative
    /// strides cosize >= max offset + 1 (and == it: the max is at the last
    /// coordinate), and every offset lies in [0, cosize).
    #[test]
    fn prop_cosize_bounds(ext in prop::collection::vec(1i64..=5, 0..=4), d in prop::collection::vec(0i64..=12, 4)) {
        let shape = HTuple::flat(ext.clone());
        let stride = HTuple::flat(d.iter().take(ext.len()).map(|&v| Scalar::Int(v)));
        let l = Layout::new(shape, stride).unwrap();
        let cs = cosize(&l).unwrap();
        let n = l.size().unwrap();
        let mut max = 0i64;
        for i in 0..n {
            let v = l.eval_index(i).unwrap().as_int().unwrap();
            prop_assert!(v >= 0 && v < cs);
            max = max.max(v);
        }
        prop_assert_eq!(cs, max + 1);
        prop_assert_eq!(coprofile(&l).unwrap(), HTuple::leaf(0));
    }

    /// coshape of an identity-like layout with coordinate strides is the
    /// per-axis max + 1: every value's i-th position lies below coshape[i].
    #[test]
    fn prop_coshape_coordinate(ext in prop::collection::vec(1i64..=5, 1..=4), axes in prop::collection::vec(0usize..3, 4), scale in prop::collection::vec(0i64..=4, 4)) {
        let shape = HTuple::flat(ext.clone());
        let stride = HTuple::flat((0..ext.len()).map(|k| Scalar::basis(scale[k], &[axes[k]])));
        let l = Layout::new(shape, stride).unwrap();
        let cs = coshape(&l).unwrap();
        let prof = coprofile(&l).unwrap();
        prop_assert!(prof.as_ref().congruent(cs.as_ref()));
        let top = cs.leaves();
        for i in 0..l.size().unwrap() {
            let v = l.eval_index(i).unwrap();
            for (a, &e) in top.iter().enumerate() {
                let x = v.get_path(&[a]).unwrap().as_int().unwrap();
                prop_assert!(x >= 0 && x < e);
            }
        }
        // and the maximum of each axis is reached at the last coordinate
        let last = l.eval_index(l.size().unwrap() - 1).unwrap();
        for (a, &e) in top.iter().enumerate() {
            prop_assert_eq!(last.get_path(&[a]).unwrap().as_int().unwrap(), e - 1);
        }
    }
}

// ---------------------------------------------------------------- end to end

/// Every worked example of the reference chapter that is a self-contained expression
/// (tables and inline `expr = result` examples; rows that name a variable
/// or a range are checked by the functions above), evaluated through the
/// notation: the result must equal the spec's text up to whitespace, or be
/// an error where the spec says "error".
const SPEC_ROWS: &[(&str, &str)] = &[
    (r#"E(0) == ArithTuple(1,0)"#, r#"True"#),
    (r#"ArithTuple(0,0) == 0"#, r#"True"#),
    (r#"ArithTuple((5,)) == 5"#, r#"False"#),
    (r#"E(0) == 1"#, r#"False"#),
    (r#"ArithTuple(1,2) == (1,2,0)"#, r#"True"#),
    (r#"ArithTuple(1,(2,0)) == (1,2)"#, r#"False"#),
    (r#"ArithTuple(1,(2,)) == ArithTuple(1,(2,0,0))"#, r#"True"#),
    (r#"E(0)"#, r#"1@0"#),
    (r#"3*E(0)+5*E(1)"#, r#"(3, 5)"#),
    (r#"ArithTuple(0,0,7)"#, r#"7@2"#),
    (r#"ArithTuple(0,(0,5))"#, r#"5@1@1"#),
    (r#"ArithTuple(1,(2,3))"#, r#"(1, (2, 3))"#),
    (r#"ArithTuple(1,(0,3))"#, r#"(1, 3@1)"#),
    (r#"ArithTuple(-2,0)"#, r#"-2@0"#),
    (r#"ArithTuple(((1,2),))"#, r#"((1, 2))"#),
    (r#"ArithTuple(1,F2(3))"#, r#"(1, F3)"#),
    (r#"E(0)*F2(3)"#, r#"F3@0"#),
    (r#"coprofile((4,8):(1,4))"#, r#"0"#),
    (r#"coprofile((4,8):(0,0))"#, r#"0"#),
    (r#"coprofile(():())"#, r#"0"#),
    (r#"coprofile((4,8):(1@0,1@1))"#, r#"(0, 0)"#),
    (r#"coprofile((4,8):(1@0,6@1))"#, r#"(0, 0)"#),
    (r#"coprofile((4,8):(1@0,1@2))"#, r#"(0, 0, 0)"#),
    (r#"coprofile((4,8):(1@0,1@1@1))"#, r#"(0, (0, 0))"#),
    (r#"coprofile((4,8):(2@0,3@0))"#, r#"(0,)"#),
    (r#"coprofile((8,8):(F1,F9))"#, r#"0"#),
    (r#"coprofile(24)"#, r#"0"#),
    (r#"coprofile((4,8))"#, r#"(0, 0)"#),
    (r#"coprofile((None, 4))"#, r#"(0, 0)"#),
    (r#"coprofile((4,8):(1,1@1))"#, r#"error"#),
    (r#"basis_repr(5*E(1,2))"#, r#"[(5, (1, 2))]"#),
    (r#"basis_repr(3*E(0)+5*E(1))"#, r#"[(3, (0,)), (5, (1,))]"#),
    (
        r#"basis_repr(ArithTuple(1,(2,0,3)))"#,
        r#"[(1, (0,)), (2, (1, 0)), (3, (1, 2))]"#,
    ),
    (r#"basis_repr(7)"#, r#"[(7, ())]"#),
    (r#"basis_repr(0)"#, r#"[(0, ())]"#),
    (r#"basis_repr(F2(3))"#, r#"[(F3, ())]"#),
    (r#"basis_repr(F2(0))"#, r#"[(0, ())]"#),
    (r#"make_basis_like(5)"#, r#"1"#),
    (r#"make_basis_like(())"#, r#"()"#),
    (r#"make_basis_like(((),3))"#, r#"((), 1@1)"#),
    (r#"proj((1,(2,3)), E(1,0))"#, r#"2"#),
    (r#"proj(ArithTuple(1,(2,3)), E(1,1))"#, r#"3"#),
    (r#"unit(5)"#, r#"1"#),
    (r#"unit(0)"#, r#"1"#),
    (r#"unit(2*E(1))"#, r#"1@1"#),
    (r#"unit(2*E(1,0))"#, r#"1@0@1"#),
    (r#"as_tuple(ArithTuple(1,2,(3,4)))"#, r#"(1, 2, (3, 4))"#),
    (r#"as_tuple(E(1))"#, r#"(0, 1)"#),
    (r#"as_tuple((E(0),2))"#, r#"((1,), 2)"#),
    (r#"as_tuple(5)"#, r#"5"#),
    (r#"F2(5) - F2(8)"#, r#"F13"#),
    (r#"F2(3)*3"#, r#"F5"#),
    (r#"F2(6)*F2(3)"#, r#"F10"#),
    (r#"F2(1)*5"#, r#"F5"#),
    (r#"3*F2(0b1010)"#, r#"F30"#),
    (r#"F2(9)*0"#, r#"F0"#),
    (r#"idx2crd(F2(0b10110), (4,8))"#, r#"(F2, F5)"#),
    (r#"Layout((4,8),(F2(1),F2(8)))(2,1)"#, r#"F10"#),
    (r#"coshape((3,4):(-1,3))"#, r#"12"#),
    (r#"coshape((3,4):(-1,-3))"#, r#"12"#),
    (r#"coshape((2,4):(2,4))"#, r#"15"#),
    (r#"coshape((4,8):(1,5))"#, r#"39"#),
    (r#"coshape(1:0)"#, r#"1"#),
    (r#"coshape(():())"#, r#"1"#),
    (r#"coshape((4,8):(1@0,1@1))"#, r#"(4, 8)"#),
    (r#"coshape((4,8):(1@0,6@1))"#, r#"(4, 43)"#),
    (r#"coshape((4,8):(1@1,1@0))"#, r#"(8, 4)"#),
    (r#"coshape((4,8):(1@0,1@2))"#, r#"(4, 1, 8)"#),
    (r#"coshape((4,8):(1@0,1@1@1))"#, r#"(4, (1, 8))"#),
    (r#"coshape((4,8):(1@0,0))"#, r#"(4,)"#),
    (r#"coshape(4:(1,1))"#, r#"(4, 4)"#),
    (r#"coshape((2,2):(1@0,ArithTuple(0,0,0)))"#, r#"(2, 1, 1)"#),
    (r#"coshape[1]((4,8):(1,4))"#, r#"29"#),
    (r#"E(0)+F2(0)"#, r#"1@0"#),
];

#[test]
fn spec_rows_through_the_notation() {
    crate::common::check_rows(SPEC_ROWS);
}
