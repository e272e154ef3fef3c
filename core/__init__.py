"""effbatch's functional core: parse the command, validate it, compute and plan.

Pure: no Slack, no environment, no I/O.
"""

from core.arguments import FACTORS, MODEL_PARALLEL, TARGETS, Argument
from core.calculation import RunComparison, compare, compare_run, compute, concrete_request, plan
from core.errors import InputError, Problem, ProblemKind, Side
from core.model import BatchSetup, Comparison, Outcome, Plan, PlanRequest
from core.parser import (
    CompareCommand,
    HelpRequest,
    ParsedCommand,
    PlanCommand,
    RunComparisonCommand,
    RunsRequest,
    command_text,
    comparison_text,
    parse_command,
)

__all__ = [
    "FACTORS",
    "MODEL_PARALLEL",
    "TARGETS",
    "Argument",
    "BatchSetup",
    "CompareCommand",
    "Comparison",
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
