"""``effbatch``: the calculation for terminals and scripts.

``effbatch 8 64 4 4096`` prints the German answer as text; ``effbatch --json …``
prints one JSON object (schema: ``schema/effbatch.schema.json``). Bad input: the
German message on stderr (with ``--json`` ``{"error": …}`` on stdout) and exit code 2.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from bot.document import AnswerKind, Visibility
from bot.rendering.answers import answer_command
from bot.rendering.plain_text import plain_text
from bot.rendering.problems import problem_lines
from bot.texts import operator as texts
from bot.texts.glossary import COMMAND
from core import CompareCommand, InputError, PlanCommand, compare, parse_command, plan

EXIT_INPUT = 2
JSON_FLAG = "--json"
VERSION_FLAG = "--version"
PROGRAM = "effbatch"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    words = sys.argv[1:] if argv is None else argv
    return _survive_closed_pipe(lambda: _run(words))


def _run(words: list[str]) -> int:
    if VERSION_FLAG in words:
        print(f"{PROGRAM} {version(PROGRAM)}")
        return 0
    text = " ".join(word for word in words if word != JSON_FLAG)
    if JSON_FLAG in words:
        return _print_json(text)
    answer = answer_command(text, Visibility.IN_CHANNEL)
    rendered = for_terminal(plain_text(answer.document, choices=False))
    if answer.kind is AnswerKind.INPUT_ERROR:
        print(rendered, file=sys.stderr)
        return EXIT_INPUT
    print(rendered)
    return 0


def for_terminal(text: str) -> str:
    """In a terminal the command is ``effbatch``, not Slack's ``/effbatch``."""
    return text.replace(COMMAND, PROGRAM)


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
        answer = {"error": for_terminal(" ".join(line.replace("`", "") for line in problem_lines(error.problems)))}
    print(json.dumps(answer, ensure_ascii=False))
    return EXIT_INPUT if "error" in answer else 0


def _survive_closed_pipe(run: Callable[[], int]) -> int:
    """``effbatch hilfe | head -1``: a reader that stops early ends the output, not with a traceback."""
    try:
        code = run()
        sys.stdout.flush()
    except BrokenPipeError:
        # Python's documented recipe: point stdout at devnull so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return code
