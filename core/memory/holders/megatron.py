"""Megatron-LM (and NeMo / Megatron-Bridge, which train with its core): 18 bytes a parameter, 6 + 12/d with the
distributed optimizer.

- megatron/core/distributed/param_and_grad_buffer.py, ``_ParamAndGradBuffer.__init__``: ``self.param_data`` in the
  parameters' dtype (bf16: 2 bytes) and ``self.grad_data`` in ``grad_dtype``, fp32 (4 bytes) because
  megatron/training/arguments.py sets ``accumulate_allreduce_grads_in_fp32 = True`` for bf16 ("bfloat16 requires
  gradient accumulation and all-reduce to be done in fp32"). Both buffers stay whole with the distributed
  optimizer: it reduce-scatters into the grad buffer and all-gathers into the param buffer.
- megatron/core/optimizer/optimizer.py, ``Float16OptimizerWithFloat16Params``: fp32 main parameters (4) and
  Adam's ``exp_avg`` and ``exp_avg_sq`` (8); megatron/core/optimizer/distrib_optimizer.py keeps those 12 only for
  the rank's 1/d of the buffer (``shard_main_param``), d the data-parallel (× context-parallel) group.
- megatron/training/theoretical_memory_usage.py line 296 says the same: 18 bytes, or 6 + 12/d (read at
  NVIDIA/Megatron-LM@d98e8a64; arguments.py line 1216 the fp32 gradients).

Activations: Transformer Engine's fused layers save what Korthikanti et al. count; the loss is vocabulary-parallel
(megatron/core/tensor_parallel/cross_entropy.py: each rank its V/t columns; line 25 ``vocab_parallel_logits.float()``
beside the bf16 logits, lines 61-62 ``torch.exp(..., out=exp_logits)`` in place, line 77 ``exp_logits.div_`` the
softmax kept for the backward, which turns it into the gradient in place: 2 + 4 = 6 bytes a logit).
The fused loss (``--cross-entropy-loss-fusion``, ``loss_fusion=ja``; language_module.py lines 173-198, the native
implementation, the only one arguments.py allows at d98e8a64) runs the same steps as functions under ``jit_fuser``,
which is ``torch.compile`` from PyTorch 2.2 (megatron/core/jit.py line 21; fused_cross_entropy.py lines 12-64): the
compiled graph is functionalised, so the in-place updates of its fp32 input (cross_entropy.py lines 42, 62 and 77
forward, 111 and 114 backward) are computed into a buffer of its own and copied back – one more fp32 copy of the
local logits alive at the peak: 6 + 4 = 10 bytes a logit. Liger-Kernel's benchmark of the two (benchmark/scripts/
benchmark_megatron_cross_entropy.py at ead96b61, one forward and backward of bf16 logits, max_memory_allocated)
measures the same 4 bytes: 12 against 8 bytes a logit with the input and its gradient, at every vocabulary and TP.
Recomputation: none unless ``--recompute-granularity`` is given (arguments.py default None).

TP communication overlap (``--tp-comm-overlap``, ``tp_comm_overlap=ja``; megatron/training/initialize.py lines 218-250
call Transformer Engine's ``initialize_ub`` with the shape (s · b / CP, h)) costs twice:

- inside PyTorch's counters, the cuBLAS workspace of the GEMMs that run with userbuffers: three streams' worth,
  3 × (32 MiB + 1 KiB), beside the one workspace every other GEMM uses (transformer_engine/pytorch/cpp_extensions/
  gemm.py lines 37-62, ``get_cublas_workspace(device, ub=True, …)`` cached apart; Hopper's size – the overlap needs
  CUDA multicast, module/base.py line 220, so it runs on Hopper and later unless ``UB_SKIPMC`` is set);
- outside them, the userbuffers themselves: ``initialize_ub`` registers one per GEMM of the default set (module/base.py
  lines 336-346 and 560-569: twelve, ``qkv``/``proj``/``fc1``/``fc2`` × fprop, dgrad, wgrad), each of the whole shape
  (common/comm_gemm_overlap/comm_gemm_overlap.cpp line 419; a ring-exchange reduce-scatter (2 TP − 1)/TP of it, line
  819, which the default set has none of), allocated by ``cudaMalloc`` or ``cuMemCreate``
  (userbuffers/userbuffers-host.cpp ``register_user_buffer_collective``), not by PyTorch; the eight all-gather
  buffers in FP8 (one byte) under FP8 training, the four reduce-scatter ones in bf16 (module/base.py lines 472-476).
  A ``--tp-comm-overlap-cfg`` that changes the methods changes this; the default set is counted.
(read at NVIDIA/TransformerEngine@d0067d0d)

Apex's DistributedFusedAdam (``optimizer=distributed_fused_adam``: NeMo's recipes' ``optim.name``; then NeMo wraps the
model in no Megatron-core ``DistributedDataParallel``, megatron_gpt_model.py lines 519-549 at NVIDIA/NeMo@v2.0.0rc0,
the 24.05 container's NeMo, so there is no fp32 grad buffer) keeps, read in apex/contrib/optimizers/
distributed_fused_adam.py at NVIDIA/apex@f3f04924:

- the parameters whole, bf16 under NeMo's ``megatron_amp_O2`` (the contiguous param buffer is them, lines 1022-1095);
- one contiguous gradient buffer over all parameters, whole, in ``grad_sync_dtype`` (``_init_grad_buffer`` lines
  1103-1123; NeMo sets ``contiguous_grad_buffer`` True, megatron_base_model.py line 766), which defaults to the
  optimizer's dtype, fp32 (lines 586-587), and NeMo's ``optim.grad_sync_dtype: bf16`` (``grad_sync=bf16``) halves;
- the reduce-scattered shard of it, ``sync_grads_shard``, 1/d in the same dtype (lines 1856-1859, kept as
  ``grads_shard`` until the step, line 1918; with d = 1 the bucket is its own shard, line 1852);
- Adam's ``exp_avg`` and ``exp_avg_sq`` in the optimizer's dtype (NeMo's ``optim.dtype``, ``optim_dtype=``, fp32
  unless set: megatron_base_model.py line 774), 1/d each (``StateBucket`` lines 466-477), and a master copy as NeMo
  asks (megatron_base_model.py lines 778-792): for a bf16 model under an fp32 optimizer not an fp32 copy but the
  int16 remainders that complete the bf16 parameters to fp32 (``store_param_remainders``, lines 459-464), none where
  the two dtypes agree, the parameters in the optimizer's dtype (``store_params``, lines 451-457) with FP8 weights
  (``fp8_params=ja``) or otherwise. d is the data-parallel group with CP (NeMo's distributed_adam.py line 72).
  FP8 weights are still counted at the bf16 width: Transformer Engine's Float8Tensor (its data and any cached
  transpose) not read.
"""

from __future__ import annotations

from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard, mixed
from effbatch.core.memory.setup import Dtype, Optimizer, Recompute, Setup

#: Transformer Engine's cuBLAS workspace on Hopper and later: 32 MiB + 1.024 bytes (gemm.py line 44).
CUBLAS_WORKSPACE_BYTES = 32 * 1024 * 1024 + 1024
#: The streams the userbuffer GEMMs get a workspace each (gemm.py line 37, ``_NUM_MAX_UB_STREAMS``).
UB_STREAMS = 3
#: The default userbuffers: eight all-gather and four reduce-scatter GEMMs (module/base.py lines 336-346).
UB_ALL_GATHER, UB_REDUCE_SCATTER = 8, 4

POLICY = Policy(
    kernels=Kernels.FUSED,
    recompute=Recompute.NONE,
    vocab_parallel_loss=True,
    logits_bytes=6.0,
    fused_logits_bytes=10.0,
    last_stage_weighed=True,
)


def held(shard: Shard, setup: Setup) -> Held:
    """bf16 param buffer 2, fp32 grad buffer 4, fp32 main params + Adam 12 (split by d with the distributed
    optimizer, or ZeRO-1 asked)."""
    n = shard.params
    weights = setup.dtype.bytes * n
    if setup.optimizer is Optimizer.DISTRIBUTED_FUSED_ADAM:
        return _distributed_fused_adam(shard, setup)
    grads = 4 * n
    states = 12 if mixed(setup) else 8  # fp32 training: no separate main parameters, Adam's two moments
    distributed = setup.distributed_optimizer or setup.zero >= 1
    optimizer = shard.sharded(states) if distributed else states * n
    return Held(weights, grads, optimizer, buffers=UB_STREAMS * CUBLAS_WORKSPACE_BYTES if _overlapped(setup) else 0.0)


def _distributed_fused_adam(shard: Shard, setup: Setup) -> Held:
    """Apex's DistributedFusedAdam: the parameters, the whole gradient buffer and its reduced 1/d in the grad-sync
    dtype, Adam's two moments and the master copy (or its remainders) in the optimizer's dtype, 1/d."""
    n = shard.params
    state = setup.optim_dtype or Dtype.FP32
    sync = (setup.grad_sync or state).bytes  # grad_sync_dtype None: the optimizer's dtype (lines 586-587)
    reduced = shard.sharded(sync) if shard.dense_group > 1 else 0.0  # d = 1: the bucket is its shard (line 1852)
    buffers = UB_STREAMS * CUBLAS_WORKSPACE_BYTES if _overlapped(setup) else 0.0
    optimizer = shard.sharded(2 * state.bytes + _master_bytes(setup, state))
    return Held(setup.dtype.bytes * n, sync * n + reduced, optimizer, buffers=buffers)


def _master_bytes(setup: Setup, state: Dtype) -> int:
    """Bytes a parameter of the master copy NeMo has DistributedFusedAdam keep (megatron_base_model.py lines
    778-792): all of it with FP8 weights or where the dtypes differ otherwise, none where the optimizer's dtype is
    the model's, the int16 remainders where an fp32 optimizer completes bf16 parameters."""
    model = Dtype.FP32 if setup.dtype is Dtype.FP32 else Dtype.FP16 if setup.dtype is Dtype.FP16 else Dtype.BF16
    if setup.fp8_params:
        return state.bytes
    if state is model:
        return 0
    return 2 if state is Dtype.FP32 and model is Dtype.BF16 else state.bytes


def userbuffers(hidden: int, setup: Setup) -> float:
    """Bytes Transformer Engine's userbuffers take outside PyTorch's allocator, with TP communication overlap: twelve
    buffers of (s · b / CP) × h, the all-gather ones in FP8 under FP8 training."""
    if not _overlapped(setup):
        return 0.0
    elements = (setup.seq_len or 0) * setup.micro_batch // setup.cp * hidden
    gathered = 1 if setup.dtype is Dtype.FP8 else 2
    return elements * (UB_ALL_GATHER * gathered + UB_REDUCE_SCATTER * 2)


def _overlapped(setup: Setup) -> bool:
    """The overlap runs where it is asked for and TP splits the layers (megatron/training/arguments.py line 1442: it
    needs sequence parallelism, which TP 1 turns off)."""
    return setup.tp_comm_overlap and setup.tp > 1
