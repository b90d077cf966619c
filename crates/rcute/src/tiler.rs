//! Tilers (`layout.md` section 10): the right-hand sides of composition,
//! divide and product, and `tiler_to_layout`.

use std::fmt;

use crate::error::{Error, Result};
use crate::htuple::HTuple;
use crate::layout::Layout;
use crate::stride::Scalar;

/// A tiler: a layout, an integer `n` (the layout `n:1`), `None` ("leave
/// this mode alone") or a tuple of tilers applied by mode.
///
/// ```
/// use rcute::{Tiler, tiler::tiler_to_layout};
/// let t = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(5)]);
/// assert_eq!(tiler_to_layout(&t).unwrap().to_string(), "(4, 5):(1@0, 1@1)");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a layout tiler is the common case; no boxing
pub enum Tiler {
    /// `None` / `_`.
    None,
    /// An integer `n`.
    Int(i64),
    /// A layout.
    Layout(Layout),
    /// A tuple of tilers (by-mode).
    Tuple(Vec<Tiler>),
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::Layout(l)
    }
}

impl Tiler {
    /// The tiler of a shape: an integer leaf or a tuple of shapes.
    pub fn from_shape(s: crate::htuple::HRef<'_, i64>) -> Tiler {
        match s.as_leaf() {
            Some(&v) => Tiler::Int(v),
            None => Tiler::Tuple(s.modes().map(Tiler::from_shape).collect()),
        }
    }
}

impl fmt::Display for Tiler {
    /// Python `str` style: a tuple prints its layouts in repr form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::None => f.write_str("None"),
            Tiler::Int(v) => write!(f, "{v}"),
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Tuple(v) => {
                f.write_str("(")?;
                for (i, t) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match t {
                        Tiler::Layout(l) => f.write_str(&l.repr())?,
                        t => write!(f, "{t}")?,
                    }
                }
                if v.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// `tiler_to_layout(T)` (`layout.md` section 10): one layout acting like the
/// tiler under composition; a tuple tiler's leaf at path `p` has its strides
/// scaled into the axis `E(p)`.
///
/// Errors: `type` for a `None` leaf or a coordinate stride scaled by a
/// basis; `value` for an empty tuple.
pub fn tiler_to_layout(t: &Tiler) -> Result<Layout> {
    fn rec(t: &Tiler, e: &Scalar, path: &mut Vec<usize>, depth: usize) -> Result<Layout> {
        if depth > crate::htuple::MAX_DEPTH {
            return Err(Error::value("tiler_to_layout: nesting too deep"));
        }
        match t {
            Tiler::Int(n) => {
                if *n <= 0 {
                    return Err(Error::value(format!("tiler extent {n} must be positive")));
                }
                Ok(Layout::leaf(*n, e.clone()))
            }
            Tiler::Layout(l) => {
                let d = l.stride().try_map(|d| {
                    if d.is_coord() && e.is_coord() {
                        return Err(Error::type_(format!(
                            "tiler_to_layout: cannot scale the coordinate stride {d} by {e}"
                        )));
                    }
                    match e {
                        Scalar::Int(1) => Ok(d.clone()),
                        _ => e.mul(d),
                    }
                })?;
                Ok(Layout::from_parts(l.shape().clone(), d))
            }
            Tiler::None => Err(Error::type_("tiler_to_layout: None in a tiler")),
            Tiler::Tuple(v) => {
                let mut modes = Vec::with_capacity(v.len());
                for (i, x) in v.iter().enumerate() {
                    path.push(i);
                    let ei = Scalar::basis(1, path);
                    modes.push(rec(x, &ei, path, depth + 1)?);
                    path.pop();
                }
                Layout::concat(modes)
            }
        }
    }
    rec(t, &Scalar::Int(1), &mut Vec::new(), 0)
}

/// The shape leaf helper: an HTuple of one integer.
pub fn int_shape(n: i64) -> HTuple<i64> {
    HTuple::leaf(n)
}
