"""The scaling question as a command (``… skalierung``): the words that ask it and what it needs. Pure and light:
the parser reads it without the step model, which ``core.scaling`` loads when the table is computed."""

from __future__ import annotations

from dataclasses import dataclass

from effbatch.core.errors import InputError, Problem, ProblemKind
from effbatch.core.model import PlanRequest
from effbatch.core.training_request import TrainingRequest

#: Anywhere in a command: the setup's data-parallel scaling table instead of its plain answer.
SCALING_WORDS = frozenset({"skalierung", "scaling"})


@dataclass(frozen=True)
class ScalingCommand:
    """The data-parallel scaling of one setup (``… skalierung``): step time, throughput, efficiency by d."""

    request: PlanRequest
    private: bool = False


def scaling_command(request: PlanRequest | None, private: bool) -> ScalingCommand:
    """The command for one setup's ``request``, or ``InputError`` naming what the table lacks (None: no one setup –
    a comparison, the runs, the laws)."""
    missing = missing_for_scaling(request) if request is not None else ["modell", "gpu", "L"]
    if request is None or missing:
        raise InputError([Problem(ProblemKind.SCALING_INCOMPLETE, ctx={"missing": missing})])
    return ScalingCommand(request, private)


def missing_for_scaling(request: PlanRequest) -> list[str]:
    """The keys a scaling question lacks: ``L``, ``gpu`` (a named one; ``peak=`` alone is not enough), ``modell``
    (or ``params``)."""
    training = request.training or TrainingRequest()
    missing = [] if request.seq_len is not None else ["L"]
    if training.gpu is None:  # the step model needs the GPU's links and kernels, not only its peak
        missing.append("gpu")
    if not training.shape_given and request.params is None:
        missing.append("modell")
    return missing
