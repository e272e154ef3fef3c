"""The data-parallel scaling table: what is held as d grows, its arithmetic, and where adding GPUs stops paying.

The arithmetic is checked against fake step predictors passed in (a step of known seconds), so these tests hold
for any ``core.memory.step.predict`` that keeps its contract; against the real predictor only the structure.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pytest

from effbatch.core import InputError, ProblemKind, parse_command
from effbatch.core.memory import GPUS, MODELS, Setup
from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.scaling import Batch, Stop, replica_counts, scaling
from effbatch.core.memory.step import Part, StepPrediction, tokens_per_step
from effbatch.core.scaling import scale
from effbatch.core.scaling_command import ScalingCommand

H100 = GPUS["h100"]
MODEL = MODELS["llama3.1-8b"]


class FakeStep:
    """A step of ``tokens / (gpus · rate)`` seconds of compute, plus ``exposed`` seconds of data-parallel
    communication wherever there is more than one replica."""

    def __init__(self, rate: float = 1000.0, exposed: float = 0.0) -> None:
        self.rate, self.exposed = rate, exposed
        self.setups: list[Setup] = []

    def __call__(self, model: ModelSpec | None, params: int, setup: Setup, gpu: GpuSpec) -> StepPrediction:
        self.setups.append(setup)
        tokens = tokens_per_step(setup)
        seconds: Mapping[Part, float] = {Part.COMPUTE: tokens / (setup.gpus * self.rate)}
        if setup.data_parallel > 1 and self.exposed:
            seconds = {**seconds, Part.DATA_PARALLEL: self.exposed}
        return StepPrediction(MappingProxyType(seconds), tokens, 6.0 * params, setup.gpus, gpu.peak_flops)


@pytest.mark.parametrize(
    ("replicas", "most", "expected"),
    [
        (1, 2**20, (1, 2, 4, 8)),  # a single GPU: still up to 8 replicas
        (64, 2**20, (1, 2, 4, 8, 16, 32, 64, 128, 256)),  # two doublings past the cluster
        (48, 2**20, (1, 2, 4, 8, 16, 32, 48, 64, 128)),  # a d that is no power of two is a row of its own
        (64, 100, (1, 2, 4, 8, 16, 32, 64)),  # never past the largest GPU count a command takes
    ],
)
def test_replica_counts_double_up_to_and_beyond_the_cluster(
    replicas: int, most: int, expected: tuple[int, ...]
) -> None:
    """The table's d run 1, 2, 4, … to four times the set-up's replicas, with the set-up's own d among them."""
    assert replica_counts(replicas, most) == expected


def test_a_given_batch_is_held_by_accumulation_until_a_is_one_then_it_grows() -> None:
    """With B given, a = B / (b · d) shrinks as d grows; past a = 1, B = b · d grows and the row says so."""
    setup = Setup(gpus=16, micro_batch=2, accumulation=2, seq_len=1024)  # B = 2 · 16 · 2 = 64
    found = scaling(None, 10**9, setup, H100, hold_batch=True, predictor=FakeStep())
    rows = {row.data_parallel: row for row in found.rows}
    assert [(rows[d].accumulation, rows[d].global_batch, rows[d].batch) for d in (1, 16, 32, 64)] == [
        (32, 64, Batch.HELD),
        (2, 64, Batch.HELD),
        (1, 64, Batch.HELD),
        (1, 128, Batch.GROWN),
    ]
    assert found.held_batch == 64
    assert found.batch_grows_from == rows[64]
    assert all(row.tokens_per_step == row.global_batch * 1024 for row in found.rows)


def test_without_a_given_batch_the_accumulation_is_held_and_the_batch_follows_d() -> None:
    """Without B, every row keeps b and a; B = b · d · a is below the set-up's for fewer replicas, above for more."""
    setup = Setup(gpus=8, micro_batch=4, accumulation=2, seq_len=2048)
    fake = FakeStep()
    found = scaling(None, 10**9, setup, H100, hold_batch=False, predictor=fake)
    assert {(s.micro_batch, s.accumulation) for s in fake.setups} == {(4, 2)}
    assert [(row.data_parallel, row.batch) for row in found.rows][2:5] == [
        (4, Batch.SHRUNK),
        (8, Batch.HELD),
        (16, Batch.GROWN),
    ]
    assert found.held_batch is None
    assert found.batch_grows_from is None


def test_model_parallel_degrees_stay_and_multiply_the_gpus() -> None:
    """TP and PP stay as given: a row of d replicas runs on d · TP · PP GPUs, nodes of the set-up's size."""
    setup = Setup(gpus=64, tp=4, pp=2, micro_batch=1, accumulation=8, seq_len=4096, nodes=16)
    fake = FakeStep()
    found = scaling(None, 10**9, setup, H100, hold_batch=True, predictor=fake)
    assert [row.gpus for row in found.rows] == [8 * d for d in (1, 2, 4, 8, 16, 32)]
    assert {(s.tp, s.pp, s.gpus_per_node) for s in fake.setups} == {(4, 2, 4)}


@pytest.mark.parametrize(
    ("exposed", "efficiencies"),
    [
        (0.0, [1.0, 1.0, 1.0, 1.0]),  # compute alone: every GPU keeps one replica's rate
        (1.0, [1.0, 4 / 5, 2 / 3, 1 / 2]),  # efficiency = 8 s / (d · (8/d + 1) s)
    ],
)
def test_efficiency_is_throughput_against_d_times_one_replica(exposed: float, efficiencies: list[float]) -> None:
    """Efficiency = tokens/s(d) / (d · tokens/s(1)), computed from what the predictor answers."""
    setup = Setup(gpus=2, micro_batch=1, accumulation=8, seq_len=1000)  # B = 16 held: 16.000 tokens a step
    found = scaling(None, 10**9, setup, H100, hold_batch=True, predictor=FakeStep(rate=2000.0, exposed=exposed))
    assert [row.efficiency for row in found.rows[:4]] == pytest.approx(efficiencies)
    assert found.rows[0].step_seconds == pytest.approx(8.0)


def test_adding_gpus_stops_paying_where_the_added_ones_train_at_under_half_a_replicas_rate() -> None:
    """Communication that does not shrink with d: the first doubling adding less than half a replica's rate a GPU
    is where the answer says adding GPUs stops paying, bound by data-parallel communication."""
    setup = Setup(gpus=8, micro_batch=1, accumulation=8, seq_len=1000)  # 64.000 tokens: 32 s at d=1
    found = scaling(None, 10**9, setup, H100, hold_batch=True, predictor=FakeStep(rate=2000.0, exposed=2.0))
    # d=8: 4 s + 2 s; d=16: 2 s + 2 s → 16.000 vs 10.667 tokens/s: 667 a GPU added, under 1.000 (half of 2.000)
    assert found.stop is not None
    assert (found.stop.data_parallel, found.stop_reason) == (16, Stop.COMMUNICATION)
    assert found.stop.bound_by is Part.DATA_PARALLEL


def test_a_batch_grown_past_the_critical_batch_stops_paying() -> None:
    """Without B, B grows with d: the first row whose tokens a step exceed the critical batch is where it stops."""
    setup = Setup(gpus=4, micro_batch=1, accumulation=1, seq_len=1000)
    found = scaling(None, 10**9, setup, H100, hold_batch=False, critical_tokens=10_000, predictor=FakeStep())
    assert found.stop is not None
    assert (found.stop.data_parallel, found.stop_reason) == (16, Stop.CRITICAL_BATCH)
    assert [row.beyond_critical for row in found.rows] == [False, False, False, False, True]


def test_with_the_real_predictor_the_table_keeps_its_shape() -> None:
    """Whatever the time model predicts: rows by growing GPUs, positive times, efficiency at most about 1, B as held."""
    setup = Setup(gpus=64, micro_batch=2, accumulation=4, seq_len=8192)
    found = scaling(MODEL, MODEL.total_params, setup, H100, hold_batch=True)
    gpus = [row.gpus for row in found.rows]
    assert gpus == sorted(gpus)
    assert found.setup_row.gpus == 64
    assert all(row.step_seconds > 0 and 0 < row.efficiency <= 1.0 + 1e-9 for row in found.rows)
    assert found.rows[0].efficiency == pytest.approx(1.0)
    assert {row.global_batch for row in found.rows if row.batch is Batch.HELD} == {512}


def test_the_json_rows_carry_the_contracts_keys() -> None:
    """``scaling[]`` has gpus, step_seconds, tokens_per_second, efficiency and bound_by, and says what was held."""
    command = parse_command("llama3.1-8b b=2 gpus=64 B=512 L=8k gpu=h100 budget=15T skalierung")
    assert isinstance(command, ScalingCommand)
    data = scale(command.request, FakeStep(exposed=1.0)).as_json()
    assert {"gpus", "step_seconds", "tokens_per_second", "efficiency", "bound_by"} <= set(data["scaling"][0])
    assert data["scaling_held"] == "global_batch"
    assert data["micro_batch"] == 2
    assert data["critical_batch_tokens"] > 0
    assert data["scaling"][1]["bound_by"] == "data_parallel"


@pytest.mark.parametrize(
    ("text", "private"),
    [
        ("llama3.1-8b b=2 gpus=64 B=512 L=8k gpu=h100 skalierung", False),
        ("skalierung llama3.1-8b b=2 d=8 a=4 L=4096 gpu=a100-80", False),  # first word, b d a given
        ("2 8 4 4096 params=7B gpu=h100 scaling privat", True),  # the English word, params= instead of a model
    ],
)
def test_the_scaling_word_anywhere_asks_for_the_table(text: str, private: bool) -> None:
    """``skalierung`` or ``scaling`` anywhere makes the setup a scaling question, private where asked."""
    command = parse_command(text)
    assert isinstance(command, ScalingCommand)
    assert command.private is private


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("llama3.1-8b b=2 gpus=64 gpu=h100 skalierung", ["L"]),
        ("llama3.1-8b b=2 gpus=64 L=8k skalierung", ["gpu"]),
        ("b=2 gpus=64 B=512 L=8k skalierung", ["gpu", "modell"]),
        ("8 64 4 4096 gpu=h100 vs d=128 skalierung", ["modell", "gpu", "L"]),  # a comparison: no one setup
    ],
)
def test_a_scaling_question_without_what_the_table_needs_names_it(text: str, missing: list[str]) -> None:
    """A scaling question lacking the sequence length, the GPU or the model is refused naming each missing key."""
    with pytest.raises(InputError) as raised:
        parse_command(text)
    [problem] = raised.value.problems
    assert problem.kind is ProblemKind.SCALING_INCOMPLETE
    assert problem.ctx["missing"] == missing


def test_a_peak_alone_is_not_enough_for_the_table() -> None:
    """The step model needs the GPU's links and kernels: ``peak=`` without ``gpu=`` is refused naming ``gpu``."""
    with pytest.raises(InputError) as raised:
        parse_command("llama3.1-8b b=2 gpus=64 L=8k peak=989T skalierung")
    [problem] = raised.value.problems
    assert problem.ctx["missing"] == ["gpu"]
