//! The newcomer's conveniences of the `rcute` CLI (README "Using it"):
//! `rcute eval` reading standard input by default, `--json`, `--echo`,
//! hints for C++ / Python-style input, shell completions, `rcute draw`'s
//! default file name, `rcute bench`'s built-in cases and stable tensor text.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `rcute ARGS` in `dir` (the target's scratch directory by default)
/// with `stdin` as standard input.
fn run_in(dir: Option<&Path>, args: &[&str], stdin: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rcute"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("spawn rcute");
    {
        let mut input = child.stdin.take().expect("stdin");
        input.write_all(stdin.as_bytes()).expect("write stdin");
    }
    child.wait_with_output().expect("wait rcute")
}

fn rcute(args: &[&str], stdin: &str) -> Output {
    run_in(None, args, stdin)
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("newcomer-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// The repository's root.
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const SCRIPT: &str = "A = (4,8):(1,4)\n# a comment\n\nsize[1](A)\nbad(\n";

#[test]
fn eval_reads_stdin_by_default() {
    for args in [&["eval"][..], &["eval", "-"], &["eval", "-f", "-"]] {
        let o = rcute(args, SCRIPT);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let text = out(&o);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{args:?}: {text}");
        assert_eq!(lines[..2], ["(4, 8):(1, 4)", "8"]);
        assert!(lines[2].starts_with("error: parse: "), "{text}");
    }
    let o = rcute(&["eval"], "size((4,8))\n");
    assert!(o.status.success());
    assert_eq!(out(&o), "32\n");
    // an expression and -f together are a usage error
    let o = rcute(&["eval", "1", "-f", "-"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn eval_json_objects() {
    let o = rcute(&["eval", "--json"], SCRIPT);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..2],
        [
            r#"{"input": "A = (4,8):(1,4)", "output": "(4, 8):(1, 4)"}"#,
            r#"{"input": "size[1](A)", "output": "8"}"#,
        ]
    );
    assert_eq!(lines.len(), 3, "{text}");
    let e: serde_json::Value = serde_json::from_str(lines[2]).expect("JSON");
    assert_eq!(e["input"], "bad(");
    assert_eq!(e["error"]["kind"], "parse");
    assert!(e["error"]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("column 5")));
    assert!(e.get("output").is_none());
    // one expression; --style applies to the output; quotes are escaped
    let o = rcute(
        &["eval", "--json", "--style", "cpp", "Layout((3,),(1,))"],
        "",
    );
    assert!(o.status.success());
    assert_eq!(
        out(&o),
        "{\"input\": \"Layout((3,),(1,))\", \"output\": \"(3):(1)\"}\n"
    );
    let o = rcute(&["eval", "--json", "composition((4,6,8):(2,3,5), 6:3)"], "");
    let e: serde_json::Value = serde_json::from_str(out(&o).trim()).expect("JSON");
    assert_eq!(e["error"]["kind"], "divisibility", "{e}");
    assert!(e["error"].get("hint").is_none(), "{e}");
    // a hint goes into the object, not to standard error
    let o = rcute(
        &["eval", "--json", "Layout<Shape<_4,_8>, Stride<_1,_4>>{}"],
        "",
    );
    let e: serde_json::Value = serde_json::from_str(out(&o).trim()).expect("JSON");
    assert_eq!(e["error"]["kind"], "parse");
    assert!(e["error"]["hint"]
        .as_str()
        .is_some_and(|h| h.ends_with("(4,8):(1,4)")));
    assert_eq!(err(&o), "");
}

#[test]
fn eval_echo_transcript() {
    let o = rcute(&["eval", "--echo"], SCRIPT);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "> A = (4,8):(1,4)",
            "(4, 8):(1, 4)",
            "# a comment",
            "",
            "> size[1](A)",
            "8"
        ]
    );
    assert_eq!(lines[6], "> bad(");
    assert!(lines[7].starts_with("error: parse:"));
    assert_eq!(lines.len(), 8);
    let o = rcute(&["eval", "--echo", "size(4:1)"], "");
    assert_eq!(out(&o), "> size(4:1)\n4\n");
    let o = rcute(&["eval", "--echo", "--json", "1"], "");
    assert_eq!(o.status.code(), Some(2), "--echo and --json conflict");
}

#[test]
fn eval_echo_tour() {
    let tour = repo().join("examples/tour.cute");
    let src = std::fs::read_to_string(&tour).expect("tour");
    let o = rcute(&["eval", "--echo", "-f", tour.to_str().expect("path")], "");
    assert!(o.status.success(), "{}", out(&o));
    let text = out(&o);
    let statements = src
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("> ")).count(),
        statements
    );
    // every line of the script is there: the transcript has one more line
    // (the answer) per statement
    assert_eq!(text.lines().count(), src.lines().count() + statements);
}

#[test]
fn eval_help_states_the_output_contract() {
    let o = rcute(&["eval", "--help"], "");
    assert!(o.status.success());
    let help = out(&o);
    for needle in [
        "exactly one line on\nstandard output",
        "`error: KIND: message`",
        "Exit status: 0 when every statement succeeded, 1 when any failed",
        "--json",
        "--echo",
        "read from standard input",
        "hint:",
    ] {
        assert!(help.contains(needle), "{needle:?} not in\n{help}");
    }
}

#[test]
fn hints_for_cpp_and_python_input() {
    let cases = [
        (
            "Layout<Shape<_4,_8>, Stride<_1,_4>>{}",
            "error: parse:",
            "(4,8):(1,4)",
        ),
        (
            "Layout<Shape<_4,_8>>{}",
            "error: parse:",
            "LayoutLeft((4,8))",
        ),
        (
            "cute::make_layout(cute::make_shape(4,8));",
            "error: parse:",
            "LayoutLeft((4,8))",
        ),
        ("A.shape", "error: parse:", "shape(A)"),
        (
            "cute.make_layout((4,8), stride=(1,4))",
            "error: parse:",
            "(4,8):(1,4)",
        ),
    ];
    for (src, error, suggestion) in cases {
        let o = rcute(&["eval", src], "");
        assert_eq!(o.status.code(), Some(1), "{src}");
        // standard output: the one unchanged error line
        let text = out(&o);
        assert_eq!(text.lines().count(), 1, "{src}: {text}");
        assert!(text.starts_with(error), "{src}: {text}");
        // standard error: the hint
        let hint = err(&o);
        assert!(hint.starts_with("hint: "), "{src}: {hint}");
        assert!(hint.trim_end().ends_with(suggestion), "{src}: {hint}");
        // the suggestion evaluates
        let o = rcute(&["eval", suggestion], "");
        assert!(
            o.status.success() || suggestion == "shape(A)",
            "{suggestion}: {}",
            out(&o)
        );
    }
    // the Python constructor and C++'s names already work, with no hint
    for src in [
        "Layout((4,8),(1,4))",
        "make_layout((4,8),(1,4))",
        "make_layout(make_shape(4,8), make_stride(1,4))",
    ] {
        let o = rcute(&["eval", src], "");
        assert_eq!(out(&o), "(4, 8):(1, 4)\n", "{src}");
        assert_eq!(err(&o), "", "{src}");
    }
    // other suggestions
    let o = rcute(&["eval", "import rcute"], "");
    assert!(err(&o).contains("nothing to import"), "{}", err(&o));
    let o = rcute(&["eval", "print_layout((4,8):(1,4))"], "");
    assert!(err(&o).contains("rcute show '(4,8):(1,4)'"), "{}", err(&o));
    // no hint for a typo or an error of the algebra
    for src in ["foo(1)", "size((4,8)", "composition((4,6,8):(2,3,5), 6:3)"] {
        let o = rcute(&["eval", src], "");
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(err(&o), "", "{src}");
    }
    // in a script, the hint follows its statement's error line
    let o = rcute(&["eval"], "1\nLayout<Shape<_4,_8>>{}\n2\n");
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0] == "1" && lines[1].starts_with("error: parse:") && lines[2] == "2");
    assert_eq!(
        err(&o),
        "hint: this looks like C++ CuTe; in rcute's notation: LayoutLeft((4,8))\n"
    );
    // show and draw hint too
    let o = rcute(&["show", "Layout<Shape<_2,_2>>{}"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("\nhint: ") && err(&o).trim_end().ends_with("LayoutLeft((2,2))"));
}

#[test]
fn did_you_mean_for_misspelt_names() {
    let o = rcute(
        &["eval"],
        "tile = (4,8):(1,4)\ncompositon(tile, 2)\nsize(tlie)\n",
    );
    assert_eq!(
        out(&o),
        "(4, 8):(1, 4)\n\
         error: value: unknown name 'compositon' (did you mean 'composition'?)\n\
         error: value: unknown name 'tlie' (did you mean 'tile'?)\n"
    );
    let o = rcute(&["eval", "--json", "colaesce(8:1)"], "");
    assert!(
        out(&o).contains(r#""message": "unknown name 'colaesce' (did you mean 'coalesce'?)""#),
        "{}",
        out(&o)
    );
}

#[test]
fn hints_for_the_loose_colon() {
    let cases = [
        (
            "(4,8):(1,4)(2,3)",
            "error: type: the tuple (1, 4) cannot be called",
            "((4,8):(1,4))(2,3)",
        ),
        (
            "A = (4,8):(1,4)(2,3)",
            "error: type: the tuple (1, 4) cannot be called",
            "A = ((4,8):(1,4))(2,3)",
        ),
        (
            "(4,8):(1,4) == Layout((4,8))",
            "error: congruence:",
            "((4,8):(1,4)) == Layout((4,8))",
        ),
        (
            "(4,8):(1,4) != (4,8):(8,1)",
            "error: parse:",
            "((4,8):(1,4)) != ((4,8):(8,1))",
        ),
    ];
    for (src, error, fixed) in cases {
        let o = rcute(&["eval", src], "");
        assert_eq!(o.status.code(), Some(1), "{src}");
        assert!(out(&o).starts_with(error), "{src}: {}", out(&o));
        let hint = err(&o);
        assert!(
            hint.starts_with("hint: `:` binds more loosely"),
            "{src}: {hint}"
        );
        assert!(hint.trim_end().ends_with(fixed), "{src}: {hint}");
        assert!(rcute(&["eval", fixed], "").status.success(), "{fixed}");
    }
    // a stride tuple at a leaf of the shape is one coordinate value
    let o = rcute(&["eval", "((4,8):(1,(2,3)))(5)"], "");
    assert!(out(&o).starts_with("error: type:"), "{}", out(&o));
    assert!(
        err(&o).contains("the stride tuple (2,3) stands where the shape has the leaf 8"),
        "{}",
        err(&o)
    );
    // the construction is named as written, not prefix_product
    let o = rcute(&["eval", "Layout((4,8),(1,4,2))"], "");
    assert_eq!(
        out(&o),
        "error: rank: Layout((4, 8), (1, 4, 2)): shape (4, 8) has 2 modes, stride (1, 4, 2) has 3\n"
    );
}

#[test]
fn hints_never_crash() {
    let deep = format!("{}4{}", "make_shape(".repeat(3000), ")".repeat(3000));
    let brackets = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let templ = format!("{}_4{}", "Shape<".repeat(3000), ">".repeat(3000));
    for src in [
        deep.as_str(),
        brackets.as_str(),
        templ.as_str(),
        "Layout<",
        "make_layout(make_shape(4,8), make_stride(1,4)",
        "cute::",
        "::::",
        "_{}",
        "a.b.c.d(",
        "é::ü",
        "Int<>{}",
        "1 +",
        "make_layout(make_shape(4,8), stride=",
    ] {
        let o = rcute(&["eval", src], "");
        assert_eq!(o.status.code(), Some(1), "{src:.40}");
        assert!(out(&o).starts_with("error: "), "{src:.40}");
        assert!(!err(&o).contains("panicked"), "{src:.40}: {}", err(&o));
    }
}

#[test]
fn shell_completions() {
    for (shell, marker) in [
        ("bash", "complete -F _rcute"),
        ("zsh", "#compdef rcute"),
        ("fish", "complete -c rcute"),
    ] {
        let o = rcute(&["completions", shell], "");
        assert!(o.status.success(), "{shell}: {}", err(&o));
        let script = out(&o);
        assert!(script.contains(marker), "{shell}");
        for word in [
            "eval",
            "show",
            "draw",
            "bench",
            "completions",
            "style",
            "json",
        ] {
            assert!(script.contains(word), "{shell}: {word}");
        }
    }
    let o = rcute(&["completions", "tcsh"], "");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn draw_names_the_file_after_the_expression() {
    let d = scratch("draw");
    let draw = |args: &[&str]| run_in(Some(&d), args, "");
    let o = draw(&["draw", "(4,8):(1,4)"]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o), "Saved as 4_8_1_4.svg\n");
    let svg = d.join("4_8_1_4.svg");
    assert!(std::fs::read_to_string(&svg).is_ok_and(|s| s.contains("<svg")));
    // an existing file is kept without --force
    std::fs::write(&svg, "mine").expect("write");
    let o = draw(&["draw", "(4,8):(1,4)"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "");
    assert!(err(&o).contains("4_8_1_4.svg exists") && err(&o).contains("--force"));
    assert_eq!(std::fs::read_to_string(&svg).expect("read"), "mine");
    let o = draw(&["draw", "(4,8):(1,4)", "--force"]);
    assert!(o.status.success());
    assert!(std::fs::read_to_string(&svg).is_ok_and(|s| s.contains("<svg")));
    // the extension follows --format; --tv adds tv_
    let o = draw(&[
        "draw",
        "composition(Swizzle(1,1,1), (4,4):(4,1))",
        "--format",
        "tex",
    ]);
    assert_eq!(
        out(&o),
        "Saved as composition_Swizzle_1_1_1_4_4_4_1.tex\n",
        "{}",
        err(&o)
    );
    let o = draw(&["draw", "(4,2):(1@0,1@1)", "--tv"]);
    assert_eq!(out(&o), "Saved as tv_4_2_1_0_1_1.svg\n", "{}", err(&o));
    // a file named with -o is overwritten as before
    std::fs::write(d.join("x.svg"), "old").expect("write");
    let o = draw(&["draw", "(2,2):(1,2)", "-o", "x.svg"]);
    assert!(o.status.success());
    assert_ne!(
        std::fs::read_to_string(d.join("x.svg")).expect("read"),
        "old"
    );
    // several statements; a long expression is cut
    let o = draw(&["draw", "A = (2,2):(1,2)\nA"]);
    assert_eq!(out(&o), "Saved as A_2_2_1_2_A.svg\n", "{}", err(&o));
    let mut long = "(2,2):(1,2)".to_string();
    for _ in 0..6 {
        long = format!("composition((2,2):(1,2), {long})");
    }
    let o = draw(&["draw", &long]);
    assert!(o.status.success(), "{}", err(&o));
    let name = out(&o);
    let name = name.trim_start_matches("Saved as ").trim_end();
    assert!(name.len() <= 84 && name.ends_with(".svg"), "{name}");
    assert!(d.join(name).exists());
}

#[test]
fn bench_times_the_builtin_cases() {
    let o = rcute(&["bench", "--json", "--min-time", "1"], "");
    assert!(o.status.success(), "{}", err(&o));
    let rows: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(rows.len(), 33);
    assert_eq!(rows[0]["expr"], "((4,(4,2)):(4,(1,16)))(17)");
    assert!(rows.iter().all(|r| r["median_ns"].as_f64().is_some()));
    // the repository's copy, with the reference's time of every case
    let o = run_in(
        Some(&repo()),
        &[
            "bench",
            "--json",
            "--min-time",
            "1",
            "--reference",
            "bench/reference_ns.json",
        ],
        "",
    );
    assert!(o.status.success(), "{}", err(&o));
    let rows: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(rows.len(), 33);
    assert!(
        rows.iter().all(|r| r["reference_ns"].as_f64().is_some()),
        "{rows:?}"
    );
    let o = run_in(
        Some(&repo()),
        &["bench", "-f", "bench/cases.cute", "--min-time", "1"],
        "",
    );
    assert!(o.status.success());
    assert_eq!(out(&o).lines().count(), 34, "a header and 33 rows");
}

#[test]
fn memory_tensors_print_without_an_address() {
    let script = "T = make_tensor((2,3):(3,1))\nT(1, None)\nT(None, 2)\n";
    let first = out(&rcute(&["eval"], script));
    assert_eq!(
        first,
        "Array(6 x i64) o (2, 3):(3, 1)\nArray(6 x i64)+3 o (3,):(1,)\nArray(6 x i64)+2 o (2,):(3,)\n"
    );
    assert_eq!(out(&rcute(&["eval"], script)), first);
    let o = rcute(&["eval", "--style", "repr", "make_tensor(4:1)"], "");
    assert_eq!(out(&o), "Tensor(Array(4 x i64), 4:1)\n");
}

#[test]
fn code_styles() {
    let e = "composition(Swizzle(3,4,3), (8,8):(8,1))";
    for (style, want) in [
        (
            "cpp-type",
            "ComposedLayout<Swizzle<3,4,3>,_0,Layout<Shape<_8,_8>,Stride<_8,_1>>>",
        ),
        (
            "cpp-make",
            "composition(Swizzle<3,4,3>{}, make_layout(make_shape(8,8), make_stride(8,1)))",
        ),
        (
            "dsl",
            "cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 8), stride=(8, 1)))",
        ),
    ] {
        let o = rcute(&["eval", "--style", style, e], "");
        assert_eq!(out(&o), format!("{want}\n"), "{style}");
    }
    let o = rcute(&["eval", "--style", "cpp-type", "(4,8):(1,4)"], "");
    assert_eq!(out(&o), "Layout<Shape<_4,_8>,Stride<_1,_4>>\n");
    let o = rcute(&["eval", "--style", "dsl"], "(4,8):(1,4)\n(4,8):(F1,F4)\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        out(&o),
        "cute.make_layout((4, 8), stride=(1, 4))\n\
         error: type: --style dsl: the F2 value F1 has no form there (C++ CuTe and the CuTe DSL write XOR patterns as a Swizzle)\n"
    );
}

#[test]
fn help_names_every_subcommand_and_its_usage() {
    let o = rcute(&["help"], "");
    let first = out(&o).lines().next().unwrap_or_default().to_string();
    for sub in [
        "eval",
        "show",
        "draw",
        "bench",
        "help",
        "ops",
        "completions",
    ] {
        assert!(first.contains(sub), "{sub} not in {first:?}");
    }
    let o = rcute(&["help", "eval"], "");
    assert!(
        out(&o).contains("Usage: rcute eval [OPTIONS] [EXPR]"),
        "{}",
        out(&o)
    );
    assert!(!out(&o).contains("Usage: eval"));
}

/// The `$ rcute eval` / `$ rcute show` transcripts of the README and of
/// docs/drawing.md reproduce: each command (run by `sh`, standard error
/// merged) prints the lines below it; a line ending in `...` stands for a
/// longer one. A command shown without output only has to succeed or fail
/// as its text implies (it does not fail). `rcute draw` commands are left
/// to the drawing tests.
#[test]
fn readme_transcripts_reproduce() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_rcute"));
    let dir = bin.parent().map(Path::to_path_buf).unwrap_or_default();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let work = scratch("transcripts");
    let mut checked = 0;
    for file in ["README.md", "docs/drawing.md"] {
        let text = std::fs::read_to_string(repo().join(file)).expect("read the doc");
        let mut in_block = false;
        let mut cmds: Vec<(String, Vec<String>)> = Vec::new();
        let mut current = false;
        for line in text.lines() {
            if line.starts_with("```") {
                in_block = !in_block;
                current = false;
                continue;
            }
            if !in_block {
                continue;
            }
            if let Some(cmd) = line.strip_prefix("$ ") {
                cmds.push((cmd.to_string(), Vec::new()));
                current = true;
            } else if let (true, Some((_, out))) = (current, cmds.last_mut()) {
                out.push(line.to_string());
            }
        }
        for (cmd, mut want) in cmds {
            while want.last().is_some_and(|l| l.trim().is_empty()) {
                want.pop();
            }
            if !cmd.contains("rcute eval") && !cmd.contains("rcute show") {
                continue;
            }
            let o = Command::new("sh")
                .arg("-c")
                .arg(format!("{cmd} 2>&1"))
                .env("PATH", &path)
                .current_dir(&work)
                .output()
                .expect("run sh");
            let got = String::from_utf8_lossy(&o.stdout).into_owned();
            if want.is_empty() {
                assert!(o.status.success(), "{file}: `{cmd}` failed:\n{got}");
                continue;
            }
            let got: Vec<&str> = got.lines().collect();
            assert_eq!(
                got.len(),
                want.len(),
                "{file}: `{cmd}` printed\n{}",
                got.join("\n")
            );
            for (g, w) in got.iter().zip(&want) {
                let ok = match w.strip_suffix("...").or_else(|| w.strip_suffix("(...)")) {
                    Some(prefix) => g.starts_with(prefix.trim_end_matches('(')),
                    None => g == w,
                };
                assert!(ok, "{file}: `{cmd}`: got\n{g}\nwanted\n{w}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} transcripts found");
}
