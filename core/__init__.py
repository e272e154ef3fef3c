"""effbatch's functional core: parse the command, validate it, compute and plan.

Pure: no Slack, no environment, no I/O.

The names below are loaded when first used (PEP 562): ``effbatch check`` imports
``core.configs`` without the calculator's pydantic models, which cost more start-up
time than the whole check.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from effbatch.core.arguments import FACTORS, MODEL_PARALLEL, TARGETS, Argument
    from effbatch.core.calculation import RunComparison, compare, compare_run, compute, concrete_request, plan
    from effbatch.core.errors import InputError, Problem, ProblemKind, Side
    from effbatch.core.model import BatchSetup, Comparison, Outcome, Plan, PlanRequest
    from effbatch.core.parser import (
        CompareCommand,
        GuidanceCommand,
        HelpRequest,
        ParsedCommand,
        PlanCommand,
        RunComparisonCommand,
        RunsRequest,
        command_text,
        comparison_text,
        parse_command,
    )

#: Which module defines each public name.
_HOMES = {
    **dict.fromkeys(("FACTORS", "MODEL_PARALLEL", "TARGETS", "Argument"), "effbatch.core.arguments"),
    **dict.fromkeys(
        ("RunComparison", "compare", "compare_run", "compute", "concrete_request", "plan"), "effbatch.core.calculation"
    ),
    **dict.fromkeys(("InputError", "Problem", "ProblemKind", "Side"), "effbatch.core.errors"),
    **dict.fromkeys(("BatchSetup", "Comparison", "Outcome", "Plan", "PlanRequest"), "effbatch.core.model"),
    **dict.fromkeys(
        (
            "CompareCommand",
            "GuidanceCommand",
            "HelpRequest",
            "ParsedCommand",
            "PlanCommand",
            "RunComparisonCommand",
            "RunsRequest",
            "command_text",
            "comparison_text",
            "parse_command",
        ),
        "effbatch.core.parser",
    ),
}

__all__ = [
    "FACTORS",
    "MODEL_PARALLEL",
    "TARGETS",
    "Argument",
    "BatchSetup",
    "CompareCommand",
    "Comparison",
    "GuidanceCommand",
    "HelpRequest",
    "InputError",
    "Outcome",
    "ParsedCommand",
    "Plan",
    "PlanCommand",
    "PlanRequest",
    "Problem",
    "ProblemKind",
    "RunComparison",
    "RunComparisonCommand",
    "RunsRequest",
    "Side",
    "command_text",
    "compare",
    "compare_run",
    "comparison_text",
    "compute",
    "concrete_request",
    "parse_command",
    "plan",
]


def __getattr__(name: str) -> Any:
    """``core.X``: imported from its module on first use, then kept here."""
    home = _HOMES.get(name)
    if home is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
