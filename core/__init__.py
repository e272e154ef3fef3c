"""effbatch's functional core: parse the command, validate it, compute B and T.

Pure: no Slack, no environment, no I/O.
"""

from core.calculation import compute
from core.errors import InputError, Problem, ProblemKind
from core.model import Argument, BatchResult, BatchSetup
from core.parser import CalculationRequest, HelpRequest, ParsedCommand, parse_command

__all__ = [
    "Argument",
    "BatchResult",
    "BatchSetup",
    "CalculationRequest",
    "HelpRequest",
    "InputError",
    "ParsedCommand",
    "Problem",
    "ProblemKind",
    "compute",
    "parse_command",
]
