"""``effbatch``: the calculation for terminals and scripts.

``effbatch 8 64 4 4096`` prints the German answer as text; ``effbatch --json …``
prints one JSON object (schema in the README). Bad input: the German message on
stderr (with ``--json`` ``{"error": …}`` on stdout) and exit code 2.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from bot import texts
from bot.answers import answer_command
from bot.blocks import Visibility
from bot.plaintext import mrkdwn_to_text, render_text
from core import CompareCommand, InputError, PlanCommand, compare, parse_command, plan

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


def json_answer(text: str) -> dict[str, Any]:
    """The JSON object for ``text``; ``InputError`` for bad input."""
    match parse_command(text):
        case PlanCommand(request=request):
            return plan(request).as_json()
        case CompareCommand(before=before, after=after, lr=lr):
            return compare(before, after, lr).as_json()
        case _:
            return {"error": texts.JSON_NEEDS_VALUES}


def _print_json(text: str) -> int:
    try:
        answer = json_answer(text)
    except InputError as error:
        answer = {"error": " ".join(mrkdwn_to_text(line) for line in texts.problem_lines(error.problems))}
    print(json.dumps(answer, ensure_ascii=False))
    return EXIT_INPUT if "error" in answer else 0
