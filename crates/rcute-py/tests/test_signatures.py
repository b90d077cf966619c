"""The module's version, and the signatures and help of the operations."""

import inspect
import pathlib
import pydoc
import re

import rcute
from rcute import _rcute

ROOT = pathlib.Path(__file__).resolve().parents[3]


def test_version_is_the_crate_version():
    cargo = (ROOT / "Cargo.toml").read_text()
    version = re.search(r'^\[workspace\.package\][^\[]*?^version\s*=\s*"([^"]+)"', cargo,
                        re.M | re.S).group(1)
    assert rcute.__version__ == version == _rcute.__version__
    assert isinstance(rcute.__version__, str)


def test_every_operation_has_a_signature():
    for name, python_signature, _doc in _rcute.operations():
        obj = getattr(rcute, name)
        sig = inspect.signature(obj)  # never raises
        if isinstance(obj, _rcute.Operation):
            assert name + str(sig) == python_signature, name
            # a subscripted operation has the same parameters
            if "mode=()" in python_signature:
                assert inspect.signature(obj[0]) == sig, name


def test_signature_parameters_follow_the_table():
    sig = inspect.signature(rcute.complement)
    assert list(sig.parameters) == ["A", "extend"]
    assert sig.parameters["extend"].default is None
    sig = inspect.signature(rcute.coalesce)
    assert sig.parameters["profile"].default == 1
    assert sig.parameters["mode"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["mode"].default == ()
    sig = inspect.signature(rcute.make_layout)  # the Python helper
    assert str(sig) == "(*args)"
    assert str(inspect.signature(rcute.E)) == "(*seq)"
    assert str(inspect.signature(rcute.Layout)) == "(shape, stride=None)"
    # a signature binds the arguments the operation accepts
    sig = inspect.signature(rcute.composition)
    sig.bind(rcute.Layout(4, 1), rcute.Layout(2, 1), mode=(0,))


def test_help_shows_signature_and_doc():
    text = pydoc.render_doc(rcute.composition, renderer=pydoc.plaintext)
    assert "composition(A, B, C=None, *, mode=())" in text
    assert "the layout A ∘ B (A after B)." in text
    assert "composition((6,2):(8,2), (4,3):(3,1))" in text
    text = pydoc.render_doc(rcute.complement, renderer=pydoc.plaintext)
    assert "complement(A, extend=None)" in text
