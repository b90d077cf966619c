//! # rcute — CuTe's layout algebra in Rust
//!
//! A CuTe *layout* maps coordinates to offsets through a hierarchical shape
//! and a congruent stride, e.g. `((2,2),3):((24,2),8)`. This crate implements
//! the layout algebra of Cecka's whitepaper "CuTe Layout Representation and
//! Algebra" exactly as the reference implementation PyCuTe computes it
//! (with the deliberate departures listed in the spec), with checked 64-bit
//! arithmetic and `Result` errors instead of panics.
//!
//! ```ignore
//! use rcute::notation;
//! assert_eq!(notation::eval_str("composition((6,2):(8,2), (4,3):(3,1))").unwrap(),
//!            "((2, 2), 3):((24, 2), 8)");
//! ```

pub mod algebra;
pub mod atuple;
pub mod error;
pub mod f2;
pub mod htuple;
pub mod int;
pub mod layout;
pub mod notation;
pub mod offsets;
/// The operation table of the notation ([`notation::table`]): every
/// operation's name, parameters, forms, documentation and example.
pub use notation::table as ops;
pub mod shape;
pub mod stride;
pub mod swizzle;
pub mod tensor;
pub mod tiler;
pub mod viz;

#[cfg(test)]
mod testing;

pub use atuple::ArithTuple;
pub use error::{Error, ErrorKind, Result};
pub use htuple::{HRef, HTuple};
pub use layout::{Layout, Stride};
pub use shape::{Coord, Shape};
pub use stride::Scalar;
pub use swizzle::{Swizzle, SwizzledLayout};
pub use tiler::Tiler;
