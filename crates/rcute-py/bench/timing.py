"""Shared timing helpers of the Python benchmarks (bench_micro.py, bench_cases.py).

Every figure is the minimum over `repeat` loops of about 2 ms each of the
time per call: short loops and the minimum keep out most of the time that
other processes take on a shared machine. The implementations compared in
one run (rcute, an other build of rcute, the reference PyCuTe) are timed
in turn inside each repetition, so that a change of load affects them
alike.
"""

import importlib
import importlib.util
import pathlib
import sys
import time
import timeit


def loop_size(stmt, namespace, timer=time.perf_counter, target=0.002):
    """The number of executions of `stmt` that takes about `target` seconds."""
    t = timeit.Timer(stmt, timer=timer, globals=namespace)
    n = 16
    while True:
        if t.timeit(number=n) >= target:
            return n
        n *= 2


def side_by_side(stmts, repeat, timer=time.perf_counter):
    """`stmts`: a list of (statement, namespace) pairs (or None, not timed).
    Returns, for each, the minimum ns per execution over `repeat` loops,
    the statements timed in turn inside each repetition (None for None)."""
    timers = []
    for item in stmts:
        if item is None:
            timers.append(None)
            continue
        stmt, ns = item
        n = loop_size(stmt, ns, timer)
        timers.append((timeit.Timer(stmt, timer=timer, globals=ns), n))
    best = [float("inf")] * len(stmts)
    for _ in range(repeat):
        for k, tn in enumerate(timers):
            if tn is None:
                continue
            t, n = tn
            best[k] = min(best[k], t.timeit(number=n) / n * 1e9)
    return [None if tn is None else b for tn, b in zip(timers, best)]


def load_package_as(path, name):
    """Imports the `rcute` package found in the folder `path` (for example
    the site-packages of another virtual environment holding another build)
    under the module name `name`, next to the `rcute` of this interpreter."""
    pkg = pathlib.Path(path) / "rcute"
    init = pkg / "__init__.py"
    if not init.exists():
        raise SystemExit(f"no rcute package in {path}")
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(pkg)])
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def reference():
    """The pure-Python reference PyCuTe (the `pycute` package of
    CUTLASS's `nvidia-cutlass` wheel), or None when it is not installed."""
    try:
        return importlib.import_module("pycute")
    except ImportError:
        return None
