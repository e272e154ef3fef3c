"""Predicted throughput against published measurements (tests/data/measured/throughput_*.toml): the bounds the
time model really reaches, the issue's goal as a strict expected failure until it is reached."""

from __future__ import annotations

import pytest
from measured_throughput import BATCHES, REPORT, TOLERANCE, Agreement, Result, agreement, report, results

FOUND = results()
AGREED = agreement(FOUND)


def test_the_agreement_file_is_what_the_model_computes() -> None:
    """THROUGHPUT_AGREEMENT.md is generated from the model as it is (run tests/measured_throughput.py to refresh)."""
    assert REPORT.read_text() == report(FOUND)


def test_every_reading_is_predicted_or_skipped_with_a_reason() -> None:
    """A reading goes through the parser and the assessment, or the report says why it could not."""
    for found in FOUND:
        assert (found.predicted is not None) != bool(found.skipped), found.id
    assert AGREED.count >= 297  # of 323: 24 of a and b name no heads, vocab, ffn or a vpp without its schedule; 2 of
    # c a vpp that does not divide the layers per stage (405B's 126 over PP 8, Qwen3-235B's 94 over PP 8); 6 of d
    # Grok-1's MoE shape (moe_ffn without ffn); all 25 of e


@pytest.mark.parametrize(
    ("batches", "share", "median"),
    [
        (("throughput_a.toml", "throughput_b.toml"), 0.73, 0.100),  # the batches the model was built and checked on
        (BATCHES[:3], 0.55, 0.132),  # with batch c, held out: BigScience's 2022 runs and MoE are predicted far too fast
        (BATCHES[:4], 0.59, 0.123),  # with batch d, held out: NVIDIA's Nemotron-4 recipes agree, GPT-3 175B BF16 +21 %
        (BATCHES, 0.59, 0.122),  # with batch e, held out: NeMo 24.05 and OLMo-core agree, FlagPerf DeepSpeed +39-106 %
    ],
)
def test_the_bounds_reached(batches: tuple[str, ...], share: float, median: float) -> None:
    """What the model reaches today, held so it cannot slip: on a and b within ±15 % on at least 73 %, median error
    ≤ 10,0 %; with the held-out batch c at least 55 %, median ≤ 13,2 %; with batch d at least 59 %, median ≤ 12,3 %;
    with batch e at least 59 %, median ≤ 12,2 % (torchtitan's readings on its 96 GB H100 card moved them)."""
    agreed = agreement([r for r in FOUND if r.batch in batches])
    assert agreed.share >= share
    assert agreed.median_error <= median


@pytest.mark.parametrize(
    ("framework", "share"),
    [
        ("megatron", 0.75),  # NeMo's own layouts agree (0,97 on a and b); FlagPerf's and the MoE rows of c do not,
        # nor NeMo's long-sequence rows at 4k and 8k (+17 %), read with b = 1 where only B is printed
        ("fsdp", 0.68),  # llm-foundry's (its Triton FlashAttention) and fms-fsdp's FSDP: long sequences still off
        ("torchtitan", 0.27),  # H100 rows measured slower than predicted (CP, TP, eager kernels, float8 rowwise)
    ],
)
def test_agreement_per_framework(framework: str, share: float) -> None:
    """Per framework, the share within ±15 % the model reaches today."""
    agreed = agreement([r for r in FOUND if r.framework == framework])
    assert agreed.share >= share


@pytest.mark.xfail(strict=True, reason="the goal: ±15 % on at least 80 % of readings is not reached yet")
def test_the_goal() -> None:
    """The issue's goal: predicted tokens/s within ±15 % of the measured corpus on at least 80 % of readings."""
    assert AGREED.share >= 0.80


@pytest.mark.parametrize(
    ("measured", "predicted", "within"),
    [(100.0, 115.0, True), (100.0, 85.0, True), (100.0, 116.0, False), (100.0, 80.0, False)],
)
def test_agreement_counts_the_tolerance(measured: float, predicted: float, within: bool) -> None:
    """A prediction agrees when its relative error is at most ±15 %."""
    one = Result("x", "a", "fsdp", "bf16", "tokens_per_second", measured, predicted)
    assert agreement([one]) == Agreement(1, int(within), abs(predicted / measured - 1), predicted / measured - 1)
    assert TOLERANCE == 0.15


@pytest.mark.parametrize(
    ("measured", "predicted", "error"),
    [(100.0, 50.0, 1.0), (100.0, 200.0, -0.5), (100.0, 100.0, 0.0)],
)
def test_a_step_time_counts_as_the_rate_it_implies(measured: float, predicted: float, error: float) -> None:
    """A step predicted half as long as measured is a prediction twice as fast (+100 %), as tokens/s would say."""
    one = Result("x", "c", "deepspeed", "bf16", "step_seconds", measured, predicted)
    assert one.error == pytest.approx(error)
