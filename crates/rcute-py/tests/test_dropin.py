"""The reference's behaviour that rcute's module lacked: the bugs E1-E13 and
the newer API (python-dropin sections 2 and 3). Each test names its item."""

import pytest

import rcute
from rcute import *  # noqa: F401,F403

T = Tensor(ImplicitAccessor(0), Layout(((3, 2), ((2, 3), 2)), ((4, 1), ((2, 15), 100))))


def test_E1_tensors_in_size_shape_rank_depth():
    t = make_tensor(Layout((4, 4), (4, 1)))
    assert (size(t), shape(t), rank(t), depth(t)) == (16, (4, 4), 2, 1)
    assert (shape(T), size(T), rank(T), depth(T)) == (((3, 2), ((2, 3), 2)), 72, 2, 3)
    assert (shape[1](T), size[1](T)) == (((2, 3), 2), 12)

    class Shaped:  # any object with a `shape` (attribute or method)
        def shape(self):
            return (2, 3)

    assert size(Shaped()) == 6 and rank(Shaped()) == 2


def test_E2_tensors_in_the_algebra():
    t = make_tensor(Layout((4, 4), (1, 4)))
    c = coalesce(t)
    assert str(c.layout) == "16:1" and c.accessor is t.accessor
    assert str(coalesce(Tensor(ImplicitAccessor(5), Layout((2, 3), (1, 2))))) == "{5} o 6:1"
    assert str(coalesce_z(Tensor(ImplicitAccessor(5), Layout((2, 3), (1, 2))))) == "{5} o 6:1"
    assert (str(logical_divide[1](Tensor(ImplicitAccessor(0), Layout((3, 8), (1, 3))), Layout(4, 2)))
            == "{0} o (3, (4, 2)):(1, (6, 3))")
    assert (str(composition[0](Tensor(ImplicitAccessor(0), Layout((6, 4), (1, 6))), Layout(3, 2)))
            == "{0} o (3, 4):(2, 6)")
    assert (str(zipped_divide(Tensor(ImplicitAccessor(0), Layout((8, 24), (1, 8))), (4, 8)))
            == "{0} o ((4, 8), (2, 3)):((1, 8), (4, 64))")
    # a tensor as the second operand, or where no hook exists: TypeError
    for f in (lambda: logical_divide(Layout(8, 1), T), lambda: composition(Layout(8, 1), T),
              lambda: complement(T), lambda: right_inverse(T), lambda: coshape(T)):
        with pytest.raises(TypeError):
            f()


def test_E3_colon_in_a_tensor_subscript():
    A = make_tensor(Layout((4, 5, 6)))
    s = A[:, 2, :]
    assert s == A[None, 2, None]
    assert str(s.layout) == "(4, 6):(1, 20)" and s.accessor == A.accessor + 8
    assert str(T[:, 5]) == "{32} o ((3, 2),):((4, 1),)"
    assert str(T[2, ((0, slice(None)), slice(None))]) == "{8} o (3, 2):(15, 100)"
    with pytest.raises(ValueError):
        T[1:2, 0]


def test_E4_assigning_to_a_slice_is_a_value_error():
    t = make_tensor(Layout((2, 3)))
    for crd in ((1, None), (1, slice(None)), None):
        with pytest.raises(ValueError):
            t[crd] = 0


def test_E5_ptr_over_a_strided_numpy_view():
    np = pytest.importorskip("numpy")
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    t = Tensor(Ptr(a[:, ::2]), Layout((3, 2), (4, 2)))
    assert [[t[i, j] for j in range(2)] for i in range(3)] == [[0, 2], [4, 6], [8, 10]]
    t[1, 1] = 60
    assert a[1, 2] == 60


def test_E6_compatible_and_refinement_with_nested_layouts():
    assert compatible((Layout(3, 3), Layout((2, 4), (1, 8))), (3, (2, 4)))
    assert common_refinement((Layout(6), 4), (6, (2, 2))) == (6, (2, 2))
    assert common_coarsening((Layout((2, 3)), 4), (6, (2, 2))) == (6, 4)


def test_E7_and_2_8_congruence_every_non_tuple_is_a_leaf():
    assert weakly_congruent(Layout((8, 2), (1, 16)), 0)
    assert not congruent(Layout((8, 2)), (1, 1))
    assert congruent((Layout(2), Layout(3)), (0, 0))
    assert congruent(E(0), 10) and congruent(10, E(0)) and congruent(E(1, 0), 10)
    assert congruent(ArithTuple(1, 2), 5)
    assert not congruent(E(0), (10, 20)) and not congruent((10, 20), E(0))
    assert congruent((10, 20), make_basis_like((10, 20)))
    assert weakly_congruent(E(0, 0), 10) and weakly_congruent(ArithTuple((1, 1, 1)), (8, 8))
    assert not weakly_congruent((1, 2), E(0))


def test_E8_and_2_6_make_layout_of_any_iterable_and_the_empty_layout():
    assert str(make_layout(Layout(2, 1) for _ in range(2))) == "(2, 2):(1, 1)"
    assert str(make_layout(iter([Layout(2, 1)]))) == "(2,):(1,)"
    for e in (make_layout([]), make_layout(()), make_layout()):
        assert str(e) == "():()" and size(e) == 1 and e() == 0


def test_E9_layout_add_with_none():
    assert str(layout_add(None, Layout(2, 1))) == "2:1"
    assert str(layout_add(Layout(2, 1), None)) == "2:1"


def test_E10_make_tensor_of_a_coordinate_codomain():
    with pytest.raises(ValueError):
        make_tensor(Layout((2, 2), (E(0), E(1))))
    with pytest.raises(ValueError):
        make_tensor("(2,2)")
    assert size(make_tensor([2, 3])) == 6


def test_E11_tensor_repr():
    assert repr(Tensor(ImplicitAccessor(0), Layout((2, 3)))) == "Tensor({0}, (2, 3):(1, 2))"
    assert str(Tensor(ImplicitAccessor(0), Layout((2, 3)))) == "{0} o (2, 3):(1, 2)"


def test_E12_tensor_get():
    assert str(T.get((1, 0))) == "{0} o (2, 3):(2, 15)"
    assert str(get[1, 0](T)) == "{0} o (2, 3):(2, 15)"
    assert str(get(T, mode=(1, 0))) == "{0} o (2, 3):(2, 15)"


def test_E13_tensor_subscript_none_wraps():
    assert str(T[None]) == "{0} o (((3, 2), ((2, 3), 2)),):(((4, 1), ((2, 15), 100)),)"


def test_2_2_profile():
    assert profile((2, (3, 4))) == (2, (3, 4))
    assert profile(42) == 42
    assert profile(Layout((2, (3, 4)))) == (2, (3, 4))
    assert profile(T) == ((3, 2), ((2, 3), 2))
    assert profile((Layout(2), Layout(3))) == (Layout(2), Layout(3))
    obj = [2, [3, 4]]
    assert profile(obj) is obj and profile(None) is None


def test_2_3_replace():
    assert replace[1]((1, 2, 3), 42) == (1, 42, 3)
    assert replace[0, 2](((1, 2, 3), 4), 42) == ((1, 2, 42), 4)
    assert replace((1, 2), 42) == 42
    assert replace[1](repeat_like(None, (3, 4)), 42) == (None, 42)
    assert replace[1](repeat_like(None, ((3, 8), 5)), Layout(5, 1)) == ((None, None), Layout(5, 1))
    assert replace[0](5, 9) == (9,) and replace[0, 0]((1, 2), 9) == ((9,), 2)
    assert replace[1]([1, 2, 3], 9) == (1, 9, 3)
    with pytest.raises(ValueError):
        replace[2]((1, 2), 42)
    # departure: a negative index counts from the end, as for `get`
    assert replace[-1]((1, 2, 3), 9) == (1, 2, 9)
    for m, x in (((1,), (1, 2, 3)), ((0, 1), ((1, 2), 3)), ((-1,), (1, 2, 3))):
        assert get(replace(x, 42, mode=m), m) == 42


def test_2_7_stride_and_shape_of_plain_values():
    assert stride((1, (4, 8))) == (1, (4, 8))
    assert stride[1]((1, (4, 8))) == (4, 8)
    assert stride(5) == 5 and stride(E(0)) == E(0) and stride(F2(3)) == F2(3)
    assert stride(None) is None and stride([1, 2]) == (1, 2)
    assert shape(None) is None
    assert stride(T) == ((4, 1), ((2, 15), 100))


def test_2_15_private_hooks():
    L = Layout((4, 4), (4, 1))
    assert L._offset_and_slice((1, None)) == (4, Layout((4,), (1,)))
    assert L._offset_and_slice((None, 2)) == (2, Layout((4,), (4,)))
    assert L._offset_and_slice((None, None)) == (0, L)
    assert L._offset_and_slice((1, 2)) == (6, make_layout([]))
    assert L._offset_and_slice(None) == (0, make_layout([L]))
    assert str(Layout((2, 3), (1, 2))._coalesce()) == "6:1"
    assert Layout((2, 3))._composition(Layout(3, 2)) == composition(Layout((2, 3)), Layout(3, 2))
    assert Layout._set((2, 3), (1, 2)) == Layout((2, 3), (1, 2))
