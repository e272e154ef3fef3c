"""What helps when a set-up does not fit: the same search as a plan, on the set-up's own GPUs with its own B.

Never one change at a time (each of which may not be enough alone) and never a change that moves B: doubling
TP on a fixed cluster halves d, so the micro-batch and the accumulation are chosen again to keep
B = b · a · d as the set-up has it (a taken as 1 where it was not given). What stays the user's: the
precision, the rules, offloading and the rest the search does not vary.
"""

from __future__ import annotations

from effbatch.core.memory.estimate import estimate
from effbatch.core.memory.gpus import GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.setup import Setup
from effbatch.core.memory.step import predict
from effbatch.core.planner.goal import Estimator, Goal, Predictor
from effbatch.core.planner.refusals import PlanRefusedError
from effbatch.core.planner.search import Planned, search


def held_batch(setup: Setup) -> int:
    """B = b · a · d of ``setup`` (a = 1 where not given): what advice keeps."""
    return setup.micro_batch * (setup.accumulation or 1) * setup.data_parallel


def advise(
    model: ModelSpec,
    setup: Setup,
    capacity: int,
    gpu: GpuSpec | None = None,
    batch: int | None = None,
    estimator: Estimator = estimate,
    predictor: Predictor = predict,
) -> Planned | None:
    """The fastest layouts of ``model`` on ``setup``'s GPUs that fit ``capacity`` with B held – ``batch`` where the
    user asked for one, else the set-up's own – by predicted step time on ``gpu`` (without one the simplest
    first), or what would fit; None where the input cannot be planned at all (refused where it is read)."""
    goal = Goal(model, setup.gpus, capacity, batch or held_batch(setup), setup.seq_len, gpu, base=setup)
    try:
        return search(goal, estimator, predictor)
    except PlanRefusedError:
        return None
