"""effbatch's functional core: parse the command, validate it, compute and plan.

Pure: no Slack, no environment, no I/O.
"""

from core.calculation import compare, compute, plan
from core.errors import InputError, Problem, ProblemKind
from core.model import Argument, BatchSetup, Comparison, Outcome, Plan, PlanRequest
from core.parser import CompareCommand, HelpRequest, ParsedCommand, PlanCommand, parse_command

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
    "compare",
    "compute",
    "parse_command",
    "plan",
]
