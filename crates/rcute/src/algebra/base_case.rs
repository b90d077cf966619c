//! The two kernels the composition core (`composition.rs`) is built from:
//! the base case `A ∘ s:d` on a flat list of A's modes (generic over the
//! stride leaf), and the digit box that decides whether A is additive
//! across B's modes (`docs/differences.md` 1.1).

use smallvec::SmallVec;

use super::leaf::{decided, Leaf};
use crate::error::{Error, Result};
use crate::int;
use crate::integer::Integer;

/// The base case `A ∘ s:d` of `docs/operations.md` (A's leaf modes taken as a
/// flat list `a` of `(extent, stride)`; `d` an integer): "keep the first `s*d`
/// elements" (shape divisibility), then "every `d`-th of them" (stride
/// divisibility), each resulting mode passed to `emit` in order (the
/// caller folds them as they come or keeps them; `sh` is scratch for the
/// extents, its earlier contents discarded). One statement of the
/// algorithm for integer strides and for [`Scalar`] strides.
///
/// Errors: `divisibility` when either condition fails (the caller adds the
/// operands); `overflow` beyond 64 bits.
pub(crate) fn base_case_into<E: Integer, D: Leaf<E>>(
    a: &[(E, D)],
    s: &E,
    d: &E,
    sh: &mut SmallVec<[E; 8]>,
    mut emit: impl FnMut(E, D) -> Result<()>,
) -> Result<()> {
    // the shapes are worked out first, pushed as they are kept; the modes
    // are then emitted once each, the strides copied only as many as are
    // kept, the one that is scaled scaled. A question the symbols' facts do not decide is an
    // error (`zero`); for integers every question is decided.
    let zero = |x: &E, what: &dyn Fn() -> String| decided(x.decide_zero(), what);
    sh.clear();
    // step 1: the modes of A before the last, while `s*d` is left of them
    let mut rest = d.mul(s)?;
    let mut ended = false;
    if let Some((_, before)) = a.split_last() {
        for (ai, _) in before {
            let (q, r) = rest.floor_divmod(ai)?;
            let below = match q.decide_zero() {
                Some(z) => z,
                // symbols: where `rest >= 1` divides `ai`, `rest < ai` and
                // `rest == ai` keep the same elements (`ai` then 1s, which
                // the fold drops), so `rest` is kept either way
                None if rest.decide_lt(&E::from_i64(1)) == Some(false)
                    && ai.floor_divmod(&rest)?.1.decide_zero() == Some(true) =>
                {
                    sh.push(rest.clone());
                    ended = true;
                    break;
                }
                None => zero(&q, &|| format!("whether {rest} is below {ai}"))?,
            };
            if below {
                sh.push(r);
                ended = true;
                break;
            }
            if !zero(&r, &|| format!("whether {ai} divides {rest}"))? {
                return Err(divisibility_error(a, s, d, SHAPE));
            }
            sh.push(ai.clone());
            rest = q;
        }
    }
    if !ended {
        sh.push(rest);
    }
    // step 2: the mode `scaled` takes the stride scaled by `d`
    // (on a slice: each index of the small vector would test where its
    // storage is)
    let v: &mut [E] = sh;
    let m = v.len();
    let d0 = d;
    let mut d = d.clone();
    let mut scaled = None;
    for (i, x) in v[..m - 1].iter_mut().enumerate() {
        let (q, r) = x.floor_divmod(&d)?;
        if zero(&r, &|| format!("whether {d} divides {x}"))? {
            *x = q;
            scaled = Some(i);
            break;
        }
        let (q2, r2) = d.floor_divmod(x)?;
        if !zero(&r2, &|| format!("whether {x} divides {d}"))? {
            return Err(divisibility_error(a, s, d0, STRIDE));
        }
        d = q2;
        *x = E::from_i64(1);
    }
    let scaled = match scaled {
        Some(i) => i,
        None => {
            v[m - 1] = v[m - 1].floor_div(&d)?;
            m - 1
        }
    };
    // (the scaled stride first: the base case's errors come before any
    // the caller's fold raises)
    let stride = |i: usize| a.get(i).map_or_else(D::zero_leaf, |m| m.1.clone());
    let mut ds = Some(stride(scaled).mul_ext(&d)?);
    for (i, e) in v.iter().enumerate() {
        let x = match i == scaled {
            true => ds.take().unwrap_or_else(D::zero_leaf),
            false => stride(i),
        };
        emit(e.clone(), x)?;
    }
    Ok(())
}

const SHAPE: &str = "Shape divisibility condition violated";
const STRIDE: &str = "Stride divisibility condition violated";

/// The `divisibility` error of a base case `A ∘ s:d` that [`base_case_into`]
/// refuses. Its message names the condition the newer reference reports
/// first: that reference divides the stride through A's modes before it
/// truncates to `s` elements (`docs/differences.md` 1.10), so a case both
/// refuse reads "Stride divisibility" there when the stride step fails
/// (`(4,6,8):(2,3,5) ∘ 6:3`) even though the shape step, which rcute
/// checks first, fails too. Where that order accepts the case (rcute's
/// rule is the stricter one), `ours` is kept.
#[cold]
fn divisibility_error<E: Integer, D>(a: &[(E, D)], s: &E, d: &E, ours: &'static str) -> Error {
    let a_shape: Option<SmallVec<[i64; 8]>> = a.iter().map(|m| m.0.as_i64()).collect();
    let order = match (a_shape, s.as_i64(), d.as_i64()) {
        (Some(a_shape), Some(s), Some(d)) => reference_order(&a_shape, s, d),
        _ => None,
    };
    Error::divisibility(order.unwrap_or(ours))
}

/// The condition the stride-first order (stride through A's modes, then
/// the `s` elements) finds violated first for `A ∘ s:d` (`A`'s extents
/// `a_shape`), or `None` when it finds none. Only for `s >= 2`, `d != 0`
/// (the other cases never reach a divisibility error).
fn reference_order(a_shape: &[i64], s: i64, d: i64) -> Option<&'static str> {
    if s < 2 || d == 0 {
        return None;
    }
    let mut modes: SmallVec<[i64; 8]> = SmallVec::from_slice(a_shape);
    if modes.is_empty() {
        modes.push(1);
    }
    // the stride divides the leading modes it passes over
    let mut m = d;
    let mut first = 0;
    while modes.len() - first >= 2 {
        match int::floor_divmod(m, modes[first]) {
            Ok((q, 0)) => {
                m = q;
                first += 1;
            }
            _ => break,
        }
    }
    let modes = &mut modes[first..];
    if modes.len() >= 2 {
        let (q, r) = int::floor_divmod(modes[0], m).ok()?;
        if r == 0 && q > 0 {
            modes[0] = q;
        } else if q < s - 1 {
            return Some(STRIDE);
        }
    }
    // then the s elements through the remaining modes
    let mut rest = s;
    for &e in modes.iter().take(modes.len().saturating_sub(1)) {
        let (q, r) = int::floor_divmod(rest, e).ok()?;
        if q == 0 {
            return None;
        }
        if r != 0 {
            return Some(SHAPE);
        }
        rest = q;
    }
    None
}

// ---------------------------------------------------------------------------

/// The digit box of one leaf mode `t:e` (`e > 0`, `t > 1`) on an axis of A
/// with digit extents `s` (the last one is the unbounded top digit): the
/// start digit `a`, the scale `f` (`e = P_a * f`, `P_a` the prefix product)
/// and the largest value the mode puts on each digit below the top.
pub(crate) struct DigitBox {
    pub(crate) a: usize,
    pub(crate) f: i128,
    pub(crate) maxes: SmallVec<[(usize, i128); 4]>,
}

/// The digit box of one leaf mode `t:e` (`e > 0`, `t > 1`) on an axis of A
/// with digit extents `s` (positive; the last one is the unbounded top
/// digit): each digit below the top and the
/// largest value the mode puts on it are passed to `max` (in increasing
/// digit order), and `(a, f)` (start digit, scale) is returned. `None` when
/// the images do not form a box (never after the divisibility checks).
///
/// Exact in 64 bits, one division per digit: `f` is `e` divided through
/// the digits it is a multiple of (`e % (P_a * s_a) == 0` exactly when
/// `(e / P_a) % s_a == 0`), and where the mode spills over digit `a`
/// (`f * t > s_a`, `f | s_a`), `f * t` is a multiple of `s_a` exactly when
/// `t` is a multiple of `g = s_a / f`, the quotient being `t / g`; so no product
/// is formed beyond `f * t` (taken in 128 bits).
#[inline]
pub(crate) fn digit_box<S: Digits + ?Sized>(
    s: &S,
    e: i64,
    t: i64,
    mut max: impl FnMut(usize, i128),
) -> Option<(usize, i128)> {
    let top = s.count().checked_sub(1)?;
    let mut f = e;
    let mut a = 0usize;
    while a < top {
        let sa = s.digit(a);
        let (q, r) = (f / sa, f % sa);
        if r != 0 {
            break;
        }
        f = q;
        a += 1;
    }
    let f128 = f as i128;
    if a == top {
        return Some((a, f128));
    }
    let sa = s.digit(a);
    if f128 * t as i128 <= sa as i128 {
        max(a, f128 * (t as i128 - 1));
        return Some((a, f128));
    }
    // here `f * t > s_a > 0`: `f` and `t` have the same sign (positive
    // as the callers give them), so `g` is not 0
    let (g, r) = (sa / f, sa % f);
    if r != 0 {
        return None;
    }
    let (mut q, r) = (t.checked_div(g)?, t.checked_rem(g)?);
    if r != 0 {
        return None;
    }
    max(a, (sa - f) as i128);
    for i in a + 1..top {
        let si = s.digit(i);
        if q <= si {
            if q > 1 {
                max(i, (q - 1) as i128);
            }
            return Some((a, f128));
        }
        let (qq, r) = (q / si, q % si);
        if r != 0 {
            return None;
        }
        max(i, (si - 1) as i128);
        q = qq;
    }
    Some((a, f128))
}

/// The digit check of one integer axis of A with the leaves `recs`
/// (`(t, e)`, `t > 1`, `e != 0`) of B on it: true when every leaf has a
/// non-negative stride and a digit box and no digit's largest values sum
/// to its extent, so A is additive across B's modes (the first part of
/// the composition check, which accepts without its records).
/// `false` means "undecided here". One pass over `recs`.
pub(crate) fn digits_pass<D>(
    a_modes: &[(i64, D)],
    recs: impl IntoIterator<Item = (i64, i64)>,
) -> bool {
    let mut n = a_modes.len();
    if n >= 2 && a_modes[n - 1].0 == 1 {
        n -= 1;
    }
    let s = &a_modes[..n];
    if s.len() < 2 {
        return recs.into_iter().all(|(_, e)| e >= 0);
    }
    let top = s.len() - 1;
    // (a plain array for the usual few digits: cheaper to make than a
    // small vector, and indexed without a test of where it is stored)
    let mut inline = [0i128; 8];
    let mut heap = Vec::new();
    let sums: &mut [i128] = match inline.get_mut(..top) {
        Some(v) => v,
        None => {
            heap.resize(top, 0);
            &mut heap
        }
    };
    for (t, e) in recs {
        if e < 0 || digit_box(s, e, t, |i, m| sums[i] += m).is_none() {
            return false;
        }
    }
    (0..top).all(|i| sums[i] < s[i].0 as i128)
}

/// The digit extents of an axis of A, as [`digit_box`] reads them: a list
/// of extents, or A's modes `(extent, stride)` read in place.
pub(crate) trait Digits {
    /// The number of digits.
    fn count(&self) -> usize;
    /// The extent of digit `i` (`i < count()`).
    fn digit(&self, i: usize) -> i64;
}

impl Digits for [i64] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn digit(&self, i: usize) -> i64 {
        self[i]
    }
}

impl<D> Digits for [(i64, D)] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn digit(&self, i: usize) -> i64 {
        self[i].0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// `(a, f, maxes)` of a digit box.
    type Box128 = (usize, i128, Vec<(usize, i128)>);

    /// The digit box as its definition states it (`docs/differences.md`
    /// 1.1): `P_a` the largest prefix product of `s` (below the top) that
    /// divides `e`, `f = e / P_a`, then the images of `0..t` by `f` spread
    /// over the digits from `a` on, in 128-bit arithmetic throughout.
    fn by_definition(s: &[i64], e: i64, t: i64) -> Option<Box128> {
        let top = s.len().checked_sub(1)?;
        let (e, t) = (e as i128, t as i128);
        let (mut p, mut a) = (1i128, 0usize);
        while a < top && e % (p * s[a] as i128) == 0 {
            p *= s[a] as i128;
            a += 1;
        }
        let f = e / p;
        let mut maxes = Vec::new();
        if a == top {
            return Some((a, f, maxes));
        }
        let sa = s[a] as i128;
        if f * t <= sa {
            maxes.push((a, f * (t - 1)));
            return Some((a, f, maxes));
        }
        if sa % f != 0 || (f * t) % sa != 0 {
            return None;
        }
        maxes.push((a, sa - f));
        let mut q = f * t / sa;
        for i in a + 1..top {
            let si = s.digit(i);
            let si = si as i128;
            if q <= si {
                if q > 1 {
                    maxes.push((i, q - 1));
                }
                return Some((a, f, maxes));
            }
            if q % si != 0 {
                return None;
            }
            maxes.push((i, si - 1));
            q /= si;
        }
        Some((a, f, maxes))
    }

    /// [`digit_box`] (64-bit, one division per digit) gives what the
    /// definition gives, on random small axes and modes, and near 64 bits.
    #[test]
    fn digit_box_matches_definition() {
        let mut r = Rng(5);
        let mut boxes = 0;
        for i in 0..200_000 {
            let n = 1 + r.next(5) as usize;
            let s: Vec<i64> = (0..n)
                .map(|_| [1i64, 2, 3, 4, 6, 8, 12, 16][r.next(8) as usize])
                .collect();
            let (e, t) = if i % 50 == 0 {
                (1i64 << (40 + r.next(22)), i64::MAX / (1 + r.next(7) as i64))
            } else {
                (
                    [1i64, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 5, 7][r.next(14) as usize],
                    2 + r.next(30) as i64,
                )
            };
            let mut maxes = Vec::new();
            let got = digit_box(s.as_slice(), e, t, |i, m| maxes.push((i, m)));
            let want = by_definition(&s, e, t);
            match (got, want) {
                (Some((a, f)), Some((wa, wf, wm))) => {
                    boxes += 1;
                    assert_eq!((a, f, &maxes), (wa, wf, &wm), "{s:?} {t}:{e}");
                }
                (None, None) => {}
                (g, w) => panic!("{s:?} {t}:{e}: {g:?} against {w:?}"),
            }
        }
        assert!(boxes > 50_000, "{boxes}");
    }
}
