"""The planner: the fastest layouts that fit, with B held, and what would fit when nothing does. Pure.

``search(goal)`` is the entry: a ``Goal`` (model, GPUs, B, L, budget, what the user fixed) to a ``Planned``
(the fastest three with their memory and predicted step, the obvious choice beside them, or a
``Shortfall``). ``advise`` is the memory answer's "what helps", made of the same search. Inputs no layout
can hold raise ``PlanRefusedError``, each reason by name.
"""

from __future__ import annotations

from effbatch.core.planner.goal import MARGIN, Estimator, Goal, Predictor, Shortfall
from effbatch.core.planner.refusals import Impossible, PlanRefusedError, Refusal, refusals
from effbatch.core.planner.search import Candidate, Planned, search
from effbatch.core.planner.space import Fixed, Layout

__all__ = [
    "MARGIN",
    "Candidate",
    "Estimator",
    "Fixed",
    "Goal",
    "Impossible",
    "Layout",
    "PlanRefusedError",
    "Planned",
    "Predictor",
    "Refusal",
    "Shortfall",
    "refusals",
    "search",
]
