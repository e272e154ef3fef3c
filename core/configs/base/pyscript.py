"""What a Python file sets and calls, as the Python reader (``core.configs.read.python``) finds it: plain data.

Known values are plain Python values (numbers, strings, booleans, None, tuples, lists, dicts). What only the
run knows – ``args.bs`` without a default, ``os.environ["WORLD_SIZE"]`` without a launcher, a function's
result – is an ``Unknown`` that keeps the expression as written and the names it depends on, so a check can
name what it needs instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


@dataclass(frozen=True)
class Unknown:
    """A value only the run decides: the expression as written, and what it depends on (``args.bs``, ``$RANK``)."""

    written: str
    needs: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.written


@dataclass(eq=False)
class Instance:
    """An object a call builds (``TrainingArguments(…)``, ``DataLoader(…)``, an argparse namespace, a dataclass):
    its class as written and the fields it was given (keyword arguments, CLI flags, later attribute assignments).
    """

    kind: str
    fields: dict[str, Given] = field(default_factory=dict)
    line: int = 0
    #: False where fields not listed are set somewhere the reader cannot see (a command line nobody gave): such a
    #: field is unknown, not the class's default.
    complete: bool = True
    #: Whether a run builds it (False: built in a function nothing calls).
    reached: bool = True

    def __repr__(self) -> str:
        return f"{self.kind}(…)"


class Origin(StrEnum):
    """How a value came into a script: written in it, an argument's default, a flag of the launch line."""

    WRITTEN = "written"
    DEFAULT = "default"  # ``add_argument("--bs", default=8)``: ``written`` is the flag
    LAUNCH = "launch"  # ``--bs 16`` on the launch line: ``written`` is the flag, ``line`` 0
    SET = "set"  # ``--set bs=16`` given to the check: ``name`` is the setting as typed


@dataclass(frozen=True)
class Given:
    """A value where it was written: the value (plain, ``Unknown`` or ``Instance``), its line, its text (≤ 60)."""

    value: object
    line: int
    written: str = ""
    #: Where the value itself was set, where the expression only names it: ``args.bs`` read through the argparse
    #: default of ``--bs`` (its line and text), ``GBS`` through ``GBS = 512``.
    via: Given | None = None
    origin: Origin = Origin.WRITTEN
    #: The file it was written in where that is not the script itself (a config file the script ``exec``s).
    file: str = ""

    def where(self, script: str) -> str:
        """``file:line`` (the script's name ``script`` where it was written in the script itself)."""
        return f"{self.file or script}:{self.line}"

    @property
    def known(self) -> bool:
        return not isinstance(self.value, Unknown)


@dataclass(frozen=True)
class CallSite:
    """One call as the script makes it: the callee as written (``transformers.TrainingArguments``), its keyword and
    positional arguments evaluated where it stands, its line, the function it is in ("" at module level), and
    whether a run reaches it from the module's top level (False: read in a function nothing calls)."""

    callee: str
    keywords: dict[str, Given]
    args: tuple[Given, ...]
    line: int
    function: str = ""
    reached: bool = True
    #: Whether the callee is a name an import binds (``from pkg.train import train``), not a method of a local.
    imported: bool = False

    @property
    def name(self) -> str:
        """The callee's last part: ``TrainingArguments`` of ``transformers.TrainingArguments``."""
        return self.callee.rsplit(".", 1)[-1]


@dataclass(frozen=True)
class Condition:
    """An ``if`` (or conditional expression) the script's own values do not decide: its text and line."""

    text: str
    line: int


@dataclass
class PyScript:
    """A Python file read: the module's names at its end, every call, and the conditions left undecided."""

    names: dict[str, Given] = field(default_factory=dict)
    calls: list[CallSite] = field(default_factory=list)
    undecided: list[Condition] = field(default_factory=list)
    #: Every instance a library's class builds (``TrainingArguments(…)``, a parser's dataclasses), in order; their
    #: fields include what the script assigns to them later.
    instances: list[Instance] = field(default_factory=list)
    #: The functions the module defines at its top level, in order.
    functions: list[str] = field(default_factory=list)
    #: The kinds of the module's top-level statements (``assign``, ``import``, ``def``, ``class``, ``call``, ``if``,
    #: ``loop``, ``other``): a config file only assigns, a training script does much else.
    shape: frozenset[str] = frozenset()
    #: Every ``assert`` met, with whether it holds (None: the script's values do not say).
    asserts: list[tuple[Condition, bool | None]] = field(default_factory=list)
    #: Where the launch line that runs this script is (``launch.sh:3``), where one among the sources names it.
    launch: str = ""
    #: The ``--set`` settings it was read with (``bs`` → ``16``): a flag among them came from the check's own call.
    settings: dict[str, str] = field(default_factory=dict)
    #: The arguments and the environment it was read with (None: not known).
    argv: tuple[str, ...] | None = None
    environ: dict[str, str] | None = None
    #: Why the reading stopped early (a bound reached), or "" when it read the whole file.
    stopped: str = ""

    def called(self, *names: str) -> list[CallSite]:
        """The calls whose callee's last part or whole text is one of ``names``, in the order they are made."""
        wanted = set(names)
        return [call for call in self.calls if call.name in wanted or call.callee in wanted]


@dataclass(frozen=True)
class Via:
    """Where a value was set that a script's expression only names (``args.bs``, ``BATCH``): an assignment
    (``name`` the name), an argument's default or a flag of the launch line (``name`` the flag); for a flag, the
    default it replaced."""

    origin: Origin
    name: str
    where: str
    replaced: tuple[Any, str] | None = None


def via_of(given: Given, script: PyScript, name: str) -> Via | None:
    """Where a value a script's expression only names was set (``name`` the script's file): a name's assignment,
    an argument's default, a flag of the launch line (with the default it replaced); None where it is written
    right there."""
    source = given if given.origin is not Origin.WRITTEN else given.via
    if source is None:
        return None
    if source.origin is Origin.LAUNCH:
        default = source.via
        replaced = (default.value, f"{name}:{default.line}") if default is not None and default.line else None
        key = source.written.lstrip("-")
        if key in script.settings:  # the check's --set, not a launch line
            return Via(Origin.SET, f"--set {key}={script.settings[key]}", "", replaced)
        return Via(Origin.LAUNCH, source.written, script.launch or name, replaced)
    if source.origin is Origin.DEFAULT:
        return Via(Origin.DEFAULT, source.written, source.where(name))
    if source.written == given.written and source.line == given.line:
        return None
    return Via(Origin.WRITTEN, given.written, source.where(name))
