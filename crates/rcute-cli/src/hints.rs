//! Hints for statements written the C++ CuTe or Python way.
//!
//! When a statement fails with a parse error, an unknown name, or
//! `make_layout` given tuples, [`hint`] looks for C++ CuTe
//! (`make_layout(make_shape(4,8), make_stride(1,4))`,
//! `Layout<Shape<_4,_8>>{}`, `cute::`) or Python / CuTe DSL habits
//! (`A.shape`, `[4,8]`, `cute.make_layout(S, stride=D)`, `import`) and
//! suggests the notation's form (`(4,8):(1,4)`). The CLI prints the hint
//! on standard error after the unchanged `error: KIND: message` line.
//!
//! The rewriting here is a heuristic for a hint only: it never changes what
//! is evaluated. It works on at most [`MAX_LEN`] bytes and [`MAX_DEPTH`]
//! levels of brackets and gives up (no suggestion) on anything it does not
//! recognise.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rcute::notation::parser::{parse_statement, Expr, ExprKind, Statement};
use rcute::notation::Session;
use rcute::{Error, ErrorKind};

/// The longest statement a rewrite is attempted for.
const MAX_LEN: usize = 4096;
/// The deepest bracket nesting a rewrite follows.
const MAX_DEPTH: usize = 32;

/// The general advice for C++-looking input that could not be rewritten.
const CPP_ADVICE: &str = "this looks like C++ CuTe: rcute's notation writes shapes and strides \
     as plain tuples and a layout as SHAPE:STRIDE, e.g. (4,8):(1,4) for \
     make_layout(make_shape(4,8), make_stride(1,4)), and LayoutRight((4,8)) for a row-major one";

/// A hint for the failed statement `input`, or `None`.
pub fn hint(input: &str, err: &Error) -> Option<String> {
    if input.len() <= MAX_LEN {
        if let Some(h) = colon_hint(input.trim(), err) {
            return Some(h);
        }
    }
    let relevant = match err.kind() {
        ErrorKind::Parse => true,
        ErrorKind::Value => err.message().starts_with("unknown name"),
        ErrorKind::Type => err
            .message()
            .starts_with("make_layout: expected a layout, got the"),
        _ => false,
    };
    let input = input.trim();
    if !relevant || input.is_empty() || input.len() > MAX_LEN {
        return None;
    }
    let first_word = input.split_whitespace().next().unwrap_or("");
    if first_word == "import" || (first_word == "from" && input.contains(" import ")) {
        return Some(
            "nothing to import: every operation is built in; write the expression itself, \
             e.g. Layout((4,8),(1,4)) or (4,8):(1,4)"
                .to_string(),
        );
    }
    if let Some(shown) = table_printer(input) {
        return Some(shown);
    }
    if let Some(s) = rewrite(input) {
        if squeeze(&s) != squeeze(input) && plausible(&s) {
            if err.kind() == ErrorKind::Type {
                return Some(format!(
                    "rcute's make_layout concatenates layouts; a layout from a shape and a \
                     stride is written SHAPE:STRIDE: {s}"
                ));
            }
            let what = if looks_cpp(input) {
                "this looks like C++ CuTe; in rcute's notation: "
            } else if looks_python(input) {
                "this looks like Python; in rcute's notation: "
            } else {
                "in rcute's notation: "
            };
            return Some(format!("{what}{s}"));
        }
    }
    if looks_cpp(input) {
        return Some(CPP_ADVICE.to_string());
    }
    if input.contains(';') {
        return Some("one statement per line, without `;`".to_string());
    }
    None
}

/// Hints for the loose binding of `:` (it binds more loosely than `==` and
/// calls) and for a stride tuple standing where the shape has a leaf.
fn colon_hint(input: &str, err: &Error) -> Option<String> {
    if err.message().starts_with("unknown name") {
        return None;
    }
    // `NAME = expr`: look at the expression, keep the assignment
    let (target, expr) = match split_assignment(input) {
        Some((name, e)) => (format!("{name} = "), e),
        None => (String::new(), input),
    };
    let expr = expr.trim();
    // `(4,8):(1,4) == L`: compare parenthesised layouts
    if let Some((at, op)) = top_level(expr, &["==", "!="]) {
        let (lhs, rhs) = (expr[..at].trim(), expr[at + op.len()..].trim());
        let wrap = |side: &str| {
            if top_level(side, &[":"]).is_some() {
                format!("({side})")
            } else {
                side.to_string()
            }
        };
        if top_level(lhs, &[":"]).is_some() || top_level(rhs, &[":"]).is_some() {
            let fixed = format!("{target}{} {op} {}", wrap(lhs), wrap(rhs));
            if plausible(&fixed) {
                return Some(format!(
                    "`:` binds more loosely than `{op}`: parenthesise the layouts to compare them: {fixed}"
                ));
            }
        }
    }
    // `(4,8):(1,4)(2,3)`: the call applies to the stride tuple
    if err.kind() == ErrorKind::Type && err.message().ends_with("cannot be called") {
        if let Some((at, _)) = top_level(expr, &[":"]) {
            let (lhs, rhs) = (expr[..at].trim(), expr[at + 1..].trim_start());
            let group = balanced_prefix(rhs)?;
            let rest = rhs[group..].trim_start();
            if let Some(args) = rest.strip_prefix('(') {
                let fixed = format!("{target}({lhs}:{})({args}", &rhs[..group]);
                if plausible(&fixed) {
                    return Some(format!(
                        "`:` binds more loosely than a call, so this calls the stride {}; \
                         to evaluate the layout, parenthesise it: {fixed}",
                        &rhs[..group]
                    ));
                }
            }
        }
    }
    // `(4,8):(1,(2,3))`: a stride tuple at a leaf of the shape is one
    // coordinate value; say so when the layout then fails
    if matches!(
        err.kind(),
        ErrorKind::Type | ErrorKind::Congruence | ErrorKind::Rank
    ) {
        if let Ok(Some(stmt)) = parse_statement(input) {
            let e = match &stmt {
                Statement::Assign(_, e) | Statement::Expr(e) => e,
                Statement::Assume(..) => return None,
            };
            if let Some((leaf, d)) = find_tuple_at_leaf(e, 0) {
                return Some(format!(
                    "in a layout literal, the stride tuple {d} stands where the shape has the \
                     leaf {leaf}, so it is read as one coordinate value ({d} = {}), not as \
                     the strides of sub-modes; to split that mode, nest the shape as well",
                    coordinate_sum(&d)
                ));
            }
        }
    }
    None
}

/// `NAME = rest` (a single `=`), as `(NAME, rest)`.
fn split_assignment(s: &str) -> Option<(&str, &str)> {
    let at = s.find('=')?;
    let (name, rest) = (s[..at].trim(), &s[at + 1..]);
    let ident = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    (ident && !rest.starts_with('=')).then_some((name, rest))
}

/// The first of `ops` outside every bracket, with its byte position.
fn top_level<'o>(s: &str, ops: &[&'o str]) -> Option<(usize, &'o str)> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => {
                if let Some(op) = ops.iter().find(|op| s[i..].starts_with(**op)) {
                    return Some((i, op));
                }
            }
            _ => {}
        }
    }
    None
}

/// The length of the bracketed group `(...)` that `s` starts with.
fn balanced_prefix(s: &str) -> Option<usize> {
    if !s.starts_with('(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A layout literal in `e` whose stride has a tuple where its shape has an
/// integer leaf: that leaf and the stride tuple, as written in the notation.
fn find_tuple_at_leaf(e: &Expr, depth: usize) -> Option<(String, String)> {
    if depth > MAX_DEPTH {
        return None;
    }
    fn walk(s: &Expr, d: &Expr, depth: usize) -> Option<(String, String)> {
        if depth > MAX_DEPTH {
            return None;
        }
        match (&s.kind, &d.kind) {
            (ExprKind::Int(v), ExprKind::Tuple(_)) => Some((v.to_string(), literal(d)?)),
            (ExprKind::Tuple(ss), ExprKind::Tuple(ds)) if ss.len() == ds.len() => {
                ss.iter().zip(ds).find_map(|(a, b)| walk(a, b, depth + 1))
            }
            _ => None,
        }
    }
    match &e.kind {
        ExprKind::Layout(s, d) => walk(s, d, 0),
        ExprKind::Neg(x) => find_tuple_at_leaf(x, depth + 1),
        ExprKind::Binary(_, a, b) => {
            find_tuple_at_leaf(a, depth + 1).or_else(|| find_tuple_at_leaf(b, depth + 1))
        }
        ExprKind::Tuple(xs) | ExprKind::Index(_, xs) => {
            xs.iter().find_map(|x| find_tuple_at_leaf(x, depth + 1))
        }
        ExprKind::Call {
            callee,
            args,
            kwargs,
        } => find_tuple_at_leaf(callee, depth + 1)
            .or_else(|| args.iter().find_map(|x| find_tuple_at_leaf(x, depth + 1)))
            .or_else(|| {
                kwargs
                    .iter()
                    .find_map(|(_, x)| find_tuple_at_leaf(x, depth + 1))
            }),
        _ => None,
    }
}

/// A tuple of integer literals as written, `(2,3)`; `None` for anything
/// else.
fn literal(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Int(v) => Some(v.to_string()),
        ExprKind::Neg(x) => match &x.kind {
            ExprKind::Int(v) => Some(format!("-{v}")),
            _ => None,
        },
        ExprKind::Tuple(xs) => {
            let parts: Option<Vec<String>> = xs.iter().map(literal).collect();
            Some(format!("({})", parts?.join(",")))
        }
        _ => None,
    }
}

/// `(2,3)` as `2*E(0)+3*E(1)`; nested tuples are left as they are.
fn coordinate_sum(d: &str) -> String {
    let inner = d.strip_prefix('(').and_then(|x| x.strip_suffix(')'));
    match inner {
        Some(x) if !x.contains('(') => x
            .split(',')
            .enumerate()
            .map(|(i, v)| format!("{}*E({i})", v.trim()))
            .collect::<Vec<_>>()
            .join("+"),
        _ => d.to_string(),
    }
}

/// `print_layout(X)` and friends: tables are `rcute show`'s.
fn table_printer(input: &str) -> Option<String> {
    let s = input.trim_end_matches(';').trim();
    let s = s
        .strip_prefix("cute::")
        .or_else(|| s.strip_prefix("cute."))
        .unwrap_or(s);
    for name in ["print_layout", "print_tensor", "print_table", "print_latex"] {
        if let Some(arg) = s
            .strip_prefix(name)
            .and_then(|r| r.trim_start().strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
        {
            let arg = rewrite(arg)
                .filter(|a| plausible(a))
                .unwrap_or_else(|| arg.trim().to_string());
            return Some(format!(
                "tables are printed by `rcute show '{arg}'` (and drawn by `rcute draw`); \
                 `rcute eval '{arg}'` prints the value"
            ));
        }
    }
    None
}

/// `s` without whitespace.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// True when the rewritten statement parses and, evaluated on its own,
/// succeeds or fails only for a name bound earlier in the session.
fn plausible(s: &str) -> bool {
    if !matches!(parse_statement(s), Ok(Some(_))) {
        return false;
    }
    let r = catch_unwind(AssertUnwindSafe(|| Session::new().eval_line(s)));
    match r {
        Ok(Some(Ok(_))) => true,
        Ok(Some(Err(e))) => e.kind() == ErrorKind::Value && e.message().starts_with("unknown name"),
        _ => false,
    }
}

fn looks_cpp(s: &str) -> bool {
    s.contains("::")
        || s.contains("{}")
        || s.trim_end().ends_with(';')
        || [
            "make_shape",
            "make_stride",
            "make_coord",
            "Shape<",
            "Stride<",
            "Int<",
            "Layout<",
        ]
        .iter()
        .any(|k| s.contains(k))
        || tokens(s).is_some_and(|t| {
            t.iter()
                .any(|t| matches!(t, Tok::Name(n) if underscore_int(n).is_some()))
        })
}

fn looks_python(s: &str) -> bool {
    s.contains('[') || s.contains('.') || s.contains("stride=")
}

/// `_4` -> `4`.
fn underscore_int(n: &str) -> Option<&str> {
    let d = n.strip_prefix('_')?;
    (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())).then_some(d)
}

// ---------------------------------------------------------------------------
// A small reader of C++ / Python-style expressions

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    Num(String),
    Punct(char),
}

/// The tokens of `s`; `None` for a character outside the expected set.
/// Namespace prefixes (`cute::`, `cute.`, `pycute.`, `cutlass::`, `std::`)
/// and C++ declaration words (`auto`, `const`, `constexpr`) are dropped.
fn tokens(s: &str) -> Option<Vec<Tok>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let st = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let name = s.get(st..i)?;
            let ns = ["cute", "pycute", "cutlass", "std", "rcute"].contains(&name);
            if ns && s.get(i..).is_some_and(|r| r.starts_with("::")) {
                i += 2;
            } else if ns && s.get(i..).is_some_and(|r| r.starts_with('.')) {
                i += 1;
            } else if !["auto", "const", "constexpr"].contains(&name) {
                out.push(Tok::Name(name.to_string()));
            }
        } else if c.is_ascii_digit() {
            let st = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            out.push(Tok::Num(s.get(st..i)?.to_string()));
        } else if b"()<>{}[],=:;.-@".contains(&c) {
            out.push(Tok::Punct(c as char));
            i += 1;
        } else {
            return None;
        }
    }
    Some(out)
}

/// An expression read from C++ / Python-style text.
#[derive(Clone, Debug)]
enum Node {
    /// An integer (possibly negative) or a basis element such as `1@0`.
    Num(String),
    /// A name (a variable, `_`, `None`, `LayoutRight` ...).
    Name(String),
    /// A tuple (`make_shape(4,8)`, `Shape<_4,_8>{}`, `[4,8]`).
    Tuple(Vec<Node>),
    /// A layout `shape:stride`.
    Layout(Box<Node>, Box<Node>),
    /// A call `name(args)`, keyword arguments as `Some(key)`.
    Call(String, Vec<(Option<String>, Node)>),
}

struct Reader {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl Reader {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k)
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `[NAME =] expr [;]`, the whole input.
    fn statement(&mut self) -> Option<(Option<String>, Node)> {
        let mut target = None;
        if let (Some(Tok::Name(n)), Some(Tok::Punct('='))) = (self.peek(), self.peek_at(1)) {
            target = Some(n.clone());
            self.pos += 2;
        }
        let e = self.expr()?;
        self.eat(';');
        (self.pos == self.toks.len()).then_some((target, e))
    }

    /// `primary [: primary]`
    fn expr(&mut self) -> Option<Node> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let a = self.primary()?;
        let r = if self.eat(':') {
            let d = self.primary()?;
            Node::Layout(Box::new(a), Box::new(d))
        } else {
            a
        };
        self.depth -= 1;
        Some(r)
    }

    /// `items` up to the closing `close` (after the opening bracket).
    fn list(&mut self, close: char) -> Option<Vec<(Option<String>, Node)>> {
        let mut items = Vec::new();
        if self.eat(close) {
            return Some(items);
        }
        loop {
            let mut key = None;
            if let (Some(Tok::Name(n)), Some(Tok::Punct('='))) = (self.peek(), self.peek_at(1)) {
                key = Some(n.clone());
                self.pos += 2;
            }
            items.push((key, self.expr()?));
            if self.eat(close) {
                return Some(items);
            }
            if !self.eat(',') {
                return None;
            }
            if self.eat(close) {
                // a trailing comma
                return Some(items);
            }
        }
    }

    fn positional(items: Vec<(Option<String>, Node)>) -> Option<Vec<Node>> {
        items
            .into_iter()
            .map(|(k, n)| k.is_none().then_some(n))
            .collect()
    }

    fn primary(&mut self) -> Option<Node> {
        let mut node = match self.peek()?.clone() {
            Tok::Num(n) => {
                self.pos += 1;
                self.number(n)
            }
            Tok::Punct('-') => {
                self.pos += 1;
                match self.peek()?.clone() {
                    Tok::Num(n) => {
                        self.pos += 1;
                        self.number(format!("-{n}"))
                    }
                    _ => return None,
                }
            }
            Tok::Punct(open @ ('(' | '[')) => {
                self.pos += 1;
                let close = if open == '(' { ')' } else { ']' };
                let items = Self::positional(self.list(close)?)?;
                let trailing_comma =
                    self.pos >= 2 && self.toks.get(self.pos - 2) == Some(&Tok::Punct(','));
                if open == '(' && items.len() == 1 && !trailing_comma {
                    // brackets around one expression, not a 1-tuple
                    items.into_iter().next()?
                } else {
                    Node::Tuple(items)
                }
            }
            Tok::Name(name) => {
                self.pos += 1;
                let targs = if self.eat('<') {
                    Some(Self::positional(self.list('>')?)?)
                } else {
                    None
                };
                let args = if self.eat('(') {
                    Some(self.list(')')?)
                } else if self.eat('{') {
                    Some(self.list('}')?)
                } else {
                    None
                };
                named(name, targs, args)?
            }
            Tok::Punct(_) => return None,
        };
        // Python attributes and methods: `A.shape`, `A.size()`
        while self.eat('.') {
            let Some(Tok::Name(attr)) = self.peek().cloned() else {
                return None;
            };
            self.pos += 1;
            let mut args = vec![(None, node)];
            if self.eat('(') {
                args.extend(self.list(')')?);
            }
            node = Node::Call(attr, args);
        }
        Some(node)
    }

    /// A number, or a basis element `N@M`.
    fn number(&mut self, n: String) -> Node {
        if self.peek() == Some(&Tok::Punct('@')) {
            if let Some(Tok::Num(m)) = self.peek_at(1).cloned() {
                self.pos += 2;
                return Node::Num(format!("{n}@{m}"));
            }
        }
        Node::Num(n)
    }
}

/// True for a node that is a shape or stride (a tuple or an integer).
fn tuple_like(n: &Node) -> bool {
    matches!(n, Node::Tuple(_) | Node::Num(_))
}

/// The node of `name<targs>(args)` (or `{args}`), rewriting CuTe's
/// constructors of integers, tuples and layouts.
fn named(
    name: String,
    targs: Option<Vec<Node>>,
    args: Option<Vec<(Option<String>, Node)>>,
) -> Option<Node> {
    let empty_args = args.as_ref().is_none_or(Vec::is_empty);
    if let Some(d) = underscore_int(&name) {
        return empty_args.then(|| Node::Num(d.to_string()));
    }
    match (name.as_str(), targs) {
        ("Int" | "C" | "Constant", Some(t)) if empty_args && t.len() == 1 => t.into_iter().next(),
        ("Shape" | "Stride" | "Coord" | "Step" | "Tile" | "tuple", Some(t)) if empty_args => {
            Some(Node::Tuple(t))
        }
        ("Layout", Some(mut t)) if empty_args && (1..=2).contains(&t.len()) => {
            if t.len() == 2 {
                let d = t.pop()?;
                let s = t.pop()?;
                Some(Node::Layout(Box::new(s), Box::new(d)))
            } else {
                Some(Node::Call("LayoutLeft".into(), vec![(None, t.pop()?)]))
            }
        }
        (_, Some(_)) => None,
        (
            "make_shape" | "make_stride" | "make_coord" | "make_step" | "make_tuple" | "make_tile"
            | "Shape" | "Stride" | "Coord" | "Step",
            None,
        ) => Some(Node::Tuple(Reader::positional(args?)?)),
        ("make_layout", None) => Some(make_layout(args?)),
        ("print", None) => {
            let mut a = Reader::positional(args?)?;
            (a.len() == 1).then(|| a.pop()).flatten()
        }
        ("GenColMajor" | "LayoutLeft" | "GenRowMajor" | "LayoutRight", None)
            if args.as_ref().is_some_and(Vec::is_empty) =>
        {
            Some(Node::Name(name))
        }
        (_, None) => Some(match args {
            Some(a) => Node::Call(name, a),
            None => Node::Name(name),
        }),
    }
}

/// `make_layout(S, D)` -> `S:D`, `make_layout(S)` -> `LayoutLeft(S)`,
/// `make_layout(S, LayoutRight{})` -> `LayoutRight(S)`,
/// `make_layout(S, stride=D)` (CuTe DSL) -> `S:D`; anything else (the
/// notation's concatenation of layouts) stays.
fn make_layout(args: Vec<(Option<String>, Node)>) -> Node {
    match args.as_slice() {
        [(None, s)] if tuple_like(s) => {
            return Node::Call("LayoutLeft".into(), vec![(None, s.clone())]);
        }
        [(None, s), (k, d)]
            if tuple_like(s) && tuple_like(d) && k.as_deref().is_none_or(|k| k == "stride") =>
        {
            return Node::Layout(Box::new(s.clone()), Box::new(d.clone()));
        }
        [(None, s), (None, Node::Name(order))] if tuple_like(s) => {
            let f = match order.as_str() {
                "GenColMajor" | "LayoutLeft" => "LayoutLeft",
                _ => "LayoutRight",
            };
            return Node::Call(f.into(), vec![(None, s.clone())]);
        }
        _ => {}
    }
    Node::Call("make_layout".into(), args)
}

fn render(n: &Node, out: &mut String) {
    match n {
        Node::Num(s) | Node::Name(s) => out.push_str(s),
        Node::Tuple(items) => {
            out.push('(');
            for (i, x) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(x, out);
            }
            if items.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Node::Layout(s, d) => {
            render(s, out);
            out.push(':');
            render(d, out);
        }
        Node::Call(f, args) => {
            out.push_str(f);
            out.push('(');
            for (i, (k, x)) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if let Some(k) = k {
                    out.push_str(k);
                    out.push('=');
                }
                // a layout operand of a call in brackets: `f((4,8):(1,4))`
                // reads the same either way; plain is shorter
                render(x, out);
            }
            out.push(')');
        }
    }
}

/// The statement `input` rewritten into the notation, or `None` when it is
/// not recognised.
fn rewrite(input: &str) -> Option<String> {
    let toks = tokens(input)?;
    let (target, node) = Reader {
        toks,
        pos: 0,
        depth: 0,
    }
    .statement()?;
    let mut out = String::new();
    if let Some(t) = target {
        out.push_str(&t);
        out.push_str(" = ");
    }
    render(&node, &mut out);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Option<String> {
        rewrite(s)
    }

    #[test]
    fn rewrites_cpp() {
        let cases = [
            (
                "make_layout(make_shape(4,8), make_stride(1,4))",
                "(4,8):(1,4)",
            ),
            ("Layout<Shape<_4,_8>, Stride<_1,_4>>{}", "(4,8):(1,4)"),
            ("Layout<Shape<_4,_8>>{}", "LayoutLeft((4,8))"),
            ("cute::make_layout(cute::make_shape(4,8));", "LayoutLeft((4,8))"),
            (
                "make_layout(make_shape(Int<4>{}, Int<8>{}), LayoutRight{})",
                "LayoutRight((4,8))",
            ),
            ("auto L = make_layout(make_shape(_2, 3), make_stride(3, _1));", "L = (2,3):(3,1)"),
            (
                "composition(make_layout(make_shape(6,2), make_stride(8,2)), make_layout(make_shape(4,3), make_stride(3,1)))",
                "composition((6,2):(8,2), (4,3):(3,1))",
            ),
            ("make_layout((4,8),(1,4))", "(4,8):(1,4)"),
            ("make_layout(4:1, 8:4)", "make_layout(4:1, 8:4)"),
        ];
        for (src, want) in cases {
            assert_eq!(r(src).as_deref(), Some(want), "{src}");
        }
    }

    #[test]
    fn rewrites_python() {
        assert_eq!(r("A.shape").as_deref(), Some("shape(A)"));
        assert_eq!(
            r("Layout((3,),(1,))").as_deref(),
            Some("Layout((3,), (1,))")
        );
        assert_eq!(
            r("Layout((4,8),(1,4)).shape").as_deref(),
            Some("shape(Layout((4,8), (1,4)))")
        );
        assert_eq!(
            r("Layout([4,8],[1,4])").as_deref(),
            Some("Layout((4,8), (1,4))")
        );
        assert_eq!(
            r("cute.make_layout((4,8), stride=(1,4))").as_deref(),
            Some("(4,8):(1,4)")
        );
    }

    #[test]
    fn gives_up_quietly() {
        for s in [
            "",
            "(((",
            "a +",
            "x $ y",
            "f(",
            "make_layout(",
            "Layout<>",
            "1 2",
        ] {
            let _ = r(s);
        }
        let deep = "(".repeat(10_000) + &")".repeat(10_000);
        assert_eq!(r(&deep), None);
        let deep = "make_shape(".repeat(5_000);
        assert_eq!(r(&deep), None);
    }

    #[test]
    fn hints_for_errors() {
        let e = Error::value("unknown name 'make_shape'");
        let h = hint("make_layout(make_shape(4,8), make_stride(1,4))", &e).unwrap();
        assert!(h.ends_with("(4,8):(1,4)"), "{h}");
        let e = Error::parse("column 21: unexpected character '{'");
        let h = hint("Layout<Shape<_4,_8>>{}", &e).unwrap();
        assert!(h.ends_with("LayoutLeft((4,8))"), "{h}");
        // not for an error of the algebra, nor a plain typo
        assert_eq!(hint("foo(1)", &Error::value("unknown name 'foo'")), None);
        assert_eq!(hint("composition(1,2)", &Error::divisibility("no")), None);
    }
}
