//! Divan suite over the benchmark cases of `shared/bench/cases.cute`: each
//! statement is parsed and prepared once (`notation::prepare::Prepared`)
//! and the prepared statement evaluated per iteration into one value slot
//! (the same measurement as `rcute bench -f`); `eval_returning` times the
//! value-returning `Session::eval_prepared` for comparison.
//!
//! The cases file is looked up as `$RCUTE_BENCH_CASES`, else as
//! `shared/bench/cases.cute` beside any ancestor of this crate (the
//! project's `../shared`), else the vendored copy `benches/cases.cute`.
//!
//! `typed` times the algebra cases through the typed API (`Layout`'s
//! methods) with operands built once.
//!
//! Run: `cargo bench -p rcute --bench cases` (add `-- composition` to
//! filter by name).

use std::path::PathBuf;

use rcute::notation::parser::parse_statement;
use rcute::notation::prepare::Prepared;
use rcute::notation::{Session, Value};

fn main() {
    divan::main();
}

fn cases_text() -> String {
    if let Ok(p) = std::env::var("RCUTE_BENCH_CASES") {
        if let Ok(s) = std::fs::read_to_string(&p) {
            return s;
        }
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for dir in here.ancestors() {
        let p = dir.join("shared").join("bench").join("cases.cute");
        if let Ok(s) = std::fs::read_to_string(&p) {
            return s;
        }
    }
    include_str!("cases.cute").to_string()
}

/// The statements of the cases file (blank and comment lines skipped).
fn cases() -> Vec<&'static str> {
    let text: &'static str = Box::leak(cases_text().into_boxed_str());
    text.lines()
        .filter(|l| matches!(parse_statement(l), Ok(Some(_))))
        .map(str::trim)
        .collect()
}

#[divan::bench(args = cases())]
fn eval(bencher: divan::Bencher, case: &str) {
    let Ok(Some(stmt)) = parse_statement(case) else {
        return;
    };
    let p = Prepared::new(&stmt);
    let session = Session::new();
    // the value written into one slot per case, as `rcute bench` does
    // (`Session::eval_prepared_into`: the result built in place)
    let mut slot = Value::None;
    bencher.bench_local(|| {
        let r = session.eval_prepared_into(divan::black_box(&p), &mut slot);
        divan::black_box(&slot);
        r
    });
}

/// The same cases through [`Session::eval_prepared`], which returns a
/// fresh value per evaluation (moved out, dropped each time).
#[divan::bench(args = cases())]
fn eval_returning(bencher: divan::Bencher, case: &str) {
    let Ok(Some(stmt)) = parse_statement(case) else {
        return;
    };
    let p = Prepared::new(&stmt);
    let session = Session::new();
    bencher.bench_local(|| session.eval_prepared(divan::black_box(&p)));
}

/// The algebra cases of the suite through the typed API (`Layout`'s
/// methods, borrowed tilers), operands built once as `rcute bench`
/// prepares its literals: what a Rust caller pays per operation.
#[divan::bench(args = TYPED)]
fn typed(bencher: divan::Bencher, case: &str) {
    use rcute::Layout;
    let l = |s: &str| -> Layout { s.parse().expect("a layout literal of the suite") };
    type Op = Box<dyn Fn() -> rcute::Result<Layout>>;
    let op: Op = match case {
        "coalesce((2,(1,6)):(1,(6,2)))" => {
            let a = l("(2,(1,6)):(1,(6,2))");
            Box::new(move || a.coalesce())
        }
        "composition((6,2):(8,2), (4,3):(3,1))" => {
            let (a, b) = (l("(6,2):(8,2)"), l("(4,3):(3,1)"));
            Box::new(move || a.compose(&b))
        }
        "composition((10,2):(16,4), (5,4):(1,5))" => {
            let (a, b) = (l("(10,2):(16,4)"), l("(5,4):(1,5)"));
            Box::new(move || a.compose(&b))
        }
        "composition((16,8):(8,1), ((4,8),(2,2)):((32,1),(16,8)))" => {
            let (a, b) = (l("(16,8):(8,1)"), l("((4,8),(2,2)):((32,1),(16,8))"));
            Box::new(move || a.compose(&b))
        }
        "complement((2,2):(1,6))" => {
            let a = l("(2,2):(1,6)");
            Box::new(move || a.complement())
        }
        "complement(4:2, extend=24)" => {
            let a = l("4:2");
            Box::new(move || a.complement_to(24))
        }
        "logical_divide(24:1, 4:2)" => {
            let (a, b) = (l("24:1"), l("4:2"));
            Box::new(move || a.logical_divide(&b))
        }
        "logical_divide((6,6):(1,12), (6,3):(3,1))" => {
            let (a, b) = (l("(6,6):(1,12)"), l("(6,3):(3,1)"));
            Box::new(move || a.logical_divide(&b))
        }
        "zipped_divide((4096,4096):(1,4096), (128,64))" => {
            let a = l("(4096,4096):(1,4096)");
            Box::new(move || a.zipped_divide((128, 64)))
        }
        "logical_product((2,2):(4,1), 6:1)" => {
            let (a, b) = (l("(2,2):(4,1)"), l("6:1"));
            Box::new(move || a.logical_product(&b))
        }
        "blocked_product((3,4):(4,1), (2,5):(1,2))" => {
            let (a, b) = (l("(3,4):(4,1)"), l("(2,5):(1,2)"));
            Box::new(move || a.blocked_product(&b))
        }
        "raked_product((3,4):(4,1), (2,5):(1,2))" => {
            let (a, b) = (l("(3,4):(4,1)"), l("(2,5):(1,2)"));
            Box::new(move || a.raked_product(&b))
        }
        "right_inverse((4,(4,2)):(4,(1,16)))" => {
            let a = l("(4,(4,2)):(4,(1,16))");
            Box::new(move || a.right_inverse())
        }
        "left_inverse((4,8):(1,5))" => {
            let a = l("(4,8):(1,5)");
            Box::new(move || a.left_inverse())
        }
        _ => return,
    };
    bencher.bench_local(|| divan::black_box(op()));
}

/// The cases of [`typed`] (each also a case of `eval`).
const TYPED: &[&str] = &[
    "coalesce((2,(1,6)):(1,(6,2)))",
    "composition((6,2):(8,2), (4,3):(3,1))",
    "composition((10,2):(16,4), (5,4):(1,5))",
    "composition((16,8):(8,1), ((4,8),(2,2)):((32,1),(16,8)))",
    "complement((2,2):(1,6))",
    "complement(4:2, extend=24)",
    "logical_divide(24:1, 4:2)",
    "logical_divide((6,6):(1,12), (6,3):(3,1))",
    "zipped_divide((4096,4096):(1,4096), (128,64))",
    "logical_product((2,2):(4,1), 6:1)",
    "blocked_product((3,4):(4,1), (2,5):(1,2))",
    "raked_product((3,4):(4,1), (2,5):(1,2))",
    "right_inverse((4,(4,2)):(4,(1,16)))",
    "left_inverse((4,8):(1,5))",
];
