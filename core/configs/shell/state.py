"""One reading's state, and what the evaluator's pieces ask of each other.

The evaluator is split by what bash has (``statements``, ``commands``, ``conditions``, ``branching``, ``words``,
``expansions``, ``arithmetic``); each piece is a class over this ``State`` and calls the others only through the
methods declared here, as ruff's checker hands one state to its per-node-kind analysers. ``evaluator.Run`` binds
the pieces into one object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.configs.base import Script, Undecided
from core.configs.shell.limits import MAX_CHARS, MAX_DEPTH, MAX_PARSE_SECONDS, MAX_STEPS, too_much

if TYPE_CHECKING:
    from tree_sitter import Node

    from core.configs.shell.fields import Fields


@dataclass
class State:
    """One evaluation of a tree: the script it builds, the branch choices it follows, and its budget."""

    choices: Sequence[int] = ()
    script: Script = field(default_factory=Script)
    #: (choice taken, feasible choices) at each undecided condition, in the order met.
    taken: list[tuple[int, int]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    undecided: list[Undecided] = field(default_factory=list)
    unknown: set[str] = field(default_factory=set)
    functions: dict[str, Node] = field(default_factory=dict)
    calling: set[str] = field(default_factory=set)
    env: dict[str, str] = field(default_factory=dict)
    steps: int = 0
    chars: int = 0
    #: What is left of ``MAX_PARSE_SECONDS`` for the ``bash -c``/``eval`` texts of this reading.
    parse_seconds: float = MAX_PARSE_SECONDS
    depth: int = 0
    at: int = 0
    #: The line commands are recorded with inside ``bash -c`` / ``eval`` text (None: their own).
    fixed_line: int | None = None
    stopped: bool = False

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

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_much("shell_nesting", MAX_DEPTH, self.at)

    def set(self, name: str, text: str, known: bool) -> None:
        self.charge(len(text))
        self.script.variables[name] = text
        self.script.arrays.pop(name, None)
        (self.unknown.discard if known else self.unknown.add)(name)

    def forget(self, name: str) -> None:
        self.script.variables.pop(name, None)
        self.script.arrays.pop(name, None)
        self.unknown.discard(name)

    def scalar(self, name: str) -> str | None:
        """A variable's value as the script sets it (for an unknown one: its text as written)."""
        if name in self.script.arrays:
            elements = self.script.arrays[name]
            return elements[0] if elements else ""
        return self.script.variables.get(name)

    # --- what the pieces ask of each other (each defined by one piece, bound in ``evaluator.Run``) ---------------

    def statement(self, node: Node) -> None:
        """A statement run in order (``statements``)."""
        raise NotImplementedError

    def statements(self, nodes: Sequence[Node]) -> None:
        """Statements run in order until the script stops (``statements``)."""
        raise NotImplementedError

    def command(self, node: Node) -> None:
        """A simple command (``commands``)."""
        raise NotImplementedError

    def inline(self, text: str, env: dict[str, str]) -> None:
        """The text of ``bash -c``/``eval`` read as a script of its own (``commands``)."""
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

    def arithmetic(self, node: Node) -> int | None:
        """``$((…))`` as bash computes it; None where an operand is unknown (``arithmetic``)."""
        raise NotImplementedError
