"""Every text constant in bot/texts/ is used: read by name from another module of the product or its tests (a text
only its own module builds others from is private, ``_NAME``). A constant nobody reads is a text nobody sees, and
drifts."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ROOT / "bot" / "texts"
#: The package whose modules ``bot.texts.frameworks`` collects by name (``module.NAME``, ``module.FINDINGS`` …).
FRAMEWORKS = TEXTS / "frameworks"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(("effbatch", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def product_modules() -> Iterator[Path]:
    """The modules that may read a text: bot/ and core/, and the tests (a test holding a manifest to its text)."""
    for folder in ("bot", "core", "tests"):
        found = (ROOT / folder).rglob("*.py")
        # tests/data holds copies of other repositories' files (one has an escape newer Pythons refuse), no reader
        yield from sorted(p for p in found if p != Path(__file__).resolve() and "data" not in p.relative_to(ROOT).parts)


def constants(path: Path) -> list[str]:
    """The module's public constants: upper-case names assigned at its top level."""
    names: list[str] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        for target in targets:
            for name in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(name, ast.Name) and name.id.isupper() and not name.id.startswith("_"):
                    names.append(name.id)
    return names


def reads(path: Path) -> set[tuple[str, str]]:
    """(module, name) pairs ``path`` reads: ``from m import NAME`` and ``alias.NAME`` where ``alias`` is module m."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases: dict[str, str] = {}
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                found.add((node.module, alias.name))
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            found.add((aliases[node.value.id], node.attr))
    if path == FRAMEWORKS / "__init__.py":  # collected by name from every module of the package
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        found |= {(module_name(p), a) for p in FRAMEWORKS.glob("*.py") for a in attributes}
    return found


def test_every_text_constant_is_read_outside_its_module() -> None:
    """Each public constant of bot/texts/ is read by another module of bot/, core/ or the tests; none is left
    over."""
    read: dict[Path, set[tuple[str, str]]] = {path: reads(path) for path in product_modules()}
    unused = [
        f"{module_name(path)}.{name}"
        for path in sorted(TEXTS.rglob("*.py"))
        for name in constants(path)
        if not any((module_name(path), name) in pairs for other, pairs in read.items() if other != path)
    ]
    assert unused == []
