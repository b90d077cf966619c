//! Structured random operands and post-condition checks of the layout
//! algebra, shared by the extended property run (`tests/all/extended.rs`,
//! driven by a seeded PRNG) and the `algebra` fuzz target
//! (`fuzz/fuzz_targets/algebra.rs`, driven by libFuzzer through
//! `arbitrary::Unstructured`).
//!
//! Every operation is run on the generated operands; when it succeeds its
//! result is checked against the operation's post-conditions
//! (`docs/operations.md`), evaluated independently in `i128` arithmetic wherever
//! the strides are integers, so that a wrapped (silently overflowed) result
//! is caught as a wrong value. Enumerations are bounded (at most a few
//! hundred sample points per check) so that no case can hang.
#![allow(dead_code)]

pub mod tensor;

use rcute::algebra::{self, Scale};
use rcute::htuple::Builder;
use rcute::shape::{self, Coord};
use rcute::swizzle::{swizzle_layout, Swizzle};
use rcute::tiler::tiler_to_layout;
use rcute::{Error, ErrorKind, HRef, HTuple, Layout, Scalar, Tiler};

/// A source of choices: the fuzzer's input or a PRNG.
pub trait Src {
    /// A value in `[0, n)` (`n >= 1`); an exhausted source answers 0.
    fn below(&mut self, n: u64) -> u64;

    /// An integer in `[lo, hi]`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        if span > u64::MAX as u128 {
            return lo.wrapping_add(self.below(u64::MAX) as i64);
        }
        (lo as i128 + self.below(span as u64) as i128) as i64
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }

    /// One of `xs` (non-empty).
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// splitmix64: a small deterministic PRNG for the extended run.
pub struct Rng(pub u64);

impl Src for Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        if n <= 1 {
            0
        } else {
            ((z as u128 * n as u128) >> 64) as u64
        }
    }
}

// ---------------------------------------------------------------- operands

/// An extent: mostly small, sometimes large, near 2^31, 2^62 or 2^63, and
/// rarely invalid (zero or negative).
pub fn extent(src: &mut impl Src) -> i64 {
    match src.below(64) {
        0..=39 => src.range(1, 4),
        40..=51 => src.range(1, 8),
        52..=55 => src.range(1, 64),
        56 => src.pick(&[1 << 31, (1 << 31) + 1, 1 << 32, 3 << 20, 1 << 20]),
        57 => (1i64 << 62) - src.range(0, 2),
        58 => (1i64 << 62) + src.range(0, 2),
        59 => i64::MAX - src.range(0, 2),
        60 => 1i64 << src.range(1, 62),
        61 => src.range(65, 100_000),
        62 => src.pick(&[2, 3, 5, 7, 11, 13]) * src.pick(&[2, 3, 4, 6]),
        _ => src.pick(&[0, -1, -2, -7, i64::MIN]),
    }
}

/// An integer stride value.
pub fn int_stride(src: &mut impl Src) -> i64 {
    match src.below(32) {
        0..=5 => 0,
        6..=19 => src.range(1, 16),
        20..=23 => src.range(-8, -1),
        24..=26 => src.range(1, 1000),
        27 => src.pick(&[i64::MAX, i64::MIN, i64::MIN + 1, i64::MAX - 1]),
        28 => (1i64 << 62) - src.range(0, 2),
        29 => -(1i64 << src.range(0, 62)),
        30 => 1i64 << src.range(0, 62),
        _ => src.range(-1_000_000, 1_000_000),
    }
}

/// A random shape tree of at most `depth` levels below the root.
pub fn shape(src: &mut impl Src, depth: usize) -> HTuple<i64> {
    fn rec(src: &mut impl Src, depth: usize, b: &mut Builder<i64>, top: bool) {
        let leaf_chance = if top { 3 } else { 6 };
        if depth == 0 || src.chance(leaf_chance, 10) {
            b.leaf(extent(src));
            return;
        }
        let rank = match src.below(16) {
            0 => 0,
            1..=3 => 1,
            4..=9 => 2,
            10..=13 => 3,
            _ => 4,
        };
        b.open();
        for _ in 0..rank {
            rec(src, depth - 1, b, false);
        }
        b.close();
    }
    let mut b = Builder::new();
    rec(src, depth, &mut b, true);
    b.finish()
}

/// A shape of size `n` (`n >= 1`): `n` split into random factors, nested at
/// random.
pub fn factor_shape(src: &mut impl Src, n: i64) -> HTuple<i64> {
    let mut factors = Vec::new();
    let mut rest = n;
    for p in [2i64, 3, 5, 7] {
        while rest % p == 0 && rest > 1 && factors.len() < 8 {
            if src.chance(1, 2) {
                factors.push(p);
                rest /= p;
            } else {
                break;
            }
        }
    }
    factors.push(rest);
    // merge some neighbours, shuffle a little
    let mut i = 0;
    while i + 1 < factors.len() {
        if src.chance(1, 3) {
            let m = factors[i].saturating_mul(factors[i + 1]);
            if m <= n {
                factors[i] = m;
                factors.remove(i + 1);
                continue;
            }
        }
        i += 1;
    }
    for k in (1..factors.len()).rev() {
        let j = src.below(k as u64 + 1) as usize;
        factors.swap(k, j);
    }
    if src.chance(1, 4) {
        let at = src.below(factors.len() as u64 + 1) as usize;
        factors.insert(at, 1);
    }
    if factors.len() == 1 && src.chance(1, 2) {
        return HTuple::leaf(factors[0]);
    }
    // nest: group a random run into a sub-tuple
    let mut b = Builder::new();
    b.open();
    let (gs, ge) = if factors.len() >= 3 && src.chance(1, 2) {
        let s = src.below(factors.len() as u64 - 1) as usize;
        (s, s + 2)
    } else {
        (usize::MAX, usize::MAX)
    };
    for (k, f) in factors.iter().enumerate() {
        if k == gs {
            b.open();
        }
        b.leaf(*f);
        if k + 1 == ge {
            b.close();
        }
    }
    b.close();
    b.finish()
}

/// How the strides of a generated layout are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrideKind {
    /// Column-major, possibly scaled.
    Compact,
    /// Compact strides assigned to the leaves in a random order (an
    /// injective layout), possibly with gaps.
    Permuted,
    /// Independent random integers.
    Random,
    /// Coordinate (basis) strides `k@i`, `k@i@j`, sometimes 0.
    Basis,
    /// F2 strides.
    F2,
}

/// Integer strides for `s` of the given kind (not Basis/F2).
fn int_strides(src: &mut impl Src, s: &HTuple<i64>, kind: StrideKind) -> Vec<Scalar> {
    let leaves = s.leaves();
    match kind {
        StrideKind::Compact | StrideKind::Permuted => {
            let scale = if src.chance(3, 4) {
                1
            } else {
                src.pick(&[2, 3, -1, 0, 4])
            };
            let mut order: Vec<usize> = (0..leaves.len()).collect();
            if kind == StrideKind::Permuted {
                for k in (1..order.len()).rev() {
                    let j = src.below(k as u64 + 1) as usize;
                    order.swap(k, j);
                }
            }
            let mut d = vec![Scalar::Int(0); leaves.len()];
            let mut acc: i64 = scale;
            for &k in &order {
                d[k] = Scalar::Int(acc);
                let gap = if kind == StrideKind::Permuted && src.chance(1, 4) {
                    src.range(2, 3)
                } else {
                    1
                };
                acc = acc
                    .checked_mul(leaves[k])
                    .and_then(|x| x.checked_mul(gap))
                    .unwrap_or_else(|| int_stride(src));
            }
            d
        }
        _ => leaves
            .iter()
            .map(|_| Scalar::Int(int_stride(src)))
            .collect(),
    }
}

/// A random stride scalar of `kind` for one leaf.
fn scalar_of(src: &mut impl Src, kind: StrideKind) -> Scalar {
    match kind {
        StrideKind::Basis => {
            if src.chance(1, 8) {
                return Scalar::Int(0);
            }
            let v = if src.chance(3, 4) {
                src.range(1, 4)
            } else {
                int_stride(src)
            };
            let len = if src.chance(9, 10) { 1 } else { 2 };
            let path: Vec<usize> = (0..len).map(|_| src.below(3) as usize).collect();
            Scalar::basis(v, &path)
        }
        StrideKind::F2 => Scalar::F2(if src.chance(3, 4) {
            src.range(0, 16)
        } else {
            src.range(0, i64::MAX)
        }),
        _ => Scalar::Int(int_stride(src)),
    }
}

/// A stride kind, integers being the most common.
pub fn stride_kind(src: &mut impl Src) -> StrideKind {
    match src.below(16) {
        0..=3 => StrideKind::Compact,
        4..=8 => StrideKind::Permuted,
        9..=12 => StrideKind::Random,
        13..=14 => StrideKind::Basis,
        _ => StrideKind::F2,
    }
}

/// Strides for the shape `s`.
pub fn strides_for(src: &mut impl Src, s: &HTuple<i64>, kind: StrideKind) -> HTuple<Scalar> {
    let d: Vec<Scalar> = match kind {
        StrideKind::Basis | StrideKind::F2 => {
            s.leaves().iter().map(|_| scalar_of(src, kind)).collect()
        }
        _ => int_strides(src, s, kind),
    };
    HTuple::unflatten(d, s.as_ref()).expect("one stride per leaf")
}

/// A layout built through the checked constructor; the error when the
/// generated shape is invalid.
pub fn layout(src: &mut impl Src) -> Result<Layout, Error> {
    let s = shape(src, 3);
    let kind = stride_kind(src);
    let d = strides_for(src, &s, kind);
    Layout::new(s, d)
}

/// A layout with integer strides.
pub fn int_layout(src: &mut impl Src) -> Result<Layout, Error> {
    let s = shape(src, 3);
    let kind = src.pick(&[
        StrideKind::Compact,
        StrideKind::Permuted,
        StrideKind::Permuted,
        StrideKind::Random,
    ]);
    let d = strides_for(src, &s, kind);
    Layout::new(s, d)
}

/// A layout with integer strides and the given shape.
pub fn int_layout_of(src: &mut impl Src, s: HTuple<i64>) -> Result<Layout, Error> {
    let kind = src.pick(&[
        StrideKind::Compact,
        StrideKind::Permuted,
        StrideKind::Permuted,
        StrideKind::Random,
    ]);
    let d = strides_for(src, &s, kind);
    Layout::new(s, d)
}

/// A tiler for a layout of rank `rank`.
pub fn tiler(src: &mut impl Src, rank: usize, depth: usize) -> Tiler {
    match src.below(10) {
        0 => Tiler::None,
        1..=2 => Tiler::Int(extent(src)),
        3..=6 => match int_layout(src) {
            Ok(l) => Tiler::Layout(l),
            Err(_) => Tiler::Int(src.range(1, 8)),
        },
        _ if depth == 0 => Tiler::Int(src.range(1, 8)),
        _ => {
            let n = match src.below(8) {
                0 => rank + 1,
                1 => 0,
                _ => src.range(1, rank.max(1) as i64) as usize,
            };
            Tiler::Tuple((0..n).map(|_| tiler(src, 2, depth - 1)).collect())
        }
    }
}

/// A coordinate for the shape `s`: leaves in range, out of range, or `None`.
pub fn coord_for(src: &mut impl Src, s: HRef<'_, i64>, none_chance: u64) -> Coord {
    fn rec(src: &mut impl Src, s: HRef<'_, i64>, b: &mut Builder<Option<Scalar>>, nc: u64) {
        if src.chance(nc, 16) {
            b.leaf(None);
            return;
        }
        match s.as_leaf() {
            Some(&e) => {
                let v = if src.chance(7, 8) {
                    src.range(0, e.saturating_sub(1).max(0))
                } else {
                    src.pick(&[e, -1, i64::MAX, i64::MIN])
                };
                b.leaf(Some(Scalar::Int(v)));
            }
            None => {
                if src.chance(1, 8) {
                    // an integral coordinate for the whole sub-shape
                    b.leaf(Some(Scalar::Int(src.range(0, 64))));
                    return;
                }
                b.open();
                for m in s.modes() {
                    rec(src, m, b, nc);
                }
                b.close();
            }
        }
    }
    let mut b = Builder::new();
    rec(src, s, &mut b, none_chance);
    b.finish()
}

// ----------------------------------------------------------- exact models

/// The flat integer modes `(s, d)` of `l`, if all strides are integers.
pub fn int_modes(l: &Layout) -> Option<Vec<(i64, i64)>> {
    l.flat_modes()
        .map(|(s, d)| match d {
            Scalar::Int(v) => Some((s, *v)),
            _ => None,
        })
        .collect()
}

/// The exact product of the shape's leaves (None beyond i128).
pub fn size128(l: &Layout) -> Option<i128> {
    l.shape()
        .leaves()
        .iter()
        .try_fold(1i128, |a, &s| a.checked_mul(s as i128))
}

/// `L(i)` exactly (colexicographic split, the last mode absorbs the rest,
/// floor division), or None beyond i128.
pub fn eval128(m: &[(i64, i64)], i: i128) -> Option<i128> {
    if m.is_empty() {
        return Some(0);
    }
    let mut q = i;
    let mut acc: i128 = 0;
    for (k, &(s, d)) in m.iter().enumerate() {
        let digit = if k + 1 == m.len() {
            q
        } else {
            let s = s as i128;
            let r = q.rem_euclid(s);
            q = q.div_euclid(s);
            r
        };
        acc = acc.checked_add(digit.checked_mul(d as i128)?)?;
    }
    Some(acc)
}

/// Sample points of `[lo, hi)`: all of them when few, else both ends and an
/// even spread.
pub fn samples(lo: i128, hi: i128) -> Vec<i128> {
    if hi <= lo {
        return Vec::new();
    }
    let n = hi - lo;
    if n <= 256 {
        return (lo..hi).collect();
    }
    let mut v: Vec<i128> = (lo..lo + 64).collect();
    v.extend(hi - 64..hi);
    let step = n / 128;
    v.extend((0..128).map(|k| lo + k * step));
    v
}

/// A failed check: the message that the driver reports (with the case).
pub type Check = Result<(), String>;

fn fail<T>(msg: String) -> Result<T, String> {
    Err(msg)
}

/// The library's `L(i)` for an integer-stride layout, checked against the
/// exact value: `Ok(Some(v))`, `Ok(None)` for an honest overflow error, or a
/// failure (a wrong value = silent overflow, or an unexpected error kind).
pub fn lib_eval_int(l: &Layout, i: i128) -> Result<Option<i128>, String> {
    let m = int_modes(l).ok_or("lib_eval_int on non-integer strides")?;
    let exact = eval128(&m, i);
    let Ok(ii) = i64::try_from(i) else {
        return Ok(None);
    };
    match l.eval_index(ii) {
        Ok(Scalar::Int(v)) => {
            if Some(v as i128) != exact {
                return fail(format!(
                    "{l}({i}) = {v}, exact value {exact:?} (silent overflow?)"
                ));
            }
            Ok(Some(v as i128))
        }
        Ok(other) => fail(format!(
            "{l}({i}) = {other}, an integer layout gave a non-integer"
        )),
        Err(e) if e.kind() == ErrorKind::Overflow => Ok(None),
        Err(e) => fail(format!("{l}({i}) failed with {e}")),
    }
}

/// The library's `L(i)` for any layout; `None` for an overflow error.
pub fn lib_eval(l: &Layout, i: i128) -> Result<Option<Scalar>, String> {
    if int_modes(l).is_some() {
        return Ok(lib_eval_int(l, i)?.map(|v| Scalar::Int(v as i64)));
    }
    let Ok(ii) = i64::try_from(i) else {
        return Ok(None);
    };
    match l.eval_index(ii) {
        Ok(v) => Ok(Some(v)),
        // overflow, or strides of incompatible algebras (type)
        Err(e) if matches!(e.kind(), ErrorKind::Overflow | ErrorKind::Type) => Ok(None),
        Err(e) => fail(format!("{l}({i}) failed with {e}")),
    }
}

/// Checks `size()` against the exact product; returns the size when it fits.
pub fn check_size(l: &Layout) -> Result<Option<i64>, String> {
    let exact = size128(l).and_then(|v| i64::try_from(v).ok());
    match (l.size(), exact) {
        (Ok(v), Some(x)) if v == x => Ok(Some(v)),
        (Ok(v), x) => fail(format!("size({l}) = {v}, exact {x:?} (silent overflow?)")),
        (Err(e), None) if e.kind() == ErrorKind::Overflow => Ok(None),
        (Err(e), x) => fail(format!("size({l}) failed with {e}, exact {x:?}")),
    }
}

fn size_of(l: &Layout) -> Result<Option<i64>, String> {
    check_size(l)
}

fn is_overflow(e: &Error) -> bool {
    e.kind() == ErrorKind::Overflow
}

/// The image `{L(i)}` of an integer layout of size at most `cap`, sorted.
fn image(l: &Layout, cap: i64) -> Result<Option<Vec<i128>>, String> {
    let Some(n) = size_of(l)? else {
        return Ok(None);
    };
    if n > cap {
        return Ok(None);
    }
    let mut v = Vec::with_capacity(n as usize);
    for i in 0..n {
        match lib_eval_int(l, i as i128)? {
            Some(x) => v.push(x),
            None => return Ok(None),
        }
    }
    v.sort_unstable();
    Ok(Some(v))
}

/// Every extent of a result is positive (the algebra never builds an
/// invalid layout from valid operands).
pub fn check_extents(l: &Layout) -> Check {
    if l.shape().leaves().iter().any(|&e| e <= 0) {
        return fail(format!("the result {l} has a non-positive extent"));
    }
    // (one profile: the stride is congruent when it has one leaf per
    // shape leaf)
    if l.stride_leaves().len() != l.shape().leaves().len() {
        return fail(format!(
            "the result {l} has {} stride leaves for {} shape leaves",
            l.stride_leaves().len(),
            l.shape().leaves().len()
        ));
    }
    Ok(())
}

fn max_depth(l: &Layout) -> usize {
    l.shape().as_ref().depth()
}

// ------------------------------------------------------------ operations

/// The operations exercised (index = the op number used by [`run_op`]).
pub const OPS: &[&str] = &[
    "size_cosize_eval",
    "coalesce",
    "coalesce_z",
    "filter",
    "composition",
    "complement",
    "logical_divide",
    "divide_variants",
    "logical_product",
    "product_variants",
    "right_inverse",
    "left_inverse",
    "nullspace",
    "layout_add",
    "max_common",
    "recast",
    "slice_and_offset",
    "swizzle",
    "constructors",
    "by_mode",
];

/// What happened to one case (for statistics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The operation succeeded and its post-conditions held.
    Checked,
    /// The operation (or the operand construction) returned an error.
    Rejected,
}

fn rej<T>(_: T) -> Result<Outcome, String> {
    Ok(Outcome::Rejected)
}

/// Runs operation `op` (`op % OPS.len()`) on operands drawn from `src` and
/// checks its post-conditions. `Err` describes a violated post-condition.
pub fn run_op(op: usize, src: &mut impl Src) -> Result<Outcome, String> {
    match op % OPS.len() {
        0 => op_size_cosize_eval(src),
        1 => op_coalesce(src, false),
        2 => op_coalesce(src, true),
        3 => op_filter(src),
        4 => op_composition(src),
        5 => op_complement(src),
        6 => op_logical_divide(src),
        7 => op_divide_variants(src),
        8 => op_logical_product(src),
        9 => op_product_variants(src),
        10 => op_right_inverse(src),
        11 => op_left_inverse(src),
        12 => op_nullspace(src),
        13 => op_layout_add(src),
        14 => op_max_common(src),
        15 => op_recast(src),
        16 => op_slice(src),
        17 => op_swizzle(src),
        18 => op_constructors(src),
        _ => op_by_mode(src),
    }
}

fn op_size_cosize_eval(src: &mut impl Src) -> Result<Outcome, String> {
    let l = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let n = check_size(&l)?;
    // printing and the other queries never panic
    let _ = (l.to_string(), format!("{l:#}"), l.repr(), l.depth());
    let _ = (algebra::coshape(&l), algebra::coprofile(&l));
    if let Some(m) = int_modes(&l) {
        // cosize = 1 + sum (s-1) |d|, exactly (the extent of the image)
        let exact = m.iter().try_fold(1i128, |a, &(s, d)| {
            a.checked_add((s as i128 - 1).checked_mul((d as i128).abs())?)
        });
        match algebra::cosize(&l) {
            Ok(v) if Some(v as i128) == exact => {}
            Ok(v) => return fail(format!("cosize({l}) = {v}, exact {exact:?}")),
            Err(e) if is_overflow(&e) => {}
            Err(e) => return fail(format!("cosize({l}) failed with {e}")),
        }
    } else {
        let _ = algebra::cosize(&l);
    }
    let Some(n) = n else {
        // still evaluate a few points: overflow errors, never wrong values
        for i in [0i128, 1, i64::MAX as i128] {
            if int_modes(&l).is_some() {
                lib_eval(&l, i)?;
            } else {
                let _ = l.eval_index(i as i64);
            }
        }
        return Ok(Outcome::Checked);
    };
    let n = n as i128;
    let mut pts = samples(0, n);
    pts.extend([-1, -n, n, 2 * n + 3, i64::MIN as i128, i64::MAX as i128]);
    for i in pts {
        if !(0..n).contains(&i) && int_modes(&l).is_none() {
            // outside the domain F2 layouts may refuse (negative index)
            let _ = l.eval_index(i64::try_from(i).unwrap_or(0));
            continue;
        }
        let v = lib_eval(&l, i)?;
        // the natural coordinate gives the same value, and crd2idx inverts idx2crd
        if (0..n).contains(&i) {
            let Ok(ii) = i64::try_from(i) else { continue };
            let c: Coord = HTuple::leaf(Some(Scalar::Int(ii)));
            match shape::idx2crd(c.as_ref(), l.shape().as_ref()) {
                Ok(nat) => {
                    let natc: Coord = nat.map(|x| Some(x.clone()));
                    match shape::crd2idx(natc.as_ref(), l.shape().as_ref()) {
                        Ok(back) if back == ii => {}
                        Ok(back) => {
                            return fail(format!(
                                "crd2idx(idx2crd({ii}, {s}), {s}) = {back}",
                                s = l.shape()
                            ))
                        }
                        Err(e) if is_overflow(&e) => {}
                        Err(e) => return fail(format!("crd2idx of {nat} in {}: {e}", l.shape())),
                    }
                    match (l.eval(natc.as_ref()), &v) {
                        (Ok(x), Some(y)) if x != *y => {
                            return fail(format!("{l}({nat}) = {x} but {l}({ii}) = {y}"))
                        }
                        (Err(e), Some(_)) if !is_overflow(&e) => {
                            return fail(format!("{l}({nat}) failed: {e}"))
                        }
                        _ => {}
                    }
                }
                Err(e) if is_overflow(&e) => {}
                Err(e) => return fail(format!("idx2crd({ii}, {}) failed: {e}", l.shape())),
            }
        }
    }
    Ok(Outcome::Checked)
}

/// `R(i) == A(i)` for the sample points of `[lo, hi)`; overflow errors on
/// either side are tolerated.
fn same_function(a: &Layout, r: &Layout, lo: i128, hi: i128, what: &str) -> Check {
    for i in samples(lo, hi) {
        let (Some(x), Some(y)) = (lib_eval(a, i)?, lib_eval(r, i)?) else {
            continue;
        };
        if x != y {
            return fail(format!("{what}: {a}({i}) = {x} but {r}({i}) = {y}"));
        }
    }
    Ok(())
}

fn op_coalesce(src: &mut impl Src, z: bool) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let r = if z {
        algebra::coalesce_z(&a)
    } else {
        algebra::coalesce(&a)
    };
    let r = match r {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    let what = if z { "coalesce_z" } else { "coalesce" };
    if max_depth(&r) > 1 {
        return fail(format!("{what}({a}) = {r} is nested"));
    }
    let (na, nr) = (size_of(&a)?, size_of(&r)?);
    if na != nr {
        return fail(format!("{what}({a}) = {r}: size {na:?} became {nr:?}"));
    }
    let Some(n) = na else {
        return Ok(Outcome::Checked);
    };
    let n = n as i128;
    same_function(&a, &r, 0, n, what)?;
    if z && a.flat_modes().all(|(_, d)| !d.is_f2()) {
        // the extended domain: every integer
        same_function(&a, &r, n, n + 40, what)?;
        same_function(&a, &r, -40, 0, what)?;
    }
    Ok(Outcome::Checked)
}

fn op_filter(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match int_layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let fz = match algebra::filter_zeros(&a) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    if !a.shape().as_ref().congruent(fz.shape().as_ref()) || a.stride() != fz.stride() {
        return fail(format!(
            "filter_zeros({a}) = {fz} changed the profile or strides"
        ));
    }
    let f = match algebra::filter(&a) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    // same image as a set
    let (Some(ia), Some(iz), Some(ifl)) = (image(&a, 4096)?, image(&fz, 4096)?, image(&f, 4096)?)
    else {
        return Ok(Outcome::Checked);
    };
    let dedup = |mut v: Vec<i128>| {
        v.dedup();
        v
    };
    let ia = dedup(ia);
    if dedup(iz) != ia {
        return fail(format!("filter_zeros({a}) = {fz} has another image"));
    }
    if dedup(ifl) != ia {
        return fail(format!("filter({a}) = {f} has another image"));
    }
    Ok(Outcome::Checked)
}

/// `R(c) == A(B(c))` wherever `B(c)` lies in `[0, size(A))`; sizes agree.
fn check_composition(a: &Layout, b: &Layout, r: &Layout) -> Check {
    let (Some(na), Some(nb)) = (size_of(a)?, size_of(b)?) else {
        return Ok(());
    };
    match size_of(r)? {
        Some(nr) if nr == nb => {}
        nr => {
            return fail(format!(
                "composition({a}, {b}) = {r}: size {nr:?} != size(B) {nb}"
            ))
        }
    }
    for c in samples(0, nb as i128) {
        let Some(bc) = lib_eval_int(b, c)? else {
            continue;
        };
        if !(0..na as i128).contains(&bc) {
            continue;
        }
        let (Some(x), Some(y)) = (lib_eval(r, c)?, lib_eval(a, bc)?) else {
            continue;
        };
        if x != y {
            return fail(format!(
                "composition({a}, {b}) = {r}: R({c}) = {x} but A(B({c})) = A({bc}) = {y}"
            ));
        }
    }
    Ok(())
}

fn op_composition(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let t = if src.chance(1, 2) {
        // B built to fit: a shape dividing size(A) often
        let s = match a.size() {
            Ok(n) if n > 0 && n < 1 << 20 && src.chance(2, 3) => factor_shape(src, n),
            _ => shape(src, 2),
        };
        match int_layout_of(src, s) {
            Ok(b) => Tiler::Layout(b),
            Err(e) => return rej(e),
        }
    } else {
        tiler(src, a.rank(), 2)
    };
    let r = match algebra::composition(&a, &t) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    let _ = r.to_string();
    match &t {
        Tiler::Layout(b) => check_composition(&a, b, &r)?,
        rcute::TilerRef::Borrowed(b) => check_composition(&a, b, &r)?,
        Tiler::Int(n) => {
            let b = Layout::leaf(*n, Scalar::Int(1));
            check_composition(&a, &b, &r)?;
        }
        Tiler::None => {
            if r != a {
                return fail(format!("composition({a}, None) = {r}"));
            }
        }
        Tiler::Tuple(ts) => {
            // by-mode: mode i of R is composition(A_i, B_i)
            for (i, ti) in ts.iter().enumerate() {
                let (Ok(ai), Ok(ri)) = (a.mode(i as i64), r.mode(i as i64)) else {
                    return fail(format!("composition({a}, {t}) = {r}: mode {i} missing"));
                };
                match algebra::composition(&ai, ti) {
                    Ok(x) if x == ri => {}
                    other => {
                        return fail(format!(
                            "composition({a}, {t}) = {r}: mode {i} is {ri}, composition({ai}, {ti}) = {other:?}"
                        ))
                    }
                }
            }
        }
    }
    Ok(Outcome::Checked)
}

fn op_complement(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match int_layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    if src.chance(1, 4) {
        // with extend=: no post-condition beyond "no panic"
        let x = shape(src, 1);
        let _ = algebra::complement(&a, Some(x.as_ref())).map(|c| c.to_string());
        return Ok(Outcome::Checked);
    }
    let c = match algebra::complement(&a, None) {
        Ok(c) => c,
        Err(e) => return rej(e),
    };
    let Some(nc) = size_of(&c)? else {
        return Ok(Outcome::Checked);
    };
    // strictly increasing on the extended domain
    let hi = (nc as i128 + 3).min(400);
    let mut prev: Option<i128> = None;
    let mut cvals = Vec::new();
    for i in 0..hi {
        let Some(v) = lib_eval_int(&c, i)? else {
            prev = None;
            continue;
        };
        if let Some(p) = prev {
            if v <= p {
                return fail(format!("complement({a}) = {c} is not increasing at {i}"));
            }
        }
        prev = Some(v);
        if i >= 1 {
            cvals.push(v);
        }
    }
    // disjoint from A's image (C(i) != A(j) for i >= 1)
    if let Some(ia) = image(&a, 4096)? {
        for v in cvals {
            if ia.binary_search(&v).is_ok() {
                return fail(format!("complement({a}) = {c} hits A's image at {v}"));
            }
        }
    }
    Ok(Outcome::Checked)
}

fn divisor_tiler(src: &mut impl Src, a: &Layout) -> Result<Layout, Error> {
    let s = match a.size() {
        Ok(n) if n > 0 && n < 1 << 20 && src.chance(3, 4) => {
            // a shape whose size divides size(A)
            let mut d = n;
            while d > 1 && src.chance(1, 2) {
                let p = [2i64, 3, 5, 7].into_iter().find(|p| d % p == 0);
                match p {
                    Some(p) => d /= p,
                    None => break,
                }
            }
            factor_shape(src, d)
        }
        _ => shape(src, 1),
    };
    int_layout_of(src, s)
}

fn op_logical_divide(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let t = if src.chance(2, 3) {
        match divisor_tiler(src, &a) {
            Ok(b) => Tiler::Layout(b),
            Err(e) => return rej(e),
        }
    } else {
        tiler(src, a.rank(), 2)
    };
    let r = match algebra::logical_divide(&a, &t) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    if let Tiler::Layout(b) = &t {
        if r.rank() != 2 || r.is_leaf() {
            return fail(format!("logical_divide({a}, {b}) = {r} is not rank 2"));
        }
        let r0 = r.mode(0).map_err(|e| e.to_string())?;
        match algebra::composition(&a, &t) {
            Ok(c) if c == r0 => {}
            other => {
                return fail(format!(
                    "logical_divide({a}, {b}) = {r}: mode 0 {r0} != composition = {other:?}"
                ))
            }
        }
    }
    Ok(Outcome::Checked)
}

fn op_divide_variants(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let t = if src.chance(2, 3) {
        match divisor_tiler(src, &a) {
            Ok(b) => Tiler::Layout(b),
            Err(e) => return rej(e),
        }
    } else {
        tiler(src, a.rank(), 2)
    };
    let l = algebra::logical_divide(&a, &t);
    let z = algebra::zipped_divide(&a, &t);
    let td = algebra::tiled_divide(&a, &t);
    let fd = algebra::flat_divide(&a, &t);
    let Ok(l) = l else {
        return Ok(Outcome::Rejected);
    };
    // the same elements: sizes agree, and for a layout tiler the same
    // function of the integral coordinate
    for (name, v) in [
        ("zipped_divide", &z),
        ("tiled_divide", &td),
        ("flat_divide", &fd),
    ] {
        let Ok(v) = v else {
            // an error where logical_divide succeeded is fine only if it is overflow
            if let (Err(e), Tiler::Layout(_) | Tiler::Int(_)) = (v, &t) {
                if !is_overflow(e) {
                    return fail(format!(
                        "{name}({a}, {t}) failed ({e}) but logical_divide = {l}"
                    ));
                }
            }
            continue;
        };
        let (nl, nv) = (size_of(&l)?, size_of(v)?);
        if nl != nv {
            return fail(format!(
                "{name}({a}, {t}) = {v} has size {nv:?}, logical_divide {l} {nl:?}"
            ));
        }
        if let (Tiler::Layout(_), Some(n)) = (&t, nl) {
            same_function(&l, v, 0, n as i128, name)?;
        }
    }
    Ok(Outcome::Checked)
}

fn op_logical_product(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let t = if src.chance(2, 3) {
        let s = shape(src, 1);
        match int_layout_of(src, s) {
            Ok(b) => Tiler::Layout(b),
            Err(e) => return rej(e),
        }
    } else {
        tiler(src, a.rank(), 2)
    };
    let r = match algebra::logical_product(&a, &t) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    if let Tiler::Layout(b) = &t {
        if r.rank() != 2 || r.is_leaf() {
            return fail(format!("logical_product({a}, {b}) = {r} is not rank 2"));
        }
        let r0 = r.mode(0).map_err(|e| e.to_string())?;
        let r1 = r.mode(1).map_err(|e| e.to_string())?;
        if r0 != a {
            return fail(format!("logical_product({a}, {b}) = {r}: mode 0 is not A"));
        }
        if size_of(&r1)? != size_of(b)? {
            return fail(format!(
                "logical_product({a}, {b}) = {r}: size(R[1]) != size(B)"
            ));
        }
    }
    Ok(Outcome::Checked)
}

fn op_product_variants(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let t = if src.chance(2, 3) {
        let s = shape(src, 1);
        match int_layout_of(src, s) {
            Ok(b) => Tiler::Layout(b),
            Err(e) => return rej(e),
        }
    } else {
        tiler(src, a.rank(), 2)
    };
    let l = algebra::logical_product(&a, &t);
    for v in l.iter() {
        check_extents(v).map_err(|m| format!("logical_product({a}, {t}): {m}"))?;
    }
    let z = algebra::zipped_product(&a, &t);
    let tp = algebra::tiled_product(&a, &t);
    let fp = algebra::flat_product(&a, &t);
    let bp = algebra::blocked_product(&a, &t);
    let rp = algebra::raked_product(&a, &t);
    for (name, v) in [
        ("zipped_product", &z),
        ("tiled_product", &tp),
        ("flat_product", &fp),
        ("blocked_product", &bp),
        ("raked_product", &rp),
    ] {
        if let Ok(v) = v {
            check_extents(v).map_err(|m| format!("{name}({a}, {t}): {m}"))?;
        }
    }
    let Ok(l) = l else {
        return Ok(Outcome::Rejected);
    };
    for (name, v) in [
        ("zipped_product", &z),
        ("tiled_product", &tp),
        ("flat_product", &fp),
    ] {
        let Ok(v) = v else {
            continue;
        };
        let (nl, nv) = (size_of(&l)?, size_of(v)?);
        if nl != nv {
            return fail(format!(
                "{name}({a}, {t}) = {v}: size {nv:?}, logical_product {nl:?}"
            ));
        }
        if let (Tiler::Layout(_), Some(n)) = (&t, nl) {
            same_function(&l, v, 0, n as i128, name)
                .map_err(|m| format!("{name}({a}, {t}) = {v}, logical_product = {l}: {m}"))?;
        }
    }
    if let Tiler::Layout(b) = &t {
        // blocked/raked: the same offsets as the logical product (multiset)
        if int_modes(&a).is_some() {
            let il = image(&l, 4096)?;
            for (name, v) in [("blocked_product", &bp), ("raked_product", &rp)] {
                let Ok(v) = v else { continue };
                let iv = image(v, 4096).map_err(|m| format!("{name}({a}, {b}) = {v}: {m}"))?;
                if let (Some(il), Some(iv)) = (&il, iv) {
                    if *il != iv {
                        return fail(format!(
                            "{name}({a}, {b}) = {v} has other offsets than logical_product = {l}"
                        ));
                    }
                }
            }
        }
    }
    Ok(Outcome::Checked)
}

fn op_right_inverse(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match if src.chance(3, 4) {
        int_layout(src)
    } else {
        layout(src)
    } {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let r = match algebra::right_inverse(&a) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    if int_modes(&a).is_none() {
        let _ = r.to_string();
        return Ok(Outcome::Checked);
    }
    let Some(nr) = size_of(&r)? else {
        return Ok(Outcome::Checked);
    };
    for k in samples(0, nr as i128) {
        let Some(rk) = lib_eval_int(&r, k)? else {
            continue;
        };
        let Some(ark) = lib_eval_int(&a, rk)? else {
            continue;
        };
        if ark != k {
            return fail(format!(
                "right_inverse({a}) = {r}: A(R({k})) = A({rk}) = {ark} != {k}"
            ));
        }
    }
    Ok(Outcome::Checked)
}

fn op_left_inverse(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match if src.chance(3, 4) {
        int_layout(src)
    } else {
        layout(src)
    } {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let r = match algebra::left_inverse(&a) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    if int_modes(&a).is_none() {
        let _ = r.to_string();
        return Ok(Outcome::Checked);
    }
    let Some(na) = size_of(&a)? else {
        return Ok(Outcome::Checked);
    };
    for k in samples(0, na as i128) {
        let Some(ak) = lib_eval_int(&a, k)? else {
            continue;
        };
        let Some(rak) = lib_eval_int(&r, ak)? else {
            continue;
        };
        let Some(arak) = lib_eval_int(&a, rak)? else {
            continue;
        };
        if arak != ak {
            return fail(format!(
                "left_inverse({a}) = {r}: A(R(A({k}))) = {arak} != A({k}) = {ak}"
            ));
        }
    }
    Ok(Outcome::Checked)
}

fn op_nullspace(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let n = match algebra::nullspace(&a) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    let Some(nn) = size_of(&n)? else {
        return Ok(Outcome::Checked);
    };
    for i in samples(0, nn as i128) {
        let Some(ni) = lib_eval_int(&n, i)? else {
            continue;
        };
        let Some(v) = lib_eval(&a, ni)? else { continue };
        if !v.is_zero() {
            return fail(format!(
                "nullspace({a}) = {n}: A(N({i})) = A({ni}) = {v} != 0"
            ));
        }
    }
    Ok(Outcome::Checked)
}

fn op_layout_add(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let bs = match a.size() {
        Ok(n) if n > 0 && n < 1 << 20 && src.chance(3, 4) => factor_shape(src, n),
        _ => shape(src, 2),
    };
    let b = if src.chance(3, 4) {
        int_layout_of(src, bs)
    } else {
        let kind = stride_kind(src);
        let d = strides_for(src, &bs, kind);
        Layout::new(bs, d)
    };
    let b = match b {
        Ok(b) => b,
        Err(e) => return rej(e),
    };
    let r = match algebra::layout_add(&a, &b) {
        Ok(r) => r,
        Err(e) => return rej(e),
    };
    let Some(n) = size_of(&a)? else {
        return Ok(Outcome::Checked);
    };
    if size_of(&r)? != Some(n) {
        return fail(format!("layout_add({a}, {b}) = {r}: size differs"));
    }
    for i in samples(0, n as i128) {
        let (Some(x), Some(y), Some(z)) = (lib_eval(&a, i)?, lib_eval(&b, i)?, lib_eval(&r, i)?)
        else {
            continue;
        };
        match x.add(&y) {
            Ok(s) if s == z => {}
            Ok(s) => {
                return fail(format!(
                    "layout_add({a}, {b}) = {r}: R({i}) = {z} but A({i}) + B({i}) = {s}"
                ))
            }
            Err(_) => {}
        }
    }
    Ok(Outcome::Checked)
}

fn op_max_common(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match int_layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let b = if src.chance(1, 2) {
        // the same shape with other strides
        int_layout_of(src, a.shape().clone())
    } else {
        let bs = match a.size() {
            Ok(n) if n > 0 && n < 1 << 20 => factor_shape(src, n),
            _ => shape(src, 2),
        };
        int_layout_of(src, bs)
    };
    let b = match b {
        Ok(b) => b,
        Err(e) => return rej(e),
    };
    let ml = algebra::max_common_layout(&a, &b);
    let mv = algebra::max_common_vector(&a, &b);
    let Ok(ml) = ml else {
        return Ok(Outcome::Rejected);
    };
    if let Ok(v) = &mv {
        if size_of(&ml)? != Some(*v) {
            return fail(format!(
                "max_common_vector({a}, {b}) = {v} but max_common_layout = {ml}"
            ));
        }
    }
    let Some(n) = size_of(&ml)? else {
        return Ok(Outcome::Checked);
    };
    if n > 1 {
        for i in samples(0, n as i128) {
            let Some(ri) = lib_eval_int(&ml, i)? else {
                continue;
            };
            for (name, l) in [("A", &a), ("B", &b)] {
                let Some(v) = lib_eval_int(l, ri)? else {
                    continue;
                };
                if v != i {
                    return fail(format!(
                        "max_common_layout({a}, {b}) = {ml}: {name}(R({i})) = {v} != {i}"
                    ));
                }
            }
        }
    }
    Ok(Outcome::Checked)
}

fn op_recast(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let n = match src.below(6) {
        0 => 0,
        1 => -src.range(1, 4),
        2 => src.pick(&[i64::MAX, i64::MIN, 1 << 62]),
        _ => src.range(1, 8),
    };
    let m = if src.chance(1, 6) { 0 } else { src.range(1, 8) };
    let scale = match src.below(4) {
        0 => Scale::int(n),
        1 => Scale::Ratio { num: m, den: n },
        2 => Scale::Ratio { num: n, den: m },
        _ => Scale::Tuple(
            (0..src.range(0, 3))
                .map(|_| Scale::int(src.range(-1, 4)))
                .collect(),
        ),
    };
    let r = algebra::recast(&a, &scale);
    let u = algebra::upcast(&a, n);
    let d = algebra::downcast(&a, n);
    for v in [&r, &u, &d].into_iter().flatten() {
        let _ = v.to_string();
    }
    if n == 0 && (u.is_ok() || d.is_ok()) {
        return fail(format!("upcast/downcast({a}, 0) succeeded"));
    }
    // downcast by n multiplies the extent of every unit-stride leaf by n
    if let (Ok(dl), Some(na)) = (&d, size_of(&a)?) {
        if n > 0 {
            let units = a
                .flat_modes()
                .filter(|(_, d)| matches!(d, Scalar::Int(1) | Scalar::Int(-1)))
                .count() as u32;
            let want = (n as i128)
                .checked_pow(units)
                .and_then(|f| f.checked_mul(na as i128));
            if let Some(nd) = size_of(dl)? {
                if Some(nd as i128) != want {
                    return fail(format!("downcast({a}, {n}) = {dl} has size {nd}"));
                }
            }
        }
    }
    Ok(if r.is_ok() || u.is_ok() || d.is_ok() {
        Outcome::Checked
    } else {
        Outcome::Rejected
    })
}

/// Replaces the k-th `None` leaf of `c` by mode k of `sub` (a natural
/// coordinate of the sliced modes).
fn fill_coord(c: HRef<'_, Option<Scalar>>, sub: &[HTuple<Scalar>]) -> Option<Coord> {
    fn rec(
        c: HRef<'_, Option<Scalar>>,
        sub: &[HTuple<Scalar>],
        k: &mut usize,
        b: &mut Builder<Option<Scalar>>,
    ) -> Option<()> {
        match c.as_leaf() {
            Some(None) => {
                let t = sub.get(*k)?;
                *k += 1;
                b.push_owned(t.map(|x| Some(x.clone())));
            }
            Some(Some(x)) => b.leaf(Some(x.clone())),
            None => {
                b.open();
                for m in c.modes() {
                    rec(m, sub, k, b)?;
                }
                b.close();
            }
        }
        Some(())
    }
    let mut b = Builder::new();
    let mut k = 0;
    rec(c, sub, &mut k, &mut b)?;
    (k == sub.len()).then(|| b.finish())
}

fn op_slice(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let nc = src.pick(&[0, 4, 8]);
    let c = coord_for(src, a.shape().as_ref(), nc);
    let (sub, off) = match algebra::slice_and_offset(&a, c.as_ref()) {
        Ok(x) => x,
        Err(e) => return rej(e),
    };
    let _ = algebra::slice(&a, c.as_ref());
    if c.as_leaf() == Some(&None) {
        return if sub == a && off.is_zero() {
            Ok(Outcome::Checked)
        } else {
            fail(format!("slice_and_offset({a}, _) = ({sub}, {off})"))
        };
    }
    let nnone = c.leaves().iter().filter(|x| x.is_none()).count();
    if nnone == 0 {
        // offset = A(c)
        match a.eval(c.as_ref()) {
            Ok(v) if v == off => {}
            Ok(v) => {
                return fail(format!(
                    "slice_and_offset({a}, {c}) gives offset {off}, A(c) = {v}",
                    c = shape::DisplayCoord(c.as_ref())
                ))
            }
            Err(_) => {}
        }
        return Ok(Outcome::Checked);
    }
    if sub.rank() != nnone || (sub.is_leaf() && nnone != 1) {
        return fail(format!(
            "slice_and_offset({a}, {}) = {sub}: {nnone} None leaves",
            shape::DisplayCoord(c.as_ref())
        ));
    }
    let Some(ns) = size_of(&sub)? else {
        return Ok(Outcome::Checked);
    };
    for j in samples(0, ns as i128) {
        let Ok(jj) = i64::try_from(j) else { continue };
        let jc: Coord = HTuple::leaf(Some(Scalar::Int(jj)));
        let Ok(nat) = shape::idx2crd(jc.as_ref(), sub.shape().as_ref()) else {
            continue;
        };
        let parts: Vec<HTuple<Scalar>> = if sub.is_leaf() {
            vec![nat.clone()]
        } else {
            nat.as_ref().modes().map(|m| m.to_owned()).collect()
        };
        let Some(full) = fill_coord(c.as_ref(), &parts) else {
            return fail("fill_coord: mismatch".into());
        };
        let (Ok(x), Some(y)) = (a.eval(full.as_ref()), lib_eval(&sub, j)?) else {
            continue;
        };
        match y.add(&off) {
            Ok(s) if s == x => {}
            Ok(s) => {
                return fail(format!(
                    "slice_and_offset({a}, {c}) = ({sub}, {off}): sub({j}) + offset = {s}, A({full}) = {x}",
                    c = shape::DisplayCoord(c.as_ref()),
                    full = shape::DisplayCoord(full.as_ref())
                ))
            }
            Err(_) => {}
        }
    }
    Ok(Outcome::Checked)
}

fn op_swizzle(src: &mut impl Src) -> Result<Outcome, String> {
    let (b, m, s) = if src.chance(3, 4) {
        (src.range(0, 5), src.range(0, 6), src.range(-8, 8))
    } else {
        (src.range(-2, 70), src.range(-2, 70), src.range(-70, 70))
    };
    let sw = match Swizzle::new(b, m, s) {
        Ok(sw) => sw,
        Err(e) => return rej(e),
    };
    let _ = (sw.repr(), sw.yyy_mask(), sw.zzz_mask());
    for _ in 0..16 {
        let x = if src.chance(3, 4) {
            src.range(0, 4096)
        } else {
            src.range(i64::MIN, i64::MAX)
        };
        if let Ok(y) = sw.apply(x) {
            match sw.apply(y) {
                Ok(z) if z == x => {}
                other => return fail(format!("{} applied twice to {x}: {other:?}", sw.repr())),
            }
        }
    }
    let n = src.pick(&[1, 2, 8, 64, 256, 1 << 12, 1 << 20, i64::MAX]);
    if let Ok(f) = swizzle_layout(&sw, n) {
        for i in samples(0, (n as i128).min(4096)) {
            let (Ok(v), Ok(w)) = (f.eval_index(i as i64), sw.apply(i as i64)) else {
                continue;
            };
            let same = match v {
                Scalar::F2(x) | Scalar::Int(x) => x == w,
                _ => false,
            };
            if !same {
                return fail(format!(
                    "swizzle_layout({}, {n}) = {f}: ({i}) = {v}, swizzle {w}",
                    sw.repr()
                ));
            }
        }
    }
    if let Ok(l) = layout(src) {
        if let Ok(sl) = rcute::SwizzledLayout::new(sw, l) {
            let _ = (sl.repr(), sl.cosize(), sl.to_f2_layout(), sl.eval_index(3));
            let t = tiler(src, sl.rank(), 1);
            let _ = sl.compose(&t).map(|x| x.repr());
        }
    }
    Ok(Outcome::Checked)
}

fn op_constructors(src: &mut impl Src) -> Result<Outcome, String> {
    let s = shape(src, 3);
    match Layout::column_major(s.clone()) {
        Ok(l) => {
            // column-major: the identity on [0, size)
            if let Some(n) = size_of(&l)? {
                for i in samples(0, n as i128) {
                    if let Some(v) = lib_eval_int(&l, i)? {
                        if v != i {
                            return fail(format!("column_major({s}) = {l}: ({i}) = {v}"));
                        }
                    }
                }
            }
        }
        Err(e) if is_overflow(&e) || e.kind() == ErrorKind::Value => {}
        Err(e) => return fail(format!("column_major({s}) failed: {e}")),
    }
    if let Ok(l) = Layout::row_major(s.clone()) {
        if let Some(n) = size_of(&l)? {
            for i in samples(0, n as i128) {
                if let Some(v) = lib_eval_int(&l, i)? {
                    if !(0..n as i128).contains(&v) {
                        return fail(format!("row_major({s}) = {l}: ({i}) = {v} outside"));
                    }
                }
            }
        }
    }
    let ds = shape(src, 1);
    let dk = stride_kind(src);
    let d = strides_for(src, &ds, dk);
    let _ = Layout::with_stride(s.clone(), d.as_ref()).map(|l| l.to_string());
    let order = shape(src, 2);
    let _ = algebra::make_ordered_layout(s.as_ref(), order.as_ref()).map(|l| l.to_string());
    let _ = algebra::make_identity_layout(s.as_ref()).map(|l| l.to_string());
    let t = tiler(src, 2, 2);
    let _ = tiler_to_layout(&t).map(|l| l.to_string());
    let _ = algebra::codomain::coprofile_tiler(&t);
    if let Ok(l) = layout(src) {
        let _ = algebra::make_layout_like(&l).map(|l| l.to_string());
        let _ = algebra::greatest_common_domain(l.shape().as_ref(), s.as_ref());
    }
    let _ = shape::common_refinement(s.as_ref(), order.as_ref());
    let _ = shape::common_coarsening(s.as_ref(), order.as_ref());
    let _ = shape::compatible(s.as_ref(), order.as_ref());
    let _ = shape::product_each(s.as_ref());
    Ok(Outcome::Checked)
}

fn op_by_mode(src: &mut impl Src) -> Result<Outcome, String> {
    let a = match layout(src) {
        Ok(l) => l,
        Err(e) => return rej(e),
    };
    let p = tiler(src, a.rank(), 2);
    let c = algebra::coalesce_by_mode(&a, &p);
    let cz = algebra::coalesce_z_by_mode(&a, &p);
    let f = algebra::filter_by_mode(&a, &p);
    for v in [&c, &cz, &f].into_iter().flatten() {
        let _ = v.to_string();
    }
    // by-mode coalesce keeps the function on [0, size)
    if let (Ok(c), Some(n)) = (&c, size_of(&a)?) {
        same_function(&a, c, 0, n as i128, "coalesce by mode")?;
    }
    Ok(if c.is_ok() {
        Outcome::Checked
    } else {
        Outcome::Rejected
    })
}
