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
