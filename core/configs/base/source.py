"""One input as the readers hand it on: its name and text (``Source``), and read (``Parsed``: format, data, script)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from effbatch.core.configs.base.pyscript import PyScript, Via
from effbatch.core.configs.base.script import Script

_NAME_CHAR = re.compile(r"[\w-]")


class Format(StrEnum):
    JSON = "json"
    YAML = "yaml"
    TOML = "toml"
    PYTHON = "python"
    SHELL = "shell"
    #: ``requirements*.txt``: the versions a repository pins (``data["pins"]``).
    PINS = "pins"
    #: A DeepSpeed launcher's hostfile (``worker-1 slots=8`` a line): the hosts and their slots (``data["hosts"]``).
    HOSTFILE = "hostfile"


@dataclass(frozen=True)
class Source:
    """One input: a file's name (or where it was pasted) and its text."""

    name: str
    text: str


@dataclass
class Parsed:
    """One source, read: its format, its data (a mapping for JSON, YAML, TOML and Python), its shell script or its
    Python reading."""

    source: Source
    format: Format
    data: dict[str, Any] = field(default_factory=dict)
    script: Script | None = None
    #: A Python file's whole reading: its calls and their arguments (``data`` holds its module-level names).
    python: PyScript | None = None
    #: Where the keys of a mapping built from a script (not written as keys anywhere) were set: key → ``name:line``.
    places: dict[str, str] = field(default_factory=dict)
    #: Where a value such a mapping holds was set, where the script only names it there (``args.bs``).
    vias: dict[str, Via] = field(default_factory=dict)
    #: A value a later layer set again (a Hydra override on the composed YAML): dotted path → (the value it
    #: replaced, where that was written).
    overridden: dict[str, tuple[Any, str]] = field(default_factory=dict)

    def at(self, path: str) -> str:
        """``name:line`` of the value at a dotted ``path``: where it was set, else the first line naming its key."""
        return self.places.get(path) or self.where(path.rsplit(".", 1)[-1])

    def where(self, needle: str) -> str:
        """``name:line`` of the first line that names ``needle`` (a key or flag), or just the name."""
        if needle in self.places:
            return self.places[needle]
        text, start = self.source.text, 0
        while (start := text.find(needle, start)) >= 0:  # str.find: a regex with a lookbehind scans every position
            end = start + len(needle)
            if not _NAME_CHAR.match(text[start - 1 : start] or " ") and not _NAME_CHAR.match(
                text[end : end + 1] or " "
            ):
                return f"{self.source.name}:{text.count(chr(10), 0, start) + 1}"
            start = end
        return self.source.name
