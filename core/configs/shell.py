"""Launch lines and bash launch scripts, read (never run): assignments, expansions, arrays, the command.

Understood: ``VAR=value`` (also ``export``/``local``/``declare``), ``ARR=( … )`` over several
lines, ``$VAR``, ``${VAR}``, ``${VAR:-default}``/``${VAR-default}``/``${VAR:=default}``,
``${ARR[@]}``/``${ARR[*]}``, ``$(( … ))`` integer arithmetic over numbers and variables,
backslash continuations, comments, and commands separated by ``;``, ``&&``, ``||``, ``|``.
Command substitution ``$( … )`` and anything else is left as it stands: a value that depends
on it is reported as unreadable, never guessed and never executed.
"""

from __future__ import annotations

import ast
import operator
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

#: Processes launched by these programs, and how each names nodes and processes per node.
LAUNCHERS = ("torchrun", "deepspeed", "accelerate", "torch.distributed.run", "torch.distributed.launch")

_ASSIGNMENT = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)(\+?)=(.*)$")
#: ``"${ARR[@]}"``: each element one word, as bash expands it (unquoted, the elements are split again).
_QUOTED_ARRAY = re.compile(r'"\$\{(?P<array>[A-Za-z_]\w*)\[@\]\}"')
_EXPANSION = re.compile(
    r"\$\(\((?P<arith>[^()]*(?:\([^()]*\)[^()]*)*)\)\)"  # $(( … ))
    r"|\$\{(?P<array>[A-Za-z_]\w*)\[[@*]\]\}"  # ${ARR[@]}
    r"|\$\{(?P<name>[A-Za-z_]\w*)(?:(?P<op>:?[-=])(?P<default>[^}]*))?\}"  # ${VAR}, ${VAR:-x}
    r"|\$(?P<bare>[A-Za-z_]\w*)"  # $VAR
)
_SEPARATORS = frozenset({";", "&&", "||", "|", "&"})
_SPECIAL = re.compile(r"""[#'"\\]""")
_PART = r"""'[^']*'|"(?:[^"\\]|\\.)*"|\\."""
#: One shell word: unquoted runs, '…', "…" and \x, one after another. Linear: nothing follows the group, so a
#: match never backtracks into the runs, and a quote without its partner fails once, at the last one.
_WORDS = re.compile(rf"""(?:[^\s'"\\]+|{_PART})+""", re.DOTALL)
_WORDS_AND_OPERATORS = re.compile(rf"""(?:[^\s'"\\;&|]+|{_PART})+|[;&|]+""", re.DOTALL)
_QUOTED_PART = re.compile(r"""'(?P<single>[^']*)'|"(?P<double>(?:[^"\\]|\\.)*)"|\\(?P<escaped>.)""", re.DOTALL)
_ARITHMETIC: Mapping[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.floordiv,  # bash arithmetic is integer arithmetic
    ast.Mod: operator.mod,
}


@dataclass(frozen=True)
class Command:
    """One command of a script: its words, and the line it starts on."""

    words: tuple[str, ...]
    line: int


@dataclass
class Script:
    """What a launch script sets and runs."""

    variables: dict[str, str] = field(default_factory=dict)
    arrays: dict[str, list[str]] = field(default_factory=dict)
    #: Where each variable was last set (line numbers, 1-based).
    lines: dict[str, int] = field(default_factory=dict)
    commands: list[Command] = field(default_factory=list)


def read_script(text: str) -> Script:
    """Assignments and commands of ``text``, in order, with every expansion that can be resolved resolved."""
    script = Script()
    logical = _logical_lines(text)
    index = 0
    while index < len(logical):
        number, line = logical[index]
        index += 1
        match = _ASSIGNMENT.match(line)
        if match and not _is_command_with_prefix(match.group(3)):
            name, append, value = match.groups()
            if value.startswith("("):
                body, last = value[1:], value[1:]
                while ")" not in _unquoted(last) and index < len(logical):  # each logical line closes its quotes
                    last = logical[index][1]
                    body += " " + last
                    index += 1
                elements = split_words(_expand(body.rsplit(")", 1)[0], script))
                script.arrays[name] = (script.arrays.get(name, []) if append else []) + elements
            else:
                words = split_words(_expand(value, script))
                before = script.variables.get(name, "") if append else ""
                script.variables[name] = before + (words[0] if words else "")
            script.lines[name] = number
            continue
        for words in _commands(split_words(_expand(line, script), punctuation=True)):
            script.commands.append(Command(tuple(words), number))
    return script


def _is_command_with_prefix(value: str) -> bool:
    """``WORLD_SIZE=8 torchrun …`` sets a variable for one command: treated as that command."""
    parts = value.split(None, 1)
    return len(parts) > 1 and not value.lstrip().startswith(("(", '"', "'", "$(", "${"))


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Lines joined at backslash continuations and inside open quotes, comments dropped, each with its first line."""
    result: list[tuple[int, str]] = []
    pending, start, quote = "", 0, ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line, quote = _strip_comment(raw, quote)
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        if quote:  # a quoted value over several lines: OPTIONS=" … "
            pending += line + " "
            continue
        pending += line
        if pending.strip():
            result.append((start, pending.strip()))
        pending = ""
    if pending.strip():
        result.append((start, pending.strip()))
    return result


def _strip_comment(line: str, quote: str = "") -> tuple[str, str]:
    """The line without a ``#`` comment (outside quotes, at the start or after white space), and the quote left open.

    ``quote`` is the quote still open from the lines before.
    """
    if not quote and not _SPECIAL.search(line):
        return line, ""  # most lines: nothing quoted, nothing escaped, no comment
    escaped = False
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\" and quote != "'":
            escaped = True
        elif quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index], ""
    return line, quote


def _unquoted(text: str) -> str:
    """``text`` with quoted parts removed, to find a closing parenthesis."""
    return re.sub(r"'[^']*'|\"[^\"]*\"", "", text)


def _expand(text: str, script: Script) -> str:
    """Every resolvable expansion replaced; single-quoted parts stay as written."""
    parts = re.split(r"('[^']*')", text)
    return "".join(part if part.startswith("'") else _expand_part(part, script) for part in parts)


def _expand_part(text: str, script: Script) -> str:
    text = _QUOTED_ARRAY.sub(lambda m: _array(m.group("array"), script, quoted=True) or m.group(0), text)
    return _EXPANSION.sub(lambda m: _value(m, script), text)


def _array(name: str, script: Script, *, quoted: bool) -> str | None:
    """An array's elements as words: quoted, one word each; unquoted, split again at white space."""
    if name not in script.arrays:
        return None
    elements = script.arrays[name]
    return " ".join(shlex.quote(word) for word in elements) if quoted else " ".join(elements)


def _value(match: re.Match[str], script: Script) -> str:
    if (expression := match.group("arith")) is not None:
        result = _arithmetic(expression, script)
        return str(result) if result is not None else match.group(0)
    if (array := match.group("array")) is not None:
        expanded = _array(array, script, quoted=False)
        return match.group(0) if expanded is None else expanded
    name = match.group("name") or match.group("bare")
    if name in script.variables and (script.variables[name] or match.group("op") in (None, "-", "=")):
        return script.variables[name]
    if match.group("op"):
        default = _expand(match.group("default") or "", script)
        if match.group("op").endswith("="):
            script.variables[name] = default
        return default
    return match.group(0)  # unknown: left as written, so a value using it reads as unresolved


def _arithmetic(expression: str, script: Script) -> int | None:
    """``$(( … ))`` over integers, + - * / %, parentheses and variables; None where it cannot be resolved."""
    text = _EXPANSION.sub(lambda m: _value(m, script), expression)
    text = re.sub(r"\b([A-Za-z_]\w*)\b", lambda m: script.variables.get(m.group(1), m.group(1)), text)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return None
    return _integer(tree.body)


def _integer(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _integer(node.operand)
        return None if value is None else -value
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _integer(node.left), _integer(node.right)
        if left is None or right is None or (right == 0 and isinstance(node.op, ast.FloorDiv | ast.Div | ast.Mod)):
            return None
        return _ARITHMETIC[type(node.op)](left, right)
    return None


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


def _commands(words: list[str]) -> list[list[str]]:
    commands: list[list[str]] = [[]]
    for word in words:
        if word in _SEPARATORS:
            commands.append([])
        else:
            commands[-1].append(word)
    return [command for command in commands if command]


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
