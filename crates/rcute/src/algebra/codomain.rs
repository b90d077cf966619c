//! coshape, coprofile and cosize (`docs/operations.md`).
use crate::htuple::MAX_DEPTH;
use crate::tiler::tiler_to_layout;
use crate::tiler::TilerRef;
use crate::{Error, HTuple, Layout, Result, Scalar};

/// `0 + sum of xs` in the stride algebras, as Python's `sum` computes it.
pub(crate) fn stride_sum(
    xs: impl IntoIterator<Item = Scalar>,
    a: &Layout,
    op: &str,
) -> Result<Scalar> {
    let mut total = Scalar::Int(0);
    for x in xs {
        total = total.add(&x).map_err(|e| {
            Error::new(
                e.kind(),
                format!("{op}({a}): the strides mix algebras: {}", e.message()),
            )
        })?;
    }
    Ok(total)
}

/// The value with `x`'s explicit structure and every integer / F2 leaf
/// replaced by the integer 1 (`repeat_like(1, total)`).
fn ones_like(x: &Scalar, depth: usize) -> Result<Scalar> {
    if depth > MAX_DEPTH {
        return Err(Error::value("coshape: coordinate value nested too deep"));
    }
    match x {
        Scalar::Coord(c) => Ok(Scalar::coord(
            c.children()
                .iter()
                .map(|ch| ones_like(ch, depth + 1))
                .collect::<Result<_>>()?,
        )),
        _ => Ok(Scalar::Int(1)),
    }
}

/// The stride with every integer (also inside a coordinate value) replaced
/// by its absolute value; F2 values are kept.
fn abs_stride(x: &Scalar, depth: usize) -> Result<Scalar> {
    if depth > MAX_DEPTH {
        return Err(Error::value("coshape: coordinate value nested too deep"));
    }
    match x {
        Scalar::Int(v) => v
            .checked_abs()
            .map(Scalar::Int)
            .ok_or_else(|| Error::overflow(format!("coshape: |{v}| overflows 64 bits"))),
        Scalar::F2(_) => Ok(x.clone()),
        Scalar::Coord(c) => Ok(Scalar::coord(
            c.children()
                .iter()
                .map(|ch| abs_stride(ch, depth + 1))
                .collect::<Result<_>>()?,
        )),
    }
}

/// `coshape(L)` (`docs/operations.md`, C++ CuTe `coshape`): the extent of
/// the codomain, `as_tuple(total + ones)` where `total = 0 + sum((s-1)*|d|)`
/// over the leaves of `L` and `ones` is `1` at every explicit position of
/// `total`.
///
/// Takes a layout; returns an integer for an integer codomain
/// (`1 + sum((s-1)*|d|)`) or a tuple for a coordinate codomain (one entry
/// per explicit position of the summed coordinate value, recursively).
/// Strides count by their absolute value, as in C++ CuTe: the result is the
/// extent of the image, `max - min + 1` along each axis (the reference sums
/// signed strides, so a negative stride there shrinks the extent, even below
/// 1: `cosize(8:-1)` is `-6` in the reference and `8` here).
///
/// An F2 codomain (stride leaves integers and F2 values, at least one F2
/// value) has the integer coshape `2^m`, `m` the largest bit length of a
/// contribution `(s-1)*d` (carry-less for an F2 `d`; `1` when all are 0):
/// a carry-less product of a digit below `s` with `d` has no more bits than
/// `(s-1)*d`, and XOR adds none, so every value of the layout lies below it.
///
/// Errors: `type` for F2 values inside coordinate strides and for
/// strides that mix integer and coordinate values where a nonzero integer
/// meets a coordinate value; `overflow` past 64 bits. PyCuTe
/// `Layout.coshape` / C++ `coshape`.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar, algebra::coshape};
/// let l = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::basis(1, &[0]), Scalar::basis(6, &[1])])).unwrap();
/// assert_eq!(coshape(&l).unwrap().to_string(), "(4, 43)");
/// let m = Layout::new(HTuple::flat([3, 4]), HTuple::flat([Scalar::Int(-1), Scalar::Int(3)])).unwrap();
/// assert_eq!(coshape(&m).unwrap().to_string(), "12");
/// let f = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::F2(1), Scalar::F2(4)])).unwrap();
/// assert_eq!(coshape(&f).unwrap().to_string(), "32");
/// ```
pub fn coshape(a: &Layout) -> Result<HTuple<i64>> {
    if let Some(n) = f2_coshape(a)? {
        return Ok(HTuple::leaf(n));
    }
    let terms = a
        .flat_modes()
        .map(|(s, d)| abs_stride(d, 0)?.mul(&Scalar::Int(crate::int::sub(s, 1)?)))
        .collect::<Result<Vec<Scalar>>>()?;
    let total = stride_sum(terms, a, "coshape")?;
    if let Scalar::F2(_) = total {
        return Err(Error::type_(format!(
            "coshape({a}): an F2 (XOR) codomain has no shape"
        )));
    }
    let ones = ones_like(&total, 0)?;
    let ext = total.add(&ones).map_err(|e| {
        Error::new(
            e.kind(),
            format!("coshape({a}): the codomain has no shape: {}", e.message()),
        )
    })?;
    ext.as_tuple().try_map(|v| match v {
        Scalar::Int(n) => Ok(*n),
        other => Err(Error::type_(format!(
            "coshape({a}): the codomain extent {other} is not an integer"
        ))),
    })
}

/// The coshape of an F2 codomain (see [`coshape`]), `None` when some
/// stride is a coordinate value or none is an F2 value.
fn f2_coshape(a: &Layout) -> Result<Option<i64>> {
    let strides = a.stride().leaves();
    if !strides.iter().any(Scalar::is_f2) || strides.iter().any(Scalar::is_coord) {
        return Ok(None);
    }
    let mut bits: u32 = 0;
    for (s, d) in a.flat_modes() {
        let k = crate::int::sub(s, 1)?;
        let c = match d {
            Scalar::F2(v) => crate::f2::clmul(*v, k)
                .map_err(|e| Error::new(e.kind(), format!("coshape({a}): {}", e.message())))?,
            Scalar::Int(v) => crate::int::mul(*v, k)?,
            Scalar::Coord(_) => return Ok(None),
        };
        bits = bits.max(64 - c.unsigned_abs().leading_zeros());
    }
    if bits >= 63 {
        return Err(Error::overflow(format!(
            "coshape({a}): 2^{bits} overflows 64 bits"
        )));
    }
    Ok(Some(1i64 << bits))
}

/// `coprofile(L)` (`docs/operations.md`): the profile of the codomain,
/// the structure of `as_tuple(0 + sum of the stride leaves)`. Only the
/// structure is meaningful, so every leaf is `0`: an integer or F2 codomain
/// gives `0`, a coordinate codomain a tuple of zeros mirroring the explicit
/// positions of the sum.
///
/// Errors: `type` when the strides mix algebras (a nonzero integer and a
/// coordinate value); `overflow` past 64 bits. PyCuTe `Layout.coprofile`.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar, algebra::coprofile};
/// let l = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::basis(1, &[0]), Scalar::basis(1, &[1, 1])])).unwrap();
/// assert_eq!(coprofile(&l).unwrap().to_string(), "(0, (0, 0))");
/// let m = Layout::column_major(HTuple::flat([4, 8])).unwrap();
/// assert_eq!(coprofile(&m).unwrap().to_string(), "0");
/// ```
pub fn coprofile(a: &Layout) -> Result<HTuple<i64>> {
    // integer strides whose sum fits: the integer codomain `0`
    let mut sum: Option<i64> = Some(0);
    for d in a.stride().leaves() {
        sum = match (sum, d) {
            (Some(acc), Scalar::Int(v)) => acc.checked_add(*v),
            _ => None,
        };
    }
    if sum.is_some() {
        return Ok(HTuple::leaf(0));
    }
    let total = stride_sum(a.stride().leaves().iter().cloned(), a, "coprofile")?;
    Ok(total.as_tuple().map(|_| 0))
}

/// True when every stride of `a` is an integer (an integer codomain: the
/// operations then run on `i64` strides), `false` when one is not. The
/// check of [`coprofile`] only: nothing to build when the integers' sum
/// fits in 64 bits (the integer codomain `0`); otherwise [`coprofile`]
/// decides (and reports its error).
#[inline]
pub(crate) fn int_codomain(a: &Layout) -> Result<bool> {
    let (mut sum, mut wrapped) = (0i64, false);
    for d in a.stride().leaves() {
        let Scalar::Int(v) = *d else {
            return Ok(false);
        };
        let (t, o) = sum.overflowing_add(v);
        (sum, wrapped) = (t, wrapped | o);
    }
    if wrapped {
        coprofile(a)?;
    }
    Ok(true)
}

/// `coprofile(T)` of a tiler (`docs/operations.md`): the tiler is profiled
/// as `tiler_to_layout` promotes it, a `None` entry counting as one axis;
/// a layout tiler is profiled as [`coprofile`] does.
///
/// Errors: those of [`coprofile`] and of `tiler_to_layout` (an empty tuple).
///
/// ```
/// use rcute::{Tiler, algebra::codomain::coprofile_tiler};
/// let t = Tiler::Tuple(vec![Tiler::None, Tiler::Int(4)].into());
/// assert_eq!(coprofile_tiler(&t).unwrap().to_string(), "(0, 0)");
/// assert_eq!(coprofile_tiler(&Tiler::Int(24)).unwrap().to_string(), "0");
/// ```
pub fn coprofile_tiler(t: &TilerRef<'_>) -> Result<HTuple<i64>> {
    fn none_to_axis<'a>(t: &TilerRef<'a>) -> TilerRef<'a> {
        match t {
            TilerRef::None => TilerRef::Int(1),
            TilerRef::Tuple(v) => TilerRef::Tuple(v.iter().map(none_to_axis).collect()),
            other => other.clone(),
        }
    }
    let l = match t {
        TilerRef::Layout(l) | &TilerRef::Borrowed(l) => return coprofile(l),
        TilerRef::None => {
            return Err(Error::type_("coprofile: None is not a tiler on its own"));
        }
        _ => tiler_to_layout(&none_to_axis(t))?,
    };
    coprofile(&l)
}

/// `cosize(L) = product(coshape(L))` (`docs/operations.md`; C++ CuTe
/// `cosize`; PyCuTe has no such function). For an integer codomain this is
/// `1 + sum((s-1)*|d|)`: strides count by their absolute value as in C++
/// (the reference's signed sum gives `cosize(8:-1) = -6`; rcute gives `8`,
/// the number of offsets from the smallest to the largest image point).
///
/// Errors: those of [`coshape`] (`type` for mixed strides);
/// `overflow` past 64 bits.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar, algebra::cosize};
/// let l = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::Int(1), Scalar::Int(5)])).unwrap();
/// assert_eq!(cosize(&l).unwrap(), 39);
/// let n = Layout::new(HTuple::leaf(8), HTuple::leaf(Scalar::Int(-1))).unwrap();
/// assert_eq!(cosize(&n).unwrap(), 8);
/// ```
pub fn cosize(a: &Layout) -> Result<i64> {
    let cs = coshape(a)?;
    crate::shape::size(cs.as_ref())
}
