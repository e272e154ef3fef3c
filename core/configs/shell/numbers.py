"""bash's integers: constants as it writes them, its operators, and its 64 bits (pure functions)."""

from __future__ import annotations

import re
from collections.abc import Callable

from effbatch.core.configs.shell.limits import LIMIT, MAX_DIGITS, too_much
from effbatch.core.configs.shell.precedence import ASSIGNMENTS, Conditional, Expression, Operand, Postfix, Prefix
from effbatch.core.configs.shell.variables import BashError

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_"
_DECIMAL = re.compile(r"[0-9]+")
_DIGITS_OF = {8: re.compile(r"[0-7]+"), 10: _DECIMAL, 16: re.compile(r"[0-9a-fA-F]+")}


def bounded(value: int, line: int) -> int:
    """bash computes in 64 bits and wraps around beyond them; a value there is refused, not wrapped."""
    if not -LIMIT <= value < LIMIT:
        raise too_much("shell_long_number", MAX_DIGITS, line)
    return value


def constant(text: str, line: int) -> int:
    """A bash integer constant: decimal, ``0x…``, ``0…`` (octal), ``base#digits``; a malformed one a ``BashError``."""
    if len(text) > 2 * MAX_DIGITS + 8:
        raise too_much("shell_long_number", MAX_DIGITS, line)
    if "#" in text:
        base_text, _, digits = text.partition("#")
        if not _DECIMAL.fullmatch(base_text) or not 2 <= int(base_text) <= 64 or not digits:
            raise BashError("invalid arithmetic base")
        base, value = int(base_text), 0
        for char in digits:
            digit = _DIGITS.find(char if base > 36 else char.lower())
            if not 0 <= digit < base:
                raise BashError("value too great for base")
            value = value * base + digit
        return bounded(value, line)
    if text[:2] in ("0x", "0X"):
        base, text = 16, text[2:] or "0"  # bash reads 0x alone as 0
    else:
        base = 8 if text.startswith("0") else 10
    if not _DIGITS_OF[base].fullmatch(text):
        raise BashError("value too great for base")
    return bounded(int(text, base), line)


def binary(operator: str, left: int, right: int, line: int) -> int | None:
    """``left operator right`` as bash computes it (C division and remainder, 64-bit shifts); ``BashError`` where
    bash fails."""
    if operator in ("/", "%"):
        if right == 0:
            raise BashError("division by 0")
        if left == -LIMIT and right == -1:  # expr.c: the one quotient beyond 64 bits is the smallest number itself
            return left if operator == "/" else 0
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)  # C: towards zero
        return quotient if operator == "/" else left - quotient * right
    if operator == "**":
        if right < 0:
            raise BashError("exponent less than 0")
        if abs(left) > 1 and right * (abs(left).bit_length() - 1) > 64:
            raise too_much("shell_long_number", MAX_DIGITS, line)
        return int(left**right)
    if operator in ("<<", ">>"):
        return shifted(operator, left, right)
    compute = _TABLE.get(operator)
    return compute(left, right) if compute is not None else None


def shifted(operator: str, left: int, right: int) -> int:
    """bash's ``<<`` and ``>>``: C's shift of a 64-bit number, whose count the processor (x86-64 and arm64 alike)
    takes modulo 64, a negative one too (``256 >> 64`` is 256, ``1 << -1`` the smallest number); the bits shifted
    out of the left are lost, the sign shifted in on the right."""
    count = right % 64
    if operator == ">>":
        return left >> count
    bits = (left << count) % (2 * LIMIT)
    return bits - 2 * LIMIT if bits >= LIMIT else bits


_TABLE: dict[str, Callable[[int, int], int]] = {
    "+": lambda left, right: left + right,
    "-": lambda left, right: left - right,
    "*": lambda left, right: left * right,
    "<": lambda left, right: int(left < right),
    ">": lambda left, right: int(left > right),
    "<=": lambda left, right: int(left <= right),
    ">=": lambda left, right: int(left >= right),
    "==": lambda left, right: int(left == right),
    "!=": lambda left, right: int(left != right),
    "&": lambda left, right: left & right,
    "|": lambda left, right: left | right,
    "^": lambda left, right: left ^ right,
}


def skipped(expression: Expression) -> int:
    """A side bash reads without computing it (``0 && …``, ``?:``): variables are 0 there and nothing is assigned,
    but a negative exponent is an error all the same (bash's ``expr.c`` checks it before ``noeval``)."""
    if isinstance(expression, Operand):
        return constant(expression.text, 0) if expression.text[0].isdigit() else 0
    if isinstance(expression, Postfix):
        return 0
    if isinstance(expression, Prefix):
        value = skipped(expression.operand)
        changed = {"++": value + 1, "--": value - 1}  # of a variable read as 0
        return {"-": -value, "+": value, "!": int(not value), "~": ~value, **changed}[expression.operator]
    if isinstance(expression, Conditional):
        condition, then, otherwise = (
            skipped(part) for part in (expression.condition, expression.then, expression.otherwise)
        )
        return then if condition else otherwise
    left, right = skipped(expression.left), skipped(expression.right)
    operator = (
        expression.operator.removesuffix("=") if expression.operator in ASSIGNMENTS - {"="} else expression.operator
    )
    if operator == "=" or operator == ",":
        return right
    if operator == "**" and right < 0:
        raise BashError("exponent less than 0")
    if operator in ("/", "%", "**", "<<", ">>") and (right == 0 or abs(right) > 64 or abs(left) > 2**32):
        return 0  # no error where bash reads without computing, and no need of the exact value
    if operator in ("&&", "||"):
        return int(bool(left) and bool(right)) if operator == "&&" else int(bool(left) or bool(right))
    try:
        found = binary(operator, left, right, 0)
    except BashError:
        return 0
    return found if found is not None and -(2**63) <= found < 2**63 else 0
