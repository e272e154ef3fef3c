"""PyTorch FSDP (FSDP1's FlatParameter, as Hugging Face's Trainer and Accelerate use it) and FSDP2's fully_shard.

Mixed precision keeps the parameters in fp32 and computes in bf16:
- FSDP1, torch/distributed/fsdp/_flat_param.py ``FlatParamHandle``: the sharded ``flat_param`` in the original
  dtype, fp32 (4/d); ``_init_param_attributes`` allocates ``_mp_shard`` and the unsharded ``_full_param_padded`` in
  ``param_dtype`` bf16 for the unit in use; ``limit_all_gathers`` lets two units be gathered at once (the running
  one and ``BACKWARD_PRE``'s prefetch). The unsharded bf16 gradient of a unit is reduce-scattered and cast to the
  fp32 sharded gradient (4/d). FSDP itself reduces after every backward; inside ``no_sync`` (which Accelerate's
  ``accumulate`` and Lightning Fabric's ``no_backward_sync`` enter for every micro-batch but the last – Composer
  does not: its ``ddp_sync_context`` returns at once for a model that is not DDP) each unit keeps its unsharded
  gradient until the synchronising micro-batch: 4 bytes for every parameter, whole.
- FSDP2, torch/distributed/fsdp/_fully_shard/_fsdp_param.py ``FSDPParam``: the sharded DTensor in fp32 (4/d);
  ``MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32)``: the all-gather output in bf16 for the running
  and the prefetched module, the unsharded gradient cast to fp32 for the reduce-scatter (_fsdp_collectives.py
  ``foreach_reduce``), the sharded fp32 gradient (4/d).
- torch/optim/adamw.py: ``exp_avg`` and ``exp_avg_sq`` like the (sharded, fp32) parameter: 8/d.
- ``SHARD_GRAD_OP`` (zero=2) keeps the parameters unsharded from forward to backward (bf16, 2 bytes whole);
  ``NO_SHARD`` (zero 0 or 1) is DDP.
- Without a MixedPrecision policy, under ``torch.autocast`` (``autocast=ja``; DLRover's atorch ``fsdp`` strategy
  passes none, atorch/auto/opt_lib/amp_optimization.py line 65 wraps the forward in ``autocast``): _flat_param.py
  all-gathers the flat parameter in its own dtype, fp32, and its gradient is fp32 from the start – 4 bytes for each
  gathered unit, no cast.
"""

from __future__ import annotations

from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard, pure
from effbatch.core.memory.setup import Offload, Recompute, Setup

POLICY = Policy(kernels=Kernels.EAGER, recompute=Recompute.NONE, vocab_parallel_loss=False, grads_freed=True)


def held(shard: Shard, setup: Setup, *, no_sync: bool = False, reshard: bool = True) -> Held:
    """fp32 sharded parameters, gradients and Adam (16/d), the gathered units and, where it applies, the
    gradients kept whole during accumulation (``no_sync``) or the parameters kept whole (``reshard`` False)."""
    n = shard.params
    group = shard if setup.zero >= 2 else Shard(shard.dense, shard.expert, 1, 1, shard.unit)
    full = 2 if pure(setup) else 4  # pure bf16: the sharded parameters, gradients and Adam's moments in bf16
    weights, grads, optimizer = group.sharded(full), group.sharded(full), group.sharded(2 * full)
    low = 4 if setup.autocast else 2  # the all-gather output: bf16, or fp32 without MixedPrecision
    cast = 0 if setup.autocast else low  # the unit's gradient in bf16 before its fp32 cast
    buffers = 2 * low * shard.unit + (cast + full) * shard.unit  # two units gathered; one unit's gradient, its cast
    if setup.zero == 2 or not reshard:
        buffers += low * n  # parameters stay unsharded between forward and backward
    if no_sync and (setup.accumulation or 1) > 1 and setup.zero >= 2:
        grads += full * n  # each unit's unsharded gradient kept until the synchronising micro-batch
    cpu = None
    if setup.offload is not Offload.NONE:
        cpu, optimizer = weights + optimizer, 0.0
        weights = 0.0
    return Held(weights, grads, optimizer, buffers, cpu)
