"""Drive the Python API from notation text: each statement is parsed by
rcute's parser and evaluated by calling the *Python* API (rcute.Layout,
rcute.composition, operators on ArithTuple/F2, ...), never the notation
evaluator, so the shared vectors exercise the Python module itself."""

from fractions import Fraction

import rcute


def _has_none(c):
    return c is None or (isinstance(c, tuple) and any(_has_none(x) for x in c))


def evaluate(node):
    kind = node[0]
    if kind == "int":
        return node[1]
    if kind == "f2":
        return rcute.F2(node[1])
    if kind == "name":
        name = node[1]
        if name in ("None", "_"):
            return None
        if name in ("True", "False"):
            return name == "True"
        return getattr(rcute, name)
    if kind == "tuple":
        return tuple(evaluate(x) for x in node[1])
    if kind == "neg":
        return -evaluate(node[1])
    if kind == "layout":
        return rcute._rcute._layout_literal(evaluate(node[1]), evaluate(node[2]))
    if kind == "bin":
        op, a, b = node[1], evaluate(node[2]), evaluate(node[3])
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "//":
            return a // b
        if op == "%":
            return a % b
        if op == "/":
            return Fraction(a, b)
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "@":
            return rcute.ScaledBasis(a, (b,)) if isinstance(a, int) else a @ b
        raise ValueError(f"unknown operator {op}")
    if kind == "index":
        x = evaluate(node[1])
        idx = [evaluate(i) for i in node[2]]
        if isinstance(x, rcute._rcute.Operation):
            return x[tuple(idx)] if len(idx) > 1 else x[idx[0]]
        for i in idx:
            x = x[i]
        return x
    if kind == "call":
        f = evaluate(node[1])
        args = [evaluate(a) for a in node[2]]
        kwargs = {k: evaluate(v) for k, v in node[3]}
        if isinstance(f, rcute.LayoutBase):
            crd = args[0] if len(args) == 1 else tuple(args)
            if _has_none(crd):
                if crd is None:
                    return f
                return rcute.slice_and_offset(f, crd)[0]
        return f(*args, **kwargs)
    raise ValueError(f"cannot evaluate {node!r}")


def run(expr):
    """The printed result of one statement, or `error: ...`."""
    try:
        tree = rcute._rcute._parse(expr)
        value = evaluate(tree)
    except Exception as e:  # every failure prints as an error line
        return f"error: {type(e).__name__}: {e}"
    return str(value)
