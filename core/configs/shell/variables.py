"""The variables of one reading: values, arrays, what is unknown or readonly, and copies of them for ``local``s,
subshells and loops read again."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from effbatch.core.configs.base import Script, Undecided

if TYPE_CHECKING:
    from tree_sitter import Node


class BashError(Exception):
    """An error bash reports and that ends the command it happens in: a division by zero or a malformed number in
    ``$((…))``, an assignment to a readonly variable. Outside a function bash goes on with the next command of the
    script (the rest of the line is discarded), so the evaluator does too (``statements``)."""


@dataclass
class Saved:
    """One variable as it was before a ``local`` (restored when the function returns)."""

    value: str | None
    elements: list[str] | None
    unknown: bool
    line: int | None
    cleared: bool


@dataclass
class Snapshot:
    """What a subshell cannot change in its parent, and what a loop read again undoes."""

    variables: dict[str, str]
    arrays: dict[str, list[str]]
    lines: dict[str, int]
    unknown: set[str]
    cleared: set[str]
    readonly: set[str]
    functions: dict[str, Node]
    sizes: tuple[int, int, int, int]  # commands, undecided, taken, labels
    positional: list[str] | None


@dataclass
class Variables:
    """What the script has set so far (``script``), and what of it only the run knows (``unknown``)."""

    script: Script = field(default_factory=Script)
    unknown: set[str] = field(default_factory=set)
    #: Variables the script unset itself (``unset X``, a new ``local X``): unset whatever the environment holds.
    cleared: set[str] = field(default_factory=set)
    readonly: set[str] = field(default_factory=set)
    functions: dict[str, Node] = field(default_factory=dict)
    undecided: list[Undecided] = field(default_factory=list)
    #: (choice taken, feasible choices) at each undecided condition, in the order met.
    taken: list[tuple[int, int]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    at: int = 0
    #: ``$1``, ``$2`` … (``$#``, ``$@``): the arguments the script or function was started with; None where only
    #: the run knows them (a script nobody among the sources calls).
    positional: list[str] | None = None

    def charge(self, characters: int) -> None:
        """Characters produced, against the reading's budget (``State``)."""
        raise NotImplementedError

    def step(self, count: int = 1) -> None:
        """Work done, against the reading's budget (``State``)."""
        raise NotImplementedError

    def writable(self, name: str) -> None:
        """bash refuses to assign to a readonly variable: ``BashError``."""
        if name in self.readonly:
            raise BashError(name)

    def set(self, name: str, text: str, known: bool) -> None:
        """An assignment as bash makes it (to an array: its first element), its line the current one."""
        self.writable(name)
        self.charge(len(text))
        elements = self.script.arrays.get(name)
        if elements is not None:
            elements[:1] = [text]
        else:
            self.script.variables[name] = text
        self.script.lines[name] = self.at
        self.cleared.discard(name)
        (self.unknown.discard if known else self.unknown.add)(name)

    def unsettle(self, name: str, readonly: bool = False) -> None:
        """A variable only the run decides: its value from here on unknown (a scalar written as ``$NAME``); a readonly
        one keeps its value unless ``readonly`` (it became readonly where only the run knows what it was)."""
        if name in self.readonly and not readonly:
            return
        if name not in self.script.arrays:
            self.script.variables[name] = "$" + name
        self.script.lines[name] = self.at
        self.cleared.discard(name)
        self.unknown.add(name)

    def forget(self, name: str) -> None:
        """``unset NAME``: unset for sure from here on."""
        self.script.variables.pop(name, None)
        self.script.arrays.pop(name, None)
        self.unknown.discard(name)
        self.cleared.add(name)

    def scalar(self, name: str) -> str | None:
        """A variable's value as the script sets it (for an unknown one: its text as written); ``1``, ``2`` …: the
        positional parameters where they are known (one beyond them is unset)."""
        if name.isdigit() and name != "0":
            known = self.positional
            return None if known is None or int(name) > len(known) else known[int(name) - 1]
        if name in self.script.arrays:
            elements = self.script.arrays[name]
            return elements[0] if elements else ""
        return self.script.variables.get(name)

    def save(self, name: str) -> Saved:
        elements = self.script.arrays.get(name)
        found = self.script.variables.get(name)
        copy = None if elements is None else list(elements)
        return Saved(found, copy, name in self.unknown, self.script.lines.get(name), name in self.cleared)

    def put_back(self, name: str, saved: Saved) -> None:
        self.forget(name)
        if saved.value is not None:
            self.script.variables[name] = saved.value
        if saved.elements is not None:
            self.script.arrays[name] = saved.elements
        if saved.unknown:
            self.unknown.add(name)
        if saved.line is not None:
            self.script.lines[name] = saved.line
        if not saved.cleared:
            self.cleared.discard(name)

    def snapshot(self) -> Snapshot:
        """Everything a subshell could change, copied (a step per variable)."""
        script = self.script
        self.step(1 + (len(script.variables) + len(script.arrays)) // 16)
        sizes = (len(script.commands), len(self.undecided), len(self.taken), len(self.labels))
        arrays = {name: list(elements) for name, elements in script.arrays.items()}
        return Snapshot(
            dict(script.variables),
            arrays,
            dict(script.lines),
            set(self.unknown),
            set(self.cleared),
            set(self.readonly),
            dict(self.functions),
            sizes,
            None if self.positional is None else list(self.positional),
        )

    def restore(self, snapshot: Snapshot, everything: bool = False) -> None:
        """Variables, functions and readonly marks as ``snapshot`` has them; with ``everything`` also the commands
        and choices recorded since."""
        script = self.script
        script.variables, script.arrays, script.lines = snapshot.variables, snapshot.arrays, snapshot.lines
        self.unknown, self.cleared = snapshot.unknown, snapshot.cleared
        self.readonly, self.functions = snapshot.readonly, snapshot.functions
        self.positional = snapshot.positional
        if everything:
            commands, undecided, taken, labels = snapshot.sizes
            del script.commands[commands:], self.undecided[undecided:], self.taken[taken:], self.labels[labels:]
