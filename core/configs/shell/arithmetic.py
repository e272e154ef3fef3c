"""Arithmetic: ``$((…))``, ``(( … ))`` and ``let`` as bash computes them (C division, ``**``, ``?:``), bounded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.configs.shell.grammar import ASSIGNING, assigns, node_text
from core.configs.shell.limits import LIMIT, MAX_DIGITS, too_much
from core.configs.shell.state import State

if TYPE_CHECKING:
    from tree_sitter import Node


class Arithmetic(State):
    """Integer arithmetic over the script's own values, and the variables it assigns."""

    def arithmetic(self, node: Node) -> int | None:
        """``$((…))`` as bash computes it, within ``MAX_DIGITS``; None where an operand is unknown."""
        self.enter()
        self.step()
        try:
            value = self._arithmetic(node)
        finally:
            self.depth -= 1
        if value is not None and abs(value) >= LIMIT:
            raise too_much("shell_long_number", MAX_DIGITS, self.at)
        return value

    def _arithmetic(self, node: Node) -> int | None:
        kind = node.type
        if kind in ("postfix_expression", "unary_expression", "binary_expression") and assigns(node):
            return self.assign_arithmetic(node)
        if kind == "number" or (kind == "word" and not node.named_children):
            return self.integer(node_text(node))
        if kind == "variable_name":
            found = self.scalar(node_text(node)) if node_text(node) not in self.unknown else None
            return None if found is None else self.integer(found.strip() or "0")
        if kind in ("simple_expansion", "expansion", "string", "concatenation", "arithmetic_expansion"):
            text = self.word(node)
            return None if text is None else self.integer(text.strip() or "0")
        if kind == "parenthesized_expression":
            return self.arithmetic(node.named_children[0]) if len(node.named_children) == 1 else None
        if kind == "unary_expression":
            operand = self.arithmetic(node.named_children[-1]) if node.named_children else None
            operator = node_text(node.children[0])
            return None if operand is None else _unary(operator, operand)
        if kind == "binary_expression":
            left_node, right_node = node.child_by_field_name("left"), node.child_by_field_name("right")
            operator_node = node.child_by_field_name("operator")
            if left_node is None or right_node is None or operator_node is None:
                return None
            left, right = self.arithmetic(left_node), self.arithmetic(right_node)
            return None if left is None or right is None else binary(node_text(operator_node), left, right, self.at)
        if kind == "ternary_expression":
            condition = node.child_by_field_name("condition")
            value = self.arithmetic(condition) if condition is not None else None
            chosen = node.child_by_field_name("consequence" if value else "alternative")
            return None if value is None or chosen is None else self.arithmetic(chosen)
        return None

    def assign_arithmetic(self, node: Node) -> int | None:
        """``X = 3``, ``X += 2``, ``X++``, ``--X`` inside ``(( ))`` or ``$(( ))``: the variable set (or unknown)."""
        target = node.child_by_field_name("left") or node.named_children[0]
        operator = next(c.type for c in node.children if not c.is_named and c.type in ASSIGNING)
        if target.type != "variable_name":
            return None
        name = node_text(target)
        current = self.arithmetic(target) if operator != "=" else 0
        if operator in ("++", "--"):
            value = None if current is None else current + (1 if operator == "++" else -1)
            result = current if node.type == "postfix_expression" else value
        else:
            right_node = node.child_by_field_name("right")
            right = self.arithmetic(right_node) if right_node is not None else None
            value = right if operator == "=" else None
            if operator != "=" and current is not None and right is not None:
                value = binary(operator[:-1], current, right, self.at)
            result = value
        if value is not None and abs(value) >= LIMIT:
            raise too_much("shell_long_number", MAX_DIGITS, self.at)
        self.set(name, str(value) if value is not None else "$" + name, value is not None)
        self.script.lines[name] = self.at
        return result

    def integer(self, text: str) -> int | None:
        """A bash integer constant: decimal, ``0x…``, ``0…`` (octal), ``base#digits``."""
        text = text.strip()
        sign = -1 if text.startswith("-") else 1
        text = text.lstrip("+-")
        if len(text) > MAX_DIGITS + 2:
            if text.isdigit():
                raise too_much("shell_long_number", MAX_DIGITS, self.at)
            return None
        try:
            if "#" in text:
                base, _, digits = text.partition("#")
                return sign * int(digits, int(base))
            if text[:2].lower() == "0x":
                return sign * int(text[2:], 16)
            return sign * int(text, 8 if len(text) > 1 and text.startswith("0") else 10)
        except ValueError:
            return None


def binary(operator: str, left: int, right: int, line: int) -> int | None:
    if operator in ("/", "%"):
        if right == 0:
            return None
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)  # C: towards zero
        return quotient if operator == "/" else left - quotient * right
    if operator == "**":
        if right < 0:
            return None
        if abs(left) > 1 and right * abs(left).bit_length() > 4 * MAX_DIGITS:
            raise too_much("shell_long_number", MAX_DIGITS, line)
        return int(left**right)
    if operator in ("<<", ">>"):
        if right < 0 or (operator == "<<" and right > 4 * MAX_DIGITS):
            raise too_much("shell_long_number", MAX_DIGITS, line)
        return left << right if operator == "<<" else left >> right
    table = {
        "+": lambda: left + right,
        "-": lambda: left - right,
        "*": lambda: left * right,
        "<": lambda: int(left < right),
        ">": lambda: int(left > right),
        "<=": lambda: int(left <= right),
        ">=": lambda: int(left >= right),
        "==": lambda: int(left == right),
        "!=": lambda: int(left != right),
        "&&": lambda: int(bool(left and right)),
        "||": lambda: int(bool(left or right)),
        "&": lambda: left & right,
        "|": lambda: left | right,
        "^": lambda: left ^ right,
    }
    compute = table.get(operator)
    return compute() if compute is not None else None


def _unary(operator: str, operand: int) -> int | None:
    return {"-": -operand, "+": operand, "!": int(not operand), "~": ~operand}.get(operator)
