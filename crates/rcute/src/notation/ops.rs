//! The dispatch of the notation's operations (`docs/language.md`,
//! "Operations"): one entry point, [`call`], shared by the command-line
//! tool and the Python module. Which operations exist, their parameters,
//! whether they have a mode-indexed form or accept a tensor, and their
//! fast paths all come from the operation table ([`super::table`], also
//! `rcute::ops`); the implementations are in `notation::imp`.
//!
//! Mode-indexed calls follow `docs/language.md`, "Mode-indexed calls" (lifting) and
//! `docs/language.md`, "Mode-indexed calls" (queries read the mode); a tensor first argument
//! follows `docs/tensors.md`.

use super::apply::{apply, coordinate_of_args, eval_layout};
use super::fast::{self, ArgView, Direct};
use super::imp::Args;
pub use super::imp::{get_path, lift, KwArgs, PosArgs, MAX_TENSOR_ELEMENTS};
pub use super::table::OPERATIONS;
use super::table::{lookup, Operation};
use super::value::Value;
use crate::error::{Error, Result};
use crate::htuple::MAX_DEPTH;
use crate::layout::Layout;
use smallvec::SmallVec;

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
    let name = op.name;
    // the common argument forms of the algebra read their operands in
    // place (same value or error; `fast` answers nothing otherwise)
    if mode.is_empty() {
        if let (Some(d), true) = (op.direct, fast::enabled()) {
            if let Some(r) = direct_call(d, pos, kw) {
                return r;
            }
        }
    }
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

/// The direct path `d` on the arguments of [`call_with`], read in place;
/// `None` when an argument is missing or the form is not covered.
fn direct_call(d: Direct, pos: &PosArgs, kw: &KwArgs<'_>) -> Option<Result<Value>> {
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

/// If the first argument is a tensor, replaces it by the tensor's layout
/// and returns the tensor (for the operations that accept one).
fn tensor_first_argument(a: &mut Args) -> Option<TensorArg> {
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
