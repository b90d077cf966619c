//! The CuTe notation of `NOTATION.md`: parser, evaluator and printers.

/// Evaluates one statement and returns its printed value (default style).
pub fn eval_str(src: &str) -> crate::Result<String> {
    let _ = src;
    Err(crate::Error::value("notation: not implemented yet"))
}
