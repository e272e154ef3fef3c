"""Statements: assignments of every shape, ``if`` (decided or both sides read), loops over known iterables,
``with``/``try`` bodies, definitions, imports, ``assert``, ``return``/``break``/``continue``/``raise``."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any, cast

from effbatch.core.configs.base import Condition, Given, Instance, Unknown
from effbatch.core.configs.read.python import operators
from effbatch.core.configs.read.python.limits import MAX_ITERATIONS, MAX_LOOP_STEPS
from effbatch.core.configs.read.python.objects import ClassRef, FunctionRef, ModuleRef
from effbatch.core.configs.read.python.operators import UndecidableError
from effbatch.core.configs.read.python.state import Frame, Leave, State


class Statements(State):
    """Statements run in order over a frame; a condition the script's values do not decide reads both sides."""

    def run(self, body: Sequence[ast.stmt], frame: Frame) -> None:
        for node in body:
            self.statement(node, frame)

    def statement(self, node: ast.stmt, frame: Frame) -> None:
        self.step()
        self.line = node.lineno
        if isinstance(node, ast.Expr):
            self.expr(node.value, frame)
        elif isinstance(node, ast.Assign):
            value = self.expr(node.value, frame)
            for target in node.targets:
                self.assign(target, value, frame, node.lineno, self.written(node.value))
        elif isinstance(node, ast.AugAssign):
            self.augment(node, frame)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            self.assign(node.target, self.expr(node.value, frame), frame, node.lineno, self.written(node.value))
        elif isinstance(node, ast.If):
            self.branch(node, frame)
        elif isinstance(node, ast.For | ast.While):
            self.loop(node, frame)
        elif isinstance(node, ast.With | ast.AsyncWith | ast.Try | ast.TryStar):
            self.block(node, frame)
        else:
            self.simple(node, frame)

    def simple(self, node: ast.stmt, frame: Frame) -> None:
        """Definitions, imports, ``assert``, ``del`` and the statements that leave a body."""
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.functions[node.name] = node
            frame.bind(node.name, FunctionRef(node.name), node.lineno, f"def {node.name}")
        elif isinstance(node, ast.ClassDef):
            self.classes[node.name] = node
            frame.bind(node.name, ClassRef(node.name), node.lineno, f"class {node.name}")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            self.imports(node, frame)
        elif isinstance(node, ast.Assert):
            self.assertion(node, frame)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    frame.names.pop(target.id, None)
        elif isinstance(node, ast.Return):
            raise Leave("return", self.expr(node.value, frame) if node.value is not None else None)
        elif isinstance(node, ast.Raise) and not frame.reached:
            return  # a function read on its own, with guessed defaults: its checks do not end the reading
        elif isinstance(node, ast.Break | ast.Continue | ast.Raise):
            raise Leave(type(node).__name__.lower())
        elif isinstance(node, ast.Match):
            self.forget_assigned(node, frame)

    def augment(self, node: ast.AugAssign, frame: Frame) -> None:
        """``x += …`` and its kin, in place as Python does it (a list grows where other names see it too)."""
        load = _as_load(node.target)
        current = self.expr(load, frame) if load is not None else Unknown(self.written(node.target))
        value = self.expr(node.value, frame)
        try:
            if isinstance(current, Unknown) or isinstance(value, Unknown):
                raise UndecidableError
            result = operators.binary(node.op, current, value, in_place=True)
        except UndecidableError:
            result = self.unknown(node.target)
        self.assign(node.target, result, frame, node.lineno, self.written(node))

    def assign(self, target: ast.expr, value: object, frame: Frame, line: int, written: str) -> None:
        if isinstance(target, ast.Name):
            frame.bind(target.id, value, line, written, self.file)
        elif isinstance(target, ast.Tuple | ast.List):
            self.unpack(target, value, frame, line, written)
        elif isinstance(target, ast.Attribute):
            self.set_attribute(target, value, frame, line, written)
        elif isinstance(target, ast.Subscript):
            self.set_item(target, value, frame)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, value, frame, line, written)

    def unpack(self, target: ast.Tuple | ast.List, value: object, frame: Frame, line: int, written: str) -> None:
        """``a, b = …`` and ``a, *rest = …``: each target its item where the value is a known sequence."""
        try:
            items = list(self.iterate(value, target)) if not isinstance(value, Unknown) else None
        except UndecidableError:
            items = None
        starred = [i for i, element in enumerate(target.elts) if isinstance(element, ast.Starred)]
        fits = items is not None and (
            len(items) == len(target.elts) or (starred and len(items) >= len(target.elts) - 1)
        )
        for index, element in enumerate(target.elts):
            if items is None or not fits:
                self.assign(element, self.unknown(element), frame, line, written)
            elif starred and index == starred[0]:
                self.assign(element, items[index : len(items) - (len(target.elts) - index - 1)], frame, line, written)
            else:
                position = index if not starred or index < starred[0] else len(items) - (len(target.elts) - index)
                self.assign(element, items[position], frame, line, written)

    def set_attribute(self, target: ast.Attribute, value: object, frame: Frame, line: int, written: str) -> None:
        """``training_args.per_device_train_batch_size = 4`` changes that instance's field."""
        owner = self.expr(target.value, frame)
        if isinstance(owner, Instance):
            owner.fields[target.attr] = Given(value, line, written)

    def set_item(self, target: ast.Subscript, value: object, frame: Frame) -> None:
        owner, index = self.expr(target.value, frame), self.expr(target.slice, frame)
        if owner is self.module.names and isinstance(index, str):  # ``globals()[key] = …``
            self.module.bind(index, value, target.lineno, self.written(target), self.file)
            return
        if isinstance(owner, dict | list) and not isinstance(index, Unknown):
            try:
                cast("Any", owner)[index] = value
            except (TypeError, IndexError):
                self.forget_assigned(target, frame)

    def branch(self, node: ast.If, frame: Frame) -> None:
        test = self.expr(node.test, frame)
        try:
            holds = None if isinstance(test, Unknown) else operators.truth(test)
        except UndecidableError:
            holds = None
        if holds is not None:
            self.run(node.body if holds else node.orelse, frame)
            return
        self.script.undecided.append(Condition(self.written(node.test), node.lineno))
        self.both(node.body, node.orelse, frame)

    def both(self, body: Sequence[ast.stmt], orelse: Sequence[ast.stmt], frame: Frame) -> None:
        """Both sides of an undecided condition: a name they leave equal stays known, else it is unknown; a side
        that raises is no run that trains, so the other decides."""
        before = _snapshot(frame)
        first_stop = self.side(body, frame)
        first = _snapshot(frame)
        _restore(frame, before)
        second_stop = self.side(orelse, frame)
        if second_stop == "raise" and first_stop != "raise":
            _restore(frame, first)
        elif first_stop != "raise":
            _merge(frame, first)
        if {first_stop, second_stop} & {"return", "break", "continue"}:
            frame.uncertain = True  # the function's result, or the loop's passes, depend on the condition

    def side(self, body: Sequence[ast.stmt], frame: Frame) -> str:
        """One side of an undecided condition; how it ends (``raise``, ``return``, ``break`` …, or "")."""
        try:
            self.run(body, frame)
        except Leave as stop:
            return stop.kind
        return ""

    def loop(self, node: ast.For | ast.While, frame: Frame) -> None:
        """A loop over a known iterable (or while a known condition holds), at most ``MAX_ITERATIONS`` passes;
        else what it assigns is unknown after it."""
        uncertain, frame.uncertain = frame.uncertain, False
        finished = self.passes(node, frame)
        if finished is None or frame.uncertain:
            self.script.undecided.append(Condition(self.written(getattr(node, "iter", node)), node.lineno))
            self.forget_assigned(node, frame)
        elif finished:
            self.run(node.orelse, frame)
        frame.uncertain = uncertain

    def passes(self, node: ast.For | ast.While, frame: Frame) -> bool | None:
        """The loop's passes: True when it ran out, False after ``break``, None where it is not decided."""
        items = None
        if isinstance(node, ast.For):
            try:
                items = self.iterate(self.expr(node.iter, frame), node)
            except UndecidableError:
                return None
        start = self.steps
        for _ in range(MAX_ITERATIONS):
            if self.steps - start > MAX_LOOP_STEPS:
                return None
            if items is not None and isinstance(node, ast.For):
                item = next(items, _END)
                if item is _END:
                    return True
                self.assign(node.target, item, frame, node.lineno, self.written(getattr(node, "iter", node)))
            elif not isinstance(node, ast.For) and (holds := self.holds(node.test, frame)) is not True:
                return None if holds is None else True
            try:
                self.run(node.body, frame)
            except Leave as stop:
                if stop.kind == "break":
                    return False
                if stop.kind != "continue":
                    raise
        return None

    def holds(self, test: ast.expr, frame: Frame) -> bool | None:
        value = self.expr(test, frame)
        try:
            return None if isinstance(value, Unknown) else operators.truth(value)
        except UndecidableError:
            return None

    def block(self, node: ast.With | ast.AsyncWith | ast.Try | ast.TryStar, frame: Frame) -> None:
        """``with``: its body (what ``as`` binds is unknown); ``try``: body, ``else`` and ``finally``."""
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                self.expr(item.context_expr, frame)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, self.unknown(item.optional_vars), frame, node.lineno, "with")
            self.run(node.body, frame)
            return
        try:
            self.run(node.body, frame)
            self.run(node.orelse, frame)
        except Leave as stop:
            handler = _handler(node.handlers, stop) if stop.kind == "raise" else None
            if handler is None:
                raise
            self.run(handler.body, frame)
        finally:
            self.run(node.finalbody, frame)

    def imports(self, node: ast.Import | ast.ImportFrom, frame: Frame) -> None:
        for alias in node.names:
            if isinstance(node, ast.Import):
                bound, path = (
                    alias.asname or alias.name.split(".")[0],
                    alias.name if alias.asname else alias.name.split(".")[0],
                )
            else:
                bound, path = alias.asname or alias.name, f"{node.module or ''}.{alias.name}".lstrip(".")
            self.aliases[bound] = path
            frame.bind(bound, ModuleRef(path), node.lineno, f"import {path}")

    def assertion(self, node: ast.Assert, frame: Frame) -> None:
        """``assert``: recorded with whether it holds; where it fails the script stops there, as Python does."""
        holds = self.holds(node.test, frame)
        self.script.asserts.append((Condition(self.written(node.test), node.lineno), holds))
        if holds is False and frame.reached:  # read on its own (defaults guessed), a function goes on
            raise Leave("raise")

    def forget_assigned(self, node: ast.AST, frame: Frame) -> None:
        """Every name an assignment in ``node`` binds is unknown from here on (how often it ran, only the run knows)."""
        for child in ast.walk(node):
            self.step()
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                frame.bind(child.id, Unknown(child.id, (child.id,)), getattr(child, "lineno", 0), child.id)
            elif (changed := _changed_in_place(child)) is not None and frame.bound(changed):
                frame.bind(changed, Unknown(changed, (changed,)), getattr(child, "lineno", 0), changed)


_END = object()


#: Methods that change a list, dict or set where it is.
_IN_PLACE = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add"})


def _changed_in_place(node: ast.AST) -> str | None:
    """The name a statement changes without assigning it: ``xs.append(…)``, ``d[k] = …``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _IN_PLACE:
        owner = node.func.value
        return owner.id if isinstance(owner, ast.Name) else None
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def _as_load(target: ast.expr) -> ast.expr | None:
    """The target of ``x += …`` read as an expression."""
    if isinstance(target, ast.Name | ast.Attribute | ast.Subscript):
        return target
    return None


def _snapshot(frame: Frame) -> tuple[dict[str, object], dict[str, int], dict[str, str]]:
    return dict(frame.names), dict(frame.lines), dict(frame.written)


def _restore(frame: Frame, saved: tuple[dict[str, object], dict[str, int], dict[str, str]]) -> None:
    frame.names, frame.lines, frame.written = dict(saved[0]), dict(saved[1]), dict(saved[2])


def _merge(frame: Frame, other: tuple[dict[str, object], dict[str, int], dict[str, str]]) -> None:
    """Names both sides leave the same stay; the others are unknown (which side runs, only the run knows)."""
    names, lines, _ = other
    for name in set(frame.names) | set(names):
        mine, theirs = frame.names.get(name, _END), names.get(name, _END)
        if type(mine) is type(theirs) and (mine is theirs or (_comparable(mine) and mine == theirs)):
            continue
        frame.bind(name, Unknown(name, (name,)), max(frame.lines.get(name, 0), lines.get(name, 0)), name)


def _comparable(value: object) -> bool:
    return isinstance(value, int | float | str | bool | type(None) | tuple)


#: What ``except Exception`` and a bare ``except`` catch of the errors the reader raises as Python would.
_CATCH_ALL = frozenset({"Exception", "BaseException"})


def _handler(handlers: list[ast.ExceptHandler], stop: Leave) -> ast.ExceptHandler | None:
    """The ``except`` that catches a raise: for an error of a kind the reader knows (``TypeError``), the first handler
    naming it (or ``Exception``, or bare); for a ``raise`` of the script's own, the first handler."""
    if not isinstance(stop.value, str):
        return handlers[0] if handlers else None
    for handler in handlers:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        names = {kind.id if isinstance(kind, ast.Name) else getattr(kind, "attr", "") for kind in kinds if kind}
        if handler.type is None or names & (_CATCH_ALL | {stop.value}):
            return handler
    return None
