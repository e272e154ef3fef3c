"""A training step's time, part by part: what the scaling answer and the planner rank by.

``predict(model, params, setup, gpu)`` is the one entry. It answers the seconds a step spends in each
``Part`` that the layout cannot hide (compute, each kind of communication, the pipeline bubble, the
optimizer step), the tokens a step trains on, and from those the step time, tokens per second and the
MFU that follows (an output, not an input).

Compute and recomputation come from the kernels each GPU runs (``core.memory.kernels``: matrix products at
the share of the peak their shapes reach, FlashAttention, memory-bound work, FP8's casts), communication from
the layout and the links (``core.memory.comms``), the pipeline bubble from Narayanan et al. 2021 (§2.2.2):
(p − 1)/(v · m) of a pipeline's busy time, p stages, v virtual stages each, m micro-batches a step, plus the
wait for the last stage, which holds the output layer and the loss besides its layers. What the
prediction takes without the user having said it is named in ``assumed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from effbatch.core.memory import comms, moe_step, zero_step
from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.kernels import kernels, output_layer_seconds
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Dtype, Setup
from effbatch.core.memory.time import flops_per_token


class Part(StrEnum):
    """Where a step's seconds go (only what is exposed: overlapped communication costs nothing)."""

    COMPUTE = "compute"
    RECOMPUTE = "recompute"
    DATA_PARALLEL = "data_parallel"
    TENSOR_PARALLEL = "tensor_parallel"
    PIPELINE_BUBBLE = "pipeline_bubble"
    CONTEXT_PARALLEL = "context_parallel"
    EXPERT_PARALLEL = "expert_parallel"
    MOE_ROUTING = "moe_routing"
    OPTIMIZER = "optimizer"


class Assumed(StrEnum):
    """An input the prediction takes without the user having given it, for the answer to say."""

    MFU = "mfu"  # compute at a fixed share of the peak
    NETWORK = "network"  # the inter-node bandwidth a GPU type's nodes usually have
    KERNEL_EFFICIENCY = "kernel_efficiency"  # the share of the peak a layer's matrix products reach
    NO_FP8 = "no_fp8"  # dtype=fp8 on a card without FP8 matrix units: the products run at BF16 speed
    KERNEL_LAUNCH = "kernel_launch"  # an MoE layer's host time: a fixed time to launch each expert's kernels
    DEEPSPEED_DEFAULTS = "deepspeed_defaults"  # ZeRO's traffic by DeepSpeed's defaults (overlap_comm, buckets, reuse)


@dataclass(frozen=True)
class StepPrediction:
    """Seconds a step spends in each part, and what follows from them."""

    seconds: Mapping[Part, float]
    tokens_per_step: int
    flops_per_token: float
    gpus: int
    peak_flops: float
    assumed: tuple[Assumed, ...] = field(default=())
    matmul_efficiency: float | None = None  # the share of the BF16 peak the products reach, shapes included
    net_gbps: float | None = None  # the inter-node bandwidth a GPU the prediction used (given or the card's)

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
    """A step of ``setup`` on ``gpu``: its kernels, the communication the layout cannot hide, the pipeline
    bubble and the optimizer step, in seconds on one GPU (all GPUs run in lockstep)."""
    tokens = tokens_per_step(setup)
    per_token = flops_per_token(model, params, setup.seq_len, setup.rules)
    work = kernels(model, per_token, setup, gpu)
    lk = comms.links(setup, gpu)
    tp = comms.tensor_parallel(model, setup, lk)
    busy = work.compute + work.recompute + tp
    seconds = {
        Part.COMPUTE: work.compute,
        Part.RECOMPUTE: work.recompute,
        Part.DATA_PARALLEL: zero_step.data_parallel(model, params, setup, lk, work)
        if zero_step.applies(setup)
        else comms.data_parallel(model, params, setup, lk, work),
        Part.TENSOR_PARALLEL: tp,
        Part.PIPELINE_BUBBLE: _bubble(model, setup, gpu, busy),
        Part.CONTEXT_PARALLEL: comms.context_parallel(model, setup, lk, work),
        Part.EXPERT_PARALLEL: comms.expert_parallel(model, setup, lk),
        Part.MOE_ROUTING: moe_step.moe_routing(model, setup, gpu),
        Part.OPTIMIZER: comms.optimizer(model, params, setup, gpu, zero_step.step_bytes(setup)),
    }
    return StepPrediction(
        seconds=MappingProxyType(seconds),
        tokens_per_step=tokens,
        flops_per_token=per_token,
        gpus=setup.gpus,
        peak_flops=gpu.peak_flops,
        assumed=_assumed(setup, gpu)
        + ((Assumed.KERNEL_LAUNCH,) if seconds[Part.MOE_ROUTING] else ())
        + ((Assumed.DEEPSPEED_DEFAULTS,) if zero_step.applies(setup) else ()),
        matmul_efficiency=work.matmul_efficiency,
        net_gbps=setup.net_gbps or gpu.net_gbps or None,
    )


def _bubble(model: ModelSpec | None, setup: Setup, gpu: GpuSpec, busy: float) -> float:
    """The pipeline's idle time: (p − 1)/(v · m) of its busy time, and the last stage's output layer and loss,
    which every one of the m + p − 1 slots waits for (the average stage holds 1/p of it)."""
    p, m = setup.pp, setup.accumulation or 1
    if p == 1:
        return 0.0
    imbalance = (m + p - 1) * output_layer_seconds(model, setup, gpu) * (1 - 1 / p)
    return (p - 1) / ((setup.vpp or 1) * m) * busy + imbalance


def _assumed(setup: Setup, gpu: GpuSpec) -> tuple[Assumed, ...]:
    """The kernels' shares always; the network where a step crosses nodes and ``net=`` is not given; FP8 asked of
    a card without it."""
    assumed = [Assumed.KERNEL_EFFICIENCY]
    if setup.node_count > 1 and setup.net_gbps is None:
        assumed.append(Assumed.NETWORK)
    if setup.dtype is Dtype.FP8 and not gpu.fp8_flops:
        assumed.append(Assumed.NO_FP8)
    return tuple(assumed)
