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
