"""effbatch's memory answer held against peaks real runs measured (tests/data/measured/memory_*.toml).

Each reading's command runs through the calculator's own path (the parser, then the assessment, as ``--json``
does; ``tests/measured_memory.py``). The bounds asserted are those the model reaches on the batch it was developed
against and on the held-out batch together (memory_b's figures on arrival are in MEMORY_AGREEMENT.md); the issue's
goals it does not reach yet are strict xfails, so that reaching one turns them red.
"""

from __future__ import annotations

import measured_memory
import pytest
from measured_memory import Agreement, Reading, agreement, page, readings

from effbatch.core.errors import InputError

FOUND: list[Reading] = readings()
#: The batches the held bounds are reached on; memory_e is held out (counted on arrival in MEMORY_AGREEMENT.md),
#: so it sets no bound until the model has been developed against it.
HELD: list[Reading] = readings(measured_memory.BATCHES[:4])


def _agreement(counter: str | None, found_in: list[Reading] = FOUND) -> Agreement:
    found = agreement(found_in, counter)
    assert found is not None
    return found


def test_every_reading_is_answered() -> None:
    """Every reading is answered by the calculator, each with the figure its counter compares to, or a verdict on
    the card for ``oom`` and ``ran`` – except those named in ``REFUSED``, which the calculator does refuse."""
    assert len(FOUND) + len(measured_memory.REFUSED) == len(measured_memory.raw_readings())
    for reading in FOUND:
        assert reading.predicted is not None or reading.fits is not None, reading.id
    for raw in measured_memory.raw_readings():
        if raw["id"] in measured_memory.REFUSED:
            with pytest.raises(InputError):
                measured_memory.assess(raw)


def test_the_agreement_page_is_generated() -> None:
    """MEMORY_AGREEMENT.md is what the script writes today (regenerate after a model change)."""
    committed = measured_memory.PAGE.read_text(encoding="utf-8")
    assert committed == page(FOUND), f"out of date: run {measured_memory.REGENERATE}"


# (counter, share within ±15 %, share within ±25 %, median |error|): what the model reaches on memory_a and b.
REACHED = [
    # torchtitan's memory: log lines (FSDP2 with PP, CP, TP) within 14 % on H100; with the compiled loss and the
    # freed gradients MI300X and H200 within 7 %, B200 +14 %
    ("max_reserved", 0.87, 0.96, 0.096),
    # Megatron-LM CI within 4 %; torchtune's pure bf16 runs within 2 % (the chunked loss of the compiled row is
    # not counted); LitGPT's bf16-true runs under Lightning Fabric within 16 %;
    # DLRover's FSDP1 runs (autocast, KV cache kept) within 10 %; with batch d, Megatron-LM CI's toy GPT held as the
    # last stage it logs (stage = "last"), its experts over ETP · EP, its fused loss's fp32 copy, TP overlap's
    # workspaces: within 15 % but TP 2 · CP 2 · EP 2 −16 %
    ("max_allocated", 0.93, 1.0, 0.086),
    # FlagPerf's Megatron and DeepSpeed runs 17–36 % too low; BigScience's runs within 14 % (full recomputation)
    ("nvidia_smi", 0.52, 0.85, 0.141),
    (None, 0.82, 0.95, 0.096),
]


@pytest.mark.parametrize(("counter", "within_15", "within_25", "median"), REACHED)
def test_agreement_reached(counter: str | None, within_15: float, within_25: float, median: float) -> None:
    """The share of readings within ±15 % and ±25 % and the median error, per counter, at least as good as
    recorded in MEMORY_AGREEMENT.md, over batches a-d (memory_e is held out)."""
    found = _agreement(counter, HELD)
    assert found.within_15 >= within_15
    assert found.within_25 >= within_25
    assert found.median_error <= median


#: OOMs answered „passt“ today, with why: a DeepSpeed offload run on A100 40 GB whose pinned CPU buffers and
#: fragmentation the model misses; a Megatron-LLaMA report that names no sequence length, so only the model states
#: are counted.
KNOWN_OOM_PASST = [
    "lit-llama-issue397-llama-7b-deepspeed-offload-4xa100-40-oom",
    "megatron-llama-issue-11-llama2-7b-tp2-2xa800",
]
#: Runs that trained answered „passt nicht“ today: llm-foundry's MPT-3B FP8 at L = 8.192 with b = 3.
KNOWN_RAN_PASST_NICHT = [
    "llmfoundry-mpt-3b-8xh100-l8192-mbs3-fp8",
    # memory_e on arrival: s1's Qwen2.5-32B read at its 32.768-token cap; its collator pads a micro-batch of 1 to
    # nothing, and no source gives s1K's longest sample: not a valid test at that length (see its read note)
    "s1-issue13-qwen2.5-32b-fsdp-16xh100-l32768-ran",
]


def test_no_new_oom_is_answered_passt() -> None:
    """No OOM beyond the known ones is answered „passt“ (a new one is a regression)."""
    assert [r.id for r in FOUND if r.counter == "oom" and r.wrong_verdict] == KNOWN_OOM_PASST


def test_no_new_run_that_ran_is_answered_passt_nicht() -> None:
    """No run that trained beyond the known ones is answered „passt nicht“."""
    assert [r.id for r in FOUND if r.counter == "ran" and r.wrong_verdict] == KNOWN_RAN_PASST_NICHT


@pytest.mark.xfail(strict=True, reason="an OOM is answered „passt“: KNOWN_OOM_PASST")
def test_no_oom_is_answered_passt() -> None:
    """A set-up that ran out of memory is never answered „passt“ (the issue's goal)."""
    assert [r.id for r in FOUND if r.counter == "oom" and r.wrong_verdict] == []


@pytest.mark.xfail(strict=True, reason="runs that trained are answered „passt nicht“: KNOWN_RAN_PASST_NICHT")
def test_no_run_that_ran_is_answered_passt_nicht() -> None:
    """A set-up that trained is never answered „passt nicht“ (the issue's goal)."""
    assert [r.id for r in FOUND if r.counter == "ran" and r.wrong_verdict] == []


@pytest.mark.xfail(strict=True, reason="the goal is not reached yet: see MEMORY_AGREEMENT.md")
def test_goal_within_15_percent_on_nine_in_ten() -> None:
    """The issue's goal: within ±15 % on at least 90 % of the peak readings."""
    assert _agreement(None).within_15 >= 0.9


@pytest.mark.xfail(strict=True, reason="the goal is not reached yet: see MEMORY_AGREEMENT.md")
def test_goal_within_25_percent_on_all() -> None:
    """The issue's goal: within ±25 % on every peak reading."""
    assert _agreement(None).within_25 == 1.0
