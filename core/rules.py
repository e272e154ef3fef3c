"""The rules both the parser and the calculation apply, in one place."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from effbatch.core.arguments import FACTORS, ROLLOUT, TARGETS, Argument
from effbatch.core.errors import Problem, ProblemKind

if TYPE_CHECKING:
    from effbatch.core.model import PlanRequest
    from effbatch.core.training_request import TrainingRequest


def missing_factors(given: Collection[Argument]) -> Problem | None:
    """Too few of b, d, a: all three without a target, two with one (GPUs stand in for d; a rollout's mini-batch
    sets B = mini · n, a target); a rollout begun without its prompts, answers or mini-batch names those."""
    rollout = [a for a in (Argument.PROMPTS, Argument.SAMPLES, Argument.MINI) if a not in given]
    if rollout and any(a in given for a in ROLLOUT):  # a rollout begun: what it lacks, not a of b · d · a
        return Problem(ProblemKind.ROLLOUT_INCOMPLETE, ctx={"missing": rollout})
    present = set(given) | ({Argument.DATA_PARALLEL} if Argument.GPUS in given else set())
    present |= {Argument.TARGET_BATCH} if Argument.MINI in given else set()
    missing = [a for a in FACTORS if a not in present]
    if any(target in present for target in TARGETS):
        if len(missing) > 1:
            return Problem(ProblemKind.NOT_ENOUGH_FACTORS, ctx={"missing": missing})
        return None
    return Problem(ProblemKind.MISSING_VALUES, ctx={"missing": missing}) if missing else None


def memory_question(given: Collection[Argument], training: TrainingRequest | None) -> bool:
    """A memory question: memory or time keys, or ``params=`` without the factors of B."""
    return training is not None or (Argument.PARAMS in given and missing_factors(given) is not None)


def memory_only(request: PlanRequest) -> bool:
    """Memory without B: the factors of B incomplete (then no batch answer, the memory alone)."""
    given = [a for a in Argument if a is not Argument.LR and request.value(a) is not None]
    return memory_question(given, request.training) and missing_factors(given) is not None
