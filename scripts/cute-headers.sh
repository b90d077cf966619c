#!/usr/bin/env bash
# Fetches the C++ CuTe headers and the CUDA host headers they include (from
# the PyPI wheels nvidia-cutlass and nvidia-cuda-{runtime,cccl,nvcc}-cu12;
# headers only, nothing from them is run) into target/cute-headers/x, once,
# and prints the include directories separated by ':' (for
# RCUTE_CUTE_INCLUDE, read by the test crates/rcute/tests/all/cpp_forms.rs).
#   scripts/cute-headers.sh [PYTHON]    # PYTHON with pip (default python3)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-python3}
DIR="${CARGO_TARGET_DIR:-target}/cute-headers"
mkdir -p "$DIR" && DIR=$(cd "$DIR" && pwd)   # absolute: the tests run elsewhere
X="$DIR/x"
CUTE="$X/cutlass_library/source/include"
NV="$X/nvidia"
if [ ! -f "$CUTE/cute/layout.hpp" ] || [ ! -f "$NV/cuda_nvcc/include/crt/host_defines.h" ]; then
  mkdir -p "$DIR/wheels"
  "$PY" -m pip download --no-deps -q -d "$DIR/wheels" nvidia-cutlass==4.2.0.0 \
    nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-cccl-cu12==12.9.27 nvidia-cuda-nvcc-cu12==12.9.86 >&2
  "$PY" - "$DIR" <<'PYEOF'
import glob, os, sys, zipfile
d = sys.argv[1]
for w in glob.glob(os.path.join(d, "wheels", "*.whl")):
    with zipfile.ZipFile(w) as z:
        for n in z.namelist():
            if n.startswith("cutlass_library/source/include/cute/") or \
               n.startswith("cutlass_library/source/include/cutlass/") or \
               (n.startswith("nvidia/") and "/include/" in n):
                z.extract(n, os.path.join(d, "x"))
PYEOF
fi
echo "$CUTE:$NV/cuda_runtime/include:$NV/cuda_cccl/include:$NV/cuda_nvcc/include"
