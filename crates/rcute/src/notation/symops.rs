//! The operations on layouts with symbols (`docs/language.md`, "Symbols"):
//! which operations accept a [`SymLayout`], and the symbolic forms of the
//! algebra operations that do, which call the library's algebra on
//! layouts with symbols (`SymLayout::coalesce`, `composition`, ...).
//!
//! The dispatch ([`super::ops`]) asks [`dispatch`] first: it answers `None`
//! when no argument involves a symbol (the general implementation runs, as
//! before), and for the queries (`size`, `shape`, ...), whose general
//! implementations read layouts with symbols themselves. A concrete
//! operand of an operation on layouts with symbols is converted with
//! [`Layout::to_sym`](crate::Layout::to_sym); an integer tiler `n` (concrete or symbolic) is the
//! layout `n:1`.

use super::imp::{lifted, Arg, Args};
use super::table::{lookup, Symbols, OPERATIONS};
use super::value::{check_depth, Value, MAX_VALUE_DEPTH};
use crate::algebra::Tiles;
use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple};
use crate::layout::SymLayout;
use crate::sym::SymInt;

/// What the operation `name` does with layouts with symbols (the
/// operation table's [`Symbols`] entry).
fn kind(name: &str) -> Symbols {
    lookup(name).map_or(Symbols::No, |o| o.symbols)
}

/// The names of the operations of the kind `k`, in the table's order.
fn names(k: Symbols) -> Vec<&'static str> {
    OPERATIONS
        .iter()
        .filter(|o| o.symbols == k)
        .map(|o| o.name)
        .collect()
}

/// True when `v` is or holds (in tuples and lists) a value of `pred`.
fn holds(v: &Value, pred: fn(&Value) -> bool, depth: usize) -> bool {
    if pred(v) {
        return true;
    }
    match v {
        Value::Tuple(items) | Value::List(items) if depth < MAX_VALUE_DEPTH => {
            items.iter().any(|x| holds(x, pred, depth + 1))
        }
        _ => false,
    }
}

fn is_symbolic(v: &Value) -> bool {
    matches!(v, Value::SymLayout(_) | Value::Sym(_))
}

/// The arguments not yet consumed (positional, then keyword).
fn arguments<'v>(a: &'v Args<'_, '_, '_>) -> impl Iterator<Item = &'v Value> + 'v {
    a.pos
        .iter()
        .flatten()
        .map(Arg::value)
        .chain(a.kw.iter().filter_map(|(_, v)| v.as_ref().map(Arg::value)))
}

/// The symbolic form of the operation of `a`, when an argument involves a
/// symbol: the algebra operations ([`Symbols::Algebra`]) run on layouts
/// with symbols, the constructors ([`Symbols::Constructor`]) build one; any other operation given a layout with symbols is a `type`
/// error naming it. `None` when the general implementation runs (no
/// symbol involved, or a query ([`Symbols::Query`]), or symbolic integers given
/// to an operation that handles them itself).
pub(crate) fn dispatch(a: &mut Args, path: &[i64], tensor: bool) -> Option<Result<Value>> {
    if !arguments(a).any(|v| holds(v, is_symbolic, 0)) {
        return None;
    }
    let name = a.name();
    match kind(name) {
        Symbols::Query => return None,
        Symbols::Constructor => return Some(construct(a)),
        Symbols::Algebra | Symbols::No => {}
    }
    if kind(name) == Symbols::Algebra {
        if tensor {
            return Some(Err(Error::type_(format!(
                "{name}: a tensor with symbols in the other operands is not available \
                 (substitute values with subs first)"
            ))));
        }
        return Some(algebra(a, path));
    }
    let l = arguments(a).find_map(|v| find_sym_layout(v, 0))?;
    Some(Err(not_accepted(name, l)))
}

/// The first layout with symbols in `v`.
fn find_sym_layout(v: &Value, depth: usize) -> Option<&SymLayout> {
    match v {
        Value::SymLayout(l) => Some(l),
        Value::Tuple(items) | Value::List(items) if depth < MAX_VALUE_DEPTH => {
            items.iter().find_map(|x| find_sym_layout(x, depth + 1))
        }
        _ => None,
    }
}

/// The `type` error of an operation that does not accept a layout with
/// symbols.
fn not_accepted(name: &str, l: &SymLayout) -> Error {
    let symbol = l
        .shape()
        .leaves()
        .iter()
        .chain(l.stride().leaves())
        .find_map(|x| x.symbols().into_iter().next())
        .map_or_else(|| "N".to_string(), |(n, _)| n);
    let algebra = names(Symbols::Algebra);
    Error::type_(format!(
        "{name}: the layout with symbols {l} is not accepted here; layouts with symbols \
         are accepted by {}, by {} and {}, and by calling L(c) and mode access L[i] \
         (`subs(L, {symbol}=...)` substitutes values)",
        names(Symbols::Query).join(", "),
        algebra[..algebra.len().saturating_sub(1)].join(", "),
        algebra.last().copied().unwrap_or_default()
    ))
}

/// The `type` error of a form that is not available with symbols.
fn unavailable(name: &str, what: &str) -> Error {
    Error::type_(format!(
        "{name}: {what} is not available on layouts with symbols (substitute values with \
         subs first)"
    ))
}

/// A layout operand as a layout with symbols: a layout with symbols, a
/// layout (converted), an integer or symbolic integer `n` (the layout
/// `n:1`) or a tuple of integers (promoted as `tiler_to_layout` does).
fn operand(v: &Value, name: &str) -> Result<SymLayout> {
    match v {
        Value::SymLayout(l) => Ok((**l).clone()),
        Value::Layout(l) => l.to_sym(),
        Value::Int(_) | Value::Sym(_) => {
            let n = v.as_sym().unwrap_or_else(|| SymInt::from(1));
            SymLayout::from_shape_stride(HTuple::leaf(n), HTuple::leaf(SymInt::from(1)))
        }
        Value::Tuple(_) => crate::tiler::tiler_to_layout(&v.to_tiler()?)?.to_sym(),
        v => Err(Error::type_(format!(
            "{name}: expected a layout, a layout with symbols, an integer or a symbolic \
             integer, got the {} {v}",
            v.kind_name()
        ))),
    }
}

/// A tiler with symbols: one layout, or one (optional) layout per mode.
enum SymTiler {
    Whole(Box<SymLayout>),
    ByMode(Vec<Option<SymLayout>>),
}

/// The tiler of `v`: a layout (of [`operand`]) or a tuple of them and
/// `None`s, applied mode by mode; a tuple inside the by-mode tuple is a
/// `type` error.
fn tiler(v: &Value, name: &str) -> Result<SymTiler> {
    match v {
        Value::Tuple(items) => Ok(SymTiler::ByMode(
            items
                .iter()
                .map(|x| match x {
                    Value::None => Ok(None),
                    Value::Tuple(_) => {
                        Err(unavailable(name, &format!("the nested by-mode tiler {v}")))
                    }
                    x => operand(x, name).map(Some),
                })
                .collect::<Result<_>>()?,
        )),
        v => Ok(SymTiler::Whole(Box::new(operand(v, name)?))),
    }
}

/// The value of a result: a plain layout when no leaf depends on a symbol.
fn value(r: Result<SymLayout>) -> Result<Value> {
    r.map(Value::from_sym_layout)
}

/// `Layout(S)`, `Layout(S, D)` (also `make_layout(S)`, `make_layout(S,
/// D)`), `LayoutLeft(S)`, `LayoutRight(S)` with
/// symbols in `S` or `D`: as without symbols, `D` weakly congruent to `S`
/// (a scalar of `D` seeds the prefix products of the sub-shape it stands
/// for), column-major without `D`.
fn construct(a: &mut Args) -> Result<Value> {
    let name = a.name();
    let (s, d) = if name == "make_layout" {
        // make_layout(S) and make_layout(S, D); its concatenation form
        // takes concrete layouts
        let mut items = a.rest(0).into_iter();
        match (items.next(), items.next(), items.next()) {
            (Some(s @ (Value::Int(_) | Value::Sym(_) | Value::Tuple(_))), d, None)
                if !holds(&s, |v| matches!(v, Value::SymLayout(_)), 0) =>
            {
                (s, d)
            }
            (s, d, e) => {
                let all: Vec<Value> = [s, d, e].into_iter().flatten().collect();
                return Err(match all.iter().find_map(|v| find_sym_layout(v, 0)) {
                    Some(l) => not_accepted(name, l),
                    None => unavailable(name, "the concatenation of layouts"),
                });
            }
        }
    } else if name == "Layout" {
        (a.req(0)?, a.opt(1)?)
    } else {
        (a.req(0)?, None)
    };
    let s = s.to_sym_shape()?;
    let stride = match (name, d) {
        ("LayoutRight", _) => {
            let leaves = s.leaves();
            let mut d = vec![SymInt::from(1); leaves.len()];
            let mut acc = SymInt::from(1);
            for (k, x) in leaves.iter().enumerate().rev() {
                d[k] = acc.clone();
                acc = acc.mul(x)?;
            }
            HTuple::unflatten(d, s.as_ref())?
        }
        (_, None) => {
            let mut b = Builder::new();
            prefix_product(s.as_ref(), &mut SymInt::from(1), &mut b)?;
            b.finish()
        }
        (_, Some(d)) => {
            let mut b = Builder::new();
            with_stride(s.as_ref(), &d, &mut b, 0)?;
            b.finish()
        }
    };
    value(SymLayout::from_shape_stride(s, stride))
}

/// The strides `acc, acc*s0, acc*s0*s1, ...` of the leaves of `s`, written
/// with `s`'s structure.
fn prefix_product(s: HRef<'_, SymInt>, acc: &mut SymInt, b: &mut Builder<SymInt>) -> Result<()> {
    match s.as_leaf() {
        Some(x) => {
            b.leaf(acc.clone());
            *acc = acc.mul(x)?;
        }
        None => {
            b.open();
            for m in s.modes() {
                prefix_product(m, acc, b)?;
            }
            b.close();
        }
    }
    Ok(())
}

/// The stride of `Layout(S, D)` for a `D` weakly congruent to `S`.
fn with_stride(
    s: HRef<'_, SymInt>,
    d: &Value,
    b: &mut Builder<SymInt>,
    depth: usize,
) -> Result<()> {
    check_depth(depth, "Layout")?;
    match d {
        Value::Tuple(items) => {
            if s.is_leaf() {
                return Err(Error::congruence(format!(
                    "Layout(S, D): the stride {d} stands for the extent {s}; a layout with \
                     symbols has integer strides"
                )));
            }
            if items.len() != s.rank() {
                return Err(Error::rank(format!(
                    "Layout(S, D): the stride {d} has {} modes where the shape {s} has {}",
                    items.len(),
                    s.rank()
                )));
            }
            b.open();
            for (m, x) in s.modes().zip(items) {
                with_stride(m, x, b, depth + 1)?;
            }
            b.close();
            Ok(())
        }
        v => {
            let mut seed = v.as_sym().ok_or_else(|| {
                Error::type_(format!(
                    "Layout(S, D): with symbols the strides are integers or symbolic \
                     integers, got the {} {v}",
                    v.kind_name()
                ))
            })?;
            prefix_product(s, &mut seed, b)
        }
    }
}

/// The algebra operations ([`Symbols::Algebra`]) with symbols involved.
fn algebra(a: &mut Args, path: &[i64]) -> Result<Value> {
    let name = a.name();
    match name {
        "coalesce" => {
            let x = a.req(0)?;
            // (the profile 1 is the whole layout)
            let prof = a.opt(1)?.filter(|p| !matches!(p, Value::Int(1)));
            if !path.is_empty() || prof.is_some() {
                return Err(unavailable(
                    name,
                    "the by-mode form (a profile, coalesce[i])",
                ));
            }
            value(operand(&x, name)?.coalesce())
        }
        "composition" => {
            let x = a.req(0)?;
            let b = a.req(1)?;
            if a.opt(2)?.is_some_and(|c| !matches!(c, Value::None)) {
                return Err(unavailable(name, "the three-argument form"));
            }
            match &x {
                Value::None => {
                    // composition(None, B) is B as one layout
                    return match (&b, path.is_empty()) {
                        (Value::SymLayout(_) | Value::Layout(_), true) => value(operand(&b, name)),
                        _ => Err(unavailable(
                            name,
                            &format!("composition(None, {b}) of a tuple or at a mode"),
                        )),
                    };
                }
                Value::Swizzle(_) | Value::Swizzled(_) => {
                    return Err(unavailable(name, "a swizzle"))
                }
                _ => {}
            }
            if matches!(b, Value::Swizzle(_) | Value::Swizzled(_)) {
                return Err(unavailable(name, "a swizzle"));
            }
            let l = operand(&x, name)?;
            match tiler(&lifted(b, path)?, name)? {
                SymTiler::Whole(t) => value(l.composition(&t)),
                SymTiler::ByMode(t) => value(l.composition_by_mode(&t)),
            }
        }
        "complement" => {
            let x = a.req(0)?;
            if matches!(x, Value::None) {
                return Ok(Value::None);
            }
            let l = operand(&x, name)?;
            let cotarget = match a.opt(1)? {
                // 0 asks for the minimal complement, as without symbols
                None | Some(Value::None) | Some(Value::Int(0)) => None,
                Some(v @ (Value::Int(_) | Value::Sym(_))) => v.as_sym(),
                Some(v) => {
                    return Err(Error::type_(format!(
                        "complement: with symbols the extension is an integer or a symbolic \
                         integer, got the {} {v}",
                        v.kind_name()
                    )))
                }
            };
            value(l.complement(cotarget.as_ref()))
        }
        "right_inverse" | "left_inverse" => {
            let x = a.req(0)?;
            if matches!(x, Value::None) {
                return Ok(Value::None);
            }
            let l = operand(&x, name)?;
            value(if name == "right_inverse" {
                l.right_inverse()
            } else {
                l.left_inverse()
            })
        }
        "logical_divide" => {
            let x = a.req(0)?;
            let b = a.req(1)?;
            if matches!(x, Value::None) {
                return Err(unavailable(name, "logical_divide(None, B)"));
            }
            if matches!(x, Value::Swizzled(_)) {
                return Err(unavailable(name, "a swizzled layout"));
            }
            let l = operand(&x, name)?;
            match tiler(&lifted(b, path)?, name)? {
                SymTiler::Whole(t) => value(l.logical_divide(&t)),
                SymTiler::ByMode(t) => value(l.logical_divide_by_mode(&t)),
            }
        }
        "zipped_divide" | "tiled_divide" | "flat_divide" => {
            let x = a.req(0)?;
            let b = a.req(1)?;
            if matches!(x, Value::None | Value::Swizzled(_)) {
                return Err(unavailable(name, &format!("{name}({x}, B)")));
            }
            let l = operand(&x, name)?;
            let t = tiler(&lifted(b, path)?, name)?;
            let by_mode: Vec<SymLayout>;
            let tiles = match &t {
                SymTiler::Whole(t) => Tiles::Whole(t),
                SymTiler::ByMode(t) => {
                    by_mode = t
                        .iter()
                        .map(|m| {
                            m.clone()
                                .ok_or_else(|| unavailable(name, "a `None` mode in the tiler"))
                        })
                        .collect::<Result<_>>()?;
                    Tiles::ByMode(&by_mode)
                }
            };
            value(match name {
                "zipped_divide" => l.zipped_divide(tiles),
                "tiled_divide" => l.tiled_divide(tiles),
                _ => l.flat_divide(tiles),
            })
        }
        "logical_product" | "zipped_product" | "tiled_product" | "flat_product"
        | "blocked_product" | "raked_product" => {
            let x = a.req(0)?;
            let b = a.req(1)?;
            if matches!(x, Value::None | Value::Swizzled(_)) {
                return Err(unavailable(name, &format!("{name}({x}, B)")));
            }
            let l = operand(&x, name)?;
            let SymTiler::Whole(t) = tiler(&lifted(b, path)?, name)? else {
                return Err(unavailable(name, "a tiler by mode"));
            };
            value(match name {
                "logical_product" => l.logical_product(&t),
                "zipped_product" => l.zipped_product(&t),
                "tiled_product" => l.tiled_product(&t),
                "flat_product" => l.flat_product(&t),
                "blocked_product" => l.blocked_product(&t),
                _ => l.raked_product(&t),
            })
        }
        "max_common_vector" => {
            let x = a.req(0)?;
            let b = a.req(1)?;
            let v = operand(&x, name)?.max_common_vector(&operand(&b, name)?)?;
            Ok(Value::from_sym(v))
        }
        "slice_and_offset" => {
            let x = a.req(0)?;
            let c = a.req(1)?;
            let l = operand(&x, name)?;
            let coord = super::apply::sym_slicing_coordinate(&l, &c)?;
            let (kept, off) = l.slice_and_offset(coord.as_ref())?;
            Ok(Value::Tuple(vec![
                Value::from_sym_layout(kept),
                Value::from_sym(off),
            ]))
        }
        "make_layout_like" => {
            let x = a.req(0)?;
            value(operand(&x, name)?.make_layout_like())
        }
        _ => Err(Error::type_(format!(
            "{name}: not available on layouts with symbols"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    #[test]
    fn every_algebra_entry_has_a_symbolic_form() {
        // each operation the table marks as accepting layouts with symbols
        // is one `algebra` answers (not its catch-all refusal)
        for n in names(Symbols::Algebra) {
            // the required arguments, each the layout (N, 4):(1, N)
            let required = lookup(n).map_or(0, |o| {
                o.params.iter().filter(|p| p.default.is_none()).count()
            });
            let args = vec!["(N, 4):(1, N)"; required].join(", ");
            let mut s = crate::notation::Session::new();
            s.eval_line("assume N").unwrap().unwrap();
            let r = s.eval_line(&format!("{n}({args})")).unwrap();
            if let Err(e) = r {
                // (an error of the symbolic form, such as an undecided
                // question, is an answer; the catch-all refusal is not)
                // (slice_and_offset reads its second layout as a coordinate:
                // a type error of the symbolic form, not the refusal)
                let m = e.message();
                assert!(!m.contains(&format!("{n}: not available")), "{n}: {e}");
                assert!(!m.contains("is not accepted here"), "{n}: {e}");
                let kind = match n {
                    "slice_and_offset" => crate::ErrorKind::Type,
                    _ => crate::ErrorKind::Value,
                };
                assert_eq!(e.kind(), kind, "{n}: {e}");
            }
        }
    }

    #[test]
    fn concrete_operands_convert() {
        let l = Layout::new((4, 8), (1, 4)).unwrap();
        let s = operand(&Value::Layout(l.clone()), "x").unwrap();
        assert_eq!(s.to_concrete(), Some(l));
        let n = operand(&Value::Int(6), "x").unwrap();
        assert_eq!(n.to_string(), "6:1");
        assert!(operand(&Value::None, "x").is_err());
    }
}
