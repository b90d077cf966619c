//! Whole-layout evaluation: every offset `L(i)`, `i` in `[0, size(L))`,
//! written into an `i64` buffer (index tables, gathers, copies).
//!
//! The layout is flattened and coalesced to its flat modes `(s_k, d_k)`.
//! The leading modes whose extents multiply to at most [`TILE`] elements
//! are evaluated once into a *template* (their offsets in colexicographic
//! order); the output is then a sequence of segments, each the template
//! plus a base offset. The bases come from an incremental odometer over
//! the remaining modes (one addition per segment, a subtraction on each
//! carry; no division in the loop), and each segment is one vectorisable
//! `out[t] = base + template[t]` pass. All offsets are bounded up front
//! (`sum (s_k - 1) |d_k|` must fit in 64 bits), so the loops need no
//! overflow checks. Above [`PARALLEL_THRESHOLD`] elements the segments are
//! split into contiguous ranges filled by scoped threads, each starting its
//! odometer with one mixed-radix division.

use crate::error::{Error, Result};
use crate::int;
use crate::layout::Layout;
use crate::stride::Scalar;

/// Largest template, in elements (256 KiB of offsets: stays in L2).
pub const TILE: usize = 1 << 15;
/// Smallest size filled by several threads.
pub const PARALLEL_THRESHOLD: usize = 1 << 18;

/// The flat, coalesced integer modes of `l` (extent-1 modes dropped,
/// `(s0, d0), (s1, s0 * d0)` merged). Errors: `type` for a non-integer
/// stride.
fn flat_integer_modes(l: &Layout) -> Result<Vec<(i64, i64)>> {
    let mut modes: Vec<(i64, i64)> = Vec::with_capacity(l.shape().leaves().len());
    for (s, d) in l.flat_modes() {
        let d = match d {
            Scalar::Int(d) => *d,
            d => {
                return Err(Error::type_(format!(
                    "eval_all: {l} has the non-integer stride {d}; whole-layout \
                     evaluation needs integer strides"
                )))
            }
        };
        if s == 1 {
            continue;
        }
        if let Some(last) = modes.last_mut() {
            if last.0.checked_mul(last.1) == Some(d) {
                last.0 = int::mul(last.0, s)?;
                continue;
            }
        }
        modes.push((s, d));
    }
    Ok(modes)
}

/// Writes `L(i)` for every `i` in `[0, size(L))` into `out`
/// (`out.len()` must equal `size(L)`), i.e. `out[i] = crd2idx(i, S, D)` for
/// the layout `S:D`. Vectorised and, above [`PARALLEL_THRESHOLD`] elements,
/// multi-threaded; see the module documentation.
///
/// Errors: `type` for a non-integer (coordinate or F2) stride; `value` when
/// `out.len() != size(L)` or an extent is not positive; `overflow` when an
/// offset or the size does not fit in 64 bits.
/// (`docs/language.md`, "Evaluating a layout", every index at once; C++ CuTe has no single
/// function for it, the closest is evaluating `layout(i)` in a loop.)
///
/// ```
/// use rcute::{notation::eval_value, notation::Value, offsets::fill_offsets};
/// let Value::Layout(l) = eval_value("((2,3),2):((3,1),10)").unwrap() else { panic!() };
/// let mut out = vec![0i64; 12];
/// fill_offsets(&l, &mut out).unwrap();
/// assert_eq!(out, [0, 3, 1, 4, 2, 5, 10, 13, 11, 14, 12, 15]);
/// assert!(fill_offsets(&l, &mut [0i64; 5]).is_err());
/// ```
pub fn fill_offsets(l: &Layout, out: &mut [i64]) -> Result<()> {
    fill_offsets_with(l, out, available_threads())
}

fn available_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// [`fill_offsets`] with at most `threads` threads (1: single-threaded).
/// Errors: those of [`fill_offsets`].
///
/// ```
/// use rcute::{notation::eval_value, notation::Value, offsets::fill_offsets_with};
/// let Value::Layout(l) = eval_value("(4,3):(3,1)").unwrap() else { panic!() };
/// let mut out = vec![0i64; 12];
/// fill_offsets_with(&l, &mut out, 1).unwrap();
/// assert_eq!(&out[..5], &[0, 3, 6, 9, 1]);
/// ```
pub fn fill_offsets_with(l: &Layout, out: &mut [i64], threads: usize) -> Result<()> {
    if let Some(&e) = l.shape().leaves().iter().find(|&&e| e <= 0) {
        return Err(Error::value(format!(
            "eval_all: {l} has the non-positive extent {e}"
        )));
    }
    let size = l.size()?;
    if usize::try_from(size).ok() != Some(out.len()) {
        return Err(Error::value(format!(
            "eval_all: the buffer has {} elements, {l} has size {size}",
            out.len()
        )));
    }
    let mut modes = flat_integer_modes(l)?;
    // every offset is a sum of terms t_k d_k with |t_k d_k| <= (s_k - 1)|d_k|,
    // so bounding this sum bounds every partial sum computed below
    let mut bound: i64 = 0;
    for &(s, d) in &modes {
        let term = int::mul(s - 1, d.checked_abs().ok_or_else(|| overflow(l))?)
            .map_err(|_| overflow(l))?;
        bound = int::add(bound, term).map_err(|_| overflow(l))?;
    }
    if modes.is_empty() {
        if let Some(o) = out.first_mut() {
            *o = 0;
        }
        return Ok(());
    }
    // a first mode longer than a template: split it (s0 = b * q) when it has
    // a divisor b in [TILE/16, TILE]
    let (s0, d0) = modes[0];
    if s0 as usize > TILE {
        let lo = (TILE / 16) as i64;
        if let Some(b) = (lo..=TILE as i64).rev().find(|b| s0 % b == 0) {
            modes[0] = (b, d0);
            modes.insert(1, (s0 / b, b.wrapping_mul(d0)));
        }
    }
    // template: the leading modes with product <= TILE
    let mut t_len: usize = 1;
    let mut m = 0;
    while let Some(&(s, _)) = modes.get(m) {
        match t_len.checked_mul(s as usize) {
            Some(t) if t <= TILE => t_len = t,
            _ => break,
        }
        m += 1;
    }
    let outer = &modes[m..];
    if m == 0 {
        // a huge first mode without a usable divisor: rows of s0 computed
        // directly, base + t * d0
        let (s0, d0) = modes[0];
        let row = s0 as usize;
        let rows = out.len() / row;
        let rest = &modes[1..];
        parallel_segments(
            out,
            row,
            rows,
            threads,
            |seg, base| {
                for (t, o) in seg.iter_mut().enumerate() {
                    *o = base.wrapping_add((t as i64).wrapping_mul(d0));
                }
            },
            rest,
        );
        return Ok(());
    }
    let mut tmpl = vec![0i64; t_len];
    fill_template(&modes[..m], &mut tmpl);
    let segments = out.len() / t_len;
    let tmpl = &tmpl[..];
    parallel_segments(
        out,
        t_len,
        segments,
        threads,
        |seg, base| {
            for (o, &t) in seg.iter_mut().zip(tmpl) {
                *o = base.wrapping_add(t);
            }
        },
        outer,
    );
    Ok(())
}

fn overflow(l: &Layout) -> Error {
    Error::overflow(format!("eval_all: the offsets of {l} overflow 64 bits"))
}

/// The offsets of the flat `modes` (product = `tmpl.len()`), colex order.
fn fill_template(modes: &[(i64, i64)], tmpl: &mut [i64]) {
    let mut len = 1usize;
    tmpl[0] = 0;
    for &(s, d) in modes {
        let s = s as usize;
        for k in 1..s {
            let add = (k as i64).wrapping_mul(d);
            let (done, rest) = tmpl.split_at_mut(k * len);
            for (o, &v) in rest[..len].iter_mut().zip(&done[..len]) {
                *o = v.wrapping_add(add);
            }
        }
        len *= s;
    }
}

/// Splits `out` into `segments` segments of `seg_len` elements, computes
/// each segment's base offset from the `outer` modes with an odometer and
/// calls `fill(segment, base)`; several threads above the threshold.
fn parallel_segments(
    out: &mut [i64],
    seg_len: usize,
    segments: usize,
    threads: usize,
    fill: impl Fn(&mut [i64], i64) + Sync,
    outer: &[(i64, i64)],
) {
    let threads = if out.len() >= PARALLEL_THRESHOLD {
        threads.clamp(1, segments.max(1))
    } else {
        1
    };
    if threads <= 1 {
        run_segments(out, seg_len, 0, outer, &fill);
        return;
    }
    let per = segments.div_ceil(threads);
    std::thread::scope(|sc| {
        let mut rest = out;
        let mut first = 0usize;
        while !rest.is_empty() {
            let n = per.min(rest.len() / seg_len);
            let (mine, tail) = rest.split_at_mut(n * seg_len);
            rest = tail;
            let start = first;
            first += n;
            let fill = &fill;
            if rest.is_empty() {
                run_segments(mine, seg_len, start, outer, fill);
            } else {
                sc.spawn(move || run_segments(mine, seg_len, start, outer, fill));
            }
        }
    });
}

/// Fills consecutive segments starting at segment number `first`.
fn run_segments(
    out: &mut [i64],
    seg_len: usize,
    first: usize,
    outer: &[(i64, i64)],
    fill: &(impl Fn(&mut [i64], i64) + Sync),
) {
    // odometer digits of segment `first` (one mixed-radix division)
    let mut digits: smallvec::SmallVec<[i64; 8]> = smallvec::SmallVec::new();
    let mut q = first as i64;
    let mut base: i64 = 0;
    for &(s, d) in outer {
        let r = q % s;
        q /= s;
        digits.push(r);
        base = base.wrapping_add(r.wrapping_mul(d));
    }
    for seg in out.chunks_exact_mut(seg_len) {
        fill(seg, base);
        // advance: the first outer mode varies fastest
        for (k, &(s, d)) in outer.iter().enumerate() {
            digits[k] += 1;
            base = base.wrapping_add(d);
            if digits[k] < s {
                break;
            }
            digits[k] = 0;
            base = base.wrapping_sub(s.wrapping_mul(d));
        }
    }
}

impl Layout {
    /// Every offset `L(i)`, `i` in `[0, size(L))`, as a vector (see
    /// [`fill_offsets`], which writes into a caller's buffer).
    ///
    /// Errors: those of [`fill_offsets`]; `value` when the size does not fit
    /// in memory.
    ///
    /// ```
    /// use rcute::{Layout, HTuple};
    /// let l = Layout::row_major(HTuple::flat([2, 3])).unwrap();
    /// assert_eq!(l.eval_all().unwrap(), [0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn eval_all(&self) -> Result<Vec<i64>> {
        let n = usize::try_from(self.size()?)
            .map_err(|_| Error::value(format!("eval_all: {self} is too large")))?;
        let mut out = Vec::new();
        out.try_reserve_exact(n)
            .map_err(|_| Error::value(format!("eval_all: no memory for {n} offsets")))?;
        out.resize(n, 0);
        fill_offsets(self, &mut out)?;
        Ok(out)
    }
}
