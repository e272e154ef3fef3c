"""Memory per GPU by each convention, held against the numbers its source gives.

Megatron-LM and DeepSpeed rows: their own functions run in a throwaway environment outside this
repository on the same inputs (Megatron-LM d98e8a64ddf34856e74b24714e3bedb2f5a39553,
megatron/training/theoretical_memory_usage.py: ``compute_weight_and_optimizer_memory``,
``compute_activation_memory``, ``compute_activation_memory_without_sp`` via
``report_theoretical_memory(args, num_microbatches=a)``, the vocabulary padded by
megatron/core/tokenizers/utils/build_tokenizer.py:133; DeepSpeed edaa7221267243c7be7fb49c5d5f5c4fb97b4641,
deepspeed/runtime/zero/stage_1_and_2.py:3081 ``estimate_zero2_model_states_mem_needs`` and
deepspeed/runtime/zero/stage3.py:3744 ``estimate_zero3_model_states_mem_needs``). Papers: as each row says.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from effbatch.core.memory import (
    MODELS,
    Dtype,
    Offload,
    Quirk,
    Recompute,
    Rules,
    Setup,
    deepspeed,
    estimate_params,
    find_model,
    megatron,
)
from effbatch.core.memory.activations import effbatch_layer, korthikanti_layer
from effbatch.core.memory.estimate import estimate
from effbatch.core.memory.setup import Attention

SELECTIVE_SP: dict[str, Any] = {"sequence_parallel": True, "recompute": Recompute.SELECTIVE, "rules": Rules.MEGATRON}


@pytest.mark.parametrize(
    ("name", "total", "active"),
    [
        # Exact counts of the Hugging Face checkpoints (safetensors metadata "total" of each model card).
        ("llama2-7b", 6_738_415_616, None),
        ("llama2-13b", 13_015_864_320, None),
        ("llama2-70b", 68_976_648_192, None),
        ("llama3.1-8b", 8_030_261_248, None),
        ("llama3.1-70b", 70_553_706_496, None),
        ("llama3.1-405b", 405_853_388_800, None),
        ("mistral-7b", 7_241_732_096, None),
        ("mixtral-8x7b", 46_702_792_704, None),
        ("qwen2.5-7b", 7_615_616_512, None),
        ("qwen2.5-72b", 72_706_203_648, None),
    ],
)
def test_parameter_counts_are_the_checkpoints(name: str, total: int, active: int | None) -> None:
    """The shape in the table adds up to the parameters the published checkpoint has, to the parameter."""
    assert MODELS[name].total_params == total


@pytest.mark.parametrize(
    ("name", "published", "active"),
    [
        ("mixtral-8x7b", 46.7e9, 12.9e9),  # Mistral AI, "Mixtral of experts" (2024): 46.7B, 12.9B active
        ("deepseek-v3", 671e9, 37e9),  # DeepSeek-V3 technical report: 671B total, 37B activated (MTP apart)
        ("gpt3-175b", 175e9, None),  # Brown et al. 2020, Table 2.1
        ("olmo2-7b", 7.3e9, None),  # OLMo 2 model card: 7B = 7,3B
        ("olmo2-13b", 13.7e9, None),
        ("olmo2-32b", 32.2e9, None),
    ],
)
def test_parameter_counts_match_the_published_rounding(name: str, published: float, active: float | None) -> None:
    """Rounded totals as their papers print them (within 1,5 %: GPT-3's "175B" is 174,6B)."""
    model = MODELS[name]
    assert model.total_params == pytest.approx(published, rel=0.015)
    if active is not None:
        assert model.active_params == pytest.approx(active, rel=0.015)


@pytest.mark.parametrize(
    ("typed", "name"),
    [("llama3.1-8b", "llama3.1-8b"), ("Llama-3.1-8B", "llama3.1-8b"), ("meta-llama/Llama-3.1-70B", "llama3.1-70b"),
     ("llama3-405b", "llama3.1-405b"), ("Qwen2.5-72B", "qwen2.5-72b"), ("OLMo-2-1124-7B", "olmo2-7b"),
     ("mixtral", "mixtral-8x7b"), ("DeepSeek-V3", "deepseek-v3"), ("gpt3", "gpt3-175b")],
)  # fmt: skip
def test_model_names_as_people_type_them(typed: str, name: str) -> None:
    """Hugging Face ids, titles and short forms find the same row."""
    found = find_model(typed)
    assert found is not None
    assert found.name == name


# (model, set-up, Megatron's weight_and_optimizer bytes, its activation bytes) – each ran as described above.
MEGATRON_ROWS: list[tuple[str, dict[str, Any], float, float]] = [
    # no distributed optimizer, no SP: 18 bytes a parameter and the "without SP" formula × 1,05
    ("llama2-7b", {"gpus": 8, "seq_len": 4096, "accumulation": 8}, 121291481088.0, 19494425395.2),
    ("llama3.1-8b", {"tp": 2, "gpus": 16, "micro_batch": 2, "seq_len": 8192, "accumulation": 4,
                     "distributed_optimizer": True, **SELECTIVE_SP}, 30114478080.0, 38730268672.0),
    ("llama3.1-70b", {"tp": 8, "pp": 4, "gpus": 256, "seq_len": 8192, "accumulation": 16,
                      "distributed_optimizer": True, **SELECTIVE_SP}, 17036590080.0, 21508423680.0),
    # a = 2 < PP = 4: the stage holds two micro-batches, half as many activations
    ("llama3.1-70b", {"tp": 8, "pp": 4, "gpus": 256, "seq_len": 8192, "accumulation": 2,
                      "distributed_optimizer": True, **SELECTIVE_SP}, 17036590080.0, 10754211840.0),
    # Llama 3 405B's 8.192-GPU layout (Dubey et al. 2024, Table 4: TP 8, PP 16, DP 64, 32 sequences a DP rank)
    ("llama3.1-405b", {"tp": 8, "pp": 16, "gpus": 8192, "seq_len": 8192, "accumulation": 32,
                       "distributed_optimizer": True, **SELECTIVE_SP}, 21052126656.0, 65800372224.0),
    # interleaved schedule (VPP 2), tied embeddings, LayerNorm, GeLU
    ("gpt3-175b", {"tp": 8, "pp": 8, "vpp": 2, "gpus": 1024, "seq_len": 2048, "accumulation": 192,
                   **SELECTIVE_SP}, 50348611584.0, 14795955200.0),
    ("mixtral-8x7b", {"tp": 2, "ep": 8, "gpus": 64, "seq_len": 4096, "accumulation": 8,
                      "distributed_optimizer": True, **SELECTIVE_SP}, 30489306624.0, 8894038016.0),
    # multi-head latent attention, 3 dense + 58 MoE layers, expert data parallelism 2048 / (64 · 16) = 2
    ("deepseek-v3", {"pp": 16, "ep": 64, "gpus": 2048, "seq_len": 4096, "accumulation": 16,
                     "distributed_optimizer": True, "rules": Rules.MEGATRON}, 19123486218.0, 64431351398.4),
    # its quirks: CP 2 and full recompute change nothing in its estimate
    ("qwen2.5-72b", {"tp": 8, "cp": 2, "gpus": 64, "seq_len": 32768, "accumulation": 4,
                     "distributed_optimizer": True, "recompute": Recompute.FULL, "rules": Rules.MEGATRON},
     81813381120.0, 295289762611.2),
]  # fmt: skip


@pytest.mark.parametrize(("name", "setup", "weights", "activations"), MEGATRON_ROWS)
def test_megatron_rules_are_megatrons_report(
    name: str, setup: dict[str, Any], weights: float, activations: float
) -> None:
    """``regeln=megatron`` gives what Megatron-LM's own estimate reports, to the byte."""
    chosen = Setup(**{"rules": Rules.MEGATRON, **setup})
    found = megatron.report(MODELS[name], chosen)
    assert found.weight_and_optimizer == pytest.approx(weights, rel=1e-12)
    assert found.activations == pytest.approx(activations, rel=1e-12)
    memory = estimate(MODELS[name], chosen)
    assert memory.model_states == round(weights)
    assert memory.activations == round(activations)


def test_megatron_quirks_are_said() -> None:
    """CP and full recomputation, which Megatron's estimate ignores, come back as quirks to say."""
    name, setup, _, _ = MEGATRON_ROWS[-1]
    quirks = estimate(MODELS[name], Setup(**setup)).quirks
    assert Quirk.MEGATRON_IGNORES_CP in quirks
    assert Quirk.MEGATRON_NO_FULL_RECOMPUTE in quirks
    assert Quirk.MEGATRON_WITHOUT_SP_FORMULA in quirks


def test_megatron_pads_the_vocabulary() -> None:
    """``vocab_size_with_padding``: 50.257 → 50.304 at TP 1, 51.200 at TP 8 (multiples of 128 · TP)."""
    assert megatron.padded_vocab(50257, 1) == 50304
    assert megatron.padded_vocab(50257, 8) == 51200
    assert megatron.padded_vocab(128256, 8) == 129024


# DeepSpeed's estimators: (arguments, (cpu, gpu)) as they returned them.
DEEPSPEED_ZERO2 = [
    ((6_738_415_616, 8, 1, False), (323443949568, 28638266368)),
    ((6_738_415_616, 8, 1, True), (323443949568, 13476831232)),
    ((68_976_648_192, 8, 4, False), (3310879113216, 176752660992)),
    ((68_976_648_192, 8, 4, True), (13243516452864, 137953296384)),
    ((7_000_000_000, 1, 1, False), (42000000000, 140000000000)),  # 20 bytes a parameter on one GPU
    ((7_000_000_000, 1, 1, True), (168000000000, 14000000000)),
]


@pytest.mark.parametrize(("arguments", "expected"), DEEPSPEED_ZERO2)
def test_deepspeed_zero2_is_its_estimator(arguments: tuple[int, int, int, bool], expected: tuple[int, int]) -> None:
    """``estimate_zero2_model_states_mem_needs(total_params, gpus_per_node, nodes, cpu_offload)``."""
    found = deepspeed.zero2(*arguments)
    assert (found.cpu, found.gpu) == expected


# (total, largest layer, GPUs a node, nodes, offload optimizer, offload params, zero_init) → (cpu, gpu, 4 · largest)
DEEPSPEED_ZERO3 = [
    ((8030261248, 525336576, 8, 2, True, True, True), (108408526848, 2101346304)),
    ((8030261248, 525336576, 8, 2, True, True, False), (385452539904, 2101346304)),
    ((8030261248, 525336576, 8, 2, True, False, True), (96363134976, 3105128960)),
    ((8030261248, 525336576, 8, 2, True, False, False), (385452539904, 3105128960)),
    ((8030261248, 525336576, 8, 2, False, False, True), (25216155648, 11135390208)),
    ((8030261248, 525336576, 8, 2, False, False, False), (385452539904, 11135390208)),
    ((405853388800, 2101346304, 8, 16, True, True, True), (684877593600, 8405385216)),
    ((405853388800, 2101346304, 8, 16, True, False, True), (608780083200, 14746844416)),
    ((405853388800, 2101346304, 8, 16, False, False, True), (100864622592, 65478518016)),
    ((405853388800, 2101346304, 8, 16, False, False, False), (19480962662400, 65478518016)),
    ((7_000_000_000, 131_072_000, 8, 1, True, True, True), (189000000000, 524288000)),
    ((7_000_000_000, 131_072_000, 8, 1, False, False, True), (6291456000, 16274288000)),
]


@pytest.mark.parametrize(("arguments", "expected"), DEEPSPEED_ZERO3)
def test_deepspeed_zero3_is_its_estimator(arguments: tuple[Any, ...], expected: tuple[int, int]) -> None:
    """``estimate_zero3_model_states_mem_needs(...)`` for every offload option it prints."""
    total, largest, per_node, nodes, offload, offload_params, zero_init = arguments
    found = deepspeed.zero3(
        total, largest, per_node, nodes, cpu_offload=offload, cpu_offload_params=offload_params, zero_init=zero_init
    )
    assert (found.cpu, found.gpu) == expected
    assert found.largest_layer_memory == 4 * largest


def test_deepspeed_rules_through_estimate() -> None:
    """``regeln=deepspeed zero=3`` for Llama 3.1 8B on 2 × 8 GPUs: its GPU line and its CPU line, split up."""
    setup = Setup(gpus=16, nodes=2, zero=3, rules=Rules.DEEPSPEED, seq_len=4096)
    found = estimate(MODELS["llama3.1-8b"], setup)
    assert found.model_states == 11135390208
    assert found.gather_buffer == 2101346304
    assert found.cpu_per_node == 25216155648
    assert found.activations is not None
    assert Quirk.DEEPSPEED_ACTIVATIONS in found.quirks


# ZeRO paper (Rajbhandari et al. 2020), Figure 1: Ψ = 7,5B, N_d = 64, K = 12, in GB (10⁹ bytes).
ZERO_PAPER = [(0, 120.0), (1, 31.4), (2, 16.6), (3, 1.9)]


@pytest.mark.parametrize(("stage", "gigabytes"), ZERO_PAPER)
def test_effbatch_model_states_are_the_zero_papers(stage: int, gigabytes: float) -> None:
    """Baseline 16Ψ, P_os 4Ψ + 12Ψ/N_d, P_os+g 2Ψ + 14Ψ/N_d, P_os+g+p 16Ψ/N_d."""
    found = estimate_params(7_500_000_000, Setup(gpus=64, zero=stage))
    assert found.model_states / 1e9 == pytest.approx(gigabytes, abs=0.05)
    assert Quirk.PARAMS_ONLY in found.quirks


def test_offload_moves_the_optimizer_to_the_cpu() -> None:
    """ZeRO-Offload: no optimizer states on the GPU; a node's CPU holds its 8 GPUs' shares."""
    found = estimate_params(8_000_000_000, Setup(gpus=16, zero=2, offload=Offload.OPTIMIZER))
    assert found.optimizer == 0
    assert found.cpu_per_node == 12 * 8_000_000_000 // 16 * 8


# Korthikanti et al. 2022, Table 2 – GPT-3 175B's shape (s 2.048, h 12.288, a 96), b = 1, t = 8.
S, H, A, T = 2048, 12288, 96, 8
SBH = S * H
TABLE_2 = [
    (1, False, Recompute.NONE, SBH * (34 + 5 * A * S / H)),
    (T, False, Recompute.NONE, SBH * (10 + 24 / T + 5 * A * S / (H * T))),
    (T, True, Recompute.NONE, SBH * (34 / T + 5 * A * S / (H * T))),
    (T, False, Recompute.SELECTIVE, SBH * (10 + 24 / T)),
    (T, True, Recompute.SELECTIVE, SBH * 34 / T),
    (T, True, Recompute.FULL, 2 * SBH),
]


@pytest.mark.parametrize(("t", "sp", "recompute", "expected"), TABLE_2)
def test_korthikanti_table_2(t: int, sp: bool, recompute: Recompute, expected: float) -> None:
    """Each row of Table 2 as printed."""
    assert korthikanti_layer(S, 1, H, A, t, sp, recompute) == pytest.approx(expected)


@pytest.mark.parametrize(("t", "sp", "recompute", "expected"), TABLE_2[:5])
def test_effbatch_layer_is_table_2_for_the_gpt_shape(t: int, sp: bool, recompute: Recompute, expected: float) -> None:
    """Counted for the real shape, GPT-3's (MLP 4h, GeLU, all heads for K and V) with the eager attention the paper
    measured (its 5as/h are the stored s × s scores) gives Table 2 back."""
    setup = Setup(tp=t, seq_len=S, sequence_parallel=sp, recompute=recompute, attention=Attention.EAGER)
    assert effbatch_layer(MODELS["gpt3-175b"], setup, recompute) == pytest.approx(expected)


def test_megatron_sp_formula_is_table_2_for_the_gpt_shape() -> None:
    """Megatron's 18 + 4 · ffn/h is Table 2's 34 when ffn = 4h."""
    setup = Setup(tp=T, seq_len=S, **SELECTIVE_SP)
    assert megatron.per_layer(MODELS["gpt3-175b"], setup, with_sp=True) == pytest.approx(SBH * 34 / T)


def test_grouped_query_attention_keeps_less() -> None:
    """Llama 3.1 8B's 8 key-value heads for 32 query heads: K and V a quarter of Table 2's."""
    model = MODELS["llama3.1-8b"]
    setup = Setup(seq_len=4096)
    sbh = 4096 * model.hidden
    expected = sbh * (10 + (4 * 4096 + 4 * 1024) / 4096 + 6 * 14336 / 4096)
    assert effbatch_layer(model, setup, Recompute.SELECTIVE) == pytest.approx(expected)


def test_pipeline_stage_holds_min_of_a_and_pp() -> None:
    """The first stage keeps L/PP layers for min(a, PP) micro-batches; accumulation beyond PP adds nothing."""
    model, base = MODELS["llama3.1-70b"], Setup(gpus=64, tp=8, pp=8, seq_len=4096)
    layers = {a: estimate(model, replace(base, accumulation=a)).activations for a in (1, 4, 8, 64)}
    assert layers[1] is not None
    assert layers[4] is not None
    assert layers[8] == layers[64]
    assert layers[4] > layers[1]


def test_fp32_doubles_weights_and_keeps_adam() -> None:
    """fp32 training: 4 + 4 + 8 bytes a parameter, the same 16 as mixed precision, split otherwise."""
    found = estimate_params(1_000_000_000, Setup(dtype=Dtype.FP32))
    assert (found.weights, found.grads, found.optimizer) == (4 * 10**9, 4 * 10**9, 8 * 10**9)
