"""From pasted or loaded text to data: clean-up, a size cap, the format, safe parsing, the framework.

Nothing here executes anything: JSON with ``json``, TOML with ``tomllib``, YAML with PyYAML's safe
loader and a composer that counts aliases and the values they expand to (against "billion
laughs"), Python config files with ``ast`` (literals and arithmetic only), shell with
``core.configs.shell``.

Every reader is bounded by construction, for text anyone may paste: linear work (format detection
line by line, source segments from offsets computed once), nesting refused beyond ``MAX_NESTING``
before a parser recurses, no number beyond ``MAX_DIGITS`` digits in the data, and whatever a parser
still raises on hostile input (RecursionError, MemoryError, OverflowError, ValueError) caught where
it arises and turned into a ``CheckError`` with its reason.
"""

from __future__ import annotations

import ast
import json
import operator
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
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
#: Values in one YAML document with every alias expanded; 64 KiB of text hold ~30.000 without aliases.
MAX_YAML_VALUES = 100_000
#: Brackets (JSON, TOML, Python, YAML flow) or YAML blocks nested in each other; real configs nest a few deep.
MAX_NESTING = 64

#: Digits in a row no config needs (a batch size has a handful).
MAX_DIGITS = 100
_LONG_NUMBER = re.compile(rf"(?<!\d)\d{{{MAX_DIGITS + 1}}}")  # tried only where a run of digits starts: linear
_NAME_CHAR = re.compile(r"[\w-]")
#: A command that starts a program, at a line's start or after ``&&``/``;``: Hydra overrides have no ``--`` flags
#: (``python3 -m verl.trainer.main_ppo data.train_batch_size=1024 …``). Prefix values stop at separators: linear.
_LAUNCH = re.compile(
    r"(?:^|&&|;)[ \t]*(?:[A-Za-z_]\w*=[^\s;&]*[ \t]+)*"
    r"(?:python\d*(?:\.\d+)?[ \t]+-m[ \t]|torchrun[ \t]|accelerate[ \t]+launch[ \t])",
    re.MULTILINE,
)
# [ \t], not \s: with re.MULTILINE, ^\s* at every line start would run over all following blank lines (quadratic)
_FENCE = re.compile(r"^[ \t]*```[\w+-]*[ \t\r]*$", re.MULTILINE)
# no < inside: each attempt stops at the next link's start, so many unclosed links stay linear
_SLACK_LINK = re.compile(r"<((?:https?|mailto):[^|<>\s]+)(?:\|[^<>]*)?>")


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
        raise _unreadable(source, "long_number", long_number.start())
    if kind in _BRACKETED and (deep := _too_deep(source.text)) is not None:
        raise _unreadable(source, "nesting", deep)
    with _hostile(source):
        parsed = _PARSERS[kind](source)
        if _SPELLED_NUMBER.search(source.text) and _huge_value(parsed.data):
            raise _unreadable(source, "long_number")
    return parsed


#: Formats whose parsers recurse per bracket (YAML's composer counts its own nesting; shell has its bounds).
_BRACKETED = frozenset({"json", "toml", "python"})


def _unreadable(source: Source, detail: str, offset: int | None = None) -> CheckError:
    line = source.text.count("\n", 0, offset) + 1 if offset is not None else None
    return CheckError(ProblemKind.UNREADABLE, name=source.name, line=line, detail=detail, **_limit(detail))


def _limit(detail: str) -> dict[str, int]:
    """The limit a reason names (the German text says it)."""
    limits = {"nesting": MAX_NESTING, "long_number": MAX_DIGITS}
    return {"max": limits[detail]} if detail in limits else {}


def _too_deep(text: str) -> int | None:
    """The line's offset where brackets first nest deeper than ``MAX_NESTING`` (in strings too: no config nests
    so deep), or None. Parsers recurse per level (json, tomllib, ast, PyYAML's constructor); refused here first.
    """
    if sum(text.count(opening) for opening in "[{(") <= MAX_NESTING:
        return None
    depth = 0
    for match in _BRACKET.finditer(text):
        if match.group() in "[{(":
            depth += 1
            if depth > MAX_NESTING:
                return match.start()
        elif depth:
            depth -= 1
    return None


_BRACKET = re.compile(r"[\[\]{}()]")


@contextmanager
def _hostile(source: Source) -> Iterator[None]:
    """What a parser may still raise on hostile input, as the reason it could not be read (never a crash)."""
    try:
        yield
    except RecursionError:
        raise _unreadable(source, "nesting") from None
    except MemoryError:
        raise _unreadable(source, "memory") from None
    except OverflowError:
        raise _unreadable(source, "long_number") from None
    except CheckError:
        raise
    except ValueError as error:  # int() beyond 4.300 digits (hex, underscores), a NUL byte for ast
        raise _unreadable(source, "long_number" if "digits" in str(error) else "invalid") from None


#: Numbers spelled so that their digits are not one run (hex, octal, binary, ``1_000``), which ``_LONG_NUMBER``
#: cannot see: only then are the values read walked for huge ones.
_SPELLED_NUMBER = re.compile(r"\d_\d|0[xXoObB][0-9a-fA-F]")


def _huge_value(data: object) -> bool:
    """Whether a number in ``data`` has more than ``MAX_DIGITS`` digits; every value once, iteratively."""
    limit = 10**MAX_DIGITS
    pending: list[object] = [data]
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if isinstance(value, int) and abs(value) >= limit:
            return True
        if isinstance(value, dict | list) and id(value) not in seen:  # YAML aliases share one object
            seen.add(id(value))
            pending.extend(value.values() if isinstance(value, dict) else value)
    return False


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


_ASSIGNMENT = re.compile(r"\w+\s*=")
_PYTHON_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*\s*=(?:[^=]|$)")
_YAML_KEY_SPACE = re.compile(r"\w+:(?:\s|$)")
_YAML_KEY = re.compile(r"[\w.-]+\s*:")
_LONG_OPTION = re.compile(r"(?:^|\s)--[a-z]")

#: A line only Python starts with (OLMo-core's launch scripts, Megatron-Bridge and NeMo 2 recipes, pasted): their
#: argparse flags would read as a launch line, their annotations (``num_nodes: int = 1``) as YAML.
_PYTHON_LINE = re.compile(r"^(?:def [A-Za-z_]\w*\(|import [A-Za-z_]|from [A-Za-z_][\w.]* import )", re.MULTILINE)


def _python_by_content(text: str) -> bool:
    return _PYTHON_LINE.search(text) is not None


def _format_by_content(text: str) -> Format | None:
    """The format the text looks like, from each line's start once (linear: no multi-line pattern rescans)."""
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return Format.JSON
    if stripped.startswith("#!"):  # a shebang names the interpreter: a heredoc of Python in bash stays bash
        return Format.PYTHON if "python" in stripped.split("\n", 1)[0] else Format.SHELL
    if _python_by_content(text):
        return Format.PYTHON
    seen: set[str] = set()
    for raw in text.split("\n"):
        line = raw.lstrip()
        if not line:
            continue
        for name, pattern in _LINE_SHAPES:
            if name not in seen and pattern.match(line):
                seen.add(name)
    if {"table", "assignment"} <= seen:
        return Format.TOML
    if stripped.startswith("#!") or _LONG_OPTION.search(text) or _LAUNCH.search(text):
        return Format.SHELL
    if "python" in seen and "key_space" not in seen:
        return Format.PYTHON
    if "key" in seen:
        return Format.YAML
    return None


_LINE_SHAPES = (
    ("table", re.compile(r"\[[\w.]+\]\s*$")),
    ("assignment", _ASSIGNMENT),
    ("python", _PYTHON_ASSIGNMENT),
    ("key_space", _YAML_KEY_SPACE),
    ("key", _YAML_KEY),
)


def _parse_json(source: Source) -> Parsed:
    try:
        data = json.loads(source.text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=error.lineno, detail=error.msg) from None
    except _DuplicateKeyError as error:
        raise CheckError(ProblemKind.UNREADABLE, name=source.name, line=None, detail=str(error)) from None
    return Parsed(source, Format.JSON, _mapping(data, source))


class _DuplicateKeyError(ValueError):
    """DeepSpeed refuses JSON with a key given twice (dict_raise_error_on_duplicate_keys); so does effbatch."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) == len(pairs):
        return data
    counts = Counter(key for key, _ in pairs)  # keys.count per key would be quadratic in 10.000 keys
    duplicates = sorted(key for key, count in counts.items() if count > 1)
    if duplicates:
        msg = f"duplicate key: {', '.join(duplicates)}"
        raise _DuplicateKeyError(msg)
    return data


class _BoundedComposer(yaml.composer.Composer):
    """PyYAML's composer, counting as it composes: aliases (at most ``MAX_ALIASES``), the values the document
    holds with every alias expanded (at most ``MAX_YAML_VALUES``) and the nesting (at most ``MAX_NESTING``).

    Whatever the spelling (block, flow mappings, merge keys), each alias is one event here.
    """

    def __init__(self) -> None:
        super().__init__()
        self.aliases = 0
        self.depth = 0
        #: Values under each composed node with aliases expanded, by the node's id (nodes live until loaded).
        self.sizes: dict[int, int] = {}

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):  # type: ignore[attr-defined]  # the parser's, mixed in beside
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise CheckError(ProblemKind.UNSAFE, detail="aliases", max=MAX_ALIASES)
            return super().compose_node(parent, index)  # an anchored node, its size already known
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise CheckError(ProblemKind.UNREADABLE, line=None, detail="nesting", max=MAX_NESTING)
        node = super().compose_node(parent, index)
        self.depth -= 1
        if node is not None:
            self._measure(node)
        return node

    def _measure(self, node: yaml.Node) -> None:
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        if not children:
            return  # a scalar (or an empty collection) counts one, the default
        sizes = self.sizes
        size = 1 + sum(sizes.get(id(child), 1) for child in children)
        if size > MAX_YAML_VALUES:
            raise CheckError(ProblemKind.UNSAFE, detail="expanded", max=MAX_YAML_VALUES)
        sizes[id(node)] = size


class _BoundedLoader(
    _BoundedComposer,
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    yaml.constructor.SafeConstructor,
    yaml.resolver.Resolver,
):
    """PyYAML's safe loader (no Python tags) with the counting composer."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _BoundedComposer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        yaml.resolver.Resolver.__init__(self)


#: libyaml's scanner and parser, when PyYAML was built with it (yaml.cyaml's, which the stubs do not declare).
_CParser: Any = getattr(yaml.cyaml, "CParser", None) if yaml.__with_libyaml__ else None
_LOADER: Any = _BoundedLoader

if _CParser is not None:

    class _FastBoundedLoader(
        _BoundedComposer,
        _CParser,  # type: ignore[misc]  # Any to mypy
        yaml.constructor.SafeConstructor,
        yaml.resolver.Resolver,
    ):
        """libyaml's scanner and parser (C) under the same counting composer: the events come from C, every
        node (and alias) still passes ``compose_node`` here."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _BoundedComposer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    _LOADER = _FastBoundedLoader


def _bounded_int(loader: Any, node: yaml.ScalarNode) -> int:
    """YAML 1.1's ints, refused beyond ``MAX_DIGITS`` characters before PyYAML computes them (``1:59:59:…`` in
    base 60 costs a big multiplication per part; ``0x…`` and ``1_000_…`` escape the digit-run check)."""
    if len(node.value) > MAX_DIGITS:
        raise CheckError(ProblemKind.UNREADABLE, line=node.start_mark.line + 1, detail="long_number", max=MAX_DIGITS)
    value: int = yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)
    return value


_BoundedLoader.add_constructor("tag:yaml.org,2002:int", _bounded_int)
_LOADER.add_constructor("tag:yaml.org,2002:int", _bounded_int)


def _include(loader: yaml.SafeLoader, node: yaml.Node) -> str:
    """Levanter's ``data: !include data/openwebtext_source.yaml``: kept as written (a path); nothing is read."""
    return f"!include {node.value}" if isinstance(node, yaml.ScalarNode) else "!include"


_BoundedLoader.add_constructor("!include", _include)
_LOADER.add_constructor("!include", _include)


def _parse_yaml(source: Source) -> Parsed:
    """The safe loader with the counting composer; either reader refuses control characters itself."""
    loader: Any = None
    try:
        loader = _LOADER(source.text)
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
    try:
        script = read_script(source.text)
    except CheckError as error:  # a bound of the shell reader: the message names the source
        raise CheckError(error.kind, **{**error.ctx, "name": source.name}) from None
    return Parsed(source, Format.SHELL, script=script)


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
