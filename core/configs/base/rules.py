"""A framework's rules as data: a stable code, what it means for the run (its level), its context, a fix.

The German wording of each rule lives in ``bot.texts.frameworks`` (one row per code).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields
from enum import StrEnum
from typing import Any, Generic, TypeVar, dataclass_transform

from effbatch.core.configs.base.versions import Since


class Level(StrEnum):
    """How bad a finding is: the framework refuses it or the run differs silently; a known pitfall; a note."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Effect(StrEnum):
    """What a rule's finding means for the run; it decides the level and the answer's heading."""

    REFUSED = "refused"  # the framework stops before training (an assertion, a ValueError)
    CHANGED = "changed"  # it trains, but silently with other numbers than the config says (a floor)
    PITFALL = "pitfall"  # it trains as written, but people trip over it
    NOTE = "note"  # how the framework got there

    @property
    def level(self) -> Level:
        return _LEVELS[self]


_LEVELS = {
    Effect.REFUSED: Level.ERROR,
    Effect.CHANGED: Level.ERROR,
    Effect.PITFALL: Level.WARNING,
    Effect.NOTE: Level.INFO,
}


class Syntax(StrEnum):
    """How a setting is written in the config a fix is for."""

    YAML = "yaml"  # key: 96
    JSON = "json"  # "key": 96
    TOML = "toml"  # key = 96
    PYTHON = "python"  # key = 96
    FLAG = "flag"  # --key 96
    OVERRIDE = "override"  # key=96 (Hydra, MaxText)
    WORLD = "world"  # a number of GPUs, not a setting


@dataclass(frozen=True)
class Fix:
    """Values that would pass, as data: the setting as the config names it and each alternative."""

    setting: str
    values: tuple[int, ...]
    syntax: Syntax

    def written(self) -> tuple[str, ...]:
        """Each alternative in the config's own syntax, without thousands separators: ``global_batch_size: 96``."""
        leaf = self.setting.rsplit(".", 1)[-1]
        shapes = {
            Syntax.YAML: f"{leaf}: {{}}",
            Syntax.JSON: f'"{leaf}": {{}}',
            Syntax.TOML: f"{leaf} = {{}}",
            Syntax.PYTHON: f"{leaf} = {{}}",
            Syntax.FLAG: f"{self.setting} {{}}",
            Syntax.OVERRIDE: f"{self.setting}={{}}",
            Syntax.WORLD: "{}",
        }
        return tuple(shapes[self.syntax].format(value) for value in self.values)

    @property
    def section(self) -> str | None:
        """The section a nested key sits in (``model`` for ``model.global_batch_size``) where the syntax hides it."""
        if self.syntax in (Syntax.FLAG, Syntax.OVERRIDE, Syntax.WORLD) or "." not in self.setting:
            return None
        return self.setting.rsplit(".", 1)[0]


C = TypeVar("C")
_T = TypeVar("_T")


@dataclass_transform(frozen_default=True)
def context(cls: type[_T]) -> type[_T]:
    """A rule's context (or another small frozen record): what ``@dataclass(frozen=True)`` gives – keyword or
    positional construction, equality, hash, repr, frozen – without generating code with ``exec``.

    A framework module defines a handful of these; ``@dataclass`` costs ~0,5 ms each at import, which every
    ``effbatch check`` (and every pre-commit run) would pay for all of them.
    """
    names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063 - inspect costs ~10 ms to import
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}  # immutable values only

    def init(self: object, *args: object, **kwargs: object) -> None:
        if len(args) > len(names) or set(kwargs) - set(names[len(args) :]):
            msg = f"{cls.__name__} takes {', '.join(names)}"
            raise TypeError(msg)
        values = defaults | dict(zip(names, args, strict=False)) | kwargs
        if missing := [name for name in names if name not in values]:
            msg = f"{cls.__name__} misses {', '.join(missing)}"
            raise TypeError(msg)
        for name in names:
            object.__setattr__(self, name, values[name])

    def values(self: object) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in names)

    def equal(self: object, other: object) -> bool:
        return type(other) is type(self) and values(self) == values(other)

    def shown(self: object) -> str:
        return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"

    methods: dict[str, object] = {"__init__": init, "__eq__": equal, "__repr__": shown}
    methods |= {"__hash__": lambda self: hash(values(self)), "__setattr__": _frozen, "__delattr__": _frozen}
    methods |= {"__match_args__": names, CONTEXT_FIELDS: names}
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


CONTEXT_FIELDS = "__context_fields__"


def _frozen(self: object, name: str, value: object = None) -> None:
    msg = f"cannot assign to field {name!r}"
    raise FrozenInstanceError(msg)


def context_fields(cls: type) -> tuple[str, ...]:
    """The field names of a ``@context`` class (or a dataclass), in order."""
    names: tuple[str, ...] | None = getattr(cls, CONTEXT_FIELDS, None)
    return names if names is not None else tuple(f.name for f in fields(cls))


@dataclass(frozen=True)
class Rule(Generic[C]):
    """One rule of a framework, defined once beside its check: a stable code, what it means, its context's type.

    The context is a small frozen dataclass whose fields (whole numbers and strings) are exactly what the
    rule's German text may say; ``bot.texts.checks.FINDINGS`` has one row per code.
    """

    code: str
    effect: Effect
    context: type[C]
    #: The releases of its framework the rule holds for, where that is not every one.
    since: Since | None = None

    @property
    def level(self) -> Level:
        return self.effect.level

    def __call__(self, context: C, *, message: str | None = None, fix: Fix | None = None) -> Finding:
        if not isinstance(context, self.context):
            msg = f"{self.code} takes {self.context.__name__}, not {type(context).__name__}"
            raise TypeError(msg)
        return Finding(self, context, message, fix)


@context
class Nothing:
    """The context of a rule whose text needs no numbers."""


@dataclass(frozen=True)
class Finding:
    """One thing a framework refuses, silently changes, or is known to trip people up."""

    rule: Rule[Any]
    context: Any
    #: The framework's own text, quoted as it writes it (English), where it has one.
    message: str | None = None
    fix: Fix | None = None
    #: Set where the rule holds only for some releases and no pin says which one runs: then a warning naming both
    #: sides, never an error.
    unpinned: Since | None = None

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def level(self) -> Level:
        return self.effect.level

    @property
    def effect(self) -> Effect:
        return Effect.PITFALL if self.unpinned is not None else self.rule.effect

    def fields(self) -> dict[str, Any]:
        """The context as a mapping, for a template."""
        return {name: getattr(self.context, name) for name in context_fields(type(self.context))}
