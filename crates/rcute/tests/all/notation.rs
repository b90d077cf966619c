//! The notation: parser, printers and evaluator (`docs/language.md`).

use rcute::notation::{eval_str, eval_styled, Session, Style};
use rcute::ErrorKind;

fn ok(src: &str) -> String {
    match eval_str(src) {
        Ok(s) => s,
        Err(e) => panic!("{src}: unexpected error {e}"),
    }
}

fn err(src: &str) -> rcute::Error {
    match eval_str(src) {
        Ok(s) => panic!("{src}: expected an error, got {s}"),
        Err(e) => e,
    }
}

#[test]
fn integers() {
    assert_eq!(ok("0"), "0");
    assert_eq!(ok("-3"), "-3");
    assert_eq!(ok("0b1010"), "10");
    assert_eq!(ok("0x1f"), "31");
    assert_eq!(ok("_8"), "8");
    assert_eq!(ok("-9223372036854775808"), "-9223372036854775808");
    assert_eq!(err("9223372036854775808").kind(), ErrorKind::Overflow);
    assert_eq!(err("9223372036854775807 + 1").kind(), ErrorKind::Overflow);
    assert_eq!(err("99999999999999999999999").kind(), ErrorKind::Overflow);
}

#[test]
fn arithmetic_precedence() {
    assert_eq!(ok("1 + 2 * 3"), "7");
    assert_eq!(ok("(1 + 2) * 3"), "9");
    assert_eq!(ok("-7 // 2"), "-4");
    assert_eq!(ok("-7 % 3"), "2");
    assert_eq!(ok("7 % -2"), "-1");
    assert_eq!(ok("1/2"), "1/2");
    assert_eq!(ok("4/2"), "2");
    assert_eq!(err("1 // 0").kind(), ErrorKind::Value);
    assert_eq!(err("1 / 0").kind(), ErrorKind::Value);
    assert_eq!(ok("2 + 3 == 5"), "True");
    assert_eq!(ok("2 + 3 != 5"), "False");
    assert_eq!(ok("-2 * -3"), "6");
}

#[test]
fn tuples_and_one_tuples() {
    assert_eq!(ok("(3,)"), "(3,)");
    assert_eq!(ok("(3)"), "3");
    assert_eq!(ok("()"), "()");
    assert_eq!(ok("((3,),)"), "((3,),)");
    assert_eq!(ok("(1, (0, 1))"), "(1, (0, 1))");
    assert_eq!(ok("(1, 2,)"), "(1, 2)");
    assert_eq!(ok("<4, 8>"), "(4, 8)");
    assert_eq!(ok("<4>"), "(4,)");
    assert_eq!(ok("<4:1, 8:2>"), "(Layout(4, 1), Layout(8, 2))");
    assert_eq!(ok("(None, 4:1)"), "(None, Layout(4, 1))");
    assert_eq!(ok("(_, 3)"), "(None, 3)");
}

#[test]
fn basis_and_f2() {
    assert_eq!(ok("1@0"), "1@0");
    assert_eq!(ok("1@0@1"), "1@0@1");
    assert_eq!(ok("E(1, 0)"), "1@0@1");
    assert_eq!(ok("1@0@1 == E(1,0)"), "True");
    assert_eq!(ok("3*E(0)+5*E(1)"), "(3, 5)");
    assert_eq!(ok("-3@1"), "-3@1");
    assert_eq!(ok("42 * E()"), "42");
    assert_eq!(ok("E(0) == ArithTuple(1, 0)"), "True");
    assert_eq!(ok("ArithTuple(1, 2) == (1, 2, 0)"), "True");
    assert_eq!(ok("ArithTuple(3, 5)"), "(3, 5)");
    assert_eq!(ok("ArithTuple(3)"), "3");
    assert_eq!(ok("F2(9)"), "F9");
    assert_eq!(ok("F9"), "F9");
    assert_eq!(ok("F2(0b1010) + F2(0b1100)"), "F6");
    assert_eq!(ok("F2(3) * 3"), "F5");
    assert_eq!(ok("F-3"), "F-3");
    assert_eq!(ok("F2(5) == 5"), "True");
    assert_eq!(err("(1@0 + 2@1 + 3@2) + 7").kind(), ErrorKind::Type);
    assert_eq!(err("1@(-1)").kind(), ErrorKind::Value);
    assert_eq!(err("1@-1").kind(), ErrorKind::Parse);
}

#[test]
fn layouts_and_literal_rule() {
    assert_eq!(ok("(4,8):(8,1)"), "(4, 8):(8, 1)");
    assert_eq!(ok("24:3"), "24:3");
    assert_eq!(ok("12:1@1"), "12:1@1");
    assert_eq!(ok("(3,):(1,)"), "(3,):(1,)");
    assert_eq!(ok("():()"), "():()");
    // a stride tuple at a leaf position of the shape is one coordinate value
    assert_eq!(ok("4:(1,1)"), "4:(1, 1)");
    assert_eq!(
        ok("((2,3),4):((1,1@0),(1,2))"),
        "((2, 3), 4):((1, 1@0), (1, 2))"
    );
    assert_eq!(ok("(4,8):(3*E(0)+5*E(1), 1)"), "(4, 8):((3, 5), 1)");
    assert_eq!(err("(4,8):(1,)").kind(), ErrorKind::Congruence);
    assert_eq!(err("(4,8):1").kind(), ErrorKind::Congruence);
    assert_eq!(err("(4,0):(1,4)").kind(), ErrorKind::Value);
    // `:` is loosest: this is (4,8) : ((1,4) == Layout((4,8))), not a comparison
    assert!(eval_str("(4,8):(1,4) == Layout((4,8))").is_err());
    assert_eq!(ok("((4,8):(1,4)) == Layout((4,8))"), "True");
    assert_eq!(ok("((4,8):(1,4)) == (32:1)"), "False");
    assert_eq!(ok("(6:1) == ((6,):(1,))"), "False");
    assert_eq!(ok("((2,3):(0,1)) == ((2,3):(ArithTuple(0,0),1))"), "True");
    assert_eq!(ok("(4:1@0) == (4:ArithTuple(1,0))"), "True");
}

#[test]
fn layout_constructor() {
    assert_eq!(ok("Layout((4,8))"), "(4, 8):(1, 4)");
    assert_eq!(ok("Layout((4,8),2)"), "(4, 8):(2, 8)");
    assert_eq!(ok("Layout(((2,3),4),(1,100))"), "((2, 3), 4):((1, 2), 100)");
    assert_eq!(ok("Layout((4,8),E(1))"), "(4, 8):(1@1, 4@1)");
    assert_eq!(ok("Layout((4,8),F2(1))"), "(4, 8):(F1, F4)");
    assert_eq!(ok("Layout(())"), "():()");
    assert_eq!(ok("LayoutRight((4,8))"), "(4, 8):(8, 1)");
    assert_eq!(ok("LayoutLeft((4,8))"), "(4, 8):(1, 4)");
    assert_eq!(err("Layout((2,3),(1,(2,)))").kind(), ErrorKind::Congruence);
    assert_eq!(err("Layout(3,(1,))").kind(), ErrorKind::Congruence);
}

#[test]
fn evaluation_syntax() {
    assert_eq!(ok("((4,8):(8,1))(2,3)"), "19");
    assert_eq!(ok("((4,8):(8,1))(14)"), "19");
    assert_eq!(ok("((4,8):(8,1))((2,3))"), "19");
    assert_eq!(ok("((3,(2,4)):(2,(1,6)))(1,(0,1))"), "8");
    assert_eq!(ok("((3,(2,4)):(2,(1,6)))(-1)"), "-1");
    assert_eq!(ok("((4,8):(1@0,1@1))(2,3)"), "(2, 3)");
    assert_eq!(ok("((4,8):(F2(1),F2(8)))(2,1)"), "F10");
    assert_eq!(ok("(():())()"), "0");
    assert_eq!(err("(5:1)((1,2))").kind(), ErrorKind::Rank);
    assert_eq!(err("((4,8):(1,4))(())").kind(), ErrorKind::Rank);
    assert_eq!(ok("Layout((4, 8), (8, 1))(2, 3)"), "19");
}

#[test]
fn mode_access() {
    assert_eq!(ok("((3,(2,4)):(2,(1,6)))[1]"), "(2, 4):(1, 6)");
    assert_eq!(ok("((3,(2,4)):(2,(1,6)))[1][0]"), "2:1");
    assert_eq!(ok("((3,(2,4)):(2,(1,6)))[-1]"), "(2, 4):(1, 6)");
    assert_eq!(ok("((5,):(2,))[0]"), "5:2");
    assert_eq!(ok("(7:3)[0]"), "7:3");
    assert_eq!(err("(():())[0]").kind(), ErrorKind::Bounds);
    assert_eq!(err("((4,8):(1,4))[2]").kind(), ErrorKind::Bounds);
    assert_eq!(ok("(1, (2, 3))[1][0]"), "2");
    assert_eq!(ok("size[-1]((1,(2,3)))"), "6");
}

#[test]
fn queries() {
    let a = "((6,2),5):((8,2),1)";
    assert_eq!(ok(&format!("size[0]({a})")), "12");
    assert_eq!(ok(&format!("size[0,1]({a})")), "2");
    assert_eq!(ok(&format!("size[0][1]({a})")), "2");
    assert_eq!(ok(&format!("rank[0]({a})")), "2");
    assert_eq!(ok(&format!("depth[0]({a})")), "1");
    assert_eq!(ok(&format!("shape[0,0]({a})")), "6");
    assert_eq!(ok(&format!("stride[0]({a})")), "(8, 2)");
    assert_eq!(ok(&format!("get[0,1]({a})")), "2:2");
    assert_eq!(ok(&format!("size({a}, mode=(0,1))")), "2");
    assert_eq!(ok("rank(())"), "0");
    assert_eq!(ok("rank(7)"), "1");
    assert_eq!(ok("depth(7)"), "0");
    // the empty tuple and the empty layout have depth 1 (python-dropin 2.6)
    assert_eq!(ok("depth(())"), "1");
    assert_eq!(ok("depth(():())"), "1");
    assert_eq!(ok("depth((2,()))"), "2");
    assert_eq!(ok("size((3,(4,5)))"), "60");
    assert_eq!(ok("shape(7)"), "7");
}

#[test]
fn htuple_helpers() {
    assert_eq!(ok("flatten(((1,(2,3)),4))"), "(1, 2, 3, 4)");
    assert_eq!(ok("flatten(7)"), "(7,)");
    assert_eq!(ok("flatten(((), (1,)))"), "(1,)");
    assert_eq!(ok("product(((2,3),4))"), "24");
    assert_eq!(ok("product(())"), "1");
    assert_eq!(ok("prefix_product((3,(2,4)))"), "(1, (3, 6))");
    assert_eq!(ok("prefix_product(((2,3),4),(7,100))"), "((7, 14), 100)");
    assert_eq!(ok("prefix_product((4,8),E(1))"), "(1@1, 4@1)");
    assert!(eval_str("prefix_product((4,8),(1,))").is_err());
    assert_eq!(ok("inner_product((1,(2,3)),(1,(10,100)))"), "321");
    assert_eq!(
        ok("inner_product((2,(1,3)),(E(0),(E(1),2*E(0))))"),
        "(8, 1)"
    );
    assert_eq!(ok("idx2crd(100, (3,(2,4)))"), "(1, (1, 16))");
    assert_eq!(ok("idx2crd((None,3), (3,(2,4)))"), "(0, (1, 1))");
    assert_eq!(ok("crd2idx((1,(2,3)),(3,(2,4)))"), "25");
    assert_eq!(ok("get(((0,0,(0,0,0,42)),), (0,2,3))"), "42");
    assert_eq!(ok("lift(42, (0,2,3))"), "((0, 0, (0, 0, 0, 42)),)");
    assert_eq!(ok("lift(42, (1,), pad=None)"), "(None, 42)");
    assert_eq!(ok("lift[2,1](7, pad=None)"), "(None, None, (None, 7))");
    assert_eq!(ok("select((10,11,12,13), (1,3))"), "(11, 13)");
    assert_eq!(ok("select[1,3]((10,11,12,13))"), "(11, 13)");
    assert_eq!(
        ok("select((2,3,5,7):(1,2,6,30), (1,3))"),
        "(Layout(3, 2), Layout(7, 30))"
    );
    assert_eq!(ok("take((10,11,12,13),(1,3))"), "(11, 12)");
    assert_eq!(ok("take((10,11,12,13),(1,1))"), "()");
    assert_eq!(err("take((10,11,12,13),(3,1))").kind(), ErrorKind::Value);
    assert_eq!(err("take((10,11,12,13),(1,))").kind(), ErrorKind::Value);
    assert_eq!(err("take((10,11,12,13),(1,5))").kind(), ErrorKind::Bounds);
    assert_eq!(ok("wrap(3)"), "(3,)");
    assert_eq!(ok("wrap(())"), "()");
    assert_eq!(ok("unwrap((((42,),),))"), "42");
    assert_eq!(ok("unwrap(((),))"), "()");
    assert_eq!(ok("repeat_like(0, ((1,(2,3)),4))"), "((0, (0, 0)), 0)");
    assert_eq!(
        ok("slice_((None,(1,None,1)),((2,3),(5,7,9)))"),
        "((2, 3), 7)"
    );
    assert_eq!(ok("dice_((None,(1,None,1)),((2,3),(5,7,9)))"), "(5, 9)");
    assert_eq!(ok("slice_((None,),((2,3),(5,7,9)))"), "((2, 3), (5, 7, 9))");
    assert_eq!(ok("dice_(0,((2,3),(5,7,9)))"), "(((2, 3), (5, 7, 9)),)");
    assert_eq!(ok("leaves(((1,(2,3)),4))"), "[1, 2, 3, 4]");
    assert_eq!(ok("basis_repr(5*E(1,2))"), "[(5, (1, 2))]");
    assert_eq!(ok("basis_repr(0)"), "[(0, ())]");
    assert_eq!(ok("is_basis(3*E(0)+5*E(1))"), "False");
    assert_eq!(ok("make_basis_like((10,(20,30)))"), "(1@0, (1@0@1, 1@1@1))");
    assert_eq!(ok("as_tuple(ArithTuple(1,2,(3,4)))"), "(1, 2, (3, 4))");
    assert_eq!(ok("unit(2*E(1,0))"), "1@0@1");
    assert_eq!(ok("proj((1,(2,3)), E(1,0))"), "2");
    assert_eq!(ok("congruent((4,8),(5,7))"), "True");
    assert_eq!(ok("weakly_congruent((3,4),30)"), "False");
}

#[test]
fn construction() {
    assert_eq!(
        ok("make_layout(3:1, (5,1):(7,2), 2:42)"),
        "(3, (5, 1), 2):(1, (7, 2), 42)"
    );
    assert_eq!(ok("make_layout(3:1)"), "(3,):(1,)");
    assert_eq!(ok("make_layout()"), "():()");
    assert_eq!(
        ok("tiler_to_layout((4,(2,3)))"),
        "(4, (2, 3)):(1@0, (1@0@1, 1@1@1))"
    );
    assert_eq!(ok("tiler_to_layout(<4:2, 5:3>)"), "(4, 5):(2@0, 3@1)");
    assert_eq!(err("tiler_to_layout((_,4))").kind(), ErrorKind::Type);
}

#[test]
fn styles() {
    let cases = [
        (
            "(4,8):(1,4)",
            "(4, 8):(1, 4)",
            "Layout((4, 8), (1, 4))",
            "(4,8):(1,4)",
        ),
        ("(3,):(1,)", "(3,):(1,)", "Layout((3,), (1,))", "(3):(1)"),
        ("((3,),)", "((3,),)", "((3,),)", "((3))"),
        (
            "(4,8):(1@0,1@1)",
            "(4, 8):(1@0, 1@1)",
            "Layout((4, 8), (1@0, 1@1))",
            "(4,8):(1@0,1@1)",
        ),
        (
            "(2,3):(F1,F9)",
            "(2, 3):(F1, F9)",
            "Layout((2, 3), (F1, F9))",
            "(2,3):(F1,F9)",
        ),
        ("(None, 3)", "(None, 3)", "(None, 3)", "(_,3)"),
        ("1 == 1", "True", "True", "true"),
        ("3*E(0)+5*E(1)", "(3, 5)", "(3, 5)", "(3,5)"),
        (
            "(4:1, (8, 2:1))",
            "(Layout(4, 1), (8, Layout(2, 1)))",
            "(Layout(4, 1), (8, Layout(2, 1)))",
            "(4:1,(8,2:1))",
        ),
        (
            "basis_repr(5*E(1,2))",
            "[(5, (1, 2))]",
            "[(5, (1, 2))]",
            "[(5,(1,2))]",
        ),
    ];
    for (src, s, r, c) in cases {
        assert_eq!(eval_styled(src, Style::Str).unwrap(), s, "{src} str");
        assert_eq!(eval_styled(src, Style::Repr).unwrap(), r, "{src} repr");
        assert_eq!(eval_styled(src, Style::Cpp).unwrap(), c, "{src} cpp");
    }
}

#[test]
fn parse_errors_report_the_column() {
    let cases = [
        ("(4,8):(8,1", "column 11"),
        ("(4,8)):(8,1)", "column 6"),
        ("1 + ", "column 5"),
        ("size(1,,2)", "column 8"),
        ("3 $ 4", "column 3"),
        ("f(a=1, 2)", "column 8"),
        ("<4, 8", "column 6"),
    ];
    for (src, col) in cases {
        let e = err(src);
        assert_eq!(e.kind(), ErrorKind::Parse, "{src}: {e}");
        assert!(e.message().contains(col), "{src}: {e} should name {col}");
    }
}

#[test]
fn nesting_is_bounded() {
    let deep = format!("{}1{}", "(".repeat(5000), ",)".repeat(5000));
    assert_eq!(err(&deep).kind(), ErrorKind::Parse);
    let neg = format!("{}1", "-".repeat(100_000));
    assert_eq!(err(&neg).kind(), ErrorKind::Parse);
    let chain = format!("1{}", "+1".repeat(100_000));
    assert_eq!(err(&chain).kind(), ErrorKind::Parse);
    let ats = format!("1{}", "@0".repeat(100_000));
    assert_eq!(err(&ats).kind(), ErrorKind::Parse);
    let long = "1".repeat(2 << 20);
    assert_eq!(err(&long).kind(), ErrorKind::Parse);
    // the limits themselves are usable (in a test thread's small stack)
    let t = ok(&format!("{}1{}", "(".repeat(99), ",)".repeat(99)));
    assert!(t.starts_with("((((") && t.ends_with(",),)"));
    assert_eq!(
        err(&format!("{}1{}", "(".repeat(101), ",)".repeat(101))).kind(),
        ErrorKind::Parse
    );
    assert_eq!(ok(&format!("1{}", "+1".repeat(254))), "255");
    assert_eq!(
        ok(&format!("size({}4{})", "(".repeat(60), ",)".repeat(60))),
        "4"
    );
    let calls = format!("{}(4,8){}", "flatten(".repeat(98), ")".repeat(98));
    assert_eq!(ok(&calls), "(4, 8)");
}

#[test]
fn variables() {
    let mut s = Session::new();
    let mut run = |line: &str| -> Result<String, rcute::Error> {
        s.eval_line(line)
            .expect("not a blank line")
            .map(|v| v.to_string())
    };
    assert_eq!(run("A = (4,8):(8,1)").unwrap(), "(4, 8):(8, 1)");
    assert_eq!(run("A(2,3)").unwrap(), "19");
    assert_eq!(run("A[1]").unwrap(), "8:1");
    assert_eq!(run("B = size(A) + 1").unwrap(), "33");
    assert_eq!(run("B").unwrap(), "33");
    assert_eq!(run("A = 5").unwrap(), "5");
    assert_eq!(run("A").unwrap(), "5");
    assert_eq!(run("size = 3").unwrap_err().kind(), ErrorKind::Value);
    assert_eq!(run("None = 3").unwrap_err().kind(), ErrorKind::Value);
    assert_eq!(run("Z").unwrap_err().kind(), ErrorKind::Value);
    assert_eq!(run("A == 5").unwrap(), "True");
    assert!(s.eval_line("").is_none());
    assert!(s.eval_line("   # comment").is_none());
}

#[test]
fn misuse_is_an_error_not_a_panic() {
    for src in [
        "size",
        "size[0]",
        "3(4)",
        "(4:1)[1]",
        "E(0)(1)",
        "Layout()",
        "Layout(1, 2, 3)",
        "size(1, 2)",
        "complement[0](4:1)",
        "composition(4:1)",
        "F2(E(0))",
        "size(None)",
        "1 @ (2,)",
        "(1,2) + 3",
        "None + 1",
        "get((1,2), (5,))",
        "get(3, (0,))",
        "lift(1, (-1,))",
        "lift(1, (100000000,))",
        "E(100000000)",
        "foo(3)",
    ] {
        assert!(eval_str(src).is_err(), "{src} should be an error");
    }
}

#[test]
fn mode_indexed_algebra_lifts_the_argument() {
    // docs/language.md, "Mode-indexed calls"
    assert_eq!(ok("coalesce[1]((3,(2,6)):(1,(3,6)))"), "(3, 12):(1, 3)");
    assert_eq!(
        ok("coalesce_z[1]((3,(2,6,1)):(1,(3,6,5)))"),
        "(3, (12, 1)):(1, (3, 5))"
    );
    assert_eq!(
        ok("coalesce[0](((2,3),(4,5)):((1,2),(6,30)))"),
        "(6, (4, 5)):(1, (6, 30))"
    );
    assert_eq!(
        ok("coalesce(((2,3),(4,5)):((1,2),(6,30)), mode=0)"),
        "(6, (4, 5)):(1, (6, 30))"
    );
    assert_eq!(
        ok("coalesce((2,(1,6)):(1,(6,2)), profile=(1,1))"),
        "(2, 6):(1, 2)"
    );
    assert_eq!(
        ok("coalesce((2,(1,6)):(1,(6,2)), None)"),
        "(2, (1, 6)):(1, (6, 2))"
    );
    assert_eq!(ok("filter[1]((4,(2,1,3)):(1,(0,5,4)))"), "(4, 3):(1, 4)");
    // operations without a mode-indexed form
    for src in [
        "complement[0](4:1)",
        "right_inverse[0]((4,8):(1,4))",
        "recast[0](8:1, 2)",
    ] {
        assert_eq!(err(src).kind(), ErrorKind::Type, "{src}");
    }
    // an index past the rank is a rank error of the lifted tiler
    assert_eq!(err("coalesce[2]((4,8):(1,4))").kind(), ErrorKind::Rank);
}

#[test]
fn argument_promotion_and_none() {
    // docs/language.md, "Tilers"
    assert_eq!(ok("coalesce((4,3))"), "(4, 3):(1@0, 1@1)");
    assert_eq!(ok("complement(12)"), "1:12");
    assert_eq!(ok("coalesce(None)"), "None");
    assert_eq!(ok("complement(None)"), "None");
    assert_eq!(ok("right_inverse(None)"), "None");
    assert_eq!(ok("left_inverse(None)"), "None");
    assert_eq!(ok("nullspace(None)"), "None");
    assert_eq!(ok("composition(None, 4:1)"), "4:1");
    assert_eq!(err("filter(None)").kind(), ErrorKind::Type);
    assert_eq!(err("layout_add(4, 4:1)").kind(), ErrorKind::Type);
    assert_eq!(err("recast((4,8), 2)").kind(), ErrorKind::Type);
    // keyword and positional extend
    assert_eq!(ok("complement(4:2, extend=20)"), "(2, 3):(1, 8)");
    assert_eq!(ok("complement(4:2, 24)"), "(2, 3):(1, 8)");
    assert_eq!(
        ok("complement(Layout(4, 2), shape(Layout(20, 1)))"),
        "(2, 3):(1, 8)"
    );
    assert_eq!(
        err("complement(4:2, 24, extend=24)").kind(),
        ErrorKind::Type
    );
    assert_eq!(err("complement(4:2, width=24)").kind(), ErrorKind::Type);
    // shapes of layouts where shapes are expected
    assert_eq!(
        ok("greatest_common_domain((5,3,4),(10,6))"),
        "(5, 2):(1, 30)"
    );
    assert_eq!(ok("compatible((6,3):(3,1), (6,3))"), "True");
}

#[test]
fn slicing() {
    let a = "(((3,2),((2,3),2)):((4,1),((2,15),100)))";
    assert_eq!(
        ok(&format!("{a}((1,_),((_,0),_))")),
        "(2, 2, 2):(1, 2, 100)"
    );
    assert_eq!(ok(&format!("{a}(2,_)")), "(((2, 3), 2),):(((2, 15), 100),)");
    assert_eq!(ok("((4,8):(1,4))(_,3)"), "(4,):(1,)");
    assert_eq!(ok("((4,8):(1,4))(_)"), "(4, 8):(1, 4)");
    assert_eq!(
        ok(&format!("slice_and_offset({a}, ((1,_),((_,0),_)))")),
        "(Layout((2, 2, 2), (1, 2, 100)), 4)"
    );
    assert_eq!(
        eval_styled(
            &format!("slice_and_offset({a}, ((1,_),((_,0),_)))"),
            Style::Cpp
        )
        .unwrap(),
        "((2,2,2):(1,2,100),4)"
    );
}

#[test]
fn swizzles() {
    assert_eq!(ok("Swizzle(3,4,3)"), "SW_3_4_3");
    assert_eq!(
        eval_styled("Swizzle(3,4,3)", Style::Cpp).unwrap(),
        "Sw<3,4,3>"
    );
    assert_eq!(
        eval_styled("Swizzle(3,4,3)", Style::Repr).unwrap(),
        "Swizzle(3,4,3)"
    );
    assert_eq!(ok("(Swizzle(3,4,3),)"), "(Swizzle(3,4,3),)");
    assert_eq!(ok("Swizzle(3,4,3)(1000)"), "920");
    assert_eq!(ok("Swizzle(2,0,2)(4)"), "5");
    assert_eq!(err("Swizzle(3,0,1)").kind(), ErrorKind::Value);
    assert_eq!(err("Swizzle(3,4,3)(E(0))").kind(), ErrorKind::Type);
    let sw = "composition(Swizzle(3,4,3), (8,8):(8,1))";
    assert_eq!(ok(sw), "SW_3_4_3 o (8, 8):(8, 1)");
    assert_eq!(
        eval_styled(sw, Style::Cpp).unwrap(),
        "Sw<3,4,3> o (8,8):(8,1)"
    );
    assert_eq!(ok(&format!("{sw}(1,5)")), "13");
    assert_eq!(ok(&format!("size({sw})")), "64");
    assert_eq!(ok(&format!("shape({sw})")), "(8, 8)");
    assert_eq!(ok(&format!("{sw}[1]")), "SW_3_4_3 o 8:1");
    let offs: Vec<String> = (0..8)
        .map(|r| {
            ok(&format!(
                "composition(Swizzle(3,4,3), (8,64):(64,1))({r},0)"
            ))
        })
        .collect();
    assert_eq!(offs.join(" "), "0 64 144 208 288 352 432 496");
    assert_eq!(
        err("composition(Swizzle(3,4,3), 8:1@0)").kind(),
        ErrorKind::Type
    );
    // C++ composition(Swizzle<3,4,3>{}, Layout<Shape<_8,_8>,Stride<_8,_1>>{})(_,1)
    // is the plain (_8):(_8) (offsets below 128 are not swizzled)
    assert_eq!(ok(&format!("{sw}(_,1)")), "(8,):(8,)");
    assert_eq!(err(&format!("{sw}(_,1,2)")).kind(), ErrorKind::Rank);
    let mut s = Session::new();
    s.eval_line(&format!("S = {sw}")).unwrap().unwrap();
    assert_eq!(s.eval_line("S(1,5)").unwrap().unwrap().to_string(), "13");
}

#[test]
fn bank_conflicts() {
    // thread t reads element t*32 of a row-major 32x32 tile: one row, no conflict
    assert_eq!(ok("bank_conflicts(LayoutRight((32,32)), 32:32, 4)"), "1");
    // thread t reads element t: one column, 32-way conflict
    assert_eq!(ok("bank_conflicts(LayoutRight((32,32)), 32:1, 4)"), "32");
    assert_eq!(
        ok("bank_conflicts(composition(Swizzle(5,0,5), LayoutRight((32,32))), 32:1, 4)"),
        "1"
    );
    assert_eq!(err("bank_conflicts(3, 32:1, 4)").kind(), ErrorKind::Type);
}

#[test]
fn equality_of_values() {
    assert_eq!(ok("(1, (2, 3)) == (1, (2, 3))"), "True");
    assert_eq!(ok("(1, (2, 3)) == (1, 2, 3)"), "False");
    assert_eq!(ok("(3,) == 3"), "False");
    assert_eq!(ok("None == _"), "True");
    assert_eq!(ok("Swizzle(3,4,3) == Swizzle(3,4,3)"), "True");
    assert_eq!(ok("(4:1) == 4"), "False");
    assert_eq!(ok("1/2 == 2/4"), "True");
    assert_eq!(ok("ArithTuple(1,(2,0)) == (1,2)"), "False");
    assert_eq!(ok("ArithTuple(0,0) == 0"), "True");
}

#[test]
fn tensors() {
    // docs/tensors.md
    assert_eq!(ok("identity_tensor((3,4))"), "{0} o (3, 4):(1@0, 1@1)");
    assert_eq!(ok("make_identity_tensor((3,4))"), "{0} o (3, 4):(1@0, 1@1)");
    assert_eq!(ok("identity_tensor((3,4))(1,2)"), "(1, 2)");
    assert_eq!(ok("identity_tensor((3,4))(_,2)"), "{2@1} o (3,):(1@0,)");
    assert_eq!(ok("identity_tensor((2,(3,4)))(7)"), "(1, 1@1)");
    assert_eq!(ok("identity_tensor(5)(3)"), "3");
    assert_eq!(ok("identity_tensor((3,4))[1]"), "{0} o 4:1@1");
    assert_eq!(ok("get[1,0](identity_tensor((2,(3,4))))"), "{0} o 3:1@0@1");
    assert_eq!(ok("size(identity_tensor((3,4)))"), "12");
    assert_eq!(ok("rank(identity_tensor((3,4)))"), "2");
    assert_eq!(ok("shape(identity_tensor((3,(2,4))))"), "(3, (2, 4))");
    assert_eq!(
        ok("zipped_divide(identity_tensor((8,24)), (4,8))"),
        "{0} o ((4, 8), (2, 3)):((1@0, 1@1), (4@0, 8@1))"
    );
    assert_eq!(
        ok("composition(identity_tensor(24), (4,6):(1,4))"),
        "{0} o (4, 6):(1, 4)"
    );
    assert_eq!(ok("coalesce(identity_tensor((2,3))(_,1))"), "{1@1} o 2:1@0");
    assert_eq!(ok("(identity_tensor(4),)"), "(Tensor({0}, 4:1),)");
    assert_eq!(
        eval_styled("identity_tensor((3,4))", Style::Repr).unwrap(),
        "Tensor({0}, (3, 4):(1@0, 1@1))"
    );
    assert_eq!(
        eval_styled("identity_tensor((3,4))", Style::Cpp).unwrap(),
        "{0} o (3,4):(1@0,1@1)"
    );
    assert_eq!(ok("identity_tensor(4) == identity_tensor(4)"), "True");
    assert_eq!(ok("identity_tensor(4) == (4:1)"), "False");
    // layout-only operations reject tensors
    assert_eq!(
        err("complement(identity_tensor(4))").kind(),
        ErrorKind::Type
    );
    // make_tensor: a zero-filled memory tensor (docs/tensors.md); no integer
    // codomain is a type error
    assert_eq!(ok("make_tensor(4:1)"), "Array(4 x i64) o 4:1");
    assert_eq!(err("make_tensor((4,8):(1@0,1@1))").kind(), ErrorKind::Type);
}

#[test]
fn values_built_through_variables_stay_bounded() {
    let mut s = Session::new();
    let last = |s: &mut Session, line: &str| s.eval_line(line).expect("statement");
    last(&mut s, "A = (1, 2)").unwrap();
    let mut failed = false;
    for _ in 0..40 {
        if let Err(e) = last(&mut s, "A = (A, A)") {
            assert_eq!(e.kind(), ErrorKind::Value);
            failed = true;
            break;
        }
    }
    assert!(failed, "doubling a tuple 40 times must hit the size bound");

    last(&mut s, "B = 1").unwrap();
    let depth_error = (0..300).any(|_| last(&mut s, "B = (B,)").is_err());
    assert!(depth_error);
    // what was bound still prints
    assert!(last(&mut s, "B").unwrap().to_string().starts_with("(((("));

    last(&mut s, "L = 2:1").unwrap();
    let layout_error = (0..80).any(|_| last(&mut s, "L = make_layout(L, L)").is_err());
    assert!(layout_error);

    last(&mut s, "x = 1@0").unwrap();
    let basis_error = (0..300).any(|_| last(&mut s, "x = x@0").is_err());
    assert!(basis_error);
    assert!(!last(&mut s, "x").unwrap().to_string().is_empty());

    assert_eq!(err("1@100000000").kind(), ErrorKind::Value);
    assert_eq!(err("lift(1, (40000, 40000))").kind(), ErrorKind::Value);
    let big = format!("T = ({})", "1,".repeat(30000));
    last(&mut s, &big).unwrap();
    assert_eq!(
        last(&mut s, "repeat_like(T, T)").unwrap_err().kind(),
        ErrorKind::Value
    );
    assert_eq!(
        last(&mut s, "size(repeat_like(1, T))").unwrap().to_string(),
        "1"
    );
}
