"""What a config fixes of the model and of how its memory is spent, for the memory estimate per GPU.

A framework's check fills ``MemoryFacts`` where its files fix the model (a shape, or a name ``core.memory``'s
table knows: a Hugging Face id, a torchtitan flavour, a MaxText ``model_name``) and says by whose convention
the estimate goes (``megatron``, ``deepspeed``, ``effbatch``); ``core.configs.memory`` estimates it with the
check's world, micro-batch and sequence length. Plain data: ``core.memory`` is imported only where a check has
a model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from effbatch.core.configs.base.rules import Fix

if TYPE_CHECKING:
    from effbatch.core.memory import GpuSpec, MemoryEstimate, ModelSpec, Setup
    from effbatch.core.memory.fit import Fit


@dataclass(frozen=True)
class Architecture:
    """A decoder's shape as a config writes it; the names are ``core.memory.ModelSpec``'s. ``vocab`` None: the
    tokenizer's, which the config does not say (a table model of the same shape gives it, else it is left out)."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    vocab: int | None = None
    swiglu: bool = True
    tied: bool = False
    layernorm: bool = False
    bias: bool = False
    qkv_bias: bool = False
    head_dim: int | None = None
    experts: int = 0
    topk: int = 0
    moe_ffn: int = 0
    shared_ffn: int = 0
    dense_layers: int = 0


@dataclass(frozen=True)
class MemoryFacts:
    """The model and the memory techniques a run's files fix, and where the model came from.

    ``rules``: ``megatron`` (Megatron-LM, NeMo, Megatron-Bridge), ``deepspeed`` (a DeepSpeed ZeRO-2/3 config),
    ``effbatch`` otherwise. ``model``: a name for ``core.memory.find_model``; ``architecture``: the shape where
    the files give it instead. ``dtype`` bf16/fp16/fp32, ``offload`` none/optimizer/params, ``recompute``
    none/selective/full (None: the convention's default). ``gpu``: an accelerator the files name.
    ``micro_setting``: the micro-batch's setting as the config writes it, for a fix.
    """

    rules: str
    where: str
    model: str | None = None
    #: The named model's vocabulary where the run's tokenizer is another (OLMo-core's dolma2 for a Llama shape).
    vocab: int | None = None
    architecture: Architecture | None = None
    tp: int = 1
    pp: int = 1
    cp: int = 1
    sp: int = 1
    ep: int = 1
    #: The experts' own TP degree (Megatron's ``--expert-tensor-parallel-size``); None: TP, as Megatron takes it.
    etp: int | None = None
    vpp: int | None = None
    dtype: str | None = None
    zero: int = 0
    distributed_optimizer: bool = False
    #: Apex's DistributedFusedAdam as NeMo's ``optim.name`` asks (``distributed_fused_adam``), else ``own``; its
    #: ``optim.grad_sync_dtype`` and ``optim.dtype`` (bf16/fp32, None: unset) and the model's ``fp8_params``.
    optimizer: str = "own"
    grad_sync: str | None = None
    optim_dtype: str | None = None
    fp8_params: bool = False
    offload: str = "none"
    recompute: str | None = None
    sequence_parallel: bool = False
    #: Data-parallel replicas that each hold their own sharded copy (HSDP's replicate degree): ZeRO shards over the
    #: rest of the data-parallel GPUs.
    replicas: int = 1
    gpu: str | None = None
    micro_setting: Fix | None = None
    #: What the estimate leaves out of this framework's set-up, as a code the answer words (``partial_recompute``).
    caveat: str = ""


@dataclass(frozen=True)
class CheckMemory:
    """The estimate for a checked run: the model as estimated, the set-up, the bytes per GPU, the GPU and the fit.

    ``vocab``: where the vocabulary came from – ``config``, ``table`` (the table model of the same shape, named by
    ``like``), or ``unknown`` (the embedding left out). ``gpu_from``: ``given`` (``--gpu``, ``gpu=``) or ``config``.
    """

    facts: MemoryFacts
    model: ModelSpec
    setup: Setup
    estimate: MemoryEstimate
    gpu: GpuSpec | None = None
    fit: Fit | None = None
    vocab: str = "config"
    like: str = ""
    gpu_from: str = ""

    def as_json(self) -> dict[str, Any]:
        """schema/'s ``memory``, the keys the calculator's ``--json`` has."""
        from effbatch.core.memory.report import memory_json

        return memory_json(self.estimate, self.setup.micro_batch, self.model, self.gpu, self.fit)
