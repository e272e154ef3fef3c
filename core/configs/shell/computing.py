"""Computing an arithmetic expression as bash does, in its 64 bits (``numbers``): C division, ``**``, ``?:``,
``&&``/``||`` that skip their right side (read all the same: ``numbers.skipped``), a variable whose value is an
expression computed in turn, and the variables it assigns."""

from __future__ import annotations

import re

from effbatch.core.configs.shell.grammar import NAME
from effbatch.core.configs.shell.numbers import binary, bounded, constant, skipped
from effbatch.core.configs.shell.precedence import (
    ASSIGNMENTS,
    Binary,
    Conditional,
    Expression,
    Operand,
    Postfix,
    Prefix,
)
from effbatch.core.configs.shell.state import BashError, State

#: A variable's value that is a plain decimal number (no octal ``0…``, at most 19 digits).
_DECIMAL_VALUE = re.compile(r"-?(?:0|[1-9][0-9]{0,18})")


class Computing(State):
    """An expression's value over the script's own values, and the variables it assigns."""

    def compute(self, expression: Expression) -> int | None:
        """One expression's value (its assignments made); None where it depends on something unknown."""
        self.enter()
        self.step()
        try:
            if isinstance(expression, Operand):
                return self._operand(expression.text)
            if isinstance(expression, Prefix | Postfix):
                return self._unary(expression)
            if isinstance(expression, Conditional):
                condition = self.compute(expression.condition)
                if condition is None:
                    self._unsettle_in(expression.then)
                    self._unsettle_in(expression.otherwise)
                    return None
                if not condition:
                    skipped(expression.then)
                value = self.compute(expression.then if condition else expression.otherwise)
                if condition:
                    skipped(expression.otherwise)
                return value
            return self._binary(expression)
        finally:
            self.depth -= 1

    def _binary(self, expression: Binary) -> int | None:
        operator = expression.operator
        if operator in ASSIGNMENTS:
            return self._assign(expression)
        if operator == ",":
            self.compute(expression.left)
            return self.compute(expression.right)
        left = self.compute(expression.left)
        if operator in ("&&", "||"):  # the right side only where the left does not decide
            if left is None:
                self._unsettle_in(expression.right)
                return None
            if (left != 0) == (operator == "||"):
                skipped(expression.right)
                return int(left != 0)
            right = self.compute(expression.right)
            return None if right is None else int(right != 0)
        right = self.compute(expression.right)
        value = None if left is None or right is None else binary(operator, left, right, self.at)
        return None if value is None else bounded(value, self.at)

    def _unary(self, expression: Prefix | Postfix) -> int | None:
        operator, operand = expression.operator, expression.operand
        name = _name(operand)
        if operator in ("++", "--"):
            if name is None:
                raise BashError("++/-- needs a variable")
            current = self._variable(name)
            if current is None:
                self.writable(name)
                self.unsettle(name)
                return None
            changed = bounded(current + (1 if operator == "++" else -1), self.at)
            self.set(name, str(changed), True)
            return changed if isinstance(expression, Prefix) else current
        value = self.compute(operand)
        if value is None:
            return None
        return bounded({"-": -value, "+": value, "!": int(not value), "~": ~value}[operator], self.at)

    def _assign(self, expression: Binary) -> int | None:
        """``X = 3``, ``X += 2`` …: the variable set, or unknown; an element ``A[i] = …`` makes the array unknown."""
        target = expression.left
        name = _name(target)
        if name is None:
            if isinstance(target, Operand) and NAME.match(target.text) and "[" in target.text:
                self.compute(expression.right)
                self.unsettle(target.text.split("[", 1)[0])
                return None
            raise BashError("attempted assignment to non-variable")
        current = self._variable(name) if expression.operator != "=" else 0
        right = self.compute(expression.right)
        value = right
        if expression.operator != "=":
            value = None if current is None or right is None else binary(expression.operator[:-1], current, right, 0)
        if value is None:
            self.writable(name)
            self.unsettle(name)
            return None
        value = bounded(value, self.at)
        self.set(name, str(value), True)
        return value

    def _operand(self, text: str) -> int | None:
        if text[0].isdigit():
            return constant(text, self.at)
        if "[" not in text:
            return self._variable(text)
        name, _, index_text = text[:-1].partition("[")
        if name in self.unknown:
            return None
        index = self.evaluate(index_text)
        if name in self.script.arrays:
            elements = self.script.arrays[name]
            found = elements[index] if index is not None and -len(elements) <= index < len(elements) else ""
            return None if index is None else self._number(found)
        if name in self.script.variables or name in self.cleared:
            return self._number(self.script.variables.get(name, "")) if index == 0 else 0
        return None

    def _variable(self, name: str) -> int | None:
        """A variable's value as a number: unset or empty is 0; any other text computed as an expression in turn (a
        variable that names itself again is bash's recursion error)."""
        if name in self.cleared:
            return 0
        value = self.scalar(name) if name not in self.unknown else None
        if value is None:
            return None  # unset in the script: the environment may set it
        if name in self.resolving:
            raise BashError("expression recursion level exceeded")
        self.resolving.add(name)
        try:
            return self._number(value)
        finally:
            self.resolving.discard(name)

    def _number(self, text: str) -> int | None:
        """A value read as a number; a plain decimal one directly (the smallest 64-bit number included, which as an
        expression would negate a constant one beyond 64 bits)."""
        if _DECIMAL_VALUE.fullmatch(text.strip()):
            return bounded(int(text), self.at)
        return self.evaluate(text) if text.strip() else 0

    def _unsettle_in(self, expression: Expression) -> None:
        """What an expression that is not computed may assign: unknown (its condition is)."""
        stack = [expression]
        while stack:
            current = stack.pop()
            self.step()
            if isinstance(current, Binary):
                if current.operator in ASSIGNMENTS and (name := _name(current.left)) is not None:
                    self.unsettle(name)
                stack += [current.left, current.right]
            elif isinstance(current, Prefix | Postfix):
                if current.operator in ("++", "--") and (name := _name(current.operand)) is not None:
                    self.unsettle(name)
                stack.append(current.operand)
            elif isinstance(current, Conditional):
                stack += [current.condition, current.then, current.otherwise]


def _name(expression: Expression) -> str | None:
    """The variable an operand names (``X``, not ``A[1]`` nor a number)."""
    if isinstance(expression, Operand) and NAME.fullmatch(expression.text):
        return expression.text
    return None
