//! # rcute — CuTe's layout algebra in Rust
//!
//! A CuTe *layout* maps coordinates to offsets through a hierarchical shape
//! and a congruent stride, e.g. `((2,2),3):((24,2),8)`. This crate implements
//! the layout algebra of Cecka's whitepaper "CuTe Layout Representation and
//! Algebra" exactly as the reference implementation PyCuTe computes it
//! (with the deliberate departures listed in the spec), with checked 64-bit
//! arithmetic and `Result` errors instead of panics.
//!
//! ```
//! use rcute::{ErrorKind, Layout};
//!
//! // layouts from integers and tuples, or parsed from the notation
//! let a = Layout::new((6, 2), (8, 2))?;
//! let b: Layout = "(4,3):(3,1)".parse()?;
//!
//! // the algebra as methods (and as free functions with CuTe's names)
//! let c = a.compose(&b)?;
//! assert_eq!(c.to_string(), "((2, 2), 3):((24, 2), 8)");
//! assert_eq!(c.at(((1, 0), 2))?, 40);
//! let tiles = Layout::column_major((4096, 4096))?.zipped_divide((128, 64))?;
//! assert_eq!(tiles.shape().to_string(), "((128, 64), (32, 64))");
//!
//! // an error, not a wrong layout, where no layout reproduces A∘B
//! let e = Layout::new((6, 2), (1, 7))?.compose(&Layout::new((3, 2), (2, 3))?).unwrap_err();
//! assert_eq!(e.kind(), ErrorKind::Divisibility);
//! assert_eq!(e.operation(), Some("composition"));
//!
//! // the expression language of `rcute eval`
//! assert_eq!(rcute::notation::eval_str("right_inverse((4,8):(8,1))")?, "(8, 4):(4, 1)");
//! # Ok::<(), rcute::Error>(())
//! ```
//!
//! Where to start: [`Layout`] (construction, evaluation and the algebra as
//! methods), the free functions re-exported here ([`composition`],
//! [`logical_divide`], [`zipped_divide`], [`logical_product`], ...),
//! [`algebra`] (every operation with its tiler and by-mode forms),
//! [`notation`] (the expression language), [`swizzle`], [`tensor`] and
//! [`viz`] (tables and drawings).
//!
//! ## Cargo features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `png` | off | `viz::draw_png`, `viz::draw_png_tv` and `viz::png_scale_for`: drawings rendered to PNG bytes in-process (pulls in `tiny-skia` and `ttf-parser`; the glyphs come from an embedded DejaVu Sans subset) |
//!
//! Without `png` the library has no rendering dependency; ASCII tables, SVG
//! and TikZ drawings ([`viz`]) are always available. The `rcute` CLI turns
//! `png` on (`rcute draw -o FILE.png`):
//!
//! ```toml
//! [dependencies]
//! rcute = { version = "0.1", features = ["png"] }
//! ```

pub mod algebra;
pub mod api;
pub mod atuple;
pub mod convert;
pub mod error;
pub mod f2;
pub mod htuple;
pub mod int;
pub mod integer;
pub mod layout;
pub mod notation;
pub mod offsets;
/// The operation table of the notation ([`notation::table`]): every
/// operation's name, parameters, forms, documentation and example.
pub use notation::table as ops;
pub mod shape;
pub mod stride;
pub mod swizzle;
pub mod sym;
pub mod tensor;
pub mod tiler;
pub mod viz;

#[cfg(test)]
mod testing;

pub use api::*;
pub use atuple::ArithTuple;
pub use convert::{IntoCoord, IntoHTuple, IntoShape, IntoStride};
pub use error::{Error, ErrorKind, Result};
pub use htuple::{HRef, HTuple};
pub use layout::{Layout, Stride, SymLayout};
pub use shape::{Coord, Shape};
pub use stride::Scalar;
pub use swizzle::{Swizzle, SwizzledLayout};
pub use tiler::{IntoTiler, Tiler, TilerItems, TilerRef};

/// The README's Rust examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of `docs/design.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/design.md")]
pub struct DesignDoctests;
