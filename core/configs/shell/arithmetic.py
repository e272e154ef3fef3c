"""Arithmetic: ``$((…))``, ``(( … ))``, ``let``, ``for ((…))`` and indices as bash computes them: the expression's
expansions replaced by their values, the text read by bash's precedence (``precedence``), computed in bash's 64
bits (``numbers``): C division, ``**``, ``?:``, ``&&``/``||`` that skip their right side, a variable whose value is
an expression computed in turn, and the variables it assigns. What bash refuses is a ``BashError``."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from core.configs.shell.grammar import NAME, node_text
from core.configs.shell.numbers import binary, bounded, constant
from core.configs.shell.precedence import (
    ASSIGNMENTS,
    Binary,
    Conditional,
    Expression,
    Operand,
    Postfix,
    Prefix,
    Token,
    lex,
    parse,
)
from core.configs.shell.state import BashError, State

if TYPE_CHECKING:
    from tree_sitter import Node

#: What bash expands inside an expression before it reads it (``'…'`` stays: bash refuses the quote).
_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "command_substitution", "arithmetic_expansion", "string", "ansi_c_string"}
)
_NAMED = re.compile(r"(?<![\w#@])[A-Za-z_]\w*")
_DELIMITERS = frozenset({"$((", "((", "))", "$[", "]"})


class Arithmetic(State):
    """Integer arithmetic over the script's own values, and the variables it assigns."""

    def arithmetic(self, nodes: Sequence[Node]) -> int | None:
        """``$((…))`` as bash computes it; None where a part is unknown (and so is every variable the expression
        names: it may assign them); ``BashError`` where bash fails."""
        self.enter()
        self.step()
        try:
            text, known = self._source(nodes)
            if not known:
                self._unsettle_named(text)
                return None
            return self.evaluate(text)
        finally:
            self.depth -= 1

    def evaluate(self, text: str) -> int | None:
        """An expression's text computed (an empty one is 0). bash computes as it reads, so at a syntax error what it
        read before has been assigned: every variable the text names is unknown then, and the error a ``BashError``."""
        tokens = lex(text)
        self.step(1 + len(text) // 32)
        if tokens == []:
            return 0
        expression = parse(tokens) if tokens is not None else None
        if expression is None or not self._constants(tokens or []):
            self._unsettle_named(text)
            raise BashError("syntax error in expression")
        return self.compute(expression)

    def _constants(self, tokens: list[Token]) -> bool:
        """Whether every number is one bash reads (it reads those of a side it skips, too)."""
        try:
            for token in tokens:
                if isinstance(token, Operand) and token.text[0].isdigit():
                    constant(token.text, self.at)
        except BashError:
            return False
        return True

    def _unsettle_named(self, text: str) -> None:
        """Every variable an expression's text names: unknown (what it assigns is not known)."""
        for name in {match.group(0) for match in _NAMED.finditer(text)}:
            self.unsettle(name)

    def _source(self, nodes: Sequence[Node]) -> tuple[str, bool]:
        """The text of ``nodes`` (without ``$((`` and ``))``) with each expansion replaced by its value; and whether
        every value is known."""
        pieces = [piece for node in nodes for piece in self._pieces(node, root=True)]
        text = "".join(piece for piece in pieces if piece is not None)
        self.charge(len(text))
        return text, None not in pieces

    def _pieces(self, node: Node, root: bool) -> Iterator[str | None]:
        """The text of ``node``, each expansion's value in its place (None where it is unknown)."""
        if not root and node.type in _EXPANSIONS:
            yield self.word(node)
            return
        children = node.children
        if not children:
            yield node_text(node)
            return
        raw, start = node.text or b"", node.start_byte
        end = len(raw)
        if root and node.type in ("arithmetic_expansion", "compound_statement"):  # without $(( and ))
            children = [c for c in children if c.is_named or node_text(c) not in _DELIMITERS]
            if not children:
                return
            end = children[-1].end_byte - start
        position = children[0].start_byte - start
        self.enter()  # as deep as the expression's parentheses: bounded
        try:
            for child in children:
                yield raw[position : child.start_byte - start].decode("utf-8", "replace")
                yield from self._pieces(child, root=False)
                position = child.end_byte - start
        finally:
            self.depth -= 1
        yield raw[position:end].decode("utf-8", "replace")

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


def _name(expression: Expression) -> str | None:
    """The variable an operand names (``X``, not ``A[1]`` nor a number)."""
    if isinstance(expression, Operand) and NAME.fullmatch(expression.text):
        return expression.text
    return None
