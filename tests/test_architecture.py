"""The house's size rules, held against the code: files, classes and functions a reader can take in at once.

The import rules (layers, independent frameworks, no circles) are import-linter's contracts in pyproject.toml,
checked by ``make test``; these are the sizes STYLE.md asks for.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SOURCES = sorted(path for folder in ("core", "bot") for path in (ROOT / folder).rglob("*.py"))
MAX_FILE_LINES = 600
MAX_CLASS_LINES = 250
MAX_FUNCTION_LINES = 40


def _nodes(path: Path) -> list[ast.AST]:
    return list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def _span(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    start = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
    return (node.end_lineno or node.lineno) - start + 1


def test_the_sources_are_found() -> None:
    """The walk sees the packages (an empty list would pass every rule below)."""
    names = {path.relative_to(ROOT).as_posix() for path in SOURCES}
    assert {"core/configs/checking.py", "core/configs/shell/evaluator.py", "bot/serving/cli.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_sizes(path: Path) -> None:
    """No file over 600 lines, no class over 250, no function over 40 (decorators counted)."""
    too_long = [f"the file: {path.read_text(encoding='utf-8').count(chr(10))} lines"]
    too_long = too_long if path.read_text(encoding="utf-8").count("\n") > MAX_FILE_LINES else []
    for node in _nodes(path):
        if isinstance(node, ast.ClassDef) and _span(node) > MAX_CLASS_LINES:
            too_long.append(f"class {node.name}: {_span(node)} lines")
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _span(node) > MAX_FUNCTION_LINES:
            too_long.append(f"{node.name}(): {_span(node)} lines")
    assert too_long == []
