//! Tests of the drawings (`docs/drawing.md`): the spec's exact outputs,
//! golden files, structural checks of the SVG, pixel checks of the PNG and
//! properties on random layouts.
//!
//! Golden files live in `tests/golden/`; `RCUTE_BLESS=1 cargo test -p rcute
//! --test all viz::` rewrites them (look at the PNGs before committing).

use std::path::PathBuf;

use proptest::prelude::*;
use rcute::viz::{self, Color, DrawOptions, Label, Rgb, View};
use rcute::{ErrorKind, HTuple, Layout, Scalar, Swizzle, SwizzledLayout};

// ---------------------------------------------------------------------------
// layout literals, read by the library's FromStr

use crate::common::parse;

fn lay(src: &str) -> Layout {
    parse(src)
}

fn shape(src: &str) -> HTuple<i64> {
    parse(src)
}

#[test]
fn reader_round_trips() {
    for s in [
        "(4, 8):(1, 4)",
        "((2, 2), (2,)):((1@0, 1@1), (2@0,))",
        "(8, 8):(F9, F1)",
        "8:1",
        "(2, 3):(1@0, 1@1@1)",
    ] {
        assert_eq!(lay(s).to_string(), s);
    }
}

// ---------------------------------------------------------------------------
// golden files

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn check_golden(name: &str, got: &[u8]) {
    let path = golden_dir().join(name);
    if std::env::var_os("RCUTE_BLESS").is_some() {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read(&path)
        .unwrap_or_else(|_| panic!("missing golden file {path:?} (run with RCUTE_BLESS=1)"));
    assert!(
        want == got,
        "{name} differs from its golden file:\n--- got ---\n{}",
        String::from_utf8_lossy(got)
    );
}

// ---------------------------------------------------------------------------
// section 2: print_tensor

#[test]
fn print_tensor_spec_examples() {
    let cases: [(&str, &str); 6] = [
        (
            "8:1",
            "8:1\n0     1     2     3     4     5     6     7     \n",
        ),
        (
            "(4,8):(1,4)",
            "(4, 8):(1, 4)
0     4     8     12    16    20    24    28    
1     5     9     13    17    21    25    29    
2     6     10    14    18    22    26    30    
3     7     11    15    19    23    27    31    
",
        ),
        (
            "(2,3,2):(1,2,6)",
            "(2, 3, 2):(1, 2, 6)
0     2     4     
1     3     5     
--------  k = 1  -----------
6     8     10    
7     9     11    
",
        ),
        (
            "(2,2,2,2):(1,2,4,8)",
            "(2, 2, 2, 2):(1, 2, 4, 8)
0     2     
1     3     
------  k = 1  --------
4     6     
5     7     
======  p = 1  ========
8     10    
9     11    
------  k = 1  --------
12    14    
13    15    
",
        ),
        (
            "(2,3):(100000,1)",
            "(2, 3):(100000, 1)
0     1     2     
100000 100001 100002 
",
        ),
        (
            "(2,3):(F1,F9)",
            "(2, 3):(F1, F9)
F0    F9    F18   
F1    F8    F19   
",
        ),
    ];
    for (l, want) in cases {
        assert_eq!(viz::print_tensor(&lay(l), true).unwrap(), want, "{l}");
    }
}

#[test]
fn print_tensor_without_type_and_ranks() {
    let l = lay("(2,3):(3,1)");
    assert_eq!(
        viz::print_tensor(&l, false).unwrap(),
        "0     1     2     \n3     4     5     \n"
    );
    // rank 5 and rank 0 are refused
    let e = viz::print_tensor(&lay("(1,1,1,1,1):(0,0,0,0,0)"), true).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.message().contains("Expected rank <= 4"));
    assert!(viz::print_tensor(&lay("():()"), true).is_err());
    // k >= 10 keeps the two-wide field
    let s = viz::print_tensor(&lay("(1,1,11):(0,0,1)"), false).unwrap();
    assert!(s.contains("--  k = 10 --"), "{s}");
    // a tensor view prints its own header
    let v = View::tensor(Scalar::Int(5), &lay("(2,):(1,)"));
    assert_eq!(
        viz::print_tensor(&v, true).unwrap(),
        "{5} o (2,):(1,)\n5     6     \n"
    );
    // coordinate values print with the same rule
    let s = viz::print_tensor(&lay("(2,2):(1@0,1@1)"), false).unwrap();
    assert_eq!(s, "0     1@1   \n1@0   (1, 1) \n");
}

// ---------------------------------------------------------------------------
// section 3: print_table

#[test]
fn print_table_spec_examples() {
    let cases: [(&str, &str); 5] = [
        (
            "(4,8):(1,4)",
            "(4, 8):(1, 4)
+---+---+----+----+----+----+----+----+
| 0 | 4 |  8 | 12 | 16 | 20 | 24 | 28 |
+---+---+----+----+----+----+----+----+
| 1 | 5 |  9 | 13 | 17 | 21 | 25 | 29 |
+---+---+----+----+----+----+----+----+
| 2 | 6 | 10 | 14 | 18 | 22 | 26 | 30 |
+---+---+----+----+----+----+----+----+
| 3 | 7 | 11 | 15 | 19 | 23 | 27 | 31 |
+---+---+----+----+----+----+----+----+
",
        ),
        (
            "(2,2):(-10,1)",
            "(2, 2):(-10, 1)
+-----+----+
|   0 |  1 |
+-----+----+
| -10 | -9 |
+-----+----+
",
        ),
        (
            "(2,3):(F1,F9)",
            "(2, 3):(F1, F9)
+----+----+-----+
| F0 | F9 | F18 |
+----+----+-----+
| F1 | F8 | F19 |
+----+----+-----+
",
        ),
        (
            "(2,3):(1@0,1@1)",
            "(2, 3):(1@0, 1@1)
+-----+--------+--------+
| 0   | 1@1    | 2@1    |
+-----+--------+--------+
| 1@0 | (1, 1) | (1, 2) |
+-----+--------+--------+
",
        ),
        ("8:1", "8:1\n{0} o 8:1\n"),
    ];
    for (l, want) in cases {
        assert_eq!(viz::print_table(&lay(l), true).unwrap(), want, "{l}");
    }
    assert_eq!(
        viz::print_table(&lay("(3,2,2):(1,3,6)"), false).unwrap(),
        "{0} o (3, 2, 2):(1, 3, 6)\n"
    );
}

// ---------------------------------------------------------------------------
// section 4: C++ print_layout

#[test]
fn print_layout_spec_examples() {
    assert_eq!(
        viz::print_layout(&lay("(2,(2,2)):(4,(2,1))")).unwrap(),
        "(2,(2,2)):(4,(2,1))
      0   1   2   3 
    +---+---+---+---+
 0  | 0 | 2 | 1 | 3 |
    +---+---+---+---+
 1  | 4 | 6 | 5 | 7 |
    +---+---+---+---+
"
    );
    assert_eq!(
        viz::print_layout(&lay("(2,3):(100,1)")).unwrap(),
        "(2,3):(100,1)
        0     1     2 
    +-----+-----+-----+
 0  |   0 |   1 |   2 |
    +-----+-----+-----+
 1  | 100 | 101 | 102 |
    +-----+-----+-----+
"
    );
}

#[test]
fn print_layout_rows_and_errors() {
    // rows >= 10 lose the leading pad; C++ cosize uses |stride|
    let s = viz::print_layout(&lay("(11,1):(1,0)")).unwrap();
    assert!(s.contains("\n10  | 10 |\n"), "{s}");
    let s = viz::print_layout(&lay("(2,2):(-10,1)")).unwrap();
    // cosize 12 -> width 4, "-10" overflows its 2-wide field like C++'s setw
    assert!(s.contains(" 1  | -10 | -9 |"), "{s}");
    assert_eq!(
        viz::print_layout(&lay("8:1")).unwrap_err().kind(),
        ErrorKind::Value
    );
    assert_eq!(
        viz::print_layout(&lay("(2,2):(1@0,1@1)"))
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
    // F2 values print as integers
    let s = viz::print_layout(&lay("(2,2):(F1,F3)")).unwrap();
    assert!(s.contains("| 0 | 3 |") && s.contains("| 1 | 2 |"), "{s}");
}

// ---------------------------------------------------------------------------
// section 5: C++ print_tensor

#[test]
fn print_tensor_cpp_spec_example() {
    assert_eq!(
        viz::print_tensor_cpp(&lay("(2,3,2):(1,2,6)"), "ptr[32b](0x7ffc4efa6d20)").unwrap(),
        "ptr[32b](0x7ffc4efa6d20) o (2,3,2):(1,2,6):
    0    2    4
    1    3    5
---------------
    6    8   10
    7    9   11
"
    );
    assert_eq!(
        viz::print_tensor_cpp(&lay("3:2"), "it").unwrap(),
        "it o 3:2:\n    0\n    2\n    4\n"
    );
}

// ---------------------------------------------------------------------------
// section 6: colours

#[test]
fn colour_tables() {
    assert_eq!(
        (0..8).map(viz::bank_color_8x).collect::<Vec<_>>(),
        vec![
            Rgb(255, 128, 128),
            Rgb(255, 223, 128),
            Rgb(191, 255, 128),
            Rgb(128, 255, 159),
            Rgb(128, 255, 255),
            Rgb(128, 159, 255),
            Rgb(191, 128, 255),
            Rgb(255, 128, 223)
        ]
    );
    for i in -40..40i64 {
        assert_eq!(
            viz::bank_color_16x(i),
            viz::SPEC32[2 * i.rem_euclid(16) as usize]
        );
        assert_eq!(
            viz::bank_color_32x(i),
            viz::SPEC32[i.rem_euclid(32) as usize]
        );
        assert_eq!(viz::index_grey_8x(i), viz::GREY8[i.rem_euclid(8) as usize]);
        assert_eq!(
            viz::thread_color_8x(i, 3),
            viz::TV8[i.rem_euclid(8) as usize]
        );
        assert_eq!(
            viz::value_color_8x(3, i),
            viz::TV8[i.rem_euclid(8) as usize]
        );
        assert_eq!(
            viz::warp_color_8x(i * 16, 0),
            viz::TV8[(i * 16).div_euclid(32).rem_euclid(8) as usize]
        );
    }
    assert_eq!(viz::GREY8[7], Rgb(80, 80, 80));
    assert_eq!(viz::TV8[4], Rgb(210, 210, 255));
    assert_eq!(viz::SPEC32[11], Rgb(128, 255, 135));
    assert_eq!(viz::SPEC32[22], Rgb(143, 128, 255));
    // names, constants, wrong kinds
    for n in [
        "index_grey_8x",
        "bank_color_8x",
        "bank_color_16x",
        "bank_color_32x",
        "thread_color_8x",
        "value_color_8x",
        "warp_color_8x",
        "white",
    ] {
        assert_eq!(Color::from_name(n).unwrap().name(), n);
    }
    assert_eq!(
        Color::from_name("rgb(9,8,7)")
            .unwrap()
            .of_offset(3)
            .unwrap(),
        Rgb(9, 8, 7)
    );
    assert_eq!(Color::White.of_tv(1, 2).unwrap(), Rgb(255, 255, 255));
    assert_eq!(
        Color::ThreadColor8x.of_offset(1).unwrap_err().kind(),
        ErrorKind::Type
    );
    assert_eq!(
        Color::IndexGrey8x.of_tv(1, 1).unwrap_err().kind(),
        ErrorKind::Type
    );
    // bank of 2-byte elements: floor(o * 2 / 4) mod 32
    let b = Color::from_name("bank:2").unwrap();
    assert_eq!(b.of_offset(65).unwrap(), viz::SPEC32[0]);
    assert_eq!(b.of_offset(3).unwrap(), viz::SPEC32[1]);
    assert!(Color::from_name("bank:0").is_err());
}

// ---------------------------------------------------------------------------
// section 7: draw_svg

const SPEC_SVG: &str = "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<svg baseProfile=\"full\" height=\"60\" version=\"1.1\" width=\"80\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:ev=\"http://www.w3.org/2001/xml-events\" xmlns:xlink=\"http://www.w3.org/1999/xlink\"><defs /><rect fill=\"rgb(255,255,255)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"20\" y=\"20\" /><text dy=\"0.35em\" font-size=\"8px\" text-anchor=\"middle\" x=\"30\" y=\"30\">0</text><rect fill=\"rgb(230,230,230)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"40\" y=\"20\" /><text dy=\"0.35em\" font-size=\"8px\" text-anchor=\"middle\" x=\"50\" y=\"30\">1</text><rect fill=\"rgb(205,205,205)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"60\" y=\"20\" /><text dy=\"0.35em\" font-size=\"8px\" text-anchor=\"middle\" x=\"70\" y=\"30\">2</text><rect fill=\"rgb(180,180,180)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"20\" y=\"40\" /><text dy=\"0.35em\" font-size=\"8px\" text-anchor=\"middle\" x=\"30\" y=\"50\">3</text><rect fill=\"rgb(155,155,155)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"40\" y=\"40\" /><text dy=\"0.35em\" font-size=\"8px\" text-anchor=\"middle\" x=\"50\" y=\"50\">4</text><rect fill=\"rgb(130,130,130)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"60\" y=\"40\" /><text dy=\"0.35em\" font-size=\"8px\" text-anchor=\"middle\" x=\"70\" y=\"50\">5</text><text dy=\"0.35em\" font-size=\"10px\" text-anchor=\"middle\" x=\"10\" y=\"30\">0</text><text dy=\"0.35em\" font-size=\"10px\" text-anchor=\"middle\" x=\"10\" y=\"50\">1</text><text dy=\"0.35em\" font-size=\"10px\" text-anchor=\"middle\" x=\"30\" y=\"10\">0</text><text dy=\"0.35em\" font-size=\"10px\" text-anchor=\"middle\" x=\"50\" y=\"10\">1</text><text dy=\"0.35em\" font-size=\"10px\" text-anchor=\"middle\" x=\"70\" y=\"10\">2</text></svg>";

#[test]
fn draw_svg_spec_example() {
    let l = lay("(2,3):(3,1)");
    assert_eq!(viz::draw_svg(&l, &Color::IndexGrey8x).unwrap(), SPEC_SVG);
    // the default options are the reference
    assert_eq!(
        viz::draw_svg_with(&l, &DrawOptions::default()).unwrap(),
        SPEC_SVG
    );
    // coordinate labels of flat modes are the indices: same document
    let o = DrawOptions {
        label: Label::Coord,
        fit: true,
        ..DrawOptions::default()
    };
    assert_eq!(viz::draw_svg_with(&l, &o).unwrap(), SPEC_SVG);
}

#[test]
fn draw_svg_errors() {
    let e = viz::draw_svg(&lay("8:1"), &Color::IndexGrey8x).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value);
    assert!(e.message().contains("Expected a rank-2 Layout"), "{e}");
    let e = viz::draw_svg(&lay("(2,2,2):(1,2,4)"), &Color::IndexGrey8x).unwrap_err();
    assert!(e.message().contains("Expected a rank-2 Layout"), "{e}");
    let e = viz::draw_svg(&lay("(2,2):(1@0,1@1)"), &Color::IndexGrey8x).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    let e = viz::draw_svg(&lay("(2,2):(1,2)"), &Color::ThreadColor8x).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    let e = viz::draw_svg(&lay("(2048,2048):(1,2048)"), &Color::IndexGrey8x).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Value);
    let e = viz::draw_latex(&lay("(2,2,2):(1,2,4)"), &Color::IndexGrey8x).unwrap_err();
    assert!(e.message().contains("Expected a rank-2 Layout"), "{e}");
}

/// Parses the `<rect>` and `<text>` elements of an SVG produced here.
#[derive(Debug, Default)]
struct Svg {
    width: i64,
    height: i64,
    rects: Vec<(String, i64, i64, i64)>,    // fill, x, y, width
    texts: Vec<(String, i64, i64, String)>, // font-size, x, y, content
}

fn attr(el: &str, name: &str) -> String {
    let key = format!(" {name}=\"");
    let i = el.find(&key).unwrap_or_else(|| panic!("no {name} in {el}")) + key.len();
    let j = el[i..].find('"').unwrap();
    el[i..i + j].to_string()
}

fn parse_svg(s: &str) -> Svg {
    let mut out = Svg::default();
    let head = &s[..s.find("<defs />").unwrap()];
    out.width = attr(head, "width").parse().unwrap();
    out.height = attr(head, "height").parse().unwrap();
    let body = &s[s.find("<defs />").unwrap() + 8..s.len() - "</svg>".len()];
    let mut rest = body;
    while !rest.is_empty() {
        if rest.starts_with("<rect ") {
            let end = rest.find("/>").unwrap() + 2;
            let el = &rest[..end];
            out.rects.push((
                attr(el, "fill"),
                attr(el, "x").parse().unwrap(),
                attr(el, "y").parse().unwrap(),
                attr(el, "width").parse().unwrap(),
            ));
            rest = &rest[end..];
        } else if rest.starts_with("<text ") {
            let end = rest.find("</text>").unwrap() + 7;
            let el = &rest[..end];
            let gt = el.find('>').unwrap();
            out.texts.push((
                attr(el, "font-size"),
                attr(el, "x").parse().unwrap(),
                attr(el, "y").parse().unwrap(),
                el[gt + 1..el.len() - 7].to_string(),
            ));
            rest = &rest[end..];
        } else {
            panic!("unexpected element at {rest}");
        }
    }
    out
}

#[test]
fn draw_svg_structure_f2_swizzle_pattern() {
    // docs/operations.md: the bank of (i, j) is i XOR j
    let l = lay("(8,8):(F9,F1)");
    let svg = parse_svg(&viz::draw_svg(&l, &Color::BankColor8x).unwrap());
    assert_eq!((svg.width, svg.height), (180, 180));
    assert_eq!(svg.rects.len(), 64);
    assert_eq!(svg.texts.len(), 64 + 16);
    for i in 0..8i64 {
        for j in 0..8i64 {
            let (fill, x, y, _) = &svg.rects[(i * 8 + j) as usize];
            assert_eq!((*x, *y), (20 + 20 * j, 20 + 20 * i));
            assert_eq!(*fill, viz::bank_color_8x(i ^ j).to_string());
            let (_, tx, ty, label) = &svg.texts[(i * 8 + j) as usize];
            assert_eq!((*tx, *ty), (30 + 20 * j, 30 + 20 * i));
            assert_eq!(*label, ((i * 9) ^ j).to_string());
        }
    }
    // every row and every column covers all 8 banks
    for k in 0..8usize {
        let row: std::collections::HashSet<_> = (0..8).map(|j| &svg.rects[k * 8 + j].0).collect();
        let col: std::collections::HashSet<_> = (0..8).map(|i| &svg.rects[i * 8 + k].0).collect();
        assert_eq!((row.len(), col.len()), (8, 8));
    }
}

#[test]
fn draw_svg_coord_labels_and_fit() {
    // zipped_divide((8,8):(1,8), (2,2)) = ((2,2),(4,4)):((1,8),(2,16))
    let l = lay("((2,2),(4,4)):((1,8),(2,16))");
    let o = DrawOptions {
        label: Label::Coord,
        ..DrawOptions::default()
    };
    let svg = parse_svg(&viz::draw_svg_with(&l, &o).unwrap());
    let labels: Vec<&str> = svg
        .texts
        .iter()
        .filter(|t| t.0 == "10px")
        .map(|t| t.3.as_str())
        .collect();
    assert_eq!(&labels[..4], &["(0,0)", "(1,0)", "(0,1)", "(1,1)"]);
    assert_eq!(labels[4 + 5], "(1,1)"); // column 5 of (4,4)
    assert_eq!(labels.len(), 4 + 16);
    // fit widens cells for five-digit offsets and keeps 20 px otherwise
    let big = lay("(2,3):(10000,1)");
    let fit = DrawOptions {
        fit: true,
        ..DrawOptions::default()
    };
    let svg = parse_svg(&viz::draw_svg_with(&big, &fit).unwrap());
    let w = svg.rects[0].3;
    assert!(w > 20 && w % 2 == 0, "{w}");
    assert_eq!(svg.width, 20 + 3 * w);
    let svg = parse_svg(&viz::draw_svg_with(&lay("(2,3):(100,1)"), &fit).unwrap());
    assert_eq!(svg.rects[0].3, 20);
}

#[test]
fn draw_svg_goldens() {
    let cases: [(&str, &str, Color); 5] = [
        ("layout_4x8_colmajor", "(4,8):(1,4)", Color::IndexGrey8x),
        (
            "layout_hier",
            "((2,2),(2,4)):((1,8),(2,16))",
            Color::IndexGrey8x,
        ),
        (
            "layout_f2_swizzle_banks",
            "(8,8):(F9,F1)",
            Color::BankColor8x,
        ),
        ("layout_rowmajor_banks", "(8,8):(8,1)", Color::BankColor8x),
        ("layout_negative", "(3,4):(-1,3)", Color::IndexGrey8x),
    ];
    for (name, l, c) in cases {
        let l = lay(l);
        check_golden(
            &format!("{name}.svg"),
            viz::draw_svg(&l, &c).unwrap().as_bytes(),
        );
        check_golden(
            &format!("{name}.tex"),
            viz::draw_latex(&l, &c).unwrap().as_bytes(),
        );
        let mut txt = viz::print_layout(&l).unwrap_or_default();
        txt.push_str(&viz::print_tensor(&l, true).unwrap());
        txt.push_str(&viz::print_table(&l, true).unwrap());
        check_golden(&format!("{name}.txt"), txt.as_bytes());
    }
}

// ---------------------------------------------------------------------------
// swizzled layouts (docs/operations.md)

fn swizzled(b: i64, m: i64, sh: i64, l: &str) -> SwizzledLayout {
    SwizzledLayout::new(Swizzle::new(b, m, sh).unwrap(), lay(l)).unwrap()
}

#[test]
fn swizzled_layout_printers() {
    // Swizzle(3,0,3) o (8,8):(8,1): row i holds 8i + (j XOR i)
    let s = swizzled(3, 0, 3, "(8,8):(8,1)");
    let t = viz::print_tensor(&s, true).unwrap();
    let mut lines = t.lines();
    assert_eq!(lines.next(), Some("SW_3_0_3 o (8, 8):(8, 1)"));
    for (i, line) in lines.enumerate() {
        let got: Vec<i64> = line
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        let want: Vec<i64> = (0..8).map(|j| 8 * i as i64 + (j ^ i as i64)).collect();
        assert_eq!(got, want, "row {i}");
    }
    let p = viz::print_layout(&s).unwrap();
    assert!(p.starts_with("Sw<3,0,3> o (8,8):(8,1)\n"), "{p}");
    assert!(
        p.contains(" 1  |  9 |  8 | 11 | 10 | 13 | 12 | 15 | 14 |"),
        "{p}"
    );
    let tab = viz::print_table(&s, false).unwrap();
    assert!(tab.contains("|  9 |  8 | 11 |"), "{tab}");
}

#[test]
fn swizzled_bank_colouring() {
    // the swizzle and its F2 form draw the same picture
    let s = swizzled(3, 0, 3, "(8,8):(8,1)");
    let f2 = s.to_f2_layout().unwrap();
    let a = viz::draw_svg(&s, &Color::BankColor8x).unwrap();
    assert_eq!(a, viz::draw_svg(&f2, &Color::BankColor8x).unwrap());
    let p = parse_svg(&a);
    for i in 0..8usize {
        let fills: std::collections::HashSet<_> = (0..8).map(|j| &p.rects[j * 8 + i].0).collect();
        assert_eq!(fills.len(), 8, "column {i} covers all 8 banks");
    }
    // half-precision smem tile: 8 x 64 elements of 2 bytes, 128 B per row
    let plain = lay("(8,64):(64,1)");
    let sw = swizzled(3, 3, 3, "(8,64):(64,1)");
    let bank = Color::Bank { elem_bytes: 2 };
    let count_col0 = |svg: &str| {
        let p = parse_svg(svg);
        (0..8)
            .map(|i| p.rects[i * 64].0.clone())
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    let a = viz::draw_svg(&plain, &bank).unwrap();
    let b = viz::draw_svg(&sw, &bank).unwrap();
    assert_eq!(count_col0(&a), 1); // column 0 of the plain tile: one bank, 8-way conflict
    assert_eq!(count_col0(&b), 8); // swizzled: 8 different banks
    check_golden("swizzled_8x64_bank2.svg", b.as_bytes());
    let tex = viz::draw_latex(&sw, &bank).unwrap();
    assert!(tex.contains("% Layout: SW_3_3_3 o (8, 64):(64, 1)\n"));
    check_golden("swizzled_8x64_bank2.tex", tex.as_bytes());
}

// ---------------------------------------------------------------------------
// section 8: draw_svg_tv

#[test]
fn draw_svg_tv_coordinate_codomain() {
    // the folded form of the spec example, drawn directly
    let l = lay("((2,2),(2,)):((1@0,1@1),(2@0,))");
    let svg = viz::draw_svg_tv(&l, None, &Color::ThreadColor8x).unwrap();
    let p = parse_svg(&svg);
    assert_eq!((p.width, p.height), (60, 100));
    // 8 white cells, then 8 coloured
    assert!(p.rects[..8].iter().all(|r| r.0 == "white"));
    let want = [
        (0, 0, 0, 0),
        (0, 1, 2, 0),
        (1, 0, 1, 0),
        (1, 1, 3, 0),
        (2, 0, 0, 1),
        (2, 1, 2, 1),
        (3, 0, 1, 1),
        (3, 1, 3, 1),
    ]; // (tid, vid, row, col)
    for (k, (tid, vid, row, col)) in want.iter().enumerate() {
        let r = &p.rects[8 + k];
        assert_eq!(r.0, viz::TV8[*tid].to_string());
        assert_eq!((r.1, r.2), (20 + 20 * col, 20 + 20 * row));
        let t = &p.texts[2 * k];
        let v = &p.texts[2 * k + 1];
        assert_eq!(t.3, format!("T{tid}"));
        assert_eq!(v.3, format!("V{vid}"));
        assert_eq!((t.2, v.2), (25 + 20 * row, 35 + 20 * row));
    }
    let tex = viz::draw_latex_tv(&l, Some(&shape("(4,2)")), &Color::ThreadColor8x).unwrap();
    check_golden("tv_coord_4x2.tex", tex.as_bytes());
    check_golden("tv_coord_4x2.svg", svg.as_bytes());
}

#[test]
fn draw_tv_first_hit_and_uncovered() {
    // two threads on the same cell: T0 wins; (1, 1) stays white
    let l = lay("(2,2):(0@1,1@0)");
    let svg =
        parse_svg(&viz::draw_svg_tv(&l, Some(&shape("(2,2)")), &Color::ThreadColor8x).unwrap());
    assert_eq!(svg.rects.len(), 4 + 2);
    assert!(svg.texts.iter().any(|t| t.3 == "T0"));
    assert!(!svg.texts.iter().any(|t| t.3 == "T1"));
    // only column 0 is coloured
    assert!(svg.rects[4..].iter().all(|r| r.1 == 20));
    let tex = viz::draw_latex_tv(&lay("(2,2):(1@1,1@0)"), None, &Color::ValueColor8x).unwrap();
    assert_eq!(tex.matches("\\node[fill=").count(), 4);
}

#[test]
fn draw_tv_errors() {
    let c = Color::ThreadColor8x;
    let e = viz::draw_svg_tv(&lay("8:1"), None, &c).unwrap_err();
    assert!(e.message().contains("Expected a rank-2 TV Layout"), "{e}");
    // integer codomain without a tile: scalar coshape
    let e = viz::draw_svg_tv(&lay("(4,2):(1,4)"), None, &c).unwrap_err();
    assert!(e.message().contains("Expected a rank-2 MN Tile"), "{e}");
    let e = viz::draw_svg_tv(&lay("(4,2):(1@0,1@1)"), Some(&shape("8")), &c).unwrap_err();
    assert!(e.message().contains("Expected a rank-2 MN Tile"), "{e}");
    // one axis only
    let e = viz::draw_svg_tv(&lay("(4,2):(1@0,4@0)"), Some(&shape("(8,1)")), &c).unwrap_err();
    assert!(e.message().contains("Expected a 2D codomain"), "{e}");
    // outside the tile
    let e = viz::draw_svg_tv(&lay("(4,2):(1@0,1@1)"), Some(&shape("(2,2)")), &c).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Bounds);
    // an offset colouring
    let e = viz::draw_svg_tv(&lay("(4,2):(1@0,1@1)"), None, &Color::BankColor8x).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
}

/// The spec's example: offsets folded column-major through the tile by
/// `composition(tile, L)`.
#[test]
fn draw_tv_folds_offsets_through_the_tile() {
    let l = lay("((2,2),(2,)):((1,4),(2,))");
    let tex = viz::draw_latex_tv(&l, Some(&shape("(4,2)")), &Color::ThreadColor8x).unwrap();
    let body = "% Layout TV: ((2, 2), (2,)):((1@0, 1@1), (2@0,))
\\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};
\\node[fill={rgb,255:red,175;green,175;blue,255}] at (2,0) {\\shortstack{T0 \\\\ V1}};
\\node[fill={rgb,255:red,175;green,255;blue,175}] at (1,0) {\\shortstack{T1 \\\\ V0}};
\\node[fill={rgb,255:red,175;green,255;blue,175}] at (3,0) {\\shortstack{T1 \\\\ V1}};
\\node[fill={rgb,255:red,255;green,255;blue,175}] at (0,1) {\\shortstack{T2 \\\\ V0}};
\\node[fill={rgb,255:red,255;green,255;blue,175}] at (2,1) {\\shortstack{T2 \\\\ V1}};
\\node[fill={rgb,255:red,255;green,175;blue,175}] at (1,1) {\\shortstack{T3 \\\\ V0}};
\\node[fill={rgb,255:red,255;green,175;blue,175}] at (3,1) {\\shortstack{T3 \\\\ V1}};

\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (4,2);

\\node at (0,-1) {\\Large{\\texttt{0}}};
\\node at (1,-1) {\\Large{\\texttt{1}}};
\\node at (2,-1) {\\Large{\\texttt{2}}};
\\node at (3,-1) {\\Large{\\texttt{3}}};
\\node at (-1,0) {\\Large{\\texttt{0}}};
\\node at (-1,1) {\\Large{\\texttt{1}}};
\\end{tikzpicture}
\\end{document}
";
    assert!(tex.ends_with(body), "{tex}");
    let direct = lay("((2,2),(2,)):((1@0,1@1),(2@0,))");
    let a = viz::draw_svg_tv(&l, Some(&shape("(4,2)")), &Color::ThreadColor8x).unwrap();
    let b = viz::draw_svg_tv(&direct, Some(&shape("(4,2)")), &Color::ThreadColor8x).unwrap();
    assert_eq!(a, b);
}

// ---------------------------------------------------------------------------
// section 9: draw_latex

const SPEC_TEX: &str = "\\documentclass{standalone}
\\usepackage{tikz}

\\begin{document}
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]

% Layout: (2, 3):(3, 1)
\\node[fill={rgb,255:red,255;green,255;blue,255}] at (0,0) {0};
\\node[fill={rgb,255:red,230;green,230;blue,230}] at (0,1) {1};
\\node[fill={rgb,255:red,205;green,205;blue,205}] at (0,2) {2};
\\node[fill={rgb,255:red,180;green,180;blue,180}] at (1,0) {3};
\\node[fill={rgb,255:red,155;green,155;blue,155}] at (1,1) {4};
\\node[fill={rgb,255:red,130;green,130;blue,130}] at (1,2) {5};

\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,3);

\\node at (0,-1) {\\Large{\\texttt{0}}};
\\node at (1,-1) {\\Large{\\texttt{1}}};
\\node at (-1,0) {\\Large{\\texttt{0}}};
\\node at (-1,1) {\\Large{\\texttt{1}}};
\\node at (-1,2) {\\Large{\\texttt{2}}};
\\end{tikzpicture}
\\end{document}
";

#[test]
fn draw_latex_spec_example() {
    let l = lay("(2,3):(3,1)");
    assert_eq!(viz::draw_latex(&l, &Color::IndexGrey8x).unwrap(), SPEC_TEX);
    assert_eq!(
        viz::draw_latex_with(&l, &DrawOptions::default()).unwrap(),
        SPEC_TEX
    );
}

#[test]
fn draw_latex_coord_labels() {
    let l = lay("((2,2),3):((1,2),4)");
    let o = DrawOptions {
        label: Label::Coord,
        ..DrawOptions::default()
    };
    let tex = viz::draw_latex_with(&l, &o).unwrap();
    assert!(tex.contains("\\node[anchor=east] at (3,-0.6) {\\Large{\\texttt{(1,1)}}};"));
    assert!(tex.contains("\\node at (-1,2) {\\Large{\\texttt{2}}};"));
}

// ---------------------------------------------------------------------------
// PNG

#[cfg(feature = "png")]
mod png {
    use super::*;

    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let pm = tiny_skia::Pixmap::decode_png(png).unwrap();
        (pm.width(), pm.height(), pm.data().to_vec())
    }

    fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> Rgb {
        let k = ((y * img.0 + x) * 4) as usize;
        Rgb(img.2[k], img.2[k + 1], img.2[k + 2])
    }

    #[test]
    fn png_cells_have_their_fill() {
        let l = lay("(8,8):(F9,F1)");
        let opts = DrawOptions::with_color(Color::BankColor8x);
        let png = viz::draw_png(&l, &opts, Some(2.0)).unwrap();
        let img = decode(&png);
        assert_eq!((img.0, img.1), (360, 360));
        for (i, j) in [(0u32, 0u32), (3, 5), (7, 7), (6, 1)] {
            // a point inside the cell, away from the border and the label
            let (x, y) = ((20 + 20 * j + 3) * 2, (20 + 20 * i + 3) * 2);
            assert_eq!(
                pixel(&img, x, y),
                viz::bank_color_8x(i64::from(i ^ j)),
                "cell ({i}, {j})"
            );
            // the cell border is black
            let bx = (20 + 20 * j) * 2;
            let p = pixel(&img, bx, y);
            assert!(
                p.0 < 60 && p.1 < 60 && p.2 < 60,
                "border of ({i}, {j}): {p:?}"
            );
        }
        // the margin is white and the labels are drawn (dark pixels in a label box)
        assert_eq!(pixel(&img, 2, 2), Rgb(255, 255, 255));
        let dark = (0..20u32)
            .flat_map(|dy| (0..12u32).map(move |dx| (dx, dy)))
            .filter(|&(dx, dy)| {
                let p = pixel(&img, 2 * 30 - 6 + dx, 2 * 30 - 10 + dy);
                p.0 < 128
            })
            .count();
        assert!(dark > 5, "no label text rendered in cell (0, 0)");
        check_golden("layout_f2_swizzle_banks.png", &png);
    }

    #[test]
    fn png_tv_and_goldens() {
        let l = lay("((2,2),(2,)):((1@0,1@1),(2@0,))");
        let png = viz::draw_png_tv(&l, None, &DrawOptions::default(), Some(2.0)).unwrap();
        let img = decode(&png);
        assert_eq!((img.0, img.1), (120, 200));
        // T2/V0 at row 0, column 1
        assert_eq!(pixel(&img, (40 + 2) * 2, (20 + 2) * 2), viz::TV8[2]);
        check_golden("tv_coord_4x2.png", &png);
        let l = lay("((2,2),(2,4)):((1,8),(2,16))");
        let o = DrawOptions {
            label: Label::Coord,
            ..DrawOptions::default()
        };
        check_golden(
            "layout_hier_coord.png",
            &viz::draw_png(&l, &o, None).unwrap(),
        );
        let sw = swizzled(3, 3, 3, "(8,64):(64,1)");
        let bank = DrawOptions::with_color(Color::Bank { elem_bytes: 2 });
        check_golden(
            "swizzled_8x64_bank2.png",
            &viz::draw_png(&sw, &bank, None).unwrap(),
        );
        check_golden(
            "layout_4x8_colmajor.png",
            &viz::draw_png(&lay("(4,8):(1,4)"), &DrawOptions::default(), None).unwrap(),
        );
    }

    #[test]
    fn png_large_layout() {
        let l = lay("(128,256):(256,1)");
        let o = DrawOptions {
            fit: true,
            ..DrawOptions::default()
        };
        let png = viz::draw_png(&l, &o, None).unwrap();
        let img = decode(&png);
        assert!(img.0 > 256 * 20 && img.1 > 128 * 20);
        assert!(viz::draw_png(&l, &o, Some(0.0)).is_err());
        assert!(viz::draw_png(&l, &o, Some(4.0)).is_err()); // over 64 megapixels
    }
}

// ---------------------------------------------------------------------------
// properties

fn small_layout() -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(1i64..5, 2..=2),
        prop::collection::vec(-9i64..10, 2..=2),
        prop::collection::vec(1i64..4, 0..=2),
    )
        .prop_map(|(s, d, extra)| {
            // a rank-2 layout whose mode 1 may be hierarchical
            let mut shape = vec![HTuple::leaf(s[0])];
            let mut stride = vec![HTuple::leaf(Scalar::Int(d[0]))];
            if extra.is_empty() {
                shape.push(HTuple::leaf(s[1]));
                stride.push(HTuple::leaf(Scalar::Int(d[1])));
            } else {
                let mut sub = vec![s[1]];
                sub.extend(&extra);
                let n = sub.len();
                shape.push(HTuple::flat(sub));
                stride.push(HTuple::flat(
                    (0..n).map(|k| Scalar::Int(d[1] * (k as i64 + 1) - 3)),
                ));
            }
            Layout::new(HTuple::tuple(shape), HTuple::tuple(stride)).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// draw_svg: one rect and one label per cell, at the reference's
    /// position, with the value of the layout and the colour of that value.
    #[test]
    fn svg_cells_match_layout(l in small_layout()) {
        let svg = parse_svg(&viz::draw_svg(&l, &Color::BankColor32x).unwrap());
        let m = rcute::shape::size(l.shape().mode(0).unwrap()).unwrap();
        let n = rcute::shape::size(l.shape().mode(1).unwrap()).unwrap();
        prop_assert_eq!(svg.rects.len() as i64, m * n);
        prop_assert_eq!(svg.texts.len() as i64, m * n + m + n);
        prop_assert_eq!((svg.width, svg.height), (20 + 20 * n, 20 + 20 * m));
        for i in 0..m {
            for j in 0..n {
                let k = (i * n + j) as usize;
                // L(i, j) through the layout's own evaluation (idx2crd per mode)
                let c = HTuple::tuple([
                    HTuple::leaf(Some(Scalar::Int(i))),
                    HTuple::leaf(Some(Scalar::Int(j))),
                ]);
                let v = l.eval(c.as_ref()).unwrap().as_int().unwrap();
                prop_assert_eq!(&svg.rects[k].0, &viz::bank_color_32x(v).to_string());
                prop_assert_eq!((svg.rects[k].1, svg.rects[k].2), (20 + 20 * j, 20 + 20 * i));
                prop_assert_eq!(&svg.texts[k].3, &v.to_string());
            }
        }
    }

    /// print_tensor / print_table / print_layout / draw_latex agree on the
    /// cell values.
    #[test]
    fn printers_agree(l in small_layout()) {
        let m = rcute::shape::size(l.shape().mode(0).unwrap()).unwrap() as usize;
        let n = rcute::shape::size(l.shape().mode(1).unwrap()).unwrap() as usize;
        let t = viz::print_tensor(&l, false).unwrap();
        let rows: Vec<Vec<&str>> = t.lines().map(|r| r.split_whitespace().collect()).collect();
        prop_assert_eq!(rows.len(), m);
        let tab = viz::print_table(&l, false).unwrap();
        let tab_rows: Vec<Vec<&str>> = tab
            .lines()
            .filter(|r| r.starts_with('|'))
            .map(|r| r.split('|').map(str::trim).filter(|x| !x.is_empty()).collect())
            .collect();
        let pl = viz::print_layout(&l).unwrap();
        let pl_rows: Vec<Vec<&str>> = pl
            .lines()
            .filter(|r| r.contains('|'))
            .map(|r| r.split('|').skip(1).map(str::trim).filter(|x| !x.is_empty()).collect())
            .collect();
        let tex = viz::draw_latex(&l, &Color::IndexGrey8x).unwrap();
        for i in 0..m {
            prop_assert_eq!(rows[i].len(), n);
            prop_assert_eq!(&tab_rows[i], &rows[i]);
            prop_assert_eq!(&pl_rows[i], &rows[i]);
            for (j, cell) in rows[i].iter().enumerate() {
                let node = format!("at ({i},{j}) {{{cell}}};");
                prop_assert!(tex.contains(&node), "{}", node);
            }
        }
        // every print_table line has the same length
        let lens: std::collections::HashSet<usize> = tab.lines().map(|x| x.len()).collect();
        prop_assert_eq!(lens.len(), 1);
    }

    /// TV drawing: every cell reached is drawn exactly once, by the first
    /// (tid, vid) in tid-major order, and the rest stay white.
    #[test]
    fn tv_first_hit(st in 1i64..5, sv in 1i64..4, a in 0i64..3, b in 0i64..3, c in 0i64..3, d in 0i64..3) {
        let m = 1 + a * (st - 1) + c * (sv - 1);
        let n = 1 + b * (st - 1) + d * (sv - 1);
        let stride = HTuple::flat([
            Scalar::basis(a, &[0]).add(&Scalar::basis(b, &[1])).unwrap(),
            Scalar::basis(c, &[0]).add(&Scalar::basis(d, &[1])).unwrap(),
        ]);
        let l = Layout::new(HTuple::flat([st, sv]), stride).unwrap();
        let tile = HTuple::flat([m, n]);
        let r = viz::draw_svg_tv(&l, Some(&tile), &Color::ValueColor8x);
        // the codomain must have two explicit axes
        let sum = Scalar::basis(a + c, &[0]).add(&Scalar::basis(b + d, &[1])).unwrap();
        let two_axes = matches!(&sum, Scalar::Coord(x) if x.children().len() == 2);
        if !two_axes {
            prop_assert!(r.is_err());
            return Ok(());
        }
        let svg = parse_svg(&r.unwrap());
        let mut first = std::collections::HashMap::new();
        for t in 0..st {
            for v in 0..sv {
                first.entry((a * t + c * v, b * t + d * v)).or_insert((t, v));
            }
        }
        let cells = (m * n) as usize;
        prop_assert_eq!(svg.rects.len(), cells + first.len());
        prop_assert!(svg.rects[..cells].iter().all(|r| r.0 == "white"));
        for (k, r) in svg.rects[cells..].iter().enumerate() {
            let (row, col) = ((r.2 - 20) / 20, (r.1 - 20) / 20);
            let (t, v) = first[&(row, col)];
            prop_assert_eq!(&r.0, &viz::TV8[v as usize % 8].to_string());
            prop_assert_eq!(&svg.texts[2 * k].3, &format!("T{t}"));
            prop_assert_eq!(&svg.texts[2 * k + 1].3, &format!("V{v}"));
        }
    }
}

fn any_scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        (-40i64..40).prop_map(Scalar::Int),
        (0i64..64).prop_map(Scalar::F2),
        ((-3i64..4), 0usize..3).prop_map(|(v, m)| Scalar::basis(v, &[m])),
    ]
}

fn any_layout() -> impl Strategy<Value = Layout> {
    (1usize..5)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(1i64..6, n),
                prop::collection::vec(any_scalar(), n),
                0usize..3,
            )
        })
        .prop_map(|(s, d, group)| {
            // group the first `group` leaves into one hierarchical mode
            let n = s.len();
            let g = group.min(n);
            if g >= 2 {
                let mut shape = vec![HTuple::flat(s[..g].to_vec())];
                let mut stride = vec![HTuple::flat(d[..g].to_vec())];
                shape.extend(s[g..].iter().map(|&x| HTuple::leaf(x)));
                stride.extend(d[g..].iter().map(|x| HTuple::leaf(x.clone())));
                Layout::new(HTuple::tuple(shape), HTuple::tuple(stride)).unwrap()
            } else if n == 1 {
                Layout::new(HTuple::leaf(s[0]), HTuple::leaf(d[0].clone())).unwrap()
            } else {
                Layout::new(HTuple::flat(s), HTuple::flat(d)).unwrap()
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No input panics: every printer and drawer returns a drawing or an
    /// error, on layouts of any rank with integer, F2 and coordinate
    /// strides, as layouts and as TV layouts with a small tile.
    #[test]
    fn no_panics(l in any_layout(), tm in 1i64..5, tn in 1i64..5, label in prop::bool::ANY) {
        let opts = DrawOptions {
            label: if label { Label::Coord } else { Label::Index },
            fit: label,
            ..DrawOptions::default()
        };
        let _ = viz::print_layout(&l);
        let _ = viz::print_tensor(&l, true);
        let _ = viz::print_table(&l, true);
        let _ = viz::print_tensor_cpp(&l, "p");
        let r = viz::draw_svg_with(&l, &opts);
        // drawable when rank 2 with integer strides, or F2 strides only
        let d = l.stride().leaves();
        if l.rank() == 2 && (d.iter().all(|x| x.as_int().is_some()) || d.iter().all(|x| x.is_f2())) {
            prop_assert!(r.is_ok(), "{:?}", r);
        }
        let _ = viz::draw_latex_with(&l, &opts);
        let tile = HTuple::flat([tm, tn]);
        let _ = viz::draw_svg_tv_with(&l, Some(&tile), &opts);
        let _ = viz::draw_svg_tv_with(&l, None, &opts);
        let _ = viz::draw_latex_tv_with(&l, Some(&tile), &opts);
    }
}
