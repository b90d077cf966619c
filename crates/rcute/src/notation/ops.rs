//! The operations of `NOTATION.md` ("Operations"): one dispatch entry
//! point, [`call`], shared by the command-line tool and the Python module.
//!
//! Argument conversions follow `algebra.md` section 0 (argument promotion
//! through `tiler_to_layout`, `None` first arguments), mode-indexed calls
//! follow `algebra.md` section 18 (lifting) and `htuple.md` section 12
//! (queries read the mode).

use super::eval::{apply, eval_layout};
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

/// Every operation name the notation knows.
pub const OPERATIONS: &[&str] = &[
    // HTuple helpers
    "get",
    "select",
    "take",
    "lift",
    "wrap",
    "unwrap",
    "repeat_like",
    "slice_",
    "dice_",
    "leaves",
    // properties
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "stride",
    "coshape",
    "coprofile",
    "congruent",
    "weakly_congruent",
    "compatible",
    "flatten",
    "product",
    "product_each",
    "prefix_product",
    "inner_product",
    "idx2crd",
    "crd2idx",
    "common_refinement",
    "common_coarsening",
    "is_basis",
    "basis_repr",
    "as_tuple",
    "make_basis_like",
    "unit",
    "proj",
    // construction
    "Layout",
    "LayoutLeft",
    "LayoutRight",
    "make_layout",
    "make_layout_like",
    "make_ordered_layout",
    "tiler_to_layout",
    "make_identity_layout",
    "E",
    "F2",
    "ArithTuple",
    "ScaledBasis",
    "Swizzle",
    // algebra
    "coalesce",
    "coalesce_z",
    "filter",
    "filter_zeros",
    "composition",
    "complement",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "right_inverse",
    "left_inverse",
    "nullspace",
    "max_common_layout",
    "max_common_vector",
    "layout_add",
    "greatest_common_domain",
    "recast",
    "upcast",
    "downcast",
    "slice_and_offset",
    // swizzles and banks
    "bank_conflicts",
    "swizzle_layout",
    // tensors
    "identity_tensor",
    "make_identity_tensor",
    "make_tensor",
];

/// True when `name` is an operation (such names cannot be rebound).
///
/// ```
/// assert!(rcute::notation::is_operation("composition"));
/// assert!(!rcute::notation::is_operation("A"));
/// ```
pub fn is_operation(name: &str) -> bool {
    SORTED_OPERATIONS.binary_search(&name).is_ok()
}

/// The operation table's own name for `name` (so that a prepared call
/// keeps a `'static` name), or `None` when `name` is not an operation.
///
/// ```
/// assert_eq!(rcute::notation::ops::operation_name("coalesce"), Some("coalesce"));
/// assert_eq!(rcute::notation::ops::operation_name("A"), None);
/// ```
pub fn operation_name(name: &str) -> Option<&'static str> {
    SORTED_OPERATIONS
        .binary_search(&name)
        .ok()
        .and_then(|i| SORTED_OPERATIONS.get(i).copied())
}

const SORTED_LIST: [&str; 81] = [
    "ArithTuple",
    "E",
    "F2",
    "Layout",
    "LayoutLeft",
    "LayoutRight",
    "ScaledBasis",
    "Swizzle",
    "as_tuple",
    "bank_conflicts",
    "basis_repr",
    "blocked_product",
    "coalesce",
    "coalesce_z",
    "common_coarsening",
    "common_refinement",
    "compatible",
    "complement",
    "composition",
    "congruent",
    "coprofile",
    "coshape",
    "cosize",
    "crd2idx",
    "depth",
    "dice_",
    "downcast",
    "filter",
    "filter_zeros",
    "flat_divide",
    "flat_product",
    "flatten",
    "get",
    "greatest_common_domain",
    "identity_tensor",
    "idx2crd",
    "inner_product",
    "is_basis",
    "layout_add",
    "leaves",
    "left_inverse",
    "lift",
    "logical_divide",
    "logical_product",
    "make_basis_like",
    "make_identity_layout",
    "make_identity_tensor",
    "make_layout",
    "make_layout_like",
    "make_ordered_layout",
    "make_tensor",
    "max_common_layout",
    "max_common_vector",
    "nullspace",
    "prefix_product",
    "product",
    "product_each",
    "proj",
    "raked_product",
    "rank",
    "recast",
    "repeat_like",
    "right_inverse",
    "select",
    "shape",
    "size",
    "slice_",
    "slice_and_offset",
    "stride",
    "swizzle_layout",
    "take",
    "tiled_divide",
    "tiled_product",
    "tiler_to_layout",
    "unit",
    "unwrap",
    "upcast",
    "weakly_congruent",
    "wrap",
    "zipped_divide",
    "zipped_product",
];

/// [`OPERATIONS`] in byte order, for the binary search of [`is_operation`].
const SORTED_OPERATIONS: &[&str] = &SORTED_LIST;

/// Positional arguments of a call (`None` once consumed).
pub type PosArgs = SmallVec<[Option<Value>; 4]>;
/// Keyword arguments of a call (`None` once consumed).
pub type KwArgs<'a> = SmallVec<[(&'a str, Option<Value>); 2]>;
/// A mode path `op[i, j]`.
pub type ModePath = SmallVec<[i64; 4]>;

/// The arguments of one call, consumed by position or keyword.
struct Args<'a, 'k> {
    name: &'a str,
    pos: &'a mut PosArgs,
    kw: &'a mut KwArgs<'k>,
}

impl Args<'_, '_> {
    /// Argument `i`, or the keyword `key`.
    fn opt(&mut self, i: usize, key: &str) -> Result<Option<Value>> {
        let by_kw = self
            .kw
            .iter_mut()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.take());
        let by_pos = self.pos.get_mut(i).and_then(|v| v.take());
        match (by_pos, by_kw) {
            (Some(_), Some(_)) => Err(Error::type_(format!(
                "{}: argument '{key}' given twice",
                self.name
            ))),
            (a, b) => Ok(a.or(b)),
        }
    }

    /// Required argument `i` (keyword `key`).
    fn req(&mut self, i: usize, key: &str) -> Result<Value> {
        self.opt(i, key)?.ok_or_else(|| {
            Error::type_(format!(
                "{}: missing argument {} ('{key}')",
                self.name,
                i + 1
            ))
        })
    }

    /// All remaining positional arguments from `i` on.
    fn rest(&mut self, i: usize) -> Vec<Value> {
        self.pos
            .iter_mut()
            .skip(i)
            .filter_map(|v| v.take())
            .collect()
    }

    /// Errors for any argument not consumed.
    fn finish(self) -> Result<()> {
        let extra_pos = self.pos.iter().filter(|v| v.is_some()).count();
        if extra_pos > 0 {
            return Err(Error::type_(format!(
                "{}: {extra_pos} extra positional argument(s)",
                self.name
            )));
        }
        if let Some((k, _)) = self.kw.iter().find(|(_, v)| v.is_some()) {
            return Err(Error::type_(format!(
                "{}: unexpected keyword argument '{k}'",
                self.name
            )));
        }
        Ok(())
    }
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
    let mut kwargs = kwargs;
    let mut kw: KwArgs<'_> = kwargs
        .iter_mut()
        .map(|(k, v)| (k.as_str(), Some(std::mem::replace(v, Value::None))))
        .collect();
    let mut pos: PosArgs = args.into_iter().map(Some).collect();
    call_with(name, mode, &mut pos, &mut kw)
}

/// [`call`] with the arguments in inline vectors and borrowed keyword
/// names (what the evaluator uses: no allocation for the call itself).
/// The arguments are consumed (taken out of `pos` and `kw`).
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
    if !is_operation(name) {
        return Err(Error::type_(format!("unknown operation '{name}'")));
    }
    // the common argument forms of the algebra read their operands in
    // place (same value or error; `fast` answers nothing otherwise)
    if mode.is_empty() {
        if let Some(d) = super::fast::Direct::of(name) {
            if let Some(r) = direct_call(d, pos, kw) {
                return r;
            }
        }
    }
    let mut a = Args { name, pos, kw };
    let mut path: ModePath = mode.iter().copied().collect();
    if MODE_OPS.contains(&name) {
        if let Some(m) =
            a.kw.iter_mut()
                .find(|(k, _)| *k == "mode")
                .and_then(|(_, v)| v.take())
        {
            match m {
                Value::Int(i) => path.push(i),
                Value::Tuple(items) => {
                    for it in &items {
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
    let r = match tensor_first_argument(name, &mut a) {
        // tensor.md section 6: the operation applies to the layout and the
        // accessor is kept
        Some(t) => match dispatch(name, &path, &mut a)? {
            Value::Layout(l) => t.with_layout(l),
            v => v,
        },
        None => dispatch(name, &path, &mut a)?,
    };
    a.finish()?;
    Ok(r)
}

/// The direct path `d` on the arguments of [`call_with`], read in place;
/// `None` when an argument is missing or the form is not covered.
fn direct_call(d: super::fast::Direct, pos: &PosArgs, kw: &KwArgs<'_>) -> Option<Result<Value>> {
    use super::fast::ArgView;
    let mut views: SmallVec<[ArgView<'_>; 4]> = SmallVec::new();
    for v in pos {
        views.push(ArgView {
            value: v.as_ref()?,
            converted: None,
        });
    }
    let mut kws: SmallVec<[(&str, ArgView<'_>); 2]> = SmallVec::new();
    for (k, v) in kw {
        kws.push((
            k,
            ArgView {
                value: v.as_ref()?,
                converted: None,
            },
        ));
    }
    d.call(&views, &kws)
}

/// The largest buffer `make_tensor` allocates in the notation.
pub const MAX_TENSOR_ELEMENTS: i64 = 1 << 24;

/// Operations that accept a tensor as first argument (`tensor.md` 6).
const TENSOR_OPS: &[&str] = &[
    "coalesce",
    "coalesce_z",
    "composition",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
];

/// If `name` accepts a tensor first argument and gets one, replaces the
/// argument by the tensor's layout and returns the tensor.
fn tensor_first_argument(name: &str, a: &mut Args) -> Option<TensorArg> {
    if !TENSOR_OPS.contains(&name) {
        return None;
    }
    let slot = a.pos.first_mut()?;
    let (t, l) = match slot {
        Some(Value::Tensor(t)) => (TensorArg::Implicit(t.clone()), t.layout().clone()),
        Some(Value::Array(t)) => (TensorArg::Array(t.clone()), t.layout().clone()),
        _ => return None,
    };
    *slot = Some(Value::Layout(l));
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

/// Operations with a mode-indexed form (`htuple.md` 12, `algebra.md` 18).
const MODE_OPS: &[&str] = &[
    "get",
    "select",
    "take",
    "lift",
    "shape",
    "size",
    "rank",
    "depth",
    "stride",
    "coshape",
    "coprofile",
    "cosize",
    "coalesce",
    "coalesce_z",
    "filter",
    "composition",
    "logical_divide",
    "zipped_divide",
    "logical_product",
];

/// `get(x, path)` on values: layouts follow shape and stride together,
/// tuples their elements (negative indices count from the end)
/// (`htuple.md` 10, `layout.md` 7). Errors: `type` for an index into a
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

/// `lift(v, path, pad)` (`htuple.md` 10): for each index `i` of the path
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
    if let Some(v) = a.opt(key_pos, "indices")? {
        return Ok(match v {
            Value::Tuple(items) => items,
            v => vec![v],
        });
    }
    Ok(path.iter().map(|&i| Value::Int(i)).collect())
}

fn mode_path_arg(path: &[i64], a: &mut Args, pos: usize) -> Result<Vec<i64>> {
    let mut p = path.to_vec();
    if let Some(v) = a.opt(pos, "path")? {
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
/// `tiler_to_layout` (`algebra.md` section 0).
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
    let x = a.req(0, "obj")?;
    get_path(&x, path)
}

fn rank_of(v: &Value) -> Result<Value> {
    match v {
        Value::Layout(l) => usize_value(l.rank()),
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
                    return Err(Error::value("depth of an empty tuple is undefined"));
                }
                let mut m = 0;
                for x in items {
                    m = m.max(rec(x, depth + 1)?);
                }
                Ok(m + 1)
            }
            Value::Layout(l) => rec(&shape_value(l.shape()), depth),
            Value::Swizzled(s) => rec(&shape_value(s.layout.shape()), depth),
            Value::Tensor(t) => rec(&shape_value(t.shape()), depth),
            Value::Array(t) => rec(&shape_value(t.shape()), depth),
            _ => Ok(0),
        }
    }
    usize_value(rec(v, 0)?)
}

fn size_of(v: &Value) -> Result<Value> {
    match v {
        Value::None => Err(Error::type_("size(None) is undefined")),
        v => Ok(Value::Int(shape::size(v.to_shape_of()?.as_ref())?)),
    }
}

fn shape_of(v: &Value) -> Result<Value> {
    match v {
        Value::Layout(l) => Ok(shape_value(l.shape())),
        Value::Swizzled(s) => Ok(shape_value(s.layout.shape())),
        Value::Tensor(t) => Ok(shape_value(t.shape())),
        Value::Array(t) => Ok(shape_value(t.shape())),
        Value::Int(_) | Value::Tuple(_) => {
            v.to_shape()?;
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
            l.stride().flatten(),
        )));
    }
    let mut out = Vec::new();
    rec(v, &mut out, 0)?;
    Ok(Value::Tuple(out))
}

/// `slice_(c, b)` / `dice_(c, b)` (`htuple.md` 11): the sub-values of `b`
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

/// `E(*path)`: negative indices contribute no leading zeros.
fn basis_e(v: Scalar, path: &[Value]) -> Result<Scalar> {
    let mut p = Vec::with_capacity(path.len());
    for x in path {
        let i = x.to_int("E: basis index")?;
        if i > super::value::MAX_VALUE_PARTS as i64 {
            return Err(Error::value(format!("E: basis index {i} too large")));
        }
        p.push(usize::try_from(i).unwrap_or(0));
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
/// (`algebra.md` section 18).
fn lifted(v: Value, path: &[i64]) -> Result<Value> {
    lift(v, path, &Value::None)
}

/// The first argument of the algebra operations that return `None` for a
/// `None` argument.
fn none_passthrough(a: &mut Args) -> Result<Option<Value>> {
    let x = a.req(0, "A")?;
    if matches!(x, Value::None) {
        return Ok(None);
    }
    Ok(Some(x))
}

fn binary_tiler_op(
    a: &mut Args,
    path: &[i64],
    op: &str,
    f: fn(&Layout, &Tiler) -> Result<Layout>,
) -> Result<Value> {
    let x = a.req(0, "A")?;
    let b = lifted(a.req(1, "B")?, path)?;
    if let Value::None = x {
        return Err(Error::type_(format!("{op}: the first argument is None")));
    }
    let l = promote_owned(x, op)?;
    Ok(layout(f(&l, &b.into_tiler()?)?))
}

fn composition_op(a: &mut Args, path: &[i64]) -> Result<Value> {
    let x = a.req(0, "A")?;
    let b = lifted(a.req(1, "B")?, path)?;
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
            Ok(Value::Swizzled(SwizzledLayout::new(sw, l)?))
        }
        Value::Swizzled(s) => Ok(Value::Swizzled(s.compose(&b.to_tiler()?)?)),
        x => {
            let l = promote_owned(x, "composition")?;
            Ok(layout(algebra::composition(&l, &b.into_tiler()?)?))
        }
    }
}

fn profile_op(
    a: &mut Args,
    path: &[i64],
    op: &str,
    whole: fn(&Layout) -> Result<Layout>,
    by_mode: fn(&Layout, &Tiler) -> Result<Layout>,
    none_ok: bool,
) -> Result<Value> {
    let x = a.req(0, "A")?;
    let prof = a.opt(1, "profile")?;
    if let Value::None = x {
        if none_ok {
            return Ok(Value::None);
        }
        return Err(Error::type_(format!("{op}: the first argument is None")));
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

fn unary_layout_op(
    a: &mut Args,
    op: &str,
    f: fn(&Layout) -> Result<Layout>,
    promote_arg: bool,
    none_ok: bool,
) -> Result<Value> {
    let x = if none_ok {
        match none_passthrough(a)? {
            None => return Ok(Value::None),
            Some(x) => x,
        }
    } else {
        a.req(0, "A")?
    };
    let l = if promote_arg {
        promote_owned(x, op)?
    } else {
        layout_arg_owned(x, op)?
    };
    Ok(layout(f(&l)?))
}

fn dispatch(name: &str, path: &[i64], a: &mut Args) -> Result<Value> {
    match name {
        // (the algebra first: a string match tests its arms in order)
        // ---------------------------------------------------------------- algebra
        "coalesce" => profile_op(
            a,
            path,
            name,
            algebra::coalesce,
            algebra::coalesce_by_mode,
            true,
        ),
        "coalesce_z" => profile_op(
            a,
            path,
            name,
            algebra::coalesce_z,
            algebra::coalesce_z_by_mode,
            true,
        ),
        "filter" => profile_op(
            a,
            path,
            name,
            algebra::filter,
            algebra::filter_by_mode,
            false,
        ),
        "filter_zeros" => unary_layout_op(a, name, algebra::filter_zeros, false, false),
        "composition" => composition_op(a, path),
        "complement" => {
            let x = match none_passthrough(a)? {
                None => return Ok(Value::None),
                Some(x) => x,
            };
            let l = promote_owned(x, name)?;
            let ext = match a.opt(1, "extend")? {
                None | Some(Value::None) => None,
                Some(v) => Some(v.to_shape_of()?),
            };
            Ok(layout(algebra::complement(
                &l,
                ext.as_ref().map(|s| s.as_ref()),
            )?))
        }
        "logical_divide" => {
            let x = a.req(0, "A")?;
            if let Value::None = x {
                let b = a.req(1, "B")?;
                if !path.is_empty() {
                    return Err(Error::type_("logical_divide[...](None, B) is not defined"));
                }
                return Ok(layout(algebra::logical_divide_none(&b.to_tiler()?)?));
            }
            // put A back for binary_tiler_op (it may have come by keyword,
            // with no positional arguments at all)
            match a.pos.get_mut(0) {
                Some(slot) => *slot = Some(x),
                None => a.pos.push(Some(x)),
            }
            binary_tiler_op(a, path, name, algebra::logical_divide)
        }
        "zipped_divide" => {
            if path.is_empty() {
                binary_tiler_op(a, path, name, algebra::zipped_divide)
            } else {
                // zipped_divide[p](A, B) = logical_divide[p](A, tiler_to_layout(B))
                let x = a.req(0, "A")?;
                let b = a.req(1, "B")?;
                let bl = tiler_to_layout(&b.to_tiler()?)?;
                let l = promote_owned(x, name)?;
                let t = lifted(Value::Layout(bl), path)?.to_tiler()?;
                Ok(layout(algebra::logical_divide(&l, &t)?))
            }
        }
        "tiled_divide" => binary_tiler_op(a, path, name, algebra::tiled_divide),
        "flat_divide" => binary_tiler_op(a, path, name, algebra::flat_divide),
        "logical_product" => binary_tiler_op(a, path, name, algebra::logical_product),
        "zipped_product" => binary_tiler_op(a, path, name, algebra::zipped_product),
        "tiled_product" => binary_tiler_op(a, path, name, algebra::tiled_product),
        "flat_product" => binary_tiler_op(a, path, name, algebra::flat_product),
        "blocked_product" => binary_tiler_op(a, path, name, algebra::blocked_product),
        "raked_product" => binary_tiler_op(a, path, name, algebra::raked_product),
        "right_inverse" => unary_layout_op(a, name, algebra::right_inverse, true, true),
        "left_inverse" => unary_layout_op(a, name, algebra::left_inverse, true, true),
        "nullspace" => unary_layout_op(a, name, algebra::nullspace, true, true),
        "max_common_layout" | "max_common_vector" => {
            let x = promote_owned(a.req(0, "A")?, name)?;
            let y = promote_owned(a.req(1, "B")?, name)?;
            if name == "max_common_layout" {
                Ok(layout(algebra::max_common_layout(&x, &y)?))
            } else {
                Ok(Value::Int(algebra::max_common_vector(&x, &y)?))
            }
        }
        "layout_add" => {
            let x = layout_arg_owned(a.req(0, "A")?, name)?;
            let y = layout_arg_owned(a.req(1, "B")?, name)?;
            Ok(layout(algebra::layout_add(&x, &y)?))
        }
        "greatest_common_domain" => {
            let x = a.req(0, "A")?.to_shape_of()?;
            let y = a.req(1, "B")?.to_shape_of()?;
            Ok(layout(algebra::greatest_common_domain(
                x.as_ref(),
                y.as_ref(),
            )?))
        }
        "recast" => {
            let x = layout_arg_owned(a.req(0, "layout")?, name)?;
            let s = a.req(1, "scale")?.to_scale()?;
            Ok(layout(algebra::recast(&x, &s)?))
        }
        "upcast" | "downcast" => {
            let x = layout_arg_owned(a.req(0, "A")?, name)?;
            let n = a.req(1, "n")?.to_int(name)?;
            Ok(layout(if name == "upcast" {
                algebra::upcast(&x, n)?
            } else {
                algebra::downcast(&x, n)?
            }))
        }
        "slice_and_offset" => {
            let x = layout_arg_owned(a.req(0, "A")?, name)?;
            let c = a.req(1, "crd")?.to_coord()?;
            let (sub, off) = algebra::slice_and_offset(&x, c.as_ref())?;
            Ok(Value::Tuple(vec![layout(sub), Value::from_scalar(off)]))
        }
        // ---------------------------------------------------------------- HTuple helpers
        "get" => {
            let x = a.req(0, "obj")?;
            let p = mode_path_arg(path, a, 1)?;
            get_path(&x, &p)
        }
        "select" => {
            let x = a.req(0, "obj")?;
            let idx = index_list(path, a, 1)?;
            let mut out = Vec::with_capacity(idx.len());
            for i in &idx {
                let p: Vec<i64> = match i {
                    Value::Tuple(items) => items
                        .iter()
                        .map(|v| v.to_int("select"))
                        .collect::<Result<_>>()?,
                    v => vec![v.to_int("select")?],
                };
                out.push(get_path(&x, &p)?);
            }
            Ok(Value::Tuple(out))
        }
        "take" => {
            let x = a.req(0, "obj")?;
            let idx = index_list(path, a, 1)?;
            if idx.len() != 2 {
                return Err(Error::value(format!(
                    "take: needs exactly two indices (begin, end), got {}",
                    idx.len()
                )));
            }
            let b = idx[0].to_int("take")?;
            let e = idx[1].to_int("take")?;
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
        "lift" => {
            let x = a.req(0, "obj")?;
            let p = mode_path_arg(path, a, 1)?;
            let pad = a.opt(2, "pad")?.unwrap_or(Value::Int(0));
            lift(x, &p, &pad)
        }
        "wrap" => {
            let x = a.req(0, "x")?;
            Ok(if x.is_tuple() {
                x
            } else {
                Value::Tuple(vec![x])
            })
        }
        "unwrap" => {
            let mut x = a.req(0, "x")?;
            loop {
                match x {
                    Value::Tuple(mut items) if items.len() == 1 => {
                        x = items.pop().unwrap_or(Value::None);
                    }
                    other => return Ok(other),
                }
            }
        }
        "repeat_like" => {
            let x = a.req(0, "x")?;
            let p = a.req(1, "profile")?;
            repeat_like_value(&x, &p, 0)
        }
        "slice_" | "dice_" => {
            let c = a.req(0, "htuple")?;
            let b = a.req(1, "B")?;
            slice_dice(&c, &b, name == "slice_")
        }
        "leaves" => {
            let x = a.req(0, "t")?;
            match x {
                Value::Tuple(_) => match flatten_value(&x)? {
                    Value::Tuple(v) => Ok(Value::List(v)),
                    v => Ok(v),
                },
                v => Ok(Value::List(vec![v])),
            }
        }
        // ---------------------------------------------------------------- properties
        "size" => size_of(&query_target(a, path)?),
        "rank" => rank_of(&query_target(a, path)?),
        "depth" => depth_of(&query_target(a, path)?),
        "shape" => shape_of(&query_target(a, path)?),
        "stride" => match query_target(a, path)? {
            Value::Layout(l) => Ok(Value::from_stride(l.stride())),
            Value::Swizzled(s) => Ok(Value::from_stride(s.layout.stride())),
            Value::Tensor(t) => Ok(Value::from_stride(t.layout().stride())),
            Value::Array(t) => Ok(Value::from_stride(t.layout().stride())),
            v => Err(Error::type_(format!(
                "stride: the {} {v} has no stride",
                v.kind_name()
            ))),
        },
        "coshape" | "cosize" => {
            let v = query_target(a, path)?;
            if let (Value::Swizzled(s), "cosize") = (&v, name) {
                // the largest swizzled offset plus one (swizzle.md 10)
                return Ok(Value::Int(s.cosize()?));
            }
            let l = match &v {
                Value::Layout(l) => l.clone(),
                Value::Swizzled(s) => s.layout.clone(),
                v => {
                    return Err(Error::type_(format!(
                        "{name}: expected a layout, got the {} {v}",
                        v.kind_name()
                    )))
                }
            };
            if name == "cosize" {
                Ok(Value::Int(algebra::cosize(&l)?))
            } else {
                Ok(shape_value(&algebra::coshape(&l)?))
            }
        }
        "coprofile" => {
            let v = query_target(a, path)?;
            let l = match &v {
                Value::Layout(l) => l.clone(),
                Value::Swizzled(s) => s.layout.clone(),
                Value::Int(_) | Value::Tuple(_) => {
                    // a None entry of a tiler counts as one axis
                    let t = replace_none(&v, 0)?;
                    promote(&t, "coprofile")?
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
        "congruent" | "weakly_congruent" => {
            let x = a.req(0, "a")?;
            let y = a.req(1, "b")?;
            let cx = profile_coord(&x)?;
            let cy = profile_coord(&y)?;
            Ok(bool_value(if name == "congruent" {
                shape::congruent(cx.as_ref(), cy.as_ref())
            } else {
                shape::weakly_congruent(cx.as_ref(), cy.as_ref())
            }))
        }
        "compatible" => {
            let x = a.req(0, "a")?.to_shape_of()?;
            let y = a.req(1, "b")?.to_shape_of()?;
            Ok(bool_value(shape::compatible(x.as_ref(), y.as_ref())?))
        }
        "common_refinement" | "common_coarsening" => {
            let x = a.req(0, "a")?.to_shape_of()?;
            let y = a.req(1, "b")?.to_shape_of()?;
            let r = if name == "common_refinement" {
                shape::common_refinement(x.as_ref(), y.as_ref())?
            } else {
                shape::common_coarsening(x.as_ref(), y.as_ref())?
            };
            Ok(shape_value(&r))
        }
        "flatten" => flatten_value(&a.req(0, "t")?),
        "product" => {
            let x = a.req(0, "a")?;
            Ok(Value::Int(shape::size(x.to_shape()?.as_ref())?))
        }
        "product_each" => {
            let x = a.req(0, "a")?.to_shape()?;
            Ok(shape_value(&shape::product_each(x.as_ref())?))
        }
        "prefix_product" => {
            let x = a.req(0, "a")?.to_shape()?;
            let init = a.opt(1, "init")?.unwrap_or(Value::Int(1));
            let r = match &init {
                Value::Tuple(_) => {
                    stride::prefix_product_tuple(x.as_ref(), init.to_stride()?.as_ref())?
                }
                v => stride::prefix_product(x.as_ref(), &v.to_scalar("prefix_product")?)?,
            };
            Ok(Value::from_stride(&r))
        }
        "inner_product" => {
            let x = a.req(0, "a")?.to_stride()?;
            let y = a.req(1, "b")?.to_stride()?;
            Ok(Value::from_scalar(stride::inner_product(
                x.as_ref(),
                y.as_ref(),
            )?))
        }
        "idx2crd" => {
            let c = a.req(0, "idx")?.to_coord()?;
            let s = a.req(1, "shape")?.to_shape_of()?;
            Ok(Value::from_stride(&shape::idx2crd(c.as_ref(), s.as_ref())?))
        }
        "crd2idx" => {
            let c = a.req(0, "crd")?.to_coord()?;
            let s = a.req(1, "shape")?.to_shape_of()?;
            Ok(Value::Int(shape::crd2idx(c.as_ref(), s.as_ref())?))
        }
        "is_basis" => {
            let x = a.req(0, "x")?.to_coord_value("is_basis")?;
            Ok(bool_value(x.is_basis()))
        }
        "basis_repr" => {
            let x = a.req(0, "x")?.to_coord_value("basis_repr")?;
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
        "as_tuple" => as_tuple_value(&a.req(0, "obj")?, 0),
        "make_basis_like" => make_basis_like(&a.req(0, "profile")?, &mut Vec::new(), 0),
        "unit" => {
            let p = a.req(0, "profile")?.to_coord_value("unit")?;
            let (_, path) = p.basis_term()?;
            Ok(Value::from_scalar(Scalar::basis(1, &path)))
        }
        "proj" => {
            let x = a.req(0, "x")?;
            let p = a.req(1, "profile")?.to_coord_value("proj")?;
            let (_, path) = p.basis_term()?;
            let ip: Vec<i64> = path.iter().map(|&i| i as i64).collect();
            match &x {
                Value::Scalar(s) => Ok(Value::from_scalar(s.get_path(&path)?)),
                x => get_path(x, &ip),
            }
        }
        // ---------------------------------------------------------------- construction
        "Layout" => {
            let s = a.req(0, "shape")?.to_shape()?;
            match a.opt(1, "stride")? {
                None => Ok(layout(Layout::column_major(s)?)),
                Some(d) => Ok(layout(Layout::with_stride(s, d.to_stride()?.as_ref())?)),
            }
        }
        "LayoutLeft" => Ok(layout(Layout::column_major(
            a.req(0, "shape")?.to_shape()?,
        )?)),
        "LayoutRight" => Ok(layout(Layout::row_major(a.req(0, "shape")?.to_shape()?)?)),
        "make_layout" => {
            let mut items = a.rest(0);
            // PyCuTe's form: one sequence of layouts
            if let [Value::Tuple(inner)] = items.as_slice() {
                if !inner.is_empty() && inner.iter().all(|v| matches!(v, Value::Layout(_))) {
                    items = inner.clone();
                }
            }
            let ls = items
                .iter()
                .map(|v| layout_arg(v, "make_layout"))
                .collect::<Result<Vec<_>>>()?;
            Ok(layout(Layout::concat(ls)?))
        }
        "make_layout_like" => unary_layout_op(a, name, algebra::make_layout_like, false, false),
        "make_ordered_layout" => {
            let s = a.req(0, "shape")?.to_shape()?;
            let o = a.req(1, "order")?.to_shape()?;
            Ok(layout(algebra::make_ordered_layout(
                s.as_ref(),
                o.as_ref(),
            )?))
        }
        "make_identity_layout" => {
            let s = a.req(0, "shape")?.to_shape_of()?;
            Ok(layout(algebra::make_identity_layout(s.as_ref())?))
        }
        "tiler_to_layout" => {
            let t = a.req(0, "tiler")?.to_tiler()?;
            Ok(layout(tiler_to_layout(&t)?))
        }
        "E" => {
            let items = a.rest(0);
            Ok(Value::from_scalar(basis_e(Scalar::Int(1), &items)?))
        }
        "ScaledBasis" => {
            let v = a.req(0, "value")?.to_scalar("ScaledBasis")?;
            let seq = match a.opt(1, "seq")? {
                None => Vec::new(),
                Some(Value::Tuple(items)) => items,
                Some(v) => vec![v],
            };
            Ok(Value::from_scalar(basis_e(v, &seq)?))
        }
        "F2" => {
            let v = a.req(0, "value")?;
            match v {
                Value::Int(x) => Ok(Value::Scalar(Scalar::F2(x))),
                Value::Scalar(Scalar::F2(x)) => Ok(Value::Scalar(Scalar::F2(x))),
                v => Err(Error::type_(format!(
                    "F2: expected an integer, got the {} {v}",
                    v.kind_name()
                ))),
            }
        }
        "ArithTuple" => arith_tuple(a.rest(0)),
        "Swizzle" => {
            let b = a.req(0, "bits")?.to_int("Swizzle")?;
            let m = a.req(1, "base")?.to_int("Swizzle")?;
            let s = a.req(2, "shift")?.to_int("Swizzle")?;
            Ok(Value::Swizzle(Swizzle::new(b, m, s)?))
        }
        // ---------------------------------------------------------------- swizzles and banks
        "bank_conflicts" => {
            let smem = a.req(0, "smem")?;
            let access = promote_owned(a.req(1, "access")?, name)?;
            let elem = a.opt(2, "elem_bytes")?.unwrap_or(Value::Int(4));
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
        // swizzle_layout(Sw, n): the swizzle as an F2 layout on n bits;
        // swizzle_layout(Sw o L): the equivalent F2-stride layout (swizzle.md 6, 7)
        "swizzle_layout" => match a.req(0, "swizzle")? {
            Value::Swizzle(sw) => {
                let n = a.req(1, "n")?.to_int(name)?;
                Ok(layout(crate::swizzle::swizzle_layout(&sw, n)?))
            }
            Value::Swizzled(s) => Ok(layout(s.to_f2_layout()?)),
            v => Err(Error::type_(format!(
                "swizzle_layout: expected a swizzle or a swizzled layout, got the {} {v}",
                v.kind_name()
            ))),
        },
        // ---------------------------------------------------------------- tensors
        "identity_tensor" | "make_identity_tensor" => {
            let s = a.req(0, "shape")?.to_shape()?;
            Ok(Value::Tensor(crate::tensor::identity_tensor(s)?))
        }
        // make_tensor(L): cosize(L) zeros (a shape means Layout(shape)),
        // tensor.md 2; the buffer is shared by the tensor's slices
        "make_tensor" => {
            let l = match a.req(0, "layout")? {
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
        _ => Err(Error::type_(format!("unknown operation '{name}'"))),
    }
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

/// Evaluates `L(args)` for the Python module (same rules as the notation:
/// a `None` in the coordinate slices). Errors: those of [`apply`].
///
/// ```
/// use rcute::notation::{ops::call_layout, Value};
/// let l = rcute::Layout::row_major(rcute::HTuple::flat([4, 8])).unwrap();
/// assert_eq!(call_layout(&l, vec![Value::Int(14)]).unwrap().to_string(), "19");
/// ```
pub fn call_layout(l: &Layout, args: Vec<Value>) -> Result<Value> {
    eval_layout(l, &super::eval::coordinate_of_args(args))
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
