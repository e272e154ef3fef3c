"""The evaluator behind ``core.configs.shell``: a tree-sitter-bash tree walked in order, nothing executed.

Every value is a string or a list of strings that the script itself builds; what the script does not set
(``$1``, the environment, ``$(…)``) is *unknown* and stays as written. Every growth is bounded (the
``MAX_…`` constants): a limit reached raises ``CheckError(ProblemKind.UNREADABLE, detail="shell_…")``, never
a long wait.
"""

from __future__ import annotations

import fnmatch
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from core.configs.model import CheckError, ProblemKind

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Point


@cache
def _language() -> Language:
    """The bash grammar, loaded when the first script is read (a check of a YAML file never pays for it)."""
    import tree_sitter_bash
    from tree_sitter import Language

    return Language(tree_sitter_bash.language())


def _parser() -> Parser:
    from tree_sitter import Parser

    return Parser(_language())


#: The longest value or word a script may build (a long Megatron argument string is ~4 KiB).
MAX_VALUE_CHARS = 64 * 1024
#: The most elements an array (or the words of one command) may have.
MAX_ARRAY = 10_000
#: Digits of any integer in ``$((…))`` (bash itself computes with 64 bits, 19 digits).
MAX_DIGITS = 30
#: Steps of one reading: nodes visited, each ``bash -c``/``eval`` text parsed (a step per 64 bytes). The largest
#: launch script of Megatron-LM's 132 needs ~3.900; a step costs 3-10 µs here, so the bound is ~50-150 ms.
MAX_STEPS = 15_000
#: Steps of all readings ``alternatives`` makes together (checked between readings).
MAX_ALTERNATIVE_STEPS = 3 * MAX_STEPS
#: Characters all values and words of one reading may add up to (a 64 KiB launch script produces ~150.000).
MAX_CHARS = 1_000_000
#: Nested constructs: commands in commands, ``bash -c`` and ``eval`` texts, function calls, expansions.
MAX_DEPTH = 100
#: Conditions one reading may find undecided (a real launch script has a handful).
MAX_UNDECIDED = 64
#: CPU time the grammar may take to parse the texts of one reading (64 KiB of a real script take ~10 ms).
MAX_PARSE_SECONDS = 0.25
#: Branch choices enumerated by ``alternatives``.
MAX_ALTERNATIVES = 8

_LIMIT = 10**MAX_DIGITS
_STATEMENTS = frozenset({"program", "compound_statement", "subshell", "do_group", "ERROR"})
_DEFAULTS = frozenset({":-", "-", ":=", "=", ":+", "+"})
_ESCAPED_IN_DOUBLE = re.compile(r"\\([$`\"\\\n])")
_ASSIGNING = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--"})
#: Commands that set variables from what only the run knows (``let`` computes from the script's own values).
_READERS = frozenset({"read", "getopts", "mapfile", "readarray", "let"})
_NAME = re.compile(r"[A-Za-z_]\w*")
#: What a redirected statement has besides its body: never a command.
_REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect", "heredoc_body", "comment"})
_ENV_WORD = re.compile(r"[A-Za-z_]\w*=.*", re.DOTALL)
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)
_C_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "e": "\x1b", "r": "\r", "a": "\a", "0": "\0"}


@dataclass(frozen=True)
class Command:
    """One command of a script: its words, the line it starts on, and the ``VAR=value`` prefixes it runs with."""

    words: tuple[str, ...]
    line: int
    #: ``WORLD_SIZE=16 python …``: variables set for this command only (also from ``env VAR=value …``).
    env: dict[str, str] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Undecided:
    """A condition the script's own values do not decide: its text as written, the unknown variables, its line."""

    condition: str
    variables: tuple[str, ...]
    line: int


@dataclass
class Script:
    """What a launch script sets and runs."""

    variables: dict[str, str] = field(default_factory=dict)
    arrays: dict[str, list[str]] = field(default_factory=dict)
    #: Where each variable was last set (line numbers, 1-based).
    lines: dict[str, int] = field(default_factory=dict)
    commands: list[Command] = field(default_factory=list)
    #: Conditions this reading had to choose a branch for (it took the first that does not ``exit``).
    undecided: tuple[Undecided, ...] = ()


def evaluate(root: Node, choices: Sequence[int] = ()) -> Run:
    """One reading of a parsed script, following ``choices`` at its undecided conditions (then the first)."""
    run = Run(choices=choices)
    run.statement(root)
    run.script.undecided = tuple(run.undecided)
    return run


def parse(text: str, seconds: float = MAX_PARSE_SECONDS) -> Node:
    """The tree-sitter-bash tree of ``text`` (syntax errors become ERROR nodes; the rest is still read).

    The grammar's error recovery is quadratic on some broken shapes (16 KiB of ``A=(A=(A=(…`` take over a
    second), so a first parse stops after ``seconds`` of this thread's CPU time (a clock, not the wall: a
    busy machine does not make a script unreadable). Only that way of parsing can be stopped, and its tree
    reads each node's text back through the callback (80 µs a node), so the text is parsed once more from
    its bytes for the tree that is used: ~2-10 ms for 64 KiB.
    """
    data = text.encode("utf-8", "surrogatepass")
    started = time.thread_time()

    def read(offset: int, _point: Point) -> bytes:
        return data[offset : offset + 65536]

    def too_long(_offset: int, _has_error: bool) -> bool:
        return time.thread_time() - started > seconds

    try:
        _parser().parse(read, progress_callback=too_long)
    except ValueError:  # "Parsing failed": stopped by too_long
        raise too_much("shell_parse", round(MAX_PARSE_SECONDS * 1000)) from None
    return _parser().parse(data).root_node


def too_much(detail: str, limit: int, line: int | None = None) -> CheckError:
    """The error a bound raises: ``detail`` names it (``bot.texts.checks.UNREADABLE_REASONS`` words it)."""
    return CheckError(ProblemKind.UNREADABLE, detail=detail, max=limit, line=line)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _line(node: Node) -> int:
    return node.start_point.row + 1


class _Fields:
    """Words as bash builds them from the parts of an argument: quoted text joins, unquoted values split."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.words: list[str] = []
        self.open = False
        self.unknown = False

    def literal(self, text: str) -> None:
        self.run.charge(len(text))
        if self.open:
            if len(self.words[-1]) + len(text) > MAX_VALUE_CHARS:
                raise too_much("shell_long_value", MAX_VALUE_CHARS, self.run.at)
            self.words[-1] += text
        else:
            if len(self.words) >= MAX_ARRAY:
                raise too_much("shell_long_array", MAX_ARRAY, self.run.at)
            self.words.append(text)
            self.open = True

    def split(self, text: str) -> None:
        """An unquoted value: split at white space (the default IFS), its ends joining the words around it."""
        if text[:1].isspace():
            self.open = False
        pieces = text.split()
        if pieces:
            self.literal(pieces[0])
            self._extend(pieces[1:])
        if text[-1:].isspace():
            self.open = False

    def elements(self, items: Sequence[str], quoted: bool) -> None:
        """``"${ARR[@]}"``: one word per element; unquoted, all of them split again as one text."""
        if not items:
            return
        if quoted:
            self.literal(items[0])  # joins the text before it; the rest are words of their own
            self._extend(items[1:])
        else:
            self.split(" ".join(items))

    def _extend(self, words: Sequence[str]) -> None:
        """Whole words after the current one (each already within the length bound)."""
        if not words:
            return
        if len(self.words) + len(words) > MAX_ARRAY:
            raise too_much("shell_long_array", MAX_ARRAY, self.run.at)
        self.run.charge(sum(map(len, words)) + len(words))
        self.words += words
        self.open = True


@dataclass
class Run:
    """One evaluation of a tree: the script it builds, the branch choices it follows, and its budget."""

    choices: Sequence[int] = ()
    script: Script = field(default_factory=Script)
    #: (choice taken, feasible choices) at each undecided condition, in the order met.
    taken: list[tuple[int, int]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    undecided: list[Undecided] = field(default_factory=list)
    unknown: set[str] = field(default_factory=set)
    functions: dict[str, Node] = field(default_factory=dict)
    calling: set[str] = field(default_factory=set)
    env: dict[str, str] = field(default_factory=dict)
    steps: int = 0
    chars: int = 0
    #: What is left of ``MAX_PARSE_SECONDS`` for the ``bash -c``/``eval`` texts of this reading.
    parse_seconds: float = MAX_PARSE_SECONDS
    depth: int = 0
    at: int = 0
    #: The line commands are recorded with inside ``bash -c`` / ``eval`` text (None: their own).
    fixed_line: int | None = None
    stopped: bool = False

    def charge(self, characters: int) -> None:
        """Characters produced, against ``MAX_CHARS``."""
        self.chars += characters
        if self.chars > MAX_CHARS:
            raise too_much("shell_chars", MAX_CHARS, self.at)

    def step(self, count: int = 1) -> None:
        """Work done, against ``MAX_STEPS``."""
        self.steps += count
        if self.steps > MAX_STEPS:
            raise too_much("shell_work", MAX_STEPS, self.at)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_much("shell_nesting", MAX_DEPTH, self.at)

    # --- statements ------------------------------------------------------------------------------

    def statements(self, nodes: Sequence[Node]) -> None:
        for node in nodes:
            if self.stopped:
                return
            self.statement(node)

    def statement(self, node: Node) -> None:
        self.enter()
        self.step()
        self.at = self.fixed_line or _line(node)
        try:
            self._dispatch(node)
        finally:
            self.depth -= 1

    def _dispatch(self, node: Node) -> None:
        kind = node.type
        if kind == "compound_statement" and _is_arithmetic(node):
            for child in node.named_children:  # (( X += 1 )): for what it assigns
                self.arithmetic(child)
        elif kind in _STATEMENTS:
            self.statements(_body(node))
        elif kind == "variable_assignment":
            self.assign(node)
        elif kind in ("variable_assignments", "declaration_command"):
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.assign(child)
        elif kind == "unset_command":
            for child in node.named_children:
                self._forget(_text(child))
        elif kind == "command":
            self.command(node)
        elif kind == "list":
            self.status(node)
        elif kind in ("pipeline", "redirected_statement", "negated_command"):
            self.statements([c for c in node.named_children if c.type not in _REDIRECTS])
        elif kind == "if_statement":
            self.branches(node)
        elif kind == "case_statement":
            self.case(node)
        elif kind in ("for_statement", "c_style_for_statement", "while_statement"):
            self.loop(node)
        elif kind == "function_definition" and (name := node.child_by_field_name("name")) is not None:
            body = node.child_by_field_name("body")
            if body is not None:
                self.functions[_text(name)] = body

    def assign(self, node: Node) -> None:
        """``NAME=value``, ``NAME+=value``, ``NAME=(…)``, ``NAME+=(…)``, ``NAME[i]=value``."""
        name_node, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name_node is None:
            return
        append = any(child.type == "+=" for child in node.children)
        if name_node.type == "subscript":
            self._assign_element(name_node, value)
            return
        name = _text(name_node)
        if value is not None and value.type == "array":
            elements, known = self.expand_words(value.named_children)
            earlier = self.script.arrays.get(name, []) if append else []
            if len(earlier) + len(elements) > MAX_ARRAY:
                raise too_much("shell_long_array", MAX_ARRAY, self.at)
            self.script.arrays[name] = earlier + elements
            self.script.variables.pop(name, None)
            (self.unknown.discard if known and not (append and name in self.unknown) else self.unknown.add)(name)
        else:
            text, known = self.value(value)
            before = self.script.variables.get(name, "") if append else ""
            if len(before) + len(text) > MAX_VALUE_CHARS:
                raise too_much("shell_long_value", MAX_VALUE_CHARS, self.at)
            self.set(name, before + text, known and not (append and name in self.unknown))
        self.script.lines[name] = self.at

    def set(self, name: str, text: str, known: bool) -> None:
        self.charge(len(text))
        self.script.variables[name] = text
        self.script.arrays.pop(name, None)
        (self.unknown.discard if known else self.unknown.add)(name)

    def _forget(self, name: str) -> None:
        self.script.variables.pop(name, None)
        self.script.arrays.pop(name, None)
        self.unknown.discard(name)

    def _assign_element(self, subscript: Node, value: Node | None) -> None:
        name_node, index_node = subscript.child_by_field_name("name"), subscript.child_by_field_name("index")
        index = self.arithmetic(index_node) if index_node is not None else None
        if name_node is None or index is None or not 0 <= index < MAX_ARRAY:
            return
        name = _text(name_node)
        elements = self.script.arrays.setdefault(name, [])
        text, _ = self.value(value)
        if index < len(elements):
            elements[index] = text
        else:
            elements.append(text)  # bash arrays are sparse; the order is what a launch line sees
        self.script.lines[name] = self.at

    def command(self, node: Node) -> None:
        """A simple command: its prefixes as its environment, ``bash -c``/``eval`` and functions followed."""
        own: dict[str, tuple[str, bool]] = {}
        for child in node.named_children:
            if child.type == "variable_assignment" and (name := child.child_by_field_name("name")) is not None:
                own[_text(name)] = self.value(child.child_by_field_name("value"))
        env = {**self.env, **{key: text for key, (text, _) in own.items()}}
        words = self.words([*node.children_by_field_name("name"), *node.children_by_field_name("argument")])
        if words[:1] == ["env"]:  # env VAR=value … program
            words = words[1:]
            while words and _ENV_WORD.fullmatch(words[0]):
                key, _, text = words.pop(0).partition("=")
                env[key] = text
        if not words:  # only assignments (the command expanded to nothing): they stay set
            for key, (text, known) in own.items():
                self.set(key, text, known)
                self.script.lines[key] = self.at
            return
        if words[0] == "exit":
            self.stopped = True
        elif words[0] in _READERS:
            self._read_at_start(words)
        elif words[0] in self.functions and words[0] not in self.calling:
            self._call(words[0], env)
        elif (inner := _inline_script(words)) is not None:
            self.inline(inner, env)
        else:
            line = self.fixed_line or _line(node)
            self.script.commands.append(Command(tuple(words), line, env))

    def _read_at_start(self, words: Sequence[str]) -> None:
        """``let`` computes (each word an arithmetic expression); ``read``, ``getopts``, ``mapfile`` set unknowns."""
        names = [word for word in words[1:] if _NAME.fullmatch(word)]
        if words[0] == "let":
            for word in words[1:]:
                self.inline(f"(( {word} ))", self.env)
            return
        if words[0] == "getopts":  # getopts OPTSTRING NAME
            names = [words[2]] if len(words) > 2 and _NAME.fullmatch(words[2]) else []
        for name in names:
            self.set(name, "$" + name, False)
            self.script.lines[name] = self.at

    def _call(self, name: str, env: dict[str, str]) -> None:
        """A function's body where it is called, with the call's prefixes (``NNODES=2 train``); not recursively."""
        saved, self.env = self.env, env
        self.calling.add(name)
        try:
            self.statement(self.functions[name])
        finally:
            self.calling.discard(name)
            self.env = saved

    def inline(self, text: str, env: dict[str, str]) -> None:
        """The text of ``bash -c "…"`` or ``eval "…"``, read as a script of its own (its commands on this line)."""
        saved = (self.env, self.fixed_line, self.stopped)
        self.env, self.fixed_line = env, self.at
        self.charge(len(text))
        self.step(1 + len(text) // 64)
        try:
            started = time.thread_time()
            root = parse(text, self.parse_seconds)
            self.parse_seconds -= time.thread_time() - started
            self.statement(root)
        finally:
            self.env, self.fixed_line, self.stopped = saved

    def loop(self, node: Node) -> None:
        """A loop's body read once, its ``for`` variable unknown; what it assigns is unknown after it (how many
        passes run, and so which value is left, only the run knows: ``while [[ $# -gt 0 ]]; do case $1 …``)."""
        variable = node.child_by_field_name("variable")
        if variable is not None:
            name = _text(variable)
            self.set(name, "$" + name, False)
        body = node.child_by_field_name("body")
        if body is not None:
            self.statement(body)
            for name in set(self._assigned_in(body)):
                if name not in self.script.arrays:
                    self.set(name, "$" + name, False)  # its value after the loop is the run's, as with $1
                self.unknown.add(name)

    def _assigned_in(self, body: Node) -> Iterator[str]:
        """Every variable an assignment in ``body`` names, whichever branch it is in (bounded by the work budget)."""
        stack = [body]
        while stack:
            node = stack.pop()
            self.step()
            if node.type == "variable_assignment" and (name := node.child_by_field_name("name")) is not None:
                yield _name_of(name) or _text(name)
            stack.extend(node.named_children)

    # --- conditions ------------------------------------------------------------------------------

    def branches(self, node: Node) -> None:
        """``if``/``elif``/``else``: the first branch whose condition holds; unknown conditions are choices."""
        arms = list(_arms(node))
        for index, (condition, body) in enumerate(arms):
            if not condition:  # else
                self.statements(body)
                return
            self.statements(condition[:-1])  # the last statement of a condition list decides
            holds = self.truth(condition[-1])
            if holds is None:
                rest = arms[index + 1 :]
                otherwise_exits = bool(rest) and not rest[0][0] and _exits(rest[0][1])
                holds = self.choose(condition, [(True, not _exits(body)), (False, not otherwise_exits)])
            if holds:
                self.statements(body)
                return

    def status(self, node: Node) -> bool:
        """Run a statement as a condition would: its exit status (commands are taken to succeed)."""
        self.enter()
        try:
            return self._status(node)
        finally:
            self.depth -= 1

    def _status(self, node: Node) -> bool:
        if node.type == "list":
            left, right = node.named_children[0], node.named_children[-1]
            operator = next((_text(c) for c in node.children if c.type in ("&&", "||")), "&&")
            result = self._left_status(left, operator, right)
            run_right = result if operator == "&&" else not result
            return self.status(right) if run_right else result
        if _is_test(node):
            return self.truth(node) is not False  # alone a test changes nothing; in a list, see _left_status
        self.statement(node)
        return not (node.type == "command" and _text(node).strip() == "false")

    def _left_status(self, left: Node, operator: str, right: Node) -> bool:
        """``[ -z "$X" ] && X=1``: an undecided test before ``&&``/``||`` is a choice (one that ``exit``s is not)."""
        if not _is_test(left):
            return self.status(left)
        holds = self.truth(left)
        if holds is None:
            exits = _exits([right])
            options = [(True, not (exits and operator == "&&")), (False, not (exits and operator == "||"))]
            holds = self.choose([left], options)
        return holds

    def truth(self, node: Node) -> bool | None:
        """Whether a condition holds, from the script's own values; None where that needs anything else."""
        self.enter()
        try:
            return self._truth(node)
        finally:
            self.depth -= 1

    def _truth(self, node: Node) -> bool | None:
        kind = node.type
        if kind == "test_command" or kind == "parenthesized_expression":
            inner = node.named_children
            return self.test(inner[0]) if len(inner) == 1 else None
        if kind == "negated_command":
            holds = self.truth(node.named_children[-1]) if node.named_children else None
            return None if holds is None else not holds
        if kind == "list":
            operator = next((_text(c) for c in node.children if c.type in ("&&", "||")), "&&")
            return _logic(operator, self.truth(node.named_children[0]), lambda: self.truth(node.named_children[-1]))
        if kind == "compound_statement" and _is_arithmetic(node):
            value = self.arithmetic(node.named_children[0]) if node.named_children else None
            return None if value is None else value != 0
        if kind == "command":
            words = self.known_words(node)
            if words is not None and words[:1] in (["true"], [":"], ["false"]):
                return words[0] != "false"
            if words is not None and words[:1] in (["test"], ["["]):
                return _test_words(words[1:] if words[0] == "test" else words[1:-1])
        return None

    def test(self, node: Node) -> bool | None:
        """An expression inside ``[ … ]`` or ``[[ … ]]``."""
        kind = node.type
        if kind == "parenthesized_expression":
            return self.truth(node)
        if kind == "binary_expression":
            operator_node = node.child_by_field_name("operator")
            operator = _text(operator_node) if operator_node is not None else ""
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                return None
            if operator in ("&&", "-a", "||", "-o"):
                return _logic(operator, self.test(left), lambda: self.test(right))
            if right.type == "extglob_pattern" and operator in ("=", "==", "!="):
                left_value, pattern = self.word(left), self.word(right)
                same = None if left_value is None or pattern is None else self.matches(left_value, pattern)
                return None if same is None else same != (operator == "!=")
            return _compare(self.word(left), operator, self.word(right))
        if kind == "unary_expression":
            operator_node = node.child_by_field_name("operator")
            operator = _text(operator_node) if operator_node is not None else _text(node.children[0])
            operand = node.named_children[-1]
            if operator == "!":
                holds = self.test(operand)
                return None if holds is None else not holds
            value = self.word(operand)
            return _test_words([operator, value]) if value is not None else None
        value = self.word(node)
        return None if value is None else value != ""

    def choose(self, condition: Sequence[Node], options: Sequence[tuple[bool, bool]]) -> bool:
        """An undecided condition: the branch ``choices`` names, else the first feasible (not ``exit``-ing) one."""
        feasible = [value for value, ok in options if ok] or [options[0][0]]
        if len(feasible) == 1:
            return feasible[0]
        text = _condition_text(condition)
        index = self.pick(len(feasible), lambda i: f"{'' if feasible[i] else 'not '}{text} (line {self.at})")
        self.note_undecided(condition)
        return feasible[index]

    def pick(self, count: int, label: Callable[[int], str]) -> int:
        """The choice ``choices`` names at this point (else the first), recorded with its label."""
        position = len(self.taken)
        index = self.choices[position] if position < len(self.choices) else 0
        index = index if 0 <= index < count else 0
        self.taken.append((index, count))
        self.labels.append(label(index))
        return index

    def note_undecided(self, condition: Sequence[Node]) -> None:
        if len(self.undecided) >= MAX_UNDECIDED:
            raise too_much("shell_branches", MAX_UNDECIDED, self.at)
        text = _condition_text(condition)
        names = tuple(dict.fromkeys(n for c in condition for n in self._unknown_names(c)))
        self.undecided.append(Undecided(text, names, self.at))

    def _unknown_names(self, node: Node) -> Iterator[str]:
        """The variables a condition names that the script does not set (bounded by the work budget)."""
        stack = [node]
        while stack:
            current = stack.pop()
            self.step()
            if current.type in ("variable_name", "special_variable_name"):
                name = _text(current)
                if name in self.unknown or (name not in self.script.variables and name not in self.script.arrays):
                    yield name
            stack.extend(reversed(current.named_children))

    def matches(self, text: str, pattern: str) -> bool | None:
        """A bash glob (``*``, ``?``, ``[…]``) against a value: a plain pattern is compared, a glob costs ten steps
        (compiling it is the cost), one over 256 characters is not tried (None)."""
        if not any(char in pattern for char in "*?["):
            return text == pattern
        if len(pattern) > 256:
            return None
        self.step(10)
        return fnmatch.fnmatchcase(text, pattern)

    def case(self, node: Node) -> None:
        """``case … esac``: the first matching pattern; an unknown subject makes each item a choice."""
        subject_node = node.child_by_field_name("value")
        subject = self.word(subject_node) if subject_node is not None else None
        items = [child for child in node.named_children if child.type == "case_item"]
        if subject is not None:
            for item in items:
                self.step()
                patterns = [self.word(p) for p in item.children_by_field_name("value")]
                matches = [None if p is None else self.matches(subject, p) for p in patterns]
                if None in matches:
                    break
                if any(matches):
                    self.statements(_item_body(item))
                    return
            else:
                return
        self._choose_item(subject_node, items)

    def _choose_item(self, subject: Node | None, items: Sequence[Node]) -> None:
        """Each item that does not ``exit`` is a choice, and so is matching none where no ``*)`` catches all."""
        options: list[tuple[Node | None, list[Node]]] = []
        for item in items:
            self.step()
            body = _item_body(item)
            if not _exits(body):
                options.append((item, body))
        if not any(_text(p) == "*" for item in items for p in item.children_by_field_name("value")):
            options.append((None, []))
        if not options:
            return
        index = 0
        if len(options) > 1:
            subject_text = _text(subject) if subject is not None else "?"

            def label(index: int) -> str:
                item = options[index][0]
                patterns = "|".join(_text(p) for p in item.children_by_field_name("value")) if item else ""
                return _short(f"{subject_text} matches {patterns or 'no pattern'}") + f" (line {self.at})"

            index = self.pick(len(options), label)
            self.note_undecided([subject] if subject is not None else [])
        self.statements(options[index][1])

    # --- words and values ------------------------------------------------------------------------

    def words(self, nodes: Sequence[Node]) -> list[str]:
        """The words the arguments expand to (unknown parts kept as written)."""
        return self.expand_words(nodes)[0]

    def expand_words(self, nodes: Sequence[Node]) -> tuple[list[str], bool]:
        """The words, and whether all of them are known. Parts the grammar splits without a blank between them
        (``$DIR/$NAME.out``) are one word, as bash reads them."""
        words: list[str] = []
        known, end, previous, plain = True, -1, None, 0
        fields: _Fields | None = None  # the word being built from parts (None: the last word is complete)
        for node in nodes:
            if node.type == "comment":
                continue
            if node.type == "command_name" and node.named_child_count == 1:
                node = node.named_children[0]
            adjacent = node.start_byte == end
            if not adjacent and fields is not None:
                words, fields = self._flush(words, fields), None
            if not adjacent and (text := _plain_text(node)) is not None:
                words.append(text)  # most words: nothing to expand, unquote or split
                plain += len(text)
                self.step()
            else:
                if fields is None:  # a part joined to a plain word before it continues that word
                    fields = _Fields(self)
                    if adjacent and words:
                        fields.words, fields.open = [words.pop()], True
                if adjacent and previous is not None and _dangling_dollar(previous) and node.type == "word":
                    self._after_dollar(node, fields)  # the grammar's split of $DIR/$NAME.out: "$DIR/$" "NAME.out"
                else:
                    self.part(node, fields, quoted=False)
                known = known and not fields.unknown
            previous, end = node, node.end_byte
        words = self._flush(words, fields) if fields is not None else words
        if len(words) > MAX_ARRAY:
            raise too_much("shell_long_array", MAX_ARRAY, self.at)
        self.charge(plain)
        return words, known

    def _after_dollar(self, node: Node, fields: _Fields) -> None:
        """``NAME.out`` after a ``$`` the grammar left at the end of the word before: ``$NAME`` and ``.out``."""
        text = _text(node)
        match = _NAME.match(text)
        if match is None or not fields.words or not fields.words[-1].endswith("$"):
            fields.literal(text)
            return
        fields.words[-1] = fields.words[-1][:-1]
        name = match.group(0)
        value = self.scalar(name)
        if value is None or name in self.unknown:
            fields.unknown = True
        if value is None:
            fields.literal("$" + name)
        else:
            fields.split(value)
        fields.literal(_ESCAPED.sub(r"\1", text[match.end() :]))

    def _flush(self, words: list[str], fields: _Fields) -> list[str]:
        if len(words) + len(fields.words) > MAX_ARRAY:
            raise too_much("shell_long_array", MAX_ARRAY, self.at)
        words += fields.words
        return words

    def _plain(self, node: Node) -> str:
        text = _text(node)
        if len(text) > MAX_VALUE_CHARS:
            raise too_much("shell_long_value", MAX_VALUE_CHARS, self.at)
        self.charge(len(text))
        self.step()
        return text

    def known_words(self, node: Node) -> list[str] | None:
        parts = [*node.children_by_field_name("name"), *node.children_by_field_name("argument")]
        words, known = self.expand_words(parts)
        return words if known else None

    def word(self, node: Node) -> str | None:
        """One operand as a string, or None where it depends on something unknown."""
        text, known = self.value(node)
        return text if known else None

    def value(self, node: Node | None) -> tuple[str, bool]:
        """An assignment's value: expanded, not split; and whether every part of it is known."""
        if node is None:
            return "", True
        if node.type in ("word", "number") and not node.named_children and b"\\" not in (node.text or b"\\"):
            return self._plain(node), True  # most values: nothing to expand
        fields = _Fields(self)
        self.part(node, fields, quoted=True)
        return " ".join(fields.words), not fields.unknown

    def part(self, node: Node, fields: _Fields, quoted: bool) -> None:
        self.enter()
        self.step()
        try:
            kind = node.type
            if kind in ("word", "command_name"):
                if kind == "command_name" or node.named_children:
                    for child in node.named_children:
                        self.part(child, fields, quoted)
                else:
                    fields.literal(_ESCAPED.sub(r"\1", _text(node)))
            elif kind == "raw_string":
                fields.literal(_text(node)[1:-1])
            elif kind == "ansi_c_string":
                fields.literal(re.sub(r"\\(.)", lambda m: _C_ESCAPES.get(m.group(1), m.group(0)), _text(node)[2:-1]))
            elif kind in ("string", "translated_string"):
                self.string(node, fields)
            elif kind == "concatenation":
                for child in node.children:
                    self.part(child, fields, quoted)
            elif kind in ("simple_expansion", "expansion"):
                self.expansion(node, fields, quoted)
            elif kind == "arithmetic_expansion":
                value = self.arithmetic(node.named_children[0]) if len(node.named_children) == 1 else None
                self._known_or_written(node, fields, None if value is None else str(value))
            elif kind in ("command_substitution", "process_substitution"):
                self._known_or_written(node, fields, None)
            else:
                fields.literal(_text(node))
        finally:
            self.depth -= 1

    def _known_or_written(self, node: Node, fields: _Fields, value: str | None) -> None:
        if value is None:
            fields.unknown = True
            fields.literal(_text(node))
        else:
            fields.literal(value)

    def string(self, node: Node, fields: _Fields) -> None:
        """``"…"``: the text between the quotes with its expansions; ``\\$ \\" \\\\ \\` `` and ``\\``-newline undone."""
        inner = list(node.named_children)
        if not (inner and all(_is_all_elements(c) for c in inner)):
            fields.literal("")  # "" is a word of its own; "${EMPTY[@]}" alone is none
        raw, start = node.text or b"", node.start_byte
        position = 1 if _text(node).startswith('"') else 2
        for child in inner:
            if child.type != "string_content":
                _gap(fields, raw[position : child.start_byte - start])
                self.part(child, fields, quoted=True)
                position = child.end_byte - start
        _gap(fields, raw[position:-1])

    def expansion(self, node: Node, fields: _Fields, quoted: bool) -> None:
        found, known = self.lookup(node)
        if found is None:
            self._known_or_written(node, fields, None)
            return
        fields.unknown = fields.unknown or not known  # set from something unknown: its text as the script has it
        if isinstance(found, list):
            fields.elements(found, quoted)
        elif quoted:
            fields.literal(found)
        else:
            fields.split(found)

    def lookup(self, node: Node) -> tuple[str | list[str] | None, bool]:
        """``$X``, ``${X}``, ``${X:-…}`` and the like, ``${A[@]}``, ``${A[i]}``, ``${#X}``: the value, and whether
        it is known (None: the script does not set it, or a form not read)."""
        inner = [c for c in node.children if c.type not in ("${", "}", "$")]
        if not inner:
            return None, False
        name = _name_of(inner[-1])
        known = name not in self.unknown
        if node.type == "simple_expansion" or (len(inner) == 1 and inner[0].type == "variable_name"):
            return (self.scalar(name) if inner[0].type == "variable_name" else None), known
        if len(inner) == 1 and inner[0].type == "subscript":
            return self.element(inner[0]), known
        if len(inner) == 2 and inner[0].type == "#" and known:
            found = self.element(inner[1]) if inner[1].type == "subscript" else self.scalar(name)
            return (None if found is None else str(len(found))), True
        if len(inner) >= 2 and inner[0].type == "variable_name" and inner[1].type in _DEFAULTS:
            return self.default(_text(inner[0]), inner[1].type, inner[2:]), True
        return None, False

    def scalar(self, name: str) -> str | None:
        """A variable's value as the script sets it (for an unknown one: its text as written)."""
        if name in self.script.arrays:
            elements = self.script.arrays[name]
            return elements[0] if elements else ""
        return self.script.variables.get(name)

    def element(self, subscript: Node) -> str | list[str] | None:
        name_node, index_node = subscript.child_by_field_name("name"), subscript.child_by_field_name("index")
        if name_node is None or index_node is None or _text(name_node) not in self.script.arrays:
            return None
        elements = self.script.arrays[_text(name_node)]
        index_text = _text(index_node)
        if index_text == "@":
            return list(elements)
        if index_text == "*":
            return " ".join(elements)
        index = self.arithmetic(index_node)
        if index is None:
            return None
        return elements[index] if -len(elements) <= index < len(elements) else ""

    def default(self, name: str, operator: str, parts: Sequence[Node]) -> str | None:
        """``${X:-w}`` ``${X-w}`` ``${X:=w}`` ``${X=w}`` ``${X:+w}`` ``${X+w}`` (unset in the script: the default)."""
        if name in self.unknown:
            return None
        current = self.scalar(name)
        is_set = current is not None and (current != "" or ":" not in operator)
        if operator.endswith("+"):
            return self._joined(parts) if is_set else ""
        if is_set:
            return current
        text = self._joined(parts)
        if text is not None and operator.endswith("="):
            self.set(name, text, True)
            self.script.lines[name] = self.at
        return text

    def _joined(self, parts: Sequence[Node]) -> str | None:
        fields = _Fields(self)
        for part in parts:
            self.part(part, fields, quoted=True)
        return None if fields.unknown else "".join(fields.words)

    # --- arithmetic ------------------------------------------------------------------------------

    def arithmetic(self, node: Node) -> int | None:
        """``$((…))`` as bash computes it, within ``MAX_DIGITS``; None where an operand is unknown."""
        self.enter()
        self.step()
        try:
            value = self._arithmetic(node)
        finally:
            self.depth -= 1
        if value is not None and abs(value) >= _LIMIT:
            raise too_much("shell_long_number", MAX_DIGITS, self.at)
        return value

    def _arithmetic(self, node: Node) -> int | None:
        kind = node.type
        if kind in ("postfix_expression", "unary_expression", "binary_expression") and _assigns(node):
            return self.assign_arithmetic(node)
        if kind == "number" or (kind == "word" and not node.named_children):
            return self.integer(_text(node))
        if kind == "variable_name":
            found = self.scalar(_text(node)) if _text(node) not in self.unknown else None
            return None if found is None else self.integer(found.strip() or "0")
        if kind in ("simple_expansion", "expansion", "string", "concatenation", "arithmetic_expansion"):
            text = self.word(node)
            return None if text is None else self.integer(text.strip() or "0")
        if kind == "parenthesized_expression":
            return self.arithmetic(node.named_children[0]) if len(node.named_children) == 1 else None
        if kind == "unary_expression":
            operand = self.arithmetic(node.named_children[-1]) if node.named_children else None
            operator = _text(node.children[0])
            return None if operand is None else _unary(operator, operand)
        if kind == "binary_expression":
            left_node, right_node = node.child_by_field_name("left"), node.child_by_field_name("right")
            operator_node = node.child_by_field_name("operator")
            if left_node is None or right_node is None or operator_node is None:
                return None
            left, right = self.arithmetic(left_node), self.arithmetic(right_node)
            return None if left is None or right is None else _binary(_text(operator_node), left, right, self.at)
        if kind == "ternary_expression":
            condition = node.child_by_field_name("condition")
            value = self.arithmetic(condition) if condition is not None else None
            chosen = node.child_by_field_name("consequence" if value else "alternative")
            return None if value is None or chosen is None else self.arithmetic(chosen)
        return None

    def assign_arithmetic(self, node: Node) -> int | None:
        """``X = 3``, ``X += 2``, ``X++``, ``--X`` inside ``(( ))`` or ``$(( ))``: the variable set (or unknown)."""
        target = node.child_by_field_name("left") or node.named_children[0]
        operator = next(c.type for c in node.children if not c.is_named and c.type in _ASSIGNING)
        if target.type != "variable_name":
            return None
        name = _text(target)
        current = self.arithmetic(target) if operator != "=" else 0
        if operator in ("++", "--"):
            value = None if current is None else current + (1 if operator == "++" else -1)
            result = current if node.type == "postfix_expression" else value
        else:
            right_node = node.child_by_field_name("right")
            right = self.arithmetic(right_node) if right_node is not None else None
            value = right if operator == "=" else None
            if operator != "=" and current is not None and right is not None:
                value = _binary(operator[:-1], current, right, self.at)
            result = value
        if value is not None and abs(value) >= _LIMIT:
            raise too_much("shell_long_number", MAX_DIGITS, self.at)
        self.set(name, str(value) if value is not None else "$" + name, value is not None)
        self.script.lines[name] = self.at
        return result

    def integer(self, text: str) -> int | None:
        """A bash integer constant: decimal, ``0x…``, ``0…`` (octal), ``base#digits``."""
        text = text.strip()
        sign = -1 if text.startswith("-") else 1
        text = text.lstrip("+-")
        if len(text) > MAX_DIGITS + 2:
            if text.isdigit():
                raise too_much("shell_long_number", MAX_DIGITS, self.at)
            return None
        try:
            if "#" in text:
                base, _, digits = text.partition("#")
                return sign * int(digits, int(base))
            if text[:2].lower() == "0x":
                return sign * int(text[2:], 16)
            return sign * int(text, 8 if len(text) > 1 and text.startswith("0") else 10)
        except ValueError:
            return None


def _gap(fields: _Fields, raw: bytes) -> None:
    """Literal text inside ``"…"``: only ``\\$ \\` \\" \\\\`` and ``\\``-newline are escapes there."""
    if raw:
        text = raw.decode("utf-8", "replace")
        fields.literal(_ESCAPED_IN_DOUBLE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), text))


def _binary(operator: str, left: int, right: int, line: int) -> int | None:
    if operator in ("/", "%"):
        if right == 0:
            return None
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)  # C: towards zero
        return quotient if operator == "/" else left - quotient * right
    if operator == "**":
        if right < 0:
            return None
        if abs(left) > 1 and right * abs(left).bit_length() > 4 * MAX_DIGITS:
            raise too_much("shell_long_number", MAX_DIGITS, line)
        return int(left**right)
    if operator in ("<<", ">>"):
        if right < 0 or (operator == "<<" and right > 4 * MAX_DIGITS):
            raise too_much("shell_long_number", MAX_DIGITS, line)
        return left << right if operator == "<<" else left >> right
    table = {
        "+": lambda: left + right,
        "-": lambda: left - right,
        "*": lambda: left * right,
        "<": lambda: int(left < right),
        ">": lambda: int(left > right),
        "<=": lambda: int(left <= right),
        ">=": lambda: int(left >= right),
        "==": lambda: int(left == right),
        "!=": lambda: int(left != right),
        "&&": lambda: int(bool(left and right)),
        "||": lambda: int(bool(left or right)),
        "&": lambda: left & right,
        "|": lambda: left | right,
        "^": lambda: left ^ right,
    }
    compute = table.get(operator)
    return compute() if compute is not None else None


def _unary(operator: str, operand: int) -> int | None:
    return {"-": -operand, "+": operand, "!": int(not operand), "~": ~operand}.get(operator)


def _compare(left: str | None, operator: str, right: str | None) -> bool | None:
    """``=``, ``==``, ``!=`` (a glob on the right in ``[[ … ]]``), ``-eq`` ``-ne`` ``-lt`` ``-le`` ``-gt`` ``-ge``."""
    if left is None or right is None:
        return None
    if operator in ("=", "==", "!="):
        return (left == right) != (operator == "!=")
    numbers = {"-eq": "==", "-ne": "!=", "-lt": "<", "-le": "<=", "-gt": ">", "-ge": ">="}
    if operator in numbers:
        if not (re.fullmatch(r"\s*[+-]?\d{1,30}\s*", left) and re.fullmatch(r"\s*[+-]?\d{1,30}\s*", right)):
            return None
        return bool(_binary(numbers[operator], int(left), int(right), 0))
    return None


def _test_words(words: Sequence[str]) -> bool | None:
    """``test``'s forms with one to three words whose values are all known."""
    if len(words) == 1:
        return words[0] != ""
    if len(words) == 2 and words[0] in ("-z", "-n"):
        return (words[1] == "") == (words[0] == "-z")
    if len(words) == 2 and words[0] == "!":
        return words[1] == ""
    if len(words) == 3:
        return _compare(words[0], words[1], words[2])
    return None


def _logic(operator: str, left: bool | None, right: Callable[[], bool | None]) -> bool | None:
    """Three-valued and/or: a known left side can decide alone."""
    conjunction = operator in ("&&", "-a")
    if left is not None and left != conjunction:
        return left
    other = right()
    if left is None:
        return other if other is not None and other != conjunction else None
    return other


def _body(node: Node) -> list[Node]:
    return [child for child in node.named_children if child.type != "comment"]


def _arms(node: Node) -> Iterator[tuple[list[Node], list[Node]]]:
    """(condition, body) of ``if`` and each ``elif``; ``else`` as an empty condition."""
    for arm in [node, *(c for c in node.named_children if c.type in ("elif_clause", "else_clause"))]:
        if arm.type == "else_clause":
            yield [], _body(arm)
            continue
        condition: list[Node] = []
        body: list[Node] = []
        seen_then = False
        for child in arm.children:
            if child.type == "then":
                seen_then = True
            elif child.is_named and child.type not in ("comment", "elif_clause", "else_clause"):
                (body if seen_then else condition).append(child)
        yield condition, body


def _item_body(item: Node) -> list[Node]:
    values = {c.id for c in item.children_by_field_name("value")}
    return [c for c in item.named_children if c.id not in values and c.type != "comment"]


def _exits(body: Sequence[Node], depth: int = 0) -> bool:
    """Whether a branch leaves the script: ``exit`` among its statements (or in a ``{ …; }`` a few levels down)."""
    for node in body:
        if node.type == "command":
            name = node.child_by_field_name("name")
            if name is not None and _text(name) == "exit":
                return True
        if depth < 3 and node.type in ("compound_statement", "list") and _exits(node.named_children[-2:], depth + 1):
            return True
    return False


def _assigns(node: Node) -> bool:
    return any(not child.is_named and child.type in _ASSIGNING for child in node.children)


def _plain_text(node: Node) -> str | None:
    """A word with nothing to expand, unquote or split, as it stands (None for any other node)."""
    if node.type not in ("word", "number") or node.named_child_count:
        return None
    raw = node.text or b"\\"
    if b"\\" in raw or len(raw) > MAX_VALUE_CHARS:
        return None  # the slow path unquotes it, or refuses it as too long
    return raw.decode("utf-8", "replace")


def _dangling_dollar(node: Node) -> bool:
    return node.type == "concatenation" and node.children[-1].type == "$" and not node.children[-1].is_named


def _name_of(node: Node) -> str:
    """The variable an expansion names: ``X`` of ``$X``, ``${X:-…}``, ``${#X}``, ``${X[@]}``."""
    if node.type == "subscript":
        name = node.child_by_field_name("name")
        return _text(name) if name is not None else ""
    return _text(node) if node.type == "variable_name" else ""


def _is_test(node: Node) -> bool:
    arithmetic = node.type == "compound_statement" and _is_arithmetic(node)
    return node.type in ("test_command", "negated_command") or arithmetic


def _is_arithmetic(node: Node) -> bool:
    return bool(node.children) and node.children[0].type == "(("


def _is_all_elements(node: Node) -> bool:
    text = _text(node)
    return node.type in ("expansion", "simple_expansion") and (text.endswith("[@]}") or text == "$@")


def _condition_text(condition: Sequence[Node]) -> str:
    return _short("; ".join(" ".join(_text(node).split()) for node in condition))


def _short(text: str) -> str:
    return text if len(text) <= 80 else text[:77] + "..."


def _inline_script(words: Sequence[str]) -> str | None:
    """The text ``eval …`` or ``bash -c "…"`` (``sh -c``, also behind ``srun``, ``nohup`` …) runs; else None."""
    if words[0] == "eval" and len(words) > 1:
        return " ".join(words[1:])
    shell = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] in ("bash", "sh")), None)
    if shell is None or "-c" not in words[shell + 1 : -1]:
        return None
    options = words[shell + 1 :]
    return options[options.index("-c") + 1]
