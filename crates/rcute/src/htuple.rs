//! Hierarchical tuples (`docs/operations.md`): a leaf, or an ordered sequence of
//! hierarchical tuples.
//!
//! Storage is flat: the tree's nodes in pre-order and its leaves in traversal
//! order, both in small inline vectors, so that typical values (up to 8
//! leaves and 16 nodes) live without any heap allocation. [`HRef`] is a
//! borrowed view of a sub-tree (a mode, or a mode of a mode, ...).

use smallvec::SmallVec;
use std::fmt;

use crate::error::{Error, Result};

/// Maximum nesting depth accepted anywhere (recursion is bounded by it).
pub const MAX_DEPTH: usize = 64;

/// Maximum number of leaves of a shape or stride accepted by the checked
/// layout constructors (`docs/limits.md`). Several algorithms
/// (composition, layout_add, ...) take time quadratic in the number of
/// modes; this bound keeps every call fast.
pub const MAX_LEAVES: usize = 4096;

/// The pre-order node encoding: one byte per node for ranks up to 253
/// (`LEAF` for a leaf), or `WIDE` followed by the rank as 4 little-endian
/// bytes. The encoding is canonical, so two profiles are equal exactly when
/// their node bytes are.
pub(crate) type Nodes = SmallVec<[u8; 24]>;
/// Inline leaf storage of an [`HTuple`].
pub type Leaves<T> = SmallVec<[T; 8]>;

pub(crate) const LEAF: u8 = 255;
pub(crate) const WIDE: u8 = 254;
/// Rank value standing for a leaf in [`decode`].
const LEAF_RANK: u32 = u32::MAX;

/// The rank (or `LEAF_RANK`) of the node at the start of `nodes` and the
/// number of bytes it takes.
#[inline(always)]
fn decode(nodes: &[u8]) -> (u32, usize) {
    match nodes.first() {
        Some(&LEAF) => (LEAF_RANK, 1),
        Some(&WIDE) => match nodes.get(1..5) {
            Some(b) => (u32::from_le_bytes([b[0], b[1], b[2], b[3]]), 5),
            None => (0, nodes.len()),
        },
        Some(&r) => (r as u32, 1),
        None => (0, 0),
    }
}

/// The extent of the sub-tree starting at `nodes[0]`: its node bytes and
/// its number of leaves.
#[inline]
pub(crate) fn extent(nodes: &[u8]) -> (usize, usize) {
    let mut i = 0;
    let mut pending: u64 = 1;
    let mut leaves = 0;
    while pending > 0 && i < nodes.len() {
        let b = nodes[i];
        if b == LEAF {
            leaves += 1;
            i += 1;
        } else if b == WIDE {
            let (r, w) = decode(&nodes[i..]);
            pending += r as u64;
            i += w;
        } else {
            pending += b as u64;
            i += 1;
        }
        pending -= 1;
    }
    (i, leaves)
}

/// The node bytes of a flat tuple of `n` leaves (as [`Builder`] writes them).
#[inline]
fn flat_nodes(n: usize) -> Nodes {
    let mut nodes = Nodes::new();
    push_rank(&mut nodes, n);
    nodes.extend(std::iter::repeat_n(LEAF, n));
    nodes
}

/// Appends the node of a tuple of rank `n` to `nodes`: one byte below
/// [`WIDE`], else `WIDE` and the rank in 4 little-endian bytes.
#[inline]
pub(crate) fn push_rank(nodes: &mut Nodes, n: usize) {
    if n < WIDE as usize {
        nodes.push(n as u8);
    } else {
        nodes.push(WIDE);
        nodes.extend_from_slice(&(n as u32).to_le_bytes());
    }
}

/// An owned hierarchical tuple with leaves of type `T`.
///
/// `(3,)` and `3` are different values; `()` is the empty tuple (rank 0).
///
/// ```
/// use rcute::HTuple;
/// let t = HTuple::tuple(vec![HTuple::leaf(3), HTuple::tuple(vec![HTuple::leaf(4), HTuple::leaf(5)])]);
/// assert_eq!(t.to_string(), "(3, (4, 5))");
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.leaves(), &[3, 4, 5]);
/// assert_eq!(HTuple::tuple(vec![HTuple::leaf(3)]).to_string(), "(3,)");
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct HTuple<T> {
    nodes: Nodes,
    leaves: Leaves<T>,
}

/// A borrowed view of an [`HTuple`] or of one of its sub-trees.
#[derive(PartialEq, Eq, Hash)]
pub struct HRef<'a, T> {
    nodes: &'a [u8],
    leaves: &'a [T],
}

impl<T> Clone for HRef<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for HRef<'_, T> {}

impl<'a, T> From<&'a HTuple<T>> for HRef<'a, T> {
    /// The view of the whole value ([`HTuple::as_ref`]).
    #[inline(always)]
    fn from(t: &'a HTuple<T>) -> Self {
        t.as_ref()
    }
}

impl<T> HTuple<T> {
    /// The leaf `v`.
    #[inline]
    pub fn leaf(v: T) -> Self {
        let mut nodes = Nodes::new();
        nodes.push(LEAF);
        let mut leaves = Leaves::new();
        leaves.push(v);
        HTuple { nodes, leaves }
    }

    /// The empty tuple `()`.
    pub fn empty() -> Self {
        let mut nodes = Nodes::new();
        nodes.push(0);
        HTuple {
            nodes,
            leaves: Leaves::new(),
        }
    }

    /// The tuple whose modes are `modes`.
    pub fn tuple(modes: impl IntoIterator<Item = HTuple<T>>) -> Self {
        let mut b = Builder::new();
        b.open();
        for m in modes {
            b.push_owned(m);
        }
        b.close();
        b.finish()
    }

    /// The flat tuple `(v0, v1, ...)` of leaves.
    #[inline]
    pub fn flat(values: impl IntoIterator<Item = T>) -> Self {
        let leaves: Leaves<T> = values.into_iter().collect();
        HTuple {
            nodes: flat_nodes(leaves.len()),
            leaves,
        }
    }

    /// No nodes and no leaves: not a valid value until the caller fills
    /// it through [`HTuple::raw_mut`] (the algebra builds results in place).
    #[inline(always)]
    pub(crate) fn blank() -> Self {
        HTuple {
            nodes: Nodes::new(),
            leaves: Leaves::new(),
        }
    }

    /// The node bytes and the leaves, for building a value in place.
    #[inline(always)]
    pub(crate) fn raw_mut(&mut self) -> (&mut Nodes, &mut Leaves<T>) {
        (&mut self.nodes, &mut self.leaves)
    }

    /// The value of the node bytes `nodes` and the leaves `leaves` (the
    /// caller guarantees they agree: one leaf per leaf node).
    #[inline]
    pub(crate) fn from_raw_parts(nodes: Nodes, leaves: Leaves<T>) -> Self {
        HTuple { nodes, leaves }
    }

    /// A view of the whole value.
    #[inline]
    pub fn as_ref(&self) -> HRef<'_, T> {
        HRef {
            nodes: &self.nodes,
            leaves: &self.leaves,
        }
    }

    /// Leaves in traversal order.
    #[inline]
    pub fn leaves(&self) -> &[T] {
        &self.leaves
    }

    /// Mutable leaves in traversal order (the profile cannot change).
    #[inline]
    pub fn leaves_mut(&mut self) -> &mut [T] {
        &mut self.leaves
    }

    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.nodes.first() == Some(&LEAF)
    }

    /// The leaf value, if this is a leaf.
    #[inline]
    pub fn as_leaf(&self) -> Option<&T> {
        if self.is_leaf() {
            self.leaves.first()
        } else {
            None
        }
    }

    /// Rank: the number of modes; 1 for a leaf.
    #[inline]
    pub fn rank(&self) -> usize {
        self.as_ref().rank()
    }

    /// Mode `i` (for a leaf only mode 0, the leaf itself).
    #[inline]
    pub fn mode(&self, i: usize) -> Option<HRef<'_, T>> {
        self.as_ref().mode(i)
    }

    /// The same profile with every leaf mapped by `f`.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> HTuple<U> {
        HTuple {
            nodes: self.nodes.clone(),
            leaves: self.leaves.iter().map(f).collect(),
        }
    }

    /// The same profile with every leaf mapped by a fallible `f`.
    pub fn try_map<U>(&self, f: impl FnMut(&T) -> Result<U>) -> Result<HTuple<U>> {
        Ok(HTuple {
            nodes: self.nodes.clone(),
            leaves: self.leaves.iter().map(f).collect::<Result<_>>()?,
        })
    }

    /// Rebuilds `profile`'s tree with the leaves of `values` (traversal order).
    /// Extra values are ignored; too few is a `rank` error.
    pub fn unflatten<U>(values: impl IntoIterator<Item = T>, profile: HRef<'_, U>) -> Result<Self> {
        let leaves: Leaves<T> = values.into_iter().take(profile.leaves.len()).collect();
        if leaves.len() != profile.leaves.len() {
            return Err(Error::rank(format!(
                "unflatten: {} values for a profile with {} leaves",
                leaves.len(),
                profile.leaves.len()
            )));
        }
        Ok(HTuple {
            nodes: Nodes::from_slice(profile.nodes),
            leaves,
        })
    }

    /// True when the value is stored inline, without heap memory (as
    /// values of up to 8 leaves and 24 node bytes are).
    ///
    /// ```
    /// use rcute::HTuple;
    /// assert!(HTuple::flat([4i64, 8]).is_inline());
    /// assert!(!HTuple::flat(0..9i64).is_inline());
    /// assert!(!HTuple::tuple(vec![HTuple::<i64>::empty(); 30]).is_inline());
    /// ```
    #[inline]
    pub fn is_inline(&self) -> bool {
        !self.nodes.spilled() && !self.leaves.spilled()
    }

    /// Consumes the value into its leaves.
    pub fn into_leaves(self) -> Leaves<T> {
        self.leaves
    }
}

impl<T: Clone> HTuple<T> {
    /// The tuple whose modes are copies of the views `modes`.
    pub fn from_refs<'a>(modes: impl IntoIterator<Item = HRef<'a, T>>) -> Self
    where
        T: 'a,
    {
        let mut b = Builder::new();
        b.open();
        for m in modes {
            b.push(m);
        }
        b.close();
        b.finish()
    }

    /// `flatten(x)`: the flat tuple of the leaves (a leaf gives a 1-tuple).
    pub fn flatten(&self) -> Self {
        Self::flat(self.leaves.iter().cloned())
    }

    /// `wrap(x)`: `x` if it is a tuple, else `(x,)`.
    pub fn wrap(&self) -> Self {
        if self.is_leaf() {
            Self::from_refs([self.as_ref()])
        } else {
            self.clone()
        }
    }

    /// `unwrap(x)`: strips 1-tuples, `(((42,),),)` to `42`.
    pub fn unwrap_singletons(&self) -> Self {
        let mut r = self.as_ref();
        while !r.is_leaf() && r.rank() == 1 {
            r = r.first_mode();
        }
        r.to_owned()
    }

    /// `repeat_like(v, profile)`.
    pub fn repeat_like<U>(v: T, profile: HRef<'_, U>) -> Self {
        HTuple {
            nodes: Nodes::from_slice(profile.nodes),
            leaves: std::iter::repeat_n(v, profile.leaves.len()).collect(),
        }
    }
}

impl<'a, T> HRef<'a, T> {
    /// The view of the node bytes `nodes` and the leaves `leaves` (which
    /// may disagree: the caller checks them, as a layout's checks do).
    #[inline(always)]
    pub(crate) fn with_profile_unchecked(nodes: &'a [u8], leaves: &'a [T]) -> Self {
        HRef { nodes, leaves }
    }

    /// The modes of this view, each paired with its own leaves of `other`
    /// (the leaves of a congruent value: a layout's stride leaves beside
    /// its shape), in one walk of the profile: each mode's leaves of
    /// `other` are the next ones after the previous mode's. A leaf yields
    /// itself once, as [`HRef::modes`].
    #[inline]
    pub(crate) fn modes_with<U>(
        self,
        other: &'a [U],
    ) -> impl Iterator<Item = (HRef<'a, T>, HRef<'a, U>)> {
        debug_assert_eq!(self.leaves.len(), other.len());
        let mut k = 0;
        self.modes().map(move |m| {
            let n = m.leaves.len();
            let leaves = other.get(k..k + n).unwrap_or(&[]);
            k += n;
            (m, HRef::with_profile(m, leaves))
        })
    }

    /// The view of `leaves` under the profile of `profile` (a layout keeps
    /// one profile for its shape and its stride; the caller guarantees one
    /// leaf per leaf of `profile`).
    #[inline(always)]
    pub(crate) fn with_profile<U>(profile: HRef<'a, U>, leaves: &'a [T]) -> Self {
        debug_assert_eq!(profile.leaves.len(), leaves.len());
        HRef {
            nodes: profile.nodes,
            leaves,
        }
    }

    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.nodes.first() == Some(&LEAF)
    }

    /// The leaf value, if this is a leaf.
    #[inline]
    pub fn as_leaf(&self) -> Option<&'a T> {
        if self.is_leaf() {
            self.leaves.first()
        } else {
            None
        }
    }

    /// Rank: number of modes; 1 for a leaf.
    #[inline]
    pub fn rank(&self) -> usize {
        match decode(self.nodes) {
            (LEAF_RANK, _) => 1,
            (r, _) => r as usize,
        }
    }

    /// Leaves in traversal order.
    #[inline]
    pub fn leaves(&self) -> &'a [T] {
        self.leaves
    }

    /// The pre-order node bytes (the encoding described at [`Nodes`]).
    #[inline]
    pub(crate) fn node_bytes(&self) -> &'a [u8] {
        self.nodes
    }

    /// Depth: 0 for a leaf, `1 + max depth of the modes` for a tuple, 1 for `()`.
    ///
    /// Computed in one pass without recursion, so any nesting is safe to
    /// measure.
    pub fn depth(&self) -> usize {
        // pre-order walk keeping, per open tuple, the number of modes still to come
        let mut open: SmallVec<[u32; 16]> = SmallVec::new();
        let mut max = 0;
        let mut i = 0;
        while i < self.nodes.len() {
            let (r, w) = decode(&self.nodes[i..]);
            i += w.max(1);
            while open.last() == Some(&0) {
                open.pop();
            }
            if let Some(top) = open.last_mut() {
                *top -= 1;
            }
            if r != LEAF_RANK {
                open.push(r);
                max = max.max(open.len());
            }
        }
        max
    }

    /// `value` error when the nesting is deeper than [`MAX_DEPTH`] (the
    /// bound of every recursive walk); `what` names the operand.
    ///
    /// ```
    /// use rcute::htuple::Builder;
    /// let mut b = Builder::new();
    /// for _ in 0..100 { b.open(); }
    /// b.leaf(1i64);
    /// let deep = b.finish();
    /// assert_eq!(deep.as_ref().depth(), 100);
    /// assert!(deep.as_ref().check_depth("shape").is_err());
    /// ```
    pub fn check_depth(&self, what: &str) -> Result<()> {
        if self.depth_within(MAX_DEPTH) {
            return Ok(());
        }
        let d = self.depth();
        if d > MAX_DEPTH {
            return Err(Error::value(format!(
                "{what} is nested {d} levels deep, more than the limit of {MAX_DEPTH}"
            )));
        }
        Ok(())
    }

    /// True when `depth() <= n`; without walking the tuple when it has at
    /// most `n` node bytes (the depth is at most the number of tuple nodes).
    ///
    /// ```
    /// use rcute::HTuple;
    /// let t = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([4i64, 5])]);
    /// assert!(t.as_ref().depth_within(2));
    /// assert!(!t.as_ref().depth_within(1));
    /// ```
    #[inline]
    pub fn depth_within(&self, n: usize) -> bool {
        self.nodes.len() <= n || self.depth() <= n
    }

    /// [`check_depth`](Self::check_depth), and a `value` error for more
    /// than [`MAX_LEAVES`] leaves.
    ///
    /// ```
    /// use rcute::HTuple;
    /// assert!(HTuple::flat(vec![2i64; 10]).as_ref().check_limits("shape").is_ok());
    /// assert!(HTuple::flat(vec![2i64; 100_000]).as_ref().check_limits("shape").is_err());
    /// ```
    pub fn check_limits(&self, what: &str) -> Result<()> {
        if self.leaves.len() > MAX_LEAVES {
            return Err(Error::value(format!(
                "{what} has {} leaves, more than the limit of {MAX_LEAVES}",
                self.leaves.len()
            )));
        }
        self.check_depth(what)
    }

    /// `depth(x)` as the reference computes it (`docs/operations.md`): 0
    /// for a leaf, `1 + max depth of the modes` for a tuple. The maximum
    /// over no modes is undefined there, so an empty tuple anywhere in `x`
    /// (`()`, `((),)`, `(3, ())`) is a `value` error.
    ///
    /// ```
    /// use rcute::HTuple;
    /// let t = HTuple::tuple([HTuple::leaf(3), HTuple::flat([4, 5])]);
    /// assert_eq!(t.as_ref().try_depth().unwrap(), 2);
    /// assert!(HTuple::<i64>::empty().as_ref().try_depth().is_err());
    /// ```
    pub fn try_depth(&self) -> Result<usize> {
        let mut i = 0;
        let mut has_empty = false;
        while i < self.nodes.len() {
            let (r, w) = decode(&self.nodes[i..]);
            has_empty |= r == 0;
            i += w.max(1);
        }
        if has_empty {
            return Err(Error::value(
                "depth: the depth of an empty tuple is undefined",
            ));
        }
        Ok(self.depth())
    }

    fn first_mode(&self) -> HRef<'a, T> {
        match self.modes().next() {
            Some(m) => m,
            None => *self,
        }
    }

    /// The modes of a tuple; a leaf yields itself once.
    #[inline]
    pub fn modes(&self) -> Modes<'a, T> {
        match decode(self.nodes) {
            (LEAF_RANK, _) => Modes {
                nodes: self.nodes,
                leaves: self.leaves,
                remaining: 1,
            },
            (r, w) => Modes {
                nodes: self.nodes.get(w..).unwrap_or(&[]),
                leaves: self.leaves,
                remaining: r as usize,
            },
        }
    }

    /// Mode `i` (for a leaf, mode 0 is the leaf itself).
    pub fn mode(&self, i: usize) -> Option<HRef<'a, T>> {
        self.modes().nth(i)
    }

    /// The modes of a tuple only (`None` for a leaf).
    pub fn tuple_modes(&self) -> Option<Modes<'a, T>> {
        if self.is_leaf() {
            None
        } else {
            Some(self.modes())
        }
    }

    /// Follows a path of mode indices; indexing into a leaf is a `type`
    /// error, an index past the rank a `bounds` error.
    pub fn get(&self, path: &[usize]) -> Result<HRef<'a, T>> {
        let mut r = *self;
        for &i in path {
            if r.is_leaf() {
                return Err(Error::type_(format!("get: index {i} into a leaf")));
            }
            let rank = r.rank();
            r = r.mode(i).ok_or_else(|| {
                Error::bounds(format!("get: index {i} out of range for rank {rank}"))
            })?;
        }
        Ok(r)
    }

    /// True when `self` and `other` have the same profile.
    #[inline]
    pub fn congruent<U>(&self, other: HRef<'_, U>) -> bool {
        self.nodes == other.nodes
    }

    /// True when `self` is weakly congruent to `other` (`self` coarsens it).
    pub fn weakly_congruent<U>(&self, other: HRef<'_, U>) -> bool {
        if self.is_leaf() {
            return true;
        }
        if other.is_leaf() || self.rank() != other.rank() {
            return false;
        }
        self.modes()
            .zip(other.modes())
            .all(|(a, b)| a.weakly_congruent(b))
    }

    /// Number of leaves.
    #[inline]
    pub fn num_leaves(&self) -> usize {
        self.leaves.len()
    }

    /// The leaf paths in traversal order.
    pub fn leaf_paths(&self) -> Vec<SmallVec<[usize; 4]>> {
        fn rec<T>(
            r: HRef<'_, T>,
            p: &mut SmallVec<[usize; 4]>,
            out: &mut Vec<SmallVec<[usize; 4]>>,
        ) {
            if r.is_leaf() {
                out.push(p.clone());
                return;
            }
            for (i, m) in r.modes().enumerate() {
                p.push(i);
                rec(m, p, out);
                p.pop();
            }
        }
        let mut out = Vec::new();
        rec(*self, &mut SmallVec::new(), &mut out);
        out
    }
}

impl<T: Clone> HRef<'_, T> {
    /// An owned copy.
    #[inline]
    pub fn to_owned(&self) -> HTuple<T> {
        HTuple {
            nodes: Nodes::from_slice(self.nodes),
            leaves: self.leaves.iter().cloned().collect(),
        }
    }
}

/// Iterator over the modes of an [`HRef`].
pub struct Modes<'a, T> {
    nodes: &'a [u8],
    leaves: &'a [T],
    remaining: usize,
}

impl<'a, T> Iterator for Modes<'a, T> {
    type Item = HRef<'a, T>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let (len, nleaves) = if self.nodes.first() == Some(&LEAF) {
            (1, 1)
        } else {
            extent(self.nodes)
        };
        let (nh, nt) = self.nodes.split_at(len.min(self.nodes.len()));
        let (lh, lt) = self.leaves.split_at(nleaves.min(self.leaves.len()));
        self.nodes = nt;
        self.leaves = lt;
        Some(HRef {
            nodes: nh,
            leaves: lh,
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}
impl<T> ExactSizeIterator for Modes<'_, T> {}

/// Incremental construction of an [`HTuple`] in pre-order.
///
/// ```
/// use rcute::htuple::Builder;
/// let mut b = Builder::new();
/// b.open(); b.leaf(2); b.open(); b.leaf(3); b.close(); b.close();
/// assert_eq!(b.finish().to_string(), "(2, (3,))");
/// ```
pub struct Builder<T> {
    nodes: Nodes,
    leaves: Leaves<T>,
    /// open tuples: (node byte position, modes so far)
    stack: SmallVec<[(u32, u32); 8]>,
}

impl<T> Default for Builder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Builder<T> {
    /// An empty builder.
    #[inline]
    pub fn new() -> Self {
        Builder {
            nodes: Nodes::new(),
            leaves: Leaves::new(),
            stack: SmallVec::new(),
        }
    }
    #[inline]
    fn count_child(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.1 += 1;
        }
    }
    /// Starts a tuple.
    #[inline]
    pub fn open(&mut self) {
        self.count_child();
        self.stack.push((self.nodes.len() as u32, 0));
        self.nodes.push(0);
    }
    /// Ends the innermost open tuple.
    #[inline]
    pub fn close(&mut self) {
        if let Some((at, rank)) = self.stack.pop() {
            let at = at as usize;
            if rank < WIDE as u32 {
                if let Some(b) = self.nodes.get_mut(at) {
                    *b = rank as u8;
                }
            } else {
                // rare: a rank that needs the wide encoding
                if let Some(b) = self.nodes.get_mut(at) {
                    *b = WIDE;
                }
                self.nodes.insert_from_slice(at + 1, &rank.to_le_bytes());
            }
        }
    }
    /// Appends a leaf.
    #[inline]
    pub fn leaf(&mut self, v: T) {
        self.count_child();
        self.nodes.push(LEAF);
        self.leaves.push(v);
    }
    /// Appends an owned sub-tree.
    #[inline]
    pub fn push_owned(&mut self, t: HTuple<T>) {
        self.count_child();
        self.nodes.extend_from_slice(&t.nodes);
        self.leaves.extend(t.leaves);
    }
    /// Appends a sub-tree with the profile of `profile` and leaves `values`.
    pub fn push_with_profile<U>(
        &mut self,
        profile: HRef<'_, U>,
        values: impl IntoIterator<Item = T>,
    ) {
        self.count_child();
        self.nodes.extend_from_slice(profile.nodes);
        let before = self.leaves.len();
        self.leaves
            .extend(values.into_iter().take(profile.leaves.len()));
        debug_assert_eq!(self.leaves.len() - before, profile.leaves.len());
    }
    /// The finished value (open tuples are closed).
    #[inline]
    pub fn finish(mut self) -> HTuple<T> {
        while !self.stack.is_empty() {
            self.close();
        }
        if self.nodes.is_empty() {
            self.nodes.push(0);
        }
        HTuple {
            nodes: self.nodes,
            leaves: self.leaves,
        }
    }
}

impl<T: Clone> Builder<T> {
    /// Appends a copy of a sub-tree.
    #[inline]
    pub fn push(&mut self, r: HRef<'_, T>) {
        self.count_child();
        self.nodes.extend_from_slice(r.nodes);
        self.leaves.extend(r.leaves.iter().cloned());
    }
}

/// Writes one hierarchical tuple in pre-order straight into the storage of
/// a layout under construction (the shape of a
/// [`LayoutWriter`](crate::layout::LayoutWriter)):
/// a tuple is its number of modes ([`tuple`](Self::tuple)) followed by its
/// modes, a leaf its value ([`leaf`](Self::leaf)).
///
/// What is written is checked when the construction ends: it must be one
/// complete value (each tuple followed by exactly its number of modes).
pub(crate) struct TupleWriter<'a, T> {
    nodes: &'a mut Nodes,
    leaves: &'a mut Leaves<T>,
    /// A rank past the encoding's 32 bits was written.
    too_wide: bool,
}

impl<'a, T> TupleWriter<'a, T> {
    /// A writer appending to `nodes` and `leaves` (empty when a
    /// construction starts).
    #[inline(always)]
    pub(crate) fn new(nodes: &'a mut Nodes, leaves: &'a mut Leaves<T>) -> Self {
        TupleWriter {
            nodes,
            leaves,
            too_wide: false,
        }
    }

    /// Starts a tuple of `rank` modes (the next `rank` values written,
    /// each a leaf or a whole tuple, are its modes).
    #[inline(always)]
    pub fn tuple(&mut self, rank: usize) {
        if rank > u32::MAX as usize {
            self.too_wide = true;
        }
        push_rank(self.nodes, rank);
    }

    /// Writes the leaf `v`.
    #[inline(always)]
    pub fn leaf(&mut self, v: T) {
        self.nodes.push(LEAF);
        self.leaves.push(v);
    }

    /// `value` error unless what was written is one complete value; `what`
    /// names it.
    #[inline]
    pub(crate) fn check_complete(&self, what: &str) -> Result<()> {
        if !self.too_wide && complete(self.nodes, self.leaves.len()) {
            return Ok(());
        }
        self.incomplete(what)
    }

    #[cold]
    #[inline(never)]
    fn incomplete(&self, what: &str) -> Result<()> {
        Err(Error::value(format!(
            "{what} was not written as one complete tuple ({} node bytes, {} leaves)",
            self.nodes.len(),
            self.leaves.len()
        )))
    }
}

/// True when `nodes` encodes exactly one value (canonically: the wide form
/// only for ranks from [`WIDE`]) with `nleaves` leaves.
#[inline]
fn complete(nodes: &[u8], nleaves: usize) -> bool {
    let mut pending: u64 = 1;
    let mut leaves = 0;
    let mut i = 0;
    while i < nodes.len() {
        if pending == 0 {
            return false;
        }
        pending -= 1;
        match nodes[i] {
            LEAF => {
                leaves += 1;
                i += 1;
            }
            WIDE => {
                let Some(b) = nodes.get(i + 1..i + 5) else {
                    return false;
                };
                let r = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if r < WIDE as u32 {
                    return false;
                }
                pending += r as u64;
                i += 5;
            }
            r => {
                pending += r as u64;
                i += 1;
            }
        }
    }
    pending == 0 && leaves == nleaves
}

fn fmt_ref<T>(
    r: HRef<'_, T>,
    f: &mut fmt::Formatter<'_>,
    leaf: &mut dyn FnMut(&T, &mut fmt::Formatter<'_>) -> fmt::Result,
    compact: bool,
) -> fmt::Result {
    if let Some(v) = r.as_leaf() {
        return leaf(v, f);
    }
    f.write_str("(")?;
    let rank = r.rank();
    for (i, m) in r.modes().enumerate() {
        if i > 0 {
            f.write_str(if compact { "," } else { ", " })?;
        }
        fmt_ref(m, f, leaf, compact)?;
    }
    if rank == 1 && !compact {
        f.write_str(",")?;
    }
    f.write_str(")")
}

impl<T> HRef<'_, T> {
    /// Writes the value with a custom leaf printer; `cpp` selects the C++
    /// style (no spaces, `(x)` for a 1-tuple), otherwise Python's `str`.
    pub fn write_with(
        &self,
        f: &mut fmt::Formatter<'_>,
        cpp: bool,
        leaf: &mut dyn FnMut(&T, &mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        fmt_ref(*self, f, leaf, cpp)
    }
}

impl<T: fmt::Display> fmt::Display for HRef<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cpp = f.alternate();
        fmt_ref(
            *self,
            f,
            &mut |v, f| {
                if cpp {
                    write!(f, "{v:#}")
                } else {
                    write!(f, "{v}")
                }
            },
            cpp,
        )
    }
}

impl<T: fmt::Display> fmt::Display for HTuple<T> {
    /// Python `str` style; the alternate form `{:#}` is the C++ style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_ref(), f)
    }
}

impl<T: fmt::Display> fmt::Debug for HTuple<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_ref(), f)
    }
}

impl<T: fmt::Display> fmt::Debug for HRef<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<T> From<T> for HTuple<T> {
    fn from(v: T) -> Self {
        HTuple::leaf(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_accepts_exactly_one_canonical_value() {
        let t = HTuple::tuple([HTuple::leaf(3i64), HTuple::flat([4i64, 5])]);
        assert!(complete(&t.nodes, 3));
        assert!(!complete(&t.nodes, 2), "leaf count");
        assert!(!complete(&t.nodes[..3], 1), "a missing mode");
        let mut two = t.nodes.clone();
        two.push(LEAF);
        assert!(!complete(&two, 4), "a node past the end");
        assert!(!complete(&[], 0), "nothing written");
        assert!(complete(&[0], 0), "the empty tuple");
        // the wide form of rank 2: not canonical
        assert!(!complete(&[WIDE, 2, 0, 0, 0, LEAF, LEAF], 2));
        assert!(!complete(&[WIDE, 2, 0], 0), "a cut wide rank");
        let wide = HTuple::flat(0..300i64);
        assert!(complete(&wide.nodes, 300));
    }

    #[test]
    fn wide_ranks_use_the_escape_encoding() {
        // ranks 253 (one byte), 254 and 300 (escaped) nested in a tuple
        for n in [253usize, 254, 300] {
            let wide = HTuple::flat(0..n as i64);
            let t = HTuple::tuple([HTuple::leaf(-1i64), wide.clone(), HTuple::leaf(-2)]);
            assert_eq!(t.rank(), 3);
            let m = t.mode(1).unwrap();
            assert_eq!(m.rank(), n);
            assert_eq!(m.mode(n - 1).unwrap().as_leaf(), Some(&(n as i64 - 1)));
            assert_eq!(t.mode(2).unwrap().as_leaf(), Some(&-2));
            assert_eq!(m.to_owned(), wide);
            assert!(m.congruent(wide.as_ref()));
            assert_eq!(t.as_ref().depth(), 2);
            assert_eq!(t.leaves().len(), n + 2);
            let again = HTuple::from_refs(t.as_ref().modes());
            assert_eq!(again, t);
        }
    }
}
