//! F2 (XOR) arithmetic on the bits of an integer (`docs/language.md`, "Strides"):
//! addition is XOR, multiplication is the carry-less product.

use crate::error::{Error, Result};

/// Carry-less product of `a` by the multiplier `m` (`docs/language.md`, "Strides").
///
/// A negative multiplier is a `value` error (the reference never
/// terminates there); a product outside 64 bits is an `overflow` error.
///
/// ```
/// assert_eq!(rcute::f2::clmul(3, 3).unwrap(), 5);
/// assert_eq!(rcute::f2::clmul(6, 3).unwrap(), 10);
/// assert_eq!(rcute::f2::clmul(10, 3).unwrap(), 30);
/// assert!(rcute::f2::clmul(9, -1).is_err());
/// ```
pub fn clmul(a: i64, m: i64) -> Result<i64> {
    if m < 0 {
        return Err(Error::value(format!(
            "F2 product F{a} * {m}: the multiplier must be non-negative"
        )));
    }
    let mut r: i128 = 0;
    let mut c: i128 = a as i128;
    let mut v = m;
    while v != 0 {
        if v & 1 == 1 {
            r ^= c;
        }
        v >>= 1;
        c <<= 1;
    }
    i64::try_from(r)
        .map_err(|_| Error::overflow(format!("F2 product F{a} * {m} overflows 64 bits")))
}

/// Polynomial division over GF(2): `(q, r)` with `a = clmul(q, d) ^ r` and
/// `deg(r) < deg(d)` (`deg(x) = bit_length(x) - 1`). For a power of two
/// `d = 2^k` this is the bit split `(a >> k, a & (2^k - 1))`.
///
/// Errors: `value` for a negative dividend or divisor, and for a zero
/// divisor (the Python module raises `ZeroDivisionError` for it).
///
/// ```
/// use rcute::f2::divmod;
/// assert_eq!(divmod(0b10110, 4).unwrap(), (5, 2));
/// assert_eq!(divmod(0b1011, 3).unwrap(), (6, 1));
/// assert_eq!(divmod(42, 3).unwrap(), (25, 1));
/// assert_eq!(divmod(3, 8).unwrap(), (0, 3));
/// assert!(divmod(42, 0).is_err() && divmod(-5, 3).is_err() && divmod(5, -3).is_err());
/// ```
pub fn divmod(a: i64, d: i64) -> Result<(i64, i64)> {
    if a < 0 || d < 0 {
        return Err(Error::value(format!(
            "F2 division F{a} / {d}: the operands must be non-negative"
        )));
    }
    if d == 0 {
        return Err(Error::value(format!(
            "F2 division F{a} / 0: division by zero"
        )));
    }
    let bits = |x: i64| 64 - x.leading_zeros() as i64;
    let deg_d = bits(d) - 1;
    let (mut q, mut r) = (0i64, a);
    while bits(r) > deg_d {
        let k = bits(r) - 1 - deg_d;
        q ^= 1 << k;
        r ^= d << k;
    }
    Ok((q, r))
}
