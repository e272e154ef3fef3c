"""effbatch's memory answer held against peaks real runs measured (tests/data/measured/memory_a.toml).

Each reading's command runs through the calculator's own path (the parser, then the assessment, as ``--json``
does; ``tests/measured_memory.py``). The bounds asserted are those the model reaches on the batch it was developed
against; the issue's goals it does not reach yet are strict xfails, so that reaching one turns them red.
"""

from __future__ import annotations

import measured_memory
import pytest
from measured_memory import Agreement, Reading, agreement, page, readings

FOUND: list[Reading] = readings()


def _agreement(counter: str | None) -> Agreement:
    found = agreement(FOUND, counter)
    assert found is not None
    return found


def test_every_reading_is_answered() -> None:
    """Every reading of the batch is answered by the calculator (none refused), each with the figure its counter
    compares to, or a verdict on the card for ``oom`` and ``ran``."""
    assert len(FOUND) == len(measured_memory.raw_readings())
    for reading in FOUND:
        assert reading.predicted is not None or reading.fits is not None, reading.id


def test_the_agreement_page_is_generated() -> None:
    """MEMORY_AGREEMENT.md is what the script writes today (regenerate after a model change)."""
    committed = measured_memory.PAGE.read_text(encoding="utf-8")
    assert committed == page(FOUND), f"out of date: run {measured_memory.REGENERATE}"


# (counter, share within ±15 %, share within ±25 %, median |error|): what the model reaches on memory_a.
REACHED = [
    # torchtitan's memory: log lines; FSDP2 with PP, CP, TP as the holders count them
    ("max_reserved", 0.88, 1.0, 0.09),  # 16 of 18; median 8,6 %, signed −0,8 %
    # Megatron-LM CI's mem-max-allocated-bytes within 4 %; LitGPT's and torchtune's pure bf16 runs (no fp32
    # master weights, AdamW states in bf16) are written dtype=bf16 and so counted as mixed precision (with
    # dtype=bf16-true four of the six come within 8 %)
    ("max_allocated", 0.50, 0.50, 0.30),
    (None, 0.75, 0.82, 0.09),
]


@pytest.mark.parametrize(("counter", "within_15", "within_25", "median"), REACHED)
def test_agreement_reached(counter: str | None, within_15: float, within_25: float, median: float) -> None:
    """The share of readings within ±15 % and ±25 % and the median error, per counter, at least as good as
    recorded in MEMORY_AGREEMENT.md."""
    found = _agreement(counter)
    assert found.within_15 >= within_15
    assert found.within_25 >= within_25
    assert found.median_error <= median


def test_no_oom_is_answered_passt() -> None:
    """A set-up that ran out of memory is never answered „passt“."""
    assert [r.id for r in FOUND if r.counter == "oom" and r.wrong_verdict] == []


@pytest.mark.xfail(
    strict=True,
    reason="NeMo 24.07's Llama 2 70B SFT (d = 1) ran with Apex's DistributedFusedAdam (bf16 gradients, 16-bit master "
    "remainders), not Megatron-core's 18 bytes a parameter that framework=megatron counts",
)
def test_no_run_that_ran_is_answered_passt_nicht() -> None:
    """A set-up that trained is never answered „passt nicht“ (the issue's goal)."""
    assert [r.id for r in FOUND if r.counter == "ran" and r.wrong_verdict] == []


@pytest.mark.xfail(strict=True, reason="the goal is not reached yet: see MEMORY_AGREEMENT.md")
def test_goal_within_15_percent_on_nine_in_ten() -> None:
    """The issue's goal: within ±15 % on at least 90 % of the peak readings."""
    assert _agreement(None).within_15 >= 0.9


@pytest.mark.xfail(strict=True, reason="the goal is not reached yet: pure bf16 runs are counted as mixed precision")
def test_goal_within_25_percent_on_all() -> None:
    """The issue's goal: within ±25 % on every peak reading."""
    assert _agreement(None).within_25 == 1.0
