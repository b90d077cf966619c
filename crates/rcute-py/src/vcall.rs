//! Vectorcall entry points (PEP 590) of the hot calls: `Layout(shape,
//! stride)`, `L(c)` and the operations (`size(A)`, `composition(A, B)`, ...);
//! and C getters of `L.shape` and `L.stride`.
//!
//! The interpreter hands a vectorcall its arguments as an array, without
//! packing them into a tuple and a dict, and without the generic argument
//! parser. Each entry point reads the call forms its typed fast path
//! covers (positional arguments; `complement`'s `extend=`) straight from
//! that array; every other call, and every call a fast path declines, is
//! passed on, packed, to the type's ordinary call slot (the `#[new]`,
//! `__call__` methods of `lib.rs`), so values, errors and argument checking
//! stay those of the ordinary call.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::null_mut;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use pyo3::PyTypeInfo;
use smallvec::SmallVec;

use super::{fast, fast_layout, LayoutBase, Op, PyLayout};
use fast::Fast;

/// The number of positional arguments of a vectorcall.
#[inline(always)]
fn nargs(nargsf: usize) -> usize {
    nargsf & !ffi::PY_VECTORCALL_ARGUMENTS_OFFSET
}

/// Runs `f`, the body of a C entry point the interpreter calls with the GIL
/// held: an error is raised (null returned), a Rust panic becomes pyo3's
/// `PanicException`. (Unlike pyo3's own entry points it does not count
/// the GIL as acquired for pyo3, so references dropped inside are released
/// at pyo3's next own entry point; every fallback here is one.)
#[inline(always)]
unsafe fn entry(f: impl FnOnce(Python<'_>) -> PyResult<*mut ffi::PyObject>) -> *mut ffi::PyObject {
    // SAFETY: the interpreter calls a vectorcall with the GIL held
    let py = unsafe { Python::assume_gil_acquired() };
    match catch_unwind(AssertUnwindSafe(|| f(py))) {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => {
            e.restore(py);
            null_mut()
        }
        Err(payload) => {
            let msg = if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else if let Some(s) = payload.downcast_ref::<&str>() {
                (*s).to_string()
            } else {
                "panic from Rust code".to_string()
            };
            pyo3::panic::PanicException::new_err((msg,)).restore(py);
            null_mut()
        }
    }
}

/// Argument `i` of a vectorcall's array, borrowed.
#[inline(always)]
unsafe fn arg<'a, 'py>(
    py: Python<'py>,
    args: *const *mut ffi::PyObject,
    i: usize,
) -> Borrowed<'a, 'py, PyAny> {
    // SAFETY: the caller passes an index below the array's length
    unsafe { Borrowed::from_ptr(py, *args.add(i)) }
}

/// The call passed on to `tp_call` (a type's ordinary call slot) with the
/// arguments packed into a tuple and a dict: the new reference it
/// returns, or null with its error raised.
unsafe fn ordinary_call(
    py: Python<'_>,
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    n: usize,
    kwnames: *mut ffi::PyObject,
    tp_call: Option<ffi::ternaryfunc>,
) -> PyResult<*mut ffi::PyObject> {
    let Some(tp_call) = tp_call else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "type: the object is not callable",
        ));
    };
    let mut pos: SmallVec<[Borrowed<'_, '_, PyAny>; 4]> = SmallVec::new();
    for i in 0..n {
        pos.push(unsafe { arg(py, args, i) });
    }
    let tuple = PyTuple::new(py, pos)?;
    let kw = if kwnames.is_null() {
        None
    } else {
        // SAFETY: `kwnames` is the call's tuple of keyword names; their
        // values follow the positional arguments in `args`
        let names = unsafe { Borrowed::from_ptr(py, kwnames) };
        let names = unsafe { names.downcast_unchecked::<PyTuple>() };
        let d = PyDict::new(py);
        for (i, name) in names.iter_borrowed().enumerate() {
            d.set_item(name, unsafe { arg(py, args, n + i) })?;
        }
        Some(d)
    };
    let kw_ptr = kw.as_ref().map_or(null_mut(), |d| d.as_ptr());
    // SAFETY: the slot of the callable's type, called with a tuple and a
    // dict (or null) as its protocol requires
    Ok(unsafe { tp_call(callable, tuple.as_ptr(), kw_ptr) })
}

/// `Layout(shape)`, `Layout(shape, stride)`: the vectorcall of the `Layout`
/// type object.
unsafe extern "C" fn layout_new(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    unsafe {
        entry(|py| {
            let n = nargs(nargsf);
            if kwnames.is_null() && (n == 1 || n == 2) && fast::enabled() {
                let shape = arg(py, args, 0);
                let stride = if n == 2 { Some(arg(py, args, 1)) } else { None };
                // (`stride=None` is the column-major layout, as no stride)
                let stride = stride.filter(|d| !d.is_none());
                if let Some(l) = fast_layout(&shape, stride.as_deref()) {
                    return Ok(fast::boxed_layout_obj(py, l)?.into_ptr());
                }
            }
            // the metatype's call (PyType_Type's: Layout has no metaclass)
            let type_call = (*ffi::Py_TYPE(callable)).tp_call;
            ordinary_call(py, callable, args, n, kwnames, type_call)
        })
    }
}

/// `L(c)`: the vectorcall of a `Layout` object.
unsafe extern "C" fn layout_call(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    unsafe {
        entry(|py| {
            let n = nargs(nargsf);
            if kwnames.is_null() && n >= 1 {
                let this = Borrowed::from_ptr(py, callable);
                let l = this.downcast_unchecked::<PyLayout>().get();
                if n == 1 {
                    if let Some(r) = l.fast_call1(py, &arg(py, args, 0))? {
                        return Ok(r.into_ptr());
                    }
                } else if fast::enabled() && !l.has_symbols() {
                    // `L(c0, c1, ...)`: the coordinate `(c0, c1, ...)` read
                    // from the argument array, without packing it
                    let items = (0..n).map(|i| arg(py, args, i));
                    if let Some(v) = fast::eval_int_coord(&l.inner, items) {
                        return Ok(ffi::PyLong_FromLongLong(v));
                    }
                }
            }
            let tp_call = (*ffi::Py_TYPE(callable)).tp_call;
            ordinary_call(py, callable, args, n, kwnames, tp_call)
        })
    }
}

/// `op(A)`, `op(A, B)`, `complement(A, extend=n)`: the vectorcall of an
/// operation object.
unsafe extern "C" fn op_call(
    callable: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    unsafe {
        entry(|py| {
            let n = nargs(nargsf);
            let this = Borrowed::from_ptr(py, callable);
            let op = this.downcast_unchecked::<Op>().get();
            if op.mode.is_empty() && (n == 1 || n == 2) {
                let a = arg(py, args, 0);
                let r = if kwnames.is_null() {
                    let b = if n == 2 { Some(arg(py, args, 1)) } else { None };
                    fast::call_args(py, op.fast, &a, b.as_deref(), None)?
                } else if n == 1 && matches!(op.fast, Fast::Complement) && is_extend(py, kwnames) {
                    fast::call_args(py, op.fast, &a, None, Some(&arg(py, args, 1)))?
                } else {
                    None
                };
                if let Some(r) = r {
                    return Ok(r.into_ptr());
                }
            }
            let tp_call = (*ffi::Py_TYPE(callable)).tp_call;
            ordinary_call(py, callable, args, n, kwnames, tp_call)
        })
    }
}

/// True when the keyword names are exactly `("extend",)`.
unsafe fn is_extend(py: Python<'_>, kwnames: *mut ffi::PyObject) -> bool {
    // SAFETY: `kwnames` is the call's (non-null) tuple of keyword names
    let names = unsafe { Borrowed::from_ptr(py, kwnames) };
    let names = unsafe { names.downcast_unchecked::<PyTuple>() };
    names.len() == 1
        && names
            .get_borrowed_item(0)
            .ok()
            .and_then(|k| {
                k.downcast::<PyString>()
                    .ok()
                    .map(|s| s.to_str().ok() == Some("extend"))
            })
            .unwrap_or(false)
}

/// `L.shape` / `L.stride`: the C getter of the attribute (`which` 0 or 1),
/// installed in place of the descriptor the class defines, so that a read
/// goes straight to the cached value ([`PyLayout`]'s getters) without the
/// generic method wrapper.
unsafe fn layout_attr(slf: *mut ffi::PyObject, which: usize) -> *mut ffi::PyObject {
    unsafe {
        entry(|py| {
            // SAFETY: the attribute's descriptor is bound to the `Layout`
            // type, which has no subclasses: the interpreter checks that
            // `slf` is a `Layout` before calling the getter
            let this = Borrowed::from_ptr(py, slf);
            let l = this.downcast_unchecked::<PyLayout>().get();
            let v = if which == 0 {
                l.shape(py)
            } else {
                l.stride(py)
            };
            Ok(v?.into_ptr())
        })
    }
}

unsafe extern "C" fn layout_shape(
    slf: *mut ffi::PyObject,
    _closure: *mut std::ffi::c_void,
) -> *mut ffi::PyObject {
    unsafe { layout_attr(slf, 0) }
}

unsafe extern "C" fn layout_stride(
    slf: *mut ffi::PyObject,
    _closure: *mut std::ffi::c_void,
) -> *mut ffi::PyObject {
    unsafe { layout_attr(slf, 1) }
}

/// Replaces the `Layout` attribute `name`'s descriptor by one calling the C
/// getter `get`, with the same docstring.
fn install_getter(py: Python<'_>, name: &'static std::ffi::CStr, get: ffi::getter) -> PyResult<()> {
    let tp = PyLayout::type_object(py);
    let doc: Option<String> = tp.getattr(name.to_str()?)?.getattr("__doc__")?.extract()?;
    let doc = match doc {
        Some(d) => std::ffi::CString::new(d)?.into_raw() as *const _,
        None => std::ptr::null(),
    };
    // the definition lives as long as the type: leaked, once per attribute
    let def = Box::leak(Box::new(ffi::PyGetSetDef {
        name: name.as_ptr(),
        get: Some(get),
        set: None,
        doc,
        closure: null_mut(),
    }));
    // SAFETY: a live type object and a definition that is never freed; the
    // new descriptor is an owned reference (or null with an error raised)
    let descr =
        unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewGetSet(tp.as_type_ptr(), def))? };
    tp.setattr(name.to_str()?, descr)
}

/// The vectorcall function of each `Layout` object (its `vectorcall` field).
pub(crate) const LAYOUT_CALL: ffi::vectorcallfunc = layout_call;
/// The vectorcall function of each operation object (its `vectorcall` field).
pub(crate) const OP_CALL: ffi::vectorcallfunc = op_call;

/// Marks the type `T` as vectorcall-able: its objects hold their
/// vectorcall function at `offset` bytes from their start.
unsafe fn enable_instances<T: PyTypeInfo>(py: Python<'_>, offset: isize) {
    let tp = T::type_object_raw(py);
    unsafe {
        (*tp).tp_vectorcall_offset = offset as ffi::Py_ssize_t;
        (*tp).tp_flags |= ffi::Py_TPFLAGS_HAVE_VECTORCALL;
    }
}

/// Installs the vectorcalls: `Layout(...)` on the type object, `L(c)` and
/// `op(...)` on the objects (the offset of their `vectorcall` field is
/// read from one object of each type).
pub(crate) fn install(py: Python<'_>, sample_op: Op) -> PyResult<()> {
    let l = Py::new(
        py,
        (
            PyLayout::wrap(rcute::Layout::leaf(1, rcute::Scalar::Int(0))),
            LayoutBase,
        ),
    )?;
    let l_off = (&l.get().vectorcall as *const _ as isize) - (l.as_ptr() as isize);
    let o = Py::new(py, sample_op)?;
    let o_off = (&o.get().vectorcall as *const _ as isize) - (o.as_ptr() as isize);
    // the exact-type checks of the fast paths (`as_layout`, the unchecked
    // downcasts below) hold only while no Python class can subclass these
    // types: refuse to install otherwise
    // SAFETY: live type objects, read with the GIL held
    let subclassable = unsafe {
        ((*PyLayout::type_object_raw(py)).tp_flags | (*Op::type_object_raw(py)).tp_flags)
            & ffi::Py_TPFLAGS_BASETYPE
            != 0
    };
    if subclassable {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "internal: Layout and Operation must not be subclassable for the fast calls",
        ));
    }
    // SAFETY: the offsets are those of the `vectorcall` fields inside the
    // objects (every object of these types is created with the field set),
    // and the type objects are live; the GIL is held
    unsafe {
        enable_instances::<PyLayout>(py, l_off);
        enable_instances::<Op>(py, o_off);
        (*PyLayout::type_object_raw(py)).tp_vectorcall = Some(layout_new);
    }
    install_getter(py, c"shape", layout_shape)?;
    install_getter(py, c"stride", layout_stride)?;
    Ok(())
}
