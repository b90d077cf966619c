//! Layouts (`docs/language.md`, "Layouts"): construction, printing, properties,
//! evaluation, slicing, mode access, make_layout, make_layout_like,
//! make_ordered_layout, tiler_to_layout, identity layouts and equality:
//! every worked example the library can express, plus properties.

use crate::common::{crd, lay, sh, st};
use proptest::prelude::*;
use rcute::algebra::{
    coshape, make_identity_layout, make_layout_like, make_ordered_layout, slice, slice_and_offset,
};
use rcute::shape::{coordinates, crd2idx, idx2crd, size};
use rcute::tiler::tiler_to_layout;
use rcute::{ErrorKind, HRef, HTuple, Layout, Scalar, Tiler};
use std::cmp::Ordering;

fn kind<T: std::fmt::Debug>(r: rcute::Result<T>) -> ErrorKind {
    r.expect_err("expected an error").kind()
}

/// `Layout(S, D)`.
fn ctor(s: &str, d: &str) -> rcute::Result<Layout> {
    Layout::with_stride(sh(s), st(d).as_ref())
}

/// `(L)(c)` printed.
fn at(l: &str, c: &str) -> String {
    match lay(l).eval(crd(c).as_ref()) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

/// `slice_and_offset(L, c)` printed as `(sub-layout, offset)`.
fn so(l: &str, c: &str) -> (String, String) {
    let (sub, off) = slice_and_offset(&lay(l), crd(c).as_ref()).unwrap();
    (sub.to_string(), off.to_string())
}

fn mll(l: &str) -> String {
    match make_layout_like(&lay(l)) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

fn mol(s: &str, o: &str) -> String {
    match make_ordered_layout(sh(s).as_ref(), sh(o).as_ref()) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

/// Tilers written in the notation subset: integers, `_`, layouts, tuples.
fn tiler(src: &str) -> Tiler {
    let src = src.trim();
    if src == "_" || src == "None" {
        return Tiler::None;
    }
    if src.starts_with('(') && src.ends_with(')') {
        // a tuple of tilers, unless the whole text is one layout
        let inner = &src[1..src.len() - 1];
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0i32, 0usize);
        let mut top_colon = false;
        for (i, c) in src.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ':' if depth == 0 => top_colon = true,
                _ => {}
            }
            let _ = i;
        }
        if !top_colon {
            for (i, c) in inner.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(&inner[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if !inner[start..].trim().is_empty() {
                parts.push(&inner[start..]);
            }
            return Tiler::Tuple(parts.into_iter().map(tiler).collect());
        }
    }
    if src.contains(':') {
        Tiler::Layout(lay(src))
    } else {
        Tiler::Int(src.parse().unwrap())
    }
}

fn t2l(src: &str) -> String {
    match tiler_to_layout(&tiler(src)) {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

// ---------------------------------------------------------------- section 1

#[test]
fn invariants() {
    assert_eq!(
        kind(Layout::new(sh("(4,8)"), st("(1,(2,3))"))),
        ErrorKind::Congruence
    );
    assert_eq!(
        kind(Layout::new(sh("(4,0)"), st("(1,4)"))),
        ErrorKind::Value
    );
    assert_eq!(kind(Layout::new(sh("-2"), st("1"))), ErrorKind::Value);
    assert_eq!(kind(ctor("(4,0)", "1")), ErrorKind::Value);
    assert_eq!(kind(Layout::column_major(sh("(4,-1)"))), ErrorKind::Value);
    assert_eq!(kind(Layout::row_major(sh("0"))), ErrorKind::Value);
}

// ---------------------------------------------------------------- section 2

#[test]
fn constructor() {
    let c = |s: &str, d: &str| ctor(s, d).unwrap().to_string();
    assert_eq!(c("(4,8)", "1"), "(4, 8):(1, 4)");
    assert_eq!(c("(3,(2,4))", "1"), "(3, (2, 4)):(1, (3, 6))");
    assert_eq!(c("8", "1"), "8:1");
    assert_eq!(c("()", "1"), "():()");
    assert_eq!(c("(4,8)", "2"), "(4, 8):(2, 8)");
    assert_eq!(c("((2,3),4)", "5"), "((2, 3), 4):((5, 10), 30)");
    assert_eq!(c("(4,8)", "E(1)"), "(4, 8):(1@1, 4@1)");
    assert_eq!(c("(4,8)", "F2(1)"), "(4, 8):(F1, F4)");
    assert_eq!(c("(4,8)", "(8,1)"), "(4, 8):(8, 1)");
    assert_eq!(c("(2,(3,4))", "(100,1)"), "(2, (3, 4)):(100, (1, 3))");
    assert_eq!(c("(3, 4)", "(4, 1)"), "(3, 4):(4, 1)");
    assert_eq!(c("(3, (2, 4))", "(24, (1, 6))"), "(3, (2, 4)):(24, (1, 6))");
    assert_eq!(c("((2, 4, 6), 9)", "1"), "((2, 4, 6), 9):((1, 2, 8), 48)");
    assert_eq!(c("7", "9"), "7:9");
    assert_eq!(kind(ctor("(2,3)", "(1,(2,))")), ErrorKind::Congruence);
    assert_eq!(kind(ctor("3", "(1,)")), ErrorKind::Congruence);
    assert_eq!(kind(ctor("(2,3)", "(1,2,3)")), ErrorKind::Rank);
    assert!(ctor("8", "(2, 7)").is_err());
    // column-major and row-major
    assert_eq!(
        Layout::column_major(sh("(4,8)")).unwrap().to_string(),
        "(4, 8):(1, 4)"
    );
    assert_eq!(
        Layout::row_major(sh("(4,8)")).unwrap().to_string(),
        "(4, 8):(8, 1)"
    );
    assert_eq!(
        Layout::row_major(sh("((2,3),4)")).unwrap().to_string(),
        "((2, 3), 4):((12, 4), 1)"
    );
    assert_eq!(Layout::row_major(sh("()")).unwrap().to_string(), "():()");
    assert_eq!(Layout::row_major(sh("5")).unwrap().to_string(), "5:1");
    // a literal keeps its stride exactly
    assert_eq!(lay("(4, 8):(8, 1)").to_string(), "(4, 8):(8, 1)");
    assert_eq!(lay("(12,):(1,)").to_string(), "(12,):(1,)");
}

// ---------------------------------------------------------------- section 3

#[test]
fn printing() {
    for (l, py, cpp, repr) in [
        (
            "(4,8):(1,4)",
            "(4, 8):(1, 4)",
            "(4,8):(1,4)",
            "Layout((4, 8), (1, 4))",
        ),
        ("8:1", "8:1", "8:1", "Layout(8, 1)"),
        ("(3,):(1,)", "(3,):(1,)", "(3):(1)", "Layout((3,), (1,))"),
        (
            "((3,),):((1,),)",
            "((3,),):((1,),)",
            "((3)):((1))",
            "Layout(((3,),), ((1,),))",
        ),
        ("():()", "():()", "():()", "Layout((), ())"),
        (
            "(4,8):(1@0,1@1)",
            "(4, 8):(1@0, 1@1)",
            "(4,8):(1@0,1@1)",
            "Layout((4, 8), (1@0, 1@1))",
        ),
        (
            "(2,3):(F1,F9)",
            "(2, 3):(F1, F9)",
            "(2,3):(F1,F9)",
            "Layout((2, 3), (F1, F9))",
        ),
        ("8:F1", "8:F1", "8:F1", "Layout(8, F1)"),
        (
            "((2,3),4):((1,1@0),(1,2))",
            "((2, 3), 4):((1, 1@0), (1, 2))",
            "((2,3),4):((1,1@0),(1,2))",
            "Layout(((2, 3), 4), ((1, 1@0), (1, 2)))",
        ),
    ] {
        let x = lay(l);
        assert_eq!(x.to_string(), py, "{l}");
        assert_eq!(format!("{x:#}"), cpp, "{l}");
        assert_eq!(x.repr(), repr, "{l}");
    }
}

// ---------------------------------------------------------------- section 4

#[test]
fn properties() {
    let l = lay("(3,(2,4)):(2,(1,6))");
    assert_eq!(l.shape().to_string(), "(3, (2, 4))");
    assert_eq!(l.stride().to_string(), "(2, (1, 6))");
    assert_eq!(l.size().unwrap(), 24);
    assert_eq!(l.rank(), 2);
    assert_eq!(l.depth().unwrap(), 2);
    assert_eq!(coshape(&l).unwrap().to_string(), "24");
    assert_eq!(rcute::algebra::cosize(&l).unwrap(), 24);
    assert_eq!(rcute::algebra::coprofile(&l).unwrap().to_string(), "0");
    let e = lay("():()");
    assert_eq!(e.size().unwrap(), 1);
    assert_eq!(e.rank(), 0);
    assert_eq!(kind(e.depth()), ErrorKind::Value);
    assert_eq!(kind(lay("((),):((),)").depth()), ErrorKind::Value);
    assert_eq!(l.mode(1).unwrap().size().unwrap(), 8);
    assert_eq!(coshape(&l.mode(1).unwrap()).unwrap().to_string(), "20");
}

// ---------------------------------------------------------------- section 5

#[test]
fn evaluation() {
    let a = "(3,(2,4)):(2,(1,6))";
    assert_eq!(at(a, "7"), "8");
    assert_eq!(at(a, "(1,2)"), "8");
    assert_eq!(at(a, "(1,(0,1))"), "8");
    assert_eq!(at(a, "(0,7)"), "19");
    assert_eq!(at(a, "(0,(1,3))"), "19");
    assert_eq!(at(a, "100"), "99");
    assert_eq!(at(a, "-1"), "-1");
    assert_eq!(at(a, "(1,9)"), "27");
    assert_eq!(at(a, "0"), "0");
    assert_eq!(at(a, "23"), "23");
    let image: Vec<String> = (0..24).map(|i| at(a, &i.to_string())).collect();
    assert_eq!(
        image.join(","),
        "0,2,4,1,3,5,6,8,10,7,9,11,12,14,16,13,15,17,18,20,22,19,21,23"
    );
    assert_eq!(at("(4,8):(8,1)", "14"), "19");
    assert_eq!(at("(4,8):(8,1)", "(2,3)"), "19");
    assert_eq!(at("(4,8):(1@0,1@1)", "(2,3)"), "(2, 3)");
    assert_eq!(at("(4,8):(1@0,1@1)", "13"), "(1, 3)");
    assert_eq!(at("(4,8):(1@1,1@0)", "(2,3)"), "(3, 2)");
    assert_eq!(at("(4,8):(F1,F8)", "(2,1)"), "F10");
    assert_eq!(at("():()", "()"), "0");
    assert_eq!(at("():()", "0"), "0");
    assert_eq!(at("():()", "5"), "0");
    assert!(at("5:1", "()").starts_with("error: rank"));
    assert!(at("5:1", "(1,2)").starts_with("error: rank"));
    assert!(at("(4,8):(1,4)", "()").starts_with("error: rank"));
    assert_eq!(at("(3, 4):(4, 1)", "(2, 3)"), "11");
    assert_eq!(at("(3, 4):(4, 1)", "11"), "11");
    assert_eq!(
        at("(4, (4, 3)):(F2(1), (F2(5), F2(16)))", "(3, (2, 1))"),
        "F25"
    );
    assert_eq!(
        at("(4, (4, 3)):(F2(1), (F2(5), F2(16)))", "(2, (3, 2))"),
        "F45"
    );
    assert_eq!(at("((2, 9),):((9, 1),)", "34"), "17");
    assert_eq!(at("(11,):(1,)", "(2,)"), "2");
    // a zero extent cannot be built at all (Layout::from_parts is not public)
    assert!(Layout::new(sh("(0, 3)"), st("(1, 1)")).is_err());
}

// ---------------------------------------------------------------- section 6

#[test]
fn slicing_table() {
    let rows = [
        ("(4,8):(8,1)", "(2,_)", "(8,):(1,)", "16"),
        ("(4,8):(8,1)", "(_,3)", "(4,):(8,)", "3"),
        ("(4,8):(1,4)", "(_,3)", "(4,):(1,)", "12"),
        ("(3,(2,4)):(2,(1,6))", "(1,_)", "((2, 4),):((1, 6),)", "2"),
        ("(3,(2,4)):(2,(1,6))", "(_,(1,_))", "(3, 4):(2, 6)", "1"),
        ("(3,(2,4)):(2,(1,6))", "(1,(_,2))", "(2,):(1,)", "14"),
        ("(3,(2,4)):(2,(1,6))", "(_,3)", "(3,):(2,)", "7"),
        (
            "(3,(2,4)):(2,(1,6))",
            "(_,_)",
            "(3, (2, 4)):(2, (1, 6))",
            "0",
        ),
        ("(3,(2,4)):(2,(1,6))", "_", "(3, (2, 4)):(2, (1, 6))", "0"),
        ("(4,6):(1@0,1@1)", "(_,3)", "(4,):(1@0,)", "3@1"),
        ("(4,6):(1@0,1@1)", "(2,_)", "(6,):(1@1,)", "2@0"),
    ];
    for (l, c, sub, off) in rows {
        assert_eq!(so(l, c), (sub.to_string(), off.to_string()), "{l} at {c}");
        assert_eq!(slice(&lay(l), crd(c).as_ref()).unwrap().to_string(), sub);
    }
    // the bare _ returns the layout itself
    let l = lay("(3,(2,4)):(2,(1,6))");
    assert_eq!(slice(&l, crd("_").as_ref()).unwrap(), l);
    // the whitepaper figure
    let a = "((3,2),((2,3),2)):((4,1),((2,15),100))";
    for (c, sub, off) in [
        ("(2,_)", "(((2, 3), 2),):(((2, 15), 100),)", "8"),
        ("(_,5)", "((3, 2),):((4, 1),)", "32"),
        ("(2,((0,_),_))", "(3, 2):(15, 100)", "8"),
        ("((_,1),(_,0))", "(3, (2, 3)):(4, (2, 15))", "1"),
        ("((_,0),((0,_),1))", "(3, 3):(4, 15)", "100"),
        ("((1,_),((_,0),_))", "(2, 2, 2):(1, 2, 100)", "4"),
    ] {
        assert_eq!(so(a, c), (sub.to_string(), off.to_string()), "A{c}");
    }
    // the pair prints as a Python tuple (layout in repr form)
    let (sub, off) = slice_and_offset(&lay(a), crd("((1,_),((_,0),_))").as_ref()).unwrap();
    assert_eq!(
        format!("({}, {})", sub.repr(), off),
        "(Layout((2, 2, 2), (1, 2, 100)), 4)"
    );
    assert_eq!(format!("({sub:#},{off})"), "((2,2,2):(1,2,100),4)");
    // F2 strides slice as any others
    assert_eq!(
        so("(4,8):(F2(1),F2(9))", "(_,3)"),
        ("(4,):(F1,)".into(), "F27".into())
    );
    assert_eq!(so("(2, 2):(F2(49), F2(26))", "(1, None)").0, "(2,):(F26,)");
    assert_eq!(so("(2, 2):(F2(49), F2(26))", "(None, None)").1, "F0");
    // a bare _ fixes nothing: the integer offset 0 in every algebra
    let (sub, off) = slice_and_offset(&lay("10:F2(33)"), crd("_").as_ref()).unwrap();
    assert_eq!(sub.to_string(), "10:F33");
    assert!(matches!(off, Scalar::Int(0)));
    // shorter / longer / mis-nested slicing coordinates are rank errors
    for (l, c) in [
        ("(4,8):(1,4)", "(_,)"),
        ("(4,8):(1,4)", "(_,3,1)"),
        ("(4,8):(1,4)", "(_,(1,_))"),
        ("8:1", "(_,)"),
        ("(5, (3, 6)):(1, (5, 15))", "(None,)"),
        ("12:3", "(None, 0)"),
    ] {
        assert_eq!(
            kind(slice(&lay(l), crd(c).as_ref())),
            ErrorKind::Rank,
            "{l} at {c}"
        );
        assert_eq!(
            kind(slice_and_offset(&lay(l), crd(c).as_ref())),
            ErrorKind::Rank
        );
    }
    // no _ at all: an empty sub-layout and the plain value
    assert_eq!(so("(4,8):(8,1)", "(2,3)"), ("():()".into(), "19".into()));
}

// ---------------------------------------------------------------- section 7

#[test]
fn mode_access() {
    let l = lay("(3,(2,4)):(2,(1,6))");
    assert_eq!(l.mode(1).unwrap().to_string(), "(2, 4):(1, 6)");
    assert_eq!(l.mode(1).unwrap().mode(0).unwrap().to_string(), "2:1");
    assert_eq!(l.mode(-1).unwrap().to_string(), "(2, 4):(1, 6)");
    assert_eq!(kind(l.mode(2)), ErrorKind::Bounds);
    assert_eq!(lay("(5,):(2,)").mode(0).unwrap().to_string(), "5:2");
    assert_eq!(kind(lay("():()").mode(0)), ErrorKind::Bounds);
    let leaf = lay("7:3");
    assert_eq!(leaf.mode(0).unwrap(), leaf);
    assert_eq!(leaf.mode(-1).unwrap(), leaf);
    assert_eq!(kind(leaf.mode(1)), ErrorKind::Bounds);
    assert_eq!(l.get(&[]).unwrap(), l);
    assert_eq!(l.get(&[1, 0]).unwrap().to_string(), "2:1");
    assert_eq!(kind(l.get(&[0, 0])), ErrorKind::Type);
    let modes: Vec<String> = l.modes().map(|m| m.to_string()).collect();
    assert_eq!(modes, ["3:2", "(2, 4):(1, 6)"]);
    assert_eq!(leaf.modes().count(), 1);
}

// ---------------------------------------------------------------- section 8

#[test]
fn make_layout_concatenation() {
    let r = Layout::concat([lay("3:1"), lay("(5,1):(7,2)"), lay("2:42")]).unwrap();
    assert_eq!(r.to_string(), "(3, (5, 1), 2):(1, (7, 2), 42)");
    assert_eq!(r.mode(1).unwrap(), lay("(5,1):(7,2)"));
    assert_eq!(
        Layout::concat([lay("3:1")]).unwrap().to_string(),
        "(3,):(1,)"
    );
    assert_eq!(
        Layout::concat([lay("3:1"), lay("():()")])
            .unwrap()
            .to_string(),
        "(3, ()):(1, ())"
    );
    let inner = Layout::concat([lay("2:1"), lay("3:2")]).unwrap();
    assert_eq!(
        Layout::concat([inner]).unwrap().to_string(),
        "((2, 3),):((1, 2),)"
    );
    assert_eq!(kind(Layout::concat([])), ErrorKind::Value);
    assert_eq!(Layout::concat_allow_empty([]).to_string(), "():()");
}

// ---------------------------------------------------------------- section 9

#[test]
fn make_layout_like_table() {
    assert_eq!(mll("(4,8):(1,4)"), "(4, 8):(1, 4)");
    assert_eq!(mll("(4,8):(100,1)"), "(4, 8):(8, 1)");
    assert_eq!(mll("(2,3,4,5):(0,42,4,0)"), "(2, 3, 4, 5):(0, 4, 1, 0)");
    assert_eq!(mll("(4,1,3):(1,5,4)"), "(4, 1, 3):(1, 12, 4)");
    assert_eq!(mll("(4,3):(-2,2)"), "(4, 3):(1, 4)");
    assert_eq!(mll("(4,3):(1@1,1@0)"), "(4, 3):(3, 1)");
    assert_eq!(mll("8:5"), "8:1");
    assert_eq!(mll("((7, 1), 4):((2, 16), 3)"), "((7, 1), 4):((1, 28), 7)");
    assert_eq!(mll("12:32"), "12:1");
    assert_eq!(
        mll("((2, 7, 2), (4, 12)):((56, 4, 28), (1, 112))"),
        "((2, 7, 2), (4, 12)):((56, 4, 28), (1, 112))"
    );
    // a zero coordinate stride is pinned like the integer 0
    assert_eq!(mll("(4,3):(ArithTuple(0,0),1@0)"), "(4, 3):(0, 1)");
    assert!(mll("(4,3):(1,1@0)").starts_with("error: type"));
    assert_eq!(mll("():()"), "():()");
    // the running product after the last leaf is never formed
    assert_eq!(
        mll("(4294967296, 4294967296):(1, 4294967296)"),
        "(4294967296, 4294967296):(1, 4294967296)"
    );
}

#[test]
fn make_ordered_layout_table() {
    assert_eq!(mol("(4,8)", "(0,1)"), "(4, 8):(1, 4)");
    assert_eq!(mol("(4,8)", "(1,0)"), "(4, 8):(8, 1)");
    assert_eq!(mol("(2,3,4,2)", "(0,2,3,0)"), "(2, 3, 4, 2):(1, 4, 12, 2)");
    assert_eq!(mol("(2,(3,4))", "(1,(0,2))"), "(2, (3, 4)):(3, (1, 6))");
    assert_eq!(mol("(4,8)", "(5,5)"), "(4, 8):(1, 4)");
    assert_eq!(mol("8", "0"), "8:1");
    assert!(mol("(2,(3,4))", "(1,0)").starts_with("error: congruence"));
    assert_eq!(mol("(8, 12, 7)", "(4, 0, 1)"), "(8, 12, 7):(84, 1, 12)");
    assert_eq!(
        mol("((10, 4, 17), (2, 3))", "((1, 4, 0), (2, 3))"),
        "((10, 4, 17), (2, 3)):((17, 1020, 1), (170, 340))"
    );
    assert_eq!(
        mol("(4, (5, 5))", "(1, (2, 0))"),
        "(4, (5, 5)):(5, (20, 1))"
    );
    assert!(mol("9", "((0, 2, 0), (0, 0))").starts_with("error: congruence"));
    assert!(mol("(6, 5, 10)", "7").starts_with("error: congruence"));
    assert!(mol("(10,)", "(1, 2, 2, 1)").starts_with("error: congruence"));
    assert!(mol("(0, 3)", "(0, 1)").starts_with("error: value"));
}

// ---------------------------------------------------------------- section 10

#[test]
fn tiler_to_layout_table() {
    assert_eq!(t2l("3"), "3:1");
    assert_eq!(t2l("(7,2):(3,1)"), "(7, 2):(3, 1)");
    assert_eq!(t2l("(4,5)"), "(4, 5):(1@0, 1@1)");
    assert_eq!(t2l("(4:2, 5:3)"), "(4, 5):(2@0, 3@1)");
    assert_eq!(t2l("(4,(2,3))"), "(4, (2, 3)):(1@0, (1@0@1, 1@1@1))");
    assert_eq!(t2l("((2,2):(1,4), 8)"), "((2, 2), 8):((1@0, 4@0), 1@1)");
    assert_eq!(t2l("(4,)"), "(4,):(1@0,)");
    assert_eq!(t2l("()"), "():()");
    assert!(t2l("(_,4)").starts_with("error: type"));
    assert!(t2l("(4:1@1, 3)").starts_with("error: type"));
    assert!(t2l("_").starts_with("error: type"));
}

// ---------------------------------------------------------------- section 11

#[test]
fn identity_layouts() {
    let id = |s: &str| make_identity_layout(sh(s).as_ref()).unwrap();
    assert_eq!(id("(4,8)").to_string(), "(4, 8):(1@0, 1@1)");
    assert_eq!(
        id("((2,3),4)").to_string(),
        "((2, 3), 4):((1@0@0, 1@1@0), 1@1)"
    );
    assert_eq!(id("5").to_string(), "5:1");
    assert_eq!(
        id("(4,6)").eval(crd("(2,3)").as_ref()).unwrap().to_string(),
        "(2, 3)"
    );
    assert_eq!(
        id("(4,6)").eval(crd("13").as_ref()).unwrap().to_string(),
        "(1, 3)"
    );
    assert_eq!(id("(10, 1, 3)").to_string(), "(10, 1, 3):(1@0, 1@1, 1@2)");
    assert_eq!(
        id("((1, 12, 2), 11)").to_string(),
        "((1, 12, 2), 11):((1@0@0, 1@1@0, 1@2@0), 1@1)"
    );
    assert_eq!(id("()").to_string(), "():()");
    assert!(make_identity_layout(sh("(3, 0)").as_ref()).is_err());
}

// ---------------------------------------------------------------- section 12

#[test]
fn equality() {
    assert_ne!(lay("(4,8):(1,4)"), lay("32:1"));
    assert_ne!(lay("6:1"), lay("(6,):(1,)"));
    assert_eq!(lay("(2,3):(0,1)"), lay("(2,3):(ArithTuple(0,0),1)"));
    assert_eq!(lay("4:1@0"), lay("4:ArithTuple(1,0)"));
    assert_ne!(lay("4:1@0"), lay("4:1@1"));
    assert_eq!(lay("(2,3):(F2(5),1)"), lay("(2,3):(5,1)"));
}

// ---------------------------------------------------------------- properties

/// A random shape, depth <= 2, extents 1-5.
fn arb_shape() -> impl Strategy<Value = HTuple<i64>> {
    let leaf = (1i64..=5).prop_map(HTuple::leaf);
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop::collection::vec(inner, 0..=3).prop_map(HTuple::tuple)
    })
}

/// A random layout with integer strides in -9..=9 (zeros included).
fn arb_int_layout() -> impl Strategy<Value = Layout> {
    (arb_shape(), prop::collection::vec(-9i64..=9, 16)).prop_map(|(s, d)| {
        let n = s.leaves().len();
        let stride = HTuple::unflatten(d.into_iter().take(n).map(Scalar::Int), s.as_ref()).unwrap();
        Layout::new(s, stride).unwrap()
    })
}

/// A random layout with integer or coordinate strides (k@i for i < 3,
/// k@j@3).
fn arb_layout() -> impl Strategy<Value = Layout> {
    (
        arb_shape(),
        prop::collection::vec((0u8..4, -4i64..=6, 0usize..3, 0usize..2), 16),
        any::<bool>(),
    )
        .prop_map(|(s, d, coordinate)| {
            let n = s.leaves().len();
            let leaves = d
                .into_iter()
                .take(n)
                .map(|(k, v, i, j)| match (coordinate, k) {
                    (false, _) => Scalar::Int(v),
                    (true, 0) => Scalar::Int(0),
                    // axis 3 is always nested, axes 0-2 never: the strides can be added
                    (true, 1) => Scalar::basis(v, &[3, j]),
                    _ => Scalar::basis(v, &[i]),
                });
            let stride = HTuple::unflatten(leaves, s.as_ref()).unwrap();
            Layout::new(s, stride).unwrap()
        })
}

fn lcrd(v: i64) -> HTuple<Option<Scalar>> {
    HTuple::leaf(Some(Scalar::Int(v)))
}

fn as_crd(t: &HTuple<Scalar>) -> HTuple<Option<Scalar>> {
    t.map(|x| Some(x.clone()))
}

/// A random slicing coordinate following `s`: each node is `_`, an
/// in-range integer for the whole sub-tree, or (for a tuple) split further.
fn slicing_coord(
    s: HRef<'_, i64>,
    seeds: &mut impl Iterator<Item = u8>,
    top: bool,
) -> HTuple<Option<Scalar>> {
    let k = seeds.next().unwrap_or(0);
    if top && !s.is_leaf() || (!s.is_leaf() && k % 3 == 2) {
        return HTuple::tuple(
            s.modes()
                .map(|m| slicing_coord(m, seeds, false))
                .collect::<Vec<_>>(),
        );
    }
    if k.is_multiple_of(3) {
        HTuple::leaf(None)
    } else {
        let n = size(s).unwrap();
        HTuple::leaf(Some(Scalar::Int(i64::from(seeds.next().unwrap_or(0)) % n)))
    }
}

/// Replaces the `_` leaves of `c`, in order, by the modes of `fill`.
fn fill_slots(
    c: HRef<'_, Option<Scalar>>,
    fill: &mut impl Iterator<Item = HTuple<i64>>,
) -> HTuple<Option<Scalar>> {
    match c.as_leaf() {
        Some(None) => fill
            .next()
            .expect("one mode per _")
            .map(|&v| Some(Scalar::Int(v))),
        Some(Some(x)) => HTuple::leaf(Some(x.clone())),
        None => HTuple::tuple(c.modes().map(|m| fill_slots(m, fill)).collect::<Vec<_>>()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(2000) })]

    /// L(i) == L(flat) == L(natural) for every integral index, and the
    /// integral path equals the generic one (idx2crd + inner product).
    #[test]
    fn prop_eval_forms_agree(l in arb_layout(), i in -40i64..200) {
        let by_index = l.eval_index(i);
        let nat = idx2crd(lcrd(i).as_ref(), l.shape().as_ref()).unwrap();
        let by_nat = l.eval(as_crd(&nat).as_ref());
        match (&by_index, &by_nat) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{:?} vs {:?}", by_index, by_nat),
        }
        let by_ip = rcute::stride::inner_product(nat.as_ref(), l.stride());
        prop_assert_eq!(by_index.as_ref().ok(), by_ip.as_ref().ok());
        if !l.is_leaf() {
            // the flat coordinate: each mode's own integral coordinate
            let flat: Vec<HTuple<Option<Scalar>>> = l.shape().as_ref().modes().zip(nat.as_ref().modes())
                .map(|(sm, cm)| lcrd(crd2idx(as_crd(&cm.to_owned()).as_ref(), sm).unwrap()))
                .collect();
            let flat = HTuple::tuple(flat);
            prop_assert_eq!(l.eval(flat.as_ref()).ok(), by_index.ok());
        }
    }

    /// Slicing: L(c with k in the _ slots) == offset + sub(k) for every k.
    #[test]
    fn prop_slice_offset(l in arb_layout(), seeds in prop::collection::vec(any::<u8>(), 64)) {
        let c = slicing_coord(l.shape().as_ref(), &mut seeds.into_iter(), true);
        let (sub, offset) = slice_and_offset(&l, c.as_ref()).unwrap();
        let nslots = c.leaves().iter().filter(|x| x.is_none()).count();
        if c.as_leaf() == Some(&None) {
            prop_assert_eq!(&sub, &l);
        } else {
            prop_assert_eq!(sub.rank(), nslots);
        }
        prop_assert_eq!(slice(&l, c.as_ref()).unwrap(), sub.clone());
        let n = sub.size().unwrap();
        for k in 0..n.min(64) {
            let nat = idx2crd(lcrd(k).as_ref(), sub.shape().as_ref()).unwrap();
            let nat = nat.map(|x| x.as_int().unwrap());
            let modes: Vec<HTuple<i64>> = if c.as_leaf() == Some(&None) {
                vec![nat.clone()]
            } else {
                nat.as_ref().modes().map(|m| m.to_owned()).collect()
            };
            let full = fill_slots(c.as_ref(), &mut modes.into_iter());
            let lhs = l.eval(full.as_ref()).unwrap();
            let rhs = offset.add(&sub.eval_index(k).unwrap()).unwrap();
            prop_assert_eq!(lhs, rhs);
        }
    }

    /// cosize >= max offset + 1 for non-negative strides.
    #[test]
    fn prop_cosize_covers_image(l in arb_int_layout()) {
        let l = Layout::new(l.shape().clone(), l.stride().to_owned().map(|d| Scalar::Int(d.as_int().unwrap().abs()))).unwrap();
        let cs = rcute::algebra::cosize(&l).unwrap();
        for i in 0..l.size().unwrap() {
            let v = l.eval_index(i).unwrap().as_int().unwrap();
            prop_assert!(v < cs, "offset {} outside cosize {}", v, cs);
        }
    }

    /// make_layout_like(L): same shape; zero strides stay zero; the modes
    /// with nonzero strides form a compact (bijective onto [0, n)) layout;
    /// its strides are ordered like L's.
    #[test]
    fn prop_make_layout_like(l in arb_layout()) {
        let r = match make_layout_like(&l) {
            Ok(r) => r,
            Err(e) => {
                // only a nonzero integer against a coordinate stride may fail
                let d = l.stride().leaves();
                prop_assert!(d.iter().any(|x| x.is_coord() && !x.is_zero()) && d.iter().any(|x| !x.is_coord() && !x.is_zero()), "{}", e);
                return Ok(());
            }
        };
        prop_assert_eq!(r.shape(), l.shape());
        let (d, rd) = (l.stride().leaves(), r.stride().leaves());
        let s = l.shape().leaves();
        let mut kept = Vec::new();
        for k in 0..d.len() {
            if d[k].is_zero() {
                prop_assert_eq!(&rd[k], &Scalar::Int(0));
            } else {
                kept.push(k);
            }
        }
        // compact: the kept modes enumerate 0..n exactly once
        let ext: Vec<i64> = kept.iter().map(|&k| s[k]).collect();
        let sub = Layout::new(HTuple::flat(ext.clone()), HTuple::flat(kept.iter().map(|&k| rd[k].clone()))).unwrap();
        let n = sub.size().unwrap();
        let mut seen = vec![false; n as usize];
        for i in 0..n {
            let v = sub.eval_index(i).unwrap().as_int().unwrap();
            prop_assert!(v >= 0 && v < n && !seen[v as usize]);
            seen[v as usize] = true;
        }
        // ordered like L: a strictly smaller stride in L gets a smaller stride
        for &a in &kept {
            for &b in &kept {
                if d[a].try_cmp(&d[b]).unwrap() == Ordering::Less {
                    // strictly smaller unless the smaller mode has extent 1
                    let (x, y) = (rd[a].as_int().unwrap(), rd[b].as_int().unwrap());
                    prop_assert!(x < y || (x == y && s[a] == 1));
                }
            }
        }
    }

    /// make_ordered_layout(S, order) is a compact layout of S whose strides
    /// follow the order values (stable for ties).
    #[test]
    fn prop_make_ordered_layout(s in arb_shape(), o in prop::collection::vec(0i64..4, 16)) {
        let order = HTuple::unflatten(o.into_iter().take(s.leaves().len()), s.as_ref()).unwrap();
        let r = make_ordered_layout(s.as_ref(), order.as_ref()).unwrap();
        prop_assert_eq!(r.shape(), &s);
        let n = r.size().unwrap();
        let mut seen = vec![false; n as usize];
        for i in 0..n {
            let v = r.eval_index(i).unwrap().as_int().unwrap();
            prop_assert!(v >= 0 && v < n && !seen[v as usize]);
            seen[v as usize] = true;
        }
        let (ol, rd) = (order.leaves(), r.stride().leaves());
        for a in 0..ol.len() {
            for b in 0..ol.len() {
                if ol[a] < ol[b] || (ol[a] == ol[b] && a < b) {
                    let (x, y) = (rd[a].as_int().unwrap(), rd[b].as_int().unwrap());
                    prop_assert!(x < y || (x == y && s.leaves()[a] == 1));
                }
            }
        }
        // a congruent order equal to the column-major strides reproduces them
        let cm = Layout::column_major(s.clone()).unwrap();
        let same = make_ordered_layout(s.as_ref(), cm.stride().to_owned().map(|d| d.as_int().unwrap()).as_ref()).unwrap();
        prop_assert_eq!(same, cm);
    }

    /// The identity layout maps every index to its natural coordinate;
    /// tiler_to_layout of a tuple of integers is the identity layout of the
    /// flat shape; column-major layouts evaluate to the index itself.
    #[test]
    fn prop_identity_and_column_major(s in arb_shape(), ext in prop::collection::vec(1i64..=6, 1..=4)) {
        let id = make_identity_layout(s.as_ref()).unwrap();
        let cm = Layout::column_major(s.clone()).unwrap();
        let rm = Layout::row_major(s.clone()).unwrap();
        let n = size(s.as_ref()).unwrap();
        let mut seen = vec![false; n as usize];
        for (i, c) in coordinates(s.as_ref()).unwrap().enumerate() {
            let v = id.eval_index(i as i64).unwrap();
            if s.is_leaf() {
                prop_assert_eq!(v.clone(), Scalar::Int(i as i64));
            } else {
                // as a coordinate value, padded: equal to the natural coordinate
                let want = Scalar::from_tuple(c.map(|&x| Scalar::Int(x)).as_ref());
                prop_assert_eq!(v.clone(), want);
            }
            prop_assert_eq!(cm.eval_index(i as i64).unwrap(), Scalar::Int(i as i64));
            let r = rm.eval_index(i as i64).unwrap().as_int().unwrap();
            prop_assert!(r >= 0 && r < n && !seen[r as usize]);
            seen[r as usize] = true;
        }
        let t = Tiler::Tuple(ext.iter().map(|&e| Tiler::Int(e)).collect());
        prop_assert_eq!(tiler_to_layout(&t).unwrap(), make_identity_layout(HTuple::flat(ext).as_ref()).unwrap());
    }
}

// ---------------------------------------------------------------- end to end

/// Every worked example of the reference chapter that is a self-contained expression
/// (tables and inline `expr = result` examples; rows that name a variable
/// or a range are checked by the functions above), evaluated through the
/// notation: the result must equal the spec's text up to whitespace, or be
/// an error where the spec says "error".
const SPEC_ROWS: &[(&str, &str)] = &[
    (r#"((4,8):(8,1))(2,_)"#, r#"(8,):(1,)"#),
    (r#"((4,8):(8,1))(_,3)"#, r#"(4,):(8,)"#),
    (r#"((4,8):(1,4))(_,3)"#, r#"(4,):(1,)"#),
    (r#"((3,(2,4)):(2,(1,6)))(1,_)"#, r#"((2, 4),):((1, 6),)"#),
    (r#"((3,(2,4)):(2,(1,6)))(_,(1,_))"#, r#"(3, 4):(2, 6)"#),
    (r#"((3,(2,4)):(2,(1,6)))(1,(_,2))"#, r#"(2,):(1,)"#),
    (r#"((3,(2,4)):(2,(1,6)))(_,3)"#, r#"(3,):(2,)"#),
    (
        r#"((3,(2,4)):(2,(1,6)))(_,_)"#,
        r#"(3, (2, 4)):(2, (1, 6))"#,
    ),
    (r#"((3,(2,4)):(2,(1,6)))(_)"#, r#"(3, (2, 4)):(2, (1, 6))"#),
    (r#"((4,6):(1@0,1@1))(_,3)"#, r#"(4,):(1@0,)"#),
    (r#"((4,6):(1@0,1@1))(2,_)"#, r#"(6,):(1@1,)"#),
    (
        r#"(((3,2),((2,3),2)):((4,1),((2,15),100)))(2,_)"#,
        r#"(((2, 3), 2),):(((2, 15), 100),)"#,
    ),
    (
        r#"(((3,2),((2,3),2)):((4,1),((2,15),100)))(_,5)"#,
        r#"((3, 2),):((4, 1),)"#,
    ),
    (
        r#"(((3,2),((2,3),2)):((4,1),((2,15),100)))(2,((0,_),_))"#,
        r#"(3, 2):(15, 100)"#,
    ),
    (
        r#"(((3,2),((2,3),2)):((4,1),((2,15),100)))((_,1),(_,0))"#,
        r#"(3, (2, 3)):(4, (2, 15))"#,
    ),
    (
        r#"(((3,2),((2,3),2)):((4,1),((2,15),100)))((_,0),((0,_),1))"#,
        r#"(3, 3):(4, 15)"#,
    ),
    (
        r#"(((3,2),((2,3),2)):((4,1),((2,15),100)))((1,_),((_,0),_))"#,
        r#"(2, 2, 2):(1, 2, 100)"#,
    ),
    (
        r#"make_layout(3:1, (5,1):(7,2), 2:42)"#,
        r#"(3, (5, 1), 2):(1, (7, 2), 42)"#,
    ),
    (r#"make_layout(3:1)"#, r#"(3,):(1,)"#),
    (r#"make_layout(3:1, ():())"#, r#"(3, ()):(1, ())"#),
    (
        r#"make_layout(make_layout(2:1, 3:2))"#,
        r#"((2, 3),):((1, 2),)"#,
    ),
    (r#"make_layout_like((4,8):(1,4))"#, r#"(4, 8):(1, 4)"#),
    (r#"make_layout_like((4,8):(100,1))"#, r#"(4, 8):(8, 1)"#),
    (
        r#"make_layout_like((2,3,4,5):(0,42,4,0))"#,
        r#"(2, 3, 4, 5):(0, 4, 1, 0)"#,
    ),
    (
        r#"make_layout_like((4,1,3):(1,5,4))"#,
        r#"(4, 1, 3):(1, 12, 4)"#,
    ),
    (r#"make_layout_like((4,3):(-2,2))"#, r#"(4, 3):(1, 4)"#),
    (r#"make_layout_like((4,3):(1@1,1@0))"#, r#"(4, 3):(3, 1)"#),
    (r#"make_layout_like(8:5)"#, r#"8:1"#),
    (r#"make_ordered_layout((4,8),(0,1))"#, r#"(4, 8):(1, 4)"#),
    (r#"make_ordered_layout((4,8),(1,0))"#, r#"(4, 8):(8, 1)"#),
    (
        r#"make_ordered_layout((2,3,4,2),(0,2,3,0))"#,
        r#"(2, 3, 4, 2):(1, 4, 12, 2)"#,
    ),
    (
        r#"make_ordered_layout((2,(3,4)),(1,(0,2)))"#,
        r#"(2, (3, 4)):(3, (1, 6))"#,
    ),
    (r#"make_ordered_layout((4,8),(5,5))"#, r#"(4, 8):(1, 4)"#),
    (r#"make_ordered_layout(8,0)"#, r#"8:1"#),
    (r#"make_ordered_layout((2,(3,4)),(1,0))"#, r#"error"#),
    (r#"tiler_to_layout(3)"#, r#"3:1"#),
    (r#"tiler_to_layout((7,2):(3,1))"#, r#"(7, 2):(3, 1)"#),
    (r#"tiler_to_layout((4,5))"#, r#"(4, 5):(1@0, 1@1)"#),
    (r#"tiler_to_layout((4:2, 5:3))"#, r#"(4, 5):(2@0, 3@1)"#),
    (
        r#"tiler_to_layout((4,(2,3)))"#,
        r#"(4, (2, 3)):(1@0, (1@0@1, 1@1@1))"#,
    ),
    (
        r#"tiler_to_layout(((2,2):(1,4), 8))"#,
        r#"((2, 2), 8):((1@0, 4@0), 1@1)"#,
    ),
    (r#"tiler_to_layout((4,))"#, r#"(4,):(1@0,)"#),
    (r#"tiler_to_layout(())"#, r#"():()"#),
    (r#"tiler_to_layout((_,4))"#, r#"error"#),
    (r#"tiler_to_layout((4:1@1, 3))"#, r#"error"#),
    (r#"make_identity_layout((4,8))"#, r#"(4, 8):(1@0, 1@1)"#),
    (
        r#"make_identity_layout(((2,3),4))"#,
        r#"((2, 3), 4):((1@0@0, 1@1@0), 1@1)"#,
    ),
    (r#"make_identity_layout(5)"#, r#"5:1"#),
    (r#"make_identity_layout((4,6))(2,3)"#, r#"(2, 3)"#),
    (r#"make_identity_layout((4,6))(13)"#, r#"(1, 3)"#),
    (r#"Layout((3,(2,4)))"#, r#"(3, (2, 4)):(1, (3, 6))"#),
    (r#"Layout(8)"#, r#"8:1"#),
    (r#"Layout(())"#, r#"():()"#),
    (r#"Layout((4,8),2)"#, r#"(4, 8):(2, 8)"#),
    (r#"Layout((4,8),E(1))"#, r#"(4, 8):(1@1, 4@1)"#),
    (r#"Layout((4,8),F2(1))"#, r#"(4, 8):(F1, F4)"#),
    (r#"Layout((4,8),(8,1))"#, r#"(4, 8):(8, 1)"#),
    (
        r#"Layout((2,(3,4)),(100,1))"#,
        r#"(2, (3, 4)):(100, (1, 3))"#,
    ),
    (r#"size(():())"#, r#"1"#),
    (r#"rank(():())"#, r#"0"#),
    (r#"((4,8):(1,4))(_, 3)"#, r#"(4,):(1,)"#),
    (r#"((3,(2,4)):(2,(1,6)))[1]"#, r#"(2, 4):(1, 6)"#),
    (r#"((5,):(2,))[0]"#, r#"5:2"#),
    (r#"coalesce((4,3))"#, r#"(4, 3):(1@0, 1@1)"#),
    (r#"complement(12)"#, r#"1:12"#),
];

#[test]
fn spec_rows_through_the_notation() {
    crate::common::check_rows(SPEC_ROWS);
}
