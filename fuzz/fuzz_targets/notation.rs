//! Fuzz target (a): the notation lexer, parser and evaluator on arbitrary
//! bytes, as `rcute eval -f` reads a script: one statement per line, with
//! variables carried from line to line. Checks: no panic, no hang (bounded
//! input; run with `-timeout`), every value prints in the three styles, and
//! a printed integer, tuple of integers or layout reads back as an equal
//! value (str and repr styles); and the prepared statements with the
//! operations' typed forms (what `rcute eval` runs) give the same value or
//! error as the parsed statements through the general forms alone
//! (`notation::set_direct_calls(false)`); statements' expressions
//! evaluated into one reused slot (`Session::eval_prepared_into`) give the
//! same too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rcute::notation::lexer::MAX_STATEMENT_LEN;
use rcute::notation::parser::{parse_statement, Statement};
use rcute::notation::prepare::Prepared;
use rcute::notation::{
    eval_value, format_value, set_direct_calls, values_equal, Session, Style, Value,
};
use rcute::Scalar;

/// Values whose printed form is a literal that reads back as the same value.
fn round_trips(v: &Value) -> bool {
    match v {
        Value::Int(_) => true,
        Value::Tuple(items) => {
            !items.is_empty()
                && items
                    .iter()
                    .all(|x| matches!(x, Value::Int(_)) || round_trips(x))
        }
        Value::Layout(l) => l.stride().leaves().iter().all(|d| match d {
            Scalar::Int(_) | Scalar::F2(_) => true,
            Scalar::Coord(_) => d.is_basis() && !d.is_zero(),
        }),
        _ => false,
    }
}

/// A statement's outcome as printed, buffer addresses blanked (memory
/// tensors get a new buffer in each session).
fn outcome(r: &Option<rcute::Result<Value>>) -> String {
    let text = match r {
        None => "-".to_string(),
        Some(Ok(v)) => format_value(v, Style::Repr),
        Some(Err(e)) => format!("error: {e}"),
    };
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("0x") {
        out.push_str(&rest[..i]);
        out.push_str("0x?");
        rest = rest[i + 2..].trim_start_matches(|c: char| c.is_ascii_hexdigit());
    }
    out.push_str(rest);
    out
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new();
    let mut general = Session::new();
    // a third session in lockstep: every statement's expression is
    // evaluated into one reused slot, as `rcute bench` does (assignments are
    // then also bound as usual, so that it has the same variables)
    let mut slotted = Session::new();
    let mut slot = Value::None;
    for line in text.split('\n').take(32) {
        let r = session.eval_line(line);
        let s = match parse_statement(line) {
            Ok(Some(st)) => {
                let p = Prepared::new(&st);
                let x = slotted.eval_prepared_into(&p, &mut slot);
                if x.is_err() {
                    assert!(
                        matches!(slot, Value::None),
                        "{line:?}: slot kept after an error"
                    );
                }
                let x = Some(x.map(|()| slot.clone()));
                match st {
                    Statement::Expr(_) => x,
                    // an assumption is run, not evaluated into a slot (which
                    // refuses it): the slotted session runs it as eval_line does
                    Statement::Assume(..) => {
                        assert!(matches!(x, Some(Err(_))), "{line:?}: assume into a slot");
                        slotted.eval_line(line)
                    }
                    Statement::Assign(..) => {
                        // the value of the right-hand side, as `rcute bench`
                        // times it; then bound as usual (an assignment that
                        // eval_line refuses is compared only when it succeeds)
                        let bound = slotted.eval_line(line);
                        if matches!(r, Some(Ok(_))) {
                            let (a, b) = (outcome(&x), outcome(&r));
                            assert_eq!(
                                a, b,
                                "{line:?}: right-hand side into a slot {a} but eval_line {b}"
                            );
                        }
                        bound
                    }
                }
            }
            _ => slotted.eval_line(line),
        };
        let (a, b) = (outcome(&s), outcome(&r));
        assert_eq!(a, b, "{line:?}: slotted session {a} but eval_line {b}");
        set_direct_calls(false);
        let g = match parse_statement(line) {
            Ok(None) => None,
            Ok(Some(st)) => Some(general.exec(&st)),
            Err(e) => Some(Err(e)),
        };
        set_direct_calls(true);
        let (a, b) = (outcome(&r), outcome(&g));
        assert_eq!(a, b, "{line:?}: prepared {a} but general dispatch {b}");
        let Some(Ok(v)) = r else {
            continue;
        };
        let printed = format_value(&v, Style::Str);
        let repr = format_value(&v, Style::Repr);
        let _ = format_value(&v, Style::Cpp);
        if round_trips(&v) {
            // a printed value longer than a statement cannot be read back
            for p in [&printed, &repr]
                .into_iter()
                .filter(|p| p.len() <= MAX_STATEMENT_LEN)
            {
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
