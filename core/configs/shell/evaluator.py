"""The evaluator: one object that binds the pieces, and one reading of a tree (``evaluate``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from effbatch.core.configs.shell.arithmetic import Arithmetic
from effbatch.core.configs.shell.branching import Branching
from effbatch.core.configs.shell.commands import Commands
from effbatch.core.configs.shell.computing import Computing
from effbatch.core.configs.shell.conditions import Conditions
from effbatch.core.configs.shell.expansions import Expansions
from effbatch.core.configs.shell.loops import Loops
from effbatch.core.configs.shell.scopes import Scopes
from effbatch.core.configs.shell.sourcing import Sourcing
from effbatch.core.configs.shell.statements import Statements
from effbatch.core.configs.shell.words import Words

if TYPE_CHECKING:
    from tree_sitter import Node


class Run(
    Statements, Commands, Sourcing, Scopes, Loops, Conditions, Branching, Words, Expansions, Arithmetic, Computing
):
    """One evaluation of a tree: every piece over one ``State`` (the script it builds, its choices, its budget)."""


def evaluate(
    root: Node,
    choices: Sequence[int] = (),
    environment: Mapping[str, str] | None = None,
    arguments: Sequence[str] | None = None,
    files: Mapping[str, str] | None = None,
    name: str = "",
) -> Run:
    """One reading of a parsed script, following ``choices`` at its undecided conditions (then the first), the
    variables of ``environment`` set before it starts (what a script that runs it exported), started with
    ``arguments`` (``$1`` …; None: only the run knows them); ``files``: the sources ``source FILE`` may read (name →
    text), ``name`` this script's among them."""
    run = Run(choices=choices, positional=None if arguments is None else list(arguments), files=files, name=name)
    for name, value in (environment or {}).items():
        run.set(name, value, "$" not in value)
    run.statement(root)
    run.script.undecided = tuple(run.undecided)
    return run
