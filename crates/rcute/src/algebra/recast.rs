//! recast, upcast, downcast (`docs/operations.md`).
use std::cmp::Ordering;

use crate::error::Error;
use crate::htuple::{Builder, HRef, MAX_DEPTH};
use crate::stride::Path;
use crate::{int, Layout, Result, Scalar};

/// A recast scale: a rational `num/den`, or a tuple of scales for a coordinate codomain.
#[derive(Clone, Debug, PartialEq)]
pub enum Scale {
    /// The rational `num / den`.
    Ratio {
        /// numerator
        num: i64,
        /// denominator
        den: i64,
    },
    /// One scale per codomain axis.
    Tuple(Vec<Scale>),
}

impl Scale {
    /// The integer scale `n` (`n / 1`).
    pub fn int(n: i64) -> Scale {
        Scale::Ratio { num: n, den: 1 }
    }
}

impl std::fmt::Display for Scale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scale::Ratio { num, den: 1 } => write!(f, "{num}"),
            Scale::Ratio { num, den } => write!(f, "{num}/{den}"),
            Scale::Tuple(v) => {
                f.write_str("(")?;
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                if v.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A rational with a positive denominator, never zero.
#[derive(Clone, Copy)]
struct Ratio {
    num: i64,
    den: i64,
}

/// `proj(scale, d)`: the scale factor on the axis of the basis path `path`.
fn project(scale: &Scale, path: &[usize], d: &Scalar) -> Result<Ratio> {
    let mut x = scale;
    for &i in path {
        match x {
            Scale::Tuple(v) => {
                x = v.get(i).ok_or_else(|| {
                    Error::bounds(format!(
                        "recast: scale {scale} has no entry for the axis of the stride {d}"
                    ))
                })?
            }
            Scale::Ratio { .. } => {
                return Err(Error::type_(format!(
                    "recast: the scalar scale {scale} cannot scale the coordinate stride {d}"
                )))
            }
        }
    }
    match x {
        Scale::Ratio { num, den } => {
            if *num == 0 || *den == 0 {
                return Err(Error::value(format!(
                    "recast: division by zero (scale {scale})"
                )));
            }
            if *den < 0 {
                Ok(Ratio {
                    num: int::neg(*num)?,
                    den: int::neg(*den)?,
                })
            } else {
                Ok(Ratio {
                    num: *num,
                    den: *den,
                })
            }
        }
        Scale::Tuple(_) => Err(Error::type_(format!(
            "recast: the tuple scale {x} cannot scale the stride {d}"
        ))),
    }
}

fn recast_leaf(s: i64, d: &Scalar, scale: &Scale) -> Result<(i64, Scalar)> {
    if d.is_f2() {
        return Err(Error::type_(format!(
            "recast: F2 stride {d} cannot be recast"
        )));
    }
    // (an integer is its own basis term, on the axis `()`)
    let (m, path) = match *d {
        Scalar::Int(v) => (v, Path::new()),
        _ => match d.basis_term()? {
            (Scalar::Int(v), path) => (v, path),
            (other, _) => {
                return Err(Error::type_(format!(
                    "recast: stride {d} has the non-integer value {other}"
                )))
            }
        },
    };
    if m == 0 {
        return Ok((s, d.clone()));
    }
    let n = project(scale, &path, d)?;
    let (new_s, new_d) = if m == 1 {
        // ceil(s / n) = ceil(s * den / num)
        (int::ceil_div(int::mul(s, n.den)?, n.num)?, d.clone())
    } else {
        // m / n = m*den / num ; n / m = num / (den*m)
        let md = int::mul(m, n.den)?;
        let (q1, r1, q2, r2) = if md > 0 && n.num > 0 {
            // of two positive integers the smaller over the larger is 0
            // (its remainder itself): one division at most
            let (x, y) = (md as u64, n.num as u64);
            match x.cmp(&y) {
                Ordering::Equal => (1, 0, 1, 0),
                Ordering::Greater => ((x / y) as i64, (x % y) as i64, 0, n.num),
                Ordering::Less => (0, md, (y / x) as i64, (y % x) as i64),
            }
        } else {
            let (q1, r1) = int::floor_divmod(md, n.num)?;
            let (q2, r2) = int::floor_divmod(n.num, md)?;
            (q1, r1, q2, r2)
        };
        if r1 != 0 && r2 != 0 {
            return Err(Error::divisibility(format!(
                "recast divisibility condition: stride {d} and scale {scale} divide neither way"
            )));
        }
        let new_s = int::ceil_div(s, if r2 == 0 { q2 } else { 1 })?;
        let factor = if r1 == 0 { q1 } else { 1 };
        (new_s, Scalar::basis(factor, &path))
    };
    if new_s <= 0 {
        return Err(Error::value(format!(
            "recast: the mode {s}:{d} scaled by {scale} would have the shape {new_s}; shapes must be positive"
        )));
    }
    Ok((new_s, new_d))
}

/// A leaf rewrite `(s, d) -> (s', d')`.
type LeafFn<'f> = dyn FnMut(i64, &Scalar) -> Result<(i64, Scalar)> + 'f;

/// Rebuilds A leaf by leaf with `f`, keeping A's profile.
fn map_leaves(a: &Layout, f: impl FnMut(i64, &Scalar) -> Result<(i64, Scalar)>) -> Result<Layout> {
    let mut out = Layout::blank();
    map_leaves_into(a, f, &mut out)?;
    Ok(out)
}

/// [`map_leaves`] written into `out`, reusing its storage: the profile
/// copied, the leaves mapped in order (so the same first error as the
/// walk). On an error `out` holds an unspecified layout.
fn map_leaves_into(
    a: &Layout,
    mut f: impl FnMut(i64, &Scalar) -> Result<(i64, Scalar)>,
    out: &mut Layout,
) -> Result<()> {
    let nodes = a.shape().as_ref().node_bytes();
    if nodes.len() > MAX_DEPTH {
        // possibly deeper than the walk accepts: its error
        *out = map_leaves_walk(a, f)?;
        return Ok(());
    }
    out.reset();
    let ((n, s), d) = out.raw_mut();
    n.extend_from_slice(nodes);
    for (&sv, dv) in a.shape().leaves().iter().zip(a.stride().leaves()) {
        let (ns, nd) = f(sv, dv)?;
        s.push(ns);
        d.push(nd);
    }
    Ok(())
}

/// [`map_leaves`] by a walk of the profile (depth-bounded).
fn map_leaves_walk(
    a: &Layout,
    mut f: impl FnMut(i64, &Scalar) -> Result<(i64, Scalar)>,
) -> Result<Layout> {
    fn rec(
        s: HRef<'_, i64>,
        d: HRef<'_, Scalar>,
        f: &mut LeafFn<'_>,
        bs: &mut Builder<i64>,
        bd: &mut Builder<Scalar>,
        depth: usize,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::value("layout nested too deep"));
        }
        match (s.as_leaf(), d.as_leaf()) {
            (Some(&sv), Some(dv)) => {
                let (ns, nd) = f(sv, dv)?;
                bs.leaf(ns);
                bd.leaf(nd);
                Ok(())
            }
            (None, None) => {
                bs.open();
                bd.open();
                for (sm, dm) in s.modes().zip(d.modes()) {
                    rec(sm, dm, f, bs, bd, depth + 1)?;
                }
                bs.close();
                bd.close();
                Ok(())
            }
            _ => Err(Error::congruence(format!(
                "shape {s} and stride {d} are not congruent"
            ))),
        }
    }
    let mut bs = Builder::new();
    let mut bd = Builder::new();
    rec(a.shape().as_ref(), a.stride(), &mut f, &mut bs, &mut bd, 0)?;
    Ok(Layout::from_parts(bs.finish(), bd.finish()))
}

/// `recast(A, scale)` (`docs/operations.md`, PyCuTe `recast`): A
/// re-expressed for elements `scale` times larger (`scale` a rational, e.g.
/// `1/2` for elements half as large; for a coordinate codomain a tuple giving
/// the factor per axis). Leaf by leaf, A's profile is kept: a unit stride
/// divides its extent by the scale (rounding up), a larger stride is divided
/// by the scale or, when the scale is a multiple of it, the extent shrinks.
///
/// Errors: `divisibility` when neither the stride divides the scale nor the
/// scale the stride ("recast divisibility condition"); `value` for a zero
/// scale (division by zero) and when a shape would come out zero or negative
/// (a negative stride dividing the scale; PyCuTe returns the negative shape);
/// `type` for F2 strides, a scalar scale against a coordinate stride, a
/// tuple scale against an integer stride, or a multi-term coordinate stride;
/// `bounds` when a tuple scale has no entry for a stride's axis; `overflow`
/// beyond 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// use rcute::algebra::{recast, Scale};
/// let a = Layout::row_major(HTuple::flat([4, 6])).unwrap();             // (4,6):(6,1)
/// assert_eq!(recast(&a, &Scale::int(2)).unwrap().to_string(), "(4, 3):(3, 1)");
/// let half = Scale::Ratio { num: 1, den: 2 };
/// assert_eq!(recast(&a, &half).unwrap().to_string(), "(4, 12):(12, 1)");
/// ```
pub fn recast(a: &Layout, scale: &Scale) -> Result<Layout> {
    map_leaves(a, |s, d| recast_leaf(s, d, scale))
}

/// [`recast`] written into `out`, reusing its storage (the notation's
/// prepared calls evaluate into a caller's slot): the profile copied, the
/// leaves mapped in order (the same first error as [`recast`]). On an
/// error `out` holds an unspecified layout.
pub(crate) fn recast_into(a: &Layout, scale: &Scale, out: &mut Layout) -> Result<()> {
    map_leaves_into(a, |s, d| recast_leaf(s, d, scale), out)
}

fn integer_stride(d: &Scalar, op: &str) -> Result<i64> {
    match d {
        Scalar::Int(v) => Ok(*v),
        other => Err(Error::type_(format!(
            "{op}: integer strides only, got the stride {other}"
        ))),
    }
}

fn check_factor(n: i64, op: &str) -> Result<()> {
    if n < 1 {
        return Err(Error::value(format!(
            "{op}: the element factor {n} must be at least 1"
        )));
    }
    Ok(())
}

/// `upcast(A, N)` (`docs/operations.md`, C++ CuTe `upcast<N>`): A
/// re-expressed for elements made of `N >= 1` of A's elements. Leaf by leaf
/// (profile kept): a zero stride stays; otherwise the extent becomes
/// `ceil(s / ceil(N/|d|))` and the stride `sign(d) * ceil(|d| / N)`.
///
/// Errors: `type` for non-integer strides; `value` for `N < 1`;
/// `divisibility` when neither `|d|` divides `N` nor `N` divides `|d|`;
/// `overflow` beyond 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple};
/// use rcute::algebra::upcast;
/// let a = Layout::column_major(HTuple::flat([4, 6])).unwrap();          // (4,6):(1,4)
/// assert_eq!(upcast(&a, 2).unwrap().to_string(), "(2, 6):(1, 2)");
/// ```
pub fn upcast(a: &Layout, n: i64) -> Result<Layout> {
    check_factor(n, "upcast")?;
    map_leaves(a, |s, d| {
        let d = integer_stride(d, "upcast")?;
        if d == 0 {
            return Ok((s, Scalar::Int(0)));
        }
        let ad = d
            .checked_abs()
            .ok_or_else(|| Error::overflow(format!("upcast: |{d}| overflows 64 bits")))?;
        if ad % n != 0 && n % ad != 0 {
            return Err(Error::divisibility(format!(
                "upcast: stride {d} and factor {n} divide neither way"
            )));
        }
        let new_s = int::ceil_div(s, int::ceil_div(n, ad)?)?;
        let new_d = int::mul(d.signum(), int::ceil_div(ad, n)?)?;
        Ok((new_s, Scalar::Int(new_d)))
    })
}

/// `downcast(A, N)` (`docs/operations.md`, C++ CuTe `downcast<N>`): A
/// re-expressed for elements `N` times smaller: the unit-stride modes
/// (`1` or `-1`) grow by `N`, every other stride is multiplied by `N`;
/// profile kept.
///
/// Errors: `type` for non-integer strides; `value` for `N < 1` or when no
/// stride leaf equals 1; `overflow` beyond 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple};
/// use rcute::algebra::downcast;
/// let a = Layout::column_major(HTuple::flat([4, 6])).unwrap();          // (4,6):(1,4)
/// assert_eq!(downcast(&a, 2).unwrap().to_string(), "(8, 6):(1, 8)");
/// ```
pub fn downcast(a: &Layout, n: i64) -> Result<Layout> {
    check_factor(n, "downcast")?;
    for d in a.stride().leaves() {
        integer_stride(d, "downcast")?;
    }
    if !a.stride().leaves().contains(&Scalar::Int(1)) {
        return Err(Error::value(format!(
            "downcast requires a unit-stride mode; {a} has none"
        )));
    }
    map_leaves(a, |s, d| {
        let d = integer_stride(d, "downcast")?;
        if d == 1 || d == -1 {
            Ok((int::mul(s, n)?, Scalar::Int(d)))
        } else {
            Ok((s, Scalar::Int(int::mul(d, n)?)))
        }
    })
}
