"""Accelerators: memory, peak dense BF16 and FP8 FLOP/s, memory and link bandwidths, each from its maker's data sheet
(the rows are data, ``gpus.json`` beside this module, read the first time an accelerator is asked for).

Memory is the data sheet's figure read in GiB (HBM stacks come in binary sizes: A100 80GB reports
81.920 MiB); what a training process can use is somewhat less (CUDA context, allocator fragmentation),
which the answer says. Peak is dense BF16 (and FP8) without sparsity: data sheets print the sparse figure,
twice as high, with an asterisk.

For the step time (``core.memory.step``) each row also has:

- ``hbm``: memory bandwidth in bytes/s (data sheet), what memory-bound kernels (norms, activations, the
  optimizer) run at (``h100-96``: the H100 chip with 96 GB HBM2e at 2,4 TB/s that torchtitan's benchmarks state);
- ``nvlink``: the bandwidth one card sends to the others of its node, one direction, in bytes/s (NVLink 4:
  900 GB/s both directions, 450 each; a card without NVLink: its PCIe link);
- ``net_gbps``: the inter-node bandwidth per GPU in Gbit/s that the vendor's reference node has (DGX H100:
  8 ConnectX-7 at 400 Gb/s for 8 GPUs) – a default the answer names as assumed;
- ``matmul_efficiency``: the share of the peak the best-shaped BF16 matrix product reaches (the maximum
  achievable matmul FLOPS that Stas Bekman's ml-engineering measures with ``mamf-finder.py``: A100 SXM 267,9 of
  312, H100 SXM 792,1 of 989, B200 1.745 of 2.250, MI300X 781,9 of 1.300), and ``fp8_matmul_efficiency`` the
  same in FP8 (H200 1.453,4 of 1.979, B200 3.432,5 of 4.500); None where nobody published one;
- ``attention_efficiency``: the share of the peak FlashAttention-2 reaches forward and backward with causal
  masking and head size 128 (Dao 2023, Fig. 4: up to 225 of 312 TFLOP/s on A100, 50–73 %; on H100 about
  35 %, as Shah et al. 2024, FlashAttention-3, §1, state);
- ``sms``: streaming multiprocessors, across which a matrix product's tiles run in waves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

GIB = 1024**3
TERA = 10**12


@dataclass(frozen=True)
class GpuSpec:
    """One accelerator: its name, memory in bytes, dense BF16 peak in FLOP/s and where those come from; the
    step time's bandwidths and kernel shares beside them (0 or None: not known)."""

    name: str
    title: str
    memory: int
    peak_flops: float
    source: str
    fp8_flops: float | None = None
    hbm: float = 0.0
    nvlink: float = 0.0
    net_gbps: float = 0.0
    matmul_efficiency: float | None = None
    fp8_matmul_efficiency: float | None = None
    attention_efficiency: float | None = None
    sms: int = 0
    links_source: str = ""

    @property
    def chip(self) -> bool:
        """A TPU: its devices are chips, not GPUs."""
        return self.name.startswith("tpu")


def _export_variant(base: GpuSpec, name: str, title: str, nvlink: float, source: str) -> GpuSpec:
    """An export version of ``base`` (A800, H800): the same chip, memory and peak, a slower NVLink between cards."""
    return replace(base, name=name, title=title, nvlink=nvlink, links_source=f"{source}; otherwise as {base.title}")


def _spec(row: dict[str, Any]) -> GpuSpec:
    """A row of ``gpus.json``: memory in GiB and peaks in TFLOP/s as the data sheets print them, the rest as is."""
    memory, peak, fp8 = row.pop("memory_gib"), row.pop("bf16_tflops"), row.pop("fp8_tflops", None)
    return GpuSpec(memory=memory * GIB, peak_flops=peak * TERA, fp8_flops=None if fp8 is None else fp8 * TERA, **row)


@cache
def _table() -> Mapping[str, GpuSpec]:
    """Every accelerator of ``gpus.json`` beside this module by its name, export versions last; read once."""
    data = json.loads(resources.files("effbatch.core.memory").joinpath("gpus.json").read_text(encoding="utf-8"))
    rows = {row["name"]: _spec(row) for row in data["gpus"]}
    for export in data["exports"]:
        rows[export["name"]] = _export_variant(
            rows[export["of"]], export["name"], export["title"], export["nvlink"], export["source"]
        )
    return MappingProxyType(rows)


class _Gpus(Mapping[str, GpuSpec]):
    """The table as a mapping that reads ``gpus.json`` when first asked: a calculation that names no accelerator
    never reads it."""

    def __getitem__(self, name: str) -> GpuSpec:
        return _table()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_table())

    def __len__(self) -> int:
        return len(_table())


#: Every accelerator by its name.
GPUS: Mapping[str, GpuSpec] = _Gpus()

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
    for row in GPUS.values():
        if _folded(row.name) == folded:
            return row
    alias = _ALIASES.get(folded)
    return GPUS[alias] if alias else None


def gpu_names() -> tuple[str, ...]:
    return tuple(GPUS)
