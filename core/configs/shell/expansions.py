"""Parameter expansion: ``$X``, ``${X}``, ``${X:-w}`` and its kin, ``${#X}``, arrays ``${A[@]}``, ``${A[i]}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.fields import Fields
from effbatch.core.configs.shell.grammar import name_of, node_text
from effbatch.core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node

_DEFAULTS = frozenset({":-", "-", ":=", "=", ":+", "+"})


class Expansions(State):
    """What ``$…`` expands to, and whether it is known."""

    def expansion(self, node: Node, fields: Fields, quoted: bool) -> None:
        found, known = self.lookup(node)
        if found is None:
            fields.known(None, node_text(node))
            return
        fields.unknown = fields.unknown or not known  # set from something unknown: its text as the script has it
        if isinstance(found, list):
            fields.elements(found, quoted)
        elif quoted or not known:  # an unknown value stands as written, one word: only the run splits it
            fields.literal(found)
        else:
            fields.split(found)

    def lookup(self, node: Node) -> tuple[str | list[str] | None, bool]:
        """``$X``, ``${X}``, ``${X:-…}`` and the like, ``${A[@]}``, ``${A[i]}``, ``${#X}``: the value, and whether
        it is known (None: the script does not set it, or a form not read)."""
        inner = [c for c in node.children if c.type not in ("${", "}", "$")]
        if not inner:
            return None, False
        if len(inner) == 1 and inner[0].type == "special_variable_name" and node_text(inner[0]) == "?":
            known = self.code is not None and self.code >= 0
            return (str(self.code), True) if known else (None, False)  # the last status, where known
        if (arguments := self.arguments(inner)) is not None:
            return arguments, True
        name = name_of(inner[-1])
        known = name not in self.unknown
        if node.type == "simple_expansion" or (len(inner) == 1 and inner[0].type == "variable_name"):
            found = self.scalar(name) if inner[0].type == "variable_name" else None
            return ("" if found is None and name in self.cleared else found), known
        if len(inner) == 1 and inner[0].type == "subscript":
            return self.element(inner[0]), known
        if len(inner) == 2 and inner[0].type == "#" and known:
            measured = self.element(inner[1]) if inner[1].type == "subscript" else self.scalar(name)
            measured = "" if measured is None and name in self.cleared else measured
            return (None if measured is None else str(len(measured))), True
        if len(inner) >= 2 and inner[0].type == "variable_name" and inner[1].type in _DEFAULTS:
            return self.default(node_text(inner[0]), inner[1].type, inner[2:]), True
        return None, False

    def arguments(self, inner: Sequence[Node]) -> str | list[str] | None:
        """``$1`` … ``${10}``, ``$#``, ``$@``, ``$*`` where the positional parameters are known (one beyond them is
        empty); None otherwise (unknown ones stay as written)."""
        if self.positional is None or len(inner) != 1:
            return None
        text = node_text(inner[0])
        if inner[0].type in ("special_variable_name", "#") and text in ("#", "@", "*"):
            count, joined = str(len(self.positional)), " ".join(self.positional)
            return count if text == "#" else joined if text == "*" else list(self.positional)
        if inner[0].type == "variable_name" and text.isdigit() and text != "0":
            return self.scalar(text) or ""
        return None

    def element(self, subscript: Node) -> str | list[str] | None:
        name_node, index_node = subscript.child_by_field_name("name"), subscript.child_by_field_name("index")
        if name_node is None or index_node is None:
            return None
        name = node_text(name_node)
        if name not in self.script.arrays and name in self.cleared:
            return [] if node_text(index_node) == "@" else ""
        if name not in self.script.arrays:
            return None
        elements = self.script.arrays[name]
        index_text = node_text(index_node)
        if index_text == "@":
            return list(elements)
        if index_text == "*":
            return " ".join(elements)
        index = self.arithmetic([index_node])
        if index is None:
            return None
        return elements[index] if -len(elements) <= index < len(elements) else ""

    def default(self, name: str, operator: str, parts: Sequence[Node]) -> str | None:
        """``${X:-w}`` ``${X-w}`` ``${X:=w}`` ``${X=w}`` ``${X:+w}`` ``${X+w}`` (unset in the script: the default)."""
        if name in self.unknown:
            return None
        current = self.scalar(name)
        is_set = current is not None and (current != "" or ":" not in operator)
        if operator.endswith("+"):
            return self._joined(parts) if is_set else ""
        if is_set:
            return current
        text = self._joined(parts)
        if current is None and text is not None and name not in self.cleared and not name.isdigit():
            self.defaulted[name] = text
        if text is not None and operator.endswith("="):
            self.set(name, text, True)
            self.script.lines[name] = self.at
        return text

    def _joined(self, parts: Sequence[Node]) -> str | None:
        fields = Fields(self)
        for part in parts:
            self.part(part, fields, quoted=True)
        return None if fields.unknown else "".join(fields.words)
