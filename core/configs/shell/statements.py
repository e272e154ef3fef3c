"""Statements: assignments, arrays, ``unset``, lists, pipelines, loops, and the dispatch by node kind."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from core.configs.shell.grammar import is_arithmetic, name_of, node_line, node_text, statements_of
from core.configs.shell.limits import MAX_ARRAY, MAX_VALUE_CHARS, too_much
from core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node

_STATEMENTS = frozenset({"program", "compound_statement", "subshell", "do_group", "ERROR"})

#: What a redirected statement has besides its body: never a command.
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect", "heredoc_body", "comment"})


class Statements(State):
    """Statements run in order: what they assign, what they define, what they contain."""

    def statements(self, nodes: Sequence[Node]) -> None:
        for node in nodes:
            if self.stopped:
                return
            self.statement(node)

    def statement(self, node: Node) -> None:
        self.enter()
        self.step()
        self.at = self.fixed_line or node_line(node)
        try:
            self._dispatch(node)
        finally:
            self.depth -= 1

    def _dispatch(self, node: Node) -> None:
        kind = node.type
        if kind == "compound_statement" and is_arithmetic(node):
            for child in node.named_children:  # (( X += 1 )): for what it assigns
                self.arithmetic(child)
        elif kind in _STATEMENTS:
            self.statements(statements_of(node))
        elif kind == "variable_assignment":
            self.assign(node)
        elif kind in ("variable_assignments", "declaration_command"):
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.assign(child)
        elif kind == "unset_command":
            for child in node.named_children:
                self.forget(node_text(child))
        elif kind == "command":
            self.command(node)
        elif kind == "list":
            self.status(node)
        elif kind in ("pipeline", "redirected_statement", "negated_command"):
            self.statements([c for c in node.named_children if c.type not in _REDIRECTS])
        elif kind == "if_statement":
            self.branches(node)
        elif kind == "case_statement":
            self.case(node)
        elif kind in ("for_statement", "c_style_for_statement", "while_statement"):
            self.loop(node)
        elif kind == "function_definition" and (name := node.child_by_field_name("name")) is not None:
            body = node.child_by_field_name("body")
            if body is not None:
                self.functions[node_text(name)] = body

    def assign(self, node: Node) -> None:
        """``NAME=value``, ``NAME+=value``, ``NAME=(…)``, ``NAME+=(…)``, ``NAME[i]=value``."""
        name_node, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name_node is None:
            return
        append = any(child.type == "+=" for child in node.children)
        if name_node.type == "subscript":
            self._assign_element(name_node, value)
            return
        name = node_text(name_node)
        if value is not None and value.type == "array":
            elements, known = self.expand_words(value.named_children)
            earlier = self.script.arrays.get(name, []) if append else []
            if len(earlier) + len(elements) > MAX_ARRAY:
                raise too_much("shell_long_array", MAX_ARRAY, self.at)
            self.script.arrays[name] = earlier + elements
            self.script.variables.pop(name, None)
            (self.unknown.discard if known and not (append and name in self.unknown) else self.unknown.add)(name)
        else:
            text, known = self.value(value)
            before = self.script.variables.get(name, "") if append else ""
            if len(before) + len(text) > MAX_VALUE_CHARS:
                raise too_much("shell_long_value", MAX_VALUE_CHARS, self.at)
            self.set(name, before + text, known and not (append and name in self.unknown))
        self.script.lines[name] = self.at

    def _assign_element(self, subscript: Node, value: Node | None) -> None:
        name_node, index_node = subscript.child_by_field_name("name"), subscript.child_by_field_name("index")
        index = self.arithmetic(index_node) if index_node is not None else None
        if name_node is None or index is None or not 0 <= index < MAX_ARRAY:
            return
        name = node_text(name_node)
        elements = self.script.arrays.setdefault(name, [])
        text, _ = self.value(value)
        if index < len(elements):
            elements[index] = text
        else:
            elements.append(text)  # bash arrays are sparse; the order is what a launch line sees
        self.script.lines[name] = self.at

    def loop(self, node: Node) -> None:
        """A loop's body read once, its ``for`` variable unknown; what it assigns is unknown after it (how many
        passes run, and so which value is left, only the run knows: ``while [[ $# -gt 0 ]]; do case $1 …``)."""
        variable = node.child_by_field_name("variable")
        if variable is not None:
            name = node_text(variable)
            self.set(name, "$" + name, False)
        body = node.child_by_field_name("body")
        if body is not None:
            self.statement(body)
            for name in set(self._assigned_in(body)):
                if name not in self.script.arrays:
                    self.set(name, "$" + name, False)  # its value after the loop is the run's, as with $1
                self.unknown.add(name)

    def _assigned_in(self, body: Node) -> Iterator[str]:
        """Every variable an assignment in ``body`` names, whichever branch it is in (bounded by the work budget)."""
        stack = [body]
        while stack:
            node = stack.pop()
            self.step()
            if node.type == "variable_assignment" and (name := node.child_by_field_name("name")) is not None:
                yield name_of(name) or node_text(name)
            stack.extend(node.named_children)
