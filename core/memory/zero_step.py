"""What DeepSpeed's ZeRO-1 and ZeRO-2 data parallelism costs a step by DeepSpeed's own defaults.

Read from DeepSpeed (deepspeedai/DeepSpeed, commit edaa722):

- ``overlap_comm`` is off unless ZeRO-3: ``overlap_comm: Optional[bool] = None`` and its validator sets it to
  ``stage == ZeroStageEnum.weights`` (``deepspeed/runtime/zero/config.py`` 138, 383-385). Without it the
  gradient buckets are reduced on the compute stream, so the reduction is not hidden behind the backward: all
  of it is exposed, and so is the all-gather of the updated weights after the optimizer step
  (``allgather_bucket_size``, 132).
- When the reduction runs: ZeRO-2 partitions the gradients and reduces each bucket as the backward fills it, every
  micro-batch; ZeRO-1 only at the gradient-accumulation boundary (``stage_1_and_2.py`` 1768:
  ``if self.partition_gradients or self.is_gradient_accumulation_boundary()``).
- In what dtype: the engine's ``communication_data_type`` is FP16 or BF16 when the model trains in them, FP32 only
  in FP32 (``deepspeed/runtime/engine.py`` 1405-1416): 2 bytes a gradient, 2 a weight.

ZeRO-3 (``overlap_comm`` on) and every other framework keep ``comms.data_parallel``.
"""

from __future__ import annotations

from effbatch.core.memory import comms
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Dtype, Framework, Setup


def applies(setup: Setup) -> bool:
    """DeepSpeed with ZeRO-1 or -2 over more than one replica: ``overlap_comm`` off by default."""
    return setup.framework is Framework.DEEPSPEED and setup.zero in (1, 2) and setup.data_parallel > 1


def data_parallel(model: ModelSpec | None, params: int, setup: Setup, lk: comms.Links) -> float:
    """Seconds of ZeRO-1/2's gradient reduction and weight all-gather a step, none of it hidden: the reduction
    once a step (ZeRO-1) or once a micro-batch (ZeRO-2), in the training dtype's bytes."""
    d = setup.data_parallel
    dense, experts = comms.local_params(model, params, setup)
    ring = (d - 1) / d * (dense + experts) / lk.group(setup.tp * setup.cp * setup.sp, d)
    width = 4 if setup.dtype is Dtype.FP32 else 2
    reductions = (setup.accumulation or 1) if setup.zero == 2 else 1
    return ring * width * (reductions + 1)
