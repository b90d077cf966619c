//! Hostile inputs through `rcute eval` (`docs/limits.md`): the catalogue
//! `tests/bad_input.cute` (each statement line ends with `#> error: KIND`)
//! and generated inputs too large to keep in a file (10^5-deep nesting,
//! 10^5-rank tuples, statements over the length limit, scripts that grow a
//! value line by line). Every input must end in the expected error line,
//! never in a crash, a stack overflow, a hang or exhausted memory.

use std::process::Output;

/// Runs `rcute eval -f -` on `input`.
fn eval_script(input: Vec<u8>) -> Output {
    crate::rcute_with_input(&["eval", "-f", "-"], input)
}

fn lines(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The process ended normally (exit status 0 or 1, not a signal or a
/// panic's 101) and wrote nothing to stderr.
fn assert_clean_exit(o: &Output, what: &str) {
    let code = o.status.code();
    assert!(
        matches!(code, Some(0) | Some(1)),
        "{what}: rcute ended with {:?}; stderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        o.stderr.is_empty(),
        "{what}: stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn catalogue_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/bad_input.cute");
    let text = std::fs::read_to_string(path).expect("tests/bad_input.cute");
    let mut statements = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (stmt, expect) = line
            .rsplit_once("#> ")
            .unwrap_or_else(|| panic!("line {}: no `#> error: KIND`", n + 1));
        assert!(
            expect.starts_with("error: "),
            "line {}: expectation {expect:?}",
            n + 1
        );
        statements.push((
            n + 1,
            stmt.trim_end().to_string(),
            expect.trim().to_string(),
        ));
    }
    assert!(
        statements.len() >= 60,
        "the catalogue has {} entries",
        statements.len()
    );
    let o = eval_script(text.into_bytes());
    assert_clean_exit(&o, "tests/bad_input.cute");
    assert_eq!(o.status.code(), Some(1), "a failing script exits with 1");
    let out = lines(&o);
    assert_eq!(out.len(), statements.len(), "one output line per statement");
    for ((n, stmt, expect), got) in statements.iter().zip(&out) {
        assert!(
            got.starts_with(&format!("{expect}: ")),
            "tests/bad_input.cute line {n}: {stmt}\n  expected {expect}\n  got      {got}"
        );
    }
}

const N: usize = 100_000;

fn repeat(s: &str, n: usize) -> String {
    s.repeat(n)
}

fn list(item: &str, n: usize) -> String {
    vec![item; n].join(",")
}

/// One generated statement and the error kind it must give.
fn one_statement(what: &str, stmt: String, kind: &str) {
    let o = eval_script(format!("{stmt}\n").into_bytes());
    assert_clean_exit(&o, what);
    let out = lines(&o);
    assert_eq!(out.len(), 1, "{what}: {out:?}");
    assert!(
        out[0].starts_with(&format!("error: {kind}: ")),
        "{what}: expected error: {kind}, got {}",
        &out[0][..out[0].len().min(200)]
    );
}

#[test]
fn deep_nesting_is_a_parse_error() {
    one_statement(
        "10^5 parentheses",
        format!("{}1{}", repeat("(", N), repeat(")", N)),
        "parse",
    );
    one_statement(
        "10^5 C++ tuples",
        format!("{}1{}", repeat("<", N), repeat(">", N)),
        "parse",
    );
    one_statement(
        "10^5 nested calls",
        format!("{}1{}", repeat("size(", N), repeat(")", N)),
        "parse",
    );
    one_statement(
        "10^5 mode indices",
        format!("A{}", repeat("[0]", N)),
        "parse",
    );
    one_statement("10^5 unary minus", format!("{}1", repeat("-", N)), "parse");
    one_statement("10^5-term sum", list("1", N).replace(',', "+"), "parse");
    one_statement("10^5 basis wraps", format!("1{}", repeat("@0", N)), "parse");
    one_statement(
        "10^5-deep layout",
        format!(
            "{}4{}:{}1{}",
            repeat("(", N),
            repeat(",)", N),
            repeat("(", N),
            repeat(",)", N)
        ),
        "parse",
    );
}

#[test]
fn huge_ranks_are_value_errors() {
    // 10^5 elements exceed the statement length limit (64 KiB)
    let t = format!("({})", list("2", N));
    one_statement("10^5-rank tuple", t.clone(), "parse");
    one_statement("10^5-rank layout", format!("{t}:{t}"), "parse");
    // 20000 elements fit in a statement, but not in a layout (4096 leaves)
    let t = format!("({})", list("2", 20_000));
    one_statement(
        "20000-rank shape in Layout()",
        format!("Layout({t})"),
        "value",
    );
    one_statement(
        "20000-rank shape in LayoutRight()",
        format!("LayoutRight({t})"),
        "value",
    );
    one_statement(
        "5000-leaf layout literal",
        format!("({}):({})", list("1", 5000), list("0", 5000)),
        "value",
    );
    one_statement(
        "20000 basis indices",
        format!("E({})", list("0", 20_000)),
        "value",
    );
    let kw: Vec<String> = (0..5000).map(|i| format!("k{i}=1")).collect();
    one_statement(
        "5000 keyword arguments",
        format!("size(1, {})", kw.join(",")),
        "parse",
    );
}

#[test]
fn long_and_malformed_statements() {
    one_statement(
        "2 MiB statement",
        format!("1{}", repeat(" ", 2 << 20)),
        "parse",
    );
    one_statement("10^5-digit integer", repeat("9", N), "parse");
    one_statement("10^4-digit integer", repeat("9", 10_000), "overflow");
    one_statement("NUL byte", "size(\0)".to_string(), "parse");
    let o = eval_script(b"size(\xff\xfe)\n".to_vec());
    assert_clean_exit(&o, "invalid UTF-8");
    assert!(lines(&o)[0].starts_with("error: parse: "));
    one_statement("a 512 KiB name", repeat("x", 1 << 19), "parse");
    one_statement("a 60 KiB name", repeat("x", 60 << 10), "value");
}

/// Scripts that grow one value line by line must stop at the limits with an
/// error, and the following lines still run.
fn growing_script(what: &str, first: &str, step: &str, times: usize, kind: &str) {
    let mut s = format!("{first}\n");
    for _ in 0..times {
        s.push_str(step);
        s.push('\n');
    }
    s.push_str("1 + 1\n");
    let o = eval_script(s.into_bytes());
    assert_clean_exit(&o, what);
    let out = lines(&o);
    assert_eq!(out.len(), times + 2, "{what}");
    assert!(
        out[times].starts_with(&format!("error: {kind}: ")),
        "{what}: the last step gave {}",
        &out[times][..out[times].len().min(200)]
    );
    assert_eq!(out[times + 1], "2", "{what}: the next line still runs");
}

#[test]
fn values_cannot_grow_without_bound() {
    growing_script("A = (A,)", "A = 1", "A = (A,)", 1000, "value");
    growing_script("A = lift[0](A)", "A = 1", "A = lift[0](A)", 300, "value");
    growing_script("A = A@0", "A = 1@0", "A = A@0", 1000, "value");
    growing_script(
        "A = make_layout(A, A)",
        "A = 2:1",
        "A = make_layout(A, A)",
        40,
        "value",
    );
    growing_script(
        "A = logical_product(A, 2)",
        "A = 2:1",
        "A = logical_product(A, 2)",
        200,
        "overflow",
    );
    growing_script("A = wrap((A, A))", "A = 1", "A = wrap((A, A))", 40, "value");
    // copies of a large value in one statement
    let s = format!("A = ({})\n({})\n", list("2", 4000), list("A", 20_000));
    let o = eval_script(s.into_bytes());
    assert_clean_exit(&o, "20000 copies of a 4000-leaf tuple");
    assert!(lines(&o)[1].starts_with("error: value: "));
}

#[test]
fn a_long_script_streams() {
    let o = eval_script(repeat("3 * 4\n", N).into_bytes());
    assert_clean_exit(&o, "10^5 statements");
    let out = lines(&o);
    assert_eq!(out.len(), N);
    assert!(out.iter().all(|l| l == "12"));
}
