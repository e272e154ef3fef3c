"""docs/architecture.md's contracts table, generated from ``[tool.importlinter]`` in pyproject.toml: the page
says what the contracts hold because it is written from them.

Run ``.venv/bin/python tests/architecture_page.py`` after changing a contract; ``tests/test_docs.py`` fails while
the page differs from what this writes.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
REGENERATE = ".venv/bin/python tests/architecture_page.py"
BEGIN = f"<!-- generated from [tool.importlinter] in pyproject.toml: run {REGENERATE} -->"
END = "<!-- end of the generated contracts -->"


def contracts() -> list[Mapping[str, Any]]:
    linter = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contracts: list[Mapping[str, Any]] = linter["contracts"]
    return contracts


def _names(modules: Sequence[str]) -> str:
    return ", ".join(f"`{module.replace('effbatch.', '')}`" for module in modules)


def held(contract: Mapping[str, Any]) -> str:
    """What one contract holds, in a sentence read off its own fields."""
    kind = contract["type"]
    if kind == "forbidden":
        return f"{_names(contract['source_modules'])} never imports {_names(contract['forbidden_modules'])}"
    if kind == "acyclic_siblings":
        return f"no import circle among the modules of any package of {_names(contract['ancestors'])}"
    if kind == "independence":
        ignored = contract.get("ignore_imports", [])
        but = f"; allowed: {_names([rule.replace(' -> ', ' → ') for rule in ignored])}" if ignored else ""
        return f"the modules {_names(contract['modules'])} never import one another{but}"
    if kind == "layers":
        floors = " → ".join(" \\| ".join(f"`{m.strip()}`" for m in layer.split("|")) for layer in contract["layers"])
        every = " (exhaustive: every module is on a floor)" if contract.get("exhaustive") else ""
        return f"in {_names(contract['containers'])}: {floors}, each importing only those below it{every}"
    msg = f"no sentence for a contract of type {kind!r}"
    raise ValueError(msg)


def generated() -> str:
    rows = [f"| {contract['name']} | {held(contract)} |" for contract in contracts()]
    return "\n".join([BEGIN, "", "| contract | what it holds |", "|---|---|", *rows, "", END])


def regenerated(page: str) -> str:
    """``page`` with its contracts table rewritten; the text around it stays as it is."""
    before, found, rest = page.partition(BEGIN)
    _, ended, after = rest.partition(END)
    if not found or not ended:
        msg = f"{PAGE.relative_to(ROOT)} needs the markers {BEGIN!r} and {END!r}"
        raise ValueError(msg)
    return before + generated() + after


if __name__ == "__main__":
    PAGE.write_text(regenerated(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{PAGE.relative_to(ROOT)} regenerated")
