"""effbatch's functional core: parse the command, validate it, compute and plan.

Pure: no Slack, no environment, no I/O.
"""

from core.calculation import compare, compute, concrete_request, plan
from core.errors import InputError, Problem, ProblemKind
from core.model import Argument, BatchSetup, Comparison, Outcome, Plan, PlanRequest
from core.parser import (
    CompareCommand,
    HelpRequest,
    ParsedCommand,
    PlanCommand,
    command_text,
    comparison_text,
    parse_command,
)

__all__ = [
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
    "command_text",
    "compare",
    "comparison_text",
    "compute",
    "concrete_request",
    "parse_command",
    "plan",
]
