//! Every example of the user documentation (`docs/language.md`,
//! `docs/differences.md`, `docs/symbols.md`) is run through the notation and its output
//! compared with the text written under it.
//!
//! The format, as `docs/language.md` explains it to readers: a fenced block
//! whose info string is `cute` (or `cute style=S` for the styles `str`, `repr`, `cpp`,
//! `cpp-type`, `cpp-make`, `dsl`) is a script. Its lines run top to bottom in one
//! [`Session`], so later lines see the variables of earlier ones. Every
//! statement is followed directly by one line `# => OUTPUT`, the line
//! `rcute eval` prints for it (`error: KIND: message` for an error) in the
//! block's style. An `OUTPUT` that ends in ` ...` stands for a longer line
//! that starts with the text before the dots (for long error messages).
//! Blank lines and other comments may stand between examples. Because
//! `# =>` lines are comments, a block can be pasted into `rcute eval -f -`
//! as it is.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rcute::notation::emit::{emit, CodeStyle};
use rcute::notation::{format_value, Session, Style};

/// The documentation files whose examples are checked.
const DOCS: &[&str] = &["docs/language.md", "docs/differences.md", "docs/symbols.md"];

/// What marks an expected output.
const EXPECT: &str = "# =>";

/// The suffix of an expected output that abbreviates the rest of the line.
const ABBREVIATED: &str = " ...";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The output style named by a fence's info string (`cute`,
/// `cute style=cpp`), or `None` when the block is not an example block.
/// A malformed `cute` info string is an error.
fn block_style(info: &str) -> Option<Result<Fmt, String>> {
    let mut words = info.split_whitespace();
    if words.next() != Some("cute") {
        return None;
    }
    let mut style = Fmt::Text(Style::Str);
    for w in words {
        style = match w {
            "style=str" => Fmt::Text(Style::Str),
            "style=repr" => Fmt::Text(Style::Repr),
            "style=cpp" => Fmt::Text(Style::Cpp),
            "style=cpp-type" => Fmt::Code(CodeStyle::CppType),
            "style=cpp-make" => Fmt::Code(CodeStyle::CppMake),
            "style=dsl" => Fmt::Code(CodeStyle::Dsl),
            other => return Some(Err(format!("unknown fence attribute '{other}'"))),
        };
    }
    Some(Ok(style))
}

/// A block's output style: one of the printers or a code style.
#[derive(Clone, Copy)]
enum Fmt {
    Text(Style),
    Code(CodeStyle),
}

/// A statement waiting for its `# =>` line: its line number, its text and
/// what it printed.
struct Pending {
    line: usize,
    source: String,
    output: String,
}

fn matches(expected: &str, actual: &str) -> bool {
    match expected.strip_suffix(ABBREVIATED) {
        Some(prefix) => actual.len() > prefix.len() && actual.starts_with(prefix),
        None => expected == actual,
    }
}

/// Runs every example block of `text` (the file `name`); returns the number
/// of statements checked, and appends one line per failure to `failures`.
fn check_file(name: &str, text: &str, failures: &mut String) -> usize {
    let mut checked = 0;
    // (style, session, pending statement) while inside an example block
    let mut block: Option<(Fmt, Session, Option<Pending>)> = None;
    // true inside a fenced block that is not an example block
    let mut other_fence = false;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = raw.trim();
        if other_fence {
            if trimmed.starts_with("```") {
                other_fence = false;
            }
            continue;
        }
        let Some((style, session, pending)) = block.as_mut() else {
            if let Some(info) = trimmed.strip_prefix("```") {
                match block_style(info) {
                    Some(Ok(style)) => {
                        if raw.starts_with(' ') {
                            let _ = writeln!(
                                failures,
                                "{name}:{line_no}: an example fence must start in column 1"
                            );
                        }
                        block = Some((style, Session::new(), None));
                    }
                    Some(Err(e)) => {
                        let _ = writeln!(failures, "{name}:{line_no}: {e}");
                        other_fence = true;
                    }
                    None => other_fence = true,
                }
            }
            continue;
        };
        if trimmed == "```" {
            if let Some(p) = pending.take() {
                let _ = writeln!(
                    failures,
                    "{name}:{}: `{}` has no `{EXPECT}` line (it prints `{}`)",
                    p.line, p.source, p.output
                );
            }
            block = None;
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix(EXPECT) {
            let expected = rest.strip_prefix(' ').unwrap_or(rest);
            match pending.take() {
                None => {
                    let _ = writeln!(
                        failures,
                        "{name}:{line_no}: `{EXPECT}` line without a statement before it"
                    );
                }
                Some(p) => {
                    checked += 1;
                    if !matches(expected, &p.output) {
                        let _ = writeln!(
                            failures,
                            "{name}:{}: `{}`\n    documented: {expected}\n    actual:     {}",
                            p.line, p.source, p.output
                        );
                    }
                }
            }
            continue;
        }
        let result = session.eval_line(raw);
        if let Some(p) = pending.take() {
            // a blank or comment line, or another statement, came first
            let _ = writeln!(
                failures,
                "{name}:{}: `{}` is not followed directly by its `{EXPECT}` line (it prints `{}`)",
                p.line, p.source, p.output
            );
        }
        if let Some(r) = result {
            let output = match r {
                Ok(v) => match *style {
                    Fmt::Text(st) => format_value(&v, st),
                    Fmt::Code(st) => emit(&v, st).unwrap_or_else(|e| format!("error: {e}")),
                },
                Err(e) => format!("error: {e}"),
            };
            *pending = Some(Pending {
                line: line_no,
                source: trimmed.to_string(),
                output,
            });
        }
    }
    if block.is_some() {
        let _ = writeln!(failures, "{name}: an example block is not closed");
    }
    checked
}

fn check_doc(name: &str, at_least: usize) {
    let path = repo_root().join(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    };
    let mut failures = String::new();
    let checked = check_file(name, &text, &mut failures);
    assert!(
        failures.is_empty(),
        "examples of {name} that do not hold:\n{failures}"
    );
    assert!(
        checked >= at_least,
        "{name}: only {checked} examples found (expected at least {at_least}); is the format intact?"
    );
}

#[test]
fn language_examples() {
    check_doc(DOCS[0], 150);
}

#[test]
fn differences_examples() {
    check_doc(DOCS[1], 30);
}

#[test]
fn symbols_examples() {
    check_doc(DOCS[2], 25);
}

/// The checker itself: a wrong output, a missing `# =>` line and a stray
/// `# =>` line are all reported; an abbreviated output matches a prefix.
#[test]
fn checker_reports_mismatches() {
    let doc = "\
text
```cute
A = 3
# => 3
A * 2
# => 7
A + 1
A
# => 3
# => 4
composition((6,2):(1,7), (3,2):(2,3))
# => error: divisibility: composition((6, 2):(1, 7), (3, 2):(2, 3)): no layout ...
```
```cute style=cpp
(3,)
# => (3)
```
```cute style=fancy
3
```
```sh
# => not an example
```
";
    let mut failures = String::new();
    let checked = check_file("doc", doc, &mut failures);
    assert_eq!(checked, 5, "{failures}");
    let lines: Vec<&str> = failures.lines().collect();
    assert_eq!(lines.len(), 6, "{failures}");
    assert!(lines[0].starts_with("doc:5: `A * 2`"), "{failures}");
    assert!(
        lines[3].starts_with("doc:7: `A + 1` is not followed"),
        "{failures}"
    );
    assert!(
        lines[4].starts_with("doc:10: `# =>` line without"),
        "{failures}"
    );
    assert!(
        lines[5].contains("unknown fence attribute 'style=fancy'"),
        "{failures}"
    );
}
