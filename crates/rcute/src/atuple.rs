//! Coordinate values (PyCuTe's `ArithTuple`, `docs/language.md`, "Strides"): an
//! explicit, ordered sequence of children, each an integer, an F2 value or a
//! nested coordinate value, with implicit zeros beyond the explicit ones.
//!
//! The type is defined beside [`Scalar`](crate::Scalar), of which a
//! coordinate value is one variant (the two are one recursive type); this
//! module keeps its historical path.

pub use crate::stride::ArithTuple;
