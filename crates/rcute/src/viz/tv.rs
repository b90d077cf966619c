//! Thread-value layouts for drawing (`docs/drawing.md`): the
//! checks, the folding of a linear-offset TV layout through the tile, and
//! the first-hit rule.

use super::{View, MAX_CELLS};
use crate::error::{Error, Result};
use crate::htuple::{Builder, HTuple, MAX_DEPTH};
use crate::layout::Layout;
use crate::shape::{self, Shape};
use crate::stride::Scalar;
use crate::tiler::tiler_to_layout;
use crate::tiler::TilerRef;

/// A TV layout ready to draw: `layout` maps `(tid, vid)` to a coordinate
/// value `(m, n)` inside the `rows x cols` tile `tile`.
#[derive(Clone, Debug)]
pub struct TvLayout {
    /// The (folded) layout `(tid, vid) -> (m, n)`.
    pub layout: Layout,
    /// The tile shape `(M, N)` (rank 2).
    pub tile: Shape,
    /// `M = size[0](tile)`.
    pub rows: i64,
    /// `N = size[1](tile)`.
    pub cols: i64,
}

/// One drawn cell of a TV layout: tile position `(row, col)` reached first
/// by `(tid, vid)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TvHit {
    /// row `m` in the tile
    pub row: usize,
    /// column `n` in the tile
    pub col: usize,
    /// thread index
    pub tid: i64,
    /// value index
    pub vid: i64,
}

/// The checks and folding of `draw_svg_tv` / `draw_latex_tv`
/// (`docs/drawing.md`):
///
/// * `L` must have rank 2 (`value`, "Expected a rank-2 TV Layout");
/// * the tile is `tile_mn`, or `coshape(L)` when `None`; it must have rank
///   2 (`value`, "Expected a rank-2 MN Tile");
/// * a layout with an integer (scalar) codomain is folded into the tile:
///   `L = composition(tiler_to_layout(tile), L)` (offsets are laid out
///   column-major in the tile);
/// * the codomain must then be congruent to `(0, 0)` (`value`,
///   "Expected a 2D codomain (tid,vid) -> (m,n)").
///
/// Errors: those above; `type` for an F2 or mixed codomain; the errors of
/// `composition`.
///
/// ```
/// use rcute::{HTuple, Layout, Scalar, viz::fold_tv};
/// // ((2,2),(2,)):((1@0,1@1),(2@0,)): already (m, n)-valued
/// let s = HTuple::tuple([HTuple::flat([2, 2]), HTuple::flat([2])]);
/// let d = HTuple::tuple([
///     HTuple::flat([Scalar::basis(1, &[0]), Scalar::basis(1, &[1])]),
///     HTuple::flat([Scalar::basis(2, &[0])]),
/// ]);
/// let tv = fold_tv(&Layout::new(s, d).unwrap(), None).unwrap();
/// assert_eq!((tv.rows, tv.cols), (4, 2));
/// assert_eq!(tv.hits().unwrap().len(), 8);
/// ```
pub fn fold_tv(l: &Layout, tile_mn: Option<&Shape>) -> Result<TvLayout> {
    if l.rank() != 2 {
        return Err(Error::value(format!(
            "draw_tv: Expected a rank-2 TV Layout (tid, vid) -> offset, got the rank-{} {l}",
            l.rank()
        )));
    }
    let tile = match tile_mn {
        Some(t) => t.clone(),
        None => coshape(l)?,
    };
    if tile.is_leaf() || tile.rank() != 2 {
        return Err(Error::value(format!(
            "draw_tv: Expected a rank-2 MN Tile, got {tile}{}",
            if tile_mn.is_none() {
                " (the coshape of the layout; give the tile explicitly, e.g. --tv (8,8))"
            } else {
                ""
            }
        )));
    }
    if let Some(&e) = tile.leaves().iter().find(|&&e| e <= 0) {
        return Err(Error::value(format!(
            "draw_tv: the MN tile {tile} has the non-positive extent {e}{}",
            if tile_mn.is_none() {
                " (the coshape of a layout with negative strides; give the tile explicitly)"
            } else {
                ""
            }
        )));
    }
    let mut folded = l.clone();
    if !stride_sum(l)?.is_coord() {
        let tile_layout = tiler_to_layout(&TilerRef::from_shape(tile.as_ref()))?;
        folded = crate::algebra::composition(&tile_layout, &TilerRef::Layout(l.clone()))?;
    }
    let profile = stride_sum(&folded)?;
    let two_axes = match &profile {
        Scalar::Coord(c) => c.children().len() == 2 && c.children().iter().all(|x| !x.is_coord()),
        _ => false,
    };
    if !two_axes {
        return Err(Error::value(format!(
            "draw_tv: Expected a 2D codomain (tid,vid) -> (m,n), but {folded} maps to {}",
            if profile.is_coord() {
                "coordinates of another profile"
            } else {
                "offsets"
            }
        )));
    }
    let rows = shape::size(tile.mode(0).ok_or_else(|| Error::rank("tile mode 0"))?)?;
    let cols = shape::size(tile.mode(1).ok_or_else(|| Error::rank("tile mode 1"))?)?;
    if rows.saturating_mul(cols) > MAX_CELLS {
        return Err(Error::value(format!(
            "draw_tv: the tile {tile} has {rows} x {cols} cells, more than the {MAX_CELLS} that can be drawn"
        )));
    }
    Ok(TvLayout {
        layout: folded,
        tile,
        rows,
        cols,
    })
}

impl TvLayout {
    /// The drawn cells in drawing order: `tid` outer, `vid` inner; a cell
    /// already reached by an earlier `(tid, vid)` is skipped (the first
    /// `(tid, vid)` wins). Cells never reached are not listed.
    ///
    /// Errors: `bounds` for a position outside `[0,M) x [0,N)`; `value`
    /// for more than [`MAX_CELLS`] `(tid, vid)` pairs; evaluation errors.
    pub fn hits(&self) -> Result<Vec<TvHit>> {
        let v = View::layout(&self.layout);
        let t = v.tables("draw_tv")?;
        let (nt, nv) = (t.size(0), t.size(1));
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let mut seen = vec![false; rows * cols];
        let mut out = Vec::new();
        for tid in 0..nt {
            for vid in 0..nv {
                let p = v.value_at(&t, &[tid, vid])?;
                let i = axis(&p, 0)?;
                let j = axis(&p, 1)?;
                if i < 0 || j < 0 || i >= self.rows || j >= self.cols {
                    return Err(Error::bounds(format!(
                        "draw_tv: (tid, vid) = ({tid}, {vid}) maps to ({i}, {j}), outside the {} x {} tile",
                        self.rows, self.cols
                    )));
                }
                let (i, j) = (i as usize, j as usize);
                let k = i * cols + j;
                if !seen[k] {
                    seen[k] = true;
                    out.push(TvHit {
                        row: i,
                        col: j,
                        tid: tid as i64,
                        vid: vid as i64,
                    });
                }
            }
        }
        Ok(out)
    }
}

fn axis(p: &Scalar, a: usize) -> Result<i64> {
    match p.get_path(&[a])? {
        Scalar::Int(x) | Scalar::F2(x) => Ok(x),
        other => Err(Error::type_(format!(
            "draw_tv: position {p} has the non-integer coordinate {other}"
        ))),
    }
}

/// `0 + sum of all stride leaves` (whose structure is `coprofile(L)`,
/// `docs/operations.md`).
fn stride_sum(l: &Layout) -> Result<Scalar> {
    let mut acc = Scalar::Int(0);
    for d in l.stride().leaves() {
        acc = acc.add(d)?;
    }
    Ok(acc)
}

/// `coshape(L)` (`docs/operations.md`): `1 + sum((s-1)*d)` for an
/// integer codomain, the elementwise `max + 1` (as a plain tuple) for a
/// coordinate codomain; `type` error for F2 or mixed codomains.
fn coshape(l: &Layout) -> Result<Shape> {
    let mut total = Scalar::Int(0);
    for (s, d) in l.flat_modes() {
        total = total.add(&d.mul_int(crate::int::sub(s, 1)?)?)?;
    }
    fn rec(x: &Scalar, b: &mut Builder<i64>, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::value("coshape: nesting too deep"));
        }
        match x {
            Scalar::Int(v) => {
                b.leaf(crate::int::add(*v, 1)?);
                Ok(())
            }
            Scalar::F2(_) => Err(Error::type_(
                "coshape: an F2 codomain has no shape (draw a TV layout with integer or coordinate strides)",
            )),
            Scalar::Coord(c) => {
                b.open();
                for ch in c.children() {
                    rec(ch, b, depth + 1)?;
                }
                b.close();
                Ok(())
            }
        }
    }
    let mut b = Builder::new();
    rec(&total, &mut b, 0)?;
    let out: HTuple<i64> = b.finish();
    Ok(out)
}
