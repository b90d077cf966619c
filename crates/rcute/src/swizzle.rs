//! Swizzles (`swizzle.md`): the `Swizzle(B, M, S)` functor on integers,
//! swizzled layouts (C++ `ComposedLayout<Swizzle, 0, Layout>`), conversion to
//! F2-stride layouts and bank-conflict analysis.

use crate::{Error, Layout, Result};

/// The swizzle functor `Swizzle(B, M, S)` (`swizzle.md` sections 1-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// number of bits in the mask (`B`)
    pub bits: i64,
    /// number of least-significant bits kept constant (`M`)
    pub base: i64,
    /// shift distance of the mask (`S`, may be negative)
    pub shift: i64,
}

impl Swizzle {
    /// `Swizzle(B, M, S)`, validated as `swizzle.md` section 2 says.
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let _ = (bits, base, shift);
        Err(Error::value("Swizzle: not implemented yet"))
    }
    /// The swizzle applied to an offset.
    pub fn apply(&self, x: i64) -> Result<i64> {
        let _ = x;
        Err(Error::value("Swizzle: not implemented yet"))
    }
}

/// A swizzled layout `Swizzle o Layout` (C++ `ComposedLayout`).
#[derive(Clone, Debug, PartialEq)]
pub struct SwizzledLayout {
    /// the swizzle applied to the layout's offsets
    pub swizzle: Swizzle,
    /// the layout
    pub layout: Layout,
}
