"""The reader: one object that binds the pieces, and one reading of a module (``read_python``).

The module runs from its first statement to its last, following the functions it calls; then every function
and method no run reached is read once on its own (its parameters their defaults, ``self`` the class's first
instance), so a ``TrainingArguments(…)`` inside a ``main()`` that ``fire.Fire`` starts is still seen – marked
as not reached.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Mapping, Sequence

from effbatch.core.configs.base import CheckError, Given, Instance, ProblemKind, PyScript, Unknown
from effbatch.core.configs.read.python.calls import Calls
from effbatch.core.configs.read.python.definitions import Definitions, without_first
from effbatch.core.configs.read.python.expressions import Expressions
from effbatch.core.configs.read.python.grammar import parse_module
from effbatch.core.configs.read.python.segments import Segments
from effbatch.core.configs.read.python.state import Frame, Leave
from effbatch.core.configs.read.python.statements import Statements


class Reader(Statements, Expressions, Calls, Definitions):
    """One reading of a module: every piece over one ``State``."""

    def module_body(self, tree: ast.Module) -> None:
        with contextlib.suppress(Leave):  # ``raise`` (or a failing ``assert``) ends the script, as the program
            self.run(tree.body, self.module)
        module = self.module
        self.script.names = {
            name: Given(
                value, module.lines.get(name, 0), module.written.get(name, name), file=module.files.get(name, "")
            )
            for name, value in self.module.names.items()
        }

    def unreached(self) -> None:
        """Each function and method no run reached, read once with its defaults (its calls marked unreached)."""
        for name, definition in list(self.functions.items()):
            if name not in self.executed:
                self.read_alone(name, definition, None)
        for class_name, body in list(self.classes.items()):
            owner: object = self.instances.get(class_name, Unknown("self", ("self",)))
            for method in body.body:
                if isinstance(method, ast.FunctionDef) and f"{class_name}.{method.name}" not in self.executed:
                    self.read_alone(f"{class_name}.{method.name}", method, owner)

    def read_alone(self, name: str, definition: ast.FunctionDef | ast.AsyncFunctionDef, owner: object) -> None:
        """``definition`` read once with its parameters' defaults; a method's ``self`` a copy of ``owner`` (what it
        assigns to ``self`` changes nothing a run built)."""
        local = Frame(parent=self.module, function=name, reached=False)
        parameters = definition.args
        positional = [*parameters.posonlyargs, *parameters.args]
        if owner is not None and positional:
            if isinstance(owner, Instance):
                owner = Instance(owner.kind, dict(owner.fields), owner.line, owner.complete, reached=False)
            local.bind(positional[0].arg, owner, definition.lineno, positional[0].arg)
            parameters = without_first(parameters)
        self.bind_parameters(parameters, [], {}, local)
        self.executed.add(name)
        with contextlib.suppress(Leave):
            self.run(definition.body, local)


def read_python(
    text: str,
    name: str = "",
    *,
    argv: Sequence[str] | None = None,
    environ: Mapping[str, str] | None = None,
    launch: str = "",
    includes: Mapping[str, str] | None = None,
    settings: Mapping[str, str] | None = None,
) -> PyScript:
    """``text`` (the file ``name``) read, never run: ``argv`` the program's arguments where a launch line names
    this script (``launch``: where that line is), ``includes`` the texts of files it may ``exec`` by base name,
    ``environ`` what its launcher sets (``WORLD_SIZE`` …; None:
    unknown). ``CheckError`` where Python's grammar refuses the text or a bound of the reader is reached; Python's
    own parser may still raise ``RecursionError``/``MemoryError``/``ValueError`` on hostile text, for
    ``read.bounds.hostile`` to word."""
    try:
        tree = parse_module(text)
    except SyntaxError as error:  # also "too many nested parentheses"; RecursionError and the like are the
        # caller's bounds to word (``read.bounds.hostile``)
        raise CheckError(ProblemKind.UNREADABLE, name=name, line=error.lineno, detail=error.msg) from None
    reader = Reader(Segments(text), argv=argv, environ=environ, includes=includes or {})
    reader.module_body(tree)
    reader.unreached()
    reader.script.launch = launch
    reader.script.settings = dict(settings or {})
    reader.script.argv = tuple(argv) if argv is not None else None
    reader.script.environ = dict(environ) if environ is not None else None
    reader.script.functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    reader.script.shape = frozenset(_kind(statement) for statement in tree.body)
    return reader.script


def _kind(statement: ast.stmt) -> str:
    """A top-level statement's kind: what tells a config file (assignments only) from a script."""
    if isinstance(statement, ast.Assign | ast.AugAssign | ast.AnnAssign):
        return "assign"
    if isinstance(statement, ast.Expr):
        return "docstring" if isinstance(statement.value, ast.Constant) else "call"
    kinds: dict[type[ast.stmt], str] = {
        ast.Import: "import",
        ast.ImportFrom: "import",
        ast.FunctionDef: "def",
        ast.AsyncFunctionDef: "def",
        ast.ClassDef: "class",
        ast.If: "if",
        ast.For: "loop",
        ast.While: "loop",
    }
    return kinds.get(type(statement), "other")
