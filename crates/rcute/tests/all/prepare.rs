//! Prepared statements (`notation::prepare`) and the operations' typed
//! forms (`rcute::ops::Direct`, called by the dispatch on operands read in
//! place): evaluating a prepared statement gives exactly the value or the
//! error of evaluating the parsed statement (`Session::exec`) through the
//! general forms alone (typed forms off), on every conformance vector and
//! on random calls of the operations with a typed form, with literals,
//! variables, keyword arguments and bad arguments; and a prepared
//! statement can be evaluated again and again, also into a reused slot
//! (`Session::eval_prepared_into`).

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use rcute::notation::parser::{parse_statement, Statement};
use rcute::notation::prepare::Prepared;
use rcute::notation::{format_value, set_direct_calls, Session, Style, Value};

/// The outcome of a statement as the CLI would print it, in two styles
/// (buffer addresses of memory tensors, which differ from run to run, are
/// blanked).
fn outcome(r: rcute::Result<rcute::notation::Value>) -> String {
    let text = match r {
        Ok(v) => format!(
            "{} | {}",
            format_value(&v, Style::Str),
            format_value(&v, Style::Repr)
        ),
        Err(e) => format!("error: {} | {:?}", e, e.kind()),
    };
    blank_addresses(&text)
}

fn blank_addresses(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i]);
        out.push_str("0x?");
        rest = rest[i + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

/// Runs `lines` through two sessions, one executing the parsed statements
/// and one the prepared statements, and returns the lines whose outcomes
/// differ (each with both outcomes).
fn differences(lines: &[String]) -> Vec<String> {
    let mut parsed = Session::new();
    let mut prepared = Session::new();
    let mut out = Vec::new();
    let mut slot = Value::None;
    for line in lines {
        let stmt: Statement = match parse_statement(line) {
            Ok(Some(s)) => s,
            _ => continue,
        };
        let p = Prepared::new(&stmt);
        if let Statement::Assume(..) = stmt {
            // an assumption changes the sessions: run it in both, they agree
            let a = outcome(parsed.exec(&stmt));
            let b = outcome(prepared.run(&p));
            assert_eq!(a, b, "{line}");
            assert!(prepared.eval_prepared(&p).is_err(), "{line}");
            continue;
        }
        // the parsed statement through the general dispatch only
        set_direct_calls(false);
        let a = outcome(parsed.exec(&stmt));
        let a_again = outcome(parsed.eval(match &stmt {
            Statement::Expr(e) | Statement::Assign(_, e) => e,
            Statement::Assume(..) => unreachable!(),
        }));
        set_direct_calls(true);
        let b = outcome(prepared.run(&p));
        // a second evaluation of the same prepared statement agrees too
        let c = outcome(prepared.eval_prepared(&p));
        // and so do evaluations into a slot holding the previous line's
        // value, then this line's (the storage reused by eval_prepared_into)
        let mut into = String::new();
        for _ in 0..2 {
            let r = prepared.eval_prepared_into(&p, &mut slot);
            if r.is_err() && !matches!(slot, Value::None) {
                into.push_str("slot not None after an error; ");
            }
            into.push_str(&outcome(r.map(|()| slot.clone())));
            into.push_str(" / ");
        }
        if a != b || a_again != c || into != format!("{c} / {c} / ") {
            out.push(format!(
                "{line}\n  parsed:   {a}\n  prepared: {b}\n  again:    {a_again} / {c}\n  into:     {into}"
            ));
        }
    }
    out
}

fn vector_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            vector_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "jsonl") {
            out.push(p);
        }
    }
}

#[test]
fn prepared_statements_agree_on_every_conformance_vector() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance/vectors");
    let mut files = Vec::new();
    vector_files(&root, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no vectors under {}", root.display());
    let mut exprs = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for l in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            exprs.push(v["expr"].as_str().unwrap().to_string());
        }
    }
    assert!(exprs.len() > 9000, "only {} vectors", exprs.len());
    let diff = differences(&exprs);
    assert!(
        diff.is_empty(),
        "{} differences:\n{}",
        diff.len(),
        diff[..diff.len().min(20)].join("\n")
    );
}

#[test]
fn prepared_statements_agree_with_variables_and_keywords() {
    let script: Vec<String> = [
        "A = (4,8):(8,1)",
        "B = 4:2",
        "T = (2, 4)",
        "S = ((4,8),(16,4))",
        "n = 3",
        "coalesce(A)",
        "coalesce(A, (1,1))",
        "coalesce(A, profile=(1,1))",
        "coalesce(A, (1,1), profile=(1,1))",
        "composition(A, B)",
        "composition(A, T)",
        "composition(A, Z)",
        "composition(None, B)",
        "logical_divide(A, T)",
        "logical_divide(None, T)",
        "zipped_divide(A, B)",
        "complement(B)",
        "complement(B, 24)",
        "complement(B, extend=24)",
        "complement(B, extend=None)",
        "complement(B, 24, extend=24)",
        "complement(B, extend=(3,))",
        "complement(B, 5)",
        "complement(None)",
        "complement(A, extend=A)",
        "idx2crd(1000, S)",
        "idx2crd(n, S)",
        "idx2crd(A, S)",
        "idx2crd(3, A)",
        "crd2idx((3,(1,2)), (4,(2,8)))",
        "crd2idx((3,(1,2)), A)",
        "greatest_common_domain(A, (8,4))",
        "recast(A, 2)",
        "recast(A, 1/2)",
        "recast(A, 3)",
        "upcast(A, 2)",
        "upcast(A, B)",
        "make_ordered_layout((4,8,2), (2,0,1))",
        "make_ordered_layout(A, (1,0))",
        "make_layout_like(A)",
        "layout_add(A, A)",
        "layout_add(A, 3)",
        "max_common_vector(A, A)",
        "right_inverse(A)",
        "right_inverse(A, A)",
        "right_inverse()",
        "left_inverse(None)",
        "nullspace((2,4,6):(1,2,0))",
        "blocked_product(A, B)",
        "raked_product(B, A)",
        "filter_zeros((2,3):(0,1))",
        "filter((2,3):(0,1), (1,1))",
        "coalesce((2,3):(1))",
        "coalesce(99999999999999999999:1)",
        "A = composition(A, B)",
        "A",
        "size = 3",
        "coalesce(make_tensor(4:2))",
        // arguments read in place are copied where a general form takes
        // them (the variable is unchanged), computed ones are moved; tensors
        // given by variable are replaced by their layouts for the call only
        "C = (2,3):(1,2)",
        "make_layout(C, C)",
        "append(C, C)",
        "wrap(C)",
        "flatten(make_layout(C, (4,2):(6,24)))",
        "composition(coalesce(C), make_layout(2:1, 3:2))",
        "size(make_layout(C, C), mode=1)",
        "C",
        "X = make_tensor(C)",
        "coalesce(X)",
        "logical_divide(X, 2)",
        "composition(X, 2:3)",
        "size(X)",
        "X",
        "logical_divide(C, 3)",
        "zipped_divide(C, (2, 3))",
        "C",
        "composition(Swizzle(1,2,3), (8,8):(8,1))",
        "((4,(4,2)):(4,(1,16)))(17)",
        "((4,(4,2)):(4,(1,16)))(99)",
        "((4,(4,2)):(4,(1,16)))(3, (1, 1))",
        "(4:2)(_)",
        // basis literals with large indices are evaluated when reached
        "coalesce(A, 2, 1@1048576, 1@1048576)",
        "composition((4,5):(5,1), 12:1@70)",
        "composition((4,5):(5,1), 12:1@64)",
        "E(70)",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let diff = differences(&script);
    assert!(diff.is_empty(), "{}", diff.join("\n"));
}

/// Argument texts for random calls: good and bad literals of every kind,
/// defined and undefined variables.
const ARGS: &[&str] = &[
    "4:2",
    "(4,8):(8,1)",
    "(2,(1,6)):(1,(6,2))",
    "((4,8),(2,2)):((32,1),(16,8))",
    "(6,2):(1,7)",
    "(3,2):(2,3)",
    "12:1@1",
    "(4,5):(5,1@1)",
    "(8,8):(F1,F8)",
    "2",
    "24",
    "0",
    "-3",
    "(2,4)",
    "(1,1)",
    "(4:1, 8:2)",
    "((4,8),(16,4))",
    "(3,(1,2))",
    "None",
    "_",
    "True",
    "1/2",
    "(2,0,1)",
    "()",
    "(4,):(1,)",
    "A",
    "B",
    "T",
    "Undefined",
    "(A, B)",
    "2 * 3",
    "99999999999999999999",
    "(1<<62):1",
    "4611686018427387904:2",
];

const OPS: &[&str] = &[
    "coalesce",
    "coalesce_z",
    "filter",
    "filter_zeros",
    "composition",
    "complement",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "right_inverse",
    "left_inverse",
    "nullspace",
    "make_layout_like",
    "layout_add",
    "max_common_layout",
    "max_common_vector",
    "greatest_common_domain",
    "recast",
    "upcast",
    "downcast",
    "make_ordered_layout",
    "idx2crd",
    "crd2idx",
    "size",
    "cosize",
];

const KWARGS: &[&str] = &["extend", "profile", "mode", "B", "A"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn random_calls_agree(
        op in 0..OPS.len(),
        args in prop::collection::vec(0..ARGS.len(), 0..4),
        kw in prop::option::of((0..KWARGS.len(), 0..ARGS.len())),
    ) {
        let mut parts: Vec<String> = args.iter().map(|&i| ARGS[i].to_string()).collect();
        if let Some((k, v)) = kw {
            parts.push(format!("{}={}", KWARGS[k], ARGS[v]));
        }
        let call = format!("{}({})", OPS[op], parts.join(", "));
        let lines: Vec<String> = vec![
            "A = (4,8):(8,1)".into(),
            "B = 4:2".into(),
            "T = (2, 4)".into(),
            call,
        ];
        let diff = differences(&lines);
        prop_assert!(diff.is_empty(), "{}", diff.join("\n"));
    }
}

/// `notation::call` (the Python module's path) answers the same with and
/// without the typed forms, also for values beyond the evaluator's size
/// limits, which neither path checks there (the evaluators do, after the
/// call): a stride nested 200 levels deep.
#[test]
fn call_agrees_with_the_general_dispatch_beyond_the_size_limits() {
    use rcute::notation::ops::call;
    use rcute::{HTuple, Layout, Scalar};
    let l = Layout::new(HTuple::leaf(2), HTuple::leaf(Scalar::basis(1, &[0; 200]))).unwrap();
    let cases: Vec<(&str, Vec<Value>)> = vec![
        ("coalesce", vec![Value::Layout(l.clone())]),
        ("filter_zeros", vec![Value::Layout(l.clone())]),
        ("composition", vec![Value::Layout(l.clone()), Value::Int(2)]),
    ];
    for (name, args) in cases {
        set_direct_calls(false);
        let general = outcome(call(name, &[], args.clone(), vec![]));
        set_direct_calls(true);
        let direct = outcome(call(name, &[], args, vec![]));
        assert!(!general.starts_with("error"), "{name}: {general}");
        assert_eq!(direct, general, "{name}");
    }
}
