"""How long a step's kernels run on one GPU: matrix products, attention, memory-bound work, recomputation.

A step's model FLOPs are split as ``core.memory.time`` counts them: the matrix products (6 · N_matmul a
token) and the attention scores (12 · L · s · d_attn a token). Each GPU does 1/GPUs of them.

- Matrix products run at the share of the peak the best-shaped product reaches on that card (``GpuSpec``'s
  ``matmul_efficiency``, measured), times what the layer's own shapes allow: a product of M × K by K × N in
  tiles of 128 × 256 runs in waves over the card's SMs, and the last wave is part empty (NVIDIA, *Matrix
  Multiplication Background User's Guide*, "Wave Quantization"); a product whose bytes outweigh its FLOPs
  runs at memory speed (the roofline: FLOPs per byte = 2MNK / (2 (MK + KN + MN)) against peak / bandwidth).
  M is the tokens of a micro-batch on the GPU (b · s / (CP · SP)), N and K the layer's widths over TP.
- FP8 (Transformer Engine, torchao float8) runs the products at the FP8 peak and its own measured share, but
  casts each product's inputs first (read 2 bytes, write 1, a memory-bound pass), weights once a micro-batch.
- Attention with FlashAttention computes the causal half of the s × s scores: 4 · s · d forward and 2,5 times
  that backward (Dao 2023, §3.1: five products backward to two forward), so 7/12 of the 12 · s · d the model
  FLOPs count, at the rate the kernel itself was measured at on that card for that sequence length and head
  size (``ATTENTION_TFLOPS``: FlashAttention-2's paper, Fig. 4 and 7, forward and backward with the causal mask,
  FLOPs counted as here) – far below the products' share on Hopper, and lower at short sequences, where a
  kernel has few blocks of keys a query block to stream through. ``attention=triton`` is the Triton
  FlashAttention kernel (llm-foundry's ``attn_impl: triton``, copied from flash-attn's ``flash_attn_triton.py``);
  cards without a measured curve take ``attention_efficiency`` of the BF16 peak. Eager attention
  (``attention=eager``) multiplies the whole s × s score matrix as batched products (all of the 12 · s · d, at
  the products' share) and writes, softmaxes and reads the scores in memory: per token, layer and head s values
  of 2 bytes, six passes forward and backward – the s² term that dominates at long sequences.
- Memory-bound work: per token and layer the norms, residual additions, rotary embedding and the gated
  activation read and write about 10h + 2(d_q + d_kv) + 3·ffn (2·ffn ungated) values forward, twice that
  backward; the cross-entropy over the vocabulary reads and writes V fp32 values three times. It runs at the
  card's memory bandwidth times ``MEMORY_EFFICIENCY``. That count is what fused kernels move (Megatron-Core with
  Transformer Engine fuses the norm, the gated activation, rotary embedding and bias-dropout-add); PyTorch's
  eager modules move about three times as much (``UNFUSED_TRAFFIC``: Hugging Face's ``LlamaRMSNorm`` casts to
  FP32, squares, averages, scales and casts back in five kernels, 36h bytes where a fused norm moves 4h;
  ``rotate_half`` slices, negates and concatenates), and so does every framework but Megatron here.
- Recomputation: ``full`` runs each layer's forward again (a third of products and memory-bound work, 2/7 of
  attention); an explicit ``selective`` reruns the attention core (Korthikanti et al. 2022, §5), except in
  torchtitan, whose op-level selective policy keeps attention's output and every other matrix product and reruns
  the rest (``parallelize_llama.py``: ``_save_list`` and the ``mm`` counter): half the products' forward and all
  memory-bound work's; without ``recompute=`` FlashAttention keeps no scores and nothing is recomputed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Attention, Dtype, Framework, Recompute, Setup

#: The share of the data sheet's memory bandwidth a streaming kernel reaches: a 4 GiB copy on an H100 reaches
#: 90,6 % (ml-engineering's measurement); PyTorch's unfused elementwise kernels less – 80 %.
MEMORY_EFFICIENCY = 0.8
#: The memory-bound bytes eager PyTorch moves over what fused kernels move (norms, activation, rotary embedding).
UNFUSED_TRAFFIC = 3.0
#: Where no one published a card's best matrix-product share: the H100's measured 80 %.
DEFAULT_MATMUL_EFFICIENCY = 0.80
#: Where no FlashAttention share is published: FlashAttention-2's 35 % on Hopper (the lowest documented).
DEFAULT_ATTENTION_EFFICIENCY = 0.35
#: cuBLAS's large tile on Hopper and Ampere: 128 × 256 outputs a thread block.
TILE_M, TILE_N = 128, 256
#: FlashAttention's measured forward + backward rate with the causal mask, in TFLOP/s, by head size and sequence
#: length (Dao 2023, "FlashAttention-2", Fig. 4 (d)/(c) on A100 80GB SXM4 and Fig. 7 (d)/(c) on H100 80GB SXM5;
#: the same bars as flash-attn's assets/flash2_{a100,h100}_fwd_bwd_benchmark.png; 16k tokens a batch, hidden 2048;
#: FLOPs counted with the causal half, as ``CAUSAL_ATTENTION_WORK`` does). Triton: the "FlashAttention Triton"
#: bars on A100; on H100 nobody published them, so its H100 row is FlashAttention-1's bars on that card, which
#: the Triton kernel tracks within 6 % on A100 in the same figure (and its docstring: "Overall Triton forward +
#: backward is slightly slower than the CUDA version"). The H200 is the H100's chip (same SMs and clocks).
ATTENTION_TFLOPS: dict[tuple[Attention, str, int], tuple[float, ...]] = {
    (Attention.FLASH, "h100", 128): (163, 221, 265, 294, 308, 328),
    (Attention.FLASH, "h100", 64): (141, 192, 232, 257, 273, 284),
    (Attention.FLASH, "a100", 128): (99, 133, 155, 173, 182, 189),
    (Attention.FLASH, "a100", 64): (88, 119, 140, 156, 165, 171),
    (Attention.TRITON, "h100", 128): (98, 109, 108, 126, 135, 137),
    (Attention.TRITON, "h100", 64): (104, 123, 136, 138, 149, 156),
    (Attention.TRITON, "a100", 128): (50, 61, 68, 74, 78, 80),
    (Attention.TRITON, "a100", 64): (59, 75, 79, 76, 79, 80),
}
#: The sequence lengths of those bars: 512 to 16k; longer sequences run at the 16k rate, shorter at the 512 one.
ATTENTION_SEQ_LENS = (512, 1024, 2048, 4096, 8192, 16384)
#: The cards whose bars those are (an H200, and the 96 GB HBM2e H100, is an H100 chip with other memory).
ATTENTION_CARDS = {
    **{"h100": "h100", "h100-96": "h100", "h200": "h100", "h800": "h100"},
    **{"a100-40": "a100", "a100-80": "a100", "a800": "a100"},
}
#: Causal FlashAttention's real work over the model FLOPs' 12 · s · d: (1 + 2,5) · 4 · s · d / 2.
CAUSAL_ATTENTION_WORK = 7 / 12
#: TF32 (what fp32 training's products run in) is half the BF16 rate on A100 and H100.
TF32_SHARE = 0.5


@dataclass(frozen=True)
class Kernels:
    """Seconds one GPU spends on a whole step's kernels, and what it would spend recomputing."""

    matmul: float
    attention: float
    memory: float
    recompute: float
    matmul_efficiency: float  # the share of the peak the products reach, shapes included

    @property
    def compute(self) -> float:
        return self.matmul + self.attention + self.memory


def matmul_split(model: ModelSpec | None, per_token: float, seq_len: int) -> tuple[float, float]:
    """Model FLOPs a token in matrix products and in attention scores (no model: all products)."""
    if model is None:
        return per_token, 0.0
    attention = 12.0 * model.layers * seq_len * model.q_dim
    return per_token - attention, attention


def kernels(model: ModelSpec | None, per_token: float, setup: Setup, gpu: GpuSpec) -> Kernels:
    """A step's kernels on one GPU of ``setup``: each part from its FLOPs or bytes and the card's rate."""
    seq_len = setup.seq_len or 0
    tokens = setup.micro_batch * (setup.accumulation or 1) * setup.data_parallel * seq_len
    share = tokens / setup.gpus  # the tokens' work one GPU does
    matmul_flops, attention_flops = matmul_split(model, per_token, seq_len)
    efficiency = shape_efficiency(model, setup, gpu)
    matmul = matmul_flops * share / (_matmul_peak(setup.dtype, gpu) * efficiency)
    attention = attention_seconds(model, attention_flops, setup, gpu) * share
    memory = memory_bytes(model, setup) * share / (gpu.hbm * MEMORY_EFFICIENCY) if gpu.hbm else 0.0
    memory += fp8_cast_seconds(model, setup, gpu, share)
    recompute = _recompute(setup, matmul, attention, memory)
    return Kernels(matmul, attention, memory, recompute, efficiency * _matmul_peak(setup.dtype, gpu) / gpu.peak_flops)


def attention_seconds(model: ModelSpec | None, flops: float, setup: Setup, gpu: GpuSpec) -> float:
    """A token's attention: FlashAttention's causal half at its share of the peak, or eager attention's whole
    score matrix at the products' share and its scores through memory."""
    if model is None or setup.attention is not Attention.EAGER:
        return flops * CAUSAL_ATTENTION_WORK / attention_rate(model, setup, gpu)
    scores = 6 * 2 * model.layers * model.heads * (setup.seq_len or 0)
    return flops / _matmul_peak(Dtype.BF16, gpu) + (scores / (gpu.hbm * MEMORY_EFFICIENCY) if gpu.hbm else 0.0)


def attention_rate(model: ModelSpec | None, setup: Setup, gpu: GpuSpec) -> float:
    """FLOP/s the FlashAttention kernel reaches on ``gpu``: its measured bars, read between sequence lengths on a
    log scale at the length one call sees (s / CP: ring attention runs blocks of the local chunk), for heads of 64
    or 128 (the nearer); else ``attention_efficiency`` of the peak."""
    card = ATTENTION_CARDS.get(gpu.name)
    kernel = Attention.TRITON if setup.attention is Attention.TRITON else Attention.FLASH
    head = 64 if model is not None and model.kv_channels < 96 else 128
    bars = ATTENTION_TFLOPS.get((kernel, card, head)) if card else None
    if bars is None:
        return gpu.peak_flops * (gpu.attention_efficiency or DEFAULT_ATTENTION_EFFICIENCY)
    x = math.log2(max(1, (setup.seq_len or 0) // setup.cp) / ATTENTION_SEQ_LENS[0])
    i = min(max(0, int(x)), len(bars) - 2)
    t = min(max(x - i, 0.0), 1.0)
    return (bars[i] + (bars[i + 1] - bars[i]) * t) * 1e12


def _matmul_peak(dtype: Dtype, gpu: GpuSpec) -> float:
    """The rate the products run at: FP8 peak and share where the card has FP8, else BF16 (TF32 for fp32)."""
    if dtype is Dtype.FP8 and gpu.fp8_flops:
        return gpu.fp8_flops * (gpu.fp8_matmul_efficiency or gpu.matmul_efficiency or DEFAULT_MATMUL_EFFICIENCY)
    share = gpu.matmul_efficiency or DEFAULT_MATMUL_EFFICIENCY
    return gpu.peak_flops * share * (TF32_SHARE if dtype is Dtype.FP32 else 1.0)


def _recompute(setup: Setup, matmul: float, attention: float, memory: float) -> float:
    """Full: the forward again (a third of products and memory-bound work, 2/7 of attention); selective given
    explicitly: the attention core's forward (torchtitan's: half the products' and the memory-bound forward);
    none or unset: nothing."""
    if setup.recompute is Recompute.FULL:
        return matmul / 3 + attention * 2 / 7 + memory / 3
    if setup.recompute is Recompute.SELECTIVE and setup.framework is Framework.TORCHTITAN:
        return matmul / 6 + memory / 3
    if setup.recompute is Recompute.SELECTIVE:
        return attention * 2 / 7
    return 0.0


def layer_products(model: ModelSpec, tp: int) -> list[tuple[int, int, float, bool]]:
    """A layer's forward products as (N, K, share of the layer's FLOPs, routed expert's): QKV, output, MLP in and
    out; an MoE layer's routed experts each their own product of moe_ffn over TP (TE's ``GroupedLinear`` runs one
    GEMM a local expert), their share top-k times one expert's."""
    h, q, kv = model.hidden, model.q_dim, model.kv_dim
    gates = 2 if model.swiglu else 1
    shapes = [((q + 2 * kv) // tp, h, 1, False), (h, q // tp, 1, False)]
    mlps = [(model.moe_ffn, model.topk, True), (model.shared_ffn, 1, False)] if model.moe else [(model.ffn, 1, False)]
    for ffn, copies, routed in (m for m in mlps if m[0]):
        shapes += [(gates * ffn // tp, h, copies, routed), (h, ffn // tp, copies, routed)]
    total = sum(n * k * c for n, k, c, _ in shapes)
    return [(max(1, n), max(1, k), n * k * c / total, routed) for n, k, c, routed in shapes]


def shape_efficiency(model: ModelSpec | None, setup: Setup, gpu: GpuSpec) -> float:
    """The share of the best product's rate this layer's products reach: waves and roofline, FLOP-weighted."""
    if model is None or not setup.seq_len:
        return 1.0
    rows = max(1, setup.micro_batch * setup.seq_len // (setup.cp * setup.sp))
    expert_rows = max(1, rows * model.topk * setup.ep // model.experts) if model.moe else rows  # one expert's
    width = 1 if setup.dtype is Dtype.FP8 else 2
    ridge = _matmul_peak(setup.dtype, gpu) / gpu.hbm if gpu.hbm else 0.0
    return sum(
        share * _product_efficiency(expert_rows if routed else rows, n, k, gpu.sms, width, ridge)
        for n, k, share, routed in layer_products(model, setup.tp)
    )


def _product_efficiency(m: int, n: int, k: int, sms: int, width: int, ridge: float) -> float:
    """One product's share of the best rate: the part-empty last wave of tiles, or memory speed if lower."""
    waves = 1.0
    if sms:
        tiles = math.ceil(m / TILE_M) * math.ceil(n / TILE_N)
        waves = tiles / (math.ceil(tiles / sms) * sms)
    intensity = 2 * m * n * k / (width * (m * k + k * n + m * n))
    return min(waves, intensity / ridge) if ridge else waves


def memory_bytes(model: ModelSpec | None, setup: Setup) -> float:
    """Bytes the memory-bound kernels move a token: per layer 3 × (10h + 2(d_q + d_kv) + gated ffn) values of
    2 bytes (``UNFUSED_TRAFFIC`` times that outside Megatron), and the loss 3 · V fp32 values (no model: none)."""
    if model is None:
        return 0.0
    h, ffn = model.hidden, (model.moe_ffn * model.topk + model.shared_ffn if model.moe else model.ffn)
    values = 10 * h + 2 * (model.q_dim + model.kv_dim) + (3 if model.swiglu else 2) * ffn
    fused = 1.0 if setup.framework is Framework.MEGATRON else UNFUSED_TRAFFIC
    return model.layers * 3 * values * 2 * fused + 3 * model.vocab * 4


def fp8_cast_seconds(model: ModelSpec | None, setup: Setup, gpu: GpuSpec, tokens: float) -> float:
    """FP8's casts on one GPU doing ``tokens`` tokens' share of the work: each product's input (forward, and the
    gradients backward) and each local weight once a micro-batch, forward and transposed, 3 bytes a value (read
    BF16, write FP8); nothing without FP8 or a model."""
    if setup.dtype is not Dtype.FP8 or model is None or not gpu.fp8_flops or not gpu.hbm:
        return 0.0
    h, q, kv = model.hidden, model.q_dim, model.kv_dim
    ffn = model.moe_ffn * model.topk + model.shared_ffn if model.moe else model.ffn
    per_token = model.layers * 3 * (3 * h + 2 * q + 2 * kv + 3 * ffn)
    weights = 2 * 3 * model.active_params / (setup.tp * setup.pp) * (setup.accumulation or 1)
    return (per_token * tokens + weights) / (gpu.hbm * MEMORY_EFFICIENCY)


def output_layer_seconds(model: ModelSpec | None, setup: Setup, gpu: GpuSpec) -> float:
    """A micro-batch's output layer and loss on one GPU of the last pipeline stage (6 · V · h FLOPs a token over
    TP, 3 · V fp32 values a token): what that stage does beyond the others."""
    if model is None or not setup.seq_len:
        return 0.0
    tokens = setup.micro_batch * setup.seq_len / (setup.cp * setup.sp)
    products = 6 * model.vocab * model.hidden * tokens / setup.tp / _matmul_peak(setup.dtype, gpu)
    loss = 3 * model.vocab * 4 * tokens / setup.tp / (gpu.hbm * MEMORY_EFFICIENCY) if gpu.hbm else 0.0
    return products + loss
