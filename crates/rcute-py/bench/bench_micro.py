"""ns per call of single Python operations on small layouts (at most 8 leaves).

Each row is one Python expression timed with `timeit` on operands built
beforehand (the `construct` rows time the construction from tuples
itself). Each expression runs in `--repeat` loops of about 2 ms each; the
figure is the fastest loop's time divided by its number of calls (short
loops and the minimum keep out most of the time stolen by other processes
on a shared machine). `--cpu` times with the thread's CPU clock
(`time.thread_time`) instead of the wall clock, which leaves out the time
the thread waits for a core on a loaded machine.

`--compare DIR` also times another build of rcute, the `rcute` package in
the folder DIR (e.g. the site-packages of another virtual environment),
and `--reference` the pure-Python reference PyCuTe (CUTLASS's `pycute`
package, where it has the operation), in the same process: each
repetition times the implementations in turn. Usage:

    python crates/rcute-py/bench/bench_micro.py [--repeat N] [--cpu] [--markdown]
        [--compare DIR] [--reference]
"""

import argparse
import time

import rcute
from timing import load_package_as, reference, side_by_side

LAYOUTS = dict(
    A=((4, 8), (1, 4)),
    TV=(((4, 8), (2, 2)), ((32, 1), (16, 8))),
    C=((2, (1, 6)), (1, (6, 2))),
    A62=((6, 2), (8, 2)),
    B43=((4, 3), (3, 1)),
    L24=(24, 1),
    L42=(4, 2),
    M=((4096, 4096), (1, 4096)),
    I48=((4, 8), (1, 5)),
)


def namespace(mod):
    """The names the expressions use, from the module `mod` (rcute, another
    build of it, or the reference); names `mod` lacks are left out."""
    ns = {n: getattr(mod, n) for n in (
        "Layout", "size", "rank", "depth", "cosize", "coalesce", "composition", "logical_divide",
        "zipped_divide", "complement", "right_inverse", "left_inverse", "idx2crd", "crd2idx")
        if hasattr(mod, n)}
    for name, (s, d) in LAYOUTS.items():
        ns[name] = mod.Layout(s, d)
    return ns


# (group, expression)
CASES = [
    ("construct", "Layout((4, 8), (1, 4))"),
    ("construct", "Layout((4, 8))"),
    ("construct", "Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))"),
    ("construct", "Layout(24, 1)"),
    ("query", "size(A)"),
    ("query", "rank(A)"),
    ("query", "depth(TV)"),
    ("query", "cosize(TV)"),
    ("query", "A(17)"),
    ("query", "A(1, 2)"),
    ("query", "TV(17)"),
    ("query", "TV(((3, 5), (1, 1)))"),
    ("query", "A.shape"),
    ("query", "TV.stride"),
    ("algebra", "coalesce(C)"),
    ("algebra", "coalesce(TV)"),
    ("algebra", "composition(A62, B43)"),
    ("algebra", "composition(A, TV)"),
    ("algebra", "logical_divide(L24, L42)"),
    ("algebra", "zipped_divide(M, (128, 64))"),
    ("algebra", "complement(L42, 24)"),
    ("algebra", "right_inverse(TV)"),
    ("algebra", "left_inverse(I48)"),
    ("algebra", "idx2crd(1000, ((4, 8), (16, 4)))"),
    ("algebra", "crd2idx((3, (1, 2)), (4, (2, 8)))"),
]


def supported(expr, ns):
    """True when `expr` runs in the namespace `ns` (the reference lacks some
    operations)."""
    try:
        eval(expr, dict(ns))
        return True
    except Exception:  # noqa: BLE001 - an operation the module does not have
        return False


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=100)
    p.add_argument("--cpu", action="store_true")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--compare", metavar="DIR", help="folder holding another build's rcute package")
    p.add_argument("--reference", action="store_true", help="time the reference PyCuTe too")
    a = p.parse_args()
    timer = time.thread_time if a.cpu else time.perf_counter
    clock = "thread CPU time" if a.cpu else "wall clock"
    impls = [("rcute", namespace(rcute))]
    print(f"# rcute {rcute.__version__} from {rcute.__file__} ({clock}, min of {a.repeat} loops)")
    if a.compare:
        other = load_package_as(a.compare, "rcute_compared")
        print(f"# compared: rcute {other.__version__} from {other.__file__}")
        impls.insert(0, ("compared", namespace(other)))
    if a.reference:
        ref = reference()
        if ref is None:
            raise SystemExit("the reference (pycute, from nvidia-cutlass) is not installed")
        print(f"# reference: pycute from {ref.__file__}")
        impls.append(("reference", namespace(ref)))
    names = [n for n, _ in impls]
    if a.markdown:
        print("| group | expression | " + " | ".join(f"{n} ns" for n in names) + " |")
        print("|---|---|" + "---:|" * len(names))
    else:
        print(f"{'group':10} " + " ".join(f"{n:>10}" for n in names) + "  expression")
    for group, expr in CASES:
        stmts = [(expr, ns) if supported(expr, ns) else None for _, ns in impls]
        times = side_by_side(stmts, a.repeat, timer)
        cells = ["n/a" if t is None else f"{t:.0f}" for t in times]
        if a.markdown:
            print(f"| {group} | `{expr}` | " + " | ".join(cells) + " |")
        else:
            print(f"{group:10} " + " ".join(f"{c:>10}" for c in cells) + f"  {expr}")


if __name__ == "__main__":
    main()
