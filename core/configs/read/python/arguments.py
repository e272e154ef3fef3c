"""Command-line arguments as a script defines them: argparse's ``add_argument`` (defaults, types, switches) and
Hugging Face's ``HfArgumentParser``/TRL's ``TrlParser`` over dataclasses, filled from the launch line's words.

Where the launch line is known (``argv``), a flag it passes wins over the default, as argparse does it (an
unambiguous prefix of a long option too); where it is not, a dataclass the library defines (``TrainingArguments``)
has no known fields – its values are the command line's, which nobody gave.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from effbatch.core.configs.base import Given, Instance, Origin, Unknown

#: argparse's ``type=`` converters the reader applies to a flag's text.
CONVERTERS = {"int": int, "float": float, "str": str}
_NUMBER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")


@dataclass
class Option:
    """One ``add_argument``: its option strings, where its value goes, its default and how its text converts."""

    flags: tuple[str, ...]
    dest: str
    default: Given
    #: ``int``, ``float``, ``str``, ``store_true``, ``store_false``, ``bool`` (a ``type=`` the reader cannot apply
    #: is ``str``: the value stays text).
    kind: str = "str"
    #: Several values (``nargs``): the flag takes every word up to the next flag.
    many: bool = False


@dataclass(eq=False)
class ArgParser:
    """``argparse.ArgumentParser()``: the options added to it (its groups add to it too)."""

    options: list[Option] = field(default_factory=list)
    defaults: dict[str, Given] = field(default_factory=dict)
    #: A library added options the reader does not list (Lightning 1.x's ``Trainer.add_argparse_args``): a flag
    #: of the launch line none of the listed options takes is still a field, typed by its text.
    open: bool = False

    def namespace(self, argv: Sequence[str] | None, line: int) -> Instance:
        """What ``parse_args()`` returns: each option's default, a flag of ``argv`` winning."""
        fields = {option.dest: option.default for option in self.options} | self.defaults
        if argv is not None:
            known = [flag for option in self.options for flag in option.flags]
            given = flag_values(argv, known)
            for option in self.options:
                flag = next((f for f in option.flags if f in given), None)
                if flag is not None:
                    value = convert(given[flag], option.kind, option.many)
                    fields[option.dest] = Given(value, 0, flag, via=option.default, origin=Origin.LAUNCH)
            for flag, words in given.items() if self.open else ():
                if flag not in known and flag.startswith("--"):
                    value = convert(words, "auto", len(words) > 1) if words else True
                    fields[flag[2:].replace("-", "_")] = Given(value, 0, flag, origin=Origin.LAUNCH)
        return Instance("argparse.Namespace", fields, line, complete=not self.open or argv is not None)


@dataclass(eq=False)
class HfParser:
    """``HfArgumentParser((ModelArguments, TrainingArguments))``: each dataclass, the script's own with their
    fields' defaults, a library's (``TrainingArguments``) by name."""

    #: (the class as written, its fields with defaults where the script defines it; None: a library's class).
    classes: list[tuple[str, dict[str, Given] | None]]

    def instances(self, argv: Sequence[str] | None, line: int) -> tuple[Instance, ...]:
        """What ``parse_args_into_dataclasses()`` returns: one instance per dataclass, the flags of ``argv`` on the
        dataclass that has that field (a library's dataclass takes the flags no script dataclass has)."""
        given = flag_values(argv, None) if argv is not None else {}
        own = {name for _, fields in self.classes if fields is not None for name in fields}
        found: list[Instance] = []
        for kind, fields in self.classes:
            values = dict(fields) if fields is not None else {}
            for flag, words in given.items():
                key = flag.removeprefix("--").replace("-", "_")
                if (fields is not None and key in fields) or (fields is None and key not in own):
                    value = convert(words, _kind_of(values.get(key)), len(words) > 1)
                    values[key] = Given(value, 0, flag, via=values.get(key), origin=Origin.LAUNCH)
            found.append(Instance(kind, values, line, complete=argv is not None or fields is not None))
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
    values = [_one(word, kind) for word in words]
    if many:
        return values
    return values[0] if len(values) == 1 else Unknown(" ".join(words))


def _one(word: str, kind: str) -> object:
    if "$" in word:
        return Unknown(word, (word,))  # a shell variable the launch line did not resolve
    if kind == "bool":
        return word.lower() in ("true", "1", "yes", "y", "t") if word.lower() in _BOOLS else Unknown(word)
    if kind == "auto":
        return _guess(word)
    try:
        return CONVERTERS.get(kind, str)(word)
    except ValueError:
        return Unknown(word)


_BOOLS = frozenset({"true", "false", "1", "0", "yes", "no", "y", "n", "t", "f"})


def _guess(word: str) -> object:
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


def option_kind(keywords: Mapping[str, Given]) -> str:
    """How an ``add_argument``'s value converts: its ``action`` or its ``type``."""
    action = keywords.get("action")
    if action is not None and action.value in ("store_true", "store_false"):
        return str(action.value)
    kind = keywords.get("type")
    if kind is not None:
        written = kind.written.rsplit(".", 1)[-1]
        return written if written in CONVERTERS else "bool" if written in ("bool", "str2bool", "strtobool") else "str"
    default = keywords.get("default")
    return _kind_of(default) if default is not None and not isinstance(default.value, Unknown) else "str"
