//! The integer the layout algebra is written over: [`Integer`], implemented
//! by `i64` (a concrete integer, the common case, compiled to plain checked
//! machine arithmetic) and by [`SymInt`] (a symbolic integer over declared
//! symbols, `docs/language.md`, "Symbols").
//!
//! A function generic over `Integer` is one statement of its algorithm for
//! both: [`crate::shape::size`] is the first. Every operation is checked
//! (`overflow` instead of wrapping) and a symbolic division that the
//! symbols' facts do not resolve stays symbolic (`(K + 7)//8`), as
//! [`SymInt::divmod`] says.
//!
//! ```
//! use rcute::integer::Integer;
//! use rcute::sym::{Facts, SymInt};
//! fn area<I: Integer>(w: &I, h: &I) -> rcute::Result<I> {
//!     w.mul(h)
//! }
//! assert_eq!(area(&4i64, &8i64).unwrap(), 32);
//! let mut f = Facts::new();
//! f.declare("N").unwrap();
//! let n = SymInt::symbol(&f, "N").unwrap();
//! assert_eq!(area(&n, &SymInt::from(8)).unwrap().to_string(), "8*N");
//! ```

use std::fmt;
use std::hash::Hash;

use crate::error::Result;
use crate::int;
use crate::stride::Scalar;
use crate::sym::SymInt;

/// An integer of the algebra: `i64` or [`SymInt`].
pub trait Integer: Clone + Eq + Hash + fmt::Display + fmt::Debug {
    /// The stride leaf of a layout whose shape leaves are of this integer:
    /// a [`Scalar`] (integer, coordinate or F2 value) for `i64`, a symbolic
    /// integer for [`SymInt`].
    type Stride: Clone + Eq + Hash + fmt::Display + fmt::Debug;
    /// The integer `v`.
    fn from_i64(v: i64) -> Self;
    /// The integer `v` as a stride leaf.
    fn stride_of(v: i64) -> Self::Stride;
    /// Whether the value is `0`: `Some(answer)` where it is decided (always
    /// for `i64`; for a symbolic value, where its facts prove it zero or
    /// non-zero), `None` where it is not.
    fn decide_zero(&self) -> Option<bool>;
    /// Whether `self < o`, decided as [`Integer::decide_zero`].
    fn decide_lt(&self, o: &Self) -> Option<bool>;
    /// The value, when it is a concrete integer (C++ CuTe's "static").
    fn as_i64(&self) -> Option<i64>;
    /// `self + o`. Errors: `overflow`.
    fn add(&self, o: &Self) -> Result<Self>;
    /// `self - o`. Errors: `overflow`.
    fn sub(&self, o: &Self) -> Result<Self>;
    /// `self * o`. Errors: `overflow`.
    fn mul(&self, o: &Self) -> Result<Self>;
    /// `(floor(self / o), self mod o)` (the modulo has the sign of `o`).
    /// Errors: `value` for a zero divisor (or, symbolically, one not proven
    /// non-zero); `overflow`.
    fn floor_divmod(&self, o: &Self) -> Result<(Self, Self)>;
    /// `floor(self / o)`, as [`Integer::floor_divmod`].
    fn floor_div(&self, o: &Self) -> Result<Self> {
        Ok(self.floor_divmod(o)?.0)
    }
}

impl Integer for i64 {
    type Stride = Scalar;
    #[inline(always)]
    fn from_i64(v: i64) -> i64 {
        v
    }
    #[inline(always)]
    fn stride_of(v: i64) -> Scalar {
        Scalar::Int(v)
    }
    #[inline(always)]
    fn decide_zero(&self) -> Option<bool> {
        Some(*self == 0)
    }
    #[inline(always)]
    fn decide_lt(&self, o: &i64) -> Option<bool> {
        Some(*self < *o)
    }
    #[inline(always)]
    fn as_i64(&self) -> Option<i64> {
        Some(*self)
    }
    #[inline(always)]
    fn add(&self, o: &i64) -> Result<i64> {
        int::add(*self, *o)
    }
    #[inline(always)]
    fn sub(&self, o: &i64) -> Result<i64> {
        int::sub(*self, *o)
    }
    #[inline(always)]
    fn mul(&self, o: &i64) -> Result<i64> {
        int::mul(*self, *o)
    }
    #[inline(always)]
    fn floor_divmod(&self, o: &i64) -> Result<(i64, i64)> {
        int::floor_divmod(*self, *o)
    }
    #[inline(always)]
    fn floor_div(&self, o: &i64) -> Result<i64> {
        int::floor_div(*self, *o)
    }
}

impl Integer for SymInt {
    type Stride = SymInt;
    fn from_i64(v: i64) -> SymInt {
        SymInt::from(v)
    }
    fn stride_of(v: i64) -> SymInt {
        SymInt::from(v)
    }
    fn decide_zero(&self) -> Option<bool> {
        self.proven_zero()
    }
    fn decide_lt(&self, o: &SymInt) -> Option<bool> {
        self.lt(o)
    }
    fn as_i64(&self) -> Option<i64> {
        self.as_const()
    }
    fn add(&self, o: &SymInt) -> Result<SymInt> {
        SymInt::add(self, o)
    }
    fn sub(&self, o: &SymInt) -> Result<SymInt> {
        SymInt::sub(self, o)
    }
    fn mul(&self, o: &SymInt) -> Result<SymInt> {
        SymInt::mul(self, o)
    }
    fn floor_divmod(&self, o: &SymInt) -> Result<(SymInt, SymInt)> {
        self.divmod(o)
    }
}
