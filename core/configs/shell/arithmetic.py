"""Arithmetic: ``$((…))``, ``(( … ))``, ``let``, ``for ((…))`` and indices as bash reads them: the expression's
expansions replaced by their values, the text that makes split and parsed by bash's precedence (``precedence``),
then computed (``computing``). What bash refuses is a ``BashError``."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.grammar import node_text
from effbatch.core.configs.shell.numbers import constant
from effbatch.core.configs.shell.precedence import (
    Operand,
    Token,
    lex,
    parse,
)
from effbatch.core.configs.shell.state import BashError, State

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
