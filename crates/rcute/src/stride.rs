//! Stride scalars (`docs/language.md`, "Strides"): integers, coordinate values (ArithTuple /
//! scaled basis) and F2 values, with the arithmetic, equality, ordering and
//! printing of each algebra, and the mixing rules between them.
//!
//! The integer `0` is the additive identity of every algebra.

use std::cmp::Ordering;
use std::fmt;

use std::sync::Arc;

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::f2::clmul;
use crate::htuple::{HRef, HTuple};
use crate::int;

/// A basis path: the sequence of child indices of a coordinate value.
pub type Path = SmallVec<[usize; 4]>;

/// A stride scalar: the value of one stride leaf (`docs/language.md`, "Strides").
///
/// Equality (`==`) is the algebra's equality (`docs/language.md`, "Strides"), not
/// structural: `E(0) == ArithTuple(1, 0)`, `F2(5) == 5`.
///
/// ```
/// use rcute::Scalar;
/// let x = Scalar::basis(3, &[1]);          // 3@1
/// let y = Scalar::basis(2, &[0]);          // 2@0
/// let s = x.add(&y).unwrap();
/// assert_eq!(s.to_string(), "(2, 3)");
/// assert_eq!(Scalar::F2(3).mul(&Scalar::Int(3)).unwrap().to_string(), "F5");
/// ```
#[derive(Clone)]
pub enum Scalar {
    /// An integer.
    Int(i64),
    /// An F2 value `F<n>`.
    F2(i64),
    /// A coordinate value (ArithTuple).
    Coord(Arc<ArithTuple>),
}

impl Default for Scalar {
    fn default() -> Self {
        Scalar::Int(0)
    }
}

impl From<i64> for Scalar {
    fn from(v: i64) -> Self {
        Scalar::Int(v)
    }
}

const ZERO: Scalar = Scalar::Int(0);

impl Scalar {
    /// The coordinate value with `children` (no normalisation).
    pub fn coord(children: Vec<Scalar>) -> Scalar {
        Scalar::Coord(Arc::new(ArithTuple::new(children)))
    }

    /// `ScaledBasis(v, path)`: `v` at the basis path (`docs/language.md`, "Strides").
    /// `basis(1, &[])` is the integer 1.
    ///
    /// ```
    /// use rcute::Scalar;
    /// assert_eq!(Scalar::basis(1, &[1, 0]).to_string(), "1@0@1");
    /// ```
    pub fn basis(v: i64, path: &[usize]) -> Scalar {
        Scalar::scaled_basis(Scalar::Int(v), path)
    }

    /// `ScaledBasis(v, path)` for any scalar `v`.
    pub fn scaled_basis(v: Scalar, path: &[usize]) -> Scalar {
        let mut x = v;
        for &i in path.iter().rev() {
            let mut ch = vec![ZERO; i];
            ch.push(x);
            x = Scalar::coord(ch);
        }
        x
    }

    /// `x @ i`: wraps `x` as child `i` of a new coordinate value.
    /// A negative `i` is a `value` error.
    ///
    /// ```
    /// use rcute::Scalar;
    /// assert_eq!(Scalar::Int(3).at(2).unwrap().to_string(), "3@2");
    /// ```
    pub fn at(&self, i: i64) -> Result<Scalar> {
        if i < 0 {
            return Err(Error::value(format!("{self} @ {i}: negative basis index")));
        }
        let i = usize::try_from(i).map_err(|_| Error::value("basis index too large"))?;
        if i > 1 << 20 {
            return Err(Error::value(format!("{self} @ {i}: basis index too large")));
        }
        if self.nesting() >= crate::htuple::MAX_DEPTH {
            return Err(Error::value(format!(
                "x @ {i}: the coordinate value would be nested deeper than {} levels",
                crate::htuple::MAX_DEPTH
            )));
        }
        Ok(Scalar::scaled_basis(self.clone(), &[i]))
    }

    /// How deeply coordinate values nest inside this scalar: 0 for an
    /// integer or F2 value, `1 + max over the children` for a coordinate
    /// value. Computed without recursion.
    ///
    /// ```
    /// use rcute::Scalar;
    /// assert_eq!(Scalar::Int(3).nesting(), 0);
    /// assert_eq!(Scalar::basis(1, &[0, 2]).nesting(), 2);
    /// ```
    pub fn nesting(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&Scalar, usize)> = vec![(self, 0)];
        while let Some((x, d)) = stack.pop() {
            if let Scalar::Coord(c) = x {
                max = max.max(d + 1);
                stack.extend(c.children().iter().map(|ch| (ch, d + 1)));
            }
        }
        max
    }

    /// The integer value, if this is an integer.
    #[inline]
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Scalar::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// True for a coordinate value.
    #[inline]
    pub fn is_coord(&self) -> bool {
        matches!(self, Scalar::Coord(_))
    }

    /// True for an F2 value.
    #[inline]
    pub fn is_f2(&self) -> bool {
        matches!(self, Scalar::F2(_))
    }

    /// True when the value equals 0 in its algebra.
    #[inline]
    pub fn is_zero(&self) -> bool {
        match self {
            Scalar::Int(v) | Scalar::F2(v) => *v == 0,
            Scalar::Coord(c) => c.children().iter().all(|x| x.is_zero()),
        }
    }

    pub(crate) fn kind_name(&self) -> &'static str {
        match self {
            Scalar::Int(_) => "integer",
            Scalar::F2(_) => "F2 value",
            Scalar::Coord(_) => "coordinate value",
        }
    }

    /// `self + other` in the stride algebras (`docs/language.md`, "Strides").
    pub fn add(&self, other: &Scalar) -> Result<Scalar> {
        use Scalar::*;
        match (self, other) {
            (Int(a), Int(b)) => Ok(Int(int::add(*a, *b)?)),
            (Int(0), o) => Ok(o.clone()),
            (F2(a), F2(b)) => Ok(F2(a ^ b)),
            (F2(_), Int(0)) => Ok(self.clone()),
            (F2(0), Coord(_)) => Ok(other.clone()),
            (Coord(_), Int(0)) => Ok(self.clone()),
            (Coord(_), F2(0)) => Ok(self.clone()),
            (Coord(a), Coord(b)) => zip_children(a.children(), b.children(), Scalar::add),
            _ => Err(Error::type_(format!(
                "ArithTuple Incompatibility: cannot add {} {self} and {} {other}",
                self.kind_name(),
                other.kind_name()
            ))),
        }
    }

    /// `self - other` (`docs/language.md`, "Strides").
    pub fn sub(&self, other: &Scalar) -> Result<Scalar> {
        use Scalar::*;
        match (self, other) {
            (Int(a), Int(b)) => Ok(Int(int::sub(*a, *b)?)),
            (Int(0), o) => o.neg(),
            (F2(a), F2(b)) => Ok(F2(a ^ b)),
            (F2(_), Int(0)) => Ok(self.clone()),
            (Coord(_), Int(0)) => Ok(self.clone()),
            (Coord(_), F2(0)) => Ok(self.clone()),
            (Coord(a), Coord(b)) => zip_children(a.children(), b.children(), Scalar::sub),
            _ => Err(Error::type_(format!(
                "cannot subtract {} {other} from {} {self}",
                other.kind_name(),
                self.kind_name()
            ))),
        }
    }

    /// `-self`: an F2 value is its own negative (addition is XOR); a
    /// coordinate value negates childwise.
    pub fn neg(&self) -> Result<Scalar> {
        match self {
            Scalar::Int(a) => Ok(Scalar::Int(int::neg(*a)?)),
            Scalar::F2(_) => Ok(self.clone()),
            Scalar::Coord(c) => Ok(Scalar::coord(
                c.children()
                    .iter()
                    .map(|x| x.neg())
                    .collect::<Result<_>>()?,
            )),
        }
    }

    /// `self * other` (`docs/language.md`, "Strides"): integer products, carry-less
    /// F2 products, childwise scaling of coordinate values.
    pub fn mul(&self, other: &Scalar) -> Result<Scalar> {
        use Scalar::*;
        match (self, other) {
            (Int(a), Int(b)) => Ok(Int(int::mul(*a, *b)?)),
            (F2(f), Int(m)) | (Int(m), F2(f)) | (F2(f), F2(m)) => Ok(F2(clmul(*f, *m)?)),
            (Coord(c), s @ (Int(_) | F2(_))) | (s @ (Int(_) | F2(_)), Coord(c)) => {
                Ok(Scalar::coord(
                    c.children()
                        .iter()
                        .map(|x| x.mul(s))
                        .collect::<Result<_>>()?,
                ))
            }
            _ => Err(Error::type_(format!(
                "cannot multiply {} {self} by {} {other}",
                self.kind_name(),
                other.kind_name()
            ))),
        }
    }

    /// `self * n` for an integer `n`.
    #[inline]
    pub fn mul_int(&self, n: i64) -> Result<Scalar> {
        match self {
            Scalar::Int(a) => Ok(Scalar::Int(int::mul(*a, n)?)),
            _ => self.mul(&Scalar::Int(n)),
        }
    }

    /// Colexicographic order (`docs/language.md`, "Strides"); integers and F2 values by
    /// value. Comparing a coordinate value with a nonzero non-coordinate
    /// value is a `type` error.
    pub fn try_cmp(&self, other: &Scalar) -> Result<Ordering> {
        use Scalar::*;
        match (self, other) {
            (Int(a) | F2(a), Int(b) | F2(b)) => Ok(a.cmp(b)),
            (Coord(_), s) | (s, Coord(_)) if !s.is_coord() && !s.is_zero() => Err(Error::type_(
                format!("rank-incompatible comparison of {self} and {other}"),
            )),
            _ => {
                let x = self.children_or_empty();
                let y = other.children_or_empty();
                let n = x.len().max(y.len());
                for i in (0..n).rev() {
                    let a = x.get(i).unwrap_or(&ZERO);
                    let b = y.get(i).unwrap_or(&ZERO);
                    match a.try_cmp(b)? {
                        Ordering::Equal => {}
                        o => return Ok(o),
                    }
                }
                Ok(Ordering::Equal)
            }
        }
    }

    fn children_or_empty(&self) -> &[Scalar] {
        match self {
            Scalar::Coord(c) => c.children(),
            _ => &[],
        }
    }

    /// `basis_repr(x)`: one `(value, path)` per nonzero integer or F2 leaf,
    /// or `[(0, ())]` when there is none (`docs/language.md`, "Strides").
    ///
    /// ```
    /// use rcute::Scalar;
    /// let x = Scalar::basis(5, &[1, 2]);
    /// let r = x.basis_repr();
    /// assert_eq!(r.len(), 1);
    /// assert_eq!(r[0].1.as_slice(), &[1, 2]);
    /// ```
    pub fn basis_repr(&self) -> Vec<(Scalar, Path)> {
        fn rec(x: &Scalar, p: &mut Path, out: &mut Vec<(Scalar, Path)>) {
            match x {
                Scalar::Coord(c) => {
                    for (i, ch) in c.children().iter().enumerate() {
                        p.push(i);
                        rec(ch, p, out);
                        p.pop();
                    }
                }
                s => {
                    if !s.is_zero() {
                        out.push((s.clone(), p.clone()));
                    }
                }
            }
        }
        let mut out = Vec::new();
        rec(self, &mut Path::new(), &mut out);
        if out.is_empty() {
            out.push((Scalar::Int(0), Path::new()));
        }
        out
    }

    /// `is_basis(x)`: exactly one `basis_repr` term.
    pub fn is_basis(&self) -> bool {
        self.basis_repr().len() == 1
    }

    /// The single `(value, path)` of a basis value; a multi-term coordinate
    /// value is a `type` error. `0` gives `(0, ())`.
    pub fn basis_term(&self) -> Result<(Scalar, Path)> {
        if let Scalar::Int(_) | Scalar::F2(_) = self {
            return Ok((self.clone(), Path::new()));
        }
        let mut r = self.basis_repr();
        if r.len() != 1 {
            return Err(Error::type_(format!(
                "{self} is not a basis value (it has {} nonzero terms)",
                r.len()
            )));
        }
        Ok(r.swap_remove(0))
    }

    /// The child at `path` (missing trailing children are 0); a path into an
    /// integer or F2 value is a `type` error.
    pub fn get_path(&self, path: &[usize]) -> Result<Scalar> {
        let mut x = self;
        for &i in path {
            match x {
                Scalar::Coord(c) => match c.children().get(i) {
                    Some(ch) => x = ch,
                    None => return Ok(ZERO),
                },
                _ if x.is_zero() => return Ok(ZERO),
                _ => return Err(Error::type_(format!("cannot index into {x}"))),
            }
        }
        Ok(x.clone())
    }

    /// `as_tuple(x)`: the plain nested tuple of explicit children; scalars
    /// stay leaves.
    pub fn as_tuple(&self) -> HTuple<Scalar> {
        fn rec(x: &Scalar, b: &mut crate::htuple::Builder<Scalar>) {
            match x {
                Scalar::Coord(c) => {
                    b.open();
                    for ch in c.children() {
                        rec(ch, b);
                    }
                    b.close();
                }
                s => b.leaf(s.clone()),
            }
        }
        let mut b = crate::htuple::Builder::new();
        rec(self, &mut b);
        b.finish()
    }

    /// The coordinate value with the explicit structure of a plain tuple
    /// (`ArithTuple(...)` of a tuple argument); a leaf is returned as is.
    pub fn from_tuple(t: HRef<'_, Scalar>) -> Scalar {
        match t.as_leaf() {
            Some(s) => s.clone(),
            None => Scalar::coord(t.modes().map(Scalar::from_tuple).collect()),
        }
    }

    fn write(&self, f: &mut fmt::Formatter<'_>, cpp: bool) -> fmt::Result {
        match self {
            Scalar::Int(v) => write!(f, "{v}"),
            Scalar::F2(v) => write!(f, "F{v}"),
            Scalar::Coord(c) => {
                let terms = self.basis_repr();
                if terms.len() == 1 {
                    let (v, path) = &terms[0];
                    v.write(f, cpp)?;
                    for p in path.iter().rev() {
                        write!(f, "@{p}")?;
                    }
                    Ok(())
                } else {
                    f.write_str("(")?;
                    for (i, ch) in c.children().iter().enumerate() {
                        if i > 0 {
                            f.write_str(if cpp { "," } else { ", " })?;
                        }
                        ch.write(f, cpp)?;
                    }
                    f.write_str(")")
                }
            }
        }
    }
}

impl PartialEq for Scalar {
    fn eq(&self, other: &Scalar) -> bool {
        use Scalar::*;
        match (self, other) {
            (Int(a) | F2(a), Int(b) | F2(b)) => a == b,
            (Coord(a), Coord(b)) => {
                let (x, y) = (a.children(), b.children());
                let n = x.len().max(y.len());
                (0..n).all(|i| x.get(i).unwrap_or(&ZERO) == y.get(i).unwrap_or(&ZERO))
            }
            (Coord(c), s) | (s, Coord(c)) => {
                s.is_zero() && c.children().iter().all(|x| x.is_zero())
            }
        }
    }
}

/// The algebra's equality is an equivalence: reflexive, symmetric and
/// transitive (integers and F2 values by value, coordinate values up to
/// trailing zeros, an all-zero coordinate value equal to `0`).
impl Eq for Scalar {}

/// Consistent with `==`: equal scalars hash alike (an integer and the F2
/// value of the same bits, coordinate values that differ by trailing
/// zeros, a zero coordinate value and `0`).
///
/// ```
/// use std::collections::HashSet;
/// use rcute::Scalar;
/// let set: HashSet<Scalar> = [Scalar::Int(5), Scalar::F2(5), Scalar::basis(0, &[2])]
///     .into_iter().collect();
/// assert_eq!(set.len(), 2); // 5 == F5, and 0@2 == 0
/// assert!(set.contains(&Scalar::Int(0)));
/// ```
impl std::hash::Hash for Scalar {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // iterative over the coordinate tree: (scalar) items to hash
        let mut stack: SmallVec<[&Scalar; 8]> = SmallVec::new();
        stack.push(self);
        while let Some(x) = stack.pop() {
            match x {
                Scalar::Int(v) | Scalar::F2(v) => {
                    std::hash::Hash::hash(&0u8, state);
                    v.hash(state);
                }
                Scalar::Coord(c) => {
                    let ch = c.children();
                    let n = ch.iter().rposition(|y| !y.is_zero()).map_or(0, |i| i + 1);
                    if n == 0 {
                        std::hash::Hash::hash(&0u8, state);
                        0i64.hash(state);
                    } else {
                        1u8.hash(state);
                        n.hash(state);
                        stack.extend(ch[..n].iter().rev());
                    }
                }
            }
        }
    }
}

impl fmt::Display for Scalar {
    /// Python `str` style; `{:#}` gives the C++ style (no spaces).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cpp = f.alternate();
        self.write(f, cpp)
    }
}

impl fmt::Debug for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

/// `prefix_product(a, init)` with a scalar `init` (`docs/operations.md`):
/// the exclusive running product of `a`'s leaves, with `a`'s profile.
///
/// ```
/// use rcute::{HTuple, Scalar, stride::prefix_product};
/// let s = HTuple::flat([3i64, 2, 4]);
/// assert_eq!(prefix_product(s.as_ref(), &Scalar::Int(1)).unwrap().to_string(), "(1, 3, 6)");
/// ```
pub fn prefix_product(a: HRef<'_, i64>, init: &Scalar) -> Result<HTuple<Scalar>> {
    let mut acc = init.clone();
    let mut out: SmallVec<[Scalar; 8]> = SmallVec::new();
    let n = a.leaves().len();
    for (k, &v) in a.leaves().iter().enumerate() {
        out.push(acc.clone());
        if k + 1 < n {
            acc = acc.mul_int(v)?;
        }
    }
    HTuple::unflatten(out, a)
}

/// `prefix_product(a, init)` with an HTuple `init` weakly congruent to `a`
/// (`docs/operations.md`: per-mode bases). A tuple `init` of another length is a
/// `rank` error; a tuple `init` against a leaf of `a` a `congruence` error.
///
/// ```
/// use rcute::{HTuple, Scalar, stride::prefix_product_tuple};
/// let s = HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::leaf(4)]);
/// let init = HTuple::flat([Scalar::Int(7), Scalar::Int(100)]);
/// assert_eq!(prefix_product_tuple(s.as_ref(), init.as_ref()).unwrap().to_string(), "((7, 14), 100)");
/// ```
pub fn prefix_product_tuple(a: HRef<'_, i64>, init: HRef<'_, Scalar>) -> Result<HTuple<Scalar>> {
    fn rec(
        a: HRef<'_, i64>,
        init: HRef<'_, Scalar>,
        b: &mut crate::htuple::Builder<Scalar>,
        depth: usize,
    ) -> Result<()> {
        if depth > crate::htuple::MAX_DEPTH {
            return Err(Error::value("nesting too deep"));
        }
        if let Some(s) = init.as_leaf() {
            let t = prefix_product(a, s)?;
            b.push_owned(t);
            return Ok(());
        }
        if a.is_leaf() {
            return Err(Error::congruence(format!(
                "prefix_product: stride tuple {init} where the shape has the leaf {a}"
            )));
        }
        if a.rank() != init.rank() {
            return Err(Error::rank(format!(
                "prefix_product: shape {a} has {} modes, stride {init} has {}",
                a.rank(),
                init.rank()
            )));
        }
        b.open();
        for (x, y) in a.modes().zip(init.modes()) {
            rec(x, y, b, depth + 1)?;
        }
        b.close();
        Ok(())
    }
    let mut b = crate::htuple::Builder::new();
    rec(a, init, &mut b, 0)?;
    Ok(b.finish())
}

/// `inner_product(a, b)`: sum of the products of paired leaves, from the
/// integer 0. Non-congruent operands are a `rank` error.
///
/// ```
/// use rcute::{HTuple, Scalar, stride::inner_product};
/// let a = HTuple::flat([Scalar::Int(1), Scalar::Int(0), Scalar::Int(1)]);
/// let b = HTuple::flat([Scalar::Int(1), Scalar::Int(3), Scalar::Int(6)]);
/// assert_eq!(inner_product(a.as_ref(), b.as_ref()).unwrap(), Scalar::Int(7));
/// ```
pub fn inner_product(a: HRef<'_, Scalar>, b: HRef<'_, Scalar>) -> Result<Scalar> {
    if !a.congruent(b) {
        return Err(Error::rank(format!(
            "inner_product: {a} and {b} are not congruent"
        )));
    }
    let mut acc = Scalar::Int(0);
    for (x, y) in a.leaves().iter().zip(b.leaves()) {
        acc = acc.add(&x.mul(y)?)?;
    }
    Ok(acc)
}

/// The children of a coordinate value, stored verbatim (no normalisation):
/// `ArithTuple(1, 0)` has two children and `E(0)` one, yet they are equal.
///
/// ```
/// use rcute::{ArithTuple, Scalar};
/// let a = Scalar::coord(vec![Scalar::Int(3), Scalar::Int(5)]);
/// assert_eq!(a.to_string(), "(3, 5)");
/// if let Scalar::Coord(c) = &a { assert_eq!(c.children().len(), 2); }
/// ```
#[derive(Clone, Debug)]
pub struct ArithTuple {
    children: Vec<Scalar>,
}

impl ArithTuple {
    /// The coordinate value with these explicit children.
    pub fn new(children: Vec<Scalar>) -> Self {
        ArithTuple { children }
    }
    /// The explicit children.
    #[inline]
    pub fn children(&self) -> &[Scalar] {
        &self.children
    }
}

/// The coordinate value whose children are `f(x_i, y_i)`, the shorter of
/// `x` and `y` extended with zeros (coordinate values add and subtract
/// child by child).
fn zip_children(
    x: &[Scalar],
    y: &[Scalar],
    f: impl Fn(&Scalar, &Scalar) -> Result<Scalar>,
) -> Result<Scalar> {
    let n = x.len().max(y.len());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(f(x.get(i).unwrap_or(&ZERO), y.get(i).unwrap_or(&ZERO))?);
    }
    Ok(Scalar::coord(out))
}
