//! Drawings of layouts (`docs/drawing.md`): ASCII tables, SVG, TikZ and
//! PNG.
//!
//! Every function here returns the drawing (a `String`, or PNG bytes) and
//! never touches the file system; writing files and printing
//! `Saved as <file>` is the caller's job (the `rcute` CLI, the Python
//! module).
//!
//! What can be drawn is a [`View`]: a layout, a swizzled layout or an
//! implicit-accessor tensor `{base} o L`, all seen as the tensor
//! `Tensor({0}, L)` of `docs/drawing.md` (the value at a
//! coordinate is `L(c)` in the layout's own algebra). The functions take
//! anything that implements [`AsView`] ([`Layout`], [`SwizzledLayout`],
//! implicit-accessor tensors such as `identity_tensor`, [`View`]).
//!
//! | function | reference |
//! |---|---|
//! | [`print_layout`] | C++ `print_layout` (section 4) |
//! | [`print_tensor`] | PyCuTe `print_tensor` (section 2) |
//! | [`print_tensor_aligned`] | the same with each column as wide as its widest value |
//! | [`print_tensor_cpp`] | C++ `print_tensor` (section 5) |
//! | [`print_table`] | PyCuTe `print_table` (section 3) |
//! | [`draw_svg`], [`draw_svg_tv`] | PyCuTe `draw_svg`, `draw_svg_tv` (sections 7, 8) |
//! | [`draw_latex`], [`draw_latex_tv`] | PyCuTe `draw_latex`, `draw_latex_tv` (section 9) |
//! | `draw_png`, `draw_png_tv` | rcute: the SVG's drawing rendered in-process (only with the crate feature `png`, off by default) |
//!
//! Beyond the reference, [`DrawOptions`] selects natural (hierarchical)
//! coordinates for the row and column labels ([`Label::Coord`]), cells
//! widened to fit long labels ([`DrawOptions::fit`]) and bank colouring with
//! an element size ([`Color::Bank`]).
//!
//! ```
//! use rcute::{HTuple, Layout, viz};
//! let l = Layout::column_major(HTuple::flat([2, 3])).unwrap();
//! let svg = viz::draw_svg(&l, &viz::Color::IndexGrey8x).unwrap();
//! assert_eq!(svg.matches("<rect ").count(), 6);
//! ```

mod ascii;
mod color;
mod svg;
mod tikz;
mod tv;

#[cfg(feature = "png")]
mod png;

pub use ascii::{
    print_layout, print_layout_coords, print_table, print_tensor, print_tensor_aligned,
    print_tensor_cpp,
};
pub use color::{
    bank_color_16x, bank_color_32x, bank_color_8x, index_grey_8x, thread_color_8x, value_color_8x,
    warp_color_8x, white, Color, Rgb, GREY8, SPEC32, TV8,
};
#[cfg(feature = "png")]
pub use png::{draw_png, draw_png_tv, png_scale_for};
pub use svg::{draw_svg, draw_svg_tv, draw_svg_tv_with, draw_svg_with};
pub use tikz::{draw_latex, draw_latex_tv, draw_latex_tv_with, draw_latex_with};
pub use tv::{fold_tv, TvLayout};

use crate::error::{Error, Result};
use crate::htuple::HTuple;
use crate::layout::Layout;
use crate::shape::{self, Shape};
use crate::stride::Scalar;
use crate::swizzle::{Swizzle, SwizzledLayout};
use crate::tensor::{ImplicitAccessor, Tensor};

/// The largest number of cells any printer or drawer accepts (a
/// 1024 x 1024 grid); bigger inputs are a `value` error instead of a
/// drawing nobody can open.
pub const MAX_CELLS: i64 = 1 << 20;

/// How the row and column labels of a drawing are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Label {
    /// The integral (flat) index of the row / column within its mode, as
    /// the reference draws it.
    #[default]
    Index,
    /// The natural (hierarchical) coordinate of the row / column within its
    /// mode, in C++ style (`(1,0)`), e.g. after a `zipped_divide`. For a
    /// mode whose shape is a single integer this is the same as
    /// [`Label::Index`].
    Coord,
}

impl Label {
    /// Parses `index` or `coord` (the CLI's `--label`).
    ///
    /// ```
    /// use rcute::viz::Label;
    /// assert_eq!(Label::from_name("coord").unwrap(), Label::Coord);
    /// assert!(Label::from_name("flat").is_err());
    /// ```
    pub fn from_name(name: &str) -> Result<Label> {
        match name {
            "index" => Ok(Label::Index),
            "coord" => Ok(Label::Coord),
            _ => Err(Error::value(format!(
                "unknown label style '{name}' (expected index or coord)"
            ))),
        }
    }
}

/// Options of the SVG, TikZ and PNG drawers beyond the reference's
/// `color` argument.
///
/// The default (`DrawOptions::default()`, colour `None` = the drawer's own
/// default, [`Label::Index`], `fit = false`) reproduces the reference's
/// output byte for byte.
///
/// ```
/// use rcute::{HTuple, Layout, viz::{draw_svg, draw_svg_with, Color, DrawOptions}};
/// let l = Layout::column_major(HTuple::flat([2, 3])).unwrap();
/// assert_eq!(draw_svg_with(&l, &DrawOptions::default()).unwrap(),
///            draw_svg(&l, &Color::IndexGrey8x).unwrap());
/// ```
#[derive(Clone, Debug, Default)]
pub struct DrawOptions {
    /// The colour function; `None` selects the reference default
    /// (`index_grey_8x` for layouts, `thread_color_8x` for TV layouts).
    pub color: Option<Color>,
    /// Row / column label style.
    pub label: Label,
    /// Widen the cells (SVG / PNG only) when their labels would not fit in
    /// the reference's 20 px (e.g. five-digit offsets of a 128 x 256
    /// layout, `T127`). The geometry is unchanged when every label fits.
    pub fit: bool,
}

impl DrawOptions {
    /// Options with the given colour and the reference geometry.
    pub fn with_color(color: Color) -> DrawOptions {
        DrawOptions {
            color: Some(color),
            ..DrawOptions::default()
        }
    }
}

/// Something the printers and drawers can show: the layout `L` whose
/// values are drawn, an optional swizzle applied to `L`'s offsets, and the
/// base of the implicit accessor (`docs/drawing.md`).
///
/// The value at coordinate `c` is `base + Sw(L(c))` (just `L(c)` for a
/// plain layout).
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::View};
/// let l = Layout::column_major(HTuple::flat([2, 3])).unwrap();
/// let v = View::tensor(Scalar::Int(7), &l);
/// assert_eq!(v.text(), "{7} o (2, 3):(1, 2)");
/// assert_eq!(v.value(&[1, 2]).unwrap(), Scalar::Int(12));
/// ```
#[derive(Clone, Debug)]
pub struct View {
    layout: Layout,
    swizzle: Option<Swizzle>,
    base: Scalar,
    is_tensor: bool,
}

/// Conversion into a [`View`] (implemented for layouts, swizzled layouts
/// and views).
pub trait AsView {
    /// The view of `self`.
    fn as_view(&self) -> View;
}

impl AsView for Layout {
    fn as_view(&self) -> View {
        View::layout(self)
    }
}

impl AsView for SwizzledLayout {
    fn as_view(&self) -> View {
        View::swizzled(self)
    }
}

impl AsView for View {
    fn as_view(&self) -> View {
        self.clone()
    }
}

impl AsView for Tensor<ImplicitAccessor> {
    /// The tensor `{base} o L` itself.
    fn as_view(&self) -> View {
        View::tensor(self.accessor().base().clone(), self.layout())
    }
}

impl<T: AsView> AsView for &T {
    fn as_view(&self) -> View {
        (*self).as_view()
    }
}

impl View {
    /// The view of a layout (`Tensor({0}, L)`).
    pub fn layout(l: &Layout) -> View {
        View {
            layout: l.clone(),
            swizzle: None,
            base: Scalar::Int(0),
            is_tensor: false,
        }
    }

    /// The view of a swizzled layout `Sw o L`: values `Sw(L(c))`.
    ///
    /// ```
    /// use rcute::{HTuple, Layout, Scalar, Swizzle, SwizzledLayout, viz::View};
    /// let l = Layout::row_major(HTuple::flat([8, 8])).unwrap();
    /// let v = View::swizzled(&SwizzledLayout::new(Swizzle::new(3, 0, 3).unwrap(), l).unwrap());
    /// assert_eq!(v.value(&[1, 0]).unwrap(), Scalar::Int(9));
    /// assert_eq!(v.cpp_text(), "Sw<3,0,3> o (8,8):(8,1)");
    /// ```
    pub fn swizzled(s: &SwizzledLayout) -> View {
        View {
            layout: s.layout.clone(),
            swizzle: Some(s.swizzle),
            base: Scalar::Int(0),
            is_tensor: false,
        }
    }

    /// The implicit-accessor tensor `{base} o L` (`docs/tensors.md`):
    /// values `base + L(c)`.
    pub fn tensor(base: Scalar, l: &Layout) -> View {
        View {
            layout: l.clone(),
            swizzle: None,
            base,
            is_tensor: true,
        }
    }

    /// The implicit-accessor tensor `{base} o (Sw o L)`.
    pub fn swizzled_tensor(base: Scalar, s: &SwizzledLayout) -> View {
        View {
            layout: s.layout.clone(),
            swizzle: Some(s.swizzle),
            base,
            is_tensor: true,
        }
    }

    /// The (inner) layout: its shape is the domain that is drawn.
    pub fn inner_layout(&self) -> &Layout {
        &self.layout
    }

    /// The swizzle, if any.
    pub fn swizzle(&self) -> Option<Swizzle> {
        self.swizzle
    }

    /// `rank(L)`.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The default-style text (`(4, 8):(1, 4)`, `SW_3_4_3 o (8, 8):(8, 1)`,
    /// `{0} o (2, 3):(1, 2)`): the header of `print_tensor` / `print_table`.
    pub fn text(&self) -> String {
        let l = self.layout_text(false);
        if self.is_tensor {
            format!("{{{}}} o {l}", self.base)
        } else {
            l
        }
    }

    /// The default-style text of the view as a tensor (`{0} o 8:1` for a
    /// layout), which `print_table` prints for ranks other than 2.
    pub fn tensor_text(&self) -> String {
        format!("{{{}}} o {}", self.base, self.layout_text(false))
    }

    /// The C++-style text of the layout (`(4,8):(1,4)`,
    /// `Sw<3,4,3> o (8,8):(8,1)`), the header of `print_layout`.
    pub fn cpp_text(&self) -> String {
        self.layout_text(true)
    }

    fn layout_text(&self, cpp: bool) -> String {
        match (self.swizzle, cpp) {
            (None, false) => format!("{}", self.layout),
            (None, true) => format!("{:#}", self.layout),
            (Some(s), false) => format!("{s} o {}", self.layout),
            (Some(s), true) => format!("{s:#} o {:#}", self.layout),
        }
    }

    /// `size` of mode `i` (`size[i](L)`).
    pub fn mode_size(&self, i: usize) -> Result<i64> {
        let m =
            self.layout.shape().mode(i).ok_or_else(|| {
                Error::bounds(format!("mode {i} out of range for {}", self.layout))
            })?;
        shape::size(m)
    }

    /// The value at a coordinate given as one integral index per mode
    /// (`t[c0, c1, ...]`); the number of indices must equal the rank.
    ///
    /// Errors: `rank` for a wrong number of indices; those of the
    /// evaluation (overflow; a swizzle applied to a non-integer offset is a
    /// `type` error).
    pub fn value(&self, c: &[i64]) -> Result<Scalar> {
        if c.len() != self.rank() {
            return Err(Error::rank(format!(
                "{} indices for the rank-{} layout {}",
                c.len(),
                self.rank(),
                self.layout
            )));
        }
        let mut acc = Scalar::Int(0);
        for (i, &k) in c.iter().enumerate() {
            let m = self.layout.mode(i as i64)?;
            acc = acc.add(&m.eval_index(k)?)?;
        }
        self.finish(acc)
    }

    /// Applies the swizzle and the accessor base to `L(c)`.
    fn finish(&self, v: Scalar) -> Result<Scalar> {
        let v = match self.swizzle {
            None => v,
            Some(sw) => match v {
                Scalar::Int(x) => Scalar::Int(sw.apply(x)?),
                other => {
                    return Err(Error::type_(format!(
                        "the swizzle of {} acts on integer offsets, not on {other}",
                        self.layout_text(false)
                    )))
                }
            },
        };
        if self.base.is_zero() && !self.base.is_coord() {
            Ok(v)
        } else {
            self.base.add(&v)
        }
    }

    /// Per-mode value tables for the first `rank` modes: `tables[i][k]` is
    /// mode `i`'s contribution at integral index `k`. `L(c)` is the sum of
    /// the contributions (the inner product splits by mode), so a whole
    /// grid is evaluated with one addition per cell.
    fn tables(&self, what: &str) -> Result<Tables> {
        let sizes: Vec<i64> = (0..self.rank())
            .map(|i| self.mode_size(i))
            .collect::<Result<_>>()?;
        if let Some(&s) = sizes.iter().find(|&&s| s <= 0) {
            return Err(Error::value(format!(
                "{what}: {} has a mode of non-positive size {s}",
                self.layout_text(false)
            )));
        }
        let mut total: i64 = 1;
        for &s in &sizes {
            total = total.saturating_mul(s);
        }
        if total > MAX_CELLS {
            return Err(Error::value(format!(
                "{what}: {} has {} cells, more than the {MAX_CELLS} that can be drawn",
                self.layout_text(false),
                sizes
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" x ")
            )));
        }
        let mut cols = Vec::with_capacity(sizes.len());
        for (i, &s) in sizes.iter().enumerate() {
            let m = self.layout.mode(i as i64)?;
            let mut col = Vec::with_capacity(s as usize);
            for k in 0..s {
                col.push(m.eval_index(k)?);
            }
            cols.push(col);
        }
        Ok(Tables { cols, sizes })
    }

    /// The value at per-mode indices using precomputed tables.
    fn value_at(&self, t: &Tables, c: &[usize]) -> Result<Scalar> {
        let mut acc: Option<Scalar> = None;
        for (i, &k) in c.iter().enumerate() {
            let x = t
                .cols
                .get(i)
                .and_then(|col| col.get(k))
                .ok_or_else(|| Error::bounds(format!("index {k} out of range in mode {i}")))?;
            acc = Some(match acc {
                None => x.clone(),
                Some(a) => a.add(x)?,
            });
        }
        self.finish(acc.unwrap_or(Scalar::Int(0)))
    }

    /// The row or column labels of mode `i` (`sizes[i]` labels).
    fn mode_labels(&self, i: usize, n: i64, label: Label) -> Result<Vec<String>> {
        mode_labels(self.layout.shape(), i, n, label)
    }
}

/// Labels `0 .. n-1` of mode `i` of `shape`, as flat indices or natural
/// coordinates.
fn mode_labels(shape: &Shape, i: usize, n: i64, label: Label) -> Result<Vec<String>> {
    let m = shape
        .mode(i)
        .ok_or_else(|| Error::bounds(format!("mode {i} out of range for the shape {shape}")))?;
    let mut out = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
    for k in 0..n {
        match (label, m.is_leaf()) {
            (Label::Coord, false) => {
                let c = HTuple::leaf(Some(Scalar::Int(k)));
                let nat = shape::idx2crd(c.as_ref(), m)?;
                out.push(format!("{nat:#}"));
            }
            _ => out.push(k.to_string()),
        }
    }
    Ok(out)
}

/// Per-mode contribution tables (see [`View::tables`]).
struct Tables {
    cols: Vec<Vec<Scalar>>,
    sizes: Vec<i64>,
}

impl Tables {
    fn size(&self, i: usize) -> usize {
        self.sizes
            .get(i)
            .map(|&s| usize::try_from(s).unwrap_or(0))
            .unwrap_or(0)
    }
}

/// The integer of a cell value for drawing (`int(L(i,j))`): integers and F2
/// values; a coordinate value is a `type` error naming the cell.
fn cell_int(v: &Scalar, what: &str, i: usize, j: usize) -> Result<i64> {
    match v {
        Scalar::Int(x) | Scalar::F2(x) => Ok(*x),
        Scalar::Coord(_) => Err(Error::type_(format!(
            "{what}: the value {v} at ({i}, {j}) is a coordinate value, not an integer offset"
        ))),
    }
}

/// The rank-2 check of the drawers and of `print_layout`.
fn require_rank2(v: &View, what: &str) -> Result<()> {
    if v.rank() != 2 {
        return Err(Error::value(format!(
            "{what}: Expected a rank-2 Layout, got the rank-{} {}{}",
            v.rank(),
            v.text(),
            if v.rank() == 1 {
                " (make_layout(L, 1:0) draws it as one column)"
            } else {
                " (slice it, e.g. L(_, _, 0), or group modes to draw it)"
            }
        )));
    }
    Ok(())
}
