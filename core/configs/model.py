"""What a config check reads, derives and finds, as data; the German wording lives in ``bot.texts.checks``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Framework(StrEnum):
    """The training frameworks whose configs effbatch reads."""

    DEEPSPEED = "deepspeed"
    HUGGINGFACE = "huggingface"
    MEGATRON = "megatron"
    NEMO = "nemo"
    TORCHTITAN = "torchtitan"
    NANOGPT = "nanogpt"
    AXOLOTL = "axolotl"
    OLMO = "olmo"


class Level(StrEnum):
    """How bad a finding is: the framework refuses it or the run differs silently; a known pitfall; a note."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Rule(StrEnum):
    """Each rule a finding comes from, named after the framework's own check; the values are the finding codes."""

    DEEPSPEED_ASSERTION = "deepspeed/batch-assertion"
    DEEPSPEED_FILLED = "deepspeed/filled-in"
    DEEPSPEED_NEEDS_WORLD = "deepspeed/required-world-size"
    DEEPSPEED_MISSING = "deepspeed/missing-batch-size"
    DEEPSPEED_SEQUENCE_PARALLEL = "deepspeed/sequence-parallel"
    DEEPSPEED_AUTOTP = "deepspeed/autotp-counted-as-data-parallel"
    DEEPSPEED_WORLD_UNSET = "deepspeed/world-size-before-launch"
    DEEPSPEED_AUTO_ALONE = "deepspeed/auto-without-trainer"
    HF_TOTAL = "huggingface/total-train-batch-size"
    HF_AUTO_FILLED = "huggingface/deepspeed-auto"
    HF_MISMATCH = "huggingface/deepspeed-mismatch"
    MEGATRON_WORLD = "megatron/world-size-divisible"
    MEGATRON_DEFAULT_GBS = "megatron/global-batch-size-default"
    MEGATRON_GBS = "megatron/global-batch-size-divisible"
    MEGATRON_SEQUENCE_PARALLEL = "megatron/sequence-parallel"
    MEGATRON_SEQUENCE_PARALLEL_OFF = "megatron/sequence-parallel-without-tensor-parallel"
    MEGATRON_EXPERT = "megatron/expert-parallel-divisible"
    MEGATRON_RAMPUP_DEPRECATED = "megatron/rampup-batch-size-deprecated"
    MEGATRON_RAMPUP_INTERVAL = "megatron/rampup-interval"
    MEGATRON_SCHEDULE_WITH_GBS = "megatron/step-schedule-with-global-batch-size"
    MEGATRON_SCHEDULE_START = "megatron/step-schedule-first-threshold"
    MEGATRON_SCHEDULE_ORDER = "megatron/step-schedule-increasing"
    MEGATRON_PHASE = "megatron/phase-divisible"
    NEMO_GBS = "nemo/global-batch-size-divisible"
    NEMO_WORLD = "nemo/world-size-divisible"
    TITAN_DIMS = "torchtitan/parallel-dims"
    TITAN_GBS = "torchtitan/global-batch-size-divisible"
    TITAN_TOKENS = "torchtitan/tokens-per-step-divisible"
    TITAN_LEGACY = "torchtitan/batch-size-is-local"
    TITAN_REGISTRY = "torchtitan/first-config-of-registry"
    NANOGPT_GLOBAL = "nanogpt/accumulation-is-global"
    NANOGPT_DIVISIBLE = "nanogpt/accumulation-divisible"
    NANOGPT_DEFAULTS = "nanogpt/train-py-defaults"
    AXOLOTL_TWO_OF_THREE = "axolotl/two-of-three"
    AXOLOTL_ONLY_ONE = "axolotl/only-one-of-accumulation-and-batch-size"
    AXOLOTL_FLOORED = "axolotl/floored"
    AXOLOTL_PARALLEL = "axolotl/parallel-world-size"
    OLMO_FLOORED = "olmo/floored"
    OLMO_UNEVEN = "olmo/uneven-microbatches"


@dataclass(frozen=True)
class Finding:
    """One thing a framework will refuse, silently change, or is known to trip people up; ``ctx`` holds the numbers."""

    level: Level
    rule: Rule
    ctx: Mapping[str, Any] = field(default_factory=dict)

    @property
    def code(self) -> str:
        return self.rule.value


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
    """One derived number: its rule, the operands in the order the formula names them, and the result."""

    derivation: Derivation
    operands: tuple[int, ...]
    result: int


@dataclass(frozen=True)
class Phase:
    """One phase of a batch-size schedule: from ``start`` samples on, ``global_batch`` sequences a step."""

    start: int
    global_batch: int
    #: Samples in this phase (None: until the end of training).
    samples: int | None = None


@dataclass(frozen=True)
class World:
    """How many processes (GPUs) train, and where that number came from."""

    size: int
    where: str


@dataclass(frozen=True)
class Check:
    """What a framework will really use for a config, how it got there, and what it finds."""

    framework: Framework
    read: tuple[Read, ...]
    world: World | None
    data_parallel: int | None
    micro_batch: int | None
    accumulation: int | None
    global_batch: int | None
    seq_len: int | None
    steps: tuple[Step, ...] = ()
    findings: tuple[Finding, ...] = ()
    schedule: tuple[Phase, ...] = ()

    @property
    def tokens_per_step(self) -> int | None:
        if self.global_batch is None or self.seq_len is None:
            return None
        return self.global_batch * self.seq_len

    @property
    def ok(self) -> bool:
        """No finding at error level: the framework accepts it and trains what the config says."""
        return not any(f.level is Level.ERROR for f in self.findings)


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
