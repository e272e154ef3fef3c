"""What DeepSpeed's ZeRO data parallelism and its optimizer step cost a step, by DeepSpeed's own code and defaults.

Read from DeepSpeed (deepspeedai/DeepSpeed, commit edaa722; ``config.py`` is ``deepspeed/runtime/zero/config.py``,
``stage_1_and_2.py`` and ``stage3.py`` beside it, ``engine.py`` is ``deepspeed/runtime/engine.py``):

- ``overlap_comm`` is off unless ZeRO-3: ``overlap_comm: Optional[bool] = None`` and its validator sets it to
  ``stage == ZeroStageEnum.weights`` (``config.py`` 138, 383-386). Without it ZeRO-1/2 reduce the gradient
  buckets on the compute stream (``stage_1_and_2.py`` 1350-1364: ``average_tensor`` takes the current stream), so
  none of it hides behind the backward; nor does the all-gather of the updated weights after the optimizer step
  (``all_gather_dp_groups``, 2396).
- A ZeRO-1/2 bucket is all-reduced, not reduce-scattered: ``use_multi_rank_bucket_allreduce`` defaults to true
  (``config.py`` 119, since 2023-11, PR #4695), and ``average_tensor`` then files every slice under
  ``("allreduce", group)`` (``stage_1_and_2.py`` 1443-1446), which ``allreduce_and_scatter`` →
  ``allreduce_bucket`` runs as ``dist.all_reduce`` of the whole bucket (1314-1348, 1833-1858) and each rank keeps
  its slice: 2 (d − 1)/d of the gradient bytes, twice what a reduce-scatter moves. (Before PR #4695 each slice went
  to its owner by ``dist.reduce``: d reduces of 1/d of the bucket, which NCCL's rings move in about the bucket's
  time – an all-reduce's at d = 2, less at larger d; the code pinned here is modelled.)
- When the reduction runs: ZeRO-2 partitions the gradients and reduces each bucket as the backward fills it, every
  micro-batch; ZeRO-1 only at the gradient-accumulation boundary (``stage_1_and_2.py`` 1764-1769: the hook reduces
  only ``if self.partition_gradients or self.overlap_comm``; the engine calls ``reduce_gradients`` at the boundary,
  ``engine.py`` 2903-2910).
- In what dtype: the engine's ``communication_data_type`` is FP16 or BF16 when the model trains in them, FP32 only
  in FP32 (``engine.py`` 1405-1416): 2 bytes a gradient, 2 a weight – ZeRO-3's reduce-scatter too
  (``stage3.py`` 1798-1813: the gradients are cast to it before ``reduce_scatter_coalesced``).
- ZeRO-3 gathers each module's weights before its forward and again before its backward, except what is reused
  soon: a module's weights are not released if they come back within ``max_reuse_distance`` (1e9) elements of the
  module trace (``partitioned_param_coordinator.py`` 653-662; ``config.py`` 244). Forward to backward, a layer
  comes back after the weights of every later layer have passed twice, so the last 5e8 elements' worth stay
  gathered and are not gathered again. Its collectives overlap the compute (``overlap_comm`` on), as
  ``comms.overlapped`` counts them.
- The optimizer step (``stage_1_and_2.py`` 2279-2411, ``stage3.py`` 2604-2666) passes over the GPU's share of the
  gradients and FP32 state several times: the gradient norm reads the 2-byte gradients (``scaled_global_norm``,
  ``_get_norm_groups``), ``flatten`` copies them, ``.to(float32)`` widens them, ``unscale_and_clip_grads`` scales
  them in place unconditionally (``mul_(1. / combined_scale)``, 2434-2449; ``stage3.py`` 2696-2703), Adam reads
  weights, gradients and both moments and writes weights and moments (FusedAdam, 28 bytes) and the weights are
  copied back to the 2-byte copy (``bit16_partitions[partition_id].data.copy_``, 2386; ``stage3.py`` 2585-2588).
  In FP16 the overflow check first runs ``_has_inf_or_nan`` over the gradients (``float()``, ``isnan``,
  ``isinf``, ``logical_or``, ``float()``, ``max``: 2470-2492; ``stage3.py`` 2549-2551). In FP32 there is no
  2-byte copy to widen from or copy back to.

Every other framework keeps ``comms.data_parallel`` and ``comms.OPTIMIZER_BYTES``.
"""

from __future__ import annotations

from effbatch.core.memory import comms
from effbatch.core.memory.kernels import Kernels
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Dtype, Framework, Setup

#: ``stage3_max_reuse_distance``'s default (``config.py`` 244), in elements of the module trace.
MAX_REUSE_DISTANCE = 1e9
#: FusedAdam's pass over FP32 weights, gradients and both moments: reads 16 bytes, writes 12.
ADAM_BYTES = 28
#: ``_has_inf_or_nan`` a gradient value of 2 bytes: ``float()`` 2 + 4, ``isnan`` and ``isinf`` 4 + 1 each,
#: ``logical_or`` 1 + 1 + 1, ``float()`` 1 + 4, ``max`` 4.
OVERFLOW_CHECK_BYTES = 28


def applies(setup: Setup) -> bool:
    """DeepSpeed's ZeRO over more than one replica: its own collectives and optimizer step."""
    return setup.framework is Framework.DEEPSPEED and setup.zero >= 1 and setup.data_parallel > 1


def width(setup: Setup) -> int:
    """Bytes of a gradient or weight on the wire: ``communication_data_type`` (``engine.py`` 1405-1416)."""
    return 4 if setup.dtype is Dtype.FP32 else 2


def data_parallel(model: ModelSpec | None, params: int, setup: Setup, lk: comms.Links, work: Kernels) -> float:
    """Seconds of ZeRO's data-parallel traffic a step: ZeRO-1/2's all-reduced gradient buckets (once a step or
    once a micro-batch) and the weights' all-gather after the step, none of it hidden; ZeRO-3's gathers and
    reduce-scatters each micro-batch, hidden as ``comms.overlapped`` counts."""
    d = setup.data_parallel
    dense, experts = comms.local_params(model, params, setup)
    local = dense + experts
    ring = (d - 1) / d * local / lk.group(setup.tp * setup.cp * setup.sp, d)
    micro_batches = setup.accumulation or 1
    if setup.zero >= 3:
        gathers = 2 - min(local, MAX_REUSE_DISTANCE / 2) / local if local else 2.0
        per_micro = ring * width(setup) * (gathers + 1)
        micro = (work.compute + work.recompute) / micro_batches
        layers = max(1, (model.layers if model else 1) // setup.pp)
        return comms.overlapped(per_micro, micro, micro_batches, layers, lk)
    reductions = micro_batches if setup.zero == 2 else 1
    return ring * width(setup) * (2 * reductions + 1)


def step_bytes(setup: Setup) -> float:
    """Bytes the optimizer step moves a parameter of the GPU's share (``comms.OPTIMIZER_BYTES`` outside DeepSpeed's
    ZeRO): norm w, flatten 2w, widen w + 4, unscale 8, Adam 28, copy back 4 + w (w the gradient's bytes), and the
    overflow check in FP16."""
    if setup.framework is not Framework.DEEPSPEED or setup.zero < 1:
        return comms.OPTIMIZER_BYTES
    w = width(setup)
    check = OVERFLOW_CHECK_BYTES if setup.dtype is Dtype.FP16 else 0
    widen_and_back = 0 if setup.dtype is Dtype.FP32 else (w + 4) + (4 + w)
    return w + 2 * w + widen_and_back + 8 + ADAM_BYTES + check
