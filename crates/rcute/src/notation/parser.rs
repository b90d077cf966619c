//! The grammar of the notation (`docs/language.md`, "Statements, variables and scripts").
//!
//! Precedence, loosest first: `:` (layout), `== !=`, `+ -`, `* / // %`,
//! unary `-`/`+`, `@` (left to right), postfix call `f(..)` / index `x[..]`.
//!
//! ```text
//! statement := NAME '=' expr | expr
//! expr      := cmp [':' cmp]
//! cmp       := sum (('==' | '!=') sum)*
//! sum       := term (('+' | '-') term)*
//! term      := unary (('*' | '/' | '//' | '%') unary)*
//! unary     := ('-' | '+') unary | at
//! at        := postfix ('@' postfix)*
//! postfix   := primary ('(' args ')' | '[' expr (',' expr)* ']')*
//! primary   := INT | F2 | NAME | '(' ')' | '(' expr ')' | '(' expr ',' ... ')'
//!            | '<' expr (',' expr)* '>'
//!            | '{' expr '}'                          (implicit accessor)
//!            | 'Array' '(' INT 'x' 'i64' ')' [('+' | '-') INT]   (array accessor)
//! args      := [arg (',' arg)* [',']]      arg := NAME '=' expr | expr
//! ```

use super::lexer::{parse_error, tokenize, Tok, Token};
use crate::error::{Error, Result};

/// The deepest nesting of bracketed sub-expressions and unary operators
/// accepted (each `(`, `[`, `<` or argument list opens one level).
pub const MAX_NESTING: usize = 100;

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (fraction)
    Div,
    /// `//` (floor division)
    FloorDiv,
    /// `%` (floor modulo)
    Mod,
    /// `@` (basis wrap)
    At,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl BinOp {
    /// The operator's text.
    ///
    /// ```
    /// assert_eq!(rcute::notation::parser::BinOp::FloorDiv.symbol(), "//");
    /// ```
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::At => "@",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
        }
    }
}

/// The deepest expression tree accepted (long operator chains count too).
pub const MAX_TREE_DEPTH: usize = 256;

/// The most keyword arguments one call accepts (no operation takes more
/// than two).
pub const MAX_KEYWORDS: usize = 16;

/// An expression with the column where it starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// the expression
    pub kind: ExprKind,
    /// 1-based column
    pub col: usize,
    /// height of the expression tree (1 for a literal)
    pub depth: usize,
}

impl Expr {
    /// Builds a node, computing its height; a tree deeper than
    /// [`MAX_TREE_DEPTH`] is a `parse` error.
    ///
    /// ```
    /// use rcute::notation::parser::{Expr, ExprKind};
    /// let one = Expr::new(ExprKind::Int(1), 1).unwrap();
    /// let neg = Expr::new(ExprKind::Neg(Box::new(one)), 1).unwrap();
    /// assert_eq!(neg.depth, 2);
    /// ```
    pub fn new(kind: ExprKind, col: usize) -> Result<Expr> {
        let sub = match &kind {
            ExprKind::Int(_) | ExprKind::F2(_) | ExprKind::Name(_) => 0,
            ExprKind::Tuple(v) => v.iter().map(|e| e.depth).max().unwrap_or(0),
            ExprKind::Neg(e) => e.depth,
            ExprKind::Binary(_, a, b) | ExprKind::Layout(a, b) => a.depth.max(b.depth),
            ExprKind::Call {
                callee,
                args,
                kwargs,
            } => args
                .iter()
                .chain(kwargs.iter().map(|(_, e)| e))
                .map(|e| e.depth)
                .max()
                .unwrap_or(0)
                .max(callee.depth),
            ExprKind::Index(t, v) => v.iter().map(|e| e.depth).max().unwrap_or(0).max(t.depth),
        };
        let depth = sub + 1;
        if depth > MAX_TREE_DEPTH {
            return Err(parse_error(
                col,
                format!("expression tree deeper than {MAX_TREE_DEPTH} levels"),
            ));
        }
        Ok(Expr { kind, col, depth })
    }
}

/// The kinds of expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal (the magnitude may be `2^63` before negation).
    Int(i128),
    /// An F2 literal `F9`.
    F2(i64),
    /// A name (variable, operation, `None`, `_`, `True`, `False`).
    Name(String),
    /// A tuple `(a, b)`, `(a,)`, `()`, `<a, b>`.
    Tuple(Vec<Expr>),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A layout literal `S:D`.
    Layout(Box<Expr>, Box<Expr>),
    /// A call `f(args, key=value)`.
    Call {
        /// what is called
        callee: Box<Expr>,
        /// positional arguments
        args: Vec<Expr>,
        /// keyword arguments
        kwargs: Vec<(String, Expr)>,
    },
    /// An index `x[i, j]`.
    Index(Box<Expr>, Vec<Expr>),
}

/// The operation a printed implicit accessor `{b}` reads as.
pub const IMPLICIT_ACCESSOR: &str = "ImplicitAccessor";
/// The operation a printed array accessor `Array(N x i64)+K` reads as.
pub const ARRAY_ACCESSOR: &str = "ArrayAccessor";

/// True for an accessor written as such (`{b}`, `Array(6 x i64)`,
/// `ImplicitAccessor(b)`, `ArrayAccessor(n, k)`): the left part of a printed
/// tensor `accessor o layout`.
fn is_accessor_literal(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { callee, .. }
        if matches!(&callee.kind, ExprKind::Name(n) if n == IMPLICIT_ACCESSOR || n == ARRAY_ACCESSOR))
}

/// A statement: an assignment, an expression or an assumption.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `NAME = expr`
    Assign(String, Expr),
    /// `expr`
    Expr(Expr),
    /// `assume N`, `assume M, N`, `assume N % 16 == 0`, `assume N >= 64`
    /// (`docs/language.md`, "Symbols"): the names and what is assumed of
    /// them.
    Assume(Vec<String>, Assumption),
}

/// What an `assume` statement states of its symbols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assumption {
    /// `assume N`: `N` is a positive-integer symbol.
    Symbol,
    /// `assume N % d == 0`: `d` divides `N`.
    Divisible(i64),
    /// `assume N >= b`: `N` is at least `b`.
    AtLeast(i64),
}

/// Parses the rest of an `assume` statement (after the keyword, at `p.pos`).
fn parse_assume(p: &mut Parser) -> Result<Statement> {
    let forms =
        "the forms are `assume N`, `assume M, N`, `assume N % 16 == 0` and `assume N >= 64`";
    let mut names = Vec::new();
    loop {
        let t = p.peek().clone();
        match t.tok {
            Tok::Ident(n) => names.push(n),
            other => {
                return Err(parse_error(
                    t.col,
                    format!(
                        "assume: expected a symbol name, found {}; {forms}",
                        other.describe()
                    ),
                ))
            }
        }
        p.pos += 1;
        if p.peek().tok == Tok::Comma {
            p.pos += 1;
            continue;
        }
        break;
    }
    let int = |p: &mut Parser| -> Result<i64> {
        let t = p.peek().clone();
        let neg = t.tok == Tok::Minus;
        if neg {
            p.pos += 1;
        }
        let t = p.peek().clone();
        match t.tok {
            Tok::Int(v) => {
                p.pos += 1;
                let v = if neg { -v } else { v };
                i64::try_from(v)
                    .map_err(|_| Error::overflow(format!("integer {v} does not fit in 64 bits")))
            }
            other => Err(parse_error(
                t.col,
                format!(
                    "assume: expected an integer, found {}; {forms}",
                    other.describe()
                ),
            )),
        }
    };
    let t = p.peek().clone();
    let fact = match t.tok {
        Tok::Eof => Assumption::Symbol,
        Tok::Percent if names.len() == 1 => {
            p.pos += 1;
            let d = int(p)?;
            let t = p.peek().clone();
            if t.tok != Tok::EqEq {
                return Err(parse_error(
                    t.col,
                    format!("assume: expected '== 0'; {forms}"),
                ));
            }
            p.pos += 1;
            let t = p.peek().clone();
            if int(p)? != 0 {
                return Err(parse_error(
                    t.col,
                    format!("assume: a divisibility fact reads `N % d == 0`; {forms}"),
                ));
            }
            Assumption::Divisible(d)
        }
        Tok::Gt if names.len() == 1 && *p.peek_at(1) == Tok::Assign => {
            p.pos += 2;
            Assumption::AtLeast(int(p)?)
        }
        other => {
            return Err(parse_error(
                t.col,
                format!("assume: unexpected {}; {forms}", other.describe()),
            ))
        }
    };
    Ok(Statement::Assume(names, fact))
}

/// Parses one statement; `Ok(None)` for a blank or comment-only line.
///
/// Errors: `parse`, naming the column; `overflow` for too large literals.
///
/// ```
/// use rcute::notation::parser::{parse_statement, Statement, ExprKind};
/// let s = parse_statement("A = (4,8):(8,1)").unwrap().unwrap();
/// assert!(matches!(s, Statement::Assign(ref n, _) if n == "A"));
/// assert!(parse_statement("  # nothing").unwrap().is_none());
/// let e = parse_statement("(4,8):(8,1))").unwrap_err();
/// assert!(e.message().contains("column 12"));
/// ```
pub fn parse_statement(src: &str) -> Result<Option<Statement>> {
    let toks = tokenize(src)?;
    if toks.len() == 1 {
        return Ok(None);
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let stmt = match (&p.toks[0].tok, p.toks.get(1).map(|t| &t.tok)) {
        // `assume NAME ...`: two names in a row are no expression, so no
        // statement that had a meaning before reads as an assumption
        (Tok::Ident(kw), Some(Tok::Ident(_) | Tok::Int(_))) if kw == "assume" => {
            p.pos = 1;
            parse_assume(&mut p)?
        }
        (Tok::Ident(name), Some(Tok::Assign)) => {
            let name = name.clone();
            p.pos = 2;
            Statement::Assign(name, p.expr()?)
        }
        _ => Statement::Expr(p.expr()?),
    };
    let t = p.peek();
    if t.tok != Tok::Eof {
        return Err(parse_error(
            t.col,
            format!(
                "unexpected {} after the end of the expression",
                t.tok.describe()
            ),
        ));
    }
    Ok(Some(stmt))
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        // the token list always ends with Eof, and pos never passes it
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn expect(&mut self, tok: Tok, context: &str) -> Result<Token> {
        let t = self.peek().clone();
        if t.tok == tok {
            self.bump();
            Ok(t)
        } else {
            Err(parse_error(
                t.col,
                format!(
                    "expected {} {context}, found {}",
                    tok.describe(),
                    t.tok.describe()
                ),
            ))
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let col = self.peek().col;
            return Err(parse_error(
                col,
                format!("expression nested deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn expr(&mut self) -> Result<Expr> {
        self.enter()?;
        let r = self.expr_inner();
        self.leave();
        r
    }

    fn expr_inner(&mut self) -> Result<Expr> {
        let first = self.layout_level()?;
        if !self.at_compose() {
            return Ok(first);
        }
        // `A o B` and `A o offset o B`: C++'s printed composed layout, read
        // as `composition(A, B)` / `composition(A, offset, B)`
        let col = first.col;
        if is_accessor_literal(&first) {
            // a printed tensor `{b} o L` / `Array(6 x i64)+3 o L`: `Tensor(acc, L)`
            self.bump();
            let layout = self.layout_level()?;
            if self.at_compose() {
                return Err(parse_error(
                    self.peek().col,
                    "a tensor `accessor o layout` has two parts".to_string(),
                ));
            }
            let callee = Expr::new(ExprKind::Name("Tensor".to_string()), col)?;
            return Expr::new(
                ExprKind::Call {
                    callee: Box::new(callee),
                    args: vec![first, layout],
                    kwargs: Vec::new(),
                },
                col,
            );
        }
        let mut args = vec![first];
        while self.at_compose() {
            let t = self.bump();
            if args.len() == 3 {
                return Err(parse_error(
                    t.col,
                    "a composed layout `A o offset o B` has at most three parts".to_string(),
                ));
            }
            args.push(self.layout_level()?);
        }
        let callee = Expr::new(ExprKind::Name("composition".to_string()), col)?;
        Expr::new(
            ExprKind::Call {
                callee: Box::new(callee),
                args,
                kwargs: Vec::new(),
            },
            col,
        )
    }

    /// True at the infix `o` of a composed layout (`Sw<3,3,3> o L`).
    fn at_compose(&self) -> bool {
        matches!(&self.peek().tok, Tok::Ident(n) if n == "o")
    }

    /// `S:D` or a comparison.
    fn layout_level(&mut self) -> Result<Expr> {
        let lhs = self.cmp()?;
        if self.peek().tok == Tok::Colon {
            self.bump();
            let rhs = self.cmp()?;
            let col = lhs.col;
            return Expr::new(ExprKind::Layout(Box::new(lhs), Box::new(rhs)), col);
        }
        Ok(lhs)
    }

    fn binary_level(
        &mut self,
        ops: &[(Tok, BinOp)],
        next: fn(&mut Parser) -> Result<Expr>,
    ) -> Result<Expr> {
        let mut lhs = next(self)?;
        loop {
            let t = self.peek().clone();
            let Some(&(_, op)) = ops.iter().find(|(k, _)| *k == t.tok) else {
                return Ok(lhs);
            };
            self.bump();
            let rhs = next(self)?;
            lhs = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), t.col)?;
        }
    }

    fn cmp(&mut self) -> Result<Expr> {
        self.binary_level(
            &[(Tok::EqEq, BinOp::Eq), (Tok::NotEq, BinOp::Ne)],
            Parser::sum,
        )
    }

    fn sum(&mut self) -> Result<Expr> {
        self.binary_level(
            &[(Tok::Plus, BinOp::Add), (Tok::Minus, BinOp::Sub)],
            Parser::term,
        )
    }

    fn term(&mut self) -> Result<Expr> {
        self.binary_level(
            &[
                (Tok::Star, BinOp::Mul),
                (Tok::Slash, BinOp::Div),
                (Tok::SlashSlash, BinOp::FloorDiv),
                (Tok::Percent, BinOp::Mod),
            ],
            Parser::unary,
        )
    }

    fn unary(&mut self) -> Result<Expr> {
        let t = self.peek().clone();
        match t.tok {
            Tok::Minus | Tok::Plus => {
                self.bump();
                self.enter()?;
                let inner = self.unary();
                self.leave();
                let inner = inner?;
                if t.tok == Tok::Plus {
                    return Ok(inner);
                }
                // fold a negative literal so that -2^63 can be written
                if let ExprKind::Int(v) = inner.kind {
                    return Expr::new(ExprKind::Int(-v), t.col);
                }
                Expr::new(ExprKind::Neg(Box::new(inner)), t.col)
            }
            _ => self.at(),
        }
    }

    fn at(&mut self) -> Result<Expr> {
        self.binary_level(&[(Tok::At, BinOp::At)], Parser::postfix)
    }

    fn postfix(&mut self) -> Result<Expr> {
        let mut e = self.primary()?;
        loop {
            let t = self.peek().clone();
            match t.tok {
                Tok::LParen => {
                    self.bump();
                    let (args, kwargs) = self.call_args()?;
                    let col = e.col;
                    e = Expr::new(
                        ExprKind::Call {
                            callee: Box::new(e),
                            args,
                            kwargs,
                        },
                        col,
                    )?;
                }
                Tok::LBracket => {
                    self.bump();
                    let idx = self.index_list()?;
                    let col = e.col;
                    e = Expr::new(ExprKind::Index(Box::new(e), idx), col)?;
                }
                _ => return Ok(e),
            }
        }
    }

    fn index_list(&mut self) -> Result<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.peek().tok == Tok::Comma {
            self.bump();
            if self.peek().tok == Tok::RBracket {
                break;
            }
            v.push(self.expr()?);
        }
        self.expect(Tok::RBracket, "to close the index")?;
        Ok(v)
    }

    #[allow(clippy::type_complexity)]
    fn call_args(&mut self) -> Result<(Vec<Expr>, Vec<(String, Expr)>)> {
        let mut args = Vec::new();
        let mut kwargs: Vec<(String, Expr)> = Vec::new();
        loop {
            if self.peek().tok == Tok::RParen {
                self.bump();
                return Ok((args, kwargs));
            }
            let t = self.peek().clone();
            if let (Tok::Ident(name), Tok::Assign) = (&t.tok, self.peek_at(1)) {
                let name = name.clone();
                if kwargs.len() >= MAX_KEYWORDS {
                    return Err(parse_error(
                        t.col,
                        format!("more than {MAX_KEYWORDS} keyword arguments"),
                    ));
                }
                if kwargs.iter().any(|(k, _)| *k == name) {
                    return Err(parse_error(
                        t.col,
                        format!("keyword argument '{name}' repeated"),
                    ));
                }
                self.bump();
                self.bump();
                kwargs.push((name, self.expr()?));
            } else {
                if !kwargs.is_empty() {
                    return Err(parse_error(
                        t.col,
                        "positional argument after a keyword argument",
                    ));
                }
                args.push(self.expr()?);
            }
            let t = self.peek().clone();
            match t.tok {
                Tok::Comma => {
                    self.bump();
                }
                Tok::RParen => {}
                _ => {
                    return Err(parse_error(
                        t.col,
                        format!(
                            "expected ',' or ')' in the argument list, found {}",
                            t.tok.describe()
                        ),
                    ))
                }
            }
        }
    }

    fn primary(&mut self) -> Result<Expr> {
        let t = self.bump();
        let col = t.col;
        let kind = match t.tok {
            Tok::Int(v) => ExprKind::Int(v),
            Tok::F2(v) => ExprKind::F2(v),
            Tok::Ident(name) if name == "Sw" && self.peek().tok == Tok::Lt => {
                // C++'s printed swizzle `Sw<B,M,S>` is `Swizzle(B, M, S)`
                self.bump();
                let args = self.cpp_tuple()?;
                let callee = Expr::new(ExprKind::Name("Swizzle".to_string()), col)?;
                ExprKind::Call {
                    callee: Box::new(callee),
                    args,
                    kwargs: Vec::new(),
                }
            }
            Tok::Ident(name)
                if name == "Array"
                    && self.peek().tok == Tok::LParen
                    && matches!(self.peek_at(2), Tok::Ident(x) if x == "x") =>
            {
                self.array_literal(col)?
            }
            Tok::Ident(name) => ExprKind::Name(name),
            Tok::LBrace => {
                // the printed implicit accessor `{b}`
                self.enter()?;
                let inner = self.expr();
                self.leave();
                let inner = inner?;
                self.expect(Tok::RBrace, "to close the accessor `{...}`")?;
                let callee = Expr::new(ExprKind::Name(IMPLICIT_ACCESSOR.to_string()), col)?;
                ExprKind::Call {
                    callee: Box::new(callee),
                    args: vec![inner],
                    kwargs: Vec::new(),
                }
            }
            Tok::LParen => return Expr::new(self.paren_body()?, col),
            Tok::Lt => ExprKind::Tuple(self.cpp_tuple()?),
            tok => {
                return Err(parse_error(
                    col,
                    format!("expected a value, found {}", tok.describe()),
                ))
            }
        };
        Expr::new(kind, col)
    }

    /// After `Array`: `(N x i64)` and an optional `+K` / `-K`, the printed
    /// array accessor, read as `ArrayAccessor(N, K)`.
    fn array_literal(&mut self, col: usize) -> Result<ExprKind> {
        self.bump(); // '('
        let n = self.bump();
        let Tok::Int(len) = n.tok else {
            return Err(parse_error(
                n.col,
                format!(
                    "expected the length in `Array(N x i64)`, found {}",
                    n.tok.describe()
                ),
            ));
        };
        self.bump(); // 'x'
        let t = self.bump();
        if !matches!(&t.tok, Tok::Ident(ty) if ty == "i64") {
            return Err(parse_error(
                t.col,
                format!(
                    "expected the element type i64 in `Array(N x i64)` (the notation's arrays \
                     hold i64), found {}",
                    t.tok.describe()
                ),
            ));
        }
        self.expect(Tok::RParen, "to close `Array(N x i64)`")?;
        let mut args = vec![Expr::new(ExprKind::Int(len), n.col)?];
        if matches!(self.peek().tok, Tok::Plus | Tok::Minus)
            && matches!(self.peek_at(1), Tok::Int(_))
        {
            let sign = self.bump();
            let k = self.bump();
            if let Tok::Int(v) = k.tok {
                let v = if sign.tok == Tok::Minus { -v } else { v };
                args.push(Expr::new(ExprKind::Int(v), k.col)?);
            }
        }
        let callee = Expr::new(ExprKind::Name(ARRAY_ACCESSOR.to_string()), col)?;
        Ok(ExprKind::Call {
            callee: Box::new(callee),
            args,
            kwargs: Vec::new(),
        })
    }

    /// After `(`: `()`, `(e)`, `(e,)`, `(e, f, ...)`.
    fn paren_body(&mut self) -> Result<ExprKind> {
        if self.peek().tok == Tok::RParen {
            self.bump();
            return Ok(ExprKind::Tuple(Vec::new()));
        }
        let first = self.expr()?;
        let t = self.peek().clone();
        match t.tok {
            Tok::RParen => {
                self.bump();
                Ok(first.kind)
            }
            Tok::Comma => {
                let mut items = vec![first];
                loop {
                    // here the current token is ','
                    self.bump();
                    if self.peek().tok == Tok::RParen {
                        self.bump();
                        return Ok(ExprKind::Tuple(items));
                    }
                    items.push(self.expr()?);
                    let t = self.peek().clone();
                    match t.tok {
                        Tok::Comma => {}
                        Tok::RParen => {
                            self.bump();
                            return Ok(ExprKind::Tuple(items));
                        }
                        _ => {
                            return Err(parse_error(
                                t.col,
                                format!(
                                    "expected ',' or ')' in the tuple, found {}",
                                    t.tok.describe()
                                ),
                            ))
                        }
                    }
                }
            }
            _ => Err(parse_error(
                t.col,
                format!("expected ',' or ')', found {}", t.tok.describe()),
            )),
        }
    }

    /// After `<`: `<e, f, ...>` (C++ tuple; `<e>` is a 1-tuple).
    fn cpp_tuple(&mut self) -> Result<Vec<Expr>> {
        let mut items = Vec::new();
        if self.peek().tok == Tok::Gt {
            self.bump();
            return Ok(items);
        }
        loop {
            items.push(self.expr()?);
            let t = self.peek().clone();
            match t.tok {
                Tok::Comma => {
                    self.bump();
                }
                Tok::Gt => {
                    self.bump();
                    return Ok(items);
                }
                _ => {
                    return Err(parse_error(
                        t.col,
                        format!(
                            "expected ',' or '>' in the C++ tuple, found {}",
                            t.tok.describe()
                        ),
                    ))
                }
            }
        }
    }
}
