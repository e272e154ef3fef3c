"""DeepSpeed ZeRO stages 0-3 as deepspeed/runtime/ keeps them (bf16 model, fp32 optimizer partition; read at
microsoft/DeepSpeed@38327e07).

Stage 0 in bf16 (deepspeed/runtime/engine.py ``_configure_optimizer``: bf16 with an fp32 gradient accumulation dtype
is ``BFLOAT16``, deepspeed/runtime/bf16_optimizer.py ``BF16_Optimizer``): the bf16 parameters whole (2), their fp32
gradients whole (``fp32_groups_gradients_flat = torch.zeros_like(bf16_groups_flat, dtype=grad_acc_dtype)``, 4) and
the fp32 master partition (``fp32_groups_flat_partition``, 4/d) with Adam (8/d).

Stage 0 in fp16 (``_configure_optimizer``: fp16 without ZeRO is ``FP16``, deepspeed/runtime/fp16/fused_optimizer.py
``FP16_Optimizer``): nothing is partitioned – the fp16 parameters (2), the fp32 master ``fp32_groups_flat`` (4) and
Adam's moments (8), whole; ``step`` builds the master's gradient as ``_flatten_dense_tensors([... p.grad.to(
data_type) for p in group])`` before it sets ``p.grad = None``: the fp16 gradients (2), their fp32 casts (4) and the
flat fp32 gradient (4) alive at once for the (weight-decay) group that holds nearly every parameter.

Stages 1 and 2 (deepspeed/runtime/zero/stage_1_and_2.py, ``DeepSpeedZeroOptimizer``):
- ``bit16_groups_flat``: the bf16 parameters, whole on every rank (2 bytes);
- ``single_partition_of_fp32_groups``: the fp32 master partition (4/d) and, in ``step``, its fp32 gradient (4/d);
  Adam's ``exp_avg`` and ``exp_avg_sq`` of the partition (8/d);
- gradients: stage 1 keeps every parameter's bf16 ``.grad`` (2) until the step; stage 2 reduces them bucket by
  bucket into ``grads_in_partition`` (2/d) through ``ipg_buffer``, one buffer of ``reduce_bucket_size`` elements
  (deepspeed/runtime/zero/config.py ``reduce_bucket_size`` default 5e8) in bf16.

Stage 3 (deepspeed/runtime/zero/stage3.py, ``DeepSpeedZeroOptimizer_Stage3``): the bf16 parameters partitioned
(2/d), ``fp32_partitioned_groups_flat`` (4/d) with Adam (8/d), the fp32 gradient partition (4/d) and
``grad_partitions_flat_buffer`` (2/d, the accumulation dtype); gathered on use by partition_parameters.py's
``all_gather``: up to ``stage3_max_live_parameters`` (config.py, default 1e9) stay gathered, at least the largest
module, plus ``stage3_prefetch_bucket_size`` (5e7) prefetched; one module's full-size bf16 gradient before its
reduce-scatter and the ``__ipg_bucket_flat_buffer`` of ``reduce_bucket_size`` (stage3.py line 538).

Offloading the optimizer moves the gradient partition to the CPU as well: stage3.py line 261 ``self.device = ...
if not self.offload_optimizer else OffloadDeviceEnum.cpu`` and lines 547-549 allocate ``grad_partitions_flat_buffer``
there; stage_1_and_2.py ``copy_grads_in_partition`` (line 1329) copies each reduced gradient straight into the CPU's
fp32 partition under ``cpu_offload``. Only the reduce bucket stays on the GPU.

Activations: the Hugging Face model's PyTorch modules (DeepSpeed saves what the model saves). With tensor
parallelism the model is a Megatron-style one (Megatron-DeepSpeed's, atorch's ``ds_3d`` Llama), whose loss is
vocabulary-parallel: atorch/modules/distributed_modules/cross_entropy.py (read at intelligent-machine-learning/
dlrover@11bf2fbf) line 17 ``vocab_parallel_logits - logits_max`` (a bf16 copy of the rank's V/t logits), line 50
``torch.exp(..., out=exp_logits)`` and line 62 ``exp_logits.div_`` in place, line 75 saves that softmax for the
backward: 2 + 2 bytes a logit, divided by TP.
"""

from __future__ import annotations

from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard, mixed
from effbatch.core.memory.setup import Dtype, Offload, Recompute, Setup

POLICY = Policy(kernels=Kernels.EAGER, recompute=Recompute.NONE, vocab_parallel_loss=False)
#: With tensor parallelism: Megatron-style model, vocabulary-parallel loss.
TP_POLICY = Policy(kernels=Kernels.EAGER, recompute=Recompute.NONE, vocab_parallel_loss=True, logits_bytes=4.0)
#: deepspeed/runtime/zero/config.py: ``reduce_bucket_size`` default 500_000_000 elements.
REDUCE_BUCKET = 500_000_000
#: deepspeed/runtime/zero/config.py: ``stage3_prefetch_bucket_size`` default 50_000_000 elements.
PREFETCH_BUCKET = 50_000_000
#: deepspeed/runtime/zero/config.py: ``stage3_max_live_parameters`` default 1_000_000_000 elements.
MAX_LIVE = 1_000_000_000


def held(shard: Shard, setup: Setup) -> Held:
    """ZeRO's stage as DeepSpeed allocates it, with the offloaded states in the CPU's memory."""
    n, w = shard.params, setup.dtype.bytes
    stage = setup.zero
    weights = shard.sharded(w) if stage >= 3 else w * n
    grads, optimizer = _grads_and_optimizer(shard, setup)
    buffers = 0.0
    if stage >= 2:
        buffers += w * min(REDUCE_BUCKET, n)  # ipg buffer (stage 2) / reduce bucket (stage 3)
    if stage >= 3:
        live = max(shard.unit, min(MAX_LIVE, n))  # gathered parameters kept live
        buffers += w * (live + shard.unit + min(PREFETCH_BUCKET, n))  # live, one module's gradient, the prefetch
    cpu = None
    if setup.offload is not Offload.NONE:
        cpu, optimizer = optimizer, 0.0
        if stage >= 2:  # the gradient partition is kept beside the optimizer, in the CPU's memory
            cpu, grads = cpu + grads, 0.0
        if setup.offload is Offload.PARAMS and stage >= 3:
            cpu, weights = cpu + weights, 0.0
    return Held(weights, grads, optimizer, buffers, cpu)


def _grads_and_optimizer(shard: Shard, setup: Setup) -> tuple[float, float]:
    """(gradients, optimizer states) at the step's peak, as the stage's optimizer wrapper keeps them."""
    n, w, stage = shard.params, setup.dtype.bytes, setup.zero
    if stage == 0 and setup.dtype is Dtype.FP16:
        return (2 + 4 + 4) * n, 12 * n  # FP16_Optimizer: fp16 .grad, their fp32 casts and the flat fp32 gradient
    if stage == 0 and mixed(setup):
        return 4 * n, shard.sharded(12)  # BF16_Optimizer: fp32 gradients whole, master + Adam partitioned
    master = 16 if mixed(setup) else 12  # fp32 master 4 + its gradient 4 + Adam 8 (fp32: the params are the master)
    grads = shard.sharded(w) if stage >= 2 else w * n
    optimizer = shard.sharded(master) if stage >= 1 else master * n
    return grads, optimizer
