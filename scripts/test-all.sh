#!/usr/bin/env bash
# Runs every rcute test: formatting, clippy, rustdoc, the Rust test suite
# (unit, integration, property and doc tests), a packaging dry run of the
# library crate, the shared conformance vectors and, when the Python module is
# present, its pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== module import cycles"
python3 scripts/module-cycles.py crates/rcute/src

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
# the other feature sets: the library without `png`, the CLI without PNG
# support and with the allocation counter
cargo clippy -p rcute-cli --all-targets --no-default-features --features count-allocs -- -D warnings
# the fuzz targets (a workspace of their own, run with cargo-fuzz) still compile
cargo check -q --manifest-path fuzz/Cargo.toml --bins

echo "== cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps

echo "== cargo test"
# the workspace's features are unified: rcute-cli's default `png` turns the
# library's on, so its PNG tests run here
cargo test --workspace
# `rcute bench`'s allocation counts (a measuring build, not the shipped one)
cargo test -p rcute-cli --features count-allocs

echo "== cargo publish --dry-run (the library crate)"
cargo publish --dry-run -p rcute --allow-dirty

echo "== conformance vectors"
cargo build --release -p rcute-cli
SHARED="${RCUTE_SHARED:-../shared}"
if [ -x "$SHARED/tools/check-vectors" ] && [ -d "$SHARED/vectors" ]; then
  CHECK="$SHARED/tools/check-vectors"; VECTORS="$SHARED/vectors"
else
  echo "note: $SHARED not found; using the snapshot in tests/conformance"
  CHECK="tests/conformance/check-vectors"; VECTORS="tests/conformance/vectors"
fi
RCUTE_BIN="${CARGO_TARGET_DIR:-target}/release/rcute"
python3 "$CHECK" --cmd "$RCUTE_BIN eval -f -" "$VECTORS"

if [ -f crates/rcute-py/pyproject.toml ]; then
  echo "== python module"
  VENV="${RCUTE_VENV:-target/py-venv}"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  # numpy: the tests of Ptr over numpy arrays and strided views; sympy: the
  # tests of sympy expressions as symbolic integers
  "$VENV/bin/pip" install -q --upgrade pip "maturin>=1.5,<2" pytest numpy sympy
  # nvidia-cutlass ships CUTLASS's pycute (pure Python: its dependencies are
  # not needed), for the differential test of rcute.compat.cutlass (which is
  # skipped, with a message, without it)
  "$VENV/bin/pip" install -q --no-deps nvidia-cutlass==4.2.0.0
  # maturin develop reuses target/ (the same build as the CLI's); `pip install
  # ./crates/rcute-py` gives the same module from a clean build.
  VIRTUAL_ENV="$VENV" "$VENV/bin/maturin" develop -q --release -m crates/rcute-py/Cargo.toml
  # the wheel a user installs builds too (same profile: reuses the build above)
  "$VENV/bin/maturin" build -q --release -m crates/rcute-py/Cargo.toml -o target/wheels
  "$VENV/bin/python" -m pytest -q -rs crates/rcute-py/tests   # -rs: say why a test was skipped
fi

echo "== C++ forms (--style cpp-type / cpp-make) against the CuTe headers"
if command -v "${CXX:-g++}" >/dev/null; then
  # the headers come from PyPI wheels (pip of the Python venv when there is one)
  PY=python3; [ -x "${VENV:-}/bin/python" ] && PY="$VENV/bin/python"
  INC=$(scripts/cute-headers.sh "$PY")
  RCUTE_CUTE_INCLUDE="$INC" RCUTE_REQUIRE_CPP=1 cargo test -p rcute --test all cpp_forms
else
  echo "note: ${CXX:-g++} not found; skipping the C++ forms test"
fi
echo "== all tests passed"
