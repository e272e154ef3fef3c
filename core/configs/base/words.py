"""Launch lines as words: POSIX word splitting, a command's launcher and program, its ``--flags``.

Regular expressions, not a shell: ``split_words`` for ``#SBATCH`` lines and flag strings (a property test holds it
to ``shlex``), ``split_launch`` for a command the shell reader found (``core.configs.shell``), ``flags`` for its
program's arguments.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

#: Processes launched by these programs, and how each names nodes and processes per node.
LAUNCHERS = ("torchrun", "deepspeed", "accelerate", "torch.distributed.run", "torch.distributed.launch")
#: torchrun's long options (torch 2.13 ``torch/distributed/run.py`` get_args_parser, an ``ArgumentParser`` with
#: argparse's default ``allow_abbrev=True``): a launch line may name one by an unambiguous prefix (``--nnode=2``).
TORCHRUN_OPTIONS = frozenset(
    {
        "--duplicate-stderr-filters",
        "--duplicate-stdout-filters",
        "--duplicate_stderr_filters",
        "--duplicate_stdout_filters",
        "--event-log-handler",
        "--event_log_handler",
        "--help",
        "--local-addr",
        "--local-ranks-filter",
        "--local_addr",
        "--local_ranks_filter",
        "--log-dir",
        "--log_dir",
        "--logs-specs",
        "--logs_specs",
        "--master-addr",
        "--master-port",
        "--master_addr",
        "--master_port",
        "--max-restarts",
        "--max_restarts",
        "--module",
        "--monitor-interval",
        "--monitor_interval",
        "--nnodes",
        "--no-python",
        "--no_python",
        "--node-rank",
        "--node_rank",
        "--nproc-per-node",
        "--nproc_per_node",
        "--numa-binding",
        "--numa_binding",
        "--rdzv-backend",
        "--rdzv-conf",
        "--rdzv-endpoint",
        "--rdzv-id",
        "--rdzv_backend",
        "--rdzv_conf",
        "--rdzv_endpoint",
        "--rdzv_id",
        "--redirects",
        "--role",
        "--run-path",
        "--run_path",
        "--shutdown-timeout",
        "--shutdown_timeout",
        "--signals-to-handle",
        "--signals_to_handle",
        "--standalone",
        "--start-method",
        "--start_method",
        "--tee",
        "--virtual-local-rank",
        "--virtual_local_rank",
    }
)
_TORCHRUN = ("torchrun", "torch.distributed.run")

_ASSIGNMENT = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)(\+?)=(.*)$")
_SPECIAL = re.compile(r"""[#'"\\]""")
_PART = r"""'[^']*'|"(?:[^"\\]|\\.)*"|\\."""
#: One shell word: unquoted runs, '…', "…" and \x, one after another. Linear: nothing follows the group, so a
#: match never backtracks into the runs, and a quote without its partner fails once, at the last one.
_WORDS = re.compile(rf"""(?:[^\s'"\\]+|{_PART})+""", re.DOTALL)
_WORDS_AND_OPERATORS = re.compile(rf"""(?:[^\s'"\\;&|]+|{_PART})+|[;&|]+""", re.DOTALL)
_QUOTED_PART = re.compile(r"""'(?P<single>[^']*)'|"(?P<double>(?:[^"\\]|\\.)*)"|\\(?P<escaped>.)""", re.DOTALL)


def split_words(text: str, punctuation: bool = False) -> list[str]:
    """Shell words as POSIX quoting makes them (``;``, ``&&``, ``|`` … apart where ``punctuation``).

    Regular expressions rather than ``shlex``, which reads a character at a time in Python (~200 ms for
    a 64 KiB script); unbalanced quotes make the text split at white space rather than an error.
    """
    pattern = _WORDS_AND_OPERATORS if punctuation else _WORDS
    words, end = [], 0
    for match in pattern.finditer(text):
        if text[end : match.start()].strip():
            return text.split()  # an unbalanced quote
        words.append(match.group(0) if match.group(0)[0] in ";&|" and punctuation else _unquote(match.group(0)))
        end = match.end()
    return words if not text[end:].strip() else text.split()


def _unquote(word: str) -> str:
    return _QUOTED_PART.sub(_unquoted_part, word) if _SPECIAL.search(word) else word


def _unquoted_part(match: re.Match[str]) -> str:
    if (single := match.group("single")) is not None:
        return single
    if (double := match.group("double")) is not None:
        return re.sub(r'\\(["\\])', r"\1", double)  # inside "…" a backslash escapes only " and \
    return match.group("escaped")


@dataclass(frozen=True)
class Launch:
    """A command split into launcher and program: the launcher's options, then the program's words."""

    launcher: str | None
    launcher_options: dict[str, str]
    program: str | None
    arguments: tuple[str, ...]


def split_launch(words: tuple[str, ...]) -> Launch:
    """``torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py --micro-batch-size 4`` into its two parts.

    Wrappers before the launcher (``VAR=value``, ``uv run``, ``nsys profile …``, ``srun``) are skipped.
    """
    launcher, index = _launcher(words)
    options: dict[str, str] = {}
    if launcher is not None:
        while index < len(words) and words[index].startswith("-"):
            if words[index] in ("-m", "--module"):  # torchrun -m package.module: the next word is the program
                index += 1
                break
            key, has_value, value = words[index].partition("=")
            key = _unabbreviated(key) if launcher in _TORCHRUN else key
            following = words[index + 1] if not has_value and index + 1 < len(words) else "-"
            takes = not _looks_like_program(following) or key in ("--nproc_per_node", "--nproc-per-node")
            if not following.startswith("-") and takes:
                value, index = following, index + 1
            options[key] = value
            index += 1
    else:
        index = next((i for i, word in enumerate(words) if _is_python(word) or _looks_like_program(word)), index)
    program = None
    if index < len(words):
        if _is_python(words[index]) and index + 1 < len(words):
            index += 1
        program, index = words[index], index + 1
    return Launch(launcher, options, program, tuple(words[index:]))


def _unabbreviated(key: str) -> str:
    """argparse's ``allow_abbrev``: a long option that is no option of torchrun's but the start of exactly one is
    that one (two or more: argparse refuses it as ambiguous, and it stays as written)."""
    if not key.startswith("--") or key in TORCHRUN_OPTIONS:
        return key
    matches = [option for option in TORCHRUN_OPTIONS if option.startswith(key)]
    return matches[0] if len(matches) == 1 else key


def _launcher(words: tuple[str, ...]) -> tuple[str | None, int]:
    """The launcher and the index after it; else None and the index after leading ``VAR=value`` words."""
    for index, word in enumerate(words):
        if _looks_like_program(word):
            break
        if _is_python(word) and words[index + 1 : index + 2] == ("-m",) and words[index + 2 : index + 3]:
            if words[index + 2] in LAUNCHERS:
                return words[index + 2], index + 3
            break
        if _program_name(word) in LAUNCHERS:
            after = index + 1
            if word == "accelerate" and words[after : after + 1] == ("launch",):
                after += 1
            return _program_name(word), after
    index = 0
    while index < len(words) and _ASSIGNMENT.match(words[index]):
        index += 1
    return None, index


def _is_python(word: str) -> bool:
    return re.fullmatch(r"python(\d+(\.\d+)?)?", _program_name(word)) is not None


def _program_name(word: str) -> str:
    return word.rsplit("/", 1)[-1]


def _looks_like_program(word: str) -> bool:
    return word.endswith(".py") or word.endswith(".sh")


def flags(arguments: tuple[str, ...], arity: Mapping[str, int] | None = None) -> dict[str, list[str]]:
    """``--flag value``, ``--flag=value`` and bare ``--flag`` (an empty list), the last one winning.

    ``arity`` names flags that take several values (Megatron's ``--rampup-batch-size`` takes three).
    """
    arity = arity or {}
    found: dict[str, list[str]] = {}
    index = 0
    while index < len(arguments):
        word = arguments[index]
        index += 1
        if not word.startswith("--"):
            continue
        name, has_value, value = word.partition("=")
        if has_value:
            found[name] = [value]
            continue
        count = arity.get(name, 1)
        values: list[str] = []
        while len(values) < count and index < len(arguments) and not _is_flag(arguments[index]):
            values.append(arguments[index])
            index += 1
        found[name] = values
    return found


def _is_flag(word: str) -> bool:
    return word.startswith("--") and len(word) > 2 and not word[2].isdigit()
