"""The examples of docs/python.md run as doctests."""

import doctest
import pathlib

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_python_md_examples():
    text = DOC.read_text()
    blocks = text.split("```python\n")[1:]
    src = "\n".join(b.split("```")[0] for b in blocks)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(src, {}, "python.md", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 5


def test_util_docstrings():
    import rcute.util
    res = doctest.testmod(rcute.util, optionflags=doctest.ELLIPSIS)
    assert res.attempted >= 8 and res.failed == 0, res
