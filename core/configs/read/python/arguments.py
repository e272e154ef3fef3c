"""Command-line words as scripts' parsers read them: Hugging Face's ``HfArgumentParser``/TRL's ``TrlParser`` over
dataclasses filled from the launch line's flags, and the conversion of a word by a ``type=`` (argparse's own
parser is ``argparser``, its reading of a command line ``command_line``).

Where the launch line is known (``argv``), a flag it passes wins over the default; where it is not, a dataclass the
library defines (``TrainingArguments``) has no known fields – its values are the command line's, which nobody gave.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from effbatch.core.configs.base import Given, Instance, Origin, Unknown

#: argparse's ``type=`` converters the reader applies to a flag's text.
CONVERTERS = {"int": int, "float": float, "str": str}
_NUMBER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")


@dataclass(eq=False)
class HfParser:
    """``HfArgumentParser((ModelArguments, TrainingArguments))``: each dataclass, the script's own with their
    fields' defaults, a library's (``TrainingArguments``) by name."""

    #: (the class as written, its fields with defaults where the script defines it; None: a library's class). A
    #: script's own subclass of a library's class has the library's path for its kind (``transformers.…``): it takes
    #: the flags of the library's fields too.
    classes: list[tuple[str, dict[str, Given] | None]]

    def instances(self, argv: Sequence[str] | None, line: int) -> tuple[Instance, ...]:
        """What ``parse_args_into_dataclasses()`` returns: one instance per dataclass, the flags of ``argv`` on the
        dataclass that has that field (a library's dataclass takes the flags no script dataclass has)."""
        given = flag_values(argv, None) if argv is not None else {}
        own = {name for _, fields in self.classes if fields is not None for name in fields}
        found: list[Instance] = []
        for kind, fields in self.classes:
            values = dict(fields) if fields is not None else {}
            library = fields is None or "." in kind  # a library's class, or the script's own subclass of one
            for flag, words in given.items():
                key = flag.removeprefix("--").replace("-", "_")
                if (fields is not None and key in fields) or (library and key not in own):
                    value = convert(words, _kind_of(values.get(key)), len(words) > 1)
                    values[key] = Given(value, 0, flag, via=values.get(key), origin=Origin.LAUNCH)
            found.append(Instance(kind, values, line, complete=argv is not None or not library))
        return tuple(found)


def flag_values(argv: Sequence[str], known: Sequence[str] | None) -> dict[str, list[str]]:
    """``--flag value``, ``--flag=value`` and bare ``--flag`` in ``argv``, the last one winning; with ``known`` an
    unambiguous prefix of a known long option counts as that option (argparse's ``allow_abbrev``)."""
    found: dict[str, list[str]] = {}
    index = 0
    while index < len(argv):
        word = argv[index]
        index += 1
        if not word.startswith("-") or word in ("-", "--") or _NUMBER.fullmatch(word):
            continue
        name, has_value, value = word.partition("=")
        name = _full_name(name, known)
        values = [value] if has_value else []
        while not has_value and index < len(argv) and not _is_flag(argv[index]):
            values.append(argv[index])
            index += 1
        found[name] = values
    return found


def _full_name(name: str, known: Sequence[str] | None) -> str:
    if known is None or name in known or not name.startswith("--"):
        return name
    matches = {flag for flag in known if flag.startswith(name)}
    return matches.pop() if len(matches) == 1 else name


def _is_flag(word: str) -> bool:
    return word.startswith("-") and len(word) > 1 and not _DECIMAL.fullmatch(word)


def convert(words: Sequence[str], kind: str, many: bool) -> object:
    """A flag's words as the option's type makes them (a word the type refuses: unknown, as argparse refuses it)."""
    if kind in ("store_true", "store_false"):
        return kind == "store_true"
    values = [convert_word(word, kind) for word in words]
    if many:
        return values
    return values[0] if len(values) == 1 else Unknown(" ".join(words))


def convert_word(word: str, kind: str) -> object:
    """One word as a ``type=`` makes it (``truthy``: Python's ``bool`` of a text; ``unknown``: a type the reader
    cannot apply); a word the type refuses is unknown, as argparse refuses it."""
    if "$" in word:
        return Unknown(word, (word,))  # a shell variable the launch line did not resolve
    if kind == "truthy":
        return bool(word)
    if kind == "unknown":
        return Unknown(word, (word,))
    if kind == "bool":
        return word.lower() in ("true", "1", "yes", "y", "t") if word.lower() in _BOOLS else Unknown(word)
    if kind == "auto":
        return guess(word)
    try:
        return CONVERTERS.get(kind, str)(word)
    except ValueError:
        return Unknown(word)


_BOOLS = frozenset({"true", "false", "1", "0", "yes", "no", "y", "n", "t", "f"})


def guess(word: str) -> object:
    """A library dataclass's field from its text, as its own type would read it: numbers, booleans, text."""
    if _NUMBER.fullmatch(word):
        return int(word)
    if _DECIMAL.fullmatch(word):
        return float(word)
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    return word


def _kind_of(default: Given | None) -> str:
    if default is None:
        return "auto"
    value = default.value
    if isinstance(value, bool):
        return "bool"
    return {int: "int", float: "float", str: "str"}.get(type(value), "auto")
