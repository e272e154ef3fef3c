"""The bash grammar (tree-sitter-bash), loaded on first use, a parse bounded in CPU time, and the shapes of its
nodes the evaluator asks about (a node's text and line, an ``if``'s arms, a ``case`` item's body …)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.limits import MAX_PARSE_SECONDS, MAX_VALUE_CHARS, too_much

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Point

ASSIGNING = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--"})
NAME = re.compile(r"[A-Za-z_]\w*")


@cache
def _language() -> Language:
    """The bash grammar, loaded when the first script is read (a check of a YAML file never pays for it)."""
    import tree_sitter_bash
    from tree_sitter import Language

    return Language(tree_sitter_bash.language())


def _parser() -> Parser:
    from tree_sitter import Parser

    return Parser(_language())


#: A command substitution that holds only a comment (a backquoted ``# QLoRA`` in a continued command): bash
#: expands it to nothing and goes on with the line; tree-sitter-bash lets the comment swallow the closing backquote.
_COMMENTED = re.compile(r"`[ \t]*#[^`\n]*`")


def parse(text: str, seconds: float = MAX_PARSE_SECONDS) -> Node:
    """The tree-sitter-bash tree of ``text`` (syntax errors become ERROR nodes; the rest is still read).

    The grammar's error recovery is quadratic on some broken shapes (16 KiB of ``A=(A=(A=(…`` take over a
    second), so a first parse stops after ``seconds`` of this thread's CPU time (a clock, not the wall: a
    busy machine does not make a script unreadable). Only that way of parsing can be stopped, and its tree
    reads each node's text back through the callback (80 µs a node), so the text is parsed once more from
    its bytes for the tree that is used: ~2-10 ms for 64 KiB.
    """
    text = _COMMENTED.sub(lambda found: " " * len(found.group()), text)
    data = text.encode("utf-8", "surrogatepass")
    started = time.thread_time()

    def read(offset: int, _point: Point) -> bytes:
        return data[offset : offset + 65536]

    def too_long(_offset: int, _has_error: bool) -> bool:
        return time.thread_time() - started > seconds

    try:
        _parser().parse(read, progress_callback=too_long)
    except ValueError:  # "Parsing failed": stopped by too_long
        raise too_much("shell_parse", round(MAX_PARSE_SECONDS * 1000)) from None
    return _parser().parse(data).root_node


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def node_line(node: Node) -> int:
    return node.start_point.row + 1


def statements_of(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type != "comment"]


def arms(node: Node) -> Iterator[tuple[list[Node], list[Node]]]:
    """(condition, body) of ``if`` and each ``elif``; ``else`` as an empty condition."""
    for arm in [node, *(c for c in node.named_children if c.type in ("elif_clause", "else_clause"))]:
        if arm.type == "else_clause":
            yield [], statements_of(arm)
            continue
        condition: list[Node] = []
        body: list[Node] = []
        seen_then = False
        for child in arm.children:
            if child.type == "then":
                seen_then = True
            elif child.is_named and child.type not in ("comment", "elif_clause", "else_clause"):
                (body if seen_then else condition).append(child)
        yield condition, body


def item_body(item: Node) -> list[Node]:
    values = {c.id for c in item.children_by_field_name("value")}
    return [c for c in item.named_children if c.id not in values and c.type != "comment"]


def exits(body: Sequence[Node], depth: int = 0) -> bool:
    """Whether a branch leaves the script: ``exit`` among its statements (or in a ``{ …; }`` a few levels down)."""
    for node in body:
        if node.type == "command":
            name = node.child_by_field_name("name")
            if name is not None and node_text(name) == "exit":
                return True
        if depth < 3 and node.type in ("compound_statement", "list") and exits(node.named_children[-2:], depth + 1):
            return True
    return False


def assigns(node: Node) -> bool:
    return any(not child.is_named and child.type in ASSIGNING for child in node.children)


def plain_text(node: Node) -> str | None:
    """A word with nothing to expand, unquote or split, as it stands (None for any other node)."""
    if node.type not in ("word", "number") or node.named_child_count:
        return None
    raw = node.text or b"\\"
    if b"\\" in raw or len(raw) > MAX_VALUE_CHARS:
        return None  # the slow path unquotes it, or refuses it as too long
    return raw.decode("utf-8", "replace")


def dangling_dollar(node: Node) -> bool:
    return node.type == "concatenation" and node.children[-1].type == "$" and not node.children[-1].is_named


def name_of(node: Node) -> str:
    """The variable an expansion names: ``X`` of ``$X``, ``${X:-…}``, ``${#X}``, ``${X[@]}``."""
    if node.type == "subscript":
        name = node.child_by_field_name("name")
        return node_text(name) if name is not None else ""
    return node_text(node) if node.type == "variable_name" else ""


def is_test(node: Node) -> bool:
    arithmetic = node.type == "compound_statement" and is_arithmetic(node)
    return node.type in ("test_command", "negated_command") or arithmetic


def is_arithmetic(node: Node) -> bool:
    return bool(node.children) and node.children[0].type == "(("


def is_all_elements(node: Node) -> bool:
    text = node_text(node)
    return node.type in ("expansion", "simple_expansion") and (text.endswith("[@]}") or text == "$@")


def condition_text(condition: Sequence[Node]) -> str:
    return short("; ".join(" ".join(node_text(node).split()) for node in condition))


def short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."
