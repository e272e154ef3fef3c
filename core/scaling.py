"""The scaling question (``… skalierung``): from a request to the data-parallel table. Pure.

The bridge between ``PlanRequest`` and ``core.memory.scaling``: the set-up as the plain answer assesses it
(B solved where it can be), the GPU (a named one: the step model needs its links and kernels), whether B is
held (``B=`` or ``T=`` given), and the critical batch – the upper of the two batch-size laws' estimates
(``core.guidance``), known only where the budget D is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from effbatch.core.arguments import TARGETS
from effbatch.core.calculation import plan
from effbatch.core.errors import InputError, Problem, ProblemKind
from effbatch.core.guidance import BatchRange, batch_range, guidance
from effbatch.core.memory.gpus import GPUS, GpuSpec
from effbatch.core.memory.models import ModelSpec
from effbatch.core.memory.scaling import Predictor, Scaling, scaling
from effbatch.core.memory.setup import Setup
from effbatch.core.memory.step import predict
from effbatch.core.model import PlanRequest
from effbatch.core.rules import memory_only
from effbatch.core.scaling_command import missing_for_scaling
from effbatch.core.training import layout


@dataclass(frozen=True)
class ScalingAnswer:
    """The table and what it was computed from: the assessed set-up, the GPU, B held or not, the laws' range."""

    request: PlanRequest
    model: ModelSpec | None
    params: int
    setup: Setup
    gpu: GpuSpec
    table: Scaling
    critical: BatchRange | None

    @property
    def hold_batch(self) -> bool:
        return self.table.held_batch is not None

    def as_json(self) -> dict[str, Any]:
        """``scaling[]`` (gpus, step_seconds, tokens_per_second, efficiency, bound_by, …) and what was held."""
        stop = self.table.stop
        return {
            "scaling": self.table.as_json(),
            "scaling_held": "global_batch" if self.hold_batch else "accumulation",
            "micro_batch": self.setup.micro_batch,
            "critical_batch_tokens": self.critical.high_tokens if self.critical else None,
            "stops_paying": {"gpus": stop.gpus, "reason": str(self.table.stop_reason)} if stop else None,
        }


def scale(request: PlanRequest, predictor: Predictor = predict) -> ScalingAnswer:
    """The table for ``request`` (``InputError`` where a value it needs is missing or the set-up is impossible)."""
    if missing := missing_for_scaling(request):
        raise InputError([Problem(ProblemKind.SCALING_INCOMPLETE, ctx={"missing": missing})])
    outcome = None if memory_only(request) else plan(request).reference  # B not reached exactly: the nearest
    found = layout(request, outcome)
    gpu = GPUS.get(request.training.gpu) if request.training and request.training.gpu else None
    if found is None or gpu is None:  # refused at parse time (an incomplete shape, no GPU); this guards the types
        raise InputError([Problem(ProblemKind.SCALING_INCOMPLETE, ctx={"missing": missing_for_scaling(request)})])
    model, params, setup = found
    critical = None
    if request.budget is not None:
        critical = batch_range(guidance(params, request.budget), request.seq_len)
    hold = any(request.value(target) is not None for target in TARGETS)
    table = scaling(
        model,
        params,
        setup,
        gpu,
        hold_batch=hold,
        critical_tokens=critical.high_tokens if critical else None,
        predictor=predictor,
    )
    return ScalingAnswer(request, model, params, setup, gpu, table, critical)
