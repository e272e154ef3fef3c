"""Planning rules of the planning-questions issue, each row citing where its numbers come from."""

from __future__ import annotations

import math
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from effbatch.core import Argument, CompareCommand, InputError, PlanCommand, ProblemKind, compare, parse_command, plan
from effbatch.core.arguments import FACTORS
from effbatch.core.model import PlanRequest


def plan_json(text: str) -> dict:
    command = parse_command(text)
    assert isinstance(command, PlanCommand)
    return plan(command.request).as_json()


def evaluate(text: str) -> object:
    command = parse_command(text)
    if isinstance(command, CompareCommand):
        return compare(command.before, command.after, command.lr)
    assert isinstance(command, PlanCommand)
    return plan(command.request)


def problems_of(text: str) -> list[tuple[ProblemKind, dict]]:
    with pytest.raises(InputError) as raised:
        evaluate(text)
    return [(p.kind, {**p.ctx, "side": p.side}) for p in raised.value.problems]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # BLOOM-176B (BigScience tr11 config, BLOOM paper §3.4): 384 A100s, TP 4, PP 12, micro-batch 2,
        # global batch 2.048, sequence length 2.048 → d = 384 / 48 = 8, a = 2.048 / (2 · 8) = 128.
        (
            "gpus=384 tp=4 pp=12 b=2 B=2048 L=2048",
            {"data_parallel": 8, "accumulation": 128, "tokens_per_step": 4_194_304, "solved_for": "accumulation"},
        ),
        # nanoGPT config/train_gpt2.py: "12 batch size * 1024 block size * 5 gradaccum * 8 GPUs = 491,520";
        # train.py divides the 40 accumulation steps by the world size, so a = 5 per GPU over d = 8.
        ("12 8 5 1024", {"global_batch": 480, "tokens_per_step": 491_520}),
        # The same run asked the other way round: which a gives nanoGPT's 491.520 tokens on 8 GPUs?
        ("gpus=8 b=12 T=491520 L=1024", {"accumulation": 5, "solved_for": "accumulation", "exact": True}),
        # The question: 512 GPUs with TP 8, how many accumulation steps give B = 2.048 at b = 2?
        ("gpus=512 tp=8 b=2 B=2048", {"data_parallel": 64, "accumulation": 16}),
        # The breakdown example: d = 512 / (8 · 2 · 1 · 1) = 32.
        ("gpus=512 tp=8 pp=2 b=2 a=16", {"data_parallel": 32, "global_batch": 1024, "gpus": 512, "pp": 2}),
        # Solving for b and for d, not only a.
        ("d=64 a=4 B=2048", {"micro_batch": 8, "solved_for": "micro_batch"}),
        ("b=8 a=4 B=2048", {"data_parallel": 64, "solved_for": "data_parallel"}),
        # d solved with TP given but no GPU count: the GPUs follow as d · TP · PP · CP · SP.
        ("b=2 a=16 tp=8 B=2048", {"data_parallel": 64, "gpus": 512}),
        # All three given and agreeing with the target: a consistency check that passes, nothing solved.
        ("8 64 4 B=2048", {"global_batch": 2048, "solved_for": None}),
        # Budget: ⌈2·10¹² / 8.388.608⌉ = ⌈238.418,58⌉ = 238.419 optimizer steps.
        ("8 64 4 4096 budget=2T", {"optimizer_steps": 238_419}),
        ("8 64 4 4096 budget=300B", {"optimizer_steps": 35_763}),  # ⌈3·10¹¹ / 8.388.608⌉ = ⌈35.762,79⌉
        # Activations: b · act = 8 × 1,5 GiB = 12 GiB; accumulation does not enter.
        ("8 64 4 act=1,5GiB", {"activation_memory_bytes": 12 * 1024**3}),
        ("8 64 64 act=1,5GiB", {"activation_memory_bytes": 12 * 1024**3}),
        ("2 64 4 act=500MB", {"activation_memory_bytes": 10**9}),
    ],
)
def test_plans(text: str, expected: dict) -> None:
    """Derived values match the published configurations and the issue's examples."""
    data = plan_json(text)
    assert {key: data.get(key) for key in expected} == expected


def test_target_that_does_not_divide_offers_both_neighbours() -> None:
    """B = 2.000 with b = 3, d = 8: a = 83,33…; a = 83 gives 1.992 and a = 84 gives 2.016."""
    data = plan_json("b=3 d=8 B=2000 L=1024")
    assert (data["solved_for"], data["exact"], data["accumulation"], data["global_batch"]) == (
        "accumulation",
        False,
        None,
        None,
    )
    assert [(o["accumulation"], o["global_batch"], o["tokens_per_step"]) for o in data["options"]] == [
        (83, 1992, 1992 * 1024),
        (84, 2016, 2016 * 1024),
    ]


def test_target_below_one_offers_only_the_value_above() -> None:
    """B = 100 with b = 8, d = 64 would need a < 1; only a = 1 (B = 512) is feasible."""
    data = plan_json("b=8 d=64 B=100")
    assert [o["accumulation"] for o in data["options"]] == [1]


@pytest.mark.parametrize(
    ("text", "kind", "ctx"),
    [
        # DeepSpeed's check train_batch_size == micro · gas · world_size, in plain German.
        ("8 64 4 B=2000", ProblemKind.TARGET_CONFLICT, {"target": 2000, "product": 2048}),
        ("8 64 4 4096 T=8M", ProblemKind.TARGET_CONFLICT, {"target": 8_000_000, "product": 8_388_608}),
        # 100 = 12 · 8 + 4: the nearest GPU counts TP 8 divides are 96 and 104.
        ("gpus=100 tp=8 b=1 a=1", ProblemKind.GPUS_NOT_DIVISIBLE, {"remainder": 4, "below": 96, "above": 104}),
        ("gpus=6 tp=8 b=1 a=1", ProblemKind.GPUS_NOT_DIVISIBLE, {"remainder": 6, "below": None, "above": 8}),
        ("gpus=64 tp=8 d=4 b=1 a=1", ProblemKind.DATA_PARALLEL_CONFLICT, {"given": 4, "derived": 8}),
        ("b=2 B=2048", ProblemKind.NOT_ENOUGH_FACTORS, {"missing": [Argument.DATA_PARALLEL, Argument.ACCUMULATION]}),
        ("b=2 d=8 T=4M", ProblemKind.NEEDS_SEQ_LEN, {}),
        ("8 64 4 budget=2T", ProblemKind.NEEDS_SEQ_LEN, {}),
        ("b=2 d=8 B=2048 T=4M L=2048", ProblemKind.TWO_TARGETS, {}),
        ("b=1 d=1 B=1M", ProblemKind.SOLVED_OUT_OF_RANGE, {"value": 1_000_000, "bound": 2**16}),  # a ≤ 2¹⁶
        ("8 64 4 lr=3e-4", ProblemKind.LR_WITHOUT_COMPARISON, {}),
        ("8 64 4 vs d=128 vs d=256", ProblemKind.TOO_MANY_COMPARISONS, {}),
        ("8 64 4 vs", ProblemKind.EMPTY_SIDE, {}),
        ("8 64 4 act=2", ProblemKind.MISSING_UNIT, {}),
        ("b=3 d=8 B=2000 vs d=16", ProblemKind.NOT_EXACT_IN_COMPARISON, {"side": "before"}),
    ],
)
def test_planning_errors(text: str, kind: ProblemKind, ctx: dict) -> None:
    """Each inconsistent or incomplete plan is refused with the numbers the message needs."""
    found = problems_of(text)
    assert found[0][0] is kind
    assert {key: found[0][1].get(key) for key in ctx} == ctx


def test_comparison_with_learning_rate() -> None:
    """64 → 512 replicas: k = 8, lr 3e-4 → 2,4e-3 linear (Goyal et al.), 3e-4·√8 ≈ 8,49e-4 (Malladi et al.)."""
    command = parse_command("8 64 4 4096 vs d=512 lr=3e-4")
    assert isinstance(command, CompareCommand)
    data = compare(command.before, command.after, command.lr).as_json()
    assert (data["before"]["global_batch"], data["after"]["global_batch"], data["factor"]) == (2048, 16384, 8.0)
    assert data["after"]["seq_len"] == 4096  # keys not repeated after vs come from the first setup
    assert data["lr"]["linear"] == pytest.approx(2.4e-3)
    assert data["lr"]["sqrt"] == pytest.approx(3e-4 * math.sqrt(8))


def test_comparison_replaces_gpus_with_d_and_keeps_the_target() -> None:
    """After vs, d replaces the inherited GPU count, and the kept target re-solves a for the new cluster."""
    command = parse_command("gpus=64 b=2 B=2048 vs gpus=256")
    assert isinstance(command, CompareCommand)
    data = compare(command.before, command.after, None).as_json()
    assert (data["before"]["accumulation"], data["after"]["accumulation"], data["factor"]) == (16, 4, 1.0)
    assert "lr" not in data
    replaced = parse_command("gpus=64 b=2 a=4 vs d=128")
    assert isinstance(replaced, CompareCommand)
    assert (replaced.after.gpus, replaced.after.data_parallel) == (None, 128)


factor_values = {
    Argument.MICRO_BATCH: st.integers(1, Argument.MICRO_BATCH.upper_bound),
    Argument.DATA_PARALLEL: st.integers(1, Argument.DATA_PARALLEL.upper_bound),
    Argument.ACCUMULATION: st.integers(1, Argument.ACCUMULATION.upper_bound),
}


@settings(max_examples=examples(300))
@given(st.fixed_dictionaries(factor_values), st.sampled_from(FACTORS), st.none() | st.integers(1, 2**24))
def test_solving_gives_back_the_original(values: dict[Argument, int], unknown: Argument, seq_len: int | None) -> None:
    """From B (or T) and any two factors, solving for the third returns the value B was made from."""
    global_batch = math.prod(values.values())
    known: dict[str, Any] = {a.value: v for a, v in values.items() if a is not unknown}
    if seq_len is None:
        request = PlanRequest(**known, target_global_batch=global_batch)
    else:
        request = PlanRequest(**known, seq_len=seq_len, target_tokens_per_step=global_batch * seq_len)
    result = plan(request)
    assert result.exact
    assert result.outcome is not None
    assert getattr(result.outcome.setup, unknown.value) == values[unknown]
