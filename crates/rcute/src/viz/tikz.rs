//! The TikZ drawers `draw_latex` and `draw_latex_tv` (
//! `docs/drawing.md`): a standalone LaTeX document.

use std::fmt::Write as _;

use super::tv::fold_tv;
use super::{cell_int, mode_labels, require_rank2, AsView, Color, DrawOptions, Label};
use crate::error::Result;
use crate::layout::Layout;
use crate::shape::Shape;

const HEADER: &str = "\\documentclass{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

const FOOTER: &str = "\\end{tikzpicture}\n\\end{document}\n";

/// GRID(M, N): the grid lines and the row / column labels. Labels of a
/// hierarchical mode in [`Label::Coord`] style are anchored outside the
/// grid (rows to the left, columns rotated above) so that long
/// coordinates do not cover the cells.
fn grid(out: &mut String, shape: &Shape, m: i64, n: i64, label: Label) -> Result<()> {
    let _ = write!(
        out,
        "\n\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] (0,0) grid ({m},{n});\n\n"
    );
    let coord =
        |i: usize| label == Label::Coord && shape.mode(i).map(|x| !x.is_leaf()).unwrap_or(false);
    for (k, s) in mode_labels(shape, 0, m, label)?.iter().enumerate() {
        if coord(0) {
            let _ = writeln!(
                out,
                "\\node[anchor=east] at ({k},-0.6) {{\\Large{{\\texttt{{{s}}}}}}};"
            );
        } else {
            let _ = writeln!(out, "\\node at ({k},-1) {{\\Large{{\\texttt{{{s}}}}}}};");
        }
    }
    for (k, s) in mode_labels(shape, 1, n, label)?.iter().enumerate() {
        if coord(1) {
            let _ = writeln!(
                out,
                "\\node[rotate=90,anchor=west] at (-0.6,{k}) {{\\Large{{\\texttt{{{s}}}}}}};"
            );
        } else {
            let _ = writeln!(out, "\\node at (-1,{k}) {{\\Large{{\\texttt{{{s}}}}}}};");
        }
    }
    Ok(())
}

/// PyCuTe `draw_latex(L, color)` (`docs/drawing.md`): the
/// standalone TikZ document of a rank-2 layout, one node per cell filled
/// with `color(int(L(i, j)))`, the grid and the row / column indices.
/// Compiling it (pdflatex) is the caller's business.
///
/// Errors: `value` for a rank other than 2 ("Expected a rank-2 Layout") or
/// too many cells; `type` for coordinate values or a thread-value colour.
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_latex, Color}};
/// let l = Layout::row_major(HTuple::flat([2, 3])).unwrap();
/// let tex = draw_latex(&l, &Color::IndexGrey8x).unwrap();
/// assert!(tex.contains("% Layout: (2, 3):(3, 1)\n\\node[fill={rgb,255:red,255;green,255;blue,255}] at (0,0) {0};\n"));
/// assert!(tex.ends_with("\\end{tikzpicture}\n\\end{document}\n"));
/// ```
pub fn draw_latex(x: &impl AsView, color: &Color) -> Result<String> {
    draw_latex_with(x, &DrawOptions::with_color(color.clone()))
}

/// [`draw_latex`] with rcute's options (colour, coordinate labels;
/// `fit` has no effect on TikZ output).
///
/// Errors: as [`draw_latex`].
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_latex_with, Color, DrawOptions}};
/// let l = Layout::row_major(HTuple::flat([2, 2])).unwrap();
/// let tex = draw_latex_with(&l, &DrawOptions::with_color(Color::BankColor32x)).unwrap();
/// assert!(tex.contains("\\node[fill={rgb,255:red,255;green,151;blue,128}] at (0,1) {1};"));
/// ```
pub fn draw_latex_with(x: &impl AsView, opts: &DrawOptions) -> Result<String> {
    let v = x.as_view();
    require_rank2(&v, "draw_latex")?;
    let color = opts.color.clone().unwrap_or(Color::IndexGrey8x);
    let t = v.tables("draw_latex")?;
    let (m_rows, n_cols) = (t.size(0), t.size(1));
    let mut out = String::with_capacity(600 + m_rows * n_cols * 64);
    out.push_str(HEADER);
    let _ = writeln!(out, "% Layout: {}", v.text());
    for i in 0..m_rows {
        for j in 0..n_cols {
            let idx = cell_int(&v.value_at(&t, &[i, j])?, "draw_latex", i, j)?;
            let rgb = color.of_offset(idx)?;
            let _ = writeln!(out, "\\node[fill={}] at ({i},{j}) {{{idx}}};", rgb.tikz());
        }
    }
    grid(
        &mut out,
        v.inner_layout().shape(),
        m_rows as i64,
        n_cols as i64,
        opts.label,
    )?;
    out.push_str(FOOTER);
    Ok(out)
}

/// PyCuTe `draw_latex_tv(L, tile_mn, color)` (
/// `docs/drawing.md`): the TikZ document of a thread-value layout, folded and
/// checked as [`draw_svg_tv`](super::draw_svg_tv); one node
/// `\shortstack{T<tid> \\ V<vid>}` per cell for the first `(tid, vid)` that
/// reaches it (uncovered cells get no node). The comment line shows the
/// folded layout.
///
/// Errors: as [`draw_svg_tv`](super::draw_svg_tv).
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::{draw_latex_tv, Color}};
/// let s = HTuple::flat([4, 2]);
/// let d = HTuple::flat([Scalar::basis(1, &[0]), Scalar::basis(1, &[1])]);
/// let tex = draw_latex_tv(&Layout::new(s, d).unwrap(), None, &Color::ThreadColor8x).unwrap();
/// assert!(tex.contains("% Layout TV: (4, 2):(1@0, 1@1)\n"));
/// assert!(tex.contains("at (3,1) {\\shortstack{T3 \\\\ V1}};"));
/// ```
pub fn draw_latex_tv(l: &Layout, tile_mn: Option<&Shape>, color: &Color) -> Result<String> {
    draw_latex_tv_with(l, tile_mn, &DrawOptions::with_color(color.clone()))
}

/// [`draw_latex_tv`] with rcute's options (default colour
/// `thread_color_8x`).
///
/// Errors: as [`draw_latex_tv`].
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_latex_tv_with, DrawOptions}};
/// let l = Layout::column_major(HTuple::flat([2, 2])).unwrap();
/// let tex = draw_latex_tv_with(&l, Some(&HTuple::flat([2, 2])), &DrawOptions::default()).unwrap();
/// assert!(tex.contains("% Layout TV: (2, 2):(1@0, 1@1)\n"));
/// ```
pub fn draw_latex_tv_with(
    l: &Layout,
    tile_mn: Option<&Shape>,
    opts: &DrawOptions,
) -> Result<String> {
    let tv = fold_tv(l, tile_mn)?;
    let color = opts.color.clone().unwrap_or(Color::ThreadColor8x);
    let hits = tv.hits()?;
    let mut out = String::with_capacity(600 + hits.len() * 90);
    out.push_str(HEADER);
    let _ = writeln!(out, "% Layout TV: {}", tv.layout);
    for h in &hits {
        let rgb = color.of_tv(h.tid, h.vid)?;
        let _ = writeln!(
            out,
            "\\node[fill={}] at ({},{}) {{\\shortstack{{T{} \\\\ V{}}}}};",
            rgb.tikz(),
            h.row,
            h.col,
            h.tid,
            h.vid
        );
    }
    grid(&mut out, &tv.tile, tv.rows, tv.cols, opts.label)?;
    out.push_str(FOOTER);
    Ok(out)
}
