//! `rcute help`, `rcute ops` and `docs/operations.md`, all generated from
//! the operation table (`rcute::ops`).
//!
//! `docs/operations.md` must equal `rcute help --markdown`; to regenerate
//! it run `cargo run -p rcute-cli -- help --markdown > docs/operations.md`
//! (or this test with `UPDATE=1`).

use std::path::PathBuf;
use std::process::{Command, Output};

use rcute::ops::OPERATIONS;

fn rcute(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rcute"))
        .args(args)
        .output()
        .expect("run rcute")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn docs_operations_md_is_up_to_date() {
    let o = rcute(&["help", "--markdown"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let generated = stdout(&o);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/operations.md");
    if std::env::var_os("UPDATE").is_some() {
        std::fs::write(&path, &generated).expect("write docs/operations.md");
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "docs/operations.md is out of date with the operation table: run \
         `cargo run -p rcute-cli -- help --markdown > docs/operations.md` \
         (or this test with UPDATE=1)"
    );
    for op in OPERATIONS {
        assert!(
            generated.contains(&format!("### {}\n", op.name)),
            "{}",
            op.name
        );
    }
}

#[test]
fn ops_lists_every_operation() {
    let o = rcute(&["ops"]);
    assert!(o.status.success());
    let names: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let table: Vec<String> = OPERATIONS.iter().map(|op| op.name.to_string()).collect();
    assert_eq!(names, table);
    // and each name is an operation of the notation
    for n in &names {
        assert!(rcute::notation::is_operation(n), "{n}");
    }
}

#[test]
fn help_lists_every_operation_with_its_summary() {
    let o = rcute(&["help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for op in OPERATIONS {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(op.name))
            .unwrap_or_else(|| panic!("{} missing from `rcute help`", op.name));
        assert!(line.ends_with(op.summary), "{line}");
    }
    for g in rcute::ops::Group::ALL {
        assert!(text.contains(&format!("\n{}:\n", g.title())), "{g:?}");
    }
}

#[test]
fn help_of_one_operation() {
    let o = rcute(&["help", "coalesce"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with("coalesce(A, profile=1)\ncoalesce[i, ...](A, profile=1)\n"));
    assert!(text.contains("$ rcute eval 'coalesce((2,(1,6)):(1,(6,2)))'\n  12:1\n"));
    assert!(text.contains("may be a tensor"));
    for op in OPERATIONS {
        let o = rcute(&["help", op.name]);
        assert!(o.status.success(), "{}", op.name);
        let text = stdout(&o);
        assert!(text.starts_with(&op.signature()), "{}", op.name);
        assert!(text.contains(&op.example_output.to_string()), "{}", op.name);
        let body = text.split("\nExample:").next().unwrap_or_default();
        assert!(body
            .lines()
            .all(|l| l.chars().count() <= 79 || !l.contains(' ')));
    }
}

#[test]
fn help_of_a_subcommand() {
    let o = rcute(&["help", "eval"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("--style"));
}

#[test]
fn unknown_operation_suggests_the_closest() {
    let o = rcute(&["help", "coalesc"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let e = stderr(&o);
    assert!(e.contains("did you mean 'coalesce'"), "{e}");
    let o = rcute(&["help", "logical_divid"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("'logical_divide'"));
    let o = rcute(&["help", "qqqqqqqqqqqq"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("`rcute help` lists them"));
}

#[test]
fn every_example_runs_in_the_cli() {
    // the examples printed by `rcute help OP` give their stated output
    let script: String = OPERATIONS
        .iter()
        .map(|op| format!("{}\n", op.example))
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rcute"))
        .args(["eval", "-f", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn rcute");
    {
        use std::io::Write;
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(script.as_bytes()).expect("write");
    }
    let o = child.wait_with_output().expect("wait");
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let expected: Vec<String> = OPERATIONS
        .iter()
        .map(|op| op.example_output.to_string())
        .collect();
    assert_eq!(lines, expected);
}

/// The parameter names of `def __call__(self, ...)` in a stub (before `->`),
/// without `self`, `*` and the keyword `mode`.
fn stub_params(sig: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in sig.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == ',' && depth == 0 {
            names.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    names.push(cur);
    names
        .iter()
        .map(|p| {
            p.split([':', '='])
                .next()
                .unwrap_or("")
                .trim()
                .trim_start_matches('*')
        })
        .filter(|n| !n.is_empty() && *n != "self" && *n != "mode" && *n != "/")
        .map(str::to_string)
        .collect()
}

/// Whether `pyi` declares `name: _Cls` for a class `_Cls(ModeOpDecorator)`.
fn python_decorator_stub(pyi: &str, name: &str) -> bool {
    let prefix = format!("\n{name}: _");
    pyi.split(prefix.as_str()).skip(1).any(|rest| {
        let cls = rest.split('\n').next().unwrap_or("");
        pyi.contains(&format!("\nclass _{cls}(ModeOpDecorator):"))
    })
}

#[test]
fn python_stubs_follow_the_table() {
    // every operation has a stub in the Python module's type stubs: a
    // callable `_NAME_op` with the table's parameter names (and `mode` for
    // the mode-indexed ones), or its own class or function
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../rcute-py/python/rcute/__init__.pyi");
    let pyi = std::fs::read_to_string(path).expect("read __init__.pyi");
    for op in OPERATIONS {
        let class = format!("class _{}_op(Operation):\n    def __call__(self, ", op.name);
        let Some(at) = pyi.find(&class) else {
            assert!(
                pyi.contains(&format!("\ndef {}(", op.name))
                    // a Python-level mode-indexed function: a ModeOpDecorator
                    // subclass `_Name` with `name: _Name`
                    || python_decorator_stub(&pyi, op.name)
                    || pyi.contains(&format!("\nclass {}(", op.name))
                    || pyi.contains(&format!("\nclass {}:", op.name)),
                "{}: no stub in __init__.pyi",
                op.name
            );
            continue;
        };
        let rest = &pyi[at + class.len()..];
        let sig = &rest[..rest.find(") ->").expect("a stub signature")];
        let table: Vec<String> = op.params.iter().map(|p| p.name.to_string()).collect();
        assert_eq!(stub_params(sig), table, "{}", op.name);
        assert_eq!(sig.contains("mode: Mode"), op.mode_indexed, "{}", op.name);
        assert!(
            pyi.contains(&format!("\n{}: _{}_op\n", op.name, op.name)),
            "{}",
            op.name
        );
    }
}

/// `fuzz/dict/notation.dict` with its operation names taken from the
/// table (in table order, first) and its other tokens kept as they are.
fn fuzz_dict(existing: &str) -> String {
    let quoted: Vec<String> = OPERATIONS
        .iter()
        .map(|op| format!("\"{}\"", op.name))
        .collect();
    let others: Vec<&str> = existing
        .lines()
        .filter(|l| l.starts_with("tok"))
        .filter_map(|l| l.split_once('=').map(|(_, v)| v))
        .filter(|v| !quoted.iter().any(|q| q == v))
        .collect();
    let mut s = String::from(
        "# tokens of the rcute notation: the operation names (from the operation table,\n\
         # rcute::ops; `UPDATE=1 cargo test -p rcute-cli --test all operations::` rewrites them),\n\
         # then the syntax\n",
    );
    for (i, v) in quoted.iter().map(String::as_str).chain(others).enumerate() {
        s.push_str(&format!("tok{i}={v}\n"));
    }
    s
}

#[test]
fn fuzz_dictionary_has_every_operation() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/dict/notation.dict");
    let on_disk = std::fs::read_to_string(&path).expect("read fuzz/dict/notation.dict");
    let generated = fuzz_dict(&on_disk);
    if std::env::var_os("UPDATE").is_some() {
        std::fs::write(&path, &generated).expect("write fuzz/dict/notation.dict");
        return;
    }
    assert!(
        on_disk == generated,
        "fuzz/dict/notation.dict is out of date with the operation table: run \
         `UPDATE=1 cargo test -p rcute-cli --test all operations::`"
    );
}
