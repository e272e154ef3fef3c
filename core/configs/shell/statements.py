"""Statements: the dispatch by node kind, the script's top level, assignments, arrays, ``unset``, pipelines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeGuard

from effbatch.core.configs.shell.grammar import is_arithmetic, node_line, node_text, statements_of
from effbatch.core.configs.shell.limits import MAX_ARRAY, MAX_VALUE_CHARS, too_much
from effbatch.core.configs.shell.state import ASSUMED, BashError, State

if TYPE_CHECKING:
    from tree_sitter import Node

#: Statements run in this shell, one after another (their status the last one's).
_GROUPS = frozenset({"compound_statement", "do_group", "ERROR"})

#: What a redirected statement has besides its body: never a command.
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect", "heredoc_body", "comment"})

_LOOPS = frozenset({"for_statement", "c_style_for_statement", "while_statement"})


class Statements(State):
    """Statements run in order: what they assign, what they define, what they contain."""

    def statements(self, nodes: Sequence[Node]) -> None:
        for node in nodes:
            if self.stopped or self.jump is not None:
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
        if kind == "program" or node.parent is None:  # the root (an ERROR where nothing could be read)
            self._top_level(statements_of(node))
        elif kind == "compound_statement" and is_arithmetic(node):
            self._arithmetic_command(node)
        elif kind in _GROUPS:
            self.statements(statements_of(node))
        elif kind == "subshell" and (misread := self._misread_arithmetic(node)) is not None:
            self._arithmetic_command(misread)
        elif kind == "subshell":
            self.subshell(statements_of(node))
        elif kind in ("variable_assignment", "variable_assignments"):
            for child in [node] if kind == "variable_assignment" else node.named_children:
                self.assign(child)
            self.code = ASSUMED if "$(" in node_text(node) or "`" in node_text(node) else 0
        elif kind == "declaration_command":
            self.declare(node)
        elif kind == "unset_command":
            self._unset(node.named_children)
        elif kind == "command":
            self.command(node)
        elif kind in ("list", "negated_command", "test_command"):
            self.status(node)
        elif kind == "pipeline":  # each stage in a process of its own (``$?`` the one before); the last one's status
            before = self.code
            for stage in node.named_children:
                self.code = before
                self.subshell([stage])
        elif kind == "redirected_statement" and _is_command(body := node.child_by_field_name("body")):
            self.command(body, _stray(node))
        elif kind == "redirected_statement":
            last = node.child_by_field_name("body")
            while last is not None and last.type == "list":  # ``a || b > out x``: the grammar redirects the list
                last = last.named_children[-1] if last.named_children else None
            if _is_command(last):
                self.strays[last.id] = _stray(node)  # bash: the redirection and its words are the last command's
            self.statements([c for c in node.named_children if c.type not in _REDIRECTS])
        else:
            self._compound(node)

    def _compound(self, node: Node) -> None:
        kind = node.type
        if kind == "if_statement":
            self.branches(node)
        elif kind == "case_statement":
            self.case(node)
        elif kind in _LOOPS:
            self.loop(node)
        elif kind == "function_definition" and (name := node.child_by_field_name("name")) is not None:
            body = node.child_by_field_name("body")
            if body is not None:
                self.functions[node_text(name)] = body
            self.code = 0
        else:
            self.code = None  # a statement not read: its status only the run knows

    def _top_level(self, nodes: Sequence[Node]) -> None:
        """The script's own statements. An error bash reports ends the line it is on (the rest of it is one command
        to bash, ``;`` or not), and the script goes on with the next line."""
        skipped = -1
        for node in nodes:
            if self.stopped:
                return
            if node.start_point.row == skipped:
                skipped = node.end_point.row
                continue
            try:
                self.statement(node)
            except BashError:
                self.code, skipped = 1, node.end_point.row
            if self.jump == "return" and self.sourcing:
                return  # ends the sourced file (``sourcing``)
            self.jump = None  # a return or break outside any function or loop

    def _arithmetic_command(self, node: Node) -> None:
        """``(( … ))``: what it assigns; its status 0 for a value other than 0, 1 where bash reports an error."""
        try:
            value = self.arithmetic([node])
        except BashError:
            value = 0
        self.code = None if value is None else int(value == 0)

    def _misread_arithmetic(self, node: Node) -> Node | None:
        """``! (( X = 1 ))``: tree-sitter-bash reads two subshells where bash reads ``(( … ))``; its text read again."""
        text = node_text(node)
        if not (text.startswith("((") and text.endswith("))")):
            return None
        root = self.reparse(text)
        found = root.named_children[0] if root.named_child_count == 1 else None
        return found if found is not None and is_arithmetic(found) and not found.has_error else None

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
            self.writable(name)  # after the expansion, as bash refuses it
            earlier = self.script.arrays.get(name, []) if append else []
            if len(earlier) + len(elements) > MAX_ARRAY:
                raise too_much("shell_long_array", MAX_ARRAY, self.at)
            self.script.arrays[name] = earlier + elements
            self.script.variables.pop(name, None)
            self.script.lines[name] = self.at
            (self.unknown.discard if known and not (append and name in self.unknown) else self.unknown.add)(name)
            return
        text, known = self.value(value)
        before = (self.scalar(name) or "") if append else ""
        if len(before) + len(text) > MAX_VALUE_CHARS:
            raise too_much("shell_long_value", MAX_VALUE_CHARS, self.at)
        self.set(name, before + text, known and not (append and name in self.unknown))

    def _assign_element(self, subscript: Node, value: Node | None) -> None:
        """``A[i]=w``; a gap after the last element (bash's arrays are sparse) makes the array unknown."""
        name_node, index_node = subscript.child_by_field_name("name"), subscript.child_by_field_name("index")
        if name_node is None:
            return
        name = node_text(name_node)
        index = self.arithmetic([index_node]) if index_node is not None else None
        text, known = self.value(value)
        self.writable(name)
        if name not in self.script.arrays:  # a scalar becomes the array's first element
            scalar = self.script.variables.pop(name, None)
            self.script.arrays[name] = [] if scalar is None else [scalar]
        elements = self.script.arrays[name]
        self.script.lines[name] = self.at
        if index is not None and index < -len(elements):
            raise BashError("bad array subscript")
        if index is not None and -len(elements) <= index < len(elements):
            elements[index] = text
        elif index is not None and index < MAX_ARRAY and len(elements) < MAX_ARRAY:
            elements.append(text)  # the order is what a launch line sees
            known = known and index == len(elements) - 1
        else:
            known = False
        if not known:
            self.unknown.add(name)

    def _unset(self, arguments: Sequence[Node]) -> None:
        """``unset NAME…`` (``-v``), ``unset -f NAME…``; an element ``A[i]`` makes the array unknown."""
        functions = any(node_text(a) == "-f" for a in arguments)
        self.code = 0
        for index, argument in enumerate(arguments):
            name = node_text(argument)
            if argument.type not in ("variable_name", "word") or name.startswith("-"):
                continue
            following = arguments[index + 1] if index + 1 < len(arguments) else None
            if functions:
                self.functions.pop(name, None)
            elif name in self.readonly:
                self.code = 1  # bash: cannot unset: readonly variable
            elif following is not None and following.start_byte == argument.end_byte:
                self.unsettle(name)  # unset A[1]
            else:
                self.forget(name)


def _is_command(node: Node | None) -> TypeGuard[Node]:
    return node is not None and node.type == "command"


def _stray(node: Node) -> list[Node]:
    """The words after each redirection's target (``> log --bs 4``: ``--bs 4``), which bash passes to the command;
    tree-sitter-bash reads them as further targets of that redirection."""
    found: list[Node] = []
    for redirect in node.children_by_field_name("redirect"):
        if redirect.type == "file_redirect":
            found += redirect.children_by_field_name("destination")[1:]
    return found
