//! The typed API: the layout algebra as methods of [`Layout`] and as free
//! functions with C++ CuTe's names, taking operands built from Rust
//! integers, tuples and arrays ([`IntoShape`], [`IntoStride`](crate::IntoStride),
//! [`IntoCoord`]) and borrowed tilers ([`IntoTiler`]).
//!
//! Each function here is a thin front over the one implementation in
//! [`crate::algebra`]: it converts its operands, calls it, and on failure
//! records the operation and its operands in the [`Error`]
//! ([`Error::operation`], [`Error::operands`]).
//!
//! ```
//! use rcute::Layout;
//! let a: Layout = "(6,2):(8,2)".parse()?;
//! let b = Layout::new((4, 3), (3, 1))?;
//! assert_eq!(a.compose(&b)?.to_string(), "((2, 2), 3):((24, 2), 8)");
//! assert_eq!(rcute::composition(&a, &b)?, a.compose(&b)?);
//! let z = Layout::column_major((4096, 4096))?.zipped_divide((128, 64))?;
//! assert_eq!(z.to_string(), "((128, 64), (32, 64)):((1, 4096), (128, 262144))");
//! let d = Layout::new(24, 1)?.logical_divide(&Layout::new(4, 2)?)?;
//! assert_eq!(d.to_string(), "(4, (2, 3)):(2, (1, 8))");
//! assert_eq!(Layout::new(((2, 2), 3), ((24, 2), 8))?.at(((1, 0), 2))?, 40);
//! let offsets: Vec<i64> = b.offsets().collect();
//! assert_eq!(offsets, [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]);
//! # Ok::<(), rcute::Error>(())
//! ```

use std::str::FromStr;

use crate::algebra;
use crate::convert::{IntoCoord, IntoShape};
use crate::error::{Error, Result};
use crate::htuple::HTuple;
use crate::layout::Layout;
use crate::notation::{self, Value};
use crate::stride::Scalar;
use crate::swizzle::{Swizzle, SwizzledLayout};
use crate::tiler::{IntoTiler, TilerRef};

/// Records `op` and the printed operands on an error (formatted only then).
macro_rules! op_err {
    ($op:literal, $($x:expr),+) => {
        |e: Error| e.in_operation($op, || vec![$($x.to_string()),+])
    };
}

/// Runs `f` on the tiler `b`, recording `op(a, b)` on failure.
#[inline]
fn with_tiler<'t, R>(
    op: &'static str,
    a: &Layout,
    b: impl IntoTiler<'t>,
    f: impl FnOnce(&Layout, &TilerRef<'_>) -> Result<R>,
) -> Result<R> {
    let mut shown: Option<String> = None;
    let r = b.with_tiler(|t| {
        f(a, t).inspect_err(|_| {
            shown = Some(t.to_string());
        })
    });
    r.map_err(|e| {
        e.in_operation(op, || {
            vec![a.to_string(), shown.take().unwrap_or_else(|| "?".into())]
        })
    })
}

/// [`with_tiler`] for an operation written into a layout: `f` builds the
/// result in the layout this returns (no result moved out of the layers
/// of calls on the way).
#[inline]
fn with_tiler_into<'t>(
    op: &'static str,
    a: &Layout,
    b: impl IntoTiler<'t>,
    f: impl FnOnce(&Layout, &TilerRef<'_>, &mut Layout) -> Result<()>,
) -> Result<Layout> {
    let mut out = Layout::blank();
    with_tiler(op, a, b, |a, t| f(a, t, &mut out))?;
    Ok(out)
}

macro_rules! tiler_ops {
    ($($(#[$doc:meta])* $name:ident => $how:ident $imp:expr;)*) => {
        impl Layout {
            $(
                $(#[$doc])*
                #[inline]
                pub fn $name<'t>(&self, tiler: impl IntoTiler<'t>) -> Result<Layout> {
                    $how(stringify!($name), self, tiler, $imp)
                }
            )*
        }
        $(
            $(#[$doc])*
            ///
            /// The free-function form of the [`Layout`] method of the same name.
            #[inline]
            pub fn $name<'t>(a: &Layout, tiler: impl IntoTiler<'t>) -> Result<Layout> {
                a.$name(tiler)
            }
        )*
    };
}

tiler_ops! {
    /// `logical_divide(A, B)` (whitepaper "Logical divide"; C++
    /// `logical_divide`): `A ∘ (B, complement(B, size(A)))` — the tiles of
    /// `B` in mode 0, the tile index in mode 1; a tuple tiler divides mode
    /// by mode. Errors: those of composition and complement.
    ///
    /// ```
    /// let d = rcute::Layout::new(24, 1)?.logical_divide(&rcute::Layout::new(4, 2)?)?;
    /// assert_eq!(d.to_string(), "(4, (2, 3)):(2, (1, 8))");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    logical_divide => with_tiler_into algebra::divide::logical_divide_into;
    /// `zipped_divide(A, B)` (C++ `zipped_divide`): the logical divide with
    /// the tiles of every mode gathered in mode 0 and the rests in mode 1:
    /// `((TileM, TileN), (RestM, RestN))`.
    ///
    /// ```
    /// let z = rcute::Layout::column_major((8, 24))?.zipped_divide((4, 8))?;
    /// assert_eq!(z.to_string(), "((4, 8), (2, 3)):((1, 8), (4, 64))");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    zipped_divide => with_tiler_into algebra::divide::zipped_divide_into;
    /// `tiled_divide(A, B)` (C++ `tiled_divide`): `((TileM, TileN), RestM, RestN)`.
    ///
    /// ```
    /// let t = rcute::Layout::column_major((8, 24))?.tiled_divide((4, 8))?;
    /// assert_eq!(t.to_string(), "((4, 8), 2, 3):((1, 8), 4, 64)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    tiled_divide => with_tiler algebra::tiled_divide;
    /// `flat_divide(A, B)` (C++ `flat_divide`): `(TileM, TileN, RestM, RestN)`.
    ///
    /// ```
    /// let t = rcute::Layout::column_major((8, 24))?.flat_divide((4, 8))?;
    /// assert_eq!(t.to_string(), "(4, 8, 2, 3):(1, 8, 4, 64)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    flat_divide => with_tiler algebra::flat_divide;
    /// `logical_product(A, B)` (whitepaper "Logical product"; C++
    /// `logical_product`): `(A, complement(A, size(A)·cosize(B)) ∘ B)` — `B`
    /// repeats the tile `A`.
    ///
    /// ```
    /// let p = rcute::Layout::new((2, 2), (4, 1))?.logical_product(6)?;
    /// assert_eq!(p.to_string(), "((2, 2), (2, 3)):((4, 1), (2, 8))");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    logical_product => with_tiler_into algebra::product::logical_product_into;
    /// `zipped_product(A, B)` (C++ `zipped_product`).
    ///
    /// ```
    /// let p = rcute::Layout::new(4, 1)?.zipped_product(3)?;
    /// assert_eq!(p.to_string(), "(4, 3):(1, 4)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    zipped_product => with_tiler algebra::zipped_product;
    /// `tiled_product(A, B)` (C++ `tiled_product`).
    ///
    /// ```
    /// let p = rcute::Layout::new((2, 2), (1, 2))?.tiled_product((3, 2))?;
    /// assert_eq!(p.to_string(), "((2, 2), 3, 2):((1, 2), 2, 1)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    tiled_product => with_tiler algebra::tiled_product;
    /// `flat_product(A, B)` (C++ `flat_product`).
    ///
    /// ```
    /// let p = rcute::Layout::new((2, 2), (1, 2))?.flat_product((3, 2))?;
    /// assert_eq!(p.to_string(), "(2, 2, 3, 2):(1, 2, 2, 1)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    flat_product => with_tiler algebra::flat_product;
    /// `blocked_product(A, B)` (C++ `blocked_product`): mode `i` of the
    /// result is `(A_i, B_i)` — whole tiles `A` laid out by `B`.
    ///
    /// ```
    /// let a = rcute::Layout::new((3, 4), (4, 1))?;
    /// let b = rcute::Layout::new((2, 5), (1, 2))?;
    /// assert_eq!(a.blocked_product(&b)?.to_string(), "((3, 2), (4, 5)):((4, 12), (1, 24))");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    blocked_product => with_tiler_into |a, t, out| algebra::product::blocked_raked_into(a, t, false, out);
    /// `raked_product(A, B)` (C++ `raked_product`): mode `i` of the result is
    /// `(B_i, A_i)` — the tiles interleaved.
    ///
    /// ```
    /// let a = rcute::Layout::new((3, 4), (4, 1))?;
    /// let b = rcute::Layout::new((2, 5), (1, 2))?;
    /// assert_eq!(a.raked_product(&b)?.to_string(), "((2, 3), (5, 4)):((12, 4), (24, 1))");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    raked_product => with_tiler_into |a, t, out| algebra::product::blocked_raked_into(a, t, true, out);
}

impl Layout {
    /// `composition(A, B)` (whitepaper "Composition"; C++ `composition`):
    /// the layout `R` with `R(c) = A(B(c))` for every coordinate `c` of `B`,
    /// with `B`'s shape. A tuple tiler composes mode by mode.
    ///
    /// Errors: `divisibility` when no layout reproduces `A ∘ B` (rcute
    /// checks this exactly; the reference answers wrongly), `type` for F2
    /// strides in `B`, `overflow`.
    ///
    /// ```
    /// use rcute::{ErrorKind, Layout};
    /// let a = Layout::new((6, 2), (8, 2))?;
    /// assert_eq!(a.compose(&Layout::new((4, 3), (3, 1))?)?.to_string(), "((2, 2), 3):((24, 2), 8)");
    /// let e = Layout::new((6, 2), (1, 7))?.compose(&Layout::new((3, 2), (2, 3))?).unwrap_err();
    /// assert_eq!(e.kind(), ErrorKind::Divisibility);
    /// # Ok::<(), rcute::Error>(())
    /// ```
    #[inline]
    pub fn compose<'t>(&self, tiler: impl IntoTiler<'t>) -> Result<Layout> {
        with_tiler_into(
            "composition",
            self,
            tiler,
            algebra::composition::composition_into,
        )
    }

    /// `L(c)` for an integer layout: the offset of the coordinate `c` (an
    /// index, or a hierarchical coordinate congruent to a prefix of the
    /// shape). Errors: `type` when the layout's value at `c` is not an
    /// integer (coordinate or F2 strides: use [`Layout::eval`]); those of
    /// `idx2crd`; `overflow`.
    ///
    /// ```
    /// let l = rcute::Layout::new(((2, 2), 3), ((24, 2), 8))?;
    /// assert_eq!(l.at(((1, 0), 2))?, 40);
    /// assert_eq!(l.at(5)?, 32); // index 5 is the coordinate ((1, 0), 1): 24 + 8
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn at(&self, c: impl IntoCoord) -> Result<i64> {
        let c = c.into_coord()?;
        let v = self
            .eval(c.as_ref())
            .map_err(|e| e.in_operation("at", || vec![self.to_string(), coord_str(&c)]))?;
        match v {
            Scalar::Int(x) => Ok(x),
            v => Err(Error::type_(format!(
                "at: {self} at {} is the non-integer {v}; use eval for coordinate or F2 values",
                coord_str(&c)
            ))),
        }
    }

    /// The offsets `L(0), L(1), ..., L(size-1)` of an integer layout, in
    /// index order.
    ///
    /// # Panics
    ///
    /// When the layout has a non-integer stride or an offset or its size
    /// does not fit in 64 bits; [`Layout::try_offsets`] reports those as
    /// errors.
    ///
    /// ```
    /// let l = rcute::Layout::new((2, 3), (3, 1))?;
    /// assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 3, 1, 4, 2, 5]);
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn offsets(&self) -> Offsets {
        match self.try_offsets() {
            Ok(o) => o,
            Err(e) => panic!("Layout::offsets: {e}"),
        }
    }

    /// [`Layout::offsets`], checked: `type` for a non-integer stride,
    /// `overflow` when the size or an offset does not fit in 64 bits.
    ///
    /// ```
    /// use rcute::{ErrorKind, Layout, Scalar};
    /// let l = Layout::new((2, 2), (Scalar::basis(1, &[0]), Scalar::basis(1, &[1])))?;
    /// assert_eq!(l.try_offsets().unwrap_err().kind(), ErrorKind::Type);
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn try_offsets(&self) -> Result<Offsets> {
        let size = self.size()?;
        let mut modes = smallvec::SmallVec::new();
        let (mut lo, mut hi) = (0i128, 0i128);
        for (&s, d) in self.shape().leaves().iter().zip(self.stride().leaves()) {
            let Scalar::Int(d) = *d else {
                return Err(Error::type_(format!(
                    "offsets: {self} has the non-integer stride {d}"
                )));
            };
            let span = (s as i128 - 1) * d as i128;
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
            modes.push((s, d, 0i64));
        }
        if lo < i64::MIN as i128 || hi > i64::MAX as i128 {
            return Err(Error::overflow(format!(
                "offsets: the offsets of {self} do not fit in 64 bits"
            )));
        }
        Ok(Offsets {
            modes,
            offset: 0,
            left: size,
        })
    }

    /// `cosize(L)` (C++ `cosize`): `L(size(L) - 1) + 1`, the extent of the
    /// codomain. Errors: as [`algebra::cosize`].
    ///
    /// ```
    /// assert_eq!(rcute::Layout::new((4, 8), (1, 5))?.cosize()?, 39); // L(31) + 1 = 3 + 35 + 1
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn cosize(&self) -> Result<i64> {
        algebra::cosize(self).map_err(op_err!("cosize", self))
    }

    /// `coalesce(L)` (C++ `coalesce`): the same function with the fewest
    /// modes (a flat layout, or a leaf).
    ///
    /// ```
    /// let l = rcute::Layout::new((2, (1, 6)), (1, (6, 2)))?;
    /// assert_eq!(l.coalesce()?.to_string(), "12:1");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn coalesce(&self) -> Result<Layout> {
        algebra::coalesce(self).map_err(op_err!("coalesce", self))
    }

    /// `filter(L)` (C++ `filter`): [`Layout::coalesce`] without the
    /// stride-0 and size-1 modes.
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 2, 3), (1, 0, 4))?;
    /// assert_eq!(l.filter()?.to_string(), "12:1");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn filter(&self) -> Result<Layout> {
        algebra::filter(self).map_err(op_err!("filter", self))
    }

    /// `complement(L)` (whitepaper "Complement"; C++ `complement`): the
    /// layout of the offsets `L` does not reach below its cosize, ordered.
    /// Errors: `injectivity` when `L` is not injective.
    ///
    /// ```
    /// let l = rcute::Layout::new((2, 2), (1, 6))?;
    /// assert_eq!(l.complement()?.to_string(), "(3, 1):(2, 12)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn complement(&self) -> Result<Layout> {
        algebra::complement(self, None).map_err(op_err!("complement", self))
    }

    /// `complement(L, cotarget)`: the complement extended to cover the
    /// shape `cotarget` (an integer or a tuple).
    ///
    /// ```
    /// let l = rcute::Layout::new((2, 2), (1, 6))?;
    /// assert_eq!(l.complement_to(24)?.to_string(), "(3, 2):(2, 12)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn complement_to(&self, cotarget: impl IntoShape) -> Result<Layout> {
        let t = cotarget.into_shape()?;
        algebra::complement(self, Some(t.as_ref())).map_err(op_err!("complement", self, t))
    }

    /// `right_inverse(L)` (C++ `right_inverse`): the largest `R` with
    /// `L(R(i)) == i`.
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 8), (8, 1))?;
    /// assert_eq!(l.right_inverse()?.to_string(), "(8, 4):(4, 1)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn right_inverse(&self) -> Result<Layout> {
        algebra::right_inverse(self).map_err(op_err!("right_inverse", self))
    }

    /// `left_inverse(L)` (C++ `left_inverse`): `R` with `R(L(i)) == i` for
    /// every index of an injective `L`.
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 8), (1, 5))?;
    /// let r = l.left_inverse()?;
    /// assert!((0..32).all(|i| r.at(l.at(i).unwrap()).unwrap() == i));
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn left_inverse(&self) -> Result<Layout> {
        algebra::left_inverse(self).map_err(op_err!("left_inverse", self))
    }

    /// `max_common_layout(A, B)` (C++ `max_common_layout`): the largest
    /// layout `C` with `A ∘ C == B ∘ C` that is contiguous in both.
    ///
    /// ```
    /// let a = rcute::Layout::new((4, 8), (1, 4))?;
    /// let b = rcute::Layout::new((4, 8), (1, 8))?;
    /// assert_eq!(a.max_common_layout(&b)?.to_string(), "4:1");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn max_common_layout(&self, other: &Layout) -> Result<Layout> {
        algebra::max_common_layout(self, other).map_err(op_err!("max_common_layout", self, other))
    }

    /// `max_common_vector(A, B)` (C++ `max_common_vector`): the size of
    /// [`Layout::max_common_layout`].
    ///
    /// ```
    /// let a = rcute::Layout::new((4, 8), (1, 4))?;
    /// assert_eq!(a.max_common_vector(&a)?, 32);
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn max_common_vector(&self, other: &Layout) -> Result<i64> {
        algebra::max_common_vector(self, other).map_err(op_err!("max_common_vector", self, other))
    }

    /// `upcast<N>(L)` (C++ `upcast`): the layout of the same memory seen in
    /// elements `n` times wider.
    ///
    /// ```
    /// let l = rcute::Layout::new((8, 64), (64, 1))?;
    /// assert_eq!(l.upcast(2)?.to_string(), "(8, 32):(32, 1)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Layout> {
        algebra::upcast(self, n).map_err(op_err!("upcast", self, n))
    }

    /// `downcast<N>(L)` (C++ `downcast`): the layout of the same memory seen
    /// in elements `n` times narrower.
    ///
    /// ```
    /// let l = rcute::Layout::new((8, 32), (32, 1))?;
    /// assert_eq!(l.downcast(2)?.to_string(), "(8, 64):(64, 1)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Layout> {
        algebra::downcast(self, n).map_err(op_err!("downcast", self, n))
    }

    /// `slice(c, L)` (C++ `L(c)` with `_` in `c`): the layout of the modes
    /// where `c` is `None`, without the offset (the kept modes stay a tuple).
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 8), (8, 1))?;
    /// assert_eq!(l.slice((None::<i64>, 3))?.to_string(), "(4,):(8,)");
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn slice(&self, c: impl IntoCoord) -> Result<Layout> {
        let c = c.into_coord()?;
        algebra::slice(self, c.as_ref())
            .map_err(|e| e.in_operation("slice", || vec![self.to_string(), coord_str(&c)]))
    }

    /// `slice_and_offset(c, L)` (C++ `slice_and_offset`): the slice and the
    /// offset of `c`'s integer part.
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 8), (8, 1))?;
    /// let (s, off) = l.slice_and_offset((None::<i64>, 3))?;
    /// assert_eq!((s.to_string(), off), ("(4,):(8,)".to_string(), rcute::Scalar::Int(3)));
    /// # Ok::<(), rcute::Error>(())
    /// ```
    pub fn slice_and_offset(&self, c: impl IntoCoord) -> Result<(Layout, Scalar)> {
        let c = c.into_coord()?;
        algebra::slice_and_offset(self, c.as_ref()).map_err(|e| {
            e.in_operation("slice_and_offset", || vec![self.to_string(), coord_str(&c)])
        })
    }
}

/// # Results written into a layout the caller owns
///
/// The `*_into` forms compute the same layout as the methods without the
/// suffix and write it into `out`, replacing its value and reusing its
/// inline storage, instead of returning a new layout: the result is built
/// where it is wanted, without being copied out (a [`Layout`] is a few
/// hundred bytes inline; the Python module writes results straight into
/// the storage of the Python object). Errors are those of the returning
/// forms; on an error `out` is left holding the layout `1:0`.
///
/// ```
/// use rcute::{Layout, Scalar};
/// let a = Layout::new((6, 2), (8, 2))?;
/// let mut out = Layout::leaf(1, Scalar::Int(0));
/// a.compose_into(&Layout::new((4, 3), (3, 1))?, &mut out)?;
/// assert_eq!(out.to_string(), "((2, 2), 3):((24, 2), 8)");
/// Layout::new(24, 1)?.logical_divide_into(&Layout::new(4, 2)?, &mut out)?;
/// assert_eq!(out.to_string(), "(4, (2, 3)):(2, (1, 8))");
/// assert!(Layout::new((6, 2), (1, 7))?.compose_into(&Layout::new((3, 2), (2, 3))?, &mut out).is_err());
/// assert_eq!(out.to_string(), "1:0");
/// # Ok::<(), rcute::Error>(())
/// ```
impl Layout {
    /// [`Layout::compose`] written into `out` (see above).
    #[inline]
    pub fn compose_into<'t>(&self, tiler: impl IntoTiler<'t>, out: &mut Layout) -> Result<()> {
        let r = with_tiler("composition", self, tiler, |a, t| {
            algebra::composition::composition_into(a, t, out)
        });
        failed_into(r, out)
    }

    /// [`Layout::logical_divide`] written into `out` (see above).
    #[inline]
    pub fn logical_divide_into<'t>(
        &self,
        tiler: impl IntoTiler<'t>,
        out: &mut Layout,
    ) -> Result<()> {
        let r = with_tiler("logical_divide", self, tiler, |a, t| {
            algebra::divide::logical_divide_into(a, t, out)
        });
        failed_into(r, out)
    }
}

/// `r`, with `out` set to `1:0` when it is an error (an `*_into` function
/// may have left a partly written layout).
#[inline(always)]
fn failed_into(r: Result<()>, out: &mut Layout) -> Result<()> {
    if r.is_err() {
        *out = Layout::leaf(1, Scalar::Int(0));
    }
    r
}

/// `composition(A, B)`: see [`Layout::compose`].
///
/// ```
/// let a = rcute::Layout::new((6, 2), (8, 2))?;
/// let b = rcute::Layout::new((4, 3), (3, 1))?;
/// assert_eq!(rcute::composition(&a, &b)?.to_string(), "((2, 2), 3):((24, 2), 8)");
/// # Ok::<(), rcute::Error>(())
/// ```
#[inline]
pub fn composition<'t>(a: &Layout, b: impl IntoTiler<'t>) -> Result<Layout> {
    a.compose(b)
}

/// `coalesce(L)`: see [`Layout::coalesce`].
pub fn coalesce(a: &Layout) -> Result<Layout> {
    a.coalesce()
}

/// `complement(L)`: see [`Layout::complement`].
pub fn complement(a: &Layout) -> Result<Layout> {
    a.complement()
}

/// `right_inverse(L)`: see [`Layout::right_inverse`].
pub fn right_inverse(a: &Layout) -> Result<Layout> {
    a.right_inverse()
}

/// `left_inverse(L)`: see [`Layout::left_inverse`].
pub fn left_inverse(a: &Layout) -> Result<Layout> {
    a.left_inverse()
}

/// `cosize(L)`: see [`Layout::cosize`].
pub fn cosize(a: &Layout) -> Result<i64> {
    a.cosize()
}

/// `size(L)`: the product of the shape's extents.
///
/// ```
/// assert_eq!(rcute::size(&rcute::Layout::column_major((4, (2, 3)))?)?, 24);
/// # Ok::<(), rcute::Error>(())
/// ```
pub fn size(a: &Layout) -> Result<i64> {
    a.size()
}

fn coord_str(c: &HTuple<Option<Scalar>>) -> String {
    crate::shape::DisplayCoord(c.as_ref()).to_string()
}

/// The offsets of an integer layout in index order: see [`Layout::offsets`].
#[derive(Clone, Debug)]
pub struct Offsets {
    /// (extent, stride, current coordinate) per leaf, leaf 0 fastest
    modes: smallvec::SmallVec<[(i64, i64, i64); 8]>,
    offset: i64,
    left: i64,
}

impl Iterator for Offsets {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        if self.left <= 0 {
            return None;
        }
        self.left -= 1;
        let out = self.offset;
        // odometer step; the offsets were bounded in try_offsets
        for (s, d, c) in self.modes.iter_mut() {
            *c += 1;
            self.offset = self.offset.wrapping_add(*d);
            if *c < *s {
                break;
            }
            *c = 0;
            self.offset = self.offset.wrapping_sub(s.wrapping_mul(*d));
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.left).unwrap_or(usize::MAX);
        (n, usize::try_from(self.left).ok())
    }
}

/// Parses a layout in the notation (`"(4,8):(1,4)"`, `"8:1"`, or any
/// expression whose value is a layout, such as `"Layout((4,8))"`).
///
/// Errors: `parse` for malformed text; `type` when the value is not a
/// layout; the construction errors of [`Layout::new`] (`congruence`, ...).
///
/// ```
/// use rcute::Layout;
/// let l: Layout = "((2,2),3):((24,2),8)".parse()?;
/// assert_eq!(l, Layout::new(((2, 2), 3), ((24, 2), 8))?);
/// assert!("(4,8):(1,4,2)".parse::<Layout>().is_err());
/// assert!("(4,8)".parse::<Layout>().is_err());
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for Layout {
    type Err = Error;
    fn from_str(s: &str) -> Result<Layout> {
        match notation::eval_value(s)? {
            Value::Layout(l) => Ok(l),
            v => Err(Error::type_(format!(
                "expected a layout, got {v} from {s:?}"
            ))),
        }
    }
}

/// Parses a shape: an integer or a tuple of shapes (`"(4,(2,3))"`).
///
/// ```
/// let s: rcute::Shape = "(4,(2,3))".parse()?;
/// assert_eq!(s.to_string(), "(4, (2, 3))");
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for HTuple<i64> {
    type Err = Error;
    fn from_str(s: &str) -> Result<HTuple<i64>> {
        notation::eval_value(s)?.to_shape()
    }
}

/// Parses a stride: a stride scalar (`8`, `1@1`, `E(0,1)`, `F2(3)`) or a
/// tuple of strides; tuples stay tuples (`"(1, (2, 3))"`).
///
/// ```
/// let d: rcute::Stride = "(1, (F2(3), 1@0))".parse()?;
/// assert_eq!(d.to_string(), "(1, (F3, 1@0))");
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for HTuple<Scalar> {
    type Err = Error;
    fn from_str(s: &str) -> Result<HTuple<Scalar>> {
        notation::eval_value(s)?.to_stride()
    }
}

/// Parses a coordinate: integers, stride scalars and `_`/`None` leaves
/// (`"(1, (_, 2))"`).
///
/// ```
/// let c: rcute::Coord = "(1, (_, 2))".parse()?;
/// assert_eq!(c.leaves()[1], None);
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for HTuple<Option<Scalar>> {
    type Err = Error;
    fn from_str(s: &str) -> Result<HTuple<Option<Scalar>>> {
        notation::eval_value(s)?.to_coord()
    }
}

/// Parses one stride scalar; a tuple is read as a coordinate value
/// (`"(0, 5)"` is `5@1`).
///
/// ```
/// let x: rcute::Scalar = "E(1) * 3 + 2@0".parse()?;
/// assert_eq!(x.to_string(), "(2, 3)");
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for Scalar {
    type Err = Error;
    fn from_str(s: &str) -> Result<Scalar> {
        notation::eval_value(s)?.to_coord_value("scalar")
    }
}

/// Parses a tiler: a layout, an integer, `_`/`None`, or a tuple of tilers
/// (`"(4:1, (2,4):(1,8))"`).
///
/// ```
/// let t: rcute::Tiler = "(8:1, _)".parse()?;
/// assert_eq!(t.to_string(), "(Layout(8, 1), None)");
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for TilerRef<'static> {
    type Err = Error;
    fn from_str(s: &str) -> Result<TilerRef<'static>> {
        notation::eval_value(s)?.into_tiler()
    }
}

/// Parses a swizzle `Swizzle(B, M, S)`.
///
/// ```
/// let s: rcute::Swizzle = "Swizzle(3,3,3)".parse()?;
/// assert_eq!(s.to_string(), "SW_3_3_3");
/// # Ok::<(), rcute::Error>(())
/// ```
impl FromStr for Swizzle {
    type Err = Error;
    fn from_str(s: &str) -> Result<Swizzle> {
        match notation::eval_value(s)? {
            Value::Swizzle(sw) => Ok(sw),
            v => Err(Error::type_(format!(
                "expected a swizzle, got {v} from {s:?}"
            ))),
        }
    }
}

/// Parses a swizzled layout (`"composition(Swizzle(3,3,3), (8,64):(64,1))"`).
impl FromStr for SwizzledLayout {
    type Err = Error;
    fn from_str(s: &str) -> Result<SwizzledLayout> {
        match notation::eval_value(s)? {
            Value::Swizzled(sw) => Ok(sw),
            v => Err(Error::type_(format!(
                "expected a swizzled layout, got {v} from {s:?}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{random_layout, Rng};

    /// A random integer layout: up to 4 modes, some of them pairs, extents
    /// 1..6, strides -8..24.
    fn int_layout(r: &mut Rng) -> Layout {
        random_layout(r, 5, 3, |r| {
            (1 + r.next(6) as i64, Scalar::Int(r.next(33) as i64 - 8))
        })
    }

    /// The issue's example, verbatim (the expected strings are the spec's
    /// worked examples, also checked in the shared vectors).
    #[test]
    fn the_typed_api_reads_like_cute() -> Result<()> {
        let a: Layout = "(6,2):(8,2)".parse()?;
        let b = Layout::new((4, 3), (3, 1))?;
        assert_eq!(a.compose(&b)?.to_string(), "((2, 2), 3):((24, 2), 8)");
        let z = Layout::column_major((4096, 4096))?.zipped_divide((128, 64))?;
        assert_eq!(
            z.to_string(),
            "((128, 64), (32, 64)):((1, 4096), (128, 262144))"
        );
        let d = Layout::new(24, 1)?.logical_divide(&Layout::new(4, 2)?)?;
        assert_eq!(d.to_string(), "(4, (2, 3)):(2, (1, 8))");
        assert_eq!(Layout::new(((2, 2), 3), ((24, 2), 8))?.at(((1, 0), 2))?, 40);
        let offsets: Vec<i64> = b.offsets().collect();
        assert_eq!(offsets.len(), 12);
        Ok(())
    }

    #[test]
    fn errors_name_the_operation_and_operands() {
        // the notation's answer: "rank: ... the tiler (4, None, 3) has 3
        // modes but (4, 6):(2, 3) has rank 2"
        let a = Layout::new((4, 6), (2, 3)).unwrap();
        let e = a.logical_divide((4, None::<i64>, 3)).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Rank);
        assert_eq!(e.operation(), Some("logical_divide"));
        assert_eq!(e.operands()[0], "(4, 6):(2, 3)");
        assert_eq!(e.operands()[1], "(4, None, 3)");
        // construction errors
        let e = Layout::new((2, 3), (1, 2, 3)).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Congruence);
        let e = Layout::new((2, 0), (1, 2)).unwrap_err();
        assert_eq!(e.kind(), crate::ErrorKind::Value);
        // at on a coordinate layout
        let l = Layout::new(4, Scalar::basis(1, &[1])).unwrap();
        assert_eq!(l.at(2).unwrap_err().kind(), crate::ErrorKind::Type);
        // offsets that leave 64 bits
        let l = Layout::new((4, 4), (i64::MAX / 2, 1)).unwrap();
        assert_eq!(
            l.try_offsets().unwrap_err().kind(),
            crate::ErrorKind::Overflow
        );
    }

    /// offsets() agrees with at(i) on random integer layouts (the
    /// post-condition: the i-th offset is L(i)).
    #[test]
    fn offsets_agree_with_evaluation() {
        let mut r = Rng(0x0ff5e7);
        for _ in 0..2000 {
            let l = int_layout(&mut r);
            let Ok(offs) = l.try_offsets() else { continue };
            let n = l.size().unwrap();
            if n > 4096 {
                continue;
            }
            let v: Vec<i64> = offs.collect();
            assert_eq!(v.len() as i64, n, "{l}");
            for (i, &o) in v.iter().enumerate() {
                assert_eq!(l.at(i as i64).unwrap(), o, "{l} at {i}");
            }
        }
    }

    /// Parsing the printed form gives the same layout back.
    #[test]
    fn display_parses_back() {
        let mut r = Rng(0xba5e);
        for _ in 0..500 {
            let l = int_layout(&mut r);
            let back: Layout = l.to_string().parse().unwrap();
            assert_eq!(back, l);
        }
    }
}
