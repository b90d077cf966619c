//! Coordinate values (PyCuTe's `ArithTuple`, `strides.md` section 3): an
//! explicit, ordered sequence of children, each an integer, an F2 value or a
//! nested coordinate value, with implicit zeros beyond the explicit ones.
//!
//! The arithmetic lives on [`Scalar`], of which a coordinate
//! value is one variant.

use crate::stride::Scalar;

/// The children of a coordinate value, stored verbatim (no normalisation):
/// `ArithTuple(1, 0)` has two children and `E(0)` one, yet they are equal.
///
/// ```
/// use rcute::{ArithTuple, Scalar};
/// let a = Scalar::coord(vec![Scalar::Int(3), Scalar::Int(5)]);
/// assert_eq!(a.to_string(), "(3, 5)");
/// if let Scalar::Coord(c) = &a { assert_eq!(c.children().len(), 2); }
/// ```
#[derive(Clone, Debug)]
pub struct ArithTuple {
    children: Vec<Scalar>,
}

impl ArithTuple {
    /// The coordinate value with these explicit children.
    pub fn new(children: Vec<Scalar>) -> Self {
        ArithTuple { children }
    }
    /// The explicit children.
    #[inline]
    pub fn children(&self) -> &[Scalar] {
        &self.children
    }
}
