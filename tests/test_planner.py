"""The planner's search with a memory and a time model of its own: ranking, pruning, B held, bounds, refusals."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fake_planning import FakeMemory, FakeTime

from effbatch.core.memory import MODELS, ModelSpec, Offload, Recompute, Setup, find_gpu
from effbatch.core.memory.estimate import estimate
from effbatch.core.memory.setup import Framework
from effbatch.core.planner import Fixed, Goal, Impossible, PlanRefusedError, search
from effbatch.core.planner.advice import advise
from effbatch.core.planner.search import MAX_PREDICTED

GIB = 1024**3
H100 = find_gpu("h100")
assert H100 is not None
LLAMA_70B = MODELS["llama3.1-70b"]


def goal(gpus: int = 64, batch: int = 256, model: ModelSpec = LLAMA_70B, **fixed: object) -> Goal:
    return Goal(model, gpus, 80 * GIB, batch, 8192, H100, 10**12, fixed=Fixed(**fixed))  # type: ignore[arg-type]


def test_fastest_first_and_every_entry_keeps_b() -> None:
    """The predictor's fastest layout comes first, the rest follow by step time, and b · a · d = B in each."""
    time = FakeTime(extra=lambda setup: abs(setup.tp - 4) + setup.pp / 10)
    planned = search(goal(), FakeMemory(states=100 * GIB, per_sample=GIB), time)
    steps = [c.step.step_seconds for c in planned.fastest if c.step is not None]
    assert planned.fastest[0].layout.tp == 4
    assert planned.fastest[0].layout.pp == 1
    assert steps == sorted(steps)
    assert len(planned.fastest) == 3
    for candidate in planned.fastest:
        setup = candidate.setup
        assert setup.micro_batch * (setup.accumulation or 0) * setup.data_parallel == 256
        assert candidate.fit.fits


def test_what_does_not_fit_is_never_timed() -> None:
    """States that fit only on TP 8 (or with ZeRO-3 over d): no other layout is ever handed to the predictor."""
    memory, time = FakeMemory(states=600 * GIB, per_sample=GIB), FakeTime()
    planned = search(goal(), memory, time)
    assert planned.fastest
    assert time.asked
    for setup in time.asked:
        shard = 600 * GIB // (setup.tp * setup.pp)
        held = shard // setup.data_parallel if setup.zero >= 3 else shard
        assert held + GIB * setup.micro_batch <= 0.95 * 80 * GIB


@pytest.mark.parametrize(
    ("gpus", "limit"),
    [
        (64, 10),  # a tight cap: never more predictions than it allows
        (1024, MAX_PREDICTED),  # the default cap on the largest cluster the bench measures
    ],
)
def test_the_search_is_bounded(gpus: int, limit: int) -> None:
    """However large the cluster, the predictor is asked at most ``limit`` times."""
    time = FakeTime()
    planned = search(goal(gpus=gpus, batch=2048), FakeMemory(states=10 * GIB, per_sample=GIB), time, limit=limit)
    assert 0 < len(time.asked) <= limit
    assert planned.predicted == len(time.asked)


def test_the_cap_drops_micro_batches_before_layouts() -> None:
    """Where the cap bites, every layout timed is a different one: its largest micro-batch first, others later."""
    time = FakeTime()
    search(goal(gpus=64, batch=2048), FakeMemory(states=10 * GIB, per_sample=GIB), time, limit=40)
    layouts = [(s.tp, s.pp, s.cp, s.vpp, s.zero, s.recompute) for s in time.asked]
    assert len(layouts) == 40
    assert len(set(layouts)) == 40


def test_the_obvious_choice_is_named_when_slower() -> None:
    """Where pure data parallelism with ZeRO-3 is slower than TP 8, the obvious choice is kept beside the fastest."""
    time = FakeTime(extra=lambda setup: 0.0 if setup.tp == 8 else 2.0)
    planned = search(goal(), FakeMemory(states=100 * GIB, per_sample=GIB), time)
    assert planned.fastest[0].layout.tp == 8
    assert planned.obvious is not None
    assert planned.obvious.layout.model_parallel < planned.fastest[0].layout.model_parallel
    assert planned.obvious.step is not None
    assert planned.obvious.step.step_seconds > planned.fastest[0].step.step_seconds  # type: ignore[union-attr]


def test_what_the_user_fixed_is_held() -> None:
    """``tp=2 zero=1 recompute=full`` given: every entry has exactly these."""
    planned = search(
        goal(tp=2, zero=1, recompute=Recompute.FULL), FakeMemory(states=100 * GIB, per_sample=GIB), FakeTime()
    )
    assert planned.fastest
    assert {(c.layout.tp, c.layout.zero, c.layout.recompute) for c in planned.fastest} == {(2, 1, Recompute.FULL)}


def test_nothing_fits_names_the_fewest_gpus_and_the_memory_needed() -> None:
    """Model states of 1.000 GiB split over at most every GPU (TP · PP, then d with ZeRO-3): on 8 GPUs 125 GiB,
    none fits; on 16 GPUs 62,5 GiB + 1 GiB of activations fit in 95 % of 80 GiB."""
    memory = FakeMemory(states=1000 * GIB, per_sample=GIB)
    planned = search(goal(gpus=8, batch=256), memory, FakeTime())
    assert planned.fastest == ()
    assert planned.shortfall is not None
    assert planned.shortfall.batch_splits
    assert planned.shortfall.fewest_gpus == 16
    assert planned.shortfall.memory_needed is not None
    assert planned.shortfall.memory_needed > 80 * GIB


def test_a_batch_no_split_divides_is_said() -> None:
    """B = 3 on 16 GPUs of a one-layer, one-head model: d is always 16, which does not divide 3."""
    tiny = ModelSpec(layers=1, hidden=64, heads=1, kv_heads=1, ffn=256, vocab=1000, name="tiny")
    planned = search(goal(gpus=16, batch=3, model=tiny), FakeMemory(states=GIB, per_sample=GIB), FakeTime())
    assert planned.fastest == ()
    assert planned.shortfall is not None
    assert not planned.shortfall.batch_splits


@pytest.mark.parametrize(
    ("gpus", "model", "fixed", "kind"),
    [
        (200, LLAMA_70B, {"pp": 100}, Impossible.PIPELINE_ABOVE_LAYERS),  # 80 layers (100 divides 200 GPUs)
        (64, MODELS["mixtral-8x7b"].__class__(**{**MODELS["mixtral-8x7b"].__dict__, "topk": 9}), {},
         Impossible.TOPK_ABOVE_EXPERTS),  # 8 experts
        (8, LLAMA_70B, {"tp": 8, "pp": 2}, Impossible.PARALLEL_ABOVE_GPUS),  # 16 > 8
        (24, LLAMA_70B, {"tp": 8, "pp": 2}, Impossible.PARALLEL_NOT_DIVIDING),  # 16 does not divide 24
        (24, LLAMA_70B, {"tp": 3}, Impossible.TP_NOT_DIVIDING_HEADS),  # 64 heads
    ],
)  # fmt: skip
def test_impossible_inputs_are_refused_not_planned(
    gpus: int, model: ModelSpec, fixed: dict[str, int], kind: Impossible
) -> None:
    """More stages than layers, top-k above the experts, TP · PP above the GPUs: refused by name, nothing timed."""
    time = FakeTime()
    with pytest.raises(PlanRefusedError) as refused:
        search(goal(gpus=gpus, model=model, **fixed), FakeMemory(states=GIB, per_sample=GIB), time)
    assert [r.kind for r in refused.value.refusals] == [kind]
    assert time.asked == []


def test_advice_is_whole_combinations_that_fit_with_b_held() -> None:
    """Llama 3.1 8B, b = 4, a = 8 on 8 A100 40GB does not fit: every advised layout fits and keeps B = 256."""
    setup = Setup(gpus=8, micro_batch=4, accumulation=8, seq_len=8192)
    gpu = find_gpu("a100-40")
    assert gpu is not None
    planned = advise(MODELS["llama3.1-8b"], setup, gpu.memory, gpu)
    assert planned is not None
    assert planned.fastest
    for candidate in planned.fastest:
        assert candidate.fit.fits
        assert estimate(MODELS["llama3.1-8b"], candidate.setup).total == candidate.memory.total
        changed = candidate.setup
        assert changed.micro_batch * (changed.accumulation or 0) * changed.data_parallel == 256


def test_advice_without_a_gpu_type_ranks_by_simplicity() -> None:
    """Only a GPU's memory (``gpu_mem=``): no step time is predicted, the simplest layout that fits comes first."""
    time = FakeTime()
    planned = advise(LLAMA_70B, Setup(gpus=64, micro_batch=1, seq_len=8192), 80 * GIB, None, None,
                     FakeMemory(states=100 * GIB, per_sample=GIB), time)  # fmt: skip
    assert planned is not None
    assert time.asked == []
    assert [c.step for c in planned.fastest] == [None] * len(planned.fastest)
    simplicity = [c.layout.simplicity for c in planned.fastest]
    assert simplicity == sorted(simplicity)


@pytest.mark.parametrize(
    ("framework", "stages", "model_parallel"),
    [
        (Framework.MEGATRON, {0, 1}, True),  # its distributed optimizer shards the optimizer states only
        (Framework.FSDP, {0, 2, 3}, False),  # NO_SHARD, SHARD_GRAD_OP, FULL_SHARD; no layer split
        (Framework.DDP, {0}, False),
        (Framework.TORCHTITAN, {2, 3}, True),  # FSDP2 beside TP, PP and CP
    ],
)
def test_a_framework_given_keeps_the_search_to_what_it_runs(
    framework: Framework, stages: set[int], model_parallel: bool
) -> None:
    """``framework=`` given: only its ZeRO (FSDP) stages are timed, and TP · PP · CP only where it splits layers."""
    time = FakeTime()
    planned = search(
        replace(goal(gpus=64), base=Setup(framework=framework)), FakeMemory(states=GIB, per_sample=GIB), time
    )
    assert planned.fastest
    assert {setup.zero for setup in time.asked} <= stages
    split = {setup.tp * setup.pp * setup.cp for setup in time.asked}
    assert (split != {1}) is model_parallel


@pytest.mark.parametrize(
    ("offload", "lowest"),
    [
        (Offload.OPTIMIZER, 1),  # the optimizer states leave their shards: ZeRO 1 at least
        (Offload.PARAMS, 3),  # the parameters leave ZeRO-3's shards
    ],
)
def test_offloading_keeps_the_stage_it_needs(offload: Offload, lowest: int) -> None:
    """``offload=`` given: no layout timed below the ZeRO stage offloading needs (the parser refuses those too)."""
    time = FakeTime()
    search(replace(goal(gpus=64), base=Setup(offload=offload)), FakeMemory(states=GIB, per_sample=GIB), time)
    assert time.asked
    assert min(setup.zero for setup in time.asked) == lowest
