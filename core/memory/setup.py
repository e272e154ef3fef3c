"""What a memory estimate is asked for: the training set-up beside the model (no German, no I/O).

Defaults, each chosen for a reason the answer states:

- ``dtype`` bf16: mixed precision as every model in the table was trained.
- ``zero`` 0: plain data parallelism (PyTorch DDP, Megatron without ``--use-distributed-optimizer``).
- ``recompute`` per convention: ``effbatch`` selective (Korthikanti et al. 2022), with a framework given that
  framework's own default (torchtitan selective, the others none); ``korthikanti`` and ``megatron`` start from
  the paper's and Megatron-LM's own default, none.
- ``attention`` flash (Dao et al. 2022: no s × s scores kept), whatever the recomputation; ``korthikanti`` and
  ``megatron`` count the scores where nothing is recomputed, as their formulas do.
- ``nodes``: 8 GPUs a node (HGX/DGX boards), fewer GPUs on one node.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Rules(StrEnum):
    """Whose arithmetic an estimate follows."""

    EFFBATCH = "effbatch"  # ZeRO paper's model states, Korthikanti's Table 2 counted for the real shape
    MEGATRON = "megatron"  # megatron/training/theoretical_memory_usage.py, quirks included
    DEEPSPEED = "deepspeed"  # estimate_zero2/3_model_states_mem_needs, activations by effbatch's rules
    KORTHIKANTI = "korthikanti"  # Table 2 as printed (GPT shape: MLP 4h, full multi-head attention)


class Dtype(StrEnum):
    """The training precision; bf16 and fp16 are mixed precision with fp32 master weights."""

    BF16 = "bf16"
    FP16 = "fp16"
    FP32 = "fp32"
    FP8 = "fp8"  # FP8 matrix products (Transformer Engine, torchao float8): bf16 activations, fp32 master weights
    BF16_TRUE = "bf16-true"  # pure bf16 (Lightning's bf16-true, torchtune): no fp32 copy, AdamW's states in bf16

    @property
    def bytes(self) -> int:
        return 4 if self is Dtype.FP32 else 2


class Framework(StrEnum):
    """Who holds the training state: each keeps its bytes a parameter, buffers and activations its own way."""

    MEGATRON = "megatron"
    DEEPSPEED = "deepspeed"
    FSDP = "fsdp"
    FSDP2 = "fsdp2"
    TORCHTITAN = "torchtitan"
    DDP = "ddp"
    HUGGINGFACE = "huggingface"
    LIGHTNING = "lightning"  # Lightning Fabric (LitGPT): FSDP1 with no_backward_sync, bf16-true
    OLMO_CORE = "olmo_core"  # OLMo-core's train module: FSDP2, the LM head and its loss compiled with the model


class Attention(StrEnum):
    """The attention kernel: FlashAttention keeps no s × s scores, eager attention does."""

    FLASH = "flash"
    EAGER = "eager"
    TRITON = "triton"  # FlashAttention in Triton (llm-foundry's attn_impl: triton): no scores kept, a slower kernel


class Recompute(StrEnum):
    """Activation recomputation (Korthikanti et al. 2022 §5: selective = the attention core only)."""

    NONE = "none"
    SELECTIVE = "selective"
    FULL = "full"


class Offload(StrEnum):
    """What ZeRO-Offload moves to CPU memory: the optimizer states, or (ZeRO-3) the parameters too."""

    NONE = "none"
    OPTIMIZER = "optimizer"
    PARAMS = "params"


class Optimizer(StrEnum):
    """Who keeps the optimizer's state: the framework's own (Megatron-core's distributed optimizer, torch's AdamW,
    DeepSpeed's ZeRO), or Apex's DistributedFusedAdam as NeMo runs it (``optim.name: distributed_fused_adam``)."""

    OWN = "own"
    DISTRIBUTED_FUSED_ADAM = "distributed_fused_adam"


#: GPUs a node when ``nodes=`` is not given: the 8 of an HGX/DGX board.
GPUS_PER_NODE = 8


@dataclass(frozen=True)
class Setup:
    """One training set-up: the cluster split, the batch on one GPU and the memory techniques.

    ``accumulation`` is the number of micro-batches per step (Megatron's ``num_microbatches``); None when
    unknown, then a pipeline stage is taken to hold PP micro-batches. ``recompute`` None takes the
    convention's default. ``nodes`` None: ``ceil(gpus / 8)``. ``framework`` None: the ZeRO paper's
    convention; ``attention`` None: as ``recompute`` implies; ``net_gbps`` (the inter-node bandwidth of one
    GPU, in Gbit/s) None: the GPU type's usual network.
    """

    gpus: int = 1
    tp: int = 1
    pp: int = 1
    cp: int = 1
    sp: int = 1
    ep: int = 1
    #: Megatron's ``--expert-tensor-parallel-size``: the experts' own TP degree; None takes TP (parallel_state.py
    #: lines 871-872: ``expert_tensor_parallel_size = tensor_model_parallel_size`` where it is not given).
    etp: int | None = None
    vpp: int | None = None
    micro_batch: int = 1
    accumulation: int | None = None
    seq_len: int | None = None
    dtype: Dtype = Dtype.BF16
    zero: int = 0
    distributed_optimizer: bool = False
    offload: Offload = Offload.NONE
    recompute: Recompute | None = None
    sequence_parallel: bool = False
    largest_layer: int | None = None
    zero_init: bool = True
    #: torch.compile on (``compile=ja``): where the framework then compiles its loss, the loss keeps less.
    compile: bool = False
    #: Hugging Face's ``use_cache`` left on in training (``use_cache=ja``): every layer's K and V returned.
    use_cache: bool = False
    #: Megatron's ``--cross-entropy-loss-fusion`` (``loss_fusion=ja``): its fused vocabulary-parallel loss.
    loss_fusion: bool = False
    #: Megatron's ``--tp-comm-overlap`` (``tp_comm_overlap=ja``): Transformer Engine's userbuffers overlap TP's
    #: communication with the GEMMs.
    tp_comm_overlap: bool = False
    #: fp32 parameters under ``torch.autocast`` without FSDP's MixedPrecision (``autocast=ja``): FSDP gathers fp32,
    #: and the residual stream stays fp32.
    autocast: bool = False
    #: Apex's DistributedFusedAdam (``optimizer=distributed_fused_adam``) in place of the framework's own optimizer.
    optimizer: Optimizer = Optimizer.OWN
    #: The dtype DistributedFusedAdam keeps and reduces the gradients in (NeMo's ``optim.grad_sync_dtype``,
    #: ``grad_sync=``); None: the optimizer's dtype, fp32 (apex distributed_fused_adam.py lines 586-587).
    grad_sync: Dtype | None = None
    #: The dtype DistributedFusedAdam keeps Adam's moments in (NeMo's ``optim.dtype``, ``optim_dtype=``); None: fp32
    #: (megatron_base_model.py line 774).
    optim_dtype: Dtype | None = None
    #: NeMo's ``fp8_params``: Transformer Engine's weights held as FP8, so DistributedFusedAdam keeps a copy of the
    #: parameters in its dtype (``store_params``, megatron_base_model.py lines 783-784).
    fp8_params: bool = False
    nodes: int | None = None
    rules: Rules = Rules.EFFBATCH
    framework: Framework | None = None
    attention: Attention | None = None
    net_gbps: float | None = None

    @property
    def data_parallel(self) -> int:
        """d = GPUs / (TP · PP · CP · SP), at least 1."""
        return max(1, self.gpus // (self.tp * self.pp * self.cp * self.sp))

    @property
    def expert_tp(self) -> int:
        """The TP degree the experts' weights split over: ``etp`` where given, else TP."""
        return self.etp or self.tp

    @property
    def expert_group(self) -> int:
        """The expert parameters' data-parallel group, at least 1: GPUs / (ETP · EP · PP) (parallel_state.py line 880
        ``expert_data_parallel_size = world_size // expert_tensor_model_pipeline_parallel_size``), which with ETP = TP
        is (d · CP) / EP."""
        return max(1, self.data_parallel * self.cp * self.tp // (self.expert_tp * self.ep))

    @property
    def node_count(self) -> int:
        return self.nodes or -(-self.gpus // GPUS_PER_NODE)

    @property
    def gpus_per_node(self) -> int:
        return max(1, self.gpus // self.node_count)

    @property
    def in_flight(self) -> int:
        """Micro-batches the first pipeline stage holds at once in 1F1B: min(a, PP) (PP where a is unknown)."""
        return self.pp if self.accumulation is None else min(self.accumulation, self.pp)

    @property
    def recompute_used(self) -> Recompute:
        """The recomputation in force: as given, else the convention's default."""
        if self.recompute is not None:
            return self.recompute
        if self.framework is not None and self.rules is Rules.EFFBATCH:
            return Recompute.SELECTIVE if self.framework is Framework.TORCHTITAN else Recompute.NONE
        return Recompute.SELECTIVE if self.rules in (Rules.EFFBATCH, Rules.DEEPSPEED) else Recompute.NONE

    @property
    def attention_used(self) -> Attention:
        """The attention kernel: as given, else FlashAttention (every framework's default for these models);
        Megatron's and Korthikanti's own rules count the s × s scores wherever nothing is recomputed."""
        if self.attention is not None:
            return self.attention
        return Attention.FLASH if self.rules in (Rules.EFFBATCH, Rules.DEEPSPEED) else Attention.EAGER
