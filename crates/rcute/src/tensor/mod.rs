//! Tensors (`docs/tensors.md`): a layout paired with an accessor.
//!
//! `T = Tensor(e, L)` reads element `c` as `e[L(c)]`: the layout turns the
//! coordinate into an offset, the accessor dereferences it. Slicing moves
//! the accessor by the slice offset and keeps the sub-layout, so a slice is
//! a view sharing the storage. With the [`ImplicitAccessor`] the value *is*
//! the offset, which is how identity (coordinate) tensors work.
//!
//! ```
//! use rcute::tensor::{identity_tensor, make_tensor, copy, ALL};
//! use rcute::{Layout, HTuple, Scalar};
//! // identity tensors: every element is its own coordinate
//! let id = identity_tensor((3, 4)).unwrap();
//! assert_eq!(id.to_string(), "{0} o (3, 4):(1@0, 1@1)");
//! assert_eq!(id.at((1, 2)).unwrap().to_string(), "(1, 2)");
//! assert_eq!(id.slice((ALL, 2)).unwrap().to_string(), "{2@1} o (3,):(1@0,)");
//! // a transposing copy between two memory tensors
//! let rm = Layout::row_major(HTuple::flat([2, 3])).unwrap();
//! let cm = Layout::column_major(HTuple::flat([2, 3])).unwrap();
//! let src = rcute::tensor::Tensor::from_vec(vec![0, 1, 2, 3, 4, 5], rm).unwrap();
//! let mut dst = make_tensor::<i32>(cm).unwrap();
//! copy(&src, &mut dst).unwrap();
//! assert_eq!(dst.accessor().as_slice(), &[0, 3, 1, 4, 2, 5]);
//! ```

pub mod accessor;
mod coord;
mod copy;
mod gemm;
mod partition;
mod print;
mod slice;

use crate::tiler::TilerRef;
use std::fmt;

pub use accessor::{
    Accessor, AccessorMut, Array, ImplicitAccessor, Ptr, PtrMut, SharedArray, TransformAccessor,
};
pub use coord::{All, IntoCoord, IntoShape, ALL};
pub use copy::{clear, copy, fill};
pub use gemm::{gemm, GemmElement};
pub use partition::{
    dice, flat_coord, inner_partition, local_partition, local_partition_mut, local_partition_proj,
    local_tile, local_tile_mut, local_tile_proj, outer_partition, Step,
};
pub use print::{print_tensor, print_tensor_body};

use crate::error::{Error, Result};
use crate::htuple::HRef;
use crate::layout::Layout;
use crate::shape::{DisplayCoord, Shape};
use crate::stride::Scalar;

/// A tensor `Tensor(e, L)` (`docs/tensors.md`): an accessor `e` and a
/// layout `L`. Its shape, size, rank and depth are those of `L`;
/// `T[c] = e[L(c)]`.
///
/// ```
/// use rcute::tensor::{Tensor, ImplicitAccessor};
/// use rcute::{Layout, HTuple, Scalar};
/// let l = Layout::column_major(HTuple::flat([2, 3])).unwrap();
/// let t = Tensor::new(ImplicitAccessor::new(Scalar::Int(0)), l);
/// assert_eq!(t.to_string(), "{0} o (2, 3):(1, 2)");
/// assert_eq!(t.repr(), "Tensor({0}, (2, 3):(1, 2))");
/// assert_eq!(t.at((1, 2)).unwrap(), Scalar::Int(5));
/// ```
#[derive(Clone)]
pub struct Tensor<A> {
    accessor: A,
    layout: Layout,
}

/// The result of `T[c]` (`docs/tensors.md`): a value when `c` is a full
/// coordinate, otherwise a sub-tensor.
#[derive(Clone, Debug, PartialEq)]
pub enum Indexed<V, T> {
    /// `e[L(c)]` for a coordinate without `None` leaves.
    Value(V),
    /// `Tensor(e + offset, sub-layout)` for a slicing coordinate.
    Tensor(T),
}

impl<A> Tensor<A> {
    /// `Tensor(e, L)`. No check is made here: every access is checked.
    pub fn new(accessor: A, layout: Layout) -> Self {
        Tensor { accessor, layout }
    }

    /// The accessor.
    pub fn accessor(&self) -> &A {
        &self.accessor
    }

    /// The accessor, mutably.
    pub fn accessor_mut(&mut self) -> &mut A {
        &mut self.accessor
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Consumes the tensor into `(accessor, layout)`.
    pub fn into_parts(self) -> (A, Layout) {
        (self.accessor, self.layout)
    }

    /// `shape(T) = shape(L)`.
    pub fn shape(&self) -> &Shape {
        self.layout.shape()
    }

    /// `size(T) = size(L)`; `overflow` error when it exceeds 64 bits.
    pub fn size(&self) -> Result<i64> {
        self.layout.size()
    }

    /// `rank(T) = rank(L)`.
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// `depth(T) = depth(L)` (`value` error for `():()`).
    pub fn depth(&self) -> Result<usize> {
        self.layout.depth()
    }

    /// The same accessor with another layout.
    ///
    /// ```
    /// use rcute::tensor::identity_tensor;
    /// use rcute::{Layout, HTuple};
    /// let t = identity_tensor(6).unwrap().with_layout(Layout::column_major(HTuple::flat([2, 3])).unwrap());
    /// assert_eq!(t.to_string(), "{0} o (2, 3):(1, 2)");
    /// ```
    pub fn with_layout(self, layout: Layout) -> Tensor<A> {
        Tensor {
            accessor: self.accessor,
            layout,
        }
    }

    /// Applies a layout operation to the layout and keeps the accessor
    /// (`docs/tensors.md`). Errors: those of `f`.
    ///
    /// ```
    /// use rcute::tensor::identity_tensor;
    /// use rcute::Layout;
    /// let t = identity_tensor((2, 3)).unwrap();
    /// let m = t.map_layout(|l| l.mode(1)).unwrap();
    /// assert_eq!(m.to_string(), "{0} o 3:1@1");
    /// ```
    pub fn map_layout(self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Tensor<A>> {
        let layout = f(&self.layout)?;
        Ok(Tensor {
            accessor: self.accessor,
            layout,
        })
    }

    /// `coalesce(T)`: the tensor of the coalesced layout, same accessor
    /// (`docs/tensors.md`, `docs/operations.md`).
    /// Errors: those of [`crate::algebra::coalesce()`].
    ///
    /// ```
    /// use rcute::tensor::{ImplicitAccessor, Tensor};
    /// use rcute::{Layout, HTuple, Scalar};
    /// let t = Tensor::new(ImplicitAccessor::new(Scalar::Int(5)), Layout::column_major(HTuple::flat([2, 3])).unwrap());
    /// assert_eq!(t.coalesce().unwrap().to_string(), "{5} o 6:1");
    /// ```
    pub fn coalesce(self) -> Result<Tensor<A>> {
        self.map_layout(crate::algebra::coalesce)
    }

    /// `coalesce_z(T)` (`docs/tensors.md`, `docs/operations.md`).
    /// Errors: those of [`crate::algebra::coalesce_z`].
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Scalar};
    /// // (2,1,6,1):(1,7,8,0) -> (2, 6, 1):(1, 8, 0)
    /// let l = Layout::new(HTuple::flat([2, 1, 6, 1]), HTuple::flat([1, 7, 8, 0].map(Scalar::Int))).unwrap();
    /// assert_eq!(Tensor::from_layout(l).coalesce_z().unwrap().to_string(), "{0} o (2, 6, 1):(1, 8, 0)");
    /// ```
    pub fn coalesce_z(self) -> Result<Tensor<A>> {
        self.map_layout(crate::algebra::coalesce_z)
    }

    /// `composition(T, B)` = `Tensor(e, composition(L, B))`
    /// (`docs/tensors.md`). Errors: those of
    /// [`crate::algebra::composition()`].
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Tiler};
    /// let t = Tensor::from_layout(Layout::column_major(HTuple::leaf(24)).unwrap());
    /// let b = Tiler::Layout(Layout::column_major(HTuple::flat([4, 6])).unwrap());
    /// assert_eq!(t.composition(&b).unwrap().to_string(), "{0} o (4, 6):(1, 4)");
    /// ```
    pub fn composition(self, b: &TilerRef<'_>) -> Result<Tensor<A>> {
        self.map_layout(|l| crate::algebra::composition(l, b))
    }

    /// `logical_divide(T, B)` (`docs/tensors.md`). Errors: those of
    /// [`crate::algebra::logical_divide`].
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Scalar, Tiler};
    /// let t = Tensor::from_layout(Layout::column_major(HTuple::leaf(24)).unwrap());
    /// let b = Tiler::Layout(Layout::leaf(4, Scalar::Int(2)));
    /// assert_eq!(t.logical_divide(&b).unwrap().to_string(), "{0} o (4, (2, 3)):(2, (1, 8))");
    /// ```
    pub fn logical_divide(self, b: &TilerRef<'_>) -> Result<Tensor<A>> {
        self.map_layout(|l| crate::algebra::logical_divide(l, b))
    }

    /// `zipped_divide(T, B)` (`docs/tensors.md`): tile mode 0, rest
    /// mode 1. Errors: those of [`crate::algebra::zipped_divide`].
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Tiler};
    /// let t = Tensor::from_layout(Layout::column_major(HTuple::flat([8, 24])).unwrap());
    /// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
    /// assert_eq!(t.zipped_divide(&b).unwrap().to_string(),
    ///            "{0} o ((4, 8), (2, 3)):((1, 8), (4, 64))");
    /// ```
    pub fn zipped_divide(self, b: &TilerRef<'_>) -> Result<Tensor<A>> {
        self.map_layout(|l| crate::algebra::zipped_divide(l, b))
    }

    /// `tiled_divide(T, B)` (C++ `tiled_divide` on a tensor). Errors: those
    /// of [`crate::algebra::tiled_divide`].
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Tiler};
    /// let t = Tensor::from_layout(Layout::column_major(HTuple::flat([8, 24])).unwrap());
    /// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
    /// assert_eq!(t.tiled_divide(&b).unwrap().layout().rank(), 3);
    /// ```
    pub fn tiled_divide(self, b: &TilerRef<'_>) -> Result<Tensor<A>> {
        self.map_layout(|l| crate::algebra::tiled_divide(l, b))
    }

    /// `flat_divide(T, B)` (C++ `flat_divide` on a tensor). Errors: those
    /// of [`crate::algebra::flat_divide`].
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Tiler};
    /// let t = Tensor::from_layout(Layout::column_major(HTuple::flat([8, 24])).unwrap());
    /// let b = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(8)].into());
    /// assert_eq!(t.flat_divide(&b).unwrap().layout().rank(), 4);
    /// ```
    pub fn flat_divide(self, b: &TilerRef<'_>) -> Result<Tensor<A>> {
        self.map_layout(|l| crate::algebra::flat_divide(l, b))
    }
}

impl Tensor<ImplicitAccessor> {
    /// `Tensor({0}, L)`: a layout viewed as a tensor (its values are the
    /// layout's offsets).
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Scalar};
    /// let t = Tensor::from_layout(Layout::row_major(HTuple::flat([4, 8])).unwrap());
    /// assert_eq!(t.at((2, 3)).unwrap(), Scalar::Int(19));
    /// ```
    pub fn from_layout(layout: Layout) -> Self {
        Tensor {
            accessor: ImplicitAccessor::new(Scalar::Int(0)),
            layout,
        }
    }
}

impl<T> Tensor<Array<T>> {
    /// A tensor owning `data`, read through `layout` from element 0.
    /// No check that the layout stays inside the buffer is made here; every
    /// access is checked (and `copy`, `fill`, `gemm` check all their
    /// accesses before writing).
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple};
    /// let t = Tensor::from_vec(vec![0, 1, 2, 3, 4, 5], Layout::row_major(HTuple::flat([2, 3])).unwrap()).unwrap();
    /// assert_eq!(t.at((1, 0)).unwrap(), 3);
    /// ```
    pub fn from_vec(data: Vec<T>, layout: Layout) -> Result<Self> {
        Ok(Tensor {
            accessor: Array::new(data),
            layout,
        })
    }
}

impl<T> Tensor<Array<T>> {
    /// The same tensor over a [`SharedArray`]: its views and slices own a
    /// handle to the buffer instead of borrowing it.
    ///
    /// ```
    /// use rcute::tensor::{make_tensor_shape, ALL};
    /// let t = make_tensor_shape::<i64>((2, 3)).unwrap().into_shared();
    /// let row = t.slice((1, ALL)).unwrap();
    /// drop(t);
    /// assert_eq!(row.values().unwrap(), vec![0, 0, 0]);
    /// ```
    pub fn into_shared(self) -> Tensor<SharedArray<T>> {
        Tensor {
            accessor: SharedArray::new(self.accessor.into_vec()),
            layout: self.layout,
        }
    }
}

impl<A: Accessor> Tensor<A> {
    /// The tensor viewed through a shared view of its accessor (borrows
    /// an owned buffer).
    ///
    /// ```
    /// use rcute::tensor::make_tensor_shape;
    /// let t = make_tensor_shape::<u8>((2, 2)).unwrap();
    /// let v = t.view();
    /// assert_eq!(v.accessor().data().as_ptr(), t.accessor().as_slice().as_ptr());
    /// ```
    pub fn view(&self) -> Tensor<A::View<'_>> {
        Tensor {
            accessor: self.accessor.view(),
            layout: self.layout.clone(),
        }
    }

    /// `T[c]` for a full coordinate `c` (any form: integral, flat or
    /// natural; no `None` leaf): `e[L(c)]` (`docs/tensors.md`).
    ///
    /// Errors: `value` when `c` has a `None` leaf (use [`slice`](Self::slice));
    /// `rank` for a coordinate that does not fit the shape; the accessor's
    /// errors (`bounds` outside a buffer).
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple, Scalar};
    /// let t = Tensor::from_layout(Layout::column_major(HTuple::flat([3, 4])).unwrap());
    /// assert_eq!(t.at(7).unwrap(), Scalar::Int(7));
    /// assert_eq!(t.at((1, 2)).unwrap(), Scalar::Int(7));
    /// ```
    pub fn at(&self, c: impl IntoCoord) -> Result<A::Value> {
        let c = c.into_coord();
        if slice::has_slice(c.as_ref()) {
            return Err(Error::value(format!(
                "tensor element access needs a full coordinate, {} has None",
                DisplayCoord(c.as_ref())
            )));
        }
        let k = self.offset_of(c.as_ref())?;
        self.accessor.read(&k)
    }

    /// The offset `L(c)` of a full coordinate.
    fn offset_of(&self, c: HRef<'_, Option<Scalar>>) -> Result<Scalar> {
        match c.as_leaf() {
            Some(Some(Scalar::Int(i))) => self.layout.eval_index(*i),
            _ => Ok(slice::slice_layout(&self.layout, c)?.0),
        }
    }

    /// `T[c]` with `None` leaves: `Tensor(e + offset, sub-layout)`, a view
    /// sharing the storage (`docs/tensors.md`). The sub-layout has one
    /// mode per `None` leaf (a bare `None` keeps the whole layout as a
    /// 1-tuple, as PyCuTe does); without any `None` the result has rank 0.
    ///
    /// Errors: `rank` for a coordinate that does not fit the shape;
    /// `overflow`; the accessor's `type` error for an offset it cannot take.
    ///
    /// ```
    /// use rcute::tensor::{Tensor, ALL};
    /// use rcute::Layout;
    /// # use rcute::{HTuple, Scalar};
    /// # let s = HTuple::tuple([HTuple::flat([3i64, 2]), HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::leaf(2)])]);
    /// # let d = HTuple::tuple([HTuple::flat([4i64, 1]), HTuple::tuple([HTuple::flat([2i64, 15]), HTuple::leaf(100)])]).map(|&x| Scalar::Int(x));
    /// // T = Tensor({0}, ((3,2),((2,3),2)):((4,1),((2,15),100)))
    /// let t = Tensor::from_layout(Layout::new(s, d).unwrap());
    /// assert_eq!(t.slice((2, ((0, ALL), ALL))).unwrap().to_string(), "{8} o (3, 2):(15, 100)");
    /// assert_eq!(t.slice(ALL).unwrap().to_string(),
    ///            "{0} o (((3, 2), ((2, 3), 2)),):(((4, 1), ((2, 15), 100)),)");
    /// ```
    pub fn slice(&self, c: impl IntoCoord) -> Result<Tensor<A::View<'_>>> {
        let c = c.into_coord();
        let (off, sub) = slice::slice_layout(&self.layout, c.as_ref())?;
        Ok(Tensor {
            accessor: self.accessor.offset(&off)?,
            layout: sub,
        })
    }

    /// `T[c]` exactly as `docs/tensors.md` defines it: the value when
    /// the sliced layout has rank 0, otherwise the sub-tensor.
    ///
    /// ```
    /// use rcute::tensor::{identity_tensor, Indexed, ALL};
    /// let t = identity_tensor((3, 4)).unwrap();
    /// assert!(matches!(t.index((1, 2)).unwrap(), Indexed::Value(_)));
    /// assert!(matches!(t.index((ALL, 2)).unwrap(), Indexed::Tensor(_)));
    /// ```
    pub fn index(&self, c: impl IntoCoord) -> Result<Indexed<A::Value, Tensor<A::View<'_>>>> {
        let c = c.into_coord();
        let (off, sub) = slice::slice_layout(&self.layout, c.as_ref())?;
        if sub.rank() == 0 {
            return Ok(Indexed::Value(self.accessor.read(&off)?));
        }
        Ok(Indexed::Tensor(Tensor {
            accessor: self.accessor.offset(&off)?,
            layout: sub,
        }))
    }

    /// `T[i]` as mode access: the tensor of layout mode `i` with the same
    /// accessor (Python-style negative `i`). Errors: `bounds` for `i` outside
    /// the rank.
    ///
    /// ```
    /// use rcute::tensor::identity_tensor;
    /// assert_eq!(identity_tensor((3, 4)).unwrap().mode(1).unwrap().to_string(), "{0} o 4:1@1");
    /// ```
    pub fn mode(&self, i: i64) -> Result<Tensor<A::View<'_>>> {
        Ok(Tensor {
            accessor: self.accessor.view(),
            layout: self.layout.mode(i)?,
        })
    }

    /// `T.get(path)`: the sub-tensor of the mode at `path`, same accessor
    /// (`docs/tensors.md`). Errors: `type` for a path into a leaf,
    /// `bounds` past the rank.
    ///
    /// ```
    /// use rcute::tensor::identity_tensor;
    /// let t = identity_tensor((2, (3, 4))).unwrap();
    /// assert_eq!(t.get(&[1, 0]).unwrap().to_string(), "{0} o 3:1@0@1");
    /// ```
    pub fn get(&self, path: &[usize]) -> Result<Tensor<A::View<'_>>> {
        Ok(Tensor {
            accessor: self.accessor.view(),
            layout: self.layout.get(path)?,
        })
    }

    /// All elements in colexicographic order of the integral coordinate:
    /// `[T[0], T[1], ..., T[size-1]]`. Errors: those of [`at`](Self::at).
    ///
    /// ```
    /// use rcute::tensor::Tensor;
    /// use rcute::{Layout, HTuple};
    /// let t = Tensor::from_vec(vec![0, 1, 2, 3, 4, 5], Layout::row_major(HTuple::flat([2, 3])).unwrap()).unwrap();
    /// assert_eq!(t.values().unwrap(), vec![0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn values(&self) -> Result<Vec<A::Value>> {
        let n = self.size()?;
        let mut out = Vec::new();
        for i in 0..n {
            out.push(self.accessor.read(&self.layout.eval_index(i)?)?);
        }
        Ok(out)
    }
}

impl<A: AccessorMut> Tensor<A> {
    /// The tensor through a mutable view of its accessor.
    ///
    /// ```
    /// use rcute::tensor::make_tensor_shape;
    /// let mut t = make_tensor_shape::<u8>((2, 2)).unwrap();
    /// t.view_mut().set((1, 1), 9).unwrap();
    /// assert_eq!(t.accessor().as_slice(), &[0, 0, 0, 9]);
    /// ```
    pub fn view_mut(&mut self) -> Tensor<A::ViewMut<'_>> {
        Tensor {
            accessor: self.accessor.view_mut(),
            layout: self.layout.clone(),
        }
    }

    /// `T[c] = v` for a full coordinate `c` (`docs/tensors.md`).
    ///
    /// Errors: `value` when `c` has a `None` leaf; `rank` for a coordinate
    /// that does not fit; `bounds` outside the buffer (nothing is written).
    ///
    /// ```
    /// use rcute::tensor::make_tensor;
    /// use rcute::{Layout, HTuple};
    /// let mut t = make_tensor::<f64>(Layout::row_major(HTuple::flat([2, 3])).unwrap()).unwrap();
    /// t.set((1, 2), 9.0).unwrap();
    /// assert_eq!(t.accessor().as_slice()[5], 9.0);
    /// ```
    pub fn set(&mut self, c: impl IntoCoord, v: A::Value) -> Result<()> {
        let c = c.into_coord();
        if slice::has_slice(c.as_ref()) {
            return Err(Error::value(format!(
                "tensor assignment needs a full coordinate, {} has None",
                DisplayCoord(c.as_ref())
            )));
        }
        let k = self.offset_of(c.as_ref())?;
        self.accessor.write(&k, v)
    }

    /// `T[c]` with `None` leaves as a mutable view sharing the storage.
    /// Errors: those of [`slice`](Self::slice).
    ///
    /// ```
    /// use rcute::tensor::{make_tensor, fill, ALL};
    /// use rcute::{Layout, HTuple};
    /// let mut t = make_tensor::<i32>(Layout::row_major(HTuple::flat([2, 3])).unwrap()).unwrap();
    /// fill(&mut t.slice_mut((1, ALL)).unwrap(), 7).unwrap();
    /// assert_eq!(t.accessor().as_slice(), &[0, 0, 0, 7, 7, 7]);
    /// ```
    pub fn slice_mut(&mut self, c: impl IntoCoord) -> Result<Tensor<A::ViewMut<'_>>> {
        let c = c.into_coord();
        let (off, sub) = slice::slice_layout(&self.layout, c.as_ref())?;
        Ok(Tensor {
            accessor: self.accessor.offset_mut(&off)?,
            layout: sub,
        })
    }

    /// Mode `i` as a mutable view (see [`mode`](Self::mode)).
    ///
    /// ```
    /// use rcute::tensor::{fill, make_tensor_shape};
    /// let mut t = make_tensor_shape::<u8>((2, 2)).unwrap();
    /// fill(&mut t.mode_mut(0).unwrap(), 1).unwrap();
    /// assert_eq!(t.accessor().as_slice(), &[1, 1, 0, 0]);
    /// ```
    pub fn mode_mut(&mut self, i: i64) -> Result<Tensor<A::ViewMut<'_>>> {
        let layout = self.layout.mode(i)?;
        Ok(Tensor {
            accessor: self.accessor.view_mut(),
            layout,
        })
    }
}

impl<A: PartialEq> PartialEq for Tensor<A> {
    /// Same accessor (by the accessor's own equality) and equal layouts.
    fn eq(&self, other: &Self) -> bool {
        self.accessor == other.accessor && self.layout == other.layout
    }
}

impl<A: fmt::Display> Tensor<A> {
    /// The repr style `Tensor(<accessor>, <layout>)`.
    pub fn repr(&self) -> String {
        format!("Tensor({}, {})", self.accessor, self.layout)
    }
}

impl<A: fmt::Display> fmt::Display for Tensor<A> {
    /// `<accessor> o <layout>` (`docs/tensors.md`); `{:#}` prints the
    /// accessor and layout in C++ style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{:#} o {:#}", self.accessor, self.layout)
        } else {
            write!(f, "{} o {}", self.accessor, self.layout)
        }
    }
}

impl<A: fmt::Display> fmt::Debug for Tensor<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `identity_tensor(S)` = `Tensor({0}, make_identity_layout(S))`
/// (`docs/tensors.md`; C++ `make_identity_tensor`): every element is
/// its own natural coordinate, as a coordinate value.
///
/// Errors: `value` for a non-positive extent.
///
/// ```
/// use rcute::tensor::{identity_tensor, ALL};
/// assert_eq!(identity_tensor((3, 4)).unwrap().to_string(), "{0} o (3, 4):(1@0, 1@1)");
/// assert_eq!(identity_tensor((2, (3, 4))).unwrap().at(7).unwrap().to_string(), "(1, 1@1)");
/// assert_eq!(identity_tensor(5).unwrap().at(3).unwrap().to_string(), "3");
/// ```
pub fn identity_tensor(shape: impl IntoShape) -> Result<Tensor<ImplicitAccessor>> {
    let shape = shape.into_shape();
    Ok(Tensor::from_layout(crate::algebra::make_identity_layout(
        shape.as_ref(),
    )?))
}

/// C++'s name for [`identity_tensor`].
///
/// ```
/// assert_eq!(rcute::tensor::make_identity_tensor((4, 8)).unwrap().to_string(),
///            "{0} o (4, 8):(1@0, 1@1)");
/// ```
pub fn make_identity_tensor(shape: impl IntoShape) -> Result<Tensor<ImplicitAccessor>> {
    identity_tensor(shape)
}

/// `make_tensor(L, dtype)` (`docs/tensors.md`): a tensor owning
/// `cosize(L)` default-initialised elements, bound to `L`.
///
/// Errors: `type` for coordinate or F2 strides (no integer codomain);
/// `value` for a negative stride (the buffer would start before element
/// 0); `overflow` when the cosize exceeds 64 bits; `value` when the buffer
/// cannot be allocated.
///
/// ```
/// use rcute::tensor::make_tensor;
/// use rcute::{Layout, HTuple, Scalar};
/// let l = Layout::new(HTuple::flat([2, 4]), HTuple::flat([Scalar::Int(2), Scalar::Int(4)])).unwrap();
/// let t = make_tensor::<f32>(l).unwrap();
/// assert_eq!(t.accessor().len(), 15);
/// let neg = Layout::new(HTuple::leaf(3), HTuple::leaf(Scalar::Int(-1))).unwrap();
/// assert!(make_tensor::<f32>(neg).is_err());
/// ```
pub fn make_tensor<T: Clone + Default>(layout: Layout) -> Result<Tensor<Array<T>>> {
    let mut cosize: i64 = 1;
    for (s, d) in layout.flat_modes() {
        let d = match d {
            Scalar::Int(d) => *d,
            _ => {
                return Err(Error::type_(format!(
                    "make_tensor: {layout} has the non-integer stride {d}; memory needs an integer codomain"
                )))
            }
        };
        if d < 0 {
            return Err(Error::value(format!(
                "make_tensor: {layout} has the negative stride {d}"
            )));
        }
        cosize = crate::int::add(cosize, crate::int::mul(crate::int::sub(s, 1)?, d)?)?;
    }
    let n = usize::try_from(cosize)
        .map_err(|_| Error::value(format!("make_tensor: cosize {cosize} is not allocatable")))?;
    let mut data = Vec::new();
    data.try_reserve_exact(n).map_err(|_| {
        Error::value(format!(
            "make_tensor: cannot allocate {cosize} elements for {layout}"
        ))
    })?;
    data.resize(n, T::default());
    Ok(Tensor {
        accessor: Array::new(data),
        layout,
    })
}

/// `make_tensor(shape, dtype)`: [`make_tensor`] of `Layout(shape)`
/// (column-major, not `tiler_to_layout`).
///
/// Errors: `value` for a non-positive extent; those of [`make_tensor`].
///
/// ```
/// let t = rcute::tensor::make_tensor_shape::<u8>((4, 8)).unwrap();
/// assert_eq!(t.to_string().split(" o ").nth(1).unwrap(), "(4, 8):(1, 4)");
/// ```
pub fn make_tensor_shape<T: Clone + Default>(shape: impl IntoShape) -> Result<Tensor<Array<T>>> {
    make_tensor(Layout::column_major(shape.into_shape())?)
}
