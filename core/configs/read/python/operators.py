"""Python's operators on known values, as Python computes them, within the reader's bounds.

Whatever Python would raise (a ``TypeError``, ``ZeroDivisionError``) or what would leave the bounds (a number
beyond ``MAX_MAGNITUDE``, a string beyond ``MAX_STRING``) is ``UndecidableError``: the expression's value is then
unknown, never guessed.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

from effbatch.core.configs.read.python.limits import MAX_ITEMS, MAX_MAGNITUDE, MAX_STRING


class UndecidableError(Exception):
    """An operation whose value the reader does not compute (Python would raise, or it leaves the bounds)."""


_BINARY: Mapping[type[ast.operator], Callable[[object, object], object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}
_INPLACE: Mapping[type[ast.operator], Callable[[object, object], object]] = {
    ast.Add: operator.iadd,
    ast.Sub: operator.isub,
    ast.Mult: operator.imul,
    ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv,
    ast.Mod: operator.imod,
    ast.Pow: operator.ipow,
    ast.LShift: operator.ilshift,
    ast.RShift: operator.irshift,
    ast.BitAnd: operator.iand,
    ast.BitOr: operator.ior,
    ast.BitXor: operator.ixor,
}
_COMPARE: Mapping[type[ast.cmpop], Callable[[Any, Any], object]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: operator.contains(b, a),
    ast.NotIn: lambda a, b: not operator.contains(b, a),
}
#: Plain values the operators are applied to; anything else (a module, an instance) is undecidable.
PLAIN = (int, float, str, bool, type(None), tuple, list, dict, set, frozenset, range, type)


def binary(op: ast.operator, left: object, right: object, *, in_place: bool = False) -> object:
    """``left <op> right`` (``left <op>= right`` where ``in_place``: a list grows where it is), checked before
    computing where the result could grow beyond the bounds."""
    table = _INPLACE if in_place else _BINARY
    if not isinstance(left, PLAIN) or not isinstance(right, PLAIN) or type(op) not in table:
        raise UndecidableError
    _guard_size(op, left, right)
    try:
        result = table[type(op)](left, right)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError, MemoryError):
        raise UndecidableError from None
    return bounded(result)


def _guard_size(op: ast.operator, left: object, right: object) -> None:
    """``**`` and ``<<`` on numbers, and repetition of sequences, refused where the result would be too large."""
    if isinstance(op, ast.Pow) and _number(left) and _number(right):
        base: Any = abs(left)  # type: ignore[arg-type]
        exponent: Any = right
        if isinstance(exponent, int) and base > 1 and exponent * max(int(base).bit_length(), 1) > 110:
            raise UndecidableError
        if isinstance(exponent, float) and exponent > 1000:
            raise UndecidableError
    if isinstance(op, ast.LShift) and isinstance(right, int) and right > 100:
        raise UndecidableError
    if isinstance(op, ast.Mult):
        sequence, times = (left, right) if isinstance(right, int) else (right, left)
        if isinstance(sequence, str | tuple | list) and isinstance(times, int):
            limit = MAX_STRING if isinstance(sequence, str) else MAX_ITEMS
            if times > 0 and len(sequence) * times > limit:
                raise UndecidableError


def unary(op: ast.unaryop, operand: object) -> object:
    if not isinstance(operand, PLAIN):
        raise UndecidableError
    try:
        if isinstance(op, ast.Not):
            return not operand
        if isinstance(op, ast.USub):
            return bounded(-operand)  # type: ignore[operator]
        if isinstance(op, ast.UAdd):
            return bounded(+operand)  # type: ignore[operator]
        return bounded(~operand)  # type: ignore[operator]
    except TypeError:
        raise UndecidableError from None


def compare(op: ast.cmpop, left: object, right: object) -> object:
    if not isinstance(left, PLAIN) or not isinstance(right, PLAIN):
        raise UndecidableError
    try:
        return _COMPARE[type(op)](left, right)
    except (TypeError, KeyError):
        raise UndecidableError from None


def bounded(value: object) -> object:
    """``value`` where it stays within the bounds (numbers, strings, containers)."""
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > MAX_MAGNITUDE:
        raise UndecidableError
    if isinstance(value, str) and len(value) > MAX_STRING:
        raise UndecidableError
    if isinstance(value, tuple | list | dict | set | frozenset) and len(value) > MAX_ITEMS:
        raise UndecidableError
    return value


def _number(value: object) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool)) or isinstance(value, bool)


def truth(value: object) -> bool:
    """Python's truth of a plain value."""
    if not isinstance(value, PLAIN):
        raise UndecidableError
    return bool(value)
