//! The CuTe notation of `docs/language.md`: lexer, parser, dynamic values,
//! evaluator, the operation dispatcher shared with the Python module, and
//! the three printers (PyCuTe `str`, PyCuTe `repr`, C++ `cute::print`).
//!
//! ```
//! use rcute::notation;
//! assert_eq!(notation::eval_str("((4,8):(8,1))(2,3)").unwrap(), "19");
//! assert_eq!(notation::eval_str("Layout((4,8))").unwrap(), "(4, 8):(1, 4)");
//! assert!(notation::eval_str("(4,8):(8,1").is_err());
//! ```

mod apply;
pub mod emit;
pub mod eval;
mod imp;
pub mod lexer;
pub mod ops;
mod param;
pub mod parser;
pub mod prepare;
pub mod print;
pub mod suggest;
mod symops;
pub mod table;
pub mod value;

pub use eval::{apply, binary, layout_literal, Session};
pub use ops::{call, is_operation, OPERATIONS};
pub use print::{format_value, Style};
pub use value::{values_equal, Value};

use crate::error::{Error, Result};

/// Turns the operations' typed forms (`Operation::direct`: the plain
/// argument forms of the algebra, operands read in place, literal
/// conversions made once) on or off for the calling thread; they are on by
/// default. Off, every call takes the operation's general form, which
/// gives the same values and errors: for tests that compare the two.
#[doc(hidden)]
pub fn set_direct_calls(on: bool) {
    ops::set_enabled(on);
}

/// Evaluates one statement (no variables) and returns its value.
/// A blank statement is a `parse` error.
///
/// ```
/// let v = rcute::notation::eval_value("E(1) * 3").unwrap();
/// assert_eq!(v.to_string(), "3@1");
/// ```
pub fn eval_value(src: &str) -> Result<Value> {
    let mut s = Session::new();
    s.eval_line(src)
        .unwrap_or_else(|| Err(Error::parse("column 1: empty statement")))
}

/// Evaluates one statement and returns its printed value (default style).
///
/// ```
/// assert_eq!(rcute::notation::eval_str("(3,)").unwrap(), "(3,)");
/// ```
pub fn eval_str(src: &str) -> Result<String> {
    eval_value(src).map(|v| format_value(&v, Style::Str))
}

/// Evaluates one statement and prints it in `style`.
///
/// ```
/// use rcute::notation::{eval_styled, Style};
/// assert_eq!(eval_styled("(3,):(1,)", Style::Cpp).unwrap(), "(3):(1)");
/// assert_eq!(eval_styled("8:1", Style::Repr).unwrap(), "Layout(8, 1)");
/// ```
pub fn eval_styled(src: &str, style: Style) -> Result<String> {
    eval_value(src).map(|v| format_value(&v, style))
}
