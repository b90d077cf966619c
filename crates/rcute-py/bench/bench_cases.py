"""ns per statement of the Python module on the benchmark cases, side by side
with the pure-Python reference PyCuTe.

Each statement of bench/cases.cute is written as the Python statement a
PyCuTe user writes, operands built from tuples and then the call:
`composition((6,2):(8,2), (4,3):(3,1))` is timed as
`composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))` (a keyword
`extend=` is passed positionally, as the reference names it `max_idx`).
The same text is timed on rcute and, in the same process, on the
reference (CUTLASS's `pycute`, from the `nvidia-cutlass` wheel) where it
has the operation; each figure is the minimum over `--repeat` loops of
about 2 ms, the two implementations timed in turn inside each repetition.
`--compare DIR` adds another build of rcute (the `rcute` package in the
folder DIR). `--stored` compares with the reference's stored medians of
bench/reference_ns.json instead (measured elsewhere, not side by side).
Usage:

    python crates/rcute-py/bench/bench_cases.py [--repeat N] [--compare DIR] [--stored] [SHARED_DIR]
"""

import argparse
import json
import pathlib
import statistics
import sys

import rcute
from timing import load_package_as, reference, side_by_side


def source(node, top=True):
    """The Python text of a notation syntax tree (`rcute._rcute._parse`)."""
    kind = node[0]
    if kind == "int":
        return repr(node[1])
    if kind == "f2":
        return f"F2({node[1]})"
    if kind == "name":
        return node[1]
    if kind == "tuple":
        items = [source(x, False) for x in node[1]]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if kind == "neg":
        return "-" + source(node[1], False)
    if kind == "layout":
        return f"Layout({source(node[1], False)}, {source(node[2], False)})"
    if kind == "bin" and node[1] == "@":
        return f"ScaledBasis({source(node[2], False)}, ({source(node[3], False)},))"
    if kind == "call":
        args = [source(a, False) for a in node[2]]
        for k, v in node[3]:
            args.append(source(v, False) if k == "extend" else f"{k}={source(v, False)}")
        return f"{source(node[1], False)}({', '.join(args)})"
    raise ValueError(f"no Python form for {node!r}")


def runs(stmt, ns):
    try:
        eval(stmt, dict(ns))
        return True
    except Exception:  # noqa: BLE001 - an operation the module does not have
        return False


def main():
    p = argparse.ArgumentParser()
    p.add_argument("shared", nargs="?", help="folder holding bench/cases.cute (default: the repository)")
    p.add_argument("--repeat", type=int, default=30)
    p.add_argument("--compare", metavar="DIR", help="folder holding another build's rcute package")
    p.add_argument("--stored", action="store_true",
                   help="compare with bench/reference_ns.json instead of timing the reference")
    p.add_argument("--markdown", action="store_true")
    a = p.parse_args()
    root = pathlib.Path(a.shared) if a.shared else pathlib.Path(__file__).resolve().parents[3]
    cases = [l.strip() for l in (root / "bench" / "cases.cute").read_text().splitlines()
             if l.strip() and not l.startswith("#")]
    impls = [("rcute", vars(rcute))]
    if a.compare:
        impls.insert(0, ("compared", vars(load_package_as(a.compare, "rcute_compared"))))
    stored = None
    if a.stored:
        stored = json.loads((root / "bench" / "reference_ns.json").read_text())["reference_median_ns"]
    else:
        ref = reference()
        if ref is None:
            raise SystemExit("the reference (pycute, from nvidia-cutlass) is not installed; "
                             "pass --stored to use the stored figures")
        impls.append(("reference", vars(ref)))
    names = [n for n, _ in impls] + (["stored reference"] if stored else [])
    print(f"# rcute {rcute.__version__} from {rcute.__file__}; min of {a.repeat} loops, ns per statement")
    print("| statement | " + " | ".join(f"{n} ns" for n in names) + " | speed-up |")
    print("|---|" + "---:|" * (len(names) + 1))
    speedups = []
    for expr in cases:
        stmt = source(rcute._rcute._parse(expr))
        want = rcute.eval_notation_str(expr)
        got = str(eval(stmt, dict(vars(rcute))))
        if got != want:
            print(f"warning: {stmt} gives {got}, the notation {want}", file=sys.stderr)
        times = side_by_side([(stmt, ns) if runs(stmt, ns) else None for _, ns in impls], a.repeat)
        ours = times[[n for n, _ in impls].index("rcute")]
        ref_ns = stored.get(expr) if stored else times[-1]
        cells = ["n/a" if t is None else f"{t:.0f}" for t in times]
        if stored:
            cells.append("n/a" if ref_ns is None else f"{ref_ns:.0f}")
        s = ref_ns / ours if ref_ns else None
        if s is not None:
            speedups.append(s)
        print(f"| `{stmt}` | " + " | ".join(cells) + f" | {'n/a' if s is None else f'{s:.0f}x'} |")
    if speedups:
        print(f"\n{len(speedups)} statements the reference runs: median speed-up "
              f"{statistics.median(speedups):.0f}x, minimum {min(speedups):.0f}x")


if __name__ == "__main__":
    main()
