"""Lengths as a layout writes them: ``"3mm"``, ``"50%"``, ``"100% - 2 * frame"``, ``"min(60pt, 80%)"``.

A length is a small arithmetic expression: numbers with a unit (``mm``, ``cm``,
``in``, ``pt``, ``%``), bare numbers, ``+ - * /``, parentheses, ``min()`` and
``max()``, the trim's ``width`` and ``height``, a layout's named values
(``frame``) and other boxes' places (``art.bottom``, ``title.size``).
:func:`parse` turns the text into a tree once, of at most :data:`MAX_DEPTH`
levels (brackets, functions, signs and operations inside one another, each a
level: ``a + b + c`` is two); :func:`evaluate` computes it in points for one card.  Lengths in mm, cm, in and pt are multiplied by the
layout's scale (a layout drawn at another card size than it was made for);
``%`` is a share of the trim (or of what the key measures) and is not.
Nothing here draws.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Union

from kitgen.units import MM, PT_PER_INCH

UNITS = {"mm": MM, "cm": 10 * MM, "in": PT_PER_INCH, "pt": 1.0}
MAX_DEPTH = 64              # levels of a length's tree: far more than a layout needs, far less than Python's stack
ATTRS = ("x", "y", "w", "h", "right", "bottom", "size")
FUNCTIONS = ("min", "max")
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d*)?|\.\d+)(?P<unit>mm|cm|in|pt|%)?(?![A-Za-z_])"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_]+)?)|(?P<op>[-+*/(),]))")


class LengthError(ValueError):
    """A length that cannot be read or computed; the message says why (the caller says where)."""


@dataclass(frozen=True)
class Num:
    value: float
    unit: str | None          # None: a bare number


@dataclass(frozen=True)
class Name:
    name: str                 # width, height, a named value, or a box
    attr: str | None          # the box's x, y, w, h, right, bottom or size


@dataclass(frozen=True)
class Neg:
    arg: "Expr"


@dataclass(frozen=True)
class Bin:
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Call:
    fn: str
    args: tuple["Expr", ...]


Expr = Union[Num, Name, Neg, Bin, Call]


def parse(text: str | int | float) -> Expr:
    """The tree of a length, or LengthError naming what is wrong and where."""
    if isinstance(text, bool):
        raise LengthError(f"{text!r} is not a length")
    if isinstance(text, (int, float)):
        return Num(float(text), None)
    return _parse_text(str(text))


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Expr:
    """The tree of a written length (a layout writes the same lengths many times; trees are never changed)."""
    single = _single(text)
    if single is not None:
        return single
    tokens = _tokens(text)
    parser = _Parser(tokens, text)
    expr, _ = parser.expr()
    if parser.pos < len(tokens):
        raise LengthError(f"unexpected {tokens[parser.pos][1]!r} in {text!r}")
    return expr


def _single(text: str) -> Num | Name | None:
    """The tree of a length of one number or one name ("3mm", "title.bottom"), most lengths a layout
    writes, read by the one token it is; None for anything else (the parser reads it, and says what
    is wrong)."""
    text = text.rstrip()
    m = _TOKEN.match(text)
    if m is None or m.end() != len(text):
        return None
    if m.group("num") is not None:
        return Num(float(m.group("num")), m.group("unit"))
    value = m.group("name")
    if value is None:
        return None
    name, _, attr = value.partition(".")
    if attr and attr not in ATTRS:
        return None
    return Name(name, attr or None)


def _tokens(text: str) -> list[tuple[str, object]]:
    pos, out = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise LengthError(f"cannot read {text[pos:].strip()!r} in {text!r}; write lengths like "
                              "\"3mm\", \"50%\" or \"100% - 2mm\"")
        if m.group("num") is not None:
            out.append(("num", (float(m.group("num")), m.group("unit"))))
        elif m.group("name") is not None:
            out.append(("name", m.group("name")))
        else:
            out.append(("op", m.group("op")))
        pos = m.end()
    if not out:
        raise LengthError("an empty length")
    return out


class _Parser:
    """Reads tokens into a tree; each method returns (tree, its depth), and no tree grows deeper than
    MAX_DEPTH (brackets are checked on the way down, so the parser's own recursion stays shallow too)."""

    def __init__(self, tokens, text):
        self.tokens, self.text, self.pos, self.nesting = tokens, text, 0, 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, op=None):
        kind, value = self.peek()
        if kind is None:
            raise LengthError(f"{self.text!r} ends too soon")
        if op is not None and value != op:
            raise LengthError(f"expected {op!r} in {self.text!r}, found {value!r}")
        self.pos += 1
        return kind, value

    def check(self, depth: int) -> int:
        if depth > MAX_DEPTH:
            raise LengthError(f"{self.text!r} is nested more than {MAX_DEPTH} levels deep (brackets, min() and "
                              "max(), signs and + - * / inside one another, each a level); write it more simply")
        return depth

    def expr(self) -> tuple[Expr, int]:
        left, depth = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()[1]
            right, deep = self.term()
            left, depth = Bin(op, left, right), self.check(max(depth, deep) + 1)
        return left, depth

    def term(self) -> tuple[Expr, int]:
        left, depth = self.factor()
        while self.peek()[1] in ("*", "/"):
            op = self.take()[1]
            right, deep = self.factor()
            left, depth = Bin(op, left, right), self.check(max(depth, deep) + 1)
        return left, depth

    def factor(self) -> tuple[Expr, int]:
        self.nesting = self.check(self.nesting + 1)
        try:
            return self._factor()
        finally:
            self.nesting -= 1

    def _factor(self) -> tuple[Expr, int]:
        kind, value = self.take()
        if kind == "num":
            return Num(*value), 1
        if kind == "op" and value == "-":
            arg, depth = self.factor()
            return Neg(arg), self.check(depth + 1)
        if kind == "op" and value == "+":
            return self.factor()
        if kind == "op" and value == "(":
            inner = self.expr()
            self.take(")")
            return inner
        if kind == "name":
            if self.peek()[1] == "(":
                if value not in FUNCTIONS:
                    raise LengthError(f"unknown function {value!r} in {self.text!r}; use min() or max()")
                self.take("(")
                args = [self.expr()]
                while self.peek()[1] == ",":
                    self.take(",")
                    args.append(self.expr())
                self.take(")")
                return Call(value, tuple(a for a, _ in args)), self.check(max(d for _, d in args) + 1)
            name, _, attr = value.partition(".")
            if attr and attr not in ATTRS:
                raise LengthError(f"{value!r} in {self.text!r}: a box has {', '.join(ATTRS)}")
            return Name(name, attr or None), 1
        raise LengthError(f"unexpected {value!r} in {self.text!r}")


def names(expr: Expr) -> set[tuple[str, str | None]]:
    """Every (name, attribute) the expression refers to."""
    if isinstance(expr, Name):
        return {(expr.name, expr.attr)}
    if isinstance(expr, Neg):
        return names(expr.arg)
    if isinstance(expr, Bin):
        return names(expr.left) | names(expr.right)
    if isinstance(expr, Call):
        return set().union(*(names(a) for a in expr.args))
    return set()


# A value while computing: (number, 1 for a length in points or 0 for a plain number).
Value = tuple[float, int]
Lookup = Callable[[str, "str | None"], Value]


def evaluate(expr: Expr, lookup: Lookup, scale: float, percent_of: float | None) -> Value:
    """The expression's value: lengths in points (scaled), numbers as they are.

    ``lookup(name, attr)`` gives the value of a name; ``percent_of`` is what
    100% stands for here (None: ``%`` has no meaning for this key).
    """
    kind = expr.__class__                # the tree's classes are final: compared, not isinstance'd
    if kind is Num:
        unit = expr.unit
        if unit is None:
            return expr.value, 0
        if unit == "%":
            if percent_of is None:
                raise LengthError("% has no meaning here; give a length such as \"2mm\"")
            return expr.value / 100 * percent_of, 1
        return expr.value * UNITS[unit] * scale, 1
    if kind is Name:
        return lookup(expr.name, expr.attr)
    if kind is Neg:
        v, d = evaluate(expr.arg, lookup, scale, percent_of)
        return -v, d
    if kind is Call:
        values = [evaluate(a, lookup, scale, percent_of) for a in expr.args]
        if len({d for _, d in values}) > 1:
            raise LengthError(f"{expr.fn}() mixes lengths and plain numbers")
        pick = min if expr.fn == "min" else max
        return pick(v for v, _ in values), values[0][1]
    a, da = evaluate(expr.left, lookup, scale, percent_of)
    b, db = evaluate(expr.right, lookup, scale, percent_of)
    if expr.op in "+-":
        if da != db:
            raise LengthError("cannot add a length and a plain number; give the number a unit")
        return (a + b if expr.op == "+" else a - b), da
    if expr.op == "*":
        if da and db:
            raise LengthError("cannot multiply two lengths")
        return a * b, da + db
    if db and not da:
        raise LengthError("cannot divide a plain number by a length")
    if b == 0:
        raise LengthError("division by zero")
    return a / b, da - db


def points(value: Value, scale: float, bare_unit: float) -> float:
    """A computed value as points: a plain number counts in ``bare_unit`` (mm for places, pt for
    type sizes), scaled like any other length."""
    v, d = value
    return v if d else v * bare_unit * scale
