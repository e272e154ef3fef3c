"""Expressions: literals, names, arithmetic, comparisons, ``and``/``or``, ``x if c else y``, containers,
subscripts, f-strings and ``:=``; what depends on something unknown is an ``Unknown`` naming it."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any, cast

from effbatch.core.configs.base import Condition, Unknown
from effbatch.core.configs.read.python import operators
from effbatch.core.configs.read.python.limits import MAX_ITEMS
from effbatch.core.configs.read.python.objects import BUILTINS, Builtin, Environ, ModuleRef, PartialEnviron
from effbatch.core.configs.read.python.operators import UndecidableError
from effbatch.core.configs.read.python.state import Frame, State

#: Names every module has: the script is the program that runs (``if __name__ == "__main__"`` holds).
MODULE_NAMES: dict[str, object] = {"__name__": "__main__"}


class Expressions(State):
    """The value of an expression where the script's own values decide it."""

    def expr(self, node: ast.expr, frame: Frame) -> object:
        self.step()
        if not self.enter():
            return self.unknown(node)
        try:
            return self._expr(node, frame)
        except UndecidableError:
            return self.unknown(node)
        finally:
            self.leave()

    def _expr(self, node: ast.expr, frame: Frame) -> object:
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, int | float | str | bool | type(None)) else self.unknown(node)
        evaluate = _BY_KIND.get(type(node))
        return evaluate(self, node, frame) if evaluate is not None else self.unknown(node)

    def owned(self, node: ast.Attribute, frame: Frame) -> object:
        """``owner.name``: unknown where the owner is."""
        owner = self.expr(node.value, frame)
        if isinstance(owner, Unknown):
            bare = owner.needs in ((), (owner.written,))  # ``args`` unknown: ``args.bs`` is what is needed
            return Unknown(self.written(node), (self.written(node),) if bare else owner.needs)
        return self.attribute(owner, node.attr, node)

    def walrus(self, node: ast.NamedExpr, frame: Frame) -> object:
        value = self.expr(node.value, frame)
        self.assign(node.target, value, frame, node.lineno, self.written(node.value))
        return value

    def name(self, node: ast.Name, frame: Frame) -> object:
        if frame.bound(node.id):
            return frame.lookup(node.id)
        if node.id in self.aliases:
            return ModuleRef(self.aliases[node.id])
        if node.id in MODULE_NAMES:
            return MODULE_NAMES[node.id]
        if node.id in BUILTINS:
            return Builtin(node.id)
        return Unknown(node.id, (node.id,))

    def arithmetic(self, node: ast.BinOp, frame: Frame) -> object:
        left, right = self.expr(node.left, frame), self.expr(node.right, frame)
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return self.unknown(node, *_needs(left, right))
        return operators.binary(node.op, left, right)

    def sign(self, node: ast.UnaryOp, frame: Frame) -> object:
        operand = self.expr(node.operand, frame)
        if isinstance(operand, Unknown):
            return self.unknown(node, *_needs(operand))
        return operators.unary(node.op, operand)

    def boolean(self, node: ast.BoolOp, frame: Frame) -> object:
        """``a and b`` / ``a or b``: Python's value (an operand), deciding as far as the known operands go."""
        value: object = None
        for operand in node.values:
            value = self.expr(operand, frame)
            if isinstance(value, Unknown):
                return self.unknown(node, *_needs(value))
            if operators.truth(value) != isinstance(node.op, ast.And):
                return value
        return value

    def comparison(self, node: ast.Compare, frame: Frame) -> object:
        left = self.expr(node.left, frame)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = self.expr(right_node, frame)
            if isinstance(left, Unknown) or isinstance(right, Unknown):
                return self.unknown(node, *_needs(left, right))
            holds = operators.compare(op, left, right)
            if not operators.truth(holds):
                return holds
            left = right
        return True

    def conditional(self, node: ast.IfExp, frame: Frame) -> object:
        test = self.expr(node.test, frame)
        if not isinstance(test, Unknown):
            return self.expr(node.body if operators.truth(test) else node.orelse, frame)
        body, orelse = self.expr(node.body, frame), self.expr(node.orelse, frame)
        if type(body) is type(orelse) and not isinstance(body, Unknown) and body == orelse:
            return body
        self.script.undecided.append(Condition(self.written(node.test), node.lineno))
        return self.unknown(node, *_needs(test))

    def container(self, node: ast.Tuple | ast.List | ast.Set, frame: Frame) -> object:
        items: list[object] = []
        for element in node.elts:
            if isinstance(element, ast.Starred):
                items.extend(self.iterate(self.expr(element.value, frame), element))
            else:
                items.append(self.expr(element, frame))
            if len(items) > MAX_ITEMS:
                raise UndecidableError
        if isinstance(node, ast.Tuple):
            return tuple(items)
        if isinstance(node, ast.List):
            return items
        if any(isinstance(item, Unknown) for item in items):
            return self.unknown(node)
        return operators.bounded(set(items))  # unhashable items: TypeError below

    def mapping(self, node: ast.Dict, frame: Frame) -> object:
        result: dict[object, object] = {}
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            value = self.expr(value_node, frame)
            if key_node is None:  # {**other}
                if not isinstance(value, dict):
                    return self.unknown(node)
                result.update(value)
                continue
            key = self.expr(key_node, frame)
            if isinstance(key, Unknown):
                return self.unknown(node, *_needs(key))
            try:
                result[key] = value
            except TypeError:
                raise UndecidableError from None
        return operators.bounded(result)

    def iterate(self, value: object, node: ast.AST) -> Iterator[object]:
        """The items of a known iterable (a string's characters, a dict's keys); ``UndecidableError`` otherwise."""
        if isinstance(value, str | tuple | list | dict | set | frozenset | range):
            if len(value) > MAX_ITEMS:
                raise UndecidableError
            return iter(list(value))
        raise UndecidableError

    def subscript(self, node: ast.Subscript, frame: Frame) -> object:
        owner = self.expr(node.value, frame)
        index = self.slice(node.slice, frame)
        if isinstance(owner, Environ) and isinstance(index, str):
            return self.environment(index, None, node, required=True)
        if isinstance(owner, Unknown) or isinstance(index, Unknown):
            return self.unknown(node, *_needs(owner, index))
        if not isinstance(owner, operators.PLAIN):
            return self.unknown(node)
        try:
            return operators.bounded(cast("Any", owner)[index])
        except (TypeError, KeyError, IndexError, ValueError):
            raise UndecidableError from None

    def slice(self, node: ast.expr, frame: Frame) -> object:
        if not isinstance(node, ast.Slice):
            return self.expr(node, frame)
        parts = [self.expr(p, frame) if p is not None else None for p in (node.lower, node.upper, node.step)]
        if any(isinstance(p, Unknown) for p in parts):
            return self.unknown(node)
        return slice(*parts)

    def joined(self, node: ast.JoinedStr, frame: Frame) -> object:
        pieces: list[str] = []
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                pieces.append(part.value)
                continue
            if not isinstance(part, ast.FormattedValue) or part.format_spec is not None or part.conversion != -1:
                return self.unknown(node)
            value = self.expr(part.value, frame)
            if not isinstance(value, int | float | str | bool | type(None)):
                return self.unknown(node, *_needs(value))
            pieces.append(str(value))
        return operators.bounded("".join(pieces))

    def environment(self, key: str, default: object, node: ast.AST, *, required: bool = False) -> object:
        """``os.environ[key]`` / ``os.environ.get(key, default)``: the launcher's value, the default where the
        launch does not set it, unknown where the launch is unknown."""
        if self.environ is not None and key in self.environ:
            return self.environ[key]
        if self.environ is None or isinstance(self.environ, PartialEnviron):
            return Unknown(self.written(node), (f"${key}",))
        return self.unknown(node, f"${key}") if required else default


def _needs(*values: object) -> tuple[str, ...]:
    """What the unknown ones among ``values`` depend on, each once."""
    found: dict[str, None] = {}
    for value in values:
        if isinstance(value, Unknown):
            found |= dict.fromkeys(value.needs or (value.written,))
    return tuple(found)


_BY_KIND: dict[type[ast.AST], Callable[[Any, Any, Frame], object]] = {
    ast.Name: Expressions.name,
    ast.Attribute: Expressions.owned,
    ast.BinOp: Expressions.arithmetic,
    ast.UnaryOp: Expressions.sign,
    ast.BoolOp: Expressions.boolean,
    ast.Compare: Expressions.comparison,
    ast.IfExp: Expressions.conditional,
    ast.Tuple: Expressions.container,
    ast.List: Expressions.container,
    ast.Set: Expressions.container,
    ast.Dict: Expressions.mapping,
    ast.Subscript: Expressions.subscript,
    ast.JoinedStr: Expressions.joined,
    ast.Call: lambda reader, node, frame: reader.call(node, frame),  # the calls piece, bound in the reader
    ast.NamedExpr: Expressions.walrus,
}
