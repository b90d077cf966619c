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
pub mod layout;
pub mod notation;
pub mod offsets;
pub mod shape;
pub mod stride;
pub mod swizzle;
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
pub use layout::{Layout, Stride};
pub use shape::{Coord, Shape};
pub use stride::Scalar;
pub use swizzle::{Swizzle, SwizzledLayout};
pub use tiler::{IntoTiler, Tiler, TilerRef};
