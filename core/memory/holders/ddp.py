"""PyTorch DDP and Hugging Face's Trainer without ZeRO/FSDP: fp32 weights under autocast, whole on every GPU.

- torch/nn/parallel/distributed.py ``DistributedDataParallel(gradient_as_bucket_view=False)`` (the default, and
  Trainer's and Accelerate's): the reducer (torch/csrc/distributed/c10d/reducer.cpp ``initialize_buckets``)
  allocates its own flat bucket tensors beside ``param.grad`` – the gradients twice, 4 + 4 bytes in fp32.
  One GPU alone runs without DDP: no buckets.
- torch/amp/autocast_mode.py: the bf16 copies autocast makes of each weight are cached for the forward
  (``cache_enabled``) and saved by the linear layers for the backward: 2 bytes a parameter among the activations.
- torch/optim/adamw.py: fp32 ``exp_avg`` and ``exp_avg_sq``, 8 bytes; the weights are the master copy (4).
- Pure bf16 (``dtype=bf16-true``: Lightning's ``bf16-true``, torchtune's ``dtype: bf16``): the model is bf16, so
  are its gradients, buckets and Adam's moments (``torch.zeros_like(p, memory_format=...)``): 2 + 2 (+ 2) + 4.
"""

from __future__ import annotations

from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard, pure
from effbatch.core.memory.setup import Recompute, Setup

POLICY = Policy(
    kernels=Kernels.EAGER, recompute=Recompute.NONE, vocab_parallel_loss=False, autocast_copies=True, grads_freed=True
)


def held(shard: Shard, setup: Setup) -> Held:
    """fp32 weights 4, gradients 4 (and DDP's buckets 4 with more than one replica), Adam 8; pure bf16 half each."""
    n = shard.params
    full = 2 if pure(setup) else 4
    buckets = full * n if shard.dense_group > 1 else 0.0
    return Held(full * n, full * n, 2 * full * n, buckets)
