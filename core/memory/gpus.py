"""Accelerators: memory, peak dense BF16 and FP8 FLOP/s, memory and link bandwidths, each from its maker's data sheet.

Memory is the data sheet's figure read in GiB (HBM stacks come in binary sizes: A100 80GB reports
81.920 MiB); what a training process can use is somewhat less (CUDA context, allocator fragmentation),
which the answer says. Peak is dense BF16 (and FP8) without sparsity: data sheets print the sparse figure,
twice as high, with an asterisk.

For the step time (``core.memory.step``) each row also has:

- ``hbm``: memory bandwidth in bytes/s (data sheet), what memory-bound kernels (norms, activations, the
  optimizer) run at;
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

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

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


_ROWS = (
    GpuSpec(
        "h100",
        "H100 SXM",
        80 * GIB,
        989.4 * TERA,
        "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): SXM5 BF16 dense 989.4 TFLOPS, 80 GB HBM3",
        fp8_flops=1978.9 * TERA,
        hbm=3.35e12,
        nvlink=450e9,
        net_gbps=400,
        matmul_efficiency=0.801,
        fp8_matmul_efficiency=0.734,
        attention_efficiency=0.35,
        sms=132,
        links_source=(
            "H100 whitepaper: FP8 dense 1,978.9 TFLOPS, HBM3 3.35 TB/s, 132 SMs, NVLink 4 900 GB/s; "
            "DGX H100 datasheet: 8x ConnectX-7 400 Gb/s InfiniBand"
        ),
    ),
    GpuSpec(
        "h200",
        "H200 SXM",
        141 * GIB,
        989.4 * TERA,
        "NVIDIA H200 datasheet: 141 GB HBM3e; BF16 1,979 TFLOPS with sparsity, dense half of it",
        fp8_flops=1978.9 * TERA,
        hbm=4.8e12,
        nvlink=450e9,
        net_gbps=400,
        matmul_efficiency=0.803,
        fp8_matmul_efficiency=0.734,
        attention_efficiency=0.35,
        sms=132,
        links_source=(
            "H200 datasheet: FP8 3,958 TFLOPS with sparsity, 4.8 TB/s, NVLink 900 GB/s; "
            "DGX H200: 8x ConnectX-7 400 Gb/s"
        ),
    ),
    GpuSpec(
        "b200",
        "B200",
        180 * GIB,
        2250 * TERA,
        "NVIDIA DGX B200 datasheet: 1,440 GB for 8 GPUs; HGX B200 BF16 36 PFLOPS for 8 with sparsity",
        fp8_flops=4500 * TERA,
        hbm=8e12,
        nvlink=900e9,
        net_gbps=400,
        matmul_efficiency=0.776,
        fp8_matmul_efficiency=0.763,
        attention_efficiency=0.35,
        sms=148,
        links_source=(
            "HGX B200: FP8 72 PFLOPS for 8 with sparsity, 8 TB/s HBM3e, NVLink 5 1.8 TB/s; "
            "DGX B200: 8x ConnectX-7 400 Gb/s"
        ),
    ),
    GpuSpec(
        "a100-40",
        "A100 40GB",
        40 * GIB,
        312 * TERA,
        "NVIDIA A100 datasheet: BF16 312 TFLOPS (624 with sparsity), 40 GB HBM2",
        hbm=1.555e12,
        nvlink=300e9,
        net_gbps=200,
        matmul_efficiency=0.859,
        attention_efficiency=0.60,
        sms=108,
        links_source="A100 datasheet: 1,555 GB/s, NVLink 3 600 GB/s, no FP8; DGX A100: 8x 200 Gb/s HDR InfiniBand",
    ),
    GpuSpec(
        "a100-80",
        "A100 80GB",
        80 * GIB,
        312 * TERA,
        "NVIDIA A100 datasheet: BF16 312 TFLOPS (624 with sparsity), 80 GB HBM2e",
        hbm=2.039e12,
        nvlink=300e9,
        net_gbps=200,
        matmul_efficiency=0.859,
        attention_efficiency=0.60,
        sms=108,
        links_source="A100 datasheet: 2,039 GB/s, NVLink 3 600 GB/s, no FP8; DGX A100: 8x 200 Gb/s HDR InfiniBand",
    ),
    GpuSpec(
        "l40s",
        "L40S",
        48 * GIB,
        362.05 * TERA,
        "NVIDIA L40S datasheet: BF16 362.05 TFLOPS (733 with sparsity), 48 GB GDDR6",
        fp8_flops=733 * TERA,
        hbm=864e9,
        nvlink=32e9,
        net_gbps=100,
        sms=142,
        links_source=(
            "L40S datasheet: FP8 1,466 TFLOPS with sparsity, 864 GB/s, PCIe Gen4 x16 (64 GB/s both ways), no NVLink; "
            "no reference node: 100 Gb/s per GPU assumed"
        ),
    ),
    GpuSpec(
        "mi300x",
        "MI300X",
        192 * GIB,
        1307.4 * TERA,
        "AMD Instinct MI300X datasheet: BF16 1,307.4 TFLOPS dense, 192 GB HBM3",
        fp8_flops=2614.9 * TERA,
        hbm=5.3e12,
        nvlink=448e9,
        net_gbps=400,
        matmul_efficiency=0.601,
        attention_efficiency=0.35,
        sms=304,
        links_source=(
            "MI300X datasheet: FP8 2,614.9 TFLOPS dense, 5.3 TB/s, 304 CUs, 7 Infinity Fabric links of 64 GB/s; "
            "MI300X platform: 8x 400 Gb/s NICs"
        ),
    ),
    GpuSpec(
        "tpu-v5e",
        "TPU v5e",
        16 * GIB,
        197 * TERA,
        "Google Cloud TPU v5e documentation: BF16 197 TFLOPS, 16 GB HBM2 per chip",
        hbm=819e9,
        nvlink=200e9,
        net_gbps=1600,
        links_source="TPU v5e documentation: 819 GB/s HBM, inter-chip interconnect 1,600 Gbps, no FP8",
    ),
    GpuSpec(
        "tpu-v5p",
        "TPU v5p",
        95 * GIB,
        459 * TERA,
        "Google Cloud TPU v5p documentation: BF16 459 TFLOPS, 95 GB HBM2e per chip",
        hbm=2.765e12,
        nvlink=600e9,
        net_gbps=4800,
        links_source="TPU v5p documentation: 2,765 GB/s HBM, inter-chip interconnect 4,800 Gbps, no FP8",
    ),
)


def _export_variant(base: GpuSpec, name: str, title: str, nvlink: float, source: str) -> GpuSpec:
    """An export version of ``base`` (A800, H800): the same chip, memory and peak, a slower NVLink between cards."""
    return replace(base, name=name, title=title, nvlink=nvlink, links_source=f"{source}; otherwise as {base.title}")


_BY_NAME = {row.name: row for row in _ROWS}
_EXPORT = (
    _export_variant(
        _BY_NAME["a100-80"], "a800", "A800 80GB", 200e9, "NVIDIA A800 datasheet: NVLink 400 GB/s (A100: 600 GB/s)"
    ),
    _export_variant(
        _BY_NAME["h100"], "h800", "H800 SXM", 200e9, "NVIDIA H800 SXM5 datasheet: NVLink 400 GB/s (H100: 900 GB/s)"
    ),
)

#: Every accelerator by its name.
GPUS: Mapping[str, GpuSpec] = MappingProxyType({row.name: row for row in (*_ROWS, *_EXPORT)})

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
