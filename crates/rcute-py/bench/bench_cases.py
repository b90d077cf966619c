"""ns per call of the Python module on the benchmark cases.

Each statement of cases.cute is turned into the same Python call the
reference would make (operands built once, then only the final call timed),
and its median time per call is compared with the reference's median
(reference_ns.json). Usage:

    python crates/rcute-py/bench/bench_cases.py [SHARED_DIR]
"""

import json
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import rcute  # noqa: E402
from notation_driver import _has_none, evaluate  # noqa: E402


def prepared_call(expr):
    """(callable, args, kwargs) of the outermost call of `expr`."""
    tree = rcute._rcute._parse(expr)
    if tree[0] != "call":
        raise ValueError(expr)
    f = evaluate(tree[1])
    args = tuple(evaluate(a) for a in tree[2])
    kwargs = {k: evaluate(v) for k, v in tree[3]}
    if isinstance(f, rcute.Layout) and len(args) > 1:
        args = (args,)
    if isinstance(f, rcute.Layout) and _has_none(args):
        raise ValueError("slicing is not benchmarked")
    return f, args, kwargs


def time_call(f, args, kwargs, min_time=0.2):
    f(*args, **kwargs)
    n = 1
    while True:
        t0 = time.perf_counter_ns()
        for _ in range(n):
            f(*args, **kwargs)
        dt = time.perf_counter_ns() - t0
        if dt > 2_000_000:
            break
        n *= 2
    samples = []
    end = time.perf_counter() + min_time
    while time.perf_counter() < end or len(samples) < 5:
        t0 = time.perf_counter_ns()
        for _ in range(n):
            f(*args, **kwargs)
        samples.append((time.perf_counter_ns() - t0) / n)
    return statistics.median(samples)


def main():
    # a folder holding bench/cases.cute and bench/reference_ns.json: the
    # argument, else the repository itself
    shared = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[3]
    cases = [l.strip() for l in (shared / "bench" / "cases.cute").read_text().splitlines()
             if l.strip() and not l.startswith("#")]
    ref = json.loads((shared / "bench" / "reference_ns.json").read_text())["reference_median_ns"]
    speedups = []
    print(f"| case | rcute (Python) ns | reference ns | speed-up |")
    print(f"|---|---:|---:|---:|")
    for expr in cases:
        f, args, kwargs = prepared_call(expr)
        ns = time_call(f, args, kwargs)
        r = ref.get(expr)
        s = r / ns if r else float("nan")
        speedups.append(s)
        print(f"| `{expr}` | {ns:.0f} | {r} | {s:.0f}x |")
    print(f"\nmedian speed-up {statistics.median(speedups):.0f}x, minimum {min(speedups):.0f}x")


if __name__ == "__main__":
    main()
