//! Shapes and coordinates (`docs/operations.md`): size, the
//! colexicographic conversions `idx2crd` / `crd2idx` (the last mode absorbs
//! overflow; floor division for negative indices).

use std::fmt;

use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, MAX_DEPTH};
use crate::int;
use crate::integer::Integer;
use crate::stride::Scalar;
use crate::sym::SymInt;

/// A shape: an HTuple of positive integers.
pub type Shape = HTuple<i64>;

/// A coordinate: an HTuple whose leaves are integers (or F2 / coordinate
/// values used as indices), with `None` standing for `_` (slicing).
pub type Coord = HTuple<Option<Scalar>>;

/// `size(S)`: the product of the leaves (1 for `()`), or an `overflow` error;
/// for any [`Integer`] leaves (a symbolic shape has a symbolic size).
///
/// ```
/// use rcute::{HTuple, shape::size};
/// assert_eq!(size(HTuple::flat([3i64, 4]).as_ref()).unwrap(), 12);
/// ```
#[inline]
pub fn size<I: Integer>(s: HRef<'_, I>) -> Result<I> {
    let mut p = I::from_i64(1);
    for v in s.leaves() {
        p = p.mul(v)?;
    }
    Ok(p)
}

/// `idx2crd(c, S)`: the natural coordinate of `c` in shape `S`
/// (`docs/operations.md`). `c` may be integral, flat or natural (any
/// coordinate weakly congruent to `S`), may contain `None` (zeros), and
/// may hold coordinate values (padded to `S`'s profile) or F2 values (divided
/// polynomially by each extent but the last, on shapes whose running
/// product does not carry).
///
/// Errors: `rank` for a tuple coordinate against a leaf shape or a length
/// mismatch; `value` for an F2 index against a shape that carries (an
/// extent `e` with `clmul(p, e) != p * e` for the product `p` of the extents
/// before it, the last extent excepted) or a negative F2 index, and
/// for an integer index split over a tuple shape with an extent 0
/// (`idx2crd(7, (3,0))`).
///
/// ```
/// use rcute::{HTuple, Scalar, shape::idx2crd};
/// let s = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([2i64, 4])]);
/// let c = HTuple::leaf(Some(Scalar::Int(100)));
/// assert_eq!(idx2crd(c.as_ref(), s.as_ref()).unwrap().to_string(), "(1, (1, 16))");
/// ```
pub fn idx2crd(c: HRef<'_, Option<Scalar>>, s: HRef<'_, i64>) -> Result<HTuple<Scalar>> {
    let mut b = Builder::new();
    idx2crd_rec(
        c,
        s,
        &mut b,
        0,
        &mut |x, s, b, depth| idx2crd_scalar(x.as_ref(), s, b, depth),
        &|c| DisplayCoord(c).to_string(),
    )?;
    Ok(b.finish())
}

/// What `idx2crd`'s recursion does with a leaf of the coordinate: the
/// leaf, its sub-shape, the builder of the result and the depth.
type Idx2crdLeaf<'f, T, I, O> =
    dyn FnMut(&T, HRef<'_, I>, &mut Builder<O>, usize) -> Result<()> + 'f;

/// What `crd2idx`'s walk does with a leaf of the coordinate: the leaf, its
/// weight and its sub-shape.
type Crd2idxLeaf<'f, T, I> = dyn FnMut(&T, &I, HRef<'_, I>) -> Result<()> + 'f;

/// The recursion of `idx2crd` over a coordinate with leaves `T` and a shape
/// with leaves `I`: tuples against tuples mode by mode, each leaf of the
/// coordinate handed to `leaf` with its sub-shape.
fn idx2crd_rec<T, I: fmt::Display, O>(
    c: HRef<'_, T>,
    s: HRef<'_, I>,
    b: &mut Builder<O>,
    depth: usize,
    leaf: &mut Idx2crdLeaf<'_, T, I, O>,
    show: &dyn Fn(HRef<'_, T>) -> String,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("idx2crd: nesting too deep"));
    }
    match c.as_leaf() {
        Some(x) => leaf(x, s, b, depth),
        None => {
            if s.is_leaf() {
                return Err(Error::rank(format!(
                    "idx2crd: tuple coordinate {} for the leaf shape {s}",
                    show(c)
                )));
            }
            if c.rank() != s.rank() {
                return Err(Error::rank(format!(
                    "idx2crd: coordinate {} has {} modes, shape {s} has {}",
                    show(c),
                    c.rank(),
                    s.rank()
                )));
            }
            b.open();
            for (cm, sm) in c.modes().zip(s.modes()) {
                idx2crd_rec(cm, sm, b, depth + 1, leaf, show)?;
            }
            b.close();
            Ok(())
        }
    }
}

/// The colexicographic split of the index `i` over the extents `leaves`:
/// each leaf but the last the remainder of a floor division by its extent,
/// the last the remaining quotient (`idx2crd` of an integer index on a
/// tuple shape), passed to `out` in order; for any [`Integer`].
fn split_index<I: Integer>(i: &I, leaves: &[I], out: &mut dyn FnMut(I)) -> Result<()> {
    let mut q = i.clone();
    for (k, e) in leaves.iter().enumerate() {
        if k + 1 == leaves.len() {
            out(q);
            return Ok(());
        }
        let (qq, r) = q.floor_divmod(e)?;
        out(r);
        q = qq;
    }
    Ok(())
}

/// `idx2crd(c, S)` for symbolic integers: the coordinate `c` (an index, or
/// a tuple weakly congruent to `S` whose leaves are indices of its
/// sub-shapes) and the shape `S` with [`SymInt`] leaves; the divisions stay
/// symbolic where the symbols' facts do not resolve them:
/// `idx2crd(7, (N, 4))` is `(7 % N, 7//N)`. Errors: those of [`idx2crd`].
///
/// ```
/// use rcute::{HTuple, shape::idx2crd_sym, sym::{Facts, SymInt}};
/// let mut f = Facts::new();
/// f.declare("N").unwrap();
/// let s = HTuple::flat([SymInt::symbol(&f, "N").unwrap(), SymInt::from(4)]);
/// let c = HTuple::leaf(SymInt::from(7));
/// assert_eq!(idx2crd_sym(c.as_ref(), s.as_ref()).unwrap().to_string(), "(7 % N, 7//N)");
/// ```
pub fn idx2crd_sym(c: HRef<'_, SymInt>, s: HRef<'_, SymInt>) -> Result<HTuple<SymInt>> {
    let mut b = Builder::new();
    idx2crd_rec(
        c,
        s,
        &mut b,
        0,
        &mut |i, s, b, _| {
            if s.is_leaf() {
                b.leaf(i.clone());
                return Ok(());
            }
            if s.leaves().iter().any(|e| e.as_const() == Some(0)) {
                return Err(Error::value(format!(
                    "idx2crd: the shape {s} has an extent 0, so no index {i} lies in it"
                )));
            }
            let mut out: Vec<SymInt> = Vec::with_capacity(s.num_leaves());
            split_index(i, s.leaves(), &mut |x| out.push(x))?;
            b.push_with_profile(s, out);
            Ok(())
        },
        &|c| c.to_string(),
    )?;
    Ok(b.finish())
}

/// The leaves of `idx2crd(i, S)` for an integer `i` and a tuple shape `S`
/// (each leaf but the last the remainder of a floor division by its
/// extent, the last the remaining quotient), as `idx2crd` computes them,
/// appended to `out`; `None` where `idx2crd` reports an error (a zero
/// extent, an overflow).
#[inline]
pub(crate) fn idx2crd_int_leaves(
    i: i64,
    s: HRef<'_, i64>,
    out: &mut smallvec::SmallVec<[i64; 8]>,
) -> Option<()> {
    let leaves = s.leaves();
    if leaves.contains(&0) {
        return None;
    }
    let mut q = i;
    for (k, &e) in leaves.iter().enumerate() {
        if k + 1 == leaves.len() {
            out.push(q);
        } else {
            // (`fdm` takes one unsigned division in the common case)
            let (qq, r) = crate::int::fdm(q, e)?;
            out.push(r);
            q = qq;
        }
    }
    Some(())
}

fn idx2crd_scalar(
    c: Option<&Scalar>,
    s: HRef<'_, i64>,
    b: &mut Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("idx2crd: nesting too deep"));
    }
    match c {
        None => {
            b.push_with_profile(s, std::iter::repeat_n(Scalar::Int(0), s.num_leaves()));
            Ok(())
        }
        Some(Scalar::Int(i)) => {
            let i = *i;
            if s.is_leaf() {
                b.leaf(Scalar::Int(i));
                return Ok(());
            }
            let leaves = s.leaves();
            if leaves.contains(&0) {
                return Err(Error::value(format!(
                    "idx2crd: the shape {s} has an extent 0, so no index {i} lies in it"
                )));
            }
            let mut out: smallvec::SmallVec<[Scalar; 8]> = smallvec::SmallVec::new();
            split_index(&i, leaves, &mut |x| out.push(Scalar::Int(x)))?;
            b.push_with_profile(s, out);
            Ok(())
        }
        Some(Scalar::F2(v)) => {
            // the carry-free rule: each extent before the last divides the
            // index polynomially (`f2::divmod`), which round-trips through
            // `crd2idx` exactly when the running product never carries
            let leaves = s.leaves();
            let mut out: smallvec::SmallVec<[Scalar; 8]> = smallvec::SmallVec::new();
            let mut rest = *v;
            let mut p: i64 = 1;
            for (k, &e) in leaves.iter().enumerate() {
                if k + 1 == leaves.len() {
                    out.push(Scalar::F2(rest));
                } else {
                    if e <= 0 {
                        return Err(Error::value(format!(
                            "idx2crd: the F2 index F{v} against the extent {e} of {s}"
                        )));
                    }
                    let np = int::mul(p, e)?;
                    if crate::f2::clmul(p, e)? != np {
                        return Err(Error::value(format!(
                            "idx2crd: the shape {s} carries ({p} * {e} differs carry-less), \
                             so the F2 index F{v} has no coordinate in it"
                        )));
                    }
                    p = np;
                    let (q, r) = crate::f2::divmod(rest, e)?;
                    out.push(Scalar::F2(r));
                    rest = q;
                }
            }
            b.push_with_profile(s, out);
            Ok(())
        }
        Some(x @ Scalar::Coord(ch)) => {
            if s.is_leaf() {
                return Err(Error::rank(format!(
                    "idx2crd: coordinate value {x} against the leaf shape {s}"
                )));
            }
            let ch = ch.children();
            if ch.len() > s.rank() {
                return Err(Error::rank(format!(
                    "idx2crd: coordinate value {x} has {} positions, shape {s} has {}",
                    ch.len(),
                    s.rank()
                )));
            }
            b.open();
            for (k, sm) in s.modes().enumerate() {
                let zero = Scalar::Int(0);
                idx2crd_scalar(Some(ch.get(k).unwrap_or(&zero)), sm, b, depth + 1)?;
            }
            b.close();
            Ok(())
        }
    }
}

/// `crd2idx(c, S)`: the integral coordinate of `c` (colexicographic weights;
/// no bounds checks). Errors: `rank` for a tuple coordinate against a leaf
/// shape, a length mismatch or a `None` leaf; `type` for non-integer leaves.
///
/// ```
/// use rcute::{HTuple, Scalar, shape::crd2idx};
/// let s = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([2i64, 4])]);
/// let c = HTuple::tuple([HTuple::leaf(Some(Scalar::Int(1))), HTuple::flat([Some(Scalar::Int(2)), Some(Scalar::Int(3))])]);
/// assert_eq!(crd2idx(c.as_ref(), s.as_ref()).unwrap(), 25);
/// ```
pub fn crd2idx(c: HRef<'_, Option<Scalar>>, s: HRef<'_, i64>) -> Result<i64> {
    // a natural coordinate of integers: the colexicographic inner product
    // directly (on overflow the walk below reports the error)
    if c.congruent(s) {
        let mut acc: Option<i64> = Some(0);
        let mut weight: Option<i64> = Some(1);
        let mut previous: Option<i64> = None;
        for (x, &e) in c.leaves().iter().zip(s.leaves()) {
            if let Some(p) = previous {
                weight = weight.and_then(|w| w.checked_mul(p));
            }
            previous = Some(e);
            acc = match (acc, weight, x) {
                (Some(a), Some(w), Some(Scalar::Int(v))) => {
                    v.checked_mul(w).and_then(|p| a.checked_add(p))
                }
                _ => None,
            };
        }
        if let Some(a) = acc {
            return Ok(a);
        }
    }
    let mut acc = 0i64;
    crd2idx_walk(
        c,
        s,
        &mut |x, w, s| match x {
            Some(Scalar::Int(v)) => {
                acc = int::add(acc, int::mul(*v, *w)?)?;
                Ok(())
            }
            Some(x) => Err(Error::type_(format!(
                "crd2idx: {x} is not an integer coordinate"
            ))),
            None => Err(none_coordinate(s)),
        },
        &|c| DisplayCoord(c).to_string(),
    )?;
    Ok(acc)
}

/// The walk of [`crd2idx`] and [`crd2idx_value`]: each leaf `c_k` of the
/// coordinate is passed to `leaf` with its weight `P_k` (the prefix
/// product of the extents before it; the sub-shape of the last leaf is
/// never multiplied in, so that an unused product cannot overflow).
/// Errors: `rank` for a tuple against a leaf extent, a length mismatch or a
/// `None` leaf; `value` past [`MAX_DEPTH`]; those of `leaf`.
fn crd2idx_walk<'a, T, I: Integer>(
    c: HRef<'_, T>,
    s: HRef<'a, I>,
    leaf: &mut Crd2idxLeaf<'_, T, I>,
    show: &dyn Fn(HRef<'_, T>) -> String,
) -> Result<()> {
    /// The weight of the next leaf, and the sub-shape whose size still has
    /// to be folded into it.
    struct St<'a, I> {
        weight: I,
        pending: Option<HRef<'a, I>>,
    }
    fn rec<'a, T, I: Integer>(
        c: HRef<'_, T>,
        s: HRef<'a, I>,
        st: &mut St<'a, I>,
        leaf: &mut Crd2idxLeaf<'_, T, I>,
        show: &dyn Fn(HRef<'_, T>) -> String,
        depth: usize,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::value("crd2idx: nesting too deep"));
        }
        match c.as_leaf() {
            Some(x) => {
                if let Some(p) = st.pending.take() {
                    st.weight = st.weight.mul(&size(p)?)?;
                }
                leaf(x, &st.weight, s)?;
                st.pending = Some(s);
                Ok(())
            }
            None => {
                if s.is_leaf() || s.rank() != c.rank() {
                    return Err(Error::rank(format!(
                        "crd2idx: coordinate {} does not match the shape {s}",
                        show(c)
                    )));
                }
                for (cm, sm) in c.modes().zip(s.modes()) {
                    rec(cm, sm, st, leaf, show, depth + 1)?;
                }
                Ok(())
            }
        }
    }
    let mut st = St {
        weight: I::from_i64(1),
        pending: None,
    };
    rec(c, s, &mut st, leaf, show, 0)
}

/// `crd2idx(c, S)` for symbolic integers: the coordinate (weakly congruent
/// to `S`) and the shape with [`SymInt`] leaves; the colexicographic sum
/// `Σ c_k * P_k` as a polynomial. Errors: those of [`crd2idx`].
///
/// ```
/// use rcute::{HTuple, shape::crd2idx_sym, sym::{Facts, SymInt}};
/// let mut f = Facts::new();
/// f.declare("N").unwrap();
/// let n = SymInt::symbol(&f, "N").unwrap();
/// let s = HTuple::flat([n.clone(), SymInt::from(4)]);
/// let c = HTuple::flat([SymInt::from(3), SymInt::from(2)]);
/// assert_eq!(crd2idx_sym(c.as_ref(), s.as_ref()).unwrap().to_string(), "2*N + 3");
/// ```
pub fn crd2idx_sym(c: HRef<'_, SymInt>, s: HRef<'_, SymInt>) -> Result<SymInt> {
    let mut acc = SymInt::from(0);
    crd2idx_walk(
        c,
        s,
        &mut |x, w, _| {
            acc = acc.add(&x.mul(w)?)?;
            Ok(())
        },
        &|c| c.to_string(),
    )?;
    Ok(acc)
}

/// `crd2idx(c, S)` for a coordinate that may hold F2 values
/// (`docs/operations.md`): with only integer leaves it is [`crd2idx`] (an
/// integer); with an F2 leaf the same sum of `c_k * P_k` (`P` the integer
/// prefix products of the extents `c` is weakly congruent to) is taken with
/// carry-less products and XOR, giving an F2 value. An F2 scalar
/// coordinate passes through; integer leaves `0` mix with F2 leaves.
/// It inverts [`idx2crd`] of an F2 index on the shapes that function
/// accepts: `crd2idx(idx2crd(F22, (3,3)), (3,3)) == F22`.
///
/// Errors: those of [`crd2idx`]; `type` for a nonzero integer leaf next to
/// an F2 leaf, or a coordinate-value leaf next to one; `overflow` past 64
/// bits.
///
/// ```
/// use rcute::{HTuple, Scalar, shape::crd2idx_value};
/// let s = HTuple::flat([4i64, 8]);
/// let c = HTuple::flat([Some(Scalar::F2(2)), Some(Scalar::F2(5))]);
/// assert_eq!(crd2idx_value(c.as_ref(), s.as_ref()).unwrap(), Scalar::F2(22));
/// let i = HTuple::flat([Some(Scalar::Int(2)), Some(Scalar::Int(5))]);
/// assert_eq!(crd2idx_value(i.as_ref(), s.as_ref()).unwrap(), Scalar::Int(22));
/// ```
pub fn crd2idx_value(c: HRef<'_, Option<Scalar>>, s: HRef<'_, i64>) -> Result<Scalar> {
    if !c.leaves().iter().any(|x| matches!(x, Some(Scalar::F2(_)))) {
        return crd2idx(c, s).map(Scalar::Int);
    }
    let mut acc = 0i64;
    crd2idx_walk(
        c,
        s,
        &mut |x, w, s| {
            let v = match x {
                Some(Scalar::F2(v) | Scalar::Int(v @ 0)) => *v,
                Some(x) => {
                    return Err(Error::type_(format!(
                        "crd2idx: the coordinate mixes F2 values with the {} {x}",
                        x.kind_name()
                    )))
                }
                None => return Err(none_coordinate(s)),
            };
            acc ^= crate::f2::clmul(v, *w)?;
            Ok(())
        },
        &|c| DisplayCoord(c).to_string(),
    )?;
    Ok(Scalar::F2(acc))
}

/// The error of a `None` leaf in a coordinate that `crd2idx` reads.
fn none_coordinate(s: HRef<'_, i64>) -> Error {
    Error::rank(format!("crd2idx: None coordinate for shape {s}"))
}

/// Displays a coordinate with `None` for `_` leaves.
pub struct DisplayCoord<'a>(pub HRef<'a, Option<Scalar>>);

impl std::fmt::Display for DisplayCoord<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cpp = f.alternate();
        self.0.write_with(f, cpp, &mut |v, f| match v {
            None => f.write_str(if cpp { "_" } else { "None" }),
            Some(s) => {
                if cpp {
                    write!(f, "{s:#}")
                } else {
                    write!(f, "{s}")
                }
            }
        })
    }
}

/// One node of a profile as seen by [`congruent`] / [`weakly_congruent`]:
/// a sub-tree of a coordinate HTuple, or a child of a coordinate value.
#[derive(Clone, Copy)]
enum Prof<'a> {
    H(HRef<'a, Option<Scalar>>),
    S(&'a Scalar),
}

impl<'a> Prof<'a> {
    /// The explicit children, if this node is a basis (coordinate) value.
    fn basis(self) -> Option<&'a [Scalar]> {
        match self {
            Prof::H(h) => match h.as_leaf() {
                Some(Some(Scalar::Coord(c))) => Some(c.children()),
                _ => None,
            },
            Prof::S(Scalar::Coord(c)) => Some(c.children()),
            Prof::S(_) => None,
        }
    }

    /// The modes of a tuple, or the explicit children of a basis value
    /// (which the reference treats as a tuple); `None` for other leaves.
    fn tuple_like(self) -> Option<smallvec::SmallVec<[Prof<'a>; 8]>> {
        if let Some(ch) = self.basis() {
            return Some(ch.iter().map(Prof::S).collect());
        }
        match self {
            Prof::H(h) if !h.is_leaf() => Some(h.modes().map(Prof::H).collect()),
            _ => None,
        }
    }

    fn is_plain_tuple(self) -> bool {
        matches!(self, Prof::H(h) if !h.is_leaf())
    }
}

/// The basis-value rule (`docs/operations.md`): the coordinate value with
/// explicit children `xs` is weakly congruent to `p` iff `p` is a tuple with
/// at least `len(xs)` modes and each `xs[i]` is weakly congruent to `p[i]`.
fn basis_rule(xs: &[Scalar], p: Prof<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match p.tuple_like() {
        Some(ps) => {
            xs.len() <= ps.len()
                && xs
                    .iter()
                    .zip(ps)
                    .all(|(x, q)| weakly_rec(Prof::S(x), q, depth + 1))
        }
        None => false,
    }
}

fn congruent_rec(a: Prof<'_>, b: Prof<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if let Some(xs) = a.basis() {
        return basis_rule(xs, b, depth + 1);
    }
    if let Some(ys) = b.basis() {
        return basis_rule(ys, a, depth + 1);
    }
    match (a.tuple_like(), b.tuple_like()) {
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.into_iter()
                    .zip(y)
                    .all(|(p, q)| congruent_rec(p, q, depth + 1))
        }
        (None, None) => true,
        _ => false,
    }
}

fn weakly_rec(a: Prof<'_>, b: Prof<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if let Some(xs) = a.basis() {
        return basis_rule(xs, b, depth + 1);
    }
    if !a.is_plain_tuple() {
        return true;
    }
    match (a.tuple_like(), b.tuple_like()) {
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.into_iter()
                    .zip(y)
                    .all(|(p, q)| weakly_rec(p, q, depth + 1))
        }
        _ => false,
    }
}

/// `congruent(a, b)` (`docs/operations.md`): `a` and `b` have the same
/// profile. Takes two coordinate-like HTuples (leaves: integers, stride
/// scalars or `None`, which counts as a leaf) and returns a boolean.
///
/// If either side is a basis (coordinate) value, the basis-value rule
/// decides: a coordinate value with explicit children `(x_0, ..., x_{k-1})`
/// matches a tuple `p` iff `k <= len(p)` and each `x_i` is weakly congruent
/// to `p[i]` (a coordinate value on the other side counts as the tuple of
/// its explicit children). Otherwise two tuples must have equal lengths and
/// congruent modes, and two leaves are congruent. Never fails; nesting past
/// [`MAX_DEPTH`] answers `false`. PyCuTe `congruent`, C++ `congruent`.
///
/// ```
/// use rcute::{HTuple, Scalar, shape::congruent};
/// let c = |v: i64| Some(Scalar::Int(v));
/// let a = HTuple::flat([c(4), c(8)]);
/// let b = HTuple::flat([c(5), c(7)]);
/// assert!(congruent(a.as_ref(), b.as_ref()));
/// assert!(!congruent(HTuple::leaf(c(3)).as_ref(), HTuple::flat([c(3)]).as_ref()));
/// let e1 = HTuple::leaf(Some(Scalar::basis(1, &[1])));   // E(1)
/// assert!(congruent(e1.as_ref(), HTuple::flat([c(1), c(2)]).as_ref()));
/// assert!(congruent(HTuple::flat([c(1), c(2)]).as_ref(), e1.as_ref()));
/// assert!(!congruent(e1.as_ref(), HTuple::leaf(c(1)).as_ref()));
/// ```
pub fn congruent(a: HRef<'_, Option<Scalar>>, b: HRef<'_, Option<Scalar>>) -> bool {
    congruent_rec(Prof::H(a), Prof::H(b), 0)
}

/// `weakly_congruent(a, b)` (`docs/operations.md`): `a` coarsens `b`, i.e.
/// `b`'s profile is `a`'s with some leaves replaced by sub-trees. Takes two
/// coordinate-like HTuples and returns a boolean.
///
/// A basis value `a` is decided by the basis-value rule (see
/// [`congruent`]); a leaf `a` coarsens anything; a tuple `a` needs a tuple
/// `b` (a coordinate value `b` counts as the tuple of its explicit
/// children) of the same length with weakly congruent modes. Never fails;
/// nesting past [`MAX_DEPTH`] answers `false`. PyCuTe `weakly_congruent`,
/// C++ `weakly_congruent`.
///
/// ```
/// use rcute::{HTuple, Scalar, shape::weakly_congruent};
/// let c = |v: i64| Some(Scalar::Int(v));
/// let a = HTuple::leaf(c(30));
/// let b = HTuple::flat([c(3), c(4)]);
/// assert!(weakly_congruent(a.as_ref(), b.as_ref()));
/// assert!(!weakly_congruent(b.as_ref(), a.as_ref()));
/// let e01 = HTuple::leaf(Some(Scalar::basis(1, &[0, 1])));   // E(0,1)
/// assert!(!weakly_congruent(e01.as_ref(), b.as_ref()));
/// ```
pub fn weakly_congruent(a: HRef<'_, Option<Scalar>>, b: HRef<'_, Option<Scalar>>) -> bool {
    weakly_rec(Prof::H(a), Prof::H(b), 0)
}

fn check_depth(op: &str, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value(format!(
            "{op}: nesting deeper than {MAX_DEPTH} levels"
        )));
    }
    Ok(())
}

/// `compatible(a, b)` (`docs/operations.md`): `a` coarsens `b` and the
/// sizes agree, i.e. every coordinate of `a` is a coordinate of `b`.
///
/// Two tuples need equal lengths and compatible modes; an integer `a`
/// needs `a == size(b)`; a tuple `a` is never compatible with an integer
/// `b`. Errors: `overflow` when a size overflows 64 bits. PyCuTe
/// `is_compatible` / C++ `compatible`.
///
/// ```
/// use rcute::{HTuple, shape::compatible};
/// let s = HTuple::flat([2i64, 15]);
/// assert!(compatible(HTuple::leaf(30).as_ref(), s.as_ref()).unwrap());
/// assert!(!compatible(s.as_ref(), HTuple::leaf(30).as_ref()).unwrap());
/// ```
pub fn compatible(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<bool> {
    fn rec(a: HRef<'_, i64>, b: HRef<'_, i64>, depth: usize) -> Result<bool> {
        check_depth("compatible", depth)?;
        if let Some(&x) = a.as_leaf() {
            return Ok(x == size(b)?);
        }
        if b.is_leaf() || a.rank() != b.rank() {
            return Ok(false);
        }
        for (x, y) in a.modes().zip(b.modes()) {
            if !rec(x, y, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
    rec(a, b, 0)
}

/// `common_refinement(a, b)` (`docs/operations.md`): the finer of the two
/// shapes, leaf by leaf: two tuples recurse mode by mode, two equal
/// integers give that integer, an integer against a tuple of the same size
/// gives the tuple.
///
/// Errors: `rank` when two tuples differ in length; `value` for two
/// different integers ("incompatible leaves") or an integer against a tuple
/// of another size ("size mismatch"); `overflow` for sizes past 64 bits.
/// C++ CuTe's shape refinement; PyCuTe has no such function.
///
/// ```
/// use rcute::{HTuple, shape::common_refinement};
/// let a = HTuple::tuple([HTuple::leaf(6i64), HTuple::flat([2, 2])]);
/// let b = HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::leaf(4)]);
/// assert_eq!(common_refinement(a.as_ref(), b.as_ref()).unwrap().to_string(), "((2, 3), (2, 2))");
/// ```
pub fn common_refinement(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Shape> {
    fn rec(a: HRef<'_, i64>, b: HRef<'_, i64>, out: &mut Builder<i64>, depth: usize) -> Result<()> {
        check_depth("common_refinement", depth)?;
        match (a.as_leaf(), b.as_leaf()) {
            (Some(&x), Some(&y)) => {
                if x != y {
                    return Err(Error::value(format!(
                        "common_refinement: incompatible leaves {x} vs {y}"
                    )));
                }
                out.leaf(x);
            }
            (Some(&x), None) => {
                let sb = size(b)?;
                if x != sb {
                    return Err(Error::value(format!(
                        "common_refinement: size mismatch {x} vs {b} (size {sb})"
                    )));
                }
                out.push(b);
            }
            (None, Some(&y)) => {
                let sa = size(a)?;
                if sa != y {
                    return Err(Error::value(format!(
                        "common_refinement: size mismatch {a} (size {sa}) vs {y}"
                    )));
                }
                out.push(a);
            }
            (None, None) => {
                if a.rank() != b.rank() {
                    return Err(Error::rank(format!(
                        "common_refinement: rank mismatch {a} vs {b}"
                    )));
                }
                out.open();
                for (x, y) in a.modes().zip(b.modes()) {
                    rec(x, y, out, depth + 1)?;
                }
                out.close();
            }
        }
        Ok(())
    }
    let mut out = Builder::new();
    rec(a, b, &mut out, 0)?;
    Ok(out.finish())
}

/// `common_coarsening(a, b)` (`docs/operations.md`): the coarsest shape
/// that both `a` and `b` refine. Two tuples of equal length are coarsened
/// mode by mode; if that fails in some mode (or the lengths differ, or one
/// side is an integer), the level collapses to its size, which must be the
/// same on both sides.
///
/// Errors: `value` ("no common coarsening") when the sizes differ at a level
/// that has to collapse; `overflow` for sizes past 64 bits. C++ CuTe's
/// shape coarsening; PyCuTe has no such function.
///
/// ```
/// use rcute::{HTuple, shape::common_coarsening};
/// let a = HTuple::tuple([HTuple::leaf(4i64), HTuple::flat([3, 5])]);
/// let b = HTuple::tuple([HTuple::flat([2i64, 2]), HTuple::leaf(15)]);
/// assert_eq!(common_coarsening(a.as_ref(), b.as_ref()).unwrap().to_string(), "(4, 15)");
/// assert!(common_coarsening(HTuple::leaf(3).as_ref(), HTuple::leaf(4).as_ref()).is_err());
/// ```
pub fn common_coarsening(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Shape> {
    fn rec(a: HRef<'_, i64>, b: HRef<'_, i64>, depth: usize) -> Result<Shape> {
        check_depth("common_coarsening", depth)?;
        if !a.is_leaf() && !b.is_leaf() && a.rank() == b.rank() {
            let modes: Result<Vec<Shape>> = a
                .modes()
                .zip(b.modes())
                .map(|(x, y)| rec(x, y, depth + 1))
                .collect();
            if let Ok(modes) = modes {
                return Ok(HTuple::tuple(modes));
            }
        }
        let (sa, sb) = (size(a)?, size(b)?);
        if sa != sb {
            return Err(Error::value(format!(
                "common_coarsening: no common coarsening of {a} (size {sa}) and {b} (size {sb})"
            )));
        }
        Ok(HTuple::leaf(sa))
    }
    rec(a, b, 0)
}

/// `product_each(a)` (`docs/operations.md`): the flat tuple of the sizes
/// of `a`'s modes, e.g. `((2,(3,4)),(5,6),7)` gives `(24, 30, 7)`.
///
/// Errors: `type` for a leaf argument (the reference iterates over it);
/// `overflow` for a size past 64 bits. PyCuTe `product_each`, C++
/// `product_each`.
///
/// ```
/// use rcute::{HTuple, shape::product_each};
/// let a = HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::leaf(4)]);
/// assert_eq!(product_each(a.as_ref()).unwrap().to_string(), "(6, 4)");
/// assert!(product_each(HTuple::leaf(5).as_ref()).is_err());
/// ```
pub fn product_each(a: HRef<'_, i64>) -> Result<Shape> {
    if a.is_leaf() {
        return Err(Error::type_(format!(
            "product_each: the argument {a} is an integer, not a tuple"
        )));
    }
    let sizes = a.modes().map(size).collect::<Result<Vec<i64>>>()?;
    Ok(HTuple::flat(sizes))
}

/// The natural coordinates of a shape in colexicographic order
/// (`docs/operations.md`), produced lazily by [`coordinates`]: each item is
/// an HTuple congruent to the shape; the iterator knows its exact length.
///
/// ```
/// use rcute::{HTuple, shape::coordinates};
/// let s = HTuple::tuple([HTuple::leaf(2i64), HTuple::flat([2i64, 2])]);
/// let mut it = coordinates(s.as_ref()).unwrap();
/// assert_eq!(it.size_hint(), (8, Some(8)));
/// assert_eq!(it.nth(2).unwrap().to_string(), "(0, (1, 0))");
/// assert_eq!(it.count(), 5);
/// ```
pub struct Coordinates {
    shape: Shape,
    digits: smallvec::SmallVec<[i64; 8]>,
    remaining: u64,
}

impl Iterator for Coordinates {
    type Item = HTuple<i64>;

    fn next(&mut self) -> Option<HTuple<i64>> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let out = HTuple::unflatten(self.digits.iter().copied(), self.shape.as_ref()).ok();
        // advance the odometer: the first leaf varies fastest
        let extents = self.shape.leaves();
        let n = extents.len();
        for (k, (d, &e)) in self.digits.iter_mut().zip(extents).enumerate() {
            *d += 1;
            if *d < e || k + 1 == n {
                break;
            }
            *d = 0;
        }
        out
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, usize::try_from(self.remaining).ok())
    }
}

/// `coordinates(S)` (`docs/operations.md`): an iterator over the natural
/// coordinates of the shape `S` in colexicographic order (the leftmost leaf
/// varies fastest), i.e. `idx2crd(i, S)` for `i` in `0 .. size(S)`. Each
/// item is an HTuple congruent to `S`. Lazy: nothing is materialised up
/// front. `coordinates(())` yields the single coordinate `()`.
///
/// Errors: `value` for a zero or negative extent (shapes are positive);
/// `overflow` when `size(S)` overflows 64 bits. PyCuTe
/// `coordinates` (without its trailing-`raise` bug).
///
/// ```
/// use rcute::{HTuple, shape::coordinates};
/// let s = HTuple::flat([3i64, 2]);
/// let all: Vec<String> = coordinates(s.as_ref()).unwrap().map(|c| c.to_string()).collect();
/// assert_eq!(all, ["(0, 0)", "(1, 0)", "(2, 0)", "(0, 1)", "(1, 1)", "(2, 1)"]);
/// assert_eq!(coordinates(HTuple::<i64>::empty().as_ref()).unwrap().count(), 1);
/// ```
pub fn coordinates(s: HRef<'_, i64>) -> Result<Coordinates> {
    if let Some(&e) = s.leaves().iter().find(|&&e| e <= 0) {
        return Err(Error::value(format!(
            "coordinates: shape {s} has the non-positive extent {e}"
        )));
    }
    let n = size(s)?;
    Ok(Coordinates {
        shape: s.to_owned(),
        digits: smallvec::smallvec![0; s.num_leaves()],
        remaining: u64::try_from(n).unwrap_or(0),
    })
}

/// The loop of `layout_add::gcd_core` on the leaves of two **positive** shapes,
/// each common factor `g` starting at index `at` passed to `emit(g, at)`
/// in order. Only the current leaf of each shape is tracked (the loop
/// never goes back to an earlier one), so nothing is copied. `None` where
/// `layout_add::gcd_core` reports an overflow.
#[inline(always)]
pub(crate) fn gcd_walk(a: &[i64], b: &[i64], mut emit: impl FnMut(i64, i64)) -> Option<()> {
    let (mut ai, mut bi) = (a.iter().copied(), b.iter().copied());
    let (Some(mut ca), Some(mut cb)) = (ai.next(), bi.next()) else {
        return Some(());
    };
    // the index at which the unconsumed part of the current leaf starts
    let (mut pa, mut pb): (i64, i64) = (1, 1);
    loop {
        if ca == 1 {
            let Some(x) = ai.next() else { break };
            ca = x;
            continue;
        }
        if cb == 1 {
            let Some(x) = bi.next() else { break };
            cb = x;
            continue;
        }
        if pa == pb {
            // lcm(p, p) = p, ratios 1
            let g = crate::int::gcd_pos(ca, cb);
            if g != 1 {
                emit(g, pa);
                ca = crate::int::div_exact(ca, g);
                cb = crate::int::div_exact(cb, g);
                pa = pa.checked_mul(g)?;
                pb = pa;
                continue;
            }
        } else {
            let l = (pa / crate::int::gcd_pos(pa, pb)).checked_mul(pb)?;
            let (ra, rb) = (l / pa, l / pb);
            if ca % ra == 0 && cb % rb == 0 {
                let g = crate::int::gcd_pos(ca / ra, cb / rb);
                if g != 1 {
                    emit(g, l);
                    ca /= ra.checked_mul(g)?;
                    cb /= rb.checked_mul(g)?;
                    pa = l.checked_mul(g)?;
                    pb = pa;
                    continue;
                }
            }
        }
        // no common factor here: move past the leaf that ends first (both
        // when they end together); one ends at a multiple of the other's
        // end or not, which decides whether the other one moves too
        let ea = pa.checked_mul(ca)?;
        let eb = pb.checked_mul(cb)?;
        let (adv_a, adv_b) = if ea == eb {
            (true, true)
        } else if ea < eb {
            (true, eb % ea != 0)
        } else {
            (ea % eb != 0, true)
        };
        if adv_a {
            pa = ea;
            let Some(x) = ai.next() else { break };
            ca = x;
        }
        if adv_b {
            pb = eb;
            let Some(x) = bi.next() else { break };
            cb = x;
        }
    }
    Some(())
}
