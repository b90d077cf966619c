//! `rcute eval` end to end (`NOTATION.md`, "Running it").

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
    let o = rcute(&["eval"], None);
    assert!(!o.status.success(), "an expression or -f is required");
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
