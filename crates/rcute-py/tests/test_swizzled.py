"""Swizzled layouts (C++ `ComposedLayout<Swizzle, offset, Layout>`) in the
Python module (issue 16): every operation of the issue, each beside the C++
expression it was checked against (compiled with g++ -std=c++17 against the
CUTLASS 4.2 headers that scripts/cute-headers.sh fetches, printed with
`cute::print`), with

    L    = Layout<Shape<_8,_64>,Stride<_64,_1>>{}
    S    = composition(Swizzle<3,3,3>{}, L)
    S343 = composition(Swizzle<3,4,3>{}, L)
    SO   = composition(Swizzle<3,3,3>{}, Int<64>{}, L)

rcute prints no static markers `_` and no zero offset; size-1 modes keep
rcute's strides (docs/differences.md, 2.5 and 2.7)."""

from fractions import Fraction

import pytest

import rcute
from rcute import (Layout, Swizzle, ComposedLayout, composition, size, cosize, shape, rank, depth,
                   get, slice_and_offset, logical_divide, zipped_divide, tiled_divide, flat_divide,
                   logical_product, blocked_product, raked_product, tile_to_shape, upcast, downcast,
                   recast, coalesce, right_inverse, left_inverse, local_tile, local_partition, take,
                   select, append, prepend, group, flatten, bank_conflicts)

L = Layout((8, 64), (64, 1))
S = composition(Swizzle(3, 3, 3), L)
S343 = composition(Swizzle(3, 4, 3), L)
SO = composition(Swizzle(3, 3, 3), 64, L)


def test_values_and_queries():
    assert isinstance(S, ComposedLayout)
    assert str(S) == "SW_3_3_3 o (8, 64):(64, 1)"  # C++: Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
    assert str(SO) == "SW_3_3_3 o 64 o (8, 64):(64, 1)"  # C++: Sw<3,3,3> o _64 o (_8,_64):(_64,_1)
    # C++: S(1,9) = 65, S(3,5) = 221, S(100) = 300, SO(1,2) = 146, SO(100) = 356
    assert (S(1, 9), S((3, 5)), S(100), SO(1, 2), SO(100)) == (65, 221, 300, 146, 356)
    # C++: size(S) = _512, cosize(S) = _512, shape(S) = (_8,_64), rank(S) = _2, depth(S) = _1
    assert (size(S), cosize(S), shape(S), rank(S), depth(S)) == (512, 512, (8, 64), 2, 1)
    # cosize(SO): C++ answers the inner layout's _512; rcute the largest offset + 1
    # (docs/differences.md 2.7)
    assert cosize(SO) == 576
    # C++: get<0>(S) = Sw<3,3,3> o _0 o _8:_64, layout<1>(S) = Sw<3,3,3> o _0 o _64:_1
    assert str(get(S, 0)) == "SW_3_3_3 o 8:64"
    assert str(S[1]) == "SW_3_3_3 o 64:1" and len(S) == 2
    assert [str(m) for m in S] == ["SW_3_3_3 o 8:64", "SW_3_3_3 o 64:1"]
    assert S == composition(Swizzle(3, 3, 3), Layout((8, 64), (64, 1))) and S != SO
    with pytest.raises(IndexError):
        S[2]


def test_slices():
    # C++: slice_and_offset(make_coord(1,_), S) = (((_8,_2,_2,_2)):((_1,-8,16,32)),72)
    sub, off = slice_and_offset(S, (1, None))
    assert str(sub) == "((8, 2, 2, 2),):((1, -8, 16, 32),)" and off == 72
    assert all(sub(k) + off == S(1, k) for k in range(64))
    # C++: slice_and_offset(make_coord(_,9), S) = (((_2,_2,_2)):((56,144,288)),9)
    sub, off = slice_and_offset(S, (None, 9))
    assert str(sub) == "((2, 2, 2),):((56, 144, 288),)" and off == 9
    # C++: slice_and_offset(make_coord(_,_), SO) = (Sw<3,3,3> o _64 o (_8,_64):(_64,_1),_0)
    sub, off = slice_and_offset(SO, (None, None))
    assert sub == SO and off == 0
    # C++ answers SO(_,1) with ((_2,_2,_2)):((72,144,288)) at 73, which is 577 at 7
    # where SO(7,1) = 513; rcute keeps the offset in the swizzle (differences.md 2.7)
    sub, off = slice_and_offset(SO, (None, 1))
    assert str(sub) == "SW_3_3_3 o 65 o (8,):(64,)" and off == 0
    assert all(sub(k) + off == SO(k, 1) for k in range(8))


def test_composition_divides_products():
    # C++: composition(S, Layout<Shape<_4,_8>,Stride<_8,_1>>{}) = Sw<3,3,3> o _0 o (_4,_8):(_1,_64)
    assert str(composition(S, Layout((4, 8), (8, 1)))) == "SW_3_3_3 o (4, 8):(1, 64)"
    # C++: composition(S, make_tile(Layout<_4,_2>{}, Layout<_8,_1>{})) = Sw<3,3,3> o _0 o (_4,_8):(_128,_1)
    assert str(composition(S, (Layout(4, 2), Layout(8, 1)))) == "SW_3_3_3 o (4, 8):(128, 1)"
    # C++: composition(SO, Layout<Shape<_4,_8>,Stride<_8,_1>>{}) = Sw<3,3,3> o _64 o (_4,_8):(_1,_64)
    assert str(composition(SO, Layout((4, 8), (8, 1)))) == "SW_3_3_3 o 64 o (4, 8):(1, 64)"
    # C++: logical_divide(S, make_tile(_8{},_8{})) = Sw<3,3,3> o _0 o ((_8,_1),(_8,_8)):((_64,_0),(_1,_8))
    assert str(logical_divide(S, (8, 8))) == "SW_3_3_3 o ((8, 1), (8, 8)):((64, 512), (1, 8))"
    # C++: zipped_divide(...) = Sw<3,3,3> o _0 o ((_8,_8),(_1,_8)):((_64,_1),(_0,_8))
    assert str(zipped_divide(S, (8, 8))) == "SW_3_3_3 o ((8, 8), (1, 8)):((64, 1), (512, 8))"
    # C++: tiled_divide(...) = Sw<3,3,3> o _0 o ((_8,_8),_1,_8):((_64,_1),_0,_8)
    assert str(tiled_divide(S, (8, 8))) == "SW_3_3_3 o ((8, 8), 1, 8):((64, 1), 512, 8)"
    # C++: flat_divide(...) = Sw<3,3,3> o _0 o (_8,_8,_1,_8):(_64,_1,_0,_8)
    assert str(flat_divide(S, (8, 8))) == "SW_3_3_3 o (8, 8, 1, 8):(64, 1, 512, 8)"
    # C++: logical_divide(SO, make_tile(_8{},_8{})) = Sw<3,3,3> o _64 o ((_8,_1),(_8,_8)):((_64,_0),(_1,_8))
    assert str(logical_divide(SO, (8, 8))) == "SW_3_3_3 o 64 o ((8, 1), (8, 8)):((64, 512), (1, 8))"
    d = logical_divide(S, (8, 8))
    assert all(d(i) == S(i) for i in range(512))
    # C++: logical_product(S, Layout<Shape<_2,_3>>{}) = Sw<3,3,3> o _0 o ((_8,_64),(_2,_3)):((_64,_1),(_512,_1024))
    b = Layout((2, 3))
    assert str(logical_product(S, b)) == "SW_3_3_3 o ((8, 64), (2, 3)):((64, 1), (512, 1024))"
    # C++: blocked_product(S, ...) = Sw<3,3,3> o _0 o ((_8,_2),(_64,_3)):((_64,_512),(_1,_1024))
    assert str(blocked_product(S, b)) == "SW_3_3_3 o ((8, 2), (64, 3)):((64, 512), (1, 1024))"
    # C++: raked_product(S, ...) = Sw<3,3,3> o _0 o ((_2,_8),(_3,_64)):((_512,_64),(_1024,_1))
    assert str(raked_product(S, b)) == "SW_3_3_3 o ((2, 8), (3, 64)):((512, 64), (1024, 1))"
    # C++: tile_to_shape(S, Shape<_32,_128>{}) = Sw<3,3,3> o _0 o ((_8,_4),(_64,_2)):((_64,_512),(_1,_2048))
    assert str(tile_to_shape(S, (32, 128))) == "SW_3_3_3 o ((8, 4), (64, 2)):((64, 512), (1, 2048))"
    # C++: tile_to_shape(S, Shape<_32,_128>{}, Step<_2,_1>{})
    #   = Sw<3,3,3> o _0 o ((_8,_4),(_64,_2)):((_64,_1024),(_1,_512))
    assert (str(tile_to_shape(S, (32, 128), (2, 1)))
            == "SW_3_3_3 o ((8, 4), (64, 2)):((64, 1024), (1, 512))")
    # C++: tile_to_shape(S, Shape<_128,_64>{}) = Sw<3,3,3> o _0 o ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))
    assert str(tile_to_shape(S, (128, 64))) == "SW_3_3_3 o ((8, 16), (64, 1)):((64, 512), (1, 8192))"


def test_layout_after_swizzle():
    # C++: composition(L, S) = Sw<3,0,3> o _0 o (_8,(_8,_8)):(_8,(_64,_1))
    assert str(composition(L, S)) == "SW_3_0_3 o (8, (8, 8)):(8, (64, 1))"
    # C++: composition(Layout<_512,_2>{}, S) = Sw<3,4,3> o _0 o (_8,_64):(_128,_2)
    assert str(composition(Layout(512, 2), S)) == "SW_3_4_3 o (8, 64):(128, 2)"
    # C++: composition(L, Swizzle<3,3,3>{}) = Sw<3,0,3> o _0 o (_8,_64):(_64,_1)
    assert str(composition(L, Swizzle(3, 3, 3))) == "SW_3_0_3 o (8, 64):(64, 1)"
    c = composition(L, S)
    assert all(c(i) == L(S(i)) for i in range(512))
    # C++: composition(Layout<Shape<_8,_64>,Stride<_72,_1>>{}, S) is the wrong
    # Sw<3,0,3> o _0 o (_8,(_8,_8)):(_8,(_72,_1)); rcute reports it
    with pytest.raises(ValueError, match="divisibility"):
        composition(Layout((8, 64), (72, 1)), S)
    # C++ requires the offset 0
    with pytest.raises(ValueError, match="offset"):
        composition(L, SO)


def test_casts_coalesce_inverses():
    # C++: upcast<2>(S) = Sw<3,2,3> o _0 o (_8,_32):(_32,_1)
    assert str(upcast(S, 2)) == "SW_3_2_3 o (8, 32):(32, 1)"
    # C++: upcast<2>(S343) = Sw<3,3,3> o _0 o (_8,_32):(_32,_1)
    assert str(upcast(S343, 2)) == "SW_3_3_3 o (8, 32):(32, 1)"
    # C++: downcast<2>(S) = Sw<3,4,3> o _0 o (_8,_128):(_128,_1); downcast<2>(S343) = Sw<3,5,3> o ...
    assert str(downcast(S, 2)) == "SW_3_4_3 o (8, 128):(128, 1)"
    assert str(downcast(S343, 2)) == "SW_3_5_3 o (8, 128):(128, 1)"
    # C++: recast_layout<half_t,float>(S) = Sw<3,2,3> o _0 o (_8,_32):(_32,_1)
    assert str(recast(S, 2)) == "SW_3_2_3 o (8, 32):(32, 1)"
    # C++: recast_layout<float,half_t>(S) = Sw<3,4,3> o _0 o (_8,_128):(_128,_1)
    assert str(recast(S, Fraction(1, 2))) == "SW_3_4_3 o (8, 128):(128, 1)"
    # C++: upcast<2>(SO) = Sw<3,2,3> o _32 o (_8,_32):(_32,_1); downcast<2>(SO) = Sw<3,4,3> o _128 o ...
    assert str(upcast(SO, 2)) == "SW_3_2_3 o 32 o (8, 32):(32, 1)"
    assert str(downcast(SO, 2)) == "SW_3_4_3 o 128 o (8, 128):(128, 1)"
    d = downcast(S343, 4)
    u = upcast(d, 4)
    assert all(u(i) == S343(i) for i in range(512))
    # C++: coalesce(composition(Swizzle<3,3,3>{}, Layout<Shape<_2,_4,_8>,Stride<_1,_2,_8>>{}))
    #   = Sw<3,3,3> o _0 o _64:_1; coalesce(SO) = Sw<3,3,3> o _64 o (_8,_64):(_64,_1)
    assert str(coalesce(composition(Swizzle(3, 3, 3), Layout((2, 4, 8), (1, 2, 8))))) == "SW_3_3_3 o 64:1"
    assert coalesce(SO) == SO
    # C++: right_inverse(S) = left_inverse(S) = Sw<3,0,-6> o _0 o (_64,_8):(_8,_1); right_inverse(S)(100) = 353
    assert str(right_inverse(S)) == "SW_3_0_-6 o (64, 8):(8, 1)"
    assert str(left_inverse(S)) == "SW_3_0_-6 o (64, 8):(8, 1)"
    assert right_inverse(S)(100) == 353
    # C++: right_inverse(logical_divide(S, make_tile(_8{},_8{}))) = Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)
    assert str(right_inverse(logical_divide(S, (8, 8)))) == "SW_3_0_-6 o (64, 8):(8, 1)"
    # C++: right_inverse(S343) does not compile; rcute answers through the F2 form
    r = right_inverse(S343)
    assert str(r) == "(64, 2, 4):(F8, F1, F130)"
    with pytest.raises(ValueError):
        upcast(S, 3)


def test_tuple_operations_and_partitions():
    # C++: take<0,2>(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64,_2>,Stride<_64,_1,_512>>{}))
    #   = Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
    s3 = composition(Swizzle(3, 3, 3), Layout((8, 64, 2), (64, 1, 512)))
    assert str(take(s3, (0, 2))) == "SW_3_3_3 o (8, 64):(64, 1)"
    # select and prepend: not defined on a C++ ComposedLayout; the operation on the inner layout
    assert str(select(S, (1, 0))) == "SW_3_3_3 o (64, 8):(1, 64)"
    assert str(prepend(S, Layout(2, 0))) == "SW_3_3_3 o (2, 8, 64):(0, 64, 1)"
    # C++: append<3>(S, Layout<_2,_0>{}) = Sw<3,3,3> o _0 o (_8,_64,_2):(_64,_1,_0)
    assert str(append(S, Layout(2, 0))) == "SW_3_3_3 o (8, 64, 2):(64, 1, 0)"
    # C++: group<1,3>(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_8,_8>,Stride<_64,_1,_8>>{}))
    #   = Sw<3,3,3> o _0 o (_8,(_8,_8)):(_64,(_1,_8))
    s8 = composition(Swizzle(3, 3, 3), Layout((8, 8, 8), (64, 1, 8)))
    assert str(group(s8, (1, 3))) == "SW_3_3_3 o (8, (8, 8)):(64, (1, 8))"
    # C++: flatten(composition(Swizzle<3,3,3>{}, Layout<Shape<Shape<_8,_1>,_64>,Stride<Stride<_64,_1>,_1>>{}))
    #   = Sw<3,3,3> o _0 o (_8,_1,_64):(_64,_1,_1)
    sf = composition(Swizzle(3, 3, 3), Layout(((8, 1), 64), ((64, 1), 1)))
    assert str(flatten(sf)) == "SW_3_3_3 o (8, 1, 64):(64, 1, 1)"
    # C++: local_tile(make_tensor(p, S), Shape<_8,_8>{}, make_coord(0,1)) is
    # ((_2,_2,_2),_8):((56,144,288),_1) at p + 8; rcute: the swizzled part (same values)
    t = local_tile(S, (8, 8), (0, 1))
    assert str(t) == "SW_3_3_3 o 8 o (8, 8):(64, 1)"
    assert all(t(i) == Swizzle(3, 3, 3)(local_tile(L, (8, 8), (0, 1))(i)) for i in range(64))
    # C++: local_partition(make_tensor(p, S), Layout<Shape<_2,_4>,Stride<_4,_1>>{}, 5) has the
    # layout Sw<3,3,3> o 64 o (_4,_16):(_128,_4) at p + 1; rcute: the whole offset 65 inside
    p = local_partition(S, Layout((2, 4), (4, 1)), 5)
    assert str(p) == "SW_3_3_3 o 65 o (4, 16):(128, 4)"
    # a tensor over a swizzled layout is partitioned as C++ partitions it
    tt = local_tile(rcute.Tensor(rcute.ImplicitAccessor(0), S), (8, 8), (0, 1))
    assert str(tt) == "{8} o ((2, 2, 2), 8):((56, 144, 288), 1)"


def test_bank_conflicts():
    # a 32x32 4-byte tile read by columns: the swizzle removes the 32-way conflict
    s = composition(Swizzle(5, 0, 5), Layout((32, 32), (32, 1)))
    warp = Layout(32, 1)
    assert bank_conflicts(Layout((32, 32), (32, 1)), warp, 4) == 32
    for x in (s, logical_divide(s, (32, 32)), coalesce(s), upcast(s, 1),
              composition(Swizzle(5, 0, 5), 32, Layout((32, 32), (32, 1))),
              slice_and_offset(s, (None, 3))[0]):
        assert bank_conflicts(x, warp, 4) == 1, x


def test_printed_forms_parse_back():
    for v in (S, SO, S343, logical_divide(S, (8, 8))):
        for style in ("str", "repr", "cpp"):
            text = rcute.format_value(v, style)
            assert rcute.eval_notation(text) == v, (style, text)
    # C++'s own print, static markers and zero offset included
    assert rcute.eval_notation("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)") == S
    assert rcute.eval_notation("Sw<3,3,3> o _64 o (_8,_64):(_64,_1)") == SO
    assert eval(repr(SO), vars(rcute)) == SO
