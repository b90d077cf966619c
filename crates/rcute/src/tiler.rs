//! Tilers (`docs/language.md`, "Tilers"): the right-hand sides of composition,
//! divide and product, and `tiler_to_layout`.

use std::fmt;

use crate::error::{Error, Result};
use crate::htuple::HTuple;
use crate::layout::Layout;
use crate::stride::Scalar;

/// A tiler (C++ CuTe's `Tiler`): a layout, an integer `n` (the layout
/// `n:1`), `None` ("leave this mode alone") or a tuple of tilers applied by
/// mode. A layout tiler is held by value ([`TilerRef::Layout`]) or borrowed
/// ([`TilerRef::Borrowed`]); the two mean the same.
///
/// [`Tiler`] is the owned form (`TilerRef<'static>`); the typed API builds
/// borrowed tilers from `&Layout`, integers, tuples and `None` through
/// [`IntoTiler`], without copying the layouts.
///
/// ```
/// use rcute::{Tiler, tiler::tiler_to_layout};
/// let t = Tiler::Tuple(vec![Tiler::Int(4), Tiler::Int(5)].into());
/// assert_eq!(tiler_to_layout(&t).unwrap().to_string(), "(4, 5):(1@0, 1@1)");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // a layout tiler is the common case; no boxing
pub enum TilerRef<'a> {
    /// `None` / `_`.
    None,
    /// An integer `n`.
    Int(i64),
    /// A layout.
    Layout(Layout),
    /// A borrowed layout (same meaning as [`TilerRef::Layout`]).
    Borrowed(&'a Layout),
    /// A tuple of tilers (by-mode).
    Tuple(TilerItems<'a>),
}

/// The items of a tuple tiler ([`TilerRef::Tuple`]): owned (a `Vec`) or
/// borrowed (a slice, so a tuple tiler can be built on the stack without a
/// heap allocation, as the typed API's [`IntoTiler::with_tiler`] does for
/// Rust tuples). Either way it reads as a slice of tilers.
///
/// ```
/// use rcute::{TilerItems, TilerRef};
/// let owned = TilerRef::Tuple(vec![TilerRef::Int(4), TilerRef::None].into());
/// let items = [TilerRef::Int(4), TilerRef::None];
/// let borrowed = TilerRef::Tuple(TilerItems::Borrowed(&items));
/// assert_eq!(owned, borrowed);
/// assert_eq!(borrowed.to_string(), "(4, None)");
/// ```
#[derive(Clone, Debug)]
pub enum TilerItems<'a> {
    /// Items held in a `Vec`.
    Owned(Vec<TilerRef<'a>>),
    /// Items borrowed from a slice.
    Borrowed(&'a [TilerRef<'a>]),
}

impl<'a> TilerItems<'a> {
    /// The items as an owned `Vec` (a borrowed slice is cloned).
    pub fn into_vec(self) -> Vec<TilerRef<'a>> {
        match self {
            TilerItems::Owned(v) => v,
            TilerItems::Borrowed(s) => s.to_vec(),
        }
    }
}

impl<'a> std::ops::Deref for TilerItems<'a> {
    type Target = [TilerRef<'a>];
    #[inline]
    fn deref(&self) -> &[TilerRef<'a>] {
        match self {
            TilerItems::Owned(v) => v,
            TilerItems::Borrowed(s) => s,
        }
    }
}

impl PartialEq for TilerItems<'_> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<'b, 'a> IntoIterator for &'b TilerItems<'a> {
    type Item = &'b TilerRef<'a>;
    type IntoIter = std::slice::Iter<'b, TilerRef<'a>>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> From<&'a [TilerRef<'a>]> for TilerItems<'a> {
    #[inline]
    fn from(s: &'a [TilerRef<'a>]) -> Self {
        TilerItems::Borrowed(s)
    }
}

impl<'a> From<Vec<TilerRef<'a>>> for TilerItems<'a> {
    #[inline]
    fn from(v: Vec<TilerRef<'a>>) -> Self {
        TilerItems::Owned(v)
    }
}

impl<'a> FromIterator<TilerRef<'a>> for TilerItems<'a> {
    fn from_iter<I: IntoIterator<Item = TilerRef<'a>>>(it: I) -> Self {
        TilerItems::Owned(it.into_iter().collect())
    }
}

/// An owned tiler (no borrowed layouts).
pub type Tiler = TilerRef<'static>;

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        TilerRef::Layout(l)
    }
}

impl<'a> TilerRef<'a> {
    /// The tiler of a shape: an integer leaf or a tuple of shapes.
    pub fn from_shape(s: crate::htuple::HRef<'_, i64>) -> TilerRef<'a> {
        match s.as_leaf() {
            Some(&v) => TilerRef::Int(v),
            None => TilerRef::Tuple(s.modes().map(TilerRef::from_shape).collect()),
        }
    }

    /// The layout, when this tiler is one (owned or borrowed).
    ///
    /// ```
    /// use rcute::{Layout, TilerRef};
    /// let l = Layout::new(4, 2).unwrap();
    /// assert_eq!(TilerRef::Borrowed(&l).as_layout(), Some(&l));
    /// assert_eq!(TilerRef::Int(4).as_layout(), None);
    /// ```
    #[inline]
    pub fn as_layout(&self) -> Option<&Layout> {
        match self {
            TilerRef::Layout(l) => Some(l),
            TilerRef::Borrowed(l) => Some(l),
            _ => None,
        }
    }

    /// The same tiler with every borrowed layout copied.
    pub fn into_owned(self) -> Tiler {
        match self {
            TilerRef::None => TilerRef::None,
            TilerRef::Int(n) => TilerRef::Int(n),
            TilerRef::Layout(l) => TilerRef::Layout(l),
            TilerRef::Borrowed(l) => TilerRef::Layout(l.clone()),
            TilerRef::Tuple(v) => {
                TilerRef::Tuple(v.into_vec().into_iter().map(TilerRef::into_owned).collect())
            }
        }
    }
}

impl fmt::Display for TilerRef<'_> {
    /// Python `str` style: a tuple prints its layouts in repr form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TilerRef::None => f.write_str("None"),
            TilerRef::Int(v) => write!(f, "{v}"),
            TilerRef::Layout(l) => write!(f, "{l}"),
            TilerRef::Borrowed(l) => write!(f, "{l}"),
            TilerRef::Tuple(v) => {
                f.write_str("(")?;
                for (i, t) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match t.as_layout() {
                        Some(l) => f.write_str(&l.repr())?,
                        None => write!(f, "{t}")?,
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

/// Values that convert into a tiler, the right-hand side of composition,
/// the divides and the products: `&Layout` (borrowed: the layout is not
/// copied), a [`TilerRef`], an integer `n` (the layout `n:1`), `None`
/// ("keep this mode"), and tuples, arrays and `Vec`s of these (applied
/// mode by mode).
///
/// ```
/// use rcute::{IntoTiler, Layout};
/// let b = Layout::new(4, 2)?;
/// assert_eq!((&b, 8).into_tiler()?.to_string(), "(Layout(4, 2), 8)");
/// assert_eq!((None::<i64>, 8).into_tiler()?.to_string(), "(None, 8)");
/// # Ok::<(), rcute::Error>(())
/// ```
pub trait IntoTiler<'a>: Sized {
    /// The tiler.
    fn into_tiler(self) -> Result<TilerRef<'a>>;

    /// Calls `f` with the tiler (without building one when `self` already
    /// is a tiler).
    #[inline]
    fn with_tiler<R>(self, f: impl FnOnce(&TilerRef<'_>) -> Result<R>) -> Result<R> {
        f(&self.into_tiler()?)
    }
}

impl<'a> IntoTiler<'a> for &'a Layout {
    #[inline]
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        Ok(TilerRef::Borrowed(self))
    }
}
impl<'a> IntoTiler<'a> for Layout {
    #[inline]
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        Ok(TilerRef::Layout(self))
    }
}
impl<'a> IntoTiler<'a> for TilerRef<'a> {
    #[inline]
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        Ok(self)
    }
}
impl<'a> IntoTiler<'a> for &TilerRef<'a> {
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        Ok(self.clone())
    }
    #[inline]
    fn with_tiler<R>(self, f: impl FnOnce(&TilerRef<'_>) -> Result<R>) -> Result<R> {
        f(self)
    }
}
impl<'a, X: IntoTiler<'a>> IntoTiler<'a> for Option<X> {
    #[inline]
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        match self {
            None => Ok(TilerRef::None),
            Some(x) => x.into_tiler(),
        }
    }
}
impl<'a, X: IntoTiler<'a>, const N: usize> IntoTiler<'a> for [X; N] {
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        Ok(TilerRef::Tuple(
            self.into_iter()
                .map(IntoTiler::into_tiler)
                .collect::<Result<_>>()?,
        ))
    }
    #[inline]
    fn with_tiler<R>(self, f: impl FnOnce(&TilerRef<'_>) -> Result<R>) -> Result<R> {
        if N > 8 {
            // (a long array: its items on the heap, not the stack)
            return f(&self.into_tiler()?);
        }
        // the items on the stack: no heap allocation for the tuple
        let mut items = arrayvec::ArrayVec::<TilerRef<'a>, N>::new();
        for x in self {
            items.push(x.into_tiler()?);
        }
        f(&TilerRef::Tuple(TilerItems::Borrowed(&items)))
    }
}

impl<'a, X: IntoTiler<'a>> IntoTiler<'a> for Vec<X> {
    fn into_tiler(self) -> Result<TilerRef<'a>> {
        Ok(TilerRef::Tuple(
            self.into_iter()
                .map(IntoTiler::into_tiler)
                .collect::<Result<_>>()?,
        ))
    }
}
macro_rules! int_tilers {
    ($($t:ty),*) => {$(
        impl<'a> IntoTiler<'a> for $t {
            #[inline]
            fn into_tiler(self) -> Result<TilerRef<'a>> {
                Ok(TilerRef::Int(crate::convert::int_of(self)?))
            }
        }
    )*};
}
int_tilers!(i64, i32, i16, i8, u32, u16, u8, u64, usize, isize);

macro_rules! tuple_tilers {
    ($(($($n:ident),+)),*) => {$(
        #[allow(non_snake_case)]
        impl<'a, $($n: IntoTiler<'a>),+> IntoTiler<'a> for ($($n,)+) {
            fn into_tiler(self) -> Result<TilerRef<'a>> {
                let ($($n,)+) = self;
                Ok(TilerRef::Tuple(vec![$($n.into_tiler()?),+].into()))
            }
            #[inline]
            fn with_tiler<R>(self, f: impl FnOnce(&TilerRef<'_>) -> Result<R>) -> Result<R> {
                // the items on the stack: no heap allocation for the tuple
                let ($($n,)+) = self;
                let items = [$($n.into_tiler()?),+];
                f(&TilerRef::Tuple(TilerItems::Borrowed(&items)))
            }
        }
    )*};
}
tuple_tilers!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H)
);

/// `tiler_to_layout(T)` (`docs/language.md`, "Tilers"): one layout acting like the
/// tiler under composition; a tuple tiler's leaf at path `p` has its strides
/// scaled into the axis `E(p)`.
///
/// Errors: `type` for a `None` leaf or a coordinate stride scaled by a
/// basis. The empty tuple gives the empty layout `():()`.
pub fn tiler_to_layout(t: &TilerRef<'_>) -> Result<Layout> {
    fn rec(t: &TilerRef<'_>, e: &Scalar, path: &mut Vec<usize>, depth: usize) -> Result<Layout> {
        if depth > crate::htuple::MAX_DEPTH {
            return Err(Error::value("tiler_to_layout: nesting too deep"));
        }
        match t {
            TilerRef::Int(n) => {
                if *n <= 0 {
                    return Err(Error::value(format!("tiler extent {n} must be positive")));
                }
                Ok(Layout::leaf(*n, e.clone()))
            }
            TilerRef::Layout(l) | &TilerRef::Borrowed(l) => {
                let d = l.stride().to_owned().try_map(|d| {
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
            TilerRef::None => Err(Error::type_("tiler_to_layout: None in a tiler")),
            TilerRef::Tuple(v) if v.is_empty() => Ok(Layout::concat_allow_empty([])),
            TilerRef::Tuple(v) => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tilers_borrow_layouts() {
        let l = Layout::new(4, 2).unwrap();
        match (&l).into_tiler().unwrap() {
            TilerRef::Borrowed(b) => assert!(std::ptr::eq(b, &l)),
            t => panic!("expected a borrowed layout, got {t}"),
        }
        let t = (&l, None::<i64>, [2, 3]).into_tiler().unwrap();
        assert_eq!(t.to_string(), "(Layout(4, 2), None, (2, 3))");
    }

    /// A tuple or array tiler given to `with_tiler` is the tiler
    /// `into_tiler` builds, also when the call inside uses another tuple
    /// tiler; an item that does not convert gives the conversion's error
    /// and `f` is not called.
    #[test]
    fn with_tiler_of_tuples_and_arrays() {
        let l = Layout::new(4, 2).unwrap();
        let shown = (&l, None::<i64>, [2, 3])
            .with_tiler(|t| {
                let inner = [5i64, 6].with_tiler(|u| Ok(u.to_string())).unwrap();
                assert_eq!(inner, "(5, 6)");
                Ok(t.to_string())
            })
            .unwrap();
        assert_eq!(shown, "(Layout(4, 2), None, (2, 3))");
        let shown = [7i64, 8, 9].with_tiler(|t| Ok(t.to_string())).unwrap();
        assert_eq!(shown, "(7, 8, 9)");
        let e = (1i64, u64::MAX).with_tiler(|_| -> Result<()> { panic!("called") });
        assert!(e.is_err());
    }
}
