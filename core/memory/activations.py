"""Activation memory of the first pipeline stage, after Korthikanti et al. 2022 (arXiv 2205.05198).

Table 2, bytes per transformer layer (s sequence, b micro-batch, h hidden, a heads, t TP)::

    no parallelism                        sbh (34 + 5as/h)
    tensor parallel                       sbh (10 + 24/t + 5as/(ht))
    tensor + sequence parallel            sbh (34/t + 5as/(ht))
    tensor parallel + selective recompute sbh (10 + 24/t)
    tensor + sequence + selective         sbh (34/t)
    full recompute                        2 sbh

The 34 splits into 10 that tensor parallelism does not divide (two LayerNorm inputs 4, the inputs of the
QKV and first MLP projections 4, two dropout masks 2) and 24 that it does (Q and K 4, V 2, the attention
projection's input 2, the MLP's 4h activation input 8 and second projection input 8); 5as/h are the
s × s attention scores, softmax output and dropout mask, which selective recomputation (and
FlashAttention) do not keep.

``korthikanti`` takes the table as printed. ``effbatch`` counts the same tensors for the real shape:
Q and the attention output at the heads' width, K and V at the key-value heads' (grouped-query
attention), the MLP at its width (SwiGLU keeps the gate and up outputs and the down projection's
input: 6 · ffn instead of GeLU's 4 · ffn; an MoE layer its top-k experts' and the shared expert's widths),
and s as one rank holds it (s / (CP · SP)). fp32 doubles it.

The stage: §4.2.3 – the first of PP stages holds L/PP layers for min(a, PP) micro-batches (1F1B); with
the interleaved schedule L · (1 + (PP − 1)/(PP · VPP)). §4.3 – plus the embedding's dropout mask for each
micro-batch in flight and, with PP = 1, the output layer's 4sbh/t (1 + V/h).
"""

from __future__ import annotations

from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Attention, Dtype, Recompute, Rules, Setup


def korthikanti_layer(s: float, b: int, h: int, heads: int, t: int, sp: bool, recompute: Recompute) -> float:
    """Table 2: bytes one transformer layer keeps for the backward pass."""
    sbh = s * b * h
    if recompute is Recompute.FULL:
        return 2 * sbh
    scores = 0.0 if recompute is Recompute.SELECTIVE else 5 * heads * s / (h * t)
    if sp:
        return sbh * (34 / t + scores)
    return sbh * (10 + 24 / t + scores)


def effbatch_layer(model: ModelSpec, setup: Setup, recompute: Recompute) -> float:
    """Table 2's tensors counted for ``model``'s real shape, per layer, with s as one rank holds it."""
    s = setup.seq_len or 0
    local = s / (setup.cp * setup.sp)
    h, t = model.hidden, setup.tp
    sbh = local * setup.micro_batch * h
    unsplit = 1 / t if setup.sequence_parallel else 1.0
    if recompute is Recompute.FULL:
        return 2 * sbh * unsplit * _dtype_factor(setup.dtype)
    attention = (4 * model.q_dim + 4 * model.kv_dim) / h
    mlp = (6 if model.swiglu else 4) * mlp_width(model) / h
    eager = setup.attention_used is Attention.EAGER
    scores = 5 * model.heads * s / h if eager and recompute is Recompute.NONE else 0.0
    per_layer = sbh * (10 * unsplit + (attention + mlp + scores) / t)
    return per_layer * _dtype_factor(setup.dtype)


def mlp_width(model: ModelSpec) -> float:
    """The MLP width a token's activations have: dense ffn, or (MoE) the mean over layers of top-k experts."""
    if not model.moe:
        return model.ffn
    moe_width = model.topk * model.moe_ffn + model.shared_ffn
    return (model.dense_layers * model.ffn + model.moe_layers * moe_width) / model.layers


def _dtype_factor(dtype: Dtype) -> float:
    return dtype.bytes / 2


def stage_layers(model: ModelSpec, setup: Setup) -> float:
    """How many layers' activations the first stage holds: L/PP · min(a, PP), or interleaved
    L · (1 + (PP − 1)/(PP · VPP))."""
    pp = setup.pp
    if setup.vpp is not None and pp > 1:
        return model.layers * (1 + (pp - 1) / (pp * setup.vpp))
    return model.layers / pp * setup.in_flight


def last_stage_layers(model: ModelSpec, setup: Setup) -> float:
    """How many layers' activations the last stage holds: L/PP for the one micro-batch 1F1B keeps there, or
    interleaved (VPP − 1) · PP + 1 chunks of L/(PP · VPP) layers.

    megatron/core/pipeline_parallel/schedules.py lines 955-966 (``get_pp_rank_microbatches``): rank r warms up
    ``(pp - r - 1) * 2 + (num_model_chunks - 1) * microbatch_group_size_per_vp_stage`` (default pp) chunks
    before its first backward with interleaving, ``pp - r - 1`` micro-batches without – none on the last rank –
    and holds one more in the steady 1F1B (read at NVIDIA/Megatron-LM@d98e8a64).
    """
    pp = setup.pp
    if setup.vpp is not None and pp > 1:
        chunks = (setup.vpp - 1) * pp + 1
        return model.layers / (pp * setup.vpp) * min(chunks, (setup.accumulation or chunks) * setup.vpp)
    return model.layers / pp


def per_layer(model: ModelSpec, setup: Setup) -> float:
    """Bytes one layer keeps, by the set-up's convention (``korthikanti`` as printed, else for the shape)."""
    recompute = setup.recompute_used
    if setup.rules is Rules.KORTHIKANTI:
        s = (setup.seq_len or 0) / (setup.cp * setup.sp)  # the table knows no CP: s as one rank holds it
        return korthikanti_layer(
            s, setup.micro_batch, model.hidden, model.heads, setup.tp, setup.sequence_parallel, recompute
        )
    return effbatch_layer(model, setup, recompute)


def first_stage(model: ModelSpec, setup: Setup) -> tuple[float, float]:
    """(all activations of the first stage, those of one layer) in bytes (Korthikanti §4.2.3 and §4.3)."""
    layer = per_layer(model, setup)
    s = (setup.seq_len or 0) / (setup.cp * setup.sp)
    sbh = s * setup.micro_batch * model.hidden
    split = setup.tp if setup.sequence_parallel else 1
    total = layer * stage_layers(model, setup) + sbh * setup.in_flight / split
    if setup.pp == 1:
        total += 4 * sbh / setup.tp * (1 + model.vocab / model.hidden)
    return total, layer
