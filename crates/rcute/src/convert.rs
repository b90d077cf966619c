//! Conversions from Rust values to shapes, strides, coordinates and tilers:
//! what lets the typed API read like C++ CuTe (`make_layout(make_shape(4, 8),
//! make_stride(1, 4))`) and PyCuTe (`Layout((4, 8), (1, 4))`).
//!
//! * [`IntoHTuple<T>`] builds a hierarchical tuple with leaves of type `T`
//!   from an integer, a Rust tuple (up to 12 elements, nested freely), an
//!   array, a `Vec`, `()` (the empty tuple) or an existing [`HTuple`].
//!   [`IntoShape`], [`IntoStride`] and [`IntoCoord`] are its three uses.
//!
//! [`IntoTiler`](crate::IntoTiler) is the same for tilers.
//!
//! Every conversion is checked: a negative `usize`-to-`i64` conversion or a
//! value past 64 bits is an `overflow` error; the layout constructors then
//! check extents, congruence, depth and size limits.
//!
//! ```
//! use rcute::{HTuple, IntoShape, IntoStride};
//! assert_eq!((4, (2, 3)).into_shape()?.to_string(), "(4, (2, 3))");
//! assert_eq!([2, 2, 2].into_shape()?.to_string(), "(2, 2, 2)");
//! assert_eq!(8.into_shape()?, HTuple::leaf(8));
//! assert_eq!((1, rcute::Scalar::basis(1, &[1])).into_stride()?.to_string(), "(1, 1@1)");
//! # Ok::<(), rcute::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple};
use crate::stride::Scalar;

/// A Rust value that converts into an [`HTuple`] with leaves `T`.
pub trait IntoHTuple<T>: Sized {
    /// Appends the value to a tuple under construction.
    fn build(self, b: &mut Builder<T>) -> Result<()>;

    /// The hierarchical tuple.
    fn into_htuple(self) -> Result<HTuple<T>> {
        let mut b = Builder::new();
        self.build(&mut b)?;
        Ok(b.finish())
    }
}

/// Values that convert into a shape (integer leaves): `8`, `(4, 8)`,
/// `((2, 2), 3)`, `[4, 8]`, an existing shape.
///
/// ```
/// use rcute::IntoShape;
/// assert_eq!(((2, 2), 3).into_shape()?.to_string(), "((2, 2), 3)");
/// # Ok::<(), rcute::Error>(())
/// ```
pub trait IntoShape: IntoHTuple<i64> {
    /// The shape.
    fn into_shape(self) -> Result<HTuple<i64>> {
        self.into_htuple()
    }
}
impl<X: IntoHTuple<i64>> IntoShape for X {}

/// Values that convert into a stride (integer, F2 or coordinate leaves):
/// `1`, `(1, 4)`, `(Scalar::basis(1, &[0]), 8)`, an existing stride.
pub trait IntoStride: IntoHTuple<Scalar> {
    /// The stride.
    fn into_stride(self) -> Result<HTuple<Scalar>> {
        self.into_htuple()
    }
}
impl<X: IntoHTuple<Scalar>> IntoStride for X {}

/// Values that convert into a coordinate: an integer index `14`, a
/// hierarchical coordinate `((1, 0), 2)`, with `None` leaves for `_` in
/// slices (`(None::<i64>, 2)`).
///
/// ```
/// use rcute::IntoCoord;
/// assert_eq!(((1, 0), 2).into_coord()?.leaves().len(), 3);
/// # Ok::<(), rcute::Error>(())
/// ```
pub trait IntoCoord: IntoHTuple<Option<Scalar>> {
    /// The coordinate.
    fn into_coord(self) -> Result<HTuple<Option<Scalar>>> {
        self.into_htuple()
    }
}
impl<X: IntoHTuple<Option<Scalar>>> IntoCoord for X {}

pub(crate) fn int_of<I: TryInto<i64> + Copy + std::fmt::Display>(v: I) -> Result<i64> {
    v.try_into()
        .map_err(|_| Error::overflow(format!("the integer {v} does not fit in 64 bits")))
}

/// One leaf of type `T`.
macro_rules! leaf_impl {
    ($t:ty => $T:ty, $v:ident => $e:expr) => {
        impl IntoHTuple<$T> for $t {
            #[inline]
            fn build(self, b: &mut Builder<$T>) -> Result<()> {
                b.leaf(self.into_htuple_leaf()?);
                Ok(())
            }
            #[inline]
            fn into_htuple(self) -> Result<HTuple<$T>> {
                Ok(HTuple::leaf(self.into_htuple_leaf()?))
            }
        }
        impl LeafOf<$T> for $t {
            #[inline]
            fn into_htuple_leaf(self) -> Result<$T> {
                let $v = self;
                $e
            }
        }
    };
}

/// The leaf conversion behind [`IntoHTuple`]'s leaf implementations.
trait LeafOf<T> {
    fn into_htuple_leaf(self) -> Result<T>;
}

macro_rules! int_leaves {
    ($($t:ty),*) => {$(
        leaf_impl!($t => i64, v => int_of(v));
        leaf_impl!($t => Scalar, v => Ok(Scalar::Int(int_of(v)?)));
        leaf_impl!($t => Option<Scalar>, v => Ok(Some(Scalar::Int(int_of(v)?))));
        leaf_impl!(Option<$t> => Option<Scalar>, v => v.map(|x| Ok(Scalar::Int(int_of(x)?))).transpose());
    )*};
}
int_leaves!(i64, i32, i16, i8, u32, u16, u8, u64, usize, isize);
leaf_impl!(Scalar => Scalar, v => Ok(v));
leaf_impl!(&Scalar => Scalar, v => Ok(v.clone()));
leaf_impl!(Scalar => Option<Scalar>, v => Ok(Some(v)));
leaf_impl!(Option<Scalar> => Option<Scalar>, v => Ok(v));

impl<T> IntoHTuple<T> for HTuple<T> {
    #[inline]
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.push_owned(self);
        Ok(())
    }
    #[inline]
    fn into_htuple(self) -> Result<HTuple<T>> {
        Ok(self)
    }
}
impl<T: Clone> IntoHTuple<T> for &HTuple<T> {
    #[inline]
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.push(self.as_ref());
        Ok(())
    }
    #[inline]
    fn into_htuple(self) -> Result<HTuple<T>> {
        Ok(self.clone())
    }
}
impl<T: Clone> IntoHTuple<T> for HRef<'_, T> {
    #[inline]
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.push(self);
        Ok(())
    }
}
impl IntoHTuple<Scalar> for HTuple<i64> {
    fn build(self, b: &mut Builder<Scalar>) -> Result<()> {
        b.push_owned(self.map(|&v| Scalar::Int(v)));
        Ok(())
    }
    fn into_htuple(self) -> Result<HTuple<Scalar>> {
        Ok(self.map(|&v| Scalar::Int(v)))
    }
}
impl IntoHTuple<Scalar> for &HTuple<i64> {
    fn build(self, b: &mut Builder<Scalar>) -> Result<()> {
        b.push_owned(self.map(|&v| Scalar::Int(v)));
        Ok(())
    }
}

/// `()`: the empty tuple.
impl<T> IntoHTuple<T> for () {
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.open();
        b.close();
        Ok(())
    }
}

impl<T, X: IntoHTuple<T>, const N: usize> IntoHTuple<T> for [X; N] {
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.open();
        for x in self {
            x.build(b)?;
        }
        b.close();
        Ok(())
    }
}
impl<T, X: IntoHTuple<T>> IntoHTuple<T> for Vec<X> {
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.open();
        for x in self {
            x.build(b)?;
        }
        b.close();
        Ok(())
    }
}
impl<T, X: IntoHTuple<T> + Clone> IntoHTuple<T> for &[X] {
    fn build(self, b: &mut Builder<T>) -> Result<()> {
        b.open();
        for x in self {
            x.clone().build(b)?;
        }
        b.close();
        Ok(())
    }
}

macro_rules! tuple_impls {
    ($(($($n:ident),+)),*) => {$(
        #[allow(non_snake_case)]
        impl<T, $($n: IntoHTuple<T>),+> IntoHTuple<T> for ($($n,)+) {
            #[inline]
            fn build(self, b: &mut Builder<T>) -> Result<()> {
                let ($($n,)+) = self;
                b.open();
                $($n.build(b)?;)+
                b.close();
                Ok(())
            }
        }
    )*};
}

tuple_impls!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H),
    (A, B, C, D, E, F, G, H, I),
    (A, B, C, D, E, F, G, H, I, J),
    (A, B, C, D, E, F, G, H, I, J, K),
    (A, B, C, D, E, F, G, H, I, J, K, L)
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_tuples_build_the_expected_profiles() {
        // hand-derived: the Rust tuple's nesting is the profile
        let s = ((2, 2), 3, (4, (5, 6))).into_shape().unwrap();
        assert_eq!(s.to_string(), "((2, 2), 3, (4, (5, 6)))");
        assert_eq!((7,).into_shape().unwrap().to_string(), "(7,)");
        let e: HTuple<i64> = ().into_shape().unwrap();
        assert_eq!(e.to_string(), "()");
        assert_eq!(
            vec![[1, 2], [3, 4]].into_shape().unwrap().to_string(),
            "((1, 2), (3, 4))"
        );
    }

    #[test]
    fn out_of_range_integers_are_overflow_errors() {
        let e = (u64::MAX, 1).into_shape().unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Overflow);
        assert!(e.message().contains("18446744073709551615"));
    }

    #[test]
    fn coordinates_take_none_leaves() {
        let c = (None::<i64>, (1, 2)).into_coord().unwrap();
        assert_eq!(
            c.leaves(),
            &[None, Some(Scalar::Int(1)), Some(Scalar::Int(2))]
        );
    }
}
