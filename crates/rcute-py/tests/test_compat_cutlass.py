"""rcute.compat.cutlass: CUTLASS's pycute API on rcute (docs/compat-cutlass.md).

Worked examples, the docs page's examples, a CUTLASS-style script run
unchanged, and a differential test against CUTLASS's pycute itself (the
``pycute`` package of the ``nvidia-cutlass`` wheel), which is skipped with a
message when that package is not installed."""

import doctest
import pathlib
import random
import re

import pytest

import rcute.compat.cutlass as pc

ROOT = pathlib.Path(__file__).resolve().parents[3]

try:  # CUTLASS's pycute (PyPI nvidia-cutlass)
    import pycute as cutlass_pycute
except ImportError:  # pragma: no cover
    cutlass_pycute = None

needs_cutlass = pytest.mark.skipif(
    cutlass_pycute is None,
    reason="CUTLASS's pycute is not installed (pip install nvidia-cutlass): "
    "the differential test against it is skipped",
)


# ------------------------------------------------------------ worked examples


def test_layout_call_with_none_slices():
    L = pc.Layout((4, 8), (8, 1))
    assert repr(L(None, 3)) == "Layout((4,),(8,))"
    assert repr(L(2, None)) == "Layout((8,),(1,))"
    assert repr(L(None)) == "Layout(((4, 8),),((8, 1),))"
    assert repr(L((None, 3))) == "Layout((4,),(8,))"
    assert L(2, 3) == 19 and L(19) == 28 and L((2, 3)) == 19
    assert repr(pc.Layout((2, (3, 2)))(1, (None, 1))) == "Layout((3,),(2,))"


def test_repr_str_methods():
    L = pc.Layout((2, 3), (3, 1))
    assert repr(L) == "Layout((2, 3),(3, 1))" and str(L) == "(2, 3):(3, 1)"
    assert repr(pc.Layout(8, 1)) == "Layout(8,1)"
    assert L.size() == 6 and L.cosize() == 6 and len(L) == 2
    assert pc.size(L) == 6 and pc.cosize(L) == 6 and pc.size((2, (3, 4))) == 24
    assert repr(L[1]) == "Layout(3,1)"
    assert L.shape == (2, 3) and L.stride == (3, 1)
    assert pc.Layout(3) == pc.Layout(3, 1) and pc.Layout((3,), (1,)) != pc.Layout(3, 1)
    assert pc.is_layout(L) and not pc.is_layout(3)
    # an integer stride starts column-major strides (rcute's reading, h1)
    assert str(pc.Layout((2, 3), 2)) == "(2, 3):(2, 4)"


def test_slice_and_offset_argument_order():
    L = pc.Layout((4, 8), (8, 1))
    assert repr(pc.slice_and_offset((None, 3), L)) == "(Layout((4,),(8,)), 3)"
    assert repr(pc.slice_and_offset((1, 3), L)) == "(Layout((),()), 11)"


def test_idx2crd_crd2idx():
    assert pc.idx2crd(42, (3, 7, 2)) == (0, 0, 0)
    assert pc.idx2crd(25, 8) == 1
    assert pc.idx2crd((1, 2), (3, 4)) == (1, 0)
    assert pc.idx2crd(5, (2, 3), (3, 1)) == (1, 2)
    assert pc.idx2crd(7, (2, (3, 2))) == (1, (0, 1))
    assert pc.crd2idx((1, 2), (3, 4), (4, 1)) == 6
    assert pc.crd2idx((None, 2), (3, 4)) == 6
    assert pc.crd2idx(7, (2, 3)) == 7


def test_coalesce_complement_filter_forms():
    L = pc.Layout
    assert repr(pc.complement(L(4, 2))) == "Layout(2,1)"
    assert repr(pc.complement(L((2, 4), (1, 4)))) == "Layout(2,2)"
    assert repr(pc.complement(4)) == "Layout(1,0)"
    assert str(pc.complement(L(4, 2), 24)) == "(2, 3):(1, 8)"
    with pytest.raises(AssertionError):
        pc.complement(L((2, 2), (1, 1)))
    with pytest.raises(ValueError):
        pc.complement(L((2, 2), (1, 1)))
    assert repr(pc.coalesce(L((1, 1), (3, 5)))) == "Layout(1,0)"
    assert str(pc.coalesce(L((2, (3, 4)), (1, (2, 6))), (1, None))) == "(2, 12):(1, 2)"
    assert str(pc.filter(L((2, (3, 4)), (0, (2, 6))), (None, 1))) == "(1, 12):(0, 2)"
    assert str(pc.filter(L((2, (3, 4)), (0, (2, 6))))) == "12:2"


def test_rcute_answers_kept():
    L = pc.Layout
    # CUTLASS's pycute truncates this composition to size 5
    with pytest.raises(AssertionError) as e:
        pc.composition(L((5, 3), (7, 1)), L(7, 1))
    assert isinstance(e.value, ValueError)
    assert str(pc.composition(L((1, 1), (19, 13)), L(9, 1))) == "9:13"
    assert str(pc.right_inverse(L((2, 4), (0, 1)))) == "4:2"
    assert str(pc.logical_product(L(3, 1), 4)) == "(3, 4):(1, 3)"
    with pytest.raises(AssertionError):
        pc.left_inverse(L((2, 2), (1, 1)))
    assert str(pc.left_inverse(L((4, 8), (1, 5)))) == "(5, 8):(1, 4)"
    with pytest.raises(AssertionError):
        pc.Swizzle(2, 0, 1)  # |shift| < bits
    assert pc.Swizzle(0, 0, 0)(5) == 5  # CUTLASS's: RecursionError
    with pytest.raises(AssertionError):
        pc.Layout(0, 1)
    # rcute's layouts in and out
    import rcute
    assert str(pc.Layout(rcute.Layout(3, 2))) == "3:2" and pc.Layout(3)._l == rcute.Layout(3, 1)


def test_none_tiler_leaves_and_hier_unzip():
    A = pc.Layout((8, 24), (1, 8))
    assert str(pc.zipped_divide(A, (None, 4))) == "((1, 4), (8, 6)):((0, 8), (1, 32))"
    assert str(pc.tiled_divide(A, (None, 4))) == "((1, 4), 8, 6):((0, 8), 1, 32)"
    assert str(pc.zipped_divide(A, (4, 8))) == "((4, 8), (2, 3)):((1, 8), (4, 64))"
    assert str(pc.hier_unzip(pc.logical_divide, pc.Layout((8, 24)), (4, 8))) == \
        "((4, 8), (2, 3)):((1, 8), (4, 64))"
    assert str(pc.logical_divide(pc.Layout((4, 8), (8, 1)), (None, 4))) == \
        "(4, (4, 2)):(8, (1, 4))"
    assert str(pc.composition(pc.Layout((4, 8), (8, 1)), (None, 4))) == "(4, 4):(8, 1)"


def test_swizzle_and_composed_layout():
    s = pc.Swizzle(3, 4, 3)
    assert s.size() == 1024 and s.cosize() == 1024 and s(1000) == 920
    assert repr(s) == "Swizzle(3,4,3)" and str(s) == "SW_3_4_3"
    c = pc.ComposedLayout(pc.Swizzle(1, 0, 1), 2, pc.Layout((2, 2)))
    assert c(1) == 2 and len(c) == 2 and c.size() == 4 and c.cosize() == 4
    assert repr(c) == "ComposedLayout(Swizzle(1,0,1),2,Layout((2, 2),(1, 2)))"
    assert str(c) == "SW_1_0_1 o 2 o (2, 2):(1, 2)"
    assert repr(c[1]) == "ComposedLayout(Swizzle(1,0,1),2,Layout(2,2))"
    assert pc.ComposedLayout(pc.Layout(8, 2), 2, pc.Layout((2, 2))).cosize() == 15
    assert pc.is_layout(c) and pc.size(c) == 4


def test_helpers():
    assert pc.shape_div((3, 4), 6) == (1, 2)
    assert pc.shape_div((3, 4), 12) == (1, 1)
    assert pc.shape_div((3, 4), 36) == (1, 1)
    assert pc.shape_div(((3, 4), 6), 36) == ((1, 1), 2)
    assert pc.shape_div((6, (3, 4)), 36) == (1, (1, 2))
    assert pc.shape_div(6, (2, 3)) == 1 and pc.shape_div(6, 12) == 1
    for a, b in ((6, 4), (4, 6)):
        with pytest.raises(AssertionError):
            pc.shape_div(a, b)
    assert pc.elem_scale((2, 3), (4, 5)) == (8, 15) and pc.elem_scale(2, (3, 4)) == 24
    assert pc.tuple_max((1, (5, 2))) == 5
    assert (pc.signum(-3), pc.signum(0), pc.signum(7)) == (-1, 0, 1)
    assert pc.crd2crd((1, 2), (3, 4)) == (1, 2)
    assert pc.crd2crd(5, (3, 4)) == (2, 1)
    assert pc.crd2crd((1, 2), 6, (3, 4)) == 7
    assert pc.has_none((1, (None, 2))) and not pc.has_none((1, (3, 2)))
    assert pc.flatten(((1, 2), 3)) == (1, 2, 3) and pc.flatten(5) == (5,)
    assert pc.prefix_product((2, (3, 4)), 2) == (2, (4, 12))
    assert pc.slice_((None, 1), (3, 4)) == (3,)
    assert pc.shiftl(4, -1) == 2 and pc.shiftr(4, -1) == 8


def test_integer_abc_and_errors():
    assert issubclass(int, pc.Integer) and isinstance(5, pc.Integer)
    for x in (True, 1.0, "1"):
        assert not isinstance(x, pc.Integer)
    assert pc.is_int(3) and not pc.is_int(True)
    with pytest.raises(AssertionError):
        pc.inner_product((1, 2), (3, 4, 5))
    with pytest.raises(AssertionError):
        pc.Layout(4)[1]
    assert issubclass(pc.CompatValueError, ValueError)
    assert issubclass(pc.CompatTypeError, TypeError)


def test_exports_cutlass_names():
    names = ["ABC", "ComposedLayout", "Integer", "Layout", "LayoutBase", "Swizzle", "Union",
             "chain", "coalesce", "complement", "composition", "cosize", "crd2crd", "crd2idx",
             "elem_scale", "filter", "flatten", "has_none", "hier_unzip", "idx2crd",
             "inner_product", "int_tuple", "is_int", "is_layout", "is_tuple", "layout",
             "left_inverse", "logical_divide", "logical_product", "make_layout",
             "prefix_product", "product", "reduce", "right_inverse", "shape_div", "shiftl",
             "shiftr", "signum", "size", "slice_", "slice_and_offset", "swizzle", "tiled_divide",
             "tiled_product", "tuple_max", "typing", "zipped_divide", "zipped_product"]
    for n in names:
        assert hasattr(pc, n), n
    if cutlass_pycute is not None:
        theirs = {n for n in dir(cutlass_pycute) if not n.startswith("_")}
        assert theirs <= set(dir(pc))


def test_make_layout_forms():
    a, b = pc.Layout(2), pc.Layout(3, 2)
    for made in (pc.make_layout(a, b), pc.make_layout([a, b]), pc.make_layout(x for x in [a, b])):
        assert repr(made) == "Layout((2, 3),(1, 2))"
    assert repr(pc.make_layout(a)) == "Layout((2,),(1,))"


# ----------------------------------------------- a CUTLASS-pycute script unchanged

SCRIPT = '''
import rcute.compat.cutlass as pycute
from rcute.compat.cutlass import *

# a row-major 8x16 tile of fp16, split into 4x8 blocks
tile = Layout((8, 16), (16, 1))
blocks = zipped_divide(tile, (4, 8))
out.append(str(blocks))
out.append(blocks.size())

# one row of blocks, and its offset
sub, off = slice_and_offset((None, 1), blocks)
out.append((repr(sub), off))
out.append(repr(tile(None, 3)))

# the thread->value map of a 32-thread copy: threads along rows
thr = Layout((4, 8), (8, 1))
val = Layout((1, 4))
tv = make_layout(thr, val)
out.append(str(tv))
inv = right_inverse(coalesce(tile))
out.append([tile(inv(i)) == i for i in range(size(tile))] == [True] * size(tile))

# the layout of the leftover space, and a composition
out.append(repr(complement(Layout(4, 2), 32)))
out.append(str(composition(tile, Layout((4, 2), (2, 1)))))
out.append(str(logical_product(Layout((2, 2), (1, 2)), Layout(3, 1))))
out.append(str(tiled_divide(tile, (None, 4))))

# a swizzled shared-memory layout
smem = ComposedLayout(Swizzle(3, 3, 3), 0, Layout((8, 64), (64, 1)))
out.append([smem(r, 0) for r in range(8)])
out.append((smem.size(), smem.cosize()))

# helpers
out.append(shape_div((8, 16), 32))
out.append(idx2crd(37, (4, 8)))
out.append(crd2idx((1, 2), (4, 8)))
out.append(crd2crd(13, (4, 8)))
out.append(has_none((1, None)))
try:
    composition(Layout((5, 3), (7, 1)), Layout(7, 1))
    out.append("composed")
except AssertionError:
    out.append("AssertionError")
'''


def test_cutlass_script_unchanged():
    out = []
    exec(SCRIPT, {"out": out})
    assert out == [
        "((4, 8), (2, 2)):((16, 1), (64, 8))",
        128,
        ("Layout(((4, 8),),((16, 1),))", 64),
        "Layout((8,),(16,))",
        "((4, 8), (1, 4)):((8, 1), (1, 1))",
        True,
        "Layout((2, 4),(1, 8))",
        "(4, 2):(32, 16)",
        "((2, 2), 3):((1, 2), 4)",
        "((1, 4), 8, 4):((0, 1), 16, 4)",
        [0, 72, 144, 216, 288, 360, 432, 504],
        (512, 512),
        (1, 4),
        (1, 1),
        9,
        (1, 3),
        True,
        "AssertionError",
    ]


@needs_cutlass
def test_cutlass_script_same_on_cutlass():
    """The script gives the same answers on CUTLASS's pycute, except its
    truncated composition (which rcute refuses)."""
    ours, theirs = [], []
    exec(SCRIPT, {"out": ours})
    exec(SCRIPT.replace("rcute.compat.cutlass", "pycute"), {"out": theirs})
    assert ours[:-1] == theirs[:-1]
    assert theirs[-1] == "composed"


# ---------------------------------------------------------------- the docs page


def test_docs_page_examples():
    text = (ROOT / "docs" / "compat-cutlass.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"compat-cutlass.md block {i}", None, 0)
        runner.run(test, clear_globs=False)
        globs = test.globs  # the next block sees this one's names
    res = runner.summarize(verbose=False)
    assert res.failed == 0 and res.attempted > 0


def test_module_docstrings():
    res = doctest.testmod(pc, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted > 0


# ------------------------------------------------- differential, against CUTLASS


def _rand_shape(rng, depth=2):
    if depth == 0 or rng.random() < 0.5:
        return rng.randint(1, 6)
    return tuple(_rand_shape(rng, depth - 1) for _ in range(rng.randint(1, 3)))


def _rand_stride(rng, shape):
    if isinstance(shape, tuple):
        return tuple(_rand_stride(rng, s) for s in shape)
    return rng.choice([0, 1, 1, 2, 3, 4, 6, 8, 12, 16])


def _compact_stride(rng, shape):
    """Strides of a random permutation of the leaves (injective)."""
    leaves = list(pc.flatten(shape))
    order = list(range(len(leaves)))
    rng.shuffle(order)
    d, strides = 1, [0] * len(leaves)
    for k in order:
        strides[k] = d
        d *= leaves[k]
    it = iter(strides)
    return _rebuild(shape, it)


def _rebuild(shape, it):
    if isinstance(shape, tuple):
        return tuple(_rebuild(s, it) for s in shape)
    return next(it)


def _rand_profile(rng, shape):
    if isinstance(shape, tuple) and rng.random() < 0.7:
        return tuple(_rand_profile(rng, s) for s in shape[: rng.randint(1, len(shape))])
    return rng.choice([None, 1])


def _outcome(fn):
    try:
        return ("ok", fn())
    except AssertionError:
        return ("assert", None)
    except Exception as e:  # noqa: BLE001
        return ("error", type(e).__name__)


def _same(a, b):
    """Compare values of the two modules: layouts by repr."""
    return repr(a) == repr(b)


def _zero_size1(shape, stride):
    if isinstance(shape, tuple):
        return tuple(_zero_size1(s, d) for s, d in zip(shape, stride))
    return 0 if shape == 1 else stride


def _same_but_size1(a, b):
    """Equal layouts up to the strides of size-1 modes (rcute keeps its
    own there, docs/differences.md section 2.5; CUTLASS's are 0)."""
    return (a.shape == b.shape
            and _zero_size1(a.shape, a.stride) == _zero_size1(b.shape, b.stride))


@needs_cutlass
def test_differential_against_cutlass_pycute():
    C = cutlass_pycute
    rng = random.Random(19)
    checked = 0
    for _ in range(400):
        shape = _rand_shape(rng)
        stride = _rand_stride(rng, shape) if rng.random() < 0.5 else _compact_stride(rng, shape)
        lc, lr = C.Layout(shape, stride), pc.Layout(shape, stride)
        n = lc.size()
        # construction, printing, sizes, modes
        assert repr(lc) == repr(lr) and str(lc) == str(lr)
        assert (len(lc), lc.size(), lc.cosize()) == (len(lr), lr.size(), lr.cosize())
        assert C.size(lc) == pc.size(lr) and C.cosize(lc) == pc.cosize(lr)
        for i in range(len(lc)):
            assert _same(lc[i], lr[i])
        # evaluation, at indices and at coordinates (with None slices)
        for i in range(n):
            assert lc(i) == lr(i)
            crd = C.idx2crd(i, shape)
            assert lc(crd) == lr(crd)
            if isinstance(crd, tuple) and len(crd) > 1:
                assert lc(*crd) == lr(*crd)
        for i in rng.sample(range(n, 3 * n + 1), min(5, 2 * n + 1)):  # beyond the size
            assert lc(i) == lr(i)
            assert C.crd2idx(i, shape, stride) == pc.crd2idx(i, shape, stride)
        crd = C.idx2crd(rng.randrange(n), shape)
        sliced = _slice_some(rng, crd)
        assert _same(lc(sliced), lr(sliced))
        assert _same(C.slice_and_offset(sliced, lc), pc.slice_and_offset(sliced, lr))
        assert C.crd2idx(sliced, shape) == pc.crd2idx(sliced, shape)
        assert C.crd2idx(sliced, shape, stride) == pc.crd2idx(sliced, shape, stride)
        assert C.slice_(sliced, shape) == pc.slice_(sliced, shape)
        # idx2crd wraps (also beyond the size), with and without a stride
        for i in rng.sample(range(3 * n + 1), min(10, 3 * n + 1)):
            assert C.idx2crd(i, shape) == pc.idx2crd(i, shape)
            if 0 not in pc.flatten(stride):  # CUTLASS's divides by the stride
                assert C.idx2crd(i, shape, stride) == pc.idx2crd(i, shape, stride)
        # coalesce and filter, with and without a profile
        assert _same(C.coalesce(lc), pc.coalesce(lr))
        assert _same(C.filter(lc), pc.filter(lr))
        prof = _rand_profile(rng, shape)
        if isinstance(prof, tuple) and len(prof) <= len(lc):
            assert _same(C.coalesce(lc, prof), pc.coalesce(lr, prof))
            assert _same(C.filter(lc, prof), pc.filter(lr, prof))
        # complement: equal wherever the layout is one-to-one (rcute refuses the rest)
        max_idx = rng.choice([1, n, 2 * lc.cosize(), 64])
        rc = _outcome(lambda: pc.complement(lr, max_idx))
        if rc[0] == "ok":
            assert _same(C.complement(lc, max_idx), rc[1]), (lr, max_idx)
        else:
            # non-injective, or strides that do not chain: CUTLASS's answer
            # is then not a complement, rcute raises
            assert rc[0] == "assert"
            cc = _outcome(lambda: C.complement(lc, max_idx))
            if cc[0] == "ok":
                cpl = cc[1]
                offsets = [lc(i) + cpl(j) for i in range(n) for j in range(cpl.size())]
                assert cpl.size() == 0 or len(set(offsets)) < len(offsets), (lr, max_idx, cpl)
        # composition with a random B: rcute's result is right wherever A is
        # defined, and agrees with CUTLASS's wherever CUTLASS's is right
        bs = _rand_shape(rng, 1)
        bl = pc.Layout(bs, _rand_stride(rng, bs))
        cc = _outcome(lambda: C.composition(lc, C.Layout(bl.shape, bl.stride)))
        rr = _outcome(lambda: pc.composition(lr, bl))
        if rr[0] == "ok":
            for i in range(bl.size()):
                if bl(i) < n:
                    assert rr[1](i) == lr(bl(i))
                    if cc[0] == "ok" and i < cc[1].size() and cc[1](i) == lc(bl(i)):
                        assert rr[1](i) == cc[1](i)
        else:
            assert rr[0] == "assert"
        # inverses: rcute's are inverses
        ri = pc.right_inverse(lr)
        for i in range(ri.size()):
            assert lr(ri(i)) == i
        li = _outcome(lambda: pc.left_inverse(lr))
        one_to_one = len({lr(i) for i in range(n)}) == n
        if li[0] == "ok" and one_to_one:
            for i in range(n):
                assert li[1](lr(i)) == i
        elif li[0] != "ok":
            assert li[0] == "assert"
        checked += 1
    assert checked == 400


def _slice_some(rng, crd):
    if isinstance(crd, tuple):
        return tuple(_slice_some(rng, c) for c in crd)
    return None if rng.random() < 0.4 else crd


@needs_cutlass
def test_differential_divides_and_helpers():
    C = cutlass_pycute
    rng = random.Random(4)
    for _ in range(300):
        # a rank-2 compact layout and a tiler of divisors / None per mode
        m, k = rng.choice([2, 4, 6, 8, 12]), rng.choice([2, 4, 6, 8, 12])
        stride = _compact_stride(rng, (m, k))
        lc, lr = C.Layout((m, k), stride), pc.Layout((m, k), stride)
        tiler = tuple(rng.choice([None] + [d for d in range(1, e + 1) if e % d == 0])
                      for e in (m, k))
        for name in ("logical_divide", "zipped_divide", "tiled_divide"):
            assert _same_but_size1(getattr(C, name)(lc, tiler), getattr(pc, name)(lr, tiler)), \
                (name, lr, tiler)
        lt = tuple(C.Layout(t) if t is not None else None for t in tiler)
        lt_r = tuple(pc.Layout(t) if t is not None else None for t in tiler)
        assert _same_but_size1(C.zipped_divide(lc, lt), pc.zipped_divide(lr, lt_r))
        assert _same_but_size1(C.composition(lc, tiler), pc.composition(lr, tiler))
        # products by a layout
        b = pc.Layout(rng.choice([2, 3, 4]))
        for name in ("logical_product", "zipped_product", "tiled_product"):
            assert _same_but_size1(getattr(C, name)(lc, C.Layout(b.shape)),
                                   getattr(pc, name)(lr, b)), name
        # integer-tuple helpers
        a = _rand_shape(rng)
        bb = _rand_shape(rng, 1)
        for fn, args in (("shape_div", (a, bb)), ("elem_scale", (a, bb)), ("tuple_max", (a,)),
                         ("signum", (rng.randint(-3, 3),)), ("has_none", (_slice_some(rng, a),)),
                         ("flatten", (a,)), ("product", (a,)), ("prefix_product", (a,)),
                         ("crd2crd", (rng.randrange(C.product(a)), a)),
                         ("crd2crd", (C.idx2crd(rng.randrange(C.product(a)), a), C.product(a), a))):
            x = _outcome(lambda: getattr(C, fn)(*args))
            y = _outcome(lambda: getattr(pc, fn)(*args))
            assert x[0] == y[0] and x[1] == y[1], (fn, args, x, y)
    # swizzles
    for bits in range(0, 4):
        for base in range(0, 4):
            for shift in (-4, -3, -2, -1, 1, 2, 3, 4):
                x = _outcome(lambda: C.Swizzle(bits, base, shift))
                y = _outcome(lambda: pc.Swizzle(bits, base, shift))
                assert x[0] == y[0]
                if x[0] == "ok":
                    sc, sr = x[1], y[1]
                    assert (repr(sc), str(sc), sc.size(), sc.cosize()) == \
                        (repr(sr), str(sr), sr.size(), sr.cosize())
                    assert [sc(i) for i in range(0, 4096, 7)] == [sr(i) for i in range(0, 4096, 7)]
                    cc = C.ComposedLayout(sc, 3, C.Layout((4, 8), (8, 1)))
                    cr = pc.ComposedLayout(sr, 3, pc.Layout((4, 8), (8, 1)))
                    assert (repr(cc), str(cc), cc.size(), cc.cosize(), len(cc)) == \
                        (repr(cr), str(cr), cr.size(), cr.cosize(), len(cr))
                    assert [cc(i) for i in range(32)] == [cr(i) for i in range(32)]
                    assert repr(cc[1]) == repr(cr[1])


def test_stubs_cover_the_module():
    import ast

    stub = pathlib.Path(pc.__file__).with_suffix(".pyi")
    tree = ast.parse(stub.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    assert set(pc.__all__) <= names, set(pc.__all__) - names
    compat_stub = stub.with_name("__init__.pyi")
    assert "cutlass" in compat_stub.read_text()


def test_submodule_imports():
    # CUTLASS's pycute is a package: code imports from its submodules
    from rcute.compat.cutlass.layout import Layout, composition
    from rcute.compat.cutlass.int_tuple import shape_div
    from rcute.compat.cutlass.swizzle import Swizzle
    import rcute.compat.cutlass.typing  # noqa: F401
    assert str(composition(Layout((4, 8), (1, 4)), Layout(4, 2))) == "4:2"
    assert shape_div((12, 4), 3) == (4, 4)
    assert Swizzle(3, 0, 3)(8) == 9
