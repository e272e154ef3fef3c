"""What every framework module is given and answers: the shard its GPU holds, and the bytes it keeps for it.

A framework module (``megatron``, ``deepspeed``, ``fsdp``, ``torchtitan``, ``ddp``) reads only this, the set-up
and the model's shape; each byte count names the source line it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from effbatch.core.memory.setup import Dtype, Recompute, Setup


@dataclass(frozen=True)
class Shard:
    """Parameters on the most loaded GPU (first pipeline stage) after TP, PP and EP, before ZeRO/FSDP sharding.

    ``dense_group`` and ``expert_group`` are the data-parallel groups the dense and the expert parameters shard
    over; ``unit`` the largest module gathered whole (ZeRO-3's and FSDP's all-gather unit, after TP).
    """

    dense: float
    expert: float
    dense_group: int
    expert_group: int
    unit: float

    @property
    def params(self) -> float:
        return self.dense + self.expert

    def sharded(self, bytes_each: float) -> float:
        """``bytes_each`` a parameter, split over the data-parallel group each parameter shards over."""
        return bytes_each * (self.dense / self.dense_group + self.expert / self.expert_group)


@dataclass(frozen=True)
class Held:
    """Bytes a framework keeps on the GPU for its shard: the model states and its own buffers."""

    weights: float
    grads: float
    optimizer: float
    buffers: float = 0.0
    cpu: float | None = None


class Kernels(StrEnum):
    """How a framework's layers save tensors for the backward pass."""

    FUSED = "fused"  # Transformer Engine: fused norm + linear, fused bias-SwiGLU (Korthikanti's count)
    EAGER = "eager"  # PyTorch eager modules (Hugging Face, torchtitan): fp32 norm copies, SwiGLU's four tensors


@dataclass(frozen=True)
class Policy:
    """A framework's activation handling: its kernels, its recomputation default, whether its loss is split by TP."""

    kernels: Kernels
    recompute: Recompute
    vocab_parallel_loss: bool
    #: Bytes one logits element costs at the loss (bf16 logits, their fp32 copy and its softmax/gradient).
    logits_bytes: float = 10.0
    #: Whether the forward's bf16 copies of fp32 weights (autocast's cache) stay until the backward.
    autocast_copies: bool = False
    #: Bytes a logit costs where the framework compiles its loss under ``compile=ja`` (None: it does not).
    compiled_logits_bytes: float | None = None
    #: Bytes a logit costs with the framework's fused loss (``loss_fusion=ja``; None: it has none modelled).
    fused_logits_bytes: float | None = None
    #: Whether the gradients are tensors of their own that the step frees (``optimizer.zero_grad()``), rather than
    #: a buffer kept for the whole run (Megatron's grad buffer, DeepSpeed's partitions): see ``held.overlap``.
    grads_freed: bool = False
    #: Whether the last pipeline stage (its own output weight, the loss's logits, 1F1B's one micro-batch) is weighed
    #: against the first as the most loaded GPU: read in Megatron's schedules and language module; other
    #: frameworks' pipeline schedules not yet read, so their first stage stands.
    last_stage_weighed: bool = False


def mixed(setup: Setup) -> bool:
    """Mixed precision (bf16, fp16, fp8 matrix products) keeps fp32 master weights beside the low-precision copy."""
    return setup.dtype not in (Dtype.FP32, Dtype.BF16_TRUE)


def pure(setup: Setup) -> bool:
    """Pure bf16: the parameters, their gradients and AdamW's states (torch/optim/adamw.py: ``torch.zeros_like(p)``,
    the parameter's dtype) all in bf16, no fp32 copy."""
    return setup.dtype is Dtype.BF16_TRUE
