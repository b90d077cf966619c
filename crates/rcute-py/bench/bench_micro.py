"""ns per call of single Python operations on small layouts (at most 8 leaves).

Each row is one Python expression timed with `timeit` on operands built
beforehand (the `construct` rows time the construction from tuples
itself). Each expression runs in `--repeat` loops of about 2 ms each; the
figure is the fastest loop's time divided by its number of calls (short
loops and the minimum keep out most of the time stolen by other processes
on a shared machine; `--median` prints the median loop too). `--cpu` times
with the thread's CPU clock (`time.thread_time`) instead of the wall clock,
which leaves out the time the thread waits for a core on a loaded machine.
Usage:

    python crates/rcute-py/bench/bench_micro.py [--repeat N] [--median] [--cpu] [--markdown]
"""

import argparse
import time
import timeit

import rcute
from rcute import (Layout, coalesce, complement, composition, cosize, crd2idx, depth, idx2crd,
                   left_inverse, logical_divide, rank, right_inverse, size, zipped_divide)

NAMESPACE = dict(
    Layout=Layout, size=size, rank=rank, depth=depth, cosize=cosize, coalesce=coalesce,
    composition=composition, logical_divide=logical_divide, zipped_divide=zipped_divide,
    complement=complement, right_inverse=right_inverse, left_inverse=left_inverse,
    idx2crd=idx2crd, crd2idx=crd2idx,
    A=Layout((4, 8), (1, 4)),
    TV=Layout(((4, 8), (2, 2)), ((32, 1), (16, 8))),
    C=Layout((2, (1, 6)), (1, (6, 2))),
    A62=Layout((6, 2), (8, 2)),
    B43=Layout((4, 3), (3, 1)),
    L24=Layout(24, 1),
    L42=Layout(4, 2),
    M=Layout((4096, 4096), (1, 4096)),
    I48=Layout((4, 8), (1, 5)),
)

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


def ns_per_call(expr, repeat, timer=time.perf_counter):
    """(minimum, median) ns per call over `repeat` loops of about 2 ms."""
    t = timeit.Timer(expr, timer=timer, globals=NAMESPACE)
    n = 100
    while True:
        dt = t.timeit(number=n)
        if dt >= 0.002:
            break
        n *= 2
    times = sorted(t.repeat(repeat=repeat, number=n))
    return times[0] / n * 1e9, times[len(times) // 2] / n * 1e9


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=100)
    p.add_argument("--median", action="store_true")
    p.add_argument("--cpu", action="store_true")
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args()
    timer = time.thread_time if a.cpu else time.perf_counter
    clock = "thread CPU time" if a.cpu else "wall clock"
    print(f"# rcute {getattr(rcute, '__version__', '?')} from {rcute.__file__} ({clock})")
    if a.markdown:
        print("| group | expression | ns per call |" + (" median ns |" if a.median else ""))
        print("|---|---|---:|" + ("---:|" if a.median else ""))
    for group, expr in CASES:
        best, median = ns_per_call(expr, a.repeat, timer)
        if a.markdown:
            extra = f" {median:.0f} |" if a.median else ""
            print(f"| {group} | `{expr}` | {best:.0f} |{extra}")
        else:
            extra = f" {median:8.0f}" if a.median else ""
            print(f"{group:10} {best:8.0f}{extra}  {expr}")


if __name__ == "__main__":
    main()
