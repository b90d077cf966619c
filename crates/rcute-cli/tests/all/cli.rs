//! `rcute eval` end to end (`docs/language.md`, "Running it").

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn rcute(args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rcute"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn rcute");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(s) = stdin {
            input.write_all(s.as_bytes()).expect("write stdin");
        }
    }
    child.wait_with_output().expect("wait rcute")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn one_expression() {
    let o = rcute(&["eval", "((4,8):(8,1))(2,3)"], None);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "19\n");
}

#[test]
fn styles() {
    let o = rcute(&["eval", "--style", "cpp", "(3,):(1,)"], None);
    assert_eq!(stdout(&o), "(3):(1)\n");
    let o = rcute(&["eval", "--style", "repr", "LayoutRight((4,8))"], None);
    assert_eq!(stdout(&o), "Layout((4, 8), (8, 1))\n");
    let o = rcute(&["eval", "--style=str", "(3,):(1,)"], None);
    assert_eq!(stdout(&o), "(3,):(1,)\n");
    let o = rcute(&["eval", "--style", "fancy", "1"], None);
    assert!(!o.status.success());
}

#[test]
fn error_line_and_status() {
    let o = rcute(&["eval", "(4,8):(8,1"], None);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with("error: parse: column 11"), "{out}");
    let o = rcute(&["eval", "Layout(3,(1,))"], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("error: congruence: "));
}

#[test]
fn script_from_stdin() {
    let script = "\
# a comment
A = (4,8):(8,1)

A(2,3)
size(A
A[1]   # trailing comment
";
    let o = rcute(&["eval", "-f", "-"], Some(script));
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert_eq!(lines[0], "(4, 8):(8, 1)");
    assert_eq!(lines[1], "19");
    assert!(lines[2].starts_with("error: parse: "));
    assert_eq!(lines[3], "8:1");
}

#[test]
fn script_success_status_and_crlf() {
    let o = rcute(&["eval", "-f", "-"], Some("1 + 1\r\n2 * 3\r\n"));
    assert!(o.status.success());
    assert_eq!(stdout(&o), "2\n6\n");
}

#[test]
fn script_from_file() {
    let dir = std::env::temp_dir().join(format!("rcute-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("script.cute");
    std::fs::write(&path, "L = Layout((4,8))\nL(13)\n").expect("write script");
    let o = rcute(&["eval", "-f", path.to_str().expect("utf-8 path")], None);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "(4, 8):(1, 4)\n13\n");
    let _ = std::fs::remove_dir_all(&dir);
    let o = rcute(&["eval", "-f", "/nonexistent/rcute/script"], None);
    assert!(!o.status.success());
}

#[test]
fn help_has_examples() {
    let o = rcute(&["eval", "--help"], None);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("Examples:"));
    assert!(out.contains("--style"));
    // without an expression or -f, the statements come from standard input
    // (`newcomer::eval_reads_stdin_by_default`)
    let o = rcute(&["eval"], None);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
}

#[test]
fn expression_may_start_with_a_minus() {
    let o = rcute(&["eval", "-3@1"], None);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "-3@1\n");
    let o = rcute(&["eval", "-1", "--style", "cpp"], None);
    assert_eq!(stdout(&o), "-1\n");
}

#[test]
fn output_is_streamed_line_by_line() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_rcute"))
        .args(["eval", "-f", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn rcute");
    let mut input = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    // each answer arrives before the next statement is sent
    for (src, want) in [("1 + 1", "2"), ("size((4,8))", "32"), ("(3,)", "(3,)")] {
        writeln!(input, "{src}").expect("write");
        input.flush().expect("flush");
        let mut line = String::new();
        out.read_line(&mut line).expect("read");
        assert_eq!(line.trim_end(), want);
    }
    drop(input);
    assert!(child.wait().expect("wait").success());
}

/// `rcute bench --json`: one object per statement (timings, allocation
/// count, the reference and speed-up when given), an error object for a
/// statement that fails to parse or evaluate, exit status 1 then.
#[test]
fn bench_json_rows() {
    let dir = std::env::temp_dir().join(format!("rcute-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = dir.join("cases.cute");
    std::fs::write(
        &cases,
        "# comment\ncoalesce((2,(1,6)):(1,(6,2)))\nA = 4:2\ncomposition(A, 2)\n\nbad(\nsize(B)\n",
    )
    .unwrap();
    let reference = dir.join("ref.json");
    std::fs::write(
        &reference,
        r#"{"reference_median_ns": {"coalesce((2,(1,6)):(1,(6,2)))": 8818}}"#,
    )
    .unwrap();
    let o = rcute(
        &[
            "bench",
            "-f",
            cases.to_str().unwrap(),
            "--json",
            "--min-time",
            "5",
            "--reference",
            reference.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5, "{}", stdout(&o));
    assert_eq!(rows[0]["expr"], "coalesce((2,(1,6)):(1,(6,2)))");
    for r in &rows[..3] {
        let med = r["median_ns"].as_f64().unwrap();
        let min = r["min_ns"].as_f64().unwrap();
        assert!(min > 0.0 && min <= med, "{r}");
        if cfg!(feature = "count-allocs") {
            assert!(r["allocs"].as_f64().unwrap() >= 0.0, "{r}");
        } else {
            // not counted: the binary has the system allocator
            assert!(r["allocs"].is_null(), "{r}");
        }
    }
    if cfg!(feature = "count-allocs") {
        // the literal's value is built once; evaluating coalesce allocates nothing
        assert_eq!(rows[0]["allocs"].as_f64(), Some(0.0), "{}", rows[0]);
    }
    assert_eq!(rows[0]["reference_ns"].as_f64(), Some(8818.0));
    assert!(rows[0]["speedup"].as_f64().unwrap() > 0.0);
    assert!(rows[1].get("reference_ns").is_none());
    assert_eq!(rows[2]["expr"], "composition(A, 2)");
    assert!(
        rows[3]["error"].as_str().unwrap().starts_with("parse:"),
        "{}",
        rows[3]
    );
    assert!(
        rows[4]["error"].as_str().unwrap().starts_with("value:"),
        "{}",
        rows[4]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
