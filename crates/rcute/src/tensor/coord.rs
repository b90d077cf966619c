//! Coordinates and shapes written as Rust values: `3`, `(1, 2)`,
//! `(2, ((0, ALL), ALL))`, where [`ALL`] is the full-slice marker
//! (PyCuTe's `None` / `:`, C++ `_`).

use crate::htuple::HTuple;
use crate::shape::{Coord, Shape};
use crate::stride::Scalar;

/// The full-slice marker `_` (PyCuTe `None`): keeps the mode when slicing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct All;

/// The full-slice marker, for use in coordinates: `t.slice((ALL, 3))`.
pub const ALL: All = All;

/// Conversion of a Rust value into a coordinate (`HTuple<Option<Scalar>>`,
/// `None` = `_`): integers, [`ALL`], `Option<i64>`, scalars, coordinates,
/// vectors and tuples (up to 6 entries) of convertible values.
///
/// ```
/// use rcute::tensor::{IntoCoord, ALL};
/// use rcute::shape::DisplayCoord;
/// let c = (2, ((0, ALL), ALL)).into_coord();
/// assert_eq!(DisplayCoord(c.as_ref()).to_string(), "(2, ((0, None), None))");
/// assert_eq!(DisplayCoord(7.into_coord().as_ref()).to_string(), "7");
/// ```
pub trait IntoCoord {
    /// The coordinate.
    fn into_coord(self) -> Coord;
}

impl IntoCoord for i64 {
    fn into_coord(self) -> Coord {
        HTuple::leaf(Some(Scalar::Int(self)))
    }
}
impl IntoCoord for i32 {
    fn into_coord(self) -> Coord {
        HTuple::leaf(Some(Scalar::Int(i64::from(self))))
    }
}
impl IntoCoord for All {
    fn into_coord(self) -> Coord {
        HTuple::leaf(None)
    }
}
impl IntoCoord for Option<i64> {
    fn into_coord(self) -> Coord {
        HTuple::leaf(self.map(Scalar::Int))
    }
}
impl IntoCoord for Scalar {
    fn into_coord(self) -> Coord {
        HTuple::leaf(Some(self))
    }
}
impl IntoCoord for Coord {
    fn into_coord(self) -> Coord {
        self
    }
}
impl IntoCoord for &Coord {
    fn into_coord(self) -> Coord {
        self.clone()
    }
}
impl IntoCoord for () {
    fn into_coord(self) -> Coord {
        HTuple::empty()
    }
}
impl<C: IntoCoord> IntoCoord for Vec<C> {
    fn into_coord(self) -> Coord {
        HTuple::tuple(self.into_iter().map(IntoCoord::into_coord))
    }
}

/// Conversion of a Rust value into a shape: integers, shapes, vectors and
/// tuples (up to 6 entries) of convertible values.
///
/// ```
/// use rcute::tensor::IntoShape;
/// assert_eq!((2, (3, 4)).into_shape().to_string(), "(2, (3, 4))");
/// assert_eq!((5,).into_shape().to_string(), "(5,)");
/// ```
pub trait IntoShape {
    /// The shape.
    fn into_shape(self) -> Shape;
}

impl IntoShape for i64 {
    fn into_shape(self) -> Shape {
        HTuple::leaf(self)
    }
}
impl IntoShape for i32 {
    fn into_shape(self) -> Shape {
        HTuple::leaf(i64::from(self))
    }
}
impl IntoShape for Shape {
    fn into_shape(self) -> Shape {
        self
    }
}
impl IntoShape for &Shape {
    fn into_shape(self) -> Shape {
        self.clone()
    }
}
impl IntoShape for () {
    fn into_shape(self) -> Shape {
        HTuple::empty()
    }
}
impl<C: IntoShape> IntoShape for Vec<C> {
    fn into_shape(self) -> Shape {
        HTuple::tuple(self.into_iter().map(IntoShape::into_shape))
    }
}

macro_rules! tuple_impls {
    ($($name:ident),+) => {
        impl<$($name: IntoCoord),+> IntoCoord for ($($name,)+) {
            #[allow(non_snake_case)]
            fn into_coord(self) -> Coord {
                let ($($name,)+) = self;
                HTuple::tuple([$($name.into_coord()),+])
            }
        }
        impl<$($name: IntoShape),+> IntoShape for ($($name,)+) {
            #[allow(non_snake_case)]
            fn into_shape(self) -> Shape {
                let ($($name,)+) = self;
                HTuple::tuple([$($name.into_shape()),+])
            }
        }
    };
}
tuple_impls!(A);
tuple_impls!(A, B);
tuple_impls!(A, B, C);
tuple_impls!(A, B, C, D);
tuple_impls!(A, B, C, D, E);
tuple_impls!(A, B, C, D, E, F);
