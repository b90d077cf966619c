"""rcute: CuTe's layout algebra in Rust, with the reference PyCuTe's Python API.

Code written for the reference runs with ``import rcute as pycute``. Every
algebra operation is computed by the Rust core (the same code as the
``rcute eval`` command-line tool); this file only adds the helpers that take
Python callables, the type predicates and the accessors, which are plain
Python in the reference too.

>>> from rcute import *
>>> composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))
Layout(((2, 2), 3), ((24, 2), 8))
>>> size[0](Layout(((6, 2), 5), ((8, 2), 1)))
12
"""

from __future__ import annotations

import ctypes as _ctypes
import builtins as _builtins
import sys as _sys
from typing import Any, Iterable, Union

from . import _rcute
from ._rcute import (  # noqa: F401  (re-exported API)
    __version__,
    ArithTuple,
    ComposedLayout,
    E,
    F2,
    Layout,
    LayoutBase,
    ScaledBasis,
    Swizzle,
    Symbol,
    SymInt,
    eval_notation,
    eval_notation_str,
    format_value,
)

# every operation of the notation, from the Rust operation table (the
# classes Layout, F2, ArithTuple, Swizzle and the functions E, ScaledBasis
# among them); the helpers below that need Python (leaves, make_layout,
# make_tensor, identity_tensor, make_identity_tensor) replace the Rust ones
_OPERATIONS = [_name for _name, _signature, _doc in _rcute.operations()]
for _name in _OPERATIONS:
    globals()[_name] = getattr(_rcute, _name)
del _name

_SIGNATURES: dict = {}


def _signature_of(name):
    """The `inspect.Signature` of the operation `name`, built from the
    operation table's parameters (`_rcute._parameters`): positional
    parameters with their defaults, `*name` for a variadic one, `**name`
    for free keywords, and the
    keyword-only `mode=()` of the mode-indexed operations. Operation
    objects return it as their `__signature__`."""
    sig = _SIGNATURES.get(name)
    if sig is None:
        import inspect

        found = _rcute._parameters(name)
        if found is None:
            raise ValueError(f"{name!r} is not an operation")
        params, mode_indexed = found
        P = inspect.Parameter
        ps = []
        for pname, kind, default in params:
            if kind == "variadic":
                ps.append(P(pname, P.VAR_POSITIONAL))
            elif kind == "keywords":
                ps.append(P(pname, P.VAR_KEYWORD))
            elif kind == "positional_only":
                ps.append(P(pname, P.POSITIONAL_ONLY))
            elif default is None:
                ps.append(P(pname, P.POSITIONAL_OR_KEYWORD))
            else:
                ps.append(P(pname, P.POSITIONAL_OR_KEYWORD, default=eval_notation(default)))
        if mode_indexed:
            ps.append(P("mode", P.KEYWORD_ONLY, default=()))
        sig = _SIGNATURES[name] = inspect.Signature(ps)
    return sig

# ---------------------------------------------------------------- typedefs

HTuple = Any
Profile = Any
IntTuple = Union[int, tuple]
Shape = IntTuple
Coord = Any
Stride = Any
Tiler = Any

_INTEGER_TYPES: list[type] = [int, SymInt]


class Integer:
    """Marker class of the reference's integer types (annotation only)."""


class StrideScalar:
    """Marker class of the reference's stride scalars (annotation only)."""


def register_integer_type(*types: type) -> None:
    """Declare `types` as integers: `is_int` becomes true for their instances
    and rcute converts them with `int()` wherever an integer is expected."""
    for t in types:
        if t not in _INTEGER_TYPES:
            _INTEGER_TYPES.append(t)


def _integer_types() -> tuple:
    """The integer types, numpy's registered once numpy has been imported
    (a numpy integer cannot exist before that, and importing numpy here
    would slow `import rcute` and start its thread pool)."""
    if not _NUMPY_REGISTERED:
        np = _sys.modules.get("numpy")
        if np is not None:
            _register_numpy(np)
    return tuple(_INTEGER_TYPES)


_NUMPY_REGISTERED = False


def _register_numpy(np) -> None:
    global _NUMPY_REGISTERED
    register_integer_type(np.integer)
    _NUMPY_REGISTERED = True


def is_int(x) -> bool:
    """True for `int` (not `bool`) and for registered integer types."""
    if isinstance(x, bool):
        return False
    return isinstance(x, _integer_types())


def is_static(x) -> bool:
    """True for integers, F2 values (of an integer) and coordinate values
    whose children are all static. Every rcute integer is static."""
    if isinstance(x, bool):
        return False
    if hasattr(x, "_is_static") and not isinstance(x, (int, F2, ArithTuple)):
        return x._is_static()  # a user type says for itself
    if is_int(x) or isinstance(x, F2):
        return True  # an F2 value holds an integer: static
    if isinstance(x, ArithTuple):
        return all(is_static(c) for c in x.as_tuple()) if isinstance(x.as_tuple(), tuple) else is_static(x.as_tuple())
    return False


def _from_sympy(e):
    """The rcute integer of a sympy expression: an `int`, or a `SymInt` over
    the symbols of the same names (each read as a positive integer; declared
    with `Symbol` if new). Sums, products, integer powers, `floor` and `Mod`
    convert; a rational coefficient must divide exactly by the symbols'
    facts. `ValueError` for a symbol sympy knows to be negative or not an
    integer, `TypeError` for anything else (a float, a real function)."""
    import sympy

    if e.is_Integer:
        return int(e)
    if e.is_Symbol:
        if e.is_positive is False or e.is_integer is False:
            raise ValueError(
                f"value: the sympy symbol {e} is not a positive integer "
                "(rcute's symbols are; declare it sympy.Symbol(name, positive=True, integer=True))"
            )
        _SYMPY_SYMBOLS.setdefault(e.name, e)
        return Symbol(e.name)
    if e.is_Add:
        r = 0
        for a in e.args:
            r = r + _from_sympy(a)
        return r
    if e.is_Mul:
        num, den = sympy.fraction(e)
        if den != 1:
            return _from_sympy(num) / _from_sympy(den)
        r = 1
        for a in e.args:
            r = r * _from_sympy(a)
        return r
    if e.is_Pow and e.exp.is_Integer and e.exp > 0:
        b = _from_sympy(e.base)
        r = 1
        for _ in range(int(e.exp)):
            r = r * b
        return r
    if isinstance(e, sympy.floor):
        num, den = sympy.fraction(sympy.together(e.args[0]))
        return _from_sympy(num) // _from_sympy(den)
    if isinstance(e, sympy.Mod):
        return _from_sympy(e.args[0]) % _from_sympy(e.args[1])
    raise TypeError(f"type: the sympy expression {e} is not an integer expression rcute reads")


_SYMPY_SYMBOLS: dict = {}


def _symint_to_sympy(x):
    """The sympy expression of the `SymInt` `x`, built from its structure:
    each symbol is the sympy symbol of that name that came in through
    `_from_sympy` (so a user's own symbols come back), else a new
    positive-integer sympy symbol."""
    import sympy

    def conv(v):
        return _symint_to_sympy(v) if isinstance(v, SymInt) else sympy.Integer(v)

    den, terms = x._structure()
    total = sympy.Integer(0)
    for coef, factors in terms:
        t = sympy.Integer(coef)
        for kind, payload, exp in factors:
            if kind == "sym":
                f = _SYMPY_SYMBOLS.get(payload)
                if f is None:
                    f = sympy.Symbol(payload, positive=True, integer=True)
            elif kind == "floor":
                f = sympy.floor(conv(payload[0]) / conv(payload[1]))
            else:
                f = sympy.Mod(conv(payload[0]), conv(payload[1]))
            t = t * f**exp
        total = total + t
    return total / den


def _to_sympy(x):
    """`x` with its `SymInt`s as sympy expressions (tuples and lists walked;
    a layout with symbols gives its values as sympy expressions from then
    on; everything else as it is): the results of a call that had sympy
    arguments."""
    if isinstance(x, SymInt):
        import sympy

        return sympy.sympify(x)
    if isinstance(x, Layout):
        return x._with_sympy()
    if isinstance(x, tuple):
        return tuple(_to_sympy(y) for y in x)
    if isinstance(x, list):
        return [_to_sympy(y) for y in x]
    return x


def is_stride_scalar(value) -> bool:
    """True for values that can be a stride leaf: integers (and `bool`),
    coordinate values and F2 values."""
    return isinstance(value, (int, ArithTuple, F2)) or is_int(value)


def is_tuple(x) -> bool:
    """True for tuples and lists (the reference treats lists as tuples)."""
    return isinstance(x, (tuple, list))


def is_layout(x) -> bool:
    """`isinstance(x, LayoutBase)`."""
    return isinstance(x, LayoutBase)


def divmod(a, b):  # noqa: A001 - the reference exports this name
    """Floor division and remainder, as Python's `divmod`."""
    return _builtins.divmod(a, b)


def shiftl(a: int, s: int) -> int:
    """`a << s` for `s >= 0`, `a >> -s` otherwise."""
    return a << s if s >= 0 else a >> -s


def shiftr(a: int, s: int) -> int:
    """`a >> s` for `s >= 0`, `a << -s` otherwise."""
    return a >> s if s >= 0 else a << -s


def V(value):
    """`V(v)`: a scaled-basis value with an empty path (`V(v) @ i` is `v@i`)."""
    return ArithTuple(value) if not is_int(value) else _VBasis(value)


class _VBasis(int):
    """An integer that becomes a basis value under `@` (`V(3) @ 1` is `3@1`)."""

    def __matmul__(self, i):
        return ScaledBasis(int(self), (i,))


# ---------------------------------------------------------------- HTuple helpers taking callables


def leaves(t):
    """Iterate over the leaves of `t` in traversal order."""
    if is_tuple(t):
        for x in t:
            yield from leaves(x)
    else:
        yield t


def zip_leaves(htuple, *tuples):
    """Walk `htuple`'s structure; at each of its leaves yield that leaf and
    the whole sub-values of the other arguments at the same position
    (`None` where missing)."""
    if is_tuple(htuple):
        for i, h in enumerate(htuple):
            subs = []
            for t in tuples:
                if t is None:
                    subs.append(None)
                elif is_tuple(t):
                    subs.append(t[i] if i < len(t) else None)
                else:
                    raise TypeError(f"zip_leaves: leaf {t!r} where {htuple!r} has a tuple")
            yield from zip_leaves(h, *subs)
    else:
        yield (htuple, *tuples)


def fold_leaf(fn, v, *tuples):
    """Left fold of `fn` over `zip_leaves(*tuples)`."""
    for items in zip_leaves(*tuples):
        v = fn(v, *items)
    return v


def transform_apply_leaf(g, f, htuple, *tuples):
    """If `htuple` is a tuple, `g` of the recursive results over its modes
    zipped with the other arguments' modes; at a leaf, `f(htuple, *tuples)`."""
    if is_tuple(htuple):
        def sub(t, i):
            if t is None:
                return None
            if is_tuple(t):
                return t[i] if i < len(t) else None
            raise TypeError(f"transform_apply_leaf: leaf {t!r} where {htuple!r} has a tuple")

        return g(
            transform_apply_leaf(g, f, h, *(sub(t, i) for t in tuples))
            for i, h in enumerate(htuple)
        )
    return f(htuple, *tuples)


def transform_leaf(f, *tuples):
    """The same tree with `f` applied leafwise."""
    return transform_apply_leaf(tuple, f, *tuples)


def unflatten(iter, profile, g=tuple):  # noqa: A002 - the reference's name
    """Rebuild `profile`'s structure drawing leaves from `iter`."""
    it = _builtins.iter(iter)

    def rec(p):
        if is_tuple(p):
            return g(rec(x) for x in p)
        return next(it)

    return rec(profile)


class ModeOpDecorator:
    """Wraps a function with a keyword-only `mode` so that `f[i, j](...)`
    calls `f(..., mode=(i, j))` (subscripts accumulate)."""

    def __init__(self, func, _path=()):
        self.func = func
        self._path = tuple(_path)
        self.__name__ = getattr(func, "__name__", "op")
        self.__doc__ = getattr(func, "__doc__", None)

    def __getitem__(self, idx):
        idx = idx if isinstance(idx, tuple) else (idx,)
        return ModeOpDecorator(self.func, self._path + idx)

    def __call__(self, *args, mode=(), **kwargs):
        mode = mode if isinstance(mode, tuple) else (mode,)
        return self.func(*args, mode=self._path + mode, **kwargs)


def make_layout(*args):
    """C++'s `make_layout`: `make_layout(shape, stride)`, `make_layout(shape)`,
    or the concatenation of layouts (`make_layout(L0, L1, ...)` or
    `make_layout([L0, L1])`); `make_layout()` is the empty layout `():()`."""
    if len(args) == 1 and (
        isinstance(args[0], list)
        or (isinstance(args[0], tuple) and args[0] and all(isinstance(x, LayoutBase) for x in args[0]))
    ):
        args = tuple(args[0])
    elif len(args) == 1 and not isinstance(args[0], (LayoutBase, tuple, str)) and not is_int(args[0]) \
            and hasattr(args[0], "__iter__"):
        args = tuple(args[0])  # any iterable of layouts: a generator, an iterator, ...
    if not args or args == ((),):
        return Layout((), ())  # the empty concatenation: the rank-0 layout ():()
    return _rcute.make_layout(*args)


# ---------------------------------------------------------------- accessors


class Accessor:
    """Read-only accessor: `a + k` moves it by `k` elements, `a[k]` reads."""

    def __add__(self, k):  # pragma: no cover - abstract
        raise NotImplementedError

    def __getitem__(self, k):  # pragma: no cover - abstract
        raise NotImplementedError


class MutableAccessor(Accessor):
    """An accessor that can also write: `a[k] = v`."""

    def __setitem__(self, k, v):  # pragma: no cover - abstract
        raise NotImplementedError


# the ctypes type of each struct-module format character a buffer may report
_FORMAT_CTYPES = {
    "d": _ctypes.c_double, "f": _ctypes.c_float, "i": _ctypes.c_int, "l": _ctypes.c_long,
    "q": _ctypes.c_longlong, "b": _ctypes.c_byte, "B": _ctypes.c_ubyte, "c": _ctypes.c_char,
    "h": _ctypes.c_short, "H": _ctypes.c_ushort, "I": _ctypes.c_uint, "L": _ctypes.c_ulong,
    "Q": _ctypes.c_ulonglong, "n": _ctypes.c_ssize_t, "N": _ctypes.c_size_t,
    "u": _ctypes.c_wchar, "w": _ctypes.c_wchar, "?": _ctypes.c_bool,
}


def _buffer_ctype(fmt: str):
    """The ctypes element type of a buffer with struct format `fmt`."""
    code = fmt.lstrip("@=<>!")
    t = _FORMAT_CTYPES.get(code)
    if t is None:
        raise ValueError(f"Ptr: no ctypes type for the buffer format {fmt!r}; pass dtype=")
    if code == "w" and _ctypes.sizeof(t) != 4:  # 'w' is UCS-4; c_wchar is wchar_t
        raise ValueError(f"Ptr: no ctypes type for the buffer format {fmt!r}; pass dtype=")
    return t


class Ptr(MutableAccessor):
    """A typed pointer into memory owned elsewhere (no bounds checks)."""

    def __init__(self, source, dtype=None, owner=None):
        if isinstance(source, int):
            if dtype is None:
                raise ValueError("Ptr: an integer address needs a dtype")
            self.address, self.dtype, self.owner = source, dtype, owner
            return
        if isinstance(source, _ctypes.Array):
            self.address = _ctypes.addressof(source)
            self.dtype = dtype or source._type_
            self.owner = owner if owner is not None else source
            return
        iface = getattr(source, "__array_interface__", None)
        if iface is not None:
            # numpy arrays and views (strided ones too): the first element's
            # address; the view keeps the memory alive
            import numpy as _numpy

            self.address = int(iface["data"][0])
            self.dtype = dtype or _numpy.ctypeslib.as_ctypes_type(source.dtype)
            self.owner = owner if owner is not None else source
            return
        mv = memoryview(source)
        if dtype is None:
            dtype = _buffer_ctype(mv.format)
        self.dtype = dtype
        buf = (_ctypes.c_char * mv.nbytes).from_buffer(mv.cast("B")) if not mv.readonly else None
        if buf is None:
            raise ValueError("Ptr: the buffer is read-only")
        self.address = _ctypes.addressof(buf)
        self._buffer = buf  # holds the export (the memory cannot move)
        self.owner = owner if owner is not None else source

    def _at(self, k):
        return self.dtype.from_address(self.address + k * _ctypes.sizeof(self.dtype))

    def __add__(self, k):
        base = self if self.owner is None else self.owner
        return Ptr(self.address + int(k) * _ctypes.sizeof(self.dtype), self.dtype, base)

    def __getitem__(self, k):
        return self._at(int(k)).value

    def __setitem__(self, k, v):
        self._at(int(k)).value = v

    def __eq__(self, other):
        return isinstance(other, Ptr) and (self.address, self.dtype) == (other.address, other.dtype)

    def __repr__(self):
        return f"Ptr({self.address:#018x}, {self.dtype.__name__})"


class Array(Ptr):
    """A `Ptr` owning `size` zero-initialised elements."""

    def __init__(self, size, dtype=_ctypes.c_double):
        self.buffer = (dtype * int(size))()
        super().__init__(_ctypes.addressof(self.buffer), dtype, None)
        self.size = int(size)

    def __repr__(self):
        # the length and element type, not the address: the same text in
        # every run (as the notation's `Array(6 x i64)`)
        return f"Array({self.size} x {self.dtype.__name__})"


class ImplicitAccessor(Accessor):
    """No memory: `a[k]` is `base + k`."""

    def __init__(self, base):
        self.base = base

    def __add__(self, k):
        return ImplicitAccessor(self.base + k)

    def __getitem__(self, k):
        return self.base + k

    def __eq__(self, other):
        return isinstance(other, ImplicitAccessor) and self.base == other.base

    def __repr__(self):
        return "{" + str(self.base) + "}"

    __str__ = __repr__


class TransformAccessor(Accessor):
    """A read-only view: `t[k]` is `f(acc[k])`."""

    def __init__(self, accessor, transform):
        self.accessor, self.transform = accessor, transform

    def __add__(self, k):
        return TransformAccessor(self.accessor + k, self.transform)

    def __getitem__(self, k):
        return self.transform(self.accessor[k])

    def __eq__(self, other):
        return (isinstance(other, TransformAccessor) and self.accessor == other.accessor
                and self.transform == other.transform)


# ---------------------------------------------------------------- tensors


def _slices_to_none(c):
    """Every `slice(None)` (`:`) leaf read as `None`; another slice is an error."""
    if isinstance(c, slice):
        if c != slice(None):
            raise ValueError(f"value: only `:` slices a tensor, not {c}")
        return None
    if is_tuple(c):
        return tuple(_slices_to_none(x) for x in c)
    return c


def _has_none(c) -> bool:
    return c is None or (is_tuple(c) and any(_has_none(x) for x in c))


class Tensor:
    """A tensor: an accessor composed with a layout (`docs/tensors.md`).

    `T[c]` with an integral, flat or natural coordinate reads `acc[L(c)]`;
    a coordinate containing `None` slices, giving a tensor that shares the
    accessor moved by the slice's offset."""

    def __init__(self, accessor, layout):
        if not isinstance(accessor, Accessor):
            raise ValueError(f"value: Tensor: expected an accessor, got {accessor!r}")
        if not isinstance(layout, LayoutBase):
            raise ValueError(f"value: Tensor: expected a layout, got {layout!r}")
        self.accessor, self.layout = accessor, layout

    @property
    def shape(self):
        return self.layout.shape

    @property
    def stride(self):
        return self.layout.stride

    def __getitem__(self, crd):
        crd = _slices_to_none(crd)
        if _has_none(crd):
            off, sub = self.layout._offset_and_slice(crd)
            return Tensor(self.accessor + off, sub)
        return self.accessor[self.layout(crd)]

    def __setitem__(self, crd, value):
        if _has_none(_slices_to_none(crd)):
            raise ValueError("value: Tensor: cannot assign to a slice")
        self.accessor[self.layout(crd)] = value

    def get(self, mode):
        """The tensor over the same accessor with the sub-layout at `mode`."""
        return Tensor(self.accessor, get(self.layout, mode))  # noqa: F821 - Rust operation

    # the dispatch hooks of the algebra: the same accessor, a new layout
    def _coalesce(self, profile=1):
        return Tensor(self.accessor, coalesce(self.layout, profile))  # noqa: F821

    def _coalesce_z(self, profile=1):
        return Tensor(self.accessor, coalesce_z(self.layout, profile))  # noqa: F821

    def _composition(self, B):
        return Tensor(self.accessor, composition(self.layout, B))  # noqa: F821

    def _logical_divide(self, B):
        return Tensor(self.accessor, logical_divide(self.layout, B))  # noqa: F821

    def __call__(self, *crd):
        return self[crd[0] if len(crd) == 1 else crd]

    def __len__(self):
        return len(self.layout)

    def __eq__(self, other):
        return isinstance(other, Tensor) and self.accessor == other.accessor and self.layout == other.layout

    def __str__(self):
        return f"{self.accessor} o {self.layout}"

    def __repr__(self):
        return f"Tensor({self.accessor!r}, {self.layout})"


def is_tensor(x) -> bool:
    """`isinstance(x, Tensor)`."""
    return isinstance(x, Tensor)


def make_tensor(layout, dtype=_ctypes.c_double):
    """A tensor over a fresh zero-initialised `Array` of `cosize(layout)`
    elements (a shape is made a column-major layout)."""
    if not isinstance(layout, LayoutBase):
        if not (is_int(layout) or is_tuple(layout)):
            raise ValueError(f"value: make_tensor: expected a layout or a shape, got {layout!r}")
        layout = Layout(layout)
    n = coshape(layout)  # noqa: F821 - Rust operation
    if not is_int(n):
        raise ValueError(f"value: make_tensor: the codomain of {layout} is not integral "
                         f"(coshape {n}); there is no memory to allocate")
    return Tensor(Array(n, dtype), layout)


def identity_tensor(shape):
    """The tensor whose value at each coordinate is that coordinate:
    `make_identity_layout(shape)` over an implicit accessor."""
    return Tensor(ImplicitAccessor(0), make_identity_layout(shape))  # noqa: F821


make_identity_tensor = identity_tensor


def _as_tensor(t):
    return t if isinstance(t, Tensor) else Tensor(ImplicitAccessor(0), t)


def _all(r):
    """C++ `repeat<r>(_)`: `r` Nones as a tuple when `r >= 2`, one otherwise."""
    return (None,) * r if r >= 2 else None


def _dice(proj, x):
    """The modes of `x` (a tuple or a layout) where `proj` is not None."""
    if len(proj) != rank(x):  # noqa: F821 - Rust operation
        raise ValueError(f"rank: projection {proj} for {x}")
    kept = [get(x, i) for i, p in enumerate(proj) if p is not None]  # noqa: F821
    if isinstance(x, LayoutBase):
        return make_layout(*kept)
    return tuple(kept)


def local_tile(T, tiler, coord, proj=None):
    """C++ `local_tile`: with `Z = zipped_divide(T, tiler)`, the tile
    `Z[(_, coord)]` (a tuple `coord` names the leading rest modes, an
    integer indexes the rest mode as a whole). `T` is a tensor or a layout
    (the tensor `{0} o L`); `proj` (e.g. `(1, None, 1)`, C++'s
    `Step<_1,X,_1>`) first drops the modes at its `None` entries. A
    swizzled layout (not in a tensor) gives the swizzled part
    `Sw o (offset + d) o L'`, as `rcute eval` does (docs/differences.md)."""
    if isinstance(T, ComposedLayout):
        return _rcute.local_tile(T, tiler, coord, proj)
    t = _as_tensor(T)
    if proj is not None:
        tiler, coord = _dice(proj, tiler), _dice(proj, coord)
    z = zipped_divide(t.layout, tiler)  # noqa: F821 - Rust operation
    r0, r1 = rank(get(z, 0)), rank(get(z, 1))  # noqa: F821
    if is_tuple(coord):
        if len(coord) > r1:
            raise ValueError(f"rank: local_tile: coordinate {coord} for {r1} tile modes")
        coord = tuple(coord) + (None,) * (r1 - len(coord))
    sub, off = slice_and_offset(z, (_all(r0), coord))  # noqa: F821
    return Tensor(t.accessor + off, sub)


def local_partition(T, thr, idx, proj=None):
    """C++ `local_partition`: the position of thread `idx` of the thread
    layout `thr` in every tile of `thr`'s shape: `Z[(c, _)]` with
    `Z = zipped_divide(T, product_each(shape(thr)))` and `c` the coordinate
    of `idx` in `thr`. `T` is a tensor or a layout; `proj` first drops the
    modes of `thr` at its `None` entries. A swizzled layout (not in a
    tensor) gives the swizzled part, as `local_tile` does."""
    if isinstance(T, ComposedLayout):
        return _rcute.local_partition(T, thr, idx, proj)
    t = _as_tensor(T)
    if proj is not None:
        thr = _dice(proj, thr)
    modes = [thr] if not is_tuple(thr.shape) else [get(thr, i) for i in range(rank(thr))]  # noqa: F821
    c = tuple(crd2idx(idx2crd(idx, m.shape, m.stride), m.shape) for m in modes)  # noqa: F821
    tiler = size(thr) if not is_tuple(thr.shape) else tuple(size(m) for m in modes)  # noqa: F821
    c = c[0] if not is_tuple(thr.shape) else c
    z = zipped_divide(t.layout, tiler)  # noqa: F821 - Rust operation
    r0, r1 = rank(get(z, 0)), rank(get(z, 1))  # noqa: F821
    if is_tuple(c):
        c = tuple(c) + (None,) * (r0 - len(c))
    sub, off = slice_and_offset(z, (c, _all(r1)))  # noqa: F821
    return Tensor(t.accessor + off, sub)

__all__ = sorted(
    set(_OPERATIONS)
    | {
        "ComposedLayout", "LayoutBase", "V", "HTuple", "Profile", "IntTuple", "Shape", "Coord",
        "Stride", "Tiler", "Integer", "StrideScalar", "register_integer_type", "is_int",
        "is_static", "is_stride_scalar", "is_tuple", "is_layout", "divmod", "shiftl", "shiftr",
        "zip_leaves", "fold_leaf", "transform_apply_leaf", "transform_leaf", "unflatten",
        "ModeOpDecorator", "Accessor", "MutableAccessor", "Ptr", "Array", "ImplicitAccessor",
        "TransformAccessor", "Tensor", "is_tensor", "eval_notation", "eval_notation_str",
        "local_tile", "local_partition",
        "format_value",
    }
)


def coordinates(shape):
    """The natural coordinates of `shape` in colexicographic order
    (`[idx2crd(i, shape) for i in range(size(shape))]`)."""
    for i in range(size(shape)):  # noqa: F821 - Rust operation
        yield idx2crd(i, shape)  # noqa: F821


__all__.append("coordinates")


# ---------------------------------------------------------------- the duck-typed protocol
#
# The reference's free functions are thin dispatchers: an argument that is
# not a layout, an integer, a tuple/list or None takes part through its
# attributes (`shape`, `stride`, `get`) or its hooks (`_coalesce`,
# `_composition`, ...). Tensors use this, and so can user classes. The Rust
# operations stay as they are; these wrappers only rewrite the arguments.

_NATIVE = (LayoutBase, int, tuple, list, ArithTuple, F2, Swizzle, str, type(None))


def _is_foreign(x) -> bool:
    return not isinstance(x, _NATIVE) and not is_int(x)


def _attr_value(x, name):
    v = getattr(x, name)
    return v() if callable(v) else v


def _call(op, mode, args, kwargs):
    return (op[mode] if mode else op)(*args, **kwargs)


def _through(attr):
    """`shape`, `size`, ...: a foreign first argument is replaced by its
    attribute `attr` (called when callable)."""

    def rule(op, mode, args, kwargs):
        if args and _is_foreign(args[0]) and hasattr(args[0], attr):
            args = (_attr_value(args[0], attr),) + args[1:]
        return _call(op, mode, args, kwargs)

    return rule


def _shape_rule(op, mode, args, kwargs):
    if len(args) == 1 and not kwargs and args[0] is None and not mode:
        return None  # shape(None) is None
    return _through("shape")(op, mode, args, kwargs)


def _stride_rule(op, mode, args, kwargs):
    a = args[0] if args else kwargs.get("A")
    if args and _is_foreign(a) and hasattr(a, "stride"):
        a = _attr_value(a, "stride")
        args = (a,) + args[1:]
    if len(args) == 1 and not kwargs and not isinstance(a, LayoutBase):
        # a plain value: its mode, then a stride scalar as is and a tuple
        # rebuilt from the strides of its elements
        for i in mode:
            a = get(a, i)  # noqa: F821 - Rust operation

        def rebuild(x):
            if is_tuple(x):
                return tuple(rebuild(y) for y in x)
            if isinstance(x, LayoutBase):
                return x.stride
            return x

        return rebuild(a)
    return _call(op, mode, args, kwargs)


def _get_rule(op, mode, args, kwargs):
    if args and _is_foreign(args[0]) and hasattr(args[0], "get"):
        path = tuple(mode)
        extra = args[1] if len(args) > 1 else kwargs.get("path", ())
        path += tuple(extra) if is_tuple(extra) else (extra,)
        return args[0].get(path) if path else args[0]
    return _call(op, mode, args, kwargs)


def _hook(name, kind):
    """The algebra: a foreign first argument answers through its hook
    `name`; a mode path is first turned into a by-mode argument."""

    def rule(op, mode, args, kwargs):
        if not args or not _is_foreign(args[0]):
            return _call(op, mode, args, kwargs)
        a = args[0]
        if not hasattr(a, name):
            raise TypeError(f"type: {op.__name__}: the {type(a).__name__} value {a!r} "
                            f"has no {name} (not a layout)")
        rest = list(args[1:])
        if kind == "profile":
            profile = rest[0] if rest else kwargs.get("profile", 1)
            if mode:
                profile = lift(profile, mode, pad=None)  # noqa: F821 - Rust operation
            return getattr(a, name)(profile)
        if kind == "tiler":
            b = rest[0] if rest else kwargs.get("B")
            if mode:
                if name == "_composition":
                    b = replace(repeat_like(None, shape(a)), b, mode=mode)  # noqa: F821
                else:
                    b = lift(b, mode, pad=None)  # noqa: F821 - Rust operation
            return getattr(a, name)(b)
        if kind == "extend":
            return getattr(a, name)(rest[0] if rest else kwargs.get("extend"))
        return getattr(a, name)()

    return rule


def _method(name):
    """`idx2crd`, `unit`: a foreign first argument with the method `name`
    answers through it (the other arguments passed on); this is how a user
    index type decomposes itself (`i._idx2crd(S)`) or names its unit."""

    def rule(op, mode, args, kwargs):
        if args and _is_foreign(args[0]) and hasattr(args[0], name):
            return getattr(args[0], name)(*args[1:], **kwargs)
        return _call(op, mode, args, kwargs)

    return rule


def _zipped_divide_rule(op, mode, args, kwargs):
    if args and _is_foreign(args[0]):
        b = args[1] if len(args) > 1 else kwargs.get("B")
        return logical_divide(args[0], tiler_to_layout(b), mode=mode)  # noqa: F821
    return _call(op, mode, args, kwargs)


def _to_shapes(x):
    """Every operand that is neither an integer nor a tuple replaced by its
    shape, at every level (bug E6)."""
    if is_tuple(x):
        return tuple(_to_shapes(y) for y in x)
    if isinstance(x, LayoutBase) or (_is_foreign(x) and hasattr(x, "shape")):
        return _to_shapes(_attr_value(x, "shape"))
    return x


def _shapes_rule(op, mode, args, kwargs):
    return _call(op, mode, tuple(_to_shapes(a) for a in args),
                 {k: _to_shapes(v) for k, v in kwargs.items()})


def _as_leaves(x):
    """Congruence: every non-tuple is a leaf (a layout too), read as 0."""
    if is_tuple(x):
        return tuple(_as_leaves(y) for y in x)
    return 0


def _congruence_rule(op, mode, args, kwargs):
    return _call(op, mode, tuple(_as_leaves(a) for a in args),
                 {k: _as_leaves(v) for k, v in kwargs.items()})


def _layout_add_rule(op, mode, args, kwargs):
    if len(args) == 2 and not kwargs and not mode:
        if args[0] is None:
            return args[1]
        if args[1] is None:
            return args[0]
    return _call(op, mode, args, kwargs)


_RULES = {
    "shape": _shape_rule,
    "size": _through("shape"),
    "rank": _through("shape"),
    "depth": _through("shape"),
    "stride": _stride_rule,
    "get": _get_rule,
    "coalesce": _hook("_coalesce", "profile"),
    "coalesce_z": _hook("_coalesce_z", "profile"),
    "composition": _hook("_composition", "tiler"),
    "logical_divide": _hook("_logical_divide", "tiler"),
    "logical_product": _hook("_logical_product", "tiler"),
    "complement": _hook("_complement", "extend"),
    "right_inverse": _hook("_right_inverse", "none"),
    "left_inverse": _hook("_left_inverse", "none"),
    "nullspace": _hook("_nullspace", "none"),
    "coshape": _hook("_coshape", "none"),
    "coprofile": _hook("_coprofile", "none"),
    "zipped_divide": _zipped_divide_rule,
    "idx2crd": _method("_idx2crd"),
    "unit": _method("_unit"),
    "compatible": _shapes_rule,
    "common_refinement": _shapes_rule,
    "common_coarsening": _shapes_rule,
    "congruent": _congruence_rule,
    "weakly_congruent": _congruence_rule,
    "layout_add": _layout_add_rule,
}
for _name, _rule in _RULES.items():
    if _name in globals() and isinstance(globals()[_name], _rcute.Operation):
        # the rule runs only where the typed fast path (in Rust) does not
        # answer: native operands never reach Python code
        globals()[_name] = globals()[_name]._with_rule(_rule)
del _name, _rule


def profile(obj):
    """The tree that congruence compares: for an object with a `shape`
    attribute (a layout, a tensor, ...), `profile` of that shape; anything
    else is returned as is (the very same object). Never raises.

    >>> profile(Layout((2, (3, 4))))
    (2, (3, 4))
    >>> profile((Layout(2), Layout(3)))
    (Layout(2, 1), Layout(3, 1))
    """
    if isinstance(obj, (tuple, list, int, type(None))) or is_int(obj):
        return obj
    try:
        if hasattr(obj, "shape"):
            return profile(_attr_value(obj, "shape"))
    except Exception:  # noqa: BLE001 - total: never raises
        pass
    return obj


def _replace_impl(obj, x, mode=()):
    if not mode:
        return x
    if not is_tuple(obj):
        obj = (obj,)
    i = mode[0]
    n = len(obj)
    if not isinstance(i, int) or not -n <= i < n:
        raise ValueError(f"value: replace: index {i} of the path {tuple(mode)} "
                         f"names no element of {tuple(obj)!r}")
    i %= n
    return tuple(_replace_impl(v, x, mode[1:]) if k == i else v for k, v in enumerate(obj))


def _replace(obj, x, *, mode=()):
    """A copy of `obj` whose element at the path `mode` is `x` (a tuple; a
    leaf is first wrapped into a 1-tuple). A negative index counts from the
    end, as for `get`; an index beyond the end is a ValueError.

    >>> replace[1]((1, 2, 3), 42)
    (1, 42, 3)
    >>> replace[0, 2](((1, 2, 3), 4), 42)
    ((1, 2, 42), 4)
    """
    return _replace_impl(obj, x, tuple(mode))


replace = ModeOpDecorator(_replace)
replace.__doc__ = _replace.__doc__

__all__ += ["profile", "replace"]


# ---------------------------------------------------------------- rich display (Jupyter)

# A notebook shows a small rank-2 layout as its drawing (the SVG of
# `util.draw_svg`); anything else (another rank, more than
# _REPR_SVG_MAX_CELLS cells, coordinate values) falls back to the text repr.
_REPR_SVG_MAX_CELLS = 4096


def _repr_svg_(self):
    try:
        if size(self) > _REPR_SVG_MAX_CELLS:  # noqa: F821 - Rust operation
            return None  # (a rank other than 2 is the drawer's ValueError)
        from .util import index_grey_8x
        return _rcute._draw_text("svg", self, index_grey_8x)
    except (TypeError, ValueError, OverflowError):
        return None


Layout._repr_svg_ = _repr_svg_
ComposedLayout._repr_svg_ = _repr_svg_


# ---------------------------------------------------------------- private hooks (the reference's)


def _layout_offset_and_slice(self, crd):
    """`(offset, sublayout)` of the coordinate `crd` (`None` or `:` leaves
    keep their mode; they count 0 in the offset). A bare `None` keeps the
    whole layout as one mode."""
    crd = _slices_to_none(crd)
    if crd is None:
        return 0, make_layout([self])
    sub, off = slice_and_offset(self, crd)  # noqa: F821 - Rust operation
    return off, sub


def _layout_set(cls, shape, stride):
    """Build a layout from `shape` and `stride` as given (no prefix
    products)."""
    return Layout(shape, stride)


Layout._offset_and_slice = _layout_offset_and_slice
Layout._set = classmethod(_layout_set)
Layout._coalesce = lambda self, profile=1: coalesce(self, profile)  # noqa: E731,F821
Layout._coalesce_z = lambda self, profile=1: coalesce_z(self, profile)  # noqa: E731,F821
Layout._composition = lambda self, B: composition(self, B)  # noqa: E731,F821
Layout._logical_divide = lambda self, B: logical_divide(self, B)  # noqa: E731,F821
Layout._logical_product = lambda self, B: logical_product(self, B)  # noqa: E731,F821
Layout._complement = lambda self, extend=None: complement(self, extend)  # noqa: E731,F821
Layout._right_inverse = lambda self: right_inverse(self)  # noqa: E731,F821
Layout._left_inverse = lambda self: left_inverse(self)  # noqa: E731,F821
Layout._nullspace = lambda self: nullspace(self)  # noqa: E731,F821
Layout._coshape = lambda self: coshape(self)  # noqa: E731,F821
Layout._coprofile = lambda self: coprofile(self)  # noqa: E731,F821


# ---------------------------------------------------------------- the reference's newer signatures (make=, mode=)

_rust_flatten, _rust_slice, _rust_dice = flatten, slice_, dice_  # noqa: F821
_rust_lift, _rust_make_basis_like, _rust_scaled_basis = lift, make_basis_like, ScaledBasis  # noqa: F821


def flatten(t, make=tuple):
    """The leaves of `t` in order, given to `make` (a tuple by default;
    `make=list`, `make=make_layout`, ...)."""
    r = _rust_flatten(t)
    return r if make is tuple else make(r if is_tuple(r) else (r,))


def slice_(htuple, B, make=tuple):
    """The parts of `B` at the `None` leaves of `htuple`, given to `make`."""
    r = _rust_slice(htuple, B)
    return r if make is tuple else make(r)


def dice_(htuple, B, make=tuple):
    """The parts of `B` at the non-`None` leaves of `htuple`, given to `make`."""
    r = _rust_dice(htuple, B)
    return r if make is tuple else make(r)


def _lift(obj, path=(), *, pad=0, make=tuple, mode=()):
    path = tuple(mode) + (tuple(path) if is_tuple(path) else (path,))
    if make is tuple:
        return _rust_lift(obj, path, pad=pad)
    for i in reversed(path):
        if not is_int(i) or i < 0:
            raise ValueError(f"value: lift: the index {i!r} of the path is not a natural number")
        obj = make((pad,) * int(i) + (obj,))
    return obj


lift = ModeOpDecorator(_lift)
lift.__doc__ = _rust_lift.__doc__


def make_basis_like(profile, mode=()):
    """The unit basis values nested like `profile`: the leaf at path `p` is
    `E(*mode, *p)`."""
    mode = tuple(mode) if is_tuple(mode) else (mode,)
    if not mode:
        return _rust_make_basis_like(profile)

    def rec(p, path):
        if is_tuple(p):
            return tuple(rec(x, path + (i,)) for i, x in enumerate(p))
        return E(*path)

    return rec(profile, mode)


def ScaledBasis(value, mode=None, seq=None):  # noqa: N802 - the reference's name
    """The basis value `value` at the path `mode` (`seq` is rcute's older
    name of it)."""
    path = mode if mode is not None else seq
    return _rust_scaled_basis(value, path)


_old_unflatten, _old_transform_apply_leaf, _old_fold_leaf = unflatten, transform_apply_leaf, fold_leaf


def unflatten(iter, profile, make=tuple, *, g=None):  # noqa: A002 - the reference's name
    """Rebuild `profile`'s structure drawing leaves from `iter`; `make`
    builds each node (`g` is rcute's older name of it)."""
    return _old_unflatten(iter, profile, g if g is not None else make)


def transform_apply_leaf(make, fn, htuple, *tuples):
    """If `htuple` is a tuple, `make` of the recursive results over its modes
    zipped with the other arguments' modes; at a leaf, `fn(htuple, *tuples)`."""
    return _old_transform_apply_leaf(make, fn, htuple, *tuples)


def fold_leaf(fn, init, *tuples):
    """Left fold of `fn` over `zip_leaves(*tuples)`, starting from `init`."""
    return _old_fold_leaf(fn, init, *tuples)


# ---------------------------------------------------------------- Integer and StrideScalar as abstract base classes

import abc as _abc  # noqa: E402


class Integer(_abc.ABC):
    """The reference's integers: `int` and its subclasses except `bool`, and
    registered types (`register_integer_type`, `Integer.register`)."""

    @classmethod
    def __subclasshook__(cls, C):
        if cls is Integer:
            if issubclass(C, bool):
                return False
            if issubclass(C, int) or any(issubclass(C, t) for t in _integer_types()):
                return True
        return NotImplemented


class StrideScalar(_abc.ABC):
    """The values a stride leaf can be: integers, coordinate values, F2."""

    @classmethod
    def __subclasshook__(cls, C):
        if cls is StrideScalar:
            if issubclass(C, (int, ArithTuple, F2)) or issubclass(C, Integer):
                return True
        return NotImplemented


_old_is_int = is_int


def is_int(x) -> bool:
    """True for `int` (not `bool`) and for registered integer types."""
    return isinstance(x, Integer)


def divmod(a, b):  # noqa: A001 - the reference exports this name
    """Python's `divmod` (so a type's own `__divmod__` is used), falling
    back to `(a // b, a % b)` for types that define only those."""
    try:
        return _builtins.divmod(a, b)
    except TypeError:
        return (a // b, a % b)


# ---------------------------------------------------------------- coordinate values: .data and _set


def _arith_data(self):
    """The explicit children, a nested child as a coordinate value:
    `ArithTuple(1, (2, 3)).data == (1, ArithTuple(2, 3))`."""
    t = self.as_tuple()
    if not isinstance(t, tuple):
        return (t,)
    return tuple(ArithTuple(*c) if isinstance(c, tuple) else c for c in t)


ArithTuple.data = property(_arith_data)
ArithTuple._set = classmethod(lambda cls, seq: ArithTuple(*seq) if len(seq) else 0)


# ---------------------------------------------------------------- accessors: base, ptr


def _ptr_base(self):
    return self if self.owner is None else self.owner


Ptr.base = property(_ptr_base)
Ptr.ptr = property(lambda self: _ctypes.cast(self.address, _ctypes.POINTER(self.dtype)))


# ---------------------------------------------------------------- unknown names


def __getattr__(name):
    """An unknown module attribute: `AttributeError` with the closest name
    of the module, as the notation's "did you mean" (`rcute.make_layot`
    suggests `make_layout`)."""
    import difflib

    hint = ""
    if not name.startswith("__"):
        close = difflib.get_close_matches(name, __all__, n=1, cutoff=0.7)
        if close:
            hint = f" (did you mean '{close[0]}'?)"
    raise AttributeError(f"module 'rcute' has no attribute '{name}'{hint}")
