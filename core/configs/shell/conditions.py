"""Conditions: exit statuses, ``[ … ]``, ``[[ … ]]``, ``test``, ``(( … ))``, ``!``, ``&&``/``||``, globs."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.grammar import exits, is_arithmetic, is_test, node_text
from effbatch.core.configs.shell.numbers import binary
from effbatch.core.configs.shell.state import ASSUMED, BashError, State

if TYPE_CHECKING:
    from tree_sitter import Node


#: Statements a condition runs for their status (a pipeline or another program only the run knows).
_RUN = frozenset(
    {
        "compound_statement",
        "subshell",
        "variable_assignment",
        "variable_assignments",
        "declaration_command",
        "if_statement",
        "case_statement",
        "for_statement",
        "c_style_for_statement",
        "while_statement",
        "redirected_statement",
    }
)


class Conditions(State):
    """Whether a condition holds, from the script's own values (None where it needs anything else)."""

    def status(self, node: Node) -> bool:
        """Run a statement as a condition would: its exit status (commands are taken to succeed)."""
        self.enter()
        try:
            return self._status(node)
        finally:
            self.depth -= 1

    def _status(self, node: Node) -> bool:
        if node.type == "list":
            left, right = node.named_children[0], node.named_children[-1]
            operator = next((node_text(c) for c in node.children if c.type in ("&&", "||")), "&&")
            result = self._left_status(left, operator, right)
            run_right = result if operator == "&&" else not result
            return self.status(right) if run_right and not (self.stopped or self.jump) else result
        if is_test(node):
            holds = self.truth(node)
            self.code = None if holds is None else int(not holds)
            return holds is not False  # alone a test changes nothing; in a list, see _left_status
        self.statement(node)
        return self.code in (0, ASSUMED)  # a program only the run knows is taken to succeed

    def _left_status(self, left: Node, operator: str, right: Node) -> bool:
        """``[ -z "$X" ] && X=1``: an undecided status before ``&&``/``||`` is a choice (one that ``exit``s is not):
        a test, or a statement whose status the script's values do not decide (``{ X=1; (( $1 )); }``)."""
        code = None
        if is_test(left):
            holds = self.truth(left)
        else:
            result = self.status(left)
            holds = None if self.code is None else result
            code = self.code if holds is not None and self.code not in (None, ASSUMED) else None
        leaves = exits([right])
        if holds is None or self.requires([left], leaves and holds == (operator == "&&")):
            options = [(True, not (leaves and operator == "&&")), (False, not (leaves and operator == "||"))]
            holds = self.choose([left], options)
        self.code = code if code is not None and (code == 0) == holds else int(not holds)  # ``--flag || X=$?``: 127
        return holds

    def truth(self, node: Node) -> bool | None:
        """Whether a condition holds, from the script's own values; None where that needs anything else."""
        self.enter()
        try:
            return self._truth(node)
        finally:
            self.depth -= 1

    def _truth(self, node: Node) -> bool | None:
        kind = node.type
        if kind == "test_command" or kind == "parenthesized_expression":
            inner = node.named_children
            return self.test(inner[0]) if len(inner) == 1 else None
        if kind == "negated_command":
            holds = self.truth(node.named_children[-1]) if node.named_children else None
            return None if holds is None else not holds
        if kind == "list":
            operator = next((node_text(c) for c in node.children if c.type in ("&&", "||")), "&&")
            return _logic(operator, self.truth(node.named_children[0]), lambda: self.truth(node.named_children[-1]))
        if kind == "compound_statement" and is_arithmetic(node):
            try:
                value = self.arithmetic([node])
            except BashError:  # bash reports it, and the condition fails
                return False
            return None if value is None else value != 0
        if kind == "command":
            return self._command_truth(node)
        if kind in _RUN:  # run, and its status decides
            self.statement(node)
            return _decided(self.code)
        return None

    def _command_truth(self, node: Node) -> bool | None:
        """``true``, ``false``, ``test``, ``[``, a function of the script (run); other commands only the run knows."""
        words = self.known_words(node)
        if words is not None and words[:1] in (["true"], [":"], ["false"]):
            return words[0] != "false"
        if words is not None and words[:1] in (["test"], ["["]):
            return _test_words(words[1:] if words[0] == "test" else words[1:-1])
        if words and words[0] in self.functions and words[0] not in self.calling:
            self.statement(node)
            return _decided(self.code)
        return None

    def test(self, node: Node) -> bool | None:
        """An expression inside ``[ … ]`` or ``[[ … ]]``."""
        kind = node.type
        if kind == "parenthesized_expression":
            return self.truth(node)
        if kind == "binary_expression":
            operator_node = node.child_by_field_name("operator")
            operator = node_text(operator_node) if operator_node is not None else ""
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                return None
            if operator in ("&&", "-a", "||", "-o"):
                return _logic(operator, self.test(left), lambda: self.test(right))
            if right.type == "extglob_pattern" and operator in ("=", "==", "!="):
                left_value, pattern = self.word(left), self.word(right)
                same = None if left_value is None or pattern is None else self.matches(left_value, pattern)
                return None if same is None else same != (operator == "!=")
            return _compare(self.word(left), operator, self.word(right))
        if kind == "unary_expression":
            operator_node = node.child_by_field_name("operator")
            operator = node_text(operator_node) if operator_node is not None else node_text(node.children[0])
            operand = node.named_children[-1]
            if operator == "!":
                holds = self.test(operand)
                return None if holds is None else not holds
            value = self.word(operand)
            return _test_words([operator, value]) if value is not None else None
        value = self.word(node)
        return None if value is None else value != ""

    def matches(self, text: str, pattern: str) -> bool | None:
        """A bash glob (``*``, ``?``, ``[…]``) against a value: a plain pattern is compared, a glob costs ten steps
        (compiling it is the cost), one over 256 characters is not tried (None)."""
        if not any(char in pattern for char in "*?["):
            return text == pattern
        if len(pattern) > 256:
            return None
        self.step(10)
        return fnmatch.fnmatchcase(text, pattern)


def _decided(code: int | None) -> bool | None:
    """A status as a condition: None where the script's values do not decide it (a program only the run knows)."""
    return None if code is None or code == ASSUMED else code == 0


def _compare(left: str | None, operator: str, right: str | None) -> bool | None:
    """``=``, ``==``, ``!=`` (a glob on the right in ``[[ … ]]``), ``-eq`` ``-ne`` ``-lt`` ``-le`` ``-gt`` ``-ge``."""
    if left is None or right is None:
        return None
    if operator in ("=", "==", "!="):
        return (left == right) != (operator == "!=")
    numbers = {"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}
    if operator in numbers:
        if not (re.fullmatch(r"\s*[+-]?\d{1,30}\s*", left) and re.fullmatch(r"\s*[+-]?\d{1,30}\s*", right)):
            return None
        return bool(binary(numbers[operator], int(left), int(right), 0))
    return None


def _test_words(words: Sequence[str]) -> bool | None:
    """``test``'s forms with one to three words whose values are all known."""
    if len(words) == 1:
        return words[0] != ""
    if len(words) == 2 and words[0] in ("-z", "-n"):
        return (words[1] == "") == (words[0] == "-z")
    if len(words) == 2 and words[0] == "!":
        return words[1] == ""
    if len(words) == 3:
        return _compare(words[0], words[1], words[2])
    return None


def _logic(operator: str, left: bool | None, right: Callable[[], bool | None]) -> bool | None:
    """Three-valued and/or: a known left side can decide alone."""
    conjunction = operator in ("&&", "-a")
    if left is not None and left != conjunction:
        return left
    other = right()
    if left is None:
        return other if other is not None and other != conjunction else None
    return other
