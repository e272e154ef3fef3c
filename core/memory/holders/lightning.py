"""Lightning Fabric as LitGPT's ``finetune/full.py`` runs it: FSDP1 through ``FSDPStrategy`` on more than one
device, the plain module on one, the gradients kept whole while accumulating, and a chunked loss.

- litgpt/finetune/full.py (read at Lightning-AI/litgpt@00af8b0d) lines 99-108: ``FSDPStrategy(auto_wrap_policy=
  {Block}, activation_checkpointing_policy={Block}, limit_all_gathers=True)`` when ``devices * num_nodes > 1``,
  else ``strategy = "auto"`` (one device: no DDP, no buckets); the states as ``core.memory.holders.fsdp`` counts
  them for FSDP1, or ``core.memory.holders.ddp`` without sharding.
- full.py lines 253-258: ``with fabric.no_backward_sync(model, enabled=is_accumulating)`` – Fabric's
  FSDPStrategy enters FSDP's ``no_sync`` for every micro-batch but the last, so each unit keeps its unsharded
  gradient until the synchronising one (the parameter's dtype: bf16 under ``bf16-true``, 2 bytes a parameter).
- config_hub/finetune/*/full.yaml: ``precision: bf16-true`` (Fabric converts the module to bf16: parameters,
  gradients and AdamW's moments in bf16 – ``dtype=bf16-true``).
- litgpt/utils.py ``chunked_cross_entropy`` (lines 293-342): the bf16 logits (2), the copy ``reshape`` makes of
  the shifted view ``logits[..., :-1, :]`` (2) and, chunk by chunk of 128 tokens, the bf16 log-softmax
  ``cross_entropy`` keeps for its backward (2): 6 bytes a logit, never an fp32 copy of the whole.
"""

from __future__ import annotations

from effbatch.core.memory.holders import ddp, fsdp
from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard
from effbatch.core.memory.setup import Recompute, Setup

POLICY = Policy(
    kernels=Kernels.EAGER,
    recompute=Recompute.NONE,
    vocab_parallel_loss=False,
    logits_bytes=6.0,
    autocast_copies=True,
    grads_freed=True,
)


def held(shard: Shard, setup: Setup) -> Held:
    """FSDP1 with Fabric's ``no_backward_sync`` where it shards, else the module as DDP (or alone) holds it."""
    return fsdp.held(shard, setup, no_sync=True) if setup.zero >= 2 else ddp.held(shard, setup)
