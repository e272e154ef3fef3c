"""What an MoE layer costs beyond its active products: routing the tokens to their experts and back.

Read from Megatron-Core's MoE layer (NVIDIA/Megatron-LM, ``megatron/core/transformer/moe/``, commit d98e8a6):

- Permutation traffic. The all-to-all dispatcher copies every token's hidden state once per chosen expert and
  sorts the copies by expert before the all-to-all (``token_dispatcher.py`` 671, ``permute`` in ``moe_utils.py``
  344: ``tokens.index_select(0, sorted_indices)``, 486), sorts the received chunks by local expert after it when
  a rank holds more than one expert (``sort_chunks_by_idxs``, 782 and ``moe_utils.py`` 628), sorts them back
  before the combining all-to-all (817), and scatter-adds the k copies, weighted by their router
  probabilities, into each token (``unpermute``, ``moe_utils.py`` 497, ``scatter_add_`` 615). Each pass reads
  and writes top-k · h values a token; the backward runs each pass's transpose. ``PERMUTE_PASSES`` a direction,
  memory-bound, at the card's bandwidth (``kernels.MEMORY_EFFICIENCY``).
- Host synchronisation. Dropless routing sizes the experts' products by the tokens each expert got, which the
  host must know: the dispatcher copies ``tokens_per_expert`` to the host and waits for it (``token_dispatcher.py``
  661, ``_maybe_dtoh_and_synchronize`` 921, ``d2h_event.synchronize()`` 958), and the grouped products split
  their input by ``tokens_per_expert.tolist()`` (``experts.py`` 363). After the wait the GPU's queue is empty: it
  idles while the host issues the layer's next kernels one by one – the expert products one per local expert
  (TE's ``GroupedLinear`` runs one GEMM a split), each with its cast and activation – forward and backward.
  ``LAUNCH_SECONDS`` a kernel, ``KERNELS_PER_EXPERT`` kernels a local expert and direction.

The products themselves, their shapes per expert and the all-to-all's bytes are counted where every layer's
are (``kernels.shape_efficiency`` with the rows one expert gets, ``comms.expert_parallel``).
"""

from __future__ import annotations

from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.kernels import MEMORY_EFFICIENCY
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Setup

#: Copies of top-k · h values a direction: permute, sort by local expert, sort back, unpermute (read and write
#: each: 2 × 4; the two sorts only where a rank holds several experts behind an all-to-all).
PERMUTE_PASSES, SORT_PASSES = 2, 2
#: The host time to issue one CUDA kernel from PyTorch: a launch through the CUDA driver takes about 5 µs of
#: the CPU (NVIDIA's *CUDA C++ Best Practices Guide*, "kernel launch overhead" of a few microseconds), the
#: dispatcher and autograd around it as much again.
LAUNCH_SECONDS = 10e-6
#: Kernels a local expert issues a direction after the sync: FC1 and FC2 products, the activation, and the
#: casts of each product's input (forward; backward the data and weight gradients of both, twice as many).
KERNELS_PER_EXPERT = 5
BYTES = 2


def launch_assumption() -> tuple[int, float]:
    """What the host time assumes, for the answer to say: kernels a local expert launches a step of one layer and
    micro-batch (forward and backward), and the seconds each launch takes."""
    return 3 * KERNELS_PER_EXPERT, LAUNCH_SECONDS


def moe_routing(model: ModelSpec | None, setup: Setup, gpu: GpuSpec) -> float:
    """Seconds a step spends on one GPU routing tokens through its MoE layers: the permutation copies at memory
    speed and the host's wait and launches after each layer's token counts reach it."""
    if model is None or not model.moe or not setup.seq_len:
        return 0.0
    tokens = setup.micro_batch * setup.seq_len / (setup.cp * setup.sp)
    local_experts = max(1, model.experts // setup.ep)
    passes = PERMUTE_PASSES + (SORT_PASSES if setup.ep > 1 and local_experts > 1 else 0)
    copies = 2 * passes * 2 * tokens * model.topk * model.hidden * BYTES  # both directions, read and write
    memory = copies / (gpu.hbm * MEMORY_EFFICIENCY) if gpu.hbm else 0.0
    kernels, launch = launch_assumption()
    host = kernels * local_experts * launch
    layers = (setup.accumulation or 1) * model.moe_layers / setup.pp
    return layers * (memory + host)
