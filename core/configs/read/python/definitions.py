"""The script's own definitions followed: a function run with its arguments, a class built (a dataclass's fields,
``__init__`` run with ``self`` the new instance)."""

from __future__ import annotations

import ast
import contextlib
from pathlib import PurePosixPath

from effbatch.core.configs.base import Given, Instance, Origin, Unknown
from effbatch.core.configs.read.python.fire_line import fire_keywords
from effbatch.core.configs.read.python.grammar import parse_module
from effbatch.core.configs.read.python.limits import MAX_CALL_DEPTH
from effbatch.core.configs.read.python.objects import FunctionRef
from effbatch.core.configs.read.python.segments import Segments
from effbatch.core.configs.read.python.state import Frame, Leave, State


class Definitions(State):
    """Functions and classes the script defines, followed where it calls them; files it ``exec``s run in place."""

    def execute(self, node: ast.Call, frame: Frame) -> object:
        """``exec(open(path).read())`` (nanoGPT's configurator, its config files) or ``exec(text)``: a file among
        ``includes`` (by base name) or a known text, run in this frame; an unknown one may set any name, so every
        name is unknown after it."""
        text, file = self.executed_text(node.args[0], frame) if node.args else (None, "")
        if text is None or file in self.calling or len(self.calling) >= MAX_CALL_DEPTH:
            for name in list(frame.names):
                frame.bind(name, Unknown(name, (name,)), node.lineno, name)
            return None
        try:
            tree = parse_module(text)
        except SyntaxError:
            return None
        self.step(1 + len(text) // 64)
        saved = (self.segments, self.file)
        self.segments, self.file = Segments(text), file
        self.calling.append(file)
        try:
            self.run(tree.body, frame)
        finally:
            self.calling.pop()
            self.segments, self.file = saved
        return None

    def executed_text(self, argument: ast.expr, frame: Frame) -> tuple[str | None, str]:
        """The text ``exec`` is given and the file it comes from: ``open(path).read()`` of an included file, or a
        known string."""
        if isinstance(argument, ast.Call) and isinstance(argument.func, ast.Attribute) and argument.func.attr == "read":
            opened = argument.func.value
            if isinstance(opened, ast.Call) and isinstance(opened.func, ast.Name) and opened.func.id == "open":
                path = self.expr(opened.args[0], frame) if opened.args else None
                name = PurePosixPath(path).name if isinstance(path, str) else ""
                return self.includes.get(name), name
        value = self.expr(argument, frame)
        return (value, "") if isinstance(value, str) else (None, "")

    def follow(self, name: str, args: list[Given], keywords: dict[str, Given], frame: Frame, node: ast.Call) -> object:
        """A function the script defines, run with its arguments (not recursively, at most ``MAX_CALL_DEPTH`` deep)."""
        definition = self.functions.get(name)
        if definition is None or name in self.calling or len(self.calling) >= MAX_CALL_DEPTH:
            return self.unknown(node)
        local = Frame(parent=self.module, function=name, reached=frame.reached)
        self.bind_parameters(definition.args, args, keywords, local)
        self.calling.append(name)
        if frame.reached:
            self.executed.add(name)
        try:
            self.run(definition.body, local)
        except Leave as stop:
            if stop.kind == "return":
                return self.unknown(node) if local.uncertain else stop.value
            if stop.kind == "raise":
                raise
            return None
        finally:
            self.calling.pop()
        return None

    def imported(
        self, path: str, args: list[Given], keywords: dict[str, Given], frame: Frame, node: ast.Call
    ) -> object:
        """A function of a module among ``includes`` (``from utils.ds_utils import get_train_ds_config``): that file
        read as Python imports it (``__name__`` its module, the same ``sys.argv`` and environment, one budget) and
        the function run there with the arguments; anything else is a library's call."""
        module, _, function = path.rpartition(".")
        file = f"{module.rsplit('.', 1)[-1]}.py"
        text = self.includes.get(file) if module else None
        if path == "fire.Fire" and (bound := self.fired(args, keywords)) is not None:
            return self.follow(bound[0], [], bound[1], frame, node)
        if text is None or file in self.calling or len(self.calling) >= MAX_CALL_DEPTH:
            return self.library(path, args, keywords, node)
        other = type(self)(Segments(text), argv=self.argv, environ=self.environ, includes=self.includes, file=file)
        other.calling, other.steps = [*self.calling, file], self.steps
        other.module.bind("__name__", module, 0, "__name__")
        try:
            with contextlib.suppress(Leave):
                other.run(parse_module(text).body, other.module)
            result = other.follow(function, args, keywords, frame, node) if function in other.functions else None
        except SyntaxError:
            result = None
        finally:
            self.steps = other.steps
        return self.unknown(node) if result is None or isinstance(result, Unknown) else result

    def fired(self, args: list[Given], keywords: dict[str, Given]) -> tuple[str, dict[str, Given]] | None:
        """``fire.Fire(train)`` on a known command line: the function and the keywords fire calls it with (None
        where the line is not known, the component is no function of the script, or fire would not consume it)."""
        component = args[0].value if args else keywords["component"].value if "component" in keywords else None
        definition = self.functions.get(component.name) if isinstance(component, FunctionRef) else None
        if self.argv is None or definition is None or "command" in keywords:
            return None
        bound = fire_keywords(definition.args, self.argv)
        if bound is None:
            return None
        return definition.name, {key: Given(value, 0, f"--{key}", origin=Origin.LAUNCH) for key, value in bound.items()}

    def bind_parameters(
        self, parameters: ast.arguments, args: list[Given], keywords: dict[str, Given], local: Frame
    ) -> None:
        """Each parameter its argument, else its default (evaluated in the module), else unknown."""
        positional = [*parameters.posonlyargs, *parameters.args]
        defaults = dict(zip(positional[len(positional) - len(parameters.defaults) :], parameters.defaults, strict=True))
        defaults |= {a: d for a, d in zip(parameters.kwonlyargs, parameters.kw_defaults, strict=True) if d is not None}
        for index, parameter in enumerate([*positional, *parameters.kwonlyargs]):
            if index < len(args) and index < len(positional):
                value: object = args[index].value
            elif parameter.arg in keywords:
                value = keywords[parameter.arg].value
            elif parameter in defaults:
                value = self.expr(defaults[parameter], self.module)
            else:
                value = Unknown(parameter.arg, (parameter.arg,))
            local.bind(parameter.arg, value, parameter.lineno, parameter.arg)
        for extra in (parameters.vararg, parameters.kwarg):
            if extra is not None:
                local.bind(extra.arg, Unknown(extra.arg, (extra.arg,)), extra.lineno, extra.arg)

    def construct(
        self, name: str, args: list[Given], keywords: dict[str, Given], frame: Frame, node: ast.Call
    ) -> object:
        """A class the script defines: a dataclass's fields (defaults, then the arguments), or ``__init__`` run with
        ``self`` the new instance."""
        definition = self.classes[name]
        instance = Instance(name, self.dataclass_fields(definition), node.lineno)
        field_names = list(instance.fields)
        for index, arg in enumerate(args[: len(field_names)]):
            instance.fields[field_names[index]] = arg
        instance.fields |= {key: value for key, value in keywords.items() if key in instance.fields}
        init = next((s for s in definition.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is not None and frame.reached:
            self.executed.add(f"{name}.__init__")
        if init is not None and name not in self.calling and len(self.calling) < MAX_CALL_DEPTH:
            local = Frame(parent=self.module, function=f"{name}.__init__", reached=frame.reached)
            local.bind("self", instance, node.lineno, "self")
            self.bind_parameters(without_first(init.args), args, keywords, local)
            self.calling.append(name)
            try:
                self.run(init.body, local)
            except Leave:
                pass
            finally:
                self.calling.pop()
        instance.reached = frame.reached
        self.instances.setdefault(name, instance)
        self.script.instances.append(instance)
        return instance

    def dataclass_fields(self, definition: ast.ClassDef) -> dict[str, Given]:
        """The annotated fields of a class body with their defaults (``field(default=…)`` read; no default:
        unknown)."""
        fields: dict[str, Given] = {}
        for statement in definition.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                fields[statement.target.id] = self.field_default(statement)
        return fields

    def field_default(self, statement: ast.AnnAssign) -> Given:
        value = statement.value
        if isinstance(value, ast.Call) and self.written(value.func).rsplit(".", 1)[-1] == "field":
            value = next((k.value for k in value.keywords if k.arg == "default"), None)
        if value is None:
            return Given(Unknown(self.written(statement.target)), statement.lineno, "")
        return Given(self.expr(value, self.module), statement.lineno, self.written(value))


def without_first(arguments: ast.arguments) -> ast.arguments:
    positional = [*arguments.posonlyargs, *arguments.args][1:]
    return ast.arguments(
        posonlyargs=[],
        args=positional,
        vararg=arguments.vararg,
        kwonlyargs=arguments.kwonlyargs,
        kw_defaults=arguments.kw_defaults,
        kwarg=arguments.kwarg,
        defaults=arguments.defaults[-len(positional) :] if positional else [],
    )
