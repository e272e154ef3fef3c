"""What a config check reads, derives and finds, as data; the German wording lives in ``bot.texts.checks``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from effbatch.core.configs.base.memory import CheckMemory, MemoryFacts
from effbatch.core.configs.base.pyscript import Via
from effbatch.core.configs.base.rules import Effect, Finding, Level, Rule
from effbatch.core.configs.base.source import Parsed
from effbatch.core.configs.base.versions import Pins

if TYPE_CHECKING:
    from effbatch.core.guidance import ShapeEstimate


@dataclass(frozen=True)
class Read:
    """A value as read: the key or flag as written, the value, and where (file and line); where a later layer of
    the run set it again, what it replaced (``over``: the value and where); where a script's expression only names
    it, where it was set (``via``: the default of ``--bs`` in ``train.py:22``)."""

    key: str
    value: Any
    where: str
    over: tuple[Any, str] | None = None
    via: Via | None = None


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
    #: One process started by plain ``python`` (no launcher): a framework that starts its own processes from
    #: inside the script (Lightning's Trainer) decides the world itself.
    single: bool = False


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
        from effbatch.core.guidance import shape_guidance  # the published runs' table, only where a check has a shape

        shape = self.shape
        return shape_guidance(shape.layers, shape.hidden, shape.vocab or 0, shape.steps, tokens, self.seq_len)

    #: A reinforcement-learning run's rollout (TRL GRPO, verl, OpenRLHF); None for pre-training and fine-tuning.
    rl: Rollout | None = None
    #: What the files fix of the model and the memory techniques, where they fix the model.
    memory_facts: MemoryFacts | None = None
    #: Memory per GPU estimated from ``memory_facts`` and the world (``core.configs.memory``).
    memory: CheckMemory | None = None

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
            "read": [_read_json(r) for r in self.read],
        }
        if self.intended is not None:
            data["intended_global_batch"] = self.intended
        if (estimate := self.estimate()) is not None:
            data["guidance"] = estimate.guidance.as_json()
        if self.rl is not None:
            data["rl"] = self.rl.as_json()
        if self.memory is not None:
            data["memory"] = self.memory.as_json()
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


def _read_json(read: Read) -> dict[str, Any]:
    data: dict[str, Any] = {"key": read.key, "value": _json_value(read.value), "where": read.where}
    if read.over is not None:
        data["overrides"] = {"value": _json_value(read.over[0]), "where": read.over[1]}
    if read.via is not None:
        via: dict[str, Any] = {"origin": read.via.origin.value, "name": read.via.name, "where": read.via.where}
        if read.via.replaced is not None:
            via["replaces"] = {"value": _json_value(read.via.replaced[0]), "where": read.via.replaced[1]}
        data["via"] = via
    return data


def _json_value(value: Any) -> Any:
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)


@dataclass(frozen=True)
class Framework:
    """A framework effbatch reads, as its module defines it; ``core.configs.registry`` lists them in order."""

    #: The id JSON and ``--framework`` use.
    id: str
    #: Whether one source is this framework's config, by what only this framework writes.
    detect: Callable[[Parsed], bool]
    #: The check of the sources with the world size given from outside and the releases the run pins.
    check: Callable[[list[Parsed], World | None, Pins], Check]
    rules: tuple[Rule[Any], ...]
