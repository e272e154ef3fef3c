"""Reading a launch script: once as written (``read_script``), once per feasible choice at its undecided
conditions (``alternatives``), and the lines the grammar could not read (``grammar_errors``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from core.configs.base import Script
from core.configs.shell.evaluator import evaluate
from core.configs.shell.grammar import parse
from core.configs.shell.limits import MAX_ALTERNATIVE_STEPS, MAX_ALTERNATIVES, too_much


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


def read_script(text: str, environment: Mapping[str, str] | None = None) -> Script:
    """Assignments and commands of ``text``, in order, with every expansion that can be resolved resolved;
    ``environment``: variables it starts with (exported by a script that runs it)."""
    return evaluate(parse(text), (), environment).script


def reading(text: str, environment: Mapping[str, str] | None = None) -> Reading:
    """``read_script``'s ``Script`` with the variables it leaves unknown named."""
    run = evaluate(parse(text), (), environment)
    return Reading(run.script, frozenset(run.unknown))


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
        found.append(Alternative(_label(run.labels), run.script, frozenset(run.unknown)))
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
