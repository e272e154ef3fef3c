"""``plan[]`` of ``--json``: each entry in the shape of a plain answer's JSON (the set-up's keys, ``memory`` and
``time``), fastest first; beside it the obvious choice, what the search did and, when nothing fits, what would.
"""

from __future__ import annotations

from typing import Any

from effbatch.core.memory.report import memory_json
from effbatch.core.memory.step import Assumed
from effbatch.core.planner.goal import MARGIN
from effbatch.core.planner.search import Candidate, Planned


def plan_json(planned: Planned) -> dict[str, Any]:
    """The whole plan as schema/'s object: ``plan`` (fastest first), ``obvious``, ``search``, ``shortfall``."""
    goal = planned.goal
    data: dict[str, Any] = {
        "plan": [candidate_json(planned, c) for c in planned.fastest],
        "global_batch": goal.global_batch,
        "gpus": goal.gpus,
        "search": {"layouts": planned.layouts, "predicted": planned.predicted, "margin": MARGIN},
    }
    if goal.seq_len is not None:
        data["seq_len"] = goal.seq_len
    if planned.obvious is not None:
        data["obvious"] = candidate_json(planned, planned.obvious)
    if (short := planned.shortfall) is not None:
        data["shortfall"] = {
            "batch_splits": short.batch_splits,
            "memory_needed_bytes": short.memory_needed,
            "fewest_gpus": short.fewest_gpus,
        }
    return data


def candidate_json(planned: Planned, candidate: Candidate) -> dict[str, Any]:
    """One layout as a plain answer says it: b, a, d, the degrees, ``memory{…, fits}`` and ``time{…}``."""
    setup, layout = candidate.setup, candidate.layout
    data: dict[str, Any] = {
        "micro_batch": setup.micro_batch,
        "accumulation": setup.accumulation,
        "data_parallel": setup.data_parallel,
        "tp": layout.tp,
        "pp": layout.pp,
        "vpp": layout.vpp,
        "cp": layout.cp,
        "ep": layout.ep,
        "zero": layout.zero,
        "recompute": layout.recompute.value,
        "memory": memory_json(candidate.memory, setup.micro_batch, planned.goal.model, planned.goal.gpu, candidate.fit),
    }
    if (step := candidate.step) is not None:
        data["time"] = {
            "step_seconds": step.step_seconds,
            "mfu": step.mfu,
            "mfu_assumed": Assumed.MFU in step.assumed,
            "tokens_per_second": step.tokens_per_second,
            "train_days": candidate.train_days,
            "gpu_hours": candidate.gpu_hours,
            "seconds": {part.value: seconds for part, seconds in step.seconds.items()},
            "bound_by": step.bound_by.value,
            "assumed": [assumed.value for assumed in step.assumed],
        }
    return data
