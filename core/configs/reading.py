"""From pasted or loaded text to data: clean-up, a size cap, the format, safe parsing, the framework.

Nothing here executes anything: JSON with ``json``, TOML with ``tomllib``, YAML with PyYAML's safe
loader and a cap on aliases (against "billion laughs"), Python config files with ``ast`` (literals
and arithmetic only), shell with ``core.configs.shell``.
"""

from __future__ import annotations

import ast
import json
import operator
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from html import unescape
from typing import Any

import yaml

from core.configs.model import CheckError, ProblemKind
from core.configs.shell import Script, read_script

#: The largest pasted config, in bytes of UTF-8 (a long Megatron script is ~10 KiB; Slack caps a message at 40.000).
MAX_CONFIG_BYTES = 64 * 1024
#: The largest file the CLI reads: OLMo's configs list their data files and reach ~310 KB.
MAX_FILE_BYTES = 1024 * 1024
#: YAML aliases allowed in one document; real configs use a handful.
MAX_ALIASES = 50

#: Digits in a row no config needs (a batch size has a handful).
MAX_DIGITS = 100
_LONG_NUMBER = re.compile(rf"(?<!\d)\d{{{MAX_DIGITS + 1}}}")  # tried only where a run of digits starts: linear
_NAME_CHAR = re.compile(r"[\w-]")
_FENCE = re.compile(r"^\s*```[\w+-]*\s*$", re.MULTILINE)
_SLACK_LINK = re.compile(r"<((?:https?|mailto):[^|>]+)(?:\|[^>]*)?>")


class Format(StrEnum):
    JSON = "json"
    YAML = "yaml"
    TOML = "toml"
    PYTHON = "python"
    SHELL = "shell"


@dataclass(frozen=True)
class Source:
    """One input: a file's name (or where it was pasted) and its text."""

    name: str
    text: str


@dataclass
class Parsed:
    """One source, read: its format, its data (a mapping for JSON, YAML, TOML and Python), or its script."""

    source: Source
    format: Format
    data: dict[str, Any] = field(default_factory=dict)
    script: Script | None = None

    def where(self, needle: str) -> str:
        """``name:line`` of the first line that names ``needle`` (a key or flag), or just the name."""
        text, start = self.source.text, 0
        while (start := text.find(needle, start)) >= 0:  # str.find: a regex with a lookbehind scans every position
            end = start + len(needle)
            if not _NAME_CHAR.match(text[start - 1 : start] or " ") and not _NAME_CHAR.match(
                text[end : end + 1] or " "
            ):
                return f"{self.source.name}:{text.count(chr(10), 0, start) + 1}"
            start = end
        return self.source.name


def clean(text: str) -> str:
    """Pasted text as it was typed: Slack's escapes undone, code fences and link brackets dropped."""
    text = unescape(text)  # Slack sends &amp; &lt; &gt;
    text = _SLACK_LINK.sub(lambda m: m.group(1), text)
    text = _FENCE.sub("", text)
    text = text.replace("```", "\n")  # inline fences: ```{"a": 1}```
    return text.strip("\n")


def parse(source: Source, max_bytes: int = MAX_CONFIG_BYTES) -> Parsed:
    """``source`` read in the format its name or its content says; ``CheckError`` above ``max_bytes``."""
    size = len(source.text.encode("utf-8"))
    if size > max_bytes:
        raise CheckError(ProblemKind.TOO_LARGE, name=source.name, size=size, max=max_bytes)
    if not source.text.strip():
        raise CheckError(ProblemKind.EMPTY, name=source.name)
    kind = _format_by_name(source.name) or _format_by_content(source.text)
    if kind is None:
        raise CheckError(ProblemKind.UNKNOWN_FORMAT, name=source.name)
    if long_number := _LONG_NUMBER.search(source.text):
        # Python refuses int() beyond 4.300 digits with a ValueError inside every parser; no config has such a number
        line = source.text.count("\n", 0, long_number.start()) + 1
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=line, detail="long_number")
    return _PARSERS[kind](source)


def _format_by_name(name: str) -> Format | None:
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return {
        "json": Format.JSON,
        "yaml": Format.YAML,
        "yml": Format.YAML,
        "toml": Format.TOML,
        "py": Format.PYTHON,
        "sh": Format.SHELL,
        "bash": Format.SHELL,
    }.get(suffix)


#: A line only Python starts with (OLMo-core's launch scripts, Megatron-Bridge and NeMo 2 recipes, pasted): their
#: argparse flags would read as a launch line, their annotations (``num_nodes: int = 1``) as YAML.
_PYTHON_LINE = re.compile(r"^(?:def [A-Za-z_]\w*\(|import [A-Za-z_]|from [A-Za-z_][\w.]* import )", re.MULTILINE)


def _python_by_content(text: str) -> bool:
    return _PYTHON_LINE.search(text) is not None


def _format_by_content(text: str) -> Format | None:
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return Format.JSON
    if _python_by_content(text):
        return Format.PYTHON
    if re.search(r"^\s*\[[\w.]+\]\s*$", text, re.MULTILINE) and re.search(r"^\s*\w+\s*=", text, re.MULTILINE):
        return Format.TOML
    if stripped.startswith("#!") or re.search(r"(^|\s)--[a-z][\w-]*", text):
        return Format.SHELL
    if re.search(r"^\s*[A-Za-z_]\w*\s*=[^=]", text, re.MULTILINE) and not re.search(r"^\s*\w+:\s", text, re.M):
        return Format.PYTHON
    if re.search(r"^\s*[\w.-]+\s*:", text, re.MULTILINE):
        return Format.YAML
    return None


def _parse_json(source: Source) -> Parsed:
    try:
        data = json.loads(source.text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=error.lineno, detail=error.msg) from None
    except _DuplicateKeyError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail=str(error)) from None
    except RecursionError:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail="nesting") from None
    return Parsed(source, Format.JSON, _mapping(data, source))


class _DuplicateKeyError(ValueError):
    """DeepSpeed refuses JSON with a key given twice (dict_raise_error_on_duplicate_keys); so does effbatch."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        msg = f"duplicate key: {', '.join(duplicates)}"
        raise _DuplicateKeyError(msg)
    return dict(pairs)


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader (no Python tags), refusing documents with more than ``MAX_ALIASES`` aliases."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise CheckError(ProblemKind.UNSAFE, detail="aliases", max=MAX_ALIASES)
        return super().compose_node(parent, index)


def _include(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    """Levanter's ``data: !include data/openwebtext_source.yaml``: kept as written (a path); nothing is read."""
    return f"!include {node.value}" if isinstance(node, yaml.ScalarNode) else "!include"


_BoundedLoader.add_constructor("!include", _include)
if yaml.__with_libyaml__:  # the fast path below is taken only then

    class _IncludingLoader(yaml.CSafeLoader):
        """libyaml's safe loader that keeps ``!include`` as text (every other tag is still refused)."""

    _IncludingLoader.add_constructor("!include", _include)


#: Where an alias can start (``*name`` at a line's start, after white space or in a flow); counts a few too many.
_ALIAS = re.compile(r"(?<![^\s\[{,])\*[^\s,\[\]{}]")


def _parse_yaml(source: Source) -> Parsed:
    """libyaml's safe loader (C, ~10× faster) where the text cannot hold more aliases than allowed; else the
    Python one, which counts them exactly."""
    fast = yaml.__with_libyaml__ and len(_ALIAS.findall(source.text)) <= MAX_ALIASES
    loader: yaml.SafeLoader | yaml.CSafeLoader | None = None
    try:
        # either reader refuses control characters itself
        loader = _IncludingLoader(source.text) if fast else _BoundedLoader(source.text)
        data = loader.get_single_data()
    except CheckError as error:
        raise CheckError(error.kind, name=source.name, **error.ctx) from None
    except yaml.constructor.ConstructorError as error:
        line = error.problem_mark.line + 1 if error.problem_mark else None
        raise CheckError(ProblemKind.UNSAFE, name=source.name, line=line, detail="tag") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise CheckError(
            ProblemKind.UNREADABLE, name=source.name, line=line, detail=str(error).split("\n")[0]
        ) from None
    except RecursionError:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail="nesting") from None
    finally:
        if loader is not None:
            loader.dispose()
    return Parsed(source, Format.YAML, _mapping(data, source))


def _parse_toml(source: Source) -> Parsed:
    try:
        data = tomllib.loads(source.text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"line (\d+)", str(error))
        raise CheckError(
            ProblemKind.UNREADABLE, name=source.name, line=int(line.group(1)) if line else None, detail=str(error)
        ) from None
    return Parsed(source, Format.TOML, data)


def _parse_shell(source: Source) -> Parsed:
    return Parsed(source, Format.SHELL, script=read_script(source.text))


_OPERATORS: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


def _parse_python(source: Source) -> Parsed:
    """Top-level ``name = value`` of literals and arithmetic over them (nanoGPT's config files); nothing runs."""
    try:
        tree = ast.parse(source.text)
    except SyntaxError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=error.lineno, detail=error.msg) from None
    values: dict[str, Any] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                value = _literal(statement.value, values)
                # what cannot be read without running it is kept as written, so a check names it instead of a default
                values[target.id] = value if value is not None else _written(source.text, statement.value)
    return Parsed(source, Format.PYTHON, values | _registry_sections(tree, source.text))


#: torchtitan's config registries (since February 2026): ``TrainingConfig(...)`` and ``ParallelismConfig(...)``.
_REGISTRY_SECTIONS = {"TrainingConfig": "training", "ParallelismConfig": "parallelism"}


def _registry_sections(tree: ast.Module, text: str) -> dict[str, Any]:
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
                k.arg: (v if (v := _literal(k.value, {})) is not None else _written(text, k.value))
                for k in call.keywords
                if k.arg is not None
            }
    return sections


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _written(text: str, node: ast.expr) -> str:
    return (ast.get_source_segment(text, node) or "…")[:60]


def _literal(node: ast.expr, known: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool):
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _literal(node.operand, known)
        return -value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _literal(node.left, known), _literal(node.right, known)
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right))
        if not numbers or (right == 0 and isinstance(node.op, ast.Div | ast.FloorDiv | ast.Mod)):
            return None
        if isinstance(node.op, ast.Mult) and max(abs(left), abs(right)) > 10**12:
            return None  # keeps arithmetic on pasted text small
        return _OPERATORS[type(node.op)](left, right)
    return None


def _mapping(data: object, source: Source) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail="not_a_mapping")
    return data


_PARSERS: Mapping[Format, Callable[[Source], Parsed]] = {
    Format.JSON: _parse_json,
    Format.YAML: _parse_yaml,
    Format.TOML: _parse_toml,
    Format.PYTHON: _parse_python,
    Format.SHELL: _parse_shell,
}
