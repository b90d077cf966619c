//! The implementation of every operation of the notation: one function per
//! operation (`fn(&mut Args, &[i64]) -> Result<Value>`, the arguments and
//! the mode path), named in the operation's entry of the table
//! ([`super::table`]), which also gives each argument's keyword name.
//! Shared argument conversions follow `docs/language.md`, "Tilers" (argument
//! promotion through `tiler_to_layout`, `None` first arguments);
//! mode-indexed calls follow `docs/language.md`, "Mode-indexed calls" (lifting) and
//! `docs/language.md`, "Mode-indexed calls" (queries read the mode).
//!
//! This module depends only on the values and the library: the dispatch
//! ([`super::ops`]) and the table call into it, never the reverse.

use std::mem::ManuallyDrop;

use super::param::Param;
use super::value::{check_depth, Value};
use crate::algebra;
use crate::error::{Error, Result};
use crate::htuple::{HTuple, MAX_DEPTH};
use crate::layout::Layout;
use crate::shape;
use crate::stride::{self, Scalar};
use crate::swizzle::{Swizzle, SwizzledLayout};
use crate::tiler::{tiler_to_layout, Tiler};
use smallvec::SmallVec;

/// Positional arguments of a call (`None` once consumed).
pub type PosArgs = SmallVec<[Option<Value>; 4]>;
/// Keyword arguments of a call (`None` once consumed).
pub type KwArgs<'a> = SmallVec<[(&'a str, Option<Value>); 2]>;

/// One argument of a call as the dispatch reads it: read in place (a
/// prepared literal, with the conversions made when it was prepared, or a
/// variable), or a value computed for the call, which the operation moves
/// out when it takes it. Small (three words), so that building the
/// argument list of a call copies no values.
pub(crate) enum Arg<'v> {
    /// A value read in place, and the prepared conversions of a literal.
    Borrowed(&'v Value, Option<&'v Converted>),
    /// A value computed for the call (left `None` once taken).
    Owned(&'v mut Value),
    /// A value the dispatch made for the call (a tensor's layout, an
    /// argument put back). Only [`Args`] makes one, and frees what is left
    /// of them when it goes ([`Args`]'s `Drop`), so that an argument list
    /// has nothing to drop (no drop loop on the typed forms' path).
    Made(ManuallyDrop<Box<Value>>),
}

impl<'v> Arg<'v> {
    /// The value.
    #[inline(always)]
    pub(crate) fn value(&self) -> &Value {
        match self {
            Arg::Borrowed(v, _) => v,
            Arg::Owned(v) => v,
            Arg::Made(v) => v,
        }
    }

    /// The conversions made when the literal was prepared.
    #[inline(always)]
    pub(crate) fn converted(&self) -> Option<&Converted> {
        match self {
            Arg::Borrowed(_, c) => *c,
            _ => None,
        }
    }

    /// A value made for the call.
    pub(crate) fn made(v: Value) -> Arg<'v> {
        Arg::Made(ManuallyDrop::new(Box::new(v)))
    }

    /// Puts the value `v`, made for the call, into the argument slot
    /// `slot` (freeing a value made earlier that it held).
    pub(crate) fn put(slot: &mut Option<Arg<'v>>, v: Value) {
        if let Some(old) = slot.replace(Arg::made(v)) {
            old.free();
        }
    }

    /// Frees a value made for the call (nothing for the others).
    fn free(self) {
        if let Arg::Made(b) = self {
            drop(ManuallyDrop::into_inner(b));
        }
    }

    /// The value, owned: moved out of a computed value, copied from one
    /// read in place.
    #[inline]
    pub(crate) fn into_value(self) -> Value {
        match self {
            Arg::Borrowed(v, _) => v.clone(),
            Arg::Owned(v) => std::mem::replace(v, Value::None),
            Arg::Made(v) => *ManuallyDrop::into_inner(v),
        }
    }
}

/// Positional arguments as the dispatch reads them (`None` once consumed).
pub(crate) type ArgList<'v> = SmallVec<[Option<Arg<'v>>; 4]>;
/// Keyword arguments as the dispatch reads them (`None` once consumed).
pub(crate) type KwList<'k, 'v> = SmallVec<[(&'k str, Option<Arg<'v>>); 2]>;

/// The arguments of [`PosArgs`] and [`KwArgs`] as argument lists over
/// their values (a value the operation takes is moved out of them).
pub(crate) fn arg_lists<'k, 'v>(
    pos: &'v mut PosArgs,
    kw: &'v mut KwArgs<'k>,
) -> (ArgList<'v>, KwList<'k, 'v>) {
    let p = pos.iter_mut().map(|v| v.as_mut().map(Arg::Owned)).collect();
    let k = kw
        .iter_mut()
        .map(|(k, v)| (*k, v.as_mut().map(Arg::Owned)))
        .collect();
    (p, k)
}

/// Conversions of a literal argument, made once when it is prepared
/// (`None` where the conversion fails: the general form of the operation
/// then reports the error).
#[derive(Clone)]
pub(crate) struct Converted {
    pub(crate) tiler: Option<Tiler>,
    pub(crate) shape: Option<HTuple<i64>>,
    pub(crate) coord: Option<shape::Coord>,
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

/// The implementation of an operation: its arguments and mode path.
pub(crate) type Imp = fn(&mut Args<'_, '_, '_>, &[i64]) -> Result<Value>;

/// The arguments of one call of the operation `name`, consumed by position
/// or by keyword; the keyword of argument `i` is the name of the `i`-th
/// parameter in the table.
pub(crate) struct Args<'a, 'k, 'v> {
    pub(crate) name: &'static str,
    pub(crate) params: &'static [Param],
    pub(crate) pos: &'a mut ArgList<'v>,
    pub(crate) kw: &'a mut KwList<'k, 'v>,
}

impl Drop for Args<'_, '_, '_> {
    /// Frees the values made for the call that are left (see [`Arg::Made`]).
    fn drop(&mut self) {
        let slots = self
            .pos
            .iter_mut()
            .chain(self.kw.iter_mut().map(|(_, v)| v));
        for slot in slots {
            if matches!(slot, Some(Arg::Made(_))) {
                if let Some(a) = slot.take() {
                    a.free();
                }
            }
        }
    }
}

impl Args<'_, '_, '_> {
    /// The operation's name.
    pub(super) fn name(&self) -> &'static str {
        self.name
    }

    /// The keyword of argument `i`: its parameter's name.
    pub(super) fn key(&self, i: usize) -> &'static str {
        self.params.get(i).map_or("", |p| p.name)
    }

    /// Argument `i`, by position or keyword.
    pub(super) fn opt(&mut self, i: usize) -> Result<Option<Value>> {
        let key = self.key(i);
        if self.params.get(i).map(|p| p.kind) == Some(super::param::ParamKind::PositionalOnly) {
            return Ok(self
                .pos
                .get_mut(i)
                .and_then(|v| v.take())
                .map(Arg::into_value));
        }
        let by_kw = self
            .kw
            .iter_mut()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.take())
            .map(Arg::into_value);
        let by_pos = self
            .pos
            .get_mut(i)
            .and_then(|v| v.take())
            .map(Arg::into_value);
        match (by_pos, by_kw) {
            (Some(_), Some(_)) => Err(Error::type_(format!(
                "{}: argument '{key}' given twice",
                self.name()
            ))),
            (a, b) => Ok(a.or(b)),
        }
    }

    /// Required argument `i`, by position or keyword.
    pub(super) fn req(&mut self, i: usize) -> Result<Value> {
        self.opt(i)?.ok_or_else(|| {
            Error::type_(format!(
                "{}: missing argument {} ('{}')",
                self.name(),
                i + 1,
                self.key(i)
            ))
        })
    }

    /// All remaining positional arguments from `i` on.
    pub(super) fn rest(&mut self, i: usize) -> Vec<Value> {
        self.pos
            .iter_mut()
            .skip(i)
            .filter_map(|v| v.take().map(Arg::into_value))
            .collect()
    }

    /// All keyword arguments not taken by a named parameter (the `**`
    /// parameter), in the order given.
    fn keywords(&mut self) -> Vec<(String, Value)> {
        self.kw
            .iter_mut()
            .filter_map(|(k, v)| v.take().map(|v| (k.to_string(), v.into_value())))
            .collect()
    }

    /// Errors for any argument not consumed.
    pub(crate) fn finish(self) -> Result<()> {
        let extra_pos = self.pos.iter().filter(|v| v.is_some()).count();
        if extra_pos > 0 {
            return Err(Error::type_(format!(
                "{}: {extra_pos} extra positional argument(s)",
                self.name()
            )));
        }
        if let Some((k, _)) = self.kw.iter().find(|(_, v)| v.is_some()) {
            return Err(Error::type_(format!(
                "{}: unexpected keyword argument '{k}'{}",
                self.name(),
                super::suggest::did_you_mean(k, self.params.iter().map(|p| p.name))
            )));
        }
        Ok(())
    }
}

/// The largest buffer `make_tensor` allocates in the notation.
pub const MAX_TENSOR_ELEMENTS: i64 = 1 << 24;

/// `get(x, path)` on values: layouts follow shape and stride together,
/// tuples their elements (negative indices count from the end)
/// (`docs/operations.md`, `docs/language.md`, "Mode access"). Errors: `type` for an index into a
/// leaf, `bounds` past the rank.
///
/// ```
/// use rcute::notation::{eval_value, ops::get_path};
/// let a = eval_value("((6,2),5):((8,2),1)").unwrap();
/// assert_eq!(get_path(&a, &[0, 1]).unwrap().to_string(), "2:2");
/// assert!(get_path(&a, &[1, 0]).is_err());
/// ```
pub fn get_path(x: &Value, path: &[i64]) -> Result<Value> {
    let mut cur = x.clone();
    for &i in path {
        cur = match &cur {
            Value::Layout(l) => {
                if l.is_leaf() {
                    return Err(Error::type_(format!(
                        "get: index {i} into the leaf layout {l}"
                    )));
                }
                Value::Layout(l.mode(i)?)
            }
            Value::SymLayout(l) => {
                if l.is_leaf() {
                    return Err(Error::type_(format!(
                        "get: index {i} into the leaf layout {l}"
                    )));
                }
                Value::from_sym_layout(l.mode(i)?)
            }
            Value::Swizzled(s) => {
                if s.layout.is_leaf() {
                    return Err(Error::type_(format!(
                        "get: index {i} into the leaf layout {}",
                        s.layout
                    )));
                }
                Value::Swizzled(s.mode(i)?)
            }
            Value::Tensor(t) => {
                if t.layout().is_leaf() {
                    return Err(Error::type_(format!(
                        "get: index {i} into the leaf tensor {t}"
                    )));
                }
                Value::Tensor(t.mode(i)?)
            }
            Value::Array(t) => {
                if t.layout().is_leaf() {
                    return Err(Error::type_(format!(
                        "get: index {i} into the leaf tensor {t}"
                    )));
                }
                Value::Array(t.mode(i)?)
            }
            Value::Tuple(items) => {
                let n = items.len() as i64;
                let j = if i < 0 { i + n } else { i };
                if j < 0 || j >= n {
                    return Err(Error::bounds(format!(
                        "get: index {i} out of range for {cur} of rank {n}"
                    )));
                }
                items[j as usize].clone()
            }
            v => return Err(Error::type_(format!("get: index {i} into the leaf {v}"))),
        };
    }
    Ok(cur)
}

/// `lift(v, path, pad)` (`docs/operations.md`): for each index `i` of the path
/// from the innermost outwards, `v` becomes `i` copies of `pad` followed
/// by `v`. Errors: `value` for a negative or huge index.
///
/// ```
/// use rcute::notation::{ops::lift, Value};
/// let r = lift(Value::Int(7), &[2, 1], &Value::None).unwrap();
/// assert_eq!(r.to_string(), "(None, None, (None, 7))");
/// ```
pub fn lift(v: Value, path: &[i64], pad: &Value) -> Result<Value> {
    let total = path
        .iter()
        .try_fold(0i64, |acc, &i| acc.checked_add(i.max(0)))
        .unwrap_or(i64::MAX);
    if total > super::value::MAX_VALUE_PARTS as i64 {
        return Err(Error::value(format!(
            "lift: the path {path:?} would build more than {} parts",
            super::value::MAX_VALUE_PARTS
        )));
    }
    let mut cur = v;
    for &i in path.iter().rev() {
        let i =
            usize::try_from(i).map_err(|_| Error::value(format!("lift: negative index {i}")))?;
        let mut items = vec![pad.clone(); i];
        items.push(cur);
        cur = Value::Tuple(items);
    }
    Ok(cur)
}

/// The tuple of mode indices of `select`/`take`: the subscript path, or
/// the second argument.
fn index_list(path: &[i64], a: &mut Args, key_pos: usize) -> Result<Vec<Value>> {
    if let Some(v) = a.opt(key_pos)? {
        return Ok(match v {
            Value::Tuple(items) => items,
            v => vec![v],
        });
    }
    Ok(path.iter().map(|&i| Value::Int(i)).collect())
}

fn mode_path_arg(path: &[i64], a: &mut Args, pos: usize) -> Result<Vec<i64>> {
    let mut p = path.to_vec();
    if let Some(v) = a.opt(pos)? {
        match v {
            Value::Int(i) => p.push(i),
            Value::Tuple(items) => {
                for it in &items {
                    p.push(it.to_int("path")?);
                }
            }
            v => {
                return Err(Error::type_(format!(
                    "path must be a tuple of integers, got {v}"
                )))
            }
        }
    }
    Ok(p)
}

/// A layout argument, promoting integers and tuples through
/// `tiler_to_layout` (`docs/language.md`, "Tilers").
fn promote(v: &Value, op: &str) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l.clone()),
        Value::Int(_) | Value::Tuple(_) => tiler_to_layout(&v.to_tiler()?),
        v => Err(Error::type_(format!(
            "{op}: expected a layout, an integer or a tuple, got the {} {v}",
            v.kind_name()
        ))),
    }
}

/// [`promote`] of an owned value: a layout is moved, not copied.
fn promote_owned(v: Value, op: &str) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l),
        v => promote(&v, op),
    }
}

/// [`layout_arg`] of an owned value: the layout is moved, not copied.
fn layout_arg_owned(v: Value, op: &str) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l),
        v => layout_arg(&v, op),
    }
}

/// A layout argument without promotion.
fn layout_arg(v: &Value, op: &str) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l.clone()),
        v => Err(Error::type_(format!(
            "{op}: expected a layout, got the {} {v}",
            v.kind_name()
        ))),
    }
}

fn layout(l: Layout) -> Value {
    Value::Layout(l)
}

fn shape_value(s: &HTuple<i64>) -> Value {
    Value::from_shape(s)
}

/// The tuple value of a shape or stride of a layout with symbols (a
/// constant leaf is an integer).
fn sym_tuple_value<'a>(t: impl Into<crate::HRef<'a, crate::sym::SymInt>>) -> Value {
    Value::from_htuple(t, |x| Value::from_sym(x.clone()))
}

fn bool_value(b: bool) -> Value {
    Value::Bool(b)
}

fn usize_value(n: usize) -> Result<Value> {
    Ok(Value::Int(i64::try_from(n).map_err(|_| {
        Error::overflow("count does not fit in 64 bits")
    })?))
}

/// The value whose queries (shape, size, ...) are read, after the mode path.
fn query_target(a: &mut Args, path: &[i64]) -> Result<Value> {
    let x = a.req(0)?;
    get_path(&x, path)
}

fn rank_of(v: &Value) -> Result<Value> {
    match v {
        Value::Layout(l) => usize_value(l.rank()),
        Value::SymLayout(l) => usize_value(l.rank()),
        Value::Swizzled(s) => usize_value(s.layout.rank()),
        Value::Tensor(t) => usize_value(t.rank()),
        Value::Array(t) => usize_value(t.rank()),
        Value::Tuple(items) => usize_value(items.len()),
        _ => Ok(Value::Int(1)),
    }
}

fn depth_of(v: &Value) -> Result<Value> {
    fn rec(v: &Value, depth: usize) -> Result<usize> {
        check_depth(depth, "depth")?;
        match v {
            Value::Tuple(items) => {
                if items.is_empty() {
                    // the empty tuple (and the empty layout ():()) has depth 1
                    return Ok(1);
                }
                let mut m = 0;
                for x in items {
                    m = m.max(rec(x, depth + 1)?);
                }
                Ok(m + 1)
            }
            Value::Layout(l) => rec(&shape_value(l.shape()), depth),
            Value::SymLayout(l) => rec(&sym_tuple_value(l.shape()), depth),
            Value::Swizzled(s) => rec(&shape_value(s.layout.shape()), depth),
            Value::Tensor(t) => rec(&shape_value(t.shape()), depth),
            Value::Array(t) => rec(&shape_value(t.shape()), depth),
            _ => Ok(0),
        }
    }
    usize_value(rec(v, 0)?)
}

/// The `type` error of `idx2crd`/`crd2idx` (`op`) with symbolic operands
/// and a stride argument `d`: the strided form takes concrete integers.
fn symbolic_unstrided(op: &str, d: &Option<Value>) -> Result<()> {
    if matches!(d, None | Some(Value::None)) {
        return Ok(());
    }
    Err(Error::type_(format!(
        "{op}: the strided form (a third argument) takes concrete integers; symbolic \
         operands are accepted without it"
    )))
}

/// `v` with `values` substituted in its symbolic integers (`subs`).
fn subs_value(v: &Value, values: &[(&str, i64)], depth: usize) -> Result<Value> {
    check_depth(depth, "subs")?;
    Ok(match v {
        Value::Sym(x) => Value::from_sym(x.subs(values)?),
        Value::SymLayout(l) => Value::from_sym_layout(l.subs(values)?),
        Value::Tuple(items) => Value::Tuple(
            items
                .iter()
                .map(|x| subs_value(x, values, depth + 1))
                .collect::<Result<_>>()?,
        ),
        Value::List(items) => Value::List(
            items
                .iter()
                .map(|x| subs_value(x, values, depth + 1))
                .collect::<Result<_>>()?,
        ),
        v => v.clone(),
    })
}

fn size_of(v: &Value) -> Result<Value> {
    match v {
        Value::None => Err(Error::type_("size(None) is undefined")),
        Value::SymLayout(l) => Ok(Value::from_sym(l.size()?)),
        v if v.has_sym() => Ok(Value::from_sym(shape::size(v.to_sym_shape()?.as_ref())?)),
        v => Ok(Value::Int(shape::size(v.to_shape_of()?.as_ref())?)),
    }
}

fn shape_of(v: &Value) -> Result<Value> {
    match v {
        Value::Layout(l) => Ok(shape_value(l.shape())),
        Value::SymLayout(l) => Ok(sym_tuple_value(l.shape())),
        Value::Swizzled(s) => Ok(shape_value(s.layout.shape())),
        Value::Tensor(t) => Ok(shape_value(t.shape())),
        Value::Array(t) => Ok(shape_value(t.shape())),
        Value::Int(_) | Value::Tuple(_) | Value::Sym(_) => {
            if v.has_sym() {
                v.to_sym_shape()?;
            } else {
                v.to_shape()?;
            }
            Ok(v.clone())
        }
        v => Err(Error::type_(format!(
            "shape: the {} {v} has no shape",
            v.kind_name()
        ))),
    }
}

fn flatten_value(v: &Value) -> Result<Value> {
    fn rec(v: &Value, out: &mut Vec<Value>, depth: usize) -> Result<()> {
        check_depth(depth, "flatten")?;
        match v {
            Value::Tuple(items) => {
                for x in items {
                    rec(x, out, depth + 1)?;
                }
            }
            x => out.push(x.clone()),
        }
        Ok(())
    }
    if let Value::Layout(l) = v {
        return Ok(layout(Layout::from_parts(
            l.shape().flatten(),
            l.stride().to_owned().flatten(),
        )));
    }
    let mut out = Vec::new();
    rec(v, &mut out, 0)?;
    Ok(Value::Tuple(out))
}

/// `slice_(c, b)` / `dice_(c, b)` (`docs/operations.md`): the sub-values of `b`
/// paired with `None` (slice) or non-`None` (dice) leaves of `c`.
fn slice_dice(c: &Value, b: &Value, keep_none: bool) -> Result<Value> {
    fn rec(
        c: &Value,
        b: Option<&Value>,
        keep_none: bool,
        out: &mut Vec<Value>,
        depth: usize,
    ) -> Result<()> {
        check_depth(depth, "slice_")?;
        match c {
            Value::Tuple(cs) => match b {
                Some(Value::Tuple(bs)) => {
                    let n = cs.len().max(bs.len());
                    for i in 0..n {
                        let ci = cs.get(i).unwrap_or(&Value::None);
                        rec(ci, bs.get(i), keep_none, out, depth + 1)?;
                    }
                    Ok(())
                }
                None => {
                    for ci in cs {
                        rec(ci, None, keep_none, out, depth + 1)?;
                    }
                    Ok(())
                }
                Some(bv) => Err(Error::type_(format!(
                    "slice_: the tuple coordinate {c} against the leaf {bv}"
                ))),
            },
            Value::None => {
                if keep_none {
                    out.push(b.cloned().unwrap_or(Value::None));
                }
                Ok(())
            }
            _ => {
                if !keep_none {
                    out.push(b.cloned().unwrap_or(Value::None));
                }
                Ok(())
            }
        }
    }
    let mut out = Vec::new();
    rec(c, Some(b), keep_none, &mut out, 0)?;
    Ok(Value::Tuple(out))
}

fn repeat_like_value(x: &Value, profile: &Value, depth: usize) -> Result<Value> {
    check_depth(depth, "repeat_like")?;
    if depth == 0 {
        // the result has one copy of `x` per leaf of `profile`
        let copies = count_leaves(profile);
        let mut parts = super::value::MAX_VALUE_PARTS;
        let fits = super::value::check_size(x).is_ok() && {
            let mut n = 0usize;
            count_parts(x, &mut n);
            parts = parts.checked_div(n.max(1)).unwrap_or(0);
            copies <= parts
        };
        if !fits {
            return Err(Error::value(format!(
                "repeat_like: the result would have more than {} parts",
                super::value::MAX_VALUE_PARTS
            )));
        }
    }
    match profile {
        Value::Tuple(items) => Ok(Value::Tuple(
            items
                .iter()
                .map(|p| repeat_like_value(x, p, depth + 1))
                .collect::<Result<_>>()?,
        )),
        _ => Ok(x.clone()),
    }
}

fn basis_path_value(path: &[usize]) -> Result<Value> {
    Ok(Value::Tuple(
        path.iter()
            .map(|&p| usize_value(p))
            .collect::<Result<_>>()?,
    ))
}

fn count_leaves(v: &Value) -> usize {
    match v {
        Value::Tuple(items) => items.iter().map(count_leaves).sum(),
        _ => 1,
    }
}

fn count_parts(v: &Value, n: &mut usize) {
    *n += 1;
    if let Value::Tuple(items) | Value::List(items) = v {
        for x in items {
            count_parts(x, n);
        }
    }
}

/// `E(*path)`: a negative index is a `value` error (the reference reads
/// it as 0).
fn basis_e(v: Scalar, path: &[Value]) -> Result<Scalar> {
    let mut p = Vec::with_capacity(path.len());
    for x in path {
        let i = x.to_int("E: basis index")?;
        if i > super::value::MAX_VALUE_PARTS as i64 {
            return Err(Error::value(format!("E: basis index {i} too large")));
        }
        let i = usize::try_from(i).map_err(|_| {
            Error::value(format!(
                "E: the basis index {i} is negative; basis indices count modes from 0"
            ))
        })?;
        p.push(i);
    }
    if p.len() > MAX_DEPTH {
        return Err(Error::value("E: basis path too long"));
    }
    Ok(Scalar::scaled_basis(v, &p))
}

fn arith_tuple(args: Vec<Value>) -> Result<Value> {
    if args.len() == 1 {
        let v = &args[0];
        return match v {
            Value::Tuple(_) => Ok(Value::from_scalar(v.to_coord_value("ArithTuple")?)),
            Value::Int(_) | Value::Scalar(_) => Ok(v.clone()),
            v => Err(Error::type_(format!(
                "ArithTuple: bad child, the {} {v}",
                v.kind_name()
            ))),
        };
    }
    let children = args
        .iter()
        .map(|v| v.to_coord_value("ArithTuple"))
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::Scalar(Scalar::coord(children)))
}

fn make_basis_like(p: &Value, path: &mut Vec<usize>, depth: usize) -> Result<Value> {
    check_depth(depth, "make_basis_like")?;
    match p {
        Value::Tuple(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, x) in items.iter().enumerate() {
                path.push(i);
                out.push(make_basis_like(x, path, depth + 1)?);
                path.pop();
            }
            Ok(Value::Tuple(out))
        }
        _ => Ok(Value::from_scalar(Scalar::basis(1, path))),
    }
}

fn as_tuple_value(v: &Value, depth: usize) -> Result<Value> {
    check_depth(depth, "as_tuple")?;
    match v {
        Value::Scalar(s @ Scalar::Coord(_)) => Ok(Value::from_stride(&s.as_tuple())),
        Value::Tuple(items) => Ok(Value::Tuple(
            items
                .iter()
                .map(|x| as_tuple_value(x, depth + 1))
                .collect::<Result<_>>()?,
        )),
        v => Ok(v.clone()),
    }
}

/// A by-mode right-hand side lifted into a `None`-padded tiler
/// (`docs/language.md`, "Mode-indexed calls").
pub(super) fn lifted(v: Value, path: &[i64]) -> Result<Value> {
    lift(v, path, &Value::None)
}

/// The first argument of the algebra operations that return `None` for a
/// `None` argument.
fn none_passthrough(a: &mut Args) -> Result<Option<Value>> {
    let x = a.req(0)?;
    if matches!(x, Value::None) {
        return Ok(None);
    }
    Ok(Some(x))
}

/// `op(A, B)` with a tiler `B` (lifted for a mode path): the divides and
/// products.
fn binary_tiler_op(
    a: &mut Args,
    path: &[i64],
    f: fn(&Layout, &Tiler) -> Result<Layout>,
) -> Result<Value> {
    let op = a.name();
    let x = a.req(0)?;
    let b = lifted(a.req(1)?, path)?;
    if let Value::None = x {
        return Err(Error::type_(format!("{op}: the first argument is None")));
    }
    if let Value::Swizzled(s) = x {
        // C++ applies the divides and products to a composed layout's inner
        // layout (docs/language.md, "Swizzles")
        return Ok(Value::Swizzled(
            s.with_inner(f(&s.layout, &b.into_tiler()?)?)?,
        ));
    }
    let l = promote_owned(x, op)?;
    Ok(layout(f(&l, &b.into_tiler()?)?))
}

/// Puts a first argument taken by [`Args::req`] back (it may have come by
/// keyword, with no positional arguments at all).
fn put_back_first(a: &mut Args, x: Value) {
    match a.pos.get_mut(0) {
        Some(slot) => Arg::put(slot, x),
        None => a.pos.push(Some(Arg::made(x))),
    }
}

/// The value of C++'s `composition(Swizzle, offset, Layout)`: the plain
/// layout for an identity swizzle `Swizzle(0,M,S)` with offset 0 (C++'s
/// overload for `Swizzle<0,M,S>` and `Int<0>`), the swizzled layout otherwise.
fn composed_value(s: SwizzledLayout) -> Value {
    if s.swizzle.is_identity() && s.offset == 0 {
        Value::Layout(s.layout)
    } else {
        Value::Swizzled(s)
    }
}

/// C++'s tuple-like operations on a `ComposedLayout` (`get`, `take`,
/// `flatten`, `append`, `group`, `filter`): the operation on the inner
/// layout, under the same swizzle and offset. When the first argument is a
/// swizzled layout, runs `f` with its inner layout in its place and wraps
/// the result (a layout, or a tuple of layout modes, which are
/// concatenated); `Ok(None)` when the first argument is not swizzled.
fn on_inner_layout(
    a: &mut Args,
    path: &[i64],
    f: fn(&mut Args, &[i64]) -> Result<Value>,
) -> Result<Option<Value>> {
    let name = a.name();
    let x = a.req(0)?;
    let Value::Swizzled(s) = x else {
        put_back_first(a, x);
        return Ok(None);
    };
    put_back_first(a, Value::Layout(s.layout.clone()));
    let inner = match f(a, path)? {
        Value::Layout(l) => l,
        Value::Tuple(items) => Layout::concat_allow_empty(
            items
                .into_iter()
                .map(|v| match v {
                    Value::Layout(l) => Ok(l),
                    v => Err(Error::type_(format!(
                        "{name}: a swizzled layout's modes are layouts, got the {} {v}",
                        v.kind_name()
                    ))),
                })
                .collect::<Result<Vec<_>>>()?,
        ),
        v => {
            return Err(Error::type_(format!(
                "{name}: no swizzled form of the {} {v}",
                v.kind_name()
            )))
        }
    };
    Ok(Some(Value::Swizzled(s.with_inner(inner)?)))
}

/// The value of a swizzled layout's slice.
fn slice_value(s: crate::swizzle::SwizzledSlice) -> Value {
    match s {
        crate::swizzle::SwizzledSlice::Swizzled(s) => Value::Swizzled(s),
        crate::swizzle::SwizzledSlice::Plain(l) => Value::Layout(l),
    }
}

/// The value of a swizzled layout's inverse.
fn inverse_value(r: crate::swizzle::SwizzledInverse) -> Value {
    match r {
        crate::swizzle::SwizzledInverse::Swizzled(s) => Value::Swizzled(s),
        crate::swizzle::SwizzledInverse::Layout(l) => Value::Layout(l),
    }
}

/// `composition(A, B)` (`docs/operations.md`): also a swizzle composed with a
/// layout, and a swizzled layout composed with a tiler (`docs/language.md`, "Swizzles").
fn composition_op(a: &mut Args, path: &[i64]) -> Result<Value> {
    let x = a.req(0)?;
    let braw = a.req(1)?;
    if matches!(x, Value::None) && a.opt(2)?.is_none_or(|c| matches!(c, Value::None)) {
        // None is the identity of unknown extent: B itself as one layout
        if matches!(braw, Value::None) {
            return Ok(Value::None);
        }
        return Ok(layout(algebra::composition_none(&braw.to_tiler()?, path)?));
    }
    if matches!(braw, Value::Swizzled(_) | Value::Swizzle(_)) && !path.is_empty() {
        return Err(Error::type_(format!(
            "composition[...](A, B) with the {} {braw} is not defined: compose the mode \
             (get) with it instead",
            braw.kind_name()
        )));
    }
    let b = lifted(braw, path)?;
    if let Some(c) = a.opt(2)?.filter(|c| !matches!(c, Value::None)) {
        // composition(Sw, offset, L): C++'s three-argument form
        let Value::Swizzle(sw) = x else {
            return Err(Error::type_(format!(
                "composition(A, offset, B): A must be a swizzle, got the {} {x}",
                x.kind_name()
            )));
        };
        if !path.is_empty() {
            return Err(Error::type_(
                "composition[...](Sw, offset, L) is not defined",
            ));
        }
        let off = b.to_int("composition: the offset")?;
        let l = match &c {
            Value::Layout(l) => l.clone(),
            Value::Int(_) | Value::Tuple(_) => promote(&c, "composition")?,
            v => {
                return Err(Error::type_(format!(
                    "composition: a swizzle composes with a layout, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        return Ok(composed_value(SwizzledLayout::with_offset(sw, off, l)?));
    }
    match x {
        Value::None => Ok(b),
        Value::Swizzle(sw) => {
            let l = match &b {
                Value::Layout(l) => l.clone(),
                Value::Int(_) | Value::Tuple(_) => promote(&b, "composition")?,
                v => {
                    return Err(Error::type_(format!(
                        "composition: a swizzle composes with a layout, got the {} {v}",
                        v.kind_name()
                    )))
                }
            };
            Ok(composed_value(SwizzledLayout::new(sw, l)?))
        }
        Value::Swizzled(s) => {
            if let Value::Swizzled(_) | Value::Swizzle(_) = b {
                return Err(Error::type_(format!(
                    "composition({s}, {b}): a swizzled layout after a swizzle has no form \
                     rcute represents (C++ nests the two ComposedLayouts)"
                )));
            }
            Ok(composed_value(s.compose(&b.to_tiler()?)?))
        }
        x => {
            let l = promote_owned(x, "composition")?;
            match b {
                // C++'s composition(Layout, ComposedLayout) and
                // composition(Layout, Swizzle): the swizzle moves to the left
                Value::Swizzled(s) => Ok(composed_value(SwizzledLayout::after_layout(&l, &s)?)),
                Value::Swizzle(sw) => Ok(composed_value(SwizzledLayout::layout_after_swizzle(
                    &l, &sw,
                )?)),
                b => Ok(layout(algebra::composition(&l, &b.into_tiler()?)?)),
            }
        }
    }
}

/// `op(A)`, `op(A, profile)` and `op[path](A)`: coalesce, coalesce_z,
/// filter.
fn profile_op(
    a: &mut Args,
    path: &[i64],
    whole: fn(&Layout) -> Result<Layout>,
    by_mode: fn(&Layout, &Tiler) -> Result<Layout>,
    none_ok: bool,
) -> Result<Value> {
    let op = a.name();
    let x = a.req(0)?;
    let prof = a.opt(1)?;
    if let Value::None = x {
        if none_ok {
            return Ok(Value::None);
        }
        return Err(Error::type_(format!("{op}: the first argument is None")));
    }
    if let Value::Swizzled(s) = x {
        // C++ coalesces / filters a composed layout's inner layout
        let inner = match (path.is_empty(), prof) {
            (true, None) => whole(&s.layout)?,
            (true, Some(p)) => by_mode(&s.layout, &p.to_tiler()?)?,
            (false, p) => {
                let p = lifted(p.unwrap_or(Value::Int(1)), path)?;
                by_mode(&s.layout, &p.to_tiler()?)?
            }
        };
        return Ok(Value::Swizzled(s.with_inner(inner)?));
    }
    let l = if none_ok {
        promote_owned(x, op)?
    } else {
        layout_arg_owned(x, op)?
    };
    if path.is_empty() {
        match prof {
            None => Ok(layout(whole(&l)?)),
            Some(p) => Ok(layout(by_mode(&l, &p.to_tiler()?)?)),
        }
    } else {
        let p = lifted(prof.unwrap_or(Value::Int(1)), path)?;
        Ok(layout(by_mode(&l, &p.to_tiler()?)?))
    }
}

/// `op(A)` of a layout operation; `promote_arg` promotes integers and
/// tuples, `none_ok` answers `None` for a `None` argument.
fn unary_layout_op(
    a: &mut Args,
    f: fn(&Layout) -> Result<Layout>,
    promote_arg: bool,
    none_ok: bool,
) -> Result<Value> {
    let op = a.name();
    let x = if none_ok {
        match none_passthrough(a)? {
            None => return Ok(Value::None),
            Some(x) => x,
        }
    } else {
        a.req(0)?
    };
    let l = if promote_arg {
        promote_owned(x, op)?
    } else {
        layout_arg_owned(x, op)?
    };
    Ok(layout(f(&l)?))
}

/// A value read as a profile for `congruent`: layouts give their shape.
fn profile_coord(v: &Value) -> Result<crate::shape::Coord> {
    match v {
        Value::Layout(l) => Value::from_shape(l.shape()).to_coord(),
        Value::Swizzled(s) => Value::from_shape(s.layout.shape()).to_coord(),
        v => v.to_coord(),
    }
}

/// `None` leaves replaced by 1 (each still one axis of a tiler).
fn replace_none(v: &Value, depth: usize) -> Result<Value> {
    check_depth(depth, "coprofile")?;
    match v {
        Value::None => Ok(Value::Int(1)),
        Value::Tuple(items) => Ok(Value::Tuple(
            items
                .iter()
                .map(|x| replace_none(x, depth + 1))
                .collect::<Result<_>>()?,
        )),
        v => Ok(v.clone()),
    }
}

/// The layout of a `coshape`/`cosize` argument.
fn codomain_layout(v: &Value, op: &str) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l.clone()),
        Value::Swizzled(s) => Ok(s.layout.clone()),
        v => Err(Error::type_(format!(
            "{op}: expected a layout, got the {} {v}",
            v.kind_name()
        ))),
    }
}

/// `items` with the elements `b .. e-1` made into one tuple element.
fn group_items(mut items: Vec<Value>, b: usize, e: usize) -> Vec<Value> {
    if b == e {
        return items;
    }
    let tail = items.split_off(e);
    let mid = items.split_off(b);
    items.push(Value::Tuple(mid));
    items.extend(tail);
    items
}

/// `append(obj, x, n)` / `prepend(obj, x, n)` (C++ `append`/`prepend`):
/// a layout gains modes, anything else is a tuple that gains elements (a
/// non-tuple is the 1-tuple of itself).
fn append_prepend(a: &mut Args, front: bool) -> Result<Value> {
    let name = a.name();
    let obj = a.req(0)?;
    let x = a.req(1)?;
    let n =
        match a.opt(2)? {
            None | Some(Value::None) => None,
            Some(v) => {
                let n = v.to_int(name)?;
                Some(usize::try_from(n).map_err(|_| {
                    Error::value(format!("{name}: the target rank {n} is negative"))
                })?)
            }
        };
    if let Value::Layout(l) = &obj {
        let xl = match &x {
            Value::Layout(xl) => xl,
            v => {
                return Err(Error::type_(format!(
                    "{name}: a layout gains a layout mode, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        let f = if front {
            algebra::prepend
        } else {
            algebra::append
        };
        return Ok(layout(f(l, xl, n)?));
    }
    let mut items = match obj {
        Value::Tuple(items) => items,
        v => vec![v],
    };
    let pad = algebra::modes::pad_count(items.len(), n, name)?;
    let copies = std::iter::repeat_n(x, pad);
    if front {
        let mut out: Vec<Value> = copies.collect();
        out.extend(items);
        items = out;
    } else {
        items.extend(copies);
    }
    let v = Value::Tuple(items);
    super::value::check_size(&v)?;
    Ok(v)
}

/// The variadic tuple of `make_shape`/`make_stride`/`make_coord`/
/// `make_tile`, checked by `check` (its conversion of the tuple).
fn make_tuple_op(a: &mut Args, check: fn(&Value) -> Result<()>) -> Result<Value> {
    let v = Value::Tuple(a.rest(0));
    check(&v).map_err(|e| Error::new(e.kind(), format!("{}: {}", a.name(), e.message())))?;
    Ok(v)
}

/// A projection `(1, None, 1)` (C++ `Step<_1, X, _1>`): `None` drops the
/// mode, anything else keeps it.
fn projection(v: &Value, op: &str) -> Result<Vec<crate::tensor::Step>> {
    use crate::tensor::Step;
    let items = match v {
        Value::Tuple(items) => items.as_slice(),
        v => {
            return Err(Error::type_(format!(
                "{op}: the projection must be a tuple like (1, None, 1), got the {} {v}",
                v.kind_name()
            )))
        }
    };
    Ok(items
        .iter()
        .map(|x| {
            if matches!(x, Value::None) {
                Step::X
            } else {
                Step::Keep
            }
        })
        .collect())
}

/// `local_tile` (`tile`) or `local_partition` on a tensor, memory tensor
/// or layout (a layout is the tensor `{0} o L`).
fn partition_op(a: &mut Args, tile: bool) -> Result<Value> {
    let name = a.name();
    let t = a.req(0)?;
    let b = a.req(1)?;
    let c = a.req(2)?;
    let proj = match a.opt(3)? {
        None | Some(Value::None) => None,
        Some(p) => Some(projection(&p, name)?),
    };
    let proj = proj.as_deref();
    match t {
        Value::Tensor(t) => Ok(Value::Tensor(partition_any(&t, tile, &b, &c, proj)?)),
        Value::Array(t) => Ok(Value::Array(partition_any(&t, tile, &b, &c, proj)?)),
        Value::Swizzled(s) => {
            // C++ slices a ComposedLayout tensor by moving the offset into
            // the layout (`slice_and_offset` answers offset 0): the part of
            // `Sw o offset o L` is `Sw o (offset + b) o L'` where the plain
            // partition of `L` is `{b} o L'`
            let t = partition_any(
                &crate::tensor::Tensor::from_layout(s.layout.clone()),
                tile,
                &b,
                &c,
                proj,
            )?;
            let (acc, l) = t.into_parts();
            let base = match acc.base() {
                crate::Scalar::Int(v) => *v,
                v => {
                    return Err(Error::type_(format!(
                        "{name}: the part of {s} starts at the non-integer offset {v}"
                    )))
                }
            };
            let off = crate::int::add(s.offset, base)?;
            Ok(Value::Swizzled(SwizzledLayout::with_offset(
                s.swizzle, off, l,
            )?))
        }
        Value::Layout(l) => Ok(Value::Tensor(partition_any(
            &crate::tensor::Tensor::from_layout(l),
            tile,
            &b,
            &c,
            proj,
        )?)),
        v => Err(Error::type_(format!(
            "{name}: expected a tensor, a layout or a swizzled layout, got the {} {v}",
            v.kind_name()
        ))),
    }
}

fn partition_any<'t, A: crate::tensor::Accessor>(
    t: &'t crate::tensor::Tensor<A>,
    tile: bool,
    b: &Value,
    c: &Value,
    proj: Option<&[crate::tensor::Step]>,
) -> Result<crate::tensor::Tensor<A::View<'t>>> {
    if tile {
        local_tile_any(t, b, c, proj)
    } else {
        local_partition_any(t, b, c, proj)
    }
}

fn local_tile_any<'t, A: crate::tensor::Accessor>(
    t: &'t crate::tensor::Tensor<A>,
    tiler: &Value,
    coord: &Value,
    proj: Option<&[crate::tensor::Step]>,
) -> Result<crate::tensor::Tensor<A::View<'t>>> {
    let tiler = tiler.to_tiler()?;
    let c = coord.to_coord()?;
    match proj {
        None => crate::tensor::local_tile(t, &tiler, c),
        Some(p) => crate::tensor::local_tile_proj(t, &tiler, c, p),
    }
}

fn local_partition_any<'t, A: crate::tensor::Accessor>(
    t: &'t crate::tensor::Tensor<A>,
    thr: &Value,
    idx: &Value,
    proj: Option<&[crate::tensor::Step]>,
) -> Result<crate::tensor::Tensor<A::View<'t>>> {
    let thr = layout_arg(thr, "local_partition")?;
    let i = idx.to_int("local_partition: the thread index")?;
    match proj {
        None => crate::tensor::local_partition(t, &thr, i),
        Some(p) => crate::tensor::local_partition_proj(t, &thr, i, p),
    }
}

/// The operations, one function each (of type [`Imp`]), named after the
/// operation (`LayoutLeft` is `layout_left`); the table points at them.
pub(crate) mod op {
    use super::*;

    // ---------------------------------------------------------------- HTuple helpers

    pub(crate) fn get(a: &mut Args, path: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        let mut p = mode_path_arg(path, a, 1)?;
        // get(obj, i, j, ...): C++ get<i, j, ...>
        for v in a.rest(2) {
            p.push(v.to_int("get: index")?);
        }
        get_path(&x, &p)
    }

    pub(crate) fn append(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, append_plain)? {
            Some(v) => Ok(v),
            None => append_plain(a, path),
        }
    }

    pub(crate) fn append_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let _ = path;
        append_prepend(a, false)
    }

    pub(crate) fn prepend(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, prepend_plain)? {
            Some(v) => Ok(v),
            None => prepend_plain(a, path),
        }
    }

    pub(crate) fn prepend_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let _ = path;
        append_prepend(a, true)
    }

    pub(crate) fn group(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, group_plain)? {
            Some(v) => Ok(v),
            None => group_plain(a, path),
        }
    }

    pub(crate) fn group_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        let idx = index_list(path, a, 1)?;
        if idx.len() != 2 {
            return Err(Error::value(format!(
                "group: needs exactly two indices (begin, end), got {}",
                idx.len()
            )));
        }
        let b = idx[0].to_int(name)?;
        let e = idx[1].to_int(name)?;
        let r = match &x {
            Value::Tuple(items) => items.len(),
            Value::Layout(l) => l.rank(),
            _ => 1,
        };
        // C++ group<B, -1>: to the end
        let e = if e == -1 { r as i64 } else { e };
        if b < 0 || b > e || e > r as i64 {
            return Err(Error::bounds(format!(
                "group: the range ({b}, {e}) is not inside the rank {r} of {x}"
            )));
        }
        let (b, e) = (b as usize, e as usize);
        match x {
            Value::Layout(l) => Ok(layout(algebra::group(&l, b, e)?)),
            Value::Tuple(items) => Ok(Value::Tuple(group_items(items, b, e))),
            v => Ok(Value::Tuple(group_items(vec![v], b, e))),
        }
    }

    pub(crate) fn select(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, select_plain)? {
            Some(v) => Ok(v),
            None => select_plain(a, path),
        }
    }

    pub(crate) fn select_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        let idx = index_list(path, a, 1)?;
        let mut out = Vec::with_capacity(idx.len());
        for i in &idx {
            let p: Vec<i64> = match i {
                Value::Tuple(items) => items
                    .iter()
                    .map(|v| v.to_int(name))
                    .collect::<Result<_>>()?,
                v => vec![v.to_int(name)?],
            };
            out.push(get_path(&x, &p)?);
        }
        Ok(Value::Tuple(out))
    }

    pub(crate) fn take(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, take_plain)? {
            Some(v) => Ok(v),
            None => take_plain(a, path),
        }
    }

    pub(crate) fn take_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        let idx = index_list(path, a, 1)?;
        if idx.len() != 2 {
            return Err(Error::value(format!(
                "take: needs exactly two indices (begin, end), got {}",
                idx.len()
            )));
        }
        let b = idx[0].to_int(name)?;
        let e = idx[1].to_int(name)?;
        if b > e {
            return Err(Error::value(format!("take: begin {b} is after end {e}")));
        }
        let r = match &x {
            Value::Tuple(items) => items.len() as i64,
            Value::Layout(l) => l.rank() as i64,
            _ => 1,
        };
        if b < 0 || e > r {
            return Err(Error::bounds(format!(
                "take: range ({b}, {e}) outside the rank {r} of {x}"
            )));
        }
        let mut out = Vec::new();
        for i in b..e {
            out.push(get_path(&x, &[i])?);
        }
        Ok(Value::Tuple(out))
    }

    pub(crate) fn lift(a: &mut Args, path: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        let p = mode_path_arg(path, a, 1)?;
        let pad = a.opt(2)?.unwrap_or(Value::Int(0));
        super::lift(x, &p, &pad)
    }

    pub(crate) fn wrap(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        Ok(if x.is_tuple() {
            x
        } else {
            Value::Tuple(vec![x])
        })
    }

    pub(crate) fn unwrap(a: &mut Args, _: &[i64]) -> Result<Value> {
        let mut x = a.req(0)?;
        loop {
            match x {
                Value::Tuple(mut items) if items.len() == 1 => {
                    x = items.pop().unwrap_or(Value::None);
                }
                other => return Ok(other),
            }
        }
    }

    pub(crate) fn repeat_like(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        let p = a.req(1)?;
        repeat_like_value(&x, &p, 0)
    }

    pub(crate) fn slice_(a: &mut Args, _: &[i64]) -> Result<Value> {
        let c = a.req(0)?;
        let b = a.req(1)?;
        slice_dice(&c, &b, true)
    }

    pub(crate) fn dice_(a: &mut Args, _: &[i64]) -> Result<Value> {
        let c = a.req(0)?;
        let b = a.req(1)?;
        slice_dice(&c, &b, false)
    }

    pub(crate) fn leaves(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        match x {
            Value::Tuple(_) => match flatten_value(&x)? {
                Value::Tuple(v) => Ok(Value::List(v)),
                v => Ok(v),
            },
            v => Ok(Value::List(vec![v])),
        }
    }

    // ---------------------------------------------------------------- properties

    pub(crate) fn size(a: &mut Args, path: &[i64]) -> Result<Value> {
        size_of(&query_target(a, path)?)
    }

    pub(crate) fn rank(a: &mut Args, path: &[i64]) -> Result<Value> {
        rank_of(&query_target(a, path)?)
    }

    pub(crate) fn depth(a: &mut Args, path: &[i64]) -> Result<Value> {
        depth_of(&query_target(a, path)?)
    }

    pub(crate) fn shape(a: &mut Args, path: &[i64]) -> Result<Value> {
        shape_of(&query_target(a, path)?)
    }

    pub(crate) fn stride(a: &mut Args, path: &[i64]) -> Result<Value> {
        match query_target(a, path)? {
            Value::Layout(l) => Ok(Value::from_stride(l.stride())),
            Value::SymLayout(l) => Ok(sym_tuple_value(l.stride())),
            Value::Swizzled(s) => Ok(Value::from_stride(s.layout.stride())),
            Value::Tensor(t) => Ok(Value::from_stride(t.layout().stride())),
            Value::Array(t) => Ok(Value::from_stride(t.layout().stride())),
            v => Err(Error::type_(format!(
                "stride: the {} {v} has no stride",
                v.kind_name()
            ))),
        }
    }

    pub(crate) fn coshape(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let v = query_target(a, path)?;
        let l = codomain_layout(&v, name)?;
        Ok(shape_value(&algebra::coshape(&l)?))
    }

    pub(crate) fn cosize(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let v = query_target(a, path)?;
        if let Value::Swizzled(s) = &v {
            // the largest swizzled offset plus one (docs/language.md, "Swizzles")
            return Ok(Value::Int(s.cosize()?));
        }
        if let Value::SymLayout(l) = &v {
            return Ok(Value::from_sym(l.cosize()?));
        }
        let l = codomain_layout(&v, name)?;
        Ok(Value::Int(algebra::cosize(&l)?))
    }

    pub(crate) fn coprofile(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let v = query_target(a, path)?;
        let l = match &v {
            Value::Layout(l) => l.clone(),
            Value::Swizzled(s) => s.layout.clone(),
            Value::Int(_) | Value::Tuple(_) => {
                // a None entry of a tiler counts as one axis
                let t = replace_none(&v, 0)?;
                promote(&t, name)?
            }
            v => {
                return Err(Error::type_(format!(
                    "coprofile: expected a layout or a tiler, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        Ok(shape_value(&algebra::coprofile(&l)?))
    }

    /// The two profiles of `congruent` and `weakly_congruent`.
    fn profiles(a: &mut Args) -> Result<(shape::Coord, shape::Coord)> {
        let x = a.req(0)?;
        let y = a.req(1)?;
        Ok((profile_coord(&x)?, profile_coord(&y)?))
    }

    pub(crate) fn congruent(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = profiles(a)?;
        Ok(bool_value(shape::congruent(x.as_ref(), y.as_ref())))
    }

    pub(crate) fn weakly_congruent(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = profiles(a)?;
        Ok(bool_value(shape::weakly_congruent(x.as_ref(), y.as_ref())))
    }

    /// The two shapes of the shape relations.
    fn two_shapes(a: &mut Args) -> Result<(HTuple<i64>, HTuple<i64>)> {
        let x = a.req(0)?.to_shape_of()?;
        let y = a.req(1)?.to_shape_of()?;
        Ok((x, y))
    }

    pub(crate) fn compatible(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = two_shapes(a)?;
        Ok(bool_value(shape::compatible(x.as_ref(), y.as_ref())?))
    }

    pub(crate) fn common_refinement(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = two_shapes(a)?;
        Ok(shape_value(&shape::common_refinement(
            x.as_ref(),
            y.as_ref(),
        )?))
    }

    pub(crate) fn common_coarsening(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = two_shapes(a)?;
        Ok(shape_value(&shape::common_coarsening(
            x.as_ref(),
            y.as_ref(),
        )?))
    }

    pub(crate) fn flatten(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, flatten_plain)? {
            Some(v) => Ok(v),
            None => flatten_plain(a, path),
        }
    }

    pub(crate) fn flatten_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let _ = path;
        flatten_value(&a.req(0)?)
    }

    pub(crate) fn product(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        if x.has_sym() {
            return Ok(Value::from_sym(shape::size(x.to_sym_shape()?.as_ref())?));
        }
        Ok(Value::Int(shape::size(x.to_shape()?.as_ref())?))
    }

    pub(crate) fn subs(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        let mut values = Vec::new();
        for (k, v) in a.keywords() {
            match v {
                Value::Int(i) => values.push((k, i)),
                v => {
                    return Err(Error::type_(format!(
                        "subs: the value of {k} must be a concrete integer, got the {} {v}",
                        v.kind_name()
                    )))
                }
            }
        }
        let values: Vec<(&str, i64)> = values.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        subs_value(&x, &values, 0)
    }

    pub(crate) fn product_each(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?.to_shape()?;
        Ok(shape_value(&shape::product_each(x.as_ref())?))
    }

    pub(crate) fn prefix_product(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?.to_shape()?;
        let init = a.opt(1)?.unwrap_or(Value::Int(1));
        let r = match &init {
            Value::Tuple(_) => {
                stride::prefix_product_tuple(x.as_ref(), init.to_stride()?.as_ref())?
            }
            v => stride::prefix_product(x.as_ref(), &v.to_scalar(name)?)?,
        };
        Ok(Value::from_stride(&r))
    }

    pub(crate) fn inner_product(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?.to_stride()?;
        let y = a.req(1)?.to_stride()?;
        Ok(Value::from_scalar(stride::inner_product(
            x.as_ref(),
            y.as_ref(),
        )?))
    }

    pub(crate) fn idx2crd(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (c, s) = (a.req(0)?, a.req(1)?);
        let d = a.opt(2)?;
        if c.has_sym() || s.has_sym() {
            symbolic_unstrided("idx2crd", &d)?;
            let s = s.to_sym_shape()?;
            if matches!(c, Value::None) {
                // `_`: the zero coordinate, as for concrete shapes
                return Ok(Value::from_htuple(&s, |_| Value::Int(0)));
            }
            let r = shape::idx2crd_sym(c.to_sym_shape()?.as_ref(), s.as_ref())?;
            return Ok(Value::from_htuple(&r, |x| Value::from_sym(x.clone())));
        }
        let c = c.to_coord()?;
        let s = s.to_shape_of()?;
        match d {
            None | Some(Value::None) => {
                Ok(Value::from_stride(&shape::idx2crd(c.as_ref(), s.as_ref())?))
            }
            Some(d) => Ok(Value::from_stride(&crate::algebra::modes::idx2crd_strided(
                c.as_ref(),
                s.as_ref(),
                d.to_stride()?.as_ref(),
            )?)),
        }
    }

    pub(crate) fn crd2idx(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (c, s) = (a.req(0)?, a.req(1)?);
        let d = a.opt(2)?;
        if c.has_sym() || s.has_sym() {
            symbolic_unstrided("crd2idx", &d)?;
            let r = shape::crd2idx_sym(c.to_sym_shape()?.as_ref(), s.to_sym_shape()?.as_ref())?;
            return Ok(Value::from_sym(r));
        }
        let c = c.to_coord()?;
        let s = s.to_shape_of()?;
        match d {
            None | Some(Value::None) => Ok(Value::from_scalar(shape::crd2idx_value(
                c.as_ref(),
                s.as_ref(),
            )?)),
            Some(d) => Ok(Value::from_scalar(crate::algebra::modes::crd2idx_strided(
                c.as_ref(),
                s.as_ref(),
                d.to_stride()?.as_ref(),
            )?)),
        }
    }

    pub(crate) fn is_basis(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?.to_coord_value(name)?;
        Ok(bool_value(x.is_basis()))
    }

    pub(crate) fn basis_repr(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?.to_coord_value(name)?;
        let terms = x
            .basis_repr()
            .into_iter()
            .map(|(v, p)| {
                Ok(Value::Tuple(vec![
                    Value::from_scalar(v),
                    basis_path_value(&p)?,
                ]))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Value::List(terms))
    }

    pub(crate) fn as_tuple(a: &mut Args, _: &[i64]) -> Result<Value> {
        as_tuple_value(&a.req(0)?, 0)
    }

    pub(crate) fn make_basis_like(a: &mut Args, _: &[i64]) -> Result<Value> {
        super::make_basis_like(&a.req(0)?, &mut Vec::new(), 0)
    }

    pub(crate) fn unit(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let p = a.req(0)?.to_coord_value(name)?;
        let (v, path) = p.basis_term()?;
        // the unit of the leaf's algebra: F1 for an F2 leaf
        let one = if v.is_f2() {
            Scalar::F2(1)
        } else {
            Scalar::Int(1)
        };
        Ok(Value::from_scalar(Scalar::scaled_basis(one, &path)))
    }

    pub(crate) fn proj(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        let p = a.req(1)?.to_coord_value(name)?;
        let (_, path) = p.basis_term()?;
        let ip: Vec<i64> = path.iter().map(|&i| i as i64).collect();
        match &x {
            Value::Scalar(s) => Ok(Value::from_scalar(s.get_path(&path)?)),
            x => get_path(x, &ip),
        }
    }

    // ---------------------------------------------------------------- construction

    pub(crate) fn layout_ctor(a: &mut Args, _: &[i64]) -> Result<Value> {
        let s = a.req(0)?.to_shape()?;
        match a.opt(1)? {
            None => Ok(layout(Layout::column_major(s)?)),
            Some(d) => Ok(layout(Layout::with_stride(s, d.to_stride()?.as_ref())?)),
        }
    }

    pub(crate) fn layout_left(a: &mut Args, _: &[i64]) -> Result<Value> {
        Ok(layout(Layout::column_major(a.req(0)?.to_shape()?)?))
    }

    pub(crate) fn layout_right(a: &mut Args, _: &[i64]) -> Result<Value> {
        Ok(layout(Layout::row_major(a.req(0)?.to_shape()?)?))
    }

    pub(crate) fn make_layout(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let mut items = a.rest(0);
        if items.is_empty() {
            // C++'s Layout<Shape<>, Stride<>>: the empty layout
            return Ok(layout(Layout::concat_allow_empty([])));
        }
        // C++ make_layout(shape) / make_layout(shape, stride)
        let is_shape = |v: &Value| matches!(v, Value::Int(_)) || v.to_shape().is_ok();
        if items.len() <= 2 && is_shape(&items[0]) {
            let s = items[0].to_shape()?;
            return match items.get(1) {
                None => Ok(layout(Layout::column_major(s)?)),
                Some(Value::Layout(_))
                | Some(Value::Tuple(_))
                | Some(Value::Int(_))
                | Some(Value::Scalar(_)) => {
                    let d = items[1].to_stride().map_err(|e| {
                        Error::type_(format!(
                            "make_layout: make_layout(shape, stride) takes a stride (integers or \
                             coordinate values) after the shape {}: {}",
                            items[0],
                            e.message()
                        ))
                    })?;
                    Ok(layout(Layout::with_stride(s, d.as_ref())?))
                }
                Some(v) => Err(Error::type_(format!(
                    "make_layout: make_layout(shape, stride) takes a stride after the shape {}, \
                     got the {} {v}",
                    items[0],
                    v.kind_name()
                ))),
            };
        }
        // PyCuTe's form: one sequence of layouts
        if let [Value::Tuple(inner)] = items.as_slice() {
            if !inner.is_empty() && inner.iter().all(|v| matches!(v, Value::Layout(_))) {
                items = inner.clone();
            }
        }
        let ls = items
            .iter()
            .map(|v| layout_arg(v, name))
            .collect::<Result<Vec<_>>>()?;
        Ok(layout(Layout::concat(ls)?))
    }

    pub(crate) fn make_layout_like(a: &mut Args, _: &[i64]) -> Result<Value> {
        unary_layout_op(a, algebra::make_layout_like, false, false)
    }

    pub(crate) fn make_ordered_layout(a: &mut Args, _: &[i64]) -> Result<Value> {
        let s = a.req(0)?.to_shape()?;
        let o = a.req(1)?.to_shape()?;
        Ok(layout(algebra::make_ordered_layout(
            s.as_ref(),
            o.as_ref(),
        )?))
    }

    pub(crate) fn make_identity_layout(a: &mut Args, _: &[i64]) -> Result<Value> {
        let s = a.req(0)?.to_shape_of()?;
        Ok(layout(algebra::make_identity_layout(s.as_ref())?))
    }

    pub(crate) fn tiler_to_layout(a: &mut Args, _: &[i64]) -> Result<Value> {
        let t = a.req(0)?.to_tiler()?;
        Ok(layout(crate::tiler::tiler_to_layout(&t)?))
    }

    pub(crate) fn make_shape(a: &mut Args, _: &[i64]) -> Result<Value> {
        make_tuple_op(a, |v| v.to_shape().map(|_| ()))
    }

    pub(crate) fn make_stride(a: &mut Args, _: &[i64]) -> Result<Value> {
        make_tuple_op(a, |v| v.to_stride().map(|_| ()))
    }

    pub(crate) fn make_coord(a: &mut Args, _: &[i64]) -> Result<Value> {
        make_tuple_op(a, |v| v.to_coord().map(|_| ()))
    }

    pub(crate) fn make_tile(a: &mut Args, _: &[i64]) -> Result<Value> {
        make_tuple_op(a, |v| v.to_tiler().map(|_| ()))
    }

    pub(crate) fn domain_distribute(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let s = a.req(0)?.to_shape_of()?;
        let n = a.req(1)?.to_int(name)?;
        Ok(layout(algebra::domain_distribute(s.as_ref(), n)?))
    }

    pub(crate) fn e(a: &mut Args, _: &[i64]) -> Result<Value> {
        let items = a.rest(0);
        Ok(Value::from_scalar(basis_e(Scalar::Int(1), &items)?))
    }

    pub(crate) fn scaled_basis(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let v = a.req(0)?.to_scalar(name)?;
        let seq = match a.opt(1)? {
            None => Vec::new(),
            Some(Value::Tuple(items)) => items,
            Some(v) => vec![v],
        };
        Ok(Value::from_scalar(basis_e(v, &seq)?))
    }

    pub(crate) fn f2(a: &mut Args, _: &[i64]) -> Result<Value> {
        match a.req(0)? {
            Value::Int(x) if x < 0 => Err(Error::value(format!(
                "F2: the value {x} is negative; an F2 value is a non-negative bit vector"
            ))),
            Value::Int(x) => Ok(Value::Scalar(Scalar::F2(x))),
            Value::Scalar(Scalar::F2(x)) => Ok(Value::Scalar(Scalar::F2(x))),
            v => Err(Error::type_(format!(
                "F2: expected an integer, got the {} {v}",
                v.kind_name()
            ))),
        }
    }

    pub(crate) fn arith_tuple(a: &mut Args, _: &[i64]) -> Result<Value> {
        super::arith_tuple(a.rest(0))
    }

    pub(crate) fn swizzle(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let b = a.req(0)?.to_int(name)?;
        let m = a.req(1)?.to_int(name)?;
        let s = a.req(2)?.to_int(name)?;
        Ok(Value::Swizzle(Swizzle::new(b, m, s)?))
    }

    // ---------------------------------------------------------------- algebra

    pub(crate) fn coalesce(a: &mut Args, path: &[i64]) -> Result<Value> {
        profile_op(a, path, algebra::coalesce, algebra::coalesce_by_mode, true)
    }

    pub(crate) fn coalesce_z(a: &mut Args, path: &[i64]) -> Result<Value> {
        profile_op(
            a,
            path,
            algebra::coalesce_z,
            algebra::coalesce_z_by_mode,
            true,
        )
    }

    pub(crate) fn filter(a: &mut Args, path: &[i64]) -> Result<Value> {
        profile_op(a, path, algebra::filter, algebra::filter_by_mode, false)
    }

    pub(crate) fn filter_zeros(a: &mut Args, path: &[i64]) -> Result<Value> {
        match on_inner_layout(a, path, filter_zeros_plain)? {
            Some(v) => Ok(v),
            None => filter_zeros_plain(a, path),
        }
    }

    pub(crate) fn filter_zeros_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let _ = path;
        unary_layout_op(a, algebra::filter_zeros, false, false)
    }

    pub(crate) fn composition(a: &mut Args, path: &[i64]) -> Result<Value> {
        composition_op(a, path)
    }

    pub(crate) fn complement(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = match none_passthrough(a)? {
            None => return Ok(Value::None),
            Some(x) => x,
        };
        let l = promote_owned(x, name)?;
        let ext = match a.opt(1)? {
            None | Some(Value::None) => None,
            Some(v) => Some(v.to_shape_of()?),
        };
        Ok(layout(algebra::complement(
            &l,
            ext.as_ref().map(|s| s.as_ref()),
        )?))
    }

    pub(crate) fn logical_divide(a: &mut Args, path: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        if let Value::None = x {
            let b = a.req(1)?;
            if matches!(b, Value::None) {
                return Ok(Value::None);
            }
            return Ok(layout(algebra::logical_divide_none_at(
                &b.to_tiler()?,
                path,
            )?));
        }
        // put A back for binary_tiler_op (it may have come by keyword,
        // with no positional arguments at all)
        put_back_first(a, x);
        binary_tiler_op(a, path, algebra::logical_divide)
    }

    pub(crate) fn zipped_divide(a: &mut Args, path: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        if let Value::None = x {
            // zipped_divide(None, B) = logical_divide(None, tiler_to_layout(B))
            let bl = crate::tiler::tiler_to_layout(&a.req(1)?.to_tiler()?)?;
            return Ok(layout(algebra::logical_divide_none_at(
                &Tiler::Layout(bl),
                path,
            )?));
        }
        put_back_first(a, x);
        if path.is_empty() {
            binary_tiler_op(a, path, algebra::zipped_divide)
        } else {
            // zipped_divide[p](A, B) = logical_divide[p](A, tiler_to_layout(B))
            let x = a.req(0)?;
            let b = a.req(1)?;
            let bl = crate::tiler::tiler_to_layout(&b.to_tiler()?)?;
            let t = lifted(Value::Layout(bl), path)?.to_tiler()?;
            if let Value::Swizzled(s) = x {
                return Ok(Value::Swizzled(s.logical_divide(&t)?));
            }
            let l = promote_owned(x, name)?;
            Ok(layout(algebra::logical_divide(&l, &t)?))
        }
    }

    pub(crate) fn tiled_divide(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::tiled_divide)
    }

    pub(crate) fn flat_divide(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::flat_divide)
    }

    pub(crate) fn logical_product(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::logical_product)
    }

    pub(crate) fn zipped_product(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::zipped_product)
    }

    pub(crate) fn tiled_product(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::tiled_product)
    }

    pub(crate) fn flat_product(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::flat_product)
    }

    pub(crate) fn blocked_product(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::blocked_product)
    }

    pub(crate) fn raked_product(a: &mut Args, path: &[i64]) -> Result<Value> {
        binary_tiler_op(a, path, algebra::raked_product)
    }

    pub(crate) fn right_inverse(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        if let Value::Swizzled(s) = &x {
            return Ok(inverse_value(s.right_inverse()?));
        }
        put_back_first(a, x);
        unary_layout_op(a, algebra::right_inverse, true, true)
    }

    pub(crate) fn left_inverse(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        if let Value::Swizzled(s) = &x {
            return Ok(inverse_value(s.left_inverse()?));
        }
        put_back_first(a, x);
        unary_layout_op(a, algebra::left_inverse, true, true)
    }

    /// On `Sw o offset o L` the nullspace of `L`: the swizzle is a
    /// bijection, so the coordinates where the swizzled layout keeps its
    /// value at the origin are those where `L` is 0 (C++ answers the
    /// placeholder `1:0`; `docs/differences.md`).
    pub(crate) fn nullspace(a: &mut Args, path: &[i64]) -> Result<Value> {
        let x = a.req(0)?;
        match x {
            Value::Swizzled(s) => put_back_first(a, Value::Layout(s.layout)),
            x => put_back_first(a, x),
        }
        nullspace_plain(a, path)
    }

    pub(crate) fn nullspace_plain(a: &mut Args, path: &[i64]) -> Result<Value> {
        let _ = path;
        unary_layout_op(a, algebra::nullspace, true, true)
    }

    /// The two promoted layouts of `max_common_layout`/`max_common_vector`.
    fn two_promoted(a: &mut Args) -> Result<(Layout, Layout)> {
        let x = promote_owned(a.req(0)?, a.name())?;
        let y = promote_owned(a.req(1)?, a.name())?;
        Ok((x, y))
    }

    pub(crate) fn max_common_layout(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = two_promoted(a)?;
        Ok(layout(algebra::max_common_layout(&x, &y)?))
    }

    pub(crate) fn max_common_vector(a: &mut Args, _: &[i64]) -> Result<Value> {
        let (x, y) = two_promoted(a)?;
        Ok(Value::Int(algebra::max_common_vector(&x, &y)?))
    }

    pub(crate) fn layout_add(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = layout_arg_owned(a.req(0)?, name)?;
        let y = layout_arg_owned(a.req(1)?, name)?;
        Ok(layout(algebra::layout_add(&x, &y)?))
    }

    pub(crate) fn greatest_common_domain(a: &mut Args, _: &[i64]) -> Result<Value> {
        let x = a.req(0)?.to_shape_of()?;
        let y = a.req(1)?.to_shape_of()?;
        Ok(layout(algebra::greatest_common_domain(
            x.as_ref(),
            y.as_ref(),
        )?))
    }

    pub(crate) fn recast(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        let s = a.req(1)?.to_scale()?;
        if let Value::Swizzled(sl) = x {
            return Ok(Value::Swizzled(sl.recast(&s)?));
        }
        let x = layout_arg_owned(x, name)?;
        Ok(layout(algebra::recast(&x, &s)?))
    }

    /// The (swizzled) layout and the factor of `upcast`/`downcast`.
    fn layout_and_factor(a: &mut Args) -> Result<(Value, i64)> {
        let name = a.name();
        let x = a.req(0)?;
        let n = a.req(1)?.to_int(name)?;
        match x {
            Value::Swizzled(_) => Ok((x, n)),
            x => Ok((layout(layout_arg_owned(x, name)?), n)),
        }
    }

    pub(crate) fn upcast(a: &mut Args, _: &[i64]) -> Result<Value> {
        match layout_and_factor(a)? {
            (Value::Swizzled(s), n) => Ok(Value::Swizzled(s.upcast(n)?)),
            (Value::Layout(x), n) => Ok(layout(algebra::upcast(&x, n)?)),
            (v, _) => Err(Error::type_(format!("upcast: expected a layout, got {v}"))),
        }
    }

    pub(crate) fn downcast(a: &mut Args, _: &[i64]) -> Result<Value> {
        match layout_and_factor(a)? {
            (Value::Swizzled(s), n) => Ok(Value::Swizzled(s.downcast(n)?)),
            (Value::Layout(x), n) => Ok(layout(algebra::downcast(&x, n)?)),
            (v, _) => Err(Error::type_(format!(
                "downcast: expected a layout, got {v}"
            ))),
        }
    }

    pub(crate) fn slice_and_offset(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = a.req(0)?;
        if let Value::Swizzled(s) = x {
            let c = a.req(1)?.to_coord()?;
            let (sub, off) = s.slice_and_offset(c.as_ref())?;
            return Ok(Value::Tuple(vec![slice_value(sub), Value::Int(off)]));
        }
        let x = layout_arg_owned(x, name)?;
        let c = a.req(1)?.to_coord()?;
        let (sub, off) = algebra::slice_and_offset(&x, c.as_ref())?;
        Ok(Value::Tuple(vec![layout(sub), Value::from_scalar(off)]))
    }

    pub(crate) fn tile_unzip(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let x = layout_arg_owned(a.req(0)?, name)?;
        let t = a.req(1)?.to_tiler()?;
        Ok(layout(algebra::tile_unzip(&x, &t)?))
    }

    pub(crate) fn tile_to_shape(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let block = a.req(0)?;
        let target = a.req(1)?.to_shape_of()?;
        let order = match a.opt(2)? {
            None | Some(Value::None) => None,
            Some(o) => Some(o.to_shape()?),
        };
        let f = |l: &Layout| {
            algebra::tile_to_shape(l, target.as_ref(), order.as_ref().map(|o| o.as_ref()))
        };
        match block {
            // C++: a swizzled atom tiles as its layout, the swizzle on top
            Value::Swizzled(mut s) => {
                s.layout = f(&s.layout)?;
                Ok(Value::Swizzled(s))
            }
            v => Ok(layout(f(&layout_arg_owned(v, name)?)?)),
        }
    }

    // ---------------------------------------------------------------- swizzles and banks

    pub(crate) fn bank_conflicts(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let smem = a.req(0)?;
        let access = promote_owned(a.req(1)?, name)?;
        let elem = a.opt(2)?.unwrap_or(Value::Int(4));
        let elem = elem.to_int(name)?;
        let r = match &smem {
            Value::Layout(l) => crate::swizzle::bank_conflicts(l, &access, elem)?,
            Value::Swizzled(s) => crate::swizzle::bank_conflicts(s, &access, elem)?,
            v => {
                return Err(Error::type_(format!(
                    "bank_conflicts: expected a (swizzled) layout, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        Ok(Value::Int(r.passes))
    }

    /// `swizzle_layout(Sw, n)`: the swizzle as an F2 layout on n bits;
    /// `swizzle_layout(Sw o L)`: the equivalent F2-stride layout
    /// (`docs/operations.md`).
    pub(crate) fn swizzle_layout(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        match a.req(0)? {
            Value::Swizzle(sw) => {
                let n = a.req(1)?.to_int(name)?;
                Ok(layout(crate::swizzle::swizzle_layout(&sw, n)?))
            }
            Value::Swizzled(s) => Ok(layout(s.to_f2_layout()?)),
            v => Err(Error::type_(format!(
                "swizzle_layout: expected a swizzle or a swizzled layout, got the {} {v}",
                v.kind_name()
            ))),
        }
    }

    // ---------------------------------------------------------------- tensors

    pub(crate) fn identity_tensor(a: &mut Args, _: &[i64]) -> Result<Value> {
        let s = a.req(0)?.to_shape()?;
        Ok(Value::Tensor(crate::tensor::identity_tensor(s)?))
    }

    pub(crate) fn local_tile(a: &mut Args, _: &[i64]) -> Result<Value> {
        partition_op(a, true)
    }

    pub(crate) fn local_partition(a: &mut Args, _: &[i64]) -> Result<Value> {
        partition_op(a, false)
    }

    /// `ImplicitAccessor(b)` (printed `{b}`): the accessor alone, as the
    /// tensor over the empty layout, `{b} o ():()`.
    pub(crate) fn implicit_accessor(a: &mut Args, _: &[i64]) -> Result<Value> {
        let b = a.req(0)?.to_coord_value("ImplicitAccessor")?;
        Ok(Value::Tensor(crate::tensor::Tensor::new(
            crate::tensor::ImplicitAccessor::new(b),
            Layout::concat_allow_empty([]),
        )))
    }

    /// `ArrayAccessor(n, k)` (printed `Array(n x i64)+k`): a fresh buffer of
    /// `n` zeros entered at element `k`, as the tensor over the empty layout.
    pub(crate) fn array_accessor(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let n = match a.req(0)? {
            Value::Int(n) => n,
            v => {
                return Err(Error::type_(format!(
                    "{name}: the length must be an integer, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        let k = match a.opt(1)? {
            None => 0,
            Some(Value::Int(k)) => k,
            Some(v) => {
                return Err(Error::type_(format!(
                    "{name}: the start must be an integer, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        if !(0..=MAX_TENSOR_ELEMENTS).contains(&n) {
            return Err(Error::value(format!(
                "{name}: length {n} is outside [0, {MAX_TENSOR_ELEMENTS}] (the notation's limit)"
            )));
        }
        if k < 0 || (k >= n && k != 0) {
            return Err(Error::bounds(format!(
                "{name}: start {k} is outside the {n} elements of the array"
            )));
        }
        let buf = crate::tensor::SharedArray::new(vec![0i64; n as usize]);
        let acc = crate::tensor::Accessor::offset(&buf, &crate::Scalar::Int(k))?;
        Ok(Value::Array(crate::tensor::Tensor::new(
            acc,
            Layout::concat_allow_empty([]),
        )))
    }

    /// `Tensor(accessor, layout)` (printed `accessor o layout`): the tensor
    /// of an accessor (`{b}`, `Array(n x i64)+k`, or a base value `b`) over
    /// a layout.
    pub(crate) fn tensor(a: &mut Args, _: &[i64]) -> Result<Value> {
        let name = a.name();
        let acc = a.req(0)?;
        let l = match a.req(1)? {
            Value::Layout(l) => l,
            v => {
                return Err(Error::type_(format!(
                    "{name}: the second argument must be a layout, got the {} {v}",
                    v.kind_name()
                )))
            }
        };
        let bare = |t: &Layout| t.rank() == 0;
        match acc {
            Value::Tensor(t) if bare(t.layout()) => Ok(Value::Tensor(t.with_layout(l))),
            Value::Array(t) if bare(t.layout()) => Ok(Value::Array(t.with_layout(l))),
            v @ (Value::Int(_) | Value::Scalar(_) | Value::Tuple(_)) => {
                let b = v.to_coord_value(name)?;
                Ok(Value::Tensor(crate::tensor::Tensor::new(
                    crate::tensor::ImplicitAccessor::new(b),
                    l,
                )))
            }
            v => Err(Error::type_(format!(
                "{name}: the first argument must be an accessor ({{b}}, Array(n x i64)+k) \
                 or a base value, got the {} {v}",
                v.kind_name()
            ))),
        }
    }

    /// `make_tensor(L)`: cosize(L) zeros (a shape means Layout(shape)),
    /// `docs/tensors.md`; the buffer is shared by the tensor's slices.
    pub(crate) fn make_tensor(a: &mut Args, _: &[i64]) -> Result<Value> {
        let l = match a.req(0)? {
            Value::Layout(l) => l,
            v => Layout::column_major(v.to_shape()?)?,
        };
        let cosize = crate::algebra::cosize(&l)?;
        if cosize > MAX_TENSOR_ELEMENTS {
            return Err(Error::value(format!(
                "make_tensor: {l} needs {cosize} elements, more than the notation's \
                 limit of {MAX_TENSOR_ELEMENTS}"
            )));
        }
        Ok(Value::Array(
            crate::tensor::make_tensor::<i64>(l)?.into_shared(),
        ))
    }
}
