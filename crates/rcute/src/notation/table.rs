//! The operation table: the one list of the notation's operations
//! (re-exported as `rcute::ops`).
//!
//! Each [`Operation`] entry gives the name, the parameters (with their
//! keyword names and defaults), whether the operation has a mode-indexed
//! form `op[i, j](...)` and whether it accepts a tensor as first argument,
//! its documentation (a one-line summary, a paragraph, and an example with
//! its exact output), the function that implements it, and its typed form
//! ([`Direct`]) when it has one. Everything else is derived from the
//! table: the dispatch of [`crate::notation::call`] (which operations
//! exist, keyword names, mode-indexed and tensor forms, typed forms), the
//! names that cannot be rebound, `rcute help` and `rcute ops`, the Python
//! module's operations and their docstrings, and `docs/operations.md`.
//! Adding an operation is one entry here plus its implementation function
//! (in `notation::imp`).
//!
//! The table lives inside the notation, not below it, because its entries
//! hold the notation's implementation functions (which take and return
//! notation values): putting it below the notation would take either a
//! second, parallel list of implementations or a type-erased function
//! pointer. It depends only on `imp` (the implementations), which never
//! calls back into the dispatch.
//!
//! ```
//! let op = rcute::ops::lookup("coalesce").unwrap();
//! assert!(op.mode_indexed && op.tensor_first);
//! assert_eq!(op.signature(), "coalesce(A, profile=1)");
//! assert_eq!(rcute::notation::eval_str(op.example).unwrap(), op.example_output);
//! assert!(rcute::ops::lookup("A").is_none());
//! ```

use std::fmt;

use super::imp::{op, Imp};
use crate::algebra;
use crate::algebra::coalesce::ModeOp;
use crate::error::Result;
use crate::layout::Layout;
use crate::tiler::TilerRef;

pub use super::param::{Param, ParamKind};

/// A required parameter.
const fn req(name: &'static str) -> Param {
    Param {
        name,
        default: None,
        kind: ParamKind::Positional,
    }
}

/// An optional parameter and its default.
const fn opt(name: &'static str, default: &'static str) -> Param {
    Param {
        name,
        default: Some(default),
        kind: ParamKind::Positional,
    }
}

/// A variadic parameter `*name`.
const fn rest(name: &'static str) -> Param {
    Param {
        name,
        default: None,
        kind: ParamKind::Variadic,
    }
}

/// A required parameter passed only by position (`name, /`).
const fn posonly(name: &'static str) -> Param {
    Param {
        name,
        default: None,
        kind: ParamKind::PositionalOnly,
    }
}

/// Any keyword arguments `**name`.
const fn kwrest(name: &'static str) -> Param {
    Param {
        name,
        default: None,
        kind: ParamKind::Keywords,
    }
}

/// What an operation does with layouts with symbols (the notation's
/// dispatch reads it; the refusal message lists the operations that
/// accept them from it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbols {
    /// Layouts with symbols are refused (a `type` error naming the
    /// operations that accept them).
    No,
    /// A query whose general implementation reads layouts with symbols.
    Query,
    /// An algebra operation with a form on layouts with symbols.
    Algebra,
    /// A constructor that builds a layout with symbols from symbolic
    /// shapes and strides.
    Constructor,
}

/// The groups the operations are listed in (`rcute help`, the docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Helpers on hierarchical tuples.
    HTuple,
    /// Properties and queries of tuples, shapes, layouts and coordinates.
    Properties,
    /// Constructors of layouts, strides and swizzles.
    Construction,
    /// The layout algebra.
    Algebra,
    /// Swizzles and shared-memory banks.
    Swizzles,
    /// Tensors.
    Tensors,
}

impl Group {
    /// Every group, in the order they are listed.
    pub const ALL: [Group; 6] = [
        Group::HTuple,
        Group::Properties,
        Group::Construction,
        Group::Algebra,
        Group::Swizzles,
        Group::Tensors,
    ];

    /// The group's title.
    ///
    /// ```
    /// assert_eq!(rcute::ops::Group::Algebra.title(), "Layout algebra");
    /// ```
    pub fn title(self) -> &'static str {
        match self {
            Group::HTuple => "HTuple helpers",
            Group::Properties => "Properties",
            Group::Construction => "Construction",
            Group::Algebra => "Layout algebra",
            Group::Swizzles => "Swizzles and banks",
            Group::Tensors => "Tensors",
        }
    }
}

/// A unary layout operation writing its result into a layout slot (the
/// library's `*_into` functions, which build the result in place).
pub type Unary = fn(&Layout, &mut Layout) -> Result<()>;
/// A layout operation with a tiler, likewise.
pub type Binary = fn(&Layout, &TilerRef<'_>, &mut Layout) -> Result<()>;

/// The [`Unary`] of a library function `fn(&Layout) -> Result<Layout>`
/// without an `*_into` form: its result is moved into the slot.
macro_rules! unary {
    ($f:path) => {
        |a: &$crate::layout::Layout, out: &mut $crate::layout::Layout| {
            *out = $f(a)?;
            Ok(())
        }
    };
}

/// The [`Binary`] of a library function `fn(&Layout, &Tiler) -> Result<Layout>`
/// without an `*_into` form, likewise.
macro_rules! binary {
    ($f:path) => {
        |a: &$crate::layout::Layout,
         b: &$crate::tiler::TilerRef<'_>,
         out: &mut $crate::layout::Layout| {
            *out = $f(a, b)?;
            Ok(())
        }
    };
}

/// The typed form of an operation: the `direct` field of its entry in the
/// operation table ([`super::table`], [`Operation::direct`](super::table::Operation::direct)).
///
/// It says which library function the operation's plain argument forms
/// (layouts, tilers, shapes and coordinates, no mode path) call and with
/// which operand types. The notation's one dispatch (`notation::ops`) calls
/// it on operands read in place, with the conversions of literals made once
/// when a statement is prepared; the Python module calls it on operands
/// read straight from Python objects. Every other form (mode paths,
/// tensors, swizzled layouts, symbols, keywords other than complement's
/// `extend`, operands that do not convert) goes to the operation's general
/// form, which gives the same value or error.
///
/// ```
/// use rcute::ops::{lookup, Direct};
/// assert!(matches!(lookup("composition").unwrap().direct, Some(Direct::Tiler(_))));
/// assert!(matches!(lookup("size").unwrap().direct, Some(Direct::Size)));
/// assert!(lookup("E").unwrap().direct.is_none());
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Direct {
    /// `op(A)` and `op(A, profile)` (coalesce, coalesce_z, filter).
    Profile(Unary, Binary),
    /// `op(A)`: the unary layout operations.
    Unary(Unary),
    /// `op(A, B)` with a tiler `B`: composition, the divides and products.
    Tiler(Binary),
    /// `size(A)` of a layout.
    Size,
    /// `rank(A)` of a layout.
    Rank,
    /// `depth(A)` of a layout.
    Depth,
    /// `cosize(A)` of a layout.
    Cosize,
    /// `shape(A)` of a layout.
    Shape,
    /// `stride(A)` of a layout.
    Stride,
    /// `complement(A)`, `complement(A, extend)`, `complement(A, extend=...)`.
    Complement,
    /// `layout_add(A, B)` of two layouts.
    LayoutAdd,
    /// `max_common_layout(A, B)` of two layouts.
    MaxCommonLayout,
    /// `max_common_vector(A, B)` of two layouts.
    MaxCommonVector,
    /// `greatest_common_domain(S, T)` of two shapes (a layout stands for
    /// its shape).
    GreatestCommonDomain,
    /// `recast(A, scale)`.
    Recast,
    /// `upcast(A, n)` with an integer `n`.
    Upcast,
    /// `downcast(A, n)` with an integer `n`.
    Downcast,
    /// `make_ordered_layout(S, order)` of two shapes.
    MakeOrderedLayout,
    /// `idx2crd(c, S)`.
    Idx2crd,
    /// `crd2idx(c, S)`.
    Crd2idx,
}

/// One operation of the notation (see the module documentation).
pub struct Operation {
    /// The name it is called by.
    pub name: &'static str,
    /// The group it is listed in.
    pub group: Group,
    /// The parameters, in positional order (keyword names: their names).
    pub params: &'static [Param],
    /// True when `name[i, j](...)` (or the keyword `mode=(i, j)`) applies
    /// it to a mode of its first argument.
    pub mode_indexed: bool,
    /// True when the first argument may be a tensor: the operation applies
    /// to the tensor's layout and keeps its accessor.
    pub tensor_first: bool,
    /// What it does with layouts with symbols (`docs/language.md`,
    /// "Layouts with symbols").
    pub symbols: Symbols,
    /// One line: what it computes.
    pub summary: &'static str,
    /// One paragraph: definition, arguments, errors, and the C++ CuTe
    /// function or whitepaper notion it corresponds to.
    pub doc: &'static str,
    /// A notation expression that calls it.
    pub example: &'static str,
    /// The exact output of `example` (default print style).
    pub example_output: &'static str,
    /// The implementation.
    pub(crate) imp: Imp,
    /// The typed form of the common argument forms, if any: which library
    /// function they call with which operand types ([`Direct`]).
    pub direct: Option<Direct>,
}

impl fmt::Debug for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Operation")
            .field("name", &self.name)
            .field("group", &self.group)
            .field("params", &self.params)
            .field("mode_indexed", &self.mode_indexed)
            .field("tensor_first", &self.tensor_first)
            .field("symbols", &self.symbols)
            .field("direct", &self.direct.is_some())
            .finish_non_exhaustive()
    }
}

impl Operation {
    /// The parameter list as written in a call: `A, profile=1`, `*seq`.
    fn param_list(&self) -> String {
        let mut s = String::new();
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            match p.kind {
                ParamKind::Variadic => s.push('*'),
                ParamKind::Keywords => s.push_str("**"),
                ParamKind::Positional | ParamKind::PositionalOnly => {}
            }
            s.push_str(p.name);
            if let Some(d) = p.default {
                s.push('=');
                s.push_str(d);
            }
            let next = self.params.get(i + 1).map(|q| q.kind);
            if p.kind == ParamKind::PositionalOnly && next != Some(ParamKind::PositionalOnly) {
                s.push_str(", /");
            }
        }
        s
    }

    /// The call signature with its defaults, e.g. `coalesce(A, profile=1)`.
    ///
    /// ```
    /// let op = rcute::ops::lookup("complement").unwrap();
    /// assert_eq!(op.signature(), "complement(A, extend=None)");
    /// assert_eq!(rcute::ops::lookup("E").unwrap().signature(), "E(*seq)");
    /// ```
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.param_list())
    }

    /// The mode-indexed form, e.g. `size[i, ...](obj)`, for the operations
    /// that have one.
    ///
    /// ```
    /// let op = rcute::ops::lookup("size").unwrap();
    /// assert_eq!(op.mode_signature().unwrap(), "size[i, ...](obj)");
    /// assert!(rcute::ops::lookup("wrap").unwrap().mode_signature().is_none());
    /// ```
    pub fn mode_signature(&self) -> Option<String> {
        self.mode_indexed
            .then(|| format!("{}[i, ...]({})", self.name, self.param_list()))
    }

    /// The signature as a Python function: the mode path is the
    /// keyword-only `mode`.
    ///
    /// ```
    /// let op = rcute::ops::lookup("coalesce").unwrap();
    /// assert_eq!(op.python_signature(), "coalesce(A, profile=1, *, mode=())");
    /// ```
    pub fn python_signature(&self) -> String {
        let params = self.param_list();
        let variadic = self
            .params
            .last()
            .is_some_and(|p| matches!(p.kind, ParamKind::Variadic | ParamKind::Keywords));
        match (self.mode_indexed, params.is_empty()) {
            (false, _) => self.signature(),
            (true, true) => format!("{}(*, mode=())", self.name),
            // after `*more` the keyword-only marker is implied
            (true, false) if variadic => format!("{}({params}, mode=())", self.name),
            (true, false) => format!("{}({params}, *, mode=())", self.name),
        }
    }
}

/// The operations, grouped ([`Group`]); [`lookup`] finds one by name.
pub static OPERATIONS: &[Operation] = TABLE;

/// The operation called `name`, or `None` when `name` is not an operation:
/// a binary search over the names sorted at compile time (no allocation).
///
/// ```
/// assert_eq!(rcute::ops::lookup("logical_divide").unwrap().name, "logical_divide");
/// assert!(rcute::ops::lookup("logical").is_none());
/// ```
#[inline]
pub fn lookup(name: &str) -> Option<&'static Operation> {
    let i = BY_NAME.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
    let (_, at) = BY_NAME.get(i)?;
    OPERATIONS.get(*at as usize)
}

/// The number of operations.
const N: usize = TABLE.len();
const _: () = assert!(N <= u8::MAX as usize);

/// The names in byte order with their positions in the table, for
/// [`lookup`]; built at compile time (which fails on a repeated name).
static BY_NAME: [(&str, u8); N] = sorted_names();

/// `a < b` in byte order.
const fn before(a: &[u8], b: &[u8]) -> bool {
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// The table's names sorted (an insertion sort, run by the compiler).
const fn sorted_names() -> [(&'static str, u8); N] {
    let mut out: [(&str, u8); N] = [("", 0); N];
    let mut k = 0;
    while k < N {
        let name = TABLE[k].name;
        let mut j = k;
        while j > 0 && before(name.as_bytes(), out[j - 1].0.as_bytes()) {
            out[j] = out[j - 1];
            j -= 1;
        }
        if j > 0 && !before(out[j - 1].0.as_bytes(), name.as_bytes()) {
            panic!("the operation table names an operation twice");
        }
        out[j] = (name, k as u8);
        k += 1;
    }
    out
}

use Group::*;

const TABLE: &[Operation] = &[
    // ------------------------------------------------------------------ HTuple helpers
    Operation {
        name: "get",
        group: HTuple,
        params: &[req("obj"), opt("path", "()"), rest("more")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the element, mode or sub-layout at a path",
        doc: "Follows `path` (the subscript path, then the `path` argument) into `obj`: \
              element `i` of a tuple (a negative index counts from the end), mode `i` of a \
              layout, swizzled layout or tensor (shape and stride followed together). The \
              empty path gives `obj` itself; further integer arguments extend the path, so \
              `get(L, 0, 1)` is C++'s `get<0,1>(L)`. Indexing into a leaf is a `type` error, an \
              index past the rank a `bounds` error. A layout with symbols gives its \
              modes as layouts with symbols. C++ CuTe: `get<I...>`.",
        example: "get[0,1](((6,2),5):((8,2),1))",
        example_output: "2:2",
        imp: op::get,
        direct: None,
    },
    Operation {
        name: "select",
        group: HTuple,
        params: &[req("obj"), opt("indices", "()")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tuple of the elements at several indices",
        doc: "The tuple `(get(obj, i), get(obj, j), ...)` for the indices `indices` (each an \
              index or a path), or for the subscripts of `select[i, j](obj)` when `indices` is \
              not given. Always a tuple, even for one index; repeated indices repeat. On a \
              layout it gives a tuple of modes, which `make_layout` concatenates. C++ CuTe: \
              `select<I...>`. \
              A swizzled layout `Sw o offset o L` gives `Sw o offset o L'` with `L'` the selected modes of `L` as one layout.",
        example: "select((10,11,12,13), (1,3))",
        example_output: "(11, 13)",
        imp: op::select,
        direct: None,
    },
    Operation {
        name: "take",
        group: HTuple,
        params: &[req("obj"), opt("indices", "()")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the elements of an index range",
        doc: "`take(obj, (b, e))` (or `take[b, e](obj)`) is the tuple of the elements (or \
              modes) `b, ..., e-1` of `obj`. Exactly two indices with `b <= e` are required \
              (`value` error otherwise); a range outside the rank is a `bounds` error. C++ \
              CuTe: `take<B, E>`. \
              A swizzled layout `Sw o offset o L` gives `Sw o offset o L'` with `L'` the taken modes of `L` as one layout (C++ `take<B,E>`).",
        example: "take((10,11,12,13), (1,3))",
        example_output: "(11, 12)",
        imp: op::take,
        direct: None,
    },
    Operation {
        name: "append",
        group: HTuple,
        params: &[req("obj"), req("x"), opt("n", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a tuple or layout with an element or mode added at the end",
        doc: "`obj` with `x` added as its last element: a tuple gains the element `x`, a \
              layout the mode `x` (a layout); a non-tuple counts as the 1-tuple of itself. With \
              `n`, `x` is added until the rank is `n` (`n` equal to the rank adds nothing; below \
              it is a `rank` error): C++'s `append<N>(L)` pads with `1:0`, here \
              `append(L, 1:0, N)`. C++ CuTe: `append`. \
              A swizzled layout keeps its swizzle and offset around the appended inner layout (C++).",
        example: "append((8,2):(1,8), 4:16)",
        example_output: "(8, 2, 4):(1, 8, 16)",
        imp: op::append,
        direct: None,
    },
    Operation {
        name: "prepend",
        group: HTuple,
        params: &[req("obj"), req("x"), opt("n", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a tuple or layout with an element or mode added in front",
        doc: "As `append`, with `x` added in front (`n` copies up to rank `n`). C++ CuTe: \
              `prepend`. \
              A swizzled layout keeps its swizzle and offset around the prepended inner layout.",
        example: "prepend(8:1, 1:0, 3)",
        example_output: "(1, 1, 8):(0, 0, 1)",
        imp: op::prepend,
        direct: None,
    },
    Operation {
        name: "group",
        group: HTuple,
        params: &[req("obj"), opt("indices", "()")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "an index range of elements or modes made into one",
        doc: "`group(obj, (b, e))` (or `group[b, e](obj)`) replaces the elements (or modes) \
              `b, ..., e-1` of `obj` by one tuple (one mode) of them; `e = -1` means the rank, \
              `b = e` leaves `obj` as it is, and a non-tuple counts as the 1-tuple of itself. \
              Exactly two indices are required (`value` error otherwise); a range outside the \
              rank is a `bounds` error. C++ CuTe: `group<B, E>`. \
              A swizzled layout keeps its swizzle and offset around the grouped inner layout (C++ `group<B,E>`).",
        example: "group((2,3,4,5):(1,2,6,24), (1,3))",
        example_output: "(2, (3, 4), 5):(1, (2, 6), 24)",
        imp: op::group,
        direct: None,
    },
    Operation {
        name: "lift",
        group: HTuple,
        params: &[req("obj"), opt("path", "()"), opt("pad", "0")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "nests a value at a path, padding the other positions",
        doc: "The inverse of `get`: for each index `i` of the path (the subscripts, then the \
              `path` argument), from the innermost outwards, the value becomes the tuple of \
              `i` copies of `pad` followed by the value, so `get(lift(v, p), p)` is `v`. The \
              mode-indexed algebra uses it with `pad=None` to turn `op[p](A, B)` into a by-mode \
              tiler. A negative index is a `value` error.",
        example: "lift(42, (1,), pad=None)",
        example_output: "(None, 42)",
        imp: op::lift,
        direct: None,
    },
    Operation {
        name: "wrap",
        group: HTuple,
        params: &[req("x")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a 1-tuple of a non-tuple",
        doc: "`x` itself if it is a tuple, else the 1-tuple `(x,)`. C++ CuTe: `wrap`.",
        example: "wrap(3)",
        example_output: "(3,)",
        imp: op::wrap,
        direct: None,
    },
    Operation {
        name: "unwrap",
        group: HTuple,
        params: &[req("x")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "strips 1-tuples",
        doc: "While `x` is a tuple of exactly one element, replaces it by that element; any \
              other value is returned as it is. C++ CuTe: `unwrap`.",
        example: "unwrap(((42,),))",
        example_output: "42",
        imp: op::unwrap,
        direct: None,
    },
    Operation {
        name: "repeat_like",
        group: HTuple,
        params: &[req("x"), req("profile")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a tuple nested like a profile, every leaf a value",
        doc: "The tuple nested like `profile` whose every leaf is `x` (`x` itself for a leaf \
              profile). A result of more than 65536 parts is a `value` error. C++ CuTe: \
              `repeat_like`.",
        example: "repeat_like(0, ((1,(2,3)),4))",
        example_output: "((0, (0, 0)), 0)",
        imp: op::repeat_like,
        direct: None,
    },
    Operation {
        name: "slice_",
        group: HTuple,
        params: &[req("htuple"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the parts at the None leaves of a coordinate",
        doc: "Walks the coordinate `htuple` (which may contain `None`) together with `B`, \
              following the coordinate's structure, and returns the flat tuple of the \
              sub-tuples of `B` that stand at the coordinate's `None` leaves; missing trailing \
              positions of the coordinate count as `None`. Slicing a layout `L(c)` keeps \
              `slice_(c, shape)` : `slice_(c, stride)`. C++ CuTe: `slice`.",
        example: "slice_((None,(1,None,1)), ((2,3),(5,7,9)))",
        example_output: "((2, 3), 7)",
        imp: op::slice_,
        direct: None,
    },
    Operation {
        name: "dice_",
        group: HTuple,
        params: &[req("htuple"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the parts at the non-None leaves of a coordinate",
        doc: "The complement of `slice_`: the flat tuple of the sub-tuples of `B` that stand \
              at the leaves of the coordinate `htuple` that are not `None`. C++ CuTe: `dice`.",
        example: "dice_((None,(1,None,1)), ((2,3),(5,7,9)))",
        example_output: "(5, 9)",
        imp: op::dice_,
        direct: None,
    },
    Operation {
        name: "leaves",
        group: HTuple,
        params: &[req("t")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the list of the leaves of a tuple",
        doc: "The leaves of `t` in traversal order, as a list (printed in brackets); a leaf \
              gives a one-element list. `flatten` gives the same leaves as a tuple.",
        example: "leaves(((1,(2,3)),4))",
        example_output: "[1, 2, 3, 4]",
        imp: op::leaves,
        direct: None,
    },
    // ------------------------------------------------------------------ properties
    Operation {
        name: "size",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the number of coordinates: the product of the shape",
        doc: "The product of the leaves of the shape of `obj` (a tuple, a layout, a swizzled \
              layout or a tensor); `1` for `()`. `size[i](obj)` is the size of mode `i`. \
              `size(None)` is a `type` error. Symbolic shapes and layouts with symbols give \
              a symbolic size. C++ CuTe: `size`.",
        example: "size[1]((4,(2,3)):(1,(4,8)))",
        example_output: "6",
        imp: op::size,
        direct: Some(Direct::Size),
    },
    Operation {
        name: "cosize",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the size of the codomain: the product of the coshape",
        doc: "`product(coshape(L))`, for integer strides `1 + sum((s-1)*|d|)` over the \
              leaves: the number of offsets from the smallest to the largest image point, as \
              in C++ (`cosize(8:-1)` is 8; the reference sums signed strides). For a \
              swizzled layout it is the largest swizzled offset plus one. For F2 strides it \
              is the power of two of `coshape`. A layout with symbols gives a symbolic \
              cosize (the facts must decide each stride's sign). C++ CuTe: `cosize`.",
        example: "cosize((4,8):(1,5))",
        example_output: "39",
        imp: op::cosize,
        direct: Some(Direct::Cosize),
    },
    Operation {
        name: "rank",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the number of modes",
        doc: "The number of top-level modes of a tuple, or of the shape of a layout, swizzled \
              layout or tensor (a layout with symbols too); `1` for a leaf and `0` for `()`. \
              C++ CuTe: `rank`.",
        example: "rank(((6,2),5):((8,2),1))",
        example_output: "2",
        imp: op::rank,
        direct: Some(Direct::Rank),
    },
    Operation {
        name: "depth",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the nesting depth",
        doc: "`0` for a leaf, and one more than the deepest mode for a tuple (of the shape, \
              for a layout or tensor). The empty tuple (and the empty layout `():()`) has \
              depth 1. A layout with symbols is accepted. C++ CuTe: `depth`.",
        example: "depth((3,(4,5)))",
        example_output: "2",
        imp: op::depth,
        direct: Some(Direct::Depth),
    },
    Operation {
        name: "shape",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the shape",
        doc: "The shape of a layout, swizzled layout or tensor; an integer or a tuple of \
              integers is its own shape. A layout with symbols gives its symbolic shape. C++ \
              CuTe: `shape`.",
        example: "shape[0](((6,2),5):((8,2),1))",
        example_output: "(6, 2)",
        imp: op::shape,
        direct: Some(Direct::Shape),
    },
    Operation {
        name: "stride",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "the stride",
        doc: "The stride of a layout, swizzled layout (its inner layout) or tensor: a tuple \
              congruent to the shape whose leaves are integers, coordinate values or F2 \
              values; a layout with symbols gives its symbolic (integer) strides. Other values \
              are a `type` error. C++ CuTe: `stride`.",
        example: "stride[0](((6,2),5):((8,2),1))",
        example_output: "(8, 2)",
        imp: op::stride,
        direct: Some(Direct::Stride),
    },
    Operation {
        name: "coshape",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the extent of the codomain",
        doc: "The extent of the image along each codomain axis: `1 + sum((s-1)*|d|)` for \
              integer strides (strides count by their absolute value, as in C++), and for \
              coordinate strides the tuple of the per-axis extents. For F2 strides (with \
              integer ones) it is `2^m`, `m` the largest bit length of a contribution \
              `(s-1)*d` (carry-less for F2), a bound on every value: `coshape(4:F3)` is 8. \
              It takes layouts only; mixed strides and F2 values inside coordinate strides \
              are a `type` error. C++ CuTe: `coshape`.",
        example: "coshape((4,8):(1@0,6@1))",
        example_output: "(4, 43)",
        imp: op::coshape,
        direct: None,
    },
    Operation {
        name: "coprofile",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the profile of the codomain",
        doc: "The structure of the codomain, every leaf printed as `0`: `0` for integer or F2 \
              strides, a tuple with one leaf per axis for coordinate strides. A tiler argument \
              (an integer or a tuple, `None` counting as one axis) is profiled as \
              `tiler_to_layout` would promote it. The algebra uses it to tell integer \
              codomains from coordinate ones.",
        example: "coprofile((4,8):(1@0,1@1@1))",
        example_output: "(0, (0, 0))",
        imp: op::coprofile,
        direct: None,
    },
    Operation {
        name: "congruent",
        group: Properties,
        params: &[req("a"), req("b")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "whether two tuples have the same profile",
        doc: "True when `a` and `b` are nested alike: two leaves, or two tuples of the same \
              length whose modes are congruent (a layout stands for its shape; a coordinate \
              value with `k` explicit children is congruent to a tuple of at least `k` modes \
              whose first `k` it matches). C++ CuTe: `congruent`.",
        example: "congruent((4,8),(5,7))",
        example_output: "True",
        imp: op::congruent,
        direct: None,
    },
    Operation {
        name: "weakly_congruent",
        group: Properties,
        params: &[req("a"), req("b")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "whether the profile of one tuple coarsens the other's",
        doc: "True when `b`'s profile is `a`'s with some leaves replaced by sub-tuples: a leaf \
              coarsens anything, a tuple never coarsens a leaf, and two tuples need the same \
              length and weakly congruent modes. A stride weakly congruent to its shape is \
              expanded by prefix products. C++ CuTe: `weakly_congruent`.",
        example: "weakly_congruent((1,(2,3)),((4,5),(6,7)))",
        example_output: "True",
        imp: op::weakly_congruent,
        direct: None,
    },
    Operation {
        name: "compatible",
        group: Properties,
        params: &[req("a"), req("b")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "whether each coordinate of a is one of b",
        doc: "True when shape `a` coarsens shape `b` with equal sizes: two tuples of the same \
              length with compatible modes, or an integer `a` equal to `size(b)`. Layouts and \
              tensors stand for their shapes. A composition `R = A ∘ B` always has \
              `compatible(B, R)`. C++ CuTe: `compatible`.",
        example: "compatible((2,15),(2,(3,5)))",
        example_output: "True",
        imp: op::compatible,
        direct: None,
    },
    Operation {
        name: "flatten",
        group: Properties,
        params: &[req("t")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tuple of leaves, or a layout with depth at most 1",
        doc: "The leaves of `t` as a flat tuple (a leaf gives a 1-tuple); a layout is flattened \
              in shape and stride together, keeping its function. C++ CuTe: `flatten`. \
              A swizzled layout keeps its swizzle and offset around the flattened inner layout (C++).",
        example: "flatten(((4,8),(2,3)):((1,4),(32,64)))",
        example_output: "(4, 8, 2, 3):(1, 4, 32, 64)",
        imp: op::flatten,
        direct: None,
    },
    Operation {
        name: "product",
        group: Properties,
        params: &[req("a")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the product of the leaves",
        doc: "The product of all leaves of the shape `a`; `1` for `()`. C++ CuTe: `product`.",
        example: "product(((2,3),4))",
        example_output: "24",
        imp: op::product,
        direct: None,
    },
    Operation {
        name: "subs",
        group: Properties,
        params: &[posonly("x"), kwrest("values")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Query,
        summary: "substitutes values for symbols",
        doc: "`x` with each symbol given as a keyword replaced by its value, everywhere in it \
              (integers, tuples, lists, layouts with symbols): `subs(N*K, N=128)` is `128*K`, \
              and with every symbol given the result is concrete (a layout with symbols \
              becomes a plain layout). A value must satisfy the facts assumed of \
              its symbol (`value` error otherwise, naming the fact); names that `x` does not \
              use are ignored (as sympy's `subs`). Symbols are declared with `assume` \
              (see the language guide, \"Symbols\").",
        example: "subs((4, 8), N=2)",
        example_output: "(4, 8)",
        imp: op::subs,
        direct: None,
    },
    Operation {
        name: "product_each",
        group: Properties,
        params: &[req("a")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the product of each mode",
        doc: "The flat tuple whose `i`-th entry is the product of mode `i` of the tuple `a`. \
              C++ CuTe: `product_each`.",
        example: "product_each(((2,(3,4)),(5,6),7))",
        example_output: "(24, 30, 7)",
        imp: op::product_each,
        direct: None,
    },
    Operation {
        name: "prefix_product",
        group: Properties,
        params: &[req("a"), opt("init", "1")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the exclusive running product of the leaves",
        doc: "The tuple nested like `a` whose leaf `k` is `init` times the product of the \
              leaves before it (in traversal order): the column-major strides of the shape `a`. \
              `init` may be any stride scalar (e.g. `E(1)`), or a tuple of the length of `a` \
              giving each mode its own start. C++ CuTe: `prefix_product`.",
        example: "prefix_product(((2,3),4,(5,6)))",
        example_output: "((1, 2), 6, (24, 120))",
        imp: op::prefix_product,
        direct: None,
    },
    Operation {
        name: "inner_product",
        group: Properties,
        params: &[req("a"), req("b")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the sum of the leafwise products",
        doc: "The sum over the leaves of the congruent tuples `a` and `b` of their products, \
              in the stride algebra of the leaves (an integer times `E(i)` is a coordinate \
              value). A layout's offset is the inner product of a natural coordinate with its \
              stride. C++ CuTe: `inner_product`.",
        example: "inner_product((1,(2,3)),(1,(10,100)))",
        example_output: "321",
        imp: op::inner_product,
        direct: None,
    },
    Operation {
        name: "idx2crd",
        group: Properties,
        params: &[req("idx"), req("shape"), opt("stride", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "an index as a natural coordinate of a shape",
        doc: "The natural coordinate (congruent to `shape`) of the index `idx`, in \
              colexicographic order: the leftmost mode varies fastest and the last mode \
              absorbs any overflow. A coordinate weakly congruent to the shape is converted \
              mode by mode. An integer index split over a shape with an extent 0 is a `value` \
              error. With `stride` it is C++'s three-argument form: every leaf is \
              `(idx / d) % s` (truncating; `0` for an extent 1), each mode reading the whole \
              index, so `idx2crd(7, (3,8), (8,1))` is `(0, 7)`; a stride 0 on an extent above \
              1 is a `value` error. C++ CuTe: `idx2crd`.",
        example: "idx2crd(16, (3,(2,3)))",
        example_output: "(1, (1, 2))",
        imp: op::idx2crd,
        direct: Some(Direct::Idx2crd),
    },
    Operation {
        name: "crd2idx",
        group: Properties,
        params: &[req("crd"), req("shape"), opt("stride", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a coordinate of a shape as its integral index",
        doc: "The colexicographic index of the coordinate `crd` (integral, flat or natural): \
              each leaf is weighted by the product of the sizes to its left. No bounds are \
              checked. A coordinate with F2 leaves gives an F2 index (carry-less products, \
              XOR sums; integer leaves must then be 0): `crd2idx((F2,F5), (4,8))` is `F22`, \
              the inverse of `idx2crd` of an F2 index. With `stride` it is C++'s three-argument form, the offset \
              `Layout(shape, stride)(crd)`: `crd2idx((1,2), (3,8), (8,1))` is `10`. C++ CuTe: \
              `crd2idx`.",
        example: "crd2idx((1,(1,2)), (3,(2,3)))",
        example_output: "16",
        imp: op::crd2idx,
        direct: Some(Direct::Crd2idx),
    },
    Operation {
        name: "common_refinement",
        group: Properties,
        params: &[req("a"), req("b")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the coarsest shape both shapes coarsen, leaf by leaf",
        doc: "Walks the shapes `a` and `b` together: equal leaves stay, a leaf against a tuple \
              of the same size takes the tuple, two tuples must have the same length. Leaves \
              that differ are a `value` error, tuples of different lengths a `rank` error.",
        example: "common_refinement((6,(2,2)),((2,3),4))",
        example_output: "((2, 3), (2, 2))",
        imp: op::common_refinement,
        direct: None,
    },
    Operation {
        name: "common_coarsening",
        group: Properties,
        params: &[req("a"), req("b")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the finest shape coarsening both shapes",
        doc: "Keeps the structure `a` and `b` share: two tuples of the same length are \
              coarsened mode by mode, and wherever that fails the enclosing level collapses to \
              its size. Shapes of different sizes are a `value` error.",
        example: "common_coarsening((4,(3,5)),((2,2),15))",
        example_output: "(4, 15)",
        imp: op::common_coarsening,
        direct: None,
    },
    Operation {
        name: "is_basis",
        group: Properties,
        params: &[req("x")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "whether a stride value has at most one nonzero term",
        doc: "True when `basis_repr(x)` has exactly one term: every integer and F2 value, the \
              zero coordinate value, and a coordinate value with one nonzero leaf such as \
              `3@1`.",
        example: "is_basis(3*E(0)+5*E(1))",
        example_output: "False",
        imp: op::is_basis,
        direct: None,
    },
    Operation {
        name: "basis_repr",
        group: Properties,
        params: &[req("x")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the (value, path) terms of a stride value",
        doc: "The list of the pairs `(value, path)`, one per nonzero leaf of the coordinate \
              value `x` in traversal order, `path` leading to the leaf; `[(0, ())]` when there \
              is none and `[(s, ())]` for a plain scalar `s`.",
        example: "basis_repr(3*E(0)+5*E(1))",
        example_output: "[(3, (0,)), (5, (1,))]",
        imp: op::basis_repr,
        direct: None,
    },
    Operation {
        name: "as_tuple",
        group: Properties,
        params: &[req("obj")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a coordinate value as a plain tuple",
        doc: "The explicit children of a coordinate value as a plain nested tuple, \
              recursively through tuples; other values are returned as they are.",
        example: "as_tuple(E(1))",
        example_output: "(0, 1)",
        imp: op::as_tuple,
        direct: None,
    },
    Operation {
        name: "make_basis_like",
        group: Properties,
        params: &[req("profile")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the unit basis vector of each leaf's path",
        doc: "The tuple nested like `profile` whose leaf at path `p` is `E(*p)` (so a leaf \
              profile gives `1`): the strides of `make_identity_layout`. C++ CuTe: \
              `make_basis_like`.",
        example: "make_basis_like((10,(20,30)))",
        example_output: "(1@0, (1@0@1, 1@1@1))",
        imp: op::make_basis_like,
        direct: None,
    },
    Operation {
        name: "unit",
        group: Properties,
        params: &[req("profile")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the unit vector on a basis value's axis",
        doc: "`E(*p)` for the path `p` of the basis value `profile` (`1` for a plain scalar). \
              A value with several nonzero terms is a `type` error.",
        example: "unit(2*E(1,0))",
        example_output: "1@0@1",
        imp: op::unit,
        direct: None,
    },
    Operation {
        name: "proj",
        group: Properties,
        params: &[req("x"), req("profile")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the part of a value on a basis value's axis",
        doc: "`get(x, p)` for the path `p` of the basis value `profile`: the component of `x` \
              along that axis (`x` itself for a plain scalar `profile`). A value with several \
              nonzero terms is a `type` error; a path into a leaf or past the rank is an \
              error too.",
        example: "proj((1,(2,3)), E(1,0))",
        example_output: "2",
        imp: op::proj,
        direct: None,
    },
    // ------------------------------------------------------------------ construction
    Operation {
        name: "Layout",
        group: Construction,
        params: &[req("shape"), opt("stride", "1")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Constructor,
        summary: "a layout from a shape and a (weakly congruent) stride",
        doc: "The layout `shape : stride`. The stride may be weakly congruent to the shape: an \
              integer leaf of the stride where the shape has a sub-tuple is the first stride of \
              that sub-shape, continued by prefix products, so `Layout(S)` is the column-major \
              layout of `S`. The literal `S:D` is the same without this expansion. A shape or \
              stride with symbols gives a layout with symbols. C++ CuTe: \
              `make_layout(shape, stride)`.",
        example: "Layout(((2,3),4),(1,100))",
        example_output: "((2, 3), 4):((1, 2), 100)",
        imp: op::layout_ctor,
        direct: None,
    },
    Operation {
        name: "LayoutLeft",
        group: Construction,
        params: &[req("shape")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Constructor,
        summary: "the column-major layout of a shape",
        doc: "The compact layout of `shape` whose leftmost mode has stride 1 (generalised \
              column-major, the default of `Layout`); a symbolic shape gives a layout with \
              symbols. C++ CuTe: `make_layout(shape, LayoutLeft{})`.",
        example: "LayoutLeft((4,8))",
        example_output: "(4, 8):(1, 4)",
        imp: op::layout_left,
        direct: None,
    },
    Operation {
        name: "LayoutRight",
        group: Construction,
        params: &[req("shape")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Constructor,
        summary: "the row-major layout of a shape",
        doc: "The compact layout of `shape` whose rightmost mode has stride 1 (generalised \
              row-major); a symbolic shape gives a layout with symbols. C++ CuTe: \
              `make_layout(shape, LayoutRight{})`.",
        example: "LayoutRight((4,8))",
        example_output: "(4, 8):(8, 1)",
        imp: op::layout_right,
        direct: None,
    },
    Operation {
        name: "make_layout",
        group: Construction,
        params: &[rest("args")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Constructor,
        summary: "a layout from a shape and a stride, or a concatenation",
        doc: "C++'s three forms. `make_layout(shape, stride)` is `Layout(shape, stride)` and \
              `make_layout(shape)` the column-major `Layout(shape)`. `make_layout(L0, L1, ...)` \
              of layouts is the layout whose mode `i` is `Li`: shape `(shape(L0), shape(L1), \
              ...)` and stride likewise, always a tuple shape; as a function `R(c0, c1, ...) = \
              L0(c0) + L1(c1) + ...`; a single tuple of layouts is accepted too. \
              `make_layout()` is the empty layout `():()`. The shape and stride forms accept \
              symbols (as `Layout`); the concatenation takes concrete layouts. C++ CuTe: \
              `make_layout`.",
        example: "make_layout((4,8), (8,1))",
        example_output: "(4, 8):(8, 1)",
        imp: op::make_layout,
        direct: None,
    },
    Operation {
        name: "make_shape",
        group: Construction,
        params: &[rest("modes")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tuple of its arguments, checked as a shape",
        doc: "The tuple `(m0, m1, ...)` of the arguments (integers or tuples of them): \
              `make_shape(4, 8)` is `(4, 8)`, `make_shape(4)` the 1-tuple `(4,)` and \
              `make_shape()` the empty tuple. Other leaves are a `type` error. C++ CuTe: \
              `make_shape`.",
        example: "make_shape(4, (2, 3))",
        example_output: "(4, (2, 3))",
        imp: op::make_shape,
        direct: None,
    },
    Operation {
        name: "make_stride",
        group: Construction,
        params: &[rest("modes")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tuple of its arguments, checked as a stride",
        doc: "The tuple of the arguments, whose leaves are integers, coordinate values or F2 \
              values; other leaves are a `type` error. C++ CuTe: `make_stride`.",
        example: "make_stride(8, 1)",
        example_output: "(8, 1)",
        imp: op::make_stride,
        direct: None,
    },
    Operation {
        name: "make_coord",
        group: Construction,
        params: &[rest("modes")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tuple of its arguments, checked as a coordinate",
        doc: "The tuple of the arguments, whose leaves are integers, coordinate values or \
              `None` (`_`, which slices); other leaves are a `type` error. C++ CuTe: \
              `make_coord`.",
        example: "make_coord(1, _)",
        example_output: "(1, None)",
        imp: op::make_coord,
        direct: None,
    },
    Operation {
        name: "make_tile",
        group: Construction,
        params: &[rest("modes")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tuple of its arguments, checked as a tiler",
        doc: "The tuple of the arguments, each a tiler (an integer, a layout, `None` or a \
              tuple of tilers), to use as a by-mode tiler in the divides and products; other \
              leaves are a `type` error. C++ CuTe: `make_tile`.",
        example: "make_tile(4, 8:2)",
        example_output: "(4, Layout(8, 2))",
        imp: op::make_tile,
        direct: None,
    },
    Operation {
        name: "make_layout_like",
        group: Construction,
        params: &[req("A")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "a compact layout with strides ordered like a layout's",
        doc: "The layout of `A`'s shape with compact strides assigned to the leaves in the \
              ascending order of `A`'s strides (ties keep leaf order); a zero stride stays \
              zero. C++ CuTe: `make_layout_like`.",
        example: "make_layout_like((2,3,4,5):(0,42,4,0))",
        example_output: "(2, 3, 4, 5):(0, 4, 1, 0)",
        imp: op::make_layout_like,
        direct: Some(Direct::Unary(algebra::make::make_layout_like_into)),
    },
    Operation {
        name: "make_ordered_layout",
        group: Construction,
        params: &[req("shape"), req("order")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a compact layout with strides in a given order",
        doc: "The compact layout of `shape` whose leaves receive strides in the ascending order \
              of the congruent tuple `order` (equal values keep leaf order; only the relative \
              order matters). An `order` not congruent to `shape` is a `congruence` error. C++ \
              CuTe: `make_ordered_layout`.",
        example: "make_ordered_layout((2,(3,4)),(1,(0,2)))",
        example_output: "(2, (3, 4)):(3, (1, 6))",
        imp: op::make_ordered_layout,
        direct: Some(Direct::MakeOrderedLayout),
    },
    Operation {
        name: "tiler_to_layout",
        group: Construction,
        params: &[req("tiler")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "one layout acting like a tiler",
        doc: "Turns a tiler into one layout: an integer `n` is `n:1`, a layout is itself, and \
              the leaf of a tuple tiler at path `p` has its strides scaled into the axis `E(*p)` \
              so that the modes stay apart. The algebra promotes an integer or tuple first \
              argument this way; a `None` entry is a `type` error.",
        example: "tiler_to_layout(((2,2):(1,4), 8))",
        example_output: "((2, 2), 8):((1@0, 4@0), 1@1)",
        imp: op::tiler_to_layout,
        direct: None,
    },
    Operation {
        name: "make_identity_layout",
        group: Construction,
        params: &[req("shape")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the layout mapping each coordinate to itself",
        doc: "`shape : make_basis_like(shape)`: every leaf of the shape gets the unit basis \
              vector of its path, so the layout maps each coordinate to itself as a coordinate \
              value. C++ CuTe: `make_identity_layout`.",
        example: "make_identity_layout(((2,3),4))",
        example_output: "((2, 3), 4):((1@0@0, 1@1@0), 1@1)",
        imp: op::make_identity_layout,
        direct: None,
    },
    Operation {
        name: "E",
        group: Construction,
        params: &[rest("seq")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the unit basis vector at a path",
        doc: "The coordinate value `1` at the basis path `seq` (outermost index first), \
              printed innermost index first: `E(1,0)` is `1@0@1`; `E()` is `1`. Scaled and \
              added (`3*E(0) + 5*E(1)`) it gives coordinate strides. A negative index is a \
              `value` error. C++ CuTe: `E<I...>`.",
        example: "E(1,0)",
        example_output: "1@0@1",
        imp: op::e,
        direct: None,
    },
    Operation {
        name: "F2",
        group: Construction,
        params: &[req("value")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "an F2 (XOR) stride value",
        doc: "The F2 value of the integer `value`, printed `F<value>`: addition is XOR and \
              multiplication carry-less, so a layout with F2 strides expresses a swizzle as a \
              linear map over GF(2). A negative `value` is a `value` error.",
        example: "F2(9)",
        example_output: "F9",
        imp: op::f2,
        direct: None,
    },
    Operation {
        name: "ArithTuple",
        group: Construction,
        params: &[rest("children")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a coordinate value from its children",
        doc: "The coordinate value with the given explicit children (integers, coordinate \
              values, or tuples of them); `ArithTuple(3, 5)` is `3*E(0) + 5*E(1)`, printed \
              `(3, 5)`. A single scalar argument is returned as it is. C++ CuTe: \
              `ArithmeticTuple`.",
        example: "ArithTuple(3, 5)",
        example_output: "(3, 5)",
        imp: op::arith_tuple,
        direct: None,
    },
    Operation {
        name: "ScaledBasis",
        group: Construction,
        params: &[req("value"), opt("seq", "()")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a value at a basis path",
        doc: "`value` (a stride scalar) scaled onto the basis path `seq` (an index or a tuple \
              of indices, outermost first): `ScaledBasis(v, (i, j))` is `v * E(i, j)`. C++ \
              CuTe: `ScaledBasis`.",
        example: "ScaledBasis(5, (1,2))",
        example_output: "5@2@1",
        imp: op::scaled_basis,
        direct: None,
    },
    Operation {
        name: "Swizzle",
        group: Construction,
        params: &[req("bits"), req("base"), req("shift")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the swizzle functor Swizzle(B, M, S)",
        doc: "The functor that XORs the `bits` bits starting at bit `base + shift` into the \
              bits starting at `base` (a negative `shift` goes the other way); `Sw(x)` applies \
              it to an integer and `composition(Sw, L)` builds a swizzled layout. Overlapping \
              bit fields, and masks past bit 62 (`base + |shift| + bits > 63`), are a `value` \
              error. C++ CuTe: `Swizzle<B, M, S>`.",
        example: "Swizzle(3,4,3)",
        example_output: "SW_3_4_3",
        imp: op::swizzle,
        direct: None,
    },
    // ------------------------------------------------------------------ algebra
    Operation {
        name: "coalesce",
        group: Algebra,
        params: &[req("A"), opt("profile", "1")],
        mode_indexed: true,
        tensor_first: true,
        symbols: Symbols::Algebra,
        summary: "merges modes without changing the function",
        doc: "A layout of the same size and depth at most 1 that agrees with `A` on every \
              index in `0..size(A)`: modes of size 1 are dropped and a mode whose stride \
              continues the previous one is merged into it. With a tuple `profile` it works \
              mode by mode (a `None` entry leaves a mode alone); `coalesce[i](A)` coalesces \
              mode `i` only. An integer or tuple `A` is promoted by `tiler_to_layout`, and \
              `coalesce(None)` is `None`. A layout with symbols is coalesced as a whole (the \
              by-mode forms take concrete layouts). C++ CuTe: `coalesce`.",
        example: "coalesce((2,(1,6)):(1,(6,2)))",
        example_output: "12:1",
        imp: op::coalesce,
        direct: Some(Direct::Profile(
            |a, o| ModeOp::Coalesce.whole_into(a, o),
            |a, p, o| ModeOp::Coalesce.by_mode_into(a, p, o),
        )),
    },
    Operation {
        name: "coalesce_z",
        group: Algebra,
        params: &[req("A"), opt("profile", "1")],
        mode_indexed: true,
        tensor_first: true,
        symbols: Symbols::No,
        summary: "coalesce, keeping the function on every integer",
        doc: "Like `coalesce`, but the result agrees with `A` on every integer index, not only \
              inside the domain: a trailing size-1 mode whose stride continues the function \
              is kept. By-mode and mode-indexed forms as for `coalesce`.",
        example: "coalesce_z((2,1,6,1):(1,7,8,0))",
        example_output: "(2, 6, 1):(1, 8, 0)",
        imp: op::coalesce_z,
        direct: Some(Direct::Profile(
            |a, o| ModeOp::CoalesceZ.whole_into(a, o),
            |a, p, o| ModeOp::CoalesceZ.by_mode_into(a, p, o),
        )),
    },
    Operation {
        name: "filter",
        group: Algebra,
        params: &[req("A"), opt("profile", "1")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "coalesce without the stride-0 and size-1 modes",
        doc: "`coalesce(filter_zeros(A))`: removes the modes of stride 0 and of size 1 and \
              merges what can be merged; a layout with nothing left is `1:0`. By-mode with a \
              tuple `profile`, and mode-indexed, as `coalesce`. `A` must be a layout. C++ \
              CuTe: `filter`.",
        example: "filter((4,2,3):(1,0,4))",
        example_output: "12:1",
        imp: op::filter,
        direct: Some(Direct::Profile(
            |a, o| ModeOp::Filter.whole_into(a, o),
            |a, p, o| ModeOp::Filter.by_mode_into(a, p, o),
        )),
    },
    Operation {
        name: "filter_zeros",
        group: Algebra,
        params: &[req("A")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the size of every stride-0 mode replaced by 1",
        doc: "The layout `A` with each shape leaf whose stride is zero (in any stride algebra) \
              replaced by 1; the profile and the strides are unchanged. C++ CuTe: \
              `filter_zeros`. \
              A swizzled layout keeps its swizzle and offset around the filtered inner layout.",
        example: "filter_zeros((4,1,3):(1,5,0))",
        example_output: "(4, 1, 1):(1, 5, 0)",
        imp: op::filter_zeros,
        direct: Some(Direct::Unary(unary!(algebra::filter_zeros))),
    },
    Operation {
        name: "composition",
        group: Algebra,
        params: &[req("A"), req("B"), opt("C", "None")],
        mode_indexed: true,
        tensor_first: true,
        symbols: Symbols::Algebra,
        summary: "the layout A ∘ B (A after B)",
        doc: "The whitepaper's functional composition: the layout `R` with `compatible(B, R)` \
              and `R(c) = A(B(c))` for every coordinate `c` of `B` whose image lies in `A`'s \
              domain. `B` is a tiler: a layout, an integer `n` (`n:1`), `None` (no change) or \
              a tuple applied mode by mode. Where no layout reproduces `A ∘ B` (the \
              divisibility conditions fail, or the result would be wrong inside `A`'s domain) \
              it is a `divisibility` error. A swizzle `A` gives a swizzled layout, and \
              `composition(Sw, offset, L)` (C++'s three-argument form) the swizzled layout \
              `Sw o offset o L`, whose value at `c` is `Sw(offset + L(c))`; a swizzled `A` \
              composes through its inner layout. A plain layout `A` after a swizzled layout \
              `Sw o L` (offset 0) or a swizzle `Sw` moves the swizzle to the left, as C++ \
              does: `Sw' o composition(A, L)` (or `Sw' o A`), where `Sw'`'s bit fields are the \
              images under `A` of `Sw`'s; rcute checks the answer at each index (up to 65536 \
              of them) and reports a `divisibility` error where `A` does not carry the \
              swizzle through (C++ may return a wrong layout there). `composition(None, B)` is `B` as one layout (`tiler_to_layout(B)`, a `None` in \
              `B` read as `1`; `composition[p](None, B)` puts it at the path `p` between \
              `1:0` modes); `composition(None, None)` is `None`. Layouts with symbols are \
              accepted as `A` and `B` (and in a by-mode tuple `B`; an integer `B` may be \
              symbolic); a concrete operand is then read as one with symbols. C++ CuTe: \
              `composition`.",
        example: "composition((6,2):(8,2), (4,3):(3,1))",
        example_output: "((2, 2), 3):((24, 2), 8)",
        imp: op::composition,
        direct: Some(Direct::Tiler(algebra::composition::composition_into)),
    },
    Operation {
        name: "complement",
        group: Algebra,
        params: &[req("A"), opt("extend", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "the layout of the holes between A's strides",
        doc: "The whitepaper's complement `A*`: the minimal strictly increasing layout whose \
              image avoids `A`'s (disjointness) and fills the gaps between its strides, ending \
              in a size-1 mode at the end of `A`'s largest mode; `extend=S` grows that last \
              mode so the complement reaches the shape `S` (`make_layout(A, complement(A, \
              extend=S))` then covers `size(S)` offsets when `A`'s strides form a divisible \
              chain). A non-injective `A` is an `injectivity` error, F2 strides a `type` error. \
              `A` may be a layout with symbols and `extend` a symbolic integer. \
              C++ CuTe: `complement` (which omits the trailing size-1 mode).",
        example: "complement((2,2):(1,6), extend=24)",
        example_output: "(3, 2):(2, 12)",
        imp: op::complement,
        direct: Some(Direct::Complement),
    },
    Operation {
        name: "logical_divide",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: true,
        tensor_first: true,
        symbols: Symbols::Algebra,
        summary: "A divided into tiles of B: (tile, rest)",
        doc: "The whitepaper's logical divide `A ⊘ B = A ∘ (B, B*)`: mode 0 is the tile (the \
              elements of `A` that `B` selects) and mode 1 the layout of the tiles, `B`'s \
              complement extended to the size of `A`. A tuple `B` divides mode by mode, \
              keeping `A`'s modes in place; `logical_divide[i](A, B)` divides mode `i` only. \
              `logical_divide(None, B)` makes each leaf `b` of `B` the pair `(b, complement(b))` \
              (the free complement) as one layout, as `composition(None, ...)` does. Errors are \
              those of complement and composition. Layouts with symbols are accepted as `A` \
              and `B` (and in a by-mode tuple `B`), as for `composition`. C++ CuTe: \
              `logical_divide`.",
        example: "logical_divide(24:1, 4:2)",
        example_output: "(4, (2, 3)):(2, (1, 8))",
        imp: op::logical_divide,
        direct: Some(Direct::Tiler(algebra::divide::logical_divide_into)),
    },
    Operation {
        name: "zipped_divide",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: true,
        tensor_first: true,
        symbols: Symbols::Algebra,
        summary: "divide into ((tiles), (rests))",
        doc: "`logical_divide(A, tiler_to_layout(B))`: for a by-mode tiler the tile modes are \
              gathered into mode 0 and the rest modes (with `A`'s modes beyond the tiler) into \
              mode 1, so `R(t, r)` is element `t` of tile `r`. A `None` in the tiler is a \
              `type` error. `zipped_divide(None, B)` is `logical_divide(None, \
              tiler_to_layout(B))`. C++ CuTe: `zipped_divide`.",
        example: "zipped_divide((8,24):(1,8), (4,8))",
        example_output: "((4, 8), (2, 3)):((1, 8), (4, 64))",
        imp: op::zipped_divide,
        direct: Some(Direct::Tiler(algebra::divide::zipped_divide_into)),
    },
    Operation {
        name: "tiled_divide",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: true,
        symbols: Symbols::Algebra,
        summary: "divide into ((tiles), rest0, rest1, ...)",
        doc: "`zipped_divide(A, B)` with its second mode split into its modes: `((TileM, \
              TileN), RestM, RestN, ...)`. C++ CuTe: `tiled_divide`.",
        example: "tiled_divide((8,24):(1,8), (4,8))",
        example_output: "((4, 8), 2, 3):((1, 8), 4, 64)",
        imp: op::tiled_divide,
        direct: Some(Direct::Tiler(binary!(algebra::tiled_divide))),
    },
    Operation {
        name: "flat_divide",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: true,
        symbols: Symbols::Algebra,
        summary: "divide into (tile0, tile1, ..., rest0, ...)",
        doc: "`zipped_divide(A, B)` with both modes split into their modes: `(TileM, TileN, \
              RestM, RestN, ...)`. C++ CuTe: `flat_divide`.",
        example: "flat_divide((8,24):(1,8), (4,8))",
        example_output: "(4, 8, 2, 3):(1, 8, 4, 64)",
        imp: op::flat_divide,
        direct: Some(Direct::Tiler(binary!(algebra::flat_divide))),
    },
    Operation {
        name: "tile_unzip",
        group: Algebra,
        params: &[req("A"), req("tiler")],
        mode_indexed: false,
        tensor_first: true,
        symbols: Symbols::No,
        summary: "the zipped form of a logical divide or product",
        doc: "The guided zip: each leaf of `tiler` (an integer, a layout or `None`) selects a \
              rank-2 mode `(t, r)` of `A` and the result is `((t0, t1, ...), (r0, r1, ..., \
              rest...))`, `rest` being the modes of `A` beyond a tuple tiler; so \
              `tile_unzip(logical_divide(A, T), T)` is `zipped_divide(A, T)` as C++ computes \
              it. A selected mode that is not rank-2, or a tuple tiler longer than the layout it \
              guides, is a `rank` error. C++ CuTe: `tile_unzip`.",
        example: "tile_unzip(((4,3),(8,4),5):((1,4),(12,96),384), (4,8))",
        example_output: "((4, 8), (3, 4, 5)):((1, 12), (4, 96, 384))",
        imp: op::tile_unzip,
        direct: None,
    },
    Operation {
        name: "logical_product",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: true,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "A repeated by B: (A, A* ∘ B)",
        doc: "The whitepaper's logical product `A ⊗ B = (A, A* ∘ B)`: mode 0 is `A` and mode 1 \
              is `B` with each element replaced by a distinct repetition of `A` (through `A`'s \
              complement). A tuple `B` works mode by mode; `logical_product[i](A, B)` \
              multiplies mode `i` only. Errors are those of complement and composition. C++ \
              CuTe: `logical_product`.",
        example: "logical_product((2,2):(4,1), 6:1)",
        example_output: "((2, 2), (2, 3)):((4, 1), (2, 8))",
        imp: op::logical_product,
        direct: Some(Direct::Tiler(algebra::product::logical_product_into)),
    },
    Operation {
        name: "zipped_product",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "product as ((A's modes), (repetitions))",
        doc: "The logical product with the modes of `A` gathered into mode 0 and the \
              repetitions into mode 1, guided by the structure of the tiler `B`: `((M, N), \
              (TileM, TileN, ...))`. C++ CuTe: `zipped_product`.",
        example: "zipped_product((2,5):(5,1), (3:5, 4:6))",
        example_output: "((2, 5), (3, 4)):((5, 1), (10, 30))",
        imp: op::zipped_product,
        direct: Some(Direct::Tiler(binary!(algebra::zipped_product))),
    },
    Operation {
        name: "tiled_product",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "product as ((A's modes), rep0, rep1, ...)",
        doc: "`zipped_product(A, B)` with its second mode split into its modes: `((M, N), \
              TileM, TileN, ...)`. C++ CuTe: `tiled_product`.",
        example: "tiled_product((2,5):(5,1), (3:5, 4:6))",
        example_output: "((2, 5), 3, 4):((5, 1), 10, 30)",
        imp: op::tiled_product,
        direct: Some(Direct::Tiler(binary!(algebra::tiled_product))),
    },
    Operation {
        name: "flat_product",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "product as (A0, A1, ..., rep0, rep1, ...)",
        doc: "`zipped_product(A, B)` with both modes split into their modes: `(M, N, TileM, \
              TileN, ...)`. C++ CuTe: `flat_product`.",
        example: "flat_product((2,5):(5,1), (3:5, 4:6))",
        example_output: "(2, 5, 3, 4):(5, 1, 10, 30)",
        imp: op::flat_product,
        direct: Some(Direct::Tiler(binary!(algebra::flat_product))),
    },
    Operation {
        name: "blocked_product",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "copies of A laid out by B, each one contiguous",
        doc: "The rank-preserving product: mode `i` of the result pairs mode `i` of the tile \
              `A` with mode `i` of the layout of the copies (`A` first), so each copy of `A` \
              stays a contiguous block; the operands are padded with `1:0` modes to the same \
              rank, as C++ does. `size(R) = size(A) * size(B)`. C++ CuTe: `blocked_product`.",
        example: "blocked_product((2,5):(5,1), (3,4):(1,3))",
        example_output: "((2, 3), (5, 4)):((5, 10), (1, 30))",
        imp: op::blocked_product,
        direct: Some(Direct::Tiler(|a, b, out| {
            algebra::product::blocked_raked_into(a, b, false, out)
        })),
    },
    Operation {
        name: "raked_product",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "copies of A laid out by B, interleaved",
        doc: "Like `blocked_product` with the pairs in the other order (the layout of the \
              copies first), so the copies of `A` are interleaved: a cyclic distribution. C++ \
              CuTe: `raked_product`.",
        example: "raked_product((2,5):(5,1), (3,4):(1,3))",
        example_output: "((3, 2), (4, 5)):((10, 5), (30, 1))",
        imp: op::raked_product,
        direct: Some(Direct::Tiler(|a, b, out| {
            algebra::product::blocked_raked_into(a, b, true, out)
        })),
    },
    Operation {
        name: "tile_to_shape",
        group: Algebra,
        params: &[req("block"), req("shape"), opt("order", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a block repeated to fill a shape",
        doc: "The block (padded with `1:0` modes to the rank of `shape`) repeated \
              `P_i = size(shape_i) / size(block_i)` times along mode `i`: \
              `blocked_product(block, make_ordered_layout(P, order))`, `order` defaulting to \
              column-major (so the block repeats along mode 0 first; `order=(2,1)` repeats along \
              mode 1 first, C++'s `Step<_2,_1>`). A swizzled block keeps its swizzle on the \
              result. A block of higher rank than `shape` is a `rank` error, a block mode whose \
              size does not divide the target's a `divisibility` error. C++ CuTe: \
              `tile_to_shape`.",
        example: "tile_to_shape((8,8):(8,1), (32,64))",
        example_output: "((8, 4), (8, 8)):((8, 64), (1, 256))",
        imp: op::tile_to_shape,
        direct: None,
    },
    Operation {
        name: "domain_distribute",
        group: Algebra,
        params: &[req("shape"), req("n")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a tile of n elements spread over a shape's domain",
        doc: "A layout whose size divides `n` that picks elements of the column-major domain \
              of `shape` (a shape or a layout's shape) in increasing order: leaf by leaf \
              `g_i = gcd(s_i, rest)` of what is left of `n`, with the column-major strides of \
              the flattened shape, coalesced (size 1 gives `1:0`); a tile for `zipped_divide` \
              when `n` divides no mode. A non-positive `n` is a `value` error. C++ CuTe: \
              `domain_distribute`.",
        example: "domain_distribute((15,14), 6)",
        example_output: "(3, 2):(1, 15)",
        imp: op::domain_distribute,
        direct: None,
    },
    Operation {
        name: "right_inverse",
        group: Algebra,
        params: &[req("A")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "the largest layout R with A(R(k)) = k",
        doc: "The largest right inverse: `R` enumerates, in order, the coordinates of `A` at \
              which the offsets `0, 1, 2, ...` of the longest contiguous run in `A`'s image \
              appear, so `A(R(k)) = k`; `1:0` when offset 1 is not reached. Coordinate strides \
              give one inverse per codomain axis, F2 strides are inverted over GF(2), also \
              on a coordinate axis (`right_inverse((8,8):(F1@0,1@1))` is `(8, 8):(F1, 8)`). \
              A layout with symbols is accepted. C++ CuTe: `right_inverse`.",
        example: "right_inverse((4,8):(8,1))",
        example_output: "(8, 4):(4, 1)",
        imp: op::right_inverse,
        direct: Some(Direct::Unary(algebra::inverse::right_inverse_into)),
    },
    Operation {
        name: "left_inverse",
        group: Algebra,
        params: &[req("A")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "a layout R with R(A(k)) = k",
        doc: "A left inverse of the injective layout `A`, spanning the whole range of offsets \
              `A` uses: `R(A(k)) = k` for every index `k` of `A`, offsets between `A`'s strides \
              mapping to the nearest one below. The sorted strides must form an ordered chain \
              (`divisibility` error otherwise); overlapping modes are an `injectivity` error. \
              A layout with symbols is accepted. C++ CuTe: `left_inverse`.",
        example: "left_inverse(4:2)",
        example_output: "(2, 4):(0, 1)",
        imp: op::left_inverse,
        direct: Some(Direct::Unary(algebra::inverse::left_inverse_into)),
    },
    Operation {
        name: "nullspace",
        group: Algebra,
        params: &[req("A")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the coordinates that the zero strides of A send to 0",
        doc: "The compact layout enumerating the indices of `A` along its stride-0 modes, so \
              that `A(N(i)) = 0` for every `i`; `1:0` when `A` has no zero stride. C++ CuTe: \
              `nullspace`. \
              Of a swizzled layout `Sw o offset o L`: `nullspace(L)` (C++ answers `1:0`).",
        example: "nullspace((2,4,6):(0,2,0))",
        example_output: "(2, 6):(1, 8)",
        imp: op::nullspace,
        direct: Some(Direct::Unary(algebra::inverse::nullspace_into)),
    },
    Operation {
        name: "max_common_layout",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the contiguous offsets A and B share, as a layout",
        doc: "The layout of the coordinates at which `A` and `B` both place the consecutive \
              offsets `0, 1, ..., n-1` (the vectorisable part of a copy from `B` to `A`): \
              mode 0 of `coalesce(A ∘ right_inverse(B))` composed back through the inverse, or \
              `1:0` when that mode does not have stride 1. C++ CuTe: `max_common_layout`.",
        example: "max_common_layout(((2,2),(2,2)):((8,2),(4,1)), ((2,2),(2,2)):((4,2),(8,1)))",
        example_output: "(2, 2):(8, 2)",
        imp: op::max_common_layout,
        direct: Some(Direct::MaxCommonLayout),
    },
    Operation {
        name: "max_common_vector",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "how many contiguous offsets A and B share",
        doc: "The size of `max_common_layout(A, B)`: how many elements a copy between the two \
              layouts can move as one vector. C++ CuTe: `max_common_vector`.",
        example: "max_common_vector(((2,2),(2,2)):((8,2),(4,1)), ((2,2),(2,2)):((4,2),(8,1)))",
        example_output: "4",
        imp: op::max_common_vector,
        direct: Some(Direct::MaxCommonVector),
    },
    Operation {
        name: "layout_add",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the layout R with R(i) = A(i) + B(i)",
        doc: "For layouts of equal size, the coalesced layout with `R(i) = A(i) + B(i)` for \
              every index, built on the greatest common domain of the two coalesced layouts. \
              Different sizes, or sizes without a common factorisation, are a `value` error.",
        example: "layout_add((4,3):(1,4), (4,3):(3,1))",
        example_output: "(4, 3):(4, 5)",
        imp: op::layout_add,
        direct: Some(Direct::LayoutAdd),
    },
    Operation {
        name: "greatest_common_domain",
        group: Algebra,
        params: &[req("A"), req("B")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the largest aligned factorisation two shapes share",
        doc: "From the shapes of `A` and `B` only: the depth-1 layout whose shape lists the \
              common factors of the two domains and whose strides give the index (in both) at \
              which each factor starts; `(1,):(0,)` when there is none. `layout_add` is built \
              on it.",
        example: "greatest_common_domain((5,3,4),(10,6))",
        example_output: "(5, 2):(1, 30)",
        imp: op::greatest_common_domain,
        direct: Some(Direct::GreatestCommonDomain),
    },
    Operation {
        name: "recast",
        group: Algebra,
        params: &[req("layout"), req("scale")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a layout re-expressed for elements scale times larger",
        doc: "Leaf by leaf: the unit-stride mode's size is divided by `scale` (rounded up) and \
              the other strides are divided by it, for elements `scale` times larger; `scale` \
              may be a fraction such as `1/2` for smaller elements, or a tuple giving a factor \
              per axis of a coordinate codomain. A stride and scale that do not divide each \
              other are a `divisibility` error, a shape that would be zero or negative a \
              `value` error. C++ CuTe: `recast_layout`.",
        example: "recast((4,6):(12,1), 2/3)",
        example_output: "(4, 9):(18, 1)",
        imp: op::recast,
        direct: Some(Direct::Recast),
    },
    Operation {
        name: "upcast",
        group: Algebra,
        params: &[req("A"), req("n")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a layout for elements n times larger",
        doc: "Integer strides only: every nonzero stride `d` becomes `ceil(|d|/n)` (its sign \
              kept) and its mode's size is divided by `ceil(n/|d|)`, rounded up; a stride and \
              `n` that do not divide each other are a `divisibility` error. C++ CuTe: \
              `upcast<N>`.",
        example: "upcast((4,6):(1,4), 2)",
        example_output: "(2, 6):(1, 2)",
        imp: op::upcast,
        direct: Some(Direct::Upcast),
    },
    Operation {
        name: "downcast",
        group: Algebra,
        params: &[req("A"), req("n")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a layout for elements n times smaller",
        doc: "Integer strides only: the unit-stride modes (stride `1` or `-1`) get `n` times \
              the size and every other stride is multiplied by `n`. A layout without a \
              unit-stride mode is a `value` error. C++ CuTe: `downcast<N>`.",
        example: "downcast((4,6):(1,4), 2)",
        example_output: "(8, 6):(1, 8)",
        imp: op::downcast,
        direct: Some(Direct::Downcast),
    },
    Operation {
        name: "slice_and_offset",
        group: Algebra,
        params: &[req("A"), req("crd")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::Algebra,
        summary: "a slice's sub-layout and offset",
        doc: "For a coordinate `crd` containing `None` (`_`): the pair of the sub-layout of the \
              modes at the `None` positions (`slice_(crd, shape) : slice_(crd, stride)`) and \
              the offset `A(crd)` with `None` read as 0. `A(crd)` alone gives the sub-layout; \
              the pair prints as a Python tuple, its layout in repr form. C++ CuTe: \
              `slice_and_offset`.",
        example: "slice_and_offset((3,(2,4)):(2,(1,6)), (_,(1,_)))",
        example_output: "(Layout((3, 4), (2, 6)), 1)",
        imp: op::slice_and_offset,
        direct: None,
    },
    // ------------------------------------------------------------------ swizzles and banks
    Operation {
        name: "bank_conflicts",
        group: Swizzles,
        params: &[req("smem"), req("access"), opt("elem_bytes", "4")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the shared-memory passes one warp's request needs",
        doc: "`smem` (a layout or a swizzled layout) maps an element to its offset and \
              `access` maps thread `t` of a warp (the first 32) to the element it reads; with \
              `elem_bytes`-byte elements and 32 banks of 4-byte words, the result is the \
              largest number of distinct words one bank serves: 1 is conflict-free, `k` a \
              `k`-way conflict. Swizzling the tile removes the conflicts of a column read.",
        example: "bank_conflicts((32,32):(32,1), 32:1)",
        example_output: "32",
        imp: op::bank_conflicts,
        direct: None,
    },
    Operation {
        name: "swizzle_layout",
        group: Swizzles,
        params: &[req("swizzle"), req("n")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a swizzle as an F2-stride layout",
        doc: "`swizzle_layout(Sw, n)` is the layout with F2 strides that agrees with the \
              swizzle `Sw` on every `x < 2^n` (its values on the powers of two, coalesced). \
              `swizzle_layout(Sw o L)` of a swizzled layout is the equivalent F2-stride layout \
              when `L` adds without carries (strides 0 or powers of two on disjoint bits), \
              and a `divisibility` error otherwise.",
        example: "swizzle_layout(Swizzle(3,4,3), 10)",
        example_output: "(128, 8):(F1, F144)",
        imp: op::swizzle_layout,
        direct: None,
    },
    // ------------------------------------------------------------------ tensors
    Operation {
        name: "identity_tensor",
        group: Tensors,
        params: &[req("shape")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tensor whose elements are their own coordinates",
        doc: "`make_identity_layout(shape)` over an implicit accessor at 0 (printed `{0} o \
              L`): `T(c)` is the coordinate `c` as a coordinate value, and a slice keeps its \
              origin in the accessor. Tiled like a data tensor it gives each element's global \
              coordinate (predication). `rcute show` prints it as a table.",
        example: "identity_tensor((3,4))",
        example_output: "{0} o (3, 4):(1@0, 1@1)",
        imp: op::identity_tensor,
        direct: None,
    },
    Operation {
        name: "make_identity_tensor",
        group: Tensors,
        params: &[req("shape")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the same as identity_tensor (C++'s name)",
        doc: "`identity_tensor(shape)`, under C++ CuTe's name `make_identity_tensor`.",
        example: "make_identity_tensor((3,4))(1,2)",
        example_output: "(1, 2)",
        imp: op::identity_tensor,
        direct: None,
    },
    Operation {
        name: "local_tile",
        group: Tensors,
        params: &[req("T"), req("tiler"), req("coord"), opt("proj", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tile of a tensor at a tile coordinate",
        doc: "With `Z = zipped_divide(T, tiler)`, the tile `Z[(_, coord)]`: a tuple `coord` \
              names the leading rest modes (the others stay sliced), an integer indexes the \
              rest mode as a whole. `T` is a tensor or a layout (read as the tensor \
              `{0} o L`). `proj` (a tuple like `(1, None, 1)`, C++'s `Step<_1,X,_1>`) first \
              drops the tiler and coordinate modes at its `None` entries. Errors: those of \
              `zipped_divide` and of slicing; `rank` for a projection of another rank. C++ \
              CuTe: `local_tile`. \
              A swizzled layout gives the swizzled part `Sw o (offset + d) o L'` for the part `{d} o L'` of its inner layout.",
        example: "local_tile((8,24):(1,8), (4,8), (1,2))",
        example_output: "{132} o (4, 8):(1, 8)",
        imp: op::local_tile,
        direct: None,
    },
    Operation {
        name: "local_partition",
        group: Tensors,
        params: &[req("T"), req("thr"), req("idx"), opt("proj", "None")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the elements of a tensor that one thread of a thread layout owns",
        doc: "With the thread layout `thr` (a bijection onto `[0, size)`), the position of \
              thread `idx` in every tile of `thr`'s shape: `Z[(c, _)]` for `Z = \
              zipped_divide(T, product_each(shape(thr)))` and `c` the coordinate of `idx` in \
              `thr` (per mode, leaf by leaf `(idx // d) mod s`). `T` is a tensor or a layout. \
              `proj` (a tuple like `(1, None, 1)`) first drops the modes of `thr` at its `None` \
              entries. Errors: `value` for a stride 0 on an extent above 1 in `thr`; those of \
              `zipped_divide` and of slicing. C++ CuTe: `local_partition`. \
              A swizzled layout gives the swizzled part `Sw o (offset + d) o L'` for the part `{d} o L'` of its inner layout.",
        example: "local_partition((16,64):(1,16), (2,16):(1,2), 17)",
        example_output: "{129} o (8, 4):(2, 256)",
        imp: op::local_partition,
        direct: None,
    },
    Operation {
        name: "Tensor",
        group: Tensors,
        params: &[req("accessor"), req("layout")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the tensor of an accessor over a layout (the printed `acc o L`)",
        doc: "`Tensor(acc, L)` is what a printed tensor `acc o L` reads as: `{b} o L` is \
              `Tensor({b}, L)`, `Array(6 x i64)+3 o L` is `Tensor(Array(6 x i64)+3, L)` (a \
              fresh buffer of 6 zeros entered at element 3; the notation never stores into \
              an array, so the text carries all of its data, but not that two printed tensors \
              shared one buffer). `acc` is `{b}`, an array accessor, or a base value `b` \
              (meaning `{b}`). Errors: `type` for another accessor or a `layout` that is not \
              a layout. PyCuTe: `Tensor(accessor, layout)`; C++ CuTe: `make_tensor(iterator, \
              layout)`.",
        example: "Tensor({3}, (2, 3):(1, 2))",
        example_output: "{3} o (2, 3):(1, 2)",
        imp: op::tensor,
        direct: None,
    },
    Operation {
        name: "ImplicitAccessor",
        group: Tensors,
        params: &[req("base")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "the implicit accessor `{b}` (reads the offset itself, moved by `b`)",
        doc: "What the printed accessor `{b}` reads as. Alone it is the tensor over the empty \
              layout, `{b} o ():()`. `b` is an integer or a coordinate value. Errors: `type` \
              for another base.",
        example: "Tensor(ImplicitAccessor(2@1), (3,):(1@0,))",
        example_output: "{2@1} o (3,):(1@0,)",
        imp: op::implicit_accessor,
        direct: None,
    },
    Operation {
        name: "ArrayAccessor",
        group: Tensors,
        params: &[req("n"), opt("start", "0")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a fresh array of `n` zeros entered at element `start`",
        doc: "What the printed accessor `Array(n x i64)+start` reads as: a new buffer of `n` \
              i64 zeros. Alone it is the tensor over the empty layout. Errors: `type` for \
              non-integers; `value` for `n` outside [0, 2^24]; `bounds` for a start outside \
              the array.",
        example: "Tensor(ArrayAccessor(6, 3), (3,):(1,))",
        example_output: "Array(6 x i64)+3 o (3,):(1,)",
        imp: op::array_accessor,
        direct: None,
    },
    Operation {
        name: "make_tensor",
        group: Tensors,
        params: &[req("layout")],
        mode_indexed: false,
        tensor_first: false,
        symbols: Symbols::No,
        summary: "a tensor of cosize(layout) zeros",
        doc: "A tensor over a fresh buffer of `cosize(layout)` integer zeros (a shape means \
              its column-major layout); its slices share the buffer. The notation allocates at \
              most 2^24 elements (`value` error beyond). C++ CuTe: `make_tensor`.",
        example: "make_tensor((2,3):(3,1))(1,2)",
        example_output: "0",
        imp: op::make_tensor,
        direct: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_sorted_and_matches_the_table() {
        assert_eq!(BY_NAME.len(), OPERATIONS.len());
        for w in BY_NAME.windows(2) {
            assert!(w[0].0 < w[1].0, "{} before {}", w[0].0, w[1].0);
        }
        let mut seen = vec![false; OPERATIONS.len()];
        for (name, at) in BY_NAME.iter() {
            let op = &OPERATIONS[*at as usize];
            assert_eq!(op.name, *name);
            assert!(!seen[*at as usize], "{name} indexed twice");
            seen[*at as usize] = true;
        }
        for op in OPERATIONS {
            assert!(std::ptr::eq(lookup(op.name).unwrap(), op), "{}", op.name);
            assert!(lookup(&format!("{}x", op.name)).is_none());
        }
        assert!(lookup("").is_none());
        assert!(lookup("zzz").is_none());
    }

    #[test]
    fn every_entry_is_documented() {
        for op in OPERATIONS {
            let n = op.name;
            assert!(!op.summary.is_empty() && !op.summary.contains('\n'), "{n}");
            assert!(!op.summary.ends_with('.'), "{n}: the summary is a phrase");
            assert!(op.doc.ends_with('.'), "{n}: the paragraph ends a sentence");
            assert!(!op.doc.contains("\n\n") && !op.doc.contains("  "), "{n}");
            assert!(op.example.contains(n), "{n}: the example calls it");
            assert!(!op.example_output.is_empty(), "{n}");
            // parameters: unique names, defaults after the required ones,
            // a variadic one last
            for (i, p) in op.params.iter().enumerate() {
                assert!(op.params[..i].iter().all(|q| q.name != p.name), "{n}");
                if matches!(p.kind, ParamKind::Variadic | ParamKind::Keywords) {
                    assert!(i + 1 == op.params.len() && p.default.is_none(), "{n}");
                }
                if i > 0 && p.default.is_none() && p.kind == ParamKind::Positional {
                    assert!(op.params[i - 1].default.is_none(), "{n}");
                }
            }
        }
        for g in Group::ALL {
            assert!(OPERATIONS.iter().any(|op| op.group == g), "{g:?}");
        }
        // the table lists each group in one run
        for w in OPERATIONS.windows(2) {
            let (a, b) = (w[0].group, w[1].group);
            let pos = |g| Group::ALL.iter().position(|x| *x == g);
            assert!(pos(a) <= pos(b), "{} / {}", w[0].name, w[1].name);
        }
    }

    #[test]
    fn every_example_gives_its_output() {
        for op in OPERATIONS {
            let got = crate::notation::eval_str(op.example)
                .unwrap_or_else(|e| panic!("{}: {} fails: {e}", op.name, op.example));
            assert_eq!(got, op.example_output, "{}: {}", op.name, op.example);
        }
    }

    /// The arguments of an example `name(args)`, if it is a plain call.
    fn example_args(op: &Operation) -> Option<&'static str> {
        let inner = op.example.strip_prefix(op.name)?.strip_prefix('(')?;
        let mut depth = 1usize;
        for (i, c) in inner.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return (i + 1 == inner.len()).then(|| &inner[..i]);
                    }
                }
                _ => {}
            }
        }
        None
    }

    #[test]
    fn keywords_are_the_parameter_names() {
        // each example called with every argument passed by its keyword
        // gives the same value (plain positional examples only)
        use crate::notation::{call, eval_value, format_value, Style, Value};
        let mut checked = 0;
        for op in OPERATIONS {
            let Some(args) = example_args(op) else {
                continue;
            };
            if op.params.iter().any(|p| p.kind != ParamKind::Positional) || args.contains('=') {
                continue;
            }
            let Ok(Value::Tuple(args)) = eval_value(&format!("({args},)")) else {
                panic!(
                    "{}: the arguments of {} do not evaluate",
                    op.name, op.example
                );
            };
            assert!(args.len() <= op.params.len(), "{}", op.name);
            let kwargs: Vec<(String, Value)> = op
                .params
                .iter()
                .zip(args)
                .map(|(p, v)| (p.name.to_string(), v))
                .collect();
            let r = call(op.name, &[], vec![], kwargs)
                .unwrap_or_else(|e| panic!("{} by keywords: {e}", op.name));
            assert_eq!(
                format_value(&r, Style::Str),
                op.example_output,
                "{} by keywords",
                op.name
            );
            checked += 1;
        }
        assert!(checked > 50, "{checked}");
    }
}
