//! Symbolic integers: polynomials with integer coefficients over named
//! positive-integer symbols (`N`, `M`, `K` known only at run time), with
//! optional facts per symbol — a divisor (`N % 16 == 0`) and a lower bound
//! (`N >= 64`) — that let more conditions be proven.
//!
//! This module is the arithmetic the layout algebra needs to accept
//! symbolic shape and stride leaves: `+`, `-`, `*`, floor division and
//! modulo that are exact where the facts prove them and otherwise stay
//! symbolic (`(N + 3)//4`, `N % 16`), proofs of divisibility and of order
//! (`N < N*N` for `N >= 2`), substitution of values, and one canonical
//! printed form (symbols in declaration order, terms by falling degree,
//! the constant last: `2*N*K + N + 1`; a division proven exact prints
//! `N/16`). Nothing is taken on faith: a question the facts cannot decide
//! answers "unknown" (`None`), never a guess.
//!
//! ```
//! use rcute::sym::{Facts, SymInt};
//! let mut f = Facts::new();
//! f.assume_divisible("N", 16).unwrap(); // declares N, records 16 | N
//! f.declare("K").unwrap();
//! let n = SymInt::symbol(&f, "N").unwrap();
//! let k = SymInt::symbol(&f, "K").unwrap();
//! let size = n.mul(&k).unwrap();
//! assert_eq!(size.to_string(), "N*K");
//! // 16 divides N: the tile count N/16 is exact
//! let tiles = n.floor_div(&SymInt::from(16)).unwrap();
//! assert_eq!(tiles.to_string(), "N/16");
//! // K has no such fact: ceil(K/8) stays symbolic
//! let k8 = k.ceil_div(8).unwrap();
//! assert_eq!(k8.to_string(), "(K + 7)//8");
//! // substituting admissible values gives the concrete answer
//! assert_eq!(k8.eval(&[("K", 20)]).unwrap(), 3);
//! assert!(n.lt(&n.mul(&n).unwrap()) == Some(true)); // N < N*N: N >= 16
//! ```

// The keys of a symbolic integer's term map hold symbols whose facts sit in
// a lock (shared with the table that declared them); their order, equality
// and hash read only the symbol's order and name, which never change.
#![allow(clippy::mutable_key_type)]

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, RwLock};

use crate::error::{Error, Result};
use crate::int;

/// The most terms a symbolic integer may have (a bound on the work of every
/// operation; beyond it the operation is an `overflow` error).
pub const MAX_TERMS: usize = 64;

/// The deepest nesting of unresolved floor divisions and modulos (a bound
/// on the recursion of every operation; beyond it the operation is an
/// `overflow` error).
pub const MAX_NESTING: usize = 32;

/// The highest degree a term may have (a bound on the work of every
/// operation; beyond it the operation is an `overflow` error).
pub const MAX_DEGREE: u32 = 64;

/// What is known of one symbol: it is a positive integer, a multiple of
/// `divisor` and at least `min` (`min` is always a positive multiple of
/// `divisor`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fact {
    /// A known divisor (1 when none is known).
    pub divisor: i64,
    /// A lower bound (at least 1, a multiple of `divisor`).
    pub min: i64,
}

impl Fact {
    /// Checks that `value` is admissible for the symbol `name` with these
    /// facts: at least the bound (so positive) and a multiple of the
    /// divisor. Errors: `value` naming the fact violated.
    ///
    /// ```
    /// use rcute::sym::Fact;
    /// let f = Fact { divisor: 16, min: 64 };
    /// assert!(f.check("N", 128).is_ok());
    /// assert!(f.check("N", 72).unwrap_err().message().contains("N % 16 == 0"));
    /// assert!(f.check("N", 48).unwrap_err().message().contains("at least 64"));
    /// ```
    pub fn check(&self, name: &str, value: i64) -> Result<()> {
        if value < self.min {
            return Err(Error::value(format!(
                "{name} = {value}: {name} must be at least {} (a positive integer{})",
                self.min,
                if self.min > 1 {
                    " with the facts assumed"
                } else {
                    ""
                }
            )));
        }
        if value % self.divisor != 0 {
            return Err(Error::value(format!(
                "{name} = {value}: the fact {name} % {} == 0 does not hold",
                self.divisor
            )));
        }
        Ok(())
    }
}

/// The declared symbols and their facts, in declaration order (the order
/// symbols print in).
///
/// The values that use a symbol share its facts with this table: what is
/// assumed later holds for the values made before too (the facts are
/// assumptions about the symbol itself, and only ever grow stronger).
/// Cloning the table shares the symbols as well.
///
/// ```
/// use rcute::sym::Facts;
/// let mut f = Facts::new();
/// f.assume_at_least("N", 100).unwrap();
/// f.assume_divisible("N", 16).unwrap();
/// assert_eq!(f.fact("N").unwrap().min, 112); // the next multiple of 16
/// assert!(f.assume_divisible("N", 0).is_err());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Facts {
    symbols: Vec<Arc<Symbol>>,
    index: BTreeMap<Arc<str>, u32>,
}

fn check_name(name: &str) -> Result<()> {
    let mut chars = name.chars();
    let ok = matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(Error::value(format!(
            "symbol {name:?}: a symbol's name is a letter or '_' followed by letters, digits or '_'"
        )))
    }
}

impl Facts {
    /// No symbols (a `const fn`: a `static` table can start empty).
    pub const fn new() -> Facts {
        Facts {
            symbols: Vec::new(),
            index: BTreeMap::new(),
        }
    }

    /// Declares `name` a positive-integer symbol (nothing happens if it is
    /// declared already). Errors: `value` for a name that is not an
    /// identifier; `overflow` beyond 2^32 symbols.
    pub fn declare(&mut self, name: &str) -> Result<()> {
        check_name(name)?;
        if !self.index.contains_key(name) {
            let n: Arc<str> = Arc::from(name);
            let ord = u32::try_from(self.symbols.len())
                .map_err(|_| Error::overflow("too many symbols"))?;
            self.symbols.push(Arc::new(Symbol {
                ord,
                name: n.clone(),
                fact: RwLock::new(Fact { divisor: 1, min: 1 }),
            }));
            self.index.insert(n, ord);
        }
        Ok(())
    }

    /// Declares `name` if new and records that `d` divides it (`assume N %
    /// d == 0`); the divisors known combine by their least common multiple.
    /// Errors: `value` for `d < 1`, `overflow` when the combined divisor or
    /// bound leaves 64 bits.
    pub fn assume_divisible(&mut self, name: &str, d: i64) -> Result<()> {
        if d < 1 {
            return Err(Error::value(format!(
                "assume {name} % {d} == 0: the divisor must be a positive integer"
            )));
        }
        self.declare(name)?;
        self.update(name, |f| {
            let div = int::lcm(f.divisor, d)?;
            let min = round_up(f.min, div)?;
            Ok(Fact { divisor: div, min })
        })
    }

    /// Declares `name` if new and records `name >= b` (`assume N >= b`).
    /// Errors: `overflow` when the bound rounded up to the known divisor
    /// leaves 64 bits.
    pub fn assume_at_least(&mut self, name: &str, b: i64) -> Result<()> {
        self.declare(name)?;
        self.update(name, |f| {
            let min = round_up(f.min.max(b), f.divisor)?;
            Ok(Fact {
                divisor: f.divisor,
                min,
            })
        })
    }

    /// Replaces the facts of `name` by `f(facts)` (both updated together,
    /// so no reader sees a divisor with a bound of another state).
    fn update(&mut self, name: &str, f: impl FnOnce(Fact) -> Result<Fact>) -> Result<()> {
        let sym = self.symbol_of(name).ok_or_else(|| undeclared(name))?;
        let mut cell = sym
            .fact
            .write()
            .map_err(|_| Error::value(format!("the facts of {name} are unavailable")))?;
        *cell = f(*cell)?;
        Ok(())
    }

    fn symbol_of(&self, name: &str) -> Option<&Arc<Symbol>> {
        self.index
            .get(name)
            .and_then(|&o| self.symbols.get(o as usize))
    }

    /// The facts of `name`, if it is declared.
    pub fn fact(&self, name: &str) -> Option<Fact> {
        self.symbol_of(name).map(|s| s.fact())
    }

    /// The declared symbols, in declaration order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.symbols.iter().map(|s| &*s.name)
    }

    /// Checks that `value` is admissible for `name`: positive, a multiple of
    /// its divisor and at least its bound. Errors: `value` naming the fact
    /// violated; `value` for an undeclared name.
    pub fn check_value(&self, name: &str, value: i64) -> Result<()> {
        let f = self.fact(name).ok_or_else(|| undeclared(name))?;
        f.check(name, value)
    }
}

fn round_up(x: i64, d: i64) -> Result<i64> {
    let q = int::floor_div(int::add(x, d - 1)?, d)?;
    int::mul(q, d)
}

fn undeclared(name: &str) -> Error {
    Error::value(format!(
        "unknown symbol '{name}' (declare it with `assume {name}`)"
    ))
}

/// A declared symbol: its declaration order (the printing order), its name
/// and its facts, shared by the table that declared it and every value that
/// uses it. Two symbols are the same symbol when their order and name are.
#[derive(Debug)]
struct Symbol {
    ord: u32,
    name: Arc<str>,
    fact: RwLock<Fact>,
}

impl Symbol {
    /// The facts known now (the weakest facts, which hold for every
    /// symbol, if the cell is unavailable).
    fn fact(&self) -> Fact {
        self.fact
            .read()
            .map(|f| *f)
            .unwrap_or(Fact { divisor: 1, min: 1 })
    }
}

impl PartialEq for Symbol {
    fn eq(&self, o: &Symbol) -> bool {
        self.ord == o.ord && self.name == o.name
    }
}
impl Eq for Symbol {}
impl PartialOrd for Symbol {
    fn partial_cmp(&self, o: &Symbol) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Symbol {
    fn cmp(&self, o: &Symbol) -> Ordering {
        (self.ord, &self.name).cmp(&(o.ord, &o.name))
    }
}
impl std::hash::Hash for Symbol {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.ord.hash(h);
        self.name.hash(h);
    }
}

/// A factor of a term: a symbol, or a floor division or modulo that the
/// facts could not resolve (kept as it is, evaluated on substitution).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Atom {
    /// A symbol, with the facts known of it.
    Sym(Arc<Symbol>),
    /// `floor(p / q)`.
    Floor(Box<SymInt>, Box<SymInt>),
    /// `p mod q` (floor modulo: the sign of `q`).
    Mod(Box<SymInt>, Box<SymInt>),
}

/// A product of atoms with positive exponents, sorted; empty for 1.
type Mono = Vec<(Atom, u32)>;

/// A term of a [`SymInt`]: its coefficient and its factors with their
/// exponents (see [`SymInt::structure`]).
pub type Term = (i64, Vec<(Factor, u32)>);

/// A factor of a term of a [`SymInt`] (see [`SymInt::structure`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Factor {
    /// A symbol, by name.
    Symbol(String),
    /// An unresolved floor division `floor(p / q)`.
    Floor(SymInt, SymInt),
    /// An unresolved modulo `p mod q` (the sign of `q`).
    Mod(SymInt, SymInt),
}

/// A symbolic integer: `(Σ c_i m_i) / den` with integer coefficients `c_i`,
/// monomials `m_i` over symbols (and unresolved floor divisions and
/// modulos), and a positive common denominator `den` that the facts prove
/// divides the sum (`N/16` when `16 | N`). Normalised: no zero
/// coefficient, `gcd(c_i..., den) = 1`. Equal values of the same form
/// compare equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymInt {
    den: i64,
    terms: BTreeMap<Mono, i64>,
}

impl From<i64> for SymInt {
    fn from(v: i64) -> SymInt {
        let mut terms = BTreeMap::new();
        if v != 0 {
            terms.insert(Vec::new(), v);
        }
        SymInt { den: 1, terms }
    }
}

fn too_big() -> Error {
    Error::overflow(format!(
        "symbolic integer: more than {MAX_TERMS} terms, a degree above {MAX_DEGREE} or a \
         coefficient beyond 64 bits"
    ))
}

fn mono_mul(a: &Mono, b: &Mono) -> Mono {
    let mut out: Mono = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => match x.0.cmp(&y.0) {
                Ordering::Less => {
                    out.push(x.clone());
                    i += 1;
                }
                Ordering::Greater => {
                    out.push(y.clone());
                    j += 1;
                }
                Ordering::Equal => {
                    out.push((x.0.clone(), x.1 + y.1));
                    i += 1;
                    j += 1;
                }
            },
            (Some(x), None) => {
                out.push(x.clone());
                i += 1;
            }
            (None, Some(y)) => {
                out.push(y.clone());
                j += 1;
            }
            (None, None) => break,
        }
    }
    out
}

fn degree(m: &Mono) -> u32 {
    m.iter().map(|(_, e)| e).sum()
}

impl SymInt {
    /// The symbol `name`, which must be declared in `facts`. Errors: `value`
    /// for an undeclared name.
    pub fn symbol(facts: &Facts, name: &str) -> Result<SymInt> {
        let sym = facts.symbol_of(name).ok_or_else(|| undeclared(name))?;
        let mut terms = BTreeMap::new();
        terms.insert(vec![(Atom::Sym(sym.clone()), 1)], 1);
        Ok(SymInt { den: 1, terms })
    }

    /// The value, when it does not depend on any symbol.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => {
                let (m, c) = self.terms.iter().next()?;
                (m.is_empty() && c % self.den == 0).then(|| c / self.den)
            }
            _ => None,
        }
    }

    /// True when the value depends on no symbol (C++ CuTe's "static").
    pub fn is_static(&self) -> bool {
        self.as_const().is_some()
    }

    fn normalised(mut terms: BTreeMap<Mono, i64>, den: i64) -> Result<SymInt> {
        terms.retain(|_, c| *c != 0);
        if terms.len() > MAX_TERMS {
            return Err(too_big());
        }
        let mut g = den;
        for c in terms.values() {
            g = int::gcd(g, *c);
        }
        let g = g.max(1);
        let mut den = den / g;
        let mut terms: BTreeMap<Mono, i64> = terms.into_iter().map(|(m, c)| (m, c / g)).collect();
        if den < 0 {
            den = den.checked_neg().ok_or_else(too_big)?;
            for c in terms.values_mut() {
                *c = c.checked_neg().ok_or_else(too_big)?;
            }
        }
        Ok(SymInt { den, terms })
    }

    /// The numerator's terms scaled to the denominator `den` (a multiple of
    /// `self.den`).
    fn scaled(&self, den: i64) -> Result<BTreeMap<Mono, i64>> {
        let k = den / self.den;
        self.terms
            .iter()
            .map(|(m, c)| Ok((m.clone(), int::mul(*c, k).map_err(|_| too_big())?)))
            .collect()
    }

    /// `self + other`. Errors: `overflow`.
    pub fn add(&self, other: &SymInt) -> Result<SymInt> {
        let den = int::lcm(self.den, other.den).map_err(|_| too_big())?;
        let mut t = self.scaled(den)?;
        for (m, c) in other.scaled(den)? {
            let e = t.entry(m).or_insert(0);
            *e = int::add(*e, c).map_err(|_| too_big())?;
        }
        SymInt::normalised(t, den)
    }

    /// `-self`. Errors: `overflow`.
    pub fn neg(&self) -> Result<SymInt> {
        let t = self
            .terms
            .iter()
            .map(|(m, c)| Ok((m.clone(), c.checked_neg().ok_or_else(too_big)?)))
            .collect::<Result<_>>()?;
        SymInt::normalised(t, self.den)
    }

    /// `self - other`. Errors: `overflow`.
    pub fn sub(&self, other: &SymInt) -> Result<SymInt> {
        self.add(&other.neg()?)
    }

    /// `self * other`. Errors: `overflow` (also for more than
    /// [`MAX_TERMS`] terms).
    pub fn mul(&self, other: &SymInt) -> Result<SymInt> {
        if self.terms.len().saturating_mul(other.terms.len()) > MAX_TERMS * MAX_TERMS {
            return Err(too_big());
        }
        let den = int::mul(self.den, other.den).map_err(|_| too_big())?;
        let mut t: BTreeMap<Mono, i64> = BTreeMap::new();
        for (ma, ca) in &self.terms {
            for (mb, cb) in &other.terms {
                let c = int::mul(*ca, *cb).map_err(|_| too_big())?;
                let m = mono_mul(ma, mb);
                if degree(&m) > MAX_DEGREE {
                    return Err(too_big());
                }
                let e = t.entry(m).or_insert(0);
                *e = int::add(*e, c).map_err(|_| too_big())?;
            }
        }
        SymInt::normalised(t, den)
    }

    /// The largest `k > 0` the facts prove divides this monomial's value
    /// (symbols contribute their divisors, unresolved atoms 1).
    fn mono_divisor(m: &Mono) -> Option<i128> {
        let mut k: i128 = 1;
        for (a, e) in m {
            if let Atom::Sym(s) = a {
                let d = s.fact().divisor as i128;
                if d == 1 {
                    continue;
                }
                for _ in 0..*e {
                    k = k.checked_mul(d)?;
                    if k > i64::MAX as i128 {
                        return None;
                    }
                }
            }
        }
        Some(k)
    }

    /// True when the facts prove that `d` divides the value (`d != 0`).
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.assume_divisible("N", 8).unwrap();
    /// let n = SymInt::symbol(&f, "N").unwrap();
    /// assert!(n.mul(&SymInt::from(6)).unwrap().divisible_by(16));  // 6N = 48k
    /// assert!(!n.divisible_by(16));                                // unknown
    /// ```
    pub fn divisible_by(&self, d: i64) -> bool {
        if d == 0 {
            return self.terms.is_empty();
        }
        // (Σ c_i m_i) / den ≡ 0 (mod d)  ⇐  each c_i m_i ≡ 0 (mod d*den)
        let m = (d as i128).abs() * self.den as i128;
        self.terms
            .iter()
            .all(|(mono, c)| match SymInt::mono_divisor(mono) {
                Some(k) => (*c as i128 * k) % m == 0,
                None => false,
            })
    }

    /// `floor(self / q)`: exact where the facts prove `q` divides the value,
    /// a constant part split off where the facts prove the rest divisible,
    /// otherwise kept as an unresolved floor division (`(N + 3)//4`).
    /// Errors: `value` for a zero divisor (or one not proven non-zero);
    /// `overflow`.
    pub fn floor_div(&self, q: &SymInt) -> Result<SymInt> {
        Ok(self.divmod(q)?.0)
    }

    /// `self mod q` (floor modulo, the sign of `q`), as [`SymInt::floor_div`].
    pub fn modulo(&self, q: &SymInt) -> Result<SymInt> {
        Ok(self.divmod(q)?.1)
    }

    /// `ceil(self / d)` for a positive constant `d`: `floor((self + d - 1) / d)`.
    /// Errors: `value` for `d < 1`; `overflow`.
    pub fn ceil_div(&self, d: i64) -> Result<SymInt> {
        if d < 1 {
            return Err(Error::value(format!(
                "ceil_div({self}, {d}): the divisor must be a positive integer"
            )));
        }
        self.add(&SymInt::from(d - 1))?.floor_div(&SymInt::from(d))
    }

    /// `(floor(self / q), self mod q)`.
    pub fn divmod(&self, q: &SymInt) -> Result<(SymInt, SymInt)> {
        if let (Some(a), Some(b)) = (self.as_const(), q.as_const()) {
            if b == 0 {
                return Err(Error::value(format!("{self} // {q}: division by zero")));
            }
            let (x, y) = int::floor_divmod(a, b)?;
            return Ok((SymInt::from(x), SymInt::from(y)));
        }
        if let Some(d) = q.as_const() {
            if d == 0 {
                return Err(Error::value(format!("{self} // {q}: division by zero")));
            }
            // split self = P + c/den with P the non-constant part
            let c = self.terms.get(&Vec::new()).copied().unwrap_or(0);
            let mut p = self.clone();
            p.terms.remove(&Vec::new());
            if p.divisible_by(d) && c % self.den == 0 {
                let c = c / self.den;
                let (cq, cr) = int::floor_divmod(c, d)?;
                // P / d exactly: the denominator grows by |d|
                let den = int::mul(p.den, d).map_err(|_| too_big())?;
                let pq = SymInt::normalised(p.terms, den)?;
                return Ok((pq.add(&SymInt::from(cq))?, SymInt::from(cr)));
            }
        } else if q.proven_positive() != Some(true) && q.neg()?.proven_positive() != Some(true) {
            return Err(Error::value(format!(
                "{self} // {q}: the divisor {q} is not proven non-zero"
            )));
        } else if let Some(r) = self.exact_quotient(q) {
            return Ok((r, SymInt::from(0)));
        }
        // 0 <= self < |q| proven: the quotient is 0 and the value its own
        // remainder (`floor(4/N)` with `N >= 8`)
        if q.proven_positive() == Some(true)
            && self.lt(&SymInt::from(0)) == Some(false)
            && self.lt(q) == Some(true)
        {
            return Ok((SymInt::from(0), self.clone()));
        }
        if self.nesting() >= MAX_NESTING || q.nesting() >= MAX_NESTING {
            return Err(Error::overflow(format!(
                "symbolic integer: unresolved floor divisions and modulos nested deeper than \
                 {MAX_NESTING} levels"
            )));
        }
        let fl = SymInt::atom(Atom::Floor(Box::new(self.clone()), Box::new(q.clone())));
        let md = SymInt::atom(Atom::Mod(Box::new(self.clone()), Box::new(q.clone())));
        Ok((fl, md))
    }

    /// `self / q` when `q` is a single term whose monomial divides every
    /// term of `self` with a coefficient that divides too.
    fn exact_quotient(&self, q: &SymInt) -> Option<SymInt> {
        if q.terms.len() != 1 || q.den != 1 {
            return None;
        }
        let (qm, qc) = q.terms.iter().next()?;
        let mut t = BTreeMap::new();
        for (m, c) in &self.terms {
            if c % qc != 0 {
                return None;
            }
            let mut rest = m.clone();
            for (a, e) in qm {
                let i = rest.iter().position(|(b, _)| b == a)?;
                if rest[i].1 < *e {
                    return None;
                }
                rest[i].1 -= e;
                if rest[i].1 == 0 {
                    rest.remove(i);
                }
            }
            t.insert(rest, c / qc);
        }
        // the quotient is (Σ t)/den: an integer only where the facts prove
        // that den divides Σ t (`(N/16) // N` is not 1/16)
        let num = SymInt::normalised(t, 1).ok()?;
        if !num.divisible_by(self.den) {
            return None;
        }
        SymInt::normalised(num.terms, self.den).ok()
    }

    /// `self^e` (`e` at most [`MAX_DEGREE`]). Errors: `overflow`.
    fn pow(&self, e: u32) -> Result<SymInt> {
        if let Some(v) = self.as_const() {
            return v.checked_pow(e).map(SymInt::from).ok_or_else(too_big);
        }
        if e > MAX_DEGREE {
            return Err(too_big());
        }
        let mut r = SymInt::from(1);
        for _ in 0..e {
            r = r.mul(self)?;
        }
        Ok(r)
    }

    /// How deep unresolved floor divisions and modulos nest in the value
    /// (0 for a polynomial in symbols); at most [`MAX_NESTING`], which the
    /// operations that make such atoms keep.
    fn nesting(&self) -> usize {
        let mut d = 0;
        for m in self.terms.keys() {
            for (a, _) in m {
                if let Atom::Floor(p, q) | Atom::Mod(p, q) = a {
                    d = d.max(1 + p.nesting().max(q.nesting()));
                }
            }
        }
        d
    }

    fn atom(a: Atom) -> SymInt {
        let mut terms = BTreeMap::new();
        terms.insert(vec![(a, 1)], 1);
        SymInt { den: 1, terms }
    }

    /// `Some(true)` when the facts prove the value positive, `Some(false)`
    /// when they prove it not positive, `None` when they decide neither.
    ///
    /// The proof writes each symbol `s` (a multiple of its divisor `k`, at
    /// least its bound `b`) as `s = b + k*t` with `t >= 0`, expands, and
    /// reads the signs of the coefficients in the `t`s.
    pub fn proven_positive(&self) -> Option<bool> {
        if let Some(c) = self.as_const() {
            return Some(c > 0);
        }
        let shifted = self.shifted()?;
        let c0 = shifted.get(&Vec::new()).copied().unwrap_or(0);
        let rest = shifted.iter().filter(|(m, _)| !m.is_empty());
        let (mut pos, mut neg) = (true, true);
        for (_, c) in rest {
            pos &= *c >= 0;
            neg &= *c <= 0;
        }
        if pos && c0 > 0 {
            Some(true)
        } else if neg && c0 <= 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The numerator with every symbol replaced by `b + k*t` (`t` the same
    /// atom standing for the non-negative offset), in 128-bit coefficients;
    /// `None` when an unresolved atom is in it or the expansion is too big.
    fn shifted(&self) -> Option<BTreeMap<Mono, i128>> {
        let mut out: BTreeMap<Mono, i128> = BTreeMap::new();
        for (m, c) in &self.terms {
            // expand Π (b + k t)^e
            let mut poly: BTreeMap<Mono, i128> = BTreeMap::new();
            poly.insert(Vec::new(), *c as i128);
            for (a, e) in m {
                let Atom::Sym(s) = a else { return None };
                let f = s.fact();
                for _ in 0..*e {
                    let mut next: BTreeMap<Mono, i128> = BTreeMap::new();
                    for (pm, pc) in &poly {
                        let x = next.entry(pm.clone()).or_insert(0);
                        *x = x.checked_add(pc.checked_mul(f.min as i128)?)?;
                        let tm = mono_mul(pm, &vec![(a.clone(), 1)]);
                        let y = next.entry(tm).or_insert(0);
                        *y = y.checked_add(pc.checked_mul(f.divisor as i128)?)?;
                    }
                    if next.len() > MAX_TERMS * 4 {
                        return None;
                    }
                    poly = next;
                }
            }
            for (pm, pc) in poly {
                let x = out.entry(pm).or_insert(0);
                *x = x.checked_add(pc)?;
            }
        }
        Some(out)
    }

    /// `Some(true)` when the value is 0, `Some(false)` when the facts prove
    /// it non-zero (positive or negative), `None` when they decide neither.
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.declare("N").unwrap();
    /// let n = SymInt::symbol(&f, "N").unwrap();
    /// assert_eq!(n.sub(&n).unwrap().proven_zero(), Some(true));
    /// assert_eq!(n.neg().unwrap().proven_zero(), Some(false));
    /// assert_eq!(n.sub(&SymInt::from(4)).unwrap().proven_zero(), None);
    /// ```
    pub fn proven_zero(&self) -> Option<bool> {
        if let Some(c) = self.as_const() {
            return Some(c == 0);
        }
        let negative = || self.neg().ok().and_then(|n| n.proven_positive()) == Some(true);
        (self.proven_positive() == Some(true) || negative()).then_some(false)
    }

    /// `self / q` where the facts prove the division exact; `Ok(None)`
    /// where they do not. Errors: those of [`SymInt::floor_div`].
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.assume_divisible("N", 16).unwrap();
    /// let n = SymInt::symbol(&f, "N").unwrap();
    /// assert_eq!(n.exact_div(&SymInt::from(8)).unwrap().unwrap().to_string(), "N/8");
    /// assert!(n.exact_div(&SymInt::from(32)).unwrap().is_none());
    /// ```
    pub fn exact_div(&self, q: &SymInt) -> Result<Option<SymInt>> {
        let r = self.floor_div(q)?;
        Ok((r.mul(q)? == *self).then_some(r))
    }

    /// True when the facts prove the value at least 1: as
    /// [`SymInt::lt`], and also for `c * floor(p / q)` (`c >= 1`) where
    /// `q >= 1` and `p >= q` are proven (a ceiling tile count such as
    /// `(N + 3)//4`).
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.declare("N").unwrap();
    /// let n = SymInt::symbol(&f, "N").unwrap();
    /// let tiles = n.add(&SymInt::from(3)).unwrap().floor_div(&SymInt::from(4)).unwrap();
    /// assert!(tiles.proven_at_least_one());
    /// assert!(!n.floor_div(&SymInt::from(4)).unwrap().proven_at_least_one());
    /// ```
    pub fn proven_at_least_one(&self) -> bool {
        if self.lt(&SymInt::from(1)) == Some(false) {
            return true;
        }
        if self.den != 1 || self.terms.len() != 1 {
            return false;
        }
        let Some((m, &c)) = self.terms.iter().next() else {
            return false;
        };
        match m.as_slice() {
            [(Atom::Floor(p, q), 1)] if c >= 1 => {
                SymInt::lt(q, &SymInt::from(1)) == Some(false)
                    && p.sub(q)
                        .is_ok_and(|d| d.lt(&SymInt::from(0)) == Some(false))
            }
            _ => false,
        }
    }

    /// `Some(true)` when the facts prove `self < other`, `Some(false)` when
    /// they prove `self >= other`, `None` otherwise.
    pub fn lt(&self, other: &SymInt) -> Option<bool> {
        other.sub(self).ok()?.proven_positive()
    }

    /// The structure of the value, `(Σ c_i Π f_ij^e_ij) / den`: the common
    /// denominator and the terms, each a coefficient and its factors with
    /// their exponents (for converting to another algebra system, such as
    /// sympy, without going through the printed form).
    ///
    /// ```
    /// use rcute::sym::{Facts, Factor, SymInt};
    /// let mut f = Facts::new();
    /// f.declare("K").unwrap();
    /// let k = SymInt::symbol(&f, "K").unwrap();
    /// let e = k.mul(&k).unwrap().add(&SymInt::from(3)).unwrap();
    /// let (den, terms) = e.structure();
    /// assert_eq!(den, 1);
    /// assert_eq!(terms.len(), 2);
    /// assert!(terms.iter().any(|(c, fs)| *c == 1 && matches!(&fs[..], [(Factor::Symbol(n), 2)] if n == "K")));
    /// ```
    pub fn structure(&self) -> (i64, Vec<Term>) {
        let terms = self
            .terms
            .iter()
            .map(|(m, c)| {
                let fs = m
                    .iter()
                    .map(|(a, e)| {
                        let f = match a {
                            Atom::Sym(s) => Factor::Symbol(s.name.to_string()),
                            Atom::Floor(p, q) => Factor::Floor((**p).clone(), (**q).clone()),
                            Atom::Mod(p, q) => Factor::Mod((**p).clone(), (**q).clone()),
                        };
                        (f, *e)
                    })
                    .collect();
                (*c, fs)
            })
            .collect();
        (self.den, terms)
    }

    /// The value as an operand of a printed operator: in parentheses
    /// unless it is a positive constant or one symbol (`(N + 1)`, `N`, `4`).
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.declare("N").unwrap();
    /// let n = SymInt::symbol(&f, "N").unwrap();
    /// assert_eq!(n.add(&SymInt::from(1)).unwrap().operand().to_string(), "(N + 1)");
    /// assert_eq!(n.operand().to_string(), "N");
    /// ```
    pub fn operand(&self) -> impl fmt::Display + '_ {
        Paren(self)
    }

    /// The name of the symbol this value is (`N`: one symbol, coefficient
    /// 1), if it is one.
    pub fn as_symbol(&self) -> Option<&str> {
        if self.den != 1 || self.terms.len() != 1 {
            return None;
        }
        let (m, c) = self.terms.iter().next()?;
        match (&m[..], c) {
            ([(Atom::Sym(s), 1)], 1) => Some(&s.name),
            _ => None,
        }
    }

    /// The symbols the value depends on (also inside unresolved floor
    /// divisions and modulos), in printing order, each with the facts the
    /// value holds for it.
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.declare("K").unwrap();
    /// f.assume_divisible("N", 16).unwrap();
    /// let k = SymInt::symbol(&f, "K").unwrap();
    /// let n = SymInt::symbol(&f, "N").unwrap();
    /// let e = n.add(&k.floor_div(&SymInt::from(4)).unwrap()).unwrap();
    /// let names: Vec<_> = e.symbols().into_iter().map(|(n, f)| (n, f.divisor)).collect();
    /// assert_eq!(names, [("K".to_string(), 1), ("N".to_string(), 16)]);
    /// ```
    pub fn symbols(&self) -> Vec<(String, Fact)> {
        let mut out: Vec<Arc<Symbol>> = Vec::new();
        self.collect_symbols(&mut out, 0);
        out.sort();
        out.dedup();
        out.into_iter()
            .map(|s| (s.name.to_string(), s.fact()))
            .collect()
    }

    fn collect_symbols(&self, out: &mut Vec<Arc<Symbol>>, depth: usize) {
        // atoms nest at most MAX_NESTING deep (divmod refuses deeper ones)
        if depth > MAX_NESTING {
            return;
        }
        for m in self.terms.keys() {
            for (a, _) in m {
                match a {
                    Atom::Sym(s) => {
                        if !out.contains(s) {
                            out.push(s.clone());
                        }
                    }
                    Atom::Floor(p, q) | Atom::Mod(p, q) => {
                        p.collect_symbols(out, depth + 1);
                        q.collect_symbols(out, depth + 1);
                    }
                }
            }
        }
    }

    /// The value with `values` substituted (a partial substitution leaves
    /// the other symbols; a name the value does not use is ignored).
    /// Errors: `value` for a value that violates the facts of its symbol;
    /// `overflow`.
    ///
    /// ```
    /// use rcute::sym::{Facts, SymInt};
    /// let mut f = Facts::new();
    /// f.assume_divisible("N", 16).unwrap();
    /// f.declare("K").unwrap();
    /// let e = SymInt::symbol(&f, "N").unwrap().mul(&SymInt::symbol(&f, "K").unwrap()).unwrap();
    /// assert_eq!(e.subs(&[("N", 32)]).unwrap().to_string(), "32*K");
    /// assert!(e.subs(&[("N", 40)]).is_err()); // 16 does not divide 40
    /// ```
    pub fn subs(&self, values: &[(&str, i64)]) -> Result<SymInt> {
        for (name, fact) in self.symbols() {
            if let Some((_, v)) = values.iter().find(|(n, _)| *n == name) {
                fact.check(&name, *v)?;
            }
        }
        self.subs_checked(values)
    }

    /// [`SymInt::subs`] with `values` already checked against the facts
    /// (the unresolved atoms substitute through it, not re-checking).
    fn subs_checked(&self, values: &[(&str, i64)]) -> Result<SymInt> {
        let mut acc = SymInt::from(0);
        for (m, c) in &self.terms {
            let mut t = SymInt::from(*c);
            for (a, e) in m {
                let base = match a {
                    Atom::Sym(s) => match values.iter().find(|(x, _)| *x == &*s.name) {
                        Some((_, v)) => SymInt::from(*v),
                        None => SymInt::atom(a.clone()),
                    },
                    Atom::Floor(p, q) => p
                        .subs_checked(values)?
                        .floor_div(&q.subs_checked(values)?)?,
                    Atom::Mod(p, q) => p.subs_checked(values)?.modulo(&q.subs_checked(values)?)?,
                };
                t = t.mul(&base.pow(*e)?)?;
            }
            acc = acc.add(&t)?;
        }
        // the common denominator still divides the substituted numerator
        // (substitution keeps the value): the same quotient, over `den`
        let den = int::mul(acc.den, self.den).map_err(|_| too_big())?;
        SymInt::normalised(acc.terms, den)
    }

    /// The value at `values`, which must give every symbol in it. Errors:
    /// those of [`SymInt::subs`]; `value` when a symbol is left.
    pub fn eval(&self, values: &[(&str, i64)]) -> Result<i64> {
        let r = self.subs(values)?;
        r.as_const()
            .ok_or_else(|| Error::value(format!("{self}: no value given for a symbol of {r}")))
    }

    /// Prints a monomial; `alone` when it is the whole value, `product`
    /// when it is multiplied by a coefficient or divided by the common
    /// denominator (a floor division is then parenthesised: `2*(K//4)`
    /// reads back as itself, `2*K//4` would not).
    fn fmt_mono(m: &Mono, alone: bool, product: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (a, e)) in m.iter().enumerate() {
            if i > 0 {
                f.write_str("*")?;
            }
            // a power prints as a product (`N*N`), which reads back
            for k in 0..*e {
                if k > 0 {
                    f.write_str("*")?;
                }
                match a {
                    Atom::Sym(s) => f.write_str(&s.name)?,
                    Atom::Floor(p, q) if product || m.len() > 1 || *e > 1 => {
                        write!(f, "({}//{})", Paren(p), Paren(q))?
                    }
                    Atom::Floor(p, q) => write!(f, "{}//{}", Paren(p), Paren(q))?,
                    Atom::Mod(p, q) if alone && *e == 1 => {
                        write!(f, "{} % {}", Paren(p), Paren(q))?
                    }
                    Atom::Mod(p, q) => write!(f, "({} % {})", Paren(p), Paren(q))?,
                }
            }
        }
        Ok(())
    }
}

/// A symbolic integer in parentheses unless it is one symbol or a constant.
struct Paren<'a>(&'a SymInt);

impl fmt::Display for Paren<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        let simple = s.den == 1
            && s.terms.len() <= 1
            && s.terms.iter().all(|(m, c)| {
                // a constant, or one symbol to the first power
                *c > 0
                    && (m.is_empty()
                        || (*c == 1
                            && m.len() == 1
                            && m[0].1 == 1
                            && matches!(m[0].0, Atom::Sym(_))))
            });
        if simple {
            write!(f, "{s}")
        } else {
            write!(f, "({s})")
        }
    }
}

impl fmt::Display for SymInt {
    /// Terms by falling degree (the constant last), monomials in the
    /// symbols' declaration order: `2*N*K + N + 1`; a common denominator
    /// prints after the terms, `N/16`, `(N + 16)/16`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.terms.is_empty() {
            return f.write_str("0");
        }
        let mut terms: Vec<_> = self.terms.iter().collect();
        terms.sort_by(|(a, _), (b, _)| degree(b).cmp(&degree(a)).then_with(|| a.cmp(b)));
        let wrap = self.den != 1 && terms.len() > 1;
        if wrap {
            f.write_str("(")?;
        }
        for (i, (m, c)) in terms.iter().enumerate() {
            let c = **c;
            if i == 0 {
                if c < 0 {
                    f.write_str("-")?;
                }
            } else {
                f.write_str(if c < 0 { " - " } else { " + " })?;
            }
            let a = c.unsigned_abs();
            if m.is_empty() {
                write!(f, "{a}")?;
            } else {
                if a != 1 {
                    write!(f, "{a}*")?;
                }
                // a leading '-' binds tighter than '//' and '%': a floor
                // division or modulo after it is parenthesised
                let negated = i == 0 && c < 0;
                let alone = terms.len() == 1 && a == 1 && m.len() == 1 && self.den == 1 && !negated;
                SymInt::fmt_mono(m, alone, a != 1 || self.den != 1 || negated, f)?;
            }
        }
        if wrap {
            f.write_str(")")?;
        }
        if self.den != 1 {
            write!(f, "/{}", self.den)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts {
        let mut f = Facts::new();
        f.declare("N").unwrap();
        f.declare("K").unwrap();
        f
    }

    #[test]
    fn printing_is_canonical() {
        // hand-derived: declaration order N, K; falling degree; constant last
        let f = facts();
        let n = SymInt::symbol(&f, "N").unwrap();
        let k = SymInt::symbol(&f, "K").unwrap();
        let two = SymInt::from(2);
        let e = k
            .mul(&n)
            .unwrap()
            .mul(&two)
            .unwrap()
            .add(&n)
            .unwrap()
            .add(&SymInt::from(1))
            .unwrap();
        assert_eq!(e.to_string(), "2*N*K + N + 1");
        assert_eq!(n.sub(&n).unwrap().to_string(), "0");
        assert_eq!(SymInt::from(1).sub(&n).unwrap().to_string(), "-N + 1");
        assert_eq!(n.mul(&n).unwrap().to_string(), "N*N");
    }
}
