//! Partitioning (`docs/tensors.md`): C++ CuTe's `inner_partition` /
//! `local_tile` and `outer_partition` / `local_partition`, defined on
//! rcute's `zipped_divide` and tensor slicing.
//!
//! With `Z = zipped_divide(T, tiler)` (tile mode 0, rest mode 1):
//! `inner_partition` keeps a whole tile and chooses which one;
//! `outer_partition` keeps one position of every tile.

use crate::error::{Error, Result};
use crate::htuple::{HRef, HTuple};
use crate::layout::Layout;
use crate::shape::{crd2idx, Coord, DisplayCoord};
use crate::stride::Scalar;
use crate::tiler::Tiler;
use crate::tiler::TilerRef;

use super::accessor::{Accessor, AccessorMut};
use super::coord::IntoCoord;
use super::slice::slice_layout;
use super::Tensor;

/// One entry of a projection (C++ `Step<_1, X, _1>`): keep the mode, or
/// drop it (`X`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `_1`: the mode is kept.
    Keep,
    /// `X`: the mode is projected away.
    X,
}

/// `dice(proj, x)` (C++ `dice`): the top-level modes of `x` whose `proj`
/// entry is [`Step::Keep`], as a tuple.
///
/// Errors: `rank` when `proj` and `x` have different ranks.
///
/// ```
/// use rcute::tensor::{dice, Step};
/// use rcute::HTuple;
/// let x = HTuple::flat([4i64, 5, 6]);
/// assert_eq!(dice(&[Step::Keep, Step::X, Step::Keep], x.as_ref()).unwrap().to_string(), "(4, 6)");
/// ```
pub fn dice<T: Clone>(proj: &[Step], x: HRef<'_, T>) -> Result<HTuple<T>> {
    if proj.len() != x.rank() {
        return Err(Error::rank(format!(
            "dice: projection of {} entries for a value of rank {}",
            proj.len(),
            x.rank()
        )));
    }
    Ok(HTuple::from_refs(
        x.modes()
            .zip(proj)
            .filter(|(_, p)| **p == Step::Keep)
            .map(|(m, _)| m),
    ))
}

fn dice_tiler<'a>(proj: &[Step], tiler: &TilerRef<'a>) -> Result<TilerRef<'a>> {
    match tiler {
        TilerRef::Tuple(v) if v.len() == proj.len() => Ok(TilerRef::Tuple(
            v.iter()
                .zip(proj)
                .filter(|(_, p)| **p == Step::Keep)
                .map(|(t, _)| t.clone())
                .collect(),
        )),
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) if l.rank() == proj.len() && !l.is_leaf() => {
            Ok(TilerRef::Layout(Layout::concat_allow_empty(
                l.modes()
                    .zip(proj)
                    .filter(|(_, p)| **p == Step::Keep)
                    .map(|(m, _)| m),
            )))
        }
        _ => Err(Error::rank(format!(
            "dice: projection of {} entries for the tiler {tiler}",
            proj.len()
        ))),
    }
}

/// `all(r)`: `r` `None`s as a tuple when `r >= 2`, a single `None` otherwise.
fn all(r: usize) -> Coord {
    if r >= 2 {
        HTuple::flat(std::iter::repeat_n(None, r))
    } else {
        HTuple::leaf(None)
    }
}

/// A tuple coordinate padded with `None` to rank `r`; an integer as is.
fn pad(c: Coord, r: usize, what: &str) -> Result<Coord> {
    if c.is_leaf() {
        return Ok(c);
    }
    if c.rank() > r {
        return Err(Error::rank(format!(
            "{what}: coordinate {} has {} modes, the tiled mode has {r}",
            DisplayCoord(c.as_ref()),
            c.rank()
        )));
    }
    let mut modes: Vec<Coord> = c.as_ref().modes().map(|m| m.to_owned()).collect();
    modes.extend(std::iter::repeat_n(HTuple::leaf(None), r - c.rank()));
    Ok(HTuple::tuple(modes))
}

fn ranks(z: &Layout) -> Result<(usize, usize)> {
    Ok((z.mode(0)?.rank(), z.mode(1)?.rank()))
}

fn slice_z<'t, A: Accessor>(t: &'t Tensor<A>, z: &Layout, c: Coord) -> Result<Tensor<A::View<'t>>> {
    let (off, sub) = slice_layout(z, c.as_ref())?;
    Ok(Tensor {
        accessor: t.accessor.offset(&off)?,
        layout: sub,
    })
}

/// `inner_partition(T, tiler, coord)` (C++ `inner_partition`): with
/// `Z = zipped_divide(T, tiler)`, the tile `Z[(all, coord)]`: a tuple
/// `coord` names the leading rest modes (the others stay sliced), an
/// integer indexes the rest mode as a whole.
///
/// Errors: those of `zipped_divide` and of slicing (`rank` for a
/// coordinate that does not fit the rest mode).
///
/// ```
/// use rcute::tensor::{inner_partition, Tensor};
/// use rcute::{Layout, HTuple, Scalar, Tiler};
/// // D = (8,24):(1,8); zipped_divide(D, (4,8)) = ((4, 8), (2, 3)):((1, 8), (4, 64))
/// let d = Tensor::from_layout(Layout::column_major(HTuple::flat([8, 24])).unwrap());
/// let tiler = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
/// assert_eq!(inner_partition(&d, &tiler, (1, 2)).unwrap().to_string(), "{132} o (4, 8):(1, 8)");
/// assert_eq!(inner_partition(&d, &tiler, 5).unwrap().to_string(), "{132} o (4, 8):(1, 8)");
/// ```
pub fn inner_partition<'t, A: Accessor>(
    t: &'t Tensor<A>,
    tiler: &TilerRef<'_>,
    coord: impl IntoCoord,
) -> Result<Tensor<A::View<'t>>> {
    let (z, c) = inner_coord(&t.layout, tiler, coord.into_coord())?;
    slice_z(t, &z, c)
}

/// `Z = zipped_divide(L, tiler)` and the coordinate `(all, rest)`.
fn inner_coord(l: &Layout, tiler: &TilerRef<'_>, coord: Coord) -> Result<(Layout, Coord)> {
    let z = crate::algebra::zipped_divide(l, tiler)?;
    let (r0, r1) = ranks(&z)?;
    let rest = pad(coord, r1, "inner_partition")?;
    Ok((z, HTuple::tuple([all(r0), rest])))
}

/// `Z = zipped_divide(L, tiler)` and the coordinate `(tile, all)`.
fn outer_coord(l: &Layout, tiler: &TilerRef<'_>, coord: Coord) -> Result<(Layout, Coord)> {
    let z = crate::algebra::zipped_divide(l, tiler)?;
    let (r0, r1) = ranks(&z)?;
    let tile = pad(coord, r0, "outer_partition")?;
    Ok((z, HTuple::tuple([tile, all(r1)])))
}

fn slice_z_mut<'t, A: AccessorMut>(
    t: &'t mut Tensor<A>,
    z: &Layout,
    c: Coord,
) -> Result<Tensor<A::ViewMut<'t>>> {
    let (off, sub) = slice_layout(z, c.as_ref())?;
    Ok(Tensor {
        accessor: t.accessor.offset_mut(&off)?,
        layout: sub,
    })
}

/// [`local_tile`] as a mutable view (C++ `local_tile` on a writable tensor).
///
/// Errors: those of [`inner_partition`].
///
/// ```
/// use rcute::tensor::{fill, local_tile_mut, make_tensor_shape};
/// use rcute::Tiler;
/// let mut t = make_tensor_shape::<i32>((4, 4)).unwrap();
/// let tiler = Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2)].into());
/// fill(&mut local_tile_mut(&mut t, &tiler, (1, 0)).unwrap(), 1).unwrap();
/// assert_eq!(t.accessor().as_slice(), &[0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
/// ```
pub fn local_tile_mut<'t, A: AccessorMut>(
    t: &'t mut Tensor<A>,
    tiler: &TilerRef<'_>,
    coord: impl IntoCoord,
) -> Result<Tensor<A::ViewMut<'t>>> {
    let (z, c) = inner_coord(&t.layout, tiler, coord.into_coord())?;
    slice_z_mut(t, &z, c)
}

/// `outer_partition(T, tiler, coord)` (C++ `outer_partition`): with
/// `Z = zipped_divide(T, tiler)`, `Z[(coord, all)]`: position `coord` of
/// every tile.
///
/// Errors: those of `zipped_divide` and of slicing.
///
/// ```
/// use rcute::tensor::{outer_partition, Tensor};
/// use rcute::{Layout, HTuple, Tiler};
/// let d = Tensor::from_layout(Layout::column_major(HTuple::flat([8, 24])).unwrap());
/// let tiler = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
/// // element 5 = (1,1) of every tile
/// assert_eq!(outer_partition(&d, &tiler, 5).unwrap().to_string(), "{9} o (2, 3):(4, 64)");
/// ```
pub fn outer_partition<'t, A: Accessor>(
    t: &'t Tensor<A>,
    tiler: &TilerRef<'_>,
    coord: impl IntoCoord,
) -> Result<Tensor<A::View<'t>>> {
    let (z, c) = outer_coord(&t.layout, tiler, coord.into_coord())?;
    slice_z(t, &z, c)
}

/// `local_tile(T, tiler, coord)` = [`inner_partition`] (C++ `local_tile`):
/// the tile of `T` at tile coordinate `coord`.
///
/// Errors: those of [`inner_partition`].
///
/// ```
/// use rcute::tensor::{local_tile, make_tensor_shape};
/// use rcute::Tiler;
/// let t = make_tensor_shape::<f32>((8, 24)).unwrap();
/// let tile = local_tile(&t, &Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into()), (1, 2)).unwrap();
/// assert_eq!(tile.layout().to_string(), "(4, 8):(1, 8)");
/// assert_eq!(tile.accessor().base(), 132);
/// ```
pub fn local_tile<'t, A: Accessor>(
    t: &'t Tensor<A>,
    tiler: &TilerRef<'_>,
    coord: impl IntoCoord,
) -> Result<Tensor<A::View<'t>>> {
    inner_partition(t, tiler, coord)
}

/// `local_tile(T, tiler, coord, proj)` = `local_tile(T, dice(proj, tiler),
/// dice(proj, coord))` (C++ `local_tile` with a `Step` projection).
///
/// Errors: `rank` when `proj`, the tiler (a tuple or a layout) and `coord`
/// (a tuple) have different ranks; those of [`inner_partition`].
///
/// ```
/// use rcute::tensor::{local_tile_proj, Step, Tensor};
/// use rcute::{Layout, HTuple, Tiler};
/// // the (BM, BK) tile of A at (m, k) from a (BM, BN, BK) tiler, C++ Step<_1, X, _1>
/// let a = Tensor::from_layout(Layout::column_major(HTuple::flat([8, 12])).unwrap());
/// let tiler = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(2), Tiler::Int(3)].into());
/// let t = local_tile_proj(&a, &tiler, (1, 5, 2), &[Step::Keep, Step::X, Step::Keep]).unwrap();
/// assert_eq!(t.to_string(), "{52} o (4, 3):(1, 8)");
/// ```
pub fn local_tile_proj<'t, A: Accessor>(
    t: &'t Tensor<A>,
    tiler: &TilerRef<'_>,
    coord: impl IntoCoord,
    proj: &[Step],
) -> Result<Tensor<A::View<'t>>> {
    let coord = coord.into_coord();
    let c = dice(proj, coord.as_ref())?;
    inner_partition(t, &dice_tiler(proj, tiler)?, c)
}

/// `flat_coord(thr, idx)` (`docs/tensors.md`): the coordinate of thread
/// `idx` in the thread layout `thr`, one integer per top-level mode (a
/// single integer for a leaf-shaped `thr`): leaf by leaf
/// `(idx // d) mod s` (0 for a size-1 leaf), then each mode's coordinate in
/// its integral form. Meaningful for a `thr` that is a bijection onto
/// `[0, size)`.
///
/// Errors: `type` for non-integer strides; `value` for a stride 0 on a leaf
/// of extent > 1 (no thread maps there); `overflow`.
///
/// ```
/// use rcute::tensor::flat_coord;
/// use rcute::{Layout, HTuple, Scalar};
/// let thr = Layout::new(HTuple::flat([2, 16]), HTuple::flat([Scalar::Int(1), Scalar::Int(2)])).unwrap();
/// assert_eq!(flat_coord(&thr, 17).unwrap().to_string(), "(1, 8)");
/// ```
pub fn flat_coord(thr: &Layout, idx: i64) -> Result<HTuple<i64>> {
    let mode_coord = |m: &Layout| -> Result<i64> {
        let mut leaves = Vec::new();
        for (s, d) in m.flat_modes() {
            let d = match d {
                Scalar::Int(d) => *d,
                _ => {
                    return Err(Error::type_(format!(
                        "flat_coord: thread layout {thr} has the non-integer stride {d}"
                    )))
                }
            };
            let c = if s == 1 {
                0
            } else {
                if d == 0 {
                    return Err(Error::value(format!(
                        "flat_coord: thread layout {thr} has stride 0 on an extent {s}"
                    )));
                }
                crate::int::floor_mod(crate::int::floor_div(idx, d)?, s)?
            };
            leaves.push(Some(Scalar::Int(c)));
        }
        let c = HTuple::unflatten(leaves, m.shape().as_ref())?;
        crd2idx(c.as_ref(), m.shape().as_ref())
    };
    if thr.is_leaf() {
        return Ok(HTuple::leaf(mode_coord(thr)?));
    }
    let mut out = Vec::new();
    for m in thr.modes() {
        out.push(mode_coord(&m)?);
    }
    Ok(HTuple::flat(out))
}

/// `local_partition(T, thr, idx)` = `outer_partition(T,
/// product_each(shape(thr)), flat_coord(thr, idx))` (C++
/// `local_partition`): the elements of `T` that thread `idx` of the thread
/// layout `thr` owns, one per tile of `thr`'s shape.
///
/// Errors: those of [`flat_coord`] and [`outer_partition`].
///
/// ```
/// use rcute::tensor::{local_partition, Tensor};
/// use rcute::{Layout, HTuple, Scalar};
/// let d = Tensor::from_layout(Layout::column_major(HTuple::flat([16, 64])).unwrap());
/// let thr = Layout::column_major(HTuple::flat([2, 16])).unwrap();   // (2,16):(1,2)
/// // thread 17 = (1, 8)
/// assert_eq!(local_partition(&d, &thr, 17).unwrap().to_string(), "{129} o (8, 4):(2, 256)");
/// ```
pub fn local_partition<'t, A: Accessor>(
    t: &'t Tensor<A>,
    thr: &Layout,
    idx: i64,
) -> Result<Tensor<A::View<'t>>> {
    let (tiler, coord) = thread_tiler(thr, idx)?;
    outer_partition(t, &tiler, coord)
}

/// `product_each(shape(thr))` as a tiler and `flat_coord(thr, idx)`.
fn thread_tiler(thr: &Layout, idx: i64) -> Result<(Tiler, Coord)> {
    let tiler = if thr.is_leaf() {
        TilerRef::Int(thr.size()?)
    } else {
        TilerRef::Tuple(
            thr.modes()
                .map(|m| m.size().map(TilerRef::Int))
                .collect::<Result<_>>()?,
        )
    };
    let c = flat_coord(thr, idx)?;
    Ok((tiler, c.map(|&v| Some(Scalar::Int(v)))))
}

/// [`local_partition`] as a mutable view: the elements thread `idx` owns,
/// writable.
///
/// Errors: those of [`local_partition`].
///
/// ```
/// use rcute::tensor::{fill, local_partition_mut, make_tensor_shape};
/// use rcute::{Layout, HTuple};
/// let mut t = make_tensor_shape::<i32>(8).unwrap();
/// let thr = Layout::column_major(HTuple::leaf(4)).unwrap();
/// fill(&mut local_partition_mut(&mut t, &thr, 1).unwrap(), 1).unwrap();
/// assert_eq!(t.accessor().as_slice(), &[0, 1, 0, 0, 0, 1, 0, 0]);
/// ```
pub fn local_partition_mut<'t, A: AccessorMut>(
    t: &'t mut Tensor<A>,
    thr: &Layout,
    idx: i64,
) -> Result<Tensor<A::ViewMut<'t>>> {
    let (tiler, coord) = thread_tiler(thr, idx)?;
    let (z, c) = outer_coord(&t.layout, &tiler, coord)?;
    slice_z_mut(t, &z, c)
}

/// `local_partition(T, thr, idx, proj)` = `local_partition(T, dice(proj,
/// thr), idx)` (C++ `local_partition` with a `Step` projection).
///
/// Errors: `rank` when `proj` and `thr` have different ranks; those of
/// [`local_partition`].
///
/// ```
/// use rcute::tensor::{local_partition_proj, Step, Tensor};
/// use rcute::{Layout, HTuple, Scalar};
/// let d = Tensor::from_layout(Layout::column_major(HTuple::flat([16, 64])).unwrap());
/// // (2,3,16):(1,32,2); the projection keeps (2,16):(1,2)
/// let thr = Layout::new(HTuple::flat([2, 3, 16]), HTuple::flat([1, 32, 2].map(Scalar::Int))).unwrap();
/// let p = local_partition_proj(&d, &thr, 17, &[Step::Keep, Step::X, Step::Keep]).unwrap();
/// assert_eq!(p.to_string(), "{129} o (8, 4):(2, 256)");
/// ```
pub fn local_partition_proj<'t, A: Accessor>(
    t: &'t Tensor<A>,
    thr: &Layout,
    idx: i64,
    proj: &[Step],
) -> Result<Tensor<A::View<'t>>> {
    if thr.is_leaf() || thr.rank() != proj.len() {
        return Err(Error::rank(format!(
            "local_partition: projection of {} entries for the thread layout {thr}",
            proj.len()
        )));
    }
    let kept = Layout::concat(
        thr.modes()
            .zip(proj)
            .filter(|(_, p)| **p == Step::Keep)
            .map(|(m, _)| m),
    )?;
    local_partition(t, &kept, idx)
}
