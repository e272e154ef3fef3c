"""Where a Python launch script or recipe writes its numbers: the keywords of each call, the attributes each function
assigns, the in-place changes, the module's constants and each function's parameter defaults.

OLMo-core's launch scripts and Megatron-Bridge's recipes are Python: the numbers sit in keyword arguments
(``NumpyDataLoaderConfig(global_batch_size=GLOBAL_BATCH_SIZE)``), in attribute assignments
(``cfg.train.global_batch_size = 512``) and in module constants (``SEQUENCE_LENGTH = 4096``,
``GLOBAL_BATCH_SIZE = 1024 * SEQUENCE_LENGTH``); a recipe's function is read on its own, with the names its
framework knows it is given (``common.max_sequence_length``, a caller's keywords). ``read`` indexes the tree once
(linear in its size); every value is computed by the reader's own expressions (``expressions``, ``operators``,
``calls``) – the one evaluator the differential tests hold to Python – over the module's imports and constants and
the names a caller adds. What they do not decide is kept as written.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field

from effbatch.core.configs.base import CheckError, Given, Instance, ProblemKind, PyScript, context
from effbatch.core.configs.read.python.evaluator import Reader
from effbatch.core.configs.read.python.grammar import parse_module
from effbatch.core.configs.read.python.limits import MAX_DEPTH
from effbatch.core.configs.read.python.objects import deep_known
from effbatch.core.configs.read.python.segments import Segments
from effbatch.core.configs.read.python.state import Frame, Leave

#: Entries of a list read (a batch-size schedule has a handful).
MAX_ITEMS = 64


class Values:
    """One script's expressions, evaluated by the reader over its imports and module constants (bound in order, as
    the module sets them) and whatever names a caller adds; each evaluation within the reader's own bounds."""

    def __init__(self, text: str, nodes: list[ast.AST]) -> None:
        self.reader = Reader(Segments(text))
        for node in nodes:  # an import anywhere binds its name: ``get_world_size`` is the world size
            if isinstance(node, ast.Import | ast.ImportFrom):
                self.reader.imports(node, self.reader.module)
        self.constants: dict[str, int] = {}

    def written(self, node: ast.AST) -> str:
        return self.reader.written(node)

    def evaluate(self, node: ast.expr, known: Mapping[str, int] | None = None, world: int | None = None) -> object:
        """``node``'s value with ``known`` (``common.max_sequence_length`` an attribute) over the module's names;
        ``world`` what ``get_world_size()`` returns (None: unknown)."""
        reader = self.reader
        reader.steps, reader.depth, reader.script = 0, 0, PyScript()
        reader.environ = {"WORLD_SIZE": str(world)} if world is not None else None
        try:
            return reader.expr(node, self.frame(known or {}))
        except (CheckError, Leave):  # a bound of the reader reached, or the expression raises: not decided
            return None

    def number(self, node: ast.expr, known: Mapping[str, int] | None = None, world: int | None = None) -> int | None:
        """``node``'s value as a whole number (``4e6`` is 4.000.000), else None."""
        return whole_number(self.evaluate(node, known, world))

    def frame(self, known: Mapping[str, int]) -> Frame:
        """The names ``known`` adds over the module's, a dotted one as a field of an object named by its head."""
        frame = Frame(parent=self.reader.module)
        for name, value in known.items():
            head, _, rest = name.partition(".")
            if not rest:
                if self.constants.get(name) != value:
                    frame.names[name] = value
                continue
            owner = frame.names.setdefault(head, Instance(head))
            for part in rest.split(".")[:-1]:
                owner = (
                    owner.fields.setdefault(part, Given(Instance(part), 0, part)).value
                    if isinstance(owner, Instance)
                    else None
                )
            if isinstance(owner, Instance):
                owner.fields[name.rsplit(".", 1)[-1]] = Given(value, 0, name)
        return frame

    def bind_constant(self, name: str, node: ast.expr) -> None:
        """``NAME = <expression>`` at module level: its value where the module's names so far decide it."""
        value = self.evaluate(node)
        self.reader.module.bind(name, value, node.lineno, self.written(node))
        number = whole_number(value) if deep_known(value) else None
        if number is not None:
            self.constants[name] = number
        else:
            self.constants.pop(name, None)


def whole_number(value: object) -> int | None:
    """A whole number as a batch setting is one: an int, or a float without a fraction (``4e6``); never a bool."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


@context
class Value:
    """What a value comes to (None: not without running it), its line, and how it is written
    (``16 * SEQUENCE_LENGTH``, cut out of the text only when asked for)."""

    number: int | None
    line: int
    node: ast.expr | None = None
    values: Values | None = None

    @property
    def written(self) -> str:
        return self.values.written(self.node) if self.values is not None and self.node is not None else "…"


@context
class Call:
    """One call: its callee as written (``run.Config``, ``TransformerContextParallelConfig.llama3``), its first
    positional argument's name where it is one (``MockDataModule``), its keywords, its line and function."""

    callee: str
    first: str
    keywords: dict[str, Value]
    line: int
    function: str


@dataclass
class Script:
    """A script read: its calls, attribute assignments, in-place changes (``x *= 2``), constants and parameters."""

    calls: list[Call] = field(default_factory=list)
    #: ``cfg.train.global_batch_size`` → the value of its first assignment, by function.
    assigned: dict[str, dict[str, Value]] = field(default_factory=dict)
    #: In-place changes of a name or attribute: (target as written, the statement, its line).
    changes: list[tuple[str, str, int]] = field(default_factory=list)
    constants: dict[str, int] = field(default_factory=dict)
    #: Each function's parameter defaults, by function name.
    parameters: dict[str, dict[str, int]] = field(default_factory=dict)
    functions: list[str] = field(default_factory=list)

    def called(self, *names: str) -> list[Call]:
        """The calls whose callee's last part (``Config`` of ``run.Config``) or whole text is one of ``names``."""
        return [c for c in self.calls if c.callee in names or c.callee.rsplit(".", 1)[-1] in names]


def dotted(node: ast.expr) -> str:
    """``cfg.train.global_batch_size`` for an attribute chain of names; "" for anything else."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute) and len(parts) < MAX_DEPTH:
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def read(text: str, name: str = "", evaluated: PyScript | None = None) -> Script:
    """``text`` (the source ``name``) read: constants first, then every statement; ``CheckError`` where Python's
    own parser gives up (nesting too deep for it). ``evaluated``: the same text's whole reading (``read_python``,
    with the launch line where one names the script): a keyword its module's names do not decide takes the whole
    number that reading found at the same call (``max_sequence_length=opts.sequence_length`` through an argparse
    namespace), where every reading of that call agrees on it."""
    try:
        tree = parse_module(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError) as error:
        line = getattr(error, "lineno", None)
        raise CheckError(ProblemKind.UNREADABLE, name=name, line=line, detail=type(error).__name__) from None
    nodes = list(ast.walk(tree))
    values = Values(text, nodes)
    for statement in tree.body:
        name_node, assigned = _target(statement)
        if isinstance(name_node, ast.Name) and assigned is not None:
            values.bind_constant(name_node.id, assigned)
    numbers = _evaluated_numbers(evaluated)
    script = Script(constants=dict(values.constants))
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    script.functions = [f.name for f in functions]
    for function in functions:
        script.parameters[function.name] = _defaults(function, values)
    owner = {id(node): f.name for f in functions for node in ast.walk(f)}
    # in the order of the text: the first assignment of a name is the one read
    for node in sorted(nodes, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        where = owner.get(id(node), "")
        if isinstance(node, ast.Call):
            script.calls.append(_call(node, values, where, numbers.get((node.lineno, _last(node.func)), {})))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            _assigned(script, node, values, where)
        elif isinstance(node, ast.AugAssign) and (target := dotted(node.target)):
            script.changes.append((target, values.written(node), node.lineno))
    return script


def _target(node: ast.stmt) -> tuple[ast.expr | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        return node.targets[0], node.value
    if isinstance(node, ast.AnnAssign):
        return node.target, node.value
    return None, None


def _defaults(function: ast.FunctionDef, values: Values) -> dict[str, int]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = list(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
    return {a.arg: number for a, d in pairs if (number := values.number(d)) is not None}


def _evaluated_numbers(evaluated: PyScript | None) -> dict[tuple[int, str], dict[str, int]]:
    """The whole numbers the whole reading found for each call's keywords, by (line, callee's last part); a keyword
    two readings of the call (a function called twice) disagree on, or that is no whole number, left out."""
    found: dict[tuple[int, str], dict[str, int | None]] = {}
    for call in evaluated.calls if evaluated is not None else []:
        own = found.setdefault((call.line, call.name), {})
        for key, given in call.keywords.items():
            value = given.value
            number = value if isinstance(value, int) and not isinstance(value, bool) else None
            own[key] = number if own.get(key, number) == number else None
    return {where: {k: n for k, n in own.items() if n is not None} for where, own in found.items()}


def _last(func: ast.expr) -> str:
    """A callee's last part as the whole reading names calls (``Config`` of ``run.Config``)."""
    return dotted(func).rsplit(".", 1)[-1]


def _call(node: ast.Call, values: Values, function: str, evaluated: Mapping[str, int]) -> Call:
    keywords = {}
    for keyword in node.keywords:
        if keyword.arg is not None:
            number = values.number(keyword.value)
            number = number if number is not None else evaluated.get(keyword.arg)
            keywords[keyword.arg] = Value(number, keyword.value.lineno, keyword.value, values)
    first = dotted(node.args[0]) if node.args else ""
    return Call(dotted(node.func), first, keywords, node.lineno, function)


def _assigned(script: Script, node: ast.Assign | ast.AnnAssign, values: Values, where: str) -> None:
    target, value = _target(node)
    name = dotted(target) if target is not None else ""
    if not name or value is None:
        return
    own = script.assigned.setdefault(where, {})
    if name not in own:
        own[name] = Value(values.number(value), node.lineno, value, values)


def resolve(value: Value, known: Mapping[str, int], *, world: int | None = None) -> Value:
    """``value`` evaluated again with names only its function knows (a local, ``common.*``, a parameter) and the
    world size ``get_world_size()`` returns."""
    if value.number is not None or value.node is None or value.values is None:
        return value
    return Value(value.values.number(value.node, known, world), value.line, value.node, value.values)


def numbers(value: Value, known: Mapping[str, int]) -> list[int] | None:
    """``[512 * S, 1024 * S]`` as whole numbers; None where one is not decided or it is no list."""
    node = value.node
    if not isinstance(node, ast.List | ast.Tuple) or len(node.elts) > MAX_ITEMS or value.values is None:
        return None
    folded = [value.values.number(element, known) for element in node.elts]
    return [n for n in folded if n is not None] if all(n is not None for n in folded) else None


def durations(value: Value, known: Mapping[str, int]) -> tuple[list[int] | None, set[str]]:
    """``[Duration.tokens(0), Duration.tokens(10**11)]``: the numbers and the units (``tokens``, ``steps`` …)."""
    node = value.node
    if not isinstance(node, ast.List | ast.Tuple) or len(node.elts) > MAX_ITEMS or value.values is None:
        return None, set()
    calls = [e for e in node.elts if isinstance(e, ast.Call) and len(e.args) == 1 and dotted(e.func)]
    if len(calls) != len(node.elts):
        return None, set()
    folded = [value.values.number(call.args[0], known) for call in calls]
    units = {dotted(call.func).rsplit(".", 1)[-1] for call in calls}
    return ([n for n in folded if n is not None] if all(n is not None for n in folded) else None), units


__all__ = ["Call", "Script", "Value", "Values", "dotted", "durations", "numbers", "read", "resolve", "whole_number"]
