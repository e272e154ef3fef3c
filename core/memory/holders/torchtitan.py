"""torchtitan: FSDP2 with its own defaults, selective op-level recomputation and a vocabulary-parallel loss.

- torchtitan/models/llama3/infra/parallelize.py ``apply_fsdp``: ``fully_shard`` with
  ``MixedPrecisionPolicy(param_dtype=training.mixed_precision_param (bf16), reduce_dtype=mixed_precision_reduce
  (fp32))``; the states as ``core.memory.holders.fsdp`` counts them for FSDP2.
- torchtitan/distributed/fsdp.py ``get_fsdp_reshard_after_forward_policy`` "default": "For PP, by default do not
  reshard after forward to avoid per-microbatch all-gathers" – a pipeline stage keeps its bf16 parameters whole.
- Gradient accumulation reduces every micro-batch (no ``no_sync``): the gradients stay sharded. With pipeline
  parallelism the schedule does not: torch/distributed/pipelining/stage.py ``backward_maybe_with_nosync`` calls
  ``set_requires_gradient_sync(False)`` for every micro-batch but the last, and FSDP2 accumulates the unsharded
  gradient upcast to ``reduce_dtype`` fp32 (_fsdp_param.py ``to_accumulated_grad_if_needed``): 4 bytes for every
  parameter of the stage, whole.
- torchtitan/distributed/activation_checkpoint.py ``_apply_op_sac``: selective recomputation saves the outputs of
  the ops in ``_save_list`` (every second ``aten.mm``, the flash/efficient attention, the reductions) and recomputes
  the rest; ``loss_parallel`` (parallelize.py, ``enable_loss_parallel``) splits the loss over TP.
- With ``--training.compile`` torchtitan compiles the loss too (torchtitan/components/loss.py lines 27-29,
  ``loss_fn = torch.compile(loss_fn)``, read at pytorch/torchtitan@2c8b5947; since bbb1b616e of 2025-04-02 – before
  it train.py said "compiling loss function causes CUDA errors, turning off for now"): Inductor fuses the fp32
  upcast, the log-softmax and its gradient, so of ``cross_entropy_loss``'s fp32 copy and softmax nothing is kept –
  the bf16 logits it saves (train.py ``del pred`` frees the model's reference) and their bf16 gradient: 4 bytes a
  logit instead of 10.
"""

from __future__ import annotations

from dataclasses import replace

from effbatch.core.memory.holders import fsdp
from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard
from effbatch.core.memory.setup import Recompute, Setup

POLICY = Policy(
    kernels=Kernels.EAGER,
    recompute=Recompute.SELECTIVE,
    vocab_parallel_loss=True,
    compiled_logits_bytes=4.0,
    grads_freed=True,
)


def held(shard: Shard, setup: Setup) -> Held:
    """FSDP2 without no_sync; pipeline stages unsharded between forward and backward, their gradients accumulated
    unsharded in fp32 over the schedule's micro-batches."""
    kept = fsdp.held(shard, setup, no_sync=False, reshard=setup.pp == 1)
    if setup.pp > 1 and (setup.accumulation or setup.pp) > 1:
        return replace(kept, grads=kept.grads + 4 * shard.params)
    return kept
