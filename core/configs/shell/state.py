"""One reading's state, and what the evaluator's pieces ask of each other.

The evaluator is split by what bash has (``statements``, ``commands``, ``conditions``, ``branching``, ``words``,
``expansions``, ``arithmetic``); each piece is a class over this ``State`` and calls the others only through the
methods declared here, as ruff's checker hands one state to its per-node-kind analysers. ``evaluator.Run`` binds
the pieces into one object.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.grammar import parse
from effbatch.core.configs.shell.limits import (
    MAX_CHARS,
    MAX_DEPTH,
    MAX_GIVEN_UP_STEPS,
    MAX_PARSE_SECONDS,
    MAX_STEPS,
    too_much,
)
from effbatch.core.configs.shell.variables import BashError, Saved, Variables

__all__ = ["ASSUMED", "BashError", "State"]

#: The status of a program only the run knows: taken to succeed where it decides a list (``cd /w && torchrun``),
#: unknown for ``$?`` and for ``if`` (there it is an undecided condition).
ASSUMED = -1

if TYPE_CHECKING:
    from tree_sitter import Node

    from effbatch.core.configs.shell.fields import Fields
    from effbatch.core.configs.shell.precedence import Expression


@dataclass
class State(Variables):
    """One evaluation of a tree: the script it builds, the branch choices it follows, and its budget."""

    choices: Sequence[int] = ()
    calling: set[str] = field(default_factory=set)
    #: One frame per function being called: the variables its ``local``s hide, as they were.
    frames: list[dict[str, Saved]] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    #: Variables whose value ``$((…))`` is computing (a value naming one of them again is bash's recursion error).
    resolving: set[str] = field(default_factory=set)
    #: The exit status of the last statement (``$?``); None where the script's values do not decide it, ``ASSUMED``
    #: after a program only the run knows.
    code: int | None = 0
    #: ``return``, ``break`` or ``continue`` on its way out, and how many loops ``break N`` leaves.
    jump: str | None = None
    jumps: int = 0
    loops: int = 0
    steps: int = 0
    #: What is left of ``MAX_GIVEN_UP_STEPS`` for loops run pass by pass and given up.
    loop_steps: int = MAX_GIVEN_UP_STEPS
    chars: int = 0
    #: What is left of ``MAX_PARSE_SECONDS`` for the ``bash -c``/``eval`` texts of this reading.
    parse_seconds: float = MAX_PARSE_SECONDS
    depth: int = 0
    #: The line commands are recorded with inside ``bash -c`` / ``eval`` text (None: their own).
    fixed_line: int | None = None
    stopped: bool = False
    #: Variables holding the default of ``${X:-w}`` for an ``X`` only the environment could set (name → that
    #: default): a script that ``exit``s on it requires that environment (``[ -z "$MODEL" ] && exit 1``).
    defaulted: dict[str, str] = field(default_factory=dict)
    #: Words after a redirection's target that belong to a command inside a list (node id → those words).
    strays: dict[int, Sequence[Node]] = field(default_factory=dict)
    #: The sources ``source FILE`` may read (name → text; None: none followed), and this script's name among them.
    files: Mapping[str, str] | None = None
    name: str = ""
    #: Files being sourced, one in another, and the characters of all files sourced in this reading.
    sourcing: int = 0
    sourced_chars: int = 0

    def charge(self, characters: int) -> None:
        """Characters produced, against ``MAX_CHARS``."""
        self.chars += characters
        if self.chars > MAX_CHARS:
            raise too_much("shell_chars", MAX_CHARS, self.at)

    def step(self, count: int = 1) -> None:
        """Work done, against ``MAX_STEPS``."""
        self.steps += count
        if self.steps > MAX_STEPS:
            raise too_much("shell_work", MAX_STEPS, self.at)

    def reparse(self, text: str) -> Node:
        """A text the script builds (``bash -c``, ``eval``, an expanded ``$((…))``) parsed, against the reading's
        budgets: a step per 64 characters, and what is left of ``MAX_PARSE_SECONDS``."""
        self.charge(len(text))
        self.step(1 + len(text) // 64)
        started = time.thread_time()
        try:
            return parse(text, self.parse_seconds)
        finally:
            self.parse_seconds -= time.thread_time() - started

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_much("shell_nesting", MAX_DEPTH, self.at)

    # --- what the pieces ask of each other (each defined by one piece, bound in ``evaluator.Run``) ---------------

    def statement(self, node: Node) -> None:
        """A statement run in order (``statements``)."""
        raise NotImplementedError

    def statements(self, nodes: Sequence[Node]) -> None:
        """Statements run in order until the script stops (``statements``)."""
        raise NotImplementedError

    def command(self, node: Node, stray: Sequence[Node] = ()) -> None:
        """A simple command, with the words a redirection's target left over (``commands``)."""
        raise NotImplementedError

    def inline(self, text: str, env: dict[str, str], shell: bool) -> None:
        """The text of ``bash -c`` (``shell``: a process of its own) or ``eval`` (this shell) read (``commands``)."""
        raise NotImplementedError

    def source(
        self, words: Sequence[str], known: bool, env: dict[str, str], prefixes: Mapping[str, tuple[str, bool]]
    ) -> bool:
        """``source FILE``/``. FILE`` read where FILE is among the sources; whether it was (``sourcing``)."""
        raise NotImplementedError

    def assign(self, node: Node) -> None:
        """``NAME=value``, ``NAME+=(…)``, ``NAME[i]=value`` (``statements``)."""
        raise NotImplementedError

    def subshell(self, nodes: Sequence[Node]) -> None:
        """Statements in a process of their own: what they assign does not reach this shell (``scopes``)."""
        raise NotImplementedError

    def call(
        self, name: str, env: dict[str, str], prefixes: Mapping[str, tuple[str, bool]], arguments: list[str] | None
    ) -> None:
        """A function's body with the call's ``VAR=value`` prefixes and its arguments as ``$1`` …; its ``local``s
        undone after (``scopes``)."""
        raise NotImplementedError

    def declare(self, node: Node) -> None:
        """``local``, ``declare``, ``typeset``, ``export``, ``readonly`` (``scopes``)."""
        raise NotImplementedError

    def loop(self, node: Node) -> None:
        """``for``, ``for ((…))``, ``while``, ``until`` (``loops``)."""
        raise NotImplementedError

    def status(self, node: Node) -> bool:
        """A statement's exit status as a condition sees it (``conditions``)."""
        raise NotImplementedError

    def truth(self, node: Node) -> bool | None:
        """Whether a condition holds; None where the script's own values do not say (``conditions``)."""
        raise NotImplementedError

    def matches(self, text: str, pattern: str) -> bool | None:
        """A glob against a value (``conditions``)."""
        raise NotImplementedError

    def branches(self, node: Node) -> None:
        """``if``/``elif``/``else`` (``branching``)."""
        raise NotImplementedError

    def case(self, node: Node) -> None:
        """``case … esac`` (``branching``)."""
        raise NotImplementedError

    def choose(self, condition: Sequence[Node], options: Sequence[tuple[bool, bool]]) -> bool:
        """An undecided condition's branch (``branching``)."""
        raise NotImplementedError

    def requires(self, condition: Sequence[Node], leaves: bool) -> bool:
        """Whether a decided condition that ``exit``s rests on an environment default (``branching``)."""
        raise NotImplementedError

    def pick(self, count: int, label: Callable[[int], str]) -> int:
        """The choice at an undecided point (``branching``)."""
        raise NotImplementedError

    def note_undecided(self, condition: Sequence[Node]) -> None:
        """Records an undecided condition (``branching``)."""
        raise NotImplementedError

    def words(self, nodes: Sequence[Node]) -> list[str]:
        """The words arguments expand to (``words``)."""
        raise NotImplementedError

    def expand_words(self, nodes: Sequence[Node]) -> tuple[list[str], bool]:
        """The words, and whether all are known (``words``)."""
        raise NotImplementedError

    def known_words(self, node: Node) -> list[str] | None:
        """A command's words where all are known (``words``)."""
        raise NotImplementedError

    def word(self, node: Node) -> str | None:
        """One operand as a string, None where unknown (``words``)."""
        raise NotImplementedError

    def value(self, node: Node | None) -> tuple[str, bool]:
        """An assignment's value, expanded, not split; and whether it is known (``words``)."""
        raise NotImplementedError

    def part(self, node: Node, fields: Fields, quoted: bool) -> None:
        """One part of a word into ``fields`` (``words``)."""
        raise NotImplementedError

    def expansion(self, node: Node, fields: Fields, quoted: bool) -> None:
        """``$X``, ``${…}`` into ``fields`` (``expansions``)."""
        raise NotImplementedError

    def element(self, subscript: Node) -> str | list[str] | None:
        """``${A[i]}``, ``${A[@]}`` (``expansions``)."""
        raise NotImplementedError

    def evaluate(self, text: str) -> int | None:
        """An arithmetic expression's text computed; ``BashError`` where bash fails (``arithmetic``)."""
        raise NotImplementedError

    def compute(self, expression: Expression) -> int | None:
        """A parsed expression's value, its assignments made; None where unknown (``computing``)."""
        raise NotImplementedError

    def arithmetic(self, nodes: Sequence[Node]) -> int | None:
        """``$((…))`` (or the tokens of several nodes: ``for ((…))``) as bash computes it; None where an operand is
        unknown; ``BashError`` where bash fails (``arithmetic``)."""
        raise NotImplementedError
