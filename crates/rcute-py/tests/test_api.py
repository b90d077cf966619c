"""The reference's Python API (docs/differences.md, "Which Python PyCuTe") on the Rust core."""

import ctypes
from fractions import Fraction

import pytest

import rcute
from rcute import *  # noqa: F401,F403

API_NAMES = [
    'Integer', 'StrideScalar', 'divmod', 'is_int', 'is_static', 'is_stride_scalar',
    'register_integer_type', 'ModeOpDecorator', 'congruent', 'dice_', 'flatten', 'fold_leaf',
    'get', 'is_tuple', 'leaves', 'lift', 'product', 'product_each', 'repeat_like', 'select',
    'slice_', 'take', 'transform_apply_leaf', 'transform_leaf', 'unflatten', 'unwrap',
    'weakly_congruent', 'wrap', 'zip_leaves', 'common_coarsening', 'common_refinement',
    'compatible', 'coordinates', 'crd2idx', 'depth', 'idx2crd', 'rank', 'shape', 'size',
    'coprofile', 'coshape', 'inner_product', 'prefix_product', 'stride', 'ArithTuple', 'E',
    'ScaledBasis', 'V', 'as_tuple', 'basis_repr', 'is_basis', 'make_basis_like', 'proj', 'unit',
    'Layout', 'LayoutBase', 'is_layout', 'make_layout', 'make_layout_like', 'make_ordered_layout',
    'recast', 'tiler_to_layout', 'blocked_product', 'coalesce', 'coalesce_z', 'complement',
    'composition', 'greatest_common_domain', 'layout_add', 'left_inverse', 'logical_divide',
    'logical_product', 'nullspace', 'raked_product', 'right_inverse', 'zipped_divide', 'F2',
    'Swizzle', 'shiftl', 'shiftr', 'Accessor', 'Array', 'ImplicitAccessor', 'MutableAccessor',
    'Ptr', 'TransformAccessor', 'Tensor', 'identity_tensor', 'is_tensor', 'make_tensor',
    'cosize', 'filter', 'filter_zeros', 'tiled_divide', 'flat_divide', 'zipped_product',
    'tiled_product', 'flat_product', 'max_common_layout', 'max_common_vector', 'upcast',
    'downcast', 'make_identity_layout', 'slice_and_offset', 'LayoutLeft', 'LayoutRight',
]


@pytest.mark.parametrize("name", API_NAMES)
def test_name_exists_with_doc(name):
    obj = getattr(rcute, name)
    assert obj is not None
    if callable(obj) and not isinstance(obj, type(ctypes)):
        assert getattr(obj, "__doc__", None), f"{name} has no docstring"


def test_layout_basics():
    L = Layout((4, 8), (8, 1))
    assert str(L) == "(4, 8):(8, 1)"
    assert repr(L) == "Layout((4, 8), (8, 1))"
    assert L(2, 3) == 19 and L((2, 3)) == 19 and L(14) == 19
    assert L.shape == (4, 8) and L.stride == (8, 1)
    assert len(L) == 2
    assert [str(m) for m in L] == ["4:8", "8:1"]
    assert L[1] == Layout(8, 1)
    assert Layout((4, 8)) == Layout((4, 8), (1, 4))
    assert Layout((2, (3, 4)), (100, 1)).stride == (100, (1, 3))
    assert is_layout(L) and not is_layout((4, 8))
    assert isinstance(L, LayoutBase)


def test_call_reads_none_as_zero():
    L = Layout((4, 8), (1, 4))
    assert L(None, 3) == 12
    sub, off = slice_and_offset(L, (None, 3))
    assert str(sub) == "(4,):(1,)" and off == 12


def test_strides_of_other_algebras():
    L = Layout((4, 8), (E(0), E(1)))
    assert str(L(2, 3)) == "(2, 3)"
    x = 3 * E(0) + 5 * E(1)
    assert isinstance(x, ArithTuple) and str(x) == "(3, 5)"
    assert E(0) == ArithTuple(1, 0)
    assert str(E(1, 0)) == "1@0@1"
    assert str(F2(3) * 3) == "F5" and F2(5) == 5
    assert str(Layout((4, 8), (F2(1), F2(8)))(2, 1)) == "F10"
    assert str(V(3) @ 1) == "3@1"


def test_algebra_matches_spec_examples():
    assert str(composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))) == "((2, 2), 3):((24, 2), 8)"
    assert str(complement(Layout((2, 2), (1, 6)), extend=24)) == "(3, 2):(2, 12)"
    assert str(logical_divide(Layout(24, 1), Layout(4, 2))) == "(4, (2, 3)):(2, (1, 8))"
    assert str(right_inverse(Layout((4, 8), (8, 1)))) == "(8, 4):(4, 1)"
    assert str(recast(Layout(24, 1), Fraction(1, 2))) == "48:1"
    assert idx2crd(100, (3, (2, 4))) == (1, (1, 16))
    assert crd2idx((1, (2, 3)), (3, (2, 4))) == 25


def test_mode_indexed_forms():
    A = Layout(((6, 2), 5), ((8, 2), 1))
    assert size[0](A) == 12 and size[0, 1](A) == 2 and size[0][1](A) == 2
    assert size(A, mode=(0, 1)) == 2
    assert str(get[0, 1](A)) == "2:2"
    assert str(composition[0](A, Layout((4, 3), (3, 1)))) == "(((2, 2), 3), 5):(((24, 2), 8), 1)"
    assert str(coalesce[1](Layout((3, (2, 6)), (1, (3, 6))))) == "(3, 12):(1, 3)"


def test_exception_types_follow_the_reference():
    with pytest.raises(ValueError):
        composition(Layout((4, 6, 8), (2, 3, 5)), Layout(6, 3))
    with pytest.raises(ValueError):
        complement(Layout((2, 2), (1, 1)))
    with pytest.raises(TypeError):
        E(0) + 7
    with pytest.raises(IndexError):
        get((10, 11), mode=(5,))
    with pytest.raises(ValueError):
        Swizzle(4, 4, 2)
    with pytest.raises(OverflowError):
        size((2**40, 2**40))
    with pytest.raises(TypeError):
        size(1.5)


def test_htuple_helpers_with_callables():
    assert list(leaves(((1, (2, 3)), 4))) == [1, 2, 3, 4]
    assert list(zip_leaves((1, (2, 3)), ((4, 5), (6, (7, 8))))) == [(1, (4, 5)), (2, 6), (3, (7, 8))]
    assert list(zip_leaves((1, 2, 3), (4, 5))) == [(1, 4), (2, 5), (3, None)]
    assert fold_leaf(lambda v, a, b: v + a * b, 0, (1, 2), (3, 4)) == 11
    assert transform_apply_leaf(list, lambda a: 2 * a, (1, (2, 3))) == [2, [4, 6]]
    assert transform_leaf(lambda a, b: a + b, (1, (2, 3)), (10, (20, 30))) == (11, (22, 33))
    assert unflatten([10, 20, 30, 40], ((1, (2, 3)), 4)) == ((10, (20, 30)), 40)
    assert flatten(((1, (2, 3)), 4)) == (1, 2, 3, 4)
    assert list(coordinates((3, 2))) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    assert list(coordinates(())) == [()]


def test_mode_op_decorator():
    def f(x, *, mode=()):
        return mode
    g = ModeOpDecorator(f)
    assert g[0, 1](None) == (0, 1)
    assert g[0][1](None, mode=2) == (0, 1, 2)


def test_predicates():
    assert is_int(3) and not is_int(True) and not is_int(3.0) and not is_int(F2(1))
    assert is_static(3) and is_static(E(0)) and is_static(F2(3))  # the newer reference (python-dropin 2.12.4)
    assert is_stride_scalar(E(1)) and is_stride_scalar(F2(1)) and not is_stride_scalar((1,))
    assert is_tuple([1]) and not is_tuple(1)
    assert shiftl(1, 3) == 8 and shiftl(8, -3) == 1 and shiftr(8, 3) == 1


def test_swizzle():
    sw = Swizzle(3, 4, 3)
    assert str(sw) == "SW_3_4_3"
    assert all(sw(sw(x)) == x for x in range(1024))
    assert sorted(sw(x) for x in range(1024)) == list(range(1024))


def test_swizzled_layouts():
    # issue 16's examples, as C++ CuTe answers them (the C++ expressions are
    # named in crates/rcute/tests/all/swizzled.rs)
    s = composition(Swizzle(3, 3, 3), Layout((8, 64), (64, 1)))
    assert str(s) == "SW_3_3_3 o (8, 64):(64, 1)" and s.offset == 0
    d = logical_divide(s, (8, 8))
    assert str(d) == "SW_3_3_3 o ((8, 1), (8, 8)):((64, 512), (1, 8))"
    assert all(d(i) == s(i) for i in range(512))
    assert str(right_inverse(s)) == "SW_3_0_-6 o (64, 8):(8, 1)"
    assert all(s(right_inverse(s)(i)) == i for i in range(512))
    sub, off = slice_and_offset(s, (1, None))
    assert str(sub) == "((8, 2, 2, 2),):((1, -8, 16, 32),)" and off == 72
    assert all(sub(k) + off == s((1, k)) for k in range(64))
    up = upcast(composition(Swizzle(3, 4, 3), Layout((8, 64), (64, 1))), 2)
    assert str(up) == "SW_3_3_3 o (8, 32):(32, 1)"
    assert str(recast(s, 2)) == "SW_3_2_3 o (8, 32):(32, 1)"
    so = composition(Swizzle(3, 3, 3), 64, Layout((8, 64), (64, 1)))
    assert so.offset == 64 and so((1, 2)) == 146
    assert repr(so) == "composition(Swizzle(3,3,3), 64, Layout((8, 64), (64, 1)))"
    with pytest.raises(ValueError):
        upcast(s, 3)


def test_tensors():
    t = make_tensor(Layout((4, 8)))
    t[(1, 2)] = 7.0
    assert t[(1, 2)] == 7.0 and t[9] == 7.0
    col = t[(None, 2)]
    assert is_tensor(col) and col[1] == 7.0
    idt = identity_tensor((4, 6))
    assert str(idt[(2, 3)]) == "(2, 3)"
    a = Array(4, ctypes.c_int)
    a[2] = 5
    assert (a + 2)[0] == 5
    assert ImplicitAccessor(3)[4] == 7
    tr = TransformAccessor(ImplicitAccessor(0), lambda v: 2 * v)
    assert tr[5] == 10


def test_numpy_integers_are_integers():
    np = pytest.importorskip("numpy")
    assert is_int(np.int64(3))
    assert size((np.int64(4), np.int32(8))) == 32


def test_util_printers(capsys):
    from rcute.util import print_layout, print_table, print_tensor
    print_tensor(Layout((2, 3), (3, 1)))
    assert capsys.readouterr().out == "(2, 3):(3, 1)\n0     1     2     \n3     4     5     \n"
    print_tensor(Layout((2, 3), (3, 1)), print_type=False)
    assert capsys.readouterr().out == "0     1     2     \n3     4     5     \n"
    print_table(Layout((2, 3), (3, 1)))
    out = capsys.readouterr().out
    assert out.startswith("(2, 3):(3, 1)\n+---+") and "| 3 | 4 | 5 |" in out
    print_layout(Layout((2, 3), (3, 1)))
    assert " 1  | 3 | 4 | 5 |" in capsys.readouterr().out
    print_tensor(identity_tensor((2, 3)))
    assert "(1, 2)" in capsys.readouterr().out


def test_util_colours():
    from rcute.util import (bank_color_32x, constant, index_grey_8x, thread_color_8x,
                            value_color_8x, warp_color_8x, white)
    assert index_grey_8x(0) == (255, 255, 255)
    assert all(len(f(3)) == 3 for f in (index_grey_8x, bank_color_32x))
    assert all(len(f(1, 2)) == 3 for f in (thread_color_8x, value_color_8x, warp_color_8x))
    assert white(1, 2) == (255, 255, 255) and constant((1, 2, 3))(9) == (1, 2, 3)


def test_util_drawings(tmp_path, capsys):
    from rcute.util import draw_latex, draw_svg, draw_svg_tv, index_grey_8x
    f = tmp_path / "l.svg"
    draw_svg(Layout((4, 8), (8, 1)), str(f))
    assert capsys.readouterr().out == f"Saved as {f}\n"
    svg = f.read_text()
    assert svg.count("<rect") >= 32 and ">31<" in svg
    g = tmp_path / "custom.svg"
    draw_svg(Layout((2, 2), (1, 2)), str(g), color=lambda i: (10 * i, 0, 0))
    assert "rgb(30,0,0)" in g.read_text()
    t = tmp_path / "tv.svg"
    draw_svg_tv(Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))), (16, 8), str(t))
    assert "T0" in t.read_text()
    x = tmp_path / "l.tex"
    draw_latex(Layout((2, 3), (3, 1)), str(x), compile_pdf=False)
    assert "\\begin{tikzpicture}" in x.read_text()
    with pytest.raises(TypeError):
        draw_svg((4, 8), str(f))
    assert index_grey_8x(1) != index_grey_8x(7)


def test_newcomer_errors_styles_and_memory_tensors(capsys):
    import rcute
    from rcute.util import print_tensor

    # did you mean: the library's message, raised as ValueError
    with pytest.raises(ValueError, match=r"unknown name 'compositon' \(did you mean 'composition'\?\)"):
        rcute.eval_notation("compositon((4,8):(1,4), 2)")
    # the code styles
    L = rcute.Layout((4, 8), (1, 4))
    assert rcute.format_value(L, "cpp-type") == "Layout<Shape<_4,_8>,Stride<_1,_4>>"
    assert rcute.format_value(L, "cpp-make") == "make_layout(make_shape(4,8), make_stride(1,4))"
    assert rcute.format_value(L, "dsl") == "cute.make_layout((4, 8), stride=(1, 4))"
    assert (rcute.eval_notation_str("composition(Swizzle(3,4,3), (8,8):(8,1))", "cpp-type")
            == "ComposedLayout<Swizzle<3,4,3>,_0,Layout<Shape<_8,_8>,Stride<_8,_1>>>")
    assert rcute.eval_notation_str("(4,8):(F1,F4)", "dsl").startswith("error: type: --style dsl:")
    with pytest.raises(TypeError):
        rcute.format_value(rcute.F2(1), "cpp-type")
    with pytest.raises(ValueError):
        rcute.format_value(L, "fancy")
    # memory tensors: the notation's make_tensor has a Python form that
    # print_tensor prints, with a stable name (no address)
    t = rcute.eval_notation("make_tensor((2,3):(3,1))")
    assert repr(t) == "Tensor(Array(6 x c_long), Layout((2, 3), (3, 1)))" or "Array(6 x c_" in repr(t)
    t[1, 2] = 7
    print_tensor(t)
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("Array(6 x c_")
    assert out.splitlines()[1:] == ["0     0     0     ", "0     0     7     "]
    print_tensor(rcute.make_tensor((2, 3)), print_type=False)
    assert capsys.readouterr().out == "0.0   0.0   0.0   \n0.0   0.0   0.0   \n"
    it = rcute.eval_notation("identity_tensor((2,3))")
    assert str(it) == "{0} o (2, 3):(1@0, 1@1)"


def _png_size(data):
    # the IHDR chunk follows the 8-byte signature: length, b"IHDR", width, height
    import struct
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_util_png(tmp_path, capsys):
    import re
    from rcute.util import draw_png, draw_png_tv, draw_svg
    L = Layout((4, 8), (8, 1))
    s = tmp_path / "l.svg"
    draw_svg(L, str(s))
    m = re.search(r'<svg [^>]*height="(\d+)" version="1.1" width="(\d+)"', s.read_text())
    h, w = int(m.group(1)), int(m.group(2))
    # at scale 1 the PNG has the SVG's pixel size; at scale 2 twice it
    for scale in (1, 2):
        f = tmp_path / f"l{scale}.png"
        draw_png(L, str(f), scale=scale)
        assert capsys.readouterr().out.endswith(f"Saved as {f}\n")
        assert _png_size(f.read_bytes()) == (w * scale, h * scale)
    # a swizzled layout and a thread-value layout draw too
    sw = rcute.composition(rcute.Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
    draw_png(sw, str(tmp_path / "sw.png"))
    draw_png_tv(Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))), (16, 8), str(tmp_path / "tv.png"))
    assert _png_size((tmp_path / "tv.png").read_bytes())[0] > 0
    # bad input: another rank, a bad scale, something that is not a layout
    with pytest.raises(ValueError, match="rank-2"):
        draw_png(Layout((2, 2, 2)), str(tmp_path / "x.png"))
    with pytest.raises(ValueError, match="scale"):
        draw_png(L, str(tmp_path / "x.png"), scale=0)
    with pytest.raises(TypeError):
        draw_png((4, 8), str(tmp_path / "x.png"))


def test_notebook_display_is_the_svg_drawing():
    from rcute import _rcute
    from rcute.util import index_grey_8x
    L = Layout((4, 8), (8, 1))
    assert L._repr_svg_() == _rcute._draw_text("svg", L, index_grey_8x)
    sw = rcute.composition(rcute.Swizzle(3, 0, 3), Layout((8, 8), (8, 1)))
    assert "<svg " in sw._repr_svg_()
    # no drawing (the text repr is shown): another rank, too many cells,
    # coordinate values
    assert Layout((2, 2, 2))._repr_svg_() is None
    assert Layout((128, 128))._repr_svg_() is None
    assert Layout((2, 2), (rcute.E(0), rcute.E(1)))._repr_svg_() is None


def test_import_does_not_load_numpy():
    # numpy is loaded only by the user; its integers count as integers once
    # it is (checked in a fresh interpreter: this one may have numpy loaded)
    import subprocess
    import sys
    code = ("import sys, rcute; assert 'numpy' not in sys.modules; "
            "import numpy as np; assert rcute.is_int(np.int16(3)); "
            "assert isinstance(np.uint8(1), rcute.Integer); "
            "assert rcute.size(rcute.Layout((np.int32(4), 8))) == 32")
    pytest.importorskip("numpy")
    subprocess.run([sys.executable, "-c", code], check=True)
