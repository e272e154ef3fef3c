"""Accelerators: memory and peak dense BF16 FLOP/s, each from its maker's data sheet.

Memory is the data sheet's figure read in GiB (HBM stacks come in binary sizes: A100 80GB reports
81.920 MiB); what a training process can use is somewhat less (CUDA context, allocator fragmentation),
which the answer says. Peak is dense BF16 without sparsity: data sheets print the sparse figure, twice
as high, with an asterisk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

GIB = 1024**3
TERA = 10**12


@dataclass(frozen=True)
class GpuSpec:
    """One accelerator: its name, memory in bytes, dense BF16 peak in FLOP/s and where those come from."""

    name: str
    title: str
    memory: int
    peak_flops: float
    source: str

    @property
    def chip(self) -> bool:
        """A TPU: its devices are chips, not GPUs."""
        return self.name.startswith("tpu")


_ROWS = (
    GpuSpec(
        "h100",
        "H100 SXM",
        80 * GIB,
        989.4 * TERA,
        "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): SXM5 BF16 dense 989.4 TFLOPS, 80 GB HBM3",
    ),
    GpuSpec(
        "h200",
        "H200 SXM",
        141 * GIB,
        989.4 * TERA,
        "NVIDIA H200 datasheet: 141 GB HBM3e; BF16 1,979 TFLOPS with sparsity, dense half of it",
    ),
    GpuSpec(
        "b200",
        "B200",
        180 * GIB,
        2250 * TERA,
        "NVIDIA DGX B200 datasheet: 1,440 GB for 8 GPUs; HGX B200 BF16 36 PFLOPS for 8 with sparsity",
    ),
    GpuSpec(
        "a100-40",
        "A100 40GB",
        40 * GIB,
        312 * TERA,
        "NVIDIA A100 datasheet: BF16 312 TFLOPS (624 with sparsity), 40 GB HBM2",
    ),
    GpuSpec(
        "a100-80",
        "A100 80GB",
        80 * GIB,
        312 * TERA,
        "NVIDIA A100 datasheet: BF16 312 TFLOPS (624 with sparsity), 80 GB HBM2e",
    ),
    GpuSpec(
        "l40s",
        "L40S",
        48 * GIB,
        362.05 * TERA,
        "NVIDIA L40S datasheet: BF16 362.05 TFLOPS (733 with sparsity), 48 GB GDDR6",
    ),
    GpuSpec(
        "mi300x",
        "MI300X",
        192 * GIB,
        1307.4 * TERA,
        "AMD Instinct MI300X datasheet: BF16 1,307.4 TFLOPS dense, 192 GB HBM3",
    ),
    GpuSpec(
        "tpu-v5e",
        "TPU v5e",
        16 * GIB,
        197 * TERA,
        "Google Cloud TPU v5e documentation: BF16 197 TFLOPS, 16 GB HBM2 per chip",
    ),
    GpuSpec(
        "tpu-v5p",
        "TPU v5p",
        95 * GIB,
        459 * TERA,
        "Google Cloud TPU v5p documentation: BF16 459 TFLOPS, 95 GB HBM2e per chip",
    ),
)

#: Every accelerator by its name.
GPUS: Mapping[str, GpuSpec] = MappingProxyType({row.name: row for row in _ROWS})

_SEPARATORS = re.compile(r"[\s_.-]+")
_ALIASES = MappingProxyType(
    {
        "h100sxm": "h100",
        "h100sxm5": "h100",
        "h200sxm": "h200",
        "a10040gb": "a100-40",
        "a10080gb": "a100-80",
        "a100": "a100-80",
        "mi300": "mi300x",
        "v5e": "tpu-v5e",
        "v5p": "tpu-v5p",
        "tpuv5litepod": "tpu-v5e",
    }
)


def _folded(name: str) -> str:
    return _SEPARATORS.sub("", name.casefold())


def find_gpu(name: str) -> GpuSpec | None:
    """The accelerator ``name`` means (``h100``, ``H100-SXM``, ``a100-80gb``, ``tpu-v5p``), or None."""
    folded = _folded(name)
    for row in _ROWS:
        if _folded(row.name) == folded:
            return row
    alias = _ALIASES.get(folded)
    return GPUS[alias] if alias else None


def gpu_names() -> tuple[str, ...]:
    return tuple(GPUS)
