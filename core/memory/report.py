"""The ``memory`` object of ``--json`` (its contract), the same for the calculator and the config check.

Keys the input cannot decide are absent, not zero: activations without the shape or L, ``fits`` without a GPU,
``largest_micro_batch`` without activations. ``total_bytes_per_gpu`` is what PyTorch allocates at the peak
(``max_memory_allocated``'s figure), ``reserved_bytes_per_gpu`` adds the caching allocator's reserve
(``max_memory_reserved``'s), ``device_bytes_per_gpu`` the CUDA context and NCCL's buffers (nvidia-smi's): that
one is held against ``gpu_memory_bytes``, the memory the card offers a process.
"""

from __future__ import annotations

from typing import Any

from effbatch.core.memory.estimate import MemoryEstimate
from effbatch.core.memory.fit import Fit
from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec


def memory_json(
    memory: MemoryEstimate, micro_batch: int, model: ModelSpec | None, gpu: GpuSpec | None, fitted: Fit | None
) -> dict[str, Any]:
    """The estimate as schema/'s ``memory``: bytes on the most loaded GPU, the GPU and the fit where one is known."""
    data: dict[str, Any] = {
        "rules": memory.rules.value,
        "params": memory.params,
        "params_per_gpu": memory.params_per_gpu,
        "weights_bytes": memory.weights,
        "grads_bytes": memory.grads,
        "optimizer_bytes": memory.optimizer,
        "model_states_bytes_per_gpu": memory.model_states,
        "total_bytes_per_gpu": memory.total,
        "micro_batch": micro_batch,
        "quirks": [quirk.value for quirk in memory.quirks],
        **_on_device(memory),
    }
    if model is not None and model.name:
        data["model"] = model.name
    if memory.gather_buffer:
        data["gather_buffer_bytes"] = memory.gather_buffer
    if memory.activations is not None:
        data["activations_bytes"] = memory.activations
        data["activations_bytes_per_layer"] = memory.activations_per_layer
    if memory.recompute is not None and memory.activations is not None:
        data["recompute"] = memory.recompute.value
    if memory.cpu_per_node is not None:
        data["cpu_bytes"] = memory.cpu_per_node
    if fitted is not None:
        data["gpu_memory_bytes"] = fitted.capacity  # usable: what the driver reports, below the data sheet's
        data["fits"] = fitted.fits
        if fitted.largest_micro_batch is not None:
            data["largest_micro_batch"] = fitted.largest_micro_batch
        if fitted.at_bound:
            data["largest_micro_batch_at_bound"] = True
    if gpu is not None:
        data["gpu"] = gpu.name
    return data


def _on_device(memory: MemoryEstimate) -> dict[str, Any]:
    """Who holds the states, the kernel, the framework's buffers and logits, and what PyTorch's counters miss."""
    data: dict[str, Any] = {
        "allocator_reserve_bytes": memory.reserve,
        "reserved_bytes_per_gpu": memory.reserved,
        "context_bytes": memory.context,
        "device_bytes_per_gpu": memory.device_total,
    }
    if memory.framework is not None:
        data["framework"] = memory.framework.value
    if memory.attention is not None and memory.activations is not None:
        data["attention"] = memory.attention.value
    if memory.buffers:
        data["buffers_bytes"] = memory.buffers
    if memory.logits is not None:
        data["logits_bytes"] = memory.logits
    if memory.overlap:
        data["overlap_bytes"] = memory.overlap
    if memory.kv_cache:
        data["kv_cache_bytes"] = memory.kv_cache
    if memory.userbuffers:
        data["userbuffers_bytes"] = memory.userbuffers
    if memory.last_stage is not None:
        data["last_stage_bytes_per_gpu"] = memory.last_stage
    return data
