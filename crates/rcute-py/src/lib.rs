//! The Python extension module `rcute._rcute`: PyCuTe's Python API on the
//! rcute core, a thin shell over it.
//!
//! The hot operations (the `Layout` constructor, `L(c)`, the `shape` and
//! `stride` getters, the queries and the algebra on layouts) first try a
//! typed fast path (the `fast` module): layout arguments are borrowed from the
//! `Layout` objects, Python ints and tuples are read straight into shapes,
//! strides, coordinates and tilers, and the typed core is called. Every
//! other call, and every call a fast path does not cover or that fails,
//! takes the generic path: the arguments are converted into notation
//! values and [`rcute::notation::call`] (the dispatch the `rcute eval` CLI
//! uses) computes the value or the error.
//!
//! The hot calls (`Layout(...)`, `L(c)`, `op(...)`) enter through
//! vectorcalls (the `vcall` module), which read the arguments from the
//! interpreter's array and pass every call they do not cover on to the
//! ordinary call slots below.

use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use rcute::notation::{self, Style, Value};
use rcute::ops::{Operation, OPERATIONS};
use rcute::{ErrorKind, Layout as RLayout, Scalar, Swizzle as RSwizzle, SwizzledLayout, SymLayout};

mod fast;
mod symbolic;
mod vcall;
use fast::Fast;

/// Maximum nesting accepted when converting Python values.
const MAX_DEPTH: usize = 64;

/// rcute error kinds onto the reference's Python exception types.
fn to_pyerr(e: rcute::Error) -> PyErr {
    let msg = format!("{}: {}", e.kind(), e.message());
    match e.kind() {
        ErrorKind::Type => PyTypeError::new_err(msg),
        ErrorKind::Bounds => PyIndexError::new_err(msg),
        ErrorKind::Overflow => PyOverflowError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// The error of an ordering comparison (`<`, `<=`, `>`, `>=`) of a
/// coordinate value: comparing it with a nonzero integer (`E(0) < 1`) is a
/// `ValueError`, as in the reference (the library's kind is `type`).
fn cmp_pyerr(e: rcute::Error) -> PyErr {
    match e.kind() {
        ErrorKind::Type => PyValueError::new_err(format!("value: {}", e.message())),
        _ => to_pyerr(e),
    }
}

/// Empty base class of `Layout` (the reference's `LayoutBase`).
#[pyclass(subclass, module = "rcute", name = "LayoutBase")]
struct LayoutBase;

#[pymethods]
impl LayoutBase {
    #[new]
    fn new() -> Self {
        LayoutBase
    }
}

/// `Layout(shape, stride=1)`: a CuTe layout (`docs/language.md`, "Layouts"). `stride` may be
/// weakly congruent to `shape`: a scalar stands for the prefix product
/// starting at it. Symbols (`Symbol`, `SymInt`, sympy expressions) in the
/// shape or stride give a layout with symbols (`docs/python.md`).
#[pyclass(extends = LayoutBase, module = "rcute", name = "Layout", frozen)]
struct PyLayout {
    /// Boxed: building the Python object moves its value several times, and
    /// a 272-byte layout costs a copy each time where a pointer does not.
    /// For a layout with symbols (`sym`), the placeholder `1:0`, never read:
    /// every reader of `inner` looks at `sym` first (the typed paths through
    /// [`fast::as_layout`], which answers `None` for it).
    inner: fast::LayoutBox,
    /// The layout with symbols this object is, if it is one.
    sym: Option<Box<SymPart>>,
    /// The vectorcall of `L(c)` (`vcall`), read by the interpreter at a
    /// fixed offset in every `Layout` object.
    vectorcall: pyo3::ffi::vectorcallfunc,
    /// `.shape` and `.stride` as Python values, made at the first read
    /// (a `Layout` never changes; the values are tuples of ints and of
    /// frozen stride scalars, so sharing them is safe).
    shape_py: GILOnceCell<PyObject>,
    stride_py: GILOnceCell<PyObject>,
}

/// A layout with symbols held by a `Layout` object.
struct SymPart {
    layout: SymLayout,
    /// True when sympy expressions went into it: its symbolic values (shape,
    /// stride, `L(i)`, and the results of operations on it) come back as
    /// sympy expressions.
    sympy: bool,
}

impl PyLayout {
    /// The Python-side value of the layout `l`.
    #[inline(always)]
    fn wrap(l: RLayout) -> Self {
        PyLayout::boxed(Box::new(l))
    }

    /// The Python-side value of the boxed layout `l`.
    #[inline(always)]
    fn boxed(l: Box<RLayout>) -> Self {
        PyLayout {
            inner: fast::LayoutBox::new(l),
            sym: None,
            vectorcall: vcall::LAYOUT_CALL,
            shape_py: GILOnceCell::new(),
            stride_py: GILOnceCell::new(),
        }
    }

    /// The Python-side value of the layout with symbols `l`.
    fn symbolic(l: SymLayout, sympy: bool) -> Self {
        let mut placeholder = fast::LayoutBox::take();
        *placeholder = RLayout::leaf(1, Scalar::Int(0));
        PyLayout {
            inner: fast::LayoutBox::new(placeholder),
            sym: Some(Box::new(SymPart { layout: l, sympy })),
            vectorcall: vcall::LAYOUT_CALL,
            shape_py: GILOnceCell::new(),
            stride_py: GILOnceCell::new(),
        }
    }

    /// True when the object is a layout with symbols.
    pub(crate) fn has_symbols(&self) -> bool {
        self.sym.is_some()
    }

    /// The layout of a drawing or a printed table: a `TypeError` for a
    /// layout with symbols.
    fn drawable(&self) -> PyResult<&RLayout> {
        match &self.sym {
            Some(p) => Err(PyTypeError::new_err(format!(
                "type: the layout with symbols {} cannot be drawn or printed as a table \
                 (substitute values with subs first)",
                p.layout
            ))),
            None => Ok(&self.inner),
        }
    }
}

/// The Python object of a layout with symbols (a plain `Layout` when no
/// leaf depends on a symbol); `sympy` as [`SymPart::sympy`].
fn sym_layout_obj(py: Python<'_>, l: SymLayout, sympy: bool) -> PyResult<PyObject> {
    match l.to_concrete() {
        Some(c) => fast::layout_obj(py, c),
        None => Ok(Py::new(py, (PyLayout::symbolic(l, sympy), LayoutBase))?.into_any()),
    }
}

/// The object of a layout's `shape` or `stride` attribute, made once and
/// kept in `cell` (a layout never changes): for a layout with symbols the
/// tuple of its leaves `sym` (sympy expressions where sympy built it),
/// otherwise the typed converter `obj` (the notation value `value`, when
/// the typed paths are off).
fn tuple_attr(
    py: Python<'_>,
    cell: &GILOnceCell<PyObject>,
    sym: Option<(rcute::HRef<'_, rcute::sym::SymInt>, bool)>,
    value: impl FnOnce() -> Value,
    obj: impl FnOnce() -> PyResult<PyObject>,
) -> PyResult<PyObject> {
    if !fast::enabled() && sym.is_none() {
        return from_value(py, value());
    }
    cell.get_or_try_init(py, || match sym {
        Some((t, sympy)) => {
            let v = Value::from_htuple(t, |x| Value::from_sym(x.clone()));
            maybe_sympy(py, from_value(py, v)?, sympy)
        }
        None => obj(),
    })
    .map(|v| v.clone_ref(py))
}

/// `v` with its symbolic integers as sympy expressions when `sympy`.
fn maybe_sympy(py: Python<'_>, v: PyObject, sympy: bool) -> PyResult<PyObject> {
    if !sympy {
        return Ok(v);
    }
    Ok(py
        .import("rcute")?
        .getattr("_to_sympy")?
        .call1((v,))?
        .unbind())
}

fn none_to_zero(v: Value) -> Value {
    match v {
        Value::None => Value::Int(0),
        Value::Tuple(items) => Value::Tuple(items.into_iter().map(none_to_zero).collect()),
        v => v,
    }
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride = None))]
    fn new(
        shape: &Bound<'_, PyAny>,
        stride: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Self, LayoutBase)> {
        if fast::enabled() {
            if let Some(l) = fast_layout(shape, stride) {
                return Ok((PyLayout::boxed(l), LayoutBase));
            }
        }
        symbolic::begin_call();
        let mut args = vec![to_value(shape, 0)?];
        if let Some(d) = stride {
            args.push(to_value(d, 0)?);
        }
        let r = notation::call("Layout", &[], args, vec![]);
        let sympy = symbolic::take_sympy_seen();
        match r.map_err(to_pyerr)? {
            Value::Layout(l) => Ok((PyLayout::wrap(l), LayoutBase)),
            Value::SymLayout(l) => Ok((PyLayout::symbolic(*l, sympy), LayoutBase)),
            v => Err(PyTypeError::new_err(format!("Layout: unexpected {v}"))),
        }
    }

    /// The shape, as a Python int or tuple.
    // (`SymInt` leaves for a layout with symbols; sympy expressions when
    // sympy built it)
    #[getter]
    pub(crate) fn shape(&self, py: Python<'_>) -> PyResult<PyObject> {
        tuple_attr(
            py,
            &self.shape_py,
            self.sym
                .as_ref()
                .map(|p| (p.layout.shape().as_ref(), p.sympy)),
            || Value::from_shape(self.inner.shape()),
            || fast::shape_obj(py, self.inner.shape().as_ref()),
        )
    }

    /// The stride, as a Python tuple of `int`, `ArithTuple` or `F2` leaves.
    // (`SymInt` leaves for a layout with symbols, as `shape`)
    #[getter]
    pub(crate) fn stride(&self, py: Python<'_>) -> PyResult<PyObject> {
        tuple_attr(
            py,
            &self.stride_py,
            self.sym.as_ref().map(|p| (p.layout.stride(), p.sympy)),
            || Value::from_stride(self.inner.stride()),
            || fast::stride_obj(py, self.inner.stride()),
        )
    }

    /// `L(c)` / `L(c0, c1, ...)`: evaluation at an integral, flat or natural
    /// coordinate; `None` reads as 0, as in the reference (slice with
    /// `slice_and_offset`).
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        if let Some(r) = self.fast_call(py, args)? {
            return Ok(r);
        }
        symbolic::begin_call();
        let c = if args.len() == 1 {
            to_value(&args.get_item(0)?, 0)
        } else {
            to_value(args.as_any(), 0)
        };
        let sympy = symbolic::take_sympy_seen();
        let c = none_to_zero(c?);
        if let Some(p) = &self.sym {
            // an index or a coordinate of ints and symbols
            let r = notation::eval::eval_sym_layout(&p.layout, &c).map_err(to_pyerr)?;
            return maybe_sympy(py, from_value(py, r)?, sympy || p.sympy);
        }
        if c.has_sym() {
            // a symbolic index or coordinate of a layout without symbols
            let r = notation::eval::eval_layout(&self.inner, &c).map_err(to_pyerr)?;
            return maybe_sympy(py, from_value(py, r)?, sympy);
        }
        let coord = c.to_coord().map_err(to_pyerr)?;
        let r = self.inner.eval(coord.as_ref()).map_err(to_pyerr)?;
        from_value(py, Value::from_scalar(r))
    }

    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let i: i64 = key.extract()?;
        if let Some(p) = &self.sym {
            let m = p.layout.mode(i).map_err(to_pyerr)?;
            return sym_layout_obj(py, m, p.sympy);
        }
        let m = self.inner.mode(i).map_err(to_pyerr)?;
        fast::layout_obj(py, m)
    }

    fn __len__(&self) -> usize {
        match &self.sym {
            Some(p) => p.layout.rank(),
            None => self.inner.rank(),
        }
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        let modes: Vec<PyObject> = match &self.sym {
            Some(p) => p
                .layout
                .modes()
                .map(|m| sym_layout_obj(py, m, p.sympy))
                .collect::<PyResult<_>>()?,
            None => self
                .inner
                .modes()
                .map(|m| from_value(py, Value::Layout(m)))
                .collect::<PyResult<_>>()?,
        };
        let list = PyList::new(py, modes)?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Some(p) = &self.sym {
            return match other.downcast::<PyLayout>() {
                Ok(o) => o.get().sym.as_ref().is_some_and(|q| q.layout == p.layout),
                Err(_) => false,
            };
        }
        match fast::as_layout(other) {
            Some(o) => *o.get().inner == *self.inner,
            None => false,
        }
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __str__(&self) -> String {
        match &self.sym {
            Some(p) => p.layout.to_string(),
            None => self.inner.to_string(),
        }
    }

    fn __repr__(&self) -> String {
        match &self.sym {
            Some(p) => format!("Layout({}, {})", p.layout.shape(), p.layout.stride()),
            None => self.inner.repr(),
        }
    }

    /// The layout with the symbols given substituted: `L.subs(N=128)` or
    /// `L.subs({'N': 128})` (as `SymInt.subs`); a plain layout once every
    /// symbol has a value. `ValueError` for a value that violates its
    /// symbol's facts. A layout without symbols is returned as it is.
    #[pyo3(signature = (values=None, /, **kwargs))]
    fn subs(
        slf: &Bound<'_, Self>,
        values: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let py = slf.py();
        let this = slf.get();
        let Some(p) = &this.sym else {
            return Ok(slf.clone().into_any().unbind());
        };
        let vals = symbolic::subs_values(values, kwargs)?;
        let refs: Vec<(&str, i64)> = vals.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        sym_layout_obj(py, p.layout.subs(&refs).map_err(to_pyerr)?, p.sympy)
    }

    /// The same layout whose symbolic values come back as sympy
    /// expressions (what the module's `_to_sympy` makes of a layout with
    /// symbols in the result of a call with sympy operands).
    fn _with_sympy(slf: &Bound<'_, Self>) -> PyResult<PyObject> {
        let py = slf.py();
        match &slf.get().sym {
            Some(p) if !p.sympy => sym_layout_obj(py, p.layout.clone(), true),
            _ => Ok(slf.clone().into_any().unbind()),
        }
    }

    /// The symbols the layout depends on, with their facts:
    /// `[(name, divisible_by, min), ...]` in the order they first appear in
    /// the shape, then the stride (as `SymInt.symbols`); `[]` for a layout
    /// without symbols.
    fn symbols(&self) -> Vec<(String, i64, i64)> {
        let mut out: Vec<(String, i64, i64)> = Vec::new();
        if let Some(p) = &self.sym {
            let l = &p.layout;
            for x in l.shape().leaves().iter().chain(l.stride().leaves()) {
                for (n, f) in x.symbols() {
                    if !out.iter().any(|(m, _, _)| *m == n) {
                        out.push((n, f.divisor, f.min));
                    }
                }
            }
        }
        out
    }
}

impl PyLayout {
    /// `L(c)` on the typed core when the coordinate is an int or a tuple
    /// the direct conversion reads (`None` reads as 0); `Ok(None)` for any
    /// other coordinate or an error (the generic path then reports it).
    #[inline]
    fn fast_call(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Option<PyObject>> {
        if !fast::enabled() || self.sym.is_some() {
            return Ok(None);
        }
        if args.len() == 1 {
            let a = args.get_borrowed_item(0)?;
            return self.fast_call1(py, &a);
        }
        let r = match fast::coord_of(args.as_any(), true) {
            Some(c) => self.inner.eval(c.as_ref()),
            None => return Ok(None),
        };
        match r {
            Ok(v) => fast::scalar_obj(py, &v).map(Some),
            Err(_) => Ok(None),
        }
    }

    /// `L(c)` of one argument `c` on the typed core, as [`Self::fast_call`].
    #[inline]
    fn fast_call1(&self, py: Python<'_>, a: &Bound<'_, PyAny>) -> PyResult<Option<PyObject>> {
        if !fast::enabled() || self.sym.is_some() {
            return Ok(None);
        }
        let r = match fast::int_of(a) {
            Some(i) => self.inner.eval_index(i),
            None => {
                if let Ok(t) = a.downcast::<PyTuple>() {
                    // a tuple of ints and `None`s: walked without building it
                    if let Some(v) = fast::eval_int_coord(&self.inner, t.iter_borrowed()) {
                        return v.into_py_any(py).map(Some);
                    }
                }
                match fast::coord_of(a, true) {
                    Some(c) => self.inner.eval(c.as_ref()),
                    None => return Ok(None),
                }
            }
        };
        match r {
            Ok(v) => fast::scalar_obj(py, &v).map(Some),
            Err(_) => Ok(None),
        }
    }
}

/// The layout `Layout(shape, stride)` on the typed core, when the shape and
/// stride are ints, tuples and stride scalars the direct conversion reads;
/// `None` otherwise or on an error (the generic path then reports it).
/// Read straight into the layout's box ([`fast::layout_of`]); a stride
/// scalar other than an int seeding a sub-shape's prefix products is read
/// into separate values and expanded by `Layout::with_stride`.
#[inline]
pub(crate) fn fast_layout(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
) -> Option<Box<RLayout>> {
    match fast::layout_of(shape, stride) {
        Ok(l) => return Some(l),
        Err(fast::NotBuilt::Other) => return None,
        Err(fast::NotBuilt::ScalarSeed) => {}
    }
    let s = fast::shape_of(shape)?;
    let l = match stride {
        None => RLayout::column_major(s).ok(),
        Some(d) => {
            let d = fast::stride_of(d)?;
            if s.as_ref().congruent(d.as_ref()) {
                // a congruent stride is its own prefix-product expansion:
                // the layout `with_stride` builds, without rebuilding it
                RLayout::new(s, d).ok()
            } else {
                RLayout::with_stride(s, d.as_ref()).ok()
            }
        }
    };
    l.map(Box::new)
}

/// A coordinate value (the reference's `ArithTuple`): `ArithTuple(3, 5)`
/// is `3*E(0) + 5*E(1)`, printed `(3, 5)`.
#[pyclass(module = "rcute", name = "ArithTuple", frozen)]
#[derive(Clone)]
struct PyArithTuple {
    inner: Scalar,
}

/// An F2 value `F(n)`: XOR addition, carry-less multiplication, printed `F<n>`.
#[pyclass(module = "rcute", name = "F2", frozen)]
#[derive(Clone)]
struct PyF2 {
    value: i64,
}

fn scalar_of(ob: &Bound<'_, PyAny>) -> PyResult<Scalar> {
    match to_value(ob, 0)? {
        Value::Int(v) => Ok(Scalar::Int(v)),
        Value::Scalar(s) => Ok(s),
        Value::Tuple(items) => {
            let v = Value::Tuple(items);
            v.to_coord_value("ArithTuple").map_err(to_pyerr)
        }
        v => Err(PyTypeError::new_err(format!(
            "expected a stride scalar, got {v}"
        ))),
    }
}

fn scalar_obj(py: Python<'_>, s: Scalar) -> PyResult<PyObject> {
    from_value(py, Value::from_scalar(s))
}

trait ScalarLike {
    fn scalar(&self) -> Scalar;
}
impl ScalarLike for PyArithTuple {
    fn scalar(&self) -> Scalar {
        self.inner.clone()
    }
}
impl ScalarLike for PyF2 {
    fn scalar(&self) -> Scalar {
        Scalar::F2(self.value)
    }
}

/// The `#[pymethods]` block of a stride scalar class: the class's own
/// methods (written at the call site, attribute included, so that pyo3's
/// generated names resolve) and the arithmetic shared by the scalars.
macro_rules! scalar_class {
    ($pound:tt $attr:tt impl $ty:ty { $($extra:tt)* }) => {
        $pound $attr
        impl $ty {
            $($extra)*
            fn __add__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let r = self.scalar().add(&scalar_of(o)?).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __radd__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let r = scalar_of(o)?.add(&self.scalar()).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __sub__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let r = self.scalar().sub(&scalar_of(o)?).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __rsub__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let r = scalar_of(o)?.sub(&self.scalar()).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __mul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let r = self.scalar().mul(&scalar_of(o)?).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __rmul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
                let r = scalar_of(o)?.mul(&self.scalar()).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __neg__(&self, py: Python<'_>) -> PyResult<PyObject> {
                let r = self.scalar().neg().map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __matmul__(&self, py: Python<'_>, i: i64) -> PyResult<PyObject> {
                let r = self.scalar().at(i).map_err(to_pyerr)?;
                scalar_obj(py, r)
            }
            fn __eq__(&self, o: &Bound<'_, PyAny>) -> bool {
                match scalar_of(o) {
                    Ok(s) => self.scalar() == s,
                    Err(_) => false,
                }
            }
            fn __ne__(&self, o: &Bound<'_, PyAny>) -> bool {
                !self.__eq__(o)
            }
            fn __lt__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
                Ok(self.scalar().try_cmp(&scalar_of(o)?).map_err(cmp_pyerr)?.is_lt())
            }
            fn __le__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
                Ok(self.scalar().try_cmp(&scalar_of(o)?).map_err(cmp_pyerr)?.is_le())
            }
            fn __gt__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
                Ok(self.scalar().try_cmp(&scalar_of(o)?).map_err(cmp_pyerr)?.is_gt())
            }
            fn __ge__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
                Ok(self.scalar().try_cmp(&scalar_of(o)?).map_err(cmp_pyerr)?.is_ge())
            }
            fn __str__(&self) -> String {
                self.scalar().to_string()
            }
            fn __repr__(&self) -> String {
                self.scalar().to_string()
            }
        }
    };
}

// (one `#[pymethods]` block per class: with pyo3's `multiple-pymethods`
// every type-object lookup, hence every `downcast`, allocates)
scalar_class!(
    #[pymethods]
    impl PyArithTuple {
        #[new]
        #[pyo3(signature = (*args))]
        fn new(args: &Bound<'_, PyTuple>) -> PyResult<Self> {
            let v = if args.len() == 1 {
                to_value(&args.get_item(0)?, 0)?
            } else {
                to_value(args.as_any(), 0)?
            };
            let s = match v {
                Value::Tuple(items) => Value::Tuple(items)
                    .to_coord_value("ArithTuple")
                    .map_err(to_pyerr)?,
                v => v.to_scalar("ArithTuple").map_err(to_pyerr)?,
            };
            Ok(PyArithTuple { inner: s })
        }

        /// The explicit children as a plain tuple (`as_tuple`).
        fn as_tuple(&self, py: Python<'_>) -> PyResult<PyObject> {
            from_value(py, Value::from_stride(&self.inner.as_tuple()))
        }

        fn __len__(&self) -> usize {
            match &self.inner {
                Scalar::Coord(c) => c.children().len(),
                _ => 0,
            }
        }

        fn __getitem__(&self, py: Python<'_>, i: usize) -> PyResult<PyObject> {
            match &self.inner {
                Scalar::Coord(c) => match c.children().get(i) {
                    Some(x) => scalar_obj(py, x.clone()),
                    None => Err(PyIndexError::new_err(format!(
                        "ArithTuple index {i} out of range"
                    ))),
                },
                _ => Err(PyIndexError::new_err("ArithTuple has no children")),
            }
        }
    }
);

scalar_class!(
    #[pymethods]
    impl PyF2 {
        #[new]
        fn new(value: &Bound<'_, PyAny>) -> PyResult<Self> {
            if let Ok(f) = value.downcast::<PyF2>() {
                return Ok(f.get().clone());
            }
            let value: i64 = value.extract()?;
            if value < 0 {
                return Err(PyValueError::new_err(format!(
                    "value: F2: the value {value} is negative; an F2 value is a non-negative bit vector"
                )));
            }
            Ok(PyF2 { value })
        }
        /// The integer value.
        #[getter]
        fn value(&self) -> i64 {
            self.value
        }
        fn __int__(&self) -> i64 {
            self.value
        }
        fn __index__(&self) -> i64 {
            self.value
        }
        fn __hash__(&self) -> u64 {
            self.value as u64
        }
        /// Polynomial division over GF(2) (`rcute::f2::divmod`): the divisor
        /// is an integer (not `bool`) or an F2 value.
        fn __divmod__(
            &self,
            py: Python<'_>,
            d: &Bound<'_, PyAny>,
        ) -> PyResult<(PyObject, PyObject)> {
            let d = if let Ok(f) = d.downcast::<PyF2>() {
                f.get().value
            } else if d.downcast::<PyInt>().is_ok() && d.downcast::<PyBool>().is_err() {
                d.extract::<i64>()?
            } else {
                return Err(PyTypeError::new_err(format!(
                    "type: divmod(F2, {}): the divisor must be an integer or an F2 value",
                    d.get_type().name()?
                )));
            };
            if d == 0 {
                return Err(pyo3::exceptions::PyZeroDivisionError::new_err(
                    "F2 division by zero",
                ));
            }
            let (q, r) = rcute::f2::divmod(self.value, d).map_err(to_pyerr)?;
            Ok((
                PyF2 { value: q }.into_py_any(py)?,
                PyF2 { value: r }.into_py_any(py)?,
            ))
        }
    }
);

/// `Swizzle(bits, base, shift)`: the swizzle functor on integers
/// (`docs/language.md`, "Swizzles"); invalid parameters raise `ValueError`.
#[pyclass(module = "rcute", name = "Swizzle", frozen)]
#[derive(Clone)]
struct PySwizzle {
    inner: RSwizzle,
}

#[pymethods]
impl PySwizzle {
    #[new]
    fn new(bits: i64, base: i64, shift: i64) -> PyResult<Self> {
        Ok(PySwizzle {
            inner: RSwizzle::new(bits, base, shift).map_err(to_pyerr)?,
        })
    }
    #[getter]
    fn bits(&self) -> i64 {
        self.inner.bits()
    }
    #[getter]
    fn base(&self) -> i64 {
        self.inner.base()
    }
    #[getter]
    fn shift(&self) -> i64 {
        self.inner.shift()
    }
    /// The swizzled offset of `x`.
    fn __call__(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let r = notation::apply(&Value::Swizzle(self.inner), vec![to_value(x, 0)?])
            .map_err(to_pyerr)?;
        from_value(py, r)
    }
    fn __eq__(&self, o: &Bound<'_, PyAny>) -> bool {
        o.downcast::<PySwizzle>()
            .map(|s| s.get().inner == self.inner)
            .unwrap_or(false)
    }
    fn __str__(&self) -> String {
        notation::format_value(&Value::Swizzle(self.inner), Style::Str)
    }
    fn __repr__(&self) -> String {
        self.inner.repr()
    }
}

/// A swizzled layout `Swizzle o Layout` (C++ `ComposedLayout`).
#[pyclass(extends = LayoutBase, module = "rcute", name = "ComposedLayout", frozen)]
#[derive(Clone)]
struct PyComposedLayout {
    inner: SwizzledLayout,
}

#[pymethods]
impl PyComposedLayout {
    /// The swizzled offset at an integral, flat or natural coordinate.
    #[pyo3(signature = (*args))]
    fn __call__(&self, args: &Bound<'_, PyTuple>) -> PyResult<i64> {
        let c = if args.len() == 1 {
            to_value(&args.get_item(0)?, 0)?
        } else {
            to_value(args.as_any(), 0)?
        };
        let coord = none_to_zero(c).to_coord().map_err(to_pyerr)?;
        self.inner.eval(coord.as_ref()).map_err(to_pyerr)
    }
    #[getter]
    fn swizzle(&self) -> PySwizzle {
        PySwizzle {
            inner: self.inner.swizzle(),
        }
    }
    /// The offset added before the swizzle (C++'s middle `offset` of
    /// `Sw o offset o L`; 0 unless the value came from a slice).
    #[getter]
    fn offset(&self) -> i64 {
        self.inner.offset()
    }
    #[getter]
    fn layout(&self, py: Python<'_>) -> PyResult<PyObject> {
        from_value(py, Value::Layout(self.inner.layout().clone()))
    }
    #[getter]
    fn shape(&self, py: Python<'_>) -> PyResult<PyObject> {
        from_value(py, Value::from_shape(self.inner.layout().shape()))
    }
    /// Mode `i` under the same swizzle and offset (C++ `layout<I>` /
    /// `get<I>` of a `ComposedLayout`).
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let i: i64 = key.extract()?;
        let m = self.inner.mode(i).map_err(to_pyerr)?;
        from_value(py, Value::Swizzled(m))
    }

    /// The rank of the inner layout.
    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    /// The modes, each under the same swizzle and offset.
    fn __iter__(&self, py: Python<'_>) -> PyResult<PyObject> {
        let modes: Vec<PyObject> = (0..self.inner.rank())
            .map(|i| {
                let m = self.inner.mode(i as i64).map_err(to_pyerr)?;
                from_value(py, Value::Swizzled(m))
            })
            .collect::<PyResult<_>>()?;
        let list = PyList::new(py, modes)?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.downcast::<PyComposedLayout>() {
            Ok(o) => o.get().inner == self.inner,
            Err(_) => false,
        }
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __str__(&self) -> String {
        notation::format_value(&Value::Swizzled(self.inner.clone()), Style::Str)
    }
    fn __repr__(&self) -> String {
        self.inner.repr()
    }
}

// A notation operation exposed as a Python callable; subscripting adds a
// mode path (`size[0, 1](A)`), like the reference's `ModeOpDecorator`.
// (No doc comment: a class docstring would hide the `__doc__` getter, which
// gives each operation its own docstring from the operation table.)
#[pyclass(module = "rcute", name = "Operation", frozen)]
struct Op {
    /// The vectorcall of `op(...)` (`vcall`), read by the interpreter at a
    /// fixed offset in every operation object.
    vectorcall: pyo3::ffi::vectorcallfunc,
    op: &'static Operation,
    mode: Vec<i64>,
    /// The typed fast path of plain calls (no mode path).
    fast: Fast,
    /// The Python module's dispatch rule for operands the typed paths do not
    /// read (objects of other libraries answering through their hooks,
    /// `None` operands): `rule(op, mode, args, kwargs)` with the operation
    /// without its rule. Called only when the fast path does not answer, so
    /// the common calls never leave Rust.
    rule: Option<PyObject>,
}

impl Op {
    /// Calls `rule(op, mode, args, kwargs)`: `op` this operation without its
    /// rule and mode path, `mode` the path plus a `mode=` keyword's indices,
    /// `kwargs` the other keywords.
    fn call_rule(
        &self,
        py: Python<'_>,
        rule: &PyObject,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let mut mode: Vec<PyObject> = Vec::with_capacity(self.mode.len());
        for i in &self.mode {
            mode.push(i.into_py_any(py)?);
        }
        let kw = PyDict::new(py);
        if let Some(k) = kwargs {
            for (key, v) in k.iter() {
                if key.extract::<&str>().is_ok_and(|k| k == "mode") {
                    if let Ok(t) = v.downcast::<PyTuple>() {
                        mode.extend(t.iter().map(|x| x.unbind()));
                    } else if let Ok(l) = v.downcast::<PyList>() {
                        mode.extend(l.iter().map(|x| x.unbind()));
                    } else {
                        mode.push(v.unbind());
                    }
                } else {
                    kw.set_item(key, v)?;
                }
            }
        }
        let plain = Op {
            vectorcall: vcall::OP_CALL,
            op: self.op,
            mode: Vec::new(),
            fast: self.fast,
            rule: None,
        };
        rule.call1(py, (Py::new(py, plain)?, PyTuple::new(py, mode)?, args, kw))
    }
}

#[pymethods]
impl Op {
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        if self.mode.is_empty() {
            if let Some(r) = fast::call(py, self.fast, args, kwargs)? {
                return Ok(r);
            }
        }
        if let Some(rule) = &self.rule {
            return self.call_rule(py, rule, args, kwargs);
        }
        symbolic::begin_call();
        let r = (|| {
            let mut a = Vec::with_capacity(args.len());
            for x in args.iter() {
                a.push(to_value(&x, 0)?);
            }
            let mut kw = Vec::new();
            if let Some(k) = kwargs {
                for (key, v) in k.iter() {
                    kw.push((key.extract::<String>()?, to_value(&v, 0)?));
                }
            }
            let r = notation::ops::call_operation(self.op, &self.mode, a, kw).map_err(to_pyerr)?;
            from_value(py, r)
        })();
        match r {
            Ok(r) => symbolic::finish_call(py, r),
            Err(e) => {
                // (no sympy context left behind for the next conversion)
                symbolic::take_sympy_seen();
                Err(e)
            }
        }
    }

    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<Op> {
        let mut mode = self.mode.clone();
        if let Ok(t) = key.downcast::<PyTuple>() {
            for x in t.iter() {
                mode.push(x.extract()?);
            }
        } else {
            mode.push(key.extract()?);
        }
        Ok(Op {
            vectorcall: vcall::OP_CALL,
            op: self.op,
            mode,
            fast: self.fast,
            rule: self.rule.as_ref().map(|r| r.clone_ref(key.py())),
        })
    }

    /// The operation with the dispatch rule `rule` in front (set once, by the
    /// Python module, for the operations whose operands may be objects of
    /// other libraries).
    fn _with_rule(&self, rule: PyObject) -> Op {
        Op {
            vectorcall: vcall::OP_CALL,
            op: self.op,
            mode: self.mode.clone(),
            fast: self.fast,
            rule: Some(rule),
        }
    }

    #[getter]
    fn __name__(&self) -> &'static str {
        self.op.name
    }

    #[getter]
    fn __doc__(&self) -> String {
        docstring(self.op)
    }

    /// The `inspect.Signature` of the operation (built by
    /// `rcute._signature_of` from the operation table's parameters).
    #[getter]
    fn __signature__(&self, py: Python<'_>) -> PyResult<PyObject> {
        Ok(py
            .import("rcute")?
            .getattr("_signature_of")?
            .call1((self.op.name,))?
            .unbind())
    }

    fn __repr__(&self) -> String {
        if self.mode.is_empty() {
            format!("<rcute operation {}>", self.op.name)
        } else {
            let m: Vec<String> = self.mode.iter().map(|x| x.to_string()).collect();
            format!("<rcute operation {}[{}]>", self.op.name, m.join(", "))
        }
    }
}

/// Python value -> notation value.
fn to_value(ob: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(
            "value: nesting deeper than 64 levels",
        ));
    }
    if ob.is_none() {
        return Ok(Value::None);
    }
    if let Ok(b) = ob.downcast::<PyBool>() {
        return Ok(Value::Int(b.is_true() as i64));
    }
    if let Ok(i) = ob.downcast::<PyInt>() {
        return i.extract::<i64>().map(Value::Int).map_err(|_| {
            PyOverflowError::new_err(format!("overflow: {i} does not fit in 64 bits"))
        });
    }
    if let Ok(t) = ob.downcast::<PyTuple>() {
        let mut v = Vec::with_capacity(t.len());
        for x in t.iter() {
            v.push(to_value(&x, depth + 1)?);
        }
        return Ok(Value::Tuple(v));
    }
    if let Some(l) = fast::as_layout(ob) {
        return Ok(Value::Layout((*l.get().inner).clone()));
    }
    if let Ok(l) = ob.downcast::<PyLayout>() {
        if let Some(p) = &l.get().sym {
            if p.sympy {
                symbolic::mark_sympy_seen();
            }
            return Ok(Value::SymLayout(Box::new(p.layout.clone())));
        }
    }
    if let Some(v) = symbolic::to_value(ob)? {
        return Ok(v);
    }
    if let Ok(a) = ob.downcast::<PyArithTuple>() {
        return Ok(Value::from_scalar(a.get().inner.clone()));
    }
    if let Ok(f) = ob.downcast::<PyF2>() {
        return Ok(Value::Scalar(Scalar::F2(f.get().value)));
    }
    if let Ok(l) = ob.downcast::<PyList>() {
        let mut v = Vec::with_capacity(l.len());
        for x in l.iter() {
            v.push(to_value(&x, depth + 1)?);
        }
        return Ok(Value::Tuple(v));
    }
    if let Ok(s) = ob.downcast::<PySwizzle>() {
        return Ok(Value::Swizzle(s.get().inner));
    }
    if let Ok(s) = ob.downcast::<PyComposedLayout>() {
        return Ok(Value::Swizzled(s.get().inner.clone()));
    }
    if ob.downcast::<PyString>().is_err() {
        let ty = ob.get_type().name()?.to_string();
        if ty == "Fraction" {
            let n: i64 = ob.getattr("numerator")?.extract()?;
            let d: i64 = ob.getattr("denominator")?.extract()?;
            return Value::fraction(n, d).map_err(to_pyerr);
        }
        if ob.hasattr("__index__")? {
            let i: i64 = ob.call_method0("__index__")?.extract()?;
            return Ok(Value::Int(i));
        }
    }
    Err(PyTypeError::new_err(format!(
        "type: cannot use the {} value {} in the layout algebra",
        ob.get_type().name()?,
        ob.repr()?
    )))
}

/// Notation value -> Python value.
fn from_value(py: Python<'_>, v: Value) -> PyResult<PyObject> {
    Ok(match v {
        Value::Int(i) => i.into_py_any(py)?,
        Value::Sym(s) => symbolic::sym_obj(py, s)?,
        Value::Fact(s) => s.into_py_any(py)?,
        Value::Scalar(Scalar::F2(f)) => PyF2 { value: f }.into_py_any(py)?,
        Value::Scalar(s) => PyArithTuple { inner: s }.into_py_any(py)?,
        Value::None => py.None(),
        Value::Bool(b) => b.into_py_any(py)?,
        Value::Layout(l) => fast::layout_obj(py, l)?,
        // (its symbolic values become sympy expressions when the call that
        // made it had sympy operands: `symbolic::finish_call` marks it)
        Value::SymLayout(l) => sym_layout_obj(py, *l, false)?,
        Value::Swizzle(s) => PySwizzle { inner: s }.into_py_any(py)?,
        Value::Swizzled(s) => Py::new(py, (PyComposedLayout { inner: s }, LayoutBase))?.into_any(),
        Value::Fraction(n, d) => {
            let frac = py.import("fractions")?.getattr("Fraction")?;
            frac.call1((n, d))?.unbind()
        }
        Value::Tuple(items) => {
            let objs: Vec<PyObject> = items
                .into_iter()
                .map(|x| from_value(py, x))
                .collect::<PyResult<_>>()?;
            PyTuple::new(py, objs)?.into_any().unbind()
        }
        Value::List(items) => {
            let objs: Vec<PyObject> = items
                .into_iter()
                .map(|x| from_value(py, x))
                .collect::<PyResult<_>>()?;
            PyList::new(py, objs)?.into_any().unbind()
        }
        // tensors: the Python classes of the same name; a memory tensor's
        // elements are copied into a fresh `Array` of 64-bit integers
        Value::Tensor(t) => {
            let m = py.import("rcute")?;
            let (acc, layout) = t.into_parts();
            let base = from_value(py, Value::from_scalar(acc.base().clone()))?;
            let acc = m.getattr("ImplicitAccessor")?.call1((base,))?;
            m.getattr("Tensor")?
                .call1((acc, fast::layout_obj(py, layout)?))?
                .unbind()
        }
        Value::Array(t) => {
            let m = py.import("rcute")?;
            let (acc, layout) = t.into_parts();
            let data = acc.data();
            let c_longlong = py.import("ctypes")?.getattr("c_longlong")?;
            let arr = m.getattr("Array")?.call1((data.len(), c_longlong))?;
            for (i, x) in data.iter().enumerate() {
                arr.set_item(i, *x)?;
            }
            let acc = if acc.base() == 0 {
                arr
            } else {
                arr.call_method1("__add__", (acc.base(),))?
            };
            m.getattr("Tensor")?
                .call1((acc, fast::layout_obj(py, layout)?))?
                .unbind()
        }
        #[allow(unreachable_patterns)]
        other => {
            return Err(PyTypeError::new_err(format!(
                "type: the {} value {other} has no Python form yet",
                other.kind_name()
            )))
        }
    })
}

/// `E(*seq)`: the unit basis vector at the path `seq` (`E()` is `1`).
#[pyfunction(name = "E")]
#[pyo3(signature = (*seq))]
fn basis_e(py: Python<'_>, seq: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
    let mut args = Vec::new();
    for x in seq.iter() {
        args.push(to_value(&x, 0)?);
    }
    from_value(
        py,
        notation::call("E", &[], args, vec![]).map_err(to_pyerr)?,
    )
}

/// `ScaledBasis(value, seq=())`: `value` at the basis path `seq`.
#[pyfunction(name = "ScaledBasis")]
#[pyo3(signature = (value, seq = None))]
fn scaled_basis(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    seq: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let v = scalar_of(value)?;
    let mut path = Vec::new();
    if let Some(s) = seq {
        if let Ok(i) = s.extract::<i64>() {
            path.push(i);
        } else {
            for x in s.try_iter()? {
                path.push(x?.extract::<i64>()?);
            }
        }
    }
    let p: Vec<usize> = path.iter().map(|&i| i.max(0) as usize).collect();
    if p.iter().any(|&i| i > 1 << 20) {
        return Err(PyValueError::new_err("value: basis index too large"));
    }
    scalar_obj(py, Scalar::scaled_basis(v, &p))
}

/// Evaluates one statement of the notation (`docs/language.md`) and returns its value.
#[pyfunction(name = "eval_notation")]
fn eval_notation(py: Python<'_>, src: &str) -> PyResult<PyObject> {
    from_value(py, notation::eval_value(src).map_err(to_pyerr)?)
}

/// An output style by name: the notation's printers (`"str"`, `"repr"`,
/// `"cpp"`) or the code emitters (`"cpp-type"`, `"cpp-make"`, `"dsl"`).
fn styled(v: &Value, style: &str) -> PyResult<Result<String, rcute::Error>> {
    use rcute::notation::emit::{emit, CodeStyle};
    let text = |st| Ok(Ok(notation::format_value(v, st)));
    match style {
        "str" => text(Style::Str),
        "repr" => text(Style::Repr),
        "cpp" => text(Style::Cpp),
        "cpp-type" => Ok(emit(v, CodeStyle::CppType)),
        "cpp-make" => Ok(emit(v, CodeStyle::CppMake)),
        "dsl" => Ok(emit(v, CodeStyle::Dsl)),
        s => Err(PyValueError::new_err(format!(
            "unknown style {s:?} (expected str, repr, cpp, cpp-type, cpp-make or dsl)"
        ))),
    }
}

/// Evaluates one statement of the notation and returns its printed text
/// (`style` is `"str"`, `"repr"`, `"cpp"`, or the code styles `"cpp-type"`,
/// `"cpp-make"`, `"dsl"`); errors print as `error: KIND: message`.
#[pyfunction(name = "eval_notation_str")]
#[pyo3(signature = (src, style = "str"))]
fn eval_notation_str(src: &str, style: &str) -> PyResult<String> {
    // an unknown style is an exception even when the statement fails
    let _ = styled(&Value::None, style)?;
    let out = match style {
        "str" => notation::eval_styled(src, Style::Str),
        "repr" => notation::eval_styled(src, Style::Repr),
        "cpp" => notation::eval_styled(src, Style::Cpp),
        _ => match notation::eval_value(src) {
            Ok(v) => styled(&v, style)?,
            Err(e) => Err(e),
        },
    };
    Ok(out.unwrap_or_else(|e| format!("error: {e}")))
}

/// Formats a value in one of the notation's styles (`"str"`, `"repr"`,
/// `"cpp"`) or as code (`"cpp-type"`, `"cpp-make"`, `"dsl"`; `TypeError`
/// for a value the style cannot express).
#[pyfunction(name = "format_value")]
#[pyo3(signature = (value, style = "str"))]
fn format_value(value: &Bound<'_, PyAny>, style: &str) -> PyResult<String> {
    styled(&to_value(value, 0)?, style)?.map_err(to_pyerr)
}

/// The syntax tree of one notation statement as nested tuples (for tests
/// and tools that drive the Python API from notation text):
/// `('int', v)`, `('f2', v)`, `('name', s)`, `('tuple', [..])`, `('neg', e)`,
/// `('bin', op, a, b)`, `('layout', s, d)`, `('call', f, [args], [(k, v)])`,
/// `('index', x, [i])`, `('assign', name, e)`, `('assume', [names], kind, v)`
/// (kind `'symbol'`, `'divisible'` or `'at_least'`); `None` for a blank line.
#[pyfunction(name = "_parse")]
fn parse(py: Python<'_>, src: &str) -> PyResult<PyObject> {
    use notation::parser::{parse_statement, Expr, ExprKind, Statement};
    fn conv(py: Python<'_>, e: &Expr) -> PyResult<PyObject> {
        let list = |v: &[Expr]| -> PyResult<PyObject> {
            let items: Vec<PyObject> = v.iter().map(|x| conv(py, x)).collect::<PyResult<_>>()?;
            Ok(PyList::new(py, items)?.into_any().unbind())
        };
        Ok(match &e.kind {
            ExprKind::Int(v) => ("int", *v).into_py_any(py)?,
            ExprKind::F2(v) => ("f2", *v).into_py_any(py)?,
            ExprKind::Name(n) => ("name", n.as_str()).into_py_any(py)?,
            ExprKind::Tuple(v) => ("tuple", list(v)?).into_py_any(py)?,
            ExprKind::Neg(x) => ("neg", conv(py, x)?).into_py_any(py)?,
            ExprKind::Binary(op, a, b) => {
                ("bin", op.symbol(), conv(py, a)?, conv(py, b)?).into_py_any(py)?
            }
            ExprKind::Layout(a, b) => ("layout", conv(py, a)?, conv(py, b)?).into_py_any(py)?,
            ExprKind::Call {
                callee,
                args,
                kwargs,
            } => {
                let kw: Vec<PyObject> = kwargs
                    .iter()
                    .map(|(k, v)| (k.as_str(), conv(py, v)?).into_py_any(py))
                    .collect::<PyResult<_>>()?;
                ("call", conv(py, callee)?, list(args)?, PyList::new(py, kw)?).into_py_any(py)?
            }
            ExprKind::Index(x, idx) => ("index", conv(py, x)?, list(idx)?).into_py_any(py)?,
        })
    }
    match parse_statement(src).map_err(to_pyerr)? {
        None => Ok(py.None()),
        Some(Statement::Expr(e)) => conv(py, &e),
        Some(Statement::Assign(n, e)) => ("assign", n.as_str(), conv(py, &e)?).into_py_any(py),
        Some(Statement::Assume(names, fact)) => {
            use notation::parser::Assumption;
            let (kind, v) = match fact {
                Assumption::Symbol => ("symbol", 1),
                Assumption::Divisible(d) => ("divisible", d),
                Assumption::AtLeast(b) => ("at_least", b),
            };
            ("assume", names, kind, v).into_py_any(py)
        }
    }
}

/// The notation's layout literal `S:D` (no prefix-product expansion; a
/// stride tuple at a leaf of the shape is one coordinate value).
#[pyfunction(name = "_layout_literal")]
fn layout_literal(
    py: Python<'_>,
    shape: &Bound<'_, PyAny>,
    stride: &Bound<'_, PyAny>,
) -> PyResult<PyObject> {
    let v =
        notation::layout_literal(&to_value(shape, 0)?, &to_value(stride, 0)?).map_err(to_pyerr)?;
    from_value(py, v)
}

// ------------------------------------------------------------------ drawings

/// The view (`viz::View`) of a layout, a swizzled layout, or a tensor over an
/// implicit accessor `{base} o L` (given as `(base, layout)`).
fn view_of(ob: &Bound<'_, PyAny>) -> PyResult<rcute::viz::View> {
    use rcute::viz::View;
    if let Ok(l) = ob.downcast::<PyLayout>() {
        return Ok(View::layout(l.get().drawable()?));
    }
    if let Ok(s) = ob.downcast::<PyComposedLayout>() {
        return Ok(View::swizzled(&s.get().inner));
    }
    if let Ok(t) = ob.downcast::<PyTuple>() {
        if t.len() == 2 {
            let base = scalar_of(&t.get_item(0)?)?;
            let lay = t.get_item(1)?;
            if let Ok(l) = lay.downcast::<PyLayout>() {
                return Ok(View::tensor(base, l.get().drawable()?));
            }
            if let Ok(s) = lay.downcast::<PyComposedLayout>() {
                return Ok(View::swizzled_tensor(base, &s.get().inner));
            }
        }
    }
    Err(PyTypeError::new_err(format!(
        "type: cannot draw or print {}",
        ob.repr()?
    )))
}

/// A colour: a named reference colour function (marked with the attribute
/// `_rcute_color`), `constant(rgb)` (attribute `_rcute_constant`) or any
/// Python callable returning an `(r, g, b)` triple.
fn color_of(ob: &Bound<'_, PyAny>) -> PyResult<rcute::viz::Color> {
    use rcute::viz::{Color, Rgb};
    if let Ok(name) = ob.getattr("_rcute_color") {
        return Color::from_name(&name.extract::<String>()?).map_err(to_pyerr);
    }
    if let Ok(rgb) = ob.getattr("_rcute_constant") {
        let (r, g, b): (u8, u8, u8) = rgb.extract()?;
        return Ok(Color::Constant(Rgb(r, g, b)));
    }
    if !ob.is_callable() {
        return Err(PyTypeError::new_err(
            "type: a colour must be a colour function",
        ));
    }
    let f: Py<PyAny> = ob.clone().unbind();
    Ok(Color::Custom(std::sync::Arc::new(move |key: &[i64]| {
        Python::with_gil(|py| {
            let args = PyTuple::new(py, key.iter().copied())
                .map_err(|e| rcute::Error::type_(e.to_string()))?;
            let r = f
                .call1(py, args)
                .map_err(|e| rcute::Error::type_(format!("colour function failed: {e}")))?;
            let (a, b, c): (u8, u8, u8) = r.extract(py).map_err(|e| {
                rcute::Error::type_(format!("colour function must return (r, g, b): {e}"))
            })?;
            Ok(Rgb(a, b, c))
        })
    })))
}

/// `(r, g, b)` of a named reference colour function at a cell key.
#[pyfunction(name = "_color")]
fn color_value(name: &str, key: Vec<i64>) -> PyResult<(u8, u8, u8)> {
    let c = rcute::viz::Color::from_name(name).map_err(to_pyerr)?;
    let rgb = match key.as_slice() {
        [i] => c.of_offset(*i),
        [t, v] => c.of_tv(*t, *v),
        _ => Err(rcute::Error::type_(format!(
            "{name}: expected 1 or 2 arguments"
        ))),
    }
    .map_err(to_pyerr)?;
    Ok((rgb.0, rgb.1, rgb.2))
}

/// The text `print_tensor` / `print_table` / C++ `print_layout` print.
#[pyfunction(name = "_print_text")]
fn print_text(kind: &str, ob: &Bound<'_, PyAny>, print_type: bool) -> PyResult<String> {
    let v = view_of(ob)?;
    match kind {
        "tensor" => rcute::viz::print_tensor(&v, print_type),
        "table" => rcute::viz::print_table(&v, print_type),
        "layout" => rcute::viz::print_layout(&v),
        k => return Err(PyValueError::new_err(format!("unknown printer {k:?}"))),
    }
    .map_err(to_pyerr)
}

fn shape_arg(ob: Option<&Bound<'_, PyAny>>) -> PyResult<Option<rcute::Shape>> {
    match ob {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(to_value(o, 0)?.to_shape().map_err(to_pyerr)?)),
    }
}

/// The layout and tile of a thread-value drawing.
fn tv_args<'a>(
    ob: &'a Bound<'_, PyAny>,
    tile_mn: Option<&Bound<'_, PyAny>>,
) -> PyResult<(&'a RLayout, Option<rcute::Shape>)> {
    let l = ob
        .downcast::<PyLayout>()
        .map_err(|_| PyTypeError::new_err("type: a thread-value drawing needs a Layout"))?;
    Ok((l.get().drawable()?, shape_arg(tile_mn)?))
}

/// The SVG (`fmt = "svg"`) or TikZ (`fmt = "tex"`) text of a drawing;
/// `tv` selects the thread-value drawers.
#[pyfunction(name = "_draw_text")]
#[pyo3(signature = (fmt, ob, color, tv = false, tile_mn = None))]
fn draw_text(
    fmt: &str,
    ob: &Bound<'_, PyAny>,
    color: &Bound<'_, PyAny>,
    tv: bool,
    tile_mn: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let c = color_of(color)?;
    if tv {
        let (l, tile) = tv_args(ob, tile_mn)?;
        return match fmt {
            "svg" => rcute::viz::draw_svg_tv(l, tile.as_ref(), &c),
            _ => rcute::viz::draw_latex_tv(l, tile.as_ref(), &c),
        }
        .map_err(to_pyerr);
    }
    let v = view_of(ob)?;
    match fmt {
        "svg" => rcute::viz::draw_svg(&v, &c),
        _ => rcute::viz::draw_latex(&v, &c),
    }
    .map_err(to_pyerr)
}

/// The PNG bytes of a drawing (`tv` selects the thread-value drawer);
/// `scale` multiplies the 20-pixel cells (`None`: sized to the drawing).
#[pyfunction(name = "_draw_png")]
#[pyo3(signature = (ob, color, tv = false, tile_mn = None, scale = None))]
fn draw_png(
    py: Python<'_>,
    ob: &Bound<'_, PyAny>,
    color: &Bound<'_, PyAny>,
    tv: bool,
    tile_mn: Option<&Bound<'_, PyAny>>,
    scale: Option<f32>,
) -> PyResult<PyObject> {
    if let Some(s) = scale {
        if !(s.is_finite() && s > 0.0 && s <= 16.0) {
            return Err(PyValueError::new_err(format!(
                "value: draw_png: the scale must be a number in (0, 16], got {s}"
            )));
        }
    }
    let opts = rcute::viz::DrawOptions::with_color(color_of(color)?);
    let bytes = if tv {
        let (l, tile) = tv_args(ob, tile_mn)?;
        rcute::viz::draw_png_tv(l, tile.as_ref(), &opts, scale)
    } else {
        rcute::viz::draw_png(&view_of(ob)?, &opts, scale)
    }
    .map_err(to_pyerr)?;
    Ok(pyo3::types::PyBytes::new(py, &bytes).into_any().unbind())
}

/// The docstring of an operation: its Python signature, its paragraph
/// and its example (in the notation), all from the operation table.
fn docstring(op: &'static Operation) -> String {
    format!(
        "{}\n\n{}.\n\n{}\nExample, in the notation (`eval_notation_str`):\n    {}\n    {}\n",
        op.python_signature(),
        op.summary,
        wrap(op.doc, 76),
        op.example,
        op.example_output
    )
}

/// `text` wrapped at `width` columns.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `(name, signature, docstring)` of every operation of the notation, in
/// the order of the operation table (`rcute::ops`).
#[pyfunction(name = "operations")]
fn operations() -> Vec<(&'static str, String, String)> {
    OPERATIONS
        .iter()
        .map(|op| (op.name, op.python_signature(), docstring(op)))
        .collect()
}

/// The parameters of the operation `name` from the operation table, as
/// `([(name, kind, default), ...], mode_indexed)` (`kind` is `"positional"`,
/// `"variadic"` for `*name` or `"keywords"` for `**name`; `default` is the
/// notation text of the default, `None` for a required parameter), or
/// `None` when `name` is not an operation.
#[pyfunction(name = "_parameters")]
#[allow(clippy::type_complexity)]
fn parameters(
    name: &str,
) -> Option<(
    Vec<(&'static str, &'static str, Option<&'static str>)>,
    bool,
)> {
    use rcute::ops::ParamKind;
    let op = rcute::ops::lookup(name)?;
    let params = op
        .params
        .iter()
        .map(|p| {
            let kind = match p.kind {
                ParamKind::Positional => "positional",
                ParamKind::PositionalOnly => "positional_only",
                ParamKind::Variadic => "variadic",
                ParamKind::Keywords => "keywords",
            };
            (p.name, kind, p.default)
        })
        .collect();
    Some((params, op.mode_indexed))
}

#[pymodule]
fn _rcute(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<LayoutBase>()?;
    m.add_class::<PyLayout>()?;
    m.add_class::<PyArithTuple>()?;
    m.add_class::<PyF2>()?;
    m.add_class::<symbolic::PySymInt>()?;
    m.add_function(wrap_pyfunction!(symbolic::symbol, m)?)?;
    m.add_class::<PySwizzle>()?;
    m.add_class::<PyComposedLayout>()?;
    m.add_class::<Op>()?;
    m.add_function(wrap_pyfunction!(basis_e, m)?)?;
    m.add_function(wrap_pyfunction!(scaled_basis, m)?)?;
    m.add_function(wrap_pyfunction!(eval_notation, m)?)?;
    m.add_function(wrap_pyfunction!(eval_notation_str, m)?)?;
    m.add_function(wrap_pyfunction!(format_value, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(color_value, m)?)?;
    m.add_function(wrap_pyfunction!(print_text, m)?)?;
    m.add_function(wrap_pyfunction!(draw_text, m)?)?;
    m.add_function(wrap_pyfunction!(draw_png, m)?)?;
    m.add_function(wrap_pyfunction!(layout_literal, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_function(wrap_pyfunction!(parameters, m)?)?;
    m.add_function(wrap_pyfunction!(fast::set_fast_paths, m)?)?;
    fast::init_types(m.py());
    vcall::install(
        m.py(),
        Op {
            vectorcall: vcall::OP_CALL,
            op: &OPERATIONS[0],
            mode: Vec::new(),
            fast: Fast::None,
            rule: None,
        },
    )?;
    // every operation of the table that the module does not define in its
    // own form (the classes Layout, F2, ArithTuple, Swizzle; E, ScaledBasis)
    for op in OPERATIONS {
        if !m.hasattr(op.name)? {
            m.add(
                op.name,
                Op {
                    vectorcall: vcall::OP_CALL,
                    op,
                    mode: Vec::new(),
                    fast: Fast::of(op),
                    rule: None,
                },
            )?;
        }
    }
    Ok(())
}
