"""The search: every layout the space allows, pruned by memory before any time is predicted, ranked by step time.

B is held throughout: on ``gpus`` GPUs a layout leaves d = GPUs / (TP · PP · CP) replicas, and B = b · a · d
must stay whole, so a layout whose d does not divide B is skipped and b runs over the divisors of B / d.
One estimate a layout at b = 1, held against the GPU by ``fit``, gives the largest b that fits (memory grows
linearly in b beside the model states; 0: the lower bound already exceeds the GPU) without estimating each b.
Only the micro-batches that fit have their step time predicted, at most ``MAX_PREDICTED``: every layout's
largest micro-batch first, then the smallest, then one between, so that the cap, where it bites, drops a
third micro-batch before it drops a layout. Only the few answered are estimated again at their own b.

The estimator and the predictor are parameters (``core.memory.estimate`` and ``core.memory.step.predict`` by
default), so a test can give the search a memory and a time model of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from effbatch.core.memory.estimate import MemoryEstimate, estimate
from effbatch.core.memory.fit import Fit, fit
from effbatch.core.memory.setup import Setup
from effbatch.core.memory.step import StepPrediction, predict
from effbatch.core.memory.time import SECONDS_PER_DAY
from effbatch.core.planner.goal import Estimator, Goal, Predictor, Shortfall
from effbatch.core.planner.refusals import refuse
from effbatch.core.planner.shortfall import shortfall
from effbatch.core.planner.space import Layout, layouts

#: Candidates whose step time is predicted, at most: the search's bound whatever the cluster.
MAX_PREDICTED = 1500
#: Micro-batches tried a layout: the largest that fits, the smallest and one between.
MICRO_BATCHES_A_LAYOUT = 3
#: Fastest entries answered.
ANSWERED = 3
#: The largest micro-batch a plan tries: beyond it the matrix products gain nothing a larger b could add, and the
#: divisors of B / d stay few however large B is.
MAX_MICRO_BATCH = 256


@dataclass(frozen=True)
class Candidate:
    """One layout at one micro-batch that fits: its memory and (with a GPU type) its predicted step."""

    layout: Layout
    setup: Setup
    memory: MemoryEstimate
    fit: Fit
    step: StepPrediction | None
    budget: int | None = None

    @property
    def train_seconds(self) -> float | None:
        if self.step is None or not self.budget:
            return None
        return self.budget / self.step.tokens_per_second

    @property
    def train_days(self) -> float | None:
        seconds = self.train_seconds
        return None if seconds is None else seconds / SECONDS_PER_DAY

    @property
    def gpu_hours(self) -> float | None:
        seconds = self.train_seconds
        return None if seconds is None else seconds * self.setup.gpus / 3600


@dataclass(frozen=True)
class Planned:
    """The fastest candidates (fastest first), the obvious choice beside them, and what the search did."""

    goal: Goal
    fastest: tuple[Candidate, ...]
    obvious: Candidate | None
    layouts: int
    predicted: int
    shortfall: Shortfall | None = None


@dataclass(frozen=True)
class _Fitting:
    layout: Layout
    micro_batch: int
    turn: int = 0  # 0 the largest micro-batch of its layout, 1 the smallest, 2 the one between: timed in that order


def search(
    goal: Goal, estimator: Estimator = estimate, predictor: Predictor = predict, limit: int = MAX_PREDICTED
) -> Planned:
    """The fastest layouts for ``goal`` with B held; ``PlanRefusedError`` for an input no layout can hold."""
    refuse(goal.model, goal.gpus, goal.fixed)
    fitting, looked, leanest = _fitting(goal, estimator)
    if not fitting:
        return Planned(goal, (), None, looked, 0, shortfall(goal, estimator, leanest))
    fitting = sorted(fitting, key=lambda f: (f.turn, f.layout.simplicity, -f.micro_batch))[:limit]
    timed = [(f, _step(goal, f, predictor)) for f in fitting]
    best: dict[Layout, tuple[_Fitting, StepPrediction | None]] = {}
    for found, step in sorted(timed, key=lambda pair: _rank(pair[0], pair[1])):
        best.setdefault(found.layout, (found, step))
    ranked = list(best.values())
    obvious = min(ranked, key=lambda pair: (pair[0].layout.simplicity, -pair[0].micro_batch))
    answered = [_candidate(goal, found, step, estimator) for found, step in ranked[:ANSWERED]]
    return Planned(goal, tuple(answered), _candidate(goal, *obvious, estimator), looked, len(timed) if goal.gpu else 0)


def _fitting(goal: Goal, estimator: Estimator) -> tuple[list[_Fitting], int, int | None]:
    """The (layout, b) pairs that fit with B held, how many layouts were looked at, and the smallest memory any
    layout needs at b = 1 (None: B splits over none)."""
    fitting: list[_Fitting] = []
    looked, leanest = 0, None
    for layout in layouts(goal.model, goal.gpus, goal.seq_len, goal.base, goal.fixed):
        looked += 1
        per_replica, left = divmod(goal.global_batch, goal.gpus // layout.model_parallel)
        if left or not per_replica:
            continue
        fitted = fit(estimator(goal.model, goal.setup(layout, 1)), goal.usable, min(per_replica, MAX_MICRO_BATCH))
        leanest = fitted.total if leanest is None else min(leanest, fitted.total)
        largest = fitted.largest_micro_batch if fitted.largest_micro_batch is not None else int(fitted.fits)
        if not largest:
            continue  # the lower bound: not even b = 1 fits beside the model states
        tried = micro_batches(per_replica, largest, layout, goal.fixed.micro_batch)
        fitting += [_Fitting(layout, micro, turn) for turn, micro in enumerate(tried)]
    return fitting, looked, leanest


def micro_batches(per_replica: int, largest: int | None, layout: Layout, fixed: int | None) -> list[int]:
    """The micro-batches tried, in the order they are timed: divisors of B / d up to the largest that fits (b = 1
    where activations are unknown), the largest, the smallest and the one between; interleaving needs a multiple
    of PP micro-batches."""
    bound = 1 if largest is None else min(largest, MAX_MICRO_BATCH)
    allowed = [
        b for b in _divisors(per_replica) if b <= bound and (layout.vpp is None or (per_replica // b) % layout.pp == 0)
    ]
    if fixed is not None:
        return [fixed] if fixed in allowed else []
    if len(allowed) <= MICRO_BATCHES_A_LAYOUT:
        return allowed[::-1]
    return list(dict.fromkeys((allowed[-1], allowed[0], allowed[len(allowed) // 2])))


@cache
def _divisors(count: int) -> tuple[int, ...]:
    """The divisors of ``count`` up to ``MAX_MICRO_BATCH``, smallest first (few distinct counts a search)."""
    return tuple(b for b in range(1, min(count, MAX_MICRO_BATCH) + 1) if count % b == 0)


def _step(goal: Goal, found: _Fitting, predictor: Predictor) -> StepPrediction | None:
    if goal.gpu is None:
        return None
    return predictor(goal.model, goal.model.total_params, goal.setup(found.layout, found.micro_batch), goal.gpu)


def _rank(found: _Fitting, step: StepPrediction | None) -> tuple[float, tuple[int, ...], int]:
    """Fastest first; where the predictions tie, the simpler layout and the larger micro-batch."""
    seconds = round(step.step_seconds, 9) if step is not None else 0.0
    return (seconds, found.layout.simplicity, -found.micro_batch)


def _candidate(goal: Goal, found: _Fitting, step: StepPrediction | None, estimator: Estimator) -> Candidate:
    setup = goal.setup(found.layout, found.micro_batch)
    memory = estimator(goal.model, setup)
    return Candidate(found.layout, setup, memory, fit(memory, goal.capacity), step, goal.budget)
