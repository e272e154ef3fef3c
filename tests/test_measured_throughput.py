"""Predicted throughput against published measurements (tests/data/measured/throughput_*.toml): the bounds the
time model really reaches, the issue's goal as a strict expected failure until it is reached."""

from __future__ import annotations

import pytest
from measured_throughput import REPORT, TOLERANCE, Agreement, Result, agreement, report, results

FOUND = results()
AGREED = agreement(FOUND)


def test_the_agreement_file_is_what_the_model_computes() -> None:
    """THROUGHPUT_AGREEMENT.md is generated from the model as it is (run tests/measured_throughput.py to refresh)."""
    assert REPORT.read_text() == report(FOUND)


def test_every_reading_is_predicted_or_skipped_with_a_reason() -> None:
    """A reading goes through the parser and the assessment, or the report says why it could not."""
    for found in FOUND:
        assert (found.predicted is not None) != bool(found.skipped), found.id
    assert AGREED.count >= 150  # of 176: 24 name no heads, vocab, ffn or a vpp without its schedule


def test_the_bounds_reached() -> None:
    """What the model reaches today on both batches, held so it cannot slip: within ±15 % on at least 67 %, median
    error ≤ 10,7 %."""
    assert AGREED.share >= 0.67
    assert AGREED.median_error <= 0.107


@pytest.mark.parametrize(
    ("framework", "share"),
    [
        ("megatron", 0.96),  # fused kernels and the layouts NeMo publishes: the model's best case
        ("fsdp", 0.77),  # llm-foundry's Composer FSDP with its Triton FlashAttention: long sequences still slower
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
