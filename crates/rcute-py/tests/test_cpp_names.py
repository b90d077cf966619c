"""C++ CuTe's names in the Python module (issue 16); the C++ expression
each result was checked against is in crates/rcute/tests/all/cpp_names.rs."""

import pytest

import rcute


def test_make_layout_forms():
    assert str(rcute.make_layout((4, 8), (8, 1))) == "(4, 8):(8, 1)"
    assert str(rcute.make_layout((4, (2, 3)))) == "(4, (2, 3)):(1, (4, 8))"
    assert str(rcute.make_layout()) == "():()"
    a, b = rcute.Layout(3, 1), rcute.Layout(2, 42)
    assert str(rcute.make_layout(a, b)) == "(3, 2):(1, 42)"
    with pytest.raises(TypeError):
        rcute.make_layout((4, 8), a)


def test_make_tuples():
    assert rcute.make_shape(4, 8) == (4, 8)
    assert rcute.make_shape(4) == (4,)
    assert rcute.make_stride(8, 1) == (8, 1)
    assert rcute.make_coord(1, None) == (1, None)
    assert rcute.make_tile(4, 8) == (4, 8)
    with pytest.raises(TypeError):
        rcute.make_shape(4, None)


def test_three_argument_idx2crd_crd2idx():
    assert rcute.idx2crd(7, (3, 8), (8, 1)) == (0, 7)
    assert rcute.idx2crd(17, (3, (2, 4)), 2) == (2, (0, 1))
    assert rcute.crd2idx((1, 2), (3, 8), (8, 1)) == 10
    assert rcute.crd2idx(29, (3, 8), (8, 1)) == 25
    assert rcute.idx2crd(16, (3, (2, 3))) == (1, (1, 2))
    with pytest.raises(ValueError):
        rcute.idx2crd(7, (3, 0))
    with pytest.raises(ValueError):
        rcute.idx2crd(7, 3, 0)


def test_get_append_prepend_group():
    layout = rcute.Layout(((6, 2), 5), ((8, 2), 1))
    assert str(rcute.get(layout, 0, 1)) == "2:2"
    assert rcute.get((1, (2, 3)), 1, 0) == 2
    assert rcute.append((1, 2), 3) == (1, 2, 3)
    assert rcute.append((1, 2), 0, 4) == (1, 2, 0, 0)
    assert rcute.prepend((1, 2), 3) == (3, 1, 2)
    assert str(rcute.append(rcute.Layout(8, 1), rcute.Layout(4, 8))) == "(8, 4):(1, 8)"
    assert rcute.group((1, 2, 3, 4), (1, 3)) == (1, (2, 3), 4)
    assert str(rcute.group[1, 3](rcute.Layout((2, 3, 4, 5)))) == "(2, (3, 4), 5):(1, (2, 6), 24)"
    with pytest.raises(IndexError):
        rcute.group((1, 2, 3), (0, 4))


def test_tiling_helpers():
    d = rcute.logical_divide(rcute.Layout((12, 32)), (4, 8))
    assert str(rcute.tile_unzip(d, (4, 8))) == "((4, 8), (3, 4)):((1, 12), (4, 96))"
    block = rcute.Layout((8, 8), (8, 1))
    assert str(rcute.tile_to_shape(block, (32, 64))) == "((8, 4), (8, 8)):((8, 64), (1, 256))"
    assert str(rcute.tile_to_shape(block, (32, 64), (2, 1))) == "((8, 4), (8, 8)):((8, 512), (1, 64))"
    assert str(rcute.domain_distribute((15, 14), 6)) == "(3, 2):(1, 15)"
    with pytest.raises(ValueError):
        rcute.tile_to_shape(block, (36, 64))


def test_local_tile_and_partition():
    d = rcute.Layout((8, 24))
    assert str(rcute.local_tile(d, (4, 8), (1, 2))) == "{132} o (4, 8):(1, 8)"
    t = rcute.Layout((16, 64))
    assert str(rcute.local_partition(t, rcute.Layout((2, 16)), 17)) == "{129} o (8, 4):(2, 256)"


def test_edge_cases():
    assert rcute.cosize(rcute.Layout(8, -1)) == 8
    assert str(rcute.zipped_divide(rcute.Layout(12, 1), (12,))) == "((12,), (1,)):((1,), (12,))"
    for bad in (lambda: rcute.Swizzle(40, 40, 40), lambda: rcute.E(-1), lambda: rcute.F2(-1)):
        with pytest.raises(ValueError):
            bad()
    assert rcute.eval_notation_str("E(-1)").startswith("error: value:")


def test_select_take_flatten():
    # C++: select<1,0>(A) = (5,(6,2)):(1,(8,2)) and take<0,1>(A) = ((6,2)):((8,2)) with
    # A = make_layout(make_shape(make_shape(6,2),5), make_stride(make_stride(8,2),1));
    # rcute gives the tuple of modes (the reference's rule), make_layout of it is C++'s
    a = rcute.Layout(((6, 2), 5), ((8, 2), 1))
    assert str(rcute.make_layout(*rcute.select(a, (1, 0)))) == "(5, (6, 2)):(1, (8, 2))"
    assert str(rcute.make_layout(*rcute.take(a, (0, 1)))) == "((6, 2),):((8, 2),)"
    # C++: flatten(A) = (6,2,5):(8,2,1); flatten(make_shape(make_shape(1,2),make_shape(3,make_shape(4)))) = (1,2,3,4)
    assert str(rcute.flatten(a)) == "(6, 2, 5):(8, 2, 1)"
    assert rcute.flatten(((1, 2), (3, (4,)))) == (1, 2, 3, 4)
    with pytest.raises(IndexError):
        rcute.take(a, (0, 3))


def test_unknown_names_suggest():
    with pytest.raises(AttributeError, match="did you mean 'make_layout'"):
        rcute.make_layot
    with pytest.raises(AttributeError, match="did you mean 'local_tile'"):
        rcute.local_til
    assert not hasattr(rcute, "no_such_thing_at_all")
    assert rcute.eval_notation_str("make_layot((4,8),(8,1))").endswith("(did you mean 'make_layout'?)")
