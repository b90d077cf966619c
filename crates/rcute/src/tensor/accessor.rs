//! Accessors (`docs/tensors.md`): iterator-like objects that a tensor
//! offsets by the value of its layout and dereferences.
//!
//! | type | CuTe / PyCuTe | value at offset `k` |
//! |---|---|---|
//! | [`Array<T>`] | `Array(n, dtype)` (owns its elements) | element `k` |
//! | [`Ptr<'a, T>`] | `Ptr` over a borrowed slice | element `base + k` |
//! | [`PtrMut<'a, T>`] | `Ptr` over a mutable slice | element `base + k` (writable) |
//! | [`SharedArray<T>`] | an array shared by its views (`Arc`) | element `base + k` (read-only) |
//! | [`ImplicitAccessor`] | `ImplicitAccessor(b)` | the value `b + k` itself |
//! | [`TransformAccessor`] | `TransformAccessor(inner, f)` | `f(inner[k])` (read-only) |
//!
//! Memory accessors take integer offsets (an F2 offset counts as its
//! integer value); an offset outside the buffer is a `bounds` error, a
//! coordinate-value offset a `type` error. The implicit accessor accepts
//! offsets of every stride algebra.

use std::fmt;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::stride::Scalar;

/// An accessor: the `e` of `Tensor(e, L)` (`docs/tensors.md`).
///
/// `read(k)` is `e[k]`; `offset(k)` is `e + k`, returned as a shared view
/// (for an owning accessor, a view borrowing its storage).
///
/// ```
/// use rcute::tensor::{Accessor, ImplicitAccessor};
/// use rcute::Scalar;
/// let e = ImplicitAccessor::new(Scalar::Int(3));
/// assert_eq!(e.offset(&Scalar::Int(4)).unwrap().to_string(), "{7}");
/// assert_eq!(e.read(&Scalar::Int(4)).unwrap(), Scalar::Int(7));
/// ```
pub trait Accessor: fmt::Display {
    /// The type of the values read.
    type Value;
    /// The shared view `e + k` (for views, the view type itself).
    type View<'a>: Accessor<Value = Self::Value> + Clone
    where
        Self: 'a;

    /// `e[k]`. Errors: `bounds` for an offset outside a buffer, `type` for an
    /// offset of the wrong algebra, `overflow` for an offset sum outside 64 bits.
    fn read(&self, k: &Scalar) -> Result<Self::Value>;

    /// `e + k` as a shared view. Errors as [`read`](Accessor::read), except
    /// that a memory accessor may point outside its buffer (only reads check).
    fn offset(&self, k: &Scalar) -> Result<Self::View<'_>>;

    /// `e + 0` as a shared view.
    fn view(&self) -> Self::View<'_>;

    /// The backing buffer and the element index of offset 0, for memory
    /// accessors (used by the fast paths of `copy` and `fill`).
    fn memory(&self) -> Option<(&[Self::Value], i64)> {
        None
    }
}

/// A writable accessor.
///
/// ```
/// use rcute::tensor::{Accessor, AccessorMut, Array};
/// use rcute::Scalar;
/// let mut a = Array::new(vec![0i32; 4]);
/// a.write(&Scalar::Int(2), 7).unwrap();
/// assert_eq!(a.read(&Scalar::Int(2)).unwrap(), 7);
/// assert!(a.write(&Scalar::Int(4), 1).is_err());
/// ```
pub trait AccessorMut: Accessor {
    /// The mutable view `e + k`.
    type ViewMut<'a>: AccessorMut<Value = Self::Value>
    where
        Self: 'a;

    /// Stores `v` at `e[k]`. Errors as [`Accessor::read`].
    fn write(&mut self, k: &Scalar, v: Self::Value) -> Result<()>;

    /// Checks that `e[k]` can be written, without writing.
    fn check_write(&self, k: &Scalar) -> Result<()>;

    /// `e + k` as a mutable view.
    fn offset_mut(&mut self, k: &Scalar) -> Result<Self::ViewMut<'_>>;

    /// `e + 0` as a mutable view.
    fn view_mut(&mut self) -> Self::ViewMut<'_>;

    /// The backing buffer and the element index of offset 0, for memory
    /// accessors.
    fn memory_mut(&mut self) -> Option<(&mut [Self::Value], i64)> {
        None
    }
}

/// The integer value of a memory offset (an F2 value counts as its integer).
fn int_offset(k: &Scalar) -> Result<i64> {
    match k {
        Scalar::Int(v) | Scalar::F2(v) => Ok(*v),
        Scalar::Coord(_) => Err(Error::type_(format!(
            "a memory accessor cannot be offset by the coordinate value {k}"
        ))),
    }
}

/// The element index `base + k` in a buffer of `len` elements.
fn element_index(base: i64, k: &Scalar, len: usize) -> Result<usize> {
    let off = int_offset(k)?;
    let at = crate::int::add(base, off)?;
    match usize::try_from(at) {
        Ok(i) if i < len => Ok(i),
        _ => Err(Error::bounds(format!(
            "offset {k} from element {base} reaches element {at}, outside the buffer of {len} elements"
        ))),
    }
}

fn moved_base(base: i64, k: &Scalar) -> Result<i64> {
    crate::int::add(base, int_offset(k)?)
}

fn elem_type<T>() -> &'static str {
    let n = std::any::type_name::<T>();
    n.rsplit("::").next().unwrap_or(n)
}

fn write_ptr<T>(f: &mut fmt::Formatter<'_>, kind: &str, data: &[T], base: i64) -> fmt::Result {
    let size = std::mem::size_of::<T>() as i64;
    let addr = (data.as_ptr() as usize as i64).wrapping_add(base.wrapping_mul(size));
    write!(f, "{kind}(0x{addr:x}, {})", elem_type::<T>())
}

/// An owned buffer (PyCuTe `Array(n, dtype)`, C++ an owning engine).
///
/// Offsets index the buffer from element 0. Views of it ([`Ptr`],
/// [`PtrMut`]) borrow its storage.
///
/// ```
/// use rcute::tensor::{Accessor, Array};
/// use rcute::Scalar;
/// let a = Array::new(vec![1.0f32, 2.0, 3.0]);
/// assert_eq!(a.offset(&Scalar::Int(1)).unwrap().read(&Scalar::Int(1)).unwrap(), 3.0);
/// assert_eq!(a.len(), 3);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Array<T> {
    data: Vec<T>,
}

impl<T> Array<T> {
    /// The accessor owning `data`.
    pub fn new(data: Vec<T>) -> Self {
        Array { data }
    }
    /// The elements.
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }
    /// The elements, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.data
    }
    /// Consumes the accessor into its elements.
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// True when the buffer holds no element.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

impl<T> PartialEq for Array<T> {
    /// Identity: two arrays are equal only if they are the same buffer.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.data.as_ptr(), other.data.as_ptr()) && self.data.len() == other.data.len()
    }
}

impl<T> fmt::Display for Array<T> {
    /// `Array(0x<address>, <element type>)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ptr(f, "Array", &self.data, 0)
    }
}

impl<T: Clone> Accessor for Array<T> {
    type Value = T;
    type View<'a>
        = Ptr<'a, T>
    where
        T: 'a;
    fn read(&self, k: &Scalar) -> Result<T> {
        Ok(self.data[element_index(0, k, self.data.len())?].clone())
    }
    fn offset(&self, k: &Scalar) -> Result<Ptr<'_, T>> {
        Ok(Ptr {
            data: &self.data,
            base: moved_base(0, k)?,
        })
    }
    fn view(&self) -> Ptr<'_, T> {
        Ptr {
            data: &self.data,
            base: 0,
        }
    }
    fn memory(&self) -> Option<(&[T], i64)> {
        Some((&self.data, 0))
    }
}

impl<T: Clone> AccessorMut for Array<T> {
    type ViewMut<'a>
        = PtrMut<'a, T>
    where
        T: 'a;
    fn write(&mut self, k: &Scalar, v: T) -> Result<()> {
        let i = element_index(0, k, self.data.len())?;
        self.data[i] = v;
        Ok(())
    }
    fn check_write(&self, k: &Scalar) -> Result<()> {
        element_index(0, k, self.data.len()).map(|_| ())
    }
    fn offset_mut(&mut self, k: &Scalar) -> Result<PtrMut<'_, T>> {
        Ok(PtrMut {
            base: moved_base(0, k)?,
            data: &mut self.data,
        })
    }
    fn view_mut(&mut self) -> PtrMut<'_, T> {
        PtrMut {
            data: &mut self.data,
            base: 0,
        }
    }
    fn memory_mut(&mut self) -> Option<(&mut [T], i64)> {
        Some((&mut self.data, 0))
    }
}

/// A pointer into a borrowed slice: offset `k` reads element `base + k`
/// (PyCuTe `Ptr`, C++ `T const*`). `base` may lie outside the slice; only
/// reads are checked.
///
/// ```
/// use rcute::tensor::{Accessor, Ptr};
/// use rcute::Scalar;
/// let v = [10, 11, 12, 13];
/// let p = Ptr::new(&v, 1);
/// assert_eq!(p.read(&Scalar::Int(2)).unwrap(), 13);
/// assert!(p.read(&Scalar::Int(3)).is_err());
/// ```
#[derive(Debug)]
pub struct Ptr<'a, T> {
    data: &'a [T],
    base: i64,
}

impl<T> Clone for Ptr<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Ptr<'_, T> {}

impl<'a, T> Ptr<'a, T> {
    /// The pointer to element `base` of `data`.
    pub fn new(data: &'a [T], base: i64) -> Self {
        Ptr { data, base }
    }
    /// The element index of offset 0.
    pub fn base(&self) -> i64 {
        self.base
    }
    /// The whole borrowed slice.
    pub fn data(&self) -> &'a [T] {
        self.data
    }
}

impl<T> PartialEq for Ptr<'_, T> {
    /// Same slice and same position.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.data.as_ptr(), other.data.as_ptr())
            && self.data.len() == other.data.len()
            && self.base == other.base
    }
}

impl<T> fmt::Display for Ptr<'_, T> {
    /// `Ptr(0x<address>, <element type>)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ptr(f, "Ptr", self.data, self.base)
    }
}

impl<'a, T: Clone> Accessor for Ptr<'a, T> {
    type Value = T;
    type View<'b>
        = Ptr<'a, T>
    where
        Self: 'b;
    fn read(&self, k: &Scalar) -> Result<T> {
        Ok(self.data[element_index(self.base, k, self.data.len())?].clone())
    }
    fn offset(&self, k: &Scalar) -> Result<Ptr<'a, T>> {
        Ok(Ptr {
            data: self.data,
            base: moved_base(self.base, k)?,
        })
    }
    fn view(&self) -> Ptr<'a, T> {
        *self
    }
    fn memory(&self) -> Option<(&[T], i64)> {
        Some((self.data, self.base))
    }
}

/// A pointer into a mutable slice (C++ `T*`): offset `k` is element
/// `base + k`.
///
/// ```
/// use rcute::tensor::{Accessor, AccessorMut, PtrMut};
/// use rcute::Scalar;
/// let mut v = [0, 0, 0];
/// let mut p = PtrMut::new(&mut v, 1);
/// p.write(&Scalar::Int(1), 5).unwrap();
/// assert_eq!(v, [0, 0, 5]);
/// ```
#[derive(Debug)]
pub struct PtrMut<'a, T> {
    data: &'a mut [T],
    base: i64,
}

impl<'a, T> PtrMut<'a, T> {
    /// The pointer to element `base` of `data`.
    pub fn new(data: &'a mut [T], base: i64) -> Self {
        PtrMut { data, base }
    }
    /// The element index of offset 0.
    pub fn base(&self) -> i64 {
        self.base
    }
}

impl<T> PartialEq for PtrMut<'_, T> {
    /// Same slice and same position.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.data.as_ptr(), other.data.as_ptr())
            && self.data.len() == other.data.len()
            && self.base == other.base
    }
}

impl<T> fmt::Display for PtrMut<'_, T> {
    /// `Ptr(0x<address>, <element type>)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ptr(f, "Ptr", self.data, self.base)
    }
}

impl<T: Clone> Accessor for PtrMut<'_, T> {
    type Value = T;
    type View<'b>
        = Ptr<'b, T>
    where
        Self: 'b;
    fn read(&self, k: &Scalar) -> Result<T> {
        Ok(self.data[element_index(self.base, k, self.data.len())?].clone())
    }
    fn offset(&self, k: &Scalar) -> Result<Ptr<'_, T>> {
        Ok(Ptr {
            data: self.data,
            base: moved_base(self.base, k)?,
        })
    }
    fn view(&self) -> Ptr<'_, T> {
        Ptr {
            data: self.data,
            base: self.base,
        }
    }
    fn memory(&self) -> Option<(&[T], i64)> {
        Some((self.data, self.base))
    }
}

impl<T: Clone> AccessorMut for PtrMut<'_, T> {
    type ViewMut<'b>
        = PtrMut<'b, T>
    where
        Self: 'b;
    fn write(&mut self, k: &Scalar, v: T) -> Result<()> {
        let i = element_index(self.base, k, self.data.len())?;
        self.data[i] = v;
        Ok(())
    }
    fn check_write(&self, k: &Scalar) -> Result<()> {
        element_index(self.base, k, self.data.len()).map(|_| ())
    }
    fn offset_mut(&mut self, k: &Scalar) -> Result<PtrMut<'_, T>> {
        Ok(PtrMut {
            base: moved_base(self.base, k)?,
            data: self.data,
        })
    }
    fn view_mut(&mut self) -> PtrMut<'_, T> {
        PtrMut {
            base: self.base,
            data: self.data,
        }
    }
    fn memory_mut(&mut self) -> Option<(&mut [T], i64)> {
        Some((self.data, self.base))
    }
}

/// The implicit accessor `{b}` (PyCuTe `ImplicitAccessor`, C++ a counting
/// iterator): `e[k]` is the value `b + k` itself, in any stride algebra.
///
/// ```
/// use rcute::tensor::{Accessor, ImplicitAccessor};
/// use rcute::Scalar;
/// let e = ImplicitAccessor::new(Scalar::basis(1, &[0]));
/// assert_eq!(e.offset(&Scalar::basis(1, &[1])).unwrap().to_string(), "{(1, 1)}");
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ImplicitAccessor {
    base: Scalar,
}

impl ImplicitAccessor {
    /// The accessor `{base}`.
    pub fn new(base: Scalar) -> Self {
        ImplicitAccessor { base }
    }
    /// The base value `b`.
    pub fn base(&self) -> &Scalar {
        &self.base
    }
}

impl fmt::Display for ImplicitAccessor {
    /// `{b}`; the alternate form `{:#}` prints `b` in C++ style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{{{:#}}}", self.base)
        } else {
            write!(f, "{{{}}}", self.base)
        }
    }
}

impl Accessor for ImplicitAccessor {
    type Value = Scalar;
    type View<'a> = ImplicitAccessor;
    fn read(&self, k: &Scalar) -> Result<Scalar> {
        self.base.add(k)
    }
    fn offset(&self, k: &Scalar) -> Result<ImplicitAccessor> {
        Ok(ImplicitAccessor {
            base: self.base.add(k)?,
        })
    }
    fn view(&self) -> ImplicitAccessor {
        self.clone()
    }
}

/// `TransformAccessor(inner, f)`: reads `f(inner[k])`; offsetting moves the
/// inner accessor and never re-applies `f` (`docs/tensors.md`).
/// Read-only.
///
/// ```
/// use rcute::tensor::{Accessor, ImplicitAccessor, TransformAccessor};
/// use rcute::Scalar;
/// let abs = |v: Scalar| match v { Scalar::Int(x) => x.abs(), _ => 0 };
/// let t = TransformAccessor::new(ImplicitAccessor::new(Scalar::Int(0)), abs);
/// assert_eq!(t.offset(&Scalar::Int(2)).unwrap().read(&Scalar::Int(-7)).unwrap(), 5);
/// ```
#[derive(Clone)]
pub struct TransformAccessor<A, F> {
    inner: A,
    f: F,
    name: &'static str,
}

impl<A, F> TransformAccessor<A, F> {
    /// The accessor reading `f(inner[k])`.
    pub fn new(inner: A, f: F) -> Self {
        TransformAccessor {
            inner,
            f,
            name: "f",
        }
    }
    /// The same accessor, printing its function as `name`.
    pub fn named(mut self, name: &'static str) -> Self {
        self.name = name;
        self
    }
    /// The inner accessor.
    pub fn inner(&self) -> &A {
        &self.inner
    }
}

impl<A: fmt::Display, F> fmt::Display for TransformAccessor<A, F> {
    /// `TransformAccessor(<inner>, <name>)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TransformAccessor({}, {})", self.inner, self.name)
    }
}

impl<A, F, U> Accessor for TransformAccessor<A, F>
where
    A: Accessor,
    F: Fn(A::Value) -> U + Clone,
{
    type Value = U;
    type View<'a>
        = TransformAccessor<A::View<'a>, F>
    where
        Self: 'a;
    fn read(&self, k: &Scalar) -> Result<U> {
        Ok((self.f)(self.inner.read(k)?))
    }
    fn offset(&self, k: &Scalar) -> Result<Self::View<'_>> {
        Ok(TransformAccessor {
            inner: self.inner.offset(k)?,
            f: self.f.clone(),
            name: self.name,
        })
    }
    fn view(&self) -> Self::View<'_> {
        TransformAccessor {
            inner: self.inner.view(),
            f: self.f.clone(),
            name: self.name,
        }
    }
}

/// A read-only buffer shared by reference counting: offsetting and slicing
/// clone the handle and move the position, so views own their storage (no
/// borrow) while sharing it — what a value that outlives its parent (the
/// notation's `make_tensor`, a Python object) needs.
///
/// ```
/// use rcute::tensor::{Accessor, SharedArray};
/// use rcute::Scalar;
/// let a = SharedArray::new(vec![1, 2, 3, 4]);
/// let b = a.offset(&Scalar::Int(2)).unwrap();
/// assert_eq!(b.read(&Scalar::Int(1)).unwrap(), 4);
/// assert!(b.read(&Scalar::Int(2)).is_err());
/// assert_eq!(a.shares_storage_with(&b), true);
/// ```
#[derive(Debug)]
pub struct SharedArray<T> {
    data: Arc<[T]>,
    base: i64,
}

impl<T> Clone for SharedArray<T> {
    fn clone(&self) -> Self {
        SharedArray {
            data: Arc::clone(&self.data),
            base: self.base,
        }
    }
}

impl<T> SharedArray<T> {
    /// The shared buffer holding `data`, positioned at element 0.
    pub fn new(data: Vec<T>) -> Self {
        SharedArray {
            data: data.into(),
            base: 0,
        }
    }
    /// The element index of offset 0.
    pub fn base(&self) -> i64 {
        self.base
    }
    /// The whole buffer.
    pub fn data(&self) -> &[T] {
        &self.data
    }
    /// True when both handles refer to the same buffer.
    pub fn shares_storage_with(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }
}

impl<T> PartialEq for SharedArray<T> {
    /// Same buffer and same position.
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.data, &other.data) && self.base == other.base
    }
}

impl<T> fmt::Display for SharedArray<T> {
    /// `Array(<length> x <element type>)`, followed by `+<base>` for a view
    /// that starts `base` elements into the buffer: `Array(6 x i64)`,
    /// `Array(6 x i64)+3`. Unlike [`Array`] and [`Ptr`] it prints no
    /// address, so the text of a notation value (`make_tensor`) is the same
    /// in every run.
    ///
    /// ```
    /// use rcute::tensor::{Accessor, SharedArray};
    /// use rcute::Scalar;
    /// let a = SharedArray::new(vec![0i64; 6]);
    /// assert_eq!(a.to_string(), "Array(6 x i64)");
    /// assert_eq!(a.offset(&Scalar::Int(3)).unwrap().to_string(), "Array(6 x i64)+3");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Array({} x {})", self.data.len(), elem_type::<T>())?;
        if self.base != 0 {
            write!(f, "{:+}", self.base)?;
        }
        Ok(())
    }
}

impl<T: Clone> Accessor for SharedArray<T> {
    type Value = T;
    type View<'a>
        = SharedArray<T>
    where
        T: 'a;
    fn read(&self, k: &Scalar) -> Result<T> {
        Ok(self.data[element_index(self.base, k, self.data.len())?].clone())
    }
    fn offset(&self, k: &Scalar) -> Result<SharedArray<T>> {
        Ok(SharedArray {
            data: Arc::clone(&self.data),
            base: moved_base(self.base, k)?,
        })
    }
    fn view(&self) -> SharedArray<T> {
        self.clone()
    }
    fn memory(&self) -> Option<(&[T], i64)> {
        Some((&self.data, self.base))
    }
}
