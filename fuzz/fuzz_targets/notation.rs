//! Fuzz target (a): the notation lexer, parser and evaluator on arbitrary
//! bytes, as `rcute eval -f` reads a script: one statement per line, with
//! variables carried from line to line. Checks: no panic, no hang (bounded
//! input; run with `-timeout`), every value prints in the three styles, and
//! a printed integer, tuple of integers or layout reads back as an equal
//! value (str and repr styles).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rcute::notation::lexer::MAX_STATEMENT_LEN;
use rcute::notation::{eval_value, format_value, values_equal, Session, Style, Value};
use rcute::Scalar;

/// Values whose printed form is a literal that reads back as the same value.
fn round_trips(v: &Value) -> bool {
    match v {
        Value::Int(_) => true,
        Value::Tuple(items) => !items.is_empty() && items.iter().all(|x| matches!(x, Value::Int(_)) || round_trips(x)),
        Value::Layout(l) => l.stride().leaves().iter().all(|d| match d {
            Scalar::Int(_) | Scalar::F2(_) => true,
            Scalar::Coord(_) => d.is_basis() && !d.is_zero(),
        }),
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new();
    for line in text.split('\n').take(32) {
        let Some(Ok(v)) = session.eval_line(line) else {
            continue;
        };
        let printed = format_value(&v, Style::Str);
        let repr = format_value(&v, Style::Repr);
        let _ = format_value(&v, Style::Cpp);
        if round_trips(&v) {
            // a printed value longer than a statement cannot be read back
            for p in [&printed, &repr].into_iter().filter(|p| p.len() <= MAX_STATEMENT_LEN) {
                match eval_value(p) {
                    Ok(w) => assert!(
                        values_equal(&v, &w),
                        "{line:?} printed as {p:?} reads back as {}",
                        format_value(&w, Style::Str)
                    ),
                    Err(e) => panic!("{line:?} printed as {p:?} does not read back: {e}"),
                }
            }
        }
    }
});
