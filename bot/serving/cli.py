"""``effbatch``: the calculation for terminals and scripts.

``effbatch 8 64 4 4096`` prints the German answer as text; ``effbatch --json …``
prints one JSON object, for ``läufe`` a list (schema: ``schema/effbatch.schema.json``). Bad input: the
German message on stderr (with ``--json`` ``{"error": …}`` on stdout) and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

from bot.document import AnswerKind, Visibility
from bot.rendering.answers import answer_command
from bot.rendering.checks import check_answer, check_json, problem_text
from bot.rendering.plain_text import plain_text
from bot.rendering.problems import problem_lines
from bot.serving.arguments import GermanArgumentParser
from bot.texts import operator as texts
from bot.texts.glossary import COMMAND
from core import (
    CompareCommand,
    InputError,
    PlanCommand,
    RunComparisonCommand,
    RunsRequest,
    compare,
    compare_run,
    parse_command,
    plan,
)
from core.configs import MAX_FILE_BYTES, CheckError, Framework, ProblemKind, Source, World, check_config
from core.guidance import plan_guidance
from core.runs import filter_runs

EXIT_INPUT = 2
EXIT_FINDINGS = 1
JSON_FLAG = "--json"
CHECK_COMMAND = "check"
VERSION_FLAG = "--version"
PROGRAM = "effbatch"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == [CHECK_COMMAND]:
        return _survive_closed_pipe(lambda: run_check(words[1:]))
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
    """In a terminal the command is ``effbatch``, not ``/effbatch``; a path such as ``/tmp/effbatch-ci`` stays."""
    return _SLASH_COMMAND.sub(PROGRAM, text)


_SLASH_COMMAND = re.compile(rf"(?<![\w./-]){re.escape(COMMAND)}(?![\w./-])")


def json_answer(text: str) -> dict[str, Any] | list[dict[str, Any]]:
    """The JSON object for ``text`` (for ``läufe`` a list of runs); ``InputError`` for bad input."""
    match parse_command(text):
        case PlanCommand(request=request):
            planned = plan(request)
            data = planned.as_json()
            tokens = planned.outcome.tokens_per_step if planned.outcome else None
            if (found := plan_guidance(request.params, request.budget, tokens)) is not None:
                data["guidance"] = found.as_json()
            return data
        case CompareCommand(before=before, after=after, lr=lr):
            return compare(before, after, lr).as_json()
        case RunComparisonCommand(before=before, run=run, lr=lr):
            return compare_run(before, run, lr).as_json()
        case RunsRequest(query=query):
            return [run.as_json() for run in filter_runs(query)]
        case _:
            return {"error": texts.JSON_NEEDS_VALUES}


def _print_json(text: str) -> int:
    try:
        answer = json_answer(text)
    except InputError as error:
        answer = {"error": for_terminal(" ".join(line.replace("`", "") for line in problem_lines(error.problems)))}
    print(json.dumps(answer, ensure_ascii=False))
    return EXIT_INPUT if "error" in answer else 0


def run_check(argv: list[str]) -> int:
    """``effbatch check``: exit 0 when consistent, 1 with an error finding, 2 when it cannot be checked.

    The files together are one run (a Trainer's arguments beside its DeepSpeed JSON); with ``--each``
    every file is its own, files without any framework's batch settings are skipped, and the exit
    code is the worst (pre-commit and CI pass whole lists of files).
    """
    args = _check_parser().parse_args(argv)
    try:
        world = _world(args)
    except _UsageError as error:
        return _refuse(str(error), args.json)
    if not args.each:
        return _check_files(args.files, world, args)
    codes = [_check_files([name], world, args, skip_unrelated=True) for name in args.files]
    return max(codes)


def _check_files(names: list[str], world: World | None, args: argparse.Namespace, skip_unrelated: bool = False) -> int:
    try:
        sources = [_source(name) for name in names]
        framework = Framework(args.framework) if args.framework else None
        check = check_config(sources, world, framework, max_bytes=MAX_FILE_BYTES)
    except CheckError as error:
        if skip_unrelated and error.kind in _UNRELATED:
            print(texts.CHECK_SKIPPED.format(name=names[0]), file=sys.stderr)
            return 0
        return _refuse(problem_text(error), args.json)
    except _UsageError as error:
        return _refuse(str(error), args.json)
    if args.json:
        print(json.dumps(check_json(check), ensure_ascii=False))
    else:
        print(for_terminal(plain_text(check_answer(check, Visibility.IN_CHANNEL).document, choices=False)))
    return 0 if check.ok else EXIT_FINDINGS


#: With ``--each``: a file that is no training config at all is skipped, not refused.
_UNRELATED = frozenset({ProblemKind.UNKNOWN_FORMAT, ProblemKind.NOTHING_TO_CHECK, ProblemKind.EMPTY})


class _UsageError(ValueError):
    """A file that cannot be read or options that do not fit together; the message is German."""


def _check_parser() -> GermanArgumentParser:
    parser = GermanArgumentParser(prog=f"{PROGRAM} {CHECK_COMMAND}", description=texts.CHECK_DESCRIPTION)
    parser.add_argument("files", nargs="+", metavar="DATEI", help=texts.CHECK_FILES_HELP)
    parser.add_argument("--world-size", type=int, help=texts.CHECK_WORLD_HELP)
    parser.add_argument("--nnodes", type=int, help=texts.CHECK_NODES_HELP)
    parser.add_argument("--nproc-per-node", type=int, help=texts.CHECK_PER_NODE_HELP)
    parser.add_argument("--framework", choices=[f.value for f in Framework], help=texts.CHECK_FRAMEWORK_HELP)
    parser.add_argument("--json", action="store_true", help=texts.CHECK_JSON_HELP)
    parser.add_argument("--each", action="store_true", help=texts.CHECK_EACH_HELP)
    return parser


def _world(args: argparse.Namespace) -> World | None:
    for option, value in (
        ("--world-size", args.world_size),
        ("--nnodes", args.nnodes),
        ("--nproc-per-node", args.nproc_per_node),
    ):
        if value is not None and value < 1:
            raise _UsageError(texts.CHECK_NOT_POSITIVE.format(option=option))
    if args.world_size is not None:
        if args.nnodes is not None or args.nproc_per_node is not None:
            raise _UsageError(texts.CHECK_WORLD_BOTH)
        return World(args.world_size, f"--world-size {args.world_size}")
    if (args.nnodes is None) != (args.nproc_per_node is None):
        raise _UsageError(texts.CHECK_WORLD_PAIR)
    if args.nnodes is None:
        return None
    size = args.nnodes * args.nproc_per_node
    return World(size, f"--nnodes {args.nnodes} --nproc-per-node {args.nproc_per_node}")


def _source(name: str) -> Source:
    shown = texts.STDIN if name == "-" else name
    try:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError:
        raise _UsageError(texts.CHECK_NO_FILE.format(name=shown)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise CheckError(ProblemKind.TOO_LARGE, name=shown, size=len(raw), max=MAX_FILE_BYTES)
    try:
        return Source(shown, raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _UsageError(texts.CHECK_NOT_TEXT.format(name=shown)) from None


def _refuse(message: str, as_json: bool) -> int:
    message = for_terminal(message.replace("`", ""))
    if as_json:
        print(json.dumps({"error": message}, ensure_ascii=False))
    else:
        print(message, file=sys.stderr)
    return EXIT_INPUT


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
