"""What PyTorch's counters miss: the allocator's reserve, the CUDA context and NCCL's buffers, and the memory a
card really offers a process (no German, no I/O).

A run fits when everything on the device fits the memory the driver reports, not the data sheet's round figure:

- ``torch.cuda.max_memory_allocated`` counts the tensors; ``max_memory_reserved`` adds the caching allocator's
  blocks that are reserved but not handed out (c10/cuda/CUDACachingAllocator.cpp rounds requests to 512 B, splits
  blocks of 1 MiB and above and keeps freed blocks cached: fragmentation). ``RESERVE_SHARE`` is that reserve as a
  share of what is allocated.
- ``nvidia-smi`` shows the process's reserve plus the CUDA context (driver, cuBLAS/cuDNN workspaces and the
  loaded kernels: ``CONTEXT_BYTES``) plus NCCL's communication buffers, which live outside PyTorch's allocator:
  ``NCCL_BUFFSIZE`` (4 MiB, nccl src/init.cc ``DEFAULT_BUFFSIZE``) for each of the protocol buffers of each channel
  of each peer, for every communicator (process group) a rank joins – ``NCCL_BYTES_PER_GROUP`` each.
- Usable capacity: what ``cudaMemGetInfo`` reports as total (``torch.cuda.get_device_properties().total_memory``),
  below the data sheet's GiB: an H100 SXM 80 GB reports 81.559 MiB (79,6 GiB), an A100 80 GB 81.251 MiB.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from effbatch.core.memory.setup import Setup

GIB = 1024**3
MIB = 1024**2

#: The caching allocator's reserve above the allocated peak (fragmentation), as a share of the allocated.
RESERVE_SHARE = 0.05
#: The CUDA context with cuBLAS and cuDNN workspaces and PyTorch's kernels loaded (lazy loading, CUDA 12).
CONTEXT_BYTES = 600 * MIB
#: NCCL's buffers for one communicator a rank uses (channels × peers × NCCL_BUFFSIZE, plus its proxy state).
NCCL_BYTES_PER_GROUP = 512 * MIB

#: ``total_memory`` as the driver reports it, per GPU name (``core.memory.gpus``); others keep the data sheet's.
USABLE: Mapping[str, int] = MappingProxyType(
    {
        "h100": 81_559 * MIB,  # nvidia-smi on H100 SXM5 80GB HBM3: 81559MiB
        "h100-96": round(49.66 / 0.5228 * 1024) * MIB,  # torchtitan PR 1287's log: 'memory: 49.66GiB(52.28%)'
        "h200": 143_771 * MIB,  # nvidia-smi on H200 SXM 141GB: 143771MiB
        "b200": 183_359 * MIB,  # nvidia-smi on B200: 183359MiB
        "a100-80": 81_251 * MIB,  # torch.cuda.get_device_properties on A100-SXM4-80GB: total_memory 81251MiB
        "a100-40": 40_536 * MIB,  # torch.cuda.get_device_properties on A100-SXM4-40GB: total_memory 40536MB
        "h800": 81_559 * MIB,  # the H100 SXM5's chip and 80 GB HBM3 (only NVLink differs): as the H100
        "a800": 81_251 * MIB,  # the A100-SXM4-80GB's chip and memory (only NVLink differs): as the A100 80GB
        "l40s": 46_068 * MIB,  # nvidia-smi on L40S: 46068MiB
        "mi300x": 196_592 * MIB,  # rocm-smi on MI300X: 196592MiB (192 GiB minus the firmware's reserve)
    }
)


def usable(gpu_name: str | None, datasheet: int) -> int:
    """The memory a process on the GPU can fill: the driver's total where known, else the data sheet's."""
    return USABLE.get(gpu_name or "", datasheet)


def reserve(allocated: int) -> int:
    """The allocator's cached but unused blocks at the peak."""
    return round(allocated * RESERVE_SHARE)


def communicators(setup: Setup) -> int:
    """The process groups a rank communicates in: data parallel and each model-parallel degree above 1."""
    degrees = (setup.data_parallel, setup.tp, setup.pp, setup.cp, setup.sp, setup.ep)
    return sum(1 for degree in degrees if degree > 1)


def context(setup: Setup) -> int:
    """CUDA context and NCCL buffers: outside PyTorch's counters, inside nvidia-smi's and the card's."""
    return CONTEXT_BYTES + NCCL_BYTES_PER_GROUP * communicators(setup)
