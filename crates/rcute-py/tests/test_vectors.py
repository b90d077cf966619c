"""The shared conformance vectors, run through the Python API, must give the
CLI's answers (the comparison rule of vectors/README.md)."""

import json
import os
import pathlib

import pytest

from notation_driver import run

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _vector_dir():
    shared = pathlib.Path(os.environ.get("RCUTE_SHARED", ROOT.parent / "shared")) / "vectors"
    return shared if shared.is_dir() else ROOT / "tests" / "conformance" / "vectors"


def _cases():
    out = []
    for f in sorted(_vector_dir().rglob("*.jsonl")):
        for line in f.read_text().splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


CASES = _cases()


def _norm(s):
    return "".join(s.split())


def test_vectors_found():
    assert len(CASES) > 8000


def test_vectors_through_python():
    failures = []
    for case in CASES:
        got = run(case["expr"])
        exp = case["expect"]
        ok = got.startswith("error") if exp.startswith("error") else _norm(got) == _norm(exp)
        if not ok:
            failures.append((case["expr"], exp, got))
    report = "\n".join(f"{e}\n  expected {x}\n  got      {g}" for e, x, g in failures[:30])
    assert not failures, f"{len(failures)} of {len(CASES)} vectors differ:\n{report}"


@pytest.mark.parametrize("expr", [
    "composition((6,2):(8,2), (4,3):(3,1))",
    "zipped_divide((4096,4096):(1,4096), (128,64))",
    "right_inverse(((4,8),(2,2)):((32,1),(16,8)))",
    "3*E(0)+5*E(1)",
    "F2(3)*3",
])
def test_same_as_cli_text(expr):
    import rcute
    assert _norm(run(expr)) == _norm(rcute.eval_notation_str(expr))
