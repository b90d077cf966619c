//! The reference COPY (`docs/tensors.md`), `fill` and `clear`.
//!
//! `copy(src, dst)` is one rank-1 loop, `dst[i] = src[i]` for the integral
//! coordinates `i` in colexicographic order; the two layouts decide what it
//! means (memcpy, transpose, broadcast, gather, scatter, ...). Every access
//! is checked before anything is written.
//!
//! Between two memory tensors with integer strides the loop is
//! restructured without changing its result: both layouts are refined to a
//! common sequence of modes `(extent, source stride, destination stride)`;
//! destination modes of stride 0 keep only their last coordinate (the last
//! write wins); when the rest of the destination is provably injective the
//! order of the writes no longer matters, so the modes are sorted by
//! destination stride, merged, tiled (a 2-D tile when the source is more
//! contiguous along another mode than along the destination's fastest one,
//! i.e. a transpose) and split across threads along the destination's
//! slowest mode, whose slabs are disjoint windows of the buffer. A
//! destination that may alias itself is copied sequentially in the
//! reference order.

use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::stride::Scalar;

use super::accessor::{Accessor, AccessorMut};
use super::Tensor;

/// Elements below which the copy stays on one thread.
const PAR_THRESHOLD: i64 = 1 << 17;
/// Minimum elements per thread.
const PAR_MIN_PER_THREAD: i64 = 1 << 16;

/// `copy(src, dst)`: `dst[i] = src[i]` for every integral coordinate `i`
/// (`docs/tensors.md`, C++ `cute::copy`, PyCuTe `alg.copy`).
///
/// Sizes must agree; shapes may differ (both are read by the integral
/// coordinate). A destination that maps several coordinates to one element
/// ends with the value of the last one, as in the reference loop.
///
/// Errors (all reported before anything is written, for the accessors of
/// this crate): `value` for a size mismatch; `bounds` when a layout reaches
/// outside its buffer; `type` for offsets a memory accessor cannot take
/// (coordinate values); `overflow`.
///
/// Between memory accessors with integer strides the copy is tiled and,
/// above about 2^17 elements, multi-threaded.
///
/// ```
/// use rcute::tensor::{copy, make_tensor, Tensor};
/// use rcute::{Layout, HTuple, Scalar};
/// // (2,3):(3,1) -> (2,3):(1,2): a transpose
/// let rm = Layout::row_major(HTuple::flat([2, 3])).unwrap();
/// let src = Tensor::from_vec((0..6).collect::<Vec<i64>>(), rm).unwrap();
/// let mut dst = make_tensor::<i64>(Layout::column_major(HTuple::flat([2, 3])).unwrap()).unwrap();
/// copy(&src, &mut dst).unwrap();
/// assert_eq!(dst.accessor().as_slice(), &[0, 3, 1, 4, 2, 5]);
/// // a layout reaching outside the buffer: nothing is written
/// let mut small = Tensor::from_vec(vec![-1i64; 5], Layout::column_major(HTuple::flat([2, 3])).unwrap()).unwrap();
/// assert!(copy(&src, &mut small).is_err());
/// assert_eq!(small.accessor().as_slice(), &[-1; 5]);
/// ```
pub fn copy<S, D>(src: &Tensor<S>, dst: &mut Tensor<D>) -> Result<()>
where
    S: Accessor,
    D: AccessorMut<Value = S::Value>,
    S::Value: Clone + Send + Sync,
{
    let n = src.size()?;
    let m = dst.size()?;
    if n != m {
        return Err(Error::value(format!(
            "copy: size mismatch: source {src} has size {n}, destination {dst} has size {m}"
        )));
    }
    if let (Some(sm), Some(dm)) = (int_modes(&src.layout), int_modes(&dst.layout)) {
        if let Some((sdata, sbase)) = src.accessor.memory() {
            check_range("copy: source", &src.layout, &sm, sbase, sdata.len())?;
            let dlayout = &dst.layout;
            if let Some((ddata, dbase)) = dst.accessor.memory_mut() {
                check_range("copy: destination", dlayout, &dm, dbase, ddata.len())?;
                if fits(&sm, sbase) && fits(&dm, dbase) {
                    match Plan::new(&sm, sbase, &dm, dbase) {
                        Some(plan) => plan.run(sdata, ddata),
                        None => copy_colex(sdata, sbase, &sm, ddata, dbase, &dm, n),
                    }
                    return Ok(());
                }
            }
        }
    }
    // Generic path: validate every read and every write target first,
    // then read again and write (accessors are side-effect free).
    for i in 0..n {
        src.accessor.read(&src.layout.eval_index(i)?)?;
        dst.accessor.check_write(&dst.layout.eval_index(i)?)?;
    }
    for i in 0..n {
        let v = src.accessor.read(&src.layout.eval_index(i)?)?;
        dst.accessor.write(&dst.layout.eval_index(i)?, v)?;
    }
    Ok(())
}

/// `fill(T, v)`: stores `v` in every element of `T` (C++ `cute::fill`).
///
/// Errors (before anything is written): `bounds` when the layout reaches
/// outside the buffer; `type` for offsets the accessor cannot take.
///
/// ```
/// use rcute::tensor::{fill, make_tensor_shape};
/// let mut t = make_tensor_shape::<f32>((2, 2)).unwrap();
/// fill(&mut t, 1.5).unwrap();
/// assert_eq!(t.accessor().as_slice(), &[1.5; 4]);
/// ```
pub fn fill<D>(dst: &mut Tensor<D>, v: D::Value) -> Result<()>
where
    D: AccessorMut,
    D::Value: Clone,
{
    let n = dst.size()?;
    if let Some(dm) = int_modes(&dst.layout) {
        let dlayout = &dst.layout;
        if let Some((ddata, dbase)) = dst.accessor.memory_mut() {
            check_range("fill", dlayout, &dm, dbase, ddata.len())?;
            if !fits(&dm, dbase) {
                return fill_generic(dst, v, n);
            }
            // Stride-0 modes rewrite the same elements: drop them. Every
            // offset is inside the buffer (checked above), so the sums
            // below stay within [0, len).
            let mut modes: Vec<(i64, i64)> =
                dm.into_iter().filter(|&(s, d)| s > 1 && d != 0).collect();
            let mut base = dbase;
            for (s, d) in modes.iter_mut() {
                if *d < 0 {
                    base += (*s - 1) * *d;
                    *d = -*d;
                }
            }
            modes.sort_by_key(|&(_, d)| d);
            let (first, rest) = match modes.split_first() {
                Some((f, r)) => (*f, r),
                None => ((1, 1), &[][..]),
            };
            let outer: Vec<Mode> = rest.iter().map(|&(n, dd)| Mode { n, ds: 0, dd }).collect();
            for_each_outer(&outer, 0, base, &mut |_, d| {
                let (len, dd) = first;
                if dd == 1 {
                    ddata[d as usize..(d + len) as usize].fill(v.clone());
                } else {
                    for j in 0..len {
                        ddata[(d + j * dd) as usize] = v.clone();
                    }
                }
            });
            return Ok(());
        }
    }
    fill_generic(dst, v, n)
}

fn fill_generic<D>(dst: &mut Tensor<D>, v: D::Value, n: i64) -> Result<()>
where
    D: AccessorMut,
    D::Value: Clone,
{
    for i in 0..n {
        dst.accessor.check_write(&dst.layout.eval_index(i)?)?;
    }
    for i in 0..n {
        dst.accessor.write(&dst.layout.eval_index(i)?, v.clone())?;
    }
    Ok(())
}

/// `clear(T)`: fills `T` with the element type's default value (zero for
/// numbers; C++ `cute::clear`). Errors: those of [`fill`].
///
/// ```
/// use rcute::tensor::{clear, Tensor};
/// use rcute::{Layout, HTuple};
/// let mut t = Tensor::from_vec(vec![3, 4, 5], Layout::column_major(HTuple::leaf(3)).unwrap()).unwrap();
/// clear(&mut t).unwrap();
/// assert_eq!(t.accessor().as_slice(), &[0, 0, 0]);
/// ```
pub fn clear<D>(dst: &mut Tensor<D>) -> Result<()>
where
    D: AccessorMut,
    D::Value: Clone + Default,
{
    fill(dst, D::Value::default())
}

/// The flat `(extent, stride)` leaves of a layout with integer strides
/// (F2 strides excluded), or `None`.
fn int_modes(l: &Layout) -> Option<Vec<(i64, i64)>> {
    l.flat_modes()
        .map(|(s, d)| match d {
            Scalar::Int(d) => Some((s, *d)),
            _ => None,
        })
        .collect()
}

/// Checks that every offset `base + L(i)`, `0 <= i < size(L)`, lies in
/// `[0, len)`: the extreme offsets of a layout over its domain are
/// `base + sum of min(0, (s-1)*d)` and `base + sum of max(0, (s-1)*d)`.
fn check_range(
    what: &str,
    layout: &Layout,
    modes: &[(i64, i64)],
    base: i64,
    len: usize,
) -> Result<()> {
    let (mut lo, mut hi) = (base, base);
    for &(s, d) in modes {
        let e = crate::int::mul(crate::int::sub(s, 1)?, d)?;
        if e < 0 {
            lo = crate::int::add(lo, e)?;
        } else {
            hi = crate::int::add(hi, e)?;
        }
    }
    let len_i = i64::try_from(len).unwrap_or(i64::MAX);
    if lo < 0 || hi >= len_i {
        return Err(Error::bounds(format!(
            "{what} layout {layout} from element {base} reaches elements {lo}..={hi}, \
             outside the buffer of {len} elements"
        )));
    }
    Ok(())
}

/// True when `|base| + sum(s * |d|)` (over the leaves of extent > 1; the
/// odometers skip the others) fits in 64 bits: then every
/// intermediate offset of the odometers below (which step at most one
/// extent past a mode) is computed without overflow.
fn fits(modes: &[(i64, i64)], base: i64) -> bool {
    let mut acc = match base.checked_abs() {
        Some(b) => b,
        None => return false,
    };
    for &(s, d) in modes.iter().filter(|&&(s, _)| s > 1) {
        match d
            .checked_abs()
            .and_then(|d| d.checked_mul(s))
            .and_then(|x| acc.checked_add(x))
        {
            Some(a) => acc = a,
            None => return false,
        }
    }
    true
}

/// The reference loop between two buffers whose layouts have no common
/// refinement: two odometers, one per layout, stepped together.
fn copy_colex<T: Clone>(
    src: &[T],
    sbase: i64,
    sm: &[(i64, i64)],
    dst: &mut [T],
    dbase: i64,
    dm: &[(i64, i64)],
    n: i64,
) {
    let sm: Vec<(i64, i64)> = sm.iter().copied().filter(|&(s, _)| s > 1).collect();
    let dm: Vec<(i64, i64)> = dm.iter().copied().filter(|&(s, _)| s > 1).collect();
    let mut so = Odometer::new(&sm, sbase);
    let mut dob = Odometer::new(&dm, dbase);
    for _ in 0..n {
        dst[dob.at as usize] = src[so.at as usize].clone();
        so.step();
        dob.step();
    }
}

/// The offset of a flat integer layout at an integral coordinate that
/// advances by one at each `step` (colexicographic).
struct Odometer<'a> {
    modes: &'a [(i64, i64)],
    idx: Vec<i64>,
    at: i64,
}

impl<'a> Odometer<'a> {
    fn new(modes: &'a [(i64, i64)], base: i64) -> Self {
        Odometer {
            modes,
            idx: vec![0; modes.len()],
            at: base,
        }
    }
    fn step(&mut self) {
        for (k, &(s, d)) in self.modes.iter().enumerate() {
            self.idx[k] += 1;
            self.at += d;
            if self.idx[k] < s {
                return;
            }
            self.at -= d * s;
            self.idx[k] = 0;
        }
    }
}

/// One mode of the refined iteration space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mode {
    n: i64,
    ds: i64,
    dd: i64,
}

/// The common refinement of two flat integer layouts of equal size, read
/// colexicographically: a sequence of modes along which both are affine.
/// `None` when no common refinement exists (e.g. `(2,3)` against `(3,2)`)
/// or on overflow.
fn refine(s: &[(i64, i64)], d: &[(i64, i64)]) -> Option<Vec<Mode>> {
    let mut out = Vec::new();
    let mut si = s.iter().copied().filter(|&(n, _)| n > 1);
    let mut di = d.iter().copied().filter(|&(n, _)| n > 1);
    let mut cs = si.next();
    let mut cd = di.next();
    loop {
        match (cs, cd) {
            (None, None) => return Some(out),
            (Some((a, da)), Some((b, db))) => {
                if a == b {
                    out.push(Mode {
                        n: a,
                        ds: da,
                        dd: db,
                    });
                    cs = si.next();
                    cd = di.next();
                } else if a < b {
                    if b % a != 0 {
                        return None;
                    }
                    out.push(Mode {
                        n: a,
                        ds: da,
                        dd: db,
                    });
                    cd = Some((b / a, db.checked_mul(a)?));
                    cs = si.next();
                } else {
                    if a % b != 0 {
                        return None;
                    }
                    out.push(Mode {
                        n: b,
                        ds: da,
                        dd: db,
                    });
                    cs = Some((a / b, da.checked_mul(b)?));
                    cd = di.next();
                }
            }
            // equal sizes: one side cannot run out first
            _ => return None,
        }
    }
}

/// An executable copy between two buffers whose offsets have all been
/// checked. Invariant: every offset the plan produces is inside its buffer,
/// and every intermediate sum is bounded by `|base| + sum(n*|stride|)`,
/// which was checked to fit in 64 bits, so plain arithmetic cannot overflow.
struct Plan {
    modes: Vec<Mode>,
    sbase: i64,
    dbase: i64,
    /// true when the destination is injective on `modes` (free order)
    free: bool,
}

impl Plan {
    fn new(s: &[(i64, i64)], sbase: i64, d: &[(i64, i64)], dbase: i64) -> Option<Plan> {
        let mut modes = refine(s, d)?;
        // overflow guard for the plain arithmetic of the kernels
        let mut sb = sbase.checked_abs()?;
        let mut db = dbase.checked_abs()?;
        for m in &modes {
            sb = sb.checked_add(m.n.checked_mul(m.ds.checked_abs()?)?)?;
            db = db.checked_add(m.n.checked_mul(m.dd.checked_abs()?)?)?;
        }
        // Destination stride 0: the last coordinate of the mode wins.
        let mut sbase = sbase;
        modes.retain(|m| {
            if m.dd == 0 {
                sbase += (m.n - 1) * m.ds;
                false
            } else {
                true
            }
        });
        // Injectivity (sufficient): sorted by |dd|, each stride exceeds the
        // span of the smaller ones.
        let mut sorted = modes.clone();
        sorted.sort_by_key(|m| m.dd.abs());
        let mut span: i64 = 0;
        let mut free = true;
        for m in &sorted {
            if m.dd.abs() <= span {
                free = false;
                break;
            }
            span += (m.n - 1) * m.dd.abs();
        }
        let mut dbase = dbase;
        if free {
            // Order is free: make every destination stride positive, sort,
            // and merge modes contiguous in both buffers.
            for m in sorted.iter_mut() {
                if m.dd < 0 {
                    sbase += (m.n - 1) * m.ds;
                    dbase += (m.n - 1) * m.dd;
                    m.ds = -m.ds;
                    m.dd = -m.dd;
                }
            }
            let mut merged: Vec<Mode> = Vec::with_capacity(sorted.len());
            for m in sorted {
                match merged.last_mut() {
                    Some(p) if p.n * p.ds == m.ds && p.n * p.dd == m.dd => p.n *= m.n,
                    _ => merged.push(m),
                }
            }
            modes = merged;
        }
        Some(Plan {
            modes,
            sbase,
            dbase,
            free,
        })
    }

    fn run<T: Clone + Send + Sync>(&self, src: &[T], dst: &mut [T]) {
        if !self.free {
            // reference order: colexicographic over the refined modes
            for_each_outer(&self.modes, self.sbase, self.dbase, &mut |s, d| {
                dst[d as usize] = src[s as usize].clone();
            });
            return;
        }
        let total: i64 = self.modes.iter().map(|m| m.n).product();
        let threads = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .min(64) as i64;
        let last = self.modes.last().copied();
        let chunks = match last {
            Some(p) if total >= PAR_THRESHOLD && threads > 1 => {
                threads.min(p.n).min(total / PAR_MIN_PER_THREAD)
            }
            _ => 1,
        };
        let (Some(p), true) = (last, chunks > 1) else {
            run_free(&self.modes, src, self.sbase, dst, self.dbase);
            return;
        };
        // Split along the slowest destination mode P: slab [a, b) of P
        // occupies the window [dbase + a*ddP, dbase + (b-1)*ddP + span],
        // and span < ddP (injectivity), so the windows are disjoint.
        let k = self.modes.len() - 1;
        let span: i64 = self.modes[..k].iter().map(|m| (m.n - 1) * m.dd).sum();
        let mut jobs = Vec::new();
        let mut rest: &mut [T] = dst;
        let mut rest_start: i64 = 0;
        for c in 0..chunks {
            let a = p.n * c / chunks;
            let b = p.n * (c + 1) / chunks;
            if a == b {
                continue;
            }
            let w0 = self.dbase + a * p.dd;
            let w1 = self.dbase + (b - 1) * p.dd + span + 1;
            let (_, tail) = std::mem::take(&mut rest).split_at_mut((w0 - rest_start) as usize);
            let (win, tail) = tail.split_at_mut((w1 - w0) as usize);
            rest = tail;
            rest_start = w1;
            let mut modes = self.modes.clone();
            modes[k].n = b - a;
            jobs.push((modes, self.sbase + a * p.ds, win));
        }
        // the calling thread takes the last slab itself
        let mine = jobs.pop();
        std::thread::scope(|scope| {
            for (modes, sbase, win) in jobs {
                scope.spawn(move || run_free(&modes, src, sbase, win, 0));
            }
            if let Some((modes, sbase, win)) = mine {
                run_free(&modes, src, sbase, win, 0);
            }
        });
    }
}

/// Calls `f(src offset, dst offset)` for every point of the modes,
/// colexicographically (mode 0 fastest).
fn for_each_outer(modes: &[Mode], so: i64, d0: i64, f: &mut impl FnMut(i64, i64)) {
    let mut idx = vec![0i64; modes.len()];
    let (mut s, mut d) = (so, d0);
    loop {
        f(s, d);
        let mut k = 0;
        loop {
            let Some(m) = modes.get(k) else { return };
            idx[k] += 1;
            s += m.ds;
            d += m.dd;
            if idx[k] < m.n {
                break;
            }
            s -= m.ds * m.n;
            d -= m.dd * m.n;
            idx[k] = 0;
            k += 1;
        }
    }
}

/// Copies `n` elements along one mode.
#[inline]
fn copy_line<T: Clone>(src: &[T], s: i64, ds: i64, dst: &mut [T], d: i64, dd: i64, n: i64) {
    if dd == 1 {
        let row = &mut dst[d as usize..(d + n) as usize];
        if ds == 1 {
            row.clone_from_slice(&src[s as usize..(s + n) as usize]);
        } else {
            for (j, x) in row.iter_mut().enumerate() {
                *x = src[(s + j as i64 * ds) as usize].clone();
            }
        }
    } else {
        for j in 0..n {
            dst[(d + j * dd) as usize] = src[(s + j * ds) as usize].clone();
        }
    }
}

/// Copies over modes sorted by increasing positive destination stride
/// (order free). Mode 0 is the destination's fastest; when the source is
/// more contiguous along another mode `k`, modes 0 and `k` are copied in
/// square tiles through a small buffer (see [`transpose_tiles`]).
fn run_free<T: Clone>(modes: &[Mode], src: &[T], sbase: i64, dst: &mut [T], dbase: i64) {
    let Some((&m0, rest)) = modes.split_first() else {
        dst[dbase as usize] = src[sbase as usize].clone();
        return;
    };
    let tile_with = rest
        .iter()
        .enumerate()
        .filter(|(_, m)| m.n > 1)
        .min_by_key(|(_, m)| m.ds.abs())
        .filter(|(_, m)| m0.ds.abs() > 1 && m.ds.abs() < m0.ds.abs())
        .map(|(i, _)| i);
    match tile_with {
        None => {
            for_each_outer(rest, sbase, dbase, &mut |s, d| {
                copy_line(src, s, m0.ds, dst, d, m0.dd, m0.n);
            });
        }
        Some(i) => {
            let mk = rest[i];
            let mut outer: Vec<Mode> = rest.to_vec();
            outer.remove(i);
            let tile = tile_edge::<T>();
            let mut buf: Vec<T> = vec![src[sbase as usize].clone(); (tile * tile) as usize];
            for_each_outer(&outer, sbase, dbase, &mut |s, d| {
                transpose_tiles(src, s, dst, d, m0, mk, tile, &mut buf);
            });
        }
    }
}

/// The tile edge of the 2-D kernel: about 256 bytes of elements per tile
/// row (64 `f32`), between 16 and 64 elements.
fn tile_edge<T>() -> i64 {
    let size = std::mem::size_of::<T>().max(1) as i64;
    (256 / size).clamp(16, 64)
}

/// Copies the plane of modes `a` (the destination's fastest) and `b` (the
/// source's fastest) tile by tile through `buf`: each tile is gathered row
/// by row along `b` (contiguous in the source), then scattered row by row
/// along `a` (contiguous in the destination), so both buffers are walked
/// in whole cache lines. Tiles advance along `a` innermost, so the
/// destination rows of a band of `b` are written sequentially.
#[allow(clippy::too_many_arguments)]
fn transpose_tiles<T: Clone>(
    src: &[T],
    s: i64,
    dst: &mut [T],
    d: i64,
    a: Mode,
    b: Mode,
    tile: i64,
    buf: &mut [T],
) {
    let t = tile as usize;
    let mut b0 = 0;
    while b0 < b.n {
        let lb = tile.min(b.n - b0);
        let mut a0 = 0;
        while a0 < a.n {
            let la = tile.min(a.n - a0);
            for ai in 0..la {
                let row = &mut buf[ai as usize * t..ai as usize * t + lb as usize];
                let so = s + (a0 + ai) * a.ds + b0 * b.ds;
                if b.ds == 1 {
                    row.clone_from_slice(&src[so as usize..(so + lb) as usize]);
                } else {
                    for (j, x) in row.iter_mut().enumerate() {
                        *x = src[(so + j as i64 * b.ds) as usize].clone();
                    }
                }
            }
            for bi in 0..lb {
                let dof = d + (b0 + bi) * b.dd + a0 * a.dd;
                let col = bi as usize;
                if a.dd == 1 {
                    let row = &mut dst[dof as usize..(dof + la) as usize];
                    for (j, x) in row.iter_mut().enumerate() {
                        *x = buf[j * t + col].clone();
                    }
                } else {
                    for j in 0..la {
                        dst[(dof + j * a.dd) as usize] = buf[j as usize * t + col].clone();
                    }
                }
            }
            a0 += la;
        }
        b0 += lb;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refine_splits_and_rejects() {
        let r = refine(&[(6, 1)], &[(2, 3), (3, 1)]).unwrap();
        assert_eq!(
            r,
            vec![Mode { n: 2, ds: 1, dd: 3 }, Mode { n: 3, ds: 2, dd: 1 }]
        );
        assert!(refine(&[(2, 1), (3, 2)], &[(3, 1), (2, 3)]).is_none());
    }
}
