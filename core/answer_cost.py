"""Which answers run the memory and time model. A plain answer (``8 64 4 4096``) costs a few hundred µs of CPU;
one with memory and time, a scaling table or a plan milliseconds up to a second (the planner's search, and the
„Was hilft“ plan of a set-up that does not fit). A server answers the first kind where the request arrives and
hands the second to a thread, so that one search never holds every other answer. Pure."""

from __future__ import annotations

from functools import lru_cache

from effbatch.core.errors import InputError
from effbatch.core.model import PlanRequest
from effbatch.core.parser import CompareCommand, PlanCommand, RunComparisonCommand, parse_command
from effbatch.core.rules import memory_only
from effbatch.core.scaling_command import ScalingCommand


@lru_cache(maxsize=1024)
def asks_the_model(text: str) -> bool:
    """Whether answering ``text`` runs the memory and time model (cached: a repeated text is a dictionary lookup)."""
    try:
        parsed = parse_command(text)
    except InputError:
        return False  # the error answer names what is wrong: nothing is computed
    match parsed:
        case ScalingCommand():
            return True
        case PlanCommand(request=request, planner=planner):
            return planner or _models(request)
        case CompareCommand(before=before, after=after):
            return _models(before) or _models(after)
        case RunComparisonCommand(before=before):
            return _models(before)
    return False  # help, the published runs, the laws' question


def _models(request: PlanRequest) -> bool:
    """A memory or time key, a model, or ``params=`` without B's factors: the answer estimates memory and time."""
    return request.training is not None or memory_only(request)
