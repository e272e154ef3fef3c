"""Calls: the script's own functions and classes followed, Python's builtins computed, ``os.environ`` and the
world size asked of the launch, argparse and ``HfArgumentParser`` modelled; every other call recorded with its
arguments and, where its name is a class's, built as an ``Instance`` whose fields a check reads."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Sequence

from effbatch.core.configs.base import CallSite, Given, Instance, Unknown
from effbatch.core.configs.read.python import operators
from effbatch.core.configs.read.python.argparser import ArgParser, add_deepspeed_arguments, build_option
from effbatch.core.configs.read.python.arguments import HfParser
from effbatch.core.configs.read.python.objects import (
    ENVIRON,
    Builtin,
    ClassRef,
    Environ,
    FunctionRef,
    Method,
    ModuleRef,
    PartialEnviron,
)
from effbatch.core.configs.read.python.operators import UndecidableError
from effbatch.core.configs.read.python.state import Frame, Leave, State

#: Calls whose value is the number of processes the run starts.
WORLD_CALLS = frozenset(
    {
        *("torch.distributed.get_world_size", "torch.distributed.get_world_size", "get_world_size"),
        *("xm.xrt_world_size", "torch_xla.runtime.world_size", "accelerate.PartialState.num_processes"),
    }
)
_WORLD_OWNERS = ("Accelerator", "PartialState")
PARSERS = frozenset({"HfArgumentParser", "TrlParser", "H4ArgumentParser"})
_MATH: dict[str, Callable[..., object]] = {"ceil": math.ceil, "floor": math.floor, "sqrt": math.sqrt, "log2": math.log2}
_PLAIN_METHODS = frozenset(
    {*("get", "upper", "lower", "strip", "split", "join", "replace", "startswith", "endswith", "format")}
    | {"append", "extend", "insert", "pop", "count", "index", "keys", "values", "items", "copy", "setdefault"}
)


class Calls(State):
    """The value of a call, where the reader can know it; the call recorded either way."""

    def call(self, node: ast.Call, frame: Frame) -> object:
        if isinstance(node.func, ast.Attribute) and node.func.attr == "save_hyperparameters":
            return self.hyperparameters(node.func, frame)
        if isinstance(node.func, ast.Name) and node.func.id in ("exec", "globals") and not frame.bound(node.func.id):
            return self.execute(node, frame) if node.func.id == "exec" else self.module.names
        function = self.expr(node.func, frame)
        args, keywords = self.arguments(node, frame)
        callee, imported = self.callee(node.func, function), isinstance(function, ModuleRef)
        if isinstance(function, Unknown) and callee.rsplit(".", 1)[-1][:1].isupper():
            function = ModuleRef(callee)  # a class from an import not pasted (``GRPOConfig(…)`` alone): by name
        if not isinstance(function, Builtin | Method):  # a builtin or a parser's method is computed, not a call to read
            self.record(CallSite(callee, keywords, tuple(args), node.lineno, frame.function, frame.reached, imported))
        self.reaching = frame.reached
        try:
            return self.dispatch(function, args, keywords, node, frame)
        except UndecidableError:
            return self.unknown(node)

    def hyperparameters(self, func: ast.Attribute, frame: Frame) -> object:
        """Lightning's ``self.save_hyperparameters()``: ``self.hparams`` holds the ``__init__``'s arguments."""
        owner = self.expr(func.value, frame)
        if isinstance(owner, Instance):
            fields = {n: Given(v, frame.lines.get(n, 0), frame.written.get(n, n)) for n, v in frame.names.items()}
            owner.fields["hparams"] = Given(Instance("hparams", fields, func.lineno), func.lineno, "hparams")
        return None

    def literal(self, value: object) -> object:
        """``ast.literal_eval`` of a known text (short, as a command-line value is); where it is no literal, Python
        raises, and so does the script here (nanoGPT's configurator then keeps the text)."""
        if isinstance(value, Unknown) or not isinstance(value, str) or len(value) > 1000:
            return Unknown(str(value))
        if "$" in value:  # a shell variable the launch line leaves to the run (``--lr=$lr`` in a loop)
            return Unknown(value, (value,))
        try:
            return operators.bounded(ast.literal_eval(value))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise Leave("raise") from None

    def arguments(self, node: ast.Call, frame: Frame) -> tuple[list[Given], dict[str, Given]]:
        """Positional and keyword arguments; ``*known`` and ``**known`` spread, an unknown spread kept as one."""
        args: list[Given] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                value = self.expr(arg.value, frame)
                try:
                    args += [Given(item, arg.lineno, self.written(arg)) for item in self.iterate(value, arg)]
                except UndecidableError:
                    args.append(Given(self.unknown(arg), arg.lineno, self.written(arg)))
            else:
                args.append(self.value(arg, frame))
        keywords: dict[str, Given] = {}
        for keyword in node.keywords:
            if keyword.arg is not None:
                keywords[keyword.arg] = self.value(keyword.value, frame)
            else:
                keywords |= self.spread(self.expr(keyword.value, frame), keyword)
        return args, keywords

    def spread(self, value: object, keyword: ast.keyword) -> dict[str, Given]:
        """``**config``: a known dict's items, an instance's fields (``**vars(args)``), else nothing known."""
        if isinstance(value, dict):
            return {str(k): Given(v, keyword.value.lineno, self.written(keyword)) for k, v in value.items()}
        if isinstance(value, Instance):
            return dict(value.fields)
        return {}

    def callee(self, func: ast.expr, value: object) -> str:
        """The callee as its imports name it: ``transformers.TrainingArguments`` for ``TrainingArguments``."""
        if isinstance(value, ModuleRef):
            return value.path
        written = self.written(func)
        head, _, rest = written.partition(".")
        return f"{self.aliases[head]}.{rest}".rstrip(".") if head in self.aliases else written

    def dispatch(
        self, function: object, args: list[Given], keywords: dict[str, Given], node: ast.Call, frame: Frame
    ) -> object:
        if isinstance(function, Builtin):
            return self.builtin(function.name, [a.value for a in args], node)
        if isinstance(function, FunctionRef):
            return self.follow(function.name, args, keywords, frame, node)
        if isinstance(function, ClassRef):
            return self.construct(function.name, args, keywords, frame, node)
        if isinstance(function, Method):
            return self.method(function, args, keywords, node)
        if isinstance(function, ModuleRef):
            return self.imported(function.path, args, keywords, frame, node)
        return self.unknown(node)

    def builtin(self, name: str, values: list[object], node: ast.Call) -> object:
        """``int``, ``min``, ``len`` … on known values, as Python computes them."""
        if name == "print":
            return None
        if any(isinstance(v, Unknown) or not isinstance(v, operators.PLAIN) for v in values):
            return self.unknown(node, *(n for v in values if isinstance(v, Unknown) for n in v.needs))
        function = __builtins__[name] if isinstance(__builtins__, dict) else getattr(__builtins__, name)
        if name == "pow" and len(values) == 2:
            return operators.binary(ast.Pow(), values[0], values[1])
        try:
            if name in ("range", "list", "tuple", "set", "dict", "sorted", "reversed", "enumerate", "zip"):
                items = [list(self.iterate(v, node)) if name != "range" else v for v in values]
                result = function(*items)
                return list(result) if name in ("reversed", "enumerate", "zip") else operators.bounded(result)
            return operators.bounded(function(*values))
        except TypeError:
            raise self.raised("TypeError") from None
        except (ValueError, OverflowError, ZeroDivisionError):
            raise UndecidableError from None

    def raised(self, kind: str) -> Exception:
        """What a builtin's ``kind`` error (a TypeError: a value of a kind it does not take) does: in a run, it is
        raised (an enclosing ``except`` catches it, else the script ends there, as Python's would); in a function read
        on its own with guessed defaults, the value is unknown and the reading goes on."""
        return Leave("raise", kind) if self.reaching else UndecidableError()

    def method(self, method: Method, args: list[Given], keywords: dict[str, Given], node: ast.Call) -> object:
        owner, name = method.owner, method.name
        if isinstance(owner, Environ):
            key = args[0].value if args else None
            if name == "get" and isinstance(key, str):
                return self.environment(key, args[1].value if len(args) > 1 else None, node)
            return self.unknown(node)
        if isinstance(owner, ArgParser | HfParser):
            return self.parser_method(owner, name, args, keywords, node)
        if isinstance(owner, operators.PLAIN) and name in _PLAIN_METHODS:
            values = [a.value for a in args]
            if any(isinstance(v, Unknown) for v in values) or keywords:
                return self.unknown(node)
            try:
                return operators.bounded(getattr(owner, name)(*values))
            except (TypeError, ValueError, KeyError, IndexError, AttributeError):
                raise UndecidableError from None
        return self.unknown(node)

    def parser_method(
        self, parser: ArgParser | HfParser, name: str, args: list[Given], keywords: dict[str, Given], node: ast.Call
    ) -> object:
        if isinstance(parser, ArgParser):
            if name == "add_argument":
                option = build_option(parser, args, keywords, node.lineno)
                if option is not None:
                    parser.options.append(option)
            elif name in ("add_argument_group", "add_mutually_exclusive_group"):
                return parser
            elif name == "set_defaults":
                parser.set_defaults(keywords)
            elif name in ("parse_args", "parse_known_args"):
                argv = _own_argv(args, keywords, self.argv)
                self.step(1 + len(argv or ()) * (1 + len(parser.options)) // 32)  # the scan's work, bounded
                namespace = parser.namespace(argv, node.lineno)
                return (namespace, parser.extras(argv)) if name == "parse_known_args" else namespace
            return None
        if name in ("parse_args_into_dataclasses", "parse_args_and_config"):
            instances = parser.instances(self.argv, node.lineno)
            for instance in instances:
                instance.reached = self.reaching
            self.script.instances.extend(instances)
            return instances
        return self.unknown(node)

    def library(self, path: str, args: list[Given], keywords: dict[str, Given], node: ast.Call) -> object:
        """A call into a library: argparse, the parsers, math, the world size; a class builds an ``Instance``."""
        name = path.rsplit(".", 1)[-1]
        if path in WORLD_CALLS or name == "get_world_size":
            return self.world(node)
        if name == "ArgumentParser":
            return _parser(keywords)
        if path == "deepspeed.add_config_arguments" and args and isinstance(args[0].value, ArgParser):
            return add_deepspeed_arguments(args[0].value, node.lineno)
        if name in ("add_argparse_args", "add_model_specific_args") and args and isinstance(args[0].value, ArgParser):
            args[0].value.open = True  # Lightning 1.x adds its Trainer's options: flags beyond the listed ones count
            return args[0].value
        if name == "from_argparse_args" and args and isinstance(args[0].value, Instance):
            owner = path.rsplit(".", 1)[0]
            instance = Instance(owner, dict(args[0].value.fields) | keywords, node.lineno, reached=self.reaching)
            self.script.instances.append(instance)
            return instance
        if name in PARSERS:
            return HfParser(self.dataclasses(args[0].value if args else keywords.get("dataclass_types")))
        if path.startswith("math.") and name in _MATH and all(not isinstance(a.value, Unknown) for a in args):
            try:
                return operators.bounded(_MATH[name](*(a.value for a in args)))
            except (TypeError, ValueError, OverflowError):
                raise UndecidableError from None
        if path == "ast.literal_eval":
            return self.literal(args[0].value if args else None)
        if path in ("os.getenv", "os.environ.get") and args and isinstance(args[0].value, str):
            return self.environment(args[0].value, args[1].value if len(args) > 1 else None, node)
        if name[:1].isupper():
            instance = Instance(path, dict(keywords), node.lineno, reached=self.reaching)
            self.script.instances.append(instance)
            return instance
        return self.unknown(node)

    def dataclasses(self, given: object) -> list[tuple[str, dict[str, Given] | None]]:
        """The dataclasses a parser is given: the script's own with their fields, a library's by name."""
        if isinstance(given, Given):
            given = given.value
        items: Sequence[object] = given if isinstance(given, tuple | list) else [given]
        found: list[tuple[str, dict[str, Given] | None]] = []
        for item in items:
            if isinstance(item, ClassRef):
                found.append(self.own_dataclass(item.name, depth=0))
            elif isinstance(item, ModuleRef):
                found.append((item.path, None))
        return found

    def own_dataclass(self, name: str, depth: int) -> tuple[str, dict[str, Given]]:
        """A script's dataclass, its fields over its own bases'; extending a library's (``TrainingArguments``), it
        is that class (kind: the library's path) with the script's fields."""
        definition = self.classes[name]
        kind, fields = name, dict[str, Given]()
        for base in definition.bases:
            value = self.expr(base, self.module) if depth < 8 else None
            if isinstance(value, ModuleRef):
                kind = value.path
            elif isinstance(value, ClassRef) and value.name in self.classes and value.name != name:
                kind, inherited = self.own_dataclass(value.name, depth + 1)
                fields |= inherited
        return kind, fields | self.dataclass_fields(definition)

    def world(self, node: ast.AST) -> object:
        """The number of processes: the launcher's ``WORLD_SIZE`` where the launch is known."""
        if self.environ is not None and ("WORLD_SIZE" in self.environ or not isinstance(self.environ, PartialEnviron)):
            text = self.environ.get("WORLD_SIZE", "1")
            return int(text) if text.isdigit() else Unknown(self.written(node), ("$WORLD_SIZE",))
        return Unknown(self.written(node), ("$WORLD_SIZE",))

    def attribute(self, owner: object, name: str, node: ast.Attribute) -> object:
        if isinstance(owner, ModuleRef):
            path = f"{owner.path}.{name}"
            if path == "sys.argv":
                return ["train.py", *self.argv] if self.argv is not None else Unknown("sys.argv", ("sys.argv",))
            return ENVIRON if path == "os.environ" else ModuleRef(path)
        if isinstance(owner, Instance):
            if name in owner.fields:
                return owner.fields[name].value
            if name == "num_processes" or (
                name == "world_size" and owner.kind.endswith(("Accelerator", "PartialState"))
            ):
                return self.world(node)
            return Unknown(self.written(node), (self.written(node),))
        if isinstance(owner, Environ | ArgParser | HfParser) or (
            isinstance(owner, operators.PLAIN) and name in _PLAIN_METHODS
        ):
            return Method(owner, name)
        return self.unknown(node)


def _parser(keywords: dict[str, Given]) -> ArgParser:
    """``ArgumentParser(allow_abbrev=…, argument_default=…)``."""
    abbrev = keywords.get("allow_abbrev")
    default = keywords.get("argument_default")
    return ArgParser(abbrev=abbrev is None or abbrev.value is not False, argument_default=default)


def _own_argv(args: list[Given], keywords: dict[str, Given], argv: Sequence[str] | None) -> Sequence[str] | None:
    """``parse_args(["--bs", "4"])``: the words the script hands its parser itself, else the launch line's."""
    given = args[0] if args else keywords.get("args")
    if given is not None and isinstance(given.value, list | tuple) and all(isinstance(w, str) for w in given.value):
        return [str(word) for word in given.value]
    return argv
