"""Symbolic integers from Python: rcute.Symbol, rcute.SymInt, sympy
expressions. Expected values are hand-derived (the rules of
docs/language.md, "Symbols"), and a substitution property checks random
expressions against Python's own integer arithmetic."""

import random

import pytest

import rcute
from rcute import Symbol, SymInt


def test_worked_examples():
    # hand-derived: 16 | Q, so Q//16 and (Q+5)//16 are exact; R has no fact
    Q = Symbol("Q", divisible_by=16)
    R = Symbol("R")
    assert str(Q * R) == "Q*R"
    assert str(2 * Q + 1) == "2*Q + 1"
    assert str(Q // 16) == "Q/16" and str((Q + 5) // 16) == "Q/16"
    assert (Q + 5) % 16 == 5 and isinstance((Q + 5) % 16, int)
    assert str(R // 4) == "R//4" and str(R % 4) == "R % 4"
    assert str(Q / 8) == "Q/8"
    with pytest.raises(ValueError, match="divides R"):
        R / 8
    # size and product of symbolic shapes
    assert str(rcute.size((Q, (4, R)))) == "4*Q*R"
    assert str(rcute.product((Q, R, 2))) == "2*Q*R"
    # substitution, checked against the facts
    assert (Q * R).subs(Q=32) == 32 * R
    assert (Q * R).subs({"Q": 32, "R": 3}) == 96
    assert rcute.subs((Q * R, R // 4), Q=32, R=9) == (288, 2)
    with pytest.raises(ValueError, match="Q % 16 == 0"):
        (Q * R).subs(Q=40)
    # integers of the reference's API, but not static
    assert rcute.is_int(Q) and not rcute.is_static(Q)
    # order is what the facts prove, an error otherwise
    assert Q >= 16 and Q > 8
    with pytest.raises(TypeError, match="decide neither"):
        Q > 16
    # a layout needs concrete integers (symbolic layouts are not available yet)
    with pytest.raises(TypeError, match="symbolic integer Q"):
        rcute.Layout((Q, 4))


def test_redeclaring_adds_facts():
    a = Symbol("Wa", divisible_by=4)
    b = Symbol("Wa", divisible_by=6)  # 4 and 6: 12 divides it now
    assert b.symbols() == [("Wa", 12, 12)]
    assert a == b  # the same symbol
    with pytest.raises(ValueError):
        Symbol("1x")
    with pytest.raises(ValueError):
        Symbol("Wb", divisible_by=0)


def _rand_expr(rng, depth):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["A", "B", str(rng.randint(-4, 12))])
    op = rng.choice(["+", "-", "*", "//", "%"])
    rhs = str(rng.choice([1, 2, 3, 4, 8])) if op in ("//", "%") else _rand_expr(rng, depth - 1)
    return f"({_rand_expr(rng, depth - 1)} {op} {rhs})"


def test_substitution_property():
    # whenever the symbolic expression evaluates, substituting admissible
    # values gives what Python's integers give
    A = Symbol("A", divisible_by=4)
    B = Symbol("B", min=3)
    rng = random.Random(20261205)
    checked = 0
    for _ in range(3000):
        e = _rand_expr(rng, 3)
        a, b = 4 * rng.randint(1, 20), rng.randint(3, 40)
        try:
            s = eval(e, {"A": A, "B": B})
        except OverflowError:
            continue
        want = eval(e, {"A": a, "B": b})
        got = s.subs(A=a, B=b) if isinstance(s, SymInt) else s
        assert got == want, (e, a, b, s)
        checked += 1
    assert checked > 2500


def test_sympy_in_sympy_out():
    sympy = pytest.importorskip("sympy")
    N, M = sympy.symbols("N M", positive=True, integer=True)
    r = rcute.size((N, 4))
    assert isinstance(r, sympy.Expr) and r == 4 * N
    r = rcute.subs((N * M, sympy.floor(M / 4) + sympy.Mod(N, 3)), M=9)
    assert r[0] == 9 * N and r[1] == 2 + sympy.Mod(N, 3)
    K = Symbol("K")
    assert isinstance(K + N, sympy.Expr) and (K + N) == sympy.Symbol("K", positive=True, integer=True) + N
    assert sympy.sympify(K * 2) == 2 * sympy.Symbol("K", positive=True, integer=True)
    with pytest.raises(ValueError, match="not a positive integer"):
        rcute.product((sympy.Symbol("Yn", negative=True), 2))
    with pytest.raises(TypeError):
        rcute.product((sympy.Float(1.5), 2))


def test_facts_assumed_later_hold_for_earlier_values():
    # the values share their symbol's facts: a later declaration holds for
    # them too (found by review: 17*N/16 once substituted N=8 gave 17/2)
    X = Symbol("Fl")
    F16 = Symbol("Fl", divisible_by=16)
    y = X + F16 / 16
    assert str(y) == "17*Fl/16"
    with pytest.raises(ValueError, match="at least 16"):
        y.subs(Fl=8)
    assert y.subs(Fl=32) == 34


def test_printed_forms_read_back():
    # hand-derived: a leading minus binds tighter than // and %, and a power
    # divisor needs parentheses
    P = Symbol("Pr")
    Q = Symbol("Qr")
    assert str(-(P // 4)) == "-(Pr//4)" and (-(P // 4)).subs(Pr=5) == -1
    assert str(-(P % 4)) == "-(Pr % 4)" and (-(P % 4)).subs(Pr=5) == -1
    assert str(Q // (P * P)) == "Qr//(Pr*Pr)" and (Q // (P * P)).subs(Qr=10, Pr=2) == 2
    # each printed form, read back by Python's own operators (the same
    # precedence as the notation's), is the same value
    for e in [-(P // 4), -(P % 4), Q // (P * P), Q % (P * P), 2 * (Q // 4) - P]:
        assert eval(str(e), {"Pr": P, "Qr": Q}) == e


def test_python_semantics():
    K = Symbol("Ks")
    with pytest.raises(TypeError, match="truth value"):
        bool((K // 4) * 4 + K % 4 - K)
    assert bool(K) is True
    with pytest.raises(ZeroDivisionError):
        K // 0
    with pytest.raises(ZeroDivisionError):
        K / 0
    assert str(K**2) == "Ks*Ks" and str(divmod(K + 5, 4)) == "((Ks + 5)//4, (Ks + 5) % 4)"
    assert str(abs(-K)) == "Ks"
    # a symbol named like the parameters of subs
    x = Symbol("x")
    values = Symbol("values")
    assert rcute.subs(x + 1, x=3) == 4 and (values + 1).subs(values=3) == 4


def test_sympy_symbols_come_back():
    sympy = pytest.importorskip("sympy")
    x = sympy.Symbol("xs")  # no assumptions: read as a positive integer
    r = rcute.size((x, 4))
    assert r.free_symbols == {x} and r.subs(x, 3) == 12
    K = Symbol("Kq")
    kq = sympy.Symbol("Kq", positive=True, integer=True)
    assert (K == kq) and (kq == K)
    assert (K == sympy.Float(1.5)) is False
    assert sympy.sympify(-(K // 4)) == -sympy.floor(kq / 4)
    assert sympy.sympify(Symbol("lambda") + 1).free_symbols
