//! Slicing a layout at a coordinate with `None` leaves, as tensors need it
//! (`tensor.md` section 3, `layout.md` section 6): the offset `L(c)` (`None`
//! contributes 0) and the concatenation of the kept sub-layouts.
//!
//! Unlike the notation's layout slicing, a bare `None` is not special: it
//! keeps the whole layout as one mode (PyCuTe's tensor slicing, which
//! wraps `T[None]` into a 1-tuple).

use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, MAX_DEPTH};
use crate::layout::Layout;
use crate::shape::DisplayCoord;
use crate::stride::Scalar;

/// `(offset, sub-layout)` of `l` sliced at `c`. The sub-layout's rank is the
/// number of `None` leaves of `c`.
///
/// Errors: `rank` for a tuple coordinate against a leaf shape or a tuple of
/// the wrong length; those of evaluation (`overflow`, `type`).
pub(crate) fn slice_layout(l: &Layout, c: HRef<'_, Option<Scalar>>) -> Result<(Scalar, Layout)> {
    let mut bs = Builder::new();
    let mut bd = Builder::new();
    bs.open();
    bd.open();
    let mut off = Scalar::Int(0);
    rec(
        c,
        l.shape().as_ref(),
        l.stride().as_ref(),
        &mut bs,
        &mut bd,
        &mut off,
        0,
    )?;
    bs.close();
    bd.close();
    Ok((off, Layout::from_parts(bs.finish(), bd.finish())))
}

/// True when the coordinate has at least one `None` leaf.
pub(crate) fn has_slice(c: HRef<'_, Option<Scalar>>) -> bool {
    c.leaves().iter().any(Option::is_none)
}

fn rec(
    c: HRef<'_, Option<Scalar>>,
    s: HRef<'_, i64>,
    d: HRef<'_, Scalar>,
    bs: &mut Builder<i64>,
    bd: &mut Builder<Scalar>,
    off: &mut Scalar,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::value("slice: coordinate nested too deeply"));
    }
    match c.as_leaf() {
        Some(None) => {
            bs.push(s);
            bd.push(d);
            Ok(())
        }
        Some(Some(x)) => {
            let sub = Layout::from_parts(s.to_owned(), d.to_owned());
            let v = match x {
                Scalar::Int(i) => sub.eval_index(*i)?,
                _ => sub.eval(HTuple::leaf(Some(x.clone())).as_ref())?,
            };
            *off = off.add(&v)?;
            Ok(())
        }
        None => {
            if s.is_leaf() {
                return Err(Error::rank(format!(
                    "slice: tuple coordinate {} for the leaf shape {s}",
                    DisplayCoord(c)
                )));
            }
            if c.rank() != s.rank() {
                return Err(Error::rank(format!(
                    "slice: coordinate {} has {} modes, shape {s} has {}",
                    DisplayCoord(c),
                    c.rank(),
                    s.rank()
                )));
            }
            for ((cm, sm), dm) in c.modes().zip(s.modes()).zip(d.modes()) {
                rec(cm, sm, dm, bs, bd, off, depth + 1)?;
            }
            Ok(())
        }
    }
}
