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

use super::value::{check_size, Value, MAX_VALUE_DEPTH, MAX_VALUE_PARTS};
use crate::algebra;
use crate::error::Result;
use crate::htuple::{HTuple, LEAF, MAX_DEPTH, WIDE};
use crate::layout::Layout;
use crate::shape::{self, Coord};
use crate::stride::Scalar;
use crate::tiler::{Tiler, TilerRef};

// an integer tuple written by `fill_int_tuple` (nested at most MAX_DEPTH
// levels) is within the value depth bound without the walk
const _: () = assert!(MAX_DEPTH < MAX_VALUE_DEPTH);

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
    #[inline(always)]
    fn layout(&self) -> Option<&'a Layout> {
        match self.value {
            Value::Layout(l) => Some(l),
            _ => None,
        }
    }

    /// `Value::to_tiler` (equal to `into_tiler`).
    #[inline(always)]
    fn tiler(&self) -> Option<Cow<'a, Tiler>> {
        match self.converted {
            Some(c) => c.tiler.as_ref().map(Cow::Borrowed),
            None => self.value.to_tiler().ok().map(Cow::Owned),
        }
    }

    /// `Value::to_shape`.
    #[inline(always)]
    fn shape(&self) -> Option<Cow<'a, HTuple<i64>>> {
        match (self.converted, self.value) {
            (_, Value::Layout(_)) => None,
            (Some(c), _) => c.shape.as_ref().map(Cow::Borrowed),
            (None, v) => v.to_shape().ok().map(Cow::Owned),
        }
    }

    /// `Value::to_shape_of` for layouts and the values `to_shape` reads
    /// (swizzled layouts and tensors take the general path).
    #[inline(always)]
    fn shape_of(&self) -> Option<Cow<'a, HTuple<i64>>> {
        match self.value {
            Value::Layout(l) => Some(Cow::Borrowed(l.shape())),
            Value::Swizzled(_) | Value::Tensor(_) | Value::Array(_) => None,
            _ => self.shape(),
        }
    }

    /// `Value::to_coord`.
    #[inline(always)]
    fn coord(&self) -> Option<Cow<'a, Coord>> {
        match (self.converted, self.value) {
            (_, Value::Layout(_)) => None,
            (Some(c), _) => c.coord.as_ref().map(Cow::Borrowed),
            (None, v) => v.to_coord().ok().map(Cow::Owned),
        }
    }
}

/// A unary layout operation writing its result into a layout slot (the
/// library's `*_into` functions, which build the result in place).
pub type Unary = fn(&Layout, &mut Layout) -> Result<()>;
/// A layout operation with a tiler, likewise.
pub type Binary = fn(&Layout, &TilerRef<'_>, &mut Layout) -> Result<()>;

/// The [`Unary`] of a library function `fn(&Layout) -> Result<Layout>`
/// without an `*_into` form: its result is moved into the slot.
macro_rules! unary {
    ($f:path) => {
        |a: &$crate::layout::Layout, out: &mut $crate::layout::Layout| {
            *out = $f(a)?;
            Ok(())
        }
    };
}
pub(crate) use unary;

/// The [`Binary`] of a library function `fn(&Layout, &Tiler) -> Result<Layout>`
/// without an `*_into` form, likewise.
macro_rules! binary {
    ($f:path) => {
        |a: &$crate::layout::Layout,
         b: &$crate::tiler::TilerRef<'_>,
         out: &mut $crate::layout::Layout| {
            *out = $f(a, b)?;
            Ok(())
        }
    };
}
pub(crate) use binary;

/// Writes the integer tuple whose pre-order node bytes start at
/// `nodes[*at]` and whose leaves are `leaves[*k..]` into `out`, reusing
/// the vectors of a tuple `out` already holds (so that evaluating a
/// statement again into the same slot does not allocate). One pass over
/// the node bytes. `None` (with `out` partly written) for a profile nested
/// deeper than [`MAX_DEPTH`], a rank in the wide encoding, or too few
/// leaves.
fn fill_int_tuple(
    out: &mut Value,
    nodes: &[u8],
    at: &mut usize,
    leaves: &[i64],
    k: &mut usize,
    depth: usize,
) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    let node = *nodes.get(*at)?;
    *at += 1;
    if node == LEAF {
        set_int(out, *leaves.get(*k)?);
        *k += 1;
        return Some(());
    }
    if node == WIDE {
        return None;
    }
    if !matches!(out, Value::Tuple(_)) {
        *out = Value::Tuple(Vec::new());
    }
    let Value::Tuple(items) = out else {
        return None;
    };
    let rank = node as usize;
    if items.len() != rank {
        items.truncate(rank);
        items.resize_with(rank, || Value::None);
    }
    for item in items.iter_mut() {
        // a leaf child is written here, without the recursive call
        if nodes.get(*at) == Some(&LEAF) {
            *at += 1;
            set_int(item, *leaves.get(*k)?);
            *k += 1;
        } else {
            fill_int_tuple(item, nodes, at, leaves, k, depth + 1)?;
        }
    }
    Some(())
}

/// Writes the integer `v` into the slot `out` (an integer already there is
/// overwritten in place: nothing is dropped).
#[inline(always)]
pub(crate) fn set_int(out: &mut Value, v: i64) {
    match out {
        Value::Int(x) => *x = v,
        _ => *out = Value::Int(v),
    }
}

/// The layout held by the slot `out`, which is made a layout first if it
/// holds another value (an earlier layout's storage is reused).
#[inline(always)]
fn layout_slot(out: &mut Value) -> Option<&mut Layout> {
    if !matches!(out, Value::Layout(_)) {
        *out = Value::Layout(Layout::blank());
    }
    match out {
        Value::Layout(l) => Some(l),
        _ => None,
    }
}

/// The typed form of an operation: the `direct` field of its entry in the
/// operation table ([`super::table`], [`Operation::direct`](super::table::Operation::direct)).
///
/// It says which library function the operation's common argument forms
/// call and with which operand types, so that a caller holding typed
/// operands (the notation's prepared statements, the Python module) calls
/// the library directly instead of dispatching on the operation's name.
/// Every other form (mode paths, tensors, swizzled layouts, keywords other
/// than complement's `extend`) goes through the operation's general
/// implementation, which gives the same value or error.
///
/// ```
/// use rcute::ops::{lookup, Direct};
/// assert!(matches!(lookup("composition").unwrap().direct, Some(Direct::Tiler(_))));
/// assert!(matches!(lookup("size").unwrap().direct, Some(Direct::Size)));
/// assert!(lookup("E").unwrap().direct.is_none());
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Direct {
    /// `op(A)` and `op(A, profile)` (coalesce, coalesce_z, filter).
    Profile(Unary, Binary),
    /// `op(A)`: the unary layout operations.
    Unary(Unary),
    /// `op(A, B)` with a tiler `B`: composition, the divides and products.
    Tiler(Binary),
    /// `size(A)` of a layout.
    Size,
    /// `rank(A)` of a layout.
    Rank,
    /// `depth(A)` of a layout.
    Depth,
    /// `cosize(A)` of a layout.
    Cosize,
    /// `shape(A)` of a layout.
    Shape,
    /// `stride(A)` of a layout.
    Stride,
    /// `complement(A)`, `complement(A, extend)`, `complement(A, extend=...)`.
    Complement,
    /// `layout_add(A, B)` of two layouts.
    LayoutAdd,
    /// `max_common_layout(A, B)` of two layouts.
    MaxCommonLayout,
    /// `max_common_vector(A, B)` of two layouts.
    MaxCommonVector,
    /// `greatest_common_domain(S, T)` of two shapes (a layout stands for
    /// its shape).
    GreatestCommonDomain,
    /// `recast(A, scale)`.
    Recast,
    /// `upcast(A, n)` with an integer `n`.
    Upcast,
    /// `downcast(A, n)` with an integer `n`.
    Downcast,
    /// `make_ordered_layout(S, order)` of two shapes.
    MakeOrderedLayout,
    /// `idx2crd(c, S)`.
    Idx2crd,
    /// `crd2idx(c, S)`.
    Crd2idx,
}

impl Direct {
    /// The direct call on positional arguments `args` and keyword
    /// arguments `kw` (only complement's `extend` is covered), or `None`
    /// when the call is not covered (see the module documentation). Like
    /// the general dispatch of [`super::ops::call_with`], it does not
    /// check the value's size (the evaluators do, after either path).
    pub(crate) fn call(
        self,
        args: &[ArgView<'_>],
        kw: &[(&str, ArgView<'_>)],
    ) -> Option<Result<Value>> {
        let mut out = Value::None;
        let mut checked = false;
        Some(
            self.call_slot(args, kw, &mut out, &mut checked)?
                .map(|()| out),
        )
    }

    /// [`Direct::call`] writing the value into the slot `out` (a layout
    /// result is built in place, in the slot's layout storage when it
    /// holds a layout), its size checked ([`check_size`]). When the call is
    /// not covered (`None`) `out` may have been made a layout; on an error
    /// it is `None`.
    pub(crate) fn call_into(
        self,
        args: &[ArgView<'_>],
        kw: &[(&str, ArgView<'_>)],
        out: &mut Value,
    ) -> Option<Result<()>> {
        let mut checked = false;
        // (the outcomes are rebuilt rather than passed on: reading back a
        // stored `Result` stalls on store-to-load forwarding)
        let e = match self.call_slot(args, kw, out, &mut checked)? {
            Ok(()) if checked => return Some(Ok(())),
            Ok(()) => match check_size(out) {
                Ok(()) => return Some(Ok(())),
                Err(e) => e,
            },
            Err(e) => e,
        };
        *out = Value::None;
        Some(Err(e))
    }

    /// The call; `checked` is set where the value is known to be within
    /// [`check_size`]'s bounds without the walk.
    fn call_slot(
        self,
        args: &[ArgView<'_>],
        kw: &[(&str, ArgView<'_>)],
        out: &mut Value,
        checked: &mut bool,
    ) -> Option<Result<()>> {
        let set = |out: &mut Value, v: Result<Value>| Some(v.map(|v| *out = v));
        let int = |out: &mut Value, checked: &mut bool, v: Result<i64>| {
            Some(v.map(|v| {
                set_int(out, v);
                *checked = true;
            }))
        };
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
                None | Some(Value::None) => Some(algebra::complement::complement_into(
                    l,
                    None,
                    layout_slot(out)?,
                )),
                Some(_) => {
                    let s = ext?.shape_of()?;
                    Some(algebra::complement::complement_into(
                        l,
                        Some(s.as_ref().as_ref()),
                        layout_slot(out)?,
                    ))
                }
            };
        }
        if !kw.is_empty() {
            return None;
        }
        match (self, args) {
            // (an integer is within check_size's bounds: `checked`)
            (Direct::Size, [a]) => int(out, checked, a.layout()?.size()),
            (Direct::Rank, [a]) => int(out, checked, Ok(a.layout()?.rank() as i64)),
            (Direct::Depth, [a]) => {
                let d = a.layout()?.shape().as_ref().try_depth().ok()?;
                int(out, checked, Ok(i64::try_from(d).ok()?))
            }
            (Direct::Cosize, [a]) => int(out, checked, algebra::cosize(a.layout()?)),
            (Direct::Shape, [a]) => set(out, Ok(Value::from_shape(a.layout()?.shape()))),
            (Direct::Stride, [a]) => set(out, Ok(Value::from_stride(a.layout()?.stride()))),
            (Direct::Profile(f, _) | Direct::Unary(f), [a]) => {
                let l = a.layout()?;
                Some(f(l, layout_slot(out)?))
            }
            (Direct::Profile(_, f) | Direct::Tiler(f), [a, b]) => {
                let l = a.layout()?;
                let t = b.tiler()?;
                Some(f(l, &t, layout_slot(out)?))
            }
            (Direct::LayoutAdd, [a, b]) => {
                let (x, y) = (a.layout()?, b.layout()?);
                Some(algebra::layout_add::layout_add_into(
                    x,
                    y,
                    layout_slot(out)?,
                ))
            }
            (Direct::MaxCommonLayout, [a, b]) => set(
                out,
                algebra::max_common_layout(a.layout()?, b.layout()?).map(Value::Layout),
            ),
            (Direct::MaxCommonVector, [a, b]) => set(
                out,
                algebra::max_common_vector(a.layout()?, b.layout()?).map(Value::Int),
            ),
            (Direct::GreatestCommonDomain, [a, b]) => {
                let x = a.shape_of()?;
                let y = b.shape_of()?;
                Some(algebra::layout_add::greatest_common_domain_into(
                    x.as_ref().as_ref(),
                    y.as_ref().as_ref(),
                    layout_slot(out)?,
                ))
            }
            (Direct::Recast, [a, b]) => {
                let l = a.layout()?;
                let s = b.value.to_scale().ok()?;
                Some(algebra::recast::recast_into(l, &s, layout_slot(out)?))
            }
            (Direct::Upcast | Direct::Downcast, [a, b]) => {
                let l = a.layout()?;
                let Value::Int(n) = b.value else {
                    return None;
                };
                let r = if let Direct::Upcast = self {
                    algebra::upcast(l, *n)
                } else {
                    algebra::downcast(l, *n)
                };
                set(out, r.map(Value::Layout))
            }
            (Direct::MakeOrderedLayout, [a, b]) => {
                let s = a.shape()?;
                let o = b.shape()?;
                Some(algebra::make::make_ordered_layout_into(
                    s.as_ref().as_ref(),
                    o.as_ref().as_ref(),
                    layout_slot(out)?,
                ))
            }
            (Direct::Idx2crd, [a, b]) => {
                let c = a.coord()?;
                let s = b.shape_of()?;
                if let Some(Some(Scalar::Int(i))) = c.as_ref().as_ref().as_leaf() {
                    let s = s.as_ref().as_ref();
                    if s.is_leaf() {
                        return int(out, checked, Ok(*i));
                    }
                    let mut leaves = smallvec::SmallVec::new();
                    if shape::idx2crd_int_leaves(*i, s, &mut leaves).is_some() {
                        let (mut at, mut k) = (0, 0);
                        if fill_int_tuple(out, s.node_bytes(), &mut at, &leaves, &mut k, 0)
                            .is_some()
                        {
                            // one part per node byte (no wide ranks), nested
                            // at most MAX_DEPTH < MAX_VALUE_DEPTH levels
                            *checked = s.node_bytes().len() <= MAX_VALUE_PARTS;
                            return Some(Ok(()));
                        }
                    }
                }
                set(
                    out,
                    shape::idx2crd(c.as_ref().as_ref(), s.as_ref().as_ref())
                        .map(|r| Value::from_stride(&r)),
                )
            }
            (Direct::Crd2idx, [a, b]) => {
                let c = a.coord()?;
                let s = b.shape_of()?;
                match shape::crd2idx_value(c.as_ref().as_ref(), s.as_ref().as_ref()) {
                    Ok(Scalar::Int(v)) => int(out, checked, Ok(v)),
                    r => set(out, r.map(Value::from_scalar)),
                }
            }
            _ => None,
        }
    }
}
