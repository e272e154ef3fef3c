"""When nothing fits: what would – the fewest GPUs of the same card, or the memory a card would need.

The fewest GPUs are sought by doubling the cluster (``MAX_DOUBLINGS`` times at most), each size with the
leanest variant of every layout only (the highest ZeRO stage it allows, the recomputation that keeps least,
no interleaving): if that does not fit at b = 1, no variant of the layout does. B stays as asked, so a
cluster whose every split leaves more replicas than B has sequences cannot hold it.
"""

from __future__ import annotations

from dataclasses import replace

from effbatch.core.memory.fit import fit
from effbatch.core.planner.goal import MARGIN, Estimator, Goal, Shortfall
from effbatch.core.planner.space import Layout, layouts, leanest_recompute, leanest_zero

#: How often the GPUs are doubled looking for a cluster that holds the model.
MAX_DOUBLINGS = 10


def shortfall(goal: Goal, estimator: Estimator, leanest: int | None) -> Shortfall:
    """Why nothing fits on ``goal``'s GPUs and what would (``leanest``: the least memory a layout needs at b = 1)."""
    needed = None if leanest is None else int(leanest / (1 - MARGIN)) + 1
    return Shortfall(leanest is not None, needed, fewest_gpus(goal, estimator))


def fewest_gpus(goal: Goal, estimator: Estimator) -> int | None:
    """The fewest GPUs (the count asked, doubled) on which a layout fits with B held; None up to the bound."""
    gpus = goal.gpus
    for _ in range(MAX_DOUBLINGS):
        gpus *= 2
        if any(_fits(replace(goal, gpus=gpus), layout, estimator) for layout in _lean(replace(goal, gpus=gpus))):
            return gpus
    return None


def _lean(goal: Goal) -> list[Layout]:
    base, fixed = goal.base, goal.fixed
    return [
        layout
        for layout in layouts(goal.model, goal.gpus, goal.seq_len, base, fixed)
        if layout.vpp == fixed.vpp
        and layout.zero == leanest_zero(base, layout.pp, fixed)
        and layout.recompute is leanest_recompute(base.rules, fixed)
    ]


def _fits(goal: Goal, layout: Layout, estimator: Estimator) -> bool:
    per_replica, left = divmod(goal.global_batch, goal.gpus // layout.model_parallel)
    if left or not per_replica:
        return False
    return fit(estimator(goal.model, goal.setup(layout, 1)), goal.usable).fits
