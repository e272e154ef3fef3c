"""What a config check reads, derives and finds, as data; the German wording lives in ``bot.texts.checks``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar, dataclass_transform

if TYPE_CHECKING:
    from core.configs.reading import Parsed
    from core.guidance import ShapeEstimate


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

    def frozen(self: object, name: str, value: object = None) -> None:
        msg = f"cannot assign to field {name!r}"
        raise FrozenInstanceError(msg)

    methods: dict[str, object] = {"__init__": init, "__eq__": equal, "__repr__": shown}
    methods |= {"__hash__": lambda self: hash(values(self)), "__setattr__": frozen, "__delattr__": frozen}
    methods |= {"__match_args__": names, CONTEXT_FIELDS: names}
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


CONTEXT_FIELDS = "__context_fields__"


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

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def level(self) -> Level:
        return self.rule.level

    @property
    def effect(self) -> Effect:
        return self.rule.effect

    def fields(self) -> dict[str, Any]:
        """The context as a mapping, for a template."""
        return {name: getattr(self.context, name) for name in context_fields(type(self.context))}


@dataclass(frozen=True)
class Read:
    """A value as read: the key or flag as written, the value, and where (file and line)."""

    key: str
    value: Any
    where: str


class Derivation(StrEnum):
    """How a number was derived, by the framework's own rule; the bot words each as a formula."""

    WORLD = "world"  # world = nodes × GPUs per node
    DP_MODEL_PARALLEL = "dp_model_parallel"  # d = world / (TP · PP · CP)            Megatron-LM, NeMo
    DP_SEQUENCE_PARALLEL = "dp_sequence_parallel"  # d = world / SP                 DeepSpeed (Ulysses)
    DP_HF = "dp_hf"  # d = world // TP // CP // SP                                   Hugging Face Trainer
    DP_TITAN = "dp_titan"  # d = replicate · shard, shard = world / (replicate · CP · TP · PP)
    DP_AXOLOTL = "dp_axolotl"  # d = world // CP // TP
    DP_WORLD = "dp_world"  # d = world
    B_PRODUCT = "b_product"  # B = b · d · a
    A_FROM_B = "a_from_b"  # a = B / (b · d)
    A_DEEPSPEED = "a_deepspeed"  # a = B // b // d   (DeepSpeed's order)
    B_DEEPSPEED = "b_deepspeed"  # b = B // d // a
    A_NANOGPT = "a_nanogpt"  # a = gradient_accumulation_steps / world
    A_AXOLOTL = "a_axolotl"  # a = batch_size // b
    OLMO_DEVICE = "olmo_device"  # device = G // world
    OLMO_ACCUMULATION = "olmo_accumulation"  # a = device // b
    OLMO_BATCH = "olmo_batch"  # B = device · world
    TITAN_ACCUMULATION = "titan_accumulation"  # a = T / (tokens per microbatch · PP microbatches · d)
    T_PRODUCT = "t_product"  # T = B · L


@dataclass(frozen=True)
class Step:
    """One derived number: its formula's code (a ``Derivation`` or a framework's own), the operands in the order
    the formula names them, and the result."""

    derivation: str
    operands: tuple[int, ...]
    result: int


@dataclass(frozen=True)
class Phase:
    """One phase of a batch-size schedule: from ``start`` samples on, ``global_batch`` sequences a step."""

    start: int
    global_batch: int
    #: Samples in this phase (None: until the end of training).
    samples: int | None = None

    @property
    def optimizer_steps(self) -> int | None:
        return None if self.samples is None else -(-self.samples // self.global_batch)


@dataclass(frozen=True)
class ModelShape:
    """What a config says of the model and the training length, for the batch-size laws (``core.guidance``)."""

    layers: int
    hidden: int
    #: Optimizer steps the run trains for.
    steps: int
    vocab: int | None = None


@dataclass(frozen=True)
class World:
    """How many processes (GPUs) train, and where that number came from."""

    size: int
    where: str


@dataclass(frozen=True)
class Rollout:
    """One rollout of a reinforcement-learning run: P prompts, n samples (responses) each, and how many optimizer
    steps the P · n sequences feed (epochs included); the lengths where the config fixes them."""

    #: P, prompts per rollout (TRL: per generation batch).
    prompts: int | None
    #: n, samples (responses, completions) per prompt.
    samples: int | None
    #: k, optimizer steps one rollout feeds, epochs included; a fraction where they straddle rollouts; None: refused.
    optimizer_steps: float | None
    prompt_len: int | None = None
    response_len: int | None = None
    #: With a dynamic batch size: at most this many tokens in one micro-batch on one GPU (b and a are not fixed).
    token_bound: int | None = None

    @property
    def sequences(self) -> int | None:
        """P · n."""
        if self.prompts is None or self.samples is None:
            return None
        return self.prompts * self.samples

    def as_json(self) -> dict[str, Any]:
        steps = self.optimizer_steps
        return {
            "prompts_per_rollout": self.prompts,
            "samples_per_prompt": self.samples,
            "sequences_per_rollout": self.sequences,
            "optimizer_steps_per_rollout": int(steps) if steps is not None and float(steps).is_integer() else steps,
        }


@dataclass(frozen=True)
class Check:
    """What a framework will really use for a config, how it got there, and what it finds."""

    #: The framework's id, as JSON names it (``deepspeed``, ``megatron`` …).
    framework: str
    read: tuple[Read, ...]
    world: World | None
    data_parallel: int | None
    micro_batch: int | None
    accumulation: int | None
    #: None where the framework refuses to start.
    global_batch: int | None
    seq_len: int | None
    steps: tuple[Step, ...] = ()
    findings: tuple[Finding, ...] = ()
    schedule: tuple[Phase, ...] = ()
    #: The global batch the config asks for, where the framework silently trains another.
    intended: int | None = None
    #: The model's shape and the run's length, where the config states them.
    shape: ModelShape | None = None

    def estimate(self) -> ShapeEstimate | None:
        """N and D from the shape and length read, and the batch-size laws on them (estimates)."""
        tokens = self.tokens_per_step
        if self.shape is None or tokens is None:
            return None
        from core.guidance import shape_guidance  # the published runs' table, only where a check has a shape

        shape = self.shape
        return shape_guidance(shape.layers, shape.hidden, shape.vocab or 0, shape.steps, tokens, self.seq_len)

    #: A reinforcement-learning run's rollout (TRL GRPO, verl, OpenRLHF); None for pre-training and fine-tuning.
    rl: Rollout | None = None

    @property
    def tokens_per_step(self) -> int | None:
        if self.global_batch is None or self.seq_len is None:
            return None
        return self.global_batch * self.seq_len

    @property
    def ok(self) -> bool:
        """No finding at error level: the framework accepts it and trains what the config says."""
        return not any(f.level is Level.ERROR for f in self.findings)

    @property
    def refused(self) -> bool:
        """The framework stops before training."""
        return any(f.effect is Effect.REFUSED for f in self.findings)

    def ordered(self) -> tuple[Finding, ...]:
        """Findings, the worst first."""
        order = {Level.ERROR: 0, Level.WARNING: 1, Level.INFO: 2}
        return tuple(sorted(self.findings, key=lambda f: order[f.level]))

    def as_json(self, describe: Callable[[Finding], str]) -> dict[str, Any]:
        """``effbatch check --json`` (schema in schema/); ``describe`` words a finding for people."""
        data: dict[str, Any] = {
            "framework": self.framework,
            "world_size": self.world.size if self.world else None,
            "data_parallel": self.data_parallel,
            "micro_batch": self.micro_batch,
            "accumulation": self.accumulation,
            "global_batch": self.global_batch,
            "seq_len": self.seq_len,
            "tokens_per_step": self.tokens_per_step,
            "ok": self.ok,
            "findings": [_finding_json(f, describe(f)) for f in self.ordered()],
            "read": [{"key": r.key, "value": _json_value(r.value), "where": r.where} for r in self.read],
        }
        if self.intended is not None:
            data["intended_global_batch"] = self.intended
        if (estimate := self.estimate()) is not None:
            data["guidance"] = estimate.guidance.as_json()
        if self.rl is not None:
            data["rl"] = self.rl.as_json()
        if self.schedule:
            data["schedule"] = [
                {
                    "start_samples": p.start,
                    "global_batch": p.global_batch,
                    "samples": p.samples,
                    "optimizer_steps": p.optimizer_steps,
                }
                for p in self.schedule
            ]
        return data


def _finding_json(finding: Finding, message: str) -> dict[str, Any]:
    data: dict[str, Any] = {"level": finding.level.value, "code": finding.code, "message": message}
    if finding.fix is not None:
        data["fix"] = {"setting": finding.fix.setting, "values": list(finding.fix.values)}
    return data


def _json_value(value: Any) -> Any:
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)


@dataclass(frozen=True)
class Framework:
    """A framework effbatch reads, as its module defines it; ``core.configs.FRAMEWORKS`` lists them in order."""

    #: The id JSON and ``--framework`` use.
    id: str
    #: Whether one source is this framework's config, by what only this framework writes.
    detect: Callable[[Parsed], bool]
    check: Callable[[list[Parsed], World | None], Check]
    rules: tuple[Rule[Any], ...]


class ProblemKind(StrEnum):
    """Why a config cannot be checked at all (exit code 2)."""

    TOO_LARGE = "too_large"
    UNREADABLE = "unreadable"
    UNSAFE = "unsafe"
    UNKNOWN_FORMAT = "unknown_format"
    NOTHING_TO_CHECK = "nothing_to_check"
    WORLD_SIZE_NEEDED = "world_size_needed"
    BAD_VALUE = "bad_value"
    EMPTY = "empty"


class CheckError(ValueError):
    """The input cannot be checked; ``kind`` and ``ctx`` say why."""

    def __init__(self, kind: ProblemKind, **ctx: Any) -> None:
        self.kind = kind
        self.ctx = ctx
        super().__init__(f"{kind.value}: {ctx}")
