//! Test support for the inverse / layout_add / recast / common tests:
//! readers (the library's `FromStr`) for layout literals as the spec tables
//! write them
//! (`(4,(2,3)):(1@0,(F2,-3))`, `E(1,0)`, `3*E(1)`, `F9`), and small
//! generators.
#![allow(dead_code)]

use rcute::{HTuple, Layout, Scalar};

use crate::common::parse;

/// Reads `S:D`, or a bare shape `S` (column-major).
pub fn l(text: &str) -> Layout {
    match rcute::notation::eval_value(text) {
        Ok(rcute::notation::Value::Layout(l)) => l,
        _ => Layout::column_major(sh(text)).unwrap(),
    }
}

/// Reads a shape.
pub fn sh(text: &str) -> HTuple<i64> {
    parse(text)
}

/// The error kind name of a result.
pub fn kind<T: std::fmt::Debug>(r: rcute::Result<T>) -> &'static str {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.kind().name(),
    }
}

/// Builds a layout from flat lists (shape tuple of the given leaves).
pub fn flat_layout(s: &[i64], d: &[Scalar]) -> Layout {
    Layout::new(
        HTuple::flat(s.iter().copied()),
        HTuple::flat(d.iter().cloned()),
    )
    .unwrap()
}

/// Integer strides as scalars.
pub fn ints(d: &[i64]) -> Vec<Scalar> {
    d.iter().map(|&x| Scalar::Int(x)).collect()
}

/// The integer value of an integer scalar.
pub fn as_i(x: &Scalar) -> i64 {
    match x {
        Scalar::Int(v) | Scalar::F2(v) => *v,
        other => panic!("not an integer: {other}"),
    }
}
