//! Shapes and coordinates (`htuple.md` sections 3, 7): size, the
//! colexicographic conversions `idx2crd` / `crd2idx` (the last mode absorbs
//! overflow; floor division for negative indices).

use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, MAX_DEPTH};
use crate::int;
use crate::stride::Scalar;

/// A shape: an HTuple of positive integers.
pub type Shape = HTuple<i64>;

/// A coordinate: an HTuple whose leaves are integers (or F2 / coordinate
/// values used as indices), with `None` standing for `_` (slicing).
pub type Coord = HTuple<Option<Scalar>>;

/// `size(S)`: the product of the leaves (1 for `()`), or an `overflow` error.
///
/// ```
/// use rcute::{HTuple, shape::size};
/// assert_eq!(size(HTuple::flat([3i64, 4]).as_ref()).unwrap(), 12);
/// ```
pub fn size(s: HRef<'_, i64>) -> Result<i64> {
    let mut p: i64 = 1;
    for &v in s.leaves() {
        p = int::mul(p, v)?;
    }
    Ok(p)
}

/// `idx2crd(c, S)`: the natural coordinate of `c` in shape `S`
/// (`htuple.md` section 7). `c` may be integral, flat or natural (any
/// coordinate weakly congruent to `S`), may contain `None` (zeros), and
/// may hold coordinate values (padded to `S`'s profile) or F2 values (split
/// into bit fields; power-of-two extents only).
///
/// Errors: `rank` for a tuple coordinate against a leaf shape or a length
/// mismatch; `value` for an F2 index against a non-power-of-two extent.
///
/// ```
/// use rcute::{HTuple, Scalar, shape::idx2crd};
/// let s = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([2i64, 4])]);
/// let c = HTuple::leaf(Some(Scalar::Int(100)));
/// assert_eq!(idx2crd(c.as_ref(), s.as_ref()).unwrap().to_string(), "(1, (1, 16))");
/// ```
pub fn idx2crd(c: HRef<'_, Option<Scalar>>, s: HRef<'_, i64>) -> Result<HTuple<Scalar>> {
    let mut b = Builder::new();
    idx2crd_rec(c, s, &mut b, 0)?;
    Ok(b.finish())
}

fn idx2crd_rec(
    c: HRef<'_, Option<Scalar>>,
    s: HRef<'_, i64>,
    b: &mut Builder<Scalar>,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("idx2crd: nesting too deep"));
    }
    match c.as_leaf() {
        Some(leaf) => idx2crd_scalar(leaf.as_ref(), s, b, depth),
        None => {
            if s.is_leaf() {
                return Err(Error::rank(format!(
                    "idx2crd: tuple coordinate {} for the leaf shape {s}",
                    DisplayCoord(c)
                )));
            }
            if c.rank() != s.rank() {
                return Err(Error::rank(format!(
                    "idx2crd: coordinate {} has {} modes, shape {s} has {}",
                    DisplayCoord(c),
                    c.rank(),
                    s.rank()
                )));
            }
            b.open();
            for (cm, sm) in c.modes().zip(s.modes()) {
                idx2crd_rec(cm, sm, b, depth + 1)?;
            }
            b.close();
            Ok(())
        }
    }
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
            let mut out: smallvec::SmallVec<[Scalar; 8]> = smallvec::SmallVec::new();
            let mut q = i;
            for (k, &e) in leaves.iter().enumerate() {
                if k + 1 == leaves.len() {
                    out.push(Scalar::Int(q));
                } else {
                    let (qq, r) = int::floor_divmod(q, e)?;
                    out.push(Scalar::Int(r));
                    q = qq;
                }
            }
            b.push_with_profile(s, out);
            Ok(())
        }
        Some(Scalar::F2(v)) => {
            let leaves = s.leaves();
            let mut out: smallvec::SmallVec<[Scalar; 8]> = smallvec::SmallVec::new();
            let mut rest = *v;
            for (k, &e) in leaves.iter().enumerate() {
                if e <= 0 || e & (e - 1) != 0 {
                    return Err(Error::value(format!(
                        "idx2crd: the F2 index F{v} needs power-of-two extents, shape {s} has {e}"
                    )));
                }
                if k + 1 == leaves.len() {
                    out.push(Scalar::F2(rest));
                } else {
                    let bits = e.trailing_zeros();
                    out.push(Scalar::F2(rest & (e - 1)));
                    rest >>= bits;
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
    fn rec(
        c: HRef<'_, Option<Scalar>>,
        s: HRef<'_, i64>,
        weight: &mut i64,
        acc: &mut i64,
        depth: usize,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::value("crd2idx: nesting too deep"));
        }
        match c.as_leaf() {
            Some(Some(Scalar::Int(v))) => {
                *acc = int::add(*acc, int::mul(*v, *weight)?)?;
                *weight = int::mul(*weight, size(s)?)?;
                Ok(())
            }
            Some(None) => Err(Error::rank(format!(
                "crd2idx: None coordinate for shape {s}"
            ))),
            Some(Some(x)) => Err(Error::type_(format!(
                "crd2idx: {x} is not an integer coordinate"
            ))),
            None => {
                if s.is_leaf() || s.rank() != c.rank() {
                    return Err(Error::rank(format!(
                        "crd2idx: coordinate {} does not match the shape {s}",
                        DisplayCoord(c)
                    )));
                }
                for (cm, sm) in c.modes().zip(s.modes()) {
                    rec(cm, sm, weight, acc, depth + 1)?;
                }
                Ok(())
            }
        }
    }
    let (mut w, mut acc) = (1, 0);
    rec(c, s, &mut w, &mut acc, 0)?;
    Ok(acc)
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

/// `congruent(a, b)` (`htuple.md` section 4), with the basis-value rule for
/// coordinate-value leaves. `None` leaves count as leaves.
pub fn congruent(a: HRef<'_, Option<Scalar>>, b: HRef<'_, Option<Scalar>>) -> bool {
    a.congruent(b)
}

/// `weakly_congruent(a, b)` (`htuple.md` section 4): `a` coarsens `b`.
pub fn weakly_congruent(a: HRef<'_, Option<Scalar>>, b: HRef<'_, Option<Scalar>>) -> bool {
    a.weakly_congruent(b)
}

/// `compatible(a, b)` (`htuple.md` section 9).
pub fn compatible(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<bool> {
    let _ = (a, b);
    Err(Error::value("compatible: not implemented yet"))
}

/// `common_refinement(a, b)` (`htuple.md` section 9).
pub fn common_refinement(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Shape> {
    let _ = (a, b);
    Err(Error::value("common_refinement: not implemented yet"))
}

/// `common_coarsening(a, b)` (`htuple.md` section 9).
pub fn common_coarsening(a: HRef<'_, i64>, b: HRef<'_, i64>) -> Result<Shape> {
    let _ = (a, b);
    Err(Error::value("common_coarsening: not implemented yet"))
}

/// `product_each(a)` (`htuple.md` section 6): a leaf argument is a `type` error.
pub fn product_each(a: HRef<'_, i64>) -> Result<Shape> {
    let _ = a;
    Err(Error::value("product_each: not implemented yet"))
}
