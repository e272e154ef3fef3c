"""``regeln=deepspeed``: what DeepSpeed's model-state estimators print, to the byte.

A port of ``estimate_zero2_model_states_mem_needs`` (deepspeed/runtime/zero/stage_1_and_2.py) and
``estimate_zero3_model_states_mem_needs`` (deepspeed/runtime/zero/stage3.py), deepspeedai/DeepSpeed at
edaa7221267243c7be7fb49c5d5f5c4fb97b4641. Their arithmetic:

- ZeRO-2: 2 bytes a parameter on every GPU plus 18 split over all GPUs (2 fp16 gradients, 4 fp32
  gradients, 4 fp32 master weights, 8 Adam) – 20 bytes a parameter on one GPU; with the optimizer
  offloaded only the 2 stay, and the CPU needs max(4 · GPUs, 16) bytes a parameter.
- ZeRO-3: 4 bytes for the largest layer's gathered parameters plus 18 split over all GPUs; offloaded
  optimizer: 2 split over all GPUs on the GPU, 16 a parameter on the CPU; offloaded parameters too:
  only the 4 · largest layer on the GPU, 18 on the CPU – both divided by the nodes when ``zero_init``.
- CPU figures times ``additional_buffer_factor`` 1,5.

They know nothing of tensor or pipeline parallelism (every GPU holds a share of the whole model) and
give no activations.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The estimators' default ``additional_buffer_factor``.
BUFFER_FACTOR = 1.5


@dataclass(frozen=True)
class DeepSpeedEstimate:
    """One line of the estimators' table: bytes per CPU (a node's), per GPU, and ZeRO-3's gather buffer."""

    cpu: int
    gpu: int
    largest_layer_memory: int = 0


def zero2(total_params: int, gpus_per_node: int, nodes: int, cpu_offload: bool) -> DeepSpeedEstimate:
    """``estimate_zero2_model_states_mem_needs`` with the default buffer factor."""
    total_gpus = nodes * gpus_per_node
    if cpu_offload:
        gpu = 2 * total_params
        cpu = total_params * max(4 * total_gpus, 16) * BUFFER_FACTOR
    else:
        gpu = 2 * total_params + int(18 * total_params / total_gpus)
        cpu = total_params * 4 * gpus_per_node * BUFFER_FACTOR
    return DeepSpeedEstimate(int(cpu), int(gpu))


def zero3(
    total_params: int,
    largest_layer_params: int,
    gpus_per_node: int,
    nodes: int,
    *,
    cpu_offload: bool,
    cpu_offload_params: bool,
    zero_init: bool,
) -> DeepSpeedEstimate:
    """``estimate_zero3_model_states_mem_needs`` with the default buffer factor."""
    total_gpus = nodes * gpus_per_node
    gpus_factor = 1 / nodes
    largest = 4 * largest_layer_params
    # the same products in the same order as DeepSpeed's, so that int() cuts the same float
    if cpu_offload and cpu_offload_params:
        gpu = largest
        if zero_init:
            cpu = total_params * 18 * gpus_factor * BUFFER_FACTOR
        else:
            cpu = total_params * max(4 * gpus_per_node, 18 * gpus_factor) * BUFFER_FACTOR
    elif cpu_offload:
        gpu = largest + int(2 * total_params / total_gpus)
        if zero_init:
            cpu = total_params * 16 * gpus_factor * BUFFER_FACTOR
        else:
            cpu = total_params * max(4 * gpus_per_node, 16 * gpus_factor) * BUFFER_FACTOR
    else:
        gpu = largest + int(18 * total_params / total_gpus)
        cpu = (largest_layer_params if zero_init else total_params) * 4 * gpus_per_node * BUFFER_FACTOR
    return DeepSpeedEstimate(int(cpu), int(gpu), largest)
