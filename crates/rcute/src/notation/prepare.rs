//! Prepared statements: a parsed statement made ready for repeated
//! evaluation.
//!
//! [`Prepared::new`] does, once, the work that does not depend on the
//! session's variables:
//!
//! * **literals become values**: an integer, F2 or basis literal, `None`,
//!   `True`, `False`, and tuples and layout literals `S:D` made only of
//!   them are evaluated once and kept as values (with their size, checked
//!   once); evaluating the statement copies them;
//! * **operation names are resolved**: a call `op(...)` of an operation of
//!   the notation keeps the operation's table entry instead of its name;
//! * **all-literal calls are marked**: a call whose positional and
//!   keyword arguments are all literals, with their parts together within
//!   the bound, reads them in place (no variable to read, no parts to
//!   count);
//! * **literal coordinates are built**: `L(c)` with a literal layout `L`
//!   and a coordinate of integer literals keeps the layout and the
//!   coordinate, so evaluating it is one layout evaluation.
//!
//! Anything else (names of variables, arithmetic, mode-indexed calls,
//! slicing, ...) is kept as an expression and evaluated by
//! [`Session::eval`]. A literal whose evaluation fails is kept as an
//! expression too, so the error is raised when the statement is evaluated,
//! as before. Evaluating a prepared statement therefore gives exactly the
//! value or the error of [`Session::exec`] on the parsed statement:
//! [`Session::eval_line`] (and so `rcute eval` and the conformance vectors)
//! goes through this path, and `rcute bench` times
//! [`Session::eval_prepared`]. Preparing costs time linear in the length of
//! the statement (a basis literal `v@i` is prepared only for `i <= 64`).
//!
//! ```
//! use rcute::notation::{parser::parse_statement, prepare::Prepared, Session};
//! let stmt = parse_statement("composition((6,2):(8,2), (4,3):(3,1))").unwrap().unwrap();
//! let p = Prepared::new(&stmt);
//! let mut s = Session::new();
//! assert_eq!(s.run(&p).unwrap().to_string(), "((2, 2), 3):((24, 2), 8)");
//! // the same prepared statement evaluates again, with the same result
//! assert_eq!(s.run(&p).unwrap().to_string(), "((2, 2), 3):((24, 2), 8)");
//! ```

use super::eval::{check_assignable, is_reserved, literal_coordinate, Session};
use super::imp::{Arg, ArgList, Converted, KwList};
use super::ops;
use super::parser::{parse_statement, Assumption, BinOp, Expr, ExprKind, Statement};
use super::table::{lookup, Operation};
use super::value::{check_size, value_parts, Value, MAX_VALUE_PARTS};
use crate::error::{Error, Result};
use crate::htuple::MAX_DEPTH;
use crate::layout::Layout;
use crate::shape::Coord;
use crate::stride::Scalar;
use smallvec::SmallVec;

/// A statement prepared for repeated evaluation (see the module
/// documentation). Built by [`Prepared::new`] (never fails: what cannot be
/// prepared is kept as an expression), evaluated by [`Session::run`].
#[derive(Clone)]
pub struct Prepared {
    assign: Option<String>,
    node: Node,
    /// an `assume` statement: it changes the session, so only
    /// [`Session::run`] runs it
    assume: Option<(Vec<String>, Assumption)>,
}

fn assume_needs_run() -> Error {
    Error::value(
        "an `assume` statement changes the session: run it (Session::run), not evaluate it",
    )
}

#[derive(Clone)]
#[allow(clippy::large_enum_variant)] // literals are the common node; kept inline
enum Node {
    /// A literal's value and its number of parts (`value_parts`), both
    /// computed once; its size check passed.
    Const {
        value: Value,
        parts: usize,
        converted: Converted,
    },
    /// A call of the operation `op` (no mode subscripts).
    Call {
        op: &'static Operation,
        args: Vec<CallArg>,
        kwargs: Vec<(String, Node)>,
        /// every argument is a literal (`Node::Const`) and their parts
        /// together are within the bound: decided once, so evaluating the
        /// call does not count them
        consts: bool,
    },
    /// `L(c)`: a literal layout at a coordinate of integer literals.
    LayoutAt { layout: Layout, coord: Coord },
    /// Anything else, evaluated by [`Session::eval`].
    Expr(Expr),
}

#[derive(Clone)]
struct CallArg {
    node: Node,
    col: usize,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prepared")
            .field("assign", &self.assign)
            .finish_non_exhaustive()
    }
}

impl Prepared {
    /// Prepares a parsed statement. Never fails; errors (of literals too)
    /// are raised by [`Session::run`].
    pub fn new(stmt: &Statement) -> Prepared {
        match stmt {
            Statement::Expr(e) => Prepared {
                assign: None,
                node: prepare(e),
                assume: None,
            },
            Statement::Assign(name, e) => Prepared {
                assign: Some(name.clone()),
                node: prepare(e),
                assume: None,
            },
            Statement::Assume(names, fact) => Prepared {
                assign: None,
                node: Node::Expr(Expr {
                    kind: ExprKind::Tuple(Vec::new()),
                    col: 1,
                    depth: 1,
                }),
                assume: Some((names.clone(), *fact)),
            },
        }
    }

    /// The variable an assignment binds, if the statement is one.
    ///
    /// ```
    /// use rcute::notation::{parser::parse_statement, prepare::Prepared};
    /// let p = Prepared::new(&parse_statement("A = 4:2").unwrap().unwrap());
    /// assert_eq!(p.assigns(), Some("A"));
    /// let q = Prepared::new(&parse_statement("size(4:2)").unwrap().unwrap());
    /// assert_eq!(q.assigns(), None);
    /// ```
    pub fn assigns(&self) -> Option<&str> {
        self.assign.as_deref()
    }
}

/// The largest basis index `i` of a literal `v@i` that is prepared.
const MAX_PREPARED_BASIS_INDEX: i128 = 64;

/// True for literals: integers, F2 values, `None`/`_`/`True`/`False`,
/// negated integers, basis literals `v@i`, and tuples and layouts of
/// literals. They cannot depend on variables (those names cannot be
/// assigned).
fn is_literal(e: &Expr, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match &e.kind {
        ExprKind::Int(_) | ExprKind::F2(_) => true,
        ExprKind::Name(n) => is_reserved(n),
        ExprKind::Neg(x) => matches!(x.kind, ExprKind::Int(_)),
        // `v@i` builds i + 1 children: only small indices (mode indices)
        // are prepared, so preparing costs no more than the statement's
        // length; a larger one is evaluated (and refused) when it is reached
        ExprKind::Binary(BinOp::At, a, b) => {
            is_literal(a, depth + 1)
                && matches!(b.kind, ExprKind::Int(i) if (0..=MAX_PREPARED_BASIS_INDEX).contains(&i))
        }
        ExprKind::Tuple(items) => items.iter().all(|x| is_literal(x, depth + 1)),
        ExprKind::Layout(s, d) => is_literal(s, depth + 1) && is_literal(d, depth + 1),
        _ => false,
    }
}

fn prepare(e: &Expr) -> Node {
    prepare_at(e, 0)
}

fn prepare_at(e: &Expr, depth: usize) -> Node {
    if depth > MAX_DEPTH {
        return Node::Expr(e.clone());
    }
    if is_literal(e, 0) {
        // a literal does not read variables: a fresh session gives its
        // value (the same `eval`, with the same size check)
        if let Ok(value) = Session::new().eval(e) {
            if let Ok(parts) = value_parts(&value) {
                let converted = Converted::of(&value);
                return Node::Const {
                    value,
                    parts,
                    converted,
                };
            }
        }
        return Node::Expr(e.clone());
    }
    if let ExprKind::Call {
        callee,
        args,
        kwargs,
    } = &e.kind
    {
        if let ExprKind::Name(n) = &callee.kind {
            if let Some(op) = lookup(n) {
                let args: Vec<CallArg> = args
                    .iter()
                    .map(|x| CallArg {
                        node: prepare_at(x, depth + 1),
                        col: x.col,
                    })
                    .collect();
                let kwargs: Vec<(String, Node)> = kwargs
                    .iter()
                    .map(|(k, x)| (k.clone(), prepare_at(x, depth + 1)))
                    .collect();
                let mut parts: Option<usize> = Some(0);
                for a in &args {
                    parts = match (&a.node, parts) {
                        (Node::Const { parts: n, .. }, Some(p)) => Some(p.saturating_add(*n)),
                        _ => None,
                    };
                }
                let consts = parts.is_some_and(|p| p <= MAX_VALUE_PARTS)
                    && kwargs.iter().all(|(_, x)| matches!(x, Node::Const { .. }));
                return Node::Call {
                    op,
                    args,
                    kwargs,
                    consts,
                };
            }
        }
        if kwargs.is_empty() && is_literal(callee, 0) {
            if let (Ok(Value::Layout(layout)), Some(coord)) =
                (Session::new().eval(callee), literal_coordinate(args))
            {
                return Node::LayoutAt { layout, coord };
            }
        }
    }
    Node::Expr(e.clone())
}

/// `L(c)` of a prepared layout and coordinate, written into `out` (in
/// place: an integer value is not moved through a `Result`) and
/// size-checked.
#[inline]
fn layout_at_into(layout: &Layout, coord: &Coord, out: &mut Value) -> Result<()> {
    match layout.eval(coord.as_ref())? {
        // an integer is within the size bounds
        Scalar::Int(v) => {
            super::ops::set_int(out, v);
            Ok(())
        }
        v => {
            *out = Value::from_scalar(v);
            check_size(out)
        }
    }
}

impl Session {
    /// Evaluates one statement (a line of a script): parsed, prepared
    /// ([`Prepared::new`]) and run. `None` for a blank or comment-only
    /// line; otherwise the value (for an assignment, the bound value) or
    /// the error.
    ///
    /// ```
    /// let mut s = rcute::notation::Session::new();
    /// assert_eq!(s.eval_line("A = 4:2").unwrap().unwrap().to_string(), "4:2");
    /// assert!(s.eval_line("  # a comment").is_none());
    /// assert!(s.eval_line("A(").unwrap().is_err());
    /// ```
    pub fn eval_line(&mut self, line: &str) -> Option<Result<Value>> {
        match parse_statement(line) {
            Ok(None) => None,
            Err(e) => Some(Err(e)),
            Ok(Some(stmt)) => Some(self.run(&Prepared::new(&stmt))),
        }
    }

    /// Evaluates a prepared statement: for an assignment, binds the value
    /// and returns it. Same value or error as [`Session::exec`] on the
    /// statement it was prepared from.
    ///
    /// ```
    /// use rcute::notation::{parser::parse_statement, prepare::Prepared, Session};
    /// let mut s = Session::new();
    /// let p = Prepared::new(&parse_statement("A = (4,8):(8,1)").unwrap().unwrap());
    /// s.run(&p).unwrap();
    /// let q = Prepared::new(&parse_statement("A(2,3)").unwrap().unwrap());
    /// assert_eq!(s.run(&q).unwrap().to_string(), "19");
    /// ```
    pub fn run(&mut self, p: &Prepared) -> Result<Value> {
        if let Some((names, fact)) = &p.assume {
            return self.assume(names, *fact);
        }
        match &p.assign {
            None => self.eval_prepared(p),
            Some(name) => {
                // refused before the value is computed, as in `exec`
                check_assignable(name)?;
                let v = self.eval_prepared(p)?;
                self.set(name, v.clone())?;
                Ok(v)
            }
        }
    }

    /// The value of a prepared statement's expression, without binding an
    /// assignment's variable (what `rcute bench` times). Errors: those of
    /// [`Session::eval`] on the statement's expression.
    ///
    /// ```
    /// use rcute::notation::{parser::parse_statement, prepare::Prepared, Session};
    /// let s = Session::new();
    /// let p = Prepared::new(&parse_statement("B = complement(4:2, extend=24)").unwrap().unwrap());
    /// assert_eq!(s.eval_prepared(&p).unwrap().to_string(), "(2, 3):(1, 8)");
    /// assert!(s.get("B").is_none()); // not bound
    /// let bad = Prepared::new(&parse_statement("composition((4,6,8):(2,3,5), 6:3)").unwrap().unwrap());
    /// assert!(s.eval_prepared(&bad).is_err());
    /// ```
    pub fn eval_prepared(&self, p: &Prepared) -> Result<Value> {
        if p.assume.is_some() {
            return Err(assume_needs_run());
        }
        self.eval_node(&p.node)
    }

    /// [`Session::eval_prepared`] writing the value into `out` instead of
    /// returning it: a layout result is built in place, in `out`'s layout
    /// storage when `out` already holds a layout (as it does when the same
    /// statement is evaluated again into the same slot), so the result is
    /// not moved. This is what `rcute bench` times. On an error `out` is
    /// `Value::None`. Errors: those of [`Session::eval_prepared`].
    ///
    /// ```
    /// use rcute::notation::{parser::parse_statement, prepare::Prepared, Session, Value};
    /// let s = Session::new();
    /// let p = Prepared::new(&parse_statement("coalesce((2,(1,6)):(1,(6,2)))").unwrap().unwrap());
    /// let mut out = Value::None;
    /// for _ in 0..3 {
    ///     s.eval_prepared_into(&p, &mut out).unwrap();
    ///     assert_eq!(out.to_string(), "12:1");
    /// }
    /// let bad = Prepared::new(&parse_statement("composition((4,6,8):(2,3,5), 6:3)").unwrap().unwrap());
    /// assert!(s.eval_prepared_into(&bad, &mut out).is_err());
    /// assert!(matches!(out, Value::None));
    /// ```
    pub fn eval_prepared_into(&self, p: &Prepared, out: &mut Value) -> Result<()> {
        let r = if p.assume.is_some() {
            Err(assume_needs_run())
        } else {
            self.eval_node_into(&p.node, out)
        };
        if r.is_err() {
            *out = Value::None;
        }
        r
    }

    fn eval_node_into(&self, n: &Node, out: &mut Value) -> Result<()> {
        match n {
            Node::Call {
                op,
                args,
                kwargs,
                consts,
            } => self.call_into(op, args, kwargs, *consts, out),
            Node::LayoutAt { layout, coord } => layout_at_into(layout, coord, out),
            _ => {
                *out = self.eval_node(n)?;
                Ok(())
            }
        }
    }

    fn eval_node(&self, n: &Node) -> Result<Value> {
        match n {
            Node::Const { value, .. } => Ok(value.clone()),
            Node::Expr(e) => self.eval(e),
            Node::LayoutAt { layout, coord } => {
                let mut v = Value::None;
                layout_at_into(layout, coord, &mut v)?;
                Ok(v)
            }
            Node::Call {
                op,
                args,
                kwargs,
                consts,
            } => {
                let mut v = Value::None;
                self.call_into(op, args, kwargs, *consts, &mut v)?;
                Ok(v)
            }
        }
    }

    /// The call of `op` on its prepared arguments, through the one
    /// dispatch ([`ops::call_args_into`]): literals (with their
    /// conversions) and variables are read in place, any other argument is
    /// evaluated first, in order; the operands' parts are counted against
    /// [`MAX_VALUE_PARTS`] as they come, unless `consts` (all literals,
    /// counted when the call was prepared).
    #[inline(always)]
    fn call_into(
        &self,
        op: &'static Operation,
        args: &[CallArg],
        kwargs: &[(String, Node)],
        consts: bool,
        out: &mut Value,
    ) -> Result<()> {
        if consts {
            // all literals: read in place, their parts counted when prepared
            let mut pos = ArgList::new();
            for a in args {
                pos.push(self.in_place(&a.node));
            }
            let mut kw = KwList::new();
            for (k, x) in kwargs {
                kw.push((k.as_str(), self.in_place(x)));
            }
            return ops::call_args_into(op, &[], &mut pos, &mut kw, out);
        }
        self.call_computed_into(op, args, kwargs, out)
    }

    /// [`Session::call_into`] of a call with arguments other than
    /// literals.
    #[inline(never)]
    fn call_computed_into(
        &self,
        op: &'static Operation,
        args: &[CallArg],
        kwargs: &[(String, Node)],
        out: &mut Value,
    ) -> Result<()> {
        // the values computed for the call, in the order of their arguments
        let mut made: SmallVec<[Value; 2]> = SmallVec::new();
        {
            let mut parts: usize = 0;
            for a in args {
                let n = match (&a.node, self.in_place(&a.node)) {
                    (Node::Const { parts, .. }, _) => *parts,
                    (_, Some(x)) => value_parts(x.value())?,
                    (_, None) => {
                        let y = self.eval_node(&a.node)?;
                        let n = value_parts(&y)?;
                        made.push(y);
                        n
                    }
                };
                parts = parts.saturating_add(n);
                if parts > MAX_VALUE_PARTS {
                    return Err(Error::value(format!(
                        "column {}: the operands have more than {MAX_VALUE_PARTS} parts together",
                        a.col
                    )));
                }
            }
            for (_, x) in kwargs {
                if self.in_place(x).is_none() {
                    made.push(self.eval_node(x)?);
                }
            }
        }
        let mut made = made.iter_mut();
        let mut pos = ArgList::new();
        for a in args {
            pos.push(
                self.in_place(&a.node)
                    .or_else(|| made.next().map(Arg::Owned)),
            );
        }
        let mut kw = KwList::new();
        for (k, x) in kwargs {
            kw.push((
                k.as_str(),
                self.in_place(x).or_else(|| made.next().map(Arg::Owned)),
            ));
        }
        ops::call_args_into(op, &[], &mut pos, &mut kw, out)
    }

    /// The argument `n` read in place: a literal (with its conversions)
    /// or a bound variable; `None` for anything else (evaluated for the
    /// call).
    #[inline(always)]
    fn in_place<'a>(&'a self, n: &'a Node) -> Option<Arg<'a>> {
        match n {
            Node::Const {
                value, converted, ..
            } => Some(Arg::Borrowed(value, Some(converted))),
            Node::Expr(Expr {
                kind: ExprKind::Name(name),
                ..
            }) if !is_reserved(name) => Some(Arg::Borrowed(self.get(name)?, None)),
            _ => None,
        }
    }
}
