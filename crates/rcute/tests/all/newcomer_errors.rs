//! Errors a newcomer meets (`docs/language.md`, "Errors"): a "did you mean"
//! for misspelt names and keywords, and constructions named as the user
//! wrote them.

use rcute::notation::{self, Session};
use rcute::{ErrorKind, HTuple, Layout, Scalar};

fn err(src: &str) -> (ErrorKind, String) {
    match notation::eval_str(src) {
        Ok(v) => panic!("{src} gave {v}, expected an error"),
        Err(e) => (e.kind(), e.message().to_string()),
    }
}

#[test]
fn unknown_names_suggest_the_closest_operation() {
    let cases = [
        (
            "compositon((4,8), 2)",
            "unknown name 'compositon' (did you mean 'composition'?)",
        ),
        (
            "colaesce(8:1)",
            "unknown name 'colaesce' (did you mean 'coalesce'?)",
        ),
        (
            "size(Layot((4,8)))",
            "unknown name 'Layot' (did you mean 'Layout'?)",
        ),
        (
            "layout((4,8))",
            "unknown name 'layout' (did you mean 'Layout'?)",
        ),
        ("true", "unknown name 'true' (did you mean 'True'?)"),
        (
            "zipped_divde(8:1, 2)",
            "unknown name 'zipped_divde' (did you mean 'zipped_divide'?)",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(err(src), (ErrorKind::Value, want.to_string()), "{src}");
    }
    // nothing close (or too short to guess): the plain message
    for (src, want) in [
        ("foo(1)", "unknown name 'foo'"),
        ("B", "unknown name 'B'"),
        ("frobnicate(4,8)", "unknown name 'frobnicate'"),
    ] {
        assert_eq!(err(src), (ErrorKind::Value, want.to_string()), "{src}");
    }
}

#[test]
fn unknown_names_suggest_bound_variables() {
    let mut s = Session::new();
    assert!(s.eval_line("tile = (4,8):(1,4)").is_some_and(|r| r.is_ok()));
    let e = s.eval_line("size(tlie)").and_then(|r| r.err());
    let e = e.map(|e| e.message().to_string());
    assert_eq!(
        e.as_deref(),
        Some("unknown name 'tlie' (did you mean 'tile'?)")
    );
}

#[test]
fn unknown_keywords_suggest_the_parameter() {
    assert_eq!(
        err("complement(4:1, extnd=8)"),
        (
            ErrorKind::Type,
            "complement: unexpected keyword argument 'extnd' (did you mean 'extend'?)".to_string()
        )
    );
    assert_eq!(
        err("complement(4:1, foo=8)").1,
        "complement: unexpected keyword argument 'foo'"
    );
}

#[test]
fn layout_construction_is_named_as_written() {
    // not `prefix_product`, which the user never called
    assert_eq!(
        err("Layout((4,8),(1,4,2))"),
        (
            ErrorKind::Rank,
            "Layout((4, 8), (1, 4, 2)): shape (4, 8) has 2 modes, stride (1, 4, 2) has 3"
                .to_string()
        )
    );
    assert_eq!(
        err("Layout((4,8),((1,2),4))"),
        (
            ErrorKind::Congruence,
            "Layout((4, 8), ((1, 2), 4)): stride tuple (1, 2) where the shape has the leaf 4"
                .to_string()
        )
    );
    let s = HTuple::flat([4i64, 8]);
    let d = HTuple::flat([Scalar::Int(1), Scalar::Int(4), Scalar::Int(2)]);
    let e = Layout::with_stride(s, d.as_ref()).map(|l| l.to_string());
    assert!(
        matches!(&e, Err(e) if e.message().starts_with("Layout((4, 8), (1, 4, 2)): ")),
        "{e:?}"
    );
    // the operation prefix_product keeps its own name
    assert!(err("prefix_product((4,8),(1,4,2))")
        .1
        .starts_with("prefix_product: "));
}

#[test]
fn a_stride_tuple_at_a_shape_leaf_is_one_coordinate_value() {
    // the literal rule of docs/language.md ("Layouts"): printed layouts with
    // multi-term coordinate strides read back, so the literal is accepted
    assert_eq!(
        notation::eval_str("(4,8):(1,(2,3))").ok().as_deref(),
        Some("(4, 8):(1, (2, 3))")
    );
    assert_eq!(
        notation::eval_str("((4,8):(1,(2,3))) == ((4,8):(1,2*E(0)+3*E(1)))")
            .ok()
            .as_deref(),
        Some("True")
    );
    // mixing it with an integer stride fails where two nonzero terms meet
    assert_eq!(err("((4,8):(1,(2,3)))(5)").0, ErrorKind::Type);
}
