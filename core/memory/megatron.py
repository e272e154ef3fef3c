"""``regeln=megatron``: what Megatron-LM's ``report_theoretical_memory`` reports, to the byte.

A port of ``megatron/training/theoretical_memory_usage.py`` (NVIDIA/Megatron-LM at
d98e8a64ddf34856e74b24714e3bedb2f5a39553), its quirks included:

- 18 bytes a parameter (bf16 weights, fp32 gradients, fp32 master weights and Adam's two moments), or
  6 + 12/d with the distributed optimizer (``--use-distributed-optimizer``; ZeRO stages 2 and 3 it knows not);
- the vocabulary padded to a multiple of 128 · TP (``make_vocab_size_divisible_by``);
- parameters of the most loaded pipeline stage: 1/PP of the layers plus the embedding; biases other than
  the router's, QK norms and learned positions not counted;
- activations: with sequence parallelism and selective recomputation Table 2's 34/t generalised to
  18 + 4 · ffn/h; otherwise its formula "without SP", sbh (10 + 24/t) · 1,05, whatever the recomputation
  (it has no full recompute) – and no context parallelism anywhere.

Only the shapes effbatch's table has are ported: no multi-token prediction, no latent MoE, no hybrid models.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Recompute, Setup

#: ``--make-vocab-size-divisible-by``'s default.
VOCAB_DIVISIBLE_BY = 128


@dataclass(frozen=True)
class MegatronReport:
    """The three numbers Megatron prints, in bytes (it prints them in MB = 2²⁰ bytes), and what they rest on."""

    weight_and_optimizer: float
    activations: float
    params_on_most_loaded_shard: float
    with_sp_formula: bool

    @property
    def total(self) -> float:
        return self.weight_and_optimizer + self.activations


def padded_vocab(vocab: int, tp: int) -> int:
    """``vocab_size_with_padding``: up to a multiple of 128 · TP."""
    multiple = VOCAB_DIVISIBLE_BY * tp
    return math.ceil(vocab / multiple) * multiple


def report(model: ModelSpec, setup: Setup) -> MegatronReport:
    """``report_theoretical_memory(args, num_microbatches=a)`` for ``model`` and ``setup``."""
    weights, shard = weight_and_optimizer(model, setup)
    with_sp = setup.sequence_parallel and setup.recompute_used is Recompute.SELECTIVE
    activations = activation_memory(model, setup) if with_sp else activation_memory_without_sp(model, setup)
    return MegatronReport(weights, activations, shard, with_sp)


def _self_attention(model: ModelSpec) -> float:
    if model.mla is not None:
        return float(model.attention_params)
    ratio = model.q_dim / model.hidden
    return 2 * model.hidden * model.hidden * ((1 + model.kv_heads / model.heads) * ratio)


def weight_and_optimizer(model: ModelSpec, setup: Setup) -> tuple[float, float]:
    """``compute_weight_and_optimizer_memory``: bytes, and the parameters on the most loaded shard."""
    h, tp, pp = model.hidden, setup.tp, setup.pp
    gated = 3 / 2 if model.swiglu else 1
    norm = model.norm_size
    embedding = h * padded_vocab(model.vocab, tp)
    attention = _self_attention(model)
    dense_mlp = 2 * h * model.ffn * gated
    shared = 2 * h * model.shared_ffn * gated
    routed = 2 * h * model.moe_ffn * max(model.experts, 1) * gated if model.moe else 0
    layernorm = 2 * h * norm
    router = h * model.experts + (model.experts if model.bias else 0) if model.moe else 0
    dense_layers, moe_layers = model.layers - model.moe_layers, model.moe_layers
    tp_sharded = (attention + dense_mlp) * dense_layers + (attention + shared) * moe_layers
    replicated = layernorm * dense_layers + (layernorm + router) * moe_layers + norm * h
    expert_sharded = routed * moe_layers
    ep, etp = setup.ep, setup.expert_tp  # theoretical_memory_usage.py line 205: args.expert_tensor_parallel_size
    tp_on_shard = (tp_sharded / pp + embedding) / tp
    replicated_on_shard = replicated / pp
    expert_on_shard = expert_sharded / pp / (etp * ep)
    if not model.tied and pp == 1:
        tp_on_shard += embedding / tp
    shard = tp_on_shard + replicated_on_shard + expert_on_shard
    dp = max(1, setup.gpus // (tp * pp * setup.cp))  # Megatron refuses fewer GPUs than TP · PP · CP before this
    expert_dp = setup.gpus // (etp * ep * pp)
    distributed = setup.distributed_optimizer or setup.zero >= 1

    def per_param(data_parallel: int) -> float:
        return 6 + 12 / data_parallel if distributed else 18

    memory = (tp_on_shard + replicated_on_shard) * per_param(dp) + expert_on_shard * per_param(max(expert_dp, 1))
    return memory, shard


def per_layer(model: ModelSpec, setup: Setup, with_sp: bool) -> float:
    """The per-layer figure Megatron prints with ``verbose``: sbh (18 + 4 · ffn/h) / t, or sbh (10 + 24/t)."""
    sbh = (setup.seq_len or 0) * setup.micro_batch * model.hidden
    if with_sp:
        return sbh * (18 + 4 * (model.ffn / model.hidden)) / setup.tp
    return sbh * (10 + 24 / setup.tp)


def _in_flight_factor(setup: Setup) -> float:
    """The interleaving penalty, or (1F1B) min(1, a/PP): what both activation functions multiply by."""
    pp = setup.pp
    if setup.vpp is not None:
        return 1 + (pp - 1) / (pp * setup.vpp)
    if pp > 1 and setup.accumulation is not None:
        return min(1, setup.accumulation / pp)
    return 1.0


def activation_memory(model: ModelSpec, setup: Setup) -> float:
    """``compute_activation_memory`` (Table 2 with sequence parallelism and selective recomputation)."""
    s, b, h, pp = setup.seq_len or 0, setup.micro_batch, model.hidden, setup.pp
    memory = s * b * h * (18 + 4 * (model.ffn / h)) * model.layers
    memory += 8 * s * b * pp + s * b * h * pp
    memory *= _in_flight_factor(setup)
    if pp == 1:
        memory += s * b * h * 4 * (1 + padded_vocab(model.vocab, setup.tp) / h)
    return memory / setup.tp


#: ``compute_activation_memory_without_sp``'s allowance for temporaries.
OVERHEAD = 1.05


def activation_memory_without_sp(model: ModelSpec, setup: Setup) -> float:
    """``compute_activation_memory_without_sp``: sbh (10 + 24/t) a layer, embedding, logits, × 1,05."""
    s, b, h, pp, tp = setup.seq_len or 0, setup.micro_batch, model.hidden, setup.pp, setup.tp
    memory = s * b * h * (10 + 24 / tp) * model.layers
    memory += 8 * s * b * pp + s * b * h * pp
    memory *= _in_flight_factor(setup)
    if pp == 1:
        logits = s * b * padded_vocab(model.vocab, tp) / tp
        memory += (logits + s * b * h) * 2
    return memory * OVERHEAD
