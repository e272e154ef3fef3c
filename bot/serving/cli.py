"""``effbatch``: the calculation for terminals and scripts.

``effbatch 8 64 4 4096`` prints the German answer as text; ``effbatch --json …``
prints one JSON object, for ``läufe`` a list (schema: ``schema/effbatch.schema.json``). Bad input: the
German message on stderr (with ``--json`` ``{"error": …}`` on stdout) and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from effbatch.bot.serving.arguments import GermanArgumentParser
from effbatch.bot.texts import operator as texts
from effbatch.bot.texts.glossary import COMMAND, PROGRAM

if TYPE_CHECKING:
    from effbatch.bot.check_runner import BoundedCheck, CheckAborted, CheckPool
    from effbatch.core.configs import Check, World
    from effbatch.core.model import PlanRequest

# Each path imports only what it needs, inside the function that takes it: a check never builds the
# calculator's pydantic models, the calculator never reads YAML, neither loads Slack's Block Kit, and
# importlib.metadata (slow to import) is only for --version.

EXIT_INPUT = 2
EXIT_FINDINGS = 1
JSON_FLAG = "--json"
CHECK_COMMAND = "check"
#: The first words that run the check: ``effbatch check`` and, as in Slack, ``effbatch prüfe``.
CHECK_COMMANDS = frozenset({CHECK_COMMAND, "prüfe", "pruefe", "prüfen"})
#: The words a mistyped first word is compared with; and words that are never a typo of them.
COMMAND_WORDS = (CHECK_COMMAND, "hilfe")
KNOWN_WORDS = frozenset({"hilfe", "help", "privat", "private", "vs", "gegen", "versus"})
VERSION_FLAG = "--version"
HELP_WORD = "hilfe"


#: pydantic looks for plugins in every installed distribution's entry points when it builds its first
#: model – 0,1 to 0,3 s, more than the whole answer. effbatch uses none; whoever wants one sets the
#: variable (to an empty value) themselves.
PYDANTIC_PLUGINS = "PYDANTIC_DISABLE_PLUGINS"


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    os.environ.setdefault(PYDANTIC_PLUGINS, "__all__")
    words = sys.argv[1:] if argv is None else argv
    if not words and sys.stdin.isatty():  # typed alone at a prompt: what a newcomer wants is the help
        words = [HELP_WORD]
    if words[:1] == [COMMAND]:  # a Slack command pasted into the terminal
        words = words[1:]
    if words[:1] and words[0].casefold() in CHECK_COMMANDS:
        return _survive_closed_pipe(lambda: run_check(words[1:]))
    if words[:1] and (meant := mistyped_command(words[0])):
        print(texts.UNKNOWN_COMMAND.format(typed=words[0][:40], meant=f"{PROGRAM} {meant}"), file=sys.stderr)
        return EXIT_INPUT
    return _survive_closed_pipe(lambda: _run(words))


def mistyped_command(word: str) -> str | None:
    """``chek`` → ``check``: a word that is no value, key or help word but close to a command; else None."""
    folded = word.casefold()
    if not folded.isalpha() or folded in CHECK_COMMANDS or folded in KNOWN_WORDS:
        return None
    import difflib  # only for a word that may be a mistyped command, not on a check's path

    close = difflib.get_close_matches(folded, COMMAND_WORDS, n=1, cutoff=0.75)
    return close[0] if close else None


def _run(words: list[str]) -> int:
    if VERSION_FLAG in words:
        from importlib.metadata import version

        say(f"{PROGRAM} {version(PROGRAM)}")
        return 0
    from effbatch.bot.document import AnswerKind, Visibility
    from effbatch.bot.rendering.answers import answer_command
    from effbatch.bot.rendering.plain_text import plain_text

    text = " ".join(word for word in words if word != JSON_FLAG)
    if JSON_FLAG in words:
        return _print_json(text)
    answer = answer_command(text, Visibility.IN_CHANNEL, command=PROGRAM)
    rendered = plain_text(answer.document, choices=False)
    if answer.kind is AnswerKind.INPUT_ERROR:
        print(rendered, file=sys.stderr)
        return EXIT_INPUT
    say(rendered)
    return 0


def json_answer(text: str) -> dict[str, Any] | list[dict[str, Any]]:
    """The JSON object for ``text`` (for ``läufe`` a list of runs); ``InputError`` for bad input."""
    from effbatch.core import (
        CompareCommand,
        GuidanceCommand,
        PlanCommand,
        RunComparisonCommand,
        RunsRequest,
        compare,
        compare_run,
        parse_command,
    )
    from effbatch.core.guidance import batch_range, guidance
    from effbatch.core.runs import filter_runs
    from effbatch.core.scaling_command import ScalingCommand

    match parse_command(text):
        case PlanCommand(request=request, planner=True):
            return _planner_json(request)
        case PlanCommand(request=request):
            return _plan_json(request)
        case CompareCommand(before=before, after=after, lr=lr):
            return compare(before, after, lr).as_json()
        case RunComparisonCommand(before=before, run=run, lr=lr):
            return compare_run(before, run, lr).as_json()
        case RunsRequest(query=query):
            return [run.as_json() for run in filter_runs(query)]
        case ScalingCommand(request=request):
            from effbatch.core.scaling import scale

            return scale(request).as_json()
        case GuidanceCommand(params=params, budget=budget, seq_len=seq_len):
            found = guidance(params, budget)
            return {"guidance": found.as_json(), "batch_range": batch_range(found, seq_len).as_json()}
        case _:
            return {"error": texts.JSON_NEEDS_VALUES}


def _plan_json(request: PlanRequest) -> dict[str, Any]:
    """One setup as JSON: the memory alone where B's factors are missing; else B with the laws and the memory."""
    from effbatch.core import plan
    from effbatch.core.guidance import plan_guidance
    from effbatch.core.rules import memory_only
    from effbatch.core.training import assess

    if memory_only(request):
        assessed = assess(request, None)
        return assessed.as_json() if assessed else {"error": texts.JSON_NEEDS_VALUES}
    planned = plan(request)
    data = planned.as_json()
    tokens = planned.outcome.tokens_per_step if planned.outcome else None
    if (found := plan_guidance(request.params, request.budget, tokens)) is not None:
        data["guidance"] = found.as_json()
    if request.training is not None and (assessed := assess(request, planned.outcome)) is not None:
        data |= assessed.as_json()
    return data


def _planner_json(request: PlanRequest) -> dict[str, Any]:
    """``plane …`` as JSON: ``plan[]`` fastest first; what is missing or impossible as ``error``, in German."""
    from effbatch.bot.rendering.plan import plan_error
    from effbatch.core.plan_command import PlanIncompleteError, goal_of
    from effbatch.core.planner import PlanRefusedError, search
    from effbatch.core.planner.report import plan_json

    try:
        return plan_json(search(goal_of(request)))
    except (PlanIncompleteError, PlanRefusedError) as error:
        return {"error": plan_error(error, PROGRAM)}


def _print_json(text: str) -> int:
    from effbatch.bot.rendering.problems import problem_lines
    from effbatch.core import InputError

    try:
        answer = json_answer(text)
    except InputError as error:
        answer = {"error": " ".join(line.replace("`", "") for line in problem_lines(error.problems, PROGRAM))}
    say(json.dumps(answer, ensure_ascii=False))
    return EXIT_INPUT if "error" in answer else 0


def run_check(argv: list[str], checks: CheckPool | BoundedCheck | None = None) -> int:
    """``effbatch check``: exit 0 when consistent, 1 with an error finding, 2 when it cannot be checked.

    The files together are one run (a Trainer's arguments beside its DeepSpeed JSON); with ``--each``
    every file is its own, files without any framework's batch settings are skipped, and the exit
    code is the worst (pre-commit and CI pass whole lists of files). Each check runs in ``checks``
    (by default a check process of this command's own) under the bot's deadline: a file that would
    take longer is refused, as in Slack, instead of holding a CI job.
    """
    args = _check_parser().parse_args(argv)
    args.json = args.json or args.format == "json"
    try:
        world = _world(args)
    except _UsageError as error:
        return _refuse(str(error), args)
    runner = checks or check_here()
    if not args.each:
        return _check_files(args.files, world, args, runner)
    codes = [_check_files([name], world, args, runner, skip_unrelated=True) for name in args.files]
    return max(codes)


def check_here() -> BoundedCheck:
    """Checks in this process, bounded as the bot bounds them: its deadline; four times a pasted text's memory, as
    files may be 16 times as large. (A check process of its own cost a fresh interpreter a command: the command has
    no one else to answer, so a timer and an address-space cap do the same here.)"""
    from effbatch.bot.check_runner import CHECK_MEMORY, BoundedCheck

    return BoundedCheck(memory=4 * CHECK_MEMORY)


#: With ``--each``: a file that is no training config at all is skipped, not refused (``ProblemKind`` values).
_UNRELATED = frozenset({"unknown_format", "nothing_to_check", "not_this_framework", "empty"})


def _check_files(
    names: list[str],
    world: World | None,
    args: argparse.Namespace,
    checks: CheckPool | BoundedCheck,
    skip_unrelated: bool = False,
) -> int:
    from effbatch.bot.check_runner import CheckAborted
    from effbatch.bot.rendering.checks import problem_text
    from effbatch.bot.serving.config_files import STDIN_NAME, UnreadableFileError, read_source
    from effbatch.core.configs import MAX_FILE_BYTES, CheckError

    files = [name for name in names if name != STDIN_NAME]  # what an annotation can name
    try:
        sources = [read_source(name) for name in names]
        settings, versions = _settings(args.set), _versions(args.framework_version)
        check = checks(
            sources, world, args.framework or None, MAX_FILE_BYTES, gpu=args.gpu, settings=settings, versions=versions
        )
    except CheckError as error:
        if skip_unrelated and error.kind in _UNRELATED:
            print(_shown(texts.CHECK_SKIPPED.format(name=names[0])), file=sys.stderr)
            return 0
        return _refuse(problem_text(error), args, files)
    except (_UsageError, UnreadableFileError) as error:
        return _refuse(str(error), args, files)
    except CheckAborted as stopped:
        return _refuse(_aborted(stopped, names), args, files)
    _say_check(check, args, files)
    return 0 if check.ok else EXIT_FINDINGS


def _say_check(check: Check, args: argparse.Namespace, files: list[str]) -> None:
    """The check as JSON, or as text (with ``--format github`` after the annotations at the values' lines)."""
    from effbatch.bot.document import Visibility
    from effbatch.bot.rendering.checks import check_answer, check_json
    from effbatch.bot.rendering.plain_text import plain_text

    if args.json:
        say(_shown(json.dumps(check_json(check), ensure_ascii=False), as_json=True))
        return
    if args.format == "github":
        from effbatch.bot.rendering.github import workflow_commands

        if commands := workflow_commands(check, files):
            say("\n".join(commands))
    answer = check_answer(check, Visibility.IN_CHANNEL, command=PROGRAM)
    say(_shown(plain_text(answer.document, choices=False)))


def _aborted(stopped: CheckAborted, names: list[str]) -> str:
    """A check stopped for the deadline (or the memory): which files, and what it would have taken."""
    from effbatch.bot.rendering.formatting import byte_size, decimal
    from effbatch.bot.texts.checks import ABORTED_CLI

    reason = ABORTED_CLI[stopped.reason].format(seconds=decimal(stopped.seconds), memory=byte_size(stopped.memory))
    return f"{', '.join(names)}: {reason}"


class _UsageError(ValueError):
    """A file that cannot be read or options that do not fit together; the message is German."""


def _check_parser() -> GermanArgumentParser:
    from effbatch.bot.texts.checks import framework_list
    from effbatch.core.configs import FRAMEWORK_IDS

    count, frameworks = framework_list()  # from the registry, as the help and the exit-2 message name them
    description = texts.CHECK_DESCRIPTION.format(count=count, frameworks=frameworks)
    parser = GermanArgumentParser(prog=f"{PROGRAM} {CHECK_COMMAND}", description=description, epilog=texts.CHECK_EPILOG)
    parser.add_argument("files", nargs="+", metavar="DATEI", help=texts.CHECK_FILES_HELP)
    parser.add_argument("--world-size", type=int, metavar="N", help=texts.CHECK_WORLD_HELP)
    parser.add_argument("--nnodes", type=int, metavar="N", help=texts.CHECK_NODES_HELP)
    parser.add_argument("--nproc-per-node", type=int, metavar="N", help=texts.CHECK_PER_NODE_HELP)
    parser.add_argument("--framework", choices=list(FRAMEWORK_IDS), help=texts.CHECK_FRAMEWORK_HELP)
    parser.add_argument("--gpu", metavar="NAME", help=texts.CHECK_GPU_HELP)
    parser.add_argument("--json", action="store_true", help=texts.CHECK_JSON_HELP)
    parser.add_argument("--format", choices=["text", "json", "github"], default="text", help=texts.CHECK_FORMAT_HELP)
    parser.add_argument("--each", action="store_true", help=texts.CHECK_EACH_HELP)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=WERT", help=texts.CHECK_SET_HELP)
    parser.add_argument(
        "--framework-version", action="append", default=[], metavar="PAKET==VERSION", help=texts.CHECK_VERSION_HELP
    )
    return parser


def _versions(given: list[str]) -> dict[str, str]:
    """``--framework-version trl==0.18.0``: the release a run pins, as a requirements file would."""
    from effbatch.core.configs.base.versions import requirements

    found = requirements(given)
    if len(found) != len(given):
        raise _UsageError(texts.CHECK_VERSION_FORM.format(item=", ".join(given)))
    return found


def _settings(given: list[str]) -> dict[str, str]:
    """``--set bs=16``: what a script's command line would pass it (``--bs 16``), for values only its run knows."""
    settings: dict[str, str] = {}
    for item in given:
        name, has_value, value = item.partition("=")
        if not has_value or not name.strip("-"):
            raise _UsageError(texts.CHECK_SET_FORM.format(item=item))
        settings[name.strip().lstrip("-")] = value.strip()
    return settings


def _world(args: argparse.Namespace) -> World | None:
    from effbatch.core.configs import World

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


def _refuse(message: str, args: argparse.Namespace, files: list[str] | None = None) -> int:
    message = message.replace("`", "")
    if args.format == "github" and files:  # --format github: the file that could not be checked, marked
        from effbatch.bot.rendering.github import file_annotation

        say(file_annotation(files[0], message))
    if args.json:
        say(_shown(json.dumps({"error": message}, ensure_ascii=False), as_json=True))
    else:
        print(_shown(message), file=sys.stderr)
    return EXIT_INPUT


def _shown(text: str, *, as_json: bool = False) -> str:
    """What ``effbatch check`` prints, in every format: CI runs it in GitHub Actions, whose runner reads workflow
    commands in every line of a step's output, and a config's value, key or file name could carry one."""
    from effbatch.bot.rendering.github import log_json, log_text

    return log_json(text) if as_json else log_text(text)


def _survive_closed_pipe(run: Callable[[], int]) -> int:
    """``effbatch check ok.yaml | head -1``: a reader that stops early ends the output, not the answer: no
    traceback, and the exit code is the answer's (0 consistent, 1 findings) – ``say`` swallows the closed pipe."""
    code = 0  # argparse's help, the one output without a code of its own, ends with 0
    try:
        code = run()
        sys.stdout.flush()  # a pipe's stdout is buffered: the closed pipe shows here, with the code already known
    except BrokenPipeError:
        _stdout_to_devnull()
    return code


def say(text: str) -> None:
    """``print(text)`` on stdout; once the reader has gone (a closed pipe), nothing more is written, quietly."""
    try:
        print(text)
    except BrokenPipeError:
        _stdout_to_devnull()


def _stdout_to_devnull() -> None:
    """Python's documented recipe for a closed pipe: point stdout at devnull, so that no later write or the flush
    at exit fails again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
