"""The Python operations come from the Rust operation table (rcute::ops)."""

import rcute
from rcute import _rcute


def test_every_operation_is_exported():
    table = _rcute.operations()
    assert len(table) > 80
    for name, signature, doc in table:
        assert name in rcute.__all__, name
        assert callable(getattr(rcute, name)), name
        assert signature.startswith(name + "("), signature
        assert doc.startswith(signature), name


def test_operation_docstrings_come_from_the_table():
    docs = {name: doc for name, _, doc in _rcute.operations()}
    for name in docs:
        obj = getattr(_rcute, name)
        if isinstance(obj, _rcute.Operation):
            assert obj.__doc__ == docs[name], name
            assert obj[0].__doc__ == docs[name], name  # a subscript keeps it
    assert rcute.coalesce.__doc__.startswith("coalesce(A, profile=1, *, mode=())\n")
    assert "12:1" in rcute.coalesce.__doc__


def test_table_examples_through_the_notation():
    for name, _, doc in _rcute.operations():
        example, output = doc.rstrip("\n").splitlines()[-2:]
        assert rcute.eval_notation_str(example.strip()) == output.strip(), name


def test_keywords_are_the_table_parameters():
    assert str(rcute.complement(rcute.Layout((2, 2), (1, 6)), extend=24)) == "(3, 2):(2, 12)"
    assert str(rcute.make_ordered_layout(shape=(4, 8), order=(1, 0))) == "(4, 8):(8, 1)"
    assert rcute.get((10, (11, 12)), path=(1, 0)) == 11
