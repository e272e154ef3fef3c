"""bash's own arithmetic grammar, over the text an expression expands to.

bash expands ``$A``, ``${…}``, ``$(( … ))`` and quotes inside an expression first and then reads the text that
makes (``A=1+1; $(( $A * 2 ))`` is 3, an empty ``$A`` a syntax error), so the evaluator does the same: it takes
the text (its expansions replaced by their values, ``arithmetic``), splits it into tokens as bash's ``expr.c`` does
(``++``/``--`` after a variable is its increment, before a variable the other one, anywhere else two signs:
``5--1`` is 6) and parses them by bash's precedence, from the loosest: ``,``; assignments (right to left); ``?:``
(right to left); ``||``; ``&&``; ``|``; ``^``; ``&``; ``==`` ``!=``; ``<`` ``>`` ``<=`` ``>=``; ``<<`` ``>>``; ``+``
``-``; ``*`` ``/`` ``%``; ``**`` (right to left); the prefixes ``!`` ``~`` ``-`` ``+`` ``++`` ``--``; the postfixes.

tree-sitter-bash's own tree of an expression is not used for this: it gives a leading unary operator the rest of
the expression (``-2 * 3 + 10`` as ``-(2 * 3 + 10)``), groups ``**``, ``?:`` and assignments from the left, and
cannot read ``( a , b )``.

Pure: no state, nothing evaluated. ``parse`` gives ``None`` for what bash calls a syntax error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeAlias

from effbatch.core.configs.shell.limits import MAX_DEPTH, too_much

ASSIGNMENTS = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="})
#: Binding power of each binary operator (higher binds tighter); ``**``, ``?:`` and assignments group to the right.
_BINARY = {
    ",": 1,
    **dict.fromkeys(ASSIGNMENTS, 2),
    "?": 3,
    "||": 4,
    "&&": 5,
    "|": 6,
    "^": 7,
    "&": 8,
    **dict.fromkeys(("==", "!="), 9),
    **dict.fromkeys(("<", ">", "<=", ">="), 10),
    **dict.fromkeys(("<<", ">>"), 11),
    **dict.fromkeys(("+", "-"), 12),
    **dict.fromkeys(("*", "/", "%"), 13),
    "**": 14,
}
_RIGHT = frozenset({"**", "?", *ASSIGNMENTS})
#: Prefix operators; ``++x`` and ``x++`` are told apart by the lexer (``pre++``, ``post++``).
_PREFIX = frozenset({"!", "~", "-", "+", "pre++", "pre--"})
_OPERATORS = sorted({*_BINARY, ":", "(", ")", "!", "~", "**"}, key=len, reverse=True)
_NUMBER = re.compile(r"[0-9][0-9A-Za-z@_#]*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Operand:
    """A number (``010``, ``0x1f``, ``2#101``), a variable (``X``) or an element (``A[i + 1]``), as written."""

    text: str


@dataclass(frozen=True)
class Prefix:
    operator: str  # ! ~ - + ++ --
    operand: Expression


@dataclass(frozen=True)
class Postfix:
    operator: str  # ++ --
    operand: Expression


@dataclass(frozen=True)
class Binary:
    """Also ``,``, ``&&``, ``||`` and the assignments (``left`` an ``Operand``)."""

    operator: str
    left: Expression
    right: Expression


@dataclass(frozen=True)
class Conditional:
    condition: Expression
    then: Expression
    otherwise: Expression


Expression: TypeAlias = "Operand | Prefix | Postfix | Binary | Conditional"
Token: TypeAlias = "str | Operand"


def lex(text: str) -> list[Token] | None:
    """The tokens bash reads in ``text``; None for a character it does not accept."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
        elif number := _NUMBER.match(text, position):
            tokens.append(Operand(number.group()))
            position = number.end()
        elif name := _NAME.match(text, position):
            end = _subscript_end(text, name.end())
            if end is None:
                return None
            tokens.append(Operand(text[position:end]))
            position = end
        elif text.startswith(("++", "--"), position):
            tokens.append(_increment(text, position, tokens))
            position += 1 if tokens[-1] in ("+", "-") else 2
        else:
            operator = next((o for o in _OPERATORS if text.startswith(o, position)), None)
            if operator is None:
                return None
            tokens.append(operator)
            position += len(operator)
    return tokens


def _increment(text: str, position: int, tokens: list[Token]) -> str:
    """``++``/``--``: after a variable its increment, before one the other, else a sign (bash's ``expr.c``)."""
    sign = text[position]
    previous = tokens[-1] if tokens else None
    if isinstance(previous, Operand) and not previous.text[0].isdigit():
        return f"post{sign}{sign}"
    rest = text[position + 2 :].lstrip()
    return f"pre{sign}{sign}" if _NAME.match(rest) else sign


def _subscript_end(text: str, end: int) -> int | None:
    """Where ``NAME[…]`` ends (the bracket that closes it), or ``end`` without one; None if it never closes."""
    if end >= len(text) or text[end] != "[":
        return end
    depth = 0
    for position in range(end, len(text)):
        depth += {"[": 1, "]": -1}.get(text[position], 0)
        if depth == 0:
            return position + 1
    return None


def parse(tokens: list[Token]) -> Expression | None:
    """The expression bash reads from ``tokens``; None for a syntax error (or no tokens)."""
    parser = _Parser(tokens)
    expression = parser.expression(0)
    return expression if expression is not None and parser.position == len(tokens) else None


class _Parser:
    """Precedence climbing: left-grouping chains in a loop, recursion only for operands, groups and the right."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.position = 0
        self.depth = 0

    def peek(self) -> Token | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def expression(self, floor: int) -> Expression | None:
        """Operators binding tighter than ``floor``, from the current token on."""
        self.depth += 1
        if self.depth > 4 * MAX_DEPTH:
            raise too_much("shell_nesting", MAX_DEPTH)
        try:
            left = self.unary()
            while left is not None and isinstance(operator := self.peek(), str) and _BINARY.get(operator, 0) > floor:
                self.position += 1
                left = self._binary(operator, left)
            return left
        finally:
            self.depth -= 1

    def _binary(self, operator: str, left: Expression) -> Expression | None:
        power = _BINARY[operator]
        if operator == "?":  # condition ? expression-with-commas : conditional
            then = self.expression(0)
            if then is None or self.peek() != ":":
                return None
            self.position += 1
            otherwise = self.expression(power - 1)
            return None if otherwise is None else Conditional(left, then, otherwise)
        if operator in ASSIGNMENTS and not isinstance(left, Operand):
            return None  # bash: attempted assignment to non-variable
        right = self.expression(power - 1 if operator in _RIGHT else power)
        return None if right is None else Binary(operator, left, right)

    def unary(self) -> Expression | None:
        token = self.peek()
        if token is None:
            return None
        self.position += 1
        if isinstance(token, Operand):
            return self._postfix(token)
        if token in _PREFIX:
            self.depth += 1
            if self.depth > 4 * MAX_DEPTH:
                raise too_much("shell_nesting", MAX_DEPTH)
            try:
                operand = self.unary()
            finally:
                self.depth -= 1
            return None if operand is None else Prefix(token.removeprefix("pre"), operand)
        if token == "(":
            inner = self.expression(0)
            if inner is None or self.peek() != ")":
                return None
            self.position += 1
            return inner
        return None

    def _postfix(self, operand: Operand) -> Expression:
        token = self.peek()
        if token in ("post++", "post--") and isinstance(token, str):
            self.position += 1
            return Postfix(token.removeprefix("post"), operand)
        return operand
