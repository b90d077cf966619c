"""CUTLASS's ``pycute`` API on rcute's algebra.

``import rcute.compat.cutlass as pycute`` runs code written for the ``pycute``
package of the ``nvidia-cutlass`` wheel (vendored by PyTorch as
``torch.distributed._pycute``) unchanged. Every layout operation is computed by
rcute's Rust core; this module only adapts the calling conventions: calling a
layout with ``None`` slices it, ``slice_and_offset(crd, layout)``, the wrapping
``idx2crd(idx, shape, stride)``, ``crd2idx`` with a stride and ``None``,
the coalesced forms of ``complement`` and ``coalesce``, ``None`` tiler leaves
in the zipped and tiled divides and products, ``Layout.size()``,
``Swizzle.size()``, the ``ComposedLayout(B, offset, A)`` class, the repr
without a space and the helpers ``shape_div``, ``elem_scale``, ``tuple_max``,
``signum``, ``crd2crd``, ``has_none`` and ``hier_unzip``.

Where CUTLASS's pycute gives a wrong answer (a truncated composition, the
inverse of a layout whose strides do not chain, ``logical_product`` by an
integer, the complement of an overlapping layout) this module keeps rcute's
answer or error. Errors are raised with classes that derive from both the
class rcute raises (ValueError, TypeError, IndexError) and AssertionError, so
code that catches CUTLASS's ``AssertionError`` still works.

>>> import rcute.compat.cutlass as pycute
>>> L = pycute.Layout((4, 8), (8, 1))
>>> L
Layout((4, 8),(8, 1))
>>> L(None, 3)
Layout((4,),(8,))
>>> pycute.slice_and_offset((None, 3), L)
(Layout((4,),(8,)), 3)
>>> pycute.idx2crd(42, (3, 7, 2))
(0, 0, 0)
>>> pycute.complement(pycute.Layout(4, 2))
Layout(2,1)
"""

from __future__ import annotations

import abc as _abc
import functools as _functools
from abc import ABC  # noqa: F401  (CUTLASS's package exports it)
from functools import reduce  # noqa: F401  (CUTLASS's package exports it)
from itertools import chain  # noqa: F401  (CUTLASS's package exports it)
from typing import Union  # noqa: F401  (CUTLASS's package exports it)

import rcute as _rc

__all__ = [
    "ABC", "ComposedLayout", "Integer", "Layout", "LayoutBase", "Swizzle", "Union", "chain",
    "coalesce", "complement", "composition", "cosize", "crd2crd", "crd2idx", "elem_scale",
    "filter", "flatten", "has_none", "hier_unzip", "idx2crd", "inner_product", "int_tuple",
    "is_int", "is_layout", "is_tuple", "layout", "left_inverse", "logical_divide",
    "logical_product", "make_layout", "prefix_product", "product", "reduce", "right_inverse",
    "shape_div", "shiftl", "shiftr", "signum", "size", "slice_", "slice_and_offset", "swizzle",
    "tiled_divide", "tiled_product", "tuple_max", "typing", "zipped_divide", "zipped_product",
    "CompatValueError", "CompatTypeError", "CompatIndexError",
]


# ------------------------------------------------------------------ errors


class CompatValueError(ValueError, AssertionError):
    """rcute's ValueError, also an AssertionError (CUTLASS's pycute asserts)."""


class CompatTypeError(TypeError, AssertionError):
    """rcute's TypeError, also an AssertionError (CUTLASS's pycute asserts)."""


class CompatIndexError(IndexError, AssertionError):
    """rcute's IndexError, also an AssertionError (CUTLASS's pycute asserts)."""


def _raise_compat(e):
    for base, cls in ((IndexError, CompatIndexError), (TypeError, CompatTypeError),
                      (ValueError, CompatValueError)):
        if isinstance(e, base) and not isinstance(e, AssertionError):
            raise cls(*e.args) from e
    raise e


def _guard(fn, *args):
    """Call an rcute function, re-raising its errors with the compat classes."""
    try:
        return fn(*args)
    except (ValueError, TypeError, IndexError) as e:
        _raise_compat(e)


def _fail(msg, cls=None):
    raise (cls or CompatValueError)(msg)


# --------------------------------------------------------- value conversion


def _r(x):
    """A value for rcute: compat layouts become rcute layouts (also in tuples)."""
    if isinstance(x, Layout):
        return x._l
    if isinstance(x, Swizzle):
        return x._s
    if isinstance(x, (tuple, list)):
        return tuple(_r(e) for e in x)
    return x


def _c(x):
    """A value for the caller: rcute layouts become compat layouts (also in tuples)."""
    if isinstance(x, _rc.Layout):
        return Layout._wrap(x)
    if isinstance(x, tuple):
        return tuple(_c(e) for e in x)
    return x


# ------------------------------------------------------------------ typing


class Integer(ABC):
    """``isinstance(x, Integer)``: ``int`` and its subclasses except ``bool``."""

    @classmethod
    def __subclasshook__(cls, c):
        if cls is Integer:
            if issubclass(c, bool):
                return False
            if issubclass(c, int):
                return True
        return NotImplemented


# --------------------------------------------------------- integer tuples


def is_int(x) -> bool:
    """True for an int (not a bool)."""
    return isinstance(x, Integer)


def is_tuple(x) -> bool:
    """True for a tuple (rcute also takes a list as a tuple)."""
    return isinstance(x, (tuple, list))


def flatten(t):
    """The leaves of `t` as a flat tuple; a leaf gives a 1-tuple."""
    return _guard(_rc.flatten, _r(t))


def signum(a) -> int:
    """1, 0 or -1."""
    return (a > 0) - (a < 0)


def product(a):
    """The product of the leaves of `a`."""
    return _guard(_rc.product, _r(a))


def inner_product(a, b):
    """Sum of the products of corresponding leaves."""
    return _guard(_rc.inner_product, _r(a), _r(b))


def prefix_product(a, init=1):
    """Exclusive prefix products of the leaves of `a`, shaped like `a`."""
    return _guard(_rc.prefix_product, _r(a), init)


def tuple_max(a):
    """The largest leaf of `a`."""
    return max(flatten(a))


def elem_scale(a, b):
    """Elementwise product of two tuples; an integer `a` times product(b)."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            _fail(f"elem_scale: {a!r} and {b!r} are not tuples of equal length")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def shape_div(a, b):
    """How many times `b` fits into `a`, ceiling-rounded, mode by mode."""
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                _fail(f"shape_div: {a!r} and {b!r} have different lengths")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for x in a:
            out.append(shape_div(x, b))
            b = shape_div(b, product(x))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if b == 0 or a == 0:
        _fail(f"shape_div: zero extent in shape_div({a!r}, {b!r})")
    if a % b != 0 and b % a != 0:
        _fail(f"shape_div: neither of {a} and {b} divides the other")
    return -(-a // b)


def _wrap_idx2crd(idx, shape, stride):
    if is_tuple(idx):
        if not is_tuple(shape) or len(idx) != len(shape):
            _fail(f"idx2crd: index {idx!r} is not congruent with shape {shape!r}")
        return tuple(_wrap_idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))
    if is_tuple(shape):
        if not is_tuple(stride) or len(stride) != len(shape):
            _fail(f"idx2crd: stride {stride!r} does not match shape {shape!r}")
        return tuple(_wrap_idx2crd(idx, s, d) for s, d in zip(shape, stride))
    return (idx // stride) % shape


def idx2crd(idx, shape, stride=None):
    """The coordinate of `idx` in `shape`; every mode wraps (``(idx // d) % s``).

    `stride` defaults to the prefix products of `shape`. A tuple `idx` is
    decomposed mode by mode with those (global) strides."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(shape) and not is_tuple(stride):
        _fail(f"idx2crd: stride {stride!r} does not match shape {shape!r}")
    return _wrap_idx2crd(idx, shape, stride)


def _none_to_zero(crd):
    if crd is None:
        return 0
    if is_tuple(crd):
        return tuple(_none_to_zero(c) for c in crd)
    return crd


def crd2idx(crd, shape, stride=None):
    """The index of `crd` in `shape` (with `stride`, default the prefix
    products); a ``None`` coordinate counts as 0."""
    crd = _none_to_zero(crd)
    if stride is None:
        return _guard(_rc.crd2idx, crd, _r(shape))
    return _guard(_rc.crd2idx, crd, _r(shape), _r(stride))


def crd2crd(crd, dst_shape, src_shape=None):
    """Convert a coordinate between shapes (through an index when the
    hierarchies differ)."""
    if is_tuple(crd):
        if is_tuple(dst_shape):
            if len(crd) != len(dst_shape):
                _fail(f"crd2crd: {crd!r} and {dst_shape!r} have different lengths")
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            _fail("crd2crd: a tuple coordinate to an integer shape needs src_shape")
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if not crd < dst_shape:
        _fail(f"crd2crd: coordinate {crd!r} is not below {dst_shape!r}")
    return crd


def slice_(crd, trg):
    """The part of `trg` at the ``None`` leaves of `crd` (always a tuple)."""
    return _c(_guard(_rc.slice_, crd, _r(trg)))


def has_none(a) -> bool:
    """Whether any leaf of `a` is None."""
    if is_tuple(a):
        return any(has_none(x) for x in a)
    return a is None


# ----------------------------------------------------------------- layouts


class LayoutBase:
    """Base class of :class:`Layout` and :class:`ComposedLayout`."""


def is_layout(x) -> bool:
    """True for a layout (a compat one or an rcute one)."""
    return isinstance(x, (LayoutBase, _rc.LayoutBase))


class Layout(LayoutBase):
    """A layout ``shape:stride`` (stride defaults to column-major)."""

    __slots__ = ("_l",)
    __hash__ = None  # type: ignore[assignment]  (as CUTLASS's: unhashable)

    def __init__(self, _shape, _stride=None):
        if isinstance(_shape, _rc.Layout) and _stride is None:
            self._l = _shape
        else:
            self._l = _guard(_rc.Layout, _r(_shape), _r(_stride))

    @classmethod
    def _wrap(cls, l):
        obj = cls.__new__(cls)
        obj._l = l
        return obj

    @property
    def shape(self):
        return self._l.shape

    @property
    def stride(self):
        return self._l.stride

    def __eq__(self, other):
        if isinstance(other, Layout):
            return self._l == other._l
        if isinstance(other, _rc.Layout):
            return self._l == other
        return NotImplemented

    def __len__(self):
        return len(self._l)

    def __getitem__(self, i):
        return _c(_guard(self._l.__getitem__, i))

    def __call__(self, *args):
        crd = args[0] if len(args) == 1 else args
        if has_none(crd):
            return Layout(slice_(crd, self.shape), slice_(crd, self.stride))
        return _guard(self._l, *args)

    def size(self):
        """The domain size (product of the shape)."""
        return _rc.size(self._l)

    def cosize(self):
        """The codomain size."""
        return _rc.cosize(self._l)

    def __str__(self):
        return str(self._l)

    def __repr__(self):
        return f"Layout({self.shape!r},{self.stride!r})"


def make_layout(*layouts):
    """Concatenate layouts into one (varargs, or one iterable of layouts)."""
    if len(layouts) == 1 and not is_layout(layouts[0]):
        layouts = layouts[0]
    return _c(_guard(_rc.make_layout, [_r(l) for l in layouts]))


def size(layout):
    """The size of a layout or of an integer tuple."""
    if isinstance(layout, (LayoutBase, Swizzle)):
        return layout.size()
    return _guard(_rc.size, _r(layout))


def cosize(layout):
    """The codomain size of a layout."""
    if isinstance(layout, (LayoutBase, Swizzle)):
        return layout.cosize()
    return _guard(_rc.cosize, _r(layout))


def _full_coalesce(l):
    r = _guard(_rc.coalesce, l)
    if _rc.size(r) == 1:
        return _rc.Layout(1, 0)
    return r


def _by_profile(op, layout, profile):
    l = _r(layout)
    if is_int(l):
        l = _rc.Layout(l)
    if is_tuple(profile):
        if not isinstance(l, _rc.Layout) or len(l) < len(profile):
            _fail(f"profile {profile!r} has more modes than {l}")
        modes = [_r(_by_profile(op, l[i], p)) for i, p in enumerate(profile)]
        modes += [l[i] for i in range(len(profile), len(l))]
        return Layout(_guard(_rc.make_layout, modes))
    return Layout(op(l))


def coalesce(layout, profile=None):
    """Merge modes. Size-1 modes go; a layout of size 1 becomes ``1:0``.

    With a tuple `profile`, mode ``i`` is coalesced by ``profile[i]`` (a
    ``None`` or integer leaf coalesces the whole mode) and the modes beyond
    the profile are kept."""
    return _by_profile(_full_coalesce, layout, profile)


def filter(layout, profile=None):  # noqa: A001 - CUTLASS's name
    """Drop the stride-0 and size-1 modes, then coalesce (by `profile` as in
    :func:`coalesce`)."""
    return _by_profile(lambda l: _guard(_rc.filter, l), layout, profile)


def composition(layoutA, layoutB):
    """``A o B``: rcute's composition (an error where B does not divide
    through A's modes, not CUTLASS's truncated result)."""
    return _c(_guard(_rc.composition, _r(layoutA), _r(layoutB)))


def complement(layout, max_idx=1):
    """The layout of the offsets below `max_idx` that `layout` does not
    reach, coalesced (``1:0`` when there are none)."""
    if layout is None:
        return None
    l = _r(layout)
    if is_int(l):
        l = _rc.Layout(l)
    return Layout(_full_coalesce(_guard(_rc.complement, l, max_idx)))


def right_inverse(layout):
    """rcute's right inverse (``L(R(i)) == i`` for ``i < size(R)``)."""
    return _c(_guard(_rc.right_inverse, _r(layout)))


def left_inverse(layout):
    """rcute's left inverse (an error for a layout that is not injective or
    whose strides do not chain)."""
    return _c(_guard(_rc.left_inverse, _r(layout)))


def logical_divide(layoutA, layoutB):
    """``A o (B, complement(B, size(A)))``, mode by mode for a tuple B."""
    return _c(_guard(_rc.logical_divide, _r(layoutA), _r(layoutB)))


def logical_product(layoutA, layoutB):
    """``(A, complement(A, size(A)*cosize(B)) o B)``, mode by mode for a
    tuple B (an integer B is ``B:1``)."""
    return _c(_guard(_rc.logical_product, _r(layoutA), _r(layoutB)))


def hier_unzip(splitter, layoutA, layoutB):
    """Apply ``splitter(A_i, B_i)`` mode by mode and gather the first halves
    into mode 0 and the second halves (then A's modes beyond B) into mode 1.

    A ``None`` in B gives that mode the tile ``1:0``."""
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if is_tuple(layoutB):
        A = layoutA if isinstance(layoutA, Layout) else Layout(_r(layoutA))
        if len(A) < len(layoutB):
            _fail(f"hier_unzip: tiler {layoutB!r} has more modes than {A}")
        split = [hier_unzip(splitter, A[i], b) for i, b in enumerate(layoutB)]
        rest = [A[i] for i in range(len(layoutB), len(A))]
        return make_layout(make_layout([s[0] for s in split]),
                           make_layout([s[1] for s in split] + rest))
    return splitter(layoutA, layoutB)


def zipped_divide(layoutA, layoutB):
    """``((tiles), (rests))``: :func:`hier_unzip` of :func:`logical_divide`."""
    return hier_unzip(logical_divide, layoutA, layoutB)


def _tiled(zipped):
    rest = zipped[1]
    return make_layout([zipped[0]] + [rest[i] for i in range(len(rest))])


def tiled_divide(layoutA, layoutB):
    """``((tiles), rest0, rest1, ...)``."""
    return _tiled(zipped_divide(layoutA, layoutB))


def zipped_product(layoutA, layoutB):
    """``((A's modes), (B's repetitions))``: :func:`hier_unzip` of
    :func:`logical_product`."""
    return hier_unzip(logical_product, layoutA, layoutB)


def tiled_product(layoutA, layoutB):
    """``((A's modes), rep0, rep1, ...)``."""
    return _tiled(zipped_product(layoutA, layoutB))


def slice_and_offset(crd, layout):
    """``(sublayout at the None leaves of crd, offset of crd with None as 0)``."""
    sub, off = _guard(_rc.slice_and_offset, _r(layout), crd)
    return Layout(slice_(crd, layout.shape), slice_(crd, layout.stride)), off


# ----------------------------------------------------------------- swizzles


def shiftl(a, s):
    """``a << s`` (``a >> -s`` for a negative s)."""
    return _rc.shiftl(a, s)


def shiftr(a, s):
    """``a >> s`` (``a << -s`` for a negative s)."""
    return _rc.shiftr(a, s)


class Swizzle:
    """The swizzle functor ``Swizzle(bits, base, shift)``."""

    __slots__ = ("_s", "bits", "base", "shift")

    def __init__(self, bits, base, shift):
        self._s = _guard(_rc.Swizzle, bits, base, shift)
        self.bits, self.base, self.shift = bits, base, shift

    def __call__(self, offset):
        return _guard(self._s, offset)

    def size(self):
        """``2^(bits + base + |shift|)``."""
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self):
        """Same as :meth:`size`."""
        return self.size()

    def __eq__(self, other):
        if isinstance(other, Swizzle):
            return self._s == other._s
        return NotImplemented

    def __hash__(self):
        return hash((self.bits, self.base, self.shift))

    def __str__(self):
        return str(self._s)

    def __repr__(self):
        return repr(self._s)


class ComposedLayout(LayoutBase):
    """``layoutB(offset + layoutA(crd))``: a layout (or swizzle) after an
    offset after a layout."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, layoutB, offset, layoutA):
        self.layoutB = layoutB
        self.offset = offset
        self.layoutA = layoutA

    def __eq__(self, other):
        if isinstance(other, ComposedLayout):
            return (self.layoutB == other.layoutB and self.offset == other.offset
                    and self.layoutA == other.layoutA)
        return NotImplemented

    def __len__(self):
        return len(self.layoutA)

    def __call__(self, *args):
        a = self.layoutA(*args)
        if is_layout(a):
            raise CompatTypeError("ComposedLayout: cannot slice (a None in the coordinate)")
        return self.layoutB(self.offset + a)

    def __getitem__(self, i):
        return ComposedLayout(self.layoutB, self.offset, self.layoutA[i])

    def size(self):
        """The size of the inner layout A."""
        return size(self.layoutA)

    def cosize(self):
        """The codomain size of the outer layout (or swizzle) B."""
        return cosize(self.layoutB)

    def __str__(self):
        return f"{self.layoutB} o {self.offset} o {self.layoutA}"

    def __repr__(self):
        return f"ComposedLayout({self.layoutB!r},{self.offset!r},{self.layoutA!r})"


# CUTLASS's package also exposes its submodules (pycute.layout, ...): here
# every name lives in this one module, so they all name it.
import sys as _sys  # noqa: E402

int_tuple = layout = swizzle = typing = _sys.modules[__name__]
# `from pycute.layout import Layout` style imports: the submodule names are
# registered as this module too
for _sub in ("int_tuple", "layout", "swizzle", "typing"):
    _sys.modules.setdefault(f"{__name__}.{_sub}", _sys.modules[__name__])
del _sub
