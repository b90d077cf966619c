//! The SVG drawers `draw_svg` and `draw_svg_tv` (
//! `docs/drawing.md`).

use std::fmt::Write as _;

use super::tv::fold_tv;
use super::{
    cell_int, mode_labels, require_rank2, AsView, Color, DrawOptions, Label, Rgb, MAX_CELLS,
};
use crate::error::Result;
use crate::layout::Layout;
use crate::shape::Shape;

/// The reference's cell size and margin, in pixels.
const CELL: u32 = 20;

/// Approximate advance of a character in DejaVu Sans (the font the PNG
/// renderer embeds), in em.
fn char_em(c: char) -> f64 {
    match c {
        '0'..='9' => 0.636,
        'T' => 0.611,
        'V' => 0.684,
        'F' => 0.575,
        '-' => 0.361,
        '@' => 1.0,
        '(' | ')' => 0.390,
        ',' | ' ' | '.' => 0.32,
        _ => 0.65,
    }
}

/// Approximate width of `s` at `px` font size.
fn text_width(s: &str, px: f64) -> f64 {
    s.chars().map(char_em).sum::<f64>() * px
}

/// Canvas geometry: margins, cell width, whether column labels are rotated.
struct Geom {
    left: u32,
    top: u32,
    cw: u32,
    rotate_cols: bool,
}

impl Geom {
    /// The reference geometry, adjusted only when `fit` asks for wider
    /// cells or coordinate labels need wider margins.
    fn new(
        cell_texts_max: f64,
        row_labels: &[String],
        col_labels: &[String],
        opts: &DrawOptions,
    ) -> Geom {
        let mut cw = CELL;
        if opts.fit && cell_texts_max + 4.0 > f64::from(CELL) {
            let w = (cell_texts_max + 4.0).ceil() as u32;
            cw = w + (w % 2);
        }
        let mut g = Geom {
            left: CELL,
            top: CELL,
            cw,
            rotate_cols: false,
        };
        if opts.label == Label::Coord {
            let rw = row_labels
                .iter()
                .map(|s| text_width(s, 10.0))
                .fold(0.0, f64::max);
            if rw + 6.0 > f64::from(CELL) {
                let w = (rw + 6.0).ceil() as u32;
                g.left = w + (w % 2);
            }
            let colw = col_labels
                .iter()
                .map(|s| text_width(s, 10.0))
                .fold(0.0, f64::max);
            if colw + 2.0 > f64::from(cw) {
                g.rotate_cols = true;
                let w = (colw + 6.0).ceil() as u32;
                g.top = (w + (w % 2)).max(CELL);
            }
        }
        g
    }

    fn x(&self, j: usize) -> u64 {
        u64::from(self.left) + u64::from(self.cw) * j as u64
    }

    fn y(&self, i: usize) -> u64 {
        u64::from(self.top) + u64::from(CELL) * i as u64
    }
}

/// A cell fill: an `rgb(...)` colour or the literal `white` of the TV
/// background.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fill {
    Rgb(Rgb),
    White,
}

/// One element of a drawing, in document order.
#[derive(Clone, Debug)]
pub(crate) enum Item {
    /// A `h = 20` px cell at `(x, y)`, `w` wide, stroked black.
    Rect { fill: Fill, x: u64, y: u64, w: u32 },
    /// A one-line label centred on `(x, y)` (`dy = 0.35em`), optionally
    /// rotated by -90 degrees about that point.
    Text {
        size: u32,
        x: u64,
        y: u64,
        rotate: bool,
        s: String,
    },
}

/// A drawing: the canvas size and its elements. [`Scene::to_svg`] writes
/// the reference's SVG document; the PNG renderer draws the same elements.
#[derive(Clone, Debug)]
pub(crate) struct Scene {
    pub width: u64,
    pub height: u64,
    pub items: Vec<Item>,
}

impl Scene {
    fn new(width: u64, height: u64, capacity: usize) -> Scene {
        Scene {
            width,
            height,
            items: Vec::with_capacity(capacity),
        }
    }

    fn rect(&mut self, fill: Fill, g: &Geom, x: u64, y: u64) {
        self.items.push(Item::Rect {
            fill,
            x,
            y,
            w: g.cw,
        });
    }

    fn text(&mut self, size: u32, x: u64, y: u64, s: String) {
        self.items.push(Item::Text {
            size,
            x,
            y,
            rotate: false,
            s,
        });
    }

    fn labels(&mut self, g: &Geom, rows: Vec<String>, cols: Vec<String>) {
        for (m, s) in rows.into_iter().enumerate() {
            self.text(10, u64::from(g.left / 2), g.y(m) + u64::from(CELL / 2), s);
        }
        for (n, s) in cols.into_iter().enumerate() {
            self.items.push(Item::Text {
                size: 10,
                x: g.x(n) + u64::from(g.cw / 2),
                y: u64::from(g.top / 2),
                rotate: g.rotate_cols,
                s,
            });
        }
    }

    /// The SVG document (byte for byte the reference's for the reference
    /// options; no trailing newline).
    pub fn to_svg(&self) -> String {
        let mut out = String::with_capacity(400 + self.items.len() * 120);
        let _ = write!(
            out,
            "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<svg baseProfile=\"full\" height=\"{}\" \
             version=\"1.1\" width=\"{}\" xmlns=\"http://www.w3.org/2000/svg\" \
             xmlns:ev=\"http://www.w3.org/2001/xml-events\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\
             <defs />",
            self.height, self.width
        );
        for it in &self.items {
            match it {
                Item::Rect { fill, x, y, w } => {
                    let _ = write!(out, "<rect fill=\"");
                    match fill {
                        Fill::Rgb(c) => {
                            let _ = write!(out, "{c}");
                        }
                        Fill::White => out.push_str("white"),
                    }
                    let _ = write!(
                        out,
                        "\" height=\"{CELL}\" stroke=\"black\" width=\"{w}\" x=\"{x}\" y=\"{y}\" />"
                    );
                }
                Item::Text {
                    size,
                    x,
                    y,
                    rotate,
                    s,
                } => {
                    let _ = write!(
                        out,
                        "<text dy=\"0.35em\" font-size=\"{size}px\" text-anchor=\"middle\" "
                    );
                    if *rotate {
                        let _ = write!(out, "transform=\"rotate(-90 {x} {y})\" ");
                    }
                    let _ = write!(out, "x=\"{x}\" y=\"{y}\">{}</text>", escape(s));
                }
            }
        }
        out.push_str("</svg>");
        out
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// PyCuTe `draw_svg(L, color)` (`docs/drawing.md`): the SVG
/// document of a rank-2 layout, one 20 px cell per coordinate filled with
/// `color(int(L(i, j)))` and labelled with the offset, row and column
/// indices in a 20 px margin. Byte for byte the reference's file content
/// (no trailing newline).
///
/// Errors: `value` for a rank other than 2 ("Expected a rank-2 Layout") or
/// more than [`MAX_CELLS`] cells; `type` for coordinate values or a
/// thread-value colour; evaluation errors.
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_svg, Color}};
/// let l = Layout::row_major(HTuple::flat([2, 3])).unwrap();
/// let svg = draw_svg(&l, &Color::IndexGrey8x).unwrap();
/// assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<svg baseProfile=\"full\" height=\"60\""));
/// assert!(svg.contains("<rect fill=\"rgb(230,230,230)\" height=\"20\" stroke=\"black\" width=\"20\" x=\"40\" y=\"20\" />"));
/// ```
pub fn draw_svg(x: &impl AsView, color: &Color) -> Result<String> {
    draw_svg_with(x, &DrawOptions::with_color(color.clone()))
}

/// [`draw_svg`] with rcute's options: coordinate labels, cells fitted to
/// their labels, any [`Color`]. `DrawOptions::default()` is the reference.
///
/// Errors: as [`draw_svg`].
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_svg_with, DrawOptions, Label}};
/// let l = Layout::column_major(HTuple::tuple([HTuple::flat([2, 2]), HTuple::leaf(3)])).unwrap();
/// let opts = DrawOptions { label: Label::Coord, ..DrawOptions::default() };
/// let svg = draw_svg_with(&l, &opts).unwrap();
/// assert!(svg.contains(">(1,1)</text>"));
/// ```
pub fn draw_svg_with(x: &impl AsView, opts: &DrawOptions) -> Result<String> {
    Ok(layout_scene(x, opts)?.to_svg())
}

/// The drawing of [`draw_svg_with`].
pub(crate) fn layout_scene(x: &impl AsView, opts: &DrawOptions) -> Result<Scene> {
    let v = x.as_view();
    require_rank2(&v, "draw_svg")?;
    let color = opts.color.clone().unwrap_or(Color::IndexGrey8x);
    let t = v.tables("draw_svg")?;
    let (m_rows, n_cols) = (t.size(0), t.size(1));
    let mut cells: Vec<(i64, Rgb)> = Vec::with_capacity(m_rows * n_cols);
    let mut widest: f64 = 0.0;
    for i in 0..m_rows {
        for j in 0..n_cols {
            let idx = cell_int(&v.value_at(&t, &[i, j])?, "draw_svg", i, j)?;
            let rgb = color.of_offset(idx)?;
            if opts.fit {
                widest = widest.max(text_width(&idx.to_string(), 8.0));
            }
            cells.push((idx, rgb));
        }
    }
    let rows = v.mode_labels(0, m_rows as i64, opts.label)?;
    let cols = v.mode_labels(1, n_cols as i64, opts.label)?;
    let g = Geom::new(widest, &rows, &cols, opts);
    let mut sc = Scene::new(g.x(n_cols), g.y(m_rows), 2 * cells.len() + m_rows + n_cols);
    for i in 0..m_rows {
        for j in 0..n_cols {
            let (idx, rgb) = cells[i * n_cols + j];
            let (x, y) = (g.x(j), g.y(i));
            sc.rect(Fill::Rgb(rgb), &g, x, y);
            sc.text(
                8,
                x + u64::from(g.cw / 2),
                y + u64::from(CELL / 2),
                idx.to_string(),
            );
        }
    }
    sc.labels(&g, rows, cols);
    Ok(sc)
}

/// PyCuTe `draw_svg_tv(L, tile_mn, color)` (`docs/drawing.md`):
/// the SVG document of a thread-value layout `(tid, vid) -> (m, n)` (or
/// `-> offset`, folded column-major into `tile_mn`): every tile cell as a
/// white 20 px square, then for each `(tid, vid)` (tid outer) the first one
/// to reach a cell fills it with `color(tid, vid)` and labels it
/// `T<tid>` / `V<vid>`; row and column labels as [`draw_svg`].
///
/// Errors: those of [`fold_tv`](super::fold_tv) (rank, tile, codomain);
/// `bounds` for a position outside the tile; `type` for an offset colour.
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::{draw_svg_tv, Color}};
/// // 4 threads x 2 values -> (m, n) in a 4 x 2 tile
/// let s = HTuple::flat([4, 2]);
/// let d = HTuple::flat([Scalar::basis(1, &[0]), Scalar::basis(1, &[1])]);
/// let svg = draw_svg_tv(&Layout::new(s, d).unwrap(), None, &Color::ThreadColor8x).unwrap();
/// assert_eq!(svg.matches(">T3</text>").count(), 2);
/// ```
pub fn draw_svg_tv(l: &Layout, tile_mn: Option<&Shape>, color: &Color) -> Result<String> {
    draw_svg_tv_with(l, tile_mn, &DrawOptions::with_color(color.clone()))
}

/// [`draw_svg_tv`] with rcute's options (default colour
/// `thread_color_8x`).
///
/// Errors: as [`draw_svg_tv`].
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::{draw_svg_tv_with, Color, DrawOptions}};
/// let l = Layout::new(HTuple::flat([4, 2]), HTuple::flat([Scalar::Int(1), Scalar::Int(4)])).unwrap();
/// let tile = HTuple::flat([4, 2]); // offsets folded column-major into a 4 x 2 tile
/// let svg = draw_svg_tv_with(&l, Some(&tile), &DrawOptions::with_color(Color::ValueColor8x)).unwrap();
/// assert_eq!(svg.matches("fill=\"rgb(175,255,175)\"").count(), 4); // V1 cells
/// ```
pub fn draw_svg_tv_with(l: &Layout, tile_mn: Option<&Shape>, opts: &DrawOptions) -> Result<String> {
    Ok(tv_scene(l, tile_mn, opts)?.to_svg())
}

/// The drawing of [`draw_svg_tv_with`].
pub(crate) fn tv_scene(l: &Layout, tile_mn: Option<&Shape>, opts: &DrawOptions) -> Result<Scene> {
    let tv = fold_tv(l, tile_mn)?;
    let color = opts.color.clone().unwrap_or(Color::ThreadColor8x);
    let hits = tv.hits()?;
    let (m_rows, n_cols) = (tv.rows as usize, tv.cols as usize);
    let mut fills = Vec::with_capacity(hits.len());
    let mut widest: f64 = 0.0;
    for h in &hits {
        fills.push(color.of_tv(h.tid, h.vid)?);
        if opts.fit {
            widest = widest
                .max(text_width(&format!("T{}", h.tid), 8.0))
                .max(text_width(&format!("V{}", h.vid), 8.0));
        }
    }
    let rows = mode_labels(&tv.tile, 0, tv.rows, opts.label)?;
    let cols = mode_labels(&tv.tile, 1, tv.cols, opts.label)?;
    let g = Geom::new(widest, &rows, &cols, opts);
    debug_assert!((m_rows * n_cols) as i64 <= MAX_CELLS);
    let mut sc = Scene::new(
        g.x(n_cols),
        g.y(m_rows),
        m_rows * n_cols + 3 * hits.len() + m_rows + n_cols,
    );
    for i in 0..m_rows {
        for j in 0..n_cols {
            sc.rect(Fill::White, &g, g.x(j), g.y(i));
        }
    }
    for (h, rgb) in hits.iter().zip(&fills) {
        let (x, y) = (g.x(h.col), g.y(h.row));
        sc.rect(Fill::Rgb(*rgb), &g, x, y);
        let cx = x + u64::from(g.cw / 2);
        sc.text(8, cx, y + 5, format!("T{}", h.tid));
        sc.text(8, cx, y + 15, format!("V{}", h.vid));
    }
    sc.labels(&g, rows, cols);
    Ok(sc)
}
