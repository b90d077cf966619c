//! Readers for the values written in the tests (the spec's examples):
//! integers, tuples, `_`/`None`, `E(..)`, `v@i`, `F2(n)`, `F<n>`,
//! `ArithTuple(..)`, `+ - *` on stride scalars, and layouts `S:D` — through
//! the library's own `FromStr` implementations (the notation), so the
//! tests read their inputs exactly as users write them.
#![allow(dead_code)]

use std::str::FromStr;

use rcute::{HTuple, Layout, Scalar};

/// `src` parsed as a `T`; a test input that does not parse is a bug in
/// the test, so it panics with the parser's message.
pub fn parse_as<T: FromStr<Err = rcute::Error>>(src: &str, what: &str) -> T {
    src.parse()
        .unwrap_or_else(|e: rcute::Error| panic!("test input {src:?} is not a {what}: {e}"))
}

/// A coordinate HTuple (`None` for `_`).
pub fn crd(src: &str) -> HTuple<Option<Scalar>> {
    parse_as(src, "coordinate")
}

/// An integer HTuple (shape).
pub fn sh(src: &str) -> HTuple<i64> {
    parse_as(src, "shape")
}

/// A stride-scalar HTuple.
pub fn st(src: &str) -> HTuple<Scalar> {
    parse_as(src, "stride")
}

/// A single stride scalar (a tuple becomes a coordinate value).
pub fn s(src: &str) -> Scalar {
    parse_as(src, "stride scalar")
}

/// A layout literal `S:D` (a stride tuple at a shape leaf is one
/// coordinate value, as in the notation).
pub fn lay(src: &str) -> Layout {
    parse_as(src, "layout")
}

/// The integer-valued scalar.
pub fn int(v: i64) -> Scalar {
    Scalar::Int(v)
}

/// `src` parsed as whatever `T` the caller needs.
pub fn parse<T: FromStr<Err = rcute::Error>>(src: &str) -> T {
    parse_as(src, std::any::type_name::<T>())
}

/// Evaluates each `(expression, expected output)` row through the notation
/// and fails listing every row whose output differs (whitespace ignored);
/// an expected output starting with `error` passes on any error.
pub fn check_rows(rows: &[(&str, &str)]) {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    let mut failures = Vec::new();
    for &(expr, want) in rows {
        let got = rcute::notation::eval_str(expr);
        let ok = match (&got, want.starts_with("error")) {
            (Err(_), true) => true,
            (Ok(g), false) => squash(g) == squash(want),
            _ => false,
        };
        if !ok {
            failures.push(format!("{expr}: want {want}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
