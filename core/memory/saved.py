"""What a framework's layers save for the backward pass, per token and layer, as its kernels save it.

``Kernels.FUSED`` (Transformer Engine under Megatron-LM) saves what Korthikanti et al. 2022 count
(``core.memory.activations.effbatch_layer``). ``Kernels.EAGER`` – PyTorch modules as Hugging Face's models and
torchtitan write them – saves more, each tensor named by the op that keeps it (bf16, 2 bytes an element):

- each RMSNorm (transformers' ``LlamaRMSNorm.forward``: ``hidden_states.to(torch.float32)``, ``pow(2)`` keeps that
  fp32 input, ``weight * hidden_states.to(input_dtype)`` keeps the bf16 normalised output): 4h + 2h, twice a layer;
- attention: Q and K after the rotary embedding, V (FlashAttention's / SDPA's saved inputs), its output (kept by
  the output projection too): 2 · (2 q_dim + 2 kv_dim); eager attention adds the fp32 softmax and its bf16 copy,
  6 bytes for each of heads × s scores;
- SwiGLU (``down_proj(act_fn(gate_proj(x)) * up_proj(x))``): the gate's output (kept by SiLU), SiLU's output and the
  up projection's (kept by the product), the product (kept by ``down_proj``): 4 · 2 · ffn; GeLU 2 · 2 · ffn.

Under FP8 (Transformer Engine's ``fp8_autocast``) the fused layers keep the inputs of their four matrix products
(QKV, attention projection, FC1, FC2) as the FP8 casts the weight-gradient GEMM reads (transformer_engine/pytorch/
module/layernorm_linear.py and linear.py ``ctx.save_for_backward`` of the FP8 ``ln_out`` / ``inputmat``): one
byte an element instead of two.

Under ``torch.autocast`` over fp32 parameters (``autocast=ja``) the residual stream stays fp32: the embedding's
output is fp32, transformers' ``LlamaRMSNorm.forward`` returns ``self.weight * hidden_states.to(input_dtype)`` with an
fp32 weight and input, and each residual sum adds a bf16 output to it. A norm then keeps its fp32 input and its fp32
output (for the weight's gradient) beside the bf16 copy its projection casts: 4h + 4h + 2h; full recomputation
keeps each layer's fp32 input, 4h.

torchtitan's op-level selective recomputation (torchtitan/distributed/activation_checkpoint.py ``_apply_op_sac``,
``_save_list`` and ``mm_count % 2``) keeps the block's input, the outputs of the 1st, 3rd, 5th and 7th matrix
product (wq, wv, w1, w2) and the attention's output: 2 · (2h + q_dim + kv_dim + ffn + q_dim).
Full recomputation keeps each layer's input (2h); under it and under the op-level policy the backward rebuilds
what one layer did not keep, one layer at a time (torch/utils/checkpoint.py: the recomputed forward runs inside
that layer's backward). With torchtitan's TP plan the norms are sequence-parallel (``SequenceParallel``) and the
attention's and feed-forward's inputs are all-gathered (``PrepareModuleInput`` Shard(1) → Replicate()): their
projections keep the whole sequence's input, 2h a token each, not divided by TP.
"""

from __future__ import annotations

from dataclasses import replace

from effbatch.core.memory import activations
from effbatch.core.memory.holders.base import Kernels
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Attention, Dtype, Framework, Recompute, Setup

#: Bytes each attention score costs in eager attention: the fp32 softmax and its bf16 copy.
EAGER_SCORE_BYTES = 6


def per_token(model: ModelSpec, setup: Setup, kernels: Kernels, recompute: Recompute) -> float:
    """Bytes one token keeps in one layer of the first stage (bf16; fp32 twice), with s as one rank holds it."""
    t, h = setup.tp, model.hidden
    split = t if setup.sequence_parallel or setup.framework is Framework.TORCHTITAN else 1
    width = activations.mlp_width(model)
    if recompute is Recompute.FULL:
        return max(2 * _factor(setup), _stream(setup, kernels)) * h / split
    if kernels is Kernels.FUSED:
        one = replace(setup, recompute=recompute)
        kept = activations.effbatch_layer(model, one, recompute) / _tokens(setup)
        if setup.dtype is Dtype.FP8:  # the four GEMM inputs kept in FP8: one byte each instead of two
            kept -= 2 * h / (t if setup.sequence_parallel else 1) + (model.q_dim + width) / t
        return kept
    if recompute is Recompute.SELECTIVE and setup.framework is Framework.TORCHTITAN:
        kept = 2 * (2 * h / split + (2 * model.q_dim + model.kv_dim + width) / t)
        return kept * _factor(setup)
    norms = 2 * (4 + 2 + (4 if _stream(setup, kernels) == 4 else 0)) * h / split  # an fp32 stream: the fp32 output
    gathered = 2 * 2 * h * (1 - 1 / split)  # sequence-parallel norms: the projections keep the all-gathered input
    attention = 2 * (2 * model.q_dim + 2 * model.kv_dim) / t
    mlp = (8 if model.swiglu else 4) * width / t
    scores = 0.0
    if setup.attention is Attention.EAGER and recompute is Recompute.NONE:
        scores = EAGER_SCORE_BYTES * model.heads * (setup.seq_len or 0) / (setup.cp * setup.sp) / t
    return (norms + gathered + attention + mlp + scores) * _factor(setup)


def working_set(model: ModelSpec, setup: Setup, kernels: Kernels, recompute: Recompute) -> float:
    """What one layer rebuilds during its backward, for the micro-batch: all it would have kept without
    recomputation, less what the policy kept (nothing beyond its input under full recomputation)."""
    rebuilt = per_token(model, setup, kernels, Recompute.NONE) - per_token(model, setup, kernels, recompute)
    return max(0.0, rebuilt) * _tokens(setup)


def _stream(setup: Setup, kernels: Kernels) -> int:
    """Bytes an element of the residual stream takes: 4 under autocast over fp32 parameters (eager modules), else 2."""
    return 4 if setup.autocast and kernels is Kernels.EAGER else 2


def _tokens(setup: Setup) -> float:
    return (setup.seq_len or 0) / (setup.cp * setup.sp) * setup.micro_batch


def _factor(setup: Setup) -> float:
    return setup.dtype.bytes / 2
