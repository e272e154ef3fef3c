"""What a Python launch script or recipe passes to its config classes, read with ``ast``; nothing runs.

OLMo-core's launch scripts and Megatron-Bridge's recipes are Python: the numbers sit in keyword arguments
(``NumpyDataLoaderConfig(global_batch_size=GLOBAL_BATCH_SIZE)``), in attribute assignments
(``cfg.train.global_batch_size = 512``) and in module constants (``SEQUENCE_LENGTH = 4096``,
``GLOBAL_BATCH_SIZE = 1024 * SEQUENCE_LENGTH``). ``read`` walks the tree once (linear in its size) and folds
whole-number arithmetic over constants, parameter defaults and names it was told (``common.max_sequence_length``);
what it cannot fold is kept as written.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from effbatch.core.configs.base import CheckError, ProblemKind, PyScript, context
from effbatch.core.configs.read.python.grammar import parse_module

#: How deep an expression is folded; a config's arithmetic is a few operators deep.
MAX_DEPTH = 40
#: The largest number folded (a batch in tokens is ~10⁷); larger arithmetic stays unread.
MAX_NUMBER = 10**15
_OPERATORS: Mapping[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}


@context
class Value:
    """What a value folds to (None: not without running it), its line, and how it is written
    (``16 * SEQUENCE_LENGTH``, cut out of the text only when asked for)."""

    number: int | None
    line: int
    node: ast.expr | None = field(default=None, compare=False, repr=False)
    source: _Text | None = field(default=None, compare=False, repr=False)

    @property
    def written(self) -> str:
        return self.source.written(self.node) if self.source is not None and self.node is not None else "…"


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


def fold(node: ast.expr, known: Mapping[str, int], depth: int = 0) -> int | None:
    """A whole number from literals, known names and attributes, + − × // % **, ``a or b``; None otherwise."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.Name | ast.Attribute):
        return known.get(dotted(node))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = fold(node.operand, known, depth + 1)
        return None if inner is None else -inner
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        # ``opts.sequence_length or DEFAULT_SEQUENCE_LENGTH``: the first part that is known statically
        return next((v for part in node.values if (v := fold(part, known, depth + 1)) is not None), None)
    if isinstance(node, ast.BinOp):
        return _binary(node, known, depth)
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        return known.get(f"{dotted(node.func)}()")  # ``get_world_size()`` where the caller knows it
    return None


def _binary(node: ast.BinOp, known: Mapping[str, int], depth: int) -> int | None:
    left, right = fold(node.left, known, depth + 1), fold(node.right, known, depth + 1)
    if left is None or right is None:
        return None
    if isinstance(node.op, ast.Pow):
        result = left**right if 0 <= right <= 64 and abs(left) <= 2**20 else None
    elif isinstance(node.op, ast.Div):
        result = left // right if right and left % right == 0 else None
    elif type(node.op) in _OPERATORS and not (right == 0 and isinstance(node.op, ast.FloorDiv | ast.Mod)):
        result = _OPERATORS[type(node.op)](left, right)
    else:
        result = None
    return result if result is not None and abs(result) <= MAX_NUMBER else None


def read(text: str, name: str = "", evaluated: PyScript | None = None) -> Script:
    """``text`` (the source ``name``) read: constants first, then every statement; ``CheckError`` where Python's
    own parser gives up (nesting too deep for it). ``evaluated``: the same text's reading by the Python reader
    (``read.python``, with the launch line where one names the script): a keyword whose arithmetic does not fold
    takes the whole number that reading found at the same call (``max_sequence_length=opts.sequence_length``
    through an argparse namespace), where every reading of that call agrees on it."""
    try:
        tree = parse_module(text)
    except (SyntaxError, RecursionError, MemoryError, ValueError) as error:
        line = getattr(error, "lineno", None)
        raise CheckError(ProblemKind.UNREADABLE, name=name, line=line, detail=type(error).__name__) from None
    source = _Text(text)
    numbers = _evaluated_numbers(evaluated)
    script = Script()
    script.constants = _constants(tree)
    env = dict(script.constants)
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    script.functions = [f.name for f in functions]
    for function in functions:
        script.parameters[function.name] = _defaults(function, env)
    owner = {id(node): f.name for f in functions for node in ast.walk(f)}
    # in the order of the text: the first assignment of a name is the one read
    for node in sorted(ast.walk(tree), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
        where = owner.get(id(node), "")
        if isinstance(node, ast.Call):
            script.calls.append(_call(node, source, env, where, numbers.get((node.lineno, _last(node.func)), {})))
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            _assigned(script, node, source, env, where)
        elif isinstance(node, ast.AugAssign) and (target := dotted(node.target)):
            script.changes.append((target, source.written(node), node.lineno))
    return script


def _constants(tree: ast.Module) -> dict[str, int]:
    """Module-level ``NAME = <arithmetic>`` (and ``NAME: int = …``), in order."""
    constants: dict[str, int] = {}
    for node in tree.body:
        target, value = _target(node)
        if isinstance(target, ast.Name) and value is not None and (number := fold(value, constants)) is not None:
            constants[target.id] = number
    return constants


def _target(node: ast.stmt) -> tuple[ast.expr | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        return node.targets[0], node.value
    if isinstance(node, ast.AnnAssign):
        return node.target, node.value
    return None, None


def _defaults(function: ast.FunctionDef, env: Mapping[str, int]) -> dict[str, int]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    pairs = list(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults, strict=True))
    pairs += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d is not None]
    return {a.arg: number for a, d in pairs if (number := fold(d, env)) is not None}


def _evaluated_numbers(evaluated: PyScript | None) -> dict[tuple[int, str], dict[str, int]]:
    """The whole numbers the Python reader found for each call's keywords, by (line, callee's last part); a keyword
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
    """A callee's last part as the Python reader names calls (``Config`` of ``run.Config``)."""
    return dotted(func).rsplit(".", 1)[-1]


def _call(node: ast.Call, source: _Text, env: Mapping[str, int], function: str, evaluated: Mapping[str, int]) -> Call:
    keywords = {
        k.arg: Value(_folded(k.value, env, evaluated.get(k.arg)), k.value.lineno, k.value, source)
        for k in node.keywords
        if k.arg is not None
    }
    first = dotted(node.args[0]) if node.args else ""
    return Call(dotted(node.func), first, keywords, node.lineno, function)


def _folded(node: ast.expr, env: Mapping[str, int], evaluated: int | None) -> int | None:
    number = fold(node, env)
    return number if number is not None or evaluated is None or abs(evaluated) > MAX_NUMBER else evaluated


def _assigned(
    script: Script, node: ast.Assign | ast.AnnAssign, source: _Text, env: Mapping[str, int], where: str
) -> None:
    target, value = _target(node)
    name = dotted(target) if target is not None else ""
    if not name or value is None:
        return
    own = script.assigned.setdefault(where, {})
    own.setdefault(name, Value(fold(value, env), node.lineno, value, source))


class _Text:
    """The script's lines as UTF-8 (ast's columns count bytes), split once: ``ast.get_source_segment`` splits the
    whole text again for every node, quadratic on a long script."""

    def __init__(self, text: str) -> None:
        self.lines = [line.encode() for line in text.splitlines(keepends=True)]

    def written(self, node: ast.AST, limit: int = 60) -> str:
        """The first ``limit`` characters of ``node`` as written (its later lines folded onto one)."""
        first, last = getattr(node, "lineno", 0), getattr(node, "end_lineno", None) or 0
        if not 1 <= first <= len(self.lines):
            return "…"
        start, end = getattr(node, "col_offset", 0), getattr(node, "end_col_offset", None)
        parts: list[str] = []
        for number in range(first, min(last, len(self.lines)) + 1):
            line = self.lines[number - 1]
            piece = line[start if number == first else 0 : end if number == last else None]
            parts.append(piece[: limit * 4].decode(errors="replace").strip())
            if sum(len(p) for p in parts) >= limit:
                break
        return " ".join(p for p in parts if p)[:limit] or "…"


def resolve(value: Value, known: Mapping[str, int]) -> Value:
    """``value`` folded again with names only its function knows (a local, ``common.*``, a parameter)."""
    if value.number is not None or value.node is None:
        return value
    return Value(fold(value.node, known), value.line, value.node, value.source)


def known_from(values: Mapping[str, Value]) -> dict[str, int]:
    """The numbers among ``values`` by name."""
    return {name: value.number for name, value in values.items() if value.number is not None}


#: Entries of a list read (a batch-size schedule has a handful).
MAX_ITEMS = 64


def numbers(value: Value, known: Mapping[str, int]) -> list[int] | None:
    """``[512 * S, 1024 * S]`` as whole numbers; None where one is not foldable or it is no list."""
    node = value.node
    if not isinstance(node, ast.List | ast.Tuple) or len(node.elts) > MAX_ITEMS:
        return None
    folded = [fold(element, known) for element in node.elts]
    return [n for n in folded if n is not None] if all(n is not None for n in folded) else None


def durations(value: Value, known: Mapping[str, int]) -> tuple[list[int] | None, set[str]]:
    """``[Duration.tokens(0), Duration.tokens(10**11)]``: the numbers and the units (``tokens``, ``steps`` …)."""
    node = value.node
    if not isinstance(node, ast.List | ast.Tuple) or len(node.elts) > MAX_ITEMS:
        return None, set()
    calls = [e for e in node.elts if isinstance(e, ast.Call) and len(e.args) == 1 and dotted(e.func)]
    if len(calls) != len(node.elts):
        return None, set()
    folded = [fold(call.args[0], known) for call in calls]
    units = {dotted(call.func).rsplit(".", 1)[-1] for call in calls}
    return ([n for n in folded if n is not None] if all(n is not None for n in folded) else None), units


__all__ = ["Call", "Script", "Value", "dotted", "durations", "fold", "known_from", "numbers", "read", "resolve"]
