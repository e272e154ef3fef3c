"""A training step's time, part by part: what the scaling answer and the planner rank by.

``predict(model, params, setup, gpu)`` is the one entry. It answers the seconds a step spends in each
``Part`` that the layout cannot hide (compute, each kind of communication, the pipeline bubble, the
optimizer step), the tokens a step trains on, and from those the step time, tokens per second and the
MFU that follows (an output, not an input). The first version counts compute alone at ``DEFAULT_MFU``
and says so in ``assumed``; the parts beside compute are where communication, bubble and optimizer go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Setup
from effbatch.core.memory.time import DEFAULT_MFU, flops_per_token


class Part(StrEnum):
    """Where a step's seconds go (only what is exposed: overlapped communication costs nothing)."""

    COMPUTE = "compute"
    RECOMPUTE = "recompute"
    DATA_PARALLEL = "data_parallel"
    TENSOR_PARALLEL = "tensor_parallel"
    PIPELINE_BUBBLE = "pipeline_bubble"
    CONTEXT_PARALLEL = "context_parallel"
    EXPERT_PARALLEL = "expert_parallel"
    OPTIMIZER = "optimizer"


class Assumed(StrEnum):
    """An input the prediction takes without the user having given it, for the answer to say."""

    MFU = "mfu"  # compute at a fixed share of the peak
    NETWORK = "network"  # the inter-node bandwidth a GPU type's nodes usually have
    KERNEL_EFFICIENCY = "kernel_efficiency"  # the share of the peak a layer's matrix products reach


@dataclass(frozen=True)
class StepPrediction:
    """Seconds a step spends in each part, and what follows from them."""

    seconds: Mapping[Part, float]
    tokens_per_step: int
    flops_per_token: float
    gpus: int
    peak_flops: float
    assumed: tuple[Assumed, ...] = field(default=())

    @property
    def step_seconds(self) -> float:
        return sum(self.seconds.values())

    @property
    def tokens_per_second(self) -> float:
        return self.tokens_per_step / self.step_seconds

    @property
    def mfu(self) -> float:
        """Model FLOPs a step over what the GPUs could compute in its time."""
        return self.flops_per_token * self.tokens_per_step / (self.step_seconds * self.gpus * self.peak_flops)

    @property
    def bound_by(self) -> Part:
        """The part beside compute that costs most, or compute when nothing else costs anything."""
        others = {part: s for part, s in self.seconds.items() if part is not Part.COMPUTE and s > 0}
        return max(others, key=lambda part: others[part]) if others else Part.COMPUTE


def tokens_per_step(setup: Setup) -> int:
    """T = b · a · d · L (a = 1 where the set-up leaves it open)."""
    if setup.seq_len is None:
        msg = "a step's tokens need the sequence length"
        raise ValueError(msg)
    return setup.micro_batch * (setup.accumulation or 1) * setup.data_parallel * setup.seq_len


def predict(model: ModelSpec | None, params: int, setup: Setup, gpu: GpuSpec) -> StepPrediction:
    """A step of ``setup`` on ``gpu``: compute at ``DEFAULT_MFU`` (no communication modelled yet)."""
    tokens = tokens_per_step(setup)
    per_token = flops_per_token(model, params, setup.seq_len, setup.rules)
    compute = per_token * tokens / (setup.gpus * gpu.peak_flops * DEFAULT_MFU)
    return StepPrediction(
        seconds=MappingProxyType({Part.COMPUTE: compute}),
        tokens_per_step=tokens,
        flops_per_token=per_token,
        gpus=setup.gpus,
        peak_flops=gpu.peak_flops,
        assumed=(Assumed.MFU,),
    )
