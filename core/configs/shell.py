"""Launch lines and bash launch scripts, read (never run) by a real grammar: tree-sitter-bash and a small evaluator.

``read_script(text) -> Script``: what the script sets and runs, in order, every expansion that the
script's own values resolve resolved (``core.configs._bash`` walks the tree):

- assignments ``VAR=value``, ``VAR+=value``, ``export``/``local``/``declare``/``readonly``, ``unset``;
- ``$VAR``, ``${VAR}``, ``${VAR:-w}``/``${VAR-w}``/``${VAR:=w}``/``${VAR:+w}``, ``${#VAR}``, arrays
  ``A=(…)``, ``A+=(…)``, ``A[i]=w``, ``${A[@]}``/``${A[*]}``/``${A[i]}``/``${#A[@]}``;
- ``$((…))`` integer arithmetic as bash computes it (C division, ``**``, comparisons, ``?:``), and
  its assignments (``(( X += 2 ))``, ``X++``, ``let``); ``read``/``getopts``/``mapfile`` make a variable unknown;
- quoting (``'…'``, ``"…"``, ``$'…'``, backslashes), word splitting of unquoted values, continuations;
- ``;``, ``&&``, ``||``, ``|``; ``{ …; }`` and ``( … )``; functions (their body where they are called);
  loops (their body once, the loop variable unknown, what they assign unknown after them); ``exit`` ends
  the reading;
- commands built in strings or arrays: ``$CMD …``, ``bash -c "$CMD"``, ``sh -c``, ``eval``;
- ``VAR=value cmd`` and ``env VAR=value cmd``: ``Command.env`` (for that command only);
- ``if``/``elif``/``else``, ``[ … ]``, ``[[ … ]]``, ``test``, ``(( … ))`` and ``case … esac``: the branch
  is decided where the condition is decidable from the script's own values (``=``, ``==``, ``!=``, globs
  in ``[[ ]]`` and ``case``, ``-z``/``-n``, ``-eq``/``-ne``/``-lt``/``-le``/``-gt``/``-ge``, ``!``, ``&&``/``||``).

What the script does not set itself (``$1``, ``$@``, the environment, ``$(…)``, a file test) is unknown
and stays as written (``$4``), so a value that depends on it reads as unresolved, never guessed.

Undecided conditions. A condition that depends on something unknown is never decided silently:
``Script.undecided`` lists each one met (``Undecided(condition, variables, line)``: the condition as
written, the unknown variables it names, its line), and ``alternatives(text)`` enumerates the feasible
branch choices, each an ``Alternative(label, script)`` with a plain-English label such as
``[ "$MODE" = big ] (line 12)`` or ``not [ -z "$NNODES" ] (line 3)`` (several choices joined by
``"; "``), at most ``MAX_ALTERNATIVES`` (8), in a stable order. A branch that ``exit``s is not a run
that trains, so it is no alternative. ``read_script`` returns the first alternative (at each undecided
condition the first feasible branch), so ``read_script(t).undecided`` non-empty means: check
``alternatives(t)`` and say when they differ. A script without undecided conditions has exactly one
alternative, labelled ``"as written"``. For example::

    text = 'if [ "$1" = big ]; then GBS=1024; else GBS=256; fi\ntorchrun … --global-batch-size $GBS'
    read_script(text).undecided  # (Undecided(condition='[ "$1" = big ]', variables=('1',), line=1),)
    [(a.label, a.script.variables["GBS"]) for a in alternatives(text)]
    # [('[ "$1" = big ] (line 1)', '1024'), ('not [ "$1" = big ] (line 1)', '256')]

Bounds (issue 19): parsing stops after ``MAX_PARSE_SECONDS`` of CPU time (tree-sitter's error recovery
is quadratic on some broken shapes); no value or word longer than ``MAX_VALUE_CHARS``; no array longer
than ``MAX_ARRAY``; no integer beyond ``MAX_DIGITS`` digits (``**`` and ``<<`` checked before computing);
budgets of steps (``MAX_STEPS``) and of characters produced (``MAX_CHARS``) per reading; a nesting depth
(``MAX_DEPTH``) over commands, expansions, ``&&`` chains, ``bash -c`` and functions; at most
``MAX_UNDECIDED`` undecided conditions in one reading; ``alternatives`` reads a script at most
``MAX_ALTERNATIVES`` times, in at most ``MAX_ALTERNATIVE_STEPS`` steps together. Reaching one raises
``CheckError(ProblemKind.UNREADABLE, detail="shell_…", max=…, line=…)``; ``bot.texts.checks`` words each.

Also here: ``grammar_errors(text)`` (the lines the grammar could not read), ``split_words`` (POSIX word
splitting by regular expressions, for ``#SBATCH`` lines; a property test holds it to ``shlex``),
``split_launch`` and ``flags`` (a command's launcher, program and flags).

Nothing is ever executed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.configs._bash import (
    MAX_ALTERNATIVE_STEPS,
    MAX_ALTERNATIVES,
    MAX_ARRAY,
    MAX_CHARS,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_PARSE_SECONDS,
    MAX_STEPS,
    MAX_UNDECIDED,
    MAX_VALUE_CHARS,
    Command,
    Script,
    Undecided,
    evaluate,
    parse,
    too_much,
)

__all__ = [
    "LAUNCHERS",
    "MAX_ALTERNATIVES",
    "MAX_ALTERNATIVE_STEPS",
    "MAX_ARRAY",
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_PARSE_SECONDS",
    "MAX_STEPS",
    "MAX_UNDECIDED",
    "MAX_VALUE_CHARS",
    "Alternative",
    "Command",
    "Launch",
    "Script",
    "Undecided",
    "alternatives",
    "flags",
    "grammar_errors",
    "read_script",
    "split_launch",
    "split_words",
]

#: Processes launched by these programs, and how each names nodes and processes per node.
LAUNCHERS = ("torchrun", "deepspeed", "accelerate", "torch.distributed.run", "torch.distributed.launch")

_ASSIGNMENT = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)(\+?)=(.*)$")
_SPECIAL = re.compile(r"""[#'"\\]""")
_PART = r"""'[^']*'|"(?:[^"\\]|\\.)*"|\\."""
#: One shell word: unquoted runs, '…', "…" and \x, one after another. Linear: nothing follows the group, so a
#: match never backtracks into the runs, and a quote without its partner fails once, at the last one.
_WORDS = re.compile(rf"""(?:[^\s'"\\]+|{_PART})+""", re.DOTALL)
_WORDS_AND_OPERATORS = re.compile(rf"""(?:[^\s'"\\;&|]+|{_PART})+|[;&|]+""", re.DOTALL)
_QUOTED_PART = re.compile(r"""'(?P<single>[^']*)'|"(?P<double>(?:[^"\\]|\\.)*)"|\\(?P<escaped>.)""", re.DOTALL)


@dataclass(frozen=True)
class Alternative:
    """One feasible choice of branches at the script's undecided conditions, and the script read that way."""

    label: str
    script: Script


def read_script(text: str) -> Script:
    """Assignments and commands of ``text``, in order, with every expansion that can be resolved resolved."""
    return evaluate(parse(text)).script


def alternatives(text: str, limit: int = MAX_ALTERNATIVES) -> list[Alternative]:
    """The script read once per feasible choice at its undecided conditions (the first is ``read_script``'s)."""
    root = parse(text)
    found: list[Alternative] = []
    pending: list[tuple[int, ...]] = [()]
    spent = 0
    while pending and len(found) < limit:
        if spent > MAX_ALTERNATIVE_STEPS:
            raise too_much("shell_work", MAX_ALTERNATIVE_STEPS, None)
        choices = pending.pop(0)
        run = evaluate(root, choices)
        spent += run.steps
        found.append(Alternative(_label(run.labels), run.script))
        taken = [index for index, _ in run.taken]
        for position in range(len(choices), len(run.taken)):
            if len(found) + len(pending) >= limit:
                break  # enough to fill the limit: the rest is never read
            pending += [(*taken[:position], other) for other in range(1, run.taken[position][1])]
    return found


def grammar_errors(text: str, limit: int = 10) -> tuple[int, ...]:
    """The lines (at most ``limit``) where tree-sitter-bash found a syntax error; the rest is read all the same."""
    stack, lines = [parse(text)], set[int]()
    while stack and len(lines) < limit:
        node = stack.pop()
        if node.is_error or node.is_missing:
            lines.add(node.start_point.row + 1)
        elif node.has_error:  # only the subtrees that hold an error are visited
            stack.extend(reversed(node.children))
    return tuple(sorted(lines))


def _label(labels: list[str], shown: int = 8) -> str:
    """The choices of one alternative, the first ``shown`` of them spelled out."""
    if not labels:
        return "as written"
    more = f"; and {len(labels) - shown} more" if len(labels) > shown else ""
    return "; ".join(labels[:shown]) + more


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
