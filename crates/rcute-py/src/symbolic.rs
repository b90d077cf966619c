//! Symbolic integers in Python: `rcute.Symbol('N', divisible_by=16)` and
//! the `rcute.SymInt` values built from it (`docs/python.md`, "Symbolic
//! integers"). The symbols of a process share one table of facts, as the
//! declarations of one notation session do.

use std::sync::Mutex;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::IntoPyObjectExt;

use rcute::notation::Value;
use rcute::sym::{Factor, Facts, SymInt};

use crate::to_pyerr;

/// The symbols declared in this process and their facts.
static FACTS: Mutex<Facts> = Mutex::new(Facts::new());

fn facts() -> PyResult<std::sync::MutexGuard<'static, Facts>> {
    FACTS
        .lock()
        .map_err(|_| PyValueError::new_err("value: the symbol table is unavailable"))
}

/// Declares `name` (if new) with the facts given and returns the symbol.
pub(crate) fn declare(name: &str, divisible_by: i64, min: i64) -> PyResult<SymInt> {
    let mut f = facts()?;
    f.declare(name).map_err(to_pyerr)?;
    if divisible_by != 1 {
        f.assume_divisible(name, divisible_by).map_err(to_pyerr)?;
    }
    if min != 1 {
        f.assume_at_least(name, min).map_err(to_pyerr)?;
    }
    SymInt::symbol(&f, name).map_err(to_pyerr)
}

/// A symbolic integer: a polynomial in symbols declared with
/// `rcute.Symbol`, with exact `+ - *`, floor division `//` and modulo `%`
/// that stay symbolic where the symbols' facts do not resolve them, exact
/// division `/` where the facts prove it. Printed in one canonical order
/// (`2*N*K + N + 1`); `sympy.sympify(x)` converts it to a sympy expression.
#[pyclass(module = "rcute", name = "SymInt", frozen)]
pub(crate) struct PySymInt {
    pub(crate) inner: SymInt,
}

/// The Python object of a symbolic result: an `int` when it does not
/// depend on a symbol.
pub(crate) fn sym_obj(py: Python<'_>, s: SymInt) -> PyResult<PyObject> {
    match s.as_const() {
        Some(v) => v.into_py_any(py),
        None => PySymInt { inner: s }.into_py_any(py),
    }
}

/// A Python operand of symbolic arithmetic: a `SymInt`, an `int`, or a
/// sympy expression (converted by the module's `_from_sympy`).
fn operand(ob: &Bound<'_, PyAny>) -> PyResult<Option<SymInt>> {
    if let Ok(s) = ob.downcast::<PySymInt>() {
        return Ok(Some(s.get().inner.clone()));
    }
    if ob.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(None);
    }
    if let Ok(i) = ob.extract::<i64>() {
        return Ok(Some(SymInt::from(i)));
    }
    if is_sympy(ob) {
        return from_sympy(ob).map(Some);
    }
    Ok(None)
}

/// True for an object of sympy (its type's module is `sympy...`).
pub(crate) fn is_sympy(ob: &Bound<'_, PyAny>) -> bool {
    ob.get_type()
        .module()
        .map(|m| m.to_string().starts_with("sympy"))
        .unwrap_or(false)
}

/// A sympy expression as a symbolic integer (the module's `_from_sympy`
/// walks it: symbols, integers, `+`, `*`, integer powers, `floor`, `Mod`,
/// rational coefficients that the facts prove exact).
pub(crate) fn from_sympy(ob: &Bound<'_, PyAny>) -> PyResult<SymInt> {
    let py = ob.py();
    let r = py.import("rcute")?.getattr("_from_sympy")?.call1((ob,))?;
    if let Ok(s) = r.downcast::<PySymInt>() {
        return Ok(s.get().inner.clone());
    }
    Ok(SymInt::from(r.extract::<i64>()?))
}

thread_local! {
    /// Set when a sympy object is converted into a notation value: the
    /// operation's symbolic results then go back as sympy expressions.
    static SYMPY_SEEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Starts the conversion of one call's arguments (no sympy object seen).
pub(crate) fn begin_call() {
    SYMPY_SEEN.with(|c| c.set(false));
}

/// Records that a sympy value went in (a layout with symbols built from
/// sympy expressions counts as one).
pub(crate) fn mark_sympy_seen() {
    SYMPY_SEEN.with(|c| c.set(true));
}

/// Whether a sympy value went into the current call, which ends.
pub(crate) fn take_sympy_seen() -> bool {
    SYMPY_SEEN.with(|c| c.replace(false))
}

/// The values of `x.subs(values, **kwargs)`: names (a `SymInt` key is its
/// symbol's name) and integers.
pub(crate) fn subs_values(
    values: Option<&Bound<'_, PyDict>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, i64)>> {
    let mut vals: Vec<(String, i64)> = Vec::new();
    for d in [values, kwargs].into_iter().flatten() {
        for (k, v) in d.iter() {
            let name = if let Ok(s) = k.downcast::<PySymInt>() {
                s.get().inner.to_string()
            } else {
                k.str()?.to_string()
            };
            vals.push((name, v.extract::<i64>()?));
        }
    }
    Ok(vals)
}

/// The result of a call as the caller expects it: its symbolic integers as
/// sympy expressions when a sympy object was among the arguments (the
/// module's `_to_sympy`), else as it is.
pub(crate) fn finish_call(py: Python<'_>, r: PyObject) -> PyResult<PyObject> {
    if !SYMPY_SEEN.with(|c| c.replace(false)) {
        return Ok(r);
    }
    Ok(py
        .import("rcute")?
        .getattr("_to_sympy")?
        .call1((r,))?
        .unbind())
}

/// The notation value of a symbolic operand.
pub(crate) fn to_value(ob: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    if let Ok(s) = ob.downcast::<PySymInt>() {
        return Ok(Some(Value::Sym(s.get().inner.clone())));
    }
    if is_sympy(ob) {
        SYMPY_SEEN.with(|c| c.set(true));
        return Ok(Some(Value::from_sym(from_sympy(ob)?)));
    }
    Ok(None)
}

type SymOp = fn(&SymInt, &SymInt) -> rcute::Result<SymInt>;

/// `x op o` (or `o op x` when `reflected`); `NotImplemented` for an operand
/// that is not an integer.
fn bin(
    py: Python<'_>,
    x: &SymInt,
    o: &Bound<'_, PyAny>,
    f: SymOp,
    reflected: bool,
    is_div: bool,
) -> PyResult<PyObject> {
    match operand(o)? {
        Some(y) => {
            let divisor = if reflected { x } else { &y };
            if is_div && divisor.as_const() == Some(0) {
                return Err(pyo3::exceptions::PyZeroDivisionError::new_err(
                    "integer division or modulo by zero",
                ));
            }
            let r = if reflected { f(&y, x) } else { f(x, &y) };
            let r = sym_obj(py, r.map_err(to_pyerr)?)?;
            if is_sympy(o) {
                // sympy in, sympy out
                return Ok(py
                    .import("rcute")?
                    .getattr("_to_sympy")?
                    .call1((r,))?
                    .unbind());
            }
            Ok(r)
        }
        None => Ok(py.NotImplemented()),
    }
}

fn exact_div(x: &SymInt, y: &SymInt) -> rcute::Result<SymInt> {
    x.exact_div(y)?.ok_or_else(|| {
        rcute::Error::divisibility(format!(
            "{} / {}: the facts of the symbols do not prove that {} divides {} \
             (declare it: Symbol(name, divisible_by=...)), or use // for the floor division",
            x.operand(),
            y.operand(),
            y.operand(),
            x.operand()
        ))
    })
}

#[pymethods]
impl PySymInt {
    fn __add__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::add, false, false)
    }

    fn __radd__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::add, true, false)
    }

    fn __sub__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::sub, false, false)
    }

    fn __rsub__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::sub, true, false)
    }

    fn __mul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::mul, false, false)
    }

    fn __rmul__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::mul, true, false)
    }

    fn __floordiv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::floor_div, false, true)
    }

    fn __rfloordiv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::floor_div, true, true)
    }

    fn __mod__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::modulo, false, true)
    }

    fn __rmod__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, SymInt::modulo, true, true)
    }

    fn __truediv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, exact_div, false, true)
    }

    fn __rtruediv__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        bin(py, &self.inner, o, exact_div, true, true)
    }

    fn __neg__(&self, py: Python<'_>) -> PyResult<PyObject> {
        sym_obj(py, self.inner.neg().map_err(to_pyerr)?)
    }

    fn __pos__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Equality of values: `True` when they are the same polynomial (so
    /// `False` against an `int`: a symbolic value is never a constant).
    /// Against a sympy expression, sympy compares.
    fn __eq__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        if is_sympy(o) {
            // sympy compares (through `_sympy_`), the same both ways round
            return Ok(py.NotImplemented());
        }
        let eq = match operand(o)? {
            Some(y) => self.inner == y,
            None => false,
        };
        eq.into_py_any(py)
    }

    fn __ne__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        if is_sympy(o) {
            return Ok(py.NotImplemented());
        }
        let eq = match operand(o)? {
            Some(y) => self.inner == y,
            None => false,
        };
        (!eq).into_py_any(py)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }

    fn __lt__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
        let y = operand(o)?.ok_or_else(|| PyTypeError::new_err("type: '<' needs an integer"))?;
        decided(&self.inner, "<", &y, self.inner.lt(&y))
    }

    fn __gt__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
        let y = operand(o)?.ok_or_else(|| PyTypeError::new_err("type: '>' needs an integer"))?;
        decided(&self.inner, ">", &y, y.lt(&self.inner))
    }

    fn __le__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
        let y = operand(o)?.ok_or_else(|| PyTypeError::new_err("type: '<=' needs an integer"))?;
        decided(&self.inner, "<=", &y, y.lt(&self.inner).map(|b| !b))
    }

    fn __ge__(&self, o: &Bound<'_, PyAny>) -> PyResult<bool> {
        let y = operand(o)?.ok_or_else(|| PyTypeError::new_err("type: '>=' needs an integer"))?;
        decided(&self.inner, ">=", &y, self.inner.lt(&y).map(|b| !b))
    }

    /// `True` where the facts prove the value non-zero; a `TypeError`
    /// where they do not (a polynomial in unresolved divisions may be 0 for
    /// every value: `K//4*4 + K%4 - K`).
    fn __bool__(&self) -> PyResult<bool> {
        if self.inner.proven_zero() == Some(false) {
            Ok(true)
        } else {
            Err(PyTypeError::new_err(format!(
                "type: the truth value of {} is not decided by the facts of its symbols",
                self.inner
            )))
        }
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        self.inner.to_string()
    }

    /// The value with the symbols given substituted: `x.subs(N=128)` or
    /// `x.subs({'N': 128})`; an `int` once every symbol has a value.
    /// `ValueError` for a value that violates its symbol's facts.
    #[pyo3(signature = (values=None, /, **kwargs))]
    fn subs(
        &self,
        py: Python<'_>,
        values: Option<&Bound<'_, PyDict>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        let vals = subs_values(values, kwargs)?;
        let refs: Vec<(&str, i64)> = vals.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        sym_obj(py, self.inner.subs(&refs).map_err(to_pyerr)?)
    }

    /// The symbols the value depends on, with their facts:
    /// `[(name, divisible_by, min), ...]` in printing order.
    fn symbols(&self) -> Vec<(String, i64, i64)> {
        self.inner
            .symbols()
            .into_iter()
            .map(|(n, f)| (n, f.divisor, f.min))
            .collect()
    }

    /// True when the facts prove that `d` divides the value.
    fn divisible_by(&self, d: i64) -> bool {
        self.inner.divisible_by(d)
    }

    /// Always `False`: a value that does not depend on a symbol is an `int`.
    #[getter]
    fn is_static(&self) -> bool {
        false
    }

    /// The reference's `is_static` hook: a symbolic integer is not static.
    fn _is_static(&self) -> bool {
        false
    }

    /// The sympy expression of the value, built from its structure (each
    /// symbol the sympy symbol of that name the module has seen, else a
    /// positive-integer one).
    fn _sympy_(slf: &Bound<'_, Self>) -> PyResult<PyObject> {
        let py = slf.py();
        Ok(py
            .import("rcute")?
            .getattr("_symint_to_sympy")?
            .call1((slf,))?
            .unbind())
    }

    /// `(den, [(coefficient, [(kind, payload, exponent), ...]), ...])`: the
    /// structure of the value (`kind` is `'sym'` with the name, or `'floor'`
    /// / `'mod'` with the pair `(p, q)`).
    fn _structure(&self, py: Python<'_>) -> PyResult<PyObject> {
        let (den, terms) = self.inner.structure();
        let mut out = Vec::with_capacity(terms.len());
        for (c, fs) in terms {
            let mut fo = Vec::with_capacity(fs.len());
            for (f, e) in fs {
                let item = match f {
                    Factor::Symbol(n) => ("sym", n.into_py_any(py)?, e),
                    Factor::Floor(p, q) => (
                        "floor",
                        (sym_obj(py, p)?, sym_obj(py, q)?).into_py_any(py)?,
                        e,
                    ),
                    Factor::Mod(p, q) => (
                        "mod",
                        (sym_obj(py, p)?, sym_obj(py, q)?).into_py_any(py)?,
                        e,
                    ),
                };
                fo.push(item.into_py_any(py)?);
            }
            out.push((c, fo).into_py_any(py)?);
        }
        (den, out).into_py_any(py)
    }

    /// `x ** e` for an integer `e >= 0`.
    fn __pow__(
        &self,
        py: Python<'_>,
        e: &Bound<'_, PyAny>,
        m: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyObject> {
        if m.is_some_and(|m| !m.is_none()) {
            return Err(PyTypeError::new_err(
                "type: pow() with a modulus is not defined for SymInt",
            ));
        }
        let Ok(e) = e.extract::<u32>() else {
            return Ok(py.NotImplemented());
        };
        let mut r = SymInt::from(1);
        for _ in 0..e {
            r = r.mul(&self.inner).map_err(to_pyerr)?;
        }
        sym_obj(py, r)
    }

    /// `(x // o, x % o)`.
    fn __divmod__(&self, py: Python<'_>, o: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        let q = self.__floordiv__(py, o)?;
        let r = self.__mod__(py, o)?;
        (q, r).into_py_any(py)
    }

    /// `|x|` where the facts decide the sign (a `TypeError` otherwise).
    fn __abs__(&self, py: Python<'_>) -> PyResult<PyObject> {
        if self.inner.proven_positive() == Some(true) {
            return sym_obj(py, self.inner.clone());
        }
        let n = self.inner.neg().map_err(to_pyerr)?;
        if n.proven_positive() == Some(true) {
            return sym_obj(py, n);
        }
        Err(PyTypeError::new_err(format!(
            "type: abs({}): the facts of the symbols do not decide its sign",
            self.inner
        )))
    }

    fn __reduce__(&self) -> PyResult<(PyObject, ())> {
        Err(PyTypeError::new_err(
            "type: a SymInt cannot be pickled (its symbols belong to this process's symbol table)",
        ))
    }
}

fn decided(x: &SymInt, op: &str, y: &SymInt, r: Option<bool>) -> PyResult<bool> {
    r.ok_or_else(|| {
        PyTypeError::new_err(format!(
            "type: {x} {op} {y}: the facts of the symbols decide neither answer"
        ))
    })
}

/// `Symbol(name, divisible_by=1, min=1)`: the positive-integer symbol
/// `name`, declared for the whole process (a second declaration of the same
/// name adds its facts: divisors combine, the larger bound holds). Errors:
/// `ValueError` for a name that is not an identifier or a divisor below 1.
#[pyfunction(name = "Symbol")]
#[pyo3(signature = (name, divisible_by = 1, min = 1))]
pub(crate) fn symbol(
    py: Python<'_>,
    name: &str,
    divisible_by: i64,
    min: i64,
) -> PyResult<PyObject> {
    PySymInt {
        inner: declare(name, divisible_by, min)?,
    }
    .into_py_any(py)
}
