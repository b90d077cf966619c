//! Slicing with `_` (`docs/language.md`, "Slicing") and the HTuple helpers
//! `slice_` / `dice_` behind it (`docs/operations.md`).
use crate::htuple::{Builder, MAX_DEPTH};
use crate::shape::DisplayCoord;
use crate::{Error, HRef, HTuple, Layout, Result, Scalar};

/// Walks `c` and `b` together following `c`'s structure and appends to `out`
/// every sub-tree of `b` paired with a `c`-leaf that is `None` (`keep_none`)
/// or not `None` (`!keep_none`). Trailing positions missing from a shorter
/// `c` tuple count as `None`.
fn walk<T: Clone>(
    c: HRef<'_, Option<Scalar>>,
    b: HRef<'_, T>,
    keep_none: bool,
    out: &mut Builder<T>,
    depth: usize,
    op: &str,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value(format!(
            "{op}: nesting deeper than {MAX_DEPTH} levels"
        )));
    }
    if let Some(leaf) = c.as_leaf() {
        if leaf.is_none() == keep_none {
            out.push(b);
        }
        return Ok(());
    }
    if b.is_leaf() {
        return Err(Error::rank(format!(
            "{op}: tuple coordinate {} where the target has a leaf",
            DisplayCoord(c)
        )));
    }
    if c.rank() > b.rank() {
        return Err(Error::rank(format!(
            "{op}: coordinate {} has {} modes, the target has {}",
            DisplayCoord(c),
            c.rank(),
            b.rank()
        )));
    }
    let mut cm = c.modes();
    for bm in b.modes() {
        match cm.next() {
            Some(x) => walk(x, bm, keep_none, out, depth + 1, op)?,
            None => {
                if keep_none {
                    out.push(bm);
                }
            }
        }
    }
    Ok(())
}

fn collect<T: Clone>(
    c: HRef<'_, Option<Scalar>>,
    b: HRef<'_, T>,
    keep_none: bool,
    op: &str,
) -> Result<HTuple<T>> {
    let mut out = Builder::new();
    out.open();
    walk(c, b, keep_none, &mut out, 0, op)?;
    out.close();
    Ok(out.finish())
}

/// `slice_(c, b)` (`docs/operations.md`): walking `c` and `b` together
/// along `c`'s structure, the flat tuple of the sub-trees of `b` whose
/// `c`-leaf is `None` (`_`). A `c` tuple shorter than `b` keeps `b`'s
/// trailing modes. Always returns a tuple (`()` when nothing is kept).
///
/// Errors: `rank` where `c` has a tuple and `b` a leaf, or `c` has more
/// modes than `b` (the reference produces garbage there). PyCuTe `slice_`,
/// C++ `slice`.
///
/// ```
/// use rcute::{HTuple, Scalar, algebra::slice::slice_};
/// let b = HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::flat([5i64, 7, 9])]);
/// let c = HTuple::tuple([HTuple::leaf(None), HTuple::flat([Some(Scalar::Int(1)), None, Some(Scalar::Int(1))])]);
/// assert_eq!(slice_(c.as_ref(), b.as_ref()).unwrap().to_string(), "((2, 3), 7)");
/// ```
pub fn slice_<T: Clone>(c: HRef<'_, Option<Scalar>>, b: HRef<'_, T>) -> Result<HTuple<T>> {
    collect(c, b, true, "slice_")
}

/// `dice_(c, b)` (`docs/operations.md`): the complement of [`slice_`],
/// the flat tuple of the sub-trees of `b` whose `c`-leaf is not `None`.
/// Trailing modes of `b` beyond a shorter `c` tuple are dropped.
///
/// Errors: as [`slice_`]. PyCuTe `dice_`, C++ `dice`.
///
/// ```
/// use rcute::{HTuple, Scalar, algebra::slice::dice_};
/// let b = HTuple::tuple([HTuple::flat([2i64, 3]), HTuple::flat([5i64, 7, 9])]);
/// let c = HTuple::flat([None, Some(Scalar::Int(1))]);
/// assert_eq!(dice_(c.as_ref(), b.as_ref()).unwrap().to_string(), "((5, 7, 9),)");
/// ```
pub fn dice_<T: Clone>(c: HRef<'_, Option<Scalar>>, b: HRef<'_, T>) -> Result<HTuple<T>> {
    collect(c, b, false, "dice_")
}

/// `slice_and_offset(L, c)` (`docs/language.md`, "Slicing"): the sub-layout kept by
/// the `_` leaves of `c` and the offset `L(c)` (`_` counting as 0).
///
/// The sub-layout is `slice_(c, shape(L)) : slice_(c, stride(L))`, a tuple
/// layout whose rank is the number of `_` leaves of `c` (each `_` keeps the
/// whole sub-tree it stands for); a bare `_` returns `L` itself with the
/// integer offset 0 (nothing is fixed). Otherwise the offset is an integer,
/// coordinate value or F2 value, as `L`'s strides are (`F0` for an F2
/// layout sliced with `_` everywhere).
///
/// Errors: those of evaluating `L(c)`: `rank` for a coordinate tuple whose
/// length differs from the shape's (also a shorter one) or a tuple where
/// the shape has a leaf; `type` / `overflow` from the stride arithmetic.
/// C++ `slice_and_offset`.
///
/// ```
/// use rcute::{Layout, HTuple, Scalar, algebra::slice_and_offset};
/// let l = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::Int(8), Scalar::Int(1)])).unwrap();
/// let c = HTuple::flat([Some(Scalar::Int(2)), None]);
/// let (sub, off) = slice_and_offset(&l, c.as_ref()).unwrap();
/// assert_eq!(sub.to_string(), "(8,):(1,)");
/// assert_eq!(off, Scalar::Int(16));
/// ```
pub fn slice_and_offset(a: &Layout, c: HRef<'_, Option<Scalar>>) -> Result<(Layout, Scalar)> {
    let offset = a.eval(c).map_err(|e| {
        Error::new(
            e.kind(),
            format!("slice of {a} at {}: {}", DisplayCoord(c), e.message()),
        )
    })?;
    if let Some(None) = c.as_leaf() {
        // a bare `_` selects the whole layout: nothing is fixed, so the
        // offset is the integer 0 (C++ `crd2idx(_, ...)`), in every algebra
        return Ok((a.clone(), Scalar::Int(0)));
    }
    let shape = slice_(c, a.shape().as_ref())?;
    let stride = slice_(c, a.stride())?;
    Ok((Layout::from_parts(shape, stride), offset))
}

/// `L(c)` for a slicing coordinate `c` (`docs/language.md`, "Slicing"): the
/// sub-layout of [`slice_and_offset`] without the offset; a bare `_` returns
/// `L` unchanged. The offset is still evaluated, so the same errors apply
/// (`rank` for a coordinate shorter or longer than the shape).
///
/// ```
/// use rcute::{Layout, HTuple, Scalar, algebra::slice};
/// let l = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::Int(1), Scalar::Int(4)])).unwrap();
/// let c = HTuple::flat([None, Some(Scalar::Int(3))]);
/// assert_eq!(slice(&l, c.as_ref()).unwrap().to_string(), "(4,):(1,)");
/// assert_eq!(slice(&l, HTuple::leaf(None).as_ref()).unwrap(), l);
/// ```
pub fn slice(a: &Layout, c: HRef<'_, Option<Scalar>>) -> Result<Layout> {
    Ok(slice_and_offset(a, c)?.0)
}
