"""FLOPs per token and step, step time, days and GPU-hours – and MFU the other way round.

Model FLOPs (what MFU counts; recomputation is not model work):

- ``params=`` only: 6 · N a token (Kaplan et al. 2020; Llama 3's 3,8 · 10²⁵ = 6 · 405B · 15,6T).
- ``korthikanti`` and ``megatron``: 72 · B · s · L · h² · (1 + s/(6h) + V/(16 · L · h)) a step
  (Korthikanti et al. 2022 §6, Narayanan et al. 2021 with 72 for 96 without recomputation).
- ``effbatch`` with a shape: 6 · N_matmul + 12 · L · s · d_attn a token (PaLM, Chowdhery et al. 2022,
  Appendix B): every weight a token multiplies (an MoE layer's top-k experts; not the input embedding,
  a lookup) twice forward and four times backward, plus the attention scores; d_attn = heads · head size.

Step time = FLOPs / (GPUs · peak · MFU); given a step time or tokens per second, MFU follows. Where neither
nor ``mfu=`` is given, ``core.memory.step`` predicts the step part by part and the MFU follows from it
(``Breakdown``); ``DEFAULT_MFU`` is left for a peak typed without a GPU to model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Rules

#: MFU assumed when none is given: well-tuned dense runs report 38–46 % (Llama 3 405B 38–43 %, PaLM
#: 540B 46,2 %); 40 % is a plan's assumption, shown as one.
DEFAULT_MFU = 0.40
SECONDS_PER_DAY = 86_400


def flops_per_token(model: ModelSpec | None, params: int, seq_len: int | None, rules: Rules) -> float:
    """Model FLOPs to train on one token of a sequence of ``seq_len``."""
    if model is None or seq_len is None:
        return 6.0 * (model.active_params if model else params)
    h, layers = model.hidden, model.layers
    if rules in (Rules.KORTHIKANTI, Rules.MEGATRON):
        return 72 * layers * h * h * (1 + seq_len / (6 * h) + model.vocab / (16 * layers * h))
    matmul = model.active_params - model.embedding_params - model.positions * model.hidden
    if model.tied:
        matmul += model.embedding_params  # the tied embedding is the output layer too
    return 6.0 * matmul + 12.0 * layers * seq_len * model.q_dim


class MfuSource(StrEnum):
    """Where an answer's MFU comes from."""

    PREDICTED = "predicted"  # the step predicted part by part
    GIVEN = "given"  # mfu=
    STEP_TIME = "step_time"  # from step_time=
    TOKENS_PER_SECOND = "tokens_per_second"  # from tokens_per_second=
    ASSUMED = "assumed"  # DEFAULT_MFU


@dataclass(frozen=True)
class Breakdown:
    """A predicted step's seconds by part (``core.memory.step.Part`` values) and what the prediction assumed."""

    seconds: Mapping[str, float]
    assumed: tuple[str, ...] = ()
    bound_by: str = "compute"
    matmul_efficiency: float | None = None
    net_gbps: float | None = None

    @property
    def step_seconds(self) -> float:
        return sum(self.seconds.values())

    @property
    def shares(self) -> Mapping[str, float]:
        """Each part's share of the step."""
        step = self.step_seconds
        return MappingProxyType({part: s / step for part, s in self.seconds.items()})


@dataclass(frozen=True)
class TimeEstimate:
    """Time to train: what the input decides (None where it does not)."""

    flops_per_token: float
    peak_flops: float
    gpus: int
    mfu: float
    mfu_assumed: bool
    tokens_per_step: int | None = None
    budget: int | None = None
    source: MfuSource = MfuSource.ASSUMED
    breakdown: Breakdown | None = field(default=None)

    @property
    def flops_per_step(self) -> float | None:
        return self.flops_per_token * self.tokens_per_step if self.tokens_per_step else None

    @property
    def tflops_per_gpu(self) -> float:
        """Model FLOP/s each GPU achieves, in 10¹²."""
        return self.mfu * self.peak_flops / 1e12

    @property
    def tokens_per_second(self) -> float:
        return self.gpus * self.peak_flops * self.mfu / self.flops_per_token

    @property
    def step_seconds(self) -> float | None:
        return self.tokens_per_step / self.tokens_per_second if self.tokens_per_step else None

    @property
    def train_seconds(self) -> float | None:
        return self.budget / self.tokens_per_second if self.budget else None

    @property
    def train_days(self) -> float | None:
        seconds = self.train_seconds
        return seconds / SECONDS_PER_DAY if seconds is not None else None

    @property
    def gpu_hours(self) -> float | None:
        seconds = self.train_seconds
        return seconds * self.gpus / 3600 if seconds is not None else None

    @property
    def total_flops(self) -> float | None:
        return self.flops_per_token * self.budget if self.budget else None


def mfu_from_step_time(flops_per_step: float, seconds: float, gpus: int, peak: float) -> float:
    """MFU = FLOPs a step / (step time · GPUs · peak)."""
    return flops_per_step / (seconds * gpus * peak)


def mfu_from_throughput(flops_per_token: float, tokens_per_second: float, gpus: int, peak: float) -> float:
    """MFU = FLOPs a token · tokens a second / (GPUs · peak)."""
    return flops_per_token * tokens_per_second / (gpus * peak)
