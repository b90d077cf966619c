//! The evaluator: variables, arithmetic, layout evaluation and slicing,
//! mode access, and calls routed to [`super::ops::call`].
//!
//! It sits above the operations ([`super::ops`]) and the applying of
//! values ([`super::apply`], re-exported here), which do not call back into
//! it, and below the prepared statements ([`super::prepare`], which also
//! holds [`Session::eval_line`]).

use std::collections::HashMap;

pub use super::apply::{apply, coordinate_of_args, eval_layout, eval_sym_layout, index};
use super::ops::{self, is_operation};
use super::parser::{Assumption, BinOp, Expr, ExprKind, Statement};
use super::suggest::{did_you_mean, CONSTANTS};
use super::table::{lookup, Operation, OPERATIONS};
use super::value::{check_size, value_parts, values_equal, Value, MAX_VALUE_PARTS};
use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, MAX_DEPTH};
use crate::int;
use crate::layout::Layout;
use crate::stride::Scalar;
use crate::sym::{Facts, SymInt};

/// An evaluation session: the variables bound so far.
///
/// ```
/// use rcute::notation::{Session, format_value, Style};
/// let mut s = Session::new();
/// let a = s.eval_line("A = (4,8):(8,1)").unwrap().unwrap();
/// assert_eq!(format_value(&a, Style::Str), "(4, 8):(8, 1)");
/// let v = s.eval_line("A(2,3)").unwrap().unwrap();
/// assert_eq!(v.to_string(), "19");
/// assert!(s.eval_line("# a comment").is_none());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Session {
    vars: HashMap<String, Value>,
    facts: Facts,
}

impl Session {
    /// A session without variables.
    pub fn new() -> Session {
        Session::default()
    }

    /// The value bound to `name`, if any.
    ///
    /// ```
    /// let mut s = rcute::notation::Session::new();
    /// s.eval_line("A = 3").unwrap().unwrap();
    /// assert_eq!(s.get("A").unwrap().to_string(), "3");
    /// assert!(s.get("B").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }

    /// Binds `name` to `v`. Names of operations and the constants `None`,
    /// `_`, `True`, `False` cannot be bound (`value` error).
    ///
    /// ```
    /// use rcute::notation::{Session, Value};
    /// let mut s = Session::new();
    /// s.set("n", Value::Int(4)).unwrap();
    /// assert_eq!(s.eval_line("n * 2").unwrap().unwrap().to_string(), "8");
    /// assert!(s.set("size", Value::Int(1)).is_err());
    /// ```
    pub fn set(&mut self, name: &str, v: Value) -> Result<()> {
        check_assignable(name)?;
        if self.facts.fact(name).is_some() {
            return Err(Error::value(format!(
                "cannot assign to '{name}': it is a symbol declared with `assume`"
            )));
        }
        self.vars.insert(name.to_string(), v);
        Ok(())
    }

    /// Executes a parsed statement (an assignment binds and returns the
    /// value). Errors: those of [`Session::eval`]; `value` when assigning to
    /// an operation name.
    ///
    /// ```
    /// use rcute::notation::{parser::parse_statement, Session};
    /// let mut s = Session::new();
    /// let st = parse_statement("L = Layout((4,8))").unwrap().unwrap();
    /// assert_eq!(s.exec(&st).unwrap().to_string(), "(4, 8):(1, 4)");
    /// ```
    pub fn exec(&mut self, stmt: &Statement) -> Result<Value> {
        match stmt {
            Statement::Expr(e) => self.eval(e),
            Statement::Assume(names, fact) => self.assume(names, *fact),
            Statement::Assign(name, e) => {
                // refused before the value is computed
                check_assignable(name)?;
                let v = self.eval(e)?;
                self.set(name, v.clone())?;
                Ok(v)
            }
        }
    }

    /// Evaluates an expression. Errors: any error of the operations,
    /// conversions and arithmetic involved; `value` for an unknown name or
    /// a value beyond the size bounds of [`check_size`].
    ///
    /// ```
    /// use rcute::notation::{parser::{parse_statement, Statement}, Session};
    /// let Some(Statement::Expr(e)) = parse_statement("1@0 + 2@1").unwrap() else { panic!() };
    /// assert_eq!(Session::new().eval(&e).unwrap().to_string(), "(1, 2)");
    /// ```
    pub fn eval(&self, e: &Expr) -> Result<Value> {
        // the result is checked in place and returned as is (no move of
        // the value out of and back into a `Result`)
        let r = self.eval_unchecked(e);
        if let Ok(v) = &r {
            if !matches!(
                e.kind,
                ExprKind::Int(_) | ExprKind::F2(_) | ExprKind::Name(_) | ExprKind::Index(..)
            ) {
                // literals are small, names and indices give stored (checked) values
                check_size(v)?;
            }
        }
        r
    }

    fn eval_unchecked(&self, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Int(v) => i64::try_from(*v)
                .map(Value::Int)
                .map_err(|_| Error::overflow(format!("integer {v} does not fit in 64 bits"))),
            ExprKind::F2(v) => Ok(Value::Scalar(Scalar::F2(*v))),
            ExprKind::Name(n) => self.lookup(n),
            ExprKind::Tuple(items) => {
                let mut v = Vec::with_capacity(items.len());
                let mut parts = 0;
                for x in items {
                    let y = self.eval(x)?;
                    spend_operand(&mut parts, &y, x.col)?;
                    v.push(y);
                }
                Ok(Value::Tuple(v))
            }
            ExprKind::Neg(x) => negate(&self.eval(x)?),
            ExprKind::Binary(op, a, b) => binary(*op, &self.eval(a)?, &self.eval(b)?),
            ExprKind::Layout(s, d) => self.eval_layout_literal(s, d),
            ExprKind::Call {
                callee,
                args,
                kwargs,
            } => self.eval_call(callee, args, kwargs),
            ExprKind::Index(target, idx) => self.eval_index(target, idx),
        }
    }

    // The large arms live in their own functions so that evaluating the
    // small expressions (integers, names, arithmetic, tuples) recurses
    // through a small stack frame.

    #[inline(never)]
    fn eval_layout_literal(&self, s: &Expr, d: &Expr) -> Result<Value> {
        // literal shapes and strides are built directly; anything else
        // (names, arithmetic, coordinate strides, errors) goes through the
        // values
        if let Some(l) = literal_layout(s, d) {
            return Ok(Value::Layout(l));
        }
        let s = self.eval(s)?;
        let d = self.eval(d)?;
        layout_literal(&s, &d)
    }

    #[inline(never)]
    fn eval_call(&self, callee: &Expr, args: &[Expr], kwargs: &[(String, Expr)]) -> Result<Value> {
        // `L(c)` with a coordinate made of integer literals: the coordinate
        // is built directly (the arguments cannot fail, so evaluating the
        // callee first gives the same errors)
        if kwargs.is_empty() && !args.is_empty() && !is_operation_name(callee) {
            if let Some(coord) = literal_coordinate(args) {
                if let Value::Layout(l) = self.eval(callee)? {
                    return Ok(Value::from_scalar(l.eval(coord.as_ref())?));
                }
            }
        }
        // plain loops: no Result-collecting adapters, whose intermediate
        // copies of the inline argument array cost more than the
        // evaluation of small arguments
        let mut argv = ops::PosArgs::new();
        let mut parts = 0;
        for x in args {
            let y = self.eval(x)?;
            spend_operand(&mut parts, &y, x.col)?;
            argv.push(Some(y));
        }
        let mut kw = ops::KwArgs::new();
        for (k, x) in kwargs {
            kw.push((k.as_str(), Some(self.eval(x)?)));
        }
        if let Some((op, path)) = self.operation_callee(callee)? {
            return ops::call_op(op, &path, &mut argv, &mut kw);
        }
        let f = self.eval(callee)?;
        if !kw.is_empty() {
            return Err(Error::type_(format!(
                "a {} takes no keyword arguments",
                f.kind_name()
            )));
        }
        // integer coordinates of a layout: evaluated without building a
        // coordinate value
        if let Value::Layout(l) = &f {
            if let [Some(Value::Int(i))] = argv.as_slice() {
                return Ok(Value::from_scalar(l.eval_index(*i)?));
            }
        }
        apply(&f, argv.into_iter().flatten().collect())
    }

    #[inline(never)]
    fn eval_index(&self, target: &Expr, idx: &[Expr]) -> Result<Value> {
        if let ExprKind::Name(n) = &target.kind {
            if is_operation(n) {
                return Err(Error::type_(format!(
                    "{n}[...] must be called: write {n}[i, j](args)"
                )));
            }
        }
        if let ExprKind::Index(inner, _) = &target.kind {
            if self.operation_callee(inner)?.is_some() {
                return Err(Error::type_("a mode-indexed operation must be called"));
            }
        }
        let t = self.eval(target)?;
        let mut parts = 0;
        let mut iv = Vec::with_capacity(idx.len());
        for x in idx {
            let y = self.eval(x)?;
            spend_operand(&mut parts, &y, x.col)?;
            iv.push(y);
        }
        index(&t, &iv)
    }

    /// If `e` names an operation, possibly with mode subscripts
    /// (`op`, `op[i, j]`, `op[i][j]`), its table entry and accumulated path.
    fn operation_callee(&self, e: &Expr) -> Result<Option<(&'static Operation, ops::ModePath)>> {
        match &e.kind {
            ExprKind::Name(n) => Ok(lookup(n).map(|op| (op, ops::ModePath::new()))),
            ExprKind::Index(inner, idx) => match self.operation_callee(inner)? {
                None => Ok(None),
                Some((op, mut path)) => {
                    let n = op.name;
                    for x in idx {
                        match self.eval(x)? {
                            Value::Int(i) => path.push(i),
                            Value::Tuple(items) => {
                                for it in items {
                                    path.push(it.to_int("mode index")?);
                                }
                            }
                            v => {
                                return Err(Error::type_(format!(
                                    "{n}[...]: a mode index must be an integer, got the {} {v}",
                                    v.kind_name()
                                )))
                            }
                        }
                    }
                    Ok(Some((op, path)))
                }
            },
            _ => Ok(None),
        }
    }

    /// The symbols declared with `assume` and their facts.
    ///
    /// ```
    /// let mut s = rcute::notation::Session::new();
    /// s.eval_line("assume N % 16 == 0").unwrap().unwrap();
    /// assert_eq!(s.facts().fact("N").unwrap().divisor, 16);
    /// ```
    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// Records an assumption (`docs/language.md`, "Symbols") and returns
    /// what is now known, as the notation states it: `N >= 1` for a
    /// declaration, `N % 16 == 0`, `N >= 64` (the bound rounded up to a
    /// multiple of the known divisor). Errors: `value` for a name that is
    /// bound to a variable, an operation or a constant, a divisor below 1;
    /// `overflow`.
    pub(super) fn assume(&mut self, names: &[String], fact: Assumption) -> Result<Value> {
        for n in names {
            if is_operation(n) || is_reserved(n) {
                return Err(Error::value(format!(
                    "assume {n}: '{n}' names an operation or a constant, not a symbol"
                )));
            }
            if self.vars.contains_key(n) {
                return Err(Error::value(format!(
                    "assume {n}: '{n}' is a variable; a symbol needs a name of its own"
                )));
            }
        }
        let mut out = Vec::with_capacity(names.len());
        for n in names {
            match fact {
                Assumption::Symbol => self.facts.declare(n)?,
                Assumption::Divisible(d) => self.facts.assume_divisible(n, d)?,
                Assumption::AtLeast(b) => self.facts.assume_at_least(n, b)?,
            }
            let f = self
                .facts
                .fact(n)
                .ok_or_else(|| Error::value(format!("assume {n}")))?;
            out.push(match fact {
                Assumption::Divisible(_) => format!("{n} % {} == 0", f.divisor),
                Assumption::Symbol | Assumption::AtLeast(_) => format!("{n} >= {}", f.min),
            });
        }
        Ok(Value::Fact(out.join(", ")))
    }

    fn lookup(&self, n: &str) -> Result<Value> {
        match n {
            "None" | "_" => return Ok(Value::None),
            "True" => return Ok(Value::Bool(true)),
            "False" => return Ok(Value::Bool(false)),
            _ => {}
        }
        if let Some(v) = self.vars.get(n) {
            return Ok(v.clone());
        }
        if self.facts.fact(n).is_some() {
            return Ok(Value::Sym(SymInt::symbol(&self.facts, n)?));
        }
        if let Some((b, m, s)) = super::lexer::printed_swizzle(n) {
            // the printed swizzle `SW_3_4_3` reads back as `Swizzle(3,4,3)`
            return Ok(Value::Swizzle(crate::swizzle::Swizzle::new(b, m, s)?));
        }
        if is_operation(n) {
            return Err(Error::type_(format!(
                "'{n}' is an operation; call it as {n}(...)"
            )));
        }
        let names = OPERATIONS
            .iter()
            .map(|op| op.name)
            .chain(CONSTANTS)
            .chain(self.vars.keys().map(String::as_str))
            .chain(self.facts.names());
        Err(Error::value(format!(
            "unknown name '{n}'{}",
            did_you_mean(n, names)
        )))
    }
}

/// The layout of a literal `S:D` whose shape is a tuple of integer
/// literals and whose stride is a congruent tuple of integer or F2
/// literals, built directly (no intermediate values). `None` for anything
/// else and for invalid literals: the caller then evaluates the operands as
/// values, which gives the same layout or the error.
fn literal_layout(s: &Expr, d: &Expr) -> Option<Layout> {
    fn int_literal(e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Int(v) => i64::try_from(*v).ok(),
            ExprKind::Neg(x) => match &x.kind {
                ExprKind::Int(v) => i64::try_from(-*v).ok(),
                _ => None,
            },
            _ => None,
        }
    }
    fn shape(e: &Expr, b: &mut Builder<i64>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match &e.kind {
            ExprKind::Tuple(items) => {
                b.open();
                for x in items {
                    shape(x, b, depth + 1)?;
                }
                b.close();
                Some(())
            }
            _ => {
                b.leaf(int_literal(e)?);
                Some(())
            }
        }
    }
    fn stride(s: HRef<'_, i64>, e: &Expr, b: &mut Builder<Scalar>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        if s.is_leaf() {
            let v = match &e.kind {
                ExprKind::F2(v) => Scalar::F2(*v),
                _ => Scalar::Int(int_literal(e)?),
            };
            b.leaf(v);
            return Some(());
        }
        match &e.kind {
            ExprKind::Tuple(items) if items.len() == s.rank() => {
                b.open();
                for (sm, x) in s.modes().zip(items) {
                    stride(sm, x, b, depth + 1)?;
                }
                b.close();
                Some(())
            }
            _ => None,
        }
    }
    let mut bs = Builder::new();
    shape(s, &mut bs, 0)?;
    let sh = bs.finish();
    let mut bd = Builder::new();
    stride(sh.as_ref(), d, &mut bd, 0)?;
    Layout::new(sh, bd.finish()).ok()
}

/// True when `e` names an operation, possibly mode-indexed (`op[i](...)`).
fn is_operation_name(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Name(n) => is_operation(n),
        ExprKind::Index(inner, _) => is_operation_name(inner),
        _ => false,
    }
}

/// The coordinate of call arguments that are integer literals or tuples of
/// them (one argument is itself, several form a tuple), built directly;
/// `None` for no arguments and for anything else (`_`, names, arithmetic,
/// too large literals).
pub(super) fn literal_coordinate(args: &[Expr]) -> Option<crate::shape::Coord> {
    fn rec(e: &Expr, b: &mut Builder<Option<Scalar>>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match &e.kind {
            ExprKind::Int(v) => b.leaf(Some(Scalar::Int(i64::try_from(*v).ok()?))),
            ExprKind::Tuple(items) => {
                b.open();
                for x in items {
                    rec(x, b, depth + 1)?;
                }
                b.close();
            }
            _ => return None,
        }
        Some(())
    }
    let mut b = Builder::new();
    match args {
        [] => return None,
        [one] => rec(one, &mut b, 0)?,
        many => {
            b.open();
            for x in many {
                rec(x, &mut b, 1)?;
            }
            b.close();
        }
    }
    Some(b.finish())
}

/// Adds the parts of one operand of a call or tuple to `total`: together
/// the operands stay within [`MAX_VALUE_PARTS`] (`docs/limits.md`), so that
/// `(A, A, ..., A)` fails before it exhausts memory.
fn spend_operand(total: &mut usize, v: &Value, col: usize) -> Result<()> {
    *total = total.saturating_add(value_parts(v)?);
    if *total > MAX_VALUE_PARTS {
        return Err(Error::value(format!(
            "column {col}: the operands have more than {MAX_VALUE_PARTS} parts together"
        )));
    }
    Ok(())
}

/// True for the constants `None`, `_`, `True`, `False`.
pub(super) fn is_reserved(name: &str) -> bool {
    matches!(name, "None" | "_" | "True" | "False")
}

/// A `value` error when `name` cannot be bound: it names an operation or a
/// constant.
pub(super) fn check_assignable(name: &str) -> Result<()> {
    if is_operation(name) || is_reserved(name) {
        return Err(Error::value(format!(
            "cannot assign to '{name}': it names an operation or a constant"
        )));
    }
    Ok(())
}

/// The layout literal `S:D` (`docs/language.md`, "Layouts").
///
/// Errors: `type` for a non-shape `S`; `congruence` for a stride that does
/// not match `S`; `value` for a non-positive extent.
///
/// ```
/// use rcute::notation::{layout_literal, Value};
/// let s = Value::Int(4);
/// let d = Value::Tuple(vec![Value::Int(1), Value::Int(1)]); // one coordinate value
/// assert_eq!(layout_literal(&s, &d).unwrap().to_string(), "4:(1, 1)");
/// ```
pub fn layout_literal(s: &Value, d: &Value) -> Result<Value> {
    if s.has_sym() || d.has_sym() {
        return sym_layout_literal(s, d);
    }
    let shape = s.to_shape()?;
    let stride = d.to_layout_stride(&shape)?;
    Ok(Value::Layout(Layout::new(shape, stride)?))
}

/// The layout literal `S:D` with symbols in `S` or `D` (`docs/language.md`,
/// "Symbols"): a layout with symbols, or a plain layout when every leaf
/// turns out constant. Its strides are integers: a tuple where the shape
/// has a leaf (a coordinate stride) is a `type` error.
///
/// Errors: `type` for leaves that are not integers; `congruence` for a
/// stride that does not match `S`; `value` for an extent that the facts do
/// not prove positive.
fn sym_layout_literal(s: &Value, d: &Value) -> Result<Value> {
    let shape = s.to_sym_shape()?;
    let stride = d.stride_for(shape.as_ref(), |e, x| {
        x.as_sym().ok_or_else(|| {
            Error::type_(format!(
                "layout: the stride {x} of the extent {e}: a layout with symbols has \
                 integer strides (no coordinate or F2 strides)"
            ))
        })
    })?;
    Ok(Value::from_sym_layout(Layout::from_shape_stride(
        shape, stride,
    )?))
}

/// `-x` for integers, coordinate values and F2 values (an F2 value is its
/// own negative). Errors: `type` for non-scalars; `overflow` for `-(-2^63)`.
///
/// ```
/// use rcute::notation::{eval::negate, Value};
/// assert_eq!(negate(&Value::Int(3)).unwrap().to_string(), "-3");
/// assert!(negate(&Value::None).is_err());
/// ```
pub fn negate(v: &Value) -> Result<Value> {
    match v {
        Value::Int(x) => Ok(Value::Int(int::neg(*x)?)),
        Value::Sym(x) => Ok(Value::from_sym(x.neg()?)),
        Value::Scalar(s) => Ok(Value::from_scalar(s.neg()?)),
        v => Err(Error::type_(format!(
            "cannot negate the {} {v}",
            v.kind_name()
        ))),
    }
}

fn arith_operand(v: &Value, op: BinOp, other: &Value) -> Result<Scalar> {
    match v {
        Value::Int(_) | Value::Scalar(_) => v.to_scalar(op.symbol()),
        // a tuple added to a coordinate value is read as one (docs/language.md, "Strides")
        Value::Tuple(_) if matches!(other, Value::Scalar(Scalar::Coord(_))) => {
            v.to_coord_value(op.symbol())
        }
        v => Err(Error::type_(format!(
            "unsupported operand for '{}': the {} {v}",
            op.symbol(),
            v.kind_name()
        ))),
    }
}

/// A binary operator on two integers, one of them symbolic
/// (`docs/language.md`, "Symbols"): `+ - * // %` stay symbolic where the
/// facts do not resolve them; `/` is exact division, a `divisibility` error
/// where the facts do not prove it exact; `==` and `!=` answer what the
/// facts prove and are a `value` error when they prove neither (`N == 64`
/// without a fact deciding it); `@` is a `type` error.
fn sym_binary(op: BinOp, x: &SymInt, y: &SymInt) -> Result<Value> {
    let r = match op {
        BinOp::Add => x.add(y)?,
        BinOp::Sub => x.sub(y)?,
        BinOp::Mul => x.mul(y)?,
        BinOp::FloorDiv => x.floor_div(y)?,
        BinOp::Mod => x.modulo(y)?,
        BinOp::Eq | BinOp::Ne => {
            let Some(equal) = x.sub(y)?.proven_zero() else {
                return Err(Error::value(format!(
                    "{} {} {}: the facts assumed decide neither equality nor inequality",
                    x.operand(),
                    op.symbol(),
                    y.operand()
                )));
            };
            return Ok(Value::Bool(equal == (op == BinOp::Eq)));
        }
        BinOp::Div => {
            // exact division: where the facts prove it exact
            let Some(q) = x.exact_div(y)? else {
                // a fact to suggest only when it would help: x one symbol
                // whose known divisor does not already make it divisible
                let hint = match (x.as_symbol(), y.as_const()) {
                    (Some(n), Some(d)) if d > 0 => format!("e.g. `assume {n} % {d} == 0`, "),
                    _ => String::new(),
                };
                return Err(Error::divisibility(format!(
                    "{} / {}: the facts assumed do not prove that {} divides {} (state a \
                     fact with `assume`, {hint}or use '//' for the floor division)",
                    x.operand(),
                    y.operand(),
                    y.operand(),
                    x.operand()
                )));
            };
            q
        }
        BinOp::At => {
            return Err(Error::type_(format!(
                "{x} @ {y}: a basis stride needs a concrete integer value and index"
            )))
        }
    };
    Ok(Value::from_sym(r))
}

/// A binary operator applied to two values.
///
/// ```
/// use rcute::notation::{binary, parser::BinOp, Value};
/// let v = binary(BinOp::FloorDiv, &Value::Int(-7), &Value::Int(2)).unwrap();
/// assert_eq!(v.to_string(), "-4");
/// ```
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        let (x, y) = (*x, *y);
        return match op {
            BinOp::Eq => Ok(Value::Bool(x == y)),
            BinOp::Ne => Ok(Value::Bool(x != y)),
            BinOp::Add => Ok(Value::Int(int::add(x, y)?)),
            BinOp::Sub => Ok(Value::Int(int::sub(x, y)?)),
            BinOp::Mul => Ok(Value::Int(int::mul(x, y)?)),
            BinOp::FloorDiv => Ok(Value::Int(int::floor_div(x, y)?)),
            BinOp::Mod => Ok(Value::Int(int::floor_mod(x, y)?)),
            BinOp::Div => Value::fraction(x, y),
            BinOp::At => Ok(Value::from_scalar(Scalar::Int(x).at(y)?)),
        };
    }
    if matches!(a, Value::Sym(_)) || matches!(b, Value::Sym(_)) {
        if let (Some(x), Some(y)) = (a.as_sym(), b.as_sym()) {
            return sym_binary(op, &x, &y);
        }
    }
    match op {
        BinOp::Eq => Ok(Value::Bool(values_equal(a, b))),
        BinOp::Ne => Ok(Value::Bool(!values_equal(a, b))),
        BinOp::At => {
            let i = b.to_int("@: the basis index")?;
            let x = a.to_scalar("@")?;
            Ok(Value::from_scalar(x.at(i)?))
        }
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            let x = arith_operand(a, op, b)?;
            let y = arith_operand(b, op, a)?;
            let r = match op {
                BinOp::Add => x.add(&y),
                BinOp::Sub => x.sub(&y),
                _ => x.mul(&y),
            };
            Ok(Value::from_scalar(r.map_err(|e| {
                Error::new(
                    e.kind(),
                    format!("{e_msg} ({a} {} {b})", op.symbol(), e_msg = e.message()),
                )
            })?))
        }
        BinOp::FloorDiv | BinOp::Mod | BinOp::Div => Err(Error::type_(format!(
            "'{}' needs two integers, got the {} {a} and the {} {b}",
            op.symbol(),
            a.kind_name(),
            b.kind_name()
        ))),
    }
}
