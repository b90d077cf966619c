//! `rcute show` and `rcute draw` end to end.

use std::path::PathBuf;
use std::process::{Command, Output};

fn rcute(args: &[&str], dir: &PathBuf) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rcute"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run rcute")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("draw-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn show_formats() {
    let d = scratch("show");
    let o = rcute(&["show", "(2,(2,2)):(4,(2,1))"], &d);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        out(&o),
        [
            "(2,(2,2)):(4,(2,1))",
            "      0   1   2   3 ",
            "    +---+---+---+---+",
            " 0  | 0 | 2 | 1 | 3 |",
            "    +---+---+---+---+",
            " 1  | 4 | 6 | 5 | 7 |",
            "    +---+---+---+---+",
            ""
        ]
        .join("\n")
    );
    let o = rcute(&["show", "--format", "tensor", "(2,3,2):(1,2,6)"], &d);
    assert_eq!(
        out(&o),
        "(2, 3, 2):(1, 2, 6)\n0     2     4     \n1     3     5     \n--------  k = 1  -----------\n6     8     10    \n7     9     11    \n"
    );
    let o = rcute(&["show", "--format", "table", "(2,2):(-10,1)"], &d);
    assert_eq!(
        out(&o),
        "(2, 2):(-10, 1)\n+-----+----+\n|   0 |  1 |\n+-----+----+\n| -10 | -9 |\n+-----+----+\n"
    );
    // auto falls back to print_tensor for rank 1
    let o = rcute(&["show", "8:1"], &d);
    assert_eq!(
        out(&o),
        "8:1\n0     1     2     3     4     5     6     7     \n"
    );
    let o = rcute(
        &["show", "--format", "tensor", "identity_tensor((2,3))"],
        &d,
    );
    assert_eq!(
        out(&o),
        "{0} o (2, 3):(1@0, 1@1)\n0     1@1    2@1    \n1@0   (1, 1) (1, 2) \n"
    );
    // rank 2 coordinate values: the grid with integer headers
    let o = rcute(&["show", "identity_tensor((2,3))"], &d);
    assert!(
        out(&o).contains("\n 1  | (1,0) | (1,1) | (1,2) |\n"),
        "{}",
        out(&o)
    );
    // swizzled layouts; several statements
    let o = rcute(
        &[
            "show",
            "--no-type",
            "S = Swizzle(3,0,3)\ncomposition(S, (2,8):(8,1))",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains(" 1  |  9 |  8 | 11 | 10 | 13 | 12 | 15 | 14 |"),
        "{}",
        out(&o)
    );
    // errors
    let o = rcute(&["show", "3"], &d);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).starts_with("error: type:"), "{}", err(&o));
    let o = rcute(&["show", "--format", "layout", "8:1"], &d);
    assert!(err(&o).contains("Expected a rank-2 Layout"), "{}", err(&o));
}

#[test]
fn draw_svg_tex_png() {
    let d = scratch("formats");
    let o = rcute(&["draw", "(2,3):(3,1)", "-o", "a.svg", "--exact"], &d);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o), "Saved as a.svg\n");
    let svg = std::fs::read_to_string(d.join("a.svg")).unwrap();
    assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<svg baseProfile=\"full\" height=\"60\" version=\"1.1\" width=\"80\""));
    assert_eq!(svg.matches("<rect ").count(), 6);

    let o = rcute(&["draw", "(2,3):(3,1)", "-o", "a.tex"], &d);
    assert!(o.status.success(), "{}", err(&o));
    let tex = std::fs::read_to_string(d.join("a.tex")).unwrap();
    assert!(tex.contains("% Layout: (2, 3):(3, 1)\n"));

    let o = rcute(
        &[
            "draw",
            "(8,8):(F9,F1)",
            "--color",
            "bank_color_8x",
            "-o",
            "b.png",
        ],
        &d,
    );
    if cfg!(feature = "png") {
        assert!(o.status.success(), "{}", err(&o));
        let png = std::fs::read(d.join("b.png")).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    } else {
        // built without PNG support: a clear error, no file
        assert_eq!(o.status.code(), Some(1));
        assert!(
            err(&o).starts_with("error: value: PNG output is not available"),
            "{}",
            err(&o)
        );
        assert!(!d.join("b.png").exists());
    }

    // without -o: a file named after the expression (more in
    // `newcomer::draw_names_the_file_after_the_expression`)
    let o = rcute(&["draw", "(2,2):(1,2)"], &d);
    assert_eq!(out(&o), "Saved as 2_2_1_2.svg\n");
    assert!(d.join("2_2_1_2.svg").exists());
    let o = rcute(&["draw", "(4,2):(1@0,1@1)", "--tv"], &d);
    assert_eq!(out(&o), "Saved as tv_4_2_1_0_1_1.svg\n", "{}", err(&o));
}

#[test]
fn draw_tv_swizzled_and_labels() {
    let d = scratch("tv");
    let o = rcute(
        &[
            "draw",
            "((2,2),(2,)):((1,4),(2,))",
            "--tv",
            "(4,2)",
            "-o",
            "tv.tex",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", err(&o));
    let tex = std::fs::read_to_string(d.join("tv.tex")).unwrap();
    assert!(
        tex.contains("% Layout TV: ((2, 2), (2,)):((1@0, 1@1), (2@0,))\n"),
        "{tex}"
    );
    assert!(tex.contains("at (3,1) {\\shortstack{T3 \\\\ V1}};"));

    let o = rcute(
        &[
            "draw",
            "composition(Swizzle(3,3,3), (8,64):(64,1))",
            "--color",
            "bank:2",
            "-o",
            "s.svg",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(d.join("s.svg")).unwrap();
    assert_eq!(svg.matches("<rect ").count(), 8 * 64);

    let o = rcute(
        &[
            "draw",
            "zipped_divide((8,8):(1,8), (2,2))",
            "--label",
            "coord",
            "-o",
            "z.svg",
        ],
        &d,
    );
    assert!(o.status.success(), "{}", err(&o));
    let svg = std::fs::read_to_string(d.join("z.svg")).unwrap();
    assert!(svg.contains(">(1,1)</text>"));

    // errors: no file written
    for (args, what) in [
        (
            vec!["draw", "8:1", "-o", "e1.svg"],
            "Expected a rank-2 Layout",
        ),
        (
            vec!["draw", "(4,2):(1,4)", "--tv", "-o", "e2.svg"],
            "Expected a rank-2 MN Tile",
        ),
        (
            vec!["draw", "(2,2):(1,2)", "--color", "purple", "-o", "e3.svg"],
            "unknown colour",
        ),
        (
            vec!["draw", "(2,2):(1,2)", "-o", "e4.pdf"],
            "cannot tell the format",
        ),
        (
            vec![
                "draw",
                "composition(Swizzle(3,3,3), (8,64):(64,1))",
                "--tv",
                "-o",
                "e5.svg",
            ],
            "--tv draws a layout",
        ),
    ] {
        let o = rcute(&args, &d);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(err(&o).contains(what), "{args:?}: {}", err(&o));
        let file = args[args.len() - 1];
        assert!(!d.join(file).exists(), "{file} written despite the error");
    }
}
