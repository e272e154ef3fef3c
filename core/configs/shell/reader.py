"""Reading a launch script: once as written (``read_script``), once per feasible choice at its undecided
conditions (``alternatives``), and the lines the grammar could not read (``grammar_errors``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from effbatch.core.configs.base import Script
from effbatch.core.configs.shell.evaluator import Run, evaluate
from effbatch.core.configs.shell.grammar import parse
from effbatch.core.configs.shell.limits import MAX_ALTERNATIVE_STEPS, MAX_ALTERNATIVES, too_much

if TYPE_CHECKING:
    from tree_sitter import Node


@dataclass(frozen=True)
class Alternative:
    """One feasible choice of branches at the script's undecided conditions, and the script read that way."""

    label: str
    script: Script
    #: The variables this reading leaves unknown (as ``Reading.unknown``).
    unknown: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Reading:
    """A script read as written, and the variables whose value only the run decides (in ``script`` as written,
    ``$NAME`` or ``$(( A + 1 ))``, or arrays with an element only the run decides)."""

    script: Script
    unknown: frozenset[str]


@dataclass(frozen=True)
class Sources:
    """The sources ``source FILE`` may read (name → text), and the name of the script read among them."""

    files: Mapping[str, str]
    name: str = ""


def read_script(
    text: str,
    environment: Mapping[str, str] | None = None,
    arguments: Sequence[str] | None = None,
    sources: Sources | None = None,
) -> Script:
    """Assignments and commands of ``text``, in order, with every expansion that can be resolved resolved;
    ``environment``: variables it starts with (exported by a script that runs it); ``arguments``: its ``$1`` …
    (``bash train.sh 2 8`` in a script that runs it; None: only the run knows them); ``sources``: the files its
    ``source FILE`` lines may read (None: none is followed)."""
    return _as_written(parse(text), environment, arguments, sources).script


def reading(
    text: str,
    environment: Mapping[str, str] | None = None,
    arguments: Sequence[str] | None = None,
    sources: Sources | None = None,
) -> Reading:
    """``read_script``'s ``Script`` with the variables it leaves unknown named."""
    run = _as_written(parse(text), environment, arguments, sources)
    return Reading(run.script, frozenset(run.unknown))


def _as_written(
    root: Node, environment: Mapping[str, str] | None, arguments: Sequence[str] | None, sources: Sources | None
) -> Run:
    """The first reading that does not end in a failing ``exit`` (a script that stops on its first choice –
    "started without arguments", "this branch" – was started otherwise by whoever ran it); the first reading
    when every one fails, or when the choices run out of their bounds."""
    files, name = (sources.files, sources.name) if sources is not None else (None, "")
    first = evaluate(root, (), environment, arguments, files, name)
    if not _fails(first):
        return first
    pending, spent, tried = _next_choices(first, ()), first.steps, 1
    while pending and tried < MAX_ALTERNATIVES and spent <= MAX_ALTERNATIVE_STEPS:
        choices = pending.pop(0)
        run = evaluate(root, choices, environment, arguments, files, name)
        spent, tried = spent + run.steps, tried + 1
        if not _fails(run):
            return run
        pending += _next_choices(run, choices)
    return first


def _fails(run: Run) -> bool:
    return run.stopped and run.code != 0


def _next_choices(run: Run, choices: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The readings that differ from ``run`` in one choice after those ``choices`` fixed."""
    taken = [index for index, _ in run.taken]
    return [
        (*taken[:position], other)
        for position in range(len(choices), len(run.taken))
        for other in range(1, run.taken[position][1])
    ]


def alternatives(text: str, limit: int = MAX_ALTERNATIVES, sources: Sources | None = None) -> list[Alternative]:
    """The script read once per feasible choice at its undecided conditions (the first is ``read_script``'s), and
    between the files an undecided ``source FILE`` may read."""
    files, name = (sources.files, sources.name) if sources is not None else (None, "")
    root = parse(text)
    found: list[Alternative] = []
    failing: list[bool] = []
    pending: list[tuple[int, ...]] = [()]
    spent = 0
    while pending and len(found) < limit:
        if spent > MAX_ALTERNATIVE_STEPS:
            raise too_much("shell_work", MAX_ALTERNATIVE_STEPS, None)
        choices = pending.pop(0)
        run = evaluate(root, choices, files=files, name=name)
        spent += run.steps
        found.append(Alternative(_label(run.labels), run.script, frozenset(run.unknown)))
        failing.append(_fails(run))
        taken = [index for index, _ in run.taken]
        for position in range(len(choices), len(run.taken)):
            if len(found) + len(pending) >= limit:
                break  # enough to fill the limit: the rest is never read
            pending += [(*taken[:position], other) for other in range(1, run.taken[position][1])]
    if failing and failing[0] and not all(failing):  # as written is the first reading that does not fail
        found.insert(0, found.pop(failing.index(False)))
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
