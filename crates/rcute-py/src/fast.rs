//! Typed fast paths: the hot operations called on the typed core
//! (`rcute::Layout`'s methods and the public algebra functions) with their
//! arguments read straight from Python objects, without building notation
//! values or going through the string dispatcher.
//!
//! * Layout arguments are borrowed from the (frozen) `Layout` objects.
//! * Python ints and tuples are read directly into shapes, strides and
//!   coordinates ([`shape_of`], [`stride_of`], [`coord_of`]) and tilers
//!   ([`with_tiler`]), up to [`FAST_DEPTH`] levels of nesting; the
//!   `Layout(S, D)` constructor reads `S` and `D` straight into the new
//!   layout's storage ([`layout_of`]).
//!
//! A fast path answers `None` ("not covered") for any argument it does not
//! read (lists, numpy integers, fractions, swizzles, tensors, keywords
//! other than `complement`'s `extend`, ints past 64 bits, deep nesting)
//! *and whenever the operation fails*: the caller then runs the generic
//! path (`notation::call`), which gives the value or the error. Where a
//! fast path answers, it has read the arguments as the generic path's
//! conversions do (`to_value`, then `Value::to_shape`, `to_stride`,
//! `to_coord` or `to_tiler`) and called the same library function the
//! generic path's typed form does, so the result is the same; every error
//! comes from the generic path, unchanged.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use pyo3::PyClassInitializer;
use pyo3::{ffi, PyTypeInfo};
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use rcute::algebra::{self, Scale};
use rcute::htuple::Builder;
use rcute::layout::LayoutWriter;
use rcute::ops::{Binary, Direct, Operation, Unary};
use rcute::shape::{self, Coord};
use rcute::{HRef, HTuple, Layout as RLayout, Result as RResult, Scalar, TilerItems, TilerRef};

use super::{LayoutBase, PyArithTuple, PyF2, PyLayout};

/// Whether the fast paths are on (they are; `_rcute._set_fast_paths(False)`
/// turns them off, for the tests that compare them with the generic path).
static ENABLED: AtomicBool = AtomicBool::new(true);

/// True when the fast paths are on.
#[inline(always)]
pub(crate) fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// `_set_fast_paths(on)`: turns the typed fast paths on or off (for all
/// threads) and returns the previous setting. Off, every call takes the
/// generic path, which gives the same values and errors: for tests.
#[pyfunction(name = "_set_fast_paths")]
pub(crate) fn set_fast_paths(on: bool) -> bool {
    ENABLED.swap(on, Ordering::Relaxed)
}

/// The `Layout` type object, recorded when the module is initialised
/// ([`init_types`]): `Layout` cannot be subclassed, so a Python object is a
/// layout exactly when its type is this one, one pointer comparison where
/// a checked downcast looks the type object up.
static LAYOUT_TYPE: AtomicPtr<ffi::PyTypeObject> = AtomicPtr::new(std::ptr::null_mut());

/// Records the `Layout` type object (module initialisation).
pub(crate) fn init_types(py: Python<'_>) {
    LAYOUT_TYPE.store(PyLayout::type_object_raw(py), Ordering::Relaxed);
}

/// `ob` as a `Layout` without symbols, when it is one (a layout with
/// symbols is `None`: the typed paths do not read it, the generic path
/// does).
#[inline(always)]
pub(crate) fn as_layout<'a, 'py>(ob: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyLayout>> {
    // SAFETY: `ob` is a live object; its type is compared with the (live,
    // static) `Layout` type object, and an object of exactly that type is a
    // `PyLayout`
    unsafe {
        if ffi::Py_TYPE(ob.as_ptr()) == LAYOUT_TYPE.load(Ordering::Relaxed) {
            let l = ob.downcast_unchecked::<PyLayout>();
            if l.get().sym.is_none() {
                return Some(l);
            }
        }
        None
    }
}

/// The box of a `Layout` object's layout: when the object goes, the box
/// is kept (up to [`POOL_SIZE`] of them, per thread, and only when the
/// layout has no heap storage of its own) for the next layout object
/// (built in it in place by [`layout_of`] or an operation's `*_into`
/// function, or moved into it), instead of being freed and allocated again.
pub(crate) struct LayoutBox(std::mem::ManuallyDrop<Box<RLayout>>);

/// The most boxes kept for reuse, per thread.
const POOL_SIZE: usize = 64;

thread_local! {
    // the boxes themselves are what is kept (the objects hold boxes)
    #[allow(clippy::vec_box)]
    static POOL: std::cell::RefCell<Vec<Box<RLayout>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl LayoutBox {
    #[inline(always)]
    pub(crate) fn new(l: Box<RLayout>) -> Self {
        LayoutBox(std::mem::ManuallyDrop::new(l))
    }

    /// A box to build a layout in: a kept one (holding an old layout) or
    /// a new one.
    #[inline]
    pub(crate) fn take() -> Box<RLayout> {
        POOL.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop()))
            .ok()
            .flatten()
            .unwrap_or_else(|| Box::new(RLayout::leaf(1, Scalar::Int(0))))
    }
}

impl std::ops::Deref for LayoutBox {
    type Target = RLayout;
    #[inline(always)]
    fn deref(&self) -> &RLayout {
        &self.0
    }
}

impl Drop for LayoutBox {
    fn drop(&mut self) {
        // SAFETY: the box is taken once, here, and never used after
        let b = unsafe { std::mem::ManuallyDrop::take(&mut self.0) };
        if !b.is_inline() {
            // (only boxes without heap storage of their own are kept)
            return;
        }
        let _ = POOL.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                if p.len() < POOL_SIZE {
                    p.push(b);
                }
            }
        });
    }
}

/// The deepest nesting the direct conversions read (deeper values take the
/// generic path, whose own bound is 64 levels).
pub(crate) const FAST_DEPTH: usize = 16;

/// A Python `int` (or `bool`, or an `int` subclass) that fits in 64 bits,
/// as the generic conversion reads it.
#[inline(always)]
pub(crate) fn int_of(ob: &Bound<'_, PyAny>) -> Option<i64> {
    // SAFETY: a live object
    unsafe { int_at(ob.as_ptr()) }
}

/// [`int_of`] of the object at `p`.
///
/// # Safety
/// `p` is a live object and the GIL is held.
#[inline(always)]
unsafe fn int_at(p: *mut ffi::PyObject) -> Option<i64> {
    // SAFETY: `PyLong_AsLongAndOverflow` reads an int's value without
    // calling any Python code (a `c_long` is 64 bits on the platforms the
    // module is built for)
    unsafe {
        if ffi::PyLong_Check(p) == 0 {
            return None;
        }
        let mut overflow = 0;
        let v = ffi::PyLong_AsLongAndOverflow(p, &mut overflow);
        if overflow != 0 {
            return None;
        }
        if v == -1 && !ffi::PyErr_Occurred().is_null() {
            ffi::PyErr_Clear();
            return None;
        }
        Some(v as i64)
    }
}

/// Appends the Python value `ob` (an int, another leaf `leaf` accepts, or a
/// tuple of such values) to `b`, as `Value::to_htuple` builds it from the
/// generic conversion's value.
fn build<T>(
    ob: &Bound<'_, PyAny>,
    b: &mut Builder<T>,
    leaf: &impl Fn(&Bound<'_, PyAny>) -> Option<T>,
    int: fn(i64) -> T,
    depth: usize,
) -> Option<()> {
    if ob.is_instance_of::<PyInt>() {
        b.leaf(int(int_of(ob)?));
        return Some(());
    }
    if let Ok(t) = ob.downcast::<PyTuple>() {
        if depth >= FAST_DEPTH {
            return None;
        }
        b.open();
        for x in t.iter_borrowed() {
            build(&x, b, leaf, int, depth + 1)?;
        }
        b.close();
        return Some(());
    }
    b.leaf(leaf(ob)?);
    Some(())
}

/// Appends the shape of the Python int or tuple of ints `ob` to `b`.
fn build_shape(ob: &Bound<'_, PyAny>, b: &mut Builder<i64>, depth: usize) -> Option<()> {
    if let Ok(t) = ob.downcast::<PyTuple>() {
        if depth >= FAST_DEPTH {
            return None;
        }
        b.open();
        for x in t.iter_borrowed() {
            build_shape(&x, b, depth + 1)?;
        }
        b.close();
    } else {
        b.leaf(int_of(ob)?);
    }
    Some(())
}

/// The shape (`Value::to_shape`) of a Python int or tuple of ints.
#[inline]
pub(crate) fn shape_of(ob: &Bound<'_, PyAny>) -> Option<HTuple<i64>> {
    if let Some(i) = int_of(ob) {
        return Some(HTuple::leaf(i));
    }
    if let Ok(t) = ob.downcast::<PyTuple>() {
        // a flat tuple of ints, the common form: straight into the leaves
        if t.len() <= 8 {
            let mut leaves: SmallVec<[i64; 8]> = SmallVec::new();
            for x in t.iter_borrowed() {
                match int_of(&x) {
                    Some(i) => leaves.push(i),
                    None => break,
                }
            }
            if leaves.len() == t.len() {
                return Some(HTuple::flat(leaves));
            }
        }
    }
    let mut b = Builder::new();
    build_shape(ob, &mut b, 0)?;
    Some(b.finish())
}

/// Why [`layout_of`] did not build a layout.
pub(crate) enum NotBuilt {
    /// A stride scalar other than an int seeds the prefix products over a
    /// tuple of the shape (`Layout((2, 3), E(0))`): not read here.
    ScalarSeed,
    /// Another argument form, or an invalid layout: the generic path
    /// reads the arguments (and reports the error).
    Other,
}

/// The layout `Layout(S, D)` (`Layout(S)` when `stride` is `None`) of a
/// shape `S` of ints and tuples and a stride `D` of stride scalars and
/// tuples, read straight into the storage of the box the Python object
/// will hold ([`RLayout::build_in_place`], which checks it as
/// `Layout::new` does).
///
/// `S` and `D` are read together: where `D` has a tuple, `S` must have a
/// tuple of the same length; where `D` has an integer and `S` a tuple, the
/// stride of that sub-shape is its prefix product seeded by the integer
/// (`Layout::with_stride`, from the first leaf, each product checked);
/// `Layout(S)` is the prefix product seeded by 1 (`Layout::column_major`).
#[inline]
pub(crate) fn layout_of(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> Result<Box<RLayout>, NotBuilt> {
    let mut l = LayoutBox::take();
    let mut scalar_seed = false;
    let r = l.build_in_place(|w| {
        let ok = match stride {
            Some(d) => write_pair(shape, d, w, &mut scalar_seed, 0),
            None => write_seeded(shape, &mut Seed::new(1), w, 0),
        };
        ok.ok_or_else(|| rcute::Error::type_(""))
    });
    match r {
        Ok(()) => Ok(l),
        Err(_) if scalar_seed => Err(NotBuilt::ScalarSeed),
        Err(_) => Err(NotBuilt::Other),
    }
}

/// Tuple `ob` when it is one (a tuple subclass too), with its items.
#[inline(always)]
fn tuple_items<'a, 'py>(ob: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyTuple>> {
    if ob.is_instance_of::<PyTuple>() {
        // SAFETY: checked just above
        Some(unsafe { ob.downcast_unchecked::<PyTuple>() })
    } else {
        None
    }
}

/// Writes the shape `s` and the stride `d` read together (see
/// [`layout_of`]); `None` for what is not read.
fn write_pair(
    s: &Bound<'_, PyAny>,
    d: &Bound<'_, PyAny>,
    w: &mut LayoutWriter<'_>,
    scalar_seed: &mut bool,
    depth: usize,
) -> Option<()> {
    if let Some(dt) = tuple_items(d) {
        let st = tuple_items(s)?;
        let n = st.len();
        if n != dt.len() || depth >= FAST_DEPTH {
            return None;
        }
        w.tuple(n);
        let (sp, dp) = (st.as_ptr(), dt.as_ptr());
        for i in 0..n as ffi::Py_ssize_t {
            // SAFETY: two live tuples of `n` items, borrowed for the walk
            // (reading them runs no Python code, so they stay alive)
            unsafe {
                let (x, y) = (ffi::PyTuple_GET_ITEM(sp, i), ffi::PyTuple_GET_ITEM(dp, i));
                // the common modes first: two ints
                if ffi::PyLong_Check(x) != 0 && ffi::PyLong_Check(y) != 0 {
                    w.leaf(int_at(x)?, Scalar::Int(int_at(y)?));
                    continue;
                }
                let (x, y) = (Borrowed::from_ptr(s.py(), x), Borrowed::from_ptr(s.py(), y));
                write_pair(&x, &y, w, scalar_seed, depth + 1)?;
            }
        }
        return Some(());
    }
    if let Some(v) = int_of(d) {
        if let Some(e) = int_of(s) {
            w.leaf(e, Scalar::Int(v));
            return Some(());
        }
        return write_seeded(s, &mut Seed::new(v), w, depth);
    }
    let v = scalar_leaf(d)?;
    if tuple_items(s).is_some() {
        *scalar_seed = true;
        return None;
    }
    w.leaf(int_of(s)?, v);
    Some(())
}

/// The running prefix product of [`write_seeded`]: the stride of the next
/// leaf is `acc` times the extent of the previous leaf (multiplied only
/// when a next leaf comes, as the library's prefix product does).
struct Seed {
    acc: i64,
    prev: Option<i64>,
}

impl Seed {
    fn new(v: i64) -> Seed {
        Seed { acc: v, prev: None }
    }
}

/// Writes the shape `s` (ints and tuples) and, for its stride, the prefix
/// product of its leaves carried by `seed`; `None` for what is not read
/// or on overflow.
fn write_seeded(
    s: &Bound<'_, PyAny>,
    seed: &mut Seed,
    w: &mut LayoutWriter<'_>,
    depth: usize,
) -> Option<()> {
    if let Some(t) = tuple_items(s) {
        if depth >= FAST_DEPTH {
            return None;
        }
        w.tuple(t.len());
        for x in t.iter_borrowed() {
            write_seeded(&x, seed, w, depth + 1)?;
        }
        return Some(());
    }
    let e = int_of(s)?;
    if let Some(p) = seed.prev {
        seed.acc = seed.acc.checked_mul(p)?;
    }
    seed.prev = Some(e);
    w.leaf(e, Scalar::Int(seed.acc));
    Some(())
}

/// True for a Python tuple or int (cheap flag checks): the values read as
/// shapes, coordinates and tilers before a layout is looked for.
#[inline(always)]
fn is_tuple_or_int(ob: &Bound<'_, PyAny>) -> bool {
    ob.is_instance_of::<PyTuple>() || ob.is_instance_of::<PyInt>()
}

/// The stride (`Value::to_stride`) of a Python stride scalar (`int`, `F2`,
/// `ArithTuple`) or a tuple of them.
pub(crate) fn stride_of(ob: &Bound<'_, PyAny>) -> Option<HTuple<Scalar>> {
    let mut b = Builder::new();
    build(ob, &mut b, &scalar_leaf, Scalar::Int, 0)?;
    Some(b.finish())
}

/// A stride scalar leaf other than an int: what `to_value` and then
/// `Value::to_scalar` make of an `F2` or an `ArithTuple`.
fn scalar_leaf(ob: &Bound<'_, PyAny>) -> Option<Scalar> {
    if let Ok(f) = ob.downcast::<PyF2>() {
        return Some(Scalar::F2(f.get().value));
    }
    if let Ok(a) = ob.downcast::<PyArithTuple>() {
        return Some(a.get().inner.clone());
    }
    None
}

/// The coordinate (`Value::to_coord`) of a Python value: int, `F2` and
/// `ArithTuple` leaves, and `None` leaves, which are `None` (a slice) or,
/// with `none_is_zero` (a layout's `L(c)`), the integer 0.
pub(crate) fn coord_of(ob: &Bound<'_, PyAny>, none_is_zero: bool) -> Option<Coord> {
    let leaf = move |x: &Bound<'_, PyAny>| -> Option<Option<Scalar>> {
        if x.is_none() {
            return Some(none_is_zero.then_some(Scalar::Int(0)));
        }
        scalar_leaf(x).map(Some)
    };
    let mut b = Builder::new();
    build(ob, &mut b, &leaf, |i| Some(Scalar::Int(i)), 0)?;
    Some(b.finish())
}

/// `L(c)` of a layout with integer strides at a coordinate `c` of ints,
/// `None`s (read as 0, as [`coord_of`] with `none_is_zero` reads them) and
/// tuples, the modes of `c` given by `items`: the offset computed by walking
/// the Python coordinate against the shape, without building the
/// coordinate. The walk is the library's (`Layout::eval`'s integer walk:
/// an int against a sub-shape is split into its digits, the products summed
/// in traversal order, each step checked), so where it answers the library
/// gives the same offset; `None` where the walk stops (another coordinate
/// form, another profile, an overflow): the general path then decides.
pub(crate) fn eval_int_coord<'py>(
    l: &RLayout,
    items: impl ExactSizeIterator<Item = Borrowed<'py, 'py, PyAny>>,
) -> Option<i64> {
    let s = l.shape().as_ref();
    let st = l.stride().leaves();
    let (mut pos, mut acc) = (0, 0);
    eval_modes(items, s, st, &mut pos, &mut acc, 0)?;
    (pos == st.len()).then_some(acc)
}

/// The walk of [`eval_int_coord`] over the modes `items` of a coordinate
/// tuple against the (sub-)shape `s`.
fn eval_modes<'py>(
    items: impl ExactSizeIterator<Item = Borrowed<'py, 'py, PyAny>>,
    s: HRef<'_, i64>,
    st: &[Scalar],
    pos: &mut usize,
    acc: &mut i64,
    depth: usize,
) -> Option<()> {
    if s.is_leaf() || items.len() != s.rank() || depth >= FAST_DEPTH {
        return None;
    }
    for (c, m) in items.zip(s.modes()) {
        eval_walk(&c, m, st, pos, acc, depth + 1)?;
    }
    Some(())
}

/// The walk of [`eval_int_coord`] at one coordinate value `c` against the
/// (sub-)shape `s`, whose strides start at `st[*pos]`.
fn eval_walk(
    c: &Bound<'_, PyAny>,
    s: HRef<'_, i64>,
    st: &[Scalar],
    pos: &mut usize,
    acc: &mut i64,
    depth: usize,
) -> Option<()> {
    if let Some(t) = tuple_items(c) {
        return eval_modes(t.iter_borrowed(), s, st, pos, acc, depth);
    }
    let i = if c.is_none() { 0 } else { int_of(c)? };
    if let (Some(_), Some(Scalar::Int(d))) = (s.as_leaf(), st.get(*pos)) {
        // an int against a leaf: its own digit
        *acc = acc.checked_add(i.checked_mul(*d)?)?;
        *pos += 1;
        return Some(());
    }
    let leaves = s.leaves();
    let n = leaves.len();
    let mut q = i;
    for (k, &e) in leaves.iter().enumerate() {
        let digit = if k + 1 == n {
            q
        } else {
            let (qq, r) = rcute::int::floor_divmod(q, e).ok()?;
            q = qq;
            r
        };
        let Scalar::Int(d) = st.get(*pos + k)? else {
            return None;
        };
        *acc = acc.checked_add(digit.checked_mul(*d)?)?;
    }
    *pos += n;
    Some(())
}

/// The tiler (`Value::to_tiler`) of `ob`: a layout (borrowed), an int,
/// `None` or a tuple of tilers, read in one walk; `None` for anything
/// else.
///
/// # Safety
/// The tiler borrows the layouts inside `ob` (a layout, or the layouts
/// `ob`'s tuples hold: a tuple's items cannot change); the caller uses it
/// only while `ob` is alive and runs no Python code meanwhile.
unsafe fn build_tiler<'a>(ob: &Bound<'_, PyAny>, depth: usize) -> Option<TilerRef<'a>> {
    if let Some(l) = as_layout(ob) {
        let l: *const RLayout = &*l.get().inner;
        // SAFETY: the layout lives in its box, which its object (held by
        // `ob` or one of its tuples) owns for as long as the caller uses
        // the tiler (see above)
        return Some(TilerRef::Borrowed(unsafe { &*l }));
    }
    if let Some(t) = tuple_items(ob) {
        if depth >= FAST_DEPTH {
            return None;
        }
        let mut items = Vec::with_capacity(t.len());
        for x in t.iter_borrowed() {
            // SAFETY: `x` is held by `ob` (the caller's contract)
            items.push(unsafe { build_tiler(&x, depth + 1) }?);
        }
        return Some(TilerRef::Tuple(items.into()));
    }
    if ob.is_none() {
        return Some(TilerRef::None);
    }
    Some(TilerRef::Int(int_of(ob)?))
}

/// Calls `f` with the tiler (`Value::to_tiler`) of `ob`: a layout
/// (borrowed), an int, `None` or a tuple of tilers.
#[inline]
pub(crate) fn with_tiler<R>(
    ob: &Bound<'_, PyAny>,
    f: impl FnOnce(&TilerRef<'_>) -> R,
) -> Option<R> {
    // SAFETY (both calls): the tiler is used by `f` only, while `ob` is
    // borrowed here; `f` calls a library function, no Python code
    if let Some(t) = tuple_items(ob) {
        // a tuple tiler's items on the stack (no heap allocation for them;
        // a nested tuple is built as `build_tiler` builds it)
        let mut items: SmallVec<[TilerRef<'_>; 4]> = SmallVec::with_capacity(t.len());
        for x in t.iter_borrowed() {
            items.push(unsafe { build_tiler(&x, 1) }?);
        }
        return Some(f(&TilerRef::Tuple(TilerItems::Borrowed(&items))));
    }
    let t = unsafe { build_tiler(ob, 0) }?;
    Some(f(&t))
}

// ---------------------------------------------------------------- results

/// A new Python `Layout`.
#[inline]
pub(crate) fn layout_obj(py: Python<'_>, l: RLayout) -> PyResult<PyObject> {
    let mut b = LayoutBox::take();
    *b = l;
    boxed_layout_obj(py, b)
}

/// A new Python `Layout` holding the box `l`.
#[inline]
pub(crate) fn boxed_layout_obj(py: Python<'_>, l: Box<RLayout>) -> PyResult<PyObject> {
    use pyo3::impl_::pyclass_init::PyObjectInit;
    let tp = LAYOUT_TYPE.load(Ordering::Relaxed);
    if tp.is_null() {
        return Ok(Py::new(py, (PyLayout::boxed(l), LayoutBase))?.into_any());
    }
    let init = PyClassInitializer::from((PyLayout::boxed(l), LayoutBase));
    // SAFETY: `tp` is the `Layout` type object (recorded at module
    // initialisation), the type the initializer creates an object of; the
    // new reference is owned by the result. (The type object recorded
    // here spares looking it up for each new object, as `Py::new` does.)
    unsafe {
        let p = init.into_new_object(py, tp)?;
        Ok(PyObject::from_owned_ptr(py, p))
    }
}

/// A stride scalar as the generic conversion returns it (`int`, `F2` or
/// `ArithTuple`).
#[inline]
pub(crate) fn scalar_obj(py: Python<'_>, s: &Scalar) -> PyResult<PyObject> {
    match s {
        Scalar::Int(v) => v.into_py_any(py),
        Scalar::F2(v) => PyF2 { value: *v }.into_py_any(py),
        s => PyArithTuple { inner: s.clone() }.into_py_any(py),
    }
}

/// A hierarchical tuple as nested Python tuples, leaves converted by `leaf`.
pub(crate) fn htuple_obj<T>(
    py: Python<'_>,
    t: HRef<'_, T>,
    leaf: &impl Fn(Python<'_>, &T) -> PyResult<PyObject>,
) -> PyResult<PyObject> {
    if let Some(v) = t.as_leaf() {
        return leaf(py, v);
    }
    let mut items: SmallVec<[PyObject; 8]> = SmallVec::new();
    for m in t.modes() {
        items.push(htuple_obj(py, m, leaf)?);
    }
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

/// A shape as a Python int or nested tuples of ints.
#[inline]
pub(crate) fn shape_obj(py: Python<'_>, s: HRef<'_, i64>) -> PyResult<PyObject> {
    htuple_obj(py, s, &|py, v: &i64| v.into_py_any(py))
}

/// A stride (or coordinate value tuple) as nested Python tuples.
#[inline]
pub(crate) fn stride_obj(py: Python<'_>, d: HRef<'_, Scalar>) -> PyResult<PyObject> {
    htuple_obj(py, d, &scalar_obj)
}

// ---------------------------------------------------------------- operations

type Pair = fn(&RLayout, &RLayout) -> RResult<RLayout>;
type Shapes = fn(HRef<'_, i64>, HRef<'_, i64>) -> RResult<RLayout>;

/// The typed fast path of an operation (from its table entry's typed form, [`Fast::of`]).
#[derive(Clone, Copy)]
pub(crate) enum Fast {
    /// No fast path: always the generic one.
    None,
    Size,
    Rank,
    Depth,
    Cosize,
    Shape,
    Stride,
    /// `op(A)` of a layout, written into the result's storage.
    Unary(Unary),
    /// `op(A)` and `op(A, profile)` (coalesce, coalesce_z, filter).
    Profile(Unary, Binary),
    /// `op(A, B)` with a tiler `B`: composition, divides, products.
    Tiler(Binary),
    /// `complement(A)`, `complement(A, extend)`, `complement(A, extend=...)`.
    Complement,
    /// `op(A, B)` of two layouts.
    Pair(Pair),
    MaxCommonVector,
    /// `op(S, T)` of two shapes; `true` when a layout stands for its shape.
    Shapes(Shapes, bool),
    /// `upcast(A, n)` / `downcast(A, n)`.
    Cast(fn(&RLayout, i64) -> RResult<RLayout>),
    /// `recast(A, n)` with an integer scale.
    Recast,
    Idx2crd,
    Crd2idx,
}

impl Fast {
    /// The fast path of the operation table's entry `op`, from its typed
    /// form ([`Direct`]): the same argument forms as the notation's typed
    /// forms, read from Python objects. No list of names: an operation
    /// added to the table with a typed form gets its fast path here.
    pub(crate) fn of(op: &Operation) -> Fast {
        let Some(d) = op.direct else {
            return Fast::None;
        };
        match d {
            Direct::Size => Fast::Size,
            Direct::Rank => Fast::Rank,
            Direct::Depth => Fast::Depth,
            Direct::Cosize => Fast::Cosize,
            Direct::Shape => Fast::Shape,
            Direct::Stride => Fast::Stride,
            Direct::Profile(u, b) => Fast::Profile(u, b),
            Direct::Unary(u) => Fast::Unary(u),
            Direct::Tiler(b) => Fast::Tiler(b),
            Direct::Complement => Fast::Complement,
            Direct::LayoutAdd => Fast::Pair(algebra::layout_add),
            Direct::MaxCommonLayout => Fast::Pair(algebra::max_common_layout),
            Direct::MaxCommonVector => Fast::MaxCommonVector,
            Direct::GreatestCommonDomain => Fast::Shapes(algebra::greatest_common_domain, true),
            Direct::MakeOrderedLayout => Fast::Shapes(algebra::make_ordered_layout, false),
            Direct::Upcast => Fast::Cast(algebra::upcast),
            Direct::Downcast => Fast::Cast(algebra::downcast),
            Direct::Recast => Fast::Recast,
            Direct::Idx2crd => Fast::Idx2crd,
            Direct::Crd2idx => Fast::Crd2idx,
            _ => Fast::None,
        }
    }
}

/// The layout an argument holds, borrowed.
#[inline(always)]
fn layout_ref<'a>(ob: &'a Bound<'_, PyAny>) -> Option<&'a RLayout> {
    as_layout(ob).map(|l| &*l.get().inner)
}

/// Calls `f` with the shape of `ob` (`Value::to_shape_of`): a layout's
/// shape (borrowed) or the shape of an int or tuple.
#[inline]
fn with_shape_of<R>(ob: &Bound<'_, PyAny>, f: impl FnOnce(HRef<'_, i64>) -> R) -> Option<R> {
    if is_tuple_or_int(ob) {
        let s = shape_of(ob)?;
        return Some(f(s.as_ref()));
    }
    let l = layout_ref(ob)?;
    Some(f(l.shape().as_ref()))
}

/// The result of a fast path, `None` on failure (the generic path then
/// reports the error).
#[inline(always)]
fn ok<T>(r: RResult<T>) -> Option<T> {
    r.ok()
}

/// A layout result as a new Python `Layout`, or `None` on failure (made
/// where the result is computed, so that it is moved once, into the box).
#[inline(always)]
fn new_layout(py: Python<'_>, r: RResult<RLayout>) -> PyResult<Option<PyObject>> {
    match r {
        Ok(l) => layout_obj(py, l).map(Some),
        Err(_) => Ok(None),
    }
}

/// A new Python `Layout` whose layout `f` writes in place (into the box the
/// object will hold, so that the result is never copied), or `None` when
/// `f` fails.
#[inline(always)]
fn layout_into(
    py: Python<'_>,
    f: impl FnOnce(&mut RLayout) -> RResult<()>,
) -> PyResult<Option<PyObject>> {
    // (the operations write into a layout holding any earlier value)
    let mut out = LayoutBox::take();
    match f(&mut out) {
        Ok(()) => boxed_layout_obj(py, out).map(Some),
        Err(_) => GENERIC,
    }
}

/// Not covered: the generic path runs.
const GENERIC: PyResult<Option<PyObject>> = Ok(None);

/// An integer result, or `None` on failure.
#[inline(always)]
fn int_result(py: Python<'_>, r: Option<RResult<i64>>) -> PyResult<Option<PyObject>> {
    match r {
        Some(Ok(v)) => v.into_py_any(py).map(Some),
        _ => Ok(None),
    }
}

/// The digits of the integer index `i` in the mixed radix `extents` (each
/// but the last the remainder of a floor division by its extent, the last
/// the remaining quotient), as the library's `idx2crd` computes them;
/// `None` on failure.
fn idx2crd_digits(i: i64, extents: &[i64]) -> Option<SmallVec<[i64; 8]>> {
    if extents.contains(&0) {
        // an extent 0: the library decides (an error for a tuple shape)
        return None;
    }
    let mut digits = SmallVec::with_capacity(extents.len());
    let mut q = i;
    for (k, &e) in extents.iter().enumerate() {
        if k + 1 == extents.len() {
            digits.push(q);
        } else {
            let (qq, r) = rcute::int::floor_divmod(q, e).ok()?;
            digits.push(r);
            q = qq;
        }
    }
    Some(digits)
}

/// `idx2crd(i, S)` of an integer index and a shape `S`: the digits of `i`
/// in `S`'s profile; `None` on failure.
fn idx2crd_int(py: Python<'_>, i: i64, s: HRef<'_, i64>) -> PyResult<Option<PyObject>> {
    let Some(digits) = idx2crd_digits(i, s.leaves()) else {
        return GENERIC;
    };
    let next = std::cell::Cell::new(0usize);
    let leaf = |py: Python<'_>, _: &i64| -> PyResult<PyObject> {
        let k = next.get();
        next.set(k + 1);
        digits.get(k).copied().unwrap_or(0).into_py_any(py)
    };
    htuple_obj(py, s, &leaf).map(Some)
}

/// Appends the extents of the Python shape `ob` (an int or a tuple of
/// shapes) in traversal order; `None` for anything else.
fn shape_extents(ob: &Bound<'_, PyAny>, out: &mut SmallVec<[i64; 8]>, depth: usize) -> Option<()> {
    if let Ok(t) = ob.downcast::<PyTuple>() {
        if depth >= FAST_DEPTH {
            return None;
        }
        for x in t.iter_borrowed() {
            shape_extents(&x, out, depth + 1)?;
        }
    } else {
        out.push(int_of(ob)?);
    }
    Some(())
}

/// The Python value nested like the Python shape `ob` (read by
/// [`shape_extents`]) with the leaves `leaves` in traversal order.
fn nested_like(
    py: Python<'_>,
    ob: &Bound<'_, PyAny>,
    leaves: &[i64],
    next: &mut usize,
) -> PyResult<PyObject> {
    let Ok(t) = ob.downcast::<PyTuple>() else {
        let v = leaves.get(*next).copied().unwrap_or(0);
        *next += 1;
        return v.into_py_any(py);
    };
    let mut items: SmallVec<[PyObject; 8]> = SmallVec::new();
    for x in t.iter_borrowed() {
        items.push(nested_like(py, &x, leaves, next)?);
    }
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

/// `idx2crd(i, S)` of an integer index and a Python shape `S`: the result
/// has `S`'s structure, so it is built by walking `S` itself, without an
/// intermediate shape; `None` when `S` is not an int or a tuple of shapes
/// or on failure.
fn idx2crd_int_py(py: Python<'_>, i: i64, s: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
    let mut extents = SmallVec::new();
    if shape_extents(s, &mut extents, 0).is_none() {
        return GENERIC;
    }
    let Some(digits) = idx2crd_digits(i, &extents) else {
        return GENERIC;
    };
    nested_like(py, s, &digits, &mut 0).map(Some)
}

/// The fast path `f` on the call's arguments, or `Ok(None)` when it does not
/// cover them or the operation fails (see the module documentation).
pub(crate) fn call(
    py: Python<'_>,
    f: Fast,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<PyObject>> {
    if matches!(f, Fast::None) || !enabled() {
        return GENERIC;
    }
    let mut extend: Option<Bound<'_, PyAny>> = None;
    if let Some(kw) = kwargs {
        if !kw.is_empty() {
            // the only keyword form read here: complement(A, extend=...)
            if !matches!(f, Fast::Complement) || kw.len() != 1 || args.len() != 1 {
                return Ok(None);
            }
            let key = PyString::new(py, "extend");
            match kw.get_item(key)? {
                Some(v) => extend = Some(v),
                None => return Ok(None),
            }
        }
    }
    let n = args.len();
    if n == 0 || n > 2 {
        return Ok(None);
    }
    let a = args.get_borrowed_item(0)?;
    let b = if n == 2 {
        Some(args.get_borrowed_item(1)?)
    } else {
        None
    };
    call_args(py, f, &a, b.as_deref(), extend.as_ref())
}

/// The fast path `f` on the positional arguments `a` (and `b`) and
/// `complement`'s keyword `extend`, as [`call`].
#[inline]
pub(crate) fn call_args(
    py: Python<'_>,
    f: Fast,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    extend: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PyObject>> {
    if !enabled() {
        return GENERIC;
    }
    match (f, b) {
        (Fast::None, _) => Ok(None),
        (Fast::Size, None) => int_result(py, with_shape_of(a, shape::size)),
        (Fast::Rank, None) => {
            let r = if let Ok(t) = a.downcast::<PyTuple>() {
                // the generic conversion must accept the whole tuple
                if shape_of(a).is_none() {
                    return GENERIC;
                }
                t.len()
            } else if int_of(a).is_some() {
                1
            } else if let Some(l) = layout_ref(a) {
                l.rank()
            } else {
                return GENERIC;
            };
            int_result(py, Some(Ok(r as i64)))
        }
        (Fast::Depth, None) => {
            let Some(r) = with_shape_of(a, |s| s.try_depth()) else {
                return GENERIC;
            };
            // (depths past the fast nesting bound take the generic path)
            match r {
                Ok(d) if d <= FAST_DEPTH => int_result(py, Some(Ok(d as i64))),
                _ => Ok(None),
            }
        }
        (Fast::Cosize, None) => int_result(py, layout_ref(a).map(algebra::cosize)),
        (Fast::Shape, None) => match layout_ref(a) {
            Some(l) => shape_obj(py, l.shape().as_ref()).map(Some),
            None => Ok(None),
        },
        (Fast::Stride, None) => match layout_ref(a) {
            Some(l) => stride_obj(py, l.stride()).map(Some),
            None => Ok(None),
        },
        (Fast::Unary(op) | Fast::Profile(op, _), None) => match layout_ref(a) {
            Some(l) => layout_into(py, |out| op(l, out)),
            None => GENERIC,
        },
        (Fast::Profile(_, op) | Fast::Tiler(op), Some(b)) => match layout_ref(a) {
            Some(l) => with_tiler(b, |t| layout_into(py, |out| op(l, t, out))).unwrap_or(GENERIC),
            None => GENERIC,
        },
        (Fast::Complement, b) => {
            let Some(l) = layout_ref(a) else {
                return Ok(None);
            };
            let ext = match (b, extend) {
                (Some(e), None) => Some(e),
                (None, Some(e)) => Some(e),
                _ => None,
            };
            match ext {
                Some(e) if !e.is_none() => {
                    with_shape_of(e, |s| new_layout(py, algebra::complement(l, Some(s))))
                        .unwrap_or(GENERIC)
                }
                _ => new_layout(py, algebra::complement(l, None)),
            }
        }
        (Fast::Pair(op), Some(b)) => match (layout_ref(a), layout_ref(b)) {
            (Some(x), Some(y)) => new_layout(py, op(x, y)),
            _ => GENERIC,
        },
        (Fast::MaxCommonVector, Some(b)) => {
            let r = match (layout_ref(a), layout_ref(b)) {
                (Some(x), Some(y)) => Some(algebra::max_common_vector(x, y)),
                _ => None,
            };
            int_result(py, r)
        }
        (Fast::Shapes(op, true), Some(b)) => {
            with_shape_of(a, |x| with_shape_of(b, |y| new_layout(py, op(x, y))))
                .flatten()
                .unwrap_or(GENERIC)
        }
        (Fast::Shapes(op, false), Some(b)) => match (shape_of(a), shape_of(b)) {
            (Some(x), Some(y)) => new_layout(py, op(x.as_ref(), y.as_ref())),
            _ => GENERIC,
        },
        (Fast::Cast(op), Some(b)) => match (layout_ref(a), int_of(b)) {
            (Some(l), Some(k)) => new_layout(py, op(l, k)),
            _ => GENERIC,
        },
        (Fast::Recast, Some(b)) => match (layout_ref(a), int_of(b)) {
            (Some(l), Some(k)) => {
                new_layout(py, algebra::recast(l, &Scale::Ratio { num: k, den: 1 }))
            }
            _ => GENERIC,
        },
        (Fast::Idx2crd, Some(b)) => {
            if let Some(i) = int_of(a) {
                if is_tuple_or_int(b) {
                    return idx2crd_int_py(py, i, b);
                }
                return with_shape_of(b, |s| idx2crd_int(py, i, s)).unwrap_or(GENERIC);
            }
            let Some(c) = coord_of(a, false) else {
                return GENERIC;
            };
            match with_shape_of(b, |s| shape::idx2crd(c.as_ref(), s)).and_then(ok) {
                Some(r) => stride_obj(py, r.as_ref()).map(Some),
                None => Ok(None),
            }
        }
        (Fast::Crd2idx, Some(b)) => {
            let Some(c) = coord_of(a, false) else {
                return Ok(None);
            };
            int_result(py, with_shape_of(b, |s| shape::crd2idx(c.as_ref(), s)))
        }
        _ => Ok(None),
    }
}
