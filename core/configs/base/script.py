"""What a launch script sets and runs, as the shell reader (``core.configs.shell``) finds it: plain data."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Command:
    """One command of a script: its words, the line it starts on, and the ``VAR=value`` prefixes it runs with."""

    words: tuple[str, ...]
    line: int
    #: ``WORLD_SIZE=16 python …``: variables set for this command only (also from ``env VAR=value …``).
    env: dict[str, str] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Undecided:
    """A condition the script's own values do not decide: its text as written, the unknown variables, its line."""

    condition: str
    variables: tuple[str, ...]
    line: int


@dataclass
class Script:
    """What a launch script sets and runs."""

    variables: dict[str, str] = field(default_factory=dict)
    arrays: dict[str, list[str]] = field(default_factory=dict)
    #: Where each variable was last set (line numbers, 1-based).
    lines: dict[str, int] = field(default_factory=dict)
    commands: list[Command] = field(default_factory=list)
    #: Conditions this reading had to choose a branch for (it took the first that does not ``exit``).
    undecided: tuple[Undecided, ...] = ()
