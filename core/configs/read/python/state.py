"""One reading's state, and what the reader's pieces ask of each other.

The reader is split by what Python has (``statements``, ``expressions``, ``calls`` with ``argparser`` for
argparse and ``arguments`` for dataclasses); each piece is a class over this ``State`` and calls the others only
through the methods declared here. ``evaluator.Reader`` binds them into one object.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from effbatch.core.configs.base import CallSite, Given, Instance, PyScript, Unknown
from effbatch.core.configs.read.python.limits import MAX_DEPTH, MAX_STEPS, too_much
from effbatch.core.configs.read.python.segments import Segments


@dataclass
class Frame:
    """The names one body sees: a function's locals over the module's globals (``parent``)."""

    names: dict[str, object] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    written: dict[str, str] = field(default_factory=dict)
    #: The file a name was set in, where not the script itself (a config file it ``exec``s).
    files: dict[str, str] = field(default_factory=dict)
    parent: Frame | None = None
    #: The function this frame runs ("" for the module).
    function: str = ""
    #: Whether a run reaches this body from the module's top level.
    reached: bool = True
    #: A ``return``/``break``/``continue`` under a condition the script does not decide: the function's result
    #: (or the loop's passes) depend on it.
    uncertain: bool = False

    def lookup(self, name: str) -> object | None:
        """The value ``name`` has here, or None where nothing binds it."""
        frame: Frame | None = self
        while frame is not None:
            if name in frame.names:
                return frame.names[name]
            frame = frame.parent
        return None

    def holder(self, name: str) -> Frame | None:
        """The frame that binds ``name``."""
        frame: Frame | None = self
        while frame is not None:
            if name in frame.names:
                return frame
            frame = frame.parent
        return None

    def bound(self, name: str) -> bool:
        frame: Frame | None = self
        while frame is not None:
            if name in frame.names:
                return True
            frame = frame.parent
        return False

    def bind(self, name: str, value: object, line: int, written: str, file: str = "") -> None:
        self.names[name] = value
        self.lines[name] = line
        self.written[name] = written
        if file:
            self.files[name] = file
        else:
            self.files.pop(name, None)


class Leave(Exception):  # noqa: N818 - control flow (return, break, raise), not an error
    """Control leaving a body: ``return`` (with its value), ``break``, ``continue``, ``raise``."""

    def __init__(self, kind: str, value: object = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.value = value


@dataclass
class State:
    """One reading of a module: what it records, what the launch gives it, its budget."""

    segments: Segments
    #: The program's arguments from the launch line (None: no launch line names this script).
    argv: Sequence[str] | None = None
    #: The environment the launcher gives each process (None: unknown, e.g. the script was given alone).
    environ: Mapping[str, str] | None = None
    script: PyScript = field(default_factory=PyScript)
    module: Frame = field(default_factory=Frame)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    #: Names bound by imports: ``dist`` → ``torch.distributed``.
    aliases: dict[str, str] = field(default_factory=dict)
    #: The first instance built of each class the script defines (``self`` where its methods are read unreached).
    instances: dict[str, Instance] = field(default_factory=dict)
    #: Functions whose body a run reached (the rest are read once, unreached, at the end).
    executed: set[str] = field(default_factory=set)
    calling: list[str] = field(default_factory=list)
    steps: int = 0
    depth: int = 0
    line: int = 0
    #: Whether the call being made is one a run reaches.
    reaching: bool = True
    #: Other files a script may ``exec`` (its config files, nanoGPT's configurator) or import a function from (a
    #: helper module among the sources), by base name.
    includes: Mapping[str, str] = field(default_factory=dict)
    #: The file being read where it is one of ``includes`` ("" for the script itself).
    file: str = ""

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps > MAX_STEPS:
            raise too_much("python_work", MAX_STEPS, self.line)

    def enter(self) -> bool:
        """One level deeper; False (and no level taken) where ``MAX_DEPTH`` is reached."""
        if self.depth >= MAX_DEPTH:
            return False
        self.depth += 1
        return True

    def leave(self) -> None:
        self.depth -= 1

    def written(self, node: ast.AST) -> str:
        return self.segments.written(node)

    def unknown(self, node: ast.AST, *needs: str) -> Unknown:
        return Unknown(self.written(node), needs)

    def record(self, call: CallSite) -> None:
        self.script.calls.append(call)

    def value(self, node: ast.expr, frame: Frame) -> Given:
        """``node`` evaluated, with its line and text, and where a name or ``args.x`` it reads was set."""
        value = self.expr(node, frame)
        return Given(value, getattr(node, "lineno", 0), self.written(node), _via(node, frame), file=self.file)

    # --- what the pieces ask of each other (each defined by one piece, bound in ``evaluator.Reader``) ------------

    def expr(self, node: ast.expr, frame: Frame) -> object:
        """An expression's value, or an ``Unknown`` (``expressions``)."""
        raise NotImplementedError

    def run(self, body: Sequence[ast.stmt], frame: Frame) -> None:
        """Statements in order (``statements``)."""
        raise NotImplementedError

    def assign(self, target: ast.expr, value: object, frame: Frame, line: int, written: str) -> None:
        """A value bound to a target: a name, a tuple of targets, an attribute, a subscript (``statements``)."""
        raise NotImplementedError

    def iterate(self, value: object, node: ast.AST) -> Iterator[object]:
        """The items of a known iterable; ``UndecidableError`` otherwise (``expressions``)."""
        raise NotImplementedError

    def environment(self, key: str, default: object, node: ast.AST, *, required: bool = False) -> object:
        """``os.environ``'s value for ``key`` as the launch sets it (``expressions``)."""
        raise NotImplementedError

    def call(self, node: ast.Call, frame: Frame) -> object:
        """A call's value, the call recorded (``calls``)."""
        raise NotImplementedError

    def follow(self, name: str, args: list[Given], keywords: dict[str, Given], frame: Frame, node: ast.Call) -> object:
        """A function the script defines, run with its arguments (``definitions``)."""
        raise NotImplementedError

    def construct(
        self, name: str, args: list[Given], keywords: dict[str, Given], frame: Frame, node: ast.Call
    ) -> object:
        """An instance of a class the script defines (``definitions``)."""
        raise NotImplementedError

    def imported(
        self, path: str, args: list[Given], keywords: dict[str, Given], frame: Frame, node: ast.Call
    ) -> object:
        """A function imported from a file among ``includes`` run there, else a library's (``definitions``)."""
        raise NotImplementedError

    def library(self, path: str, args: list[Given], keywords: dict[str, Given], node: ast.Call) -> object:
        """A call into a library (``calls``)."""
        raise NotImplementedError

    def bind_parameters(
        self, parameters: ast.arguments, args: list[Given], keywords: dict[str, Given], local: Frame
    ) -> None:
        """A function's parameters bound in ``local`` (``definitions``)."""
        raise NotImplementedError

    def dataclass_fields(self, definition: ast.ClassDef) -> dict[str, Given]:
        """A class body's annotated fields with their defaults (``definitions``)."""
        raise NotImplementedError

    def execute(self, node: ast.Call, frame: Frame) -> object:
        """``exec(…)`` of a file among the includes or a known text (``definitions``)."""
        raise NotImplementedError

    def attribute(self, owner: object, name: str, node: ast.Attribute) -> object:
        """``owner.name`` (``calls``: instances, modules, namespaces)."""
        raise NotImplementedError


def _via(node: ast.expr, frame: Frame) -> Given | None:
    """Where ``NAME`` or ``name.field`` (a field of an instance) was set, looked up without evaluating anything."""
    if isinstance(node, ast.Name):
        holder = frame.holder(node.id)
        if holder is not None:
            line, written = holder.lines.get(node.id, 0), holder.written.get(node.id, "")
            return Given(holder.names[node.id], line, written, file=holder.files.get(node.id, ""))
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        owner = frame.lookup(node.value.id)
        if isinstance(owner, Instance) and node.attr in owner.fields:
            return owner.fields[node.attr]
    return None
