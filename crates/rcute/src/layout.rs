//! Layouts (`docs/language.md`, "Layouts"): a shape and a congruent stride, read as a function
//! from coordinates to offsets (integers), coordinates (coordinate values)
//! or F2 values.

use std::fmt;

use crate::convert::{IntoShape, IntoStride};
use crate::error::{Error, Result};
use crate::htuple::{Builder, HRef, HTuple, Leaves, TupleWriter};
use crate::int;
use crate::integer::Integer;
use crate::shape::{self, Shape};
use crate::stride::{self, Scalar};
use crate::sym::SymInt;

/// The node bytes and leaves of a shape or stride under construction.
pub(crate) type RawParts<'a, T> = (
    &'a mut crate::htuple::Nodes,
    &'a mut crate::htuple::Leaves<T>,
);

/// A layout, or a mode of one, by view: the shape `s` (the profile and the
/// shape leaves) and the stride `d` (the stride leaves under the same
/// profile). Read in place by the algebra, which builds its results from
/// the views of its operands' modes.
#[derive(Clone, Copy)]
pub(crate) struct View<'x> {
    pub(crate) s: HRef<'x, i64>,
    pub(crate) d: HRef<'x, Scalar>,
}

impl<'x> View<'x> {
    /// The view of all of `l`.
    #[inline(always)]
    pub(crate) fn of(l: &'x Layout) -> View<'x> {
        View {
            s: l.shape().as_ref(),
            d: l.stride(),
        }
    }

    /// The modes of the viewed layout (a leaf-shaped one yields itself),
    /// in one walk of the profile: each mode's stride leaves are the next
    /// ones after the previous mode's.
    #[inline]
    pub(crate) fn modes(self) -> impl Iterator<Item = View<'x>> {
        self.s
            .modes_with(self.d.leaves())
            .map(|(s, d)| View { s, d })
    }

    /// The viewed layout, copied.
    pub(crate) fn layout(&self) -> Layout {
        Layout::from_views(self.s, self.d)
    }

    /// Appends the viewed sub-tree to the profile's nodes and the leaves of
    /// a layout under construction. Node bytes do not depend on their
    /// position, so they are copied as they are.
    #[inline]
    pub(crate) fn push_into(
        self,
        nodes: &mut crate::htuple::Nodes,
        sh: &mut crate::htuple::Leaves<i64>,
        st: &mut crate::htuple::Leaves<Scalar>,
    ) {
        // (element by element: the lists are short, and `extend_from_slice`
        // makes two library calls, a `memmove` and a `memcpy`, per list)
        nodes.extend(self.s.node_bytes().iter().copied());
        sh.extend(self.s.leaves().iter().copied());
        st.extend(self.d.leaves().iter().cloned());
    }
}

impl std::fmt::Display for View<'_> {
    /// `S:D` in Python `str` style; `{:#}` gives the C++ style, as for a
    /// [`Layout`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if f.alternate() {
            write!(f, "{:#}:{:#}", self.s, self.d)
        } else {
            write!(f, "{}:{}", self.s, self.d)
        }
    }
}

/// A stride: an HTuple of stride scalars.
pub type Stride = HTuple<Scalar>;

/// A layout `S:D` (`docs/language.md`, "Layouts").
///
/// ```
/// use rcute::{Layout, HTuple, Scalar};
/// let l = Layout::new(HTuple::flat([4, 8]), HTuple::flat([Scalar::Int(8), Scalar::Int(1)])).unwrap();
/// assert_eq!(l.to_string(), "(4, 8):(8, 1)");
/// assert_eq!(l.eval_index(14).unwrap(), Scalar::Int(19));
/// assert_eq!(l.size().unwrap(), 32);
/// ```
///
/// The integer of the shape's leaves is `I`: `i64` (the default; strides
/// are then [`Scalar`]s: integers, coordinate values or F2 values) or
/// [`SymInt`] (a layout over declared symbols, whose
/// strides are symbolic integers: [`SymLayout`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout<I: Integer = i64> {
    /// The shape: the profile (the tree, stored once for the layout) and
    /// the shape leaves.
    shape: HTuple<I>,
    /// The stride leaves, one per shape leaf, under the shape's profile.
    stride: Leaves<I::Stride>,
}

/// A layout whose shape and stride leaves are symbolic integers
/// (`docs/language.md`, "Symbols").
///
/// ```
/// use rcute::sym::{Facts, SymInt};
/// use rcute::{HTuple, SymLayout};
/// let mut f = Facts::new();
/// f.declare("N").unwrap();
/// let n = SymInt::symbol(&f, "N").unwrap();
/// let l = SymLayout::from_shape_stride(
///     HTuple::flat([n.clone(), SymInt::from(4)]),
///     HTuple::flat([SymInt::from(1), n]),
/// ).unwrap();
/// assert_eq!(l.to_string(), "(N, 4):(1, N)");
/// assert_eq!(l.size().unwrap().to_string(), "4*N");
/// ```
pub type SymLayout = Layout<SymInt>;

impl<I: Integer> Layout<I> {
    /// The layout `shape : stride`, checked as [`Layout::new`] checks its
    /// operands: the limits of `docs/limits.md`, congruence, and extents
    /// that are positive (for a symbolic extent: proven positive by the
    /// symbols' facts).
    ///
    /// Errors: `congruence` when the profiles differ; `value` for an extent
    /// not (proven) positive or a value beyond the limits.
    pub fn from_shape_stride(shape: HTuple<I>, stride: HTuple<I::Stride>) -> Result<Layout<I>> {
        shape.as_ref().check_limits("layout: the shape")?;
        stride.as_ref().check_limits("layout: the stride")?;
        if !shape.as_ref().congruent(stride.as_ref()) {
            return Err(Error::congruence(format!(
                "layout: shape {shape} and stride {stride} are not congruent"
            )));
        }
        if let Some(e) = shape
            .leaves()
            .iter()
            .find(|e| e.decide_lt(&I::from_i64(1)) != Some(false))
        {
            return Err(Error::value(format!(
                "shape {shape} has the extent {e}, which is not proven positive; shapes must be positive"
            )));
        }
        Ok(Layout {
            shape,
            stride: stride.into_leaves(),
        })
    }

    /// The layout `shape : stride` of the algebra's results (congruent by
    /// construction): only the leaf counts are checked (a panic, an internal
    /// error), full congruence in debug builds.
    pub(crate) fn from_raw(shape: HTuple<I>, stride: HTuple<I::Stride>) -> Layout<I> {
        // (checked in release builds too: one stride leaf per shape leaf is
        // what every stride view relies on, and a caller that broke it
        // would give wrong strides rather than an error; the builders that
        // write through `raw_mut` are checked in debug builds, which the
        // tests and the fuzz targets run)
        assert_eq!(
            shape.leaves().len(),
            stride.leaves().len(),
            "internal error: a layout built with a stride of another leaf count"
        );
        debug_assert!(shape.as_ref().congruent(stride.as_ref()));
        Layout {
            shape,
            stride: stride.into_leaves(),
        }
    }

    /// The layout of the shape view `s` and the stride view `d` (a layout's
    /// own parts, or a mode's: congruent), copied; only the shape's node
    /// bytes are kept.
    pub(crate) fn from_views(s: HRef<'_, I>, d: HRef<'_, I::Stride>) -> Layout<I> {
        assert_eq!(
            s.leaves().len(),
            d.leaves().len(),
            "internal error: a layout built with a stride of another leaf count"
        );
        debug_assert!(s.congruent(d));
        Layout {
            shape: s.to_owned(),
            stride: d.leaves().iter().cloned().collect(),
        }
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> &HTuple<I> {
        &self.shape
    }

    /// The stride: a view of the stride leaves under the shape's profile
    /// (a layout stores its profile once). `.to_owned()` copies it into an
    /// [`HTuple`].
    ///
    /// ```
    /// let l = rcute::Layout::new(((2, 2), 3), ((24, 2), 8)).unwrap();
    /// assert_eq!(l.stride().to_string(), "((24, 2), 8)");
    /// assert_eq!(l.stride().mode(0).unwrap().to_string(), "(24, 2)");
    /// let owned: rcute::HTuple<rcute::Scalar> = l.stride().to_owned();
    /// assert_eq!(owned.rank(), 2);
    /// ```
    #[inline]
    pub fn stride(&self) -> HRef<'_, I::Stride> {
        HRef::with_profile(self.shape.as_ref(), &self.stride)
    }

    /// The stride leaves in traversal order (one per shape leaf).
    ///
    /// ```
    /// use rcute::{Layout, Scalar};
    /// let l = Layout::new(((2, 2), 3), ((24, 2), 8)).unwrap();
    /// assert_eq!(l.stride_leaves(), &[Scalar::Int(24), Scalar::Int(2), Scalar::Int(8)]);
    /// ```
    #[inline]
    pub fn stride_leaves(&self) -> &[I::Stride] {
        &self.stride
    }

    /// True when the layout holds no heap storage (at most 8 leaves and a
    /// profile of at most 24 node bytes: the common case).
    ///
    /// ```
    /// use rcute::Layout;
    /// assert!(Layout::new((4, 8), (1, 4)).unwrap().is_inline());
    /// assert!(!Layout::column_major([2; 9]).unwrap().is_inline());
    /// ```
    #[inline]
    pub fn is_inline(&self) -> bool {
        self.shape.is_inline() && !self.stride.spilled()
    }

    /// Consumes the layout into `(shape, stride)`.
    pub fn into_parts(self) -> (HTuple<I>, HTuple<I::Stride>) {
        let nodes = self.shape.as_ref().node_bytes().into();
        (self.shape, HTuple::from_raw_parts(nodes, self.stride))
    }

    /// `size(L)`: product of the shape's leaves.
    pub fn size(&self) -> Result<I> {
        shape::size(self.shape.as_ref())
    }

    /// `rank(L)`.
    #[inline]
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// `depth(L)`; a shape containing an empty tuple (`():()`,
    /// `((),):((),)`) is a `value` error, as in the reference.
    pub fn depth(&self) -> Result<usize> {
        self.shape.as_ref().try_depth()
    }

    /// True when the shape is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.shape.is_leaf()
    }

    /// The modes `L[0], L[1], ...` (a leaf-shaped layout yields itself).
    pub fn modes(&self) -> impl Iterator<Item = Layout<I>> + '_ {
        self.shape
            .as_ref()
            .modes_with(&self.stride)
            .map(|(s, d)| Layout::from_views(s, d))
    }

    /// `L[i]` (Python-style negative `i` counts from the end); `i >= rank`
    /// is a `bounds` error (`docs/language.md`, "Mode access").
    ///
    /// ```
    /// use rcute::{Layout, HTuple};
    /// let l = Layout::column_major(HTuple::flat([4, 8])).unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "8:4");
    /// assert_eq!(l.mode(-1).unwrap().to_string(), "8:4");
    /// assert!(l.mode(2).is_err());
    /// ```
    pub fn mode(&self, i: i64) -> Result<Layout<I>> {
        let r = self.rank() as i64;
        let j = if i < 0 { i + r } else { i };
        if j < 0 || j >= r {
            return Err(Error::bounds(format!(
                "mode {i} out of range for {self} of rank {r}"
            )));
        }
        let j = j as usize;
        match self.shape.as_ref().modes_with(&self.stride).nth(j) {
            Some((s, d)) => Ok(Layout::from_views(s, d)),
            _ => Err(Error::bounds(format!("mode {i} out of range for {self}"))),
        }
    }

    /// `get(L, path)`: the sub-layout at a mode path. Indexing into a leaf
    /// is a `type` error, an index past the rank a `bounds` error.
    pub fn get(&self, path: &[usize]) -> Result<Layout<I>> {
        Ok(Layout::from_views(
            self.shape.as_ref().get(path)?,
            self.stride().get(path)?,
        ))
    }

    /// The leaf modes `(extent, stride)` in traversal order.
    pub fn leaf_modes(&self) -> impl Iterator<Item = (&I, &I::Stride)> + '_ {
        self.shape.leaves().iter().zip(self.stride.iter())
    }
}

impl Layout {
    /// The layout `shape : stride` (the notation's literal `S:D`).
    ///
    /// Errors: `congruence` when the profiles differ; `value` for a zero or
    /// negative extent, a shape or stride nested deeper than
    /// [`MAX_DEPTH`](crate::htuple::MAX_DEPTH) levels or with more than
    /// [`MAX_LEAVES`](crate::htuple::MAX_LEAVES) leaves (`docs/limits.md`).
    pub fn new(shape: impl IntoShape, stride: impl IntoStride) -> Result<Layout> {
        let shape = shape.into_shape()?;
        let stride = stride.into_stride()?;
        check_parts(shape.as_ref(), stride.as_ref())?;
        Ok(Layout {
            shape,
            stride: stride.into_leaves(),
        })
    }

    /// Rebuilds this layout in place: `write` writes the layout in
    /// pre-order through a [`LayoutWriter`] (a tuple is its number of
    /// modes, a leaf its extent and stride together, so the stride has the
    /// shape's profile by construction) straight into the layout's storage
    /// (reused, so no value is built elsewhere and moved in); the result is
    /// then checked as [`Layout::new`] checks its operands, with the same
    /// errors, and must have been written as one complete value (a `value`
    /// error otherwise). An error of `write` is returned as it is. On any
    /// error the layout is `1:0`.
    ///
    /// ```
    /// use rcute::{Layout, Scalar};
    /// let mut l = Layout::leaf(1, Scalar::Int(0));
    /// l.build_in_place(|w| {
    ///     w.tuple(2);
    ///     w.leaf(4, Scalar::Int(4));
    ///     w.tuple(2);
    ///     w.leaf(4, Scalar::Int(1));
    ///     w.leaf(2, Scalar::Int(16));
    ///     Ok(())
    /// }).unwrap();
    /// assert_eq!(l.to_string(), "(4, (4, 2)):(4, (1, 16))");
    /// // a zero extent: the error of Layout::new, and `1:0`
    /// let e = l.build_in_place(|w| {
    ///     w.tuple(2);
    ///     w.leaf(4, Scalar::Int(1));
    ///     w.leaf(0, Scalar::Int(4));
    ///     Ok(())
    /// }).unwrap_err();
    /// assert_eq!(e.message(), "shape (4, 0) has the non-positive extent 0; shapes must be positive");
    /// assert_eq!(l.to_string(), "1:0");
    /// ```
    pub fn build_in_place(
        &mut self,
        write: impl FnOnce(&mut LayoutWriter<'_>) -> Result<()>,
    ) -> Result<()> {
        self.reset();
        let ((sn, sl), dl) = self.raw_mut();
        let mut w = LayoutWriter {
            shape: TupleWriter::new(sn, sl),
            stride: dl,
        };
        // (a panic of `write` leaves the layout `1:0` too, then goes on)
        let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| write(&mut w)));
        let r = match written {
            Ok(r) => r
                .and_then(|()| w.shape.check_complete("layout: the layout"))
                .and_then(|()| check_written(self.shape.as_ref(), &self.stride)),
            Err(panic) => {
                self.set_unit();
                std::panic::resume_unwind(panic)
            }
        };
        if r.is_err() {
            self.set_unit();
        }
        r
    }

    /// Makes this layout `1:0`, keeping its storage.
    fn set_unit(&mut self) {
        self.reset();
        let ((sn, sl), dl) = self.raw_mut();
        TupleWriter::new(sn, sl).leaf(1);
        dl.push(Scalar::Int(0));
    }

    /// "set S:D": builds the layout from parts the algebra made (to
    /// reproduce the reference's internal constructions exactly). The
    /// caller guarantees congruence; [`Layout::from_raw`] checks the leaf
    /// counts.
    #[inline]
    pub(crate) fn from_parts(shape: Shape, stride: Stride) -> Layout {
        Layout::from_raw(shape, stride)
    }

    /// An unfilled layout (no nodes, no leaves) for the algebra to build a
    /// result in place through [`Layout::raw_mut`], instead of moving
    /// separately built parts into it.
    #[inline(always)]
    pub(crate) fn blank() -> Layout {
        Layout {
            shape: HTuple::blank(),
            stride: Leaves::new(),
        }
    }

    /// Empties the layout (no nodes, no leaves), keeping its storage, so
    /// that the algebra can build a result in place into a layout that
    /// held an earlier one (the `*_into` functions).
    #[inline(always)]
    pub(crate) fn reset(&mut self) {
        let ((n, s), d) = self.raw_mut();
        n.clear();
        s.clear();
        d.clear();
    }

    /// The profile's node bytes with the shape leaves, and the stride
    /// leaves, for building in place; the caller writes one stride leaf
    /// per shape leaf.
    #[inline(always)]
    pub(crate) fn raw_mut(&mut self) -> (RawParts<'_, i64>, &mut Leaves<Scalar>) {
        (self.shape.raw_mut(), &mut self.stride)
    }

    /// `Layout(S, D)` with an HTuple `D` weakly congruent to `S`: each scalar
    /// leaf of `D` seeds a prefix product over the sub-shape it stands for
    /// (`docs/operations.md`). `D = 1` gives the column-major layout.
    ///
    /// Errors: `rank` when a stride tuple has another length than the
    /// shape's tuple at its place, `congruence` for a stride tuple where the
    /// shape has a leaf (both messages name the construction
    /// `Layout(S, D)`); `value` for a non-positive extent.
    ///
    /// ```
    /// use rcute::{Layout, HTuple, Scalar};
    /// let s = HTuple::tuple([HTuple::leaf(2), HTuple::flat([3, 4])]);
    /// let d = HTuple::flat([Scalar::Int(100), Scalar::Int(1)]);
    /// assert_eq!(Layout::with_stride(s, d.as_ref()).unwrap().to_string(), "(2, (3, 4)):(100, (1, 3))");
    /// ```
    pub fn with_stride(shape: impl IntoShape, stride: HRef<'_, Scalar>) -> Result<Layout> {
        let shape = shape.into_shape()?;
        check_positive(shape.as_ref())?;
        let d = stride::prefix_product_tuple(shape.as_ref(), stride).map_err(|e| {
            // the expansion is an implementation detail: name the user's
            // construction, not `prefix_product`
            match e.message().strip_prefix("prefix_product: ") {
                Some(rest) => Error::new(e.kind(), format!("Layout({shape}, {stride}): {rest}")),
                None => e,
            }
        })?;
        Ok(Layout {
            shape,
            stride: d.into_leaves(),
        })
    }

    /// `LayoutLeft(S)`: the column-major layout of `S` (`Layout(S)`).
    ///
    /// ```
    /// use rcute::{Layout, HTuple};
    /// assert_eq!(Layout::column_major(HTuple::flat([4, 8])).unwrap().to_string(), "(4, 8):(1, 4)");
    /// ```
    pub fn column_major(shape: impl IntoShape) -> Result<Layout> {
        let shape = shape.into_shape()?;
        check_positive(shape.as_ref())?;
        let d = stride::prefix_product(shape.as_ref(), &Scalar::Int(1))?;
        Ok(Layout {
            shape,
            stride: d.into_leaves(),
        })
    }

    /// `LayoutRight(S)`: the row-major layout of `S` (the last leaf is
    /// fastest), as C++ `make_layout(S, LayoutRight{})`.
    ///
    /// ```
    /// use rcute::{Layout, HTuple};
    /// assert_eq!(Layout::row_major(HTuple::flat([4, 8])).unwrap().to_string(), "(4, 8):(8, 1)");
    /// ```
    pub fn row_major(shape: impl IntoShape) -> Result<Layout> {
        let shape = shape.into_shape()?;
        check_positive(shape.as_ref())?;
        let leaves = shape.leaves();
        let mut d = vec![Scalar::Int(0); leaves.len()];
        let mut acc: i64 = 1;
        for (k, &s) in leaves.iter().enumerate().rev() {
            d[k] = Scalar::Int(acc);
            acc = int::mul(acc, s)?;
        }
        Ok(Layout {
            shape,
            stride: d.into_iter().collect(),
        })
    }

    /// `L(i)` for an integral coordinate `i` (any integer: the last mode
    /// absorbs overflow, negative indices use floor division).
    pub fn eval_index(&self, i: i64) -> Result<Scalar> {
        let s = self.shape.leaves();
        let d = self.stride_leaves();
        let n = s.len();
        if n == 0 {
            return Ok(Scalar::Int(0));
        }
        // integer fast path: the offset is summed exactly (`ExactSum`), so
        // it is an overflow error only when L(i) itself does not fit in 64
        // bits, whatever the order of the terms and their partial sums
        if d.iter().all(|x| matches!(x, Scalar::Int(_))) {
            let mut q = i;
            let mut acc = int::ExactSum::default();
            for k in 0..n {
                let digit = if k + 1 == n {
                    q
                } else {
                    let (qq, r) = int::floor_divmod(q, s[k])?;
                    q = qq;
                    r
                };
                if let Scalar::Int(dk) = d[k] {
                    acc.add_product(digit, dk);
                }
            }
            return exact_offset(acc.value(), || format!("{self}({i})"));
        }
        let mut q = i;
        let mut acc = Scalar::Int(0);
        for k in 0..n {
            let digit = if k + 1 == n {
                q
            } else {
                let (qq, r) = int::floor_divmod(q, s[k])?;
                q = qq;
                r
            };
            acc = acc.add(&d[k].mul_int(digit)?)?;
        }
        Ok(acc)
    }

    /// `L(c)` for a coordinate in any form (`docs/language.md`, "Evaluating a layout"): `idx2crd`
    /// to the natural coordinate, then the inner product with the stride.
    /// `None` leaves contribute 0. Errors: those of `idx2crd`.
    pub fn eval(&self, c: HRef<'_, Option<Scalar>>) -> Result<Scalar> {
        if let Some(Some(Scalar::Int(i))) = c.as_leaf() {
            return self.eval_index(*i);
        }
        if let Some(v) = self.eval_natural_int(c) {
            return Ok(Scalar::Int(v));
        }
        if self.has_integer_strides() {
            let (mut pos, mut acc) = (0, 0);
            let st = self.stride_leaves();
            if eval_int(c, self.shape.as_ref(), st, &mut pos, &mut acc, 0).is_some()
                && pos == st.len()
            {
                return Ok(Scalar::Int(acc));
            }
        }
        let nat = shape::idx2crd(c, self.shape.as_ref())?;
        if self.has_integer_strides() && nat.leaves().iter().all(|x| matches!(x, Scalar::Int(_))) {
            // summed exactly, as in eval_index
            let mut acc = int::ExactSum::default();
            for (x, d) in nat.leaves().iter().zip(self.stride_leaves()) {
                if let (Scalar::Int(x), Scalar::Int(d)) = (x, d) {
                    acc.add_product(*x, *d);
                }
            }
            return exact_offset(acc.value(), || {
                format!("{self}({})", shape::DisplayCoord(c))
            });
        }
        let mut acc = Scalar::Int(0);
        for (x, d) in nat.leaves().iter().zip(self.stride_leaves()) {
            acc = acc.add(&x.mul(d)?)?;
        }
        Ok(acc)
    }

    /// The repr style `Layout(<shape>, <stride>)`.
    ///
    /// ```
    /// use rcute::{Layout, HTuple};
    /// assert_eq!(Layout::column_major(HTuple::flat([4, 8])).unwrap().repr(), "Layout((4, 8), (1, 4))");
    /// ```
    pub fn repr(&self) -> String {
        format!("Layout({}, {})", self.shape, self.stride())
    }

    /// The layout `make_layout(modes...)`: concatenation into a tuple shape.
    /// No modes is a `value` error (empty concatenation).
    ///
    /// ```
    /// use rcute::{Layout, HTuple};
    /// let a = Layout::column_major(HTuple::leaf(3)).unwrap();
    /// assert_eq!(Layout::concat([a]).unwrap().to_string(), "(3,):(1,)");
    /// ```
    pub fn concat(modes: impl IntoIterator<Item = Layout>) -> Result<Layout> {
        Self::try_concat(modes.into_iter().map(Ok))
    }

    /// [`concat`](Self::concat) of fallible modes: the first error is
    /// returned; no modes is the same `value` error.
    pub(crate) fn try_concat(modes: impl IntoIterator<Item = Result<Layout>>) -> Result<Layout> {
        let mut bs = Builder::new();
        let mut stride = Leaves::new();
        bs.open();
        let mut n = 0;
        for m in modes {
            let m = m?;
            bs.push_owned(m.shape);
            stride.extend(m.stride);
            n += 1;
        }
        if n == 0 {
            return Err(Error::value("make_layout: empty concatenation"));
        }
        bs.close();
        Ok(Layout {
            shape: bs.finish(),
            stride,
        })
    }

    /// The concatenation `(x, y)` of two borrowed layouts (what
    /// `concat([x.clone(), y.clone()])` gives, without the copies).
    pub(crate) fn concat_pair(x: &Layout, y: &Layout) -> Layout {
        let mut out = Layout::blank();
        Layout::concat_pair_into(x, y, &mut out);
        out
    }

    /// [`Layout::concat_pair`] built in `out` (its storage reused).
    pub(crate) fn concat_pair_into(x: &Layout, y: &Layout, out: &mut Layout) {
        out.reset();
        let ((nodes, sh), st) = out.raw_mut();
        nodes.push(2);
        View::of(x).push_into(nodes, sh, st);
        View::of(y).push_into(nodes, sh, st);
    }

    /// The concatenation of `modes`, allowing zero modes (`():()`).
    pub fn concat_allow_empty(modes: impl IntoIterator<Item = Layout>) -> Layout {
        let mut bs = Builder::new();
        let mut stride = Leaves::new();
        bs.open();
        for m in modes {
            bs.push_owned(m.shape);
            stride.extend(m.stride);
        }
        bs.close();
        Layout {
            shape: bs.finish(),
            stride,
        }
    }

    /// A leaf-shaped layout `s:d`.
    pub fn leaf(s: i64, d: Scalar) -> Layout {
        Layout {
            shape: HTuple::leaf(s),
            stride: std::iter::once(d).collect(),
        }
    }

    /// The flat list of `(shape leaf, stride leaf)` pairs in traversal order.
    pub fn flat_modes(&self) -> impl Iterator<Item = (i64, &Scalar)> + '_ {
        self.shape
            .leaves()
            .iter()
            .copied()
            .zip(self.stride_leaves())
    }

    /// `L(c)` for a natural coordinate of integers (congruent to the
    /// shape: each leaf is its own digit, whatever its range) and integer
    /// strides: the inner product of the leaves, in leaf order. `None`
    /// where the walk of [`Layout::eval`] is needed (another form, a
    /// `None` or non-integer leaf, an overflow in 64 bits).
    #[inline]
    fn eval_natural_int(&self, c: HRef<'_, Option<Scalar>>) -> Option<i64> {
        if c.node_bytes() != self.shape.as_ref().node_bytes() {
            return None;
        }
        let mut acc: i64 = 0;
        for (x, d) in c.leaves().iter().zip(self.stride_leaves()) {
            let (Some(Scalar::Int(x)), Scalar::Int(d)) = (x, d) else {
                return None;
            };
            acc = acc.checked_add(x.checked_mul(*d)?)?;
        }
        Some(acc)
    }

    /// True when every stride leaf is an integer.
    pub fn has_integer_strides(&self) -> bool {
        self.stride.iter().all(|d| matches!(d, Scalar::Int(_)))
    }
}

/// The integer offset of an exact sum (`None`: the sum is beyond 128
/// bits); an `overflow` error naming `what` when it does not fit in 64
/// bits.
fn exact_offset(acc: Option<i128>, what: impl FnOnce() -> String) -> Result<Scalar> {
    match acc {
        Some(v) => match i64::try_from(v) {
            Ok(v) => Ok(Scalar::Int(v)),
            Err(_) => Err(Error::overflow(format!(
                "{} = {v} overflows 64 bits",
                what()
            ))),
        },
        None => Err(Error::overflow(format!("{} overflows 64 bits", what()))),
    }
}

/// `L(c)` for integer strides and a coordinate of integers and `None`s:
/// the walk of `idx2crd` accumulating the inner product with the strides
/// directly (same leaf order, so the same overflow points). `None` where
/// the general code could branch differently or fail.
fn eval_int(
    c: HRef<'_, Option<Scalar>>,
    s: HRef<'_, i64>,
    st: &[Scalar],
    pos: &mut usize,
    acc: &mut i64,
    depth: usize,
) -> Option<()> {
    if depth > crate::htuple::MAX_DEPTH {
        return None;
    }
    match c.as_leaf() {
        Some(None) => {
            *pos += s.num_leaves();
            Some(())
        }
        Some(Some(Scalar::Int(i))) => {
            let leaves = s.leaves();
            let n = leaves.len();
            let mut q = *i;
            for (k, &e) in leaves.iter().enumerate() {
                let digit = if k + 1 == n {
                    q
                } else {
                    let (qq, r) = crate::int::fdm(q, e)?;
                    q = qq;
                    r
                };
                let Scalar::Int(d) = st.get(*pos + k)? else {
                    return None;
                };
                *acc = acc.checked_add(digit.checked_mul(*d)?)?;
            }
            *pos += n;
            Some(())
        }
        Some(Some(_)) => None,
        None => {
            if s.is_leaf() || c.rank() != s.rank() {
                return None;
            }
            for (cm, sm) in c.modes().zip(s.modes()) {
                eval_int(cm, sm, st, pos, acc, depth + 1)?;
            }
            Some(())
        }
    }
}

impl Layout {
    /// This layout as a [`SymLayout`] (every leaf a constant symbolic
    /// integer). Errors: `type` for a coordinate or F2 stride (symbolic
    /// layouts have integer strides).
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 8), (1, 4)).unwrap();
    /// assert_eq!(l.to_sym().unwrap().to_string(), "(4, 8):(1, 4)");
    /// ```
    pub fn to_sym(&self) -> Result<SymLayout> {
        let stride = self
            .stride
            .iter()
            .map(|d| match d {
                Scalar::Int(v) => Ok(SymInt::from(*v)),
                _ => Err(Error::type_(format!(
                    "the layout {self} has the stride {d}; a layout with symbols has integer strides"
                ))),
            })
            .collect::<Result<_>>()?;
        Ok(Layout {
            shape: self.shape.map(|&e| SymInt::from(e)),
            stride,
        })
    }
}

impl SymLayout {
    /// The concrete layout, when no leaf depends on a symbol.
    ///
    /// ```
    /// let l = rcute::Layout::new((4, 8), (1, 4)).unwrap();
    /// assert_eq!(l.to_sym().unwrap().to_concrete(), Some(l));
    /// ```
    pub fn to_concrete(&self) -> Option<Layout> {
        let shape = self
            .shape
            .try_map(|e| e.as_const().ok_or_else(|| Error::type_("")));
        let stride = self
            .stride
            .iter()
            .map(|d| d.as_const().map(Scalar::Int))
            .collect::<Option<_>>()?;
        Some(Layout {
            shape: shape.ok()?,
            stride,
        })
    }

    /// The layout with the symbols named in `values` replaced by those
    /// values (checked against the symbols' facts, as
    /// [`SymInt::subs`]); the others stay.
    ///
    /// Errors: those of [`SymInt::subs`] (`value` for a value that breaks a
    /// fact); `value` for an extent that is not positive after the
    /// substitution.
    pub fn subs(&self, values: &[(&str, i64)]) -> Result<SymLayout> {
        let shape = self.shape.try_map(|e| e.subs(values))?;
        let stride = self.stride().to_owned().try_map(|d| d.subs(values))?;
        Layout::from_shape_stride(shape, stride)
    }

    /// `L(i)` for an index `i`: `crd2idx(idx2crd(i, S), D)`, symbolic where
    /// the symbols' facts do not resolve the divisions
    /// (`Layout((N,4))(5)` is `N*(5//N) + 5 % N`).
    ///
    /// Errors: those of [`crate::shape::idx2crd_sym`]; `overflow`.
    pub fn eval_index(&self, i: &SymInt) -> Result<SymInt> {
        let c = crate::shape::idx2crd_sym(HTuple::leaf(i.clone()).as_ref(), self.shape.as_ref())?;
        self.eval_coord(c.as_ref())
    }

    /// `L(c)` for a coordinate `c` (an index, or a tuple congruent to a
    /// prefix of the shape's profile: each leaf of `c` is split over the
    /// sub-shape it stands for, as `idx2crd`).
    ///
    /// Errors: `rank` for a coordinate of another profile; those of
    /// [`crate::shape::idx2crd_sym`].
    pub fn eval_coord(&self, c: HRef<'_, SymInt>) -> Result<SymInt> {
        let full = crate::shape::idx2crd_sym(c, self.shape.as_ref())?;
        let mut acc = SymInt::from(0);
        if full.leaves().len() != self.stride_leaves().len() {
            return Err(Error::rank(format!(
                "the coordinate {c} does not match the layout {self}"
            )));
        }
        for (x, d) in full.leaves().iter().zip(self.stride_leaves()) {
            acc = acc.add(&x.mul(d)?)?;
        }
        Ok(acc)
    }

    /// `cosize(L) = 1 + sum((s-1)*|d|)`: the strides' signs must be
    /// decided by the symbols' facts.
    ///
    /// Errors: `value` for a stride whose sign the facts do not decide;
    /// `overflow`.
    pub fn cosize(&self) -> Result<SymInt> {
        let mut acc = SymInt::from(1);
        for (s, d) in self.leaf_modes() {
            let d = match d.lt(&SymInt::from(0)) {
                Some(true) => d.neg()?,
                Some(false) => d.clone(),
                None => {
                    return Err(Error::value(format!(
                        "cosize({self}): the sign of the stride {d} is not decided by the \
                         symbols' facts"
                    )))
                }
            };
            acc = acc.add(&s.sub(&SymInt::from(1))?.mul(&d)?)?;
        }
        Ok(acc)
    }
}

/// The checks of [`Layout::new`] on a shape and a stride: limits,
/// congruence, positive extents.
#[inline]
fn check_parts(shape: HRef<'_, i64>, stride: HRef<'_, Scalar>) -> Result<()> {
    // congruent (the same node bytes): the stride has the shape's limits,
    // so the checks left are those of a layout written with one profile
    if shape.congruent(stride) {
        return check_written(shape, stride.leaves());
    }
    parts_error(shape, stride)
}

/// Writes a layout in pre-order straight into its storage
/// ([`Layout::build_in_place`]): a tuple is its number of modes
/// ([`tuple`](Self::tuple)) followed by its modes, a leaf its extent and its
/// stride ([`leaf`](Self::leaf)). The shape and the stride share one
/// profile, so they are congruent whatever is written; what is written is
/// checked when the construction ends (one complete value, the limits,
/// positive extents).
pub struct LayoutWriter<'a> {
    shape: TupleWriter<'a, i64>,
    stride: &'a mut Leaves<Scalar>,
}

impl LayoutWriter<'_> {
    /// Starts a tuple of `rank` modes (written next).
    #[inline(always)]
    pub fn tuple(&mut self, rank: usize) {
        self.shape.tuple(rank);
    }

    /// Writes a leaf: the extent `extent` with the stride `stride`.
    #[inline(always)]
    pub fn leaf(&mut self, extent: i64, stride: Scalar) {
        self.shape.leaf(extent);
        self.stride.push(stride);
    }
}

/// The checks of a layout whose stride leaves `stride` have the shape's
/// profile (written by [`Layout::build_in_place`], or congruent in
/// [`check_parts`]): the limits and positive extents, all passed without
/// building any message; otherwise the error [`check_parts`] reports.
#[inline]
fn check_written(shape: HRef<'_, i64>, stride: &[Scalar]) -> Result<()> {
    use crate::htuple::{MAX_DEPTH, MAX_LEAVES};
    if shape.num_leaves() <= MAX_LEAVES
        && shape.depth_within(MAX_DEPTH)
        && shape.leaves().iter().all(|&e| e > 0)
    {
        return Ok(());
    }
    parts_error(
        shape,
        HRef::with_profile_unchecked(shape.node_bytes(), stride),
    )
}

/// The error [`check_parts`] reports (the first check that fails).
#[cold]
#[inline(never)]
fn parts_error(shape: HRef<'_, i64>, stride: HRef<'_, Scalar>) -> Result<()> {
    shape.check_limits("layout: the shape")?;
    stride.check_limits("layout: the stride")?;
    if !shape.congruent(stride) {
        return Err(Error::congruence(format!(
            "layout: shape {shape} and stride {stride} are not congruent"
        )));
    }
    check_extents(shape)
}

pub(crate) fn check_positive(s: HRef<'_, i64>) -> Result<()> {
    s.check_limits("layout: the shape")?;
    check_extents(s)
}

/// `value` error for a zero or negative extent of the shape `s`.
fn check_extents(s: HRef<'_, i64>) -> Result<()> {
    if let Some(&e) = s.leaves().iter().find(|&&e| e <= 0) {
        return Err(Error::value(format!(
            "shape {s} has the non-positive extent {e}; shapes must be positive"
        )));
    }
    Ok(())
}

impl<I: Integer> fmt::Display for Layout<I> {
    /// `S:D` in Python `str` style; `{:#}` gives the C++ style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            write!(f, "{:#}:{:#}", self.shape, self.stride())
        } else {
            write!(f, "{}:{}", self.shape, self.stride())
        }
    }
}

/// Shows the structure: `Layout { shape: (4, 8), stride: (1, 4) }`
/// (`{:#?}` prints one field per line).
///
/// ```
/// let l = rcute::Layout::new((4, 8), (1, 4)).unwrap();
/// assert_eq!(format!("{l:?}"), "Layout { shape: (4, 8), stride: (1, 4) }");
/// ```
impl<I: Integer> fmt::Debug for Layout<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Plain<'a, T>(HRef<'a, T>);
        impl<T: fmt::Display> fmt::Debug for Plain<'_, T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
        f.debug_struct("Layout")
            .field("shape", &Plain(self.shape.as_ref()))
            .field("stride", &Plain(self.stride()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    /// A view prints as the layout it reads, in both styles (expected
    /// values: the layout's own `Display`, checked by the doctests).
    #[test]
    fn view_display_follows_layout() {
        let l: Layout = "((2,2),3):((24,2),8)".parse().unwrap();
        let v = View::of(&l);
        assert_eq!(v.to_string(), l.to_string());
        assert_eq!(format!("{v:#}"), format!("{l:#}"));
        assert_ne!(format!("{v:#}"), v.to_string());
        let m = v.modes().next().unwrap();
        assert_eq!(format!("{m:#}"), format!("{:#}", l.mode(0).unwrap()));
    }

    /// The internal constructors refuse a stride of another leaf count in
    /// release builds too (a panic, not a wrong stride view).
    #[test]
    #[should_panic(expected = "another leaf count")]
    fn from_raw_checks_leaf_count() {
        let _ = Layout::from_raw(HTuple::flat([2i64, 3]), HTuple::leaf(Scalar::Int(1)));
    }

    /// Writes the layout `s:d` (congruent) through `w`.
    fn write_layout(s: HRef<'_, i64>, d: HRef<'_, Scalar>, w: &mut LayoutWriter<'_>) {
        match (s.as_leaf(), d.as_leaf()) {
            (Some(&e), Some(v)) => w.leaf(e, v.clone()),
            _ => {
                w.tuple(s.rank());
                for (x, y) in s.modes().zip(d.modes()) {
                    write_layout(x, y, w);
                }
            }
        }
    }

    #[test]
    fn build_in_place_checks_as_new() {
        let unit = Layout::leaf(1, Scalar::Int(0));
        let s2 = HTuple::flat([4i64, 8]);
        let deep =
            (0..=crate::htuple::MAX_DEPTH).fold(HTuple::leaf(2i64), |t, _| HTuple::tuple([t]));
        let cases: Vec<(HTuple<i64>, HTuple<i64>)> = vec![
            // valid (expected: Layout::new's value)
            (s2.clone(), HTuple::flat([1i64, 4])),
            (HTuple::leaf(24), HTuple::leaf(1)),
            (HTuple::empty(), HTuple::empty()),
            // a zero and a negative extent, too deep (Layout::new's errors)
            (HTuple::flat([4i64, 0]), HTuple::flat([1i64, 4])),
            (
                HTuple::tuple([HTuple::leaf(-2i64), s2.clone()]),
                HTuple::tuple([HTuple::leaf(1i64), HTuple::flat([1i64, 1])]),
            ),
            (deep.clone(), deep.map(|_| 1i64)),
        ];
        for (s, d) in cases {
            let d = d.map(|&v| Scalar::Int(v));
            let expected = Layout::new(s.clone(), d.clone());
            let mut l = Layout::leaf(7, Scalar::Int(3));
            let got = l.build_in_place(|w| {
                write_layout(s.as_ref(), d.as_ref(), w);
                Ok(())
            });
            match expected {
                Ok(e) => {
                    assert!(got.is_ok(), "{s}:{d}");
                    assert_eq!(l, e);
                }
                Err(e) => {
                    let g = got.unwrap_err();
                    assert_eq!((g.kind(), g.message()), (e.kind(), e.message()), "{s}:{d}");
                    assert_eq!(l, unit, "left as 1:0 after an error");
                }
            }
        }
    }

    #[test]
    fn build_in_place_refuses_incomplete_writes() {
        let unit = Layout::leaf(1, Scalar::Int(0));
        type Write = fn(&mut LayoutWriter<'_>);
        let one = || Scalar::Int(1);
        let bad: [Write; 4] = [
            // a mode missing
            |w| {
                w.tuple(2);
                w.leaf(4, Scalar::Int(1));
            },
            // a leaf past the end
            |w| {
                w.leaf(4, Scalar::Int(1));
                w.leaf(2, Scalar::Int(4));
            },
            // nothing written
            |_| {},
            // a rank past 32 bits
            |w| {
                w.tuple(u32::MAX as usize + 3);
                w.leaf(1, Scalar::Int(1));
                w.leaf(1, Scalar::Int(1));
            },
        ];
        for (k, write) in bad.into_iter().enumerate() {
            let mut l = Layout::leaf(7, Scalar::Int(3));
            let e = l
                .build_in_place(|w| {
                    write(w);
                    Ok(())
                })
                .unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Value, "case {k}");
            assert!(
                e.message()
                    .starts_with("layout: the layout was not written"),
                "case {k}: {}",
                e.message()
            );
            assert_eq!(l, unit, "case {k}");
        }
        // the writer's own error is returned as it is
        let mut l = Layout::leaf(7, Scalar::Int(3));
        let e = l
            .build_in_place(|w| {
                w.leaf(2, one());
                Err(Error::type_("not read"))
            })
            .unwrap_err();
        assert_eq!((e.kind(), e.message()), (ErrorKind::Type, "not read"));
        assert_eq!(l, unit);
        // a panic of the writer: the layout is `1:0` where it is caught
        let mut l = Layout::leaf(7, Scalar::Int(3));
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = l.build_in_place(|w| {
                w.tuple(3);
                panic!("stopped while writing");
            });
        }));
        assert!(caught.is_err());
        assert_eq!(l, unit);
    }

    /// The representation: one profile per layout (the shape's node
    /// bytes), the shape leaves and the stride leaves inline. The figures
    /// of `docs/design.md` come from this test's output
    /// (`cargo test -p rcute --lib representation_sizes -- --nocapture`).
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn representation_sizes() {
        use std::mem::size_of;
        let sizes = [
            ("Layout", size_of::<Layout>()),
            ("SymLayout", size_of::<SymLayout>()),
            ("HTuple<i64>", size_of::<HTuple<i64>>()),
            ("Leaves<Scalar>", size_of::<Leaves<Scalar>>()),
            ("Scalar", size_of::<Scalar>()),
            ("notation::Value", size_of::<crate::notation::Value>()),
            ("Tiler", size_of::<crate::tiler::Tiler>()),
            ("Error", size_of::<Error>()),
        ];
        for (name, n) in sizes {
            println!("{name}: {n}");
        }
        // the profile is stored once: a layout is its shape and its stride
        // leaves, nothing more
        assert_eq!(
            size_of::<Layout>(),
            size_of::<HTuple<i64>>() + size_of::<Leaves<Scalar>>()
        );
        // a layout of up to 8 leaves and a short profile needs no heap
        let l = Layout::new(((2, 2), (2, 2, 2), 2), ((1, 2), (4, 8, 16), 32)).unwrap();
        assert!(l.is_inline());
    }
}
