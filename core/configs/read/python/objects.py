"""What names stand for besides plain values: modules, builtins, the script's functions and classes, bound methods,
``os.environ``. The reader passes these around like values; none of them runs anything."""

from __future__ import annotations

from dataclasses import dataclass

from effbatch.core.configs.base import Instance, Unknown


@dataclass(frozen=True)
class ModuleRef:
    """A module or a name in it, by its dotted path (``torch.distributed``, ``transformers.TrainingArguments``)."""

    path: str


@dataclass(frozen=True)
class Builtin:
    """One of Python's builtins the reader knows (``int``, ``min``, ``range`` …)."""

    name: str


@dataclass(frozen=True)
class FunctionRef:
    """A function the script defines."""

    name: str


@dataclass(frozen=True)
class ClassRef:
    """A class the script defines."""

    name: str


@dataclass(frozen=True)
class Method:
    """``owner.name`` about to be called: a method of a plain value, a parser, ``os.environ``."""

    owner: object
    name: str


class Environ:
    """``os.environ``: what the launcher gives the process (or unknown)."""


ENVIRON = Environ()


class PartialEnviron(dict[str, str]):
    """Some variables of an environment not otherwise known (``--set BATCH=8``): the rest stay unknown."""


BUILTINS = frozenset(
    {
        *("int", "float", "str", "bool", "abs", "min", "max", "sum", "len", "round", "range", "list"),
        *("tuple", "dict", "set", "sorted", "print", "divmod", "pow", "any", "all", "reversed", "enumerate", "zip"),
        "type",
    }
)


def deep_known(value: object, depth: int = 0) -> bool:
    """Whether ``value`` holds nothing unknown (containers looked into, a few levels deep)."""
    if isinstance(value, Unknown | Instance | ModuleRef | Method | FunctionRef | ClassRef | Environ | Builtin):
        return False
    if depth > 8:
        return False
    if isinstance(value, dict):
        return all(deep_known(k, depth + 1) and deep_known(v, depth + 1) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return all(deep_known(item, depth + 1) for item in value)
    return True
