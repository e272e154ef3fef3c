"""From text to data: the size cap, the format, safe parsing; nothing here executes anything.

JSON with ``json``, TOML with ``tomllib``, YAML with the bounded loader (``yaml_loader``), Python config files
with ``ast`` (literals and arithmetic only), shell with ``core.configs.shell``. Every reader is bounded by
construction (``bounds``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from effbatch.core.configs.base import CheckError, Format, Parsed, ProblemKind, Source
from effbatch.core.configs.base.versions import requirements
from effbatch.core.configs.read.bounds import (
    BRACKETED,
    LONG_NUMBER,
    MAX_CONFIG_BYTES,
    SPELLED_NUMBER,
    hostile,
    huge_value,
    too_deep,
    unreadable,
)
from effbatch.core.configs.read.formats import format_by_content, format_by_name, hostfile_lines
from effbatch.core.configs.read.structured import parse_json, parse_toml

# The YAML, Python and shell readers are imported when a source of theirs is read: a check of a JSON file loads
# none of them, a check of a YAML file neither Python's nor the shell's (start-up of ``effbatch check``).


def parse(source: Source, max_bytes: int = MAX_CONFIG_BYTES) -> Parsed:
    """``source`` read in the format its name or its content says; ``CheckError`` above ``max_bytes``."""
    size = len(source.text.encode("utf-8"))
    if size > max_bytes:
        raise CheckError(ProblemKind.TOO_LARGE, name=source.name, size=size, max=max_bytes)
    if not source.text.strip():
        raise CheckError(ProblemKind.EMPTY, name=source.name)
    kind = format_by_name(source.name) or format_by_content(source.text)
    if kind is None:
        raise CheckError(ProblemKind.UNKNOWN_FORMAT, name=source.name)
    if long_number := LONG_NUMBER.search(source.text):
        # Python refuses int() beyond 4.300 digits with a ValueError inside every parser; no config has such a number
        raise unreadable(source, "long_number", long_number.start())
    if kind in BRACKETED and (deep := too_deep(source.text)) is not None:
        raise unreadable(source, "nesting", deep)
    with hostile(source):
        parsed = _PARSERS[kind](source)
        if SPELLED_NUMBER.search(source.text) and huge_value(parsed.data):
            raise unreadable(source, "long_number")
    return parsed


def parse_yaml(source: Source) -> Parsed:
    from effbatch.core.configs.read.yaml_loader import parse_yaml as read

    return read(source)


def parse_shell(source: Source) -> Parsed:
    from effbatch.core.configs.shell import read_script

    try:
        script = read_script(source.text)
    except CheckError as error:  # a bound of the shell reader: the message names the source
        raise CheckError(error.kind, **{**error.ctx, "name": source.name}) from None
    return Parsed(source, Format.SHELL, script=script)


def parse_python(source: Source) -> Parsed:
    from effbatch.core.configs.read.python_source import parse_python as read

    return read(source)


def parse_pins(source: Source) -> Parsed:
    """``requirements*.txt``: the versions it pins."""
    return Parsed(source, Format.PINS, {"pins": requirements(source.text.splitlines())})


def parse_hostfile(source: Source) -> Parsed:
    """A DeepSpeed hostfile: its hosts and their slots."""
    return Parsed(source, Format.HOSTFILE, {"hosts": hostfile_lines(source.text) or {}})


_PARSERS: Mapping[Format, Callable[[Source], Parsed]] = {
    Format.JSON: parse_json,
    Format.YAML: parse_yaml,
    Format.TOML: parse_toml,
    Format.PYTHON: parse_python,
    Format.SHELL: parse_shell,
    Format.PINS: parse_pins,
    Format.HOSTFILE: parse_hostfile,
}
