"""Memory as each framework holds it: one module per framework, each byte count with its source line.

``holder(framework)`` answers the module's ``held(shard, setup)`` (model states and buffers) and its ``POLICY``
(kernels, recomputation default, vocabulary-parallel loss); ``core.memory.held`` adds the activations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from effbatch.core.memory.holders import ddp, deepspeed, fsdp, lightning, megatron, olmo_core, torchtitan
from effbatch.core.memory.holders.base import Held, Kernels, Policy, Shard
from effbatch.core.memory.setup import Framework, Setup

Holder = Callable[[Shard, Setup], Held]


def _fsdp(shard: Shard, setup: Setup) -> Held:
    return fsdp.held(shard, setup)


def _huggingface(shard: Shard, setup: Setup) -> Held:
    """The Trainer shards with FSDP through Accelerate (``zero`` 2 or 3: its ``fsdp`` words), which accumulates
    inside ``no_sync``; without sharding it is DDP."""
    return fsdp.held(shard, setup, no_sync=True) if setup.zero >= 2 else ddp.held(shard, setup)


#: Each framework's states and its activation policy.
HOLDERS: Mapping[Framework, tuple[Holder, Policy]] = MappingProxyType(
    {
        Framework.MEGATRON: (megatron.held, megatron.POLICY),
        Framework.DEEPSPEED: (deepspeed.held, deepspeed.POLICY),
        Framework.FSDP: (_fsdp, fsdp.POLICY),
        Framework.FSDP2: (torchtitan.held, fsdp.POLICY),
        Framework.TORCHTITAN: (torchtitan.held, torchtitan.POLICY),
        Framework.DDP: (ddp.held, ddp.POLICY),
        Framework.HUGGINGFACE: (_huggingface, ddp.POLICY),
        Framework.LIGHTNING: (lightning.held, lightning.POLICY),
        Framework.OLMO_CORE: (torchtitan.held, olmo_core.POLICY),
    }
)

__all__ = ["HOLDERS", "Held", "Holder", "Kernels", "Policy", "Shard"]
