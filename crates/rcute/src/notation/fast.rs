//! Direct calls of the algebra: for the common argument forms of the
//! algebra operations ([`Direct`]), the library function is called on the
//! operands read in place (no copies of the operand values). Prepared
//! statements ([`super::prepare`]) use it when every argument is a literal
//! (whose tiler, shape and coordinate conversions were made once, when the
//! statement was prepared) or a variable; [`super::ops::call_with`] uses it
//! on its owned arguments for every call without a mode path (so the
//! unprepared evaluator and the Python module do too).
//!
//! [`Direct::call`] answers `None` ("not covered") for any other argument
//! form and whenever a conversion of an argument fails, so that the general
//! dispatch ([`super::ops::call_with`]) runs and gives the value or the
//! error. When it answers, it has converted the arguments exactly as the
//! general dispatch does and called the same library function on them, so
//! the value (or the library's error) is the same.

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

/// A unary layout operation, its result wrapped into a value inside (so
/// that the library function can be inlined and its layout moved once).
type Unary = fn(&Layout) -> Result<Value>;
/// A layout operation with a tiler, likewise.
type Binary = fn(&Layout, &Tiler) -> Result<Value>;

/// The [`Unary`] of a library function `fn(&Layout) -> Result<Layout>`.
macro_rules! unary {
    ($f:path) => {
        |a: &Layout| $f(a).map(Value::Layout)
    };
}

/// The [`Binary`] of a library function `fn(&Layout, &Tiler) -> Result<Layout>`.
macro_rules! binary {
    ($f:path) => {
        |a: &Layout, b: &Tiler| $f(a, b).map(Value::Layout)
    };
}

/// An operation with a direct path, resolved once from its name
/// ([`Direct::of`]).
#[derive(Clone, Copy)]
pub(crate) enum Direct {
    /// `op(A)` and `op(A, profile)` (coalesce, coalesce_z, filter).
    Profile(Unary, Binary),
    /// `op(A)`: the unary layout operations.
    Unary(Unary),
    /// `op(A, B)` with a tiler `B`: composition, the divides and products.
    Tiler(Binary),
    Complement,
    LayoutAdd,
    MaxCommonLayout,
    MaxCommonVector,
    GreatestCommonDomain,
    Recast,
    Upcast,
    Downcast,
    MakeOrderedLayout,
    Idx2crd,
    Crd2idx,
}

impl Direct {
    /// The direct path of the operation `op`, if it has one and direct
    /// calls are on for this thread.
    pub(crate) fn of(op: &str) -> Option<Direct> {
        if !enabled() {
            return None;
        }
        Some(match op {
            "coalesce" => Direct::Profile(
                unary!(algebra::coalesce),
                binary!(algebra::coalesce_by_mode),
            ),
            "coalesce_z" => Direct::Profile(
                unary!(algebra::coalesce_z),
                binary!(algebra::coalesce_z_by_mode),
            ),
            "filter" => Direct::Profile(unary!(algebra::filter), binary!(algebra::filter_by_mode)),
            "filter_zeros" => Direct::Unary(unary!(algebra::filter_zeros)),
            "right_inverse" => Direct::Unary(unary!(algebra::right_inverse)),
            "left_inverse" => Direct::Unary(unary!(algebra::left_inverse)),
            "nullspace" => Direct::Unary(unary!(algebra::nullspace)),
            "make_layout_like" => Direct::Unary(unary!(algebra::make_layout_like)),
            "composition" => Direct::Tiler(binary!(algebra::composition)),
            "logical_divide" => Direct::Tiler(binary!(algebra::logical_divide)),
            "zipped_divide" => Direct::Tiler(binary!(algebra::zipped_divide)),
            "tiled_divide" => Direct::Tiler(binary!(algebra::tiled_divide)),
            "flat_divide" => Direct::Tiler(binary!(algebra::flat_divide)),
            "logical_product" => Direct::Tiler(binary!(algebra::logical_product)),
            "zipped_product" => Direct::Tiler(binary!(algebra::zipped_product)),
            "tiled_product" => Direct::Tiler(binary!(algebra::tiled_product)),
            "flat_product" => Direct::Tiler(binary!(algebra::flat_product)),
            "blocked_product" => Direct::Tiler(binary!(algebra::blocked_product)),
            "raked_product" => Direct::Tiler(binary!(algebra::raked_product)),
            "complement" => Direct::Complement,
            "layout_add" => Direct::LayoutAdd,
            "max_common_layout" => Direct::MaxCommonLayout,
            "max_common_vector" => Direct::MaxCommonVector,
            "greatest_common_domain" => Direct::GreatestCommonDomain,
            "recast" => Direct::Recast,
            "upcast" => Direct::Upcast,
            "downcast" => Direct::Downcast,
            "make_ordered_layout" => Direct::MakeOrderedLayout,
            "idx2crd" => Direct::Idx2crd,
            "crd2idx" => Direct::Crd2idx,
            _ => return None,
        })
    }

    /// The direct call on positional arguments `args` and keyword
    /// arguments `kw` (only complement's `extend` is covered), or `None`
    /// when the call is not covered (see the module documentation).
    pub(crate) fn call(
        self,
        args: &[ArgView<'_>],
        kw: &[(&str, ArgView<'_>)],
    ) -> Option<Result<Value>> {
        let lay = |r: Result<Layout>| Some(r.map(Value::Layout));
        if let Direct::Complement = self {
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
        match (self, args) {
            (Direct::Profile(f, _) | Direct::Unary(f), [a]) => Some(f(a.layout()?)),
            (Direct::Profile(_, f) | Direct::Tiler(f), [a, b]) => {
                let l = a.layout()?;
                let t = b.tiler()?;
                Some(f(l, &t))
            }
            (Direct::LayoutAdd, [a, b]) => lay(algebra::layout_add(a.layout()?, b.layout()?)),
            (Direct::MaxCommonLayout, [a, b]) => {
                lay(algebra::max_common_layout(a.layout()?, b.layout()?))
            }
            (Direct::MaxCommonVector, [a, b]) => {
                Some(algebra::max_common_vector(a.layout()?, b.layout()?).map(Value::Int))
            }
            (Direct::GreatestCommonDomain, [a, b]) => {
                let x = a.shape_of()?;
                let y = b.shape_of()?;
                lay(algebra::greatest_common_domain(
                    x.as_ref().as_ref(),
                    y.as_ref().as_ref(),
                ))
            }
            (Direct::Recast, [a, b]) => {
                let l = a.layout()?;
                let s = b.value.to_scale().ok()?;
                lay(algebra::recast(l, &s))
            }
            (Direct::Upcast | Direct::Downcast, [a, b]) => {
                let l = a.layout()?;
                let Value::Int(n) = b.value else {
                    return None;
                };
                lay(if let Direct::Upcast = self {
                    algebra::upcast(l, *n)
                } else {
                    algebra::downcast(l, *n)
                })
            }
            (Direct::MakeOrderedLayout, [a, b]) => {
                let s = a.shape()?;
                let o = b.shape()?;
                lay(algebra::make_ordered_layout(
                    s.as_ref().as_ref(),
                    o.as_ref().as_ref(),
                ))
            }
            (Direct::Idx2crd, [a, b]) => {
                let c = a.coord()?;
                let s = b.shape_of()?;
                Some(
                    shape::idx2crd(c.as_ref().as_ref(), s.as_ref().as_ref())
                        .map(|r| Value::from_stride(&r)),
                )
            }
            (Direct::Crd2idx, [a, b]) => {
                let c = a.coord()?;
                let s = b.shape_of()?;
                Some(shape::crd2idx(c.as_ref().as_ref(), s.as_ref().as_ref()).map(Value::Int))
            }
            _ => None,
        }
    }
}
