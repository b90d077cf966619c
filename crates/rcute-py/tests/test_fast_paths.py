"""The typed fast paths give exactly what the generic path gives.

`_rcute._set_fast_paths(False)` sends every call through the generic path
(notation values and the operation dispatcher); each check below evaluates
the same call both ways and requires the same printed value, the same
Python type, or the same exception type and message."""

import contextlib
import sys

import pytest

import rcute
from rcute import _rcute
from rcute import *  # noqa: F401,F403

from notation_driver import run
from test_vectors import CASES


@contextlib.contextmanager
def generic_path():
    before = _rcute._set_fast_paths(False)
    try:
        yield
    finally:
        _rcute._set_fast_paths(before)


def outcome(f):
    try:
        v = f()
    except Exception as e:  # the exception is part of the outcome
        return ("raise", type(e).__name__, str(e))
    return ("value", type(v).__name__, repr(v), str(v))


def same_both_ways(f):
    fast = outcome(f)
    with generic_path():
        generic = outcome(f)
    assert fast == generic
    return fast


def test_switch_is_on_by_default_and_restores():
    assert _rcute._set_fast_paths(True) is True
    with generic_path():
        assert _rcute._set_fast_paths(False) is False
    assert _rcute._set_fast_paths(True) is True


def test_vectors_identical_through_both_paths():
    """Every conformance vector, values and error messages alike."""
    differ = []
    for case in CASES:
        fast = run(case["expr"])
        with generic_path():
            generic = run(case["expr"])
        if fast != generic:
            differ.append((case["expr"], fast, generic))
    report = "\n".join(f"{e}\n  fast    {f}\n  generic {g}" for e, f, g in differ[:20])
    assert not differ, f"{len(differ)} vectors differ:\n{report}"


class IntSub(int):
    pass


class TupleSub(tuple):
    pass


A = Layout((4, 8), (1, 4))
TV = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))
DEEP = 1
for _ in range(20):
    DEEP = (DEEP,)

ARGUMENTS = [
    (4, 8), ((2, 2), (3, 4)), 24, (), ((),), (0, 4), (-3, 2), (True, 2), (IntSub(4), 8),
    TupleSub((4, 8)), [4, 8], (2**62, 4), (2**63, 2), 2**70, (None, 2), None, (1.5, 2), "x",
    DEEP, (4, (2, DEEP)), A, TV, (A, 2), (A, None), (4, E(1)), (F2(3), 2), ArithTuple(3, 5),
]


@pytest.mark.parametrize("shape", ARGUMENTS, ids=repr)
def test_layout_constructor(shape):
    same_both_ways(lambda: Layout(shape))
    for stride in ARGUMENTS:
        same_both_ways(lambda: Layout(shape, stride))
        L = outcome(lambda: Layout(shape, stride))
        if L[0] == "value" and L[1] == "Layout":
            lay = Layout(shape, stride)
            same_both_ways(lambda: lay.shape)
            same_both_ways(lambda: lay.stride)


# (shape, stride) pairs read together into the layout's storage: strides
# weakly congruent to the shape (an integer seeding the prefix products of a
# sub-shape), products at the edge of 64 bits (the last extent of a seeded
# sub-shape is not multiplied), and the errors of each form
PAIRS = [
    (((2, 3), 4), (7, 100)), (((2, 3), 4), 5), (((2, 3), (4, 5)), ((1, 2), 7)),
    (((2, 3), (4, 5)), (1, (2, 3, 4))), ((2, 3), ((1, 2), 3)), (((2, 3), 4), (E(0), 1)),
    (((2, 3), 4), (F2(1), 4)), ((2, 3), E(1)), ((4, (0, 2)), (1, 3)), ((4, (0, 2)), 1),
    ((2**40, 2**23), 1), ((2**40, 2**23), 2**0), ((2**40, 2**23, 2), 1), ((2**62, 4), 4),
    ((4, 2**62), 4), ((4, 8), (1, 2**63)), ((4, 8), (1, -2**63)), ((4, 8), (1, 2**63 - 1)),
    (tuple(range(1, 5001)), 1), (tuple([1] * 4096), tuple(range(4096))), (((),), ((),)),
    (((), 3), ((), 1)), (((), 3), 1), (DEEP, 1), (DEEP, DEEP), ((4, 8), [1, 4]),
    (TupleSub((4, TupleSub((2, 2)))), (1, (4, 8))), ((4, IntSub(8)), (IntSub(1), True)),
]


@pytest.mark.parametrize("shape,stride", PAIRS, ids=repr)
def test_layout_constructor_pairs(shape, stride):
    same_both_ways(lambda: Layout(shape, stride))
    same_both_ways(lambda: Layout(shape))
    same_both_ways(lambda: Layout(stride))
    got = outcome(lambda: Layout(shape, stride))
    if got[0] == "value":
        lay = Layout(shape, stride)
        same_both_ways(lambda: (lay.shape, lay.stride))


@pytest.mark.parametrize("x", ARGUMENTS, ids=repr)
def test_queries_and_evaluation(x):
    for op in (size, rank, depth, cosize, shape, stride, coalesce, right_inverse, left_inverse,
               nullspace, make_layout_like, filter_zeros, filter, coalesce_z):
        same_both_ways(lambda: op(x))
    for L in (A, TV, Layout(((2, 3), 4), ((1, 2), 100)), Layout((4, 8), (E(0), E(1))),
              Layout((4, 8), (F2(1), F2(8)))):
        same_both_ways(lambda: L(x))
        same_both_ways(lambda: L(x, x))
        same_both_ways(lambda: L(x, 1, 2))


@pytest.mark.parametrize("b", ARGUMENTS, ids=repr)
def test_binary_operations(b):
    for a in (A, TV, Layout(24, 1), Layout((6, 2), (8, 2)), Layout((2, 2), (1, 1)), (4, 8), 12,
              None):
        for op in (composition, logical_divide, zipped_divide, tiled_divide, flat_divide,
                   logical_product, zipped_product, tiled_product, flat_product,
                   blocked_product, raked_product, coalesce, coalesce_z, filter, complement,
                   layout_add, max_common_layout, max_common_vector, greatest_common_domain,
                   make_ordered_layout, upcast, downcast, recast, idx2crd, crd2idx):
            same_both_ways(lambda: op(a, b))
            same_both_ways(lambda: op(b, a))


def test_keywords_and_counts():
    L = Layout((2, 2), (1, 6))
    for call in (
        lambda: complement(L, extend=24),
        lambda: complement(L, extend=(4, 8)),
        lambda: complement(L, extend=None),
        lambda: complement(L, extend=A),
        lambda: complement(L, extend=[4, 8]),
        lambda: complement(L, 24, extend=24),
        lambda: complement(L, extent=24),
        lambda: complement(A=L, extend=24),
        lambda: composition(A=L, B=L),
        lambda: composition(L),
        lambda: composition(L, L, L),
        lambda: size(),
        lambda: size(L, L),
        lambda: coalesce(L, profile=(1, 1)),
        lambda: idx2crd(5, shape=(2, 3)),
        lambda: size[0](TV),
        lambda: composition[0](TV, Layout(2, 1)),
    ):
        same_both_ways(call)


def test_numpy_integers_take_the_generic_path():
    np = pytest.importorskip("numpy")
    same_both_ways(lambda: Layout((np.int64(4), 8), (1, np.int32(4))))
    same_both_ways(lambda: idx2crd(np.int64(7), (2, 4)))


def test_results_are_fresh_objects():
    # a layout result is a new object holding its own layout
    B = coalesce(A)
    assert B is not A and B == Layout(32, 1)
    assert composition(A, Layout(4, 1)) == Layout(4, 1)
    assert A == Layout((4, 8), (1, 4))
    assert sys.getrefcount(A) >= 2


def test_shape_and_stride_made_once_per_layout():
    # a layout never changes: its .shape and .stride are made at the first
    # read and the same objects are returned after, without leaking a
    # reference per read; the layout releases them when it goes
    L = Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))
    s, d = L.shape, L.stride
    assert (s, d) == (((4, 8), (2, 2)), ((32, 1), (16, 8)))  # as constructed
    held = sys.getrefcount(s), sys.getrefcount(d)
    for _ in range(100):
        assert L.shape is s and L.stride is d
    assert (sys.getrefcount(s), sys.getrefcount(d)) == held
    del L
    assert (sys.getrefcount(s), sys.getrefcount(d)) == (held[0] - 1, held[1] - 1)
    M = Layout((4, 8), (E(0), F2(3)))
    assert M.stride is M.stride
    same_both_ways(lambda: (M.shape, M.stride))
    # read-only attributes with their docstrings, as before
    assert Layout.shape.__doc__ == "The shape, as a Python int or tuple."
    assert Layout.stride.__doc__.startswith("The stride, as a Python tuple")
    with pytest.raises(AttributeError):
        A.shape = (4, 8)
    with pytest.raises(TypeError):
        Layout.shape.__get__(3)


# coordinates walked against the shape without being built: ints against
# leaves and against sub-shapes (split into digits), None (0), negative
# ints, products and sums at the edge of 64 bits, other profiles
COORDS = [
    (3, 5), ((3, 5), (1, 1)), (17, 3), ((3, 5), 3), (None, (1, 1)), ((None, 2), None),
    (-1, 2), ((3, -5), (1, 1)), (2**62, 1), (2**63 - 1, 0), (1, 2**62), ((1, 2), (3, 4, 5)),
    (((1, 2),), 3), (True, (False, 1)), ((3, 5), (1, 1), 0), (1,), (), (IntSub(3), 5),
    TupleSub((3, 5)), (3, E(0)), (3, F2(1)), (3, 1.0), (3, [1]), (2**64, 0),
]


@pytest.mark.parametrize("c", COORDS, ids=repr)
def test_evaluation_at_tuples(c):
    for L in (A, TV, Layout((4, (4, 2)), (4, (1, 16))), Layout(((2, 3), 4), ((1, 2), 100)),
              Layout((2**40, 2**40), (2**22, 2**23)), Layout((4, 8), (-2**62, 2**62)),
              Layout((4, 8), (E(0), E(1))), Layout((4, 8), (1, F2(8))), Layout(24, 1)):
        same_both_ways(lambda: L(c))
        same_both_ways(lambda: L(*c) if isinstance(c, tuple) else L(c))


def test_layouts_built_where_earlier_ones_were():
    # the storage of a layout that goes is reused for the next ones: each new
    # layout (built from tuples or by an operation) holds exactly its value,
    # whatever the earlier layout held (coordinate strides, more modes)
    kinds = [((4, 8), (E(0), E(1))), (((4, 8), (2, 2)), ((32, 1), (16, 8))), (24, 1),
             ((2, 3, 4, 5, 6, 7, 8, 9, 10), 1), ((4, (4, 2)), (4, (1, 16))), ((), ())]
    for _ in range(3):
        made = [Layout(s, d) for s, d in kinds]
        made += [coalesce(x) for x in made] + [complement(made[2], 48), right_inverse(made[1])]
        texts = [str(x) for x in made]
        del made
        with generic_path():
            expected = [str(Layout(s, d)) for s, d in kinds]
            expected += [str(coalesce(Layout(s, d))) for s, d in kinds]
            expected += [str(complement(Layout(24, 1), 48)), str(right_inverse(Layout(*kinds[1])))]
        assert texts == expected
