"""Printing and drawing layouts: the reference's `pycute.util` on rcute's
renderers (docs/drawing.md). The text and SVG/TikZ come from the Rust core;
this module writes files and prints the reference's messages.

>>> from rcute import Layout
>>> from rcute.util import print_tensor
>>> print_tensor(Layout((2, 3), (3, 1)))
(2, 3):(3, 1)
0     1     2     
3     4     5     
"""

from __future__ import annotations

import os
import shutil
import subprocess

from . import _rcute
from . import ImplicitAccessor, LayoutBase, Tensor

__all__ = [
    "print_tensor", "print_table", "print_layout", "draw_svg", "draw_svg_tv", "draw_latex",
    "draw_latex_tv", "draw_png", "draw_png_tv", "index_grey_8x", "bank_color_8x", "bank_color_16x", "bank_color_32x",
    "thread_color_8x", "value_color_8x", "warp_color_8x", "constant", "white",
]


def _named(name, nargs):
    if nargs == 1:
        def f(idx):
            return _rcute._color(name, [int(idx)])
    else:
        def f(tid, vid):
            return _rcute._color(name, [int(tid), int(vid)])
    f.__name__ = name
    f._rcute_color = name
    return f


index_grey_8x = _named("index_grey_8x", 1)
index_grey_8x.__doc__ = "(r, g, b) of an offset: the 8-step grey ramp (docs/drawing.md)."
bank_color_8x = _named("bank_color_8x", 1)
bank_color_8x.__doc__ = "(r, g, b) of an offset: 8 bank colours (docs/drawing.md)."
bank_color_16x = _named("bank_color_16x", 1)
bank_color_16x.__doc__ = "(r, g, b) of an offset: 16 bank colours (docs/drawing.md)."
bank_color_32x = _named("bank_color_32x", 1)
bank_color_32x.__doc__ = "(r, g, b) of an offset: 32 bank colours (docs/drawing.md)."
thread_color_8x = _named("thread_color_8x", 2)
thread_color_8x.__doc__ = "(r, g, b) of a (thread, value) cell, by thread (docs/drawing.md)."
value_color_8x = _named("value_color_8x", 2)
value_color_8x.__doc__ = "(r, g, b) of a (thread, value) cell, by value (docs/drawing.md)."
warp_color_8x = _named("warp_color_8x", 2)
warp_color_8x.__doc__ = "(r, g, b) of a (thread, value) cell, by warp (docs/drawing.md)."


def white(*args):
    """White for every cell."""
    return (255, 255, 255)


white._rcute_color = "white"


def constant(rgb):
    """A colour function returning `rgb` for every cell."""
    rgb = tuple(int(c) for c in rgb)

    def f(*args):
        return rgb

    f._rcute_constant = rgb
    return f


def _target(obj):
    if isinstance(obj, LayoutBase):
        return obj
    if isinstance(obj, Tensor) and isinstance(obj.accessor, ImplicitAccessor):
        return (obj.accessor.base, obj.layout)
    raise TypeError(f"type: only layouts and implicit-accessor tensors can be printed, got {obj!r}")


def _tensor_text(tensor, print_type):
    """`print_tensor`'s text for a tensor over any accessor (an `Array`, a
    `Ptr`, a list, ...): each value `str`-formatted, left-aligned in a field
    of width 5 and followed by a space, as the Rust printer does."""
    from . import rank, size

    layout = tensor.layout
    r = rank(layout)
    if r == 0 or r > 4:
        raise ValueError(f"value: print_tensor: Expected rank <= 4, {tensor} has rank {r}")
    out = [f"{tensor}\n"] if print_type else []

    def cell(v):
        out.append(f"{str(v):<5} ")

    if r == 1:
        for i in range(size(layout)):
            cell(tensor[i])
        out.append("\n")
        return "".join(out)
    dims = [size(layout[i]) for i in range(r)]
    m, n = dims[0], dims[1]
    ks = dims[2] if r >= 3 else 1
    ps = dims[3] if r == 4 else 1

    def rule(c, label, x):
        return f"{c * (2 * n)}{c}{c}  {label} = {x:<2} {c}{c}{c * (3 * n)}\n"

    for p in range(ps):
        if p > 0:
            out.append(rule("=", "p", p))
        for k in range(ks):
            if k > 0:
                out.append(rule("-", "k", k))
            for i in range(m):
                for j in range(n):
                    c = (i, j) + ((k,) if r >= 3 else ()) + ((p,) if r == 4 else ())
                    cell(tensor[c])
                out.append("\n")
    return "".join(out)


def print_tensor(tensor, print_type=True):
    """Print a layout or tensor as the reference's `print_tensor` (ranks 1-4):
    layouts and identity tensors through the Rust printer, tensors over
    memory (`make_tensor`, `Array`, `Ptr`, lists) by reading their elements."""
    if isinstance(tensor, Tensor) and not isinstance(tensor.accessor, ImplicitAccessor):
        print(_tensor_text(tensor, bool(print_type)), end="")
        return
    print(_rcute._print_text("tensor", _target(tensor), bool(print_type)), end="")


def print_table(tensor, print_type=True):
    """Print a layout or tensor as the reference's `print_table`."""
    print(_rcute._print_text("table", _target(tensor), bool(print_type)), end="")


def print_layout(layout):
    """Print C++'s bordered `print_layout` grid of a rank-2 layout."""
    print(_rcute._print_text("layout", _target(layout), True), end="")


def _write(filename, data):
    """Write `data` (text, or the bytes of an image) and say where."""
    with open(filename, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    print(f"Saved as {filename}")


def draw_svg(layout, filename="layout.svg", color=index_grey_8x):
    """Write the reference's SVG drawing of a rank-2 layout and print `Saved as ...`."""
    _write(filename, _rcute._draw_text("svg", _target(layout), color))


def draw_svg_tv(layout, tile_mn=None, filename="tvlayout.svg", color=thread_color_8x):
    """Write the thread-value SVG drawing (first (thread, value) to reach a cell wins)."""
    _write(filename, _rcute._draw_text("svg", layout, color, True, tile_mn))


def _compile(filename, compile_pdf):
    if not compile_pdf:
        return
    if shutil.which("pdflatex") is None:
        print(f"  (pdflatex not found on PATH; wrote .tex only. Install a LaTeX distribution, "
              f"or compile manually with `pdflatex {filename}`.)")
        return
    stem = os.path.splitext(filename)[0]
    outdir = os.path.dirname(filename) or "."
    try:
        r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                            "-output-directory", outdir, filename],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        ok = r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        print(f"  (pdflatex failed; wrote .tex only. See {stem}.log for details.)")
        return
    for ext in (".aux", ".log"):
        try:
            os.remove(stem + ext)
        except OSError:
            pass
    print(f"Saved as {stem}.pdf")


def draw_latex(layout, filename="layout.tex", compile_pdf=True, color=index_grey_8x):
    """Write the reference's TikZ document of a rank-2 layout; optionally compile it."""
    _write(filename, _rcute._draw_text("tex", _target(layout), color))
    _compile(filename, compile_pdf)


def draw_latex_tv(layout, tile_mn=None, filename="tvlayout.tex", compile_pdf=True,
                  color=thread_color_8x):
    """Write the thread-value TikZ document; optionally compile it."""
    _write(filename, _rcute._draw_text("tex", layout, color, True, tile_mn))
    _compile(filename, compile_pdf)


def draw_png(layout, filename="layout.png", color=index_grey_8x, scale=None):
    """Write the drawing of `draw_svg` as a PNG image and print `Saved as ...`.

    `layout` is a rank-2 layout, swizzled layout or implicit-accessor tensor.
    `scale` multiplies the 20-pixel cells (a number in (0, 16]); by default
    the image is sized to the drawing (twice the SVG's size for small
    layouts, smaller for large ones). Raises ValueError for another rank or
    more cells than can be drawn.

    >>> import os, tempfile
    >>> from rcute import Layout
    >>> path = os.path.join(tempfile.mkdtemp(), "l.png")
    >>> draw_png(Layout((4, 8), (8, 1)), path)  # doctest: +ELLIPSIS
    Saved as ...l.png
    >>> open(path, "rb").read(8) == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    _write(filename, _rcute._draw_png(_target(layout), color, False, None, scale))


def draw_png_tv(layout, tile_mn=None, filename="tvlayout.png", color=thread_color_8x,
                scale=None):
    """Write the thread-value drawing of `draw_svg_tv` as a PNG image."""
    _write(filename, _rcute._draw_png(layout, color, True, tile_mn, scale))
