"""Python config files (nanoGPT's ``exec``'d configs, torchtitan's registries) read with ``ast``: top-level
``name = value`` of literals and arithmetic over them; nothing runs."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from typing import Any

from core.configs.base import CheckError, Format, Parsed, ProblemKind, Source

_OPERATORS: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def parse_python(source: Source) -> Parsed:
    """Top-level ``name = value`` of literals and arithmetic over them (nanoGPT's config files); nothing runs."""
    try:
        tree = ast.parse(source.text)
    except SyntaxError as error:  # also "too many nested parentheses" and NUL bytes
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=error.lineno, detail=error.msg) from None
    segments = _Segments(source.text)
    values: dict[str, Any] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                value = _literal(statement.value, values)
                # what cannot be read without running it is kept as written, so a check names it instead of a default
                values[target.id] = value if value is not None else segments.written(statement.value)
    return Parsed(source, Format.PYTHON, values | _registry_sections(tree, segments))


class _Segments:
    """The source text of ``ast`` nodes, from line offsets computed once: ``ast.get_source_segment`` splits the
    whole text on every call, which is quadratic over a file of assignments."""

    def __init__(self, text: str) -> None:
        self._data = text.encode("utf-8")  # ast's columns count UTF-8 bytes
        starts = [0]
        position = self._data.find(b"\n")
        while position >= 0:
            starts.append(position + 1)
            position = self._data.find(b"\n", position + 1)
        self._starts = starts

    def written(self, node: ast.expr, limit: int = 60) -> str:
        """The node as written, cut to ``limit`` characters (only the bytes needed are decoded)."""
        if node.end_lineno is None or node.end_col_offset is None:
            return "…"
        start = self._starts[node.lineno - 1] + node.col_offset
        end = min(self._starts[node.end_lineno - 1] + node.end_col_offset, start + 4 * limit)
        return self._data[start:end].decode("utf-8", errors="ignore")[:limit] or "…"


#: torchtitan's config registries (since February 2026): ``TrainingConfig(...)`` and ``ParallelismConfig(...)``.
_REGISTRY_SECTIONS = {"TrainingConfig": "training", "ParallelismConfig": "parallelism"}


def _registry_sections(tree: ast.Module, segments: _Segments) -> dict[str, Any]:
    """The keyword arguments of the first config function's ``TrainingConfig``/``ParallelismConfig`` calls.

    A registry defines one function per variant; the first is read (``registry_function`` names it,
    ``registry_functions`` counts them). Only literals and arithmetic; other values kept as written.
    """
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    calls = [(f, node) for f in functions for node in ast.walk(f) if isinstance(node, ast.Call)]
    named = [(f, c, _call_name(c)) for f, c in calls if _call_name(c) in _REGISTRY_SECTIONS]
    if not named:
        return {}
    first = named[0][0]
    sections: dict[str, Any] = {"registry_function": first.name, "registry_functions": len(functions)}
    for function, call, name in named:
        if function is first and _REGISTRY_SECTIONS[name] not in sections:
            sections[_REGISTRY_SECTIONS[name]] = {
                k.arg: (v if (v := _literal(k.value, {})) is not None else segments.written(k.value))
                for k in call.keywords
                if k.arg is not None
            }
    return sections


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


#: Operator nodes ``_literal`` follows into one expression; a longer chain is kept as written.
MAX_OPERATIONS = 64
#: The largest magnitude arithmetic on pasted text may reach (a batch of tokens is ~10¹⁰).
MAX_MAGNITUDE = 10**30


def _literal(node: ast.expr, known: Mapping[str, Any], depth: int = 0) -> Any:
    """The value of a literal or of arithmetic over literals and names read before; None when it is anything else,
    nests deeper than ``MAX_OPERATIONS`` or leaves ``MAX_MAGNITUDE``."""
    if depth > MAX_OPERATIONS:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool):
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand, known, depth + 1)
        return -value if _is_number(value) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _literal(node.left, known, depth + 1), _literal(node.right, known, depth + 1)
        if not (_is_number(left) and _is_number(right)):
            return None
        if right == 0 and isinstance(node.op, ast.Div | ast.FloorDiv | ast.Mod):
            return None
        if max(abs(left), abs(right)) > MAX_MAGNITUDE:
            return None  # keeps arithmetic on pasted text small (a 100-digit number doubled line by line)
        try:
            result = _OPERATORS[type(node.op)](left, right)
        except OverflowError:  # an int too large for a float in a division
            return None
        return result if abs(result) <= MAX_MAGNITUDE else None
    return None


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value  # not NaN
