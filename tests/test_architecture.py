"""The house's size rules, held against the code: files, classes and functions a reader can take in at once; and
that core/ is pure.

The import rules (layers, independent frameworks, no circles, no outside package in core/) are import-linter's
contracts in pyproject.toml, checked by ``make test``; a copy of the repository with an outside import added proves
the purity contract refuses it. What no import shows (reading ``os.environ``, opening a file) is walked here.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bot_process import BIN

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


#: Reading the environment and opening files: names no pure computation needs.
ENVIRONMENT = frozenset({"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"})
FILE_CALLS = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes"})


def impurities(tree: ast.AST) -> list[str]:
    """What in a module reads the environment (``os.environ``, ``os.getenv``, however ``os`` is named) or opens a
    file, each with its line."""
    nodes = list(ast.walk(tree))
    os_names = {a.asname or a.name for n in nodes if isinstance(n, ast.Import) for a in n.names if a.name == "os"}
    found: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT and _named(node.value) in os_names:
            found.append(f"l.{node.lineno}: os.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"l.{node.lineno}: from os import {a.name}" for a in node.names if a.name in ENVIRONMENT]
        elif isinstance(node, ast.Call) and _named(node.func) in FILE_CALLS and not _packaged(node, nodes):
            found.append(f"l.{node.lineno}: {_named(node.func)}()")
    return found


def _packaged(call: ast.Call, nodes: list[ast.AST]) -> bool:
    """A read of the package's own data, ``resources.files(package)…read_text()`` with ``from importlib import
    resources``: a table shipped in the wheel beside the code (tests/test_packaging.py), not a file the user has."""
    imported = any(
        isinstance(n, ast.ImportFrom) and n.module == "importlib" and any(a.name == "resources" for a in n.names)
        for n in nodes
    )
    link: ast.expr = call.func
    while isinstance(link, ast.Attribute | ast.Call):
        if isinstance(link, ast.Call) and ast.unparse(link.func) == "resources.files":
            return imported
        link = link.value if isinstance(link, ast.Attribute) else link.func
    return False


def _named(node: ast.expr) -> str:
    """``open`` for ``open`` and ``io.open``; the name a bare name or an attribute ends with, else empty."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


# (a module's text, what the walk finds in it): the walk would catch each way in
IMPURE_CASES = [
    ("import os\nsize = os.environ['WORLD_SIZE']\n", ["l.2: os.environ"]),
    ("import os\nsize = os.getenv('WORLD_SIZE')\n", ["l.2: os.getenv"]),
    ("import os as system\nsize = system.environ.get('WORLD_SIZE')\n", ["l.2: os.environ"]),
    ("from os import environ\n", ["l.1: from os import environ"]),
    ("with open('ds.json') as f:\n    text = f.read()\n", ["l.1: open()"]),
    ("from pathlib import Path\ntext = Path('ds.json').read_text()\n", ["l.2: read_text()"]),
    ("import io\ndata = io.open('ds.json').read()\n", ["l.2: open()"]),
    ("def size(context):\n    return context.environ.get('WORLD_SIZE')\n", []),  # passed in: pure
    ("from pathlib import PurePosixPath\nname = PurePosixPath('a/ds.json').name\n", []),
    # the package's own data file, shipped in the wheel: part of the code, not the user's input
    ("from importlib import resources\nt = resources.files('effbatch.core').joinpath('a.json').read_text()\n", []),
    # ... but only through importlib.resources: a path beside the module is a file like any other
    ("from pathlib import Path\nt = Path(__file__).with_name('a.json').read_text()\n", ["l.2: read_text()"]),
    ("import resources\nt = resources.files('a').joinpath('a.json').read_text()\n", ["l.2: read_text()"]),
]


@pytest.mark.parametrize(("text", "expected"), IMPURE_CASES)
def test_the_purity_walk_catches_the_environment_and_files(text: str, expected: list[str]) -> None:
    """Each way to read the environment or a file is found; a mapping passed in, a pure path or the package's own data
    is not."""
    assert impurities(ast.parse(text)) == expected


CORE = [path for path in SOURCES if path.relative_to(ROOT).parts[0] == "core"]


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_core_reads_no_environment_and_opens_no_file(path: Path) -> None:
    """core/ is given what it computes from: no ``os.environ``, no ``os.getenv``, no ``open()``, no ``read_text()``."""
    assert impurities(ast.parse(path.read_text(encoding="utf-8"))) == []


# (a line added to a core module, the import the purity contract names, or None where it keeps)
OUTSIDE_CASES = [
    ("", None),
    ("import slack_sdk", "effbatch.core.configs.base.versions -> slack_sdk"),
    ("from sqlalchemy import create_engine", "effbatch.core.configs.base.versions -> sqlalchemy"),
    ("from http.client import HTTPSConnection", "effbatch.core.configs.base.versions -> http"),
    ("import socket", "effbatch.core.configs.base.versions -> socket"),
    ("from effbatch.bot import texts", "effbatch.core.configs.base.versions -> effbatch.bot"),
]


@pytest.mark.parametrize(("line", "named"), OUTSIDE_CASES, ids=[c[0] or "as it is" for c in OUTSIDE_CASES])
def test_the_purity_contract_refuses_an_outside_import(tmp_path: Path, line: str, named: str | None) -> None:
    """A copy of the repository keeps every contract; with one outside import added to core/, lint-imports fails and
    names it."""
    package = tmp_path / "effbatch"  # the layout the installed names take: effbatch.core is core/
    for name in ("core", "bot"):
        shutil.copytree(ROOT / name, package / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(ROOT / name, package / name)
    module = package / "core" / "configs" / "base" / "versions.py"
    module.write_text(module.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")
    result = subprocess.run(
        [BIN / "lint-imports", "--no-cache"],
        cwd=package,
        env={"PYTHONPATH": str(tmp_path), "PATH": str(BIN)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    broken = result.stdout.partition("Broken contracts")[2]
    assert (result.returncode, "core is pure" in broken) == ((0, False) if named is None else (1, True))
    assert named is None or named in broken


#: A tracker number no reader can open; a comment or a doc says the reason itself.
CITATION = re.compile(r"\b[Ii]ssues? [0-9]+")
#: The project's own files: under tests/data only its READMEs, the rest there are copies of other repositories.
OWN_FILES = ("core/**/*", "bot/**/*", "bench/**/*", "docs/**/*", "tests/*", "tests/data/**/README*.md")


def test_no_file_of_the_project_cites_an_issue_number() -> None:
    """No file of the project sends its reader to a tracker number instead of giving the reason."""
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    files += [path for pattern in OWN_FILES for path in ROOT.glob(pattern) if path.suffix in {".py", ".md"}]
    cited = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert cited == []
