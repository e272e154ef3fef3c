"""FLOPs, step time, days and MFU against published training runs; each row names its table."""

from __future__ import annotations

import pytest

from effbatch.core.memory import GPUS, MODELS, ModelSpec, Rules
from effbatch.core.memory.time import TimeEstimate, flops_per_token, mfu_from_step_time, mfu_from_throughput

A100 = GPUS["a100-80"].peak_flops
#: Korthikanti et al. 2022, Table 4: the GPT models' shapes (s = 2.048, V = 51.200).
GPT_22B = ModelSpec(48, 6144, 64, 64, 4 * 6144, 51200, swiglu=False)
GPT_175B = ModelSpec(96, 12288, 96, 96, 4 * 12288, 51200, swiglu=False)
GPT_530B = ModelSpec(105, 20480, 128, 128, 4 * 20480, 51200, swiglu=False)
GPT_1T = ModelSpec(128, 25600, 160, 160, 4 * 25600, 51200, swiglu=False)

# Korthikanti et al. 2022, Tables 4 and 5 (sequence parallelism + selective recomputation): model, global
# batch = GPUs, iteration time in s, the MFU printed (%).
KORTHIKANTI_TABLE_5 = [
    (GPT_22B, 4, 8, 1.10, 41.5),
    (GPT_175B, 64, 64, 13.75, 51.4),
    (GPT_530B, 280, 280, 37.83, 56.0),
    (GPT_1T, 512, 512, 71.49, 56.3),
]


@pytest.mark.parametrize(("model", "batch", "gpus", "seconds", "mfu"), KORTHIKANTI_TABLE_5)
def test_korthikanti_table_5_mfu(model: ModelSpec, batch: int, gpus: int, seconds: float, mfu: float) -> None:
    """72 · B · s · L · h² · (1 + s/6h + V/16Lh) over the iteration time gives the MFU the paper prints."""
    per_token = flops_per_token(model, 0, 2048, Rules.KORTHIKANTI)
    found = mfu_from_step_time(per_token * batch * 2048, seconds, gpus, A100)
    assert found * 100 == pytest.approx(mfu, abs=0.1)


# Narayanan et al. 2021, §5.1: time ≈ 8 · T · P / (n · X) with X the achieved FLOP/s a GPU (with full
# recomputation, hence 8 = 6 + 2); in model FLOPs (6 · P a token) the same days at MFU = 6/8 · X / peak.
NARAYANAN = [
    (174.6e9, 300e9, 1024, 140e12, 34),  # GPT-3 175B on 300B tokens: "about 34 days"
    (1008.0e9, 450e9, 3072, 163e12, 84),  # the 1T model on 450B tokens: "about 84 days"
]


@pytest.mark.parametrize(("params", "tokens", "gpus", "achieved", "days"), NARAYANAN)
def test_narayanan_training_days(params: float, tokens: float, gpus: int, achieved: float, days: float) -> None:
    """Days to train as Narayanan et al. estimate them."""
    mfu = 6 / 8 * achieved / A100
    found = TimeEstimate(6 * params, A100, gpus, mfu, mfu_assumed=False, budget=int(tokens))
    assert found.train_days == pytest.approx(days, abs=0.5)


def test_palm_mfu() -> None:
    """PaLM 540B (Chowdhery et al. 2022, Appendix B / Table 3): 238,3k tokens/s on 6.144 TPU v4 (275 TFLOP/s
    peak) is 46,2 % MFU with 6N + 12·L·H·Q·T FLOPs a token (L 118, H 48 heads of Q 256, T 2.048)."""
    palm = ModelSpec(118, 18432, 48, 1, 4 * 18432, 256000, tied=True, head_dim=256)
    params = 540.35e9
    per_token = 6 * params + 12 * palm.layers * palm.q_dim * 2048
    assert mfu_from_throughput(per_token, 238.3e3, 6144, 275e12) * 100 == pytest.approx(46.2, abs=0.05)


def test_llama3_405b_compute() -> None:
    """Llama 3 (Dubey et al. 2024, §3.1): 405B parameters on 15,6T tokens are 3,8 · 10²⁵ FLOPs by 6 · N · D."""
    found = TimeEstimate(
        flops_per_token(None, 405 * 10**9, None, Rules.EFFBATCH), 1.0, 1, 1.0, False, budget=15_600 * 10**9
    )
    assert found.total_flops == pytest.approx(3.8e25, rel=0.01)


@pytest.mark.parametrize(("tflops", "mfu"), [(430, 43), (380, 38)])
def test_llama3_405b_mfu(tflops: float, mfu: float) -> None:
    """Llama 3 Table 4: 430 and 380 TFLOP/s a GPU on H100 are 43 % and 38 % BF16 MFU (peak 989,4 TFLOP/s)."""
    found = TimeEstimate(1.0, GPUS["h100"].peak_flops, 1, tflops * 1e12 / GPUS["h100"].peak_flops, False)
    assert found.mfu * 100 == pytest.approx(mfu, abs=0.6)
    assert found.tflops_per_gpu == pytest.approx(tflops)


def test_effbatch_flops_count_the_real_shape() -> None:
    """6 · matmul weights (no input embedding) + 12 · L · s · d_attn: Llama 3.1 8B at 8.192 tokens."""
    model = MODELS["llama3.1-8b"]
    matmul = model.total_params - model.embedding_params
    expected = 6 * matmul + 12 * 32 * 8192 * 4096
    assert flops_per_token(model, 0, 8192, Rules.EFFBATCH) == pytest.approx(expected)


def test_moe_counts_the_active_experts() -> None:
    """Mixtral: a token passes 2 of 8 experts, so 6 · N counts 12,9B, not 46,7B."""
    model = MODELS["mixtral-8x7b"]
    assert flops_per_token(model, 0, None, Rules.EFFBATCH) == pytest.approx(6 * model.active_params)


def test_step_time_and_days_follow_from_mfu() -> None:
    """Step time = FLOPs a step / (GPUs · peak · MFU); days for a budget; GPU-hours = GPUs · hours."""
    found = TimeEstimate(6e9, 1e15, 100, 0.5, True, tokens_per_step=1_000_000, budget=10**12)
    assert found.step_seconds == pytest.approx(6e15 / 5e16)
    days = 10**12 / (5e16 / 6e9) / 86400
    assert found.train_days == pytest.approx(days)
    assert found.gpu_hours == pytest.approx(days * 24 * 100)
