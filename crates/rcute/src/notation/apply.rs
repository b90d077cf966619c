//! Applying values: a layout, swizzle, swizzled layout or tensor called on
//! arguments (`L(c)`, `Sw(x)`, `T(c)`), and mode access `x[i, j]`. These
//! sit below both the evaluator ([`super::eval`]) and the operations
//! ([`super::ops`]), which use them; they depend only on the values.

use super::value::Value;
use crate::error::{Error, Result};
use crate::layout::{Layout, SymLayout};

/// Applies a value to call arguments: a layout is evaluated (or sliced
/// when the coordinate contains `_`), a swizzle is applied to an integer,
/// a layout with symbols is evaluated symbolically ([`eval_sym_layout`]),
/// a swizzled layout is evaluated through its swizzle, a tensor is indexed
/// as `T[c]` (an element, or a sub-tensor when `c` slices; see
/// `docs/tensors.md`, and `docs/language.md`, "Evaluating a layout"). Errors: `type` for a value that cannot be called;
/// those of evaluation and slicing.
///
/// ```
/// use rcute::notation::{apply, eval_value, Value};
/// let l = eval_value("(4,8):(8,1)").unwrap();
/// assert_eq!(apply(&l, vec![Value::Int(2), Value::Int(3)]).unwrap().to_string(), "19");
/// assert_eq!(apply(&l, vec![Value::None, Value::Int(3)]).unwrap().to_string(), "(4,):(8,)");
/// ```
pub fn apply(f: &Value, args: Vec<Value>) -> Result<Value> {
    match f {
        Value::Layout(l) => {
            let c = coordinate_of_args(args);
            eval_layout(l, &c)
        }
        Value::SymLayout(l) => eval_sym_layout(l, &coordinate_of_args(args)),
        Value::Swizzle(sw) => {
            if args.len() != 1 {
                return Err(Error::type_(format!(
                    "a swizzle takes one integer argument, got {}",
                    args.len()
                )));
            }
            let x = args[0].to_int("swizzle argument")?;
            Ok(Value::Int(sw.apply(x)?))
        }
        Value::Swizzled(s) => {
            let c = coordinate_of_args(args);
            let coord = c.to_coord()?;
            if c.contains_none() {
                // C++ slice of a swizzled layout (docs/language.md, "Swizzles")
                return Ok(match s.slice(coord.as_ref())? {
                    crate::swizzle::SwizzledSlice::Swizzled(s) => Value::Swizzled(s),
                    crate::swizzle::SwizzledSlice::Plain(l) => Value::Layout(l),
                });
            }
            Ok(Value::Int(s.eval(coord.as_ref())?))
        }
        Value::Tensor(t) => {
            let c = coordinate_of_args(args);
            match t.index(c.to_coord()?)? {
                crate::tensor::Indexed::Value(v) => Ok(Value::from_scalar(v)),
                crate::tensor::Indexed::Tensor(t) => Ok(Value::Tensor(t)),
            }
        }
        Value::Array(t) => {
            let c = coordinate_of_args(args);
            match t.index(c.to_coord()?)? {
                crate::tensor::Indexed::Value(v) => Ok(Value::Int(v)),
                crate::tensor::Indexed::Tensor(t) => Ok(Value::Array(t)),
            }
        }
        v => Err(Error::type_(format!(
            "the {} {v} cannot be called",
            v.kind_name()
        ))),
    }
}

/// The coordinate of call arguments: none means `()`, one is itself,
/// several form a tuple.
///
/// ```
/// use rcute::notation::{eval::coordinate_of_args, Value};
/// assert_eq!(coordinate_of_args(vec![]).to_string(), "()");
/// assert_eq!(coordinate_of_args(vec![Value::Int(1), Value::Int(2)]).to_string(), "(1, 2)");
/// ```
pub fn coordinate_of_args(mut args: Vec<Value>) -> Value {
    if args.len() == 1 {
        args.pop().unwrap_or(Value::None)
    } else {
        Value::Tuple(args)
    }
}

/// `L(c)`: evaluation, or slicing when `c` contains `_` (`docs/language.md`, "Evaluating a layout").
/// Errors: those of `idx2crd` (`rank`, `value`) and of slicing.
///
/// ```
/// use rcute::notation::{eval::eval_layout, eval_value};
/// let l = eval_value("(3,(2,4)):(2,(1,6))").unwrap();
/// let rcute::notation::Value::Layout(l) = l else { panic!() };
/// assert_eq!(eval_layout(&l, &eval_value("(1,2)").unwrap()).unwrap().to_string(), "8");
/// ```
pub fn eval_layout(l: &Layout, c: &Value) -> Result<Value> {
    let coord = match c.to_coord() {
        Ok(coord) => coord,
        // a symbolic index or coordinate: the layout as a layout with symbols
        Err(_) if c.has_sym() => return eval_sym_layout(&l.to_sym()?, c),
        Err(e) => return Err(e),
    };
    if c.contains_none() {
        return Ok(Value::Layout(crate::algebra::slice(l, coord.as_ref())?));
    }
    Ok(Value::from_scalar(l.eval(coord.as_ref())?))
}

/// `L(c)` of a layout with symbols (`docs/language.md`, "Symbols"): `c` an
/// index or a coordinate of integers and symbolic integers; the value is
/// symbolic where the facts do not resolve the divisions.
///
/// A `None` in `c` slices ([`SymLayout::slice_and_offset`]: the kept modes).
///
/// Errors: `type` for leaves other than integers, symbolic integers and
/// `None`; those of [`SymLayout::eval_coord`] and
/// [`SymLayout::slice_and_offset`].
///
/// ```
/// use rcute::notation::{eval::eval_sym_layout, Session, Value};
/// let mut s = Session::new();
/// s.eval_line("assume N").unwrap().unwrap();
/// let Value::SymLayout(l) = s.eval_line("(N,4):(1,N)").unwrap().unwrap() else { panic!() };
/// let c = s.eval_line("(1, 2)").unwrap().unwrap();
/// assert_eq!(eval_sym_layout(&l, &c).unwrap().to_string(), "2*N + 1");
/// ```
pub fn eval_sym_layout(l: &SymLayout, c: &Value) -> Result<Value> {
    if c.contains_none() {
        // slicing: the kept modes
        let (kept, _) = l.slice_and_offset(sym_slicing_coordinate(l, c)?.as_ref())?;
        return Ok(Value::from_sym_layout(kept));
    }
    let coord = c.to_htuple("coordinate", &mut |v| {
        v.as_sym().ok_or_else(|| {
            Error::type_(format!(
                "coordinate of the layout with symbols {l}: expected integers or symbolic \
                 integers, got the {} {v}",
                v.kind_name()
            ))
        })
    })?;
    Ok(Value::from_sym(l.eval_coord(coord.as_ref())?))
}

/// The slicing coordinate `c` (leaves `None`, integers, symbolic
/// integers) for the layout with symbols `l`.
pub(crate) fn sym_slicing_coordinate(
    l: &SymLayout,
    c: &Value,
) -> Result<crate::htuple::HTuple<Option<crate::sym::SymInt>>> {
    c.to_htuple("coordinate", &mut |v| match v {
        Value::None => Ok(None),
        v => v.as_sym().map(Some).ok_or_else(|| {
            Error::type_(format!(
                "coordinate of the layout with symbols {l}: expected integers, symbolic \
                 integers or None, got the {} {v}",
                v.kind_name()
            ))
        }),
    })
}

/// `x[i]` / `x[i, j]` (a path): mode access on layouts and tensors (the
/// accessor is kept), element access on
/// tuples (negative indices count from the end). Errors: `bounds` past
/// the rank, `type` for a value that cannot be indexed.
///
/// ```
/// use rcute::notation::{eval::index, eval_value, Value};
/// let l = eval_value("(3,(2,4)):(2,(1,6))").unwrap();
/// assert_eq!(index(&l, &[Value::Int(1), Value::Int(0)]).unwrap().to_string(), "2:1");
/// assert!(index(&l, &[Value::Int(2)]).is_err());
/// ```
pub fn index(t: &Value, idx: &[Value]) -> Result<Value> {
    let mut cur = t.clone();
    for i in idx {
        let path: Vec<i64> = match i {
            Value::Int(k) => vec![*k],
            Value::Tuple(items) => items
                .iter()
                .map(|x| x.to_int("index"))
                .collect::<Result<_>>()?,
            v => {
                return Err(Error::type_(format!(
                    "an index must be an integer, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        for k in path {
            cur = index_one(&cur, k)?;
        }
    }
    Ok(cur)
}

fn index_one(t: &Value, i: i64) -> Result<Value> {
    match t {
        Value::Layout(l) => Ok(Value::Layout(l.mode(i)?)),
        Value::SymLayout(l) => Ok(Value::from_sym_layout(l.mode(i)?)),
        Value::Swizzled(s) => Ok(Value::Swizzled(s.mode(i)?)),
        Value::Tensor(t) => Ok(Value::Tensor(t.mode(i)?)),
        Value::Array(t) => Ok(Value::Array(t.mode(i)?)),
        Value::Tuple(items) | Value::List(items) => {
            let n = items.len() as i64;
            let j = if i < 0 { i + n } else { i };
            if j < 0 || j >= n {
                return Err(Error::bounds(format!(
                    "index {i} out of range for {t} of length {n}"
                )));
            }
            Ok(items[j as usize].clone())
        }
        v => Err(Error::type_(format!(
            "the {} {v} cannot be indexed",
            v.kind_name()
        ))),
    }
}
