//! The stride leaf the algebra is written over, once.
//!
//! An operation is one generic function over [`StrideLeaf`]; it is
//! instantiated for `i64` when every stride of its operands is an integer
//! (the common case: the compiler then works on plain machine integers,
//! with no enum matches and no clones of reference-counted values) and for
//! [`Scalar`] otherwise (integer, coordinate and F2 strides, mixed). Both
//! instantiations run the same statements, so they give the same layout
//! and the same error; `docs/design.md` says why and shows the figures.

use smallvec::SmallVec;

use crate::error::{ErrorKind, Result};
use crate::htuple::{push_rank, Leaves, Nodes, LEAF};
use crate::integer::Integer;
use crate::sym::SymInt;
use crate::{Layout, Scalar};

/// Inline list of integers (the integer strides of a small layout).
pub(crate) type Ints = SmallVec<[i64; 8]>;

/// A stride leaf: `i64` or [`Scalar`].
pub(crate) trait StrideLeaf: Clone + PartialEq + std::fmt::Display {
    /// The leaf as a [`Scalar`] (the result layouts store scalars).
    fn into_scalar(self) -> Scalar;
    /// The integer zero (the stride of an added `1:0` mode).
    fn zero() -> Self;
    /// True for the zero of its algebra (`0`, `F0`, a zero coordinate).
    fn is_zero(&self) -> bool;
    /// The stride order of the algebra (`type` error where two values
    /// cannot be ordered).
    fn try_cmp(&self, other: &Self) -> Result<std::cmp::Ordering>;
    /// `self * n` (`overflow` beyond 64 bits).
    fn mul_int(&self, n: i64) -> Result<Self>;
    /// The value and the codomain axis of a basis value (`v@path`; an
    /// integer or F2 value is on the axis `()`); `type` for a stride with
    /// several nonzero terms.
    fn axis_value(&self) -> Result<(i64, crate::stride::Path)>;
    /// `self + other` (`overflow` beyond 64 bits; `type` across algebras).
    fn add(&self, other: &Self) -> Result<Self>;
    /// True for a nonzero F2 value.
    fn is_nonzero_f2(&self) -> bool;
    /// `L(i)` of the flat modes `modes` (the last mode takes the rest of
    /// the index), as `Layout::eval_index`: for integers an `overflow`
    /// only when the value itself leaves 64 bits.
    fn eval_flat(modes: &[(i64, Self)], i: i64) -> Result<Self>;
    /// Coalesce's merge rule: does a mode `s:d` continue the previous mode
    /// `sa:da`? `d == sa*da`, and for F2 strides also
    /// `(sa-1)*da + d == (2*sa-1)*da` (docs/operations.md, `coalesce`). A
    /// product beyond 64 bits cannot equal a stride, so it is "no".
    fn continues(da: &Self, sa: i64, d: &Self) -> Result<bool>;
    /// The stride `s` as this leaf (for `i64`, the integer of `s`: read
    /// only where every stride read is an integer).
    fn of_scalar(s: &Scalar) -> Self;
    /// True for an F2 value or a coordinate value with an F2 child.
    fn has_f2(&self) -> bool;
}

impl StrideLeaf for i64 {
    #[inline(always)]
    fn into_scalar(self) -> Scalar {
        Scalar::Int(self)
    }
    #[inline(always)]
    fn zero() -> i64 {
        0
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        *self == 0
    }
    #[inline(always)]
    fn try_cmp(&self, other: &i64) -> Result<std::cmp::Ordering> {
        Ok(self.cmp(other))
    }
    #[inline(always)]
    fn mul_int(&self, n: i64) -> Result<i64> {
        crate::int::mul(*self, n)
    }
    #[inline(always)]
    fn axis_value(&self) -> Result<(i64, crate::stride::Path)> {
        Ok((*self, crate::stride::Path::new()))
    }
    #[inline(always)]
    fn add(&self, other: &i64) -> Result<i64> {
        crate::int::add(*self, *other)
    }
    #[inline(always)]
    fn is_nonzero_f2(&self) -> bool {
        false
    }
    #[inline]
    fn eval_flat(modes: &[(i64, i64)], i: i64) -> Result<i64> {
        // the exact sum: an overflow only when the value does not fit,
        // whatever the order and the number of the terms
        let (mut q, mut acc) = (i, crate::int::ExactSum::default());
        for (k, &(s, d)) in modes.iter().enumerate() {
            let digit = if k + 1 == modes.len() {
                q
            } else {
                let (qq, r) = crate::int::floor_divmod(q, s)?;
                q = qq;
                r
            };
            acc.add_product(digit, d);
        }
        acc.offset()
    }
    #[inline(always)]
    fn continues(da: &i64, sa: i64, d: &i64) -> Result<bool> {
        Ok(da.checked_mul(sa) == Some(*d))
    }
    #[inline(always)]
    fn of_scalar(s: &Scalar) -> i64 {
        s.as_int().unwrap_or(0)
    }
    #[inline(always)]
    fn has_f2(&self) -> bool {
        false
    }
}

impl StrideLeaf for Scalar {
    #[inline(always)]
    fn into_scalar(self) -> Scalar {
        self
    }
    #[inline(always)]
    fn zero() -> Scalar {
        Scalar::Int(0)
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        Scalar::is_zero(self)
    }
    fn try_cmp(&self, other: &Scalar) -> Result<std::cmp::Ordering> {
        Scalar::try_cmp(self, other)
    }
    fn mul_int(&self, n: i64) -> Result<Scalar> {
        Scalar::mul_int(self, n)
    }
    fn axis_value(&self) -> Result<(i64, crate::stride::Path)> {
        let (val, path) = self.basis_term()?;
        match val {
            Scalar::Int(v) | Scalar::F2(v) => Ok((v, path)),
            Scalar::Coord(_) => Err(crate::Error::type_(format!(
                "stride {self} is not a basis value"
            ))),
        }
    }
    fn add(&self, other: &Scalar) -> Result<Scalar> {
        Scalar::add(self, other)
    }
    fn is_nonzero_f2(&self) -> bool {
        self.is_f2() && !Scalar::is_zero(self)
    }
    fn eval_flat(modes: &[(i64, Scalar)], i: i64) -> Result<Scalar> {
        if let Some(ints) = modes
            .iter()
            .map(|(s, d)| d.as_int().map(|v| (*s, v)))
            .collect::<Option<SmallVec<[(i64, i64); 8]>>>()
        {
            return i64::eval_flat(&ints, i).map(Scalar::Int);
        }
        let (mut q, mut acc) = (i, Scalar::Int(0));
        for (k, (s, d)) in modes.iter().enumerate() {
            let digit = if k + 1 == modes.len() {
                q
            } else {
                let (qq, r) = crate::int::floor_divmod(q, *s)?;
                q = qq;
                r
            };
            acc = acc.add(&d.mul_int(digit)?)?;
        }
        Ok(acc)
    }
    fn continues(da: &Scalar, sa: i64, d: &Scalar) -> Result<bool> {
        if let (Scalar::Int(x), Scalar::Int(y)) = (da, d) {
            return i64::continues(x, sa, y);
        }
        let scaled = match da.mul_int(sa) {
            Ok(p) => p == *d,
            Err(e) if e.kind() == ErrorKind::Overflow => false,
            Err(e) => return Err(e),
        };
        Ok(scaled && f2_second_test(sa, da, d)?)
    }
    #[inline(always)]
    fn of_scalar(s: &Scalar) -> Scalar {
        s.clone()
    }
    fn has_f2(&self) -> bool {
        has_f2(self, 0)
    }
}

/// A stride leaf over extents of the integer `E`: what the kernels shared
/// by concrete and symbolic layouts (fold, the complement of an axis, the
/// chain of right_inverse, the composition base case) ask of a stride.
/// Every [`StrideLeaf`] is one over `i64` extents; [`SymInt`] is one over
/// symbolic extents. A question the symbols' facts do not decide is an
/// error that names it (`docs/language.md`, "Symbols": nothing is taken
/// on faith).
pub(crate) trait Leaf<E: Integer>: Clone + PartialEq + std::fmt::Display {
    /// The zero stride.
    fn zero_leaf() -> Self;
    /// `self * n`. Errors: `overflow`.
    fn mul_ext(&self, n: &E) -> Result<Self>;
    /// Coalesce's merge rule ([`StrideLeaf::continues`]): does `s:d`
    /// continue `sa:da`?
    fn continues_ext(da: &Self, sa: &E, d: &Self) -> Result<bool>;
    /// Whether the extent `s` is 1 (`None` where the symbols' facts do not
    /// decide it: the fold then takes both readings and needs them to
    /// agree).
    fn unit_extent(s: &E) -> Option<bool>;
    /// Whether the stride is zero (an error where it is not decided).
    fn zero_decided(&self) -> Result<bool>;
    /// Whether `self == o` (an error where it is not decided).
    fn eq_decided(&self, o: &Self) -> Result<bool>;
    /// The stride order (an error where it is not decided, or where the
    /// algebra has none).
    fn order(&self, o: &Self) -> Result<std::cmp::Ordering>;
}

impl<D: StrideLeaf> Leaf<i64> for D {
    #[inline(always)]
    fn zero_leaf() -> D {
        D::zero()
    }
    #[inline(always)]
    fn mul_ext(&self, n: &i64) -> Result<D> {
        self.mul_int(*n)
    }
    #[inline(always)]
    fn continues_ext(da: &D, sa: &i64, d: &D) -> Result<bool> {
        D::continues(da, *sa, d)
    }
    #[inline(always)]
    fn unit_extent(s: &i64) -> Option<bool> {
        Some(*s == 1)
    }
    #[inline(always)]
    fn zero_decided(&self) -> Result<bool> {
        Ok(self.is_zero())
    }
    #[inline(always)]
    fn eq_decided(&self, o: &D) -> Result<bool> {
        Ok(self == o)
    }
    #[inline(always)]
    fn order(&self, o: &D) -> Result<std::cmp::Ordering> {
        self.try_cmp(o)
    }
}

impl Leaf<SymInt> for SymInt {
    fn zero_leaf() -> SymInt {
        SymInt::from(0)
    }
    fn mul_ext(&self, n: &SymInt) -> Result<SymInt> {
        self.mul(n)
    }
    fn continues_ext(da: &SymInt, sa: &SymInt, d: &SymInt) -> Result<bool> {
        // decided: the operations that fold first (the inverses, the
        // complement, composition) read the folded modes, so a merge must
        // happen exactly where it would for every admissible value
        let p = da.mul(sa)?;
        d.sub(&p)?.proven_zero().ok_or_else(|| {
            undecided(format_args!(
                "whether the stride {d} continues the mode {sa}:{da} (is {p})"
            ))
        })
    }
    fn unit_extent(s: &SymInt) -> Option<bool> {
        s.sub(&SymInt::from(1)).ok()?.proven_zero()
    }
    fn zero_decided(&self) -> Result<bool> {
        self.proven_zero()
            .ok_or_else(|| undecided(format_args!("whether the stride {self} is 0")))
    }
    fn eq_decided(&self, o: &SymInt) -> Result<bool> {
        self.sub(o)?
            .proven_zero()
            .ok_or_else(|| undecided(format_args!("whether {self} and {o} are equal")))
    }
    fn order(&self, o: &SymInt) -> Result<std::cmp::Ordering> {
        use std::cmp::Ordering;
        match (self.lt(o), o.lt(self)) {
            (Some(true), _) => Ok(Ordering::Less),
            (_, Some(true)) => Ok(Ordering::Greater),
            (Some(false), Some(false)) => Ok(Ordering::Equal),
            _ => Err(undecided(format_args!(
                "the order of the strides {self} and {o}"
            ))),
        }
    }
}

/// A symbolic stride for `coalesce` alone: two modes merge where the rule
/// holds as polynomials and stay apart otherwise (both are the same
/// function, so coalesce needs no decision).
#[derive(Clone, PartialEq)]
pub(crate) struct Loose(pub(crate) SymInt);

impl std::fmt::Display for Loose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Leaf<SymInt> for Loose {
    fn zero_leaf() -> Loose {
        Loose(SymInt::from(0))
    }
    fn mul_ext(&self, n: &SymInt) -> Result<Loose> {
        Ok(Loose(self.0.mul(n)?))
    }
    fn continues_ext(da: &Loose, sa: &SymInt, d: &Loose) -> Result<bool> {
        match da.0.mul(sa) {
            Ok(p) => Ok(p == d.0),
            Err(e) if e.kind() == ErrorKind::Overflow => Ok(false),
            Err(e) => Err(e),
        }
    }
    fn unit_extent(s: &SymInt) -> Option<bool> {
        // (a size-1 mode kept or dropped: the same function)
        Some(s.as_const() == Some(1))
    }
    fn zero_decided(&self) -> Result<bool> {
        self.0.zero_decided()
    }
    fn eq_decided(&self, o: &Loose) -> Result<bool> {
        self.0.eq_decided(&o.0)
    }
    fn order(&self, o: &Loose) -> Result<std::cmp::Ordering> {
        self.0.order(&o.0)
    }
}

/// The `value` error of a question about symbols that their facts do not
/// decide.
#[cold]
pub(crate) fn undecided(what: std::fmt::Arguments<'_>) -> crate::Error {
    crate::Error::value(format!(
        "the symbols' facts do not decide {what} (declare more with `assume`: a divisor \
         `N % k == 0` or a lower bound `N >= b`)"
    ))
}

/// `Some(answer)` decided, else the error of an undecided question `what`.
#[inline(always)]
pub(crate) fn decided(d: Option<bool>, what: impl FnOnce() -> String) -> Result<bool> {
    match d {
        Some(b) => Ok(b),
        None => Err(undecided(format_args!("{}", what()))),
    }
}

/// The second half of the merge rule, `(sa-1)*da + d == (2*sa-1)*da`,
/// given that `d == sa*da` holds. It always holds for integer strides and
/// for coordinate strides with integer children; for an F2 stride `da` it
/// holds exactly when `da` is `F0` or `sa` is a power of two (carry-less
/// products are injective for `da != F0`). A coordinate stride with an F2
/// child (`F1@0`) is tested as written, child by child: `(3,2):(F1@0,F3@0)`
/// does not merge (at index 5 it is `F1@0`, `6:F1@0` would give `F5@0`).
fn f2_second_test(sa: i64, da: &Scalar, d: &Scalar) -> Result<bool> {
    if !(has_f2(da, 0) || has_f2(d, 0)) || da.is_zero() {
        return Ok(true);
    }
    if da.is_f2() {
        return Ok(sa > 0 && sa & (sa - 1) == 0);
    }
    // an integer or coordinate `da` with an F2 value in play: evaluate the
    // rule as written (mixed algebras raise `type` here; a product beyond
    // 64 bits cannot equal a stride, so it is "no")
    let rule = || -> Result<bool> {
        let lhs = da.mul_int(crate::int::sub(sa, 1)?)?.add(d)?;
        let rhs = da.mul_int(crate::int::sub(crate::int::mul(2, sa)?, 1)?)?;
        Ok(lhs == rhs)
    };
    match rule() {
        Err(e) if e.kind() == ErrorKind::Overflow => Ok(false),
        r => r,
    }
}

/// True when `x` is an F2 value or a coordinate value with an F2 child
/// (at any depth; the depth is bounded by the value's construction).
fn has_f2(x: &Scalar, depth: usize) -> bool {
    match x {
        Scalar::F2(_) => true,
        Scalar::Int(_) => false,
        Scalar::Coord(c) => {
            depth <= crate::htuple::MAX_DEPTH && c.children().iter().any(|ch| has_f2(ch, depth + 1))
        }
    }
}

/// The integer strides of `l`, if every stride is an integer.
#[inline(always)]
pub(crate) fn int_strides(l: &Layout) -> Option<Ints> {
    let mut out = Ints::new();
    int_strides_into(l, &mut out)?;
    Some(out)
}

/// [`int_strides`] written into `out` (cleared first; partly written on
/// `None`): on hot paths, where returning the list would copy it.
#[inline(always)]
pub(crate) fn int_strides_into(l: &Layout, out: &mut Ints) -> Option<()> {
    out.clear();
    for d in l.stride().leaves() {
        match d {
            Scalar::Int(v) => out.push(*v),
            _ => return None,
        }
    }
    Some(())
}

/// Appends the flat modes `modes` to the parts of a layout being built: a
/// leaf for one mode, `1:0` for none, a flat tuple otherwise (the
/// "unwrap" of a folded list). The stride's node bytes are the shape's:
/// the caller copies them when the layout is complete.
#[inline]
pub(crate) fn push_flat<D: StrideLeaf>(
    modes: &[(i64, D)],
    nodes: &mut Nodes,
    sh: &mut Leaves<i64>,
    st: &mut Leaves<Scalar>,
) {
    match modes {
        [] => {
            nodes.push(LEAF);
            sh.push(1);
            st.push(Scalar::Int(0));
        }
        [(s, d)] => {
            nodes.push(LEAF);
            sh.push(*s);
            st.push(d.clone().into_scalar());
        }
        _ => {
            // (each list extended at once: one capacity check per list)
            push_rank(nodes, modes.len());
            nodes.extend(std::iter::repeat_n(LEAF, modes.len()));
            sh.extend(modes.iter().map(|m| m.0));
            st.extend(modes.iter().map(|m| m.1.clone().into_scalar()));
        }
    }
}

/// The layout of the flat modes `modes` ([`push_flat`]).
#[cfg(test)]
pub(crate) fn flat_layout<D: StrideLeaf>(modes: &[(i64, D)]) -> Layout {
    let mut out = Layout::blank();
    unwrapped_into(modes, &mut out);
    out
}

/// The layout of the flat modes `modes` ([`push_flat`]), built in `out`
/// (its earlier value discarded, its storage reused).
#[inline]
pub(crate) fn unwrapped_into<D: StrideLeaf>(modes: &[(i64, D)], out: &mut Layout) {
    out.reset();
    let ((nodes, sh), st) = out.raw_mut();
    push_flat(modes, nodes, sh, st);
}

/// Sorts `v` stably by `cmp` (insertion sort: the lists are a layout's
/// modes, short), stopping at the first error of `cmp`.
pub(crate) fn sort_stable_by<T>(
    v: &mut [T],
    mut cmp: impl FnMut(&T, &T) -> Result<std::cmp::Ordering>,
) -> Result<()> {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && cmp(&v[j], &v[j - 1])? == std::cmp::Ordering::Less {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}
