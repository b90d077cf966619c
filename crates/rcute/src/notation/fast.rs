//! Direct calls of the algebra for prepared statements
//! ([`super::prepare`]): when every argument of an operation call is a
//! literal or a variable, the operation reads its arguments in place
//! (no copies of the operand values) and literal tilers, shapes and
//! coordinates are converted once, when the statement is prepared.
//!
//! [`call`] covers the common argument forms of the algebra operations.
//! It answers `None` ("not covered") for anything else, and whenever a
//! conversion of an argument fails, so that the general dispatch
//! ([`super::ops::call_with`]) runs and gives the value or the error. When
//! it answers, it has converted the arguments exactly as the general
//! dispatch does and called the same library function on them, so the
//! value (or the library's error) is the same.

use std::borrow::Cow;
use std::cell::Cell;

use super::value::Value;
use crate::algebra;
use crate::error::Result;
use crate::htuple::HTuple;
use crate::layout::Layout;
use crate::shape::{self, Coord};
use crate::tiler::Tiler;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// Turns the direct calls of this thread on or off (they are on). With
/// them off every call takes the general dispatch: the tests compare the
/// two paths.
pub fn set_enabled(on: bool) {
    ENABLED.with(|c| c.set(on));
}

/// True when direct calls are on for this thread.
pub(crate) fn enabled() -> bool {
    ENABLED.with(|c| c.get())
}

/// Conversions of a literal argument, made once when it is prepared
/// (`None` where the conversion fails: the general dispatch then reports
/// the error).
#[derive(Clone)]
pub(crate) struct Converted {
    tiler: Option<Tiler>,
    shape: Option<HTuple<i64>>,
    coord: Option<Coord>,
}

impl Converted {
    /// The conversions of the literal `v`.
    pub(crate) fn of(v: &Value) -> Converted {
        match v {
            // layouts are read in place; their tiler form is the only one used
            Value::Layout(_) => Converted {
                tiler: v.to_tiler().ok(),
                shape: None,
                coord: None,
            },
            _ => Converted {
                tiler: v.to_tiler().ok(),
                shape: v.to_shape().ok(),
                coord: v.to_coord().ok(),
            },
        }
    }
}

/// One argument of a direct call: the value, and its prepared conversions
/// when it is a literal.
#[derive(Clone, Copy)]
pub(crate) struct ArgView<'a> {
    pub(crate) value: &'a Value,
    pub(crate) converted: Option<&'a Converted>,
}

impl<'a> ArgView<'a> {
    fn layout(&self) -> Option<&'a Layout> {
        match self.value {
            Value::Layout(l) => Some(l),
            _ => None,
        }
    }

    /// `Value::to_tiler` (equal to `into_tiler`).
    fn tiler(&self) -> Option<Cow<'a, Tiler>> {
        match self.converted {
            Some(c) => c.tiler.as_ref().map(Cow::Borrowed),
            None => self.value.to_tiler().ok().map(Cow::Owned),
        }
    }

    /// `Value::to_shape`.
    fn shape(&self) -> Option<Cow<'a, HTuple<i64>>> {
        match (self.converted, self.value) {
            (_, Value::Layout(_)) => None,
            (Some(c), _) => c.shape.as_ref().map(Cow::Borrowed),
            (None, v) => v.to_shape().ok().map(Cow::Owned),
        }
    }

    /// `Value::to_shape_of` for layouts and the values `to_shape` reads
    /// (swizzled layouts and tensors take the general path).
    fn shape_of(&self) -> Option<Cow<'a, HTuple<i64>>> {
        match self.value {
            Value::Layout(l) => Some(Cow::Borrowed(l.shape())),
            Value::Swizzled(_) | Value::Tensor(_) | Value::Array(_) => None,
            _ => self.shape(),
        }
    }

    /// `Value::to_coord`.
    fn coord(&self) -> Option<Cow<'a, Coord>> {
        match (self.converted, self.value) {
            (_, Value::Layout(_)) => None,
            (Some(c), _) => c.coord.as_ref().map(Cow::Borrowed),
            (None, v) => v.to_coord().ok().map(Cow::Owned),
        }
    }
}

type Unary = fn(&Layout) -> Result<Layout>;
type Binary = fn(&Layout, &Tiler) -> Result<Layout>;

fn unary(op: &str) -> Option<Unary> {
    Some(match op {
        "coalesce" => algebra::coalesce,
        "coalesce_z" => algebra::coalesce_z,
        "filter" => algebra::filter,
        "filter_zeros" => algebra::filter_zeros,
        "right_inverse" => algebra::right_inverse,
        "left_inverse" => algebra::left_inverse,
        "nullspace" => algebra::nullspace,
        "make_layout_like" => algebra::make_layout_like,
        _ => return None,
    })
}

fn binary(op: &str) -> Option<Binary> {
    Some(match op {
        // the by-mode forms of the profile operations
        "coalesce" => algebra::coalesce_by_mode,
        "coalesce_z" => algebra::coalesce_z_by_mode,
        "filter" => algebra::filter_by_mode,
        // the tiler operations
        "composition" => algebra::composition,
        "logical_divide" => algebra::logical_divide,
        "zipped_divide" => algebra::zipped_divide,
        "tiled_divide" => algebra::tiled_divide,
        "flat_divide" => algebra::flat_divide,
        "logical_product" => algebra::logical_product,
        "zipped_product" => algebra::zipped_product,
        "tiled_product" => algebra::tiled_product,
        "flat_product" => algebra::flat_product,
        "blocked_product" => algebra::blocked_product,
        "raked_product" => algebra::raked_product,
        _ => return None,
    })
}

/// True when [`call`] may cover the operation `op`.
pub(crate) fn covers(op: &str) -> bool {
    enabled() && covered(op)
}

fn covered(op: &str) -> bool {
    unary(op).is_some()
        || binary(op).is_some()
        || matches!(
            op,
            "complement"
                | "layout_add"
                | "max_common_layout"
                | "max_common_vector"
                | "greatest_common_domain"
                | "recast"
                | "upcast"
                | "downcast"
                | "make_ordered_layout"
                | "idx2crd"
                | "crd2idx"
        )
}

/// The direct call of `op` on positional arguments `args` and the keyword
/// argument `extend` (complement only; `kw` holds the keyword names), or
/// `None` when the call is not covered (see the module documentation).
pub(crate) fn call(
    op: &str,
    args: &[ArgView<'_>],
    kw: &[(&str, ArgView<'_>)],
) -> Option<Result<Value>> {
    let lay = |r: Result<Layout>| Some(r.map(Value::Layout));
    if op == "complement" {
        // complement(A), complement(A, extend), complement(A, extend=...)
        let (a, ext) = match (args, kw) {
            ([a], []) => (a, None),
            ([a, e], []) => (a, Some(e)),
            ([a], [("extend", e)]) => (a, Some(e)),
            _ => return None,
        };
        let l = a.layout()?;
        return match ext.map(|e| e.value) {
            None | Some(Value::None) => lay(algebra::complement(l, None)),
            Some(_) => {
                let s = ext?.shape_of()?;
                lay(algebra::complement(l, Some(s.as_ref().as_ref())))
            }
        };
    }
    if !kw.is_empty() {
        return None;
    }
    match args {
        [a] => {
            let f = unary(op)?;
            lay(f(a.layout()?))
        }
        [a, b] => {
            if let Some(f) = binary(op) {
                let l = a.layout()?;
                let t = b.tiler()?;
                return lay(f(l, &t));
            }
            match op {
                "layout_add" => lay(algebra::layout_add(a.layout()?, b.layout()?)),
                "max_common_layout" => lay(algebra::max_common_layout(a.layout()?, b.layout()?)),
                "max_common_vector" => {
                    Some(algebra::max_common_vector(a.layout()?, b.layout()?).map(Value::Int))
                }
                "greatest_common_domain" => {
                    let x = a.shape_of()?;
                    let y = b.shape_of()?;
                    lay(algebra::greatest_common_domain(
                        x.as_ref().as_ref(),
                        y.as_ref().as_ref(),
                    ))
                }
                "recast" => {
                    let l = a.layout()?;
                    let s = b.value.to_scale().ok()?;
                    lay(algebra::recast(l, &s))
                }
                "upcast" | "downcast" => {
                    let l = a.layout()?;
                    let Value::Int(n) = b.value else {
                        return None;
                    };
                    lay(if op == "upcast" {
                        algebra::upcast(l, *n)
                    } else {
                        algebra::downcast(l, *n)
                    })
                }
                "make_ordered_layout" => {
                    let s = a.shape()?;
                    let o = b.shape()?;
                    lay(algebra::make_ordered_layout(
                        s.as_ref().as_ref(),
                        o.as_ref().as_ref(),
                    ))
                }
                "idx2crd" => {
                    let c = a.coord()?;
                    let s = b.shape_of()?;
                    Some(
                        shape::idx2crd(c.as_ref().as_ref(), s.as_ref().as_ref())
                            .map(|r| Value::from_stride(&r)),
                    )
                }
                "crd2idx" => {
                    let c = a.coord()?;
                    let s = b.shape_of()?;
                    Some(shape::crd2idx(c.as_ref().as_ref(), s.as_ref().as_ref()).map(Value::Int))
                }
                _ => None,
            }
        }
        _ => None,
    }
}
