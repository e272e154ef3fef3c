"""What a command asks about memory and time: the model, its shape, the set-up, the time.

Part of ``PlanRequest`` as its ``training`` field, None when none of these keys was given. Values are
read by ``core.training_keys.read_value``; here they are only held and validated for their types.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from effbatch.core.memory.setup import Attention, Dtype, Framework, Offload, Optimizer, Recompute, Rules
from effbatch.core.training_keys import SHAPE_KEYS, TrainingKey, canonical_value


class TrainingRequest(BaseModel):
    """The memory and time keys given, each None when not; their names are ``TrainingKey`` values."""

    model_config = ConfigDict(frozen=True, extra="forbid", protected_namespaces=(), defer_build=True)

    model: str | None = None
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    ffn: int | None = None
    vocab: int | None = None
    swiglu: bool | None = None
    tied: bool | None = None
    experts: int | None = None
    topk: int | None = None
    moe_ffn: int | None = None
    head_dim: int | None = None
    gpu: str | None = None
    gpu_mem: int | None = None
    dtype: Dtype | None = None
    zero: int | None = None
    distributed_optimizer: bool | None = None
    offload: Offload | None = None
    recompute: Recompute | None = None
    sequence_parallel: bool | None = None
    ep: int | None = None
    etp: int | None = None
    vpp: int | None = None
    largest_layer: int | None = None
    zero_init: bool | None = None
    compile: bool | None = None
    use_cache: bool | None = None
    loss_fusion: bool | None = None
    tp_comm_overlap: bool | None = None
    autocast: bool | None = None
    optimizer: Optimizer | None = None
    grad_sync: Dtype | None = None
    optim_dtype: Dtype | None = None
    fp8_params: bool | None = None
    nodes: int | None = None
    rules: Rules | None = None
    framework: Framework | None = None
    attention: Attention | None = None
    net_gbps: float | None = None
    mfu: float | None = None
    peak: float | None = None
    step_time: float | None = None
    tokens_per_second: float | None = None

    def value(self, key: TrainingKey) -> Any:
        """The value given for ``key``, or None."""
        return getattr(self, key.value)

    @property
    def given(self) -> dict[TrainingKey, Any]:
        """The keys given and their values, in table order."""
        return {key: value for key in TrainingKey if (value := self.value(key)) is not None}

    @property
    def shape_given(self) -> bool:
        """Whether any key of the model's shape was given (a model name or ``layers=`` …)."""
        return self.model is not None or any(self.value(key) is not None for key in SHAPE_KEYS)


def training_parts(training: TrainingRequest | None) -> list[str]:
    """The canonical ``key=value`` words of the memory and time keys (``modell=llama3.1-8b gpu=h100``)."""
    if training is None:
        return []
    return [f"{key.key}={canonical_value(key, value)}" for key, value in training.given.items()]
