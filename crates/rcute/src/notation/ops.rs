//! The dispatch of the notation's operations (`docs/language.md`,
//! "Operations"): one dispatch, `call_args` / `call_args_into`, behind
//! the public [`call`] and used by the evaluator, prepared statements, the
//! command-line tool and the Python module alike. Its arguments are read in
//! place where they can be (prepared literals, with their conversions made
//! once; variables): the typed forms read them there, the general forms
//! take the ones they read (moved when computed for the call, copied when
//! read in place). Which
//! operations exist, their parameters, whether they have a mode-indexed
//! form or accept a tensor, and their typed forms all come from the
//! operation table ([`super::table`], also `rcute::ops`): an operation's
//! plain argument forms go to its typed form ([`Direct`], the library
//! function on the operands as they are), every other form to its general
//! implementation in `notation::imp`.
//!
//! Mode-indexed calls follow `docs/language.md`, "Mode-indexed calls" (lifting) and
//! `docs/language.md`, "Mode-indexed calls" (queries read the mode); a tensor first argument
//! follows `docs/tensors.md`.

use super::apply::{apply, coordinate_of_args, eval_layout};
use super::imp::{arg_lists, Arg, ArgList, Args, KwList};
pub use super::imp::{get_path, lift, KwArgs, PosArgs, MAX_TENSOR_ELEMENTS};
pub use super::table::OPERATIONS;
use super::table::{lookup, Direct, Operation};
use super::value::{check_size, Value, MAX_VALUE_DEPTH, MAX_VALUE_PARTS};
use crate::algebra;
use crate::error::{Error, Result};
use crate::htuple::MAX_DEPTH;
use crate::htuple::{HTuple, LEAF, WIDE};
use crate::layout::Layout;
use crate::shape::{self, Coord};
use crate::stride::Scalar;
use crate::tiler::Tiler;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::cell::Cell;

// an integer tuple written by `fill_int_tuple` (nested at most MAX_DEPTH
// levels) is within the value depth bound without the walk
const _: () = assert!(MAX_DEPTH < MAX_VALUE_DEPTH);

/// A mode path `op[i, j]`.
pub type ModePath = SmallVec<[i64; 4]>;

/// True when `name` is an operation (such names cannot be rebound).
///
/// ```
/// assert!(rcute::notation::is_operation("composition"));
/// assert!(!rcute::notation::is_operation("A"));
/// ```
pub fn is_operation(name: &str) -> bool {
    lookup(name).is_some()
}

/// The operation table's own name for `name` (a `'static` name), or
/// `None` when `name` is not an operation.
///
/// ```
/// assert_eq!(rcute::notation::ops::operation_name("coalesce"), Some("coalesce"));
/// assert_eq!(rcute::notation::ops::operation_name("A"), None);
/// ```
pub fn operation_name(name: &str) -> Option<&'static str> {
    lookup(name).map(|op| op.name)
}

/// Calls the operation `name` with the mode path `mode` (empty for a plain
/// call `name(...)`; `[i, j]` for `name[i, j](...)`), positional `args` and
/// keyword `kwargs` (`mode=` is accepted by the mode-indexed operations and
/// appended to `mode`).
///
/// Errors: `type` for an unknown operation, wrong argument kinds or counts,
/// or a mode index on an operation without a mode-indexed form; otherwise
/// the errors of the library function called.
///
/// ```
/// use rcute::notation::{call, Value};
/// let a = rcute::notation::eval_value("(4,8):(1,4)").unwrap();
/// assert_eq!(call("size", &[], vec![a.clone()], vec![]).unwrap().to_string(), "32");
/// assert_eq!(call("size", &[1], vec![a], vec![]).unwrap().to_string(), "8");
/// ```
pub fn call(
    name: &str,
    mode: &[i64],
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
) -> Result<Value> {
    match lookup(name) {
        Some(op) => call_operation(op, mode, args, kwargs),
        None => Err(Error::type_(format!("unknown operation '{name}'"))),
    }
}

/// [`call`] of the operation table's entry `op` (found once, e.g. with
/// [`lookup`]), without looking its name up again:
/// what the Python module's operation objects call.
/// Errors: those of [`call`].
///
/// ```
/// use rcute::notation::{ops::call_operation, eval_value};
/// let size = rcute::ops::lookup("size").unwrap();
/// let a = eval_value("(4,8):(1,4)").unwrap();
/// assert_eq!(call_operation(size, &[1], vec![a], vec![]).unwrap().to_string(), "8");
/// ```
pub fn call_operation(
    op: &'static Operation,
    mode: &[i64],
    args: Vec<Value>,
    kwargs: Vec<(String, Value)>,
) -> Result<Value> {
    let mut kwargs = kwargs;
    let mut kw: KwArgs<'_> = kwargs
        .iter_mut()
        .map(|(k, v)| (k.as_str(), Some(std::mem::replace(v, Value::None))))
        .collect();
    let mut pos: PosArgs = args.into_iter().map(Some).collect();
    call_op(op, mode, &mut pos, &mut kw)
}

/// [`call`] with the arguments in inline vectors and borrowed keyword
/// names (what the evaluator uses: no allocation for the call itself).
/// The arguments are read in place or moved out (a slot whose value an
/// operation took holds `Value::None` afterwards): do not reuse `pos` and
/// `kw` for another call.
/// Errors: those of [`call`].
///
/// ```
/// use rcute::notation::{ops::{call_with, KwArgs, PosArgs}, Value};
/// let mut pos: PosArgs = [Some(Value::Int(4)), Some(Value::Int(2))].into_iter().collect();
/// assert!(call_with("not_an_operation", &[], &mut pos, &mut KwArgs::new()).is_err());
/// let l = rcute::notation::eval_value("(4,8):(1,4)").unwrap();
/// let mut pos: PosArgs = [Some(l)].into_iter().collect();
/// assert_eq!(call_with("size", &[], &mut pos, &mut KwArgs::new()).unwrap().to_string(), "32");
/// ```
pub fn call_with(
    name: &str,
    mode: &[i64],
    pos: &mut PosArgs,
    kw: &mut KwArgs<'_>,
) -> Result<Value> {
    match lookup(name) {
        Some(op) => call_op(op, mode, pos, kw),
        None => Err(Error::type_(format!("unknown operation '{name}'"))),
    }
}

/// [`call_with`] of the table entry `op` (resolved once by the caller).
pub(crate) fn call_op(
    op: &'static Operation,
    mode: &[i64],
    pos: &mut PosArgs,
    kw: &mut KwArgs<'_>,
) -> Result<Value> {
    let (mut pos, mut kw) = arg_lists(pos, kw);
    call_args(op, mode, &mut pos, &mut kw)
}

/// The dispatch of a call of `op` with the mode path `mode` on the
/// arguments `pos` and `kw` (borrowed or owned; consumed): the operation's
/// typed form ([`Operation::direct`]) for the plain argument forms it
/// covers, its general form (`notation::imp`) for every other. The value's
/// size is not checked (the evaluators do).
pub(crate) fn call_args<'k, 'v>(
    op: &'static Operation,
    mode: &[i64],
    pos: &mut ArgList<'v>,
    kw: &mut KwList<'k, 'v>,
) -> Result<Value> {
    if let (Some(d), true, true) = (op.direct, mode.is_empty(), enabled()) {
        let mut out = Value::None;
        let mut checked = false;
        if let Some(r) = typed(d, pos, kw, &mut out, &mut checked) {
            return r.map(|()| out);
        }
    }
    general(op, mode, pos, kw)
}

/// [`call_args`] writing the value into the slot `out` (a layout result
/// of a typed form is built in the slot's layout storage when it holds
/// one), its size checked ([`check_size`]). On an error `out` is `None`.
#[inline(always)]
pub(crate) fn call_args_into<'k, 'v>(
    op: &'static Operation,
    mode: &[i64],
    pos: &mut ArgList<'v>,
    kw: &mut KwList<'k, 'v>,
    out: &mut Value,
) -> Result<()> {
    if let (Some(d), true, true) = (op.direct, mode.is_empty(), enabled()) {
        let mut checked = false;
        // (the outcomes are rebuilt rather than passed on: reading back a
        // stored `Result` stalls on store-to-load forwarding)
        if let Some(r) = typed(d, pos, kw, out, &mut checked) {
            let e = match r {
                Ok(()) if checked => return Ok(()),
                Ok(()) => match check_size(out) {
                    Ok(()) => return Ok(()),
                    Err(e) => e,
                },
                Err(e) => e,
            };
            *out = Value::None;
            return Err(e);
        }
    }
    general_into(op, mode, pos, kw, out)
}

/// [`general`] writing the value into the slot `out`, its size checked.
#[inline(never)]
fn general_into<'k, 'v>(
    op: &'static Operation,
    mode: &[i64],
    pos: &mut ArgList<'v>,
    kw: &mut KwList<'k, 'v>,
    out: &mut Value,
) -> Result<()> {
    let r = general(op, mode, pos, kw).and_then(|v| {
        check_size(&v)?;
        Ok(v)
    });
    match r {
        Ok(v) => {
            *out = v;
            Ok(())
        }
        Err(e) => {
            *out = Value::None;
            Err(e)
        }
    }
}

/// The general form of a call of `op`: the `mode=` keyword, the mode
/// path, a tensor first argument, symbols, then the operation's
/// implementation.
fn general<'k, 'v>(
    op: &'static Operation,
    mode: &[i64],
    pos: &mut ArgList<'v>,
    kw: &mut KwList<'k, 'v>,
) -> Result<Value> {
    let name = op.name;
    let mut a = Args {
        name: op.name,
        params: op.params,
        pos,
        kw,
    };
    let mut path: ModePath = mode.iter().copied().collect();
    if op.mode_indexed {
        if let Some(m) =
            a.kw.iter_mut()
                .find(|(k, _)| *k == "mode")
                .and_then(|(_, v)| v.take())
        {
            match m.value() {
                Value::Int(i) => path.push(*i),
                Value::Tuple(items) => {
                    for it in items {
                        path.push(it.to_int("mode")?);
                    }
                }
                v => {
                    return Err(Error::type_(format!(
                        "{name}: mode must be an integer or a tuple, got {v}"
                    )))
                }
            }
        }
    } else if !path.is_empty() {
        return Err(Error::type_(format!(
            "{name} has no mode-indexed form ({name}[...] is not supported)"
        )));
    }
    if path.len() > MAX_DEPTH {
        return Err(Error::value(format!(
            "{name}: mode path longer than {MAX_DEPTH}"
        )));
    }
    let tensor = if op.tensor_first {
        tensor_first_argument(&mut a)
    } else {
        None
    };
    // an argument with symbols: the operations on layouts with symbols
    // (or their error); `None` for everything else
    if let Some(r) = super::symops::dispatch(&mut a, &path, tensor.is_some()) {
        let r = r?;
        a.finish()?;
        return Ok(r);
    }
    let r = match tensor {
        // docs/tensors.md: the operation applies to the layout and the
        // accessor is kept
        Some(t) => match (op.imp)(&mut a, &path)? {
            Value::Layout(l) => t.with_layout(l),
            v => v,
        },
        None => (op.imp)(&mut a, &path)?,
    };
    a.finish()?;
    Ok(r)
}

/// If the first argument is a tensor, replaces it by the tensor's layout
/// and returns the tensor (for the operations that accept one).
fn tensor_first_argument(a: &mut Args) -> Option<TensorArg> {
    let slot = a.pos.first_mut()?;
    let (t, l) = match slot.as_ref().map(Arg::value) {
        Some(Value::Tensor(t)) => (TensorArg::Implicit(t.clone()), t.layout().clone()),
        Some(Value::Array(t)) => (TensorArg::Array(t.clone()), t.layout().clone()),
        _ => return None,
    };
    Arg::put(slot, Value::Layout(l));
    Some(t)
}

/// A tensor first argument, kept while the operation runs on its layout.
enum TensorArg {
    Implicit(crate::tensor::Tensor<crate::tensor::ImplicitAccessor>),
    Array(crate::tensor::Tensor<crate::tensor::SharedArray<i64>>),
}

impl TensorArg {
    /// The same accessor with the resulting layout.
    fn with_layout(self, l: Layout) -> Value {
        match self {
            TensorArg::Implicit(t) => Value::Tensor(t.with_layout(l)),
            TensorArg::Array(t) => Value::Array(t.with_layout(l)),
        }
    }
}

/// Evaluates `L(args)` for the Python module (same rules as the notation:
/// a `None` in the coordinate slices). Errors: those of [`apply`].
///
/// ```
/// use rcute::notation::{ops::call_layout, Value};
/// let l = rcute::Layout::row_major(rcute::HTuple::flat([4, 8])).unwrap();
/// assert_eq!(call_layout(&l, vec![Value::Int(14)]).unwrap().to_string(), "19");
/// ```
pub fn call_layout(l: &Layout, args: Vec<Value>) -> Result<Value> {
    eval_layout(l, &coordinate_of_args(args))
}

/// Applies any callable value (layout, swizzle, swizzled layout).
/// Errors: those of [`apply`].
///
/// ```
/// use rcute::notation::{eval_value, ops::call_value, Value};
/// let sw = eval_value("Swizzle(3,4,3)").unwrap();
/// assert_eq!(call_value(&sw, vec![Value::Int(1000)]).unwrap().to_string(), "920");
/// ```
pub fn call_value(f: &Value, args: Vec<Value>) -> Result<Value> {
    apply(f, args)
}

// ---------------------------------------------------------------------------
// The typed forms of the table (`Operation::direct`): the plain argument
// forms of the algebra read in place.

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// Turns the typed forms of this thread on or off (they are on). With them
/// off every call takes the operation's general form, which gives the same
/// values and errors: the tests compare the two.
pub(crate) fn set_enabled(on: bool) {
    ENABLED.with(|c| c.set(on));
}

/// True when the typed forms are on for this thread.
pub(crate) fn enabled() -> bool {
    ENABLED.with(|c| c.get())
}

impl Arg<'_> {
    /// The layout, when the argument is one.
    #[inline(always)]
    fn layout(&self) -> Option<&Layout> {
        match self.value() {
            Value::Layout(l) => Some(l),
            _ => None,
        }
    }

    /// `Value::to_tiler` (equal to `into_tiler`), made when the literal was
    /// prepared or now; `None` where it fails.
    #[inline(always)]
    fn tiler(&self) -> Option<Cow<'_, Tiler>> {
        match self.converted() {
            Some(c) => c.tiler.as_ref().map(Cow::Borrowed),
            None => self.value().to_tiler().ok().map(Cow::Owned),
        }
    }

    /// `Value::to_shape`, likewise.
    #[inline(always)]
    fn shape(&self) -> Option<Cow<'_, HTuple<i64>>> {
        match (self.converted(), self.value()) {
            (_, Value::Layout(_)) => None,
            (Some(c), _) => c.shape.as_ref().map(Cow::Borrowed),
            (None, v) => v.to_shape().ok().map(Cow::Owned),
        }
    }

    /// `Value::to_shape_of` for layouts and the values `to_shape` reads
    /// (swizzled layouts and tensors take the general form).
    #[inline(always)]
    fn shape_of(&self) -> Option<Cow<'_, HTuple<i64>>> {
        match self.value() {
            Value::Layout(l) => Some(Cow::Borrowed(l.shape())),
            Value::Swizzled(_) | Value::Tensor(_) | Value::Array(_) => None,
            _ => self.shape(),
        }
    }

    /// `Value::to_coord`, likewise.
    #[inline(always)]
    fn coord(&self) -> Option<Cow<'_, Coord>> {
        match (self.converted(), self.value()) {
            (_, Value::Layout(_)) => None,
            (Some(c), _) => c.coord.as_ref().map(Cow::Borrowed),
            (None, v) => v.to_coord().ok().map(Cow::Owned),
        }
    }
}

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

/// The typed form `d` of an operation on the arguments `args` and `kw`
/// (only complement's `extend` keyword is covered), written into the slot
/// `out` (a layout result is built in place, in the slot's layout storage
/// when it holds one); `checked` is set where the value is known to be
/// within [`check_size`]'s bounds without the walk. `None` when the form
/// is not covered or an operand does not convert: the operation's general
/// form then gives the value or the error (the same conversions and the
/// same library function).
fn typed(
    d: Direct,
    args: &[Option<Arg<'_>>],
    kw: &[(&str, Option<Arg<'_>>)],
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
    if let Direct::Complement = d {
        // complement(A), complement(A, extend), complement(A, extend=...)
        let (a, ext) = match (args, kw) {
            ([Some(a)], []) => (a, None),
            ([Some(a), Some(e)], []) => (a, Some(e)),
            ([Some(a)], [(k, Some(e))]) if *k == "extend" => (a, Some(e)),
            _ => return None,
        };
        let l = a.layout()?;
        return match ext.map(Arg::value) {
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
    match (d, args) {
        // (an integer is within check_size's bounds: `checked`)
        (Direct::Size, [Some(a)]) => int(out, checked, a.layout()?.size()),
        (Direct::Rank, [Some(a)]) => int(out, checked, Ok(a.layout()?.rank() as i64)),
        (Direct::Depth, [Some(a)]) => {
            let d = a.layout()?.shape().as_ref().try_depth().ok()?;
            int(out, checked, Ok(i64::try_from(d).ok()?))
        }
        (Direct::Cosize, [Some(a)]) => int(out, checked, algebra::cosize(a.layout()?)),
        (Direct::Shape, [Some(a)]) => set(out, Ok(Value::from_shape(a.layout()?.shape()))),
        (Direct::Stride, [Some(a)]) => set(out, Ok(Value::from_stride(a.layout()?.stride()))),
        (Direct::Profile(f, _) | Direct::Unary(f), [Some(a)]) => {
            let l = a.layout()?;
            Some(f(l, layout_slot(out)?))
        }
        (Direct::Profile(_, f) | Direct::Tiler(f), [Some(a), Some(b)]) => {
            let l = a.layout()?;
            let t = b.tiler()?;
            Some(f(l, &t, layout_slot(out)?))
        }
        (Direct::LayoutAdd, [Some(a), Some(b)]) => {
            let (x, y) = (a.layout()?, b.layout()?);
            Some(algebra::layout_add::layout_add_into(
                x,
                y,
                layout_slot(out)?,
            ))
        }
        (Direct::MaxCommonLayout, [Some(a), Some(b)]) => set(
            out,
            algebra::max_common_layout(a.layout()?, b.layout()?).map(Value::Layout),
        ),
        (Direct::MaxCommonVector, [Some(a), Some(b)]) => set(
            out,
            algebra::max_common_vector(a.layout()?, b.layout()?).map(Value::Int),
        ),
        (Direct::GreatestCommonDomain, [Some(a), Some(b)]) => {
            let x = a.shape_of()?;
            let y = b.shape_of()?;
            Some(algebra::layout_add::greatest_common_domain_into(
                x.as_ref().as_ref(),
                y.as_ref().as_ref(),
                layout_slot(out)?,
            ))
        }
        (Direct::Recast, [Some(a), Some(b)]) => {
            let l = a.layout()?;
            let s = b.value().to_scale().ok()?;
            Some(algebra::recast::recast_into(l, &s, layout_slot(out)?))
        }
        (Direct::Upcast | Direct::Downcast, [Some(a), Some(b)]) => {
            let l = a.layout()?;
            let Value::Int(n) = b.value() else {
                return None;
            };
            let r = if let Direct::Upcast = d {
                algebra::upcast(l, *n)
            } else {
                algebra::downcast(l, *n)
            };
            set(out, r.map(Value::Layout))
        }
        (Direct::MakeOrderedLayout, [Some(a), Some(b)]) => {
            let s = a.shape()?;
            let o = b.shape()?;
            Some(algebra::make::make_ordered_layout_into(
                s.as_ref().as_ref(),
                o.as_ref().as_ref(),
                layout_slot(out)?,
            ))
        }
        (Direct::Idx2crd, [Some(a), Some(b)]) => {
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
                    if fill_int_tuple(out, s.node_bytes(), &mut at, &leaves, &mut k, 0).is_some() {
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
        (Direct::Crd2idx, [Some(a), Some(b)]) => {
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
