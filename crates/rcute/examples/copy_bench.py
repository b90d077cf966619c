"""numpy's transposing copy of 2^24 float32, the reference figure for
`cargo run --release -p rcute --example copy_bench` (docs/performance.md).

Run: python3 copy_bench.py [reps]   (needs numpy)
"""
import sys
import time

import numpy as np

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
n = 4096
a = np.arange(n * n, dtype=np.float32).reshape(n, n)


def timed(f):
    f()  # warm-up
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t) * 1e3)
    ts.sort()
    return ts[0], ts[len(ts) // 2]


out = np.empty_like(a)
tmin, tmed = timed(lambda: np.ascontiguousarray(a.T))
assert np.ascontiguousarray(a.T)[1, 0] == a[0, 1]
cmin, cmed = timed(lambda: np.copyto(out, a))
print(f"numpy {np.__version__}, 2^24 float32, {reps} reps")
print(f"np.ascontiguousarray(a.T): min {tmin:.2f} ms, median {tmed:.2f} ms")
print(f"np.copyto(out, a) (contiguous): min {cmin:.2f} ms, median {cmed:.2f} ms")
