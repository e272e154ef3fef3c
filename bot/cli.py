"""``effbatch``: the calculation for terminals and scripts.

``effbatch 8 64 4 4096`` prints the German answer as text; ``effbatch --json …``
prints one JSON object. Bad input: the German message on stderr (with ``--json``
``{"error": …}`` on stdout) and exit code 2.
"""

from __future__ import annotations

import json
import sys

from bot import texts
from bot.answers import answer_command
from bot.blocks import Visibility
from bot.plaintext import mrkdwn_to_text, render_text
from core import InputError, compute, parse_command
from core.parser import CalculationRequest

EXIT_INPUT = 2
JSON_FLAG = "--json"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    words = sys.argv[1:] if argv is None else argv
    text = " ".join(word for word in words if word != JSON_FLAG)
    if JSON_FLAG in words:
        return _print_json(text)
    kind, message = answer_command(text, Visibility.IN_CHANNEL)
    rendered = render_text(message.to_slack())
    if kind == "input_error":
        print(rendered, file=sys.stderr)
        return EXIT_INPUT
    print(rendered)
    return 0


def _print_json(text: str) -> int:
    try:
        request = parse_command(text)
    except InputError as error:
        lines = [mrkdwn_to_text(line) for line in texts.problem_lines(error.problems)]
        print(json.dumps({"error": " ".join(lines)}, ensure_ascii=False))
        return EXIT_INPUT
    if not isinstance(request, CalculationRequest):
        print(json.dumps({"error": texts.JSON_NEEDS_VALUES}, ensure_ascii=False))
        return EXIT_INPUT
    print(json.dumps(compute(request.setup).as_json(), ensure_ascii=False))
    return 0
