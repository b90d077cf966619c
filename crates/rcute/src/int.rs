//! Checked integer arithmetic with Python semantics (`docs/language.md`, "Integers"):
//! floor division, non-negative modulo for positive divisors, `overflow`
//! errors instead of wrapping, `value` errors for division by zero.

use crate::error::{Error, Result};

/// The `overflow` error of `a op b` (out of line: the checked operations
/// are inlined into hot loops, their error formatting is not).
#[cold]
#[inline(never)]
fn overflow2(a: i64, op: &str, b: i64) -> Error {
    Error::overflow(format!("{a} {op} {b} overflows 64 bits"))
}

/// The error of `a // b` when [`fdm`] has no answer.
#[cold]
#[inline(never)]
fn divmod_error(a: i64, b: i64) -> Error {
    if b == 0 {
        Error::value(format!("division by zero: {a} // 0"))
    } else {
        Error::overflow(format!("{a} // {b} overflows 64 bits"))
    }
}

/// `a + b`, or an `overflow` error.
///
/// ```
/// assert_eq!(rcute::int::add(2, 3).unwrap(), 5);
/// assert!(rcute::int::add(i64::MAX, 1).is_err());
/// ```
#[inline]
pub fn add(a: i64, b: i64) -> Result<i64> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(overflow2(a, "+", b)),
    }
}

/// `a - b`, or an `overflow` error.
///
/// ```
/// assert_eq!(rcute::int::sub(2, 3).unwrap(), -1);
/// ```
#[inline]
pub fn sub(a: i64, b: i64) -> Result<i64> {
    match a.checked_sub(b) {
        Some(v) => Ok(v),
        None => Err(overflow2(a, "-", b)),
    }
}

/// `a * b`, or an `overflow` error.
///
/// ```
/// assert_eq!(rcute::int::mul(4, 8).unwrap(), 32);
/// assert!(rcute::int::mul(1 << 40, 1 << 40).is_err());
/// ```
#[inline]
pub fn mul(a: i64, b: i64) -> Result<i64> {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(overflow2(a, "*", b)),
    }
}

/// `-a`, or an `overflow` error.
///
/// ```
/// assert_eq!(rcute::int::neg(3).unwrap(), -3);
/// ```
#[inline]
pub fn neg(a: i64) -> Result<i64> {
    match a.checked_neg() {
        Some(v) => Ok(v),
        None => Err(Error::overflow(format!("-({a}) overflows 64 bits"))),
    }
}

/// Floor division and its remainder, `(a // b, a % b)` as Python computes
/// them: the quotient rounds toward minus infinity, the remainder has the
/// sign of `b`. Division by zero is a `value` error.
///
/// ```
/// assert_eq!(rcute::int::floor_divmod(-7, 3).unwrap(), (-3, 2));
/// assert_eq!(rcute::int::floor_divmod(7, -2).unwrap(), (-4, -1));
/// ```
#[inline]
pub fn floor_divmod(a: i64, b: i64) -> Result<(i64, i64)> {
    match fdm(a, b) {
        Some(v) => Ok(v),
        None => Err(divmod_error(a, b)),
    }
}

/// Floor division `a // b`.
///
/// ```
/// assert_eq!(rcute::int::floor_div(-1, 4).unwrap(), -1);
/// ```
#[inline]
pub fn floor_div(a: i64, b: i64) -> Result<i64> {
    Ok(floor_divmod(a, b)?.0)
}

/// Floor modulo `a % b` (sign of `b`).
///
/// ```
/// assert_eq!(rcute::int::floor_mod(-1, 4).unwrap(), 3);
/// ```
#[inline]
pub fn floor_mod(a: i64, b: i64) -> Result<i64> {
    Ok(floor_divmod(a, b)?.1)
}

/// Ceiling division `ceil(a / b) = -((-a) // b)`.
///
/// ```
/// assert_eq!(rcute::int::ceil_div(7, 2).unwrap(), 4);
/// assert_eq!(rcute::int::ceil_div(-7, 2).unwrap(), -3);
/// ```
#[inline]
pub fn ceil_div(a: i64, b: i64) -> Result<i64> {
    // (no division for the common divisor 1, nor for a nonzero `a` over
    // itself)
    if b == 1 {
        return Ok(a);
    }
    if a == b && a != 0 {
        return Ok(1);
    }
    // -((-a) // b) computed without overflowing on a = i64::MIN
    let (q, r) = floor_divmod(a, b)?;
    if r != 0 {
        add(q, 1)
    } else {
        Ok(q)
    }
}

/// Greatest common divisor (non-negative; `gcd(0, 0) = 0`).
///
/// ```
/// assert_eq!(rcute::int::gcd(12, -18), 6);
/// ```
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// Least common multiple (non-negative), or an `overflow` error.
///
/// ```
/// assert_eq!(rcute::int::lcm(4, 6).unwrap(), 12);
/// ```
pub fn lcm(a: i64, b: i64) -> Result<i64> {
    if a == 0 || b == 0 {
        return Ok(0);
    }
    let g = gcd(a, b);
    mul((a / g).abs(), b.abs())
}

/// [`floor_divmod`] without the error value: `None` for a zero divisor
/// or an overflowing quotient.
#[inline]
pub(crate) fn fdm(a: i64, b: i64) -> Option<(i64, i64)> {
    if a >= 0 && b > 0 {
        // the common case: one unsigned division gives both
        let (ua, ub) = (a as u64, b as u64);
        return Some(((ua / ub) as i64, (ua % ub) as i64));
    }
    if b == 0 {
        return None;
    }
    let q = a.checked_div(b)?;
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        Some((q - 1, r + b))
    } else {
        Some((q, r))
    }
}

/// `gcd(a, b)` of two positive integers (binary: shifts and subtractions,
/// no division); equal to [`gcd`] on them.
#[inline]
pub(crate) fn gcd_pos(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a as u64, b as u64);
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            break;
        }
    }
    (a << shift) as i64
}

/// `a / b` for positive `a` and `b` dividing it, skipping the division
/// when `b` is `a` or 1 (the common cases of the walk).
#[inline(always)]
pub(crate) fn div_exact(a: i64, b: i64) -> i64 {
    if a == b {
        1
    } else if b == 1 {
        a
    } else {
        a / b
    }
}

/// An exact sum of products of two `i64`s (an offset: coordinates times
/// strides): a 128-bit sum and the number of times it wrapped around 128
/// bits, so the value is exact whatever the order and the number of the
/// terms. Each product fits in 128 bits (`|a*b| <= 2^126`).
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct ExactSum {
    low: i128,
    /// the value is `low + wraps * 2^128`
    wraps: i64,
}

impl ExactSum {
    /// Adds `a * b`.
    #[inline(always)]
    pub(crate) fn add_product(&mut self, a: i64, b: i64) {
        let t = a as i128 * b as i128;
        let (low, wrapped) = self.low.overflowing_add(t);
        if wrapped {
            self.wraps += if t > 0 { 1 } else { -1 };
        }
        self.low = low;
    }

    /// The sum, when it fits in 128 bits (with `wraps != 0` it is at least
    /// `2^127` in magnitude, beyond them).
    #[inline(always)]
    pub(crate) fn value(&self) -> Option<i128> {
        (self.wraps == 0).then_some(self.low)
    }

    /// The sum as an offset: `overflow` when it does not fit in 64 bits.
    #[inline(always)]
    pub(crate) fn offset(&self) -> Result<i64> {
        match self.value().map(i64::try_from) {
            Some(Ok(v)) => Ok(v),
            _ => Err(self.offset_error()),
        }
    }

    #[cold]
    #[inline(never)]
    fn offset_error(&self) -> Error {
        match self.value() {
            Some(v) => Error::overflow(format!("the offset {v} overflows 64 bits")),
            None => Error::overflow("the offset overflows 64 bits (it is beyond 128 bits)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::Rng;

    /// `ExactSum` is exact when partial sums leave 128 bits and come back
    /// (a checked 128-bit sum would have refused these), and reports a sum
    /// beyond 128 bits as `None`; random sums agree with a two-word model.
    #[test]
    fn exact_sum_is_exact() {
        use super::ExactSum;
        let (max, min) = (i64::MAX, i64::MIN);
        // four times +2^126 (leaves 128 bits), then four times -2^126: 0
        let mut s = ExactSum::default();
        for _ in 0..4 {
            s.add_product(min, min);
        }
        assert_eq!(s.value(), None);
        for _ in 0..4 {
            s.add_product(min, max);
            s.add_product(min, 1);
        }
        assert_eq!(s.value(), Some(0));
        // beyond 128 bits, negative
        let mut s = ExactSum::default();
        for _ in 0..3 {
            s.add_product(min, max);
        }
        assert_eq!(s.value(), None);
        // random terms against a model of (high, low) words in i128 halves
        let mut r = Rng(5);
        const EDGES: &[i64] = &[
            0,
            1,
            -1,
            2,
            i64::MAX,
            i64::MIN,
            i64::MAX - 1,
            1 << 62,
            -(1 << 62),
        ];
        for _ in 0..20_000 {
            let n = 1 + r.next(12) as usize;
            let mut s = ExactSum::default();
            // the model: the sum of the products' halves (each product
            // split at 2^64), exact in i128 for up to 2^62 terms
            let (mut hi, mut lo) = (0i128, 0i128);
            for _ in 0..n {
                let pick = |r: &mut Rng| match r.next(3) {
                    0 => EDGES[r.next(EDGES.len() as u64) as usize],
                    _ => ((r.next(1 << 32) << 32) | r.next(1 << 32)) as i64,
                };
                let (a, b) = (pick(&mut r), pick(&mut r));
                s.add_product(a, b);
                let p = a as i128 * b as i128;
                hi += p >> 64;
                lo += p & ((1i128 << 64) - 1);
            }
            // value = hi * 2^64 + lo; normalise lo into [0, 2^64)
            hi += lo >> 64;
            lo &= (1i128 << 64) - 1;
            let fits = (-(1i128 << 63)..(1i128 << 63)).contains(&hi);
            let want = fits.then_some((hi << 64) | lo);
            assert_eq!(s.value(), want);
        }
    }

    /// `int::fdm` (which `int::floor_divmod` reports through) is floor
    /// division, checked against 128-bit arithmetic on edge values and
    /// random pairs of both signs: `None` exactly for a zero divisor or a
    /// quotient outside 64 bits.
    #[test]
    fn fdm_is_floor_division() {
        use crate::int::fdm;
        let edge = [
            i64::MIN,
            i64::MIN + 1,
            -7,
            -2,
            -1,
            0,
            1,
            2,
            3,
            7,
            i64::MAX - 1,
            i64::MAX,
        ];
        let mut r = Rng(41);
        let mut pairs: Vec<(i64, i64)> = Vec::new();
        for &a in &edge {
            for &b in &edge {
                pairs.push((a, b));
            }
        }
        let signed = |r: &mut Rng| {
            let raw = (r.next(1 << 31) << 33) | (r.next(1 << 31) << 2) | r.next(4);
            (raw as i64) >> r.next(64)
        };
        for _ in 0..100_000 {
            let a = signed(&mut r);
            let b = signed(&mut r);
            pairs.push((a, b));
        }
        assert!(pairs.iter().filter(|p| p.0 < 0 && p.1 < 0).count() > 10_000);
        for (a, b) in pairs {
            let want = (b != 0)
                .then(|| {
                    let (x, y) = (a as i128, b as i128);
                    let q = x.div_euclid(y) - i128::from(y < 0 && x.rem_euclid(y) != 0);
                    let r = x - q * y;
                    i64::try_from(q).ok().map(|q| (q, r as i64))
                })
                .flatten();
            assert_eq!(fdm(a, b), want, "fdm({a}, {b})");
            assert_eq!(crate::int::floor_divmod(a, b).ok(), want);
        }
    }
}
